#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# How vtrace record's per-CPU readers keep up, on this kernel's tracefs:
# the realtime priority of the reader threads (applied while tracing, back
# to the caller's policy for the drain, the default, the refusals), and
# the adaptive wake-up (buffer_percent lowered after an overrun, restored
# once calm, exact counts in --json), how many sub-buffers each read
# call takes (--json's batches), with markers on the host and the
# module's burst in the guests; in the guests also that a burst several
# times the buffer's size, which the readers keep up with, loses nothing.
# No timing is asserted: the overrun is made by stopping the recorder
# (SIGSTOP) while the buffer is filled.
#
# POSIX sh (the guests run busybox).

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
inst=vtrace_reader_test_$$
idir=$TRACEFS/instances/$inst
burst=/sys/kernel/debug/vtrace/burst
pid=

cleanup() {
	[ -n "$pid" ] && kill -CONT "$pid" 2> /dev/null
	[ -n "$pid" ] && kill -TERM "$pid" 2> /dev/null
	vt_remove_instance "$idir"
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
vt_require_tracefs
have_module=0
[ -d $TRACEFS/events/mali ] && have_module=1
ncpus=$(grep -c '^processor' /proc/cpuinfo)

ktap_set_plan 16

# wakeup_num KEY FILE: a member of the summary's "wakeups" object.
wakeup_num() {
	sed 's/.*"wakeups":{//; s/.*"'"$1"'":\(-*[0-9]*\).*/\1/' "$2"
}

# wakeup_str KEY FILE: a string member of the summary's "wakeups" object.
wakeup_str() {
	sed 's/.*"wakeups":{//; s/.*"'"$1"'":"\([^"]*\)".*/\1/' "$2"
}

# threads_at PID POLICY PRIO: how many of PID's vtrace-cpuN threads run at
# scheduling POLICY (0 SCHED_OTHER, 1 SCHED_FIFO) and rt_priority PRIO
# (fields 41 and 40 of /proc/PID/task/TID/stat; after the ") " that ends
# the name they are the 39th and 38th).
threads_at() {
	for t in /proc/"$1"/task/*; do
		case $(cat "$t/comm") in vtrace-cpu*) ;; *) continue ;; esac
		sed 's/.*) //' "$t/stat"
	done | awk -v p="$2" -v r="$3" '$39 == p && $38 == r { n++ }
		END { print n + 0 }'
}

# pinned PID: how many of PID's vtrace-cpuN threads may run only on CPU N.
pinned() {
	for t in /proc/"$1"/task/*; do
		n=$(sed -n 's/^vtrace-cpu//p' "$t/comm")
		[ -n "$n" ] || continue
		grep -qx "Cpus_allowed_list:[[:space:]]*$n" "$t/status" && echo
	done | wc -l
}

# main_policy PID: the scheduling policy of PID's first thread.
main_policy() {
	sed 's/.*) //' /proc/"$1"/stat | awk '{ print $39 }'
}

# wait_recording PID: until the recording PID has switched tracing on.
wait_recording() {
	until [ "$(cat "$idir/tracing_on" 2> /dev/null)" = 1 ] &&
	      grep -q . "$idir/set_event"; do
		kill -0 "$1" 2> /dev/null || return
		sleep 0.05
	done
}

# start ARGS...: vtrace record --background on the instance; sets pid.
start() {
	"$VTRACE" record --instance "$inst" --background --json \
		-o "$work/out.dat" "$@" > "$work/bgpid" 2> "$work/err"
	rc=$?
	pid=$(cat "$work/bgpid")
	wait_recording "$pid"
}

# stop: vtrace stop, the summary's JSON in $work/json.
stop() {
	"$VTRACE" stop --instance "$inst" > "$work/stop" 2>> "$work/err"
	rc=$?
	pid=
	grep '^{' "$work/stop" > "$work/json"
}

# fill N: N events in the instance's buffer on every CPU: the module's
# burst, or markers N.
fill() {
	if [ $have_module = 1 ]; then
		echo "$1" > $burst/start || return
		while grep -q 'state: running' $burst/status; do sleep 0.1; done
		awk '/^emitted:/ { print $2 }' $burst/status
		return
	fi
	markers "$1"
}

# markers N: N markers of 1000 bytes written on each CPU in turn.
markers() {
	line=$(printf '%01000d' 0)
	c=0
	while [ $c -lt "$ncpus" ]; do
		taskset -c $c sh -c '
			i=0
			while [ $i -lt '"$1"' ]; do
				echo "'"$line"'" > '"$idir"'/trace_marker
				i=$((i + 1))
			done'
		c=$((c + 1))
	done
	echo $(($1 * ncpus))
}

# The instance records one event that never fires (its filter matches
# nothing); fill's markers (ftrace/print) are always recorded.
mkdir "$idir"
echo 'common_pid < 0' > "$idir/events/sched/sched_process_exec/filter"
if [ $have_module = 1 ]; then
	event=mali/mali_pm_status
else
	event=sched/sched_process_exec
fi

# -r 7: every reader at SCHED_FIFO 7 while recording, the main thread as
# it was; each reader back at the caller's policy for the drain. Each
# reader is pinned to the CPU it reads, at a realtime priority too.
start -e $event -r 7
expect [ $rc = 0 ]
expect [ "$(threads_at "$pid" 1 7)" = "$ncpus" ]
expect [ "$(pinned "$pid")" = "$ncpus" ]
expect [ "$(threads_at "$pid" 0 0)" = 0 ]
expect [ "$(main_policy "$pid")" = 0 ]
stop
expect [ $rc = 0 ]
expect [ "$(wakeup_num rt_prio "$work/json")" = 7 ]
expect [ "$(wakeup_num rt_restored "$work/json")" = "$ncpus" ]
result "reader_rt_prio_applied_and_restored"

# As root, by default keep-all: every reader at SCHED_FIFO 1 from the
# start, on its own CPU; --adaptive: each at the caller's policy on its
# own CPU until its buffer is under pressure, SCHED_FIFO 1 the priority
# it would take; --light and -r 0: the caller's policy on its own CPU,
# never raised. -v says where they run.
start -e $event -v
expect [ "$(threads_at "$pid" 1 1)" = "$ncpus" ]
expect [ "$(pinned "$pid")" = "$ncpus" ]
stop
expect grep -q "; readers keep-all: at SCHED_FIFO 1 while tracing, each on the CPU it reads; " "$work/err"
expect [ "$(wakeup_str readers "$work/json")" = keep-all ]
expect [ "$(wakeup_num rt_prio "$work/json")" = 1 ]
expect [ "$(wakeup_num rt_restored "$work/json")" = "$ncpus" ]
start -e $event --adaptive
expect [ "$(threads_at "$pid" 0 0)" = "$ncpus" ]
expect [ "$(pinned "$pid")" = "$ncpus" ]
stop
expect [ "$(wakeup_str readers "$work/json")" = adaptive ]
expect [ "$(wakeup_num rt_prio "$work/json")" = 1 ]
expect [ "$(wakeup_num rt_raised "$work/json")" = 0 ]
expect [ "$(wakeup_num rt_restored "$work/json")" = 0 ]
for light in "-r 0" --light; do
	# shellcheck disable=SC2086
	start -e $event $light
	expect [ "$(threads_at "$pid" 0 0)" = "$ncpus" ]
	expect [ "$(pinned "$pid")" = "$ncpus" ]
	stop
	expect [ "$(wakeup_str readers "$work/json")" = light ]
	expect [ "$(wakeup_num rt_prio "$work/json")" = 0 ]
	expect [ "$(wakeup_num rt_restored "$work/json")" = 0 ]
done
result "reader_policy_keep_all_by_default_adaptive_and_light"

# The policy options that contradict each other are usage errors.
before=$(settings_of "$idir")
for args in "--light -r 5:--light and -r 5: the readers never run at a realtime priority under --light" \
	    "--adaptive -r 0:--adaptive and -r 0: give a priority from 1 to 99" \
	    "--keep-all --light:--keep-all, --adaptive and --light: give one"; do
	# shellcheck disable=SC2086
	vt_run record --instance "$inst" -e $event ${args%%:*} -t 1 -o "$work/no.dat"
	expect [ $rc = 2 ]
	expect [ "$(echo "$err" | head -1)" = "vtrace: error: ${args#*:}" ]
	expect [ ! -e "$work/no.dat" ]
done
expect [ "$(settings_of "$idir")" = "$before" ]
result "reader_policy_conflicts_are_usage_errors"

# A priority out of range is a usage error, before tracefs is touched.
before=$(settings_of "$idir")
vt_run record --instance "$inst" -e $event -r 100 -t 1 -o "$work/no.dat"
expect [ $rc = 2 ]
expect [ "$err" = "vtrace: error: record -r: '100' is not a whole number from 0 to 99" ]
expect [ ! -e "$work/no.dat" ]
expect [ "$(settings_of "$idir")" = "$before" ]
result "reader_rt_prio_out_of_range_is_a_usage_error"

# Without CAP_SYS_NICE (and RLIMIT_RTPRIO 0): -r is refused, nothing is
# touched; the default then runs at the caller's policy.
if command -v setpriv > /dev/null &&
   setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice true 2> /dev/null; then
	nocap="setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice"
	# shellcheck disable=SC2086
	(ulimit -r 0 && exec $nocap "$VTRACE" record --instance "$inst" \
		-e $event -r 5 -t 1 -o "$work/no.dat") \
		> "$work/out" 2> "$work/err"
	rc=$?
	expect [ $rc = 1 ]
	expect grep -qx 'vtrace: error: realtime priority 5 needs CAP_SYS_NICE (or an RLIMIT_RTPRIO of at least 5)' "$work/err"
	expect [ ! -e "$work/no.dat" ]
	expect [ "$(settings_of "$idir")" = "$before" ]
	# shellcheck disable=SC2086
	(ulimit -r 0 && exec $nocap "$VTRACE" record --instance "$inst" \
		-e $event -t 1 --json -o "$work/no.dat") \
		> "$work/json" 2> "$work/err"
	rc=$?
	expect [ $rc = 0 ]
	expect [ "$(wakeup_num rt_prio "$work/json")" = 0 ]
	result "reader_rt_prio_refused_without_cap_sys_nice"
else
	ktap_test_skip "reader_rt_prio_refused_without_cap_sys_nice (no setpriv)"
fi

# Readers at SCHED_FIFO 1 below a task at SCHED_FIFO 2 that holds every
# CPU (rt_hog, writing markers) get no time at all: each is found
# runnable twice without having run, and goes to the caller's policy on
# any CPU, where the kernel still gives it a share; once the hog has
# ended, each goes back to SCHED_FIFO 1 on its own CPU. The hog runs
# until every reader has fallen back, at most 10 s: the watchdog, like
# this script, runs only in the share throttling leaves, and on a slow
# guest that is one look a second. Where realtime throttling is off the
# hog would hold the CPUs for good: skipped.
if [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ]; then
	ktap_test_skip "reader_rt_starved_falls_back_and_returns (realtime throttling is off)"
elif [ ! -r /proc/self/schedstat ]; then
	ktap_test_skip "reader_rt_starved_falls_back_and_returns (no schedstat: CONFIG_SCHED_INFO)"
else
	start -e $event -r 1
	expect [ $rc = 0 ]
	"$here/rt_hog" 2 10000 "$idir/trace_marker" &
	hog=$!
	while kill -0 $hog 2> /dev/null &&
	      [ "$(threads_at "$pid" 0 0)" != "$ncpus" ]; do
		sleep 0.1
	done
	kill -TERM $hog 2> /dev/null
	wait $hog
	expect [ $? = 0 ]
	# Back within VTRACE_RECORDER_RT_CALM_MS and a look or two.
	i=0
	while [ "$(threads_at "$pid" 1 1)" != "$ncpus" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	expect [ "$(threads_at "$pid" 1 1)" = "$ncpus" ]
	expect [ "$(pinned "$pid")" = "$ncpus" ]
	stop
	expect [ $rc = 0 ]
	starved=$(wakeup_num rt_starved "$work/json")
	expect [ "$starved" -ge "$ncpus" ]
	expect [ "$(wakeup_num rt_resumed "$work/json")" = "$starved" ]
	expect [ "$(wakeup_num rt_restored "$work/json")" = "$ncpus" ]
	result "reader_rt_starved_falls_back_and_returns ($starved times)"
fi

# The readers are woken once three sub-buffers are left free, no earlier
# than at 50% and no later than at 75%: -v and the instance's
# buffer_percent say the same mark, and near full half-way from there
# (62 and 81 in 32 KB of 4 KB sub-buffers, 75 and 87 in 1024 KB).
said_marks=
for kb in 32 1024; do
	start -e $event -b $kb -v
	expect [ $rc = 0 ]
	subbuf_kb=4
	[ -e "$idir/buffer_subbuf_size_kb" ] &&
		subbuf_kb=$(cat "$idir/buffer_subbuf_size_kb")
	n=$(($(cat "$idir/buffer_size_kb") / subbuf_kb))
	mark=50
	[ $n -le 3 ] || mark=$((100 * (n - 3) / n))
	[ $mark -ge 50 ] || mark=50
	[ $mark -le 75 ] || mark=75
	expect [ "$(cat "$idir/buffer_percent")" = $mark ]
	expect grep -qF "sub-buffers, woken at buffer_percent $mark (3 sub-buffers left free, 50 to 75; 25 while a buffer loses events or is found $(((100 + mark) / 2))% full); " "$work/err"
	stop
	expect [ $rc = 0 ]
	said_marks="${said_marks:+$said_marks, }$kb KB at $mark"
done
result "reader_wake_mark_leaves_three_subbufs_free ($said_marks)"

# Nothing under pressure: buffer_percent stays where it was set, and no
# --adaptive reader is raised.
start -e $event -b 4096 --adaptive
expect [ $rc = 0 ]
emitted=$(fill 100)
stop
expect [ $rc = 0 ]
expect [ "$(json_num events "$work/json")" = "$emitted" ]
expect [ "$(wakeup_num lowered "$work/json")" = 0 ]
expect [ "$(wakeup_num restored "$work/json")" = 0 ]
expect [ "$(wakeup_num rt_raised "$work/json")" = 0 ]
expect [ "$(cat "$idir/buffer_percent")" = "$(echo "$before" | sed -n 4p)" ]
result "reader_wakeups_stay_without_pressure"

# Overrun: the recorder stopped while each CPU's buffer is filled several
# times over. On resuming, its readers see the loss and lower
# buffer_percent (once, for every CPU); calm for
# VTRACE_RECORDER_CALM_MS, they put it back (once). Every event is
# either recorded or counted lost by the kernel.
if [ $have_module = 1 ]; then n=100000; else n=3000; fi
start -e $event -b 1024
expect [ $rc = 0 ]
kill -STOP "$pid"
emitted=$(fill $n)
kill -CONT "$pid"
sleep 3
expect [ "$(cat "$idir/buffer_percent")" = 75 ]
stop
expect [ $rc = 0 ]
events=$(json_num events "$work/json")
lost=$(json_num lost "$work/json")
expect [ "$lost" -gt 0 ]
expect [ $((events + lost)) = "$emitted" ]
expect [ "$(wakeup_num lowered "$work/json")" = 1 ]
expect [ "$(wakeup_num lowered_lost "$work/json")" = 1 ]
expect [ "$(wakeup_num restored "$work/json")" = 1 ]
expect [ "$(cat "$idir/buffer_percent")" = "$(echo "$before" | sed -n 4p)" ]
result "reader_wakeups_lowered_on_overrun_and_restored ($events recorded, $lost lost)"

# --adaptive: the same overrun raises the reader of every CPU that lost
# events to SCHED_FIFO 1, on its CPU; once its buffer has been calm
# for VTRACE_RECORDER_CALM_MS it is back at the caller's policy on its
# own CPU (looked at on its next wake-up: the drain period, 1 s).
start -e $event -b 1024 --adaptive
expect [ $rc = 0 ]
kill -STOP "$pid"
fill $n > /dev/null
kill -CONT "$pid"
i=0
until [ "$(threads_at "$pid" 1 1)" = "$ncpus" ] || [ $i -ge 40 ]; do
	sleep 0.01
	i=$((i + 1))
done
expect [ "$(threads_at "$pid" 1 1)" = "$ncpus" ]
expect [ "$(pinned "$pid")" = "$ncpus" ]
i=0
until [ "$(threads_at "$pid" 0 0)" = "$ncpus" ] || [ $i -ge 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect [ "$(threads_at "$pid" 0 0)" = "$ncpus" ]
expect [ "$(pinned "$pid")" = "$ncpus" ]
stop
expect [ $rc = 0 ]
expect [ "$(wakeup_num rt_raised "$work/json")" = "$ncpus" ]
expect [ "$(wakeup_num rt_lowered "$work/json")" = "$ncpus" ]
expect [ "$(wakeup_num rt_restored "$work/json")" = 0 ]
result "reader_adaptive_raised_on_overrun_and_lowered_when_calm"

# -v says what the adaptation did, in the same counts.
start -e $event -b 1024 -v
kill -STOP "$pid"
fill $n > /dev/null
kill -CONT "$pid"
sleep 3
stop
cat "$work/stop" "$work/err" > "$work/said"
expect grep -qx 'vtrace: wake-ups: buffer_percent lowered 75 -> 25 1 times (1 for lost events, the rest for a buffer 87% full), first at [0-9.]* s; restored 1 times' "$work/said"
expect grep -q '^vtrace: wake-ups: read again at once [0-9]* times$' "$work/said"
expect grep -q '^vtrace: reads: [0-9]* sub-buffers in [0-9]* calls$' "$work/said"
result "reader_wakeups_told_by_verbose"

# Batches: sub-buffers filled while the recorder is stopped are taken by
# one splice() per CPU when it resumes, whether the output decodes them
# (Perfetto) or a trace.dat gets them all from the pipe in one more
# splice(), and the partly filled one by one read() at the drain: 2
# calls per CPU, more sub-buffers than that. On the read path each
# sub-buffer is a call of its own. (480 markers of 1000 bytes fill 7 of the 64 KB
# sub-buffers of 6.8 and later, or 160 of the 4 KB ones before: less
# than a quarter of 4096 KB, less than one splice takes.)
for case in splice:pftrace splice:dat read:dat; do
	path=${case%:*}
	start -e $event -b 4096 --reader $path -o "$work/out.${case#*:}"
	expect [ $rc = 0 ]
	kill -STOP "$pid"
	emitted=$(markers 480)
	kill -CONT "$pid"
	stop
	expect [ $rc = 0 ]
	expect [ "$(json_num events "$work/json")" = "$emitted" ]
	subbufs=$(wakeup_num subbufs "$work/json")
	batches=$(wakeup_num batches "$work/json")
	if [ $path = splice ]; then
		expect [ "$batches" = $((2 * ncpus)) ]
		expect [ "$subbufs" -gt "$batches" ]
	else
		expect [ "$batches" = "$subbufs" ]
	fi
	result "reader_${path}_batches_${case#*:} ($subbufs sub-buffers in $batches calls)"
done

# After a wake-up the reader reads again at once only when its read found
# the buffer near full (87% in 1024 KB): once per CPU at 15/16 (the
# second read finds nothing), never at 12/16, the wake-up's 75%. The read
# leaves the sub-buffer being written: 14 of 16 64 KB sub-buffers, at
# 15/16, are near full, 13, at 7/8, are not.
# Markers of 1028 bytes, 3 to a 4 KB sub-buffer, 63 to a 64 KB one
# (after its 16-byte header), fill that much of each CPU's 1024 KB while
# the recorder is stopped; the wake-up's read is awaited (the kernel's
# entries down to the sub-buffer being written) before the stop, whose
# drain would otherwise read them. The sub-buffer size is the instance's
# once recording, where the kernel lets it be chosen.
for sixteenths in 12 15; do
	start -e $event -b 1024
	expect [ $rc = 0 ]
	subbuf_kb=4
	[ -e "$idir/buffer_subbuf_size_kb" ] &&
		subbuf_kb=$(cat "$idir/buffer_subbuf_size_kb")
	per_subbuf=$(((subbuf_kb * 1024 - 16) / 1028))
	kill -STOP "$pid"
	emitted=$(markers $((1024 / subbuf_kb * per_subbuf * sixteenths / 16)))
	kill -CONT "$pid"
	i=0
	until [ "$(awk '/^entries:/ { if ($2 > n) n = $2 } END { print n + 0 }' \
		"$idir"/per_cpu/cpu*/stats)" -le "$per_subbuf" ] || [ $i -ge 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	stop
	expect [ $rc = 0 ]
	expect [ "$(json_num lost "$work/json")" = 0 ]
	expect [ "$(json_num events "$work/json")" = "$emitted" ]
	rereads=$(wakeup_num rereads "$work/json")
	if [ $sixteenths = 15 ]; then
		expect [ "$rereads" = "$ncpus" ]
	else
		expect [ "$rereads" = 0 ]
	fi
done
result "reader_reads_again_at_once_only_when_found_near_full (${subbuf_kb} KB sub-buffers)"

# A burst several times the buffer, which the readers keep up with: not
# one event lost (the guests; the host's markers come from a shell).
if [ $have_module = 1 ]; then
	start -e mali/mali_pm_status -b 1024
	emitted=$(fill 200000)
	stop
	expect [ $rc = 0 ]
	expect [ "$(json_num lost "$work/json")" = 0 ]
	expect [ "$(json_num events "$work/json")" = "$emitted" ]
	result "reader_burst_bigger_than_the_buffer_loses_nothing ($emitted events)"
else
	ktap_test_skip "reader_burst_bigger_than_the_buffer_loses_nothing (vtrace.ko not loaded)"
fi

ktap_finished
