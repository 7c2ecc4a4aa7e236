# SPDX-License-Identifier: GPL-2.0-or-later
#
# simt guest: helpers shared by init, the test and the demo scripts
# (sourced, busybox sh).

# The hardware contract's numbers (SIMT_PCI_VENDOR_ID, SIMT_IRQ_NR, ...),
# generated from include/hw/simt/simt-hw.h when the initramfs is built.
. /lib/simt/simt-hw.env

KVER=$(uname -r)
MODDIR=/lib/modules/$KVER
DRM_KO=$MODDIR/kernel/drivers/gpu/drm/drm.ko
# simt.ko needs drm_shmem_helper.ko, which needs drm_kms_helper.ko, and
# gpu-sched.ko (the DRM GPU scheduler).
DRM_HELPER_KOS="$MODDIR/kernel/drivers/gpu/drm/drm_kms_helper.ko $MODDIR/kernel/drivers/gpu/drm/drm_shmem_helper.ko $MODDIR/kernel/drivers/gpu/drm/gpu-sched.ko"
SIMT_KO=$MODDIR/extra/simt.ko
DEBUGFS=/sys/kernel/debug

# Load drm.ko, its helpers, then simt.ko unless already loaded; bounded in
# time.
simt_load_modules() {
	if [ ! -d /sys/module/drm ]; then
		timeout 60 insmod "$DRM_KO" || echo "simt-guest: insmod drm.ko failed"
	fi
	for ko in $DRM_HELPER_KOS; do
		m=$(basename "$ko" .ko | tr - _)
		if [ ! -d "/sys/module/$m" ]; then
			timeout 60 insmod "$ko" || echo "simt-guest: insmod $m.ko failed"
		fi
	done
	if [ ! -d /sys/module/simt ]; then
		timeout 60 insmod "$SIMT_KO" || echo "simt-guest: insmod simt.ko failed"
	fi
}

# The host directory shared with the guest (make run SHARE=DIR): QEMU's
# virtio-9p device with this mount tag (scripts/guest-run.sh), mounted by
# init at SIMT_SHARE_DIR when the kernel command line has
# simtguest.share=TAG.  The 9p modules and the ones they need are in the
# initramfs, listed in load order in /lib/simt/share-modules.
SIMT_SHARE_TAG=simtshare
SIMT_SHARE_DIR=/share

# simt_mount_share TAG: load the 9p modules and mount the share TAG at
# SIMT_SHARE_DIR; bounded in time.  Says why on failure.
simt_mount_share() {
	for rel in $(cat /lib/simt/share-modules); do
		m=$(basename "$rel" .ko | tr - _)
		[ -d "/sys/module/$m" ] && continue
		timeout 60 insmod "$MODDIR/$rel" ||
			{ echo "simt-guest: insmod $m.ko failed"; return 1; }
	done
	mkdir -p "$SIMT_SHARE_DIR"
	# msize: 512 KiB messages instead of the default 128 KiB make
	# reading a module or an image of a few MiB quicker.
	timeout 60 mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 \
		"$1" "$SIMT_SHARE_DIR" ||
		{ echo "simt-guest: mounting the share '$1' on $SIMT_SHARE_DIR failed"; return 1; }
}

# Print the PCI address of the first simt device (nothing if none).
simt_pci_dev() {
	for d in /sys/bus/pci/devices/*; do
		[ -r "$d/vendor" ] || continue
		if [ $(($(cat "$d/vendor"))) -eq $((SIMT_PCI_VENDOR_ID)) ] &&
		   [ $(($(cat "$d/device"))) -eq $((SIMT_PCI_DEVICE_ID)) ]; then
			basename "$d"
			return 0
		fi
	done
	return 1
}

# Name of a PCI class (the first four hex digits), for the few the guest
# sees.
simt_pci_class_name() {
	case $1 in
	0600) echo "Host bridge" ;;
	0601) echo "ISA bridge" ;;
	0604) echo "PCI bridge" ;;
	0106) echo "SATA controller" ;;
	0c05) echo "SMBus" ;;
	1200) echo "Processing accelerators" ;;
	*) echo "Class" ;;
	esac
}

# lspci -nnk look-alike from sysfs (busybox has no lspci); all devices, or
# the one at PCI address $1.
simt_lspci() {
	for d in /sys/bus/pci/devices/${1:-*}; do
		c=$(cut -c3-6 "$d/class")
		v=$(cut -c3- "$d/vendor")
		p=$(cut -c3- "$d/device")
		r=$(cut -c3- "$d/revision")
		echo "$(basename "$d") $(simt_pci_class_name "$c") [$c]: Device [$v:$p] (rev $r)"
		if [ -e "$d/driver" ]; then
			echo "	Kernel driver in use: $(basename "$(readlink "$d/driver")")"
		fi
	done
}

# The DRM debugfs directory of the device at PCI address $1: named after
# the device on current kernels; fall back to any accel directory with our
# files (older kernels name it after the minor).
simt_debugfs_dir() {
	if [ -d "$DEBUGFS/accel/$1" ]; then
		echo "$DEBUGFS/accel/$1"
		return
	fi
	for d in "$DEBUGFS"/accel/*; do
		if [ -e "$d/irq_test" ]; then
			echo "$d"
			return
		fi
	done
	echo "$DEBUGFS/accel/$1"
}

# The unprivileged user and the group that may use accel nodes, as a
# distribution sets them up (udev's "render" group for GPU nodes); the
# initramfs's /etc/passwd and /etc/group have them.
SIMT_USER=user
SIMT_GROUP=render

# The udev rule for accel nodes: group render, mode 0660.  Run by
# simt-devrule.sh for every node the kernel adds, and by init for the
# nodes that exist before the listener starts.
simt_accel_perms() {
	chgrp "$SIMT_GROUP" "$1" && chmod 0660 "$1"
}

# Run a shell command line as the unprivileged user (busybox su, as root:
# no password; the supplementary groups come from /etc/group).
simt_as_user() {
	su -s /bin/sh "$SIMT_USER" -c "$*"
}
