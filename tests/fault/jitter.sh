DESCRIPTION="latency_jitter_us: completions spread uniformly over [latency, latency + jitter]: never earlier, wide spread, mean in the middle"

requires() {
	require_features latency_us latency_jitter_us
	require_cmd fio
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d out=/tmp/sbd-fio.json min mean max sd base

	sbd_setup
	d=$(cfg_disk j size=$((16 << 20)))
	fio --name=base --filename="/dev/$d" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--size=8M --io_size=400k --output-format=json --output=$out >/dev/null
	base=$(fio_json $out "j['read']['clat_ns']['mean'] / 1000")

	cfg_set j latency_us 1000
	cfg_set j latency_jitter_us 4000
	fio --name=jitter --filename="/dev/$d" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--size=8M --io_size=1200k --output-format=json --output=$out >/dev/null
	read -r min mean max sd <<<"$(fio_json $out \
		"' '.join(str(int(j['read']['clat_ns'][s] / 1000)) for s in ('min', 'mean', 'max', 'stddev'))")"
	echo "baseline mean $base us; latency 1000 + jitter 4000, 300 reads: min $min mean $mean max $max stddev $sd us"
	expect_range "min clat, us" "$min" 1000 2000
	# 300 draws of uniform[0, 4000]: the spread is nearly all of it.
	expect_range "max - min, us" $((max - min)) 3000 20000
	# Uniform: sd 1155 us; the mean of 300 within 3000 +- 200 us.
	expect_range "stddev, us" "$sd" 800 2500
	expect_range "mean - baseline, us" $((mean - base)) 2600 4500
}
