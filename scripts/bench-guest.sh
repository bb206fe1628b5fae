#!/bin/bash
# The guest half of `make bench` (scripts/bench runs it through guest.sh):
# sbd in both queue modes (bio, mq), brd and null_blk (memory-backed and
# not) side by side in one guest, with the same fio jobs.  It measures, in
# this order:
#
#   0. warm-up: the guest's free memory touched once (see warm_ram);
#   1. memory: for sbd-bio, sbd-mq, brd and null_blk memory_backed=1, one
#      disk at a time: the cost of the empty disk, of writing all of it,
#      what a discard of the whole disk gives back, what removing it gives
#      back; then the cost of an empty BIG_GIB (1 TiB) disk;
#   2. speed: all five disks loaded at once, then, ROUNDS times each, the
#      disks interleaved in each round and their order rotating per round:
#        a. the fio rows (ALL_FIO_ROWS) on the prefilled disks, and on the
#           network disks when asked for (NET_DEVICES: an sbd bio disk
#           served by nvmet and used through the NVMe host over TCP on
#           127.0.0.1 or nvme-loop), which serve these rows only and are
#           removed after them;
#        a'. the polled rows (ALL_POLL_ROWS): io_uring IOPOLL (fio --hipri)
#           on two disks with one poll queue, sbd-mq-poll and nullb-mem-poll
#           (made for each round, one at a time, and written whole first),
#           next to the same jobs on sbd-mq (without --hipri, and with it:
#           no poll queue there) and on nullb-mem (without --hipri); after
#           each run sbd's polled counter, as kv "pollstat.ROW.DISK.ROUND";
#        b. (BENCH_PROFILE=1: perf profiles and experiments, here, while the
#           disks still hold the prefill: scripts/bench-profile.sh);
#        c. trim4k: 4 KiB random trims over written data: each disk is
#           written whole (untimed), then fio trims every 4 KiB block once;
#           also on sbd disks with cache=1 (made for the run, then removed);
#        d. fill1m: a freshly made disk written whole, 1 MiB direct writes;
#        e. fs: a freshly made disk; timed, in seconds and in CPU time:
#           mkfs.ext4, (mount,) copy a tree of small files in + sync, rm -rf
#           it + sync, fstrim; then fio 4 KiB random writes with fsync=1
#           over 16 files (IOPS), and the CPU time of one such write;
#           the timed tools run from a copy in tmpfs, not over 9p;
#        f. crash: snapshot, crash image and restore of a 1 GiB sbd disk
#           with 1, 64 and 512 MiB written since the snapshot.
#
# Results go to $SBD_RESULTS (guest.sh --results) as records that kernel
# messages cannot split:  "@@BEGIN KIND NAME", base64 of the gzipped data,
# "@@END KIND NAME".  KIND is json (fio output), kv (key=value lines) or
# text.  scripts/bench decodes them on the host.
#
# Environment (scripts/bench passes these through SBD_GUEST_ENV):
#   BENCH_SIZE_MIB  disk size (default 1024)     BENCH_RUNTIME  seconds per run (10)
#   BENCH_RAMP      fio ramp_time, seconds (1)   BENCH_ROUNDS   rounds (3)
#   BENCH_ROWS      rows to run (all): fio rows, polled rows, trim4k, fill1m,
#                   fs, crash; "none"
#   BENCH_DEVICES   disks (sbd-bio sbd-mq brd nullb-mem nullb-nomem
#                   sbd-mq-poll nullb-mem-poll; "sbd" means the three sbd
#                   disks; the last two serve only the polled rows); not by
#                   default: sbd-bio-tcp sbd-bio-loop, for the fio rows only
#   BENCH_BIG_GIB   the "empty big disk" (1024)  BENCH_MEMORY   0 skips step 1
#   BENCH_FS_TREE   the tree the fs rows copy (a linux-headers-*-common tree)
#   BENCH_SBD_QUEUE queue attributes for the sbd disks, attr=value,...
#   BENCH_PROFILE   1 adds step 2b
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/lib/common.sh # mem_free_kib, SBD_KO, SBDCTL
. tests/lib/export.sh # HOSTNQN, NVMET, nvme_dev, nvme_gone

