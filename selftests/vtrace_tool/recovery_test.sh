#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vtrace record never destroys what was there, and recovers from SIGKILL:
#  - a device, FIFO, directory or socket as the output is refused before
#    tracefs changes, and stays as it was;
#  - the file already at the output's name survives a recording that fails
#    or is killed (the new file is written under a temporary name and
#    renamed when complete), and so do FILE.cpuN files of others on ramfs;
#  - SIGKILL at each phase of a recording (set-up, streaming, final drain,
#    layout of the file, and in the layout step: after its first move's
#    step, after the first CPU's run is in place, after the header's
#    remainder but where the in-progress record is), on the work
#    directory's file system (ext4 on the host: runs collapsed), tmpfs
#    (runs moved down chunk by chunk) and ramfs (FILE.cpuN moved in): the
#    temporary file is left, 'vtrace recover' makes a trace.dat of it
#    holding everything that had reached it, saying how far the layout
#    step went, and 'vtrace reset' puts back every tracefs setting the
#    recording changed.
# The phases are stopping points of a test build (vtrace_phases, see
# tools/lib/vtrace/base/test-phase.h): the recorder stops itself there with
# SIGSTOP and is killed while stopped, so nothing depends on timing.

# In the guests, without /proc/kallsyms (vtrace_test_lib.sh).
vt_hide_kallsyms=1
. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
PHASES=${VTRACE_PHASES_BIN:-$here/vtrace_phases}
work=$VT_TMP
inst=vtrace_recov_test_$$
idir=$TRACEFS/instances/$inst
phases="setup streaming drain layout layout-step layout-moved layout-header"
filesystems="work tmpfs ramfs"
marks=300
# A kilobyte before each marker: CPU 0's run (about 100 sub-buffers)
# takes several chunks to move down where they are as far apart as the
# header's reserve.
pad=$(printf '%01000d' 0)

mounted() {
	grep -q " $1 " /proc/mounts
}

cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2> /dev/null
	if [ -d "$idir" ]; then
		echo 0 > "$idir/events/enable"
		rmdir "$idir"
	fi
	for fs in tmpfs ramfs small; do
		mounted "$work/$fs" && umount "$work/$fs"
	done
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
vt_require_tracefs
have_trace_cmd=0
command -v trace-cmd > /dev/null && have_trace_cmd=1

ktap_set_plan $((6 + 7 * 3))

# The instance the recordings use is made by the test and kept, so that
# its settings can be compared across a recording.
mkdir "$idir" || exit 1

# wait_tracing - until the instance records (tracing on, event enabled).
wait_tracing() {
	until [ "$(cat "$idir/tracing_on")" = 1 ] &&
	      grep -q sched_switch "$idir/set_event"; do
		kill -0 "$pid" 2> /dev/null || return 1
		sleep 0.02
	done
}

# write_marks N - markers 1..N into the instance, from one CPU.
write_marks() {
	taskset 1 sh -c 'i=1; while [ $i -le '"$1"' ]; do
		echo "'"$pad"' vtrace-recov $i" > '"$idir"'/trace_marker
		i=$((i + 1)); done'
}

# marks_in_data FILE - the markers' numbers as FILE's bytes hold them, in
# file order (no trace-cmd needed: each is once in a recovered file).
marks_in_data() {
	tr '\000' '\n' < "$1" | grep -o 'vtrace-recov [0-9]*' |
		sed 's/.* //'
}

# layout_kind DIR - how the layout step puts the runs together there.
layout_kind() {
	case $(stat -f -c %T "$1") in
	ext2/ext3 | ext4 | xfs | f2fs) echo collapse ;;
	tmpfs | btrfs) echo chunks ;;
	ramfs) echo files ;;
	*) echo unknown ;;
	esac
}

# layout_state KIND PHASE - what recover must say of the layout step.
layout_state() {
	case $2 in
	layout-step)
		case $1 in
		collapse) echo "1 of" ;; # the collapse is done, not recorded
		chunks) echo "0 of" ;;
		files) echo "0 of" ;; # the chunk is in both files
		esac
		;;
	layout-moved) echo "1 of" ;;
	layout-header) echo "all" ;;
	esac
}

