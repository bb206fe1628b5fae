#!/bin/bash
# Installs the Debian packages the harness and the guest tests use, when
# missing.  The guest runs the host's root over 9p, so the tools the tests
# run inside the guest (fio, mkfs, sfdisk...) are installed here.
set -euo pipefail

# command:package pairs
needs=(
	qemu-system-x86_64:qemu-system-x86
	busybox:busybox-static
	fio:fio
	mkfs.ext4:e2fsprogs
	mkfs.vfat:dosfstools
	mkfs.xfs:xfsprogs
	python3:python3
	sfdisk:fdisk
	blkdiscard:util-linux
	blkzone:util-linux
	sparse:sparse
	pahole:dwarves
	debootstrap:debootstrap
	cpio:cpio
	xz:xz-utils
	zstd:zstd
	gcc:gcc
	make:make
	bc:bc
	dkms:dkms
	depmod:kmod
	gnuplot:gnuplot-nox
	groff:groff
	nvme:nvme-cli
	mdadm:mdadm
	gdb:gdb
	shellcheck:shellcheck
)

missing=()
for pair in "${needs[@]}"; do
	command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "installing: ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi
