// SPDX-License-Identifier: MIT
/*
 * simt-driver-fuzz: random but well-formed use of the whole driver
 * surface, from several processes and threads at once, for the debug
 * kernel (KASAN, lockdep, debug objects) to judge.
 *
 *   simt-driver-fuzz SECONDS SEED NODE
 *
 * PROCS processes (half of them uid 65534, without privileges) each open
 * the node and run THREADS threads.  A thread draws operations from a
 * table: every ioctl of the driver with arguments drawn near what is
 * valid (handles and ids of its process, and stale or foreign ones,
 * sizes around page and object boundaries), object mappings touched and
 * dropped, user queues whose rings get random device commands and whose
 * doorbells get random tails, closing and reopening the node, and
 * racing all of those: destroys of what other threads use, unbinds
 * under running kernels, VRAM allocated past the device's (evictions).
 * A store to a mapping that the driver took away is SIGBUS or SIGSEGV,
 * which the thread survives.
 *
 * A thread runs programs: a few operations, each with the seed its
 * arguments are drawn from.  Under a kernel with KCOV (the debug kernel,
 * which traces simt.ko alone), each operation's trace of the driver's
 * code is hashed into edges shared by all processes; a program that
 * reached a new edge joins a corpus, shared too, and three programs in
 * four are a corpus program mutated (a call's arguments or operation
 * changed, a call added or dropped, two programs spliced), as
 * syzkaller does.  Without KCOV every program is new.  The
 * interleaving of the threads is not reproducible.
 *
 * A child watches the kernel log: when it shows a report (the patterns
 * of scripts/fuzz-driver.sh), the child prints the programs every
 * thread was running, for the finding.  At the end:
 *
 *   kcov: P PCs, E edges, C programs in the corpus
 *   kcov: new edges from F of R new programs, G of S mutated ...
 *   fuzz-driver: N executions, E coverage (KCOV edges of simt.ko)
 *
 * or, without KCOV, E the distinct outcomes (an operation with one
 * result, success or an errno), a coarser measure of the ground
 * covered.  A finding is not this program's to judge: the kernel log
 * is (tests/guest/simt-test.sh).  Exit status 0 when every process ran
 * to its end, 1 if one died otherwise, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/kcov.h>

#include <drm/drm.h>
#include <drm/simt_accel.h>

#include "hw/simt/simt-hw.h"

#define PROCS		4
#define THREADS		3
#define SLOTS		16	/* handles, contexts, queues a process keeps */
#define MAX_ERRNO	256
#define PROG_CALLS	8	/* operations in a program, at most */
#define CORPUS		4096	/* programs kept; the oldest go first */
#define COVER_WORDS	(1 << 16)	/* a KCOV trace: count, then PCs */
#define HASH_BITS	20	/* PCs and edges hashed into 2^20 bits */

/* What a process's threads share: ids they made, stale ones included. */
struct pool {
	const char *node;
	int fd;
	pthread_mutex_t lock;		/* reopening the node */
	uint32_t bos[SLOTS], ctxs[SLOTS], syncobjs[SLOTS];
	uint64_t bo_size[SLOTS], bo_addr[SLOTS], seqno[SLOTS];
	struct {
		uint32_t ctx, ring, entries;
		uint8_t *ring_map;
		volatile uint32_t *db;
	} uqs[SLOTS];
	uint64_t vram_size;
};

enum op {
	OP_SETUP, OP_PARAM, OP_BO_CREATE, OP_BO_CLOSE, OP_BO_INFO, OP_BO_MAP,
	OP_CTX_CREATE, OP_CTX_DESTROY, OP_BIND, OP_UNBIND, OP_SUBMIT,
	OP_WAIT, OP_SYNCOBJ, OP_USERQ_CREATE, OP_USERQ_RING, OP_USERQ_WAIT,
	OP_DOORBELL_MAP, OP_REOPEN, OP_VRAM_FLOOD, OP_NR,
};

static const char *const op_names[OP_NR] = {
	"setup", "param", "bo_create", "bo_close", "bo_info", "bo_map", "ctx_create",
	"ctx_destroy", "bind", "unbind", "submit", "wait", "syncobj",
	"userq_create", "userq_ring", "userq_wait", "doorbell_map", "reopen",
	"vram_flood",
};

struct call {
	uint32_t op;
	uint64_t seed;
};

struct prog {
	uint32_t len;
	struct call calls[PROG_CALLS];
};

/*
 * What every process shares, mapped before the fork: coverage, the
 * corpus, and what each thread runs now (for the watcher).  Written
 * without locks: a program read while another is written is still a
 * valid program once checked (prog_valid), and a bit is set atomically.
 */
struct shared {
	uint64_t pc_bits[(1 << HASH_BITS) / 64];
	uint64_t edge_bits[(1 << HASH_BITS) / 64];
	uint32_t pcs, edges, kcov;
	uint32_t corpus_added;
	uint64_t runs[2], finds[2];	/* programs new [0] and mutated [1] */
	struct prog corpus[CORPUS];
	struct prog running[PROCS * THREADS];
};

static struct shared *sh;

/* Outcomes seen by this process: op x (0 success, errno). */
static uint8_t seen[OP_NR][MAX_ERRNO + 1];
static uint64_t executions;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static double deadline;
static struct pool pool;

