DESCRIPTION="fstrim of an ext4 with thousands of free extents: thousands of discards, no grace period each, nr_pages drops at once"

requires() {
	require_cmd mkfs.ext4 fstrim
	require_kmod ext4
}

test_main() {
	local pages0 pages1 pages2 d0 t0 ms i

	sbd_load nsectors=$((256 << 11))	# 256 MiB
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0 -b 4096 /dev/sbd0
	mount_fs /dev/sbd0
	# 3000 files of 32 KiB; every other one deleted leaves 1500 holes.
	mkdir "$SBD_MNT/d"
	head -c $((32 << 10)) /dev/urandom >/tmp/sbd-32k
	python3 - "$SBD_MNT/d" /tmp/sbd-32k <<'PY'
import os, sys
data = open(sys.argv[2], "rb").read()
for i in range(1, 3001):
    with open(os.path.join(sys.argv[1], str(i)), "wb") as f:
        f.write(data)
PY
	sync
	pages0=$(sbd_stat sbd0 nr_pages)
	python3 -c 'import os, sys; [os.unlink(os.path.join(sys.argv[1], str(i))) for i in range(1, 3001, 2)]' "$SBD_MNT/d"
	sync
	pages1=$(sbd_stat sbd0 nr_pages)
	# Deleting frees nothing on the disk (the journal even writes more).
	expect_range "pages after deleting, before the trim" "$pages1" "$pages0" $((pages0 + 2048))

	d0=$(sbd_stat sbd0 discards)
	t0=$(date +%s%N)
	fstrim "$SBD_MNT"
	ms=$((($(date +%s%N) - t0) / 1000000))
	pages2=$(sbd_stat sbd0 nr_pages)
	echo "fstrim: $(($(sbd_stat sbd0 discards) - d0)) discards in $ms ms"
	expect_range "discards sent by fstrim" $(($(sbd_stat sbd0 discards) - d0)) 1000 1000000
	# 1500 files of 8 pages each came back, read right after fstrim.
	expect_range "pages freed, at once" $((pages1 - pages2)) 12000 $((pages1))
	# The remaining files are intact.
	for i in 2 1000 3000; do
		expect_eq "file $i after the trim" "$(file_sum "$SBD_MNT/d/$i")" "$(file_sum /tmp/sbd-32k)"
	done
	umount "$SBD_MNT"
	e2fsck -fn /dev/sbd0 >/dev/null || fail "e2fsck after fstrim"
	echo "ok: e2fsck clean"
}
