#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# disturb-bench.sh - how much a tracer takes from the system it traces:
# the throughput of an unbounded load under tracing, as a fraction of the
# same load untraced, for tracing with no reader, every vtrace reader,
# trace-cmd record and Perfetto's tracebox, the same events and per-CPU
# buffer size, side by side in one run; where the time goes and what the
# kernel lost; prints one table.
#
#   tools/bench/disturb-bench.sh [-b "BUFFER_KB ..."] [-t SECONDS]
#	[-p "ROW ..."] [-r ROUNDS]
#
# Load: syscall-storm unbounded (-r 0) on every CPU for -t seconds
# (default 3), at the normal scheduling policy: what a tracer takes from
# a normal workload. Events: raw_syscalls/sys_enter and sys_exit, both
# filtered on getppid, in an instance the script makes for each run
# (fresh: its counters start at 0), of the same per-CPU buffer size for
# every tracer (-b, default "32 128 1024" KB).
#
# Rows (-p, default all, in this order; "untraced" is always measured,
# as the fractions need it):
#   untraced      no tracer, the events off
#   noreader      the events on in the instance, tracing_on 1, nobody
#                 reading: the kernel's own cost, the floor
#   default       vtrace record without --reader and -r (its readers
#                 keep-all: at SCHED_FIFO 1 while tracing)
#   keep-all adaptive light   vtrace record --keep-all (the default, by
#                 name), --adaptive (raised to SCHED_FIFO 1 only under
#                 pressure) and --light (never raised)
#   boot-clock    the default with --clock boot, Perfetto's, which a
#                 recording into a Perfetto file uses (a trace.dat's
#                 default is local, trace-cmd's)
#   mmap splice read   vtrace record --reader PATH
#   trace-cmd     trace-cmd record as it comes; trace-cmd-r1: with -r 1
#                 (v6 uncompressed as vtrace writes, in tracecmd-ns.sh's
#                 private mount namespace, shared NOTES.md)
#   tracebox      Perfetto's recorder, as perfetto-bench.sh runs it (the
#                 same instance, RING_BUFFER with write_into_file every
#                 second, ending by itself about a second after the load)
#                 but also woken as its buffers fill, as vtrace is, at
#                 drain_buffer_percent 50 (the kernel's default; vtrace
#                 wakes at 50 to 75): on its 100 ms drain period alone it
#                 lost nearly every event and ran at the floor;
#                 skipped with a note without an x86-64 tracebox in
#                 ../shared/ref/perfetto/bin (VTRACE_PERFETTO_BIN_DIR)
# Each buffer size runs every row in turn, the whole sweep -r times
# (default 1); a row shows the round of its median calls (of an even
# number, the lower middle one) and its fraction is that median over the
# untraced row's, of the same buffer size.
#
# Columns: the load's calls (summed over CPUs) and their fraction of
# untraced; lost: the kernel's overrun + commit overrun + dropped events
# of the tracer's instance, summed over CPUs, as the load ends; the
# tracer's CPU time (user+sys of its processes, GNU time around the
# tracer only, start to end: trace-cmd's includes moving its per-CPU
# files into trace.dat after the load), the part of it spent while the
# load ran (its session's processes' utime+stime from /proc, before and
# after the load: what the tracer took from it), and its context
# switches, voluntary (its wake-ups: each
# is a sleep it was woken from) + involuntary, and their sum per MB it
# wrote; the load's own involuntary context switches (syscall-storm -i:
# how often something took its CPU); MB: the tracer's file (vtrace's and
# trace-cmd's trace.dat, tracebox's Perfetto file). Tracers end on
# SIGINT once the load is done, tracebox at the end of its duration.
#
# Last, per buffer size, the goal: vtrace default disturbs no more than the
# best of trace-cmd, trace-cmd -r1 and tracebox (a higher fraction) and
# the kernel loses no more than under the one that loses least; and the
# same against those of them that lost no more than vtrace (a tracer
# that loses nearly everything, as tracebox does here, runs at the floor).
# With more than one round, the default against each other tracer round
# by round: the median of its calls over the other's, and in how many
# rounds it made as many or more (the rows of a round run back to back,
# so a pair shares the machine's state where the medians of two rows
# need not).
#
# Needs root and tracefs; run it under the tracefs lock. Every instance it
# makes is removed, and the top level's knobs that a tracer changed are
# put back (said under the table). The machine's other work moves the
# numbers: compare rows of one run.
set -euo pipefail
trap 'echo "disturb-bench: line $LINENO: exit status $?" >&2' ERR