SIZE_MIB=${BENCH_SIZE_MIB:-1024}
RUNTIME=${BENCH_RUNTIME:-10}
RAMP=${BENCH_RAMP:-1}
ROUNDS=${BENCH_ROUNDS:-3}
BIG_GIB=${BENCH_BIG_GIB:-1024}
ALL_FIO_ROWS="rr4k-psync-1j rr4k-psync-2j rw4k-psync-1j rw4k-psync-2j rr4k-uring-qd32 sr1m-psync-1j sw1m-psync-1j"
# The polled rows: 4 KiB random reads, io_uring, iodepth 1 and 32.
ALL_POLL_ROWS="rr4k-poll-qd1 rr4k-poll-qd32"
ALL_ROWS="$ALL_FIO_ROWS $ALL_POLL_ROWS trim4k fill1m fs crash"
ROWS=${BENCH_ROWS:-$ALL_ROWS}
ROWS=${ROWS//,/ }	# commas: SBD_GUEST_ENV splits on spaces
[ "$ROWS" = none ] && ROWS=	# only the memory step, or only the profiles
# The disks of the polled rows only (made for them, one at a time): sbd mq
# and null_blk mem with one poll queue.
POLL_DEVICES="sbd-mq-poll nullb-mem-poll"
# The disks of the fio rows only, asked for by name: an sbd bio disk served
# by nvmet, used through the NVMe host over TCP on 127.0.0.1 (exported with
# sbdctl) or nvme-loop.  Not in the default list: each holds another whole
# disk of memory during the fio rows, and 6.1 has no nvme-loop.
NET_DEVICES="sbd-bio-tcp sbd-bio-loop"
ALL_DEVICES="sbd-bio sbd-mq brd nullb-mem nullb-nomem $POLL_DEVICES"
DEVICES=${BENCH_DEVICES:-$ALL_DEVICES}
DEVICES=" ${DEVICES//,/ } "
DEVICES=${DEVICES// sbd / sbd-bio sbd-mq sbd-mq-poll }	# "sbd": all sbd disks
OUT=${SBD_RESULTS:-/dev/stdout}
NULLB_CFS=/sys/kernel/config/nullb
SBD_CFS=/sys/kernel/config/sbd
# Queue shape of the blk-mq disks, sbd-mq and null_blk alike: one hardware
# queue per CPU, 128 tags each.  irqmode=0: null_blk completes inline in
# queue_rq, as sbd and brd do (its default, 1, completes in a softirq).
NR_CPUS=$(nproc)
QDEPTH=128
MNT=/tmp/bench-mnt
TREE=/tmp/bench-tree

log() { printf 'bench-guest: [%4ds] %s\n' "$SECONDS" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# has WORD LIST: LIST (words) holds WORD.
has() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

# The rows and disks asked for, checked before anything runs.
FIO_ROWS="" POLL_ROWS="" SPECIAL_ROWS=""
for row in $ROWS; do
	if has "$row" "$ALL_FIO_ROWS rw4k-uring-qd1"; then FIO_ROWS+="$row "
	elif has "$row" "$ALL_POLL_ROWS"; then POLL_ROWS+="$row "
	elif has "$row" "trim4k fill1m fs crash"; then SPECIAL_ROWS+="$row "
	else die "unknown row '$row' (known: $ALL_ROWS rw4k-uring-qd1)"
	fi
done
devs=()
for d in $DEVICES; do
	has "$d" "$ALL_DEVICES $NET_DEVICES" || die "unknown device '$d' (known: $ALL_DEVICES $NET_DEVICES, sbd)"
	has "$d" "${devs[*]:-}" || devs+=("$d")
done
DEVICES="${devs[*]:-}"
# The disks loaded for the speed step: all but the polled rows' own; the
# network disks only when there are fio rows to run on them.
MAIN_DEVICES=""
for d in $DEVICES; do
	if has "$d" "$POLL_DEVICES"; then continue; fi
	if has "$d" "$NET_DEVICES" && [ -z "$FIO_ROWS" ]; then
		log "$d left out: it serves only the fio rows, and none runs"
		continue
	fi
	MAIN_DEVICES+="$d "
done

# emit KIND NAME: stdin as one record on the results channel.
emit() {
	{
		echo "@@BEGIN $1 $2"
		gzip -9c | base64 -w 76
		echo "@@END $1 $2"
	} >>"$OUT"
}

# rotated R DISK...: the disks in the order of round R: the order rotates
# each round so that no disk always runs first (or after the same one).
rotated() {
	local r=$1 i
	shift
	local a=("$@")
	for ((i = 0; i < ${#a[@]}; i++)); do printf '%s ' "${a[(i + r - 1) % ${#a[@]}]}"; done
}

# ---- disks -----------------------------------------------------------------
declare -A DEV=()	# bench name -> /dev/... once loaded
declare -A HOW=()	# bench name -> how it was made, for the report

modprobe_k() { modprobe -d "$SBD_MODDIR" "$@"; }

# nullb_create NAME SIZE_MIB MEMORY_BACKED [ATTR=VALUE...]: a null_blk disk
# through configfs; prints its /dev path.
nullb_create() {
	local name=$1 size=$2 mem=$3 d=$NULLB_CFS/$1 kv pq=()
	shift 3
	[ -d $NULLB_CFS ] || modprobe_k null_blk nr_devices=0 || die "cannot load null_blk"
	[ -d $NULLB_CFS ] || die "no $NULLB_CFS (configfs not mounted?)"
	ls /sys/block >/tmp/bench-blk.before
	mkdir "$d"
	# No polled queue (6.1 adds one by default), as sbd has none; but one
	# on *-poll, the polled rows' disk (null_blk's poll_queues module
	# parameter, 1 by default, is the most it allows).
	case $name in
	*-poll) pq=(poll_queues=1) ;;
	*) if [ -e "$d/poll_queues" ]; then pq=(poll_queues=0); fi ;;
	esac
	for kv in size="$size" blocksize=512 memory_backed="$mem" irqmode=0 \
		submit_queues="$NR_CPUS" hw_queue_depth=$QDEPTH "${pq[@]}" "$@"; do
		[ -e "$d/${kv%%=*}" ] || die "null_blk has no configfs attribute ${kv%%=*}"
		echo "${kv#*=}" >"$d/${kv%%=*}"
	done
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

# sbd_create NAME SIZE_MIB [ATTR=VALUE...]: an sbd runtime disk through
# configfs, its configfs directory named NAME (sbd-MODE[-cache|-poll]):
# queue_mode from the name (written first: hw_queues, queue_depth and
# poll_queues are mq-only), cache=1 for *-cache, poll_queues=1 for *-poll
# (before power=1, like the rest); prints its /dev path.
sbd_create() {
	local name=$1 size=$2 d=$SBD_CFS/$1 mode kv attrs=()
	shift 2
	mode=${name#sbd-}
	mode=${mode%%-*}
	attrs=(queue_mode="$mode")
	[ "$mode" = mq ] && attrs+=(hw_queues="$NR_CPUS" queue_depth="$QDEPTH")
	attrs+=(size=$((size * 1048576)) logical_block_size=512 discard=1)
	case $name in *-cache) attrs+=(cache=1) ;; *) attrs+=(cache=0) ;; esac
	case $name in *-poll) attrs+=(poll_queues=1) ;; esac
	mkdir "$d"
	for kv in "${attrs[@]}" "$@"; do
		echo "${kv#*=}" >"$d/${kv%%=*}" || die "$name: cannot set ${kv%%=*}=${kv#*=}"
	done
	echo 1 >"$d/power" || die "$name: power on failed"
	echo "/dev/$(cat "$d/device")"
}

sbd_destroy() {
	echo 0 >"$SBD_CFS/$1/power"
	rmdir "$SBD_CFS/$1"
}

# ---- the network disks (NET_DEVICES) ------------------------------------------
# nqn_of NAME: the NQN an sbd disk is served under, from its uuid (sbdctl's
# choice; the nvme-loop disk takes the same form).
nqn_of() {
	echo "nqn.2014-08.org.nvmexpress:uuid:$(cat "$SBD_CFS/$1/uuid")"
}

# net_missing NAME: why the network disk NAME cannot be made here (a module
# this kernel lacks, a missing tool), or nothing.
net_missing() {
	local m mods="nvmet nvmet-tcp nvme-tcp" tools="nvme ip"
	case $1 in *-loop) mods="nvmet nvme-loop" tools=nvme ;; esac
	for m in $mods; do
		if ! modprobe_k -n "$m" 2>/dev/null; then
			echo "this kernel has no $m module ($(case $m in
				nvmet) echo CONFIG_NVME_TARGET ;; nvmet-tcp) echo CONFIG_NVME_TARGET_TCP ;;
				nvme-tcp) echo CONFIG_NVME_TCP ;; nvme-loop) echo CONFIG_NVME_TARGET_LOOP ;; esac))"
			return 0
		fi
	done
	for m in $tools; do
		command -v "$m" >/dev/null || { echo "no $m command"; return 0; }
	done
	case $1 in *-tcp) [ -x "$SBDCTL" ] || echo "no $SBDCTL (make -C tools/sbdctl O=../../build/sbdctl)" ;; esac
}

# loop_export NAME NQN: the sbd disk NAME served by nvmet under NQN on an
# nvme-loop port of its own (sbdctl serves TCP only): what sbdctl export
# sets up, any host allowed, the port an nvme-loop one.
loop_export() {
	local s=$NVMET/subsystems/$2 uuid n=1
	uuid=$(cat "$SBD_CFS/$1/uuid")
	mkdir "$s"
	echo 1 >"$s/attr_allow_any_host"
	mkdir "$s/namespaces/1"
	echo "/dev/$(cat "$SBD_CFS/$1/device")" >"$s/namespaces/1/device_path"
	echo "$uuid" >"$s/namespaces/1/device_uuid"
	echo "$uuid" >"$s/namespaces/1/device_nguid"
	echo 1 >"$s/namespaces/1/enable" || die "$1: nvmet cannot enable its namespace"
	while [ -e "$NVMET/ports/$n" ]; do n=$((n + 1)); done
	mkdir "$NVMET/ports/$n"
	echo loop >"$NVMET/ports/$n/addr_trtype"
	ln -s "$s" "$NVMET/ports/$n/subsystems/$2"
}

