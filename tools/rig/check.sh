#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [TARGET...] - the whole test suite (make check): set-up, then the
# host run and every rig kernel booted under QEMU, overlapping (below).  The
# last line sums every KTAP result of every run: "N passed, N failed".
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

# The runs overlap, and the guests' consoles are printed when all have
# ended. A guest whose QEMU runs a thread per vCPU (arm64) is the longest
# run, and keeps only about one CPU busy on average (its tests wait as
# often as they compute): it starts first, in the background, and the
# host run goes on beside it. An x86_64 guest runs its vCPUs on one QEMU
# thread (run-guest.sh); after the host run as many of them run at once
# as there are CPUs left.
single=()
multi=()
for t in "${targets[@]}"; do
	case $t in
	*-amd64) single+=("$t") ;;
	*) multi+=("$t") ;;
	esac
done
slots=$(($(nproc) - ${#multi[@]}))
[ "$slots" -ge 1 ] || slots=1
mkdir -p "$top/.cache/rig"
# Their kernels one at a time: two apt-get downloads could collide.
for t in "${multi[@]}" "${single[@]}"; do
	"$rig/fetch-kernel.sh" "$t" >/dev/null
done
# run_guest TARGET: in the background, its summary and seconds to files.
run_guest() {
	rm -f "$top/.cache/rig/$1.summary" "$top/.cache/rig/$1.seconds"
	(
		begin=$SECONDS
		"$rig/run-guest.sh" "$1" >"$top/.cache/rig/$1.summary"
		echo $((SECONDS - begin)) >"$top/.cache/rig/$1.seconds"
	) &
}
start=$SECONDS
for t in "${multi[@]}"; do
	echo "== guest: $t started"
	run_guest "$t"
done

echo "== host: $(uname -r)"
"$rig/run-host.sh" | tee "$top/.cache/rig/host.summary"
tally "$top/.cache/rig/host.summary" host
echo "== host: $((SECONDS - start)) s"

# At most $slots x86_64 guests at once: wait for one of them to end.
pids=()
for t in "${single[@]}"; do
	while [ "${#pids[@]}" -ge "$slots" ]; do
		wait -n "${pids[@]}"
		alive=()
		for p in "${pids[@]}"; do
			kill -0 "$p" 2>/dev/null && alive+=("$p")
		done
		pids=("${alive[@]}")
	done
	echo "== guest: $t started at $((SECONDS - start)) s"
	run_guest "$t"
	pids+=($!)
done
wait
for t in "${targets[@]}"; do
	echo "== guest: $t"
	cat "$top/.cache/rig/$t.summary"
	tally "$top/.cache/rig/$t.summary" "$t"
	echo "== guest: $t: $(cat "$top/.cache/rig/$t.seconds" 2>/dev/null) s"
done
echo "== all runs: $((SECONDS - start)) s"

# Where the time went: the ten longest tests of every run.
echo "== slowest tests"
for t in host "${targets[@]}"; do cat "$top/.cache/rig/$t.summary"; done |
	sed -n 's/^\(not \)\{0,1\}ok \([^ ]* [^ ]*\):.* \[\([0-9]*\) s\]$/\3 \2/p' |
	sort -rn | head -n 10
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
