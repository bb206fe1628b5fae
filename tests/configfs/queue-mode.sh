DESCRIPTION="queue_mode: bio by default, mq on request, for parameter and runtime disks; bad values and writes while powered refused; hw_queues and queue_depth refused on a bio disk"

test_main() {
	local inval="Invalid argument" busy="Device or resource busy" d m

	# The module parameter: checked at load, with one message.
	sbd_deps
	dmesg -C
	! insmod "$SBD_KO" queue_mode=blk 2>/dev/null || fail "insmod queue_mode=blk succeeded"
	dmesg | grep -qF "sbd: queue_mode=blk is invalid: must be bio or mq" ||
		fail "no message for queue_mode=blk: $(dmesg | tail -n 3)"
	echo "ok: queue_mode=blk refused at load"

	# Without the parameter: bio, the parameter disk and runtime disks alike.
	sbd_load queue_mode=bio
	expect_eq "parameter: sbd0 mode" "$(sbd_stat sbd0 queue_mode)" bio
	[ ! -e /sys/block/sbd0/mq ] || fail "a bio disk has hardware queues"
	mkdir "$SBD_CONFIGFS/x"
	expect_eq "runtime disk default" "$(cfg_get x queue_mode)" bio
	grep -q "queue_mode" "$SBD_CONFIGFS/x/features" || fail "features lacks queue_mode"

	cfg_refused x queue_mode blk "$inval" "x: queue_mode=blk is invalid: must be bio or mq"
	cfg_refused x queue_mode 1 "$inval" "x: queue_mode=1 is invalid: must be bio or mq"
	cfg_refused x hw_queues 1 "$inval" "x: hw_queues=1 is refused: the disk has queue_mode=bio, and hw_queues applies to queue_mode=mq only"
	cfg_refused x queue_depth 64 "$inval" "x: queue_depth=64 is refused: the disk has queue_mode=bio, and queue_depth applies to queue_mode=mq only"

	cfg_set x size $((16 << 20))
	d=$(cfg_disk_on x)
	expect_eq "bio disk: sysfs mode" "$(sbd_stat "$d" queue_mode)" bio
	cfg_refused x queue_mode mq "$busy" "x: queue_mode cannot change while the disk is powered on"

	# Powered off it may change; the data stays across the change.
	dd if=/dev/urandom of=/tmp/sbd-pat bs=64k count=4 status=none
	dd if=/tmp/sbd-pat of="/dev/$d" bs=64k oflag=direct status=none
	cfg_set x power 0
	cfg_set x queue_mode mq
	cfg_set x hw_queues 1
	cfg_set x queue_depth 32
	d=$(cfg_disk_on x)
	expect_eq "mq disk: sysfs mode" "$(sbd_stat "$d" queue_mode)" mq
	expect_eq "mq disk: hardware queues" "$(ls "/sys/block/$d/mq" | wc -l)" 1
	expect_eq "mq disk: tags" "$(cat "/sys/block/$d/mq/0/nr_tags")" 32
	# One hardware queue would get mq-deadline, but for NO_SCHED_BY_DEFAULT.
	expect_eq "mq disk: scheduler" "$(sysfs_q "$d" scheduler | grep -o '\[[a-z-]*\]')" "[none]"
	expect_eq "data written in bio mode, read in mq mode" \
		"$(dev_sum "/dev/$d" 0 $((256 << 10)))" "$(file_sum /tmp/sbd-pat)"
	cfg_refused x queue_mode bio "$busy" "x: queue_mode cannot change while the disk is powered on"
	cfg_set x power 0
	rmdir "$SBD_CONFIGFS/x"
	sbd_unload

	# queue_mode=mq: the parameter disks and new runtime disks are mq.
	sbd_load queue_mode=mq
	expect_eq "parameter: sbd0 mode" "$(sbd_stat sbd0 queue_mode)" mq
	expect_eq "parameter: sbd0 queues" "$(ls /sys/block/sbd0/mq | wc -l)" "$(getconf _NPROCESSORS_CONF)"
	mkdir "$SBD_CONFIGFS/y"
	expect_eq "runtime disk default under queue_mode=mq" "$(cfg_get y queue_mode)" mq
	m=$(cat /sys/module/sbd/parameters/queue_mode)
	expect_eq "parameter reads back" "$m" mq
	rmdir "$SBD_CONFIGFS/y"
}
