DESCRIPTION="operations sbd does not do (secure erase, zone management) fail with EOPNOTSUPP/ENOTTY, data intact"

requires() {
	require_cmd blkzone
	require_helper sbd-blkrange
}

test_main() {
	local pat=/tmp/sbd-pat err

	sbd_load
	make_pattern $pat 64
	dd if=$pat of=/dev/sbd0 bs=64k oflag=direct status=none
	expect_eq "zoned model" "$(sysfs_q sbd0 zoned)" none
	expect_eq "secure erase" "$("$SBD_HELPERS/sbd-blkrange" secdiscard /dev/sbd0 0 65536)" EOPNOTSUPP
	if err=$(blkzone reset /dev/sbd0 2>&1); then
		fail "zone reset succeeded"
	fi
	echo "ok: zone reset refused: $err"
	expect_eq "data after refused operations" "$(dev_sum /dev/sbd0 0 65536)" \
		"$(file_sum $pat)"
}
