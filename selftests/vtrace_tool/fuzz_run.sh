#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fuzz_run.sh FUZZER CORPUS SECONDS - run one libFuzzer target (the
# Makefile's FUZZ_TARGETS: the category parser, the slice builder, the
# dmtrace reader, the TraceConfig readers) over its seed corpus, then a
# bounded run, and print KTAP. With FUZZ_RUNS=N (make check) the bounded
# run is N inputs from seed 1, so that a result means the same every time;
# otherwise SECONDS.
# New inputs go to a scratch copy: the committed corpus stays as it is.

fuzzer=$1
corpus=$2
seconds=${3:-30}
name=$(basename "$fuzzer")

. "$(dirname "$0")/../kselftest/ktap_helpers.sh"

work=$(mktemp -d /tmp/vtrace-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp "$corpus"/* "$work/corpus/"

ktap_print_header
ktap_set_plan 2

if "$fuzzer" -runs=0 -artifact_prefix="$work/" "$work/corpus" > "$work/seed.log" 2>&1; then
	ktap_test_pass "${name}_seed_corpus ($(ls "$corpus" | wc -l) inputs)"
else
	sed 's/^/# /' "$work/seed.log" | tail -40
	ktap_test_fail "${name}_seed_corpus"
fi

if [ -n "${FUZZ_RUNS:-}" ]; then
	bound="-seed=1 -runs=$FUZZ_RUNS"
	run="${name}_${FUZZ_RUNS}_runs_seed_1"
else
	bound="-max_total_time=$seconds"
	run="${name}_${seconds}s"
fi
# shellcheck disable=SC2086
if "$fuzzer" $bound -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" \
	> "$work/fuzz.log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
	ktap_print_msg "$runs inputs, corpus $(ls "$work/corpus" | wc -l) files"
	ktap_test_pass "$run"
else
	grep -m1 -A16 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|deadly signal' \
		"$work/fuzz.log" | sed 's/^/# /'
	for crash in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
		[ -f "$crash" ] || continue
		ktap_print_msg "reproducer $(basename "$crash") (base64): $(head -c 512 "$crash" | base64 -w0)"
	done
	ktap_test_fail "$run"
fi

ktap_finished
