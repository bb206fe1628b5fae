# SPDX-License-Identifier: GPL-2.0
#
# sbd: `make` builds sbd.ko against KDIR: the running kernel's build
# directory when it has one, else the project's default guest kernel.
# The module itself is described by the Kbuild file.

KVER ?= $(shell uname -r)
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER)/build) \
		    $(shell scripts/kernels.sh kdir 6.1 2>/dev/null))

# Kernel lines for `make check` and the one for `make demo` / `make shell`.
KERNELS ?= 6.1 6.12 7.2
KERNEL ?= 6.1

.PHONY: all modules clean install deb check-deb check check-debug check-two-guests ci demo shell bench insn-trace soak crashtest

all: modules

modules:
	@test -n "$(KDIR)" || { echo "no kernel build directory: install linux-headers or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	rm -rf *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers .tmp_versions

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h)

# Debian packages sbd-dkms and sbdctl, lintian-clean, in this directory.
deb:
	scripts/deb

# The packages installed into a fresh Debian 12 chroot with the 6.1 line's
# headers, DKMS's sbd.ko tried in a 6.1 guest, then purged: see README.md.
check-deb:
	scripts/check-deb

# The guest harness: see README.md.  MQ_KERNELS: the lines whose suite
# runs with queue_mode=mq too (all of them run it in the default, bio).
MQ_KERNELS ?= 6.1
export MQ_KERNELS
check:
	KERNELS="$(KERNELS)" TESTS="$(TESTS)" scripts/check

# The same on a 6.12 built with KASAN, lockdep, kmemleak... (scripts/debug.config).
check-debug:
	KERNELS=6.12-debug TESTS="$(TESTS)" scripts/check

# sbd served from one guest to another over a QEMU socket network
# (sbdctl export, NVMe/TCP, md RAID-1 across the link): see README.md.
check-two-guests:
	scripts/two-guests.sh $(KERNEL)

# What CI runs (.ci/run): make check, with the mq pass on 6.1 cut down to
# the tests whose requests take a different path in mq mode (I/O, the
# cache, the error rules and delays, teardown, the write log), and on the
# debug kernel the tests that need it and those that stress lifetimes and
# locking.  The whole suite in mq mode (make check) and on the debug kernel
# (make check-debug) would not fit in CI's 90 minutes with the rest.
MQ_CI_TESTS ?= core/fio-verify.sh core/discard.sh core/nowait.sh core/io-past-end.sh \
	core/counters.sh core/diskstats.sh core/unsupported-ops.sh core/ext4.sh \
	cache/flush.sh cache/fua.sh cache/lost-unflushed.sh cache/ignore-flush.sh \
	fault/unchanged.sh fault/next.sh fault/latency.sh fault/latency-async.sh \
	fault/bandwidth.sh fault/delayed-teardown.sh configfs/resize.sh \
	configfs/remove-busy.sh crash/log.sh crash/states.sh
DEBUG_CI_TESTS ?= kunit inject stress/churn.sh crash/snapshot.sh crash/log.sh \
	poll/compose.sh configfs/lifecycle.sh fault/delayed-teardown.sh
ci:
	KERNELS="$(KERNELS) 6.12-debug" TESTS="$(TESTS)" \
		MQ_TESTS="$(or $(TESTS),$(MQ_CI_TESTS))" \
		DEBUG_TESTS="$(or $(TESTS),$(DEBUG_CI_TESTS))" scripts/check

demo:
	KERNEL=$(KERNEL) scripts/demo

shell:
	KERNEL=$(KERNEL) scripts/shell

# sbd next to brd and null_blk, same fio jobs: see scripts/bench.
bench:
	KERNEL=$(KERNEL) scripts/bench

# The instructions one 4 KiB read and write take in sbd's and brd's
# ->submit_bio, function by function (single-stepped under gdb; ~1 min).
insn-trace:
	KERNEL=$(KERNEL) scripts/insn-trace

# Crash-consistency soak: hundreds of power-cut trials per file system.
soak:
	KERNEL=$(KERNEL) scripts/soak

# sbdctl crash-test's proof at full size (ext4, xfs, SQLite).
crashtest:
	KERNEL=$(KERNEL) scripts/crashtest
