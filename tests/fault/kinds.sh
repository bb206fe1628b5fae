DESCRIPTION="errors error=KIND: each kind reaches userspace as its errno through O_DIRECT reads, writes and fsync (EIO, ENODATA, ENOSPC, ETIMEDOUT, EILSEQ); buffered reads see EIO"

requires() {
	require_features errors cache
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local d kind errno want n=0 msg
	local -A errnos=([ioerr]=EIO [medium]=ENODATA [nospc]=ENOSPC [timeout]=ETIMEDOUT [protection]=EILSEQ)

	sbd_setup
	d=$(cfg_disk e size=$((16 << 20)) cache=1)
	for kind in ioerr medium nospc timeout protection; do
		errno=${errnos[$kind]}
		cfg_set e errors clear
		cfg_set e errors "op=write next=1 error=$kind"
		cfg_set e errors "op=read next=1 error=$kind"
		cfg_set e errors "op=flush next=1 error=$kind"
		cfg_set e errors "op=discard next=1 error=$kind"
		expect_eq "error=$kind: write read flush discard, twice" \
			"$(dio "/dev/$d" w:0:4k r:0:4k f d:0:4k w:0:4k r:0:4k f d:0:4k)" \
			"$errno $errno $errno $errno ok ok ok ok"
		expect_eq "error=$kind listed" "$(rule_field e 0 error)" "$kind"
		n=$((n + 4))
		expect_eq "errors_injected" "$(sbd_stat "$d" errors_injected)" $n
	done

	# What dd says: the strerror of the same errno.
	cfg_set e errors clear
	for kind in ioerr medium nospc; do
		cfg_set e errors "op=write next=1 error=$kind"
	done
	for want in "Input/output error" "No data available" "No space left on device"; do
		msg=$(dd if=/dev/zero of="/dev/$d" bs=4k count=1 oflag=direct status=none 2>&1) &&
			fail "dd succeeded despite a rule"
		[[ $msg == *"$want"* ]] || fail "dd: '$msg', expected '$want'"
		echo "ok: dd: $msg"
	done

	# Through the page cache a failed read is EIO, whatever the kind.
	cfg_set e errors clear
	cfg_set e errors "op=read sector=2048-2055 error=medium"
	echo 3 >/proc/sys/vm/drop_caches
	msg=$(dd if="/dev/$d" of=/dev/null bs=4k skip=256 count=1 status=none 2>&1) &&
		fail "buffered read of a failing block succeeded"
	[[ $msg == *"Input/output error"* ]] || fail "buffered read: '$msg', expected EIO"
	echo "ok: buffered read: $msg"
}
