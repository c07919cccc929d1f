#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The data sources beside ftrace (linux.process_stats, linux.sys_stats,
# linux.system_info) in vtrace record --config: the Perfetto seed's own
# config runs unchanged, and what the file holds is what /proc, sysfs and
# uname say, decoded with protoc and Perfetto's schema where they are at
# hand. A trace.dat has no place for them: a warning, an error under
# --strict. The same from the command line (--poll, --process-tree), and
# vtrace config writing them.

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
proto_dir=${VTRACE_PERFETTO_PROTO_DIR:-$here/../../../shared/ref/perfetto}
trap 'vt_cleanup_tmp' EXIT

vt_require_root
vt_require_tracefs

ktap_print_header
ktap_set_plan 11

# The seed's config (Perfetto's "record a trace on the device" example),
# two seconds long; the buffers and sources as given there.
cat > "$work/seed.pbtx" <<'EOF'
duration_ms: 2000
buffers: {
    size_kb: 8960
    fill_policy: DISCARD
}
buffers: {
    size_kb: 1280
    fill_policy: DISCARD
}
data_sources: {
    config {
        name: "linux.ftrace"
        ftrace_config {
            ftrace_events: "sched/sched_switch"
            ftrace_events: "sched/sched_process_exit"
            ftrace_events: "task/task_newtask"
        }
    }
}
data_sources: {
    config {
        name: "linux.process_stats"
        target_buffer: 1
        process_stats_config {
            scan_all_processes_on_start: true
        }
    }
}
data_sources: { config { name: "linux.system_info" target_buffer: 1 } }
EOF

have_protoc=0
if command -v protoc > /dev/null && [ -f "$proto_dir/perfetto_trace.proto" ]; then
	have_protoc=1
fi

# missing_kinds - of devfreq and cpufreq, those this kernel lacks ("a,b")
missing_kinds()
{
	m=
	[ -r /sys/class/devfreq ] || m=devfreq
	[ -r /sys/devices/system/cpu/cpu0/cpufreq ] || m=${m:+$m,}cpufreq
	echo "$m"
}

# expect_missing_said JSON ERR KINDS - --json's "probes" lists KINDS, and
# stderr says each once.
expect_missing_said()
{
	expect [ "$(sed -n 's/.*"probes":{"missing":\[\([^]]*\)\].*/\1/p' "$1")" = \
		"$(printf '%s' "$3" | sed 's/[a-z]*/"&"/g')" ]
	for kind in $(echo "$3" | tr , ' '); do
		expect [ "$(grep -c "linux.sys_stats: this kernel has no $kind counters: not polled" "$2")" = 1 ]
	done
}

# decode FILE - the trace as protoc's text, into FILE.txt
decode()
{
	protoc --decode=perfetto.protos.Trace -I "$proto_dir" \
		"$proto_dir/perfetto_trace.proto" < "$1" > "$1.txt"
}

# 1: the seed's config records with no warning about its data sources.
vt_run record --config "$work/seed.pbtx" -o "$work/seed.pftrace"
expect [ "$rc" = 0 ]
expect [ -s "$work/seed.pftrace" ]
expect [ -z "$(printf '%s\n' "$err" | grep -e 'no meaning' -e 'buffers\[' -e 'linux\.')" ]
result "seed_config_records_its_data_sources"

# 2: the process tree has init and this shell as /proc has them.
if [ $have_protoc = 0 ]; then
	ktap_test_skip "process_tree_as_proc (protoc or $proto_dir absent)"
	ktap_test_skip "system_info_as_uname (protoc or $proto_dir absent)"
