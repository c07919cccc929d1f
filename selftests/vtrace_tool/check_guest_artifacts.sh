#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check_guest_artifacts.sh ARTIFACT_DIR TARGET - read back, on the host, the
# trace.dat files record_test.sh recorded in a rig guest (NAME.dat.gz) with
# Debian's trace-cmd and with the host's vtrace report, and the Perfetto
# file of probes_test.sh with protoc, against the values the guest wrote
# next to them (NAME.expect). Prints KTAP.
#
# The plan is fixed per TARGET: a file the guest should have left and did
# not is a failure, not a skip.

set -u
# trace-cmd prints what a field holds, bytes that are not UTF-8 included
# (libtraceevent formats mali/tracing_mark_write's "%c" wrongly and prints
# the pid's bytes as text): read its lines byte by byte.
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../kselftest/ktap_helpers.sh"
. "$here/kshark_check.sh"
. "$here/perfetto_check.sh"

art=${1:?usage: check_guest_artifacts.sh ARTIFACT_DIR TARGET}
target=${2:?usage: check_guest_artifacts.sh ARTIFACT_DIR TARGET}
VTRACE=${VTRACE:-$top/tools/vtrace/vtrace}
work=$(mktemp -d /tmp/vtrace-artifacts.XXXXXX)
VT_TMP=$work
trap 'rm -rf "$work"' EXIT

paths="splice read"
case "$target" in
5.10-* | 6.1-*) ;; # no ring-buffer mmap before 6.10
*) paths="mmap $paths" ;;
esac

ktap_print_header
if ! command -v trace-cmd > /dev/null || [ ! -x "$VTRACE" ]; then
	ktap_skip_all "needs trace-cmd and $VTRACE"
	exit "$KSFT_SKIP"
fi
ktap_set_plan $(($(wc -w <<< "$paths") + 14))

ok=1
expect() {
	"$@" && return
	ok=0
	ktap_print_msg "failed: $*"
}

result() {
	if [ $ok = 1 ]; then
		ktap_test_pass "$1"
	else
		ktap_test_fail "$1"
	fi
	ok=1
}

# value NAME KEY: "KEY: value" from NAME.expect.
value() {
	sed -n "s/^$2: *//p" "$art/$1.expect"
}

# open NAME [EXPECT]: unpack NAME.dat.gz, report it with trace-cmd (tc.txt,
# without its "cpus=N" line) and vtrace (vt.txt); fails unless both read
# it, KernelShark loads the same events, and EXPECT.expect (default
# NAME.expect) exists.
open() {
	local dat=$work/$1.dat expect=${2:-$1} rc

	if [ ! -f "$art/$1.dat.gz" ] || [ ! -f "$art/$expect.expect" ]; then
		ktap_print_msg "the guest left no $1.dat.gz / $expect.expect"
		return 1
	fi
	gunzip -c "$art/$1.dat.gz" > "$dat" || return 1
	trace-cmd report "$dat" 2> "$work/tc.err" | grep -v '^cpus=' |
		secs_usecs > "$work/tc.txt"
	rc=${PIPESTATUS[0]}
	[ "$rc" = 0 ] || { ktap_print_msg "trace-cmd report: $rc $(head -c 300 "$work/tc.err")"; return 1; }
	"$VTRACE" report "$dat" > "$work/vt.txt" 2> "$work/vt.err" ||
		{ ktap_print_msg "vtrace report: $(head -c 300 "$work/vt.err")"; return 1; }
	# Every file also converts to Perfetto, event for event.
	if pf_check_convert "$work/$1"; then
		pf_converted+=("$1")
	else
		pf_failed+=("$1")
	fi
	kshark_same_events "$dat"
}
pf_converted=()
pf_failed=()

# secs_usecs: trace-cmd 3.1 prints the time stamps of a clock it does not
# know to count nanoseconds (boot, a Perfetto recording's) as plain
# nanoseconds; vtrace report prints every clock's as seconds.microseconds,
# as trace-cmd does for the clocks it knows. Print them that way.
secs_usecs() {
	perl -pe 's/^(.*?\[\d+\]) *(\d+):/sprintf("%s %5d.%06d:", $1,
		int(int(($2 + 500) \/ 1000) \/ 1000000),
		int(($2 + 500) \/ 1000) % 1000000)/e'
}

