#!/bin/bash
# The guest half of `make bench` (scripts/bench runs it through guest.sh):
# sbd, brd and null_blk (memory-backed and not) side by side in one guest,
# with the same fio jobs.  It measures, in this order:
#
#   1. memory: for sbd, brd and null_blk memory_backed=1, one disk at a time:
#      the cost of the empty disk, of writing all of it, what a discard of
#      the whole disk gives back, what the unload gives back; then the cost
#      of an empty 1 TiB disk;
#   2. speed: all four disks loaded at once, each prefilled, then every fio
#      row on every disk, ROUNDS times, the disks interleaved in each round;
#   3. optionally (BENCH_PROFILE=1) perf profiles and a few experiments.
#
# Results go to $SBD_RESULTS (guest.sh --results) as records that kernel
# messages cannot split:  "@@BEGIN KIND NAME", base64 of the gzipped data,
# "@@END KIND NAME".  KIND is json (fio output), kv (key=value lines) or
# text.  scripts/bench decodes them on the host.
#
# Environment (scripts/bench passes these through SBD_GUEST_ENV):
#   BENCH_SIZE_MIB  disk size (default 1024)     BENCH_RUNTIME  seconds per run (10)
#   BENCH_RAMP      fio ramp_time, seconds (1)   BENCH_ROUNDS   rounds (3)
#   BENCH_ROWS      fio rows to run (all)        BENCH_DEVICES  disks (all four)
#   BENCH_BIG_GIB   the "empty big disk" (1024)  BENCH_MEMORY   0 skips step 1
#   BENCH_PROFILE   1 adds step 3
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/lib/common.sh # mem_free_kib, SBD_KO

SIZE_MIB=${BENCH_SIZE_MIB:-1024}
RUNTIME=${BENCH_RUNTIME:-10}
RAMP=${BENCH_RAMP:-1}
ROUNDS=${BENCH_ROUNDS:-3}
BIG_GIB=${BENCH_BIG_GIB:-1024}
ALL_ROWS="rr4k-psync-1j rr4k-psync-2j rw4k-psync-1j rw4k-psync-2j rr4k-uring-qd32 sr1m-psync-1j sw1m-psync-1j"
ROWS=${BENCH_ROWS:-$ALL_ROWS}
ROWS=${ROWS//,/ }	# commas: SBD_GUEST_ENV splits on spaces
[ "$ROWS" = none ] && ROWS=	# only the memory step, or only step 3
DEVICES=${BENCH_DEVICES:-sbd brd nullb-mem nullb-nomem}
DEVICES=${DEVICES//,/ }
OUT=${SBD_RESULTS:-/dev/stdout}
NULLB_CFS=/sys/kernel/config/nullb
# Queue shape given to null_blk so that it matches sbd: one hardware queue
# per CPU, 128 tags each.  irqmode=0: completed inline in queue_rq, as sbd
# and brd do (null_blk's default, 1, completes in a softirq).
NR_CPUS=$(nproc)
QDEPTH=128

log() { printf 'bench-guest: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# emit KIND NAME: stdin as one record on the results channel.
emit() {
	{
		echo "@@BEGIN $1 $2"
		gzip -9c | base64 -w 76
		echo "@@END $1 $2"
	} >>"$OUT"
}

# ---- disks -----------------------------------------------------------------
declare -A DEV=()	# bench name -> /dev/... once loaded

modprobe_k() { modprobe -d "$SBD_MODDIR" "$@"; }

# nullb_create NAME SIZE_MIB MEMORY_BACKED [ATTR=VALUE...]: a null_blk disk
# through configfs; prints its /dev path.
nullb_create() {
	local name=$1 size=$2 mem=$3 d=$NULLB_CFS/$1 kv
	shift 3
	[ -d $NULLB_CFS ] || modprobe_k null_blk nr_devices=0 || die "cannot load null_blk"
	[ -d $NULLB_CFS ] || die "no $NULLB_CFS (configfs not mounted?)"
	ls /sys/block >/tmp/bench-blk.before
	mkdir "$d"
	for kv in size="$size" blocksize=512 memory_backed="$mem" irqmode=0 \
		submit_queues="$NR_CPUS" hw_queue_depth=$QDEPTH "$@"; do
		[ -e "$d/${kv%%=*}" ] || die "null_blk has no configfs attribute ${kv%%=*}"
		echo "${kv#*=}" >"$d/${kv%%=*}"
	done
	# No polled queue (6.1 adds one by default): sbd has none.
	if [ -e "$d/poll_queues" ]; then echo 0 >"$d/poll_queues"; fi
	if [ "$mem" = 1 ]; then echo 1 >"$d/discard"; fi
	echo 1 >"$d/power"
	# The new disk: the guest has no /dev/fd, so no <(...) here.
	ls /sys/block >/tmp/bench-blk.after
	comm -13 /tmp/bench-blk.before /tmp/bench-blk.after | awk 'NR == 1 { print "/dev/" $0 }'
}

nullb_destroy() {
	echo 0 >"$NULLB_CFS/$1/power"
	rmdir "$NULLB_CFS/$1"
}

# dev_load NAME SIZE_MIB [EXTRA...]: load one disk, set DEV[NAME].
dev_load() {
	local name=$1 size=$2 path
	shift 2
	case $name in
	sbd)
		insmod "$SBD_KO" nsectors=$((size * 2048)) hardsect_size=512 "$@"
		path=/dev/sbd0 ;;
	brd)
		modprobe_k brd rd_nr=1 rd_size=$((size * 1024)) "$@"
		path=/dev/ram0 ;;
	nullb-mem*)
		path=$(nullb_create "$name" "$size" 1 "$@") ;;
	nullb-nomem*)
		path=$(nullb_create "$name" "$size" 0 "$@") ;;
	*) die "unknown device $name" ;;
	esac
	for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b "$path" ] && break; sleep 0.2; done
	[ -b "$path" ] || die "$name: no block device $path"
	local b=${path#/dev/}
	# No I/O scheduler for any of them (brd, bio-based, has none anyway):
	# a single-queue blk-mq disk would otherwise get mq-deadline.
	if [ -w "/sys/block/$b/queue/scheduler" ]; then
		echo none >"/sys/block/$b/queue/scheduler"
	fi
	DEV[$name]=$path
}

