#!/usr/bin/env python3
"""Turns what scripts/bench-guest.sh sent over the results channel into
the benchmark report: OUT.md (tables), OUT.csv (every run), and OUT.gp +
OUT.dat for gnuplot, which draws OUT.png.  The raw records (fio JSON, perf
reports) are written to the --raw directory.  Standard library only.

Usage: report.py --results FILE --raw DIR --out PREFIX [--meta KEY=VALUE]...
"""
import argparse
import base64
import csv
import gzip
import json
import os
import statistics
import sys

DEVICES = ["sbd", "brd", "nullb-mem", "nullb-nomem"]
DEV_LABEL = {
    "sbd": "sbd",
    "brd": "brd",
    "nullb-mem": "null_blk mem",
    "nullb-nomem": "null_blk nomem",
}
# fio row -> (label, unit, short label for the chart)
ROWS = {
    "rr4k-psync-1j": ("4 KiB random read, psync, 1 job", "IOPS", "4k randread\\npsync 1 job"),
    "rr4k-psync-2j": ("4 KiB random read, psync, 2 jobs", "IOPS", "4k randread\\npsync 2 jobs"),
    "rw4k-psync-1j": ("4 KiB random write, psync, 1 job", "IOPS", "4k randwrite\\npsync 1 job"),
    "rw4k-psync-2j": ("4 KiB random write, psync, 2 jobs", "IOPS", "4k randwrite\\npsync 2 jobs"),
    "rr4k-uring-qd32": ("4 KiB random read, io_uring, iodepth 32, 1 job", "IOPS",
                        "4k randread\\nio\\\\_uring qd32"),
    "rw4k-uring-qd1": ("4 KiB random write, io_uring, iodepth 1, 1 job", "IOPS",
                       "4k randwrite\\nio\\\\_uring qd1"),
    "sr1m-psync-1j": ("1 MiB sequential read, psync, 1 job", "MB/s", "1M seq read\\npsync 1 job"),
    "sw1m-psync-1j": ("1 MiB sequential write, psync, 1 job", "MB/s", "1M seq write\\npsync 1 job"),
}
# The project's targets: (description, rows, compared with, threshold, kind)
TARGETS = [
    ("sbd >= 0.9 x brd on 4 KiB rows",
     ["rr4k-psync-1j", "rr4k-psync-2j", "rw4k-psync-1j", "rw4k-psync-2j", "rr4k-uring-qd32"],
     "brd", 0.9),
    ("sbd >= 1.0 x brd on 1 MiB rows", ["sr1m-psync-1j", "sw1m-psync-1j"], "brd", 1.0),
    ("sbd >= 2 x null_blk memory_backed=1 on writes",
     ["rw4k-psync-1j", "rw4k-psync-2j", "sw1m-psync-1j"], "nullb-mem", 2.0),
    ("sbd within 15% of null_blk-nomem on 4 KiB reads (>= 0.85 x)",
     ["rr4k-psync-1j", "rr4k-psync-2j", "rr4k-uring-qd32"], "nullb-nomem", 0.85),
]


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
    """IOPS or MB/s of a fio JSON document (group_reporting: one job)."""
    job = doc["jobs"][0]
    side = job["write"] if job["write"]["io_bytes"] > job["read"]["io_bytes"] else job["read"]
    if unit == "IOPS":
        return side["iops"], side
    return side["bw_bytes"] / 1e6, side


def fmt_val(v, unit):
    if v is None:
        return "–"
    if unit == "IOPS":
        return f"{v / 1000:.1f}k"
    return f"{v:.0f}"


def selected(choice):
    """The [selected] word of a sysfs choice list."""
    for w in choice.split():
        if w.startswith("["):
            return w.strip("[]")
    return choice or "?"


