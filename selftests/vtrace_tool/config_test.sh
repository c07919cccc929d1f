#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vtrace record --config and vtrace config on this kernel's tracefs: each
# honoured TraceConfig field changes exactly its tracefs file while the
# recording runs and is put back after it; every refusal has its exact
# message and exit status and leaves tracefs as it was; vtrace config's
# output is a TraceConfig protoc encodes, and recording it enables exactly
# what vtrace record with the same options enables. Where Perfetto's
# schema is at hand (../shared/ref/perfetto), the schema table is checked
# against it with protoc.

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
inst=vtrace_cfg_test_$$
idir=$TRACEFS/instances/$inst
proto_dir=${VTRACE_PERFETTO_PROTO_DIR:-$here/../../../shared/ref/perfetto}

trap 'vt_cleanup_tmp; [ -d "$idir" ] && rmdir "$idir" 2>/dev/null' EXIT

vt_require_root
vt_require_tracefs

ktap_print_header
ktap_set_plan 9

# A config's text, with the ftrace_config body given.
ftrace_config()
{
	printf 'data_sources { config { name: "linux.ftrace"\n  ftrace_config {\n%s\n  }\n} }\n' "$1"
}

# refused NAME EXPECTED-STDERR [ARGS...] - vtrace record --config of
# $work/c.pbtx exits 2 with exactly that message and changes nothing.
refused()
{
	want=$2
	shift 2
	before=$(settings_of $TRACEFS; ls $TRACEFS/instances)
	vt_run record --config "$work/c.pbtx" -o "$work/r.dat" "$@"
	expect [ "$rc" = 2 ]
	expect [ "$err" = "$want" ]
	expect [ ! -e "$work/r.dat" ]
	expect [ "$before" = "$(settings_of $TRACEFS; ls $TRACEFS/instances)" ]
}

# 1: refusals, each exact.
ftrace_config '    ftrace_events: "sched/sched_switch"
    bufer_size_kb: 4' > "$work/c.pbtx"
refused x "$work/c.pbtx:4:5: error: unknown field 'bufer_size_kb' in FtraceConfig"
printf 'duration_ms: "10"\n' > "$work/c.pbtx"
refused x "$work/c.pbtx:1:14: error: field 'duration_ms' takes an integer (uint32), found string '\"10\"'"
printf 'duration_ms: 4294967296\n' > "$work/c.pbtx"
refused x "$work/c.pbtx:1:14: error: value '4294967296' out of range for field 'duration_ms' (uint32)"
{ ftrace_config '    ftrace_events: "sched/sched_switch"'; echo 'flush_period_ms: 5'; } > "$work/c.pbtx"
refused x "$work/c.pbtx:6:1: error: field 'TraceConfig.flush_period_ms' is not honoured by vtrace" --strict
ftrace_config '    ftrace_events: "nosuch/event"' > "$work/c.pbtx"
refused x "$work/c.pbtx:3:5: error: event 'nosuch/event' is not in this kernel's tracefs" --strict
ftrace_config '    ftrace_events: "sched/sched_switch"
    tids_to_trace: 0' > "$work/c.pbtx"
refused x "$work/c.pbtx:4:5: error: tids_to_trace value 0 out of range (1 to 4194304)"
ftrace_config '    ftrace_events: "sched/sched_switch"
    instance_name: "../x"' > "$work/c.pbtx"
refused x "$work/c.pbtx:4:5: error: bad instance_name '../x': character not allowed in instance names (allowed: A-Z a-z 0-9 _ - .)"
printf '\022\002\012\000\030\001\370\007\001' > "$work/c.pb"
cp "$work/c.pb" "$work/c.pbtx"
refused x "$work/c.pbtx: error: byte 6: unknown field number 127 in TraceConfig"
result config_refusals_are_exact_and_change_nothing

# A config's output_path that names an existing file: refused unless -o
# or --force says to replace it.
echo keep > "$work/victim"
{ printf 'output_path: "%s"\nduration_ms: 300\n' "$work/victim"
  ftrace_config '    ftrace_events: "sched/sched_switch"'; } > "$work/c.pbtx"
