/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cl-lower: from the bitcode clang makes of an OpenCL C source to the
 * bitcode of a simt kernel object, with the LLVM-C API.
 *
 * clang leaves OpenCL kernels in the spir_kernel calling convention,
 * which the RISC-V backend refuses, and their arguments in registers,
 * while a simt launch has eight argument words and OpenCL arguments can
 * be vectors and structs.  So each kernel becomes a C function of one
 * argument, the argument block of include/hw/simt/simt-clargs.h: its
 * body is moved whole into the new function, whose first instructions
 * set tp to the block (the work-item built-ins read the block's header
 * there) and load each argument from it.  Moving the body rather than
 * calling it keeps one function, named and located as the source says,
 * at every optimisation level and with -g.
 */
#include "simt-cc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "hw/simt/simt-clargs.h"
#include "hw/simt/simt-le.h"

/* clang's OpenCL address spaces with -ffake-address-space-map */
#define CL_AS_LOCAL     3

/* The bytes of a growing section, little-endian words and strings. */
struct blob {
    uint8_t *p;
    size_t len, cap;
};

static void blob_reserve(struct blob *b, size_t more)
{
    if (b->len + more > b->cap) {
        b->cap = (b->len + more) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            fprintf(stderr, "simt-cc: out of memory\n");
            exit(1);
        }
    }
}

static void blob_put32(struct blob *b, uint32_t v)
{
    blob_reserve(b, 4);
    simt_put_le32(b->p + b->len, v);
    b->len += 4;
}

/* Append @s with its NUL and return its offset. */
static uint32_t blob_string(struct blob *b, const char *s)
{
    size_t n = strlen(s) + 1;
    uint32_t at = b->len;

    blob_reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
    return at;
}

struct cl_lower {
    const struct cl_lower_options *opt;
    LLVMContextRef ctx;
    LLVMModuleRef m;
    LLVMTargetDataRef td;
    struct blob kernels, args, strings;
    uint32_t nkernels, nargs;
    int errors;
};

static void diagnostic(LLVMDiagnosticInfoRef di, void *opaque)
{
    struct cl_lower *cl = opaque;
    LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(di);
    char *d;

    if (sev != LLVMDSError && sev != LLVMDSWarning) {
        return;
    }
    d = LLVMGetDiagInfoDescription(di);
    fprintf(stderr, "simt-cc: %s: %s: %s\n", cl->opt->source,
            sev == LLVMDSError ? "error" : "warning", d);
    LLVMDisposeMessage(d);
    cl->errors += sev == LLVMDSError;
}

static LLVMModuleRef read_bitcode(struct cl_lower *cl, const char *path)
{
    LLVMMemoryBufferRef buf;
    LLVMModuleRef m;
    char *msg;

    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        fprintf(stderr, "simt-cc: %s: %s\n", path, msg);
        LLVMDisposeMessage(msg);
        return NULL;
    }
    if (LLVMParseBitcodeInContext2(cl->ctx, buf, &m)) {
        fprintf(stderr, "simt-cc: %s: cannot read LLVM bitcode\n", path);
        m = NULL;
    }
    LLVMDisposeMemoryBuffer(buf);
    return m;
}

/*
 * Link the built-ins library into the module and make its definitions
 * internal, so that the ones not used disappear and the others may be
 * inlined away.
 */
static int link_builtins(struct cl_lower *cl)
{
    LLVMModuleRef lib = read_bitcode(cl, cl->opt->builtins_bc);
    char **names;
    size_t n = 0, cap = 0, i;
    LLVMValueRef v;
    int ret = 0;

    if (!lib) {
        return -1;
    }
    for (v = LLVMGetFirstFunction(lib); v; v = LLVMGetNextFunction(v)) {
        cap += !LLVMIsDeclaration(v);
    }
    for (v = LLVMGetFirstGlobal(lib); v; v = LLVMGetNextGlobal(v)) {
        cap += !LLVMIsDeclaration(v);
    }
    names = calloc(cap ? cap : 1, sizeof(*names));
    if (!names) {
        fprintf(stderr, "simt-cc: out of memory\n");
        return -1;
    }
    for (v = LLVMGetFirstFunction(lib); v; v = LLVMGetNextFunction(v)) {
        if (!LLVMIsDeclaration(v)) {
            names[n++] = strdup(LLVMGetValueName2(v, &i));
        }
    }
    for (v = LLVMGetFirstGlobal(lib); v; v = LLVMGetNextGlobal(v)) {
        if (!LLVMIsDeclaration(v)) {
            names[n++] = strdup(LLVMGetValueName2(v, &i));
        }
    }
    /* LLVMLinkModules2 takes the library (and reports through diagnostic) */
    if (LLVMLinkModules2(cl->m, lib)) {
        ret = -1;
    }
    for (i = 0; i < n; i++) {
        v = LLVMGetNamedFunction(cl->m, names[i]);
        if (!v) {
            v = LLVMGetNamedGlobal(cl->m, names[i]);
        }
        if (v && !LLVMIsDeclaration(v)) {
            LLVMSetLinkage(v, LLVMInternalLinkage);
            LLVMSetVisibility(v, LLVMDefaultVisibility);
        }
        free(names[i]);
    }
    free(names);
    return ret;
}

