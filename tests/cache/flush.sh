DESCRIPTION="write cache: an fsync of the disk (sync DEV, dd conv=fsync) sends one flush that makes every completed write durable; a cut loses only what came after"

requires() {
	require_features cache power_cut
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d p=/tmp/sbd-p q=/tmp/sbd-q r=/tmp/sbd-r s=/tmp/sbd-s f0 f

	sbd_setup
	d=$(cfg_disk c size=$((64 << 20)) cache=1)
	for f in $p $q $r $s; do
		make_pattern "$f" 64
	done

	f0=$(sbd_stat "$d" flushes)
	put $p "/dev/$d" 0
	expect_eq "fsync" "$(dio "/dev/$d" f)" ok
	expect_eq "flushes after one fsync" "$(stat_delta "$d" flushes "$f0")" 1
	expect_eq "volatile after fsync" "$(sbd_stat "$d" volatile_blocks)" 0

	put $q "/dev/$d" 1024
	expect_eq "volatile before sync DEV" "$(sbd_stat "$d" volatile_blocks)" 128
	sync "/dev/$d" || fail "sync /dev/$d failed"
	expect_eq "flushes after sync DEV" "$(stat_delta "$d" flushes "$f0")" 2
	expect_eq "volatile after sync DEV" "$(sbd_stat "$d" volatile_blocks)" 0

	dd if=$r of="/dev/$d" bs=64k seek=32 oflag=direct conv=fsync,notrunc status=none ||
		fail "dd conv=fsync failed"
	expect_eq "flushes after dd conv=fsync" "$(stat_delta "$d" flushes "$f0")" 3
	expect_eq "volatile after dd conv=fsync" "$(sbd_stat "$d" volatile_blocks)" 0

	# BLKFLSBUF: what the kernel does with it, for the record.
	blockdev --flushbufs "/dev/$d"
	echo "note: blockdev --flushbufs sent $(($(stat_delta "$d" flushes "$f0") - 3)) flush(es)"
	f0=$(sbd_stat "$d" flushes)

	# Not flushed: lost, and only it.
	put $s "/dev/$d" 3072
	expect_eq "volatile: 64 KiB unflushed" "$(sbd_stat "$d" volatile_blocks)" 128
	power_cut c
	expect_eq "lost_blocks" "$(sbd_stat "$d" lost_blocks)" 128
	expect_eq "power_cuts" "$(sbd_stat "$d" power_cuts)" 1
	power_restore c
	expect_eq "flushes: none since" "$(stat_delta "$d" flushes "$f0")" 0
	expect_eq "fsynced data" "$(dev_sum "/dev/$d" 0 65536)" "$(file_sum $p)"
	expect_eq "synced data" "$(dev_sum "/dev/$d" $((1 << 20)) 65536)" "$(file_sum $q)"
	expect_eq "dd conv=fsync data" "$(dev_sum "/dev/$d" $((2 << 20)) 65536)" "$(file_sum $r)"
	expect_eq "unflushed data gone" "$(dev_sum "/dev/$d" $((3 << 20)) 65536)" "$(zeros_sum 65536)"
}
