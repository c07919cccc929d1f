#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lossless-sweep.sh - the highest fixed rate each reader records without
# losing an event, and what it loses above that: every vtrace reader path
# and trace-cmd record, the same load and buffer size, in one run.
#
#   tools/bench/lossless-sweep.sh [-b "BUFFER_KB ..."] [-t SECONDS]
#	[-p "READER ..."] [-s STEPS] [-c RATE] [-P STORM_PRIO]
#	[-L syscalls|marker] [-m MARKER_BYTES] [-x EARLIER_VTRACE]
#
# For each buffer size (-b, default "1024 4096" KB per CPU) and reader
# (-p, default "default default-r0 mmap trace-cmd trace-cmd-r1";
# "default" is vtrace record without --reader or -r, "default-r0" the
# same with -r 0, its readers at the caller's priority; "mmap", "splice",
# "read" the --reader paths; "trace-cmd" is trace-cmd record as it
# comes, "trace-cmd-r1" with -r 1, its recorders at SCHED_FIFO 1 as
# vtrace's default readers are), the rate of getppid() calls per CPU is
# bisected (-s steps, default 5, between 50000/s and 1600000/s) for the
# highest one with 0 lost, then the loss at 1.5x and 2x that rate is
# measured. Lost is read from the kernel: the sum of every CPU's overrun,
# commit overrun and dropped events in the reader's own, fresh instance
# (per_cpu/cpuN/stats), as the storm ends; vtrace's own count is shown
# beside it. Then the default reader is run at the rates the trace-cmd
# rows were, and they at its, for 'loses no more than trace-cmd at every
# rate'; then CPU per MB at one rate every reader sustains (-c, default
# 200000) and the unbounded storm (-r 0), the storm at the normal policy.
# Last, one line per goal against each trace-cmd row: the lossless-rate
# ratio (at least 1.5x), CPU per MB at -c (at most 0.5x, where both lost
# nothing) and the kernel's loss under the unbounded storm (no more).
#
# The storm runs at SCHED_FIFO 2 (-P; 0 for the normal policy), above
# every reader's priority: a reader then runs only while the storm sleeps
# to keep its rate, whatever its own priority, so the highest lossless
# rate is set by what the reader costs, not by the load generator's
# ceiling (at the normal policy a reader at SCHED_FIFO 1 preempts the
# storm and loses nothing at any rate it can make).
#
# Load (-L): syscall-storm on every CPU. "syscalls" (the default): four
# events per getppid() call, raw_syscalls/sys_enter and sys_exit
# (filtered on getppid) and the syscalls/sys_enter_getppid and
# sys_exit_getppid events, 144 bytes per call in the buffer, where
# record-bench.sh's two take 88. "marker": one write(2) of -m bytes
# (default 512) to the instance's trace_marker per call, an ftrace/print
# event of about that size, as atrace markers are: the writer's cost per
# byte is then far below a reader's, whose limit shows at the normal
# policy too. The same events are enabled for both loads.
#
# -x adds the reader "before": the default of another vtrace binary (an
# earlier build), for a before/after in one run; name it in -p.
#
# Needs root and tracefs; run it under the tracefs lock. The machine's
# other work moves the numbers: compare ratios within one run.
set -euo pipefail
trap 'echo "lossless-sweep: line $LINENO: exit status $?" >&2' ERR

top=$(cd "$(dirname "$0")/../.." && pwd)
vtrace=${VTRACE_BIN:-$top/tools/vtrace/vtrace}
buffers="1024 4096"
readers="default default-r0 mmap trace-cmd trace-cmd-r1"
secs=2
steps=5
common=200000
storm_prio=2
load=syscalls
marker_bytes=512
earlier=
while getopts b:t:p:s:c:P:L:m:x: opt; do
	case $opt in
	b) buffers=$OPTARG ;;
	t) secs=$OPTARG ;;
	p) readers=$OPTARG ;;
	s) steps=$OPTARG ;;
	c) common=$OPTARG ;;
	P) storm_prio=$OPTARG ;;
	L) load=$OPTARG ;;
	m) marker_bytes=$OPTARG ;;
	x) earlier=$(realpath "$OPTARG") ;;
	*) sed -n 8,10p "$0" >&2; exit 2 ;;
	esac
