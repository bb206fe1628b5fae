DESCRIPTION="every bad attribute value fails with EINVAL and one message naming it and the range; fixed attributes are EBUSY while powered"

test_main() {
	local inval="Invalid argument" busy="Device or resource busy"
	local pow2="must be a power of two from" cpus a

	# nr_cpu_ids: the highest possible CPU, plus one.
	cpus=$(($(sed 's/.*[-,]//' /sys/devices/system/cpu/possible) + 1))
	sbd_load ndevices=0 max_part=7
	mkdir "$SBD_CONFIGFS/x"
	! mkdir "$SBD_CONFIGFS/x" 2>/dev/null || fail "a second mkdir x succeeded"
	# Every attribute, the mq-only ones too (configfs/queue-mode has bio's).
	cfg_set x queue_mode mq

	cfg_refused x size 0 "$inval" "x: size=0 is invalid: must be 512 to 9223372036854775807"
	cfg_refused x size abc "$inval" "x: size=abc is invalid"
	cfg_refused x size -4096 "$inval" "x: size=-4096 is invalid"
	cfg_refused x size 18446744073709551616 "$inval" "x: size=18446744073709551616 is invalid"
	cfg_refused x size 1000 "$inval" "x: size=1000 is invalid: must be a non-zero multiple of logical_block_size=512"
	expect_eq "device while off" "$(cfg_get x device)" ""
	cfg_refused x logical_block_size 768 "$inval" "x: logical_block_size=768 is invalid: $pow2 512 to 4096"
	cfg_refused x logical_block_size 256 "$inval" "x: logical_block_size=256 is invalid: $pow2 512 to 4096"
	cfg_refused x logical_block_size 8192 "$inval" "x: logical_block_size=8192 is invalid: $pow2 512 to 4096"
	cfg_refused x physical_block_size 3000 "$inval" "x: physical_block_size=3000 is invalid: $pow2 512 to 65536"
	cfg_refused x physical_block_size 131072 "$inval" "x: physical_block_size=131072 is invalid: $pow2 512 to 65536"
	cfg_refused x hw_queues 0 "$inval" "x: hw_queues=0 is invalid: must be 1 to $cpus"
	cfg_refused x hw_queues $((cpus + 1)) "$inval" "x: hw_queues=$((cpus + 1)) is invalid: must be 1 to $cpus"
	cfg_refused x queue_depth 0 "$inval" "x: queue_depth=0 is invalid: must be 1 to 1024"
	cfg_refused x queue_depth 1025 "$inval" "x: queue_depth=1025 is invalid: must be 1 to 1024"
	cfg_refused x partitions 8 "$inval" "x: partitions=8 is invalid: must be 0 to 7"
	cfg_refused x discard 2 "$inval" "x: discard=2 is invalid: must be 0 to 1"
	cfg_refused x read_only 2 "$inval" "x: read_only=2 is invalid: must be 0 to 1"
	cfg_refused x power 2 "$inval" "x: power=2 is invalid: must be 0 or 1"
	cfg_refused x device sbd9 "Permission denied"
	cfg_refused x features x "Permission denied"

	# Each is checked against the others when written, whatever the order.
	cfg_set x physical_block_size 1024
	cfg_refused x logical_block_size 4096 "$inval" "x: logical_block_size=4096 is invalid: must be at most physical_block_size=1024"
	cfg_set x logical_block_size 1024
	cfg_refused x physical_block_size 512 "$inval" "x: physical_block_size=512 is invalid: must be at least logical_block_size=1024"
	cfg_set x physical_block_size 4096
	cfg_set x logical_block_size 512
	cfg_set x size 1536
	cfg_refused x logical_block_size 1024 "$inval" "x: logical_block_size=1024 is invalid: size=1536 must be a multiple of it"
	cfg_set x size 2048
	cfg_set x logical_block_size 1024
	cfg_refused x size 1536 "$inval" "x: size=1536 is invalid: must be a non-zero multiple of logical_block_size=1024"
	[ -z "$(ls /sys/block | grep sbd)" ] || fail "a block device appeared: $(ls /sys/block)"

	# Powered on: what shapes the queue or the minors is fixed.
	cfg_set x size $((8 << 20))
	cfg_set x partitions 3
	a=$(cfg_disk_on x)
	expect_eq "minors with partitions=3" "$(cat "/sys/block/$a/range")" 4
	for kv in logical_block_size=512 physical_block_size=8192 hw_queues=1 \
		  queue_depth=64 partitions=0 discard=0 queue_mode=bio; do
		cfg_refused x "${kv%%=*}" "${kv#*=}" "$busy" "x: ${kv%%=*} cannot change while the disk is powered on"
	done
	cfg_refused x size 1000 "$inval" "x: size=1000 is invalid: must be a non-zero multiple of logical_block_size=1024"
	expect_eq "capacity after refused resize" "$(blockdev --getsize64 "/dev/$a")" $((8 << 20))

	# Powered off, they can change again.
	cfg_set x power 0
	cfg_set x discard 0
	cfg_set x queue_depth 64
	cfg_set x hw_queues 1
	a=$(cfg_disk_on x)
	expect_eq "discard=0: no discard" "$(sysfs_q "$a" discard_max_bytes)" 0
	expect_eq "hw_queues=1" "$(ls "/sys/block/$a/mq" | wc -l)" 1
	expect_eq "queue_depth=64" "$(cat "/sys/block/$a/mq/0/nr_tags")" 64
}
