/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * simt: the hardware contract of the simt PCIe accelerator.
 *
 * Plain C, no QEMU or kernel types: the QEMU device, the qtests, the guest
 * driver and the userspace tools all include this one file, so every
 * register offset, bit and layout is written down exactly once.
 * Dual-licensed so that GPL code and MIT userspace may both include it.
 *
 * All registers are 32 bits wide, little-endian, and must be accessed with
 * naturally aligned 32-bit loads and stores.
 */
#ifndef SIMT_HW_H
#define SIMT_HW_H

#include "simt-isa.h"

/* PCI identity */
#define SIMT_PCI_VENDOR_ID          0x1234
#define SIMT_PCI_DEVICE_ID          0x5349  /* "SI" */
#define SIMT_PCI_CLASS_CODE         0x1200  /* processing accelerator */
#define SIMT_PCI_REVISION           0x01

/* BARs */
#define SIMT_BAR_REGS               0       /* control registers */
#define SIMT_BAR_VRAM               2       /* 64-bit prefetchable VRAM */
#define SIMT_BAR_MSIX               4       /* MSI-X table and PBA only */
#define SIMT_BAR_DOORBELL           1       /* one page per queue */
#define SIMT_REGS_SIZE              0x10000

/* Identification: the ASCII bytes "SIMT" read as a little-endian word */
#define SIMT_ID_MAGIC               0x544d4953u
#define SIMT_VERSION_MAJOR          0
#define SIMT_VERSION_MINOR          9
/* VERSION reads major << 16 | minor */
#define SIMT_VERSION_OF(major, minor) \
    (((uint32_t)(major) << 16) | (uint32_t)(minor))
#define SIMT_VERSION_GET_MAJOR(v)   ((uint32_t)(v) >> 16)
#define SIMT_VERSION_GET_MINOR(v)   ((uint32_t)(v) & 0xffff)
#define SIMT_VERSION_VALUE \
    SIMT_VERSION_OF(SIMT_VERSION_MAJOR, SIMT_VERSION_MINOR)

/* BAR0 register offsets */
#define SIMT_REG_ID                 0x0000  /* RO: SIMT_ID_MAGIC */
#define SIMT_REG_VERSION            0x0004  /* RO: major << 16 | minor */
#define SIMT_REG_CAPS               0x0008  /* RO: SIMT_CAP_* */
#define SIMT_REG_SM_COUNT           0x000c  /* RO: number of SMs */
#define SIMT_REG_VRAM_SIZE_LO       0x0010  /* RO: VRAM bytes, low word */
#define SIMT_REG_VRAM_SIZE_HI       0x0014  /* RO: VRAM bytes, high word */
#define SIMT_REG_SCRATCH            0x0018  /* RW: no effect, reset to 0 */
#define SIMT_REG_RESET              0x001c  /* WO: SIMT_RESET_MAGIC resets */
#define SIMT_REG_IRQ_STATUS         0x0020  /* RW1C: pending SIMT_IRQ_* */
#define SIMT_REG_IRQ_MASK           0x0024  /* RW: 1 = class enabled */
#define SIMT_REG_IRQ_RAISE          0x0028  /* WO: SIMT_IRQ_TEST only */
#define SIMT_REG_IRQ_COUNT          0x002c  /* RO: interrupts delivered */
#define SIMT_REG_CYCLE_LO           0x0030  /* RO: device cycle counter */
#define SIMT_REG_CYCLE_HI           0x0034  /* RO: latched by CYCLE_LO read */
#define SIMT_REG_CLOCK_MHZ          0x0038  /* RO: device clock */
#define SIMT_REG_PRESET             0x003c  /* RO: enum simt_preset */
#define SIMT_REG_SM_THREADS         0x0040  /* RO: per-SM limits ... */
#define SIMT_REG_SM_WARPS           0x0044
#define SIMT_REG_SM_BLOCKS          0x0048
#define SIMT_REG_SM_REGS            0x004c
#define SIMT_REG_SM_SHARED          0x0050  /* RO: shared bytes per SM */
#define SIMT_REG_KERNEL_SLOTS       0x0054  /* RO: kernels per SM at once */
#define SIMT_REG_QUEUE_COUNT        0x0058  /* RO: hardware queues */
#define SIMT_REG_MEM_BW             0x005c  /* RO: VRAM bytes per cycle */
#define SIMT_REG_BLOCKS_RESIDENT    0x0060  /* RO: blocks on SMs now */
#define SIMT_REG_BLOCKS_DONE        0x0064  /* RO: blocks retired */
#define SIMT_REG_CONTEXT_COUNT      0x0068  /* RO: hardware contexts */
#define SIMT_REG_COPY_ENGINES       0x006c  /* RO: copy engines */
#define SIMT_REG_DMA_CHUNK          0x0070  /* RW: copy chunk bytes */
#define SIMT_REG_COPY_BW            0x0074  /* RO: copy bytes per cycle */
#define SIMT_REG_TLB_INV_CTX        0x0078  /* RW: context to invalidate */
#define SIMT_REG_TLB_INV_ADDR       0x007c  /* RW: address to invalidate */
#define SIMT_REG_TLB_INV            0x0080  /* WO: SIMT_TLB_INV_* */
#define SIMT_REG_TLB_HITS           0x0084  /* RO: translations ... */
#define SIMT_REG_TLB_MISSES         0x0088  /* RO: ... and page walks */
#define SIMT_REG_MMU_FAULTS         0x008c  /* RO: translation faults */

/* The preemption engine (see "Preemption" in docs/specs/simt.rst) */
#define SIMT_REG_PREEMPT_BOUND      0x0090  /* RW: auto's latency bound */
#define SIMT_REG_PREEMPT_REQ        0x0094  /* WO: SIMT_PREQ_* request */
#define SIMT_REG_PREEMPT_STATUS     0x0098  /* RO: SIMT_PSTATUS_* */
#define SIMT_REG_TIMESLICE          0x009c  /* RW: cycles, 0 = off */
#define SIMT_REG_PEV_COUNT          0x00a0  /* RO: events completed */
#define SIMT_REG_PEV_LOG_LO         0x00a4  /* RW: event log ring, */
#define SIMT_REG_PEV_LOG_HI         0x00a8  /*     guest physical */
#define SIMT_REG_PEV_LOG_SIZE       0x00ac  /* RW: entries, 2^n; 0 = off */
#define SIMT_REG_TRACE_LO           0x00b0  /* RW: timeline ring, */
#define SIMT_REG_TRACE_HI           0x00b4  /*     guest physical */
#define SIMT_REG_TRACE_SIZE         0x00b8  /* RW: records, 2^n; 0 = off */
#define SIMT_REG_TRACE_COUNT        0x00bc  /* RO: records written */
/* PEV_LOG_SIZE and TRACE_SIZE: 0 (off) or a power of two up to this */
#define SIMT_MAX_RING_RECORDS       (1u << 20)
#define SIMT_RING_RECORDS_OK(n) \
    ((n) == 0 || (((n) & ((n) - 1)) == 0 && (n) <= SIMT_MAX_RING_RECORDS))
