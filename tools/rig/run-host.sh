#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-host.sh - run every selftests/ directory on this machine's own kernel
# and tracefs (tests that need vtrace.ko skip here: the host kernel cannot
# load modules), plus the host-only checks: the helper's unit tests under
# ASan/UBSan, a bounded libFuzzer run and the Debian packages
# (check-packages.sh).  The output is framed exactly like a
# guest console, so console-check.sh judges both the same way.

set -uo pipefail

# Called from "make check", the makes below would see MAKELEVEL > 0, and
# kselftest's lib.mk then leaves OUTPUT empty and builds the tests into /.
unset MAKELEVEL MAKEFLAGS MFLAGS

rig=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$rig/../.." && pwd)
work="$top/.cache/rig/host"
log="$work/console.log"
mkdir -p "$work"
# What check-packages.sh leaves for the 6.12 guest is this run's or none.
rm -rf "$top/.cache/rig/dkms"

tracefs=/sys/kernel/tracing
if [ ! -e "$tracefs/trace" ]; then
	mount -t tracefs nodev "$tracefs" || echo "run-host: cannot mount tracefs" >&2
fi

# frame NAME CMD... - run one KTAP-printing command as a test.
frame() {
	local name=$1 start rc
	shift
	echo "### vtrace-test BEGIN $name"
	start=$SECONDS
	"$@" 2>&1
	rc=$?
	echo "### vtrace-test END $name rc=$rc s=$((SECONDS - start))"
}

{
	echo "### vtrace-guest $(uname -r) $(uname -m) cpus=$(nproc) mode=host"
	frame rig:lint "$rig/lint.sh"
	make -s -C "$top/tools/vtrace" >"$work/build.log" 2>&1 ||
		echo "### vtrace-error building tools/vtrace failed (see $work/build.log)"
	for mk in "$top"/selftests/*/Makefile; do
		dir=$(dirname "$mk")
		name=$(basename "$dir")
		if ! make -s -C "$dir" >>"$work/build.log" 2>&1; then
			echo "### vtrace-error building selftests/$name failed (see $work/build.log)"
			continue
		fi
		timeout_s=45
		[ -f "$dir/settings" ] && timeout_s=$(sed -n 's/^timeout=//p' "$dir/settings")
		for entry in $(make -s -C "$dir" emit_tests); do
			prog=${entry#*:}
			frame "$name:$prog" sh -c "cd '$dir' && timeout $timeout_s ./$prog"
		done
	done
	# Host-only checks of the helper (targets of selftests/vtrace_tool).
	# The report fuzzer runs a fixed number of inputs from a fixed seed
	# here, so that a result is reproducible (see fuzz_report.sh).
	for check in sanitize fuzz; do
		if make -s -C "$top/selftests/vtrace_tool" -n "$check" >/dev/null 2>&1; then
			frame "vtrace_tool:$check" env FUZZ_RUNS=8000 \
				make -s -C "$top/selftests/vtrace_tool" "$check"
		fi
	done
	# Last: it installs and purges packages on this machine.
	frame rig:packages "$rig/check-packages.sh"
	echo "### vtrace-done"
} | tee "$log" >/dev/null

"$rig/console-check.sh" host "$log"
