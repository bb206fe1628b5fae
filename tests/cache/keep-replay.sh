DESCRIPTION="power_cut_keep=50: a cut keeps some unflushed blocks, each whole, and loses the rest; the same seed and writes give the same result, another seed or cut another"

requires() {
	require_features cache power_cut power_cut_keep seed
}

. "$SBD_ROOT/tests/lib/cache.sh"

A=/tmp/sbd-a B=/tmp/sbd-b

# classify sbdN: compares the first MiB with A and B per 512-byte block;
# prints "OLD NEW OTHER MASK": blocks equal to A, to B, to neither, and a
# hash of which blocks are which.
classify() {
	dd if="/dev/$1" bs=1M count=1 iflag=direct status=none |
		python3 -c '
import hashlib, sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
d = sys.stdin.buffer.read()
mask = []
for i in range(0, len(a), 512):
    blk = d[i:i + 512]
    mask.append("a" if blk == a[i:i + 512] else "b" if blk == b[i:i + 512] else "x")
m = "".join(mask)
print(m.count("a"), m.count("b"), m.count("x"), hashlib.sha256(m.encode()).hexdigest()[:16])
' $A $B
}

# cut_once NAME: A flushed, B over it unflushed, cut, restore; prints
# "OLD NEW OTHER MASK LOST".
cut_once() {
	local d
	d=$(cfg_get "$1" device)
	put $A "/dev/$d" 0
	[ "$(dio "/dev/$d" f)" = ok ] || fail "flush failed"
	dd if=$B of="/dev/$d" bs=4k oflag=direct conv=notrunc status=none
	[ "$(sbd_stat "$d" volatile_blocks)" = 2048 ] ||
		fail "volatile_blocks $(sbd_stat "$d" volatile_blocks), expected 2048"
	cfg_set "$1" power_cut 1
	cfg_set "$1" power_cut 0
	echo "$(classify "$d") $(sbd_stat "$d" lost_blocks)"
}

# trial NAME SEED KEEP: a new disk; prints what its first cut did.
trial() {
	cfg_disk "$1" size=$((16 << 20)) cache=1 seed="$2" power_cut_keep="$3" >/dev/null
	cut_once "$1"
}

test_main() {
	local r1 r2 r3 r4 old new other mask lost

	sbd_setup
	make_pattern $A 1024
	make_pattern $B 1024

	r1=$(trial k1 42 50)
	echo "seed 42, first cut: $r1"
	read -r old new other mask lost <<<"$r1"
	expect_eq "blocks neither old nor new (torn inside a block)" "$other" 0
	expect_eq "old blocks = lost_blocks" "$old" "$lost"
	expect_range "blocks lost of 2048 at keep=50" "$lost" 824 1224
	expect_eq "old + new" $((old + new)) 2048

	rmdir "$SBD_CONFIGFS/k1"
	r2=$(trial k2 42 50)
	expect_eq "replay: same seed, same writes" "$r2" "$r1"
	r3=$(cut_once k2)
	echo "seed 42, second cut: $r3"
	[ "${r3#* * * }" != "${r1#* * * }" ] || fail "the second cut lost the same blocks as the first"
	echo "ok: the second cut lost other blocks"
	rmdir "$SBD_CONFIGFS/k2"

	r4=$(trial k3 7 50)
	echo "seed 7: $r4"
	[ "${r4#* * * }" != "${r1#* * * }" ] || fail "seed 7 lost the same blocks as seed 42"
	echo "ok: another seed, other blocks"
	rmdir "$SBD_CONFIGFS/k3"

	read -r old new other mask lost <<<"$(trial k4 42 100)"
	expect_eq "keep=100: lost" "$lost" 0
	expect_eq "keep=100: new blocks" "$new" 2048
	read -r old new other mask lost <<<"$(trial k5 42 0)"
	expect_eq "keep=0: lost" "$lost" 2048
	expect_eq "keep=0: old blocks" "$old" 2048
}
