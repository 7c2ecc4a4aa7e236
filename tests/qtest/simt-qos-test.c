// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QTest for the simt accelerator on QEMU's qgraph (libqos/simt.c), so on
 * every machine of the build with a PCI bus: identification, BARs,
 * registers, reset, MSI-X delivery and bad accesses.
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "libqtest-single.h"
#include "libqos/qgraph.h"
#include "libqos/pci.h"
#include "libqos/simt.h"
#include "hw/pci/pci_regs.h"
#include "hw/simt/simt-hw.h"

static QTestState *qts(QSimt *t)
{
    return t->dev.bus->qts;
}

static uint32_t rd(QSimt *t, uint64_t off)
{
    return qpci_io_readl(&t->dev, t->regs, off);
}

static void wr(QSimt *t, uint64_t off, uint32_t val)
{
    qpci_io_writel(&t->dev, t->regs, off, val);
}

static void test_identification(void *obj, void *data, QGuestAllocator *alloc)
{
    QSimt *t = obj;

    g_assert_cmphex(qpci_config_readw(&t->dev, PCI_VENDOR_ID), ==,
                    SIMT_PCI_VENDOR_ID);
    g_assert_cmphex(qpci_config_readw(&t->dev, PCI_DEVICE_ID), ==,
                    SIMT_PCI_DEVICE_ID);
    g_assert_cmphex(qpci_config_readw(&t->dev, PCI_CLASS_DEVICE), ==,
                    SIMT_PCI_CLASS_CODE);
    g_assert_cmphex(qpci_config_readb(&t->dev, PCI_REVISION_ID), ==,
                    SIMT_PCI_REVISION);
    g_assert_cmphex(qpci_find_capability(&t->dev, PCI_CAP_ID_EXP, 0), !=, 0);

    g_assert_cmphex(rd(t, SIMT_REG_ID), ==, SIMT_ID_MAGIC);
    g_assert_cmphex(rd(t, SIMT_REG_VERSION), ==, SIMT_VERSION_VALUE);
    g_assert_cmphex(rd(t, SIMT_REG_CAPS) & SIMT_CAP_MSIX, ==, SIMT_CAP_MSIX);
    g_assert_cmpuint(rd(t, SIMT_REG_SM_COUNT), ==, QSIMT_SM_COUNT);
    g_assert_cmphex(rd(t, SIMT_REG_VRAM_SIZE_LO), ==,
                    (uint32_t)QSIMT_VRAM_SIZE);
    g_assert_cmphex(rd(t, SIMT_REG_VRAM_SIZE_HI), ==, QSIMT_VRAM_SIZE >> 32);
}

static void test_bar_sizes(void *obj, void *data, QGuestAllocator *alloc)
{
    QSimt *t = obj;
    uint64_t vram_size, msix_size;
    uint32_t bar2 = qpci_config_readl(&t->dev, PCI_BASE_ADDRESS_2);
    QPCIBar vram, msix;

    g_assert_cmpuint(t->regs_size, ==, SIMT_REGS_SIZE);
    g_assert_cmphex(bar2 & PCI_BASE_ADDRESS_MEM_TYPE_MASK, ==,
                    PCI_BASE_ADDRESS_MEM_TYPE_64);
    g_assert_cmphex(bar2 & PCI_BASE_ADDRESS_MEM_PREFETCH, ==,
                    PCI_BASE_ADDRESS_MEM_PREFETCH);

    vram = qpci_iomap(&t->dev, SIMT_BAR_VRAM, &vram_size);
    g_assert_cmpuint(vram_size, ==, QSIMT_VRAM_SIZE);
    /* VRAM is plain memory at both ends of the aperture. */
    qpci_io_writel(&t->dev, vram, 0, 0x11223344);
    qpci_io_writel(&t->dev, vram, vram_size - 4, 0x55667788);
    g_assert_cmphex(qpci_io_readl(&t->dev, vram, 0), ==, 0x11223344);
    g_assert_cmphex(qpci_io_readl(&t->dev, vram, vram_size - 4), ==,
                    0x55667788);

    msix = qpci_iomap(&t->dev, SIMT_BAR_MSIX, &msix_size);
    g_assert_cmpuint(msix_size, >=, SIMT_IRQ_NR * PCI_MSIX_ENTRY_SIZE);
    qpci_iounmap(&t->dev, msix);
    qpci_iounmap(&t->dev, vram);
}