# loop_unexport NQN: loop_export undone, in the reverse order.
loop_unexport() {
	local s=$NVMET/subsystems/$1 l
	for l in "$NVMET"/ports/*/subsystems/"$1"; do
		[ -L "$l" ] || continue
		rm "$l"
		rmdir "${l%/subsystems/*}"
	done
	echo 0 >"$s/namespaces/1/enable"
	rmdir "$s/namespaces/1" "$s"
}

# net_create NAME SIZE_MIB [ATTR=VALUE...]: an sbd bio disk made as
# sbd_create makes sbd-bio (queue_mode from the name), served by nvmet and
# connected through this guest's NVMe host; prints the host's namespace
# (/dev/nvmeXnY; under native multipath the head, not a hidden path).
net_create() {
	local name=$1 nqn conn cmd ns
	sbd_create "$@" >/dev/null
	nqn=$(nqn_of "$name")
	case $name in
	*-tcp)
		# sbdctl prints the connect command that works (127.0.0.1:4420).
		conn=$("$SBDCTL" export "$name" --host "$HOSTNQN" | grep '^nvme connect ') ||
			die "$name: sbdctl export failed"
		read -ra cmd <<<"$conn"
		"${cmd[@]}" >/dev/null || die "$name: $conn failed" ;;
	*-loop)
		loop_export "$name" "$nqn"
		nvme connect -t loop -n "$nqn" --hostnqn "$HOSTNQN" >/dev/null ||
			die "$name: nvme connect -t loop failed" ;;
	esac
	ns=$(nvme_dev "$(cat "$SBD_CFS/$name/uuid")")
	echo "/dev/$ns"
}

# net_destroy NAME: disconnected (the namespace gone), unexported, and the
# sbd disk removed.
net_destroy() {
	local nqn
	nqn=$(nqn_of "$1")
	nvme disconnect -n "$nqn" >/dev/null || die "$1: nvme disconnect failed"
	nvme_gone "$(cat "$SBD_CFS/$1/uuid")"
	case $1 in
	*-tcp) "$SBDCTL" unexport "$1" >/dev/null || die "$1: sbdctl unexport failed" ;;
	*-loop) loop_unexport "$nqn" ;;
	esac
	sbd_destroy "$1"
}

# dev_how NAME SIZE_MIB: how dev_load makes the disk, for the report.
dev_how() {
	local name=$1 size=$2 mode
	case $name in
	sbd-bio-tcp)
		echo "an sbd bio disk ($(dev_how sbd-bio "$size")) served by nvmet over NVMe/TCP on 127.0.0.1:4420 (sbdctl export), used through the kernel's nvme-tcp host (nvme connect -t tcp)" ;;
	sbd-bio-loop)
		echo "an sbd bio disk ($(dev_how sbd-bio "$size")) served by nvmet on an nvme-loop port (its configfs), used through the kernel's NVMe host (nvme connect -t loop): no network stack" ;;
	sbd-*)
		mode=${name#sbd-}
		mode=${mode%%-*}
		echo "configfs: queue_mode=$mode$([ "$mode" = mq ] && echo " hw_queues=$NR_CPUS queue_depth=$QDEPTH") size=$((size * 1048576)) logical_block_size=512 discard=1 cache=$(case $name in *-cache) echo 1 ;; *) echo 0 ;; esac)$(case $name in *-poll) echo " poll_queues=1" ;; esac)" ;;
	brd) echo "modprobe brd rd_nr=1 rd_size=$((size * 1024))" ;;
	nullb-mem*) echo "configfs: memory_backed=1 blocksize=512 irqmode=0 submit_queues=$NR_CPUS hw_queue_depth=$QDEPTH poll_queues=$(case $name in *-poll) echo 1 ;; *) echo 0 ;; esac) discard=1" ;;
	nullb-nomem*) echo "configfs: memory_backed=0 blocksize=512 irqmode=0 submit_queues=$NR_CPUS hw_queue_depth=$QDEPTH poll_queues=0" ;;
	esac
}

# dev_load NAME SIZE_MIB [EXTRA...]: load one disk, set DEV[NAME].
dev_load() {
	local name=$1 size=$2 path
	shift 2
	case $name in
	sbd-bio-tcp | sbd-bio-loop)
		path=$(net_create "$name" "$size" "$@") ;;
	sbd-*)
		path=$(sbd_create "$name" "$size" "$@") ;;
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
	# No I/O scheduler for any of them (bio-based disks have none anyway):
	# a single-queue blk-mq disk would otherwise get mq-deadline.
	if [ -w "/sys/block/$b/queue/scheduler" ]; then
		echo none >"/sys/block/$b/queue/scheduler"
	fi
	# BENCH_SBD_QUEUE: attr=value,... for the sbd disks (an experiment).
	local kv
	case $name in
	sbd-*)
		for kv in $(tr , ' ' <<<"${BENCH_SBD_QUEUE:-}"); do
			echo "${kv#*=}" >"/sys/block/$b/queue/${kv%%=*}" ||
				die "$name: cannot set queue/${kv%%=*} to ${kv#*=}"
		done ;;
	esac
	DEV[$name]=$path
	HOW[$name]="$(dev_how "$name" "$size")${*:+ $*}"
}

# dev_unload NAME: the disk and its data go (brd: the module).
dev_unload() {
	case $1 in
	sbd-bio-tcp | sbd-bio-loop) net_destroy "$1" ;;
	sbd-*) sbd_destroy "$1" ;;
	brd) rmmod brd ;;
	nullb-*) nullb_destroy "$1" ;;
	esac
	unset "DEV[$1]"
}

# dev_fresh NAME: the disk removed and made again, empty.
dev_fresh() {
	dev_unload "$1"
	dev_load "$1" "$SIZE_MIB"
}

# What a disk's queue looks like, as key=value lines.
dev_describe() {
	local name=$1 path=${DEV[$1]} b q a v c sb nqn
	b=${path#/dev/}
	q=/sys/block/$b/queue
	echo "name=$name"
	echo "path=$path"
	echo "loaded_as=${HOW[$name]:-}"
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
		nomerges wbt_lat_usec discard_max_bytes discard_granularity write_cache rotational \
		io_poll; do
		# Some exist but refuse to be read (wbt_lat_usec of a bio-based disk).
		if v=$(cat "$q/$a" 2>/dev/null); then echo "$a=$v"; fi
	done
	case $name in
	nullb-*)
		for a in memory_backed irqmode submit_queues poll_queues hw_queue_depth blocking \
			blocksize size discard; do
			if v=$(cat "$NULLB_CFS/$name/$a" 2>/dev/null); then echo "nullb_$a=$v"; fi
		done ;;
	sbd-bio-tcp | sbd-bio-loop)
		# The NVMe controller of the namespace, and the sbd disk behind it.
		nqn=$(nqn_of "$name")
		for c in /sys/class/nvme/nvme*; do
			[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$nqn" ] || continue
			echo "nvme_ctrl=${c##*/}"
			echo "nvme_transport=$(cat "$c/transport" 2>/dev/null)"
			echo "nvme_address=$(tr '\n' ' ' <"$c/address" 2>/dev/null)"
			# queue_count counts the admin queue; sqsize is 0's based.
			if v=$(cat "$c/queue_count" 2>/dev/null); then echo "nvme_io_queues=$((v - 1))"; fi
			if v=$(cat "$c/sqsize" 2>/dev/null); then echo "nvme_queue_size=$((v + 1))"; fi
		done
		# Under native multipath the namespace is a head over hidden paths.
		echo "nvme_paths=$(find "/sys/block/$b/multipath" -mindepth 1 -maxdepth 1 -printf '%f ' 2>/dev/null)"
		sb=$(cat "$SBD_CFS/$name/device")
		echo "sbd_backing=/dev/$sb"
		echo "sbd_queue_mode=$(cat "/sys/block/$sb/sbd/queue_mode" 2>/dev/null || echo '?')"
		for a in queue_mode cache discard logical_block_size; do
			if v=$(cat "$SBD_CFS/$name/$a" 2>/dev/null); then echo "sbd_cfg_$a=$v"; fi
		done ;;
	sbd-*)
		# The disk's own view (sysfs) and its configfs attributes.
		echo "sbd_queue_mode=$(cat "/sys/block/$b/sbd/queue_mode" 2>/dev/null || echo '?')"
		if v=$(cat "/sys/block/$b/sbd/poll_queues" 2>/dev/null); then echo "sbd_poll_queues=$v"; fi
		for a in queue_mode hw_queues queue_depth poll_queues cache discard logical_block_size \
			physical_block_size partitions; do
			if v=$(cat "$SBD_CFS/$name/$a" 2>/dev/null); then echo "sbd_cfg_$a=$v"; fi
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
	# The polled rows: --hipri (an IOPOLL ring) is added per disk (run_poll).
	rr4k-poll-qd1) echo --rw=randread --bs=4k --ioengine=io_uring --iodepth=1 --numjobs=1 ;;
	rr4k-poll-qd32) echo --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 --numjobs=1 ;;
	sr1m-psync-1j) echo --rw=read --bs=1M --ioengine=psync --numjobs=1 ;;
	sw1m-psync-1j) echo --rw=write --bs=1M --ioengine=psync --numjobs=1 ;;
	*) die "unknown fio row $1" ;;
	esac
}

