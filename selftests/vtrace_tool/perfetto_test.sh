#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vtrace convert and the Perfetto writer on the host: the writer's golden
# trace (perfetto_writer_test) decoded by protoc against a golden text; a
# capture of the host's tracefs by vtrace record, and trace-cmd's own
# recordings in format 6, 7 compressed and 7 uncompressed, converted and
# checked against trace-cmd report (per-event counts, a cpu in every
# bundle, timestamp and pid in every event, no field Perfetto's schema does
# not know); then bad inputs and outputs: exact messages, exit codes, no
# partial output, an existing output kept.
#
# Needs root, tracefs and trace-cmd. The schema checks need protoc and
# Perfetto's schema from ../shared (VTRACE_PERFETTO_PROTO_DIR names its directory
# elsewhere); without them they SKIP, the rest still runs.
#
# Host only (bash and trace-cmd): guests' files are converted on the host
# by check_guest_artifacts.sh.
if [ -z "${BASH_VERSION:-}" ]; then
	if ! command -v bash > /dev/null || ! command -v trace-cmd > /dev/null; then
		echo "TAP version 13"
		echo "1..0 # SKIP needs bash and trace-cmd (host only)"
		exit 4
	fi
	exec bash "$0" "$@"
fi

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../kselftest/ktap_helpers.sh"
. "$here/perfetto_check.sh"

