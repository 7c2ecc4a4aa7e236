// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Low-priority kernels that do what seed 000's benchmarks do (its Table
 * 4.2, kernels of the Rodinia suite of Che et al.), written here from
 * each algorithm's description: the same access patterns, barriers and
 * in-place updates, with the host references in
 * tests/qtest/simt-rodinia.c.  Shared memory is all dynamic, so that a
 * launch's footprint is the one its dyn_shared asks for.  Float
 * parameters are passed as bits (argFloat).
 */
#include "simt.h"

#define MIN(a, b)   ((a) < (b) ? (a) : (b))
#define MAX(a, b)   ((a) > (b) ? (a) : (b))

/*
 * pathfinder's row sweep: each block takes 256 columns of the grid, of
 * which it computes the 256 - 2 * @rows in its middle: @rows rows of
 * dynamic programming in shared memory (the pyramid: a row's cell is the
 * least of the three above it plus its own wall cost), the edges of the
 * pyramid falling away row by row.  @wall: @rows rows of @cols costs
 * after the first row @src.
 */
KERNEL void rd_pathfinder(const int *wall, const int *src, int *dst,
                          int cols, int rows)
{
    int *prev = dynamicShared(), *result = prev + 256;
    int tx = (int)threadIdx.x, inner = 256 - 2 * rows;
    int x0 = inner * (int)blockIdx.x - rows, x = x0 + tx;
    int lo = x0 < 0 ? -x0 : 0;
    int hi = x0 + 255 > cols - 1 ? 255 - (x0 + 256 - cols) : 255;
    int w = MAX(tx - 1, lo), e = MIN(tx + 1, hi);
    bool valid = tx >= lo && tx <= hi, computed = false;

    if (x >= 0 && x < cols) {
        prev[tx] = src[x];
    }
    __syncthreads();
    for (int i = 0; i < rows; i++) {
        computed = false;
        if (tx >= i + 1 && tx <= 254 - i && valid) {
            int best = MIN(MIN(prev[w], prev[tx]), prev[e]);

            result[tx] = best + wall[cols * i + x];
            computed = true;
        }
        __syncthreads();
        if (i == rows - 1) {
            break;
        }
        if (computed) {
            prev[tx] = result[tx];
        }
        __syncthreads();
    }
    if (computed) {
        dst[x] = result[tx];
    }
}

/*
 * hotspot's thermal stencil: 16 x 16 blocks over a @cols x @rows chip,
 * @steps steps of the explicit update of each cell's temperature from
 * its power and its four neighbours, in shared memory, each block
 * computing the (16 - 2 * @steps)^2 cells in its middle.  @k: the
 * update's four coefficients and the ambient temperature, as floats.
 */
KERNEL void rd_hotspot(const float *power, const float *src, float *dst,
                       int cols, int rows, int steps, const float *k)
{
    float *temp = dynamicShared(), *pow = temp + 256, *next = pow + 256;
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y, inner = 16 - 2 * steps;
    int x0 = inner * (int)blockIdx.x - steps;
    int y0 = inner * (int)blockIdx.y - steps;
    int x = x0 + tx, y = y0 + ty, me = ty * 16 + tx;
    int xlo = x0 < 0 ? -x0 : 0, ylo = y0 < 0 ? -y0 : 0;
    int xhi = x0 + 15 > cols - 1 ? 15 - (x0 + 16 - cols) : 15;
    int yhi = y0 + 15 > rows - 1 ? 15 - (y0 + 16 - rows) : 15;
    int n = MAX(ty - 1, ylo), s = MIN(ty + 1, yhi);
    int w = MAX(tx - 1, xlo), e = MIN(tx + 1, xhi);
    float cap = k[0], rx = k[1], ry = k[2], rz = k[3], amb = k[4];
    bool computed = false;

    if (x >= 0 && x < cols && y >= 0 && y < rows) {
        temp[me] = src[y * cols + x];
        pow[me] = power[y * cols + x];
    }
    __syncthreads();
    for (int i = 0; i < steps; i++) {
        computed = false;
        if (tx >= i + 1 && tx <= 14 - i && ty >= i + 1 && ty <= 14 - i &&
            tx >= xlo && tx <= xhi && ty >= ylo && ty <= yhi) {
            float c = temp[me];

            next[me] = c + cap * (pow[me] +
                                  (temp[s * 16 + tx] + temp[n * 16 + tx] -
                                   2.0f * c) * ry +
                                  (temp[ty * 16 + e] + temp[ty * 16 + w] -
                                   2.0f * c) * rx +
                                  (amb - c) * rz);
            computed = true;
        }
        __syncthreads();
        if (i == steps - 1) {
            break;
        }
        if (computed) {
            temp[me] = next[me];
        }
        __syncthreads();
    }
    if (computed) {
        dst[y * cols + x] = next[me];
    }
}

