#!/usr/bin/env python3
"""Turns what scripts/bench-guest.sh sent over the results channel into
the benchmark report: OUT.md (tables), OUT.csv (every run), and OUT.gp +
OUT.dat for gnuplot, which draws OUT.png.  The raw records (fio JSON, perf
reports) are written to the --raw directory.  Standard library only.

Usage: report.py --results FILE --raw DIR --out PREFIX [--meta KEY=VALUE]...
                 [--previous CSV]

--previous CSV: the CSV of an earlier report; sbd-mq is compared with its
sbd-mq medians, or, in a report from before the two queue modes, with its
"sbd" ones (sbd was blk-mq then); on the polled rows with its sbd-mq-poll
ones.  A CSV from before the polled rows (or the ios, polled and
disk_reads columns) loads as well.
"""
import argparse
import base64
import csv
import gzip
import json
import os
import statistics
import sys

# The disks of the main table and the chart, in their order.
DEVICES = ["sbd-bio", "sbd-mq", "brd", "nullb-mem", "nullb-nomem"]
# The trim row's extra disks (made only for it).
CACHE_DEVICES = ["sbd-bio-cache", "sbd-mq-cache"]
# The polled rows' extra disks (made only for them): one poll queue each.
POLL_DEVICES = ["sbd-mq-poll", "nullb-mem-poll"]
# In the polled rows the main table's sbd mq and null_blk mem columns show
# these disks (driven with --hipri); the plain disks' runs of the same jobs
# are in the "Polled I/O" section.
POLL_OF = {"sbd-mq": "sbd-mq-poll", "nullb-mem": "nullb-mem-poll"}
# Everything a polled row runs on, in the "Polled I/O" section's order:
# sbd-mq-hipri is the sbd-mq disk (no poll queue) driven with --hipri.
POLL_RUNS = ["sbd-mq-poll", "nullb-mem-poll", "sbd-mq", "sbd-mq-hipri", "nullb-mem"]
# The fio rows' network disks (only when asked for): an sbd bio disk served
# by nvmet and used through the NVMe host, over TCP on 127.0.0.1 or
# nvme-loop; columns after the five disks, compared with sbd bio.
NET_DEVICES = ["sbd-bio-tcp", "sbd-bio-loop"]
SBD = ["sbd-bio", "sbd-mq"]
DEV_LABEL = {
    "sbd-bio": "sbd bio",
    "sbd-mq": "sbd mq",
    "sbd-bio-cache": "sbd bio cache=1",
    "sbd-mq-cache": "sbd mq cache=1",
    "sbd-mq-poll": "sbd mq poll",
    "sbd-mq-hipri": "sbd mq --hipri, no poll queue",
    "brd": "brd",
    "nullb-mem": "null_blk mem",
    "nullb-mem-poll": "null_blk mem poll",
    "nullb-nomem": "null_blk nomem",
    "sbd-bio-tcp": "sbd via nvme-tcp",
    "sbd-bio-loop": "sbd via nvme-loop",
}
COLORS = {"sbd-bio": "#d62728", "sbd-mq": "#ff9f40", "brd": "#1f77b4", "nullb-mem": "#2ca02c",
          "nullb-nomem": "#9a9a9a", "sbd-bio-tcp": "#9467bd", "sbd-bio-loop": "#e377c2"}
# row -> (label, unit, short label for the chart); in a time ("s", and the
# CPU times of LOWER) lower is better, and every ratio of it is turned round
# (other / sbd) so that > 1 always means sbd is faster.
FIO_ROWS = {
    "rr4k-psync-1j": ("4 KiB random read, psync, 1 job", "IOPS", "4k randread\\npsync 1 job"),
    "rr4k-psync-2j": ("4 KiB random read, psync, 2 jobs", "IOPS", "4k randread\\npsync 2 jobs"),
    "rw4k-psync-1j": ("4 KiB random write, psync, 1 job", "IOPS", "4k randwrite\\npsync 1 job"),
    "rw4k-psync-2j": ("4 KiB random write, psync, 2 jobs", "IOPS", "4k randwrite\\npsync 2 jobs"),
    "rr4k-uring-qd32": ("4 KiB random read, io_uring, iodepth 32, 1 job", "IOPS",
                        "4k randread\\nio\\\\_uring qd32"),
    "rw4k-uring-qd1": ("4 KiB random write, io_uring, iodepth 1, 1 job", "IOPS",
                       "4k randwrite\\nio\\\\_uring qd1"),
    "rr4k-poll-qd1": ("4 KiB random read, io_uring IOPOLL (--hipri), iodepth 1, 1 job", "IOPS",
                      "4k randread\\nIOPOLL qd1"),
    "rr4k-poll-qd32": ("4 KiB random read, io_uring IOPOLL (--hipri), iodepth 32, 1 job", "IOPS",
                       "4k randread\\nIOPOLL qd32"),
    "sr1m-psync-1j": ("1 MiB sequential read, psync, 1 job", "MB/s", "1M seq read\\npsync 1 job"),
    "sw1m-psync-1j": ("1 MiB sequential write, psync, 1 job", "MB/s", "1M seq write\\npsync 1 job"),
}
ROWS = dict(FIO_ROWS)
ROWS.update({
    "trim4k": ("4 KiB random trim over written data, each block once", "IOPS",
               "4k randtrim\\nwritten data"),
    "fill1m": ("first write of a fresh disk, 1 MiB sequential, psync", "MB/s",
               "fill fresh disk\\n1M seq write"),
    "fs-mkfs": ("ext4: mkfs.ext4", "s", "ext4 mkfs\\n(1/time)"),
    "fs-copy": ("ext4: copy the tree in + sync", "s", "ext4 copy tree\\n+ sync (1/time)"),
    "fs-rm": ("ext4: rm -rf the tree + sync", "s", "ext4 rm -rf\\n+ sync (1/time)"),
    "fs-fstrim": ("ext4: fstrim after the rm", "s", "ext4 fstrim\\n(1/time)"),
    "fs-rw4k-fsync": ("ext4: 4 KiB random writes, fsync=1, 16 files", "IOPS",
                      "ext4 4k randwrite\\nfsync=1 16 files"),
    "fs-mkfs-cpu": ("ext4: mkfs.ext4, CPU time of tasks", "CPU s", None),
    "fs-copy-cpu": ("ext4: copy in + sync, CPU time of tasks", "CPU s", None),
    "fs-rm-cpu": ("ext4: rm -rf + sync, CPU time of tasks", "CPU s", None),
    "fs-fstrim-cpu": ("ext4: fstrim, CPU time of tasks", "CPU s", None),
    "fs-fsync-cpu": ("ext4: one fsync'd 4 KiB write, CPU time of tasks", "CPU µs", None),
})
# Units where lower is better: every ratio of them is turned round.
LOWER = ("s", "CPU s", "CPU µs")
FS_KV = {"fs-mkfs": "mkfs_s", "fs-copy": "copy_s", "fs-rm": "rm_s", "fs-fstrim": "fstrim_s",
         "fs-mkfs-cpu": "mkfs_cpu_s", "fs-copy-cpu": "copy_cpu_s", "fs-rm-cpu": "rm_cpu_s",
         "fs-fstrim-cpu": "fstrim_cpu_s"}
