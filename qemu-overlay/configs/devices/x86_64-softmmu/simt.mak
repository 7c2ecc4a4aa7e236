# Reduced x86_64 device set for simt: a q35 machine (PCIe, ICH9 with its
# serial port and AHCI), pcie-root-port for hotplug tests, and the device.
CONFIG_Q35=y
CONFIG_PCIE_PORT=y
CONFIG_SIMT=y