/*
 * streamcluster's cost kernel (pgain): each thread takes one point, its
 * squared distance to the candidate centre @c over @dims coordinates
 * (stored coordinate-major, so that a warp's loads are consecutive),
 * weighted; where opening the centre lowers the point's cost, the point
 * would switch to it and gain the difference.
 */
KERNEL void rd_streamcluster(const float *coord, const float *weight,
                             const float *cost, int *switches, float *gain,
                             int n, int dims, int c)
{
    int p = (int)globalIdx();
    float d = 0;

    if (p >= n) {
        return;
    }
    for (int j = 0; j < dims; j++) {
        float t = coord[j * n + p] - coord[j * n + c];

        d += t * t;
    }
    d *= weight[p];
    switches[p] = d < cost[p];
    gain[p] = d < cost[p] ? cost[p] - d : 0.0f;
}

/*
 * k-means' point assignment (kmeansPoint): each thread takes one point
 * and finds the nearest of KMEANS_K centres (the suite's default count),
 * which the block first loads into shared memory.  Features are stored
 * feature-major (consecutive for a warp) and each is loaded once, the
 * distances to every centre kept in registers, as a cache would serve
 * the suite's reloads.
 */
#define KMEANS_K    5

KERNEL void rd_kmeans(const float *features, const float *centres,
                      int *membership, int n, int nf)
{
    float *cs = dynamicShared();
    float dist[KMEANS_K] = { 0 };
    int p = (int)globalIdx(), best = 0;

    for (int i = (int)threadIdx.x; i < KMEANS_K * nf; i += (int)blockDim.x) {
        cs[i] = centres[i];
    }
    __syncthreads();
    if (p >= n) {
        return;
    }
    for (int f = 0; f < nf; f++) {
        float v = features[f * n + p];

        for (int c = 0; c < KMEANS_K; c++) {
            float t = v - cs[c * nf + f];

            dist[c] += t * t;
        }
    }
    for (int c = 1; c < KMEANS_K; c++) {
        if (dist[c] < dist[0]) {
            dist[0] = dist[c];
            best = c;
        }
    }
    membership[p] = best;
}

/*
 * b+tree's findK: one query per block, down a tree of order 256 whose
 * node is 257 keys then 257 children (a child's index in @nodes, or at
 * a leaf, a record's); thread t looks at key range t of the node.  As in
 * the suite, each query's current node lives in global memory, updated
 * in place level by level (@at, the roots' index at launch), so a block
 * may not be run again from its start once it has moved.
 */
#define BTREE_ORDER 256
#define BTREE_NODE  (2 * (BTREE_ORDER + 1))

KERNEL void rd_findk(const int *nodes, const int *records, const int *keys,
                     int *at, int *answer, int height)
{
    int b = (int)blockIdx.x, t = (int)threadIdx.x, q = keys[b];

    for (int level = 0; level < height; level++) {
        const int *node = nodes + at[b] * BTREE_NODE;

        __syncthreads();
        if (node[t] <= q && q < node[t + 1]) {
            at[b] = node[BTREE_ORDER + 1 + t];
        }
        __syncthreads();
    }
    if (t == 0) {
        answer[b] = -1;
    }
    __syncthreads();
    {
        const int *leaf = nodes + at[b] * BTREE_NODE;

        if (leaf[t] == q) {
            answer[b] = records[leaf[BTREE_ORDER + 1 + t]];
        }
    }
}

