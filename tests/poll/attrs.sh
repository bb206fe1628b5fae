DESCRIPTION="poll_queues: a parameter disk and runtime disks get that many extra hardware queues and io_poll says so; the attribute is range-checked with one message, EBUSY while powered, refused on a bio disk (bad module parameters: core/bad-params)"

requires() {
	require_features poll_queues
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local inval="Invalid argument" busy="Device or resource busy" d cpus
	cpus=$(getconf _NPROCESSORS_CONF)

	# A parameter disk with poll queues: hw_queues (one per CPU) + 1.
	sbd_load queue_mode=mq poll_queues=1
	expect_eq "parameter disk: poll_queues" "$(sbd_stat sbd0 poll_queues)" 1
	expect_eq "parameter disk: hardware queues" "$(ls /sys/block/sbd0/mq | wc -l)" $((cpus + 1))
	expect_eq "parameter disk: io_poll" "$(sysfs_q sbd0 io_poll)" 1
	sbd_unload

	sbd_setup
	# A runtime disk: 0 by default, no polling.
	d=$(cfg_disk a size=$((16 << 20)) queue_mode=mq hw_queues=1)
	expect_eq "default poll_queues" "$(cfg_get a poll_queues)" 0
	expect_eq "no poll queues: sysfs" "$(sbd_stat "$d" poll_queues)" 0
	expect_eq "no poll queues: io_poll" "$(sysfs_q "$d" io_poll)" 0
	cfg_refused a poll_queues 1 "$busy" "a: poll_queues cannot change while the disk is powered on"
	cfg_set a power 0
	cfg_refused a poll_queues $((cpus + 1)) "$inval" "a: poll_queues=$((cpus + 1)) is invalid: must be 0 to $cpus"
	cfg_refused a poll_queues -1 "$inval" "a: poll_queues=-1 is invalid: must be 0 to $cpus"
	cfg_refused a poll_queues two "$inval" "a: poll_queues=two is invalid: must be 0 to $cpus"
	cfg_set a poll_queues 2
	d=$(cfg_disk_on a)
	expect_eq "poll_queues=2: sysfs" "$(sbd_stat "$d" poll_queues)" 2
	expect_eq "poll_queues=2: hardware queues" "$(ls "/sys/block/$d/mq" | wc -l)" 3
	expect_eq "poll_queues=2: io_poll" "$(sysfs_q "$d" io_poll)" 1
	expect_eq "poll_queues=2: polled so far" "$(sbd_stat "$d" polled)" 0
	cfg_set a power 0

	# A bio disk has no poll queues, and refuses them.
	mkdir "$SBD_CONFIGFS/b"
	cfg_set b queue_mode bio
	cfg_refused b poll_queues 1 "$inval" "b: poll_queues=1 is refused: the disk has queue_mode=bio, and poll_queues applies to queue_mode=mq only"
	d=$(cfg_disk_on b)
	expect_eq "bio disk: sysfs poll_queues" "$(sbd_stat "$d" poll_queues)" 0
	# Powered off, a disk may go from mq with poll queues to bio: they stay
	# in its configuration, unused.
	cfg_set a queue_mode bio
	d=$(cfg_disk_on a)
	expect_eq "mq disk with poll queues made bio: sysfs poll_queues" "$(sbd_stat "$d" poll_queues)" 0
	expect_eq "...and no hardware queues" "$([ -e "/sys/block/$d/mq" ] && echo yes || echo no)" no
}