marks_in() {
	trace-cmd report "$1" 2> /dev/null | grep -c 'vtrace-recov [0-9]'
}

# marks_are_prefix FILE N - the markers in FILE are 1..N, in order: what
# reached the file is all of what came first.
marks_are_prefix() {
	trace-cmd report "$1" 2> /dev/null |
		sed -n 's/.*vtrace-recov \([0-9]*\)$/\1/p' > "$work/marks"
	seq 1 "$2" | cmp -s - "$work/marks"
}

# --- outputs that are not regular files ------------------------------------
before=$(settings_of "$idir")
mknod "$work/full" c 1 7
"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 200ms \
	-o "$work/full" > /dev/null 2> "$work/err"
rc=$?
expect [ $rc = 1 ]
expect grep -q "full is not a regular file" "$work/err"
expect [ -c "$work/full" ]
expect [ "$(settings_of "$idir")" = "$before" ]
result "device_output_refused_and_kept"

mkfifo "$work/fifo"
timeout 10 "$VTRACE" record --instance "$inst" -e sched/sched_switch \
	-t 200ms -o "$work/fifo" > /dev/null 2> "$work/err"
rc=$?
expect [ $rc = 1 ]
expect grep -q "fifo is not a regular file" "$work/err"
expect [ -p "$work/fifo" ]
mkdir "$work/dir" && : > "$work/dir/mine"
"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 200ms \
	-o "$work/dir" > /dev/null 2>> "$work/err"
expect [ $? = 1 ]
expect grep -q "dir is not a regular file" "$work/err"
expect [ -f "$work/dir/mine" ]
expect [ "$(ls -A "$work/dir")" = mine ]
expect [ "$(settings_of "$idir")" = "$before" ]
result "fifo_and_directory_outputs_refused_and_kept"

# --- the previous file survives --------------------------------------------
# A file system too small for the recording's metadata: the set-up fails.
mkdir -p "$work/small" && mount -t tmpfs -o size=256k none "$work/small"
head -c 65536 /dev/urandom > "$work/old"
cp "$work/old" "$work/small/old.dat"
"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 200ms \
	-o "$work/small/old.dat" > /dev/null 2> "$work/err"
rc=$?
expect [ $rc = 1 ]
expect cmp -s "$work/old" "$work/small/old.dat"
expect [ "$(ls -A "$work/small")" = old.dat ]
expect [ "$(settings_of "$idir")" = "$before" ]
result "previous_file_survives_a_failed_recording"
umount "$work/small"

# On ramfs (no sparse files) the data goes to FILE.cpuN while recording:
# files of those names that were there are not touched.
mkdir -p "$work/ramfs" && mount -t ramfs none "$work/ramfs"
cp "$work/old" "$work/ramfs/t.dat"
echo other0 > "$work/ramfs/t.dat.cpu0"
echo other1 > "$work/ramfs/t.dat.cpu1"
"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 200ms \
	-o "$work/ramfs/t.dat" > /dev/null 2> "$work/err"
rc=$?
expect [ $rc = 0 ]
expect [ "$(cat "$work/ramfs/t.dat.cpu0")" = other0 ]
expect [ "$(cat "$work/ramfs/t.dat.cpu1")" = other1 ]
expect [ "$(ls -A "$work/ramfs" | wc -l)" = 3 ]
if [ $have_trace_cmd = 1 ]; then
	expect trace-cmd report "$work/ramfs/t.dat" > /dev/null 2>&1
fi
result "ramfs_cpu_files_of_others_kept"
umount "$work/ramfs"

# --- SIGKILL at each phase, on each file system -------------------------
# What each phase must keep: set-up, nothing yet (a valid, empty trace);
# streaming, at least the first sub-buffer (events or not), and of the
# markers the first ones, in order;
# drain and layout, every marker written (tracing was off, all read).
#
# kill_at PHASE DIR - record into DIR/k.dat (where an older k.dat is),
# SIGKILL at PHASE, recover; sets $partial, $rec_out, $rc.
kill_at() {
	cp "$work/old" "$2/k.dat"
	VTRACE_STOP_AT=$1 "$PHASES" record --instance "$inst" \
		-e sched/sched_switch -o "$2/k.dat" > /dev/null 2> "$work/err" &
	pid=$!
	case $1 in
	setup)
		;;
	streaming)
		wait_tracing && write_marks $marks
		;;
	*)
		wait_tracing && write_marks $marks && kill -INT $pid
		;;
	esac
	vt_wait_stopped $pid
	kill -KILL $pid
	wait $pid 2> /dev/null
	pid=
	partial=$(ls "$2"/.k.dat.?????? 2> /dev/null)
	"$VTRACE" recover "$partial" -o "$2/rec.dat" > "$work/rec_out" \
		2>> "$work/err"
	rc=$?
}

