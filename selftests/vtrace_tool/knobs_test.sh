#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vtrace record where the kernel refuses tracefs knobs.  Each knob is made
# read-only alone, in a private mount namespace (a copy of the file bound
# over it, then remounted read-only), so the kernel's value stays as it is:
#  - a knob the recording only chose itself (sub-buffer size, wake-up mark,
#    clock, record-tgid): the recording succeeds with events, says once on
#    stderr and in --json which knob, why and the value in force;
#  - a knob the user asked for, or one no recording can do without
#    (-b, --clock, tracing_on, an event's enable file, a new instance): a
#    clear error naming it, exit status 1, nothing half-enabled;
#  - either way tracefs is the same before and after, and 'vtrace reset'
#    after a recording killed mid-way writes nothing the kernel refuses.
# Where the running kernel itself refuses buffer_subbuf_size_kb, that real
# refusal is checked too; kernels without the knob (before 6.8) say so
# only under -v.
#
# POSIX sh (the guests run busybox).

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
inst=vtrace_knobs_$$
idir=$TRACEFS/instances/$inst
top_tgid=

cleanup() {
	[ -n "$top_tgid" ] && echo "$top_tgid" > $TRACEFS/options/record-tgid
	vt_remove_instance "$idir"
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
vt_require_tracefs
if ! unshare -m true 2> /dev/null; then
	ktap_skip_all "no private mount namespaces (unshare -m)"
	exit "$KSFT_SKIP"
fi
mkdir "$idir"

ktap_set_plan 14

# state DIR - every setting a recording of DIR may touch, and what it
# enables.
state() {
	for f in buffer_size_kb trace_clock tracing_on buffer_percent \
		buffer_subbuf_size_kb options/record-tgid options/overwrite \
		tracing_cpumask set_event_pid set_event; do
		[ ! -e "$1/$f" ] || echo "$f: $(cat "$1/$f")"
	done
}

# both_states - the instance's and the top level's.
both_states() {
	state "$idir"
	state $TRACEFS
	ls $TRACEFS/instances
}

# value_of FILE - a knob as the kernel shows it: the selected clock alone
# for trace_clock, the first line of anything else.
value_of() {
	case $1 in
	*/trace_clock) sed -n 's/.*\[\(.*\)\].*/\1/p' "$1" ;;
	*) head -n 1 "$1" ;;
	esac
}

# ro_run FILE CMD... - CMD in a mount namespace of its own in which FILE
# (a tracefs file, which keeps the kernel's value, or a directory) is
# read-only.
ro_run() {
	ro_file=$1
	shift
	if [ -d "$ro_file" ]; then
		ro_copy=$ro_file
	else
		ro_copy=$work/knob
		cp "$ro_file" "$ro_copy"
	fi
	unshare -m sh -c 'mount --bind "$1" "$2" &&
		mount -o remount,bind,ro "$2" && shift 2 && exec "$@"' \
		sh "$ro_copy" "$ro_file" "$@"
}

# record_ro FILE ARGS... - vtrace record ARGS... with FILE read-only;
# sets $rc, $out (the --json summary) and $err.
record_ro() {
	ro_run "$@" > "$VT_TMP/out" 2> "$VT_TMP/err"
	rc=$?
	out=$(cat "$VT_TMP/out")
	err=$(cat "$VT_TMP/err")
}

# optional_knob NAME DIR KNOB ARGS... - a recording of DIR (the instance,
# or the top level) with DIR/KNOB read-only goes on and says so.
optional_knob() {
	name=$1 dir=$2 knob=$3
	shift 3
	if [ ! -e "$dir/$knob" ]; then
		ktap_test_skip "$name (no $knob on this kernel)"
		return
	fi
	using=$(value_of "$dir/$knob")
	both_states > "$work/before"
	record_ro "$dir/$knob" "$VTRACE" record "$@" -e sched/sched_switch \
		-t 300ms --json -o "$work/out.dat"
	both_states > "$work/after"
	expect [ "$rc" = 0 ]
	expect [ "$(json_num events "$VT_TMP/out")" -gt 0 ]
	expect [ "$(grep -c "^vtrace: warning: $knob not set" "$VT_TMP/err")" = 1 ]
	expect grep -qxF "vtrace: warning: $knob not set: Read-only file system; using $using" "$VT_TMP/err"
	expect contains "$out" "{\"knob\":\"$knob\",\"error\":\"EROFS\",\"using\":\"$using\"}"
	expect cmp -s "$work/before" "$work/after"
	[ "$(trace-cmd report "$work/out.dat" 2> /dev/null | grep -c sched_switch)" = \
		"$(json_num events "$VT_TMP/out")" ] ||
		! command -v trace-cmd > /dev/null || expect false "events in the file"
	result "$name"
}

