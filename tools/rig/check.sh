#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [TARGET...] - the whole test suite (make check): set-up, the host
# run, then every rig kernel booted under QEMU.  The last line sums every
# KTAP result of every run: "N passed, N failed".
# Default targets: 6.12-amd64 6.12-arm64 6.1-amd64 (or $VTRACE_TARGETS).

set -uo pipefail

# Called from "make check", the makes below would see MAKELEVEL > 0, and
# kselftest's lib.mk then leaves OUTPUT empty and builds the tests into /.
unset MAKELEVEL MAKEFLAGS MFLAGS

rig=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$rig/../.." && pwd)
read -r -a targets <<<"${*:-${VTRACE_TARGETS:-6.12-amd64 6.12-arm64 6.1-amd64}}"

"$rig/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
skipped=0
tally() {
	local out=$1 sums
	sums=$(tail -n 1 "$out")
	if [[ "$sums" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
		skipped=$((skipped + BASH_REMATCH[3]))
	else
		echo "check: $2 produced no summary" >&2
		failed=$((failed + 1))
	fi
}

mkdir -p "$top/.cache/rig"
echo "== host: $(uname -r)"
start=$SECONDS
"$rig/run-host.sh" | tee "$top/.cache/rig/host.summary"
tally "$top/.cache/rig/host.summary" host
echo "== host: $((SECONDS - start)) s"

# An x86_64 guest runs its vCPUs on one QEMU thread (run-guest.sh): as
# many of them as there are CPUs run side by side, each printed when all
# have ended; a guest of several threads (arm64) runs alone, printed live.
single=()
multi=()
for t in "${targets[@]}"; do
	case $t in
	*-amd64) single+=("$t") ;;
	*) multi+=("$t") ;;
	esac
done
ncpus=$(nproc)
while [ "${#single[@]}" -gt 1 ] && [ "$ncpus" -gt 1 ]; do
	batch=("${single[@]:0:ncpus}")
	single=("${single[@]:ncpus}")
	echo "== guests side by side: ${batch[*]}"
	start=$SECONDS
	# Their kernels one at a time: two apt-get downloads could collide.
	for t in "${batch[@]}"; do
		"$rig/fetch-kernel.sh" "$t" >/dev/null
	done
	for t in "${batch[@]}"; do
		"$rig/run-guest.sh" "$t" >"$top/.cache/rig/$t.summary" &
	done
	wait
	for t in "${batch[@]}"; do
		echo "== guest: $t"
		cat "$top/.cache/rig/$t.summary"
		tally "$top/.cache/rig/$t.summary" "$t"
	done
	echo "== guests side by side: ${batch[*]}: $((SECONDS - start)) s"
done
for t in "${single[@]}" "${multi[@]}"; do
	echo "== guest: $t"
	start=$SECONDS
	"$rig/run-guest.sh" "$t" | tee "$top/.cache/rig/$t.summary"
	tally "$top/.cache/rig/$t.summary" "$t"
	echo "== guest: $t: $((SECONDS - start)) s"
done

# Where the time went: the ten longest tests of every run.
echo "== slowest tests"
for t in host "${targets[@]}"; do cat "$top/.cache/rig/$t.summary"; done |
	sed -n 's/^\(not \)\{0,1\}ok \([^ ]* [^ ]*\):.* \[\([0-9]*\) s\]$/\3 \2/p' |
	sort -rn | head -n 10
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
