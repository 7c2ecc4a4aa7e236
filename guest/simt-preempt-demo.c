// SPDX-License-Identifier: MIT
/*
 * simt-preempt-demo: a long low-priority kernel and a stream of short
 * high-priority kernels from another process, once per preemption mode,
 * with every result checked.  Prints a table of the high-priority
 * response times and the low-priority slowdown, and writes a timeline of
 * each run (blocks on SMs, copies, preemptions) as Chrome trace-event
 * JSON (opens in Perfetto or chrome://tracing) and as an SVG picture.
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
#include "simt.h"

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
	unsigned int n;
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

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
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

/* Append one Chrome trace event and one SVG rectangle per block residency. */
struct timeline {
	char *json, *svg;
	size_t jlen, jcap, slen, scap;
};

static void put(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < *cap - *len)
			break;
		*cap = *cap * 2 + 4096;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			exit(1);
	}
	*len += n;
}

/* SVG layout: a row per SM, a lane per block slot. */
#define LANE_PX 5
#define ROW_PX(slots) ((slots) * LANE_PX + 8)

/*
 * Turn the device's timeline (debugfs "timeline": lines of cycle, type,
 * queue, SM, block) into DIR/timeline-MODE.json and .svg, from the
 * low-priority kernel's start cycle @lp_start on (the high-priority
 * kernels that ran while its process was still setting up are not what
 * the picture is about).  The low-priority kernel's queue is the one
 * whose block was placed at @lp_start.  Returns the number of
 * preemption events seen.
 */
