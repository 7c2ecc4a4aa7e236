// SPDX-License-Identifier: MIT
/*
 * simt-preempt-demo: a long low-priority kernel and a stream of short
 * high-priority kernels from another process, once per preemption mode,
 * with every result checked.  Prints a table of the high-priority
 * response times and the low-priority slowdown, and writes a timeline of
 * each run (blocks on SMs, preemptions) as Chrome trace-event JSON (opens
 * in Perfetto or chrome://tracing) and as an SVG picture (a time axis in
 * microseconds and device cycles, a legend, the preemption events
 * labelled by mechanism and one of them magnified in a second strip),
 * and summary.svg: the distributions of the high-priority response
 * times of every mode (docs/guest.rst describes the pictures).
 *
 *   simt-preempt-demo [--lp-iters N] [--gap-us N] [--modes LIST]
 *                     [--window-ms N] [--out DIR] [--check]
 *
 * The timelines cover the first N ms of device time of each run
 * (default 5), so that they stay small enough to look at.
 * LIST is a comma-separated list of none, drain, flush, switch, light,
 * auto and chimera (default: all).  With --check the exit status is 1 unless
 * every result is right, the best preempting mode's median response
 * (in device cycles) is at least 10 times lower than without preemption,
 * and (when both ran) light saves fewer bytes per preemption event than
 * switch (seed 004: only the live registers, from the launch's live
 * table).  The bytes saved per event come from the device's counters in
 * debugfs "preempt" (events, saved_bytes) before and after each run.
 * Needs root for the timeline and the counters (debugfs).
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/simt_accel.h>
#include "hw/simt/simt-hw.h"
#include "libsimt.h"
#include "simt-clock.h"

#define IMAGE "/lib/simt/kernels/preempt.elf"
#define SRC_WORDS 4096
#define HP_BLOCKS 4
#define HP_THREADS 128
#define MAX_SAMPLES 4096
#define WAIT_NS (600ll * 1000000000ll)

static const struct {
	const char *name;
	int mode;
} modes[] = {
	{ "none", SIMT_PREEMPT_NONE },
	{ "drain", SIMT_PREEMPT_DRAIN },
	{ "flush", SIMT_PREEMPT_FLUSH },
	{ "switch", SIMT_PREEMPT_SWITCH },
	{ "light", SIMT_PREEMPT_LIGHT },
	{ "auto", SIMT_PREEMPT_AUTO },
	{ "chimera", SIMT_PREEMPT_CHIMERA },
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

struct lp_report {		/* from the low-priority process, by pipe */
	int ok;			/* its results equal the reference */
	uint64_t start, end;	/* device cycles */
};

struct row {
	const char *mode;
	unsigned int m;				/* index in modes[] */
	unsigned int n;
	double *us_v, *cyc_v;			/* the n responses, sorted */
	double med_us, p99_us, max_us;		/* guest time */
	double med_cyc, p99_cyc, max_cyc;	/* device cycles */
	uint64_t lp_cycles;
	long long events;			/* preemption events, -1: unknown */
	double saved_per_event;			/* bytes to save areas per event */
	int ok;
};

static uint32_t lp_iters = 400000;
static unsigned int gap_us = 2000;
static unsigned int window_ms = 5;
static const char *out_dir = "/tmp/simt-demo";
static uint32_t clock_mhz = 1000;
static char dbg[256];

static void die(const char *what, simt_status st)
{
	fprintf(stderr, "simt-preempt-demo: %s: %s (%s)\n", what,
		simt_error_string(st), simt_last_error());
	exit(1);
}

/* The @p-th percentile of the sorted @v (nearest rank). */
static double pct(const double *v, unsigned int n, double p)
{
	unsigned int i = (unsigned int)(p / 100 * n + 0.999999);

	return n ? v[i ? i - 1 : 0] : 0;
}

static uint64_t param(simt_device *dev, uint32_t p)
{
	uint64_t v;
	simt_status st = simt_device_get_param(dev, p, &v);

	if (st)
		die("get_param", st);
	return v;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "simt-preempt-demo: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/*
 * The low-priority process: one block per block slot of every SM, so
 * that high-priority blocks find no room; reports its cycles and whether
 * its results equal those in @ref_path (which it writes in mode NONE).
 */
static void lp_process(int mode, int fd, const char *ref_path)
{
	simt_device *dev;
	simt_context *ctx;
	simt_module *mod;
	simt_kernel *k;
	simt_buffer *src, *out;
	struct simt_device_info info;
	struct simt_result res;
	struct lp_report rep = { 0 };
	uint32_t *host, *want, n, i;
	uint64_t seq;
	simt_status st;
	FILE *f;

	if ((st = simt_device_open(NULL, &dev)) ||
	    (st = simt_device_get_info(dev, &info)))
		die("open", st);
	if ((st = simt_context_create(dev, SIMT_PRIORITY_LOW, mode, &ctx)))
		die("low-priority context", st);
	if ((st = simt_module_load(ctx, IMAGE, &mod)) ||
	    (st = simt_module_get_kernel(mod, "lp_long", &k)))
		die(IMAGE, st);
	n = info.sm_count * info.sm_blocks * 32;
	host = calloc(SRC_WORDS > n ? SRC_WORDS : n, 4);
	want = calloc(n, 4);
	for (i = 0; i < SRC_WORDS; i++)
		host[i] = i * 2654435761u;
	if ((st = simt_mem_alloc(ctx, SRC_WORDS * 4, &src)) ||
	    (st = simt_mem_alloc(ctx, n * 4, &out)) ||
	    (st = simt_memcpy_htod(src, 0, host, SRC_WORDS * 4)))
		die("low-priority buffers", st);
	{
		uint32_t args[] = { simt_buffer_addr(out), simt_buffer_addr(src),
				    SRC_WORDS - 1, lp_iters };

		st = simt_launch(k, (simt_dim3){ info.sm_count * info.sm_blocks, 1, 1 },
				 (simt_dim3){ 32, 1, 1 }, 0, args, 4, &seq);
		if (st)
			die("low-priority launch", st);
	}
	if (write(fd, "s", 1) != 1)
		exit(1);
	st = simt_wait(ctx, seq, WAIT_NS, &res);
	if (st)
		die("low-priority wait", st);
	if ((st = simt_memcpy_dtoh(host, out, 0, n * 4)))
		die("low-priority results", st);
	rep.start = res.start_cycle;
	rep.end = res.end_cycle;
	/* Without preemption the results are the reference. */
	f = fopen(ref_path, mode == SIMT_PREEMPT_NONE ? "w" : "r");
	if (!f) {
		perror(ref_path);
		exit(1);
	}
	if (mode == SIMT_PREEMPT_NONE && fwrite(host, 4, n, f) == n) {
		rep.ok = 1;
	} else if (fread(want, 4, n, f) == n) {
		rep.ok = !memcmp(want, host, n * 4);
	}
	fclose(f);
	if (write(fd, &rep, sizeof(rep)) != sizeof(rep))
		exit(1);
	exit(0);
}

/* A growing text buffer. */
struct text {
	char *buf;
	size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < t->cap - t->len)
			break;
		t->cap = t->cap * 2 + 4096;
		t->buf = realloc(t->buf, t->cap);
		if (!t->buf)
			exit(1);
	}
	t->len += n;
}

