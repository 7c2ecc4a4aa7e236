/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The description file of a user's kernels (see simt-user-kernels.h and
 * docs/labs/own-kernels.rst): sections of "key = value" lines,
 *
 *   [name]                      letters and digits: the bench lines' name
 *   function = NAME             the kernel in the image
 *   threads = N or XxY          per block
 *   blocks-per-sm = N
 *   shared-bytes = N            per block, the kernel's static included
 *   registers = N               per thread (optional: the kernel's)
 *   idempotent = yes or no      may a preempted block be flushed
 *   arg = KIND ...              one per argument, in order
 *
 * where an argument is "number N", or "in|out|inout BYTES[/block|
 * /thread] [zero|random|float|index]"; '#' starts a comment.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/units.h"
#include "simt-user-kernels.h"

/* All of one kernel's buffers, beside the bench's own in VRAM_DATA */
#define USER_MAX_BYTES      (16u << 20)

static const char *const user_fill_names[] = {
    [USER_FILL_ZERO] = "zero", [USER_FILL_RANDOM] = "random",
    [USER_FILL_FLOAT] = "float", [USER_FILL_INDEX] = "index",
};

/* A decimal number of at most @max, the whole of @s; false if not. */
static bool parse_u32(const char *s, uint32_t max, uint32_t *v)
{
    guint64 n;

    if (!g_ascii_string_to_unsigned(s, 10, 0, max, &n, NULL)) {
        return false;
    }
    *v = n;
    return true;
}

static bool parse_threads(const char *s, uint32_t block[2])
{
    g_auto(GStrv) xy = g_strsplit(s, "x", 3);

    block[1] = 1;
    if (!xy[0] || !parse_u32(xy[0], 1024, &block[0]) || !block[0] ||
        (xy[1] && (!parse_u32(xy[1], 1024, &block[1]) || !block[1] ||
                   xy[2]))) {
        return false;
    }
    return block[0] * block[1] <= 1024;
}

/* "number N" or "in|out|inout BYTES[/block|/thread] [FILL]" */
static char *parse_arg(const char *where, const char *s, UserArg *a)
{
    static const char *const kinds[] = {
        [USER_ARG_NUMBER] = "number", [USER_ARG_IN] = "in",
        [USER_ARG_OUT] = "out", [USER_ARG_INOUT] = "inout",
    };
    g_auto(GStrv) w = g_strsplit_set(s, " \t", 0);
    g_auto(GStrv) size = NULL;
    const char *word[3] = { NULL };
    unsigned n = 0, k;

    for (unsigned i = 0; w[i]; i++) {
        if (*w[i] && n < 3) {
            word[n] = w[i];
        }
        n += *w[i] != 0;
    }
    for (k = 0; k < ARRAY_SIZE(kinds); k++) {
        if (word[0] && !strcmp(word[0], kinds[k])) {
            break;
        }
    }
    if (k == ARRAY_SIZE(kinds)) {
        return g_strdup_printf("%s: an argument is \"number N\" or \"in\", "
                               "\"out\" or \"inout\" and a size, not \"%s\"",
                               where, s);
    }
    *a = (UserArg) { .kind = k };
    if (k == USER_ARG_NUMBER) {
        if (n != 2 || !parse_u32(word[1], UINT32_MAX, &a->value)) {
            return g_strdup_printf("%s: \"number\" takes one decimal "
                                   "number of 32 bits", where);
        }
        return NULL;
    }
    size = word[1] ? g_strsplit(word[1], "/", 2) : NULL;
    if (n < 2 || n > 3 || !parse_u32(size[0], USER_MAX_BYTES, &a->value) ||
        !a->value || a->value % 4 ||
        (size[1] && strcmp(size[1], "block") && strcmp(size[1], "thread"))) {
        return g_strdup_printf("%s: a buffer's size is a multiple of 4 up "
                               "to %u bytes, optionally per block "
                               "(\"/block\") or thread (\"/thread\")",
                               where, USER_MAX_BYTES);
    }
    a->scale = !size[1] ? USER_PER_LAUNCH :
               !strcmp(size[1], "block") ? USER_PER_BLOCK : USER_PER_THREAD;
    a->fill = USER_FILL_ZERO;
    if (n == 3) {
        unsigned f;

        for (f = 0; f < ARRAY_SIZE(user_fill_names); f++) {
            if (!strcmp(word[2], user_fill_names[f])) {
                break;
            }
        }
        if (f == ARRAY_SIZE(user_fill_names)) {
            return g_strdup_printf("%s: a buffer is filled with zero, "
                                   "random, float or index, not \"%s\"",
                                   where, word[2]);
        }
        a->fill = f;
    }
    return NULL;
}

