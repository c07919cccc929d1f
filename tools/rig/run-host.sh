#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-host.sh [tracefs | static] - the host's part of the suite, in two
# parts that can run apart:
#   tracefs  every selftests/ directory on this machine's own kernel and
#            tracefs (tests that need vtrace.ko skip here: the host kernel
#            cannot load modules), the helper's unit tests under ASan/UBSan
#            and the Debian packages (check-packages.sh);
#   static   what reads no tracefs and times nothing: lint.sh (checkpatch
#            on one CPU) and a bounded libFuzzer run, one thing at a time,
#            so check.sh runs it beside a guest.
# With no argument, both.  Each part's output is framed exactly like a guest
# console, so console-check.sh judges both the same way.

set -uo pipefail

# Called from "make check", the makes below would see MAKELEVEL > 0, and
# kselftest's lib.mk then leaves OUTPUT empty and builds the tests into /.
unset MAKELEVEL MAKEFLAGS MFLAGS

rig=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$rig/../.." && pwd)

part=${1:-}
case "$part" in
"")
	rc=0
	"$0" tracefs || rc=1
	"$0" static || rc=1
	exit $rc
	;;
tracefs) label=host ;;
static) label=host-static ;;
*) echo "usage: run-host.sh [tracefs | static]" >&2; exit 2 ;;
esac
work="$top/.cache/rig/$label"
log="$work/console.log"
mkdir -p "$work"

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

# The report fuzzer runs a fixed number of inputs from a fixed seed here, so
# that a result is reproducible (see fuzz_report.sh).
run_static() {
	echo "### vtrace-guest $(uname -r) $(uname -m) cpus=$(nproc) mode=host-static"
	frame rig:lint env VTRACE_LINT_JOBS=1 "$rig/lint.sh"
	frame vtrace_tool:fuzz env FUZZ_RUNS=8000 \
		make -s -C "$top/selftests/vtrace_tool" fuzz
	echo "### vtrace-done"
}

run_tracefs() {
	# What check-packages.sh leaves for the 6.12 guest is this run's or none.
	rm -rf "$top/.cache/rig/dkms"
	if [ ! -e /sys/kernel/tracing/trace ]; then
		mount -t tracefs nodev /sys/kernel/tracing ||
			echo "run-host: cannot mount tracefs" >&2
	fi
	echo "### vtrace-guest $(uname -r) $(uname -m) cpus=$(nproc) mode=host"
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
	# The helper's unit tests under ASan/UBSan.
	frame vtrace_tool:sanitize make -s -C "$top/selftests/vtrace_tool" sanitize
	# Last: it installs and purges packages on this machine.
	frame rig:packages "$rig/check-packages.sh"
	echo "### vtrace-done"
}

"run_$part" | tee "$log" >/dev/null
"$rig/console-check.sh" "$label" "$log"
