DESCRIPTION="a power cut that must bring discarded pages back does so even while every page allocation of the cutting task fails: it never counts a block lost that it kept"

. "$SBD_ROOT/tests/lib/failalloc.sh"

requires() {
	[ -d "$FA" ] || skip "kernel without fail_page_alloc (CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS)"
	[ -e /proc/self/make-it-fail ] || skip "kernel without /proc/PID/make-it-fail"
	require_features cache power_cut
	require_helper sbd-failwrite
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d a=/tmp/sbd-a sum_a

	sbd_setup
	d=$(cfg_disk c size=$((16 << 20)) cache=1)
	make_pattern $a 1024
	sum_a=$(file_sum $a)
	put $a "/dev/$d" 0
	expect_eq "flush" "$(dio "/dev/$d" f)" ok
	# Discarded, not flushed: its pages are gone, and a cut needs them back.
	expect_eq "discard of the flushed MiB" "$(dio "/dev/$d" d:0:1m)" ok
	expect_eq "pages after the discard" "$(sbd_stat "$d" nr_pages)" 0

	trap 'echo 0 >"$FA/probability"; sbd_teardown' EXIT
	fa_arm
	# power_cut=0 first (no cut: nothing to do), then the cut, marked.
	expect_eq "the cut, while allocations fail" \
		"$("$SBD_HELPERS/sbd-failwrite" --attr "$SBD_CONFIGFS/c/power_cut" 0 1)" ok
	fa_disarm
	power_restore c

	expect_eq "lost_blocks" "$(sbd_stat "$d" lost_blocks)" 2048
	expect_eq "every lost block has its durable data back" "$(dev_sum "/dev/$d" 0 $((1 << 20)))" "$sum_a"
	expect_eq "pages after the cut" "$(sbd_stat "$d" nr_pages)" 256
}
