DESCRIPTION="errors op=: a rule fails only the operations it names (read, write, flush, discard, write_zeroes, lists, any); a flush matches only rules without a sector range"

requires() {
	require_features errors cache
}

. "$SBD_ROOT/tests/lib/cache.sh"

# with RULE EXPECTED: one rule alone; read, write, flush, discard and
# write-zeroes, one request each, must give EXPECTED.
with() {
	local e0
	cfg_set e errors clear
	cfg_set e errors "$1"
	e0=$(sbd_stat "$D" errors_injected)
	expect_eq "$1: read write flush discard write-zeroes" \
		"$(dio "/dev/$D" r:0:4k w:0:4k f d:64k:4k z:128k:4k)" "$2"
	expect_eq "$1: errors_injected" "$(stat_delta "$D" errors_injected "$e0")" "$(count EIO "$2")"
	expect_eq "$1: hits" "$(rule_field e 0 hits)" "$(count EIO "$2")"
}

test_main() {
	sbd_setup
	# A write cache, so that flushes reach the disk.
	D=$(cfg_disk e size=$((16 << 20)) cache=1)
	expect_eq "no rule" "$(dio "/dev/$D" r:0:4k w:0:4k f d:64k:4k z:128k:4k)" "ok ok ok ok ok"
	with "op=read"			"EIO ok ok ok ok"
	with "op=write"			"ok EIO ok ok ok"
	with "op=flush"			"ok ok EIO ok ok"
	with "op=discard"		"ok ok ok EIO ok"
	with "op=write_zeroes"		"ok ok ok ok EIO"
	with "op=write,discard"		"ok EIO ok EIO ok"
	with "op=read,flush,write_zeroes" "EIO ok EIO ok EIO"
	with "op=any"			"EIO EIO EIO EIO EIO"
	with "next=1000"		"EIO EIO EIO EIO EIO"
	# With a range, flushes never match, even over the whole disk.
	with "op=flush sector=0-32767"	"ok ok ok ok ok"
	with "op=any sector=0-32767"	"EIO EIO ok EIO EIO"
	with "op=any sector=0-7"	"EIO EIO ok ok ok"
	with "sector=128-135"		"ok ok ok EIO ok"
}
