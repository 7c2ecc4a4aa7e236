// SPDX-License-Identifier: MIT
/*
 * memory.c: simt-lib-test's groups on memory and modules: memory
 * (allocation, copies, mapping), module (loading, kernels by name, bad
 * images) and too-large (E2BIG).
 */
#include "lib-test.h"

/* ---- memory: allocation, copies both ways, mapping, bad ranges ---- */

void test_memory(void)
{
	const size_t big = 3 * 1024 * 1024 + 123;	/* several staging rounds */
	struct simt_device_info info;
	simt_device *dev;
	simt_context *ctx, *ctx2;
	simt_buffer *a, *b, *c, *other;
	uint8_t *src, *dst, *map;
	size_t i;
	void *p;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	EXPECT(simt_mem_alloc(ctx, 0, &a), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_mem_alloc(ctx, info.vram_size + 1, &a), SIMT_ERROR_TOO_LARGE);
	/* VRAM is oversubscribed (driver 0.5): the first one is evicted. */
	EXPECT(simt_mem_alloc(ctx, info.vram_size * 3 / 4, &a), SIMT_SUCCESS);
	EXPECT(simt_mem_alloc(ctx, info.vram_size * 3 / 4, &b), SIMT_SUCCESS);
	printf("two buffers of 3/4 of VRAM allocated\n");
	if (a)
		EXPECT(simt_mem_free(a), SIMT_SUCCESS);
	if (b)
		EXPECT(simt_mem_free(b), SIMT_SUCCESS);
	EXPECT(simt_mem_alloc(NULL, 4096, &a), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_mem_alloc(ctx, 4096, NULL), SIMT_ERROR_INVALID_VALUE);

	MUST(simt_mem_alloc(ctx, big, &a));
	MUST(simt_mem_alloc(ctx, big, &b));
	MUST(simt_mem_alloc(ctx, 100, &c));
	CHECK(simt_buffer_size(a) == ((big + 4095) & ~(size_t)4095), "size %zu",
	      simt_buffer_size(a));
	CHECK(simt_buffer_size(c) == 4096, "size of 100 bytes: %zu", simt_buffer_size(c));
	CHECK(simt_buffer_addr(a) >= info.fixed_va_end && simt_buffer_addr(b) >= info.fixed_va_end &&
	      simt_buffer_addr(a) != simt_buffer_addr(b), "addresses 0x%x 0x%x",
	      simt_buffer_addr(a), simt_buffer_addr(b));
	CHECK(simt_buffer_addr(NULL) == 0 && simt_buffer_size(NULL) == 0, "null buffer");

	src = malloc(big);
	dst = malloc(big);
	for (i = 0; i < big; i++)
		src[i] = pat(i, 1);
	/* New memory reads as zero. */
	memset(dst, 0xff, big);
	EXPECT(simt_memcpy_dtoh(dst, a, 0, big), SIMT_SUCCESS);
	for (i = 0; i < big && !dst[i]; i++)
		;
	CHECK(i == big, "new memory is not zero at byte %zu", i);
	/* Host to device, device to device at odd offsets, back. */
	EXPECT(simt_memcpy_htod(a, 0, src, big), SIMT_SUCCESS);
	EXPECT(simt_memcpy_dtod(b, 7, a, 3, big - 10), SIMT_SUCCESS);
	memset(dst, 0, big);
	EXPECT(simt_memcpy_dtoh(dst, b, 7, big - 10), SIMT_SUCCESS);
	CHECK(memcmp(dst, src + 3, big - 10) == 0, "device round trip differs");
	EXPECT(simt_memcpy_dtoh(dst, a, 1000, 5), SIMT_SUCCESS);
	CHECK(memcmp(dst, src + 1000, 5) == 0, "a 5-byte read differs");
	/* What the copy engines wrote is visible through the mapping. */
	EXPECT(simt_buffer_map(a, &p), SIMT_SUCCESS);
	map = p;
	CHECK(map && memcmp(map, src, big) == 0, "the mapping differs");
	EXPECT(simt_buffer_map(a, &p), SIMT_SUCCESS);
	CHECK(p == map, "a second map gave another pointer");
	/* ... and what is written there, to the copy engines. */
	if (map) {
		map[5] = 0x5a;
		EXPECT(simt_memcpy_dtoh(dst, a, 5, 1), SIMT_SUCCESS);
		CHECK(dst[0] == 0x5a, "a byte written through the mapping reads 0x%x", dst[0]);
	}
	EXPECT(simt_buffer_map(NULL, &p), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(c, 0, src, 0), SIMT_SUCCESS);
	printf("copies of %zu bytes both ways, device to device, mapping: checked\n", big);

	/* Ranges outside the buffer, overlaps, other contexts. */
	EXPECT(simt_memcpy_htod(c, 0, src, 4097), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(c, 4096, src, 1), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(c, SIZE_MAX, src, 2), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_dtoh(dst, c, 1, 4096), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(NULL, 0, src, 1), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(c, 0, NULL, 1), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_dtoh(NULL, c, 0, 1), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_dtod(a, 0, a, 100, 200), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_dtod(a, 0, a, 200, 200), SIMT_SUCCESS);
	EXPECT(simt_memcpy_dtod(c, 0, a, 0, 4097), SIMT_ERROR_INVALID_VALUE);
	MUST(simt_context_create(dev, SIMT_PRIORITY_LOW, 0, &ctx2));
	MUST(simt_mem_alloc(ctx2, 4096, &other));
	EXPECT(simt_memcpy_dtod(other, 0, c, 0, 16), SIMT_ERROR_INVALID_VALUE);
	printf("bad ranges refused: %s\n", simt_last_error());
	/* Each context's copies reach its own memory only. */
	EXPECT(simt_memcpy_htod(other, 0, src + 11, 4096), SIMT_SUCCESS);
	EXPECT(simt_memcpy_dtoh(dst, other, 0, 4096), SIMT_SUCCESS);
	CHECK(memcmp(dst, src + 11, 4096) == 0, "second context's copy");

	EXPECT(simt_mem_free(b), SIMT_SUCCESS);
	EXPECT(simt_mem_free(other), SIMT_SUCCESS);
	EXPECT(simt_mem_free(NULL), SIMT_ERROR_INVALID_VALUE);
	/* Destroying a context frees what is left of its memory. */
	EXPECT(simt_context_destroy(ctx2), SIMT_SUCCESS);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	free(src);
	free(dst);
}

