DESCRIPTION="bandwidth_mbps=20: 1 MiB sequential reads, writes and a mix complete at 14-21 MB/s, at queue depth 1 and 4; unlimited again at 0"

requires() {
	require_features bandwidth_mbps
	require_cmd fio
}

. "$SBD_ROOT/tests/lib/cache.sh"

# bw sbdN FIO-ARGS...: total bytes per second (reads plus writes) of 32 MiB.
bw() {
	local out=/tmp/sbd-fio.json d=$1
	shift
	fio --name=bw --filename="/dev/$d" --bs=1M --direct=1 --size=32M \
		--output-format=json --output=$out "$@" >/dev/null || fail "fio $* failed"
	fio_json $out "j['read']['bw_bytes'] + j['write']['bw_bytes']"
}

test_main() {
	local d base r

	sbd_setup
	d=$(cfg_disk b size=$((64 << 20)))
	dd if=/dev/urandom of="/dev/$d" bs=1M count=32 oflag=direct status=none
	base=$(bw "$d" --rw=read --ioengine=psync)
	echo "unlimited: $((base / 1000000)) MB/s"
	[ "$base" -gt 40000000 ] || skip "this guest reads only $((base / 1000000)) MB/s unlimited"

	cfg_set b bandwidth_mbps 20
	r=$(bw "$d" --rw=read --ioengine=psync)
	expect_range "read, qd 1: bytes/s" "$r" 14000000 21000000
	r=$(bw "$d" --rw=write --ioengine=psync)
	expect_range "write, qd 1: bytes/s" "$r" 14000000 21000000
	r=$(bw "$d" --rw=read --ioengine=libaio --iodepth=4)
	expect_range "read, qd 4: bytes/s" "$r" 14000000 21000000
	r=$(bw "$d" --rw=rw --ioengine=libaio --iodepth=4)
	expect_range "read+write mix, qd 4: bytes/s" "$r" 14000000 21000000

	cfg_set b bandwidth_mbps 0
	r=$(bw "$d" --rw=read --ioengine=psync)
	expect_range "unlimited again: bytes/s" "$r" 40000000 100000000000
}
