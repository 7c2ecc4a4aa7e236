/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Inputs and host references of kernels/rodinia.c (see simt-rodinia.h).
 * Inputs come from a fixed sequence, so every run of a workload has the
 * same ones; each reference computes, in the kernel's order of
 * operations, what the kernel must leave in VRAM.  The kernels that
 * seed 000's Table 4.2 marks idempotent launch with SIMT_CMDF_IDEMPOTENT.
 */

#include "qemu/osdep.h"
#include "simt-rodinia.h"

static uint32_t rd_state;

static uint32_t rd_rand(uint32_t n)
{
    rd_state = rd_state * 1664525u + 1013904223u;
    return (uint32_t)(((uint64_t)(rd_state >> 8) * n) >> 24);
}

static float rd_randf(void)
{
    return (float)rd_rand(1u << 16) / (float)(1u << 16);
}

/* Declare VRAM range [@addr, @addr + @bytes) an output equal to @want. */
static void rd_output(RodiniaRun *r, uint32_t addr, const void *want,
                      size_t bytes)
{
    g_assert_cmpuint(r->outs, <, RODINIA_OUTS);
    r->out_addr[r->outs] = addr;
    r->out_bytes[r->outs++] = bytes;
    r->want = g_realloc(r->want, r->want_bytes + bytes);
    memcpy(r->want + r->want_bytes, want, bytes);
    r->want_bytes += bytes;
}

/* Two blocks' grid dimensions whose product is @blocks, near square. */
static void rd_grid2d(uint32_t blocks, uint32_t *gx, uint32_t *gy)
{
    uint32_t x = 1;

    while ((x + 1) * (x + 1) <= blocks) {
        x++;
    }
    while (blocks % x) {
        x--;
    }
    *gx = blocks / x;
    *gy = x;
}

/* pathfinder: @work rows of wall costs below the first. */
static void rd_pathfinder(Dev *d, uint32_t blocks, uint32_t threads,
                          uint32_t work, RodiniaRun *r)
{
    int rows = work, cols = blocks * (256 - 2 * rows);
    g_autofree int32_t *wall = g_new(int32_t, (rows + 1) * cols);
    g_autofree int32_t *prev = g_new(int32_t, cols);
    g_autofree int32_t *next = g_new(int32_t, cols);
    uint32_t a_wall, a_dst;

    g_assert_cmpint(rows, >=, 1);
    g_assert_cmpint(rows, <, 128);
    for (int i = 0; i < (rows + 1) * cols; i++) {
        wall[i] = rd_rand(10);
    }
    a_wall = vram_alloc(d, wall, (rows + 1) * cols * 4);
    a_dst = vram_alloc(d, NULL, cols * 4);
    memcpy(prev, wall, cols * 4);
    for (int i = 1; i <= rows; i++) {
        for (int x = 0; x < cols; x++) {
            int best = prev[x];

            best = x > 0 ? MIN(best, prev[x - 1]) : best;
            best = x < cols - 1 ? MIN(best, prev[x + 1]) : best;
            next[x] = best + wall[i * cols + x];
        }
        memcpy(prev, next, cols * 4);
    }
    r->launch = (Launch) {
        .kernel = "rd_pathfinder", .grid = { blocks, 1, 1 },
        .block = { 256, 1, 1 }, .flags = SIMT_CMDF_IDEMPOTENT,
        .args = { a_wall + cols * 4, a_wall, a_dst, cols, rows },
    };
    rd_output(r, a_dst, prev, cols * 4);
}