# fio_json OUT WHAT [fio args...]: fio with JSON output to OUT, or die.
fio_json() {
	local out=$1 what=$2
	shift 2
	if ! fio --output-format=json --output="$out" "$@" >/dev/null 2>/tmp/bench-fio.err; then
		cat /tmp/bench-fio.err >&2
		die "fio: $what failed"
	fi
}

# fio_emit RECORD PATH ROW [fio args...]: one timed run of ROW on PATH,
# emitted as the json record RECORD.
fio_emit() {
	local rec=$1 path=$2 row=$3 out=/tmp/bench-fio.json
	shift 3
	# shellcheck disable=SC2046 # row_args is a list of words
	fio_json "$out" "$row on $path" --name="$row" --filename="$path" --direct=1 --time_based \
		--runtime="$RUNTIME" --ramp_time="$RAMP" --norandommap --randrepeat=0 \
		--group_reporting $(row_args "$row") "$@"
	emit json "$rec" <"$out"
}

# run_fio ROW DEVNAME ROUND: one run of the main table.
run_fio() {
	fio_emit "$1.$2.$3" "${DEV[$2]}" "$1"
}

# write_all NAME RECORD [fio args...]: write the whole disk once (1 MiB,
# psync, direct); emitted as the json record RECORD unless it is empty.
write_all() {
	local name=$1 rec=$2 out=/tmp/bench-fio.json
	shift 2
	fio_json "$out" "whole-disk write of $name" --name=write-all --filename="${DEV[$name]}" \
		--direct=1 --rw=write --bs=1M --ioengine=psync --size=100% "$@"
	if [ -n "$rec" ]; then emit json "$rec" <"$out"; fi
}

# prefill NAME TAG: write_all, emitted as prefill.NAME.TAG.
prefill() {
	write_all "$1" "prefill.$1.$2"
}

# sbd_stat_of NAME STAT: an sbd disk's counter (/sys/block/sbdN/sbd/STAT),
# empty for other disks.
sbd_stat_of() {
	case $1 in sbd-*) cat "/sys/block/${DEV[$1]#/dev/}/sbd/$2" ;; esac
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
	echo "qdepth=$QDEPTH"
	echo "sbd_ko=$SBD_KO"
	echo "sbd_ko_sha256=$(sha256sum "$SBD_KO" | cut -c1-12)"
	echo "page_size=$(getconf PAGESIZE)"
	echo "clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "cmdline=$(cat /proc/cmdline)"
} | emit kv meta

[ -f "$SBD_KO" ] || die "no $SBD_KO: build sbd for ${SBD_LINE:-?} first"
command -v fio >/dev/null || die "fio missing"

# null_blk and sbd are loaded once, without disks; their disks are made and
# removed through configfs.
modprobe_k null_blk nr_devices=0 || die "cannot load null_blk"
if [[ " $DEVICES" == *" sbd-"* ]]; then
	sbd_deps
	insmod "$SBD_KO" ndevices=0 || die "insmod $SBD_KO ndevices=0 failed"
	if ! mountpoint -q /sys/kernel/config; then
		mount -t configfs none /sys/kernel/config || die "cannot mount configfs"
	fi
	[ -d $SBD_CFS ] || die "no $SBD_CFS"
fi

# The network disks: left out, with the reason (the report gives it), where
# this kernel lacks a module (6.1: nvme-loop) or a tool is missing; else
# their modules loaded here, from SBD_MODDIR (sbdctl's own modprobe, run
# when nvmet-tcp is not loaded, would look in the guest root's modules).
net_devs="" net_skipped=""
for d in $NET_DEVICES; do
	has "$d" "$MAIN_DEVICES" || continue
	why=$(net_missing "$d")
	if [ -n "$why" ]; then
		net_skipped+="$d: $why; "
		MAIN_DEVICES=$(for x in $MAIN_DEVICES; do [ "$x" = "$d" ] || printf '%s ' "$x"; done)
		log "$d skipped: $why"
		continue
	fi
	case $d in
	*-tcp)
		modprobe_k -a nvmet nvmet-tcp nvme-tcp || die "cannot load nvmet, nvmet-tcp, nvme-tcp"
		ip link set lo up || die "cannot bring up lo" ;;
	*-loop) modprobe_k -a nvmet nvme-loop || die "cannot load nvmet, nvme-loop" ;;
	esac
	[ -d "$NVMET" ] || die "no $NVMET"
	net_devs+="$d "
done
if [ -n "$net_devs$net_skipped" ]; then
	printf 'devices=%s\nskipped=%s\nhostnqn=%s\n' "$net_devs" "$net_skipped" "$HOSTNQN" | emit kv net
fi

# How long each step took, for the report (key=value lines).
PHASES=""
phase_t0=$SECONDS
phase_end() {
	PHASES+="$1_s=$((SECONDS - phase_t0))"$'\n'
	phase_t0=$SECONDS
}