/* What a finished section lacks, or NULL. */
static char *section_done(const char *path, unsigned line, UserKernel *k)
{
    unsigned results = 0;

    if (!k->function || !k->block[0] || !k->per_sm) {
        return g_strdup_printf("%s:%u: kernel [%s] needs function, threads "
                               "and blocks-per-sm", path, line, k->name);
    }
    for (unsigned i = 0; i < k->nargs; i++) {
        results += k->args[i].kind == USER_ARG_OUT ||
                   k->args[i].kind == USER_ARG_INOUT;
    }
    if (!results || results > RODINIA_OUTS) {
        return g_strdup_printf("%s:%u: kernel [%s] needs 1 to %u out or "
                               "inout buffers: they are what preempted runs "
                               "are checked by", path, line, k->name,
                               RODINIA_OUTS);
    }
    return NULL;
}

static bool valid_name(const char *s)
{
    if (!*s || strlen(s) > 32) {
        return false;
    }
    for (; *s; s++) {
        if (!g_ascii_islower(*s) && !g_ascii_isdigit(*s)) {
            return false;
        }
    }
    return true;
}

static void user_kernel_clear(UserKernel *k)
{
    g_free(k->name);
    g_free(k->where);
    g_free(k->function);
}

char *user_kernels_parse(const char *path, const char *text, GArray *out)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", 0);
    UserKernel k = { 0 };
    unsigned section_line = 0;
    char *err = NULL;

    for (unsigned i = 0; lines[i] && !err; i++) {
        g_autofree char *where = g_strdup_printf("%s:%u", path, i + 1);
        char *hash = strchr(lines[i], '#');
        char *line, *eq, *key, *val;

        if (hash) {
            *hash = 0;
        }
        line = g_strstrip(lines[i]);
        if (!*line) {
            continue;
        }
        if (*line == '[') {
            size_t n = strlen(line);

            if (k.name) {
                err = section_done(path, section_line, &k);
                if (err) {
                    break;
                }
                g_array_append_val(out, k);
            }
            k = (UserKernel) { 0 };
            section_line = i + 1;
            if (line[n - 1] != ']') {
                err = g_strdup_printf("%s: a section is \"[name]\"", where);
                break;
            }
            line[n - 1] = 0;
            if (!valid_name(line + 1)) {
                err = g_strdup_printf("%s: a kernel's name is 1 to 32 "
                                      "lowercase letters and digits, not "
                                      "\"%s\"", where, line + 1);
                break;
            }
            for (guint j = 0; j < out->len; j++) {
                if (!strcmp(g_array_index(out, UserKernel, j).name,
                            line + 1)) {
                    err = g_strdup_printf("%s: kernel [%s] is described "
                                          "twice", where, line + 1);
                }
            }
            k.name = g_strdup(line + 1);
            k.where = g_strdup(where);
            continue;
        }
        eq = strchr(line, '=');
        if (!eq || !k.name) {
            err = g_strdup_printf(!eq ? "%s: not \"key = value\": \"%s\"" :
                                  "%s: \"%s\" before any [kernel] section",
                                  where, line);
            break;
        }
        *eq = 0;
        key = g_strstrip(line);
        val = g_strstrip(eq + 1);
        if (!strcmp(key, "function")) {
            if (!*val || k.function) {
                err = g_strdup_printf("%s: one function per kernel", where);
            }
            g_free(k.function);
            k.function = g_strdup(val);
        } else if (!strcmp(key, "threads")) {
            if (!parse_threads(val, k.block)) {
                err = g_strdup_printf("%s: threads is N or XxY, 1 to 1024 "
                                      "threads in all", where);
            }
        } else if (!strcmp(key, "blocks-per-sm")) {
            if (!parse_u32(val, 32, &k.per_sm) || !k.per_sm) {
                err = g_strdup_printf("%s: blocks-per-sm is 1 to 32", where);
            }
        } else if (!strcmp(key, "shared-bytes")) {
            if (!parse_u32(val, 1 * MiB, &k.shared)) {
                err = g_strdup_printf("%s: shared-bytes is a number of bytes",
                                      where);
            }
        } else if (!strcmp(key, "registers")) {
            if (!parse_u32(val, 64, &k.regs)) {
                err = g_strdup_printf("%s: registers is 0 to 64", where);
            }
        } else if (!strcmp(key, "idempotent")) {
            if (strcmp(val, "yes") && strcmp(val, "no")) {
                err = g_strdup_printf("%s: idempotent is yes or no", where);
            }
            k.idempotent = !strcmp(val, "yes");
        } else if (!strcmp(key, "arg")) {
            if (k.nargs == SIMT_ARG_REGS) {
                err = g_strdup_printf("%s: a kernel takes at most %u "
                                      "arguments", where, SIMT_ARG_REGS);
            } else {
                err = parse_arg(where, val, &k.args[k.nargs++]);
            }
        } else {
            err = g_strdup_printf("%s: unknown key \"%s\" (function, threads, "
                                  "blocks-per-sm, shared-bytes, registers, "
                                  "idempotent, arg)", where, key);
        }
    }
    if (!err && k.name) {
        err = section_done(path, section_line, &k);
        if (!err) {
            g_array_append_val(out, k);
            return NULL;
        }
    }
    if (!err && !out->len) {
        err = g_strdup_printf("%s:1: no [kernel] section", path);
    }
    user_kernel_clear(&k);
    return err;
}