/* The last completed event (struct simt_preempt_event has them all) */
#define SIMT_REG_PEV_LATENCY        0x00c0  /* RO: request to dispatch */
#define SIMT_REG_PEV_DONE_LATENCY   0x00c4  /* RO: request to last off */
#define SIMT_REG_PEV_DRAINED        0x00c8  /* RO: blocks per mechanism */
#define SIMT_REG_PEV_FLUSHED        0x00cc
#define SIMT_REG_PEV_SWITCHED       0x00d0
#define SIMT_REG_PEV_LIGHT          0x00d4
#define SIMT_REG_PEV_SAVED_BYTES    0x00d8  /* RO: bytes written to save */
#define SIMT_REG_PEV_WASTED         0x00dc  /* RO: warp insns flushed */
/* Totals since reset, wrapping at 2^32 */
#define SIMT_REG_PREEMPT_SAVED      0x00e0  /* RO: bytes saved */
#define SIMT_REG_PREEMPT_RESTORED   0x00e4  /* RO: bytes restored */
#define SIMT_REG_PREEMPT_WASTED     0x00e8  /* RO: warp insns flushed */
#define SIMT_REG_PREEMPT_EVENTS     0x00ec  /* RO: events started */
#define SIMT_REG_POLICY_ERRORS      0x00f0  /* RO: overruled policy picks */
/* The drain oracle of the auto mode: struct simt_oracle_entry table */
#define SIMT_REG_ORACLE_LO          0x00f4  /* RW: guest physical */
#define SIMT_REG_ORACLE_HI          0x00f8  /*     address */
#define SIMT_REG_ORACLE_COUNT       0x00fc  /* RW: entries, 0 = off */
#define SIMT_MAX_ORACLE_ENTRIES     (1u << 20)

/*
 * Every register is listed once, for the device's decode and the tests,
 * as X(offset, access, reset): the global registers (0x000 to 0x0ff) in
 * SIMT_GLOBAL_REGS, and the registers of one queue, context or copy
 * engine in SIMT_QUEUE_REGS, SIMT_CTX_REGS and SIMT_ENGINE_REGS.  A
 * write to a read-only register changes nothing (a guest error); a read
 * of a write-only one reads 0; so does an offset that is in no list.
 * @reset is the value after power-on and after SIMT_REG_RESET, or
 * SIMT_RESET_CONFIG for one that the configuration sets.
 */
enum simt_reg_access {
    SIMT_RA_RO = 1,             /* read-only */
    SIMT_RA_RW,                 /* read and write */
    SIMT_RA_RW1C,               /* read, write 1 to clear */
    SIMT_RA_WO,                 /* write-only: a command */
};

#define SIMT_GLOBAL_REGS(X) \
    X(SIMT_REG_ID, SIMT_RA_RO, SIMT_ID_MAGIC) \
    X(SIMT_REG_VERSION, SIMT_RA_RO, SIMT_VERSION_VALUE) \
    X(SIMT_REG_CAPS, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_SM_COUNT, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_VRAM_SIZE_LO, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_VRAM_SIZE_HI, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_SCRATCH, SIMT_RA_RW, 0) \
    X(SIMT_REG_RESET, SIMT_RA_WO, 0) \
    X(SIMT_REG_IRQ_STATUS, SIMT_RA_RW1C, 0) \
    X(SIMT_REG_IRQ_MASK, SIMT_RA_RW, 0) \
    X(SIMT_REG_IRQ_RAISE, SIMT_RA_WO, 0) \
    X(SIMT_REG_IRQ_COUNT, SIMT_RA_RO, 0) \
    X(SIMT_REG_CYCLE_LO, SIMT_RA_RO, 0) \
    X(SIMT_REG_CYCLE_HI, SIMT_RA_RO, 0) \
    X(SIMT_REG_CLOCK_MHZ, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_PRESET, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_SM_THREADS, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_SM_WARPS, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_SM_BLOCKS, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_SM_REGS, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_SM_SHARED, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_KERNEL_SLOTS, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_QUEUE_COUNT, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_MEM_BW, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_BLOCKS_RESIDENT, SIMT_RA_RO, 0) \
    X(SIMT_REG_BLOCKS_DONE, SIMT_RA_RO, 0) \
    X(SIMT_REG_CONTEXT_COUNT, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_COPY_ENGINES, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_DMA_CHUNK, SIMT_RA_RW, SIMT_DEFAULT_DMA_CHUNK) \
    X(SIMT_REG_COPY_BW, SIMT_RA_RO, SIMT_RESET_CONFIG) \
    X(SIMT_REG_TLB_INV_CTX, SIMT_RA_RW, 0) \
    X(SIMT_REG_TLB_INV_ADDR, SIMT_RA_RW, 0) \
    X(SIMT_REG_TLB_INV, SIMT_RA_WO, 0) \
    X(SIMT_REG_TLB_HITS, SIMT_RA_RO, 0) \
    X(SIMT_REG_TLB_MISSES, SIMT_RA_RO, 0) \
    X(SIMT_REG_MMU_FAULTS, SIMT_RA_RO, 0) \
    X(SIMT_REG_PREEMPT_BOUND, SIMT_RA_RW, SIMT_RESET_CONFIG) \
    X(SIMT_REG_PREEMPT_REQ, SIMT_RA_WO, 0) \
    X(SIMT_REG_PREEMPT_STATUS, SIMT_RA_RO, 0) \
    X(SIMT_REG_TIMESLICE, SIMT_RA_RW, 0) \
    X(SIMT_REG_PEV_COUNT, SIMT_RA_RO, 0) \
    X(SIMT_REG_PEV_LOG_LO, SIMT_RA_RW, 0) \
    X(SIMT_REG_PEV_LOG_HI, SIMT_RA_RW, 0) \
    X(SIMT_REG_PEV_LOG_SIZE, SIMT_RA_RW, 0) \
    X(SIMT_REG_TRACE_LO, SIMT_RA_RW, 0) \
    X(SIMT_REG_TRACE_HI, SIMT_RA_RW, 0) \
    X(SIMT_REG_TRACE_SIZE, SIMT_RA_RW, 0) \
    X(SIMT_REG_TRACE_COUNT, SIMT_RA_RO, 0) \
    X(SIMT_REG_PEV_LATENCY, SIMT_RA_RO, 0) \
    X(SIMT_REG_PEV_DONE_LATENCY, SIMT_RA_RO, 0) \
    X(SIMT_REG_PEV_DRAINED, SIMT_RA_RO, 0) \
    X(SIMT_REG_PEV_FLUSHED, SIMT_RA_RO, 0) \
    X(SIMT_REG_PEV_SWITCHED, SIMT_RA_RO, 0) \
    X(SIMT_REG_PEV_LIGHT, SIMT_RA_RO, 0) \
    X(SIMT_REG_PEV_SAVED_BYTES, SIMT_RA_RO, 0) \
    X(SIMT_REG_PEV_WASTED, SIMT_RA_RO, 0) \
    X(SIMT_REG_PREEMPT_SAVED, SIMT_RA_RO, 0) \
    X(SIMT_REG_PREEMPT_RESTORED, SIMT_RA_RO, 0) \
    X(SIMT_REG_PREEMPT_WASTED, SIMT_RA_RO, 0) \
    X(SIMT_REG_PREEMPT_EVENTS, SIMT_RA_RO, 0) \
    X(SIMT_REG_POLICY_ERRORS, SIMT_RA_RO, 0) \
    X(SIMT_REG_ORACLE_LO, SIMT_RA_RW, 0) \
    X(SIMT_REG_ORACLE_HI, SIMT_RA_RW, 0) \
    X(SIMT_REG_ORACLE_COUNT, SIMT_RA_RW, 0)
