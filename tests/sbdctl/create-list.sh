DESCRIPTION="sbdctl create, list (table and JSON) and remove against the real module, parameter disks included"

requires() {
	require_sbdctl
	require_cmd python3
}

# row DEVICE|NAME: the list row whose first or second field matches.
row() {
	"$SBDCTL" list --bytes | awk -v k="$1" '$1 == k || $2 == k'
}

test_main() {
	local a b json free0 gain m

	m=$(sbd_mode)	# every disk of this run has the suite's queue mode
	sbd_load nsectors=131072
	a=$(sbdctl_rc 0 create --size 64M)
	expect_eq "first created device" "$a" /dev/sbd1
	b=$(sbdctl_rc 0 create --size 32MiB --sector-size 4096 --physical-sector-size 8K --name big --partitions 3 --no-discard)
	expect_eq "second created device" "$b" /dev/sbd2
	expect_eq "default name" "$(sbd_stat sbd1 name)" disk0
	expect_eq "sbd2 logical block size" "$(sysfs_q sbd2 logical_block_size)" 4096
	expect_eq "sbd2 physical block size" "$(sysfs_q sbd2 physical_block_size)" 8192
	expect_eq "sbd2 minors" "$(cat /sys/block/sbd2/range)" 4
	expect_eq "sbd2 discard" "$(sysfs_q sbd2 discard_max_bytes)" 0

	dd if=/dev/urandom of=/dev/sbd2 bs=1M count=3 oflag=direct status=none
	expect_eq "header" "$("$SBDCTL" list | head -n 1 | tr -s ' ')" \
		"DEVICE NAME SIZE LOG-SEC PHY-SEC MODE MEMORY RO"
	expect_eq "parameter disk row" "$(row /dev/sbd0 | tr -s ' ')" "/dev/sbd0 - 67108864 512 4096 $m 0 0"
	expect_eq "disk0 row" "$(row disk0 | tr -s ' ')" "/dev/sbd1 disk0 67108864 512 4096 $m 0 0"
	expect_eq "big row" "$(row big | tr -s ' ')" "/dev/sbd2 big 33554432 4096 8192 $m 3145728 0"
	expect_eq "human sizes" "$("$SBDCTL" list | awk '$2 == "big" { print $3, $7 }')" "32M 3M"

	# A powered-off item is listed too, without a device.
	echo 0 >"$SBD_CONFIGFS/disk0/power"
	expect_eq "powered-off row" "$(row disk0 | tr -s ' ')" "- disk0 67108864 512 4096 $m - 0"
	json=$("$SBDCTL" list --json)
	expect_eq "JSON" "$(python3 -c '
import json, sys
for d in json.loads(sys.argv[1]):
    print(d["device"], d["name"], d["size"], d["log-sec"], d["phy-sec"], d["queue-mode"], d["memory"], d["ro"])
' "$json" | tr '\n' ';')" \
		"/dev/sbd0 None 67108864 512 4096 $m 0 False;/dev/sbd2 big 33554432 4096 8192 $m 3145728 False;None disk0 67108864 512 4096 $m None False;"

	free0=$(mem_free_kib)
	sbdctl_rc 0 remove big >/dev/null
	gain=$(mem_gain_kib "$free0" 2048)
	[ ! -e /sys/block/sbd2 ] || fail "sbd2 still there after remove"
	[ ! -e "$SBD_CONFIGFS/big" ] || fail "item big still there after remove"
	# Other memory may come back at the same time: only a floor is exact.
	expect_range "KiB back after removing 3 MiB written" "$gain" 2048 131072
	sbdctl_rc 0 remove disk0 >/dev/null
	expect_eq "list after removes" "$("$SBDCTL" list --bytes | tail -n +2 | awk '{ print $1 }' | tr '\n' ' ')" "/dev/sbd0 "
	sbd_unload
}
