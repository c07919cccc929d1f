#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The userspace atrace tags from the command line, on this kernel's tracefs:
# vtrace enable/disable and vtrace record turn a category's tag on and off,
# vtrace marker writes atrace's lines only while its tag is on, and vtrace
# reset drops the tags of a recording that was killed. Every buffer used is
# a private instance; the state directory is a private one.

if [ -f "$(dirname "$0")/vtrace_test_lib.sh" ]; then
	. "$(dirname "$0")/vtrace_test_lib.sh"
else
	. "$(dirname "$0")/../vtrace_tool/vtrace_test_lib.sh"
fi

ktap_print_header
vt_require_root
if [ ! -d "$TRACEFS/instances" ] || [ ! -d "$TRACEFS/events/sched/sched_wakeup" ]; then
	ktap_skip_all "no tracefs with sched events at $TRACEFS"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 14

inst=vtrace_atrace_cli_$$
rec=vtrace_atrace_rec_$$
cats="$VT_TMP/categories.txt"
mkdir -p "$VTRACE_STATE_DIR"
printf 'gfx\n sched/sched_wakeup\nview\n sched/sched_waking\n' >"$cats"

cleanup() {
	"$VTRACE" disable --all --instance "$inst" >/dev/null 2>&1
	"$VTRACE" disable --all --instance "$rec" >/dev/null 2>&1
	vt_cleanup_tmp
}
trap cleanup EXIT

# markers - the text of the instance's tracing_mark_write events.
markers() {
	sed -n 's/.*tracing_mark_write: //p' "$TRACEFS/instances/$inst/trace"
}

vt_run enable -f "$cats" --instance "$inst" gfx
contains "$out" "enabled userspace atrace tags 0x2"
ok=$?
vt_run status --instance "$inst"
[ "$ok" = 0 ] && contains "$out" "userspace atrace tags: 0x3, markers to $inst"
vt_result enable_sets_the_category_tag $?

# vtrace marker writes for its parent, this shell.
"$VTRACE" marker begin 'a|b' && "$VTRACE" marker end &&
	"$VTRACE" marker counter c -5 &&
	"$VTRACE" marker -t gfx async-begin j 7 &&
	"$VTRACE" marker -t 2 async-end j 7
printf 'B|%s|a_b\nE|%s\nC|%s|c|-5\nS|%s|j|7\nF|%s|j|7\n' $$ $$ $$ $$ $$ \
	>"$VT_TMP/want"
markers >"$VT_TMP/got"
cmp -s "$VT_TMP/want" "$VT_TMP/got" || { diff "$VT_TMP/want" "$VT_TMP/got" | sed 's/^/# /'; false; }
vt_result marker_writes_each_kind_of_line $?

vt_run marker -t view begin x
[ "$rc" = 0 ] && [ "$(markers | wc -l)" = 5 ]
vt_result marker_of_a_disabled_tag_writes_nothing $?

ok=0
for args in "counter c x" "async-begin j 9999999999" "bogus" "-t nosuch begin x" \
	"begin" "end extra"; do
	# shellcheck disable=SC2086
	vt_run marker $args
	[ "$rc" = 2 ] || { echo "# marker $args: exit $rc"; ok=1; }
done
[ "$(markers | wc -l)" = 5 ] && [ "$ok" = 0 ]
vt_result marker_rejects_bad_arguments $?

vt_run disable -f "$cats" --instance "$inst" gfx
contains "$out" "disabled userspace atrace tags 0x2" &&
	"$VTRACE" marker begin y &&
	[ "$(markers | wc -l)" = 5 ] &&
	"$VTRACE" status --instance "$inst" | grep -q "userspace atrace tags: none enabled"
vt_result disable_clears_the_tag $?

# A recording holds its categories' tags while it runs.
"$VTRACE" record --background -c view --instance "$rec" -t 60s \
	-o "$VT_TMP/r.dat" >"$VT_TMP/bgpid" 2>"$VT_TMP/err"
