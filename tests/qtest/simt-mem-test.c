/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the simt device's memory system: copy engines (chunked,
 * preemptible copies between guest memory and VRAM), hardware contexts
 * and the device MMU (Sv32 page tables in VRAM, the TLB, faults and
 * isolation between contexts, pages of system memory).  Kernels come
 * from the images in $SIMT_KERNEL_DIR; every expected value is computed
 * here, and everything runs on the virtual clock, stepped by the test.
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qemu/units.h"
#include "simt-qtest.h"

/* Guest RAM: rings and records (simt-qtest.h), then copy buffers. */
#define HOST_BUF            0x1000000
/* Guest RAM that translated contexts map with SIMT_PTE_SYS. */
#define SYS_BUF             0x6000000
/* A guest-physical page far beyond the test machine's RAM (15 GiB). */
#define SYS_BEYOND          0x3c0000000ull

/*
 * VRAM (physical): the kernel image at its link address, data of bare
 * contexts, page-table pages, then pages mapped by translated contexts.
 */
#define VRAM_PT_POOL        0x0800000
#define VRAM_PT_POOL_END    0x1000000
#define VRAM_PAGES          0x1000000

/* Virtual addresses the translated tests use. */
#define VA_DATA             0x40000000u
#define VA_OUT              0x40020000u

/*
 * The device works in slices of device cycles (docs/specs/simt.rst):
 * what a test measures by polling may be late by a slice or two.
 */
#define SLACK_CYCLES        4000

static uint32_t crd(Dev *d, unsigned ctx, unsigned reg)
{
    return rd(d, SIMT_CTX_REG(ctx, reg));
}

static void cwr(Dev *d, unsigned ctx, unsigned reg, uint32_t val)
{
    wr(d, SIMT_CTX_REG(ctx, reg), val);
}

static uint64_t cycle_now(Dev *d)
{
    uint32_t lo = rd(d, SIMT_REG_CYCLE_LO);

    return (uint64_t)rd(d, SIMT_REG_CYCLE_HI) << 32 | lo;
}

static uint64_t engine_bytes(Dev *d, unsigned e)
{
    uint32_t lo = rd(d, SIMT_COPY_REG(e, SIMT_EREG_BYTES_LO));

    return (uint64_t)rd(d, SIMT_COPY_REG(e, SIMT_EREG_BYTES_HI)) << 32 | lo;
}

/* Sums over every copy engine of the device. */
static uint64_t all_engine_bytes(Dev *d)
{
    uint64_t sum = 0;

    for (unsigned e = 0; e < rd(d, SIMT_REG_COPY_ENGINES); e++) {
        sum += engine_bytes(d, e);
    }
    return sum;
}

static void queue_setup_ctx(Dev *d, unsigned q, uint32_t prio, unsigned ctx)
{
    qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
    qwr(d, q, SIMT_QREG_BASE_LO, RING_ADDR(q));
    qwr(d, q, SIMT_QREG_BASE_HI, 0);
    qwr(d, q, SIMT_QREG_SIZE, RING_SIZE);
    qwr(d, q, SIMT_QREG_PRIORITY, prio);
    qwr(d, q, SIMT_QREG_CONTEXT, ctx);
    qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_CONTEXT), ==, ctx);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_STATUS), ==, SIMT_QSTATE_IDLE);
    d->tail[q] = 0;
}

/* The device of simt-qtest.c, queues reset, page-table and page pools. */
static Dev *mem_dev_start(const char *props)
{
    Dev *d = dev_start(props);

    d->pt_next = VRAM_PT_POOL;
    d->page_next = VRAM_PAGES;
    g_assert_true(rd(d, SIMT_REG_CAPS) & SIMT_CAP_MMU);
    g_assert_true(rd(d, SIMT_REG_CAPS) & SIMT_CAP_COPY);
    for (unsigned q = 0; q < d->nqueues; q++) {
        queue_setup_ctx(d, q, 0, 0);
    }
    return d;
}

/* Bulk access to VRAM (through BAR2) and to guest RAM. */
static void vram_write(Dev *d, uint64_t addr, const void *buf, size_t len)
{
    if (len) {
        qtest_bufwrite(d->qts, d->vram.addr + addr, buf, len);
    }
}

static void vram_get(Dev *d, uint64_t addr, void *buf, size_t len)
{
    if (len) {
        qtest_bufread(d->qts, d->vram.addr + addr, buf, len);
    }
}

static void vram_wr32(Dev *d, uint64_t addr, uint32_t val)
{
    qpci_io_writel(d->dev, d->vram, addr, val);
}

static uint32_t vram_rd32(Dev *d, uint64_t addr)
{
    return qpci_io_readl(d->dev, d->vram, addr);
}

static void mem_write(Dev *d, bool host, uint64_t addr, const void *buf,
                      size_t len)
{
    if (!host) {
        vram_write(d, addr, buf, len);
    } else if (len) {
        qtest_bufwrite(d->qts, addr, buf, len);
    }
}

static void mem_read(Dev *d, bool host, uint64_t addr, void *buf, size_t len)
{
    if (!host) {
        vram_get(d, addr, buf, len);
    } else if (len) {
        qtest_bufread(d->qts, addr, buf, len);
    }
}

/* A fresh, zeroed VRAM buffer for bare contexts. */
static uint32_t vram_zalloc(Dev *d, size_t len)
{
    uint32_t addr = d->vram_next;
    g_autofree uint8_t *zero = g_malloc0(len);

    d->vram_next = ROUND_UP(addr + len, 256);
    g_assert_cmpuint(d->vram_next, <=, VRAM_PT_POOL);
    vram_write(d, addr, zero, len);
    return addr;
}

/* Deterministic test bytes; different seeds give different bytes. */
static void fill(uint8_t *buf, size_t len, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 12345;

    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345;
        buf[i] = x >> 23;
    }
}

static bool queue_passed(Dev *d, unsigned q, uint32_t idx)
{
    uint32_t head = qrd(d, q, SIMT_QREG_HEAD);

    return (head - idx - 1) % RING_SIZE < RING_SIZE / 2;
}

static uint32_t queue_state(Dev *d, unsigned q)
{
    return SIMT_QSTATUS_STATE(qrd(d, q, SIMT_QREG_STATUS));
}

/*
 * Step the clock by @step_ns until queue @q has run command @idx or
 * stopped; its state.  *@cycle (if not NULL): the device cycle at which
 * that was first seen.
 */
static uint32_t wait_queue_step(Dev *d, unsigned q, uint32_t idx,
                                int64_t step_ns, uint64_t *cycle)
{
    for (int64_t t = 0; t < WAIT_LIMIT_NS; t += step_ns) {
        uint32_t st = queue_state(d, q);

        if (st == SIMT_QSTATE_ERROR || queue_passed(d, q, idx)) {
            if (cycle) {
                *cycle = cycle_now(d);
            }
            return st;
        }
        qtest_clock_step(d->qts, step_ns);
    }
    g_assert_not_reached();
}

static uint32_t copy_cmd(Dev *d, unsigned q, uint32_t flags, uint64_t src,
                         uint64_t dst, uint64_t size)
{
    struct simt_cmd_copy c = {
        .opcode = SIMT_CMD_COPY, .flags = flags,
        .src = src, .dst = dst, .size = size,
    };

    return submit(d, q, &c);
}

/* A copy that must complete. */
static void copy_ok(Dev *d, unsigned q, uint32_t flags, uint64_t src,
                    uint64_t dst, uint64_t size)
{
    uint32_t done = qrd(d, q, SIMT_QREG_COMPLETED);
    uint32_t idx = copy_cmd(d, q, flags, src, dst, size);

    g_assert_cmpuint(wait_queue(d, q, idx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_COMPLETED), ==, done + 1);
}

/* Queue @q stopped on command @idx with @error; reset it. */
static void expect_queue_error(Dev *d, unsigned q, uint32_t idx,
                               uint32_t error)
{
    uint32_t st = qrd(d, q, SIMT_QREG_STATUS);
    unsigned ctx = qrd(d, q, SIMT_QREG_CONTEXT);
    uint32_t prio = qrd(d, q, SIMT_QREG_PRIORITY);

    g_assert_cmpuint(SIMT_QSTATUS_STATE(st), ==, SIMT_QSTATE_ERROR);
    g_assert_cmpuint(SIMT_QSTATUS_ERROR(st), ==, error);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_ERROR_CMD), ==, idx);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_HEAD), ==, idx);
    g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_ERROR));
    queue_setup_ctx(d, q, prio, ctx);
}

/*
 * Kernel launches (the samples image: vecadd, calls, hold, load_from,
 * store_word, copy_words ...), code at the image's link address in the
 * queue's context.  Local memory: the block in SM s's slot k uses
 * local_base + (s * SM_BLOCKS + k) * threads * local bytes per thread.
 */
typedef struct MemLaunch {
    const char *kernel;
    uint32_t grid;
    uint32_t block;
    uint32_t args[SIMT_ARG_REGS];
    uint32_t local_base;        /* for kernels with local memory */
} MemLaunch;

static uint32_t mem_launch(Dev *d, unsigned q, const MemLaunch *l)
{
    const struct simt_kernel_info *k = simt_image_kernel(d->img, l->kernel);
    struct simt_cmd_launch c = {
        .opcode = SIMT_CMD_LAUNCH,
        .record = RECORD_ADDR(q, d->tail[q]),
        .code_addr = d->img->code_start,
        .code_size = d->img->code_end - d->img->code_start,
        .grid = { l->grid, 1, 1 },
        .block = { l->block, 1, 1 },
    };

    g_assert_nonnull(k);
    g_assert_cmpuint(k->m.shared_bytes, ==, 0);
    g_assert_true(!k->m.local_bytes || l->local_base);
    c.local_size = k->m.local_bytes;
    c.local_base = l->local_base;
    c.entry = k->m.entry;
    c.regs = ctpop32(k->m.int_regs_used) + ctpop32(k->m.fp_regs_used);
    memcpy(c.args, l->args, sizeof(c.args));
    qtest_memset(d->qts, c.record, 0xff, sizeof(struct simt_completion));
    return submit(d, q, &c);
}

static void mem_run_ok(Dev *d, unsigned q, const MemLaunch *l,
                   struct simt_completion *r)
{
    uint32_t idx = mem_launch(d, q, l);
    struct simt_completion rec;

    g_assert_cmpuint(wait_queue(d, q, idx), ==, SIMT_QSTATE_IDLE);
    read_record(d, q, idx, &rec);
    g_assert_cmpuint(rec.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(rec.blocks, ==, l->grid);
    if (r) {
        *r = rec;
    }
}

/*
 * Sv32 address spaces built by the test in VRAM.  Page-table pages come
 * from the page-table pool, mapped pages from the page pool.
 */
static uint32_t pt_page(Dev *d)
{
    uint32_t addr = d->pt_next;
    g_autofree uint8_t *zero = g_malloc0(SIMT_PAGE_SIZE);

    d->pt_next += SIMT_PAGE_SIZE;
    g_assert_cmpuint(d->pt_next, <=, VRAM_PT_POOL_END);
    vram_write(d, addr, zero, SIMT_PAGE_SIZE);
    return addr;
}

/* @n fresh physical pages, filled with bytes of @seed. */
static uint32_t data_pages(Dev *d, unsigned n, uint32_t seed)
{
    uint32_t addr = d->page_next;
    g_autofree uint8_t *buf = g_malloc(n * SIMT_PAGE_SIZE);

    d->page_next += n * SIMT_PAGE_SIZE;
    g_assert_cmpuint(d->page_next, <=, d->vram_size);
    fill(buf, n * SIMT_PAGE_SIZE, seed);
    vram_write(d, addr, buf, n * SIMT_PAGE_SIZE);
    return addr;
}

static uint32_t pte_leaf(uint64_t pa, uint32_t perm)
{
    return (uint32_t)(pa >> SIMT_PAGE_SHIFT) << SIMT_PTE_PPN_SHIFT |
           perm | SIMT_PTE_V;
}

/* Context @ctx's root table (from its PT register). */
static uint32_t ctx_root(Dev *d, unsigned ctx)
{
    uint32_t pt = crd(d, ctx, SIMT_CREG_PT);

    g_assert_true(pt & SIMT_PT_SV32);
    return (pt & SIMT_PT_PPN_MASK) << SIMT_PAGE_SHIFT;
}

/* Where the level-0 PTE of @va lives, making its table if needed. */
static uint32_t pte_addr(Dev *d, unsigned ctx, uint32_t va)
{
    uint32_t l1 = ctx_root(d, ctx) + (va >> 22) * 4;
    uint32_t pte = vram_rd32(d, l1);

    if (!(pte & SIMT_PTE_V)) {
        pte = pte_leaf(pt_page(d), 0);
        vram_wr32(d, l1, pte);
    }
    g_assert_cmphex(pte & (SIMT_PTE_R | SIMT_PTE_W | SIMT_PTE_X), ==, 0);
    return (pte >> SIMT_PTE_PPN_SHIFT << SIMT_PAGE_SHIFT) +
           ((va >> 12) & 0x3ff) * 4;
}

static void map_page(Dev *d, unsigned ctx, uint32_t va, uint64_t pa,
                     uint32_t perm)
{
    vram_wr32(d, pte_addr(d, ctx, va), pte_leaf(pa, perm));
}

/* A raw level-0 PTE, for malformed entries. */
static void set_pte(Dev *d, unsigned ctx, uint32_t va, uint32_t pte)
{
    vram_wr32(d, pte_addr(d, ctx, va), pte);
}

/* A 4 MiB superpage: a leaf in the root table. */
static void map_super(Dev *d, unsigned ctx, uint32_t va, uint64_t pa,
                      uint32_t perm)
{
    vram_wr32(d, ctx_root(d, ctx) + (va >> 22) * 4, pte_leaf(pa, perm));
}

/*
 * Make context @ctx an Sv32 address space with the kernel image's pages
 * mapped at their link addresses (read and execute).
 */
static void space_init(Dev *d, unsigned ctx)
{
    uint32_t root = pt_page(d);
    uint32_t start = d->img->base & ~(SIMT_PAGE_SIZE - 1);

    cwr(d, ctx, SIMT_CREG_PT, SIMT_PT_SV32 | root >> SIMT_PAGE_SHIFT);
    g_assert_cmphex(crd(d, ctx, SIMT_CREG_PT), ==,
                    SIMT_PT_SV32 | root >> SIMT_PAGE_SHIFT);
    for (uint32_t a = start; a < d->img->base + d->img->size;
         a += SIMT_PAGE_SIZE) {
        map_page(d, ctx, a, a, SIMT_PTE_R | SIMT_PTE_X);
    }
    wr(d, SIMT_REG_TLB_INV_CTX, ctx);
    wr(d, SIMT_REG_TLB_INV, SIMT_TLB_INV_CTX);
}

/* Bind queue @q to context @ctx: only while the queue is disabled. */
static void queue_bind(Dev *d, unsigned q, unsigned ctx)
{
    qwr(d, q, SIMT_QREG_CONTROL, 0);
    qwr(d, q, SIMT_QREG_CONTEXT, ctx);
    qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_CONTEXT), ==, ctx);
}

