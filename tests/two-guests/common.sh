# shellcheck shell=bash
# What the two guests of scripts/two-guests.sh agree on: a link-local
# subnet on their private link, the target's disk uuid (and so its NQN),
# the initiator's host NQN and the target's control port.
TWO_UUID=5bd0e4a1-0000-4000-8000-0000000000aa
TWO_NQN=nqn.2014-08.org.nvmexpress:uuid:$TWO_UUID
TWO_HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:5bd0e4a1-0000-4000-8000-0000000000bb

# link_up ADDR: the guest's NIC up with ADDR/16 (169.254.0.0/16).
link_up() {
	local nic
	nic=$(ls /sys/class/net | grep -v '^lo$' | head -n 1)
	[ -n "$nic" ] || fail "no network interface (QEMU socket network missing?)"
	ip link set lo up
	ip link set "$nic" up
	ip addr add "$1/16" dev "$nic" || fail "ip addr add $1/16 dev $nic"
	echo "$nic: $1/16"
}

# ctl ORDER: sends ORDER to the target's control port, prints its reply;
# retries for up to TRIES seconds (default 5) while the target is not up.
ctl() {
	local t
	for t in $(seq 1 "${2:-5}"); do
		if python3 - "$1" <<'PY' 2>/dev/null; then
import socket, sys
c = socket.create_connection(("169.254.0.1", 4500), timeout=30)
c.sendall(sys.argv[1].encode() + b"\n")
print(c.makefile().readline().strip())
PY
			return 0
		fi
		sleep 1
	done
	fail "the target did not answer '$1'"
}
