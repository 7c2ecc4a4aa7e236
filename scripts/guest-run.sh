#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Boot the guest (Debian kernel + our initramfs) on QEMU with the simt
# device, under TCG on -M q35.
#
#   scripts/guest-run.sh test    run the in-guest tests; the serial log is
#                                saved, printed, and checked (TAP) by
#                                scripts/tap-check.py; exit 0 only if all pass
#   scripts/guest-run.sh demo    run the demo script, print, power off;
#                                exit 1 if it did not complete
#   scripts/guest-run.sh bench   run the in-guest benchmark (simt-bench),
#                                print, power off; exit 1 if it failed
#   scripts/guest-run.sh shell   a shell in the guest (Ctrl-A X quits QEMU)
#   scripts/guest-run.sh         shell if stdin is a terminal, else demo
#
# Environment:
#   QEMU             QEMU binary (default this tree's build:
#                    ${SIMT_CACHE}/trees/ID/qemu-build/qemu-system-x86_64,
#                    scripts/tree-cache.sh)
#   SIMT_CACHE       cache directory (default ${XDG_CACHE_HOME:-~/.cache}/simt)
#   SIMT_DEVICE      the -device argument (default "simt"; empty: no device)
#   SIMT_DEVICES     how many such devices the guest gets (default 1, at
#                    most 8); the guest sees /dev/accel/accel0.. in PCI order
#   GUEST_MACHINE    the -M argument (default "q35,sata=off")
#   SIMT_CLOCK       virtual: the guest CPU on the device's virtual clock
#                    (-icount shift=0,sleep=off: one instruction per ns,
#                    idle time skipped), the machine's only inputs fixed
#                    (RTC start, no RDRAND/RDSEED, no KASLR), so that a run
#                    is the same every time and guest times are device
#                    times; host: the guest CPU on host time, faster under
#                    TCG but what the guest measures is host noise.
#                    Default: virtual for demo and bench, host for test
#                    and shell (docs/guest.rst, "One clock")
#   SIMT_RECORD      FILE: record the run (QEMU's record/replay, on the
#                    virtual clock, one CPU) into FILE, with the kernel,
#                    initramfs and QEMU arguments beside it (FILE.vmlinuz,
#                    FILE.initrd, FILE.args) (make run RECORD=FILE)
#   SIMT_REPLAY      FILE: replay that recording: the same console output,
#                    device included; every other setting is the
#                    recording's (make run REPLAY=FILE)
#   EXTRA_QEMU_ARGS  more QEMU arguments (word-split)
#   EXTRA_APPEND     more kernel command line arguments
#   GUEST_TIMEOUT    wall-clock limit in seconds for test, demo and bench
#                    (default 900, three times as long on the debug
#                    kernel: it only stops a guest that hangs, so it leaves
#                    room for a loaded host)
#   SIMT_GUEST_DEBUG=1  boot the debug kernel (make ... DEBUG_KERNEL=1,
#                    scripts/guest-debug-build.sh) from
#                    ${SIMT_CACHE}/guest-debug, with this tree's initramfs
#                    for it and logs in the tree's guest-debug/
#   GUEST_LOG        where the test log goes (default the tree's
#                    ${SIMT_CACHE}/trees/ID/guest/test.log)
#   SIMT_HOTPLUG     test mode: the (one) simt device sits in a PCIe root
#                    port, and is unplugged and plugged in again when the
#                    guest asks (the test hot_unplug; scripts/guest-hotplug.py)
#   SIMT_MIGRATE     test mode: migrate the running guest into a second QEMU
#                    when it prints "=== simt migrate now ===" (the test
#                    migrate_resume; scripts/guest-migrate.py)
#   SIMT_SHARE       a host directory to share with the guest (make run
#                    SHARE=DIR): QEMU's virtio-9p, mounted by the guest's
#                    init on /share; the guest sees the host's owners and
#                    modes, so what the user should read must be readable
#                    by others (docs/guest.rst, "Bringing your own")
#   SIMT_VCPU_QUOTA  PERCENT (10-100): QEMU's vCPU threads get at most
#                    PERCENT % of one host core between them (a quota of
#                    the cgroup v1 cpu controller, as root), the device
#                    and the rest of QEMU what they had: a slow guest
#                    against the device, to show that a test holds what
#                    it waits for (docs/guest.rst, "Holding what a test
#                    waits for")
#   SIMT_GUEST_NOBUILD=1  do not run scripts/guest-build.sh first
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
export SIMT_CACHE
# shellcheck source=scripts/tree-cache.sh
. "$here/tree-cache.sh"
# The guest's kernel is shared (gdir); its initramfs and logs are this
# tree's (odir).
debug=$simt_guest_debug gdir=$simt_guest_kernel odir=$simt_guest
QEMU=${QEMU:-$QEMU_BUILD/qemu-system-x86_64}
SIMT_DEVICE=${SIMT_DEVICE-simt}
SIMT_DEVICES=${SIMT_DEVICES:-1}
# q35 without its built-in AHCI controller: the guest has no disk, and
# SeaBIOS spends about 30 s probing the empty SATA ports under TCG.
GUEST_MACHINE=${GUEST_MACHINE:-q35,sata=off}