done

cleanup() {
	bench_drop_instance "$idir"
	rm -rf "$work"
}
. "$top/tools/bench/bench-common.sh"
bench_setup sweep

# The load: events per call, the storm's options for it, its description.
case $load in
syscalls)
	per_call=4
	storm_load=()
	what="getppid() at a fixed rate per CPU, 4 events per call: raw_syscalls (filter '$filter') and syscalls' getppid events"
	;;
marker)
	per_call=1
	storm_load=(-w "$idir/trace_marker" -s "$marker_bytes")
	what="write(2) of $marker_bytes bytes to trace_marker at a fixed rate per CPU, one ftrace/print event per call"
	;;
*) echo "lossless-sweep: -L: syscalls or marker, not '$load'" >&2; exit 2 ;;
esac

# Reader CPU: user+sys of the reader's process tree, from GNU time.
cpu_of() {
	awk '{ print $1 + $2 }' "$work/time"
}

# measure READER RATE BUFFER_KB: prints "offered lost vtrace_lost MB cpu_s"
measure() {
	local reader=$1 rate=$2 kb=$3 pid calls lost json vlost=- bytes
	# A fresh instance per run: its counters start at 0.
	bench_instance "$idir"
	if [ "${reader%-r1}" = trace-cmd ]; then
		local rt=()
		[ "$reader" = trace-cmd ] || rt=(-r 1)
		setsid unshare -m "$top/tools/bench/tracecmd-ns.sh" "$work" \
			"$idir" /usr/bin/time -f "%U %S" -o "$work/time" \
			trace-cmd record -q "${rt[@]}" -B "$inst" -b "$kb" \
			-e raw_syscalls:sys_enter -f "$filter" \
			-e raw_syscalls:sys_exit -f "$filter" \
			-e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid \
			--file-version 6 --compression none \
			-o "$work/out.dat" > "$work/log" 2>&1 &
		pid=$!
	else
		local opt=() bin=$vtrace
		case $reader in
		default) ;;
		default-r0) opt=(-r 0) ;;
		before) bin=${earlier:?-p before needs -x EARLIER_VTRACE} ;;
		*) opt=(--reader "$reader") ;;
		esac
		setsid /usr/bin/time -f '%U %S' -o "$work/time" \
			"$bin" record --instance "$inst" \
			-e raw_syscalls/sys_enter -e raw_syscalls/sys_exit \
			-e syscalls/sys_enter_getppid -e syscalls/sys_exit_getppid \
			-b "$kb" "${opt[@]}" -o "$work/out.dat" --json \
			> "$work/json" 2> "$work/log" &
		pid=$!
	fi
	until [ "$(cat "$idir/events/raw_syscalls/sys_exit/enable" 2>/dev/null)" = 1 ] &&
	      [ "$(cat "$idir/tracing_on")" = 1 ]; do
		kill -0 $pid 2>/dev/null || { cat "$work/log" >&2; exit 1; }
		sleep 0.1
	done
	sleep 0.5
	calls=$("$work/storm" -r "$rate" -t "$secs" -p "$storm_prio" "${storm_load[@]}")
	lost=$(kernel_lost)
	kill -INT -- -$pid
	wait $pid || { cat "$work/log" >&2; exit 1; }
	if [ "${reader%-r1}" != trace-cmd ]; then
		json=$(cat "$work/json")
		vlost=$(sed 's/.*"lost":\([0-9]*\),"bytes".*/\1/' <<< "${json%%\"cpus\"*}")
	fi
	bytes=$(stat -c %s "$work/out.dat")
	rm -f "$work/out.dat"
	# (trace-cmd removes the instance it recorded when it exits.)
	bench_drop_instance "$idir"
	echo "$((calls * per_call)) $lost $vlost $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') $(cpu_of)"
}