# same_report: vtrace report printed what trace-cmd report did.
same_report() {
	cmp -s "$work/tc.txt" "$work/vt.txt" && return
	diff "$work/tc.txt" "$work/vt.txt" | head -6 | sed 's/^/# /'
	return 1
}

# The burst's mali_pm_status events of tc.txt (event_id 0x10000, printed
# as the device does, "gpu=GPU_ID event 65536 = VALUE") as "CPU GPU_ID
# VALUE" lines.
pm_status() {
	sed -nE 's/.*\[0*([0-9]+)\] +[0-9.]+: mali_pm_status: +gpu=([0-9]+) event 65536 = ([0-9]+)$/\1 \2 \3/p' \
		"$work/tc.txt"
}

# count_on CPU: burst events recorded from CPU.
count_on() {
	pm_status | awk -v cpu="$1" '$1 == cpu' | wc -l
}

for path in $paths; do
	if open "markers-$path" markers; then
		n=$(value markers markers)
		expect [ -n "$n" ]
		expect [ "$(grep -c 'vtrace-marker-[0-9]' "$work/tc.txt")" = "$n" ]
		sed -n 's/.*vtrace-marker-\([0-9]*\)$/\1/p' "$work/tc.txt" > "$work/seen"
		expect cmp -s "$work/seen" <(seq 1 "$n")
		expect same_report
	else
		ok=0
	fi
	result "guest_${path}_markers_read_back_in_order"
done

# Burst: each CPU's events, exactly per_cpu of them, gpu_id = the CPU and
# value 0..per_cpu-1 in order.
if open burst; then
	per_cpu=$(value burst per_cpu)
	cpus=$(value burst cpus)
	expect [ "$(value burst state)" = done ]
	expect [ "$(pm_status | wc -l)" = "$(value burst emitted)" ]
	for ((cpu = 0; cpu < cpus; cpu++)); do
		pm_status | awk -v cpu=$cpu '$1 == cpu { print $2, $3 }' > "$work/seen"
		expect cmp -s "$work/seen" <(seq 0 $((per_cpu - 1)) |
			awk -v cpu=$cpu '{ printf "%d %d\n", cpu, $1 }')
	done
	expect same_report
else
	ok=0
fi
result "guest_burst_exact_per_cpu_in_order"

# Simulator: the decoded events are the kernel's own text of them (kept
# by a second instance in the guest), field for field, in order.
if open sim; then
	# Drop what the two formats print differently (task, CPU, flags,
	# timestamp, padding): keep "event: fields".
	strip() {
		sed -E 's/^.*\] [^:]*[0-9]+\.[0-9]+: ([A-Za-z0-9_]+): +/\1: /; s/ +$//' "$1"
	}
	strip "$art/sim.expect" > "$work/want"
	strip "$work/tc.txt" > "$work/got"
	expect [ "$(wc -l < "$work/want")" -gt 300 ]
	expect grep -q '^gpu_power_state: ' "$work/want"
	expect grep -q '^thermal_exynos_arm_update: ' "$work/want"
	if ! cmp -s "$work/want" "$work/got"; then
		diff "$work/want" "$work/got" | head -6 | sed 's/^/# /'
		ok=0
	fi
	expect same_report
else
	ok=0
fi
result "guest_simulator_fields_match_the_kernel_text ($(cat "$work/want" 2> /dev/null | wc -l) events)"

# Module unloaded mid-record: the unload resets the ring buffers, so each
# CPU keeps the burst's values 0..k-1 in order, with k at least per_cpu
# minus the entries unread just before the unload; then the marker written
# after the unload.
if open unload; then
	per_cpu=$(value unload per_cpu)
	for ((cpu = 0; cpu < $(value unload cpus); cpu++)); do
		pm_status | awk -v cpu=$cpu '$1 == cpu { print $2, $3 }' > "$work/seen"
		kept=$(wc -l < "$work/seen")
		ktap_print_msg "cpu$cpu: kept $kept of $per_cpu, $(value unload "unread$cpu") unread at the unload"
		expect [ "$kept" -ge $((per_cpu - $(value unload "unread$cpu"))) ]
		expect cmp -s "$work/seen" <(seq 0 $((kept - 1)) |
			awk -v cpu=$cpu '{ printf "%d %d\n", cpu, $1 }')
	done
	last_pm=$(grep -n 'mali_pm_status:' "$work/tc.txt" | tail -1 | cut -d: -f1)
	marker=$(grep -n 'vtrace-after-unload' "$work/tc.txt" | cut -d: -f1)
	expect [ -n "$marker" ]
	expect [ "${marker:-0}" -gt "${last_pm:-0}" ]
	expect same_report
