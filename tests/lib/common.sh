# shellcheck shell=bash
# Helpers shared by every sbd test.  A test file sets DESCRIPTION, may
# define requires() (calls skip when something is missing) and defines
# test_main().  Tests run as root inside a guest, one bash process each,
# with `set -euo pipefail`: any unexpected failure fails the test.

SBD_ROOT=${SBD_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SBD_KO=${SBD_KO:-$SBD_ROOT/build/${SBD_LINE:-6.1}/sbd.ko}
SBD_HELPERS=${SBD_HELPERS:-$SBD_ROOT/build/helpers}
SBD_MNT=/tmp/sbd-mnt

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# subtest ok|"not ok" NAME: a result of its own that tests/run reports
# after the test's line and counts with the tests (KUnit cases).
subtest() {
	[ -z "${SBD_SUBTESTS:-}" ] || echo "$1 $2" >>"$SBD_SUBTESTS"
}

# expect_eq WHAT ACTUAL EXPECTED
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
	echo "ok: $1 = $2"
}

# expect_range WHAT ACTUAL MIN MAX (integers, inclusive)
expect_range() {
	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
		fail "$1: got $2, expected $3..$4"
	echo "ok: $1 = $2 (within $3..$4)"
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || skip "needs the command $c"
	done
}

# Needs one of the small programs of tests/helpers, built on the host.
require_helper() {
	[ -x "$SBD_HELPERS/$1" ] || skip "needs $SBD_HELPERS/$1 (make -C tests/helpers)"
}

# Loads a module of the guest's kernel (ext4, vfat, brd...) from its tree.
require_kmod() {
	local m
	for m in "$@"; do
		modprobe -d "${SBD_MODDIR:-/}" "$m" 2>/dev/null ||
			modprobe "$m" 2>/dev/null ||
			skip "needs the kernel module $m"
	done
}

# sbd needs configfs (a module on Debian's kernels), mounted for runtime disks.
SBD_CONFIGFS=/sys/kernel/config/sbd
sbd_deps() {
	modprobe -d "${SBD_MODDIR:-/}" configfs 2>/dev/null || modprobe configfs 2>/dev/null || true
}

# The queue mode the suite runs in: SBD_QUEUE_MODE=bio|mq (scripts/check
# sets it per run; empty: the module's default, bio).  sbd_load passes it
# to every load that does not choose a mode itself, and runtime disks take
# the module's mode, so the whole suite runs in it.
SBD_QUEUE_MODE=${SBD_QUEUE_MODE:-}
sbd_mode() {
	echo "${SBD_QUEUE_MODE:-bio}"
}

sbd_load() {
	local mode=()
	sbd_deps
	if [ -n "$SBD_QUEUE_MODE" ] && [[ " $* " != *" queue_mode="* ]]; then
		mode=("queue_mode=$SBD_QUEUE_MODE")
	fi
	insmod "$SBD_KO" "$@" "${mode[@]}" || fail "insmod sbd $* ${mode[*]} failed"
	if ! mountpoint -q /sys/kernel/config; then
		mount -t configfs none /sys/kernel/config || fail "cannot mount configfs"
	fi
	echo "loaded sbd $* ${mode[*]}"
}

sbd_unload() {
	rmmod sbd || fail "rmmod sbd failed"
}

sysfs_q() {
	cat "/sys/block/$1/queue/$2"
}

# Kibibytes of free memory: MemFree from /proc/meminfo, plus the free pages
# parked on the per-CPU lists (/proc/zoneinfo "count:"), which MemFree
# leaves out and which otherwise make the figure jump by megabytes.
mem_free_kib() {
	local pcp
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 0.2
	pcp=$(awk '$1 == "count:" { n += $2 } END { print n + 0 }' /proc/zoneinfo)
	awk -v pcp="$pcp" '/^MemFree:/ { print $2 + pcp * 4 }' /proc/meminfo
}

# mem_gain_kib FREE0 MIN: KiB freed since mem_free_kib printed FREE0.  The
# figure also moves with whatever else the kernel allocates meanwhile (the
# debug kernel's checkers allocate a lot), so it is measured again, up to 5
# times a second apart, until it reaches MIN; prints the largest seen.
mem_gain_kib() {
	local best=-999999999 gain i
	for i in 1 2 3 4 5; do
		gain=$(($(mem_free_kib) - $1))
		[ "$gain" -le "$best" ] || best=$gain
		[ "$best" -lt "$2" ] || break
		sleep 1
	done
	echo "$best"
}

