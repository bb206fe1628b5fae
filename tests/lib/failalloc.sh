# shellcheck shell=bash
# Helpers of the inject/ tests that fail page allocations with
# fail_page_alloc (Documentation/fault-injection).  Sourced by the test
# files after common.sh.

FA=/sys/kernel/debug/fail_page_alloc

fa_set() {
	echo "$2" >"$FA/$1" || fail "cannot set fail_page_alloc/$1 = $2"
}

# fa_arm: from now on every page allocation of a task marked for fault
# injection (/proc/PID/make-it-fail) fails, the GFP_NOIO ones and highmem
# ones too; nothing else is affected.
fa_arm() {
	fa_set task-filter Y
	fa_set ignore-gfp-wait N
	fa_set ignore-gfp-highmem N
	fa_set min-order 0
	fa_set interval 1
	fa_set times -1
	fa_set space 0
	fa_set verbose 0
	fa_set probability 100
}

# fa_disarm: page allocations no longer fail, marked task or not.
fa_disarm() {
	fa_set probability 0
}

FS=/sys/kernel/debug/failslab

fs_set() {
	echo "$2" >"$FS/$1" || fail "cannot set failslab/$1 = $2"
}

# fs_arm_nowait: from now on every slab allocation of a task marked for
# fault injection fails if it may not sleep (GFP_NOWAIT, GFP_ATOMIC);
# those that may sleep succeed.  fs_injected counts the failures since.
FS_TIMES=1000000
fs_arm_nowait() {
	fs_set task-filter Y
	fs_set ignore-gfp-wait Y
	fs_set interval 1
	fs_set times $FS_TIMES
	fs_set space 0
	fs_set verbose 0
	fs_set probability 100
}

fs_disarm() {
	fs_set probability 0
}

# fs_injected: failures injected since fs_arm_nowait (each one takes one
# off "times"; the log of them leaves out __GFP_NOWARN allocations).
fs_injected() {
	echo $((FS_TIMES - $(cat "$FS/times")))
}
