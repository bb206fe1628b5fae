DESCRIPTION="hardsect_size 512..4096: capacity is nsectors x hardsect_size and the last block holds data"

test_main() {
	local bs pat=/tmp/sbd-pat

	for bs in 512 1024 2048 4096; do
		sbd_load nsectors=1000 hardsect_size=$bs
		expect_eq "$bs: size" "$(blockdev --getsize64 /dev/sbd0)" $((1000 * bs))
		expect_eq "$bs: logical block size" "$(blockdev --getss /dev/sbd0)" $bs
		expect_eq "$bs: sysfs logical_block_size" "$(sysfs_q sbd0 logical_block_size)" $bs
		expect_eq "$bs: physical block size" "$(blockdev --getpbsz /dev/sbd0)" 4096
		expect_eq "$bs: 512-byte sectors" "$(cat /sys/block/sbd0/size)" $((1000 * bs / 512))

		# The last logical block takes data; its neighbour stays zero.
		head -c $bs /dev/urandom >$pat
		dd if=$pat of=/dev/sbd0 bs=$bs seek=999 oflag=direct status=none
		expect_eq "$bs: last block" "$(dev_sum /dev/sbd0 $((999 * bs)) $bs)" \
			"$(file_sum $pat)"
		expect_eq "$bs: block before it" "$(dev_sum /dev/sbd0 $((998 * bs)) $bs)" \
			"$(zeros_sum $bs)"
		# A write smaller than a logical block is refused.
		if [ $bs -gt 512 ]; then
			! dd if=$pat of=/dev/sbd0 bs=512 count=1 oflag=direct status=none 2>/dev/null ||
				fail "$bs: a 512-byte direct write was accepted"
		fi
		sbd_unload
	done
}
