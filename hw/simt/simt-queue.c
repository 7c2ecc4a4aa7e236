/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: hardware queues and the command processor.
 *
 * Each queue is a ring of commands in guest memory, read and answered
 * through the PCI DMA API.  A queue runs its commands in order; a LAUNCH
 * holds the queue until the kernel's last block retires.  Anything wrong
 * with a command, or a kernel fault, stops that queue alone with an error
 * status and SIMT_IRQ_ERROR; the other queues go on.
 *
 * A user queue (SIMT_QCTL_USER) has a ring a process may write: every
 * address it names goes through its context's page tables instead of
 * DMA, and it may not name guest memory, so that it reaches only what
 * the driver mapped for that process.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/pci/pci_device.h"
#include "migration/qemu-file-types.h"
#include "migration/vmstate.h"
#include "simt.h"
#include "simt-queue.h"
#include "simt-sched.h"
#include "simt-preempt.h"
#include "simt-mmu.h"
#include "simt-dma.h"
#include "simt-err.h"
#include "simt-irq.h"
#include "simt-event.h"
#include "simt-timeline.h"
#include "trace.h"

/*
 * Commands a queue starts in one fetch pass, two passes per engine slice
 * (at its start and at its end): however long the ring and however
 * cheap its commands (NOPs, SIGNALs, WAITs already met), a slice costs
 * the host at most this many command fetches per queue.
 */
#define SIMT_FETCH_CMDS         64

static void queue_set_state(SimtState *s, unsigned q, uint32_t state)
{
    SimtQueue *qu = &s->queues[q];

    if (qu->state != state) {
        trace_simt_queue_state(q, qu->state, state);
        qu->state = state;
    }
}

static void queue_fail(SimtState *s, unsigned q, uint32_t error)
{
    SimtQueue *qu = &s->queues[q];

    trace_simt_queue_error(q, error, qu->head);
    qu->error = error;
    qu->error_cmd = qu->head;
    queue_set_state(s, q, SIMT_QSTATE_ERROR);
    simt_irq_raise(s, SIMT_IRQ_ERROR);
}

static void queue_complete_cmd(SimtState *s, unsigned q, uint32_t flags)
{
    SimtQueue *qu = &s->queues[q];

    qu->head = (qu->head + 1) & (qu->size - 1);
    qu->completed++;
    if (flags & SIMT_CMDF_IRQ) {
        simt_irq_raise(s, SIMT_IRQ_QUEUE);
    }
    queue_set_state(s, q, qu->head == qu->tail ? SIMT_QSTATE_IDLE
                                               : SIMT_QSTATE_BUSY);
}

static bool all_zero(const uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (w[i]) {
            return false;
        }
    }
    return true;
}

static bool queue_is_user(const SimtQueue *qu)
{
    return qu->control & SIMT_QCTL_USER;
}

/*
 * User queue @q's access to its memory at device virtual address @va:
 * false, with a context fault recorded and the queue stopped with
 * SIMT_QERR_MMU, if it does not translate (as a copy's, simt-dma.c).
 */
static bool user_access(SimtState *s, unsigned q, uint64_t va, void *buf,
                        uint32_t len, int access)
{
    unsigned ctx = s->queues[q].ctx;
    uint32_t fault_va;
    int reason = simt_mmu_ctx_access(s, ctx, va, buf, len, access,
                                     &fault_va);

    if (!reason) {
        return true;
    }
    trace_simt_user_fault(q, ctx, fault_va, access, reason);
    simt_mmu_fault(s, ctx, q, fault_va, 0, access, reason);
    queue_fail(s, q, SIMT_QERR_MMU);
    return false;
}

/* A semaphore of queue @q: false, the queue stopped, if unreachable. */
static bool sem_read(SimtState *s, unsigned q, uint64_t addr, uint64_t *val)
{
    uint64_t le;

    if (queue_is_user(&s->queues[q])) {
        if (!user_access(s, q, addr, &le, sizeof(le),
                         SIMT_ACCESS_QUEUE_READ)) {
            return false;
        }
    } else if (pci_dma_read(PCI_DEVICE(s), addr, &le, sizeof(le)) !=
               MEMTX_OK) {
        SIMT_GUEST_ERR(simt_err_sem_dma, "queue %u: semaphore at 0x%"
                       PRIx64 " unreachable by DMA", q, addr);
        queue_fail(s, q, SIMT_QERR_DMA);
        return false;
    }
    *val = le64_to_cpu(le);
    return true;
}

static bool sem_write(SimtState *s, unsigned q, uint64_t addr, uint64_t val)
{
    uint64_t le = cpu_to_le64(val);

    if (queue_is_user(&s->queues[q])) {
        return user_access(s, q, addr, &le, sizeof(le),
                           SIMT_ACCESS_QUEUE_WRITE);
    }
    if (pci_dma_write(PCI_DEVICE(s), addr, &le, sizeof(le)) != MEMTX_OK) {
        SIMT_GUEST_ERR(simt_err_sem_dma, "queue %u: semaphore at 0x%"
                       PRIx64 " unreachable by DMA", q, addr);
        queue_fail(s, q, SIMT_QERR_DMA);
        return false;
    }
    return true;
}

/* Whether [@addr, +@len) lies in the 4 GiB a context translates. */
static bool in_device_space(uint64_t addr, uint64_t len)
{
    return addr <= (1ull << 32) && len <= (1ull << 32) - addr;
}

/*
 * With threads > 1 the SMs running the kernel's blocks on several host
 * threads only read its decoded code: decode it all now.  A translated
 * context's blocks run on one thread (simt-sm.c) and decode as they go.
 */
