#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vtrace slices, vtrace profile and dmtrace files: slices of a fixed
# program's markers recorded on the host's tracefs (exact but for the
# timestamps, which are checked for order and nesting), a profile of a
# constructed method trace (exact numbers), the dmtrace writer read back
# by vtrace (identical slices, to the microsecond) and by Debian's
# dmtracedump (every record, the same call counts, its graph), and
# corrupt method traces refused with the fault named.
#
# Host only (bash, python3, dmtracedump); the recording needs root and
# tracefs, the rest does not. VTRACE, SLICES_MARKERS, DMTRACE_WRITE (the
# writer on hand-made slices: tids vtrace convert never sees on this host)
# and TRACEDAT_CAPTURE name the binaries (default: the ones built in this
# tree).
if [ -z "${BASH_VERSION:-}" ]; then
	if ! command -v bash > /dev/null || ! command -v python3 > /dev/null; then
		echo "TAP version 13"
		echo "1..0 # SKIP needs bash and python3 (host only)"
		exit 4
	fi
	exec bash "$0" "$@"
fi

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../kselftest/ktap_helpers.sh"

VTRACE=${VTRACE:-$top/tools/vtrace/vtrace}
MARKERS=${SLICES_MARKERS:-$here/slices_markers}
WRITE=${DMTRACE_WRITE:-$here/dmtrace_write}
CAPTURE=${TRACEDAT_CAPTURE:-$here/tracedat_capture}
tracefs=/sys/kernel/tracing
inst_name=vtrace_slices_$$
inst=$tracefs/instances/$inst_name
work=$(mktemp -d /tmp/vtrace_slices.XXXXXX)

cleanup() {
	[ -d "$inst" ] && rmdir "$inst"
	rm -rf "$work"
}
trap cleanup EXIT

ktap_print_header
for bin in "$VTRACE" "$MARKERS" "$WRITE"; do
	if [ ! -x "$bin" ]; then
		ktap_skip_all "not built: $bin"
		exit "$KSFT_SKIP"
	fi
done
ktap_set_plan 19

# run ARGS...: the helper; sets rc, out, err.
run() {
	"$VTRACE" "$@" > "$work/out" 2> "$work/err"
	rc=$?
	out=$(cat "$work/out")
	err=$(cat "$work/err")
}

# result NAME STATUS: a KTAP result; on failure, the last run's output.
result() {
	if [ "$2" = 0 ]; then
		ktap_test_pass "$1"
		return
	fi
	ktap_print_msg "$1: exit status $rc"
	head -c 2000 "$work/out" | sed 's/^/# stdout: /'
	head -c 2000 "$work/err" | sed 's/^/# stderr: /'
	ktap_test_fail "$1"
}

# A method trace built byte by byte: mktrace OUT VERSION CLOCK RECORDS
# THREADS, RECORDS as "tid action method_id time[,wall]" lines.
mktrace() {
	python3 - "$@" << 'PYEOF'
import struct, sys
out, version, clock, records, threads = sys.argv[1:6]
version = int(version)
key = "*version\n%d\n" % version
if clock:
	key += "clock=%s\n" % clock
key += "*threads\n" + threads + "*methods\n"
key += "0x00001000\tA\n0x00001004\tB\n0x00001008\tC\n*end\n"
offset = 16 if version == 1 else 32
recs = b""
for line in records.strip().split("\n"):
	f = [int(x, 0) for x in line.split()]
	tid, action, method, times = f[0], f[1], f[2], f[3:]
	recs += struct.pack("<B" if version == 1 else "<H", tid)
	recs += struct.pack("<I", method | action)
	recs += b"".join(struct.pack("<I", t) for t in times)
size = len(recs) // len(records.strip().split("\n"))
hdr = struct.pack("<IHHQ", 0x574f4c53, version, offset, 1000)
if version == 3:
	hdr += struct.pack("<H", size)
hdr += b"\0" * (offset - len(hdr))
open(out, "wb").write(key.encode() + hdr + recs)
PYEOF
}