/* hotspot: @work steps of the stencil per block. */
static void rd_hotspot(Dev *d, uint32_t blocks, uint32_t threads,
                       uint32_t work, RodiniaRun *r)
{
    int steps = work, inner = 16 - 2 * steps;
    uint32_t gx, gy;
    int cols, rows, n;
    /* Cap, Rx, Ry, Rz as the suite derives them for its 0.5 mm chip */
    static const float k[5] = { 0.6554f, 0.1001f, 0.1001f, 0.0029f, 80.0f };
    g_autofree float *power = NULL, *temp = NULL, *next = NULL;
    uint32_t a_power, a_src, a_dst, a_k;

    g_assert_cmpint(steps, >=, 1);
    g_assert_cmpint(steps, <=, 7);
    rd_grid2d(blocks, &gx, &gy);
    cols = gx * inner;
    rows = gy * inner;
    n = cols * rows;
    power = g_new(float, n);
    temp = g_new(float, n);
    next = g_new(float, n);
    for (int i = 0; i < n; i++) {
        power[i] = rd_randf() * 0.01f;
        temp[i] = 320.0f + rd_randf() * 20.0f;
    }
    a_power = vram_alloc(d, power, n * 4);
    a_src = vram_alloc(d, temp, n * 4);
    a_dst = vram_alloc(d, NULL, n * 4);
    a_k = vram_alloc(d, k, sizeof(k));
    /*
     * Every cell a block computes sees, at every step, neighbours that
     * the block computed (or the chip's edge, clamped): the whole chip
     * steps together.
     */
    for (int s = 0; s < steps; s++) {
        for (int y = 0; y < rows; y++) {
            for (int x = 0; x < cols; x++) {
                int i = y * cols + x;
                float c = temp[i];
                float nn = temp[MAX(y - 1, 0) * cols + x];
                float ss = temp[MIN(y + 1, rows - 1) * cols + x];
                float ww = temp[y * cols + MAX(x - 1, 0)];
                float ee = temp[y * cols + MIN(x + 1, cols - 1)];

                next[i] = c + k[0] * (power[i] + (ss + nn - 2.0f * c) * k[2] +
                                      (ee + ww - 2.0f * c) * k[1] +
                                      (k[4] - c) * k[3]);
            }
        }
        memcpy(temp, next, n * 4);
    }
    r->launch = (Launch) {
        .kernel = "rd_hotspot", .grid = { gx, gy, 1 },
        .block = { 16, 16, 1 }, .flags = SIMT_CMDF_IDEMPOTENT,
        .args = { a_power, a_src, a_dst, cols, rows, steps, a_k },
    };
    rd_output(r, a_dst, temp, n * 4);
}

/* streamcluster: @work coordinates per point. */
static void rd_streamcluster(Dev *d, uint32_t blocks, uint32_t threads,
                             uint32_t work, RodiniaRun *r)
{
    int n = blocks * threads, dims = work, c = n / 3;
    g_autofree float *coord = g_new(float, n * dims);
    g_autofree float *weight = g_new(float, n);
    g_autofree float *cost = g_new(float, n);
    g_autofree int32_t *sw = g_new(int32_t, n);
    g_autofree float *gain = g_new(float, n);
    uint32_t a_coord, a_weight, a_cost, a_sw, a_gain;

    for (int i = 0; i < n * dims; i++) {
        coord[i] = rd_randf();
    }
    for (int p = 0; p < n; p++) {
        weight[p] = 1.0f + (float)rd_rand(4);
        cost[p] = rd_randf() * (float)dims * 0.5f;
    }
    for (int p = 0; p < n; p++) {
        float dist = 0;

        for (int j = 0; j < dims; j++) {
            float t = coord[j * n + p] - coord[j * n + c];

            dist += t * t;
        }
        dist *= weight[p];
        sw[p] = dist < cost[p];
        gain[p] = dist < cost[p] ? cost[p] - dist : 0.0f;
    }
    a_coord = vram_alloc(d, coord, n * dims * 4);
    a_weight = vram_alloc(d, weight, n * 4);
    a_cost = vram_alloc(d, cost, n * 4);
    a_sw = vram_alloc(d, NULL, n * 4);
    a_gain = vram_alloc(d, NULL, n * 4);
    r->launch = (Launch) {
        .kernel = "rd_streamcluster", .grid = { blocks, 1, 1 },
        .block = { threads, 1, 1 }, .flags = SIMT_CMDF_IDEMPOTENT,
        .args = { a_coord, a_weight, a_cost, a_sw, a_gain, n, dims, c },
    };
    rd_output(r, a_sw, sw, n * 4);
    rd_output(r, a_gain, gain, n * 4);
}

/* k-means: @work features per point, five centres (KMEANS_K). */
#define RD_KMEANS_K 5