/*
 * Copies: each direction (guest memory to guest memory too), sizes and
 * alignments, data and guard bytes.
 */
enum { H2D, D2H, D2D, H2H };

static const uint32_t dir_flags[] = {
    [H2D] = SIMT_CMDF_SRC_HOST,
    [D2H] = SIMT_CMDF_DST_HOST,
    [D2D] = 0,
    [H2H] = SIMT_CMDF_SRC_HOST | SIMT_CMDF_DST_HOST,
};

#define GUARD               64
#define HOST_SRC            HOST_BUF
#define HOST_DST            (HOST_BUF + 16 * MiB)
#define VRAM_SRC            0x2000000
#define VRAM_DST            0x3000000

/*
 * Copy @size bytes in direction @dir from offset @soff of a source area
 * to offset @doff of a destination area, and check the destination and
 * the @GUARD bytes on either side of it.
 */
static void check_copy(Dev *d, int dir, uint64_t size, uint32_t soff,
                       uint32_t doff, uint32_t seed)
{
    bool shost = dir == H2D || dir == H2H;
    bool dhost = dir == D2H || dir == H2H;
    uint64_t src = (shost ? HOST_SRC : VRAM_SRC) + soff;
    uint64_t dst = (dhost ? HOST_DST : VRAM_DST) + doff;
    g_autofree uint8_t *data = g_malloc(size + 1);
    g_autofree uint8_t *before = g_malloc(size + 2 * GUARD);
    g_autofree uint8_t *after = g_malloc(size + 2 * GUARD);
    uint64_t bytes = all_engine_bytes(d);

    fill(data, size, seed);
    fill(before, size + 2 * GUARD, seed + 1);
    mem_write(d, shost, src, data, size);
    mem_write(d, dhost, dst - GUARD, before, size + 2 * GUARD);

    copy_ok(d, 0, dir_flags[dir] | SIMT_CMDF_IRQ, src, dst, size);
    g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_QUEUE));
    wr(d, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);

    mem_read(d, dhost, dst - GUARD, after, size + 2 * GUARD);
    g_assert_cmpmem(after, GUARD, before, GUARD);
    g_assert_cmpmem(after + GUARD, size, data, size);
    g_assert_cmpmem(after + GUARD + size, GUARD, before + GUARD + size,
                    GUARD);
    g_assert_cmpuint(all_engine_bytes(d), ==, bytes + size);
}

static const struct {
    uint64_t size;
    uint32_t soff, doff;
} copy_cases[] = {
    { 0, 0, 0 },
    { 0, 3, 5 },
    { 1, 0, 0 },
    { 1, 4095, 1 },
    { 3, 1, 2 },
    { 7, 4093, 4095 },          /* both sides cross a page */
    { 8, 0, 4 },
    { 255, 0, 1 },
    { 4095, 1, 0 },
    { 4096, 0, 0 },
    { 4097, 4095, 4094 },
    { 12345, 7, 13 },
    { 65537, 3, 4090 },
    { 3 * MiB + 777, 4093, 5 }, /* more than one default chunk */
};

static void test_copy_sizes(void)
{
    Dev *d = mem_dev_start(NULL);

    g_assert_cmpuint(rd(d, SIMT_REG_DMA_CHUNK), ==, SIMT_DEFAULT_DMA_CHUNK);
    g_assert_cmpuint(rd(d, SIMT_REG_COPY_ENGINES), >=, 1);
    g_assert_cmpuint(rd(d, SIMT_REG_COPY_BW), >=, 1);
    for (int dir = H2D; dir <= H2H; dir++) {
        for (size_t i = 0; i < ARRAY_SIZE(copy_cases); i++) {
            check_copy(d, dir, copy_cases[i].size, copy_cases[i].soff,
                       copy_cases[i].doff, dir * 100 + i);
        }
    }
    dev_stop(d);
}

/*
 * The identification registers are read-only: a write, even of a value
 * DMA_CHUNK would take, changes neither them nor the chunk size.
 */
static void test_ident_writes_ignored(void)
{
    static const uint32_t regs[] = {
        SIMT_REG_ID, SIMT_REG_VERSION, SIMT_REG_CAPS, SIMT_REG_SM_COUNT,
        SIMT_REG_VRAM_SIZE_LO, SIMT_REG_VRAM_SIZE_HI,
    };
    Dev *d = mem_dev_start(NULL);

    for (size_t i = 0; i < ARRAY_SIZE(regs); i++) {
        uint32_t before = rd(d, regs[i]);

        wr(d, regs[i], SIMT_MIN_DMA_CHUNK);
        g_assert_cmphex(rd(d, regs[i]), ==, before);
        g_assert_cmpuint(rd(d, SIMT_REG_DMA_CHUNK), ==,
                         SIMT_DEFAULT_DMA_CHUNK);
    }
    dev_stop(d);
}

/* Small chunks: a copy of many chunks, and the chunk counter. */
static void test_copy_chunks(void)
{
    Dev *d = mem_dev_start("copy-engines=1");
    uint64_t size = 5 * SIMT_MIN_DMA_CHUNK + 123;
    uint32_t chunks;

    wr(d, SIMT_REG_DMA_CHUNK, SIMT_MIN_DMA_CHUNK);
    g_assert_cmpuint(rd(d, SIMT_REG_DMA_CHUNK), ==, SIMT_MIN_DMA_CHUNK);
    for (int dir = H2D; dir <= D2D; dir++) {
        chunks = rd(d, SIMT_COPY_REG(0, SIMT_EREG_CHUNKS));
        check_copy(d, dir, size, 1, 4095, 7 + dir);
        g_assert_cmpuint(rd(d, SIMT_COPY_REG(0, SIMT_EREG_CHUNKS)) - chunks,
                         ==, DIV_ROUND_UP(size, SIMT_MIN_DMA_CHUNK));
    }
    g_assert_cmpuint(engine_bytes(d, 0), ==, 3 * size);
    g_assert_cmphex(rd(d, SIMT_COPY_REG(0, SIMT_EREG_QUEUE)), ==, ~0u);
    dev_stop(d);
}

/* Copies that reach the first and the last byte of VRAM. */
static void test_copy_vram_edges(void)
{
    Dev *d = mem_dev_start("vram-size=64M");
    uint64_t v = d->vram_size;
    const uint64_t n = 4097;
    g_autofree uint8_t *data = g_malloc(n);
    g_autofree uint8_t *got = g_malloc(n);

    g_assert_cmpuint(v, ==, 64 * MiB);

    /* Guest memory to the top n bytes of VRAM, and back. */
    fill(data, n, 1);
    qtest_bufwrite(d->qts, HOST_SRC, data, n);
    copy_ok(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, v - n, n);
    vram_get(d, v - n, got, n);
    g_assert_cmpmem(got, n, data, n);
    qtest_memset(d->qts, HOST_DST, 0, n);
    copy_ok(d, 0, SIMT_CMDF_DST_HOST, v - n, HOST_DST, n);
    qtest_bufread(d->qts, HOST_DST, got, n);
    g_assert_cmpmem(got, n, data, n);

    /* The top of VRAM to its bottom and back, unaligned lengths. */
    copy_ok(d, 0, 0, v - n, 0, n);
    vram_get(d, 0, got, n);
    g_assert_cmpmem(got, n, data, n);
    fill(data, n, 2);
    vram_write(d, 0, data, n - 2);
    copy_ok(d, 0, 0, 0, v - (n - 2), n - 2);
    vram_get(d, v - (n - 2), got, n - 2);
    g_assert_cmpmem(got, n - 2, data, n - 2);

    /* The last single byte. */
    vram_wr32(d, v - 4, 0x11223344);
    qtest_writeb(d->qts, HOST_SRC, 0xab);
    copy_ok(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, v - 1, 1);
    g_assert_cmphex(vram_rd32(d, v - 4), ==, 0xab223344);
    dev_stop(d);
}

/*
 * Queue 0 (context 0, bare) runs a copy that must fail before moving
 * anything with @error (a DMA error, or a bad command for device
 * addresses beyond 32 bits), which is not a translation fault.
 */
static void expect_copy_error(Dev *d, uint32_t flags, uint64_t src,
                              uint64_t dst, uint64_t size, uint32_t error)
{
    uint32_t faults = rd(d, SIMT_REG_MMU_FAULTS);
    uint32_t idx;

    wr(d, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);
    idx = copy_cmd(d, 0, flags, src, dst, size);
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_ERROR);
    expect_queue_error(d, 0, idx, error);
    g_assert_cmpuint(crd(d, 0, SIMT_CREG_FAULT), ==, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_MMU_FAULTS), ==, faults);
    g_assert_false(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_MMU));
}

/* One byte past the end of VRAM: an error, and nothing written anywhere. */
static void test_copy_past_edge(void)
{
    Dev *d = mem_dev_start("vram-size=64M");
    uint64_t v = d->vram_size;
    const uint64_t n = 4097;
    g_autofree uint8_t *data = g_malloc(n);
    g_autofree uint8_t *vtop = g_malloc(2 * n);
    g_autofree uint8_t *vlow = g_malloc(2 * n);
    g_autofree uint8_t *host = g_malloc(n + 2 * GUARD);
    g_autofree uint8_t *got = g_malloc(2 * n + 2 * GUARD);
    uint64_t bytes = all_engine_bytes(d);

    fill(data, n, 3);
    fill(vtop, 2 * n, 4);
    fill(vlow, 2 * n, 5);
    fill(host, n + 2 * GUARD, 6);
    qtest_bufwrite(d->qts, HOST_SRC, data, n);
    vram_write(d, v - 2 * n, vtop, 2 * n);
    vram_write(d, 0x110000, vlow, 2 * n);
    vram_write(d, 0x200000, vlow, 16);
    qtest_bufwrite(d->qts, HOST_DST - GUARD, host, n + 2 * GUARD);

    /* Into VRAM, the last byte one past the end. */
    expect_copy_error(d, SIMT_CMDF_SRC_HOST, HOST_SRC, v - n + 1, n,
                      SIMT_QERR_DMA);
    /* Out of VRAM, to guest memory and within VRAM. */
    expect_copy_error(d, SIMT_CMDF_DST_HOST, v - n + 1, HOST_DST, n,
                      SIMT_QERR_DMA);
    expect_copy_error(d, 0, v - n + 1, 0x110000, n, SIMT_QERR_DMA);
    expect_copy_error(d, 0, 0x110000, v - n + 1, n, SIMT_QERR_DMA);
    /* Starting past the end, and a size beyond VRAM. */
    expect_copy_error(d, SIMT_CMDF_SRC_HOST, HOST_SRC, v, 1, SIMT_QERR_DMA);
    expect_copy_error(d, 0, 0x110000, 0x1000, v, SIMT_QERR_DMA);
    /* Device addresses beyond 32 bits are not truncated: bad commands. */
    expect_copy_error(d, SIMT_CMDF_SRC_HOST, HOST_SRC,
                      0x100000000ull + 0x110000, 16, SIMT_QERR_BAD_COMMAND);
    expect_copy_error(d, SIMT_CMDF_SRC_HOST, HOST_SRC, 0x110000, UINT64_MAX,
                      SIMT_QERR_BAD_COMMAND);

    vram_get(d, v - 2 * n, got, 2 * n);
    g_assert_cmpmem(got, 2 * n, vtop, 2 * n);
    vram_get(d, 0x110000, got, 2 * n);
    g_assert_cmpmem(got, 2 * n, vlow, 2 * n);
    qtest_bufread(d->qts, HOST_DST - GUARD, got, n + 2 * GUARD);
    g_assert_cmpmem(got, n + 2 * GUARD, host, n + 2 * GUARD);
    g_assert_cmpuint(all_engine_bytes(d), ==, bytes);

    /* Guest memory that is not there. */
    expect_copy_error(d, SIMT_CMDF_DST_HOST, 0x110000, 1ull << 40, 16,
                      SIMT_QERR_DMA);
    expect_copy_error(d, SIMT_CMDF_SRC_HOST, 1ull << 40, 0x200000, 16,
                      SIMT_QERR_DMA);
    /* Failed guest accesses move and count nothing. */
    g_assert_cmpuint(all_engine_bytes(d), ==, bytes);
    vram_get(d, 0x110000, got, 2 * n);
    g_assert_cmpmem(got, 2 * n, vlow, 2 * n);
    vram_get(d, 0x200000, got, 16);
    g_assert_cmpmem(got, 16, vlow, 16);

    /* The queue works again after its reset. */
    copy_ok(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, v - n, n);
    vram_get(d, v - n, got, n);
    g_assert_cmpmem(got, n, data, n);
    dev_stop(d);
}

/* Virtual nanoseconds of @cycles device cycles (rounded up). */
static int64_t cycles_ns(Dev *d, uint64_t cycles)
{
    return DIV_ROUND_UP(cycles * 1000, rd(d, SIMT_REG_CLOCK_MHZ));
}

/* Device cycles from the doorbell of a copy on @q to its completion. */
static uint64_t timed_copy(Dev *d, unsigned q, uint32_t flags, uint64_t src,
                           uint64_t dst, uint64_t size)
{
    uint64_t t0 = cycle_now(d), t1;
    uint32_t idx = copy_cmd(d, q, flags, src, dst, size);

    g_assert_cmpuint(wait_queue_step(d, q, idx, cycles_ns(d, 1000), &t1),
                     ==, SIMT_QSTATE_IDLE);
    return t1 - t0;
}