static void test_scratch(void *obj, void *data, QGuestAllocator *alloc)
{
    static const uint32_t patterns[] = {
        0, 0xffffffff, 0xa5a5a5a5, 0x5a5a5a5a, 0x00000001, 0x80000000,
    };
    QSimt *t = obj;

    g_assert_cmphex(rd(t, SIMT_REG_SCRATCH), ==, 0);
    for (size_t i = 0; i < ARRAY_SIZE(patterns); i++) {
        wr(t, SIMT_REG_SCRATCH, patterns[i]);
        g_assert_cmphex(rd(t, SIMT_REG_SCRATCH), ==, patterns[i]);
    }
}

/* The contract's lists of registers, window by window */
static const struct simt_reg_desc global_regs[] = {
    SIMT_GLOBAL_REGS(SIMT_REG_DESC)
};
static const struct simt_reg_desc queue_regs[] = {
    SIMT_QUEUE_REGS(SIMT_REG_DESC)
};
static const struct simt_reg_desc ctx_regs[] = {
    SIMT_CTX_REGS(SIMT_REG_DESC)
};
static const struct simt_reg_desc engine_regs[] = {
    SIMT_ENGINE_REGS(SIMT_REG_DESC)
};

typedef struct RegWindow {
    const char *name;
    uint64_t base;
    uint64_t stride;
    uint32_t count_reg;         /* register holding how many, 0: one */
    const struct simt_reg_desc *regs;
    size_t nregs;
} RegWindow;

static const RegWindow windows[] = {
    { "global", 0, 0, 0, global_regs, ARRAY_SIZE(global_regs) },
    { "queue", SIMT_QUEUE_BASE, SIMT_QUEUE_STRIDE, SIMT_REG_QUEUE_COUNT,
      queue_regs, ARRAY_SIZE(queue_regs) },
    { "context", SIMT_CTX_BASE, SIMT_CTX_STRIDE, SIMT_REG_CONTEXT_COUNT,
      ctx_regs, ARRAY_SIZE(ctx_regs) },
    { "copy engine", SIMT_COPY_BASE, SIMT_COPY_STRIDE, SIMT_REG_COPY_ENGINES,
      engine_regs, ARRAY_SIZE(engine_regs) },
};

/* One register of the device: a window's entry for one of its blocks */
typedef struct Reg {
    uint64_t addr;
    const RegWindow *win;
    const struct simt_reg_desc *desc;
    unsigned idx;
} Reg;

/* Every register of the device, or of at most @per_window of each block. */
static GArray *all_regs(QSimt *t, unsigned per_window)
{
    GArray *regs = g_array_new(false, false, sizeof(Reg));

    for (size_t w = 0; w < ARRAY_SIZE(windows); w++) {
        const RegWindow *win = &windows[w];
        unsigned n = win->count_reg ? rd(t, win->count_reg) : 1;

        g_assert_cmpuint(n, >, 0);
        for (unsigned i = 0; i < MIN(n, per_window); i++) {
            for (size_t r = 0; r < win->nregs; r++) {
                Reg reg = {
                    win->base + i * win->stride + win->regs[r].offset,
                    win, &win->regs[r], i,
                };

                g_array_append_val(regs, reg);
            }
        }
    }
    return regs;
}

static void read_regs(QSimt *t, GArray *regs, uint32_t *v)
{
    for (guint i = 0; i < regs->len; i++) {
        Reg *r = &g_array_index(regs, Reg, i);

        v[i] = r->desc->access == SIMT_RA_WO ? 0 : rd(t, r->addr);
    }
}

