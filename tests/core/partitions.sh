DESCRIPTION="sfdisk makes two partitions; each has its size and its own data at its offset of the disk"

test_main() {
	local p1=/tmp/sbd-p1 p2=/tmp/sbd-p2 s1 s2

	sbd_load
	printf 'label: dos\nstart=2048, size=65536, type=83\nstart=67584, type=c\n' |
		sfdisk -q /dev/sbd0
	[ -b /dev/sbd0p1 ] && [ -b /dev/sbd0p2 ] || fail "partition devices missing"
	[ ! -e /dev/sbd0p3 ] || fail "a third partition appeared"
	expect_eq "p1 start" "$(cat /sys/block/sbd0/sbd0p1/start)" 2048
	expect_eq "p1 size" "$(blockdev --getsize64 /dev/sbd0p1)" $((65536 * 512))
	expect_eq "p2 start" "$(cat /sys/block/sbd0/sbd0p2/start)" 67584
	expect_eq "p2 size" "$(blockdev --getsize64 /dev/sbd0p2)" $(((131072 - 67584) * 512))
	expect_eq "table as sfdisk reads it back" \
		"$(sfdisk -d /dev/sbd0 | grep -c '^/dev/sbd0p')" 2

	make_pattern $p1 1024
	make_pattern $p2 1024
	dd if=$p1 of=/dev/sbd0p1 bs=64k oflag=direct status=none
	dd if=$p2 of=/dev/sbd0p2 bs=64k oflag=direct status=none
	s1=$(file_sum $p1)
	s2=$(file_sum $p2)
	expect_eq "p1 data via the partition" "$(dev_sum /dev/sbd0p1 0 1048576)" "$s1"
	expect_eq "p1 data via the disk" "$(dev_sum /dev/sbd0 $((2048 * 512)) 1048576)" "$s1"
	expect_eq "p2 data via the disk" "$(dev_sum /dev/sbd0 $((67584 * 512)) 1048576)" "$s2"
	expect_eq "gap before p1 untouched" "$(dev_sum /dev/sbd0 4096 $((2048 * 512 - 4096)))" \
		"$(zeros_sum $((2048 * 512 - 4096)))"
}