# ---- the guest's RAM, touched once -------------------------------------------
# Under TCG the guest's RAM is anonymous memory of QEMU's, which the host
# only allocates (a page fault, a page cleared) when the guest first
# touches it: a disk written into RAM the guest never touched pays for
# that, one that reuses the pages of a disk removed before it does not
# (3x between the prefills of one run).  So the pages the disks may get are
# all touched once, first: a tmpfs of all free memory but 256 MiB, written
# whole with zeros, then unmounted.
warm_ram() {
	local mib d=/tmp/bench-warm t0=$SECONDS
	mib=$(($(mem_free_kib) / 1024 - 256))
	if [ "$mib" -gt 0 ] && mkdir -p $d && mount -t tmpfs -o size="${mib}m" bench-warm $d; then
		dd if=/dev/zero of=$d/fill bs=1M count=$((mib - 1)) status=none || log "warm-up: dd stopped early"
		umount $d || log "warm-up: cannot unmount $d"
	else
		log "warm-up: skipped (no tmpfs of ${mib} MiB)"
		mib=0
	fi
	rmdir $d 2>/dev/null || true
	printf 'warm_mib=%s\nwarm_s=%s\n' "$mib" "$((SECONDS - t0))" | emit kv warm
}
log "warm-up: touching the guest's free memory once"
warm_ram
phase_end warm

# ---- 1. memory -------------------------------------------------------------
slab_kib() { awk '/^Slab:/ { print $2 }' /proc/meminfo; }

# mem_one NAME: the memory story of one disk of SIZE_MIB.
mem_one() {
	local name=$1 m0 m1 m2 m3 m4 s1 s2 sbd_bytes="" disc=ok dmax
	m0=$(mem_free_kib)
	dev_load "$name" "$SIZE_MIB"
	m1=$(mem_free_kib)
	s1=$(slab_kib)
	prefill "$name" mem
	m2=$(mem_free_kib)
	s2=$(slab_kib)
	sbd_bytes=$(sbd_stat_of "$name" mem_bytes)
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
		# dev_load ran in a subshell: DEV is not set here, but the
		# disk is found by its name.
		m1=$(mem_free_kib)
		dev_unload "$name"
	else
		ok=0
		m1=$m0
		# A half-made configfs disk goes too.
		case $name in
		sbd-*) if [ -d "$SBD_CFS/$name" ]; then sbd_destroy "$name" || true; fi ;;
		nullb-*) if [ -d "$NULLB_CFS/$name" ]; then nullb_destroy "$name" || true; fi ;;
		esac
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

MEM_DEVICES="sbd-bio sbd-mq brd nullb-mem"
if [ "${BENCH_MEMORY:-1}" != 0 ]; then
	log "memory: one ${SIZE_MIB} MiB disk at a time"
	for d in $MEM_DEVICES; do
		if has "$d" "$DEVICES"; then mem_one "$d"; fi
	done
	log "memory: empty ${BIG_GIB} GiB disks"
	for d in $MEM_DEVICES; do
		if has "$d" "$DEVICES"; then big_one "$d"; fi
	done
fi
phase_end memory

# ---- 2. speed --------------------------------------------------------------
read -ra devs <<<"$MAIN_DEVICES"
for d in "${devs[@]}"; do
	dev_load "$d" "$SIZE_MIB"
	dev_describe "$d" | emit kv "dev.$d"
done
# Reads must hit real data: the fio rows, the polled rows and the profiles
# run on prefilled disks (the one sample of a first write of each, kept as
# prefill.*.speed).
if [ -n "$FIO_ROWS$POLL_ROWS" ] || [ "${BENCH_PROFILE:-0}" = 1 ]; then
	for d in "${devs[@]}"; do
		log "prefilling $d (${DEV[$d]})"
		prefill "$d" speed
	done
fi
phase_end load_prefill

# a. the fio rows
read -ra rows <<<"$FIO_ROWS"
for ((r = 1; r <= ROUNDS; r++)); do
	for row in "${rows[@]}"; do
		read -ra order <<<"$(rotated "$r" "${devs[@]}")"
		log "round $r/$ROUNDS: $row on ${order[*]}"
		for d in "${order[@]}"; do run_fio "$row" "$d" "$r"; done
	done
done
# The network disks serve only the fio rows: gone before the other steps.
for d in "${devs[@]}"; do
	if has "$d" "$NET_DEVICES"; then dev_unload "$d"; fi
done
phase_end fio_rows

