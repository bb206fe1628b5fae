DESCRIPTION="churn: verified fio writers and readers on three disks while other disks are created, written, resized, discarded, powered off and removed in a loop; data intact, no kernel report, no hang"

CHURN_SECONDS=${SBD_CHURN_SECONDS:-40}

requires() {
	require_cmd fio blkdiscard
}

# One round of the churn on a disk nobody else uses, and online resizes
# and discards of disk $2 beyond the range its fio job uses.
churn_round() {	# churn_round ROUND BUSY_DISK
	local c=churn$1 d mib=$((1 << 20))

	d=$(cfg_disk "$c" size=$((16 * mib)) logical_block_size=$((512 << ($1 % 4))))
	dd if=/dev/urandom of="/dev/$d" bs=1M count=4 oflag=direct status=none ||
		fail "round $1: write to $d failed"
	cfg_set "$c" size $((32 * mib))
	blkdiscard -o $((2 * mib)) -l $((8 * mib)) "/dev/$d" || fail "round $1: discard on $d failed"
	cfg_set "$c" size $((8 * mib))
	cfg_set "$c" power 0
	cfg_disk_on "$c" >/dev/null
	cfg_set "$c" power 0
	rmdir "$SBD_CONFIGFS/$c" || fail "round $1: rmdir $c failed"

	# The busy disk: fio uses its first 32 MiB; this part is free.
	cfg_set "$2" size $(((48 + 16 * ($1 % 3)) * mib))
	blkdiscard -o $((40 * mib)) -l $((8 * mib)) "/dev/$(cfg_get "$2" device)" ||
		fail "round $1: discard on $2 failed"
}

test_main() {
	local a b rounds=0 t0 pids=() p rc=0 out=/tmp/sbd-churn

	sbd_load
	a=$(cfg_disk a size=$((64 << 20)))
	b=$(cfg_disk b size=$((64 << 20)))
	# Writers that verify what they wrote as they go, and a reader.
	fio --name=wa --filename="/dev/$a" --size=32M --rw=randwrite --bs=4k \
		--ioengine=psync --direct=1 --verify=crc32c --verify_backlog=64 \
		--time_based --runtime="$CHURN_SECONDS" >"$out.a" 2>&1 &
	pids+=($!)
	fio --name=wb --filename="/dev/$b" --size=32M --rw=randwrite --bsrange=512-64k \
		--ioengine=psync --direct=1 --verify=crc32c --verify_backlog=64 \
		--time_based --runtime="$CHURN_SECONDS" >"$out.b" 2>&1 &
	pids+=($!)
	fio --name=r0 --filename=/dev/sbd0 --rw=randread --bs=16k --ioengine=psync \
		--direct=1 --time_based --runtime="$CHURN_SECONDS" >"$out.0" 2>&1 &
	pids+=($!)

	t0=$SECONDS
	while [ $((SECONDS - t0)) -lt "$CHURN_SECONDS" ]; do
		churn_round "$rounds" b
		rounds=$((rounds + 1))
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=$?
	done
	for p in a b 0; do
		grep -q 'err= 0' "$out.$p" && [ "$rc" = 0 ] ||
			{ cat "$out.$p"; fail "fio on $p failed (exit $rc)"; }
	done
	echo "ok: three fio jobs for ${CHURN_SECONDS}s, writers verified, no errors"
	[ "$rounds" -ge 2 ] || fail "only $rounds churn rounds in ${CHURN_SECONDS}s"
	echo "ok: $rounds rounds of create, write, resize, discard, power off and on, remove"
	expect_eq "runtime disks left" "$(ls "$SBD_CONFIGFS" | tr '\n' ' ')" "a b "
	rmdir "$SBD_CONFIGFS/a" "$SBD_CONFIGFS/b"
	sbd_unload
}