#define SIMT_GLOBAL_REGS_END        0x0100

#define SIMT_RESET_CONFIG           (1ull << 32)    /* no 32-bit value */

/* SIMT_GLOBAL_REGS(SIMT_REG_DESC) initialises an array of these */
struct simt_reg_desc {
    uint16_t offset;            /* in its window */
    uint8_t access;             /* enum simt_reg_access */
    uint64_t reset;             /* or SIMT_RESET_CONFIG */
};
#define SIMT_REG_DESC(off, access, reset) { (off), (access), (reset) },

/*
 * Writing any other value to SIMT_REG_RESET is ignored, so that a stray
 * write cannot reset the device.
 */
#define SIMT_RESET_MAGIC            0x52534554u  /* "TESR" */

/* Capability bits in SIMT_REG_CAPS */
#define SIMT_CAP_MSIX               (1u << 0)
#define SIMT_CAP_QUEUES             (1u << 1)  /* queues and launches */
#define SIMT_CAP_MMU                (1u << 2)  /* contexts and page tables */
#define SIMT_CAP_COPY               (1u << 3)  /* copy engines */
#define SIMT_CAP_PREEMPT            (1u << 4)  /* the preemption engine */
/*
 * Kernels dispatch in launch order, queue priorities ignored, as on the
 * hardware seed 002 measured against (device property fifo-dispatch=on;
 * not in SIMT_CAPS_ALL).
 */
#define SIMT_CAP_FIFO_DISPATCH      (1u << 5)
/* User queues (SIMT_QCTL_USER) and the doorbell BAR (since 0.8) */
#define SIMT_CAP_USER_QUEUES        (1u << 6)
#define SIMT_CAPS_ALL \
    (SIMT_CAP_MSIX | SIMT_CAP_QUEUES | SIMT_CAP_MMU | SIMT_CAP_COPY | \
     SIMT_CAP_PREEMPT | SIMT_CAP_USER_QUEUES)

/*
 * Interrupt classes.  Bit N of SIMT_REG_IRQ_STATUS / SIMT_REG_IRQ_MASK is
 * class N, and class N is delivered on MSI-X vector N.
 */
enum simt_irq_class {
    SIMT_IRQ_QUEUE   = 0,   /* a queue completed a command */
    SIMT_IRQ_DMA     = 1,   /* a copy engine finished */
    SIMT_IRQ_PREEMPT = 2,   /* a preemption request completed */
    SIMT_IRQ_MMU     = 3,   /* a device MMU fault */
    SIMT_IRQ_ERROR   = 4,   /* a queue stopped on an error */
    SIMT_IRQ_TEST    = 5,   /* raised by writing SIMT_REG_IRQ_RAISE */
    SIMT_IRQ_NR      = 6,
};
#define SIMT_IRQ_BIT(cls)           (1u << (cls))
#define SIMT_IRQ_ALL                ((1u << SIMT_IRQ_NR) - 1)

/*
 * Device presets: named machine configurations (see docs/specs/simt.rst).
 */
enum simt_preset {
    SIMT_PRESET_DEFAULT   = 0,  /* small teaching configuration */
    SIMT_PRESET_GTX480    = 1,  /* Fermi, seeds 000 and 004 */
    SIMT_PRESET_PASCAL5   = 2,  /* seed 001 */
    SIMT_PRESET_VOLTA80   = 3,
    SIMT_PRESET_TURING68  = 4,
    SIMT_PRESET_AMPERE82  = 5,
    SIMT_PRESET_NR,
};

/*
 * The presets' names, as the device's "preset" property, its help and
 * the tools spell them: X(preset, name).
 */
#define SIMT_PRESET_NAMES(X) \
    X(SIMT_PRESET_DEFAULT, "default") \
    X(SIMT_PRESET_GTX480, "gtx480") \
    X(SIMT_PRESET_PASCAL5, "pascal-5") \
    X(SIMT_PRESET_VOLTA80, "volta-80") \
    X(SIMT_PRESET_TURING68, "turing-68") \
    X(SIMT_PRESET_AMPERE82, "ampere-82")

/* SIMT_PRESET_NAMES(SIMT_PRESET_NAME) initialises an array of these */
struct simt_preset_name {
    uint8_t preset;             /* enum simt_preset */
    const char *name;
};
#define SIMT_PRESET_NAME(preset, name)  { (preset), (name) },

/*
 * Hardware queues.  Queue q's registers are at SIMT_QUEUE_BASE + q *
 * SIMT_QUEUE_STRIDE.  A queue is a ring of SIMT_CMD_SIZE-byte commands in
 * guest memory; the driver writes commands, then the index one past the
 * last into TAIL (the doorbell).  The device executes a queue's commands
 * in order, each after the previous one completed, and advances HEAD.
 * Queues run concurrently and share the SMs; PRIORITY orders dispatch.
 */
#define SIMT_MAX_QUEUES             16
#define SIMT_QUEUE_BASE             0x1000
#define SIMT_QUEUE_STRIDE           0x40
#define SIMT_QUEUE_REG(q, r) \
    (SIMT_QUEUE_BASE + (q) * SIMT_QUEUE_STRIDE + (r))

#define SIMT_QREG_BASE_LO           0x00    /* RW: ring address, aligned */
#define SIMT_QREG_BASE_HI           0x04    /*     to SIMT_CMD_SIZE */
#define SIMT_QREG_SIZE              0x08    /* RW: entries, power of two */
#define SIMT_QREG_HEAD              0x0c    /* RO: next command to run */
#define SIMT_QREG_TAIL              0x10    /* RW: doorbell */
#define SIMT_QREG_PRIORITY          0x14    /* RW: 0..SIMT_MAX_PRIORITY */
#define SIMT_QREG_CONTROL           0x18    /* RW: SIMT_QCTL_* */
#define SIMT_QREG_STATUS            0x1c    /* RO: state | error << 8 */
#define SIMT_QREG_ERROR_CMD         0x20    /* RO: index of failed command */
#define SIMT_QREG_COMPLETED         0x24    /* RO: commands completed */
#define SIMT_QREG_CONTEXT           0x28    /* RW: context the queue runs in */
#define SIMT_QREG_RESIDENT          0x2c    /* RO: its kernel's blocks on SMs */
#define SIMT_QREG_ACTIVE_CYCLES     0x30    /* RO: cycles its work ran, wraps */
#define SIMT_QREG_KERNEL_CYCLES     0x34    /* RO: of them, kernel cycles */
#define SIMT_QREG_COPY_CYCLES       0x38    /* RO: of them, copy cycles */

