/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the simt device's user queues (SIMT_QCTL_USER): a ring, its
 * semaphores and completion records reached through the queue's context
 * (here pages of guest RAM mapped with SIMT_PTE_SYS, as a process's
 * memory would be), TAIL written through the doorbell BAR, guest memory
 * refused to copies, faults recorded in the context.  Kernels come from
 * $SIMT_KERNEL_DIR; everything runs on the virtual clock.
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "hw/pci/pci_regs.h"
#include "simt-qtest.h"

/* Queue and context of the user queue under test. */
#define UQ                  1
#define UCTX                1

/* Guest RAM (beyond the rings and records of simt-qtest.h). */
#define SYS_SEM             0x6000000   /* semaphores and records */
#define SYS_OUT             0x6001000   /* what kernels store */
#define SYS_SRC             0x6002000   /* a copy's guest-memory source */

/* VRAM: page tables, then pages a context maps. */
#define VRAM_PT_POOL        0x0800000
#define VRAM_PT_POOL_END    0x1000000
#define VRAM_PAGES          0x1000000

/* Device virtual addresses of the user queue's context. */
#define VA_RING             0x10000000u
#define VA_SEM              0x10010000u
#define VA_REC              (VA_SEM + 0x100)
#define VA_OUT              0x10011000u
#define VA_RO               0x10012000u     /* mapped read-only */
#define VA_VRAM             0x10020000u     /* two VRAM pages */
#define VA_UNMAPPED         0x20000000u


static uint32_t crd(Dev *d, unsigned ctx, unsigned reg)
{
    return rd(d, SIMT_CTX_REG(ctx, reg));
}

static void cwr(Dev *d, unsigned ctx, unsigned reg, uint32_t val)
{
    wr(d, SIMT_CTX_REG(ctx, reg), val);
}

static uint32_t qstate(Dev *d, unsigned q)
{
    return SIMT_QSTATUS_STATE(qrd(d, q, SIMT_QREG_STATUS));
}

static void db_wr(Dev *d, unsigned q, uint32_t off, uint32_t val)
{
    qpci_io_writel(d->dev, d->doorbell, q * SIMT_DOORBELL_STRIDE + off, val);
}

static uint32_t db_rd(Dev *d, unsigned q, uint32_t off)
{
    return qpci_io_readl(d->dev, d->doorbell,
                         q * SIMT_DOORBELL_STRIDE + off);
}

/* Sv32 tables built in VRAM, as simt-mem-test builds them. */
static uint32_t pt_page(Dev *d)
{
    uint32_t addr = d->pt_next;
    g_autofree uint8_t *zero = g_malloc0(SIMT_PAGE_SIZE);

    d->pt_next += SIMT_PAGE_SIZE;
    g_assert_cmpuint(d->pt_next, <=, VRAM_PT_POOL_END);
    qtest_bufwrite(d->qts, d->vram.addr + addr, zero, SIMT_PAGE_SIZE);
    return addr;
}

static uint32_t pte_leaf(uint64_t pa, uint32_t perm)
{
    return (uint32_t)(pa >> SIMT_PAGE_SHIFT) << SIMT_PTE_PPN_SHIFT |
           perm | SIMT_PTE_V;
}

static void map_pte(Dev *d, unsigned ctx, uint32_t va, uint32_t leaf)
{
    uint32_t pt = crd(d, ctx, SIMT_CREG_PT);
    uint32_t l1 = ((pt & SIMT_PT_PPN_MASK) << SIMT_PAGE_SHIFT) +
                  (va >> 22) * 4;
    uint32_t pte = qpci_io_readl(d->dev, d->vram, l1);

    g_assert_true(pt & SIMT_PT_SV32);
    if (!(pte & SIMT_PTE_V)) {
        pte = pte_leaf(pt_page(d), 0);
        qpci_io_writel(d->dev, d->vram, l1, pte);
    }
    qpci_io_writel(d->dev, d->vram,
                   (pte >> SIMT_PTE_PPN_SHIFT << SIMT_PAGE_SHIFT) +
                   ((va >> 12) & 0x3ff) * 4, leaf);
}

/* A page of guest RAM at @va, as the driver maps a process's pages. */
static void map_sys(Dev *d, unsigned ctx, uint32_t va, uint64_t gpa,
                    uint32_t perm)
{
    map_pte(d, ctx, va, pte_leaf(gpa, perm | SIMT_PTE_SYS));
}

