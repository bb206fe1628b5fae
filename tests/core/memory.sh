DESCRIPTION="memory: an empty 64 GiB disk costs nothing, writing N MiB costs N MiB, discard and unload give it back"

# Kernel bookkeeping (xarray nodes, module, tag sets) and background noise
# (lazy RCU frees elsewhere in the kernel) are allowed this much.
SLACK_KIB=8192

test_main() {
	local m0 m1 m2 m3 m4 m5

	m0=$(mem_free_kib)
	sbd_load nsectors=134217728
	expect_eq "size" "$(blockdev --getsize64 /dev/sbd0)" $((64 << 30))
	m1=$(mem_free_kib)
	echo "empty 64 GiB disk: $((m0 - m1)) KiB"
	expect_range "KiB used by an empty 64 GiB disk" $((m0 - m1)) -$SLACK_KIB $SLACK_KIB

	dd if=/dev/zero of=/dev/sbd0 bs=1M count=64 oflag=direct status=none
	m2=$(mem_free_kib)
	echo "after writing 64 MiB: $((m1 - m2)) KiB"
	expect_range "KiB used after writing 64 MiB" $((m1 - m2)) $((65536 - SLACK_KIB)) $((65536 + SLACK_KIB))

	# Writing the same blocks again allocates nothing more.
	dd if=/dev/zero of=/dev/sbd0 bs=1M count=64 oflag=direct status=none
	m3=$(mem_free_kib)
	expect_range "KiB used by rewriting the same 64 MiB" $((m2 - m3)) -$SLACK_KIB $SLACK_KIB

	blkdiscard /dev/sbd0
	m4=$(mem_free_kib)
	echo "after discarding: $((m4 - m3)) KiB returned"
	expect_range "KiB returned by discard" $((m4 - m3)) $((65536 - SLACK_KIB)) $((65536 + SLACK_KIB))

	dd if=/dev/zero of=/dev/sbd0 bs=1M count=32 seek=40000 oflag=direct status=none
	m5=$(mem_free_kib)
	expect_range "KiB used after writing 32 MiB at 40 GiB" $((m4 - m5)) $((32768 - SLACK_KIB)) $((32768 + SLACK_KIB))
	sbd_unload
	m5=$(mem_free_kib)
	echo "after unload: $((m0 - m5)) KiB short of the start"
	expect_range "KiB not returned after unload" $((m0 - m5)) -$SLACK_KIB $SLACK_KIB
}
