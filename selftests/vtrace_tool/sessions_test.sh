#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Recording sessions on this kernel's tracefs: concurrent sessions in
# separate instances record independently, with exact counts; vtrace
# sessions --json has its exact shape; a taken name is refused in
# Perfetto's words; many recordings started at once on one instance: one
# wins; vtrace stop never signals a process that is not the recorder (a
# pid reused after a SIGKILL, a fake entry); Perfetto's exclusive sessions
# in each ordering, an aborted session finishing cleanly (complete file,
# settings back, "aborted" in its summary, exit status 3).
#
# POSIX sh (the guests run busybox). Markers written to each instance's
# trace_marker are the events: each recording enables an event whose
# filter matches nothing, so its count is the marker count.

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
i1=vtrace_ses1_$$
i2=vtrace_ses2_$$
i3=vtrace_ses3_$$
i4=vtrace_ses4_$$
event=sched/sched_process_exec
racers=10
rounds=3
burst=/sys/kernel/debug/vtrace/burst

cleanup() {
	"$VTRACE" stop --all > /dev/null 2>&1
	for i in $i1 $i2 $i3 $i4; do
		d=$TRACEFS/instances/$i
		[ -d "$d" ] || continue
		echo 0 > "$d/events/enable"
		echo 0 > "$d/events/$event/filter"
		rmdir "$d"
	done
	[ -n "$bystander" ] && kill "$bystander" 2> /dev/null
	[ -n "$holder" ] && pkill -P "$holder" sleep
	[ -n "$pub" ] && rm -rf "$pub"
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
vt_require_tracefs
have_trace_cmd=0
command -v trace-cmd > /dev/null && have_trace_cmd=1

ktap_set_plan 19

# An instance whose recordings see nothing but markers.
for i in $i1 $i2 $i3; do
	mkdir "$TRACEFS/instances/$i"
	echo 'common_pid < 0' > "$TRACEFS/instances/$i/events/$event/filter"
done

# markers INSTANCE N: N markers, one write each.
markers() {
	seq 1 "$2" | while read -r n; do
		echo "vtrace-session-$n"
	done > "$TRACEFS/instances/$1/trace_marker"
}

markers_in() {
	trace-cmd report "$1" 2> /dev/null | grep -c 'vtrace-session-[0-9]'
}

# wait_recording INSTANCE: until a recording has turned tracing on there.
wait_recording() {
	n=0
	until grep -qx "${event%/*}:${event#*/}" "$TRACEFS/instances/$1/set_event" 2> /dev/null &&
	      [ "$(cat "$TRACEFS/instances/$1/tracing_on")" = 1 ]; do
		n=$((n + 1))
		[ $n -gt 200 ] && return 1
		sleep 0.05
	done
}

# record NAME INSTANCE ARGS...: a recording in the background of this
# shell; its pid in $pid, its stdout/stderr in $work/NAME.out/.err.
record() {
	name=$1 inst=$2
	shift 2
	"$VTRACE" record --name "$name" --instance "$inst" -e $event \
		-b 1024 --json -o "$work/$name.dat" "$@" \
		> "$work/$name.out" 2> "$work/$name.err" &
	pid=$!
}

# session_events NAME: the events count "vtrace sessions --json" shows.
session_events() {
	"$VTRACE" sessions --json |
		sed -n 's/.*{"name":"'"$1"'",[^}]*"events":\([0-9]*\).*/\1/p'
}

# wait_events NAME: until the session has published events (whole
# sub-buffers are read while recording, the rest at the end).
wait_events() {
	n=0
	until [ "$(session_events "$1")" -gt 0 ]; do
		n=$((n + 1))
		[ $n -gt 100 ] && return 1
		sleep 0.1
	done
}

vt_run sessions --json
expect [ "$rc" = 0 ]
expect [ "$out" = '{"sessions":[]}' ]
result sessions_json_empty

# Three sessions side by side, each in its own instance, exact counts,
# listed with the exact shape while they run.
record a $i1
pa=$pid
record b $i2
pb=$pid
record c $i3
pc=$pid
for i in $i1 $i2 $i3; do
	expect wait_recording $i
done
markers $i1 3000
markers $i2 4000
markers $i3 5000
expect wait_events a
expect wait_events b
expect wait_events c
vt_run sessions --json
shape=$(echo "$out" | sed 's/"events":[1-9][0-9]*/"events":N/g; s/"bytes":[1-9][0-9]*/"bytes":B/g; s/"started_ns":[1-9][0-9]*/"started_ns":T/g; s/\/\.\([abc]\)\.dat\.[A-Za-z0-9]\{6\}"/\/.\1.dat.XXXXXX"/g')
want='{"sessions":['
for entry in "a $pa $i1" "b $pb $i2" "c $pc $i3"; do
	# shellcheck disable=SC2086 # the words are the fields
	set -- $entry
	want="$want{\"name\":\"$1\",\"pid\":$2,\"instance\":\"$3\",\"exclusive_prio\":0,\"events\":N,\"bytes\":B,\"output\":\"$work/$1.dat\",\"partial\":\"$work/.$1.dat.XXXXXX\",\"started_ns\":T},"
done
want="${want%,}]}"
expect [ "$shape" = "$want" ]
[ "$shape" = "$want" ] || ktap_print_msg "got $out"
# The temporary file each is written as is there until the end, and the
# text listing names it after the output.
partial_a=$(echo "$out" | sed 's/.*"name":"a",[^}]*"partial":"\([^"]*\)".*/\1/')
expect [ -f "$partial_a" ]
vt_run sessions
expect [ "$rc" = 0 ]
expect contains "$out" " $work/a.dat (written as $partial_a until the end)
"
result sessions_json_lists_three_sessions_exact_shape

vt_run stop b
expect [ "$rc" = 0 ]
wait $pb
rc=$?
expect [ $rc = 0 ]
expect [ "$(json_num events "$work/b.out")" = 4000 ]
vt_run stop --all
expect [ "$rc" = 0 ]
wait $pa
expect [ $? = 0 ]
wait $pc
expect [ $? = 0 ]
expect [ "$(json_num events "$work/a.out")" = 3000 ]
expect [ "$(json_num events "$work/c.out")" = 5000 ]
expect grep -q '"session":"a"' "$work/a.out"
if [ $have_trace_cmd = 1 ]; then
	expect [ "$(markers_in "$work/a.dat")" = 3000 ]
	expect [ "$(markers_in "$work/b.dat")" = 4000 ]
	expect [ "$(markers_in "$work/c.dat")" = 5000 ]
fi
vt_run sessions --json
expect [ "$out" = '{"sessions":[]}' ]
expect [ ! -e "$partial_a" ]
result three_concurrent_sessions_record_independently_exact_counts

# A running session's name is refused, in Perfetto's words, before
# anything in tracefs changes.
record same $i1
p1=$pid
expect wait_recording $i1
before=$(settings_of "$TRACEFS/instances/$i2")
vt_run record --name same --instance $i2 -e $event -t 1s -o "$work/same2.dat"
expect [ "$rc" = 1 ]
expect [ "$err" = "vtrace: error: A trace with this unique session name (same) already exists" ]
expect [ ! -e "$work/same2.dat" ]
expect [ "$(settings_of "$TRACEFS/instances/$i2")" = "$before" ]
"$VTRACE" stop same > /dev/null
wait $p1
result name_collision_refused_with_perfetto_wording

# The same buffer: refused, naming the session that has it.
record holder $i1
p1=$pid
expect wait_recording $i1
vt_run record --instance $i1 -e $event -t 1s -o "$work/busy.dat"
expect [ "$rc" = 1 ]
expect contains "$err" "tracefs is busy: session holder (pid $p1) is already recording instance $i1; end it with 'vtrace stop holder'"
"$VTRACE" stop holder > /dev/null
wait $p1
result same_instance_refused_names_holder

# Many recordings started at once on one instance: exactly one runs, in
# each round.
mkfifo "$work/go"
round=0 rounds_ok=0
while [ $round -lt $rounds ]; do
	n=0
	while [ $n -lt $racers ]; do
		(read -r _ < "$work/go"
		 exec "$VTRACE" record --instance $i1 -e $event -t 2s \
			-o "$work/race$n.dat" > /dev/null 2> "$work/race$n.err"
		 ) &
		eval "racer$n=\$!"
		n=$((n + 1))
	done
	sleep 0.5
	: > "$work/go" # opening it for writing lets every reader go at once
	won=0 busy=0 n=0
	while [ $n -lt $racers ]; do
		eval "wait \$racer$n"
		r=$?
		if [ $r = 0 ]; then
			won=$((won + 1))
		elif [ $r = 1 ] && grep -q "tracefs is busy: session vtrace-" "$work/race$n.err"; then
			busy=$((busy + 1))
		else
			ktap_print_msg "racer $n: status $r: $(cat "$work/race$n.err")"
		fi
		n=$((n + 1))
	done
	expect [ $won = 1 ]
	expect [ $busy = $((racers - 1)) ]
	[ $won = 1 ] && [ $busy = $((racers - 1)) ] && rounds_ok=$((rounds_ok + 1))
	round=$((round + 1))
done
result "many_recordings_at_once_one_wins ($rounds_ok of $rounds rounds: 1 ran, $((racers - 1)) refused)"

# After a SIGKILL, the recorder's pid given to another process: vtrace
# stop does not signal it.
record killed $i2
pk=$pid
expect wait_recording $i2
kill -KILL $pk
wait $pk 2> /dev/null
echo 0 > "$TRACEFS/instances/$i2/events/enable"
echo 1 > "$TRACEFS/instances/$i2/tracing_on"
bystander=
reused=0
if [ -w /proc/sys/kernel/ns_last_pid ]; then
	tries=0
	while [ $tries -lt 20 ]; do
		echo $((pk - 1)) > /proc/sys/kernel/ns_last_pid
		sleep 30 &
		bystander=$!
		[ "$bystander" = "$pk" ] && { reused=1; break; }
		kill $bystander
		wait $bystander 2> /dev/null
		bystander=
		tries=$((tries + 1))
	done
fi
vt_run stop killed
expect [ "$rc" = 1 ]
expect [ "$err" = "vtrace: error: no session 'killed' is running" ]
if [ $reused = 1 ]; then
	expect kill -0 "$bystander"
	kill $bystander
	wait $bystander 2> /dev/null
	bystander=
fi
# The session is gone from the list, and its name can be used again.
vt_run sessions --json
expect [ "$out" = '{"sessions":[]}' ]
record killed $i2 -t 300ms
wait $pid
expect [ $? = 0 ]
what="pid $pk reused"
[ $reused = 1 ] || what="pid reuse not arranged: ns_last_pid"
result "stop_after_sigkill_never_signals_pid_reuser ($what)"

# A fake entry whose lock is held (so it looks alive) naming a live
# process that is no recorder: not signalled.
if ! command -v flock > /dev/null; then
	ktap_test_skip "stop_fake_entry_not_signalled (no flock(1))"
else
	sleep 30 &
	bystander=$!
	st=$VTRACE_STATE_DIR
	cat > "$st/session-fake.session" <<-EOF
	name=fake
	pid=$bystander
	start_time=1
	exe=1:1
	boot_id=$(cat /proc/sys/kernel/random/boot_id)
	output=x
	EOF
	# -o: flock(1) holds the lock itself, not the command it runs, so
	# the lock goes with it.
	flock -o "$st/session-fake.lock" sleep 30 &
	locker=$!
	sleep 0.3
	vt_run stop fake
	expect [ "$rc" = 1 ]
	expect [ "$err" = "vtrace: error: session fake: pid $bystander is not its recorder any more; not signalled" ]
	expect kill -0 "$bystander"
	kill $locker $bystander
	wait $locker $bystander 2> /dev/null
	bystander=
	vt_run sessions --json
	expect [ "$out" = '{"sessions":[]}' ]
	result stop_fake_entry_not_signalled
fi

# Exclusive sessions. Plain sessions, then an exclusive one: the plain
# ones are aborted and finish cleanly; one made its instance, which goes.
before=$(settings_of "$TRACEFS/instances/$i1")
record plain $i1 -b 2048 --clock global
pp=$pid
expect wait_recording $i1
record made $i4
pm=$pid
expect wait_recording $i4
markers $i1 50
sleep 0.2
record ex5 $i2 --exclusive-prio 5
pe=$pid
expect wait_recording $i2
wait $pp
rc=$?
expect [ $rc = 3 ]
wait $pm
expect [ $? = 3 ]
expect [ ! -d "$TRACEFS/instances/$i4" ]
expect grep -q '"aborted":"higher-priority (5) exclusive session ex5"' "$work/made.out"
expect grep -q '"aborted":"higher-priority (5) exclusive session ex5"' "$work/plain.out"
expect grep -qx 'vtrace: session plain aborted: higher-priority (5) exclusive session ex5' "$work/plain.err"
expect [ "$(json_num events "$work/plain.out")" = 50 ]
expect [ "$(settings_of "$TRACEFS/instances/$i1")" = "$before" ]
[ $have_trace_cmd = 1 ] &&
	expect [ "$(markers_in "$work/plain.dat")" = 50 ]
result exclusive_aborts_plain_session_which_finishes_cleanly_exit_3

# While it runs: plain, equal and lower priorities are refused.
for m in 0 5 4; do
	vt_run record --name try$m --instance $i3 -e $event -t 1s \
		--exclusive-prio $m -o "$work/try$m.dat"
	expect [ "$rc" = 1 ]
	expect [ "$err" = "vtrace: error: An exclusive session with priority 5 >= requested priority $m is already active." ]
	expect [ ! -e "$work/try$m.dat" ]
done
expect [ "$(session_events ex5)" = 0 ]
result exclusive_refuses_plain_equal_and_lower

# A higher one aborts it in turn.
record ex6 $i3 --exclusive-prio 6
p6=$pid
expect wait_recording $i3
wait $pe
rc=$?
expect [ $rc = 3 ]
expect grep -q '"aborted":"higher-priority (6) exclusive session ex6"' "$work/ex5.out"
vt_run sessions --json
expect contains "$out" "{\"name\":\"ex6\",\"pid\":$p6,\"instance\":\"$i3\",\"exclusive_prio\":6,"
vt_run stop ex6
expect [ "$rc" = 0 ]
wait $p6
expect [ $? = 0 ]
result higher_exclusive_aborts_lower_exclusive

# Once no exclusive session runs, any session starts again.
vt_run record --name after --instance $i1 -e $event -t 300ms -o "$work/after.dat"
expect [ "$rc" = 0 ]
vt_run record --name bad.name/x --instance $i1 -e $event -t 300ms -o "$work/x.dat"
expect [ "$rc" = 2 ]
expect contains "$err" "bad session name 'bad.name/x'"
result plain_session_starts_after_exclusive_ended

# vtrace stop without a name: the only session running; with two (none
# on the top level buffer) it asks which; with none it says so.
record one $i1
p1=$pid
record two $i2
p2=$pid
expect wait_recording $i1
expect wait_recording $i2
vt_run stop
expect [ "$rc" = 1 ]
expect [ "$err" = "vtrace: error: 2 sessions are running, none on the top level buffer: name one (see 'vtrace sessions') or use --all" ]
"$VTRACE" stop two > /dev/null
wait $p2
vt_run stop
expect [ "$rc" = 0 ]
wait $p1
expect [ $? = 0 ]
vt_run stop
expect [ "$rc" = 1 ]
expect [ "$err" = "vtrace: error: no session is running" ]
vt_run stop --all
expect [ "$rc" = 0 ]
result stop_without_a_name

# Exclusive sessions are root's: refused to another user, before the
# state directory or tracefs is looked at.
if ! setpriv --reuid=65534 --regid=65534 --clear-groups true 2> /dev/null; then
	ktap_test_skip "exclusive_needs_root (no setpriv --reuid)"
else
	setpriv --reuid=65534 --regid=65534 --clear-groups "$VTRACE" record \
		--exclusive-prio 3 -e $event -t 300ms -o /dev/null \
		2> "$work/err"
	rc=$?
	expect [ "$rc" = 1 ]
	expect [ "$(cat "$work/err")" = "vtrace: error: an exclusive session (exclusive_prio 3) may only be started by root" ]
	result exclusive_needs_root
fi

# A state directory others may write to, or a symbolic link, is not
# trusted: nothing is recorded, nothing in tracefs changes.
before=$(settings_of "$TRACEFS/instances/$i1")
mkdir "$work/open"
chmod 777 "$work/open"
ln -s "$work/open" "$work/link"
for dir in open link; do
	# (not vt_run: an assignment before a function may outlive it)
	VTRACE_STATE_DIR=$work/$dir "$VTRACE" record --instance $i1 \
		-e $event -t 300ms -o "$work/untrusted.dat" 2> "$work/err"
	rc=$?
	err=$(cat "$work/err")
	expect [ "$rc" = 1 ]
	why="others may write to it"
	[ $dir = link ] && why="not a directory (or a symbolic link)"
	expect [ "$err" = "vtrace: error: cannot register the session: state directory $work/$dir is not trusted: $why" ]
done
expect [ ! -e "$work/untrusted.dat" ]
expect [ "$(settings_of "$TRACEFS/instances/$i1")" = "$before" ]
result untrusted_state_dir_refused

# The shared lock files are root's alone (flock works on a descriptor
# opened read-only, so a file others can open is a lock others can hold);
# one an older vtrace left 0644 is made 0600. In a state directory others
# can reach, unlike the test's own.
pub=$(mktemp -d /tmp/vtrace-locks.XXXXXX)
chmod 755 "$pub"
: > "$pub/atrace-tags.lock"
chmod 644 "$pub/atrace-tags.lock"
VTRACE_STATE_DIR=$pub "$VTRACE" record --instance $i1 -c view -e $event \
	-t 300ms -o "$work/locks.dat" > /dev/null 2> "$work/err"
expect [ $? = 0 ]
for f in sessions.lock atrace-tags.lock journal.lock; do
	expect [ "$(stat -c %a "$pub/$f")" = 600 ]
	expect [ "$(stat -c %u "$pub/$f")" = 0 ]
done
if setpriv --reuid=65534 --regid=65534 --clear-groups true 2> /dev/null; then
	for f in sessions.lock atrace-tags.lock journal.lock; do
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			cat "$pub/$f" > /dev/null 2>&1
		expect [ $? != 0 ]
	done
fi
rm -rf "$pub"
pub=
result lock_files_only_root_can_open

# release_holder: end $holder, a flock(1) -o holding a lock, and its sleep.
release_holder() {
	pkill -P $holder sleep
	wait $holder 2> /dev/null
}

# elapsed_since T0: whole seconds since T0 (date +%s).
elapsed_since() {
	echo $(($(date +%s) - $1))
}

# A lock held by a process that does not let go: a recording gives up
# after 5 s naming the holder, changes nothing, and a signal ends its wait
# at once. The guests' busybox has no flock(1).
state=$VTRACE_STATE_DIR
if ! command -v flock > /dev/null; then
	ktap_test_skip "held_registry_lock_named_and_bounded (no flock(1))"
	ktap_test_skip "held_tags_lock_wait_ends_on_sigint (no flock(1))"
else
	before=$(settings_of "$TRACEFS/instances/$i1")
	flock -o "$state/sessions.lock" sleep 30 &
	holder=$!
	until grep -q " $holder " /proc/locks; do sleep 0.05; done
	t0=$(date +%s)
	"$VTRACE" record --instance $i1 -e $event -t 300ms \
		-o "$work/held.dat" 2> "$work/err"
	expect [ $? = 1 ]
	took=$(elapsed_since "$t0")
	expect [ "$took" -ge 4 ]
	expect [ "$took" -le 8 ]
	expect [ "$(cat "$work/err")" = "vtrace: error: cannot register the session: $state/sessions.lock is held by pid $holder (flock); gave up after 5 s" ]
	expect [ ! -e "$work/held.dat" ]
	t0=$(date +%s)
	"$VTRACE" record --instance $i1 -e $event -t 300ms \
		-o "$work/held.dat" 2> "$work/err" &
	pid=$!
	sleep 1
	kill -TERM $pid
	wait $pid
	expect [ $? = 1 ]
	expect [ "$(elapsed_since "$t0")" -le 3 ]
	expect [ "$(cat "$work/err")" = "vtrace: error: cannot register the session: interrupted while waiting for a lock in $state" ]
	expect [ ! -e "$work/held.dat" ]
	expect [ "$(settings_of "$TRACEFS/instances/$i1")" = "$before" ]
	release_holder
	result held_registry_lock_named_and_bounded

	# The tags are taken once tracing is on: SIGINT there ends the
	# wait and the recording, whose file is complete.
	: > "$state/atrace-tags.lock"
	chmod 600 "$state/atrace-tags.lock"
	flock -o "$state/atrace-tags.lock" sleep 30 &
	holder=$!
	until grep -q " $holder " /proc/locks; do sleep 0.05; done
	t0=$(date +%s)
	"$VTRACE" record --instance $i1 -c view -e $event -t 20s \
		-o "$work/tags.dat" > /dev/null 2> "$work/err" &
	pid=$!
	wait_recording $i1
	sleep 1
	kill -INT $pid
	wait $pid
	expect [ $? = 0 ]
	expect [ "$(elapsed_since "$t0")" -le 4 ]
	expect grep -qx "vtrace: warning: cannot enable the userspace atrace tags: interrupted while waiting for a lock in $state" "$work/err"
	expect [ "$(grep -c 'atrace tags' "$work/err")" = 1 ]
	expect [ -s "$work/tags.dat" ]
	expect [ "$(settings_of "$TRACEFS/instances/$i1")" = "$before" ]
	release_holder
	holder=
	result held_tags_lock_wait_ends_on_sigint
fi

# With vtrace.ko (the guests): its burst generator's events, recorded by
# two sessions at once, each in its own instance, all of them in each.
if [ ! -d $TRACEFS/events/mali ]; then
	ktap_test_skip "two_sessions_record_every_module_event (vtrace.ko not loaded)"
	ktap_finished
fi
for s in m1:$i1 m2:$i2; do
	"$VTRACE" record --name ${s%%:*} --instance ${s#*:} \
		-e mali/mali_pm_status -b 8192 --json --background \
		-o "$work/${s%%:*}.dat" > /dev/null 2> "$work/err"
	expect [ $? = 0 ]
done
echo 5000 > $burst/start
while grep -q 'state: running' $burst/status; do sleep 0.1; done
expect grep -q 'state: done' $burst/status
emitted=$(awk '/^emitted:/ { print $2 }' $burst/status)
"$VTRACE" stop --all > "$work/stop" 2> "$work/err"
expect [ $? = 0 ]
for m in m1 m2; do
	grep "^{\"session\":\"$m\"" "$work/stop" > "$work/$m.json"
	expect [ "$(json_num events "$work/$m.json")" = "$emitted" ]
	expect [ "$(json_num lost "$work/$m.json")" = 0 ]
done
result "two_sessions_record_every_module_event ($emitted each)"

ktap_finished
