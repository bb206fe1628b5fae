DESCRIPTION="grow under a partition table and a mounted ext4: the table stays valid, resize2fs grows the filesystem, files intact"

requires() {
	require_cmd mkfs.ext4 sfdisk resize2fs e2fsck
	require_kmod ext4
}

test_main() {
	local pat=/tmp/sbd-pat d sum table mib=$((1 << 20))

	sbd_load ndevices=0
	d=$(cfg_disk g size=$((64 * mib)) logical_block_size=4096)

	# A DOS table with one 32 MiB partition; the grow leaves room after it.
	echo 'start=1MiB, size=32MiB, type=83' | sfdisk -q "/dev/$d"
	table=$(sfdisk -d "/dev/$d")
	mkfs.ext4 -q -F "/dev/${d}p1"
	mount_fs "/dev/${d}p1"
	make_pattern $pat 4096
	sum=$(file_sum $pat)
	cp $pat "$SBD_MNT/file"

	cfg_set g size $((128 * mib))
	expect_eq "grown while mounted" "$(blockdev --getsize64 "/dev/$d")" $((128 * mib))
	expect_eq "file while mounted" "$(file_sum "$SBD_MNT/file")" "$sum"
	umount "$SBD_MNT"
	blockdev --rereadpt "/dev/$d"
	expect_eq "partition table after grow" "$(sfdisk -d "/dev/$d")" "$table"
	e2fsck -fn "/dev/${d}p1" >/dev/null || fail "e2fsck found errors after the grow"
	echo "ok: ext4 on the partition clean"
	mount_fs "/dev/${d}p1"
	expect_eq "file after remount" "$(file_sum "$SBD_MNT/file")" "$sum"
	umount "$SBD_MNT"

	# ext4 on the whole disk, grown online with resize2fs.
	cfg_set g power 0
	cfg_set g size $((64 * mib))
	d=$(cfg_disk_on g)
	mkfs.ext4 -q -F "/dev/$d"
	mount_fs "/dev/$d"
	cp $pat "$SBD_MNT/file"
	cfg_set g size $((256 * mib))
	resize2fs "/dev/$d" >/dev/null 2>&1 || fail "online resize2fs failed"
	expect_range "filesystem KiB after resize2fs" \
		"$(df -k --output=size "$SBD_MNT" | tail -n 1)" $((200 * 1024)) $((256 * 1024))
	expect_eq "file after online grow" "$(file_sum "$SBD_MNT/file")" "$sum"
	umount "$SBD_MNT"
	e2fsck -fn "/dev/$d" >/dev/null || fail "e2fsck found errors after resize2fs"
	echo "ok: ext4 clean after the online grow"
}
