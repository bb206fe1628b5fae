#!/usr/bin/env bash
# kernels.sh - fetch and cache the guest kernels of the sbd test harness, and
# build out-of-tree modules against them.
#
# Usage:
#   scripts/kernels.sh fetch LINE|all      make sure LINE (6.1, 6.12, 7.2, 6.12-debug) is cached
#                                          ("all": the three Debian lines; 6.12-debug is
#                                          built from source, ~22 min, see debug.config)
#   scripts/kernels.sh kdir LINE           print the kbuild dir (host path)
#   scripts/kernels.sh kver LINE           print the kernel release
#   scripts/kernels.sh make LINE [ARGS..]  copy the sources to $SBD_SRC/build/LINE
#                                          and run make -C there with KDIR set
#   scripts/kernels.sh checkpatch          print the path of a --no-tree checkpatch.pl
#
# Environment:
#   SBD_CACHE   cache dir (default ~/.cache/sbd); must not be under /tmp, /run
#               or /var/tmp, which are private tmpfs mounts inside the guests
#   SBD_SRC     source dir for "make" (default: the repo root)
#   SBD_MIRROR  Debian mirror (default: the one in the host's apt sources)
#
# Every step that produces something works in a temp dir and ends by atomically
# writing a stamp file (write + mv); a step whose stamp is missing or stale is
# redone from scratch, so an interrupted download/extraction is never used.
set -euo pipefail

# ---- versions: the only things to edit when moving a line ----------------
K612_VER=6.12.95-1~bpo12+1        # bookworm-backports package version
K612_ABI=6.12.95+deb12            # -> kernel release ${K612_ABI}-amd64
K612_SUITE=bookworm-backports
K72_SERIES=7.2                    # any 7.2.x from sid ...
K72_WANT=7.2.13                   # ... preferring this one when sid has it
K72_SUITE=sid
CHECKPATCH_PKG=linux-source-6.12  # from $K612_SUITE, same version as the 6.12 line
FLAVOUR=amd64
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# ---------------------------------------------------------------------------

SELF=$(readlink -f "${BASH_SOURCE[0]}")
REPO=$(cd "$(dirname "$SELF")/.." && pwd)
CACHE=${SBD_CACHE:-$HOME/.cache/sbd}
SRC=${SBD_SRC:-$REPO}
LINES=(6.1 6.12 7.2)

log() { printf 'kernels.sh: %s\n' "$*" >&2; }
die() { printf 'kernels.sh: error: %s\n' "$*" >&2; exit 1; }

