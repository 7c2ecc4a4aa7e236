/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt-cc: compile kernel sources, C or OpenCL C, and link them into an
 * annotated simt kernel image in one step, as nvcc and hipcc do.
 *
 * C:        clang with the kernel flags of kernels/meson.build -> object
 * OpenCL C: clang to LLVM bitcode, cl_lower() (cl-lower.c) links the
 *           built-ins and makes the kernels simt entries, clang generates
 *           the object from that bitcode
 * then:     ld.lld -T simt.ld objects simt-libc.o libsimt-math.a, and the
 *           analysis of simt-meta (linked in) writes the metadata note.
 *
 * The support files are found beside the executable: the source and build
 * trees when it runs from the build tree, <prefix>/share/simt when it is
 * installed, or $SIMT_CC_DATADIR (an installed layout).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "simt-cc-config.h"
#include "simt-cc.h"
#include "simt-meta.h"

enum lang { LANG_NONE, LANG_C, LANG_CL, LANG_LINK };

struct input {
    const char *path;
    enum lang lang;
    char *obj;                  /* the object it gives (or is) */
};

/* A growing argument vector, NULL-terminated. */
struct argv {
    char **v;
    size_t n, cap;
};

struct support {
    char *include[2];
    unsigned ninclude;
    char *ld_script;
    char *libc_o;
    char *math_a;
    char *opencl_bc;
};

static bool verbose;
static bool save_temps;
static char *tmp_dir;
/* Temporaries made so far, removed at exit unless -save-temps. */
static char **tmp_files;
static size_t ntmp_files;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);

    if (!p) {
        fprintf(stderr, "simt-cc: out of memory\n");
        exit(1);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    return strcpy(xmalloc(strlen(s) + 1), s);
}

static char *path_join(const char *dir, const char *name)
{
    char *p = xmalloc(strlen(dir) + strlen(name) + 2);

    sprintf(p, "%s/%s", dir, name);
    return p;
}

static void argv_add(struct argv *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 32;
        a->v = realloc(a->v, a->cap * sizeof(*a->v));
        if (!a->v) {
            fprintf(stderr, "simt-cc: out of memory\n");
            exit(1);
        }
    }
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
}

static void argv_add_all(struct argv *a, const struct argv *from)
{
    size_t i;

    for (i = 0; i < from->n; i++) {
        argv_add(a, from->v[i]);
    }
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: simt-cc [OPTIONS] FILE... [-o OUTPUT]\n"
            "\n"
            "Compile simt kernel sources and link them into one kernel image\n"
            "annotated with its metadata note, ready for simt-run and libsimt.\n"
            "FILE is C (.c, kernels/include/simt.h), OpenCL C 1.2 (.cl), or an\n"
            "object or archive (.o, .a) to link.\n"
            "\n"
            "  -o FILE        the image (default a.elf), or the object with -c\n"
            "  -c             compile only: one object per source (FILE.o)\n"
            "  -x c|cl|none   the language of the files that follow (none: by\n"
            "                 their extension)\n"
            "  -O0 -O1 -O2 -O3 -Os\n"
            "                 optimisation level (default -O2)\n"
            "  -g             debug information (source lines for simt-run\n"
            "                 --check and simt-meta --lines)\n"
            "  -DNAME[=VALUE] -UNAME -IDIR\n"
            "                 preprocessor options, as clang's\n"
            "  -w, -Werror    no warnings; warnings as errors\n"
            "  --image-base ADDR\n"
            "                 link the image at ADDR (a multiple of 4096)\n"
            "                 instead of 0x10000: images loaded into one\n"
            "                 context must not overlap\n"
            "  -save-temps    keep the intermediate files (their directory\n"
            "                 is printed)\n"
            "  -v             print the commands run\n"
            "  -h, --help     this text\n"
            "\n"
            "Environment: SIMT_CLANG and SIMT_LD_LLD name clang and ld.lld\n"
            "(default: found on PATH); SIMT_CC_DATADIR the directory of the\n"
            "support files (include/, simt.ld, simt-libc.o, libsimt-math.a,\n"
            "simt-opencl.bc) instead of the ones beside simt-cc.\n");
}