#define SIMT_QUEUE_REGS(X) \
    X(SIMT_QREG_BASE_LO, SIMT_RA_RW, 0) \
    X(SIMT_QREG_BASE_HI, SIMT_RA_RW, 0) \
    X(SIMT_QREG_SIZE, SIMT_RA_RW, 0) \
    X(SIMT_QREG_HEAD, SIMT_RA_RO, 0) \
    X(SIMT_QREG_TAIL, SIMT_RA_RW, 0) \
    X(SIMT_QREG_PRIORITY, SIMT_RA_RW, 0) \
    X(SIMT_QREG_CONTROL, SIMT_RA_RW, 0) \
    X(SIMT_QREG_STATUS, SIMT_RA_RO, SIMT_QSTATE_DISABLED) \
    X(SIMT_QREG_ERROR_CMD, SIMT_RA_RO, 0) \
    X(SIMT_QREG_COMPLETED, SIMT_RA_RO, 0) \
    X(SIMT_QREG_CONTEXT, SIMT_RA_RW, 0) \
    X(SIMT_QREG_RESIDENT, SIMT_RA_RO, 0) \
    X(SIMT_QREG_ACTIVE_CYCLES, SIMT_RA_RO, 0) \
    X(SIMT_QREG_KERNEL_CYCLES, SIMT_RA_RO, 0) \
    X(SIMT_QREG_COPY_CYCLES, SIMT_RA_RO, 0)

#define SIMT_MIN_QUEUE_SIZE         2
#define SIMT_MAX_QUEUE_SIZE         4096
#define SIMT_MAX_PRIORITY           3       /* higher runs first */

/*
 * CONTROL: ENABLE starts fetching (BASE and SIZE are latched then and
 * cannot change while enabled).  Writing RESET with ENABLE clear sets
 * HEAD = TAIL = 0 and clears an error; a queue in error stays stopped
 * until then.
 */
#define SIMT_QCTL_ENABLE            (1u << 0)
#define SIMT_QCTL_RESET             (1u << 1)
/*
 * USER (since 0.8), latched with ENABLE: the queue is a user queue, whose
 * ring a process may write.  Every address it names is then a device
 * virtual address translated in the queue's context: BASE, SIGNAL's and
 * WAIT's addr and LAUNCH's record (COPY's device addresses already are).
 * The context must translate (SIMT_PT_SV32) and the ring lie below
 * 4 GiB, or ENABLE stops the queue with SIMT_QERR_BAD_RING; a SIGNAL or
 * WAIT addr, or a record, past 4 GiB is SIMT_QERR_BAD_COMMAND.  USER
 * written while the queue is enabled is ignored; clearing ENABLE clears
 * it.  A COPY with SIMT_CMDF_SRC_HOST or
 * SIMT_CMDF_DST_HOST stops it with SIMT_QERR_PRIVILEGED.  A ring read,
 * semaphore read, SIGNAL or record write that does not translate records
 * a context fault (SIMT_ACCESS_QUEUE_READ or _WRITE) and stops the queue
 * with SIMT_QERR_MMU.  Only a user queue takes TAIL from its doorbell.
 */
#define SIMT_QCTL_USER              (1u << 2)

/*
 * RESIDENT counts block slots the queue's kernel holds, leaving blocks
 * included: 0 once ENABLE is cleared.  ACTIVE_CYCLES adds the length of
 * every engine slice in which a block of the queue's kernel was on an SM
 * or a copy engine moved the queue's copy (for a watchdog of running
 * time).  KERNEL_CYCLES counts the first kind of slice and COPY_CYCLES
 * the second (for per-engine usage: a slice of a kernel preempted off
 * every SM is in neither).  All three are 0 after a device reset or
 * RESET.
 */

enum simt_queue_state {
    SIMT_QSTATE_DISABLED = 0,
    SIMT_QSTATE_IDLE     = 1,   /* HEAD == TAIL */
    SIMT_QSTATE_BUSY     = 2,   /* running a command */
    SIMT_QSTATE_WAITING  = 3,   /* WAIT command: semaphore not reached */
    SIMT_QSTATE_ERROR    = 4,   /* stopped; see the error field */
};
#define SIMT_QSTATUS(state, error)  ((state) | (uint32_t)(error) << 8)
#define SIMT_QSTATUS_STATE(st)      ((st) & 0xff)
#define SIMT_QSTATUS_ERROR(st)      (((st) >> 8) & 0xff)

/* Why a queue stopped (STATUS bits 15:8, completion record status). */
enum simt_queue_error {
    SIMT_QERR_NONE        = 0,
    SIMT_QERR_BAD_OPCODE  = 1,  /* unknown command */
    SIMT_QERR_BAD_COMMAND = 2,  /* reserved bits or fields out of range */
    SIMT_QERR_BAD_LAUNCH  = 3,  /* a block cannot fit on any SM */
    SIMT_QERR_DMA         = 4,  /* ring, record or semaphore unreachable */
    SIMT_QERR_FAULT       = 5,  /* the kernel faulted (see the record) */
    SIMT_QERR_BAD_RING    = 6,  /* BASE/SIZE invalid at enable */
    SIMT_QERR_MMU         = 7,  /* a device address faulted */
    SIMT_QERR_PRIVILEGED  = 8,  /* a user queue named guest memory */
};

/*
 * The doorbell BAR (SIMT_BAR_DOORBELL, since 0.8): one page per queue, so
 * that the driver can map one queue's doorbell, and nothing else, into a
 * process.  Queue q's page starts at q * SIMT_DOORBELL_STRIDE.  A write
 * to its TAIL is a write to the queue's TAIL register when the queue is
 * enabled with SIMT_QCTL_USER, and ignored (a guest error) otherwise.
 * Other offsets read 0 and ignore writes.
 */
#define SIMT_DOORBELL_STRIDE        0x1000
#define SIMT_DOORBELL_SIZE          (SIMT_MAX_QUEUES * SIMT_DOORBELL_STRIDE)
#define SIMT_DBREG_TAIL             0x00    /* RW: the queue's TAIL */
#define SIMT_DBREG_HEAD             0x04    /* RO: the queue's HEAD */

/*
 * Why a block fits on no SM, so that its LAUNCH fails with
 * SIMT_QERR_BAD_LAUNCH: the first per-SM limit (SIMT_REG_SM_THREADS,
 * _WARPS, _REGS, _SHARED) that one block of @threads threads, @regs
 * registers each and @shared bytes of shared memory exceeds.  The one
 * rule, for the device, libsimt (which refuses such a launch before
 * submitting it, naming the limit) and the host runner.
 */
