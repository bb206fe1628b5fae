DESCRIPTION="loads with no parameters: one 64 MiB disk of 512-byte blocks, 16 minors, documented parameters"

test_main() {
	local p cpus

	for p in nsectors hardsect_size ndevices max_part major_num queue_mode poll_queues; do
		modinfo -F parm "$SBD_KO" | grep -q "^$p:." ||
			fail "modinfo documents no parameter $p"
	done
	echo "ok: modinfo documents all seven parameters"

	sbd_load
	[ -b /dev/sbd0 ] || fail "/dev/sbd0 is missing"
	[ ! -e /sys/block/sbd1 ] || fail "sbd1 exists although ndevices=1"
	grep -qE '^ *[0-9]+ sbd$' /proc/devices || fail "no sbd major in /proc/devices"
	expect_eq "nsectors parameter" "$(cat /sys/module/sbd/parameters/nsectors)" 131072
	expect_eq "size in bytes" "$(blockdev --getsize64 /dev/sbd0)" $((131072 * 512))
	expect_eq "size in sectors (sysfs)" "$(cat /sys/block/sbd0/size)" 131072
	expect_eq "logical block size" "$(blockdev --getss /dev/sbd0)" 512
	expect_eq "physical block size" "$(blockdev --getpbsz /dev/sbd0)" 4096
	expect_eq "rotational" "$(sysfs_q sbd0 rotational)" 0
	expect_eq "minors" "$(cat /sys/block/sbd0/range)" 16
	expect_eq "read-only" "$(blockdev --getro /dev/sbd0)" 0
	expect_eq "queue mode" "$(sbd_stat sbd0 queue_mode)" "$(sbd_mode)"
	if [ "$(sbd_mode)" = mq ]; then
		cpus=$(getconf _NPROCESSORS_CONF)
		expect_eq "hardware queues (one per CPU)" "$(ls /sys/block/sbd0/mq | wc -l)" "$cpus"
		expect_eq "queue depth" "$(sysfs_q sbd0 nr_requests)" 128
		# BLK_MQ_F_NO_SCHED_BY_DEFAULT: none, though others are offered.
		expect_eq "I/O scheduler" "$(sysfs_q sbd0 scheduler | grep -o '\[[a-z-]*\]')" "[none]"
	else
		# bio-based: no tag set, no hardware queues, no scheduler.
		[ ! -e /sys/block/sbd0/mq ] || fail "a bio-based disk has /sys/block/sbd0/mq"
		# 6.1 shows "none"; later kernels hide the attribute on a
		# bio-based queue.  Either way no scheduler can be chosen.
		if [ -e /sys/block/sbd0/queue/scheduler ]; then
			expect_eq "I/O scheduler" "$(sysfs_q sbd0 scheduler)" none
		else
			echo "ok: no scheduler attribute"
		fi
		echo "ok: no hardware queues"
	fi

	sbd_unload
	[ ! -e /sys/block/sbd0 ] || fail "sbd0 still exists after rmmod"
	! grep -qE '^ *[0-9]+ sbd$' /proc/devices || fail "major still registered after rmmod"
	echo "ok: unload removed the disk and the major"
}
