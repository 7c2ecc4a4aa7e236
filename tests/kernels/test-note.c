/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SIMT metadata note: a hand-made result survives serialisation and
 * parsing unchanged, damaged notes are refused with a message, and every
 * built kernel image carries a note that matches a fresh analysis of its
 * code and follows the entry convention.
 *
 * Usage: test-note IMAGE.elf...
 */
#include <stdlib.h>
#include <string.h>

#include "simt-meta.h"
#include "../tap.h"
#include "hw/simt/simt-le.h"

#define NOTE_DESC   20      /* note header (12) + "SIMT\0" padded (8) */

static void round_trip(void)
{
    const uint32_t insns[3] = { 0 };
    struct sm_program prog = { .file = "t", .base = 0x2000, .ninsns = 3,
                               .insns = insns };
    uint64_t live[3] = { 0x1, 0xfedcba9876543210ull, 0x8000000000000002ull };
    struct sm_kernel kernels[2] = {
        { "first", { .entry = 0x2000, .code_start = 0x2000,
                     .code_end = 0x2008, .int_regs_used = 0xc00,
                     .fp_regs_used = 0x3, .shared_bytes = 4096,
                     .local_bytes = 48, .flags = SIMT_META_F_IDEMPOTENT,
                     .load_origins = 1, .store_origins = 2,
                     .insn_count = 2 } },
        { "second_kernel", { .entry = 0x2008, .code_start = 0x2004,
                             .code_end = 0x200c, .flags =
                             SIMT_META_F_ATOMICS | SIMT_META_F_CALLS,
                             .store_origins = SIMT_ORIGIN_UNKNOWN,
                             .insn_count = 2 } },
    };
    uint32_t pp[2] = { 0x2000, 0x2008 };
    struct sm_result res = { .live = live, .nkernels = 2,
                             .kernels = kernels, .pp = pp, .npp = 2,
                             .pp_interval = 7 };
    struct simt_meta meta;
    uint8_t *note;
    size_t len;
    char err[256] = "";
    uint32_t i;
    bool same = true;

    if (!tap_check(sm_note_build(&prog, &res, &note, &len) == 0 &&
                   len % 4 == 0 && simt_le32(note) == 5 &&
                   simt_le32(note + 8) == SIMT_NOTE_TYPE_META &&
                   memcmp(note + 12, "SIMT", 5) == 0,
                   "note built with name SIMT, type %u",
                   SIMT_NOTE_TYPE_META)) {
        return;
    }
    if (tap_check(simt_meta_parse(&meta, note + NOTE_DESC, simt_le32(note + 4),
                                  err, sizeof(err)) == 0,
                  "note parsed back %s", err)) {
        same = meta.h.version == SIMT_META_VERSION &&
               meta.h.nkernels == 2 && meta.h.code_start == 0x2000 &&
               meta.h.code_end == 0x200c && meta.nlive == 3 &&
               meta.h.pp_count == 2 && meta.h.pp_interval == 7 &&
               simt_meta_is_pp(&meta, 0x2000) &&
               !simt_meta_is_pp(&meta, 0x2004) &&
               simt_meta_is_pp(&meta, 0x2008);
        for (i = 0; same && i < 3; i++) {
            same = meta.live[i] == live[i];
        }
        for (i = 0; same && i < 2; i++) {
            struct simt_meta_kernel a = meta.kernels[i].m;
            struct simt_meta_kernel b = kernels[i].m;

            a.name = b.name = 0;
            same = strcmp(meta.kernels[i].name, kernels[i].name) == 0 &&
                   memcmp(&a, &b, sizeof(a)) == 0;
        }
        tap_check(same, "round trip keeps header, kernels, live masks and "
                  "preemption points");
        tap_check(simt_meta_live_at(&meta, 0x2004) == live[1] &&
                  simt_meta_live_at(&meta, 0x200c) == ~0ull &&
                  simt_meta_live_at(&meta, 0x1ffc) == ~0ull &&
                  simt_meta_live_at(&meta, 0x2002) == ~0ull,
                  "live_at: table inside, everything live outside");
        simt_meta_free(&meta);
    }

    /* Damage: each must be refused with a message, never crash. */
    {
        struct {
            const char *what;
            uint32_t offset, value;
        } damage[] = {
            { "version", 0, 99 },
            { "kernel count", 8, 1000000 },
            { "kernel record size", 16, 4 },
            { "misaligned code range", 20, 0x2002 },
            { "live table offset", 28, 0xfffffff0 },
            { "string table offset", 32, 0x7fffffff },
            { "preemption point count", 44, 0x40000000 },
            { "kernel name offset", 52, 0x10000 },
            { "kernel entry outside its range", 56, 0x3000 },
        };
        uint32_t desc_len = simt_le32(note + 4);
        uint8_t *copy = malloc(desc_len);

        for (i = 0; copy && i < sizeof(damage) / sizeof(damage[0]); i++) {
            int r;

            memcpy(copy, note + NOTE_DESC, desc_len);
            simt_put_le32(copy + damage[i].offset, damage[i].value);
            err[0] = 0;
            r = simt_meta_parse(&meta, copy, desc_len, err, sizeof(err));
            tap_check(r < 0 && err[0], "damaged %s refused: %s",
                      damage[i].what, err);
            if (r == 0) {
                simt_meta_free(&meta);
            }
        }
        tap_check(simt_meta_parse(&meta, note + NOTE_DESC, 51, err,
                                  sizeof(err)) < 0,
                  "truncated note refused: %s", err);
        /* preemption points must ascend */
        memcpy(copy, note + NOTE_DESC, desc_len);
        simt_put_le32(copy + simt_le32(copy + 40), 0x2008);
        tap_check(simt_meta_parse(&meta, copy, desc_len, err,
                                  sizeof(err)) < 0,
                  "unsorted preemption points refused: %s", err);
        free(copy);
    }
    free(note);
}