else
	ok=0
fi
result "guest_module_unload_keeps_events_then_recording_goes_on"

# CPU 1 offline for the first burst, back for the second.
if open cpuhp; then
	offline=$(value cpuhp offline)
	online=$(value cpuhp online)
	expect [ "$(pm_status | wc -l)" = $((offline + online)) ]
	expect [ "$(count_on 0)" = "$online" ]
	expect [ "$(count_on 1)" = $((online - offline)) ]
	expect same_report
else
	ok=0
fi
result "guest_cpu_offline_online_keeps_every_event"

# Disk full in the guest: the file holds exactly what the summary counted.
if open full; then
	expect [ "$(grep -cE '\[[0-9]+\] +[0-9]+\.[0-9]+: [a-z_]+: ' "$work/tc.txt")" = \
		"$(value full events)" ]
	expect same_report
else
	ok=0
fi
result "guest_disk_full_file_valid"

# SIGKILLed recording: report says incomplete, exit status 1.
if [ -f "$art/killed.dat.gz" ]; then
	gunzip -c "$art/killed.dat.gz" > "$work/killed.dat"
	"$VTRACE" report "$work/killed.dat" > /dev/null 2> "$work/err"
	expect [ $? = 1 ]
	expect grep -q incomplete "$work/err"
else
	ktap_print_msg "the guest left no killed.dat.gz"
	ok=0
fi
result "guest_killed_recording_reported_incomplete"