log() { echo "guest-run: $*" >&2; }
# The console without the files the demo sends back over it (base64
# between markers): those go to the log only, not to the terminal.
hide_files() {
    awk '/^=== simt-file [A-Za-z0-9._-]+ ===\r?$/ { skip = 1 }
         !skip { print; fflush() }
         /^=== simt-file-end ===\r?$/ { skip = 0 }'
}
die() { echo "guest-run: error: $*" >&2; exit 1; }

mode=${1:-}
if [ -z "$mode" ]; then
    if [ -t 0 ]; then mode=shell; else mode=demo; fi
fi
case $mode in
test | demo | bench | shell) ;;
*) die "unknown mode '$mode' (test, demo, bench or shell)" ;;
esac
# KASAN, lockdep and the object debugging make the debug kernel about
# three times slower under TCG (docs/guest.rst, "The debug kernel").
slow=1
[ "$debug" = 1 ] && slow=3
record=${SIMT_RECORD:-} replay=${SIMT_REPLAY:-}
[ -n "$record" ] && [ -n "$replay" ] && die "SIMT_RECORD and SIMT_REPLAY: give one of them"
if [ -n "$record$replay" ]; then
    [ "${SIMT_CLOCK:-virtual}" = virtual ] ||
        die "a recorded run is on the virtual clock: drop SIMT_CLOCK=$SIMT_CLOCK"
    SIMT_CLOCK=virtual
fi
case $mode in
demo | bench) SIMT_CLOCK=${SIMT_CLOCK:-virtual} ;;
*) SIMT_CLOCK=${SIMT_CLOCK:-host} ;;
esac
case $SIMT_CLOCK in
virtual | host) ;;
*) die "SIMT_CLOCK=$SIMT_CLOCK: give virtual or host" ;;
esac
# Only a stop for a guest that hangs, never a verdict on its speed: a
# loaded host (a make check beside a make bench) can take several times
# as long as a quiet one.
GUEST_TIMEOUT=${GUEST_TIMEOUT:-$((900 * slow))}

[ -x "$QEMU" ] || die "QEMU not found at $QEMU (build it, or set QEMU=)"