# A new instance holds the kernel's defaults: 4 KB sub-buffers, unlike
# what a recording chooses (64 KB), so it is written; its buffer_percent
# is set to 30 first and its clock to global, unlike what a recording
# chooses (and must stay so; a trace.dat's clock is local).
optional_knob knob_readonly_subbuf_size_goes_on "$idir" \
	buffer_subbuf_size_kb --instance "$inst"
[ ! -e "$idir/buffer_percent" ] || echo 30 > "$idir/buffer_percent"
optional_knob knob_readonly_buffer_percent_goes_on "$idir" buffer_percent \
	--instance "$inst"
# -v says the readers are woken at the kernel's value, and never lowered.
if [ -e "$idir/buffer_percent" ]; then
	record_ro "$idir/buffer_percent" "$VTRACE" record --instance "$inst" \
		-e sched/sched_switch -t 300ms -v -o "$work/out.dat"
	expect [ "$rc" = 0 ]
	expect contains "$err" "sub-buffers, woken at the kernel's buffer_percent 30 (it refuses a change: not lowered under pressure); readers "
	expect grep -qxF "vtrace: wake-ups: buffer_percent 30 throughout (the kernel's: it refused a change)" "$VT_TMP/err"
	expect [ "$(cat "$idir/buffer_percent")" = 30 ]
	result knob_readonly_buffer_percent_told_by_verbose
else
	ktap_test_skip "knob_readonly_buffer_percent_told_by_verbose (no buffer_percent on this kernel)"
fi
echo global > "$idir/trace_clock"
optional_knob knob_readonly_trace_clock_goes_on "$idir" trace_clock \
	--instance "$inst"
echo local > "$idir/trace_clock"
# Instances have no record-tgid: the top level, with it off first.
if [ -e $TRACEFS/options/record-tgid ]; then
	top_tgid=$(cat $TRACEFS/options/record-tgid)
	echo 0 > $TRACEFS/options/record-tgid
fi
optional_knob knob_readonly_record_tgid_goes_on $TRACEFS options/record-tgid

# required_knob NAME FILE MESSAGE ARGS... - with FILE read-only, vtrace
# record ARGS... fails with MESSAGE and changes nothing.
required_knob() {
	name=$1 file=$2 message=$3
	shift 3
	both_states > "$work/before"
	rm -f "$work/req.dat"
	record_ro "$file" "$VTRACE" record "$@" -t 300ms -o "$work/req.dat"
	both_states > "$work/after"
	expect [ "$rc" = 1 ]
	expect grep -qF "vtrace: error: $message" "$VT_TMP/err"
	expect cmp -s "$work/before" "$work/after"
	expect [ -z "$(cat "$idir/set_event")" ]
	expect [ ! -e "$work/req.dat" ]
	result "$name"
}

required_knob knob_readonly_buffer_size_asked_for_fails \
	"$idir/buffer_size_kb" \
	"cannot set buffer_size_kb: Read-only file system" \
	--instance "$inst" -e sched/sched_switch -b 2048
required_knob knob_readonly_clock_asked_for_fails "$idir/trace_clock" \
	"cannot set trace_clock: Read-only file system" \
	--instance "$inst" -e sched/sched_switch --clock global
required_knob knob_readonly_tracing_on_fails "$idir/tracing_on" \
	"cannot set tracing_on: Read-only file system" \
	--instance "$inst" -e sched/sched_switch
# The first event is enabled before the second is refused: undone.
required_knob knob_readonly_event_enable_fails_nothing_half_enabled \
	"$idir/events/sched/sched_switch/enable" \
	"cannot enable sched/sched_switch: Read-only file system" \
	--instance "$inst" -e sched/sched_wakeup -e sched/sched_switch
