DESCRIPTION="two machines, initiator: connects to the target's exported sbd disk over the link (169.254.0.2 to .1), fio verify and ext4 on it, its flushes counted on the target; an md RAID-1 of a local sbd disk and the remote one loses the remote half to a power cut on the target without losing data, and resyncs clean after power returns"

requires() {
	require_export
	require_cmd mdadm fio mkfs.ext4 e2fsck
	require_kmod virtio_net raid1 ext4
}

. "$SBD_ROOT/tests/lib/export.sh"
. "$SBD_ROOT/tests/two-guests/common.sh"

# md_wait: until md0 has no resync or recovery running.
md_wait() {
	local t
	for t in $(seq 1 600); do
		[ "$(cat /sys/block/md0/md/sync_action)" = idle ] && return 0
		sleep 0.5
	done
	fail "md0 still syncing after 300 s: $(cat /proc/mdstat)"
}

test_main() {
	local st n l sum before after

	sbd_load ndevices=0
	link_up 169.254.0.2
	st=$(ctl stats 120)	# the target boots alongside
	echo "target: $st"
	nvme discover -t tcp -a 169.254.0.1 -s 4420 --hostnqn "$TWO_HOSTNQN" |
		grep -q "subnqn: *$TWO_NQN" || fail "nvme discover does not list $TWO_NQN"
	nvme connect -t tcp -a 169.254.0.1 -s 4420 -n "$TWO_NQN" --hostnqn "$TWO_HOSTNQN" \
		>/dev/null || fail "nvme connect over the link failed"
	n=$(nvme_dev "$TWO_UUID")
	echo "remote disk: /dev/$n, $(blockdev --getsize64 "/dev/$n") bytes"

	fio --name=remote --filename="/dev/$n" --rw=randwrite --bs=4k --size=16M \
		--ioengine=libaio --iodepth=8 --direct=1 --verify=crc32c \
		--verify_fatal=1 >/tmp/sbd-fio.out 2>&1 ||
		fail "fio verify over the link: $(tail -n 5 /tmp/sbd-fio.out)"
	echo "ok: fio verify, 16 MiB over the link"
	before=$(ctl stats)
	ext4_roundtrip "/dev/$n" 2
	after=$(ctl stats)
	echo "target before: $before; after: $after"
	[ "${after#*flushes=}" != "${before#*flushes=}" ] || fail "no flush reached the target"

	# RAID-1 of a local disk and the remote one, both zeroed: in sync.
	l=$(cfg_disk l size=$(blockdev --getsize64 "/dev/$n"))
	blkdiscard -f "/dev/$n" || dd if=/dev/zero of="/dev/$n" bs=1M oflag=direct status=none
	mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --metadata=1.2 \
		--bitmap=internal --assume-clean "/dev/$l" "/dev/$n" >/tmp/sbd-md.out 2>&1 ||
		fail "mdadm --create: $(cat /tmp/sbd-md.out)"
	head -c 16M /dev/urandom >/tmp/sbd-data
	dd if=/tmp/sbd-data of=/dev/md0 bs=1M oflag=direct status=none || fail "write to md0"
	sum=$(sha256sum </tmp/sbd-data | cut -d' ' -f1)

	# A power cut on the target: the remote half fails, the data stays.
	echo "target: $(ctl cut)"
	dd if=/tmp/sbd-data of=/dev/md0 bs=1M seek=16 oflag=direct status=none ||
		fail "write to md0 while the target is cut"
	sleep 1
	mdadm --detail /dev/md0 | grep -q "State : .*degraded" ||
		fail "md0 not degraded after the cut: $(mdadm --detail /dev/md0 | grep -E 'State|faulty')"
	echo "ok: md0 degraded: $(grep -A1 '^md0' /proc/mdstat | tail -n 1)"
	expect_eq "md0's data after the cut" \
		"$(dd if=/dev/md0 bs=1M count=16 iflag=direct status=none | sha256sum | cut -d' ' -f1)" "$sum"
	expect_eq "md0's data written during the cut" \
		"$(dd if=/dev/md0 bs=1M skip=16 count=16 iflag=direct status=none | sha256sum | cut -d' ' -f1)" "$sum"

	# Power back: the remote half is added again and resynced.
	echo "target: $(ctl back)"
	mdadm /dev/md0 --remove "/dev/$n" >/dev/null 2>&1 || fail "mdadm --remove"
	mdadm /dev/md0 --add "/dev/$n" >/dev/null 2>&1 || fail "mdadm --add"
	md_wait
	mdadm --detail /dev/md0 | grep -q "State : clean *$" ||
		fail "md0 not clean after the resync: $(mdadm --detail /dev/md0 | grep State)"
	echo check >/sys/block/md0/md/sync_action
	sleep 1
	md_wait
	expect_eq "mismatches between the halves after the resync" \
		"$(cat /sys/block/md0/md/mismatch_cnt)" 0
	expect_eq "md0's data in the end" \
		"$(dd if=/dev/md0 bs=1M count=16 iflag=direct status=none | sha256sum | cut -d' ' -f1)" "$sum"

	mdadm --stop /dev/md0 >/dev/null 2>&1 || fail "mdadm --stop"
	nvme disconnect -n "$TWO_NQN" >/dev/null
	nvme_gone "$TWO_UUID"
	echo "target: $(ctl done)"
}
