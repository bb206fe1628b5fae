#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_cmds.sh SBDCTL FAKEKERNEL_SO: runs the sbdctl binary against fake
# configfs and sysfs trees in a temporary directory (SBDCTL_CONFIGFS,
# SBDCTL_SYSFS) and checks its exact output, messages and exit codes.
# Prints TAP; exits 1 if a test failed.
#
# Two kinds of test.  With plain files, sbdctl reads what the test laid out
# and the test reads what sbdctl wrote: listing, which file a command
# writes, refusals, errors.  Plain files cannot make a device appear, so the
# tests of create, online resize and remove preload fakekernel.so, which
# plays the driver's side of the configfs contract (see fakekernel.c): they
# show that sbdctl drives that contract right, not that the driver keeps it.
# The guest tests are where the real driver is checked.
set -u

if [ $# -ne 2 ]; then
	echo "usage: $0 SBDCTL FAKEKERNEL_SO" >&2
	exit 2
fi
SBDCTL=$(realpath "$1")
FAKE=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TMP=$(cd "$TMP" && pwd -P)
R=$TMP/root
CFS=$R/config/sbd

unset SBDCTL_DEV FAKE_FEATURES FAKE_NO_FEATURES_FILE FAKE_FAIL FAKE_NODEV
unset FAKE_QUEUE_MODE
unset LD_PRELOAD FAKE_LOG FAKE_RAISE
export SBDCTL_CONFIGFS=$CFS SBDCTL_SYSFS=$R/sys
export LC_ALL=C

n=0
failed=0

# result NAME WHY: a TAP line, passing when WHY is empty.
result() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n - $1"
	else
		failed=$((failed + 1))
		echo "not ok $n - $1"
		while IFS= read -r line; do
			echo "#   $line"
		done <<<"$2"
	fi
}

# sbd ARGS: runs sbdctl; keeps out, err and rc.  ksbd: the same, with
# the fake kernel preloaded.
sbd() {
	out=$("$SBDCTL" "$@" 2>"$TMP/err")
	rc=$?
	err=$(<"$TMP/err")
}

ksbd() {
	# shellcheck disable=SC2086 # WRAP: a command prefix, split on purpose
	out=$(LD_PRELOAD=$FAKE ${WRAP:-} "$SBDCTL" "$@" 2>"$TMP/err")
	rc=$?
	err=$(<"$TMP/err")
}

# expect NAME RC OUT ERR: the last run exited RC, printed exactly OUT and
# ERR.
expect() {
	local why=""

	[ "$rc" = "$2" ] || why+="exit code $rc, expected $2"$'\n'
	[ "$out" = "$3" ] || why+="stdout:"$'\n'"$out"$'\n'"expected:"$'\n'"$3"$'\n'
	[ "$err" = "$4" ] || why+="stderr: $err"$'\n'"expected: $4"$'\n'
	result "$1" "$why"
}

# expect_files NAME "FILE..." "CONTENTS": the files hold, one after the
# other, exactly CONTENTS (one line each).
expect_files() {
	local f got=""

	for f in $2; do
		got+="$(cat "$f" 2>&1)"$'\n'
	done
	got=${got%$'\n'}
	if [ "$got" = "$3" ]; then
		result "$1" ""
	else
		result "$1" "got:"$'\n'"$got"$'\n'"expected:"$'\n'"$3"
	fi
}

# expect_eq NAME GOT WANT: GOT is exactly WANT.
expect_eq() {
	result "$1" "$([ "$2" = "$3" ] || printf 'got:\n%s\nexpected:\n%s' "$2" "$3")"
}

# expect_jq WHAT FILTER WANT: the last output, through jq -c FILTER, is
# exactly WANT (a skip without jq).
expect_jq() {
	local got
	if ! command -v jq >/dev/null; then
		n=$((n + 1))
		echo "ok $n - $1 parses with jq # SKIP no jq"
		return
	fi
	got=$(jq -c "$2" <<<"$out" 2>&1)
	result "$1 parses with jq, values and types right" \
		"$([ "$got" = "$3" ] || echo "jq: $got")"
}

# expect_ls NAME DIR "ENTRIES": DIR holds exactly ENTRIES (sorted).
expect_ls() {
	local got

	got=$(find "$2" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>&1 | sort |
	      tr '\n' ' ')
	got=${got% }
	if [ "$got" = "$3" ]; then
		result "$1" ""
	else
		result "$1" "ls $2: '$got', expected '$3'"
	fi
}

# expect_log NAME "LINES": the fake kernel saw exactly these calls, as
# "ITEM mkdir", "ITEM ATTR=VALUE", "ITEM rmdir"; then forgets them.
expect_log() {
	local got

	got=$(cat "$TMP/log" 2>/dev/null)
	rm -f "$TMP/log"
	if [ "$got" = "$2" ]; then
		result "$1" ""
	else
		result "$1" "calls:"$'\n'"$got"$'\n'"expected:"$'\n'"$2"
	fi
}

# ---- fake trees ---------------------------------------------------------

# An empty tree: module loaded, configfs mounted, no disk.
fresh() {
	rm -rf "$R"
	mkdir -p "$R/sys/module/sbd" "$R/sys/block" "$CFS"
}

# sysfs_disk N SECTORS LBS PBS RO MEM NAME [MODE [POLLS]]: /sys/block/sbdN
# of a powered disk; NAME "" for a module-parameter disk, "-" for no
# sbd/name file; no sbd/queue_mode file without MODE, no sbd/poll_queues
# without POLLS.
sysfs_disk() {
	local d=$R/sys/block/sbd$1

	mkdir -p "$d/queue" "$d/sbd"
	echo "$2" >"$d/size"
	echo "$3" >"$d/queue/logical_block_size"
	echo "$4" >"$d/queue/physical_block_size"
	echo "$5" >"$d/ro"
	echo "$6" >"$d/sbd/mem_bytes"
	[ "$7" = - ] || echo "$7" >"$d/sbd/name"
	[ -z "${8-}" ] || echo "$8" >"$d/sbd/queue_mode"
	[ -z "${9-}" ] || echo "$9" >"$d/sbd/poll_queues"
}

# item NAME SIZE LBS PBS RO [DEVICE [MODE [POLLS]]]: a configfs item,
# powered with DEVICE (not if ""), with a queue_mode file if MODE, a
# poll_queues file if POLLS.
item() {
	local d=$CFS/$1

	mkdir -p "$d"
	echo "$2" >"$d/size"
	echo "$3" >"$d/logical_block_size"
	echo "$4" >"$d/physical_block_size"
	echo "$5" >"$d/read_only"
	echo "${6-}" >"$d/device"
	if [ -n "${6-}" ]; then echo 1; else echo 0; fi >"$d/power"
	[ -z "${7-}" ] || echo "$7" >"$d/queue_mode"
	[ -z "${8-}" ] || echo "$8" >"$d/poll_queues"
	echo "size,logical_block_size,physical_block_size,read_only,power,device,features" \
		>"$d/features"
}

# The tree of most tests: sbd0 from the module parameters (bio), alpha on
# sbd2 (mq, 2 poll queues), gamma on sbd10 (its sysfs without sbd/name,
# sbd/queue_mode and sbd/poll_queues, as an older module's), beta (mq, 4
# poll queues) and zeta (bio, keeping a poll_queues of 3 that a bio disk
# does not have) powered off.  The mode and poll queues of a powered disk
# are in sysfs only, so that the table shows where they are read.
populated() {
	fresh
	sysfs_disk 0 131072 512 4096 0 0 "" bio 0
	sysfs_disk 2 3145728 4096 4096 1 12288 alpha mq 2
	item alpha 1610612736 4096 4096 1 sbd2
	sysfs_disk 10 2147483648 512 4096 0 1048576 -
	item gamma 1099511627776 512 4096 0 sbd10
	item zeta 536870912 512 4096 0 "" bio 3
	item beta 1073741824 4096 4096 1 "" mq 4
	# A uuid where the module shows one: sysfs for sbd0, configfs for beta.
	echo 1b4e28ba-2fa1-41d2-883f-0016d3cca427 >"$R/sys/block/sbd0/sbd/uuid"
	echo 6ba7b810-9dad-41d1-80b4-00c04fd430c8 >"$CFS/beta/uuid"
}

TABLE='DEVICE     NAME  SIZE LOG-SEC PHY-SEC MODE MEMORY RO
/dev/sbd0  -      64M     512    4096 bio      0B  0
/dev/sbd2  alpha 1.5G    4096    4096 mq      12K  1
/dev/sbd10 gamma   1T     512    4096 -        1M  0
-          beta    1G    4096    4096 mq        -  1
-          zeta  512M     512    4096 bio       -  0'

TABLE_BYTES='DEVICE     NAME           SIZE LOG-SEC PHY-SEC MODE  MEMORY RO
/dev/sbd0  -          67108864     512    4096 bio        0  0
/dev/sbd2  alpha    1610612736    4096    4096 mq     12288  1
/dev/sbd10 gamma 1099511627776     512    4096 -    1048576  0
-          beta     1073741824    4096    4096 mq         -  1
-          zeta      536870912     512    4096 bio        -  0'

JSON='[
  {"device": "/dev/sbd0", "name": null, "link": null, "size": 67108864, "log-sec": 512, "phy-sec": 4096, "queue-mode": "bio", "poll-queues": 0, "memory": 0, "uuid": "1b4e28ba-2fa1-41d2-883f-0016d3cca427", "ro": false},
  {"device": "/dev/sbd2", "name": "alpha", "link": null, "size": 1610612736, "log-sec": 4096, "phy-sec": 4096, "queue-mode": "mq", "poll-queues": 2, "memory": 12288, "uuid": null, "ro": true},
  {"device": "/dev/sbd10", "name": "gamma", "link": null, "size": 1099511627776, "log-sec": 512, "phy-sec": 4096, "queue-mode": null, "poll-queues": null, "memory": 1048576, "uuid": null, "ro": false},
  {"device": null, "name": "beta", "link": null, "size": 1073741824, "log-sec": 4096, "phy-sec": 4096, "queue-mode": "mq", "poll-queues": 4, "memory": null, "uuid": "6ba7b810-9dad-41d1-80b4-00c04fd430c8", "ro": true},
  {"device": null, "name": "zeta", "link": null, "size": 536870912, "log-sec": 512, "phy-sec": 4096, "queue-mode": "bio", "poll-queues": 0, "memory": null, "uuid": null, "ro": false}
]'

NOMOD="sbdctl: sbd module is not loaded (modprobe sbd)"
NOCFS="sbdctl: $CFS not found: is configfs mounted? (mount -t configfs none $R/config)"
PARAM="was created by module parameters; only disks made by 'sbdctl create' can be changed"

# ---- help, version, usage errors -----------------------------------------

fresh
sbd
expect "no command: usage on stderr, exit 2" 2 "" "$("$SBDCTL" --help)"
sbd --help
help=$out
expect "--help exits 0, stdout only" 0 "$help" ""
first=$(head -n 1 <<<"$help")
result "--help starts with the usage line" \
	"$([ "$first" = "Usage: sbdctl COMMAND [OPTIONS]" ] || echo "got: $first")"
for code in "0  success" \
	    "1  the operation failed: the kernel refused it, an I/O error, or the" \
	    "2  usage error: unknown command or option, bad value" \
	    "3  the sbd module is not loaded, or configfs is not mounted" \
	    "4  no such sbd disk"; do
	why=""
	grep -qxF "  $code" <<<"$help" || why="missing: $code"
	result "--help documents exit status '${code%% *}'" "$why"
done
sbd -h
expect "-h is --help" 0 "$help" ""
sbd --version
expect "--version" 0 "sbdctl 0.1" ""
sbd -V
expect "-V" 0 "sbdctl 0.1" ""
for c in "create --size SIZE [OPTIONS]" "list [--json] [--bytes]" \
	 "resize DEV SIZE" "ro DEV" "rw DEV" "remove [--force] DEV"; do
	sbd "${c%% *}" --help
	got="$rc $(head -n 1 <<<"$out") $err"
	why=""
	[ "$got" = "0 Usage: sbdctl $c " ] || why="got: $got"
	result "${c%% *} --help: 'Usage: sbdctl $c', exit 0" "$why"
done

