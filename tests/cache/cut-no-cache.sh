DESCRIPTION="without the write cache a power cut loses nothing, yet the disk fails every request with EIO until power is restored"

requires() {
	require_features power_cut
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d p=/tmp/sbd-p sum r0 w0

	sbd_setup
	d=$(cfg_disk n size=$((16 << 20)))
	make_pattern $p 512
	sum=$(file_sum $p)
	put $p "/dev/$d" 0
	expect_eq "volatile blocks without cache" "$(sbd_stat "$d" volatile_blocks)" 0

	power_cut n
	expect_eq "power_cuts" "$(sbd_stat "$d" power_cuts)" 1
	expect_eq "lost_blocks" "$(sbd_stat "$d" lost_blocks)" 0
	r0=$(sbd_stat "$d" reads)
	w0=$(sbd_stat "$d" writes)
	expect_eq "I/O while cut" "$(dio "/dev/$d" r:0:4k r:1m:64k w:4m:4k d:0:4k z:8m:4k f)" \
		"EIO EIO EIO EIO EIO ok"
	echo "(the flush succeeds: without a write cache the block layer never sends it)"
	expect_eq "errors_injected: a cut is not a rule" "$(sbd_stat "$d" errors_injected)" 0
	power_cut n
	expect_eq "a second power_cut=1 while cut is no new cut" "$(sbd_stat "$d" power_cuts)" 1

	power_restore n
	expect_eq "data after the cut" "$(dev_sum "/dev/$d" 0 $((512 << 10)))" "$sum"
	expect_eq "I/O after restore" "$(dio "/dev/$d" r:0:4k w:4m:4k)" "ok ok"
	echo "note: requests failed while cut: reads counted $(($(sbd_stat "$d" reads) - r0 - 2)), writes $(($(sbd_stat "$d" writes) - w0 - 1))"

	# An orderly power off and on: a disk not cut any more.
	power_cut n
	cfg_set n power 0
	d=$(cfg_disk_on n)
	expect_eq "power_cut after power off and on" "$(cfg_get n power_cut)" 0
	expect_eq "I/O after power off and on" "$(dio "/dev/$d" r:0:4k)" ok
	expect_eq "data after power off and on" "$(dev_sum "/dev/$d" 0 $((512 << 10)))" "$sum"
}