/* The operands of kernel metadata @kind of @f, or NULL (then *n = 0). */
static LLVMValueRef *kernel_md(struct cl_lower *cl, LLVMValueRef f,
                               const char *kind, unsigned *n)
{
    unsigned id = LLVMGetMDKindIDInContext(cl->ctx, kind, strlen(kind));
    LLVMValueMetadataEntry *e;
    LLVMMetadataRef md = NULL;
    LLVMValueRef node, *ops;
    size_t count, i;

    *n = 0;
    e = LLVMGlobalCopyAllMetadata(f, &count);
    for (i = 0; i < count; i++) {
        if (LLVMValueMetadataEntriesGetKind(e, i) == id) {
            md = LLVMValueMetadataEntriesGetMetadata(e, i);
        }
    }
    if (e) {
        LLVMDisposeValueMetadataEntries(e);
    }
    if (!md) {
        return NULL;
    }
    node = LLVMMetadataAsValue(cl->ctx, md);
    *n = LLVMGetMDNodeNumOperands(node);
    ops = calloc(*n ? *n : 1, sizeof(*ops));
    if (!ops) {
        fprintf(stderr, "simt-cc: out of memory\n");
        exit(1);
    }
    LLVMGetMDNodeOperands(node, ops);
    return ops;
}

/* Operand @i of string metadata @ops (@n of them), NUL-terminated. */
static char *md_string(LLVMValueRef *ops, unsigned n, unsigned i)
{
    const char *s = NULL;
    unsigned len = 0;
    char *copy;

    if (i < n && ops[i]) {
        s = LLVMGetMDString(ops[i], &len);
    }
    copy = strndup(s ? s : "", len);
    if (!copy) {
        fprintf(stderr, "simt-cc: out of memory\n");
        exit(1);
    }
    return copy;
}

static uint32_t access_qual(const char *s)
{
    if (!strcmp(s, "read_only")) {
        return SIMT_CLARG_ACCESS_READ_ONLY;
    }
    if (!strcmp(s, "write_only")) {
        return SIMT_CLARG_ACCESS_WRITE_ONLY;
    }
    if (!strcmp(s, "read_write")) {
        return SIMT_CLARG_ACCESS_READ_WRITE;
    }
    return SIMT_CLARG_ACCESS_NONE;
}

/* clang writes the qualifiers as words separated by spaces. */
static uint32_t type_qual(const char *s)
{
    static const struct {
        const char *word;
        uint32_t bit;
    } words[] = {
        { "const", SIMT_CLARG_TYPE_CONST },
        { "restrict", SIMT_CLARG_TYPE_RESTRICT },
        { "volatile", SIMT_CLARG_TYPE_VOLATILE },
        { "pipe", SIMT_CLARG_TYPE_PIPE },
    };
    uint32_t q = 0;
    size_t i;

    while (*s) {
        size_t len = strcspn(s, " ");

        for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
            if (len == strlen(words[i].word) &&
                !strncmp(s, words[i].word, len)) {
                q |= words[i].bit;
            }
        }
        s += len + (s[len] == ' ');
    }
    return q;
}

static LLVMAttributeRef param_attr(LLVMValueRef f, unsigned param,
                                   const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));

    return LLVMGetEnumAttributeAtIndex(f, param + 1, kind);
}

/* Copy the function attributes (target features, no-jump-tables...). */
static void copy_fn_attrs(LLVMValueRef to, LLVMValueRef from)
{
    unsigned n = LLVMGetAttributeCountAtIndex(from, LLVMAttributeFunctionIndex);
    LLVMAttributeRef *attrs = calloc(n ? n : 1, sizeof(*attrs));
    unsigned i;

    if (!attrs) {
        fprintf(stderr, "simt-cc: out of memory\n");
        exit(1);
    }
    LLVMGetAttributesAtIndex(from, LLVMAttributeFunctionIndex, attrs);
    for (i = 0; i < n; i++) {
        LLVMAddAttributeAtIndex(to, LLVMAttributeFunctionIndex, attrs[i]);
    }
    free(attrs);
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return (v + a - 1) & ~(a - 1);
}