top=$(cd "$(dirname "$0")/../.." && pwd)
vtrace=${VTRACE_BIN:-$top/tools/vtrace/vtrace}
buffers="32 128 1024"
secs=3
all_rows="untraced noreader default keep-all adaptive light boot-clock mmap splice read trace-cmd trace-cmd-r1 tracebox"
rows=$all_rows
rounds=1
while getopts b:t:p:r: opt; do
	case $opt in
	b) buffers=$OPTARG ;;
	t) secs=$OPTARG ;;
	p) rows=$OPTARG ;;
	r) rounds=$OPTARG ;;
	*) sed -n 11,12p "$0" >&2; exit 2 ;;
	esac
done
for r in $rows; do
	case " $all_rows " in
	*" $r "*) ;;
	*) echo "disturb-bench: -p: one of '$all_rows', not '$r'" >&2; exit 2 ;;
	esac
done
case " $rows " in *" untraced "*) ;; *) rows="untraced $rows" ;; esac
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "disturb-bench: -r: a number of rounds, not '$rounds'" >&2; exit 2; }

# The tracer running, if any (the leader of its own session), and the
# top level's knobs saved before it started.
tracer=
# shellcheck disable=SC2317 # the EXIT trap bench_setup sets
cleanup() {
	if [ -n "$tracer" ] && kill -0 "$tracer" 2> /dev/null; then
		kill -INT -- -"$tracer" 2> /dev/null || true
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$tracer" 2> /dev/null || break
			sleep 0.5
		done
		kill -KILL -- -"$tracer" 2> /dev/null || true
		wait "$tracer" 2> /dev/null || true
	fi
	[ ! -s "$work/top.before" ] || tb_top_restore "$work/top.before" || true
	bench_drop_instance "$idir" || true
	rm -rf "$work"
}
# shellcheck source=tools/bench/bench-common.sh
. "$top/tools/bench/bench-common.sh"
bench_setup disturb
VT_TMP=$work
# (tb_top_save/tb_top_restore serve every tracer; tb_find tracebox.)
# shellcheck source=selftests/vtrace_tool/perfetto_tp_check.sh
. "$top/selftests/vtrace_tool/perfetto_tp_check.sh"
notes=()
case " $rows " in
*" tracebox "*)
	if ! tb_find; then
		notes+=("tracebox: skipped: $tp_why")
		rows=${rows/tracebox/}
	fi
	;;
esac

# session_ticks SID: the CPU time (user + system, clock ticks) of the
# processes of session SID so far.
session_ticks() {
	local f line t=0
	local -a v
	for f in /proc/[0-9]*/stat; do
		read -r line < "$f" 2> /dev/null || continue
		# After the command's closing parenthesis: state ppid pgrp
		# session, and utime and stime 8 and 9 fields on.
		read -r -a v <<< "${line##*) }"
		[ "${v[3]}" = "$1" ] && t=$((t + v[11] + v[12]))
	done
	echo "$t"
}

# storm: the load; sets calls and nivcsw (its involuntary switches), and
# during: the tracer's CPU seconds while the load ran ("-" untraced).
storm() {
	local out t0=
	[ -z "$tracer" ] || t0=$(session_ticks "$tracer")
	out=$("$work/storm" -r 0 -t "$secs" -i)
	read -r calls nivcsw <<< "$out"
	during=-
	[ -z "$t0" ] || during=$(awk -v a="$t0" -v b="$(session_ticks "$tracer")" \
		-v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }')
}

# ready NAME: waits until the tracer traces both events in the instance,
# then half a second more for its readers to start.
ready() {
	until [ "$(cat "$idir/events/raw_syscalls/sys_exit/enable" 2> /dev/null)" = 1 ] &&
	      [ "$(cat "$idir/tracing_on" 2> /dev/null)" = 1 ]; do
		kill -0 "$tracer" 2> /dev/null || {
			echo "disturb-bench: $1 ended before it traced:" >&2
			cat "$work/log" >&2
			exit 1
		}
		sleep 0.1
	done
	sleep 0.5
}

# finish NAME: waits for the tracer to end; fails with its log if it failed.
finish() {
	wait "$tracer" || {
		echo "disturb-bench: $1 failed:" >&2
		tail "$work/log" >&2
		exit 1
	}
	tracer=
	tb_top_restore "$work/top.before"
	rm -f "$work/top.before"
	# (Once each, however often it changed it.)
	local c
	for c in $tb_changed; do
		case " ${changed["$1"]:-} " in
		*" $c "*) ;;
		*) changed["$1"]+=" $c" ;;
		esac
	done
}