work_type=$(stat -f -c %T "$work")
for fs in $filesystems; do
	# A guest's work directory is tmpfs already: a second pass on a
	# tmpfs of its own would repeat the first.
	if [ "$fs" = tmpfs ] && [ "$work_type" = tmpfs ]; then
		for phase in $phases; do
			ktap_test_skip "sigkill_at_${phase}_${fs}_recovered_and_reset (the work directory is tmpfs: its pass covers it)"
		done
		continue
	fi
	dir=$work
	if [ "$fs" != work ]; then
		dir=$work/$fs
		mkdir -p "$dir" && mount -t "$fs" none "$dir"
	fi
	kind=$(layout_kind "$dir")
	for phase in $phases; do
		before=$(settings_of "$idir")
		kill_at $phase "$dir"
		expect [ -f "$partial" ]
		expect cmp -s "$work/old" "$dir/k.dat"
		expect [ $rc = 0 ]
		subbufs=$(sed -n 's/^recovered \([0-9]*\) sub-buffers.*/\1/p' \
			"$work/rec_out")
		ncpus=$(grep -c '^  cpu[0-9]*: ' "$work/rec_out")
		case $phase in
		setup) expect [ "$subbufs" = 0 ] ;;
		*) expect [ "$subbufs" -gt 0 ] ;;
		esac
		moved=$(sed -n "s/^killed in the layout step: \([0-9]* of\) $ncpus CPUs' runs in place$/\1/p" \
			"$work/rec_out")
		half=$(grep -c "^  cpu0's run half moved: [1-9][0-9]* of " \
			"$work/rec_out")
		case $phase in
		layout-*)
			want=$(layout_state $kind $phase)
			[ "$want" = all ] && want="$ncpus of"
			[ $kind = unknown ] || expect [ "$moved" = "$want" ]
			expect [ $half = $([ $kind$phase = chunkslayout-step ] &&
				echo 1 || echo 0) ]
			;;
		*) expect [ -z "$moved" ] ;;
		esac
		marks_in_data "$dir/rec.dat" > "$work/data_marks"
		n=$(wc -l < "$work/data_marks")
		case $phase in
		setup) seq 1 0 > "$work/want_marks" ;;
		streaming) seq 1 "$n" > "$work/want_marks" ;;
		*) seq 1 $marks > "$work/want_marks" ;;
		esac
		expect cmp -s "$work/want_marks" "$work/data_marks"
		if [ $have_trace_cmd = 1 ]; then
			expect trace-cmd report "$dir/rec.dat" > /dev/null 2>&1
			n=$(marks_in "$dir/rec.dat")
			case $phase in
			setup) expect [ "$n" = 0 ] ;;
			streaming) expect marks_are_prefix "$dir/rec.dat" "$n" ;;
			*) expect marks_are_prefix "$dir/rec.dat" $marks ;;
			esac
		fi
		"$VTRACE" reset > "$work/reset_out" 2>> "$work/err"
		expect [ $? = 0 ]
		expect grep -q "$partial" "$work/reset_out"
		expect [ "$(settings_of "$idir")" = "$before" ]
		expect [ -z "$(cat "$idir/set_event")" ]
		rm -f "$partial" "$partial".cpu* "$dir/rec.dat"
		result "sigkill_at_${phase}_${fs}_recovered_and_reset"
	done
	[ "$fs" != work ] && umount "$dir"
done

