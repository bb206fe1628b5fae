DESCRIPTION="sbdctl crash-test finds real failures: ext4 with barriers passes every crash state of an fsync workload, ext4 -o barrier=0 and a disk that ignores flushes fail some; the summary and JSON agree, with --keep-failures a failing state and the workload's disk stay, and crash-image makes the state again; ^C, a failing workload and a full log leave nothing behind"

requires() {
	require_sbdctl
	require_features crash_image ignore_flush
	require_cmd mkfs.ext4 e2fsck python3
	require_kmod ext4
}

. "$SBD_ROOT/tests/lib/cache.sh" # require_features

# The workload: FILES files of 16 KiB, each written and fsynced, then a
# mark naming it: what the application was told is durable.
CT_RUN='set -e
m=$(mktemp -d)
mount -o "$CT_MOUNT" "$SBD_DEV" "$m"
for i in $(seq 1 "$CT_FILES"); do
	yes "file $i" | head -c 16384 | dd of="$m/f$i" bs=4k conv=fsync status=none
	"$SBDCTL" mark "$SBD_DISK" "$i"
done
umount "$m"
rmdir "$m"'

# The check: the journal replays on mount, fsck finds nothing, and every
# file up to the last mark before the crash is there, whole.  CT_FSCK: the
# fsck; CT_MOPT: mount options (xfs: nouuid, as every image has the same
# filesystem uuid and two checks may mount at once).
#
# file up to the last mark before the crash is there, whole.
CT_CHECK='m=$(mktemp -d)
trap "umount -q \"\$m\" 2>/dev/null; rmdir \"\$m\"" EXIT
mount -o "$CT_MOPT" "$SBD_DEV" "$m" || { echo "mount failed"; exit 1; }
umount "$m"
$CT_FSCK "$SBD_DEV" >/dev/null 2>&1 || { echo "$CT_FSCK found errors"; exit 1; }
mount -o "ro,$CT_MOPT" "$SBD_DEV" "$m" || exit 1
for i in $(seq 1 "${SBD_MARK:-0}"); do
	yes "file $i" | head -c 16384 | cmp -s - "$m/f$i" ||
		{ echo "f$i: fsynced, then missing or wrong"; exit 1; }
done'

# CRASHTEST_FULL=1 (make crashtest): more files, more seeded states, and
# xfs too.
if [ -n "${CRASHTEST_FULL:-}" ]; then
	CT_FILES=6 CT_MORE=4
else
	CT_FILES=2 CT_MORE=1
fi

# ct OUT MOUNT_OPTS [OPTIONS...]: crash-test of the workload on ext4 (16 MiB;
# CT_FS=xfs: xfs, 320 MiB), its JSON summary in OUT; its exit code on stdout.
ct() {
	local out=$1 mnt=$2 rc=0 size=16M mkfs fsck="e2fsck -fn" mopt=defaults
	shift 2
	mkfs='mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$SBD_DEV"'
	if [ "${CT_FS:-ext4}" = xfs ]; then
		size=320M mkfs='mkfs.xfs -q -f "$SBD_DEV"' fsck="xfs_repair -n"
		mopt=nouuid
	fi
	CT_MOUNT=$mnt CT_FILES=$CT_FILES CT_FSCK=$fsck CT_MOPT=$mopt SBDCTL=$SBDCTL \
		"$SBDCTL" crash-test --size $size --mkfs "$mkfs" \
		--run "$CT_RUN" --check "$CT_CHECK" --json "$@" >"$out" 2>"$out.err" || rc=$?
	echo "$rc"
}

# js FILE EXPR: a Python expression over the JSON summary j.
# summary FILE: one line of it for the log, and the first failures.
summary() {
	js "$1" '"%d states in %d epochs (writes %s), %d failed, %.1f s, %.2f states/s" % (j["states"], len(j["epochs"]), [e["writes"] for e in j["epochs"]], j["failed"], j["seconds"], j["states_per_second"])'
	js "$1" '"\n".join("failed %d:%d mark %s: %s" % (f["epoch"], f["state"], f["mark"], f["output"].strip()) for f in j["failures"][:3])'
}

js() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# no_disks: crash-test left no disk behind.
no_disks() {
	expect_eq "$1: disks left" "$(find "$SBD_CONFIGFS" -mindepth 1 -maxdepth 1 | wc -l)" 0
}