static void rd_kmeans(Dev *d, uint32_t blocks, uint32_t threads,
                      uint32_t work, RodiniaRun *r)
{
    int n = blocks * threads, nf = work;
    g_autofree float *features = g_new(float, n * nf);
    g_autofree float *centres = g_new(float, RD_KMEANS_K * nf);
    g_autofree int32_t *member = g_new(int32_t, n);
    uint32_t a_features, a_centres, a_member;

    g_assert_cmpint(RD_KMEANS_K * nf, <=, 1024);
    for (int i = 0; i < n * nf; i++) {
        features[i] = rd_randf();
    }
    for (int i = 0; i < RD_KMEANS_K * nf; i++) {
        centres[i] = rd_randf();
    }
    for (int p = 0; p < n; p++) {
        float dist[RD_KMEANS_K] = { 0 };
        int best = 0;

        for (int f = 0; f < nf; f++) {
            for (int c = 0; c < RD_KMEANS_K; c++) {
                float t = features[f * n + p] - centres[c * nf + f];

                dist[c] += t * t;
            }
        }
        for (int c = 1; c < RD_KMEANS_K; c++) {
            if (dist[c] < dist[0]) {
                dist[0] = dist[c];
                best = c;
            }
        }
        member[p] = best;
    }
    a_features = vram_alloc(d, features, n * nf * 4);
    a_centres = vram_alloc(d, centres, RD_KMEANS_K * nf * 4);
    a_member = vram_alloc(d, NULL, n * 4);
    r->launch = (Launch) {
        .kernel = "rd_kmeans", .grid = { blocks, 1, 1 },
        .block = { threads, 1, 1 }, .flags = SIMT_CMDF_IDEMPOTENT,
        .args = { a_features, a_centres, a_member, n, nf },
    };
    rd_output(r, a_member, member, n * 4);
}

/*
 * b+tree: a tree of order 256 over keys 3 * i: the root, @inner inner
 * nodes under it and 256 leaves under each; returns its nodes.
 */
#define RD_ORDER    256
#define RD_NODE     (2 * (RD_ORDER + 1))

static int32_t *rd_btree(uint32_t inner)
{
    uint32_t nodes = 1 + inner + inner * RD_ORDER;
    int32_t *node = g_new(int32_t, nodes * RD_NODE);

    g_assert_cmpuint(inner, >=, 1);
    g_assert_cmpuint(inner, <=, RD_ORDER);
    /*
     * Node i's key t: the least key under its child t, then INT32_MAX
     * (the root's first: INT32_MIN).  Keys are 3 * k for the k-th
     * record; a root's child spans 256 * 256 of them, an inner node's
     * 256, a leaf's child is the record itself.
     */
    for (uint32_t i = 0; i < nodes; i++) {
        int32_t *nd = &node[i * RD_NODE];
        uint32_t span, first, child0, used = RD_ORDER;

        if (i == 0) {
            span = RD_ORDER * RD_ORDER;
            first = 0;
            child0 = 1;
            used = inner;
        } else if (i <= inner) {
            span = RD_ORDER;
            first = (i - 1) * RD_ORDER * RD_ORDER;
            child0 = 1 + inner + (i - 1) * RD_ORDER;
        } else {
            span = 1;
            first = (i - 1 - inner) * RD_ORDER;
            child0 = first;
        }
        for (uint32_t t = 0; t <= RD_ORDER; t++) {
            nd[t] = t < used ? (int32_t)(3 * (first + t * span)) : INT32_MAX;
            nd[RD_ORDER + 1 + t] = t < used ? (int32_t)(child0 + t) : 0;
        }
        if (i == 0) {
            nd[0] = INT32_MIN;
        }
    }
    return node;
}

/*
 * b+tree's findK: rd_btree with @work inner nodes; one query per block,
 * most for keys in the tree, some for keys between them.
 */
static void rd_findk(Dev *d, uint32_t blocks, uint32_t threads,
                     uint32_t work, RodiniaRun *r)
{
    uint32_t inner = work, leaves = inner * RD_ORDER;
    uint32_t nodes = 1 + inner + leaves, nkeys = leaves * RD_ORDER;
    g_autofree int32_t *node = rd_btree(inner);
    g_autofree int32_t *records = g_new(int32_t, nkeys);
    g_autofree int32_t *keys = g_new(int32_t, blocks);
    g_autofree int32_t *at = g_new0(int32_t, blocks);
    g_autofree int32_t *answer = g_new(int32_t, blocks);
    uint32_t a_node, a_records, a_keys, a_at, a_answer;

    for (uint32_t i = 0; i < nkeys; i++) {
        records[i] = (int32_t)(i * 7 + 1);
    }
    for (uint32_t b = 0; b < blocks; b++) {
        uint32_t k = rd_rand(nkeys);

        keys[b] = (int32_t)(3 * k + (rd_rand(8) == 0));
        answer[b] = keys[b] % 3 ? -1 : records[k];
        at[b] = 1 + inner + k / RD_ORDER;
    }
    a_node = vram_alloc(d, node, nodes * RD_NODE * 4);
    a_records = vram_alloc(d, records, nkeys * 4);
    a_keys = vram_alloc(d, keys, blocks * 4);
    a_at = vram_alloc(d, NULL, blocks * 4);
    a_answer = vram_alloc(d, NULL, blocks * 4);
    r->launch = (Launch) {
        .kernel = "rd_findk", .grid = { blocks, 1, 1 },
        .block = { RD_ORDER, 1, 1 },
        .args = { a_node, a_records, a_keys, a_at, a_answer, 2 },
    };
    rd_output(r, a_answer, answer, blocks * 4);
    rd_output(r, a_at, at, blocks * 4);
}

