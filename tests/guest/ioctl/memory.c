// SPDX-License-Identifier: MIT
/*
 * memory.c: simt-ioctl-test's groups on buffer objects: bo (create,
 * info, mmap, PRIME, RLIMIT_MEMLOCK, memory cgroups), bind (VM_BIND and
 * VM_UNBIND), copy (SUBMIT copies, checked), evict and evict-bytes
 * (oversubscribed VRAM).
 */
#include "ioctl-test.h"

/* This process's permitted and effective capabilities (bits CAP_*). */
static uint64_t caps_get(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return 0;
	return d[0].effective | (uint64_t)d[1].effective << 32;
}

static int all_zero(const uint8_t *p, uint64_t size)
{
	uint64_t i;

	for (i = 0; i < size; i++)
		if (p[i])
			return 0;
	return 1;
}

/* ---- bo: creation, info, mmap, zeroing, bad arguments ---- */
static void test_bo_kind(uint32_t flags, const char *name)
{
	const uint64_t req = (1 << 20) + 123, size = (1 << 20) + 4096;
	struct drm_simt_bo_info info;
	uint32_t h, h2;
	uint8_t *p, *want;

	h = bo_new(req, flags);
	info = bo_info(h);
	printf("%s object: handle %u size %llu device_addr 0x%llx\n", name, h,
	       (unsigned long long)info.size, (unsigned long long)info.device_addr);
	CHECK(info.flags == flags, "%s: BO_INFO flags %u", name, info.flags);
	CHECK(info.size == size, "%s: size %llu, expected %llu", name,
	      (unsigned long long)info.size, (unsigned long long)size);
	if (flags == DRM_SIMT_BO_VRAM)
		CHECK(info.device_addr && !(info.device_addr & 4095) &&
		      info.device_addr + size <= get_param(DRM_SIMT_PARAM_VRAM_SIZE),
		      "%s: device address 0x%llx", name,
		      (unsigned long long)info.device_addr);
	else
		/* Above VRAM, below the shared and local windows (since 0.2). */
		CHECK(info.device_addr && !(info.device_addr & 4095) &&
		      info.device_addr >= get_param(DRM_SIMT_PARAM_VRAM_SIZE) &&
		      info.device_addr + size <= 0xc0000000ull,
		      "%s: device address 0x%llx", name,
		      (unsigned long long)info.device_addr);

	p = bo_map(h, size);
	CHECK(all_zero(p, size), "%s: a new object is not zero", name);
	fill(p, size, 1);
	munmap(p, size);

	/* A second mapping sees what the first wrote. */
	want = malloc(size);
	fill(want, size, 1);
	p = bo_map(h, size);
	same(name, p, want, size);
	munmap(p, size);

	/* Mapping more than the object is refused. */
	{
		struct drm_simt_bo_mmap_offset o = { .handle = h };

		CHECK(xioctl(fd, DRM_IOCTL_SIMT_BO_MMAP_OFFSET, &o) == 0, "offset");
		CHECK(mmap(NULL, size + 4096, PROT_READ, MAP_SHARED, fd, o.offset) ==
		      MAP_FAILED, "%s: mmap past the end succeeded", name);
		if (flags == DRM_SIMT_BO_VRAM)
			CHECK(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE,
				   fd, o.offset) == MAP_FAILED,
			      "%s: private mapping of VRAM succeeded", name);
	}

	/* The memory of a freed object comes back zeroed. */
	bo_close(h);
	h2 = bo_new(size, flags);
	p = bo_map(h2, size);
	CHECK(all_zero(p, size), "%s: a reused object is not zero", name);
	munmap(p, size);
	bo_close(h2);
	free(want);
	printf("%s: create, info, mmap, write, read back, zero on reuse: done\n", name);
}

/*
 * PRIME (since 0.3): a system memory object exports as a dma-buf, which
 * imports back as the same object (the same handle in its own file, the
 * same object, same size and device address, in another); a VRAM object
 * does not export (EOPNOTSUPP).
 */