/*
 * Context @ctx: the kernel image at its link addresses, the user queue's
 * ring (queue UQ's ring of simt-qtest.h), semaphore/record and output
 * pages in guest RAM, a read-only guest page and two VRAM pages.
 */
static void space_init(Dev *d, unsigned ctx)
{
    uint32_t root = pt_page(d);
    uint32_t start = d->img->base & ~(SIMT_PAGE_SIZE - 1);

    cwr(d, ctx, SIMT_CREG_PT, SIMT_PT_SV32 | root >> SIMT_PAGE_SHIFT);
    for (uint32_t a = start; a < d->img->base + d->img->size;
         a += SIMT_PAGE_SIZE) {
        map_pte(d, ctx, a, pte_leaf(a, SIMT_PTE_R | SIMT_PTE_X));
    }
    for (uint32_t a = 0; a < RING_SIZE * SIMT_CMD_SIZE; a += SIMT_PAGE_SIZE) {
        map_sys(d, ctx, VA_RING + a, RING_ADDR(UQ) + a, SIMT_PTE_R);
    }
    map_sys(d, ctx, VA_SEM, SYS_SEM, SIMT_PTE_R | SIMT_PTE_W);
    map_sys(d, ctx, VA_OUT, SYS_OUT, SIMT_PTE_R | SIMT_PTE_W);
    map_sys(d, ctx, VA_RO, SYS_SEM, SIMT_PTE_R);
    for (unsigned i = 0; i < 2; i++) {
        map_pte(d, ctx, VA_VRAM + i * SIMT_PAGE_SIZE,
                pte_leaf(VRAM_PAGES + i * SIMT_PAGE_SIZE,
                         SIMT_PTE_R | SIMT_PTE_W));
    }
    wr(d, SIMT_REG_TLB_INV_CTX, ctx);
    wr(d, SIMT_REG_TLB_INV, SIMT_TLB_INV_CTX);
}

/* Queue @q disabled, reset, its ring at @base in context @ctx. */
static void queue_prepare(Dev *d, unsigned q, uint64_t base, unsigned ctx)
{
    qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
    qwr(d, q, SIMT_QREG_BASE_LO, base);
    qwr(d, q, SIMT_QREG_BASE_HI, base >> 32);
    qwr(d, q, SIMT_QREG_SIZE, RING_SIZE);
    qwr(d, q, SIMT_QREG_CONTEXT, ctx);
    d->tail[q] = 0;
}

/* Queue @q a user queue with its ring at @va of context UCTX. */
static void user_enable(Dev *d, unsigned q, uint32_t va)
{
    queue_prepare(d, q, va, UCTX);
    qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE | SIMT_QCTL_USER);
    g_assert_cmphex(qrd(d, q, SIMT_QREG_CONTROL), ==,
                    SIMT_QCTL_ENABLE | SIMT_QCTL_USER);
    g_assert_cmpuint(qstate(d, q), ==, SIMT_QSTATE_IDLE);
}

/*
 * The device, context UCTX built, queue UQ a user queue with its ring at
 * VA_RING, guest pages cleared.
 */
static Dev *user_start(void)
{
    Dev *d = dev_start(NULL);
    g_autofree uint8_t *zero = g_malloc0(3 * SIMT_PAGE_SIZE);

    g_assert_cmpuint(d->nqueues, >, 3);
    d->pt_next = VRAM_PT_POOL;
    qtest_bufwrite(d->qts, SYS_SEM, zero, 3 * SIMT_PAGE_SIZE);
    qtest_bufwrite(d->qts, d->vram.addr + VRAM_PAGES, zero,
                   2 * SIMT_PAGE_SIZE);
    space_init(d, UCTX);
    user_enable(d, UQ, VA_RING);
    return d;
}

/* Put @cmd on user queue @q's ring and ring its doorbell; its index. */
static uint32_t user_submit(Dev *d, unsigned q, const void *cmd)
{
    uint32_t idx = ring_put(d, q, cmd);

    db_wr(d, q, SIMT_DBREG_TAIL, d->tail[q]);
    return idx;
}

static uint32_t signal_cmd(Dev *d, unsigned q, uint32_t va,
                           uint64_t value)
{
    struct simt_cmd_signal c = {
        .opcode = SIMT_CMD_SIGNAL, .addr = va, .value = value,
    };

    return user_submit(d, q, &c);
}

