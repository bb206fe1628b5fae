DESCRIPTION="latency_us=2000: every read and write completes at least 2 ms after it was issued, and on average within a few ms of that (fio, psync, qd 1)"

requires() {
	require_features latency_us
	require_cmd fio
}

. "$SBD_ROOT/tests/lib/cache.sh"

# clat sbdN RW: runs 200 4 KiB O_DIRECT requests at qd 1; prints
# "MIN MEAN MAX STDDEV" completion latency in microseconds.
clat() {
	local out=/tmp/sbd-fio.json k=${2/rand/}
	fio --name=lat --filename="/dev/$1" --rw="$2" --bs=4k --direct=1 \
		--ioengine=psync --size=8M --io_size=800k --output-format=json \
		--output=$out >/dev/null || fail "fio $2 failed"
	fio_json $out "' '.join(str(int(j['$k']['clat_ns'][s] / 1000)) for s in ('min', 'mean', 'max', 'stddev'))"
}

test_main() {
	local d min mean max sd base_r base_w

	sbd_setup
	d=$(cfg_disk l size=$((16 << 20)))
	read -r _ base_r _ _ <<<"$(clat "$d" randread)"
	read -r _ base_w _ _ <<<"$(clat "$d" randwrite)"
	echo "baseline mean clat: read $base_r us, write $base_w us"

	cfg_set l latency_us 2000
	expect_eq "latency_us reads back" "$(cfg_get l latency_us)" 2000
	read -r min mean max sd <<<"$(clat "$d" randread)"
	echo "latency_us=2000, reads: min $min mean $mean max $max stddev $sd us"
	expect_range "read: min clat, us" "$min" 2000 100000
	expect_range "read: mean clat - baseline, us" $((mean - base_r)) 1800 6000
	read -r min mean max sd <<<"$(clat "$d" randwrite)"
	echo "latency_us=2000, writes: min $min mean $mean max $max stddev $sd us"
	expect_range "write: min clat, us" "$min" 2000 100000
	expect_range "write: mean clat - baseline, us" $((mean - base_w)) 1800 6000

	# Off again: back to the baseline.
	cfg_set l latency_us 0
	read -r min mean max sd <<<"$(clat "$d" randread)"
	expect_range "read mean clat with latency_us=0, us" "$mean" 0 $((base_r + 1000))

	expect_eq "latency_us=10000001" "$(cfg_write l latency_us 10000001)" "Invalid argument"
	expect_eq "latency_jitter_us=10000001" "$(cfg_write l latency_jitter_us 10000001)" "Invalid argument"
}