static void kernel_code_shared(SimtState *s, SimtKernel *k)
{
    if (s->sm_threads.count > 1 && k->view.bare) {
        simt_code_decode_all(&k->code, &k->mem);
    }
}

/* Read a kernel's live table at launch; false if it is unreachable. */
static bool load_live(SimtState *s, unsigned q, uint32_t addr)
{
    SimtKernel *k = &s->queues[q].kernel;
    uint32_t n = k->launch.code_size / 4;

    k->live = g_new(uint64_t, n);
    k->live_count = n;
    if (!simt_mmu_ctx_rw(s, k->ctx, addr, (uint8_t *)k->live,
                         (uint64_t)n * sizeof(uint64_t), false)) {
        g_free(k->live);
        k->live = NULL;
        k->live_count = 0;
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        k->live[i] = le64_to_cpu(k->live[i]);
    }
    return true;
}

/*
 * Read a kernel's preemption points at launch: NULL, or why they are not
 * @n ascending aligned pcs of its code.
 */
static const char *load_points(SimtState *s, unsigned q, uint32_t addr,
                               uint32_t n)
{
    SimtKernel *k = &s->queues[q].kernel;
    const SimtLaunch *l = &k->launch;

    if (n > l->code_size / 4) {
        return "more points than instructions";
    }
    k->pp = g_new(uint32_t, n);
    k->pp_count = n;
    if (!simt_mmu_ctx_rw(s, k->ctx, addr, (uint8_t *)k->pp,
                         (uint64_t)n * sizeof(uint32_t), false)) {
        return "unreachable";
    }
    for (uint32_t i = 0; i < n; i++) {
        k->pp[i] = le32_to_cpu(k->pp[i]);
        if (k->pp[i] - l->code_base >= l->code_size || (k->pp[i] & 3) ||
            (i && k->pp[i] <= k->pp[i - 1])) {
            return "not ascending aligned pcs of the code";
        }
    }
    return NULL;
}

/* Check a LAUNCH and build its kernel; a queue error code on failure. */
static uint32_t launch_prepare(SimtState *s, unsigned q,
                               const struct simt_cmd_launch *c)
{
    SimtKernel *k = &s->queues[q].kernel;
    SimtLaunch *l = &k->launch;
    unsigned ctx = s->queues[q].ctx;
    /* Bare contexts see VRAM; translated ones all below the windows. */
    uint64_t limit = simt_mmu_bare(s, ctx) ? s->mem.flat_size
                                           : SIMT_SHARED_BASE;
    uint64_t blocks, local_bytes, local_end;
    const char *why;

    if (c->flags & ~SIMT_CMDF_LAUNCH_ALL) {
        SIMT_GUEST_ERR(simt_err_launch_fields, "queue %u: LAUNCH with flags "
                       "0x%x", q, c->flags);
        return SIMT_QERR_BAD_COMMAND;
    }
    memset(k, 0, sizeof(*k));
    l->entry = c->entry;
    l->code_base = c->code_addr;
    l->code_size = c->code_size;
    memcpy(l->block_dim, c->block, sizeof(l->block_dim));
    memcpy(l->grid_dim, c->grid, sizeof(l->grid_dim));
    l->shared_size = c->shared_size;
    l->local_size = c->local_size;
    memcpy(l->args, c->args, sizeof(l->args));

    why = simt_launch_check(l);
    if (why) {
        SIMT_GUEST_ERR(simt_err_launch_bad, "queue %u: bad launch: %s",
                       q, why);
        return SIMT_QERR_BAD_COMMAND;
    }
    /* In two steps: three 32-bit sizes can wrap 64 bits to 0 blocks. */
    blocks = (uint64_t)l->grid_dim[0] * l->grid_dim[1];
    if (blocks <= UINT32_MAX) {
        blocks *= l->grid_dim[2];
    }
    if (blocks > UINT32_MAX) {
        SIMT_GUEST_ERR(simt_err_launch_grid, "queue %u: grid %u x %u x %u "
                       "has more than 2^32 - 1 blocks", q, l->grid_dim[0],
                       l->grid_dim[1], l->grid_dim[2]);
        return SIMT_QERR_BAD_COMMAND;
    }
    if (c->regs < 1 || c->regs > SIMT_MAX_REGS ||
        c->code_size > SIMT_MAX_CODE_SIZE ||
        (uint64_t)c->code_addr + c->code_size > limit) {
        SIMT_GUEST_ERR(simt_err_launch_range, "queue %u: launch with bad "
                       "registers (%u), grid (%" PRIu64 " blocks) or code "
                       "range [0x%x, +0x%x)", q, c->regs, blocks,
                       c->code_addr, c->code_size);
        return SIMT_QERR_BAD_COMMAND;
    }
    if (queue_is_user(&s->queues[q]) && c->record &&
        !in_device_space(c->record, sizeof(struct simt_completion))) {
        SIMT_GUEST_ERR(simt_err_launch_record, "queue %u: completion record "
                       "at 0x%" PRIx64 " beyond the 4 GiB of device "
                       "addresses", q, c->record);
        return SIMT_QERR_BAD_COMMAND;
    }
    if (c->block_count ? (uint64_t)c->first_block + c->block_count > blocks
                       : c->first_block != 0) {
        SIMT_GUEST_ERR(simt_err_launch_subgrid, "queue %u: subgrid of %u "
                       "blocks from block %u is outside the grid of %" PRIu64
                       " blocks", q, c->block_count, c->first_block, blocks);
        return SIMT_QERR_BAD_COMMAND;
    }

    k->threads = simt_launch_threads(l);
    k->warps = simt_launch_warps(l);
    k->regs = c->regs * k->threads;
    k->local_base = c->local_base;
    /* Up to 1024 threads of 256 MiB each: 64 bits until checked. */
    local_bytes = (uint64_t)k->threads * l->local_size;
    local_end = (uint64_t)c->local_base +
        (uint64_t)simt_cfg(s, SIMT_CFG_SM_COUNT) *
        simt_cfg(s, SIMT_CFG_SM_BLOCKS) * local_bytes;
    k->local_block_bytes = local_bytes;
    if (local_bytes > UINT32_MAX || (local_bytes && local_end > limit)) {
        SIMT_GUEST_ERR(simt_err_launch_local, "queue %u: local memory "
                       "[0x%x, 0x%" PRIx64 ") is outside VRAM",
                       q, c->local_base, local_end);
        return SIMT_QERR_BAD_COMMAND;
    }
    if (simt_block_misfit(k->threads, c->regs, l->shared_size,
                          simt_cfg(s, SIMT_CFG_SM_THREADS),
                          simt_cfg(s, SIMT_CFG_SM_WARPS),
                          simt_cfg(s, SIMT_CFG_SM_REGS),
                          simt_cfg(s, SIMT_CFG_SM_SHARED))) {
        SIMT_GUEST_ERR(simt_err_launch_no_room, "queue %u: a block of %u "
                       "threads, %u registers and %u shared bytes fits on "
                       "no SM", q, k->threads, k->regs, l->shared_size);
        return SIMT_QERR_BAD_LAUNCH;
    }
    if (simt_code_init(&k->code, l->code_base, l->code_size)) {
        SIMT_GUEST_ERR(simt_err_launch_code, "queue %u: no room to decode "
                       "code [0x%x, +0x%x)", q, l->code_base, l->code_size);
        return SIMT_QERR_BAD_COMMAND;
    }
    k->code.timing = &s->timing;
    simt_mmu_view_init(&k->view, s, ctx, &k->mem);
    kernel_code_shared(s, k);
    k->ctx = ctx;
    k->int_regs = c->int_regs;
    k->fp_regs = c->fp_regs;
    if (c->live_addr && !load_live(s, q, c->live_addr)) {
        SIMT_GUEST_ERR(simt_err_launch_live, "queue %u: live table at 0x%x "
                       "is unreachable", q, c->live_addr);
        simt_code_destroy(&k->code);
        return SIMT_QERR_BAD_COMMAND;
    }
    if (c->pp_count) {
        why = load_points(s, q, c->pp_addr, c->pp_count);
        if (why) {
            SIMT_GUEST_ERR(simt_err_launch_points, "queue %u: %u preemption "
                           "points at 0x%x: %s", q, c->pp_count, c->pp_addr,
                           why);
            g_free(k->live);
            g_free(k->pp);
            k->live = NULL;
            k->pp = NULL;
            simt_code_destroy(&k->code);
            return SIMT_QERR_BAD_COMMAND;
        }
    }
    k->redo = g_array_new(false, false, sizeof(uint32_t));
    k->saved = g_array_new(false, false, sizeof(SimtSaved));

    k->next_block = c->first_block;
    k->total_blocks = c->block_count ? c->block_count : blocks;
    k->end_block = c->first_block + k->total_blocks;
    k->record = c->record;
    k->flags = c->flags;
    k->priority = s->queues[q].priority;
    k->seq = s->launch_seq++;
    k->active = true;
    trace_simt_launch(q, l->grid_dim[0], l->grid_dim[1], l->grid_dim[2],
                      k->next_block, k->total_blocks, k->threads, l->entry);
    return SIMT_QERR_NONE;
}

