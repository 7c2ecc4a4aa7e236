/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: the save-area codec of the preemption engine; see simt-save.h.
 *
 * Records are written and read byte by byte at the offsets of the structs
 * in simt-hw.h, so the host's byte order and the record's alignment in
 * the save area do not matter.
 */

#include "qemu/osdep.h"
#include "hw/simt/simt-save.h"
#include "hw/simt/simt-le.h"

#define HDR_BYTES       sizeof(struct simt_save_block)
#define WHDR_BYTES      sizeof(struct simt_save_warp)
#define LANE_BYTES      (SIMT_WARP_SIZE * 4)
#define RESV_BYTES      (2 * LANE_BYTES)
#define PATTERN_WORDS   5
#define ENTRY_FCSR      64

_Static_assert(sizeof(struct simt_save_block) == 64, "save header layout");
_Static_assert(sizeof(struct simt_save_warp) == 48, "warp header layout");
_Static_assert(SIMT_SAVE_ENTRIES == ENTRY_FCSR + 1, "entry numbering");

#define BLK(f)  offsetof(struct simt_save_block, f)
#define WRP(f)  offsetof(struct simt_save_warp, f)

/* The 32 lanes of entry @n: pc, x1..x31, f0..f31, fcsr */
static const uint32_t *entry_src(const SimtWarp *w, unsigned n)
{
    if (n == 0) {
        return w->pc;
    }
    if (n < 32) {
        return w->x[n];
    }
    return n < ENTRY_FCSR ? w->f[n - 32] : w->fcsr;
}

static uint32_t *entry_dst(SimtWarp *w, unsigned n)
{
    if (n == 0) {
        return w->pc;
    }
    if (n < 32) {
        return w->x[n];
    }
    return n < ENTRY_FCSR ? w->f[n - 32] : w->fcsr;
}

static unsigned pattern_get(const uint32_t *pat, unsigned n)
{
    return pat[n / 16] >> (n % 16 * 2) & 3;
}

static void pattern_set(uint32_t *pat, unsigned n, unsigned p)
{
    pat[n / 16] |= (uint32_t)p << (n % 16 * 2);
}

static size_t entry_bytes(unsigned pattern, unsigned pag)
{
    switch (pattern) {
    case SIMT_SAVE_UNIFORM:
        return 4 * (SIMT_WARP_SIZE / pag);
    case SIMT_SAVE_STRIDED:
        return 8 * (SIMT_WARP_SIZE / pag);
    case SIMT_SAVE_RAW:
        return LANE_BYTES;
    default:
        return 0;
    }
}

static bool pag_ok(uint32_t pag)
{
    return pag && pag <= SIMT_WARP_SIZE && !(pag & (pag - 1));
}

static bool spec_ok(const SimtSaveSpec *s)
{
    return (s->format == SIMT_SAVE_FULL || s->format == SIMT_SAVE_LIGHT) &&
           pag_ok(s->pag);
}

uint32_t simt_save_pag(const SimtLaunch *l)
{
    uint32_t x = l->block_dim[0];

    return x >= 2 && x <= 16 && !(x & (x - 1)) ? x : SIMT_WARP_SIZE;
}

/* UNIFORM, STRIDED or RAW: the cheapest pattern that holds in every group */
static unsigned classify(const uint32_t *v, unsigned pag)
{
    bool uniform = true, strided = true;
    unsigned g, j;

    for (g = 0; g < SIMT_WARP_SIZE && strided; g += pag) {
        uint32_t stride = pag > 1 ? v[g + 1] - v[g] : 0;

        for (j = 1; j < pag; j++) {
            uniform &= v[g + j] == v[g];
            strided &= v[g + j] == v[g] + j * stride;
        }
    }
    return uniform ? SIMT_SAVE_UNIFORM :
           strided ? SIMT_SAVE_STRIDED : SIMT_SAVE_RAW;
}

static uint64_t live_at(const SimtSaveSpec *s, uint32_t pc)
{
    uint32_t off = pc - s->live_base;

    if ((off & 3) || off / 4 >= s->live_count) {
        return ~(uint64_t)0;
    }
    return s->live[off / 4];
}

/* Registers (bit n: entry n) that a LIGHT record of @w must keep */
static uint64_t warp_live(const SimtWarp *w, const SimtSaveSpec *s)
{
    uint32_t lanes = ~w->exited, last_pc = 0;
    uint64_t live = 0;
    bool first = true;

    if (!s->live) {
        return lanes ? ~(uint64_t)0 : 0;
    }
    while (lanes) {
        unsigned lane = __builtin_ctz(lanes);

        lanes &= lanes - 1;
        /* Lanes of a converged group share their pc: look it up once */
        if (first || w->pc[lane] != last_pc) {
            live |= live_at(s, w->pc[lane]);
            last_pc = w->pc[lane];
            first = false;
        }
    }
    return live;
}

