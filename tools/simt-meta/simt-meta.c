/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt-meta: analyse a simt kernel ELF and add the SIMT metadata note, or
 * print the metadata or the source lines of an image in readable form.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rv-decode.h"
#include "simt-lines.h"
#include "simt-meta.h"
#include "hw/simt/simt-le.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: simt-meta [-o OUTPUT] [--pp-interval K] INPUT\n"
            "       simt-meta --dump [--pp-interval K] INPUT\n"
            "       simt-meta --lines INPUT\n"
            "\n"
            "Analyse the simt kernel image INPUT (ELF32 RISC-V executable\n"
            "linked with kernels/simt.ld) and write it to OUTPUT (default:\n"
            "INPUT itself) with a " SIMT_NOTE_SECTION " metadata note:\n"
            "registers used, shared and local memory, idempotence hint,\n"
            "preemption points and the live registers before every\n"
            "instruction.\n"
            "\n"
            "  -o, --output FILE      where to write the annotated image\n"
            "  -k, --pp-interval K    one preemption point per K\n"
            "                         instructions outside innermost loops\n"
            "                         (default %u)\n"
            "  -d, --dump             print the metadata (from the note if\n"
            "                         INPUT has one and no -k is given,\n"
            "                         else freshly computed) and exit\n"
            "  -l, --lines            print the source line of each range\n"
            "                         of addresses, \"0xADDR file:line\",\n"
            "                         from the DWARF line table of a kernel\n"
            "                         built with -g, and exit\n"
            "  -h, --help             this text\n", SM_PP_INTERVAL_DEFAULT);
}

static void print_regs(uint64_t mask)
{
    unsigned r;

    for (r = 0; r < 64; r++) {
        if (mask & ((uint64_t)1 << r)) {
            printf(" %s", rv_reg_name(r));
        }
    }
}

static void print_origins(uint32_t o)
{
    unsigned a;

    if (!o) {
        printf(" none");
    }
    for (a = 0; a < SIMT_ARG_REGS; a++) {
        if (o & (1u << a)) {
            printf(" %s", rv_reg_name(10 + a));
        }
    }
    if (o & SIMT_ORIGIN_IMAGE) {
        printf(" image");
    }
    if (o & SIMT_ORIGIN_UNKNOWN) {
        printf(" unknown");
    }
}

static void print_kernel(const struct simt_kernel_info *k,
                         const struct simt_meta *meta)
{
    static const char *const flag_names[] = {
        "idempotent", "atomics", "global-stores", "barrier", "calls",
        "warp-ops",
    };
    const struct simt_meta_kernel *m = &k->m;
    uint64_t sum = 0;
    unsigned b, most = 0;
    uint32_t pc;

    printf("kernel %s\n", k->name);
    printf("  entry 0x%08x, code [0x%08x, 0x%08x), %u instructions\n",
           m->entry, m->code_start, m->code_end, m->insn_count);
    printf("  shared %u bytes/block, local %u bytes/thread\n",
           m->shared_bytes, m->local_bytes);
    printf("  registers used:");
    print_regs(m->int_regs_used | (uint64_t)m->fp_regs_used << 32);
    printf("\n  live at entry:");
    print_regs(simt_meta_live_at(meta, m->entry));
    for (pc = m->code_start; pc < m->code_end; pc += 4) {
        unsigned n = __builtin_popcountll(simt_meta_live_at(meta, pc));

        sum += n;
        most = n > most ? n : most;
    }
    printf("\n  live registers per instruction: mean %.1f, max %u "
           "(over the code range)", (double)sum / ((m->code_end -
           m->code_start) / 4), most);
    printf("\n  flags:");
    for (b = 0; b < sizeof(flag_names) / sizeof(flag_names[0]); b++) {
        if (m->flags & (1u << b)) {
            printf(" %s", flag_names[b]);
        }
    }
    if (!(m->flags & SIMT_META_F_IDEMPOTENT)) {
        printf(" not-idempotent");
    }
    printf("\n  global loads from:");
    print_origins(m->load_origins);
    printf("\n  global stores to:");
    print_origins(m->store_origins);
    printf("\n");
}

static void dump(const struct simt_image *img, const struct sm_program *prog,
                 const struct simt_meta *meta)
{
    uint32_t i, f = 0;
    char text[64];

    printf("%s: image 0x%08x..0x%08x, code 0x%08x..0x%08x, shared %u "
           "bytes\n", prog->file, img->base, img->base + img->size,
           img->code_start, img->code_end, img->shared_bytes);
    for (i = 0; i < meta->h.nkernels; i++) {
        print_kernel(&meta->kernels[i], meta);
    }
    printf("%u preemption points (one per innermost loop, one per %u "
           "other instructions), marked *\n", meta->h.pp_count,
           meta->h.pp_interval);
    printf("live registers before each instruction:\n");
    for (i = 0; i < prog->ninsns; i++) {
        uint32_t pc = prog->base + 4 * i;

        while (f < prog->nfuncs && prog->funcs[f].end <= pc) {
            f++;
        }
        if (f < prog->nfuncs && prog->funcs[f].start == pc) {
            printf("%s:\n", prog->funcs[f].name);
        }
        rv_disasm(prog->insns[i], pc, text, sizeof(text));
        printf(" %c%08x: %08x  %-30s", simt_meta_is_pp(meta, pc) ? '*' : ' ',
               pc, prog->insns[i], text);
        print_regs(simt_meta_live_at(meta, pc));
        printf("\n");
    }
}