/*
 * Kernel @f becomes an entry point of the same name taking the argument
 * block; its arguments are described in the clargs tables.
 */
static int lower_kernel(struct cl_lower *cl, LLVMValueRef f)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(cl->ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(cl->ctx);
    LLVMTypeRef i8p = LLVMPointerType(i8, 0);
    LLVMTypeRef entry_ty = LLVMFunctionType(LLVMVoidTypeInContext(cl->ctx),
                                            &i8p, 1, 0);
    LLVMTypeRef set_tp_ty = LLVMFunctionType(LLVMVoidTypeInContext(cl->ctx),
                                             &i8p, 1, 0);
    unsigned n_as, n_access, n_type, n_qual, n_name, nparams, i;
    LLVMValueRef *md_as, *md_access, *md_type, *md_qual, *md_name;
    LLVMValueRef entry, block, set_tp;
    LLVMBasicBlockRef bb, next, last = NULL;
    LLVMBuilderRef b;
    size_t name_len;
    char *name = strdup(LLVMGetValueName2(f, &name_len));
    uint32_t offset = SIMT_CL_BLOCK_HEADER_SIZE;
    uint32_t block_align = SIMT_CL_BLOCK_ALIGN;

    if (LLVMGetFirstUse(f)) {
        fprintf(stderr, "simt-cc: %s: kernel %s is called by another "
                "function; a simt kernel is an entry point only (move the "
                "shared code into a helper function)\n", cl->opt->source,
                name);
        free(name);
        return -1;
    }
    md_as = kernel_md(cl, f, "kernel_arg_addr_space", &n_as);
    md_access = kernel_md(cl, f, "kernel_arg_access_qual", &n_access);
    md_type = kernel_md(cl, f, "kernel_arg_type", &n_type);
    md_qual = kernel_md(cl, f, "kernel_arg_type_qual", &n_qual);
    md_name = kernel_md(cl, f, "kernel_arg_name", &n_name);

    entry = LLVMAddFunction(cl->m, "", entry_ty);
    copy_fn_attrs(entry, f);
    LLVMAddAttributeAtIndex(entry, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(cl->ctx,
                                LLVMGetEnumAttributeKindForName("noinline", 8),
                                0));
    LLVMSetSection(entry, ".text.simt.kernel");
    LLVMSetSubprogram(entry, LLVMGetSubprogram(f));
    LLVMSetSubprogram(f, NULL);
    block = LLVMGetParam(entry, 0);

    /* the body, blocks in order; its entry block stays the entry */
    for (bb = LLVMGetFirstBasicBlock(f); bb; bb = next) {
        next = LLVMGetNextBasicBlock(bb);
        if (last) {
            LLVMMoveBasicBlockAfter(bb, last);
        } else {
            LLVMRemoveBasicBlockFromParent(bb);
            LLVMAppendExistingBasicBlock(entry, bb);
        }
        last = bb;
    }
    bb = LLVMGetEntryBasicBlock(entry);
    b = LLVMCreateBuilderInContext(cl->ctx);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(bb));

    /* tp = the block, for the work-item built-ins (simt-clargs.h) */
    set_tp = LLVMGetInlineAsm(set_tp_ty, (char *)"mv tp, $0", 9,
                              (char *)"r", 1, 1, 0, LLVMInlineAsmDialectATT, 0);
    LLVMBuildCall2(b, set_tp_ty, set_tp, &block, 1, "");

    nparams = LLVMCountParams(f);
    for (i = 0; i < nparams; i++) {
        LLVMValueRef param = LLVMGetParam(f, i), at, v;
        LLVMTypeRef ty = LLVMTypeOf(param), value_ty = ty;
        LLVMAttributeRef byval = param_attr(f, i, "byval");
        LLVMValueRef off_v;
        uint32_t as = 0, size, align;
        char *access = md_string(md_access, n_access, i);
        char *type = md_string(md_type, n_type, i);
        char *qual = md_string(md_qual, n_qual, i);
        char *arg_name = md_string(md_name, n_name, i);

        if (i < n_as && md_as[i]) {
            as = LLVMConstIntGetZExtValue(md_as[i]);
        }
        if (byval) {
            LLVMAttributeRef a = param_attr(f, i, "align");

            value_ty = LLVMGetTypeAttributeValue(byval);
            align = LLVMABIAlignmentOfType(cl->td, value_ty);
            if (a && LLVMGetEnumAttributeValue(a) > align) {
                align = LLVMGetEnumAttributeValue(a);
            }
        } else {
            align = LLVMABIAlignmentOfType(cl->td, value_ty);
        }
        size = LLVMABISizeOfType(cl->td, value_ty);
        offset = align_up(offset, align);
        if (align > block_align) {
            block_align = align;
        }

        off_v = LLVMConstInt(i32, offset, 0);
        at = LLVMBuildInBoundsGEP2(b, i8, block, &off_v, 1, "");
        if (byval) {
            /* the body may write its copy: one per thread */
            v = LLVMBuildAlloca(b, value_ty, arg_name);
            LLVMSetAlignment(v, align);
            LLVMBuildMemCpy(b, v, align, at, align,
                            LLVMConstInt(i32, size, 0));
            v = LLVMBuildPointerCast(b, v, ty, "");
        } else {
            at = LLVMBuildBitCast(b, at, LLVMPointerType(ty, 0), "");
            v = LLVMBuildLoad2(b, ty, at, arg_name);
            LLVMSetAlignment(v, align);
        }
        LLVMReplaceAllUsesWith(param, v);

        blob_put32(&cl->args, blob_string(&cl->strings, arg_name));
        blob_put32(&cl->args, blob_string(&cl->strings, type));
        blob_put32(&cl->args, as == CL_AS_LOCAL ? SIMT_CLARG_LOCAL :
                              as ? SIMT_CLARG_POINTER : SIMT_CLARG_VALUE);
        blob_put32(&cl->args, as);
        blob_put32(&cl->args, access_qual(access));
        blob_put32(&cl->args, type_qual(qual));
        blob_put32(&cl->args, offset);
        blob_put32(&cl->args, size);
        blob_put32(&cl->args, align);
        offset += size;
        free(access);
        free(type);
        free(qual);
        free(arg_name);
    }
    LLVMDisposeBuilder(b);

    blob_put32(&cl->kernels, blob_string(&cl->strings, name));
    blob_put32(&cl->kernels, nparams);
    blob_put32(&cl->kernels, cl->nargs);
    blob_put32(&cl->kernels, align_up(offset, block_align));
    blob_put32(&cl->kernels, block_align);
    cl->nkernels++;
    cl->nargs += nparams;

    LLVMDeleteFunction(f);
    LLVMSetValueName2(entry, name, name_len);
    free(name);
    free(md_as);
    free(md_access);
    free(md_type);
    free(md_qual);
    free(md_name);
    return 0;
}