# A replay runs the recording's own QEMU arguments, kernel and
# initramfs, with rr=record turned into rr=replay: nothing of today's
# settings or tree may differ, or the replay stops where they do.
if [ -n "$replay" ]; then
    for f in "$replay" "$replay.args" "$replay.vmlinuz" "$replay.initrd"; do
        [ -f "$f" ] || die "$f missing: is $replay a recording of SIMT_RECORD (make run RECORD=)?"
    done
    mapfile -d '' -t args < "$replay.args"
    for i in "${!args[@]}"; do
        case ${args[$i]} in
        *,rr=record,*) args[$i]=${args[$i]/,rr=record,/,rr=replay,} ;;
        esac
    done
    log "replaying $replay (Ctrl-A X quits)"
    if [ -t 0 ]; then
        exec "$QEMU" "${args[@]}"
    fi
    rc=0
    timeout -k 10 "$GUEST_TIMEOUT" "$QEMU" "${args[@]}" < /dev/null 2>&1 |
        hide_files || rc=$?
    [ "$rc" = 124 ] && log "timed out after $GUEST_TIMEOUT s"
    exit "$rc"
fi
case $SIMT_DEVICES in
[1-8]) ;;
*) die "SIMT_DEVICES=$SIMT_DEVICES: give a number of devices from 1 to 8" ;;
esac
if [ -n "$SIMT_DEVICE" ]; then
    "$QEMU" -device "${SIMT_DEVICE%%,*},help" >/dev/null 2>&1 ||
        die "$QEMU has no '${SIMT_DEVICE%%,*}' device"
fi

share= share_tag=simtshare
if [ -n "$record" ]; then
    # What comes from outside the guest and the recording is refused.
    [ -z "${SIMT_SHARE:-}" ] ||
        die "a run with a shared directory cannot be recorded: the guest reads the host's files through virtio-9p, outside the recording (drop SHARE)"
    [ -z "${SIMT_HOTPLUG:-}${SIMT_MIGRATE:-}" ] ||
        die "hot-plugging and migration are driven through QMP, outside the recording: they cannot be recorded"
    mkdir -p "$(dirname "$record")"
fi
if [ -n "${SIMT_SHARE:-}" ]; then
    [ -d "$SIMT_SHARE" ] || die "SIMT_SHARE=$SIMT_SHARE is not a directory"
    share=$(cd "$SIMT_SHARE" && pwd -P)
    case $share in
    *,*) die "SIMT_SHARE=$SIMT_SHARE: QEMU cannot share a path with a comma" ;;
    esac
    "$QEMU" -device virtio-9p-pci,help >/dev/null 2>&1 ||
        die "$QEMU has no virtio-9p-pci device (rebuild it: scripts/build-qemu.sh)"
fi

if [ -z "${SIMT_GUEST_NOBUILD:-}" ]; then
    SIMT_GUEST_DEBUG=$debug "$here/guest-build.sh"
fi
mkdir -p "$odir"
kernel=$gdir/vmlinuz
initrd=$odir/initrd.cpio.gz
if [ "$debug" = 1 ]; then
    [ -e "$kernel" ] || die "no debug kernel (run scripts/guest-debug-build.sh)"
    [ -e "$initrd" ] || die "no debug initramfs (run SIMT_GUEST_DEBUG=1 scripts/guest-build.sh)"
else
    [ -e "$kernel" ] || die "no guest kernel (run scripts/guest-fetch.sh)"
    [ -e "$initrd" ] || die "no initramfs (run scripts/guest-build.sh)"
fi

# Firmware from Debian's seabios and qemu-system-data, gathered in one
# directory for -L.
fw=$SIMT_CACHE/firmware
mkdir -p "$fw"
for f in /usr/share/seabios/bios-256k.bin /usr/share/qemu/linuxboot_dma.bin \
         /usr/share/qemu/kvmvapic.bin; do
    [ -e "$f" ] || die "$f missing (install seabios and qemu-system-data: scripts/setup-host.sh)"
    ln -sfn "$f" "$fw/$(basename "$f")"
done

# loglevel=5 after quiet: the console gets warnings too (WARN() splats,
# lockdep reports and the stacks of KASAN reports are printed at the
# warning level, which quiet alone keeps off it), so that tap-check.py's
# kernel log test sees them.
# no_timer_check: the kernel's boot check that the IO-APIC delivers the
# timer counts ticks against a delay loop, and a guest CPU on host time
# starved by a loaded host misses it and panics ("IO-APIC + timer doesn't
# work"); QEMU's q35 routes the timer right, the check has nothing to find.
append="console=ttyS0 quiet loglevel=5 panic=-1 no_timer_check simtguest.mode=$mode"

