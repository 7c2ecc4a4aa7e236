# Reduced x86_64 device set for simt: a q35 machine (PCIe, ICH9 with its
# serial port and AHCI), pcie-root-port for hotplug tests, and the device;
# virtio-9p-pci (with virtio-pci) so that a host directory can be shared
# with the guest (make run SHARE=DIR, docs/guest.rst).
CONFIG_Q35=y
CONFIG_PCIE_PORT=y
CONFIG_SIMT=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_9P=y
