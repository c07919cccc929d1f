#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vtrace record / vtrace stop on this kernel's tracefs: every reader path
# brings out every event, the drain leaves the buffer empty, settings come
# back, and each fault ends with the documented status, message and file.
# With vtrace.ko loaded (the guests): the burst generator's events are all
# recorded, exactly, and a module unloaded mid-record leaves a valid file.
#
# Needs root and tracefs. $VTRACE_BIN is the helper (default: the tree's).

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../kselftest/ktap_helpers.sh"

vtrace=${VTRACE_BIN:-$here/../../tools/vtrace/vtrace}
tracefs=/sys/kernel/tracing
work=$(mktemp -d /tmp/vtrace-record-test.XXXXXX)
inst=vtrace_rec_test_$$
idir=$tracefs/instances/$inst
export VTRACE_STATE_DIR=$work/state

cleanup() {
	[ -d "$idir" ] && { echo 0 > "$idir/events/enable"; rmdir "$idir"; }
	mountpoint -q "$work/small" && umount "$work/small"
	rm -rf "$work"
}
trap cleanup EXIT

if [ "$(id -u)" != 0 ]; then
	ktap_skip_all "needs root"
	exit "$KSFT_SKIP"
fi
[ -d $tracefs/events ] || mount -t tracefs nodev $tracefs 2>/dev/null
if [ ! -d $tracefs/events ]; then
	ktap_skip_all "no tracefs"
	exit "$KSFT_SKIP"
fi
have_mmap=0
[ "$(uname -r | awk -F. '{ print ($1 * 100 + $2 >= 610) }')" = 1 ] && have_mmap=1
have_report=0
command -v trace-cmd > /dev/null && have_report=1
have_module=0
[ -d $tracefs/events/mali ] && have_module=1

ktap_print_header
ktap_set_plan 14

# json_field JSON KEY: the first top-level number KEY of a summary.
json_field() {
	sed "s/\"cpus\".*//; s/.*\"$2\":\([0-9]*\).*/\1/" <<< "$1"
}

# markers_in FILE: how many of our trace_marker lines trace-cmd reads back.
markers_in() {
	trace-cmd report "$1" 2>/dev/null | grep -c 'vtrace-marker-[0-9]'
}

settings_of() {
	cat "$1/buffer_size_kb" "$1/trace_clock" "$1/tracing_on" \
		"$1/buffer_percent" "$1/set_event"
}

# record_markers PATH N: record an existing instance while N markers are
# written to it; leaves the summary in $json and the status in $rc.
record_markers() {
	local path=$1 n=$2 pid
	"$vtrace" record --instance "$inst" -e sched/sched_process_exec \
		--reader "$path" -b 2048 -o "$work/m.dat" --json \
		> "$work/json" 2> "$work/err" &
	pid=$!
	while [ ! -s "$VTRACE_STATE_DIR/record-$inst.pid" ]; do sleep 0.05; done
	sleep 0.3
	# One write(2), so one marker event, per echo.
	for i in $(seq 1 "$n"); do echo "vtrace-marker-$i"; done > "$idir/trace_marker"
	"$vtrace" stop --instance "$inst" > /dev/null
	wait $pid
	rc=$?
	json=$(cat "$work/json")
}

mkdir "$idir"

# Each reader path, host tracefs: exact marker count, empty buffer after.
for path in mmap splice read; do
	name="record_${path}_gets_every_marker_and_drains"
	if [ $path = mmap ] && [ $have_mmap = 0 ]; then
		ktap_test_skip "$name (no ring-buffer mmap before 6.10)"
		continue
	fi
	before=$(settings_of "$idir")
	record_markers $path 5000
	left=$(cat "$idir"/per_cpu/cpu*/stats | awk '/^entries:/ { s += $2 } END { print s + 0 }')
	got=$(json_field "$json" events)
	ok=1
	[ $rc = 0 ] || ok=0
	grep -q "\"reader\":\"$path\"" <<< "$json" || ok=0
	[ "$left" = 0 ] || ok=0
	[ "$(json_field "$json" lost)" = 0 ] || ok=0
	[ "$got" -ge 5000 ] || ok=0
	if [ $have_report = 1 ]; then
		[ "$(markers_in "$work/m.dat")" = 5000 ] || ok=0
	fi
	[ "$(settings_of "$idir")" = "$before" ] || ok=0
	[ $ok = 1 ] || ktap_print_msg "rc=$rc left=$left json=$json $(cat "$work/err")"
	ktap_test_result "$name" [ $ok = 1 ]
done

# -v names the path taken; auto takes mmap where the kernel has it.
"$vtrace" record --instance "$inst" -e sched/sched_switch -t 300ms -v \
	-o "$work/v.dat" 2> "$work/err"
rc=$?
want=splice
[ $have_mmap = 1 ] && want=mmap
ktap_test_result "record_verbose_names_reader_$want" \
	grep -q "reader: $want on" "$work/err"

# Settings changed for the recording (-b, --clock) all come back.
before=$(settings_of "$idir")
"$vtrace" record --instance "$inst" -e sched/sched_switch -t 300ms \
	-b 1024 --clock global -o "$work/s.dat" 2> "$work/err"
rc=$?
ktap_test_result "record_restores_buffer_clock_percent_tracing_on_events" \
	[ $rc = 0 ] && [ "$(settings_of "$idir")" = "$before" ]

