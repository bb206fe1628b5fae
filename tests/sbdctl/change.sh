DESCRIPTION="sbdctl resize keeps data and frees what is cut; ro and rw toggle writes; by device path, sbdN or name"

requires() {
	require_sbdctl
}

test_main() {
	local pat=/tmp/sbd-pat dev sum

	sbd_load ndevices=0
	dev=$(sbdctl_rc 0 create --size 16M --name data)
	make_pattern $pat 8192
	dd if=$pat of="$dev" bs=1M seek=8 oflag=direct status=none
	sum=$(file_sum $pat)

	sbdctl_rc 0 resize "$dev" 1G >/dev/null
	expect_eq "size after resize /dev/sbdN 1G" "$(blockdev --getsize64 "$dev")" $((1 << 30))
	expect_eq "data after grow" "$(dev_sum "$dev" $((8 << 20)) $((8 << 20)))" "$sum"
	sbdctl_rc 0 resize data 12M >/dev/null
	expect_eq "size after resize NAME 12M" "$(blockdev --getsize64 "$dev")" $((12 << 20))
	expect_eq "pages after cutting 4 of 8 MiB" "$(sbd_stat sbd0 nr_pages)" 1024
	expect_eq "data below the cut" "$(dev_sum "$dev" $((8 << 20)) $((4 << 20)))" \
		"$(head -c $((4 << 20)) $pat | sha256sum | cut -d' ' -f1)"

	sbdctl_rc 0 ro sbd0 >/dev/null
	expect_eq "ro after sbdctl ro" "$(cat /sys/block/sbd0/ro)" 1
	! dd if=/dev/zero of="$dev" bs=4k count=1 oflag=direct status=none 2>/dev/null ||
		fail "write succeeded on a read-only disk"
	sbdctl_rc 0 rw data >/dev/null
	expect_eq "ro after sbdctl rw" "$(cat /sys/block/sbd0/ro)" 0
	dd if=/dev/zero of="$dev" bs=4k count=1 oflag=direct status=none || fail "write failed after rw"
	echo "ok: ro and rw"
}
