DESCRIPTION="ignore_flush=1, a lying disk: flush and FUA are acknowledged and counted, yet a cut loses what they covered; ignore_flush=0 honours them again"

requires() {
	require_features cache power_cut ignore_flush
	require_cmd fio
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d p=/tmp/sbd-p q=/tmp/sbd-q sum_p

	sbd_setup
	d=$(cfg_disk c size=$((64 << 20)) cache=1)
	make_pattern $p 64
	make_pattern $q 64
	sum_p=$(file_sum $p)
	# Durable first, before the disk starts lying.
	put $p "/dev/$d" 0
	expect_eq "honest flush" "$(dio "/dev/$d" f)" ok

	cfg_set c ignore_flush 1
	put $q "/dev/$d" 0
	expect_eq "fsync acknowledged" "$(dio "/dev/$d" f)" ok
	expect_eq "flushes" "$(sbd_stat "$d" flushes)" 2
	expect_eq "volatile after an ignored flush" "$(sbd_stat "$d" volatile_blocks)" 128
	fio --name=fua --filename="/dev/$d" --ioengine=libaio --direct=1 --sync=1 \
		--rw=write --bs=4k --offset=1m --size=16k --output=/dev/null ||
		fail "fio FUA writes failed"
	expect_eq "fua_writes" "$(sbd_stat "$d" fua_writes)" 4
	expect_eq "volatile after ignored FUA writes" "$(sbd_stat "$d" volatile_blocks)" 160
	expect_eq "sync DEV" "$(sync "/dev/$d" && echo ok)" ok

	power_cut c
	expect_eq "lost_blocks: all of it" "$(sbd_stat "$d" lost_blocks)" 160
	power_restore c
	expect_eq "flushed write lost: old data back" "$(dev_sum "/dev/$d" 0 65536)" "$sum_p"
	expect_eq "FUA writes lost" "$(dev_sum "/dev/$d" $((1 << 20)) 16384)" "$(zeros_sum 16384)"

	# Honest again.
	cfg_set c ignore_flush 0
	put $q "/dev/$d" 0
	expect_eq "flush" "$(dio "/dev/$d" f)" ok
	expect_eq "volatile after an honoured flush" "$(sbd_stat "$d" volatile_blocks)" 0
	power_cut c
	expect_eq "lost_blocks" "$(sbd_stat "$d" lost_blocks)" 0
	power_restore c
	expect_eq "flushed write kept" "$(dev_sum "/dev/$d" 0 65536)" "$(file_sum $q)"
}
