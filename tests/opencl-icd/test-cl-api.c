/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The simt OpenCL platform through the standard ICD loader: what a
 * program sees of the API beyond the samples, and the errors OpenCL 1.2
 * names.  TAP.  Run with OCL_ICD_VENDORS naming the build's vendors
 * directory; the platform is chosen by name ("simt").
 */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CL/cl_simt.h"
#include "../tap.h"

static cl_platform_id platform;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;

static const char kernels_src[] =
	"__kernel void fill(__global int *p, int v) {\n"
	"    p[get_global_id(0)] = v + (int)get_global_id(0);\n"
	"}\n"
	"__kernel void ids(__global uint *out) {\n"
	"    uint i = get_global_id(0) + get_global_id(1) * get_global_size(0);\n"
	"    out[4 * i] = get_local_size(0);\n"
	"    out[4 * i + 1] = get_num_groups(0);\n"
	"    out[4 * i + 2] = get_group_id(1);\n"
	"    out[4 * i + 3] = get_global_offset(0);\n"
	"}\n"
	"__kernel void scale(__global float *p, float s, __local float *tmp) {\n"
	"    uint l = get_local_id(0);\n"
	"    tmp[l] = p[get_global_id(0)] * s;\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"    p[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];\n"
	"}\n";

static cl_program build(const char *src, const char *options, cl_int *err)
{
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, err);

	if (*err)
		return NULL;
	*err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
	return p;
}

static char *build_log(cl_program p)
{
	size_t len = 0;
	char *log;

	clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
	log = calloc(1, len + 1);
	if (log)
		clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
	return log;
}

static bool find_platform(void)
{
	cl_platform_id ids[8];
	cl_uint n = 0;
	char name[64];

	if (clGetPlatformIDs(8, ids, &n))
		return false;
	for (cl_uint i = 0; i < n && i < 8; i++) {
		if (!clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name,
				       NULL) && !strcmp(name, "simt")) {
			platform = ids[i];
			return !clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &dev,
					       NULL);
		}
	}
	return false;
}

static void test_errors(cl_kernel fill, cl_mem buf)
{
	size_t gws = 64, lws = 48, big = (size_t)1 << 40;
	cl_mem bogus = (cl_mem)(uintptr_t)0x5a5a5a50;
	cl_int v = 1, err;
	cl_mem sub;
	cl_buffer_region region = { 100, 64 };

	tap_check(clEnqueueNDRangeKernel(q, fill, 1, NULL, &gws, &lws, 0, NULL,
					 NULL) == CL_INVALID_WORK_GROUP_SIZE,
		  "a local size that does not divide the global one is "
		  "CL_INVALID_WORK_GROUP_SIZE");
	tap_check(clEnqueueNDRangeKernel(q, fill, 4, NULL, &gws, NULL, 0, NULL,
					 NULL) == CL_INVALID_WORK_DIMENSION,
		  "work_dim 4 is CL_INVALID_WORK_DIMENSION");
	tap_check(clSetKernelArg(fill, 2, sizeof(v), &v) == CL_INVALID_ARG_INDEX,
		  "argument 2 of a two-argument kernel is CL_INVALID_ARG_INDEX");
	tap_check(clSetKernelArg(fill, 1, 2, &v) == CL_INVALID_ARG_SIZE,
		  "an int argument of 2 bytes is CL_INVALID_ARG_SIZE");
	tap_check(clSetKernelArg(fill, 0, sizeof(cl_mem), &bogus) ==
		  CL_INVALID_MEM_OBJECT,
		  "a pointer argument that is not a cl_mem is CL_INVALID_MEM_OBJECT");
	tap_check(clCreateBuffer(ctx, CL_MEM_READ_WRITE, big, NULL, &err) == NULL &&
		  err == CL_INVALID_BUFFER_SIZE,
		  "a buffer larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE is "
		  "CL_INVALID_BUFFER_SIZE");
	tap_check(clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64,
				 NULL, &err) == NULL && err == CL_INVALID_VALUE,
		  "READ_ONLY with WRITE_ONLY is CL_INVALID_VALUE");
	sub = clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &region,
				&err);
	tap_check(!sub && err == CL_MISALIGNED_SUB_BUFFER_OFFSET,
		  "a sub-buffer at origin 100 is CL_MISALIGNED_SUB_BUFFER_OFFSET");
	tap_check(clEnqueueCopyBuffer(q, buf, buf, 0, 32, 64, 0, NULL, NULL) ==
		  CL_MEM_COPY_OVERLAP,
		  "a copy within one buffer whose ranges overlap is "
		  "CL_MEM_COPY_OVERLAP");
	tap_check(clEnqueueReadBuffer(q, buf, CL_TRUE, 4000, 200, &v, 0, NULL,
				      NULL) == CL_INVALID_VALUE,
		  "a read past the buffer's end is CL_INVALID_VALUE");
}