dev_unload() {
	case $1 in
	sbd) rmmod sbd ;;
	brd) rmmod brd ;;
	nullb-*) nullb_destroy "$1" ;;
	esac
	unset "DEV[$1]"
}

# What a disk's queue looks like, as key=value lines.
dev_describe() {
	local name=$1 path=${DEV[$1]} b q a v
	b=${path#/dev/}
	q=/sys/block/$b/queue
	echo "name=$name"
	echo "path=$path"
	echo "size_bytes=$(blockdev --getsize64 "$path")"
	if [ -d "/sys/block/$b/mq" ]; then
		echo "kind=blk-mq"
		echo "hw_queues=$(find "/sys/block/$b/mq" -mindepth 1 -maxdepth 1 -type d | wc -l)"
	else
		echo "kind=bio-based"
		echo "hw_queues=0"
	fi
	for a in logical_block_size physical_block_size nr_requests scheduler max_sectors_kb \
		max_hw_sectors_kb max_segments max_segment_size iostats add_random rq_affinity \
		nomerges wbt_lat_usec discard_max_bytes write_cache rotational; do
		# Some exist but refuse to be read (wbt_lat_usec of a bio-based disk).
		if v=$(cat "$q/$a" 2>/dev/null); then echo "$a=$v"; fi
	done
	case $name in
	nullb-*)
		for a in memory_backed irqmode submit_queues poll_queues hw_queue_depth blocking \
			blocksize size discard; do
			if v=$(cat "$NULLB_CFS/$name/$a" 2>/dev/null); then echo "nullb_$a=$v"; fi
		done ;;
	esac
	return 0
}

