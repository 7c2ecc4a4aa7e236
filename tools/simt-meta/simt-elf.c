/* SPDX-License-Identifier: MIT */
/*
 * simt-elf: reader for simt kernel images and their metadata note.
 *
 * Fields are read byte by byte as little-endian, so the code works on any
 * host and never makes unaligned accesses to the file buffer.
 */
#include "simt-elf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-defs.h"
#include "hw/simt/simt-le.h"

int simt_elf_error(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Does [off, off + len) lie within a buffer of @size bytes? */
static bool in_bounds(size_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

/* A NUL-terminated string at @off in string section @strsec, or NULL. */
static const char *str_at(const struct simt_elf *elf,
                          const struct simt_elf_section *strsec, uint32_t off)
{
    const char *s;

    if (strsec->type != ELF_SHT_STRTAB || off >= strsec->size) {
        return NULL;
    }
    s = (const char *)elf->data + strsec->offset + off;
    if (!memchr(s, '\0', strsec->size - off)) {
        return NULL;
    }
    return s;
}

static int parse_sections(struct simt_elf *elf, uint32_t shoff,
                          uint16_t shentsize, uint16_t shnum,
                          uint16_t shstrndx, char *err, size_t errlen)
{
    const char *path = elf->path;
    uint32_t i;

    if (shnum == 0) {
        return simt_elf_error(err, errlen, "%s: no section headers", path);
    }
    if (shentsize != ELF32_SHDR_SIZE) {
        return simt_elf_error(err, errlen, "%s: bad section header size %u",
                              path, shentsize);
    }
    if (!in_bounds(elf->size, shoff, (uint64_t)shnum * shentsize)) {
        return simt_elf_error(err, errlen,
                              "%s: section headers beyond end of file",
                              path);
    }
    if (shstrndx >= shnum) {
        return simt_elf_error(err, errlen,
                              "%s: bad section name table index %u",
                              path, shstrndx);
    }
    elf->sections = calloc(shnum, sizeof(*elf->sections));
    if (!elf->sections) {
        return simt_elf_error(err, errlen, "%s: out of memory", path);
    }
    elf->nsections = shnum;
    for (i = 0; i < shnum; i++) {
        const uint8_t *sh = elf->data + shoff + i * shentsize;
        struct simt_elf_section *s = &elf->sections[i];

        s->type = simt_le32(sh + 4);
        s->flags = simt_le32(sh + 8);
        s->addr = simt_le32(sh + 12);
        s->offset = simt_le32(sh + 16);
        s->size = simt_le32(sh + 20);
        s->link = simt_le32(sh + 24);
        s->entsize = simt_le32(sh + 36);
        if (s->type != ELF_SHT_NOBITS && s->type != ELF_SHT_NULL &&
            !in_bounds(elf->size, s->offset, s->size)) {
            return simt_elf_error(err, errlen,
                                  "%s: section %u lies beyond end of file",
                                  path, i);
        }
    }
    for (i = 0; i < shnum; i++) {
        uint32_t name = simt_le32(elf->data + shoff + i * shentsize);

        elf->sections[i].name = str_at(elf, &elf->sections[shstrndx], name);
        if (!elf->sections[i].name) {
            return simt_elf_error(err, errlen, "%s: section %u has a bad name",
                                  path, i);
        }
    }
    return 0;
}

static int parse_segments(struct simt_elf *elf, uint32_t phoff,
                          uint16_t phentsize, uint16_t phnum,
                          char *err, size_t errlen)
{
    uint32_t i;

    if (phnum == 0) {
        return 0;
    }
    if (phentsize != ELF32_PHDR_SIZE ||
        !in_bounds(elf->size, phoff, (uint64_t)phnum * phentsize)) {
        return simt_elf_error(err, errlen,
                              "%s: bad program headers", elf->path);
    }
    elf->segments = calloc(phnum, sizeof(*elf->segments));
    if (!elf->segments) {
        return simt_elf_error(err, errlen, "%s: out of memory", elf->path);
    }
    elf->nsegments = phnum;
    for (i = 0; i < phnum; i++) {
        const uint8_t *ph = elf->data + phoff + i * phentsize;
        struct simt_elf_segment *s = &elf->segments[i];

        s->type = simt_le32(ph);
        s->offset = simt_le32(ph + 4);
        s->vaddr = simt_le32(ph + 8);
        s->filesz = simt_le32(ph + 16);
        s->memsz = simt_le32(ph + 20);
        s->flags = simt_le32(ph + 24);
        if (s->type != ELF_PT_LOAD) {
            continue;
        }
        if (!in_bounds(elf->size, s->offset, s->filesz)) {
            return simt_elf_error(err, errlen,
                                  "%s: segment %u lies beyond end of file",
                                  elf->path, i);
        }
        if (s->filesz > s->memsz) {
            return simt_elf_error(err, errlen,
                                  "%s: segment %u has more file than "
                                  "memory bytes", elf->path, i);
        }
    }
    return 0;
}

static int parse_symbols(struct simt_elf *elf, char *err, size_t errlen)
{
    const struct simt_elf_section *symtab = NULL, *strtab;
    uint32_t i;

    for (i = 0; i < elf->nsections; i++) {
        if (elf->sections[i].type == ELF_SHT_SYMTAB) {
            symtab = &elf->sections[i];
            break;
        }
    }
    if (!symtab) {
        return 0;
    }
    if (symtab->entsize != ELF32_SYM_SIZE || symtab->link >= elf->nsections) {
        return simt_elf_error(err, errlen,
                              "%s: malformed symbol table", elf->path);
    }
    strtab = &elf->sections[symtab->link];
    elf->nsymbols = symtab->size / ELF32_SYM_SIZE;
    elf->symbols = calloc(elf->nsymbols ? elf->nsymbols : 1,
                          sizeof(*elf->symbols));
    if (!elf->symbols) {
        return simt_elf_error(err, errlen, "%s: out of memory", elf->path);
    }
    for (i = 0; i < elf->nsymbols; i++) {
        const uint8_t *st = elf->data + symtab->offset + i * ELF32_SYM_SIZE;
        struct simt_elf_symbol *sym = &elf->symbols[i];

        sym->name = str_at(elf, strtab, simt_le32(st));
        if (!sym->name) {
            return simt_elf_error(err, errlen, "%s: symbol %u has a bad name",
                                  elf->path, i);
        }
        sym->value = simt_le32(st + 4);
        sym->size = simt_le32(st + 8);
        sym->type = st[12] & 0xf;
        sym->bind = st[12] >> 4;
        sym->shndx = simt_le16(st + 14);
    }
    return 0;
}

int simt_elf_parse(struct simt_elf *elf, const char *path, uint8_t *data,
                   size_t size, char *err, size_t errlen)
{
    const uint8_t *eh = data;
    uint16_t machine;

    memset(elf, 0, sizeof(*elf));
    elf->path = path;
    elf->data = data;
    elf->size = size;

    if (size < ELF32_EHDR_SIZE || memcmp(eh, "\177ELF", 4) != 0) {
        return simt_elf_error(err, errlen, "%s: not an ELF file", path);
    }
    if (eh[4] != ELF_CLASS32) {
        return simt_elf_error(err, errlen,
                              "%s: ELF class %u, want ELF32 (riscv32)",
                              path, eh[4]);
    }
    if (eh[5] != ELF_DATA2LSB) {
        return simt_elf_error(err, errlen, "%s: not little-endian", path);
    }
    machine = simt_le16(eh + 18);
    if (machine != ELF_EM_RISCV) {
        return simt_elf_error(err, errlen, "%s: machine %u, want RISC-V (%u)",
                              path, machine, ELF_EM_RISCV);
    }
    elf->type = simt_le16(eh + 16);
    if (elf->type == ELF_ET_REL) {
        return simt_elf_error(err, errlen,
                              "%s: relocatable object; link it with "
                              "kernels/simt.ld",
                              path);
    }
    if (elf->type != ELF_ET_EXEC) {
        return simt_elf_error(err, errlen,
                              "%s: ELF type %u, want a static executable "
                              "(ET_EXEC)",
                              path, elf->type);
    }
    elf->entry = simt_le32(eh + 24);
    elf->flags = simt_le32(eh + 36);
    if (parse_segments(elf, simt_le32(eh + 28), simt_le16(eh + 42),
                       simt_le16(eh + 44), err, errlen) < 0 ||
        parse_sections(elf, simt_le32(eh + 32), simt_le16(eh + 46),
                       simt_le16(eh + 48), simt_le16(eh + 50), err,
                       errlen) < 0 ||
        parse_symbols(elf, err, errlen) < 0) {
        return -1;
    }
    return 0;
}

int simt_elf_read_file(struct simt_elf *elf, const char *path,
                       char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, n;

    memset(elf, 0, sizeof(*elf));
    if (!f) {
        return simt_elf_error(err, errlen, "%s: %s", path, strerror(errno));
    }
    do {
        if (size == cap) {
            uint8_t *grown;

            cap = cap ? cap * 2 : 65536;
            if (cap > SIMT_ELF_MAX_FILE) {
                free(data);
                fclose(f);
                return simt_elf_error(err, errlen, "%s: larger than %u bytes",
                                      path, SIMT_ELF_MAX_FILE);
            }
            grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                return simt_elf_error(err, errlen, "%s: out of memory", path);
            }
            data = grown;
        }
        n = fread(data + size, 1, cap - size, f);
        size += n;
    } while (n > 0);
    if (ferror(f)) {
        free(data);
        fclose(f);
        return simt_elf_error(err, errlen, "%s: read error", path);
    }
    fclose(f);
    return simt_elf_parse(elf, path, data, size, err, errlen);
}

void simt_elf_free(struct simt_elf *elf)
{
    free(elf->data);
    free(elf->sections);
    free(elf->segments);
    free(elf->symbols);
    memset(elf, 0, sizeof(*elf));
}

const struct simt_elf_section *simt_elf_section_by_name(
    const struct simt_elf *elf, const char *name)
{
    uint32_t i;

    for (i = 0; i < elf->nsections; i++) {
        if (strcmp(elf->sections[i].name, name) == 0) {
            return &elf->sections[i];
        }
    }
    return NULL;
}

const struct simt_elf_symbol *simt_elf_symbol_by_name(
    const struct simt_elf *elf, const char *name)
{
    uint32_t i;

    for (i = 0; i < elf->nsymbols; i++) {
        if (strcmp(elf->symbols[i].name, name) == 0) {
            return &elf->symbols[i];
        }
    }
    return NULL;
}

int simt_elf_find_meta(const struct simt_elf *elf, const uint8_t **desc,
                       uint32_t *len, char *err, size_t errlen)
{
    const struct simt_elf_section *s;
    const uint8_t *p;
    uint32_t namesz, descsz, type, desc_off;

    s = simt_elf_section_by_name(elf, SIMT_NOTE_SECTION);
    if (!s) {
        return 0;
    }
    if (s->type != ELF_SHT_NOTE || s->size < 12) {
        return simt_elf_error(err, errlen, "%s: %s is not a note section",
                              elf->path, SIMT_NOTE_SECTION);
    }
    p = elf->data + s->offset;
    namesz = simt_le32(p);
    descsz = simt_le32(p + 4);
    type = simt_le32(p + 8);
    desc_off = 12 + ((sizeof(SIMT_NOTE_NAME) + 3) & ~3u);
    if (namesz != sizeof(SIMT_NOTE_NAME) || s->size < desc_off ||
        memcmp(p + 12, SIMT_NOTE_NAME, sizeof(SIMT_NOTE_NAME)) != 0 ||
        type != SIMT_NOTE_TYPE_META) {
        return simt_elf_error(err, errlen,
                              "%s: %s does not hold a SIMT metadata note",
                              elf->path, SIMT_NOTE_SECTION);
    }
    if (!in_bounds(s->size, desc_off, descsz)) {
        return simt_elf_error(err, errlen,
                              "%s: SIMT note is truncated", elf->path);
    }
    *desc = p + desc_off;
    *len = descsz;
    return 1;
}

int simt_meta_parse(struct simt_meta *meta, const uint8_t *desc,
                    uint32_t len, char *err, size_t errlen)
{
    struct simt_meta_header *h = &meta->h;
    uint32_t i;

    memset(meta, 0, sizeof(*meta));
    if (len < sizeof(*h)) {
        return simt_elf_error(err, errlen, "metadata note too short");
    }
    h->version = simt_le32(desc);
    h->header_size = simt_le32(desc + 4);
    h->nkernels = simt_le32(desc + 8);
    h->kernel_offset = simt_le32(desc + 12);
    h->kernel_size = simt_le32(desc + 16);
    h->code_start = simt_le32(desc + 20);
    h->code_end = simt_le32(desc + 24);
    h->live_offset = simt_le32(desc + 28);
    h->strtab_offset = simt_le32(desc + 32);
    h->strtab_size = simt_le32(desc + 36);
    h->pp_offset = simt_le32(desc + 40);
    h->pp_count = simt_le32(desc + 44);
    h->pp_interval = simt_le32(desc + 48);
    if (h->version != SIMT_META_VERSION) {
        return simt_elf_error(err, errlen,
                              "metadata version %u, this reader knows %u",
                              h->version, SIMT_META_VERSION);
    }
    if (h->header_size < sizeof(*h) ||
        h->kernel_size < sizeof(struct simt_meta_kernel) ||
        !in_bounds(len, h->kernel_offset,
                   (uint64_t)h->nkernels * h->kernel_size) ||
        h->code_end < h->code_start || (h->code_start & 3) ||
        (h->code_end & 3) ||
        !in_bounds(len, h->live_offset,
                   (uint64_t)(h->code_end - h->code_start) * 2) ||
        !in_bounds(len, h->strtab_offset, h->strtab_size) ||
        !in_bounds(len, h->pp_offset, (uint64_t)h->pp_count * 4) ||
        h->strtab_size == 0 ||
        desc[h->strtab_offset + h->strtab_size - 1] != '\0') {
        return simt_elf_error(err, errlen, "malformed metadata note header");
    }
    meta->nlive = (h->code_end - h->code_start) / 4;
    meta->live = calloc(meta->nlive ? meta->nlive : 1, sizeof(uint64_t));
    meta->kernels = calloc(h->nkernels ? h->nkernels : 1,
                           sizeof(*meta->kernels));
    meta->strtab = malloc(h->strtab_size);
    meta->pp = calloc(h->pp_count ? h->pp_count : 1, sizeof(uint32_t));
    if (!meta->live || !meta->kernels || !meta->strtab || !meta->pp) {
        simt_meta_free(meta);
        return simt_elf_error(err, errlen, "out of memory");
    }
    memcpy(meta->strtab, desc + h->strtab_offset, h->strtab_size);
    for (i = 0; i < meta->nlive; i++) {
        const uint8_t *p = desc + h->live_offset + i * 8;

        meta->live[i] = simt_le32(p) | ((uint64_t)simt_le32(p + 4) << 32);
    }
    for (i = 0; i < h->pp_count; i++) {
        meta->pp[i] = simt_le32(desc + h->pp_offset + 4 * i);
        if (meta->pp[i] < h->code_start || meta->pp[i] >= h->code_end ||
            (meta->pp[i] & 3) || (i > 0 && meta->pp[i] <= meta->pp[i - 1])) {
            simt_meta_free(meta);
            return simt_elf_error(err, errlen,
                                  "malformed preemption point %u", i);
        }
    }
    for (i = 0; i < h->nkernels; i++) {
        const uint8_t *p = desc + h->kernel_offset + i * h->kernel_size;
        struct simt_kernel_info *k = &meta->kernels[i];

        k->m.name = simt_le32(p);
        k->m.entry = simt_le32(p + 4);
        k->m.code_start = simt_le32(p + 8);
        k->m.code_end = simt_le32(p + 12);
        k->m.int_regs_used = simt_le32(p + 16);
        k->m.fp_regs_used = simt_le32(p + 20);
        k->m.shared_bytes = simt_le32(p + 24);
        k->m.local_bytes = simt_le32(p + 28);
        k->m.flags = simt_le32(p + 32);
        k->m.load_origins = simt_le32(p + 36);
        k->m.store_origins = simt_le32(p + 40);
        k->m.insn_count = simt_le32(p + 44);
        if (k->m.name >= h->strtab_size ||
            k->m.code_start < h->code_start || k->m.code_end > h->code_end ||
            k->m.entry < k->m.code_start || k->m.entry >= k->m.code_end) {
            simt_meta_free(meta);
            return simt_elf_error(err, errlen,
                                  "malformed metadata for kernel %u", i);
        }
        k->name = meta->strtab + k->m.name;
    }
    return 0;
}

void simt_meta_free(struct simt_meta *meta)
{
    free(meta->kernels);
    free(meta->live);
    free(meta->pp);
    free(meta->strtab);
    memset(meta, 0, sizeof(*meta));
}

uint64_t simt_meta_live_at(const struct simt_meta *meta, uint32_t pc)
{
    if (pc < meta->h.code_start || pc >= meta->h.code_end || (pc & 3)) {
        return ~(uint64_t)0;
    }
    return meta->live[(pc - meta->h.code_start) / 4];
}

bool simt_meta_is_pp(const struct simt_meta *meta, uint32_t pc)
{
    uint32_t lo = 0, hi = meta->h.pp_count;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (meta->pp[mid] == pc) {
            return true;
        }
        if (meta->pp[mid] < pc) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

/* Is [addr, addr + size) inside the shared memory window? */
static bool in_shared_window(uint32_t addr, uint32_t size)
{
    return addr >= SIMT_SHARED_BASE &&
           (uint64_t)addr + size <= (uint64_t)SIMT_SHARED_BASE +
                                    SIMT_SHARED_WINDOW;
}

static int load_image(struct simt_image *img, char *err, size_t errlen)
{
    const struct simt_elf *elf = &img->elf;
    const struct simt_elf_section *shared;
    const uint8_t *desc;
    uint64_t lo = UINT64_MAX, hi = 0;
    uint32_t i, desc_len;
    int found;

    for (i = 0; i < elf->nsegments; i++) {
        const struct simt_elf_segment *s = &elf->segments[i];

        if (s->type != ELF_PT_LOAD || s->memsz == 0 ||
            in_shared_window(s->vaddr, s->memsz)) {
            continue;
        }
        lo = s->vaddr < lo ? s->vaddr : lo;
        hi = (uint64_t)s->vaddr + s->memsz > hi ?
             (uint64_t)s->vaddr + s->memsz : hi;
    }
    if (lo == UINT64_MAX) {
        return simt_elf_error(err, errlen,
                              "%s: no loadable segment", elf->path);
    }
    if (hi - lo > SIMT_ELF_MAX_IMAGE || hi > UINT32_MAX) {
        return simt_elf_error(err, errlen,
                              "%s: loadable image too large", elf->path);
    }
    img->base = (uint32_t)lo;
    img->size = (uint32_t)(hi - lo);
    img->bytes = calloc(1, img->size);
    if (!img->bytes) {
        return simt_elf_error(err, errlen, "%s: out of memory", elf->path);
    }
    for (i = 0; i < elf->nsegments; i++) {
        const struct simt_elf_segment *s = &elf->segments[i];

        if (s->type != ELF_PT_LOAD || s->memsz == 0 ||
            in_shared_window(s->vaddr, s->memsz)) {
            continue;
        }
        memcpy(img->bytes + (s->vaddr - img->base), elf->data + s->offset,
               s->filesz);
    }

    for (i = 0; i < elf->nsections; i++) {
        const struct simt_elf_section *s = &elf->sections[i];

        if ((s->flags & ELF_SHF_EXECINSTR) && (s->flags & ELF_SHF_ALLOC) &&
            s->size) {
            if (img->code_end) {
                return simt_elf_error(err, errlen,
                                      "%s: more than one executable section "
                                      "(%s)",
                                      elf->path, s->name);
            }
            if (s->addr < img->base ||
                (uint64_t)s->addr + s->size > hi) {
                return simt_elf_error(err, errlen,
                                      "%s: section %s is not in a loadable "
                                      "segment",
                                      elf->path, s->name);
            }
            img->code_start = s->addr;
            img->code_end = s->addr + s->size;
        }
    }
    if (!img->code_end) {
        return simt_elf_error(err, errlen,
                              "%s: no executable section", elf->path);
    }

    shared = simt_elf_section_by_name(elf, ".shared");
    if (shared && shared->size) {
        if (shared->type != ELF_SHT_NOBITS) {
            return simt_elf_error(err, errlen,
                                  "%s: .shared has contents; shared memory "
                                  "cannot be initialised", elf->path);
        }
        if (shared->addr != SIMT_SHARED_BASE ||
            !in_shared_window(shared->addr, shared->size)) {
            return simt_elf_error(err, errlen,
                                  "%s: .shared is not at the shared window "
                                  "0x%08x",
                                  elf->path, SIMT_SHARED_BASE);
        }
        img->shared_bytes = shared->size;
    }

    found = simt_elf_find_meta(elf, &desc, &desc_len, err, errlen);
    if (found < 0) {
        return -1;
    }
    if (found) {
        char why[200];

        if (simt_meta_parse(&img->meta, desc, desc_len, why,
                            sizeof(why)) < 0) {
            return simt_elf_error(err, errlen, "%s: %s", elf->path, why);
        }
        img->has_meta = true;
    }
    return 0;
}

int simt_image_load(struct simt_image *img, const char *path,
                    char *err, size_t errlen)
{
    memset(img, 0, sizeof(*img));
    if (simt_elf_read_file(&img->elf, path, err, errlen) < 0 ||
        load_image(img, err, errlen) < 0) {
        simt_image_free(img);
        return -1;
    }
    return 0;
}

int simt_image_load_mem(struct simt_image *img, const char *name,
                        const void *buf, size_t len,
                        char *err, size_t errlen)
{
    uint8_t *copy;

    memset(img, 0, sizeof(*img));
    if (len > SIMT_ELF_MAX_FILE) {
        return simt_elf_error(err, errlen, "%s: larger than %u bytes",
                              name, SIMT_ELF_MAX_FILE);
    }
    copy = malloc(len ? len : 1);
    if (!copy) {
        return simt_elf_error(err, errlen, "%s: out of memory", name);
    }
    memcpy(copy, buf, len);
    if (simt_elf_parse(&img->elf, name, copy, len, err, errlen) < 0 ||
        load_image(img, err, errlen) < 0) {
        simt_image_free(img);
        return -1;
    }
    return 0;
}

void simt_image_free(struct simt_image *img)
{
    simt_elf_free(&img->elf);
    simt_meta_free(&img->meta);
    free(img->bytes);
    memset(img, 0, sizeof(*img));
}

const struct simt_kernel_info *simt_image_kernel(const struct simt_image *img,
                                                 const char *name)
{
    uint32_t i;

    for (i = 0; img->has_meta && i < img->meta.h.nkernels; i++) {
        if (strcmp(img->meta.kernels[i].name, name) == 0) {
            return &img->meta.kernels[i];
        }
    }
    return NULL;
}
