DESCRIPTION="rmmod is refused while a filesystem is mounted or the disk is open, and works after"

requires() {
	require_cmd mkfs.ext4
	require_kmod ext4
}

test_main() {
	sbd_load
	mkfs.ext4 -q -F /dev/sbd0
	mount_fs /dev/sbd0
	echo data >"$SBD_MNT/file"
	! rmmod sbd 2>/dev/null || fail "rmmod succeeded with sbd0 mounted"
	[ -d /sys/module/sbd ] || fail "module gone while mounted"
	expect_eq "file still readable" "$(cat "$SBD_MNT/file")" data
	umount "$SBD_MNT"
	echo "ok: rmmod refused while mounted"

	exec 3</dev/sbd0
	! rmmod sbd 2>/dev/null || fail "rmmod succeeded with sbd0 open"
	exec 3<&-
	echo "ok: rmmod refused while open"
	sbd_unload
	[ ! -d /sys/module/sbd ] || fail "module still loaded"
}
