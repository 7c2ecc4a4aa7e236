// SPDX-License-Identifier: MIT
/*
 * simt-share-bench: seed 003's multi-tenancy experiments (Becchi et al.,
 * HPDC 2012, Figs. 10 and 11) on the simt device, from inside the guest
 * through libsimt.  Run by `make bench` (bench/guest-bench.sh boots a
 * guest with two devices and simtguest.bench=share).
 *
 *   simt-share-bench [--quick]
 *
 * A batch of jobs, each a process of its own (a tenant): it opens a
 * device, allocates two objects x and y, uploads them (copies through
 * the copy engines), runs GPU phases of saxpy launches (y = 0.5 x + y
 * over all of y) with CPU phases between them, downloads y and checks
 * every word of it (small integers as floats, so the result is exact).
 * A CPU phase is a sleep: each tenant as if on a core of its own, as in
 * the seed (8 cores), where the guest has 2.  The seed's two settings:
 *
 *   serialized  one job at a time on the device (the seed's 1 vGPU per
 *               GPU, its baseline)
 *   shared      up to 4 jobs at once on the device (4 vGPUs, the seed's
 *               choice; 4 is also the hardware queues, so the contexts,
 *               of the default preset)
 *
 * and its two kinds of job: short ones, GPU-bound and small (two objects
 * of 1 MiB, CPU phases of a tenth of a GPU phase), and long ones whose
 * footprint is 60 % of the VRAM each (as the seed sized MM-L so that
 * tenants sharing a GPU conflict), with CPU phases as long as the GPU
 * phases (the seed's CPU fraction 1): shared, they only fit by evicting
 * the objects of tenants in a CPU phase (the driver's oversubscribed
 * VRAM, docs/driver.rst).  Offload (Figs. 10-11's third bar): the short
 * batch with up to 4 jobs on each of two devices, each job opening
 * SIMT_DEVICE_LEAST_LOADED, against the shared run on one device.
 *
 * Time is the makespan, as in the seed: guest CLOCK_MONOTONIC from the
 * first job's start to the last one's end.  The guest runs under TCG;
 * make bench gives the devices a clock slow enough (10 MHz) that the
 * device model keeps up with virtual time, so kernels and copies take
 * their modelled device time, and the sleeps their own; evictions are
 * CPU copies of the guest, at TCG's speed.  Figures, one line each:
 *
 *   bench seed003_gain_short: G %      (T_serialized - T_shared) /
 *   bench seed003_gain_long: G %        T_serialized, short and long jobs
 *   bench seed003_long_evictions: N count   evictions and restores of the
 *   bench seed003_long_restores: N count    long jobs' objects, shared
 *                                           (the jobs' fdinfo counters)
 *   bench seed003_offload_gain: G %    (T_one - T_two) / T_one, short jobs
 *                                      shared on one device or two
 *
 * The seed does not define its percentages; these use its baseline
 * (serialized; sharing on one GPU for offload) as the denominator, and
 * the comments give T_base / T_new - 1 as well.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/simt_accel.h>
#include "libsimt.h"
#include "simt-clock.h"

#define SAXPY_IMAGE "/lib/simt/kernels/saxpy.elf"
#define CHUNK (1u << 20)	/* bytes per upload or download copy */
#define MAX_JOBS 16
#define SLOTS 4			/* jobs at once on one device, shared */

/* A kind of job. */
struct kind {
	const char *name;
	uint64_t bytes;			/* per object; 0: 3/10 of the VRAM */
	unsigned int phases;		/* GPU phases */
	unsigned int launches;		/* saxpy launches per GPU phase */
	unsigned int cpu_ms;		/* each CPU phase, between GPU phases */
	unsigned int jobs;		/* in a batch */
};

static struct kind short_jobs = { "short", 1u << 20, 6, 2, 0, 8 };
static struct kind long_jobs = { "long", 0, 4, 2, 0, 4 };

/* What a job tells the parent when it ends. */
struct report {
	int ok;				/* every word of y right */
	int node;			/* N of the /dev/accel/accelN it ran on */
	long long evictions, restores;	/* of its objects (fdinfo) */
	double gpu_us;			/* its GPU phases, summed */
	double us;			/* the whole job */
};

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Each job's data: small integers, so every sum is exact. */
static float x_of(unsigned int job, uint32_t i)
{
	return (float)((i * 7u + job * 131u) % 1021u);
}