/*
 * Write queue @q's completion record: false if unreachable (a user
 * queue's stopped already with its context fault recorded).
 */
static bool write_record(SimtState *s, unsigned q, const SimtKernel *k,
                         uint32_t status)
{
    struct simt_completion r = {
        .status = cpu_to_le32(status),
        .fault = cpu_to_le32(k->fault.fault),
        .fault_pc = cpu_to_le32(k->fault.fault_pc),
        .fault_addr = cpu_to_le32(k->fault.fault_addr),
        .start_cycle = cpu_to_le64(k->start_cycle),
        .end_cycle = cpu_to_le64(k->end_cycle),
        .thread_insns = cpu_to_le64(k->thread_insns),
        .warp_insns = cpu_to_le64(k->warp_insns),
        .blocks = cpu_to_le32(k->retired),
    };

    for (int i = 0; i < 3; i++) {
        r.fault_block[i] = cpu_to_le32(k->fault.fault_block[i]);
    }
    if (!k->record) {
        return true;
    }
    if (queue_is_user(&s->queues[q])) {
        return user_access(s, q, k->record, &r, sizeof(r),
                           SIMT_ACCESS_QUEUE_WRITE);
    }
    if (pci_dma_write(PCI_DEVICE(s), k->record, &r, sizeof(r)) != MEMTX_OK) {
        SIMT_GUEST_ERR(simt_err_record_dma, "queue %u: completion record at "
                       "0x%" PRIx64 " unreachable by DMA", q, k->record);
        queue_fail(s, q, SIMT_QERR_DMA);
        return false;
    }
    return true;
}

/* Queue @q's kernel is over: its decoded code and saved blocks go. */
static void kernel_release(SimtState *s, unsigned q)
{
    SimtKernel *k = &s->queues[q].kernel;

    k->active = false;
    simt_code_destroy(&k->code);
    simt_preempt_kernel_end(s, q);
}

void simt_kernel_abort(SimtState *s, unsigned q, uint64_t cycle)
{
    s->queues[q].kernel.end_cycle = cycle;
    simt_sched_evict_kernel(s, q, cycle);
    simt_kernel_finish(s, q);
}