/*
 * Every register the contract calls read-only (of the first two queues,
 * contexts and copy engines too), written with all ones, zero and
 * values other registers would take (a DMA chunk size, a preemption
 * mode, an interrupt mask), leaves every register as it was; write-only
 * ones read 0.
 */
static void test_read_only_writes(void *obj, void *data, QGuestAllocator *alloc)
{
    static const uint32_t values[] = {
        0xffffffff, 0, SIMT_MIN_DMA_CHUNK, 1, SIMT_IRQ_ALL,
    };
    QSimt *t = obj;
    g_autoptr(GArray) regs = all_regs(t, 2);
    g_autofree uint32_t *before = g_new(uint32_t, regs->len);
    g_autofree uint32_t *after = g_new(uint32_t, regs->len);
    size_t bytes = regs->len * sizeof(uint32_t);
    unsigned ro = 0;

    /* Something in the writable ones, so that a stray write would show */
    wr(t, SIMT_REG_SCRATCH, 0x5eed);
    wr(t, SIMT_REG_IRQ_MASK, SIMT_IRQ_BIT(SIMT_IRQ_QUEUE));
    wr(t, SIMT_REG_PREEMPT_BOUND, 12345);
    wr(t, SIMT_QUEUE_REG(1, SIMT_QREG_PRIORITY), 2);
    wr(t, SIMT_CTX_REG(1, SIMT_CREG_SAVE_SIZE), 0x1000);
    read_regs(t, regs, before);
    for (guint i = 0; i < regs->len; i++) {
        Reg *r = &g_array_index(regs, Reg, i);

        if (r->desc->access == SIMT_RA_WO) {
            g_assert_cmphex(rd(t, r->addr), ==, 0);
        }
        if (r->desc->access != SIMT_RA_RO) {
            continue;
        }
        ro++;
        for (size_t v = 0; v < ARRAY_SIZE(values); v++) {
            wr(t, r->addr, values[v]);
            read_regs(t, regs, after);
            for (guint j = 0; j < regs->len; j++) {
                if (after[j] != before[j]) {
                    g_test_message("writing 0x%x to 0x%" PRIx64 " changed "
                                   "0x%" PRIx64 " from 0x%x to 0x%x",
                                   values[v], r->addr,
                                   g_array_index(regs, Reg, j).addr,
                                   before[j], after[j]);
                }
            }
            g_assert_cmpmem(after, bytes, before, bytes);
        }
    }
    g_test_message("%u read-only registers, %zu values each", ro,
                   ARRAY_SIZE(values));
    g_assert_cmpuint(ro, >, 60);
}

/*
 * Registers whose reset value is fixed and differs from @v's; with
 * @report, each is named.
 */
static unsigned not_at_reset(GArray *regs, const uint32_t *v, bool report)
{
    unsigned differ = 0;

    for (guint i = 0; i < regs->len; i++) {
        Reg *r = &g_array_index(regs, Reg, i);

        if (r->desc->reset == SIMT_RESET_CONFIG || v[i] == r->desc->reset) {
            continue;
        }
        differ++;
        if (report) {
            g_test_message("%s %u register 0x%x (0x%" PRIx64 ") reads 0x%x, "
                           "not its reset value 0x%" PRIx64, r->win->name,
                           r->idx, r->desc->offset, r->addr, v[i],
                           r->desc->reset);
        }
    }
    return differ;
}

/*
 * Every register of every queue, context and copy engine reads its
 * contract reset value at power-on; then every writable one is written
 * (and a queue enabled on a bad ring, an interrupt raised, time let
 * pass), and after SIMT_REG_RESET every one reads its reset value again.
 */
