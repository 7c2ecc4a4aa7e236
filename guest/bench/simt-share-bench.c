// SPDX-License-Identifier: MIT
/*
 * simt-share-bench: seed 003's multi-tenancy experiments (Becchi et al.,
 * HPDC 2012, Figs. 7, 10 and 11) on simt devices, from inside the guest
 * through libsimt.  Run by `make bench` (bench/guest-bench.sh boots a
 * guest with four devices and simtguest.bench=share).
 *
 *   simt-share-bench [--quick]
 *
 * Four devices stand for the seed's GPUs: accel0-2 are a group of three
 * (its 3-GPU node) and accel3 a group of one (its 1-GPU node).  A job is
 * a process of its own (a tenant): it opens its device, allocates two
 * objects x and y, uploads them (copies by the copy engines), runs GPU
 * phases of saxpy launches (y = 0.5 x + y over all of y), each followed
 * by a compute kernel, with CPU phases between them,
 * downloads y and checks every word of it (small integers as floats, so
 * the result is exact).  A CPU phase is a sleep: each
 * tenant as if on a core of its own, as in the seed (8 cores), where the
 * guest has 2.  The dispatcher is this program: FCFS per group, each job
 * on the device of its group running the fewest jobs (the seed's
 * round-robin with balanced vGPUs), at most
 *
 *   serialized  1 job per device (the seed's 1 vGPU per GPU, its
 *               baseline)
 *   shared      4 jobs per device (4 vGPUs, the seed's choice)
 *
 * The kinds of job, as the seed's:
 *
 *   short  GPU-bound and small: two objects of 1 MiB, 6 GPU phases whose
 *          compute (dep_gmem, below) makes them GPU_OVER_REST times the
 *          rest of the job alone (its setup and copies), CPU phases of a
 *          tenth of a GPU phase (Fig. 10's Rodinia and SDK programs,
 *          GPU-intensive)
 *   MM-L   memory-heavy: two objects of 3/16 of the VRAM each, so a job
 *          holds 3/8 of it; two jobs fit in one device's VRAM (with the
 *          page tables, kernel images and save areas of four contexts),
 *          three do not: as the seed sized MM-L, "more than two MM-L
 *          jobs on one GPU conflict".  3 GPU phases and 2 CPU phases
 *          between them that add up to F times the GPU phases alone (F
 *          the CPU fraction: CPU time over GPU time).  A GPU phase is a
 *          saxpy over the objects and the compute of the seed's matrix
 *          products: dep_gmem (kernels/timing.c) with a one-warp block
 *          in every block slot of every SM, so that the device is the
 *          job's alone, each chasing dependent loads for COMPUTE_OVER_MOVE
 *          times the job's upload time (a matrix product has far more
 *          work than data; the kernel's is cheap to interpret).
 *          Shared, MM-L jobs only fit by evicting the objects of
 *          tenants in a CPU phase (the driver's oversubscribed VRAM,
 *          docs/driver.rst), which the driver moves with the device's
 *          copy engines at the device's copy bandwidth (PCIe-like,
 *          docs/specs/simt.rst)
 *   BS-L   long and GPU-bound, small: an MM-L job with objects of 1 MiB
 *          and no CPU phases
 *
 * The experiments, as the seed ran them:
 *
 *   Fig. 10  32 short jobs split evenly between the two groups (TORQUE,
 *            which does not see GPUs, splits jobs evenly between the
 *            seed's two compute nodes): serialized, shared, and shared
 *            with offload (a job that finds its group full goes to the
 *            other group's least loaded device if it has room, as the
 *            seed's overloaded node forwards its excess connections)
 *   Fig. 11  16 long jobs, BS-L and MM-L at 25/75 (CPU fraction 1),
 *            split evenly between the groups: serialized and shared
 *   Fig. 7   16 MM-L jobs on the four devices as one group (the seed: 36
 *            on one 3-GPU node), CPU fraction 0, 0.5, 1, 1.5 and 2, the
 *            GPU work the same: serialized and shared
 *
 * The seed ran 16-48 jobs; 16 and 32 here keep make bench's run within
 * minutes (every kernel is interpreted).  Time is the makespan, as in
 * the seed: guest CLOCK_MONOTONIC from the first job's start to the last
 * one's end.  The guest runs on the device's virtual clock (docs/guest.rst,
 * "One clock") and make bench clocks the devices at 10 MHz, so the
 * guest's work (submitting, filling and checking buffers) is small next
 * to the jobs' kernels and copies, and every figure is the same in every
 * run.  A job's GPU phases alone are measured first.  Figures, one line
 * each:
 *
 *   bench seed003_gain_short: G %       (T_serialized - T_shared) /
 *   bench seed003_gain_long: G %         T_serialized, Figs. 10 and 11
 *   bench seed003_long_evictions: N count   evictions and restores of
 *   bench seed003_long_restores: N count    Fig. 11's shared jobs' objects
 *                                           (the jobs' fdinfo counters)
 *   bench seed003_offload_gain: G %     (T_shared - T_offload) / T_shared,
 *                                       Fig. 10's short jobs
 *   bench seed003_offload_balance_gain: G %   the same from the jobs of
 *                                       the busiest device alone (1 -
 *                                       its jobs with offload over
 *                                       without): what balance gives
 *   bench seed003_gain_long_cpuF: G %   Fig. 7, F = 0, 05 (0.5), 1, 15
 *                                       (1.5), 2: no dots in bench names
 *   bench seed003_evictions_cpuF: N count   the seed's swap counts
 *   bench seed003_move_over_gpu_phase: R ratio   an MM-L job's objects
 *                                       moved once by the copy engines
 *                                       (its upload) over one GPU phase
 *                                       alone: what one swap costs
 *   bench seed003_short_gpu_share: S %  a short job's GPU phases over the
 *   bench seed003_mml_gpu_share: S %    whole job, alone; an MM-L job's
 *                                       (CPU fraction 0)
 *
 * The seed does not define its percentages; these use its baseline
 * (serialized; sharing without offload for offload) as the denominator,
 * and the comments give T_base / T_new - 1 as well.  --quick runs
 * batches of 8 jobs and one CPU fraction, to try the program out.
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

/* saxpy and dep_gmem (kernels/timing.c), among others */
#define IMAGE "/lib/simt/kernels/samples.elf"
#define LOAD_CYCLES 380		/* a dependent load of dep_gmem, about */
#define COMPUTE_OVER_MOVE 2	/* an MM-L GPU phase over its upload */
#define GPU_OVER_REST 3		/* a short job's GPU phases over the rest */
#define CHUNK (1u << 20)	/* bytes per upload or download copy */
#define DEVICES 4
#define MAX_JOBS 48
#define SLOTS 4			/* jobs at once on one device, shared */