/*
 * b+tree's findRangeK: rd_btree with @work inner nodes; one range per
 * block, from a key in the tree or just past one, over up to two
 * leaves' keys.
 */
static void rd_findrange(Dev *d, uint32_t blocks, uint32_t threads,
                         uint32_t work, RodiniaRun *r)
{
    uint32_t inner = work, nodes = 1 + inner + inner * RD_ORDER;
    uint32_t nkeys = inner * RD_ORDER * RD_ORDER;
    g_autofree int32_t *node = rd_btree(inner);
    g_autofree int32_t *starts = g_new(int32_t, blocks);
    g_autofree int32_t *ends = g_new(int32_t, blocks);
    g_autofree int32_t *at = g_new(int32_t, blocks);
    g_autofree int32_t *last = g_new(int32_t, blocks);
    g_autofree int32_t *recstart = g_new(int32_t, blocks);
    g_autofree int32_t *reclength = g_new(int32_t, blocks);
    uint32_t a_node, a_starts, a_ends, a_at, a_last, a_recstart;
    uint32_t a_reclength;

    for (uint32_t b = 0; b < blocks; b++) {
        uint32_t k = rd_rand(nkeys);
        uint32_t e = MIN(k + rd_rand(2 * RD_ORDER), nkeys - 1);

        /* key 3 * k is the greatest not above the start, 3 * e the end */
        starts[b] = (int32_t)(3 * k + (rd_rand(4) == 0));
        ends[b] = (int32_t)(3 * e + rd_rand(3));
        at[b] = 1 + inner + k / RD_ORDER;
        last[b] = 1 + inner + e / RD_ORDER;
        recstart[b] = k + (starts[b] != (int32_t)(3 * k));
        reclength[b] = e - recstart[b] + 1;
    }
    a_node = vram_alloc(d, node, nodes * RD_NODE * 4);
    a_starts = vram_alloc(d, starts, blocks * 4);
    a_ends = vram_alloc(d, ends, blocks * 4);
    a_at = vram_alloc(d, NULL, blocks * 4);
    a_last = vram_alloc(d, NULL, blocks * 4);
    a_recstart = vram_alloc(d, NULL, blocks * 4);
    a_reclength = vram_alloc(d, NULL, blocks * 4);
    r->launch = (Launch) {
        .kernel = "rd_findrange", .grid = { blocks, 1, 1 },
        .block = { RD_ORDER, 1, 1 },
        .args = { a_node, a_starts, a_ends, a_at, a_last, a_recstart,
                  a_reclength, 2 },
    };
    rd_output(r, a_recstart, recstart, blocks * 4);
    rd_output(r, a_reclength, reclength, blocks * 4);
    rd_output(r, a_at, at, blocks * 4);
    rd_output(r, a_last, last, blocks * 4);
}

/*
 * bfs: a random graph of @work neighbours per vertex at most, half of
 * it visited, a quarter of that the frontier (cost 5).
 */
