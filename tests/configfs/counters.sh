DESCRIPTION="a runtime disk's counters match a known fio workload exactly"

requires() {
	require_cmd fio
}

fio_run() {
	fio --name=job --filename="/dev/$1" --direct=1 --ioengine=psync --output=/dev/null "${@:2}" ||
		fail "fio ${*:2} failed"
}

test_main() {
	local d r0

	sbd_load ndevices=0
	d=$(cfg_disk f size=$((64 << 20)))
	# The partition scan at power on has read something already.
	r0=$(sbd_stat "$d" reads)
	expect_eq "writes of a new disk" "$(sbd_stat "$d" writes)" 0

	fio_run "$d" --rw=write --bs=4k --size=4M
	expect_eq "writes: 4 MiB in 4 KiB" "$(sbd_stat "$d" writes)" 1024
	expect_eq "pages" "$(sbd_stat "$d" nr_pages)" 1024
	fio_run "$d" --rw=randwrite --bs=64k --size=64M --io_size=8M
	expect_eq "writes: plus 8 MiB in 64 KiB" "$(sbd_stat "$d" writes)" $((1024 + 128))
	fio_run "$d" --rw=randread --bs=16k --size=64M --io_size=2M
	expect_eq "reads: 2 MiB in 16 KiB" $(($(sbd_stat "$d" reads) - r0)) 128
	fio_run "$d" --rw=trim --bs=1M --size=2M
	expect_eq "discards: 2 MiB in 1 MiB" "$(sbd_stat "$d" discards)" 2
	expect_range "pages after trimming the first 2 MiB" "$(sbd_stat "$d" nr_pages)" 0 $((1024 + 2048 - 512))
	expect_eq "memory held = pages" "$(sbd_stat "$d" mem_bytes)" $(($(sbd_stat "$d" nr_pages) * 4096))
	# Without a volatile write cache the block layer passes no flush down.
	fio_run "$d" --rw=write --bs=4k --size=64k --fsync=1
	expect_eq "flushes without a write cache" "$(sbd_stat "$d" flushes)" 0
	expect_eq "writes: plus 16" "$(sbd_stat "$d" writes)" $((1024 + 128 + 16))
}
