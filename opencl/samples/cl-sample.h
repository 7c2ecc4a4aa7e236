// SPDX-License-Identifier: MIT
//
// Helpers shared by the OpenCL samples: device selection, kernel source
// loading, building, error checking and the set-up the samples share.
// They are static inline, so that a sample using only some of them gets
// no unused-function warning.  Kernel source NAME.cl is looked for in the
// directory given as argv[1], else beside the executable.
#ifndef CL_SAMPLE_H
#define CL_SAMPLE_H

// readlink() and dirname() are POSIX, outside strict C11.
#define _DEFAULT_SOURCE

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Exits with the call's name and error code when err is not CL_SUCCESS.
#define CL_CHECK(call, err)                                              \
    do {                                                                 \
        if ((err) != CL_SUCCESS) {                                       \
            fprintf(stderr, "%s failed: error %d\n", (call), (int)(err)); \
            exit(1);                                                     \
        }                                                                \
    } while (0)

// First GPU or accelerator of the platform named $OPENCL_PLATFORM, or of
// any platform when it is unset; failing that, the first device of any
// type, so that a CPU implementation such as PoCL runs the samples too.
static inline cl_device_id sample_pick_device(void)
{
    static const cl_device_type types[] = {
        CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_ALL
    };
    const char *want = getenv("OPENCL_PLATFORM");
    cl_platform_id platforms[16];
    cl_uint nplat = 0;
    cl_int err = clGetPlatformIDs(16, platforms, &nplat);
    CL_CHECK("clGetPlatformIDs", err);
    if (nplat > 16)
        nplat = 16;
    for (unsigned t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
        for (cl_uint i = 0; i < nplat; i++) {
            char name[256];
            cl_device_id dev;
            err = clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME,
                                    sizeof(name), name, NULL);
            CL_CHECK("clGetPlatformInfo", err);
            if (want && strcmp(name, want) != 0)
                continue;
            err = clGetDeviceIDs(platforms[i], types[t], 1, &dev, NULL);
            if (err == CL_SUCCESS)
                return dev;
            if (err != CL_DEVICE_NOT_FOUND)
                CL_CHECK("clGetDeviceIDs", err);
        }
    }
    fprintf(stderr, "no OpenCL device%s%s\n",
            want ? " on platform " : "", want ? want : "");
    exit(1);
}

// Reads NAME.cl from argv[1] if given, else from the executable's directory.
static inline char *sample_load_source(int argc, char **argv, const char *name)
{
    char dir[PATH_MAX], path[PATH_MAX + 64];
    if (argc > 1) {
        snprintf(dir, sizeof(dir), "%s", argv[1]);
    } else {
        ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
        if (n < 0) {
            perror("readlink /proc/self/exe");
            exit(1);
        }
        dir[n] = '\0';
        // dirname() may return a pointer into dir: no copy onto itself.
        const char *d = dirname(dir);
        memmove(dir, d, strlen(d) + 1);
    }
    snprintf(path, sizeof(path), "%s/%s.cl", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *src = malloc((size_t)size + 1);
    if (!src || fread(src, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    src[size] = '\0';
    fclose(f);
    return src;
}

// Builds the program with the given options (e.g. "-DTILE=16"), printing
// the build log on failure.
static inline cl_program sample_build_options(cl_context ctx, cl_device_id dev,
                                              const char *src,
                                              const char *options)
{
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CL_CHECK("clCreateProgramWithSource", err);
    err = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t len = 0;
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = malloc(len + 1);
        if (log && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len,
                                         log, NULL) == CL_SUCCESS) {
            log[len] = '\0';
            fprintf(stderr, "%s\n", log);
        }
        free(log);
        CL_CHECK("clBuildProgram", err);
    }
    return prog;
}

// Builds the program, printing the build log on failure.
static inline cl_program sample_build(cl_context ctx, cl_device_id dev,
                                      const char *src)
{
    return sample_build_options(ctx, dev, src, "");
}

// What every sample but vecadd sets up the same way: the device, a
// context on it, one in-order queue and the program built from NAME.cl.
struct sample {
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
};

// queue_props is 0 or CL_QUEUE_PROFILING_ENABLE; options go to
// clBuildProgram.
static inline void sample_init(struct sample *s, int argc, char **argv,
                               const char *name,
                               cl_command_queue_properties queue_props,
                               const char *options)
{
    cl_int err;
    s->dev = sample_pick_device();
    s->ctx = clCreateContext(NULL, 1, &s->dev, NULL, NULL, &err);
    CL_CHECK("clCreateContext", err);
    s->q = clCreateCommandQueue(s->ctx, s->dev, queue_props, &err);
    CL_CHECK("clCreateCommandQueue", err);
    char *src = sample_load_source(argc, argv, name);
    s->prog = sample_build_options(s->ctx, s->dev, src, options);
    free(src);
}

// Waits for the queue, then releases what sample_init created.
static inline void sample_release(struct sample *s)
{
    cl_int err = clFinish(s->q);
    CL_CHECK("clFinish", err);
    clReleaseProgram(s->prog);
    clReleaseCommandQueue(s->q);
    clReleaseContext(s->ctx);
}

static inline cl_kernel sample_kernel(const struct sample *s, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(s->prog, name, &err);
    CL_CHECK("clCreateKernel", err);
    return k;
}

// host is copied in when flags include CL_MEM_COPY_HOST_PTR, else NULL.
static inline cl_mem sample_buffer(const struct sample *s, cl_mem_flags flags,
                                   size_t bytes, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(s->ctx, flags, bytes, host, &err);
    CL_CHECK("clCreateBuffer", err);
    return m;
}

// Sets argument i to size bytes at value (value NULL for a __local buffer
// of size bytes), naming the argument on failure.
static inline void sample_arg(cl_kernel k, cl_uint i, size_t size,
                              const void *value)
{
    cl_int err = clSetKernelArg(k, i, size, value);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clSetKernelArg %u failed: error %d\n", i, (int)err);
        exit(1);
    }
}

// Milliseconds from the start of first to the end of last, both complete
// commands of a queue created with CL_QUEUE_PROFILING_ENABLE.
static inline double sample_elapsed_ms(cl_event first, cl_event last)
{
    cl_ulong start, end;
    cl_int err = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START,
                                         sizeof(start), &start, NULL);
    CL_CHECK("clGetEventProfilingInfo", err);
    err = clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END,
                                  sizeof(end), &end, NULL);
    CL_CHECK("clGetEventProfilingInfo", err);
    return (double)(end - start) * 1e-6;
}

#endif