static void test_launch(cl_program p)
{
	enum { N = 256 };
	cl_int err, v = 1000, got[N], bad = 0;
	cl_kernel fill = clCreateKernel(p, "fill", &err);
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
	size_t gws = N, wg = 0;
	cl_event ev;
	cl_ulong t[4] = { 0 };

	tap_check(fill && buf, "clCreateKernel(fill) and a 4 KiB buffer");
	if (!fill || !buf)
		return;
	tap_check(clEnqueueNDRangeKernel(q, fill, 1, NULL, &gws, NULL, 0, NULL,
					 NULL) == CL_INVALID_KERNEL_ARGS,
		  "a launch before the arguments are set is CL_INVALID_KERNEL_ARGS");
	clSetKernelArg(fill, 0, sizeof(buf), &buf);
	clSetKernelArg(fill, 1, sizeof(v), &v);
	err = clEnqueueNDRangeKernel(q, fill, 1, NULL, &gws, NULL, 0, NULL, &ev);
	/* The arguments are the launch's from the enqueue on. */
	v = -1;
	clSetKernelArg(fill, 1, sizeof(v), &v);
	err |= clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(got), got, 0, NULL,
				   NULL);
	for (int i = 0; i < N; i++)
		bad += got[i] != 1000 + i;
	tap_check(!err && !bad, "fill with no local size: 256 ints right, with the "
		  "argument value of the enqueue, not the later one (%d wrong)", bad);
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, 8, &t[0], NULL);
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT, 8, &t[1], NULL);
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t[2], NULL);
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t[3], NULL);
	tap_check(t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3],
		  "profiling: queued <= submit <= start < end in device ns "
		  "(%llu %llu %llu %llu)", (unsigned long long)t[0],
		  (unsigned long long)t[1], (unsigned long long)t[2],
		  (unsigned long long)t[3]);
	clReleaseEvent(ev);
	clGetKernelWorkGroupInfo(fill, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg),
				 &wg, NULL);
	tap_check(wg >= 32 && wg <= 1024, "CL_KERNEL_WORK_GROUP_SIZE %zu", wg);
	test_errors(fill, buf);
	clReleaseKernel(fill);
	clReleaseMemObject(buf);
}

/* Ids in a 2-D launch with a global offset: what the work-items see. */
static void test_ids(cl_program p)
{
	enum { W = 16, H = 4 };
	cl_uint out[W * H * 4];
	cl_int err;
	cl_kernel k = clCreateKernel(p, "ids", &err);
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(out), NULL,
				    &err);
	size_t gws[2] = { W, H }, lws[2] = { 8, 2 }, off[2] = { 0, 0 };
	int bad = 0;

	clSetKernelArg(k, 0, sizeof(buf), &buf);
	err = clEnqueueNDRangeKernel(q, k, 2, off, gws, lws, 0, NULL, NULL);
	err |= clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL,
				   NULL);
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			cl_uint *o = &out[4 * (y * W + x)];

			bad += o[0] != 8 || o[1] != 2 || o[2] != (cl_uint)y / 2 ||
			       o[3] != 0;
		}
	}
	tap_check(!err && !bad, "2-D 16 x 4 in 8 x 2 groups: local size, number "
		  "of groups and group ids (%d wrong)", bad);
	clReleaseKernel(k);
	clReleaseMemObject(buf);
}