VTRACE=${VTRACE:-$top/tools/vtrace/vtrace}
WRITER_TEST=${PERFETTO_WRITER_TEST:-$here/perfetto_writer_test}
tracefs=/sys/kernel/tracing
work=$(mktemp -d /tmp/vtrace_pf.XXXXXX)
VT_TMP=$work
late=vtrace_pf_late_$$
cleanup() {
	mountpoint -q "$work/small" && umount "$work/small"
	if [ -d "$tracefs/instances/$late" ]; then
		echo 0 > "$tracefs/instances/$late/events/enable"
		rmdir "$tracefs/instances/$late"
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# wait_begun EVENT: until a recording of EVENT on the top level has begun
# (its events on, then tracing; 3 s at most): a marker written before
# that is refused (tracing is off while the recorder sets up).
wait_begun() {
	n=0
	until { grep -q "$1" "$tracefs/set_event" &&
		[ "$(cat "$tracefs/tracing_on")" = 1 ]; } || [ $n -ge 300 ]; do
		sleep 0.01
		n=$((n + 1))
	done
}

ktap_print_header
if [ "$(id -u)" != 0 ] || [ ! -d "$tracefs/events" ] ||
   ! command -v trace-cmd > /dev/null || [ ! -x "$VTRACE" ] ||
   [ ! -x "$WRITER_TEST" ]; then
	ktap_skip_all "needs root, tracefs, trace-cmd, $VTRACE and $WRITER_TEST"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 21

schema=1
pf_schema || schema=0

# convert_case NAME [MIN_EVENTS]: $work/NAME.dat converted and checked
# (pf_check_convert).
convert_case() {
	if pf_check_convert "$work/$1" "${2:-1}"; then
		ktap_test_pass "$1 ($pf_events events${pf_note:+; $pf_note})"
	else
		ktap_test_fail "$1"
	fi
}

# 1: the writer's own trace, byte for byte what the golden text says;
# and its typed messages' fields against the real devices' formats in
# ../shared (perfetto_writer_test's typed_fields_match_reference_formats).
if [ $schema = 0 ]; then
	ktap_test_skip "golden_trace: $pf_schema_why"
elif VT_PERFETTO_OUT=$work/golden.pftrace \
     VT_PERFETTO_REF_EVENTS="$(dirname "$PF_PROTO")/../pixel-raven-5.10/events:$(dirname "$PF_PROTO")/../perfetto-synthetic/events" \
     "$WRITER_TEST" > "$work/wt.log" 2>&1 &&
     pf_decode "$work/golden.pftrace" > "$work/golden.txt" &&
     diff -u "$here/data/perfetto_golden.txt" "$work/golden.txt" > "$work/golden.diff"; then
	ktap_test_pass "golden_trace"
else
	ktap_print_msg "$(head -30 "$work/golden.diff" "$work/wt.log" 2>/dev/null)"
	ktap_test_fail "golden_trace"
fi

# 2: a host capture: scheduler, syscalls, IRQs, markers (atrace ones too).
(
	wait_begun sched_switch
	for i in $(seq 1 50); do
		echo "vtrace-pf $i" > "$tracefs/trace_marker"
		echo "C|$$|vtrace_pf_counter|$i" > "$tracefs/trace_marker"
		echo "B|$$|vtrace_pf_slice" > "$tracefs/trace_marker"
		echo "E|$$" > "$tracefs/trace_marker"
	done
) &
"$VTRACE" record -e sched/sched_switch -e sched/sched_wakeup \
	-e sched/sched_waking -e sched/sched_process_exec \
	-e sched/sched_process_exit -e irq/irq_handler_entry \
	-e raw_syscalls/sys_enter -e raw_syscalls/sys_exit -e timer/hrtimer_start \
	-t 1 -o "$work/host.dat" > "$work/record.out" 2>&1
wait
convert_case host 200
if [ $schema = 1 ] && [ -s "$work/host.txt" ] &&
   [ "$(grep -c 'buf: "C|[0-9]*|vtrace_pf_counter|' "$work/host.txt")" = 50 ] &&
   grep -q 'event_name: "hrtimer_start"' "$work/host.txt"; then
	ktap_test_pass "host_markers_and_generic"
elif [ $schema = 0 ]; then
	ktap_test_skip "host_markers_and_generic: $pf_schema_why"
else
	ktap_test_fail "host_markers_and_generic"
fi

# 3-5: trace-cmd's recordings. trace-cmd record needs the function tracer
# files, which this kernel refuses: mask them in a private mount namespace.
tc_record() {
	unshare -m sh -c '
		echo 1 > "$0/fe"
		mount --bind "$0/fe" /proc/sys/kernel/ftrace_enabled
		for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid \
			 set_ftrace_notrace_pid; do
			[ -e /sys/kernel/tracing/$f ] || continue
			: > "$0/d_$f"
			mount --bind "$0/d_$f" /sys/kernel/tracing/$f
		done
		exec trace-cmd record -q "$@" -e sched/sched_switch \
			-e sched/sched_wakeup -e raw_syscalls sleep 0.5' \
		"$work" "$@" > "$work/tc_record.log" 2>&1
}
tc_record --file-version 6 -o "$work/tc_v6.dat"
convert_case tc_v6 100
tc_record -o "$work/tc_v7_compressed.dat"
convert_case tc_v7_compressed 100
tc_record --compression none -o "$work/tc_v7_plain.dat"
convert_case tc_v7_plain 100

# 6: the clock of a non-boot recording is named in every bundle.
if [ $schema = 1 ] && [ -s "$work/tc_v6.txt" ]; then
	clock=$(sed -n 's/^ *ftrace_clock: //p' "$work/tc_v6.txt" | sort -u)
	bundles=$(grep -c '^  ftrace_events {' "$work/tc_v6.txt")
	clocked=$(grep -c '^    ftrace_clock: FTRACE_CLOCK_LOCAL' "$work/tc_v6.txt")
	if [ "$clock" = FTRACE_CLOCK_LOCAL ] && [ "$bundles" = "$clocked" ]; then
		ktap_test_pass "local_clock_named ($bundles bundles)"
	else
		ktap_print_msg "clock '$clock', $clocked of $bundles bundles"
		ktap_test_fail "local_clock_named"
	fi
else
	ktap_test_skip "local_clock_named: ${pf_schema_why:-no trace-cmd capture}"
fi

# The message of $1 for a bad input: report's and convert's, prefix aside,
# and both exit ${4:-1} (2: an input that cannot be read, see vtrace.1).
bad_input() {
	local name=$1 in=$2 out=$work/bad_out.pftrace rc_r rc_c want=${4:-1}

	rm -f "$out"
	"$VTRACE" report "$in" > /dev/null 2> "$work/bad_r.err"
	rc_r=$?
	"$VTRACE" convert "$in" "$out" > /dev/null 2> "$work/bad_c.err"
	rc_c=$?
	sed 's/^vtrace: error: report: //' "$work/bad_r.err" > "$work/bad_r.msg"
	sed 's/^vtrace: error: convert: //' "$work/bad_c.err" > "$work/bad_c.msg"
	if [ $rc_r = "$want" ] && [ $rc_c = "$want" ] && [ ! -e "$out" ] &&
	   [ -s "$work/bad_c.msg" ] &&
	   cmp -s "$work/bad_r.msg" "$work/bad_c.msg" &&
	   grep -q "${3:-}" "$work/bad_c.msg" &&
	   [ -z "$(ls -A "$work" | grep '^\.bad_out')" ]; then
		ktap_test_pass "$name"
	else
		ktap_print_msg "report $rc_r: $(head -c 200 "$work/bad_r.err")"
		ktap_print_msg "convert $rc_c: $(head -c 200 "$work/bad_c.err")"
		ktap_test_fail "$name"
	fi
}

# 7-9: truncated, corrupt, not a trace.dat.
size=$(stat -c %s "$work/host.dat")
head -c $((size / 2)) "$work/host.dat" > "$work/truncated.dat"
bad_input truncated_input "$work/truncated.dat" "truncated"
bad_input corrupt_record "$here/fuzz-report-corpus/print-record-shorter-than-fields.dat" \
	"corrupt CPU"
printf 'not a trace\n' > "$work/text.dat"
bad_input not_a_trace_dat "$work/text.dat" "text.dat"

# 10: a missing input.
bad_input missing_input "$work/no-such.dat" "No such file" 2

# 11: a failed conversion leaves an existing output as it was.
printf 'keep me\n' > "$work/keep.pftrace"
"$VTRACE" convert "$work/truncated.dat" "$work/keep.pftrace" 2> /dev/null
rc=$?
if [ $rc = 1 ] && [ "$(cat "$work/keep.pftrace")" = "keep me" ]; then
	ktap_test_pass "existing_output_kept"
else
	ktap_test_fail "existing_output_kept (exit $rc)"
fi

# 12: an unwritable output directory: exit 1, named.
"$VTRACE" convert "$work/host.dat" "$work/no-dir/x.pftrace" > /dev/null 2> "$work/nodir.err"
rc=$?
if [ $rc = 1 ] && grep -q "no-dir/x.pftrace: No such file or directory" "$work/nodir.err"; then
	ktap_test_pass "unwritable_output"
else
	ktap_print_msg "exit $rc: $(cat "$work/nodir.err")"
	ktap_test_fail "unwritable_output"
fi

# 13: the extension picks the format; an unknown one is a usage error.
"$VTRACE" convert "$work/host.dat" "$work/x.bin" > /dev/null 2> "$work/ext.err"
rc=$?
if [ $rc = 2 ] && grep -q "x.bin: no format has this extension" "$work/ext.err" &&
   [ ! -e "$work/x.bin" ]; then
	ktap_test_pass "unknown_extension"
else
	ktap_print_msg "exit $rc: $(cat "$work/ext.err")"
	ktap_test_fail "unknown_extension"
fi

# 14: --format overrides the extension, and gives the same bytes.
if "$VTRACE" convert --format perfetto --quiet "$work/host.dat" "$work/x.bin" > "$work/q.out" &&
   [ ! -s "$work/q.out" ] && cmp -s "$work/x.bin" "$work/host.pftrace"; then
	ktap_test_pass "format_option"
else
	ktap_test_fail "format_option"
fi

# 15: a bad --format names the formats, for convert and for record
# (usage exit 2, before anything is enabled or created).
"$VTRACE" convert --format nope "$work/host.dat" "$work/y.pftrace" 2> "$work/fmt.err"
rc=$?
"$VTRACE" record --format nope -o "$work/y.dat" 2>> "$work/fmt.err"
rc=$rc,$?
if [ $rc = 2,2 ] && [ ! -e "$work/y.dat" ] &&
   grep -q "no format 'nope' (formats: perfetto (.pftrace)" "$work/fmt.err" &&
   grep -q "^vtrace: error: --format: no format 'nope' (formats: tracedat, perfetto)$" "$work/fmt.err"; then
	ktap_test_pass "bad_format_option"
else
	ktap_print_msg "exit $rc: $(cat "$work/fmt.err")"
	ktap_test_fail "bad_format_option"
fi

# 17: vtrace record -o FILE.pftrace: every event recorded is in the
# trace, in order, typed, with the markers; and Perfetto's importer reads
# each CPU's events, with no error but the 20 plain-text markers and the
# sched_switch pairs the kernel gave that do not follow on (and the data
# loss, where the summary says events were lost); no bundle names a clock
# (a Perfetto trace is recorded with boot, Perfetto's). Not raw_syscalls: the
# importer makes a slice of each sys_enter that only its sys_exit ends,
# so sys_enter alone nests past its depth limit (slice_max_depth_exceeded).
(
	wait_begun sched_switch
	for i in $(seq 1 20); do
		echo "vtrace-pf-rec $i" > "$tracefs/trace_marker"
	done
) &
"$VTRACE" record -e sched/sched_switch -e sched/sched_waking \
	-e timer/hrtimer_start -t 1 \
	-o "$work/rec.pftrace" > "$work/rec.out" 2>&1
rc=$?
wait
recorded=$(sed -n 's/^vtrace: recorded \([0-9]*\) events .*/\1/p' "$work/rec.out")
if [ $rc != 0 ] || [ ! -s "$work/rec.pftrace" ] || [ -z "$recorded" ]; then
	ktap_print_msg "record exit $rc: $(head -c 300 "$work/rec.out")"
	ktap_test_fail "record_perfetto"
elif [ $schema = 0 ]; then
	ktap_test_skip "record_perfetto: $pf_schema_why"
else
	pf_decode "$work/rec.pftrace" > "$work/rec.txt"
	total=$(pf_event_counts "$work/rec.txt" | awk '{ n += $2 } END { print n + 0 }')
	markers=$(grep -c 'buf: "vtrace-pf-rec [0-9]*\\n"' "$work/rec.txt")
	clocked=$(grep -c '^    ftrace_clock:' "$work/rec.txt")
	imported=1
	tp_note=
	if ! tp_find; then
		tp_note="; Perfetto import skipped: $tp_why"
	elif ! tp_check_recorded "$work/rec.out" "$work/rec.pftrace" 20 \
		"$(pf_switch_mismatches "$work/rec.txt")" 2> "$work/rec.tp"; then
		imported=0
	fi
	if pf_structure "$work/rec.txt" > "$work/rec.structure" &&
	   [ "$total" = "$recorded" ] && [ "$markers" = 20 ] &&
	   [ "$clocked" = 0 ] && [ "$imported" = 1 ] &&
	   ! pf_generic_events "$work/rec.txt" | grep -qx -e sched_switch -e print; then
		ktap_test_pass "record_perfetto ($recorded events$tp_note)"
	else
		ktap_print_msg "recorded $recorded, in the trace $total, markers $markers, $clocked bundles clocked; $(head -3 "$work/rec.structure" "$work/rec.tp" 2> /dev/null)"
		ktap_test_fail "record_perfetto"
	fi
fi

# 18: --format perfetto whatever the name, with the local clock: each
# bundle names it and carries a measured (not identical) clock pair.
"$VTRACE" record --format perfetto --clock local -e sched/sched_switch -t 0.5 \
	-o "$work/rec_local.dat" > "$work/rec_local.out" 2>&1
rc=$?
if [ $rc != 0 ] || [ ! -s "$work/rec_local.dat" ]; then
	ktap_print_msg "record exit $rc: $(head -c 300 "$work/rec_local.out")"
	ktap_test_fail "record_perfetto_local_clock"
elif [ $schema = 0 ]; then
	ktap_test_skip "record_perfetto_local_clock: $pf_schema_why"
else
	pf_decode "$work/rec_local.dat" > "$work/rec_local.txt"
	bundles=$(grep -c '^  ftrace_events {' "$work/rec_local.txt")
	clocked=$(grep -c '^    ftrace_clock: FTRACE_CLOCK_LOCAL' "$work/rec_local.txt")
	pairs=$(paste -d' ' <(sed -n 's/^    ftrace_timestamp: //p' "$work/rec_local.txt") \
		<(sed -n 's/^    boot_timestamp: //p' "$work/rec_local.txt") |
		awk '$1 != $2' | sort -u | wc -l)
	if [ "$bundles" -gt 0 ] && [ "$bundles" = "$clocked" ] && [ "$pairs" = 1 ]; then
		ktap_test_pass "record_perfetto_local_clock ($bundles bundles)"
	else
		ktap_print_msg "$clocked of $bundles bundles clocked, $pairs distinct measured pairs"
		ktap_test_fail "record_perfetto_local_clock"
	fi
fi

# 19: a disk (256 KiB) that fills up mid-recording: the recording says so, and the
# file it leaves is a valid trace of what fitted.
mkdir "$work/small"
mount -t tmpfs -o size=256k nodev "$work/small"
# A quiet machine makes too few syscalls to fill it: make them ourselves
# while the recording runs (our own child: kill -0 cannot hit another pid).
"$VTRACE" record -e raw_syscalls/sys_enter -e raw_syscalls/sys_exit -t 2 \
	-o "$work/small/full.pftrace" > "$work/full.out" 2>&1 &
recorder=$!
while kill -0 "$recorder" 2> /dev/null; do
	dd if=/dev/zero of=/dev/null bs=1 count=20000 2> /dev/null
done
wait "$recorder"
rc=$?
if [ $rc = 0 ] || ! grep -q "No space left on device" "$work/full.out" ||
   [ ! -s "$work/small/full.pftrace" ]; then
	ktap_print_msg "exit $rc: $(head -c 300 "$work/full.out")"
	ktap_test_fail "disk_full_keeps_a_valid_trace"
elif [ $schema = 0 ]; then
	ktap_test_skip "disk_full_keeps_a_valid_trace: $pf_schema_why"
elif pf_decode "$work/small/full.pftrace" > "$work/full.txt" 2> "$work/full.protoc" &&
     pf_structure "$work/full.txt" > /dev/null; then
	ktap_test_pass "disk_full_keeps_a_valid_trace ($(grep -c '^    event {' "$work/full.txt") events kept)"
else
	ktap_print_msg "$(head -c 300 "$work/full.protoc")"
	ktap_test_fail "disk_full_keeps_a_valid_trace"
fi
umount "$work/small"

# 20: processes: vtrace record turns record-tgid on while it records
# (and back after), so a forked child's threads map to its tgid in the
# ProcessTree.
tgid_opt=/sys/kernel/tracing/options/record-tgid
if [ ! -e $tgid_opt ] || ! command -v python3 > /dev/null; then
	ktap_test_skip "record_perfetto_tgids: needs options/record-tgid and python3"
elif [ $schema = 0 ]; then
	ktap_test_skip "record_perfetto_tgids: $pf_schema_why"
else
	tgid_was=$(cat $tgid_opt)
	# Stopped once the threads are done, whatever the machine's speed.
	"$VTRACE" record -e sched/sched_switch -o "$work/tgid.pftrace" \
		> "$work/tgid.out" 2>&1 &
	rec=$!
	wait_begun sched_switch
	python3 -c '
import os, threading, time
def work():
    with open("/sys/kernel/tracing/trace_marker", "w") as f:
        for i in range(20):
            f.write("tgid test\n"); f.flush(); time.sleep(0.005)
ts = [threading.Thread(target=work) for _ in range(3)]
[t.start() for t in ts]; [t.join() for t in ts]
print(os.getpid(), *[t.native_id for t in ts])' > "$work/tgid.ids"
	kill -INT $rec
	wait $rec
	rc=$?
	read -r tg t1 t2 t3 < "$work/tgid.ids"
	pf_decode "$work/tgid.pftrace" > "$work/tgid.txt"
	# "tid tgid" of every ProcessTree thread, and the process pids.
	awk '/^    threads {/ { t = 1 } t && /^      tid:/ { tid = $2 }
	     t && /^      tgid:/ { print tid, $2; t = 0 }' "$work/tgid.txt" > "$work/tgid.map"
	mapped=0
	for t in $t1 $t2 $t3; do
		grep -qx "$t $tg" "$work/tgid.map" && mapped=$((mapped + 1))
	done
	proc=$(grep -A1 '^    processes {' "$work/tgid.txt" | grep -cx "      pid: $tg")
	if [ $rc = 0 ] && [ $mapped = 3 ] && [ "$proc" = 1 ] &&
	   [ "$(cat $tgid_opt)" = "$tgid_was" ]; then
		ktap_test_pass "record_perfetto_tgids (threads $t1 $t2 $t3 of $tg)"
	else
		ktap_print_msg "exit $rc, $mapped of 3 threads of $tg mapped, process listed $proc times, record-tgid $(cat $tgid_opt) (was $tgid_was)"
		for t in $t1 $t2 $t3; do
			ktap_print_msg "thread $t: $(grep -c "^$t " "$work/tgid.map") listed, $(grep -c "pid: $t\$" "$work/tgid.txt") pid fields, saved_tgids: $(grep "^$t " $tracefs/saved_tgids)"
		done
		ktap_test_fail "record_perfetto_tgids"
	fi
fi

# 21: the recorder reads formats as records need them: an event of a
# system not asked for, enabled in the instance by someone else during
# the recording, is written with its fields named, as the others are.
mkdir "$tracefs/instances/$late"
"$VTRACE" record --instance "$late" -e sched/sched_switch -t 1.5 \
	-o "$work/late.pftrace" > "$work/late.out" 2>&1 &
recorder=$!
n=0
until grep -q sched_switch "$tracefs/instances/$late/set_event" || [ $n -ge 300 ]; do
	sleep 0.01
	n=$((n + 1))
done
sleep 0.5
echo 1 > "$tracefs/instances/$late/events/timer/hrtimer_start/enable"
wait $recorder
rc=$?
echo 0 > "$tracefs/instances/$late/events/timer/hrtimer_start/enable"
rmdir "$tracefs/instances/$late"
if [ $schema = 0 ]; then
	ktap_test_skip "record_perfetto_late_event: $pf_schema_why"
else
	recorded=$(sed -n 's/^vtrace: recorded \([0-9]*\) events .*/\1/p' "$work/late.out")
	pf_decode "$work/late.pftrace" > "$work/late.txt"
	pf_event_counts "$work/late.txt" > "$work/late.counts"
	total=$(awk '{ n += $2 } END { print n + 0 }' "$work/late.counts")
	timers=$(awk '$1 == "hrtimer_start" { print $2 }' "$work/late.counts")
	# Every hrtimer_start names its fields (function, expires, ...).
	named=$(grep -c '^ *name: "function"$' "$work/late.txt")
	if [ $rc = 0 ] && [ "$total" = "$recorded" ] &&
	   [ "${timers:-0}" -gt 0 ] && [ "$named" = "$timers" ]; then
		ktap_test_pass "record_perfetto_late_event ($timers of $recorded events)"
	else
		ktap_print_msg "exit $rc, recorded ${recorded:-?}, in the trace $total, hrtimer_start ${timers:-0}, with a named function field $named"
		ktap_test_fail "record_perfetto_late_event"
	fi
fi

ktap_finished
