#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# probes-bench.sh - what polling the kernel's counters costs: vtrace record
# --poll (every linux.sys_stats kind) --process-tree at 100 ms and 10 ms,
# against Perfetto's tracebox recording the same data sources from the
# config vtrace config writes for them, in one run; prints one table.
#
#   tools/bench/probes-bench.sh [-t SECONDS]
#
# Each recorder records one event that does not fire on an idle machine
# (sched/sched_process_exec, in an instance of its own), once without the
# data sources and once with them at each period; the data sources' cost
# is the difference of the recorder's CPU time (perf stat's task-clock of
# its process and threads, to the microsecond), per second recorded. Needs root and tracefs. tracebox comes from
# ../shared/ref/perfetto/bin (reference tools outside the project, x86-64;
# VTRACE_PERFETTO_BIN_DIR names another folder): without it only vtrace's
# column is filled.
set -euo pipefail
trap 'echo "probes-bench: line $LINENO: exit status $?" >&2' ERR

top=$(cd "$(dirname "$0")/../.." && pwd)
vtrace=${VTRACE_BIN:-$top/tools/vtrace/vtrace}
bin_dir=${VTRACE_PERFETTO_BIN_DIR:-$top/../shared/ref/perfetto/bin}
secs=10
while getopts t: opt; do
	case $opt in
	t) secs=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS]" >&2; exit 2 ;;
	esac
done

kinds=meminfo,vmstat,stat,devfreq,cpufreq,buddyinfo,diskstat,psi,thermal
event=sched/sched_process_exec

cleanup() {
	[ -d "$idir" ] && rmdir "$idir" 2> /dev/null
	rm -rf "$work"
}
. "$top/tools/bench/bench-common.sh"
bench_setup probes
have_tb=0
if [ -r "$bin_dir/tracebox.xz" ] && [ "$(uname -m)" = x86_64 ]; then
	VT_TMP=$work
	. "$top/selftests/vtrace_tool/perfetto_tp_check.sh"
	tb_find && have_tb=1
fi

# cpu_of FILE: the CPU seconds perf stat -x, wrote into FILE.
cpu_of() {
	awk -F, '$3 == "task-clock" { printf "%.6f\n", $1 / 1000 }' "$1"
}

# vtrace_cpu [ARGS...]: vtrace's CPU seconds for a recording of $secs.
vtrace_cpu() {
	perf stat -x, -e task-clock -o "$work/perf" -- "$vtrace" record \
		--instance "$inst" -e $event -t "${secs}s" \
		-o "$work/v.pftrace" "$@" 2> "$work/err" ||
		{ cat "$work/err" >&2; exit 1; }
	cpu_of "$work/perf"
}

# tracebox_cpu [VTRACE-CONFIG-ARGS...]: tracebox's CPU seconds for the
# config vtrace config writes with those options.
tracebox_cpu() {
	[ $have_tb = 1 ] || { echo -; return; }
	"$vtrace" config -e $event --instance "$inst" -t "${secs}s" "$@" \
		> "$work/tb.cfg"
	tb_top_save "$work/top.before"
	perf stat -x, -e task-clock -o "$work/perf" -- "$TB" -c "$work/tb.cfg" \
		--txt -o "$work/t.pftrace" > "$work/tb.log" 2>&1 ||
		{ tail "$work/tb.log" >&2; exit 1; }
	tb_top_restore "$work/top.before"
	cpu_of "$work/perf"
}

# row NAME BASE_V V BASE_T T: the extra CPU per second of each recorder.
row() {
	awk -v n="$1" -v bv="$2" -v v="$3" -v bt="$4" -v t="$5" -v s="$secs" 'BEGIN {
		dv = (v - bv) * 1000 / s
		if (t == "-") { printf "| %-22s | %11.2f | %13s | %6s |\n", n, dv, "-", "-"; exit }
		dt = (t - bt) * 1000 / s
		printf "| %-22s | %11.2f | %13.2f | %6s |\n", n, dv, dt,
			(dt > 0 ? sprintf("%.2fx", dv / dt) : "-") }'
}

mkdir "$idir"
base_v=$(vtrace_cpu)
base_t=$(tracebox_cpu)
rows=()
for period in 100ms 10ms; do
	v=$(vtrace_cpu --poll "$kinds:$period" --process-tree)
	t=$(tracebox_cpu --poll "$kinds:$period" --process-tree)
	rows+=("$(row "all sys_stats, $period" "$base_v" "$v" "$base_t" "$t")")
done

echo "host: $(uname -sr), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "data sources: linux.sys_stats ($kinds), linux.process_stats (scan at start); ${secs}s; thermal zones: $(ls -d /sys/class/thermal/thermal_zone* 2> /dev/null | wc -l), devfreq devices: $(ls /sys/class/devfreq 2> /dev/null | wc -l)"
echo "baseline (no data sources): vtrace ${base_v}s CPU, tracebox ${base_t}s CPU"
echo
echo "| polling (CPU ms/s)     | vtrace      | tracebox      | ratio  |"
echo "|------------------------|-------------|---------------|--------|"
printf '%s\n' "${rows[@]}"