static __thread sigjmp_buf fault_jmp;
static __thread volatile int fault_armed;

static int write_text(const char *path, const char *text)
{
	int f = open(path, O_WRONLY), ok;

	if (f < 0)
		return -1;
	ok = write(f, text, strlen(text)) == (ssize_t)strlen(text);
	close(f);
	return ok ? 0 : -1;
}

/* Without CAP_IPC_LOCK, RLIMIT_MEMLOCK holds for the driver's pins. */
static int drop_ipc_lock(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[CAP_IPC_LOCK / 32].effective &= ~(1u << (CAP_IPC_LOCK % 32));
	d[CAP_IPC_LOCK / 32].permitted &= ~(1u << (CAP_IPC_LOCK % 32));
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* xorshift64*: a thread's operations follow from its seed alone. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static uint32_t below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rnd(s) % n);
}

/* A size near a page or object boundary, or anything. */
static uint64_t some_size(uint64_t *s, uint64_t big)
{
	switch (below(s, 5)) {
	case 0: return 4096ull * (1 + below(s, 16));
	case 1: return 4096ull * (1 + below(s, 16)) + below(s, 3) - 1;
	case 2: return big ? big / (1 + below(s, 4)) : 4096;
	case 3: return rnd(s);
	default: return below(s, 65536);
	}
}

/*
 * Slot @i's id most of the time (a slot's context, objects and
 * addresses belong together, see OP_SETUP), another slot's, or a stale,
 * foreign or wild one now and then.
 */
static uint32_t pick(uint64_t *s, const uint32_t *ids, uint32_t i)
{
	switch (below(s, 12)) {
	case 0: return (uint32_t)rnd(s);
	case 1: return 0;
	case 2: case 3: return ids[below(s, SLOTS)];
	default: return ids[i];
	}
}

static void note(enum op op, int r)
{
	int e = r < 0 ? -r : 0;

	pthread_mutex_lock(&count_lock);
	executions++;
	seen[op][e > MAX_ERRNO ? MAX_ERRNO : e] = 1;
	pthread_mutex_unlock(&count_lock);
}

static int xioctl(unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(pool.fd, req, arg);
	} while (r < 0 && (errno == EINTR || errno == EAGAIN));
	return r < 0 ? -errno : 0;
}

static void on_fault(int sig)
{
	(void)sig;
	if (fault_armed)
		siglongjmp(fault_jmp, 1);
	_exit(3);
}

/* Store @v to @p, or note that the mapping is gone (-EFAULT). */
static int poke(volatile uint32_t *p, uint32_t v)
{
	fault_armed = 1;
	if (sigsetjmp(fault_jmp, 1)) {
		fault_armed = 0;
		return -EFAULT;
	}
	*p = v;
	fault_armed = 0;
	return 0;
}

/*
 * Put object @handle of @size into slot @i, closing the one it replaces:
 * what the threads forget would otherwise pile up until the guest runs
 * out of memory (evicted VRAM lives in system memory).
 */
