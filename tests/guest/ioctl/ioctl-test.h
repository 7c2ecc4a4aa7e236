/* SPDX-License-Identifier: MIT */
/*
 * ioctl-test.h: what the files of simt-ioctl-test share: the ioctl
 * wrappers and checks (helpers.c), the kernel images in VRAM (struct
 * kimg) and the LAUNCH command built from one, the spin job of the
 * tests of interface 0.3, and each file's groups for main.c.
 */
#ifndef SIMT_IOCTL_TEST_H
#define SIMT_IOCTL_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/sync_file.h>

#include <drm/drm.h>
#include <drm/simt_accel.h>

#include "simt-elf.h"
#include "harness.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SEC_NS 1000000000ll

/* An ioctl that must fail with errno @err (0: must succeed). */
#define EXPECT(req, arg, err) do { \
	int r_ = xioctl(fd, req, arg); \
	if (r_ != -(err)) \
		FAIL("%s(%s): got %d (%s), expected %d (%s)", #req, \
		     #arg, r_, strerror(-r_), -(err), strerror(err)); \
} while (0)

/* The simt module's parameters, as text without the newline. */
#define PARAM_DIR "/sys/module/simt/parameters/"

/*
 * The driver's counters (debugfs stats).  queue_stops (per-queue hang
 * recoveries) came with interface 0.3: stats_read() leaves it at -1 when
 * the driver has no such line, and the tests that need it check it.
 */
enum { ST_SUBMISSIONS, ST_COMPLETIONS, ST_ERRORS, ST_TIMEOUTS, ST_RESETS,
       ST_BYTES, ST_KERNELS, ST_CYCLES, ST_QUEUE_STOPS, ST_FAIR_HOLDS, ST_NR };
#define ST_REQUIRED ST_QUEUE_STOPS	/* the counters every version has */

/* Where the initramfs has the kernel images. */
#define KERNEL_DIR "/lib/simt/kernels"

/* A kernel image loaded into VRAM at its link address (kimg_load()). */
struct kimg {
	struct simt_image img;
	uint32_t code;		/* VRAM object holding the image */
	uint32_t ctx;		/* the context it is bound in */
};

/* spin (kernels/spin.c) from samples.elf in a context, with its output. */
/*
 * A launch of spin (spin_setup()) or of spin_held (spin_held_setup()),
 * whose gate is the two words after the outputs in the same object.
 */
struct spinjob {
	struct kimg ki;
	struct drm_simt_cmd cmd;
	uint32_t ctx, hout, out, hl, n, iters, blocks;
	uint32_t *m;
	volatile uint32_t *gate;	/* spin_held's, or NULL */
	int loaded;
};

/* What SYNC_IOC_FILE_INFO says of a fence (fence_names()). */
struct fence_names {
	char obj[32], driver[32];
	int status;
};

/* helpers.c: ioctls on the node, objects, contexts, submissions, fences */
extern int fd;		/* the open node the helpers use (use_fd()) */

int xioctl(int f, unsigned long req, void *arg);
int open_node(void);
uint64_t get_param(uint32_t param);
int bo_create(uint64_t size, uint32_t flags, uint32_t *handle);
uint32_t bo_new(uint64_t size, uint32_t flags);
void bo_close(uint32_t handle);
struct drm_simt_bo_info bo_info(uint32_t handle);
uint8_t *bo_map(uint32_t handle, uint64_t size);
uint32_t ctx_new(uint32_t prio);
int ctx_destroy(uint32_t id);
uint64_t bind(uint32_t ctx, uint32_t handle);
struct drm_simt_cmd copy_cmd(uint32_t src, uint64_t soff, uint32_t dst,
			     uint64_t doff, uint64_t size);
int submit(uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n,
	   uint64_t *seqno);
int wait_seq(uint32_t ctx, uint64_t seqno, int64_t timeout_ns,
	     struct drm_simt_wait *w);
int submit_sync(uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n,
		uint32_t syncobj, uint64_t *seqno);
uint32_t syncobj_new(void);
void syncobj_free(uint32_t h);
int syncobj_wait(uint32_t h, int64_t timeout_ns);
int syncobj_status(uint32_t h);
int sync_file_status(int sf);
int sync_file_poll(int sf, int ms);
int wait_on(int f, uint32_t ctx, uint64_t seqno, int64_t timeout_ns,
	    struct drm_simt_wait *w);
int use_fd(int f);