/* A copy takes its bytes / COPY_BW device cycles, whatever the chunk. */
static void test_copy_time_model(void)
{
    static const char *const props[] = { NULL, "copy-bandwidth=32" };
    static const uint64_t sizes[] = { 64 * KiB, MiB + 1, 3 * MiB };

    for (size_t p = 0; p < ARRAY_SIZE(props); p++) {
        Dev *d = mem_dev_start(props[p]);
        uint32_t bw = rd(d, SIMT_REG_COPY_BW);

        if (p == 1) {
            g_assert_cmpuint(bw, ==, 32);
        }
        for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
            uint64_t model = DIV_ROUND_UP(sizes[i], bw);
            uint64_t t;

            wr(d, SIMT_REG_DMA_CHUNK, i == 2 ? 64 * KiB : MiB);
            t = timed_copy(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, VRAM_DST,
                           sizes[i]);
            g_assert_cmpuint(t, >=, model);
            g_assert_cmpuint(t, <=, model + SLACK_CYCLES);
            t = timed_copy(d, 1, 0, VRAM_SRC, VRAM_DST, sizes[i]);
            g_assert_cmpuint(t, >=, model);
            g_assert_cmpuint(t, <=, model + SLACK_CYCLES);
        }
        dev_stop(d);
    }
}

/*
 * One copy engine runs a 64 MiB device-to-device copy for queue 0 at
 * priority 0.  Just after its third chunk began, queue 1 at the highest
 * priority asks for a 4 KiB copy from guest memory: that copy waits for
 * the chunk in flight at most, then runs at once.  Returns its latency in
 * device cycles, doorbell to completion; with @check, the bound, the
 * switch counter and both copies' data are checked.
 */
static uint64_t hp_copy_latency(uint32_t chunk, bool check)
{
    Dev *d = mem_dev_start("copy-engines=1");
    const uint64_t big = 64 * MiB, small = 4 * KiB;
    const uint64_t bsrc = 0x2000000, bdst = 0x8000000, sdst = 0x6000000;
    uint32_t bw = rd(d, SIMT_REG_COPY_BW);
    uint64_t chunk_cycles = DIV_ROUND_UP(chunk, bw);
    uint64_t small_cycles = DIV_ROUND_UP(small, bw);
    uint8_t mark[16], got[16];
    g_autofree uint8_t *data = g_malloc(small);
    g_autofree uint8_t *sgot = g_malloc(small);
    uint32_t bidx, sidx;
    uint64_t latency;

    g_assert_cmpuint(rd(d, SIMT_REG_COPY_ENGINES), ==, 1);
    wr(d, SIMT_REG_DMA_CHUNK, chunk);
    g_assert_cmpuint(rd(d, SIMT_REG_DMA_CHUNK), ==, chunk);
    qwr(d, 1, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    /* Marks at both ends and at every MiB of the source. */
    for (uint64_t off = 0; off <= big; off += MiB) {
        uint64_t at = MIN(off, big - sizeof(mark));

        fill(mark, sizeof(mark), off / MiB);
        vram_write(d, bsrc + at, mark, sizeof(mark));
    }
    fill(data, small, 99);
    qtest_bufwrite(d->qts, HOST_SRC, data, small);

    bidx = copy_cmd(d, 0, 0, bsrc, bdst, big);
    qtest_clock_step(d->qts, cycles_ns(d, 2 * chunk_cycles + 1000));
    g_assert_cmpuint(queue_state(d, 0), ==, SIMT_QSTATE_BUSY);
    g_assert_cmpuint(rd(d, SIMT_COPY_REG(0, SIMT_EREG_QUEUE)), ==, 0);

    latency = timed_copy(d, 1, SIMT_CMDF_SRC_HOST, HOST_SRC, sdst, small);
    sidx = d->tail[1] - 1;
    if (check) {
        g_assert_cmpuint(latency, >=, small_cycles);
        g_assert_cmpuint(latency, <=,
                         chunk_cycles + small_cycles + SLACK_CYCLES);
        /* The big copy was interrupted, not finished. */
        g_assert_cmpuint(queue_state(d, 0), ==, SIMT_QSTATE_BUSY);
        g_assert_cmpuint(qrd(d, 0, SIMT_QREG_HEAD), ==, bidx);
        g_assert_cmpuint(qrd(d, 1, SIMT_QREG_HEAD), ==, sidx + 1);
        g_assert_cmpuint(rd(d, SIMT_COPY_REG(0, SIMT_EREG_SWITCHES)), ==, 1);
        vram_get(d, sdst, sgot, small);
        g_assert_cmpmem(sgot, small, data, small);
    }
    g_assert_cmpuint(wait_queue(d, 0, bidx), ==, SIMT_QSTATE_IDLE);
    if (check) {
        for (uint64_t off = 0; off <= big; off += MiB) {
            uint64_t at = MIN(off, big - sizeof(mark));

            fill(mark, sizeof(mark), off / MiB);
            vram_get(d, bdst + at, got, sizeof(got));
            g_assert_cmpmem(got, sizeof(got), mark, sizeof(mark));
        }
        g_assert_cmpuint(engine_bytes(d, 0), ==, big + small);
        g_assert_cmpuint(rd(d, SIMT_COPY_REG(0, SIMT_EREG_CHUNKS)), ==,
                         big / chunk + 1);
    }
    dev_stop(d);
    return latency;
}

static void test_copy_priority(void)
{
    hp_copy_latency(SIMT_DEFAULT_DMA_CHUNK, true);
}

static void test_copy_priority_small_chunks(void)
{
    hp_copy_latency(64 * KiB, true);
}

/*
 * A kernel on queue 0 and a copy on queue 1 run at the same time: half
 * way through, both are under way; the kernel takes the time it takes
 * alone, and both are done in about the time of the longer one.
 */
static void test_copy_kernel_overlap(void)
{
    Dev *d = mem_dev_start(NULL);
    const uint64_t size = 4 * MiB;
    uint64_t copy_cycles = DIV_ROUND_UP(size, rd(d, SIMT_REG_COPY_BW));
    uint32_t hold = copy_cycles;
    uint32_t out = vram_zalloc(d, 4), kstart = vram_zalloc(d, 4);
    uint32_t kend = vram_zalloc(d, 4);
    g_autofree uint8_t *data = g_malloc(size);
    g_autofree uint8_t *got = g_malloc(size);
    struct simt_completion r;
    uint64_t t0, mid, bytes, copy_done = 0, kernel_done = 0;
    uint32_t kidx, cidx;

    fill(data, size, 42);
    vram_write(d, VRAM_SRC, data, size);
    bytes = all_engine_bytes(d);
    t0 = cycle_now(d);
    kidx = mem_launch(d, 0, &(MemLaunch) {
        .kernel = "hold", .grid = 1, .block = 32,
        .args = { out, hold, kstart, kend },
    });
    cidx = copy_cmd(d, 1, 0, VRAM_SRC, VRAM_DST, size);

    qtest_clock_step(d->qts, cycles_ns(d, copy_cycles / 2));
    mid = cycle_now(d) - t0;
    g_assert_cmpuint(queue_state(d, 0), ==, SIMT_QSTATE_BUSY);
    g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_RESIDENT), ==, 1);
    g_assert_cmpuint(queue_state(d, 1), ==, SIMT_QSTATE_BUSY);
    bytes = all_engine_bytes(d) - bytes;
    g_assert_cmpuint(bytes + SIMT_DEFAULT_DMA_CHUNK, >=,
                     mid * rd(d, SIMT_REG_COPY_BW));
    g_assert_cmpuint(bytes, <=,
                     mid * rd(d, SIMT_REG_COPY_BW) + SIMT_DEFAULT_DMA_CHUNK);

    while (!copy_done || !kernel_done) {
        g_assert_cmpuint(cycle_now(d) - t0, <, 4 * copy_cycles);
        qtest_clock_step(d->qts, cycles_ns(d, 1000));
        if (!copy_done && queue_passed(d, 1, cidx)) {
            copy_done = cycle_now(d);
        }
        if (!kernel_done && queue_passed(d, 0, kidx)) {
            kernel_done = cycle_now(d);
        }
    }
    g_assert_cmpuint(queue_state(d, 0), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(queue_state(d, 1), ==, SIMT_QSTATE_IDLE);
    read_record(d, 0, kidx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    vram_get(d, VRAM_DST, got, size);
    g_assert_cmpmem(got, size, data, size);

    /* The kernel ran from the start, as long as it does alone ... */
    g_assert_cmpuint(r.start_cycle, <, t0 + SLACK_CYCLES);
    g_assert_cmpuint(r.end_cycle - r.start_cycle, >=, hold);
    g_assert_cmpuint(r.end_cycle - r.start_cycle, <=, hold + SLACK_CYCLES);
    /* ... and both together took no longer than the longer one. */
    g_assert_cmpuint(MAX(kernel_done, copy_done) - t0, <=,
                     MAX(hold, copy_cycles) + SLACK_CYCLES);
    dev_stop(d);
}

/*
 * Translation through 4 KiB pages: a kernel in context 1 copies words
 * from four virtually contiguous pages, scattered in VRAM, to two output
 * pages; copy engines read and write the same virtual range.
 */
static void test_translate_pages(void)
{
    Dev *d = mem_dev_start(NULL);
    static const unsigned order[4] = { 2, 0, 3, 1 };
    const uint32_t words = (4 * SIMT_PAGE_SIZE - 16) / 4;
    uint32_t phys = data_pages(d, 4, 10), outp = data_pages(d, 4, 11);
    g_autofree uint8_t *src = g_malloc(4 * SIMT_PAGE_SIZE);
    g_autofree uint8_t *dst = g_malloc(4 * SIMT_PAGE_SIZE);
    g_autofree uint8_t *got = g_malloc(4 * SIMT_PAGE_SIZE);
    uint32_t hits, misses;

    space_init(d, 1);
    for (unsigned i = 0; i < 4; i++) {
        map_page(d, 1, VA_DATA + i * SIMT_PAGE_SIZE,
                 phys + order[i] * SIMT_PAGE_SIZE, SIMT_PTE_R | SIMT_PTE_W);
        map_page(d, 1, VA_OUT + i * SIMT_PAGE_SIZE,
                 outp + (3 - i) * SIMT_PAGE_SIZE, SIMT_PTE_R | SIMT_PTE_W);
    }
    queue_bind(d, 1, 1);

    /* What the virtual ranges hold, assembled from the physical pages. */
    for (unsigned i = 0; i < 4; i++) {
        vram_get(d, phys + order[i] * SIMT_PAGE_SIZE,
                  src + i * SIMT_PAGE_SIZE, SIMT_PAGE_SIZE);
        vram_get(d, outp + (3 - i) * SIMT_PAGE_SIZE,
                  dst + i * SIMT_PAGE_SIZE, SIMT_PAGE_SIZE);
    }
    memcpy(dst + 4, src + 8, words * 4);

    hits = rd(d, SIMT_REG_TLB_HITS);
    misses = rd(d, SIMT_REG_TLB_MISSES);
    mem_run_ok(d, 1, &(MemLaunch) {
        .kernel = "copy_words", .grid = 4, .block = 128,
        .args = { VA_DATA + 8, VA_OUT + 4, words },
    }, NULL);
    /* Every page was walked once at least; most accesses hit. */
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_MISSES) - misses, >=, 8);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_HITS) - hits, >,
                     rd(d, SIMT_REG_TLB_MISSES) - misses);
    for (unsigned i = 0; i < 4; i++) {
        vram_get(d, outp + (3 - i) * SIMT_PAGE_SIZE,
                  got + i * SIMT_PAGE_SIZE, SIMT_PAGE_SIZE);
    }
    g_assert_cmpmem(got, 4 * SIMT_PAGE_SIZE, dst, 4 * SIMT_PAGE_SIZE);

    /* The copy engines translate device addresses in the same context. */
    fill(src, 3 * SIMT_PAGE_SIZE, 12);
    qtest_bufwrite(d->qts, HOST_SRC, src, 3 * SIMT_PAGE_SIZE);
    copy_ok(d, 1, SIMT_CMDF_SRC_HOST, HOST_SRC, VA_DATA + 100,
            3 * SIMT_PAGE_SIZE);
    vram_get(d, phys + order[0] * SIMT_PAGE_SIZE + 100, got,
              SIMT_PAGE_SIZE - 100);
    g_assert_cmpmem(got, SIMT_PAGE_SIZE - 100, src, SIMT_PAGE_SIZE - 100);
    for (unsigned i = 1; i < 3; i++) {
        vram_get(d, phys + order[i] * SIMT_PAGE_SIZE, got, SIMT_PAGE_SIZE);
        g_assert_cmpmem(got, SIMT_PAGE_SIZE,
                        src + i * SIMT_PAGE_SIZE - 100, SIMT_PAGE_SIZE);
    }
    vram_get(d, phys + order[3] * SIMT_PAGE_SIZE, got, 100);
    g_assert_cmpmem(got, 100, src + 3 * SIMT_PAGE_SIZE - 100, 100);

    copy_ok(d, 1, 0, VA_DATA + 100, VA_OUT + 4095, 3 * SIMT_PAGE_SIZE);
    copy_ok(d, 1, SIMT_CMDF_DST_HOST, VA_OUT + 4095, HOST_DST,
            3 * SIMT_PAGE_SIZE);
    qtest_bufread(d->qts, HOST_DST, got, 3 * SIMT_PAGE_SIZE);
    g_assert_cmpmem(got, 3 * SIMT_PAGE_SIZE, src, 3 * SIMT_PAGE_SIZE);
    vram_get(d, outp + 3 * SIMT_PAGE_SIZE + 4095, got, 1);
    g_assert_cmpuint(got[0], ==, src[0]);
    dev_stop(d);
}

