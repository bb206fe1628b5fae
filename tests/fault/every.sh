DESCRIPTION="errors every=N: the Nth, 2Nth... matching requests fail, exactly floor(M/N) of M, for writes and reads"

requires() {
	require_features errors
}

. "$SBD_ROOT/tests/lib/cache.sh"

# pattern M N: the expected results of M requests under every=N.
pattern() {
	local i out=()
	for ((i = 1; i <= $1; i++)); do
		if ((i % $2 == 0)); then out+=(EIO); else out+=(ok); fi
	done
	echo "${out[*]}"
}

test_main() {
	local d r

	sbd_setup
	d=$(cfg_disk e size=$((16 << 20)))
	cfg_set e errors "op=write every=3"
	r=$(dio "/dev/$d" w:+4k:4k*20)
	expect_eq "20 writes, every=3" "$r" "$(pattern 20 3)"
	expect_eq "failed: floor(20/3)" "$(count EIO "$r")" 6
	expect_eq "hits" "$(rule_field e 0 hits)" 6
	expect_eq "reads untouched" "$(dio "/dev/$d" r:+4k:4k*6)" "$(pattern 6 7)"

	cfg_set e errors clear
	cfg_set e errors "op=read every=5 error=medium"
	r=$(dio "/dev/$d" r:+4k:4k*23)
	expect_eq "23 reads, every=5, medium" "$r" "$(pattern 23 5 | sed 's/EIO/ENODATA/g')"
	expect_eq "hits" "$(rule_field e 0 hits)" 4
	expect_eq "errors_injected" "$(sbd_stat "$d" errors_injected)" 10

	# every=1: every matching request.
	cfg_set e errors clear
	cfg_set e errors "op=write every=1"
	expect_eq "every=1" "$(dio "/dev/$d" w:+4k:4k*4)" "EIO EIO EIO EIO"
}
