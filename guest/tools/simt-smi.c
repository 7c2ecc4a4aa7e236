// SPDX-License-Identifier: MIT
/*
 * simt-smi: what the simt devices of this machine are and what they are
 * doing, as far as the driver tells an ordinary user: GET_PARAM through
 * libsimt, the interrupt counts of /proc/interrupts, the processes that
 * have a node open (those of other users only for root), and the live
 * contexts and the VRAM evictions of debugfs, which only root can read.
 * See usage().
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <drm/simt_accel.h>
#include "hw/simt/simt-hw.h"
#include "libsimt.h"

static int kv;		/* key=value output */
static int usage_opt;	/* per-process usage (-p) */

static void usage(FILE *f)
{
	fprintf(f,
"usage: simt-smi [-k] [-p] [-d NODE]\n"
"\n"
"Show every simt device (/dev/accel/accel*) or NODE: the device and its\n"
"limits, interrupt counts, the processes using it, and its live contexts.\n"
"\n"
"  -k, --kv           print key=value lines instead of the table\n"
"                     (keys prefixed by the device index: dev0.sm_count=4)\n"
"  -p, --processes    also the usage of each process with the device open,\n"
"                     from /proc/PID/fdinfo (the driver's drm-usage-stats):\n"
"                     open files, contexts, compute time (kernels on SMs)\n"
"                     and copy-engine time, VRAM and system memory of its\n"
"                     objects, how much of its VRAM objects is evicted to\n"
"                     system memory now and how often they moved out and\n"
"                     back; '-' where the driver does not report it (before\n"
"                     0.3, before oversubscription, copy time before 0.6);\n"
"                     with -k: dev0.usageN=pid P comm C files F contexts N\n"
"                     compute_ns T cycles Y copy_ns T vram B system B\n"
"                     evicted B evictions N restores N\n"
"  -d, --device NODE  only this node\n"
"  -h, --help         this text\n"
"\n"
"What an ordinary user sees: everything but the other users' processes\n"
"and what the driver shows in debugfs, readable by root only: the contexts\n"
"and how often VRAM objects were evicted to system memory and restored\n"
"(a line shown only when it can be read).  The load line counts every process's contexts on the device and\n"
"those with submissions not yet finished (driver interface 0.4).\n");
}

/* One line of output: a labelled value, or key=value. */
static void field(int idx, const char *key, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void field(int idx, const char *key, const char *label, const char *fmt, ...)
{
	va_list ap;

	if (kv)
		printf("dev%d.%s=", idx, key);
	else
		printf("  %-16s ", label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static const char *caps_names(uint32_t caps, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{ DRM_SIMT_CAP_MSIX, "msix" }, { DRM_SIMT_CAP_QUEUES, "queues" },
		{ DRM_SIMT_CAP_MMU, "mmu" }, { DRM_SIMT_CAP_COPY, "copy" },
		{ DRM_SIMT_CAP_PREEMPT, "preempt" },
	};
	unsigned int i;
	size_t n = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (caps & names[i].bit)
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? " " : "",
				      names[i].name);
	return buf;
}

/* Interrupts per class of the device at @pci from /proc/interrupts. */
static void interrupts(int idx, const char *pci)
{
	char line[1024], suffix[64], out[512] = "";
	unsigned long long total = 0;
	size_t n = 0;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f) {
		field(idx, "interrupts", "interrupts", "unknown (/proc/interrupts: %s)",
		      strerror(errno));
		return;
	}
	snprintf(suffix, sizeof(suffix), "@%s", pci);
	while (fgets(line, sizeof(line), f)) {
		char *name = strstr(line, "simt-"), *at, *p, *end;
		unsigned long long count = 0;

		if (!name || !(at = strstr(name, suffix)))
			continue;
		/* "  24:   c0   c1  PCI-MSIX-...  0-edge  simt-queue@0000:00:03.0" */
		p = strchr(line, ':');
		for (p = p ? p + 1 : line; p < name; p = end) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			count += v;
		}
		*at = 0;
		total += count;
		n += snprintf(out + n, n < sizeof(out) ? sizeof(out) - n : 0, "%s%s %llu",
			      n ? ", " : "", name + 5, count);
	}
	fclose(f);
	field(idx, "interrupts", "interrupts", "%s", n ? out : "none found");
}