# Unknown event: status 1, message, no file, nothing enabled.
before=$(settings_of "$idir")
"$vtrace" record --instance "$inst" -e sched/sched_switch -e nosuch/event \
	-t 1s -o "$work/u.dat" 2> "$work/err"
rc=$?
ktap_test_result "record_unknown_event_fails_cleanly" \
	[ $rc = 1 ] && grep -q "unknown event 'nosuch/event'" "$work/err" &&
	[ ! -e "$work/u.dat" ] && [ "$(settings_of "$idir")" = "$before" ]

# Unwritable output: status 1, message, nothing left enabled.
"$vtrace" record --instance "$inst" -e sched/sched_switch -t 1s \
	-o /proc/vtrace-no-such-dir/x.dat 2> "$work/err"
rc=$?
ktap_test_result "record_unwritable_output_fails_cleanly" \
	[ $rc = 1 ] && grep -q "cannot create /proc/vtrace-no-such-dir/x.dat" "$work/err" &&
	[ "$(settings_of "$idir")" = "$before" ]

# Busy: a second recording of the same instance is refused.
"$vtrace" record --instance "$inst" -e sched/sched_switch --background \
	-o "$work/b.dat" > "$work/bgpid" 2> "$work/err"
rc=$?
"$vtrace" record --instance "$inst" -e sched/sched_switch -t 1s \
	-o "$work/b2.dat" 2> "$work/err2"
rc2=$?
"$vtrace" stop --instance "$inst" > "$work/stop" 2>&1
rc3=$?
valid=1
[ $have_report = 1 ] && { trace-cmd report "$work/b.dat" > /dev/null 2>&1 || valid=0; }
ktap_test_result "record_busy_refused_background_finishes_on_stop" \
	[ $rc = 0 ] && grep -qx '[0-9]*' "$work/bgpid" && [ $rc2 = 1 ] &&
	grep -q "tracefs is busy" "$work/err2" && [ ! -e "$work/b2.dat" ] &&
	[ $rc3 = 0 ] && grep -q "recorded [0-9]* events" "$work/stop" &&
	[ $valid = 1 ] && [ "$(settings_of "$idir")" = "$before" ]

# Disk full mid-record: status 1, message, a valid file with what was kept.
mkdir -p "$work/small"
mount -t tmpfs -o size=8m tmpfs "$work/small"
"$vtrace" record --instance "$inst" -e raw_syscalls/sys_enter \
	-e raw_syscalls/sys_exit -t 3s -o "$work/small/full.dat" --json \
	> "$work/json" 2> "$work/err" &
pid=$!
while kill -0 $pid 2> /dev/null; do cat /proc/self/stat > /dev/null; done
wait $pid
rc=$?
json=$(cat "$work/json")
valid=1
if [ $have_report = 1 ]; then
	n=$(trace-cmd report "$work/small/full.dat" 2>/dev/null | grep -c 'sys_e[nx]')
	[ "$n" = "$(json_field "$json" events)" ] || valid=0
fi
ktap_test_result "record_disk_full_keeps_a_valid_file" \
	[ $rc = 1 ] && grep -q "No space left on device" "$work/err" &&
	[ "$(json_field "$json" events)" -gt 0 ] && [ $valid = 1 ] &&
	[ "$(settings_of "$idir")" = "$before" ]
umount "$work/small"

# SIGKILL: the file says it is incomplete when read.
"$vtrace" record --instance "$inst" -e sched/sched_switch \
	-o "$work/k.dat" 2> /dev/null &
pid=$!
while [ ! -s "$VTRACE_STATE_DIR/record-$inst.pid" ]; do sleep 0.05; done
sleep 0.3
kill -KILL $pid
wait $pid 2> /dev/null
echo 0 > "$idir/events/enable"
echo 1 > "$idir/tracing_on"
"$vtrace" report "$work/k.dat" > /dev/null 2> "$work/err"
rc=$?
ktap_test_result "record_sigkill_report_says_incomplete" \
	[ $rc != 0 ] && grep -q "incomplete" "$work/err"

# tracefs not mounted: vtrace mounts it (private mount namespace).
unshare -m sh -c "umount $tracefs 2>/dev/null; umount -l $tracefs 2>/dev/null;
	'$vtrace' record -e sched/sched_switch -t 300ms -o '$work/n.dat'" \
	2> "$work/err"
rc=$?
ktap_test_result "record_mounts_tracefs_when_unmounted" [ $rc = 0 ]

# With vtrace.ko (guests): every burst event is recorded, exactly.
if [ $have_module = 0 ]; then
	ktap_test_skip "record_burst_every_event_exact (vtrace.ko not loaded)"
else
	burst=/sys/kernel/debug/vtrace/burst
	"$vtrace" record --instance "$inst" -e mali/mali_pm_status -b 16384 \
		--background --json -o "$work/burst.dat" > /dev/null 2> "$work/err"
	echo 20000 > $burst/start
	while grep -q 'state: running' $burst/status; do sleep 0.1; done
	emitted=$(awk '/^emitted:/ { print $2 }' $burst/status)
	"$vtrace" stop --instance "$inst" > "$work/stop"
	json=$(grep '^{' "$work/stop")
	ktap_test_result "record_burst_every_event_exact" \
		[ "$(json_field "$json" events)" = "$emitted" ] &&
		[ "$(json_field "$json" lost)" = 0 ]
fi

ktap_finished