static float y0_of(unsigned int job, uint32_t i)
{
	return (float)((i * 13u + job * 977u) % 4093u);
}

static int check(simt_status st, const char *what)
{
	if (st)
		fprintf(stderr, "simt-share-bench: %s: %s (%s)\n", what, simt_error_string(st),
			simt_last_error());
	return st != SIMT_SUCCESS;
}

/* simt-evictions and simt-restores of this process's file on @node. */
static void fdinfo_moves(const char *node, struct report *r)
{
	char path[300], line[256];
	struct stat want, st;
	struct dirent *de;
	FILE *f = NULL;
	DIR *d;

	if (stat(node, &want) || !(d = opendir("/proc/self/fd")))
		return;
	while (!f && (de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		if (de->d_name[0] == '.' || stat(path, &st) || !S_ISCHR(st.st_mode) ||
		    st.st_rdev != want.st_rdev)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", de->d_name);
		f = fopen(path, "r");
	}
	closedir(d);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "simt-evictions: %lld", &r->evictions);
		sscanf(line, "simt-restores: %lld", &r->restores);
	}
	fclose(f);
}

/* Upload job @job's x or y (@is_y), @n floats, a CHUNK at a time through @buf. */
static int upload(simt_buffer *b, unsigned int job, int is_y, float *buf, uint32_t n)
{
	uint32_t at, i, m;

	for (at = 0; at < n; at += m) {
		m = n - at < CHUNK / 4 ? n - at : CHUNK / 4;
		for (i = 0; i < m; i++)
			buf[i] = is_y ? y0_of(job, at + i) : x_of(job, at + i);
		if (check(simt_memcpy_htod(b, (size_t)at * 4, buf, (size_t)m * 4), "upload"))
			return -1;
	}
	return 0;
}

/* Download y and check it after @rounds saxpy launches; 1 if right. */
static int download(simt_buffer *y, unsigned int job, unsigned int rounds, float *buf,
		    uint32_t n)
{
	uint32_t at, i, m;

	for (at = 0; at < n; at += m) {
		m = n - at < CHUNK / 4 ? n - at : CHUNK / 4;
		if (check(simt_memcpy_dtoh(buf, y, (size_t)at * 4, (size_t)m * 4), "download"))
			return 0;
		for (i = 0; i < m; i++) {
			float want = y0_of(job, at + i) + rounds * (0.5f * x_of(job, at + i));

			if (buf[i] != want) {
				fprintf(stderr, "simt-share-bench: job %u: y[%u] = %g, expected %g\n",
					job, at + i, buf[i], want);
				return 0;
			}
		}
	}
	return 1;
}

/*
 * One job, in its own process: @node is the device node to open (or
 * SIMT_DEVICE_LEAST_LOADED); one byte on @started once its context
 * exists, its report on @out at the end.
 */
