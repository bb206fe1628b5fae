DESCRIPTION="ndevices, max_part and major_num: several independent disks with the right device numbers"

test_main() {
	local i major

	sbd_load ndevices=4 max_part=3 nsectors=2048
	[ ! -e /sys/block/sbd4 ] || fail "sbd4 exists with ndevices=4"
	major=$(awk '$2 == "sbd" { print $1 }' /proc/devices)
	for i in 0 1 2 3; do
		expect_eq "sbd$i dev" "$(cat /sys/block/sbd$i/dev)" "$major:$((i * 4))"
		expect_eq "sbd$i minors" "$(cat /sys/block/sbd$i/range)" 4
		# Tag each disk with its own number...
		printf 'disk %d\n' $i | dd of=/dev/sbd$i conv=sync bs=512 oflag=direct status=none
	done
	# ...and find each tag on its own disk only.
	for i in 0 1 2 3; do
		expect_eq "sbd$i content" \
			"$(dd if=/dev/sbd$i bs=512 count=1 iflag=direct status=none | tr -d '\0')" \
			"disk $i"
	done
	sbd_unload

	sbd_load max_part=0
	expect_eq "max_part=0 minors" "$(cat /sys/block/sbd0/range)" 1
	echo ',,L' | sfdisk -q /dev/sbd0 2>/dev/null || true
	blockdev --rereadpt /dev/sbd0 2>/dev/null || true
	[ ! -e /sys/block/sbd0/sbd0p1 ] || fail "partition appeared with max_part=0"
	echo "ok: no partitions with max_part=0"
	sbd_unload

	sbd_load major_num=240
	expect_eq "fixed major" "$(cat /sys/block/sbd0/dev)" "240:0"
	grep -qE '^240 sbd$' /proc/devices || fail "/proc/devices does not list 240 sbd"
	sbd_unload
}