else
	decode "$work/seed.pftrace"
	expect [ $? = 0 ]
	txt=$work/seed.pftrace.txt
	# "pid ppid first-cmdline kthread" of each process of the scan, the
	# first process_tree (the writer adds one of saved_cmdlines at the end).
	awk '/^  process_tree \{/ { n++ }
	     n == 1 && /^    processes \{/ { p = 1; pid = ""; ppid = ""; cmd = ""; k = 0 }
	     p && /^      pid: / { pid = $2 }
	     p && /^      ppid: / { ppid = $2 }
	     p && /^      cmdline: / && cmd == "" { cmd = $2 }
	     p && /^      is_kthread: true/ { k = 1 }
	     p && /^    \}/ { print pid, ppid, cmd, k; p = 0 }' "$txt" > "$work/procs"
	init_cmd=$(tr '\0' '\n' < /proc/1/cmdline | head -n 1)
	self_ppid=$(awk '/^PPid:/ { print $2 }' /proc/$$/status)
	expect [ "$(awk '$1 == 1 { print $3 }' "$work/procs")" = "\"$init_cmd\"" ]
	expect [ "$(awk -v p=$$ '$1 == p { print $2 }' "$work/procs")" = "$self_ppid" ]
	# kthreadd: a kernel thread, its name as its cmdline.
	expect [ "$(awk '$1 == 2 { print $2, $3, $4 }' "$work/procs")" = '0 "kthreadd" 1' ]
	expect [ "$(grep -c 'cmdline_is_comm: true' "$txt")" -ge 1 ]
	result "process_tree_as_proc"

	# 3: linux.system_info: uname, CPUs and page size.
	expect [ "$(grep -c '^  system_info {' "$txt")" = 1 ]
	expect grep -q "^      release: \"$(uname -r)\"$" "$txt"
	expect grep -q "^      machine: \"$(uname -m)\"$" "$txt"
	expect grep -q "^    num_cpus: $(getconf _NPROCESSORS_CONF)$" "$txt"
	expect grep -q "^    page_size: $(getconf PAGESIZE)$" "$txt"
	expect [ "$(grep -c '^    cpus {' "$txt")" = "$(getconf _NPROCESSORS_CONF)" ]
	result "system_info_as_uname"
fi

# 4: meminfo at its period: MemTotal, alone, as /proc/meminfo has it.
cat > "$work/mem.pbtx" <<'EOF'
duration_ms: 1000
buffers: { size_kb: 4096 }
data_sources: { config { name: "linux.ftrace"
    ftrace_config { ftrace_events: "sched/sched_switch" } } }
data_sources: { config { name: "linux.sys_stats"
    sys_stats_config {
        meminfo_period_ms: 100
        meminfo_counters: MEMINFO_MEM_TOTAL
        thermal_period_ms: 5
    } } }
EOF
vt_run record --config "$work/mem.pbtx" -o "$work/mem.pftrace"
expect [ "$rc" = 0 ]
expect contains "$err" "$work/mem.pbtx:9:9: warning: thermal_period_ms: 5 ms is below the shortest period, 10 ms: raised to it, as Perfetto does"
if [ $have_protoc = 1 ]; then
	decode "$work/mem.pftrace"
	txt=$work/mem.pftrace.txt
	total=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	polls=$(grep -c '^      key: MEMINFO_MEM_TOTAL$' "$txt")
	expect [ "$(grep -c '^    meminfo {' "$txt")" = "$polls" ]
	expect [ "$(grep -A1 '^      key: MEMINFO_MEM_TOTAL$' "$txt" | grep -c "^      value: $total$")" = "$polls" ]
	# Ten periods in a second, give or take the first and the last.
	expect [ "$polls" -ge 8 ] && expect [ "$polls" -le 12 ]
fi
result "meminfo_polled_at_its_period"

# 5: a trace.dat has no place for them: said, and refused under --strict.
vt_run record --config "$work/seed.pbtx" -o "$work/seed.dat"
expect [ "$rc" = 0 ]
expect contains "$err" "vtrace: warning: $work/seed.dat: the tracedat format has no place for linux.process_stats, linux.sys_stats or linux.system_info: they are not recorded (a Perfetto file, -o FILE.pftrace, has them)"
expect [ -s "$work/seed.dat" ]
result "tracedat_says_it_has_no_place"

before=$(settings_of $TRACEFS; ls $TRACEFS/instances)
vt_run record --strict --config "$work/seed.pbtx" -o "$work/strict.dat"
expect [ "$rc" != 0 ]
expect [ "$err" = "vtrace: error: $work/strict.dat: the tracedat format has no place for linux.process_stats, linux.sys_stats or linux.system_info: record to a Perfetto file (-o FILE.pftrace)" ]
expect [ ! -e "$work/strict.dat" ]
expect [ "$before" = "$(settings_of $TRACEFS; ls $TRACEFS/instances)" ]
result "strict_refuses_them_in_tracedat"

# 7: vtrace config writes --poll and --process-tree as data sources.
vt_run config -e sched/sched_switch --poll thermal,devfreq,cpufreq:100ms \
	--poll meminfo --process-tree