static void test_bo_prime(void)
{
	uint32_t v = bo_new(8192, DRM_SIMT_BO_VRAM), s = bo_new(8192, DRM_SIMT_BO_SYSTEM);
	struct drm_prime_handle p = { .handle = v, .flags = DRM_CLOEXEC | DRM_RDWR,
				      .fd = -1 };
	int r, f2;

	r = xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
	CHECK(r == -EOPNOTSUPP, "PRIME export of a VRAM object: %d (%s), expected EOPNOTSUPP",
	      r, strerror(-r));
	if (r == 0)
		close(p.fd);
	p = (struct drm_prime_handle){ .handle = s, .flags = DRM_CLOEXEC | DRM_RDWR,
				       .fd = -1 };
	r = xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
	CHECK(r == 0 && p.fd >= 0, "PRIME export of a system object: %s", strerror(-r));
	if (r == 0 && p.fd >= 0) {
		struct drm_prime_handle i = { .fd = p.fd };
		struct drm_simt_bo_info a = bo_info(s), b;

		CHECK(xioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &i) == 0 && i.handle == s,
		      "the dma-buf imported back as handle %u, not %u", i.handle, s);
		f2 = open_node();
		i = (struct drm_prime_handle){ .fd = p.fd };
		r = xioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &i);
		CHECK(r == 0, "PRIME import into another file: %s", strerror(-r));
		b = (struct drm_simt_bo_info){ .handle = i.handle };
		CHECK(r || (xioctl(f2, DRM_IOCTL_SIMT_BO_INFO, &b) == 0 &&
			    b.size == a.size && b.flags == a.flags &&
			    b.device_addr == a.device_addr),
		      "the imported object differs: size %llu flags %u at 0x%llx",
		      (unsigned long long)b.size, b.flags,
		      (unsigned long long)b.device_addr);
		close(f2);
		close(p.fd);
	}
	bo_close(v);
	bo_close(s);
	printf("PRIME: VRAM objects refused (EOPNOTSUPP), system objects exported and imported\n");
}

/*
 * System memory objects are pinned and count against RLIMIT_MEMLOCK
 * (since 0.3): a child with its own file, without CAP_IPC_LOCK and a
 * limit of 1 MiB, gets 768 KiB, then ENOMEM for 512 KiB more, and the
 * 512 KiB once the first object is freed; VRAM does not count (evicted
 * VRAM is charged to a memory cgroup instead: test_bo_memcg()).  With
 * CAP_IPC_LOCK (root) the limit does not apply.
 */
static void memlock_child(int keep_ipc_lock)
{
	struct rlimit rl = { .rlim_cur = 1 << 20, .rlim_max = 1 << 20 };
	uint32_t a, b, v;
	int r;

	fd = open_node();
	if ((!keep_ipc_lock && caps_set(caps_get() & ~(1ull << CAP_IPC_LOCK))) ||
	    setrlimit(RLIMIT_MEMLOCK, &rl)) {
		printf("cannot drop CAP_IPC_LOCK or set RLIMIT_MEMLOCK: %s\n",
		       strerror(errno));
		_exit(1);
	}
	r = bo_create(768 << 10, DRM_SIMT_BO_SYSTEM, &a);
	CHECK(r == 0, "768 KiB of system memory under a 1 MiB RLIMIT_MEMLOCK: %s",
	      strerror(-r));
	r = bo_create(512 << 10, DRM_SIMT_BO_SYSTEM, &b);
	if (keep_ipc_lock) {
		CHECK(r == 0, "with CAP_IPC_LOCK, 512 KiB more: %s", strerror(-r));
	} else {
		CHECK(r == -ENOMEM, "512 KiB more went past RLIMIT_MEMLOCK: %d (%s), expected ENOMEM",
		      r, strerror(-r));
		if (r == 0)
			bo_close(b);
		r = bo_create(4 << 20, DRM_SIMT_BO_VRAM, &v);
		CHECK(r == 0, "4 MiB of VRAM with RLIMIT_MEMLOCK exhausted: %s",
		      strerror(-r));
		if (!a) {
			_exit(1);
		}
		bo_close(a);
		r = bo_create(512 << 10, DRM_SIMT_BO_SYSTEM, &b);
		CHECK(r == 0, "512 KiB after freeing 768 KiB: %s", strerror(-r));
	}
	_exit(failures ? 1 : 0);
}

static void test_bo_memlock(void)
{
	int k, status;
	pid_t pid;

	for (k = 0; k < 2; k++) {
		pid = fork();
		if (pid == 0)
			memlock_child(k);
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0, "RLIMIT_MEMLOCK %s CAP_IPC_LOCK",
		      k ? "with" : "without");
	}
	printf("RLIMIT_MEMLOCK: system objects counted without CAP_IPC_LOCK, not with it\n");
}

static bool evicted(uint32_t h)
{
	return bo_info(h).flags & DRM_SIMT_BO_EVICTED;
}

/*
 * Evicted VRAM is charged to the memory cgroup of the object's creator,
 * whoever's allocation evicts it.  A child in a cgroup whose memory.max
 * is 64 MiB makes an object of 3/4 of VRAM (resident): a second one of
 * its own is ENOMEM (either would have to go to system memory, 192 MiB),
 * and one of the parent's, in the root cgroup, does not evict the
 * child's but starts evicted itself.  With memory.max at "max" the
 * child's second object succeeds and the cgroup's memory.current grows
 * by about its size.
 */