/* One record of the device's timeline ring, @ord its place in the file. */
struct trace_rec {
	uint64_t cyc;
	unsigned int type, q, sm, blk, ord;
};

/*
 * A block's stay on an SM: from its placement (@in DISPATCH) or restore
 * (RESTORE) to its retire, flush or save (@out; 0 and @end 0: still
 * there at the end of the window).
 */
struct stay {
	uint64_t start, end;
	unsigned int q, sm, blk, lane, in, out;
};

/*
 * A preemption event: its request (PREEMPT) and its last victim off its
 * SM (PREEMPT_DONE; 0: after the window), how the victims left (@what)
 * and the low-priority blocks it saved or flushed (@moved).
 */
struct pevent {
	uint64_t req, done;
	unsigned int seq, moved;
	char what[64];
};

/* What a mode's picture is drawn from: the window is @first..@last. */
struct tl {
	const char *mode;
	uint64_t first, last;
	unsigned int nsm, slots, lp_queue;
	struct stay *stays;
	unsigned int nstays;
	struct pevent *ev;
	unsigned int nev;
};

/* An event of debugfs "preempt"'s log (its last 256): blocks per mechanism. */
struct plog {
	unsigned int seq, drained, flushed, switched, light;
};

/*
 * SVG layout: strips of a row per SM and a lane per block slot, lanes
 * taller in the inset.
 */
#define SVG_W 1100
#define X0 70
#define PLOT_W 1000
#define LANE_PX(inset) ((inset) ? 8 : 5)
#define ROW_PX(slots, inset) ((slots) * LANE_PX(inset) + 8)
#define AXIS_PX 48
#define MIN_HP_PX 2.0
#define COL_LP "#4a7fd4"
#define COL_HP "#d9473b"
#define COL_FLUSHED "#a8a8a8"
#define COL_SAVED "#f39c12"
#define COL_RESTORED "#2e9e4f"
#define COL_EVENT "#f5c542"

/* At one cycle, blocks leave their slots before others are placed. */
static int rec_rank(unsigned int type)
{
	return type == SIMT_TRACE_RETIRE || type == SIMT_TRACE_FLUSH ||
	       type == SIMT_TRACE_SAVE ? 0 : 1;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct trace_rec *x = a, *y = b;

	if (x->cyc != y->cyc)
		return x->cyc < y->cyc ? -1 : 1;
	if (rec_rank(x->type) != rec_rank(y->type))
		return rec_rank(x->type) - rec_rank(y->type);
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

static unsigned int read_preempt_log(struct plog *log, unsigned int max)
{
	char path[300], line[256], trig[16];
	unsigned int n = 0, status, victims;
	int preemptor;
	FILE *f;

	snprintf(path, sizeof(path), "%s/preempt", dbg);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < max) {
		struct plog *l = &log[n];

		if (sscanf(line, "%u %15s %u %d %x %u %u %u %u", &l->seq, trig, &status,
			   &preemptor, &victims, &l->drained, &l->flushed,
			   &l->switched, &l->light) == 9)
			n++;
	}
	fclose(f);
	return n;
}

/*
 * How the victims of @e left their SMs: from the device's log if the
 * event is still there (blocks per mechanism), else from the timeline's
 * saves and flushes of low-priority blocks between request and done; a
 * save is a lightweight switch in mode light, a full one in switch and
 * chimera (Chimera has no lightweight switch), either in auto.
 */
static void describe_event(struct pevent *e, const struct tl *t,
			   const struct plog *log, unsigned int nlog)
{
	uint64_t until = e->done ? e->done : t->last;
	unsigned int saves = 0, flushes = 0, i;
	size_t len = 0;

	for (i = 0; i < t->nstays; i++) {
		const struct stay *s = &t->stays[i];

		if (s->q != t->lp_queue || !s->out || s->end < e->req || s->end > until)
			continue;
		saves += s->out == SIMT_TRACE_SAVE;
		flushes += s->out == SIMT_TRACE_FLUSH;
	}
	e->moved = saves + flushes;
	e->what[0] = 0;
	for (i = 0; i < nlog; i++) {
		const unsigned int count[] = { log[i].light, log[i].switched,
					       log[i].flushed, log[i].drained };
		static const char *const name[] = { "light", "switch", "flush", "drain" };

		if (log[i].seq != e->seq)
			continue;
		for (unsigned int k = 0; k < 4; k++)
			if (count[k])
				len += snprintf(e->what + len, sizeof(e->what) - len,
						"%s%s %u", len ? " + " : "", name[k],
						count[k]);
		if (!len)
			snprintf(e->what, sizeof(e->what), "no block moved");
		return;
	}
	if (saves)
		len += snprintf(e->what, sizeof(e->what), "%s %u",
				!strcmp(t->mode, "light") ? "light" :
				!strcmp(t->mode, "auto") ? "saved" : "switch", saves);
	if (flushes)
		len += snprintf(e->what + len, sizeof(e->what) - len, "%sflush %u",
				len ? " + " : "", flushes);
	if (!len)
		snprintf(e->what, sizeof(e->what), "drain%s",
			 e->done ? "" : " (ends after the window)");
}

