// SPDX-License-Identifier: MIT
//
// Priorities through OpenCL, with the simt platform's context properties
// (CL/cl_simt.h): a long kernel in a low-priority context that the device
// may preempt (switch), then a short one in a normal-priority context.
// The short one must end while the long one still runs, ahead of it in
// device time, and both results must be right: the long kernel's after
// being preempted.  Both priorities are open to any user.  On the warp
// interpreter (the host backend) launches run one after another when a
// call waits for or looks at them, so there only the results are
// checked.  Build with
// gcc -I<simt>/opencl/runtime priority.c -lOpenCL.
#include "cl-sample.h"

#include <CL/cl_simt.h>
#include <stdbool.h>

#define BUSY_ITEMS 2048
#define BUSY_ITERS 100000u
#define N 1024

struct tenant {
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
};

static void tenant_init(struct tenant *t, cl_device_id dev, const char *src,
                        cl_context_properties priority,
                        cl_context_properties preemption)
{
    cl_platform_id platform;
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof(platform),
                                 &platform, NULL);
    CL_CHECK("clGetDeviceInfo", err);
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
        CL_CONTEXT_PRIORITY_SIMT, priority,
        CL_CONTEXT_PREEMPTION_SIMT, preemption, 0 };
    t->ctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
    CL_CHECK("clCreateContext", err);
    t->q = clCreateCommandQueue(t->ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CL_CHECK("clCreateCommandQueue", err);
    t->prog = sample_build(t->ctx, dev, src);
}

static cl_int status_of(cl_event e)
{
    cl_int status;
    cl_int err = clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof(status), &status, NULL);
    CL_CHECK("clGetEventInfo", err);
    return status;
}

static cl_ulong end_of(cl_event e)
{
    cl_ulong end;
    cl_int err = clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END,
                                         sizeof(end), &end, NULL);
    CL_CHECK("clGetEventProfilingInfo", err);
    return end;
}

int main(int argc, char **argv)
{
    static cl_uint busy_out[BUSY_ITEMS];
    static float a[N], b[N], c[N];
    cl_uint iters = BUSY_ITERS;
    size_t busy_global = BUSY_ITEMS, busy_local = 64, global = N;
    cl_event busy_done, short_done;
    struct tenant low, normal;
    cl_int err;

    cl_device_id dev = sample_pick_device();
    char *src = sample_load_source(argc, argv, "priority");
    tenant_init(&low, dev, src, CL_PRIORITY_LOW_SIMT, CL_PREEMPTION_SWITCH_SIMT);
    tenant_init(&normal, dev, src, CL_PRIORITY_NORMAL_SIMT,
                CL_PREEMPTION_DEFAULT_SIMT);
    free(src);
    for (unsigned i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 0.25f * (float)i;
    }

    // The long kernel, given to the device at once (clFlush).
    cl_kernel busy = clCreateKernel(low.prog, "busy", &err);
    CL_CHECK("clCreateKernel", err);
    cl_mem out = clCreateBuffer(low.ctx, CL_MEM_WRITE_ONLY, sizeof(busy_out),
                                NULL, &err);
    CL_CHECK("clCreateBuffer", err);
    err = clSetKernelArg(busy, 0, sizeof(out), &out);
    err |= clSetKernelArg(busy, 1, sizeof(iters), &iters);
    CL_CHECK("clSetKernelArg", err);
    err = clEnqueueNDRangeKernel(low.q, busy, 1, NULL, &busy_global,
                                 &busy_local, 0, NULL, &busy_done);
    CL_CHECK("clEnqueueNDRangeKernel", err);
    err = clFlush(low.q);
    CL_CHECK("clFlush", err);

    // The short one, at normal priority, waited for.
    cl_kernel add = clCreateKernel(normal.prog, "vecadd", &err);
    CL_CHECK("clCreateKernel", err);
    cl_mem da = clCreateBuffer(normal.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               sizeof(a), a, &err);
    CL_CHECK("clCreateBuffer", err);
    cl_mem db = clCreateBuffer(normal.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               sizeof(b), b, &err);
    CL_CHECK("clCreateBuffer", err);
    cl_mem dc = clCreateBuffer(normal.ctx, CL_MEM_WRITE_ONLY, sizeof(c), NULL,
                               &err);
    CL_CHECK("clCreateBuffer", err);
    err = clSetKernelArg(add, 0, sizeof(da), &da);
    err |= clSetKernelArg(add, 1, sizeof(db), &db);
    err |= clSetKernelArg(add, 2, sizeof(dc), &dc);
    CL_CHECK("clSetKernelArg", err);
    cl_int busy_before = status_of(busy_done);
    err = clEnqueueNDRangeKernel(normal.q, add, 1, NULL, &global, NULL, 0,
                                 NULL, &short_done);
    CL_CHECK("clEnqueueNDRangeKernel", err);
    err = clWaitForEvents(1, &short_done);
    CL_CHECK("clWaitForEvents", err);
    cl_int busy_after = status_of(busy_done);
    err = clEnqueueReadBuffer(normal.q, dc, CL_TRUE, 0, sizeof(c), c, 0, NULL,
                              NULL);
    CL_CHECK("clEnqueueReadBuffer", err);

    err = clEnqueueReadBuffer(low.q, out, CL_TRUE, 0, sizeof(busy_out),
                              busy_out, 0, NULL, NULL);
    CL_CHECK("clEnqueueReadBuffer", err);
    unsigned bad = 0;
    for (unsigned i = 0; i < N; i++)
        bad += c[i] != a[i] + b[i];
    for (unsigned i = 0; i < BUSY_ITEMS; i++) {
        cl_uint x = i;
        for (cl_uint k = 0; k < BUSY_ITERS; k++)
            x = x * 1664525u + 1013904223u;
        bad += busy_out[i] != x;
    }
    cl_ulong busy_end = end_of(busy_done), short_end = end_of(short_done);

    clReleaseEvent(busy_done);
    clReleaseEvent(short_done);
    clReleaseMemObject(out);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(busy);
    clReleaseKernel(add);
    for (struct tenant *t = &low; t; t = t == &low ? &normal : NULL) {
        clReleaseProgram(t->prog);
        clReleaseCommandQueue(t->q);
        clReleaseContext(t->ctx);
    }

    char name[256];
    err = clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
    CL_CHECK("clGetDeviceInfo", err);
    if (strstr(name, "(warp interpreter)")) {
        printf("priority: %s (%u wrong results; on the warp interpreter "
               "launches run in turn, no order to check)\n", bad ? "FAILED" : "ok",
               bad);
        return bad != 0;
    }
    bool ahead = busy_before != CL_COMPLETE && busy_after != CL_COMPLETE &&
                 short_end < busy_end;
    if (bad || !ahead) {
        printf("priority: FAILED (%u wrong results; the short kernel ended "
               "at %.3f ms, the long one at %.3f ms, which was %s when the "
               "short one ended)\n", bad, (double)short_end * 1e-6,
               (double)busy_end * 1e-6,
               busy_after == CL_COMPLETE ? "complete" : "running");
        return 1;
    }
    printf("priority: ok (normal-priority kernel ended at %.3f ms of device "
           "time while the low-priority one ran on to %.3f ms; both results "
           "right)\n", (double)short_end * 1e-6, (double)busy_end * 1e-6);
    return 0;
}