# Rows that are information, not targets, and not in the chart: the fs steps'
# CPU time (the guest's /proc/schedstat: time its CPUs ran tasks), which
# leaves out the idle waits that spread the steps' seconds.
INFO_ROWS = ["fs-mkfs-cpu", "fs-copy-cpu", "fs-rm-cpu", "fs-fstrim-cpu", "fs-fsync-cpu"]
POLL_ROWS = ["rr4k-poll-qd1", "rr4k-poll-qd32"]
CSV_FIELDS = ["row", "device", "round", "iops", "MBps", "lat_mean_us", "runtime_ms", "seconds",
              "ios", "polled", "disk_reads", "cpu_us"]


def run_dev(row, d):
    """The disk whose runs fill column d of the main table and the chart in
    row: in the polled rows, sbd mq and null_blk mem are their poll disks."""
    return POLL_OF.get(d, d) if row in POLL_ROWS else d


def decode(path):
    """Records of the results channel: {name: (kind, bytes)}, and whether
    the guest got to the end."""
    records, done = {}, False
    cur = None
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("ascii", "replace").strip().replace("\r", "")
            if line.startswith("@@BEGIN "):
                _, kind, name = line.split(" ", 2)
                cur = (kind, name, [])
            elif line.startswith("@@END "):
                if cur is not None:
                    data = gzip.decompress(base64.b64decode("".join(cur[2])))
                    records[cur[1]] = (cur[0], data)
                cur = None
            elif line == "@@DONE":
                done = True
            elif cur is not None and line:
                cur[2].append(line)
    return records, done


def kv(data):
    out = {}
    for line in data.decode().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            out[k] = v
    return out


def fio_value(doc, unit):
    """IOPS or MB/s of a fio JSON document (group_reporting: one job), of
    the direction that moved the most bytes (read, write or trim)."""
    job = doc["jobs"][0]
    side = max((job[k] for k in ("read", "write", "trim") if k in job),
               key=lambda s: s["io_bytes"])
    if unit == "IOPS":
        return side["iops"], side
    return side["bw_bytes"] / 1e6, side


def fmt_val(v, unit):
    if v is None:
        return "–"
    if unit == "IOPS":
        return f"{v / 1000:.1f}k"
    if unit == "s":
        return f"{v:.2f}" if v < 10 else f"{v:.1f}"
    if unit.startswith("CPU"):
        return f"{v:.3f}"
    return f"{v:.0f}"


def selected(choice):
    """The [selected] word of a sysfs choice list."""
    for w in choice.split():
        if w.startswith("["):
            return w.strip("[]")
    return choice or "?"


def fmt_mib(kib):
    return f"{kib / 1024:.1f} MiB"


def ratio_of(x, y, unit):
    """sbd-like values x against reference values y: the ratio of the
    medians, the worst case (x's worst over y's best) and the best; for
    times (lower is better) turned round, so > 1 means x is faster."""
    if not x or not y or min(x) <= 0 or min(y) <= 0:
        return None
    if unit in LOWER:
        return (statistics.median(y) / statistics.median(x), min(y) / max(x), max(y) / min(x))
    return (statistics.median(x) / statistics.median(y), min(x) / max(y), max(x) / min(y))


def fmt_ratio(r, digits=2):
    if r is None:
        return "–"
    return f"**{r[0]:.{digits}f}** ({r[1]:.{digits}f}–{r[2]:.{digits}f})"


def verdict(r, thr):
    """met / not met, judged on the median; the spread says whether every
    round agrees."""
    if r[0] >= thr:
        return "yes" if r[1] >= thr else "yes (not in every round)"
    return "**no**" if r[2] < thr else "**no** (median; some rounds do)"