/* How each entry of @w is stored; returns the warp's bytes in the record */
static size_t warp_patterns(const SimtWarp *w, const SimtSaveSpec *s,
                            uint32_t *pat)
{
    uint64_t regs = s->int_regs | (uint64_t)s->fp_regs << 32;
    bool full = s->format == SIMT_SAVE_FULL;
    size_t bytes = WHDR_BYTES + (w->resv_mask ? RESV_BYTES : 0);
    unsigned n;

    if (!regs) {
        regs = ~(uint64_t)0;
    }
    if (!full) {
        regs &= warp_live(w, s);
    }
    /* Bit 0 would be x0, always zero; entry 0 holds the pcs instead */
    regs |= 1;
    memset(pat, 0, PATTERN_WORDS * sizeof(*pat));
    for (n = 0; n < SIMT_SAVE_ENTRIES; n++) {
        unsigned p;

        if (n < ENTRY_FCSR && !(regs >> n & 1)) {
            continue;
        }
        p = full ? SIMT_SAVE_RAW : classify(entry_src(w, n), s->pag);
        pattern_set(pat, n, p);
        bytes += entry_bytes(p, s->pag);
    }
    return bytes;
}

static size_t shared_stored(const SimtBlock *b, const SimtSaveSpec *s)
{
    return s->keep_shared ? 0 : b->launch->shared_size;
}

static size_t pad4(size_t n)
{
    return (n + 3) & ~(size_t)3;
}

size_t simt_save_size(const SimtBlock *b, const SimtSaveSpec *spec)
{
    uint32_t pat[PATTERN_WORDS];
    size_t bytes = HDR_BYTES;
    unsigned wi;

    if (!spec_ok(spec)) {
        return 0;
    }
    for (wi = 0; wi < b->st.nwarps; wi++) {
        bytes += warp_patterns(&b->warps[wi], spec, pat);
    }
    return pad4(bytes + shared_stored(b, spec));
}

static uint8_t *put_entry(uint8_t *p, const uint32_t *v, unsigned pattern,
                          unsigned pag)
{
    unsigned g, i;

    switch (pattern) {
    case SIMT_SAVE_UNIFORM:
        for (g = 0; g < SIMT_WARP_SIZE; g += pag, p += 4) {
            simt_put_le32(p, v[g]);
        }
        break;
    case SIMT_SAVE_STRIDED:
        for (g = 0; g < SIMT_WARP_SIZE; g += pag, p += 8) {
            simt_put_le32(p, v[g]);
            simt_put_le32(p + 4, pag > 1 ? v[g + 1] - v[g] : 0);
        }
        break;
    case SIMT_SAVE_RAW:
        for (i = 0; i < SIMT_WARP_SIZE; i++, p += 4) {
            simt_put_le32(p, v[i]);
        }
        break;
    }
    return p;
}

static void get_entry(uint32_t *v, const uint8_t *p, unsigned pattern,
                      unsigned pag)
{
    unsigned g, j;

    switch (pattern) {
    case SIMT_SAVE_DEAD:
        break;              /* zeroed with the whole warp */
    case SIMT_SAVE_UNIFORM:
        for (g = 0; g < SIMT_WARP_SIZE; g += pag, p += 4) {
            for (j = 0; j < pag; j++) {
                v[g + j] = simt_le32(p);
            }
        }
        break;
    case SIMT_SAVE_STRIDED:
        for (g = 0; g < SIMT_WARP_SIZE; g += pag, p += 8) {
            uint32_t base = simt_le32(p), stride = simt_le32(p + 4);

            for (j = 0; j < pag; j++) {
                v[g + j] = base + j * stride;
            }
        }
        break;
    default:
        for (j = 0; j < SIMT_WARP_SIZE; j++, p += 4) {
            v[j] = simt_le32(p);
        }
        break;
    }
}

