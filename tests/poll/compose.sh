DESCRIPTION="polled I/O with the test device: error rules fail polled requests, read_only refuses polled writes while polled reads go on, latency delays them until polled after their time, a shrink drains them; power off, rmdir and a power cut with polled I/O in flight end it at once (errors for the submitter), no hang, no leak"

requires() {
	require_features poll_queues latency_us
	require_cmd fio
}

. "$SBD_ROOT/tests/lib/cache.sh"

out=/tmp/sbd-fio.json

# pfio DEV [FIO ARG...]: io_uring IOPOLL, 4 KiB direct I/O over 8 MiB.
pfio() {
	local dev=$1
	shift
	fio --name=poll --filename="/dev/$dev" --ioengine=io_uring --hipri \
		--direct=1 --bs=4k --size=8M --verify_state_save=0 --allow_file_create=0 \
		--output-format=json --output=$out "$@" 2>/tmp/sbd-fio.err >/dev/null
}

# inflight NAME ACTION...: polled writes at qd 32 on NAME's disk, each
# delayed 100 ms, then ACTION (a command) while they wait.  Sets ms (how
# long ACTION took) and rc (fio's exit status).
inflight() {
	local name=$1 d t0 i fiopid
	shift
	d=$(cfg_get "$name" device)
	cfg_set "$name" latency_us 100000
	pfio "$d" --rw=randwrite --iodepth=32 --time_based --runtime=30 &
	fiopid=$!
	# executed writes: fio has requests waiting on their delay
	for i in $(seq 1 100); do
		[ "$(sbd_stat "$d" writes)" -ge 64 ] && break
		sleep 0.1
	done
	[ "$(sbd_stat "$d" writes)" -ge 64 ] ||
		fail "fio did not start writing: $(sbd_stat "$d" writes) writes; $(cat /tmp/sbd-fio.err)"
	t0=$(now_ms)
	"$@"
	ms=$(($(now_ms) - t0))
	for i in $(seq 1 200); do
		kill -0 "$fiopid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$fiopid" 2>/dev/null; then
		kill -9 "$fiopid"
		fail "fio still running 20 s after: $*"
	fi
	rc=0
	wait "$fiopid" || rc=$?
	# fio must not have made a file where the device was
	[ ! -e "/dev/$d" ] || [ -b "/dev/$d" ] || fail "/dev/$d is no longer a block device"
}

test_main() {
	local d p0 n ms rc

	sbd_setup
	d=$(cfg_disk a size=$((64 << 20)) queue_mode=mq hw_queues=1 poll_queues=1)

	# An error rule fails exactly its requests; they end by polling too.
	cfg_set a errors "op=write next=3"
	p0=$(sbd_stat "$d" polled)
	pfio "$d" --rw=write --size=1M --iodepth=1 --continue_on_error=all
	expect_eq "writes failed by the rule (fio's errors)" "$(fio_json $out "j['total_err']")" 3
	expect_eq "polled completions, the failed ones too" "$(stat_delta "$d" polled "$p0")" 256
	cfg_set a errors clear

	# Read-only: polled reads go on, and end by polling; a polled write is
	# refused before it reaches sbd (the block layer checks a read-only
	# disk at open and in its write path), and nothing hangs.  Writable
	# again, polled writes work.
	cfg_set a read_only 1
	p0=$(sbd_stat "$d" polled)
	pfio "$d" --rw=randread --size=1M --iodepth=8 --number_ios=64 ||
		fail "polled reads on a read-only disk failed: $(cat /tmp/sbd-fio.err)"
	expect_eq "polled reads on the read-only disk" "$(stat_delta "$d" polled "$p0")" 64
	n=$(sbd_stat "$d" writes)
	! pfio "$d" --rw=write --size=64k --iodepth=4 ||
		fail "a polled write to a read-only disk succeeded"
	expect_eq "writes that reached sbd while read-only" "$(stat_delta "$d" writes "$n")" 0
	cfg_set a read_only 0
	pfio "$d" --rw=write --size=64k --iodepth=4 ||
		fail "polled writes after read_only=0 failed: $(cat /tmp/sbd-fio.err)"
	echo "ok: read_only=1 refuses polled writes, polled reads go on; read_only=0 writes again"


	# A delayed polled request ends when polled after its time.
	cfg_set a latency_us 20000
	p0=$(sbd_stat "$d" polled)
	pfio "$d" --rw=randread --iodepth=1 --number_ios=25
	# lat: from fio's submission, which runs queue_rq and starts the delay
	n=$(fio_json $out "j['read']['lat_ns']['min']")
	echo "latency_us=20000: fastest polled read took $((n / 1000)) us"
	[ "$n" -ge 20000000 ] || fail "a polled read completed in $n ns, before its 20 ms"
	expect_eq "delayed reads completed by polling" "$(stat_delta "$d" polled "$p0")" 25
	cfg_set a latency_us 0

	# A shrink and a grow under polled I/O with verify: the drain ends what
	# waits for a poll; fio goes on.
	pfio "$d" --rw=randrw --iodepth=16 --time_based --runtime=5 \
		--verify=crc32c --verify_fatal=1 &
	local fiopid=$!
	sleep 1.5
	cfg_set a size $((32 << 20))
	sleep 0.5
	cfg_set a size $((64 << 20))
	wait "$fiopid" || fail "fio under a shrink failed: $(tail -n 5 $out)"
	echo "ok: shrink and grow under polled, verified I/O"

	# Power off with polled writes waiting on their delay.
	inflight a cfg_set a power 0
	echo "power off with polled writes in flight: $ms ms, fio exit $rc"
	expect_range "power off, ms" "$ms" 0 2400
	[ "$rc" != 0 ] || fail "fio saw no error from a disk powered off under it"

	# rmdir, the same.
	cfg_set a latency_us 0
	d=$(cfg_disk_on a)
	inflight a rmdir "$SBD_CONFIGFS/a"
	echo "rmdir with polled writes in flight: $ms ms, fio exit $rc"
	expect_range "rmdir, ms" "$ms" 0 2400
	[ "$rc" != 0 ] || fail "fio saw no error from a disk removed under it"

	# A power cut with the write cache: pending polled writes fail with
	# EIO at once; after power returns polled I/O works again.
	d=$(cfg_disk c size=$((64 << 20)) queue_mode=mq hw_queues=1 poll_queues=1 cache=1)
	inflight c cfg_set c power_cut 1
	echo "power cut with polled writes in flight: $ms ms, fio exit $rc"
	expect_range "power cut, ms" "$ms" 0 2400
	[ "$rc" != 0 ] || fail "fio saw no error from a power cut"
	expect_eq "fio's error (errno)" "$(fio_json $out "j['error']")" 5
	cfg_set c power_cut 0
	cfg_set c latency_us 0
	p0=$(sbd_stat "$d" polled)
	pfio "$d" --rw=randwrite --iodepth=16 --verify=crc32c --verify_fatal=1 ||
		fail "polled I/O after the power returned failed"
	[ "$(stat_delta "$d" polled "$p0")" -gt 0 ] || fail "nothing polled after the power returned"
	echo "ok: polled I/O works after the power returns"
}
