DESCRIPTION="runtime disks: several sector sizes side by side, data kept across power off, memory back on rmdir"

disk_is() {	# disk_is sbdN NAME SIZE_BYTES LBS PBS
	expect_eq "$1 name" "$(sbd_stat "$1" name)" "$2"
	expect_eq "$1 size" $(($(cat "/sys/block/$1/size") * 512)) "$3"
	expect_eq "$1 logical block size" "$(sysfs_q "$1" logical_block_size)" "$4"
	expect_eq "$1 physical block size" "$(sysfs_q "$1" physical_block_size)" "$5"
}

test_main() {
	local pat=/tmp/sbd-pat a b c sum_b sum0 free0 attrs

	sbd_load nsectors=2048
	[ -d "$SBD_CONFIGFS" ] || fail "$SBD_CONFIGFS missing"
	printf 'parameter disk\n' | dd of=/dev/sbd0 conv=sync bs=512 oflag=direct status=none
	sum0=$(dev_sum /dev/sbd0 0 $((2048 * 512)))

	a=$(cfg_disk a size=$((64 << 20)))
	b=$(cfg_disk b size=$((32 << 20)) logical_block_size=1024)
	c=$(cfg_disk c size=$((16 << 20)) logical_block_size=4096 physical_block_size=8192)
	expect_eq "disk numbers after the parameter disk" "$a $b $c" "sbd1 sbd2 sbd3"
	disk_is sbd0 "" $((2048 * 512)) 512 4096
	disk_is "$a" a $((64 << 20)) 512 4096
	disk_is "$b" b $((32 << 20)) 1024 4096
	disk_is "$c" c $((16 << 20)) 4096 8192
	expect_eq "power reads back" "$(cfg_get a power)" 1

	# Every attribute file is listed in features, and nothing else.
	attrs=$(ls "$SBD_CONFIGFS/a" | sort | tr '\n' ' ')
	expect_eq "features = attribute files" \
		"$(cfg_get a features | tr ',' '\n' | sort | tr '\n' ' ')" "$attrs"

	# Power off keeps the data; power on brings it back, maybe as another sbdN.
	make_pattern $pat 4096
	dd if=$pat of="/dev/$b" bs=1M oflag=direct status=none
	sum_b=$(file_sum $pat)
	cfg_set b power 0
	[ ! -e "/sys/block/$b" ] || fail "/sys/block/$b still there after power 0"
	[ ! -e "/dev/$b" ] || fail "/dev/$b still there after power 0"
	expect_eq "device while off" "$(cfg_get b device)" ""
	expect_eq "power while off" "$(cfg_get b power)" 0
	b=$(cfg_disk_on b)
	expect_eq "data after power off and on" "$(dev_sum "/dev/$b" 0 $((4 << 20)))" "$sum_b"
	expect_eq "pages held after power on" "$(sbd_stat "$b" nr_pages)" 1024

	# The module stays while runtime disks exist.
	! rmmod sbd 2>/dev/null || fail "rmmod succeeded with runtime disks"

	# rmdir frees the disk and its memory, powered on or not.  Other memory
	# may come back at the same time, so the floor is what is asserted.
	dd if=/dev/urandom of="/dev/$a" bs=1M count=32 oflag=direct status=none
	expect_eq "pages held by $a" "$(sbd_stat "$a" nr_pages)" 8192
	free0=$(mem_free_kib)
	rmdir "$SBD_CONFIGFS/a"
	[ ! -e "/sys/block/$a" ] || fail "/sys/block/$a still there after rmdir"
	expect_range "KiB back after rmdir of 32 MiB written" "$(mem_gain_kib "$free0" 30720)" 30720 163840
	cfg_set b power 0
	free0=$(mem_free_kib)
	rmdir "$SBD_CONFIGFS/b" "$SBD_CONFIGFS/c"
	expect_range "KiB back after rmdir of a powered-off 4 MiB disk" "$(mem_gain_kib "$free0" 3072)" 3072 135168

	expect_eq "parameter disk untouched" "$(dev_sum /dev/sbd0 0 $((2048 * 512)))" "$sum0"
	sbd_unload
}