expect [ "$rc" = 0 ]
printf '%s\n' "$out" | sed -n '/linux.process_stats/,$p' > "$work/sources"
cat > "$work/want" <<'EOF'
    name: "linux.process_stats"
    process_stats_config {
      scan_all_processes_on_start: true
      record_thread_names: true
    }
  }
}
data_sources {
  config {
    name: "linux.sys_stats"
    sys_stats_config {
      meminfo_period_ms: 1000
      devfreq_period_ms: 100
      cpufreq_period_ms: 100
      thermal_period_ms: 100
    }
  }
}
write_into_file: true
EOF
expect cmp -s "$work/want" "$work/sources"
result "config_writes_poll_and_process_tree"

# 8: bad --poll values: the message, exit 2, nothing recorded.
vt_run record -e sched/sched_switch --poll thermal:5ms -o "$work/bad.pftrace"
expect [ "$rc" = 2 ]
expect [ "$err" = "vtrace: error: record --poll: 5 ms is below the shortest period linux.sys_stats polls at, 10 ms" ]
vt_run record -e sched/sched_switch --poll thermal,gpu -o "$work/bad.pftrace"
expect [ "$rc" = 2 ]
expect [ "$err" = "vtrace: error: record --poll: no counters 'gpu' (meminfo, vmstat, stat, devfreq, cpufreq, buddyinfo, diskstat, psi or thermal)" ]
vt_run config -e sched/sched_switch --poll :1s
expect [ "$rc" = 2 ]
expect [ "$err" = "vtrace: error: config --poll: name the counters to poll" ]
expect [ ! -e "$work/bad.pftrace" ]
result "bad_poll_is_refused"

# 9: the command line's sources record as the config's do.
vt_run record -e sched/sched_switch --poll meminfo:100ms --process-tree \
	-t 1s -o "$work/cli.pftrace"
expect [ "$rc" = 0 ]
if [ $have_protoc = 1 ]; then
	decode "$work/cli.pftrace"
	txt=$work/cli.pftrace.txt
	polls=$(grep -c '^      key: MEMINFO_MEM_TOTAL$' "$txt")
	expect [ "$polls" -ge 8 ] && expect [ "$polls" -le 12 ]
	# Every counter: MemFree too, in each poll.
	expect [ "$(grep -c '^      key: MEMINFO_MEM_FREE$' "$txt")" = "$polls" ]
	expect grep -q '^      name: "kthreadd"$' "$txt"
fi
# The counters this kernel lacks: said once, listed in --json, no error.
missing=$(missing_kinds)
"$VTRACE" record -e sched/sched_switch --poll devfreq,cpufreq,thermal:100ms \
	-t 300ms --json -o "$work/lacks.pftrace" > "$VT_TMP/json" 2> "$VT_TMP/err"
expect [ $? = 0 ]
expect_missing_said "$VT_TMP/json" "$VT_TMP/err" "$missing"
result "command_line_sources_record (missing: ${missing:-none})"

# 10: a process started during the recording is added to the tree with
# its cmdline, from its own events (on demand: read from /proc when its
# events are, so it lives on past the recording's end).
if [ $have_protoc = 0 ]; then
	ktap_test_skip "process_added_on_demand (protoc or $proto_dir absent)"
