#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Recordings started, stopped and killed in a loop, several instances at
# once: afterwards tracefs is exactly as it was (every setting vtrace record
# changes, per CPU, in every instance, and the list of instances) and every
# file left is read by trace-cmd report: finished ones as they are, killed
# ones after vtrace recover. Kills happen at the test build's stopping
# points (set-up, final drain, layout, and after the layout's moves and
# header), never after a sleep.

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
PHASES=${VTRACE_PHASES_BIN:-$here/vtrace_phases}
work=$VT_TMP
iterations=${VTRACE_STRESS_ITERATIONS:-200}
# Two instances made by the test, with settings of their own, and one the
# recordings make (and must remove) themselves.
made="vtrace_stress_a_$$ vtrace_stress_b_$$"
created=vtrace_stress_c_$$
instances="$made $created"

cleanup() {
	for p in $pids; do
		kill -KILL "$p" 2> /dev/null
	done
	[ -n "$VTRACE_STRESS_KEEP" ] && cp -r "$work" "$VTRACE_STRESS_KEEP"
	for i in $instances; do
		[ -d "$TRACEFS/instances/$i" ] || continue
		echo 0 > "$TRACEFS/instances/$i/events/enable"
		rmdir "$TRACEFS/instances/$i"
	done
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
vt_require_tracefs
# Host only: under TCG 200 recordings take minutes, and their files (with
# kallsyms) do not fit in a guest's RAM-backed /tmp. The SIGKILL matrix
# (recovery_test.sh) runs in the guests.
if [ -n "$VTRACE_OUT" ]; then
	ktap_skip_all "host only (the guests run recovery_test.sh)"
	exit "$KSFT_SKIP"
fi
have_trace_cmd=0
command -v trace-cmd > /dev/null && have_trace_cmd=1
ktap_set_plan 3

# snapshot DIR - every setting vtrace record changes in a tracefs dir.
snapshot() {
	(cd "$1" &&
	for f in buffer_size_kb trace_clock tracing_on buffer_percent \
		buffer_subbuf_size_kb tracing_cpumask set_event_pid set_event \
		per_cpu/cpu*/buffer_size_kb options/*; do
		[ -f "$f" ] && echo "$f: $(cat "$f")"
	done)
}

snapshot_all() {
	snapshot "$TRACEFS"
	for i in $made; do
		echo "[$i]"
		snapshot "$TRACEFS/instances/$i"
	done
	ls "$TRACEFS/instances"
}

for i in $made; do
	mkdir "$TRACEFS/instances/$i" || exit 1
done
# Settings unlike the recorder's, so that a leak shows.
a=$TRACEFS/instances/${made%% *}
echo 300 > "$a/buffer_size_kb"
echo 0 > "$a/tracing_on"
echo 1 > "$a/events/sched/sched_wakeup/enable"
[ -f "$a/buffer_percent" ] && echo 70 > "$a/buffer_percent"
snapshot_all > "$work/before"

# catches_sigint PID - PID has its own SIGINT handler (bit 1 of SigCgt).
# An asynchronous list of a non-interactive shell starts with SIGINT
# ignored, until vtrace installs its handler.
catches_sigint() {
	cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2> /dev/null)
	[ -n "$cgt" ] && [ $((0x${cgt#"${cgt%?}"} & 2)) != 0 ]
}

# until_recording PID INSTANCE - the recording has switched tracing on.
# The instance is reused: what a killed recording left enabled can look
# like a recording until the next one's restore, so the signal handler
# and the recording's own journal (made after its waits for the shared
# locks, which a signal ends with no recording) must be there too.
until_recording() {
	until catches_sigint "$1" &&
	      ls "$VTRACE_STATE_DIR/journal-$1-"* > /dev/null 2>&1 &&
	      grep -q sched_switch "$TRACEFS/instances/$2/set_event" \
		2> /dev/null &&
	      [ "$(cat "$TRACEFS/instances/$2/tracing_on")" = 1 ]; do
		vt_stopped "$1" && return
		sleep 0.01
	done
}

# One recording into INSTANCE; how it ends depends on N.
one() {
	n=$1
	inst=$2
	out=$work/out-$n.dat
	echo "# $n: $inst, end $((n % 5))" >> "$work/log"
	case $((n % 5)) in
	0) # runs to its end
		"$VTRACE" record --instance "$inst" -e sched/sched_switch \
			-t 50ms -o "$out" > /dev/null 2>> "$work/log"
		;;
	1) # stopped by a signal
		"$VTRACE" record --instance "$inst" -e sched/sched_switch \
			-o "$out" > /dev/null 2>> "$work/log" &
		p=$!
		until_recording $p "$inst"
		kill -INT $p
		wait $p
		;;
	2) # killed in its set-up
		VTRACE_STOP_AT=setup "$PHASES" record --instance "$inst" \
			-e sched/sched_switch -o "$out" > /dev/null \
			2>> "$work/log" &
		p=$!
		vt_wait_stopped $p
		kill -KILL $p
		wait $p
		;;
	*) # killed in its final drain, or while laying out its file
		phase=drain
		[ $((n % 5)) = 4 ] && phase=layout
		[ $((n % 10)) = 9 ] && phase=layout-header
		VTRACE_STOP_AT=$phase "$PHASES" record --instance "$inst" \
			-e sched/sched_switch -o "$out" > /dev/null \
			2>> "$work/log" &
		p=$!
		until_recording $p "$inst"
		kill -INT $p
		vt_wait_stopped $p
		kill -KILL $p
		wait $p
		;;
	esac
}

start=$(date +%s)
n=0
while [ $n -lt $iterations ]; do
	pids=
	for inst in $instances; do
		[ $n -lt $iterations ] || break
		one $n "$inst" 2> /dev/null &
		pids="$pids $!"
		n=$((n + 1))
	done
	for p in $pids; do
		wait "$p"
	done
done
pids=
"$VTRACE" reset > "$work/reset" 2>> "$work/log"
rc=$?
elapsed=$(($(date +%s) - start))
snapshot_all > "$work/after"
expect [ $rc = 0 ]
expect cmp -s "$work/before" "$work/after"
if ! cmp -s "$work/before" "$work/after"; then
	diff "$work/before" "$work/after" | head -20 | while read -r l; do
		ktap_print_msg "$l"
	done
fi
expect [ ! -d "$TRACEFS/instances/$created" ]
expect [ -z "$(ls -A "$VTRACE_STATE_DIR" | grep journal-)" ]
result "tracefs_as_before_after_${iterations}_recordings_${elapsed}s"

# Every finished file, and every killed one once recovered, is read.
finished=0
recovered=0
bad=0
for f in "$work"/out-*.dat; do
	[ -f "$f" ] || continue
	finished=$((finished + 1))
	if [ $have_trace_cmd = 1 ] && ! trace-cmd report "$f" > /dev/null 2>&1; then
		bad=$((bad + 1))
		ktap_print_msg "unreadable: $f"
	fi
done
for f in "$work"/.out-*.dat.??????; do
	[ -f "$f" ] || continue
	recovered=$((recovered + 1))
	if ! "$VTRACE" recover "$f" -o "$f.rec" > /dev/null 2>> "$work/log" ||
	   { [ $have_trace_cmd = 1 ] &&
	     ! trace-cmd report "$f.rec" > /dev/null 2>&1; }; then
		bad=$((bad + 1))
		ktap_print_msg "not recovered: $f"
	fi
done
expect [ $bad = 0 ]
# Ends 0 and 1 finish; 2, 3 and 4 are killed, each leaving its file.
expect [ $finished = $((iterations / 5 * 2 + (iterations % 5 > 0) + (iterations % 5 > 1))) ]
expect [ $recovered = $((iterations - finished)) ]
result "every_file_read_${finished}_finished_${recovered}_recovered"

# Nothing else was left: no FILE.cpuN, no file of another name.
expect [ "$(ls -A "$work" | grep -vc -e '^out-' -e '^\.out-' -e '^before$' \
	-e '^after$' -e '^log$' -e '^reset$' -e '^state$')" = 0 ]
result "nothing_else_left"

ktap_finished
