DESCRIPTION="sbdctl apply against the real module: disks a file describes are created, grown, changed all or none, powered on or left alone; applying twice changes nothing and keeps the data; a shrink, a change the kernel refuses while powered, an unknown attribute and a malformed file are refused with nothing changed; a disk the file does not name is never touched"

requires() {
	require_sbdctl
	require_features latency_us cache
}

. "$SBD_ROOT/tests/lib/cache.sh"

CONF=/tmp/sbd-apply.conf

# conf LINES...: the file holds LINES.
conf() {
	printf '%s\n' "$@" >"$CONF"
}

# items: the configfs items, one line.
items() {
	(cd "$SBD_CONFIGFS" && ls | paste -sd ' ')
}

test_main() {
	local a b out sum pat=/tmp/sbd-apply-pat

	sbd_load ndevices=0
	trap 'sbd_teardown_rc=$?; sbd_teardown; exit $sbd_teardown_rc' EXIT
	sbdctl_rc 0 create --size 4M --name other >/dev/null

	conf "# made by apply" "[scratch]" "size = 16M" "logical_block_size = 4K" \
		"" "[slow]" "size=8M" "cache = 1" "latency_us = 100"
	out=$(sbdctl_rc 0 apply "$CONF")
	a=$(cfg_get scratch device)
	b=$(cfg_get slow device)
	expect_eq "apply: both disks created and powered" "$out" \
		"scratch: created /dev/$a"$'\n'"slow: created /dev/$b"
	expect_eq "... scratch: 16 MiB of 4 KiB blocks" \
		"$(cat "/sys/block/$a/size") $(sysfs_q "$a" logical_block_size)" "32768 4096"
	expect_eq "... slow: cache on, 100 us of latency" \
		"$(cfg_get slow cache) $(cfg_get slow latency_us) $(cfg_get slow size)" "1 100 8388608"

	make_pattern "$pat" 1024
	dd if="$pat" of="/dev/$a" bs=1M oflag=direct status=none || fail "write to /dev/$a"
	sum=$(file_sum "$pat")
	out=$(sbdctl_rc 0 apply "$CONF")
	expect_eq "apply again: unchanged" "$out" \
		"scratch: unchanged /dev/$a"$'\n'"slow: unchanged /dev/$b"
	expect_eq "... the data kept" "$(dev_sum "/dev/$a" 0 1048576)" "$sum"
	expect_eq "... the disk apply does not name left alone" "$(items)" "other scratch slow"

	conf "[scratch]" "size = 32M" "logical_block_size = 4096" "[slow]" "size = 8M" \
		"cache = 1" "latency_us = 250"
	expect_eq "apply --dry-run: what would change" "$(sbdctl_rc 0 apply --dry-run "$CONF")" \
		"scratch: would set size=33554432"$'\n'"slow: would set latency_us=250"
	expect_eq "... nothing changed" "$(cat "/sys/block/$a/size") $(cfg_get slow latency_us)" "32768 100"
	expect_eq "apply: scratch grown online, slow's latency set" "$(sbdctl_rc 0 apply "$CONF")" \
		"scratch: set size=33554432 /dev/$a"$'\n'"slow: set latency_us=250 /dev/$b"
	expect_eq "... the new size" "$(cat "/sys/block/$a/size")" 65536
	expect_eq "... the data kept" "$(dev_sum "/dev/$a" 0 1048576)" "$sum"

	conf "[scratch]" "size = 16M" "[slow]" "size = 8M" "latency_us = 250"
	expect_eq "apply: a shrink refused without --allow-shrink" "$(sbdctl_rc 1 apply "$CONF")" \
		"sbdctl: scratch: size 16777216 is below the disk's 33554432: a shrink loses data (--allow-shrink to do it)"$'\n'"slow: unchanged /dev/$b"
	expect_eq "... scratch as it was" "$(cat "/sys/block/$a/size")" 65536

	conf "[slow]" "size = 8M" "latency_us = 5" "cache = 0"
	expect_eq "apply: cache cannot change while powered: exit 1, the reason" \
		"$(sbdctl_rc 1 apply "$CONF")" \
		"sbdctl: slow: line 4: cache=0: Device or resource busy (it cannot change while the disk is powered on)"
	expect_eq "... latency_us put back" "$(cfg_get slow latency_us) $(cfg_get slow cache)" "250 1"

	sbdctl_rc 0 power slow off >/dev/null
	expect_eq "apply: a powered-off disk gets the change and power" "$(sbdctl_rc 0 apply "$CONF")" \
		"slow: set latency_us=5 cache=0, powered on /dev/$(cfg_get slow device)"
	expect_eq "... set" "$(cfg_get slow latency_us) $(cfg_get slow cache) $(cfg_get slow power)" "5 0 1"

	conf "[new]" "size = 4M" "latency_us = 99999999999"
	out=$(sbdctl_rc 1 apply "$CONF")
	expect_eq "apply: a new disk the kernel refuses: exit 1, the attribute named" \
		"$out" "sbdctl: new: line 3: latency_us=99999999999: Invalid argument"
	expect_eq "... and no disk left" "$(items)" "other scratch slow"

	conf "[new]" "size = 4M" "frob = 1"
	expect_eq "apply: an attribute the module has not: exit 2" "$(sbdctl_rc 2 apply "$CONF")" \
		"sbdctl: $CONF:3: unknown attribute 'frob': the loaded sbd module has no such one"
	conf "[new]" "size = 4M" "[scratch" "size = 64M"
	expect_eq "apply: a malformed file: exit 2, FILE:LINE" "$(sbdctl_rc 2 apply "$CONF")" \
		"sbdctl: $CONF:3: invalid section '[scratch': use [NAME]"
	expect_eq "... nothing changed: no new disk, scratch's size" \
		"$(items) $(cat "/sys/block/$a/size")" "other scratch slow 65536"
	expect_eq "apply: a missing file: exit 2" "$(sbdctl_rc 2 apply /tmp/sbd-no-such.conf)" \
		"sbdctl: /tmp/sbd-no-such.conf: No such file or directory"
	rm -f "$CONF" "$pat"
}