static void keep_bo(uint32_t i, uint32_t handle, uint64_t size)
{
	uint32_t old = __atomic_exchange_n(&pool.bos[i], handle, __ATOMIC_RELAXED);
	struct drm_gem_close c = { .handle = old };

	pool.bo_size[i] = size;
	if (old && old != handle)
		ioctl(pool.fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static void *map_bo(uint32_t handle, uint64_t size)
{
	struct drm_simt_bo_mmap_offset m = { .handle = handle };
	void *p;

	if (!size || size > (1ull << 30) || xioctl(DRM_IOCTL_SIMT_BO_MMAP_OFFSET, &m))
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, pool.fd,
		 (off_t)m.offset);
	return p == MAP_FAILED ? NULL : p;
}

/* A random device command of any kind, fields near valid. */
static void random_hw_cmd(uint64_t *s, uint8_t *dst, uint64_t fence_addr)
{
	uint32_t w[SIMT_CMD_SIZE / 4];
	uint64_t addr = below(s, 3) ? fence_addr + 8 * below(s, 64) : rnd(s);
	uint64_t value = below(s, 4) ? below(s, 8) : rnd(s);

	memset(w, 0, sizeof(w));
	w[0] = below(s, 8);			/* opcodes, and beyond */
	w[1] = below(s, 4) ? SIMT_CMDF_IRQ * below(s, 2) : (uint32_t)rnd(s);
	/* SIGNAL's and WAIT's addr and value, where other commands have theirs */
	memcpy(&w[2], &addr, sizeof(addr));
	memcpy(&w[4], &value, sizeof(value));
	for (unsigned int i = 6; i < SIMT_CMD_SIZE / 4; i++)
		if (!below(s, 6))
			w[i] = below(s, 2) ? below(s, 64) : (uint32_t)rnd(s);
	memcpy(dst, w, sizeof(w));
}

static void random_submit_cmd(uint64_t *s, struct drm_simt_cmd *c, uint32_t i)
{
	uint32_t j = (i + 1) % SLOTS;

	memset(c, 0, sizeof(*c));
	c->type = below(s, 8) ? 1 + below(s, 3) : below(s, 6);
	c->flags = below(s, 6) ? 0 : (uint32_t)rnd(s);
	if (c->type == DRM_SIMT_CMD_COPY) {
		/* Within the slot's two objects, mostly. */
		c->copy.src_handle = below(s, 2) ? pool.bos[i] : pick(s, pool.bos, j);
		c->copy.dst_handle = below(s, 2) ? pool.bos[j] : pick(s, pool.bos, i);
		c->copy.size = below(s, 4) ? 4 * below(s, 1024) : some_size(s, 0);
		c->copy.src_offset = below(s, 4) ? 4 * below(s, 1024) : rnd(s);
		c->copy.dst_offset = below(s, 4) ? 4 * below(s, 1024) : rnd(s);
	} else {
		struct drm_simt_cmd_launch *l = &c->launch;

		l->code_addr = (uint32_t)pool.bo_addr[below(s, 2) ? i : below(s, SLOTS)];
		l->code_size = 4 * below(s, 64);
		l->entry = l->code_addr + 4 * below(s, 8);
		for (unsigned int d = 0; d < 3; d++) {
			l->grid[d] = d && below(s, 4) ? 1 : below(s, 9);
			l->block[d] = d && below(s, 4) ? 1 : below(s, 300);
		}
		l->shared_size = below(s, 4) ? 0 : below(s, 1 << 17);
		l->local_size = below(s, 4) ? 0 : below(s, 1 << 12);
		l->regs = below(s, 40);
		for (unsigned int a = 0; a < 8; a++)
			l->args[a] = (uint32_t)pool.bo_addr[below(s, SLOTS)];
		l->block_count = below(s, 3) ? 0 : below(s, 16);
	}
}

static int do_op(uint64_t *s, enum op op)
{
	uint32_t i = below(s, SLOTS);
	int r = 0;

	switch (op) {
	case OP_SETUP: {
		/*
		 * What most operations need to get past their checks: a
		 * context, a system object (a ring) and a VRAM object, both
		 * bound in it, all in slot @i.
		 */
		struct drm_simt_context_create c = {
			.priority = below(s, 2) + DRM_SIMT_PRIORITY_LOW,
			.preempt_mode = below(s, 8),
		};
		struct drm_simt_bo_create ring = {
			.size = 4096ull << below(s, 4), .flags = DRM_SIMT_BO_SYSTEM,
		};
		struct drm_simt_bo_create vram = {
			.size = 4096ull << below(s, 6), .flags = DRM_SIMT_BO_VRAM,
		};
		struct drm_simt_vm_bind b = { 0 };
		uint32_t j = (i + 1) % SLOTS;

		if ((r = xioctl(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c)) ||
		    (r = xioctl(DRM_IOCTL_SIMT_BO_CREATE, &ring)) ||
		    (r = xioctl(DRM_IOCTL_SIMT_BO_CREATE, &vram)))
			return r;
		pool.ctxs[i] = pool.ctxs[j] = c.ctx_id;
		keep_bo(i, ring.handle, ring.size);
		keep_bo(j, vram.handle, vram.size);
		b.ctx_id = c.ctx_id;
		b.handle = ring.handle;
		if ((r = xioctl(DRM_IOCTL_SIMT_VM_BIND, &b)))
			return r;
		pool.bo_addr[i] = b.device_addr;
		b.handle = vram.handle;
		b.device_addr = 0;
		if ((r = xioctl(DRM_IOCTL_SIMT_VM_BIND, &b)))
			return r;
		pool.bo_addr[j] = b.device_addr;
		return 0;
	}
	case OP_PARAM: {
		struct drm_simt_get_param p = { .param = below(s, 24) };

		return xioctl(DRM_IOCTL_SIMT_GET_PARAM, &p);
	}
	case OP_BO_CREATE: {
		struct drm_simt_bo_create c = {
			.size = some_size(s, pool.vram_size),
			.flags = below(s, 8) ? (below(s, 2) ? DRM_SIMT_BO_VRAM :
						DRM_SIMT_BO_SYSTEM) : (uint32_t)rnd(s),
		};

		if (c.size > pool.vram_size && below(s, 4))
			c.size = 4096;
		r = xioctl(DRM_IOCTL_SIMT_BO_CREATE, &c);
		if (!r)
			keep_bo(i, c.handle, c.size);
		return r;
	}
	case OP_BO_CLOSE: {
		struct drm_gem_close c = { .handle = pick(s, pool.bos, i) };

		return xioctl(DRM_IOCTL_GEM_CLOSE, &c);
	}
	case OP_BO_INFO: {
		struct drm_simt_bo_info b = { .handle = pick(s, pool.bos, i) };

		r = xioctl(DRM_IOCTL_SIMT_BO_INFO, &b);
		if (!r)
			pool.bo_addr[i] = b.device_addr;
		return r;
	}
	case OP_BO_MAP: {
		uint64_t size = pool.bo_size[i] & ~4095ull;
		uint8_t *p = map_bo(pool.bos[i], size);

		if (!p)
			return -ENOMEM;
		for (uint64_t off = 0; off < size && r == 0; off += 4096 * (1 + below(s, 8)))
			r = poke((volatile uint32_t *)(p + off), (uint32_t)rnd(s));
		munmap(p, size);
		return r;
	}
	case OP_CTX_CREATE: {
		struct drm_simt_context_create c = {
			.priority = below(s, 5), .preempt_mode = below(s, 9),
			.flags = below(s, 10) ? 0 : 1,
		};

		r = xioctl(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c);
		if (!r)
			pool.ctxs[i] = c.ctx_id;
		return r;
	}
	case OP_CTX_DESTROY: {
		struct drm_simt_context_destroy d = { .ctx_id = pick(s, pool.ctxs, i) };

		return xioctl(DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d);
	}
	case OP_BIND: {
		struct drm_simt_vm_bind b = {
			.ctx_id = pick(s, pool.ctxs, i), .handle = pick(s, pool.bos, i),
			.flags = below(s, 4) ? 0 : (below(s, 2) ? DRM_SIMT_VM_BIND_FIXED :
						    (uint32_t)rnd(s)),
			.device_addr = below(s, 2) ? 4096ull * below(s, 1 << 16) : rnd(s),
		};

		r = xioctl(DRM_IOCTL_SIMT_VM_BIND, &b);
		if (!r)
			pool.bo_addr[i] = b.device_addr;
		return r;
	}
	case OP_UNBIND: {
		struct drm_simt_vm_unbind u = {
			.ctx_id = pick(s, pool.ctxs, i), .handle = pick(s, pool.bos, i),
		};

		return xioctl(DRM_IOCTL_SIMT_VM_UNBIND, &u);
	}
	case OP_SUBMIT: {
		struct drm_simt_cmd cmds[4];
		struct drm_simt_sync in = {
			.handle = pick(s, pool.syncobjs, i), .point = below(s, 3),
		};
		struct drm_simt_submit sub = {
			.ctx_id = pick(s, pool.ctxs, i), .cmds = (uintptr_t)cmds,
			.cmd_count = below(s, 5), .cmd_size = sizeof(cmds[0]),
			.flags = below(s, 4) ? 0 : DRM_SIMT_SUBMIT_FENCE_FD,
			.syncobj = below(s, 3) ? 0 : pick(s, pool.syncobjs, i),
			.in_syncs = (uintptr_t)&in, .in_sync_count = below(s, 4) ? 0 : 1,
		};

		if (!below(s, 16))
			sub.cmd_size = below(s, 256);
		if (below(s, 2))
			sub.cmd_count = 1 + below(s, 2);
		for (unsigned int c = 0; c < 4; c++)
			random_submit_cmd(s, &cmds[c], i);
		r = xioctl(DRM_IOCTL_SIMT_SUBMIT, &sub);
		if (!r && (sub.flags & DRM_SIMT_SUBMIT_FENCE_FD) && sub.fence_fd >= 0)
			close(sub.fence_fd);
		if (!r)
			pool.seqno[i] = sub.seqno;
		return r;
	}
	case OP_WAIT: {
		struct drm_simt_wait w = {
			.ctx_id = pick(s, pool.ctxs, i),
			.seqno = below(s, 4) ? pool.seqno[i] : below(s, 64),
			.timeout_ns = below(s, 2) ? 0 : 1000000ll * below(s, 20),
			.flags = below(s, 10) ? 0 : 1,
		};

		return xioctl(DRM_IOCTL_SIMT_WAIT, &w);
	}
	case OP_SYNCOBJ: {
		if (below(s, 2)) {
			struct drm_syncobj_create c = { .flags = below(s, 4) ? 0 :
							DRM_SYNCOBJ_CREATE_SIGNALED };

			r = xioctl(DRM_IOCTL_SYNCOBJ_CREATE, &c);
			if (!r)
				pool.syncobjs[i] = c.handle;
		} else {
			struct drm_syncobj_destroy d = { .handle = pick(s, pool.syncobjs, i) };

			r = xioctl(DRM_IOCTL_SYNCOBJ_DESTROY, &d);
		}
		return r;
	}
	case OP_USERQ_CREATE: {
		uint32_t entries = 1u << below(s, 6);
		struct drm_simt_userq_create c = {
			.ctx_id = pick(s, pool.ctxs, i), .ring_handle = pick(s, pool.bos, i),
			.ring_addr = pool.bo_addr[below(s, 4) ? i : below(s, SLOTS)],
			.ring_entries = below(s, 8) ? entries : (uint32_t)rnd(s),
			.flags = below(s, 10) ? 0 : 1,
		};

		r = xioctl(DRM_IOCTL_SIMT_USERQ_CREATE, &c);
		if (!r) {
			pool.uqs[i].ctx = c.ctx_id;
			pool.uqs[i].ring = c.ring_handle;
			pool.uqs[i].entries = c.ring_entries;
		}
		return r;
	}
	case OP_DOORBELL_MAP: {
		uint64_t q = below(s, 3) ? below(s, SIMT_MAX_QUEUES) : below(s, 64);
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, pool.fd,
			       (off_t)((0x10000 + q) * 4096));

		if (p == MAP_FAILED)
			return -errno;
		if (below(s, 2))
			r = poke((volatile uint32_t *)p, below(s, 64));
		if (below(s, 2) && !pool.uqs[i].db)
			pool.uqs[i].db = p;
		else
			munmap(p, 4096);
		return r;
	}
	case OP_USERQ_RING: {
		uint64_t bytes = (uint64_t)pool.uqs[i].entries * SIMT_CMD_SIZE;
		uint8_t *ring;

		if (!bytes)
			return -ENOENT;
		ring = map_bo(pool.uqs[i].ring, (bytes + 4095) & ~4095ull);
		if (ring) {
			for (uint32_t c = 0; c < 1 + below(s, 4); c++)
				random_hw_cmd(s, ring + below(s, pool.uqs[i].entries) *
					      SIMT_CMD_SIZE, pool.bo_addr[i]);
			munmap(ring, (bytes + 4095) & ~4095ull);
		}
		if (!pool.uqs[i].db)
			return ring ? 0 : -ENOMEM;
		return poke(pool.uqs[i].db + SIMT_DBREG_TAIL / 4,
			    below(s, 8) ? below(s, pool.uqs[i].entries + 1) : (uint32_t)rnd(s));
	}
	case OP_USERQ_WAIT: {
		struct drm_simt_userq_wait w = {
			.ctx_id = pick(s, pool.ctxs, i),
			.addr = below(s, 4) ? (uintptr_t)&pool : rnd(s),
			.value = below(s, 4), .timeout_ns = 1000000ll * below(s, 5),
			.flags = below(s, 10) ? 0 : 1,
		};

		return xioctl(DRM_IOCTL_SIMT_USERQ_WAIT, &w);
	}
	case OP_REOPEN: {
		/*
		 * A new file, and the old one closed under the other threads'
		 * feet: its contexts, objects and queues go, their ids go stale.
		 * (A process without privileges cannot open the node again.)
		 */
		int fresh = open(pool.node, O_RDWR | O_CLOEXEC), old;

		if (fresh < 0)
			return -errno;
		pthread_mutex_lock(&pool.lock);
		old = pool.fd;
		pool.fd = fresh;
		pthread_mutex_unlock(&pool.lock);
		close(old);
		return 0;
	}
	case OP_VRAM_FLOOD: {
		/* Objects past the VRAM, written: evictions under the others. */
		struct drm_simt_bo_create c = {
			.size = pool.vram_size / 4, .flags = DRM_SIMT_BO_VRAM,
		};
		uint8_t *p;

		r = xioctl(DRM_IOCTL_SIMT_BO_CREATE, &c);
		if (r)
			return r;
		p = map_bo(c.handle, c.size);
		if (p) {
			for (uint64_t off = 0; off < c.size && !r; off += 1 << 20)
				r = poke((volatile uint32_t *)(p + off), 1);
			munmap(p, c.size);
		}
		if (below(s, 2)) {
			keep_bo(i, c.handle, c.size);
		} else {
			struct drm_gem_close g = { .handle = c.handle };

			xioctl(DRM_IOCTL_GEM_CLOSE, &g);
		}
		return r;
	}
	default:
		return -ENOSYS;
	}
}