def fmt_mib(kib):
    return f"{kib / 1024:.1f} MiB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
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
    cfg = {d: kv(records[f"dev.{d}"][1]) for d in devs}

    # ---- runs ----------------------------------------------------------------
    runs = {}      # (row, dev) -> [value per round]
    csv_rows = []
    for name, (kind, data) in sorted(records.items()):
        if kind != "json" or name.startswith("exp."):
            continue
        row, dev, rnd = name.split(".")
        doc = json.loads(data)
        unit = ROWS[row][1] if row in ROWS else "MB/s"
        val, side = fio_value(doc, unit)
        csv_rows.append({
            "row": row, "device": dev, "round": rnd,
            "iops": f"{side['iops']:.0f}",
            "MBps": f"{side['bw_bytes'] / 1e6:.1f}",
            "lat_mean_us": f"{side['lat_ns']['mean'] / 1000:.2f}",
            "runtime_ms": side["runtime"],
        })
        if row in ROWS:
            runs.setdefault((row, dev), []).append(val)
    with open(a.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["row", "device", "round", "iops", "MBps", "lat_mean_us",
                                          "runtime_ms"])
        w.writeheader()
        w.writerows(csv_rows)

    rows = [r for r in ROWS if any((r, d) in runs for d in devs)]

    def med(row, dev):
        v = runs.get((row, dev))
        return statistics.median(v) if v else None

    def ratio(row, dev, ref):
        """median ratio, worst (min/max), best (max/min)."""
        x, y = runs.get((row, dev)), runs.get((row, ref))
        if not x or not y:
            return None
        return (statistics.median(x) / statistics.median(y), min(x) / max(y), max(x) / min(y))

    def fmt_ratio(r):
        if r is None:
            return "–"
        return f"**{r[0]:.2f}** ({r[1]:.2f}–{r[2]:.2f})"

    md = []
    p = md.append
    kver = meta.get("kver", "?")
    rounds = int(meta.get("rounds", "0"))
    p(f"# sbd vs brd vs null_blk: {kver}, {host.get('date', '?')}")
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
    p(f"| fio | {meta.get('fio')}; `--direct=1 --time_based --runtime={meta.get('runtime')} "
      f"--ramp_time={meta.get('ramp')} --norandommap --randrepeat=0 --group_reporting` |")
    p(f"| method | {rounds} round(s); in each round every row runs on every disk in turn, the "
      f"order rotating per round; cells are median [min–max] over the rounds |")
    p(f"| disks | {meta.get('size_mib')} MiB each, 512-byte logical blocks, all four loaded at "
      f"once, each written whole (1 MiB, direct) before the runs, so reads hit real data |")
    p(f"| sbd | git {host.get('git', '?')}, sbd.ko sha256 {meta.get('sbd_ko_sha256', '?')}… |")
    p("")
    p("> **Under TCG, not real hardware.** The guest's CPUs are emulated, so every instruction "
      "costs several host instructions, memory copies and system calls are disproportionately "
      "slow, and fio's own user-space work is a large part of every I/O. Absolute numbers are "
      "far below a real machine and ratios between drivers are compressed towards 1; "
      "compare the drivers with each other, within this run only.")
    p("")

    # ---- devices ---------------------------------------------------------------
    p("## The disks and their queues")
    p("")
    p("| | " + " | ".join(DEV_LABEL[d] for d in devs) + " |")
    p("|---|" + "---|" * len(devs))

    def crow(label, fn):
        p(f"| {label} | " + " | ".join(fn(d) for d in devs) + " |")

    crow("device", lambda d: f"`{cfg[d].get('path')}`")
    crow("loaded as", lambda d: {
        "sbd": f"`insmod sbd.ko nsectors={int(meta['size_mib']) * 2048}`",
        "brd": f"`modprobe brd rd_nr=1 rd_size={int(meta['size_mib']) * 1024}`",
    }.get(d, f"configfs: memory_backed={cfg[d].get('nullb_memory_backed')} "
             f"irqmode={cfg[d].get('nullb_irqmode')} submit_queues={cfg[d].get('nullb_submit_queues')} "
             f"hw_queue_depth={cfg[d].get('nullb_hw_queue_depth')} blocking={cfg[d].get('nullb_blocking', '?')}"))
    crow("kind", lambda d: cfg[d].get("kind", "?"))
    crow("hw queues × depth", lambda d: (f"{cfg[d].get('hw_queues')} × {cfg[d].get('nr_requests')}"
                                         if cfg[d].get("kind") == "blk-mq" else "none (bio-based)"))
    crow("completion", lambda d: {
        "sbd": "inline in queue_rq, BLK_MQ_F_BLOCKING",
        "brd": "inline in submit_bio",
    }.get(d, "inline in queue_rq (irqmode=0)" + (
        ", BLK_MQ_F_BLOCKING" if cfg[d].get("nullb_blocking") == "1" else "")))
    crow("scheduler", lambda d: selected(cfg[d].get("scheduler", "")) if d != "brd" else "– (bio-based)")
    crow("logical / physical block", lambda d: f"{cfg[d].get('logical_block_size')} / "
                                              f"{cfg[d].get('physical_block_size')}")
    crow("max_sectors_kb", lambda d: cfg[d].get("max_sectors_kb", "?"))
    crow("max_segments × max_segment_size", lambda d: f"{cfg[d].get('max_segments', '?')} × "
                                                    f"{cfg[d].get('max_segment_size', '?')}")
    crow("iostats (I/O accounting)", lambda d: cfg[d].get("iostats", "?"))
    crow("wbt_lat_usec (writeback throttling)", lambda d: cfg[d].get("wbt_lat_usec", "– (none)"))
    crow("add_random", lambda d: cfg[d].get("add_random", "?"))
    crow("discard_max_bytes", lambda d: cfg[d].get("discard_max_bytes", "?"))
    p("")
    p("Every blk-mq disk has its scheduler set to `none` (a single-queue disk would get "
      "mq-deadline). null_blk is given sbd's queue shape (one hardware queue per CPU, 128 tags, "
      "no polled queue) and `irqmode=0`, so, like sbd and brd, it completes each request before "
      "returning instead of in a softirq (its default); memory-backed null_blk sets "
      "BLK_MQ_F_BLOCKING itself, as sbd does. `null_blk nomem` copies nothing: it is the block "
      "layer's ceiling for a blk-mq disk here. brd, being bio-based, has no tags, no request "
      "allocation and, on some kernels, no I/O accounting.")
    p("")

    # ---- throughput ------------------------------------------------------------
    p("## Throughput")
    p("")
    p("IOPS for the 4 KiB rows, MB/s (10^6 bytes) for the 1 MiB rows: median [min–max]. "
      "Ratios are of the medians, in brackets the worst case (sbd's min over the other's max) "
      "and the best (max over min).")
    p("")
    head = ["fio row", "unit"] + [DEV_LABEL[d] for d in devs]
    refs = [r for r in ("brd", "nullb-mem", "nullb-nomem") if r in devs and "sbd" in devs]
    head += [f"sbd / {DEV_LABEL[r]}" for r in refs]
    p("| " + " | ".join(head) + " |")
    p("|---|---|" + "---:|" * (len(head) - 2))
    for row in rows:
        label, unit, _ = ROWS[row]
        cells = [label, unit]
        for d in devs:
            v = runs.get((row, d))
            cells.append(f"{fmt_val(statistics.median(v), unit)} [{fmt_val(min(v), unit)}–"
                         f"{fmt_val(max(v), unit)}]" if v else "–")
        for r in refs:
            cells.append(fmt_ratio(ratio(row, "sbd", r)))
        p("| " + " | ".join(cells) + " |")
    p("")
    pre = {d: records.get(f"prefill.{d}.speed") for d in devs}
    if all(pre.values()):
        p("First write of the whole disk (the prefill: 1 MiB sequential writes, psync, one pass, "
          "so one sample): " + ", ".join(
              f"{DEV_LABEL[d]} {fio_value(json.loads(pre[d][1]), 'MB/s')[0]:.0f} MB/s" for d in devs)
          + ". For sbd, brd and null_blk mem every page is allocated here.")
        p("")
    p(f"![throughput relative to brd]({os.path.basename(a.out)}.png)")
    p("")

    # ---- targets -----------------------------------------------------------------
    p("## The project's targets")
    p("")
    p("The last column is what null_blk without memory, a blk-mq disk that copies nothing, "
      "reaches against the same disk in this run: the most any blk-mq driver could show here.")
    p("")
    p("| target | row | sbd ratio: median (worst–best) | met | null_blk nomem, same ratio |")
    p("|---|---|---:|---|---:|")
    verdicts = []
    for desc, trows, ref, thr in TARGETS:
        for row in trows:
            r = ratio(row, "sbd", ref) if ref in devs and "sbd" in devs else None
            if r is None:
                continue
            if r[0] >= thr:
                v = "yes" if r[1] >= thr else "yes (not in every round)"
            else:
                v = "**no**" if r[2] < thr else "**no** (median; some rounds do)"
            verdicts.append(v.startswith("yes"))
            c = (ratio(row, "nullb-nomem", ref)
                 if ref != "nullb-nomem" and "nullb-nomem" in devs else None)
            ceil = f"{c[0]:.2f}" if c else "–"
            p(f"| {desc} | {ROWS[row][0]} | {fmt_ratio(r)} vs {DEV_LABEL[ref]} | {v} | {ceil} |")
    mem = {d: kv(records[f"mem.{d}"][1]) for d in DEVICES if f"mem.{d}" in records}
    if "sbd" in mem and "brd" in mem:
        s, b = int(mem["sbd"]["written_kib"]), int(mem["brd"]["written_kib"])
        dev = (s - b) / b if b else float("inf")
        ok = abs(dev) <= 0.01
        verdicts.append(ok)
        p(f"| memory per GiB written within 1% of brd's | whole-disk write | "
          f"sbd {fmt_mib(s)}, brd {fmt_mib(b)}: {100 * dev:+.2f}% | {'yes' if ok else '**no**'} | – |")
    p("")
    p(f"{sum(verdicts)} of {len(verdicts)} met (judged on the medians).")
    p("")

    # ---- memory ------------------------------------------------------------------
    if mem:
        size = int(meta.get("size_mib", "1024"))
        big = {d: kv(records[f"big.{d}"][1]) for d in DEVICES if f"big.{d}" in records}
        p("## Memory")
        p("")
        p(f"One disk at a time, {size} MiB, measured as free memory (MemFree plus the per-CPU "
          "free lists, after dropping caches: `mem_free_kib` of tests/lib/common.sh) before and "
          "after each step. The disk is written whole with 1 MiB direct writes. "
          "\"Empty\" includes loading the module (sbd, brd) or creating the configfs disk.")
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
            f"{int(mem[d]['sbd_mem_bytes']) / 2**20:.1f} MiB (`/sys/block/sbd0/sbd/mem_bytes`)"
            if mem[d].get("sbd_mem_bytes") else "none"))
        mrow("given back by discarding the whole disk", lambda d: (
            fmt_mib(int(mem[d]["discard_returned_kib"])) if mem[d]["discard"] == "ok"
            else f"{fmt_mib(int(mem[d]['discard_returned_kib']))}: discard not supported"))
        mrow("given back by the unload", lambda d: fmt_mib(int(mem[d]["unload_returned_kib"])))
        mrow("not given back at the end", lambda d: fmt_mib(int(mem[d]["leak_kib"])))
        if big:
            g = next(iter(big.values()))["size_gib"]
            mrow(f"empty {int(g) // 1024 if int(g) >= 1024 else g} {'TiB' if int(g) >= 1024 else 'GiB'} disk",
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
        p(f"Raw: `{a.raw}/` (perf reports as `profile.*.txt`).")
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
    with open(a.out + ".dat", "w") as f:
        f.write("# row " + " ".join(f"{d}_med {d}_min {d}_max" for d in devs) + "\n")
        for row in rows:
            ref = med(row, "brd") if "brd" in devs else med(row, devs[0])
            cols = [f'"{ROWS[row][2]}"']
            for d in devs:
                v = runs.get((row, d))
                cols += ([f"{statistics.median(v) / ref:.4f}", f"{min(v) / ref:.4f}",
                          f"{max(v) / ref:.4f}"] if v else ["NaN"] * 3)
            f.write(" ".join(cols) + "\n")
    colors = {"sbd": "#d62728", "brd": "#1f77b4", "nullb-mem": "#2ca02c", "nullb-nomem": "#9a9a9a"}
    plots = []
    for i, d in enumerate(devs):
        c = 3 * i + 2
        src = f"'{os.path.basename(a.out)}.dat'" if i == 0 else "''"
        xt = ":xtic(1)" if i == 0 else ""
        title = DEV_LABEL[d].replace("_", "\\_")
        plots.append(f"{src} using {c}:{c + 1}:{c + 2}{xt} title '{title}' lc rgb '{colors[d]}'")
    gp = f"""# generated by bench/report.py
set terminal pngcairo size 1400,700 font 'sans,11'
set output '{os.path.basename(a.out)}.png'
set title "sbd, brd and null\\\\_blk on {kver}, {host.get('date', '')}: throughput relative to brd\\n\
median of {rounds} round(s), bars from min to max; {meta.get('ncpus')} vCPUs under QEMU TCG, \
{meta.get('size_mib')} MiB disks"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key top left
set bmargin 5
set ylabel 'throughput / brd (median)'
set yrange [0:*]
set grid ytics
set xtics font ',10'
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#1f77b4'
plot {', '.join(plots)}
"""
    with open(a.out + ".gp", "w") as f:
        f.write(gp)


if __name__ == "__main__":
    main()