# The output's name a partial file records is the file's, not the
# user's: one that is no plain file name (control characters, empty) is
# refused, shown escaped, and nothing is created.
before=$(settings_of "$idir")
mkdir -p "$work/hostile"
kill_at setup "$work/hostile"
rm -f "$work/hostile/rec.dat"
"$VTRACE" reset > /dev/null 2>> "$work/err"
# set_name NAME - the name field of $partial's in-progress record (at a
# 4096-byte boundary; the name after the magic, the CPUs, the page size,
# two offsets and the clock). In sh and dd: the guests have no python3.
set_name() {
	blocks=$(( $(wc -c < "$partial") / 4096 ))
	at= b=0
	while [ $b -lt $blocks ]; do
		magic=$(dd if="$partial" bs=4096 skip=$b count=1 2> /dev/null |
			head -c 16)
		[ "$magic" = vtrace-partial-2 ] && at=$(( b * 4096 + 72 ))
		b=$((b + 1))
	done
	[ -n "$at" ] || return 1
	dd if=/dev/zero of="$partial" bs=1 seek=$at count=256 \
		conv=notrunc 2> /dev/null &&
	printf '%s' "$1" | dd of="$partial" bs=1 seek=$at conv=notrunc \
		2> /dev/null
}
for name in "$(printf '\n\033[31mRED')" ""; do
	expect set_name "$name"
	ls -a "$work/hostile" > "$work/ls_before"
	"$VTRACE" recover "$partial" > /dev/null 2> "$work/rec_err"
	expect [ $? = 1 ]
	if [ -n "$name" ]; then
		want="the name it records for its output ('\\x0a\\x1b[31mRED')"
	else
		want="the name it records for its output ('')"
	fi
	expect contains "$(cat "$work/rec_err")" "$want is not a file name vtrace gives; name the output with -o"
	# Nothing but printable text reaches the terminal.
	expect [ "$(tr -d '\n -~' < "$work/rec_err" | wc -c)" = 0 ]
	ls -a "$work/hostile" > "$work/ls_after"
	expect cmp -s "$work/ls_before" "$work/ls_after"
done
expect set_name k.dat
rm -f "$work/hostile/k.dat"
"$VTRACE" recover "$partial" > /dev/null 2>> "$work/err"
expect [ $? = 0 ]
expect [ -s "$work/hostile/k.dat" ]
rm -rf "$work/hostile"
expect [ "$(settings_of "$idir")" = "$before" ]
result recover_refuses_a_recorded_name_that_is_no_file_name

# A recovered file has no saved_cmdlines (the kernel's are not the
# recording's by then): a slice's thread is named as the recording's own
# sched_switch events saw it, here the sh that wrote the markers. The
# guests' vtrace is a static build, which reads no trace.dat.
name=recovered_file_names_threads_from_sched_switch
: > "$work/empty.dat"
case $("$VTRACE" slices "$work/empty.dat" 2>&1) in
*"static build"*)
	ktap_test_skip "$name (a static build reads no trace.dat)"
	ktap_finished
	exit
	;;
esac
before=$(settings_of "$idir")
cp "$work/old" "$work/n.dat"
VTRACE_STOP_AT=drain "$PHASES" record --instance "$inst" \
	-e sched/sched_switch -o "$work/n.dat" > /dev/null 2> "$work/err" &
pid=$!
wait_tracing &&
	taskset 1 sh -c 'echo "B|$$|vtrace-recov-slice" > "$1/trace_marker" &&
		echo "E|$$" > "$1/trace_marker" && echo $$' sh "$idir" \
		> "$work/shpid" &&
	kill -INT $pid
vt_wait_stopped $pid
kill -KILL $pid
wait $pid 2> /dev/null
pid=
partial=$(ls "$work"/.n.dat.?????? 2> /dev/null)
"$VTRACE" recover "$partial" -o "$work/nrec.dat" > /dev/null 2>> "$work/err"
expect [ $? = 0 ]
"$VTRACE" slices "$work/nrec.dat" > "$work/slices" 2>> "$work/err"
expect [ $? = 0 ]
expect grep -qE "^ +sh-$(cat "$work/shpid") +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{3} +vtrace-recov-slice$" \
	"$work/slices"
"$VTRACE" reset > /dev/null 2>> "$work/err"
expect [ $? = 0 ]
expect [ "$(settings_of "$idir")" = "$before" ]
rm -f "$partial" "$work/nrec.dat"
[ $ok = 1 ] || sed "s/^/# /" "$work/slices"
result "$name"

ktap_finished