#define MEMCG_ROOT "/sys/fs/cgroup"
#define MEMCG_DIR MEMCG_ROOT "/simt-evict"

static int memcg_child(uint64_t size, int limited, int to_parent, int from_parent)
{
	uint32_t x = 0, y = 0;
	char pid[32], ok = 0;
	long long cur0, cur1;
	char *t;
	int r;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (sysfs_write(MEMCG_DIR "/cgroup.procs", pid)) {
		printf("cannot join " MEMCG_DIR "\n");
		return 1;
	}
	fd = open_node();
	r = bo_create(size, DRM_SIMT_BO_VRAM, &x);
	CHECK(r == 0 && !evicted(x), "3/4 of VRAM in the cgroup: %s", strerror(-r));
	t = read_text(MEMCG_DIR "/memory.current");
	cur0 = t ? atoll(t) : -1;
	free(t);
	r = bo_create(size, DRM_SIMT_BO_VRAM, &y);
	t = read_text(MEMCG_DIR "/memory.current");
	cur1 = t ? atoll(t) : -1;
	free(t);
	if (limited) {
		CHECK(r == -ENOMEM, "a second 3/4 of VRAM with memory.max 64M: %d (%s), expected ENOMEM",
		      r, strerror(-r));
		/* The parent's object must not evict ours: it is not the parent's memory. */
		CHECK(write(to_parent, "x", 1) == 1 && read(from_parent, &ok, 1) == 1,
		      "pipe to the parent");
		CHECK(!evicted(x), "the parent's allocation evicted an object of a full cgroup");
	} else {
		CHECK(r == 0, "a second 3/4 of VRAM without a limit: %s", strerror(-r));
		/*
		 * The rest of the cgroup's memory moves too (a fresh root saw
		 * it shrink by 256 KiB meanwhile): 4 MiB of slack, against
		 * the object's 192 MiB.
		 */
		CHECK(cur1 - cur0 >= (long long)size - (4 << 20),
		      "memory.current grew by %lld bytes, less than the %llu evicted less 4 MiB",
		      cur1 - cur0, (unsigned long long)size);
	}
	printf("cgroup %s: second object %s, memory.current %lld -> %lld\n",
	       limited ? "at 64M" : "unlimited", r ? strerror(-r) : "made", cur0, cur1);
	if (y)
		bo_close(y);
	bo_close(x);
	return failures ? 1 : 0;
}

static void test_bo_memcg(void)
{
	uint64_t size = get_param(DRM_SIMT_PARAM_VRAM_SIZE) / 4 * 3 & ~4095ull;
	int limited, status, up[2], down[2];
	char *ctl;
	pid_t pid;

	mkdir(MEMCG_ROOT, 0755);
	if (mount("none", MEMCG_ROOT, "cgroup2", 0, NULL) && errno != EBUSY) {
		FAIL("mount cgroup2 on " MEMCG_ROOT ": %s", strerror(errno));
		return;
	}
	ctl = read_text(MEMCG_ROOT "/cgroup.controllers");
	CHECK(ctl && strstr(ctl, "memory"), "no memory controller in cgroup2");
	free(ctl);
	CHECK(sysfs_write(MEMCG_ROOT "/cgroup.subtree_control", "+memory") == 0,
	      "cannot enable the memory controller");
	if (mkdir(MEMCG_DIR, 0755) && errno != EEXIST) {
		FAIL("mkdir " MEMCG_DIR ": %s", strerror(errno));
		return;
	}
	for (limited = 1; limited >= 0; limited--) {
		CHECK(sysfs_write(MEMCG_DIR "/memory.max", limited ? "64M" : "max") == 0,
		      "cannot set memory.max");
		CHECK(pipe(up) == 0 && pipe(down) == 0, "pipe");
		pid = fork();
		if (pid == 0)
			_exit(memcg_child(size, limited, up[1], down[0]));
		if (limited) {
			char c;
			uint32_t h = 0;
			int r;

			CHECK(read(up[0], &c, 1) == 1, "the child did not get its object");
			r = bo_create(size, DRM_SIMT_BO_VRAM, &h);
			CHECK(r == 0 && evicted(h),
			      "the parent's 3/4 of VRAM next to a full cgroup's: %s, %s", strerror(-r),
			      h && evicted(h) ? "evicted" : "resident");
			if (h)
				bo_close(h);
			CHECK(write(down[1], "x", 1) == 1, "pipe to the child");
		}
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0, "the child in the cgroup (%s) failed",
		      limited ? "limited" : "unlimited");
		close(up[0]);
		close(up[1]);
		close(down[0]);
		close(down[1]);
	}
	CHECK(rmdir(MEMCG_DIR) == 0, "rmdir " MEMCG_DIR ": %s", strerror(errno));
	printf("evicted VRAM is charged to its creator's memory cgroup\n");
}

