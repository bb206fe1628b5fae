#!/bin/bash
# The demo's guest half: shows sbd working, step by step.  Run by
# scripts/demo inside a guest; exits non-zero at the first step that fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ko=build/${SBD_LINE:?}/sbd.ko
mnt=/tmp/sbd-demo
n=0

step() {
	n=$((n + 1))
	printf '\n\033[1m== %d. %s\033[0m\n' $n "$*"
}

show() {
	echo "\$ $*"
	"$@"
}

# mem_free_kib: the tests' measure of free memory.
. tests/lib/common.sh

meminfo_free_mib() {
	echo $(($(mem_free_kib) / 1024))
}

echo "sbd demo on Linux $(uname -r) (a QEMU guest; the host's root is shared read-only)"

step "The module and its parameters"
show modinfo -F description "$ko"
show modinfo -F parm "$ko"

step "Load it: 262144 blocks of 512 bytes, a 128 MiB disk"
free0=$(meminfo_free_mib)
sbd_deps	# configfs, which sbd uses for runtime disks
show insmod "$ko" nsectors=262144 hardsect_size=512
dmesg | grep -E 'sbd: [0-9]+ disk' | tail -n 1

step "The disk"
show lsblk -o NAME,MAJ:MIN,SIZE,LOG-SEC,PHY-SEC,ROTA,DISC-GRAN,DISC-MAX /dev/sbd0
free1=$(meminfo_free_mib)
echo "memory used by the empty 128 MiB disk: $((free0 - free1)) MiB"

step "The made-up geometry (HDIO_GETGEO): 4 heads, 16 sectors, capacity/64 cylinders"
show sfdisk -g /dev/sbd0
show build/helpers/sbd-getgeo /dev/sbd0

step "Two partitions"
printf 'label: dos\nsize=96MiB, type=83\ntype=c\n' | show sfdisk -q /dev/sbd0
show lsblk -o NAME,START,SIZE,TYPE /dev/sbd0

step "An ext4 filesystem on sbd0p1, filled with 40 MiB of files"
show mkfs.ext4 -q -F /dev/sbd0p1
modprobe -d "$SBD_MODDIR" ext4	# the guest kernel's own module tree
mkdir -p $mnt
show mount /dev/sbd0p1 $mnt
for i in $(seq 1 10); do
	head -c 4M /dev/urandom >$mnt/file$i
done
(cd $mnt && sha256sum file*) >/tmp/sbd-demo.sha256
show df -h $mnt
free2=$(meminfo_free_mib)
echo "memory held by the disk now: $((free1 - free2)) MiB (only what was written)"

step "Unmount, check, mount again, verify every checksum"
show umount $mnt
show e2fsck -f -n /dev/sbd0p1
show mount /dev/sbd0p1 $mnt
(cd $mnt && show sha256sum -c /tmp/sbd-demo.sha256)
echo "-> while mounted, rmmod is refused:"
if rmmod sbd 2>&1; then
	echo "rmmod succeeded while mounted" >&2
	exit 1
fi
show umount $mnt

step "Discard the disk: its memory goes back"
show blkdiscard -f /dev/sbd0
free3=$(meminfo_free_mib)
echo "memory held after discard: $((free1 - free3)) MiB"

step "Runtime disks with sbdctl: create, list, resize online, remove"
sbdctl=build/sbdctl/sbdctl
mount -t configfs none /sys/kernel/config 2>/dev/null || true
echo "\$ $sbdctl create --size 1G --sector-size 4096 --name scratch"
dev=$($sbdctl create --size 1G --sector-size 4096 --name scratch)
echo "$dev"
show $sbdctl list
echo "sbd1 sector size: $(cat /sys/block/sbd1/queue/logical_block_size)"
show dd if=/dev/urandom of="$dev" bs=1M count=8 oflag=direct status=none
sum=$(head -c 8M "$dev" | sha256sum)
show $sbdctl resize scratch 4G
show $sbdctl list
[ "$(head -c 8M "$dev" | sha256sum)" = "$sum" ] || { echo "data changed by the resize" >&2; exit 1; }
echo "the 8 MiB written before the resize read back unchanged"
show $sbdctl remove scratch
[ ! -e "$dev" ] || { echo "$dev still there" >&2; exit 1; }

step "Unload"
show rmmod sbd
[ ! -e /dev/sbd0 ] || { echo "/dev/sbd0 still there" >&2; exit 1; }
echo "sbd0 is gone; dmesg has no warnings:"
if dmesg | grep -E 'BUG:|WARNING:|Oops'; then
	exit 1
fi
echo "(none)"
printf '\n\033[1mdemo: all %d steps worked\033[0m\n' $n
