DESCRIPTION="sbdctl errors against the real module: one clear line, exit codes 1 to 4, nothing left behind"

requires() {
	require_sbdctl
}

test_main() {
	local out

	expect_eq "not loaded" "$(sbdctl_rc 3 list)" "sbdctl: sbd module is not loaded (modprobe sbd)"
	sbd_load
	expect_eq "bad size" "$(sbdctl_rc 2 create --size 12Q)" "sbdctl: invalid size '12Q' (see 'sbdctl create --help')"
	sbdctl_rc 2 create >/dev/null
	sbdctl_rc 2 frobnicate >/dev/null
	sbdctl_rc 0 create --help | grep -q -- --sector-size || fail "create --help does not mention --sector-size"

	out=$(sbdctl_rc 1 create --size 1G --sector-size 768)
	expect_eq "sector size 768" "$out" "sbdctl: logical_block_size=768: Invalid argument"
	out=$(sbdctl_rc 1 create --size 1000 --name odd)
	expect_eq "size not a multiple of the block" "$out" "sbdctl: size=1000: Invalid argument"
	out=$(sbdctl_rc 1 create --size 1G --partitions 300)
	expect_eq "too many partitions" "$out" "sbdctl: partitions=300: Invalid argument"
	expect_eq "items left after failed creates" "$(ls "$SBD_CONFIGFS" | wc -l)" 0
	[ ! -e /sys/block/sbd1 ] || fail "a disk was left by a failed create"

	expect_eq "parameter disk" "$(sbdctl_rc 1 remove sbd0)" \
		"sbdctl: sbd0 was created by module parameters; only disks made by 'sbdctl create' can be changed"
	sbdctl_rc 4 remove sbd7 >/dev/null
	sbdctl_rc 4 resize nosuch 1G >/dev/null
	sbdctl_rc 0 create --size 1M --name taken >/dev/null
	sbdctl_rc 1 create --size 1M --name taken >/dev/null
	out=$(sbdctl_rc 1 resize taken 1000)
	expect_eq "resize to a bad size" "$out" "sbdctl: size=1000: Invalid argument"
	expect_eq "size kept" "$(blockdev --getsize64 /dev/sbd1)" $((1 << 20))
	sbdctl_rc 0 remove taken >/dev/null
}
