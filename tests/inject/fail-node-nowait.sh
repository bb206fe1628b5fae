DESCRIPTION="failslab failing the writing task's slab allocations that may not sleep: a write into fresh space, whose xarray nodes the store cannot get under its lock, allocates them outside it and completes; data and nr_pages are right, nothing leaks"

. "$SBD_ROOT/tests/lib/failalloc.sh"

requires() {
	[ -d "$FS" ] || skip "kernel without failslab (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)"
	[ -e /proc/self/make-it-fail ] || skip "kernel without /proc/PID/make-it-fail"
	require_helper sbd-failwrite
}

test_main() {
	local fw="$SBD_HELPERS/sbd-failwrite" pat=/tmp/sbd-pat sum0 fresh over mib=$((1 << 20))

	sbd_load
	make_pattern $pat 4
	dd if=$pat of=/dev/sbd0 bs=4k oflag=direct status=none
	sum0=$(file_sum $pat)
	expect_eq "pages before" "$(sbd_stat sbd0 nr_pages)" 1

	# Page 256 and on are in no node yet: the store must add nodes, and
	# under its lock it may not sleep.  The same write again, over pages
	# that exist, counts the failures the rest of the path meets.
	trap 'echo 0 >"$FS/probability"' EXIT
	fs_arm_nowait
	expect_eq "64 KiB write into fresh space while non-sleeping slab allocations fail" \
		"$($fw /dev/sbd0 $mib 65536 0xab)" ok
	fresh=$(fs_injected)
	fs_arm_nowait
	expect_eq "the same write over its pages" "$($fw /dev/sbd0 $mib 65536 0xab)" ok
	over=$(fs_injected)
	fs_disarm
	expect_range "failures only the fresh write met (its xarray nodes)" \
		$((fresh - over)) 1 64

	expect_eq "pages after" "$(sbd_stat sbd0 nr_pages)" 17
	expect_eq "its data" "$(dev_sum /dev/sbd0 $mib 65536)" \
		"$(head -c 65536 /dev/zero | tr '\0' '\253' | sha256sum | cut -d' ' -f1)"
	expect_eq "earlier data intact" "$(dev_sum /dev/sbd0 0 4096)" "$sum0"
	sbd_unload
}
