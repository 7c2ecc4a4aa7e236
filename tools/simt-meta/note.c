/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt-meta: from a kernel ELF to an analysable program, and the SIMT
 * metadata note back into the ELF.
 */
#include "simt-meta.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf-defs.h"
#include "hw/simt/simt-le.h"

/* ELF features a kernel image must not use, with the reason. */
static int check_features(const struct simt_elf *elf, char *err,
                          size_t errlen)
{
    uint32_t i;

    if (elf->flags & ELF_EF_RISCV_RVC) {
        return simt_elf_error(err, errlen,
                              "%s: built with compressed instructions "
                              "(EF_RISCV_RVC); compile with -march=rv32imaf",
                              elf->path);
    }
    if (elf->flags & ELF_EF_RISCV_RVE) {
        return simt_elf_error(err, errlen, "%s: RV32E code; lanes are RV32IMAF",
                              elf->path);
    }
    for (i = 0; i < elf->nsections; i++) {
        const struct simt_elf_section *s = &elf->sections[i];

        switch (s->type) {
        case ELF_SHT_REL:
        case ELF_SHT_RELA:
            return simt_elf_error(err, errlen,
                                  "%s: unsupported relocation section "
                                  "%s; images are loaded without relocation",
                                  elf->path, s->name);
        case ELF_SHT_DYNAMIC:
        case ELF_SHT_DYNSYM:
            return simt_elf_error(err, errlen,
                                  "%s: section %s: dynamic linking is "
                                  "not supported", elf->path, s->name);
        case ELF_SHT_INIT_ARRAY:
        case ELF_SHT_FINI_ARRAY:
        case ELF_SHT_PREINIT_ARRAY:
            return simt_elf_error(err, errlen,
                                  "%s: section %s: constructors and "
                                  "destructors are not supported", elf->path,
                                  s->name);
        }
        if (s->flags & ELF_SHF_TLS) {
            return simt_elf_error(err, errlen,
                                  "%s: section %s: thread-local storage "
                                  "is not supported", elf->path, s->name);
        }
    }
    return 0;
}

static int cmp_func(const void *a, const void *b)
{
    const struct sm_func *x = a, *y = b;

    if (x->start != y->start) {
        return x->start < y->start ? -1 : 1;
    }
    /* among aliases, global names (marked kernel for now) first */
    return (int)y->kernel - (int)x->kernel;
}

int sm_program_from_image(const struct simt_image *img,
                          struct sm_program *prog, char *err, size_t errlen)
{
    const struct simt_elf *elf = &img->elf;
    const struct simt_elf_symbol *ks, *ke;
    uint32_t i, n = 0, kernels = 0;
    uint32_t *words;

    memset(prog, 0, sizeof(*prog));
    if (check_features(elf, err, errlen) < 0) {
        return -1;
    }
    if ((img->code_start & 3) || (img->code_end & 3)) {
        return simt_elf_error(err, errlen,
                              "%s: code [0x%08x, 0x%08x) is not made of "
                    "4-byte instructions (compressed instructions?)",
                    elf->path, img->code_start, img->code_end);
    }
    prog->file = elf->path;
    prog->base = img->code_start;
    prog->ninsns = (img->code_end - img->code_start) / 4;
    prog->shared_bytes = img->shared_bytes;
    words = calloc(prog->ninsns ? prog->ninsns : 1, sizeof(*words));
    prog->funcs = calloc(elf->nsymbols ? elf->nsymbols : 1,
                         sizeof(*prog->funcs));
    prog->insns = words;
    if (!words || !prog->funcs) {
        sm_program_free(prog);
        return simt_elf_error(err, errlen, "%s: out of memory", elf->path);
    }
    for (i = 0; i < prog->ninsns; i++) {
        words[i] = simt_le32(img->bytes + (img->code_start - img->base) + 4 * i);
    }
    /* A pointer to shared memory kept in data hides from code analysis. */
    for (i = 0; i + 4 <= img->size; i += 4) {
        uint32_t addr = img->base + i, v = simt_le32(img->bytes + i);

        if ((addr < img->code_start || addr >= img->code_end) &&
            v >= SIMT_SHARED_BASE &&
            v - SIMT_SHARED_BASE <= img->shared_bytes) {
            prog->shared_pointers_in_data = true;
        }
    }

    for (i = 0; i < elf->nsymbols; i++) {
        const struct simt_elf_symbol *s = &elf->symbols[i];
        struct sm_func *f;

        if (s->type != ELF_STT_FUNC || s->shndx == ELF_SHN_UNDEF) {
            continue;
        }
        if (s->value < img->code_start || s->value >= img->code_end ||
            (uint64_t)s->value + s->size > img->code_end) {
            sm_program_free(prog);
            return simt_elf_error(err, errlen,
                                  "%s: function %s lies outside the code "
                                  "section", elf->path, s->name);
        }
        if ((s->value | s->size) & 3) {
            sm_program_free(prog);
            return simt_elf_error(err, errlen,
                                  "%s: function %s is not made of 4-byte "
                                  "instructions (compressed instructions?)",
                                  elf->path, s->name);
        }
        f = &prog->funcs[n++];
        f->name = s->name;
        f->start = s->value;
        f->end = s->value + s->size;
        f->kernel = s->bind != ELF_STB_LOCAL;
    }
    qsort(prog->funcs, n, sizeof(*prog->funcs), cmp_func);