sbd frob
expect "unknown command" 2 "" "sbdctl: unknown command 'frob' (see 'sbdctl --help')"
sbd --frob
expect "unknown global option" 2 "" "sbdctl: option '--frob' is unknown (see 'sbdctl --help')"
sbd list --frob
expect "list: unknown long option" 2 "" "sbdctl: option '--frob' is unknown (see 'sbdctl list --help')"
sbd list -x
expect "list: unknown short option" 2 "" "sbdctl: option '-x' is unknown (see 'sbdctl list --help')"
sbd list --json=yes
expect "list: a value to a flag" 2 "" "sbdctl: option '--json' takes no value (see 'sbdctl list --help')"
sbd list extra
expect "list: an argument" 2 "" "sbdctl: unexpected argument 'extra' (see 'sbdctl list --help')"
sbd create
expect "create: --size is required" 2 "" "sbdctl: --size is required (see 'sbdctl create --help')"
sbd create --size
expect "create: --size without value" 2 "" "sbdctl: option '--size' needs a value (see 'sbdctl create --help')"
sbd create -s
expect "create: -s without value" 2 "" "sbdctl: option '-s' needs a value (see 'sbdctl create --help')"
sbd create --size 1G --queue 4
expect "create: an ambiguous option" 2 "" "sbdctl: option '--queue' is ambiguous (see 'sbdctl create --help')"
sbd create --size 1G disk
expect "create: an argument" 2 "" "sbdctl: unexpected argument 'disk' (see 'sbdctl create --help')"
for s in 12Q 1.5G -1 0 "" " 1G" 1G1 18446744073709551616 16384P 1E; do
	sbd create --size "$s"
	expect "create: invalid size '$s'" 2 "" "sbdctl: invalid size '$s' (see 'sbdctl create --help')"
done
sbd create --size 1G --sector-size 4X
expect "create: invalid --sector-size" 2 "" "sbdctl: invalid size '4X' (see 'sbdctl create --help')"
for o in --queues --queue-depth --poll-queues --partitions; do
	sbd create --size 1G $o 1x
	expect "create: invalid $o" 2 "" "sbdctl: invalid number '1x' for $o (see 'sbdctl create --help')"
done
sbd create --size 1G --queues 4294967296
expect "create: --queues past 32 bits" 2 "" "sbdctl: invalid number '4294967296' for --queues (see 'sbdctl create --help')"
for v in -1 "" " 2" 2K 4294967296; do
	sbd create --size 1G --poll-queues "$v"
	expect "create: invalid --poll-queues '$v'" 2 "" \
		"sbdctl: invalid number '$v' for --poll-queues (see 'sbdctl create --help')"
done
for m in fifo MQ Bio "" "bio " "mq
"; do
	sbd create --size 1G --queue-mode "$m"
	expect "create: invalid --queue-mode '$m'" 2 "" \
		"sbdctl: invalid queue mode '$m': use bio or mq (see 'sbdctl create --help')"
done
sbd create --size 1G --queue-mode
expect "create: --queue-mode without value" 2 "" "sbdctl: option '--queue-mode' needs a value (see 'sbdctl create --help')"
for o in --queues --queue-depth --poll-queues; do
	sbd create --size 1G --queue-mode bio $o 4
	expect "create: $o with --queue-mode bio" 2 "" \
		"sbdctl: $o needs --queue-mode mq (see 'sbdctl create --help')"
	sbd create --size 1G $o 4 --queue-mode bio
	expect "create: $o with --queue-mode bio, in either order" 2 "" \
		"sbdctl: $o needs --queue-mode mq (see 'sbdctl create --help')"
done
sbd create --size 1G --queue-mode mq --queue-mode bio --queue-depth 4
expect "create: the last --queue-mode counts" 2 "" \
	"sbdctl: --queue-depth needs --queue-mode mq (see 'sbdctl create --help')"
sbd create --poll-queues 0 --size 1G --queue-mode bio
expect "create: --poll-queues 0 with --queue-mode bio too" 2 "" \
	"sbdctl: --poll-queues needs --queue-mode mq (see 'sbdctl create --help')"
sbd create --help
why=""
for w in "--queue-mode MODE" "--queues N                   hardware queues; implies --queue-mode mq" \
	 "--poll-queues N              hardware queues for polled I/O (io_uring" \
	 "IOPOLL, RWF_HIPRI), besides the others;"; do
	grep -qF -- "$w" <<<"$out" || why+="missing: $w"$'\n'
done
got=$(grep -A 2 -e "--poll-queues N" <<<"$out" | tail -n 1)
[ "$got" = "                                   implies --queue-mode mq" ] ||
	why+="--poll-queues does not say it implies mq: $got"$'\n'
result "create --help: --queue-mode, --poll-queues, and what --queues and --poll-queues imply" "$why"
sbd list --help
why=""
for w in "MODE is the queue mode, bio or mq" "queue-mode (\"bio\" or \"mq\", null when unknown)" \
	 "poll-queues (null when unknown)"; do
	grep -qF -- "$w" <<<"$out" || why+="missing: $w"$'\n'
done
result "list --help: the MODE column, the queue-mode and poll-queues keys" "$why"
for name in sbd3 sbd1p1 .x "a b" a/b ""; do
	sbd create --size 1G --name "$name"
	expect "create: invalid name '$name'" 2 "" \
		"sbdctl: invalid name '$name': use 1 to 255 of A-Z a-z 0-9 . _ -, not starting with '.', not sbdN (see 'sbdctl create --help')"
done
sbd resize
expect "resize: no arguments" 2 "" "sbdctl: missing DEV and SIZE (see 'sbdctl resize --help')"
sbd resize sbd0
expect "resize: no SIZE" 2 "" "sbdctl: missing SIZE (see 'sbdctl resize --help')"
sbd resize sbd0 1G 2G
expect "resize: an extra argument" 2 "" "sbdctl: unexpected argument '2G' (see 'sbdctl resize --help')"
sbd resize sbd0 12Q
expect "resize: invalid size" 2 "" "sbdctl: invalid size '12Q' (see 'sbdctl resize --help')"
sbd resize sbd0 0
expect "resize: size 0" 2 "" "sbdctl: invalid size '0' (see 'sbdctl resize --help')"
for c in ro rw remove; do
	# remove takes --force; --forse is unknown to all three
	sbd $c
	expect "$c: no DEV" 2 "" "sbdctl: missing DEV (see 'sbdctl $c --help')"
	sbd $c a b
	expect "$c: two DEVs" 2 "" "sbdctl: unexpected argument 'b' (see 'sbdctl $c --help')"
	sbd $c --forse a
	expect "$c: unknown option" 2 "" "sbdctl: option '--forse' is unknown (see 'sbdctl $c --help')"
done

# ---- module not loaded, configfs missing --------------------------------

populated
rmdir "$R/sys/module/sbd"
for args in "list" "list --json" "create --size 1G" "resize alpha 1G" \
	    "ro alpha" "rw sbd2" "remove /dev/sbd2"; do
	# shellcheck disable=SC2086
	sbd $args
	expect "no module: $args exits 3" 3 "" "$NOMOD"
done
sbd resize nosuch 12Q
expect "no module: a usage error is still one (exit 2)" 2 "" \
	"sbdctl: invalid size '12Q' (see 'sbdctl resize --help')"
sbd create --size 1G --queue-mode bio --queues 2
expect "no module: --queues with --queue-mode bio is still a usage error" 2 "" \
	"sbdctl: --queues needs --queue-mode mq (see 'sbdctl create --help')"
sbd create --size 1G --poll-queues 2 --queue-mode bio
expect "no module: --poll-queues with --queue-mode bio is still a usage error" 2 "" \
	"sbdctl: --poll-queues needs --queue-mode mq (see 'sbdctl create --help')"
sbd create --size 1G
expect_ls "no module: create made nothing" "$CFS" "alpha beta gamma zeta"

populated
mv "$CFS" "$TMP/saved"
sbd create --size 1G
expect "no configfs: create exits 3, says how to mount" 3 "" "$NOCFS"
for args in "resize alpha 1G" "ro alpha" "rw sbd2" "remove /dev/sbd2"; do
	# shellcheck disable=SC2086
	sbd $args
	expect "no configfs: $args exits 3" 3 "" "$NOCFS"
done
sbd ro sbd0
expect "no configfs: a module-parameter disk is still refused" 1 "" "sbdctl: sbd0 $PARAM"
sbd list
expect "no configfs: list shows the powered disks, warns" 0 \
'DEVICE     NAME  SIZE LOG-SEC PHY-SEC MODE MEMORY RO
/dev/sbd0  -      64M     512    4096 bio      0B  0
/dev/sbd2  alpha 1.5G    4096    4096 mq      12K  1
/dev/sbd10 -       1T     512    4096 -        1M  0' \
	"sbdctl: $CFS not found (is configfs mounted?): powered-off disks are not shown"
rm -rf "$TMP/saved"

# ---- list ---------------------------------------------------------------

fresh
sbd list
expect "list: no disks, no output" 0 "" ""
sbd list --json
expect "list --json: no disks, []" 0 "[]" ""

populated
sbd list
expect "list: the table, sorted sbd0 sbd2 sbd10 then off items by name" 0 "$TABLE" ""
sbd list -b
expect "list -b: sizes in bytes" 0 "$TABLE_BYTES" ""
sbd list --bytes
expect "list --bytes" 0 "$TABLE_BYTES" ""
sbd list --json
expect "list --json: exact objects" 0 "$JSON" ""
sbd list -J --bytes
expect "list -J --bytes: the same JSON" 0 "$JSON" ""
expect_jq "list --json" '[.[] | [.device, .name, .size, ."queue-mode", ."poll-queues", .memory, .ro]]' \
	'[["/dev/sbd0",null,67108864,"bio",0,0,false],["/dev/sbd2","alpha",1610612736,"mq",2,12288,true],["/dev/sbd10","gamma",1099511627776,null,null,1048576,false],[null,"beta",1073741824,"mq",4,null,true],[null,"zeta",536870912,"bio",0,null,false]]'
SBDCTL_DEV=/tmp/x/dev/ sbd list --json
expect "list --json: SBDCTL_DEV sets the device paths" 0 \
	"${JSON//\/dev\/sbd//tmp/x/dev/sbd}" ""

echo "not an item" >"$CFS/README"
item .hidden 4096 512 4096 0
item 'q"x y' 4096 512 4096 0
sbd list
expect "list: stray files skipped, odd names escaped, no queue_mode is -" 0 \
'DEVICE     NAME     SIZE LOG-SEC PHY-SEC MODE MEMORY RO
/dev/sbd0  -         64M     512    4096 bio      0B  0
/dev/sbd2  alpha    1.5G    4096    4096 mq      12K  1
/dev/sbd10 gamma      1T     512    4096 -        1M  0
-          beta       1G    4096    4096 mq        -  1
-          q"x\x20y   4K     512    4096 -         -  0
-          zeta     512M     512    4096 bio       -  0' ""
sbd list --json
got=$(sed -n 6p <<<"$out")
result "list --json: odd name escaped, no queue_mode nor poll_queues is null" \
	"$([ "$got" = '  {"device": null, "name": "q\"x y", "link": null, "size": 4096, "log-sec": 512, "phy-sec": 4096, "queue-mode": null, "poll-queues": null, "memory": null, "uuid": null, "ro": false},' ] || echo "got: $got")"

populated
echo fifo >"$R/sys/block/sbd0/sbd/queue_mode"
: >"$CFS/zeta/queue_mode"
echo MQ >"$CFS/beta/queue_mode"
sbd list
expect "list: a queue_mode other than bio or mq is -" 0 \
'DEVICE     NAME  SIZE LOG-SEC PHY-SEC MODE MEMORY RO
/dev/sbd0  -      64M     512    4096 -        0B  0
/dev/sbd2  alpha 1.5G    4096    4096 mq      12K  1
/dev/sbd10 gamma   1T     512    4096 -        1M  0
-          beta    1G    4096    4096 -         -  1
-          zeta  512M     512    4096 -         -  0' ""

populated
"$SBDCTL" list >/dev/full 2>"$TMP/err"
rc=$? out="" err=$(<"$TMP/err")
expect "list to a full disk: write error, exit 1" 1 "" "sbdctl: write error: No space left on device"

# ---- resize, ro, rw, remove on plain files --------------------------------

populated
sbd resize alpha 2G
expect "resize NAME" 0 "" ""
expect_files "resize NAME wrote the item's size" "$CFS/alpha/size" 2147483648
sbd resize /dev/sbd2 3GiB
expect_files "resize /dev/sbdN found the item through sbd/name" "$CFS/alpha/size" 3221225472
sbd resize sbd10 2T
expect "resize sbdN" 0 "" ""
expect_files "resize sbdN found the item through configfs 'device'" "$CFS/gamma/size" 2199023255552
sbd resize beta 4K
expect_files "resize of a powered-off item" "$CFS/beta/size" 4096
sbd ro gamma
expect "ro NAME" 0 "" ""
sbd rw /dev/sbd2
expect "rw /dev/sbdN" 0 "" ""
sbd ro zeta
expect_files "ro and rw wrote read_only" "$CFS/gamma/read_only $CFS/alpha/read_only $CFS/zeta/read_only" "1
0
1"
SBDCTL_DEV=/tmp/x/dev sbd ro /tmp/x/dev/sbd2
expect_files "SBDCTL_DEV: /tmp/x/dev/sbdN is a device" "$CFS/alpha/read_only" 1

for args in "resize sbd0 1G" "resize /dev/sbd0 1G" "ro sbd0" "rw /dev/sbd0" "remove sbd0"; do
	# shellcheck disable=SC2086
	sbd $args
	expect "$args: a module-parameter disk is refused, exit 1" 1 "" "sbdctl: sbd0 $PARAM"