/* The groups of devices a job may be sent to. */
enum group { GROUP_THREE, GROUP_ONE, GROUP_ALL, GROUPS };

static const unsigned int group_first[GROUPS] = { 0, 3, 0 };
static const unsigned int group_count[GROUPS] = { 3, 1, 4 };

/* A kind of job. */
struct kind {
	const char *name;
	uint64_t bytes;			/* per object; 0: 3/16 of the VRAM */
	unsigned int phases;		/* GPU phases */
	unsigned int launches;		/* saxpy launches per GPU phase */
	unsigned int loads;		/* then dependent loads of dep_gmem */
	unsigned int cpu_ms;		/* each CPU phase, between GPU phases */
};

static struct kind short_job = { "short", 1u << 20, 6, 2, 0, 0 };
/* The loads of every kind are set in main(). */
static struct kind mml_job = { "MM-L", 0, 3, 1, 0, 0 };
static struct kind bsl_job = { "BS-L", 1u << 20, 3, 1, 0, 0 };

/* A batch: each job's kind and group, and how many run per device. */
struct batch {
	const char *what;
	unsigned int jobs, slots;
	int offload;			/* a job may go to the other group */
	const struct kind *kind[MAX_JOBS];
	enum group group[MAX_JOBS];
};

/* What a job tells the parent when it ends. */
struct report {
	int ok;				/* every word of y right */
	long long evictions, restores;	/* of its objects (fdinfo) */
	double gpu_us;			/* its GPU phases, summed */
	double copy_us;			/* its upload's copies alone */
	double us;			/* the whole job */
};

