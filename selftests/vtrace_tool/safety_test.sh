#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the helper must never do to what is not its own, on this kernel's
# tracefs: write through a state directory another user could have made
# or planted links in; leave a trace readable by others; block on, or
# misname, an input that is not a regular file; take a number or an
# instance name it cannot honour.
#
# POSIX sh (the guests run busybox).

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
inst=vtrace_safety_$$
idir=$TRACEFS/instances/$inst
other=vtrace_safety_other_$$
odir=$TRACEFS/instances/$other
event=sched/sched_process_exec
# The guests' vtrace is a static build without libtracecmd: it reads no
# trace.dat, so what needs a reader is checked on the host only.
reads_tracedat=yes
case $("$VTRACE" report /nonexistent.dat 2>&1) in
*"not in this static build"*) reads_tracedat= ;;
esac

cleanup() {
	# (only a failing test enables it at the top level)
	[ -z "$top_was_on" ] &&
		echo 0 > "$TRACEFS/events/$event/enable" 2> /dev/null
	[ -n "$fifo_writer" ] && kill "$fifo_writer" 2> /dev/null
	# (.hidden and ...: what a failing test may have made)
	for d in "$idir" "$odir" "$TRACEFS/instances/.hidden" \
		 "$TRACEFS/instances/..."; do
		[ -d "$d" ] || continue
		echo 0 > "$d/events/enable"
		echo 0 > "$d/events/$event/filter"
		rmdir "$d"
	done
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
vt_require_tracefs
top_was_on=$(grep -x "${event%/*}:${event#*/}" "$TRACEFS/set_event")

ktap_set_plan 9

# vt_run_in DIR ARGS...: vt_run with VTRACE_STATE_DIR=DIR.
vt_run_in() {
	state=$1
	shift
	VTRACE_STATE_DIR=$state "$VTRACE" "$@" > "$VT_TMP/out" 2> "$VT_TMP/err"
	rc=$?
	out=$(cat "$VT_TMP/out")
	err=$(cat "$VT_TMP/err")
}

# The issue's exploit: a state directory another user made, with a link
# to a victim where the instance's marker goes. Refused before anything
# changes; the victim keeps its text. Then one of ours that others may
# write to, and a link planted in ours (followed by nothing).
echo victim > "$work/victim"
mkdir "$work/foreign" "$work/open" "$work/ours"
ln -s "$work/victim" "$work/foreign/instance-$inst"
chown 65534 "$work/foreign"
chmod 775 "$work/open"
for dir in foreign open; do
	vt_run_in "$work/$dir" enable --instance $inst $event
	why="owned by another user"
	[ $dir = open ] && why="others may write to it"
	expect [ "$rc" = 1 ]
	expect [ "$err" = "vtrace: error: cannot note the instance vtrace creates: state directory $work/$dir is not trusted: $why" ]
	expect [ ! -d "$idir" ]
	expect [ "$out" = "" ]
done
# The tags of a category go in the state directory too: a top level
# enable of one (gfx has a userspace tag) is refused before its events
# change.
printf 'gfx\n %s\n' $event > "$work/gfx.txt"
before=$(cat "$TRACEFS/set_event")
vt_run_in "$work/foreign" enable -f "$work/gfx.txt" gfx
expect [ "$rc" = 1 ]
expect [ "$err" = "vtrace: error: cannot enable the userspace atrace tags: state directory $work/foreign is not trusted: owned by another user" ]
expect [ "$(cat "$TRACEFS/set_event")" = "$before" ]
ln -s "$work/victim" "$work/ours/instance-$inst"
vt_run_in "$work/ours" enable --instance $inst $event
expect [ "$rc" = 0 ]
expect [ "$err" = "" ]
expect [ -f "$work/ours/instance-$inst" ] && [ ! -L "$work/ours/instance-$inst" ]
vt_run_in "$work/ours" disable --all --instance $inst
expect [ "$rc" = 0 ]
expect [ ! -d "$idir" ]
expect [ "$(cat "$work/victim")" = victim ]
result foreign_state_dir_refused_links_never_followed

# mode_of FILE: its permission bits, octal.
mode_of() {
	stat -c %a "$1"
}

# Traces hold kallsyms and every saved command line: 0600 whatever the
# umask, in every format, recorded or converted.
umask 022
vt_run record --instance $inst -e $event -t 200ms -o "$work/t.dat"
expect [ "$rc" = 0 ]
vt_run record --instance $inst -e $event -t 200ms -o "$work/t.pftrace"
expect [ "$rc" = 0 ]
files="t.dat t.pftrace"
if [ -z "$reads_tracedat" ]; then
	ktap_print_msg "static build: converted outputs not checked"
else
	vt_run convert "$work/t.dat" "$work/c.pftrace" --quiet
	expect [ "$rc" = 0 ]
	vt_run convert "$work/t.dat" "$work/c.trace" --quiet
	expect [ "$rc" = 0 ]
	vt_run profile "$work/c.trace" --dot "$work/c.dot"
	expect [ "$rc" = 0 ]
	files="$files c.pftrace c.trace c.dot"
fi
modes=
want=
for f in $files; do
	modes="$modes $f:$(mode_of "$work/$f")"
	want="$want $f:600"
done
expect [ "$modes" = "$want" ]
[ "$modes" = "$want" ] || ktap_print_msg "modes:$modes"
result outputs_are_created_0600

# within5 CMD...: vt_run CMD, failing (status 124) when it blocks for
# more than 5 seconds.
within5() {
	timeout 5 "$VTRACE" "$@" > "$VT_TMP/out" 2> "$VT_TMP/err"
	rc=$?
	out=$(cat "$VT_TMP/out")
	err=$(cat "$VT_TMP/err")
}

# Inputs that are not regular files are refused at once: a FIFO with no
# writer (it used to block the open forever) as a category file, a
# trace to read, a trace config; /dev/zero as a category file (it used
# to be "file too large"). A symbolic link to a regular file is read.
mkfifo "$work/fifo"
within5 check "$work/fifo"
expect [ "$rc" = 2 ]
expect [ "$err" = "$work/fifo: error: cannot read: not a regular file" ]
within5 check /dev/zero
expect [ "$rc" = 2 ]
expect [ "$err" = "/dev/zero: error: cannot read: not a regular file" ]
within5 enable -f "$work/fifo" gfx
expect [ "$rc" = 2 ]
expect [ "$err" = "$work/fifo: error: cannot read: not a regular file
vtrace: error: enable: bad category file; nothing was changed" ]
if [ "$reads_tracedat" ]; then
	for cmd in report slices profile; do
		within5 $cmd "$work/fifo"
		expect [ "$rc" = 2 ]
		expect [ "$err" = "vtrace: error: $cmd: $work/fifo: not a regular file" ]
	done
	within5 convert "$work/fifo" "$work/f.pftrace"
	expect [ "$rc" = 2 ]
	expect [ "$err" = "vtrace: error: convert: $work/fifo: not a regular file" ]
	expect [ ! -e "$work/f.pftrace" ]
fi
within5 record --config "$work/fifo" -o "$work/f.dat"
expect [ "$rc" = 2 ]
expect [ "$err" = "$work/fifo: error: cannot read: not a regular file" ]
expect [ ! -e "$work/f.dat" ]
printf 'mycat\n %s\n' $event > "$work/cats.txt"
ln -s "$work/cats.txt" "$work/cats-link.txt"
VTRACE_CATEGORIES=$work/cats-link.txt "$VTRACE" categories > "$work/out" 2>&1
expect [ $? = 0 ]
expect grep -q "^mycat" "$work/out"
result non_regular_inputs_refused_at_once

# What vtrace writes besides traces is written as they are: a FIFO,
# device or directory at the output's name is refused at once (a FIFO
# held profile --dot forever), with the same message for every output.
if [ -z "$reads_tracedat" ]; then
	ktap_test_skip "non_regular_outputs_refused_at_once (static build: no method trace to profile)"
else
	mkfifo "$work/out.fifo"
	for dest in "$work/out.fifo" /dev/null; do
		within5 profile "$work/c.trace" --dot "$dest"
		expect [ "$rc" = 1 ]
		expect [ "$err" = "vtrace: error: profile: $dest: not a regular file" ]
	done
	within5 convert "$work/t.dat" "$work/out.fifo" --format perfetto
	expect [ "$rc" = 1 ]
	expect [ "$err" = "vtrace: error: convert: $work/out.fifo: not a regular file" ]
	within5 convert "$work/t.dat" "$work/out.fifo" --format dmtrace
	expect [ "$rc" = 1 ]
	expect [ "$err" = "vtrace: error: convert: $work/out.fifo: not a regular file" ]
	expect [ -p "$work/out.fifo" ]
	result non_regular_outputs_refused_at_once
fi

# One exit status for one kind of bad input, whatever the command
# (vtrace.1, EXIT STATUS): 2 for an input that cannot be read (a FIFO, a
# directory, a missing file), 1 for one read and found bad (a category
# file with an error, a damaged trace); tracefs unchanged.
printf ' %s\n' $event > "$work/bad.txt"
printf 'x\n' > "$work/bad.dat"
before=$(settings_of "$TRACEFS")
bad=0
while IFS='|' read -r want args; do
	# shellcheck disable=SC2086 # the arguments are words
	set -- $args
	case $1 in report | slices | profile | convert)
		[ -z "$reads_tracedat" ] && continue ;;
	esac
	within5 "$@"
	if [ "$rc" != "$want" ]; then
		ktap_print_msg "vtrace $args: status $rc (want $want), stderr '$err'"
		bad=$((bad + 1))
	fi
done <<-EOF2
2|check $work/fifo
2|categories -f $work/fifo
2|enable -f $work/fifo gfx
2|disable -f $work/fifo gfx
2|status -f $work/fifo
2|record --instance $inst -f $work/fifo -c gfx -o $work/f.dat
2|record --instance $inst -f $work/nonexistent -c gfx -o $work/f.dat
2|record --instance $inst --config $work/fifo -o $work/f.dat
2|config -f $work/fifo -c gfx
2|config -f $work/nonexistent -c gfx
1|check $work/bad.txt
1|enable -f $work/bad.txt gfx
1|record --instance $inst -f $work/bad.txt -c gfx -o $work/f.dat
1|config -f $work/bad.txt -c gfx
2|report $work/fifo
2|report $work/nonexistent
2|report $work
1|report $work/bad.dat
2|slices $work/nonexistent
2|profile $work
2|convert $work/nonexistent $work/f.pftrace
1|convert $work/bad.dat $work/f.pftrace
2|recover $work/fifo
2|recover $work/nonexistent
1|recover $work/bad.dat
EOF2
expect [ $bad = 0 ]
expect [ "$(settings_of "$TRACEFS")" = "$before" ]
expect [ ! -d "$idir" ]
expect [ ! -e "$work/f.dat" ] && [ ! -e "$work/f.pftrace" ]
result bad_inputs_one_exit_status_every_command

# Every numeric option: range-checked, with a message naming it, exit 2.
# (NAME ARGS... | MESSAGE after "vtrace: error: ")
bad=0
while IFS='|' read -r args msg; do
	# shellcheck disable=SC2086 # the arguments are words
	set -- $args
	[ "$1" = report ] && [ -z "$reads_tracedat" ] && continue
	within5 "$@"
	if [ "$rc" != 2 ] || [ "$err" != "vtrace: error: $msg" ]; then
		ktap_print_msg "vtrace $args: status $rc, stderr '$err'"
		bad=$((bad + 1))
	fi
done <<-EOF2
record -t nan -e $event -o $work/n.dat|record -t: 'nan' is not a duration from 1ms to 1000000000s (examples: 10s, 500ms, 2m, 5)
record -t inf -e $event -o $work/n.dat|record -t: 'inf' is not a duration from 1ms to 1000000000s (examples: 10s, 500ms, 2m, 5)
record -t 0.0001 -e $event -o $work/n.dat|record -t: '0.0001' is not a duration from 1ms to 1000000000s (examples: 10s, 500ms, 2m, 5)
record -t 0x10 -e $event -o $work/n.dat|record -t: '0x10' is not a duration from 1ms to 1000000000s (examples: 10s, 500ms, 2m, 5)
record -t 1e300 -e $event -o $work/n.dat|record -t: '1e300' is not a duration from 1ms to 1000000000s (examples: 10s, 500ms, 2m, 5)
record -b 0 -e $event -o $work/n.dat|record -b: '0' is not a whole number from 1 to 4294967295
record -b 99999999999999999999 -e $event -o $work/n.dat|record -b: '99999999999999999999' is not a whole number from 1 to 4294967295
record -b 1.5 -e $event -o $work/n.dat|record -b: '1.5' is not a whole number from 1 to 4294967295
record -r 100 -e $event -o $work/n.dat|record -r: '100' is not a whole number from 0 to 99
record --exclusive-prio -1 -e $event -o $work/n.dat|record --exclusive-prio: '-1' is not a whole number from 0 to 4294967295
record --exclusive-prio 4294967296 -e $event -o $work/n.dat|record --exclusive-prio: '4294967296' is not a whole number from 0 to 4294967295
config -t nan -e $event|config -t: 'nan' is not a duration from 1ms to 4294967s (examples: 10s, 500ms, 2m, 5)
config -t 4294968s -e $event|config -t: '4294968s' is not a duration from 1ms to 4294967s (examples: 10s, 500ms, 2m, 5)
config -b 4294967296 -e $event|config -b: '4294967296' is not a whole number from 1 to 4294967295
config --exclusive-prio x -e $event|config --exclusive-prio: 'x' is not a whole number from 0 to 4294967295
stop --timeout 99999999999999999999|stop --timeout: '99999999999999999999' is not a whole number from 1 to 2147483
stop --timeout 0|stop --timeout: '0' is not a whole number from 1 to 2147483
stop --timeout 2147484|stop --timeout: '2147484' is not a whole number from 1 to 2147483
marker --pid 0 begin x|marker --pid: '0' is not a whole number from 1 to 2147483647
marker --tag 0 begin x|marker --tag: unknown tag '0': give a category with a userspace tag or ATRACE_TAG_* bits (1 to 0xfffffff)
marker counter x 99999999999999999999|marker counter VALUE: '99999999999999999999' is not a whole number from -9223372036854775808 to 9223372036854775807
marker async-begin x 2147483648|marker async-begin COOKIE: '2147483648' is not a whole number from -2147483648 to 2147483647
profile $work/cats.txt --thread -1|profile --thread: '-1' is not a whole number from 0 to 2147483647
profile $work/cats.txt --threshold 101|profile --threshold: '101' is not a whole number from 0 to 100
report $work/cats.txt --cpu 99999999999999999999|report --cpu: '99999999999999999999' is not a whole number from 0 to 1023
stop --instance -x|bad instance name '-x': an instance name starts with a letter, a digit or '_'
stop --instance ...|bad instance name '...': an instance name starts with a letter, a digit or '_'
stop ../x|bad session name '../x': 1 to 64 letters, digits, '_', '-' and '.', not starting with '.'
enable --instance .hidden $event|bad instance name '.hidden': an instance name starts with a letter, a digit or '_'
record --instance ... -e $event -o $work/n.dat|bad instance name '...': an instance name starts with a letter, a digit or '_'
status --instance -x|bad instance name '-x': an instance name starts with a letter, a digit or '_'
EOF2
expect [ $bad = 0 ]
expect [ ! -d "$TRACEFS/instances/..." ] && [ ! -d "$TRACEFS/instances/.hidden" ]
expect [ ! -e "$work/n.dat" ]
result numeric_options_and_names_range_checked

# An empty category file is said to be empty, not "no file loaded".
: > "$work/empty.txt"
within5 record -f "$work/empty.txt" -c mycat -t 100ms -o "$work/e.dat"
expect [ "$rc" = 1 ]
expect [ "$err" = "vtrace: error: unknown category 'mycat' (not a standard one, and $work/empty.txt defines no category: empty?)" ]
expect [ ! -e "$work/e.dat" ]
result empty_category_file_said_empty

# An instance another tool made, with an event it enabled and events it
# wrote there (exec of a program of ours: a filter keeps the count
# exact). A recording of another event clears the buffer and says how
# many events it held; the other tool's events of the recording are in
# the file with their format. --keep-buffer records those held before
# too. The instance, its event and filter stay as they were.
prog=$work/vt-safety-exec
cp /bin/true "$prog"
mkdir "$odir"
echo "filename == \"$prog\"" > "$odir/events/$event/filter"
echo 1 > "$odir/events/$event/enable"
# runs N: run the program N times.
runs() {
	n=0
	while [ $n -lt "$1" ]; do
		"$prog" 2> /dev/null
		n=$((n + 1))
	done
}
# record_other FILE ARGS...: a 1 s recording of sched_process_free in the
# other instance, with 2 runs during it; stderr in $work/rec.err.
record_other() {
	out=$1
	shift
	"$VTRACE" record --instance $other -e sched/sched_process_free \
		-t 1s -o "$out" "$@" 2> "$work/rec.err" &
	rpid=$!
	n=0
	until { grep -q sched_process_free "$odir/set_event" &&
		[ "$(cat "$odir/tracing_on")" = 1 ]; } || [ $n -gt 250 ]; do
		sleep 0.02
		n=$((n + 1))
	done
	runs 2
	wait $rpid
}
# execs FILE: the exec events of the program in FILE, per vtrace report.
execs() {
	"$VTRACE" report "$1" | grep -c "sched_process_exec: *filename=$prog "
}
runs 3
record_other "$work/cleared.dat" --json > "$work/cleared.json"
expect [ $? = 0 ]
expect grep -qx "vtrace: cleared first: 3 events instance $other held from before the recording (--keep-buffer records them)" "$work/rec.err"
expect [ "$(grep -o '"cleared":{[^}]*}' "$work/cleared.json")" = "\"cleared\":{\"instance\":\"$other\",\"events\":3}" ]
if [ "$reads_tracedat" ]; then
	expect [ "$(execs "$work/cleared.dat")" = 2 ]
	expect [ "$("$VTRACE" report "$work/cleared.dat" | grep -c 'UNKNOWN')" = 0 ]
fi
runs 3
record_other "$work/kept.dat" --keep-buffer --json > "$work/kept.json"
expect [ $? = 0 ]
expect [ "$(grep -c 'cleared first' "$work/rec.err")" = 0 ]
expect [ "$(grep -c '"cleared"' "$work/kept.json")" = 0 ]
[ -z "$reads_tracedat" ] || expect [ "$(execs "$work/kept.dat")" = 5 ]
if command -v trace-cmd > /dev/null; then
	expect [ "$(trace-cmd report "$work/kept.dat" 2> /dev/null | grep -c "sched_process_exec: *filename=$prog ")" = 5 ]
fi
expect [ "$(cat "$odir/set_event")" = "${event%/*}:${event#*/}" ]
expect [ "$(cat "$odir/events/$event/filter")" = "filename == \"$prog\"" ]
vt_run record --instance $other -e $event --keep-buffer -b 1024 -o "$work/k.dat"
expect [ "$rc" = 2 ]
expect [ "$err" = "vtrace: error: record --keep-buffer: -b would empty the buffer it is to keep" ]
result recording_another_tools_instance_says_what_it_cleared

# An event another tool enables in the recorded instance while it is
# recorded: its events are in the file, every one with its format (the
# format is checked in the file itself where no reader is). The other
# tool switches it off again before the stop; the recording's own event
# is another.
"$VTRACE" record --name late --instance $inst -e sched/sched_process_free \
	-o "$work/late.dat" 2> "$work/late.err" &
rpid=$!
expect vt_wait_recording "$idir"
echo "filename == \"$prog\"" > "$idir/events/$event/filter"
echo 1 > "$idir/events/$event/enable"
runs 4
echo 0 > "$idir/events/$event/enable"
vt_run stop late
expect [ "$rc" = 0 ]
wait $rpid
expect [ $? = 0 ]
expect [ "$(grep -a -c "name: ${event#*/}\$" "$work/late.dat")" = 1 ]
if [ "$reads_tracedat" ]; then
	expect [ "$(execs "$work/late.dat")" = 4 ]
	expect [ "$("$VTRACE" report "$work/late.dat" | grep -c 'UNKNOWN')" = 0 ]
fi
if command -v trace-cmd > /dev/null; then
	trace-cmd report "$work/late.dat" > "$work/late.txt" 2> /dev/null
	expect [ "$(grep -c "sched_process_exec: *filename=$prog " "$work/late.txt")" = 4 ]
	expect [ "$(grep -c 'UNKNOWN' "$work/late.txt")" = 0 ]
fi
result event_enabled_by_another_tool_mid_recording_has_its_format
