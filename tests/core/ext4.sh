DESCRIPTION="ext4 on sbd0p1: created, filled, unmounted, e2fsck clean, remounted, checksums equal"

requires() {
	require_cmd mkfs.ext4 e2fsck sfdisk
	require_kmod ext4
}

test_main() {
	local i sums=/tmp/sbd-ext4.sha256

	sbd_load nsectors=262144
	printf 'label: gpt\nsize=96MiB\n,\n' | sfdisk -q /dev/sbd0
	mkfs.ext4 -q -F /dev/sbd0p1
	mount_fs /dev/sbd0p1
	mkdir -p "$SBD_MNT/dir/sub"
	for i in $(seq 1 24); do
		head -c $((i * 97 * 1024 + i)) /dev/urandom >"$SBD_MNT/dir/f$i"
	done
	for i in $(seq 1 200); do
		echo "small file $i" >"$SBD_MNT/dir/sub/s$i"
	done
	(cd "$SBD_MNT" && find . -type f -print0 | sort -z | xargs -0 sha256sum) >$sums
	expect_eq "files written" "$(wc -l <$sums)" 224
	umount "$SBD_MNT"

	e2fsck -fn /dev/sbd0p1 || fail "e2fsck found errors"
	echo "ok: e2fsck clean"
	mount_fs /dev/sbd0p1
	(cd "$SBD_MNT" && sha256sum --quiet -c $sums) || fail "checksums differ after remount"
	echo "ok: all 224 checksums equal after remount"
	umount "$SBD_MNT"
}