/* Translation through 4 MiB superpages, and across two of them. */
static void test_translate_superpages(void)
{
    Dev *d = mem_dev_start(NULL);
    const uint32_t va = 0x80000000u;
    const uint64_t pa0 = 0x4000000, pa1 = 0x9000000;
    const uint32_t n = 64;
    uint32_t outp = data_pages(d, 1, 20);
    uint32_t src[64], got[64];

    space_init(d, 2);
    map_super(d, 2, va, pa0, SIMT_PTE_R | SIMT_PTE_W);
    map_super(d, 2, va + SIMT_SUPERPAGE_SIZE, pa1, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 2, VA_OUT, outp, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 2);

    /* 32 words at the end of one superpage, 32 at the start of the next */
    fill((uint8_t *)src, sizeof(src), 21);
    vram_write(d, pa0 + SIMT_SUPERPAGE_SIZE - 128, src, 128);
    vram_write(d, pa1, src + 32, 128);
    mem_run_ok(d, 0, &(MemLaunch) {
        .kernel = "copy_words", .grid = 1, .block = 64,
        .args = { va + SIMT_SUPERPAGE_SIZE - 128, VA_OUT, n },
    }, NULL);
    vram_get(d, outp, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), src, sizeof(src));

    /* A store in the middle of a superpage lands at its offset. */
    mem_run_ok(d, 0, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { va + 0x123458, 0xfeedf00d },
    }, NULL);
    g_assert_cmphex(vram_rd32(d, pa0 + 0x123458), ==, 0xfeedf00d);

    /* A copy engine across the two superpages. */
    fill((uint8_t *)src, sizeof(src), 22);
    qtest_bufwrite(d->qts, HOST_SRC, src, sizeof(src));
    copy_ok(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC,
            va + SIMT_SUPERPAGE_SIZE - 100, sizeof(src));
    vram_get(d, pa0 + SIMT_SUPERPAGE_SIZE - 100, got, 100);
    g_assert_cmpmem(got, 100, src, 100);
    vram_get(d, pa1, got, sizeof(src) - 100);
    g_assert_cmpmem(got, sizeof(src) - 100, (uint8_t *)src + 100,
                    sizeof(src) - 100);
    dev_stop(d);
}

/*
 * load_from on queue @q: the word at @va, stored at VA_OUT, which the
 * queue's context maps to VRAM page @out.
 */
static uint32_t load_word(Dev *d, unsigned q, uint32_t va, uint32_t out)
{
    vram_wr32(d, out, 0xdeadbeef);
    mem_run_ok(d, q, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, va },
    }, NULL);
    return vram_rd32(d, out);
}

static void tlb_inv(Dev *d, uint32_t cmd, unsigned ctx, uint32_t addr)
{
    wr(d, SIMT_REG_TLB_INV_CTX, ctx);
    wr(d, SIMT_REG_TLB_INV_ADDR, addr);
    wr(d, SIMT_REG_TLB_INV, cmd);
}

/*
 * A changed PTE is not seen until the TLB entry is invalidated: by page
 * (only that page of that context), by context, or all.
 */
static void test_tlb_invalidate(void)
{
    Dev *d = mem_dev_start(NULL);
    uint32_t p1 = data_pages(d, 1, 30), p2 = data_pages(d, 1, 31);
    uint32_t other = data_pages(d, 1, 32), out = data_pages(d, 1, 33);
    uint32_t pte, hits, misses;
    uint32_t x1, x2;

    x1 = vram_rd32(d, p1 + 0x40);
    x2 = vram_rd32(d, p2 + 0x40);
    g_assert_cmphex(x1, !=, x2);
    space_init(d, 1);
    space_init(d, 2);
    map_page(d, 1, VA_DATA, p1, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 1, VA_DATA + SIMT_PAGE_SIZE, other, SIMT_PTE_R);
    map_page(d, 2, VA_DATA, p1, SIMT_PTE_R);
    map_page(d, 1, VA_OUT, out, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 2, VA_OUT, out, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 1, 1);
    queue_bind(d, 2, 2);
    pte = pte_addr(d, 1, VA_DATA);

    misses = rd(d, SIMT_REG_TLB_MISSES);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x1);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_MISSES), >, misses);
    /* Now cached: the same kernel again only hits. */
    misses = rd(d, SIMT_REG_TLB_MISSES);
    hits = rd(d, SIMT_REG_TLB_HITS);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x1);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_MISSES), ==, misses);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_HITS), >, hits);

    /* Remapped to p2: stale until this page of context 1 is dropped. */
    vram_wr32(d, pte, pte_leaf(p2, SIMT_PTE_R | SIMT_PTE_W));
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x1);
    tlb_inv(d, SIMT_TLB_INV_PAGE, 2, VA_DATA);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x1);
    tlb_inv(d, SIMT_TLB_INV_PAGE, 1, VA_DATA + SIMT_PAGE_SIZE);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x1);
    misses = rd(d, SIMT_REG_TLB_MISSES);
    tlb_inv(d, SIMT_TLB_INV_PAGE, 1, VA_DATA + 0x123);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x2);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_MISSES), >, misses);
    /* Context 2's own mapping of the same address never changed. */
    g_assert_cmphex(load_word(d, 2, VA_DATA + 0x40, out), ==, x1);

    /* Back to p1: stale until context 1 is dropped. */
    vram_wr32(d, pte, pte_leaf(p1, SIMT_PTE_R | SIMT_PTE_W));
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x2);
    tlb_inv(d, SIMT_TLB_INV_CTX, 2, 0);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x2);
    tlb_inv(d, SIMT_TLB_INV_CTX, 1, 0);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x1);

    /* To p2 again: stale until everything is dropped. */
    vram_wr32(d, pte, pte_leaf(p2, SIMT_PTE_R | SIMT_PTE_W));
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x1);
    misses = rd(d, SIMT_REG_TLB_MISSES);
    tlb_inv(d, SIMT_TLB_INV_ALL, 0, 0);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 0x40, out), ==, x2);
    /* Every page the kernel touches is walked again: code, data, out. */
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_MISSES) - misses, >=, 3);
    dev_stop(d);
}

/*
 * Launch @l on queue @q: it must stop on a page fault in [@lo, @hi)
 * (@access, @reason; @lo = @l's local_base: in its local memory),
 * recorded in the completion record and in the queue's context, with the
 * MMU and error interrupts; the queue is reset and the fault cleared
 * afterwards.
 */
static void expect_kernel_fault_in(Dev *d, unsigned q, const MemLaunch *l,
                                   uint32_t lo, uint32_t hi, int access,
                                   int reason)
{
    unsigned ctx = qrd(d, q, SIMT_QREG_CONTEXT);
    uint32_t faults = rd(d, SIMT_REG_MMU_FAULTS);
    struct simt_completion r;
    uint32_t idx, f, pc, va;

    wr(d, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);
    g_assert_cmpuint(crd(d, ctx, SIMT_CREG_FAULT), ==, 0);
    idx = mem_launch(d, q, l);
    g_assert_cmpuint(wait_queue(d, q, idx), ==, SIMT_QSTATE_ERROR);
    read_record(d, q, idx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_FAULT);
    g_assert_cmpuint(r.fault, ==, SIMT_FAULT_PAGE);

    f = crd(d, ctx, SIMT_CREG_FAULT);
    g_assert_true(f & SIMT_CFAULT_VALID);
    g_assert_cmpuint(SIMT_CFAULT_ACCESS(f), ==, access);
    g_assert_cmpuint(SIMT_CFAULT_REASON(f), ==, reason);
    va = crd(d, ctx, SIMT_CREG_FAULT_ADDR);
    g_assert_cmphex(va, >=, lo);
    g_assert_cmphex(va, <, hi);
    g_assert_cmpuint(crd(d, ctx, SIMT_CREG_FAULT_QUEUE), ==, q);
    pc = crd(d, ctx, SIMT_CREG_FAULT_PC);
    g_assert_cmphex(pc, ==, r.fault_pc);
    if (access == SIMT_ACCESS_FETCH) {
        g_assert_cmphex(pc, ==, va);
    } else if (l->local_base && lo == l->local_base) {
        /* The record has the thread's address in its local window. */
        uint32_t per_thread = simt_image_kernel(d->img,
                                                l->kernel)->m.local_bytes;

        g_assert_cmphex(r.fault_addr, ==,
                        SIMT_LOCAL_BASE + (va - lo) % per_thread);
    } else {
        g_assert_cmphex(r.fault_addr, ==, va);
        g_assert_cmphex(pc, >=, d->img->code_start);
        g_assert_cmphex(pc, <, d->img->code_end);
    }
    g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_MMU));
    g_assert_cmpuint(rd(d, SIMT_REG_MMU_FAULTS), ==, faults + 1);
    expect_queue_error(d, q, idx, SIMT_QERR_FAULT);

    /* FAULT is write-1-to-clear. */
    cwr(d, ctx, SIMT_CREG_FAULT, SIMT_CFAULT_VALID);
    g_assert_cmpuint(crd(d, ctx, SIMT_CREG_FAULT), ==, 0);
}

/* The same, faulting at exactly @va. */
static void expect_kernel_fault(Dev *d, unsigned q, const MemLaunch *l,
                                uint32_t va, int access, int reason)
{
    expect_kernel_fault_in(d, q, l, va, va + 1, access, reason);
}

/* A copy on queue @q that must fault on device address @va. */
static void expect_copy_mmu_fault(Dev *d, unsigned q, uint32_t flags,
                                  uint64_t src, uint64_t dst, uint64_t size,
                                  uint32_t va, int access, int reason)
{
    unsigned ctx = qrd(d, q, SIMT_QREG_CONTEXT);
    uint32_t faults = rd(d, SIMT_REG_MMU_FAULTS);
    uint32_t idx, f;

    wr(d, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);
    g_assert_cmpuint(crd(d, ctx, SIMT_CREG_FAULT), ==, 0);
    idx = copy_cmd(d, q, flags, src, dst, size);
    g_assert_cmpuint(wait_queue(d, q, idx), ==, SIMT_QSTATE_ERROR);
    f = crd(d, ctx, SIMT_CREG_FAULT);
    g_assert_true(f & SIMT_CFAULT_VALID);
    g_assert_cmpuint(SIMT_CFAULT_ACCESS(f), ==, access);
    g_assert_cmpuint(SIMT_CFAULT_REASON(f), ==, reason);
    g_assert_cmphex(crd(d, ctx, SIMT_CREG_FAULT_ADDR), ==, va);
    g_assert_cmpuint(crd(d, ctx, SIMT_CREG_FAULT_QUEUE), ==, q);
    g_assert_cmphex(crd(d, ctx, SIMT_CREG_FAULT_PC), ==, 0);
    g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_MMU));
    g_assert_cmpuint(rd(d, SIMT_REG_MMU_FAULTS), ==, faults + 1);
    expect_queue_error(d, q, idx, SIMT_QERR_MMU);
    cwr(d, ctx, SIMT_CREG_FAULT, SIMT_CFAULT_VALID);
}

/*
 * Unmapped addresses fault (a missing leaf, a missing level-1 entry, code
 * not mapped); a kernel of another context runs on undisturbed, and the
 * faulting queue works again once reset and the page mapped.
 */
static void test_fault_unmapped(void)
{
    Dev *d = mem_dev_start(NULL);
    uint32_t data = data_pages(d, 2, 40), out1 = data_pages(d, 1, 41);
    uint32_t busy = data_pages(d, 1, 42), more = data_pages(d, 1, 43);
    uint32_t root3 = pt_page(d);
    const uint32_t hold = 200000;
    struct simt_completion r;
    uint32_t idx;

    space_init(d, 1);
    space_init(d, 2);
    map_page(d, 1, VA_DATA, data, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 1, VA_DATA + SIMT_PAGE_SIZE, data + SIMT_PAGE_SIZE,
             SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 1, VA_OUT, out1, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 2, VA_OUT, busy, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);
    queue_bind(d, 1, 2);

    /* Context 2 holds an SM all along. */
    idx = mem_launch(d, 1, &(MemLaunch) {
        .kernel = "hold", .grid = 1, .block = 32,
        .args = { VA_OUT, hold, VA_OUT + 4, VA_OUT + 8 },
    });

    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, VA_DATA + 2 * SIMT_PAGE_SIZE + 4 },
    }, VA_DATA + 2 * SIMT_PAGE_SIZE + 4, SIMT_ACCESS_LOAD,
       SIMT_MMU_UNMAPPED);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { 0x20000010, 1 },
    }, 0x20000010, SIMT_ACCESS_STORE, SIMT_MMU_UNMAPPED);

    g_assert_cmpuint(queue_state(d, 1), ==, SIMT_QSTATE_BUSY);
    g_assert_cmpuint(wait_queue(d, 1, idx), ==, SIMT_QSTATE_IDLE);
    read_record(d, 1, idx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(r.end_cycle - r.start_cycle, >=, hold);
    g_assert_cmpuint(crd(d, 2, SIMT_CREG_FAULT), ==, 0);

    /* Mapped now, the same load works on the reset queue. */
    map_page(d, 1, VA_DATA + 2 * SIMT_PAGE_SIZE, more, SIMT_PTE_R);
    tlb_inv(d, SIMT_TLB_INV_PAGE, 1, VA_DATA + 2 * SIMT_PAGE_SIZE);
    g_assert_cmphex(load_word(d, 0, VA_DATA + 2 * SIMT_PAGE_SIZE + 4, out1),
                    ==, vram_rd32(d, more + 4));

    /* Code not mapped: the first fetch faults at the entry point. */
    cwr(d, 3, SIMT_CREG_PT, SIMT_PT_SV32 | root3 >> SIMT_PAGE_SHIFT);
    queue_bind(d, 2, 3);
    expect_kernel_fault(d, 2, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_OUT, 1 },
    }, simt_image_kernel(d->img, "store_word")->m.entry,
       SIMT_ACCESS_FETCH, SIMT_MMU_UNMAPPED);
    dev_stop(d);
}

/*
 * The first fault of a context stays recorded until cleared, though a
 * second queue of the same context faults too; a third queue of that
 * context still runs.
 */
static void test_fault_first_stays(void)
{
    Dev *d = mem_dev_start(NULL);
    uint32_t data = data_pages(d, 1, 45), out = data_pages(d, 1, 46);
    uint32_t faults = rd(d, SIMT_REG_MMU_FAULTS);
    uint32_t i0, i1, f;

    space_init(d, 1);
    map_page(d, 1, VA_DATA, data, SIMT_PTE_R);
    map_page(d, 1, VA_OUT, out, SIMT_PTE_R | SIMT_PTE_W);
    for (unsigned q = 0; q < 3; q++) {
        queue_bind(d, q, 1);
    }
    i0 = mem_launch(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, VA_DATA + 0x3000 },
    });
    g_assert_cmpuint(wait_queue(d, 0, i0), ==, SIMT_QSTATE_ERROR);
    i1 = mem_launch(d, 1, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_DATA, 5 },
    });
    g_assert_cmpuint(wait_queue(d, 1, i1), ==, SIMT_QSTATE_ERROR);

    f = crd(d, 1, SIMT_CREG_FAULT);
    g_assert_cmpuint(SIMT_CFAULT_ACCESS(f), ==, SIMT_ACCESS_LOAD);
    g_assert_cmpuint(SIMT_CFAULT_REASON(f), ==, SIMT_MMU_UNMAPPED);
    g_assert_cmphex(crd(d, 1, SIMT_CREG_FAULT_ADDR), ==, VA_DATA + 0x3000);
    g_assert_cmpuint(crd(d, 1, SIMT_CREG_FAULT_QUEUE), ==, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_MMU_FAULTS), ==, faults + 2);

    /* Queue 2, same context, is not stopped by its neighbours' faults. */
    g_assert_cmphex(load_word(d, 2, VA_DATA + 12, out), ==,
                    vram_rd32(d, data + 12));

    /* Cleared, the next fault is recorded. */
    cwr(d, 1, SIMT_CREG_FAULT, SIMT_CFAULT_VALID);
    expect_queue_error(d, 1, i1, SIMT_QERR_FAULT);
    expect_kernel_fault(d, 1, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_DATA + 4, 5 },
    }, VA_DATA + 4, SIMT_ACCESS_STORE, SIMT_MMU_PERMISSION);
    dev_stop(d);
}

