DESCRIPTION="write log: writes, discards, FUA writes, flushes and marks are logged in order and split into epochs; a full log says so, or with log_full_fail fails writes instead; a flush the disk ignores ends no epoch; a power cut stops the log"

requires() {
	require_features snapshot log_limit log_full_fail mark log
}

. "$SBD_ROOT/tests/lib/cache.sh"

# log_field NAME KEY: the value after KEY on the log's first line.
log_field() {
	cfg_get "$1" log | awk -v k="$2" 'NR == 1 { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }'
}

test_main() {
	local d inval="Invalid argument"

	sbd_setup
	d=$(cfg_disk l size=$((16 << 20)) cache=1)
	expect_eq "log of a disk without one" "$(cfg_get l log)" "log none"
	cfg_refused_wo l mark m0 "$inval" "the disk has no write log"
	expect_eq "log_limit of a new disk" "$(cfg_get l log_limit)" 0
	cfg_set l log_limit $((1 << 20))
	cfg_set l snapshot 1

	expect_eq "epoch 1: two writes, a flush" "$(dio "/dev/$d" w:0:4k w:4k:4k f)" "ok ok ok"
	cfg_set l mark "after fsync 1"
	expect_eq "epoch 2: write, FUA write, discard" "$(dio "/dev/$d" w:8k:4k W:12k:4k d:0:4k)" "ok ok ok"
	cfg_set l mark m2
	cfg_refused_wo l mark "" "$inval" "must be 1 to 63 printable characters"
	cfg_refused_wo l mark "$(printf 'x%.0s' {1..64})" "$inval" "must be 1 to 63 printable characters"

	cfg_get l log
	expect_eq "entries" "$(log_field l entries)" 9
	expect_eq "epochs" "$(log_field l epochs)" 3
	expect_eq "full" "$(log_field l full)" 0
	# The FUA write's own flush (O_DSYNC adds one after it) closed epoch 2.
	expect_eq "epoch 1" "$(cfg_get l log | grep '^epoch 1 ')" "epoch 1 first 0 count 3 writes 2 fua 0 flushed 1"
	expect_eq "epoch 2" "$(cfg_get l log | grep '^epoch 2 ')" "epoch 2 first 3 count 4 writes 2 fua 1 flushed 1"
	expect_eq "epoch 3" "$(cfg_get l log | grep '^epoch 3 ')" "epoch 3 first 7 count 2 writes 1 fua 0 flushed 0"
	expect_eq "marks" "$(cfg_get l log | grep '^mark ' | tr '\n' '|')" \
		"mark 3 epoch 2 after 0 after fsync 1|mark 8 epoch 3 after 1 m2|"

	# ignore_flush: the disk lies, and its log knows: no epoch ends.
	cfg_set l ignore_flush 1
	expect_eq "write and an ignored flush" "$(dio "/dev/$d" w:0:4k f)" "ok ok"
	expect_eq "epochs with an ignored flush" "$(log_field l epochs)" 3
	cfg_set l ignore_flush 0

	# Full: 1 MiB of log; 2 MiB more writes.  Nothing is dropped silently.
	expect_eq "writes past the limit" "$(count ok "$(dio "/dev/$d" w:+4k:4k*512)")" 512
	expect_eq "full" "$(log_field l full)" 1
	[ "$(log_field l dropped)" -gt 200 ] || fail "dropped $(log_field l dropped), expected > 200"
	echo "ok: dropped $(log_field l dropped)"

	# log_full_fail: a new snapshot starts a new log; writes that do not fit fail.
	cfg_set l log_full_fail 1
	cfg_set l log_limit $((64 << 10))
	cfg_set l snapshot 1
	expect_eq "a new log" "$(log_field l entries)" 0
	local r
	r=$(dio "/dev/$d" w:+4k:4k*32)
	echo "writes: $r"
	[ "$(count ENOSPC "$r")" -gt 0 ] || fail "no write failed with ENOSPC: $r"
	expect_eq "every write either logged or failed" \
		"$(($(count ok "$r") + $(count ENOSPC "$r")))" 32
	expect_eq "dropped with log_full_fail" "$(log_field l dropped)" 0
	expect_eq "entries: the writes that succeeded" "$(log_field l entries)" "$(count ok "$r")"

	# A power cut stops the log: what follows is not what it describes.
	cfg_set l log_limit $((1 << 20))
	cfg_set l snapshot 1
	expect_eq "write before the cut" "$(dio "/dev/$d" w:0:4k)" ok
	power_cut l
	power_restore l
	expect_eq "write after the cut" "$(dio "/dev/$d" w:0:4k)" ok
	expect_eq "stopped" "$(log_field l stopped)" 1
	expect_eq "entries after the cut" "$(log_field l entries)" 1
}
