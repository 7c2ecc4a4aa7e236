# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the guest runners that drive QEMU from the guest's console share
# (scripts/guest-migrate.py, scripts/guest-hotplug.py): a QMP client and
# the pump that copies a QEMU's console to stdout and the log, and tells
# when the guest printed a line its runner waits for.

import json
import socket
import subprocess
import sys
import time


class Qmp:
    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.file = self.sock.makefile('rb')
        self.reply()                    # the greeting
        self.cmd('qmp_capabilities')

    def reply(self):
        while True:
            msg = json.loads(self.file.readline())
            if 'event' not in msg:
                return msg

    def cmd(self, name, **args):
        self.sock.sendall(json.dumps({'execute': name,
                                      'arguments': args}).encode())
        msg = self.reply()
        if 'error' in msg:
            raise RuntimeError('%s: %s' % (name, msg['error']['desc']))
        return msg['return']

    def close(self):
        self.file.close()
        self.sock.close()


def pump(proc, log, marks):
    """Copy the QEMU's console to stdout and the log; set the event of
    each mark (bytes -> threading.Event) that a line holds."""
    for line in proc.stdout:
        log.write(line)
        log.flush()
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
        for mark, seen in marks.items():
            if mark in line:
                seen.set()


def wait_end(proc, reader, deadline):
    """QEMU's exit status once it ends, 124 (and killed) at @deadline."""
    try:
        rc = proc.wait(max(1, deadline - time.time()))
    except subprocess.TimeoutExpired:
        proc.kill()
        return 124
    reader.join(10)
    return rc