done
expect_files "the module-parameter disk is untouched" "$R/sys/block/sbd0/size $R/sys/block/sbd0/ro" "131072
0"

sbd resize sbd7 1G
expect "resize sbd7: no such disk, exit 4" 4 "" "sbdctl: no such sbd disk: sbd7"
sbd ro nosuch
expect "ro NAME: no such disk, exit 4" 4 "" "sbdctl: no such sbd disk: nosuch"
sbd remove /dev/sda
expect "remove /dev/sda: not sbd, exit 4" 4 "" "sbdctl: no such sbd disk: /dev/sda"
sbd rw sbd01
expect "rw sbd01: not a kernel name, exit 4" 4 "" "sbdctl: no such sbd disk: sbd01"
sbd ro /dev/sbd2p1
expect "ro /dev/sbd2p1: a partition, exit 4" 4 "" "sbdctl: /dev/sbd2p1 is a partition, not a disk (sbd2 is the disk)"
sbd ro README
expect "ro of a file that is no item, exit 4" 4 "" "sbdctl: no such sbd disk: README"

item sbd5 4096 512 4096 0
sbd ro sbd5
expect "ro sbd5: no device sbd5, but an item of that name" 0 "" ""
expect_files "... its read_only written" "$CFS/sbd5/read_only" 1
sbd ro /dev/sbd5
expect "ro /dev/sbd5: a path is only ever a device" 4 "" "sbdctl: no such sbd disk: /dev/sbd5"

# Without a driver behind the directory, rmdir finds it full: the error
# path, after power=0 was written.
sbd remove alpha
expect "remove: rmdir refused is reported, exit 1" 1 "" "sbdctl: cannot remove 'alpha': Directory not empty"
expect_files "remove wrote power=0 before the rmdir" "$CFS/alpha/power" 0
sbd remove beta
expect_files "remove of a powered-off item writes no power" "$CFS/beta/power" 0

# ---- with the fake kernel -------------------------------------------------

fresh
sysfs_disk 0 131072 512 4096 0 0 ""
export FAKE_LOG=$TMP/log
ksbd create --size 64M
expect "create --size 64M prints the device" 0 "/dev/sbd1" ""
expect_log "... mkdir, size, power=1" "disk0 mkdir
disk0 size=67108864
disk0 power=1"
expect_files "... item disk0: size, power, device; defaults kept" \
	"$CFS/disk0/size $CFS/disk0/power $CFS/disk0/device $CFS/disk0/logical_block_size $CFS/disk0/read_only" \
	"67108864
1
sbd1
512
0"
expect_files "... the disk in sysfs" "$R/sys/block/sbd1/size $R/sys/block/sbd1/sbd/name" "131072
disk0"

ksbd create --size 1G --sector-size 4096 --physical-sector-size 8K --name big \
	--queues 4 --queue-depth 64 --poll-queues 3 --partitions 0 --no-discard \
	--read-only
expect "create with every option" 0 "/dev/sbd2" ""
expect_log "... block sizes first, --queues implies queue_mode=mq before them, power last" "big mkdir
big logical_block_size=4096
big physical_block_size=8192
big size=1073741824
big queue_mode=mq
big hw_queues=4
big queue_depth=64
big poll_queues=3
big partitions=0
big discard=0
big read_only=1
big power=1"
expect_files "... every attribute written" "$(printf "$CFS/big/%s " \
	logical_block_size physical_block_size size queue_mode hw_queues \
	queue_depth poll_queues partitions discard read_only power device)" "4096
8192
1073741824
mq
4
64
3
0
0
1
1
sbd2"
expect_files "... the disk's poll queues in sysfs" "$R/sys/block/sbd2/sbd/poll_queues" 3
ksbd create -s 1M -r
expect "create: the next free name, short options" 0 "/dev/sbd3" ""
expect_files "... disk1, read-only" "$CFS/disk1/read_only $R/sys/block/sbd3/ro" "1
1"
sbd list
expect "list after create: MODE from sysfs, bio by default" 0 'DEVICE    NAME  SIZE LOG-SEC PHY-SEC MODE MEMORY RO
/dev/sbd0 -      64M     512    4096 -        0B  0
/dev/sbd1 disk0  64M     512    4096 bio      0B  0
/dev/sbd2 big     1G    4096    8192 mq       0B  1
/dev/sbd3 disk1   1M     512    4096 bio      0B  1' ""

ksbd create --size 1G --name big
expect "create: the name is taken, exit 1" 1 "" "sbdctl: a disk named 'big' already exists"

# Each refusal names attribute and value, and leaves nothing behind.
check_refused() {	# check_refused WHAT MESSAGE ARGS...
	local what=$1 msg=$2

	shift 2
	rm -f "$TMP/log"
	ksbd create "$@"
	expect "create refused: $what" 1 "" "$msg"
	expect_ls "... nothing left in configfs" "$CFS" "big disk0 disk1"
	expect_ls "... nor in sysfs" "$R/sys/block" "sbd0 sbd1 sbd2 sbd3"
}
check_refused "size not a multiple of 512" "sbdctl: size=1000: Invalid argument" --size 1000
expect_log "... undone: rmdir, no power=0 as it never was on" "disk2 mkdir
disk2 size=1000
disk2 rmdir"
check_refused "logical block size 768" "sbdctl: logical_block_size=768: Invalid argument" \
	--size 1G --sector-size 768
check_refused "physical below logical" "sbdctl: physical_block_size=512: Invalid argument" \
	--size 1G --sector-size 4096 --physical-sector-size 512
check_refused "size written after the block size" "sbdctl: size=6144: Invalid argument" \
	--size 6K --sector-size 4096
check_refused "queue depth 5000" "sbdctl: queue_depth=5000: Invalid argument" \
	--size 1G --queue-depth 5000
check_refused "0 queues" "sbdctl: hw_queues=0: Invalid argument" --size 1G --queues 0
check_refused "300 poll queues" "sbdctl: poll_queues=300: Invalid argument" \
	--size 1G --poll-queues 300
expect_log "... undone: rmdir after the refused poll_queues" "disk2 mkdir
disk2 size=1073741824
disk2 queue_mode=mq
disk2 poll_queues=300
disk2 rmdir"
FAKE_FAIL=power=1:12 check_refused "power=1 fails" "sbdctl: power=1: Cannot allocate memory" --size 1G
FAKE_NODEV=1 check_refused "power=1 made no device" \
	"sbdctl: power=1 gave no device ('' in $CFS/disk2/device)" --size 1G
expect_log "... undone: power=0, then rmdir" "disk2 mkdir
disk2 size=1073741824
disk2 power=1
disk2 power=0
disk2 rmdir"
FAKE_FAIL=mkdir:13 check_refused "mkdir not allowed" \
	"sbdctl: cannot create disk 'disk2': Permission denied" --size 1G
FAKE_FEATURES=size,read_only,power,device,features check_refused "an option the module lacks" \
	"sbdctl: --queue-depth is not supported by the loaded sbd module (no queue_depth attribute)" \
	--size 1G --queue-depth 4
FAKE_FEATURES=size,read_only,power,device FAKE_NO_FEATURES_FILE=1 check_refused \
	"no features file: the attribute file decides" \
	"sbdctl: --queues is not supported by the loaded sbd module (no hw_queues attribute)" \
	--size 1G --queues 2
FAKE_FAIL=rmdir:16 ksbd create --size 1000
expect "create: an undo that fails is reported too" 1 "" "sbdctl: size=1000: Invalid argument
sbdctl: could not remove the unfinished disk 'disk2': Device or resource busy"
LD_PRELOAD=$FAKE rmdir "$CFS/disk2"

# A ^C while create writes: the disk is finished and printed, then sbdctl
# dies of the signal; never a half-made item.  A shell started in the
# background ignores SIGINT and passes that on: give sbdctl the default.
WRAP="env --default-signal=INT" FAKE_RAISE=size=1048576 \
	ksbd create --size 1M --name intr
expect "create: ^C in the middle, the disk is finished and printed" 130 "/dev/sbd4" ""
expect_files "... complete and powered" "$CFS/intr/size $CFS/intr/device" "1048576
sbd4"
ksbd remove intr

FAKE_FEATURES=size,read_only,power,device,features ksbd create --size 1M --name lim -r
expect "create: the options the module has still work" 0 "/dev/sbd4" ""

ksbd resize big 2G
expect "resize a powered disk" 0 "" ""
expect_files "... online: its sysfs size changed" "$R/sys/block/sbd2/size" 4194304
ksbd resize /dev/sbd2 1000
expect "resize to a size the driver refuses, exit 1" 1 "" "sbdctl: size=1000: Invalid argument"
ksbd ro /dev/sbd1
expect_files "ro of a powered disk" "$R/sys/block/sbd1/ro" 1
ksbd rw disk0
expect_files "rw of a powered disk" "$R/sys/block/sbd1/ro" 0

FAKE_FAIL=power=0:16 ksbd remove disk0
expect "remove of a busy disk, exit 1" 1 "" "sbdctl: power=0: Device or resource busy (is it in use?)"
expect_ls "... the disk stays" "$R/sys/block" "sbd0 sbd1 sbd2 sbd3 sbd4"
rm -f "$TMP/log"
ksbd remove disk0
expect "remove NAME" 0 "" ""
expect_log "... power=0, then rmdir" "disk0 power=0
disk0 rmdir"
ksbd remove /dev/sbd2
expect "remove /dev/sbdN" 0 "" ""
ksbd remove sbd3
expect "remove sbdN" 0 "" ""
ksbd remove lim
expect_ls "remove: the items are gone" "$CFS" ""
expect_ls "... and their disks" "$R/sys/block" "sbd0"
ksbd create --size 1M
expect "create after remove takes the freed name and number" 0 "/dev/sbd1" ""
expect_ls "... disk0 again" "$CFS" "disk0"

populated
rm -f "$TMP/log"
ksbd remove beta
expect "remove a powered-off item" 0 "" ""
expect_log "... just rmdir" "beta rmdir"
expect_ls "... it is gone" "$CFS" "alpha gamma zeta"

# ---- the queue mode, with the fake kernel ----------------------------------

fresh
sysfs_disk 0 131072 512 4096 0 0 "" bio
rm -f "$TMP/log"
ksbd create --size 1M --name dflt
expect "create without --queue-mode" 0 "/dev/sbd1" ""
expect_log "... writes no queue_mode: the module's default stays" "dflt mkdir
dflt size=1048576
dflt power=1"
expect_files "... bio in configfs and sysfs" \
	"$CFS/dflt/queue_mode $R/sys/block/sbd1/sbd/queue_mode" "bio
bio"
ksbd create --size 1M --name qmq --queue-mode mq
expect "create --queue-mode mq" 0 "/dev/sbd2" ""
expect_log "... queue_mode=mq after the size, before power" "qmq mkdir
qmq size=1048576
qmq queue_mode=mq
qmq power=1"
expect_files "... mq in configfs and sysfs" \
	"$CFS/qmq/queue_mode $R/sys/block/sbd2/sbd/queue_mode" "mq
mq"
FAKE_QUEUE_MODE=mq ksbd create --size 1M --name qbio --queue-mode bio
expect "create --queue-mode bio on a module whose default is mq" 0 "/dev/sbd3" ""
expect_log "... queue_mode=bio written" "qbio mkdir
qbio size=1048576
qbio queue_mode=bio
qbio power=1"
expect_files "... bio in sysfs" "$R/sys/block/sbd3/sbd/queue_mode" bio
ksbd create --size 1M --name qdepth --queue-depth 32
expect "create --queue-depth alone: mq implied" 0 "/dev/sbd4" ""
expect_log "... queue_mode=mq before queue_depth" "qdepth mkdir
qdepth size=1048576
qdepth queue_mode=mq
qdepth queue_depth=32
qdepth power=1"
ksbd create --size 1M --name both --queue-depth 16 --queues 2 --queue-mode mq
expect "create --queue-mode mq with --queues and --queue-depth" 0 "/dev/sbd5" ""
expect_log "... queue_mode=mq, hw_queues, queue_depth" "both mkdir
both size=1048576
both queue_mode=mq
both hw_queues=2
both queue_depth=16
both power=1"
FAKE_QUEUE_MODE=mq ksbd create --size 1M --name mqdef
expect "create on a module whose default is mq" 0 "/dev/sbd6" ""
expect_log "... writes no queue_mode" "mqdef mkdir
mqdef size=1048576
mqdef power=1"
expect_files "... mq, the default" "$R/sys/block/sbd6/sbd/queue_mode" mq
# kwrite FILE VALUE: writes VALUE to an attribute under the fake kernel
# (with write(2), as sbdctl does: stdio's writes are not interposed).
kwrite() {
	printf '%s\n' "$2" |
		LD_PRELOAD=$FAKE dd of="$1" conv=notrunc status=none 2>"$TMP/err"
	rc=$?
	out=""
	err=$(<"$TMP/err")
	err=${err##*: }
}
kwrite "$CFS/qbio/power" 0
kwrite "$CFS/mqdef/power" 0
sbd list
expect "list: MODE of each, powered-off ones from configfs" 0 \
'DEVICE    NAME   SIZE LOG-SEC PHY-SEC MODE MEMORY RO
/dev/sbd0 -       64M     512    4096 bio      0B  0
/dev/sbd1 dflt     1M     512    4096 bio      0B  0
/dev/sbd2 qmq      1M     512    4096 mq       0B  0
/dev/sbd4 qdepth   1M     512    4096 mq       0B  0
/dev/sbd5 both     1M     512    4096 mq       0B  0
-         mqdef    1M     512    4096 mq        -  0
-         qbio     1M     512    4096 bio       -  0' ""
sbd list --json
expect "list --json: queue-mode of each" 0 '[
  {"device": "/dev/sbd0", "name": null, "link": null, "size": 67108864, "log-sec": 512, "phy-sec": 4096, "queue-mode": "bio", "poll-queues": null, "memory": 0, "uuid": null, "ro": false},
  {"device": "/dev/sbd1", "name": "dflt", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "bio", "poll-queues": 0, "memory": 0, "uuid": null, "ro": false},
  {"device": "/dev/sbd2", "name": "qmq", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "mq", "poll-queues": 0, "memory": 0, "uuid": null, "ro": false},
  {"device": "/dev/sbd4", "name": "qdepth", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "mq", "poll-queues": 0, "memory": 0, "uuid": null, "ro": false},
  {"device": "/dev/sbd5", "name": "both", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "mq", "poll-queues": 0, "memory": 0, "uuid": null, "ro": false},
  {"device": null, "name": "mqdef", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "mq", "poll-queues": 0, "memory": null, "uuid": null, "ro": false},
  {"device": null, "name": "qbio", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "bio", "poll-queues": 0, "memory": null, "uuid": null, "ro": false}
]' ""

