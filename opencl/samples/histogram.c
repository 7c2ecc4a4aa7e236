// SPDX-License-Identifier: MIT
//
// 256-bin histogram of 64 KiB with __local then __global atomics, the
// __global bins zeroed by clEnqueueFillBuffer.  One byte in eight is the
// same value, so that many atomics hit one bin at once.
#include "cl-sample.h"

#define N (64 * 1024)
#define BINS 256
#define GLOBAL 4096
#define LOCAL 64

int main(int argc, char **argv)
{
    static unsigned char data[N];
    cl_uint bins[BINS], want[BINS] = { 0 }, n = N, zero = 0;
    size_t global = GLOBAL, local = LOCAL;
    struct sample s;
    cl_int err;

    // A fixed linear congruential generator: the same data on every run.
    cl_uint r = 12345;
    for (unsigned i = 0; i < N; i++) {
        r = r * 1664525u + 1013904223u;
        data[i] = i % 8 == 0 ? 0x2a : (unsigned char)(r >> 24);
        want[data[i]]++;
    }

    sample_init(&s, argc, argv, "histogram", 0, "");
    cl_kernel k = sample_kernel(&s, "histogram");
    cl_mem ddata = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 sizeof(data), data);
    cl_mem dbins = sample_buffer(&s, CL_MEM_READ_WRITE, sizeof(bins), NULL);
    err = clEnqueueFillBuffer(s.q, dbins, &zero, sizeof(zero), 0,
                              sizeof(bins), 0, NULL, NULL);
    CL_CHECK("clEnqueueFillBuffer", err);
    sample_arg(k, 0, sizeof(cl_mem), &ddata);
    sample_arg(k, 1, sizeof(cl_uint), &n);
    sample_arg(k, 2, sizeof(cl_mem), &dbins);
    err = clEnqueueNDRangeKernel(s.q, k, 1, NULL, &global, &local, 0, NULL,
                                 NULL);
    CL_CHECK("clEnqueueNDRangeKernel", err);
    err = clEnqueueReadBuffer(s.q, dbins, CL_TRUE, 0, sizeof(bins), bins, 0,
                              NULL, NULL);
    CL_CHECK("clEnqueueReadBuffer", err);

    clReleaseMemObject(ddata);
    clReleaseMemObject(dbins);
    clReleaseKernel(k);
    sample_release(&s);

    unsigned bad = 0, first = 0;
    for (unsigned b = 0; b < BINS; b++) {
        if (bins[b] != want[b] && bad++ == 0)
            first = b;
    }
    if (bad) {
        printf("histogram: FAILED (%u of %d bins wrong, first bin %u = %u, "
               "want %u)\n", bad, BINS, first, bins[first], want[first]);
        return 1;
    }
    printf("histogram: ok (%d bytes, %d bins, %d groups of %d, "
           "bin 0x2a = %u)\n", N, BINS, GLOBAL / LOCAL, LOCAL, bins[0x2a]);
    return 0;
}