enum simt_misfit {
    SIMT_MISFIT_NONE    = 0,
    SIMT_MISFIT_THREADS = 1,
    SIMT_MISFIT_WARPS   = 2,
    SIMT_MISFIT_REGS    = 3,
    SIMT_MISFIT_SHARED  = 4,
};

static inline enum simt_misfit simt_block_misfit(uint64_t threads,
                                                 uint32_t regs,
                                                 uint32_t shared,
                                                 uint32_t sm_threads,
                                                 uint32_t sm_warps,
                                                 uint32_t sm_regs,
                                                 uint32_t sm_shared)
{
    if (threads > sm_threads) {
        return SIMT_MISFIT_THREADS;
    }
    if ((threads + 31) / 32 > sm_warps) {
        return SIMT_MISFIT_WARPS;
    }
    if (threads * regs > sm_regs) {
        return SIMT_MISFIT_REGS;
    }
    if (shared > sm_shared) {
        return SIMT_MISFIT_SHARED;
    }
    return SIMT_MISFIT_NONE;
}

/* Commands: SIMT_CMD_SIZE bytes, little-endian, opcode in the first word. */
#define SIMT_CMD_SIZE               128

enum simt_cmd_opcode {
    SIMT_CMD_NOP    = 0,
    SIMT_CMD_LAUNCH = 1,
    SIMT_CMD_SIGNAL = 2,
    SIMT_CMD_WAIT   = 3,
    SIMT_CMD_COPY   = 4,
};

/* Command flags (second word). */
#define SIMT_CMDF_IRQ               (1u << 0)   /* SIMT_IRQ_QUEUE when done */
#define SIMT_CMDF_SRC_HOST          (1u << 1)   /* COPY: src is guest memory */
#define SIMT_CMDF_DST_HOST          (1u << 2)   /* COPY: dst is guest memory */
/*
 * LAUNCH: every block may be flushed (re-run from its start) at any time,
 * even after global stores.  Only for kernels whose metadata says
 * idempotent and whose store buffers do not overlap their load buffers.
 */
#define SIMT_CMDF_IDEMPOTENT        (1u << 3)
/*
 * SIGNAL: write the device cycle at which the queue reached the command
 * instead of @value, so that the host can time what came before it on
 * the queue (a copy's end, say) on the device's clock.
 */
#define SIMT_CMDF_TIMESTAMP         (1u << 4)
#define SIMT_CMDF_ALL               SIMT_CMDF_IRQ
#define SIMT_CMDF_SIGNAL_ALL        (SIMT_CMDF_IRQ | SIMT_CMDF_TIMESTAMP)
#define SIMT_CMDF_LAUNCH_ALL        (SIMT_CMDF_IRQ | SIMT_CMDF_IDEMPOTENT)
#define SIMT_CMDF_COPY_ALL \
    (SIMT_CMDF_IRQ | SIMT_CMDF_SRC_HOST | SIMT_CMDF_DST_HOST)

/*
 * LAUNCH: run a grid.  Addresses are device (VRAM) addresses.  Local
 * memory: the block in SM s's block slot k uses
 *   local_base + (s * SM_BLOCKS + k) * threads_per_block * local_size,
 * so the driver reserves SM_COUNT * SM_BLOCKS * that many bytes.  @regs
 * (registers per thread, from the kernel's metadata note) counts against
 * the SM's register file.  The completion record is written to guest
 * memory at @record (0: none; in a user queue a device virtual address)
 * when the last block retires.
 */
#define SIMT_MAX_CODE_SIZE          (4u << 20)  /* bytes of one kernel's code */

/* Registers per thread a LAUNCH may declare (x and f of RV32F) */
#define SIMT_MAX_REGS               64

struct simt_cmd_launch {
    uint32_t opcode;
    uint32_t flags;
    uint64_t record;
    uint32_t code_addr;
    uint32_t code_size;
    uint32_t entry;
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t shared_size;       /* bytes per block */
    uint32_t local_size;        /* bytes per thread, multiple of 16 */
    uint32_t regs;              /* registers per thread, 1..SIMT_MAX_REGS */
    uint32_t local_base;
    uint32_t args[SIMT_ARG_REGS];
    /*
     * Device address of the kernel image's live table for
     * [code_addr, code_addr + code_size): one little-endian 64-bit mask
     * per instruction as in the metadata note (simt-isa.h).  0: none, the
     * lightweight switch then keeps every register of int_regs/fp_regs.
     */
    uint32_t live_addr;
    /* Registers the kernel uses (bit n: xn / fn); both 0: all of them */
    uint32_t int_regs;
    uint32_t fp_regs;
    /*
     * A subgrid: run only the blocks with linear indices [first_block,
     * first_block + block_count) of the grid (x fastest, then y, then z).
     * The block index CSRs still give each block's coordinates in the
     * whole grid, and NCTAID the whole grid.  block_count 0: every block,
     * first_block must then be 0.
     */
    uint32_t first_block;
    uint32_t block_count;
    /*
     * Device address of the kernel image's preemption points (seed 004):
     * @pp_count ascending 32-bit little-endian pcs, each a 4-byte aligned
     * instruction of [code_addr, code_addr + code_size), as in the
     * metadata note (simt-isa.h).  pp_count 0: none (pp_addr ignored).
     */
    uint32_t pp_addr;
    uint32_t pp_count;
};

/* SIGNAL: once every earlier command is done, store @value at @addr. */
struct simt_cmd_signal {
    uint32_t opcode;
    uint32_t flags;
    uint64_t addr;              /* guest physical (user queue: device */
                                /* virtual), 8-byte aligned */
    uint64_t value;
    uint32_t reserved[26];      /* must be zero */
};

/* WAIT: hold the queue until the 64-bit value at @addr >= @value. */
struct simt_cmd_wait {
    uint32_t opcode;
    uint32_t flags;
    uint64_t addr;              /* guest physical (user queue: device */
                                /* virtual), 8-byte aligned */
    uint64_t value;
    uint32_t reserved[26];      /* must be zero */
};

/*
 * COPY: move @size bytes (any size, any alignment) from @src to @dst.
 * A host address is guest physical memory (SIMT_CMDF_*_HOST); a device
 * address is translated in the queue's context.  The copy is carried out
 * by a copy engine in chunks of DMA_CHUNK bytes; at every chunk boundary
 * the engine moves on to the highest-priority pending copy.
 */
struct simt_cmd_copy {
    uint32_t opcode;
    uint32_t flags;
    uint64_t src;
    uint64_t dst;
    uint64_t size;
    uint32_t reserved[24];      /* must be zero */
};

/* The completion record of a LAUNCH, 64 bytes in guest memory. */
struct simt_completion {
    uint32_t status;            /* enum simt_queue_error */
    uint32_t fault;             /* enum simt_fault */
    uint32_t fault_pc;
    uint32_t fault_addr;
    uint64_t start_cycle;       /* first block dispatched */
    uint64_t end_cycle;         /* last block retired */
    uint64_t thread_insns;
    uint64_t warp_insns;
    uint32_t fault_block[3];
    uint32_t blocks;            /* blocks retired */
};


