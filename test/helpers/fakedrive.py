#!/usr/bin/python3
# A fake drive for tests (Debian's python3-fusepy over libfuse2): it claims CLAIMED bytes but
# really stores REAL bytes, in one backing file (STORE) of REAL bytes. Addresses on the claimed
# ("virtual") disk map to the store by behaviour:
#   alias    a byte at address a >= REAL is stored at a mod REAL (the drive wraps, as most fakes do)
#   drop     writes at a >= REAL are discarded; reads there return zeros
#   flip     genuine, but a read returns the byte at each address in FLIPS with its lowest bit flipped
#   genuine  REAL == CLAIMED, passthrough
# Two faces of the same disk:
#   device   the mount holds one file, "disk", of CLAIMED bytes; a loop device over it is the fake
#            block device
#   folder   the mount is an empty folder whose statfs reports CLAIMED bytes; file data takes 1 MiB
#            extents of the virtual disk, lowest free first, so filling the folder walks the whole
#            disk; deleting a file frees its extents. Names and sizes live in memory only.
# The mount is direct_io: no page cache holds file data, so every read of the fake comes from here
# (a cache that handed back what was just written would hide the fake). It prints "ready" on stdout
# once the kernel has mounted it.
# Usage: fakedrive.py STORE MOUNTPOINT FACE BEHAVIOUR CLAIMED REAL [FLIP,FLIP,...]
import bisect
import errno
import heapq
import itertools
import os
import stat
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations, fuse_get_context

EXTENT = 1 << 20  # the folder face's allocation unit on the virtual disk
BLOCK = 4096  # statfs block size


class VirtualDisk:
    """The claimed disk: byte addresses 0..claimed, mapped onto the store by behaviour."""

    def __init__(self, store, behaviour, claimed, real, flips):
        if behaviour not in ("alias", "drop", "flip", "genuine"):
            raise ValueError(f"unknown behaviour {behaviour!r}")
        if behaviour in ("flip", "genuine") and real != claimed:
            raise ValueError(f"a {behaviour} drive stores what it claims: real must equal claimed")
        if not 0 < real <= claimed:
            raise ValueError("real must be between 1 byte and the claimed size")
        self.behaviour = behaviour
        self.claimed = claimed
        self.real = real
        self.flips = sorted(set(flips))
        self.fd = os.open(store, os.O_RDWR | os.O_CREAT, 0o600)
        os.ftruncate(self.fd, real)
        # Where a range must be split: at every multiple of REAL when aliasing, at REAL when dropping.
        self.wraps = behaviour == "alias"
        self.drops = behaviour == "drop"

    def _pieces(self, addr, n):
        """(offset into the request, length, store address or None when dropped) for addr..addr+n."""
        if not (self.wraps or self.drops) or addr + n <= self.real:
            yield 0, n, addr
            return
        done = 0
        while done < n:
            a = addr + done
            if self.drops:
                if a >= self.real:
                    yield done, n - done, None
                    return
                length = min(n - done, self.real - a)
                yield done, length, a
            else:
                at = a % self.real
                length = min(n - done, self.real - at)
                yield done, length, at
            done += length

    def read(self, addr, n):
        n = max(0, min(n, self.claimed - addr))
        pieces = list(self._pieces(addr, n))
        if len(pieces) == 1 and pieces[0][2] is not None:
            data = os.pread(self.fd, n, pieces[0][2])
        else:
            data = b"".join(b"\0" * length if at is None else os.pread(self.fd, length, at) for _, length, at in pieces)
        if self.flips:
            lo = bisect.bisect_left(self.flips, addr)
            hi = bisect.bisect_left(self.flips, addr + n)
            if lo < hi:
                buf = bytearray(data)
                for f in self.flips[lo:hi]:
                    buf[f - addr] ^= 0x01
                data = bytes(buf)
        return data

    def write(self, addr, data):
        n = max(0, min(len(data), self.claimed - addr))
        view = memoryview(data)
        for off, length, at in self._pieces(addr, n):
            if at is not None:
                os.pwrite(self.fd, view[off : off + length], at)
        return n