static void test_local_arg(cl_program p)
{
	enum { N = 128, L = 32 };
	float data[N], got[N], s = 2.0f;
	cl_int err;
	cl_kernel k = clCreateKernel(p, "scale", &err);
	cl_mem buf;
	size_t gws = N, lws = L;
	cl_ulong local = 0;
	int bad = 0;

	for (int i = 0; i < N; i++)
		data[i] = (float)i;
	buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			     sizeof(data), data, &err);
	clSetKernelArg(k, 0, sizeof(buf), &buf);
	clSetKernelArg(k, 1, sizeof(s), &s);
	tap_check(clSetKernelArg(k, 2, L * sizeof(float), &s) ==
		  CL_INVALID_ARG_VALUE, "a __local argument with a value is "
		  "CL_INVALID_ARG_VALUE");
	clSetKernelArg(k, 2, L * sizeof(float), NULL);
	clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local),
				 &local, NULL);
	err = clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL);
	err |= clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(got), got, 0, NULL,
				   NULL);
	for (int i = 0; i < N; i++) {
		int g = i / L * L, l = i % L;

		bad += got[i] != 2.0f * (float)(g + L - 1 - l);
	}
	tap_check(!err && !bad && local == L * sizeof(float),
		  "a __local float* argument sized by clSetKernelArg: groups "
		  "reversed through it (%d wrong, local mem %llu)", bad,
		  (unsigned long long)local);
	clReleaseKernel(k);
	clReleaseMemObject(buf);
}

/* A command behind a user event waits; setting the event lets it run. */
static void test_user_event(void)
{
	cl_int err, status = 0, v = 7, got = 0;
	cl_event user = clCreateUserEvent(ctx, &err), write;
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);

	err = clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 1, &user,
				   &write);
	clGetEventInfo(write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
		       &status, NULL);
	tap_check(!err && status == CL_QUEUED,
		  "a write behind an unset user event stays CL_QUEUED (%d)", status);
	clSetUserEventStatus(user, CL_COMPLETE);
	clWaitForEvents(1, &write);
	clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(got), &got, 0, NULL, NULL);
	clGetEventInfo(write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
		       &status, NULL);
	tap_check(status == CL_COMPLETE && got == 7,
		  "after clSetUserEventStatus(CL_COMPLETE) it runs (status %d, "
		  "value %d)", status, got);
	tap_check(clSetUserEventStatus(user, CL_COMPLETE) == CL_INVALID_OPERATION,
		  "a user event is set once only");
	clReleaseEvent(write);
	clReleaseEvent(user);

	user = clCreateUserEvent(ctx, &err);
	clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 1, &user, &write);
	clSetUserEventStatus(user, -5);
	clGetEventInfo(write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
		       &status, NULL);
	tap_check(status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
		  "behind a user event set to an error the command fails with "
		  "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (%d)", status);
	clReleaseEvent(write);
	clReleaseEvent(user);
	clReleaseMemObject(buf);
}