QM_ITEMS="both dflt mqdef qbio qdepth qmq"
QM_DISKS="sbd0 sbd1 sbd2 sbd4 sbd5"
rm -f "$TMP/log"
FAKE_FAIL=queue_mode=mq:16 ksbd create --size 1M --name busy --queue-mode mq
expect "create: queue_mode refused, exit 1, names it" 1 "" \
	"sbdctl: queue_mode=mq: Device or resource busy"
expect_log "... undone" "busy mkdir
busy size=1048576
busy queue_mode=mq
busy rmdir"
expect_ls "... nothing left in configfs" "$CFS" "$QM_ITEMS"
expect_ls "... nor in sysfs" "$R/sys/block" "$QM_DISKS"

# An older module: no queue_mode attribute, blk-mq only.
OLD=size,logical_block_size,physical_block_size,hw_queues,queue_depth,read_only,power,device,features
for m in bio mq; do
	FAKE_FEATURES=$OLD ksbd create --size 1M --name old --queue-mode $m
	expect "old module: --queue-mode $m refused, exit 1" 1 "" \
		"sbdctl: --queue-mode is not supported by the loaded sbd module (no queue_mode attribute)"
	expect_log "... before anything is written, undone" "old mkdir
old rmdir"
done
FAKE_FEATURES=${OLD%,features} FAKE_NO_FEATURES_FILE=1 ksbd create --size 1M --name old --queue-mode bio
expect "old module, no features file: --queue-mode refused" 1 "" \
	"sbdctl: --queue-mode is not supported by the loaded sbd module (no queue_mode attribute)"
expect_ls "... nothing left in configfs" "$CFS" "$QM_ITEMS"
rm -f "$TMP/log"
FAKE_FEATURES=$OLD ksbd create --size 1M --name old --queues 4
expect "old module: --queues still works, its mq is not asked for" 0 "/dev/sbd3" ""
expect_log "... no queue_mode written" "old mkdir
old size=1048576
old hw_queues=4
old power=1"
sbd list
got=$(grep '^/dev/sbd3 ' <<<"$out")
result "list: a disk of an older module has MODE -" \
	"$([ "$got" = "/dev/sbd3 old      1M     512    4096 -        0B  0" ] || echo "got: $got")"

# The model itself keeps the contract the order of writes relies on.
LD_PRELOAD=$FAKE mkdir "$CFS/m"
kwrite "$CFS/m/hw_queues" 4
expect "fake: hw_queues on a bio disk is EINVAL" 1 "" "Invalid argument"
kwrite "$CFS/m/queue_depth" 4
expect "fake: queue_depth on a bio disk is EINVAL" 1 "" "Invalid argument"
kwrite "$CFS/m/poll_queues" 0
expect "fake: poll_queues on a bio disk is EINVAL, even 0" 1 "" "Invalid argument"
kwrite "$CFS/m/queue_mode" fifo
expect "fake: queue_mode=fifo is EINVAL" 1 "" "Invalid argument"
kwrite "$CFS/m/queue_mode" mq
expect "fake: queue_mode=mq" 0 "" ""
kwrite "$CFS/m/hw_queues" 4
expect "fake: hw_queues on an mq disk" 0 "" ""
kwrite "$CFS/m/poll_queues" 257
expect "fake: poll_queues=257 is EINVAL" 1 "" "Invalid argument"
kwrite "$CFS/m/poll_queues" 2
expect "fake: poll_queues on an mq disk" 0 "" ""
kwrite "$CFS/m/power" 1
kwrite "$CFS/m/queue_mode" bio
expect "fake: queue_mode while powered is EBUSY" 1 "" "Device or resource busy"
kwrite "$CFS/m/poll_queues" 1
expect "fake: poll_queues while powered is EBUSY" 1 "" "Device or resource busy"
expect_files "... the modes and poll queues kept" \
	"$CFS/m/queue_mode $R/sys/block/sbd6/sbd/queue_mode $CFS/m/poll_queues $R/sys/block/sbd6/sbd/poll_queues" "mq
mq
2
2"

# ---- poll queues, with the fake kernel -------------------------------------

fresh
sysfs_disk 0 131072 512 4096 0 0 "" bio 0
rm -f "$TMP/log"
ksbd create --size 1M --name pq --poll-queues 2
expect "create --poll-queues alone: mq implied" 0 "/dev/sbd1" ""
expect_log "... queue_mode=mq before poll_queues, power last" "pq mkdir
pq size=1048576
pq queue_mode=mq
pq poll_queues=2
pq power=1"
expect_files "... mq and 2 poll queues in configfs and sysfs" \
	"$CFS/pq/queue_mode $CFS/pq/poll_queues $R/sys/block/sbd1/sbd/queue_mode $R/sys/block/sbd1/sbd/poll_queues" "mq
2
mq
2"
ksbd create --size 1M --name pq0 --poll-queues 0 --queue-mode mq
expect "create --poll-queues 0 --queue-mode mq" 0 "/dev/sbd2" ""
expect_log "... poll_queues=0 written" "pq0 mkdir
pq0 size=1048576
pq0 queue_mode=mq
pq0 poll_queues=0
pq0 power=1"
ksbd create --size 1M --name pbio
expect "create a bio disk" 0 "/dev/sbd3" ""
expect_log "... writes no poll_queues" "pbio mkdir
pbio size=1048576
pbio power=1"
expect_files "... which has no poll queues" "$R/sys/block/sbd3/sbd/poll_queues" 0
ksbd create --size 1M --name poff --poll-queues 4
kwrite "$CFS/poff/power" 0
# mq with 3 poll queues, then bio: the item keeps 3, the disk has none
ksbd create --size 1M --name pkept --poll-queues 3
kwrite "$CFS/pkept/power" 0
kwrite "$CFS/pkept/queue_mode" bio
expect_files "... a bio item keeps its poll_queues" "$CFS/pkept/poll_queues" 3
# $OLD, the module older than queue_mode, has no poll_queues either
FAKE_FEATURES=$OLD ksbd create --size 1M --name pold --queues 2
expect "create on an older module" 0 "/dev/sbd4" ""
expect_files "... no sbd/poll_queues in sysfs" "$R/sys/block/sbd4/sbd/poll_queues" \
	"cat: $R/sys/block/sbd4/sbd/poll_queues: No such file or directory"
FAKE_FEATURES=$OLD ksbd create --size 1M --name poldoff
kwrite "$CFS/poldoff/power" 0
rm -f "$TMP/log"
sbd list --json
expect "list --json: poll-queues of each; 0 on bio, null on an older module" 0 '[
  {"device": "/dev/sbd0", "name": null, "link": null, "size": 67108864, "log-sec": 512, "phy-sec": 4096, "queue-mode": "bio", "poll-queues": 0, "memory": 0, "uuid": null, "ro": false},
  {"device": "/dev/sbd1", "name": "pq", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "mq", "poll-queues": 2, "memory": 0, "uuid": null, "ro": false},
  {"device": "/dev/sbd2", "name": "pq0", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "mq", "poll-queues": 0, "memory": 0, "uuid": null, "ro": false},
  {"device": "/dev/sbd3", "name": "pbio", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "bio", "poll-queues": 0, "memory": 0, "uuid": null, "ro": false},
  {"device": "/dev/sbd4", "name": "pold", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": null, "poll-queues": null, "memory": 0, "uuid": null, "ro": false},
  {"device": null, "name": "pkept", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "bio", "poll-queues": 0, "memory": null, "uuid": null, "ro": false},
  {"device": null, "name": "poff", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": "mq", "poll-queues": 4, "memory": null, "uuid": null, "ro": false},
  {"device": null, "name": "poldoff", "link": null, "size": 1048576, "log-sec": 512, "phy-sec": 4096, "queue-mode": null, "poll-queues": null, "memory": null, "uuid": null, "ro": false}
]' ""
sbd list
expect "list: the table has no poll queues column" 0 \
'DEVICE    NAME    SIZE LOG-SEC PHY-SEC MODE MEMORY RO
/dev/sbd0 -        64M     512    4096 bio      0B  0
/dev/sbd1 pq        1M     512    4096 mq       0B  0
/dev/sbd2 pq0       1M     512    4096 mq       0B  0
/dev/sbd3 pbio      1M     512    4096 bio      0B  0
/dev/sbd4 pold      1M     512    4096 -        0B  0
-         pkept     1M     512    4096 bio       -  0
-         poff      1M     512    4096 mq        -  0
-         poldoff   1M     512    4096 -         -  0' ""

P_ITEMS="pbio pkept poff pold poldoff pq pq0"
P_DISKS="sbd0 sbd1 sbd2 sbd3 sbd4"
FAKE_FAIL=poll_queues=2:22 ksbd create --size 1M --name pfail --poll-queues 2
expect "create: poll_queues refused by the kernel, exit 1, names it" 1 "" \
	"sbdctl: poll_queues=2: Invalid argument"
expect_log "... undone" "pfail mkdir
pfail size=1048576
pfail queue_mode=mq
pfail poll_queues=2
pfail rmdir"
expect_ls "... nothing left in configfs" "$CFS" "$P_ITEMS"
expect_ls "... nor in sysfs" "$R/sys/block" "$P_DISKS"
NOPOLL=size,logical_block_size,physical_block_size,queue_mode,hw_queues,queue_depth,partitions,discard,read_only,power,device,features
for f in "$NOPOLL" "$OLD"; do
	FAKE_FEATURES=$f ksbd create --size 1M --name pnone --poll-queues 2
	expect "module without poll_queues${f/$OLD/ nor queue_mode}: --poll-queues refused, exit 1" 1 "" \
		"sbdctl: --poll-queues is not supported by the loaded sbd module (no poll_queues attribute)"
	expect_log "... before anything is written, undone" "pnone mkdir
pnone rmdir"
	expect_ls "... nothing left in configfs" "$CFS" "$P_ITEMS"
done

# ---- crash testing: which file each verb writes, what it prints --------
fresh
C=$CFS/c
mkdir -p "$C"
echo "size,snapshot,restore,mark,log_limit,log_full_fail,crash_image,crash_mark,power,device,features,log" >"$C/features"
for f in snapshot restore mark log_limit log_full_fail; do : >"$C/$f"; done
printf '%s\n' "log entries 4 epochs 2 bytes 12416 limit 4194304 full 0 dropped 0 stopped 0" \
	"epoch 1 first 0 count 2 writes 1 fua 0 flushed 1" \
	"epoch 2 first 2 count 2 writes 1 fua 1 flushed 0" \
	"mark 2 epoch 2 after 0 after \"fsync\" 1" >"$C/log"
sbd snapshot c --log-limit 4M
expect "snapshot --log-limit: exit 0, quiet" 0 "" ""
expect_files "... writes log_limit, log_full_fail, snapshot" "$C/log_limit $C/log_full_fail $C/snapshot" "4194304
0
1"
sbd snapshot c --log-limit 4M --log-full-fail
expect_files "snapshot --log-full-fail: log_full_fail 1" "$C/log_full_fail" "1"
sbd restore c
expect "restore: exit 0" 0 "" ""
expect_files "... writes restore" "$C/restore" "1"
sbd mark c "txn 17"
expect "mark: exit 0" 0 "" ""
expect_files "... writes the label" "$C/mark" "txn 17"
sbd log c
expect "log: the attribute as it is" 0 "$(cat "$C/log")" ""
sbd log c --json
expect "log --json" 0 '{"entries": 4, "epochs": 2, "bytes": 12416, "limit": 4194304, "full": false, "dropped": 0, "stopped": false, "epoch-list": [
  {"epoch": 1, "first": 0, "count": 2, "writes": 1, "fua": 0, "flushed": true, "marks": []},
  {"epoch": 2, "first": 2, "count": 2, "writes": 1, "fua": 1, "flushed": false, "marks": [{"entry": 2, "after": 0, "label": "after \"fsync\" 1"}]}
]}' ""
sbd mark c
expect "mark without LABEL: usage, exit 2" 2 "" "sbdctl: missing LABEL (see 'sbdctl mark --help')"
sbd mark c "$(printf 'x%.0s' {1..64})"
expect "mark with a 64-character label: exit 2" 2 "" \
	"sbdctl: invalid label '$(printf 'x%.0s' {1..64})': 1 to 63 printable characters (see 'sbdctl mark --help')"
