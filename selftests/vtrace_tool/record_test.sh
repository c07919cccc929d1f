#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vtrace record / vtrace stop on this kernel's tracefs: every reader path
# brings out every event, the drain leaves the buffer empty, settings come
# back, and each fault ends with the documented status, message and file.
# With vtrace.ko loaded (the guests): the burst generator's events are all
# recorded, exactly; the simulator's events are recorded next to a second
# instance holding the kernel's own text of them; the module unloaded and a
# CPU taken offline mid-record leave a complete, valid file.
#
# POSIX sh (the guests run busybox). Where trace-cmd is installed (the host)
# the files are read back here; in the guests they are left, gzipped, in
# $VTRACE_OUT with a sidecar of expected values (NAME.expect), and
# check_guest_artifacts.sh reads them back on the host.

# In the guests, without /proc/kallsyms (vtrace_test_lib.sh).
vt_hide_kallsyms=1
. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
inst=vtrace_rec_test_$$
idir=$TRACEFS/instances/$inst
ref=$TRACEFS/instances/vtrace_rec_ref_$$
burst=/sys/kernel/debug/vtrace/burst
sim=/sys/kernel/debug/vtrace/sim
cpu1=/sys/devices/system/cpu/cpu1/online
markers=5000

mounted() {
	grep -q " $1 " /proc/mounts
}

