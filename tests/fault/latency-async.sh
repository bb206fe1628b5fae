DESCRIPTION="latency_us delays requests without holding the queue: 8 requests in flight complete in about the time of one (hrtimer, no sleep in queue_rq or submit_bio)"

requires() {
	require_features latency_us
	require_cmd fio
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d out=/tmp/sbd-fio.json iops1 iops8

	local one_queue=()

	sbd_setup
	# mq: one hardware queue, where a queue_rq that slept would serialise
	# everything.  bio: a submit_bio that slept would hold up its task.
	[ "$(sbd_mode)" = bio ] || one_queue=(hw_queues=1)
	d=$(cfg_disk a size=$((16 << 20)) "${one_queue[@]}" latency_us=10000)
	fio --name=qd1 --filename="/dev/$d" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
		--iodepth=1 --size=8M --runtime=2 --time_based --output-format=json --output=$out >/dev/null
	iops1=$(fio_json $out "j['read']['iops']")
	fio --name=qd8 --filename="/dev/$d" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
		--iodepth=8 --size=8M --runtime=2 --time_based --output-format=json --output=$out >/dev/null
	iops8=$(fio_json $out "j['read']['iops']")
	echo "latency 10 ms: $iops1 IOPS at qd 1, $iops8 IOPS at qd 8"
	expect_range "IOPS at qd 1" "$iops1" 50 100
	expect_range "IOPS at qd 8" "$iops8" 400 800
}
