DESCRIPTION="I/O statistics: off on a bio disk and on on an mq disk until queue/iostats says otherwise; /proc/diskstats then counts reads, writes and discards exactly"

requires() {
	# blkdiscard(8) reads the disk to look for signatures: use the ioctl.
	require_helper sbd-blkrange
}

# stat_field N: field N of sbd0's line in /proc/diskstats (1-based, as in
# Documentation/admin-guide/iostats.rst: 4 reads, 6 sectors read, 8 writes,
# 10 sectors written, 15 discards, 17 sectors discarded).
stat_field() {
	awk -v f="$1" '$3 == "sbd0" { print $(f + 3) }' /proc/diskstats
}

test_main() {
	local r0 w0 d0 rs0 ws0

	sbd_load
	# What blk-mq gives every disk; a bio-based disk starts without, as brd's.
	if [ "$(sbd_mode)" = bio ]; then
		expect_eq "queue/iostats of a bio disk" "$(cat /sys/block/sbd0/queue/iostats)" 0
		dd if=/dev/sbd0 of=/dev/null bs=4k count=3 iflag=direct status=none
		expect_eq "reads counted with iostats 0" "$(stat_field 1)" 0
		echo 1 >/sys/block/sbd0/queue/iostats
	else
		expect_eq "queue/iostats of an mq disk" "$(cat /sys/block/sbd0/queue/iostats)" 1
	fi
	r0=$(stat_field 1); rs0=$(stat_field 3)
	w0=$(stat_field 5); ws0=$(stat_field 7)
	d0=$(stat_field 12)
	dd if=/dev/sbd0 of=/dev/null bs=4k count=10 iflag=direct status=none
	dd if=/dev/zero of=/dev/sbd0 bs=4k count=5 oflag=direct status=none
	"$SBD_HELPERS/sbd-blkrange" discard /dev/sbd0 0 65536
	expect_eq "reads completed" $(($(stat_field 1) - r0)) 10
	expect_eq "sectors read" $(($(stat_field 3) - rs0)) 80
	expect_eq "writes completed" $(($(stat_field 5) - w0)) 5
	expect_eq "sectors written" $(($(stat_field 7) - ws0)) 40
	expect_eq "discards completed" $(($(stat_field 12) - d0)) 1
	expect_eq "sectors discarded" "$(stat_field 14)" 128
}