/*
 * Two objects of 3/4 of VRAM both exist (since 0.5): the first, idle, is
 * evicted to system memory when the second is created, keeps its
 * contents, and its CPU mapping follows it there; fdinfo counts the move.
 */
static void test_bo_oversubscribed(uint64_t vram)
{
	const uint64_t size = vram / 4 * 3, pages = size / 4096;
	long long ev0, ev1, evicted, resident;
	uint32_t big, h, *m, *m2, bad = 0;
	uint64_t p;

	ev0 = fdinfo_num(fd, "simt-evictions", "");
	big = bo_new(size, DRM_SIMT_BO_VRAM);
	m = (uint32_t *)bo_map(big, size);
	for (p = 0; p < pages; p++)
		m[p * 1024 + p % 1024] = 0x5eed0000u ^ (uint32_t)p;
	CHECK(bo_create(size, DRM_SIMT_BO_VRAM, &h) == 0,
	      "a second 3/4-of-VRAM object was refused");
	ev1 = fdinfo_num(fd, "simt-evictions", "");
	evicted = fdinfo_num(fd, "simt-evicted-vram", NULL);
	resident = fdinfo_num(fd, "drm-resident-vram", NULL);
	CHECK(ev1 == ev0 + 1 && evicted == (long long)size &&
	      resident == (long long)size,
	      "after the second object: %lld evictions (before %lld), %lld bytes evicted, %lld resident",
	      ev1, ev0, evicted, resident);
	m2 = h ? (uint32_t *)bo_map(h, size) : NULL;
	for (p = 0; m2 && p < pages; p++)
		bad += m2[p * 1024 + p % 1024] != 0;
	for (p = 0; p < pages; p++)
		bad += m[p * 1024 + p % 1024] != (0x5eed0000u ^ (uint32_t)p);
	CHECK(!bad, "%u words wrong in the evicted object or not zero in the new one", bad);
	printf("two objects of 3/4 of VRAM: %lld eviction, %lld bytes in system memory, contents kept through the mapping\n",
	       ev1 - ev0, evicted);
	if (m2)
		munmap(m2, size);
	munmap(m, size);
	bo_close(h);
	bo_close(big);
	CHECK(fdinfo_num(fd, "simt-evicted-vram", NULL) == 0 &&
	      fdinfo_num(fd, "drm-total-vram", NULL) == 0,
	      "both objects freed, VRAM still counted in fdinfo");
}

void test_bo(void)
{
	uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	struct drm_simt_bo_create c;
	struct drm_simt_bo_info i;
	struct drm_simt_bo_mmap_offset o;
	struct drm_gem_close gc;
	uint32_t h;

	test_bo_kind(DRM_SIMT_BO_VRAM, "VRAM");
	test_bo_kind(DRM_SIMT_BO_SYSTEM, "system");

	c = (struct drm_simt_bo_create){ .size = 4096 };
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, EINVAL);		/* no placement */
	c.flags = DRM_SIMT_BO_VRAM | DRM_SIMT_BO_SYSTEM;
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, EINVAL);		/* both */
	c.flags = 1u << 7;
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, EINVAL);		/* unknown */
	c = (struct drm_simt_bo_create){ .size = 0, .flags = DRM_SIMT_BO_VRAM };
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, EINVAL);
	c.size = ~0ull;						/* rounding overflows */
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, E2BIG);
	c.size = vram;						/* more than exists */
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, E2BIG);
	c = (struct drm_simt_bo_create){ .size = 1ull << 50, .flags = DRM_SIMT_BO_SYSTEM };
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, E2BIG);

	test_bo_oversubscribed(vram);

	i = (struct drm_simt_bo_info){ .handle = 0 };
	EXPECT(DRM_IOCTL_SIMT_BO_INFO, &i, ENOENT);
	i.handle = 999999;
	EXPECT(DRM_IOCTL_SIMT_BO_INFO, &i, ENOENT);
	o = (struct drm_simt_bo_mmap_offset){ .handle = 999999 };
	EXPECT(DRM_IOCTL_SIMT_BO_MMAP_OFFSET, &o, ENOENT);
	h = bo_new(4096, DRM_SIMT_BO_VRAM);
	o = (struct drm_simt_bo_mmap_offset){ .handle = h, .pad = 1 };
	EXPECT(DRM_IOCTL_SIMT_BO_MMAP_OFFSET, &o, EINVAL);
	bo_close(h);
	i.handle = h;						/* closed */
	EXPECT(DRM_IOCTL_SIMT_BO_INFO, &i, ENOENT);
	gc = (struct drm_gem_close){ .handle = h };
	EXPECT(DRM_IOCTL_GEM_CLOSE, &gc, EINVAL);
	printf("bad arguments refused\n");

	test_bo_prime();
	test_bo_memlock();
	test_bo_memcg();
}

