DESCRIPTION="power off and rmdir under running fio, while mounted and while open: I/O fails cleanly, no kernel warning, memory back"

requires() {
	require_cmd fio mkfs.ext4
	require_kmod ext4
}

test_main() {
	local d i pid free0 free1

	sbd_load ndevices=0
	free0=$(mem_free_kib)
	for i in 1 2 3; do
		# Under I/O: fio sees errors and stops; the disk goes.
		d=$(cfg_disk busy size=$((64 << 20)))
		fio --name=io --filename="/dev/$d" --rw=randrw --bs=4k --direct=1 \
			--ioengine=psync --numjobs=2 --time_based --runtime=60 \
			--output=/dev/null >/dev/null 2>&1 &
		pid=$!
		sleep 2
		if [ $((i % 2)) = 1 ]; then
			cfg_set busy power 0
			rmdir "$SBD_CONFIGFS/busy"
		else
			rmdir "$SBD_CONFIGFS/busy"
		fi
		if wait $pid; then
			fail "round $i: fio succeeded on a removed disk"
		fi
		[ ! -e "/sys/block/$d" ] || fail "round $i: /sys/block/$d still there"
		echo "ok: round $i: removed under fio, fio stopped with an error"

		# Mounted, with a writer: the filesystem sees I/O errors.
		d=$(cfg_disk mounted size=$((64 << 20)))
		mkfs.ext4 -q -F "/dev/$d"
		mount_fs "/dev/$d"
		dd if=/dev/zero of="$SBD_MNT/file" bs=64k count=4000 oflag=direct 2>/dev/null &
		pid=$!
		sleep 1
		rmdir "$SBD_CONFIGFS/mounted"
		wait $pid || true
		umount "$SBD_MNT" 2>/dev/null || umount -l "$SBD_MNT"
		[ ! -e "/sys/block/$d" ] || fail "round $i: /sys/block/$d still there"
		echo "ok: round $i: removed while mounted"

		# Open: reads fail after removal; the memory goes at close.
		d=$(cfg_disk open size=$((64 << 20)))
		dd if=/dev/urandom of="/dev/$d" bs=1M count=16 oflag=direct status=none
		exec 3<"/dev/$d"
		rmdir "$SBD_CONFIGFS/open"
		# An error or end of file (the capacity is now 0): no data.
		expect_eq "round $i: bytes read from the removed disk" \
			"$({ dd bs=4k count=1 iflag=direct status=none <&3 2>/dev/null || true; } | wc -c)" 0
		exec 3<&-
		echo "ok: round $i: removed while open"
	done
	free1=$(mem_free_kib)
	expect_range "KiB not returned after three rounds" $((free0 - free1)) -131072 8192
	sbd_unload
}
