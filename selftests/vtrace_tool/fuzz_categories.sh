#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fuzz_categories.sh FUZZER CORPUS SECONDS - run the parser's libFuzzer
# target over the seed corpus, then for a bounded time, and print KTAP.
# New inputs go to a scratch copy: the committed corpus stays as it is.

fuzzer=$1
corpus=$2
seconds=${3:-30}

. "$(dirname "$0")/../kselftest/ktap_helpers.sh"

work=$(mktemp -d /tmp/vtrace-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp "$corpus"/* "$work/corpus/"

ktap_print_header
ktap_set_plan 2

if "$fuzzer" -runs=0 "$work/corpus" >"$work/seed.log" 2>&1; then
	ktap_test_pass "fuzz_categories_seed_corpus ($(ls "$corpus" | wc -l) inputs)"
else
	sed 's/^/# /' "$work/seed.log" | tail -40
	ktap_test_fail "fuzz_categories_seed_corpus"
fi

if "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-max_len=65536 -print_final_stats=1 -artifact_prefix="$work/" \
	"$work/corpus" >"$work/fuzz.log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
	ktap_print_msg "$runs inputs in ${seconds}s, corpus $(ls "$work/corpus" | wc -l) files"
	ktap_test_pass "fuzz_categories_${seconds}s"
else
	sed 's/^/# /' "$work/fuzz.log" | tail -60
	for crash in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
		[ -f "$crash" ] || continue
		ktap_print_msg "reproducer $(basename "$crash"): $(od -An -c "$crash" | head -5 | tr -s ' ')"
	done
	ktap_test_fail "fuzz_categories_${seconds}s"
fi

ktap_finished
