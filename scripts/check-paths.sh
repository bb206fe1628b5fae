#!/bin/bash
# check-paths.sh LINE: the harness works from a checkout anywhere, /tmp and
# /var/tmp included, which the guest covers with private tmpfs mounts
# (guest.sh shares such a checkout with the guest at its own path).
# Copies the checkout's tracked files and LINE's built module under each,
# runs two guest tests from there, and removes the copies.  Exit 0 when
# both runs passed them.
set -euo pipefail
cd "$(dirname "$0")/.."
line=${1:?usage: check-paths.sh LINE}
[ -f "build/$line/sbd.ko" ] || { echo "build/$line/sbd.ko is not built" >&2; exit 1; }

copies=()
trap 'rm -rf "${copies[@]}"' EXIT
for base in /var/tmp /tmp; do
	dir=$(mktemp -d "$base/sbd-check.XXXXXX")
	copies+=("$dir")
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -z | tar --null -cf - -T - | tar -xf - -C "$dir"
	else
		tar --exclude=./build -cf - . | tar -xf - -C "$dir"
	fi
	mkdir -p "$dir/build/$line"
	cp "build/$line/sbd.ko" "$dir/build/$line/"
	[ ! -d build/helpers ] || cp -r build/helpers "$dir/build/"
	(cd "$dir" && scripts/guest.sh "$line" --timeout 600 --results "$dir/results.tap" -- \
		'pwd >/dev/ttyS1; tests/run core/partitions.sh configfs/lifecycle.sh') >"$dir/console.log" 2>&1 || {
		echo "from $dir: the guest failed"
		tail -n 20 "$dir/console.log"
		exit 1
	}
	echo "from $dir:"
	cat "$dir/results.tap"
	# (the serial port ends lines with CR LF)
	grep -q "^$dir.\?\$" "$dir/results.tap" || { echo "the guest did not run in $dir"; exit 1; }
	if [ "$(grep '^ok ' "$dir/results.tap" | grep -vc '# SKIP')" != 2 ]; then
		echo "from $dir: the tests did not pass"
		exit 1
	fi
done