/*
 * The descriptors of process @pid that are open on the device @rdev:
 * @fn (if not NULL) is called for each, and their number returned; -1 if
 * this user may not look at the process (*@hidden is set then).
 */
static int node_fds(const char *pid, dev_t rdev, int *hidden,
		    void (*fn)(const char *pid, const char *fd, void *arg), void *arg)
{
	char path[600];
	struct dirent *fe;
	struct stat st;
	int n = 0;
	DIR *fds;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	fds = opendir(path);
	if (!fds) {
		*hidden |= errno == EACCES;
		return -1;
	}
	while ((fe = readdir(fds))) {
		if (fe->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, fe->d_name);
		if (stat(path, &st) || !S_ISCHR(st.st_mode) || st.st_rdev != rdev)
			continue;
		n++;
		if (fn)
			fn(pid, fe->d_name, arg);
	}
	closedir(fds);
	return n;
}

/* A process of /proc other than this one, by its directory entry. */
static int other_process(const struct dirent *de)
{
	return isdigit((unsigned char)de->d_name[0]) && atoi(de->d_name) != getpid();
}

/* Process @pid's command name, "" if unknown. */
static void proc_comm(const char *pid, char *comm, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	comm[0] = 0;
	if ((f = fopen(path, "r"))) {
		if (fgets(comm, len, f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
}

/* Processes with @node open that this user may look at. */
static void processes(int idx, const char *node)
{
	char comm[64], list[1024] = "";
	unsigned int seen = 0;
	struct dirent *de;
	struct stat want;
	int hidden = 0;
	size_t n = 0;
	DIR *proc;

	if (stat(node, &want) || !(proc = opendir("/proc")))
		return;
	while ((de = readdir(proc))) {
		if (!other_process(de) || node_fds(de->d_name, want.st_rdev, &hidden, NULL, NULL) <= 0)
			continue;
		seen++;
		proc_comm(de->d_name, comm, sizeof(comm));
		n += snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s%s %s",
			      n ? ", " : "", de->d_name, comm);
	}
	closedir(proc);
	field(idx, "processes", "processes", "%u%s%s%s", seen, seen ? " (" : "", list,
	      seen ? ")" : "");
	if (hidden)
		field(idx, "processes_hidden", "",
		      "other users' processes are visible to root only");
}

/* ---- per-process usage from /proc/PID/fdinfo (drm-usage-stats) ---- */

#define MAX_CLIENTS 64

/* One process's use of the device, summed over its DRM clients. */
struct usage {
	unsigned int files;		/* distinct clients (open files) */
	unsigned long long client[MAX_CLIENTS];
	/* sums; -1 while no client of the process reported the key */
	long long contexts, engine_ns, cycles, copy_ns, vram, system;
	long long evicted, evictions, restores;	/* oversubscribed VRAM */
};

static void usage_add(long long *sum, long long v)
{
	*sum = *sum < 0 ? v : *sum + v;
}

/* "123", "123 KiB", "4 MiB": bytes; -1 if it is none of them. */
static long long parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		return -1;
	while (*end == ' ')
		end++;
	if (!strncmp(end, "KiB", 3))
		v <<= 10;
	else if (!strncmp(end, "MiB", 3))
		v <<= 20;
	else if (!strncmp(end, "GiB", 3))
		v <<= 30;
	else if (*end && *end != '\n')
		return -1;
	return (long long)v;
}

/*
 * Add the client behind /proc/@pid/fdinfo/@fd to @u, unless the process
 * already showed it through another descriptor (same drm-client-id).
 * A driver without drm-usage-stats counts each descriptor as a client
 * with nothing known.
 */
static void usage_fd(const char *pid, const char *fd, void *arg)
{
	struct usage *u = arg;
	char path[600], line[256];
	long long contexts = -1, engine = -1, cycles = -1, copy = -1, vram = -1, sys = -1;
	long long evicted = -1, evictions = -1, restores = -1;
	unsigned long long id = 0;
	int have_id = 0;
	unsigned int i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", pid, fd);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		*v++ = 0;
		while (*v == ' ' || *v == '\t')
			v++;
		if (!strcmp(line, "drm-client-id")) {
			id = strtoull(v, NULL, 10);
			have_id = 1;
		} else if (!strcmp(line, "simt-contexts")) {
			contexts = strtoll(v, NULL, 10);
		} else if (!strcmp(line, "drm-engine-compute")) {
			engine = strtoll(v, NULL, 10);	/* "<n> ns" */
		} else if (!strcmp(line, "drm-cycles-compute")) {
			cycles = strtoll(v, NULL, 10);
		} else if (!strcmp(line, "drm-engine-copy")) {
			copy = strtoll(v, NULL, 10);
		} else if (!strcmp(line, "drm-total-vram")) {
			vram = parse_size(v);
		} else if (!strcmp(line, "drm-total-system")) {
			sys = parse_size(v);
		} else if (!strcmp(line, "simt-evicted-vram")) {
			evicted = parse_size(v);
		} else if (!strcmp(line, "simt-evictions")) {
			evictions = strtoll(v, NULL, 10);
		} else if (!strcmp(line, "simt-restores")) {
			restores = strtoll(v, NULL, 10);
		}
	}
	fclose(f);
	if (have_id) {
		for (i = 0; i < u->files && i < MAX_CLIENTS; i++)
			if (u->client[i] == id)
				return;
		if (u->files < MAX_CLIENTS)
			u->client[u->files] = id;
	}
	u->files++;
	if (contexts >= 0)
		usage_add(&u->contexts, contexts);
	if (engine >= 0)
		usage_add(&u->engine_ns, engine);
	if (cycles >= 0)
		usage_add(&u->cycles, cycles);
	if (copy >= 0)
		usage_add(&u->copy_ns, copy);
	if (vram >= 0)
		usage_add(&u->vram, vram);
	if (sys >= 0)
		usage_add(&u->system, sys);
	if (evicted >= 0)
		usage_add(&u->evicted, evicted);
	if (evictions >= 0)
		usage_add(&u->evictions, evictions);
	if (restores >= 0)
		usage_add(&u->restores, restores);
}