/*
 * Hardware contexts: context c's registers are at SIMT_CTX_BASE + c *
 * SIMT_CTX_STRIDE.  A context is an address space (bare: device addresses
 * are VRAM offsets; or Sv32 page tables in VRAM) and a fault record.
 */
#define SIMT_MAX_CONTEXTS           64
#define SIMT_CTX_BASE               0x2000
#define SIMT_CTX_STRIDE             0x40
#define SIMT_CTX_REG(c, r) \
    (SIMT_CTX_BASE + (c) * SIMT_CTX_STRIDE + (r))

#define SIMT_CREG_PT                0x00    /* RW: SIMT_PT_* (like satp) */
#define SIMT_CREG_PRIORITY          0x04    /* RW: 0..SIMT_MAX_PRIORITY */
#define SIMT_CREG_SAVE_BASE         0x08    /* RW: preemption save area */
#define SIMT_CREG_SAVE_SIZE         0x0c    /* RW: ... and its bytes */
#define SIMT_CREG_FAULT             0x10    /* RW1C: SIMT_CFAULT_* */
#define SIMT_CREG_FAULT_ADDR        0x14    /* RO: faulting address */
#define SIMT_CREG_FAULT_PC          0x18    /* RO: faulting pc (kernels) */
#define SIMT_CREG_FAULT_QUEUE       0x1c    /* RO: queue that faulted */
#define SIMT_CREG_PREEMPT_MODE      0x20    /* RW: enum simt_preempt_mode */
#define SIMT_CREG_PSTATE            0x24    /* RO: SIMT_PSTATE_* */
#define SIMT_CREG_SAVE_USED         0x28    /* RO: save area bytes in use */
#define SIMT_CREG_PP_DRAIN          0x2c    /* RW: cycles, 0 = off */

#define SIMT_CTX_REGS(X) \
    X(SIMT_CREG_PT, SIMT_RA_RW, 0) \
    X(SIMT_CREG_PRIORITY, SIMT_RA_RW, 0) \
    X(SIMT_CREG_SAVE_BASE, SIMT_RA_RW, 0) \
    X(SIMT_CREG_SAVE_SIZE, SIMT_RA_RW, 0) \
    X(SIMT_CREG_FAULT, SIMT_RA_RW1C, 0) \
    X(SIMT_CREG_FAULT_ADDR, SIMT_RA_RO, 0) \
    X(SIMT_CREG_FAULT_PC, SIMT_RA_RO, 0) \
    X(SIMT_CREG_FAULT_QUEUE, SIMT_RA_RO, 0) \
    X(SIMT_CREG_PREEMPT_MODE, SIMT_RA_RW, SIMT_PMODE_DRAIN) \
    X(SIMT_CREG_PSTATE, SIMT_RA_RO, 0) \
    X(SIMT_CREG_SAVE_USED, SIMT_RA_RO, 0) \
    X(SIMT_CREG_PP_DRAIN, SIMT_RA_RW, 0)

/*
 * PP_DRAIN: seed 004's selective preemption.  When it is not 0, a
 * lightweight switch of the context's blocks does not stop the victim's
 * warps at once: each runs on until the instruction it would issue next
 * is one of the launch's preemption points (pp_addr), or it has exited or
 * waits at a barrier, and is saved there; a warp still running PP_DRAIN
 * cycles after the event started stops where it is.
 */

/* PT: bit 31 set = Sv32 translation, bits 21:0 = root table VRAM PPN. */
#define SIMT_PT_SV32                (1u << 31)
#define SIMT_PT_PPN_MASK            0x003fffffu

/* FAULT: bit 0 valid; bits 7:4 access; bits 15:8 reason. */
#define SIMT_CFAULT_VALID           (1u << 0)
#define SIMT_CFAULT(access, reason) \
    (SIMT_CFAULT_VALID | (uint32_t)(access) << 4 | (uint32_t)(reason) << 8)
#define SIMT_CFAULT_ACCESS(f)       (((f) >> 4) & 0xf)
#define SIMT_CFAULT_REASON(f)       (((f) >> 8) & 0xff)

enum simt_access {
    SIMT_ACCESS_LOAD  = 0,
    SIMT_ACCESS_STORE = 1,
    SIMT_ACCESS_FETCH = 2,
    SIMT_ACCESS_COPY_READ  = 3,     /* a copy engine's device source */
    SIMT_ACCESS_COPY_WRITE = 4,     /* a copy engine's device destination */
    SIMT_ACCESS_QUEUE_READ = 5,     /* a user queue's ring or semaphore */
    SIMT_ACCESS_QUEUE_WRITE = 6,    /* a user queue's SIGNAL or record */
};

enum simt_mmu_fault {
    SIMT_MMU_UNMAPPED   = 1,    /* a PTE on the walk is not valid */
    SIMT_MMU_PERMISSION = 2,    /* the leaf does not allow the access */
    /* reserved encoding, misaligned superpage, or no leaf at level 0 */
    SIMT_MMU_MALFORMED  = 3,
    /*
     * table or page outside VRAM; or a system page (SIMT_PTE_SYS) whose
     * guest-physical address the device could not reach by DMA
     */
    SIMT_MMU_BEYOND     = 4,
};

/* Sv32 page table entries (RISC-V privileged spec), 4 KiB and 4 MiB pages */
#define SIMT_PTE_V                  (1u << 0)
#define SIMT_PTE_R                  (1u << 1)
#define SIMT_PTE_W                  (1u << 2)
#define SIMT_PTE_X                  (1u << 3)
/*
 * First RSW bit: the leaf maps system memory.  Its PPN is a guest-physical
 * page number (22 bits: below 16 GiB), reached by DMA through the PCI
 * device's address space, not a VRAM page.  Only 4 KiB leaves may have it;
 * a superpage leaf or a pointer to a next-level table with it is
 * SIMT_MMU_MALFORMED.  A DMA error on such a page is SIMT_MMU_BEYOND.
 */
#define SIMT_PTE_SYS                (1u << 8)
#define SIMT_PTE_PPN_SHIFT          10
#define SIMT_PAGE_SHIFT             12
#define SIMT_PAGE_SIZE              (1u << SIMT_PAGE_SHIFT)
#define SIMT_SUPERPAGE_SHIFT        22
#define SIMT_SUPERPAGE_SIZE         (1u << SIMT_SUPERPAGE_SHIFT)
/* Sv32: 1024 4-byte entries per table; a VA's first- and second-level index */
#define SIMT_PT_LEVEL_ENTRIES       1024
#define SIMT_VPN1(va)               ((uint32_t)(va) >> SIMT_SUPERPAGE_SHIFT)
#define SIMT_VPN0(va) \
    (((uint32_t)(va) >> SIMT_PAGE_SHIFT) & (SIMT_PT_LEVEL_ENTRIES - 1))
