#!/bin/bash
# Builds sbd with DKMS against the installed 6.1 headers, as a user of the
# DKMS package would, then removes it again.
set -euo pipefail
cd "$(dirname "$0")/.."
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
kver=$(scripts/kernels.sh kver 6.1)
src=/usr/src/sbd-$ver

cleanup() {
	dkms remove -m sbd -v "$ver" --all >/dev/null 2>&1 || true
	rm -rf "$src"
}
trap cleanup EXIT
cleanup
mkdir -p "$src"
cp Kbuild Makefile dkms.conf ./*.c ./*.h "$src/"
dkms add -m sbd -v "$ver"
dkms build -m sbd -v "$ver" -k "$kver"
ko=$(find "/var/lib/dkms/sbd/$ver/$kver" -name 'sbd.ko*' | head -n 1)
[ -n "$ko" ] || { echo "dkms built no sbd.ko" >&2; exit 1; }
modinfo -F vermagic "$ko" | grep -q "^$kver " ||
	{ echo "$ko has vermagic $(modinfo -F vermagic "$ko"), expected $kver" >&2; exit 1; }
echo "dkms built $ko for $kver"