/* Stores to a read-only page and reads of an execute-only page fault. */
static void test_fault_permission(void)
{
    Dev *d = mem_dev_start(NULL);
    uint32_t ro = data_pages(d, 1, 50), xo = data_pages(d, 1, 51);
    uint32_t out = data_pages(d, 1, 52);
    uint8_t before[SIMT_PAGE_SIZE], after[SIMT_PAGE_SIZE];
    uint8_t buf[64];

    space_init(d, 1);
    map_page(d, 1, VA_DATA, ro, SIMT_PTE_R);
    map_page(d, 1, VA_DATA + SIMT_PAGE_SIZE, xo, SIMT_PTE_X);
    map_page(d, 1, VA_OUT, out, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);
    vram_get(d, ro, before, sizeof(before));

    g_assert_cmphex(load_word(d, 0, VA_DATA + 8, out), ==,
                    vram_rd32(d, ro + 8));
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_DATA + 8, 0x12345678 },
    }, VA_DATA + 8, SIMT_ACCESS_STORE, SIMT_MMU_PERMISSION);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, VA_DATA + SIMT_PAGE_SIZE + 12 },
    }, VA_DATA + SIMT_PAGE_SIZE + 12, SIMT_ACCESS_LOAD,
       SIMT_MMU_PERMISSION);

    /* The copy engines obey the same permissions. */
    fill(buf, sizeof(buf), 53);
    qtest_bufwrite(d->qts, HOST_SRC, buf, sizeof(buf));
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, VA_DATA + 32,
                          sizeof(buf), VA_DATA + 32, SIMT_ACCESS_COPY_WRITE,
                          SIMT_MMU_PERMISSION);
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_DST_HOST, VA_DATA + SIMT_PAGE_SIZE,
                          HOST_DST, 16, VA_DATA + SIMT_PAGE_SIZE,
                          SIMT_ACCESS_COPY_READ, SIMT_MMU_PERMISSION);

    vram_get(d, ro, after, sizeof(after));
    g_assert_cmpmem(after, sizeof(after), before, sizeof(before));
    dev_stop(d);
}

/*
 * Malformed page-table entries fault with the reason, and the device
 * goes on: W without R, a non-leaf at level 0, a misaligned superpage,
 * leaves and tables outside VRAM.
 */
static void test_fault_malformed(void)
{
    Dev *d = mem_dev_start(NULL);
    uint32_t page = data_pages(d, 1, 60), out = data_pages(d, 1, 61);
    uint32_t beyond = d->vram_size >> SIMT_PAGE_SHIFT;
    uint32_t root, good;
    static const struct {
        bool super;
        uint32_t pte;           /* PPN 0: the test's page */
        uint32_t ppn;
        int reason;
    } cases[] = {
        { false, SIMT_PTE_V | SIMT_PTE_W, 0, SIMT_MMU_MALFORMED },
        { false, SIMT_PTE_V | SIMT_PTE_W | SIMT_PTE_X, 0,
          SIMT_MMU_MALFORMED },
        { false, SIMT_PTE_V, 0, SIMT_MMU_MALFORMED },
        { true, SIMT_PTE_V | SIMT_PTE_R | SIMT_PTE_W, 0x4001,
          SIMT_MMU_MALFORMED },
        { true, SIMT_PTE_V | SIMT_PTE_W, 0x4000, SIMT_MMU_MALFORMED },
        { false, SIMT_PTE_V | SIMT_PTE_R, ~0u, SIMT_MMU_BEYOND },
        { true, SIMT_PTE_V | SIMT_PTE_R, ~0u, SIMT_MMU_BEYOND },
        { true, SIMT_PTE_V, ~0u, SIMT_MMU_BEYOND },
    };

    space_init(d, 1);
    map_page(d, 1, VA_OUT, out, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        uint32_t ppn = cases[i].ppn, va = VA_DATA + 0x10;

        if (!ppn) {
            ppn = page >> SIMT_PAGE_SHIFT;
        } else if (ppn == ~0u) {
            ppn = beyond;
        }
        if (cases[i].super) {
            va = 0x80000000u + 0x1234;
        }
        if (cases[i].super) {
            vram_wr32(d, ctx_root(d, 1) + (va >> 22) * 4,
                      ppn << SIMT_PTE_PPN_SHIFT | cases[i].pte);
        } else {
            set_pte(d, 1, va, ppn << SIMT_PTE_PPN_SHIFT | cases[i].pte);
        }
        tlb_inv(d, SIMT_TLB_INV_ALL, 0, 0);
        expect_kernel_fault(d, 0, &(MemLaunch) {
            .kernel = "load_from", .grid = 1, .block = 1,
            .args = { VA_OUT, va },
        }, va, SIMT_ACCESS_LOAD, cases[i].reason);
    }

    /* The root table itself outside VRAM: the first fetch faults. */
    root = crd(d, 1, SIMT_CREG_PT);
    cwr(d, 1, SIMT_CREG_PT, SIMT_PT_SV32 | beyond);
    tlb_inv(d, SIMT_TLB_INV_CTX, 1, 0);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, VA_DATA },
    }, simt_image_kernel(d->img, "load_from")->m.entry,
       SIMT_ACCESS_FETCH, SIMT_MMU_BEYOND);

    /* A good entry works again. */
    cwr(d, 1, SIMT_CREG_PT, root);
    map_page(d, 1, VA_DATA, page, SIMT_PTE_R);
    tlb_inv(d, SIMT_TLB_INV_CTX, 1, 0);
    good = vram_rd32(d, page + 0x10);
    g_assert_cmphex(load_word(d, 0, VA_DATA + 0x10, out), ==, good);
    dev_stop(d);
}

/*
 * Context A's kernels and copies cannot reach context B's pages, nor the
 * page tables: they fault, and B's data stays as it was.
 */
static void test_isolation(void)
{
    Dev *d = mem_dev_start(NULL);
    uint32_t pa = data_pages(d, 1, 70), pao = data_pages(d, 1, 71);
    uint32_t pb = data_pages(d, 1, 72), pbo = data_pages(d, 1, 73);
    uint8_t bdata[SIMT_PAGE_SIZE], adata[SIMT_PAGE_SIZE];
    uint8_t got[SIMT_PAGE_SIZE];

    space_init(d, 1);
    space_init(d, 2);
    map_page(d, 1, VA_DATA, pa, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 1, VA_OUT, pao, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 2, VA_DATA, pb, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 2, VA_OUT, pbo, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);
    queue_bind(d, 1, 2);
    vram_get(d, pa, adata, sizeof(adata));
    vram_get(d, pb, bdata, sizeof(bdata));

    /* The same virtual address is each context's own page. */
    g_assert_cmphex(load_word(d, 0, VA_DATA + 4, pao), ==,
                    (uint32_t)ldl_le_p(adata + 4));
    g_assert_cmphex(load_word(d, 1, VA_DATA + 4, pbo), ==,
                    (uint32_t)ldl_le_p(bdata + 4));

    /* B's page and B's page tables, by their VRAM addresses, from A. */
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, pb + 4 },
    }, pb + 4, SIMT_ACCESS_LOAD, SIMT_MMU_UNMAPPED);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { pb + 8, 0xbad },
    }, pb + 8, SIMT_ACCESS_STORE, SIMT_MMU_UNMAPPED);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { ctx_root(d, 2), 0xbad },
    }, ctx_root(d, 2), SIMT_ACCESS_STORE, SIMT_MMU_UNMAPPED);
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, pb, 64, pb,
                          SIMT_ACCESS_COPY_WRITE, SIMT_MMU_UNMAPPED);
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_DST_HOST, pb, HOST_DST, 64, pb,
                          SIMT_ACCESS_COPY_READ, SIMT_MMU_UNMAPPED);
    expect_copy_mmu_fault(d, 0, 0, pb, VA_DATA, 64, pb,
                          SIMT_ACCESS_COPY_READ, SIMT_MMU_UNMAPPED);
    expect_copy_mmu_fault(d, 0, 0, VA_DATA, pb, 64, pb,
                          SIMT_ACCESS_COPY_WRITE, SIMT_MMU_UNMAPPED);

    /* Nothing of B's changed, and B goes on. */
    vram_get(d, pb, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), bdata, sizeof(bdata));
    vram_get(d, pa, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), adata, sizeof(adata));
    g_assert_cmpuint(crd(d, 2, SIMT_CREG_FAULT), ==, 0);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 8, pbo), ==,
                    (uint32_t)ldl_le_p(bdata + 8));
    dev_stop(d);
}

/*
 * Local memory (the stack of the calls kernel) goes through the page
 * tables too: the kernel gives the same results in a translated context,
 * with its local memory in pages mapped there, as in a bare one; with
 * that range unmapped, the first stack access faults in it.
 */
static void test_translate_local(void)
{
    Dev *d = mem_dev_start(NULL);
    enum { N = 64, T = 32 };
    const struct simt_kernel_info *k = simt_image_kernel(d->img, "calls");
    const uint32_t va_local = 0x50000000u;
    uint32_t local_bytes = rd(d, SIMT_REG_SM_COUNT) *
                           rd(d, SIMT_REG_SM_BLOCKS) * T * k->m.local_bytes;
    uint32_t local_pages = DIV_ROUND_UP(local_bytes, SIMT_PAGE_SIZE);
    float xs[N], coef[8], ref[N], got[N];
    uint32_t dx, dc, dout, px, pout, plocal;
    MemLaunch l = {
        .kernel = "calls", .grid = N / T, .block = T,
        .local_base = 0x800000 - ROUND_UP(local_bytes, SIMT_PAGE_SIZE),
    };
    g_autofree uint8_t *stack = g_malloc(local_pages * SIMT_PAGE_SIZE);
    g_autofree uint8_t *zero = g_malloc0(local_pages * SIMT_PAGE_SIZE);
    bool used = false;

    g_assert_cmpuint(k->m.local_bytes, >, 0);
    for (int i = 0; i < N; i++) {
        xs[i] = i * 0.25f - 3.0f;
    }
    for (int i = 0; i < 8; i++) {
        coef[i] = 1.0f / (i + 2);
    }

    /* The reference: context 0, bare. */
    dx = vram_zalloc(d, sizeof(xs));
    dc = vram_zalloc(d, sizeof(coef));
    dout = vram_zalloc(d, sizeof(ref));
    vram_write(d, dx, xs, sizeof(xs));
    vram_write(d, dc, coef, sizeof(coef));
    l.args[0] = dx;
    l.args[1] = dc;
    l.args[2] = dout;
    l.args[3] = N;
    mem_run_ok(d, 0, &l, NULL);
    vram_get(d, dout, ref, sizeof(ref));

    /* Context 1: inputs on one page, outputs on another, local apart. */
    px = data_pages(d, 1, 80);
    pout = data_pages(d, 1, 81);
    plocal = data_pages(d, local_pages, 82);
    vram_write(d, plocal, zero, local_pages * SIMT_PAGE_SIZE);
    vram_write(d, px, xs, sizeof(xs));
    vram_write(d, px + 0x800, coef, sizeof(coef));
    space_init(d, 1);
    map_page(d, 1, VA_DATA, px, SIMT_PTE_R);
    map_page(d, 1, VA_OUT, pout, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 1, 1);
    l.args[0] = VA_DATA;
    l.args[1] = VA_DATA + 0x800;
    l.args[2] = VA_OUT;
    l.local_base = va_local;

    /* Local memory not mapped yet. */
    expect_kernel_fault_in(d, 1, &l, va_local,
                           va_local + local_pages * SIMT_PAGE_SIZE,
                           SIMT_ACCESS_STORE, SIMT_MMU_UNMAPPED);

    for (uint32_t i = 0; i < local_pages; i++) {
        map_page(d, 1, va_local + i * SIMT_PAGE_SIZE,
                 plocal + i * SIMT_PAGE_SIZE, SIMT_PTE_R | SIMT_PTE_W);
    }
    tlb_inv(d, SIMT_TLB_INV_CTX, 1, 0);
    mem_run_ok(d, 1, &l, NULL);
    vram_get(d, pout, got, sizeof(got));
    for (int i = 0; i < N; i++) {
        g_assert_cmphex(fbits(got[i]), ==, fbits(ref[i]));
    }
    /* The stack frames landed in the pages mapped for local memory. */
    vram_get(d, plocal, stack, local_pages * SIMT_PAGE_SIZE);
    for (uint32_t i = 0; i < local_pages * SIMT_PAGE_SIZE; i++) {
        used |= stack[i] != 0;
    }
    g_assert_true(used);
    dev_stop(d);
}

/*
 * A queue runs copies and kernels in order: guest data in, a kernel on
 * it, the result out, all submitted at once, all through context 1's
 * page tables.
 */
