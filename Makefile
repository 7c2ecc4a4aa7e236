# SPDX-License-Identifier: GPL-2.0-or-later
#
# Entry points.  `make check` and `make run` set up everything themselves on
# a Debian 12 machine (as root): host packages, QEMU with the simt device,
# the guest kernel and initramfs.  Downloads and the QEMU build are cached
# in $(SIMT_CACHE), outside the work tree, so later runs are incremental.

SIMT_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/simt
HOST_BUILD ?= $(CURDIR)/build/host
export SIMT_CACHE HOST_BUILD

.PHONY: all setup qemu host guest check run bench lab lab-check fuzz clean

all: qemu host guest

setup:
	@scripts/setup-host.sh

qemu: setup
	@scripts/build-qemu.sh

host: setup
	@if [ ! -f $(HOST_BUILD)/build.ninja ]; then \
	    meson setup $(HOST_BUILD) $(CURDIR); fi
	@ninja -C $(HOST_BUILD)

guest: setup
	@scripts/guest-fetch.sh
	@scripts/guest-build.sh

check: qemu host guest
	@scripts/check.sh

# A shell in the guest with a terminal, else the demo script (scriptable).
# DEVICES=N gives the guest N simt devices (/dev/accel/accel0..N-1);
# SHARE=DIR mounts the host directory DIR on /share in the guest.
run: qemu guest
	@SIMT_GUEST_NOBUILD=1 SIMT_DEVICES=$(or $(DEVICES),1) SIMT_SHARE=$(SHARE) \
	    scripts/guest-run.sh

bench: qemu host guest
	@scripts/bench.sh

# The labs of docs/labs/: LAB=placement runs its experiment (lab) or its
# grader (lab-check), on POLICY=NAME[,NAME...] or the device's own.
lab: qemu host guest
	@scripts/lab.sh run $(LAB) $(POLICY)

lab-check: qemu host guest
	@scripts/lab.sh check $(LAB) $(POLICY)

# QEMU's generic-fuzz target on the device: clang, libFuzzer, ASan and
# UBSan, in a build of its own; FUZZ_SECONDS=N (600 by default).
fuzz: qemu
	@scripts/fuzz.sh

clean:
	rm -rf build
