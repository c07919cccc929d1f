#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [--all | TARGET...] - the whole test suite (make check): set-up,
# the kernels' downloads, the host run, then rig kernels booted under QEMU.
# The last line sums every KTAP result of every run: "N passed, N failed".
# Default targets (or $VTRACE_TARGETS): every kernel line once, both arches,
# 5.10 on arm64, in the time CI allows; --all (make check-all) boots every
# kernel on every arch the rig has.  Each part's time is printed as it
# ends, and all of them again before the summary.

set -uo pipefail

# Called from "make check", the makes below would see MAKELEVEL > 0, and
# kselftest's lib.mk then leaves OUTPUT empty and builds the tests into /.
unset MAKELEVEL MAKEFLAGS MFLAGS

rig=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$rig/../.." && pwd)
default_targets="5.10-arm64 6.1-amd64 6.12-amd64 7.3-amd64"
all_targets="6.12-amd64 6.12-arm64 6.1-amd64 5.10-amd64 5.10-arm64 7.3-amd64 7.3-arm64"
if [ "${1:-}" = --all ]; then
	read -r -a targets <<<"$all_targets"
else
	read -r -a targets <<<"${*:-${VTRACE_TARGETS:-$default_targets}}"
fi

# Each part's wall time, printed when it ends and listed at the end.
times=()
clock_start=$SECONDS
part_start=$SECONDS
part_end() {
	local line="$1: $((SECONDS - part_start)) s"
	times+=("$line")
	echo "== $line"
	part_start=$SECONDS
}

part_start=$SECONDS
"$rig/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }
part_end setup

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

# Every kernel and the arm64 userspace first, one apt-get at a time (two
# could collide), so that their downloads are timed apart from the runs.
arm64=
for t in "${targets[@]}"; do
	part_start=$SECONDS
	if ! "$rig/fetch-kernel.sh" "$t" >/dev/null; then
		echo "check: fetching $t failed" >&2
		failed=$((failed + 1))
	fi
	part_end "download $t"
	[[ $t == *-arm64 ]] && arm64=1
done
if [ -n "$arm64" ]; then
	"$rig/fetch-arm64-libs.sh" >/dev/null ||
		{ echo "check: fetching the arm64 userspace failed" >&2; failed=$((failed + 1)); }
	part_end "download arm64 userspace"
fi

mkdir -p "$top/.cache/rig"
echo "== host: $(uname -r)"
part_start=$SECONDS
"$rig/run-host.sh" tracefs | tee "$top/.cache/rig/host.summary"
tally "$top/.cache/rig/host.summary" host
part_end host

# run_job JOB - one guest, or the host's static checks (host-static); the
# 6.12 amd64 guest tests the vtrace.ko DKMS built from the Debian package in
# the host run (check-packages.sh).
run_job() {
	local ko="$top/.cache/rig/dkms/$1/vtrace.ko"
	if [ "$1" = host-static ]; then
		"$rig/run-host.sh" static
	elif [ -f "$ko" ]; then
		VTRACE_GUEST_MODULE=$ko "$rig/run-guest.sh" "$1"
	else
		"$rig/run-guest.sh" "$1"
	fi
}

# The guests and the host's static checks share the CPUs: as many jobs run
# at once as there are CPUs, each next one as soon as one ends.  An x86_64
# guest runs its vCPUs on one QEMU thread (run-guest.sh) and keeps one CPU
# busy, as do the static checks (one thing at a time).  A guest of several
# threads (arm64, TCG) keeps more than one CPU busy at times and slows an
# x86_64 guest beside it more than another x86_64 guest does, so the
# x86_64 guests but one run first, side by side; the arm64 guests then,
# never two at once (their vCPUs would wait their turn, which their timing
# tests do not take), with the last x86_64 guest and the static checks
# beside them.  Each job's summary is printed when it ends.
single=()
queue=()
for t in "${targets[@]}"; do
	if [[ $t == *-amd64 ]]; then
		single+=("$t")
	else
		queue+=("$t")
	fi
done
if [ "${#single[@]}" -gt 0 ]; then
	queue=("${single[@]:0:${#single[@]}-1}" "${queue[@]}" "${single[-1]}")
fi
queue+=(host-static)
tcg() { [[ $1 == *-arm64 ]]; }
ncpus=$(nproc)
declare -A job_of=() job_start=()
tcg_running=
phase_start=$SECONDS
while [ "${#queue[@]}" -gt 0 ] || [ "${#job_of[@]}" -gt 0 ]; do
	while [ "${#job_of[@]}" -lt "$ncpus" ]; do
		pick=-1
		for i in "${!queue[@]}"; do
			t=${queue[i]}
			if tcg "$t" && [ -n "$tcg_running" ]; then
				continue
			fi
			pick=$i
			break
		done
		[ "$pick" -ge 0 ] || break
		t=${queue[pick]}
		queue=("${queue[@]:0:pick}" "${queue[@]:pick+1}")
		tcg "$t" && tcg_running=$t
		echo "== started: $t"
		run_job "$t" >"$top/.cache/rig/$t.summary" &
		job_of[$!]=$t
		job_start[$t]=$SECONDS
	done
	done_pid=
	wait -n -p done_pid
	[ -n "$done_pid" ] || break
	t=${job_of[$done_pid]}
	unset "job_of[$done_pid]"
	[ "$t" = "$tcg_running" ] && tcg_running=
	echo "== ${t/#host-static/host (static checks)}"
	cat "$top/.cache/rig/$t.summary"
	tally "$top/.cache/rig/$t.summary" "$t"
	times+=("$t: $((SECONDS - job_start[$t])) s")
	echo "== $t: $((SECONDS - job_start[$t])) s"
done
times+=("guests and static checks: $((SECONDS - phase_start)) s")

# Where the time went: the ten longest tests of every run.
echo "== slowest tests"
for t in host host-static "${targets[@]}"; do cat "$top/.cache/rig/$t.summary"; done |
	sed -n 's/^\(not \)\{0,1\}ok \([^ ]* [^ ]*\):.* \[\([0-9]*\) s\]$/\3 \2/p' |
	sort -rn | head -n 10
echo "== times (each guest's own build and boot times are in its log)"
printf '%s\n' "${times[@]}" "total: $((SECONDS - clock_start)) s"
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
