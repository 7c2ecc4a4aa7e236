/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the interrupt block.  Every block of the device signals an event
 * through simt_irq_raise; the status (IRQ_STATUS) and mask (IRQ_MASK)
 * registers decide what is delivered, one MSI-X vector per class, or a
 * level INTx line without MSI-X.
 */

#include "qemu/osdep.h"
#include "hw/pci/msix.h"
#include "simt.h"
#include "simt-irq.h"
#include "trace.h"

static bool simt_use_msix(SimtState *s)
{
    return msix_enabled(PCI_DEVICE(s));
}

/*
 * Without MSI-X the device falls back to a level-triggered INTx line that
 * is high while any unmasked status bit is set.
 */
void simt_irq_update(SimtState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    pci_set_irq(pdev, !simt_use_msix(s) && (s->irq_status & s->irq_mask));
}

/* Send one message per newly pending, unmasked class. */
void simt_irq_deliver(SimtState *s, uint32_t newly_pending)
{
    uint32_t bits = newly_pending & s->irq_mask;

    for (unsigned int cls = 0; cls < SIMT_IRQ_NR; cls++) {
        if (!(bits & SIMT_IRQ_BIT(cls))) {
            continue;
        }
        trace_simt_irq_deliver(cls, simt_use_msix(s));
        if (simt_use_msix(s)) {
            msix_notify(PCI_DEVICE(s), cls);
        }
        s->irq_count++;
    }
    simt_irq_update(s);
}

void simt_irq_raise(SimtState *s, unsigned int cls)
{
    uint32_t bit = SIMT_IRQ_BIT(cls);
    uint32_t newly = bit & ~s->irq_status;

    s->irq_status |= bit;
    trace_simt_irq_raise(cls, s->irq_status, s->irq_mask);
    simt_irq_deliver(s, newly);
}

void simt_irq_reset(SimtState *s)
{
    s->irq_status = 0;
    s->irq_mask = 0;
    s->irq_count = 0;
    simt_irq_update(s);
}
