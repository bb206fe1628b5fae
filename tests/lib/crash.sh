# shellcheck shell=bash
# Crash-consistency trials on sbd's emulated write cache, shared by the
# tests cache/crash-*.sh (a few trials) and scripts/soak (hundreds).
# Sourced after common.sh and cache.sh.
#
# A trial: a new runtime disk with cache=1, power_cut_keep=$CRASH_KEEP and
# the trial's seed; mkfs, flushed; mount; the workload of crashfs.py (files
# fsynced, a file replaced atomically, files overwritten in place and not
# synced, files never synced); power cut; unmount (its I/O fails); power
# back; caches dropped; mount (journal replay); every fsynced file checked;
# unmount; fsck -n.  A "lying" trial does the same on a disk that starts
# ignoring flush and FUA after mkfs: the trial must be able to see that.

CRASH_KEEP=${SBD_CRASH_KEEP:-50}
CRASH_LOG=${SBD_CRASH_LOG:-/tmp/sbd-crash.log}
CRASHFS=$SBD_ROOT/tests/lib/crashfs.py

# crash_requires FS: skips unless FS can be made, mounted and checked here.
crash_requires() {
	require_features cache power_cut power_cut_keep seed ignore_flush
	case $1 in
	ext4)	require_cmd mkfs.ext4 e2fsck python3 ;;
	xfs)	require_cmd mkfs.xfs xfs_repair python3 ;;
	esac
	require_kmod "$1"
}

crash_size() {	# bytes: mkfs.xfs wants 300 MiB at least
	case $1 in
	xfs)	echo $((320 << 20)) ;;
	*)	echo $((64 << 20)) ;;
	esac
}

crash_mkfs() {	# crash_mkfs FS DEV
	case $1 in
	ext4)	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$2" ;;
	xfs)	mkfs.xfs -q -f "$2" ;;
	esac
}

crash_fsck() {	# crash_fsck FS DEV: succeeds when the file system is clean
	case $1 in
	ext4)	e2fsck -fn "$2" ;;
	xfs)	xfs_repair -n "$2" ;;
	esac
}

# What the page cache still holds of the disk goes: nothing written before
# the cut may reach the disk after power is back, and reads must come from
# the disk.
crash_drop_caches() {
	echo 3 >/proc/sys/vm/drop_caches
	blockdev --flushbufs "$1" 2>/dev/null || true
}

# kv KEY LINE: the value of KEY=value in LINE.
kv() {
	sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"
}

# crash_trial FS SEED honest|lying: one trial on a new disk named crash.
# Sets TRIAL to "fs=.. seed=.. mode=.. mounted=0|1 clean=0|1 intact=0|1
# over_lost=N over_torn=N unsynced_lost=N bad=.. volatile=N lost_blocks=N";
# its commands' output goes to $CRASH_LOG.  Fails the test only when
# something before the cut fails.
crash_trial() {
	local fs=$1 seed=$2 mode=$3 name=crash d mounted=0 clean=0 volatile lost
	local res="intact=0 over_lost=- over_torn=- unsynced_lost=- bad=no-mount"

	echo "=== $fs seed=$seed $mode" >>"$CRASH_LOG"
	mkdir "$SBD_CONFIGFS/$name"
	cfg_set $name size "$(crash_size "$fs")"
	cfg_set $name cache 1
	cfg_set $name seed "$seed"
	cfg_set $name power_cut_keep "$CRASH_KEEP"
	d=/dev/$(cfg_disk_on $name)
	crash_mkfs "$fs" "$d" >>"$CRASH_LOG" 2>&1 || fail "mkfs.$fs $d failed"
	[ "$(dio "$d" f)" = ok ] || fail "flush after mkfs failed"
	[ "$mode" = honest ] || cfg_set $name ignore_flush 1
	mkdir -p "$SBD_MNT"
	mount -t "$fs" "$d" "$SBD_MNT" >>"$CRASH_LOG" 2>&1 || fail "mount $d failed"
	python3 "$CRASHFS" write "$SBD_MNT" "$seed" >>"$CRASH_LOG" 2>&1 ||
		fail "the workload failed (see $CRASH_LOG)"
	volatile=$(sbd_stat "${d#/dev/}" volatile_blocks)

	cfg_set $name power_cut 1
	lost=$(sbd_stat "${d#/dev/}" lost_blocks)
	{
		timeout -k 5 60 umount "$SBD_MNT" || umount -l "$SBD_MNT" || true
		crash_drop_caches "$d"
	} >>"$CRASH_LOG" 2>&1
	cfg_set $name power_cut 0
	crash_drop_caches "$d"

	if mount -t "$fs" "$d" "$SBD_MNT" >>"$CRASH_LOG" 2>&1; then
		mounted=1
		res=$(python3 "$CRASHFS" verify "$SBD_MNT" "$seed" 2>>"$CRASH_LOG") ||
			res="intact=0 over_lost=- over_torn=- unsynced_lost=- bad=verify-failed"
		{ timeout -k 5 60 umount "$SBD_MNT" || umount -l "$SBD_MNT" || true; } >>"$CRASH_LOG" 2>&1
	fi
	if crash_fsck "$fs" "$d" >>"$CRASH_LOG" 2>&1; then
		clean=1
	fi
	rmdir "$SBD_CONFIGFS/$name"
	TRIAL="fs=$fs seed=$seed mode=$mode mounted=$mounted clean=$clean $res volatile=$volatile lost_blocks=$lost"
	echo "$TRIAL" >>"$CRASH_LOG"
}