/* ---- bind: VM_BIND / VM_UNBIND ---- */
void test_bind(void)
{
	struct drm_simt_vm_bind b;
	struct drm_simt_vm_unbind u;
	uint32_t c1, c2, v, s;
	uint64_t a1, a2;

	c1 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c2 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	v = bo_new(5 << 20, DRM_SIMT_BO_VRAM);	/* spans two 4 MiB tables */
	s = bo_new(4096, DRM_SIMT_BO_SYSTEM);

	a1 = bind(c1, v);
	a2 = bind(c2, v);
	printf("bound at 0x%llx in both contexts\n", (unsigned long long)a1);
	CHECK(a1 == a2 && a1 == bo_info(v).device_addr,
	      "addresses 0x%llx 0x%llx, BO_INFO 0x%llx", (unsigned long long)a1,
	      (unsigned long long)a2, (unsigned long long)bo_info(v).device_addr);

	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = v };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EEXIST);
	/* System memory objects too, at their own address (since 0.2). */
	CHECK(bind(c1, s) == bo_info(s).device_addr && bo_info(s).device_addr,
	      "system object bound at 0x%llx",
	      (unsigned long long)bo_info(s).device_addr);
	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = s };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EEXIST);
	b = (struct drm_simt_vm_bind){ .ctx_id = 999, .handle = v };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, ENOENT);
	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = 999 };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, ENOENT);
	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = v, .flags = 1 };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);
	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = v, .pad = 1 };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);

	u = (struct drm_simt_vm_unbind){ .ctx_id = c1, .handle = v };
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, 0);
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, ENOENT);	/* not bound any more */
	u = (struct drm_simt_vm_unbind){ .ctx_id = c2, .handle = s };
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, ENOENT);	/* bound in c1 only */
	u = (struct drm_simt_vm_unbind){ .ctx_id = 999, .handle = v };
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, ENOENT);
	u = (struct drm_simt_vm_unbind){ .ctx_id = c1, .handle = 999 };
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, ENOENT);
	CHECK(bind(c1, v) == a1, "rebinding moved the object");

	/* Fixed addresses: below FIXED_VA_END, page-aligned, no overlap. */
	{
		uint64_t end = get_param(DRM_SIMT_PARAM_FIXED_VA_END);
		uint32_t f1 = bo_new(8192, DRM_SIMT_BO_VRAM);
		uint32_t f2 = bo_new(8192, DRM_SIMT_BO_VRAM);

		printf("fixed bindings below 0x%llx\n", (unsigned long long)end);
		CHECK(end >= 0x20000 && a1 >= end, "FIXED_VA_END 0x%llx, object at 0x%llx",
		      (unsigned long long)end, (unsigned long long)a1);
		b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = f1,
			.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = 0x10000 };
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);
		CHECK(b.device_addr == 0x10000, "fixed binding at 0x%llx",
		      (unsigned long long)b.device_addr);
		b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = f2,
			.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = 0x11000 };
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EBUSY);	/* overlaps f1 */
		b.device_addr = 0x12800;
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);	/* unaligned */
		b.device_addr = end - 4096;
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);	/* crosses the end */
		b.device_addr = ~0ull & ~4095ull;
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);	/* wraps */
		b.device_addr = 0x12000;
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);		/* adjacent */
		b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = v, .flags = 2 };
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);	/* unknown flag */
		bo_close(f1);
		bo_close(f2);
	}

	/* A bound object whose handle is closed stays until its context goes. */
	bo_close(v);
	bo_close(s);
	CHECK(ctx_destroy(c1) == 0 && ctx_destroy(c2) == 0, "destroy");
	printf("bind, double bind, unbind, bad arguments: done\n");
}

