#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run a guest whose simt device sits in a PCIe root port, and unplug and
# plug the device again when the guest asks (scripts/guest-run.sh test
# with SIMT_HOTPLUG=1):
#
#   guest-hotplug.py LOG TIMEOUT DEVICE QEMU ARG...
#
# The console goes to stdout and to LOG.  When the guest prints
# "=== simt unplug now ===" (the guest test hot_unplug does, with a
# process holding work in flight and a mapped object), QMP device_del
# asks the guest to let the device go (an ACPI eject request for q35's
# root ports); once QEMU has removed it, "unplugged" is typed on the
# guest's console.  "=== simt plug now ===" puts DEVICE (the -device options,
# with its id and bus) back in the slot with device_add, then types
# "plugged".  Exit status: QEMU's, 124 after TIMEOUT seconds, 1 if QEMU
# refused or the guest never let the device go.

import os
import subprocess
import sys
import tempfile
import threading
import time

from simt_qmp import Qmp, pump, wait_end

UNPLUG = b'=== simt unplug now ==='
PLUG = b'=== simt plug now ==='
# How long the guest may take to let the device go.
REMOVE_SECONDS = 120
RCU_SECONDS = 2


def say(msg):
    print('guest-hotplug: ' + msg, file=sys.stderr, flush=True)


def device_id(text):
    """The id=X of -device simt,id=X,bus=Y,..."""
    for p in text.split(',')[1:]:
        key, _, value = p.partition('=')
        if key == 'id':
            return value
    raise RuntimeError('no id= in the device option ' + text)


def present(qmp, dev_id):
    return any(p['name'] == dev_id
               for p in qmp.cmd('qom-list', path='/machine/peripheral'))


def main():
    logname, timeout, device = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    qemu = sys.argv[4:]
    deadline = time.time() + timeout
    dev_id = device_id(device)
    tmp = tempfile.mkdtemp(prefix='simt-hotplug-')
    sock = os.path.join(tmp, 'qmp')
    log = open(logname, 'wb')
    proc = subprocess.Popen(qemu + ['-qmp', 'unix:%s,server=on,wait=off'
                                    % sock],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    marks = {UNPLUG: threading.Event(), PLUG: threading.Event()}
    reader = threading.Thread(target=pump, args=(proc, log, marks),
                              daemon=True)
    reader.start()
    try:
        qmp = Qmp(sock, deadline)
        for mark in (UNPLUG, PLUG):
            while not marks[mark].wait(0.5):
                if proc.poll() is not None:
                    say('the guest ended without asking for %s'
                        % mark.decode())
                    return proc.returncode or 1
                if time.time() > deadline:
                    proc.kill()
                    return 124
            if mark == UNPLUG:
                t0 = time.time()
                qmp.cmd('device_del', id=dev_id)
                while present(qmp, dev_id):
                    if time.time() > min(deadline, t0 + REMOVE_SECONDS):
                        say('the guest did not let %s go in %d s'
                            % (dev_id, REMOVE_SECONDS))
                        proc.kill()
                        return 1
                    time.sleep(0.2)
                say('%s unplugged in %.1f s' % (dev_id, time.time() - t0))
                # QEMU frees the removed device's VRAM only after an RCU
                # grace period: a device_add before that finds its RAM
                # block's name taken and aborts.
                time.sleep(RCU_SECONDS)
                answer = b'unplugged\n'
            else:
                # Through HMP, which parses DEVICE as -device does:
                # QMP's device_add wants typed values (threads=2 as a
                # number, not the string '2').
                out = qmp.cmd('human-monitor-command',
                              **{'command-line': 'device_add ' + device})
                if out.strip():
                    raise RuntimeError('device_add: ' + out.strip())
                say('%s plugged in again' % dev_id)
                answer = b'plugged\n'
            proc.stdin.write(answer)
            proc.stdin.flush()
        qmp.close()
        return wait_end(proc, reader, deadline)
    except (OSError, RuntimeError, TimeoutError) as e:
        say(str(e))
        return 1
    finally:
        if proc.poll() is None:
            proc.kill()
        if os.path.exists(sock):
            os.unlink(sock)
        os.rmdir(tmp)
        log.close()


if __name__ == '__main__':
    sys.exit(main())
