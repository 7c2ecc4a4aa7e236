/* SPDX-License-Identifier: MIT */
/*
 * The few ELF32 constants simt-elf needs, defined here rather than taken
 * from <elf.h> so the reader builds with any C library (EM_RISCV is
 * missing from older ones).
 */
#ifndef SIMT_ELF_DEFS_H
#define SIMT_ELF_DEFS_H

#define ELF_CLASS32             1
#define ELF_DATA2LSB            1
#define ELF_ET_REL              1
#define ELF_ET_EXEC             2
#define ELF_EM_RISCV            243

#define ELF32_EHDR_SIZE         52
#define ELF32_PHDR_SIZE         32
#define ELF32_SHDR_SIZE         40
#define ELF32_SYM_SIZE          16

#define ELF_PT_LOAD             1

#define ELF_SHT_NULL            0
#define ELF_SHT_PROGBITS        1
#define ELF_SHT_SYMTAB          2
#define ELF_SHT_STRTAB          3
#define ELF_SHT_RELA            4
#define ELF_SHT_DYNAMIC         6
#define ELF_SHT_NOTE            7
#define ELF_SHT_NOBITS          8
#define ELF_SHT_REL             9
#define ELF_SHT_DYNSYM          11
#define ELF_SHT_INIT_ARRAY      14
#define ELF_SHT_FINI_ARRAY      15
#define ELF_SHT_PREINIT_ARRAY   16

#define ELF_SHF_ALLOC           0x2
#define ELF_SHF_EXECINSTR       0x4
#define ELF_SHF_TLS             0x400
#define ELF_SHF_COMPRESSED      0x800

#define ELF_STT_FUNC            2
#define ELF_STB_LOCAL           0
#define ELF_SHN_UNDEF           0

#define ELF_EF_RISCV_RVC        0x1
#define ELF_EF_RISCV_RVE        0x8

#endif /* SIMT_ELF_DEFS_H */