# Tell the guest what the device was configured with, so the tests can check
# that the driver reads the same: the defaults that "-device simt,help"
# states (none when a preset is chosen), overridden by the properties given
# in SIMT_DEVICE.  What is not known is not checked.
size_bytes() {   # QEMU size syntax: a number with an optional k/M/G/T suffix
    local n=${1%[kKmMgGtT]} mult=1
    case $1 in
    *[kK]) mult=$((1 << 10)) ;;
    *[mM]) mult=$((1 << 20)) ;;
    *[gG]) mult=$((1 << 30)) ;;
    *[tT]) mult=$((1 << 40)) ;;
    esac
    case $n in '' | *[!0-9]*) return 1 ;; esac
    echo $((n * mult))
}
if [ "${SIMT_DEVICE%%,*}" = simt ]; then
    help=$("$QEMU" -device simt,help 2>/dev/null || true)
    exp_sm=$(printf '%s\n' "$help" | sed -n 's/^ *sm-count=.*default: *\([0-9]*\).*/\1/p')
    exp_vram=$(printf '%s\n' "$help" | sed -n 's/^ *vram-size=.*default: *\([0-9]*\).*/\1/p')
    IFS=, read -r -a props <<< "$SIMT_DEVICE"
    # A preset brings its own defaults, which the help text does not show.
    case ",${SIMT_DEVICE#*,}," in *,preset=*) exp_sm= exp_vram= ;; esac
    for p in "${props[@]:1}"; do
        case $p in
        sm-count=*) exp_sm=${p#sm-count=} ;;
        vram-size=*) exp_vram=$(size_bytes "${p#vram-size=}" || true) ;;
        esac
    done
    [ -n "$exp_sm" ] && append+=" simtguest.sm_count=$exp_sm"
    [ -n "$exp_vram" ] && append+=" simtguest.vram_size=$exp_vram"
fi
# The guest's own watchdog fires a little before ours.
guest_limit=$(( GUEST_TIMEOUT > 60 ? GUEST_TIMEOUT - 30 : GUEST_TIMEOUT ))
append+=" simtguest.timeout=$guest_limit"
[ -n "$SIMT_DEVICE" ] && append+=" simtguest.devices=$SIMT_DEVICES"
[ -n "$share" ] && append+=" simtguest.share=$share_tag"
cpu=max smp=2
clock_args=()
if [ "$SIMT_CLOCK" = virtual ]; then
    # shift=0: a guest instruction takes 1 ns, a cycle of the device's
    # default 1000 MHz clock, so guest and device work share one time
    # line.  What is left of the host in the guest is fixed too: the
    # RTC's start (it then follows the virtual clock), the host's random
    # numbers (RDRAND, RDSEED) and the kernel's random placement.
    icount=shift=0,sleep=off
    # QEMU records one CPU only: a recorded run's threads interleave but
    # never run at the same instant.
    [ -n "$record" ] && icount+=,rr=record,rrfile=$record smp=1
    clock_args=(-icount "$icount" -rtc base=2026-01-01T00:00:00,clock=vm)
    cpu=max,-rdrand,-rdseed
    append+=" nokaslr simtguest.clock=virtual"
else
    # On host time a loaded host can keep a vCPU thread off the CPU for
    # longer than RCU's default 21 s stall warning; a real stall still
    # shows after a minute, well within the boot's limit.
    append+=" rcupdate.rcu_cpu_stall_timeout=60"
fi
[ -n "${EXTRA_APPEND:-}" ] && append+=" $EXTRA_APPEND"