static void rd_bfs(Dev *d, uint32_t blocks, uint32_t threads, uint32_t work,
                   RodiniaRun *r)
{
    int n = blocks * threads;
    g_autofree int32_t *start = g_new(int32_t, n + 1);
    g_autofree int32_t *edges = g_new(int32_t, n * work);
    g_autofree int32_t *mask = g_new(int32_t, n);
    g_autofree int32_t *update = g_new0(int32_t, n);
    g_autofree int32_t *visited = g_new(int32_t, n);
    g_autofree int32_t *cost = g_new(int32_t, n);
    uint32_t a_start, a_edges, a_mask, a_update, a_visited, a_cost;
    uint32_t ne = 0;

    for (int v = 0; v < n; v++) {
        uint32_t deg = 1 + rd_rand(work);

        start[v] = ne;
        for (uint32_t i = 0; i < deg; i++) {
            edges[ne++] = rd_rand(n);
        }
        visited[v] = rd_rand(2);
        mask[v] = visited[v] && rd_rand(4) == 0;
        cost[v] = mask[v] ? 5 : visited[v] ? (int32_t)rd_rand(5) : -1;
    }
    start[n] = ne;
    a_start = vram_alloc(d, start, (n + 1) * 4);
    a_edges = vram_alloc(d, edges, ne * 4);
    a_mask = vram_alloc(d, mask, n * 4);
    a_update = vram_alloc(d, NULL, n * 4);
    a_visited = vram_alloc(d, visited, n * 4);
    a_cost = vram_alloc(d, cost, n * 4);
    for (int v = 0; v < n; v++) {
        if (!mask[v]) {
            continue;
        }
        mask[v] = 0;
        for (int i = start[v]; i < start[v + 1]; i++) {
            if (!visited[edges[i]]) {
                cost[edges[i]] = 6;
                update[edges[i]] = 1;
            }
        }
    }
    r->launch = (Launch) {
        .kernel = "rd_bfs", .grid = { blocks, 1, 1 },
        .block = { threads, 1, 1 },
        .args = { a_start, a_edges, a_mask, a_update, a_visited, a_cost, n },
    };
    rd_output(r, a_mask, mask, n * 4);
    rd_output(r, a_update, update, n * 4);
    rd_output(r, a_cost, cost, n * 4);
}

/*
 * bfs's second kernel, @work vertices per thread: rd_bfs's flags after
 * its first kernel, which left the frontier empty; half the vertices
 * visited, a quarter of the others marked to join the next frontier.
 */
static void rd_bfs2(Dev *d, uint32_t blocks, uint32_t threads, uint32_t work,
                    RodiniaRun *r)
{
    int n = blocks * threads * work;
    g_autofree int32_t *mask = g_new0(int32_t, n);
    g_autofree int32_t *update = g_new(int32_t, n);
    g_autofree int32_t *visited = g_new(int32_t, n);
    int32_t over = 0;
    uint32_t a_mask, a_update, a_visited, a_over;

    for (int v = 0; v < n; v++) {
        visited[v] = rd_rand(2);
        update[v] = !visited[v] && rd_rand(4) == 0;
    }
    a_mask = vram_alloc(d, mask, n * 4);
    a_update = vram_alloc(d, update, n * 4);
    a_visited = vram_alloc(d, visited, n * 4);
    a_over = vram_alloc(d, &over, 4);
    for (int v = 0; v < n; v++) {
        if (update[v]) {
            mask[v] = 1;
            visited[v] = 1;
            over = 1;
            update[v] = 0;
        }
    }
    r->launch = (Launch) {
        .kernel = "rd_bfs2", .grid = { blocks, 1, 1 },
        .block = { threads, 1, 1 },
        .args = { a_mask, a_update, a_visited, a_over, n, work },
    };
    rd_output(r, a_mask, mask, n * 4);
    rd_output(r, a_update, update, n * 4);
    rd_output(r, a_visited, visited, n * 4);
    rd_output(r, a_over, &over, 4);
}

/* backprop: 16 input units per block, 16 hidden units. */
static void rd_backprop(Dev *d, uint32_t blocks, uint32_t threads,
                        uint32_t work, RodiniaRun *r)
{
    uint32_t in = 16 * blocks;
    g_autofree float *input = g_new(float, in + 1);
    g_autofree float *weights = g_new(float, (in + 1) * 17);
    g_autofree float *partial = g_new(float, blocks * 16);
    uint32_t a_input, a_weights, a_partial;

    for (uint32_t i = 0; i <= in; i++) {
        input[i] = rd_randf();
    }
    for (uint32_t i = 0; i < (in + 1) * 17; i++) {
        weights[i] = rd_randf() - 0.5f;
    }
    a_input = vram_alloc(d, input, (in + 1) * 4);
    a_weights = vram_alloc(d, weights, (in + 1) * 17 * 4);
    a_partial = vram_alloc(d, NULL, blocks * 16 * 4);
    for (uint32_t by = 0; by < blocks; by++) {
        float wm[16][16];

        for (int ty = 0; ty < 16; ty++) {
            for (int tx = 0; tx < 16; tx++) {
                wm[ty][tx] = weights[17 * (16 * by + ty + 1) + tx + 1] *
                             input[16 * by + ty + 1];
            }
        }
        for (int half = 1; half < 16; half *= 2) {
            for (int ty = 0; ty < 16; ty += 2 * half) {
                for (int tx = 0; tx < 16; tx++) {
                    wm[ty][tx] += wm[ty + half][tx];
                }
            }
        }
        for (int ty = 0; ty < 16; ty++) {
            for (int tx = 0; tx < 16; tx++) {
                weights[17 * (16 * by + ty + 1) + tx + 1] = wm[ty][tx];
            }
            partial[by * 16 + ty] = wm[0][ty];
        }
    }
    r->launch = (Launch) {
        .kernel = "rd_backprop", .grid = { 1, blocks, 1 },
        .block = { 16, 16, 1 },
        .args = { a_input, a_weights, a_partial },
    };
    rd_output(r, a_weights, weights, (in + 1) * 17 * 4);
    rd_output(r, a_partial, partial, blocks * 16 * 4);
}