sbd crash-image c --state 3
expect "crash-image without --epoch: exit 2" 2 "" "sbdctl: missing --epoch (see 'sbdctl crash-image --help')"
sbd crash-image c --epoch 1 --state x
expect "crash-image --state x: exit 2" 2 "" "sbdctl: invalid state 'x' (see 'sbdctl crash-image --help')"
sbd restore nosuch
expect "restore of no disk: exit 4" 4 "" "sbdctl: no such sbd disk: nosuch"
sbd snapshot c --log-limit lots
expect "snapshot --log-limit lots: exit 2" 2 "" "sbdctl: invalid size 'lots' (see 'sbdctl snapshot --help')"
echo "size,power,device,features" >"$C/features"
sbd snapshot c
expect "a module without crash testing: exit 1, says so" 1 "" \
	"sbdctl: the loaded sbd module has no crash testing (no snapshot attribute)"
# crash-test: its options here; what it finds, on the real module
# (tests/sbdctl/crash-test.sh).
sbd crash-test --run true --check true
expect "crash-test without --size: exit 2" 2 "" "sbdctl: missing --size (see 'sbdctl crash-test --help')"
sbd crash-test --size 16M --run true
expect "crash-test without --check: exit 2" 2 "" "sbdctl: missing --check (see 'sbdctl crash-test --help')"
sbd crash-test --size 16M --run true --check true --jobs 17
expect "crash-test --jobs 17: exit 2" 2 "" "sbdctl: invalid --jobs '17': 1 to 16 (see 'sbdctl crash-test --help')"
sbd crash-test --size 16M --run true --check true --jobs 0
expect "crash-test --jobs 0: exit 2" 2 "" "sbdctl: invalid --jobs '0': 1 to 16 (see 'sbdctl crash-test --help')"
sbd crash-test --size 16M --run true --check true --epochs 3-1
expect "crash-test --epochs 3-1: exit 2" 2 "" "sbdctl: invalid --epochs '3-1': A-B, A- or A, A <= B (see 'sbdctl crash-test --help')"
sbd crash-test --size 16M --run true --check true --states 1000001
expect "crash-test --states 1000001: exit 2" 2 "" "sbdctl: invalid --states '1000001': 0 to 1000000 (see 'sbdctl crash-test --help')"
sbd crash-test --size 0 --run true --check true
expect "crash-test --size 0: exit 2" 2 "" "sbdctl: invalid --size '0': must be above 0 (see 'sbdctl crash-test --help')"
sbd crash-test --size 16M --log-limit 0 --run true --check true
expect "crash-test --log-limit 0: exit 2" 2 "" "sbdctl: invalid --log-limit '0': must be above 0 (see 'sbdctl crash-test --help')"
sbd crash-test --size lots --run true --check true
expect "crash-test --size lots: exit 2" 2 "" "sbdctl: invalid size 'lots' (see 'sbdctl crash-test --help')"
sbd crash-test --size 16M --run true --check true extra
expect "crash-test with an argument: exit 2" 2 "" "sbdctl: unexpected argument 'extra' (see 'sbdctl crash-test --help')"
sbd crash-test --size 16M --run true --check true
expect "crash-test on a module without crash testing: exit 1, says so" 1 "" \
	"sbdctl: the loaded sbd module has no crash testing (no crash_image attribute)"
expect_ls "... and leaves no disk behind" "$CFS" "c"
for c in snapshot restore mark log crash-image crash-test; do
	sbd "$c" --help
	[[ $out == "Usage: sbdctl $c"* ]] && [ "$rc" = 0 ] && result "$c --help" "" ||
		result "$c --help" "exit $rc: $out"
done

# ---- export / unexport: nvmet's tree played by fakekernel.so ------------
# The fake makes the attribute files and groups nvmet makes and refuses the
# rmdirs configfs refuses, so these show the order of the calls, the undo
# after each failing step and what unexport leaves; the guest tests
# (tests/export) show the real nvmet serving the disk.
NV=$R/config/nvmet
U=1b4e28ba-2fa1-41d2-883f-0016d3cca427
NQN=nqn.2014-08.org.nvmexpress:uuid:$U
H1=nqn.2014-08.org.nvmexpress:uuid:11111111-1111-4111-8111-111111111111
H2=nqn.2014-08.org.nvmexpress:uuid:22222222-2222-4222-8222-222222222222
export SBDCTL_NVMET=$NV SBDCTL_RUN=$TMP/run
nvmet_fresh() {
	fresh
	sysfs_disk 0 131072 512 4096 0 0 ""
	echo "$U" >"$R/sys/block/sbd0/sbd/uuid"
	mkdir -p "$NV/hosts" "$NV/subsystems" "$NV/ports" "$R/sys/module/nvmet_tcp"
	rm -rf "$TMP/run" "$TMP/log"
}
# nvmet_left NAME: nothing sbdctl made is left in nvmet or /run.
nvmet_left() {
	local got
	got=$(cd "$NV" && find . -mindepth 2 | sort | tr '\n' ' '; ls "$TMP/run/made" 2>/dev/null)
	result "$1" "${got:+left: $got}"
}
nvmet_fresh

sbd export --help
[[ $out == "Usage: sbdctl export DEV"* ]] && [ "$rc" = 0 ] && result "export --help" "" ||
	result "export --help" "exit $rc: $out"
sbd unexport --help
[[ $out == "Usage: sbdctl unexport DEV"* ]] && [ "$rc" = 0 ] && result "unexport --help" "" ||
	result "unexport --help" "exit $rc: $out"
sbd export sbd0
expect "export without --host or --any-host: usage" 2 "" \
	"sbdctl: name the hosts that may connect (--host HOSTNQN), or allow any (--any-host) (see 'sbdctl export --help')"
sbd export sbd0 --host bad/nqn
expect "export --host with a bad NQN: usage" 2 "" \
	"sbdctl: invalid host NQN 'bad/nqn': 'nqn.' and up to 223 characters, no spaces, '/' or shell characters (see 'sbdctl export --help')"
sbd export sbd0 --any-host --port 70000
expect "export --port 70000: usage" 2 "" "sbdctl: invalid port '70000': 1 to 65535 (see 'sbdctl export --help')"
sbd export sbd0 --any-host --addr 'a b'
expect "export --addr with a space: usage" 2 "" \
	"sbdctl: invalid address 'a b': an IPv4 or IPv6 address (see 'sbdctl export --help')"
sbd export sbd0 --any-host --auth
expect "export --auth without --host: usage" 2 "" "sbdctl: --auth needs --host (see 'sbdctl export --help')"
sbd export sbd7 --host "$H1"
expect "export of no disk: exit 4" 4 "" "sbdctl: no such sbd disk: sbd7"
sbd unexport sbd0
expect "unexport of a disk not exported: exit 4" 4 "" "sbdctl: /dev/sbd0 is not exported"

# The whole setup, in nvmet's order, and the commands to run.
FAKE_LOG=$TMP/log ksbd export sbd0 --host "$H1" --addr 10.0.0.1 --port 4421
expect "export: exit 0, the nvme commands" 0 "/dev/sbd0 exported as $NQN on tcp 10.0.0.1:4421
nvme discover -t tcp -a 10.0.0.1 -s 4421 --hostnqn $H1
nvme connect -t tcp -a 10.0.0.1 -s 4421 -n $NQN --hostnqn $H1" ""
expect_log "export: host, subsystem, namespace, port, link, in that order" "$H1 mkdir-hosts
$NQN mkdir-subsystems
$NQN attr_allow_any_host=0
$NQN attr_serial=1b4e28ba2fa141d2883f
$NQN attr_model=sbd
$NQN link-allowed_hosts
1 mkdir-namespaces
1 device_path=/dev/sbd0
1 device_uuid=$U
1 device_nguid=$U
1 enable=1
1 mkdir-ports
1 addr_trtype=tcp
1 addr_adrfam=ipv4
1 addr_traddr=10.0.0.1
1 addr_trsvcid=4421
1 link-ports"
expect_ls "export: what it made is recorded" "$TMP/run/made" "host-$H1 port-1"
sbd export sbd0 --host "$H1" --addr 10.0.0.1 --port 4421
expect "export twice: exit 1, says so" 1 "" \
	"sbdctl: /dev/sbd0 is already exported as $NQN (sbdctl unexport first)"

# A second disk on the same address shares the port; unexport of the first
# keeps it for the second.
sysfs_disk 1 131072 512 4096 0 0 ""
U2=6ba7b810-9dad-41d1-80b4-00c04fd430c8
echo "$U2" >"$R/sys/block/sbd1/sbd/uuid"
ksbd export sbd1 --host "$H1" --host "$H2" --addr 10.0.0.1 --port 4421 --json
expect "export --json of a second disk: the port is shared" 0 \
	"{\"device\": \"/dev/sbd1\", \"nqn\": \"nqn.2014-08.org.nvmexpress:uuid:$U2\", \"transport\": \"tcp\", \"address\": \"10.0.0.1\", \"port\": 4421, \"port-id\": 1, \"any-host\": false, \"hosts\": [{\"nqn\": \"$H1\", \"secret\": null}, {\"nqn\": \"$H2\", \"secret\": null}], \"discover\": \"nvme discover -t tcp -a 10.0.0.1 -s 4421 --hostnqn $H1\", \"connect\": [\"nvme connect -t tcp -a 10.0.0.1 -s 4421 -n nqn.2014-08.org.nvmexpress:uuid:$U2 --hostnqn $H1\", \"nvme connect -t tcp -a 10.0.0.1 -s 4421 -n nqn.2014-08.org.nvmexpress:uuid:$U2 --hostnqn $H2\"]}" ""
expect_ls "two subsystems on port 1" "$NV/ports/1/subsystems" "$NQN nqn.2014-08.org.nvmexpress:uuid:$U2"
ksbd unexport sbd0
expect "unexport: exit 0, silent" 0 "" ""
expect_ls "unexport: the port stays for the other disk" "$NV/ports/1/subsystems" "nqn.2014-08.org.nvmexpress:uuid:$U2"
expect_ls "unexport: host 1 stays, the other disk allows it" "$NV/hosts" "$H1 $H2"
ksbd unexport /dev/sbd1
expect "unexport of the second: exit 0" 0 "" ""
nvmet_left "unexport of both: nothing left, in nvmet or /run"

# Entries sbdctl did not make are not removed.
mkdir -p "$NV/hosts/$H1"
ksbd export sbd0 --host "$H1"
ksbd unexport sbd0
expect_ls "a host entry someone else made stays" "$NV/hosts" "$H1"
rmdir "$NV/hosts/$H1"

# --any-host says so; the address defaults to this machine.
ksbd export sbd0 --any-host
expect "export --any-host: a warning, 127.0.0.1:4420, connect without --hostnqn" 0 \
	"/dev/sbd0 exported as $NQN on tcp 127.0.0.1:4420
nvme discover -t tcp -a 127.0.0.1 -s 4420
nvme connect -t tcp -a 127.0.0.1 -s 4420 -n $NQN" \
	"sbdctl: warning: any host that reaches 127.0.0.1:4420 can use /dev/sbd0 (--any-host)"
expect_files "--any-host: attr_allow_any_host" "$NV/subsystems/$NQN/attr_allow_any_host" "1"
ksbd remove sbd0
expect "remove of an exported module-parameter disk: still refused as such" 1 "" \
	"sbdctl: sbd0 was created by module parameters; only disks made by 'sbdctl create' can be changed"
ksbd unexport sbd0

# Each step failing leaves nothing behind.
for step in mkdir-hosts:13 mkdir-subsystems:12 attr_serial=1b4e28ba2fa141d2883f:22 \
	    link-allowed_hosts:1 mkdir-namespaces:12 device_path=/dev/sbd0:2 \
	    enable=1:5 mkdir-ports:12 addr_traddr=10.0.0.9:22 link-ports:98; do
	FAKE_FAIL=$step ksbd export sbd0 --host "$H1" --addr 10.0.0.9
	[ "$rc" = 1 ] && [ -n "$err" ] && [ -z "$out" ] &&
		result "export failing at ${step%%:*}: exit 1 with a message" "" ||
		result "export failing at ${step%%:*}: exit 1 with a message" "exit $rc, out '$out', err '$err'"
	nvmet_left "export failing at ${step%%:*}: nothing left"