before=$(settings_of $TRACEFS; ls $TRACEFS/instances)
vt_run record --config "$work/c.pbtx"
expect [ "$rc" = 2 ]
expect [ "$err" = "$work/c.pbtx:1:1: error: output_path '$work/victim' exists: a config does not replace a file (give -o '$work/victim' or --force to replace it)" ]
expect [ "$(cat "$work/victim")" = keep ]
expect [ "$before" = "$(settings_of $TRACEFS; ls $TRACEFS/instances)" ]
vt_run record --config "$work/c.pbtx" --force
expect [ "$rc" = 0 ]
expect [ "$(head -c 10 "$work/victim" | od -An -c | tr -d ' ')" = '027\bDtracing' ]
echo keep > "$work/victim"
vt_run record --config "$work/c.pbtx" -o "$work/victim"
expect [ "$rc" = 0 ]
expect [ "$(head -c 10 "$work/victim" | od -An -c | tr -d ' ')" = '027\bDtracing' ]
result config_output_path_never_replaces_a_file_unasked

# 2: every honoured ftrace_config field, seen in tracefs during the
# recording, and put back after it.
cpus=$(grep -c ^processor /proc/cpuinfo)
ftrace_config "    ftrace_events: \"sched/sched_switch\"
    ftrace_events: \"sched_waking\"
    ftrace_events: \"raw_syscalls/*\"
    atrace_categories: \"idle\"
    buffer_size_kb: 2048
    instance_name: \"$inst\"
    tracing_cpumask: \"1\"
    tids_to_trace: [1, $$]
    tracefs_options { name: \"irq-info\" state: STATE_DISABLED }
    tracefs_options { name: \"record-tgid\" state: STATE_ENABLED }" > "$work/c.pbtx"
cat >> "$work/c.pbtx" <<EOF
duration_ms: 60000
write_into_file: true
output_path: "$work/fields.dat"
unique_session_name: "cfg-fields-$$"
EOF
"$VTRACE" record --config "$work/c.pbtx" > "$work/rec.out" 2> "$work/err" &
pid=$!
expect vt_wait_recording "$idir"
expect [ "$(enabled_events "$idir" | tr '\n' ' ')" = "power/cpu_idle raw_syscalls/sys_enter raw_syscalls/sys_exit sched/sched_switch sched/sched_waking " ]
# The kernel rounds sizes up to whole sub-buffers.
kb=$(cat "$idir/per_cpu/cpu0/buffer_size_kb")
expect [ "$kb" -ge 2048 ]
expect [ "$kb" -lt 2112 ]
expect [ "$(cat "$idir/tracing_cpumask" | tr -d '0,')" = 1 ]
expect [ "$(sort -n "$idir/set_event_pid" | tr '\n' ' ')" = "1 $$ " ]
expect [ "$(cat "$idir/options/irq-info")" = 0 ]
expect [ "$(cat "$idir/options/record-tgid")" = 1 ]
"$VTRACE" sessions --json > "$work/s.json"
expect grep -q "\"name\":\"cfg-fields-$$\"" "$work/s.json"
"$VTRACE" stop "cfg-fields-$$" > /dev/null 2>&1
wait $pid
rc=$?
expect [ "$rc" = 0 ]
expect [ ! -d "$idir" ]
expect [ -s "$work/fields.dat" ]
result config_fields_change_exactly_their_tracefs_files

# 3: the same fields on the top level buffer come back as they were.
ftrace_config '    ftrace_events: "sched/sched_switch"
    tracing_cpumask: "1"
    tids_to_trace: 1
    tracefs_options { name: "irq-info" state: STATE_DISABLED }' > "$work/c.pbtx"
echo 'duration_ms: 300' >> "$work/c.pbtx"
before=$(settings_of $TRACEFS; cat $TRACEFS/tracing_cpumask $TRACEFS/set_event_pid $TRACEFS/options/irq-info $TRACEFS/options/overwrite)
vt_run record --config "$work/c.pbtx" -o "$work/top.dat"
expect [ "$rc" = 0 ]
expect [ "$before" = "$(settings_of $TRACEFS; cat $TRACEFS/tracing_cpumask $TRACEFS/set_event_pid $TRACEFS/options/irq-info $TRACEFS/options/overwrite)" ]
result config_top_level_settings_are_restored

# 4: -o, -t and -b override the config.
ftrace_config "    ftrace_events: \"sched/sched_switch\"
    buffer_size_kb: 2048
    instance_name: \"$inst\"" > "$work/c.pbtx"
printf 'duration_ms: 60000\noutput_path: "%s/config.dat"\n' "$work" >> "$work/c.pbtx"
"$VTRACE" record --config "$work/c.pbtx" -o "$work/cli.dat" -t 2s -b 1024 \
	> /dev/null 2> "$work/err" &
pid=$!
expect vt_wait_recording "$idir"
kb=$(cat "$idir/per_cpu/cpu0/buffer_size_kb")
expect [ "$kb" -ge 1024 ]
expect [ "$kb" -lt 1088 ]
wait $pid
rc=$?
expect [ "$rc" = 0 ]
# The recorder's own account of its length: -t's 2 s, not the config's
# 60 s (a loaded guest adds to the wall time, not to this).
secs=$(sed -n 's/^vtrace: recorded .* in \([0-9]*\)\.[0-9] s, .*/\1/p' "$work/err")
expect [ "${secs:-0}" -ge 2 ]
expect [ "${secs:-99}" -lt 30 ]
expect [ -s "$work/cli.dat" ]
expect [ ! -e "$work/config.dat" ]
result config_command_line_overrides_output_duration_buffer

# 5: DISCARD stops at the buffer's size and says so.
cat > "$work/c.pbtx" <<EOF
buffers { size_kb: 128 fill_policy: DISCARD }
$(ftrace_config '    ftrace_events: "raw_syscalls/sys_enter"')
duration_ms: 20000
EOF
( while :; do cat /proc/self/stat > /dev/null; done ) &
load=$!
# What the top level holds a second in, said if nothing was recorded
# (once seen on the 5.10 arm64 guest: 0 events in 20 s, none lost).
( sleep 1; for f in tracing_on set_event buffer_size_kb per_cpu/cpu0/stats; do
	echo "$f: $(tr '\n' ' ' < "$TRACEFS/$f")"
done > "$work/mid" 2>&1 ) &
mid=$!
vt_run record --config "$work/c.pbtx" -o "$work/discard.dat" --json
kill $load
wait $load 2> /dev/null
wait $mid
expect [ "$rc" = 0 ]
expect contains "$err" "vtrace: warning: stopped when full: the config's DISCARD limit of 131072 bytes was reached"
# What was read past the limit was discarded as asked, not lost.
expect [ "$(grep -c 'LOST' "$work/err")" = 0 ]
discarded=$(json_num output_lost "$work/out")
[ "$discarded" = 0 ] ||
	expect grep -qx "vtrace: discarded $discarded events read past the DISCARD limit, as the config asks" "$work/err"
expect [ "$(json_num bytes "$work/out")" -le 131072 ]
expect [ "$(json_num bytes "$work/out")" -gt 0 ]
[ $ok = 1 ] || sed 's/^/# a second in: /' "$work/mid"
result config_discard_stops_at_size_kb_and_says_so

# 6: RING_BUFFER without write_into_file: a flight recorder in overwrite
# mode, each CPU a share of size_kb, read at the stop. 4000 markers of
# about 220 bytes from CPU 0 alone fill its 256 KB share more than three
# times over: the newest marker is kept, the oldest overwritten.
cat > "$work/c.pbtx" <<EOF
buffers { size_kb: $((cpus * 256)) fill_policy: RING_BUFFER }
$(ftrace_config "    ftrace_events: \"raw_syscalls/sys_enter\"
    instance_name: \"$inst\"")
duration_ms: 60000
unique_session_name: "cfg-ring-$$"
EOF
"$VTRACE" record --config "$work/c.pbtx" -o "$work/ring.dat" --json \
	> "$work/ring.json" 2> "$work/err" &
pid=$!
expect vt_wait_recording "$idir"
expect [ "$(cat "$idir/options/overwrite")" = 1 ]
expect [ "$(cat "$idir/per_cpu/cpu0/buffer_size_kb")" -ge 256 ]
expect [ "$(cat "$idir/per_cpu/cpu0/buffer_size_kb")" -lt 512 ]
pad=$(printf '%0200d' 0)
expect taskset 1 sh -c '
	exec 3> "$1/trace_marker" || exit 1
	i=1
	while [ $i -le 4000 ]; do
		echo "ring-$i $2" >&3 || exit 1
		i=$((i + 1))
	done' sh "$idir" "$pad"
"$VTRACE" stop "cfg-ring-$$" > /dev/null 2>&1
wait $pid
rc=$?
expect [ "$rc" = 0 ]
lost=$(json_num lost "$work/ring.json")
expect [ "$lost" -gt 0 ]
expect grep -q "^vtrace: ring buffer: $lost older events were overwritten, the newest kept$" "$work/err"
expect [ "$(json_num events "$work/ring.json")" -gt 0 ]
expect grep -q "ring-4000 $pad" "$work/ring.dat"
expect [ "$(grep -c "ring-1 $pad" "$work/ring.dat")" = 0 ]
result config_ring_buffer_keeps_the_newest

# 7: vtrace config's output: protoc encodes it, and recording it enables
# exactly what vtrace record with the same options enables.
enabled_while_recording()
{
	"$VTRACE" record "$@" --instance "$inst" -o "$work/eq.dat" -t 60s \
		> /dev/null 2> "$work/err" &
	p=$!
	vt_wait_recording "$idir"
	enabled_events "$idir" | tr '\n' ' '
	kill -TERM $p
	wait $p
}
vt_run config -c sched,idle,irq -e raw_syscalls/sys_enter -t 10s -b 1024 \
	--name cfg-eq -o /data/misc/perfetto-traces/t.pftrace
expect [ "$rc" = 0 ]
cp "$work/out" "$work/gen.pbtx"
# Each option of record's table, as its field of the model.
vt_run config -e sched/sched_switch -c sched -t 2s -b 512 --instance vt_x \
	--name n1 --exclusive-prio 3 -o /tmp/o.pftrace
expect [ "$rc" = 0 ]
expect [ "$(grep -v '^#' "$work/out" | tr -s ' \n' ' ')" = 'buffers { size_kb: 65536 fill_policy: RING_BUFFER } data_sources { config { name: "linux.ftrace" ftrace_config { ftrace_events: "sched/sched_switch" atrace_categories: "sched" buffer_size_kb: 512 instance_name: "vt_x" } } } duration_ms: 2000 write_into_file: true output_path: "/tmp/o.pftrace" unique_session_name: "n1" exclusive_prio: 3 ' ]
if command -v protoc > /dev/null && [ -f "$proto_dir/perfetto_config.proto" ]; then
	expect protoc -I "$proto_dir" --encode=perfetto.protos.TraceConfig \
		perfetto_config.proto < "$work/gen.pbtx" > "$work/gen.pb"
	expect [ -s "$work/gen.pb" ]
else
	ktap_print_msg "protoc or $proto_dir/perfetto_config.proto absent: encoding not checked"
fi
direct=$(enabled_while_recording -c sched,idle,irq -e raw_syscalls/sys_enter)
via=$(enabled_while_recording --config "$work/gen.pbtx")
expect [ -n "$direct" ]
expect [ "$direct" = "$via" ]
[ "$direct" = "$via" ] || ktap_print_msg "direct: $direct; config: $via"
result config_output_records_the_same_events

# 8: the schema table against perfetto_config.proto: every field encodes
# under its name, with its number, type and repeatedness.
if ! command -v protoc > /dev/null || [ ! -f "$proto_dir/perfetto_config.proto" ]; then
	ktap_test_skip "config_schema_matches_perfetto_config_proto (protoc or $proto_dir absent)"
	ktap_finished
	exit
fi
schema=$here/../../tools/lib/vtrace/config/trace-config-schema.c
[ -f "$schema" ] || schema=$here/trace-config-schema.c
# "table name number type repeated" for every field.
sed -n 's/^static const struct vtrace_pb_field \([a-z_]*\)_fields.*/T \1/p;
	s/^\t{ FIELD("\([a-z0-9_]*\)", \([0-9]*\), \([A-Z0-9]*\)), REPEATED.*/F \1 \2 \3 1/p;
	s/^\t{ FIELD("\([a-z0-9_]*\)", \([0-9]*\), \([A-Z0-9]*\)).*/F \1 \2 \3 0/p' "$schema" |
awk '/^T/ { t = $2 } /^F/ { print t, $2, $3, $4, $5 }' > "$work/fields"
expect [ "$(wc -l < "$work/fields")" -gt 140 ]
# Where each table's messages sit in a TraceConfig, and the numbers there.
path_of()
{
	case $1 in
	trace_config) echo "" ;;
	buffer_config) echo "buffers" ;;
	data_source) echo "data_sources" ;;
	data_source_config) echo "data_sources config" ;;
	ftrace_config) echo "data_sources config ftrace_config" ;;
	tracefs_option) echo "data_sources config ftrace_config tracefs_options" ;;
	process_stats_config) echo "data_sources config process_stats_config" ;;
	sys_stats_config) echo "data_sources config sys_stats_config" ;;
	system_info_config) echo "data_sources config system_info_config" ;;
	esac
}
numbers_of()
{
	case $1 in
	trace_config) echo "" ;;
	buffer_config) echo "1" ;;
	data_source) echo "2" ;;
	data_source_config) echo "2 1" ;;
	ftrace_config) echo "2 1 100" ;;
	tracefs_option) echo "2 1 100 36" ;;
	process_stats_config) echo "2 1 103" ;;
	sys_stats_config) echo "2 1 104" ;;
	system_info_config) echo "2 1 119" ;;
	esac
}
bad=0
while read -r table name number type repeated; do
	case $type in
	BOOL) value=true ;;
	INT32) value=-2147483648 ;;
	INT64) value=-1099511627776 ;;
	UINT32) value=4294967295 ;;
	UINT64) value=18446744073709551615 ;;
	STRING) value='"x"' ;;
	ENUM) value=1 ;;
	MESSAGE) value='{}' ;;
	esac
	field="$name: $value"
	[ "$repeated" = 1 ] && field="$field $name: $value"
	text=$field
	for m in $(path_of "$table" | awk '{ for (i = NF; i; i--) print $i }'); do
		text="$m { $text }"
	done
	# A field protoc does not know, or of another type, fails to encode;
	# a non-repeated one given twice too.
	if ! echo "$text" | protoc -I "$proto_dir" \
		--encode=perfetto.protos.TraceConfig perfetto_config.proto \
		> "$work/f.pb" 2> "$work/f.err"; then
		ktap_print_msg "$table.$name: $(cat "$work/f.err")"
		bad=$((bad + 1))
		continue
	fi
	# Its number: the innermost of protoc --decode_raw's output.
	got=$(protoc --decode_raw < "$work/f.pb" |
		sed -n 's/^ *\([0-9]*\)[: ].*/\1/p' | tr '\n' ' ')
	want="$(numbers_of "$table") $number"
	case " $got" in
	*" ${want# } "*) ;;
	*) ktap_print_msg "$table.$name: numbers $got, table says $want"
	   bad=$((bad + 1)) ;;
	esac
	# Repeatedness: a field the table calls optional must refuse a second
	# value (only checked for scalars and messages that protoc rejects).
	if [ "$repeated" = 0 ] && echo "$text" | sed "s/$name: $value/& $name: $value/" |
		protoc -I "$proto_dir" --encode=perfetto.protos.TraceConfig \
			perfetto_config.proto > /dev/null 2>&1; then
		ktap_print_msg "$table.$name: protoc takes it twice, the table says optional"
		bad=$((bad + 1))
	fi
done < "$work/fields"
expect [ $bad = 0 ]
result config_schema_matches_perfetto_config_proto

ktap_finished
