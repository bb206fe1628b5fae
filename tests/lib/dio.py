#!/usr/bin/env python3
"""dio.py DEV OP...: runs operations on a block device in order, one
request each, and prints one result per operation on a single line: "ok"
or the errno name the kernel returned (EIO, ENODATA, ENOSPC...).

  w:OFF:LEN[:BYTE]  O_DIRECT write of LEN bytes of BYTE (default 0xa5) at OFF
  W:OFF:LEN[:BYTE]  the same through O_DSYNC: a FUA write (and, with a
                    synchronous write(), the fsync the kernel adds after it)
  r:OFF:LEN         O_DIRECT read
  N:OFF:LEN[:BYTE]  O_DIRECT write with RWF_NOWAIT (EAGAIN rather than wait)
  n:OFF:LEN         O_DIRECT read with RWF_NOWAIT
  f                 fsync of the device: a flush
  d:OFF:LEN         BLKDISCARD
  z:OFF:LEN         fallocate(PUNCH_HOLE | KEEP_SIZE): a write-zeroes
                    request with no fallback to writing zero pages
  OP*N              OP N times; with OFF written as +STEP, the n-th of them
                    (from 0) is at n * STEP

OFF and LEN are bytes (suffixes k and m: KiB, MiB).  LEN and OFF of reads
and writes must be multiples of the logical block size.
"""
import ctypes
import errno
import fcntl
import mmap
import os
import struct
import sys

BLKDISCARD = 0x1277
FALLOC_FL_KEEP_SIZE = 0x01
FALLOC_FL_PUNCH_HOLE = 0x02

libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]


def num(s):
    mult = {"k": 1 << 10, "m": 1 << 20}.get(s[-1:].lower(), 1)
    return int(s[:-1] if mult > 1 else s, 0) * mult


def expand(args):
    for a in args:
        op, _, n = a.partition("*")
        for i in range(int(n) if n else 1):
            f = op.split(":")
            if len(f) > 1 and f[1].startswith("+"):
                f[1] = str(i * num(f[1][1:]))
            yield f


def main():
    dev = sys.argv[1]
    fd = os.open(dev, os.O_RDWR | os.O_DIRECT)
    sfd = None
    out = []
    for f in expand(sys.argv[2:]):
        kind = f[0]
        try:
            if kind in ("w", "W", "N"):
                off, ln = num(f[1]), num(f[2])
                byte = num(f[3]) if len(f) > 3 else 0xA5
                buf = mmap.mmap(-1, ln)         # page-aligned for O_DIRECT
                buf.write(bytes([byte]) * ln)
                if kind == "N":
                    n = os.pwritev(fd, [buf], off, os.RWF_NOWAIT)
                elif kind == "W":
                    if sfd is None:
                        sfd = os.open(dev, os.O_RDWR | os.O_DIRECT | os.O_DSYNC)
                    n = os.pwrite(sfd, buf, off)
                else:
                    n = os.pwrite(fd, buf, off)
                if n != ln:
                    raise OSError(errno.EIO, "short write %d" % n)
            elif kind in ("r", "n"):
                off, ln = num(f[1]), num(f[2])
                buf = mmap.mmap(-1, ln)
                n = os.preadv(fd, [buf], off, os.RWF_NOWAIT if kind == "n" else 0)
                if n != ln:
                    raise OSError(errno.EIO, "short read %d" % n)
            elif kind == "f":
                os.fsync(fd)
            elif kind == "d":
                fcntl.ioctl(fd, BLKDISCARD, struct.pack("QQ", num(f[1]), num(f[2])))
            elif kind == "z":
                if libc.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                                  num(f[1]), num(f[2])) != 0:
                    e = ctypes.get_errno()
                    raise OSError(e, os.strerror(e))
            else:
                sys.exit("dio.py: unknown operation %r" % ":".join(f))
            out.append("ok")
        except OSError as e:
            out.append(errno.errorcode.get(e.errno, str(e.errno)))
    print(" ".join(out))


if __name__ == "__main__":
    main()