/*
 * The clargs unit as a non-allocated section of the object, through
 * module-level assembly (IR cannot say "not allocated").
 */
static void emit_clargs(struct cl_lower *cl)
{
    const uint32_t header = 13 * 4, kernel_size = 5 * 4, arg_size = 9 * 4;
    struct blob unit = { 0 }, text = { 0 };
    uint32_t strtab_at = header + cl->kernels.len + cl->args.len;
    size_t i;

    blob_put32(&unit, SIMT_CLARGS_MAGIC);
    blob_put32(&unit, SIMT_CLARGS_VERSION);
    blob_put32(&unit, align_up(strtab_at + cl->strings.len, 4));
    blob_put32(&unit, header);
    blob_put32(&unit, SIMT_CL_BLOCK_HEADER_SIZE);
    blob_put32(&unit, cl->nkernels);
    blob_put32(&unit, header);
    blob_put32(&unit, kernel_size);
    blob_put32(&unit, cl->nargs);
    blob_put32(&unit, header + cl->kernels.len);
    blob_put32(&unit, arg_size);
    blob_put32(&unit, strtab_at);
    blob_put32(&unit, cl->strings.len);
    blob_reserve(&unit, cl->kernels.len + cl->args.len + cl->strings.len + 4);
    memcpy(unit.p + unit.len, cl->kernels.p, cl->kernels.len);
    unit.len += cl->kernels.len;
    memcpy(unit.p + unit.len, cl->args.p, cl->args.len);
    unit.len += cl->args.len;
    memcpy(unit.p + unit.len, cl->strings.p, cl->strings.len);
    unit.len += cl->strings.len;
    while (unit.len & 3) {
        unit.p[unit.len++] = 0;
    }

    blob_reserve(&text, 128 + unit.len * 5);
    text.len += sprintf((char *)text.p, "\t.pushsection " SIMT_CLARGS_SECTION
                        ",\"\",@progbits\n\t.p2align 2\n");
    for (i = 0; i < unit.len; i++) {
        text.len += sprintf((char *)text.p + text.len, "%s%u%s",
                            i % 16 ? "," : "\t.byte ", unit.p[i],
                            i % 16 == 15 || i + 1 == unit.len ? "\n" : "");
    }
    text.len += sprintf((char *)text.p + text.len, "\t.popsection\n");
    LLVMAppendModuleInlineAsm(cl->m, (const char *)text.p, text.len);
    free(unit.p);
    free(text.p);
}