/*
 * How often each operation comes, out of the sum: building and using
 * state more often than tearing it down, the node reopened rarely.
 */
static const uint8_t op_weight[OP_NR] = {
	[OP_SETUP] = 6, [OP_PARAM] = 1, [OP_BO_CREATE] = 2, [OP_BO_CLOSE] = 1,
	[OP_BO_INFO] = 2, [OP_BO_MAP] = 2, [OP_CTX_CREATE] = 1,
	[OP_CTX_DESTROY] = 1, [OP_BIND] = 2, [OP_UNBIND] = 1, [OP_SUBMIT] = 8,
	[OP_WAIT] = 4, [OP_SYNCOBJ] = 2, [OP_USERQ_CREATE] = 1,
	[OP_USERQ_RING] = 6, [OP_USERQ_WAIT] = 2, [OP_DOORBELL_MAP] = 3,
};

static enum op choose(uint64_t *s)
{
	uint32_t sum = 0, x;
	enum op op;

	/* Rare: each takes the others' state away, or seconds of copying. */
	if (!below(s, 2000))
		return OP_REOPEN;
	if (!below(s, 500))
		return OP_VRAM_FLOOD;
	for (op = 0; op < OP_NR; op++)
		sum += op_weight[op];
	x = below(s, sum);
	for (op = 0; x >= op_weight[op]; op++)
		x -= op_weight[op];
	return op;
}