# crash_run FS TRIALS LYING_TRIALS FIRST_SEED: TRIALS honest trials and
# LYING_TRIALS lying ones, seeds from FIRST_SEED on; prints each trial and
# sets CRASH_ROW to "FS TRIALS CLEAN INTACT LOST-IN-CONTROL LYING CAUGHT"
# and CRASH_BAD to the seeds of failed honest trials.
crash_run() {
	local fs=$1 n=$2 nl=$3 seed=$4 i clean=0 intact=0 lostctl=0 caught=0
	CRASH_BAD=
	for ((i = 0; i < n; i++)); do
		crash_trial "$fs" $((seed + i)) honest
		echo "$TRIAL"
		[ "$(kv clean "$TRIAL")" = 1 ] && clean=$((clean + 1))
		[ "$(kv intact "$TRIAL")" = 1 ] && intact=$((intact + 1))
		case $(kv over_lost "$TRIAL") in
		0|-) ;;
		*) lostctl=$((lostctl + 1)) ;;
		esac
		[ "$(kv clean "$TRIAL")$(kv intact "$TRIAL")" = 11 ] || CRASH_BAD+=" $((seed + i))"
	done
	for ((i = 0; i < nl; i++)); do
		crash_trial "$fs" $((seed + n + i)) lying
		echo "$TRIAL"
		[ "$(kv clean "$TRIAL")$(kv intact "$TRIAL")" = 11 ] || caught=$((caught + 1))
	done
	CRASH_ROW="$fs $n $clean $intact $lostctl $nl $caught"
}

crash_table_header() {
	printf '%-5s %7s %6s %7s %16s %6s %7s\n' fs trials clean intact lost-in-control lying caught
}

crash_table_row() {	# crash_table_row CRASH_ROW
	# shellcheck disable=SC2086
	printf '%-5s %7s %6s %7s %16s %6s %7s\n' $1
}

# crash_test FS TRIALS LYING_TRIALS FIRST_SEED: the guest test: every honest
# trial clean and intact, unsynced data lost in some, a lying disk caught.
crash_test() {
	local fs=$1 n lostctl nl caught
	: >"$CRASH_LOG"
	crash_run "$@"
	crash_table_header
	crash_table_row "$CRASH_ROW"
	read -r _ n _ _ lostctl nl caught <<<"$CRASH_ROW"
	if [ -n "$CRASH_BAD" ]; then
		tail -n 60 "$CRASH_LOG"
		fail "$fs: honest trials not clean or not intact, seeds:$CRASH_BAD"
	fi
	echo "ok: $fs: $n of $n honest trials clean, every fsynced file intact"
	[ "$lostctl" -gt 0 ] || fail "$fs: no trial lost unflushed data: the cut did nothing"
	echo "ok: $fs: acknowledged but unflushed data lost in $lostctl of $n trials"
	[ "$caught" -gt 0 ] || fail "$fs: none of $nl trials on a disk ignoring flushes failed the check"
	echo "ok: $fs: the lying disk caught in $caught of $nl trials"
}