void simt_kernel_finish(SimtState *s, unsigned q)
{
    SimtQueue *qu = &s->queues[q];
    SimtKernel *k = &qu->kernel;
    uint32_t status = k->fault.fault ? SIMT_QERR_FAULT : SIMT_QERR_NONE;

    simt_timeline_record(s, SIMT_TRACE_KERNEL_DONE, q, 0, k->retired,
                         k->end_cycle);
    trace_simt_kernel_done(q, k->fault.fault, k->start_cycle, k->end_cycle,
                           k->thread_insns);
    kernel_release(s, q);
    if (!write_record(s, q, k, status)) {
        return;
    }
    if (status != SIMT_QERR_NONE) {
        SIMT_GUEST_ERR(simt_err_kernel_fault, "queue %u: kernel fault %s "
                       "at pc 0x%x addr 0x%x", q,
                       simt_fault_name(k->fault.fault), k->fault.fault_pc,
                       k->fault.fault_addr);
        queue_fail(s, q, status);
    } else {
        queue_complete_cmd(s, q, k->flags);
    }
}

void simt_queue_copy_done(SimtState *s, unsigned q, uint32_t error)
{
    SimtQueue *qu = &s->queues[q];

    if (error) {
        queue_fail(s, q, error);
    } else {
        queue_complete_cmd(s, q, qu->copy.flags);
    }
}

/* The command at HEAD has bad flags or fields: its queue stops. */
static bool cmd_fields_bad(SimtState *s, unsigned q, uint32_t opcode,
                           uint32_t flags)
{
    SIMT_GUEST_ERR(simt_err_cmd_fields, "queue %u: command %u (opcode %u) "
                   "with flags 0x%x, reserved words set or a misaligned "
                   "address", q, s->queues[q].head, opcode, flags);
    queue_fail(s, q, SIMT_QERR_BAD_COMMAND);
    return false;
}

/* Run one command at HEAD; false if the queue cannot go on for now. */
static bool queue_run_cmd(SimtState *s, unsigned q, uint64_t cycle)
{
    SimtQueue *qu = &s->queues[q];
    union {
        uint32_t w[SIMT_CMD_SIZE / 4];
        struct simt_cmd_launch launch;
        struct simt_cmd_signal signal;
        struct simt_cmd_wait wait;
        struct simt_cmd_copy copy;
    } cmd;
    uint64_t addr = qu->base + (uint64_t)qu->head * SIMT_CMD_SIZE;
    uint64_t sem;
    uint32_t err;

    if (queue_is_user(qu)) {
        if (!user_access(s, q, addr, &cmd, sizeof(cmd),
                         SIMT_ACCESS_QUEUE_READ)) {
            return false;
        }
    } else if (pci_dma_read(PCI_DEVICE(s), addr, &cmd, sizeof(cmd)) !=
               MEMTX_OK) {
        SIMT_GUEST_ERR(simt_err_ring_dma, "queue %u: command %u at 0x%"
                       PRIx64 " unreachable by DMA", q, qu->head, addr);
        queue_fail(s, q, SIMT_QERR_DMA);
        return false;
    }
    for (size_t i = 0; i < ARRAY_SIZE(cmd.w); i++) {
        cmd.w[i] = le32_to_cpu(cmd.w[i]);
    }
    trace_simt_cmd(q, qu->head, cmd.w[0]);

    switch (cmd.w[0]) {
    case SIMT_CMD_NOP:
        if ((cmd.w[1] & ~SIMT_CMDF_ALL) || !all_zero(&cmd.w[2], 30)) {
            return cmd_fields_bad(s, q, cmd.w[0], cmd.w[1]);
        }
        queue_complete_cmd(s, q, cmd.w[1]);
        return true;
    case SIMT_CMD_SIGNAL:
    case SIMT_CMD_WAIT:
        /* Both have the same layout; 64-bit fields were swapped as words. */
        addr = cmd.w[2] | (uint64_t)cmd.w[3] << 32;
        sem = cmd.w[4] | (uint64_t)cmd.w[5] << 32;
        if ((cmd.w[1] & ~(cmd.w[0] == SIMT_CMD_SIGNAL ? SIMT_CMDF_SIGNAL_ALL
                                                      : SIMT_CMDF_ALL)) ||
            (addr & 7) ||
            (queue_is_user(qu) && !in_device_space(addr, 8)) ||
            !all_zero(cmd.signal.reserved, ARRAY_SIZE(cmd.signal.reserved))) {
            return cmd_fields_bad(s, q, cmd.w[0], cmd.w[1]);
        }
        if (cmd.w[0] == SIMT_CMD_SIGNAL) {
            if (cmd.w[1] & SIMT_CMDF_TIMESTAMP) {
                sem = cycle;
            }
            if (!sem_write(s, q, addr, sem)) {
                return false;
            }
        } else {
            uint64_t cur;

            if (!sem_read(s, q, addr, &cur)) {
                return false;
            }
            if (cur < sem) {
                queue_set_state(s, q, SIMT_QSTATE_WAITING);
                return false;
            }
        }
        queue_complete_cmd(s, q, cmd.w[1]);
        return true;
    case SIMT_CMD_COPY:
        cmd.copy.src = cmd.w[2] | (uint64_t)cmd.w[3] << 32;
        cmd.copy.dst = cmd.w[4] | (uint64_t)cmd.w[5] << 32;
        cmd.copy.size = cmd.w[6] | (uint64_t)cmd.w[7] << 32;
        if (!all_zero(cmd.copy.reserved, ARRAY_SIZE(cmd.copy.reserved))) {
            return cmd_fields_bad(s, q, cmd.w[0], cmd.w[1]);
        }
        if (queue_is_user(qu) &&
            (cmd.copy.flags & (SIMT_CMDF_SRC_HOST | SIMT_CMDF_DST_HOST))) {
            SIMT_GUEST_ERR(simt_err_copy_privileged, "queue %u: user queue's "
                           "COPY with flags 0x%x names guest memory", q,
                           cmd.copy.flags);
            queue_fail(s, q, SIMT_QERR_PRIVILEGED);
            return false;
        }
        err = simt_dma_submit(s, q, &cmd.copy, cycle);
        if (err) {
            queue_fail(s, q, err);
            return false;
        }
        queue_set_state(s, q, SIMT_QSTATE_BUSY);
        return false;
    case SIMT_CMD_LAUNCH:
        cmd.launch.record = cmd.w[2] | (uint64_t)cmd.w[3] << 32;
        err = launch_prepare(s, q, &cmd.launch);
        if (err) {
            queue_fail(s, q, err);
            return false;
        }
        queue_set_state(s, q, SIMT_QSTATE_BUSY);
        return false;
    default:
        SIMT_GUEST_ERR(simt_err_cmd_opcode, "queue %u: unknown command "
                       "0x%x at index %u", q, cmd.w[0], qu->head);
        queue_fail(s, q, SIMT_QERR_BAD_OPCODE);
        return false;
    }
}

