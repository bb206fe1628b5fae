DESCRIPTION="a write, discard or write-zeroes failed by a rule changes nothing on the disk, not even in the write cache; once the rule is spent they land"

requires() {
	require_features errors cache power_cut
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d p=/tmp/sbd-p q=/tmp/sbd-q sum_p

	sbd_setup
	for c in 0 1; do
		d=$(cfg_disk "u$c" size=$((16 << 20)) cache=$c)
		make_pattern $p 1024
		make_pattern $q 1024
		sum_p=$(file_sum $p)
		put $p "/dev/$d" 0
		[ "$(dio "/dev/$d" f)" = ok ] || fail "flush failed"
		expect_eq "cache=$c: pages" "$(sbd_stat "$d" nr_pages)" 256

		cfg_set "u$c" errors "op=write next=2"
		cfg_set "u$c" errors "op=discard next=1"
		cfg_set "u$c" errors "op=write_zeroes next=1"
		! dd if=$q of="/dev/$d" bs=1M count=1 oflag=direct status=none 2>/dev/null ||
			fail "cache=$c: 1 MiB write succeeded"
		expect_eq "cache=$c: 512-byte write, discard, write-zeroes" \
			"$(dio "/dev/$d" w:4096:512:0 d:0:1m z:0:64k)" "EIO EIO EIO"
		expect_eq "cache=$c: data unchanged" "$(dev_sum "/dev/$d" 0 $((1 << 20)))" "$sum_p"
		expect_eq "cache=$c: pages unchanged" "$(sbd_stat "$d" nr_pages)" 256
		expect_eq "cache=$c: volatile blocks" "$(sbd_stat "$d" volatile_blocks)" 0
		expect_eq "cache=$c: errors_injected" "$(sbd_stat "$d" errors_injected)" 4

		# Spent: the same write lands.
		dd if=$q of="/dev/$d" bs=1M count=1 oflag=direct status=none ||
			fail "cache=$c: write after the rules were spent failed"
		expect_eq "cache=$c: data after" "$(dev_sum "/dev/$d" 0 $((1 << 20)))" "$(file_sum $q)"
		if [ $c = 1 ]; then
			# And a cut takes back exactly it, to the old data.
			expect_eq "volatile blocks" "$(sbd_stat "$d" volatile_blocks)" 2048
			power_cut u1
			power_restore u1
			expect_eq "after a cut" "$(dev_sum "/dev/$d" 0 $((1 << 20)))" "$sum_p"
		fi
	done
}