/*
 * --lines: the image's line table, one row per range of addresses, with
 * the call site in the function's own source when the range's code was
 * inlined there.
 */
static int print_lines(const char *path)
{
    struct simt_lines lines;
    struct simt_elf elf;
    char err[512];
    uint32_t i;
    int ret = 1;

    if (simt_elf_read_file(&elf, path, err, sizeof(err)) < 0 ||
        simt_lines_read(&lines, &elf, err, sizeof(err)) < 0) {
        fprintf(stderr, "simt-meta: %s\n", err);
        simt_elf_free(&elf);
        return 1;
    }
    if (!lines.nranges) {
        fprintf(stderr, "simt-meta: %s: no line table (build the kernel "
                "with -g)\n", path);
    }
    for (i = 0; i < lines.nranges; i++) {
        const struct simt_lines_range *r = &lines.ranges[i];
        const char *call_file, *inlined_file;
        unsigned int call_line, inlined_line;

        printf("0x%08x %s:%u", r->start, lines.files[r->file], r->line);
        if (simt_lines_find_call(&lines, r->start, &call_file, &call_line,
                                 &inlined_file, &inlined_line) &&
            inlined_file) {
            printf(" (inlined at %s:%u)", call_file, call_line);
        }
        printf("\n");
        ret = 0;
    }
    simt_lines_free(&lines);
    simt_elf_free(&elf);
    return ret;
}

/* Parse a freshly built note, so --dump shows exactly what is written. */
static int meta_from_note(const uint8_t *note, struct simt_meta *meta,
                          char *err, size_t errlen)
{
    uint32_t descsz = simt_le32(note + 4);

    return simt_meta_parse(meta, note + 20, descsz, err, errlen);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "dump", no_argument, NULL, 'd' },
        { "lines", no_argument, NULL, 'l' },
        { "pp-interval", required_argument, NULL, 'k' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *in, *out = NULL;
    struct simt_image img;
    struct sm_program prog;
    struct sm_result res;
    struct simt_meta fresh;
    uint8_t *note = NULL;
    size_t note_len;
    char err[512];
    bool dump_only = false, lines_only = false;
    unsigned long pp_interval = 0;
    int c, ret = 1;

    while ((c = getopt_long(argc, argv, "o:dlk:h", opts, NULL)) != -1) {
        char *end;

        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'k':
            pp_interval = strtoul(optarg, &end, 0);
            if (*end || !pp_interval || pp_interval > 1000000) {
                fprintf(stderr, "simt-meta: bad --pp-interval %s (want "
                        "1..1000000)\n", optarg);
                return 2;
            }
            break;
        case 'd':
            dump_only = true;
            break;
        case 'l':
            lines_only = true;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc - 1 || (dump_only && out) ||
        (lines_only && (out || dump_only || pp_interval))) {
        usage(stderr);
        return 2;
    }
    in = argv[optind];
    if (lines_only) {
        return print_lines(in);
    }
    if (!out) {
        out = in;
    }

    if (simt_image_load(&img, in, err, sizeof(err)) < 0) {
        fprintf(stderr, "simt-meta: %s\n", err);
        return 1;
    }
    if (sm_program_from_image(&img, &prog, err, sizeof(err)) < 0) {
        fprintf(stderr, "simt-meta: %s\n", err);
        simt_image_free(&img);
        return 1;
    }
    prog.pp_interval = pp_interval;
    if (dump_only && img.has_meta && !pp_interval) {
        dump(&img, &prog, &img.meta);
        ret = 0;
        goto out;
    }
    if (sm_analyze(&prog, &res, err, sizeof(err)) < 0) {
        fprintf(stderr, "simt-meta: %s\n", err);
        goto out;
    }
    if (sm_note_build(&prog, &res, &note, &note_len) < 0) {
        fprintf(stderr, "simt-meta: %s: out of memory\n", in);
    } else if (dump_only) {
        if (meta_from_note(note, &fresh, err, sizeof(err)) < 0) {
            fprintf(stderr, "simt-meta: %s: %s\n", in, err);
        } else {
            dump(&img, &prog, &fresh);
            simt_meta_free(&fresh);
            ret = 0;
        }
    } else if (sm_elf_write_note(&img.elf, note, note_len, out, err,
                                 sizeof(err)) < 0) {
        fprintf(stderr, "simt-meta: %s\n", err);
    } else {
        ret = 0;
    }
    free(note);
    sm_result_free(&res);
out:
    sm_program_free(&prog);
    simt_image_free(&img);
    return ret;
}