/* A new program: a few operations drawn by their weights. */
static void prog_new(uint64_t *s, struct prog *pr)
{
	pr->len = 1 + below(s, PROG_CALLS);
	for (uint32_t k = 0; k < pr->len; k++) {
		pr->calls[k].op = choose(s);
		pr->calls[k].seed = rnd(s);
	}
}

/* Copies to and from the shared memory, field by field, atomically. */
static void prog_load(struct prog *dst, const struct prog *src)
{
	dst->len = __atomic_load_n(&src->len, __ATOMIC_RELAXED);
	for (uint32_t k = 0; k < PROG_CALLS; k++) {
		dst->calls[k].op = __atomic_load_n(&src->calls[k].op, __ATOMIC_RELAXED);
		dst->calls[k].seed = __atomic_load_n(&src->calls[k].seed, __ATOMIC_RELAXED);
	}
}

static void prog_store(struct prog *dst, const struct prog *src)
{
	for (uint32_t k = 0; k < PROG_CALLS; k++) {
		__atomic_store_n(&dst->calls[k].op, src->calls[k].op, __ATOMIC_RELAXED);
		__atomic_store_n(&dst->calls[k].seed, src->calls[k].seed, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&dst->len, src->len, __ATOMIC_RELEASE);
}

/* Torn by a concurrent store, a program may hold anything. */
static int prog_valid(const struct prog *pr)
{
	if (pr->len < 1 || pr->len > PROG_CALLS)
		return 0;
	for (uint32_t k = 0; k < pr->len; k++)
		if (pr->calls[k].op >= OP_NR)
			return 0;
	return 1;
}

/* A program of the corpus into @pr; 0 if there is none yet. */
static int corpus_pick(uint64_t *s, struct prog *pr)
{
	uint32_t n = __atomic_load_n(&sh->corpus_added, __ATOMIC_RELAXED);

	if (!n)
		return 0;
	prog_load(pr, &sh->corpus[below(s, n < CORPUS ? n : CORPUS)]);
	return prog_valid(pr);
}

/*
 * @pr without its rare operations (each takes the other threads' state
 * away, or seconds), which a corpus program would repeat too often.
 */
static void corpus_add(const struct prog *pr)
{
	struct prog kept = { 0 };

	for (uint32_t k = 0; k < pr->len; k++)
		if (pr->calls[k].op != OP_REOPEN && pr->calls[k].op != OP_VRAM_FLOOD)
			kept.calls[kept.len++] = pr->calls[k];
	if (kept.len)
		prog_store(&sh->corpus[__atomic_fetch_add(&sh->corpus_added, 1,
							  __ATOMIC_RELAXED) % CORPUS], &kept);
}

/* One to three changes, as syzkaller's mutator makes them. */
static void prog_mutate(uint64_t *s, struct prog *pr)
{
	const size_t call_size = sizeof(pr->calls[0]);
	struct prog other;

	for (uint32_t m = 1 + below(s, 3); m; m--) {
		uint32_t k = below(s, pr->len), j, n;

		switch (below(s, 5)) {
		case 0:		/* the same operation, other arguments */
			pr->calls[k].seed = rnd(s);
			break;
		case 1:		/* another operation */
			pr->calls[k].op = choose(s);
			break;
		case 2:		/* a call more, before call k */
			if (pr->len == PROG_CALLS)
				break;
			memmove(&pr->calls[k + 1], &pr->calls[k], (pr->len - k) * call_size);
			pr->calls[k].op = choose(s);
			pr->calls[k].seed = rnd(s);
			pr->len++;
			break;
		case 3:		/* call k dropped */
			if (pr->len == 1)
				break;
			memmove(&pr->calls[k], &pr->calls[k + 1], (pr->len - k - 1) * call_size);
			pr->len--;
			break;
		default:	/* calls up to k, then another program's tail */
			if (!corpus_pick(s, &other))
				break;
			j = below(s, other.len);
			n = other.len - j;
			if (n > PROG_CALLS - k - 1)
				n = PROG_CALLS - k - 1;
			memcpy(&pr->calls[k + 1], &other.calls[j], n * call_size);
			pr->len = k + 1 + n;
			break;
		}
	}
}

/* A 64-bit mix (murmur3's finaliser): PCs and edges to bit numbers. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

/* Set bit @x's hash of @bits; 1 if it was clear. */
static int bit_is_new(uint64_t *bits, uint64_t x)
{
	uint32_t b = (uint32_t)(mix64(x) >> (64 - HASH_BITS));
	uint64_t mask = 1ull << (b % 64);

	return !(__atomic_fetch_or(&bits[b / 64], mask, __ATOMIC_RELAXED) & mask);
}

/* The PCs of one operation's trace into the shared maps: new edges. */
static uint32_t kcov_collect(const uint64_t *cover)
{
	uint64_t n = __atomic_load_n(&cover[0], __ATOMIC_RELAXED), prev = 0;
	uint32_t fresh = 0;

	if (n > COVER_WORDS - 1)
		n = COVER_WORDS - 1;
	for (uint64_t k = 1; k <= n; k++) {
		uint64_t pc = cover[k];

		if (bit_is_new(sh->pc_bits, pc))
			__atomic_add_fetch(&sh->pcs, 1, __ATOMIC_RELAXED);
		if (bit_is_new(sh->edge_bits, pc ^ mix64(prev))) {
			__atomic_add_fetch(&sh->edges, 1, __ATOMIC_RELAXED);
			fresh++;
		}
		prev = pc;
	}
	return fresh;
}

struct thread {
	pthread_t id;
	uint32_t index;			/* in sh->running */
	uint64_t seed;
	int kcov_fd;			/* -1 without KCOV */
	uint64_t *cover;
};

/*
 * KCOV's trace buffer for a thread, opened before the process drops its
 * privileges (debugfs is root's); the thread enables it for itself.
 */
static void kcov_open(struct thread *t)
{
	t->cover = NULL;
	t->kcov_fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);
	if (t->kcov_fd < 0)
		return;
	if (!ioctl(t->kcov_fd, KCOV_INIT_TRACE, (unsigned long)COVER_WORDS)) {
		void *p = mmap(NULL, COVER_WORDS * sizeof(uint64_t), PROT_READ | PROT_WRITE,
			       MAP_SHARED, t->kcov_fd, 0);

		if (p != MAP_FAILED) {
			t->cover = p;
			return;
		}
	}
	close(t->kcov_fd);
	t->kcov_fd = -1;
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;
	uint64_t s = t->seed, *cover = NULL;
	struct prog pr;

	if (t->cover && !ioctl(t->kcov_fd, KCOV_ENABLE, KCOV_TRACE_PC)) {
		cover = t->cover;
		__atomic_store_n(&sh->kcov, 1, __ATOMIC_RELAXED);
	}
	while (now_s() < deadline) {
		uint32_t fresh = 0;
		int mutated = cover && below(&s, 4) && corpus_pick(&s, &pr);

		if (mutated)
			prog_mutate(&s, &pr);
		else
			prog_new(&s, &pr);
		prog_store(&sh->running[t->index], &pr);
		for (uint32_t k = 0; k < pr.len && now_s() < deadline; k++) {
			uint64_t cs = pr.calls[k].seed | 1;	/* xorshift's state is never 0 */
			enum op op = pr.calls[k].op;

			if (cover)
				__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
			note(op, do_op(&cs, op));
			if (cover)
				fresh += kcov_collect(cover);
		}
		__atomic_add_fetch(&sh->runs[mutated], 1, __ATOMIC_RELAXED);
		if (fresh) {
			__atomic_add_fetch(&sh->finds[mutated], 1, __ATOMIC_RELAXED);
			corpus_add(&pr);
		}
	}
	return NULL;
}

