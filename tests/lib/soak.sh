#!/bin/bash
# In the guest: the crash-consistency soak that scripts/soak starts.
#   SOAK_FS="ext4 xfs"  SOAK_TRIALS=100  SOAK_LYING=20  SOAK_SEED=1000
# Runs the trials of tests/lib/crash.sh for each file system on a freshly
# loaded sbd, prints every trial, then a table; exits 1 if an honest trial
# failed, no trial lost unflushed data, or no lying trial was caught.
set -euo pipefail
cd "$(dirname "$0")/../.."
export SBD_ROOT=$PWD
. tests/lib/common.sh
. tests/lib/cache.sh
. tests/lib/crash.sh

out=${SBD_RESULTS:-/dev/null}
say() {
	echo "$*"
	echo "$*" >>"$out"
}

fss=${SOAK_FS:-ext4 xfs}; fss=${fss//,/ } n=${SOAK_TRIALS:-100} nl=${SOAK_LYING:-20} seed=${SOAK_SEED:-1000}
rows=() rc=0
: >"$CRASH_LOG"
say "# soak on $(uname -r): $n honest + $nl lying trials per file system, power_cut_keep=$CRASH_KEEP, first seed $seed"
for fs in $fss; do
	if ! (crash_requires "$fs") >/tmp/sbd-soak-req 2>&1; then
		say "# $fs skipped: $(sed -n 's/^SKIP: //p' /tmp/sbd-soak-req)"
		continue
	fi
	sbd_setup >/dev/null
	start=$SECONDS
	crash_run "$fs" "$n" "$nl" "$seed" > >(tee -a "$out")
	trap - EXIT
	sbd_teardown
	rmmod sbd
	rows+=("$CRASH_ROW")
	read -r _ _ clean intact lostctl _ caught <<<"$CRASH_ROW"
	if [ -n "$CRASH_BAD" ]; then
		say "# $fs: FAILED honest trials, seeds:$CRASH_BAD"
		rc=1
	fi
	[ "$lostctl" -gt 0 ] || { say "# $fs: FAILED: no trial lost unflushed data"; rc=1; }
	[ "$nl" = 0 ] || [ "$caught" -gt 0 ] || { say "# $fs: FAILED: the lying disk was never caught"; rc=1; }
	say "# $fs: $((SECONDS - start)) s"
	seed=$((seed + n + nl))
done
sleep 0.2	# let tee catch up
say ""
say "$(crash_table_header)"
for r in "${rows[@]}"; do
	say "$(crash_table_row "$r")"
done
if [ $rc = 0 ]; then
	say "soak: PASS"
else
	say "soak: FAIL; the end of the trial log:"
	tail -n 80 "$CRASH_LOG" | sed 's/^/#   /' | while IFS= read -r l; do say "$l"; done
fi
exit $rc