/*
 * bfs's first kernel: every vertex of the frontier (@mask) leaves it and
 * gives its unvisited neighbours its cost plus one, marking them to
 * join the next frontier (@update).  Vertex v's neighbours are
 * @edges[@start[v] .. @start[v + 1]).  Frontier vertices share a cost,
 * so two that write one neighbour write the same value.
 */
KERNEL void rd_bfs(const int *start, const int *edges, int *mask,
                   int *update, const int *visited, int *cost, int n)
{
    int v = (int)globalIdx();

    if (v >= n || !mask[v]) {
        return;
    }
    mask[v] = 0;
    for (int i = start[v]; i < start[v + 1]; i++) {
        int u = edges[i];

        if (!visited[u]) {
            cost[u] = cost[v] + 1;
            update[u] = 1;
        }
    }
}

/*
 * backprop's layer forward (bpnn_layerforward): 16 x 16 blocks, block y
 * taking 16 of the input units; each thread weighs one input into one
 * of 16 hidden units, the block sums its 16 inputs per hidden unit by a
 * tree in shared memory, writes the weighted values back over the
 * weights (in place, as the suite does) and the sums to @partial.
 * @weights: (16 * blocks + 1) rows of 17 (unit 0 is the bias).
 */
KERNEL void rd_backprop(const float *input, float *weights, float *partial)
{
    float *node = dynamicShared(), *wm = node + 16;
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y, by = (int)blockIdx.y;
    int row = 16 * by + ty + 1, index = 17 * row + tx + 1;

    if (tx == 0) {
        node[ty] = input[row];
    }
    __syncthreads();
    wm[ty * 16 + tx] = weights[index] * node[ty];
    __syncthreads();
    for (int half = 1; half < 16; half *= 2) {
        if (ty % (2 * half) == 0) {
            wm[ty * 16 + tx] += wm[(ty + half) * 16 + tx];
        }
        __syncthreads();
    }
    weights[index] = wm[ty * 16 + tx];
    __syncthreads();
    if (tx == 0) {
        partial[by * 16 + ty] = wm[ty];
    }
}

/*
 * srad's second kernel (srad_cuda_2): 16 x 16 blocks over a @cols x
 * @rows image; each cell's diffusion from its own coefficient @c and
 * those of its south and east neighbours (staged in shared memory, the
 * image's edge clamped) times its four derivatives (@d: the north,
 * south, west and east planes), added in place to the image @j.
 */
KERNEL void rd_srad2(const float *c, const float *d, float *j, int cols,
                     int rows, uint32_t lambda_bits)
{
    float *cc = dynamicShared(), *south = cc + 256, *east = south + 256;
    float lambda = argFloat(lambda_bits);
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y, me = ty * 16 + tx;
    int x = (int)blockIdx.x * 16 + tx, y = (int)blockIdx.y * 16 + ty;
    int i = y * cols + x, plane = cols * rows;
    float div;

    cc[me] = c[i];
    south[me] = c[MIN(y + 1, rows - 1) * cols + x];
    east[me] = c[y * cols + MIN(x + 1, cols - 1)];
    __syncthreads();
    div = cc[me] * d[i] + south[me] * d[plane + i] +
          cc[me] * d[2 * plane + i] + east[me] * d[3 * plane + i];
    j[i] = j[i] + 0.25f * lambda * div;
}

/*
 * b+tree's findRangeK: one query [@starts[b], @ends[b]] per block, down
 * rd_findk's tree twice at once, one descent per end of the range, each
 * end's current node in global memory (@at for the start, @last for the
 * end, the roots' index at launch) updated in place level by level, as
 * in rd_findk.  At the leaves: @recstart, the first record whose key is
 * not below the start, and @reclength, how many records from it have a
 * key not above the end.
 */
