DESCRIPTION="fail_make_request on a disk under a mounted ext4: the failed I/O reaches ext4 as errors, nothing crashes; afterwards e2fsck repairs it and the disk works"

FMR=/sys/kernel/debug/fail_make_request

requires() {
	[ -d "$FMR" ] || skip "kernel without fail_make_request (CONFIG_FAIL_MAKE_REQUEST, CONFIG_FAULT_INJECTION_DEBUG_FS)"
	require_cmd mkfs.ext4 e2fsck
	require_kmod ext4
}

fmr_set() {
	echo "$2" >"$FMR/$1" || fail "cannot set fail_make_request/$1 = $2"
}

test_main() {
	local pat=/tmp/sbd-pat sum rc i writes0

	sbd_load
	mkfs.ext4 -q -F /dev/sbd0 || fail "mkfs.ext4 failed"
	mkdir -p "$SBD_MNT"
	mount -t ext4 /dev/sbd0 "$SBD_MNT" || fail "mount failed"
	make_pattern $pat 1024
	cp $pat "$SBD_MNT/before" && sync || fail "writing before the failures failed"

	# Every bio submitted to sbd0 fails from now on, before it reaches sbd.
	trap 'echo 0 >"$FMR/probability"; echo 0 2>/dev/null >/sys/block/sbd0/make-it-fail || true' EXIT
	fmr_set verbose 0
	fmr_set interval 1
	fmr_set times -1
	fmr_set space 0
	fmr_set task-filter N
	fmr_set probability 100
	echo 1 >/sys/block/sbd0/make-it-fail || fail "cannot set sbd0/make-it-fail"
	writes0=$(sbd_stat sbd0 writes)
	for i in 1 2 3; do
		dd if=$pat of="$SBD_MNT/during$i" bs=64k conv=fsync status=none 2>/dev/null && rc=0 || rc=$?
		[ "$rc" != 0 ] || fail "write and fsync of during$i succeeded while every bio fails"
	done
	echo "ok: fsync failed 3 times out of 3"
	expect_eq "sbd's write counter while every bio fails (unchanged)" \
		"$(sbd_stat sbd0 writes)" "$writes0"
	dmesg | grep -qE 'EXT4-fs (error|warning).*sbd0|Buffer I/O error on dev sbd0|JBD2.*sbd0' ||
		fail "the kernel log shows no ext4 or buffer error for sbd0"
	echo "ok: ext4 reported the errors: $(dmesg | grep -cE 'sbd0') kernel log lines name sbd0"

	echo 0 >/sys/block/sbd0/make-it-fail
	fmr_set probability 0
	umount "$SBD_MNT" || umount -l "$SBD_MNT"

	# Repairable, then clean, and the file written before is intact.
	e2fsck -fy /dev/sbd0 >/dev/null 2>&1 && rc=0 || rc=$?
	[ "$rc" -lt 4 ] || fail "e2fsck -fy could not repair: exit $rc"
	e2fsck -fn /dev/sbd0 >/dev/null 2>&1 || fail "not clean after e2fsck -fy"
	echo "ok: e2fsck repaired it (exit $rc), then clean"
	mount -t ext4 /dev/sbd0 "$SBD_MNT" || fail "mount after repair failed"
	sum=$(file_sum "$SBD_MNT/before")
	expect_eq "file written before the failures" "$sum" "$(file_sum $pat)"
	cp $pat "$SBD_MNT/after" && sync || fail "writing after the failures failed"
	expect_eq "file written after" "$(file_sum "$SBD_MNT/after")" "$(file_sum $pat)"
	umount "$SBD_MNT"
	sbd_unload
}