done
FAKE_FAIL=link-ports:98 ksbd export sbd0 --host "$H1"
expect "a port whose address is in use: says so" 1 "" \
	"sbdctl: cannot serve on 127.0.0.1:4420: the address is in use"
mkdir -p "$NV/ports/7"
echo rdma >"$NV/ports/7/addr_trtype"; echo 127.0.0.1 >"$NV/ports/7/addr_traddr"; echo 4420 >"$NV/ports/7/addr_trsvcid"
ksbd export sbd0 --host "$H1"
expect "an address nvmet serves over another transport: refused" 1 "" \
	"sbdctl: 127.0.0.1:4420 is taken: nvmet port 7 serves it over 'rdma'"
rm -rf "$NV/ports/7"

# --auth: a secret per host where nvmet has authentication, else exit 3.
ksbd export sbd0 --host "$H1" --auth
expect "--auth without nvmet authentication: exit 3, says why" 3 "" \
	"sbdctl: --auth: this kernel's nvmet has no in-band authentication (CONFIG_NVME_TARGET_AUTH, Linux 6.7 on)"
nvmet_left "--auth refused: nothing left"
FAKE_NVMET_AUTH=1 ksbd export sbd0 --host "$H1" --auth
key=$(cat "$NV/hosts/$H1/dhchap_key" 2>/dev/null)
why=""
[ "$rc" = 0 ] || why="exit $rc: $err"
[[ $key =~ ^DHHC-1:00:[A-Za-z0-9+/]{48}:$ ]] || why+=" key '$key'"
grep -qxF -- "nvme connect -t tcp -a 127.0.0.1 -s 4420 -n $NQN --hostnqn $H1 --dhchap-secret $key" <<<"$out" ||
	why+=" no connect line with the secret: $out"
# the key's last 4 bytes are the CRC-32 of the first 32, as nvme-cli checks
python3 -c 'import base64,sys,zlib; b=base64.b64decode(sys.argv[1].split(":")[2]); sys.exit(zlib.crc32(b[:32]).to_bytes(4,"little")!=b[32:])' "$key" ||
	why+=" bad CRC in $key"
result "--auth: a DHHC-1 secret with its CRC, in nvmet and in the connect command" "$why"
ksbd unexport sbd0
nvmet_left "unexport after --auth: nothing left"

# No nvmet: modprobe is tried, and its failure is exit 3.
rm -rf "$NV" "$R/sys/module/nvmet_tcp"
SBDCTL_MODPROBE=false ksbd export sbd0 --host "$H1"
expect "no nvmet-tcp: exit 3, says what is missing" 3 "" \
	"sbdctl: cannot load nvmet-tcp (modprobe nvmet-tcp failed): this kernel has no NVMe/TCP target (CONFIG_NVME_TARGET_TCP)"
nvmet_fresh

# remove of an exported runtime disk: refused, --force unexports first.
item gamma 67108864 512 4096 0 sbd0
echo "$U" >"$CFS/gamma/uuid"
ksbd export gamma --host "$H1"
ksbd remove gamma
expect "remove of an exported disk: refused, exit 1" 1 "" \
	"sbdctl: gamma is exported as $NQN: sbdctl unexport it first, or remove --force"
ksbd unexport gamma
ksbd export gamma --host "$H1"
echo 0 >"$CFS/gamma/power"; echo >"$CFS/gamma/device"
ksbd export gamma --host "$H1"
expect "export of a powered-off disk: refused" 1 "" "sbdctl: gamma is powered off: there is nothing to serve"
ksbd unexport gamma
expect "unexport of a powered-off disk: by its item's uuid" 0 "" ""
nvmet_left "unexport of a powered-off disk: nothing left"
echo 1 >"$CFS/gamma/power"; echo sbd0 >"$CFS/gamma/device"
ksbd export gamma --host "$H1"
ksbd remove --force gamma
expect "remove --force: unexported, then removed" 0 "" ""
nvmet_left "remove --force: nothing left in nvmet"
unset SBDCTL_NVMET SBDCTL_RUN

# ---- show, set, power, cut, fail (knobs.c), with the fake kernel ---------
# The fake items have every attribute of the driver, in its order (uuid
# too); a test writes sysfs counters where I/O would change them.
KNOBS=size,queue_mode,uuid,logical_block_size,physical_block_size,hw_queues,queue_depth,poll_queues,partitions,discard,read_only,cache,ignore_flush,power_cut,power_cut_keep,power_cut_versions,seed,errors,latency_us,latency_jitter_us,bandwidth_mbps,log_limit,log_full_fail,snapshot,restore,mark,crash_image,crash_mark,power,device,features,log
fresh
sysfs_disk 0 131072 512 4096 0 0 "" bio 0
echo 5 >"$R/sys/block/sbd0/sbd/reads"
export FAKE_FEATURES=$KNOBS
rm -f "$TMP/log"
ksbd create --size 1M --name k
expect "knobs: a disk with every attribute" 0 /dev/sbd1 ""
rm -f "$TMP/log"
# The parts of show's text: attributes (then errors), counters.
K_UUID=5f0c7c1e-8c43-4f5e-9a0a-2b1f3c4d5e6f
show_attrs() {	# show_attrs POWER KEEP SEED LATENCY BANDWIDTH
	printf '%s\n' \
"size                1048576" \
"queue_mode          bio" \
"uuid                $K_UUID" \
"logical_block_size  512" \
"physical_block_size 4096" \
"hw_queues           2" \
"queue_depth         128" \
"poll_queues         0" \
"partitions          15" \
"discard             1" \
"read_only           0" \
"cache               0" \
"ignore_flush        0" \
"power_cut           0" \
"power_cut_keep      $2" \
"power_cut_versions  0" \
"seed                $3" \
"latency_us          $4" \
"latency_jitter_us   0" \
"bandwidth_mbps      $5" \
"log_limit           0" \
"log_full_fail       0" \
"power               $1"
}
# The counters of a disk that has done nothing, as show prints them.
ZERO_COUNTERS="sbd/nr_pages        0
sbd/mem_bytes       0
sbd/snapshot_pages  0
sbd/restore_pages   0
sbd/reads           0
sbd/writes          0
sbd/flushes         0
sbd/discards        0
sbd/write_zeroes    0
sbd/fua_writes      0
sbd/errors_injected 0
sbd/polled          0
sbd/volatile_blocks 0
sbd/power_cuts      0
sbd/lost_blocks     0"
K_COUNTERS="sbd/queue_mode      bio
sbd/uuid            $K_UUID
sbd/poll_queues     0
$ZERO_COUNTERS"
SHOW_K="device              /dev/sbd1
name                k
$(show_attrs 1 0 0 0 0)
errors              -
$K_COUNTERS"
for dev in k sbd1 /dev/sbd1; do
	sbd show $dev
	expect "show $dev: every attribute, no rule, the counters; aligned" 0 "$SHOW_K" ""
done
sbd show k --json
K_JSON="{\"device\": \"/dev/sbd1\", \"name\": \"k\", \"attributes\": {\"size\": 1048576, \"queue_mode\": \"bio\", \"uuid\": \"$K_UUID\", \"logical_block_size\": 512, \"physical_block_size\": 4096, \"hw_queues\": 2, \"queue_depth\": 128, \"poll_queues\": 0, \"partitions\": 15, \"discard\": 1, \"read_only\": 0, \"cache\": 0, \"ignore_flush\": 0, \"power_cut\": 0, \"power_cut_keep\": 0, \"power_cut_versions\": 0, \"seed\": 0, \"latency_us\": 0, \"latency_jitter_us\": 0, \"bandwidth_mbps\": 0, \"log_limit\": 0, \"log_full_fail\": 0, \"power\": 1}, \"errors\": [], \"counters\": {\"queue_mode\": \"bio\", \"uuid\": \"$K_UUID\", \"poll_queues\": 0, \"nr_pages\": 0, \"mem_bytes\": 0, \"snapshot_pages\": 0, \"restore_pages\": 0, \"reads\": 0, \"writes\": 0, \"flushes\": 0, \"discards\": 0, \"write_zeroes\": 0, \"fua_writes\": 0, \"errors_injected\": 0, \"polled\": 0, \"volatile_blocks\": 0, \"power_cuts\": 0, \"lost_blocks\": 0}}"
expect "show --json: numbers as numbers, the rest strings" 0 "$K_JSON" ""
sbd show -J /dev/sbd1
expect "show -J /dev/sbd1: the same" 0 "$K_JSON" ""
expect_jq "show --json" '[.device, .name, .attributes.size, .attributes.uuid, .attributes.power, ([.attributes | has("features", "device", "errors", "snapshot", "log")] | any), .errors, .counters.reads, .counters.queue_mode]' \
	"[\"/dev/sbd1\",\"k\",1048576,\"$K_UUID\",1,false,[],0,\"bio\"]"
sbd show sbd0
expect "show of a module-parameter disk: its sysfs side only" 0 \
"device          /dev/sbd0
name            -
sbd/queue_mode  bio
sbd/poll_queues 0
sbd/mem_bytes   0
sbd/reads       5" ""
sbd show /dev/sbd0 --json
expect "show --json of a module-parameter disk: name null, no attributes" 0 \
	'{"device": "/dev/sbd0", "name": null, "attributes": {}, "errors": [], "counters": {"queue_mode": "bio", "poll_queues": 0, "mem_bytes": 0, "reads": 5}}' ""
expect_log "show writes nothing" ""
# set: in the order given, silent; the old values back if one is refused.
ksbd set k latency_us=100 bandwidth_mbps=50 seed=42
expect "set: three attributes, silent" 0 "" ""
expect_log "... written in the order given" "k latency_us=100
k bandwidth_mbps=50
k seed=42"
expect_files "... stored" "$CFS/k/latency_us $CFS/k/bandwidth_mbps $CFS/k/seed" "100
50
42"
ksbd set k latency_us=7 ignore_flush=1 cache=1
expect "set: cache while powered refused by the kernel, exit 1" 1 "" \
	"sbdctl: cache=1: Device or resource busy (nothing changed)"
expect_log "... those set before it put back, last first" "k latency_us=7
k ignore_flush=1
k cache=1
k ignore_flush=0
k latency_us=100"
expect_files "... every value as it was" "$CFS/k/latency_us $CFS/k/ignore_flush $CFS/k/cache" "100
0
0"
ksbd set k power_cut_keep=50 latency_us=10000001
expect "set: a value out of the driver's range, exit 1" 1 "" \
	"sbdctl: latency_us=10000001: Invalid argument (nothing changed)"
expect_files "... power_cut_keep put back" "$CFS/k/power_cut_keep $CFS/k/latency_us" "0
100"
rm -f "$TMP/log"
ksbd set k seed=x
expect "set: the first refused, nothing to put back" 1 "" "sbdctl: seed=x: Invalid argument (nothing changed)"
expect_log "... one write" "k seed=x"
expect_files "... seed as it was" "$CFS/k/seed" 42
FAKE_FAIL=latency_us=100:5 ksbd set k latency_us=9 cache=1
expect "set: an undo the kernel refuses is reported, not 'nothing changed'" 1 "" \
	"sbdctl: cache=1: Device or resource busy
sbdctl: could not put latency_us back to 100: Input/output error"
ksbd set k latency_us=100
rm -f "$TMP/log"
ksbd set k latency_us=1 frob=1
expect "set: an attribute the module lacks, exit 2, named" 2 "" \
	"sbdctl: unknown attribute 'frob': the loaded sbd module has no such one (see 'sbdctl set --help')"
expect_log "... nothing written" ""
for a in "power:sbdctl power DEV on|off" "power_cut:sbdctl cut DEV, then sbdctl power DEV on" \
	 "errors:sbdctl fail DEV RULE... (--clear, --list)" "snapshot:sbdctl snapshot DEV" \
	 "restore:sbdctl restore DEV" "mark:sbdctl mark DEV LABEL" \
	 "crash_image:sbdctl crash-image DEV --epoch E --state K"; do
	ksbd set k latency_us=1 "${a%%:*}=1"
	expect "set ${a%%:*}: exit 2, says which command" 2 "" \
		"sbdctl: ${a%%:*} has a command of its own: use '${a#*:}' (see 'sbdctl set --help')"
done
for a in crash_mark:show device:show features:show log:log; do
	ksbd set k "${a%%:*}=1"
	expect "set ${a%%:*}: read-only, exit 2" 2 "" \
		"sbdctl: ${a%%:*} is read-only ('sbdctl ${a#*:} DEV' shows it) (see 'sbdctl set --help')"
done
expect_log "... nothing written by any" ""
sbd set k power=1
expect "set power=1 without a module lookup: still exit 2" 2 "" \
	"sbdctl: power has a command of its own: use 'sbdctl power DEV on|off' (see 'sbdctl set --help')"