static void test_copy_kernel_pipeline(void)
{
    Dev *d = mem_dev_start(NULL);
    enum { N = 1500 };
    g_autofree float *a = g_new(float, N);
    g_autofree float *b = g_new(float, N);
    g_autofree float *c = g_new(float, N);
    const uint32_t bytes = N * sizeof(float);
    const uint32_t pages = DIV_ROUND_UP(3 * bytes, SIMT_PAGE_SIZE);
    uint32_t phys = data_pages(d, pages, 90);
    uint32_t va_a = VA_DATA, va_b = VA_DATA + bytes;
    uint32_t va_c = VA_DATA + 2 * bytes;
    uint32_t idx;

    for (int i = 0; i < N; i++) {
        a[i] = i * 0.75f;
        b[i] = 100.0f / (i + 1);
    }
    qtest_bufwrite(d->qts, HOST_SRC, a, bytes);
    qtest_bufwrite(d->qts, HOST_SRC + bytes, b, bytes);
    qtest_memset(d->qts, HOST_DST, 0, bytes);
    space_init(d, 1);
    for (uint32_t i = 0; i < pages; i++) {
        /* Physically in reverse order. */
        map_page(d, 1, VA_DATA + i * SIMT_PAGE_SIZE,
                 phys + (pages - 1 - i) * SIMT_PAGE_SIZE,
                 SIMT_PTE_R | SIMT_PTE_W);
    }
    queue_bind(d, 2, 1);

    copy_cmd(d, 2, SIMT_CMDF_SRC_HOST, HOST_SRC, va_a, 2 * bytes);
    mem_launch(d, 2, &(MemLaunch) {
        .kernel = "vecadd", .grid = DIV_ROUND_UP(N, 128), .block = 128,
        .args = { va_a, va_b, va_c, N },
    });
    idx = copy_cmd(d, 2, SIMT_CMDF_DST_HOST | SIMT_CMDF_IRQ, va_c,
                   HOST_DST, bytes);
    g_assert_cmpuint(wait_queue(d, 2, idx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(qrd(d, 2, SIMT_QREG_COMPLETED), ==, 3);
    qtest_bufread(d->qts, HOST_DST, c, bytes);
    for (int i = 0; i < N; i++) {
        g_assert_cmpfloat(c[i], ==, a[i] + b[i]);
    }
    dev_stop(d);
}

/*
 * Two engines move two queues' copies side by side; with one engine,
 * a copy keeps it against a later one of equal priority.
 */
static void test_copy_engines(void)
{
    const uint64_t size = 2 * MiB;
    Dev *d = mem_dev_start("copy-engines=2");
    uint64_t model = DIV_ROUND_UP(size, rd(d, SIMT_REG_COPY_BW));
    uint64_t t0, t1;
    uint32_t i0, i1;

    g_assert_cmpuint(rd(d, SIMT_REG_COPY_ENGINES), ==, 2);
    t0 = cycle_now(d);
    i0 = copy_cmd(d, 0, 0, VRAM_SRC, VRAM_DST, size);
    i1 = copy_cmd(d, 1, 0, VRAM_SRC + size, VRAM_DST + size, size);
    qtest_clock_step(d->qts, cycles_ns(d, model / 2));
    /* Both engines are busy, one with each queue. */
    g_assert_cmphex(rd(d, SIMT_COPY_REG(0, SIMT_EREG_QUEUE)) +
                    rd(d, SIMT_COPY_REG(1, SIMT_EREG_QUEUE)), ==, 1);
    g_assert_cmpuint(engine_bytes(d, 0), >, 0);
    g_assert_cmpuint(engine_bytes(d, 1), >, 0);
    for (unsigned q = 0; q < 2; q++) {
        g_assert_cmpuint(wait_queue_step(d, q, q ? i1 : i0,
                                         cycles_ns(d, 1000), &t1), ==,
                         SIMT_QSTATE_IDLE);
        g_assert_cmpuint(t1 - t0, <=, model + SLACK_CYCLES);
    }
    g_assert_cmpuint(engine_bytes(d, 0), ==, size);
    g_assert_cmpuint(engine_bytes(d, 1), ==, size);
    dev_stop(d);

    d = mem_dev_start("copy-engines=1");
    t0 = cycle_now(d);
    i0 = copy_cmd(d, 0, 0, VRAM_SRC, VRAM_DST, size);
    qtest_clock_step(d->qts, cycles_ns(d, model / 4));
    i1 = copy_cmd(d, 1, 0, VRAM_SRC + size, VRAM_DST + size, size);
    /* The first copy is not slowed by the second ... */
    g_assert_cmpuint(wait_queue_step(d, 0, i0, cycles_ns(d, 1000), &t1), ==,
                     SIMT_QSTATE_IDLE);
    g_assert_cmpuint(t1 - t0, <=, model + SLACK_CYCLES);
    /* ... which has moved a chunk at most so far. */
    g_assert_cmpuint(queue_state(d, 1), ==, SIMT_QSTATE_BUSY);
    g_assert_cmpuint(engine_bytes(d, 0), <=, size + SIMT_DEFAULT_DMA_CHUNK);
    g_assert_cmpuint(wait_queue(d, 1, i1), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(rd(d, SIMT_COPY_REG(0, SIMT_EREG_SWITCHES)), ==, 0);
    g_assert_cmpuint(engine_bytes(d, 0), ==, 2 * size);
    dev_stop(d);
}

/*
 * Registers of the memory system: a queue's context can only change while
 * it is disabled and must exist; DMA_CHUNK takes powers of two in range;
 * a device reset clears contexts, counters and the chunk size.
 */
static void test_mem_registers(void)
{
    Dev *d = mem_dev_start("contexts=4");
    uint32_t out = data_pages(d, 1, 95);

    g_assert_cmpuint(rd(d, SIMT_REG_CONTEXT_COUNT), ==, 4);
    qwr(d, 0, SIMT_QREG_CONTEXT, 2);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_CONTEXT), ==, 0);
    qwr(d, 0, SIMT_QREG_CONTROL, 0);
    qwr(d, 0, SIMT_QREG_CONTEXT, 4);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_CONTEXT), ==, 0);
    qwr(d, 0, SIMT_QREG_CONTEXT, 3);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_CONTEXT), ==, 3);

    wr(d, SIMT_REG_DMA_CHUNK, 3 * 4096);
    wr(d, SIMT_REG_DMA_CHUNK, 2048);
    wr(d, SIMT_REG_DMA_CHUNK, 128 * MiB);
    g_assert_cmpuint(rd(d, SIMT_REG_DMA_CHUNK), ==, SIMT_DEFAULT_DMA_CHUNK);
    wr(d, SIMT_REG_DMA_CHUNK, SIMT_MAX_DMA_CHUNK);
    g_assert_cmpuint(rd(d, SIMT_REG_DMA_CHUNK), ==, SIMT_MAX_DMA_CHUNK);
    wr(d, SIMT_REG_TLB_INV_CTX, 3);
    wr(d, SIMT_REG_TLB_INV_ADDR, 0x12345000);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_INV_CTX), ==, 3);
    g_assert_cmphex(rd(d, SIMT_REG_TLB_INV_ADDR), ==, 0x12345000);

    /* Some translations, a fault and a copy to count. */
    space_init(d, 3);
    map_page(d, 3, VA_OUT, out, SIMT_PTE_R | SIMT_PTE_W);
    qwr(d, 0, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, VA_DATA },
    }, VA_DATA, SIMT_ACCESS_LOAD, SIMT_MMU_UNMAPPED);
    copy_ok(d, 0, 0, VA_OUT, VA_OUT + 64, 64);
    cwr(d, 3, SIMT_CREG_PRIORITY, 2);
    cwr(d, 3, SIMT_CREG_SAVE_BASE, 0x123000);
    cwr(d, 3, SIMT_CREG_SAVE_SIZE, 0x4000);
    g_assert_cmpuint(crd(d, 3, SIMT_CREG_PRIORITY), ==, 2);
    g_assert_cmphex(crd(d, 3, SIMT_CREG_SAVE_BASE), ==, 0x123000);
    g_assert_cmphex(crd(d, 3, SIMT_CREG_SAVE_SIZE), ==, 0x4000);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_MISSES), >, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_HITS), >, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_MMU_FAULTS), ==, 1);
    g_assert_cmpuint(all_engine_bytes(d), ==, 64);

    wr(d, SIMT_REG_RESET, SIMT_RESET_MAGIC);
    g_assert_cmpuint(rd(d, SIMT_REG_DMA_CHUNK), ==, SIMT_DEFAULT_DMA_CHUNK);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_CONTEXT), ==, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_INV_CTX), ==, 0);
    g_assert_cmphex(rd(d, SIMT_REG_TLB_INV_ADDR), ==, 0);
    for (unsigned reg = SIMT_CREG_PT; reg <= SIMT_CREG_FAULT_QUEUE;
         reg += 4) {
        g_assert_cmphex(crd(d, 3, reg), ==, 0);
    }
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_MISSES), ==, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_TLB_HITS), ==, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_MMU_FAULTS), ==, 0);
    g_assert_cmpuint(all_engine_bytes(d), ==, 0);
    g_assert_cmpuint(rd(d, SIMT_COPY_REG(0, SIMT_EREG_CHUNKS)), ==, 0);
    g_assert_cmphex(rd(d, SIMT_COPY_REG(0, SIMT_EREG_QUEUE)), ==, ~0u);
    dev_stop(d);
}

/*
 * A translated copy stops at the first page that faults: the bytes before
 * it are moved, none after.
 */
static void test_copy_partial_fault(void)
{
    Dev *d = mem_dev_start(NULL);
    uint32_t page = data_pages(d, 1, 100), next = data_pages(d, 1, 101);
    uint8_t src[2 * SIMT_PAGE_SIZE], before[SIMT_PAGE_SIZE];
    uint8_t got[SIMT_PAGE_SIZE];
    uint64_t bytes;

    space_init(d, 1);
    map_page(d, 1, VA_DATA, page, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 1, VA_DATA + 2 * SIMT_PAGE_SIZE, next,
             SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);
    fill(src, sizeof(src), 102);
    qtest_bufwrite(d->qts, HOST_SRC, src, sizeof(src));
    vram_get(d, page, before, sizeof(before));
    vram_get(d, next, got, sizeof(got));

    bytes = all_engine_bytes(d);
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, VA_DATA + 100,
                          sizeof(src), VA_DATA + SIMT_PAGE_SIZE,
                          SIMT_ACCESS_COPY_WRITE, SIMT_MMU_UNMAPPED);
    g_assert_cmpuint(all_engine_bytes(d) - bytes, ==, SIMT_PAGE_SIZE - 100);
    vram_get(d, next, before, sizeof(before));
    g_assert_cmpmem(before, sizeof(before), got, sizeof(got));
    vram_get(d, page + 100, got, SIMT_PAGE_SIZE - 100);
    g_assert_cmpmem(got, SIMT_PAGE_SIZE - 100, src, SIMT_PAGE_SIZE - 100);
    dev_stop(d);
}

/*
 * Stopping a queue, or resetting the device, drops a copy in flight and
 * frees its engine.
 */
static void test_copy_cancel(void)
{
    Dev *d = mem_dev_start("copy-engines=1");
    uint64_t chunk_cycles = DIV_ROUND_UP(SIMT_DEFAULT_DMA_CHUNK,
                                         rd(d, SIMT_REG_COPY_BW));
    uint64_t t;

    copy_cmd(d, 0, 0, VRAM_SRC, VRAM_DST, 16 * MiB);
    qtest_clock_step(d->qts, cycles_ns(d, 3 * chunk_cycles / 2));
    g_assert_cmpuint(rd(d, SIMT_COPY_REG(0, SIMT_EREG_QUEUE)), ==, 0);
    qwr(d, 0, SIMT_QREG_CONTROL, 0);
    g_assert_cmphex(rd(d, SIMT_COPY_REG(0, SIMT_EREG_QUEUE)), ==, ~0u);
    t = timed_copy(d, 1, 0, VRAM_SRC, VRAM_DST, 4096);
    g_assert_cmpuint(t, <=, chunk_cycles + SLACK_CYCLES);
    qtest_clock_step(d->qts, cycles_ns(d, 20 * chunk_cycles));
    g_assert_cmpuint(engine_bytes(d, 0), <, 4 * MiB);

    /* A device reset drops a copy in flight; copies work afterwards. */
    queue_setup_ctx(d, 0, 0, 0);
    copy_cmd(d, 0, 0, VRAM_SRC, VRAM_DST, 16 * MiB);
    qtest_clock_step(d->qts, cycles_ns(d, 3 * chunk_cycles / 2));
    wr(d, SIMT_REG_RESET, SIMT_RESET_MAGIC);
    g_assert_cmphex(rd(d, SIMT_COPY_REG(0, SIMT_EREG_QUEUE)), ==, ~0u);
    g_assert_cmpuint(engine_bytes(d, 0), ==, 0);
    queue_setup_ctx(d, 1, 0, 0);
    t = timed_copy(d, 1, 0, VRAM_SRC, VRAM_DST, 4096);
    g_assert_cmpuint(t, <=, SLACK_CYCLES);
    qtest_clock_step(d->qts, cycles_ns(d, 20 * chunk_cycles));
    g_assert_cmpuint(engine_bytes(d, 0), ==, 4096);
    dev_stop(d);
}

/*
 * Through page tables too, the last page of VRAM is reachable and the
 * byte after it is not: a leaf beyond VRAM faults, and a copy stops there.
 */
static void test_translate_vram_edge(void)
{
    Dev *d = mem_dev_start("vram-size=64M");
    uint64_t last = d->vram_size - SIMT_PAGE_SIZE;
    uint32_t out = data_pages(d, 1, 120);
    uint8_t src[SIMT_PAGE_SIZE + 1], got[SIMT_PAGE_SIZE];

    space_init(d, 1);
    map_page(d, 1, VA_DATA, last, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 1, VA_DATA + SIMT_PAGE_SIZE, d->vram_size,
             SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 1, VA_OUT, out, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);

    mem_run_ok(d, 0, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_DATA + SIMT_PAGE_SIZE - 4, 0x600dcafe },
    }, NULL);
    g_assert_cmphex(vram_rd32(d, d->vram_size - 4), ==, 0x600dcafe);
    g_assert_cmphex(load_word(d, 0, VA_DATA + SIMT_PAGE_SIZE - 4, out), ==,
                    0x600dcafe);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_DATA + SIMT_PAGE_SIZE, 1 },
    }, VA_DATA + SIMT_PAGE_SIZE, SIMT_ACCESS_STORE, SIMT_MMU_BEYOND);

    fill(src, sizeof(src), 121);
    qtest_bufwrite(d->qts, HOST_SRC, src, sizeof(src));
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, VA_DATA,
                          sizeof(src), VA_DATA + SIMT_PAGE_SIZE,
                          SIMT_ACCESS_COPY_WRITE, SIMT_MMU_BEYOND);
    vram_get(d, last, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), src, SIMT_PAGE_SIZE);
    copy_ok(d, 0, SIMT_CMDF_DST_HOST, VA_DATA, HOST_DST, SIMT_PAGE_SIZE);
    qtest_bufread(d->qts, HOST_DST, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), src, SIMT_PAGE_SIZE);
    dev_stop(d);
}

