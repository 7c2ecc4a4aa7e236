# Reduced x86_64 device set for simt: a q35 machine (PCIe, ICH9 with its
# serial port and AHCI), the pc machine (i440FX: a conventional PCI bus,
# for the qgraph tests, which run on every machine with a PCI bus),
# pcie-root-port for hotplug tests, and the device;
# virtio-9p-pci (with virtio-pci) so that a host directory can be shared
# with the guest (make run SHARE=DIR, docs/guest.rst).
CONFIG_Q35=y
CONFIG_I440FX=y
CONFIG_PCIE_PORT=y
CONFIG_SIMT=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_9P=y
