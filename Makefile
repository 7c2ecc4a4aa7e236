# SPDX-License-Identifier: GPL-2.0-or-later
#
# Entry points.  `make check` and `make run` set up everything themselves on
# a Debian 12 machine (as root): host packages, QEMU with the simt device,
# the guest kernel and initramfs.  Downloads and the QEMU build are cached
# in $(SIMT_CACHE), outside the work tree, so later runs are incremental.

SIMT_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/simt
HOST_BUILD ?= $(CURDIR)/build/host
CHECK_NEEDS = qemu host guest

# SANITIZE=1: QEMU and the host programs built with AddressSanitizer and
# UBSan in build directories of their own (the normal builds are never
# touched), any report fatal; make check then runs the docs, unit and qtest
# suites (scripts/check.sh skips the guest one: it boots the guest with the
# normal QEMU, under TCG).
ifeq ($(SANITIZE),1)
QEMU_BUILD := $(shell SIMT_CACHE='$(SIMT_CACHE)' bash -c '. scripts/tree-cache.sh && echo $$simt_tree')/qemu-asan
HOST_BUILD := $(CURDIR)/build/host-asan
SIMT_QEMU_SANITIZE := 1
SIMT_SANITIZE := 1
HOST_MESON_OPTS := -Db_sanitize=address,undefined \
    -Dc_args='-g -fno-sanitize-recover=undefined -fno-omit-frame-pointer'
CHECK_NEEDS = qemu host
export QEMU_BUILD SIMT_QEMU_SANITIZE SIMT_SANITIZE
endif
# DEBUG_KERNEL=1: the guest on a debug kernel built from Debian's
# linux-source-6.12 (scripts/guest-debug-build.sh, options in
# scripts/guest-debug.config: lockdep, KASAN, debug objects, ...), with an
# initramfs of its own in $(SIMT_CACHE)/guest-debug; make check then runs
# the guest suite only (the others boot no kernel), make run boots it.
ifeq ($(DEBUG_KERNEL),1)
ifeq ($(SANITIZE),1)
$(error DEBUG_KERNEL=1 and SANITIZE=1 do not go together: SANITIZE=1 skips the guest suite)
endif
SIMT_GUEST_DEBUG := 1
export SIMT_GUEST_DEBUG
endif
export SIMT_CACHE HOST_BUILD

.PHONY: all setup qemu host guest check docs run bench bench-preempt lab \
    lab-check grade fuzz fuzz-driver patches clean

all: qemu host guest

setup:
	@scripts/setup-host.sh

qemu: setup
	@scripts/build-qemu.sh

host: setup
	@if [ ! -f $(HOST_BUILD)/build.ninja ]; then \
	    meson setup $(HOST_MESON_OPTS) $(HOST_BUILD) $(CURDIR); fi
	@ninja -C $(HOST_BUILD)

# The guest image holds the host build's kernel images and the OpenCL
# samples' images made on the host's platform.
guest: host
	@scripts/guest-fetch.sh
	@scripts/guest-build.sh

check: $(CHECK_NEEDS)
	@scripts/check.sh

# The device and the driver as upstream patch series, in build/patches/:
# qemu/ against the QEMU source the build uses, linux/ against
# linux-source-6.12 (scripts/make-patches.sh).
patches: qemu
	@scripts/make-patches.sh

# The docs' charts (the labs' and the timing model's occupancy curves),
# drawn from the tables the pages quote, as build/docs/CHART.svg.
docs: setup
	@/usr/bin/python3 scripts/check-charts.py docs build/docs | tail -1

# A shell in the guest with a terminal, else the demo script (scriptable).
# DEVICES=N gives the guest N simt devices (/dev/accel/accel0..N-1);
# SHARE=DIR mounts the host directory DIR on /share in the guest;
# CLOCK=virtual or host puts the guest CPU on the device's virtual clock or
# on host time (default: host for the shell, virtual for the demo);
# RECORD=FILE records the run, REPLAY=FILE replays it (docs/guest.rst).
run: qemu guest
	@SIMT_GUEST_NOBUILD=1 SIMT_DEVICES=$(or $(DEVICES),1) SIMT_SHARE=$(SHARE) \
	    SIMT_CLOCK=$(CLOCK) SIMT_RECORD=$(RECORD) SIMT_REPLAY=$(REPLAY) \
	    scripts/guest-run.sh

bench: qemu host guest
	@scripts/bench.sh

# The preemption figures alone (bench/preempt-bench.sh); KERNELS=DIR: seed
# 000's comparison on the kernels of DIR instead, as DIR/kernels.ini
# describes them (docs/labs/own-kernels.rst).
bench-preempt: qemu host
	@bench/preempt-bench.sh $(if $(KERNELS),--kernels '$(KERNELS)')

# The labs of docs/labs/: LAB=placement runs its experiment (lab) or its
# grader (lab-check), on POLICY=NAME[,NAME...] or the device's own.
lab: qemu host guest
	@scripts/lab.sh run $(LAB) $(POLICY)

lab-check: qemu host guest
	@scripts/lab.sh check $(LAB) $(POLICY)

# A student's file for LAB, graded in a clean checkout of this tree's
# commit with a cache of its own (docs/labs/grading.rst): FILE=PATH,
# SEED=N to reproduce a grading, RESULTS=PATH (results.json).
grade: setup
	@scripts/grade.sh $(LAB) $(FILE) $(or $(RESULTS),results.json)

# QEMU's generic-fuzz target on the device: clang, libFuzzer, ASan and
# UBSan, in a build of its own; FUZZ_SECONDS=N (600 by default).
fuzz: qemu
	@scripts/fuzz.sh

# The driver fuzzer in a guest on the debug kernel (scripts/fuzz-driver.sh):
# FUZZ_SECONDS=N (600 by default), FUZZ_SEED=S (the time by default).
fuzz-driver: qemu host
	@scripts/fuzz-driver.sh

clean:
	rm -rf build
