# scripts/insn-trace.py: two halves of scripts/insn-trace.
#
# Under gdb (gdb -batch -x insn-trace.py): attaches to QEMU's gdb stub on
# 127.0.0.1:$INSN_TRACE_PORT and, for each NAME=ADDR of $INSN_TRACE_FUNCS in
# turn, stops at ADDR once per entry of OPS (a read, a write, two first
# writes) and single-steps from there until the call returns to its caller,
# writing every program counter to $INSN_TRACE_FILE after a
# "CALL NAME N COUNT" line.
#
# Under python3 (python3 insn-trace.py TRACE SYMS): the table: per call,
# the total and the instructions in each function (SYMS: /proc/kallsyms).
import bisect
import collections
import os
import sys

OPS = ("4 KiB read", "4 KiB write", "16 KiB new", "4 KiB new")


def trace():
    import gdb

    gdb.execute("set pagination off")
    gdb.execute("target remote 127.0.0.1:%s" % os.environ["INSN_TRACE_PORT"])
    inferior = gdb.selected_inferior()
    mask = (1 << 64) - 1

    def reg(name):
        return int(gdb.parse_and_eval("$" + name)) & mask

    with open(os.environ["INSN_TRACE_FILE"], "w") as out:
        for func in os.environ["INSN_TRACE_FUNCS"].split(","):
            name, addr = func.split("=")
            gdb.execute("delete")
            gdb.execute("hbreak *0x%s" % addr, to_string=True)
            for call in range(len(OPS)):
                gdb.execute("continue", to_string=True)
                sp = reg("rsp")
                ret = int.from_bytes(bytes(inferior.read_memory(sp, 8)), "little")
                pcs = []
                # Until the return address runs with the frame popped.
                while not (reg("pc") == ret and reg("rsp") > sp):
                    pcs.append(reg("pc"))
                    gdb.execute("stepi", to_string=True)
                out.write("CALL %s %d %d\n" % (name, call, len(pcs)))
                out.writelines("%x\n" % pc for pc in pcs)
        gdb.execute("delete")
        gdb.execute("detach")


def table(trace_file, syms_file):
    syms = []
    for line in open(syms_file):
        f = line.split()
        if len(f) >= 3:
            syms.append((int(f[0], 16), f[2]))
    syms.sort()
    starts = [a for a, _ in syms]
    calls = collections.OrderedDict()
    for line in open(trace_file):
        if line.startswith("CALL"):
            _, name, n, _ = line.split()
            pcs = calls.setdefault("%s, %s" % (name.split("_")[0], OPS[int(n)]), [])
        else:
            pcs.append(int(line, 16))
    per = {}
    reps = {}
    for what, pcs in calls.items():
        c = collections.Counter()
        reps[what] = sum(1 for a, b in zip(pcs, pcs[1:]) if a == b)
        for pc in pcs:
            i = bisect.bisect_right(starts, pc) - 1
            c[syms[i][1] if i >= 0 else "?"] += 1
        per[what] = c
    cols = list(per)
    funcs = sorted({f for c in per.values() for f in c},
                   key=lambda f: (-max(c[f] for c in per.values()), f))
    print("instructions per call of ->submit_bio, callees included")
    print("%-32s" % "function" + "".join("%16s" % w.split(", ")[0] + "" for w in cols))
    print("%-32s" % "" + "".join("%16s" % w.split(", ")[1] for w in cols))
    for f in funcs:
        print("%-32s" % f + "".join("%16d" % per[w][f] for w in cols))
    print("%-32s" % "total" + "".join("%16d" % sum(per[w].values()) for w in cols))
    print("%-32s" % "of which rep iterations" + "".join("%16d" % reps[w] for w in cols))


if __name__ == "__main__" and len(sys.argv) == 3:
    table(sys.argv[1], sys.argv[2])
else:
    trace()