static void test_reset_values(void *obj, void *data, QGuestAllocator *alloc)
{
    static const uint32_t values[] = { 0x5a5a5a5a, 1, 0x10000 };
    QSimt *t = obj;
    g_autoptr(GArray) regs = all_regs(t, UINT_MAX);
    g_autofree uint32_t *v = g_new(uint32_t, regs->len);
    unsigned fixed = 0, written = 0, changed;

    read_regs(t, regs, v);
    g_assert_cmpuint(not_at_reset(regs, v, true), ==, 0);
    for (guint i = 0; i < regs->len; i++) {
        Reg *r = &g_array_index(regs, Reg, i);

        fixed += r->desc->reset != SIMT_RESET_CONFIG;
        if (r->desc->access != SIMT_RA_RW &&
            r->desc->access != SIMT_RA_RW1C) {
            continue;
        }
        written++;
        for (size_t k = 0; k < ARRAY_SIZE(values); k++) {
            wr(t, r->addr, values[k]);
        }
    }
    wr(t, SIMT_QUEUE_REG(0, SIMT_QREG_CONTROL), SIMT_QCTL_ENABLE);
    wr(t, SIMT_REG_IRQ_RAISE, SIMT_IRQ_BIT(SIMT_IRQ_TEST));
    qtest_clock_step(qts(t), 1000000);
    read_regs(t, regs, v);
    changed = not_at_reset(regs, v, false);
    g_test_message("%u registers with a fixed reset value, %u of them "
                   "changed by writing %u", fixed, changed, written);
    g_assert_cmpuint(changed, >, written / 2);

    wr(t, SIMT_REG_RESET, SIMT_RESET_MAGIC);
    read_regs(t, regs, v);
    g_assert_cmpuint(not_at_reset(regs, v, true), ==, 0);
}

static void test_reset(void *obj, void *data, QGuestAllocator *alloc)
{
    QSimt *t = obj;

    wr(t, SIMT_REG_SCRATCH, 0xdeadbeef);
    wr(t, SIMT_REG_IRQ_MASK, SIMT_IRQ_BIT(SIMT_IRQ_ERROR));
    wr(t, SIMT_REG_IRQ_RAISE, SIMT_IRQ_BIT(SIMT_IRQ_TEST));

    /* Only the magic value resets. */
    wr(t, SIMT_REG_RESET, 1);
    g_assert_cmphex(rd(t, SIMT_REG_SCRATCH), ==, 0xdeadbeef);

    wr(t, SIMT_REG_RESET, SIMT_RESET_MAGIC);
    g_assert_cmphex(rd(t, SIMT_REG_SCRATCH), ==, 0);
    g_assert_cmphex(rd(t, SIMT_REG_IRQ_MASK), ==, 0);
    g_assert_cmphex(rd(t, SIMT_REG_IRQ_STATUS), ==, 0);
    g_assert_cmphex(rd(t, SIMT_REG_IRQ_COUNT), ==, 0);
    g_assert_cmphex(rd(t, SIMT_REG_ID), ==, SIMT_ID_MAGIC);

    /* A system reset clears the device as well. */
    wr(t, SIMT_REG_SCRATCH, 0x12345678);
    qtest_system_reset(qts(t));
    /* The reset cleared the BARs too: map the registers again. */
    qpci_device_enable(&t->dev);
    t->regs = qpci_iomap(&t->dev, SIMT_BAR_REGS, NULL);
    g_assert_cmphex(rd(t, SIMT_REG_ID), ==, SIMT_ID_MAGIC);
    g_assert_cmphex(rd(t, SIMT_REG_SCRATCH), ==, 0);
}

/*
 * Guest RAM the MSI-X messages are pointed at: one word per vector, each
 * written with its own data.
 */
#define MSI_DATA_BASE       0x5a000000u
static uint64_t msi_base;

static uint64_t msi_addr(unsigned int vector)
{
    return msi_base + vector * 4;
}