sbd set
expect "set: no arguments" 2 "" "sbdctl: missing DEV and ATTR=VALUE (see 'sbdctl set --help')"
sbd set k
expect "set: no ATTR=VALUE" 2 "" "sbdctl: missing ATTR=VALUE (see 'sbdctl set --help')"
sbd set k latency_us
expect "set: no '='" 2 "" "sbdctl: invalid argument 'latency_us': use ATTR=VALUE (see 'sbdctl set --help')"
for a in ../k/size Size "" "a b"; do
	sbd set k "$a=1"
	expect "set: invalid attribute name '$a'" 2 "" \
		"sbdctl: invalid attribute name '$a' (see 'sbdctl set --help')"
done
sbd set k "latency_us=1
2"
expect "set: a value of two lines" 2 "" \
	"sbdctl: invalid value for latency_us: at most 255 characters, one line (see 'sbdctl set --help')"
ksbd set sbd0 latency_us=1
expect "set on a module-parameter disk: refused, exit 1" 1 "" "sbdctl: sbd0 $PARAM"
ksbd set nosuch latency_us=1
expect "set on no disk: exit 4" 4 "" "sbdctl: no such sbd disk: nosuch"
ksbd set /dev/sbd7 latency_us=1
expect "set on no device: exit 4" 4 "" "sbdctl: no such sbd disk: /dev/sbd7"
expect_log "... nothing written" ""

# power: off, on (prints the device), on again (nothing to write).
ksbd power k off
expect "power off: silent" 0 "" ""
expect_log "... power=0" "k power=0"
expect_files "... the item off" "$CFS/k/power $CFS/k/device" "0
"
expect_ls "... its disk gone" "$R/sys/block" "sbd0"
sbd show k
expect "show of a powered-off disk: device -, no counters" 0 "device              -
name                k
$(show_attrs 0 0 42 100 50)
errors              -" ""
sbd show k --json
pat='"attributes": {*}, "errors"' rep='"attributes": {...}, "errors"'
got=${out/$pat/$rep}
expect_eq "show --json of a powered-off disk: device null, counters {}" "$got" \
	'{"device": null, "name": "k", "attributes": {...}, "errors": [], "counters": {}}'
ksbd set k queue_mode=mq hw_queues=4 cache=1 uuid=01234567-89ab-cdef-0123-456789ABCDEF
expect "set while off: queue_mode before hw_queues, cache, uuid" 0 "" ""
expect_files "... stored" "$CFS/k/queue_mode $CFS/k/hw_queues $CFS/k/cache" "mq
4
1"
ksbd set k queue_mode=bio hw_queues=2
expect "set: hw_queues after queue_mode=bio, refused as the driver does" 1 "" \
	"sbdctl: hw_queues=2: Invalid argument (nothing changed)"
rm -f "$TMP/log"
ksbd set k hw_queues=2 queue_mode=bio uuid=nope
expect "set: a bad uuid after a mode change, exit 1" 1 "" "sbdctl: uuid=nope: Invalid argument (nothing changed)"
expect_log "... the mode put back before the queues" "k hw_queues=2
k queue_mode=bio
k uuid=nope
k queue_mode=mq
k hw_queues=4"
expect_files "... the mode, queues and uuid as they were" "$CFS/k/queue_mode $CFS/k/hw_queues $CFS/k/uuid" "mq
4
01234567-89ab-cdef-0123-456789ABCDEF"
ksbd set k queue_mode=bio
rm -f "$TMP/log"
ksbd power k on
expect "power on: prints the device" 0 /dev/sbd1 ""
expect_log "... power=1" "k power=1"
ksbd power /dev/sbd1 on
expect "power on of a powered disk: prints it, writes nothing" 0 /dev/sbd1 ""
expect_log "... no write" ""
FAKE_FAIL=power=0:16 ksbd power k off
expect "power off refused: exit 1, says why" 1 "" "sbdctl: power=0: Device or resource busy (is it in use?)"
expect_ls "... the disk stays" "$R/sys/block" "sbd0 sbd1"
sbd power k
expect "power: no state" 2 "" "sbdctl: missing on|off (see 'sbdctl power --help')"
sbd power
expect "power: no arguments" 2 "" "sbdctl: missing DEV and on|off (see 'sbdctl power --help')"
sbd power k On
expect "power: a bad state" 2 "" "sbdctl: invalid state 'On': use on or off (see 'sbdctl power --help')"
sbd power k on now
expect "power: an extra argument" 2 "" "sbdctl: unexpected argument 'now' (see 'sbdctl power --help')"
ksbd power sbd0 off
expect "power of a module-parameter disk: refused, exit 1" 1 "" "sbdctl: sbd0 $PARAM"
ksbd power nosuch on
expect "power of no disk: exit 4" 4 "" "sbdctl: no such sbd disk: nosuch"
expect_files "the module-parameter disk is untouched" "$R/sys/block/sbd0/size" 131072

# cut: the options' attributes, then power_cut=1; what was lost.
rm -f "$TMP/log"
echo 10 >"$R/sys/block/sbd1/sbd/volatile_blocks"
ksbd cut k --keep 30 --seed 7 --versions
expect "cut --keep 30: lost 7 of 10 volatile blocks" 0 "/dev/sbd1: power cut: 7 of 10 volatile blocks lost" ""
expect_log "... keep, seed, versions, then power_cut=1" "k power_cut_keep=30
k seed=7
k power_cut_versions=1
k power_cut=1"
expect_files "... the cut in configfs and sysfs" \
	"$CFS/k/power_cut $R/sys/block/sbd1/sbd/power_cuts $R/sys/block/sbd1/sbd/lost_blocks $R/sys/block/sbd1/sbd/volatile_blocks" "1
1
7
0"
ksbd cut /dev/sbd1
expect "cut of a disk already cut: refused, exit 1" 1 "" \
	"sbdctl: the power of /dev/sbd1 is cut already ('sbdctl power /dev/sbd1 on' gives it back)"
expect_log "... nothing written" ""
ksbd power k on
expect "power on after a cut: prints the device" 0 /dev/sbd1 ""
expect_log "... power_cut=0 only: the disk stayed powered" "k power_cut=0"
echo 4 >"$R/sys/block/sbd1/sbd/volatile_blocks"
ksbd cut k
expect "cut without options: the disk's keep (30) stays" 0 "/dev/sbd1: power cut: 3 of 4 volatile blocks lost" ""
expect_log "... power_cut=1 only" "k power_cut=1"
ksbd power k off
expect_files "power off ends the cut" "$CFS/k/power_cut" 0
ksbd cut k
expect "cut of a powered-off disk: refused, exit 1" 1 "" "sbdctl: k is powered off: there is no power to cut"
ksbd power k on >/dev/null
rm -f "$TMP/log"
ksbd set k power_cut_keep=0
FAKE_FAIL=power_cut=1:22 ksbd cut k
expect "cut the kernel refuses: exit 1, names it" 1 "" "sbdctl: power_cut=1: Invalid argument"
expect_files "... not cut" "$CFS/k/power_cut" 0
ksbd cut k
expect "cut of a disk without a write cache: as the kernel says, nothing volatile" 0 \
	"/dev/sbd1: power cut: 0 of 0 volatile blocks lost" ""
ksbd power k on >/dev/null
for v in 101 -1 x 1.5 ""; do
	sbd cut k --keep "$v"
	expect "cut --keep '$v': exit 2" 2 "" "sbdctl: invalid --keep '$v': a percentage, 0 to 100 (see 'sbdctl cut --help')"
done
sbd cut k --seed 18446744073709551616
expect "cut --seed past 64 bits: exit 2" 2 "" \
	"sbdctl: invalid --seed '18446744073709551616': 0 to 2^64-1 (see 'sbdctl cut --help')"
sbd cut
expect "cut: no DEV" 2 "" "sbdctl: missing DEV (see 'sbdctl cut --help')"
sbd cut k l
expect "cut: an extra argument" 2 "" "sbdctl: unexpected argument 'l' (see 'sbdctl cut --help')"
sbd cut k -v
expect "cut: --versions has no short option" 2 "" "sbdctl: option '-v' is unknown (see 'sbdctl cut --help')"
ksbd cut sbd0
expect "cut of a module-parameter disk: refused, exit 1" 1 "" "sbdctl: sbd0 $PARAM"
ksbd cut sbd9
expect "cut of no disk: exit 4" 4 "" "sbdctl: no such sbd disk: sbd9"
expect_log "... nothing written by any" "k power_cut_keep=0
k power_cut=1
k power_cut=1
k power_cut=0"

# fail: one write of errors per rule; --clear first, --list last.
ksbd fail k "op=write sector=0-7 next=1"
expect "fail RULE: silent" 0 "" ""
expect_log "... one write" "k errors=op=write sector=0-7 next=1"
ksbd fail k error=medium "op=flush,read every=2" --list
expect "fail RULE RULE --list: added, then all listed" 0 \
"0 op=write sector=0-7 next=1 error=ioerr hits=0
1 op=any always error=medium hits=0
2 op=read,flush every=2 error=ioerr hits=0" ""
ksbd fail k garbage
expect "fail: a rule the kernel refuses, exit 1, names it" 1 "" "sbdctl: rule 'garbage': Invalid argument"
ksbd fail k "op=read" "sector=9-1"
expect "fail: the second rule refused, says the first was added" 1 "" \
	"sbdctl: rule 'sector=9-1': Invalid argument (the rules before it were added)"
ksbd fail k --list
expect "fail --list: the rules the kernel took" 0 \
"0 op=write sector=0-7 next=1 error=ioerr hits=0
1 op=any always error=medium hits=0
2 op=read,flush every=2 error=ioerr hits=0
3 op=read always error=ioerr hits=0" ""
sbd show k
got=$(grep '^errors' <<<"$out")
expect_eq "show: one errors line per rule" "$got" \
"errors              0 op=write sector=0-7 next=1 error=ioerr hits=0
errors              1 op=any always error=medium hits=0
errors              2 op=read,flush every=2 error=ioerr hits=0
errors              3 op=read always error=ioerr hits=0"
sbd show k --json
got=$(grep -o '"errors": \[[^]]*\]' <<<"$out")
expect_eq "show --json: the rules as strings" "$got" \
	'"errors": ["0 op=write sector=0-7 next=1 error=ioerr hits=0", "1 op=any always error=medium hits=0", "2 op=read,flush every=2 error=ioerr hits=0", "3 op=read always error=ioerr hits=0"]'
rm -f "$TMP/log"
ksbd fail k --clear "op=discard prob=50 error=nospc" -l
expect "fail --clear RULE -l: cleared first, listed last" 0 "0 op=discard prob=50 error=nospc hits=0" ""
expect_log "... clear, then the rule" "k errors=clear
k errors=op=discard prob=50 error=nospc"
ksbd fail k -c
expect "fail -c: silent" 0 "" ""
ksbd fail k --list
expect "fail --list without rules: nothing" 0 "" ""
expect_files "... errors empty" "$CFS/k/errors" ""
rules=()
for i in $(seq 0 16); do rules+=("sector=$i-$i"); done
ksbd fail k "${rules[@]}"
expect "fail: a 17th rule, the kernel's limit, exit 1" 1 "" \
	"sbdctl: rule 'sector=16-16': No space left on device (the rules before it were added)"
ksbd fail k --clear
sbd fail k
expect "fail: nothing to do" 2 "" "sbdctl: missing RULE, --clear or --list (see 'sbdctl fail --help')"
sbd fail
expect "fail: no DEV" 2 "" "sbdctl: missing DEV (see 'sbdctl fail --help')"
for r in "" " "; do
	sbd fail k "$r"
	expect "fail: the empty rule '$r' (it would fail every request)" 2 "" "sbdctl: empty rule (see 'sbdctl fail --help')"
done
sbd fail k clear
expect "fail: 'clear' is --clear" 2 "" "sbdctl: 'clear' is not a rule: use --clear (see 'sbdctl fail --help')"
sbd fail k "op=read
op=write"
expect "fail: a rule of two lines" 2 "" "sbdctl: invalid rule 'op=read
op=write': at most 255 characters, one line (see 'sbdctl fail --help')"
ksbd fail sbd0 --list
expect "fail of a module-parameter disk: refused, exit 1" 1 "" "sbdctl: sbd0 $PARAM"
ksbd fail nosuch op=read
expect "fail of no disk: exit 4" 4 "" "sbdctl: no such sbd disk: nosuch"

# A module without the knobs: each command says what it lacks.
FAKE_FEATURES=size,power,device,features ksbd create --size 1M --name bare
expect "knobs: a disk of an older module" 0 /dev/sbd2 ""
ksbd cut bare
expect "cut on a module without power_cut: exit 1" 1 "" \
	"sbdctl: the loaded sbd module has no power cuts (no power_cut attribute)"
FAKE_FEATURES=size,power_cut,power,device,features ksbd create --size 1M --name bare2
ksbd cut bare2 --seed 3
expect "cut --seed on a module without seed: exit 1" 1 "" \
	"sbdctl: --seed is not supported by the loaded sbd module (no seed attribute)"