static LLVMTargetMachineRef target_machine(struct cl_lower *cl)
{
    LLVMTargetRef t;
    char *msg;
    const char *triple = LLVMGetTarget(cl->m);

    LLVMInitializeRISCVTargetInfo();
    LLVMInitializeRISCVTarget();
    LLVMInitializeRISCVTargetMC();
    if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
        fprintf(stderr, "simt-cc: %s: %s\n", cl->opt->source, msg);
        LLVMDisposeMessage(msg);
        return NULL;
    }
    /* for the optimiser's cost model; clang generates the code */
    return LLVMCreateTargetMachine(t, triple, "generic-rv32", "+m,+a,+f",
                                   LLVMCodeGenLevelDefault, LLVMRelocStatic,
                                   LLVMCodeModelDefault);
}

static int optimise(struct cl_lower *cl)
{
    LLVMTargetMachineRef tm = target_machine(cl);
    LLVMPassBuilderOptionsRef po;
    LLVMErrorRef e;
    char pipeline[64];
    int ret = 0;

    if (!tm) {
        return -1;
    }
    /* globaldce first: the built-ins not used go at every level */
    snprintf(pipeline, sizeof(pipeline), "globaldce,%s", cl->opt->passes);
    if (cl->opt->verbose) {
        fprintf(stderr, "simt-cc: LLVM passes %s on %s\n", pipeline,
                cl->opt->source);
    }
    po = LLVMCreatePassBuilderOptions();
    e = LLVMRunPasses(cl->m, pipeline, tm, po);
    if (e) {
        char *msg = LLVMGetErrorMessage(e);

        fprintf(stderr, "simt-cc: %s: %s\n", pipeline, msg);
        LLVMDisposeErrorMessage(msg);
        ret = -1;
    }
    LLVMDisposePassBuilderOptions(po);
    LLVMDisposeTargetMachine(tm);
    return ret;
}

int cl_lower(const char *in_bc, const char *out_bc,
             const struct cl_lower_options *opt)
{
    struct cl_lower cl = { .opt = opt };
    LLVMValueRef f, next, g;
    char *msg;
    int ret = -1;

    cl.ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(cl.ctx, diagnostic, &cl);
    cl.m = read_bitcode(&cl, in_bc);
    if (!cl.m) {
        goto out;
    }
    cl.td = LLVMGetModuleDataLayout(cl.m);
    if (opt->verbose) {
        fprintf(stderr, "simt-cc: LLVM link %s into %s, kernels to simt "
                "entries\n", opt->builtins_bc, opt->source);
    }
    if (link_builtins(&cl) < 0 || cl.errors) {
        goto out;
    }
    blob_string(&cl.strings, "");
    for (f = LLVMGetFirstFunction(cl.m); f; f = next) {
        next = LLVMGetNextFunction(f);
        if (LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv &&
            !LLVMIsDeclaration(f) && lower_kernel(&cl, f) < 0) {
            goto out;
        }
    }
    /* __local variables live in the block's shared memory, as SHARED */
    for (g = LLVMGetFirstGlobal(cl.m); g; g = LLVMGetNextGlobal(g)) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == CL_AS_LOCAL) {
            LLVMSetSection(g, ".shared");
        }
    }
    if (cl.nkernels) {
        emit_clargs(&cl);
    }
    if (LLVMVerifyModule(cl.m, LLVMReturnStatusAction, &msg)) {
        fprintf(stderr, "simt-cc: %s: internal error, the lowered module "
                "is not valid: %s\n", opt->source, msg);
        LLVMDisposeMessage(msg);
        goto out;
    }
    LLVMDisposeMessage(msg);
    if (optimise(&cl) < 0 || cl.errors) {
        goto out;
    }
    if (LLVMWriteBitcodeToFile(cl.m, out_bc)) {
        fprintf(stderr, "simt-cc: %s: cannot write\n", out_bc);
        goto out;
    }
    ret = 0;
out:
    if (cl.m) {
        LLVMDisposeModule(cl.m);
    }
    LLVMContextDispose(cl.ctx);
    free(cl.kernels.p);
    free(cl.args.p);
    free(cl.strings.p);
    return ret;
}
