DESCRIPTION="ext4 mounted errors=remount-ro: a journal write failed by a rule aborts the journal and turns the filesystem read-only; after clear the disk serves again and e2fsck can repair it"

requires() {
	require_features errors
	require_cmd mkfs.ext4 e2fsck
	require_kmod ext4
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d i ro=0

	sbd_setup
	d=$(cfg_disk e size=$((64 << 20)))
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "/dev/$d"
	mount_fs -o errors=remount-ro "/dev/$d"
	mkdir "$SBD_MNT/before"
	sync -f "$SBD_MNT"
	dmesg -C

	# Every write fails: the next journal commit of this metadata does.
	cfg_set e errors "op=write"
	mkdir "$SBD_MNT/d1" || fail "mkdir failed before the commit"
	touch "$SBD_MNT/d1/f1" || fail "touch failed before the commit"
	sync -f "$SBD_MNT" 2>/dev/null || true
	for i in $(seq 1 20); do
		if ! touch "$SBD_MNT/after$i" 2>/dev/null; then
			ro=1
			break
		fi
		sync -f "$SBD_MNT" 2>/dev/null || true
		sleep 0.5
	done
	[ $ro = 1 ] || fail "ext4 still takes changes after failed journal writes: $(dmesg | tail -n 5)"
	echo "ok: changes refused after $i attempts"
	dmesg | grep -q "Remounting filesystem read-only" ||
		fail "no 'Remounting filesystem read-only' in: $(dmesg | grep -i ext4 | tail -n 5)"
	echo "ok: ext4 says: $(dmesg | grep -m1 -o 'EXT4-fs.*Remounting filesystem read-only')"
	grep " $SBD_MNT " /proc/mounts | sed 's/^/mount: /'
	expect_range "errors_injected" "$(sbd_stat "$d" errors_injected)" 1 100000
	expect_range "rule hits = errors_injected" "$(rule_field e 0 hits)" \
		"$(sbd_stat "$d" errors_injected)" "$(sbd_stat "$d" errors_injected)"
	[ -d "$SBD_MNT/before" ] || fail "a committed directory is gone"

	cfg_set e errors clear
	umount "$SBD_MNT"
	expect_eq "writes after clear" "$(dio "/dev/$d" w:$((60 << 20)):4k r:$((60 << 20)):4k)" "ok ok"
	e2fsck -fy "/dev/$d" >/dev/null 2>&1 || true
	e2fsck -fn "/dev/$d" >/dev/null || fail "e2fsck -fn not clean after e2fsck -fy"
	mount_fs "/dev/$d"
	[ -d "$SBD_MNT/before" ] || fail "the committed directory is gone after repair"
	touch "$SBD_MNT/again" || fail "ext4 not writable after clear and repair"
	echo "ok: writable again"
	umount "$SBD_MNT"
}
