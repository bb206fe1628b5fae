DESCRIPTION="errors prob=P: about P% of matching requests fail (binomial bounds); the same seed gives the same failures again, another seed others; prob=0 and 100 exact"

requires() {
	require_features errors seed
}

. "$SBD_ROOT/tests/lib/cache.sh"

# run NAME SEED RULE N: a new disk with SEED and RULE; prints the results of
# N 4 KiB writes.
run() {
	local d r
	d=$(cfg_disk "$1" size=$((16 << 20)) seed="$2")
	cfg_set "$1" errors "$3"
	r=$(dio "/dev/$d" w:+4k:4k*"$4")
	expect_eq "$1: hits = failures" "$(rule_field "$1" 0 hits)" "$(count EIO "$r")" >&2
	expect_eq "$1: errors_injected = failures" "$(sbd_stat "$d" errors_injected)" "$(count EIO "$r")" >&2
	rmdir "$SBD_CONFIGFS/$1"
	echo "$r"
}

test_main() {
	local r1 r2 r3 n1 n3

	sbd_setup
	r1=$(run p1 12345 "op=write prob=25" 400)
	n1=$(count EIO "$r1")
	# Binomial(400, 0.25): mean 100, sd 8.7; these bounds are 4.6 sd away.
	expect_range "failures of 400 at prob=25" "$n1" 60 140
	r2=$(run p2 12345 "op=write prob=25" 400)
	expect_eq "same seed: same requests failed" "$r2" "$r1"
	r3=$(run p3 54321 "op=write prob=25" 400)
	n3=$(count EIO "$r3")
	expect_range "failures of 400 at prob=25, seed 54321" "$n3" 60 140
	[ "$r3" != "$r1" ] || fail "seeds 12345 and 54321 failed the same requests"
	echo "ok: another seed, other requests"

	r2=$(run p4 1 "op=write prob=0" 100)
	expect_eq "prob=0: failures" "$(count EIO "$r2")" 0
	r2=$(run p5 1 "op=write prob=100" 50)
	expect_eq "prob=100: failures" "$(count EIO "$r2")" 50
	# Reads do not draw: the same writes fail with reads in between.
	local d r
	d=$(cfg_disk p6 size=$((16 << 20)) seed=12345)
	cfg_set p6 errors "op=write prob=25"
	r=$(dio "/dev/$d" r:0:4k*7 w:+4k:4k*400)
	expect_eq "reads in front change nothing" "${r#ok ok ok ok ok ok ok }" "$r1"
}
