DESCRIPTION="two machines, target: an sbd disk with a fixed uuid exported over NVMe/TCP on 169.254.0.1 to the initiator only; its power cut and restored when the initiator asks; unexported with nothing left"

requires() {
	require_export
	require_kmod virtio_net
}

. "$SBD_ROOT/tests/lib/export.sh"
. "$SBD_ROOT/tests/two-guests/common.sh"

test_main() {
	local d

	sbd_load ndevices=0
	link_up 169.254.0.1
	mkdir "$SBD_CONFIGFS/t"
	cfg_set t size $((128 << 20))
	cfg_set t cache 1
	cfg_set t uuid "$TWO_UUID"
	d=$(cfg_disk_on t)
	sbdctl_rc 0 export t --addr 169.254.0.1 --host "$TWO_HOSTNQN"
	# Orders from the initiator, one per connection: cut, back, stats, done.
	python3 - "$SBD_CONFIGFS/t" "/sys/block/$d/sbd" <<'PY' || fail "control server"
import socket, sys
item, stats = sys.argv[1], sys.argv[2]
def put(attr, val):
    with open(item + "/" + attr, "w") as f:
        f.write(val)
def get(attr):
    with open(stats + "/" + attr) as f:
        return f.read().strip()
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("169.254.0.1", 4500))
s.listen()
s.settimeout(600)
while True:
    c, _ = s.accept()
    cmd = c.recv(64).decode().strip()
    if cmd == "cut":
        put("power_cut", "1")
        reply = "ok lost_blocks=" + get("lost_blocks")
    elif cmd == "back":
        put("power_cut", "0")
        reply = "ok"
    elif cmd in ("stats", "done"):
        reply = "ok " + " ".join("%s=%s" % (a, get(a)) for a in
                                 ("writes", "flushes", "fua_writes", "power_cuts"))
    else:
        reply = "unknown " + cmd
    print(cmd, "->", reply, flush=True)
    c.sendall(reply.encode() + b"\n")
    c.close()
    if cmd == "done":
        break
PY
	sbdctl_rc 0 unexport t
	expect_eq "nvmet entries at the end" "$(nvmet_entries)" ""
}
