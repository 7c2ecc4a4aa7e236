// SPDX-License-Identifier: MIT
//
// ITERS Jacobi steps of a 5-point stencil on a W x H grid, ping-ponging
// between two buffers, one launch per step; the second buffer gets the
// boundary by clEnqueueCopyBuffer.  The host does the same float
// operations in the same order, so the grids must agree bit for bit.  The
// launches are timed with profiling events.
#include "cl-sample.h"

#define W 64
#define H 64
#define ITERS 10
#define LOCAL 8

static void jacobi_host(const float *in, float *out)
{
    for (unsigned y = 1; y < H - 1; y++) {
        for (unsigned x = 1; x < W - 1; x++) {
            unsigned i = y * W + x;
            out[i] = 0.2f * (in[i] + in[i - W] + in[i + W] + in[i - 1] +
                             in[i + 1]);
        }
    }
}

int main(int argc, char **argv)
{
    static float grid[2][W * H], result[W * H];
    cl_uint w = W, h = H;
    size_t global[2] = { W, H }, local[2] = { LOCAL, LOCAL };
    cl_event ev[ITERS];
    struct sample s;
    cl_int err;

    // A hot top edge over pseudo-random interior values in [0, 1).
    cl_uint r = 2024;
    for (unsigned i = 0; i < W * H; i++) {
        r = r * 1664525u + 1013904223u;
        grid[0][i] = i < W ? 1.0f : (float)(r >> 8) / 16777216.0f;
    }
    memcpy(grid[1], grid[0], sizeof(grid[0]));

    sample_init(&s, argc, argv, "stencil", CL_QUEUE_PROFILING_ENABLE, "");
    cl_kernel k = sample_kernel(&s, "jacobi");
    cl_mem buf[2] = {
        sample_buffer(&s, CL_MEM_READ_WRITE, sizeof(grid[0]), NULL),
        sample_buffer(&s, CL_MEM_READ_WRITE, sizeof(grid[0]), NULL),
    };
    err = clEnqueueWriteBuffer(s.q, buf[0], CL_FALSE, 0, sizeof(grid[0]),
                               grid[0], 0, NULL, NULL);
    CL_CHECK("clEnqueueWriteBuffer", err);
    err = clEnqueueCopyBuffer(s.q, buf[0], buf[1], 0, 0, sizeof(grid[0]), 0,
                              NULL, NULL);
    CL_CHECK("clEnqueueCopyBuffer", err);
    sample_arg(k, 2, sizeof(cl_uint), &w);
    sample_arg(k, 3, sizeof(cl_uint), &h);
    for (unsigned it = 0; it < ITERS; it++) {
        // The queue is in order: each step sees the one before complete.
        sample_arg(k, 0, sizeof(cl_mem), &buf[it % 2]);
        sample_arg(k, 1, sizeof(cl_mem), &buf[(it + 1) % 2]);
        err = clEnqueueNDRangeKernel(s.q, k, 2, NULL, global, local, 0, NULL,
                                     &ev[it]);
        CL_CHECK("clEnqueueNDRangeKernel", err);
        jacobi_host(grid[it % 2], grid[(it + 1) % 2]);
    }
    err = clEnqueueReadBuffer(s.q, buf[ITERS % 2], CL_FALSE, 0,
                              sizeof(result), result, 0, NULL, NULL);
    CL_CHECK("clEnqueueReadBuffer", err);
    err = clFinish(s.q);
    CL_CHECK("clFinish", err);
    double ms = sample_elapsed_ms(ev[0], ev[ITERS - 1]);

    for (unsigned it = 0; it < ITERS; it++)
        clReleaseEvent(ev[it]);
    clReleaseMemObject(buf[0]);
    clReleaseMemObject(buf[1]);
    clReleaseKernel(k);
    sample_release(&s);

    const float *want = grid[ITERS % 2];
    unsigned bad = 0, first = 0;
    for (unsigned i = 0; i < W * H; i++) {
        if (memcmp(&result[i], &want[i], sizeof(float)) != 0 && bad++ == 0)
            first = i;
    }
    if (bad) {
        printf("stencil: FAILED (%u of %d points differ, first (%u, %u) = "
               "%.9g, want %.9g)\n", bad, W * H, first % W, first / W,
               (double)result[first], (double)want[first]);
        return 1;
    }
    printf("stencil: ok (%dx%d, %d steps bit-exact, kernels %.3f ms)\n", W, H,
           ITERS, ms);
    return 0;
}