static void test_buffers(void)
{
	enum { N = 1024 };
	static cl_uchar a[N], b[N], rect[8 * 8];
	cl_int err, bad = 0;
	cl_uint pattern = 0xa5a5a5a5u, words[N / 4];
	cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
	cl_mem m2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
	cl_buffer_region region = { 256, 128 };
	cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &region,
				       &err);
	size_t bo[3] = { 2, 3, 0 }, ho[3] = { 0, 0, 0 }, reg[3] = { 4, 5, 1 };
	cl_uchar *map;
	size_t off = 0;

	for (int i = 0; i < N; i++)
		a[i] = (cl_uchar)(i * 7);
	err = clEnqueueWriteBuffer(q, m, CL_TRUE, 0, N, a, 0, NULL, NULL);
	err |= clEnqueueCopyBuffer(q, m, m2, 0, 0, N, 0, NULL, NULL);
	err |= clEnqueueReadBuffer(q, m2, CL_TRUE, 0, N, b, 0, NULL, NULL);
	tap_check(!err && !memcmp(a, b, N), "write, copy buffer to buffer, read");

	err = clEnqueueReadBuffer(q, sub, CL_TRUE, 0, 128, b, 0, NULL, NULL);
	clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof(off), &off, NULL);
	tap_check(!err && !memcmp(a + 256, b, 128) && off == 256,
		  "a sub-buffer at 256 reads its parent's bytes 256..383");

	err = clEnqueueFillBuffer(q, m2, &pattern, 4, 64, 512, 0, NULL, NULL);
	err |= clEnqueueReadBuffer(q, m2, CL_TRUE, 0, sizeof(words), words, 0,
				   NULL, NULL);
	for (int i = 0; i < N / 4; i++)
		bad += words[i] != (i >= 16 && i < 144 ? pattern :
				    (cl_uint)a[4 * i] | (cl_uint)a[4 * i + 1] << 8 |
				    (cl_uint)a[4 * i + 2] << 16 |
				    (cl_uint)a[4 * i + 3] << 24);
	tap_check(!err && !bad, "fill of 512 bytes at 64 with a 4-byte pattern, "
		  "the rest untouched (%d words wrong)", bad);

	/* Rows of 16 bytes in the buffer; the host's rectangle is packed. */
	err = clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, reg, 16, 0, 0, 0,
				      rect, 0, NULL, NULL);
	bad = 0;
	for (int y = 0; y < 5; y++) {
		for (int x = 0; x < 4; x++)
			bad += rect[y * 4 + x] != a[(3 + y) * 16 + 2 + x];
	}
	tap_check(!err && !bad, "a 4 x 5 rectangle at (2, 3) of 16-byte rows "
		  "read into packed rows (%d wrong)", bad);

	map = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 512,
				 64, 0, NULL, NULL, &err);
	tap_check(map && !err && !memcmp(map, a + 512, 64),
		  "a map for reading shows the buffer's bytes");
	if (map) {
		memset(map, 0x5c, 64);
		clEnqueueUnmapMemObject(q, m, map, 0, NULL, NULL);
	}
	err = clEnqueueReadBuffer(q, m, CL_TRUE, 512, 64, b, 0, NULL, NULL);
	bad = 0;
	for (int i = 0; i < 64; i++)
		bad += b[i] != 0x5c;
	tap_check(!err && !bad, "what was written through the map is in the "
		  "buffer after the unmap");
	clReleaseMemObject(sub);
	clReleaseMemObject(m);
	clReleaseMemObject(m2);
}