/* LAUNCH store_word(@out, @val), one thread, its record at @rec. */
static uint32_t store_launch(Dev *d, unsigned q, uint32_t out,
                             uint32_t val, uint32_t rec)
{
    const struct simt_kernel_info *k = simt_image_kernel(d->img,
                                                         "store_word");
    struct simt_cmd_launch c = {
        .opcode = SIMT_CMD_LAUNCH,
        .record = rec,
        .code_addr = d->img->code_start,
        .code_size = d->img->code_end - d->img->code_start,
        .grid = { 1, 1, 1 },
        .block = { 1, 1, 1 },
        .args = { out, val },
    };

    g_assert_nonnull(k);
    c.entry = k->m.entry;
    c.regs = ctpop32(k->m.int_regs_used) + ctpop32(k->m.fp_regs_used);
    return user_submit(d, q, &c);
}

/* Queue @q stopped on command @idx with @error. */
static void expect_error(Dev *d, unsigned q, uint32_t idx, uint32_t error)
{
    uint32_t st = qrd(d, q, SIMT_QREG_STATUS);

    g_assert_cmpuint(SIMT_QSTATUS_STATE(st), ==, SIMT_QSTATE_ERROR);
    g_assert_cmpuint(SIMT_QSTATUS_ERROR(st), ==, error);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_ERROR_CMD), ==, idx);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_HEAD), ==, idx);
    g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_ERROR));
}

/* Context @ctx's fault record holds one of queue @q; cleared after. */
static void expect_ctx_fault(Dev *d, unsigned ctx, unsigned q, uint32_t va,
                             int access, int reason)
{
    uint32_t f = crd(d, ctx, SIMT_CREG_FAULT);

    g_assert_true(f & SIMT_CFAULT_VALID);
    g_assert_cmpuint(SIMT_CFAULT_ACCESS(f), ==, access);
    g_assert_cmpuint(SIMT_CFAULT_REASON(f), ==, reason);
    g_assert_cmphex(crd(d, ctx, SIMT_CREG_FAULT_ADDR), ==, va);
    g_assert_cmpuint(crd(d, ctx, SIMT_CREG_FAULT_QUEUE), ==, q);
    g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_MMU));
    cwr(d, ctx, SIMT_CREG_FAULT, SIMT_CFAULT_VALID);
    g_assert_cmpuint(crd(d, ctx, SIMT_CREG_FAULT), ==, 0);
    wr(d, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);
}

/* The clock stepped by @ns in steps of 10 us. */
static void step(Dev *d, int64_t ns)
{
    for (int64_t t = 0; t < ns; t += 10000) {
        qtest_clock_step(d->qts, 10000);
    }
}

/*
 * VERSION 0.8 and the user-queue capability; BAR1 a 32-bit memory BAR
 * of a page per queue (its size as PCI sizes it: all ones written, the
 * address bits that stay read back).
 */
static void test_caps_version(void)
{
    Dev *d = user_start();
    uint8_t reg = PCI_BASE_ADDRESS_0 + SIMT_BAR_DOORBELL * 4;
    uint32_t bar = qpci_config_readl(d->dev, reg), mask;

    g_assert_cmphex(rd(d, SIMT_REG_VERSION), ==, SIMT_VERSION_OF(0, 9));
    g_assert_cmphex(rd(d, SIMT_REG_CAPS) & SIMT_CAP_USER_QUEUES, ==,
                    SIMT_CAP_USER_QUEUES);
    g_assert_cmphex(bar & ~PCI_BASE_ADDRESS_MEM_MASK, ==,
                    PCI_BASE_ADDRESS_SPACE_MEMORY |
                    PCI_BASE_ADDRESS_MEM_TYPE_32);
    qpci_config_writel(d->dev, reg, 0xffffffff);
    mask = qpci_config_readl(d->dev, reg) & PCI_BASE_ADDRESS_MEM_MASK;
    qpci_config_writel(d->dev, reg, bar);
    g_assert_cmphex(~mask + 1, ==, SIMT_DOORBELL_SIZE);
    g_assert_cmphex(SIMT_DOORBELL_SIZE, ==,
                    SIMT_MAX_QUEUES * SIMT_DOORBELL_STRIDE);
    dev_stop(d);
}