# The constructed trace: thread 1 runs A [0,100] us, with B [10,30] and
# B [40,60] holding a recursive B [45,55]; thread 2 runs C [0,80] with
# B [20,50]. Exact profile (ns): A 100000 incl / 60000 excl, C 80000 /
# 50000, B 70000 / 70000 in 4 calls of which 1 recursive; total 180000.
RECORDS="1 0 0x1000 0
1 0 0x1004 10
1 1 0x1004 30
1 0 0x1004 40
1 0 0x1004 45
1 1 0x1004 55
1 1 0x1004 60
1 1 0x1000 100
2 0 0x1008 0
2 0 0x1004 20
2 1 0x1004 50
2 1 0x1008 80"
THREADS=$'1\tmain\n2\tworker\n'
PROFILE='{"total":180000,"methods":[{"name":"A","inclusive":100000,"exclusive":60000,"calls":1,"recursive":0,"parents":[{"name":"(toplevel)","inclusive":100000,"calls":1}],"children":[{"name":"B","inclusive":40000,"calls":2}]},{"name":"C","inclusive":80000,"exclusive":50000,"calls":1,"recursive":0,"parents":[{"name":"(toplevel)","inclusive":80000,"calls":1}],"children":[{"name":"B","inclusive":30000,"calls":1}]},{"name":"B","inclusive":70000,"exclusive":70000,"calls":4,"recursive":1,"parents":[{"name":"A","inclusive":40000,"calls":2},{"name":"C","inclusive":30000,"calls":1},{"name":"B","inclusive":10000,"calls":1}],"children":[{"name":"B","inclusive":10000,"calls":1}]}]}'

mktrace "$work/v3.trace" 3 wall "$RECORDS" "$THREADS"
run profile --json "$work/v3.trace"
[ "$rc" = 0 ] && [ "$out" = "$PROFILE" ]
result profile_json_exact_for_constructed_trace $?

run profile "$work/v3.trace"
[ "$rc" = 0 ] && grep -qE '^\[1\] +55\.6% +0\.100000 +33\.3% +0\.060000 +1\+0 +A$' "$work/out" &&
	grep -qE '^\[3\] +38\.9% +0\.070000 +38\.9% +0\.070000 +3\+1 +B$' "$work/out" &&
	grep -qE '^ +parent +57\.1% +0\.040000 ms +2/4 +\[1\] A$' "$work/out"
result profile_text_percentages_and_calls $?

run profile --json --thread 2 "$work/v3.trace"
[ "$rc" = 0 ] && [ "$out" = '{"total":80000,"methods":[{"name":"C","inclusive":80000,"exclusive":50000,"calls":1,"recursive":0,"parents":[{"name":"(toplevel)","inclusive":80000,"calls":1}],"children":[{"name":"B","inclusive":30000,"calls":1}]},{"name":"B","inclusive":30000,"exclusive":30000,"calls":1,"recursive":0,"parents":[{"name":"C","inclusive":30000,"calls":1}],"children":[]}]}' ]
result profile_thread_selects_one_thread $?

run profile --thread 3 "$work/v3.trace"
[ "$rc" = 1 ] && [ "$err" = "vtrace: error: profile: $work/v3.trace: thread 3 has no slices" ]
result profile_unknown_thread_exits_1 $?

# The same trace as versions 1 and 2, and with a dual clock.
ok=0
mktrace "$work/v1.trace" 1 "" "$RECORDS" "$THREADS"
mktrace "$work/v2.trace" 2 global "$RECORDS" "$THREADS"
mktrace "$work/dual.trace" 3 dual "$(awk '{ print $0, 5 * NR }' <<< "$RECORDS" |
	awk '{ t = $4; $4 = $5; $5 = t; print }')" "$THREADS"
for v in v1 v2 dual; do
	run profile --json "$work/$v.trace"
	[ "$rc" = 0 ] && [ "$out" = "$PROFILE" ] || { ktap_print_msg "$v differs"; ok=1; }
done
[ $ok = 0 ]
result profile_reads_versions_1_2_and_dual_clock $?

run slices --json "$work/v3.trace"
[ "$rc" = 0 ] && [ "$out" = '{"slices":[{"pid":1,"tid":1,"name":"A","ts":1000000,"dur":100000,"depth":0},{"pid":2,"tid":2,"name":"C","ts":1000000,"dur":80000,"depth":0},{"pid":1,"tid":1,"name":"B","ts":1010000,"dur":20000,"depth":1},{"pid":2,"tid":2,"name":"B","ts":1020000,"dur":30000,"depth":1},{"pid":1,"tid":1,"name":"B","ts":1040000,"dur":20000,"depth":1},{"pid":1,"tid":1,"name":"B","ts":1045000,"dur":10000,"depth":2}],"async":[],"counters":[],"unmatched":0,"open":0,"malformed":0}' ]
result slices_json_of_method_trace_exact $?

