#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench_categories.sh BENCH VTRACE - category file parsing benchmark.
#
# Generates a 100,000-line category file (2,000 blocks of a category line and
# 49 events; 1,000 distinct categories, each named twice) and times, side by
# side in one run:
#   - vtrace_catmap_parse() in process (bench_categories, min/median of 20)
#   - vtrace check on the file, the whole process (min/median of 10)
#   - a reference reader in awk that builds the same category -> events map
#     by the rules Perfetto applies (no validation, no duplicate removal)
# and prints a table with ms and lines/s. Target: parse under 50 ms.

bench=$1
vtrace=$2
runs=10

work=$(mktemp -d /tmp/vtrace-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
file="$work/categories.txt"

awk 'BEGIN {
	for (b = 0; b < 2000; b++) {
		printf "category_%d\n", b % 1000
		for (e = 0; e < 49; e++)
			printf " group_%d/event_%d_%d\n", b % 97, b, e
	}
}' >"$file"

ms_now() { date +%s%N | awk '{ printf "%.3f", $1 / 1e6 }'; }

# time_runs CMD... - min and median wall ms of $runs runs.
time_runs()
{
	: >"$work/times"
	i=0
	while [ $i -lt $runs ]; do
		t0=$(ms_now)
		"$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
		t1=$(ms_now)
		echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }' >>"$work/times"
		i=$((i + 1))
	done
	sort -n "$work/times" | awk '{ v[NR] = $1 } END { printf "%s %s", v[1], v[int(NR / 2) + 1] }'
}

awk_reader()
{
	awk '
	/^[ \t]/ {
		if (cat == "") { print "event before category" > "/dev/stderr"; exit 1 }
		sub(/^[ \t]+/, "")
		if ($0 == "") next
		if (index($0, "/") == 0) { print "not group/event" > "/dev/stderr"; exit 1 }
		events[cat] = events[cat] " " $0
		n++
		next
	}
	/./ { cat = $0; cats[cat] = 1 }
	END { for (c in cats) k++; print k, n }' "$1"
}

set -- $("$bench" "$file" 20) || exit 1
lines=$1 bytes=$2 cats=$3 events=$4 parse_min=$5 parse_med=$6 parse_cpu=$7
check=$(time_runs "$vtrace" check "$file")
ref=$(time_runs awk_reader "$file")

rate() { echo "$1 $2" | awk '{ printf "%.1fM", $1 / ($2 / 1e3) / 1e6 }'; }

cpu=$(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo | head -1)
echo "# category parser benchmark: $lines lines, $bytes bytes, $cats categories, $events events"
echo "# $(uname -sr) $(uname -m), $(nproc) CPUs, ${cpu:-unknown CPU}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-46s %10s %10s %12s\n' "reader" "min ms" "median ms" "lines/s"
printf '%-46s %10s %10s %12s\n' "vtrace_catmap_parse (in process)" \
	"$parse_min" "$parse_med" "$(rate "$lines" "$parse_min")"
set -- $check
printf '%-46s %10s %10s %12s\n' "vtrace check (whole process)" \
	"$1" "$2" "$(rate "$lines" "$1")"
check_min=$1
set -- $ref
printf '%-46s %10s %10s %12s\n' "awk reference reader (whole process)" \
	"$1" "$2" "$(rate "$lines" "$1")"
echo "# in-process parse CPU time: min $parse_cpu ms"
echo "$1 $check_min $parse_min" | awk '{ printf "# awk / vtrace check: %.2fx; target parse < 50 ms: %s\n", $1 / $2, $3 < 50 ? "met" : "MISSED" }'