required_knob knob_readonly_instances_new_instance_fails \
	"$TRACEFS/instances" \
	"cannot open tracefs instance 'vtrace_knobs_new_$$' in $TRACEFS: Read-only file system" \
	--instance "vtrace_knobs_new_$$" -e sched/sched_switch
expect [ ! -e "$TRACEFS/instances/vtrace_knobs_new_$$" ]
result "knob_readonly_instances_leaves_no_instance"

# A recording killed after a refused knob: its journal notes the old
# value, which 'vtrace reset' finds in place and does not write again.
if [ -e "$idir/buffer_subbuf_size_kb" ]; then
	both_states > "$work/before"
	cp "$idir/buffer_subbuf_size_kb" "$work/knob"
	unshare -m sh -c '
		mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" || exit 9
		pid=$("$3" record --instance "$4" -e sched/sched_switch \
			--background -o "$5/killed.dat" 2> "$5/rec.err") ||
			exit 8
		kill -9 "$pid"
		while [ -e "/proc/$pid" ]; do sleep 0.1; done
		exec "$3" reset' sh "$work/knob" "$idir/buffer_subbuf_size_kb" \
		"$VTRACE" "$inst" "$work" > "$VT_TMP/out" 2> "$VT_TMP/err"
	rc=$?
	err=$(cat "$VT_TMP/err")
	both_states > "$work/after"
	expect [ "$rc" = 0 ]
	expect cmp -s "$work/before" "$work/after"
	expect [ -z "$(cat "$idir/set_event")" ]
	expect [ -z "$err" ]
	expect grep -q "^restored" "$VT_TMP/out"
	result "knob_refused_then_killed_reset_writes_nothing_refused"
else
	ktap_test_skip "knob_refused_then_killed_reset_writes_nothing_refused (no buffer_subbuf_size_kb on this kernel)"
fi

# The running kernel's own refusal, where it has one.
sub=$idir/buffer_subbuf_size_kb
if [ ! -e "$sub" ]; then
	ktap_test_skip "knob_kernel_refuses_subbuf_size (no buffer_subbuf_size_kb on this kernel)"
elif (cat "$sub" > "$sub") 2> /dev/null; then
	ktap_test_skip "knob_kernel_refuses_subbuf_size (this kernel takes buffer_subbuf_size_kb writes)"
else
	ktap_print_msg "this kernel refuses writes to buffer_subbuf_size_kb"
	using=$(value_of "$sub")
	both_states > "$work/before"
	vt_run record --instance "$inst" -e sched/sched_switch -t 300ms \
		--json -o "$work/real.dat"
	both_states > "$work/after"
	expect [ "$rc" = 0 ]
	expect [ "$(json_num events "$VT_TMP/out")" -gt 0 ]
	expect grep -q "^vtrace: warning: buffer_subbuf_size_kb not set: .*; using $using\$" "$VT_TMP/err"
	expect contains "$out" "{\"knob\":\"buffer_subbuf_size_kb\",\"error\":\"E"
	expect cmp -s "$work/before" "$work/after"
	result "knob_kernel_refuses_subbuf_size"
fi

# A kernel without the knob at all (before 6.8): news for -v only.
if [ -e "$sub" ]; then
	ktap_test_skip "knob_missing_subbuf_size_told_by_verbose_only (this kernel has buffer_subbuf_size_kb)"
else
	vt_run record --instance "$inst" -e sched/sched_switch -t 300ms \
		-o "$work/old.dat"
	expect [ "$rc" = 0 ]
	expect [ "$(grep -c buffer_subbuf_size_kb "$VT_TMP/err")" = 0 ]
	vt_run record --instance "$inst" -e sched/sched_switch -t 300ms -v \
		--json -o "$work/old.dat"
	expect [ "$rc" = 0 ]
	expect contains "$err" "vtrace: buffer_subbuf_size_kb: not offered by this kernel"
	expect contains "$out" "{\"knob\":\"buffer_subbuf_size_kb\",\"error\":\"EOPNOTSUPP\",\"using\":\"\"}"
	result "knob_missing_subbuf_size_told_by_verbose_only"
fi

ktap_finished
