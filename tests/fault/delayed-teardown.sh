DESCRIPTION="delayed completions pending at a power off, rmdir, shrink, grow or power cut: the first four end them at once with their status, a cut fails them with EIO at once, a deep bandwidth backlog too; a bio disk lets at most 128 delayed requests wait (the rest wait to be sent, as for tags); nothing hangs or leaks"

requires() {
	require_features latency_us queue_mode bandwidth_mbps
	require_cmd fio
}

. "$SBD_ROOT/tests/lib/cache.sh"

# write4k DEV I: one O_DIRECT write of 4 KiB of 0xa5 at block I; prints
# "ok", or "EIO" when it fails with that.  dd, not dio.py: a Python start
# costs seconds under TCG, and these run many at once.
write4k() {
	local out
	if out=$(dd if=/tmp/sbd-a5 of="$1" bs=4k seek="$2" count=1 oflag=direct \
		conv=notrunc status=none 2>&1); then
		echo ok
	else
		case $out in
		*"Input/output error"*) echo EIO ;;
		*) echo "$out" ;;
		esac
	fi
}

# writes DEV N: N O_DIRECT 4 KiB writes in the background, one process
# each at its own offset; results in /tmp/sbd-w.I ("ok", "EIO"...).
# Returns once the disk has executed all of them: they wait on timers.
writes() {
	local i w0 t t0
	t0=$(now_ms)
	w0=$(sbd_stat "$1" writes)
	[ -s /tmp/sbd-a5 ] || head -c 4096 /dev/zero | tr '\0' '\245' >/tmp/sbd-a5
	for i in $(seq 1 "$2"); do
		write4k "/dev/$1" "$i" >"/tmp/sbd-w.$i" 2>&1 &
	done
	for t in $(seq 1 100); do
		if [ "$(stat_delta "$1" writes "$w0")" -ge "$2" ]; then
			echo "$2 writes executed in $(($(now_ms) - t0)) ms"
			return 0
		fi
		sleep 0.1
	done
	fail "$2 writes issued, $(stat_delta "$1" writes "$w0") executed after 10 s"
}

# results N: waits for the writes and prints their results, one line.
results() {
	local i
	wait
	for i in $(seq 1 "$1"); do
		cat "/tmp/sbd-w.$i"
	done | sort | uniq -c | awk '{ print $2 "=" $1 }' | paste -sd ' '
}

# Every request of a slow disk waits this long (the most latency_us takes):
# starting 16 dd processes took over 5 s on the debug kernel under TCG,
# and no write may be answered before the teardown under test ends it.
SLOW_US=10000000

# A teardown that ends the pending requests "at once" takes less than this;
# one that waited for them would take until the last one's delay is over,
# SLOW_US after it was executed. The debug kernel under TCG needs 2.6 s for
# an rmdir of a 16 MiB disk on its own.
AT_ONCE_MS=5000

# slow_disk NAME [ATTR=VALUE...]: a disk whose every request is delayed
# SLOW_US, set once it is powered: the partition scan of power on reads it.
slow_disk() {
	local d
	d=$(cfg_disk "$@")
	cfg_set "$1" latency_us "$SLOW_US"
	echo "$d"
}

# timed NAME CMD...: runs CMD and prints how long it took, in ms.
timed() {
	local t0
	t0=$(now_ms)
	"$@" >/dev/null
	echo $(($(now_ms) - t0))
}

