DESCRIPTION="I/O at or past the end fails and changes nothing; the last block still works"

requires() {
	require_cmd blkdiscard
}

test_main() {
	local pat=/tmp/sbd-pat end=$((2048 * 512)) sum before

	sbd_load nsectors=2048
	make_pattern $pat 8
	dd if=$pat of=/dev/sbd0 bs=8k seek=127 oflag=direct status=none
	sum=$(sha256sum <$pat | cut -d' ' -f1)
	expect_eq "last 8 KiB" "$(dev_sum /dev/sbd0 $((end - 8192)) 8192)" "$sum"
	before=$(dev_sum /dev/sbd0 0 $end)

	! dd if=$pat of=/dev/sbd0 bs=512 seek=2048 count=1 oflag=direct status=none 2>/dev/null ||
		fail "a write at the end succeeded"
	echo "ok: write at the end refused"
	expect_eq "bytes read at the end" \
		"$(dd if=/dev/sbd0 bs=512 skip=2048 count=1 iflag=direct status=none | wc -c)" 0
	! blkdiscard -o $((end - 4096)) -l 8192 /dev/sbd0 2>/dev/null ||
		fail "a discard past the end succeeded"
	! blkdiscard -z -o $((end - 4096)) -l 8192 /dev/sbd0 2>/dev/null ||
		fail "a write-zeroes past the end succeeded"
	echo "ok: discard and write-zeroes past the end refused"
	expect_eq "disk unchanged" "$(dev_sum /dev/sbd0 0 $end)" "$before"
}
