// SPDX-License-Identifier: MIT
/*
 * samples.c: simt-lib-test's samples group: the sample kernels through
 * libsimt, results checked.
 */
#include "lib-test.h"

/* ---- samples: saxpy, matmul, reduce, histogram through libsimt ---- */

void test_samples(void)
{
	simt_device *dev;
	simt_context *ctx;
	simt_module *m = NULL;
	simt_kernel *k;
	simt_buffer *bx, *by, *bz;
	float *x, *y, *z, *want;
	uint32_t i, j, l;

	MUST(simt_device_open(node, &dev));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));

	/* saxpy: y = 2 x + y, a grid smaller than the data. */
	if ((k = load_kernel(ctx, &m, "saxpy.elf", "saxpy"))) {
		const uint32_t n = 5000;

		x = malloc(n * 4);
		y = malloc(n * 4);
		want = malloc(n * 4);
		for (i = 0; i < n; i++) {
			x[i] = i % 1000;
			y[i] = 3.0f * (i % 777);
			want[i] = 2.0f * x[i] + y[i];
		}
		bx = upload(ctx, x, n * 4);
		by = upload(ctx, y, n * 4);
		if (bx && by &&
		    !run(k, dim(8, 1, 1), dim(128, 1, 1), 0,
			 (uint32_t[]){ n, fbits(2.0f), simt_buffer_addr(bx), simt_buffer_addr(by) },
			 4) && !finish(ctx) &&
		    !simt_memcpy_dtoh(y, by, 0, n * 4) && !check_floats("saxpy", y, want, n))
			printf("saxpy: %u elements checked\n", n);
		free(x);
		free(y);
		free(want);
	}

	/* matmul: 48 x 48 through shared-memory tiles. */
	if ((k = load_kernel(ctx, &m, "matmul.elf", "matmul"))) {
		const uint32_t n = 48;

		x = malloc(n * n * 4);
		y = malloc(n * n * 4);
		z = malloc(n * n * 4);
		want = calloc(n * n, 4);
		for (i = 0; i < n * n; i++) {
			x[i] = (float)((i * 7) % 11) - 5.0f;
			y[i] = (float)((i * 5) % 13) - 6.0f;
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				for (l = 0; l < n; l++)
					want[i * n + j] += x[i * n + l] * y[l * n + j];
		bx = upload(ctx, x, n * n * 4);
		by = upload(ctx, y, n * n * 4);
		bz = NULL;
		simt_mem_alloc(ctx, n * n * 4, &bz);
		if (bx && by && bz &&
		    !run(k, dim(n / 16, n / 16, 1), dim(16, 16, 1), 0,
			 (uint32_t[]){ simt_buffer_addr(bx), simt_buffer_addr(by),
				       simt_buffer_addr(bz), n }, 4) &&
		    !finish(ctx) && !simt_memcpy_dtoh(z, bz, 0, n * n * 4) &&
		    !check_floats("matmul", z, want, n * n))
			printf("matmul: %u x %u checked\n", n, n);
		free(x);
		free(y);
		free(z);
		free(want);
	}

	/* reduce: partial sums of blocks of 256, by tree and by warp shuffles. */
	if ((k = load_kernel(ctx, &m, "reduce.elf", "reduce_tree"))) {
		const uint32_t n = 10000, bs = 256, nb = (n + bs - 1) / bs;
		const char *names[] = { "reduce_tree", "reduce_warp" };

		x = malloc(n * 4);
		y = malloc(nb * 4);
		want = calloc(nb, 4);
		for (i = 0; i < n; i++) {
			x[i] = (float)(i % 100);
			want[i / bs] += x[i];
		}
		bx = upload(ctx, x, n * 4);
		for (j = 0; bx && j < 2; j++) {
			by = NULL;
			if (simt_module_get_kernel(m, names[j], &k) || simt_mem_alloc(ctx, nb * 4, &by)) {
				FAIL("%s", names[j]);
				break;
			}
			if (!run(k, dim(nb, 1, 1), dim(bs, 1, 1), 0,
				 (uint32_t[]){ simt_buffer_addr(bx), simt_buffer_addr(by), n }, 3) &&
			    !finish(ctx) && !simt_memcpy_dtoh(y, by, 0, nb * 4) &&
			    !check_floats(names[j], y, want, nb))
				printf("%s: %u partial sums checked\n", names[j], nb);
			simt_mem_free(by);
		}
		free(x);
		free(y);
		free(want);
	}

	/* histogram: 256 bins of 20000 bytes, shared and global atomics. */
	if ((k = load_kernel(ctx, &m, "histogram.elf", "histogram"))) {
		const uint32_t n = 20000;
		uint32_t bins[256], wbins[256] = { 0 };
		uint8_t *data = malloc(n);

		for (i = 0; i < n; i++) {
			data[i] = pat(i, 9) % 97 + (i % 3) * 50;
			wbins[data[i]]++;
		}
		bx = upload(ctx, data, n);
		by = NULL;
		simt_mem_alloc(ctx, sizeof(bins), &by);
		if (bx && by &&
		    !run(k, dim(6, 1, 1), dim(128, 1, 1), 0,
			 (uint32_t[]){ simt_buffer_addr(bx), n, simt_buffer_addr(by) }, 3) &&
		    !finish(ctx) && !simt_memcpy_dtoh(bins, by, 0, sizeof(bins)) &&
		    !check_u32("histogram", bins, wbins, 256))
			printf("histogram: 256 bins of %u bytes checked\n", n);
		free(data);
	}
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}