# a'. the polled rows: 4 KiB random reads through an io_uring IOPOLL ring
# (fio --hipri), each row on these "disks" (the names of their records):
#   sbd-mq-poll     --hipri, an sbd mq disk with poll_queues=1
#   nullb-mem-poll  --hipri, a null_blk mem disk with poll_queues=1
#   sbd-mq          no --hipri: the same job without polling
#   sbd-mq-hipri    --hipri on sbd-mq, which has no poll queue: 6.1's
#                   block layer clears REQ_POLLED and the request ends in
#                   ->queue_rq as usual while io_uring spins for it; newer
#                   kernels ("block: Avoid polling configuration errors",
#                   2024) fail such a bio with EOPNOTSUPP: then this run is
#                   left out (hipri_probe) and the poll record says why
#   nullb-mem       no --hipri
# The two poll disks are made for each round, one at a time (no more memory
# than the trim row's transient disk), written whole first so that reads
# hit data, and removed after both rows ran on them.  Each round runs every
# disk in turn, its order rotating per round; on each disk the rows one
# after the other.
# polled_of NAME: sbd's count of requests ended by ->poll (sbd/polled);
# empty for other disks, or an sbd without it.
polled_of() {
	local f=/sys/block/${DEV[$1]#/dev/}/sbd/polled
	if [ -r "$f" ]; then cat "$f"; fi
}

# reads_of NAME: reads completed, as the block layer counts them (the
# first field of /sys/block/DISK/stat).
reads_of() {
	awk '{ print $1 }' "/sys/block/${DEV[$1]#/dev/}/stat"
}

# run_poll ROW DISK ROUND: one run of a polled row; the json record
# ROW.DISK.ROUND and, with it, kv "pollstat.ROW.DISK.ROUND": what sbd's
# polled counter and the block layer's read count moved by over the run
# (ramp included: fio's own count of I/Os leaves the ramp out).
run_poll() {
	local row=$1 name=$2 r=$3 disk=${2%-hipri} hipri=() p0 p1 n0 n1 q
	case $name in *-poll | *-hipri) hipri=(--hipri) ;; esac
	q=/sys/block/${DEV[$disk]#/dev/}/queue
	p0=$(polled_of "$disk")
	n0=$(reads_of "$disk")
	fio_emit "$row.$name.$r" "${DEV[$disk]}" "$row" "${hipri[@]}"
	p1=$(polled_of "$disk")
	n1=$(reads_of "$disk")
	{
		echo "name=$name"
		echo "disk=$disk"
		echo "path=${DEV[$disk]}"
		echo "hipri=${#hipri[@]}"
		echo "polled=$([ -n "$p0" ] && [ -n "$p1" ] && echo $((p1 - p0)))"
		echo "disk_reads=$((n1 - n0))"
		echo "io_poll=$(cat "$q/io_poll" 2>/dev/null)"
		echo "hw_queues=$(find "/sys/block/${DEV[$disk]#/dev/}/mq" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)"
	} | emit kv "pollstat.$row.$name.$r"
}

# hipri_probe NAME: a few polled reads (an IOPOLL ring) on NAME; on failure
# fio's complaint, on one line.
hipri_probe() {
	if fio --name=hipri-probe --filename="${DEV[$1]}" --direct=1 --rw=randread --bs=4k \
		--ioengine=io_uring --hipri --iodepth=1 --size=1m --io_size=64k \
		>/tmp/bench-fio.err 2>&1; then
		return 0
	fi
	grep -m1 -i error /tmp/bench-fio.err | cut -c1-160 || echo "fio failed"
	return 1
}

# cfs_has DIR ATTR: a configfs group (sbd's or null_blk's) offers ATTR to a
# new disk (an sbd built before poll_queues has none).
cfs_has() {
	local d=$1/bench-probe ok=1
	mkdir "$d" 2>/dev/null || return 1
	[ -e "$d/$2" ] || ok=0
	rmdir "$d"
	[ "$ok" = 1 ]
}

if [ -n "$POLL_ROWS" ]; then
	poll_devs=() poll_skipped=""
	if has sbd-mq-poll "$DEVICES"; then
		if cfs_has $SBD_CFS poll_queues; then poll_devs+=(sbd-mq-poll)
		else poll_skipped+="sbd-mq-poll: this sbd has no poll_queues attribute; "
		fi
	fi
	if has nullb-mem-poll "$DEVICES"; then
		if cfs_has $NULLB_CFS poll_queues; then poll_devs+=(nullb-mem-poll)
		else poll_skipped+="nullb-mem-poll: this null_blk has no poll_queues attribute; "
		fi
	fi
	if has sbd-mq "$DEVICES"; then
		poll_devs+=(sbd-mq)
		if err=$(hipri_probe sbd-mq); then poll_devs+=(sbd-mq-hipri)
		else poll_skipped+="sbd-mq-hipri: this kernel refuses polled I/O on a disk without poll queues ($err); "
		fi
	fi
	if has nullb-mem "$DEVICES"; then poll_devs+=(nullb-mem); fi
	{
		echo "rows=$POLL_ROWS"
		echo "devices=${poll_devs[*]:-}"
		echo "skipped=$poll_skipped"
	} | emit kv poll
	[ -z "$poll_skipped" ] || log "polled rows: skipped ${poll_skipped%; }"
	read -ra prows <<<"$POLL_ROWS"
	for ((r = 1; r <= ROUNDS && ${#poll_devs[@]} > 0; r++)); do
		read -ra order <<<"$(rotated "$r" "${poll_devs[@]}")"
		log "round $r/$ROUNDS: ${prows[*]} on ${order[*]}"
		for d in "${order[@]}"; do
			made=0
			if [ -z "${DEV[${d%-hipri}]:-}" ]; then
				dev_load "$d" "$SIZE_MIB"
				made=1
				# Described once.
				if [ "$r" = 1 ]; then dev_describe "$d" | emit kv "dev.$d"; fi
				write_all "$d" ""
			fi
			for row in "${prows[@]}"; do run_poll "$row" "$d" "$r"; done
			if ((made)); then dev_unload "$d"; fi
		done
	done
	phase_end poll_rows
fi

# b. profiles and experiments
if [ "${BENCH_PROFILE:-0}" = 1 ]; then
	. scripts/bench-profile.sh
	phase_end profile
fi

# The disks of the trim, fill and fs rows: those with memory (null_blk
# nomem keeps nothing to trim, fill or mount).
alloc_devs=()
for d in sbd-bio sbd-mq brd nullb-mem; do
	if has "$d" "$DEVICES"; then alloc_devs+=("$d"); fi
done

# c. trim4k: 4 KiB random trims over written data.
# run_trim NAME ROUND: the disk written whole (untimed), then every 4 KiB
# block trimmed once in random order (fio's random map, not time_based), so
# every trim frees a page.  A disk not loaded (the cache=1 ones) is made
# for the run and removed after it.
run_trim() {
	local name=$1 r=$2 made=0 m0 freed p0 p1 out=/tmp/bench-fio.json sync=()
	if [ -z "${DEV[$name]:-}" ]; then
		dev_load "$name" "$SIZE_MIB"
		made=1
		# Described once.
		if [ "$r" = 1 ]; then dev_describe "$name" | emit kv "dev.$name"; fi
	fi
	# A cache=1 disk keeps a copy of what each write overwrites until the
	# next flush: flush every 64 MiB, so that the prefill holds the disk's
	# size and not twice that, and at the end, so that the trims start on a
	# clean cache.
	case $name in *-cache) sync=(--fsync=64 --end_fsync=1) ;; esac
	write_all "$name" "" "${sync[@]}"
	m0=$(mem_free_kib)
	p0=$(sbd_stat_of "$name" nr_pages)
	fio_json "$out" "trim4k on $name" --name=trim4k --filename="${DEV[$name]}" --direct=1 \
		--rw=randtrim --bs=4k --ioengine=psync --size=100% --randrepeat=0 --group_reporting
	emit json "trim4k.$name.$r" <"$out"
	p1=$(sbd_stat_of "$name" nr_pages)
	# What the trims gave back; measured again (up to 5 s) until it is
	# nearly all of the disk, as frees may be deferred.  A cache=1 disk
	# gives nothing back before a flush: measured once.
	case $name in
	*-cache) freed=$(($(mem_free_kib) - m0)) ;;
	*) freed=$(mem_gain_kib "$m0" $((SIZE_MIB * 1024 - 2048))) ;;
	esac
	{
		echo "name=$name"
		echo "freed_kib=$freed"
		echo "sbd_pages_before=$p0"
		echo "sbd_pages_after=$p1"
	} | emit kv "trimmem.$name.$r"
	if ((made)); then dev_unload "$name"; fi
}

if has trim4k "$SPECIAL_ROWS"; then
	trim_devs=()
	for d in sbd-bio sbd-mq; do
		if has "$d" "$DEVICES"; then trim_devs+=("$d" "$d-cache"); fi
	done
	if has nullb-mem "$DEVICES"; then trim_devs+=(nullb-mem); fi
	brd_dmax=
	if has brd "$DEVICES"; then
		brd_dmax=$(cat "/sys/block/${DEV[brd]#/dev/}/queue/discard_max_bytes")
		if [ "$brd_dmax" -gt 0 ]; then trim_devs+=(brd); fi
	fi
	{
		echo "devices=${trim_devs[*]}"
		echo "brd_discard_max_bytes=$brd_dmax"
	} | emit kv trim
	for ((r = 1; r <= ROUNDS; r++)); do
		read -ra order <<<"$(rotated "$r" "${trim_devs[@]}")"
		log "round $r/$ROUNDS: trim4k on ${order[*]}"
		for d in "${order[@]}"; do run_trim "$d" "$r"; done
	done
	phase_end trim4k
fi

# d. fill1m: the first write of a fresh disk (the allocation path).
if has fill1m "$SPECIAL_ROWS"; then
	for ((r = 1; r <= ROUNDS; r++)); do
		read -ra order <<<"$(rotated "$r" "${alloc_devs[@]}")"
		log "round $r/$ROUNDS: fill1m on ${order[*]}"
		for d in "${order[@]}"; do
			dev_fresh "$d"
			sync
			echo 3 >/proc/sys/vm/drop_caches
			write_all "$d" "fill1m.$d.$r"
		done
	done
	phase_end fill1m
fi

# e. fs: ext4 on a fresh disk.

# The timed steps' tools (and date, for their clocks) run from a copy in
# tmpfs: the binaries, the libraries ldd names and the loader, started with
# --inhibit-cache. From the host's root over 9p every exec opens, walks and
# closes files there, and a vCPU that waits for a 9p reply is idle, which
# under icount jumps the clock to the next timer tick: about 100 such waits
# in a copy step, up to 0.4 s of nothing, more than the disks' difference.
BIN=/tmp/bench-bin
BIN_LD=
BIN_CONF=/etc/mke2fs.conf
local_tools() {
	local t p l
	[ -z "$BIN_LD" ] || return 0
	rm -rf $BIN
	mkdir -p $BIN
	for t in date cp rm sync fstrim mkfs.ext4; do
		p=$(command -v $t) || continue
		cp "$p" $BIN/ || die "cannot copy $p into $BIN"
		for l in $(ldd "$p" | grep -o '/[^ ]*'); do
			cp -L "$l" $BIN/ || die "cannot copy $l into $BIN"
			case $l in */ld-linux*) BIN_LD=$BIN/${l##*/} ;; esac
		done
	done
	[ -n "$BIN_LD" ] || die "ldd names no loader"
	# Without one mke2fs uses its built-in defaults, so BIN_CONF stays at
	# the path it reads by default (an empty file would instead be a
	# profile with no file system types).
	if [ -f /etc/mke2fs.conf ]; then
		cp /etc/mke2fs.conf $BIN/
		BIN_CONF=$BIN/mke2fs.conf
	fi
}
# local_run TOOL ARGS...: TOOL from the tmpfs copy, once local_tools ran
# (else, or for a tool this system lacks, as it is).
local_run() {
	local t=$1
	shift
	if [ -z "$BIN_LD" ] || [ ! -x "$BIN/$t" ]; then
		"$t" "$@"
		return
	fi
	LC_ALL=C MKE2FS_CONFIG=$BIN_CONF \
		"$BIN_LD" --inhibit-cache --library-path $BIN "$BIN/$t" "$@"
}
now_ns() { local_run date +%s%N; }
# task_ns: how long the CPUs have run tasks (anything but the idle task) since
# boot, in ns, summed over CPUs: /proc/schedstat's 7th figure per CPU. A
# step's share of it leaves out the time no CPU had work, which under icount
# is a jump to the next timer, not work; under icount with one CPU it is the
# instructions the step's tasks executed.
task_ns() { awk '/^cpu/ { s += $8 } END { printf "%.0f\n", s }' /proc/schedstat; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'; }
MKFS_OPTS="-q -F -b 4096 -E nodiscard,lazy_itable_init=0,lazy_journal_init=0"
# The files fio writes in the fs rows: a quarter of the disk, at most 256 MiB.
FS_FIO_MIB=$((SIZE_MIB / 4 < 256 ? SIZE_MIB / 4 : 256))

# What step_time's own readings add to a step's CPU time: the first
# task_ns process (counted when it exits) and the two now_ns ones. The
# least of three tries; set by step_cost.
STEP_COST=0
step_cost() {
	local i c0 c1 x min=
	for i in 1 2 3; do
		c0=$(task_ns)
		x=$(now_ns)
		x=$(now_ns)
		c1=$(task_ns)
		[ -n "$min" ] && [ $((c1 - c0)) -ge "$min" ] || min=$((c1 - c0))
	done
	STEP_COST=$min
}

# step_time CMD...: runs CMD, one timed step of the fs rows; sets STEP_S to
# its seconds and STEP_CPU_S to the CPU time its tasks used (less
# STEP_COST), in seconds. Returns CMD's status.
step_time() {
	local c0 t0 t1 c1 rc=0
	c0=$(task_ns)
	t0=$(now_ns)
	"$@" || rc=$?
	t1=$(now_ns)
	c1=$(task_ns)
	STEP_S=$(secs "$t0" "$t1")
	STEP_CPU_S=$(awk -v a="$c0" -v b="$c1" -v k="$STEP_COST" \
		'BEGIN { printf "%.6f\n", (b - a - k) / 1e9 }')
	return $rc
}

fs_copy() { local_run cp -a $TREE $MNT/tree && local_run sync; }
fs_rm() { local_run rm -rf $MNT/tree && local_run sync; }

# fsync_cpu_us: the CPU time of one fsync'd 4 KiB write on the mounted fs
# rows' files, in microseconds: untimed runs of the fs row's fio job (its
# files are in the page cache from the timed run, and stay there:
# --invalidate=0), stopped after FS_CPU_IOS and 5 x FS_CPU_IOS writes
# (--io_size lets them go on past --size), their tasks' CPU time apart
# divided by the writes apart, so that fio's start and end (some 300 M
# instructions) cancel. A short run before them warms what fio's first
# start reads. Prints nothing when a run failed.
FS_CPU_IOS=10000
fsync_cpu_us() {
	local n c0 c1 d=()
	for n in 1000 $FS_CPU_IOS $((5 * FS_CPU_IOS)); do
		c0=$(task_ns)
		fio --output-format=json --output=/tmp/bench-fio-cpu.json --name=fs-rw4k-fsync \
			--directory=$MNT --nrfiles=16 --size=${FS_FIO_MIB}m --overwrite=1 \
			--rw=randwrite --bs=4k --ioengine=psync --fsync=1 --number_ios="$n" \
			--io_size=$((8 * FS_CPU_IOS * 4))k --invalidate=0 \
			--norandommap --randrepeat=0 >/dev/null 2>/tmp/bench-fio.err || return 1
		c1=$(task_ns)
		d+=($((c1 - c0)))
	done
	awk -v a="${d[1]}" -v b="${d[2]}" -v n=$((4 * FS_CPU_IOS)) \
		'BEGIN { printf "%.3f\n", (b - a) / n / 1000 }'
}

# run_fs NAME ROUND
run_fs() {
	local name=$1 r=$2 path us out=/tmp/bench-fio.json
	local mkfs_s mkfs_cpu copy_s copy_cpu rm_s rm_cpu trim_s="" trim_cpu="" trim_err=""
	dev_fresh "$name"
	path=${DEV[$name]}
	# mkfs zeroes the journal and the inode tables with write-zeroes where
	# the disk has it (sbd: the range becomes holes, no memory), else with
	# writes of zeroes (brd: a page each); the first writes there, in the
	# copy below, then allocate on sbd what brd allocated here.
	# shellcheck disable=SC2086 # MKFS_OPTS is a list of words
	step_time local_run mkfs.ext4 $MKFS_OPTS "$path" >/dev/null 2>/tmp/bench-mkfs.err ||
		{ cat /tmp/bench-mkfs.err >&2; die "mkfs.ext4 on $name failed"; }
	mkfs_s=$STEP_S mkfs_cpu=$STEP_CPU_S
	mkdir -p $MNT
	mount -t ext4 "$path" $MNT || die "cannot mount $name"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	step_time fs_copy || die "copying the tree onto $name failed"
	copy_s=$STEP_S copy_cpu=$STEP_CPU_S
	step_time fs_rm || die "removing the tree from $name failed"
	rm_s=$STEP_S rm_cpu=$STEP_CPU_S
	if step_time local_run fstrim $MNT 2>/tmp/bench-fstrim.err; then
		trim_s=$STEP_S trim_cpu=$STEP_CPU_S
	else
		trim_err=$(tr '\n' ' ' </tmp/bench-fstrim.err)
	fi
	{
		echo "name=$name"
		echo "mkfs_s=$mkfs_s"
		echo "mkfs_cpu_s=$mkfs_cpu"
		echo "copy_s=$copy_s"
		echo "rm_s=$rm_s"
		echo "fstrim_s=$trim_s"
		echo "copy_cpu_s=$copy_cpu"
		echo "rm_cpu_s=$rm_cpu"
		echo "fstrim_cpu_s=$trim_cpu"
		echo "fstrim_error=$trim_err"
		echo "sbd_pages_after=$(sbd_stat_of "$name" nr_pages)"
	} | emit kv "fs.$name.$r"
	fio_json "$out" "fs-rw4k-fsync on $name" --name=fs-rw4k-fsync --directory=$MNT \
		--nrfiles=16 --size=${FS_FIO_MIB}m --overwrite=1 --rw=randwrite --bs=4k \
		--ioengine=psync --fsync=1 --time_based --runtime="$RUNTIME" --ramp_time="$RAMP" \
		--norandommap --randrepeat=0 --group_reporting
	emit json "fs-rw4k-fsync.$name.$r" <"$out"
	us=$(fsync_cpu_us) || { cat /tmp/bench-fio.err >&2; die "fio: the fsync CPU runs on $name failed"; }
	echo "fsync_write_cpu_us=$us" | emit kv "fs-cpu.$name.$r"
	umount $MNT
}

if has fs "$SPECIAL_ROWS"; then
	if ! { modprobe_k ext4 2>/dev/null || modprobe ext4 2>/dev/null || grep -qw ext4 /proc/filesystems; }; then
		echo "skipped=no ext4 in this kernel" | emit kv fstree
		log "fs rows skipped: no ext4"
	elif ! command -v mkfs.ext4 >/dev/null || ! command -v fstrim >/dev/null; then
		echo "skipped=no mkfs.ext4 or fstrim" | emit kv fstree
		log "fs rows skipped: no mkfs.ext4 or fstrim"
	else
		src=${BENCH_FS_TREE:-}
		if [ -z "$src" ]; then
			for s in /usr/src/linux-headers-6.1.0-57-common /usr/src/linux-headers-*-common /usr/include; do
				if [ -d "$s" ]; then src=$s; break; fi
			done
		fi
		[ -d "$src" ] || die "no tree to copy for the fs rows ($src)"
		log "fs: copying $src into $TREE (tmpfs)"
		rm -rf $TREE
		cp -a "$src" $TREE
		{
			echo "source=$src"
			echo "files=$(find $TREE -type f | wc -l)"
			echo "dirs=$(find $TREE -type d | wc -l)"
			echo "symlinks=$(find $TREE -type l | wc -l)"
			echo "bytes=$(du -sb $TREE | cut -f1)"
			echo "mkfs=mkfs.ext4 $MKFS_OPTS"
			echo "fio_mib=$FS_FIO_MIB"
		} | emit kv fstree
		phase_end fs_tree_copy
		local_tools
		step_cost
		for ((r = 1; r <= ROUNDS; r++)); do
			read -ra order <<<"$(rotated "$r" "${alloc_devs[@]}")"
			log "round $r/$ROUNDS: fs on ${order[*]}"
			for d in "${order[@]}"; do run_fs "$d" "$r"; done
		done
		rm -rf $TREE
		phase_end fs
	fi
fi

# f. crash: what crash testing costs, on a 1 GiB sbd disk (bio mode, whatever
# BENCH_SIZE_MIB is) written whole and snapshotted; then, for each size in
# BENCH_CRASH_MIBS, that much written since (1 MiB direct writes over the
# snapshot's pages: copied up, and logged), a crash image of the state that
# keeps all of it, and a restore.  Times, and the pages each holds.
CRASH_MIBS=${BENCH_CRASH_MIBS:-1 64 512}

# run_crash MIB ROUND
run_crash() {
	local mib=$1 r=$2 s=$SBD_CFS/crash-src i=$SBD_CFS/crash-img dev img t0 t1 t2 t3 t4 t5 n
	mkdir $s
	echo $((1 << 30)) >$s/size
	# Room for the data and its entries.
	echo $(((mib + 1) << 20)) >$s/log_limit
	echo 1 >$s/power || die "crash-src: power on failed"
	dev=/dev/$(cat $s/device)
	dd if=/dev/zero of="$dev" bs=1M count=1024 oflag=direct status=none || die "crash-src: fill failed"
	t0=$(now_ns)
	echo 1 >$s/snapshot || die "crash-src: snapshot failed"
	t1=$(now_ns)
	dd if=/dev/urandom of="$dev" bs=1M count="$mib" oflag=direct status=none ||
		die "crash-src: writes failed"
	n=$(awk '$1 == "epoch" && $2 == 1 { print $8 }' $s/log)
	mkdir $i
	t2=$(now_ns)
	echo "crash-src 0 $n" >$i/crash_image || die "crash image (0, $n) failed"
	t3=$(now_ns)
	echo 1 >$i/power || die "crash-img: power on failed"
	img=/sys/block/$(cat $i/device)/sbd
	[ "$(dd if="/dev/$(cat $i/device)" bs=1M count="$mib" iflag=direct status=none | sha256sum)" = \
	  "$(dd if="$dev" bs=1M count="$mib" iflag=direct status=none | sha256sum)" ] ||
		die "crash image (0, $n) differs from the disk"
	{
		echo "mib=$mib"
		echo "writes=$n"
		echo "snapshot_pages=$(cat "/sys/block/${dev#/dev/}/sbd/snapshot_pages")"
		echo "own_pages=$(cat "/sys/block/${dev#/dev/}/sbd/nr_pages")"
		echo "log_bytes=$(awk 'NR == 1 { print $7 }' $s/log)"
		echo "image_pages=$(cat "$img/nr_pages")"
		echo "snapshot_s=$(secs "$t0" "$t1")"
		echo "image_s=$(secs "$t2" "$t3")"
	} >/tmp/bench-crash.kv
	echo 0 >$i/power
	rmdir $i
	t4=$(now_ns)
	echo 1 >$s/restore || die "crash-src: restore failed"
	t5=$(now_ns)
	{
		cat /tmp/bench-crash.kv
		echo "restore_s=$(secs "$t4" "$t5")"
		echo "restore_pages=$(cat "/sys/block/${dev#/dev/}/sbd/restore_pages")"
	} | emit kv "crash.$mib.$r"
	echo 0 >$s/power
	rmdir $s
}

if has crash "$SPECIAL_ROWS"; then
	local_tools
	for ((r = 1; r <= ROUNDS; r++)); do
		for mib in $CRASH_MIBS; do
			log "round $r/$ROUNDS: crash, $mib MiB written since the snapshot"
			run_crash "$mib" "$r"
		done
	done
	phase_end crash
fi

for d in "${devs[@]}"; do
	if [ -n "${DEV[$d]:-}" ]; then dev_unload "$d"; fi
done
if [ -d /sys/module/sbd ]; then rmmod sbd; fi
printf '%stotal_s=%s\n' "$PHASES" "$SECONDS" | emit kv phases
echo "@@DONE" >>"$OUT"
log "done"