    /* Merge aliases; symbols without a size end where the next begins. */
    prog->nfuncs = 0;
    for (i = 0; i < n; i++) {
        struct sm_func *f = &prog->funcs[i];

        if (prog->nfuncs && prog->funcs[prog->nfuncs - 1].start == f->start) {
            struct sm_func *prev = &prog->funcs[prog->nfuncs - 1];

            prev->end = f->end > prev->end ? f->end : prev->end;
            continue;
        }
        prog->funcs[prog->nfuncs++] = *f;
    }
    for (i = 0; i < prog->nfuncs; i++) {
        struct sm_func *f = &prog->funcs[i];
        uint32_t next = i + 1 < prog->nfuncs ? prog->funcs[i + 1].start :
                                               img->code_end;

        if (f->end == f->start) {
            f->end = next;
        }
        if (f->end > next) {
            simt_elf_error(err, errlen, "%s: functions %s and %s overlap",
                           elf->path, f->name, prog->funcs[i + 1].name);
            sm_program_free(prog);
            return -1;
        }
    }

    /*
     * Kernels are the functions KERNEL put between the linker script's
     * markers; images linked otherwise fall back to global functions.
     */
    ks = simt_elf_symbol_by_name(elf, "__simt_kernels_start");
    ke = simt_elf_symbol_by_name(elf, "__simt_kernels_end");
    for (i = 0; i < prog->nfuncs; i++) {
        struct sm_func *f = &prog->funcs[i];

        if (ks && ke) {
            f->kernel = f->start >= ks->value && f->start < ke->value;
        }
        kernels += f->kernel;
    }
    if (!kernels) {
        sm_program_free(prog);
        return simt_elf_error(err, errlen,
                              "%s: no kernel entry symbol; mark kernels "
                              "with KERNEL from simt.h and link with "
                              "kernels/simt.ld",
                              elf->path);
    }
    return 0;
}

void sm_program_free(struct sm_program *prog)
{
    free((void *)prog->insns);
    free(prog->funcs);
    memset(prog, 0, sizeof(*prog));
}

#define NOTE_NAME_PADDED    8       /* "SIMT\0" padded to 4 bytes */
#define META_HEADER_BYTES   52
#define META_KERNEL_BYTES   48

int sm_note_build(const struct sm_program *prog, const struct sm_result *res,
                  uint8_t **note, size_t *len)
{
    uint32_t strtab_size = 1, desc_size, pp_off, str_off, off, i;
    uint32_t live_off = META_HEADER_BYTES + res->nkernels * META_KERNEL_BYTES;
    uint8_t *buf, *desc;

    for (i = 0; i < res->nkernels; i++) {
        strtab_size += strlen(res->kernels[i].name) + 1;
    }
    pp_off = live_off + prog->ninsns * 8;
    str_off = pp_off + res->npp * 4;
    desc_size = str_off + strtab_size;
    *len = 12 + NOTE_NAME_PADDED + ((desc_size + 3) & ~3u);
    buf = calloc(1, *len);
    if (!buf) {
        return -1;
    }
    simt_put_le32(buf, sizeof(SIMT_NOTE_NAME));
    simt_put_le32(buf + 4, desc_size);
    simt_put_le32(buf + 8, SIMT_NOTE_TYPE_META);
    memcpy(buf + 12, SIMT_NOTE_NAME, sizeof(SIMT_NOTE_NAME));
    desc = buf + 12 + NOTE_NAME_PADDED;

    simt_put_le32(desc, SIMT_META_VERSION);
    simt_put_le32(desc + 4, META_HEADER_BYTES);
    simt_put_le32(desc + 8, res->nkernels);
    simt_put_le32(desc + 12, META_HEADER_BYTES);
    simt_put_le32(desc + 16, META_KERNEL_BYTES);
    simt_put_le32(desc + 20, prog->base);
    simt_put_le32(desc + 24, prog->base + 4 * prog->ninsns);
    simt_put_le32(desc + 28, live_off);
    simt_put_le32(desc + 32, str_off);
    simt_put_le32(desc + 36, strtab_size);
    simt_put_le32(desc + 40, pp_off);
    simt_put_le32(desc + 44, res->npp);
    simt_put_le32(desc + 48, res->pp_interval);

    off = 1;
    for (i = 0; i < res->nkernels; i++) {
        const struct simt_meta_kernel *m = &res->kernels[i].m;
        uint8_t *k = desc + META_HEADER_BYTES + i * META_KERNEL_BYTES;
        size_t nlen = strlen(res->kernels[i].name) + 1;

        simt_put_le32(k, off);
        simt_put_le32(k + 4, m->entry);
        simt_put_le32(k + 8, m->code_start);
        simt_put_le32(k + 12, m->code_end);
        simt_put_le32(k + 16, m->int_regs_used);
        simt_put_le32(k + 20, m->fp_regs_used);
        simt_put_le32(k + 24, m->shared_bytes);
        simt_put_le32(k + 28, m->local_bytes);
        simt_put_le32(k + 32, m->flags);
        simt_put_le32(k + 36, m->load_origins);
        simt_put_le32(k + 40, m->store_origins);
        simt_put_le32(k + 44, m->insn_count);
        memcpy(desc + str_off + off, res->kernels[i].name, nlen);
        off += nlen;
    }
    for (i = 0; i < prog->ninsns; i++) {
        simt_put_le32(desc + live_off + 8 * i, (uint32_t)res->live[i]);
        simt_put_le32(desc + live_off + 8 * i + 4, (uint32_t)(res->live[i] >> 32));
    }
    for (i = 0; i < res->npp; i++) {
        simt_put_le32(desc + pp_off + 4 * i, res->pp[i]);
    }
    *note = buf;
    return 0;
}

