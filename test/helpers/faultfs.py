#!/usr/bin/python3
# A fault-injecting FUSE file system for tests (Debian's python3-fusepy over libfuse2): every
# operation passes through to a backing folder until told otherwise. Commands arrive as a JSON
# file (the control file, given on the command line), re-read whenever it is replaced, so a
# command written before an I/O applies to that I/O:
#   {"eio_after": N}   reads and writes succeed for N more bytes, then fail with EIO
#   {"enospc_after": N}  writes succeed for N more bytes, then fail with ENOSPC (the disk is
#                      full); reads go on
#   {"stall": S, "after": N}  reads and writes succeed for N more bytes (default 0), then block
#                      for S seconds (metadata still works, as on a disk whose data path
#                      hangs), then go on
#   {}                 healthy again
# "Pulled" (the disk disappears) is the caller killing this process and unmounting lazily
# (test/helpers/faultfs.ts): open files then fail with ENOTCONN, as a yanked USB disk does.
# Every fault raised is logged as a JSON line to CONTROL_FILE.faults ({"errno", "op", "path",
# "passed": bytes that went through since the command}), so a test can tell when it struck; a
# stall is logged as it begins, with "errno": "STALL" (the I/O is then held in the kernel).
# Usage: faultfs.py BACKING MOUNTPOINT CONTROL_FILE
import errno
import json
import os
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations


class FaultFS(Operations):
    def __init__(self, root, control):
        self.root = root
        self.control = control
        self.lock = threading.Lock()
        self.mtime = None
        self.eio_budget = None  # bytes left before EIO; None: no fault
        self.enospc_budget = None  # bytes of writes left before ENOSPC; None: no fault
        self.passed = 0  # bytes read or written since the last command
        self.stall_until = 0.0
        self.stall_seconds = None  # a stall armed to start once stall_budget bytes have passed
        self.stall_budget = 0

    # ---- the control file -------------------------------------------------------------------
    def _poll(self):
        # A new command is a new file renamed over the old: its inode tells it apart even when two
        # commands land within one tick of the file-time clock.
        try:
            st = os.stat(self.control)
        except FileNotFoundError:
            return
        mtime = (st.st_ino, st.st_mtime_ns)
        with self.lock:
            if mtime == self.mtime:
                return
            self.mtime = mtime
            try:
                with open(self.control) as f:
                    cmd = json.load(f)
            except (OSError, ValueError):
                return
            self.eio_budget = cmd.get("eio_after")
            self.enospc_budget = cmd.get("enospc_after")
            self.passed = 0
            self.stall_until = 0.0  # also ends a stall in progress
            self.stall_seconds = float(cmd["stall"]) if "stall" in cmd else None
            self.stall_budget = int(cmd.get("after", 0))

    def _log(self, what, op, path):
        # Called with the lock held.
        with open(self.control + ".faults", "a") as f:
            f.write(json.dumps({"errno": what, "op": op, "path": path, "passed": self.passed}) + "\n")

    def _fail(self, err, op, path):
        # Called with the lock held.
        self._log(errno.errorcode[err], op, path)
        raise FuseOSError(err)

    def _data_op(self, size, op, path):
        self._poll()
        with self.lock:
            if self.stall_seconds is not None:
                if self.stall_budget >= size:
                    self.stall_budget -= size
                else:
                    self.stall_until = time.monotonic() + self.stall_seconds
                    self.stall_seconds = None
                    self._log("STALL", op, path)
        # Sleep in steps, so that a command ending the stall ({}) lets waiting I/O go on.
        while self.stall_until - time.monotonic() > 0:
            time.sleep(min(0.05, self.stall_until - time.monotonic()))
            self._poll()
        with self.lock:
            if self.eio_budget is not None:
                if self.eio_budget < size:
                    self.eio_budget = 0
                    self._fail(errno.EIO, op, path)
                self.eio_budget -= size
            if op == "write" and self.enospc_budget is not None:
                if self.enospc_budget < size:
                    self.enospc_budget = 0
                    self._fail(errno.ENOSPC, op, path)
                self.enospc_budget -= size
            self.passed += size

    def _p(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    # ---- pass-through -----------------------------------------------------------------------
    def access(self, path, mode):
        if not os.access(self._p(path), mode):
            raise FuseOSError(errno.EACCES)

    def getattr(self, path, fh=None):
        st = os.lstat(self._p(path))
        keys = ("st_atime", "st_ctime", "st_gid", "st_mode", "st_mtime", "st_nlink", "st_size", "st_uid")
        out = {k: getattr(st, k) for k in keys}
        out["st_blocks"] = st.st_blocks
        return out

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._p(path))

    def readlink(self, path):
        return os.readlink(self._p(path))

    def mkdir(self, path, mode):
        os.mkdir(self._p(path), mode)

    def mknod(self, path, mode, dev):
        # mkfifo through the mount: a file swapped for a FIFO as the kernel sees it at once.
        os.mknod(self._p(path), mode, dev)

    def rmdir(self, path):
        os.rmdir(self._p(path))

    def unlink(self, path):
        os.unlink(self._p(path))

    def symlink(self, name, target):
        os.symlink(target, self._p(name))

    def link(self, target, name):
        os.link(self._p(name), self._p(target))

    def rename(self, old, new):
        os.rename(self._p(old), self._p(new))

    def chmod(self, path, mode):
        os.chmod(self._p(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self._p(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self._p(path), times)

    def truncate(self, path, length, fh=None):
        os.truncate(self._p(path), length)

    def statfs(self, path):
        sv = os.statvfs(self._p(path))
        keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")
        return {k: getattr(sv, k) for k in keys}

    def open(self, path, flags):
        # O_DIRECT is the kernel's business on this side; the backing file is opened buffered.
        return os.open(self._p(path), flags & ~getattr(os, "O_DIRECT", 0))

    def create(self, path, mode, fi=None):
        return os.open(self._p(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)

    def read(self, path, size, offset, fh):
        self._data_op(size, "read", path)
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        self._data_op(len(data), "write", path)
        return os.pwrite(fh, data, offset)

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        return 0

    def release(self, path, fh):
        os.close(fh)
        return 0


def main():
    backing, mountpoint, control = sys.argv[1:4]
    # hard_remove: unlink removes a file that is still open, as kernel file systems do (libfuse
    # would otherwise hide it as .fuse_hidden* until closed, and its folder could not go).
    FUSE(FaultFS(os.path.realpath(backing), control), mountpoint, foreground=True, nothreads=False, big_writes=True, hard_remove=True)


if __name__ == "__main__":
    main()
