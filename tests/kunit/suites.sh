DESCRIPTION="KUnit: sbd_kunit.ko tests the store, geometry, parameter and attribute checks and error rules in the kernel; every case passes"

KUNIT_DIR=/sys/kernel/debug/kunit
KUNIT_KO=$(dirname "$SBD_KO")/sbd_kunit.ko
SUITES="sbd_store sbd_params sbd_dev"

requires() {
	[ -d "$KUNIT_DIR" ] || skip "kernel without KUnit (CONFIG_KUNIT, CONFIG_KUNIT_DEBUGFS)"
}

# kunit_cases SUITE: "ok CASE" or "not ok CASE" for each case in the
# suite's KTAP results; the suite's own line is left out.
kunit_cases() {
	sed -n -E 's/^[[:space:]]*(ok|not ok) [0-9]+ ([A-Za-z0-9_]+).*/\1 \2/p' \
		"$KUNIT_DIR/$1/results" | grep -v " $1\$"
}

test_main() {
	local suite line cases total=0 failed=0

	[ -f "$KUNIT_KO" ] || fail "$KUNIT_KO missing: the build makes it on a kernel with KUnit"
	sbd_load
	# The cases run while insmod loads the module.
	insmod "$KUNIT_KO" || fail "insmod sbd_kunit failed"
	for suite in $SUITES; do
		[ -f "$KUNIT_DIR/$suite/results" ] || fail "no results for suite $suite"
		cases=$(kunit_cases "$suite")
		[ -n "$cases" ] || fail "suite $suite reported no cases"
		while read -r line; do
			total=$((total + 1))
			subtest "${line% *}" "kunit/$suite/${line##* }"
			case $line in
			"not ok"*)
				failed=$((failed + 1))
				echo "FAILED: $suite: ${line##* }" ;;
			esac
		done <<<"$cases"
	done
	if [ "$failed" -gt 0 ]; then
		for suite in $SUITES; do
			cat "$KUNIT_DIR/$suite/results"
		done
		fail "$failed of $total KUnit cases failed"
	fi
	# Every case the source declares ran.
	expect_eq "KUnit cases run" "$total" \
		"$(grep -c '^[[:space:]]*KUNIT_CASE(' "$SBD_ROOT/tests/kunit/sbd_kunit.c")"
	rmmod sbd_kunit || fail "rmmod sbd_kunit failed"
	sbd_unload
}
