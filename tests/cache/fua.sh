DESCRIPTION="write cache: a FUA write (O_DIRECT|O_DSYNC) is durable without a flush and counted in fua_writes; without the cache no FUA reaches the disk"

requires() {
	require_features cache power_cut
	require_cmd fio
}

. "$SBD_ROOT/tests/lib/cache.sh"

# fua_fio sbdN OFFSET SIZE: 4 KiB O_DIRECT|O_SYNC writes through libaio.
fua_fio() {
	fio --name=fua --filename="/dev/$1" --ioengine=libaio --direct=1 --sync=1 \
		--rw=write --bs=4k --offset="$2" --size="$3" --iodepth=1 \
		--output=/dev/null || fail "fio FUA writes at $2 failed"
}

test_main() {
	local d p=/tmp/sbd-p q=/tmp/sbd-q f0 u0 w0 sum_2m sum_3m

	sbd_setup
	d=$(cfg_disk c size=$((64 << 20)) cache=1)
	make_pattern $p 8
	make_pattern $q 16

	# dd oflag=direct,dsync: each write() is a FUA write; the kernel's
	# O_DSYNC handling may follow it with a flush of its own.
	f0=$(sbd_stat "$d" flushes)
	dd if=$p of="/dev/$d" bs=4k count=2 oflag=direct,dsync status=none ||
		fail "dd oflag=direct,dsync failed"
	expect_eq "fua_writes after two dd dsync writes" "$(sbd_stat "$d" fua_writes)" 2
	expect_eq "writes" "$(sbd_stat "$d" writes)" 2
	echo "note: dd oflag=direct,dsync: $(stat_delta "$d" flushes "$f0") flush(es) for 2 writes"
	expect_eq "volatile after dd dsync" "$(sbd_stat "$d" volatile_blocks)" 0

	# Plain writes, then FUA writes through libaio: an asynchronous O_DSYNC
	# write gets REQ_FUA and no flush after it.  One lands on a plain one.
	expect_eq "plain writes" "$(dio "/dev/$d" w:1m:4k:0x33 w:3m:4k:0x44)" "ok ok"
	expect_eq "volatile: the plain writes" "$(sbd_stat "$d" volatile_blocks)" 16
	f0=$(sbd_stat "$d" flushes)
	u0=$(sbd_stat "$d" fua_writes)
	w0=$(sbd_stat "$d" writes)
	fua_fio "$d" 2m 16k
	fua_fio "$d" 3m 4k
	expect_eq "fua_writes from fio: 5" "$(stat_delta "$d" fua_writes "$u0")" 5
	expect_eq "writes from fio: 5" "$(stat_delta "$d" writes "$w0")" 5
	expect_eq "flushes from fio: none" "$(stat_delta "$d" flushes "$f0")" 0
	expect_eq "volatile: the plain write not overwritten" "$(sbd_stat "$d" volatile_blocks)" 8
	sum_2m=$(dev_sum "/dev/$d" $((2 << 20)) 16384)
	sum_3m=$(dev_sum "/dev/$d" $((3 << 20)) 4096)
	[ "$sum_2m" != "$(zeros_sum 16384)" ] || fail "fio wrote zeros"

	power_cut c
	expect_eq "lost_blocks: the plain write" "$(sbd_stat "$d" lost_blocks)" 8
	power_restore c
	expect_eq "dd dsync data" "$(dev_sum "/dev/$d" 0 8192)" "$(file_sum $p)"
	expect_eq "fio FUA data" "$(dev_sum "/dev/$d" $((2 << 20)) 16384)" "$sum_2m"
	expect_eq "FUA write over a plain one" "$(dev_sum "/dev/$d" $((3 << 20)) 4096)" "$sum_3m"
	expect_eq "plain write gone" "$(dev_sum "/dev/$d" $((1 << 20)) 4096)" "$(zeros_sum 4096)"

	# Without the cache the block layer strips FUA and drops flushes.
	d=$(cfg_disk wt size=$((16 << 20)))
	dd if=$q of="/dev/$d" bs=4k count=4 oflag=direct,dsync status=none ||
		fail "dd dsync on a write-through disk failed"
	expect_eq "write-through: fua_writes" "$(sbd_stat "$d" fua_writes)" 0
	expect_eq "write-through: flushes" "$(sbd_stat "$d" flushes)" 0
	expect_eq "write-through: writes" "$(sbd_stat "$d" writes)" 4
}