/* One process: its node, its threads; prints what it ran. */
static int proc_main(const char *node, unsigned int p, uint64_t seed)
{
	struct drm_simt_get_param vram = { .param = DRM_SIMT_PARAM_VRAM_SIZE };
	struct rlimit memlock = { 32 << 20, 32 << 20 };
	struct sigaction sa = { .sa_handler = on_fault };
	struct thread threads[THREADS];
	unsigned int outcomes = 0;

	pool.node = node;
	pool.fd = open(node, O_RDWR | O_CLOEXEC);
	if (pool.fd < 0) {
		printf("process %u: open %s: %s\n", p, node, strerror(errno));
		return 1;
	}
	/*
	 * Pinned system memory within RLIMIT_MEMLOCK for root's processes
	 * too (no CAP_IPC_LOCK), and the fuzzer first in line when memory
	 * runs out anyway, not the test script.
	 */
	if (setrlimit(RLIMIT_MEMLOCK, &memlock) ||
	    drop_ipc_lock() ||
	    write_text("/proc/self/oom_score_adj", "1000")) {
		printf("process %u: cannot limit its memory: %s\n", p, strerror(errno));
		return 1;
	}
	for (unsigned int t = 0; t < THREADS; t++) {
		threads[t].index = p * THREADS + t;
		threads[t].seed = seed * 0x9e3779b97f4a7c15ull + threads[t].index + 1;
		kcov_open(&threads[t]);
	}
	if ((p & 1) && (setgid(65534) || setuid(65534))) {
		printf("process %u: cannot become uid 65534: %s\n", p, strerror(errno));
		return 1;
	}
	pthread_mutex_init(&pool.lock, NULL);
	pool.vram_size = xioctl(DRM_IOCTL_SIMT_GET_PARAM, &vram) ? 1 << 26 : vram.value;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	for (unsigned int t = 0; t < THREADS; t++)
		pthread_create(&threads[t].id, NULL, thread_main, &threads[t]);
	for (unsigned int t = 0; t < THREADS; t++)
		pthread_join(threads[t].id, NULL);
	for (unsigned int o = 0; o < OP_NR; o++)
		for (unsigned int e = 0; e <= MAX_ERRNO; e++)
			outcomes += seen[o][e];
	/* The parent adds these up, and keeps the outcomes' union. */
	printf("process %u (uid %u): %" PRIu64 " executions, %u outcomes\n",
	       p, (unsigned int)getuid(), executions, outcomes);
	for (unsigned int o = 0; o < OP_NR; o++)
		for (unsigned int e = 0; e <= MAX_ERRNO; e++)
			if (seen[o][e])
				printf("outcome %s %s\n", op_names[o],
				       e ? strerrorname_np(e) ?: "E?" : "ok");
	fflush(stdout);
	close(pool.fd);
	return 0;
}

