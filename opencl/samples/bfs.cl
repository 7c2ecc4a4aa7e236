// SPDX-License-Identifier: MIT
//
// Breadth-first search in Rodinia's style, one level per pair of
// launches over all n nodes of a graph in CSR form (the edges of node v
// are col[row[v]] to col[row[v + 1] - 1]).  Masks are bytes: a kernel
// argument cannot point to bool.

// Expands the frontier: marks the unvisited neighbours of its nodes.
__kernel void bfs_expand(__global const uint *row, __global const uint *col,
                         __global uchar *frontier, __global uchar *updating,
                         __global const uchar *visited, __global int *cost,
                         uint n)
{
    uint v = get_global_id(0);

    if (v >= n || !frontier[v])
        return;
    frontier[v] = 0;
    for (uint e = row[v]; e < row[v + 1]; e++) {
        uint u = col[e];
        // Every frontier node is at the same level, so work-items racing
        // on u all store the same cost.
        if (!visited[u]) {
            cost[u] = cost[v] + 1;
            updating[u] = 1;
        }
    }
}

// Makes the marked nodes the next frontier and tells the host there is one.
__kernel void bfs_update(__global uchar *frontier, __global uchar *updating,
                         __global uchar *visited, __global uint *changed,
                         uint n)
{
    uint v = get_global_id(0);

    if (v >= n || !updating[v])
        return;
    frontier[v] = 1;
    visited[v] = 1;
    updating[v] = 0;
    *changed = 1;
}
