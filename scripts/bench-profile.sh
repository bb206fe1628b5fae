# shellcheck shell=bash
# Step 2b of scripts/bench-guest.sh (BENCH_PROFILE=1), sourced by it after
# the fio rows, with the disks loaded and still holding the prefill: where
# does the time go, and what would change it.
#
#  - perf profiles (software cpu-clock sampling: TCG has no PMU) of sbd-bio
#    (sbd's default mode), brd and null_blk nomem on the main rows, emitted
#    as text "profile.ROW.DISK";
#  - experiments, each a fio run emitted as json "exp.WHAT.ROW.ROUND", all
#    interleaved in each round; "sbd" in their names is the sbd-bio disk:
#      sbd, brd, nomem     the plain disks, for reference
#      *-noiostats         queue/iostats=0: no I/O accounting
#      *-nowbt             queue/wbt_lat_usec=0: no writeback throttling
#      *-lean              both
#      nomem-blocking      null_blk nomem with blocking=1: BLK_MQ_F_BLOCKING,
#                          which sbd-mq sets, alone
#      nomem-1q            null_blk nomem with one hardware queue
#      *-gtod              fio --gtod_reduce=1: fio reads the clock far less
#      *-hpet              the guest's clocksource switched to the emulated
#                          HPET for the run (when it boots on the TSC,
#                          BENCH_APPEND=tsc=reliable): every clock read, in
#                          fio and in the block layer, is then an exit to QEMU
# BENCH_PROFILE_ROWS, BENCH_EXP_ROWS (comma-separated; "none" skips),
# BENCH_EXP_ROUNDS, BENCH_EXP_WHAT (comma-separated experiment names, e.g.
# "sbd,sbd-noiostats,brd": only those; default all).
PROFILE_ROWS=${BENCH_PROFILE_ROWS:-rr4k-psync-1j,rw4k-psync-1j,rr4k-uring-qd32,sr1m-psync-1j,sw1m-psync-1j}
EXP_ROWS=${BENCH_EXP_ROWS:-rr4k-psync-1j,rw4k-psync-1j,rw4k-uring-qd1,rr4k-uring-qd32,sr1m-psync-1j}
EXP_ROUNDS=${BENCH_EXP_ROUNDS:-2}

# profile ROW DISK: perf over one fio run.
profile() {
	local row=$1 name=$2 data=/tmp/bench-perf.data
	# -N: no build-id cache (HOME is on the read-only host root).
	# shellcheck disable=SC2046
	perf record -N -q -a -g -e cpu-clock -F 2000 -o $data -- \
		fio --name="$row" --filename="${DEV[$name]}" --direct=1 --time_based \
		--runtime="$RUNTIME" --norandommap --randrepeat=0 --group_reporting \
		--output-format=terse $(row_args "$row") >/tmp/bench-perf.fio 2>/tmp/bench-perf.err ||
		{ cat /tmp/bench-perf.err >&2; log "perf record failed for $row on $name"; return 0; }
	# Each section may come out empty: none of these may fail the group.
	# Under pipefail: no head(1), whose early exit would SIGPIPE perf.
	pr() { perf report -i $data --stdio "$@" 2>/dev/null || true; }
	kern() { grep -F '[k]' || true; }
	{
		echo "# perf record -a -g -e cpu-clock -F 2000, fio $row on $name (${DEV[$name]})"
		echo "# fio: $(awk -F';' '{ printf "read %s IOPS %s KiB/s, write %s IOPS %s KiB/s", $8, $7, $49, $48 }' /tmp/bench-perf.fio)"
		echo "# --- self time by command ---"
		pr --no-children --sort comm -g none | grep -v -e '^#' -e '^$' || true
		echo "# --- self time by symbol (all CPUs, user and kernel) ---"
		pr --no-children --sort sym -g none --percent-limit 0.5 | grep -v -e '^#' -e '^$' || true
		echo "# --- self time by symbol, kernel only ---"
		pr --no-children --sort sym -g none --percent-limit 0.3 | kern
		echo "# --- self time of what runs under the driver's entry point ---"
		pr --no-children --sort sym -g none --percent-limit 0.1 \
			--parent '^(sbd_submit_bio|sbd_queue_rq|null_queue_rq|brd_submit_bio)$' -x | kern
		echo "# --- self time of what runs under submit_bio (block layer and driver) ---"
		pr --no-children --sort sym -g none --percent-limit 0.1 \
			--parent '^submit_bio_noacct_nocheck$' -x | kern
		echo "# --- inclusive time (children), kernel, top 80 ---"
		pr --children --sort sym -g none | kern | awk 'NR <= 80'
	} | emit text "profile.$row.$name" || log "perf report failed for $row on $name"
	rm -f $data
}

