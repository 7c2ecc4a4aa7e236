/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: interrupts, one MSI-X vector per class (simt_irq.c).
 */
#ifndef __SIMT_IRQ_H__
#define __SIMT_IRQ_H__

#include <linux/atomic.h>
#include <linux/types.h>

struct simt_device;

/* One MSI-X vector, serving one interrupt class. */
struct simt_irq_vec {
	struct simt_device *sdev;
	unsigned int cls;
	int irq;		/* Linux IRQ number, 0 when not requested */
	atomic64_t count;	/* interrupts of this class handled */
	char name[32];
};

int simt_irq_init(struct simt_device *sdev);
void simt_irq_restore(struct simt_device *sdev);
void simt_irq_fini(struct simt_device *sdev);
int simt_irq_test(struct simt_device *sdev);
u64 simt_irq_count(struct simt_device *sdev, unsigned int cls);
const char *simt_irq_class_name(unsigned int cls);

#endif /* __SIMT_IRQ_H__ */
