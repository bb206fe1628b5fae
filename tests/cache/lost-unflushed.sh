DESCRIPTION="write cache: an unflushed write reads back at once but is lost at a power cut, to the block; the cut disk fails every request with EIO until power is back"

requires() {
	require_features cache power_cut
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d a=/tmp/sbd-a b=/tmp/sbd-b c=/tmp/sbd-c sum_a zero4k

	sbd_setup
	d=$(cfg_disk c size=$((64 << 20)) cache=1)
	zero4k=$(zeros_sum 4096)

	# 64 KiB of A, flushed: durable.
	make_pattern $a 64
	sum_a=$(file_sum $a)
	put $a "/dev/$d" 0
	expect_eq "volatile blocks after 64 KiB unflushed" "$(sbd_stat "$d" volatile_blocks)" 128
	expect_eq "fsync of the disk" "$(dio "/dev/$d" f)" ok
	expect_eq "flushes" "$(sbd_stat "$d" flushes)" 1
	expect_eq "volatile blocks after the flush" "$(sbd_stat "$d" volatile_blocks)" 0

	# Over its first 16 KiB: B, then C; and one 512-byte block at 1 MiB + 1536.
	make_pattern $b 16
	make_pattern $c 16
	put $b "/dev/$d" 0
	put $c "/dev/$d" 0
	expect_eq "volatile blocks: 16 KiB written twice counts once" "$(sbd_stat "$d" volatile_blocks)" 32
	expect_eq "one 512-byte write" "$(dio "/dev/$d" w:$((1048576 + 1536)):512:0x5a)" ok
	expect_eq "volatile blocks" "$(sbd_stat "$d" volatile_blocks)" 33
	# Reads see the newest data while it is volatile.
	expect_eq "newest data reads back" "$(dev_sum "/dev/$d" 0 16384)" "$(file_sum $c)"
	expect_eq "512-byte block reads back" \
		"$(dev_sum "/dev/$d" $((1048576 + 1536)) 512)" \
		"$(head -c 512 /dev/zero | tr '\0' '\132' | sha256sum | cut -d' ' -f1)"
	expect_eq "its page around it still zeros" "$(dev_sum "/dev/$d" 1048576 1536)" "$(zeros_sum 1536)"

	power_cut c
	expect_eq "power_cuts" "$(sbd_stat "$d" power_cuts)" 1
	expect_eq "lost_blocks" "$(sbd_stat "$d" lost_blocks)" 33
	expect_eq "volatile blocks after the cut" "$(sbd_stat "$d" volatile_blocks)" 0
	# Off: reads too, flushes too.
	expect_eq "read, write, flush, discard while cut" \
		"$(dio "/dev/$d" r:0:4k w:8192:4k f d:1m:4k z:2m:4k)" "EIO EIO EIO EIO EIO"
	! dd if="/dev/$d" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null ||
		fail "dd read succeeded while the power is cut"
	echo "ok: dd read fails while cut"

	power_restore c
	expect_eq "first 64 KiB: A again" "$(dev_sum "/dev/$d" 0 65536)" "$sum_a"
	expect_eq "the 512-byte block's page: zeros again" "$(dev_sum "/dev/$d" 1048576 4096)" "$zero4k"
	expect_eq "lost_blocks after restore" "$(sbd_stat "$d" lost_blocks)" 33
	expect_eq "write after restore" "$(dio "/dev/$d" w:8192:4k r:8192:4k)" "ok ok"

	# Flushed first, nothing is lost; lost_blocks is per cut.
	expect_eq "flush" "$(dio "/dev/$d" f)" ok
	power_cut c
	expect_eq "lost_blocks of a cut after a flush" "$(sbd_stat "$d" lost_blocks)" 0
	expect_eq "power_cuts" "$(sbd_stat "$d" power_cuts)" 2
	power_restore c
	expect_eq "flushed block kept" "$(dev_sum "/dev/$d" 8192 4096)" \
		"$(head -c 4096 /dev/zero | tr '\0' '\245' | sha256sum | cut -d' ' -f1)"

	# 4096-byte logical blocks are lost whole, counted in blocks.
	d=$(cfg_disk big size=$((16 << 20)) cache=1 logical_block_size=4096)
	expect_eq "three 4 KiB writes" "$(dio "/dev/$d" w:+4k:4k*3)" "ok ok ok"
	expect_eq "volatile 4 KiB blocks" "$(sbd_stat "$d" volatile_blocks)" 3
	power_cut big
	expect_eq "lost 4 KiB blocks" "$(sbd_stat "$d" lost_blocks)" 3
	power_restore big
	expect_eq "4 KiB blocks back to zeros" "$(dev_sum "/dev/$d" 0 12288)" "$(zeros_sum 12288)"
}
