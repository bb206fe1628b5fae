DESCRIPTION="ext4 on a write-back cache, power cut mid-workload (keep=50, seeded): fsynced files intact and e2fsck -fn clean after replay; unflushed data lost; a disk ignoring flushes is caught"

requires() {
	crash_requires ext4
}

. "$SBD_ROOT/tests/lib/cache.sh"
. "$SBD_ROOT/tests/lib/crash.sh"

test_main() {
	sbd_setup
	# SBD_CRASH_TRIALS / SBD_CRASH_LYING / SBD_CRASH_SEED replay or widen it.
	crash_test ext4 "${SBD_CRASH_TRIALS:-4}" "${SBD_CRASH_LYING:-2}" "${SBD_CRASH_SEED:-100}"
}