# dot and PNG of the call graph; threshold as dmtracedump -t.
run profile --dot "$work/g.dot" "$work/v3.trace"
[ "$rc" = 0 ] && grep -q 'n0 -> n1 \[label="0.040 ms"' "$work/g.dot" &&
	grep -q 'n2 -> n1 \[label="0.030 ms"' "$work/g.dot" &&
	! grep -q 'n1 -> n1' "$work/g.dot" &&
	run profile --dot "$work/g0.dot" --threshold 0 "$work/v3.trace" &&
	grep -q 'n1 -> n1 \[label="0.010 ms"' "$work/g0.dot"
result profile_dot_edges_over_threshold $?

if command -v dot > /dev/null; then
	run profile --png "$work/g.png" "$work/v3.trace"
	[ "$rc" = 0 ] && [ "$(head -c 4 "$work/g.png" | od -An -c | tr -d ' ')" = '211PNG' ]
	result profile_png_through_graphviz $?
else
	ktap_test_skip "profile_png_through_graphviz (no graphviz dot)"
fi

# Corrupt method traces: refused, with the fault named.
ok=0
bad() { # NAME EXPECTED-MESSAGE-PART
	run slices "$work/$1"
	if [ "$rc" != 1 ] || [[ "$err" != *"not a usable method trace: $2"* ]]; then
		ktap_print_msg "$1: rc $rc: $err"
		ok=1
	fi
}
head -c -3 "$work/v3.trace" > "$work/cut.trace"
bad cut.trace "the data ends inside record 11 (truncated)"
printf '*version\n3\n*threads\n1\tmain\n' > "$work/noend.trace"
bad noend.trace "key text ends without a '*end' line"
sed 's/^1\tmain$/1main/' "$work/v3.trace" > "$work/notab.trace"
bad notab.trace "key line 5: a thread line is 'ID<TAB>NAME' with a decimal ID up to 65535"
sed 's/^0x00001008\tC$/0x0000100c\tC/' "$work/v3.trace" > "$work/nomethod.trace"
bad nomethod.trace "record 8 names method 0x1008, which is not in the key"
sed '2s/^3$/4/' "$work/v3.trace" > "$work/v4.trace"
bad v4.trace "key line 2: version '4' is not 1 to 3"
mktrace "$work/dual2.trace" 2 dual "1 0 0x1000 0 0" "$THREADS"
bad dual2.trace "clock=dual needs version 3, the file is version 2"
run report "$work/cut.trace"
[ $ok = 0 ] && [ "$rc" = 1 ]
result corrupt_method_traces_are_refused_with_the_fault $?

run report --json "$work/v3.trace"
[ "$rc" = 0 ] && [[ "$out" == *'"records":[{"thread":1,"action":"enter","wall_us":0,"method":"A"},'* ]] &&
	[[ "$out" == *'"count":12}' ]]
result report_lists_method_trace_records $?

# Thread ids a record cannot hold (above 32767, or 0) are mapped; the
# real ones come back through the vtrace-thread lines.
mktrace "$work/big.trace" 2 wall "40000 0 0x1000 0
40000 1 0x1000 10
0 0 0x1004 20
0 1 0x1004 25" $'40000\tbig\n0\tidle\n'
"$WRITE" "$work/big.trace" "$work/mapped.trace" > "$work/write.out"
rc=$?
run slices --json "$work/mapped.trace"
[ "$rc" = 0 ] && grep -qx 'mapped_tids 2' "$work/write.out" &&
	grep -qx $'32767\tidle' "$work/mapped.trace" &&
	grep -qx $'32766\tbig' "$work/mapped.trace" &&
	[ "$out" = '{"slices":[{"pid":40000,"tid":40000,"name":"A","ts":1000000,"dur":10000,"depth":0},{"pid":0,"tid":0,"name":"B","ts":1020000,"dur":5000,"depth":0}],"async":[],"counters":[],"unmatched":0,"open":0,"malformed":0}' ]
result dmtrace_maps_tids_above_32767 $?

# From here on, a recording of slices_markers on this host's tracefs.
if [ "$(id -u)" != 0 ] || [ ! -d "$tracefs/instances" ] || [ ! -x "$CAPTURE" ]; then
	for t in slices_json_exact_for_fixed_program slices_text_counts_faults \
		 dmtrace_round_trip_identical_slices dmtrace_split_pair_reads_the_same \
		 dmtracedump_lists_every_record dmtracedump_call_counts_equal_ours \
		 dmtracedump_renders_the_graph profile_of_recording_sums; do
		ktap_test_skip "$t (needs root, tracefs and $CAPTURE)"
	done
	ktap_finished
	exit
