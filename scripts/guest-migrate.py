#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run a guest and migrate it, in the middle of its work, into a second
# QEMU (scripts/guest-run.sh test with SIMT_MIGRATE=1):
#
#   guest-migrate.py LOG TIMEOUT QEMU ARG...
#
# The console of both QEMUs goes to stdout and to LOG.  When the guest
# prints "=== simt migrate now ===" (the guest test migrate_resume does,
# while a kernel runs), the first QEMU migrates to a file (QMP "migrate"),
# quits, and a second one started with the same arguments and -incoming
# loads it and goes on; then "migrated" is typed on the guest's console,
# so that the test can check its kernel was still running.  Exit status:
# the second QEMU's, 124 after TIMEOUT seconds, 1 if migrating failed.

import os
import subprocess
import sys
import tempfile
import threading
import time

from simt_qmp import Qmp, pump, wait_end

MARK = b'=== simt migrate now ==='


def say(msg):
    print('guest-migrate: ' + msg, file=sys.stderr, flush=True)


def wait_state(qmp, command, key, done, deadline):
    while time.time() < deadline:
        state = qmp.cmd(command).get(key)
        if state in done:
            return state
        time.sleep(0.2)
    raise TimeoutError('%s still not in %s' % (command, done))


def main():
    logname, timeout, qemu = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    deadline = time.time() + timeout
    tmp = tempfile.mkdtemp(prefix='simt-migrate-')
    state = os.path.join(tmp, 'state')
    socks = [os.path.join(tmp, 'qmp%d' % i) for i in (0, 1)]
    log = open(logname, 'wb')
    procs = []

    def start(i, extra):
        proc = subprocess.Popen(qemu + ['-qmp', 'unix:%s,server=on,wait=off'
                                        % socks[i]] + extra,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        procs.append(proc)
        seen = threading.Event()
        t = threading.Thread(target=pump, args=(proc, log, {MARK: seen}),
                             daemon=True)
        t.start()
        return proc, seen, t

    src, seen, src_pump = start(0, [])
    try:
        while not seen.wait(0.5):
            if src.poll() is not None:
                say('the guest ended without asking to migrate')
                return src.returncode or 1
            if time.time() > deadline:
                src.kill()
                return 124
        qmp = Qmp(socks[0], deadline)
        # Slow enough that the guest and the device go on working for a
        # while during the copy, whose pages must then be sent again.
        qmp.cmd('migrate-set-parameters', **{'max-bandwidth': 64 << 20})
        t0 = time.time()
        qmp.cmd('migrate', uri='file:' + state)
        status = wait_state(qmp, 'query-migrate', 'status',
                            ('completed', 'failed', 'cancelled'), deadline)
        if status != 'completed':
            say('migration %s' % status)
            src.kill()
            return 1
        say('migrated to %s (%d MiB) in %.1f s' %
            (state, os.path.getsize(state) >> 20, time.time() - t0))
        qmp.cmd('quit')
        qmp.close()
        src.wait(30)
        src_pump.join(10)

        dst, _, dst_pump = start(1, ['-incoming', 'file:' + state])
        qmp = Qmp(socks[1], deadline)
        wait_state(qmp, 'query-status', 'status', ('running',), deadline)
        qmp.close()
        say('the second QEMU runs the guest')
        dst.stdin.write(b'migrated\n')
        dst.stdin.flush()
        return wait_end(dst, dst_pump, deadline)
    except (OSError, RuntimeError, TimeoutError) as e:
        say(str(e))
        return 1
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        for f in [state] + socks:
            if os.path.exists(f):
                os.unlink(f)
        os.rmdir(tmp)
        log.close()


if __name__ == '__main__':
    sys.exit(main())