/*
 * System memory through the device MMU: 4 KiB leaves with SIMT_PTE_SYS
 * map guest-physical pages, which kernels and copy engines reach by DMA.
 */
static uint32_t sys_leaf(uint64_t gpa, uint32_t perm)
{
    return pte_leaf(gpa, perm | SIMT_PTE_SYS);
}

static void map_sys(Dev *d, unsigned ctx, uint32_t va, uint64_t gpa,
                    uint32_t perm)
{
    set_pte(d, ctx, va, sys_leaf(gpa, perm));
}

/*
 * A kernel reads and writes guest RAM: four scattered input pages and
 * four output pages, results checked in guest RAM; a word in system
 * memory read into VRAM; VRAM left alone.  Another context runs its code
 * from a copy of the kernel image in guest RAM (fetches by DMA).
 */
static void test_sys_kernel(void)
{
    Dev *d = mem_dev_start(NULL);
    static const unsigned order[4] = { 3, 1, 0, 2 };
    const uint32_t words = (4 * SIMT_PAGE_SIZE - 16) / 4;
    const uint64_t in = SYS_BUF, outp = SYS_BUF + 8 * SIMT_PAGE_SIZE;
    uint32_t vout = data_pages(d, 1, 200);
    g_autofree uint8_t *src = g_malloc(4 * SIMT_PAGE_SIZE);
    g_autofree uint8_t *dst = g_malloc(4 * SIMT_PAGE_SIZE);
    g_autofree uint8_t *got = g_malloc(4 * SIMT_PAGE_SIZE);
    g_autofree uint8_t *vram_before = g_malloc(SIMT_PAGE_SIZE);
    uint32_t start = d->img->base & ~(SIMT_PAGE_SIZE - 1);
    uint64_t code = SYS_BUF + 32 * SIMT_PAGE_SIZE;
    uint32_t code_bytes = ROUND_UP(d->img->base + d->img->size,
                                   SIMT_PAGE_SIZE) - start;
    g_autofree uint8_t *img = NULL;

    fill(src, 4 * SIMT_PAGE_SIZE, 201);
    fill(dst, 4 * SIMT_PAGE_SIZE, 202);
    space_init(d, 1);
    for (unsigned i = 0; i < 4; i++) {
        qtest_bufwrite(d->qts, in + order[i] * SIMT_PAGE_SIZE,
                       src + i * SIMT_PAGE_SIZE, SIMT_PAGE_SIZE);
        qtest_bufwrite(d->qts, outp + (3 - i) * SIMT_PAGE_SIZE,
                       dst + i * SIMT_PAGE_SIZE, SIMT_PAGE_SIZE);
        map_sys(d, 1, VA_DATA + i * SIMT_PAGE_SIZE,
                in + order[i] * SIMT_PAGE_SIZE, SIMT_PTE_R);
        map_sys(d, 1, VA_OUT + i * SIMT_PAGE_SIZE,
                outp + (3 - i) * SIMT_PAGE_SIZE, SIMT_PTE_R | SIMT_PTE_W);
    }
    map_page(d, 1, VA_OUT + 0x10000, vout, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 1, 1);
    vram_get(d, in + SIMT_PAGE_SIZE, vram_before, SIMT_PAGE_SIZE);

    memcpy(dst + 4, src + 8, words * 4);
    mem_run_ok(d, 1, &(MemLaunch) {
        .kernel = "copy_words", .grid = 4, .block = 128,
        .args = { VA_DATA + 8, VA_OUT + 4, words },
    }, NULL);
    for (unsigned i = 0; i < 4; i++) {
        qtest_bufread(d->qts, outp + (3 - i) * SIMT_PAGE_SIZE,
                      got + i * SIMT_PAGE_SIZE, SIMT_PAGE_SIZE);
    }
    g_assert_cmpmem(got, 4 * SIMT_PAGE_SIZE, dst, 4 * SIMT_PAGE_SIZE);
    /* The same numbers as VRAM offsets were not touched. */
    vram_get(d, in + SIMT_PAGE_SIZE, got, SIMT_PAGE_SIZE);
    g_assert_cmpmem(got, SIMT_PAGE_SIZE, vram_before, SIMT_PAGE_SIZE);

    /* A word of system memory into VRAM; a store into system memory. */
    vram_wr32(d, vout, 0xdeadbeef);
    mem_run_ok(d, 1, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT + 0x10000, VA_DATA + 3 * SIMT_PAGE_SIZE + 12 },
    }, NULL);
    g_assert_cmphex(vram_rd32(d, vout), ==,
                    (uint32_t)ldl_le_p(src + 3 * SIMT_PAGE_SIZE + 12));
    mem_run_ok(d, 1, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_OUT + 2 * SIMT_PAGE_SIZE + 0x40, 0x5ca1ab1e },
    }, NULL);
    g_assert_cmphex(qtest_readl(d->qts, outp + SIMT_PAGE_SIZE + 0x40), ==,
                    0x5ca1ab1e);

    /*
     * Context 2 runs the kernel image from guest RAM: the VRAM copy is
     * wiped first, so only fetches by DMA find the code.
     */
    img = g_malloc(code_bytes);
    vram_get(d, start, img, code_bytes);
    qtest_bufwrite(d->qts, code, img, code_bytes);
    memset(img, 0, code_bytes);
    vram_write(d, start, img, code_bytes);
    space_init(d, 2);
    for (uint32_t a = 0; a < code_bytes; a += SIMT_PAGE_SIZE) {
        map_sys(d, 2, start + a, code + a, SIMT_PTE_R | SIMT_PTE_X);
    }
    map_page(d, 2, VA_OUT, vout, SIMT_PTE_R | SIMT_PTE_W);
    map_sys(d, 2, VA_DATA, in, SIMT_PTE_R);
    tlb_inv(d, SIMT_TLB_INV_CTX, 2, 0);
    queue_bind(d, 2, 2);
    /* VA_DATA is guest page in + 0, which holds input page 2. */
    g_assert_cmphex(load_word(d, 2, VA_DATA + 20, vout), ==,
                    (uint32_t)ldl_le_p(src + 2 * SIMT_PAGE_SIZE + 20));
    /* The code pages beyond guest RAM: the first fetch faults. */
    for (uint32_t a = 0; a < code_bytes; a += SIMT_PAGE_SIZE) {
        map_sys(d, 2, start + a, SYS_BEYOND + a, SIMT_PTE_R | SIMT_PTE_X);
    }
    tlb_inv(d, SIMT_TLB_INV_CTX, 2, 0);
    expect_kernel_fault(d, 2, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, VA_DATA },
    }, simt_image_kernel(d->img, "load_from")->m.entry,
       SIMT_ACCESS_FETCH, SIMT_MMU_BEYOND);
    dev_stop(d);
}

/* Atomics on system memory stay atomic per lane: 512 threads, 16 words. */
static void test_sys_atomic(void)
{
    Dev *d = mem_dev_start(NULL);
    const uint32_t n = 16, threads = 4 * 128;
    const uint64_t buf = SYS_BUF + 0x800;
    uint32_t init[17], want[17], got[17];

    for (uint32_t i = 0; i <= n; i++) {
        want[i] = i * 1000;
        init[i] = cpu_to_le32(want[i]);
    }
    for (uint32_t t = 0; t < threads; t++) {
        want[t % n] += t + 1;
        want[n] = MAX(want[n], t);
    }
    qtest_memwrite(d->qts, buf, init, sizeof(init));
    space_init(d, 1);
    map_sys(d, 1, VA_DATA, SYS_BUF, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);
    mem_run_ok(d, 0, &(MemLaunch) {
        .kernel = "atomic_words", .grid = 4, .block = 128,
        .args = { VA_DATA + 0x800, n },
    }, NULL);
    qtest_memread(d->qts, buf, got, sizeof(got));
    for (uint32_t i = 0; i <= n; i++) {
        g_assert_cmpuint(le32_to_cpu(got[i]), ==, want[i]);
    }

    /* Read-only system page: the atomic faults on its store. */
    map_sys(d, 1, VA_DATA, SYS_BUF, SIMT_PTE_R);
    tlb_inv(d, SIMT_TLB_INV_PAGE, 1, VA_DATA);
    expect_kernel_fault_in(d, 0, &(MemLaunch) {
        .kernel = "atomic_words", .grid = 1, .block = 32,
        .args = { VA_DATA + 0x800, n },
    }, VA_DATA + 0x800, VA_DATA + 0x800 + 4 * n, SIMT_ACCESS_STORE,
       SIMT_MMU_PERMISSION);
    qtest_memread(d->qts, buf, got, sizeof(got));
    for (uint32_t i = 0; i <= n; i++) {
        g_assert_cmpuint(le32_to_cpu(got[i]), ==, want[i]);
    }
    dev_stop(d);
}

/*
 * Copies with device addresses in system pages: guest RAM mapped at
 * VA_DATA (three pages, not contiguous) to and from VRAM, between two
 * system ranges, and from the host side, across page boundaries.
 */
static void test_sys_copy(void)
{
    Dev *d = mem_dev_start(NULL);
    const uint32_t size = 3 * SIMT_PAGE_SIZE - 200;
    uint32_t vpage = data_pages(d, 4, 210);
    g_autofree uint8_t *src = g_malloc(size);
    g_autofree uint8_t *got = g_malloc(4 * SIMT_PAGE_SIZE);

    space_init(d, 1);
    for (unsigned i = 0; i < 4; i++) {
        /* Guest pages 6, 4, 2, 0 of SYS_BUF; output pages 9, 11, 13, 15. */
        map_sys(d, 1, VA_DATA + i * SIMT_PAGE_SIZE,
                SYS_BUF + (6 - 2 * i) * SIMT_PAGE_SIZE,
                SIMT_PTE_R | SIMT_PTE_W);
        map_sys(d, 1, VA_OUT + i * SIMT_PAGE_SIZE,
                SYS_BUF + (9 + 2 * i) * SIMT_PAGE_SIZE,
                SIMT_PTE_R | SIMT_PTE_W);
        map_page(d, 1, VA_OUT + 0x10000 + i * SIMT_PAGE_SIZE,
                 vpage + i * SIMT_PAGE_SIZE, SIMT_PTE_R | SIMT_PTE_W);
    }
    queue_bind(d, 0, 1);

    /* Host to system pages. */
    fill(src, size, 211);
    qtest_bufwrite(d->qts, HOST_SRC, src, size);
    copy_ok(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, VA_DATA + 100, size);
    qtest_bufread(d->qts, SYS_BUF + 6 * SIMT_PAGE_SIZE + 100, got,
                  SIMT_PAGE_SIZE - 100);
    g_assert_cmpmem(got, SIMT_PAGE_SIZE - 100, src, SIMT_PAGE_SIZE - 100);
    qtest_bufread(d->qts, SYS_BUF + 4 * SIMT_PAGE_SIZE, got, SIMT_PAGE_SIZE);
    g_assert_cmpmem(got, SIMT_PAGE_SIZE, src + SIMT_PAGE_SIZE - 100,
                    SIMT_PAGE_SIZE);
    qtest_bufread(d->qts, SYS_BUF + 2 * SIMT_PAGE_SIZE, got,
                  SIMT_PAGE_SIZE - 100);
    g_assert_cmpmem(got, SIMT_PAGE_SIZE - 100,
                    src + 2 * SIMT_PAGE_SIZE - 100, SIMT_PAGE_SIZE - 100);

    /* System pages to VRAM (through the context), then back. */
    copy_ok(d, 0, 0, VA_DATA + 100, VA_OUT + 0x10000 + 7, size);
    for (unsigned i = 0; i < 4; i++) {
        vram_get(d, vpage + i * SIMT_PAGE_SIZE, got + i * SIMT_PAGE_SIZE,
                  SIMT_PAGE_SIZE);
    }
    g_assert_cmpmem(got + 7, size, src, size);
    copy_ok(d, 0, 0, VA_OUT + 0x10000 + 7, VA_OUT + 3, size);
    qtest_bufread(d->qts, SYS_BUF + 9 * SIMT_PAGE_SIZE + 3, got,
                  SIMT_PAGE_SIZE - 3);
    g_assert_cmpmem(got, SIMT_PAGE_SIZE - 3, src, SIMT_PAGE_SIZE - 3);
    qtest_bufread(d->qts, SYS_BUF + 11 * SIMT_PAGE_SIZE, got,
                  SIMT_PAGE_SIZE);
    g_assert_cmpmem(got, SIMT_PAGE_SIZE, src + SIMT_PAGE_SIZE - 3,
                    SIMT_PAGE_SIZE);

    /* System to system through the context, and system to the host. */
    copy_ok(d, 0, 0, VA_OUT + 3, VA_DATA + 2 * SIMT_PAGE_SIZE + 1, 4000);
    qtest_bufread(d->qts, SYS_BUF + 2 * SIMT_PAGE_SIZE + 1, got, 4000);
    g_assert_cmpmem(got, 4000, src, 4000);
    copy_ok(d, 0, SIMT_CMDF_DST_HOST, VA_OUT + 3, HOST_DST, size);
    qtest_bufread(d->qts, HOST_DST, got, size);
    g_assert_cmpmem(got, size, src, size);
    dev_stop(d);
}

/*
 * SIMT_PTE_SYS only in 4 KiB leaves: on a superpage or on a pointer to a
 * level-0 table it is malformed; a system page beyond guest RAM faults
 * (loads, stores, copies) with nothing written anywhere, and the device
 * goes on.
 */