/* 1, 2 or 5 times a power of ten, at least @raw. */
static double nice_step(double raw)
{
	double p = pow(10, floor(log10(raw)));

	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

/* Cycles with k or M: 2500 -> 2.5k. */
static void fmt_cycles(char *out, size_t n, double c)
{
	if (c >= 1e6)
		snprintf(out, n, "%.4gM", c / 1e6);
	else if (c >= 1e3)
		snprintf(out, n, "%.4gk", c / 1e3);
	else
		snprintf(out, n, "%.4g", c);
}

static double strip_x(uint64_t c, uint64_t c0, uint64_t c1)
{
	return X0 + (double)(c - c0) * PLOT_W / (c1 - c0);
}

/*
 * A time axis at @y under a strip showing cycles @c0..@c1: ticks
 * labelled in microseconds and device cycles since the window's start.
 */
static void draw_axis(struct text *s, const struct tl *t, uint64_t c0, uint64_t c1,
		      double y)
{
	double span = (c1 - c0) / (double)clock_mhz;
	double t0 = (c0 - t->first) / (double)clock_mhz;
	double step = nice_step(span / 10);
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	long long k;

	put(s, "<g class=\"axis\">\n<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	    "stroke=\"#333\"/>\n", X0, y, X0 + PLOT_W, y);
	put(s, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">us</text>\n"
	    "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#666\">cycles</text>\n",
	    X0 - 22, y + 14, X0 - 22, y + 26);
	for (k = (long long)ceil(t0 / step - 1e-9); k * step <= t0 + span + 1e-9; k++) {
		double x = X0 + (k * step - t0) / span * PLOT_W;
		char cyc[32];

		fmt_cycles(cyc, sizeof(cyc), k * step * clock_mhz);
		put(s, "<line class=\"axis-tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"#333\"/>\n", x, y, x, y + 4);
		put(s, "<text class=\"axis-label-us\" x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\">%.*f</text>\n", x, y + 14, dec, k * step);
		put(s, "<text class=\"axis-label-cyc\" x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\" fill=\"#666\">%s</text>\n", x, y + 26, cyc);
	}
	put(s, "<text class=\"axis-title\" x=\"%d\" y=\"%.1f\">time since the low-priority "
	    "kernel started: microseconds, and device cycles at %u MHz</text>\n</g>\n",
	    X0, y + 40, clock_mhz);
}

/*
 * Preemption events in @c0..@c1 as bands from request to last victim
 * off: a bar above the strip and, under the blocks, where slots are free.
 */
static void draw_spans(struct text *s, const struct tl *t, uint64_t c0, uint64_t c1,
		       double y0, unsigned int h)
{
	for (unsigned int i = 0; i < t->nev; i++) {
		const struct pevent *e = &t->ev[i];
		uint64_t end = e->done ? e->done : t->last;
		uint64_t a = e->req > c0 ? e->req : c0, b = end < c1 ? end : c1;
		double w = (double)(b - a) * PLOT_W / (c1 - c0);

		if (e->req > c1 || end < c0)
			continue;
		put(s, "<rect class=\"preempt-span\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		    "height=\"%u\" fill=\"%s\"/>\n",
		    strip_x(a, c0, c1), y0 - 8, w > 1 ? w : 1, h, COL_EVENT);
	}
}

/*
 * A strip at @y0 of cycles @c0..@c1: the block stays, preemption events
 * as bands from request to last victim off, and the requests as marks
 * labelled by mechanism (in the main strip only where there is room for
 * the label; there the mark is faint inside the strip, so as not to hide
 * the high-priority blocks that follow it).
 */
static void draw_strip(struct text *s, const struct tl *t, uint64_t c0, uint64_t c1,
		       double y0, int inset)
{
	double scale = (double)PLOT_W / (c1 - c0), label_end = -1e9;
	unsigned int row = ROW_PX(t->slots, inset), lane = LANE_PX(inset);
	unsigned int h = t->nsm * row, i;

	put(s, "<g class=\"strip %s\">\n", inset ? "inset" : "main");
	for (i = 0; i < t->nsm; i++)
		put(s, "<rect class=\"sm-row\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%u\" "
		    "fill=\"#f2f2f2\"/>\n<text x=\"8\" y=\"%.1f\">SM %u</text>\n",
		    X0, y0 + i * row, PLOT_W, t->slots * lane, y0 + i * row + 10, i);
	draw_spans(s, t, c0, c1, y0, h);
	/* Low-priority blocks, then high-priority ones on top. */
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < t->nstays; i++) {
			const struct stay *st = &t->stays[i];
			uint64_t end = st->out ? st->end : t->last, a, b;
			int hp = st->q != t->lp_queue;
			double x, w, y;

			if (hp != pass || end < c0 || st->start > c1)
				continue;
			a = st->start > c0 ? st->start : c0;
			b = end < c1 ? end : c1;
			x = strip_x(a, c0, c1);
			w = (b - a) * scale;
			if (hp && w < MIN_HP_PX)
				w = MIN_HP_PX;
			else if (w < 0.5)
				w = 0.5;
			y = y0 + st->sm * row + st->lane * lane;
			put(s, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%u\" fill=\"%s\"/>\n",
			    hp ? "hp-block" : st->out == SIMT_TRACE_FLUSH ? "lp-block flushed" :
			    "lp-block", x, y, w, lane - 1,
			    hp ? COL_HP : st->out == SIMT_TRACE_FLUSH ? COL_FLUSHED : COL_LP);
			if (!hp && st->out == SIMT_TRACE_SAVE && end <= c1)
				put(s, "<rect class=\"saved-mark\" x=\"%.1f\" y=\"%.1f\" "
				    "width=\"2\" height=\"%u\" fill=\"%s\"/>\n",
				    w > 2 ? x + w - 2 : x, y, lane - 1, COL_SAVED);
			if (!hp && st->in == SIMT_TRACE_RESTORE && st->start >= c0)
				put(s, "<rect class=\"restored-mark\" x=\"%.1f\" y=\"%.1f\" "
				    "width=\"2\" height=\"%u\" fill=\"%s\"/>\n", x, y,
				    lane - 1, COL_RESTORED);
		}
	}
	for (i = 0; i < t->nev; i++) {
		const struct pevent *e = &t->ev[i];
		char label[128];
		double x;

		if (e->req < c0 || e->req > c1)
			continue;
		x = strip_x(e->req, c0, c1);
		put(s, "<line class=\"preempt\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"#111\" stroke-width=\"1.5\"/>\n", x, y0 - 8, x, inset ? y0 + h - 6 : y0 - 1);
		if (!inset)
			put(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			    "stroke=\"#111\" stroke-opacity=\"0.25\"/>\n", x, y0, x, y0 + h - 6);
		if (inset)
			snprintf(label, sizeof(label), "preemption %u: %s", e->seq, e->what);
		else
			snprintf(label, sizeof(label), "%s", e->what);
		/* About 5.5 px a character at font size 10. */
		if (x < label_end || x + strlen(label) * 5.5 > SVG_W)
			continue;
		put(s, "<text class=\"preempt-label\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\">"
		    "%s</text>\n", x + 2, y0 - 10, label);
		label_end = x + 2 + strlen(label) * 5.5 + 6;
	}
	put(s, "</g>\n");
}

/* The legend, wrapped at the picture's width; returns the rows it took. */
static unsigned int draw_legend(struct text *s, double y)
{
	static const struct {
		const char *cls, *fill, *label;
	} items[] = {
		{ "lp", COL_LP, "low-priority block" },
		{ "hp", COL_HP, "high-priority block (at least 2 px wide)" },
		{ "flushed", COL_FLUSHED, "low-priority block flushed (run again later)" },
		{ "saved", COL_SAVED, "block saved (end of its stay)" },
		{ "restored", COL_RESTORED, "block restored (start of its stay)" },
		{ "preempt", COL_EVENT, "preemption event: request (line, labelled "
		  "by mechanism and blocks) to last victim off (band)" },
	};
	double x = 10;
	unsigned int rows = 1;

	put(s, "<g class=\"legend\">\n");
	for (unsigned int i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		double w = 22 + strlen(items[i].label) * 6;

		if (x + w > SVG_W - 10) {
			x = 10;
			y += 16;
			rows++;
		}
		put(s, "<g class=\"legend-item legend-%s\">\n<rect x=\"%.1f\" y=\"%.1f\" "
		    "width=\"14\" height=\"9\" fill=\"%s\"/>\n",
		    items[i].cls, x, y - 9, items[i].fill);
		if (!strcmp(items[i].cls, "preempt"))
			put(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			    "stroke=\"#111\"/>\n", x, y - 11, x, y + 1);
		put(s, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n</g>\n", x + 18, y,
		    items[i].label);
		x += w + 14;
	}
	put(s, "</g>\n");
	return rows;
}

/*
 * The event the inset magnifies: the first one of the window that ends
 * in it, preferably one that saved or flushed blocks.  Its range runs
 * from a little before the request to a little after the later of its
 * last victim off, the high-priority blocks placed meanwhile leaving and
 * the first low-priority block placed again.  NULL if there is none.
 */
static const struct pevent *inset_event(const struct tl *t, uint64_t *c0, uint64_t *c1)
{
	const struct pevent *e = NULL;
	uint64_t end, back = 0, margin;
	unsigned int i;

	for (i = 0; i < t->nev && !(e && e->moved); i++)
		if (t->ev[i].done && (!e || (!e->moved && t->ev[i].moved)))
			e = &t->ev[i];
	if (!e)
		return NULL;
	end = e->done;
	for (i = 0; i < t->nstays; i++) {
		const struct stay *s = &t->stays[i];

		if (s->q == t->lp_queue && s->start >= e->done && (!back || s->start < back))
			back = s->start;
	}
	for (i = 0; i < t->nstays; i++) {
		const struct stay *s = &t->stays[i];

		if (s->q != t->lp_queue && s->start >= e->req && s->out &&
		    s->start <= (back ? back : t->last) && s->end > end)
			end = s->end;
	}
	if (back > end)
		end = back;
	margin = (end - e->req) / 4 + 20;
	*c0 = e->req > t->first + margin ? e->req - margin : t->first;
	*c1 = end + margin < t->last ? end + margin : t->last;
	return *c1 > *c0 ? e : NULL;
}

/* The picture: title, legend, the window's strip and the inset under it. */
static void write_svg(const struct tl *t, const char *path)
{
	struct text s = { 0 }, body = { 0 };
	unsigned int h = t->nsm * ROW_PX(t->slots, 0), hi = t->nsm * ROW_PX(t->slots, 1), rows;
	const struct pevent *e;
	uint64_t i0 = 0, i1 = 0;
	double y, y_inset;

	put(&body, "<text class=\"title\" x=\"10\" y=\"16\" font-size=\"13\" "
	    "font-weight=\"bold\">simt timeline, preemption mode %s</text>\n"
	    "<text x=\"10\" y=\"32\">the first %.0f us (%" PRIu64 " cycles at %u MHz) "
	    "of the low-priority kernel, %u preemption events; a row per SM, a lane "
	    "per block slot; below, one event zoomed</text>\n",
	    t->mode, (t->last - t->first) / (double)clock_mhz, t->last - t->first,
	    clock_mhz, t->nev);
	rows = draw_legend(&body, 52);
	y = 52 + rows * 16 + 14;
	draw_strip(&body, t, t->first, t->last, y, 0);
	draw_axis(&body, t, t->first, t->last, y + h + 2);
	y_inset = y + h + 2 + AXIS_PX + 36;
	e = inset_event(t, &i0, &i1);
	if (e) {
		double a = strip_x(i0, t->first, t->last), b = strip_x(i1, t->first, t->last);

		if (b - a < 4)
			a = (a + b) / 2 - 2, b = a + 4;
		put(&body, "<rect class=\"inset-range\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		    "height=\"%u\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>\n"
		    "<line class=\"inset-link\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#888\" stroke-dasharray=\"3 3\"/>\n"
		    "<line class=\"inset-link\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#888\" stroke-dasharray=\"3 3\"/>\n",
		    a, y - 4, b - a, h + 2, a, y + h - 2, X0, y_inset - 24,
		    b, y + h - 2, X0 + PLOT_W, y_inset - 24);
		put(&body, "<text class=\"inset-title\" x=\"10\" y=\"%.1f\" font-weight=\"bold\">"
		    "zoomed %.0fx: %.2f to %.2f us, preemption event %u (%s): request to "
		    "last victim off %" PRIu64 " cycles</text>\n",
		    y_inset - 26, (double)(t->last - t->first) / (i1 - i0),
		    (i0 - t->first) / (double)clock_mhz, (i1 - t->first) / (double)clock_mhz,
		    e->seq, e->what, e->done - e->req);
		draw_strip(&body, t, i0, i1, y_inset, 1);
		draw_axis(&body, t, i0, i1, y_inset + hi + 2);
		y = y_inset + hi + 2 + AXIS_PX;
	} else {
		put(&body, "<text class=\"no-inset\" x=\"10\" y=\"%.1f\">no preemption event "
		    "ends in this window: nothing to zoom into</text>\n", y_inset - 26);
		y = y_inset - 16;
	}
	put(&s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
	    "font-family=\"sans-serif\" font-size=\"11\">\n"
	    "<rect width=\"%d\" height=\"%.0f\" fill=\"white\"/>\n%s</svg>\n",
	    SVG_W, y + 8, SVG_W, y + 8, body.buf);
	write_file(path, s.buf);
	free(s.buf);
	free(body.buf);
}

/*
 * Turn the device's timeline (debugfs "timeline": lines of cycle, type,
 * queue, SM, block; not in cycle order) into DIR/timeline-MODE.json and
 * .svg, from the low-priority kernel's start cycle @lp_start on (the
 * high-priority kernels that ran while its process was still setting up
 * are not what the picture is about) for --window-ms.  The low-priority
 * kernel's queue is the one whose block was placed at @lp_start.
 * Returns the number of preemption events seen.
 */
static unsigned int write_timeline(const char *mode, uint64_t lp_start,
				   unsigned int nsm, unsigned int slots)
{
	static struct trace_rec rec[65536 + 1024];
	static unsigned int open_stay[65536];	/* (queue, block) -> stay + 1 */
	static unsigned int lane_of[64][64];	/* SM, lane -> stay + 1 */
	static struct plog log[256];
	char path[512], line[128];
	struct tl t = { .mode = mode, .nsm = nsm, .slots = slots, .lp_queue = UINT32_MAX };
	struct text j = { 0 };
	unsigned int nrec = 0, nlog, i;
	uint64_t first = 0, last = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/timeline", dbg);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "simt-preempt-demo: %s: %s (timelines need root)\n",
			path, strerror(errno));
		return 0;
	}
	if (nsm > 64 || slots > 64) {
		fclose(f);
		return 0;
	}
	while (nrec < sizeof(rec) / sizeof(rec[0]) && fgets(line, sizeof(line), f)) {
		struct trace_rec *r = &rec[nrec];

		if (sscanf(line, "%" SCNu64 " %u %u %u %u", &r->cyc, &r->type, &r->q,
			   &r->sm, &r->blk) != 5)
			continue;
		r->ord = nrec;
		if (!nrec++ || r->cyc < first)
			first = r->cyc;
		if (r->type == SIMT_TRACE_DISPATCH && r->cyc == lp_start)
			t.lp_queue = r->q;
		last = r->cyc > last ? r->cyc : last;
	}
	fclose(f);
	qsort(rec, nrec, sizeof(rec[0]), cmp_rec);
	first = lp_start > first ? lp_start : first;
	if (last - first > (uint64_t)window_ms * 1000 * clock_mhz)
		last = first + (uint64_t)window_ms * 1000 * clock_mhz;
	if (last <= first)
		last = first + 1;
	t.first = first;
	t.last = last;
	t.stays = calloc(nrec + 1, sizeof(*t.stays));
	t.ev = calloc(nrec + 1, sizeof(*t.ev));
	if (!t.stays || !t.ev)
		exit(1);
	memset(open_stay, 0, sizeof(open_stay));
	memset(lane_of, 0, sizeof(lane_of));
	for (i = 0; i < nrec; i++) {
		const struct trace_rec *r = &rec[i];
		unsigned int key = (r->q * 4096 + r->blk) % 65536, lane = 0;
		struct stay *st;

		if (r->cyc < first)
			continue;
		if (r->cyc > last)
			break;
		switch (r->type) {
		case SIMT_TRACE_DISPATCH:
		case SIMT_TRACE_RESTORE:
			if (r->sm >= nsm)
				break;
			while (lane + 1 < slots && lane_of[r->sm][lane])
				lane++;
			st = &t.stays[t.nstays++];
			*st = (struct stay){ .start = r->cyc, .q = r->q, .sm = r->sm,
					     .blk = r->blk, .lane = lane, .in = r->type };
			lane_of[r->sm][lane] = t.nstays;
			open_stay[key] = t.nstays;
			break;
		case SIMT_TRACE_RETIRE:
		case SIMT_TRACE_FLUSH:
		case SIMT_TRACE_SAVE:
			if (!open_stay[key])
				break;
			st = &t.stays[open_stay[key] - 1];
			st->end = r->cyc;
			st->out = r->type;
			if (lane_of[st->sm][st->lane] == open_stay[key])
				lane_of[st->sm][st->lane] = 0;
			open_stay[key] = 0;
			break;
		case SIMT_TRACE_PREEMPT:
			t.ev[t.nev++] = (struct pevent){ .req = r->cyc, .seq = r->blk };
			break;
		case SIMT_TRACE_PREEMPT_DONE:
			for (unsigned int k = t.nev; k-- > 0;)
				if (t.ev[k].seq == r->blk) {
					t.ev[k].done = r->cyc;
					break;
				}
			break;
		}
	}
	nlog = read_preempt_log(log, 256);
	for (i = 0; i < t.nev; i++)
		describe_event(&t.ev[i], &t, log, nlog);

	put(&j, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
	for (i = 0; i < t.nstays; i++) {
		const struct stay *st = &t.stays[i];
		uint64_t end = st->out ? st->end : last;

		put(&j, "{\"name\": \"queue %u block %u\", \"cat\": \"%s\", \"ph\": \"X\", "
		    "\"ts\": %.3f, \"dur\": %.3f, \"pid\": 0, \"tid\": %u},\n",
		    st->q, st->blk, st->out == SIMT_TRACE_RETIRE ? "block" :
		    st->out == SIMT_TRACE_FLUSH ? "flushed" :
		    st->out == SIMT_TRACE_SAVE ? "saved" : "running",
		    (st->start - first) / (double)clock_mhz,
		    (end - st->start) / (double)clock_mhz, st->sm);
	}
	for (i = 0; i < t.nev; i++) {
		const struct pevent *e = &t.ev[i];

		put(&j, "{\"name\": \"preemption %u: %s\", \"ph\": \"i\", \"s\": \"g\", "
		    "\"ts\": %.3f, \"pid\": 0, \"tid\": 0},\n",
		    e->seq, e->what, (e->req - first) / (double)clock_mhz);
	}
	put(&j, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, "
	    "\"args\": {\"name\": \"simt %s\"}}\n]}\n", mode);
	snprintf(path, sizeof(path), "%s/timeline-%s.json", out_dir, mode);
	write_file(path, j.buf);
	free(j.buf);
	snprintf(path, sizeof(path), "%s/timeline-%s.svg", out_dir, mode);
	write_svg(&t, path);
	free(t.stays);
	free(t.ev);
	return t.nev;
}

