DESCRIPTION="crash over NVMe/TCP: ext4 through an exported cache=1 disk, power cut on sbd mid-workload: the remote host's I/O fails during the cut and works after it, every fsynced file intact and e2fsck clean after replay, a few seeds; a power off under the export fails the remote I/O and crashes nothing"

requires() {
	crash_requires ext4
	require_export
}

. "$SBD_ROOT/tests/lib/cache.sh"
. "$SBD_ROOT/tests/lib/crash.sh"
. "$SBD_ROOT/tests/lib/export.sh"
SBD_EXPORT_CRASH_SEEDS=${SBD_EXPORT_CRASH_SEEDS:-11 12}
SBD_EXPORT_CRASH_SEEDS=${SBD_EXPORT_CRASH_SEEDS//,/ }

# remote_read DEV: "ok" or "EIO..." for one O_DIRECT 4 KiB read of DEV.
remote_read() {
	dd if="$1" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null &&
		echo ok || echo failed
}

# trial SEED: one crash through NVMe/TCP on a new disk; prints its result.
trial() {
	local seed=$1 d u nqn n res lost

	mkdir "$SBD_CONFIGFS/xc"
	cfg_set xc size $((64 << 20))
	cfg_set xc cache 1
	cfg_set xc seed "$seed"
	cfg_set xc power_cut_keep "$CRASH_KEEP"
	d=/dev/$(cfg_disk_on xc)
	u=$(cfg_get xc uuid)
	nqn=nqn.2014-08.org.nvmexpress:uuid:$u
	n=/dev/$(export_connect xc)

	crash_mkfs ext4 "$n" >>"$CRASH_LOG" 2>&1 || fail "mkfs.ext4 $n failed"
	sync
	mount_fs -t ext4 "$n" || fail "mount $n failed"
	python3 "$CRASHFS" write "$SBD_MNT" "$seed" >>"$CRASH_LOG" 2>&1 ||
		fail "the workload through NVMe/TCP failed (see $CRASH_LOG)"

	cfg_set xc power_cut 1
	lost=$(sbd_stat "${d#/dev/}" lost_blocks)
	expect_eq "seed $seed: a remote read during the cut" "$(remote_read "$n")" failed
	{ timeout -k 5 60 umount "$SBD_MNT" || umount -l "$SBD_MNT" || true; } >>"$CRASH_LOG" 2>&1
	cfg_set xc power_cut 0
	expect_eq "seed $seed: a remote read after power is back" "$(remote_read "$n")" ok
	crash_drop_caches "$n"

	mount_fs -t ext4 "$n" >>"$CRASH_LOG" 2>&1 || fail "seed $seed: no mount after the cut"
	res=$(python3 "$CRASHFS" verify "$SBD_MNT" "$seed" 2>>"$CRASH_LOG")
	umount "$SBD_MNT"
	echo "seed $seed: $res lost_blocks=$lost"
	expect_eq "seed $seed: fsynced files intact" "$(kv intact "$res")" 1
	crash_fsck ext4 "$n" >>"$CRASH_LOG" 2>&1 || fail "seed $seed: e2fsck not clean"
	echo "ok: seed $seed: e2fsck clean"

	nvme disconnect -n "$nqn" >/dev/null
	nvme_gone "$u"
	sbdctl_rc 0 remove --force xc >/dev/null
}

test_main() {
	local seed u nqn n

	sbd_setup
	# SBD_EXPORT_CRASH_SEEDS: more seeds (make soak), commas or spaces.
	for seed in $SBD_EXPORT_CRASH_SEEDS; do
		trial "$seed"
	done

	# Power off under an export: the remote side gets errors, no crash;
	# unexport and rmdir then work.
	cfg_disk xp size=$((16 << 20)) >/dev/null
	u=$(cfg_get xp uuid)
	nqn=nqn.2014-08.org.nvmexpress:uuid:$u
	n=/dev/$(export_connect xp)
	expect_eq "a remote read" "$(remote_read "$n")" ok
	cfg_set xp power 0
	expect_eq "a remote read with the disk powered off" "$(remote_read "$n")" failed
	nvme disconnect -n "$nqn" >/dev/null
	nvme_gone "$u"
	sbdctl_rc 0 unexport xp >/dev/null 2>&1 ||
		fail "unexport of a powered-off disk"
	rmdir "$SBD_CONFIGFS/xp"
	expect_eq "nvmet entries at the end" "$(nvmet_entries)" ""
}