static void test_sys_faults(void)
{
    Dev *d = mem_dev_start(NULL);
    uint32_t out = data_pages(d, 1, 220), table = pt_page(d);
    const uint32_t vsuper = 0x80000000u, vtable = 0x80400000u;
    uint8_t src[64], zero[64] = { 0 }, got[64];

    space_init(d, 1);
    map_page(d, 1, VA_OUT, out, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);

    /* A system superpage: kernels and copies alike. */
    vram_wr32(d, ctx_root(d, 1) + (vsuper >> 22) * 4,
              sys_leaf(0, SIMT_PTE_R | SIMT_PTE_W));
    tlb_inv(d, SIMT_TLB_INV_ALL, 0, 0);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, vsuper + 0x1230 },
    }, vsuper + 0x1230, SIMT_ACCESS_LOAD, SIMT_MMU_MALFORMED);
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_DST_HOST, vsuper + 8, HOST_DST,
                          64, vsuper + 8, SIMT_ACCESS_COPY_READ,
                          SIMT_MMU_MALFORMED);
    /* The same entry without the bit is a good superpage. */
    vram_wr32(d, ctx_root(d, 1) + (vsuper >> 22) * 4,
              pte_leaf(0, SIMT_PTE_R | SIMT_PTE_W));
    tlb_inv(d, SIMT_TLB_INV_ALL, 0, 0);
    g_assert_cmphex(load_word(d, 0, vsuper + 0x40, out), ==,
                    vram_rd32(d, 0x40));

    /* A level-1 pointer with the bit, even to a good table. */
    vram_wr32(d, table + ((vtable >> 12) & 0x3ff) * 4,
              sys_leaf(SYS_BUF, SIMT_PTE_R));
    vram_wr32(d, ctx_root(d, 1) + (vtable >> 22) * 4,
              pte_leaf(table, SIMT_PTE_SYS));
    tlb_inv(d, SIMT_TLB_INV_ALL, 0, 0);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, vtable + 4 },
    }, vtable + 4, SIMT_ACCESS_LOAD, SIMT_MMU_MALFORMED);
    vram_wr32(d, ctx_root(d, 1) + (vtable >> 22) * 4, pte_leaf(table, 0));
    tlb_inv(d, SIMT_TLB_INV_ALL, 0, 0);
    qtest_writel(d->qts, SYS_BUF + 4, 0x0badf00d);
    g_assert_cmphex(load_word(d, 0, vtable + 4, out), ==, 0x0badf00d);

    /* A system page beyond guest RAM. */
    map_sys(d, 1, VA_DATA, SYS_BEYOND, SIMT_PTE_R | SIMT_PTE_W);
    tlb_inv(d, SIMT_TLB_INV_ALL, 0, 0);
    vram_wr32(d, out, 0x12345678);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, VA_DATA + 0x24 },
    }, VA_DATA + 0x24, SIMT_ACCESS_LOAD, SIMT_MMU_BEYOND);
    g_assert_cmphex(vram_rd32(d, out), ==, 0x12345678);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_DATA + 0x28, 1 },
    }, VA_DATA + 0x28, SIMT_ACCESS_STORE, SIMT_MMU_BEYOND);
    expect_kernel_fault_in(d, 0, &(MemLaunch) {
        .kernel = "atomic_words", .grid = 1, .block = 32,
        .args = { VA_DATA, 4 },
    }, VA_DATA, VA_DATA + 16, SIMT_ACCESS_LOAD, SIMT_MMU_BEYOND);
    fill(src, sizeof(src), 221);
    qtest_bufwrite(d->qts, HOST_SRC, src, sizeof(src));
    qtest_bufwrite(d->qts, HOST_DST, zero, sizeof(zero));
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, VA_DATA + 8,
                          sizeof(src), VA_DATA + 8, SIMT_ACCESS_COPY_WRITE,
                          SIMT_MMU_BEYOND);
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_DST_HOST, VA_DATA + 8, HOST_DST,
                          sizeof(src), VA_DATA + 8, SIMT_ACCESS_COPY_READ,
                          SIMT_MMU_BEYOND);
    qtest_bufread(d->qts, HOST_DST, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), zero, sizeof(zero));

    /*
     * A system page on the device's own registers: kernels and copies
     * cannot re-enter the device; the access fails as a DMA error would.
     */
    for (uint32_t a = 0; a < SIMT_REGS_SIZE; a += SIMT_PAGE_SIZE) {
        map_sys(d, 1, VA_DATA + a, d->regs.addr + a,
                SIMT_PTE_R | SIMT_PTE_W);
    }
    tlb_inv(d, SIMT_TLB_INV_CTX, 1, 0);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, VA_DATA + SIMT_REG_ID },
    }, VA_DATA + SIMT_REG_ID, SIMT_ACCESS_LOAD, SIMT_MMU_BEYOND);
    expect_kernel_fault(d, 0, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_DATA + SIMT_QUEUE_REG(0, SIMT_QREG_CONTROL),
                  SIMT_QCTL_RESET },
    }, VA_DATA + SIMT_QUEUE_REG(0, SIMT_QREG_CONTROL), SIMT_ACCESS_STORE,
       SIMT_MMU_BEYOND);
    expect_copy_mmu_fault(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC,
                          VA_DATA + SIMT_REG_SCRATCH, 4,
                          VA_DATA + SIMT_REG_SCRATCH,
                          SIMT_ACCESS_COPY_WRITE, SIMT_MMU_BEYOND);
    g_assert_cmphex(rd(d, SIMT_REG_SCRATCH), ==, 0);

    /* The device goes on: the page pointed at guest RAM works. */
    map_sys(d, 1, VA_DATA, SYS_BUF, SIMT_PTE_R | SIMT_PTE_W);
    tlb_inv(d, SIMT_TLB_INV_PAGE, 1, VA_DATA);
    copy_ok(d, 0, SIMT_CMDF_SRC_HOST, HOST_SRC, VA_DATA + 8, sizeof(src));
    qtest_bufread(d->qts, SYS_BUF + 8, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), src, sizeof(src));
    dev_stop(d);
}

/*
 * A system page of context 1 is not context 2's: the same virtual
 * address faults there, or reaches context 2's own page; writes of one
 * context leave the other's guest RAM alone.
 */
static void test_sys_isolation(void)
{
    Dev *d = mem_dev_start(NULL);
    uint32_t out1 = data_pages(d, 1, 230), out2 = data_pages(d, 1, 231);
    const uint64_t p1 = SYS_BUF, p2 = SYS_BUF + 5 * SIMT_PAGE_SIZE;

    qtest_writel(d->qts, p1 + 16, 0x11111111);
    qtest_writel(d->qts, p2 + 16, 0x22222222);
    space_init(d, 1);
    space_init(d, 2);
    map_sys(d, 1, VA_DATA, p1, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 1, VA_OUT, out1, SIMT_PTE_R | SIMT_PTE_W);
    map_page(d, 2, VA_OUT, out2, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);
    queue_bind(d, 1, 2);

    g_assert_cmphex(load_word(d, 0, VA_DATA + 16, out1), ==, 0x11111111);
    expect_kernel_fault(d, 1, &(MemLaunch) {
        .kernel = "load_from", .grid = 1, .block = 1,
        .args = { VA_OUT, VA_DATA + 16 },
    }, VA_DATA + 16, SIMT_ACCESS_LOAD, SIMT_MMU_UNMAPPED);
    expect_copy_mmu_fault(d, 1, SIMT_CMDF_DST_HOST, VA_DATA, HOST_DST, 64,
                          VA_DATA, SIMT_ACCESS_COPY_READ, SIMT_MMU_UNMAPPED);
    /* Nor by its guest-physical address, as a device address. */
    expect_kernel_fault(d, 1, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { (uint32_t)p1 + 16, 0xbad },
    }, (uint32_t)p1 + 16, SIMT_ACCESS_STORE, SIMT_MMU_UNMAPPED);

    map_sys(d, 2, VA_DATA, p2, SIMT_PTE_R | SIMT_PTE_W);
    tlb_inv(d, SIMT_TLB_INV_PAGE, 2, VA_DATA);
    g_assert_cmphex(load_word(d, 1, VA_DATA + 16, out2), ==, 0x22222222);
    mem_run_ok(d, 1, &(MemLaunch) {
        .kernel = "store_word", .grid = 1, .block = 1,
        .args = { VA_DATA + 16, 0x33333333 },
    }, NULL);
    g_assert_cmphex(qtest_readl(d->qts, p2 + 16), ==, 0x33333333);
    g_assert_cmphex(qtest_readl(d->qts, p1 + 16), ==, 0x11111111);
    g_assert_cmphex(load_word(d, 0, VA_DATA + 16, out1), ==, 0x11111111);
    g_assert_cmpuint(crd(d, 1, SIMT_CREG_FAULT), ==, 0);
    dev_stop(d);
}

/*
 * Invalidating one page of a superpage drops the whole superpage's
 * translation, as sfence.vma does for the leaf that maps the address.
 */
static void test_tlb_superpage_invalidate(void)
{
    Dev *d = mem_dev_start(NULL);
    const uint32_t va = 0x80000000u;
    const uint64_t pa0 = 0x4000000, pa1 = 0x9000000;
    uint32_t out = data_pages(d, 1, 110);

    vram_wr32(d, pa0 + 0x5000, 0x1111);
    vram_wr32(d, pa1 + 0x5000, 0x2222);
    space_init(d, 1);
    map_super(d, 1, va, pa0, SIMT_PTE_R);
    map_page(d, 1, VA_OUT, out, SIMT_PTE_R | SIMT_PTE_W);
    queue_bind(d, 0, 1);
    g_assert_cmphex(load_word(d, 0, va + 0x5000, out), ==, 0x1111);
    map_super(d, 1, va, pa1, SIMT_PTE_R);
    g_assert_cmphex(load_word(d, 0, va + 0x5000, out), ==, 0x1111);
    tlb_inv(d, SIMT_TLB_INV_PAGE, 1, va + 0x1000);
    g_assert_cmphex(load_word(d, 0, va + 0x5000, out), ==, 0x2222);
    dev_stop(d);
}

/*
 * Bench mode ($SIMT_BENCH_COPY set, by scripts/bench.sh): host-side
 * throughput of large copies, and the latency of a high-priority copy
 * behind a 64 MiB one for several chunk sizes.
 */
static double bench_copy_rate(uint32_t flags, uint64_t src, uint64_t dst)
{
    const uint64_t size = 64 * MiB;
    Dev *d = mem_dev_start(NULL);
    int64_t step = cycles_ns(d, DIV_ROUND_UP(size,
                                             rd(d, SIMT_REG_COPY_BW)) / 64);
    double best = 0;

    if (flags & SIMT_CMDF_SRC_HOST) {
        qtest_memset(d->qts, src, 0x5a, size);
    }
    /* The first run touches every page; the best of the next three. */
    for (int run = 0; run < 4; run++) {
        uint64_t bytes = all_engine_bytes(d);
        gint64 t0 = g_get_monotonic_time();
        uint32_t idx = copy_cmd(d, 0, flags, src, dst, size);
        double t;

        g_assert_cmpuint(wait_queue_step(d, 0, idx, step, NULL), ==,
                         SIMT_QSTATE_IDLE);
        t = (g_get_monotonic_time() - t0) / 1e6;
        g_assert_cmpuint(all_engine_bytes(d), ==, bytes + size);
        if (run == 1 || (run > 1 && t < best)) {
            best = t;
        }
    }
    dev_stop(d);
    return size / best;
}

static void bench_copy(void)
{
    static const struct {
        const char *name;
        uint32_t chunk;
    } chunks[] = {
        { "64k", 64 * KiB }, { "1m", MiB }, { "4m", 4 * MiB },
    };

    g_test_message("bench copy_h2d_64m_rate: %.4g B/s",
                   bench_copy_rate(SIMT_CMDF_SRC_HOST, HOST_BUF, 0x2000000));
    g_test_message("bench copy_d2h_64m_rate: %.4g B/s",
                   bench_copy_rate(SIMT_CMDF_DST_HOST, 0x2000000, HOST_BUF));
    g_test_message("bench copy_d2d_64m_rate: %.4g B/s",
                   bench_copy_rate(0, 0x2000000, 0x8000000));
    for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
        g_test_message("bench copy_hp_latency_chunk_%s: %" PRIu64 " cycles",
                       chunks[i].name,
                       hp_copy_latency(chunks[i].chunk, false));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!simt_qtest_init()) {
        /* Run by QEMU's own qtest suite, without our host build. */
        return g_test_run();
    }
    if (g_getenv("SIMT_BENCH_COPY")) {
        qtest_add_func("/simt/bench/copy", bench_copy);
        return g_test_run();
    }

    qtest_add_func("/simt/copy/sizes", test_copy_sizes);
    qtest_add_func("/simt/copy/ident-writes-leave-the-chunk-size",
                   test_ident_writes_ignored);
    qtest_add_func("/simt/copy/chunks", test_copy_chunks);
    qtest_add_func("/simt/copy/vram-edges", test_copy_vram_edges);
    qtest_add_func("/simt/copy/past-edge", test_copy_past_edge);
    qtest_add_func("/simt/copy/time-model", test_copy_time_model);
    qtest_add_func("/simt/copy/priority", test_copy_priority);
    qtest_add_func("/simt/copy/priority-64k", test_copy_priority_small_chunks);
    qtest_add_func("/simt/copy/kernel-overlap", test_copy_kernel_overlap);
    qtest_add_func("/simt/mmu/pages", test_translate_pages);
    qtest_add_func("/simt/mmu/superpages", test_translate_superpages);
    qtest_add_func("/simt/mmu/tlb-invalidate", test_tlb_invalidate);
    qtest_add_func("/simt/mmu/fault-unmapped", test_fault_unmapped);
    qtest_add_func("/simt/mmu/fault-first-stays", test_fault_first_stays);
    qtest_add_func("/simt/mmu/fault-permission", test_fault_permission);
    qtest_add_func("/simt/mmu/fault-malformed", test_fault_malformed);
    qtest_add_func("/simt/mmu/isolation", test_isolation);
    qtest_add_func("/simt/mmu/local", test_translate_local);
    qtest_add_func("/simt/copy/pipeline", test_copy_kernel_pipeline);
    qtest_add_func("/simt/copy/engines", test_copy_engines);
    qtest_add_func("/simt/mem/registers", test_mem_registers);
    qtest_add_func("/simt/copy/partial-fault", test_copy_partial_fault);
    qtest_add_func("/simt/copy/cancel", test_copy_cancel);
    qtest_add_func("/simt/mmu/tlb-superpage", test_tlb_superpage_invalidate);
    qtest_add_func("/simt/mmu/vram-edge", test_translate_vram_edge);
    qtest_add_func("/simt/mmu/sys-kernel", test_sys_kernel);
    qtest_add_func("/simt/mmu/sys-atomic", test_sys_atomic);
    qtest_add_func("/simt/mmu/sys-copy", test_sys_copy);
    qtest_add_func("/simt/mmu/sys-faults", test_sys_faults);
    qtest_add_func("/simt/mmu/sys-isolation", test_sys_isolation);

    return g_test_run();
}