/* A colour and a dash pattern per mode, in the order of modes[]. */
static const char *const mode_colour[NMODES] = {
	"#555555", "#8c564b", "#9467bd", "#1f77b4", "#2ca02c", "#ff7f0e", "#d62728",
};
static const char *const mode_dash[NMODES] = { "", "6 3", "", "", "5 2", "2 2", "8 2 2 2" };

/* Response @i of @r in microseconds: device time, or guest time if @guest. */
static double response_us(const struct row *r, unsigned int i, int guest)
{
	return guest ? r->us_v[i] : r->cyc_v[i] / clock_mhz;
}

/*
 * One panel of the summary at @x0, @y0 (@w by @h): the distribution of
 * the high-priority response times of every mode, a step line each, on
 * a log-scale x axis of whole decades of microseconds.
 */
static void cdf_panel(struct text *s, const struct row *rows, unsigned int nrows,
		      int guest, double x0, double y0, double w, double h)
{
	double lo = 0, hi = 0, l0, l1;
	unsigned int i, k;

	for (i = 0; i < nrows; i++)
		for (k = 0; k < rows[i].n; k++) {
			double v = response_us(&rows[i], k, guest);

			if (v > 0 && (!lo || v < lo))
				lo = v;
			hi = v > hi ? v : hi;
		}
	if (!(lo > 0))
		lo = hi = 1;
	/* Whole decades, with room on both sides of the extremes. */
	l0 = floor(log10(lo / 1.5));
	l1 = ceil(log10(hi * 1.5));
	if (l1 <= l0)
		l1 = l0 + 1;
#define CDF_X(v) (x0 + (log10((v) > pow(10, l0) ? (v) : pow(10, l0)) - l0) / (l1 - l0) * w)
#define CDF_Y(f) (y0 + h - (f) * h)
	put(s, "<text class=\"panel-title\" x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">%s</text>\n",
	    x0, y0 - 10, guest ? "guest time: what the process waited (clock_gettime, TCG)" :
	    "device time: submission to last block (device cycles / clock)");
	put(s, "<g class=\"axis\">\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	    "stroke=\"#333\"/>\n", x0, y0 + h, x0 + w, y0 + h);
	for (k = 0; l0 + k <= l1; k++) {
		double x = x0 + k * w / (l1 - l0), v = pow(10, l0 + k);

		put(s, "<line class=\"axis-tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"#333\"/>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", x, y0 + h, x, y0 + h + 5, x, y0, x,
		    y0 + h - 1);
		/* 0.1 to 1000 written out, from 10^4 on as powers of ten. */
		if (l0 + k < 4)
			put(s, "<text class=\"axis-label-us\" x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"middle\">%.*f</text>\n", x, y0 + h + 17,
			    v < 1 ? (int)-(l0 + k) : 0, v);
		else
			put(s, "<text class=\"axis-label-us\" x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"middle\">10<tspan dy=\"-5\" font-size=\"8\">%.0f"
			    "</tspan></text>\n", x, y0 + h + 17, l0 + k);
		for (unsigned int m = 2; m < 10 && l0 + k < l1; m++) {
			double xm = x + log10(m) * w / (l1 - l0);

			put(s, "<line class=\"axis-minor\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\" stroke=\"#333\"/>\n", xm, y0 + h, xm, y0 + h + 3);
		}
	}
	put(s, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
	    "high-priority response, microseconds (log scale)</text>\n</g>\n",
	    x0 + w / 2, y0 + h + 34);
	put(s, "<g class=\"axis\">\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	    "stroke=\"#333\"/>\n", x0, y0, x0, y0 + h);
	for (k = 0; k <= 4; k++)
		put(s, "<line class=\"axis-tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"#333\"/>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n<text class=\"axis-label-frac\" "
		    "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n",
		    x0 - 5, CDF_Y(k / 4.0), x0, CDF_Y(k / 4.0), x0 + 1, CDF_Y(k / 4.0),
		    x0 + w, CDF_Y(k / 4.0), x0 - 8, CDF_Y(k / 4.0) + 4, k / 4.0);
	put(s, "<text class=\"axis-title\" transform=\"rotate(-90 %.1f %.1f)\" x=\"%.1f\" "
	    "y=\"%.1f\" text-anchor=\"middle\">fraction of high-priority kernels</text>\n</g>\n",
	    x0 - 44, y0 + h / 2, x0 - 44, y0 + h / 2);
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		double cur;

		if (!r->n)
			continue;
		/* A step line: up at each sample, samples of one pixel merged. */
		cur = CDF_X(response_us(r, 0, guest));
		put(s, "<polyline class=\"cdf-series cdf-%s\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"1.6\"%s%s%s points=\"%.2f,%.2f", r->mode,
		    mode_colour[r->m], *mode_dash[r->m] ? " stroke-dasharray=\"" : "",
		    mode_dash[r->m], *mode_dash[r->m] ? "\"" : "", cur, CDF_Y(0));
		for (k = 1; k < r->n; k++) {
			double x = CDF_X(response_us(r, k, guest));

			if (x - cur < 0.3)
				continue;
			put(s, " %.2f,%.2f %.2f,%.2f", cur, CDF_Y((double)k / r->n), x,
			    CDF_Y((double)k / r->n));
			cur = x;
		}
		put(s, " %.2f,%.2f\"/>\n", cur, CDF_Y(1));
	}
