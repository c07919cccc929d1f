#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# record-bench.sh - vtrace record (each reader path) against trace-cmd
# record and a plain 'cat trace_pipe_raw', on the same load with the same
# per-CPU buffer size, in one run; prints one table.
#
#   tools/bench/record-bench.sh [-r CALLS_PER_SEC_PER_CPU] [-t SECONDS] [-b BUFFER_KB]
#	[-x EARLIER_VTRACE]
#
# Load: raw_syscalls/sys_enter + sys_exit while syscall-storm calls
# getppid() at a fixed rate on every CPU. Both events are filtered on the
# getppid syscall number, so 'offered' is exactly twice the calls made and
# other activity on the machine does not count. Reader CPU is the user+sys
# time of the reader's own process tree (GNU time around the reader only),
# per MB it wrote. Needs root and tracefs; trace-cmd is run in a private
# mount namespace that hides the function-tracer files this host refuses
# (see shared NOTES.md).
#
# The default path and trace-cmd are also run idle (no load, as long): a
# recording's fixed cost (event formats, kallsyms, buffer resizing) is
# then told apart from its cost per MB. -x adds the default path of
# another vtrace binary (an earlier build), for a before/after in one run.
set -euo pipefail
trap 'echo "record-bench: line $LINENO: exit status $?" >&2' ERR

top=$(cd "$(dirname "$0")/../.." && pwd)
vtrace=${VTRACE_BIN:-$top/tools/vtrace/vtrace}
rate=400000
secs=4
buf_kb=4096
earlier=
while getopts r:t:b:x: opt; do
	case $opt in
	r) rate=$OPTARG ;;
	t) secs=$OPTARG ;;
	b) buf_kb=$OPTARG ;;
	x) earlier=$OPTARG ;;
	*) echo "usage: $0 [-r RATE] [-t SECONDS] [-b BUFFER_KB] [-x EARLIER_VTRACE]" >&2; exit 2 ;;
	esac
done

cleanup() {
	bench_drop_instance "$idir"
	[ -d "$idir"_tc ] && rmdir "$idir"_tc
	rm -rf "$work"
}
. "$top/tools/bench/bench-common.sh"
bench_setup bench
bench_instance "$idir"

# Sum of one counter over the instance's per_cpu/cpuN/stats.
stat_sum() {
	cat "$idir"/per_cpu/cpu*/stats | awk -v k="$1:" '$0 ~ "^"k {
		sub("^"k, ""); s += $1 } END { print s + 0 }'
}

# row NAME OFFERED RECORDED LOST BYTES USER SYS
row() {
	awk -v n="$1" -v o="$2" -v r="$3" -v l="$4" -v b="$5" -v u="$6" -v s="$7" 'BEGIN {
		mb = b / 1e6; cpu = u + s
		printf "| %-23s | %10d | %10d | %8d | %8.1f | %6.2f | %9.1f |\n",
			n, o, r, l, mb, cpu, (mb > 0 ? cpu * 1000 / mb : 0) }'
}

# storm [idle]: the load (its calls on stdout), or as long without one.
storm() {
	if [ "${1:-}" = idle ]; then
		sleep "$secs"
		echo 0
	else
		"$work/storm" -r "$rate" -t "$secs"
	fi
}

results=()

# vtrace_row NAME BINARY PATH [idle]
vtrace_row() {
	local name=$1 bin=$2 path=$3 out=$work/vtrace-$3.dat json u s
	/usr/bin/time -f '%U %S' -o "$work/time" \
		"$bin" record --instance "$inst" -e raw_syscalls/sys_enter \
		-e raw_syscalls/sys_exit -b "$buf_kb" --reader "$path" \
		-o "$out" --json > "$work/json" 2> "$work/err" &
	wrapper=$!
	sleep 1
	calls=$(storm "${4:-}")
	pkill -INT -P $wrapper
	wait $wrapper || { cat "$work/err" >&2; exit 1; }
	json=$(cat "$work/json")
	recorded=$(sed 's/.*"events":\([0-9]*\),"lost".*/\1/' <<< "${json%%\"cpus\"*}")
	lost=$(sed 's/.*"lost":\([0-9]*\),"bytes".*/\1/' <<< "${json%%\"cpus\"*}")
	read -r u s < "$work/time"
	# auto is the default path: its row names the reader it took.
	[ "$path" = auto ] && [ -z "${4:-}" ] &&
		name+=": $(sed 's/.*"reader":"\([a-z]*\)".*/\1/' <<< "$json")"
	results+=("$(row "$name" $((calls * 2)) "$recorded" "$lost" \
		"$(stat -c %s "$out")" "$u" "$s")")
	rm -f "$out"
}

vtrace_row "vtrace default" "$vtrace" auto
[ -z "$earlier" ] || vtrace_row "vtrace before" "$earlier" auto
for path in mmap splice read; do
	vtrace_row "vtrace $path" "$vtrace" "$path"
done
vtrace_row "vtrace default, idle" "$vtrace" auto idle