/* @v bytes as "12 KiB", "3.5 MiB"; "-" if unknown. */
static const char *fmt_bytes(long long v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else if (v < 1024)
		snprintf(buf, len, "%lld B", v);
	else if (v < (1ll << 20))
		snprintf(buf, len, "%.1f KiB", v / 1024.0);
	else
		snprintf(buf, len, "%.1f MiB", v / 1048576.0);
	return buf;
}

static const char *fmt_num(long long v, const char *fmt_scale, double scale, char *buf,
			   size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt_scale, v / scale);
	return buf;
}

/*
 * The usage of every process this user may look at that has @node's
 * device open (its descriptors link to a node with the same device
 * number), from the driver's fdinfo: no root, no debugfs needed.
 */
static void usage_table(int idx, const char *node)
{
	char path[64], comm[64];
	unsigned int shown = 0;
	struct dirent *de;
	struct stat want;
	int hidden = 0;
	DIR *proc;

	if (stat(node, &want) || !(proc = opendir("/proc")))
		return;
	if (!kv)
		printf("  %-16s %7s %-15s %5s %8s %12s %9s %10s %10s %10s %9s\n", "usage", "pid",
		       "command", "files", "contexts", "compute ms", "copy ms", "VRAM", "system",
		       "evicted", "out/back");
	while ((de = readdir(proc))) {
		struct usage u = { .contexts = -1, .engine_ns = -1, .cycles = -1,
				   .copy_ns = -1, .vram = -1, .system = -1, .evicted = -1,
				   .evictions = -1, .restores = -1 };
		char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32], b8[32];
		char moves[72];

		if (!other_process(de) ||
		    node_fds(de->d_name, want.st_rdev, &hidden, usage_fd, &u) <= 0 || !u.files)
			continue;
		proc_comm(de->d_name, comm, sizeof(comm));
		if (kv) {
			printf("dev%d.usage%u=pid %s comm %s files %u contexts %s compute_ns %s "
			       "cycles %s copy_ns %s vram %s system %s ", idx, shown, de->d_name,
			       comm, u.files,
			       fmt_num(u.contexts, "%.0f", 1, b1, sizeof(b1)),
			       fmt_num(u.engine_ns, "%.0f", 1, b2, sizeof(b2)),
			       fmt_num(u.cycles, "%.0f", 1, b3, sizeof(b3)),
			       fmt_num(u.copy_ns, "%.0f", 1, b8, sizeof(b8)),
			       fmt_num(u.vram, "%.0f", 1, b4, sizeof(b4)),
			       fmt_num(u.system, "%.0f", 1, path, sizeof(path)));
			printf("evicted %s evictions %s restores %s\n",
			       fmt_num(u.evicted, "%.0f", 1, b5, sizeof(b5)),
			       fmt_num(u.evictions, "%.0f", 1, b6, sizeof(b6)),
			       fmt_num(u.restores, "%.0f", 1, b7, sizeof(b7)));
		} else {
			snprintf(moves, sizeof(moves), "%s/%s",
				 fmt_num(u.evictions, "%.0f", 1, b6, sizeof(b6)),
				 fmt_num(u.restores, "%.0f", 1, b7, sizeof(b7)));
			printf("  %16s %7s %-15s %5u %8s %12s %9s %10s %10s %10s %9s\n", "",
			       de->d_name, comm, u.files,
			       fmt_num(u.contexts, "%.0f", 1, b1, sizeof(b1)),
			       fmt_num(u.engine_ns, "%.3f", 1e6, b2, sizeof(b2)),
			       fmt_num(u.copy_ns, "%.3f", 1e6, b8, sizeof(b8)),
			       fmt_bytes(u.vram, b3, sizeof(b3)),
			       fmt_bytes(u.system, b4, sizeof(b4)),
			       fmt_bytes(u.evicted, b5, sizeof(b5)), moves);
		}
		shown++;
	}
	closedir(proc);
	field(idx, "usage_processes", "usage of", "%u process%s%s", shown, shown == 1 ? "" : "es",
	      hidden ? " (other users' processes: root only)" : "");
}