bool simt_queues_process(SimtState *s, uint64_t cycle)
{
    bool waiting = false;

    for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
        SimtQueue *qu = &s->queues[q];

        if (!(qu->control & SIMT_QCTL_ENABLE) ||
            qu->state == SIMT_QSTATE_ERROR || qu->kernel.active ||
            qu->copy.active) {
            continue;
        }
        /* At most SIMT_FETCH_CMDS commands, less than a lap: bounded. */
        for (uint32_t n = 0; n < MIN(qu->size, SIMT_FETCH_CMDS) &&
             qu->head != qu->tail; n++) {
            if (!queue_run_cmd(s, q, cycle)) {
                break;
            }
        }
        waiting |= qu->state == SIMT_QSTATE_WAITING;
    }
    return waiting;
}

bool simt_queues_busy(SimtState *s)
{
    for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
        SimtQueue *qu = &s->queues[q];

        /* A suspended kernel with nothing on the SMs waits for RESUME. */
        if ((qu->kernel.active &&
             (qu->kernel.resident || simt_preempt_may_run(s, q))) ||
            qu->copy.active ||
            ((qu->control & SIMT_QCTL_ENABLE) &&
             qu->state != SIMT_QSTATE_ERROR && qu->head != qu->tail)) {
            return true;
        }
    }
    return false;
}

bool simt_queues_settled(SimtState *s)
{
    for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
        SimtQueue *qu = &s->queues[q];
        SimtKernel *k = &qu->kernel;
        /* The first command the queue has not started. */
        uint32_t next = qu->head;

        if (qu->copy.active) {
            return false;
        }
        if (k->active) {
            if (!k->view.bare || k->saved->len) {
                return false;
            }
            next = (qu->head + 1) & (qu->size - 1);
        }
        if ((qu->control & SIMT_QCTL_ENABLE) &&
            qu->state != SIMT_QSTATE_ERROR && next != qu->tail) {
            return false;
        }
    }
    return true;
}

/*
 * ACTIVE_CYCLES, at slice granularity: a kernel's blocks are placed only
 * at slice boundaries, so a queue with none on an SM after the placing
 * at a slice's start has none during the slice.  Its copy engine marks a
 * queue whose copy it moves (simt-dma.c).
 */
void simt_queues_slice_begin(SimtState *s)
{
    for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
        s->queues[q].kernel_ran = s->queues[q].kernel.resident > 0;
    }
}

void simt_queues_slice_end(SimtState *s, uint64_t cycles)
{
    for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
        SimtQueue *qu = &s->queues[q];

        if (qu->kernel_ran || qu->copy_ran) {
            qu->active_cycles += cycles;
        }
        if (qu->kernel_ran) {
            qu->kernel_cycles += cycles;
        }
        if (qu->copy_ran) {
            qu->copy_cycles += cycles;
        }
        qu->kernel_ran = qu->copy_ran = false;
    }
}

/* Stop queue @q now: its kernel's blocks are dropped. */
static void queue_stop(SimtState *s, unsigned q)
{
    SimtQueue *qu = &s->queues[q];

    if (qu->kernel.active) {
        simt_sched_evict_kernel(s, q, s->slice.start);
        kernel_release(s, q);
    }
    simt_dma_cancel(s, q);
    qu->control &= ~(SIMT_QCTL_ENABLE | SIMT_QCTL_USER);
    if (qu->state != SIMT_QSTATE_ERROR) {
        queue_set_state(s, q, SIMT_QSTATE_DISABLED);
    }
}

void simt_queues_reset(SimtState *s)
{
    for (unsigned q = 0; q < SIMT_MAX_QUEUES; q++) {
        SimtQueue *qu = &s->queues[q];

        if (s->sms) {
            queue_stop(s, q);
        }
        memset(qu, 0, offsetof(SimtQueue, kernel));
        qu->state = SIMT_QSTATE_DISABLED;
    }
}