/* ---- module: loading, kernels by name, bad images ---- */

void test_module(void)
{
	struct simt_kernel_attrs at;
	simt_device *dev;
	simt_context *ctx, *ctx2;
	simt_module *m, *m2;
	simt_kernel *k;
	uint8_t *data, *bad;
	size_t size;
	unsigned int i;

	MUST(simt_device_open(node, &dev));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));

	/* Bad files: missing, not ELF, truncated, not annotated. */
	EXPECT(simt_module_load(ctx, KERNEL_DIR "/no-such.elf", &m), SIMT_ERROR_INVALID_IMAGE);
	CHECK(m == NULL && strstr(simt_last_error(), "no-such.elf"),
	      "message does not name the file: %s", simt_last_error());
	EXPECT(simt_module_load(ctx, "/lib/simt/simt-hw.env", &m), SIMT_ERROR_INVALID_IMAGE);
	printf("a text file: %s\n", simt_last_error());
	data = read_file(KERNEL_DIR "/samples.elf", &size);
	CHECK(data != NULL, "cannot read samples.elf");
	if (!data)
		return;
	EXPECT(simt_module_load_data(ctx, data, size / 2, "half.elf", &m),
	       SIMT_ERROR_INVALID_IMAGE);
	printf("a truncated image: %s\n", simt_last_error());
	CHECK(strstr(simt_last_error(), "half.elf") != NULL, "message does not name the image");
	EXPECT(simt_module_load_data(ctx, data, 0, "empty", &m), SIMT_ERROR_INVALID_IMAGE);
	EXPECT(simt_module_load_data(ctx, NULL, 10, "null", &m), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_module_load(NULL, KERNEL_DIR "/samples.elf", &m), SIMT_ERROR_INVALID_VALUE);
	/* Without its note: rename the section so that it is not found. */
	{
		struct simt_elf elf;
		const struct simt_elf_section *sec;
		char err[256];
		uint8_t *copy = malloc(size);

		memcpy(copy, data, size);
		CHECK(simt_elf_parse(&elf, "samples.elf", copy, size, err, sizeof(err)) == 0,
		      "parse: %s", err);
		sec = simt_elf_section_by_name(&elf, SIMT_NOTE_SECTION);
		CHECK(sec != NULL, "samples.elf has no note section");
		bad = malloc(size);
		memcpy(bad, data, size);
		if (sec) {
			bad[(const uint8_t *)sec->name - elf.data + 1] = 'X';
			EXPECT(simt_module_load_data(ctx, bad, size, "unannotated.elf", &m),
			       SIMT_ERROR_INVALID_IMAGE);
			CHECK(strstr(simt_last_error(), "simt-meta") != NULL,
			      "message does not say what to do: %s", simt_last_error());
			printf("an image without its note: %s\n", simt_last_error());
		}
		free(bad);
		simt_elf_free(&elf);
	}

	/* From memory: the kernels by name, their attributes. */
	MUST(simt_module_load_data(ctx, data, size, "samples.elf", &m));
	CHECK(simt_module_kernel_count(m) >= 5, "%u kernels", simt_module_kernel_count(m));
	for (i = 0; i < simt_module_kernel_count(m); i++) {
		const char *name = simt_module_kernel_name(m, i);

		EXPECT(simt_module_get_kernel(m, name, &k), SIMT_SUCCESS);
		if (!k)
			continue;
		simt_kernel_get_attrs(k, &at);
		printf("  %-12s entry 0x%x, %u registers, %u local bytes, %u instructions\n",
		       at.name, at.entry, at.regs, at.local_bytes, at.insn_count);
		CHECK(strcmp(at.name, name) == 0, "attrs name %s", at.name);
		CHECK(at.regs >= 1 && at.regs <= 64 && at.entry >= 0x10000 && at.insn_count,
		      "attributes of %s", name);
	}
	CHECK(simt_module_kernel_name(m, i) == NULL, "a name past the end");
	EXPECT(simt_module_get_kernel(m, "vecadd", &k), SIMT_SUCCESS);
	EXPECT(simt_module_get_kernel(m, "no_such_kernel", &k), SIMT_ERROR_NOT_FOUND);
	CHECK(k == NULL && strstr(simt_last_error(), "no_such_kernel"), "not found: %s",
	      simt_last_error());
	EXPECT(simt_module_get_kernel(m, NULL, &k), SIMT_ERROR_INVALID_VALUE);

	/* Another image at the same link address in the same context. */
	EXPECT(simt_module_load(ctx, KERNEL_DIR "/vecadd.elf", &m2), SIMT_ERROR_ADDRESS_IN_USE);
	printf("second module: %s\n", simt_last_error());
	/* ... in another context, fine; and here after an unload. */
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx2));
	EXPECT(simt_module_load(ctx2, KERNEL_DIR "/vecadd.elf", &m2), SIMT_SUCCESS);
	EXPECT(simt_module_unload(m), SIMT_SUCCESS);
	EXPECT(simt_module_unload(NULL), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_module_load(ctx, KERNEL_DIR "/vecadd.elf", &m), SIMT_SUCCESS);
	/* Contexts free their modules. */
	EXPECT(simt_context_destroy(ctx2), SIMT_SUCCESS);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	free(data);
	printf("module: loads, look-ups, bad images checked\n");
}