fi

mkdir "$inst"
echo 1 > "$inst/events/sched/sched_switch/enable"
echo 1 > "$inst/tracing_on"
"$MARKERS" "$inst/trace_marker" > "$work/ids"
echo 0 > "$inst/tracing_on"
"$CAPTURE" -o "$work/m.dat" -i "$inst_name" -e sched/sched_switch > /dev/null
rmdir "$inst"
pid=$(sed -n 's/^pid //p' "$work/ids")
worker=$(sed -n 's/^worker //p' "$work/ids")

# Exact but for ts and dur, which must order and nest as written.
run slices --json "$work/m.dat"
python3 - "$work/out" "$pid" "$worker" > "$work/check" 2>&1 << 'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
ids = {int(sys.argv[2]): "P", int(sys.argv[3]): "W"}
norm = lambda x: ids.get(x, x)
got = {
	"slices": [[norm(s["pid"]), norm(s["tid"]), s["name"], s["depth"]] for s in d["slices"]],
	"async": [[norm(a["pid"]), a["name"], a["cookie"]] for a in d["async"]],
	"counters": [[norm(c["pid"]), c["name"], c["value"]] for c in d["counters"]],
	"faults": [d["unmatched"], d["open"], d["malformed"]],
}
want = {
	"slices": [["P", "P", "outer", 0], ["P", "P", "inner", 1], ["P", "P", "inner", 1],
		   ["P", "P", "inner", 2], ["P", "W", "work", 0], ["P", "W", "work|step", 1]],
	"async": [["P", "load", 7]],
	"counters": [["P", "frames", 1], ["P", "frames", -2]],
	"faults": [1, 1, 3],
}
bad = got != want
s = d["slices"]
end = lambda x: x["ts"] + x["dur"]
# Nesting as written, the spins' 100 us at least, the async slice from
# the first inner's end to the worker's last marker.
bad |= not (s[0]["ts"] < s[1]["ts"] < end(s[1]) < s[2]["ts"] < s[3]["ts"]
	    < end(s[3]) <= end(s[2]) < end(s[0]) < s[4]["ts"] < s[5]["ts"]
	    < end(s[5]) <= end(s[4]))
bad |= min(x["dur"] for x in s[1:4]) < 100000 or s[4]["dur"] < 300000
a = d["async"][0]
bad |= not (end(s[1]) < a["ts"] < s[2]["ts"] and end(a) > end(s[4]))
c = d["counters"]
bad |= not (s[0]["ts"] < c[0]["ts"] < s[1]["ts"] and end(s[3]) < c[1]["ts"] < end(s[0]))
print(json.dumps(got))
sys.exit(1 if bad else 0)
PYEOF
[ $? = 0 ] && [ "$rc" = 0 ] ||
	{ sed 's/^/# /' "$work/check"; false; }
result slices_json_exact_for_fixed_program $?

run slices "$work/m.dat"
[ "$rc" = 0 ] &&
	[ "$err" = "vtrace: warning: slices: $work/m.dat: 1 end(s) without a begin, 1 begin(s) still open at the end, 3 malformed marker(s)" ] &&
	[ "$(head -1 "$work/out")" = "6 slices, 1 async slices, 2 counter samples; 1 unmatched ends, 1 open at the end, 3 malformed markers" ]
result slices_text_counts_faults $?