/* Append @len bytes at 4-byte alignment; returns their offset. */
static size_t append(uint8_t *out, size_t *pos, const void *data, size_t len)
{
    size_t at = (*pos + 3) & ~(size_t)3;

    memset(out + *pos, 0, at - *pos);
    memcpy(out + at, data, len);
    *pos = at + len;
    return at;
}

int sm_elf_write_note(const struct simt_elf *elf, const uint8_t *note,
                      size_t len, const char *out_path, char *err,
                      size_t errlen)
{
    const struct simt_elf_section *shstr, *old_note;
    uint32_t shoff = simt_le32(elf->data + 32);
    uint16_t shnum = simt_le16(elf->data + 48);
    uint16_t shstrndx = simt_le16(elf->data + 50);
    uint32_t note_name, nshnum = shnum;
    size_t cap, pos = elf->size, note_off, str_off, str_size, sh_at;
    char tmp[4096];
    uint8_t *out, *sh;
    FILE *f;
    int ok;

    shstr = &elf->sections[shstrndx];
    old_note = simt_elf_section_by_name(elf, SIMT_NOTE_SECTION);
    str_size = shstr->size;
    if (old_note) {
        note_name = simt_le32(elf->data + shoff +
                         (old_note - elf->sections) * ELF32_SHDR_SIZE);
    } else {
        note_name = shstr->size;
        str_size += sizeof(SIMT_NOTE_SECTION);
        nshnum++;
    }
    cap = elf->size + 16 + len + str_size + (size_t)nshnum * ELF32_SHDR_SIZE;
    if (cap > 0xffffffffu) {
        return simt_elf_error(err, errlen, "%s: output too large", out_path);
    }
    out = calloc(1, cap);
    if (!out) {
        return simt_elf_error(err, errlen, "%s: out of memory", out_path);
    }
    memcpy(out, elf->data, elf->size);
    note_off = append(out, &pos, note, len);
    str_off = append(out, &pos, elf->data + shstr->offset, shstr->size);
    if (!old_note) {
        memcpy(out + pos, SIMT_NOTE_SECTION, sizeof(SIMT_NOTE_SECTION));
        pos += sizeof(SIMT_NOTE_SECTION);
    }
    sh_at = append(out, &pos, elf->data + shoff,
                   (size_t)shnum * ELF32_SHDR_SIZE);
    sh = out + sh_at;
    simt_put_le32(sh + shstrndx * ELF32_SHDR_SIZE + 16, str_off);
    simt_put_le32(sh + shstrndx * ELF32_SHDR_SIZE + 20, str_size);
    sh += (old_note ? (size_t)(old_note - elf->sections) : shnum) *
          ELF32_SHDR_SIZE;
    memset(sh, 0, ELF32_SHDR_SIZE);
    simt_put_le32(sh, note_name);
    simt_put_le32(sh + 4, ELF_SHT_NOTE);
    simt_put_le32(sh + 16, note_off);
    simt_put_le32(sh + 20, len);
    simt_put_le32(sh + 32, 4);
    if (!old_note) {
        pos += ELF32_SHDR_SIZE;
    }
    simt_put_le32(out + 32, sh_at);
    simt_put_le16(out + 48, nshnum);

    snprintf(tmp, sizeof(tmp), "%s.tmp", out_path);
    f = fopen(tmp, "wb");
    if (!f) {
        free(out);
        return simt_elf_error(err, errlen, "%s: %s", tmp, strerror(errno));
    }
    ok = fwrite(out, 1, pos, f) == pos;
    ok &= fclose(f) == 0;
    free(out);
    if (!ok || rename(tmp, out_path) < 0) {
        unlink(tmp);
        return simt_elf_error(err, errlen, "%s: cannot write: %s", out_path,
                              strerror(errno));
    }
    return 0;
}
