#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# perfetto-bench.sh - vtrace record -o FILE.pftrace against Perfetto's own
# recorder, tracebox (traced and traced_probes in one process), writing
# the same format: the same events under the same load, in an instance of
# their own with the same per-CPU buffer size, one run; prints one table.
#
#   tools/bench/perfetto-bench.sh [-r CALLS_PER_SEC_PER_CPU] [-t SECONDS] [-b BUFFER_KB]
#
# Load: as record-bench.sh's, raw_syscalls/sys_enter + sys_exit of
# getppid() at a fixed rate on every CPU ('offered' is twice the calls).
# vtrace filters with the instance's event filters, tracebox with its
# config's syscall_events (it sets the same kind of filter). tracebox
# writes into its file every second (write_into_file), as a long
# recording would. Per recorder: the CPU time (user+sys) of its process,
# per MB of the file it wrote; the events in the file, counted by
# Perfetto's trace processor; the events lost, from the file's own
# ftrace_stats (the kernel's overrun counters at the end, which both
# write) and, for vtrace, its summary.
#
# tracebox and trace_processor_shell come from ../shared/ref/perfetto/bin
# (reference tools outside the project, x86-64; VTRACE_PERFETTO_BIN_DIR
# names another folder): without them the benchmark says so and exits 0.
set -euo pipefail
trap 'echo "perfetto-bench: line $LINENO: exit status $?" >&2' ERR

top=$(cd "$(dirname "$0")/../.." && pwd)
vtrace=${VTRACE_BIN:-$top/tools/vtrace/vtrace}
bin_dir=${VTRACE_PERFETTO_BIN_DIR:-$top/../shared/ref/perfetto/bin}
rate=400000
secs=4
buf_kb=4096
while getopts r:t:b: opt; do
	case $opt in
	r) rate=$OPTARG ;;
	t) secs=$OPTARG ;;
	b) buf_kb=$OPTARG ;;
	*) echo "usage: $0 [-r RATE] [-t SECONDS] [-b BUFFER_KB]" >&2; exit 2 ;;
	esac
done

if [ ! -r "$bin_dir/tracebox.xz" ] || [ "$(uname -m)" != x86_64 ]; then
	echo "perfetto-bench: skipped: no x86-64 tracebox in $bin_dir (reference data, not part of the project)"
	exit 0
fi

cleanup() {
	bench_drop_instance "$idir"
	rm -rf "$work"
}
. "$top/tools/bench/bench-common.sh"
bench_setup perfetto
VT_TMP=$work
. "$top/selftests/vtrace_tool/perfetto_tp_check.sh"
tp_find || { echo "perfetto-bench: $tp_why" >&2; exit 1; }
tb_find || { echo "perfetto-bench: $tp_why" >&2; exit 1; }
bench_instance "$idir"

# row NAME OFFERED KEPT LOST BYTES USER SYS
row() {
	awk -v n="$1" -v o="$2" -v k="$3" -v l="$4" -v b="$5" -v u="$6" -v s="$7" 'BEGIN {
		mb = b / 1e6; cpu = u + s
		printf "| %-16s | %10d | %10d | %9s | %8.1f | %6.2f | %9.1f | %9.0f |\n",
			n, o, k, l, mb, cpu, (mb > 0 ? cpu * 1000 / mb : 0),
			(k > 0 ? cpu * 1e9 / k : 0) }'
}

# kept_lost FILE: "KEPT LOST" of a Perfetto file, by the trace processor:
# its sys_enter/sys_exit events, and the overrun its ftrace_stats say.
kept_lost() {
	tp_query "$1" "select (select count(*) from ftrace_event
		where name in ('sys_enter', 'sys_exit')) as kept,
		(select coalesce(sum(value), 0) from stats
		where name = 'ftrace_cpu_overrun_end') as lost;" | tr ',' ' '
}

results=()

# vtrace: its default reader, stopped by SIGINT once the load is done.
/usr/bin/time -f '%U %S' -o "$work/time" \
	"$vtrace" record --instance "$inst" -e raw_syscalls/sys_enter \
	-e raw_syscalls/sys_exit -b "$buf_kb" -o "$work/vtrace.pftrace" \
	--json > "$work/json" 2> "$work/err" &