/*
 * backprop's weight update, @work strips of 16 input units per block,
 * 16 hidden units: their errors, the input units' outputs (the bias
 * unit's is 1), rd_backprop's weights and their last moves, at the
 * suite's rate and momentum.
 */
static void rd_adjust(Dev *d, uint32_t blocks, uint32_t threads,
                      uint32_t work, RodiniaRun *r)
{
    uint32_t in = 16 * blocks * work;
    const float eta = 0.3f, momentum = 0.3f;
    g_autofree float *delta = g_new(float, 17);
    g_autofree float *ly = g_new(float, in + 1);
    g_autofree float *w = g_new(float, (in + 1) * 17);
    g_autofree float *oldw = g_new(float, (in + 1) * 17);
    uint32_t a_delta, a_ly, a_w, a_oldw;

    for (int j = 0; j < 17; j++) {
        delta[j] = rd_randf() - 0.5f;
    }
    ly[0] = 1.0f;
    for (uint32_t k = 1; k <= in; k++) {
        ly[k] = rd_randf();
    }
    for (uint32_t i = 0; i < (in + 1) * 17; i++) {
        w[i] = rd_randf() - 0.5f;
        oldw[i] = (rd_randf() - 0.5f) * 0.1f;
    }
    a_delta = vram_alloc(d, delta, 17 * 4);
    a_ly = vram_alloc(d, ly, (in + 1) * 4);
    a_w = vram_alloc(d, w, (in + 1) * 17 * 4);
    a_oldw = vram_alloc(d, oldw, (in + 1) * 17 * 4);
    for (uint32_t k = 0; k <= in; k++) {
        for (int j = 1; j < 17; j++) {
            uint32_t i = 17 * k + j;
            float dw = eta * delta[j] * ly[k] + momentum * oldw[i];

            w[i] += dw;
            oldw[i] = dw;
        }
    }
    r->launch = (Launch) {
        .kernel = "rd_adjust", .grid = { 1, blocks, 1 },
        .block = { 16, 16, 1 },
        .args = { a_delta, a_ly, a_w, a_oldw, work, fbits(eta),
                  fbits(momentum) },
    };
    rd_output(r, a_w, w, (in + 1) * 17 * 4);
    rd_output(r, a_oldw, oldw, (in + 1) * 17 * 4);
}

/* srad's second kernel over an image of @blocks 16 x 16 tiles. */
static void rd_srad2(Dev *d, uint32_t blocks, uint32_t threads,
                     uint32_t work, RodiniaRun *r)
{
    uint32_t gx, gy;
    int cols, rows, n;
    const float lambda = 0.5f;
    g_autofree float *c = NULL, *dv = NULL, *j = NULL;
    uint32_t a_c, a_d, a_j;

    rd_grid2d(blocks, &gx, &gy);
    cols = gx * 16;
    rows = gy * 16;
    n = cols * rows;
    c = g_new(float, n);
    dv = g_new(float, 4 * n);
    j = g_new(float, n);
    for (int i = 0; i < n; i++) {
        c[i] = rd_randf();
        j[i] = rd_randf() * 255.0f;
    }
    for (int i = 0; i < 4 * n; i++) {
        dv[i] = rd_randf() - 0.5f;
    }
    a_c = vram_alloc(d, c, n * 4);
    a_d = vram_alloc(d, dv, 4 * n * 4);
    a_j = vram_alloc(d, j, n * 4);
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++) {
            int i = y * cols + x;
            float south = c[MIN(y + 1, rows - 1) * cols + x];
            float east = c[y * cols + MIN(x + 1, cols - 1)];
            float div = c[i] * dv[i] + south * dv[n + i] +
                        c[i] * dv[2 * n + i] + east * dv[3 * n + i];

            j[i] = j[i] + 0.25f * lambda * div;
        }
    }
    r->launch = (Launch) {
        .kernel = "rd_srad2", .grid = { gx, gy, 1 },
        .block = { 16, 16, 1 },
        .args = { a_c, a_d, a_j, cols, rows, fbits(lambda) },
    };
    rd_output(r, a_j, j, n * 4);
}