/*
 * VRAM objects moved out of the VRAM and back (oversubscription), from
 * debugfs's stats: nothing if this user cannot read it or the driver
 * does not count them.
 */
static void vram_moves(int idx, const char *pci)
{
	long long evictions = -1, restores = -1, evicted = -1;
	char path[256], key[64], b[32];
	long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/stats", pci);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fscanf(f, "%63s %lld", key, &v) == 2) {
		if (!strcmp(key, "evictions"))
			evictions = v;
		else if (!strcmp(key, "restores"))
			restores = v;
		else if (!strcmp(key, "evicted_bytes"))
			evicted = v;
	}
	fclose(f);
	if (evictions < 0 || restores < 0 || evicted < 0)
		return;
	if (kv) {
		field(idx, "evictions", "", "%lld", evictions);
		field(idx, "restores", "", "%lld", restores);
		field(idx, "evicted_bytes", "", "%lld", evicted);
	} else {
		field(idx, "", "VRAM evictions", "%lld evictions, %lld restores, %s evicted now",
		      evictions, restores, fmt_bytes(evicted, b, sizeof(b)));
	}
}

/* The live contexts from debugfs, or why they cannot be shown. */
static void contexts(int idx, const char *pci, unsigned int max)
{
	char path[256], line[256];
	unsigned int live = 0, busy = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/contexts", pci);
	f = fopen(path, "r");
	if (!f) {
		field(idx, "contexts", "contexts", "unknown (%s: %s%s)", path, strerror(errno),
		      errno == EACCES ? "; debugfs is readable by root only" : "");
		return;
	}
	/* queue hw_ctx prio submitted completed tail head status error fault */
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	if (!kv)
		printf("  contexts         queue hw_ctx priority submitted completed error\n");
	while (fgets(line, sizeof(line), f)) {
		unsigned int q, hw, prio, err, status;
		unsigned long long sub, done;
		static const char *const prios[] = { "low", "normal", "high", "realtime" };

		if (sscanf(line, "%u %u %u %llu %llu %*u %*u %x %u", &q, &hw, &prio, &sub, &done,
			   &status, &err) != 7)
			continue;
		live++;
		busy += sub > done;
		if (kv)
			printf("dev%d.context%u=queue %u hw_ctx %u priority %s submitted %llu "
			       "completed %llu error %u\n", idx, live - 1, q, hw,
			       prio < 4 ? prios[prio] : "?", sub, done, err);
		else
			printf("  %16s %5u %6u %-8s %9llu %9llu %5u\n", "", q, hw,
			       prio < 4 ? prios[prio] : "?", sub, done, err);
	}
	fclose(f);
	field(idx, "contexts_live", "contexts live", "%u of %u", live, max);
	field(idx, "queues_busy", "queues busy", "%u", busy);
}