/*
 * A built image: its note equals a fresh analysis, and at each kernel
 * entry only what the launch sets up (a0..a7, sp, ra) or what the kernel
 * saves for its caller (callee-saved registers) can be live.
 */
static void check_image(const char *path)
{
    const uint64_t entry_ok = 0x0fffff06ull |   /* ra sp s0-s11 a0-a7 */
                              0x0ffc0300ull << 32;  /* fs0-fs11 */
    struct simt_image img;
    struct sm_program prog;
    struct sm_result res;
    char err[512] = "";
    uint32_t i;
    bool ok;

    if (!tap_check(simt_image_load(&img, path, err, sizeof(err)) == 0 &&
                   img.has_meta, "%s: loads, has a note %s", path, err)) {
        return;
    }
    ok = sm_program_from_image(&img, &prog, err, sizeof(err)) == 0 &&
         sm_analyze(&prog, &res, err, sizeof(err)) == 0;
    if (tap_check(ok, "%s: analyses again %s", path, ok ? "" : err)) {
        ok = res.nkernels == img.meta.h.nkernels &&
             img.meta.nlive == prog.ninsns &&
             img.meta.h.code_start == img.code_start &&
             memcmp(res.live, img.meta.live, prog.ninsns * 8) == 0;
        for (i = 0; ok && i < res.nkernels; i++) {
            struct simt_meta_kernel a = res.kernels[i].m;
            struct simt_meta_kernel b = img.meta.kernels[i].m;

            a.name = b.name = 0;
            ok = strcmp(res.kernels[i].name, img.meta.kernels[i].name) == 0 &&
                 memcmp(&a, &b, sizeof(a)) == 0;
        }
        tap_check(ok, "%s: note matches a fresh analysis", path);
        ok = res.nkernels > 0;
        for (i = 0; ok && i < res.nkernels; i++) {
            const struct simt_kernel_info *k = &img.meta.kernels[i];
            uint64_t live = simt_meta_live_at(&img.meta, k->m.entry);

            ok = simt_image_kernel(&img, k->name) == k &&
                 (live & ~entry_ok) == 0 && k->m.local_bytes % 16 == 0 &&
                 (k->m.shared_bytes == img.shared_bytes ||
                  k->m.shared_bytes == 0);
            if (!ok) {
                tap_diag("%s: live at entry %#llx", k->name,
                         (unsigned long long)live);
            }
        }
        tap_check(ok, "%s: kernels found by name, entry convention holds",
                  path);
        sm_result_free(&res);
        sm_program_free(&prog);
    }
    simt_image_free(&img);
}

/*
 * Damaged images: thousands of random byte and word changes to a real
 * image go through the reader and the analysis, which must give an
 * answer or an error and never crash (run it under a sanitizer to see
 * more).
 */
static void mutations(const char *path)
{
    struct simt_image img;
    uint8_t *copy;
    uint32_t seed = 12345, round, k, loaded = 0, analysed = 0;
    char err[512];

    if (simt_image_load(&img, path, err, sizeof(err)) < 0) {
        tap_check(false, "mutations: %s", err);
        return;
    }
    copy = malloc(img.elf.size);
    for (round = 0; copy && round < 3000; round++) {
        struct simt_image m;
        struct sm_program prog;
        struct sm_result res;

        memcpy(copy, img.elf.data, img.elf.size);
        for (k = 0; k < 1 + round % 4; k++) {
            uint32_t at;

            seed = seed * 1664525u + 1013904223u;
            at = (seed >> 8) % img.elf.size;
            /* headers and code are where damage matters most */
            if (round & 1) {
                at %= 0x40;
            }
            copy[at] = (round & 2) ? (uint8_t)(seed >> 3) : copy[at] ^ 0x80;
        }
        if (simt_image_load_mem(&m, "mutant", copy, img.elf.size, err,
                                sizeof(err)) < 0) {
            continue;
        }
        loaded++;
        if (sm_program_from_image(&m, &prog, err, sizeof(err)) == 0) {
            if (sm_analyze(&prog, &res, err, sizeof(err)) == 0) {
                analysed++;
                sm_result_free(&res);
            }
            sm_program_free(&prog);
        }
        simt_image_free(&m);
    }
    tap_check(copy != NULL, "3000 damaged copies of %s: %u loaded, %u "
              "analysed, no crash", path, loaded, analysed);
    free(copy);
    simt_image_free(&img);
}

int main(int argc, char **argv)
{
    int i;

    round_trip();
    for (i = 1; i < argc; i++) {
        check_image(argv[i]);
    }
    for (i = 1; i < argc; i++) {
        mutations(argv[i]);
    }
    return tap_done();
}
