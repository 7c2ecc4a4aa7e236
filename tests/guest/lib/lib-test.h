/* SPDX-License-Identifier: MIT */
/*
 * lib-test.h: what the files of simt-lib-test share: the checks of
 * libsimt calls, the helpers of helpers.c and each file's groups for
 * main.c.
 */
#ifndef SIMT_LIB_TEST_H
#define SIMT_LIB_TEST_H

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/simt_accel.h>

#include "simt-elf.h"
#include "simt-internal.h"
#include "libsimt.h"
#include "harness.h"

#define KERNEL_DIR "/lib/simt/kernels"
#define SEC_NS 1000000000ll

/* A call that must return @want. */
#define EXPECT(call, want) do { \
	simt_status st_ = (call); \
	if (st_ != (want)) \
		FAIL("%s: %s (%d), expected %s (%d)", #call, \
		     simt_error_string(st_), st_, simt_error_string(want), want); \
} while (0)

/* A call that must succeed, or the group cannot go on. */
#define MUST(call) do { \
	simt_status st_ = (call); \
	if (st_) { \
		FAIL("%s: %s", #call, simt_error_string(st_)); \
		return; \
	} \
} while (0)

/* The words the ids kernel writes for each thread (check_ids()). */
#define IDS_WORDS 17

/*
 * What the driver says in fdinfo about this process's file of the device
 * @node: moves of its VRAM objects out of VRAM and back (simt-evictions,
 * simt-restores), the bytes of them in system memory now
 * (simt-evicted-vram) and in VRAM (drm-resident-vram), and their total
 * (drm-total-vram).  -1 for a key the driver does not print.
 */
struct vram_usage {
	long long evictions, restores, evicted, resident, total;
};

extern int hold;	/* "hold" after the node (main.c): see test_oversub_single */

/* helpers.c */
simt_dim3 dim(uint32_t x, uint32_t y, uint32_t z);
uint32_t fbits(float f);
int run(simt_kernel *k, simt_dim3 grid, simt_dim3 block, uint32_t dyn,
	const uint32_t *args, unsigned int nargs);
int finish(simt_context *ctx);
int check_u32(const char *what, const uint32_t *got, const uint32_t *want,
	      size_t n);
int check_floats(const char *what, const float *got, const float *want,
		 size_t n);
int high_allowed(const struct simt_device_info *info);
unsigned int user_contexts(simt_device *dev, const struct simt_device_info *info,
			   unsigned int max);
unsigned int file_contexts(simt_device *dev, const struct simt_device_info *info,
			   unsigned int max);
uint8_t pat(size_t i, unsigned int seed);
uint8_t *read_file(const char *path, size_t *size);
uint32_t check_ids(const uint32_t *ids, simt_dim3 g, simt_dim3 bl, uint32_t sm_count);
simt_kernel *load_kernel(simt_context *ctx, simt_module **m, const char *file,
			 const char *name);
simt_buffer *upload(simt_context *ctx, const void *data, size_t n);
int vram_usage(const char *node, struct vram_usage *u);

/* The group of printf.c */
void test_printf(void);

/* The groups of device.c */
void test_device(void);
void test_context(void);
void test_multi_device(void);

/* The groups of memory.c */
void test_memory(void);
void test_module(void);
void test_too_large(void);

/* The groups of launch.c */
void test_userq(void);
void test_launch(void);
void test_errors(void);
void test_metadata(void);

/* The groups of samples.c */
void test_samples(void);

/* The groups of threads.c */
void test_threads(void);
void test_timeout(void);

/* The groups of split.c */
void test_split_results(void);
void test_split_ids(void);
void test_split_auto(void);
void test_split_between(void);

/* The groups of oversub.c */
void test_oversub_tenants(void);
void test_oversub_single(void);

#endif /* SIMT_LIB_TEST_H */