static void job_main(const struct kind *k, unsigned int job, const char *node, int started,
		     int out)
{
	struct report r = { .node = -1 };
	struct simt_device_info info;
	simt_device *dev = NULL;
	simt_context *ctx = NULL;
	simt_module *mod;
	simt_kernel *saxpy;
	simt_buffer *x, *y;
	double t0 = now_us(), g;
	simt_status st;
	uint32_t n, args[4];
	unsigned int p, l, tries;
	float *buf = malloc(CHUNK);
	uint64_t bytes;

	/*
	 * Every context of the device in use (another batch's job still
	 * being torn down, or a least-loaded choice that lost a race): wait
	 * and try again, as the seed's waiting list does.
	 */
	for (tries = 0; ; tries++) {
		st = simt_device_open(node, &dev);
		if (!st)
			st = simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx);
		if (st != SIMT_ERROR_OUT_OF_RESOURCES || tries == 5000)
			break;
		simt_device_close(dev);
		usleep(2000);
	}
	if (check(st, "device and context") || !buf ||
	    check(simt_device_get_info(dev, &info), "info") ||
	    check(simt_module_load(ctx, SAXPY_IMAGE, &mod), "load") ||
	    check(simt_module_get_kernel(mod, "saxpy", &saxpy), "kernel"))
		exit(1);
	sscanf(info.node, "/dev/accel/accel%d", &r.node);
	if (write(started, "s", 1) != 1)
		exit(1);
	bytes = k->bytes ? k->bytes : info.vram_size * 3 / 10 & ~(uint64_t)4095;
	n = bytes / 4;
	if (check(simt_mem_alloc(ctx, bytes, &x), "x") ||
	    check(simt_mem_alloc(ctx, bytes, &y), "y") ||
	    upload(x, job, 0, buf, n) || upload(y, job, 1, buf, n))
		exit(1);
	args[0] = n;
	args[1] = fbits(0.5f);
	args[2] = simt_buffer_addr(x);
	args[3] = simt_buffer_addr(y);
	for (p = 0; p < k->phases; p++) {
		if (p)
			usleep(k->cpu_ms * 1000);
		g = now_us();
		for (l = 0; l < k->launches; l++)
			if (check(simt_launch(saxpy, (simt_dim3){ 64, 1, 1 },
					      (simt_dim3){ 256, 1, 1 }, 0, args, 4, NULL),
				  "launch"))
				exit(1);
		if (check(simt_context_synchronize(ctx), "GPU phase"))
			exit(1);
		r.gpu_us += now_us() - g;
	}
	r.ok = download(y, job, k->phases * k->launches, buf, n);
	fdinfo_moves(info.node, &r);
	simt_context_destroy(ctx);
	simt_device_close(dev);
	r.us = now_us() - t0;
	exit(write(out, &r, sizeof(r)) == sizeof(r) && r.ok ? 0 : 1);
}

/* A batch's outcome. */
struct batch {
	double makespan_us;
	double gpu_us, job_us;		/* per job, mean */
	long long evictions, restores;
	unsigned int on[2];		/* jobs per device (accel0, accel1) */
};

/*
 * Run @k's batch with at most @slots jobs at once, FCFS, each opening
 * @node; a job starts once the one before it has its context (so that a
 * least-loaded choice sees it).  0 if every job ran and checked its
 * results.
 */
static int run_batch(const struct kind *k, unsigned int slots, const char *node,
		     struct batch *b)
{
	int rfd[MAX_JOBS], status, bad = 0;
	pid_t pid[MAX_JOBS], w;
	unsigned int j, i, running = 0, ended = 0;
	double t0 = now_us();

	memset(b, 0, sizeof(*b));
	for (j = 0; j < k->jobs || ended < k->jobs; ) {
		if (j < k->jobs && running < slots) {
			int s[2], o[2];
			char c;

			if (pipe(s) || pipe(o)) {
				perror("simt-share-bench: pipe");
				return -1;
			}
			fflush(stdout);
			pid[j] = fork();
			if (pid[j] < 0) {
				perror("simt-share-bench: fork");
				return -1;
			}
			if (!pid[j]) {
				close(s[0]);
				close(o[0]);
				job_main(k, j, node, s[1], o[1]);
			}
			close(s[1]);
			close(o[1]);
			rfd[j] = o[0];
			if (read(s[0], &c, 1) != 1)
				bad = 1;	/* it failed before its context */
			close(s[0]);
			running++;
			j++;
			continue;
		}
		w = wait(&status);
		if (w < 0) {
			perror("simt-share-bench: wait");
			return -1;
		}
		for (i = 0; i < j && pid[i] != w; i++)
			;
		if (i == j)
			continue;
		running--;
		ended++;
		{
			struct report r;

			if (!WIFEXITED(status) || WEXITSTATUS(status) ||
			    read(rfd[i], &r, sizeof(r)) != sizeof(r) || !r.ok) {
				fprintf(stderr, "simt-share-bench: %s job %u failed\n", k->name, i);
				bad = 1;
			} else {
				b->gpu_us += r.gpu_us / k->jobs;
				b->job_us += r.us / k->jobs;
				b->evictions += r.evictions;
				b->restores += r.restores;
				if (r.node == 0 || r.node == 1)
					b->on[r.node]++;
			}
			close(rfd[i]);
		}
	}
	b->makespan_us = now_us() - t0;
	return bad ? -1 : 0;
}