# trace-cmd 3.1: its own instance, the same filter and buffer size, v6
# uncompressed as vtrace writes. It runs in a session of its own (setsid:
# its process group is $tc) and is stopped as a terminal's Ctrl-C would:
# SIGINT to that group, which reaches its per-CPU recorders too; GNU time
# ignores SIGINT while it waits. The private mount namespace hides the
# function-tracer files this host refuses (shared NOTES.md), an instance's
# as well as the top level's: the instance is made first so that its files
# exist to be masked.
# tracecmd_row NAME [idle]
tracecmd_row() {
	local out=$work/trace-cmd.dat tc_inst=${inst}_tc tc_dir u s
	tc_dir=$tracefs/instances/$tc_inst
	mkdir "$tc_dir"
	setsid unshare -m "$top/tools/bench/tracecmd-ns.sh" "$work" "$tc_dir" \
		/usr/bin/time -f "%U %S" -o "$work/time" trace-cmd record -q \
		-B "$tc_inst" -b "$buf_kb" \
		-e raw_syscalls:sys_enter -f "$filter" \
		-e raw_syscalls:sys_exit -f "$filter" \
		--file-version 6 --compression none -o "$out" > "$work/tc.log" 2>&1 &
	tc=$!
	# Recording once its instance traces both events.
	until [ "$(cat "$tc_dir/events/raw_syscalls/sys_exit/enable" 2>/dev/null)" = 1 ]; do
		kill -0 $tc 2>/dev/null || { cat "$work/tc.log" >&2; exit 1; }
		sleep 0.1
	done
	sleep 1
	calls=$(storm "${2:-}")
	kill -INT -- -$tc
	wait $tc || { cat "$work/tc.log" >&2; exit 1; }
	[ -s "$out" ] || { echo "trace-cmd wrote no $out:" >&2; cat "$work/tc.log" >&2; exit 1; }
	recorded=$(trace-cmd report "$out" 2>/dev/null | grep -c 'sys_e[nx]' || true)
	read -r u s < "$work/time"
	results+=("$(row "$1" $((calls * 2)) "$recorded" \
		$((calls * 2 - recorded)) "$(stat -c %s "$out")" "$u" "$s")")
	rm -f "$out"
	[ ! -d "$tc_dir" ] || rmdir "$tc_dir"
}

tracecmd_row "trace-cmd record"
tracecmd_row "trace-cmd record, idle" idle

# cat: one per CPU, woken by the kernel at buffer_percent like the others;
# recorded and lost from the buffer's own counters.
echo 0 > "$idir/tracing_on"
echo "$buf_kb" > "$idir/buffer_size_kb"
: > "$idir/trace"
echo 1 > "$idir/events/raw_syscalls/sys_enter/enable"
echo 1 > "$idir/events/raw_syscalls/sys_exit/enable"
/usr/bin/time -f '%U %S' -o "$work/time" sh -c '
	for c in $(seq 0 $(('"$ncpus"' - 1))); do
		cat '"$idir"'/per_cpu/cpu$c/trace_pipe_raw > '"$work"'/cat.$c &
		echo $! >> '"$work"'/cat.pids
	done
	wait
' &
wrapper=$!
echo 1 > "$idir/tracing_on"
sleep 1
calls=$(storm)
echo 0 > "$idir/tracing_on"
sleep 1
# (They may have ended already: a drained trace_pipe_raw with tracing off
# reads as end of file.)
kill -TERM $(cat "$work/cat.pids") 2>/dev/null || true
wait $wrapper || true
recorded=$(stat_sum "read events")
lost=$(( $(stat_sum overrun) + $(stat_sum "dropped events") ))
bytes=$(cat "$work"/cat.* | wc -c)
read -r u s < "$work/time" || { u=0; s=0; }
results+=("$(row "cat trace_pipe_raw" $((calls * 2)) "$recorded" "$lost" \
	"$bytes" "$u" "$s")")
echo 0 > "$idir/events/enable"

echo "host: $(uname -sr), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load: raw_syscalls (filter '$filter'), getppid at $rate/s per CPU for ${secs}s on $ncpus CPUs; ${buf_kb} KB buffer per CPU"
echo
echo "| reader                  |    offered |   recorded |     lost |       MB | CPU s  | CPU ms/MB |"
echo "|-------------------------|------------|------------|----------|----------|--------|-----------|"
printf '%s\n' "${results[@]}"
# The goal: the default path at most half trace-cmd's reader CPU per MB;
# above idle: what the recording cost beyond its fixed cost, per MB.
echo
printf '%s\n' "${results[@]}" | awk -F'|' '
	{ name = $2; gsub(/^ +| +$/, "", name); mb[name] = $6; cpu[name] = $7
	  per_mb[name] = $6 > 0 ? $7 / $6 : 0 }
	name ~ /^vtrace default:/ { dflt = name }
	name ~ /^vtrace before:/ { before = name }
	function above(n, idle) { return (cpu[n] - cpu[idle]) / (mb[n] - mb[idle]) }
	END {
		tc = per_mb["trace-cmd record"]
		if (tc <= 0)
			exit
		printf "CPU per MB against trace-cmd record: %s %.2fx (goal <= 0.50x: %s), mmap %.2fx, splice %.2fx, read %.2fx\n",
			dflt, per_mb[dflt] / tc, per_mb[dflt] / tc <= 0.5 ? "met" : "MISSED",
			per_mb["vtrace mmap"] / tc, per_mb["vtrace splice"] / tc, per_mb["vtrace read"] / tc
		if (before != "")
			printf "%s %.2fx\n", before, per_mb[before] / tc
		tca = above("trace-cmd record", "trace-cmd record, idle")
		if (tca > 0)
			printf "above idle: %s %.2f ms/MB, trace-cmd %.2f ms/MB: %.2fx\n",
				dflt, 1000 * above(dflt, "vtrace default, idle"), 1000 * tca,
				above(dflt, "vtrace default, idle") / tca
	}'