/* A PTE's page number, and its low 10 bits (0 in a superpage leaf) */
#define SIMT_PTE_PPN(pte)           ((uint32_t)(pte) >> SIMT_PTE_PPN_SHIFT)
#define SIMT_PTE_PPN0(pte) \
    (SIMT_PTE_PPN(pte) & (SIMT_PT_LEVEL_ENTRIES - 1))

/* TLB_INV commands */
#define SIMT_TLB_INV_ALL            1   /* every entry */
#define SIMT_TLB_INV_CTX            2   /* entries of TLB_INV_CTX */
#define SIMT_TLB_INV_PAGE           3   /* ... for the page of TLB_INV_ADDR */

/*
 * Preemption.  A kernel's blocks leave the SMs by one of four mechanisms:
 * drain (run to completion; no more blocks are dispatched meanwhile),
 * flush (dropped, re-run from the start later; only while the block has
 * made no global store or atomic, or its launch had SIMT_CMDF_IDEMPOTENT),
 * context switch (the block's state is written to its context's save
 * area and restored later, on any SM) and lightweight switch (the same,
 * keeping only the registers live at the lanes' pcs, uniform and strided
 * ones compressed).  Auto chooses per block with seed 000's cost model
 * under PREEMPT_BOUND.  Chimera (Park et al., as seed 000 describes it)
 * chooses flush, context switch or drain per block from its progress,
 * at SM granularity: the preemptor gets whole SMs, only once every
 * victim block on them has left.  Triggers: a queue of higher priority
 * whose kernel cannot dispatch for lack of room (only as many blocks
 * leave as it needs; whole SMs for Chimera); a PREEMPT_REQ; the time
 * slice between kernels of equal priority.  A mechanism that cannot be
 * used on a block (flush after a global store, a switch without save
 * space) falls back to drain.
 */
enum simt_preempt_mode {
    SIMT_PMODE_NONE    = 0,     /* context: never preempted by priority */
    SIMT_PMODE_DRAIN   = 1,
    SIMT_PMODE_FLUSH   = 2,
    SIMT_PMODE_SWITCH  = 3,
    SIMT_PMODE_LIGHT   = 4,
    SIMT_PMODE_AUTO    = 5,
    SIMT_PMODE_CHIMERA = 6,
    SIMT_PMODE_NR,
};

/*
 * PREEMPT_REQ: PREEMPT takes every block of the context's kernels off the
 * SMs and holds them (PSTATE SUSPENDED) until RESUME.  MODE 0 uses the
 * context's PREEMPT_MODE (drain if that is NONE).
 */
#define SIMT_PREQ_CTX(v)            ((v) & 0x3f)
#define SIMT_PREQ_OP(v)             (((v) >> 8) & 0x3)
#define SIMT_PREQ_MODE(v)           (((v) >> 12) & 0x7)
#define SIMT_PREQ(ctx, op, mode) \
    ((uint32_t)(ctx) | (uint32_t)(op) << 8 | (uint32_t)(mode) << 12)
#define SIMT_PREQ_PREEMPT           1
#define SIMT_PREQ_RESUME            2

/* PREEMPT_STATUS: bit 0 an event is in progress; bits 15:8 last error */
#define SIMT_PSTATUS_BUSY           (1u << 0)
#define SIMT_PSTATUS_ERROR(v)       (((v) >> 8) & 0xff)
#define SIMT_PSTATUS(busy, error) \
    (((busy) ? SIMT_PSTATUS_BUSY : 0) | (uint32_t)(error) << 8)

/* Context PSTATE */
#define SIMT_PSTATE_SUSPENDED       (1u << 0)   /* held by a PREEMPT_REQ */
#define SIMT_PSTATE_SAVED           (1u << 1)   /* blocks in the save area */

enum simt_preempt_error {
    SIMT_PERR_NONE       = 0,
    SIMT_PERR_SAVE_SPACE = 1,   /* save area too small: drained instead */
    SIMT_PERR_SAVE_FAULT = 2,   /* save area unmapped: drained instead */
    SIMT_PERR_BAD_REQ    = 3,   /* malformed PREEMPT_REQ */
};

enum simt_preempt_trigger {
    SIMT_PTRIG_PRIORITY  = 1,
    SIMT_PTRIG_REQUEST   = 2,
    SIMT_PTRIG_TIMESLICE = 3,
};

/* One entry of the event log ring (PEV_LOG), written when an event ends */
#define SIMT_NO_PREEMPTOR           0xff

struct simt_preempt_event {
    uint32_t seq;               /* events started before this one */
    uint8_t trigger;            /* enum simt_preempt_trigger */
    uint8_t mode;               /* enum simt_preempt_mode asked for */
    uint8_t status;             /* enum simt_preempt_error */
    uint8_t preemptor;          /* queue needing room; SIMT_NO_PREEMPTOR */
    uint32_t victims;           /* bit q: queue q's kernel lost blocks */
    uint16_t drained;           /* blocks, per mechanism used */
    uint16_t flushed;
    uint16_t switched;
    uint16_t light;
    uint32_t saved_bytes;       /* written to save areas */
    uint32_t occupied_bytes;    /* what full switches would have written */
    uint32_t wasted_insns;      /* warp instructions lost to flushes */
    uint32_t kept_bytes;        /* shared memory left in place on SMs */
    uint32_t reg_bytes;         /* of saved_bytes, the register entries */
    uint64_t req_cycle;
    uint64_t dispatch_cycle;    /* preemptor's first block placed, or 0 */
    uint64_t done_cycle;        /* last victim block off its SM */
    /*
     * What the saves of the event take at the least, in cycles: over the
     * SMs, the most of an SM's saved bytes over its share of the memory
     * bandwidth plus @queue_wait, the time its first save waited for
     * that SM's earlier saves and restores.
     */
    uint32_t save_bound;
    uint32_t queue_wait;
    /*
     * Victims drained on an estimate (the auto and Chimera modes): the
     * sum of how far each one's end missed its estimate, and of their
     * drain times, in cycles from the request (saturating).
     */
    uint32_t drain_error;
    uint32_t drain_time;
    /*
     * Seed 004's selective preemption (PP_DRAIN): cycles from the request
     * until the last victim warp had stopped (the drain to preemption
     * points); warps stopped at a point, and warps stopped by the PP_DRAIN
     * bound elsewhere.
     */
    uint32_t pp_drain;
    uint32_t pp_warps;
    uint32_t pp_cut;
    /* Of reg_bytes' entries, the bytes they take uncompressed */
    uint32_t live_bytes;
    /*
     * Warp instructions the victims had executed at the request: what
     * flushing every one of them would lose (seed 000's baseline).
     */
    uint32_t victim_insns;
    /* Victims whose drain time the auto mode took from ORACLE */
    uint32_t oracle_drains;
};

