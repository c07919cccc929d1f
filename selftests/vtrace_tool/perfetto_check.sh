# SPDX-License-Identifier: GPL-2.0
#
# Checks of a Perfetto trace written by vtrace, for perfetto_test.sh and
# check_guest_artifacts.sh (sourced; bash). The decoding is protoc's with
# Perfetto's merged schema from ../shared/ref/perfetto, which is reference
# data outside the project: where it is absent, pf_schema says why and the
# checks that need it are skipped by the caller.
#
#   pf_schema                 0 when protoc and the schema are there
#   pf_decode IN.pftrace      protoc's text of the trace on stdout
#   pf_structure TEXT         every bundle has cpu, every event timestamp
#                             and pid, no field the schema does not know
#   pf_event_counts TEXT      "EVENT COUNT" per event, by tracefs name
#   tc_event_counts IN.dat    the same from trace-cmd report
#   pf_generic_events TEXT    "EVENT" per generic event name, sorted
#   pf_switch_mismatches TEXT the sched_switch events whose prev_pid is not
#                             their CPU's last next_pid (what the kernel
#                             gave, which Perfetto's importer counts)
#   pf_check_convert BASE [MIN]  BASE.dat converted by $VTRACE into
#                             BASE.pftrace: as many events as trace-cmd
#                             report shows (at least MIN), and where the
#                             schema is, BASE.txt passes pf_structure, the
#                             per-event counts equal trace-cmd report's and
#                             no event with a typed message is generic;
#                             and where trace_processor_shell is, Perfetto
#                             imports it as tp_check_import says; and
#                             pf_check_read passes.
#   pf_check_read BASE        $VTRACE reads BASE.pftrace back as it reads
#                             BASE.dat: report --json gives the same
#                             events (cpu, ts, pid, event, every field of
#                             the trace.dat in the Perfetto trace with its
#                             value) in the same order, slices the same
#                             text. Not for function graph files: a
#                             Perfetto trace has no kernel symbols.
#                             Sets pf_events (and pf_note when checks were
#                             skipped); prints what failed.
#
# Needs $top (the tree) and $VT_TMP (perfetto_tp_check.sh's work folder).

. "$top/selftests/vtrace_tool/perfetto_tp_check.sh"

PF_PROTO=${VTRACE_PERFETTO_PROTO_DIR:-$top/../shared/ref/perfetto}/perfetto_trace.proto

pf_schema() {
	if ! command -v protoc > /dev/null; then
		pf_schema_why="protoc is not installed (protobuf-compiler)"
		return 1
	fi
	if [ ! -r "$PF_PROTO" ]; then
		pf_schema_why="no Perfetto schema at $PF_PROTO (../shared is reference data, not part of the project)"
		return 1
	fi
	return 0
}

pf_decode() {
	protoc -I "$(dirname "$PF_PROTO")" --decode=perfetto.protos.Trace \
		"$PF_PROTO" < "$1"
}

