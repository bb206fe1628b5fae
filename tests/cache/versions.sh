DESCRIPTION="power_cut_versions=1: a block written three times since the last flush comes back from a cut with any of its older versions, as a write-back cache might have destaged any of them; off (the default), always with its durable one"

requires() {
	require_features cache power_cut power_cut_versions seed
}

. "$SBD_ROOT/tests/lib/cache.sh"

# versions DEV: the byte each 512-byte block of page 0 holds.
versions() {
	dd if="$1" bs=4k count=1 iflag=direct status=none | python3 -c '
import sys
d = sys.stdin.buffer.read()
print(" ".join("%02x" % d[i] if len(set(d[i:i + 512])) == 1 else "mixed" for i in range(0, 4096, 512)))'
}

# trial NAME VERSIONS: durable 0x01, then 0x11, 0x12, 0x13 unflushed; cut
# (nothing kept whole); prints what page 0 holds.
trial() {
	local d
	d=$(cfg_disk "$1" size=$((1 << 20)) cache=1 seed="${1#v}" power_cut_versions="$2")
	[ "$(dio "/dev/$d" w:0:4k:0x01 f w:0:4k:0x11 w:0:4k:0x12 w:0:4k:0x13)" = "ok ok ok ok ok" ] ||
		fail "writes failed"
	power_cut "$1" >&2
	power_restore "$1" >&2
	versions "/dev/$d"
	cfg_set "$1" power 0
	rmdir "$SBD_CONFIGFS/$1"
}

test_main() {
	local s v seen=""

	sbd_setup
	for s in 1 2 3 4 5 6; do
		v=$(trial "v$s" 1)
		echo "seed $s, power_cut_versions=1: $v"
		seen+=" $v"
		[[ $v != *13* && $v != *mixed* ]] || fail "seed $s: a block kept its newest version, or tore inside: $v"
	done
	for v in 01 11 12; do
		[[ $seen == *"$v"* ]] || fail "version $v never came back"
	done
	echo "ok: the durable version and both intermediate ones came back"
	for s in 1 2 3; do
		expect_eq "seed $s, power_cut_versions=0" "$(trial "v$s" 0)" "01 01 01 01 01 01 01 01"
	done
}