#undef CDF_X
#undef CDF_Y
}

/* DIR/summary.svg: the response-time distributions of every mode run. */
static void write_summary(const struct row *rows, unsigned int nrows)
{
	struct text s = { 0 };
	char path[512];
	double x = 10, y = 440;
	unsigned int i, height = 440 + 16 * ((nrows + 1) / 2) + 10;

	put(&s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%u\" "
	    "font-family=\"sans-serif\" font-size=\"11\">\n"
	    "<rect width=\"%d\" height=\"%u\" fill=\"white\"/>\n"
	    "<text class=\"title\" x=\"10\" y=\"18\" font-size=\"13\" font-weight=\"bold\">"
	    "simt-preempt-demo: high-priority response times per preemption mode "
	    "(cumulative distribution)</text>\n"
	    "<text x=\"10\" y=\"34\">low priority: lp_long, %u steps; high priority: "
	    "hp_fill every %u us from another process; only kernels submitted while "
	    "the low-priority one ran; device clock %u MHz</text>\n",
	    SVG_W, height, SVG_W, height, lp_iters, gap_us, clock_mhz);
	cdf_panel(&s, rows, nrows, 0, 80, 70, 440, 300);
	cdf_panel(&s, rows, nrows, 1, 630, 70, 440, 300);
	put(&s, "<g class=\"legend\">\n");
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

		put(&s, "<g class=\"legend-item\">\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s%s%s/>\n"
		    "<text x=\"%.1f\" y=\"%.1f\">%s: %u kernels, median %.1f us device, "
		    "%.0f us guest</text>\n</g>\n",
		    x, y - 4, x + 28, y - 4, mode_colour[r->m],
		    *mode_dash[r->m] ? " stroke-dasharray=\"" : "", mode_dash[r->m],
		    *mode_dash[r->m] ? "\"" : "", x + 34, y, r->mode, r->n,
		    r->med_cyc / clock_mhz, r->med_us);
		if (i % 2) {
			x = 10;
			y += 16;
		} else {
			x = 560;
		}
	}
	put(&s, "</g>\n</svg>\n");
	snprintf(path, sizeof(path), "%s/summary.svg", out_dir);
	write_file(path, s.buf);
	free(s.buf);
}