/* What a kernel report starts with: scripts/fuzz-driver.sh's list. */
static const char *const report_marks[] = {
	"WARNING:", "BUG:", "Oops", "general protection fault", "Kernel panic",
	"UBSAN:", "KASAN", "possible circular locking", "possible recursive locking",
	"inconsistent lock state", "suspicious RCU usage", "list_add corruption",
	"list_del corruption", "RCU stall", "detected stalls", "blocked for more than",
	"ODEBUG",
};

static void print_prog(unsigned int index, const struct prog *pr)
{
	printf("program %u/%u:", index / THREADS, index % THREADS);
	for (uint32_t k = 0; k < pr->len && k < PROG_CALLS; k++)
		printf(" %s(0x%" PRIx64 ")",
		       pr->calls[k].op < OP_NR ? op_names[pr->calls[k].op] : "?",
		       pr->calls[k].seed);
	printf("\n");
}

/*
 * The watcher: for each of the first reports in the kernel log, the
 * programs in flight (process/thread: operation(seed) ...), under the
 * report's time stamp.  Its text is left to the kernel's own line, so
 * that scripts/fuzz-driver.sh counts each report once.
 */
static void watch_kernel_log(void)
{
	unsigned int dumps = 0;
	char rec[8192];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd < 0) {
		printf("watcher: /dev/kmsg: %s\n", strerror(errno));
		return;
	}
	lseek(fd, 0, SEEK_END);
	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		unsigned long long usec;
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		const char *msg;
		struct prog pr;
		size_t m;

		if (n < 0 && errno == EPIPE)	/* records overwritten meanwhile */
			continue;
		if (n <= 0) {
			poll(&pf, 1, 1000);
			continue;
		}
		rec[n] = 0;
		msg = strchr(rec, ';');
		if (!msg || sscanf(rec, "%*u,%*u,%llu", &usec) != 1 || dumps == 8)
			continue;
		for (m = 0; m < sizeof(report_marks) / sizeof(report_marks[0]); m++)
			if (strstr(msg, report_marks[m]))
				break;
		if (m == sizeof(report_marks) / sizeof(report_marks[0]))
			continue;
		dumps++;
		printf("programs running at the kernel's report [%5llu.%06llu]:\n",
		       usec / 1000000, usec % 1000000);
		for (unsigned int t = 0; t < PROCS * THREADS; t++) {
			prog_load(&pr, &sh->running[t]);
			print_prog(t, &pr);
		}
	}
}