wrapper=$!
sleep 1
calls=$("$work/storm" -r "$rate" -t "$secs")
pkill -INT -P $wrapper
wait $wrapper || { cat "$work/err" >&2; exit 1; }
json=$(cat "$work/json")
summary_lost=$(sed 's/.*"lost":\([0-9]*\),.*/\1/' <<< "${json%%\"cpus\"*}")
reader=$(sed 's/.*"reader":"\([a-z]*\)".*/\1/' <<< "$json")
read -r kept lost < <(kept_lost "$work/vtrace.pftrace")
read -r u s < "$work/time"
results+=("$(row "vtrace $reader" $((calls * 2)) "$kept" "$lost/$summary_lost" \
	"$(stat -c %s "$work/vtrace.pftrace")" "$u" "$s")")

# tracebox: the same instance (made by this script, as Perfetto uses an
# instance it finds), events, buffer; it ends by itself after the load.
# Even when told to use an instance it changes the top level (on this
# host: tracing switched off, the buffer shrunk to its minimum, the trace
# clock set to boot): what it changed is said and put back.
tb_top_save "$work/top.before"
bench_tracebox_config "$work/tracebox.cfg" "$buf_kb" $(((secs + 2) * 1000))
/usr/bin/time -f '%U %S' -o "$work/time" \
	"$TB" -c "$work/tracebox.cfg" --txt \
	-o "$work/tracebox.pftrace" > "$work/tracebox.log" 2>&1 &
wrapper=$!
until [ "$(cat "$idir/events/raw_syscalls/sys_exit/enable")" = 1 ]; do
	kill -0 $wrapper 2> /dev/null || { cat "$work/tracebox.log" >&2; exit 1; }
	sleep 0.1
done
sleep 1
calls=$("$work/storm" -r "$rate" -t "$secs")
wait $wrapper || { tail "$work/tracebox.log" >&2; exit 1; }
tb_top_restore "$work/top.before"
read -r kept lost < <(kept_lost "$work/tracebox.pftrace")
read -r u s < "$work/time"
results+=("$(row "tracebox" $((calls * 2)) "$kept" "$lost" \
	"$(stat -c %s "$work/tracebox.pftrace")" "$u" "$s")")

echo "host: $(uname -sr), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load: raw_syscalls (getppid only), getppid at $rate/s per CPU for ${secs}s on $ncpus CPUs; ${buf_kb} KB buffer per CPU; Perfetto files"
echo
echo "| recorder         |    offered |       kept | lost      |       MB | CPU s  | CPU ms/MB | CPU ns/ev |"
echo "|------------------|------------|------------|-----------|----------|--------|-----------|-----------|"
printf '%s\n' "${results[@]}"
echo "(vtrace's lost: the file's stats / its summary; CPU ns/ev: per event kept)"
echo "top-level settings tracebox changed (put back):${tb_changed:- none}"
echo
# The goal: vtrace at most half tracebox's CPU per MB, and no more loss.
printf '%s\n' "${results[@]}" | awk -F'|' '
	{ name = $2; gsub(/^ +| +$/, "", name); per_mb[name] = $6 > 0 ? $7 / $6 : 0
	  per_k[name] = $9 + 0
	  split($5, l, "/"); lost[name] = l[1] + 0; if (name != "tracebox") v = name }
	END {
		if (per_mb["tracebox"] <= 0 || per_k["tracebox"] <= 0)
			exit
		r = per_mb[v] / per_mb["tracebox"]
		printf "CPU per MB against tracebox: %s %.2fx (goal <= 0.50x: %s), per event %.2fx; lost %d against %d (%s)\n",
			v, r, r <= 0.5 ? "met" : "MISSED", per_k[v] / per_k["tracebox"],
			lost[v], lost["tracebox"],
			lost[v] <= lost["tracebox"] ? "no more" : "MORE"
	}'