/*
 * The device's preemption counters from debugfs "preempt": events
 * completed and bytes written to save areas (both wrap at 2^32).
 * 0 if they can be read.
 */
static int preempt_counters(uint32_t *events, uint32_t *saved)
{
	char path[300], line[256];
	int got = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/preempt", dbg);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long v;

		if (sscanf(line, "events %lu", &v) == 1) {
			*events = v;
			got |= 1;
		} else if (sscanf(line, "saved_bytes %lu", &v) == 1) {
			*saved = v;
			got |= 2;
		}
	}
	fclose(f);
	return got == 3 ? 0 : -1;
}

/* One run: the low-priority kernel in @mode, high-priority ones meanwhile. */
static struct row run_mode(simt_device *dev, unsigned int m, const char *ref,
			   unsigned int nsm, unsigned int slots, simt_context *hctx,
			   simt_kernel *hk, simt_buffer *hbuf)
{
	static double us[MAX_SAMPLES], cyc[MAX_SAMPLES];
	static uint64_t submitted[MAX_SAMPLES];
	unsigned int n = 0, j;
	struct row r = { .mode = modes[m].name, .m = m, .ok = 1, .events = -1,
			 .saved_per_event = -1 };
	struct lp_report rep;
	char path[300], c;
	int fds[2], status, counted;
	uint32_t ev0 = 0, sv0 = 0, ev1 = 0, sv1 = 0;
	uint32_t *got = malloc(HP_BLOCKS * HP_THREADS * 4);
	pid_t pid;

	snprintf(path, sizeof(path), "%s/timeline", dbg);
	if (access(path, W_OK) == 0)
		write_file(path, "clear\n");
	counted = dbg[0] && !preempt_counters(&ev0, &sv0);
	if (pipe(fds))
		exit(1);
	/* The child must not print what is still buffered here. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		lp_process(modes[m].mode, fds[1], ref);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1) {
		fprintf(stderr, "simt-preempt-demo: the low-priority process failed\n");
		exit(1);
	}
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		struct simt_result res;
		uint32_t seed = n * 7919 + m;
		uint32_t args[] = { simt_buffer_addr(hbuf), HP_BLOCKS * HP_THREADS, seed };
		uint64_t seq, c0 = param(dev, DRM_SIMT_PARAM_CYCLE);
		double t0 = now_us();
		simt_status st;
		ssize_t got_rep;

		st = simt_launch(hk, (simt_dim3){ HP_BLOCKS, 1, 1 },
				 (simt_dim3){ HP_THREADS, 1, 1 }, 0, args, 3, &seq);
		if (!st)
			st = simt_wait(hctx, seq, WAIT_NS, &res);
		if (st)
			die("high-priority kernel", st);
		if (n < MAX_SAMPLES) {
			us[n] = now_us() - t0;
			cyc[n] = res.end_cycle - c0;
			submitted[n++] = c0;
		}
		if ((st = simt_memcpy_dtoh(got, hbuf, 0, HP_BLOCKS * HP_THREADS * 4)))
			die("high-priority results", st);
		for (uint32_t i = 0; i < HP_BLOCKS * HP_THREADS; i++)
			if (got[i] != (seed ^ (i * 0x9e3779b9u)))
				r.ok = 0;
		got_rep = read(fds[0], &rep, sizeof(rep));
		if (got_rep == sizeof(rep))
			break;
		usleep(gap_us);
	}
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		r.ok = 0;
	/* The high-priority kernels preempt nothing: every event is this run's. */
	if (counted && !preempt_counters(&ev1, &sv1)) {
		r.events = (uint32_t)(ev1 - ev0);
		if (r.events)
			r.saved_per_event = (double)(uint32_t)(sv1 - sv0) / r.events;
	}
	r.ok &= rep.ok;
	r.lp_cycles = rep.end - rep.start;
	/*
	 * Only what was submitted while the long kernel ran counts: the
	 * low-priority process says "started" when its launch is queued,
	 * which may be before the scheduler has put it on the device.
	 */
	for (j = 0; j < n; j++) {
		if (submitted[j] >= rep.start && submitted[j] < rep.end) {
			us[r.n] = us[j];
			cyc[r.n++] = cyc[j];
		}
	}
	if (!r.n) {
		fprintf(stderr, "simt-preempt-demo: %s: no high-priority kernel ran during the long one\n",
			r.mode);
		exit(1);
	}
	qsort(us, r.n, sizeof(double), cmp_double);
	qsort(cyc, r.n, sizeof(double), cmp_double);
	r.med_us = pct(us, r.n, 50);
	r.p99_us = pct(us, r.n, 99);
	r.max_us = us[r.n - 1];
	r.med_cyc = pct(cyc, r.n, 50);
	r.p99_cyc = pct(cyc, r.n, 99);
	r.max_cyc = cyc[r.n - 1];
	r.us_v = malloc(r.n * sizeof(double));
	r.cyc_v = malloc(r.n * sizeof(double));
	if (!r.us_v || !r.cyc_v)
		exit(1);
	memcpy(r.us_v, us, r.n * sizeof(double));
	memcpy(r.cyc_v, cyc, r.n * sizeof(double));
	write_timeline(modes[m].name, rep.start, nsm, slots);
	free(got);
	return r;
}

