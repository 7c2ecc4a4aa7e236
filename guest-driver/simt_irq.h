/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: interrupts, one MSI-X vector per class (simt_irq.c).
 */
#ifndef __SIMT_IRQ_H__
#define __SIMT_IRQ_H__

#include <linux/types.h>

struct simt_device;

int simt_irq_init(struct simt_device *sdev);
void simt_irq_restore(struct simt_device *sdev);
void simt_irq_fini(struct simt_device *sdev);
int simt_irq_test(struct simt_device *sdev);
u64 simt_irq_count(struct simt_device *sdev, unsigned int cls);
const char *simt_irq_class_name(unsigned int cls);

#endif /* __SIMT_IRQ_H__ */