else
	cp "$(command -v sleep)" "$work/vt_on_demand"
	(
		sleep 0.5
		"$work/vt_on_demand" 1.5 &
		echo $! > "$work/od.pid"
		wait
	) &
	vt_run record -e sched/sched_switch --process-tree -t 1500ms \
		-o "$work/od.pftrace"
	wait
	child=$(cat "$work/od.pid")
	expect [ "$rc" = 0 ]
	decode "$work/od.pftrace"
	# Its Process in a tree of process_stats' sequence after the first:
	# pid and cmdline (the writer's own tree at the end has comms only).
	awk -v p=$child '/^packet \{/ { n = 0; cmd = "" }
	     /^  process_tree \{/ { t++; n = t }
	     n > 1 && /^    processes \{/ { q = 1; pid = "" }
	     q && /^      pid: / { pid = $2 }
	     q && /^      cmdline: / && pid == p && cmd == "" { cmd = $2 }
	     q && /^    \}/ { q = 0 }
	     /^  trusted_packet_sequence_id: 2$/ && cmd != "" { print cmd }' \
		"$work/od.pftrace.txt" > "$work/od"
	expect [ "$(cat "$work/od")" = "\"$work/vt_on_demand\"" ]
	result "process_added_on_demand"
fi

# 11: with vtrace.ko's thermal zones (the guests), a config of every data
# source: the polled temperatures are the simulator's, held still: each
# zone's sysfs temp equals sim/state's, and the file (read back on the
# host by check_guest_artifacts.sh) has it at every poll, in degrees
# Celsius, with the process tree, the system info and the vendor events
# emitted meanwhile. The counters this kernel lacks (devfreq where it has
# no devfreq class, cpufreq where no cpufreq) are said once and listed in
# --json's "probes".
sim=/sys/kernel/debug/vtrace/sim
zone_of()
{
	for z in /sys/class/thermal/thermal_zone*; do
		[ "$(cat "$z/type" 2> /dev/null)" = "$1" ] && echo "$z" && return
	done
}
if [ ! -f $sim/state ] || [ -z "$(zone_of "$(cut -d' ' -f1 $sim/tmu_names)")" ]; then
	ktap_test_skip "thermal_zones_polled_as_the_simulator (no vtrace.ko thermal zones here)"
else
	running=$(cat $sim/running)
	echo 0 > $sim/running
	echo 40 > $sim/step
	set -- $(sed -n 's/^temp_mc: //p' $sim/state)
	: > "$work/thermal.expect"
	for name in $(cat $sim/tmu_names); do
		z=$(zone_of "$name")
		expect [ -n "$z" ]
		expect [ "$(cat "$z/temp")" = "$1" ]
		echo "$name: $(($1 / 1000))" >> "$work/thermal.expect"
		shift
	done
	# The vendor event beside the counters: four GPU power states
	# emitted while it records (few events: the file goes back on the
	# console).
	cat > "$work/all.pbtx" <<-'EOF'
	duration_ms: 1000
	buffers: { size_kb: 2048 fill_policy: DISCARD }
	buffers: { size_kb: 1024 fill_policy: DISCARD }
	data_sources: { config { name: "linux.ftrace"
	    ftrace_config { ftrace_events: "mali/gpu_power_state" } } }
	data_sources: { config { name: "linux.process_stats" target_buffer: 1
	    process_stats_config {
	        scan_all_processes_on_start: true
	        record_thread_names: true
	        proc_stats_poll_ms: 500
	    } } }
	data_sources: { config { name: "linux.sys_stats" target_buffer: 1
	    sys_stats_config {
	        thermal_period_ms: 10
	        devfreq_period_ms: 100
	        cpufreq_period_ms: 100
	        meminfo_period_ms: 500
	        meminfo_counters: MEMINFO_MEM_FREE
	    } } }
	data_sources: { config { name: "linux.system_info" target_buffer: 1 } }
	EOF
	missing=$(missing_kinds)
	idir=$TRACEFS/instances/vt_probes_$$
	"$VTRACE" record --instance vt_probes_$$ --config "$work/all.pbtx" \
		--json -o "$work/thermal.pftrace" > "$VT_TMP/json" \
		2> "$VT_TMP/err" &
	recorder=$!
	expect vt_wait_recording "$idir"
	for st in "OFF GLOBAL" "GLOBAL COREGROUP" "COREGROUP STACKS" "STACKS OFF"; do
		echo "gpu_power_state $st" > /sys/kernel/debug/vtrace/emit
	done
	wait $recorder
	rc=$?
	expect [ "$rc" = 0 ]
	expect [ ! -d "$idir" ]
	expect_missing_said "$VT_TMP/json" "$VT_TMP/err" "$missing"
	echo "$running" > $sim/running
	echo "init: $(tr '\0' '\n' < /proc/1/cmdline | head -n 1)" >> "$work/thermal.expect"
	if [ -n "$VTRACE_OUT" ]; then
		gzip -c "$work/thermal.pftrace" > "$VTRACE_OUT/probes-thermal.pftrace.gz"
		cp "$work/thermal.expect" "$VTRACE_OUT/probes-thermal.expect"
	fi
	result "thermal_zones_polled_as_the_simulator (missing: ${missing:-none}; $(tr '\n' ' ' < "$work/thermal.expect"))"
fi

ktap_finished
