DESCRIPTION="HDIO_GETGEO: 4 heads, 16 sectors, capacity/64 cylinders clamped to 65535"

requires() {
	require_helper sbd-getgeo
}

test_main() {
	local geo="$SBD_HELPERS/sbd-getgeo"

	sbd_load
	expect_eq "64 MiB disk" "$($geo /dev/sbd0)" "heads=4 sectors=16 cylinders=2048 start=0"
	sfdisk -g /dev/sbd0 | grep -q '2048 cylinders, 4 heads, 16 sectors/track' ||
		fail "sfdisk -g disagrees: $(sfdisk -g /dev/sbd0)"
	printf 'start=2048, size=8192, type=83\n' | sfdisk -q /dev/sbd0
	expect_eq "partition 1" "$($geo /dev/sbd0p1)" "heads=4 sectors=16 cylinders=2048 start=2048"
	sbd_unload

	# The geometry counts 512-byte sectors whatever the block size.
	sbd_load nsectors=16384 hardsect_size=4096
	expect_eq "64 MiB of 4 KiB blocks" "$($geo /dev/sbd0)" "heads=4 sectors=16 cylinders=2048 start=0"
	sbd_unload

	sbd_load nsectors=8589934592
	expect_eq "4 TiB disk" "$($geo /dev/sbd0)" "heads=4 sectors=16 cylinders=65535 start=0"
	sbd_unload

	sbd_load nsectors=64
	expect_eq "32 KiB disk" "$($geo /dev/sbd0)" "heads=4 sectors=16 cylinders=1 start=0"
	sbd_unload
}
