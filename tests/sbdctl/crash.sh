DESCRIPTION="sbdctl snapshot, restore, mark, log and crash-image: a crash state made a disk by one command, JSON that parses, bad input refused with the documented exit codes and nothing left behind"

requires() {
	require_sbdctl
	require_cmd python3
}

test_main() {
	local dev img json pat=/tmp/sbd-pat sum

	sbd_load ndevices=0
	dev=$(sbdctl_rc 0 create --size 16M --name src)
	make_pattern $pat 1024
	sum=$(file_sum $pat)
	dd if=$pat of="$dev" bs=1M oflag=direct status=none
	sbdctl_rc 0 snapshot src --log-limit 4M >/dev/null
	expect_eq "log_limit" "$(cat "$SBD_CONFIGFS/src/log_limit")" $((4 << 20))
	dd if=/dev/zero of="$dev" bs=4k count=2 oflag=direct status=none
	sbdctl_rc 0 mark "$dev" "after two" >/dev/null
	dd if=/dev/zero of="$dev" bs=4k count=1 seek=8 oflag=direct status=none

	sbdctl_rc 0 log src
	json=$(sbdctl_rc 0 log src --json)
	expect_eq "log --json: entries, epochs, writes, mark" \
		"$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); e=j["epoch-list"][0]; print(j["entries"], j["epochs"], e["writes"], e["marks"][0]["after"], e["marks"][0]["label"])' "$json")" \
		"4 1 3 2 after two"

	# State (0, 0): the snapshot; (0, 3): everything.
	img=$(sbdctl_rc 0 crash-image src --epoch 0 --state 0 --name img0)
	expect_eq "crash-image (0, 0) prints a device" "$(cat "$SBD_CONFIGFS/img0/device")" "${img#/dev/}"
	expect_eq "state (0, 0): the snapshot" "$(dev_sum "$img" 0 $((1 << 20)))" "$sum"
	json=$(sbdctl_rc 0 crash-image sbd0 --epoch 0 --state 2 --json)
	expect_eq "crash-image --json" \
		"$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(j["source"], j["epoch"], j["state"], j["writes"], j["mark"])' "$json")" \
		"src 0 2 3 after two"
	img=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["device"])' "$json")
	expect_eq "state (0, 2): two blocks of zeros" "$(dev_sum "$img" 0 8192)" "$(zeros_sum 8192)"
	sbdctl_rc 0 remove "$img" >/dev/null
	sbdctl_rc 0 remove img0 >/dev/null

	# Restore: back to the pattern.
	sbdctl_rc 0 restore src >/dev/null
	expect_eq "after restore" "$(dev_sum "$dev" 0 $((1 << 20)))" "$sum"

	# Bad input, each refused with nothing made.
	sbdctl_rc 2 crash-image src --state 0 | grep -q "missing --epoch" || fail "no 'missing --epoch'"
	sbdctl_rc 2 crash-image src --epoch x --state 0 | grep -q "invalid epoch" || fail "no 'invalid epoch'"
	sbdctl_rc 1 crash-image src --epoch 5 --state 0 | grep -q "Invalid argument" || fail "epoch 5 not refused"
	sbdctl_rc 4 crash-image nosuch --epoch 0 --state 0 >/dev/null
	sbdctl_rc 2 mark src "$(printf 'x%.0s' {1..64})" | grep -q "invalid label" || fail "long label taken"
	sbdctl_rc 2 mark src | grep -q "missing LABEL" || fail "no 'missing LABEL'"
	sbdctl_rc 2 snapshot src --log-limit lots >/dev/null
	expect_eq "disks left: only src" "$(ls "$SBD_CONFIGFS")" src
	sbdctl_rc 0 create --size 1M --name plain >/dev/null
	sbdctl_rc 1 restore plain | grep -q "Invalid argument" || fail "restore without a snapshot not refused"
	sbdctl_rc 1 mark plain m | grep -q "Invalid argument" || fail "mark without a log not refused"
	for c in snapshot restore mark log crash-image; do
		sbdctl_rc 0 "$c" --help | grep -q "^Usage: sbdctl $c" || fail "$c --help"
	done
	sbdctl_rc 0 remove plain >/dev/null
	sbdctl_rc 0 remove src >/dev/null
}