[ "$PROFILE_ROWS" = none ] && PROFILE_ROWS=
[ "$EXP_ROWS" = none ] && EXP_ROWS=
if command -v perf >/dev/null && perf --version >/dev/null 2>&1; then
	for row in ${PROFILE_ROWS//,/ }; do
		for d in sbd-bio brd nullb-nomem; do
			[ -n "${DEV[$d]:-}" ] || continue
			log "profile: $row on $d"
			profile "$row" "$d"
		done
	done
else
	log "no usable perf: profiles skipped"
fi

# ---- experiments -------------------------------------------------------------
[ -n "$EXP_ROWS" ] || return 0
dev_load nullb-nomem-blocking "$SIZE_MIB" blocking=1
dev_load nullb-nomem-1q "$SIZE_MIB" submit_queues=1
for d in nullb-nomem-blocking nullb-nomem-1q; do dev_describe "$d" | emit kv "dev.$d"; done

# exp_run WHAT DISK ROW ROUND [ATTR=VALUE,...] [FIO ARG...]: one run with
# the queue attributes set (put back afterwards) and the extra fio args.
exp_run() {
	local what=$1 name=$2 row=$3 r=$4 q kv old=()
	[ -n "${DEV[$name]:-}" ] || return 0	# not in BENCH_DEVICES
	exp_wanted "$what" || return 0
	q=/sys/block/${DEV[$name]#/dev/}/queue
	for kv in $(tr , " " <<<"${5:-}"); do
		[ -w "$q/${kv%%=*}" ] || { log "no $q/${kv%%=*}: $what skipped"; return 0; }
		old+=("${kv%%=*}=$(cat "$q/${kv%%=*}")")
		echo "${kv#*=}" >"$q/${kv%%=*}"
	done
	fio_emit "exp.$what.$row.$r" "${DEV[$name]}" "$row" "${@:6}"
	for kv in "${old[@]}"; do echo "${kv#*=}" >"$q/${kv%%=*}"; done
}

# exp_wanted WHAT: WHAT is in BENCH_EXP_WHAT, or that is empty.
exp_wanted() {
	[ -z "${BENCH_EXP_WHAT:-}" ] || [[ ",$BENCH_EXP_WHAT," == *",$1,"* ]]
}

# exp_clock WHAT DISK ROW ROUND CLOCKSOURCE: exp_run with another clocksource.
cs=/sys/devices/system/clocksource/clocksource0
exp_clock() {
	local cur
	exp_wanted "$1" || return 0
	cur=$(cat $cs/current_clocksource)
	[ "$cur" != "$5" ] && grep -qw "$5" $cs/available_clocksource || return 0
	echo "$5" >$cs/current_clocksource
	exp_run "$1" "$2" "$3" "$4"
	echo "$cur" >$cs/current_clocksource
}

lean=iostats=0,wbt_lat_usec=0
for ((r = 1; r <= EXP_ROUNDS; r++)); do
	for row in ${EXP_ROWS//,/ }; do
		log "experiments, round $r/$EXP_ROUNDS: $row"
		exp_run sbd sbd-bio "$row" "$r"
		exp_run sbd-noiostats sbd-bio "$row" "$r" iostats=0
		exp_run sbd-nowbt sbd-bio "$row" "$r" wbt_lat_usec=0
		exp_run sbd-lean sbd-bio "$row" "$r" $lean
		exp_run sbd-gtod sbd-bio "$row" "$r" "" --gtod_reduce=1
		exp_run sbd-lean-gtod sbd-bio "$row" "$r" $lean --gtod_reduce=1
		exp_clock sbd-hpet sbd-bio "$row" "$r" hpet
		exp_run brd brd "$row" "$r"
		exp_clock brd-hpet brd "$row" "$r" hpet
		exp_run brd-gtod brd "$row" "$r" "" --gtod_reduce=1
		exp_run nomem nullb-nomem "$row" "$r"
		exp_run nomem-lean nullb-nomem "$row" "$r" $lean
		exp_run nomem-gtod nullb-nomem "$row" "$r" "" --gtod_reduce=1
		exp_clock nomem-hpet nullb-nomem "$row" "$r" hpet
		exp_run nomem-blocking nullb-nomem-blocking "$row" "$r"
		exp_run nomem-1q nullb-nomem-1q "$row" "$r"
	done
done
dev_unload nullb-nomem-blocking
dev_unload nullb-nomem-1q
