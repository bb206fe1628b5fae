DESCRIPTION="errors sector=A-B: a request fails exactly when it overlaps the range (inclusive), whatever its size or alignment; discards too"

requires() {
	require_features errors
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d

	sbd_setup
	d=$(cfg_disk e size=$((16 << 20)))
	# Sectors 2048-2055: the 4 KiB at 1 MiB.
	cfg_set e errors "op=write,discard sector=2048-2055"
	expect_eq "rule listed" "$(cfg_get e errors)" \
		"0 op=write,discard sector=2048-2055 always error=ioerr hits=0"
	# sectors:     2032-2039      2040-2047      2048-2055     2056-2063
	expect_eq "4 KiB writes around the range" \
		"$(dio "/dev/$d" w:1040384:4k w:1044480:4k w:1048576:4k w:1052672:4k)" "ok ok EIO ok"
	# sectors:     2053           2055           2056          2046-2047
	expect_eq "512-byte and 1 KiB writes" \
		"$(dio "/dev/$d" w:1051136:512 w:1052160:512 w:1052672:512 w:1047552:1k)" "EIO EIO ok ok"
	# sectors:     2046-2049      2032-2159       2047 only    2055-2056
	expect_eq "writes overlapping an edge or the whole range" \
		"$(dio "/dev/$d" w:1047552:2k w:1040384:64k w:1047552:512 w:1052160:1k)" "EIO EIO ok EIO"
	expect_eq "reads of the range pass" "$(dio "/dev/$d" r:1048576:4k r:1040384:64k)" "ok ok"
	expect_eq "discards" "$(dio "/dev/$d" d:1044480:4k d:1048576:4k d:1m:1m d:2m:4k)" "ok EIO EIO ok"
	expect_eq "hits: 6 writes, 2 discards" "$(rule_field e 0 hits)" 8
	expect_eq "errors_injected" "$(sbd_stat "$d" errors_injected)" 8
	# Nothing landed in the range.
	expect_eq "the range" "$(dev_sum "/dev/$d" 1048576 4096)" "$(zeros_sum 4096)"

	# Ranges at the very end of the disk, and a range past it (no request).
	cfg_set e errors clear
	cfg_set e errors "op=read sector=32767-32767"
	cfg_set e errors "op=read sector=40000-50000"
	expect_eq "reads at the end" \
		"$(dio "/dev/$d" r:$((16 * 1048576 - 4096)):4k r:$((16 * 1048576 - 8192)):4k r:$((16 * 1048576 - 512)):512)" \
		"EIO ok EIO"
	expect_eq "range past the end: hits" "$(rule_field e 1 hits)" 0
}