/* ---- copy: between VRAM and system memory objects, checked ---- */
void test_copy(void)
{
	const uint64_t size = (3 << 20) + 4096;
	uint8_t *ms, *mt, *ma, *mb, *ws, *wa, *wb, *wt;
	struct drm_simt_cmd cmds[4];
	struct drm_simt_wait w;
	uint32_t ctx, s, t, a, b;
	uint64_t seq, seq2;
	int r;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	s = bo_new(size, DRM_SIMT_BO_SYSTEM);
	t = bo_new(size, DRM_SIMT_BO_SYSTEM);
	a = bo_new(size, DRM_SIMT_BO_VRAM);
	b = bo_new(size, DRM_SIMT_BO_VRAM);
	bind(ctx, a);
	bind(ctx, b);
	ms = bo_map(s, size);
	mt = bo_map(t, size);
	ma = bo_map(a, size);
	mb = bo_map(b, size);

	/* The expected contents, computed here. */
	ws = malloc(size);
	wa = calloc(1, size);
	wb = calloc(1, size);
	wt = calloc(1, size);
	fill(ws, size, 7);
	memcpy(ms, ws, size);

	/* system -> VRAM, whole object */
	cmds[0] = copy_cmd(s, 0, a, 0, size);
	seq = run(ctx, cmds, 1);
	memcpy(wa, ws, size);
	CHECK(seq == 1, "first seqno %llu", (unsigned long long)seq);
	same("system -> VRAM", ma, wa, size);

	/* VRAM -> VRAM at odd offsets, then VRAM -> system, in one submission */
	cmds[0] = copy_cmd(a, 3, b, 4097, 300001);
	cmds[1] = copy_cmd(b, 4000, t, 5, 1 << 20);
	cmds[2] = copy_cmd(s, size - 100, t, size - 100, 100);	/* system -> system */
	cmds[3] = copy_cmd(a, 0, b, size - 1, 0);		/* empty */
	seq2 = run(ctx, cmds, 4);
	memcpy(wb + 4097, wa + 3, 300001);
	memcpy(wt + 5, wb + 4000, 1 << 20);
	memcpy(wt + size - 100, ws + size - 100, 100);
	CHECK(seq2 == seq + 1, "seqno %llu after %llu", (unsigned long long)seq2,
	      (unsigned long long)seq);
	same("VRAM -> VRAM", mb, wb, size);
	same("VRAM -> system and system -> system", mt, wt, size);

	/* A finished seqno polls as done; an empty submission is a marker. */
	CHECK(wait_seq(ctx, seq, 0, &w) == 0 && !w.error, "poll of a finished seqno");
	seq = run(ctx, NULL, 0);
	CHECK(seq == seq2 + 1, "marker seqno %llu", (unsigned long long)seq);

	/*
	 * Handles closed while the copies are queued: the jobs keep the
	 * objects.  One submission each: a system memory object's pages need
	 * not be contiguous, and two copies of 769 pages could need more ring
	 * entries than a queue has (E2BIG).
	 */
	cmds[0] = copy_cmd(s, 0, a, 0, size);
	cmds[1] = copy_cmd(a, 0, t, 0, size);
	r = submit(ctx, &cmds[0], 1, &seq);
	CHECK(r == 0, "submit: %s", strerror(-r));
	r = submit(ctx, &cmds[1], 1, &seq);
	CHECK(r == 0, "submit: %s", strerror(-r));
	munmap(ms, size);
	munmap(ma, size);
	bo_close(s);
	bo_close(a);
	CHECK(wait_seq(ctx, seq, 10 * SEC_NS, &w) == 0 && !w.error, "wait");
	same("copy after closing the handles", mt, ws, size);

	printf("copies system->VRAM, VRAM->VRAM, VRAM->system, system->system of %llu bytes checked, seqnos %llu..%llu\n",
	       (unsigned long long)size, 1ull, (unsigned long long)seq);
	munmap(mt, size);
	munmap(mb, size);
	bo_close(t);
	bo_close(b);
	CHECK(ctx_destroy(ctx) == 0, "destroy");
	free(ws);
	free(wa);
	free(wb);
	free(wt);
}

/*
 * ---- evict: oversubscribed VRAM (0.5, seed 003).  Two objects of 5/8
 * of VRAM, A in context 1 and B in context 2, cannot both be resident:
 * creating B evicts idle A; a kernel of context 2 runs on B; context 1's
 * next kernel brings A back (evicting idle B) and finds its data; a
 * third context binding both runs on the one left in system memory.
 * Device addresses never change, mappings follow the objects, and every
 * result is checked ----
 */
#define EVICT_N		4096u
#define EVICT_REGION	(EVICT_N * 4u)

/* Fill regions 0 and 1 of mapped object @m with @seed's inputs. */
static void evict_fill(float *m, uint64_t size, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < EVICT_N; i++) {
		m[i] = (float)(i + seed);
		m[EVICT_N + i] = (float)(seed * 3) - i * 0.5f;
	}
	/* A sentinel in the last word: the whole object moves. */
	m[size / 4 - 1] = (float)seed;
}

