DESCRIPTION="sbdctl create --queue-mode bio|mq against the real module; --queues implies mq; list and --json show each disk's mode"

requires() {
	require_sbdctl
	require_cmd python3
}

test_main() {
	local a b c out

	sbd_load ndevices=0 queue_mode=bio
	a=$(sbdctl_rc 0 create --size 16M --name b0)
	b=$(sbdctl_rc 0 create --size 16M --name m0 --queue-mode mq --queue-depth 16)
	c=$(sbdctl_rc 0 create --size 16M --name m1 --queues 1)
	expect_eq "default mode" "$(sbd_stat "${a#/dev/}" queue_mode)" bio
	expect_eq "--queue-mode mq" "$(sbd_stat "${b#/dev/}" queue_mode)" mq
	expect_eq "--queue-depth 16" "$(cat "/sys/block/${b#/dev/}/mq/0/nr_tags")" 16
	expect_eq "--queues 1 implies mq" "$(sbd_stat "${c#/dev/}" queue_mode)" mq
	expect_eq "--queues 1" "$(ls "/sys/block/${c#/dev/}/mq" | wc -l)" 1

	out=$(sbdctl_rc 2 create --size 16M --queue-mode bio --queues 2)
	echo "$out" | grep -q -- "--queues needs --queue-mode mq" || fail "no reason given: $out"
	out=$(sbdctl_rc 2 create --size 16M --queue-mode fast)
	echo "$out" | grep -q "invalid queue mode 'fast'" || fail "no reason given: $out"
	expect_eq "nothing made by the refused creates" "$(ls "$SBD_CONFIGFS" | tr '\n' ' ')" "b0 m0 m1 "

	expect_eq "MODE column" "$("$SBDCTL" list | awk 'NR > 1 { print $2 "=" $6 }' | tr '\n' ' ')" \
		"b0=bio m0=mq m1=mq "
	echo 0 >"$SBD_CONFIGFS/m0/power"
	expect_eq "JSON queue-mode" "$("$SBDCTL" list --json | python3 -c '
import json, sys
print(" ".join("%s=%s" % (d["name"], d["queue-mode"]) for d in json.load(sys.stdin)))')" \
		"b0=bio m1=mq m0=mq"
	for a in b0 m0 m1; do
		sbdctl_rc 0 remove "$a" >/dev/null
	done
}