# sweep READER KB: bisect the highest rate with 0 lost, then 1.5x and 2x.
sweep() {
	local reader=$1 kb=$2 lo=50000 hi=1600000 mid i r got
	local -a m
	for ((i = 0; i < steps; i++)); do
		mid=$(( (lo + hi) / 2 ))
		read -ra m <<< "$(measure "$reader" $mid "$kb")"
		if [ "${m[1]}" = 0 ] && { [ "${m[2]}" = - ] || [ "${m[2]}" = 0 ]; }; then
			lo=$mid
		else
			hi=$mid
		fi
		echo "  $reader ${kb}KB rate $mid: offered ${m[0]} lost ${m[1]} (vtrace ${m[2]})" >&2
	done
	# What the storm achieved at $lo, per CPU and second: above what it
	# can offer, a target rate is only a bound.
	read -ra m <<< "$(measure "$reader" $lo "$kb")"
	got=$(awk -v o="${m[0]}" -v c="$per_call" -v t="$secs" -v n="$(nproc)" \
		'BEGIN { printf "%d", o / c / t / n }')
	rows+=("$(printf '| %-12s | %5s | %9d | %9d %8s |' "$reader" "$kb" "$lo" "$got" "${m[1]}")")
	lost_at["$reader $kb $lo"]=${m[1]}
	for r in $((lo * 3 / 2)) $((lo * 2)); do
		read -ra m <<< "$(measure "$reader" $r "$kb")"
		rows[-1]+="$(printf ' %9d: %8s (%4.1f%%) |' "$r" "${m[1]}" \
			"$(awk -v l="${m[1]}" -v o="${m[0]}" 'BEGIN { print 100 * l / o }')")"
		lost_at["$reader $kb $r"]=${m[1]}
	done
	rates["$reader $kb"]="$lo $((lo * 3 / 2)) $((lo * 2))"
	best["$reader $kb"]=$got
	# Never lost in the bisection: its limit is above the range asked.
	[ "$hi" != 1600000 ] || capped["$reader $kb"]=1
}

# compare KB: the default reader and each trace-cmd row at one another's
# rates, measured where the sweeps did not; a row per rate.
compare() {
	local kb=$1 r tc all row worse
	local -a m
	all=$(for r in $cmp_readers; do echo ${rates["$r $kb"]:-}; done |
		tr ' ' '\n' | sort -nu)
	for r in $all; do
		row=$(printf '| %5s | %9d |' "$kb" "$r")
		worse=
		for tc in $cmp_readers; do
			if [ -z "${lost_at["$tc $kb $r"]:-}" ]; then
				read -ra m <<< "$(measure "$tc" "$r" "$kb")"
				lost_at["$tc $kb $r"]=${m[1]}
			fi
			row+=$(printf ' %12s |' "${lost_at["$tc $kb $r"]}")
			[ "$tc" = default ] ||
				[ "${lost_at["default $kb $r"]}" -le "${lost_at["$tc $kb $r"]}" ] ||
				worse+=" $tc"
		done
		if [ -n "$worse" ]; then
			cmp_rows+=("$row MORE than$worse |")
		else
			cmp_rows+=("$row ok |")
		fi
	done
}

declare -A best capped lost_at rates cpu_lost cpu_ms
rows=()
cmp_rows=()
# The comparison's columns: the default reader, then the trace-cmd rows.
cmp_readers=
case " $readers " in
*" default "*)
	for r in trace-cmd trace-cmd-r1; do
		case " $readers " in *" $r "*) cmp_readers+=" $r" ;; esac
	done
	[ -z "$cmp_readers" ] || cmp_readers="default$cmp_readers"
	;;
esac
for kb in $buffers; do
	for reader in $readers; do
		sweep "$reader" "$kb"
	done
	[ -z "$cmp_readers" ] || compare "$kb"
done

# CPU per MB at the normal policy: above the readers, the unbounded storm
# would leave them nothing.
sweep_prio=$storm_prio
storm_prio=0
cpu_rows=()
for rate in "$common" 0; do
	for reader in $readers; do
		read -ra m <<< "$(measure "$reader" "$rate" 1024)"
		cpu_lost["$reader $rate"]=${m[1]}
		cpu_ms["$reader $rate"]=$(awk -v c="${m[4]}" -v mb="${m[3]}" \
			'BEGIN { printf "%.2f", (mb > 0 ? c * 1000 / mb : 0) }')
		cpu_rows+=("$(printf '| %-12s | %8s | %10d | %13s | %8s | %7.1f | %5.2f | %6.2f |' \
			"$reader" "$([ "$rate" = 0 ] && echo storm || echo "$rate")" \
			"${m[0]}" "${m[1]}" "${m[2]}" "${m[3]}" "${m[4]}" \
			"${cpu_ms["$reader $rate"]}")")
	done
