#!/usr/bin/env bash
# guest.sh - run a command (or an interactive shell) in a QEMU/TCG guest that
# boots one of the cached kernel lines with the host's root file system,
# shared read-only over virtio-9p, as its root.
#
# Usage:
#   scripts/guest.sh LINE [--timeout SECS] [--mem MB] [--smp N] [--append ARGS] [--icount] [--gdb PORT] -- COMMAND...
#   scripts/guest.sh LINE [--mem MB] [--smp N] [--append ARGS] --shell
#
#   LINE is 6.1, 6.12, 7.2 or 6.12-debug. COMMAND (its words joined by
#   spaces) runs with "sh -c" in the guest, in the directory guest.sh was
#   started from, with SBD_LINE, SBD_KVER, SBD_MODDIR (for "modprobe -d") and
#   the VAR=value pairs of $SBD_GUEST_ENV in its environment; stdin is
#   /dev/null. The console is streamed to stdout; the exit status is
#   COMMAND's, or 124 on timeout (default 600 s; 6.12-debug: 5400 s),
#   125 when the guest died without reporting one (panic...)
#   or the harness itself failed, 2 on a usage error.
#   In the guest /tmp, /run and /var/tmp are private tmpfs mounts; everything
#   else of the host is visible read-only, and so are the checkout, the
#   current directory and the cache wherever they are (shared at the same
#   paths when they lie under those).
#   --results FILE adds a second serial port, /dev/ttyS1 in the guest, whose
#   output goes to FILE, and sets SBD_RESULTS=/dev/ttyS1 for COMMAND: a
#   channel that kernel messages on the console cannot interleave with.
#   --append ARGS adds ARGS to the guest kernel's command line.
#   --icount runs the guest with QEMU's instruction counting (-icount
#   shift=0,sleep=off): its clocks advance 1 ns per guest instruction
#   executed, not with the host's time, so a guest timing measures what the
#   guest's CPUs did, whatever else the host was doing.  The vCPUs then
#   take turns on one host thread.
#   --gdb PORT starts QEMU's gdb stub on the host's 127.0.0.1:PORT, for
#   "target remote" (scripts/insn-trace).
#   --net listen:PORT | connect:PORT gives the guest a virtio NIC on a QEMU
#   socket network: one guest listens on the host's 127.0.0.1:PORT, the other
#   connects to it, and the two share an Ethernet link that nothing else is
#   on (scripts/two-guests.sh).  Without it the guest has no NIC.
#   --shell boots to an interactive root shell instead (leave it with "exit";
#   Ctrl-A x kills QEMU; no timeout).
#   Guests run one at a time (flock on $SBD_CACHE/guest.lock; a pair started
#   by two-guests.sh, which holds it, sets SBD_GUEST_PAIR); the kernel and
#   the initramfs come from scripts/kernels.sh and are fetched when missing.
set -euo pipefail

SELF=$(readlink -f "${BASH_SOURCE[0]}")
REPO=$(cd "$(dirname "$SELF")/.." && pwd)
KERNELS=$REPO/scripts/kernels.sh
CACHE=${SBD_CACHE:-$HOME/.cache/sbd}
export SBD_CACHE=$CACHE

# Modules the initramfs must load to mount the host over virtio-9p (their
# dependencies are found with modinfo); OPTIONAL ones are loaded when the
# kernel has them as modules, so that every line offers the same mounts.
INITRD_MODULES=(virtio_pci 9pnet_virtio 9p)
INITRD_OPTIONAL=(configfs)
BUSYBOX=/bin/busybox
TAIL_LINES=40