# ---- fio -------------------------------------------------------------------
row_args() {
	case $1 in
	rr4k-psync-1j) echo --rw=randread --bs=4k --ioengine=psync --numjobs=1 ;;
	rr4k-psync-2j) echo --rw=randread --bs=4k --ioengine=psync --numjobs=2 ;;
	rw4k-psync-1j) echo --rw=randwrite --bs=4k --ioengine=psync --numjobs=1 ;;
	rw4k-psync-2j) echo --rw=randwrite --bs=4k --ioengine=psync --numjobs=2 ;;
	rr4k-uring-qd32) echo --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 --numjobs=1 ;;
	rw4k-uring-qd1) echo --rw=randwrite --bs=4k --ioengine=io_uring --iodepth=1 --numjobs=1 ;;
	sr1m-psync-1j) echo --rw=read --bs=1M --ioengine=psync --numjobs=1 ;;
	sw1m-psync-1j) echo --rw=write --bs=1M --ioengine=psync --numjobs=1 ;;
	*) die "unknown fio row $1" ;;
	esac
}

# fio_emit RECORD PATH ROW [fio args...]: one timed run of ROW on PATH,
# emitted as the json record RECORD.
fio_emit() {
	local rec=$1 path=$2 row=$3 out=/tmp/bench-fio.json
	shift 3
	# shellcheck disable=SC2046 # row_args is a list of words
	if ! fio --name="$row" --filename="$path" --direct=1 --time_based \
		--runtime="$RUNTIME" --ramp_time="$RAMP" --norandommap --randrepeat=0 \
		--group_reporting --output-format=json --output="$out" \
		$(row_args "$row") "$@" >/dev/null 2>/tmp/bench-fio.err; then
		cat /tmp/bench-fio.err >&2
		die "fio $row on $path failed"
	fi
	emit json "$rec" <"$out"
}

# run_fio ROW DEVNAME ROUND: one run of the main table.
run_fio() {
	fio_emit "$1.$2.$3" "${DEV[$2]}" "$1"
}

# prefill NAME: write the whole disk once (1 MiB, direct), emitted as json.
prefill() {
	local name=$1 tag=$2 out=/tmp/bench-fio.json
	fio --name=prefill --filename="${DEV[$name]}" --direct=1 --rw=write --bs=1M \
		--ioengine=psync --size=100% --output-format=json --output="$out" \
		>/dev/null 2>/tmp/bench-fio.err || { cat /tmp/bench-fio.err >&2; die "prefill of $name failed"; }
	emit json "prefill.$name.$tag" <"$out"
}

# ---- 0. what this guest is --------------------------------------------------
{
	echo "kver=$(uname -r)"
	echo "line=${SBD_LINE:-}"
	echo "ncpus=$NR_CPUS"
	echo "guest_cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "mem_total_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
	echo "fio=$(fio --version)"
	echo "size_mib=$SIZE_MIB"
	echo "runtime=$RUNTIME"
	echo "ramp=$RAMP"
	echo "rounds=$ROUNDS"
	echo "rows=$ROWS"
	echo "devices=$DEVICES"
	echo "big_gib=$BIG_GIB"
	echo "sbd_ko=$SBD_KO"
	echo "sbd_ko_sha256=$(sha256sum "$SBD_KO" | cut -c1-12)"
	echo "page_size=$(getconf PAGESIZE)"
	echo "clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "cmdline=$(cat /proc/cmdline)"
} | emit kv meta

[ -f "$SBD_KO" ] || die "no $SBD_KO: build sbd for ${SBD_LINE:-?} first"
command -v fio >/dev/null || die "fio missing"

# ---- 1. memory -------------------------------------------------------------
slab_kib() { awk '/^Slab:/ { print $2 }' /proc/meminfo; }

