// SPDX-License-Identifier: MIT
//
// c = a + b on floats, twice: with clEnqueueWriteBuffer/ReadBuffer, and
// with CL_MEM_COPY_HOST_PTR inputs and a mapped output.  Build with
// gcc vecadd.c -lOpenCL; vecadd.cl is read beside the executable or from
// the directory given as argv[1].
#include "cl-sample.h"

#define N (64 * 1024)

static unsigned count_mismatches(const float *a, const float *b,
                                 const float *c)
{
    unsigned bad = 0;
    for (unsigned i = 0; i < N; i++) {
        float want = a[i] + b[i];
        if (memcmp(&want, &c[i], sizeof(float)) != 0)
            bad++;
    }
    return bad;
}

int main(int argc, char **argv)
{
    static float a[N], b[N], c[N];
    cl_int err;
    cl_uint n = N;
    size_t global = N, bytes = sizeof(a);

    for (unsigned i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1.0f / (float)(i + 1);
    }

    cl_device_id dev = sample_pick_device();
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CL_CHECK("clCreateContext", err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CL_CHECK("clCreateCommandQueue", err);
    char *src = sample_load_source(argc, argv, "vecadd");
    cl_program prog = sample_build(ctx, dev, src);
    cl_kernel k = clCreateKernel(prog, "vecadd", &err);
    CL_CHECK("clCreateKernel", err);

    // Pass 1: explicit writes and a blocking read.
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
    CL_CHECK("clCreateBuffer", err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
    CL_CHECK("clCreateBuffer", err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CL_CHECK("clCreateBuffer", err);
    err = clEnqueueWriteBuffer(q, da, CL_FALSE, 0, bytes, a, 0, NULL, NULL);
    CL_CHECK("clEnqueueWriteBuffer", err);
    err = clEnqueueWriteBuffer(q, db, CL_FALSE, 0, bytes, b, 0, NULL, NULL);
    CL_CHECK("clEnqueueWriteBuffer", err);
    err = clSetKernelArg(k, 0, sizeof(cl_mem), &da);
    err |= clSetKernelArg(k, 1, sizeof(cl_mem), &db);
    err |= clSetKernelArg(k, 2, sizeof(cl_mem), &dc);
    err |= clSetKernelArg(k, 3, sizeof(cl_uint), &n);
    CL_CHECK("clSetKernelArg", err);
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    CL_CHECK("clEnqueueNDRangeKernel", err);
    err = clEnqueueReadBuffer(q, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL);
    CL_CHECK("clEnqueueReadBuffer", err);
    unsigned bad_rw = count_mismatches(a, b, c);

    // Pass 2: inputs copied at creation, output read through a map.
    cl_mem ha = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               bytes, a, &err);
    CL_CHECK("clCreateBuffer", err);
    cl_mem hb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               bytes, b, &err);
    CL_CHECK("clCreateBuffer", err);
    err = clSetKernelArg(k, 0, sizeof(cl_mem), &ha);
    err |= clSetKernelArg(k, 1, sizeof(cl_mem), &hb);
    CL_CHECK("clSetKernelArg", err);
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    CL_CHECK("clEnqueueNDRangeKernel", err);
    float *mapped = clEnqueueMapBuffer(q, dc, CL_TRUE, CL_MAP_READ, 0, bytes,
                                       0, NULL, NULL, &err);
    CL_CHECK("clEnqueueMapBuffer", err);
    unsigned bad_map = count_mismatches(a, b, mapped);
    err = clEnqueueUnmapMemObject(q, dc, mapped, 0, NULL, NULL);
    CL_CHECK("clEnqueueUnmapMemObject", err);
    err = clFinish(q);
    CL_CHECK("clFinish", err);

    clReleaseMemObject(ha);
    clReleaseMemObject(hb);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(src);

    if (bad_rw || bad_map) {
        printf("vecadd: FAILED (%u read/write and %u mapped mismatches of %d)\n",
               bad_rw, bad_map, N);
        return 1;
    }
    printf("vecadd: ok (%d floats bit-exact, read/write and mapped)\n", N);
    return 0;
}