/*
 * A kernel and a SIGNAL rung through the doorbell, every address of them
 * virtual: the kernel's store, its completion record and the semaphore
 * land in the guest pages mapped there, and the same numbers taken as
 * guest-physical addresses were not touched.
 */
static void test_launch_signal(void)
{
    Dev *d = user_start();
    struct simt_completion r;
    uint32_t idx;

    store_launch(d, UQ, VA_OUT + 0x40, 0x5ca1ab1e, VA_REC);
    idx = signal_cmd(d, UQ, VA_SEM, 0x1234567890abcdefull);
    g_assert_cmpuint(qrd(d, UQ, SIMT_QREG_TAIL), ==, 2);
    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(qrd(d, UQ, SIMT_QREG_COMPLETED), ==, 2);

    g_assert_cmphex(qtest_readl(d->qts, SYS_OUT + 0x40), ==, 0x5ca1ab1e);
    g_assert_cmphex(qtest_readq(d->qts, SYS_SEM), ==, 0x1234567890abcdefull);
    qtest_memread(d->qts, SYS_SEM + 0x100, &r, sizeof(r));
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(r.fault, ==, SIMT_FAULT_NONE);
    g_assert_cmpuint(r.blocks, ==, 1);
    g_assert_cmpuint(r.end_cycle, >=, r.start_cycle);
    g_assert_cmpuint(crd(d, UCTX, SIMT_CREG_FAULT), ==, 0);

    /* The doorbell page reads the queue's HEAD and TAIL. */
    g_assert_cmpuint(db_rd(d, UQ, SIMT_DBREG_HEAD), ==, 2);
    g_assert_cmpuint(db_rd(d, UQ, SIMT_DBREG_TAIL), ==, 2);
    dev_stop(d);
}

/* HEAD on the doorbell page follows the queue: held by a WAIT, then on. */
static void test_doorbell_head(void)
{
    Dev *d = user_start();
    struct simt_cmd_wait w = {
        .opcode = SIMT_CMD_WAIT, .addr = VA_SEM + 8, .value = 5,
    };
    uint32_t idx;

    signal_cmd(d, UQ, VA_SEM, 1);
    user_submit(d, UQ, &w);
    idx = signal_cmd(d, UQ, VA_SEM, 2);
    step(d, 200000);
    g_assert_cmpuint(qstate(d, UQ), ==, SIMT_QSTATE_WAITING);
    g_assert_cmpuint(qrd(d, UQ, SIMT_QREG_HEAD), ==, 1);
    g_assert_cmpuint(db_rd(d, UQ, SIMT_DBREG_HEAD), ==, 1);
    g_assert_cmpuint(qtest_readq(d->qts, SYS_SEM), ==, 1);

    qtest_writeq(d->qts, SYS_SEM + 8, 5);
    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(db_rd(d, UQ, SIMT_DBREG_HEAD), ==, 3);
    g_assert_cmpuint(qtest_readq(d->qts, SYS_SEM), ==, 2);
    dev_stop(d);
}

/*
 * A doorbell is a user queue's alone: on a kernel queue (queue 0,
 * enabled without USER) and on a disabled queue a TAIL written there
 * changes nothing and runs nothing.
 */
static void test_doorbell_kernel_queue_ignored(void)
{
    Dev *d = user_start();
    struct simt_cmd_signal c = {
        .opcode = SIMT_CMD_SIGNAL, .addr = SEM_ADDR, .value = 7,
    };

    qtest_writeq(d->qts, SEM_ADDR, 0);
    qtest_memwrite(d->qts, RING_ADDR(0), &c, sizeof(c));
    g_assert_cmphex(qrd(d, 0, SIMT_QREG_CONTROL), ==, SIMT_QCTL_ENABLE);
    db_wr(d, 0, SIMT_DBREG_TAIL, 1);
    qwr(d, 2, SIMT_QREG_CONTROL, 0);
    db_wr(d, 2, SIMT_DBREG_TAIL, 1);
    step(d, 200000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_TAIL), ==, 0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_HEAD), ==, 0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_COMPLETED), ==, 0);
    g_assert_cmpuint(qrd(d, 2, SIMT_QREG_TAIL), ==, 0);
    g_assert_cmpuint(qtest_readq(d->qts, SEM_ADDR), ==, 0);

    /* The same command through the TAIL register runs. */
    qwr(d, 0, SIMT_QREG_TAIL, 1);
    g_assert_cmpuint(wait_queue(d, 0, 0), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(qtest_readq(d->qts, SEM_ADDR), ==, 7);
    dev_stop(d);
}