cleanup() {
	[ -w "$cpu1" ] && echo 1 > "$cpu1"
	for d in "$idir" "$ref"; do
		[ -d "$d" ] || continue
		echo 0 > "$d/events/enable"
		rmdir "$d"
	done
	mounted "$work/small" && umount "$work/small"
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
vt_require_tracefs
have_mmap=$(uname -r | awk -F. '{ print ($1 * 100 + $2 >= 610) }')
have_trace_cmd=0
command -v trace-cmd > /dev/null && have_trace_cmd=1
have_module=0
[ -d $TRACEFS/events/mali ] && have_module=1

ktap_set_plan 21

# left_in DIR: events still in the ring buffer, over all CPUs.
left_in() {
	cat "$1"/per_cpu/cpu*/stats | awk '/^entries:/ { s += $2 } END { print s + 0 }'
}

# markers_in FILE: how many "vtrace-marker-N" lines trace-cmd reads back.
markers_in() {
	trace-cmd report "$1" 2> /dev/null | grep -c 'vtrace-marker-[0-9]'
}

# events_in FILE: how many events trace-cmd reads (a marker's text may
# span lines; each event starts with "[CPU] TIMESTAMP: ", the time stamp
# in nanoseconds alone for a clock trace-cmd does not know, such as boot).
events_in() {
	trace-cmd report "$1" 2> /dev/null |
		grep -cE '\[[0-9]+\] *[0-9]+(\.[0-9]+)?: [a-z_]+: '
}

# keep FILE NAME: leave FILE for check_guest_artifacts.sh (guests only).
keep() {
	[ -n "$VTRACE_OUT" ] && gzip -c "$1" > "$VTRACE_OUT/$2.dat.gz"
}

# expected NAME: stdin is what the host is to find in NAME.dat.gz.
expected() {
	if [ -n "$VTRACE_OUT" ]; then
		cat > "$VTRACE_OUT/$1.expect"
	else
		cat > /dev/null
	fi
}

# wait_recording PID GROUP:EVENT: until the recording PID has begun, or
# fails if it ended first. vtrace record turns tracing off, enables its
# events, starts its readers and only then turns tracing on (markers
# written before that are refused with EBADF).
wait_recording() {
	until grep -qx "$2" "$idir/set_event" &&
	      [ "$(cat "$idir/tracing_on")" = 1 ]; do
		kill -0 "$1" 2> /dev/null || return
		sleep 0.05
	done
}

# start_background ARGS...: vtrace record --background on the instance.
start_background() {
	"$VTRACE" record --instance "$inst" --background "$@" \
		> "$work/bgpid" 2> "$work/err"
	rc=$?
}

# run_burst N: a burst of N events per online CPU, waited for.
run_burst() {
	echo "$1" > $burst/start || return
	while grep -q 'state: running' $burst/status; do sleep 0.1; done
}

emitted() {
	awk '/^emitted:/ { print $2 }' $burst/status
}

mkdir "$idir"
# Nothing but markers: the recording's event is enabled with a filter that
# matches nothing, so the summary's count is the marker count.
echo 'common_pid < 0' > "$idir/events/sched/sched_process_exec/filter"

# Each reader path: exact marker count, empty buffer after, settings back.
for path in mmap splice read; do
	name="record_${path}_gets_every_marker_and_drains"
	if [ $path = mmap ] && [ "$have_mmap" = 0 ]; then
		ktap_test_skip "$name (no ring-buffer mmap before 6.10)"
		continue
	fi
	before=$(settings_of "$idir")
	"$VTRACE" record --instance "$inst" -e sched/sched_process_exec \
		--reader $path -b 2048 -o "$work/m.dat" --json \
		> "$work/json" 2> "$work/err" &
	pid=$!
	expect wait_recording $pid sched:sched_process_exec
	# One write(2), so one marker event, per echo.
	seq 1 $markers | while read -r i; do
		echo "vtrace-marker-$i"
	done > "$idir/trace_marker"
	"$VTRACE" stop --instance "$inst" > /dev/null
	wait $pid
	rc=$?
	expect [ $rc = 0 ]
	expect grep -q "\"reader\":\"$path\"" "$work/json"
	expect [ "$(json_num events "$work/json")" = $markers ]
	expect [ "$(json_num lost "$work/json")" = 0 ]
	expect [ "$(left_in "$idir")" = 0 ]
	expect [ "$(settings_of "$idir")" = "$before" ]
	[ $have_trace_cmd = 1 ] &&
		expect [ "$(markers_in "$work/m.dat")" = $markers ]
	keep "$work/m.dat" "markers-$path"
	result "$name"
done
echo "markers: $markers" | expected markers

# A buffer reset (writing the trace file; the tracing core does the same
# when a module whose events were used is unloaded) while the mmap reader
# holds read events of a sub-buffer not yet full: they are still written.
name=record_mmap_keeps_read_events_across_a_buffer_reset
if [ "$have_mmap" = 0 ]; then
	ktap_test_skip "$name (no ring-buffer mmap before 6.10)"
else
	start_background -e sched/sched_process_exec --reader mmap --json \
		-o "$work/r.dat"
	expect [ $rc = 0 ]
	seq 1 300 | while read -r i; do
		echo "vtrace-marker-$i"
	done > "$idir/trace_marker"
	sleep 2.5 # two of the recorder's ticks: the markers are read
	: > "$idir/trace"
	sleep 1.5
	"$VTRACE" stop --instance "$inst" > "$work/stop"
	grep '^{' "$work/stop" > "$work/json"
	expect [ "$(json_num events "$work/json")" = 300 ]
	[ $have_trace_cmd = 1 ] &&
		expect [ "$(markers_in "$work/r.dat")" = 300 ]
	result "$name"
fi
echo 0 > "$idir/events/sched/sched_process_exec/filter"

# -v names the path taken; auto takes splice, the cheapest per MB on
# every kernel (mmap or not; Documentation/vtrace-record.rst).
"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 300ms -v \
	-o "$work/v.dat" 2> "$work/err"
rc=$?
expect [ $rc = 0 ]
expect grep -q "^vtrace: reader: splice on" "$work/err"
result "record_verbose_names_reader_splice"

# The progress line: on a terminal (script(1) gives the recording one),
# rewritten in place at most twice a second; none with --json, none when
# stderr is not a terminal.
name=record_progress_line_on_a_terminal_only
if ! script --version 2> /dev/null | grep -q util-linux; then
	ktap_test_skip "$name (no util-linux script)"
else
	line='recording: [0-9]+\.[0-9] s, [0-9]+ events, [0-9]+\.[0-9] MB written, [0-9]+ lost'
	script -qec "'$VTRACE' record --instance $inst -e sched/sched_switch \
		-t 2s -o '$work/p.dat'" /dev/null > "$work/pty" 2>&1
	rc=$?
	expect [ $rc = 0 ]
	shown=$(tr '\r' '\n' < "$work/pty" | grep -cE "^$line")
	# Ticks at 0.5, 1, 1.5 and 2 s; never more than 2 a second.
	expect [ "$shown" -ge 3 ]
	expect [ "$shown" -le 5 ]
	expect grep -q "recorded [0-9]* events" "$work/pty"
	script -qec "'$VTRACE' record --instance $inst -e sched/sched_switch \
		-t 1s --json -o '$work/p.dat'" /dev/null > "$work/pty" 2>&1
	expect [ $? = 0 ]
	expect [ "$(grep -c 'recording:' "$work/pty")" = 0 ]
	"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 1s \
		-o "$work/p.dat" 2> "$work/err"
	expect [ $? = 0 ]
	expect [ "$(grep -c 'recording:' "$work/err")" = 0 ]
	expect grep -q "recorded [0-9]* events" "$work/err"
	result "$name"
fi

# Settings changed for the recording (-b, --clock) all come back.
before=$(settings_of "$idir")
"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 300ms \
	-b 1024 --clock global -o "$work/s.dat" 2> "$work/err"
rc=$?
expect [ $rc = 0 ]
expect [ "$(settings_of "$idir")" = "$before" ]
result "record_restores_buffer_clock_percent_tracing_on_events"

# Unknown event: status 1, message, no file, nothing enabled.
"$VTRACE" record --instance "$inst" -e sched/sched_switch -e nosuch/event \
	-t 1s -o "$work/u.dat" 2> "$work/err"
rc=$?
expect [ $rc = 1 ]
expect grep -q "unknown event 'nosuch/event'" "$work/err"
expect [ ! -e "$work/u.dat" ]
expect [ "$(settings_of "$idir")" = "$before" ]
result "record_unknown_event_fails_cleanly"

# Categories: an event of a category that this kernel lacks is skipped
# with a warning; each mistake gets the message vtrace enable gives.
printf 'mix\n sched/sched_switch\n nosuch/missing_event\n' > "$work/cats.txt"
"$VTRACE" record --instance "$inst" -f "$work/cats.txt" -c mix -t 300ms \
	-o "$work/c.dat" --json > "$work/json" 2> "$work/err"
rc=$?
expect [ $rc = 0 ]
expect grep -qx "vtrace: warning: nosuch/missing_event (category mix) is not on this kernel: skipped" "$work/err"
expect [ "$(json_num events "$work/json")" -gt 0 ]
for wrong in "-c no_such_category" "-e sched/../x"; do
	# shellcheck disable=SC2086
	"$VTRACE" record --instance "$inst" -f "$work/cats.txt" $wrong \
		-t 300ms -o "$work/c2.dat" 2> "$work/err"
	expect [ $? = 1 ]
	"$VTRACE" enable --instance "$inst" -f "$work/cats.txt" "${wrong#-? }" \
		2> "$work/err2"
	expect [ $? = 1 ]
	expect [ -s "$work/err" ]
	expect cmp -s "$work/err" "$work/err2"
done
expect [ ! -e "$work/c2.dat" ]
expect [ "$(settings_of "$idir")" = "$before" ]
result "record_categories_same_messages_as_enable"

# Unwritable output: status 1, message, nothing left enabled.
"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 1s \
	-o /proc/vtrace-no-such-dir/x.dat 2> "$work/err"
rc=$?
expect [ $rc = 1 ]
expect grep -q "cannot create /proc/vtrace-no-such-dir/x.dat" "$work/err"
expect [ "$(settings_of "$idir")" = "$before" ]
result "record_unwritable_output_fails_cleanly"

# Busy: a second recording of the same instance is refused; the background
# one finishes its file on vtrace stop. A trace.dat is recorded with the
# local clock, trace-cmd's: the instance's global comes back after.
echo global > "$idir/trace_clock"
before=$(settings_of "$idir")
start_background -e sched/sched_switch -o "$work/b.dat"
expect [ $rc = 0 ]
expect grep -qx '[0-9][0-9]*' "$work/bgpid"
expect grep -q '\[local\]' "$idir/trace_clock"
"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 1s \
	-o "$work/b2.dat" 2> "$work/err2"
expect [ $? = 1 ]
expect grep -q "tracefs is busy" "$work/err2"
expect [ ! -e "$work/b2.dat" ]
sleep 0.2
"$VTRACE" stop --instance "$inst" > "$work/stop" 2>&1
expect [ $? = 0 ]
expect grep -q "recorded [0-9]* events" "$work/stop"
[ $have_trace_cmd = 1 ] &&
	expect trace-cmd report "$work/b.dat" > /dev/null 2>&1
expect [ "$(settings_of "$idir")" = "$before" ]
expect grep -q '\[global\]' "$idir/trace_clock"
echo local > "$idir/trace_clock"
before=$(settings_of "$idir")
result "record_busy_refused_background_finishes_on_stop_local_clock"

# Disk full mid-record: a tmpfs with room for the file's metadata (the size
# of an almost empty recording) and 1 MB more, filled with markers: status
# 1, message, and a valid file holding what the summary counts. A wake-up
# of a 1024 KB buffer moves 768 KB or more, so a second one cannot fit,
# nor two CPUs' at once: the whole sub-buffers of a batch the disk took
# are kept (tracedat_cpu_data_test counts them), where two CPUs woken at
# once used to store nothing.
mkdir -p "$work/small"
meta=$(wc -c < "$work/v.dat")
mount -t tmpfs -o size=$((meta + 1048576)) vtrace_small "$work/small"
"$VTRACE" record --instance "$inst" -e sched/sched_switch -b 1024 -t 10s \
	-o "$work/small/full.dat" --json > "$work/json" 2> "$work/err" &
pid=$!
expect wait_recording $pid sched:sched_switch
# The load ends within a second of the recording.
while kill -0 $pid 2> /dev/null; do
	timeout 1 yes vtrace-fill > "$idir/trace_marker" 2> /dev/null
done &
load=$!
wait $pid
rc=$?
wait $load
expect [ $rc = 1 ]
expect grep -q "No space left on device" "$work/err"
expect [ "$(json_num events "$work/json")" -gt 0 ]
# The loss is the disk's, told apart from the ring buffer's: no advice
# about -b unless the kernel's counters lost events too.
expect [ "$(json_num output_lost "$work/json")" -gt 0 ]
expect grep -q "^vtrace: warning: LOST $(json_num output_lost "$work/json") EVENTS after the output failed: read from the ring buffer, not written (make room, or record into another file)$" "$work/err"
if [ "$(json_num kernel_lost "$work/json")" = 0 ]; then
	expect [ "$(grep -c "in the ring buffer: it overflowed" "$work/err")" = 0 ]
else
	expect grep -q "^vtrace: warning: LOST $(json_num kernel_lost "$work/json") EVENTS in the ring buffer" "$work/err"
fi
expect [ "$(json_num lost "$work/json")" = \
	"$(($(json_num output_lost "$work/json") + $(json_num kernel_lost "$work/json")))" ]
expect [ "$(settings_of "$idir")" = "$before" ]
if [ $have_trace_cmd = 1 ]; then
	expect [ "$(events_in "$work/small/full.dat")" = \
		"$(json_num events "$work/json")" ]
fi
keep "$work/small/full.dat" full
json_num events "$work/json" | sed 's/^/events: /' | expected full
result "record_disk_full_keeps_a_valid_file"
umount "$work/small"

# SIGKILL: the file says it is incomplete when read (in the guests, by the
# host's vtrace report).
"$VTRACE" record --instance "$inst" -e sched/sched_switch \
	-o "$work/k.dat" 2> /dev/null &
pid=$!
expect wait_recording $pid sched:sched_switch
sleep 0.3
kill -KILL $pid
wait $pid 2> /dev/null
echo 0 > "$idir/events/enable"
echo 1 > "$idir/tracing_on"
# The file keeps its temporary name: k.dat never appears.
partial=$(ls "$work"/.k.dat.?????? 2> /dev/null)
expect [ -f "$partial" ]
expect [ ! -e "$work/k.dat" ]
if [ -z "$VTRACE_OUT" ]; then
	"$VTRACE" report "$partial" > /dev/null 2> "$work/err"
	rc=$?
	expect [ $rc = 1 ]
	expect grep -q "incomplete" "$work/err"
fi
keep "$partial" killed
rm -f "$partial"
result "record_sigkill_report_says_incomplete"

# tracefs not mounted: vtrace mounts it (in a private mount namespace).
unshare -m sh -c "umount $TRACEFS 2> /dev/null || umount -l $TRACEFS
	grep -q ' $TRACEFS ' /proc/mounts && exit 99
	'$VTRACE' record -e sched/sched_switch -t 300ms -o '$work/n.dat'" \
	2> "$work/err"
rc=$?
expect [ $rc = 0 ]
expect [ -s "$work/n.dat" ]
result "record_mounts_tracefs_when_unmounted"

if [ $have_module = 0 ]; then
	for t in burst_every_event_exact simulator_events_kept \
		 simulator_events_perfetto vendor_events_for_perfetto \
		 module_unloaded_mid_record cpu_offline_online_mid_record \
		 cpu_first_online_mid_record; do
		ktap_test_skip "record_$t (vtrace.ko not loaded)"
	done
	ktap_finished
fi

# Every burst event is recorded, exactly, with a buffer big enough.
start_background -e mali/mali_pm_status -b 8192 --json -o "$work/burst.dat"
expect [ $rc = 0 ]
run_burst 20000
expect grep -q 'state: done' $burst/status
"$VTRACE" stop --instance "$inst" > "$work/stop"
expect [ $? = 0 ]
grep '^{' "$work/stop" > "$work/json"
expect [ "$(json_num events "$work/json")" = "$(emitted)" ]
expect [ "$(json_num lost "$work/json")" = 0 ]
keep "$work/burst.dat" burst
expected burst < $burst/status
result "record_burst_every_event_exact ($(emitted) events)"

# The simulator's events: a second instance with the same events enabled
# keeps the kernel's own text of them, the host compares the decoded file.
sim_events="mali/gpu_power_state mali/mali_pm_status
	thermal_exynos/thermal_cpu_pressure thermal_exynos/thermal_exynos_arm_update"
mkdir "$ref"
echo 8192 > "$ref/buffer_size_kb"
sim_args=
for e in $sim_events; do
	echo 1 > "$ref/events/$e/enable"
	sim_args="$sim_args -e $e"
done
# shellcheck disable=SC2086
start_background $sim_args -b 8192 --json -o "$work/sim.dat"
expect [ $rc = 0 ]
echo 42 > $sim/seed
echo 300 > $sim/step
expect [ "$(cat $sim/steps)" = 300 ]
"$VTRACE" stop --instance "$inst" > "$work/stop"
expect [ $? = 0 ]
grep '^{' "$work/stop" > "$work/json"
echo 0 > "$ref/events/enable"
grep -v '^#' "$ref/trace" > "$work/sim.txt"
expect [ "$(json_num events "$work/json")" = "$(wc -l < "$work/sim.txt")" ]
expected sim < "$work/sim.txt"
expect [ "$(json_num lost "$work/json")" = 0 ]
keep "$work/sim.dat" sim
result "record_simulator_events_kept ($(json_num events "$work/json") events)"

# The same events recorded as a Perfetto trace (-o FILE.pftrace): every
# event the recorder counted is in it; the host decodes it and checks the
# vendor events (check_guest_artifacts.sh).
# shellcheck disable=SC2086
start_background $sim_args -b 8192 --json -o "$work/sim.pftrace"
expect [ $rc = 0 ]
echo 43 > $sim/seed
echo 300 > $sim/step
"$VTRACE" stop --instance "$inst" > "$work/stop"
expect [ $? = 0 ]
grep '^{' "$work/stop" > "$work/json"
expect [ -s "$work/sim.pftrace" ]
expect [ "$(json_num lost "$work/json")" = 0 ]
expect [ "$(json_num events "$work/json")" -gt 300 ]
[ -n "$VTRACE_OUT" ] && gzip -c "$work/sim.pftrace" > "$VTRACE_OUT/sim-perfetto.pftrace.gz"
echo "events: $(json_num events "$work/json")" | expected sim-perfetto
result "record_simulator_events_perfetto ($(json_num events "$work/json") events)"

# The vendor events a phone's Perfetto trace shows as tracks, emitted with
# known values, and atrace markers: the host converts the file and asks
# Perfetto's importer for the tracks (check_guest_artifacts.sh). Mali CSF
# interrupts three times on CPU 0 and twice on CPU 1, each START then END;
# six MCU states; the GPU power state through its four levels; ACPM
# samples of the BIG, GPU and MID zones; the Mali driver's own markers (a
# slice and a counter); one generic event.
vendor_args=
for e in mali/gpu_power_state mali/mali_CSF_INTERRUPT_START \
	 mali/mali_CSF_INTERRUPT_END mali/mali_PM_MCU_OFF \
	 mali/mali_PM_MCU_PEND_ON_RELOAD mali/mali_PM_MCU_ON_GLB_REINIT_PEND \
	 mali/mali_PM_MCU_ON mali/mali_PM_MCU_ON_PEND_SLEEP \
	 mali/mali_PM_MCU_IN_SLEEP thermal_exynos/thermal_exynos_acpm_bulk \
	 thermal_exynos/thermal_exynos_acpm_high_overhead \
	 mali/tracing_mark_write thermal_exynos/thermal_exynos_arm_update; do
	vendor_args="$vendor_args -e $e"
done
# shellcheck disable=SC2086
start_background $vendor_args -b 1024 --json -o "$work/vendor.dat"
expect [ $rc = 0 ]
emit=/sys/kernel/debug/vtrace/emit
for s in "OFF GLOBAL" "GLOBAL COREGROUP" "COREGROUP STACKS" "STACKS OFF"; do
	echo "gpu_power_state $s" > $emit
done
irqs() {
	taskset -c "$1" sh -c 'for i in $1; do
		echo "mali_CSF_INTERRUPT_START kctx_tgid=0 kctx_id=0 info_val=$i" > $0
		echo "mali_CSF_INTERRUPT_END kctx_tgid=0 kctx_id=0 info_val=$i" > $0
	done' $emit "$2"
}
expect irqs 0 "1 2 3"
expect irqs 1 "17 18"
for s in OFF PEND_ON_RELOAD ON_GLB_REINIT_PEND ON ON_PEND_SLEEP IN_SLEEP; do
	echo "mali_PM_MCU_$s kctx_tgid=0 kctx_id=0 info_val=0" > $emit
done
echo "thermal_exynos_acpm_bulk tz_id=0 current_temp=41 cdev_state=1 timestamp=1000000" > $emit
echo "thermal_exynos_acpm_bulk tz_id=3 current_temp=52 cdev_state=2 timestamp=2000000" > $emit
echo "thermal_exynos_acpm_bulk tz_id=0 current_temp=44 cdev_state=3 timestamp=3000000" > $emit
echo "thermal_exynos_acpm_high_overhead tz_id=1 current_temp=63 cdev_state=4" > $emit
for t in "66 gpu_job 0" "69 gpu_job 0" "67 gpu_load 5"; do
	set -- $t
	echo "tracing_mark_write type=$1 pid=$$ name=$2 value=$3" > $emit
done
echo "thermal_exynos_arm_update tmu_name=BIG ppm_throttle_level=2 mpmm_throttle_level=1" > $emit
for m in "B|$$|frame" "B|$$|draw" "E|$$" "E|$$" "C|$$|fps|60" "C|$$|fps|30" \
	 "S|$$|upload|7" "F|$$|upload|7"; do
	echo "$m" > "$idir/trace_marker"
done
"$VTRACE" stop --instance "$inst" > "$work/stop"
expect [ $? = 0 ]
grep '^{' "$work/stop" > "$work/json"
expect [ "$(json_num events "$work/json")" = 36 ]
expect [ "$(json_num lost "$work/json")" = 0 ]
keep "$work/vendor.dat" vendor
echo "pid: $$" | expected vendor
result "record_vendor_events_for_perfetto ($(json_num events "$work/json") events)"

# vtrace.ko unloaded mid-record: its events stop, the recording goes on
# (a marker after the unload is kept) and ends normally. Unloading a module
# whose events were enabled resets every ring buffer (the tracing core's
# trace_module_remove_events()), dropping what was not read yet: after two
# of the recorder's ticks only the sub-buffer being filled is unread, and
# its entries go to the host, which checks that no more were lost.
start_background -e mali/mali_pm_status -e sched/sched_switch -b 8192 \
	--json -o "$work/unload.dat"
expect [ $rc = 0 ]
run_burst 5000
expect grep -q 'state: done' $burst/status
sleep 2.5
for stats in "$idir"/per_cpu/cpu*/stats; do
	cpu=${stats%/stats}
	awk -v cpu="${cpu##*/cpu}" '/^entries:/ { print "unread" cpu ": " $2 }' "$stats"
done | cat $burst/status - | expected unload
rmmod vtrace
expect [ $? = 0 ]
echo vtrace-after-unload > "$idir/trace_marker"
sleep 0.3
"$VTRACE" stop --instance "$inst" > "$work/stop" 2> "$work/err"
rc=$?
expect [ $rc = 0 ]
expect [ "$(cat "$idir/set_event")" = "" ]
insmod "$VTRACE_KO"
expect [ $? = 0 ]
keep "$work/unload.dat" unload
result "record_module_unloaded_mid_record"

# A CPU offline and back online while recording: a burst with it offline,
# one with it back; every event of both is kept.
if [ ! -w "$cpu1" ]; then
	ktap_test_skip "record_cpu_offline_online_mid_record (no cpu1 hotplug)"
	ktap_test_skip "record_cpu_first_online_mid_record (no cpu1 hotplug)"
	ktap_finished
fi
start_background -e mali/mali_pm_status -b 8192 --json -o "$work/cpuhp.dat"
expect [ $rc = 0 ]
echo 0 > "$cpu1"
expect [ "$(cat "$cpu1")" = 0 ]
run_burst 3000
first=$(emitted)
echo 1 > "$cpu1"
expect [ "$(cat "$cpu1")" = 1 ]
run_burst 3000
second=$(emitted)
"$VTRACE" stop --instance "$inst" > "$work/stop" 2> "$work/err"
rc=$?
expect [ $rc = 0 ]
grep '^{' "$work/stop" > "$work/json"
expect [ "$(json_num events "$work/json")" = $((first + second)) ]
expect [ "$(json_num lost "$work/json")" = 0 ]
printf 'offline: %s\nonline: %s\n' "$first" "$second" | expected cpuhp
keep "$work/cpuhp.dat" cpuhp
result "record_cpu_offline_online_mid_record ($first + $second events)"

# A CPU offline when the recording makes its instance has no ring buffer
# there until it first comes online: it is read from then on.
late=vtrace_rec_late_$$
echo 0 > "$cpu1"
"$VTRACE" record --instance "$late" --background -e mali/mali_pm_status \
	-b 8192 --json -o "$work/late.dat" > "$work/bgpid" 2> "$work/err"
expect [ $? = 0 ]
echo 1 > "$cpu1"
expect [ "$(cat "$cpu1")" = 1 ]
sleep 1.5 # the recorder looks for new CPUs once a second
run_burst 3000
"$VTRACE" stop --instance "$late" > "$work/stop" 2> "$work/err"
expect [ $? = 0 ]
grep '^{' "$work/stop" > "$work/json"
cpu1_events=$(sed -n 's/.*{"cpu":1,"events":\([0-9]*\),.*/\1/p' "$work/json")
expect [ "$(json_num events "$work/json")" = "$(emitted)" ]
expect [ "$cpu1_events" = 3000 ]
expect [ "$(json_num lost "$work/json")" = 0 ]
expect [ ! -d "$TRACEFS/instances/$late" ]
result "record_cpu_first_online_mid_record (cpu1: ${cpu1_events:-none} of $(emitted) events)"

ktap_finished
