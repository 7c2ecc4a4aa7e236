/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Shared helpers of the simt qtests that run kernels (simt-qtest.h).
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qobject/qdict.h"
#include "simt-qtest.h"

/* Kernel images of $SIMT_KERNEL_DIR, loaded on first use. */
static const char *kernel_dir;
static GHashTable *images;

bool simt_qtest_init(void)
{
    kernel_dir = g_getenv("SIMT_KERNEL_DIR");
    if (!kernel_dir) {
        g_test_message("SIMT_KERNEL_DIR is not set: kernel tests skipped");
        return false;
    }
    images = g_hash_table_new(g_str_hash, g_str_equal);
    return true;
}

const struct simt_image *image_get(const char *name)
{
    struct simt_image *img = g_hash_table_lookup(images, name);
    g_autofree char *path = NULL;
    char err[256];

    if (!img) {
        img = g_new0(struct simt_image, 1);
        path = g_strdup_printf("%s/%s.elf", kernel_dir, name);
        if (simt_image_load(img, path, err, sizeof(err))) {
            g_error("%s", err);
        }
        g_hash_table_insert(images, g_strdup(name), img);
    }
    return img;
}

uint32_t fbits(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

uint32_t rd(Dev *d, uint64_t off)
{
    return qpci_io_readl(d->dev, d->regs, off);
}

void wr(Dev *d, uint64_t off, uint32_t val)
{
    qpci_io_writel(d->dev, d->regs, off, val);
}

uint32_t qrd(Dev *d, unsigned q, unsigned reg)
{
    return rd(d, SIMT_QUEUE_REG(q, reg));
}

void qwr(Dev *d, unsigned q, unsigned reg, uint32_t val)
{
    wr(d, SIMT_QUEUE_REG(q, reg), val);
}

void queue_setup(Dev *d, unsigned q, uint32_t prio)
{
    qwr(d, q, SIMT_QREG_BASE_LO, RING_ADDR(q));
    qwr(d, q, SIMT_QREG_BASE_HI, 0);
    qwr(d, q, SIMT_QREG_SIZE, RING_SIZE);
    qwr(d, q, SIMT_QREG_PRIORITY, prio);
    qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
    g_assert_cmpuint(SIMT_QSTATUS_STATE(qrd(d, q, SIMT_QREG_STATUS)), ==,
                     SIMT_QSTATE_IDLE);
    d->tail[q] = 0;
}

/*
 * Bytes per qtest command: the server scans a command's line for its end
 * each time more of it arrives, so a line of megabytes costs minutes.
 * Transfers go base64-encoded (b64write, b64read), which the client
 * encodes far faster than memwrite's two hex digits a byte.
 */
#define VRAM_CHUNK          0x10000

static void vram_write(Dev *d, uint64_t off, const void *data, size_t len)
{
    for (size_t at = 0; at < len; at += VRAM_CHUNK) {
        qtest_bufwrite(d->qts, d->vram.addr + off + at,
                       (const uint8_t *)data + at, MIN(len - at, VRAM_CHUNK));
    }
}

void use_image(Dev *d, const char *name)
{
    const struct simt_meta *m;
    g_autofree uint64_t *live = NULL;
    g_autofree uint32_t *pp = NULL;

    d->img = image_get(name);
    g_assert_cmpuint(d->img->base + d->img->size, <=, VRAM_DATA);
    vram_write(d, d->img->base, d->img->bytes, d->img->size);
    if (!d->img->has_meta) {
        return;
    }
    /* The live table, one mask per instruction of the code, as LAUNCH wants */
    m = &d->img->meta;
    g_assert_cmpuint(m->h.code_start, ==, d->img->code_start);
    g_assert_cmpuint(m->nlive * 8, <=, VRAM_LOCAL - VRAM_LIVE);
    live = g_new(uint64_t, m->nlive);
    for (uint32_t i = 0; i < m->nlive; i++) {
        live[i] = cpu_to_le64(m->live[i]);
    }
    vram_write(d, VRAM_LIVE, live, m->nlive * 8);
    /* Its preemption points after it */
    d->pp_addr = VRAM_LIVE + ROUND_UP(m->nlive * 8, 256);
    g_assert_cmpuint(d->pp_addr + m->h.pp_count * 4, <=, VRAM_LOCAL);
    pp = g_new(uint32_t, MAX(m->h.pp_count, 1));
    for (uint32_t i = 0; i < m->h.pp_count; i++) {
        pp[i] = cpu_to_le32(m->pp[i]);
    }
    vram_write(d, d->pp_addr, pp, m->h.pp_count * 4);
}

Dev *dev_start(const char *props)
{
    Dev *d = g_new0(Dev, 1);

    d->args = g_strdup_printf("-M q35 -nodefaults -device simt,addr=04.0%s%s",
                              props ? "," : "", props ? props : "");
    d->qts = qtest_init(d->args);
    d->bus = qpci_new_pc(d->qts, NULL);
    d->dev = qpci_device_find(d->bus, SIMT_DEVFN);
    g_assert_nonnull(d->dev);
    qpci_device_enable(d->dev);
    d->regs = qpci_iomap(d->dev, SIMT_BAR_REGS, NULL);
    /* Before VRAM, which fills the rest of libqos's PCI window. */
    d->doorbell = qpci_iomap(d->dev, SIMT_BAR_DOORBELL, NULL);
    d->vram = qpci_iomap(d->dev, SIMT_BAR_VRAM, NULL);
    d->nsm = rd(d, SIMT_REG_SM_COUNT);
    d->sm_blocks = rd(d, SIMT_REG_SM_BLOCKS);
    d->nqueues = rd(d, SIMT_REG_QUEUE_COUNT);
    d->vram_size = rd(d, SIMT_REG_VRAM_SIZE_LO) |
                   (uint64_t)rd(d, SIMT_REG_VRAM_SIZE_HI) << 32;
    d->vram_next = VRAM_DATA;
    for (unsigned q = 0; q < d->nqueues; q++) {
        queue_setup(d, q, 0);
    }
    use_image(d, "samples");
    return d;
}

void dev_stop(Dev *d)
{
    qpci_iounmap(d->dev, d->vram);
    qpci_iounmap(d->dev, d->doorbell);
    qpci_iounmap(d->dev, d->regs);
    g_free(d->dev);
    qpci_free_pc(d->bus);
    qtest_quit(d->qts);
    g_free(d->args);
    g_free(d);
}

/* Wait for the MIGRATION event that ends a migration; assert it succeeded. */
static void migration_wait(QTestState *qts)
{
    for (;;) {
        QDict *ev = qtest_qmp_eventwait_ref(qts, "MIGRATION");
        const char *status = qdict_get_str(qdict_get_qdict(ev, "data"),
                                           "status");
        bool done = !strcmp(status, "completed");

        g_assert_cmpstr(status, !=, "failed");
        qobject_unref(ev);
        if (done) {
            return;
        }
    }
}

static void migration_events_on(QTestState *qts)
{
    qtest_qmp_assert_success(qts, "{ 'execute': 'migrate-set-capabilities',"
                             "  'arguments': { 'capabilities': ["
                             "    { 'capability': 'events', 'state': true }"
                             "  ] } }");
}

void dev_migrate(Dev *d, int64_t now)
{
    g_autofree char *dir = g_dir_make_tmp("simt-migrate-XXXXXX", NULL);
    g_autofree char *file = g_build_filename(dir, "state", NULL);
    g_autofree char *uri = g_strdup_printf("file:%s", file);
    QTestState *to;
    QDict *rsp;

    g_assert_nonnull(dir);
    migration_events_on(d->qts);
    qtest_qmp_assert_success(d->qts, "{ 'execute': 'migrate',"
                             "  'arguments': { 'uri': %s } }", uri);
    migration_wait(d->qts);

    /*
     * The qtest accelerator's clock is not part of the stream (a real
     * machine's is): the new QEMU starts at the time the old one stopped.
     */
    to = qtest_initf("%s -incoming defer", d->args);
    g_assert_cmpint(qtest_clock_set(to, now), ==, now);
    migration_events_on(to);
    qtest_qmp_assert_success(to, "{ 'execute': 'migrate-incoming',"
                             "  'arguments': { 'uri': %s } }", uri);
    migration_wait(to);
    rsp = qtest_qmp_assert_success_ref(to, "{ 'execute': 'query-status' }");
    if (strcmp(qdict_get_str(rsp, "status"), "running")) {
        qtest_qmp_assert_success(to, "{ 'execute': 'cont' }");
    }
    qobject_unref(rsp);

    /* The BARs kept their addresses: only the QEMU behind them changed. */
    g_free(d->dev);
    qpci_free_pc(d->bus);
    qtest_quit(d->qts);
    d->qts = to;
    d->bus = qpci_new_pc(to, NULL);
    d->dev = qpci_device_find(d->bus, SIMT_DEVFN);
    g_assert_nonnull(d->dev);
    unlink(file);
    rmdir(dir);
}

uint32_t vram_alloc(Dev *d, const void *data, size_t len)
{
    uint32_t addr = d->vram_next;

    d->vram_next = ROUND_UP(addr + len, 256);
    g_assert_cmpuint(d->vram_next, <=, VRAM_LIVE);
    if (data) {
        vram_write(d, addr, data, len);
    } else if (len) {
        qtest_memset(d->qts, d->vram.addr + addr, 0, len);
    }
    return addr;
}

void vram_read(Dev *d, uint32_t addr, void *buf, size_t len)
{
    for (size_t at = 0; at < len; at += VRAM_CHUNK) {
        qtest_bufread(d->qts, d->vram.addr + addr + at, (uint8_t *)buf + at,
                      MIN(len - at, VRAM_CHUNK));
    }
}

uint32_t ring_put(Dev *d, unsigned q, const void *cmd)
{
    uint32_t idx = d->tail[q];

    qtest_memwrite(d->qts, RING_ADDR(q) + idx * SIMT_CMD_SIZE, cmd,
                   SIMT_CMD_SIZE);
    d->tail[q] = (idx + 1) % RING_SIZE;
    return idx;
}

uint32_t submit(Dev *d, unsigned q, const void *cmd)
{
    uint32_t idx = ring_put(d, q, cmd);

    qwr(d, q, SIMT_QREG_TAIL, d->tail[q]);
    return idx;
}

uint32_t launch(Dev *d, unsigned q, const Launch *l)
{
    const struct simt_kernel_info *k = simt_image_kernel(d->img, l->kernel);
    struct simt_cmd_launch c = {
        .opcode = SIMT_CMD_LAUNCH,
        .flags = l->flags,
        .record = RECORD_ADDR(q, d->tail[q]),
        .code_addr = d->img->code_start,
        .code_size = d->img->code_end - d->img->code_start,
        .shared_size = k ? k->m.shared_bytes + l->dyn_shared : 0,
        .local_base = VRAM_LOCAL,
        .live_addr = d->img->has_meta ? VRAM_LIVE : 0,
        .first_block = l->first_block,
        .block_count = l->block_count,
        .pp_addr = d->img->has_meta && !l->no_points ? d->pp_addr : 0,
        .pp_count = d->img->has_meta && !l->no_points ?
                    d->img->meta.h.pp_count : 0,
    };

    g_assert_nonnull(k);
    c.entry = k->m.entry;
    c.local_size = k->m.local_bytes;
    c.regs = ctpop32(k->m.int_regs_used) + ctpop32(k->m.fp_regs_used);
    c.int_regs = k->m.int_regs_used;
    c.fp_regs = k->m.fp_regs_used;
    /* More registers: the unused ones, x registers first. */
    while (c.regs < l->regs) {
        if (~c.int_regs & ~1u) {
            c.int_regs |= 1u << ctz32(~c.int_regs & ~1u);
        } else {
            c.fp_regs |= 1u << ctz32(~c.fp_regs);
        }
        c.regs++;
    }
    for (int i = 0; i < 3; i++) {
        c.grid[i] = l->grid[i] ? l->grid[i] : 1;
        c.block[i] = l->block[i] ? l->block[i] : 1;
    }
    memcpy(c.args, l->args, sizeof(c.args));
    qtest_memset(d->qts, c.record, 0xff, sizeof(struct simt_completion));
    return submit(d, q, &c);
}

void read_record(Dev *d, unsigned q, uint32_t idx, struct simt_completion *r)
{
    qtest_memread(d->qts, RECORD_ADDR(q, idx), r, sizeof(*r));
}

bool queue_done(Dev *d, unsigned q, uint32_t idx)
{
    uint32_t st = SIMT_QSTATUS_STATE(qrd(d, q, SIMT_QREG_STATUS));
    uint32_t head = qrd(d, q, SIMT_QREG_HEAD);

    return st == SIMT_QSTATE_ERROR ||
           (head - idx - 1) % RING_SIZE < RING_SIZE / 2;
}

uint32_t wait_queue(Dev *d, unsigned q, uint32_t idx)
{
    for (int64_t t = 0; t < WAIT_LIMIT_NS; t += 10000) {
        if (queue_done(d, q, idx)) {
            return SIMT_QSTATUS_STATE(qrd(d, q, SIMT_QREG_STATUS));
        }
        qtest_clock_step(d->qts, 10000);
    }
    g_assert_not_reached();
}

void run_ok(Dev *d, unsigned q, const Launch *l, struct simt_completion *r)
{
    uint32_t idx = launch(d, q, l);
    struct simt_completion rec;

    wait_queue(d, q, idx);
    read_record(d, q, idx, &rec);
    g_assert_cmpuint(rec.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(rec.fault, ==, SIMT_FAULT_NONE);
    g_assert_cmpuint(rec.blocks, ==, l->block_count ? l->block_count :
                     l->grid[0] * MAX(l->grid[1], 1) * MAX(l->grid[2], 1));
    g_assert_cmpuint(rec.end_cycle, >, rec.start_cycle);
    g_assert_cmpuint(rec.thread_insns, >, 0);
    if (r) {
        *r = rec;
    }
}