static unsigned int write_timeline(const char *mode, uint64_t lp_start,
				   unsigned int nsm, unsigned int slots)
{
	char path[512], line[128];
	FILE *f;
	static struct {
		uint64_t start;
		int on;
		unsigned int q, sm, blk, lane;
	} open_blk[65536];
	static uint8_t lane_busy[64][64];
	uint64_t first = 0, last = 0, cyc;
	unsigned int type, q, sm, blk, events = 0, rows = 0;
	unsigned int lp_queue = UINT32_MAX;
	struct timeline t = { 0 };
	double scale;

	snprintf(path, sizeof(path), "%s/timeline", dbg);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "simt-preempt-demo: %s: %s (timelines need root)\n",
			path, strerror(errno));
		return 0;
	}
	memset(open_blk, 0, sizeof(open_blk));
	memset(lane_busy, 0, sizeof(lane_busy));
	if (nsm > 64 || slots > 64)
		return 0;
	/* First pass: the time range (records are not in cycle order). */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNu64 " %u %u %u %u", &cyc, &type, &q, &sm, &blk) != 5)
			continue;
		if (!rows++ || cyc < first)
			first = cyc;
		if (type == SIMT_TRACE_DISPATCH && cyc == lp_start)
			lp_queue = q;
		last = cyc > last ? cyc : last;
	}
	rewind(f);
	first = lp_start > first ? lp_start : first;
	if (last - first > (uint64_t)window_ms * 1000 * clock_mhz)
		last = first + (uint64_t)window_ms * 1000 * clock_mhz;
	scale = last > first ? 1000.0 / (last - first) : 1;
	put(&t.json, &t.jlen, &t.jcap, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
	put(&t.svg, &t.slen, &t.scap,
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1100\" height=\"%u\" "
	    "font-family=\"sans-serif\" font-size=\"11\">\n"
	    "<text x=\"10\" y=\"14\">simt timeline, mode %s: %.1f us; blue low "
	    "priority, red high priority, a lane per block slot, black lines "
	    "preemptions</text>\n",
	    40 + nsm * ROW_PX(slots), mode, (last - first) / (double)clock_mhz);
	for (sm = 0; sm < nsm; sm++)
		put(&t.svg, &t.slen, &t.scap,
		    "<text x=\"4\" y=\"%u\">SM %u</text>\n",
		    36 + sm * ROW_PX(slots), sm);
	while (fgets(line, sizeof(line), f)) {
		unsigned int key;

		if (sscanf(line, "%" SCNu64 " %u %u %u %u", &cyc, &type, &q, &sm, &blk) != 5)
			continue;
		if (cyc > last || cyc < first)
			continue;
		key = (q * 4096 + blk) % 65536;
		if (type == SIMT_TRACE_DISPATCH || type == SIMT_TRACE_RESTORE) {
			unsigned int lane = 0;

			while (lane + 1 < slots && sm < 64 && lane_busy[sm][lane])
				lane++;
			if (sm >= 64)
				continue;
			lane_busy[sm][lane] = 1;
			open_blk[key].start = cyc;
			open_blk[key].on = 1;
			open_blk[key].q = q;
			open_blk[key].sm = sm;
			open_blk[key].blk = blk;
			open_blk[key].lane = lane;
		} else if ((type == SIMT_TRACE_RETIRE || type == SIMT_TRACE_FLUSH ||
			    type == SIMT_TRACE_SAVE) && open_blk[key].on) {
			uint64_t s0 = open_blk[key].start;
			const char *color = q == lp_queue ? "#4a7fd4" : "#d9473b";

			open_blk[key].on = 0;
			lane_busy[open_blk[key].sm][open_blk[key].lane] = 0;
			put(&t.json, &t.jlen, &t.jcap,
			    "{\"name\": \"queue %u block %u\", \"cat\": \"%s\", \"ph\": \"X\", "
			    "\"ts\": %.3f, \"dur\": %.3f, \"pid\": 0, \"tid\": %u},\n",
			    q, blk, type == SIMT_TRACE_RETIRE ? "block" :
			    type == SIMT_TRACE_FLUSH ? "flushed" : "saved",
			    (s0 - first) / (double)clock_mhz,
			    (cyc - s0) / (double)clock_mhz, sm);
			put(&t.svg, &t.slen, &t.scap,
			    "<rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"%u\" "
			    "fill=\"%s\"/>\n",
			    60 + (s0 - first) * scale,
			    28 + open_blk[key].sm * ROW_PX(slots) +
			    open_blk[key].lane * LANE_PX,
			    (cyc - s0) * scale > 0.5 ? (cyc - s0) * scale : 0.5,
			    LANE_PX - 1, color);
		} else if (type == SIMT_TRACE_PREEMPT) {
			events++;
			put(&t.json, &t.jlen, &t.jcap,
			    "{\"name\": \"preemption %u\", \"ph\": \"i\", \"s\": \"g\", "
			    "\"ts\": %.3f, \"pid\": 0, \"tid\": 0},\n",
			    blk, (cyc - first) / (double)clock_mhz);
			put(&t.svg, &t.slen, &t.scap,
			    "<line x1=\"%.1f\" y1=\"24\" x2=\"%.1f\" y2=\"%u\" stroke=\"black\"/>\n",
			    60 + (cyc - first) * scale, 60 + (cyc - first) * scale,
			    28 + nsm * ROW_PX(slots));
		}
	}
	fclose(f);
	/* Blocks still on their SMs at the end: up to the end. */
	for (unsigned int i = 0; i < 65536; i++) {
		const char *color;

		if (!open_blk[i].on)
			continue;
		color = open_blk[i].q == lp_queue ? "#4a7fd4" : "#d9473b";
		put(&t.json, &t.jlen, &t.jcap,
		    "{\"name\": \"queue %u block %u\", \"cat\": \"running\", \"ph\": \"X\", "
		    "\"ts\": %.3f, \"dur\": %.3f, \"pid\": 0, \"tid\": %u},\n",
		    open_blk[i].q, open_blk[i].blk,
		    (open_blk[i].start - first) / (double)clock_mhz,
		    (last - open_blk[i].start) / (double)clock_mhz, open_blk[i].sm);
		put(&t.svg, &t.slen, &t.scap,
		    "<rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"%u\" "
		    "fill=\"%s\"/>\n",
		    60 + (open_blk[i].start - first) * scale,
		    28 + open_blk[i].sm * ROW_PX(slots) + open_blk[i].lane * LANE_PX,
		    (last - open_blk[i].start) * scale, LANE_PX - 1, color);
	}
	put(&t.json, &t.jlen, &t.jcap,
	    "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, "
	    "\"args\": {\"name\": \"simt %s\"}}\n]}\n", mode);
	put(&t.svg, &t.slen, &t.scap, "</svg>\n");
	snprintf(path, sizeof(path), "%s/timeline-%s.json", out_dir, mode);
	write_file(path, t.json);
	snprintf(path, sizeof(path), "%s/timeline-%s.svg", out_dir, mode);
	write_file(path, t.svg);
	free(t.json);
	free(t.svg);
	return events;
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
	struct row r = { .mode = modes[m].name, .ok = 1, .events = -1, .saved_per_event = -1 };
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
	printf("timelines: %s/timeline-MODE.json (Chrome trace) and .svg\n", out_dir);
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
