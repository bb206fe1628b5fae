DESCRIPTION="read_only while powered: writes fail, also through a descriptor or a filesystem opened before; reads work; rw restores"

requires() {
	require_cmd python3 mkfs.ext4
	require_kmod ext4
}

# pwrite_after_ro FILE NAME: opens FILE (the disk, or a file on it) for
# direct writes, writes a block, sets disk NAME read-only through configfs,
# writes again; prints both outcomes.
pwrite_after_ro() {
	python3 - "$1" "$SBD_CONFIGFS/$2/read_only" <<'PY'
import errno, mmap, os, sys
path, attr = sys.argv[1:]
buf = mmap.mmap(-1, 4096)            # page-aligned, as O_DIRECT wants
buf.write(b"x" * 4096)
fd = os.open(path, os.O_RDWR | os.O_DIRECT)
def attempt():
    try:
        os.pwrite(fd, buf, 0)
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
first = attempt()
with open(attr, "w") as f:
    f.write("1\n")
print(first, attempt())
PY
}

test_main() {
	local d sum

	sbd_load ndevices=0
	d=$(cfg_disk ro size=$((16 << 20)))
	expect_eq "ro of a new disk" "$(cat "/sys/block/$d/ro")" 0

	# Through the block device the block layer refuses it first (EPERM).
	expect_eq "write to the disk before / after read_only=1" \
		"$(pwrite_after_ro "/dev/$d" ro)" "ok EPERM"
	expect_eq "ro in sysfs" "$(cat "/sys/block/$d/ro")" 1
	expect_eq "blockdev --getro" "$(blockdev --getro "/dev/$d")" 1
	expect_eq "read_only attribute" "$(cfg_get ro read_only)" 1
	sum=$(dev_sum "/dev/$d" 0 $((16 << 20)))
	! dd if=/dev/zero of="/dev/$d" bs=4k count=1 oflag=direct status=none 2>/dev/null ||
		fail "opening a read-only disk for writing succeeded"
	echo "ok: open for writing refused"
	expect_eq "disk unchanged" "$(dev_sum "/dev/$d" 0 $((16 << 20)))" "$sum"

	cfg_set ro read_only 0
	expect_eq "ro after read_only=0" "$(cat "/sys/block/$d/ro")" 0
	dd if=/dev/zero of="/dev/$d" bs=4k count=1 oflag=direct status=none ||
		fail "write after read_only=0 failed"
	echo "ok: writable again"

	# A filesystem mounted before: its writes reach sbd, which fails them.
	mkfs.ext4 -q -F "/dev/$d"
	mount_fs "/dev/$d"
	dd if=/dev/zero of="$SBD_MNT/file" bs=64k count=16 status=none
	sync
	expect_eq "write to a file before / after read_only=1" \
		"$(pwrite_after_ro "$SBD_MNT/file" ro)" "ok EIO"
	cfg_set ro read_only 0
	umount "$SBD_MNT"
	e2fsck -fn "/dev/$d" >/dev/null || fail "ext4 not clean after the refused write"

	# Set before power on, it holds from the start.
	cfg_set ro power 0
	cfg_set ro read_only 1
	d=$(cfg_disk_on ro)
	expect_eq "ro when powered on read-only" "$(cat "/sys/block/$d/ro")" 1
}
