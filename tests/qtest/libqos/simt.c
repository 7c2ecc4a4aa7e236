// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libqos driver node for the simt accelerator (simt.h): "simt" consumes
 * a "pci-bus", so every test registered on it runs on each machine of
 * the build that has one.
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "hw/simt/simt-hw.h"
#include "simt.h"

static void *qsimt_get_driver(void *obj, const char *interface)
{
    QSimt *s = obj;

    if (!g_strcmp0(interface, "pci-device")) {
        return &s->dev;
    }
    g_error("simt has no interface %s", interface);
}

static void qsimt_start_hw(QOSGraphObject *obj)
{
    QSimt *s = container_of(obj, QSimt, obj);

    qpci_device_enable(&s->dev);
    s->regs = qpci_iomap(&s->dev, SIMT_BAR_REGS, &s->regs_size);
}

static void qsimt_destructor(QOSGraphObject *obj)
{
    QSimt *s = container_of(obj, QSimt, obj);

    qpci_iounmap(&s->dev, s->regs);
}

static void *qsimt_create(void *pci_bus, QGuestAllocator *alloc, void *addr)
{
    QSimt *s = g_new0(QSimt, 1);

    qpci_device_init(&s->dev, pci_bus, addr);
    s->obj.get_driver = qsimt_get_driver;
    s->obj.start_hw = qsimt_start_hw;
    s->obj.destructor = qsimt_destructor;
    return &s->obj;
}

static void qsimt_register_nodes(void)
{
    QPCIAddress addr = {
        .devfn = QPCI_DEVFN(4, 0),
        .vendor_id = SIMT_PCI_VENDOR_ID,
        .device_id = SIMT_PCI_DEVICE_ID,
    };
    QOSGraphEdgeOptions opts = {
        .extra_device_opts = "addr=04.0,sm-count=" stringify(QSIMT_SM_COUNT)
                             ",vram-size=64M",
    };

    add_qpci_address(&opts, &addr);
    qos_node_create_driver("simt", qsimt_create);
    qos_node_consumes("simt", "pci-bus", &opts);
    qos_node_produces("simt", "pci-device");
}

libqos_init(qsimt_register_nodes);