log() { printf 'guest.sh: %s\n' "$*" >&2; }
# Failures of the harness itself exit 125 (like timeout(1)), usage errors 2,
# so that neither looks like an exit status of COMMAND.
die() { printf 'guest.sh: error: %s\n' "$*" >&2; exit 125; }
bad_usage() { printf 'guest.sh: %s\n' "$*" >&2; exit 2; }
usage() {
	sed -n '6,29p' "$SELF" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# ---- arguments ---------------------------------------------------------------
[[ $# -ge 1 ]] || usage
case $1 in -h | --help) usage ;; esac
LINE=$1
shift
case $LINE in 6.1 | 6.12 | 7.2 | 6.12-debug) ;; *) bad_usage "unknown line '$LINE' (known: 6.1 6.12 7.2 6.12-debug)" ;; esac
TIMEOUT=600 MEM=2048 SMP=2 SHELL_MODE=0 KAPPEND="" RESULTS="" NET="" ICOUNT=0 GDB_PORT=""
# The debug kernel (KASAN, lockdep, kmemleak) runs several times slower: a
# longer timeout, and no ACPI PCI interrupt routing, whose AML (_PRT) takes
# 30 s there under TCG (or times out: AE_AML_LOOP_TIMEOUT); the BIOS's
# $PIR table routes the interrupts as well.
case $LINE in *-debug) TIMEOUT=5400 KAPPEND="pci=noacpi" ;; esac
CMD=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--timeout) [[ $# -ge 2 && $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || bad_usage "--timeout needs seconds"; TIMEOUT=$2; shift 2 ;;
	--mem) [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || bad_usage "--mem needs MB"; MEM=$2; shift 2 ;;
	--smp) [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || bad_usage "--smp needs a count"; SMP=$2; shift 2 ;;
	--results) [[ $# -ge 2 ]] || bad_usage "--results needs a file"; RESULTS=$(readlink -f "$2"); shift 2 ;;
	--append) [[ $# -ge 2 ]] || bad_usage "--append needs kernel arguments"; KAPPEND+="${KAPPEND:+ }$2"; shift 2 ;;
	--net)
		[[ $# -ge 2 && $2 =~ ^(listen|connect):[0-9]+$ ]] || bad_usage "--net needs listen:PORT or connect:PORT"
		NET=$2; shift 2 ;;
	--icount) ICOUNT=1; shift ;;
	--gdb) [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || bad_usage "--gdb needs a port"; GDB_PORT=$2; shift 2 ;;
	--shell) SHELL_MODE=1; shift ;;
	--) shift; CMD=("$@"); break ;;
	-h | --help) usage ;;
	*) bad_usage "unexpected argument '$1' (put the command after --)" ;;
	esac
