DESCRIPTION="polled I/O: fio io_uring IOPOLL reads and writes with verify on poll queues, each completed by ->poll (the polled counter grows by fio's I/Os); pvsync2 --hipri works (the kernel no longer polls synchronous I/O); a disk without poll queues polls nothing (6.1 serves IOPOLL rings as usual, later kernels refuse them with EOPNOTSUPP); io_poll toggled under fio"

requires() {
	require_features poll_queues
	require_cmd fio
}

. "$SBD_ROOT/tests/lib/cache.sh"

out=/tmp/sbd-fio.json

# pfio DEV ENGINE RW [FIO ARG...]: 4 KiB direct I/O with --hipri over the
# first 8 MiB, verified with crc32c; fio's JSON in $out.
pfio() {
	local dev=$1 engine=$2 rw=$3
	shift 3
	fio --name=poll --filename="/dev/$dev" --ioengine="$engine" --hipri \
		--direct=1 --rw="$rw" --bs=4k --size=8M --iodepth=16 --allow_file_create=0 \
		--verify=crc32c --verify_fatal=1 --verify_state_save=0 \
		--output-format=json --output=$out "$@" >/dev/null || fail "fio $engine $rw on $dev failed: $(tail -n 5 $out)"
}

# fio_ios: the I/Os of the last fio run, reads (verify reads too) + writes.
fio_ios() {
	fio_json $out "j['read']['total_ios'] + j['write']['total_ios']"
}

test_main() {
	local d n p0 ios

	sbd_setup
	d=$(cfg_disk a size=$((64 << 20)) queue_mode=mq hw_queues=1 poll_queues=1)

	# io_uring with IORING_SETUP_IOPOLL: every I/O goes to the poll queue
	# and ends when fio's ring polls for it.
	for rw in randwrite write; do
		p0=$(sbd_stat "$d" polled)
		pfio "$d" io_uring "$rw"
		ios=$(fio_ios)
		n=$(stat_delta "$d" polled "$p0")
		echo "io_uring $rw + verify: $ios I/Os, $n completed by polling"
		[ "$ios" -ge 4096 ] || fail "io_uring $rw: only $ios I/Os"
		expect_eq "io_uring $rw: polled completions = fio's I/Os" "$n" "$ios"
	done

	# preadv2/pwritev2 with RWF_HIPRI: since 5.16 the kernel ignores the
	# hint for synchronous direct I/O, so these reach the ordinary queues.
	p0=$(sbd_stat "$d" polled)
	pfio "$d" pvsync2 randwrite --iodepth=1
	ios=$(fio_ios)
	expect_eq "pvsync2 --hipri: verified, $ios I/Os, polled completions" \
		"$(stat_delta "$d" polled "$p0")" 0

	# No poll queues: the same jobs work, and nothing is polled.
	cfg_set a power 0
	cfg_set a poll_queues 0
	d=$(cfg_disk_on a)
	expect_eq "no poll queues: io_poll" "$(sysfs_q "$d" io_poll)" 0
	# The counters are the disk's, kept across a power cycle.
	p0=$(sbd_stat "$d" polled)
	# An IOPOLL ring on a queue that cannot poll: 6.1 completes its I/O as
	# usual; later kernels refuse it with EOPNOTSUPP.
	if fio --name=nopoll --filename="/dev/$d" --ioengine=io_uring --hipri \
		--direct=1 --rw=randwrite --bs=4k --size=8M --iodepth=16 \
		--allow_file_create=0 --output-format=json --output=$out \
		2>/dev/null >/dev/null; then
		echo "no poll queues: io_uring --hipri served without polling"
	else
		expect_eq "no poll queues: io_uring --hipri refused, fio's errno" \
			"$(fio_json $out "j['error']")" 95
	fi
	pfio "$d" pvsync2 randwrite --iodepth=1
	expect_eq "no poll queues: polled completions" "$(stat_delta "$d" polled "$p0")" 0

	# io_poll (and io_poll_delay where the kernel has it) written while
	# fio polls: a kernel may take the change, ignore it or refuse it, but
	# the I/O goes on and verifies.
	cfg_set a power 0
	cfg_set a poll_queues 1
	d=$(cfg_disk_on a)
	p0=$(sbd_stat "$d" polled)
	fio --name=toggle --filename="/dev/$d" --ioengine=io_uring --hipri --direct=1 --allow_file_create=0 \
		--rw=randrw --bs=4k --size=8M --iodepth=8 --time_based --runtime=6 \
		--verify=crc32c --verify_fatal=1 --verify_state_save=0 --output-format=json --output=$out >/dev/null &
	local fiopid=$! i r v took=""
	for i in $(seq 1 10); do
		sleep 0.4
		for v in 0 1; do
			r=$( { echo "$v" >"/sys/block/$d/queue/io_poll"; } 2>&1) && took+="io_poll=$v:$(sysfs_q "$d" io_poll) " ||
				took+="io_poll=$v:${r##*: } "
		done
		if [ -e "/sys/block/$d/queue/io_poll_delay" ]; then
			for v in 0 -1; do
				r=$( { echo "$v" >"/sys/block/$d/queue/io_poll_delay"; } 2>&1) ||
					took+="io_poll_delay=$v:${r##*: } "
			done
		fi
	done
	wait "$fiopid" || fail "fio with io_poll toggled failed: $(tail -n 5 $out)"
	# what each write did: VALUE:what io_poll read back, or VALUE:the error
	echo "io_poll writes under fio: $(echo "$took" | tr ' ' '\n' | sed '/^$/d' | sort | uniq -c | paste -sd ',')"
	expect_eq "io_poll at the end" "$(sysfs_q "$d" io_poll)" 1
	n=$(stat_delta "$d" polled "$p0")
	ios=$(fio_ios)
	echo "toggled run: $ios I/Os verified, $n completed by polling"
	[ "$n" -gt 0 ] || fail "nothing polled during the toggled run"
	[ "$n" -le "$ios" ] || fail "more polled completions ($n) than I/Os ($ios)"
}
