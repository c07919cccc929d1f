#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build fuzz_report (clang, libFuzzer, ASan, UBSan) and run it for a bounded
# time on a seed corpus: a real trace.dat of sched_switch and marker events
# written by tracedat_capture on the host's tracefs, with its kallsyms
# section blanked to keep the seed small (the fuzzer mutates the rest).
#
#   fuzz_report.sh [SECONDS]   (default 60; needs root and tracefs for the
#                               seed, which is kept in $FUZZ_DIR/corpus)
#   FUZZ_RUNS=N fuzz_report.sh  (N inputs from seed 1: reproducible)
#   FUZZ_V7_RUNS=N, FUZZ_V7_SECONDS=S  (the version 7 run's own bound)
#
# Prints KTAP: first the replay of the committed inputs that once
# crashed it (fuzz-report-corpus/, also mutated from), then the bounded
# run, then one from the version 7 inputs of fuzz-report-corpus/ alone
# (trace-cmd 3.x's default). On a failure the sanitizer's report is shown
# from its ERROR line and first frames, which name the crashing function,
# then the log's tail. A failed huge malloc is not a finding: libtracecmd then fails
# cleanly, so the allocator returns NULL instead of aborting.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
seconds=${1:-60}
out=${FUZZ_DIR:-$top/.cache/fuzz-report}
lib=$top/tools/lib/vtrace
cli=$top/tools/vtrace
inst=vtrace_fuzz_$$
mkdir -p "$out/corpus"

pkgs="libtracecmd libtracefs libtraceevent libzstd"
san="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined"
# shellcheck disable=SC2046
inc="-I$lib/include -iquote $lib -I$top/tools/lib/atrace/include -DVTRACE_HAVE_TRACECMD"
# shellcheck disable=SC2046,SC2086
clang $san -fsanitize=fuzzer -D_GNU_SOURCE $inc -I"$cli" \
	$(pkg-config --cflags $pkgs) -o "$out/fuzz_report" \
	"$here/fuzz_report.c" "$cli/cmd-report.c" "$cli/cli.c" \
	"$cli/report-dmtrace.c" "$cli/report-perfetto.c" "$cli/slices-load.c" \
	$(find "$lib" -name '*.c' | sort) $(pkg-config --libs $pkgs)
# shellcheck disable=SC2046,SC2086
clang $san -D_GNU_SOURCE $inc $(pkg-config --cflags libtracefs) \
	-o "$out/tracedat_capture" "$here/tracedat_capture.c" \
	"$lib/sinks/tracedat/tracedat-writer.c" \
	"$lib/sinks/tracedat/tracedat-meta.c" \
	"$lib/sinks/tracedat/tracedat-cpu-data.c" "$lib/base/file-io.c" \
	"$lib/base/output-file.c" \
	$(pkg-config --libs libtracefs libtraceevent)

if [ ! -s "$out/corpus/seed.dat" ]; then
	t=/sys/kernel/tracing/instances/$inst
	mkdir "$t"
	trap 'rmdir "$t"' EXIT
	echo 1 > "$t/events/sched/sched_switch/enable"
	echo 1 > "$t/tracing_on"
	for i in $(seq 1 40); do echo "vtrace-fuzz $i" > "$t/trace_marker"; done
	sleep 0.05
	echo 0 > "$t/tracing_on"
	"$out/tracedat_capture" -o "$out/full.dat" -i "$inst" \
		-e sched/sched_switch > /dev/null
	python3 - "$out/full.dat" "$out/corpus/seed.dat" <<'EOF'
# Blank the kallsyms section, keeping the CPU data page aligned: walk the
# v6 sections (trace-cmd.dat.v6(5)) and shift the flyrecord offsets.
import struct, sys
d = open(sys.argv[1], "rb").read()
u32 = lambda p: struct.unpack_from("<I", d, p)[0]
u64 = lambda p: struct.unpack_from("<Q", d, p)[0]
p = d.index(b"\0", 10) + 1 + 2
page = u32(p); p += 4
for tag in (b"header_page\0", b"header_event\0"):
	p += len(tag); p += 8 + u64(p)
