#!/usr/bin/env python3
"""crashfs.py write|verify DIR SEED: the file workload of a crash trial
(tests/lib/crash.sh), all of it derived from SEED so that a trial can be
replayed.

write: in DIR, creates
  s/sNN   files written and fsynced (and their directory fsynced): must
          survive any power cut intact;
  r/conf  a file replaced atomically (write a temporary, fsync, rename over,
          fsync the directory): must hold the new contents;
  o/oNN   files written with A and fsynced, then overwritten in place with
          B through O_DIRECT and not fsynced: the disk acknowledged B, so B
          sits in its write cache; after a cut each 512-byte block must be
          A or B, and B as a whole survives only if the cache kept it;
  u/uNN   files written through the page cache and never synced.
verify: checks them after the cut and prints one line
  intact=0|1 over_lost=N over_torn=N unsynced_lost=N bad=WHAT...
and exits 0 (the caller decides).
"""
import mmap
import os
import random
import sys

NSYNCED, NOVER, NUNSYNCED = 6, 4, 4
OVER_SIZE = 64 * 1024
BLOCK = 512


def data(seed, tag, size):
    return random.Random("%s-%s" % (seed, tag)).randbytes(size)


def plan(seed):
    rng = random.Random(seed)
    synced = [("s/s%02d" % i, rng.randint(1, 48) * 4096 + rng.randint(0, 4095))
              for i in range(NSYNCED)]
    unsynced = [("u/u%02d" % i, rng.randint(1, 32) * 4096) for i in range(NUNSYNCED)]
    return synced, unsynced


def fsync_dir(path):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    os.fsync(fd)
    os.close(fd)


def write_synced(path, content):
    with open(path, "wb") as f:
        f.write(content)
        f.flush()
        os.fsync(f.fileno())


def write(top, seed):
    synced, unsynced = plan(seed)
    for d in "srou":
        os.mkdir(os.path.join(top, d))
    fsync_dir(top)
    for name, size in synced:
        write_synced(os.path.join(top, name), data(seed, name, size))
    fsync_dir(os.path.join(top, "s"))
    # Atomic replace: old version durable first, then the new one over it.
    conf = os.path.join(top, "r/conf")
    write_synced(conf, data(seed, "conf-old", 6000))
    fsync_dir(os.path.join(top, "r"))
    write_synced(conf + ".tmp", data(seed, "conf-new", 7000))
    os.rename(conf + ".tmp", conf)
    fsync_dir(os.path.join(top, "r"))
    for i in range(NOVER):
        name = "o/o%02d" % i
        write_synced(os.path.join(top, name), data(seed, name + "A", OVER_SIZE))
    fsync_dir(os.path.join(top, "o"))
    # In place, O_DIRECT, no fsync: acknowledged by the disk, not durable.
    buf = mmap.mmap(-1, OVER_SIZE)
    for i in range(NOVER):
        name = "o/o%02d" % i
        fd = os.open(os.path.join(top, name), os.O_WRONLY | os.O_DIRECT)
        buf.seek(0)
        buf.write(data(seed, name + "B", OVER_SIZE))
        if os.pwrite(fd, buf, 0) != OVER_SIZE:
            sys.exit("short O_DIRECT write to " + name)
        os.close(fd)
    for name, size in unsynced:
        with open(os.path.join(top, name), "wb") as f:
            f.write(data(seed, name, size))


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        return e


def verify(top, seed):
    synced, unsynced = plan(seed)
    bad = []
    for name, size in synced:
        got = read(os.path.join(top, name))
        if got != data(seed, name, size):
            bad.append(name + (":" + type(got).__name__ if isinstance(got, OSError)
                               else ":%dB" % len(got)))
    if read(os.path.join(top, "r/conf")) != data(seed, "conf-new", 7000):
        bad.append("r/conf")
    over_lost = over_torn = 0
    for i in range(NOVER):
        name = "o/o%02d" % i
        a, b = data(seed, name + "A", OVER_SIZE), data(seed, name + "B", OVER_SIZE)
        got = read(os.path.join(top, name))
        if isinstance(got, OSError) or len(got) != OVER_SIZE:
            bad.append(name)
            over_lost += 1
            continue
        kinds = set()
        for o in range(0, OVER_SIZE, BLOCK):
            blk = got[o:o + BLOCK]
            kinds.add("a" if blk == a[o:o + BLOCK] else "b" if blk == b[o:o + BLOCK] else "x")
        if "x" in kinds:
            bad.append(name + ":neither-A-nor-B")
        if kinds != {"b"}:
            over_lost += 1
        if kinds == {"a", "b"}:
            over_torn += 1
    unsynced_lost = sum(read(os.path.join(top, n)) != data(seed, n, s) for n, s in unsynced)
    print("intact=%d over_lost=%d over_torn=%d unsynced_lost=%d bad=%s" % (
        not bad, over_lost, over_torn, unsynced_lost, ",".join(bad) or "-"))


if __name__ == "__main__":
    {"write": write, "verify": verify}[sys.argv[1]](sys.argv[2], sys.argv[3])
