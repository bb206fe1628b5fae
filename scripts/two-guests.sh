#!/bin/bash
# two-guests.sh [LINE]: sbd served from one machine to another.  Two small
# guests of LINE (default 6.1), one vCPU and 1 GiB each, are joined by a
# QEMU socket network: the only host-side traffic is between the two QEMU
# processes, over the host's 127.0.0.1.  Inside, the link carries
# link-local addresses (169.254.0.1, the target; .2, the initiator).  The
# target runs tests/two-guests/target.sh, the initiator
# tests/two-guests/initiator.sh, each under tests/run (kernel log and
# leak checks included).  Prints their TAP lines and "N passed, N failed";
# exits 1 if anything failed.  `make check-two-guests` runs it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

LINE=${1:-6.1}
CACHE=${SBD_CACHE:-$HOME/.cache/sbd}
out=build/two-guests
mkdir -p "$out" "$CACHE"
rm -f "$out"/*

scripts/kernels.sh fetch "$LINE" >"$out/fetch.log" 2>&1 ||
	{ tail -n 20 "$out/fetch.log"; exit 1; }
[ -f "build/$LINE/sbd.ko" ] || scripts/kernels.sh make "$LINE" >"$out/build.log" 2>&1 ||
	{ tail -n 20 "$out/build.log"; exit 1; }
make -s -C tools/sbdctl O=../../build/sbdctl >/dev/null || exit 1

# The pair counts as one run of the harness: this holds the guest lock.
exec {lockfd}>"$CACHE/guest.lock"
flock "$lockfd"
export SBD_GUEST_PAIR=1
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

t0=$SECONDS
scripts/guest.sh "$LINE" --smp 1 --mem 1024 --timeout 900 --net "listen:$port" \
	--results "$out/target.tap" -- tests/run two-guests/target.sh >"$out/target.log" 2>&1 &
tpid=$!
# The initiator's QEMU connects to the target's: start it once the target's
# QEMU is up (guest.sh logs "booting" just before it starts QEMU).
for _ in $(seq 1 300); do
	grep -q "booting" "$out/target.log" 2>/dev/null && break
	sleep 0.2
done
sleep 2
scripts/guest.sh "$LINE" --smp 1 --mem 1024 --timeout 900 --net "connect:$port" \
	--results "$out/initiator.tap" -- tests/run two-guests/initiator.sh >"$out/initiator.log" 2>&1
irc=$?
wait "$tpid"
trc=$?

passed=0 failed=0
for side in target initiator; do
	while IFS= read -r l; do
		case $l in
		"ok "*) passed=$((passed + 1)); echo "$l" ;;
		"not ok "*) failed=$((failed + 1)); echo "$l" ;;
		"# time "*) ;;
		"#"*) echo "$l" ;;
		esac
	done <"$out/$side.tap"
done
for side in target:$trc initiator:$irc; do
	if [ "${side#*:}" != 0 ] || ! grep -q '^1\.\.' "$out/${side%%:*}.tap"; then
		failed=$((failed + 1))
		echo "not ok - ${side%%:*} guest ran its test (exit ${side#*:})"
		tail -n 20 "$out/${side%%:*}.log" | sed 's/^/#   /'
	fi
done
echo "# two guests of $LINE, one vCPU each: $((SECONDS - t0)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
