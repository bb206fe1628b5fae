DESCRIPTION="online resize: grow and shrink keep the data below the new size, free what lies beyond, and read zeros after a regrow"

test_main() {
	local pat=/tmp/sbd-pat d sum_a sum_b mib=$((1 << 20))

	sbd_load ndevices=0
	d=$(cfg_disk r size=$((64 * mib)))
	make_pattern $pat 8192
	sum_a=$(file_sum $pat)
	dd if=$pat of="/dev/$d" bs=1M oflag=direct status=none
	make_pattern $pat 8192
	sum_b=$(file_sum $pat)
	dd if=$pat of="/dev/$d" bs=1M seek=40 oflag=direct status=none
	expect_eq "pages before" "$(sbd_stat "$d" nr_pages)" 4096

	# Shrink below the second pattern: its pages go, the first stays.
	cfg_set r size $((32 * mib))
	expect_eq "size attribute" "$(cfg_get r size)" $((32 * mib))
	expect_eq "sectors after shrink" "$(cat "/sys/block/$d/size")" 65536
	expect_eq "blockdev size after shrink" "$(blockdev --getsize64 "/dev/$d")" $((32 * mib))
	expect_eq "pages after shrink" "$(sbd_stat "$d" nr_pages)" 2048
	expect_eq "data below the new size" "$(dev_sum "/dev/$d" 0 $((8 * mib)))" "$sum_a"
	! dd if=$pat of="/dev/$d" bs=4k seek=$((8192)) count=1 oflag=direct status=none 2>/dev/null ||
		fail "a write at the old end succeeded after the shrink"
	echo "ok: write past the new end refused"

	# Grow again: what was cut reads as zeros, not as the old data.
	cfg_set r size $((64 * mib))
	expect_eq "sectors after grow" "$(cat "/sys/block/$d/size")" 131072
	expect_eq "cut region reads zeros" "$(dev_sum "/dev/$d" $((40 * mib)) $((8 * mib)))" \
		"$(zeros_sum $((8 * mib)))"
	expect_eq "data kept over shrink and grow" "$(dev_sum "/dev/$d" 0 $((8 * mib)))" "$sum_a"
	expect_eq "pages after grow" "$(sbd_stat "$d" nr_pages)" 2048

	# A shrink to mid-page zeroes the rest of that page and keeps the start.
	dd if=$pat of="/dev/$d" bs=4k count=1 seek=$((16 * 256)) oflag=direct status=none
	cfg_set r size $((16 * mib + 1024))
	cfg_set r size $((16 * mib + 4096))
	expect_eq "first 1 KiB of the cut page" "$(dev_sum "/dev/$d" $((16 * mib)) 1024)" \
		"$(head -c 1024 $pat | sha256sum | cut -d' ' -f1)"
	expect_eq "rest of the cut page" "$(dev_sum "/dev/$d" $((16 * mib + 1024)) 3072)" \
		"$(zeros_sum 3072)"

	# Bad sizes change nothing.
	expect_eq "size 1000 (not a multiple of 512)" "$(cfg_write r size 1000)" "Invalid argument"
	dmesg | grep -qF "r: size=1000 is invalid: must be a non-zero multiple of logical_block_size=512" ||
		fail "no message for size=1000"
	expect_eq "size 0" "$(cfg_write r size 0)" "Invalid argument"
	expect_eq "size attribute after bad writes" "$(cfg_get r size)" $((16 * mib + 4096))
	expect_eq "sectors after bad writes" "$(cat "/sys/block/$d/size")" $(((16 * mib + 4096) / 512))
}