static void queue_write_control(SimtState *s, unsigned q, uint32_t val)
{
    SimtQueue *qu = &s->queues[q];
    bool enable = val & SIMT_QCTL_ENABLE;
    bool user = val & SIMT_QCTL_USER;

    if (val & ~(SIMT_QCTL_ENABLE | SIMT_QCTL_RESET | SIMT_QCTL_USER)) {
        SIMT_GUEST_ERR(simt_err_control, "queue %u: reserved CONTROL "
                       "bits 0x%x ignored", q, val);
    }
    if (!enable) {
        queue_stop(s, q);
        if (val & SIMT_QCTL_RESET) {
            qu->head = qu->tail = 0;
            qu->error = SIMT_QERR_NONE;
            qu->error_cmd = 0;
            qu->active_cycles = 0;
            qu->kernel_cycles = 0;
            qu->copy_cycles = 0;
            queue_set_state(s, q, SIMT_QSTATE_DISABLED);
        }
        return;
    }
    if (qu->control & SIMT_QCTL_ENABLE) {
        if (user != queue_is_user(qu)) {
            SIMT_GUEST_ERR(simt_err_user_latched, "queue %u: USER changed "
                           "while enabled; ignored", q);
        }
        return;
    }
    if (qu->state == SIMT_QSTATE_ERROR) {
        SIMT_GUEST_ERR(simt_err_enable_in_error, "queue %u: enable while "
                       "in error; reset it first", q);
        return;
    }
    if (!is_power_of_2(qu->size) || qu->size < SIMT_MIN_QUEUE_SIZE ||
        qu->size > SIMT_MAX_QUEUE_SIZE || (qu->base % SIMT_CMD_SIZE) ||
        qu->head >= qu->size || qu->tail >= qu->size) {
        SIMT_GUEST_ERR(simt_err_ring, "queue %u: ring of %u entries at 0x%"
                       PRIx64 ", HEAD %u, TAIL %u", q, qu->size, qu->base,
                       qu->head, qu->tail);
        queue_fail(s, q, SIMT_QERR_BAD_RING);
        return;
    }
    /* A user queue's ring is translated: in device space, not bare. */
    if (user && (simt_mmu_bare(s, qu->ctx) ||
                 !in_device_space(qu->base,
                                  (uint64_t)qu->size * SIMT_CMD_SIZE))) {
        SIMT_GUEST_ERR(simt_err_user_ring, "queue %u: user ring at 0x%"
                       PRIx64 " in context %u, which is bare, or past 4 GiB",
                       q, qu->base, qu->ctx);
        queue_fail(s, q, SIMT_QERR_BAD_RING);
        return;
    }
    qu->control = SIMT_QCTL_ENABLE | (user ? SIMT_QCTL_USER : 0);
    queue_set_state(s, q, qu->head == qu->tail ? SIMT_QSTATE_IDLE
                                               : SIMT_QSTATE_BUSY);
    simt_event_post(&s->events, (SimtEvent) { .kind = SIMT_EVENT_WORK });
}

bool simt_queue_reg_read(SimtState *s, unsigned q, unsigned reg,
                         uint32_t *val)
{
    SimtQueue *qu = &s->queues[q];

    switch (reg) {
    case SIMT_QREG_BASE_LO:
        *val = qu->base;
        return true;
    case SIMT_QREG_BASE_HI:
        *val = qu->base >> 32;
        return true;
    case SIMT_QREG_SIZE:
        *val = qu->size;
        return true;
    case SIMT_QREG_HEAD:
        *val = qu->head;
        return true;
    case SIMT_QREG_TAIL:
        *val = qu->tail;
        return true;
    case SIMT_QREG_PRIORITY:
        *val = qu->priority;
        return true;
    case SIMT_QREG_CONTROL:
        *val = qu->control;
        return true;
    case SIMT_QREG_STATUS:
        *val = SIMT_QSTATUS(qu->state, qu->error);
        return true;
    case SIMT_QREG_ERROR_CMD:
        *val = qu->error_cmd;
        return true;
    case SIMT_QREG_COMPLETED:
        *val = qu->completed;
        return true;
    case SIMT_QREG_CONTEXT:
        *val = qu->ctx;
        return true;
    case SIMT_QREG_RESIDENT:
        /* The slots really held: a stop that left blocks behind shows. */
        *val = qu->kernel.resident;
        return true;
    case SIMT_QREG_ACTIVE_CYCLES:
        *val = qu->active_cycles;
        return true;
    case SIMT_QREG_KERNEL_CYCLES:
        *val = qu->kernel_cycles;
        return true;
    case SIMT_QREG_COPY_CYCLES:
        *val = qu->copy_cycles;
        return true;
    default:
        return false;
    }
}

bool simt_queue_reg_write(SimtState *s, unsigned q, unsigned reg,
                          uint32_t val)
{
    SimtQueue *qu = &s->queues[q];
    bool enabled = qu->control & SIMT_QCTL_ENABLE;

    switch (reg) {
    case SIMT_QREG_BASE_LO:
    case SIMT_QREG_BASE_HI:
    case SIMT_QREG_SIZE:
        if (enabled) {
            SIMT_GUEST_ERR(simt_err_ring_busy, "queue %u: ring register "
                           "0x%x written while enabled; ignored", q, reg);
        } else if (reg == SIMT_QREG_BASE_LO) {
            qu->base = deposit64(qu->base, 0, 32, val);
        } else if (reg == SIMT_QREG_BASE_HI) {
            qu->base = deposit64(qu->base, 32, 32, val);
        } else {
            qu->size = val;
        }
        break;
    case SIMT_QREG_TAIL:
        if (enabled && val >= qu->size) {
            SIMT_GUEST_ERR(simt_err_tail, "queue %u: TAIL %u beyond the "
                           "ring of %u entries; ignored", q, val, qu->size);
            break;
        }
        qu->tail = val;
        /*
         * Between commands, HEAD == TAIL is idle: also when a TAIL that
         * overran the ring (size commands queued) caught up with HEAD.
         */
        if (enabled && !qu->kernel.active && !qu->copy.active &&
            (qu->state == SIMT_QSTATE_IDLE || qu->state == SIMT_QSTATE_BUSY)) {
            queue_set_state(s, q, val != qu->head ? SIMT_QSTATE_BUSY
                                                  : SIMT_QSTATE_IDLE);
        }
        simt_event_post(&s->events, (SimtEvent) { .kind = SIMT_EVENT_WORK });
        break;
    case SIMT_QREG_PRIORITY:
        if (val > SIMT_MAX_PRIORITY) {
            SIMT_GUEST_ERR(simt_err_priority, "queue %u: priority %u above "
                           "%u; clamped", q, val, SIMT_MAX_PRIORITY);
            val = SIMT_MAX_PRIORITY;
        }
        qu->priority = val;
        break;
    case SIMT_QREG_CONTROL:
        queue_write_control(s, q, val);
        break;
    case SIMT_QREG_CONTEXT:
        if (enabled || val >= simt_cfg(s, SIMT_CFG_CONTEXTS)) {
            SIMT_GUEST_ERR(simt_err_queue_context, "queue %u: context %u "
                           "rejected (queue enabled, or no such context)",
                           q, val);
        } else {
            qu->ctx = val;
        }
        break;
    default:
        return false;
    }
    return true;
}