KERNEL void rd_findrange(const int *nodes, const int *starts,
                         const int *ends, int *at, int *last, int *recstart,
                         int *reclength, int height)
{
    int b = (int)blockIdx.x, t = (int)threadIdx.x;
    int lo = starts[b], hi = ends[b];

    for (int level = 0; level < height; level++) {
        const int *ns = nodes + at[b] * BTREE_NODE;
        const int *ne = nodes + last[b] * BTREE_NODE;

        __syncthreads();
        if (ns[t] <= lo && lo < ns[t + 1]) {
            at[b] = ns[BTREE_ORDER + 1 + t];
        }
        if (ne[t] <= hi && hi < ne[t + 1]) {
            last[b] = ne[BTREE_ORDER + 1 + t];
        }
        __syncthreads();
    }
    {
        const int *ls = nodes + at[b] * BTREE_NODE;
        const int *le = nodes + last[b] * BTREE_NODE;

        /* the start's slot holds the greatest key not above it */
        if (ls[t] <= lo && lo < ls[t + 1]) {
            recstart[b] = ls[BTREE_ORDER + 1 + t] + (ls[t] != lo);
        }
        /* the length counts from the record another thread found */
        __syncthreads();
        if (le[t] <= hi && hi < le[t + 1]) {
            reclength[b] = le[BTREE_ORDER + 1 + t] - recstart[b] + 1;
        }
    }
}

/*
 * srad's first kernel (srad_cuda_1): 16 x 16 blocks over a @cols x @rows
 * image @j, each block's tile staged in shared memory inside its
 * one-pixel halo from global memory (the image's edge clamped), 18 x 18
 * pixels.  Per pixel: the derivatives to its four neighbours, written
 * where rd_srad2 reads them (@d: the north, south, west and east
 * planes), and from the gradient and the Laplacian the diffusion
 * coefficient @c, clamped to [0, 1].  @q0sqr_bits: the speckle scale
 * q0^2.
 */
KERNEL void rd_srad1(const float *j, float *d, float *c, int cols, int rows,
                     uint32_t q0sqr_bits)
{
    float *tile = dynamicShared();
    float q0sqr = argFloat(q0sqr_bits);
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int x = (int)blockIdx.x * 16 + tx, y = (int)blockIdx.y * 16 + ty;
    int i = y * cols + x, plane = cols * rows, me = (ty + 1) * 18 + tx + 1;
    float jc, dn, ds, dw, de, g2, l, num, den, qsqr, cv;

    tile[me] = j[i];
    if (ty == 0) {
        tile[me - 18] = j[i - (y > 0) * cols];
    } else if (ty == 15) {
        tile[me + 18] = j[i + (y < rows - 1) * cols];
    }
    if (tx == 0) {
        tile[me - 1] = j[i - (x > 0)];
    } else if (tx == 15) {
        tile[me + 1] = j[i + (x < cols - 1)];
    }
    __syncthreads();
    jc = tile[me];
    dn = tile[me - 18] - jc;
    ds = tile[me + 18] - jc;
    dw = tile[me - 1] - jc;
    de = tile[me + 1] - jc;
    g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
    l = (dn + ds + dw + de) / jc;
    num = 0.5f * g2 - 0.0625f * (l * l);
    den = 1.0f + 0.25f * l;
    qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    cv = 1.0f / (1.0f + den);
    if (cv < 0.0f) {
        cv = 0.0f;
    } else if (cv > 1.0f) {
        cv = 1.0f;
    }
    d[i] = dn;
    d[plane + i] = ds;
    d[2 * plane + i] = dw;
    d[3 * plane + i] = de;
    c[i] = cv;
}