# measure ROW KB: sets m to "CALLS NIVCSW LOST CPU_S DURING VOL INVOL BYTES
# LABEL"
# ("-" where a row has no such value).
measure() {
	local row=$1 kb=$2 lost label=$1 opt=() rt=() out=$work/out.dat
	local u s vol invol reader
	case $row in
	untraced)
		storm
		m="$calls $nivcsw - - - - - - untraced"
		return
		;;
	noreader)
		bench_instance "$idir"
		echo "$kb" > "$idir/buffer_size_kb"
		echo 1 > "$idir/events/raw_syscalls/sys_enter/enable"
		echo 1 > "$idir/events/raw_syscalls/sys_exit/enable"
		echo 1 > "$idir/tracing_on"
		sleep 0.5
		storm
		lost=$(kernel_lost)
		bench_drop_instance "$idir"
		m="$calls $nivcsw $lost - - - - - tracing, no reader"
		return
		;;
	esac
	bench_instance "$idir"
	tb_top_save "$work/top.before"
	case $row in
	trace-cmd*)
		[ "$row" = trace-cmd ] || { rt=(-r 1); label="trace-cmd -r1"; }
		setsid unshare -m "$top/tools/bench/tracecmd-ns.sh" "$work" \
			"$idir" /usr/bin/time -f '%U %S %w %c' -o "$work/time" \
			trace-cmd record -q "${rt[@]}" -B "$inst" -b "$kb" \
			-e raw_syscalls:sys_enter -f "$filter" \
			-e raw_syscalls:sys_exit -f "$filter" \
			--file-version 6 --compression none \
			-o "$out" > "$work/log" 2>&1 &
		tracer=$!
		ready "$label"
		storm
		lost=$(kernel_lost)
		# As a terminal's Ctrl-C: SIGINT to its session, its
		# per-CPU recorders too (GNU time ignores it).
		kill -INT -- -"$tracer"
		finish "$label"
		[ -s "$out" ] || { echo "disturb-bench: trace-cmd wrote no $out:" >&2; cat "$work/log" >&2; exit 1; }
		;;
	tracebox)
		out=$work/out.pftrace
		bench_tracebox_config "$work/tracebox.cfg" "$kb" \
			"$(awk -v t="$secs" 'BEGIN { printf "%d", (t + 2) * 1000 }')" 50
		setsid /usr/bin/time -f '%U %S %w %c' -o "$work/time" \
			"$TB" -c "$work/tracebox.cfg" --txt -o "$out" \
			> "$work/log" 2>&1 &
		tracer=$!
		ready tracebox
		storm
		lost=$(kernel_lost)
		finish tracebox
		;;
	*)
		label="vtrace $row"
		case $row in
		default) ;;
		keep-all | adaptive | light) opt=(--"$row") ;;
		boot-clock) opt=(--clock boot) ;;
		*) opt=(--reader "$row") ;;
		esac
		setsid /usr/bin/time -f '%U %S %w %c' -o "$work/time" \
			"$vtrace" record --instance "$inst" \
			-e raw_syscalls/sys_enter -e raw_syscalls/sys_exit \
			-b "$kb" "${opt[@]}" -o "$out" --json \
			> "$work/json" 2> "$work/log" &
		tracer=$!
		ready "$label"
		storm
		lost=$(kernel_lost)
		pkill -INT -P "$tracer"
		finish "$label"
		# The default row names the reader it took.
		if [ "$row" = default ]; then
			reader=$(sed -n 's/.*"reader":"\([a-z]*\)".*/\1/p' "$work/json")
			label+=" (${reader:-?})"
		fi
		;;
	esac
	# (GNU time's last line: a line before it says how the tracer ended.)
	read -r u s vol invol <<< "$(tail -1 "$work/time")"
	m="$calls $nivcsw $lost $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') $during $vol $invol $(stat -c %s "$out") $label"
	rm -f "$out"
	bench_drop_instance "$idir"
}

declare -A res changed
for ((round = 1; round <= rounds; round++)); do
	for kb in $buffers; do
		for row in $rows; do
			measure "$row" "$kb"
			res["$kb $row $round"]=$m
			echo "  round $round, ${kb} KB: $row: $m" >&2
		done
	done
done

# median KB ROW: the round of the row's median calls (the lower middle
# one of an even number).
median() {
	local r
	for ((r = 1; r <= rounds; r++)); do
		echo "${res["$1 $2 $r"]}"
	done | sort -n -k1,1 | sed -n "$(((rounds + 1) / 2))p"
}

# paired KB ROW: vtrace default against ROW round by round. The rows of
# a round run one after the other, so their ratio leaves out the drift
# between rounds that the medians of each row keep.
paired() {
	local r d o ahead=0 ratios=() median
	for ((r = 1; r <= rounds; r++)); do
		read -r d _ <<< "${res["$1 default $r"]}"
		read -r o _ <<< "${res["$1 $2 $r"]}"
		[ "$d" -lt "$o" ] || ahead=$((ahead + 1))
		ratios+=("$(awk -v d="$d" -v o="$o" 'BEGIN { printf "%.3f", (o > 0 ? d / o : 0) }')")
	done
	median=$(printf '%s\n' "${ratios[@]}" | sort -n | sed -n "$(((rounds + 1) / 2))p")
	echo "$1 KB: round by round, vtrace default made $median of the calls under ${label_of[$2]} (median of $rounds rounds), as many or more in $ahead"
}

