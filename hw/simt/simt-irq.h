/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the interrupt block (simt-irq.c).
 */
#ifndef HW_SIMT_SIMT_IRQ_H
#define HW_SIMT_SIMT_IRQ_H

typedef struct SimtState SimtState;

/* Latch an interrupt of class @cls and deliver it if it is unmasked. */
void simt_irq_raise(SimtState *s, unsigned int cls);
/* Send one message per class of @newly_pending that is unmasked. */
void simt_irq_deliver(SimtState *s, uint32_t newly_pending);
/* The INTx line after IRQ_STATUS or IRQ_MASK changed. */
void simt_irq_update(SimtState *s);
/* Nothing pending, everything masked. */
void simt_irq_reset(SimtState *s);

#endif /* HW_SIMT_SIMT_IRQ_H */