test_main() {
	local d ms

	sbd_setup

	# Power off with 8 writes each delayed 10 s: they end now, as written.
	d=$(slow_disk a size=$((16 << 20)))
	writes "$d" 8
	ms=$(timed cfg_set a power 0)
	expect_range "power off with 8 pending writes, ms" "$ms" 0 "$AT_ONCE_MS"
	expect_eq "the pending writes" "$(results 8)" "ok=8"

	# rmdir of a powered disk, the same.
	cfg_set a latency_us 0
	d=$(cfg_disk_on a)
	cfg_set a latency_us "$SLOW_US"
	writes "$d" 8
	ms=$(timed rmdir "$SBD_CONFIGFS/a")
	expect_range "rmdir with 8 pending writes, ms" "$ms" 0 "$AT_ONCE_MS"
	expect_eq "the pending writes" "$(results 8)" "ok=8"

	# A shrink drains the disk: the writes checked against the old size
	# end first, at once rather than when their delay is over.
	d=$(slow_disk b size=$((16 << 20)))
	writes "$d" 8
	ms=$(timed cfg_set b size $((8 << 20)))
	expect_range "shrink with 8 pending writes, ms" "$ms" 0 "$AT_ONCE_MS"
	expect_eq "the pending writes" "$(results 8)" "ok=8"
	expect_eq "size after the shrink" "$(blockdev --getsize64 "/dev/$d")" $((8 << 20))

	# A grow drains it too (what a bio that raced the shrink may have left
	# past the old end goes before the new space shows).
	writes "$d" 8
	ms=$(timed cfg_set b size $((16 << 20)))
	expect_range "grow with 8 pending writes, ms" "$ms" 0 "$AT_ONCE_MS"
	expect_eq "the pending writes" "$(results 8)" "ok=8"
	expect_eq "size after the grow" "$(blockdev --getsize64 "/dev/$d")" $((16 << 20))
	cfg_set b latency_us 0
	expect_eq "the new space reads zeros" \
		"$(dev_sum "/dev/$d" $((8 << 20)) $((8 << 20)))" "$(zeros_sum $((8 << 20)))"

	rmdir "$SBD_CONFIGFS/b"

	# With the write cache: 16 writes done but not yet answered.
	d=$(slow_disk c size=$((16 << 20)) cache=1)
	writes "$d" 16
	# A power cut fails them all at once: the disk never answered.
	ms=$(timed cfg_set c power_cut 1)
	expect_range "power cut with 16 pending writes, ms" "$ms" 0 "$AT_ONCE_MS"
	expect_eq "the pending writes" "$(results 16)" "EIO=16"
	expect_eq "lost at the cut" "$(sbd_stat "$d" lost_blocks)" 128
	cfg_set c power_cut 0
	cfg_set c latency_us 0
	expect_eq "the cut writes read back as zeros" \
		"$(dev_sum "/dev/$d" 4096 $((16 * 4096)))" "$(zeros_sum $((16 * 4096)))"
	rmdir "$SBD_CONFIGFS/c"

	# A deep bandwidth backlog: 16 writes of 1 MiB at 1 MB/s take 17 s to
	# drain; a power off ends them at once all the same.
	local fiopid w0 t
	d=$(cfg_disk bw size=$((32 << 20)) bandwidth_mbps=1)
	w0=$(sbd_stat "$d" writes)
	fio --name=backlog --filename="/dev/$d" --ioengine=libaio --direct=1 \
		--rw=write --bs=1M --iodepth=16 --size=16M --allow_file_create=0 \
		>/dev/null 2>&1 &
	fiopid=$!
	for t in $(seq 1 100); do
		[ "$(stat_delta "$d" writes "$w0")" -lt 16 ] || break
		sleep 0.1
	done
	expect_range "writes executed (16 MiB), waiting on the bandwidth" "$(stat_delta "$d" writes "$w0")" 16 64
	ms=$(timed cfg_set bw power 0)
	expect_range "power off with a 17 s bandwidth backlog, ms" "$ms" 0 "$AT_ONCE_MS"
	wait "$fiopid" || true
	rmdir "$SBD_CONFIGFS/bw"

	# The backlog is bounded: 256 writes in flight on a bio disk, each
	# delayed SLOW_US, and only 128 (give or take one per CPU) are executed
	# and wait on timers; the rest wait in submit_bio, as for a tag, and
	# all end well. The count is read well before the first timer ends
	# (a 3 s delay was too short on the debug kernel: some had ended).
	local cpus n t0
	cpus=$(nproc)
	d=$(cfg_disk q size=$((16 << 20)) queue_mode=bio)
	cfg_set q latency_us "$SLOW_US"
	w0=$(sbd_stat "$d" writes)
	t0=$(now_ms)
	fio --name=bound --filename="/dev/$d" --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=256 --number_ios=256 \
		--size=16M --allow_file_create=0 --output-format=terse \
		>/tmp/sbd-bound.fio 2>&1 &
	fiopid=$!
	for t in $(seq 1 50); do
		[ "$(stat_delta "$d" writes "$w0")" -lt 128 ] || break
		sleep 0.1
	done
	sleep 0.5
	n=$(stat_delta "$d" writes "$w0")
	echo "read the count $(($(now_ms) - t0)) ms after fio started"
	expect_range "writes executed while 256 wait $((SLOW_US / 1000000)) s each" "$n" 128 $((128 + cpus))
	wait "$fiopid" || fail "fio: $(cat /tmp/sbd-bound.fio)"
	expect_eq "writes executed in the end" "$(stat_delta "$d" writes "$w0")" 256
	rmdir "$SBD_CONFIGFS/q"
}
