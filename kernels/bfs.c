// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One level of a level-synchronous breadth-first search on a graph in
 * compressed sparse rows (vertex v's neighbours are
 * col[row[v]..row[v+1])): every vertex at distance @level gives its
 * unvisited neighbours (distance ~0u) the distance level + 1 and sets
 * *changed.  Launched once per level, level 0, 1, 2, ..., until a launch
 * leaves *changed 0 (simt-run --repeat ... --set --until, docs/toolchain.rst).
 * Two vertices of one level may both write a neighbour: the same value.
 */
#include "simt.h"

KERNEL void bfs_level(const uint32_t *row, const uint32_t *col, uint32_t *dist,
                      uint32_t level, uint32_t *changed, uint32_t n)
{
    uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;

    if (v >= n || dist[v] != level) {
        return;
    }
    for (uint32_t e = row[v]; e < row[v + 1]; e++) {
        uint32_t u = col[e];

        if (dist[u] == ~0u) {
            dist[u] = level + 1;
            *changed = 1;
        }
    }
}
