DESCRIPTION="errors attribute: rules listed with their hits, a bad rule fails EINVAL with one message naming it, at most 16 rules (ENOSPC), clear empties"

requires() {
	require_features errors
}

. "$SBD_ROOT/tests/lib/cache.sh"

# bad RULE: the write fails EINVAL and logs one line naming the rule.
bad() {
	dmesg -C
	expect_eq "rule '$1'" "$(cfg_write e errors "$1")" "Invalid argument"
	expect_eq "messages for '$1'" "$(dmesg | grep -cF "e: errors rule '$1' is invalid")" 1
}

test_main() {
	local d i all

	sbd_setup
	d=$(cfg_disk e size=$((16 << 20)))
	all=$(unranged "$d")
	expect_eq "no rules" "$(cfg_get e errors)" ""
	for r in "op=frob" "op=read,frob" "op=" "sector=10-5" "sector=abc" "sector=5" \
		 "sector=1-x" "next=abc" "every=0" "prob=101" "prob=-1" "error=bogus" \
		 "color=red" "next=1 every=2" "every=2 prob=5" "op=read sector"; do
		bad "$r"
	done
	expect_eq "after bad rules" "$(cfg_get e errors)" ""

	cfg_set e errors "op=write sector=8-15 next=3 error=medium"
	cfg_set e errors "op=read every=4 error=nospc"
	cfg_set e errors "prob=0 error=timeout"
	cfg_set e errors "op=discard,write_zeroes"
	cfg_set e errors "  op=flush   error=protection  "
	expect_eq "listing" "$(cfg_get e errors)" "0 op=write sector=8-15 next=3 error=medium hits=0
1 op=read$all every=4 error=nospc hits=0
2 op=any$all prob=0 error=timeout hits=0
3 op=discard,write_zeroes$all always error=ioerr hits=0
4 op=flush$all always error=protection hits=0"
	expect_eq "I/O" "$(dio "/dev/$d" w:4096:4k w:4096:4k w:0:512 w:4096:4k w:8192:4k)" \
		"ENODATA ENODATA ok ENODATA ok"
	expect_eq "rule 0 hits" "$(rule_field e 0 hits)" 3
	cfg_set e errors clear
	expect_eq "after clear" "$(cfg_get e errors)" ""

	for i in $(seq 0 15); do
		cfg_set e errors "op=read sector=$((i * 8))-$((i * 8 + 7))"
	done
	dmesg -C
	expect_eq "17th rule" "$(cfg_write e errors "op=write")" "No space left on device"
	dmesg | grep -q "e: errors rule 'op=write' refused" || fail "no message for the 17th rule: $(dmesg | tail -n 2)"
	expect_eq "rules listed" "$(cfg_get e errors | wc -l)" 16
	expect_eq "rule 15" "$(cfg_get e errors | tail -n 1)" "15 op=read sector=120-127 always error=ioerr hits=0"
	expect_eq "each rule its range" "$(dio "/dev/$d" r:+4k:4k*17)" \
		"EIO EIO EIO EIO EIO EIO EIO EIO EIO EIO EIO EIO EIO EIO EIO EIO ok"
	cfg_set e errors clear
	cfg_set e errors "op=write"
	expect_eq "rules after clear and one more" "$(cfg_get e errors | wc -l)" 1
	cfg_set e errors clear
	expect_eq "I/O after clear" "$(dio "/dev/$d" r:0:4k w:0:4k)" "ok ok"
}
