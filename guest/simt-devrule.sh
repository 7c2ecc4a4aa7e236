#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# simt guest: the udev rule of the initramfs.  init runs busybox's uevent
# listener with this script, which it calls for every kernel uevent with
# the event's variables in the environment (ACTION, DEVNAME, ...): accel
# nodes get group render and mode 0660 when they appear, so that members
# of the group can open them, as a distribution's udev rules do.

case ${ACTION:-}:${DEVNAME:-} in
add:accel/accel[0-9]*)
	. /lib/simt/common.sh
	simt_accel_perms "/dev/$DEVNAME"
	;;
esac