/*
 * srad's first kernel over an image of @blocks 16 x 16 tiles, of pixels
 * in [1, 2) (the suite's image is the exponential of one in [0, 1]),
 * with the speckle scale q0^2 of its first tile, the suite's region of
 * interest.
 */
static void rd_srad1(Dev *d, uint32_t blocks, uint32_t threads,
                     uint32_t work, RodiniaRun *r)
{
    uint32_t gx, gy;
    int cols, rows, n;
    float sum = 0, sum2 = 0, mean, q0sqr;
    g_autofree float *j = NULL, *dv = NULL, *c = NULL;
    uint32_t a_j, a_d, a_c;

    rd_grid2d(blocks, &gx, &gy);
    cols = gx * 16;
    rows = gy * 16;
    n = cols * rows;
    j = g_new(float, n);
    dv = g_new(float, 4 * n);
    c = g_new(float, n);
    for (int i = 0; i < n; i++) {
        j[i] = 1.0f + rd_randf();
    }
    for (int y = 0; y < 16; y++) {
        for (int x = 0; x < 16; x++) {
            sum += j[y * cols + x];
            sum2 += j[y * cols + x] * j[y * cols + x];
        }
    }
    mean = sum / 256.0f;
    q0sqr = (sum2 / 256.0f - mean * mean) / (mean * mean);
    a_j = vram_alloc(d, j, n * 4);
    a_d = vram_alloc(d, NULL, 4 * n * 4);
    a_c = vram_alloc(d, NULL, n * 4);
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++) {
            int i = y * cols + x;
            float jc = j[i];
            float dn = j[MAX(y - 1, 0) * cols + x] - jc;
            float ds = j[MIN(y + 1, rows - 1) * cols + x] - jc;
            float dw = j[y * cols + MAX(x - 1, 0)] - jc;
            float de = j[y * cols + MIN(x + 1, cols - 1)] - jc;
            float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
            float l = (dn + ds + dw + de) / jc;
            float num = 0.5f * g2 - 0.0625f * (l * l);
            float den = 1.0f + 0.25f * l;
            float qsqr = num / (den * den);
            float cv;

            den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
            cv = 1.0f / (1.0f + den);
            if (cv < 0.0f) {
                cv = 0.0f;
            } else if (cv > 1.0f) {
                cv = 1.0f;
            }
            dv[i] = dn;
            dv[n + i] = ds;
            dv[2 * n + i] = dw;
            dv[3 * n + i] = de;
            c[i] = cv;
        }
    }
    r->launch = (Launch) {
        .kernel = "rd_srad1", .grid = { gx, gy, 1 },
        .block = { 16, 16, 1 }, .flags = SIMT_CMDF_IDEMPOTENT,
        .args = { a_j, a_d, a_c, cols, rows, fbits(q0sqr) },
    };
    rd_output(r, a_d, dv, 4 * n * 4);
    rd_output(r, a_c, c, n * 4);
}

/*
 * Needleman-Wunsch: @blocks / @work pairs of sequences of 16 * @work
 * letters, each pair's score matrix @work x @work tiles with its border
 * row and column, of which the launch computes the longest
 * tile-diagonal; the tiles above and left of it hold their scores
 * already, as the launches of the diagonals before would leave them,
 * those below and right of it zeros.  Letters are of ten kinds, their
 * similarities a symmetric table like BLOSUM62 (a match scores 4 to
 * 11, a mismatch -4 to 2), the gap penalty the suite's default.
 */
#define RD_NW_PENALTY   10

