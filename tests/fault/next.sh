DESCRIPTION="errors next=N: exactly the next N matching requests fail, in order, then the rule is spent; other operations pass; hits and errors_injected exact"

requires() {
	require_features errors
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d r

	sbd_setup
	d=$(cfg_disk e size=$((16 << 20)))
	cfg_set e errors "op=write next=3"
	expect_eq "rule listed" "$(cfg_get e errors)" "0 op=write$(unranged "$d") next=3 error=ioerr hits=0"
	expect_eq "reads pass" "$(dio "/dev/$d" r:+4k:4k*4)" "ok ok ok ok"
	r=$(dio "/dev/$d" w:+4k:4k*10)
	expect_eq "10 writes" "$r" "EIO EIO EIO ok ok ok ok ok ok ok"
	expect_eq "hits" "$(rule_field e 0 hits)" 3
	expect_eq "errors_injected" "$(sbd_stat "$d" errors_injected)" 3
	# The three failed writes left their blocks as they were: zeros.
	expect_eq "blocks of failed writes" "$(dev_sum "/dev/$d" 0 12288)" "$(zeros_sum 12288)"
	expect_eq "spent: 5 more writes" "$(dio "/dev/$d" w:+4k:4k*5)" "ok ok ok ok ok"
	expect_eq "hits after" "$(rule_field e 0 hits)" 3

	cfg_set e errors "op=read next=2"
	expect_eq "reads with a second rule" "$(dio "/dev/$d" r:+4k:4k*4)" "EIO EIO ok ok"
	expect_eq "second rule hits" "$(rule_field e 1 hits)" 2
	expect_eq "errors_injected" "$(sbd_stat "$d" errors_injected)" 5
	cfg_set e errors clear
	expect_eq "listing after clear" "$(cfg_get e errors)" ""
}