bool simt_queue_doorbell(SimtState *s, unsigned q, uint32_t tail)
{
    uint32_t user = SIMT_QCTL_ENABLE | SIMT_QCTL_USER;

    if (q >= simt_cfg(s, SIMT_CFG_QUEUES) ||
        (s->queues[q].control & user) != user) {
        return false;
    }
    return simt_queue_reg_write(s, q, SIMT_QREG_TAIL, tail);
}

static const VMStateDescription vmstate_simt_launch = {
    .name = "simt/launch",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(entry, SimtLaunch),
        VMSTATE_UINT32(code_base, SimtLaunch),
        VMSTATE_UINT32(code_size, SimtLaunch),
        VMSTATE_UINT32_ARRAY(block_dim, SimtLaunch, 3),
        VMSTATE_UINT32_ARRAY(grid_dim, SimtLaunch, 3),
        VMSTATE_UINT32(shared_size, SimtLaunch),
        VMSTATE_UINT32(local_size, SimtLaunch),
        VMSTATE_UINT32_ARRAY(args, SimtLaunch, SIMT_ARG_REGS),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_simt_grid_result = {
    .name = "simt/grid-result",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(fault, SimtGridResult),
        VMSTATE_UINT32(fault_pc, SimtGridResult),
        VMSTATE_UINT32(fault_addr, SimtGridResult),
        VMSTATE_UINT32_ARRAY(fault_block, SimtGridResult, 3),
        VMSTATE_UINT32(fault_warp, SimtGridResult),
        VMSTATE_UINT32(fault_lane, SimtGridResult),
        VMSTATE_UINT64(warp_insns, SimtGridResult),
        VMSTATE_UINT64(thread_insns, SimtGridResult),
        VMSTATE_END_OF_LIST()
    },
};

/* The drain-time statistics are doubles: their bit patterns migrate. */
static int get_double(QEMUFile *f, void *pv, size_t size,
                      const VMStateField *field)
{
    uint64_t bits = qemu_get_be64(f);

    memcpy(pv, &bits, sizeof(bits));
    return 0;
}

static int put_double(QEMUFile *f, void *pv, size_t size,
                      const VMStateField *field, JSONWriter *vmdesc)
{
    uint64_t bits;

    memcpy(&bits, pv, sizeof(bits));
    qemu_put_be64(f, bits);
    return 0;
}

static const VMStateInfo vmstate_info_double = {
    .name = "double",
    .get = get_double,
    .put = put_double,
};

#define VMSTATE_DOUBLE(_f, _s) \
    VMSTATE_SINGLE(_f, _s, 0, vmstate_info_double, double)

/*
 * A kernel in flight.  Its decoded instructions and the pointers of its
 * memory view are rebuilt on load (simt_queues_post_load); its live
 * table and preemption points migrate, since the guest may have changed
 * the memory they came from.
 */
static const VMStateDescription vmstate_simt_kernel = {
    .name = "simt/kernel",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(active, SimtKernel),
        VMSTATE_UINT32(priority, SimtKernel),
        VMSTATE_UINT64(seq, SimtKernel),
        VMSTATE_STRUCT(launch, SimtKernel, 1, vmstate_simt_launch,
                       SimtLaunch),
        VMSTATE_UINT32(code.base, SimtKernel),
        VMSTATE_UINT32(code.size, SimtKernel),
        VMSTATE_UINT64(record, SimtKernel),
        VMSTATE_UINT32(view.ctx, SimtKernel),
        VMSTATE_BOOL(view.bare, SimtKernel),
        VMSTATE_UINT32(flags, SimtKernel),
        VMSTATE_UINT32(threads, SimtKernel),
        VMSTATE_UINT32(warps, SimtKernel),
        VMSTATE_UINT32(regs, SimtKernel),
        VMSTATE_UINT32(local_base, SimtKernel),
        VMSTATE_UINT32(local_block_bytes, SimtKernel),
        VMSTATE_UINT32(total_blocks, SimtKernel),
        VMSTATE_UINT32(next_block, SimtKernel),
        VMSTATE_UINT32(end_block, SimtKernel),
        VMSTATE_UINT32(resident, SimtKernel),
        VMSTATE_UINT32(retired, SimtKernel),
        VMSTATE_BOOL(started, SimtKernel),
        VMSTATE_UINT64(start_cycle, SimtKernel),
        VMSTATE_UINT64(end_cycle, SimtKernel),
        VMSTATE_UINT64(thread_insns, SimtKernel),
        VMSTATE_UINT64(warp_insns, SimtKernel),
        VMSTATE_STRUCT(fault, SimtKernel, 1, vmstate_simt_grid_result,
                       SimtGridResult),
        VMSTATE_UINT32(ctx, SimtKernel),
        VMSTATE_UINT32(int_regs, SimtKernel),
        VMSTATE_UINT32(fp_regs, SimtKernel),
        VMSTATE_UINT32(live_count, SimtKernel),
        VMSTATE_VARRAY_UINT32_ALLOC(live, SimtKernel, live_count, 1,
                                    vmstate_info_uint64, uint64_t),
        VMSTATE_UINT32(pp_count, SimtKernel),
        VMSTATE_VARRAY_UINT32_ALLOC(pp, SimtKernel, pp_count, 0,
                                    vmstate_info_uint32, uint32_t),
        {
            .name = "redo",
            .info = &simt_vmstate_info_list,
            .size = sizeof(GArray *),
            .flags = VMS_SINGLE,
            .offset = offsetof(SimtKernel, redo),
        },
        {
            .name = "saved",
            .info = &simt_vmstate_info_list,
            .vmsd = &vmstate_simt_saved,
            .size = sizeof(GArray *),
            .flags = VMS_SINGLE,
            .offset = offsetof(SimtKernel, saved),
        },
        VMSTATE_UINT64(run_since, SimtKernel),
        VMSTATE_UINT32(stat_blocks, SimtKernel),
        VMSTATE_UINT64(stat_insns, SimtKernel),
        VMSTATE_DOUBLE(stat_cpi_sum, SimtKernel),
        VMSTATE_DOUBLE(stat_cpi_sq, SimtKernel),
        VMSTATE_UINT32(stat_time_blocks, SimtKernel),
        VMSTATE_UINT64(stat_time_sum, SimtKernel),
        VMSTATE_END_OF_LIST()
    },
};

