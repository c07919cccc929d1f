#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-burst-bench.sh - in a rig guest with vtrace.ko loaded (run by
# "tools/rig/run-guest.sh --bench TARGET", from "make bench"): vtrace record
# on each reader path the kernel offers, trace-cmd record and one
# "cat per_cpu/cpuN/trace_pipe_raw" per CPU, each on the same load, the
# module's burst generator (PER_CPU mali_pm_status events from a kthread on
# every CPU, as fast as it can), with the same per-CPU buffer size; prints
# one table. POSIX sh for the guest's busybox.
#
#   guest-burst-bench.sh [PER_CPU] [BUFFER_KB]
#
# Offered is what the burst emitted; recorded is what each file holds
# (vtrace's summary, trace-cmd report's count, the buffer's "read events"
# for cat); lost is offered minus recorded; CPU is the reader's user+sys
# time (busybox time, children included) per MB written.

set -u

per_cpu=${1:-50000}
buf_kb=${2:-1024}
vtrace=${VTRACE_BIN:-/vtrace/bin/vtrace}
tracefs=/sys/kernel/tracing
burst=/sys/kernel/debug/vtrace/burst
inst=vtrace_gbench
idir=$tracefs/instances/$inst
work=/tmp/gbench
mkdir -p "$work"
cd "$work" || exit 1
# The initramfs has no /run, where vtrace keeps its pid files.
export VTRACE_STATE_DIR=$work/state

# run_burst: one burst, waited for; prints what it emitted.
run_burst() {
	echo "$per_cpu" > "$burst/start" || return 1
	while grep -q 'state: running' "$burst/status"; do sleep 0.1; done
	awk '/^emitted:/ { print $2 }' "$burst/status"
}

# row NAME OFFERED RECORDED BYTES TIMEFILE
row() {
	read -r u s < "$5"
	awk -v n="$1" -v o="$2" -v r="$3" -v b="$4" -v u="$u" -v s="$s" 'BEGIN {
		mb = b / 1e6; cpu = u + s
		printf "| %-18s | %9d | %9d | %8d | %7.1f | %6.2f | %9.1f |\n",
			n, o, r, o - r, mb, cpu, (mb > 0 ? cpu * 1000 / mb : 0) }'
}

# pids_of PPID|-c COMM: processes by parent, or by name (the guest's
# busybox has no pgrep or pkill).
pids_of() {
	if [ "$1" = -c ]; then
		awk -v c="($2)" '$2 == c { print $1 }' /proc/[0-9]*/stat 2> /dev/null
	else
		awk -v p="$1" '$4 == p { print $1 }' /proc/[0-9]*/stat 2> /dev/null
	fi
}

# until_enabled DIR PID: wait for mali_pm_status to be on in DIR; fail
# with the reader's messages if PID (the reader under time) ended first.
until_enabled() {
	until [ "$(cat "$1/events/mali/mali_pm_status/enable" 2> /dev/null)" = 1 ] &&
	      [ "$(cat "$1/tracing_on" 2> /dev/null)" = 1 ]; do
		if ! kill -0 "$2" 2> /dev/null; then
			echo "guest-burst-bench: the reader ended:" >&2
			cat "$work"/err "$work"/tc.log 2> /dev/null >&2
			exit 1
		fi
		sleep 0.1
	done
}

echo "guest: Linux $(uname -r) $(uname -m), $(nproc) CPUs (QEMU TCG)"
echo "load: vtrace.ko burst, $per_cpu mali_pm_status events per CPU; $buf_kb KB buffer per CPU"
echo
echo "| reader             |   offered |  recorded |     lost |      MB | CPU s  | CPU ms/MB |"
echo "|--------------------|-----------|-----------|----------|---------|--------|-----------|"

paths="splice read"
"$vtrace" record --reader mmap --instance "$inst" -e mali/mali_pm_status \
	-t 100ms -o "$work/probe.dat" > /dev/null 2>&1 && paths="mmap $paths"
for path in $paths; do
	echo "# vtrace record --reader $path" >&2
	out=$work/vtrace-$path.dat
	time -f '%U %S' -o "$work/time" "$vtrace" record --instance "$inst" \
		-e mali/mali_pm_status -b "$buf_kb" --reader "$path" -o "$out" \
		--json > "$work/json" 2> "$work/err" &
	until_enabled "$idir" $!
	offered=$(run_burst)
	"$vtrace" stop --instance "$inst" > /dev/null
	wait
	recorded=$(sed 's/"cpus".*//; s/.*"events":\([0-9]*\).*/\1/' "$work/json")
	row "vtrace $path" "$offered" "$recorded" "$(stat -c %s "$out")" "$work/time"
	rm -f "$out"
done

# trace-cmd record, stopped with SIGINT as a terminal's Ctrl-C would.
echo "# trace-cmd record" >&2
out=$work/trace-cmd.dat
time -f '%U %S' -o "$work/time" trace-cmd record -q -B "${inst}_tc" \
	-b "$buf_kb" -e mali:mali_pm_status --file-version 6 \
	--compression none -o "$out" > "$work/tc.log" 2>&1 &
wrapper=$!
until_enabled "$tracefs/instances/${inst}_tc" "$wrapper"
offered=$(run_burst)
kill -INT $(pids_of "$wrapper")
wait
recorded=$(trace-cmd report "$out" 2> /dev/null | grep -c 'mali_pm_status:')
row "trace-cmd record" "$offered" "$recorded" "$(stat -c %s "$out")" "$work/time"
rm -f "$out"
[ -d "$tracefs/instances/${inst}_tc" ] && rmdir "$tracefs/instances/${inst}_tc"

# cat, one per CPU, on an instance of the same size.
echo "# cat" >&2
mkdir "$idir"
echo "$buf_kb" > "$idir/buffer_size_kb"
echo 1 > "$idir/events/mali/mali_pm_status/enable"
time -f '%U %S' -o "$work/time" sh -c '
	for c in $(seq 0 $(($(nproc) - 1))); do
		cat '"$idir"'/per_cpu/cpu$c/trace_pipe_raw > '"$work"'/cat.$c &
	done
	wait' &
wrapper=$!
sleep 0.5
offered=$(run_burst)
sleep 0.5
echo 0 > "$idir/tracing_on"
kill $(pids_of -c cat)
wait
recorded=$(cat "$idir"/per_cpu/cpu*/stats | awk '/^read events:/ { s += $3 } END { print s + 0 }')
row "cat trace_pipe_raw" "$offered" "$recorded" "$(cat "$work"/cat.* | wc -c)" "$work/time"
echo 0 > "$idir/events/enable"
rmdir "$idir"
rm -rf "$work"