# Every file above, converted to Perfetto on the host (pf_check_convert:
# per-event counts equal trace-cmd report's, a cpu in every bundle,
# timestamp and pid in every event, no unknown field).
if [ ${#pf_failed[@]} = 0 ] && [ ${#pf_converted[@]} -gt 0 ]; then
	ktap_test_pass "guest_files_convert_to_perfetto (${#pf_converted[@]} files${pf_note:+; $pf_note})"
else
	ktap_print_msg "failed: ${pf_failed[*]:-none converted}"
	ktap_test_fail "guest_files_convert_to_perfetto"
fi

# The simulator's vendor events in Perfetto: gpu_power_state typed (its
# counter track is Perfetto's own, mali_gpu_power_state, not one of
# vtrace's), thermal_exynos_arm_update generic with its TMU name, and its
# counter tracks.
if ! pf_schema; then
	ktap_test_skip "guest_vendor_events_in_perfetto: $pf_schema_why"
elif [ -s "$work/sim.txt" ] &&
     grep -q '^      mali_gpu_power_state {' "$work/sim.txt" &&
     grep -q 'event_name: "thermal_exynos_arm_update"' "$work/sim.txt" &&
     grep -A2 'name: "tmu_name"' "$work/sim.txt" | grep -q 'str_value: "' &&
     ! grep -q 'name: "gpu_power_state"' "$work/sim.txt" &&
     grep -q 'name: "thermal_exynos_arm_update .* ppm_throttle_level"' "$work/sim.txt"; then
	ktap_test_pass "guest_vendor_events_in_perfetto"
else
	ktap_test_fail "guest_vendor_events_in_perfetto"
fi

# The simulator recorded in the guest as a Perfetto trace (vtrace record
# -o sim.pftrace): as many events as the recorder counted, a cpu in every
# bundle, timestamp and pid in every event, no unknown field, the vendor
# events typed or generic, and their counter tracks; Perfetto's importer
# reads as many, with no error stat.
name=guest_recorded_perfetto_trace
if [ ! -f "$art/sim-perfetto.pftrace.gz" ] || [ ! -f "$art/sim-perfetto.expect" ]; then
	ktap_print_msg "the guest left no sim-perfetto.pftrace.gz / sim-perfetto.expect"
	ktap_test_fail "$name"
elif ! pf_schema; then
	ktap_test_skip "$name: $pf_schema_why"
else
	gunzip -c "$art/sim-perfetto.pftrace.gz" > "$work/rec.pftrace"
	pf_decode "$work/rec.pftrace" > "$work/rec.txt"
	want=$(value sim-perfetto events)
	got=$(pf_event_counts "$work/rec.txt" | awk '{ n += $2 } END { print n + 0 }')
	imported=$want
	tp_note=
	if ! tp_find; then
		tp_note="; Perfetto import skipped: $tp_why"
	else
		imported=$(tp_query "$work/rec.pftrace" "select count(*) from ftrace_event;")
		tp_bad_stats "$work/rec.pftrace" > "$work/rec.stats"
		[ -s "$work/rec.stats" ] && imported="$imported, stats $(tr '\n' ';' < "$work/rec.stats")"
	fi
	if pf_structure "$work/rec.txt" > "$work/rec.structure" &&
	   [ "$got" = "$want" ] && [ "$imported" = "$want" ] &&
	   grep -q '^      mali_gpu_power_state {' "$work/rec.txt" &&
	   grep -q 'event_name: "thermal_exynos_arm_update"' "$work/rec.txt" &&
	   grep -q 'event_name: "mali_pm_status"' "$work/rec.txt" &&
	   grep -q 'name: "thermal_exynos_arm_update .* mpmm_throttle_level"' "$work/rec.txt"; then
		ktap_test_pass "$name ($got events$tp_note)"
	else
		ktap_print_msg "events $got of $want, Perfetto imported $imported; $(head -3 "$work/rec.structure")"
		ktap_test_fail "$name"
	fi
fi

# The vendor events record_test.sh emitted with known values, converted,
# as the tracks Perfetto's importer makes of them on a phone's trace:
# mali_gpu_power_state's values; a "Mali Irq Cpu N" slice per CSF
# interrupt on its CPU with its info_val, timed by its START and END;
# the MCU states as consecutive slices; ACPM temperatures and cooling
# states per zone at the sample's own timestamp (acpm_bulk) or the
# event's (acpm_high_overhead); a generic event's fields as arguments;
# atrace and the Mali driver's markers as the writer's slices and its
# process's counters, an async slice; the writer's thread name. Times
# are trace-cmd's reading of the same file.
name=guest_vendor_tracks_in_perfetto
if ! tp_find; then
	ktap_test_skip "$name: $tp_why"
elif ! open vendor; then
	ktap_test_fail "$name"
else
	pid=$(value vendor pid)
	# tc_ns EVENT_RE: "CPU TS EVENT FIELDS" of the events whose name
	# EVENT_RE (no groups) matches, times in ns (trace-cmd -t prints
	# SECONDS.NANOSECONDS for local, the nanoseconds alone for boot).
	tc_ns() {
		trace-cmd report -N -t -i "$work/vendor.dat" 2> /dev/null |
			sed -nE "s/^.*\[0*([0-9]+)\] *([0-9]+)\.?([0-9]{9})?: ($1): +(.*)$/\1 \2\3 \4 \5/p"
	}
	# q WHAT SQL: the query's rows against $work/want.
	q() {
		tp_query "$work/vendor.pftrace" "$2" | tr -d '"' > "$work/got" &&
			cmp -s "$work/want" "$work/got" && return
		ktap_print_msg "$1: want $(tr '\n' ';' < "$work/want") got $(tr '\n' ';' < "$work/got")"
		return 1
	}
	printf '1\n2\n3\n0\n' > "$work/want"
	expect q mali_gpu_power_state "select cast(c.value as int) from counter c
		join track t on c.track_id = t.id
		where t.name = 'mali_gpu_power_state' order by c.ts;"
	tc_ns 'mali_CSF_INTERRUPT_[A-Z]+' | awk '
		function hex(s, i, n) {
			for (i = 1; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		{ info = hex(substr($5, 8)) }
		$3 ~ /START$/ { start[$1] = $2; next }
		{ printf "Mali Irq Cpu %d,mali_CSF_INTERRUPT,%s,%d,%d\n", $1,
			start[$1], $2 - start[$1], info
		  delete start[$1] }' | sort > "$work/want"
	expect [ "$(wc -l < "$work/want")" = 5 ]
	expect q mali_irq "select t.name, s.name, s.ts, s.dur,
		extract_arg(s.arg_set_id, 'info_val') from slice s
		join track t on s.track_id = t.id
		where t.name glob 'Mali Irq Cpu *' order by t.name, s.ts;"
	tc_ns 'mali_PM_MCU_[A-Z_]+' | awk '
		NR > 1 { print state "," $2 - ts }
		{ ts = $2; state = substr($3, 13) }
		END { print state ",-1" }' > "$work/want"
	expect [ "$(cut -d, -f1 "$work/want" | tr '\n' ' ')" = "OFF PEND_ON_RELOAD ON_GLB_REINIT_PEND ON ON_PEND_SLEEP IN_SLEEP " ]
	expect q mali_mcu_state "select s.name, s.dur from slice s
		join track t on s.track_id = t.id
		where t.type = 'mali_mcu_state' order by s.ts;"
	overhead_ts=$(tc_ns thermal_exynos_acpm_high_overhead | cut -d' ' -f2)
	cat > "$work/want" <<- EOF
		BIG Temperature,1000000,41
		BIG Temperature,3000000,44
		GPU Temperature,2000000,52
		MID Temperature,$overhead_ts,63
		Tj-BIG Cooling Device,1000000,1
		Tj-BIG Cooling Device,3000000,3
		Tj-GPU Cooling Device,2000000,2
		Tj-MID Cooling Device,$overhead_ts,4
	EOF
	expect q acpm "select t.name, c.ts, cast(c.value as int) from counter c
		join track t on c.track_id = t.id
		where t.type in ('acpm_thermal_temperature',
				 'acpm_cooling_device_counter')
		order by t.name, c.ts;"
	printf '%s\n' tmu_name,BIG is_cpu_hw_throttled,0 ppm_throttle_level,2 \
		ppm_clr_level,0 mpmm_throttle_level,1 mpmm_clr_level,0 > "$work/want"
	expect q generic_fields "select key, display_value from args
		where arg_set_id = (select arg_set_id from ftrace_event
				    where name = 'thermal_exynos_arm_update')
		order by id;"
	printf '%s\n' gpu_job,0 frame,0 draw,1 > "$work/want"
	expect q thread_slices "select s.name, s.depth from slice s
		join thread_track tt on s.track_id = tt.id join thread using (utid)
		where thread.tid = $pid order by s.ts;"
	printf '%s\n' gpu_load,5 fps,60 fps,30 > "$work/want"
	expect q process_counters "select t.name, cast(c.value as int)
		from counter c join process_counter_track t on c.track_id = t.id
		join process p using (upid) where p.pid = $pid order by c.ts;"
	echo upload,1 > "$work/want"
	expect q async_slice "select s.name, s.dur > 0 from slice s
		join process_track t on s.track_id = t.id
		join process p using (upid) where p.pid = $pid;"
	trace-cmd report -N -i "$work/vendor.dat" 2> /dev/null |
		sed -nE "s/^ *(.*)-$pid +\[.*$/\1/p" | sort -u > "$work/want"
	# One thread of that tid, in its process (the converted file names
	# the process from the markers: a trace.dat keeps no tgids).
	expect q thread_name "select name from thread where tid = $pid;"
	sed "s/^/$pid,/" "$work/want" > "$work/want.p"
	mv "$work/want.p" "$work/want"
	expect q process "select pid, name from process where pid = $pid;"
	result "$name"
fi

# function_graph in the guest (vtrace_guest_test.sh): slices_markers'
# write(2)s as ksys_write > vfs_write kernel slices of its two threads,
# its markers as slices, and the method trace vtrace convert writes keeps
# the marker slices and the writes that carry no B or E (those cross a
# marker slice: the kernel slice is left out).
# Not open(): trace-cmd report prints a leaf function's entry and exit as
# one line, so its lines are not KernelShark's events; both tools must
# still read the file.
fgraph_open() {
	if [ ! -f "$art/fgraph.dat.gz" ] || [ ! -f "$art/fgraph.expect" ]; then
		ktap_print_msg "the guest left no fgraph.dat.gz / fgraph.expect"
		return 1
	fi
	gunzip -c "$art/fgraph.dat.gz" > "$work/fgraph.dat" &&
		trace-cmd report "$work/fgraph.dat" > /dev/null 2>&1 &&
		"$VTRACE" report "$work/fgraph.dat" > /dev/null 2>&1
}
if fgraph_open; then
	pid=$(value fgraph pid)
	worker=$(value fgraph worker)
	"$VTRACE" slices --json "$work/fgraph.dat" > "$work/fg.json" 2> /dev/null
	expect python3 - "$work/fg.json" "$pid" "$worker" << 'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
pid, worker = int(sys.argv[2]), int(sys.argv[3])
ok = True
# 17 markers and the exit's printf on the main thread, 5 on the worker.
for tid, writes in ((pid, 18), (worker, 5)):
	mine = [s for s in d["slices"] if s["tid"] == tid]
	ks = [s for s in mine if s["name"] == "ksys_write"]
	vs = [s for s in mine if s["name"] == "vfs_write"]
	inside = all(any(k["ts"] <= v["ts"] and v["ts"] + v["dur"] <= k["ts"] + k["dur"]
			 and v["depth"] == k["depth"] + 1 for k in ks) for v in vs)
	marks = [[s["name"], s["depth"]] for s in mine if "write" not in s["name"]]
	want = {pid: [["outer", 0], ["inner", 1], ["inner", 1], ["inner", 2]],
		worker: [["work", 0], ["work|step", 1]]}[tid]
	print("# tid %d: %d ksys_write, %d vfs_write, markers %s" % (tid, len(ks), len(vs), marks))
	ok &= len(ks) == writes and len(vs) == writes and inside and marks == want
	ok &= all(s["pid"] == pid for s in mine)
sys.exit(0 if ok else 1)
PYEOF
	expect "$VTRACE" convert --quiet "$work/fgraph.dat" "$work/fgraph.trace"
	if command -v dmtracedump > /dev/null; then
		dmtracedump -o "$work/fgraph.trace" > "$work/fg.dump" 2>&1
		expect [ "$(grep -cE "^ *$pid ent +[0-9]+ \.+ksys_write$" "$work/fg.dump")" = 10 ]
		expect [ "$(grep -cE "^ *$worker ent +[0-9]+ \.+ksys_write$" "$work/fg.dump")" = 1 ]
		expect [ "$(grep -cE "^ *($pid|$worker) ent +[0-9]+ \.+(outer|inner|work|work\|step)$" "$work/fg.dump")" = 6 ]
	fi
else
	ok=0
fi
result "guest_function_graph_kernel_slices"

# probes_test.sh: a config of every data source; the thermal zones polled
# while the simulator held still, every poll at the simulator's temperature
# ("TYPE: CELSIUS" lines), the guest's init in the process tree, the system
# info, memory and process counters, and the four GPU power states emitted
# meanwhile.
if ! pf_schema; then
	ktap_test_skip "guest_thermal_zones_polled ($pf_schema_why)"
elif [ ! -f "$art/probes-thermal.pftrace.gz" ] || [ ! -f "$art/probes-thermal.expect" ]; then
	ktap_print_msg "the guest left no probes-thermal.pftrace.gz / .expect"
	ktap_test_fail "guest_thermal_zones_polled"
else
	gunzip -c "$art/probes-thermal.pftrace.gz" > "$work/thermal.pftrace"
	expect pf_decode "$work/thermal.pftrace" > "$work/thermal.txt"
	# "TYPE CELSIUS" of every ThermalZone of every poll.
	awk '/^    thermal_zone \{/ { z = 1; t = ""; c = "" }
	     z && /^      temp: / { c = $2 }
	     z && /^      type: / { t = $2; gsub(/"/, "", t) }
	     z && /^    \}/ { print t, c; z = 0 }' "$work/thermal.txt" > "$work/zones"
	# The polls of the thermal zones (meminfo's come at other ones).
	polls=$(awk '/^  sys_stats \{/ { s = 1; z = 0 }
		s && /^    thermal_zone \{/ && !z { n++; z = 1 }
		/^  \}/ { s = 0 }
		END { print n + 0 }' "$work/thermal.txt")
	# A guest under TCG skips polls it had no CPU for: some, not all.
	expect [ "$polls" -ge 10 ]
	expect [ "$(grep -c '^  system_info {' "$work/thermal.txt")" = 1 ]
	expect [ "$(grep -c '^      key: MEMINFO_MEM_FREE$' "$work/thermal.txt")" -ge 1 ]
	expect [ "$(grep -c '^  process_stats {' "$work/thermal.txt")" -ge 1 ]
	expect [ "$(grep -c '^      mali_gpu_power_state {' "$work/thermal.txt")" = 4 ]
	while read -r name celsius; do
		name=${name%:}
		[ "$name" = init ] && continue
		expect [ "$(awk -v n="$name" '$1 == n' "$work/zones" | sort -u)" = "$name $celsius" ]
		expect [ "$(awk -v n="$name" '$1 == n' "$work/zones" | wc -l)" = "$polls" ]
	done < "$art/probes-thermal.expect"
	init=$(value probes-thermal init)
	expect grep -q "^      cmdline: \"$init\"$" "$work/thermal.txt"
	# Perfetto's importer: a thermal_temperature_sys counter track per
	# zone, named by its type, a value per poll, and no error.
	if tp_find; then
		tp_query "$work/thermal.pftrace" "select t.name, count(c.id),
			cast(min(c.value) as int), cast(max(c.value) as int)
			from counter_track t join counter c on c.track_id = t.id
			where t.type = 'thermal_temperature_sys'
			group by t.id order by t.name;" | tr -d '"' > "$work/tracks"
		grep -v '^init:' "$art/probes-thermal.expect" |
			awk -v p="$polls" '{ sub(":", "", $1); print $1 "," p "," $2 "," $2 }' |
			sort > "$work/want-tracks"
		expect cmp -s "$work/want-tracks" "$work/tracks"
		tp_bad_stats "$work/thermal.pftrace" > "$work/thermal.stats"
		expect [ ! -s "$work/thermal.stats" ]
		expect [ "$(tp_query "$work/thermal.pftrace" "select group_concat(v) from
			(select cast(c.value as int) as v from counter c
			join track t on c.track_id = t.id
			where t.name = 'mali_gpu_power_state' order by c.ts);" | tr -d '"')" = 1,2,3,0 ]
		expect [ "$(tp_query "$work/thermal.pftrace" "select count(*) from process where pid = 1 and (cmdline = '$init' or cmdline like '$init %');")" = 1 ]
	else
		ktap_print_msg "Perfetto's importer not checked: $tp_why"
	fi
	result "guest_thermal_zones_polled ($polls polls: $(sort -u "$work/zones" | tr '\n' ' '))"
fi

# vtrace view on the guest's function_graph recording, opened in headless
# chromium (view_test.sh checks the page itself): every slice is a span,
# each thread's row holds its slices, the two threads of slices_markers
# among them, and the profile counts one ksys_write and one vfs_write per
# write(2) of any thread, as vtrace slices has them. The screenshot is
# kept in VIEW_ARTIFACTS (default .cache/artifacts/view/).
view_name="guest_recording_in_browser"
chromium=$(command -v chromium || command -v chromium-browser)
if [ ! -f "$art/fgraph.dat.gz" ] || [ ! -f "$art/fgraph.expect" ]; then
	ktap_test_skip "$view_name (the guest left no fgraph.dat.gz / fgraph.expect)"
elif [ -z "$chromium" ]; then
	ktap_test_skip "$view_name (no chromium: tools/rig/setup.sh installs it)"
else
	shots=${VIEW_ARTIFACTS:-$top/.cache/artifacts/view}
	mkdir -p "$shots"
	pid=$(value fgraph pid)
	worker=$(value fgraph worker)
	gunzip -c "$art/fgraph.dat.gz" > "$work/view.dat"
	expect "$VTRACE" view "$work/view.dat" -o "$work/view.html"
	"$VTRACE" slices --json "$work/view.dat" > "$work/view.json" 2> /dev/null
	browser() {
		timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
			--no-first-run --user-data-dir="$work/chromium" \
			--window-size=1200,900 --virtual-time-budget=20000 \
			--host-resolver-rules='MAP * ~NOTFOUND' \
			--proxy-server=127.0.0.1:9 "$@" 2> /dev/null
	}
	browser --dump-dom "file://$work/view.html" > "$work/view.dom"
	expect python3 - "$work/view.dom" "$work/view.json" "$pid" "$worker" << 'PYEOF'
import html, json, re, sys
m = re.search(r'<pre id="vtrace-state"[^>]*>(.*?)</pre>', open(sys.argv[1]).read(), re.S)
d = json.loads(html.unescape(m.group(1))) if m else {}
s = json.load(open(sys.argv[2]))
pid, worker = sys.argv[3], sys.argv[4]
rows = {r["label"].split()[-1]: r["spans"] for r in d.get("rows", []) if r["kind"] == "thread"}
want = {}
for x in s["slices"]:
	want[str(x["tid"])] = want.get(str(x["tid"]), 0) + 1
calls = {r["name"]: r["calls"] for r in d.get("profile", {}).get("rows", [])}
writes = len([x for x in s["slices"] if x["name"] == "ksys_write"])
print("# view: %s spans, thread rows %s, ksys_write %s, vfs_write %s" %
      (d.get("spans"), rows, calls.get("ksys_write"), calls.get("vfs_write")))
ok = d.get("ready") and d["spans"] == len(s["slices"]) and rows == want
ok = ok and pid in rows and worker in rows and writes >= 23
ok = ok and calls.get("ksys_write") == writes and calls.get("vfs_write") == writes
sys.exit(0 if ok else 1)
PYEOF
	browser --screenshot="$shots/guest-$target-timeline.png" \
		"file://$work/view.html#sel=ksys_write" > /dev/null
	expect [ -s "$shots/guest-$target-timeline.png" ]
	result "$view_name"
fi

# The simulator's recording in the page, from the trace.dat and from its
# Perfetto conversion: the vendor counters as rows of the "Counters"
# group, named as Perfetto names them; mali_gpu_power_state holds the
# to= state of every gpu_power_state the kernel printed (sim.expect), in
# order, and thermal_cpu_pressure each CPU's pressure; both pages have
# the same rows and values.
view_name="guest_simulator_counters_in_browser"
if [ ! -f "$art/sim.dat.gz" ] || [ ! -f "$art/sim.expect" ]; then
	ktap_test_skip "$view_name (the guest left no sim.dat.gz / sim.expect)"
elif [ -z "$chromium" ]; then
	ktap_test_skip "$view_name (no chromium: tools/rig/setup.sh installs it)"
else
	shots=${VIEW_ARTIFACTS:-$top/.cache/artifacts/view}
	mkdir -p "$shots"
	gunzip -c "$art/sim.dat.gz" > "$work/sim-view.dat"
	expect "$VTRACE" convert --quiet "$work/sim-view.dat" "$work/sim-view.pftrace"
	for f in dat pftrace; do
		expect "$VTRACE" view "$work/sim-view.$f" -o "$work/sim-$f.html"
		timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
			--no-first-run --user-data-dir="$work/chromium" \
			--window-size=1200,900 --virtual-time-budget=20000 \
			--dump-dom "file://$work/sim-$f.html" > "$work/sim-$f.dom" 2> /dev/null
	done
	expect python3 - "$work/sim-dat.dom" "$work/sim-pftrace.dom" "$art/sim.expect" << 'PYEOF'
import html, json, re, sys
def state(path):
	m = re.search(r'<pre id="vtrace-state"[^>]*>(.*?)</pre>', open(path).read(), re.S)
	return json.loads(html.unescape(m.group(1))) if m else {}
states = [state(sys.argv[1]), state(sys.argv[2])]
text = open(sys.argv[3]).read()
levels = {"OFF": 0, "GLOBAL": 1, "COREGROUP": 2, "STACKS": 3}
power = [levels[m] for m in re.findall(r" gpu_power_state: .* to=([A-Z]+) ", text)]
pressure = {}
for v, cpu in re.findall(r" thermal_cpu_pressure: pressure=(-?\d+) cpu=(\d+)", text):
	pressure.setdefault("thermal_cpu_pressure cpu" + cpu, []).append(int(v))
ok = len(power) > 10
for d in states:
	rows = d.get("rows", [])
	counters = {r["label"]: r["values"] for r in rows if r["kind"] == "counter"}
	groups = [r["label"] for r in rows if r["kind"] == "group"]
	print("# %d counter rows; mali_gpu_power_state %d values, %d printed" %
	      (len(counters), len(counters.get("mali_gpu_power_state", [])), len(power)))
	ok &= d.get("ready") is True and groups == ["Counters"]
	ok &= counters.get("mali_gpu_power_state") == power
	ok &= all(counters.get(k) == v for k, v in pressure.items()) and len(pressure) > 0
	ok &= any(k.startswith("thermal_exynos_arm_update ") for k in counters)
ok &= states[0].get("rows") == states[1].get("rows")
sys.exit(0 if ok else 1)
PYEOF
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
		--no-first-run --user-data-dir="$work/chromium" \
		--window-size=1200,900 --virtual-time-budget=20000 \
		--screenshot="$shots/guest-$target-counters.png" \
		"file://$work/sim-dat.html" > /dev/null 2>&1
	expect [ -s "$shots/guest-$target-counters.png" ]
	result "$view_name"
fi

ktap_finished