/*
 * The name of group @gid from /etc/group (a static program cannot use
 * getgrgid(), which needs glibc's NSS modules at run time).
 */
static const char *group_name(gid_t gid, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/etc/group", "r");

	snprintf(buf, len, "%u", (unsigned)gid);
	if (!f)
		return buf;
	while (fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (c2 && isdigit((unsigned char)c2[1]) && strtoul(c2 + 1, NULL, 10) == gid &&
		    (size_t)(c1 - line) < len) {
			memcpy(buf, line, c1 - line);
			buf[c1 - line] = 0;
			break;
		}
	}
	fclose(f);
	return buf;
}

/* DRM_SIMT_PARAM_PRESET numbers are the contract's: the driver checks it */
static const char *preset_name(uint64_t preset)
{
	static const struct simt_preset_name names[] = {
		SIMT_PRESET_NAMES(SIMT_PRESET_NAME)
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].preset == preset)
			return names[i].name;
	}
	return "unknown";
}

/* Show one device; 0 if it is one. */
static int show(int idx, const char *node)
{
	struct simt_device_info info;
	simt_device *dev;
	uint64_t v, busy;
	simt_status st;
	char caps[128];
	struct stat sb;

	st = simt_device_open(node, &dev);
	if (st == SIMT_ERROR_PERMISSION && !stat(node, &sb)) {
		char grp[64];

		fprintf(stderr, "simt-smi: %s: permission denied (mode %03o, group %s: "
			"ask to be added to that group)\n", node, sb.st_mode & 0777,
			group_name(sb.st_gid, grp, sizeof(grp)));
		return -1;
	}
	if (st) {
		fprintf(stderr, "simt-smi: %s\n", simt_last_error());
		return -1;
	}
	simt_device_get_info(dev, &info);
	if (!kv)
		printf("device %d: %s\n", idx, info.node);
	field(idx, "node", "node", "%s", info.node);
	field(idx, "pci", "PCI address", "%s", info.pci_address);
	field(idx, "driver", "driver", "%s %u.%u (%s)", info.driver_name, info.uapi_major,
	      info.uapi_minor, info.driver_desc);
	field(idx, "device_version", "device version", "%u.%u", info.device_major,
	      info.device_minor);
	field(idx, "sm_count", "SMs", "%u", info.sm_count);
	field(idx, "sm_blocks", "blocks per SM", "%u", info.sm_blocks);
	if (kv)
		field(idx, "vram_size", "", "%llu", (unsigned long long)info.vram_size);
	else
		field(idx, "", "VRAM", "%llu bytes (%llu MiB)", (unsigned long long)info.vram_size,
		      (unsigned long long)(info.vram_size >> 20));
	field(idx, "caps", "capabilities", "0x%08x %s", info.caps,
	      caps_names(info.caps, caps, sizeof(caps)));
	field(idx, "max_contexts", "max contexts", "%u", info.max_contexts);
	field(idx, "max_submit_cmds", "max commands", "%u per submission", info.max_submit_cmds);
	field(idx, "fixed_va_end", "images below", "0x%llx",
	      (unsigned long long)info.fixed_va_end);
	/* Parameters of interface 0.2: an older driver refuses them. */
	if (!simt_device_get_param(dev, DRM_SIMT_PARAM_PRESET, &v))
		field(idx, "preset", "preset", "%s", preset_name(v));
	else
		field(idx, "preset", "preset", "not reported by the driver");
	if (!simt_device_get_param(dev, DRM_SIMT_PARAM_CLOCK_MHZ, &v))
		field(idx, "clock_mhz", "clock", "%llu MHz", (unsigned long long)v);
	else
		field(idx, "clock_mhz", "clock", "not reported by the driver");
	/* Interface 0.4: what libsimt's least-loaded choice reads. */
	if (!simt_device_get_param(dev, DRM_SIMT_PARAM_CONTEXTS, &v) &&
	    !simt_device_get_param(dev, DRM_SIMT_PARAM_BUSY_CONTEXTS, &busy))
		field(idx, "load", "load", "%llu contexts, %llu busy",
		      (unsigned long long)v, (unsigned long long)busy);
	else
		field(idx, "load", "load", "not reported by the driver");
	interrupts(idx, info.pci_address);
	processes(idx, info.node);
	if (usage_opt)
		usage_table(idx, info.node);
	contexts(idx, info.pci_address, info.max_contexts);
	vram_moves(idx, info.pci_address);
	simt_device_close(dev);
	return 0;
}