# A file of random data to write and compare: make_pattern FILE KIB
make_pattern() {
	head -c "$(($2 * 1024))" /dev/urandom >"$1"
}

# Reads BYTES at OFFSET of DEV and prints their sha256: dev_sum DEV OFFSET BYTES
dev_sum() {
	dd if="$1" iflag=skip_bytes,count_bytes,direct bs=64k skip="$2" \
		count="$3" status=none | sha256sum | cut -d' ' -f1
}

file_sum() {
	sha256sum <"$1" | cut -d' ' -f1
}

zeros_sum() {
	head -c "$1" /dev/zero | sha256sum | cut -d' ' -f1
}

mount_fs() {
	mkdir -p "$SBD_MNT"
	mount "$@" "$SBD_MNT"
}

# Runtime disks (configfs).  cfg_write NAME ATTR VALUE prints the error of
# the write ("Invalid argument", "Device or resource busy"...) or "ok".
cfg_write() {
	local err
	if err=$( { echo "$3" >"$SBD_CONFIGFS/$1/$2"; } 2>&1); then
		echo ok
	else
		echo "${err##*: }"	# bash: ...: write error: Invalid argument
	fi
}

# cfg_refused NAME ATTR VALUE ERROR [MESSAGE]: the write fails with ERROR,
# logs MESSAGE (a fixed string) and leaves the attribute as it was.
cfg_refused() {
	local before
	before=$(cfg_get "$1" "$2")
	dmesg -C
	expect_eq "$2=$3" "$(cfg_write "$1" "$2" "$3")" "$4"
	[ -z "${5:-}" ] || dmesg | grep -qF "$5" ||
		fail "$2=$3: no message '$5' in: $(dmesg | tail -n 3)"
	expect_eq "$2 after the refused write" "$(cfg_get "$1" "$2")" "$before"
}

# cfg_refused_wo NAME ATTR VALUE ERROR MESSAGE: cfg_refused for an
# attribute that cannot be read back (restore, mark, crash_image...).
cfg_refused_wo() {
	dmesg -C
	expect_eq "$2=$3" "$(cfg_write "$1" "$2" "$3")" "$4"
	dmesg | grep -qF "$5" || fail "$2=$3: no message '$5' in: $(dmesg | tail -n 3)"
}

# cfg_set NAME ATTR VALUE: the write must succeed.
cfg_set() {
	local r
	r=$(cfg_write "$@")
	[ "$r" = ok ] || fail "$1/$2 = $3: $r"
}

cfg_get() {
	cat "$SBD_CONFIGFS/$1/$2"
}

# cfg_disk NAME [ATTR=VALUE...]: makes a runtime disk with these attributes
# and powers it on; prints its block device name (sbdN).
cfg_disk() {
	local name=$1 kv
	shift
	mkdir "$SBD_CONFIGFS/$name" || fail "mkdir $SBD_CONFIGFS/$name"
	for kv in "$@"; do
		cfg_set "$name" "${kv%%=*}" "${kv#*=}"
	done
	cfg_disk_on "$name"
}

# The disk's sbd counters: stat sbdN nr_pages|mem_bytes|reads|...
sbd_stat() {
	cat "/sys/block/$1/sbd/$2"
}

# cfg_disk_on NAME: powers an existing runtime disk on; prints sbdN.
cfg_disk_on() {
	cfg_set "$1" power 1
	cfg_get "$1" device
}

# sbdctl, built on the host into build/sbdctl.
SBDCTL=${SBDCTL:-$SBD_ROOT/build/sbdctl/sbdctl}
require_sbdctl() {
	[ -x "$SBDCTL" ] || skip "needs $SBDCTL (make -C tools/sbdctl O=../../build/sbdctl)"
}

# sbdctl_rc EXPECTED_RC ARGS...: runs sbdctl, checks its exit code, prints
# its stdout and stderr.
sbdctl_rc() {
	local want=$1 rc=0 out
	shift
	out=$("$SBDCTL" "$@" 2>&1) || rc=$?
	[ "$rc" = "$want" ] || fail "sbdctl $*: exit $rc, expected $want: $out"
	printf '%s\n' "$out"
}
