// SPDX-License-Identifier: MIT
//
// Tiled matrix multiply on a 2-D NDRange with an explicit TILE x TILE
// local size, timed with a profiling event.  The inputs are small
// integers, so every partial sum is exact and the result must equal the
// host's bit for bit whatever the order of the additions.
#include "cl-sample.h"

#define TILE 16
// Different sizes, all multiples of TILE, so that a swapped index shows.
#define M 64
#define N 48
#define K 80

int main(int argc, char **argv)
{
    static float a[M * K], b[K * N], c[M * N], want[M * N];
    cl_uint n = N, k = K;
    size_t global[2] = { N, M }, local[2] = { TILE, TILE };
    char options[32];
    struct sample s;
    cl_event ev;
    cl_int err;

    // Values in -4..4: |sums| stay below 2^24, where floats are integers.
    for (unsigned i = 0; i < M * K; i++)
        a[i] = (float)((int)(i * 7 % 9) - 4);
    for (unsigned i = 0; i < K * N; i++)
        b[i] = (float)((int)(i * 5 % 9) - 4);
    for (unsigned r = 0; r < M; r++) {
        for (unsigned col = 0; col < N; col++) {
            float sum = 0.0f;
            for (unsigned i = 0; i < K; i++)
                sum += a[r * K + i] * b[i * N + col];
            want[r * N + col] = sum;
        }
    }

    snprintf(options, sizeof(options), "-DTILE=%d", TILE);
    sample_init(&s, argc, argv, "matmul", CL_QUEUE_PROFILING_ENABLE, options);
    cl_kernel kern = sample_kernel(&s, "matmul");
    cl_mem da = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              sizeof(a), a);
    cl_mem db = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              sizeof(b), b);
    cl_mem dc = sample_buffer(&s, CL_MEM_WRITE_ONLY, sizeof(c), NULL);
    sample_arg(kern, 0, sizeof(cl_mem), &da);
    sample_arg(kern, 1, sizeof(cl_mem), &db);
    sample_arg(kern, 2, sizeof(cl_mem), &dc);
    sample_arg(kern, 3, sizeof(cl_uint), &n);
    sample_arg(kern, 4, sizeof(cl_uint), &k);
    err = clEnqueueNDRangeKernel(s.q, kern, 2, NULL, global, local, 0, NULL,
                                 &ev);
    CL_CHECK("clEnqueueNDRangeKernel", err);
    // Profiling information is only valid once the command is complete.
    err = clWaitForEvents(1, &ev);
    CL_CHECK("clWaitForEvents", err);
    double ms = sample_elapsed_ms(ev, ev);
    err = clEnqueueReadBuffer(s.q, dc, CL_TRUE, 0, sizeof(c), c, 0, NULL,
                              NULL);
    CL_CHECK("clEnqueueReadBuffer", err);

    unsigned bad = 0, first = 0;
    for (unsigned i = 0; i < M * N; i++) {
        if (c[i] != want[i] && bad++ == 0)
            first = i;
    }

    clReleaseEvent(ev);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(kern);
    sample_release(&s);

    if (bad) {
        printf("matmul: FAILED (%u of %d wrong, first c[%u][%u] = %g, "
               "want %g)\n", bad, M * N, first / N, first % N,
               (double)c[first], (double)want[first]);
        return 1;
    }
    printf("matmul: ok (%dx%d * %dx%d, %dx%d tiles, exact, kernel %.3f ms)\n",
           M, K, K, N, TILE, TILE, ms);
    return 0;
}