int main(int argc, char **argv)
{
	const char *list = NULL;
	int check = 0, failed = 0;
	struct row rows[NMODES];
	unsigned int nrows = 0, i;
	simt_device *dev;
	simt_context *hctx;
	simt_module *hmod;
	simt_kernel *hk;
	simt_buffer *hbuf;
	struct simt_device_info info;
	simt_status st;
	char ref[300];
	glob_t g;
	double best = 0;

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "--lp-iters") && i + 1 < (unsigned int)argc) {
			lp_iters = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--gap-us") && i + 1 < (unsigned int)argc) {
			gap_us = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--window-ms") && i + 1 < (unsigned int)argc) {
			window_ms = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--modes") && i + 1 < (unsigned int)argc) {
			list = argv[++i];
		} else if (!strcmp(argv[i], "--out") && i + 1 < (unsigned int)argc) {
			out_dir = argv[++i];
		} else if (!strcmp(argv[i], "--check")) {
			check = 1;
		} else {
			fprintf(stderr, "usage: simt-preempt-demo [--lp-iters N] "
				"[--gap-us N] [--modes none,drain,flush,switch,light,auto,chimera] "
				"[--window-ms N] [--out DIR] [--check]\n");
			return 2;
		}
	}
	if (glob("/sys/kernel/debug/accel/*/timeline", 0, NULL, &g) == 0) {
		snprintf(dbg, sizeof(dbg), "%.*s", (int)(strlen(g.gl_pathv[0]) - 9),
			 g.gl_pathv[0]);
		globfree(&g);
	}
	mkdir(out_dir, 0755);
	if ((st = simt_device_open(NULL, &dev)) ||
	    (st = simt_device_get_info(dev, &info)))
		die("open", st);
	clock_mhz = param(dev, DRM_SIMT_PARAM_CLOCK_MHZ);
	if ((st = simt_context_create(dev, SIMT_PRIORITY_HIGH, 0, &hctx)) ||
	    (st = simt_module_load(hctx, IMAGE, &hmod)) ||
	    (st = simt_module_get_kernel(hmod, "hp_fill", &hk)) ||
	    (st = simt_mem_alloc(hctx, HP_BLOCKS * HP_THREADS * 4, &hbuf)))
		die("high-priority context", st);

	snprintf(ref, sizeof(ref), "%s/lp-reference.bin", out_dir);
	unlink(ref);
	printf("low priority: lp_long, %u blocks of 32 threads (every block slot), "
	       "%u steps\nhigh priority: hp_fill, %u blocks of %u threads, "
	       "every %u us from another process\n\n",
	       info.sm_count * info.sm_blocks, lp_iters, HP_BLOCKS, HP_THREADS, gap_us);
	printf("%-7s %5s %11s %11s %11s %12s %10s %8s %6s %11s %s\n", "mode", "HP n",
	       "median us", "p99 us", "max us", "median cyc", "LP ms", "LP +%",
	       "events", "saved B/ev", "results");
	/* "none" first: its low-priority results are the reference. */
	for (i = 0; i < NMODES; i++) {
		struct row *r;

		if (i && list && !strstr(list, modes[i].name))
			continue;
		r = &rows[nrows++];
		*r = run_mode(dev, i, ref, info.sm_count, info.sm_blocks, hctx, hk,
			      hbuf);
		char ev[16] = "-", per[24] = "-";

		if (r->events >= 0)
			snprintf(ev, sizeof(ev), "%lld", r->events);
		if (r->saved_per_event >= 0)
			snprintf(per, sizeof(per), "%.0f", r->saved_per_event);
		printf("%-7s %5u %11.0f %11.0f %11.0f %12.0f %10.2f %8.1f %6s %11s %s\n",
		       r->mode, r->n, r->med_us, r->p99_us, r->max_us, r->med_cyc,
		       r->lp_cycles / (clock_mhz * 1000.0),
		       100.0 * ((double)r->lp_cycles - rows[0].lp_cycles) /
		       rows[0].lp_cycles, ev, per, r->ok ? "ok" : "WRONG");
		fflush(stdout);
		failed |= !r->ok;
		if (i && (!best || r->med_cyc < best))
			best = r->med_cyc;
	}
	if (nrows > 1 && best > 0)
		printf("\nhigh-priority median response without preemption / best "
		       "with: %.0fx (device cycles)\n", rows[0].med_cyc / best);
	write_summary(rows, nrows);
	printf("timelines: %s/timeline-MODE.json (Chrome trace) and .svg; response "
	       "times: %s/summary.svg\n", out_dir, out_dir);
	if (check && (failed || nrows < 2 || !best ||
		      rows[0].med_cyc < 10 * best)) {
		fprintf(stderr, "simt-preempt-demo: check failed\n");
		return 1;
	}
	/* Light saves only live registers: fewer bytes per event than switch. */
	{
		const struct row *sw = NULL, *li = NULL;

		for (i = 0; i < nrows; i++) {
			if (!strcmp(rows[i].mode, "switch"))
				sw = &rows[i];
			if (!strcmp(rows[i].mode, "light"))
				li = &rows[i];
		}
		if (sw && li && sw->saved_per_event > 0 && li->saved_per_event >= 0)
			printf("saved bytes per event: light %.0f, switch %.0f (%.0f%%)\n",
			       li->saved_per_event, sw->saved_per_event,
			       100.0 * li->saved_per_event / sw->saved_per_event);
		if (check && sw && li &&
		    (sw->saved_per_event <= 0 || li->saved_per_event < 0 ||
		     li->saved_per_event >= sw->saved_per_event)) {
			fprintf(stderr, "simt-preempt-demo: check failed: light must save fewer bytes "
				"per preemption event than switch (light %.0f, switch %.0f; -1: no "
				"events or no debugfs counters)\n", li->saved_per_event,
				sw->saved_per_event);
			return 1;
		}
	}
	return failed;
}
