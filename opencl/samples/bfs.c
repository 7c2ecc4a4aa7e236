// SPDX-License-Identifier: MIT
//
// Breadth-first search from node 0 of a fixed pseudo-random directed
// graph of N nodes, one level per pair of launches until the device
// reports no change, compared with a host BFS.  The launches leave the
// local size to the implementation (NULL); the masks and costs are
// initialised with clEnqueueFillBuffer.
#include "cl-sample.h"

#define N 4096
#define MAX_DEGREE 7

static cl_uint lcg(cl_uint *r)
{
    *r = *r * 1664525u + 1013904223u;
    return *r >> 8;
}

// Fills row[0..N] and col with out-degrees 0..MAX_DEGREE; returns the
// number of edges.
static cl_uint make_graph(cl_uint *row, cl_uint *col)
{
    cl_uint r = 7, edges = 0;
    for (unsigned v = 0; v < N; v++) {
        row[v] = edges;
        cl_uint degree = lcg(&r) % (MAX_DEGREE + 1);
        for (cl_uint d = 0; d < degree; d++)
            col[edges++] = lcg(&r) % N;
    }
    row[N] = edges;
    return edges;
}

// Returns the number of levels with a node, cost[] -1 where unreachable.
static unsigned bfs_host(const cl_uint *row, const cl_uint *col, cl_int *cost)
{
    static cl_uint queue[N];
    unsigned head = 0, tail = 0;
    for (unsigned v = 0; v < N; v++)
        cost[v] = -1;
    cost[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        cl_uint v = queue[head++];
        for (cl_uint e = row[v]; e < row[v + 1]; e++) {
            if (cost[col[e]] < 0) {
                cost[col[e]] = cost[v] + 1;
                queue[tail++] = col[e];
            }
        }
    }
    return (unsigned)cost[queue[tail - 1]] + 1;
}

// All of m, bytes long, to copies of the pattern.
static void fill_buffer(const struct sample *s, cl_mem m, const void *pattern,
                        size_t pattern_size, size_t bytes)
{
    cl_int err = clEnqueueFillBuffer(s->q, m, pattern, pattern_size, 0, bytes,
                                     0, NULL, NULL);
    CL_CHECK("clEnqueueFillBuffer", err);
}

// The first bytes of m; data must outlive the non-blocking write.
static void write_start(const struct sample *s, cl_mem m, size_t bytes,
                        const void *data)
{
    cl_int err = clEnqueueWriteBuffer(s->q, m, CL_FALSE, 0, bytes, data, 0,
                                      NULL, NULL);
    CL_CHECK("clEnqueueWriteBuffer", err);
}

int main(int argc, char **argv)
{
    static cl_uint row[N + 1], col[N * MAX_DEGREE];
    static cl_int cost[N], want[N];
    const cl_uchar zero8 = 0, one8 = 1;
    const cl_int minus1 = -1, zero32 = 0;
    cl_uint n = N, changed;
    size_t global = N;
    struct sample s;
    cl_int err;

    cl_uint edges = make_graph(row, col);
    unsigned want_levels = bfs_host(row, col, want);

    sample_init(&s, argc, argv, "bfs", 0, "");
    cl_kernel expand = sample_kernel(&s, "bfs_expand");
    cl_kernel update = sample_kernel(&s, "bfs_update");
    cl_mem drow = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                sizeof(row), row);
    cl_mem dcol = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                edges * sizeof(cl_uint), col);
    cl_mem frontier = sample_buffer(&s, CL_MEM_READ_WRITE, N, NULL);
    cl_mem updating = sample_buffer(&s, CL_MEM_READ_WRITE, N, NULL);
    cl_mem visited = sample_buffer(&s, CL_MEM_READ_WRITE, N, NULL);
    cl_mem dcost = sample_buffer(&s, CL_MEM_READ_WRITE, sizeof(cost), NULL);
    cl_mem dchanged = sample_buffer(&s, CL_MEM_READ_WRITE, sizeof(changed),
                                    NULL);

    // Nothing visited, every cost -1, then node 0 alone in the frontier.
    fill_buffer(&s, frontier, &zero8, 1, N);
    fill_buffer(&s, updating, &zero8, 1, N);
    fill_buffer(&s, visited, &zero8, 1, N);
    fill_buffer(&s, dcost, &minus1, sizeof(minus1), sizeof(cost));
    write_start(&s, frontier, 1, &one8);
    write_start(&s, visited, 1, &one8);
    write_start(&s, dcost, sizeof(zero32), &zero32);

    sample_arg(expand, 0, sizeof(cl_mem), &drow);
    sample_arg(expand, 1, sizeof(cl_mem), &dcol);
    sample_arg(expand, 2, sizeof(cl_mem), &frontier);
    sample_arg(expand, 3, sizeof(cl_mem), &updating);
    sample_arg(expand, 4, sizeof(cl_mem), &visited);
    sample_arg(expand, 5, sizeof(cl_mem), &dcost);
    sample_arg(expand, 6, sizeof(cl_uint), &n);
    sample_arg(update, 0, sizeof(cl_mem), &frontier);
    sample_arg(update, 1, sizeof(cl_mem), &updating);
    sample_arg(update, 2, sizeof(cl_mem), &visited);
    sample_arg(update, 3, sizeof(cl_mem), &dchanged);
    sample_arg(update, 4, sizeof(cl_uint), &n);

    // Each pass adds a level; a BFS has at most N, so more is a failure.
    unsigned levels = 1;
    do {
        fill_buffer(&s, dchanged, &zero32, sizeof(zero32), sizeof(changed));
        err = clEnqueueNDRangeKernel(s.q, expand, 1, NULL, &global, NULL, 0,
                                     NULL, NULL);
        CL_CHECK("clEnqueueNDRangeKernel", err);
        err = clEnqueueNDRangeKernel(s.q, update, 1, NULL, &global, NULL, 0,
                                     NULL, NULL);
        CL_CHECK("clEnqueueNDRangeKernel", err);
        err = clEnqueueReadBuffer(s.q, dchanged, CL_TRUE, 0, sizeof(changed),
                                  &changed, 0, NULL, NULL);
        CL_CHECK("clEnqueueReadBuffer", err);
        levels += changed != 0;
    } while (changed && levels <= N);
    err = clEnqueueReadBuffer(s.q, dcost, CL_TRUE, 0, sizeof(cost), cost, 0,
                              NULL, NULL);
    CL_CHECK("clEnqueueReadBuffer", err);

    cl_mem mems[] = { drow, dcol, frontier, updating, visited, dcost,
                      dchanged };
    for (unsigned i = 0; i < sizeof(mems) / sizeof(mems[0]); i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(expand);
    clReleaseKernel(update);
    sample_release(&s);

    unsigned bad = 0, first = 0, reached = 0;
    for (unsigned v = 0; v < N; v++) {
        reached += want[v] >= 0;
        if (cost[v] != want[v] && bad++ == 0)
            first = v;
    }
    if (bad || levels != want_levels) {
        printf("bfs: FAILED (%u of %d costs wrong, first node %u = %d, "
               "want %d; %u levels, want %u)\n", bad, N, first, cost[first],
               want[first], levels, want_levels);
        return 1;
    }
    printf("bfs: ok (%d nodes, %u edges, %u reached in %u levels)\n", N,
           edges, reached, levels);
    return 0;
}