/*
 * Needleman-Wunsch's tile kernel (needle_cuda_shared_1): one 16 x 16
 * tile of a score matrix per block, the launch's blocks the tiles of
 * tile-diagonal @diag (of @diag + 1 tiles) of one @cols x @cols matrix
 * after another, which are independent: each needs only the row above
 * it and the column left of it, computed by the launches of the
 * diagonals before.  The tile with that border and its 16 x 16
 * similarities from @ref go to shared memory; the first 16 threads
 * sweep the tile's anti-diagonals, each cell the best of its up-left
 * neighbour plus its similarity and its up and left ones less
 * @penalty; the tile goes back to @score in place.
 */
KERNEL void rd_needle(int *score, const int *ref, int cols, int diag,
                      int penalty)
{
    int *tile = dynamicShared(), *sim = tile + 17 * 17;
    int t = (int)threadIdx.x, per = diag + 1;
    int bx = (int)blockIdx.x % per, by = diag - bx;
    int *m = score + (int)blockIdx.x / per * cols * cols;
    const int *r = ref + (int)blockIdx.x / per * cols * cols;
    int corner = 16 * by * cols + 16 * bx;

    for (int k = t; k < 256; k += 32) {
        sim[k] = r[corner + (k / 16 + 1) * cols + k % 16 + 1];
    }
    if (t < 17) {
        tile[t] = m[corner + t];
    }
    if (t >= 16) {
        tile[(t - 15) * 17] = m[corner + (t - 15) * cols];
    }
    __syncthreads();
    for (int s = 0; s < 31; s++) {
        int y = s - t;

        if (t < 16 && y >= 0 && y < 16) {
            int ul = tile[y * 17 + t] + sim[y * 16 + t];
            int up = tile[y * 17 + t + 1] - penalty;
            int left = tile[(y + 1) * 17 + t] - penalty;

            tile[(y + 1) * 17 + t + 1] = MAX(MAX(ul, up), left);
        }
        __syncthreads();
    }
    for (int k = t; k < 256; k += 32) {
        m[corner + (k / 16 + 1) * cols + k % 16 + 1] =
            tile[(k / 16 + 1) * 17 + k % 16 + 1];
    }
}

/*
 * bfs's second kernel: every vertex that rd_bfs marked to join the next
 * frontier (@update) joins it (@mask) and is visited, and the search is
 * not over (@over); each thread takes @per vertices, a grid apart.
 */
KERNEL void rd_bfs2(int *mask, int *update, int *visited, int *over, int n,
                    int per)
{
    int stride = (int)(gridDim.x * blockDim.x), v = (int)globalIdx();

    for (int k = 0; k < per && v < n; k++, v += stride) {
        if (update[v]) {
            mask[v] = 1;
            visited[v] = 1;
            *over = 1;
            update[v] = 0;
        }
    }
}

/*
 * backprop's weight update (bpnn_adjust_weights): 16 x 16 blocks over
 * rd_backprop's weights (rows of 17: an input unit's weight to each
 * hidden unit, unit 0 the bias), block y taking @strips strips of 16
 * input units; each thread moves one weight per strip by its hidden
 * unit's error @delta times its input @ly times the rate @eta, plus
 * @momentum times its last move @oldw, in place; block 0's first row
 * of threads does the bias row too.
 */
KERNEL void rd_adjust(const float *delta, const float *ly, float *w,
                      float *oldw, int strips, uint32_t eta_bits,
                      uint32_t momentum_bits)
{
    float eta = argFloat(eta_bits), momentum = argFloat(momentum_bits);
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y, by = (int)blockIdx.y;

    for (int s = 0; s < strips; s++) {
        int row = 16 * (by * strips + s) + ty + 1, index = 17 * row + tx + 1;
        float dw = eta * delta[tx + 1] * ly[row] + momentum * oldw[index];

        w[index] += dw;
        oldw[index] = dw;
    }
    if (by == 0 && ty == 0) {
        float dw = eta * delta[tx + 1] * ly[0] + momentum * oldw[tx + 1];

        w[tx + 1] += dw;
        oldw[tx + 1] = dw;
    }
}