static void test_build(void)
{
	static const char bad_src[] =
		"__kernel void k(__global double *p) {\n"
		"    p[0] = 1.0;\n"
		"}\n";
	static const char def_src[] =
		"__kernel void k(__global int *p) { p[0] = VALUE; }\n";
	cl_int err, got = 0;
	cl_program p = build(bad_src, "", &err);
	cl_build_status status = CL_BUILD_NONE;
	char *log = p ? build_log(p) : NULL;
	cl_kernel k;
	cl_mem buf;

	clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof(status),
			      &status, NULL);
	tap_check(err == CL_BUILD_PROGRAM_FAILURE && status == CL_BUILD_ERROR &&
		  log && strstr(log, "program.cl:1:") && strstr(log, "double"),
		  "a kernel with double: CL_BUILD_PROGRAM_FAILURE, and the log "
		  "names the file, line 1, and double");
	if (log && !strstr(log, "program.cl:1:"))
		tap_diag("%s", log);
	free(log);
	clReleaseProgram(p);

	p = build(def_src, "-DVALUE=41 -cl-mad-enable", &err);
	tap_check(!err, "-D in the build options, with an OpenCL hint option");
	k = clCreateKernel(p, "k", &err);
	buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
	clSetKernelArg(k, 0, sizeof(buf), &buf);
	clEnqueueTask(q, k, 0, NULL, NULL);
	clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(got), &got, 0, NULL, NULL);
	tap_check(got == 41, "the -D value reaches the kernel (%d)", got);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseMemObject(buf);

	p = build(def_src, "-fno-such-option", &err);
	tap_check(err == CL_INVALID_BUILD_OPTIONS,
		  "an option OpenCL does not have is CL_INVALID_BUILD_OPTIONS");
	clReleaseProgram(p);
}

/*
 * Two programs in one context are linked at addresses of their own, and
 * a binary goes from one context to another.
 */
static void test_programs(cl_program first)
{
	static const char src[] =
		"__kernel void twice(__global int *p) { p[get_global_id(0)] *= 2; }\n";
	cl_int err, v[4] = { 1, 2, 3, 4 };
	cl_program second = build(src, "", &err), copy;
	cl_kernel k = clCreateKernel(second, "twice", &err);
	cl_kernel f = clCreateKernel(first, "fill", &err);
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				    sizeof(v), v, &err);
	size_t gws = 4, size = 0;
	unsigned char *bin;
	cl_context ctx2;
	cl_command_queue q2;
	cl_int zero = 0;

	tap_check(second && k && f, "a second program in the same context builds");
	clSetKernelArg(k, 0, sizeof(buf), &buf);
	clSetKernelArg(f, 0, sizeof(buf), &buf);
	clSetKernelArg(f, 1, sizeof(zero), &zero);
	err = clEnqueueNDRangeKernel(q, f, 1, NULL, &gws, NULL, 0, NULL, NULL);
	err |= clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, NULL, 0, NULL, NULL);
	err |= clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(v), v, 0, NULL, NULL);
	tap_check(!err && v[0] == 0 && v[3] == 6,
		  "kernels of both run in turn (0 2 4 6: %d %d %d %d)", v[0], v[1],
		  v[2], v[3]);

	clGetProgramInfo(second, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size,
			 NULL);
	bin = malloc(size);
	clGetProgramInfo(second, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL);
	ctx2 = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	q2 = clCreateCommandQueue(ctx2, dev, 0, &err);
	copy = clCreateProgramWithBinary(ctx2, 1, &dev, &size,
					 (const unsigned char **)&bin, NULL, &err);
	err |= clBuildProgram(copy, 1, &dev, "", NULL, NULL);
	clReleaseKernel(k);
	k = clCreateKernel(copy, "twice", &err);
	clReleaseMemObject(buf);
	buf = clCreateBuffer(ctx2, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			     sizeof(v), v, &err);
	clSetKernelArg(k, 0, sizeof(buf), &buf);
	err |= clEnqueueNDRangeKernel(q2, k, 1, NULL, &gws, NULL, 0, NULL, NULL);
	err |= clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof(v), v, 0, NULL,
				   NULL);
	tap_check(!err && v[3] == 12, "its binary (%zu bytes) builds and runs in "
		  "another context (v[3] %d)", size, v[3]);
	free(bin);
	clReleaseKernel(k);
	clReleaseKernel(f);
	clReleaseMemObject(buf);
	clReleaseProgram(copy);
	clReleaseProgram(second);
	clReleaseCommandQueue(q2);
	clReleaseContext(ctx2);
}

static void CL_CALLBACK count_completion(cl_event e, cl_int status, void *data)
{
	(void)e;
	if (status == CL_COMPLETE)
		(*(int *)data)++;
}

