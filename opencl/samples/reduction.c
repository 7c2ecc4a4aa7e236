// SPDX-License-Identifier: MIT
//
// Sum of N floats by repeated launches of a work-group tree reduction,
// each turning groups of L elements into one partial sum, until one
// value is left.  L, the local size, is the kernel's
// CL_KERNEL_WORK_GROUP_SIZE rounded down to a power of two (at most 256),
// and the scratch of L floats is a __local argument.  Float addition is
// not associative, so the host adds in the same tree order and the sums
// must agree bit for bit.
#include "cl-sample.h"

#define N (64 * 1024)
#define MAX_LOCAL 256

// The kernel's step on the host: the same pairs added in the same order.
static cl_uint reduce_step(const float *in, float *out, cl_uint n, size_t l)
{
    float scratch[MAX_LOCAL];
    cl_uint groups = (cl_uint)((n + l - 1) / l);

    for (cl_uint g = 0; g < groups; g++) {
        for (size_t i = 0; i < l; i++)
            scratch[i] = g * l + i < n ? in[g * l + i] : 0.0f;
        for (size_t s = l / 2; s > 0; s /= 2) {
            for (size_t i = 0; i < s; i++)
                scratch[i] += scratch[i + s];
        }
        out[g] = scratch[0];
    }
    return groups;
}

int main(int argc, char **argv)
{
    static float in[N], host[2][N];
    struct sample s;
    size_t wg, local = 1;
    cl_int err;

    // Fractions of varied magnitude, so the order of additions matters.
    for (unsigned i = 0; i < N; i++)
        in[i] = 1.0f / (float)(1 + i % 97) + (float)(i % 13);

    sample_init(&s, argc, argv, "reduction", 0, "");
    cl_kernel k = sample_kernel(&s, "reduce");
    err = clGetKernelWorkGroupInfo(k, s.dev, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof(wg), &wg, NULL);
    CL_CHECK("clGetKernelWorkGroupInfo", err);
    while (local * 2 <= wg && local * 2 <= MAX_LOCAL)
        local *= 2;
    if (local < 2) {
        printf("reduction: FAILED (work-group size %zu, a tree needs 2)\n",
               wg);
        return 1;
    }

    // in, then two buffers of partial sums used in turn: a step cannot
    // write the buffer it reads, as other groups may still be reading.
    size_t partial_bytes = (N + local - 1) / local * sizeof(float);
    cl_mem din = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               sizeof(in), in);
    cl_mem part[2] = {
        sample_buffer(&s, CL_MEM_READ_WRITE, partial_bytes, NULL),
        sample_buffer(&s, CL_MEM_READ_WRITE, partial_bytes, NULL),
    };
    cl_mem src = din;
    const float *host_src = in;
    cl_uint count = N;
    unsigned launches = 0;
    while (count > 1) {
        cl_mem dst = part[launches % 2];
        size_t global = (count + local - 1) / local * local;
        sample_arg(k, 0, sizeof(cl_mem), &src);
        sample_arg(k, 1, sizeof(cl_mem), &dst);
        sample_arg(k, 2, local * sizeof(float), NULL);
        sample_arg(k, 3, sizeof(cl_uint), &count);
        err = clEnqueueNDRangeKernel(s.q, k, 1, NULL, &global, &local, 0,
                                     NULL, NULL);
        CL_CHECK("clEnqueueNDRangeKernel", err);
        count = reduce_step(host_src, host[launches % 2], count, local);
        host_src = host[launches % 2];
        src = dst;
        launches++;
    }
    float sum;
    err = clEnqueueReadBuffer(s.q, src, CL_TRUE, 0, sizeof(sum), &sum, 0,
                              NULL, NULL);
    CL_CHECK("clEnqueueReadBuffer", err);

    clReleaseMemObject(din);
    clReleaseMemObject(part[0]);
    clReleaseMemObject(part[1]);
    clReleaseKernel(k);
    sample_release(&s);

    if (memcmp(&sum, host_src, sizeof(sum)) != 0) {
        printf("reduction: FAILED (sum %.9g, want %.9g)\n", (double)sum,
               (double)host_src[0]);
        return 1;
    }
    printf("reduction: ok (%d floats, %u launches of %zu-item groups, "
           "sum %.9g bit-exact)\n", N, launches, local, (double)sum);
    return 0;
}