args=(
    -M "$GUEST_MACHINE" -accel tcg -cpu "$cpu" -m 1024 -smp "$smp"
    "${clock_args[@]}"
    -nographic -vga none -nic none -no-reboot
    -L "$fw"
    -kernel "$kernel" -initrd "$initrd" -append "$append"
)
# SIMT_VCPU_QUOTA: a cgroup of this run's, which a watcher in the
# background gives QEMU's vCPU threads ("CPU N/TCG", named with
# debug-threads) as they appear, and removes once QEMU is gone.
if [ -n "${SIMT_VCPU_QUOTA:-}" ]; then
    case $SIMT_VCPU_QUOTA in
    [1-9][0-9] | 100) ;;
    *) die "SIMT_VCPU_QUOTA=$SIMT_VCPU_QUOTA: give a percentage of one core, 10 to 100" ;;
    esac
    cpu_cg=/sys/fs/cgroup/cpu
    [ -w "$cpu_cg/tasks" ] ||
        die "SIMT_VCPU_QUOTA needs the cgroup v1 cpu controller at $cpu_cg, as root"
    vcpu_cg=$cpu_cg/simt-vcpu-$$
    mkdir -p "$vcpu_cg"
    # A 10 ms period: the guest slow throughout, not stopped for most
    # of every 100 ms (the kernel's least quota is 1 ms, hence 10 %).
    echo 10000 > "$vcpu_cg/cpu.cfs_period_us"
    echo $((SIMT_VCPU_QUOTA * 100)) > "$vcpu_cg/cpu.cfs_quota_us"
    vcpu_name=simt-vcpu-$$
    args+=(-name "$vcpu_name,debug-threads=on")
    log "QEMU's vCPU threads at most $SIMT_VCPU_QUOTA % of a core ($vcpu_cg)"
    (
        seen=0
        for ((t = 0; t < 1200; t++)); do
            pids=$(pgrep -f -- "-name $vcpu_name," || true)
            if [ -z "$pids" ]; then
                [ "$seen" = 1 ] && break
            else
                seen=1
                for task in $(printf '/proc/%s/task/* ' $pids); do
                    case $(cat "$task/comm" 2>/dev/null) in
                    "CPU "*) echo "${task##*/}" > "$vcpu_cg/tasks" 2>/dev/null || true ;;
                    esac
                done
            fi
            sleep 0.5
        done
        while pgrep -f -- "-name $vcpu_name," > /dev/null; do sleep 1; done
        rmdir "$vcpu_cg"
    ) < /dev/null > /dev/null 2>&1 &
fi
hot_device=
if [ -n "${SIMT_HOTPLUG:-}" ]; then
    # q35's root bus has no hotplug: a root port's slot has, through
    # ACPI by default (the guest's acpiphp).  Not native PCIe hotplug:
    # 6.12's pciehp makes lockdep report a lock order of its own
    # (pci_rescan_remove_lock, reset_lock) on the debug kernel.
    [ "$SIMT_DEVICES" = 1 ] || die "SIMT_HOTPLUG takes one device"
    hot_device="$SIMT_DEVICE,bus=simt-port,id=simt-hot"
    args+=(-device pcie-root-port,id=simt-port,chassis=1,slot=1
           -device "$hot_device")
elif [ -n "$SIMT_DEVICE" ]; then
    for ((i = 0; i < SIMT_DEVICES; i++)); do
        args+=(-device "$SIMT_DEVICE")
    done
fi
# After the simt devices, so that their PCI addresses do not move.
# security_model=none: the guest sees the host's owners and modes; what
# it creates gets the guest user's owner when QEMU runs as root, else
# QEMU's user's.
if [ -n "$share" ]; then
    args+=(-virtfs "local,path=$share,mount_tag=$share_tag,security_model=none")
fi
# shellcheck disable=SC2206
[ -n "${EXTRA_QEMU_ARGS:-}" ] && args+=($EXTRA_QEMU_ARGS)
if [ -n "$record" ]; then
    # The recording keeps its own kernel and initramfs: a replay must
    # boot exactly them, whatever the tree has built since.
    cp "$kernel" "$record.vmlinuz"
    cp "$initrd" "$record.initrd"
    for i in "${!args[@]}"; do
        [ "${args[$i]}" = "$kernel" ] && args[$i]=$record.vmlinuz
        [ "${args[$i]}" = "$initrd" ] && args[$i]=$record.initrd
    done
    printf '%s\0' "${args[@]}" > "$record.args"
    log "recording into $record (replay: make run REPLAY=$record)"
