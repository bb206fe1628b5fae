DESCRIPTION="crash states: images of prefix states hold exactly the first K writes of the epoch; seeded states keep, lose or tear each write, always keep FUA writes and show every version of a block written three times; the same state twice gives the same bytes; out-of-range states are refused; images are made while the disk keeps writing and cost what differs"

requires() {
	require_features snapshot log_limit mark log crash_image crash_mark
}

. "$SBD_ROOT/tests/lib/cache.sh"

X=/tmp/sbd-x

# img NAME EPOCH STATE: crash image NAME of disk src; prints its device.
img() {
	mkdir "$SBD_CONFIGFS/$1" || fail "mkdir $1"
	cfg_set "$1" crash_image "src $2 $3"
	cfg_disk_on "$1"
}

drop() {
	cfg_set "$1" power 0
	rmdir "$SBD_CONFIGFS/$1"
}

# sum_of BYTE|xN: sha256 of a 4 KiB page of BYTE, or of page N of X.
sum_of() {
	case $1 in
	x*) dd if=$X bs=4k skip="${1#x}" count=1 status=none | sha256sum | cut -d' ' -f1 ;;
	*) head -c 4096 /dev/zero | tr '\0' "\\$(printf '%03o' "$1")" | sha256sum | cut -d' ' -f1 ;;
	esac
}

# expect_pages DEV WHAT P0 P1 P2 P3: the first four pages of DEV.
expect_pages() {
	local dev=$1 what=$2 i=0 p
	shift 2
	for p in "$@"; do
		expect_eq "$what: page $i" "$(dev_sum "$dev" $((i * 4096)) 4096)" "$(sum_of "$p")"
		i=$((i + 1))
	done
}

test_main() {
	local d i k v seen="" first second inval="Invalid argument" busy="Device or resource busy"

	sbd_setup
	make_pattern $X 16
	d=$(cfg_disk src size=$((4 << 20)) cache=1 seed=5 log_limit=$((4 << 20)))
	put $X "/dev/$d" 0
	cfg_set src snapshot 1

	# Epoch 1: two writes, a flush.  Epoch 2: page 0 three times, a FUA
	# write (and its flush).  Epoch 3, still open: one write.
	expect_eq "epoch 1" "$(dio "/dev/$d" w:0:4k:0x01 w:4k:4k:0x02 f)" "ok ok ok"
	cfg_set src mark m1
	expect_eq "epoch 2" "$(dio "/dev/$d" w:0:4k:0x11 w:0:4k:0x12 w:0:4k:0x14 W:8k:4k:0x13)" "ok ok ok ok"
	cfg_set src mark m2
	expect_eq "epoch 3" "$(dio "/dev/$d" w:12k:4k:0x21)" ok
	cfg_get src log

	# Prefix states, and the last mark before each crash point.
	check_state() { # E K MARK P0 P1 P2 P3
		local e=$1 k=$2 m=$3 n
		shift 3
		n=$(img i "$e" "$k")
		expect_pages "/dev/$n" "state ($e, $k)" "$@"
		expect_eq "state ($e, $k): crash_mark" "$(cfg_get i crash_mark)" "$m"
		drop i
	}
	check_state 0 0 "" x0 x1 x2 x3
	check_state 0 1 "" 1 x1 x2 x3
	check_state 0 2 "" 1 2 x2 x3
	check_state 1 0 m1 1 2 x2 x3
	check_state 1 1 m1 17 2 x2 x3
	check_state 1 2 m1 18 2 x2 x3
	check_state 1 3 m1 20 2 x2 x3
	check_state 1 4 m1 20 2 19 x3
	check_state 2 0 m2 20 2 19 x3
	check_state 2 1 m2 20 2 19 33

	# What the image reports, and that it holds only what differs.
	n=$(img i 1 4)
	expect_eq "crash_image" "$(cfg_get i crash_image)" "src 1 4 4"
	expect_eq "image pages of its own: three written" "$(sbd_stat "$n" nr_pages)" 3
	drop i

	# Seeded states of epoch 2: the FUA write always, page 1 from epoch 1
	# always, page 3 the snapshot's, page 0 any version of its three (or
	# epoch 1's), per block.  One read of the four pages per state.
	for k in $(seq 5 24); do
		n=$(img i 1 "$k")
		v=$(dd if="/dev/$n" bs=16k count=1 iflag=direct status=none | python3 -c '
import sys
d, x = sys.stdin.buffer.read(), open(sys.argv[1], "rb").read()
if d[4096:8192] != bytes([2]) * 4096: print("bad page 1"); sys.exit()
if d[8192:12288] != bytes([0x13]) * 4096: print("bad FUA page"); sys.exit()
if d[12288:] != x[12288:16384]: print("bad page 3"); sys.exit()
print(" ".join("%02x" % d[i] if len(set(d[i:i + 512])) == 1 else "mixed" for i in range(0, 4096, 512)))' $X)
		echo "state (1, $k): $v"
		for i in $v; do
			case $i in
			01 | 11 | 12 | 14) seen+=" $i" ;;
			*) fail "state (1, $k): $v" ;;
			esac
		done
		drop i
	done
	for i in 01 11 12 14; do
		[[ $seen == *" $i"* ]] || fail "no seeded state shows version $i of page 0"
	done
	echo "ok: FUA page, pages 1 and 3 right in every seeded state; every version of page 0 appears in some"

	# The same state twice: the same bytes.
	n=$(img i 1 23)
	first=$(dev_sum "/dev/$n" 0 $((4 << 20)))
	drop i
	n=$(img i 1 23)
	second=$(dev_sum "/dev/$n" 0 $((4 << 20)))
	drop i
	expect_eq "state (1, 23) made twice" "$second" "$first"

	# Refused: out of range, a powered or written disk, no log, itself.
	mkdir "$SBD_CONFIGFS/i"
	cfg_refused i crash_image "src 3 0" "$inval" "src's log has epochs 0 to 2"
	cfg_refused i crash_image "src 2 1000002" "$inval" "epoch 2 of src has states 0 to 1000001"
	cfg_refused i crash_image "src x" "$inval" "must be SOURCE EPOCH STATE"
	cfg_refused i crash_image "nosuch 0 0" "$inval" "source nosuch is invalid"
	cfg_refused i crash_image "i 0 0" "$inval" "source i is invalid"
	cfg_disk o size=$((4 << 20)) >/dev/null
	cfg_refused i crash_image "o 0 0" "$inval" "o has no write log"
	cfg_set i power 1
	cfg_refused i crash_image "src 0 0" "$busy" "the disk must be powered off and hold nothing"
	drop i

	# While the disk keeps writing: the image is of the log as it was.
	( while :; do dd if=/dev/urandom of="/dev/$d" bs=4k seek=512 count=64 oflag=direct conv=notrunc status=none; done ) &
	local writer=$!
	n=$(img i 1 4)
	kill $writer
	wait $writer 2>/dev/null || true
	expect_pages "/dev/$n" "state (1, 4) while writing" 20 2 19 x3
	drop i
}