size_t simt_save_encode(const SimtBlock *b, uint32_t block,
                        const SimtSaveSpec *spec, uint8_t *out, size_t cap,
                        SimtSaveStats *stats)
{
    const SimtBlockState *st = &b->st;
    uint32_t pat[SIMT_MAX_BLOCK_WARPS][PATTERN_WORDS];
    size_t bytes = HDR_BYTES, shared = shared_stored(b, spec);
    uint8_t *p = out, *warp_start;
    unsigned wi, n, i;

    if (!spec_ok(spec)) {
        return 0;
    }
    for (wi = 0; wi < st->nwarps; wi++) {
        bytes += warp_patterns(&b->warps[wi], spec, pat[wi]);
    }
    bytes = pad4(bytes + shared);
    if (bytes > cap) {
        return 0;
    }
    if (stats) {
        memset(stats, 0, sizeof(*stats));
        stats->shared_bytes = shared;
    }

    memset(p, 0, HDR_BYTES);
    simt_put_le32(p + BLK(magic), SIMT_SAVE_MAGIC);
    simt_put_le16(p + BLK(format), spec->format);
    simt_put_le16(p + BLK(pag), spec->pag);
    simt_put_le32(p + BLK(bytes), bytes);
    simt_put_le32(p + BLK(block), block);
    simt_put_le32(p + BLK(nwarps), st->nwarps);
    simt_put_le32(p + BLK(nthreads), st->nthreads);
    simt_put_le32(p + BLK(shared_bytes), shared);
    simt_put_le32(p + BLK(nexited), st->nexited);
    simt_put_le32(p + BLK(nwaiting), st->nwaiting);
    simt_put_le32(p + BLK(barriers), st->barriers);
    simt_put_le32(p + BLK(flags),
                  st->wrote_global ? SIMT_SAVEF_WROTE_GLOBAL : 0);
    simt_put_le64(p + BLK(warp_insns), st->warp_insns);
    simt_put_le64(p + BLK(thread_insns), st->thread_insns);
    p += HDR_BYTES;

    for (wi = 0; wi < st->nwarps; wi++) {
        const SimtWarp *w = &b->warps[wi];

        memset(p, 0, WHDR_BYTES);
        simt_put_le32(p + WRP(exited), w->exited);
        simt_put_le32(p + WRP(waiting), w->waiting);
        simt_put_le32(p + WRP(wsync), w->wsync);
        simt_put_le32(p + WRP(resv_mask), w->resv_mask);
        simt_put_le32(p + WRP(warp_id), w->warp_id);
        simt_put_le64(p + WRP(instret), w->instret);
        for (i = 0; i < PATTERN_WORDS; i++) {
            simt_put_le32(p + WRP(pattern) + 4 * i, pat[wi][i]);
        }
        p += WHDR_BYTES;
        warp_start = p;
        for (n = 0; n < SIMT_SAVE_ENTRIES; n++) {
            unsigned pn = pattern_get(pat[wi], n);

            p = put_entry(p, entry_src(w, n), pn, spec->pag);
            if (stats) {
                stats->entries[pn]++;
                stats->live_bytes += entry_bytes(pn == SIMT_SAVE_DEAD ?
                                                 pn : SIMT_SAVE_RAW,
                                                 spec->pag);
            }
        }
        if (w->resv_mask) {
            p = put_entry(p, w->resv_addr, SIMT_SAVE_RAW, spec->pag);
            p = put_entry(p, w->resv_val, SIMT_SAVE_RAW, spec->pag);
            if (stats) {
                stats->live_bytes += RESV_BYTES;
            }
        }
        if (stats) {
            stats->reg_bytes += p - warp_start;
        }
    }
    if (shared) {
        memcpy(p, b->shared, shared);
        p += shared;
    }
    memset(p, 0, out + bytes - p);
    return bytes;
}

/*
 * Read and check one warp at @in + *pos, counting its exited threads
 * (lanes beyond the block are exited but no threads) and waiting ones.
 * NULL or why the record is bad.
 */
static const char *decode_warp(SimtBlock *b, unsigned wi, unsigned format,
                               unsigned pag, const uint8_t *in, size_t len,
                               size_t *pos, uint32_t *nexited,
                               uint32_t *nwaiting)
{
    SimtWarp *w = &b->warps[wi];
    uint32_t pat[PATTERN_WORDS], in_block;
    const uint8_t *h = in + *pos;
    unsigned n, i;

    if (len - *pos < WHDR_BYTES) {
        return "truncated warp header";
    }
    *pos += WHDR_BYTES;
    memset(w, 0, sizeof(*w));
    w->exited = simt_le32(h + WRP(exited));
    w->waiting = simt_le32(h + WRP(waiting));
    w->wsync = simt_le32(h + WRP(wsync));
    w->resv_mask = simt_le32(h + WRP(resv_mask));
    w->warp_id = simt_le32(h + WRP(warp_id));
    w->instret = simt_le64(h + WRP(instret));
    for (i = 0; i < PATTERN_WORDS; i++) {
        pat[i] = simt_le32(h + WRP(pattern) + 4 * i);
    }
    if (w->warp_id != wi) {
        return "warp id is not the warp's index";
    }
    in_block = b->st.nthreads - wi * SIMT_WARP_SIZE >= SIMT_WARP_SIZE ?
               SIMT_FULL_MASK :
               (1u << (b->st.nthreads - wi * SIMT_WARP_SIZE)) - 1;
    if (~in_block & ~w->exited) {
        return "lane beyond the block's threads not exited";
    }
    if ((w->waiting | w->wsync | w->resv_mask) & w->exited) {
        return "exited lane waiting or holding a reservation";
    }
    if (w->waiting & w->wsync) {
        return "lane waiting at a barrier and a warp sync at once";
    }
    if (pat[PATTERN_WORDS - 1] >> 2) {
        return "pattern of a nonexistent entry";
    }
    if (pattern_get(pat, 0) == SIMT_SAVE_DEAD ||
        pattern_get(pat, ENTRY_FCSR) == SIMT_SAVE_DEAD) {
        return "pc or fcsr not stored";
    }
    for (n = 0; n < SIMT_SAVE_ENTRIES; n++) {
        unsigned p = pattern_get(pat, n);
        size_t bytes = entry_bytes(p, pag);

        if (format == SIMT_SAVE_FULL &&
            p != SIMT_SAVE_RAW && p != SIMT_SAVE_DEAD) {
            return "compressed entry in a full record";
        }
        if (len - *pos < bytes) {
            return "entry runs past the end of the record";
        }
        get_entry(entry_dst(w, n), in + *pos, p, pag);
        *pos += bytes;
    }
    if (w->resv_mask) {
        if (len - *pos < RESV_BYTES) {
            return "reservations run past the end of the record";
        }
        get_entry(w->resv_addr, in + *pos, SIMT_SAVE_RAW, pag);
        get_entry(w->resv_val, in + *pos + LANE_BYTES, SIMT_SAVE_RAW, pag);
        *pos += RESV_BYTES;
    }
    *nexited += __builtin_popcount(w->exited & in_block);
    *nwaiting += __builtin_popcount(w->waiting);
    return NULL;
}