/*
 * One entry of the ORACLE table: block @block of the kernel on queue
 * @queue, drained, would be off its SM at device cycle @done_cycle.  The
 * table is sorted by queue, then block; the auto mode takes a victim's
 * drain time from it instead of estimating it (docs/specs/simt.rst,
 * "The drain oracle").
 */
struct simt_oracle_entry {
    uint32_t queue;
    uint32_t block;
    uint64_t done_cycle;
};

/*
 * The timeline ring (TRACE): one record per block placed or removed,
 * copy and preemption, for tools that draw what the SMs did.  The device
 * writes record TRACE_COUNT % TRACE_SIZE, then increments TRACE_COUNT.
 */
enum simt_trace_type {
    SIMT_TRACE_DISPATCH = 1,    /* block placed; sm, block */
    SIMT_TRACE_RETIRE   = 2,    /* block finished */
    SIMT_TRACE_FLUSH    = 3,    /* block dropped, to be re-run */
    SIMT_TRACE_SAVE     = 4,    /* block saved and off the SM */
    SIMT_TRACE_RESTORE  = 5,    /* saved block placed again */
    SIMT_TRACE_PREEMPT  = 6,    /* event started; block = event seq */
    SIMT_TRACE_PREEMPT_DONE = 7,
    SIMT_TRACE_COPY     = 8,    /* copy submitted; sm = SIMT_TRACE_NO_SM */
    SIMT_TRACE_COPY_DONE = 9,   /* copy ended; sm = engine */
    SIMT_TRACE_KERNEL_DONE = 10, /* block = blocks retired */
};

struct simt_trace_record {
    uint64_t cycle;
    uint8_t type;               /* enum simt_trace_type */
    uint8_t queue;
    uint16_t sm;                /* or SIMT_TRACE_NO_SM */
    uint32_t block;             /* linear block index in the grid */
};
#define SIMT_TRACE_NO_SM            0xffff

/*
 * Save area records: one per switched block, at an offset of the
 * context's save area chosen by the device.  A record is a struct
 * simt_save_block, then per warp a struct simt_save_warp followed by its
 * encoded entries, then the shared memory bytes (unless kept on the SM),
 * padded to 4 bytes.  Entry n of a warp is xn for 1 <= n < 32, the lanes'
 * pcs for n = 0 (x0 is always zero), f(n - 32) for 32 <= n < 64 and fcsr
 * for n = 64; pattern bits 2n+1:2n say how it is stored, lanes in groups
 * of @pag: DEAD nothing, UNIFORM one word per group, STRIDED base and
 * stride per group, RAW 32 words.  Then, if resv_mask is not 0, 32
 * reservation addresses and 32 values.  A full switch stores the used
 * registers RAW; a lightweight switch only the live ones, compressed.
 * The block's local memory (threads x local_size bytes) follows the
 * record in the save area, since the block may come back in another slot.
 */
#define SIMT_SAVE_MAGIC             0x4b425653u  /* "SVBK" */
#define SIMT_SAVE_ENTRIES           65
#define SIMT_SAVE_FULL              1
#define SIMT_SAVE_LIGHT             2

enum simt_save_pattern {
    SIMT_SAVE_DEAD    = 0,
    SIMT_SAVE_UNIFORM = 1,
    SIMT_SAVE_STRIDED = 2,
    SIMT_SAVE_RAW     = 3,
};

struct simt_save_block {
    uint32_t magic;
    uint16_t format;            /* SIMT_SAVE_FULL or SIMT_SAVE_LIGHT */
    uint16_t pag;               /* lanes per compression group */
    uint32_t bytes;             /* the whole record */
    uint32_t block;             /* linear block index */
    uint32_t nwarps;
    uint32_t nthreads;
    uint32_t shared_bytes;      /* stored at the end; 0: kept on the SM */
    uint32_t nexited;
    uint32_t nwaiting;
    uint32_t barriers;
    uint32_t flags;             /* SIMT_SAVEF_* */
    uint32_t reserved;
    uint64_t warp_insns;
    uint64_t thread_insns;
};
#define SIMT_SAVEF_WROTE_GLOBAL     (1u << 0)   /* no longer flushable */

struct simt_save_warp {
    uint32_t exited;
    uint32_t waiting;
    uint32_t resv_mask;
    uint32_t warp_id;
    uint64_t instret;
    uint32_t pattern[5];        /* 2 bits per entry */
    uint32_t wsync;             /* lanes waiting at a warp sync */
};

/*
 * Copy engine e's counters: SIMT_COPY_BASE + e * SIMT_COPY_STRIDE.
 */
#define SIMT_MAX_COPY_ENGINES       8
#define SIMT_COPY_BASE              0x3000
#define SIMT_COPY_STRIDE            0x20
#define SIMT_COPY_REG(e, r) \
    (SIMT_COPY_BASE + (e) * SIMT_COPY_STRIDE + (r))

#define SIMT_EREG_BYTES_LO          0x00    /* RO: bytes copied */
#define SIMT_EREG_BYTES_HI          0x04
#define SIMT_EREG_CHUNKS            0x08    /* RO: chunks moved */
/* RO: times the engine left a copy for a higher-priority one */
#define SIMT_EREG_SWITCHES          0x0c
#define SIMT_EREG_QUEUE             0x10    /* RO: queue served, or ~0 */

#define SIMT_ENGINE_REGS(X) \
    X(SIMT_EREG_BYTES_LO, SIMT_RA_RO, 0) \
    X(SIMT_EREG_BYTES_HI, SIMT_RA_RO, 0) \
    X(SIMT_EREG_CHUNKS, SIMT_RA_RO, 0) \
    X(SIMT_EREG_SWITCHES, SIMT_RA_RO, 0) \
    X(SIMT_EREG_QUEUE, SIMT_RA_RO, 0xffffffff)

#define SIMT_MIN_DMA_CHUNK          4096
#define SIMT_MAX_DMA_CHUNK          (64u << 20)
#define SIMT_DEFAULT_DMA_CHUNK      (1u << 20)

/* The wire formats' sizes, fixed by the contract */
_Static_assert(sizeof(struct simt_cmd_launch) == SIMT_CMD_SIZE, "LAUNCH");
_Static_assert(sizeof(struct simt_cmd_signal) == SIMT_CMD_SIZE, "SIGNAL");
_Static_assert(sizeof(struct simt_cmd_wait) == SIMT_CMD_SIZE, "WAIT");
_Static_assert(sizeof(struct simt_cmd_copy) == SIMT_CMD_SIZE, "COPY");
_Static_assert(sizeof(struct simt_completion) == 64, "completion record");
_Static_assert(sizeof(struct simt_preempt_event) == 104, "event log entry");
_Static_assert(sizeof(struct simt_oracle_entry) == 16, "oracle entry");
_Static_assert(sizeof(struct simt_trace_record) == 16, "timeline record");
_Static_assert(sizeof(struct simt_save_block) == 64, "save record header");
_Static_assert(sizeof(struct simt_save_warp) == 48, "save record warp");

#endif /* SIMT_HW_H */