/*
 * A user queue's COPY may not name guest memory: either host flag stops
 * it with PRIVILEGED and nothing is copied; a copy between two of its
 * device addresses runs.
 */
static void test_copy_host_flag_refused(void)
{
    static const uint32_t host_flags[] = {
        SIMT_CMDF_SRC_HOST, SIMT_CMDF_DST_HOST,
        SIMT_CMDF_SRC_HOST | SIMT_CMDF_DST_HOST,
    };
    Dev *d = user_start();
    uint8_t src[256], got[256], zero[256] = { 0 };

    for (unsigned i = 0; i < sizeof(src); i++) {
        src[i] = i * 7 + 1;
    }
    qtest_memwrite(d->qts, SYS_SRC, src, sizeof(src));
    qtest_memwrite(d->qts, SYS_OUT, src, sizeof(src));
    for (unsigned i = 0; i < ARRAY_SIZE(host_flags); i++) {
        bool dst_host = host_flags[i] & SIMT_CMDF_DST_HOST;
        struct simt_cmd_copy c = {
            .opcode = SIMT_CMD_COPY, .flags = host_flags[i],
            .src = host_flags[i] & SIMT_CMDF_SRC_HOST ? SYS_SRC : VA_OUT,
            .dst = dst_host ? SYS_SRC + 0x800 : VA_VRAM,
            .size = sizeof(src),
        };
        uint32_t idx = user_submit(d, UQ, &c);

        g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_ERROR);
        expect_error(d, UQ, idx, SIMT_QERR_PRIVILEGED);
        qtest_memread(d->qts, SYS_SRC + 0x800, got, sizeof(got));
        g_assert_cmpmem(got, sizeof(got), zero, sizeof(zero));
        qtest_bufread(d->qts, d->vram.addr + VRAM_PAGES, got, sizeof(got));
        g_assert_cmpmem(got, sizeof(got), zero, sizeof(zero));
        g_assert_cmpuint(crd(d, UCTX, SIMT_CREG_FAULT), ==, 0);
        user_enable(d, UQ, VA_RING);
        wr(d, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);
    }

    /* Device to device, both virtual (a guest page into VRAM): allowed. */
    {
        struct simt_cmd_copy c = {
            .opcode = SIMT_CMD_COPY, .src = VA_OUT, .dst = VA_VRAM + 8,
            .size = sizeof(src),
        };
        uint32_t idx = user_submit(d, UQ, &c);

        g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_IDLE);
        qtest_bufread(d->qts, d->vram.addr + VRAM_PAGES + 8, got,
                      sizeof(got));
        g_assert_cmpmem(got, sizeof(got), src, sizeof(src));
    }
    dev_stop(d);
}

/*
 * A SIGNAL to an unmapped address, and one to a read-only page: the
 * queue stops with MMU, the context's fault record names the address and
 * a queue write, and nothing is written.
 */
static void test_signal_fault(void)
{
    Dev *d = user_start();
    uint32_t idx;

    idx = signal_cmd(d, UQ, VA_UNMAPPED + 0x18, 9);
    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_ERROR);
    expect_error(d, UQ, idx, SIMT_QERR_MMU);
    expect_ctx_fault(d, UCTX, UQ, VA_UNMAPPED + 0x18, SIMT_ACCESS_QUEUE_WRITE,
                     SIMT_MMU_UNMAPPED);

    user_enable(d, UQ, VA_RING);
    idx = signal_cmd(d, UQ, VA_RO + 0x20, 9);
    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_ERROR);
    expect_error(d, UQ, idx, SIMT_QERR_MMU);
    expect_ctx_fault(d, UCTX, UQ, VA_RO + 0x20, SIMT_ACCESS_QUEUE_WRITE,
                     SIMT_MMU_PERMISSION);
    g_assert_cmpuint(qtest_readq(d->qts, SYS_SEM + 0x20), ==, 0);
    dev_stop(d);
}

/*
 * A LAUNCH whose record is unmapped: the kernel runs, then the record's
 * write faults as a queue write and the queue stops with MMU.
 */
