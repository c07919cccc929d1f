#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# net-bench.sh - streaming to "trace-cmd listen": vtrace record -N against
# trace-cmd record -N (both over TCP data connections), to the same
# listener, on the same load, in one run; prints one table.
#
#   tools/bench/net-bench.sh [-r "RATE..."] [-t SECONDS] [-b BUFFER_KB]
#
# RATE 0: as fast as the load goes (about 1M calls/s per CPU), where the
# clients start to lose events.
#
# Load: record-bench.sh's, raw_syscalls/sys_enter + sys_exit filtered on
# getppid while syscall-storm calls it at RATE per CPU; 'offered' is twice
# the calls made. 'received' is what trace-cmd report reads in the
# listener's file; 'lost' is offered - received. CPU is the user+sys time
# of the client's own process tree (GNU time around the client only), per
# MB of the listener's file. Everything runs in a private network
# namespace (the listener binds every interface: loopback only), trace-cmd
# record in a private mount namespace too (shared NOTES.md). Needs root.
set -euo pipefail
trap 'echo "net-bench: line $LINENO: exit status $?" >&2' ERR

if [ -z "${VTRACE_NET_NS:-}" ]; then
	VTRACE_NET_NS=1 exec unshare -n bash -c 'ip link set lo up && exec bash "$0" "$@"' "$0" "$@"
fi

top=$(cd "$(dirname "$0")/../.." && pwd)
vtrace=${VTRACE_BIN:-$top/tools/vtrace/vtrace}
rates="100000 400000 0"
secs=3
buf_kb=4096
while getopts r:t:b: opt; do
	case $opt in
	r) rates=$OPTARG ;;
	t) secs=$OPTARG ;;
	b) buf_kb=$OPTARG ;;
	*) echo "usage: $0 [-r \"RATE...\"] [-t SECONDS] [-b BUFFER_KB]" >&2; exit 2 ;;
	esac
done

lpid=
cleanup() {
	[ -z "$lpid" ] || kill -KILL -- -"$lpid" 2>/dev/null || true
	for d in "$idir" "$idir"_tc; do
		bench_drop_instance "$d"
	done
	[ -n "${NET_BENCH_KEEP:-}" ] || rm -rf "$work"
}
. "$top/tools/bench/bench-common.sh"
bench_setup net-bench
port=19000

# listen DIR - a fresh listener on a new port.
listen() {
	port=$((port + 1))
	mkdir -p "$1"
	setsid trace-cmd listen -p "$port" -d "$1" > "$1.log" 2>&1 &
	lpid=$!
	until ss -Hltn "sport = :$port" | grep -q .; do sleep 0.1; done
}

# received DIR: events in the listener's file, and its size.
received() {
	local f
	f=$(ls "$1"/trace.*.dat)
	echo "$(trace-cmd report "$f" 2>/dev/null | grep -c 'sys_e[nx]' || true) $(stat -c %s "$f")"
}

unlisten() {
	kill -KILL -- -"$lpid" 2>/dev/null || true
	wait "$lpid" 2>/dev/null || true
	lpid=
}

# row NAME RATE OFFERED RECEIVED BYTES USER SYS
row() {
	awk -v n="$1" -v r="$2" -v o="$3" -v g="$4" -v b="$5" -v u="$6" -v s="$7" -v t="$secs" 'BEGIN {
		mb = b / 1e6; cpu = u + s
		printf "| %-19s | %8d | %10d | %10d | %8d | %10.0f | %7.1f | %6.2f | %9.1f |\n",
			n, r, o, g, o - g, g / t, mb, cpu, (mb > 0 ? cpu * 1000 / mb : 0) }'
}

results=()
for rate in $rates; do
	# vtrace: its own instance, the same filter and buffer size.
	bench_instance "$idir"
	listen "$work/v$rate"
	/usr/bin/time -f '%U %S' -o "$work/time" \
		"$vtrace" record --instance "$inst" -e raw_syscalls/sys_enter \
		-e raw_syscalls/sys_exit -b "$buf_kb" -N "127.0.0.1:$port" --tcp \
		--json > "$work/json" 2> "$work/err" &
	wrapper=$!
	sleep 1
	calls=$("$work/storm" -r "$rate" -t "$secs")
	pkill -INT -P $wrapper
	wait $wrapper || { cat "$work/err" >&2; exit 1; }
	read -r got bytes <<< "$(received "$work/v$rate")"
	read -r u s < "$work/time"
	results+=("$(row "vtrace record -N" "$rate" $((calls * 2)) "$got" "$bytes" "$u" "$s")")
	unlisten
	bench_drop_instance "$idir"

	# trace-cmd 3.1.6: -t for TCP data connections, v6 uncompressed as vtrace
	# sends; its own instance.
	tc_inst=${inst}_tc
	tc_dir=$tracefs/instances/$tc_inst
	mkdir "$tc_dir"
	listen "$work/t$rate"
	setsid unshare -m "$top/tools/bench/tracecmd-ns.sh" "$work" "$tc_dir" \
		/usr/bin/time -f "%U %S" -o "$work/time" trace-cmd record -q \
		-B "$tc_inst" -b "$buf_kb" \
		-e raw_syscalls:sys_enter -f "$filter" \
		-e raw_syscalls:sys_exit -f "$filter" \
		--file-version 6 --compression none \
		-N "127.0.0.1:$port" -t > "$work/tc.log" 2>&1 &
	tc=$!
	until [ "$(cat "$tc_dir/events/raw_syscalls/sys_exit/enable" 2>/dev/null)" = 1 ]; do
		kill -0 $tc 2>/dev/null || { cat "$work/tc.log" >&2; exit 1; }
		sleep 0.1
	done
	sleep 1
	calls=$("$work/storm" -r "$rate" -t "$secs")
	kill -INT -- -$tc
	wait $tc || { cat "$work/tc.log" >&2; exit 1; }
	# Its session ends with CLOSE; the listener writes the file ~2 s later.
	n=0
	until grep -q "CPU$((ncpus - 1)) data recorded" "$work/t$rate.log" || [ $n -ge 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	# (The log line comes before the data is copied in.)
	sleep 2
	read -r got bytes <<< "$(received "$work/t$rate")"
	read -r u s < "$work/time"
	results+=("$(row "trace-cmd record -N" "$rate" $((calls * 2)) "$got" "$bytes" "$u" "$s")")
	unlisten
	[ ! -d "$tc_dir" ] || rmdir "$tc_dir"
done

echo "host: $(uname -sr), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load: raw_syscalls (filter '$filter'), getppid at RATE/s per CPU for ${secs}s on $ncpus CPUs; ${buf_kb} KB buffer per CPU; TCP data connections on loopback"
echo
echo "| client              | rate/CPU |    offered |   received |     lost | received/s |      MB | CPU s  | CPU ms/MB |"
echo "|---------------------|----------|------------|------------|----------|------------|---------|--------|-----------|"
printf '%s\n' "${results[@]}"
echo
printf '%s\n' "${results[@]}" | awk -F'|' '
	{ name = $2; gsub(/^ +| +$/, "", name); rate = $3 + 0
	  per_mb[name, rate] = $8 > 0 ? $9 / $8 : 0; rates[rate] = 1 }
	END {
		for (r in rates)
			if (per_mb["trace-cmd record -N", r] > 0)
				printf "rate %d: vtrace CPU per MB %.2fx trace-cmd record -N\n",
					r, per_mb["vtrace record -N", r] / per_mb["trace-cmd record -N", r]
	}'
