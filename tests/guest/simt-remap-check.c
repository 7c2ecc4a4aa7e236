// SPDX-License-Identifier: MIT
/*
 * simt-remap-check: reads the ID register of simt devices on one CPU
 * while another CPU switches a device's memory decoding off and on, and
 * counts the reads that did not return SIMT_ID_MAGIC.
 *
 *   simt-remap-check TOGGLES TOGGLED_DEV READ_DEV...
 *
 * The devices are PCI device directories of sysfs
 * (/sys/bus/pci/devices/0000:00:03.0), with no driver bound (a driver's
 * BARs cannot be mapped from user space).  Each switch changes the guest's physical memory map, which a
 * CPU model has to take into account at once on every CPU: a read of a
 * register of another device that lands anywhere else (another device,
 * another BAR, nothing) is counted, and would have crashed a QEMU whose
 * vCPUs looked up their cached mappings in the new map.  The reads come
 * sixteen in a row, so that most of them happen while the other CPU has
 * just changed the map.
 *
 * Prints what it did; exit status 0 if every read returned the magic
 * number, 1 if not, 2 on a usage or setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hw/simt/simt-hw.h"

#define MAX_READ_DEVS 8
#define PCI_COMMAND_OFFSET 4
#define PCI_COMMAND_MEMORY 0x2

static volatile const uint32_t *id_regs[MAX_READ_DEVS];
static int nread_devs;
static volatile int stop;
static uint64_t reads, wrong;
static uint32_t first_wrong;
static int first_wrong_dev = -1;

static void die(const char *what, const char *path)
{
	fprintf(stderr, "simt-remap-check: %s %s: %s\n", what, path,
		strerror(errno));
	exit(2);
}

static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		fprintf(stderr, "simt-remap-check: cannot run on CPU %d: %s\n",
			cpu, strerror(errno));
		exit(2);
	}
}

static void check(int dev, uint32_t v)
{
	/* Only this thread writes it; main() waits for the first. */
	__atomic_store_n(&reads, reads + 1, __ATOMIC_RELAXED);
	if (v != SIMT_ID_MAGIC) {
		if (!wrong++) {
			first_wrong = v;
			first_wrong_dev = dev;
		}
	}
}

#define READ4(d) do {					\
		check(d, id_regs[d][0]);		\
		check(d, id_regs[d][0]);		\
		check(d, id_regs[d][0]);		\
		check(d, id_regs[d][0]);		\
	} while (0)

static void *reader(void *arg)
{
	(void)arg;
	pin_to_cpu(1);
	while (!stop) {
		for (int d = 0; d < nread_devs; d++) {
			READ4(d);
			READ4(d);
			READ4(d);
			READ4(d);
		}
	}
	return NULL;
}

static volatile const uint32_t *map_registers(const char *dev)
{
	char path[512];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/resource0", dev);
	fd = open(path, O_RDONLY | O_SYNC);
	if (fd < 0)
		die("cannot open", path);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("cannot map", path);
	close(fd);
	return p;
}

static void write_command(int fd, const char *path, uint16_t cmd)
{
	if (pwrite(fd, &cmd, sizeof(cmd), PCI_COMMAND_OFFSET) != sizeof(cmd))
		die("cannot write the command register of", path);
}

int main(int argc, char **argv)
{
	char path[512];
	unsigned long toggles;
	pthread_t thread;
	uint16_t cmd;
	char *end;
	int fd;

	if (argc < 4 || argc - 3 > MAX_READ_DEVS) {
		fprintf(stderr, "usage: simt-remap-check TOGGLES TOGGLED_DEV "
			"READ_DEV... (1 to %d of them)\n", MAX_READ_DEVS);
		return 2;
	}
	toggles = strtoul(argv[1], &end, 10);
	if (*end || !toggles) {
		fprintf(stderr, "simt-remap-check: TOGGLES '%s' is not a "
			"number above 0\n", argv[1]);
		return 2;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "simt-remap-check: needs two CPUs\n");
		return 2;
	}
	for (int i = 3; i < argc; i++)
		id_regs[nread_devs++] = map_registers(argv[i]);
	for (int d = 0; d < nread_devs; d++) {
		if (id_regs[d][0] != SIMT_ID_MAGIC) {
			fprintf(stderr, "simt-remap-check: %s: ID reads 0x%08x "
				"before any switch\n", argv[3 + d], id_regs[d][0]);
			return 2;
		}
	}

	snprintf(path, sizeof(path), "%s/config", argv[2]);
	fd = open(path, O_RDWR);
	if (fd < 0)
		die("cannot open", path);
	if (pread(fd, &cmd, sizeof(cmd), PCI_COMMAND_OFFSET) != sizeof(cmd))
		die("cannot read the command register of", path);

	pin_to_cpu(0);
	if (pthread_create(&thread, NULL, reader, NULL) != 0) {
		fprintf(stderr, "simt-remap-check: cannot start the reader\n");
		return 2;
	}
	/* Once the reader runs: its first reads fill the TLB. */
	while (!__atomic_load_n(&reads, __ATOMIC_RELAXED))
		sched_yield();
	for (unsigned long i = 0; i < toggles; i++) {
		write_command(fd, path, cmd & ~PCI_COMMAND_MEMORY);
		write_command(fd, path, cmd | PCI_COMMAND_MEMORY);
	}
	write_command(fd, path, cmd);
	stop = 1;
	pthread_join(thread, NULL);
	close(fd);

	printf("%lu switches of %s's memory decoding, %" PRIu64 " reads of "
	       "%d other devices' ID, %" PRIu64 " wrong\n", toggles, argv[2],
	       reads, nread_devs, wrong);
	if (wrong) {
		printf("first wrong read: 0x%08x from %s\n", first_wrong,
		       argv[3 + first_wrong_dev]);
		return 1;
	}
	return 0;
}