static void test_record_fault(void)
{
    Dev *d = user_start();
    uint32_t idx = store_launch(d, UQ, VA_OUT, 0xfeedface, VA_UNMAPPED);

    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_ERROR);
    expect_error(d, UQ, idx, SIMT_QERR_MMU);
    expect_ctx_fault(d, UCTX, UQ, VA_UNMAPPED, SIMT_ACCESS_QUEUE_WRITE,
                     SIMT_MMU_UNMAPPED);
    g_assert_cmphex(qtest_readl(d->qts, SYS_OUT), ==, 0xfeedface);
    dev_stop(d);
}

/*
 * A ring at an unmapped address, and a WAIT on an unmapped semaphore:
 * queue reads, which fault as such.
 */
static void test_read_fault(void)
{
    Dev *d = user_start();
    struct simt_cmd_wait w = {
        .opcode = SIMT_CMD_WAIT, .addr = VA_UNMAPPED + 0x40, .value = 1,
    };
    uint32_t idx;

    user_enable(d, 3, VA_UNMAPPED);
    db_wr(d, 3, SIMT_DBREG_TAIL, 1);
    g_assert_cmpuint(wait_queue(d, 3, 0), ==, SIMT_QSTATE_ERROR);
    expect_error(d, 3, 0, SIMT_QERR_MMU);
    expect_ctx_fault(d, UCTX, 3, VA_UNMAPPED, SIMT_ACCESS_QUEUE_READ,
                     SIMT_MMU_UNMAPPED);

    idx = user_submit(d, UQ, &w);
    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_ERROR);
    expect_error(d, UQ, idx, SIMT_QERR_MMU);
    expect_ctx_fault(d, UCTX, UQ, VA_UNMAPPED + 0x40, SIMT_ACCESS_QUEUE_READ,
                     SIMT_MMU_UNMAPPED);
    dev_stop(d);
}

/*
 * ENABLE with USER on a bare context, or with a ring past 4 GiB: the
 * queue stops with BAD_RING and does not become a user queue.
 */