declare -A frac lost_of label_of
table=()
for kb in $buffers; do
	read -r base _ <<< "$(median "$kb" untraced)"
	for row in $rows; do
		read -r c niv l cpu during vol invol bytes label <<< "$(median "$kb" "$row")"
		frac["$kb $row"]=$(awk -v c="$c" -v b="$base" 'BEGIN { printf "%.3f", (b > 0 ? c / b : 0) }')
		lost_of["$kb $row"]=$l
		label_of["$row"]=$label
		table+=("$(awk -v kb="$kb" -v n="$label" -v c="$c" -v f="${frac["$kb $row"]}" \
			-v l="$l" -v cpu="$cpu" -v d="$during" -v vol="$vol" -v invol="$invol" \
			-v b="$bytes" -v niv="$niv" 'BEGIN {
			mb = b / 1e6
			ctx = vol == "-" ? "-" : vol "+" invol
			per = vol == "-" ? "-" : (mb > 0 ? sprintf("%.0f", (vol + invol) / mb) : "-")
			printf "| %5s | %-24s | %11d | %11s | %11s | %6s | %7s | %13s | %9s | %10d | %7s |\n",
				kb, n, c, f, l, cpu, d, ctx, per, niv, b == "-" ? "-" : sprintf("%.1f", mb) }')")
	done
done

echo "host: $(uname -sr), $ncpus CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "load: getppid() unbounded on each of $ncpus CPUs for ${secs}s at the normal policy; raw_syscalls (filter '$filter'); $rounds round(s), the median shown"
echo
echo "|    KB | tracer                   |       calls | of untraced | lost (kern) |  CPU s | in load | ctx vol+invol | ctx sw/MB | load invcs |      MB |"
echo "|-------|--------------------------|-------------|-------------|-------------|--------|---------|---------------|-----------|------------|---------|"
printf '%s\n' "${table[@]}"
echo "(lost: the kernel's overrun + commit overrun + dropped events of the instance; CPU s and ctx: the tracer's, start to end; in load: its CPU s while the load ran; load invcs: the load's involuntary switches)"
for n in "${!changed[@]}"; do
	notes+=("top-level settings $n changed (put back):${changed[$n]}")
done
[ "${#notes[@]}" = 0 ] || printf '%s\n' "${notes[@]}"
echo
# The goal, per buffer size: vtrace default disturbs less than the best
# other tracer and the kernel loses no more than under the least-losing.
others=
for r in trace-cmd trace-cmd-r1 tracebox; do
	case " $rows " in *" $r "*) others+=" $r" ;; esac
done
for kb in $buffers; do
	if [ -z "${frac["$kb default"]:-}" ] || [ -z "$others" ]; then
		echo "$kb KB: vtrace default or every other tracer not measured: no comparison"
		continue
	fi
	best='' bestf='' minl='' kept='' keptf=''
	for r in $others; do
		if [ -z "$bestf" ] || awk -v a="${frac["$kb $r"]}" -v b="$bestf" 'BEGIN { exit !(a > b) }'; then
			best=${label_of[$r]}
			bestf=${frac["$kb $r"]}
		fi
		if [ -z "$minl" ] || [ "${lost_of["$kb $r"]}" -lt "$minl" ]; then
			minl=${lost_of["$kb $r"]}
		fi
		[ "${lost_of["$kb $r"]}" -le "${lost_of["$kb default"]}" ] || continue
		if [ -z "$keptf" ] || awk -v a="${frac["$kb $r"]}" -v b="$keptf" 'BEGIN { exit !(a > b) }'; then
			kept=${label_of[$r]}
			keptf=${frac["$kb $r"]}
		fi
	done
	awk -v kb="$kb" -v d="${frac["$kb default"]}" -v n="$best" -v o="$bestf" \
	    -v a="${lost_of["$kb default"]}" -v b="$minl" 'BEGIN {
		printf "%s KB: vtrace default: %.3f of untraced; best other tracer: %s %.3f; lost %d vs min other %d: %s\n",
			kb, d, n, o, a, b, (d >= o && a <= b ? "met" : "MISSED") }'
	if [ -z "$kept" ]; then
		echo "$kb KB: of the tracers that lost no more: none"
	else
		awk -v kb="$kb" -v d="${frac["$kb default"]}" -v n="$kept" -v o="$keptf" 'BEGIN {
			printf "%s KB: of the tracers that lost no more: best %s %.3f: %s\n",
				kb, n, o, (d >= o ? "met" : "MISSED") }'
	fi
	[ "$rounds" -gt 1 ] || continue
	for r in $others; do
		paired "$kb" "$r"
	done
done
exit 0
