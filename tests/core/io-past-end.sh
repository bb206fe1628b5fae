DESCRIPTION="I/O at or past the end fails and changes nothing; the last block still works"

requires() {
	require_helper sbd-blkrange
}

test_main() {
	local pat=/tmp/sbd-pat end=$((2048 * 512)) sum before

	sbd_load nsectors=2048
	make_pattern $pat 8
	dd if=$pat of=/dev/sbd0 bs=8k seek=127 oflag=direct status=none
	sum=$(file_sum $pat)
	expect_eq "last 8 KiB" "$(dev_sum /dev/sbd0 $((end - 8192)) 8192)" "$sum"
	before=$(dev_sum /dev/sbd0 0 $end)

	! dd if=$pat of=/dev/sbd0 bs=512 seek=2048 count=1 oflag=direct status=none 2>/dev/null ||
		fail "a write at the end succeeded"
	echo "ok: write at the end refused"
	expect_eq "bytes read at the end" \
		"$(dd if=/dev/sbd0 bs=512 skip=2048 count=1 iflag=direct status=none | wc -c)" 0
	# blkdiscard(8) would clamp the range to the disk: ask the kernel directly.
	expect_eq "discard across the end" \
		"$("$SBD_HELPERS/sbd-blkrange" discard /dev/sbd0 $((end - 4096)) 8192)" EINVAL
	expect_eq "write-zeroes across the end" \
		"$("$SBD_HELPERS/sbd-blkrange" zeroout /dev/sbd0 $((end - 4096)) 8192)" EINVAL
	expect_eq "discard starting at the end" \
		"$("$SBD_HELPERS/sbd-blkrange" discard /dev/sbd0 $end 4096)" EINVAL
	expect_eq "disk unchanged" "$(dev_sum /dev/sbd0 0 $end)" "$before"
}
