#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Checks the man pages against the code, from the repository root:
#
#   - man/sbd.4, man/sbdctl.8 and man/sbd.conf.5 are lint clean: groff -man -ww prints no
#     warning, on the terminal device man uses and on the default one;
#   - man/sbd.4 has a tagged item (.TP) for every configfs attribute in
#     sbd_configfs.c's attribute tables (binary ones too) under CONFIGFS,
#     for every /sys/block/sbdN/sbd file of sbd_sysfs.c under SYSFS and for
#     every module_param of sbd_main.c under MODULE PARAMETERS, and none
#     for anything the code no longer has;
#   - man/sbdctl.8 has a subsection (.SS) under COMMANDS for every command
#     of sbdctl.c's command table and no other, and in it a tagged item for
#     each long option of that command's cmd_* function (but --help, which
#     every command takes).
#
# Prints one line per problem and exits 1 if there is any; else one line
# of summary, and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."

SBD_PAGE=man/sbd.4
SBDCTL_PAGE=man/sbdctl.8
CONF_PAGE=man/sbd.conf.5
CONFIGFS_SRC=sbd_configfs.c
SYSFS_SRC=sbd_sysfs.c
PARAMS_SRC=sbd_main.c
SBDCTL_SRC=tools/sbdctl/sbdctl.c

problems=0
problem() {
	echo "$*"
	problems=$((problems + 1))
}

for f in "$SBD_PAGE" "$SBDCTL_PAGE" "$CONF_PAGE" "$CONFIGFS_SRC" "$SYSFS_SRC" \
	 "$PARAMS_SRC" "$SBDCTL_SRC"; do
	[ -f "$f" ] || problem "$f: missing"
done
if ! command -v groff >/dev/null; then
	problem "groff: not installed (apt-get install groff)"
fi
if [ "$problems" -ne 0 ]; then
	exit 1
fi

# ---- lint ------------------------------------------------------------

for page in "$SBD_PAGE" "$SBDCTL_PAGE" "$CONF_PAGE"; do
	for dev in utf8 ps; do
		if ! out=$(groff -man -ww -z -T"$dev" "$page" 2>&1); then
			problem "$page: groff -T$dev failed"
		fi
		while IFS= read -r line; do
			[ -n "$line" ] && problem "$page: lint (-T$dev): $line"
		done <<<"$out"
	done
done

# ---- what the pages document -------------------------------------------