usage() {
	sed -n '5,13p' "$SELF" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# Temp dirs registered here are removed on any exit, so a failed step leaves
# nothing half-written behind (the stamp is what marks a step as done anyway).
TMPS=()
cleanup() {
	local t
	for t in "${TMPS[@]}"; do [[ -n $t ]] && rm -rf -- "$t"; done
	return 0
}
trap cleanup EXIT
TMPD=""
mktempd() { # mktempd PARENT -> sets TMPD to a new temp dir inside PARENT
	mkdir -p "$1"
	TMPD=$(mktemp -d "$1/.tmp.XXXXXX")
	TMPS+=("$TMPD")
}

# ---- host packages ---------------------------------------------------------
export DEBIAN_FRONTEND=noninteractive
APT_UPDATED=0
apt_install() { # apt_install PKG... ; runs "apt-get update" once if needed
	log "installing missing host packages: $*"
	if ! apt-get -y -o DPkg::Lock::Timeout=300 install --no-install-recommends "$@" >&2; then
		if ((APT_UPDATED)); then die "apt-get install $* failed"; fi
		log "install failed; running apt-get update and retrying"
		apt-get -o DPkg::Lock::Timeout=300 update >&2
		APT_UPDATED=1
		apt-get -y -o DPkg::Lock::Timeout=300 install --no-install-recommends "$@" >&2 ||
			die "apt-get install $* failed"
	fi
}
need() { # need COMMAND PACKAGE
	command -v "$1" >/dev/null 2>&1 || apt_install "$2"
	command -v "$1" >/dev/null 2>&1 || die "$1 still missing after installing $2"
}
pkg_installed() {
	[[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

# ---- stamps ------------------------------------------------------------------
STAMPS=$CACHE/.stamps
stamp_ok() { # stamp_ok NAME KEY [PATH...]: done with the same KEY and outputs present
	local name=$1 key=$2 p
	shift 2
	[[ -f $STAMPS/$name ]] || return 1
	[[ $(head -n1 "$STAMPS/$name") == "$key" ]] || return 1
	for p in "$@"; do [[ -e $p ]] || return 1; done
}
stamp_set() { # stamp_set NAME KEY [EXTRA-LINE...]: atomic (write then rename)
	local name=$1
	shift
	mkdir -p "$STAMPS"
	printf '%s\n' "$@" >"$STAMPS/.$name.new"
	mv -f "$STAMPS/.$name.new" "$STAMPS/$name"
}
stamp_line() { sed -n "$2p" "$STAMPS/$1"; } # stamp_line NAME N

# ---- apt ---------------------------------------------------------------------
mirror() {
	if [[ -n ${SBD_MIRROR:-} ]]; then
		printf '%s\n' "$SBD_MIRROR"
		return
	fi
	# The host's Debian mirror, from deb822 sources or the one-line format.
	local m=""
	if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
		m=$(sed -n -E 's#^URIs:[[:space:]]*([^[:space:]]*/debian)/?([[:space:]].*)?$#\1#p' \
			/etc/apt/sources.list.d/debian.sources | head -n1)
	fi
	if [[ -z $m && -f /etc/apt/sources.list ]]; then
		m=$(sed -n -E 's#^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]*/debian)/?[[:space:]].*#\2#p' \
			/etc/apt/sources.list | head -n1)
	fi
	printf '%s\n' "${m:-http://deb.debian.org/debian}"
}

# papt SUITE COMMAND [ARGS...]: run apt-get/apt-cache with a private
# configuration that only knows SUITE, so the system's sources stay untouched.
declare -A PAPT_UPDATED=()
papt() {
	local suite=$1 cmd=$2
	shift 2
	local d=$CACHE/apt/$suite
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	printf 'deb [signed-by=%s] %s %s main\n' "$KEYRING" "$(mirror)" "$suite" >"$d/sources.list.new"
	mv -f "$d/sources.list.new" "$d/sources.list"
	"$cmd" -o Dir::Etc::SourceList="$d/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache" \
		-o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root "$@"
}
papt_update() { # once per run: the archive moves, so a download wants fresh lists
	[[ -n ${PAPT_UPDATED[$1]:-} ]] && return 0
	log "updating private apt lists for $1"
	papt "$1" apt-get -q update >&2 || die "apt-get update for $1 failed"
	PAPT_UPDATED[$1]=1
}

DEBS=$CACHE/debs
deb_path() { # deb_path PKG VERSION -> the cached .deb (apt's file naming)
	local f
	for f in "$DEBS/${1}_${2//:/%3a}_"*.deb; do
		[[ -f $f ]] && { printf '%s\n' "$f"; return 0; }
	done
	return 1
}
# download_debs STAMP SUITE|system PKG=VER...: apt-get download (apt checks
# the hashes) into a temp dir, then move the .debs into $DEBS. Kept for reuse.
download_debs() {
	local name=$1 suite=$2
	shift 2
	local key="$suite $*" spec files=()
	if stamp_ok "$name" "$key"; then
		local ok=1
		for spec in "$@"; do deb_path "${spec%%=*}" "${spec#*=}" >/dev/null || ok=0; done
		((ok)) && return 0
	fi
	log "downloading $*"
	local t
	rm -rf "$DEBS"/.tmp.* # leftovers of an interrupted run (we hold the fetch lock)
	mktempd "$DEBS"
	t=$TMPD
	if [[ $suite == system ]]; then
		(cd "$t" && apt-get -q -o APT::Sandbox::User=root download "$@" >&2) || {
			log "download failed; running apt-get update and retrying"
			apt-get -q -o DPkg::Lock::Timeout=300 update >&2
			(cd "$t" && apt-get -q -o APT::Sandbox::User=root download "$@" >&2)
		} || die "apt-get download $* failed"
	else
		papt_update "$suite"
		(cd "$t" && papt "$suite" apt-get -q download "$@" >&2) || die "apt-get download $* from $suite failed"
	fi
	for spec in "$t"/*.deb; do files+=("$(basename "$spec")"); done
	mv -f "$t"/*.deb "$DEBS/"
	stamp_set "$name" "$key" "${files[@]}"
}

# ---- kernel image + modules --------------------------------------------------
# install_kernel LINE KVER DEB...: unpack the debs, put vmlinuz, modroot (with
# depmod run) and kver into $CACHE/LINE. The stamp is the commit point.
install_kernel() {
	local line=$1 kver=$2
	shift 2
	local dir=$CACHE/$line key="v2 $kver $*"
	key=${key//$DEBS\//}
	if stamp_ok "$line-kernel" "$key" "$dir/vmlinuz" "$dir/kver" "$dir/modroot/lib/modules/$kver/modules.dep"; then
		return 0
	fi
	log "$line: unpacking kernel $kver"
	rm -rf "$dir"/.tmp.*
	local t deb m
	mktempd "$dir"
	t=$TMPD
	for deb in "$@"; do dpkg-deb -x "$deb" "$t/root"; done
	# Older packages use /boot and /lib/modules, newer ones /usr/lib/modules.
	for m in "$t/root/boot/vmlinuz-$kver" "$t/root/usr/lib/modules/$kver/vmlinuz" "$t/root/lib/modules/$kver/vmlinuz"; do
		[[ -f $m ]] && { mv "$m" "$t/vmlinuz"; break; }
	done
	[[ -f $t/vmlinuz ]] || die "$line: no vmlinuz for $kver in $*"
	# Keep the kernel's .config and System.map next to it (feature checks, debugging).
	for m in config System.map; do
		for f in "$t/root/boot/$m-$kver" "$t/root/usr/lib/modules/$kver/$m" "$t/root/lib/modules/$kver/$m"; do
			[[ -f $f ]] && { mv "$f" "$t/$m"; break; }
		done
	done
	mkdir -p "$t/modroot/lib/modules"
	for m in "$t/root/usr/lib/modules/$kver" "$t/root/lib/modules/$kver"; do
		[[ -d $m ]] && { mv "$m" "$t/modroot/lib/modules/$kver"; break; }
	done
	[[ -d $t/modroot/lib/modules/$kver/kernel ]] || die "$line: no modules for $kver in $*"
	# The build/source links point at host paths that do not exist; drop them.
	rm -f "$t/modroot/lib/modules/$kver/build" "$t/modroot/lib/modules/$kver/source"
	depmod -b "$t/modroot" "$kver"
	printf '%s\n' "$kver" >"$t/kver"
	rm -rf "$dir/vmlinuz" "$dir/modroot" "$dir/kver" "$dir/config" "$dir/System.map"
	mv "$t/vmlinuz" "$t/modroot" "$t/kver" "$dir/"
	for m in config System.map; do [[ -f $t/$m ]] && mv "$t/$m" "$dir/"; done
	stamp_set "$line-kernel" "$key"
	log "$line: kernel $kver ready in $dir"
}

# ---- line 6.1: the host's own bookworm kernel ---------------------------------
K61_KVER="" K61_VER=""
resolve_61() {
	[[ -n $K61_KVER ]] && return 0
	pkg_installed linux-headers-$FLAVOUR || apt_install linux-headers-$FLAVOUR
	# "linux-headers-6.1.0-57-amd64 (= 6.1.192-3)" -> the ABI the meta package points at
	local dep
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-$FLAVOUR)
	K61_KVER=$(sed -E 's/^linux-headers-([^ ,]+).*/\1/' <<<"$dep")
	K61_VER=$(dpkg-query -W -f='${Version}' "linux-headers-$K61_KVER")
	[[ -d /lib/modules/$K61_KVER/build ]] || die "6.1: /lib/modules/$K61_KVER/build missing"
}
fetch_61() {
	need make make
	need gcc-12 gcc-12
	resolve_61
	download_debs dl-6.1 system "linux-image-$K61_KVER=$K61_VER"
	install_kernel 6.1 "$K61_KVER" "$(deb_path "linux-image-$K61_KVER" "$K61_VER")"
}

# ---- line 6.12: bookworm-backports, unpacked into the cache -------------------
K612_KVER=$K612_ABI-$FLAVOUR
fetch_612() {
	need make make
	need gcc-12 gcc-12
	need pahole dwarves # modules get BTF (CONFIG_DEBUG_INFO_BTF_MODULES=y)
	local img=linux-image-$K612_KVER hdr=linux-headers-$K612_KVER
	local com=linux-headers-$K612_ABI-common kb=linux-kbuild-$K612_ABI
	download_debs dl-6.12 "$K612_SUITE" "$img=$K612_VER" "$hdr=$K612_VER" "$com=$K612_VER" "$kb=$K612_VER"
	install_kernel 6.12 "$K612_KVER" "$(deb_path "$img" "$K612_VER")"

	local dir=$CACHE/6.12 kb_final=$CACHE/6.12/kbuild
	local key="$K612_VER $kb_final"
	if ! stamp_ok 6.12-kbuild "$key" "$kb_final/usr/src/$hdr/Makefile"; then
		log "6.12: unpacking kbuild tree"
		rm -rf "$dir"/.tmp.*
		local t deb l target
		mktempd "$dir"
		t=$TMPD
		for deb in "$hdr" "$com" "$kb"; do dpkg-deb -x "$(deb_path "$deb" "$K612_VER")" "$t/kbuild"; done
		# The -amd64 Makefile includes the -common one by absolute path: point
		# it at the unpacked copy (final location, the temp dir is renamed).
		sed -i -E "s#(^|[[:space:]])/usr/src/#\1$kb_final/usr/src/#g" "$t/kbuild/usr/src/$hdr/Makefile"
		# Same for absolute symlinks into /usr/src or the kbuild package.
		while IFS= read -r -d '' l; do
			target=$(readlink "$l")
			case $target in
			/usr/src/* | /usr/lib/linux-kbuild-* | /lib/linux-kbuild-*)
				ln -sfn "$kb_final$target" "$l" ;;
			esac
		done < <(find "$t/kbuild" -type l -print0)
		rm -rf "$kb_final"
		mv "$t/kbuild" "$kb_final"
		stamp_set 6.12-kbuild "$key"
	fi
}

# ---- line 7.2: sid, built with sid's gcc in a minimal sid chroot -------------
CHROOT=$CACHE/sid-chroot
# in_chroot CMD...: run CMD in the chroot inside a private mount namespace with
# /proc mounted (objtool, apt hooks); the mounts die with the namespace on any
# exit, the trap unmounts them explicitly as well.
in_chroot() {
	cp -f /etc/resolv.conf "$CHROOT/etc/resolv.conf" 2>/dev/null || true
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- /bin/bash -euc '
		root=$1; shift
		trap "umount -l \"\$root/dev/pts\" 2>/dev/null; umount -l \"\$root/proc\" 2>/dev/null; true" EXIT
		mount -t proc proc "$root/proc"
		# apt/dpkg want a pty for their logs; a private devpts instance is enough
		mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts" 2>/dev/null || true
		chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
	' in_chroot "$CHROOT" "$@"
}
K72_KVER="" K72_VER=""
fetch_72() {
	need debootstrap debootstrap
	need unshare util-linux
	local m
	m=$(mirror)
	if ! stamp_ok sid-chroot "$m" "$CHROOT/usr/bin/apt-get"; then
		log "7.2: creating sid chroot with debootstrap (minbase) from $m"
		rm -rf "$CACHE"/.tmp.*
		local t
		mktempd "$CACHE"
		t=$TMPD
		# unshare: debootstrap's own /proc and /sys mounts cannot outlive it.
		unshare --mount --propagation private -- \
			debootstrap --variant=minbase "$K72_SUITE" "$t/root" "$m" >&2 ||
			die "debootstrap failed (log: $t/root/debootstrap/debootstrap.log)"
		# The archive's Release may be older than the clock: do not let apt reject it.
		printf '%s\n' 'Acquire::Check-Valid-Until "false";' 'APT::Install-Recommends "false";' \
			'Acquire::Languages "none";' >"$t/root/etc/apt/apt.conf.d/99sbd"
		rm -rf "$CHROOT"
		mv "$t/root" "$CHROOT"
		stamp_set sid-chroot "$m"
	fi

	# Which 7.2.x: K72_WANT if sid has it, else the newest 7.2.x there.
	local vkey="$K72_SERIES $K72_WANT"
	if ! stamp_ok 7.2-version "$vkey"; then
		log "7.2: looking up $K72_SERIES.x in $K72_SUITE"
		in_chroot apt-get -q update >&2 || die "apt-get update in the sid chroot failed"
		local re="^linux-headers-${K72_SERIES//./\\.}\\.[0-9]+\\+deb[0-9]+-$FLAVOUR\$" names pick=""
		names=$(in_chroot apt-cache pkgnames "linux-headers-$K72_SERIES." | grep -E "$re" | sort -V || true)
		[[ -n $names ]] || die "7.2: no linux-headers-$K72_SERIES.x-$FLAVOUR in $K72_SUITE"
		pick=$(grep -E "^linux-headers-${K72_WANT//./\\.}\\+" <<<"$names" | tail -n1 || true)
		if [[ -z $pick ]]; then
			pick=$(tail -n1 <<<"$names")
			log "7.2: $K72_WANT is not in $K72_SUITE; using the newest: ${pick#linux-headers-}"
		fi
		local kver=${pick#linux-headers-} ver
		ver=$(in_chroot apt-cache show --no-all-versions "$pick" | sed -n 's/^Version: //p' | head -n1)
		[[ -n $ver ]] || die "7.2: no version for $pick"
		log "7.2: chose kernel $kver (package version $ver)"
		stamp_set 7.2-version "$vkey" "$kver" "$ver"
	fi
	K72_KVER=$(stamp_line 7.2-version 2)
	K72_VER=$(stamp_line 7.2-version 3)

	if ! stamp_ok 7.2-chroot-pkgs "$K72_KVER $K72_VER" "$CHROOT/usr/src/linux-headers-$K72_KVER/Makefile"; then
		log "7.2: installing compiler and linux-headers-$K72_KVER in the chroot"
		in_chroot apt-get -q update >&2
		in_chroot apt-get -y -q install make kmod gcc sparse "linux-headers-$K72_KVER=$K72_VER" >&2 ||
			die "7.2: apt-get install in the chroot failed"
		in_chroot apt-get clean >&2
		stamp_set 7.2-chroot-pkgs "$K72_KVER $K72_VER"
	fi

	# Debian's 7.2 headers leave out scripts/checker-valid.sh, which the
	# kernel's Makefile runs for C=1/C=2; without it sparse is silently
	# skipped.  Ours prints 1 when the checker runs cleanly on a tiny input.
	local cv=$CHROOT/usr/src/linux-headers-$K72_KVER
	cv=$(readlink -f "$cv/scripts")/checker-valid.sh
	if [[ ! -e $cv ]]; then
		printf '%s\n' '#!/bin/sh' \
			'# Written by sbd'"'"'s kernels.sh: the checker works if it accepts a tiny input.' \
			'command -v "$1" >/dev/null || exit 0' \
			'echo "int sbd_checker_probe;" | "$@" - >/dev/null 2>&1 && echo 1' >"$cv"
		chmod +x "$cv"
	fi

	# The kernel itself: linux-image-* is a meta package now; the image is in
	# linux-binary-*, the modules in linux-modules-*, config etc. in linux-base-*.
	local bin=linux-binary-$K72_KVER mods=linux-modules-$K72_KVER base=linux-base-$K72_KVER
	download_debs dl-7.2 "$K72_SUITE" "$bin=$K72_VER" "$mods=$K72_VER" "$base=$K72_VER"
	install_kernel 7.2 "$K72_KVER" "$(deb_path "$bin" "$K72_VER")" "$(deb_path "$mods" "$K72_VER")" \
		"$(deb_path "$base" "$K72_VER")"
}

# ---- line 6.12-debug: 6.12 built from linux-source with KASAN, lockdep... ----
# The same 6.12 as the checkpatch source (Debian's linux-source-6.12 from
# $K612_SUITE), configured with defconfig + kvm_guest.config + the fragment
# scripts/debug.config and built in place under $CACHE/6.12-debug/linux,
# which is also the KDIR modules build against.  A changed fragment rebuilds
# in the same tree (make only recompiles what the new .config touches); a
# new source version starts from a fresh tree.  ~22 minutes on 2 cores.
DEBUG_FRAGMENT=$REPO/scripts/debug.config
DEBUG_LINE=6.12-debug
debug_tree() { printf '%s\n' "$CACHE/$DEBUG_LINE/linux"; }
# debug_config_check CONFIG FRAGMENT: every assignment of FRAGMENT holds in CONFIG.
debug_config_check() {
	local config=$1 frag=$2 line sym want have bad=0
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]} want=n
		else
			continue
		fi
		have=$(sed -n -E "s/^$sym=(.*)$/\1/p" "$config")
		[[ -n $have ]] || have=n
		if [[ $have != "$want" ]]; then
			log "$DEBUG_LINE: $sym: wanted $want, the .config has $have"
			bad=1
		fi
	done <"$frag"
	return "$bad"
}
debug_built() { # debug_built KEY: built with KEY, every output present
	local dir=$CACHE/$DEBUG_LINE kver=""
	[[ -f $dir/kver ]] && kver=$(cat "$dir/kver")
	[[ -n $kver ]] && stamp_ok "$DEBUG_LINE-kernel" "$1" "$dir/vmlinuz" "$dir/config" \
		"$dir/modroot/lib/modules/$kver/modules.dep" "$(debug_tree)/Module.symvers"
}
fetch_612debug() {
	need make make
	need gcc gcc
	need flex flex
	need bison bison
	need bc bc
	need depmod kmod
	need xz xz-utils
	local p
	for p in libelf-dev libssl-dev; do pkg_installed "$p" || apt_install "$p"; done
	local dir=$CACHE/$DEBUG_LINE tree frag_sum key
	tree=$(debug_tree)
	[[ -f $DEBUG_FRAGMENT ]] || die "$DEBUG_LINE: $DEBUG_FRAGMENT missing"
	# Only the option lines count: a comment edit rebuilds nothing.
	frag_sum=$(grep -E '^(CONFIG_|# CONFIG_[A-Za-z0-9_]+ is not set)' "$DEBUG_FRAGMENT" | sha256sum | cut -d' ' -f1)
	key="v1 $CHECKPATCH_PKG $K612_VER $frag_sum"
	debug_built "$key" && return 0

	# The download needs the fetch lock; the long build takes its own lock, so
	# that fetching the other lines does not wait for it.
	download_debs dl-checkpatch "$K612_SUITE" "$CHECKPATCH_PKG=$K612_VER"
	unlock_fetch
	mkdir -p "$dir"
	local bfd
	exec {bfd}>"$dir/.build.lock"
	if ! flock -n "$bfd"; then
		log "$DEBUG_LINE: waiting for another build of the debug kernel ($dir/.build.lock)"
		flock "$bfd"
	fi
	debug_built "$key" && { exec {bfd}>&-; return 0; }

	# 1. The source tree, once per source version.
	local skey="$CHECKPATCH_PKG $K612_VER $tree"
	if ! stamp_ok "$DEBUG_LINE-src" "$skey" "$tree/Makefile"; then
		local deb tarball zflag t
		deb=$(deb_path "$CHECKPATCH_PKG" "$K612_VER")
		tarball=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -E '^\./usr/src/linux-source-[^/]*\.tar\.[a-z0-9]+$' | head -n1)
		[[ -n $tarball ]] || die "no source tarball in $deb"
		case $tarball in
		*.xz) zflag=-J ;; *.bz2) zflag=-j ;; *.gz) zflag=-z ;; *.zst) zflag=--zstd ;;
		*) die "unknown compression: $tarball" ;;
		esac
		log "$DEBUG_LINE: unpacking $(basename "$tarball") from $(basename "$deb")"
		rm -rf "$dir"/.tmp.*
		mktempd "$dir"
		t=$TMPD
		dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "$tarball" | tar "$zflag" -xf - -C "$t" ||
			die "$DEBUG_LINE: extracting $tarball failed"
		local top
		top=$(find "$t" -mindepth 2 -maxdepth 2 -name Makefile -printf '%h\n' | head -n1)
		[[ -n $top ]] || die "$DEBUG_LINE: no kernel tree in $tarball"
		rm -rf "$tree" "$STAMPS/$DEBUG_LINE-kernel"
		mv "$top" "$tree"
		stamp_set "$DEBUG_LINE-src" "$skey"
	fi

	# 2. Configure: defconfig, the KVM guest fragment, ours; then check ours.
	local blog=$dir/build.log jobs
	jobs=$(nproc)
	log "$DEBUG_LINE: configuring (fragment $DEBUG_FRAGMENT)"
	cp -f "$DEBUG_FRAGMENT" "$tree/kernel/configs/sbd-debug.config"
	make -C "$tree" -s defconfig kvm_guest.config sbd-debug.config >"$blog" 2>&1 ||
		{ tail -n 30 "$blog" >&2; die "$DEBUG_LINE: configuring failed (log: $blog)"; }
	debug_config_check "$tree/.config" "$DEBUG_FRAGMENT" ||
		die "$DEBUG_LINE: the .config lacks options of $DEBUG_FRAGMENT (see above)"

	# 3. Build (in place: the tree is the KDIR of module builds).
	log "$DEBUG_LINE: building bzImage and modules with make -j$jobs (from scratch ~22 minutes on 2 cores; log: $blog)"
	local t0=$SECONDS
	make -C "$tree" -j"$jobs" bzImage modules >>"$blog" 2>&1 ||
		{ tail -n 40 "$blog" >&2; die "$DEBUG_LINE: kernel build failed (log: $blog)"; }
	log "$DEBUG_LINE: kernel built in $((SECONDS - t0)) s"

	# 4. Install image, modules (depmod is run by modules_install), config.
	local kver t
	kver=$(make -C "$tree" -s --no-print-directory kernelrelease)
	[[ -n $kver ]] || die "$DEBUG_LINE: no kernel release"
	rm -rf "$dir"/.tmp.*
	mktempd "$dir"
	t=$TMPD
	make -C "$tree" -s modules_install INSTALL_MOD_PATH="$t/modroot" >>"$blog" 2>&1 ||
		{ tail -n 20 "$blog" >&2; die "$DEBUG_LINE: modules_install failed (log: $blog)"; }
	[[ -f $t/modroot/lib/modules/$kver/modules.dep ]] || die "$DEBUG_LINE: modules_install made no modules.dep"
	rm -f "$t/modroot/lib/modules/$kver/build" "$t/modroot/lib/modules/$kver/source"
	cp "$tree/arch/x86/boot/bzImage" "$t/vmlinuz"
	cp "$tree/.config" "$t/config"
	cp "$tree/System.map" "$t/System.map"
	printf '%s\n' "$kver" >"$t/kver"
	rm -rf "$dir/vmlinuz" "$dir/modroot" "$dir/kver" "$dir/config" "$dir/System.map"
	mv "$t/vmlinuz" "$t/modroot" "$t/kver" "$t/config" "$t/System.map" "$dir/"
	stamp_set "$DEBUG_LINE-kernel" "$key"
	exec {bfd}>&-
	log "$DEBUG_LINE: kernel $kver ready in $dir"
}

# ---- checkpatch ----------------------------------------------------------------
fetch_checkpatch() {
	need perl perl
	local cp=$CACHE/checkpatch key="$CHECKPATCH_PKG $K612_VER"
	if stamp_ok checkpatch "$key" "$cp/checkpatch.pl" "$cp/spelling.txt" "$cp/const_structs.checkpatch"; then
		return 0
	fi
	download_debs dl-checkpatch "$K612_SUITE" "$CHECKPATCH_PKG=$K612_VER"
	local deb tarball t
	deb=$(deb_path "$CHECKPATCH_PKG" "$K612_VER")
	tarball=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -E '^\./usr/src/linux-source-[^/]*\.tar\.[a-z0-9]+$' | head -n1)
	[[ -n $tarball ]] || die "no source tarball in $deb"
	log "extracting checkpatch.pl from $(basename "$deb")"
	local zflag
	case $tarball in # tar cannot guess the compression of a pipe
	*.xz) zflag=-J ;; *.bz2) zflag=-j ;; *.gz) zflag=-z ;; *.zst) zflag=--zstd ;;
	*) die "unknown compression: $tarball" ;;
	esac
	rm -rf "$CACHE"/.tmp.*
	mktempd "$CACHE"
	t=$TMPD
	mkdir "$t/cp"
	# Only three small files are needed: stream the tarball, never unpack it all.
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "$tarball" |
		tar "$zflag" -xf - -C "$t" --wildcards --no-wildcards-match-slash \
			'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch' ||
		die "extracting checkpatch from $tarball failed"
	find "$t" -path "$t/cp" -prune -o -type f -path '*/scripts/*' -exec mv -t "$t/cp" {} +
	[[ -f $t/cp/checkpatch.pl ]] || die "checkpatch.pl not found in $tarball"
	chmod +x "$t/cp/checkpatch.pl"
	rm -rf "$cp"
	mv "$t/cp" "$cp"
	stamp_set checkpatch "$key"
}

# ---- dispatch helpers --------------------------------------------------------
check_line() {
	case ${1:-} in 6.1 | 6.12 | 7.2 | "$DEBUG_LINE") ;; *) die "unknown line '${1:-}' (known: ${LINES[*]} $DEBUG_LINE)" ;; esac
}
check_cache() {
	# guest.sh shares a cache under /tmp, /run or /var/tmp with the guest.
	mkdir -p "$CACHE"
}
LOCKFD=""
lock_fetch() { # one fetch at a time per cache
	exec {LOCKFD}>"$CACHE/.fetch.lock"
	if ! flock -n "$LOCKFD"; then
		log "waiting for another fetch to finish ($CACHE/.fetch.lock)"
		flock "$LOCKFD"
	fi
}
unlock_fetch() { [[ -n $LOCKFD ]] && exec {LOCKFD}>&-; LOCKFD=""; }
fetch_line() {
	check_line "$1"
	lock_fetch
	case $1 in
	6.1) fetch_61 ;;
	6.12) fetch_612 ;;
	7.2) fetch_72 ;;
	"$DEBUG_LINE") fetch_612debug ;;
	esac
	unlock_fetch
}
line_kver() {
	case $1 in
	6.1) resolve_61; printf '%s\n' "$K61_KVER" ;;
	*) cat "$CACHE/$1/kver" ;;
	esac
}
line_kdir() { # host path; for 7.2 it lies inside the sid chroot
	case $1 in
	6.1) printf '/lib/modules/%s/build\n' "$(line_kver 6.1)" ;;
	6.12) printf '%s\n' "$CACHE/6.12/kbuild/usr/src/linux-headers-$(line_kver 6.12)" ;;
	7.2) printf '%s\n' "$CHROOT/usr/src/linux-headers-$(line_kver 7.2)" ;;
	"$DEBUG_LINE") debug_tree ;;
	esac
}
# The compiler the kernel was built with, from its .config (CC=... passed to make).
kernel_cc() { # kernel_cc KDIR
	sed -n -E 's/^CONFIG_CC_VERSION_TEXT="([^ ]+) .*/\1/p' "$1/.config" | head -n1
}

# sync_sources SRC OUT: copy the sources into the per-line build dir, only
# files whose content changed (so make stays incremental), and delete copies
# whose source is gone. Build products in OUT are left alone.
SRC_SUBDIRS=(. tests/kunit)
sync_sources() {
	local src=$1 out=$2 sub f rel
	for sub in "${SRC_SUBDIRS[@]}"; do
		[[ -d $src/$sub ]] || continue
		mkdir -p "$out/$sub"
		for f in "$src/$sub"/*.c "$src/$sub"/*.h "$src/$sub/Kbuild" "$src/$sub/Makefile"; do
			[[ -f $f ]] || continue
			# *.mod.c is generated: one left by a build in the source tree
			# itself (make, DKMS) must not replace this build's own.
			[[ $f == *.mod.c ]] && continue
			rel=$sub/$(basename "$f")
			cmp -s "$f" "$out/$rel" || cp -f "$f" "$out/$rel"
		done
	done
	for sub in "${SRC_SUBDIRS[@]}"; do
		[[ -d $out/$sub ]] || continue
		for f in "$out/$sub"/*.c "$out/$sub"/*.h "$out/$sub/Kbuild" "$out/$sub/Makefile"; do
			[[ -f $f ]] || continue
			rel=$sub/$(basename "$f")
			[[ -f $src/$rel ]] && continue
			# a generated .c/.h (e.g. *.mod.c) has no source; keep those
			[[ $f == *.mod.c ]] && continue
			rm -f "$f"
		done
	done
}

cmd_make() {
	local line=$1
	shift
	check_line "$line"
	[[ -d $SRC ]] || die "SBD_SRC=$SRC is not a directory"
	SRC=$(cd "$SRC" && pwd)
	[[ -f $SRC/Makefile || -f $SRC/Kbuild ]] || die "no Makefile or Kbuild in $SRC"
	fetch_line "$line"
	local kver kdir out cc
	kver=$(line_kver "$line")
	kdir=$(line_kdir "$line")
	out=$SRC/build/$line
	mkdir -p "$out"
	sync_sources "$SRC" "$out"
	cc=$(kernel_cc "$kdir")
	case $line in
	6.1 | 6.12 | "$DEBUG_LINE")
		if [[ -n $cc ]] && ! command -v "$cc" >/dev/null; then
			log "warning: kernel compiler $cc not found, using the default gcc"
			cc=""
		fi
		log "$line: make -C $out KDIR=$kdir${cc:+ CC=$cc} $*"
		make -C "$out" KDIR="$kdir" ${cc:+CC="$cc"} "$@"
		;;
	7.2)
		local ckdir=/usr/src/linux-headers-$kver
		# One build in the chroot at a time (shared /proc mount point).
		exec {cfd}>"$CACHE/.sid-chroot.lock"
		flock "$cfd"
		log "7.2 (sid chroot): make -C $out KDIR=$ckdir${cc:+ CC=$cc} $*"
		mkdir -p "$CHROOT$out"
		# Private mount namespace: the bind mount of the build dir and /proc
		# vanish with it on every exit path (even SIGKILL); the trap unmounts
		# them explicitly on normal exits and signals.
		# shellcheck disable=SC2016 # expanded by the inner shell
		unshare --mount --propagation private -- /bin/bash -euc '
			root=$1 out=$2; shift 2
			trap "umount -l \"\$root\$out\" 2>/dev/null; umount -l \"\$root/proc\" 2>/dev/null; true" EXIT
			trap "exit 130" INT TERM
			mount --bind "$out" "$root$out"
			mount -t proc proc "$root/proc"
			chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
				HOME=/root LANG=C.UTF-8 make -C "$out" "$@"
		' make72 "$CHROOT" "$out" KDIR="$ckdir" ${cc:+CC="$cc"} "$@"
		exec {cfd}>&-
		;;
	esac
}

main() {
	local cmd=${1:-}
	[[ -n $cmd ]] || usage
	shift
	check_cache
	case $cmd in
	fetch)
		[[ $# -eq 1 ]] || usage
		if [[ $1 == all ]]; then
			local l
			for l in "${LINES[@]}"; do fetch_line "$l"; done
		else
			fetch_line "$1"
		fi
		;;
	kdir | kver)
		[[ $# -eq 1 ]] || usage
		check_line "$1"
		fetch_line "$1"
		"line_$cmd" "$1"
		;;
	make)
		[[ $# -ge 1 ]] || usage
		cmd_make "$@"
		;;
	checkpatch)
		[[ $# -eq 0 ]] || usage
		lock_fetch
		fetch_checkpatch
		unlock_fetch
		printf '%s\n' "$CACHE/checkpatch/checkpatch.pl"
		;;
	-h | --help | help) usage ;;
	*) usage ;;
	esac
}
main "$@"
