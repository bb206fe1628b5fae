# shellcheck shell=bash
# Runs one test file: one.sh FILE.  Exit 0 pass, 77 skip, anything else fail.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
. "$1"
if declare -F requires >/dev/null; then
	requires
fi
test_main