rc=$?
pid=$(tr -dc 0-9 <"$VT_TMP/bgpid")
vt_run status
[ "$rc" = 0 ] && [ -n "$pid" ] &&
	contains "$out" "0x9 by the recording of $rec (pid $pid)"
vt_result record_holds_its_tags $?

vt_run stop --instance "$rec"
[ "$rc" = 0 ] && "$VTRACE" status | grep -q "userspace atrace tags: none enabled" &&
	[ ! -d "$TRACEFS/instances/$rec" ]
vt_result record_releases_them_and_removes_its_instance $?

# Killed, it cannot release them: reset does.
"$VTRACE" record --background -c view --instance "$rec" -t 60s \
	-o "$VT_TMP/r2.dat" >"$VT_TMP/bgpid" 2>"$VT_TMP/err"
pid=$(tr -dc 0-9 <"$VT_TMP/bgpid")
[ -n "$pid" ] && kill -KILL "$pid"
while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
vt_run status
contains "$out" "0x9 by the recording of $rec (pid $pid)"
vt_result killed_recording_leaves_its_tags $?

vt_run reset
[ "$rc" = 0 ] && contains "$out" "dropped the atrace tags of 1 recording no longer running" &&
	"$VTRACE" status | grep -q "userspace atrace tags: none enabled"
vt_result reset_drops_them $?
"$VTRACE" disable --all --instance "$rec" >/dev/null 2>&1

# record_markers ARGS... - record with ARGS for 2 s in $rec while three
# markers are written (view, gfx, then view), as vt_run leaves it.
record_markers() {
	"$VTRACE" record "$@" --instance "$rec" -t 2s --json \
		-o "$VT_TMP/print.dat" >"$VT_TMP/out" 2>"$VT_TMP/err" &
	recorder=$!
	i=0
	until "$VTRACE" status | grep -q "by the recording of $rec" ||
		[ $i = 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	"$VTRACE" marker -t view begin printed
	"$VTRACE" marker -t gfx begin graphics
	"$VTRACE" marker -t view end
	wait $recorder
	rc=$?
	out=$(cat "$VT_TMP/out")
	err=$(cat "$VT_TMP/err")
}

# ftrace/print has no enable file: it is recorded whenever tracing is on.
# Asked for alone, only ALWAYS is on: none of the three is recorded.
record_markers -e ftrace/print
[ "$rc" = 0 ] && contains "$err" "ftrace/print is always on" &&
	contains "$out" '"events":0,'
vt_result record_accepts_ftrace_print $?

# A userspace-only category: its tag's markers, as ftrace/print.
record_markers -c view
[ "$rc" = 0 ] && contains "$out" '"events":2,'
vt_result record_of_a_userspace_category_records_its_markers $?

# Two buffers: the markers go to the top level, and (Linux 6.17 on) the
# instance's recording gets them copied in.
if [ -f "$TRACEFS/instances/$inst/options/copy_trace_marker" ]; then
	"$VTRACE" enable --instance "$inst" view >/dev/null 2>&1
	record_markers -c view
	"$VTRACE" disable --instance "$inst" view >/dev/null 2>&1
	[ "$rc" = 0 ] && contains "$out" '"events":2,' &&
		[ "$(markers | grep -c printed)" = 0 ]
	vt_result overlapping_buffers_get_markers_copied $?
else
	ktap_test_skip "overlapping_buffers_get_markers_copied (no options/copy_trace_marker)"
fi

vt_run enable --instance "$inst" ftrace/print
[ "$rc" = 0 ] && contains "$out" "1 always on (no enable file)" &&
	contains "$err" "ftrace/print is always on"
vt_result enable_says_ftrace_print_is_always_on $?

printf 'markers\n ftrace/print\n' >"$VT_TMP/print.txt"
vt_run categories -f "$VT_TMP/print.txt" --instance "$inst"
echo "$out" | grep -q "^  ftrace/print  *always on$" &&
	"$VTRACE" status -f "$VT_TMP/print.txt" --instance "$inst" |
	grep -q "^  ftrace/print (always on)$"
vt_result categories_and_status_show_it_always_on $?

ktap_finished
