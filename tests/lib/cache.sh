# shellcheck shell=bash
# Helpers of the cache/ and fault/ tests (the test device: write cache and
# power cuts, error rules, latency and bandwidth).  Sourced by the test
# files after common.sh.

SBD_DIO=$SBD_ROOT/tests/lib/dio.py

# require_features ATTR...: skips unless a runtime disk of this sbd.ko has
# every ATTR (its configfs "features" list).  Loads the module to look and
# unloads it again.
require_features() {
	local have a
	require_cmd python3
	[ -f "$SBD_KO" ] || skip "no $SBD_KO"
	sbd_deps
	insmod "$SBD_KO" ndevices=0 2>/dev/null || skip "insmod $SBD_KO failed"
	if ! mountpoint -q /sys/kernel/config; then
		mount -t configfs none /sys/kernel/config
	fi
	if [ -d "$SBD_CONFIGFS" ] && mkdir "$SBD_CONFIGFS/probe" 2>/dev/null; then
		have=,$(cfg_get probe features),
		rmdir "$SBD_CONFIGFS/probe"
	else
		have=,
	fi
	rmmod sbd
	for a in "$@"; do
		[[ $have == *",$a,"* ]] || skip "sbd has no attribute $a (features:${have%,})"
	done
}

# Runs at the exit of the test, whatever made it exit: unmounts what the
# test mounted and removes its runtime disks, so that sbd can be unloaded.
sbd_teardown() {
	set +e
	local m
	for m in $(awk '$2 ~ "^/tmp/sbd-" { print $2 }' /proc/mounts | sort -r); do
		timeout 60 umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for m in "$SBD_CONFIGFS"/*/; do
		[ -d "$m" ] && rmdir "$m" 2>/dev/null
	done
	return 0
}

# sbd_setup: loads sbd without parameter disks; runtime disks go at exit.
sbd_setup() {
	sbd_load ndevices=0
	trap 'sbd_teardown_rc=$?; sbd_teardown; exit $sbd_teardown_rc' EXIT
}

# now_ms: the time, in milliseconds.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# dio DEV OP...: see tests/lib/dio.py; prints one result per operation.
dio() {
	python3 "$SBD_DIO" "$@"
}

# count WORD "RESULTS": how many of the space-separated results are WORD.
count() {
	local n=0 r
	for r in $2; do
		[ "$r" = "$1" ] && n=$((n + 1))
	done
	echo $n
}

# stat_delta sbdN NAME BEFORE: the counter's growth since BEFORE.
stat_delta() {
	echo $(($(sbd_stat "$1" "$2") - $3))
}

# power_cut NAME: cuts the disk's power; the attribute must read back 1.
power_cut() {
	cfg_set "$1" power_cut 1
	expect_eq "power_cut reads back" "$(cfg_get "$1" power_cut)" 1
}

power_restore() {
	cfg_set "$1" power_cut 0
	expect_eq "power_cut reads back after restore" "$(cfg_get "$1" power_cut)" 0
}

# fill_file FILE KIB BYTE: a file of KIB KiB of the byte BYTE (0..255).
fill_file() {
	head -c "$(($2 * 1024))" /dev/zero | tr '\0' "\\$(printf '%03o' "$3")" >"$1"
}

# put FILE DEV OFFSET_KIB: writes FILE to DEV at OFFSET (O_DIRECT, no flush).
put() {
	dd if="$1" of="$2" bs=4k seek="$(($3 / 4))" oflag=direct conv=notrunc status=none ||
		fail "writing $1 to $2 at ${3}k failed"
}

# rule_field NAME INDEX KEY: the value of KEY in rule INDEX of NAME's
# errors listing ("N op=... sector=... next=... error=... hits=H").
rule_field() {
	cfg_get "$1" errors | awk -v i="$2" -v k="$3" '
		$1 == i { for (f = 2; f <= NF; f++) { split($f, kv, "="); if (kv[1] == k) print kv[2] } }'
}

# fio_json FILE EXPR: evaluates a python expression over fio's JSON output,
# with j = the first job (ints printed as ints).
fio_json() {
	python3 - "$1" "$2" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    text = f.read()
doc = json.loads(text[text.index("{"):])   # fio may print notes before it
j = doc["jobs"][0]
v = eval(sys.argv[2])
print(int(round(v)) if isinstance(v, float) else v)
PY
}

# unranged sbdN: what the errors listing shows as the range of a rule
# written without sector=: nothing, as it was written.
unranged() {
	:
}