def read_previous(path):
    """{row: [values]} of sbd-mq (or, in an older CSV, "sbd") in a
    previous report's CSV; its prefill of a freshly loaded disk stands for
    fill1m (one sample)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    devs = {r["device"] for r in rows}
    dev = "sbd-mq" if "sbd-mq" in devs else "sbd"
    prev = {}
    for r in rows:
        row = r["row"]
        if r["device"] != (run_dev(row, "sbd-mq") if dev == "sbd-mq" else dev):
            continue
        if row == "prefill" and r["round"] == "speed" and dev == "sbd":
            row = "fill1m"
        if row not in ROWS:
            continue
        unit = ROWS[row][1]
        col = {"IOPS": "iops", "MB/s": "MBps", "s": "seconds", "CPU s": "seconds",
               "CPU µs": "cpu_us"}[unit]
        if r.get(col):
            prev.setdefault(row, []).append(float(r[col]))
    return dev, prev


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--previous", help="an earlier report's CSV, to compare sbd-mq with")
    a = ap.parse_args()
    host = dict(m.split("=", 1) for m in a.meta)

    records, done = decode(a.results)
    if not done:
        sys.exit("report.py: the results are incomplete (no @@DONE)")
    os.makedirs(a.raw, exist_ok=True)
    for name, (kind, data) in records.items():
        ext = {"json": "json", "kv": "txt", "text": "txt"}.get(kind, "bin")
        with open(os.path.join(a.raw, f"{name}.{ext}"), "wb") as f:
            f.write(data)

    meta = kv(records["meta"][1])
    devs = [d for d in DEVICES if f"dev.{d}" in records]
    cdevs = [d for d in CACHE_DEVICES if f"dev.{d}" in records]
    pdevs = [d for d in POLL_DEVICES if f"dev.{d}" in records]
    ndevs = [d for d in NET_DEVICES if f"dev.{d}" in records]
    cfg = {d: kv(records[f"dev.{d}"][1]) for d in devs + cdevs + pdevs + ndevs}
    trim = kv(records["trim"][1]) if "trim" in records else {}
    poll = kv(records["poll"][1]) if "poll" in records else {}
    net = kv(records["net"][1]) if "net" in records else {}
    fstree = kv(records["fstree"][1]) if "fstree" in records else {}
    prev_dev, prev = read_previous(a.previous) if a.previous else (None, {})

    # ---- runs ----------------------------------------------------------------
    runs = {}      # (row, dev) -> [value per round]
    csv_rows = []
    for name, (kind, data) in sorted(records.items()):
        if kind == "json" and not name.startswith("exp."):
            row, dev, rnd = name.split(".")
            unit = ROWS[row][1] if row in ROWS else "MB/s"
            val, side = fio_value(json.loads(data), unit)
            ps = kv(records[f"pollstat.{name}"][1]) if f"pollstat.{name}" in records else {}
            csv_rows.append({
                "row": row, "device": dev, "round": rnd,
                "iops": f"{side['iops']:.0f}",
                "MBps": f"{side['bw_bytes'] / 1e6:.1f}",
                "lat_mean_us": f"{side['lat_ns']['mean'] / 1000:.2f}",
                "runtime_ms": side["runtime"],
                "seconds": "",
                "ios": side.get("total_ios", ""),
                "polled": ps.get("polled", ""),
                "disk_reads": ps.get("disk_reads", ""),
            })
            if row in ROWS:
                runs.setdefault((row, dev), []).append(val)
        elif kind == "kv" and name.startswith("fs."):
            _, dev, rnd = name.split(".")
            v = kv(data)
            for row, key in FS_KV.items():
                if v.get(key):
                    runs.setdefault((row, dev), []).append(float(v[key]))
                    csv_rows.append({"row": row, "device": dev, "round": rnd, "iops": "",
                                     "MBps": "", "lat_mean_us": "", "runtime_ms": "",
                                     "seconds": v[key]})
        elif kind == "kv" and name.startswith("fs-cpu."):
            _, dev, rnd = name.split(".")
            us = kv(data).get("fsync_write_cpu_us")
            if us:
                runs.setdefault(("fs-fsync-cpu", dev), []).append(float(us))
                csv_rows.append({"row": "fs-fsync-cpu", "device": dev, "round": rnd, "cpu_us": us})
    with open(a.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, restval="")
        w.writeheader()
        w.writerows(csv_rows)

    # The main table's and the chart's columns: the five disks, sbd mq and
    # null_blk mem also when only their poll disks ran (they fill those
    # columns in the polled rows); then the network disks.
    cols = [d for d in DEVICES if d in devs or POLL_OF.get(d) in pdevs] + ndevs
    rows = [r for r in ROWS if any((r, run_dev(r, d)) in runs for d in cols + cdevs)]
    prows = [r for r in POLL_ROWS if any((r, d) in runs for d in POLL_RUNS)]

    def med(row, dev):
        v = runs.get((row, dev))
        return statistics.median(v) if v else None

    def ratio(row, dev, ref):
        return ratio_of(runs.get((row, dev)), runs.get((row, ref)), ROWS[row][1])

    def cell(row, dev):
        v, unit = runs.get((row, dev)), ROWS[row][1]
        if not v:
            return "–"
        return f"{fmt_val(statistics.median(v), unit)} [{fmt_val(min(v), unit)}–{fmt_val(max(v), unit)}]"

    md = []
    p = md.append
    kver = meta.get("kver", "?")
    rounds = int(meta.get("rounds", "0"))
    size = int(meta.get("size_mib", "1024"))
    p(f"# sbd (bio, mq) vs brd vs null_blk: {kver}, {host.get('date', '?')}")
    p("")
    p(f"Made by `{host.get('command', 'make bench')}` (scripts/bench, scripts/bench-guest.sh, "
      "bench/report.py).")
    p("")
    p("| | |")
    p("|---|---|")
    p(f"| kernel | {kver} (line {meta.get('line', '?')}) |")
    p(f"| date | {host.get('date', '?')} |")
    p(f"| guest | {meta.get('ncpus')} vCPUs ({meta.get('guest_cpu')}), "
      f"{int(meta.get('mem_total_kib', 0)) // 1024} MiB, QEMU TCG (no KVM): {host.get('qemu', '?')} |")
    p(f"| guest clock | clocksource `{meta.get('clocksource', '?')}`; kernel command line "
      f"`{meta.get('cmdline', '?')}` |")
    if host.get("clock") == "icount":
        p("| time base | **instructions**: QEMU `-icount shift=0,sleep=off` (`BENCH_CLOCK=icount`), "
          "the guest's clocks advance 1 ns per guest instruction executed; every rate and time "
          "below is per guest instruction, not per second of real time, and the vCPUs take "
          "turns on one host thread |")
    p(f"| host CPU | {host.get('host_cpu', '?')}, {host.get('host_cpus', '?')} CPUs, "
      f"kernel {host.get('host_kernel', '?')} |")
    busy, own, el = (float(host.get(k, 0)) for k in ("host_busy_s", "bench_cpu_s", "elapsed_s"))
    ncpu = int(host.get("host_cpus", "1"))
    other = max(0.0, busy - own)
    if el:
        steal = float(host.get("host_steal_s", 0))
        p(f"| host load | {el:.0f} s run; the guest used {own:.0f} CPU-s, everything else on the host "
          f"{other:.0f} CPU-s ({100 * other / (el * ncpu):.0f}% of {ncpu} CPUs); "
          f"stolen by the hypervisor: {steal:.0f} s |")
    p(f"| fio | {meta.get('fio')}; fio rows: `--direct=1 --time_based --runtime={meta.get('runtime')} "
      f"--ramp_time={meta.get('ramp')} --norandommap --randrepeat=0 --group_reporting` |")
    p(f"| method | {rounds} round(s); in each round every row runs on every disk in turn, the "
      f"order rotating per round; cells are median [min–max] over the rounds |")
    p(f"| disks | {size} MiB each, 512-byte logical blocks, all loaded at once; for the fio rows "
      f"each is written whole (1 MiB, direct) first, so reads hit real data |")
    p("| trim4k | each disk written whole (untimed), then `fio --rw=randtrim --bs=4k "
      "--ioengine=psync --size=100%`: fio's random map trims every 4 KiB block once, in random "
      "order, so every trim frees a page (not time_based) |")
    p("| fill1m | a freshly made disk (sbd and null_blk: made again through configfs; brd: "
      "module reloaded) written whole: `--rw=write --bs=1M --ioengine=psync --direct=1 "
      "--size=100%` |")
    if prows:
        p("| polled rows | `--rw=randread --bs=4k --ioengine=io_uring --iodepth=1` or `32`, with "
          "`--hipri` (an IOPOLL ring) on sbd mq poll and null_blk mem poll (`poll_queues=1`; made "
          "for each round, one at a time, written whole first, removed after both rows) and on "
          "sbd mq (no poll queue: the block layer clears REQ_POLLED and the request ends in "
          "->queue_rq; a kernel that refuses polled I/O there, EOPNOTSUPP, skips that run); "
          "without `--hipri` on sbd mq and null_blk mem; the disks rotating per "
          "round, both rows on each disk in turn |")
    if ndevs:
        how = {"sbd-bio-tcp": "over NVMe/TCP on 127.0.0.1 (`sbdctl export`, `nvme connect -t tcp`)",
               "sbd-bio-loop": "over nvme-loop (`nvme connect -t loop`: host and target in memory, "
                               "no network stack)"}
        p("| network path | an sbd bio disk made as sbd bio's, served by the kernel's NVMe target "
          "(nvmet) and read and written through the kernel's NVMe host in the same guest: "
          + "; ".join(f"{DEV_LABEL[d]} {how[d]}" for d in ndevs)
          + "; the fio rows only, each disk written whole through its path first and removed "
          "after the fio rows |")
    if fstree.get("skipped"):
        p(f"| fs | skipped: {fstree['skipped']} |")
    elif fstree:
        p(f"| fs | a freshly made disk; timed: `{fstree.get('mkfs')}`; mounted with the defaults; "
          f"timed: copy `{fstree.get('source')}` ({fstree.get('files')} files, {fstree.get('dirs')} "
          f"directories, {int(fstree.get('bytes', 0)) / 2**20:.0f} MiB; from the guest's /tmp "
          f"tmpfs) in, then `sync`; `rm -rf` it, then `sync`; `fstrim` the mount; then fio "
          f"`--rw=randwrite --bs=4k --ioengine=psync --fsync=1 --nrfiles=16 "
          f"--size={fstree.get('fio_mib')}m --overwrite=1` (buffered, time_based); each of "
          f"mkfs and the next three steps also as the CPU time its tasks used (the guest's "
          f"/proc/schedstat, summed over CPUs: idle waits left out), and the CPU time of one "
          f"fsync'd write: untimed runs of the same fio job, `--number_ios` 1000 (a warm-up), "
          f"10000 and 50000, the last two's CPU time apart over the 40000 writes apart |")
    if "warm" in records:
        wm = kv(records["warm"][1])
        p(f"| RAM warm-up | before anything, the guest's free memory but 256 MiB ({wm.get('warm_mib')} "
          f"MiB) written once into a tmpfs and dropped ({wm.get('warm_s')} s): under TCG the first "
          "touch of a guest page costs a host page fault, which would otherwise fall on whichever "
          "disk first writes into untouched RAM |")
    if "phases" in records:
        ph = kv(records["phases"][1])
        p("| guest time by step | " + ", ".join(
            f"{k[:-2].replace('_', ' ')} {v} s" for k, v in ph.items() if k != "total_s")
          + f"; total {ph.get('total_s', '?')} s |")
    p(f"| sbd | git {host.get('git', '?')}, sbd.ko sha256 {meta.get('sbd_ko_sha256', '?')}… |")
    if a.previous:
        p(f"| previous | `{a.previous}` (its `{prev_dev}` runs: compared with sbd mq"
          + ("; its one first-write sample, the prefill, stands for fill1m, and was taken "
             "without the RAM warm-up" if prev_dev == "sbd" else "") + ") |")
    p("")
    p("> **Under TCG, not real hardware.** The guest's CPUs are emulated, so every instruction "
      "costs several host instructions, memory copies and system calls are disproportionately "
      "slow, and fio's own user-space work is a large part of every I/O. Absolute numbers are "
      "far below a real machine and ratios between drivers are compressed towards 1; "
      "compare the drivers with each other, within this run only.")
    p("")

    # ---- devices ---------------------------------------------------------------
    tdevs = devs + cdevs + pdevs + ndevs
    p("## The disks and their queues")
    p("")
    p("| | " + " | ".join(DEV_LABEL[d] for d in tdevs) + " |")
    p("|---|" + "---|" * len(tdevs))

    def crow(label, fn):
        p(f"| {label} | " + " | ".join(fn(d) for d in tdevs) + " |")

    def net_kind(c):
        return (f"NVMe namespace ({c.get('nvme_transport', '?')}, controller "
                f"{c.get('nvme_ctrl', '?')})"
                + (f", a multipath head, bio-based, over {c['nvme_paths'].strip()}"
                   if c.get("kind") == "bio-based" and c.get("nvme_paths", "").strip() else
                   f", {c.get('kind', '?')}")
                + f"; behind it `{c.get('sbd_backing', '?')}`, sbd queue_mode="
                  f"{c.get('sbd_queue_mode', '?')}")

    crow("device", lambda d: f"`{cfg[d].get('path')}`")
    crow("made as", lambda d: cfg[d].get("loaded_as") or "?")
    crow("kind", lambda d: net_kind(cfg[d]) if d in NET_DEVICES else cfg[d].get("kind", "?") + (
        f" (sbd queue_mode={cfg[d]['sbd_queue_mode']})" if cfg[d].get("sbd_queue_mode") else ""))
    crow("hw queues × depth", lambda d: (
        f"{cfg[d].get('nvme_io_queues', '?')} NVMe I/O queues × {cfg[d].get('nvme_queue_size', '?')}"
        if d in NET_DEVICES else
        f"{cfg[d].get('hw_queues')} × {cfg[d].get('nr_requests')}"
        if cfg[d].get("kind") == "blk-mq" else "none (bio-based)"))
    crow("completion", lambda d: (
        "the NVMe/TCP host sends each command over TCP on 127.0.0.1; nvmet-tcp submits a bio to "
        "the sbd bio disk behind it and sends the completion back" if d == "sbd-bio-tcp" else
        "nvme-loop hands each command to nvmet in memory; nvmet submits a bio to the sbd bio "
        "disk behind it and completes the command when the bio ends" if d == "sbd-bio-loop" else
        "inline in submit_bio" if cfg[d].get("kind") == "bio-based" else
        "polled I/O: done in queue_rq, ended by ->poll; the rest inline in queue_rq, "
        "BLK_MQ_F_BLOCKING" if d == "sbd-mq-poll" else
        "inline in queue_rq, BLK_MQ_F_BLOCKING" if d.startswith("sbd") else
        ("polled I/O: listed in queue_rq, done and ended by ->poll; the rest "
         if d == "nullb-mem-poll" else "")
        + "inline in queue_rq (irqmode=0)" + (
            ", BLK_MQ_F_BLOCKING" if cfg[d].get("nullb_blocking") == "1" else "")))
    if pdevs:
        crow("poll queues", lambda d: (
            "–" if cfg[d].get("kind") != "blk-mq" else cfg[d].get("sbd_poll_queues")
            or cfg[d].get("sbd_cfg_poll_queues") or cfg[d].get("nullb_poll_queues") or "0"))
        crow("io_poll (queue polls)", lambda d: cfg[d].get("io_poll", "?"))
    crow("scheduler", lambda d: (selected(cfg[d].get("scheduler", ""))
                                 if cfg[d].get("kind") == "blk-mq" else "– (bio-based)"))
    crow("logical / physical block", lambda d: f"{cfg[d].get('logical_block_size')} / "
                                              f"{cfg[d].get('physical_block_size')}")
    crow("max_sectors_kb", lambda d: cfg[d].get("max_sectors_kb", "?"))
    crow("max_segments × max_segment_size", lambda d: f"{cfg[d].get('max_segments', '?')} × "
                                                    f"{cfg[d].get('max_segment_size', '?')}")
    crow("iostats (I/O accounting)", lambda d: cfg[d].get("iostats", "?"))
    crow("wbt_lat_usec (writeback throttling)", lambda d: cfg[d].get("wbt_lat_usec", "– (none)"))
    crow("write_cache", lambda d: cfg[d].get("write_cache", "?"))
    crow("add_random", lambda d: cfg[d].get("add_random", "?"))
    crow("discard_max_bytes", lambda d: cfg[d].get("discard_max_bytes", "?"))
    p("")
    p("Every blk-mq disk has its scheduler set to `none` (a single-queue disk would get "
      "mq-deadline). sbd mq and null_blk have the same queue shape (one hardware queue per CPU, "
      f"{meta.get('qdepth', '128')} tags, no polled queue); null_blk has `irqmode=0`, so, like "
      "sbd and brd, it completes each request before returning instead of in a softirq (its "
      "default); memory-backed null_blk sets BLK_MQ_F_BLOCKING itself, as sbd mq does. "
      "`null_blk nomem` copies nothing: it is the block layer's ceiling for a blk-mq disk here. "
      "sbd bio and brd are bio-based: no tags, no request allocation. The sbd disks are runtime "
      "disks of one sbd module loaded with `ndevices=0`."
      + (" The cache=1 disks (emulated volatile write cache) exist only for the trim row."
         if cdevs else "")
      + (" The poll disks (" + ", ".join(DEV_LABEL[d] for d in pdevs) + ") exist only for the "
         "polled rows: the same shape plus one poll queue, the hardware queue after the others, "
         "which serves only polled I/O (io_uring IOPOLL)." if pdevs else "")
      + (" The network disks (" + ", ".join(DEV_LABEL[d] for d in ndevs) + ") exist only for "
         "the fio rows: the NVMe namespace the guest's host side sees (its queue is the one "
         "described), each served by the guest's own nvmet from an sbd bio disk of its own, made "
         "as the sbd bio column's." if ndevs else ""))
    p("")

    # ---- throughput ------------------------------------------------------------
    p("## Results")
    p("")
    p("IOPS for the 4 KiB rows, MB/s (10^6 bytes) for the 1 MiB rows, seconds for the timed "
      "filesystem steps and CPU seconds or microseconds for their CPU time (lower is better): "
      "median [min–max]. Ratios are of the medians, in brackets the worst case (sbd's worst "
      "round against the other's best) and the best; for times they are turned round "
      "(other / sbd), so **a ratio above 1 always means sbd is faster**.")
    p("")
    head = ["row", "unit"] + [DEV_LABEL[d] for d in cols]
    pairs = [(s, r) for r in ("brd", "nullb-mem") for s in SBD if s in cols and r in cols]
    pairs += [(n, "sbd-bio") for n in ndevs if "sbd-bio" in cols]
    head += [f"{DEV_LABEL[s]} / {DEV_LABEL[r]}" for s, r in pairs]
    if prev and "sbd-mq" in cols:
        head.append(f"sbd mq / previous {prev_dev}")
    p("| " + " | ".join(head) + " |")
    p("|---|---|" + "---:|" * (len(head) - 2))
    for row in rows:
        label, unit, _ = ROWS[row]
        if row in POLL_ROWS:
            label += " — sbd mq, null_blk mem: their poll disks"
        cells = [label, unit] + [cell(row, run_dev(row, d)) for d in cols]
        cells += [fmt_ratio(ratio(row, run_dev(row, s), run_dev(row, r)),
                            3 if row in INFO_ROWS else 2) for s, r in pairs]
        if prev and "sbd-mq" in cols:
            cells.append(fmt_ratio(ratio_of(runs.get((row, run_dev(row, "sbd-mq"))), prev.get(row),
                                            unit), 3 if row in INFO_ROWS else 2))
        p("| " + " | ".join(cells) + " |")
    p("")
    if any(r in POLL_ROWS for r in rows):
        p("In the polled rows (IOPOLL) the sbd mq and null_blk mem columns are sbd mq poll and "
          "null_blk mem poll, the disks with a poll queue, driven with `--hipri`; the same jobs "
          "on the plain disks, with and without `--hipri`, are in \"Polled I/O\" below.")
        p("")
    if ndevs:
        p("The network columns are the same jobs on an sbd bio disk read and written through "
          "the kernel's NVMe host and target in this guest; their ratio to sbd bio is what the "
          "path keeps of the local disk's throughput (below 1: what it costs).")
        p("")
    notes = []
    for w in net.get("skipped", "").split(";"):
        if w.strip():
            d, _, why_not = w.strip().partition(":")
            notes.append(f"{DEV_LABEL.get(d, d)} not run: {why_not.strip()}")
    if ndevs and any(r not in FIO_ROWS or r in POLL_ROWS for r in rows):
        notes.append(", ".join(DEV_LABEL[d] for d in ndevs) + ": the fio rows only")
    why = [w.strip() for w in poll.get("skipped", "").split(";")
           if w.strip().split(":")[0] in POLL_DEVICES]
    if why and any(r in POLL_ROWS for r in rows):
        notes.append("polled rows: " + "; ".join(why))
    if "trim4k" in rows and "brd" in devs and not runs.get(("trim4k", "brd")):
        notes.append(f"brd has no discard on this kernel (`discard_max_bytes` "
                     f"{trim.get('brd_discard_max_bytes') or '0'}): no trim4k run")
    fse = [f"{DEV_LABEL[d]}: {kv(records[n][1]).get('fstrim_error', '').strip()}"
           for d in devs for n in sorted(records)
           if n.startswith(f"fs.{d}.") and kv(records[n][1]).get("fstrim_error")]
    if fse:
        notes.append("fstrim failed (" + "; ".join(sorted(set(fse))) + ")")
    if notes:
        p("Missing cells: " + "; ".join(notes) + ".")
        p("")
    pre = {d: records.get(f"prefill.{d}.speed") for d in devs}
    if pre and all(pre.values()):
        p("The prefill of the fio rows (the first write of each disk, one sample): " + ", ".join(
            f"{DEV_LABEL[d]} {fio_value(json.loads(pre[d][1]), 'MB/s')[0]:.0f} MB/s" for d in devs)
          + ". The fill1m row measures the same thing on fresh disks, every round.")
        p("")
    if runs:    # no timed rows (a crash-only run, say): no chart
        p(f"![throughput relative to brd]({os.path.basename(a.out)}.png)")
        p("")

    # ---- trim ------------------------------------------------------------------
    tdev = [d for d in ("sbd-bio", "sbd-bio-cache", "sbd-mq", "sbd-mq-cache", "nullb-mem", "brd")
            if runs.get(("trim4k", d))]
    if tdev:
        p("### trim4k in detail")
        p("")
        p("Memory given back is free memory after the trims less before (`mem_free_kib`), "
          f"of {size} MiB written; a cache=1 disk keeps what each trim overwrites until the next "
          "flush, so it gives nothing back during the run.")
        p("")
        p("| disk | IOPS | / null_blk mem | memory given back | sbd pages before → after |")
        p("|---|---:|---:|---:|---:|")
        for d in tdev:
            tm = [kv(records[n][1]) for n in sorted(records) if n.startswith(f"trimmem.{d}.")]
            freed = statistics.median(int(t["freed_kib"]) for t in tm) if tm else None
            pages = (f"{tm[0].get('sbd_pages_before')} → {tm[0].get('sbd_pages_after')}"
                     if tm and tm[0].get("sbd_pages_before") else "–")
            rr = ratio("trim4k", d, "nullb-mem") if d != "nullb-mem" else None
            p(f"| {DEV_LABEL[d]} | {cell('trim4k', d)} | {fmt_ratio(rr)} | "
              f"{fmt_mib(freed) if freed is not None else '–'} | {pages} |")
        p("")

    # ---- polled I/O ----------------------------------------------------------------
    if prows:
        p("### Polled I/O")
        p("")
        p("4 KiB random reads through io_uring; median [min–max] IOPS over the rounds. "
          "\"--hipri\" is an IOPOLL ring: the submitter spins in ->poll for its completions "
          "instead of sleeping until they are signalled. sbd mq poll and null_blk mem poll have "
          "one poll queue (`poll_queues=1`); sbd mq has none, so there `--hipri` only makes "
          "io_uring spin while the request ends in ->queue_rq as usual (6.1; newer kernels "
          "refuse it: EOPNOTSUPP)."
          + (" Not run: " + poll["skipped"].strip().rstrip(";") + "." if poll.get("skipped") else ""))
        p("")
        pruns = [d for d in POLL_RUNS if any(runs.get((r, d)) for r in prows)]
        phead = ["row"] + [DEV_LABEL[d] + ("" if d in POLL_DEVICES or d.endswith("-hipri")
                                           else ", no --hipri") for d in pruns]
        pr_pairs = [(x, y) for x, y in (("sbd-mq-poll", "nullb-mem-poll"), ("sbd-mq-poll", "sbd-mq"),
                                        ("nullb-mem-poll", "nullb-mem"))
                    if x in pruns and y in pruns]
        phead += [f"{DEV_LABEL[x]} / {DEV_LABEL[y]}" for x, y in pr_pairs]
        p("| " + " | ".join(phead) + " |")
        p("|---|" + "---:|" * (len(phead) - 1))
        for row in prows:
            cells = [ROWS[row][0]] + [cell(row, d) for d in pruns]
            cells += [fmt_ratio(ratio(row, x, y)) for x, y in pr_pairs]
            p("| " + " | ".join(cells) + " |")
        p("")
        # Evidence that polling happened: sbd's count of requests ended by
        # ->poll, against fio's I/Os (which leave out the ramp) and the
        # block layer's reads over the same window as the counter.
        stats = {}
        for n in sorted(records):
            if n.startswith("pollstat."):
                _, row, d, rnd = n.split(".")
                run = records.get(f"{row}.{d}.{rnd}")
                stats.setdefault((row, d), []).append(
                    (kv(records[n][1]), json.loads(run[1]) if run else None))
        if stats:
            rt, rp = float(meta.get("runtime") or 0), float(meta.get("ramp") or 0)
            p("Did it poll? Summed over the rounds: requests sbd ended from ->poll "
              "(`/sys/block/sbdN/sbd/polled`, read before and after each run), against fio's "
              "I/Os and against the reads the block layer completed over the counter's own window "
              "(`/sys/block/DISK/stat`): 1.000 there means every read was completed by polling. "
              "fio leaves its ramp out of its count, so polled / fio I/Os comes out near "
              "(runtime + ramp) / runtime"
              + (f" = {(rt + rp) / rt:.2f}" if rt else "") + " when every read is polled. "
              "null_blk counts nothing of the kind: its queue's `io_poll` (1: the queue can be "
              "polled) and its hardware queues (the poll queue included) are all there is.")
            p("")
            p("| row | disk | `--hipri` | polled | fio I/Os | reads completed | polled / fio I/Os "
              "| polled / reads completed | io_poll | hw queues |")
            p("|---|---|---|---:|---:|---:|---:|---:|---|---:|")
            for row in prows:
                for d in POLL_RUNS:
                    st = stats.get((row, d))
                    if not st:
                        continue
                    pol = [int(k["polled"]) for k, _ in st if k.get("polled", "") != ""]
                    ios = sum(fio_value(j, "IOPS")[1].get("total_ios", 0) for _, j in st if j)
                    rds = sum(int(k.get("disk_reads") or 0) for k, _ in st)
                    hip = "yes" if st[0][0].get("hipri") == "1" else "no"
                    if pol:
                        ps = sum(pol)
                        b = "**" if d in POLL_DEVICES else ""
                        cols_ = [f"{ps}", f"{ios}", f"{rds}",
                                 f"{ps / ios:.3f}" if ios else "–",
                                 f"{b}{ps / rds:.3f}{b}" if rds else "–"]
                    else:
                        cols_ = ["– (no counter)", f"{ios}", f"{rds}", "–", "–"]
                    p(f"| {ROWS[row][0]} | {DEV_LABEL[d]} | {hip} | " + " | ".join(cols_)
                      + f" | {st[0][0].get('io_poll') or '?'} | {st[0][0].get('hw_queues') or '?'} |")
            p("")

    # ---- crash testing -----------------------------------------------------------
    crash = {}
    for name, (kind, data) in records.items():
        if kind == "kv" and name.startswith("crash."):
            crash.setdefault(int(name.split(".")[1]), []).append(kv(data))
    if crash:
        p("## Crash testing: snapshot, crash image, restore")
        p("")
        p("A 1 GiB sbd disk (bio mode) written whole, then a snapshot of it; then N MiB written "
          "since (1 MiB direct writes of random data: each page copied up from the snapshot, "
          "and logged), a crash image of the state that keeps all of them (checked equal to "
          "the disk), and a restore. Median [min–max] of the rounds; pages are 4 KiB.")
        p("")
        p("| written since | snapshot, s | crash image, s | restore, s | restore: pages given back "
          "| image: pages of its own | disk: pages of its own | log, bytes | snapshot pages |")
        p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

        def cm(rs, k, fmt):
            v = [float(r[k]) for r in rs if r.get(k, "") != ""]
            if not v:
                return "–"
            return f"{fmt(statistics.median(v))} [{fmt(min(v))}–{fmt(max(v))}]" \
                if min(v) != max(v) else fmt(v[0])

        def secs3(x):
            return f"{x:.3f}"

        def count(x):
            return f"{x:.0f}"

        for mib in sorted(crash):
            rs = crash[mib]
            p(f"| {mib} MiB | {cm(rs, 'snapshot_s', secs3)} | {cm(rs, 'image_s', secs3)} "
              f"| {cm(rs, 'restore_s', secs3)} | {cm(rs, 'restore_pages', count)} "
              f"| {cm(rs, 'image_pages', count)} | {cm(rs, 'own_pages', count)} "
              f"| {cm(rs, 'log_bytes', count)} | {cm(rs, 'snapshot_pages', count)} |")
        p("")

    # ---- targets -----------------------------------------------------------------
    p("## The project's targets")
    p("")
    p("Judged on the medians; \"not in every round\" / \"some rounds do\" say what the spread "
      "shows. The last column is what null_blk nomem (a blk-mq disk that copies nothing) reaches "
      "against the same disk on the fio rows: about the most a blk-mq driver could show here.")
    p("")
    p("| target | row | ratio: median (worst–best) | met | null_blk nomem, same ratio |")
    p("|---|---|---:|---|---:|")
    verdicts = []

    def target(desc, row, dev, ref, thr, r=None, ceil=True):
        r = r or ratio(row, dev, ref)
        if r is None:
            if runs.get((row, dev)):
                p(f"| {desc} | {ROWS[row][0]} | – | not judged: no {DEV_LABEL.get(ref, ref)} run "
                  f"(see above) | – |")
            return
        v = verdict(r, thr)
        verdicts.append(v.startswith("yes"))
        c = ratio(row, "nullb-nomem", ref) if ceil and ref != "nullb-nomem" else None
        p(f"| {desc} | {ROWS[row][0]} | {fmt_ratio(r)} vs {DEV_LABEL.get(ref, ref)} | {v} | "
          f"{f'{c[0]:.2f}' if c else '–'} |")

    for row in rows:
        if row != "trim4k" and row not in INFO_ROWS:
            target("sbd bio >= 1.0 x brd on every row", row, "sbd-bio", "brd", 1.0)
    for d in SBD:
        target(f"{DEV_LABEL[d]} >= 1.0 x null_blk mem on trims", "trim4k", d, "nullb-mem", 1.0)
    for row in prows:
        desc = "sbd mq poll ≥ 1.0 × null_blk mem poll on rr4k-poll-qd1 and -qd32"
        if runs.get((row, "sbd-mq-poll")):
            target(desc, row, "sbd-mq-poll", "nullb-mem-poll", 1.0, ceil=False)
        else:
            why = [w.strip() for w in poll.get("skipped", "").split(";")
                   if w.strip().startswith("sbd-mq-poll:")]
            p(f"| {desc} | {ROWS[row][0]} | – | not judged: no sbd mq poll run"
              + (f" ({'; '.join(why)})" if why else "") + " | – |")
    mem = {d: kv(records[f"mem.{d}"][1]) for d in SBD + ["brd", "nullb-mem"] if f"mem.{d}" in records}
    if "brd" in mem:
        b = int(mem["brd"]["written_kib"])
        for d in SBD:
            if d not in mem:
                continue
            s = int(mem[d]["written_kib"])
            dv = (s - b) / b if b else float("inf")
            ok = abs(dv) <= 0.01
            verdicts.append(ok)
            p(f"| memory per GiB written within 1% of brd's | whole-disk write | "
              f"{DEV_LABEL[d]} {fmt_mib(s)}, brd {fmt_mib(b)}: {100 * dv:+.2f}% | "
              f"{'yes' if ok else '**no**'} | – |")
    if prev and "sbd-mq" in cols:
        for row in (r for r in rows if r not in INFO_ROWS):
            r = ratio_of(runs.get((row, run_dev(row, "sbd-mq"))), prev.get(row), ROWS[row][1])
            if r:
                pd = run_dev(row, prev_dev)
                target(f"{DEV_LABEL[run_dev(row, 'sbd-mq')]} no slower than the previous report's "
                       f"{pd}", row, "sbd-mq", f"previous {pd}", 1.0, r=r, ceil=False)
    p("")
    p(f"{sum(verdicts)} of {len(verdicts)} met.")
    p("")
    p("Not targets, information: sbd mq against brd (the table's \"sbd mq / brd\" column); "
      "the cache=1 trims; sbd against null_blk nomem"
      + ("; the ext4 steps' CPU time" if any(r in INFO_ROWS for r in rows) else "")
      + ("; the polled rows' runs without polling (\"Polled I/O\")" if prows else "")
      + ("; the network path (" + ", ".join(DEV_LABEL[d] for d in ndevs) + " against sbd bio)"
         if ndevs else "") + "."
      + ("" if prev else " sbd mq is judged only against a previous report (`BENCH_PREVIOUS=CSV`"
                         ", report.py --previous): none was given."))
    p("")

    # ---- memory ------------------------------------------------------------------
    if mem:
        big = {d: kv(records[f"big.{d}"][1]) for d in mem if f"big.{d}" in records}
        p("## Memory")
        p("")
        p(f"One disk at a time, {size} MiB, measured as free memory (MemFree plus the per-CPU "
          "free lists, after dropping caches: `mem_free_kib` of tests/lib/common.sh) before and "
          "after each step. The disk is written whole with 1 MiB direct writes. "
          "\"Empty\" is making the disk: a configfs disk for sbd (its module already loaded, "
          "without disks) and null_blk, loading the module for brd; \"removed\" is the reverse.")
        p("")
        md_devs = list(mem)
        p("| | " + " | ".join(DEV_LABEL[d] for d in md_devs) + " |")
        p("|---|" + "---:|" * len(md_devs))

        def mrow(label, fn):
            p(f"| {label} | " + " | ".join(fn(d) for d in md_devs) + " |")

        mrow(f"empty {size} MiB disk", lambda d: fmt_mib(int(mem[d]["empty_kib"])))
        mrow(f"after writing all {size} MiB", lambda d: fmt_mib(int(mem[d]["written_kib"])))
        mrow("**per GiB written**", lambda d: f"**{fmt_mib(int(mem[d]['written_kib']) * 1024 / size)}**")
        mrow("… of which slab (index nodes)", lambda d: fmt_mib(int(mem[d]["slab_written_kib"])))
        if "brd" in mem:
            b = int(mem["brd"]["written_kib"])
            mrow("vs brd", lambda d: f"{100 * (int(mem[d]['written_kib']) - b) / b:+.2f}%")
        mrow("the driver's own count", lambda d: (
            f"{int(mem[d]['sbd_mem_bytes']) / 2**20:.1f} MiB (`sbd/mem_bytes`)"
            if mem[d].get("sbd_mem_bytes") else "none"))
        mrow("given back by discarding the whole disk", lambda d: (
            fmt_mib(int(mem[d]["discard_returned_kib"])) if mem[d]["discard"] == "ok"
            else f"{fmt_mib(int(mem[d]['discard_returned_kib']))}: discard not supported"))
        mrow("given back by removing the disk", lambda d: fmt_mib(int(mem[d]["unload_returned_kib"])))
        mrow("not given back at the end", lambda d: fmt_mib(int(mem[d]["leak_kib"])))
        if big:
            g = int(next(iter(big.values()))["size_gib"])
            mrow(f"empty {g // 1024 if g >= 1024 else g} {'TiB' if g >= 1024 else 'GiB'} disk",
                 lambda d: (fmt_mib(int(big[d]["empty_kib"])) if big.get(d, {}).get("loaded") == "1"
                            else f"cannot load: {big.get(d, {}).get('error', '?').strip()}"))
        p("")
        p("Measurement noise is about ±1 MiB (background kernel allocations between two readings).")
        p("")

    # ---- profiles ------------------------------------------------------------------
    extra = [n for n in records if n.startswith(("exp.", "profile."))]
    if extra:
        p("## Profiles and experiments")
        p("")
        p(f"Raw: `{a.raw}/` (perf reports as `profile.*.txt`). \"sbd\" in the experiments is "
          "the sbd bio disk.")
        p("")
        exp, erows = {}, []
        for n in sorted(records):
            if not n.startswith("exp.") or records[n][0] != "json":
                continue
            _, what, row, _rnd = n.split(".", 3)
            unit = ROWS[row][1] if row in ROWS else "MB/s"
            exp.setdefault(what, {}).setdefault(row, []).append(
                fio_value(json.loads(records[n][1]), unit)[0])
            if row not in erows:
                erows.append(row)
        if exp:
            erows = [r for r in ROWS if r in erows]
            p("Experiments, interleaved: median [min–max] of the rounds; the last column of each "
              "row is relative to the plain disk of the same driver.")
            p("")
            p("| experiment | " + " | ".join(f"{ROWS[r][0]} ({ROWS[r][1]})" for r in erows) + " |")
            p("|---|" + "---:|" * len(erows))
            base = {"sbd": "sbd", "brd": "brd", "nomem": "nomem"}
            for what in sorted(exp, key=lambda w: (w.split("-")[0], w)):
                cells = []
                ref = exp.get(base.get(what.split("-")[0], ""), {})
                for r in erows:
                    v = exp[what].get(r)
                    if not v:
                        cells.append("–")
                        continue
                    unit = ROWS[r][1]
                    c = (f"{fmt_val(statistics.median(v), unit)} [{fmt_val(min(v), unit)}–"
                         f"{fmt_val(max(v), unit)}]")
                    if what not in base and ref.get(r):
                        c += f" ({statistics.median(v) / statistics.median(ref[r]):.2f}×)"
                    cells.append(c)
                p(f"| {what} | " + " | ".join(cells) + " |")
            p("")
        for n in sorted(x for x in records if x.startswith("profile.")):
            text = records[n][1].decode(errors="replace").splitlines()
            sections, cur = {}, None
            for ln in text:
                if ln.startswith("# --- "):
                    cur = ln.strip("# -")
                    sections[cur] = []
                elif cur and ln.strip() and not ln.startswith("#"):
                    sections[cur].append(ln.rstrip())
            head = [ln for ln in text[:3] if ln.startswith("# fio")]
            p(f"<details><summary>{n}</summary>")
            p("")
            p("```")
            p("\n".join(x.lstrip("# ") for x in head))
            for title, keep in (("self time by command", 5), ("self time by symbol, kernel only", 15),
                                ("self time of what runs under the driver's entry point", 15)):
                if sections.get(title):
                    p(f"-- {title}")
                    p("\n".join(sections[title][:keep]))
            p("```")
            p("</details>")
            p("")

    with open(a.out + ".md", "w") as f:
        f.write("\n".join(md))

    # ---- chart -----------------------------------------------------------------------
    # Each row relative to brd's median (to null_blk mem's where brd has no
    # run: trims on kernels whose brd has no discard, and the polled rows,
    # where the columns are the poll disks: relative to null_blk mem poll;
    # with the network disks, to sbd bio's where neither ran); times turned
    # round.
    plotted = set()	# disks with a value in the chart: gnuplot fails on an empty column
    refs_used = set()
    with open(a.out + ".dat", "w") as f:
        f.write("# row " + " ".join(f"{d}_med {d}_min {d}_max" for d in cols) + "\n")
        for row in (r for r in rows if r not in INFO_ROWS):
            refd = next((r for r in ("brd", "nullb-mem") + (("sbd-bio",) if ndevs else ())
                         if med(row, run_dev(row, r))), None)
            if refd is None:
                continue
            refs_used.add(refd)
            ref, unit = med(row, run_dev(row, refd)), ROWS[row][1]
            xt = ROWS[row][2] + ("" if refd == "brd" else
                                 "\\n(poll disks, vs null\\\\_blk mem poll)" if row in POLL_ROWS else
                                 "\\n(vs null\\\\_blk mem)" if refd == "nullb-mem" else
                                 "\\n(vs sbd bio)")
            dat = [f'"{xt}"']
            for d in cols:
                v = runs.get((row, run_dev(row, d)))
                if v:
                    plotted.add(d)
                if not v:
                    dat += ["NaN"] * 3
                elif unit == "s":
                    dat += [f"{ref / statistics.median(v):.4f}", f"{ref / max(v):.4f}",
                            f"{ref / min(v):.4f}"]
                else:
                    dat += [f"{statistics.median(v) / ref:.4f}", f"{min(v) / ref:.4f}",
                            f"{max(v) / ref:.4f}"]
            f.write(" ".join(dat) + "\n")
    plots = []
    for i, d in enumerate(cols):
        if d not in plotted:
            continue
        c = 3 * i + 2
        src = f"'{os.path.basename(a.out)}.dat'" if not plots else "''"
        xt = ":xtic(1)" if not plots else ""
        title = DEV_LABEL[d].replace("_", "\\_")
        plots.append(f"{src} using {c}:{c + 1}:{c + 2}{xt} title '{title}' lc rgb '{COLORS[d]}'")
    # What the bars are relative to: brd, unless a run with the network
    # disks had no brd (then null_blk mem's or sbd bio's, as each row says).
    ref_label = "brd"
    if ndevs and refs_used and "brd" not in refs_used:
        ref_label = " or ".join(DEV_LABEL[r] for r in ("nullb-mem", "sbd-bio") if r in refs_used)
    ref_dq, ref_sq = ref_label.replace("_", "\\\\_"), ref_label.replace("_", "\\_")
    gp = f"""# generated by bench/report.py
set terminal pngcairo size {max(1400, 150 * len([r for r in rows if r not in INFO_ROWS]) + 200)},760 font 'sans,11'
set output '{os.path.basename(a.out)}.png'
set title "sbd (bio, mq), brd and null\\\\_blk on {kver}, {host.get('date', '')}: throughput relative to {ref_dq} \
(times: {ref_dq}'s time / the disk's)\\n\
median of {rounds} round(s), bars from min to max; {meta.get('ncpus')} vCPUs under QEMU TCG, \
{meta.get('size_mib')} MiB disks"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key top left
set bmargin 6
set ylabel 'throughput / {ref_sq} (median)'
set yrange [0:*]
set grid ytics
set xtics font ',9'
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#1f77b4'
plot {', '.join(plots)}
"""
    with open(a.out + ".gp", "w") as f:
        f.write(gp)


if __name__ == "__main__":
    main()