n = u32(p); p += 4
for _ in range(n): p += 8 + u64(p)
n = u32(p); p += 4
for _ in range(n):
	p = d.index(b"\0", p) + 1
	m = u32(p); p += 4
	for _ in range(m): p += 8 + u64(p)
ksyms = p
ksize = u32(p); p += 4 + ksize
p += 4 + u32(p)			# printk formats
p += 8 + u64(p)			# saved cmdlines
cpus = u32(p)
fly = d.index(b"flyrecord\0", p) + 10
cut = ksize // page * page
out = bytearray(d[:ksyms] + struct.pack("<I", ksize - cut) +
		b"\n" * (ksize - cut) + d[ksyms + 4 + ksize:])
fly -= cut
for cpu in range(cpus):
	off = struct.unpack_from("<Q", out, fly + 16 * cpu)[0]
	struct.pack_into("<Q", out, fly + 16 * cpu, off - cut)
open(sys.argv[2], "wb").write(out)
EOF
fi

# The top of a sanitizer or libFuzzer report in libFuzzer's log $1 (the
# ERROR line and the frames under it), then the log's tail, as comments.
show_failure() {
	grep -m1 -A16 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$1" |
		sed 's/^/# /'
	ktap_print_msg "the log's end:"
	tail -20 "$1" | sed 's/^/# /'
}

cd "$out"
. "$here/../kselftest/ktap_helpers.sh"
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
regressions=$here/fuzz-report-corpus
ktap_print_header
ktap_set_plan 3
if ./fuzz_report -timeout=20 -rss_limit_mb=4096 -close_fd_mask=3 \
	"$regressions"/* > replay.log 2>&1; then
	ktap_test_pass "fuzz_report_regressions ($(ls "$regressions" | wc -l) inputs)"
else
	show_failure replay.log
	ktap_test_fail "fuzz_report_regressions"
fi
# fuzz NAME LOG BOUND DIRS... - one bounded run of libFuzzer from DIRS
# (new inputs go to the first), one KTAP result.
fuzz() {
	f_name=$1
	f_log=$2
	f_bound=$3
	shift 3
	# shellcheck disable=SC2086
	if ./fuzz_report $f_bound -timeout=20 -rss_limit_mb=4096 \
		-max_len=262144 -close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$out/" "$@" > "$f_log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$f_log")
		ktap_print_msg "$runs inputs, corpus $(ls "$1" | wc -l) files"
		ktap_test_pass "$f_name"
	else
		show_failure "$f_log"
		ktap_test_fail "$f_name"
	fi
}

# With FUZZ_RUNS (make check sets it), a reproducible run instead: a fixed
# number of inputs from a fixed seed, mutated from the committed inputs only
# (not from this host's capture), so a CI result means the same every time;
# a time-bounded run explores further from the host's own seed.
if [ -n "${FUZZ_RUNS:-}" ]; then
	rm -rf corpus-fixed
	cp -r "$regressions" corpus-fixed
	fuzz "fuzz_report_${FUZZ_RUNS}_runs_seed_1" fuzz.log \
		"-seed=1 -runs=$FUZZ_RUNS" corpus-fixed
else
	fuzz "fuzz_report_${seconds}s" fuzz.log "-max_total_time=$seconds" \
		corpus "$regressions"
fi
# Then from the version 7 inputs alone (trace-cmd 3.x's default format,
# checked by tracedat-check-v7.c, uncompressed and zstd), a quarter of the
# runs or half the time unless FUZZ_V7_RUNS or FUZZ_V7_SECONDS say.
rm -rf corpus-v7
mkdir corpus-v7
cp "$regressions"/v7-* corpus-v7/
if [ -n "${FUZZ_V7_RUNS:-${FUZZ_RUNS:-}}" ]; then
	v7_runs=${FUZZ_V7_RUNS:-$((FUZZ_RUNS / 4))}
	fuzz "fuzz_report_v7_${v7_runs}_runs_seed_1" fuzz-v7.log \
		"-seed=1 -runs=$v7_runs" corpus-v7
else
	v7_seconds=${FUZZ_V7_SECONDS:-$(((seconds + 1) / 2))}
	fuzz "fuzz_report_v7_${v7_seconds}s" fuzz-v7.log \
		"-max_total_time=$v7_seconds" corpus-v7
fi
ktap_finished
