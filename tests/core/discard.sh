DESCRIPTION="discard and write-zeroes: advertised, zeros read back, partial pages zeroed, neighbours intact"

requires() {
	require_cmd blkdiscard
}

# expect_file_at WHAT FILE OFFSET: the disk holds FILE at OFFSET.
expect_file_at() {
	expect_eq "$1" "$(dev_sum /dev/sbd0 "$3" "$(stat -c %s "$2")")" \
		"$(file_sum "$2")"
}

test_main() {
	local pat=/tmp/sbd-pat want=/tmp/sbd-want

	sbd_load
	[ "$(sysfs_q sbd0 discard_max_bytes)" -gt 0 ] || fail "discard not advertised"
	[ "$(sysfs_q sbd0 write_zeroes_max_bytes)" -gt 0 ] || fail "write-zeroes not advertised"
	expect_eq "discard granularity" "$(sysfs_q sbd0 discard_granularity)" 4096

	expect_eq "never-written MiB reads zeros" "$(dev_sum /dev/sbd0 $((32 << 20)) 1048576)" \
		"$(zeros_sum 1048576)"

	# Whole pages.
	make_pattern $pat 1024
	dd if=$pat of=/dev/sbd0 bs=64k oflag=direct status=none
	expect_file_at "pattern written" $pat 0
	blkdiscard -o 0 -l 1048576 /dev/sbd0
	expect_eq "discarded MiB reads zeros" "$(dev_sum /dev/sbd0 0 1048576)" "$(zeros_sum 1048576)"

	# Parts of a page: bytes 512..1535 of a 16 KiB pattern.
	make_pattern $pat 16
	dd if=$pat of=/dev/sbd0 bs=16k oflag=direct status=none
	blkdiscard -o 512 -l 1024 /dev/sbd0
	cp $pat $want
	dd if=/dev/zero of=$want bs=512 seek=1 count=2 conv=notrunc status=none
	expect_file_at "partial-page discard" $want 0

	# A range from the middle of one page to the middle of another.
	dd if=$pat of=/dev/sbd0 bs=16k oflag=direct status=none
	blkdiscard -o 3584 -l 5120 /dev/sbd0
	cp $pat $want
	dd if=/dev/zero of=$want bs=512 seek=7 count=10 conv=notrunc status=none
	expect_file_at "discard across a page boundary" $want 0

	# Write-zeroes (BLKZEROOUT) over 8 KiB in the middle of 16 KiB at 1 MiB.
	dd if=$pat of=/dev/sbd0 bs=16k seek=64 oflag=direct status=none
	blkdiscard -z -o $((1048576 + 4096)) -l 8192 /dev/sbd0
	cp $pat $want
	dd if=/dev/zero of=$want bs=4096 seek=1 count=2 conv=notrunc status=none
	expect_file_at "write-zeroes" $want 1048576

	# A discard of the whole (mostly empty) disk.
	blkdiscard /dev/sbd0
	expect_eq "whole disk zeros after discard" "$(dev_sum /dev/sbd0 0 $((64 << 20)))" \
		"$(zeros_sum $((64 << 20)))"
}
