DESCRIPTION="sbdctl export over NVMe/TCP on 127.0.0.1: nvme connect finds the disk by its uuid and model, fio verify and ext4 through it, the host's flushes and FUA writes reach sbd, two disks share a port, unexport leaves no nvmet entry and no namespace; bad input and a taken port refused with nothing left; remove refuses an exported disk"

requires() {
	require_cmd fio mkfs.ext4 e2fsck python3
	require_kmod ext4
	require_export
}

. "$SBD_ROOT/tests/lib/export.sh"

test_main() {
	local out conn a b ua ub nqa nqb na nb f0 u0 pypid

	sbd_load ndevices=0
	# With the write cache, so that flushes and FUA writes are counted.
	a=/dev/$(cfg_disk ea size=$((256 << 20)) cache=1)
	ua=$(cat "$SBD_CONFIGFS/ea/uuid")
	nqa=nqn.2014-08.org.nvmexpress:uuid:$ua

	# Export: the commands printed are the ones that work.
	out=$(sbdctl_rc 0 export ea --host "$HOSTNQN")
	echo "$out"
	expect_eq "first line" "$(head -n 1 <<<"$out")" "$a exported as $nqa on tcp 127.0.0.1:4420"
	conn=$(grep '^nvme connect ' <<<"$out")
	expect_eq "connect command" "$conn" \
		"nvme connect -t tcp -a 127.0.0.1 -s 4420 -n $nqa --hostnqn $HOSTNQN"
	expect_eq "nvmet entries" "$(nvmet_entries | tr '\n' ' ')" \
		"hosts/$HOSTNQN ports/1 subsystems/$nqa "
	$(grep '^nvme discover ' <<<"$out") | grep -q "subnqn: *$nqa" ||
		fail "nvme discover does not list $nqa"
	# Only the hosts named may connect.
	if nvme connect -t tcp -a 127.0.0.1 -s 4420 -n "$nqa" \
		--hostnqn "${HOSTNQN%1}2" >/dev/null 2>&1; then
		fail "a host not named with --host could connect"
	fi
	echo "ok: a host not named is refused"
	eval "$conn" >/dev/null || fail "$conn failed"
	na=$(nvme_dev "$ua")
	echo "host side: /dev/$na"
	expect_eq "the namespace's model" "$(cat "/sys/block/$na/device/model" | tr -d ' ')" sbd
	expect_eq "the namespace's size" "$(blockdev --getsize64 "/dev/$na")" $((256 << 20))

	# Data through the network path, checked on both sides.
	fio --name=remote --filename="/dev/$na" --rw=randwrite --bs=4k --size=32M \
		--ioengine=libaio --iodepth=8 --direct=1 --verify=crc32c \
		--verify_fatal=1 --output-format=terse >/tmp/sbd-fio.out 2>&1 ||
		fail "fio verify over NVMe/TCP: $(tail -n 5 /tmp/sbd-fio.out)"
	expect_eq "the same bytes on sbd and through NVMe/TCP" \
		"$(dev_sum "/dev/$na" 0 $((32 << 20)))" "$(dev_sum "$a" 0 $((32 << 20)))"

	# ext4 through it; the journal's flushes and FUA writes reach sbd.
	f0=$(sbd_stat "${a#/dev/}" flushes)
	u0=$(sbd_stat "${a#/dev/}" fua_writes)
	ext4_roundtrip "/dev/$na" 4
	expect_range "flushes on sbd from the remote ext4" \
		$(($(sbd_stat "${a#/dev/}" flushes) - f0)) 1 1000000
	expect_range "FUA writes on sbd from the remote ext4" \
		$(($(sbd_stat "${a#/dev/}" fua_writes) - u0)) 1 1000000

	# A second disk on the same address shares the port.
	b=$(sbdctl_rc 0 create --size 64M --name eb)
	ub=$(cat "$SBD_CONFIGFS/eb/uuid")
	nqb=nqn.2014-08.org.nvmexpress:uuid:$ub
	sbdctl_rc 0 export eb --host "$HOSTNQN" >/dev/null
	expect_eq "two subsystems, one port" "$(ls "$NVMET/ports/1/subsystems" | sort | tr '\n' ' ')" \
		"$(printf '%s\n' "$nqa" "$nqb" | sort | tr '\n' ' ')"
	nvme connect -t tcp -a 127.0.0.1 -s 4420 -n "$nqb" --hostnqn "$HOSTNQN" >/dev/null ||
		fail "connect to the second disk"
	nb=$(nvme_dev "$ub")
	expect_eq "the second namespace's size" "$(blockdev --getsize64 "/dev/$nb")" $((64 << 20))

	# remove of an exported disk: refused; --force unexports first.
	sbdctl_rc 1 remove eb | grep -q "is exported as $nqb" || fail "remove: no reason given"
	nvme disconnect -n "$nqb" >/dev/null
	nvme_gone "$ub"
	sbdctl_rc 0 remove --force eb >/dev/null
	[ ! -e "$NVMET/subsystems/$nqb" ] || fail "remove --force left the subsystem"

	# Unexport: nothing left in nvmet, no namespace on the host.
	nvme disconnect -n "$nqa" >/dev/null
	nvme_gone "$ua"
	sbdctl_rc 0 unexport "$a" >/dev/null
	expect_eq "nvmet entries after unexport" "$(nvmet_entries)" ""
	sbdctl_rc 4 unexport ea >/dev/null

	# Bad input: refused, nothing left.
	sbdctl_rc 4 export nosuch --host "$HOSTNQN" >/dev/null
	sbdctl_rc 2 export ea --host not-an-nqn >/dev/null
	sbdctl_rc 2 export ea >/dev/null
	python3 -c 'import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 4430)); s.listen(); time.sleep(60)' &
	pypid=$!
	sleep 2
	out=$(sbdctl_rc 1 export ea --host "$HOSTNQN" --port 4430)
	kill "$pypid"
	wait "$pypid" 2>/dev/null || true
	echo "taken port: $out"
	expect_eq "nvmet entries after a failed export" "$(nvmet_entries)" ""

	# --auth: where nvmet has authentication, a secret to connect with.
	if [ -e "$NVMET/hosts" ] && out=$("$SBDCTL" export ea --host "$HOSTNQN" --auth 2>&1); then
		conn=$(grep '^nvme connect ' <<<"$out")
		[[ $conn == *"--dhchap-secret DHHC-1:00:"* ]] || fail "--auth: no secret in '$conn'"
		if ${conn% --dhchap-secret *} >/dev/null 2>&1; then
			fail "--auth: the host connected without its secret"
		fi
		echo "ok: --auth: without the secret the host is refused"
		eval "$conn" >/dev/null || fail "connect with the secret failed: $conn"
		nvme_dev "$ua" >/dev/null
		echo "ok: --auth: connected with the secret"
		nvme disconnect -n "$nqa" >/dev/null
		nvme_gone "$ua"
		sbdctl_rc 0 unexport ea >/dev/null
	else
		echo "--auth refused: $out"
		[[ $out == *"no in-band authentication"* ]] || fail "--auth: $out"
	fi
	expect_eq "nvmet entries at the end" "$(nvmet_entries)" ""
}
