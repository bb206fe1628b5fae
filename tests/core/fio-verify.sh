DESCRIPTION="fio, two jobs over the whole disk, mixed block sizes, --verify=crc32c"

requires() {
	require_cmd fio
}

# run_fio NAME ARGS...: two jobs, each owning one half of the disk.
run_fio() {
	local name=$1 out=/tmp/sbd-fio.out
	shift
	fio --name="$name" --filename=/dev/sbd0 --direct=1 --ioengine=psync \
		--numjobs=2 --size=32M --offset_increment=32M \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--group_reporting "$@" --output="$out" ||
		{ cat $out; fail "fio $name failed"; }
	grep -q 'err= 0' $out || { cat $out; fail "fio $name reported errors"; }
	echo "ok: fio $name verified"
}

test_main() {
	sbd_load
	run_fio randwrite-mixed --rw=randwrite --bsrange=512-256k --blockalign=512
	run_fio seqwrite-1m --rw=write --bs=1M
	# The data written last is still there for a fresh reader.
	run_fio verify-only --rw=write --bs=1M --verify_only
}
