// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libqos machine node for x86_64's q35: its host bridge's PCI Express
 * root bus is reached through the same configuration ports as the pc
 * machine's (pci-bus-pc), so the qgraph's PCI device tests run on q35
 * too.
 */

#include "qemu/osdep.h"
#include "../libqtest.h"
#include "qemu/module.h"
#include "qgraph.h"
#include "pci-pc.h"
#include "malloc-pc.h"

typedef struct Q35Host {
    QOSGraphObject obj;
    QPCIBusPC pci;
} Q35Host;

typedef struct QX86Q35Machine {
    QOSGraphObject obj;
    QGuestAllocator alloc;
    Q35Host host;
} QX86Q35Machine;

static QOSGraphObject *q35_host_get_device(void *obj, const char *device)
{
    Q35Host *host = obj;

    if (!g_strcmp0(device, "pci-bus-pc")) {
        return &host->pci.obj;
    }
    g_error("%s not present in q35-pcihost", device);
}

static void q35_destructor(QOSGraphObject *obj)
{
    QX86Q35Machine *machine = container_of(obj, QX86Q35Machine, obj);

    alloc_destroy(&machine->alloc);
}

static void *q35_get_driver(void *obj, const char *interface)
{
    QX86Q35Machine *machine = obj;

    if (!g_strcmp0(interface, "memory")) {
        return &machine->alloc;
    }
    g_error("%s not present in x86_64/q35", interface);
}

static QOSGraphObject *q35_get_device(void *obj, const char *device)
{
    QX86Q35Machine *machine = obj;

    if (!g_strcmp0(device, "q35-pcihost")) {
        return &machine->host.obj;
    }
    g_error("%s not present in x86_64/q35", device);
}

static void *q35_create_machine(QTestState *qts)
{
    QX86Q35Machine *machine = g_new0(QX86Q35Machine, 1);

    machine->obj.get_device = q35_get_device;
    machine->obj.get_driver = q35_get_driver;
    machine->obj.destructor = q35_destructor;
    pc_alloc_init(&machine->alloc, qts, ALLOC_NO_FLAGS);
    machine->host.obj.get_device = q35_host_get_device;
    qpci_init_pc(&machine->host.pci, qts, &machine->alloc);
    return &machine->obj;
}

static void q35_machine_register_nodes(void)
{
    qos_node_create_machine("x86_64/q35", q35_create_machine);
    qos_node_contains("x86_64/q35", "q35-pcihost", NULL);
    qos_node_create_driver("q35-pcihost", NULL);
    qos_node_contains("q35-pcihost", "pci-bus-pc", NULL);
}

libqos_init(q35_machine_register_nodes);
