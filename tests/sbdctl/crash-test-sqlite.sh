DESCRIPTION="sbdctl crash-test on an application: SQLite on ext4 committing numbered transactions, a mark after each COMMIT returns; synchronous=OFF loses committed transactions in some crash states, synchronous=EXTRA (rollback journal) loses none; make crashtest adds FULL with WAL (none) and FULL with the rollback journal (reported)"

requires() {
	require_sbdctl
	require_features crash_image
	require_cmd mkfs.ext4 python3
	python3 -c 'import sqlite3' 2>/dev/null || skip "needs Python's sqlite3 module"
	require_kmod ext4
}

. "$SBD_ROOT/tests/lib/cache.sh" # require_features

# CRASHTEST_FULL=1 (make crashtest): more transactions, every epoch, more
# seeded states, and the two FULL configurations.
if [ -n "${CRASHTEST_FULL:-}" ]; then
	APP_TXNS=6 APP_STATES=4 APP_EPOCHS=0-
else
	APP_TXNS=2 APP_STATES=1 APP_EPOCHS=0-5
fi

APP_RUN='set -e
m=$(mktemp -d)
mount "$SBD_DEV" "$m"
python3 "$SBD_ROOT/tests/lib/crashapp.py" run "$m" "$APP_SYNC" "$APP_JOURNAL" "$APP_TXNS"
umount "$m"
rmdir "$m"'

# The check: the filesystem's journal replays on mount, then SQLite opens
# the database as after a power loss and every committed row must be there.
APP_CHECK='m=$(mktemp -d)
trap "umount -q \"\$m\" 2>/dev/null; rmdir \"\$m\"" EXIT
mount "$SBD_DEV" "$m" || { echo "mount failed"; exit 1; }
python3 "$SBD_ROOT/tests/lib/crashapp.py" check "$m"'

# app OUT SYNCHRONOUS JOURNAL_MODE: crash-test of the application, its JSON
# summary in OUT, one line of it on stdout; its exit code in $rc.
app() {
	rc=0
	APP_SYNC=$2 APP_JOURNAL=$3 APP_TXNS=$APP_TXNS SBDCTL=$SBDCTL SBD_ROOT=$SBD_ROOT \
		"$SBDCTL" crash-test --size 16M --jobs 2 --seed 7 \
		--states "$APP_STATES" --epochs "$APP_EPOCHS" \
		--mkfs 'mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$SBD_DEV"' \
		--run "$APP_RUN" --check "$APP_CHECK" --json >"$1" 2>"$1.err" || rc=$?
	cat "$1.err"
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
print("%s %s: %d states in %d epochs, %d failed, %.1f s, %.2f states/s" % (sys.argv[2], sys.argv[3], j["states"], len(j["epochs"]), j["failed"], j["seconds"], j["states_per_second"]))
for f in j["failures"][:4]: print("  failed %d:%d mark %s: %s" % (f["epoch"], f["state"], f["mark"], f["output"].strip()))' "$1" "$2" "$3"
}

no_disks() {
	expect_eq "$1: disks left" "$(find "$SBD_CONFIGFS" -mindepth 1 -maxdepth 1 | wc -l)" 0
}

failed_of() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["failed"])' "$1"
}

test_main() {
	sbd_load ndevices=0

	app /tmp/app-off OFF DELETE
	no_disks "synchronous=OFF"
	expect_eq "synchronous=OFF: exit" "$rc" 1
	expect_range "synchronous=OFF: states that lost a committed transaction" \
		"$(failed_of /tmp/app-off)" 1 100000

	app /tmp/app-extra EXTRA DELETE
	no_disks "synchronous=EXTRA"
	expect_eq "synchronous=EXTRA, rollback journal: exit" "$rc" 0
	expect_eq "synchronous=EXTRA, rollback journal: states failed" "$(failed_of /tmp/app-extra)" 0

	[ -n "${CRASHTEST_FULL:-}" ] || return 0
	app /tmp/app-wal FULL WAL
	expect_eq "synchronous=FULL, WAL: exit" "$rc" 0
	expect_eq "synchronous=FULL, WAL: states failed" "$(failed_of /tmp/app-wal)" 0

	# SQLite's documentation: in DELETE mode FULL does not sync the
	# directory after the journal is deleted, so a commit closely followed
	# by a power loss can roll back.  Reported, not required either way.
	app /tmp/app-full FULL DELETE
	echo "synchronous=FULL, rollback journal: $(failed_of /tmp/app-full) failing states"
	expect_eq "synchronous=FULL, rollback journal: crash-test ran (exit 0 or 1)" \
		"$([ "$rc" -le 1 ] && echo yes)" yes
}
