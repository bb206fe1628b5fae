DESCRIPTION="uuid: every disk has its own random UUID from creation, shown in configfs and in sysfs; set while powered off it stays across power cycles; malformed values and changes while powered refused with nothing changed"

requires() {
	require_features uuid
}

. "$SBD_ROOT/tests/lib/cache.sh"

test_main() {
	local inval="Invalid argument" busy="Device or resource busy" d u1 u2 re
	re='^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'

	# The parameter disk has one too.
	sbd_load
	[[ $(sbd_stat sbd0 uuid) =~ $re ]] || fail "sbd0 uuid: '$(sbd_stat sbd0 uuid)'"
	sbd_unload

	sbd_setup

	mkdir "$SBD_CONFIGFS/a" "$SBD_CONFIGFS/b"
	u1=$(cfg_get a uuid) u2=$(cfg_get b uuid)
	[[ $u1 =~ $re ]] || fail "a: uuid '$u1' is not a UUID"
	[[ $u2 =~ $re ]] || fail "b: uuid '$u2' is not a UUID"
	[ "$u1" != "$u2" ] || fail "two disks got the same UUID $u1"
	# Version 4 (random): the 13th hex digit is 4.
	expect_eq "a: UUID version" "${u1:14:1}" 4

	# Set while powered off, in any case of hex digits; reads back lower case.
	cfg_set a uuid 0123ABCD-4567-89ab-cdef-0123456789AB
	expect_eq "a: uuid set" "$(cfg_get a uuid)" 0123abcd-4567-89ab-cdef-0123456789ab
	d=$(cfg_disk_on a)
	expect_eq "a: sysfs uuid" "$(sbd_stat "$d" uuid)" 0123abcd-4567-89ab-cdef-0123456789ab

	cfg_refused a uuid 11111111-2222-3333-4444-555555555555 "$busy" \
		"a: uuid cannot change while the disk is powered on"
	cfg_set a power 0
	d=$(cfg_disk_on a)
	expect_eq "a: uuid after a power cycle" "$(sbd_stat "$d" uuid)" 0123abcd-4567-89ab-cdef-0123456789ab
	cfg_set a power 0

	local bad
	for bad in 0123abcd-4567-89ab-cdef-0123456789a 0123abcd-4567-89ab-cdef-0123456789abc \
		0123abcdX4567-89ab-cdef-0123456789ab 0123abcd-4567-89ab-cdef-0123456789ag \
		'{0123abcd-4567-89ab-cdef-0123456789ab}' xyz; do
		cfg_refused a uuid "$bad" "$inval" \
			"a: uuid=$bad is invalid: must be 36 characters, xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx in hex"
	done
	expect_eq "a: uuid after the refusals" "$(cfg_get a uuid)" 0123abcd-4567-89ab-cdef-0123456789ab
	expect_eq "b: uuid untouched" "$(cfg_get b uuid)" "$u2"
	rmdir "$SBD_CONFIGFS/a" "$SBD_CONFIGFS/b"
}