void user_kernels_free(GArray *out)
{
    for (guint i = 0; i < out->len; i++) {
        user_kernel_clear(&g_array_index(out, UserKernel, i));
    }
    g_array_free(out, true);
}

void user_setup(Dev *d, const UserKernel *k, uint32_t blocks,
                RodiniaRun *r)
{
    uint32_t threads = k->block[0] * k->block[1];
    uint32_t state = 0x5eed000;
    uint64_t total = 0;

    memset(r, 0, sizeof(*r));
    r->launch = (Launch) {
        .kernel = k->function, .grid = { blocks, 1, 1 },
        .block = { k->block[0], k->block[1], 1 },
        .flags = k->idempotent ? SIMT_CMDF_IDEMPOTENT : 0,
    };
    for (unsigned i = 0; i < k->nargs; i++) {
        const UserArg *a = &k->args[i];
        uint64_t bytes = a->value;
        g_autofree uint32_t *words = NULL;

        if (a->kind == USER_ARG_NUMBER) {
            r->launch.args[i] = a->value;
            continue;
        }
        bytes *= a->scale == USER_PER_THREAD ? (uint64_t)blocks * threads :
                 a->scale == USER_PER_BLOCK ? blocks : 1;
        total += bytes;
        if (total > USER_MAX_BYTES) {
            g_error("%s: kernel [%s]'s buffers take more than %u MiB at "
                    "%u blocks", k->where, k->name, USER_MAX_BYTES >> 20,
                    blocks);
        }
        words = g_new0(uint32_t, bytes / 4);
        for (uint32_t w = 0; w < bytes / 4; w++) {
            state = state * 1664525u + 1013904223u;
            switch (a->fill) {
            case USER_FILL_RANDOM:
                words[w] = cpu_to_le32(state);
                break;
            case USER_FILL_FLOAT:
                words[w] = cpu_to_le32(fbits((float)(state >> 8) /
                                             (float)(1u << 24)));
                break;
            case USER_FILL_INDEX:
                words[w] = cpu_to_le32(w);
                break;
            case USER_FILL_ZERO:
                break;
            }
        }
        r->launch.args[i] = vram_alloc(d, words, bytes);
        if (a->kind != USER_ARG_IN) {
            r->out_addr[r->outs] = r->launch.args[i];
            r->out_bytes[r->outs++] = bytes;
        }
    }
}