class DeviceFace(Operations):
    """One file, /disk, of the claimed size: the loop device's backing file."""

    def __init__(self, disk):
        self.disk = disk
        self.t = time.time()

    def getattr(self, path, fh=None):
        common = {"st_uid": 0, "st_gid": 0, "st_atime": self.t, "st_mtime": self.t, "st_ctime": self.t}
        if path == "/":
            return {**common, "st_mode": stat.S_IFDIR | 0o755, "st_nlink": 2, "st_size": 0}
        if path == "/disk":
            size = self.disk.claimed
            return {**common, "st_mode": stat.S_IFREG | 0o600, "st_nlink": 1, "st_size": size, "st_blocks": size // 512}
        raise FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        return [".", "..", "disk"]

    def open(self, path, flags):
        if path != "/disk":
            raise FuseOSError(errno.ENOENT)
        return 0

    def truncate(self, path, length, fh=None):
        if length != self.disk.claimed:
            raise FuseOSError(errno.EPERM)

    def read(self, path, size, offset, fh):
        return self.disk.read(offset, size)

    def write(self, path, data, offset, fh):
        if offset >= self.disk.claimed:
            raise FuseOSError(errno.ENOSPC)
        return self.disk.write(offset, data)

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        return 0

    def statfs(self, path):
        blocks = self.disk.claimed // BLOCK
        return {"f_bsize": BLOCK, "f_frsize": BLOCK, "f_blocks": blocks, "f_bfree": 0, "f_bavail": 0, "f_namemax": 255}


class Node:
    __slots__ = ("mode", "uid", "gid", "atime", "mtime", "ctime", "size", "extents", "children", "linked", "opens")

    def __init__(self, mode, uid, gid):
        now = time.time()
        self.mode, self.uid, self.gid = mode, uid, gid
        self.atime = self.mtime = self.ctime = now
        self.size = 0
        self.extents = []  # the file's n-th MiB lives at virtual extent extents[n]
        self.children = {} if stat.S_ISDIR(mode) else None
        self.linked = True
        self.opens = 0


class FolderFace(Operations):
    """A folder of the claimed size whose files' data live on the virtual disk, by extent."""

    def __init__(self, disk):
        self.disk = disk
        self.mutex = threading.Lock()
        self.free = list(range(disk.claimed // EXTENT))  # a heap: the lowest free extent goes first
        heapq.heapify(self.free)
        self.root = Node(stat.S_IFDIR | 0o1777, 0, 0)
        self.handles = {}
        self.next_fh = itertools.count(1)

    # ---- the tree -------------------------------------------------------------------------------
    def _lookup(self, path):
        node = self.root
        for part in path.strip("/").split("/"):
            if part:
                if node.children is None or part not in node.children:
                    raise FuseOSError(errno.ENOENT)
                node = node.children[part]
        return node

    def _parent(self, path):
        head, name = path.rstrip("/").rsplit("/", 1)
        parent = self._lookup(head or "/")
        if parent.children is None:
            raise FuseOSError(errno.ENOTDIR)
        return parent, name

    def _release_extents(self, node, keep):
        for e in node.extents[keep:]:
            if e is not None:
                heapq.heappush(self.free, e)
        del node.extents[keep:]

    def _forget(self, node):
        node.linked = False
        if node.opens == 0 and node.children is None:
            self._release_extents(node, 0)

    def getattr(self, path, fh=None):
        with self.mutex:
            n = self._lookup(path)
            used = sum(1 for e in n.extents if e is not None) * EXTENT
            return {
                "st_mode": n.mode,
                "st_nlink": 2 if n.children is not None else 1,
                "st_uid": n.uid,
                "st_gid": n.gid,
                "st_size": n.size,
                "st_blocks": used // 512,
                "st_atime": n.atime,
                "st_mtime": n.mtime,
                "st_ctime": n.ctime,
            }

    def readdir(self, path, fh):
        with self.mutex:
            return [".", ".."] + list(self._lookup(path).children)

    def _add(self, path, mode):
        uid, gid, _ = fuse_get_context()
        with self.mutex:
            parent, name = self._parent(path)
            if name in parent.children:
                raise FuseOSError(errno.EEXIST)
            node = parent.children[name] = Node(mode, uid, gid)
            parent.mtime = time.time()
            return node

    def mkdir(self, path, mode):
        self._add(path, stat.S_IFDIR | (mode & 0o7777))

    def create(self, path, mode, fi=None):
        node = self._add(path, stat.S_IFREG | (mode & 0o7777))
        return self._open_node(node)

    def _child(self, path):
        """(parent folder, name, node) of an existing path."""
        parent, name = self._parent(path)
        if name not in parent.children:
            raise FuseOSError(errno.ENOENT)
        return parent, name, parent.children[name]

    def rmdir(self, path):
        with self.mutex:
            parent, name, node = self._child(path)
            if node.children is None:
                raise FuseOSError(errno.ENOTDIR)
            if node.children:
                raise FuseOSError(errno.ENOTEMPTY)
            del parent.children[name]

    def unlink(self, path):
        with self.mutex:
            parent, name, node = self._child(path)
            if node.children is not None:
                raise FuseOSError(errno.EISDIR)
            del parent.children[name]
            self._forget(node)

    def rename(self, old, new):
        with self.mutex:
            op, oname, node = self._child(old)
            np, nname = self._parent(new)
            if nname in np.children and np.children[nname] is not node:
                self._forget(np.children[nname])
            del op.children[oname]
            np.children[nname] = node

    def chmod(self, path, mode):
        with self.mutex:
            n = self._lookup(path)
            n.mode = stat.S_IFMT(n.mode) | (mode & 0o7777)

    def chown(self, path, uid, gid):
        with self.mutex:
            n = self._lookup(path)
            n.uid = n.uid if uid == -1 else uid
            n.gid = n.gid if gid == -1 else gid

    def utimens(self, path, times=None):
        with self.mutex:
            n = self._lookup(path)
            n.atime, n.mtime = times if times else (time.time(), time.time())

    def truncate(self, path, length, fh=None):
        with self.mutex:
            n = self.handles[fh] if fh else self._lookup(path)
            self._release_extents(n, -(-length // EXTENT))
            n.size = length
            n.mtime = time.time()

    def statfs(self, path):
        with self.mutex:
            free = len(self.free) * EXTENT // BLOCK
        blocks = self.disk.claimed // BLOCK
        return {"f_bsize": BLOCK, "f_frsize": BLOCK, "f_blocks": blocks, "f_bfree": free, "f_bavail": free, "f_files": 1 << 20, "f_ffree": 1 << 20, "f_favail": 1 << 20, "f_namemax": 255}

    # ---- data -----------------------------------------------------------------------------------
    def _open_node(self, node):
        with self.mutex:
            node.opens += 1
            fh = next(self.next_fh)
            self.handles[fh] = node
            return fh

    def open(self, path, flags):
        with self.mutex:
            node = self._lookup(path)
        if node.children is not None:
            raise FuseOSError(errno.EISDIR)
        if flags & os.O_TRUNC:
            self.truncate(path, 0)
        return self._open_node(node)

    def release(self, path, fh):
        with self.mutex:
            node = self.handles.pop(fh)
            node.opens -= 1
            if not node.linked:
                self._forget(node)
        return 0

    def read(self, path, size, offset, fh):
        node = self.handles[fh]
        with self.mutex:
            end = min(offset + size, node.size)
            extents = node.extents[offset // EXTENT : -(-end // EXTENT)] if end > offset else []
        out = []
        pos = offset
        for e in extents:
            length = min(end, (pos // EXTENT + 1) * EXTENT) - pos
            out.append(b"\0" * length if e is None else self.disk.read(e * EXTENT + pos % EXTENT, length))
            pos += length
        if pos < end:
            out.append(b"\0" * (end - pos))
        return b"".join(out)

    def write(self, path, data, offset, fh):
        node = self.handles[fh]
        end = offset + len(data)
        with self.mutex:
            first, need = offset // EXTENT, -(-end // EXTENT)
            node.extents.extend([None] * (need - len(node.extents)))
            # Only the extents this write touches get space (lowest free first); a hole stays a hole.
            for i in range(first, need):
                if node.extents[i] is None:
                    if not self.free:
                        break
                    node.extents[i] = heapq.heappop(self.free)
            # The disk is full past the last extent it could give: a short write, then ENOSPC.
            have = 0
            for i in range(first, need):
                if node.extents[i] is None:
                    break
                have = (i + 1) * EXTENT
            end = min(end, have)
            if end <= offset:
                raise FuseOSError(errno.ENOSPC)
            extents = node.extents[offset // EXTENT : -(-end // EXTENT)]
            node.size = max(node.size, end)
            node.mtime = time.time()
        view = memoryview(data)
        pos = offset
        for e in extents:
            length = min(end, (pos // EXTENT + 1) * EXTENT) - pos
            self.disk.write(e * EXTENT + pos % EXTENT, view[pos - offset : pos - offset + length])
            pos += length
        return end - offset

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        return 0


def main():
    store, mountpoint, face, behaviour, claimed, real = sys.argv[1:7]
    flips = [int(f) for f in sys.argv[7].split(",") if f] if len(sys.argv) > 7 else []
    disk = VirtualDisk(store, behaviour, int(claimed), int(real), flips)
    if face == "folder" and disk.claimed % EXTENT:
        raise SystemExit("a folder face's claimed size must be a whole number of MiB")
    fs = DeviceFace(disk) if face == "device" else FolderFace(disk)

    def init(path):
        # The kernel has the mount from here on: the wrapper waits for this line, not the mount table.
        print("ready", flush=True)

    fs.init = init
    # direct_io: no page cache on file data, both faces. big_writes + max_read/max_write: the
    # largest requests libfuse2 takes (128 KiB), so Python runs once per 128 KiB, not per 4 KiB.
    FUSE(fs, mountpoint, foreground=True, nothreads=False, direct_io=True, big_writes=True, max_read=131072, max_write=131072, hard_remove=True, default_permissions=True, allow_other=True)


if __name__ == "__main__":
    main()