test_main() {
	local rc s

	sbd_load ndevices=0

	# Barriers on: every state passes.
	rc=$(ct /tmp/ct-ok barrier=1 --states $((2 * CT_MORE)) --seed 5 --jobs 2)
	cat /tmp/ct-ok.err
	echo "ext4 barrier=1: $(summary /tmp/ct-ok)"
	expect_eq "barrier=1: exit" "$rc" 0
	expect_eq "barrier=1: states failed" "$(js /tmp/ct-ok 'j["failed"]')" 0
	expect_range "barrier=1: epochs (the fsyncs' flushes)" "$(js /tmp/ct-ok 'len(j["epochs"])')" 3 1000
	expect_range "barrier=1: states checked" "$(js /tmp/ct-ok 'j["states"]')" 10 100000
	expect_eq "barrier=1: states are the epochs' sum" \
		"$(js /tmp/ct-ok 'sum(e["states"] for e in j["epochs"]) == j["states"]')" True
	no_disks "barrier=1"

	# Barriers off: fsync sends no flush, the cache keeps the writes and
	# some states lose what fsync returned for.  --keep-failures: the
	# workload's disk and the failing states' stay, and crash-image makes
	# a failing state again, which fails the check again.
	rc=$(ct /tmp/ct-nb barrier=0 --states $((4 * CT_MORE)) --seed 5 --jobs 2 --keep-failures)
	cat /tmp/ct-nb.err
	echo "ext4 barrier=0: $(summary /tmp/ct-nb)"
	expect_eq "barrier=0: exit" "$rc" 1
	expect_range "barrier=0: states failed" "$(js /tmp/ct-nb 'j["failed"]')" 1 100000
	expect_eq "barrier=0: failures listed" \
		"$(js /tmp/ct-nb 'len(j["failures"]) == j["failed"] == sum(e["failed"] for e in j["epochs"])')" True
	expect_eq "barrier=0: a failure says why" \
		"$(js /tmp/ct-nb 'all(f["output"] and f["status"] == 1 for f in j["failures"])')" True
	s=$(js /tmp/ct-nb 'j["source"]')
	expect_eq "--keep-failures: the source kept" "$(cat "$SBD_CONFIGFS/$s/power")" 1
	local f dev e k img n
	f=$(js /tmp/ct-nb '" ".join(str(x) for x in (j["failures"][0]["device"], j["failures"][0]["epoch"], j["failures"][0]["state"]))')
	read -r dev e k <<<"$f"
	expect_eq "--keep-failures: the failing state's disk kept" "$(test -b "$dev" && echo yes)" yes
	expect_eq "--keep-failures: a disk per failing state, and the source" \
		"$(find "$SBD_CONFIGFS" -mindepth 1 -maxdepth 1 | wc -l)" $(($(js /tmp/ct-nb 'j["failed"]') + 1))
	img=$(sbdctl_rc 0 crash-image "$s" --epoch "$e" --state "$k" --name again)
	local why
	rc=0
	why=$(SBD_DEV=$img SBD_MARK=$(cat "$SBD_CONFIGFS/again/crash_mark") \
		CT_FSCK="e2fsck -fn" CT_MOPT=defaults sh -c "$CT_CHECK" 2>&1) || rc=$?
	expect_eq "the failing state made again fails the check again" "$rc" 1
	expect_eq "... for the same reason" "$(tail -n 1 <<<"$why")" \
		"$(js /tmp/ct-nb 'j["failures"][0]["output"].strip().splitlines()[-1]')"
	for f in "$SBD_CONFIGFS"/*; do
		sbdctl_rc 0 remove "${f##*/}" >/dev/null
	done

	# A disk that ignores flushes fails the honest workload.
	rc=$(ct /tmp/ct-lie barrier=1 --states $((4 * CT_MORE)) --seed 5 --jobs 2 \
		--setup '"$SBDCTL" set "$SBD_DISK" ignore_flush=1')
	cat /tmp/ct-lie.err
	echo "ext4 ignore_flush=1: $(summary /tmp/ct-lie)"
	expect_eq "ignore_flush=1: exit" "$rc" 1
	expect_range "ignore_flush=1: states failed" "$(js /tmp/ct-lie 'j["failed"]')" 1 100000
	no_disks "ignore_flush=1"

	# ^C while a check runs: the check ends, every disk goes.
	"$SBDCTL" crash-test --size 16M --run 'dd if=/dev/zero of="$SBD_DEV" bs=4k count=1 oflag=direct,sync status=none' \
		--check 'sleep 60' --states 0 >/dev/null 2>/tmp/ct-int.err &
	f=$!
	for n in $(seq 1 100); do
		[ "$(find "$SBD_CONFIGFS" -mindepth 1 -maxdepth 1 | wc -l)" -ge 2 ] && break
		sleep 0.2
	done
	expect_eq "a check running on an image" "$(find "$SBD_CONFIGFS" -mindepth 1 -maxdepth 1 | wc -l)" 2
	n=$(now_ms)
	kill -INT "$f"
	rc=0
	wait "$f" || rc=$?
	expect_range "^C: done in (ms), the 60 s check ended" $(($(now_ms) - n)) 0 10000
	expect_eq "^C: exit" "$rc" 1
	expect_eq "^C: says so" "$(cat /tmp/ct-int.err)" "sbdctl: interrupted after 0 of 2 states"
	no_disks "^C"

	# A workload that fails: exit 1, says so, nothing left.
	s=$("$SBDCTL" crash-test --size 16M --run 'exit 3' --check true 2>&1) && rc=0 || rc=$?
	expect_eq "a failing --run: exit" "$rc" 1
	expect_eq "... says so" "$s" "sbdctl: --run exited with status 3"
	no_disks "a failing --run"

	# A log too small: an error, not a silent partial test.
	s=$("$SBDCTL" crash-test --size 16M --log-limit 64K \
		--run 'dd if=/dev/urandom of="$SBD_DEV" bs=64k count=4 oflag=direct status=none' \
		--check true 2>&1) && rc=0 || rc=$?
	expect_eq "a full log: exit" "$rc" 1
	expect_eq "... says so" "$s" "sbdctl: the write log filled up (limit 65536 bytes): give a larger --log-limit"
	no_disks "a full log"

	# make crashtest only: a crash image costs what differs from the
	# snapshot, not the disk's size.
	[ -n "${CRASHTEST_FULL:-}" ] || return 0
	local ms1 ms16
	ms1=$(image_ms 1G)
	ms16=$(image_ms 16G)
	echo "crash image of 8 MiB written since the snapshot (64 MiB before it): 1 GiB disk ${ms1} ms, 16 GiB disk ${ms16} ms (medians of 5)"
	expect_range "a 16 GiB disk's image costs what a 1 GiB one's does (ms)" "$ms16" 0 $((ms1 * 2 + 200))

	# xfs (make crashtest only): its nobarrier mount option is gone (4.19),
	# so the flushes it cannot skip are skipped by a lying disk instead.
	[ -n "${CRASHTEST_FULL:-}" ] || return 0
	if ! command -v mkfs.xfs >/dev/null ||
		! { modprobe -d "${SBD_MODDIR:-/}" xfs || modprobe xfs; } 2>/dev/null; then
		echo "xfs left out: no mkfs.xfs or no xfs module"
		return 0
	fi
	rc=$(CT_FS=xfs ct /tmp/ct-xfs defaults --states $((4 * CT_MORE)) --seed 5 --jobs 2)
	cat /tmp/ct-xfs.err
	echo "xfs: $(summary /tmp/ct-xfs)"
	expect_eq "xfs: exit" "$rc" 0
	expect_eq "xfs: states failed" "$(js /tmp/ct-xfs 'j["failed"]')" 0
	rc=$(CT_FS=xfs ct /tmp/ct-xfs-lie defaults --states $((4 * CT_MORE)) --seed 5 --jobs 2 \
		--setup '"$SBDCTL" set "$SBD_DISK" ignore_flush=1')
	cat /tmp/ct-xfs-lie.err
	echo "xfs, ignore_flush=1: $(summary /tmp/ct-xfs-lie)"
	expect_eq "xfs, ignore_flush=1: exit" "$rc" 1
	no_disks "xfs"
}

# image_ms SIZE: a disk of SIZE with 64 MiB written, a snapshot, 8 MiB
# written since; prints the median of 5 crash images of the state that
# keeps all 8 MiB, in ms (what crash-test pays per state besides the check).
image_ms() {
	local dev i n t0 ms=()
	dev=$(sbdctl_rc 0 create --size "$1" --name isrc)
	dd if=/dev/urandom of="$dev" bs=1M count=64 oflag=direct status=none
	sbdctl_rc 0 snapshot isrc --log-limit 64M >/dev/null
	dd if=/dev/urandom of="$dev" bs=1M count=8 seek=100 oflag=direct status=none
	# every write of the epoch, however the 8 MiB were split
	n=$("$SBDCTL" log isrc --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["epoch-list"][0]["writes"])')
	for i in 1 2 3 4 5; do
		t0=$(date +%s%N)
		sbdctl_rc 0 crash-image isrc --epoch 0 --state "$n" --name img >/dev/null
		ms+=($((($(date +%s%N) - t0) / 1000000)))
		sbdctl_rc 0 remove img >/dev/null
	done
	sbdctl_rc 0 remove isrc >/dev/null
	printf '%s\n' "${ms[@]}" | sort -n | sed -n 3p
}