# "SECTION<TAB>SUBSECTION<TAB>KIND<TAB>WORD" for every word of every .SS
# heading (KIND ss) and of every .TP or .IP tag (KIND tag), with the roff
# escapes taken out: \fB, \-, \c, quotes...
page_items() {
	awk '
	function norm(s) {
		gsub(/\\f\[[A-Za-z]*\]/, "", s)
		gsub(/\\f\(../, "", s)
		gsub(/\\f[BIRP1-4]/, "", s)
		gsub(/\\-/, "-", s)
		gsub(/\\[&%c]/, "", s)
		gsub(/\\\(../, " ", s)
		gsub(/\\ /, " ", s)
		gsub(/"/, " ", s)
		return s
	}
	function emit(kind, s,    n, i, w, words) {
		sub(/^\.[A-Za-z]+[ \t]*/, "", s)
		n = split(norm(s), words, /[ \t,;()]+/)
		for (i = 1; i <= n; i++) {
			w = words[i]
			sub(/[.:]+$/, "", w)
			if (w != "")
				printf "%s\t%s\t%s\t%s\n", sec, sub_, kind, w
		}
	}
	/^\.\\"/ { next }
	tag { tag = 0; emit("tag", $0); next }
	/^\.SH[ \t]/ {
		s = $0; sub(/^\.SH[ \t]+/, "", s); sec = norm(s)
		gsub(/^ +| +$/, "", sec); sub_ = ""; next
	}
	/^\.SS[ \t]/ {
		s = $0; sub(/^\.SS[ \t]+/, "", s); sub_ = norm(s)
		gsub(/^ +| +$/, "", sub_); emit("ss", $0); next
	}
	/^\.TP([ \t]|$)/ { tag = 1; next }
	/^\.IP[ \t]/ { emit("tag", $0); next }
	' "$1"
}

# Whether WORD is in the items ($2) of section SEC, subsection SUB (any
# subsection if SUB is "*") and kind KIND.
has_item() {
	local items=$1 sec=$2 sub=$3 kind=$4 word=$5

	awk -F '\t' -v sec="$sec" -v sub_="$sub" -v kind="$kind" -v w="$word" '
	$1 == sec && (sub_ == "*" || $2 == sub_) && $3 == kind && $4 == w { found = 1 }
	END { exit !found }' <<<"$items"
}

sbd_items=$(page_items "$SBD_PAGE")
sbdctl_items=$(page_items "$SBDCTL_PAGE")

# ---- what the code has -------------------------------------------------

# table_refs FILE TYPE REF: the REF (an extended regex) entries of every
# "static struct TYPE *NAME[] = {" table in FILE, one per line.
table_refs() {
	awk -v type="$2" '
	$0 ~ "^static[ \t]+struct[ \t]+" type "[ \t]*\\*[ \t]*[A-Za-z0-9_]+\\[\\][ \t]*=[ \t]*\\{" { in_table = 1; next }
	in_table && /^\};/ { in_table = 0 }
	in_table { print }
	' "$1" | grep -oE "$3" || true
}

# Every &sbd_cfg_attr_NAME in the configfs_attribute and
# configfs_bin_attribute tables: CONFIGFS_ATTR*(sbd_cfg_, NAME),
# CONFIGFS_BIN_ATTR*(sbd_cfg_, NAME, ...) and SBD_CFG_ATTR(NAME, ...) all
# name the struct sbd_cfg_attr_NAME, and its file NAME.
attrs=$(table_refs "$CONFIGFS_SRC" 'configfs_(bin_)?attribute' '&sbd_cfg_attr_[A-Za-z0-9_]+' |
	sed 's/^&sbd_cfg_attr_//' | sort -u)
bin_attrs=$(table_refs "$CONFIGFS_SRC" configfs_bin_attribute '&sbd_cfg_attr_[A-Za-z0-9_]+')
[ -n "$attrs" ] || problem "$CONFIGFS_SRC: no attribute table found (did its pattern change?)"
[ -n "$bin_attrs" ] || problem "$CONFIGFS_SRC: no binary attribute table found (did its pattern change?)"

# Every &dev_attr_NAME.attr of the sbd attribute group.
sysfs=$(table_refs "$SYSFS_SRC" attribute '&dev_attr_[A-Za-z0-9_]+\.attr' |
	sed 's/^&dev_attr_//; s/\.attr$//' | sort -u)
[ -n "$sysfs" ] || problem "$SYSFS_SRC: no attribute table found (did its pattern change?)"

# module_param(NAME, ...) and module_param_named(NAME, ...).
params=$(grep -oE '^[ \t]*module_param(_named)?\([ \t]*[A-Za-z0-9_]+' "$PARAMS_SRC" |
	 sed -E 's/.*\([ \t]*//' | sort -u)
[ -n "$params" ] || problem "$PARAMS_SRC: no module_param found"

# { "NAME", cmd_FN } in the command table: "NAME cmd_FN".
commands=$(grep -oE '\{[ \t]*"[^"]+"[ \t]*,[ \t]*cmd_[A-Za-z0-9_]+[ \t]*\}' "$SBDCTL_SRC" |
	   sed -E 's/\{[ \t]*"([^"]+)"[ \t]*,[ \t]*(cmd_[A-Za-z0-9_]+).*/\1 \2/')
[ -n "$commands" ] || problem "$SBDCTL_SRC: no command table found (did its pattern change?)"

# "cmd_FN OPTION" for every { "OPTION", ..._argument of a cmd_* function
# (in sbdctl.c and the other files of sbdctl: export.c, crashtest.c, apply.c).
options=$(awk '
	/^(static[ \t]+)?int[ \t]+cmd_[A-Za-z0-9_]+\(/ {
		fn = $0; sub(/^(static[ \t]+)?int[ \t]+/, "", fn); sub(/\(.*/, "", fn); next
	}
	/^\}/ { fn = "" }
	fn != "" && match($0, /\{[ \t]*"[^"]+"[ \t]*,[ \t]*(required|no|optional)_argument/) {
		o = substr($0, RSTART, RLENGTH); sub(/^\{[ \t]*"/, "", o); sub(/".*/, "", o)
		print fn, o
	}' "$SBDCTL_SRC" tools/sbdctl/export.c tools/sbdctl/crashtest.c \
		tools/sbdctl/apply.c)

# ---- coverage ----------------------------------------------------------

in_list() {
	grep -qxF -- "$1" <<<"$2"
}

for a in $attrs; do
	has_item "$sbd_items" CONFIGFS '*' tag "$a" ||
		problem "$SBD_PAGE: configfs attribute '$a' has no tagged item under CONFIGFS"
done
for a in $sysfs; do
	has_item "$sbd_items" SYSFS '*' tag "$a" ||
		problem "$SBD_PAGE: sysfs file '$a' has no tagged item under SYSFS"
done
for p in $params; do
	has_item "$sbd_items" "MODULE PARAMETERS" '*' tag "$p" ||
		problem "$SBD_PAGE: module parameter '$p' has no tagged item under MODULE PARAMETERS"
done

# What the page lists that the code does not have: the first word of each
# .TP tag under section $1 of man/sbd.4.
first_words() {
	awk -v sec="$1" '
	/^\.\\"/ { next }
	/^\.SH[ \t]/ { s = $0; sub(/^\.SH[ \t]+/, "", s); gsub(/"/, "", s); cur = s; next }
	/^\.TP([ \t]|$)/ { tag = 1; next }
	tag {
		tag = 0
		if (cur != sec)
			next
		s = $0
		sub(/^\.[A-Za-z]+[ \t]*/, "", s)
		gsub(/\\f[BIRP]/, "", s); gsub(/\\-/, "-", s); gsub(/\\[&%c]/, "", s)
		gsub(/"/, " ", s)
		sub(/^[ \t]+/, "", s)
		split(s, w, /[ \t,]+/)
		print w[1]
	}' "$SBD_PAGE"
}
for a in $(first_words CONFIGFS); do
	in_list "$a" "$attrs" ||
		problem "$SBD_PAGE: CONFIGFS lists '$a', which $CONFIGFS_SRC's attribute tables do not have"
done
for a in $(first_words SYSFS); do
	in_list "$a" "$sysfs" ||
		problem "$SBD_PAGE: SYSFS lists '$a', which $SYSFS_SRC does not have"
done
for p in $(first_words "MODULE PARAMETERS"); do
	in_list "$p" "$params" ||
		problem "$SBD_PAGE: MODULE PARAMETERS lists '$p', which $PARAMS_SRC does not have"
done

nr_commands=0
while read -r name fn; do
	[ -n "$name" ] || continue
	nr_commands=$((nr_commands + 1))
	if ! has_item "$sbdctl_items" COMMANDS "$name" ss "$name"; then
		problem "$SBDCTL_PAGE: command '$name' has no subsection under COMMANDS"
		continue
	fi
	while read -r ofn opt; do
		if [ "$ofn" != "$fn" ] || [ "$opt" = help ]; then
			continue
		fi
		has_item "$sbdctl_items" COMMANDS "$name" tag "--$opt" ||
			problem "$SBDCTL_PAGE: option '--$opt' of '$name' has no tagged item in its subsection"
	done <<<"$options"
	# Options the subsection documents that the command does not take.
	while read -r o; do
		if [ -z "$o" ] || [ "$o" = --help ]; then
			continue
		fi
		grep -qxF -- "$fn ${o#--}" <<<"$options" ||
			problem "$SBDCTL_PAGE: '$name' documents '$o', which $fn does not take"
	done < <(awk -F '\t' -v c="$name" '$1 == "COMMANDS" && $2 == c && $3 == "tag" && $4 ~ /^--/ { print $4 }' <<<"$sbdctl_items")
done <<<"$commands"
while read -r s; do
	[ -n "$s" ] || continue
	awk -v s="$s" '$1 == s { found = 1 } END { exit !found }' <<<"$commands" ||
		problem "$SBDCTL_PAGE: COMMANDS has '$s', which $SBDCTL_SRC's command table does not have"
done < <(awk -F '\t' '$1 == "COMMANDS" && $3 == "ss" && $4 == $2 { print $4 }' <<<"$sbdctl_items")

if [ "$problems" -ne 0 ]; then
	exit 1
fi
nr_attrs=$(wc -w <<<"$attrs")
echo "man pages: $nr_attrs attributes, $nr_commands commands covered, lint clean"
