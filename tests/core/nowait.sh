DESCRIPTION="a bio-mode disk advertises REQ_NOWAIT and honours it: RWF_NOWAIT O_DIRECT reads and writes, first writes and cached ones too, complete with the right data"

requires() {
	require_cmd python3
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d name pat=/tmp/sbd-pat

	sbd_setup
	fill_file $pat 256 17	# 0x11, as the writes below
	for name in plain cached; do
		if [ $name = plain ]; then
			d=$(cfg_disk $name queue_mode=bio size=$((16 << 20)))
		else
			d=$(cfg_disk $name queue_mode=bio size=$((16 << 20)) cache=1)
		fi
		if [ -e "/sys/block/$d/queue/nowait" ]; then
			expect_eq "$name: queue/nowait" "$(sysfs_q "$d" nowait)" 1
		fi
		# Fresh pages (an allocation that must not wait), then rewrites.
		expect_eq "$name: RWF_NOWAIT writes" \
			"$(dio "/dev/$d" "N:+64k:64k:0x11*4" "N:0:256k:0x11")" "ok ok ok ok ok"
		expect_eq "$name: RWF_NOWAIT reads" "$(dio "/dev/$d" "n:+64k:64k*4")" "ok ok ok ok"
		expect_eq "$name: data" "$(dev_sum "/dev/$d" 0 $((256 << 10)))" "$(file_sum $pat)"
		expect_eq "$name: pages" "$(sbd_stat "$d" nr_pages)" 64
	done
}