static void remove_temporaries(void)
{
    size_t i;

    if (!tmp_dir || save_temps) {
        return;
    }
    for (i = 0; i < ntmp_files; i++) {
        unlink(tmp_files[i]);
    }
    rmdir(tmp_dir);
}

static void on_signal(int sig)
{
    remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

static char *temporary(const char *name)
{
    char *p;

    if (!tmp_dir) {
        const char *base = getenv("TMPDIR");
        char *t = path_join(base && *base ? base : "/tmp", "simt-cc-XXXXXX");

        if (!mkdtemp(t)) {
            fprintf(stderr, "simt-cc: cannot make a temporary directory "
                    "%s: %s\n", t, strerror(errno));
            exit(1);
        }
        tmp_dir = t;
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        signal(SIGHUP, on_signal);
        atexit(remove_temporaries);
    }
    p = path_join(tmp_dir, name);
    tmp_files = realloc(tmp_files, (ntmp_files + 1) * sizeof(*tmp_files));
    if (!tmp_files) {
        fprintf(stderr, "simt-cc: out of memory\n");
        exit(1);
    }
    tmp_files[ntmp_files++] = p;
    return p;
}

static void print_command(char *const *argv)
{
    size_t i;

    for (i = 0; argv[i]; i++) {
        const char *s = argv[i];

        fputs(i ? " " : "", stderr);
        if (*s && !s[strcspn(s, " \t\n'\"\\$`*?<>|;&()[]{}#~")]) {
            fputs(s, stderr);
        } else {
            fputc('\'', stderr);
            for (; *s; s++) {
                if (*s == '\'') {
                    fputs("'\\''", stderr);
                } else {
                    fputc(*s, stderr);
                }
            }
            fputc('\'', stderr);
        }
    }
    fputc('\n', stderr);
}

/*
 * Run @argv (argv[0] looked up on PATH); with @err_file its standard
 * error goes there.  Returns 0 if it exited with status 0.
 */
static int run(char *const *argv, const char *err_file)
{
    int status;
    pid_t pid;

    if (verbose) {
        print_command(argv);
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "simt-cc: cannot run %s: %s\n", argv[0],
                strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (err_file) {
            int fd = open(err_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);

            if (fd < 0 || dup2(fd, 2) < 0) {
                _exit(127);
            }
            close(fd);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "simt-cc: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "simt-cc: waiting for %s: %s\n", argv[0],
                    strerror(errno));
            return -1;
        }
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "simt-cc: %s killed by signal %d\n", argv[0],
                WTERMSIG(status));
        return -1;
    }
    return WEXITSTATUS(status) ? -1 : 0;
}

static const char *tool(const char *env, const char *name)
{
    const char *t = getenv(env);

    return t && *t ? t : name;
}

