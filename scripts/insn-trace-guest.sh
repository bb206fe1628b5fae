#!/bin/bash
# Guest side of scripts/insn-trace: a 256 MiB sbd bio disk and a 256 MiB
# brd, the first half of each written; the kernel's text symbols go to the
# results channel; then, once gdb is attached, one 4 KiB O_DIRECT read and
# one write at the same offset in the written half, and in the fresh half
# (the allocation path) one 16 KiB write (four new pages and the xarray
# nodes above them), then one 4 KiB write of a new page under the same
# leaf node (no node to allocate: what most of ext4's writeback is), on
# each disk, sbd first.
set -eu
modprobe -d "$SBD_MODDIR" configfs 2>/dev/null || true
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
insmod "$INSN_TRACE_KO" ndevices=0
d=/sys/kernel/config/sbd/trace
mkdir $d
echo bio >$d/queue_mode
echo $((256 << 20)) >$d/size
echo 1 >$d/power
sbd=/dev/$(cat $d/device)
modprobe -d "$SBD_MODDIR" brd rd_nr=1 rd_size=$((256 * 1024))
for dev in "$sbd" /dev/ram0; do
	dd if=/dev/zero of="$dev" bs=1M count=128 oflag=direct status=none
done
grep -iE ' t ' /proc/kallsyms >"$SBD_RESULTS"
# In the order the I/O below comes: gdb waits for each in turn.
for f in sbd_submit_bio brd_submit_bio; do
	grep -E " ${f}[[:space:]]" /proc/kallsyms | sed 's/^/INSN-TRACE-ADDR /'
done
echo INSN-TRACE-READY
sleep 15			# gdb attaches and sets its breakpoints
for dev in "$sbd" /dev/ram0; do
	dd if="$dev" of=/dev/null bs=4k count=1 skip=12345 iflag=direct status=none
	dd if=/dev/zero of="$dev" bs=4k count=1 seek=12345 oflag=direct status=none
	dd if=/dev/zero of="$dev" bs=16k count=1 seek=12345 oflag=direct status=none
	dd if=/dev/zero of="$dev" bs=4k count=1 seek=49390 oflag=direct status=none
done
echo 0 >$d/power
rmdir $d
rmmod sbd brd