/* Is region @r of @m the sum of regions @x and @y (and the sentinel there)? */
static uint32_t evict_check(const float *m, uint64_t size, uint32_t seed,
			    uint32_t r, uint32_t x, uint32_t y)
{
	uint32_t i, bad = m[size / 4 - 1] != (float)seed;

	for (i = 0; i < EVICT_N; i++)
		bad += m[r * EVICT_N + i] != m[x * EVICT_N + i] + m[y * EVICT_N + i];
	return bad;
}

/* vecadd of @ki in its context: region @r = region @x + region @y of @addr. */
static int evict_vecadd(struct kimg *ki, uint64_t addr, uint32_t r, uint32_t x,
			uint32_t y)
{
	const uint32_t grid[3] = { EVICT_N / 128, 1, 1 }, block[3] = { 128, 1, 1 };
	const uint32_t args[8] = { addr + x * EVICT_REGION, addr + y * EVICT_REGION,
				   addr + r * EVICT_REGION, EVICT_N };

	return kimg_run(ki, ki->ctx, "vecadd", grid, block, args);
}

void test_evict(void)
{
	const uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	const uint64_t size = vram / 8 * 5;
	long long ev0, rs0, ev, rs;
	uint64_t da, db, da3, db3;
	struct kimg k1, k2, k3;
	uint32_t c1, c2, c3, a, b;
	float *ma, *mb;

	ev0 = fdinfo_num(fd, "simt-evictions", "");
	rs0 = fdinfo_num(fd, "simt-restores", "");
	c1 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c2 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c3 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (kimg_load(&k1, "vecadd.elf", c1) || kimg_load(&k2, "vecadd.elf", c2) ||
	    kimg_load(&k3, "vecadd.elf", c3))
		return;

	a = bo_new(size, DRM_SIMT_BO_VRAM);
	da = bind(c1, a);
	ma = (float *)bo_map(a, size);
	evict_fill(ma, size, 1);
	CHECK(!evict_vecadd(&k1, da, 2, 0, 1), "context 1's first kernel");
	CHECK(!evicted(a), "A evicted before anything asked for room");

	b = bo_new(size, DRM_SIMT_BO_VRAM);
	CHECK(evicted(a) && !evicted(b), "after B's creation: A %s, B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	CHECK(bo_info(a).device_addr == da, "A's device address changed when it was evicted");
	/* A is used through system pages by nobody; its mapping follows it. */
	CHECK(!evict_check(ma, size, 1, 2, 0, 1), "A's data after its eviction");
	db = bind(c2, b);
	mb = (float *)bo_map(b, size);
	evict_fill(mb, size, 7);
	CHECK(!evict_vecadd(&k2, db, 2, 0, 1), "context 2's kernel");
	CHECK(!evict_check(mb, size, 7, 2, 0, 1), "context 2's results in B");

	/* Context 1 runs again: A comes back, idle B goes. */
	CHECK(!evict_vecadd(&k1, da, 3, 0, 2), "context 1's second kernel");
	CHECK(!evicted(a) && evicted(b), "after context 1's second kernel: A %s, B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	CHECK(!evict_check(ma, size, 1, 2, 0, 1) && !evict_check(ma, size, 1, 3, 0, 2),
	      "context 1's results in A after its restore");
	CHECK(!evict_check(mb, size, 7, 2, 0, 1), "B's data after its eviction");
	ev = fdinfo_num(fd, "simt-evictions", "") - ev0;
	rs = fdinfo_num(fd, "simt-restores", "") - rs0;
	printf("two objects of 5/8 of VRAM used in turn by two contexts: %lld evictions, %lld restores\n",
	       ev, rs);
	CHECK(ev >= 2 && rs >= 1, "%lld evictions and %lld restores, expected 2 and 1 at least",
	      ev, rs);

	/* Context 3 binds both: they cannot both be in VRAM, and it runs anyway. */
	da3 = bind(c3, a);
	db3 = bind(c3, b);
	CHECK(da3 == da && db3 == db, "the objects are at other addresses in context 3");
	CHECK(!evict_vecadd(&k3, da, 4, 2, 3) && !evict_vecadd(&k3, db, 3, 2, 0),
	      "context 3's kernels on A and B");
	CHECK(evicted(a) != evicted(b), "context 3 ran with A %s and B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	CHECK(!evict_check(ma, size, 1, 4, 2, 3) && !evict_check(mb, size, 7, 3, 2, 0),
	      "context 3's results, one object in system memory");
	printf("a context binding both ran with %s in system memory\n", evicted(a) ? "A" : "B");

	munmap(ma, size);
	munmap(mb, size);
	kimg_free(&k1);
	kimg_free(&k2);
	kimg_free(&k3);
	ctx_destroy(c1);
	ctx_destroy(c2);
	ctx_destroy(c3);
	bo_close(a);
	bo_close(b);
	CHECK(fdinfo_num(fd, "simt-evicted-vram", NULL) == 0, "evicted memory left after freeing");
}

/*
 * ---- evict-bytes: every byte of an evicted and restored object kept
 * (seed 003; the driver moves them with the device's copy engines, on
 * its move queue).  A and B, 5/8 of the VRAM each, every word of them
 * written through their mappings: creating B evicts A, a kernel of a
 * context binding A brings it back and evicts B; after each move every
 * word of both is checked, the kernel's results too.  The shell side
 * (t_evict_copy_engine) checks that the copy engines moved the bytes ----
 */
/* Word @i of object @seed, the first three vecadd regions excepted. */
static uint32_t evict_word(uint32_t seed, uint64_t i)
{
	uint32_t x = (uint32_t)i * 2654435761u ^ seed * 0x9e3779b9u ^ (uint32_t)(i >> 32);

	return x ^ x >> 15;
}

static void evict_bytes_fill(uint32_t *m, uint64_t size, uint32_t seed)
{
	uint64_t i;

	evict_fill((float *)m, size, seed);
	for (i = 3 * EVICT_N; i < size / 4 - 1; i++)
		m[i] = evict_word(seed, i);
}

/*
 * Words of @m wrong, but for region 2 (the kernel's output); the first
 * one in *@at.
 */
static uint64_t evict_bytes_bad(const uint32_t *m, uint64_t size, uint32_t seed,
				uint64_t *at)
{
	const float *f = (const float *)m;
	uint64_t i, bad = 0;
	bool ok;

	for (i = 0; i < size / 4; i++) {
		if (i < EVICT_N)
			ok = f[i] == (float)(i + seed);
		else if (i < 2 * EVICT_N)
			ok = f[i] == (float)(seed * 3) - (i - EVICT_N) * 0.5f;
		else if (i < 3 * EVICT_N)
			continue;
		else if (i == size / 4 - 1)
			ok = f[i] == (float)seed;
		else
			ok = m[i] == evict_word(seed, i);
		if (!ok && !bad++)
			*at = i;
	}
	return bad;
}

void test_evict_bytes(void)
{
	const uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	const uint64_t size = vram / 8 * 5;
	uint64_t da, bad, at = 0;
	struct kimg k;
	uint32_t c, a, b;
	uint32_t *ma, *mb;

	c = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (kimg_load(&k, "vecadd.elf", c))
		return;
	a = bo_new(size, DRM_SIMT_BO_VRAM);
	ma = (uint32_t *)bo_map(a, size);
	evict_bytes_fill(ma, size, 3);
	CHECK(!evicted(a), "A evicted before anything asked for room");

	b = bo_new(size, DRM_SIMT_BO_VRAM);
	CHECK(evicted(a) && !evicted(b), "after B's creation: A %s, B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	mb = (uint32_t *)bo_map(b, size);
	evict_bytes_fill(mb, size, 5);
	bad = evict_bytes_bad(ma, size, 3, &at);
	CHECK(!bad, "A after its eviction: %llu words wrong, the first at word %llu",
	      (unsigned long long)bad, (unsigned long long)at);

	/* A kernel of a context binding A brings it back, and idle B goes. */
	da = bind(c, a);
	CHECK(!evict_vecadd(&k, da, 2, 0, 1), "the kernel on A");
	CHECK(!evicted(a) && evicted(b), "after the kernel on A: A %s, B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	bad = evict_bytes_bad(ma, size, 3, &at);
	CHECK(!bad, "A after its restore: %llu words wrong, the first at word %llu",
	      (unsigned long long)bad, (unsigned long long)at);
	CHECK(!evict_check((float *)ma, size, 3, 2, 0, 1), "the kernel's results in A");
	bad = evict_bytes_bad(mb, size, 5, &at);
	CHECK(!bad, "B after its eviction: %llu words wrong, the first at word %llu",
	      (unsigned long long)bad, (unsigned long long)at);
	printf("A and B of %llu bytes each: every word kept through A's eviction, B's "
	       "eviction and A's restore\n", (unsigned long long)size);

	munmap(ma, size);
	munmap(mb, size);
	kimg_free(&k);
	ctx_destroy(c);
	bo_close(a);
	bo_close(b);
}
