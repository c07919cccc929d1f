#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the rig's initramfs.  Mounts what the tests need, loads vtrace.ko,
# runs every listed kselftest (or the demo, or the burst benchmark) and
# powers off.  Every line the
# host parses is framed by "### vtrace-" markers; test output is KTAP.

export PATH=/bin:/sbin:/usr/bin
export VTRACE_KO=/vtrace/vtrace.ko
export VTRACE_DEBUG_KO=/vtrace/debug/vtrace.ko
export VTRACE_BIN=/vtrace/bin/vtrace
export VTRACE_OUT=/vtrace/out

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
# Absent under debugfs=off (the no_debugfs boot).
[ -d /sys/kernel/debug ] && mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mkdir -p "$VTRACE_OUT"

mode=tests
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	vtrace.mode=*) mode=${arg#vtrace.mode=} ;;
	esac
done

# Start on a fresh line: firmware leaves escape sequences on the console.
echo
echo "### vtrace-guest $(uname -r) $(uname -m) cpus=$(nproc) mode=$mode"

run_demo() {
	cats="-f /vtrace/examples/exynos-mali.txt"
	insmod "$VTRACE_KO" sim_autostart=1 sim_period_ms=50 || return
	echo "### vtrace-demo: vtrace enable gfx thermal_tj"
	$VTRACE_BIN enable $cats gfx thermal_tj || return
	$VTRACE_BIN status $cats
	echo "### vtrace-demo: the simulator's events from trace_pipe, for 10 s"
	timeout 10 cat /sys/kernel/tracing/trace_pipe
	$VTRACE_BIN disable $cats gfx thermal_tj
	rmmod vtrace
}

run_tests() {
	if ! insmod "$VTRACE_KO"; then
		echo "### vtrace-error insmod $VTRACE_KO failed"
		return
	fi
	echo "### vtrace-module sha256=$(sha256sum <"$VTRACE_KO" | cut -d' ' -f1)"
	while read -r entry timeout_s; do
		dir=${entry%%:*}
		prog=${entry#*:}
		echo "### vtrace-test BEGIN $entry"
		start=$(date +%s)
		if [ "$timeout_s" = skip ]; then
			echo "TAP version 13"
			echo "1..0 # SKIP left to the x86_64 guests and the host on $(uname -m) (tools/rig/run-guest.sh)"
			rc=4
		else
			(cd "/vtrace/selftests/$dir" && timeout "$timeout_s" "./$prog")
			rc=$?
		fi
		echo "### vtrace-test END $entry rc=$rc s=$(($(date +%s) - start))"
	done < /vtrace/tests.list
	# Whatever a test left for the host to check (trace files...).
	for f in "$VTRACE_OUT"/*; do
		[ -f "$f" ] || continue
		echo "### vtrace-artifact BEGIN ${f##*/}"
		base64 "$f"
		echo "### vtrace-artifact END"
	done
	echo "### vtrace-dmesg BEGIN"
	dmesg
	echo "### vtrace-dmesg END"
}

# The debugfs=off boot: one test, which loads the module itself.
run_no_debugfs() {
	entry=vtrace:no_debugfs
	echo "### vtrace-test BEGIN $entry"
	start=$(date +%s)
	(cd /vtrace/selftests/vtrace && timeout 120 ./no_debugfs)
	rc=$?
	echo "### vtrace-test END $entry rc=$rc s=$(($(date +%s) - start))"
	echo "### vtrace-dmesg BEGIN"
	dmesg
	echo "### vtrace-dmesg END"
}

run_bench() {
	insmod "$VTRACE_KO" || return
	echo "### vtrace-bench BEGIN"
	sh /vtrace/bench/guest-burst-bench.sh
	echo "### vtrace-bench END"
	rmmod vtrace
}

case "$mode" in
demo) run_demo ;;
bench) run_bench ;;
no_debugfs) run_no_debugfs ;;
*) run_tests ;;
esac

echo "### vtrace-done"
# Keep init alive until poweroff completes: if it exits first, the kernel
# panics with "Attempted to kill init".
poweroff -f
sleep 10