static void rd_needle(Dev *d, uint32_t blocks, uint32_t threads,
                      uint32_t work, RodiniaRun *r)
{
    int tiles = work, side = 16 * tiles + 1, cells = side * side;
    int pairs = blocks / tiles, sim[10][10];
    g_autofree int32_t *score = g_new(int32_t, pairs * cells);
    g_autofree int32_t *ref = g_new0(int32_t, pairs * cells);
    g_autofree int32_t *want = g_new(int32_t, pairs * cells);
    uint8_t s1[16 * 16 + 1], s2[16 * 16 + 1];
    uint32_t a_score, a_ref;

    g_assert_cmpint(tiles, >=, 1);
    g_assert_cmpint(tiles, <=, 16);
    g_assert_cmpuint(blocks % tiles, ==, 0);
    for (int a = 0; a < 10; a++) {
        for (int b = 0; b <= a; b++) {
            sim[a][b] = sim[b][a] = a == b ? 4 + (int)rd_rand(8) :
                                             (int)rd_rand(7) - 4;
        }
    }
    for (int p = 0; p < pairs; p++) {
        int32_t *m = &want[p * cells], *rf = &ref[p * cells];

        for (int i = 1; i < side; i++) {
            s1[i] = rd_rand(10);
            s2[i] = rd_rand(10);
        }
        for (int i = 0; i < side; i++) {
            m[i * side] = -i * RD_NW_PENALTY;
            m[i] = -i * RD_NW_PENALTY;
        }
        for (int i = 1; i < side; i++) {
            for (int j = 1; j < side; j++) {
                int k = i * side + j;

                rf[k] = sim[s1[i]][s2[j]];
                m[k] = MAX(MAX(m[k - side - 1] + rf[k],
                               m[k - side] - RD_NW_PENALTY),
                           m[k - 1] - RD_NW_PENALTY);
            }
        }
        /* The launch finds the diagonals before it, leaves those after. */
        memcpy(&score[p * cells], m, cells * 4);
        for (int i = 1; i < side; i++) {
            for (int j = 1; j < side; j++) {
                int k = i * side + j, diag = (i - 1) / 16 + (j - 1) / 16;

                if (diag >= tiles - 1) {
                    score[p * cells + k] = 0;
                }
                if (diag > tiles - 1) {
                    m[k] = 0;
                }
            }
        }
    }
    a_score = vram_alloc(d, score, pairs * cells * 4);
    a_ref = vram_alloc(d, ref, pairs * cells * 4);
    r->launch = (Launch) {
        .kernel = "rd_needle", .grid = { blocks, 1, 1 },
        .block = { 32, 1, 1 },
        .args = { a_score, a_ref, side, tiles - 1, RD_NW_PENALTY },
    };
    rd_output(r, a_score, want, pairs * cells * 4);
}

static const struct {
    const char *kernel;
    void (*setup)(Dev *d, uint32_t blocks, uint32_t threads, uint32_t work,
                  RodiniaRun *r);
} rd_workloads[] = {
    { "rd_pathfinder", rd_pathfinder },
    { "rd_hotspot", rd_hotspot },
    { "rd_streamcluster", rd_streamcluster },
    { "rd_kmeans", rd_kmeans },
    { "rd_findk", rd_findk },
    { "rd_bfs", rd_bfs },
    { "rd_backprop", rd_backprop },
    { "rd_srad2", rd_srad2 },
    { "rd_findrange", rd_findrange },
    { "rd_srad1", rd_srad1 },
    { "rd_needle", rd_needle },
    { "rd_bfs2", rd_bfs2 },
    { "rd_adjust", rd_adjust },
};

bool rodinia_kernel(const char *kernel)
{
    for (size_t i = 0; i < ARRAY_SIZE(rd_workloads); i++) {
        if (!strcmp(kernel, rd_workloads[i].kernel)) {
            return true;
        }
    }
    return false;
}

bool rodinia_setup(Dev *d, const char *kernel, uint32_t blocks,
                   uint32_t threads, uint32_t work, RodiniaRun *r)
{
    memset(r, 0, sizeof(*r));
    for (size_t i = 0; i < ARRAY_SIZE(rd_workloads); i++) {
        if (!strcmp(kernel, rd_workloads[i].kernel)) {
            rd_state = 0x5eed000;
            rd_workloads[i].setup(d, blocks, threads, work, r);
            g_assert_cmpuint(r->launch.block[0] * r->launch.block[1], ==,
                             threads);
            return true;
        }
    }
    return false;
}