static void show(const char *what, const struct kind *k, unsigned int slots,
		 const struct batch *b)
{
	printf("# %s: %u %s jobs, %u at once: makespan %.0f ms, per job %.0f ms "
	       "(GPU phases %.0f ms), %lld evictions, %lld restores, jobs on accel0/accel1 "
	       "%u/%u\n", what, k->jobs, k->name, slots, b->makespan_us / 1e3, b->job_us / 1e3,
	       b->gpu_us / 1e3, b->evictions, b->restores, b->on[0], b->on[1]);
}

/* (base - new) / base in %, and base / new - 1 in the comment. */
static void gain(const char *name, const char *what, double base, double new)
{
	printf("# %s: %.0f ms against %.0f ms; as base / new - 1: %.1f %%\n", what, new / 1e3,
	       base / 1e3, (base / new - 1) * 100);
	printf("bench %s: %.1f %%\n", name, (base - new) / base * 100);
}

int main(int argc, char **argv)
{
	struct batch ser, sh, lser, lsh, two, one;
	struct kind calib;
	struct simt_device_info info;
	simt_device *dev;
	uint64_t mhz = 0;
	int quick = argc > 1 && !strcmp(argv[1], "--quick");

	if (argc > 1 && !quick) {
		fprintf(stderr, "usage: simt-share-bench [--quick]\n");
		return 2;
	}
	if (check(simt_device_open("/dev/accel/accel0", &dev), "open") ||
	    check(simt_device_get_info(dev, &info), "info"))
		return 1;
	simt_device_get_param(dev, DRM_SIMT_PARAM_CLOCK_MHZ, &mhz);
	simt_device_close(dev);
	if (quick) {
		short_jobs.phases = long_jobs.phases = 2;
		short_jobs.jobs = long_jobs.jobs = 2;
	}
	/*
	 * CPU phases: short jobs a tenth of a GPU phase, long ones as long
	 * as one (CPU fraction 1), from the GPU phase of a job alone.
	 */
	calib = short_jobs;
	calib.jobs = 1;
	if (run_batch(&calib, 1, "/dev/accel/accel0", &one))
		return 1;
	short_jobs.cpu_ms = one.gpu_us / calib.phases / 10 / 1e3 + 0.5;
	calib = long_jobs;
	calib.jobs = 1;
	if (run_batch(&calib, 1, "/dev/accel/accel0", &one))
		return 1;
	long_jobs.cpu_ms = one.gpu_us / calib.phases / 1e3 + 0.5;
	printf("# seed 003 on %s: %llu MiB of VRAM, %llu MHz; CPU phases %u ms (short jobs), "
	       "%u ms (long jobs, %llu MiB each)\n", info.node,
	       (unsigned long long)info.vram_size >> 20, (unsigned long long)mhz,
	       short_jobs.cpu_ms, long_jobs.cpu_ms,
	       (unsigned long long)(info.vram_size * 3 / 10 & ~(uint64_t)4095) * 2 >> 20);
	if (run_batch(&short_jobs, 1, "/dev/accel/accel0", &ser) ||
	    run_batch(&short_jobs, SLOTS, "/dev/accel/accel0", &sh) ||
	    run_batch(&long_jobs, 1, "/dev/accel/accel0", &lser) ||
	    run_batch(&long_jobs, SLOTS, "/dev/accel/accel0", &lsh) ||
	    run_batch(&short_jobs, 2 * SLOTS, SIMT_DEVICE_LEAST_LOADED, &two))
		return 1;
	show("serialized", &short_jobs, 1, &ser);
	show("shared", &short_jobs, SLOTS, &sh);
	show("serialized", &long_jobs, 1, &lser);
	show("shared", &long_jobs, SLOTS, &lsh);
	show("two devices, least loaded", &short_jobs, 2 * SLOTS, &two);
	gain("seed003_gain_short", "short jobs shared against serialized", ser.makespan_us,
	     sh.makespan_us);
	gain("seed003_gain_long", "long jobs shared against serialized", lser.makespan_us,
	     lsh.makespan_us);
	printf("bench seed003_long_evictions: %lld count\n", lsh.evictions);
	printf("bench seed003_long_restores: %lld count\n", lsh.restores);
	gain("seed003_offload_gain", "short jobs shared on two devices against one",
	     sh.makespan_us, two.makespan_us);
	return 0;
}