# Write, read back: the same slices to the microsecond.
"$VTRACE" convert "$work/m.dat" "$work/m.trace" > "$work/write.out"
rc=$?
"$VTRACE" slices --json "$work/m.dat" > "$work/dat.json" 2> /dev/null
run slices --json "$work/m.trace"
python3 - "$work/dat.json" "$work/out" << 'PYEOF'
import json, sys
dat, trace = (json.load(open(f))["slices"] for f in sys.argv[1:3])
us = lambda s: (s["pid"], s["tid"], s["name"], s["ts"] // 1000 * 1000,
		((s["ts"] + s["dur"]) // 1000 - s["ts"] // 1000) * 1000, s["depth"])
sys.exit(0 if sorted(map(us, dat)) == sorted(map(us, trace)) and len(dat) == 6 else 1)
PYEOF
[ $? = 0 ] && [ "$rc" = 0 ] && grep -qx 'clock=dual' "$work/m.trace" &&
	[ "$(grep -c '^vtrace-thread=' "$work/m.trace")" = 2 ] &&
	[ "$("$VTRACE" report --json "$work/m.trace" | sed 's/.*"count"://')" = '12}' ]
result dmtrace_round_trip_identical_slices $?

run convert --split "$work/m.dat" "$work/split.trace"
[ "$rc" = 0 ] && [ "$out" = "$work/split.trace: 12 records, 2 threads, 4 methods (dmtrace, .key + .data)" ] &&
	run slices --json "$work/split.key" && [ "$rc" = 0 ] && [ ! -e "$work/split.trace" ] && [ -s "$work/split.data" ] &&
	[ "$out" = "$("$VTRACE" slices --json "$work/m.trace")" ] &&
	[ "$("$VTRACE" slices --json "$work/split" 2>&1)" = "$out" ]
result dmtrace_split_pair_reads_the_same $?

if ! command -v dmtracedump > /dev/null; then
	for t in dmtracedump_lists_every_record dmtracedump_call_counts_equal_ours \
		 dmtracedump_renders_the_graph; do
		ktap_test_skip "$t (no dmtracedump)"
	done
else
	# Every record, in order: thread, action and method as vtrace reads them.
	dmtracedump -o "$work/m.trace" > "$work/dump" 2>&1
	rc=$?
	sed -nE 's/^ *([0-9]+) (ent|xit) +[0-9]+ \.+(.*)$/\1 \2 \3/p' "$work/dump" > "$work/dump.rec"
	"$VTRACE" report "$work/m.trace" |
		sed -nE 's/^ *([0-9]+) (ent|xit) +[0-9]+ (.*)$/\1 \2 \3/p' > "$work/vt.rec"
	[ "$rc" = 0 ] && [ "$(wc -l < "$work/dump.rec")" = 12 ] &&
		cmp -s "$work/dump.rec" "$work/vt.rec"
	result dmtracedump_lists_every_record $?

	# Its profile's calls+recursive per method equal ours.
	dmtracedump "$work/m.trace" > "$work/dprof" 2>&1
	"$VTRACE" profile --json "$work/m.trace" > "$work/prof.json" 2> /dev/null
	python3 - "$work/dprof" "$work/prof.json" << 'PYEOF'
import json, re, sys
theirs = {}
for line in open(sys.argv[1]):
	m = re.match(r"^\[(\d+)\]\s+[\d.]+%\s+(\d+)\+(\d+)\s+\d+ (.*)$", line)
	if m and m.group(1) != "0":
		theirs[m.group(4)] = (int(m.group(2)), int(m.group(3)))
ours = {m["name"]: (m["calls"] - m["recursive"], m["recursive"])
	for m in json.load(open(sys.argv[2]))["methods"]}
print("# dmtracedump", sorted(theirs.items()))
sys.exit(0 if theirs == ours and len(ours) == 4 else 1)
PYEOF
	result dmtracedump_call_counts_equal_ours $?

	if command -v dot > /dev/null; then
		dmtracedump -g "$work/dm.png" "$work/m.trace" > /dev/null 2>&1
		rc=$?
		[ "$rc" = 0 ] && [ "$(head -c 4 "$work/dm.png" | od -An -c | tr -d ' ')" = '211PNG' ]
		result dmtracedump_renders_the_graph $?
	else
		ktap_test_skip "dmtracedump_renders_the_graph (no graphviz dot)"
	fi
fi

# The recording's profile: inclusive of outer and work sum to the total
# (nothing else is at the bottom of a stack).
run profile --json "$work/m.dat"
python3 - "$work/out" "$work/dat.json" << 'PYEOF'
import json, sys
p = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))["slices"]
incl = {m["name"]: m for m in p["methods"]}
ok = p["total"] == incl["outer"]["inclusive"] + incl["work"]["inclusive"]
ok &= incl["inner"]["calls"] == 3 and incl["inner"]["recursive"] == 1
ok &= incl["outer"]["inclusive"] == s[0]["dur"]
ok &= incl["outer"]["exclusive"] == s[0]["dur"] - s[1]["dur"] - s[2]["dur"]
sys.exit(0 if ok else 1)
PYEOF
[ $? = 0 ] && [ "$rc" = 0 ]
result profile_of_recording_sums $?

ktap_finished