int main(int argc, char **argv)
{
	static char outcome[OP_NR * (MAX_ERRNO + 1)][64];
	char line[256];
	unsigned int noutcomes = 0, dead = 0;
	uint64_t total = 0, n, seed;
	pid_t pids[PROCS], watcher;
	int out[2], status;
	unsigned long secs;
	FILE *f;

	if (argc != 4 || !(secs = strtoul(argv[1], NULL, 10))) {
		fprintf(stderr, "usage: simt-driver-fuzz SECONDS SEED NODE\n");
		return 2;
	}
	seed = strtoull(argv[2], NULL, 0);
	deadline = now_s() + secs;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("simt-driver-fuzz: mmap");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("simt-driver-fuzz: %u processes of %u threads for %lu s, seed %" PRIu64 "\n",
	       PROCS, THREADS, secs, seed);
	/* Before the pipe: the watcher must not hold its write end. */
	watcher = fork();
	if (watcher == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* a parent killed by timeout(1) */
		watch_kernel_log();
		_exit(0);
	}
	if (pipe(out))
		return 2;
	for (unsigned int p = 0; p < PROCS; p++) {
		pids[p] = fork();
		if (pids[p] == 0) {
			dup2(out[1], 1);
			close(out[0]);
			close(out[1]);
			_exit(proc_main(argv[3], p, seed));
		}
	}
	close(out[1]);
	f = fdopen(out[0], "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned int p, k;

		line[strcspn(line, "\n")] = 0;
		if (strncmp(line, "outcome ", 8)) {
			puts(line);
			if (sscanf(line, "process %u (uid %*u): %" SCNu64, &p, &n) == 2)
				total += n;
			continue;
		}
		for (k = 0; k < noutcomes && strcmp(outcome[k], line + 8); k++)
			;
		if (k == noutcomes && k < OP_NR * (MAX_ERRNO + 1) &&
		    strlen(line + 8) < sizeof(outcome[0]))
			strcpy(outcome[noutcomes++], line + 8);
	}
	for (unsigned int p = 0; p < PROCS; p++) {
		if (waitpid(pids[p], &status, 0) != pids[p] || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("process %u ended with status 0x%x\n", p, status);
			dead++;
		}
	}
	if (watcher > 0) {
		kill(watcher, SIGKILL);
		waitpid(watcher, NULL, 0);
	}
	printf("outcomes:");
	for (unsigned int k = 0; k < noutcomes; k++)
		printf("%s%s", k % 6 ? ", " : "\n  ", outcome[k]);
	printf("\n");
	if (sh->kcov) {
		printf("kcov: %u PCs, %u edges, %u programs in the corpus\n", sh->pcs,
		       sh->edges, sh->corpus_added < CORPUS ? sh->corpus_added : CORPUS);
		/* What the feedback gives: how often each kind found an edge. */
		printf("kcov: new edges from %" PRIu64 " of %" PRIu64 " new programs, %"
		       PRIu64 " of %" PRIu64 " mutated corpus programs\n",
		       sh->finds[0], sh->runs[0], sh->finds[1], sh->runs[1]);
		printf("fuzz-driver: %" PRIu64 " executions, %u coverage (KCOV edges of simt.ko)\n",
		       total, sh->edges);
	} else {
		printf("fuzz-driver: %" PRIu64 " executions, %u coverage (outcomes, no KCOV)\n",
		       total, noutcomes);
	}
	return dead ? 1 : 0;
}
