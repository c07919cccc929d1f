#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# convert-bench.sh - reading a trace.dat, side by side in one run:
# trace-cmd report writing text, vtrace report writing the same text, and
# vtrace convert writing a Perfetto trace, on one large recording; prints
# one table.
#
#   tools/bench/convert-bench.sh [-r CALLS_PER_SEC_PER_CPU] [-t SECONDS]
#                                [-n ROUNDS] [-i IN.dat]
#
# Input: vtrace record of raw_syscalls while syscall-storm calls getppid()
# on every CPU (about 200 MB with the defaults), or IN.dat. Each tool runs
# ROUNDS times, the tools taking turns, and the table shows the median:
# wall time and events per wall second (vtrace report reads ahead in a
# second thread, so wall time is what it gains; on a shared machine it
# also counts waiting for a CPU: the header shows the load), the tool's
# own CPU time (user+sys, GNU time around the tool only) and events per
# CPU second, each also as a multiple of trace-cmd report's, and the peak anonymous RSS (RssAnon of /proc/PID/status,
# sampled every 20 ms: heap, not the page cache or mapped file pages).
# Recording needs root and tracefs; run under the tracefs lock.
set -euo pipefail
trap 'echo "convert-bench: line $LINENO: exit status $?" >&2' ERR

top=$(cd "$(dirname "$0")/../.." && pwd)
vtrace=${VTRACE_BIN:-$top/tools/vtrace/vtrace}
rate=250000
secs=3
rounds=3
input=
while getopts r:t:n:i: opt; do
	case $opt in
	r) rate=$OPTARG ;;
	t) secs=$OPTARG ;;
	n) rounds=$OPTARG ;;
	i) input=$OPTARG ;;
	*) echo "usage: $0 [-r RATE] [-t SECONDS] [-n ROUNDS] [-i IN.dat]" >&2; exit 2 ;;
	esac
done

work=$(mktemp -d /tmp/vtrace-convert-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [ -z "$input" ]; then
	tracefs=/sys/kernel/tracing
	[ -d $tracefs/events ] || mount -t tracefs nodev $tracefs
	gcc -O2 -o "$work/storm" "$top/tools/bench/syscall-storm.c"
	input=$work/in.dat
	"$vtrace" record -e raw_syscalls/sys_enter -e raw_syscalls/sys_exit \
		-b 8192 -o "$input" > "$work/record.log" 2>&1 &
	rec=$!
	sleep 1
	"$work/storm" -r "$rate" -t "$secs" > /dev/null
	kill -INT $rec
	wait $rec || { cat "$work/record.log" >&2; exit 1; }
fi

# measure NAME CMD...: runs CMD with stdout to /dev/null; appends
# "WALL CPU ANON_KB" to $work/NAME.
measure() {
	local name=$1 pid anon peak=0
	shift
	/usr/bin/time -f '%e %U %S' -o "$work/time" "$@" > /dev/null &
	local wrapper=$!
	sleep 0.01
	pid=$(pgrep -P $wrapper | head -1 || true)
	while kill -0 $wrapper 2> /dev/null; do
		if [ -n "$pid" ]; then
			anon=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status" 2> /dev/null || true)
			[ -n "$anon" ] && [ "$anon" -gt $peak ] && peak=$anon
		else
			pid=$(pgrep -P $wrapper | head -1 || true)
		fi
		sleep 0.02
	done
	wait $wrapper
	awk -v p=$peak '{ printf "%s %.2f %d\n", $1, $2 + $3, p }' "$work/time" >> "$work/$name"
}

# The file's events, as vtrace convert counts them (trace-cmd report's
# count is the same; perfetto_test.sh checks that).
"$vtrace" convert "$input" "$work/count.pftrace" > "$work/count.out"
events=$(sed -n 's/^.*: \([0-9]*\) events, .*$/\1/p' "$work/count.out")
rm -f "$work/count.pftrace"

for ((i = 0; i < rounds; i++)); do
	measure tc_report trace-cmd report -i "$input"
	measure vt_report "$vtrace" report "$input"
	measure vtrace_convert "$vtrace" convert --quiet "$input" "$work/out.pftrace"
done
out_bytes=$(stat -c %s "$work/out.pftrace")

# median NAME COLUMN
median() {
	awk -v c="$2" '{ print $c }' "$work/$1" | sort -g |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

tc_wall=$(median tc_report 1)
tc_cpu=$(median tc_report 2)
echo "host: $(uname -sr), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg)"
echo "input: $(basename "$input"), $(($(stat -c %s "$input") / 1000000)) MB, $events events; Perfetto output $((out_bytes / 1000000)) MB; median of $rounds rounds"
echo
echo "| tool                      |  wall s |   CPU s | events/s (wall) | vs trace-cmd report (wall) | events/CPU s | vs trace-cmd report (CPU) | anon RSS MB |"
echo "|---------------------------|---------|---------|-----------------|----------------------------|--------------|---------------------------|-------------|"
for t in "tc_report:trace-cmd report (text)" "vt_report:vtrace report (text)" \
	 "vtrace_convert:vtrace convert (Perfetto)"; do
	name=${t%%:*}
	wall=$(median "$name" 1)
	cpu=$(median "$name" 2)
	anon=$(median "$name" 3)
	awk -v n="${t#*:}" -v w="$wall" -v c="$cpu" -v a="$anon" -v e="$events" \
	    -v tw="$tc_wall" -v tc="$tc_cpu" 'BEGIN {
		printf "| %-25s | %7.2f | %7.2f | %15.0f | %25.2fx | %12.0f | %24.2fx | %11.1f |\n",
			n, w, c, e / w, tw / w, e / c, tc / c, a / 1024 }'
done
