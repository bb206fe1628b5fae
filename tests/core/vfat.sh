DESCRIPTION="vfat on sbd0p2 next to ext4 on sbd0p1: both filled, remounted, fsck clean, checksums equal"

requires() {
	require_cmd mkfs.vfat fsck.vfat mkfs.ext4 e2fsck
	require_kmod ext4 vfat nls_cp437 nls_ascii nls_utf8 nls_iso8859-1
}

fill() {
	local i
	for i in $(seq 1 16); do
		head -c $((i * 131 * 1024)) /dev/urandom >"$SBD_MNT/$1$i.bin"
	done
	(cd "$SBD_MNT" && sha256sum ./*.bin) >"/tmp/sbd-$1.sha256"
}

check() {
	(cd "$SBD_MNT" && sha256sum --quiet -c "/tmp/sbd-$1.sha256") ||
		fail "$1: checksums differ after remount"
	echo "ok: $1 checksums equal after remount"
}

test_main() {
	sbd_load
	printf 'label: dos\nsize=30MiB, type=83\ntype=c\n' | sfdisk -q /dev/sbd0
	mkfs.ext4 -q -F /dev/sbd0p1
	mkfs.vfat /dev/sbd0p2 >/dev/null

	mount_fs /dev/sbd0p1
	fill ext4
	umount "$SBD_MNT"
	mount_fs -t vfat /dev/sbd0p2
	fill vfat
	umount "$SBD_MNT"

	fsck.vfat -n /dev/sbd0p2 >/dev/null || fail "fsck.vfat found errors"
	e2fsck -fn /dev/sbd0p1 >/dev/null || fail "e2fsck found errors"
	echo "ok: both filesystems check clean"
	mount_fs -t vfat /dev/sbd0p2
	check vfat
	umount "$SBD_MNT"
	mount_fs /dev/sbd0p1
	check ext4
	umount "$SBD_MNT"
}
