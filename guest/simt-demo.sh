#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# simt guest: the demo run by /init with simtguest.mode=demo (make run
# without a terminal).  It shows the device as the driver sees it,
# round-trips a few test interrupts, then, as the unprivileged user, shows
# simt-smi and runs a sample kernel with simt-run.

. /lib/simt/common.sh

echo "=== simt demo ==="
DEV=$(simt_pci_dev)
if [ -z "$DEV" ]; then
	echo "no simt device (is QEMU started with -device simt?)"
	simt_lspci
	exit 1
fi
SYS=/sys/bus/pci/devices/$DEV
DBG=$(simt_debugfs_dir "$DEV")

echo "PCI:"
simt_lspci "$DEV" | sed 's/^/  /'
if [ ! -e "$SYS/driver" ]; then
	echo "the simt driver is not bound; kernel log:"
	dmesg | grep -i simt | sed 's/^/  /'
	exit 1
fi
echo "device node: $(ls /dev/accel/ 2>/dev/null | tr '\n' ' ')"
echo "identification:"
for f in version caps sm_count vram_size; do
	printf '  %-10s %s\n' "$f" "$(cat "$SYS/simt/$f")"
done
echo "test interrupts (MSI-X vector $SIMT_IRQ_TEST):"
i=1
while [ $i -le 3 ]; do
	if timeout 10 sh -c "echo 1 > '$DBG/irq_test'"; then
		set -- $(cat "$DBG/irq_test")
		echo "  #$i: received, count $1, round trip $2 us"
	else
		echo "  #$i: NOT received"
	fi
	i=$((i + 1))
done
echo "driver state (debugfs info):"
sed 's/^/  /' "$DBG/info"
echo "interrupt vectors:"
grep simt /proc/interrupts | sed 's/^/  /'

# The tools, as an ordinary user of group render would run them.
echo "node: $(ls -l /dev/accel/accel0)"
echo "as $SIMT_USER ($(simt_as_user id)):"
echo "\$ simt-smi"
simt_as_user "timeout 10 simt-smi" 2>&1 | sed 's/^/  /'
run="simt-run /lib/simt/kernels/vecadd.elf vecadd --grid 1 --block 32 --arg buf:f32:0..15 --arg buf:f32:100..115 --arg buf:64 --arg 16 --dump 2:f32 --time"
echo "\$ $run"
out=$(simt_as_user "timeout 30 $run" 2>&1)
rc=$?
echo "$out" | sed 's/^/  /'
if [ "$rc" != 0 ]; then
	echo "simt-run failed (status $rc)"
	exit 1
fi

# Preemption: a long low-priority kernel and a stream of high-priority
# ones from another process, once per mode; the timelines and the summary
# of the response times go back to the host as base64 between markers
# (scripts/guest-run.sh decodes them).
echo "=== preemption demo ==="
out=/tmp/simt-demo
# Without preemption the high-priority kernels wait seconds of guest time
# for the long kernel under TCG: not a hang.
param=/sys/module/simt/parameters/job_timeout_ms
old_timeout=$(cat "$param")
echo 300000 > "$param"
if ! simt-preempt-demo --out "$out" --check; then
	echo "the preemption demo failed"
	exit 1
fi
echo "$old_timeout" > "$param"
for f in "$out"/timeline-* "$out"/summary.svg; do
	echo "=== simt-file $(basename "$f") ==="
	base64 "$f"
	echo "=== simt-file-end ==="
done
echo "=== simt demo done ==="
