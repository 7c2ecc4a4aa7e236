/* SPDX-License-Identifier: MIT */
/*
 * Synchronisation: barrier() is the block barrier instruction, which
 * also makes the memory written before it visible after it, to the
 * block (local) and to the device (global), so the flags need nothing
 * more; the fences are RISC-V fences, ordering all memory whatever the
 * flags say.
 */
#include "simt-cl.h"

void SIMT_OVL barrier(cl_mem_fence_flags flags)
{
    (void)flags;
    __asm__ __volatile__(".insn r " SIMT_CL_STR(SIMT_OPC_CUSTOM0) ", "
                         SIMT_CL_STR(SIMT_F3_BARRIER) ", 0, x0, x0, x0"
                         ::: "memory");
}

void SIMT_OVL mem_fence(cl_mem_fence_flags flags)
{
    (void)flags;
    __asm__ __volatile__("fence rw, rw" ::: "memory");
}

void SIMT_OVL read_mem_fence(cl_mem_fence_flags flags)
{
    (void)flags;
    __asm__ __volatile__("fence r, r" ::: "memory");
}

void SIMT_OVL write_mem_fence(cl_mem_fence_flags flags)
{
    (void)flags;
    __asm__ __volatile__("fence w, w" ::: "memory");
}