# Prints each problem; returns 1 when there is one.
pf_structure() {
	awk '
	function indent(s) { match(s, /^ */); return RLENGTH }
	{ d = indent($0); line = substr($0, d + 1) }
	line ~ /^[0-9]+[: ]/ { print "unknown field: " line; bad = 1 }
	line ~ / \{$/ {
		name[d] = substr(line, 1, length(line) - 2)
		has_cpu[d] = has_ts[d] = has_pid[d] = 0
		inbundle[d] = (d > 0 && name[d - 2] == "ftrace_events")
		next
	}
	line == "}" {
		d2 = d
		if (name[d2] == "ftrace_events" && !has_cpu[d2]) {
			print "bundle without cpu at line " NR; bad = 1
		}
		if (name[d2] == "event" && inbundle[d2] &&
		    (!has_ts[d2] || !has_pid[d2])) {
			print "event without timestamp or pid at line " NR
			bad = 1
		}
		if (name[d2] == "ftrace_events")
			bundles++
		if (name[d2] == "event" && inbundle[d2])
			events++
		next
	}
	{
		p = d - 2
		if (line ~ /^cpu: /) has_cpu[p] = 1
		if (line ~ /^timestamp: /) has_ts[p] = 1
		if (line ~ /^pid: /) has_pid[p] = 1
	}
	END {
		if (!bundles) { print "no ftrace bundle"; bad = 1 }
		exit bad
	}' "$1"
}

# The event of each FtraceEvent: its typed message's name mapped back
# to the tracefs name (Perfetto prefixes some vendor events with their
# group), or a generic event's event_name.
pf_event_counts() {
	awk '
	function indent(s) { match(s, /^ */); return RLENGTH }
	BEGIN { ev = -1 }
	{ d = indent($0); line = substr($0, d + 1) }
	line == "event {" { ev = d; next }
	ev >= 0 && d == ev + 2 && line ~ / \{$/ {
		n = substr(line, 1, length(line) - 2)
		if (n == "generic") { want_name = 1; next }
		if (n == "mali_gpu_power_state") n = "gpu_power_state"
		else if (n == "mali_tracing_mark_write") n = "tracing_mark_write"
		else if (n ~ /^mali_mali_/) n = substr(n, 6)
		count[n]++
		ev = -1
		next
	}
	want_name && line ~ /^event_name: / {
		n = substr(line, 13); gsub(/"/, "", n); count[n]++
		want_name = 0; ev = -1
	}
	END { for (n in count) print n, count[n] }' "$1" | sort
}

pf_generic_events() {
	sed -n 's/^ *event_name: "\(.*\)"$/\1/p' "$1" | sort -u
}

tc_event_counts() {
	trace-cmd report -i "$1" 2> /dev/null |
		LC_ALL=C sed -n 's/^.* \[[0-9]*\] *[0-9.]*: \([A-Za-z0-9_]*\): .*$/\1/p' |
		sort | uniq -c | awk '{ print $2, $1 }' | sort
}

# Events the schema has a message for, which must never come out generic.
PF_TYPED_EVENTS="sched_switch sched_wakeup sched_waking print sys_enter sys_exit gpu_power_state"

pf_switch_mismatches() {
	awk '/^    cpu: / { cpu = $2 }
	/^      sched_switch {/ { sw = 1 }
	sw && /^        prev_pid:/ { prev = $2 }
	sw && /^        next_pid:/ {
		if ((cpu in last) && last[cpu] != prev)
			n++
		last[cpu] = $2
		sw = 0
	}
	END { print n + 0 }' "$1"
}

pf_check_read() {
	local base=$1

	if ! "$VTRACE" report --json "$base.dat" > "$base.dat.json" 2> "$base.err" ||
	   ! "$VTRACE" report --json "$base.pftrace" > "$base.pf.json" 2>> "$base.err" ||
	   ! "$VTRACE" slices "$base.dat" > "$base.dat.slices" 2>> "$base.err" ||
	   ! "$VTRACE" slices "$base.pftrace" > "$base.pf.slices" 2>> "$base.err"; then
		ktap_print_msg "read back: $(head -c 300 "$base.err")"
		return 1
	fi
	if ! cmp -s "$base.dat.slices" "$base.pf.slices"; then
		ktap_print_msg "slices (trace.dat <, Perfetto >): $(diff "$base.dat.slices" "$base.pf.slices" | head -6 | tr '\n' ' ')"
		return 1
	fi
	python3 - "$base.dat.json" "$base.pf.json" << 'EOF'
import json, sys
dat = json.load(open(sys.argv[1], errors="replace"))["events"]
pf = json.load(open(sys.argv[2], errors="replace"))["events"]
keys = ("cpu", "ts", "pid", "event")
bad = ["%d events read from the trace.dat, %d from the Perfetto trace" %
       (len(dat), len(pf))] if len(dat) != len(pf) else []
for i, (d, p) in enumerate(zip(dat, pf)):
	if [d[k] for k in keys] != [p[k] for k in keys]:
		bad.append("event %d: %s, Perfetto %s" %
			   (i, [d[k] for k in keys], [p[k] for k in keys]))
		continue
	for f, v in d.get("fields", {}).items():
		if p["fields"].get(f, v) != v:
			bad.append("event %d %s: %s=%r, Perfetto %r" %
				   (i, d["event"], f, v, p["fields"][f]))
for b in bad[:3]:
	print("# read back: " + b)
sys.exit(1 if bad or not dat else 0)
EOF
}

pf_check_convert() {
	local base=$1 min=${2:-1} tc_total e

	pf_events=
	pf_note=
	if ! "$VTRACE" convert "$base.dat" "$base.pftrace" > "$base.out" 2> "$base.err"; then
		ktap_print_msg "convert: $(head -c 300 "$base.err")"
		return 1
	fi
	tc_total=$(trace-cmd report -i "$base.dat" 2> /dev/null |
		LC_ALL=C grep -c '^ .* \[[0-9]*\] *[0-9.]*: ')
	pf_events=$(sed -n 's/^.*: \([0-9]*\) events, .*$/\1/p' "$base.out")
	if [ "$tc_total" != "$pf_events" ] || [ "$tc_total" -lt "$min" ]; then
		ktap_print_msg "trace-cmd report $tc_total events, convert $pf_events"
		return 1
	fi
	pf_check_read "$base" || return 1
	if ! tp_find; then
		pf_note="Perfetto import skipped: $tp_why"
	elif ! tp_check_import "$base.dat" "$base.pftrace" 2> "$base.tp"; then
		ktap_print_msg "$(head -c 400 "$base.tp")"
		return 1
	fi
	if ! pf_schema; then
		pf_note="${pf_note:+$pf_note; }schema checks skipped: $pf_schema_why"
		return 0
	fi
	if ! pf_decode "$base.pftrace" > "$base.txt" 2> "$base.protoc"; then
		ktap_print_msg "protoc: $(head -c 300 "$base.protoc")"
		return 1
	fi
	if ! pf_structure "$base.txt" > "$base.structure"; then
		ktap_print_msg "$(head -5 "$base.structure")"
		return 1
	fi
	pf_event_counts "$base.txt" > "$base.pf_counts"
	tc_event_counts "$base.dat" > "$base.tc_counts"
	if ! diff "$base.tc_counts" "$base.pf_counts" > "$base.diff"; then
		ktap_print_msg "counts (trace-cmd <, perfetto >): $(head -10 "$base.diff" | tr '\n' ' ')"
		return 1
	fi
	for e in $PF_TYPED_EVENTS; do
		if pf_generic_events "$base.txt" | grep -qx "$e"; then
			ktap_print_msg "$e written as a generic event"
			return 1
		fi
	done
	return 0
}