/* What a queue is doing: its kernel and its copy. */
const VMStateDescription vmstate_simt_queue_work = {
    .name = "simt/queue-work",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT(kernel, SimtQueue, 1, vmstate_simt_kernel, SimtKernel),
        VMSTATE_STRUCT(copy, SimtQueue, 1, vmstate_simt_copy, SimtCopy),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * After migration: kernels decode their code again and reach memory
 * through their context as at launch.  False if the stream is not one
 * this device could have written.
 */
bool simt_queues_post_load(SimtState *s)
{
    for (unsigned e = 0; e < SIMT_MAX_COPY_ENGINES; e++) {
        if (s->dma.engines[e].queue < -1 ||
            s->dma.engines[e].queue >= SIMT_MAX_QUEUES) {
            return false;
        }
    }
    for (unsigned q = 0; q < SIMT_MAX_QUEUES; q++) {
        SimtKernel *k = &s->queues[q].kernel;
        SimtCopy *c = &s->queues[q].copy;
        int engines = simt_cfg(s, SIMT_CFG_COPY_ENGINES);
        uint32_t control = s->queues[q].control;

        /* USER only with ENABLE, and on a context that translates. */
        if ((control & ~(SIMT_QCTL_ENABLE | SIMT_QCTL_USER)) ||
            s->queues[q].ctx >= SIMT_MAX_CONTEXTS ||
            ((control & SIMT_QCTL_USER) &&
             (!(control & SIMT_QCTL_ENABLE) ||
              simt_mmu_bare(s, s->queues[q].ctx)))) {
            return false;
        }

        if (c->active && (c->ctx >= SIMT_MAX_CONTEXTS || c->engine < -1 ||
                          c->engine >= engines)) {
            return false;
        }
        if (!k->active) {
            continue;
        }
        if (k->ctx >= SIMT_MAX_CONTEXTS || k->view.ctx != k->ctx ||
            k->warps != simt_launch_warps(&k->launch) ||
            (k->live && k->live_count != k->launch.code_size / 4) ||
            k->pp_count > k->launch.code_size / 4 ||
            simt_code_init(&k->code, k->code.base, k->code.size)) {
            return false;
        }
        k->code.timing = &s->timing;
        simt_mmu_view_attach(&k->view, s, &k->mem);
        kernel_code_shared(s, k);
        if (!k->redo) {
            k->redo = g_array_new(false, false, sizeof(uint32_t));
        }
        if (!k->saved) {
            k->saved = g_array_new(false, false, sizeof(SimtSaved));
        }
        for (guint i = 0; i < k->saved->len; i++) {
            SimtSaved *sv = &g_array_index(k->saved, SimtSaved, i);

            if (sv->sm >= simt_cfg(s, SIMT_CFG_SM_COUNT) ||
                (sv->shared &&
                 sv->shared_bytes != MAX(k->launch.shared_size, 1))) {
                return false;
            }
        }
    }
    return true;
}

const VMStateDescription vmstate_simt_queue = {
    .name = "simt/queue",
    .version_id = 3,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(base, SimtQueue),
        VMSTATE_UINT32(size, SimtQueue),
        VMSTATE_UINT32(head, SimtQueue),
        VMSTATE_UINT32(tail, SimtQueue),
        VMSTATE_UINT32(priority, SimtQueue),
        VMSTATE_UINT32(control, SimtQueue),
        VMSTATE_UINT32(state, SimtQueue),
        VMSTATE_UINT32(error, SimtQueue),
        VMSTATE_UINT32(error_cmd, SimtQueue),
        VMSTATE_UINT32(completed, SimtQueue),
        VMSTATE_UINT32(ctx, SimtQueue),
        VMSTATE_UINT32(active_cycles, SimtQueue),
        VMSTATE_UINT32_V(kernel_cycles, SimtQueue, 3),
        VMSTATE_UINT32_V(copy_cycles, SimtQueue, 3),
        VMSTATE_END_OF_LIST()
    },
};