const char *simt_save_decode(SimtBlock *b, uint32_t block, const uint8_t *in,
                             size_t len)
{
    SimtBlockState *st = &b->st;
    uint32_t format, pag, shared, flags, nexited = 0, nwaiting = 0;
    size_t pos = HDR_BYTES;
    const char *err;
    unsigned wi;

    if (len < HDR_BYTES) {
        return "record shorter than its header";
    }
    if (simt_le32(in + BLK(magic)) != SIMT_SAVE_MAGIC) {
        return "bad magic";
    }
    format = simt_le16(in + BLK(format));
    if (format != SIMT_SAVE_FULL && format != SIMT_SAVE_LIGHT) {
        return "unknown format";
    }
    pag = simt_le16(in + BLK(pag));
    if (!pag_ok(pag)) {
        return "group size not a power of two from 1 to 32";
    }
    if (simt_le32(in + BLK(bytes)) != len || len % 4) {
        return "record size mismatch";
    }
    if (simt_le32(in + BLK(block)) != block) {
        return "record of another block";
    }
    if (simt_le32(in + BLK(nwarps)) != st->nwarps ||
        simt_le32(in + BLK(nthreads)) != st->nthreads) {
        return "block shape mismatch";
    }
    shared = simt_le32(in + BLK(shared_bytes));
    if (shared && shared != b->launch->shared_size) {
        return "shared memory size mismatch";
    }
    flags = simt_le32(in + BLK(flags));
    if ((flags & ~SIMT_SAVEF_WROTE_GLOBAL) || simt_le32(in + BLK(reserved))) {
        return "unknown flags or reserved bits set";
    }

    for (wi = 0; wi < st->nwarps; wi++) {
        err = decode_warp(b, wi, format, pag, in, len, &pos, &nexited,
                          &nwaiting);
        if (err) {
            return err;
        }
    }
    if (nexited != simt_le32(in + BLK(nexited)) ||
        nwaiting != simt_le32(in + BLK(nwaiting))) {
        return "thread counts disagree with the warps";
    }
    /*
     * A running block always has a runnable thread: the last arrival
     * releases a barrier, the last exit ends the block.  Without one the
     * block would never finish.
     */
    if (nexited + nwaiting >= st->nthreads) {
        return "no runnable thread";
    }
    if (len - pos < shared) {
        return "shared memory runs past the end of the record";
    }
    if (shared) {
        memcpy(b->shared, in + pos, shared);
        pos += shared;
    }
    if (len != pad4(pos)) {
        return "record not fully consumed";
    }
    for (; pos < len; pos++) {
        if (in[pos]) {
            return "padding not zero";
        }
    }

    st->nexited = nexited;
    st->nwaiting = nwaiting;
    st->next_warp = 0;
    st->status = SIMT_RUNNING;
    st->fault = SIMT_FAULT_NONE;
    st->fault_pc = 0;
    st->fault_addr = 0;
    st->fault_warp = 0;
    st->fault_lane = 0;
    st->barriers = simt_le32(in + BLK(barriers));
    st->wrote_global = !!(flags & SIMT_SAVEF_WROTE_GLOBAL);
    st->warp_insns = simt_le64(in + BLK(warp_insns));
    st->thread_insns = simt_le64(in + BLK(thread_insns));
    return NULL;
}