int main(int argc, char **argv)
{
	const char *node = NULL;
	glob_t g;
	size_t i;
	int a, shown = 0, failed = 0;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[a], "-k") || !strcmp(argv[a], "--kv")) {
			kv = 1;
		} else if (!strcmp(argv[a], "-p") || !strcmp(argv[a], "--processes")) {
			usage_opt = 1;
		} else if ((!strcmp(argv[a], "-d") || !strcmp(argv[a], "--device")) &&
			   a + 1 < argc) {
			node = argv[++a];
		} else {
			fprintf(stderr, "simt-smi: %s '%s'\n(simt-smi --help gives the syntax)\n",
				argv[a][0] == '-' && (!strcmp(argv[a], "-d") ||
						      !strcmp(argv[a], "--device")) ?
				"no node after" : "unexpected argument", argv[a]);
			return 2;
		}
	}
	if (node)
		return show(0, node) ? 1 : 0;
	if (glob("/dev/accel/accel*", 0, NULL, &g)) {
		fprintf(stderr, "simt-smi: no accel device nodes (/dev/accel/accel*)\n");
		return 1;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		if (show(shown, g.gl_pathv[i]))
			failed++;
		else
			shown++;
	}
	globfree(&g);
	if (!shown)
		fprintf(stderr, "simt-smi: no simt device found\n");
	if (!kv)
		printf("%d simt device%s\n", shown, shown == 1 ? "" : "s");
	return shown && !failed ? 0 : 1;
}