ksbd fail bare --list
expect "fail on a module without errors: exit 1" 1 "" \
	"sbdctl: the loaded sbd module has no error injection (no errors attribute)"
ksbd set bare cache=1
expect "set of an attribute the module lacks: exit 2" 2 "" \
	"sbdctl: unknown attribute 'cache': the loaded sbd module has no such one (see 'sbdctl set --help')"
sbd show bare
expect "show on an older module: what it has" 0 "device              /dev/sbd2
name                bare
size                1048576
power               1
$ZERO_COUNTERS" ""

# --help of each, the summary, and no module.
for c in "show DEV [--json]" "set DEV ATTR=VALUE..." "power DEV on|off" \
	 "cut DEV [--keep PCT] [--seed N] [--versions]" \
	 "fail DEV [--clear] [RULE...] [--list]"; do
	sbd "${c%% *}" --help
	got="$rc $(head -n 1 <<<"$out") $err"
	expect_eq "${c%% *} --help: 'Usage: sbdctl $c', exit 0" "$got" "0 Usage: sbdctl $c "
	why=""
	# "  COMMAND ARGS", alone or followed by what it does
	awk -v c="  $c" '$0 == c || index($0, c " ") == 1 { f = 1 } END { exit !f }' <<<"$help" ||
		why="no line '  $c' in sbdctl --help"
	result "sbdctl --help lists ${c%% *}" "$why"
done
sbd show --frob
expect "show: an unknown option" 2 "" "sbdctl: option '--frob' is unknown (see 'sbdctl show --help')"
sbd show
expect "show: no DEV" 2 "" "sbdctl: missing DEV (see 'sbdctl show --help')"
sbd show k k
expect "show: two DEVs" 2 "" "sbdctl: unexpected argument 'k' (see 'sbdctl show --help')"
sbd show nosuch
expect "show of no disk: exit 4" 4 "" "sbdctl: no such sbd disk: nosuch"
sbd show /dev/sbd1p1
expect "show of a partition: exit 4" 4 "" "sbdctl: /dev/sbd1p1 is a partition, not a disk (sbd1 is the disk)"
rmdir "$R/sys/module/sbd"
for args in "show k" "set k latency_us=1" "power k on" "cut k" "fail k --list"; do
	# shellcheck disable=SC2086
	ksbd $args
	expect "no module: $args exits 3" 3 "" "$NOMOD"
done
mkdir "$R/sys/module/sbd"
mv "$CFS" "$TMP/saved"
ksbd show k
expect "no configfs: show NAME exits 3" 3 "" "$NOCFS"
ksbd show sbd0
expect "no configfs: show of a module-parameter disk still works" 0 \
"device          /dev/sbd0
name            -
sbd/queue_mode  bio
sbd/poll_queues 0
sbd/mem_bytes   0
sbd/reads       5" ""
mv "$TMP/saved" "$CFS"
unset FAKE_FEATURES

# ---- apply (apply.c), with the fake kernel ------------------------------
# conf LINES...: $TMP/disks.conf holds LINES, one a line.
conf() {
	printf '%s\n' "$@" >"$TMP/disks.conf"
}
# The probe item apply makes to read the features has apply's pid in its
# name: the log shows it as PROBE.
expect_apply_log() {
	sed -i 's/^sbdctl-apply-[0-9]* /PROBE /' "$TMP/log" 2>/dev/null
	expect_log "$@"
}
fresh
export FAKE_FEATURES=$KNOBS FAKE_LOG=$TMP/log
rm -f "$TMP/log"
conf "# two scratch disks" "[a]" "size = 1M" "logical_block_size = 4K" \
	"cache = 1" "" "[b]" "  size=2M  " "queue_mode = mq" "latency_us = 100"
ksbd apply "$TMP/disks.conf"
expect "apply: both disks made, one line each" 0 "a: created /dev/sbd0
b: created /dev/sbd1" ""
expect_apply_log "... no disk yet: the features read from a probe item; then create's order, power last" "PROBE mkdir
PROBE rmdir
a mkdir
a logical_block_size=4096
a size=1048576
a cache=1
a power=1
b mkdir
b size=2097152
b queue_mode=mq
b latency_us=100
b power=1"
ksbd apply "$TMP/disks.conf"
expect "apply again: both unchanged" 0 "a: unchanged /dev/sbd0
b: unchanged /dev/sbd1" ""
expect_apply_log "... and nothing written" ""
conf "[a]" "size = 2M" "logical_block_size = 4096" "cache = 1" \
	"[b]" "size = 2M" "queue_mode = mq" "latency_us = 5"
ksbd apply -n "$TMP/disks.conf"
expect "apply --dry-run: what would be set" 0 "a: would set size=2097152
b: would set latency_us=5" ""
expect_apply_log "... and nothing written" ""
ksbd apply "$TMP/disks.conf"
expect "apply: a grown online, b's latency set" 0 "a: set size=2097152 /dev/sbd0
b: set latency_us=5 /dev/sbd1" ""
expect_apply_log "... only what differs written" "a size=2097152
b latency_us=5"
conf "[a]" "size = 1M" "[b]" "size = 2M" "latency_us = 7"
ksbd apply "$TMP/disks.conf"
expect "apply: a shrink is refused, exit 1; b still applied" 1 \
	"b: set latency_us=7 /dev/sbd1" \
	"sbdctl: a: size 1048576 is below the disk's 2097152: a shrink loses data (--allow-shrink to do it)"
expect_apply_log "... a untouched" "b latency_us=7"
ksbd apply --allow-shrink "$TMP/disks.conf"
expect "apply --allow-shrink: a shrunk" 0 "a: set size=1048576 /dev/sbd0
b: unchanged /dev/sbd1" ""
expect_apply_log "... a's size written" "a size=1048576"
conf "[b]" "size = 2M" "latency_us = 9" "queue_mode = bio"
ksbd apply "$TMP/disks.conf"
expect "apply: the kernel refuses a change while powered, exit 1" 1 "" \
	"sbdctl: b: line 4: queue_mode=bio: Device or resource busy (it cannot change while the disk is powered on)"
expect_apply_log "... what was set before it put back" "b latency_us=9
b queue_mode=bio
b latency_us=7"
expect_files "... b as it was" "$CFS/b/latency_us $CFS/b/queue_mode" "7
mq"
LD_PRELOAD=$FAKE "$SBDCTL" power b off
rm -f "$TMP/log"
conf "[b]" "size = 2M" "latency_us = 7"
ksbd apply - <"$TMP/disks.conf"
expect "apply - (stdin): a disk powered off is powered on" 0 "b: powered on /dev/sbd1" ""
expect_apply_log "... power=1 only" "b power=1"
conf "[c]" "size = 1M" "latency_us = 10" "[d]" "size = 1M"
FAKE_FAIL=latency_us=10:22 ksbd apply "$TMP/disks.conf"
expect "apply: a new disk the kernel refuses is not left; the next is made" 1 \
	"d: created /dev/sbd2" "sbdctl: c: line 3: latency_us=10: Invalid argument"
expect_apply_log "... c made, refused, removed" "c mkdir
c size=1048576
c latency_us=10
c rmdir
d mkdir
d size=1048576
d power=1"
expect_eq "... no c in configfs" "$(ls "$CFS")" "a
b
d"
# The stable names udev's 60-sbd.rules makes: list shows a link that leads
# to the disk, and every DEV argument takes it.
mkdir -p "$R/dev/sbd/by-name"
touch "$R/dev/sbd0" "$R/dev/sbd2"
ln -s ../../sbd0 "$R/dev/sbd/by-name/a"
ln -s ../../sbd2 "$R/dev/sbd/by-name/b"
SBDCTL_DEV=$R/dev sbd list --json
expect_jq "list --json: link of a, none for b (its link leads elsewhere) nor d" \
	'[.[] | [.name, .link]]' "[[\"a\",\"$R/dev/sbd/by-name/a\"],[\"b\",null],[\"d\",null]]"
SBDCTL_DEV=$R/dev sbd show "$R/dev/sbd/by-name/a" --json
expect_jq "show DEVDIR/sbd/by-name/a: the disk a" '[.name, .device]' "[\"a\",\"$R/dev/sbd0\"]"
SBDCTL_DEV=$R/dev sbd show "$R/dev/sbd/by-name/zz"
expect "show of a by-name link with no disk: exit 4" 4 "" "sbdctl: no such sbd disk: $R/dev/sbd/by-name/zz"
rm -rf "$R/dev"
# A malformed file changes nothing: every case is exit 2 with FILE:LINE.
bad_conf() {	# bad_conf WHAT MESSAGE LINES...
	local what=$1 msg=$2

	shift 2
	conf "$@"
	ksbd apply "$TMP/disks.conf"
	expect "apply refuses $what, exit 2" 2 "" "sbdctl: $TMP/disks.conf:$msg"
	expect_apply_log "... and changes nothing" ""
}
bad_conf "a setting before any section" "1: 'size = 1M' before any [NAME] section" "size = 1M"
bad_conf "an unclosed section" "2: invalid section '[e': use [NAME]" "# x" "[e"
bad_conf "a bad disk name" "1: invalid disk name 'sbd3': use 1 to 255 of A-Z a-z 0-9 . _ -, not starting with '.', not sbdN" "[sbd3]" "size = 1M"
bad_conf "a disk twice" "3: disk e described twice (first on line 1)" "[e]" "size = 1M" "[e]" "size = 1M"
bad_conf "an attribute twice" "3: size given twice for e (first on line 2)" "[e]" "size = 1M" "size = 2M"
bad_conf "a line without =" "2: invalid line 'size 1M': use ATTR = VALUE or [NAME]" "[e]" "size 1M"
bad_conf "a bad size" "2: invalid size '1Q' for size" "[e]" "size = 1Q"
bad_conf "an empty value" "3: cache has no value" "[e]" "size = 1M" "cache ="
bad_conf "a disk without a size" "1: disk e has no size" "[e]" "cache = 1"
bad_conf "a bad attribute name" "2: invalid attribute name 'Cache': use a-z 0-9 _ (the names of sbd(4))" "[e]" "Cache = 1" "size = 1M"
bad_conf "power" "3: power cannot be set here: it has a command of its own" "[e]" "size = 1M" "power = 1"
bad_conf "a read-only attribute" "2: device cannot be set here: it is read-only" "[e]" "device = sbd9" "size = 1M"
bad_conf "an attribute the module has not" "3: unknown attribute 'frob': the loaded sbd module has no such one" "[e]" "size = 1M" "frob = 1" "[a]" "size = 1M"
ksbd apply "$TMP/none.conf"
expect "apply: a missing file, exit 2" 2 "" "sbdctl: $TMP/none.conf: No such file or directory"
ksbd apply
expect "apply: no FILE, exit 2" 2 "" "sbdctl: missing FILE (see 'sbdctl apply --help')"
conf "[e]" "size = 1M"
rm -rf "$R/sys/module/sbd"
ksbd apply "$TMP/disks.conf"
expect "apply without the module: exit 3" 3 "" "sbdctl: sbd module is not loaded (modprobe sbd)"
unset FAKE_FEATURES FAKE_LOG

# ---- bash completion (sbdctl.bash-completion) ---------------------------
# comp WORDS...: what completing the last word of "sbdctl WORDS" offers,
# one line, sorted; the completion runs in a non-interactive bash.
comp() {
	PATH="$(dirname "$SBDCTL"):$PATH" SBDCTL_CONFIGFS=$CFS SBDCTL_DEV=$R/dev bash -c '
		. "$1"; shift
		COMP_WORDS=(sbdctl "$@"); COMP_CWORD=$#
		_sbdctl
		printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd " "' \
		comp "$(dirname "$0")/sbdctl.bash-completion" "$@"
}
fresh
mkdir -p "$CFS/alpha" "$CFS/beta" "$R/dev"
echo "size,cache,power,seed" >"$CFS/alpha/features"
touch "$R/dev/sbd0" "$R/dev/sbd0p1"
expect_eq "completion: commands" "$(comp cr)" "crash-image crash-test create"
expect_eq "completion: options from the command's --help" "$(comp crash-test --ke)" "--keep-failures"
expect_eq "completion: disks, names and devices" "$(comp show "")" "$R/dev/sbd0 alpha beta"
expect_eq "completion: power on|off" "$(comp power alpha "")" "off on"
expect_eq "completion: set offers the disk's attributes" "$(comp set alpha c)" "cache="
expect_eq "completion: --queue-mode values" "$(comp create --queue-mode "")" "bio mq"
expect_eq "completion: apply's options" "$(comp apply --)" "--allow-shrink --dry-run --help"
touch "$TMP/disks-a.conf" "$TMP/disks-b.conf"
expect_eq "completion: apply takes a file" "$(comp apply "$TMP/disks-")" "$TMP/disks-a.conf $TMP/disks-b.conf"
echo "1..$n"
[ "$failed" = 0 ] || echo "# $failed of $n failed"
[ "$failed" = 0 ]