/* Point every vector at its own word of guest RAM from @alloc. */
static void msix_setup(QSimt *t, QGuestAllocator *alloc)
{
    QPCIDevice *dev = &t->dev;

    msi_base = guest_alloc(alloc, SIMT_IRQ_NR * 4);
    qpci_msix_enable(dev);
    g_assert_cmpuint(qpci_msix_table_size(dev), ==, SIMT_IRQ_NR);
    for (unsigned int v = 0; v < SIMT_IRQ_NR; v++) {
        uint64_t entry = dev->msix_table_off + v * PCI_MSIX_ENTRY_SIZE;

        qpci_io_writel(dev, dev->msix_table_bar,
                       entry + PCI_MSIX_ENTRY_LOWER_ADDR, msi_addr(v));
        qpci_io_writel(dev, dev->msix_table_bar,
                       entry + PCI_MSIX_ENTRY_UPPER_ADDR, 0);
        qpci_io_writel(dev, dev->msix_table_bar,
                       entry + PCI_MSIX_ENTRY_DATA, MSI_DATA_BASE + v);
        qpci_io_writel(dev, dev->msix_table_bar,
                       entry + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
        qtest_writel(qts(t), msi_addr(v), 0);
    }
}

static uint32_t msi_word(QSimt *t, unsigned int vector)
{
    return qtest_readl(qts(t), msi_addr(vector));
}

static void test_msix_test_interrupt(void *obj, void *data,
                                     QGuestAllocator *alloc)
{
    QSimt *t = obj;

    msix_setup(t, alloc);

    /* Masked in the device: latched in the status, nothing sent. */
    wr(t, SIMT_REG_IRQ_RAISE, SIMT_IRQ_BIT(SIMT_IRQ_TEST));
    g_assert_cmphex(rd(t, SIMT_REG_IRQ_STATUS), ==,
                    SIMT_IRQ_BIT(SIMT_IRQ_TEST));
    g_assert_cmphex(msi_word(t, SIMT_IRQ_TEST), ==, 0);
    g_assert_cmpuint(rd(t, SIMT_REG_IRQ_COUNT), ==, 0);

    /* Unmasking a pending class delivers it, on its own vector only. */
    wr(t, SIMT_REG_IRQ_MASK, SIMT_IRQ_ALL);
    g_assert_cmphex(msi_word(t, SIMT_IRQ_TEST), ==,
                    MSI_DATA_BASE + SIMT_IRQ_TEST);
    for (unsigned int v = 0; v < SIMT_IRQ_NR; v++) {
        if (v != SIMT_IRQ_TEST) {
            g_assert_cmphex(msi_word(t, v), ==, 0);
        }
    }
    g_assert_cmpuint(rd(t, SIMT_REG_IRQ_COUNT), ==, 1);

    /* Status is write-1-to-clear; raising again sends a new message. */
    wr(t, SIMT_REG_IRQ_STATUS, SIMT_IRQ_BIT(SIMT_IRQ_TEST));
    g_assert_cmphex(rd(t, SIMT_REG_IRQ_STATUS), ==, 0);
    qtest_writel(qts(t), msi_addr(SIMT_IRQ_TEST), 0);
    wr(t, SIMT_REG_IRQ_RAISE, SIMT_IRQ_BIT(SIMT_IRQ_TEST));
    g_assert_cmphex(msi_word(t, SIMT_IRQ_TEST), ==,
                    MSI_DATA_BASE + SIMT_IRQ_TEST);
    g_assert_cmpuint(rd(t, SIMT_REG_IRQ_COUNT), ==, 2);

    /* Still pending: a second raise is not a new edge. */
    qtest_writel(qts(t), msi_addr(SIMT_IRQ_TEST), 0);
    wr(t, SIMT_REG_IRQ_RAISE, SIMT_IRQ_BIT(SIMT_IRQ_TEST));
    g_assert_cmphex(msi_word(t, SIMT_IRQ_TEST), ==, 0);
    g_assert_cmpuint(rd(t, SIMT_REG_IRQ_COUNT), ==, 2);

    /* Software may raise only the test class. */
    wr(t, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);
    wr(t, SIMT_REG_IRQ_RAISE, SIMT_IRQ_BIT(SIMT_IRQ_ERROR));
    g_assert_cmphex(rd(t, SIMT_REG_IRQ_STATUS), ==, 0);
    g_assert_cmphex(msi_word(t, SIMT_IRQ_ERROR), ==, 0);

    /* A vector masked in the MSI-X table leaves its pending bit set. */
    qpci_io_writel(&t->dev, t->dev.msix_table_bar,
                   t->dev.msix_table_off +
                   SIMT_IRQ_TEST * PCI_MSIX_ENTRY_SIZE +
                   PCI_MSIX_ENTRY_VECTOR_CTRL, PCI_MSIX_ENTRY_CTRL_MASKBIT);
    qtest_writel(qts(t), msi_addr(SIMT_IRQ_TEST), 0);
    wr(t, SIMT_REG_IRQ_RAISE, SIMT_IRQ_BIT(SIMT_IRQ_TEST));
    g_assert_cmphex(msi_word(t, SIMT_IRQ_TEST), ==, 0);
    g_assert_true(qpci_msix_pending(&t->dev, SIMT_IRQ_TEST));

    qpci_msix_disable(&t->dev);
}

/*
 * The device must not act on itself through its own MSI-X messages: a
 * vector aimed at BAR0's RESET register with the reset magic as data,
 * left pending under the function mask, then released by clearing the
 * mask with a config-space write, does not reset the device.
 */
static void test_msix_self_message(void *obj, void *data,
                                   QGuestAllocator *alloc)
{
    QSimt *t = obj;
    QPCIDevice *dev = &t->dev;
    uint8_t cap;
    uint16_t ctrl;
    uint64_t entry;

    qpci_msix_enable(dev);
    cap = qpci_find_capability(dev, PCI_CAP_ID_MSIX, 0);
    g_assert_cmpuint(cap, !=, 0);
    entry = dev->msix_table_off + SIMT_IRQ_TEST * PCI_MSIX_ENTRY_SIZE;
    qpci_io_writel(dev, dev->msix_table_bar, entry + PCI_MSIX_ENTRY_LOWER_ADDR,
                   (uint32_t)(t->regs.addr + SIMT_REG_RESET));
    qpci_io_writel(dev, dev->msix_table_bar, entry + PCI_MSIX_ENTRY_UPPER_ADDR,
                   (uint32_t)((t->regs.addr + SIMT_REG_RESET) >> 32));
    qpci_io_writel(dev, dev->msix_table_bar, entry + PCI_MSIX_ENTRY_DATA,
                   SIMT_RESET_MAGIC);
    qpci_io_writel(dev, dev->msix_table_bar,
                   entry + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);

    /* Pending under the function mask. */
    ctrl = qpci_config_readw(dev, cap + PCI_MSIX_FLAGS);
    qpci_config_writew(dev, cap + PCI_MSIX_FLAGS,
                       ctrl | PCI_MSIX_FLAGS_MASKALL);
    wr(t, SIMT_REG_SCRATCH, 0x5e1f);
    wr(t, SIMT_REG_IRQ_MASK, SIMT_IRQ_ALL);
    wr(t, SIMT_REG_IRQ_RAISE, SIMT_IRQ_BIT(SIMT_IRQ_TEST));
    g_assert_true(qpci_msix_pending(dev, SIMT_IRQ_TEST));

    /* Released by a config-space write: the device must not see it. */
    qpci_config_writew(dev, cap + PCI_MSIX_FLAGS,
                       ctrl & ~PCI_MSIX_FLAGS_MASKALL);
    g_assert_cmphex(rd(t, SIMT_REG_SCRATCH), ==, 0x5e1f);
    g_assert_cmphex(rd(t, SIMT_REG_IRQ_MASK), ==, SIMT_IRQ_ALL);
    g_assert_cmphex(rd(t, SIMT_REG_IRQ_STATUS), ==,
                    SIMT_IRQ_BIT(SIMT_IRQ_TEST));
    qpci_msix_disable(dev);
}

static void test_bad_accesses(void *obj, void *data, QGuestAllocator *alloc)
{
    QSimt *t = obj;

    wr(t, SIMT_REG_SCRATCH, 0x01020304);

    /* Wrong sizes read as zero and writes of them are dropped. */
    g_assert_cmphex(qpci_io_readb(&t->dev, t->regs, SIMT_REG_ID), ==, 0);
    g_assert_cmphex(qpci_io_readw(&t->dev, t->regs, SIMT_REG_ID), ==, 0);
    g_assert_cmphex(qpci_io_readq(&t->dev, t->regs, SIMT_REG_ID), ==, 0);
    qpci_io_writeb(&t->dev, t->regs, SIMT_REG_SCRATCH, 0xff);
    qpci_io_writew(&t->dev, t->regs, SIMT_REG_SCRATCH, 0xffff);
    qpci_io_writeq(&t->dev, t->regs, SIMT_REG_SCRATCH, ~0ull);
    g_assert_cmphex(rd(t, SIMT_REG_SCRATCH), ==, 0x01020304);

    /* Unaligned 32-bit accesses likewise. */
    g_assert_cmphex(rd(t, SIMT_REG_ID + 1), ==, 0);
    wr(t, SIMT_REG_SCRATCH + 2, 0xffffffff);
    g_assert_cmphex(rd(t, SIMT_REG_SCRATCH), ==, 0x01020304);

    /* Read-only registers keep their value. */
    wr(t, SIMT_REG_ID, 0);
    wr(t, SIMT_REG_SM_COUNT, 99);
    wr(t, SIMT_REG_VRAM_SIZE_LO, 0);
    g_assert_cmphex(rd(t, SIMT_REG_ID), ==, SIMT_ID_MAGIC);
    g_assert_cmpuint(rd(t, SIMT_REG_SM_COUNT), ==, QSIMT_SM_COUNT);
    g_assert_cmphex(rd(t, SIMT_REG_VRAM_SIZE_LO), ==,
                    (uint32_t)QSIMT_VRAM_SIZE);

    /* Unknown offsets read as zero, writes to them change nothing. */
    g_assert_cmphex(rd(t, 0x0ffc), ==, 0);
    g_assert_cmphex(rd(t, SIMT_REGS_SIZE - 4), ==, 0);
    wr(t, SIMT_REGS_SIZE - 4, 0xffffffff);
    g_assert_cmphex(rd(t, SIMT_REGS_SIZE - 4), ==, 0);

    /* Mask bits beyond the defined classes do not stick. */
    wr(t, SIMT_REG_IRQ_MASK, 0xffffffff);
    g_assert_cmphex(rd(t, SIMT_REG_IRQ_MASK), ==, SIMT_IRQ_ALL);

    /* The device is still alive and unchanged. */
    g_assert_cmphex(rd(t, SIMT_REG_SCRATCH), ==, 0x01020304);
}

static void register_simt_tests(void)
{
    qos_add_test("identification", "simt", test_identification, NULL);
    qos_add_test("bar-sizes", "simt", test_bar_sizes, NULL);
    qos_add_test("scratch", "simt", test_scratch, NULL);
    qos_add_test("registers/read-only-writes-change-nothing", "simt",
                 test_read_only_writes, NULL);
    qos_add_test("registers/reset-values-from-the-contract", "simt",
                 test_reset_values, NULL);
    qos_add_test("reset", "simt", test_reset, NULL);
    qos_add_test("msix-test-interrupt", "simt", test_msix_test_interrupt,
                 NULL);
    qos_add_test("msix-message-to-itself-ignored", "simt",
                 test_msix_self_message, NULL);
    qos_add_test("bad-accesses", "simt", test_bad_accesses, NULL);
}

libqos_init(register_simt_tests);
