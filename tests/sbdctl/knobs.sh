DESCRIPTION="sbdctl show, set, power, cut and fail against the real module: every attribute shown, settings all or none, a power cut's lost blocks exact, error rules; bad input refused with nothing changed"

requires() {
	require_sbdctl
	require_features cache power_cut power_cut_keep power_cut_versions seed errors latency_us
}

. "$SBD_ROOT/tests/lib/cache.sh"

# val NAME [DEV]: the value of NAME in 'sbdctl show' (one line per rule).
val() {
	sbdctl_rc 0 show "${2:-k}" | awk -v k="$1" '$1 == k { $1 = ""; sub(/^ +/, ""); print }'
}

test_main() {
	local dev d json pat=/tmp/sbd-knobs-pat
	local param="sbdctl: sbd0 was created by module parameters; only disks made by 'sbdctl create' can be changed"

	sbd_load	# sbd0: a disk of the module parameters
	trap 'sbd_teardown_rc=$?; sbd_teardown; exit $sbd_teardown_rc' EXIT
	dev=$(sbdctl_rc 0 create --size 16M --name k)
	d=${dev#/dev/}

	# show: the features but those left out, the rules, the counters.
	expect_eq "show: device, name, size, cache" "$(val device) $(val name) $(val size) $(val cache)" \
		"$dev k 16777216 0"
	expect_eq "show: no rule" "$(val errors)" -
	expect_eq "show: a counter" "$(val sbd/volatile_blocks)" 0
	json=$(sbdctl_rc 0 show k --json)
	expect_eq "show --json" "$(python3 -c '
import json, sys
j = json.loads(sys.argv[1])
skip = {"device", "errors", "features", "snapshot", "restore", "mark",
        "crash_image", "crash_mark", "log"}
feat = [f for f in sys.argv[2].split(",") if f not in skip]
print(list(j["attributes"]) == feat, j["device"], j["name"], j["attributes"]["size"],
      j["errors"], j["counters"]["lost_blocks"], "name" in j["counters"])
' "$json" "$(cfg_get k features)")" "True $dev k 16777216 [] 0 False"
	json=$(sbdctl_rc 0 show sbd0 --json)
	expect_eq "show --json of a module-parameter disk: sysfs only" "$(python3 -c '
import json, sys
j = json.loads(sys.argv[1])
print(j["device"], j["name"], j["attributes"], j["errors"], type(j["counters"]["reads"]).__name__)
' "$json")" "/dev/sbd0 None {} [] int"

	# set: all or none.
	sbdctl_rc 0 set k latency_us=100 seed=42 >/dev/null
	expect_eq "set: latency_us, seed" "$(cfg_get k latency_us) $(cfg_get k seed)" "100 42"
	expect_eq "set: cache while powered" "$(sbdctl_rc 1 set k ignore_flush=1 latency_us=5 cache=1)" \
		"sbdctl: cache=1: Device or resource busy (nothing changed)"
	expect_eq "... nothing changed" "$(cfg_get k ignore_flush) $(cfg_get k latency_us) $(cfg_get k cache)" "0 100 0"
	expect_eq "set: a value out of range" "$(sbdctl_rc 1 set k seed=7 power_cut_keep=101)" \
		"sbdctl: power_cut_keep=101: Invalid argument (nothing changed)"
	expect_eq "... nothing changed" "$(cfg_get k seed) $(cfg_get k power_cut_keep)" "42 0"
	expect_eq "set: unknown attribute" "$(sbdctl_rc 2 set k frob=1)" \
		"sbdctl: unknown attribute 'frob': the loaded sbd module has no such one (see 'sbdctl set --help')"
	expect_eq "set: power" "$(sbdctl_rc 2 set k power=0)" \
		"sbdctl: power has a command of its own: use 'sbdctl power DEV on|off' (see 'sbdctl set --help')"
	expect_eq "set: a module-parameter disk" "$(sbdctl_rc 1 set sbd0 latency_us=1)" "$param"
	expect_eq "set: no disk" "$(sbdctl_rc 4 set nosuch latency_us=1)" "sbdctl: no such sbd disk: nosuch"
	sbdctl_rc 0 set k latency_us=0 >/dev/null

	# power: off, cache=1 while off, on.
	expect_eq "power off: silent" "$(sbdctl_rc 0 power k off)" ""
	expect_eq "power off: the item" "$(cfg_get k power) $(val device) $(val power)" "0 - 0"
	[ ! -e "/sys/block/$d" ] || fail "$d still there after power off"
	expect_eq "cut while off" "$(sbdctl_rc 1 cut k)" "sbdctl: k is powered off: there is no power to cut"
	sbdctl_rc 0 set k cache=1 >/dev/null
	dev=$(sbdctl_rc 0 power k on)
	expect_eq "power on prints the device" "$dev" "/dev/$(cfg_get k device)"
	d=${dev#/dev/}
	expect_eq "power on: cache" "$(val cache)" 1

	# cut: 16 KiB unflushed is 32 volatile blocks of 512 bytes.
	make_pattern $pat 16
	put $pat "$dev" 0
	expect_eq "volatile blocks" "$(sbd_stat "$d" volatile_blocks)" 32
	expect_eq "cut --keep 0" "$(sbdctl_rc 0 cut k --keep 0 --seed 1)" \
		"$dev: power cut: 32 of 32 volatile blocks lost"
	expect_eq "... the knobs written" "$(cfg_get k power_cut_keep) $(cfg_get k seed) $(cfg_get k power_cut)" "0 1 1"
	! dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null ||
		fail "a read succeeded while the power is cut"
	expect_eq "cut again" "$(sbdctl_rc 1 cut k)" \
		"sbdctl: the power of k is cut already ('sbdctl power k on' gives it back)"
	expect_eq "power on after the cut" "$(sbdctl_rc 0 power k on)" "$dev"
	expect_eq "... power_cut" "$(cfg_get k power_cut)" 0
	expect_eq "the lost blocks: zeros" "$(dev_sum "$dev" 0 16384)" "$(zeros_sum 16384)"
	put $pat "$dev" 0
	expect_eq "cut --keep 100 --versions" "$(sbdctl_rc 0 cut k --keep 100 --versions)" \
		"$dev: power cut: 0 of 32 volatile blocks lost"
	expect_eq "... versions" "$(cfg_get k power_cut_versions)" 1
	sbdctl_rc 0 power k on >/dev/null
	expect_eq "the kept blocks: the pattern" "$(dev_sum "$dev" 0 16384)" "$(file_sum $pat)"
	expect_eq "power_cuts" "$(sbd_stat "$d" power_cuts)" 2
	expect_eq "cut --keep 101" "$(sbdctl_rc 2 cut k --keep 101)" \
		"sbdctl: invalid --keep '101': a percentage, 0 to 100 (see 'sbdctl cut --help')"
	expect_eq "... power_cut_keep" "$(cfg_get k power_cut_keep)" 100
	expect_eq "cut of a module-parameter disk" "$(sbdctl_rc 1 cut sbd0)" "$param"

	# fail: a rule, the write it fails, its hits; a bad rule; clear.
	sbdctl_rc 0 fail k "op=write sector=0-7 next=1" >/dev/null
	expect_eq "fail --list" "$(sbdctl_rc 0 fail k --list)" "0 op=write sector=0-7 next=1 error=ioerr hits=0"
	expect_eq "the next write fails, then they pass" "$(dio "$dev" w:0:4k w:0:4k)" "EIO ok"
	expect_eq "show: the rule and its hit" "$(val errors)" "0 op=write sector=0-7 next=1 error=ioerr hits=1"
	expect_eq "errors_injected" "$(val sbd/errors_injected)" 1
	expect_eq "a bad rule" "$(sbdctl_rc 1 fail k garbage)" "sbdctl: rule 'garbage': Invalid argument"
	expect_eq "... the rules as they were" "$(cfg_get k errors)" "0 op=write sector=0-7 next=1 error=ioerr hits=1"
	expect_eq "fail: an empty rule" "$(sbdctl_rc 2 fail k "")" "sbdctl: empty rule (see 'sbdctl fail --help')"
	expect_eq "fail --clear --list" "$(sbdctl_rc 0 fail k --clear --list)" ""
	expect_eq "... no rule" "$(cfg_get k errors)" ""
	expect_eq "fail of a module-parameter disk" "$(sbdctl_rc 1 fail sbd0 --list)" "$param"
	expect_eq "fail of no disk" "$(sbdctl_rc 4 fail sbd9 --list)" "sbdctl: no such sbd disk: sbd9"

	for c in show set power cut fail; do
		sbdctl_rc 0 "$c" --help | grep -q "^Usage: sbdctl $c DEV" || fail "$c --help"
	done
	sbdctl_rc 0 remove k >/dev/null
	rm -f $pat
}
