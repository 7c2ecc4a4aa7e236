#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Load beside a guest boot, for the tests of the virtual clock: a busy
loop on every host core, and QMP queries sent back to back to the
guest's QEMU, which wake its main loop at moments only the host decides
(what a loaded host does to it, more often).  A guest on the virtual
clock (docs/guest.rst, "One clock") must run the same with it.

    guest-load.py QMP_SOCKET SECONDS

Stops by itself after SECONDS, when the QEMU behind QMP_SOCKET goes
away (the boot ended) or on SIGTERM, whichever comes first; prints how
many queries it sent.  The socket may appear a while after the start.
"""

import multiprocessing
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from simt_qmp import Qmp  # noqa: E402


def spin(deadline, parent):
    # Also gone when the parent is (killed without a chance to stop us).
    while time.time() < deadline and os.getppid() == parent:
        for _ in range(100000):
            pass


def main():
    path, seconds = sys.argv[1], float(sys.argv[2])
    deadline = time.time() + seconds
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    spinners = [multiprocessing.Process(target=spin,
                                        args=(deadline, os.getpid()),
                                        daemon=True)
                for _ in range(os.cpu_count() or 1)]
    for p in spinners:
        p.start()
    sent = 0
    try:
        qmp = Qmp(path, deadline)
        while time.time() < deadline:
            qmp.cmd('query-status')
            sent += 1
    except (OSError, ValueError):
        pass                    # QEMU exited: the boot is over
    finally:
        for p in spinners:
            p.terminate()
            p.join()
        print(f'guest-load: {sent} QMP queries, {len(spinners)} busy loops',
              flush=True)


if __name__ == '__main__':
    main()
