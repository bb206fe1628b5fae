DESCRIPTION="cache=1 advertises a write-back cache with FUA, cache=0 write through; cache is fixed while powered; the test-device attributes and counters start off"

requires() {
	require_features cache ignore_flush power_cut power_cut_keep seed
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d a s inval="Invalid argument" busy="Device or resource busy"

	sbd_setup
	mkdir "$SBD_CONFIGFS/c"
	for a in cache ignore_flush power_cut power_cut_keep seed; do
		expect_eq "$a of a new disk" "$(cfg_get c "$a")" 0
	done
	expect_eq "cache=2" "$(cfg_write c cache 2)" "$inval"
	expect_eq "power_cut_keep=101" "$(cfg_write c power_cut_keep 101)" "$inval"
	expect_eq "ignore_flush=2" "$(cfg_write c ignore_flush 2)" "$inval"
	expect_eq "power_cut=2" "$(cfg_write c power_cut 2)" "$inval"
	expect_eq "seed=-1" "$(cfg_write c seed -1)" "$inval"
	cfg_set c seed 18446744073709551615
	expect_eq "seed = 2^64-1" "$(cfg_get c seed)" 18446744073709551615

	cfg_set c size $((16 << 20))
	d=$(cfg_disk_on c)
	expect_eq "cache=0: queue/write_cache" "$(sysfs_q "$d" write_cache)" "write through"
	expect_eq "cache=0: queue/fua" "$(sysfs_q "$d" fua)" 0
	for s in fua_writes power_cuts lost_blocks volatile_blocks errors_injected; do
		expect_eq "$s of a new disk" "$(sbd_stat "$d" "$s")" 0
	done
	expect_eq "cache=1 while powered" "$(cfg_write c cache 1)" "$busy"
	expect_eq "cache after the refused write" "$(cfg_get c cache)" 0

	cfg_set c power 0
	cfg_set c cache 1
	d=$(cfg_disk_on c)
	expect_eq "cache=1: queue/write_cache" "$(sysfs_q "$d" write_cache)" "write back"
	expect_eq "cache=1: queue/fua" "$(sysfs_q "$d" fua)" 1
	expect_eq "cache=0 while powered" "$(cfg_write c cache 0)" "$busy"
	expect_eq "cache reads back" "$(cfg_get c cache)" 1
	# These may change at any time.
	cfg_set c ignore_flush 1
	expect_eq "ignore_flush while powered" "$(cfg_get c ignore_flush)" 1
	cfg_set c ignore_flush 0
	cfg_set c power_cut_keep 100
	expect_eq "power_cut_keep while powered" "$(cfg_get c power_cut_keep)" 100
}