/* Markers, callbacks, a program's kernels, and a buffer no longer alive. */
static void test_objects(cl_program p)
{
	cl_kernel ks[4];
	cl_uint nk = 0;
	char names[128] = "";
	cl_int err, v = 3, calls = 0;
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
	size_t gws = 64;
	cl_event launch, marker;
	cl_int status = 1;

	err = clCreateKernelsInProgram(p, 4, ks, &nk);
	clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, NULL);
	tap_check(!err && nk == 3 && !strcmp(names, "fill;ids;scale"),
		  "clCreateKernelsInProgram gives the 3 kernels; KERNEL_NAMES '%s'",
		  names);
	clSetKernelArg(ks[0], 0, sizeof(buf), &buf);
	clSetKernelArg(ks[0], 1, sizeof(v), &v);
	clEnqueueNDRangeKernel(q, ks[0], 1, NULL, &gws, NULL, 0, NULL, &launch);
	clSetEventCallback(launch, CL_COMPLETE, count_completion, &calls);
	clEnqueueMarkerWithWaitList(q, 0, NULL, &marker);
	clWaitForEvents(1, &marker);
	clGetEventInfo(launch, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
		       &status, NULL);
	tap_check(status == CL_COMPLETE && calls == 1,
		  "a marker ends after the launch before it, whose CL_COMPLETE "
		  "callback ran once (status %d, %d calls)", status, calls);
	clReleaseEvent(launch);
	clReleaseEvent(marker);
	/*
	 * A released buffer as an argument: the loader reads only the
	 * kernel's dispatch pointer, the runtime must see the buffer is gone.
	 */
	clSetKernelArg(ks[0], 0, sizeof(cl_mem), &(cl_mem){ NULL });
	clReleaseMemObject(buf);
	tap_check(clSetKernelArg(ks[0], 0, sizeof(buf), &buf) ==
		  CL_INVALID_MEM_OBJECT,
		  "a released buffer as a kernel argument is CL_INVALID_MEM_OBJECT");
	for (cl_uint i = 0; i < nk; i++)
		clReleaseKernel(ks[i]);
}

static void test_priority(void)
{
	cl_context_properties props[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
		CL_CONTEXT_PRIORITY_SIMT, CL_PRIORITY_LOW_SIMT,
		CL_CONTEXT_PREEMPTION_SIMT, CL_PREEMPTION_SWITCH_SIMT, 0 };
	cl_context_properties bad[] = { CL_CONTEXT_PRIORITY_SIMT, 9, 0 };
	cl_context_properties got[8] = { 0 };
	cl_int err;
	cl_context c = clCreateContext(props, 1, &dev, NULL, NULL, &err);

	clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof(got), got, NULL);
	tap_check(c && !err && got[3] == CL_PRIORITY_LOW_SIMT &&
		  got[5] == CL_PREEMPTION_SWITCH_SIMT,
		  "a context at low priority with switch preemption "
		  "(cl_simt.h's properties)");
	clReleaseContext(c);
	tap_check(!clCreateContext(bad, 1, &dev, NULL, NULL, &err) &&
		  err == CL_INVALID_PROPERTY,
		  "priority 9 is CL_INVALID_PROPERTY");
}

int main(void)
{
	cl_int err;
	cl_program p;

	if (!tap_check(find_platform(), "the ICD loader finds the simt platform "
		       "and its GPU device")) {
		printf("Bail out! no simt platform (OCL_ICD_VENDORS?)\n");
		return tap_done();
	}
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
	p = build(kernels_src, NULL, &err);
	if (!tap_check(!err, "a program of three kernels builds")) {
		char *log = build_log(p);

		tap_diag("%s", log ? log : "");
		free(log);
		return tap_done();
	}
	test_launch(p);
	test_ids(p);
	test_local_arg(p);
	test_user_event();
	test_buffers();
	test_build();
	test_programs(p);
	test_objects(p);
	test_priority();
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return tap_done();
}
