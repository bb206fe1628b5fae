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

.PHONY: all modules clean install check check-debug ci demo shell bench soak

all: modules

modules:
	@test -n "$(KDIR)" || { echo "no kernel build directory: install linux-headers or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	rm -rf *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers .tmp_versions

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h)

# The guest harness: see README.md.  MQ_KERNELS: the lines whose suite
# runs with queue_mode=mq too (all of them run it in the default, bio).
MQ_KERNELS ?= 6.1
export MQ_KERNELS
check:
	KERNELS="$(KERNELS)" TESTS="$(TESTS)" scripts/check

# The same on a 6.12 built with KASAN, lockdep, kmemleak... (scripts/debug.config).
check-debug:
	KERNELS=6.12-debug TESTS="$(TESTS)" scripts/check

# What CI runs (.ci/run): make check, and on the debug kernel the tests that
# need it and those that stress lifetimes and locking; the whole suite there
# (make check-debug) would not fit in CI's 90 minutes with the rest.
DEBUG_CI_TESTS ?= kunit inject stress crash poll/compose.sh core/discard.sh core/fio-verify.sh \
	core/fstrim.sh core/nowait.sh configfs/lifecycle.sh \
	configfs/remove-busy.sh configfs/resize.sh configfs/queue-mode.sh \
	cache/flush.sh cache/crash-ext4.sh fault/latency-async.sh \
	fault/unchanged.sh fault/delayed-teardown.sh
ci:
	KERNELS="$(KERNELS) 6.12-debug" TESTS="$(TESTS)" \
		DEBUG_TESTS="$(DEBUG_CI_TESTS)" scripts/check

demo:
	KERNEL=$(KERNEL) scripts/demo

shell:
	KERNEL=$(KERNEL) scripts/shell

# sbd next to brd and null_blk, same fio jobs: see scripts/bench.
bench:
	KERNEL=$(KERNEL) scripts/bench

# Crash-consistency soak: hundreds of power-cut trials per file system.
soak:
	KERNEL=$(KERNEL) scripts/soak