static void test_enable_refused(void)
{
    Dev *d = user_start();

    g_assert_cmphex(crd(d, 0, SIMT_CREG_PT) & SIMT_PT_SV32, ==, 0);
    queue_prepare(d, 3, VA_RING, 0);
    qwr(d, 3, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE | SIMT_QCTL_USER);
    g_assert_cmpuint(qstate(d, 3), ==, SIMT_QSTATE_ERROR);
    g_assert_cmpuint(SIMT_QSTATUS_ERROR(qrd(d, 3, SIMT_QREG_STATUS)), ==,
                     SIMT_QERR_BAD_RING);
    g_assert_cmphex(qrd(d, 3, SIMT_QREG_CONTROL) & SIMT_QCTL_USER, ==, 0);

    queue_prepare(d, 3, (1ull << 32) - SIMT_PAGE_SIZE / 2, UCTX);
    qwr(d, 3, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE | SIMT_QCTL_USER);
    g_assert_cmpuint(SIMT_QSTATUS_ERROR(qrd(d, 3, SIMT_QREG_STATUS)), ==,
                     SIMT_QERR_BAD_RING);

    /* The same ring as a kernel queue's is fine; USER is latched. */
    queue_prepare(d, 3, RING_ADDR(3), 0);
    qwr(d, 3, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
    g_assert_cmpuint(qstate(d, 3), ==, SIMT_QSTATE_IDLE);
    qwr(d, 3, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE | SIMT_QCTL_USER);
    g_assert_cmphex(qrd(d, 3, SIMT_QREG_CONTROL), ==, SIMT_QCTL_ENABLE);
    /* Disabling drops USER. */
    qwr(d, UQ, SIMT_QREG_CONTROL, 0);
    g_assert_cmphex(qrd(d, UQ, SIMT_QREG_CONTROL), ==, 0);
    dev_stop(d);
}

/*
 * Accesses to the doorbell BAR that are not TAIL writes and HEAD/TAIL
 * reads of a queue: reads give 0, writes change nothing, and the queue
 * works after them.
 */
static void test_doorbell_bad_access(void)
{
    Dev *d = user_start();
    uint64_t q_off = UQ * SIMT_DOORBELL_STRIDE;
    uint32_t idx;

    db_wr(d, UQ, SIMT_DBREG_HEAD, 5);
    db_wr(d, UQ, 0x8, 5);
    db_wr(d, UQ, 0xffc, 5);
    qpci_io_writeb(d->dev, d->doorbell, q_off + SIMT_DBREG_TAIL, 5);
    qpci_io_writew(d->dev, d->doorbell, q_off + SIMT_DBREG_TAIL, 5);
    qpci_io_writel(d->dev, d->doorbell, q_off + 2, 5);
    qpci_io_writeq(d->dev, d->doorbell, q_off, 5);
    db_wr(d, SIMT_MAX_QUEUES - 1, SIMT_DBREG_TAIL, 5);
    step(d, 100000);
    g_assert_cmpuint(qrd(d, UQ, SIMT_QREG_TAIL), ==, 0);
    g_assert_cmpuint(qrd(d, UQ, SIMT_QREG_HEAD), ==, 0);
    g_assert_cmpuint(qstate(d, UQ), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(db_rd(d, UQ, 0x8), ==, 0);
    g_assert_cmpuint(db_rd(d, UQ, 0xffc), ==, 0);
    g_assert_cmpuint(qpci_io_readb(d->dev, d->doorbell, q_off + 1), ==, 0);
    g_assert_cmpuint(qpci_io_readl(d->dev, d->doorbell, q_off + 2), ==, 0);

    /* A TAIL beyond the ring, as through the register: ignored. */
    db_wr(d, UQ, SIMT_DBREG_TAIL, RING_SIZE);
    g_assert_cmpuint(qrd(d, UQ, SIMT_QREG_TAIL), ==, 0);

    idx = signal_cmd(d, UQ, VA_SEM, 3);
    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(qtest_readq(d->qts, SYS_SEM), ==, 3);
    dev_stop(d);
}

/*
 * A user queue migrated stays one: after migration its CONTROL still has
 * USER, its doorbell still works and its COPY may still not name guest
 * memory.
 */
static void test_migrate(void)
{
    Dev *d = user_start();
    struct simt_cmd_copy c = {
        .opcode = SIMT_CMD_COPY, .flags = SIMT_CMDF_SRC_HOST,
        .src = SYS_SRC, .dst = VA_VRAM, .size = 64,
    };
    uint32_t idx = signal_cmd(d, UQ, VA_SEM, 1);
    int64_t now;

    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_IDLE);
    now = qtest_clock_step(d->qts, 1000);
    dev_migrate(d, now);
    g_assert_cmphex(qrd(d, UQ, SIMT_QREG_CONTROL), ==,
                    SIMT_QCTL_ENABLE | SIMT_QCTL_USER);
    idx = signal_cmd(d, UQ, VA_SEM + 8, 2);
    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(qtest_readq(d->qts, SYS_SEM + 8), ==, 2);
    idx = user_submit(d, UQ, &c);
    g_assert_cmpuint(wait_queue(d, UQ, idx), ==, SIMT_QSTATE_ERROR);
    expect_error(d, UQ, idx, SIMT_QERR_PRIVILEGED);
    dev_stop(d);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!simt_qtest_init()) {
        return g_test_run();
    }
    qtest_add_func("/simt/userq/caps-version-doorbell-bar",
                   test_caps_version);
    qtest_add_func("/simt/userq/launch-signal-via-doorbell-land-in-context",
                   test_launch_signal);
    qtest_add_func("/simt/userq/doorbell-head-follows-queue",
                   test_doorbell_head);
    qtest_add_func("/simt/userq/doorbell-of-kernel-queue-ignored",
                   test_doorbell_kernel_queue_ignored);
    qtest_add_func("/simt/userq/copy-host-flag-refused",
                   test_copy_host_flag_refused);
    qtest_add_func("/simt/userq/signal-fault-queue-write",
                   test_signal_fault);
    qtest_add_func("/simt/userq/record-fault-queue-write",
                   test_record_fault);
    qtest_add_func("/simt/userq/ring-and-wait-fault-queue-read",
                   test_read_fault);
    qtest_add_func("/simt/userq/enable-bare-context-bad-ring",
                   test_enable_refused);
    qtest_add_func("/simt/userq/doorbell-bad-access-harmless",
                   test_doorbell_bad_access);
    qtest_add_func("/simt/userq/migrated-queue-stays-user", test_migrate);
    return g_test_run();
}