static bool is_file(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void support_free(struct support *s)
{
    unsigned i;

    for (i = 0; i < s->ninclude; i++) {
        free(s->include[i]);
    }
    free(s->ld_script);
    free(s->libc_o);
    free(s->math_a);
    free(s->opencl_bc);
}

static bool same_dir(const char *a, const char *b)
{
    struct stat sa, sb;

    return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The installed layout: DATA/include, DATA/simt.ld, ... */
static void installed_layout(struct support *s, const char *data)
{
    s->include[0] = path_join(data, "include");
    s->ninclude = 1;
    s->ld_script = path_join(data, "simt.ld");
    s->libc_o = path_join(data, "simt-libc.o");
    s->math_a = path_join(data, "libsimt-math.a");
    s->opencl_bc = path_join(data, "simt-opencl.bc");
}

static int find_support(struct support *s)
{
    const char *env = getenv("SIMT_CC_DATADIR");
    const char *where = "$SIMT_CC_DATADIR";
    char exe[PATH_MAX], *slash, *data = NULL;
    const char *files[4];
    ssize_t n;
    unsigned i;

    if (env && *env) {
        installed_layout(s, env);
    } else {
        n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        if (n < 0) {
            fprintf(stderr, "simt-cc: cannot find its own executable "
                    "(/proc/self/exe: %s); set SIMT_CC_DATADIR\n",
                    strerror(errno));
            return -1;
        }
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        *slash = '\0';
        if (same_dir(exe, SIMT_CC_BUILD_DIR "/tools/simt-cc")) {
            s->include[0] = xstrdup(SIMT_CC_SOURCE_DIR "/kernels/include");
            s->include[1] = xstrdup(SIMT_CC_SOURCE_DIR "/include");
            s->ninclude = 2;
            s->ld_script = xstrdup(SIMT_CC_SOURCE_DIR "/kernels/simt.ld");
            s->libc_o = xstrdup(SIMT_CC_BUILD_DIR "/kernels/simt-libc.o");
            s->math_a = xstrdup(SIMT_CC_BUILD_DIR "/kernels/libsimt-math.a");
            s->opencl_bc = xstrdup(SIMT_CC_BUILD_DIR
                                   "/kernels/opencl/simt-opencl.bc");
            where = "the build tree " SIMT_CC_BUILD_DIR;
        } else {
            data = path_join(exe, SIMT_CC_DATA_FROM_BIN);
            installed_layout(s, data);
            where = data;
        }
    }
    files[0] = s->ld_script;
    files[1] = s->libc_o;
    files[2] = s->math_a;
    files[3] = s->opencl_bc;
    for (i = 0; i < 4; i++) {
        if (!is_file(files[i])) {
            fprintf(stderr, "simt-cc: missing support file %s (from %s; "
                    "build the tree, install, or set SIMT_CC_DATADIR)\n",
                    files[i], where);
            return -1;
        }
    }
    return 0;
}

static enum lang lang_of_extension(const char *path)
{
    const char *dot = strrchr(path, '.');

    if (!dot || strchr(dot, '/')) {
        return LANG_NONE;
    }
    if (!strcmp(dot, ".c")) {
        return LANG_C;
    }
    if (!strcmp(dot, ".cl")) {
        return LANG_CL;
    }
    if (!strcmp(dot, ".o") || !strcmp(dot, ".a")) {
        return LANG_LINK;
    }
    return LANG_NONE;
}

/* "dir/k.cl" -> "k" */
static char *stem(const char *path)
{
    const char *base = strrchr(path, '/');
    char *s, *dot;

    s = xstrdup(base ? base + 1 : path);
    dot = strrchr(s, '.');
    if (dot && dot != s) {
        *dot = '\0';
    }
    return s;
}

struct build {
    const struct support *sup;
    struct argv user;           /* -D -U -I -w -Werror, in order */
    const char *opt_level;      /* "-O2" */
    const char *image_base;     /* --image-base, or NULL: simt.ld's */
    bool debug;
};

static const char *const kernel_flags[] = { SIMT_CC_KERNEL_FLAGS };
static const char *const cl_flags[] = { SIMT_CC_CL_FLAGS };

static void add_flags(struct argv *a, const char *const *flags, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        argv_add(a, flags[i]);
    }
}

/*
 * The front end's command for @in in language @lang ("c" or "cl"): the
 * kernel flags, the language's own (C: the support headers; OpenCL C:
 * cl_flags), then the user's, the -O level and -g.
 */
static void front_end(struct argv *a, const struct build *b,
                      const struct input *in, const char *lang)
{
    unsigned i;

    argv_add(a, tool("SIMT_CLANG", "clang"));
    add_flags(a, kernel_flags, sizeof(kernel_flags) / sizeof(*kernel_flags));
    if (!strcmp(lang, "cl")) {
        add_flags(a, cl_flags, sizeof(cl_flags) / sizeof(*cl_flags));
    } else {
        for (i = 0; i < b->sup->ninclude; i++) {
            argv_add(a, "-I");
            argv_add(a, b->sup->include[i]);
        }
    }
    argv_add_all(a, &b->user);
    argv_add(a, b->opt_level);
    if (b->debug) {
        argv_add(a, "-g");
    }
    argv_add(a, "-x");
    argv_add(a, lang);
    argv_add(a, in->path);
}

static int compile_c(const struct build *b, const struct input *in)
{
    struct argv a = { 0 };
    int ret;

    front_end(&a, b, in, "c");
    argv_add(&a, "-c");
    argv_add(&a, "-o");
    argv_add(&a, in->obj);
    ret = run(a.v, NULL);
    free(a.v);
    return ret;
}

static const char *passes_of(const char *opt_level)
{
    static char passes[16];

    snprintf(passes, sizeof(passes), "default<%s>", opt_level + 1);
    return passes;
}

/* front end to bitcode, cl_lower(), code generation from the bitcode */
static int compile_cl(const struct build *b, const struct input *in,
                      unsigned index)
{
    struct cl_lower_options opt = {
        .source = in->path,
        .builtins_bc = b->sup->opencl_bc,
        .passes = passes_of(b->opt_level),
        .verbose = verbose,
    };
    struct argv a = { 0 }, g = { 0 };
    char name[64], *base = stem(in->path), *bc, *lowered;
    int ret;

    snprintf(name, sizeof(name), "%u-%.40s.bc", index, base);
    bc = temporary(name);
    snprintf(name, sizeof(name), "%u-%.40s.lowered.bc", index, base);
    lowered = temporary(name);
    free(base);

    front_end(&a, b, in, "cl");
    argv_add(&a, "-emit-llvm");
    argv_add(&a, "-c");
    argv_add(&a, "-o");
    argv_add(&a, bc);
    ret = run(a.v, NULL);
    free(a.v);
    if (ret < 0 || cl_lower(bc, lowered, &opt) < 0) {
        return -1;
    }

    /* the passes ran in cl_lower(): code generation only, at the level */
    argv_add(&g, tool("SIMT_CLANG", "clang"));
    add_flags(&g, kernel_flags, sizeof(kernel_flags) / sizeof(*kernel_flags));
    argv_add(&g, b->opt_level);
    argv_add(&g, "-Xclang");
    argv_add(&g, "-disable-llvm-passes");
    argv_add(&g, "-x");
    argv_add(&g, "ir");
    argv_add(&g, lowered);
    argv_add(&g, "-c");
    argv_add(&g, "-o");
    argv_add(&g, in->obj);
    ret = run(g.v, NULL);
    free(g.v);
    return ret;
}

/* The input that @obj came from, by the object's path in a message. */
static const char *source_of(const struct input *in, size_t nin,
                             const char *line)
{
    size_t i;

    for (i = 0; i < nin; i++) {
        if (strstr(line, in[i].obj)) {
            return in[i].path;
        }
    }
    return NULL;
}

/*
 * Print ld.lld's messages from @err_file; an undefined symbol that
 * ld.lld demangled (an overloaded OpenCL function) referenced from an
 * OpenCL object is a built-in simt does not provide, and says so.
 */
static void report_link_errors(const char *err_file, const struct input *in,
                               size_t nin)
{
    static const char undef[] = "ld.lld: error: undefined symbol: ";
    FILE *f = fopen(err_file, "r");
    char line[4096], symbol[4096] = "";
    bool reported = false;

    if (!f) {
        fprintf(stderr, "simt-cc: %s: %s\n", err_file, strerror(errno));
        return;
    }
    while (fgets(line, sizeof(line), f)) {
        const char *src;

        if (!strncmp(line, undef, sizeof(undef) - 1) &&
            strchr(line + sizeof(undef) - 1, '(')) {
            snprintf(symbol, sizeof(symbol), "%s", line + sizeof(undef) - 1);
            symbol[strcspn(symbol, "\n")] = '\0';
            reported = false;
            continue;
        }
        if (*symbol && !strncmp(line, ">>>", 3)) {
            src = source_of(in, nin, line);
            if (!reported && src && lang_of_extension(src) != LANG_LINK) {
                fprintf(stderr, "simt-cc: unsupported OpenCL built-in %s "
                        "used in %s\n", symbol, src);
                reported = true;
            }
            continue;
        }
        if (*symbol && !reported) {
            fprintf(stderr, "%s%s\n", undef, symbol);
        }
        *symbol = '\0';
        fputs(line, stderr);
    }
    if (*symbol && !reported) {
        fprintf(stderr, "%s%s\n", undef, symbol);
    }
    fclose(f);
}

static int link_image(const struct build *b, const struct input *in,
                      size_t nin, const char *out)
{
    struct argv a = { 0 };
    char *err_file = temporary("ld.lld.stderr");
    size_t i;
    int ret;

    argv_add(&a, tool("SIMT_LD_LLD", "ld.lld"));
    argv_add(&a, "-T");
    argv_add(&a, b->sup->ld_script);
    if (b->image_base) {
        argv_add(&a, "--defsym");
        argv_add(&a, b->image_base);
    }
    for (i = 0; i < nin; i++) {
        argv_add(&a, in[i].obj);
    }
    argv_add(&a, b->sup->libc_o);
    argv_add(&a, b->sup->math_a);
    argv_add(&a, "-o");
    argv_add(&a, out);
    ret = run(a.v, err_file);
    free(a.v);
    report_link_errors(err_file, in, nin);
    return ret;
}

/* What simt-meta does: analyse the image and write its note in place. */
static int annotate(const char *path)
{
    struct simt_image img;
    struct sm_program prog;
    struct sm_result res;
    uint8_t *note;
    size_t note_len;
    char err[512];
    int ret = -1;

    if (verbose) {
        fprintf(stderr, "simt-cc: simt-meta analysis of %s, note written "
                "in place\n", path);
    }
    if (simt_image_load(&img, path, err, sizeof(err)) < 0) {
        fprintf(stderr, "simt-cc: %s\n", err);
        return -1;
    }
    if (sm_program_from_image(&img, &prog, err, sizeof(err)) < 0) {
        fprintf(stderr, "simt-cc: %s\n", err);
        simt_image_free(&img);
        return -1;
    }
    if (sm_analyze(&prog, &res, err, sizeof(err)) < 0) {
        fprintf(stderr, "simt-cc: %s\n", err);
    } else {
        if (sm_note_build(&prog, &res, &note, &note_len) < 0) {
            fprintf(stderr, "simt-cc: %s: out of memory\n", path);
        } else {
            if (sm_elf_write_note(&img.elf, note, note_len, path, err,
                                  sizeof(err)) < 0) {
                fprintf(stderr, "simt-cc: %s\n", err);
            } else {
                ret = 0;
            }
            free(note);
        }
        sm_result_free(&res);
    }
    sm_program_free(&prog);
    simt_image_free(&img);
    return ret;
}

/* The value of -D/-U/-I/-o/-x: attached ("-DX") or the next argument. */
static const char *option_value(int argc, char **argv, int *i, size_t len)
{
    if (argv[*i][len]) {
        return argv[*i] + len;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "simt-cc: option %s needs a value\n", argv[*i]);
        exit(2);
    }
    return argv[++*i];
}

