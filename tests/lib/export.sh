# shellcheck shell=bash
# Helpers of the export tests: sbd disks served by nvmet over TCP and used
# through the kernel's NVMe/TCP host, in the same guest over 127.0.0.1.

NVMET=/sys/kernel/config/nvmet
# A host NQN for the initiator side, fixed so that messages are stable.
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:5bd0e4a1-0000-4000-8000-000000000001

# The target, the host and loopback networking: skips without them.
require_export() {
	require_sbdctl
	require_cmd nvme ip
	require_kmod nvmet nvmet-tcp nvme-tcp
	ip link set lo up || skip "cannot bring up lo"
	sbd_deps
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	[ -d "$NVMET" ] || skip "no $NVMET (nvmet loaded, configfs mounted?)"
}

# nvme_dev UUID: the host's block device (nvmeXnY) of the namespace with
# this uuid, waiting up to 10 s for it to appear; fails if it does not.
nvme_dev() {
	local t b
	for t in $(seq 1 100); do
		for b in /sys/block/nvme*; do
			# nvmeXcYnZ: a path under native multipath, hidden
			case ${b##*/} in nvme*c*n*) continue ;; esac
			[ -e "$b/uuid" ] || continue
			if [ "$(cat "$b/uuid")" = "$1" ]; then
				basename "$b"
				return 0
			fi
		done
		sleep 0.1
	done
	fail "no NVMe namespace with uuid $1 appeared"
}

# export_connect NAME: the runtime disk NAME exported to $HOSTNQN on
# 127.0.0.1:4420 and connected; prints the host's namespace (nvmeXnY).
export_connect() {
	local u
	u=$(cfg_get "$1" uuid)
	sbdctl_rc 0 export "$1" --host "$HOSTNQN" >/dev/null
	nvme connect -t tcp -a 127.0.0.1 -s 4420 -n "nqn.2014-08.org.nvmexpress:uuid:$u" \
		--hostnqn "$HOSTNQN" >/dev/null || fail "nvme connect to $1 failed"
	nvme_dev "$u"
}

# ext4_roundtrip DEV MIB: ext4 made on DEV, MIB of random data written to a
# file and synced, unmounted, and e2fsck -fn clean.
ext4_roundtrip() {
	mkfs.ext4 -q -F "$1" || fail "mkfs.ext4 $1"
	mount_fs "$1"
	head -c "$2M" /dev/urandom >"$SBD_MNT/f"
	sync "$SBD_MNT/f"
	umount "$SBD_MNT"
	e2fsck -fn "$1" >/tmp/sbd-fsck.out 2>&1 || fail "e2fsck $1: $(tail -n 5 /tmp/sbd-fsck.out)"
	echo "ok: ext4 on $1: made, written, synced, e2fsck clean"
}

# nvme_gone UUID: waits up to 10 s for that namespace to go.
nvme_gone() {
	local t b found
	for t in $(seq 1 100); do
		found=""
		for b in /sys/block/nvme*; do
			[ -e "$b/uuid" ] && [ "$(cat "$b/uuid")" = "$1" ] && found=$b
		done
		[ -n "$found" ] || return 0
		sleep 0.1
	done
	fail "namespace $1 still there after 10 s"
}

# nvmet_entries: what nvmet's tree holds, one line ("hosts/X", ...).
nvmet_entries() {
	(cd "$NVMET" 2>/dev/null && ls -d hosts/* subsystems/* ports/* 2>/dev/null)
}

# nvmet_clear: disconnects every NVMe-oF controller and removes every
# nvmet entry, links first; tests/run calls it after each test, so that a
# failed test leaves nothing that holds an sbd disk open.
nvmet_clear() {
	local s ns
	command -v nvme >/dev/null && nvme disconnect-all >/dev/null 2>&1
	[ -d "$NVMET" ] || return 0
	rm -f "$NVMET"/ports/*/subsystems/* 2>/dev/null
	for s in "$NVMET"/subsystems/*/; do
		[ -d "$s" ] || continue
		for ns in "$s"namespaces/*/; do
			[ -d "$ns" ] || continue
			echo 0 >"$ns/enable" 2>/dev/null
			rmdir "$ns" 2>/dev/null
		done
		rm -f "$s"allowed_hosts/* 2>/dev/null
		rmdir "$s" 2>/dev/null
	done
	rmdir "$NVMET"/ports/* "$NVMET"/hosts/* 2>/dev/null
	rm -rf /run/sbd/made
	return 0
}
