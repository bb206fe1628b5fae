DESCRIPTION="per-disk sysfs counters: requests of each kind and the memory held, exactly"

requires() {
	require_helper sbd-blkrange
}

stat() {
	cat "/sys/block/$1/sbd/$2"
}

test_main() {
	local s r0

	sbd_load ndevices=2
	for s in nr_pages mem_bytes reads writes flushes discards write_zeroes; do
		[ -r "/sys/block/sbd1/sbd/$s" ] || fail "/sys/block/sbd1/sbd/$s missing"
	done
	expect_eq "pages of a new disk" "$(stat sbd0 nr_pages)" 0
	# The partition scan at load time has read something already.
	r0=$(stat sbd0 reads)

	dd if=/dev/sbd0 of=/dev/null bs=4k count=10 iflag=direct status=none
	dd if=/dev/urandom of=/dev/sbd0 bs=4k count=5 oflag=direct status=none
	dd if=/dev/urandom of=/dev/sbd0 bs=512 count=1 seek=80 oflag=direct status=none
	expect_eq "reads" $(($(stat sbd0 reads) - r0)) 10
	expect_eq "writes" "$(stat sbd0 writes)" 6
	expect_eq "pages after 5 whole pages and one sector" "$(stat sbd0 nr_pages)" 6
	expect_eq "memory held" "$(stat sbd0 mem_bytes)" $((6 * 4096))

	"$SBD_HELPERS/sbd-blkrange" discard /dev/sbd0 0 8192 >/dev/null
	expect_eq "discards" "$(stat sbd0 discards)" 1
	expect_eq "pages after discarding two" "$(stat sbd0 nr_pages)" 4
	"$SBD_HELPERS/sbd-blkrange" zeroout /dev/sbd0 8192 4096 >/dev/null
	expect_eq "write-zeroes" "$(stat sbd0 write_zeroes)" 1
	expect_eq "pages after zeroing one" "$(stat sbd0 nr_pages)" 3
	# Without a volatile write cache the block layer sends no flush.
	sync /dev/sbd0
	expect_eq "flushes" "$(stat sbd0 flushes)" 0

	expect_eq "other disk untouched: writes" "$(stat sbd1 writes)" 0
	expect_eq "other disk untouched: pages" "$(stat sbd1 nr_pages)" 0
}