done
if ((SHELL_MODE)); then
	((${#CMD[@]} == 0)) || bad_usage "--shell takes no command"
	[[ -t 0 && -t 1 ]] || bad_usage "--shell needs a terminal"
else
	((${#CMD[@]} > 0)) || bad_usage "no command given (use -- COMMAND... or --shell)"
fi

# ---- host tools ----------------------------------------------------------------
export DEBIAN_FRONTEND=noninteractive
APT_UPDATED=0
apt_install() {
	log "installing missing host packages: $*"
	if ! apt-get -y -o DPkg::Lock::Timeout=300 install --no-install-recommends "$@" >&2; then
		((APT_UPDATED)) && die "apt-get install $* failed"
		apt-get -o DPkg::Lock::Timeout=300 update >&2
		APT_UPDATED=1
		apt-get -y -o DPkg::Lock::Timeout=300 install --no-install-recommends "$@" >&2 ||
			die "apt-get install $* failed"
	fi
}
need() { command -v "$1" >/dev/null 2>&1 || apt_install "$2"; }
need qemu-system-x86_64 qemu-system-x86
need cpio cpio
need gzip gzip
need xz xz-utils
need zstd zstd
need modinfo kmod
need flock util-linux
need setpriv util-linux
need sha256sum coreutils
# The initramfs needs a static busybox (the dynamic "busybox" package's
# binary would need a libc there).
if [[ ! -x $BUSYBOX ]] || ldd "$BUSYBOX" >/dev/null 2>&1; then
	apt_install busybox-static
	if [[ ! -x $BUSYBOX ]] || ldd "$BUSYBOX" >/dev/null 2>&1; then die "$BUSYBOX is not a static busybox"; fi
fi

[[ $CACHE != *[[:space:]]* ]] || die "SBD_CACHE must not contain spaces (it goes on the kernel command line)"

# The guest mounts empty tmpfs over /tmp, /run and /var/tmp: the checkout,
# the current directory and the cache, when they lie there, are shared
# with it on their own (read-only, like the rest) at the same paths.
SHARES=()
for dir in "$REPO" "$PWD" "$CACHE"; do
	dir=$(readlink -m "$dir")
	case $dir/ in /tmp/* | /run/* | /var/tmp/*) ;; *) continue ;; esac
	[[ $dir != *[[:space:],]* ]] || die "$dir: a path under /tmp, /run or /var/tmp must not contain spaces or commas to be shared with the guest"
	for s in "${SHARES[@]}"; do
		[[ $dir/ == "$s"/* ]] && continue 2
	done
	kept=()
	for s in "${SHARES[@]}"; do
		[[ $s/ == "$dir"/* ]] || kept+=("$s")
	done
	SHARES=("${kept[@]}" "$dir")
done

# ---- kernel --------------------------------------------------------------------
"$KERNELS" fetch "$LINE" || die "fetching kernel line $LINE failed"
KVER=$("$KERNELS" kver "$LINE") || die "no kernel release for $LINE"
LDIR=$CACHE/$LINE
MODROOT=$LDIR/modroot
MODDIR=$MODROOT/lib/modules/$KVER

# ---- one guest at a time -------------------------------------------------------
if [[ -z ${SBD_GUEST_PAIR:-} ]]; then
	exec {LOCKFD}>"$CACHE/guest.lock"
	if ! flock -n "$LOCKFD"; then
		log "another guest is running; waiting for $CACHE/guest.lock"
		flock "$LOCKFD"
	fi
fi

# ---- initramfs -----------------------------------------------------------------
# PID 1 of the guest. Kept here so that a change to it rebuilds the initramfs.
# Parameters come from the kernel command line as environment variables
# (sbdjob, sbdid, sbdhost: unknown key=value words without a dot go to init).
IFS= read -r -d '' INIT_SCRIPT <<'INIT' || true
#!/bin/busybox sh
/bin/busybox mkdir -p /bin /proc /sys /dev /host
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
fail() { echo "sbd-init: $*"; poweroff -f; sleep 60; }
for m in $(cat /modules/order); do
	insmod "/modules/$m.ko" || fail "insmod $m failed"
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288,cache=loose host /host ||
	fail "mounting the host root over 9p failed"
[ -n "$sbdjob" ] && [ -f "/host$sbdjob" ] || fail "job file '$sbdjob' not found"
cp "/host$sbdjob" /job || fail "cannot copy the job file"
# The host is read-only: the guest gets its own kernel file systems and
# private tmpfs mounts for the places programs write to.
mount -t proc proc /host/proc || fail "mount /proc"
mount -t sysfs sysfs /host/sys || fail "mount /sys"
mount -t devtmpfs devtmpfs /host/dev || fail "mount /dev"
mkdir -p /host/dev/pts /host/dev/shm
# devtmpfs has no /dev/fd links; bash's process substitution needs them.
ln -sf /proc/self/fd /host/dev/fd
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /host/dev/pts
mount -t tmpfs -o mode=1777 tmpfs /host/dev/shm
mount -t tmpfs -o mode=1777 tmpfs /host/tmp || fail "mount /tmp"
mount -t tmpfs -o mode=755 tmpfs /host/run || fail "mount /run"
mount -t tmpfs -o mode=1777 tmpfs /host/var/tmp || fail "mount /var/tmp"
# What lies under those but must be seen: the checkout, the cache...
i=0
for dir in $(echo "$sbdshares" | tr , ' '); do
	mkdir -p "/host$dir" &&
		mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288,cache=loose "sbdshare$i" "/host$dir" ||
		fail "mounting the host's $dir over 9p failed"
	i=$((i + 1))
done
for fs in configfs:config debugfs:debug tracefs:tracing; do
	grep -qw "${fs%:*}" /proc/filesystems && [ -d "/host/sys/kernel/${fs#*:}" ] &&
		mount -t "${fs%:*}" "${fs%:*}" "/host/sys/kernel/${fs#*:}"
done
hostname "${sbdhost:-sbd-guest}"
# Have the RNG ready before any test runs (a read of /dev/random waits for it
# and makes the kernel gather jitter entropy: about 1 s under TCG). Without
# it the guest gets ready tens of seconds later, inside some test's read of
# /dev/urandom, and the static branch flip that marks it ready rewrites
# urandom_read_iter() while the other CPU runs it: under TCG that once
# oopsed the 6.12-debug guest at the patched instruction.
timeout 60 head -c 1 /dev/random >/dev/null || echo "sbd-init: the RNG is not ready after 60 s"
cp /job /host/run/sbd-job
chroot /host /usr/bin/env -i /bin/bash /run/sbd-job
rc=$?
echo "SBD-GUEST-EXIT-$sbdid=$rc"
poweroff -f
sleep 60
INIT

# modules_for_initramfs: prints "name file" lines in load order, dependencies
# first (modinfo -F depends), skipping what the kernel has built in.
declare -A SEEN=()
ORDER=()
is_builtin() { grep -qE "/${1//[-_]/[-_]}\.ko$" "$MODDIR/modules.builtin"; }
resolve_mod() { # resolve_mod NAME REQUIRED(0/1)
	local name=${1//-/_} req=$2 file d
	[[ -n ${SEEN[$name]:-} ]] && return 0
	SEEN[$name]=1
	is_builtin "$name" && return 0
	file=$(modinfo -b "$MODROOT" -k "$KVER" -F filename "$name" 2>/dev/null || true)
	case $file in
	"(builtin)") return 0 ;;
	"") ((req)) && die "$LINE: module $name not found in $MODDIR"; return 0 ;;
	esac
	for d in $(modinfo -b "$MODROOT" -k "$KVER" -F depends "$name" | tr ',' ' '); do
		resolve_mod "$d" 1
	done
	ORDER+=("$name $file")
}
build_initramfs() {
	local m out=$LDIR/initramfs.cpio.gz keyf=$LDIR/initramfs.key key
	for m in "${INITRD_MODULES[@]}"; do resolve_mod "$m" 1; done
	for m in "${INITRD_OPTIONAL[@]}"; do resolve_mod "$m" 0; done
	# The key covers every input: init script, busybox and the module files.
	key=$({
		printf '%s\n' "$INIT_SCRIPT" "$KVER"
		sha256sum "$BUSYBOX" | cut -d' ' -f1
		for m in "${ORDER[@]}"; do printf '%s %s\n' "${m%% *}" "$(sha256sum "${m#* }" | cut -d' ' -f1)"; done
	} | sha256sum | cut -d' ' -f1)
	if [[ -f $out && -f $keyf && $(cat "$keyf") == "$key" ]]; then
		return 0
	fi
	log "$LINE: building initramfs (modules: $(printf '%s ' "${ORDER[@]%% *}"))"
	local stage name file
	stage=$(mktemp -d "$LDIR/.initramfs.XXXXXX")
	CLEANUP_DIRS+=("$stage")
	mkdir -p "$stage"/{bin,dev,proc,sys,host,modules}
	cp "$BUSYBOX" "$stage/bin/busybox"
	printf '%s\n' "$INIT_SCRIPT" >"$stage/init"
	chmod 755 "$stage/init"
	mknod -m 600 "$stage/dev/console" c 5 1
	: >"$stage/modules/order"
	for m in "${ORDER[@]}"; do
		name=${m%% *} file=${m#* }
		case $file in # busybox insmod wants plain .ko files
		*.ko.xz) xz -dc "$file" >"$stage/modules/$name.ko" ;;
		*.ko.zst) zstd -qdc "$file" >"$stage/modules/$name.ko" ;;
		*.ko.gz) gzip -dc "$file" >"$stage/modules/$name.ko" ;;
		*.ko) cp "$file" "$stage/modules/$name.ko" ;;
		*) die "unknown module file type: $file" ;;
		esac
		printf '%s\n' "$name" >>"$stage/modules/order"
	done
	(cd "$stage" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet) | gzip -6 >"$stage.cpio.gz"
	mv -f "$stage.cpio.gz" "$out"
	printf '%s\n' "$key" >"$keyf.new"
	mv -f "$keyf.new" "$keyf"
	rm -rf "$stage"
}

# ---- cleanup -------------------------------------------------------------------
QPID="" JOB="" CLEANUP_DIRS=()
kill_qemu() {
	[[ -n $QPID ]] || return 0
	if kill -0 "$QPID" 2>/dev/null; then
		kill -TERM "$QPID" 2>/dev/null || true
		local i
		for i in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$QPID" 2>/dev/null || break
			sleep 0.5
		done
		kill -KILL "$QPID" 2>/dev/null || true
	fi
	wait "$QPID" 2>/dev/null || true
	QPID=""
}
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	kill_qemu
	[[ -n $JOB ]] && rm -f "$JOB"
	local d
	for d in "${CLEANUP_DIRS[@]}"; do rm -rf "$d" "$d.cpio.gz"; done
	return 0
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM HUP

[[ -n ${SBD_GUEST_PAIR:-} ]] || rm -rf "$LDIR"/.initramfs.*
build_initramfs

# ---- the job: a bash script the guest's init runs in the chrooted host root ----
NONCE=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
MARKER="SBD-GUEST-EXIT-$NONCE="
mkdir -p "$CACHE/run"
# leftovers of killed runs (we hold the lock; a pair's other guest has its own)
[[ -n ${SBD_GUEST_PAIR:-} ]] || rm -f "$CACHE"/run/job.* 2>/dev/null || true
JOB=$CACHE/run/job.$NONCE
{
	echo '# generated by guest.sh'
	printf 'export PATH=%q\n' /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	printf 'export HOME=/root LANG=C.UTF-8\n'
	printf 'export SBD_LINE=%q SBD_KVER=%q SBD_MODDIR=%q\n' "$LINE" "$KVER" "$MODROOT"
	[[ -z $RESULTS ]] || echo 'export SBD_RESULTS=/dev/ttyS1'
	if [[ -n ${SBD_GUEST_ENV:-} ]]; then
		read -ra pairs <<<"$SBD_GUEST_ENV"
		for p in "${pairs[@]}"; do
			[[ $p =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || bad_usage "SBD_GUEST_ENV: '$p' is not VAR=value"
			printf 'export %s=%q\n' "${p%%=*}" "${p#*=}"
		done
	fi
	# The guest's /tmp, /run and /var/tmp are empty tmpfs mounts.
	printf 'cd %q 2>/dev/null || { echo "guest: cannot enter %q in the guest; running in /" >&2; cd /; }\n' "$PWD" "$PWD"
	if ((SHELL_MODE)); then
		rows="" cols=""
		read -r rows cols < <(stty size 2>/dev/null) || true
		printf 'export TERM=%q debian_chroot=%q\n' "${TERM:-vt100}" "sbd-guest $LINE"
		[[ -n $rows ]] && printf 'stty rows %q cols %q </dev/ttyS0 2>/dev/null\n' "$rows" "$cols"
		# shellcheck disable=SC2016 # expanded in the guest
		echo 'echo "sbd guest $SBD_LINE ($SBD_KVER): exit the shell to power off" >/dev/ttyS0'
		# make shell asks for a module to be loaded before the prompt.
		# shellcheck disable=SC2016 # expanded in the guest
		echo '[ -z "${SBD_AUTOLOAD:-}" ] || { { modprobe -d "$SBD_MODDIR" configfs; mount -t configfs none /sys/kernel/config; } 2>/dev/null; insmod "$SBD_AUTOLOAD" && echo "loaded $SBD_AUTOLOAD: $(ls /sys/block | grep sbd | tr "\n" " ")"; } >/dev/ttyS0 2>&1'
		# A real tty (not /dev/console) as controlling terminal: job control works.
		echo 'exec setsid -w -c /bin/bash -i </dev/ttyS0 >/dev/ttyS0 2>&1'
	else
		echo 'export TERM=dumb'
		printf 'exec sh -c %q </dev/null\n' "${CMD[*]}"
	fi
} >"$JOB"


# ---- QEMU ----------------------------------------------------------------------
# shellcheck disable=SC2054 # the commas belong to QEMU option values
QEMU=(qemu-system-x86_64 -accel tcg -nographic -no-reboot
	-m "$MEM" -smp "$SMP"
	-kernel "$LDIR/vmlinuz" -initrd "$LDIR/initramfs.cpio.gz"
	-append "console=ttyS0 panic=-1 quiet loglevel=5 ${KAPPEND:+$KAPPEND }sbdjob=$JOB sbdid=$NONCE sbdhost=sbd-${LINE//./-}${SHARES:+ sbdshares=$(IFS=,; echo "${SHARES[*]}")}"
	-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap)
((ICOUNT)) && QEMU+=(-icount 'shift=0,sleep=off')
[[ -z $GDB_PORT ]] || QEMU+=(-gdb "tcp:127.0.0.1:$GDB_PORT")
if [[ -z $NET ]]; then
	QEMU+=(-nic none)
else
	# Only the two QEMU processes talk, over the host's loopback.
	QEMU+=(-netdev "socket,id=n0,${NET%%:*}=127.0.0.1:${NET#*:}"
		-device "virtio-net-pci,netdev=n0,mac=52:54:00:5b:d0:0$([[ $NET == listen:* ]] && echo 1 || echo 2)")
fi
for i in "${!SHARES[@]}"; do
	QEMU+=(-virtfs "local,path=${SHARES[i]},mount_tag=sbdshare$i,security_model=none,readonly=on,multidevs=remap")
done
if [[ -n $RESULTS ]]; then
	: >"$RESULTS"
	# Naming one serial port drops -nographic's default: name both.
	QEMU+=(-serial mon:stdio -serial "file:$RESULTS")
fi
# loglevel=5: WARN_ON() and the "Oops"/"Call Trace" parts print at KERN_WARNING
# or the default level 4, which loglevel=4 (what "quiet" sets) would hide.

START=$SECONDS
if ((SHELL_MODE)); then
	log "$LINE: booting $KVER with a shell (Ctrl-A x kills QEMU)"
	# QEMU inherits the lock fd, so the lock is held until QEMU is gone, and
	# pdeathsig takes QEMU down if this script is killed.
	set +e
	setpriv --pdeathsig KILL -- "${QEMU[@]}"
	rc=$?
	set -e
	exit "$rc"
fi

log "$LINE: booting $KVER (timeout ${TIMEOUT}s)"
# QEMU dies with this script (pdeathsig) even on SIGKILL; stdin is /dev/null so
# it never touches the terminal and Ctrl-C reaches this script.
exec {QFD}< <(exec setpriv --pdeathsig KILL -- "${QEMU[@]}" </dev/null 2>&1)
QPID=$!

declare -a RING=()
NLINES=0 RC="" REASON="" PANIC=0 NWARN=0
ESC=$'\e'
record() { # record LINE: print it, remember the tail, note what matters
	local l=$1
	# SeaBIOS resets the "screen" on the serial line, at times in the middle
	# of its last line: drop its escape codes, end that line at the reset.
	if [[ $l == *"$ESC"* ]]; then
		l=${l//"${ESC}[?7l"/} l=${l//"${ESC}[2J"/} l=${l//"${ESC}[0m"/}
		while [[ $l == *"${ESC}c"* ]]; do
			[[ -n ${l%%"${ESC}c"*} ]] && record "${l%%"${ESC}c"*}"
			l=${l#*"${ESC}c"}
		done
	fi
	set -- "$l"
	printf '%s\n' "$1"
	RING[NLINES % TAIL_LINES]=$1
	NLINES=$((NLINES + 1))
	case $1 in
	*"Kernel panic - not syncing"*) PANIC=1 ;;
	*"] WARNING: "* | *"] BUG: "* | *"] Oops"* | *"] general protection fault"* | *"] kernel BUG at"* | \
		*"] UBSAN: "* | *"] KASAN: "* | *"] INFO: task "*) NWARN=$((NWARN + 1)) ;;
	esac
}
DEADLINE=$((START + TIMEOUT))
while :; do
	left=$((DEADLINE - SECONDS))
	if ((left <= 0)); then REASON=timeout; break; fi
	if IFS= read -r -t "$left" -u "$QFD" line; then
		line=${line//$'\r'/}
		record "$line"
		if [[ $line == *"$MARKER"* ]]; then
			RC=${line##*"$MARKER"}
			RC=${RC%%[!0-9]*}
			break
		fi
	else
		st=$?
		((st > 128)) && continue # read timed out: the deadline check above ends it
		line=${line//$'\r'/}
		[[ -n $line ]] && record "$line"
		REASON=eof
		break
	fi
done

if [[ -n $RC ]]; then
	# Let the guest power off (it does at once), showing what it still prints.
	end=$((SECONDS + 10))
	while ((SECONDS < end)) && IFS= read -r -t 1 -u "$QFD" line; do
		line=${line//$'\r'/}
		record "$line"
	done
fi
kill_qemu
exec {QFD}<&-
ELAPSED=$((SECONDS - START))
((NWARN == 0)) || log "note: the guest kernel logged $NWARN WARNING/BUG/Oops line(s); see the console output above"

if [[ -n $RC ]]; then
	log "$LINE: command exited with $RC (boot + command: ${ELAPSED}s)"
	exit "$RC"
fi
if [[ $REASON == timeout ]]; then
	msg="timeout after ${TIMEOUT}s" code=124
elif ((PANIC)); then
	msg="kernel panic" code=125
else
	msg="guest stopped without reporting an exit status (crash or init failure)" code=125
fi
{
	echo "guest FAILED: $msg"
	echo "---- last console lines ----"
	n=$((NLINES < TAIL_LINES ? NLINES : TAIL_LINES))
	for ((i = NLINES - n; i < NLINES; i++)); do printf '%s\n' "${RING[i % TAIL_LINES]}"; done
	echo "----------------------------"
} >&2
exit "$code"