done

echo "host: $(uname -sr), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "load: $what, for ${secs}s on $(nproc) CPUs, the storm at SCHED_FIFO $sweep_prio (0: normal); lost = the kernel's per-CPU overrun + dropped"
echo
echo "Highest lossless rate (calls/s per CPU asked for, $steps bisection steps; achieved: what the storm made of it, with the loss of that run), and the loss at 1.5x and 2x it:"
echo
echo "| reader       |    KB |  lossless |  achieved, lost |   1.5x rate:     lost        |     2x rate:     lost        |"
echo "|--------------|-------|-----------|-----------------|------------------------------|------------------------------|"
printf '%s\n' "${rows[@]}"
echo
if [ -n "$cmp_readers" ]; then
	echo "Lost (kernel) at every rate measured, the default reader against trace-cmd:"
	echo
	head='|    KB |      rate |' rule='|-------|-----------|'
	for r in $cmp_readers; do
		head+=$(printf ' %12s |' "$r")
		rule+='--------------|'
	done
	echo "$head default loses no more |"
	echo "$rule-----------------------|"
	printf '%s\n' "${cmp_rows[@]}"
	echo
fi
echo "CPU per MB (1024 KB per CPU, the storm at the normal policy):"
echo
echo "| reader       |     rate |    offered | lost (kernel) | (vtrace) |      MB | CPU s | ms/MB  |"
echo "|--------------|----------|------------|---------------|----------|---------|-------|--------|"
printf '%s\n' "${cpu_rows[@]}"
echo
for kb in $buffers; do
	for tc in trace-cmd trace-cmd-r1; do
		t=${best["$tc $kb"]:-}
		dflt=${best["default $kb"]:-}
		[ -n "$t" ] && [ -n "$dflt" ] &&
			awk -v d="$dflt" -v t="$t" -v kb="$kb" -v n="$tc" \
				-v c="${capped["default $kb"]:-}" 'BEGIN {
				printf "%s KB: default reader lossless up to %d/s achieved%s, %s %d/s: %.2fx (goal >= 1.50x: %s)\n",
					kb, d, (c ? " (at every rate asked: a lower bound)" : ""),
					n, t, d / t, (d >= 1.5 * t ? "met" : "MISSED") }'
	done
done
# Goal 2: CPU per MB at a rate both sustain; goal 3: the kernel's loss
# under the unbounded storm.
for tc in trace-cmd trace-cmd-r1; do
	[ -n "${cpu_ms["default $common"]:-}" ] && [ -n "${cpu_ms["$tc $common"]:-}" ] || continue
	awk -v d="${cpu_ms["default $common"]}" -v t="${cpu_ms["$tc $common"]}" \
	    -v dl="${cpu_lost["default $common"]}" -v tl="${cpu_lost["$tc $common"]}" \
	    -v r="$common" -v n="$tc" 'BEGIN {
		if (dl != 0 || tl != 0)
			printf "CPU per MB at %d/s: not sustained by both (lost %d and %d): no comparison\n", r, dl, tl
		else
			printf "CPU per MB at %d/s: default %.2f ms/MB, %s %.2f: %.2fx (goal <= 0.50x: %s)\n",
				r, d, n, t, (t > 0 ? d / t : 0), (d <= 0.5 * t ? "met" : "MISSED") }'
	awk -v d="${cpu_lost["default 0"]}" -v t="${cpu_lost["$tc 0"]}" -v n="$tc" 'BEGIN {
		printf "unbounded storm: default lost %d (kernel), %s %d (goal: no more: %s)\n",
			d, n, t, (d <= t ? "met" : "MISSED") }'
done
exit 0