/* Module parameters, capabilities, debugfs, sysfs and fdinfo */
int mod_param_get(const char *name, char *buf, size_t len);
int mod_param_set(const char *name, const char *value);
int caps_set(uint64_t caps);
char *read_text(const char *path);
const char *debugfs_file(const char *name);
int stats_read(long long st[ST_NR]);
void stats_expect(const char *what, const long long before[ST_NR],
		  const long long delta[ST_NR]);
int debugfs_ctx_count(const char *column, unsigned long value);

/* Runs and their data */
uint64_t run(uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n);
uint8_t pat(uint64_t i, unsigned int seed);
void fill(uint8_t *p, uint64_t size, unsigned int seed);
int same(const char *what, const uint8_t *got, const uint8_t *want,
	 uint64_t size);
int ctx_create_on(int f, uint32_t prio, uint32_t *id);

/* Kernel images, their launches, the spin job of the tests of 0.3 */
int popcount32(uint32_t x);
uint32_t live_upload(const struct simt_image *img, const char *name,
		     uint32_t ctx, struct drm_simt_cmd *cmd);
uint32_t image_bo(const struct simt_image *img, uint32_t ctx, uint32_t flags);
int kimg_load(struct kimg *ki, const char *file, uint32_t ctx);
void kimg_free(struct kimg *ki);
struct drm_simt_cmd launch_cmd(const struct simt_image *img,
			       const struct simt_kernel_info *k,
			       const uint32_t grid[3], const uint32_t block[3],
			       const uint32_t args[8], uint32_t local_base);
int kimg_cmd(struct kimg *ki, uint32_t ctx, const char *name,
	     const uint32_t grid[3], const uint32_t block[3],
	     const uint32_t args[8], struct drm_simt_cmd *cmd,
	     uint32_t *local);
int kimg_run(struct kimg *ki, uint32_t ctx, const char *name,
	     const uint32_t grid[3], const uint32_t block[3],
	     const uint32_t args[8]);
void *vbuf(uint32_t ctx, uint64_t bytes, uint32_t *handle,
	   uint32_t *addr);
uint32_t spin_ref(uint32_t i, uint32_t iters);
int spin_setup(struct spinjob *j, uint32_t ctx, uint32_t blocks,
	       uint32_t threads, uint32_t iters);
int spin_held_setup(struct spinjob *j, uint32_t ctx, uint32_t blocks,
		    uint32_t threads, uint32_t iters);
int spin_resident(struct spinjob *j, uint32_t blocks);
void spin_release(struct spinjob *j);
struct simt_cmd_launch;
void hw_launch(const struct drm_simt_cmd *cmd, struct simt_cmd_launch *c);
uint32_t spin_wrong(const struct spinjob *j, uint32_t step);
void spin_free(struct spinjob *j, int ctx_alive);
int submit_x(int f, uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n,
	     uint32_t flags, const struct drm_simt_sync *in, uint32_t nin,
	     uint32_t syncobj, uint64_t point, uint64_t *seqno, int *fence_fd);
int test_set_timeout(const char *ms);
void test_restore_timeout(void);
int fdinfo_get(int f, const char *key, char *val, size_t len);
long long fdinfo_num(int f, const char *key, const char *unit);
int fence_names(int sf, struct fence_names *n);
int sysfs_write(const char *path, const char *text);

/* The groups of memory.c */
void test_bo(void);
void test_bind(void);
void test_copy(void);
void test_evict(void);
void test_evict_bytes(void);

/* The groups of contexts.c */
void test_ctx(void);
void test_prio(void);
void test_savearea(void);
void test_close(void);
void test_fdinfo(void);

/* The groups of submit.c */
void test_submit_bad(void);
void test_fault(void);
void test_syncobj(void);
void test_infence(void);
void test_signal(void);

/* The groups of launch.c */
void test_launch(void);
void test_samples(void);
void test_sysmem(void);
void test_launch64(void);

/* The groups of recovery.c */
void test_hang(void);
void test_progress(void);
void test_hang2(void);
void test_bystander(void);

/* The groups of sched.c */
void test_multi(void);
void test_responsive(void);
void test_fair(void);
void test_light(void);

/* The groups of lifecycle.c */
void test_hold(void);
void test_threads(void);
void test_destroy_races(void);
void test_watchdog_destroy(void);
void test_syncfile_outlives(void);
void test_grid_overflow(void);
void test_seqno(void);
void test_unplug_mapped(void);
void test_hotunplug_hold(void);
void test_fence_fd_nomem(void);

/* The groups of userq.c */
void test_userq(void);
void test_userq_errors(void);
void test_userq_destroy(void);
void test_userq_hang(void);
void test_userq_retract(void);
void test_user_contexts(void);
void test_fair_userq(void);

#endif /* SIMT_IOCTL_TEST_H */
