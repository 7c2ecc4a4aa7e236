/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Shared helpers of the simt qtests that run kernels: the device and its
 * BARs, queues and rings in guest RAM, kernel images of $SIMT_KERNEL_DIR
 * in VRAM, launches and completion records.  Everything steps the
 * virtual clock; nothing sleeps.
 */
#ifndef SIMT_QTEST_H
#define SIMT_QTEST_H

#include "libqtest.h"
#include "libqos/pci.h"
#include "libqos/pci-pc.h"
#include "hw/simt/simt-hw.h"
#include "simt-elf.h"

#define SIMT_DEVFN          QPCI_DEVFN(4, 0)

/* Guest RAM layout: a ring per queue, completion records, semaphores. */
#define RING_ADDR(q)        (0x100000 + (q) * 0x10000)
#define RING_SIZE           64
#define RECORD_ADDR(q, i)   (0x300000 + ((q) * RING_SIZE + (i)) * 64)
#define SEM_ADDR            0x3f0000

/*
 * VRAM layout: the kernel image at its link address, then data, the
 * image's live table and preemption points, and local memory.
 */
#define VRAM_DATA           0x0100000
#define VRAM_LIVE           0x1f00000
#define VRAM_LOCAL          0x2000000

/* Longest a test waits, in virtual nanoseconds. */
#define WAIT_LIMIT_NS       (4 * 1000 * 1000 * 1000LL)

typedef struct Dev {
    QTestState *qts;
    QPCIBus *bus;
    QPCIDevice *dev;
    QPCIBar regs;
    QPCIBar doorbell;               /* BAR1, user queues' doorbells */
    QPCIBar vram;
    uint32_t tail[SIMT_MAX_QUEUES];
    uint32_t nqueues;
    uint64_t vram_size;
    uint32_t vram_next;
    uint32_t nsm, sm_blocks;
    uint32_t pt_next, page_next;    /* simt-mem-test's page pools */
    const struct simt_image *img;   /* the image in VRAM */
    uint32_t pp_addr;               /* its preemption points in VRAM */
    char *args;                     /* QEMU's options, for dev_migrate */
} Dev;

typedef struct Launch {
    const char *kernel;
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t args[SIMT_ARG_REGS];
    uint32_t dyn_shared;
    uint32_t flags;
    /*
     * Registers per thread to declare, at least the kernel's own (0: the
     * kernel's): the benchmarks give kernels the footprint of the seeds'.
     */
    uint32_t regs;
    /* A subgrid: blocks [first_block, first_block + block_count); 0: all */
    uint32_t first_block;
    uint32_t block_count;
    bool no_points;             /* launch without the preemption points */
} Launch;

/* False if $SIMT_KERNEL_DIR is not set (run by QEMU's own suite). */
bool simt_qtest_init(void);
const struct simt_image *image_get(const char *name);
uint32_t fbits(float f);

uint32_t rd(Dev *d, uint64_t off);
void wr(Dev *d, uint64_t off, uint32_t val);
uint32_t qrd(Dev *d, unsigned q, unsigned reg);
void qwr(Dev *d, unsigned q, unsigned reg, uint32_t val);
void queue_setup(Dev *d, unsigned q, uint32_t prio);

/* A device with @props (may be NULL), every queue enabled, "samples". */
Dev *dev_start(const char *props);
void dev_stop(Dev *d);
/*
 * Migrate the machine to a second QEMU started with the same options, at
 * virtual time @now (the clock's, which qtest cannot read without moving
 * it), and go on with it (the first one quits).
 */
void dev_migrate(Dev *d, int64_t now);
/* Put kernel image @name and its live table in VRAM. */
void use_image(Dev *d, const char *name);

/* A fresh VRAM buffer of @len bytes, filled from @data if not NULL. */
uint32_t vram_alloc(Dev *d, const void *data, size_t len);
void vram_read(Dev *d, uint32_t addr, void *buf, size_t len);

/* Put a command on queue @q's ring, TAIL not written yet; its index. */
uint32_t ring_put(Dev *d, unsigned q, const void *cmd);
/* Put a command on queue @q's ring and ring the doorbell; its index. */
uint32_t submit(Dev *d, unsigned q, const void *cmd);
/* LAUNCH @l on queue @q, filled from the image's metadata note. */
uint32_t launch(Dev *d, unsigned q, const Launch *l);
void read_record(Dev *d, unsigned q, uint32_t idx, struct simt_completion *r);
/* Step the clock until queue @q has run @idx or stopped; its state. */
uint32_t wait_queue(Dev *d, unsigned q, uint32_t idx);
/* Whether queue @q has run command @idx. */
bool queue_done(Dev *d, unsigned q, uint32_t idx);
/* Launch and wait for a kernel that must succeed. */
void run_ok(Dev *d, unsigned q, const Launch *l, struct simt_completion *r);

#endif /* SIMT_QTEST_H */
