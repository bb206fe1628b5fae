DESCRIPTION="the udev rule 60-sbd.rules under a real systemd-udevd: a named disk appears as /dev/sbd/by-name/NAME and its partitions as NAME-partN, which sbdctl list --json shows and every sbdctl command takes; a disk of the module parameters gets no link; the links go with the disk"

# The rule under test: the repository's, or the one a package installed
# (scripts/check-deb points SBD_UDEV_RULE at the chroot's).
RULE=${SBD_UDEV_RULE:-$SBD_ROOT/tools/sbdctl/60-sbd.rules}
UDEVD=/lib/systemd/systemd-udevd

requires() {
	require_sbdctl
	require_cmd udevadm
	require_cmd sfdisk
	[ -x "$UDEVD" ] || skip "no $UDEVD (apt-get install udev)"
	[ -f "$RULE" ] || skip "no $RULE"
	[ ! -e /run/udev/control ] || skip "a udevd already runs"
}

. "$SBD_ROOT/tests/lib/cache.sh"

# The guest's tests run chrooted into the host's root, where udevadm's
# settle would do nothing ("Running in chroot, ignoring request").
settle() {
	SYSTEMD_IGNORE_CHROOT=1 udevadm settle -t 30 || fail "udevadm settle timed out"
}

udevd_stop() {
	udevadm control --exit 2>/dev/null
	rm -rf /run/udev
}

test_main() {
	local dev d link json

	sbd_load ndevices=1	# sbd0: no name, so no link
	trap 'sbd_teardown_rc=$?; udevd_stop; sbd_teardown; exit $sbd_teardown_rc' EXIT
	# udevd reads rules from /run/udev/rules.d too: the guest's /etc and /lib
	# are the host's, read-only.
	mkdir -p /run/udev/rules.d
	cp "$RULE" /run/udev/rules.d/60-sbd.rules
	"$UDEVD" --daemon || fail "systemd-udevd --daemon failed"
	settle

	dev=$(sbdctl_rc 0 create --size 16M --name scratch)
	d=${dev#/dev/}
	settle
	link=/dev/sbd/by-name/scratch
	expect_eq "the disk made as scratch: $link leads to it" "$(readlink -f "$link")" "$dev"
	json=$(sbdctl_rc 0 list --json)
	expect_eq "list --json: the link of scratch, none for sbd0" "$(python3 -c '
import json, sys
print(" ".join("%s=%s" % (d["name"], d["link"]) for d in json.loads(sys.argv[1])))' "$json")" \
		"None=None scratch=$link"
	expect_eq "the link is a DEV of sbdctl" "$(sbdctl_rc 0 show "$link" | awk '$1 == "device" { print $2 }')" "$dev"
	expect_eq "... resize through it" "$(sbdctl_rc 0 resize "$link" 32M >/dev/null; cat "/sys/block/$d/size")" 65536

	echo ',8M' | sfdisk -q "$dev" || fail "sfdisk $dev"
	settle
	expect_eq "its partition: ${link}-part1" "$(readlink -f "${link}-part1")" "/dev/${d}p1"
	expect_eq "nothing for sbd0" "$(ls /dev/sbd/by-name)" "scratch
scratch-part1"

	sbdctl_rc 0 remove scratch >/dev/null
	settle
	expect_eq "the links go with the disk" "$(ls -A /dev/sbd/by-name 2>/dev/null)" ""
}