# mem_one NAME: the memory story of one disk of SIZE_MIB.
mem_one() {
	local name=$1 m0 m1 m2 m3 m4 s1 s2 sbd_bytes="" disc=ok
	m0=$(mem_free_kib)
	dev_load "$name" "$SIZE_MIB"
	m1=$(mem_free_kib)
	s1=$(slab_kib)
	prefill "$name" mem
	m2=$(mem_free_kib)
	s2=$(slab_kib)
	[ "$name" = sbd ] && sbd_bytes=$(cat /sys/block/sbd0/sbd/mem_bytes)
	local dmax
	dmax=$(cat "/sys/block/${DEV[$name]#/dev/}/queue/discard_max_bytes")
	if [ "$dmax" -gt 0 ] && blkdiscard -f "${DEV[$name]}" 2>/tmp/bench-discard.err; then
		:
	else
		disc="unsupported (discard_max_bytes=$dmax: $(tr '\n' ' ' </tmp/bench-discard.err 2>/dev/null))"
	fi
	m3=$(mem_free_kib)
	dev_unload "$name"
	m4=$(mem_free_kib)
	{
		echo "name=$name"
		echo "size_mib=$SIZE_MIB"
		echo "empty_kib=$((m0 - m1))"
		echo "written_kib=$((m1 - m2))"
		echo "slab_written_kib=$((s2 - s1))"
		echo "sbd_mem_bytes=$sbd_bytes"
		echo "discard=$disc"
		echo "discard_returned_kib=$((m3 - m2))"
		echo "unload_returned_kib=$((m4 - m3))"
		echo "leak_kib=$((m0 - m4))"
	} | emit kv "mem.$name"
}

# big_one NAME: the cost of an empty BIG_GIB disk.
big_one() {
	local name=$1 m0 m1 m2 ok=1 size=$((BIG_GIB * 1024)) err
	m0=$(mem_free_kib)
	if err=$(dev_load "$name" "$size" 2>&1); then
		# dev_load ran in a subshell: find the disk again to unload it.
		m1=$(mem_free_kib)
		case $name in
		sbd) rmmod sbd ;;
		brd) rmmod brd ;;
		nullb-*) nullb_destroy "$name" ;;
		esac
	else
		ok=0
		m1=$m0
	fi
	m2=$(mem_free_kib)
	{
		echo "name=$name"
		echo "size_gib=$BIG_GIB"
		echo "loaded=$ok"
		echo "error=$(tr '\n' ' ' <<<"$err")"
		echo "empty_kib=$((m0 - m1))"
		echo "leak_kib=$((m0 - m2))"
	} | emit kv "big.$name"
}

modprobe_k null_blk nr_devices=0 || die "cannot load null_blk"
if [ "${BENCH_MEMORY:-1}" != 0 ]; then
	log "memory: one ${SIZE_MIB} MiB disk at a time"
	for d in sbd brd nullb-mem; do
		case " $DEVICES " in *" $d "*) mem_one "$d" ;; esac
	done
	log "memory: empty ${BIG_GIB} GiB disks"
	for d in sbd brd nullb-mem; do
		case " $DEVICES " in *" $d "*) big_one "$d" ;; esac
	done
fi

# ---- 2. speed --------------------------------------------------------------
read -ra devs <<<"$DEVICES"
for d in "${devs[@]}"; do
	dev_load "$d" "$SIZE_MIB"
	dev_describe "$d" | emit kv "dev.$d"
done
for d in "${devs[@]}"; do
	log "prefilling $d (${DEV[$d]})"
	prefill "$d" speed
done

read -ra rows <<<"$ROWS"
ndev=${#devs[@]}
for ((r = 1; r <= ROUNDS; r++)); do
	for row in "${rows[@]}"; do
		# Interleaved, and the order rotates each round so that no disk
		# always runs first (or right after the same neighbour).
		order=()
		for ((i = 0; i < ndev; i++)); do order+=("${devs[(i + r - 1) % ndev]}"); done
		log "round $r/$ROUNDS: $row on ${order[*]}"
		for d in "${order[@]}"; do run_fio "$row" "$d" "$r"; done
	done
done

# ---- 3. profiles and experiments ---------------------------------------------
if [ "${BENCH_PROFILE:-0}" = 1 ]; then
	. scripts/bench-profile.sh
fi

for d in "${devs[@]}"; do dev_unload "$d"; done
echo "@@DONE" >>"$OUT"
log "done"