fi

case $mode in
shell)
    log "booting a shell (Ctrl-A X quits QEMU)"
    exec "$QEMU" "${args[@]}"
    ;;
demo)
    out=$odir/demo.log
    rc=0
    timeout -k 10 "$GUEST_TIMEOUT" "$QEMU" "${args[@]}" < /dev/null 2>&1 |
        tee "$out" | hide_files || rc=$?
    if [ "$rc" = 124 ]; then
        log "timed out after $GUEST_TIMEOUT s"
    elif [ "$rc" = 0 ] && ! grep -q '^=== simt demo done ===' "$out"; then
        log "the demo did not complete (log: $out)"
        rc=1
    fi
    # Files the demo sent back (timelines): base64 between markers.
    files=$odir/demo-files
    rm -rf "$files"
    mkdir -p "$files"
    tr -d '\r' < "$out" | awk -v dir="$files" '
        /^=== simt-file-end ===$/ { if (name != "") close(cmd); name = ""; next }
        /^=== simt-file [A-Za-z0-9._-]+ ===$/ {
            name = $3; cmd = "base64 -d > \"" dir "/" name "\""; next }
        name != "" { print | cmd }'
    if ls "$files"/* > /dev/null 2>&1; then
        log "wrote $(cd "$files" && ls | paste -sd' ') in $files (.json: open in ui.perfetto.dev)"
    fi
    exit "$rc"
    ;;
bench)
    out=$odir/bench.log
    rc=0
    timeout -k 10 "$GUEST_TIMEOUT" "$QEMU" "${args[@]}" < /dev/null 2>&1 |
        tee "$out" || rc=$?
    if [ "$rc" = 124 ]; then
        log "timed out after $GUEST_TIMEOUT s"
    elif [ "$rc" = 0 ] && ! tr -d '\r' < "$out" | grep -q '^=== simt bench done (status 0) ==='; then
        log "the benchmark failed (log: $out)"
        rc=1
    fi
    exit "$rc"
    ;;
test)
    out=${GUEST_LOG:-$odir/test.log}
    mkdir -p "$(dirname "$out")"
    log "booting the test guest (log: $out, limit ${GUEST_TIMEOUT} s)"
    start=$(date +%s)
    rc=0
    if [ -n "$hot_device" ]; then
        # Unplugged and plugged in again when the guest asks (hot_unplug).
        /usr/bin/python3 "$here/guest-hotplug.py" "$out" "$GUEST_TIMEOUT" \
            "$hot_device" "$QEMU" "${args[@]}" || rc=$?
    elif [ -n "${SIMT_MIGRATE:-}" ]; then
        # Migrated into a second QEMU when the guest asks (migrate_resume).
        /usr/bin/python3 "$here/guest-migrate.py" "$out" "$GUEST_TIMEOUT" \
            "$QEMU" "${args[@]}" || rc=$?
    else
        timeout -k 10 "$GUEST_TIMEOUT" "$QEMU" "${args[@]}" < /dev/null 2>&1 |
            tee "$out" || rc=$?
    fi
    log "guest finished in $(( $(date +%s) - start )) s (QEMU status $rc)"
    check=0
    /usr/bin/python3 "$here/tap-check.py" --boot --name guest "$out" || check=$?
    if [ "$check" = 0 ] && [ "$rc" != 0 ]; then
        if [ "$rc" = 124 ]; then
            echo "guest: QEMU did not exit within $GUEST_TIMEOUT s" >&2
        else
            echo "guest: QEMU exited with status $rc" >&2
        fi
        exit 1
    fi
    exit "$check"
    ;;
esac
