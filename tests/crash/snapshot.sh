DESCRIPTION="snapshot and restore: a restore brings back the snapshot's contents, costs the pages written since (not the disk's size), is refused while the disk is open; snapshots stack; the disk's size is fixed while it has one"

requires() {
	require_features snapshot restore log_limit
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d a=/tmp/sbd-a b=/tmp/sbd-b c=/tmp/sbd-c sum_a sum_b inval="Invalid argument"

	sbd_setup
	d=$(cfg_disk s size=$((1 << 30)))
	expect_eq "snapshot of a new disk" "$(cfg_get s snapshot)" 0
	cfg_refused_wo s restore 1 "$inval" "restore is refused: the disk has no snapshot"
	expect_eq "snapshot=0" "$(cfg_write s snapshot 0)" "$inval"

	# 64 MiB of A: the baseline.
	make_pattern $a 65536
	sum_a=$(file_sum $a)
	put $a "/dev/$d" 0
	expect_eq "pages before the snapshot" "$(sbd_stat "$d" nr_pages)" 16384
	cfg_set s snapshot 1
	expect_eq "snapshot" "$(cfg_get s snapshot)" 1
	expect_eq "pages of the disk's own after it" "$(sbd_stat "$d" nr_pages)" 0
	expect_eq "snapshot_pages" "$(sbd_stat "$d" snapshot_pages)" 16384
	expect_eq "the baseline reads back" "$(dev_sum "/dev/$d" 0 $((64 << 20)))" "$sum_a"

	# Since: 1 MiB over A (copied up), 1 MiB past it, 1 MiB of A discarded.
	make_pattern $b 1024
	sum_b=$(file_sum $b)
	put $b "/dev/$d" 4096
	put $b "/dev/$d" $((512 << 10))
	expect_eq "discard 1 MiB of A" "$(dio "/dev/$d" d:8m:1m)" ok
	expect_eq "new data reads back" "$(dev_sum "/dev/$d" $((4 << 20)) $((1 << 20)))" "$sum_b"
	expect_eq "discarded part reads zeros" "$(dev_sum "/dev/$d" $((8 << 20)) $((1 << 20)))" "$(zeros_sum $((1 << 20)))"
	expect_eq "pages of the disk's own: 2 MiB written" "$(sbd_stat "$d" nr_pages)" 512
	expect_eq "snapshot_pages unchanged" "$(sbd_stat "$d" snapshot_pages)" 16384

	# Open: refused, nothing changes.
	exec 3<"/dev/$d"
	cfg_refused_wo s restore 1 "Device or resource busy" "restore is refused: the disk is open"
	exec 3<&-
	expect_eq "new data still there" "$(dev_sum "/dev/$d" $((4 << 20)) $((1 << 20)))" "$sum_b"

	cfg_set s restore 1
	# 256 pages copied up, 256 new, 256 holes: what was done since, not 1 GiB.
	expect_eq "restore_pages" "$(sbd_stat "$d" restore_pages)" 768
	expect_eq "pages of the disk's own after restore" "$(sbd_stat "$d" nr_pages)" 0
	expect_eq "A again" "$(dev_sum "/dev/$d" 0 $((64 << 20)))" "$sum_a"
	expect_eq "past A: zeros again" "$(dev_sum "/dev/$d" $((512 << 20)) $((1 << 20)))" "$(zeros_sum $((1 << 20)))"

	# Restore again and again: each costs what was written since.
	dd if=$b of="/dev/$d" bs=4k count=16 oflag=direct conv=notrunc status=none
	cfg_set s restore 1
	expect_eq "restore_pages after 64 KiB" "$(sbd_stat "$d" restore_pages)" 16
	cfg_set s restore 1
	expect_eq "restore_pages with nothing written" "$(sbd_stat "$d" restore_pages)" 0

	# The size is the snapshot's.
	cfg_refused s size $((2 << 30)) "Device or resource busy" "size cannot change while the disk has a snapshot"

	# A snapshot on the snapshot: B at 0 becomes the new baseline.
	put $b "/dev/$d" 0
	cfg_set s snapshot 1
	expect_eq "snapshot_pages, two layers" "$(sbd_stat "$d" snapshot_pages)" $((16384 + 256))
	make_pattern $c 64
	put $c "/dev/$d" 0
	cfg_set s restore 1
	expect_eq "B at 0 after restoring the second snapshot" "$(dev_sum "/dev/$d" 0 $((1 << 20)))" "$sum_b"
	expect_eq "A after it" "$(dev_sum "/dev/$d" $((1 << 20)) $((63 << 20)))" \
		"$(tail -c $((63 << 20)) $a | sha256sum | cut -d' ' -f1)"

	# Kept over a power cycle; rmdir gives everything back (sbd_teardown).
	cfg_set s power 0
	d=$(cfg_disk_on s)
	expect_eq "snapshot after a power cycle" "$(cfg_get s snapshot)" 1
	expect_eq "contents after a power cycle" "$(dev_sum "/dev/$d" 0 $((1 << 20)))" "$sum_b"

	# With the write cache, the snapshot is of what a flush would leave.
	d=$(cfg_disk w size=$((16 << 20)) cache=1)
	put $b "/dev/$d" 0
	expect_eq "volatile blocks before the snapshot" "$(sbd_stat "$d" volatile_blocks)" 2048
	cfg_set w snapshot 1
	expect_eq "volatile blocks after it" "$(sbd_stat "$d" volatile_blocks)" 0
	put $c "/dev/$d" 0
	power_cut w
	power_restore w
	expect_eq "a cut goes back to the snapshot's data" "$(dev_sum "/dev/$d" 0 $((1 << 20)))" "$sum_b"
}
