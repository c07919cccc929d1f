#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Perfetto traces vtrace did not write, read by vtrace report and slices:
# a phone-style trace of track events and compact sched (written with
# protoc from data/perfetto_track_events.txtpb) against its known values
# and Perfetto's own importer, and a recording by Perfetto's tracebox on
# this host (compact sched, print) whose events, per name, and marker
# slices are exactly those trace_processor_shell reads in it.
# vtrace's own Perfetto files are read back in perfetto_check.sh.
#
# Host only; the parts that need protoc with Perfetto's schema or the
# tools from ../shared/ref/perfetto/bin skip without them.

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"
top=$(cd "$here/../.." && pwd)
. "$here/perfetto_tp_check.sh"

PF_PROTO_DIR=${VTRACE_PERFETTO_PROTO_DIR:-$top/../shared/ref/perfetto}
tracefs=$TRACEFS
inst=vtrace-read-test-$$
work=$VT_TMP
cleanup()
{
	[ ! -f "$work/top.before" ] || tb_top_restore "$work/top.before"
	[ ! -d "$tracefs/instances/$inst" ] || rmdir "$tracefs/instances/$inst"
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
if [ ! -x "$VTRACE" ]; then
	ktap_skip_all "needs $VTRACE"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 3

# same WHAT WANT GOT: files WANT and GOT are equal, else says how.
same()
{
	cmp -s "$2" "$3" && return 0
	ktap_print_msg "$1: want $(tr '\n' ';' < "$2") got $(tr '\n' ';' < "$3")"
	return 1
}

# events FILE: "NAME COUNT" per ftrace event vtrace report reads in FILE.
events()
{
	"$VTRACE" report --json "$1" 2> "$VT_TMP/err" |
		python3 -c 'import collections, json, sys
for n, c in sorted(collections.Counter(e["event"] for e in
		json.load(sys.stdin)["events"]).items()):
	print(n, c)'
}

name=track_events_and_compact_sched
if ! command -v protoc > /dev/null || [ ! -r "$PF_PROTO_DIR/perfetto_trace.proto" ]; then
	ktap_test_skip "$name: needs protoc and $PF_PROTO_DIR/perfetto_trace.proto"
else
	pf=$work/phone.pftrace
	protoc --encode=perfetto.protos.Trace -I"$PF_PROTO_DIR" \
		perfetto_trace.proto < "$DATA/perfetto_track_events.txtpb" > "$pf"
	# Thread track slices nested, an instant as a slice of no length, a
	# process counter; the thread named by its descriptor.
	cat > "$work/want" <<- 'W'
		3 slices, 0 async slices, 1 counter samples; 0 unmatched ends, 0 open at the end, 0 malformed markers

		          THREAD-TID         BEGIN (s)      DUR (ms)  NAME
		    RenderThread-101          0.001000         2.000  draw
		    RenderThread-101          0.001500         0.200    flush
		    RenderThread-101          0.003500         0.000  vsync

		counters:
		     PID      TIME (s)                VALUE  NAME
		     100      0.003000                    4  queued_frames
	W
	"$VTRACE" slices "$pf" > "$work/got" 2> "$VT_TMP/err"
	rc=$?
	expect [ "$rc" = 0 ]
	expect same slices "$work/want" "$work/got"
	# The first switch on a CPU only says who runs: one switch and two
	# wakings by pid 0 at 950 and 951 us, a switch of 101 at 3000 us.
	cat > "$work/want" <<- 'W'
		1 950000 0 sched_waking comm=RenderThread pid=101 prio=110 success=1 target_cpu=1
		1 951000 0 sched_waking comm=RenderThread pid=102 prio=120 success=1 target_cpu=0
		1 1000000 0 sched_switch prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=0 next_comm=RenderThread next_pid=101 next_prio=110
		1 3000000 101 sched_switch prev_comm=RenderThread prev_pid=101 prev_prio=110 prev_state=1 next_comm=swapper/1 next_pid=0 next_prio=120
	W
	"$VTRACE" report --json "$pf" 2> "$VT_TMP/err" | python3 -c '
import json, sys
for e in json.load(sys.stdin)["events"]:
	print(e["cpu"], e["ts"], e["pid"], e["event"], e["info"])' > "$work/got"
	expect same report "$work/want" "$work/got"
	if tp_find; then
		tp_query "$pf" "select name, ts, dur, depth from slice order by ts;" |
			tr -d '"' > "$work/want"
		"$VTRACE" slices --json "$pf" 2> "$VT_TMP/err" | python3 -c '
import json, sys
for s in json.load(sys.stdin)["slices"]:
	print("%s,%d,%d,%d" % (s["name"], s["ts"], s["dur"], s["depth"]))' > "$work/got"
		expect same "slices against trace_processor" "$work/want" "$work/got"
	fi
	result "$name"
fi

# The tracebox recording: its events and marker slices as Perfetto reads
# them. tracebox changes the top level even when given an instance
# (perfetto-bench.sh): put back.
name=tracebox_recording
if [ "$(id -u)" != 0 ]; then
	ktap_test_skip "$name: needs root"
elif ! tp_find || ! tb_find; then
	ktap_test_skip "$name: $tp_why"
else
	[ -d $tracefs/events ] || mount -t tracefs nodev $tracefs
	mkdir "$tracefs/instances/$inst"
	tb_top_save "$work/top.before"
	cat > "$work/tb.cfg" <<- W
		buffers { size_kb: 8192 fill_policy: DISCARD }
		data_sources {
		  config {
		    name: "linux.ftrace"
		    ftrace_config {
		      ftrace_events: "sched/sched_switch"
		      ftrace_events: "sched/sched_waking"
		      ftrace_events: "ftrace/print"
		      compact_sched { enabled: true }
		      buffer_size_kb: 512
		      instance_name: "$inst"
		    }
		  }
		}
		duration_ms: 2500
	W
	"$TB" -c "$work/tb.cfg" --txt -o "$work/tb.pftrace" > "$work/tb.log" 2>&1 &
	tb=$!
	n=0
	until [ "$(cat "$tracefs/instances/$inst/events/sched/sched_switch/enable" 2> /dev/null)" = 1 ] ||
	      [ $n -ge 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	# tracebox clears the buffer once its readers start.
	sleep 1
	marker=$tracefs/instances/$inst/trace_marker
	sh -c 'for i in 1 2 3; do
		echo "B|$$|outer"; sleep 0.05; echo "B|$$|inner"; sleep 0.02
		echo "E|$$"; echo "E|$$"; echo "C|$$|frames|$i"
	done' > "$marker"
	wait $tb
	rc=$?
	tb_top_restore "$work/top.before"
	rm "$work/top.before"
	rmdir "$tracefs/instances/$inst"
	expect [ "$rc" = 0 ]
	tp_query "$work/tb.pftrace" "select name, count(*) from ftrace_event
		group by name order by name;" | tr -d '"' | tr ',' ' ' > "$work/want"
	events "$work/tb.pftrace" > "$work/got"
	expect same "events per name" "$work/want" "$work/got"
	expect grep -qx "sched_switch [0-9]*" "$work/got"
	expect grep -qx "print 15" "$work/got"
	tp_query "$work/tb.pftrace" "select name, ts, dur, depth from slice
		order by ts;" | tr -d '"' > "$work/want"
	"$VTRACE" slices --json "$work/tb.pftrace" 2> "$VT_TMP/err" | python3 -c '
import json, sys
for s in json.load(sys.stdin)["slices"]:
	print("%s,%d,%d,%d" % (s["name"], s["ts"], s["dur"], s["depth"]))' > "$work/got"
	expect [ "$(wc -l < "$work/got")" = 6 ]
	expect same "slices against trace_processor" "$work/want" "$work/got"
	[ -z "$tb_changed" ] || ktap_print_msg "tracebox changed (put back):$tb_changed"
	result "$name"
fi

# Hostile input: cut inside a packet, a packet that is not protobuf: refused with
# the byte it broke at, exit 1, nothing on stdout.
name=broken_perfetto_traces_refused
if [ ! -f "$work/phone.pftrace" ]; then
	ktap_test_skip "$name: needs the trace protoc writes above"
else
	head -c 120 "$work/phone.pftrace" > "$work/cut.pftrace"
	printf '\n\004\012\377\377\377' > "$work/bad.pftrace"
	for f in cut bad; do
		"$VTRACE" report "$work/$f.pftrace" > "$work/out" 2> "$work/err"
		rc=$?
		expect [ "$rc" = 1 ]
		expect [ ! -s "$work/out" ]
		expect grep -q "not a usable Perfetto trace: byte [0-9]*: " "$work/err"
		"$VTRACE" slices "$work/$f.pftrace" > "$work/out" 2> "$work/err"
		rc=$?
		expect [ "$rc" = 1 ]
	done
	result "$name"
fi

ktap_finished