/* ---- too-large: E2BIG is "too large", not "out of memory" ---- */
void test_too_large(void)
{
	struct simt_device_info info;
	struct simt_kernel_attrs at;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *k;
	simt_buffer *a = NULL;
	uint32_t arg = 0;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	CHECK(strcmp(simt_error_string(SIMT_ERROR_TOO_LARGE),
		     simt_error_string(SIMT_ERROR_OUT_OF_MEMORY)), "same texts");
	/* More than the device has: the driver's E2BIG. */
	EXPECT(simt_mem_alloc(ctx, info.vram_size + 1, &a), SIMT_ERROR_TOO_LARGE);
	CHECK(a == NULL, "a buffer was returned");
	printf("VRAM + 1 byte: %s: %s\n", simt_error_string(SIMT_ERROR_TOO_LARGE),
	       simt_last_error());
	EXPECT(simt_mem_alloc(ctx, info.vram_size * 4, &a), SIMT_ERROR_TOO_LARGE);
	EXPECT(simt_mem_alloc(ctx, SIZE_MAX, &a), SIMT_ERROR_TOO_LARGE);
	/*
	 * What fits the device but neither VRAM nor the system memory the
	 * driver spends on evicted buffers (half the RAM) is out of memory.
	 */
	{
		simt_buffer *bufs[8] = { NULL };
		simt_status st = SIMT_SUCCESS;
		unsigned int i, n = 0;

		for (i = 0; i < 8 && st == SIMT_SUCCESS; i++) {
			st = simt_mem_alloc(ctx, info.vram_size * 3 / 4, &bufs[i]);
			n += st == SIMT_SUCCESS;
		}
		CHECK(n >= 1 && st == SIMT_ERROR_OUT_OF_MEMORY,
		      "%u buffers of 3/4 of VRAM, then %s (expected out of memory after 1 or more)",
		      n, simt_error_string(st));
		printf("%u buffers of 3/4 of VRAM, then %s: %s\n", n, simt_error_string(st),
		       simt_last_error());
		for (i = 0; i < n; i++)
			EXPECT(simt_mem_free(bufs[i]), SIMT_SUCCESS);
	}
	/* Local memory for more threads than the VRAM can hold stacks for. */
	MUST(simt_module_load(ctx, KERNEL_DIR "/ids.elf", &m));
	MUST(simt_module_get_kernel(m, "ids", &k));
	simt_kernel_get_attrs(k, &at);
	CHECK(at.local_bytes > 0, "ids uses no local memory");
	if (at.local_bytes) {
		uint64_t per_block = info.vram_size / ((uint64_t)at.local_bytes * info.sm_count *
						       info.sm_blocks) + 1;

		EXPECT(simt_launch(k, dim(1, 1, 1), dim(per_block, 1, 1), 0, &arg, 1, NULL),
		       SIMT_ERROR_TOO_LARGE);
		printf("blocks of %llu threads: %s\n", (unsigned long long)per_block,
		       simt_last_error());
	}
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}