/* A batch's outcome. */
struct result {
	double makespan_us;
	double gpu_us, job_us;		/* per job, mean */
	double copy_us;			/* per job, mean */
	long long evictions, restores;
	unsigned int on[DEVICES];	/* jobs per device */
	unsigned int offloaded;		/* jobs run in the other group */
};

static uint64_t vram_size;

static uint64_t object_bytes(const struct kind *k)
{
	return k->bytes ? k->bytes : vram_size * 3 / 16 & ~(uint64_t)4095;
}

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

/*
 * Upload job @job's x or y (@is_y), @n floats, a CHUNK at a time through
 * @buf; the copies' time is added to *@copy_us.
 */
static int upload(simt_buffer *b, unsigned int job, int is_y, float *buf, uint32_t n,
		  double *copy_us)
{
	uint32_t at, i, m;
	double t;

	for (at = 0; at < n; at += m) {
		m = n - at < CHUNK / 4 ? n - at : CHUNK / 4;
		for (i = 0; i < m; i++)
			buf[i] = is_y ? y0_of(job, at + i) : x_of(job, at + i);
		t = now_us();
		if (check(simt_memcpy_htod(b, (size_t)at * 4, buf, (size_t)m * 4), "upload"))
			return -1;
		*copy_us += now_us() - t;
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
 * One job, in its own process, on device node @node: one byte on
 * @started once its context exists, its report on @out at the end.
 */
static void job_main(const struct kind *k, unsigned int job, const char *node, int started,
		     int out)
{
	struct report r = { 0 };
	simt_device *dev = NULL;
	simt_context *ctx = NULL;
	simt_module *mod;
	simt_kernel *saxpy, *dep_gmem = NULL;
	simt_buffer *x, *y, *scratch = NULL;
	struct simt_device_info info;
	double t0 = now_us(), g;
	simt_status st;
	uint32_t n, args[4], chase[4];
	unsigned int p, l, tries;
	float *buf = malloc(CHUNK);
	uint64_t bytes = object_bytes(k);

	/*
	 * Every context of the device in use (the job before on it still
	 * being torn down): wait and try again, as the seed's waiting list
	 * does.
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
	    check(simt_module_load(ctx, IMAGE, &mod), "load") ||
	    check(simt_module_get_kernel(mod, "saxpy", &saxpy), "kernel"))
		exit(1);
	if (k->loads &&
	    (check(simt_module_get_kernel(mod, "dep_gmem", &dep_gmem), "kernel") ||
	     check(simt_mem_alloc(ctx, 4096, &scratch), "scratch")))
		exit(1);
	if (write(started, "s", 1) != 1)
		exit(1);
	n = bytes / 4;
	if (check(simt_mem_alloc(ctx, bytes, &x), "x") ||
	    check(simt_mem_alloc(ctx, bytes, &y), "y") ||
	    upload(x, job, 0, buf, n, &r.copy_us) || upload(y, job, 1, buf, n, &r.copy_us))
		exit(1);
	args[0] = n;
	args[1] = fbits(0.5f);
	args[2] = simt_buffer_addr(x);
	args[3] = simt_buffer_addr(y);
	/* dep_gmem: a ring of 64 words in the scratch object, results before it. */
	chase[0] = scratch ? simt_buffer_addr(scratch) : 0;
	chase[1] = chase[0] + 256;
	chase[2] = 64;
	chase[3] = k->loads;
	for (p = 0; p < k->phases; p++) {
		if (p)
			usleep(k->cpu_ms * 1000);
		g = now_us();
		for (l = 0; l < k->launches; l++)
			if (check(simt_launch(saxpy, (simt_dim3){ 64, 1, 1 },
					      (simt_dim3){ 256, 1, 1 }, 0, args, 4, NULL),
				  "launch"))
				exit(1);
		/*
		 * The phase's compute (MM-L's matrix products): a one-warp
		 * block in every block slot of every SM, each chasing
		 * dependent loads, so that the device is the job's alone for
		 * that long (no other kernel's block fits) at little cost
		 * to interpret.
		 */
		if (dep_gmem &&
		    check(simt_launch(dep_gmem, (simt_dim3){ info.sm_count * info.sm_blocks, 1, 1 },
				      (simt_dim3){ 32, 1, 1 }, 0, chase, 4, NULL), "launch"))
			exit(1);
		if (check(simt_context_synchronize(ctx), "GPU phase"))
			exit(1);
		r.gpu_us += now_us() - g;
	}
	r.ok = download(y, job, k->phases * k->launches, buf, n);
	fdinfo_moves(node, &r);
	simt_context_destroy(ctx);
	simt_device_close(dev);
	r.us = now_us() - t0;
	exit(write(out, &r, sizeof(r)) == sizeof(r) && r.ok ? 0 : 1);
}

/* The device of @g with the fewest of @load below @slots; -1 if none. */
static int least_loaded(enum group g, const unsigned int *load, unsigned int slots)
{
	unsigned int d;
	int best = -1;

	for (d = group_first[g]; d < group_first[g] + group_count[g]; d++)
		if (load[d] < slots && (best < 0 || load[d] < load[best]))
			best = d;
	return best;
}

/* Start job @j of @b on device @d; its pid and report pipe. */
static int start_job(const struct batch *b, unsigned int j, int d, pid_t *pid, int *rfd)
{
	char node[32], c;
	int s[2], o[2], ok;

	snprintf(node, sizeof(node), "/dev/accel/accel%d", d);
	if (pipe(s) || pipe(o)) {
		perror("simt-share-bench: pipe");
		return -1;
	}
	fflush(stdout);
	*pid = fork();
	if (*pid < 0) {
		perror("simt-share-bench: fork");
		return -1;
	}
	if (!*pid) {
		close(s[0]);
		close(o[0]);
		job_main(b->kind[j], j, node, s[1], o[1]);
	}
	close(s[1]);
	close(o[1]);
	*rfd = o[0];
	/* The next job starts once this one has its context. */
	ok = read(s[0], &c, 1) == 1;
	close(s[0]);
	return ok ? 0 : -1;
}

/*
 * Run batch @b: FCFS in each group, each job on its group's least loaded
 * device with room, or with offload on the other group's if its own has
 * none.  0 if every job ran and checked its results.
 */
static int run_batch(const struct batch *b, struct result *res)
{
	unsigned int load[DEVICES] = { 0 }, next[GROUPS] = { 0 };
	int rfd[MAX_JOBS], dev_of[MAX_JOBS], status, bad = 0, d;
	unsigned int j, ended = 0, started;
	pid_t pid[MAX_JOBS], w;
	double t0 = now_us();
	enum group g;

	memset(res, 0, sizeof(*res));
	memset(pid, 0, sizeof(pid));
	while (ended < b->jobs) {
		/* Start what can start, the head of each group's queue in turn. */
		do {
			started = 0;
			for (g = 0; g < GROUPS; g++) {
				while (next[g] < b->jobs && b->group[next[g]] != g)
					next[g]++;
				if (next[g] == b->jobs)
					continue;
				j = next[g];
				d = least_loaded(g, load, b->slots);
				if (d < 0 && b->offload && g != GROUP_ALL) {
					d = least_loaded(g == GROUP_ONE ? GROUP_THREE : GROUP_ONE,
							 load, b->slots);
					if (d >= 0)
						res->offloaded++;
				}
				if (d < 0)
					continue;
				if (start_job(b, j, d, &pid[j], &rfd[j]))
					bad = 1;	/* it failed before its context */
				dev_of[j] = d;
				load[d]++;
				next[g]++;
				started = 1;
			}
		} while (started);

		w = wait(&status);
		if (w < 0) {
			perror("simt-share-bench: wait");
			return -1;
		}
		for (j = 0; j < b->jobs && pid[j] != w; j++)
			;
		if (j == b->jobs)
			continue;
		load[dev_of[j]]--;
		ended++;
		{
			struct report r;

			if (!WIFEXITED(status) || WEXITSTATUS(status) ||
			    read(rfd[j], &r, sizeof(r)) != sizeof(r) || !r.ok) {
				fprintf(stderr, "simt-share-bench: %s: %s job %u failed\n",
					b->what, b->kind[j]->name, j);
				bad = 1;
			} else {
				res->gpu_us += r.gpu_us / b->jobs;
				res->job_us += r.us / b->jobs;
				res->copy_us += r.copy_us / b->jobs;
				res->evictions += r.evictions;
				res->restores += r.restores;
				res->on[dev_of[j]]++;
			}
			close(rfd[j]);
		}
	}
	res->makespan_us = now_us() - t0;
	printf("# %s: %u jobs, %u per device at most%s: makespan %.1f ms, per job %.1f ms "
	       "(GPU phases %.1f ms), %lld evictions, %lld restores, jobs on accel0-3 "
	       "%u/%u/%u/%u, %u offloaded\n", b->what, b->jobs, b->slots,
	       b->offload ? ", offload" : "", res->makespan_us / 1e3, res->job_us / 1e3,
	       res->gpu_us / 1e3, res->evictions, res->restores, res->on[0], res->on[1],
	       res->on[2], res->on[3], res->offloaded);
	return bad ? -1 : 0;
}

/* The most jobs any device ran in @r. */
static unsigned int most_jobs(const struct result *r)
{
	unsigned int d, most = 0;

	for (d = 0; d < DEVICES; d++)
		if (r->on[d] > most)
			most = r->on[d];
	return most;
}

/* (base - new) / base in %, and base / new - 1 in the comment. */
static void gain(const char *name, const char *what, double base, double new)
{
	printf("# %s: %.1f ms against %.1f ms; as base / new - 1: %.1f %%\n", what, new / 1e3,
	       base / 1e3, (base / new - 1) * 100);
	printf("bench %s: %.1f %%\n", name, (base - new) / base * 100);
}

/*
 * A batch of @jobs of kind @k: split evenly between the group of three
 * and the group of one (@split), or all in the group of all four.
 */
static void fill(struct batch *b, const char *what, unsigned int jobs, const struct kind *k,
		 int split)
{
	unsigned int j;

	memset(b, 0, sizeof(*b));
	b->what = what;
	b->jobs = jobs;
	for (j = 0; j < jobs; j++) {
		b->kind[j] = k;
		b->group[j] = !split ? GROUP_ALL : j % 2 ? GROUP_ONE : GROUP_THREE;
	}
}

/* Serialized and shared runs of @b; 0 and their makespans, or -1. */
static int ser_shared(struct batch *b, struct result *ser, struct result *sh)
{
	b->slots = 1;
	if (run_batch(b, ser))
		return -1;
	b->slots = SLOTS;
	return run_batch(b, sh);
}

/*
 * An MM-L CPU phase for the CPU fraction @tenths / 10, the job's GPU
 * phases being @gpu_phase_us each: the seed's fraction is CPU time over
 * GPU time, and a job has one CPU phase fewer than GPU phases.
 */
static unsigned int cpu_phase_ms(double gpu_phase_us, unsigned int tenths)
{
	return gpu_phase_us * tenths / 10 * mml_job.phases / (mml_job.phases - 1) / 1e3 + 0.5;
}

/* One job of @k alone on accel0; -1 if it failed. */
static int alone(const struct kind *k, struct result *res)
{
	struct batch b;

	fill(&b, "alone", 1, k, 0);
	b.slots = 1;
	return run_batch(&b, res);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;	/* in bench names */
		unsigned int tenths;	/* the CPU fraction F, in tenths */
	} fractions[] = { { "0", 0 }, { "05", 5 }, { "1", 10 }, { "15", 15 }, { "2", 20 } };
	struct result ser, sh, off, one;
	struct simt_device_info info;
	struct batch b;
	simt_device *dev;
	uint64_t mhz = 0;
	double mml_gpu_phase, short_gpu;
	char name[64];
	unsigned int f, j, short_jobs = 32, long_jobs = 16, nfrac = 5;
	int quick = argc > 1 && !strcmp(argv[1], "--quick");

	if (argc > 1 && !quick) {
		fprintf(stderr, "usage: simt-share-bench [--quick]\n");
		return 2;
	}
	for (j = 0; j < DEVICES; j++) {
		snprintf(name, sizeof(name), "/dev/accel/accel%u", j);
		if (check(simt_device_open(name, &dev), name) ||
		    check(simt_device_get_info(dev, &info), "info"))
			return 1;
		if (!j)
			simt_device_get_param(dev, DRM_SIMT_PARAM_CLOCK_MHZ, &mhz);
		simt_device_close(dev);
		if (j && info.vram_size != vram_size) {
			fprintf(stderr, "simt-share-bench: the devices' VRAM sizes differ\n");
			return 1;
		}
		vram_size = info.vram_size;
	}
	if (quick) {
		short_jobs = long_jobs = 8;
		nfrac = 1;
	}

	/*
	 * CPU phases from the GPU phase of a job alone; MM-L's compute from
	 * the time its objects take to move one way (its upload).
	 */
	if (alone(&short_job, &one))
		return 1;
	short_job.loads = (one.job_us - one.gpu_us) * GPU_OVER_REST / short_job.phases * mhz /
			  LOAD_CYCLES;
	if (alone(&short_job, &one))
		return 1;
	short_gpu = one.gpu_us / one.job_us;
	short_job.cpu_ms = one.gpu_us / short_job.phases / 10 / 1e3 + 0.5;
	if (alone(&mml_job, &one))
		return 1;
	mml_job.loads = one.copy_us * mhz * COMPUTE_OVER_MOVE / LOAD_CYCLES;
	bsl_job.loads = mml_job.loads;
	if (alone(&mml_job, &one))
		return 1;
	mml_gpu_phase = one.gpu_us / mml_job.phases;
	printf("# seed 003 on %u devices (accel0-2 a group of three, accel3 of one): %llu MiB "
	       "of VRAM each, %llu MHz; short jobs: CPU phases %u ms; MM-L jobs: %llu MiB "
	       "each, GPU phase alone %.1f ms (%u dependent loads a thread), its objects "
	       "uploaded in %.1f ms\n", DEVICES, (unsigned long long)vram_size >> 20,
	       (unsigned long long)mhz, short_job.cpu_ms,
	       (unsigned long long)object_bytes(&mml_job) * 2 >> 20, mml_gpu_phase / 1e3,
	       mml_job.loads, one.copy_us / 1e3);
	printf("bench seed003_move_over_gpu_phase: %.2f ratio\n", one.copy_us / mml_gpu_phase);
	printf("bench seed003_short_gpu_share: %.1f %%\n", short_gpu * 100);
	printf("bench seed003_mml_gpu_share: %.1f %%\n", one.gpu_us / one.job_us * 100);

	/* Fig. 10: short jobs, split evenly between the groups. */
	fill(&b, "Fig. 10, short", short_jobs, &short_job, 1);
	if (ser_shared(&b, &ser, &sh))
		return 1;
	b.offload = 1;
	if (run_batch(&b, &off))
		return 1;
	gain("seed003_gain_short", "short jobs shared against serialized", ser.makespan_us,
	     sh.makespan_us);
	gain("seed003_offload_gain", "short jobs shared with offload against without",
	     sh.makespan_us, off.makespan_us);
	printf("bench seed003_offload_balance_gain: %.1f %%\n",
	       (1 - (double)most_jobs(&off) / most_jobs(&sh)) * 100);

	/* Fig. 11: long jobs, BS-L and MM-L at 25/75, CPU fraction 1. */
	mml_job.cpu_ms = cpu_phase_ms(mml_gpu_phase, 10);
	fill(&b, "Fig. 11, long", long_jobs, &mml_job, 1);
	for (j = 0; j < long_jobs; j += 4)
		b.kind[j] = &bsl_job;
	if (ser_shared(&b, &ser, &sh))
		return 1;
	gain("seed003_gain_long", "long jobs shared against serialized", ser.makespan_us,
	     sh.makespan_us);
	printf("bench seed003_long_evictions: %lld count\n", sh.evictions);
	printf("bench seed003_long_restores: %lld count\n", sh.restores);

	/* Fig. 7: MM-L jobs on all four devices, the CPU fraction swept. */
	for (f = 0; f < nfrac; f++) {
		char what[64];

		mml_job.cpu_ms = cpu_phase_ms(mml_gpu_phase, fractions[f].tenths);
		snprintf(what, sizeof(what), "Fig. 7, MM-L, CPU fraction %.1f",
			 fractions[f].tenths / 10.0);
		fill(&b, what, long_jobs, &mml_job, 0);
		if (ser_shared(&b, &ser, &sh))
			return 1;
		snprintf(name, sizeof(name), "seed003_gain_long_cpu%s", fractions[f].name);
		gain(name, what, ser.makespan_us, sh.makespan_us);
		printf("bench seed003_evictions_cpu%s: %lld count\n", fractions[f].name,
		       sh.evictions);
	}
	return 0;
}
