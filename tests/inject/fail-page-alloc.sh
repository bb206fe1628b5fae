DESCRIPTION="fail_page_alloc with a task filter: a write whose page allocation fails completes with EIO, changes nothing and leaks nothing; the same write then works"

. "$SBD_ROOT/tests/lib/failalloc.sh"

requires() {
	[ -d "$FA" ] || skip "kernel without fail_page_alloc (CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS)"
	[ -e /proc/self/make-it-fail ] || skip "kernel without /proc/PID/make-it-fail"
	require_helper sbd-failwrite
}

test_main() {
	local fw="$SBD_HELPERS/sbd-failwrite" pat=/tmp/sbd-pat sum0 pages0 mib=$((1 << 20))

	sbd_load
	make_pattern $pat 4
	dd if=$pat of=/dev/sbd0 bs=4k oflag=direct status=none
	sum0=$(file_sum $pat)
	pages0=$(sbd_stat sbd0 nr_pages)
	expect_eq "pages before" "$pages0" 1

	# Every page allocation of the marked task fails, the GFP_NOIO ones
	# and highmem ones too; nothing else is affected.
	trap 'echo 0 >"$FA/probability"' EXIT
	fa_arm
	expect_eq "64 KiB write at 1 MiB while allocations fail" \
		"$($fw /dev/sbd0 $mib 65536 0xab)" EIO
	fa_disarm

	expect_eq "pages after the failed write" "$(sbd_stat sbd0 nr_pages)" "$pages0"
	expect_eq "failed range reads zeros" "$(dev_sum /dev/sbd0 $mib 65536)" "$(zeros_sum 65536)"
	expect_eq "earlier data intact" "$(dev_sum /dev/sbd0 0 4096)" "$sum0"

	# The task is still marked, but nothing fails now.
	expect_eq "the same write without failures" "$($fw /dev/sbd0 $mib 65536 0xab)" ok
	expect_eq "pages after it" "$(sbd_stat sbd0 nr_pages)" $((pages0 + 16))
	expect_eq "its data" "$(dev_sum /dev/sbd0 $mib 65536)" \
		"$(head -c 65536 /dev/zero | tr '\0' '\253' | sha256sum | cut -d' ' -f1)"
	expect_eq "earlier data still intact" "$(dev_sum /dev/sbd0 0 4096)" "$sum0"
	sbd_unload
}