/* What main() allocated from its arguments: so that leak checks pass. */
static void free_args(struct input *in, struct build *b)
{
    size_t i;

    free(in);
    for (i = 0; i < b->user.n; i++) {
        free(b->user.v[i]);
    }
    free(b->user.v);
    free((char *)b->image_base);
}

/*
 * "SIMT_IMAGE_BASE=ADDR" for ld.lld's --defsym, from a page-aligned
 * address below SIMT_SHARED_BASE; anything else ends the run.
 */
static const char *image_base_symbol(const char *v)
{
    char *end, *sym;
    unsigned long long base;

    errno = 0;
    base = strtoull(v, &end, 0);
    if (errno || end == v || *end || base % 4096 || base < 4096 ||
        base >= SIMT_SHARED_BASE) {
        fprintf(stderr, "simt-cc: --image-base %s: not a multiple of 4096 "
                "between 0x1000 and 0x%x\n", v, SIMT_SHARED_BASE);
        exit(2);
    }
    sym = xmalloc(40);
    snprintf(sym, 40, "SIMT_IMAGE_BASE=0x%llx", base);
    return sym;
}

int main(int argc, char **argv)
{
    struct build b = { .opt_level = "-O2" };
    struct support sup = { 0 };
    struct input *in = xmalloc((argc ? argc : 1) * sizeof(*in));
    const char *out = NULL;
    enum lang lang = LANG_NONE;
    bool compile_only = false;
    size_t nin = 0, nsources = 0, i;
    int ret = 0;
    int k;

    for (k = 1; k < argc; k++) {
        const char *a = argv[k], *v;

        if (a[0] != '-' || !a[1]) {
            in[nin].path = a;
            in[nin].lang = lang != LANG_NONE ? lang : lang_of_extension(a);
            in[nin].obj = NULL;
            if (in[nin].lang == LANG_NONE) {
                fprintf(stderr, "simt-cc: %s: unknown kind of file (a .c, "
                        ".cl, .o or .a file, or -x c / -x cl before it)\n", a);
                free_args(in, &b);
                return 2;
            }
            nsources += in[nin].lang != LANG_LINK;
            nin++;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            free_args(in, &b);
            return 0;
        } else if (!strcmp(a, "-c")) {
            compile_only = true;
        } else if (!strcmp(a, "-g")) {
            b.debug = true;
        } else if (!strcmp(a, "-v")) {
            verbose = true;
        } else if (!strcmp(a, "--image-base")) {
            b.image_base = image_base_symbol(option_value(argc, argv, &k,
                                                          12));
        } else if (!strcmp(a, "-save-temps")) {
            save_temps = true;
        } else if (!strcmp(a, "-O0") || !strcmp(a, "-O1") ||
                   !strcmp(a, "-O2") || !strcmp(a, "-O3") ||
                   !strcmp(a, "-Os")) {
            b.opt_level = a;
        } else if (!strcmp(a, "-w") || !strcmp(a, "-Werror")) {
            argv_add(&b.user, xstrdup(a));
        } else if (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) ||
                   !strncmp(a, "-I", 2)) {
            char opt[3] = { a[0], a[1], 0 };

            v = option_value(argc, argv, &k, 2);
            argv_add(&b.user, xstrdup(opt));
            argv_add(&b.user, xstrdup(v));
        } else if (!strncmp(a, "-o", 2)) {
            out = option_value(argc, argv, &k, 2);
        } else if (!strncmp(a, "-x", 2)) {
            v = option_value(argc, argv, &k, 2);
            if (!strcmp(v, "c")) {
                lang = LANG_C;
            } else if (!strcmp(v, "cl")) {
                lang = LANG_CL;
            } else if (!strcmp(v, "none")) {
                lang = LANG_NONE;
            } else {
                fprintf(stderr, "simt-cc: -x %s: unknown language (c, cl "
                        "or none)\n", v);
                free_args(in, &b);
                return 2;
            }
        } else {
            fprintf(stderr, "simt-cc: unknown option %s (simt-cc --help "
                    "lists the options)\n", a);
            free_args(in, &b);
            return 2;
        }
    }
    if (!nin) {
        fprintf(stderr, "simt-cc: no input files (simt-cc --help)\n");
        free_args(in, &b);
        return 2;
    }
    if (compile_only && out && nsources != 1) {
        fprintf(stderr, "simt-cc: -c -o %s needs exactly one source file, "
                "not %zu\n", out, nsources);
        free_args(in, &b);
        return 2;
    }
    if (find_support(&sup) < 0) {
        free_args(in, &b);
        return 1;
    }
    b.sup = &sup;

    for (i = 0; i < nin && !ret; i++) {
        char name[64], *base;

        if (in[i].lang == LANG_LINK) {
            in[i].obj = (char *)in[i].path;
            continue;
        }
        base = stem(in[i].path);
        if (compile_only) {
            char *o = xmalloc(strlen(base) + 3);

            sprintf(o, "%s.o", base);
            in[i].obj = out ? xstrdup(out) : o;
            if (out) {
                free(o);
            }
        } else {
            snprintf(name, sizeof(name), "%zu-%.40s.o", i, base);
            in[i].obj = temporary(name);
        }
        free(base);
        ret = in[i].lang == LANG_C ? compile_c(&b, &in[i])
                                   : compile_cl(&b, &in[i], i);
    }
    if (!ret && !compile_only) {
        if (!out) {
            out = "a.elf";
        }
        ret = link_image(&b, in, nin, out);
        if (!ret) {
            ret = annotate(out);
        }
        if (ret) {
            unlink(out);
        }
    }
    if (save_temps && tmp_dir) {
        fprintf(stderr, "simt-cc: temporaries kept in %s\n", tmp_dir);
    }
    for (i = 0; compile_only && i < nin; i++) {
        if (in[i].lang != LANG_LINK) {
            free(in[i].obj);
        }
    }
    free_args(in, &b);
    support_free(&sup);
    return ret ? 1 : 0;
}
