DESCRIPTION="write cache: discard and write-zeroes read as zeros at once but are volatile like writes: a cut brings the data back, a flush makes them stick"

requires() {
	require_features cache power_cut
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d p=/tmp/sbd-p sum

	sbd_setup
	d=$(cfg_disk c size=$((64 << 20)) cache=1)
	make_pattern $p 1024
	sum=$(file_sum $p)
	put $p "/dev/$d" 0
	expect_eq "flush" "$(dio "/dev/$d" f)" ok
	expect_eq "pages" "$(sbd_stat "$d" nr_pages)" 256

	# A discard of the first 256 KiB, a write-zeroes of the next 256 KiB.
	expect_eq "discard, write-zeroes" "$(dio "/dev/$d" d:0:256k z:256k:256k)" "ok ok"
	expect_eq "discards" "$(sbd_stat "$d" discards)" 1
	expect_eq "write_zeroes" "$(sbd_stat "$d" write_zeroes)" 1
	expect_eq "zeros read at once" "$(dev_sum "/dev/$d" 0 524288)" "$(zeros_sum 524288)"
	expect_eq "volatile blocks" "$(sbd_stat "$d" volatile_blocks)" 1024
	# Nothing was ever written there: nothing to lose.
	expect_eq "discard of unwritten space" "$(dio "/dev/$d" d:8m:1m)" ok
	expect_eq "volatile blocks after it" "$(sbd_stat "$d" volatile_blocks)" 1024

	power_cut c
	expect_eq "lost_blocks" "$(sbd_stat "$d" lost_blocks)" 1024
	power_restore c
	expect_eq "the data is back" "$(dev_sum "/dev/$d" 0 $((1 << 20)))" "$sum"

	# Flushed, they stay.
	expect_eq "discard, write-zeroes, flush" "$(dio "/dev/$d" d:0:256k z:256k:256k f)" "ok ok ok"
	power_cut c
	expect_eq "lost_blocks after a flush" "$(sbd_stat "$d" lost_blocks)" 0
	power_restore c
	expect_eq "zeros stay" "$(dev_sum "/dev/$d" 0 524288)" "$(zeros_sum 524288)"
	expect_eq "the rest stays" "$(dev_sum "/dev/$d" 524288 524288)" \
		"$(tail -c 524288 $p | sha256sum | cut -d' ' -f1)"
	expect_eq "pages after the flushed discard" "$(sbd_stat "$d" nr_pages)" 128
}
