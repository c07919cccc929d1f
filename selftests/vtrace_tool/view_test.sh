#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vtrace view, vtrace profile --html and vtrace profile --diff: the pages
# and the diff of a method trace built byte by byte (exact numbers), bad
# input refused with no page left, and the pages opened in Debian's
# chromium, headless: the state the page exposes (rows, spans, the widths
# in pixels of named spans at a given zoom, profile rows, a method's
# parents and children) is checked to the value, on the constructed trace
# and on a recording of slices_markers made on this host's tracefs (CPU
# rows from sched_switch, counters, an async slice). A page opened with
# the network blocked loads fully. A program of libvtrace-atrace
# (../vtrace_atrace/atrace_timeline: nested slices, a counter, an async
# slice) recorded with vtrace record opens with its rows, depths and the
# widths of its spans as its recorded lengths give them; hovering a span
# shows its details and arguments. Screenshots of each panel are kept in
# VIEW_ARTIFACTS (default .cache/artifacts/view/ of the tree).
#
# Host only (bash, python3); the browser checks skip without chromium
# (tools/rig/setup.sh installs it), the recordings without root, tracefs,
# tracedat_capture or atrace_timeline.
if [ -z "${BASH_VERSION:-}" ]; then
	if ! command -v bash > /dev/null || ! command -v python3 > /dev/null; then
		echo "TAP version 13"
		echo "1..0 # SKIP needs bash and python3 (host only)"
		exit 4
	fi
	exec bash "$0" "$@"
fi

set -u

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

top=$(cd "$here/../.." && pwd)
MARKERS=${SLICES_MARKERS:-$here/slices_markers}
CAPTURE=${TRACEDAT_CAPTURE:-$here/tracedat_capture}
TIMELINE=${ATRACE_TIMELINE:-$here/../vtrace_atrace/atrace_timeline}
ARTIFACTS=${VIEW_ARTIFACTS:-$top/.cache/artifacts/view}
tracefs=$TRACEFS
inst_name=vtrace_view_$$
inst=$tracefs/instances/$inst_name
atrace_inst=vtrace_view_atrace_$$
work=$VT_TMP

cleanup() {
	[ -d "$inst" ] && rmdir "$inst"
	"$VTRACE" stop --instance "$atrace_inst" > /dev/null 2>&1
	vt_remove_instance "$tracefs/instances/$atrace_inst"
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
if [ ! -x "$VTRACE" ]; then
	ktap_skip_all "not built: $VTRACE"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 16

# said: the output of the last check (in $work/check), as diagnostics;
# fails, so that "check || said" keeps the check's status.
said() {
	sed 's/^/# /' "$work/check"
	return 1
}

# mktrace OUT RECORDS THREADS METHODS: a version 3 wall-clock method
# trace, RECORDS as "tid action method_id time_us" lines.
mktrace() {
	python3 - "$@" << 'PYEOF'
import struct, sys
out, records, threads, methods = sys.argv[1:5]
key = "*version\n3\nclock=wall\n*threads\n" + threads + "*methods\n" + methods + "*end\n"
recs = b""
for line in records.strip().split("\n"):
	tid, action, method, t = [int(x, 0) for x in line.split()]
	recs += struct.pack("<HII", tid, method | action, t)
hdr = struct.pack("<IHHQH", 0x574f4c53, 3, 32, 1000, 10)
hdr += b"\0" * (32 - len(hdr))
open(out, "wb").write(key.encode() + hdr + recs)
PYEOF
}

# page_data PAGE: the data object a page holds, as JSON.
page_data() {
	python3 - "$1" << 'PYEOF'
import re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="vtrace-data">(.*?)</script>', html, re.S)
print(m.group(1) if m else "")
PYEOF
}

# As slices_test.sh's: thread 1 runs A [0,100] us, with B [10,30] and
# B [40,60] holding a recursive B [45,55]; thread 2 runs C [0,80] with
# B [20,50]. B's key line names its source file and line: its spans'
# arguments.
METHODS=$'0x00001000\tA\n0x00001004\tB\t\t\tB.java\t12\n0x00001008\tC\n0x0000100c\tD\n'
THREADS=$'1\tmain\n2\tworker\n'
mktrace "$work/a.trace" "1 0 0x1000 0
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
2 1 0x1008 80" "$THREADS" "$METHODS"
# B: A [0,150] us holds B [10,30] and D [40,100]; no C.
mktrace "$work/b.trace" "1 0 0x1000 0
1 0 0x1004 10
1 1 0x1004 30
1 0 0x100c 40
1 1 0x100c 100
1 1 0x1000 150" "$THREADS" "$METHODS"

vt_run view "$work/a.trace" -o "$work/a.html"
page_data "$work/a.html" > "$work/a.json"
"$VTRACE" profile --json "$work/a.trace" > "$work/a.profile"
python3 - "$work/a.json" "$work/a.profile" > "$work/check" 2>&1 << 'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
p = json.load(open(sys.argv[2]))
sl = d["slices"]
ok = d["mode"] == "view" and d["file"] == "a.trace" and d["end"] == 100000
ok &= d["names"] == ["A", "B", "B.java:12", "C"]
ok &= sl["args"] == {"slice": [2, 3, 4, 5], "text": [2, 2, 2, 2]}
ok &= [t["tid"] for t in d["threads"]] == [1, 2]
ok &= sl["ts"] == [0, 0, 10000, 20000, 40000, 45000]
ok &= sl["dur"] == [100000, 80000, 20000, 30000, 20000, 10000]
ok &= sl["depth"] == [0, 0, 1, 1, 1, 2] and sl["thread"] == [0, 1, 0, 1, 0, 0]
# The same profile as vtrace profile --json, not a second computation.
ok &= d["profile"] == p
print("page data", "ok" if ok else "differs: %s" % json.dumps(d)[:1500])
sys.exit(0 if ok else 1)
PYEOF
[ "$rc" = 0 ] && [ -z "$out" ] && { grep -q '^page data ok$' "$work/check" || said; }
vt_result view_page_holds_the_slices_and_profile_json $?

# Self-contained: no URL, no external script, style, font or frame.
grep -Eio 'https?://|<script[^>]* src=|<link|@import|url\(|<iframe' \
	"$work/a.html" > "$work/urls"
[ ! -s "$work/urls" ] && [ "$(grep -c '<script' "$work/a.html")" = 2 ] &&
	[ "$(stat -c %a "$work/a.html")" = 600 ]
vt_result view_page_is_self_contained $?

# Bad input: a clear message, exit 1, no page; a page already there stays.
printf 'not a trace\n' > "$work/bad.dat"
vt_run view "$work/bad.dat" -o "$work/bad.html"
bad_rc=$rc
grep -q "^vtrace: error: view: .*bad.dat" "$work/err" && [ "$bad_rc" = 1 ] &&
	[ ! -e "$work/bad.html" ] && [ -z "$(ls "$work" | grep '^\.bad\.html')" ]
s1=$?
cp "$work/a.html" "$work/keep.html"
printf '*version\n3\n*threads\n1main\n*methods\n*end\n' > "$work/corrupt.trace"
vt_run view "$work/corrupt.trace" -o "$work/keep.html"
[ "$s1" = 0 ] && [ "$rc" = 1 ] && grep -q "not a usable method trace" "$work/err" &&
	cmp -s "$work/a.html" "$work/keep.html" &&
	[ -z "$(ls -A "$work" | grep '^\.keep')" ]
s2=$?
vt_run view "$work/a.trace"
[ "$s2" = 0 ] && [ "$rc" = 2 ] && grep -q "^usage: vtrace view" "$work/err"
vt_result view_bad_input_leaves_no_page $?

# profile --html: the profile panel alone, the text still on stdout.
vt_run profile --html "$work/p.html" "$work/a.trace"
page_data "$work/p.html" > "$work/p.json"
[ "$rc" = 0 ] && grep -qE '^\[1\] +55\.6% +0\.100000 +33\.3% +0\.060000 +1\+0 +A$' "$work/out" &&
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
sys.exit(0 if d == {"mode": "profile", "file": "a.trace", "profile": p} else 1)' \
		"$work/p.json" "$work/a.profile"
vt_result profile_html_page_holds_the_profile $?

# --diff: A 100 -> 150 us, B 70 -> 20, C only in A, D only in B.
DIFF='{"a":{"file":"'$work'/a.trace","total":180000},"b":{"file":"'$work'/b.trace","total":150000},"methods":[{"name":"C","in":"a","a":{"inclusive":80000,"exclusive":50000,"calls":1,"recursive":0},"change":{"inclusive":-80000,"exclusive":-50000,"calls":-1}},{"name":"D","in":"b","b":{"inclusive":60000,"exclusive":60000,"calls":1,"recursive":0},"change":{"inclusive":60000,"exclusive":60000,"calls":1}},{"name":"B","in":"both","a":{"inclusive":70000,"exclusive":70000,"calls":4,"recursive":1},"b":{"inclusive":20000,"exclusive":20000,"calls":1,"recursive":0},"change":{"inclusive":-50000,"exclusive":-50000,"calls":-3}},{"name":"A","in":"both","a":{"inclusive":100000,"exclusive":60000,"calls":1,"recursive":0},"b":{"inclusive":150000,"exclusive":70000,"calls":1,"recursive":0},"change":{"inclusive":50000,"exclusive":10000,"calls":0}}]}'
vt_run profile --diff "$work/a.trace" "$work/b.trace" --json
[ "$rc" = 0 ] && [ "$out" = "$DIFF" ]
vt_result profile_diff_json_exact $?

vt_run profile --diff "$work/a.trace" "$work/b.trace"
[ "$rc" = 0 ] && [ "$(sed -n 2p "$work/out")" = "B $work/b.trace: total 0.150000 ms, change -0.030000 ms" ] &&
	[ "$(sed -n '5,$p' "$work/out" | awk '{ print $NF }' | tr '\n' ' ')" = "A) B) B A " ] &&
	grep -qE '^ +0\.080000 +- +-0\.080000 +0\.050000 +- +-0\.050000 +1 +- +-1  C  \(only in A\)$' "$work/out" &&
	grep -qE '^ +- +0\.060000 +\+0\.060000 +- +0\.060000 +\+0\.060000 +- +1 +\+1  D  \(only in B\)$' "$work/out" &&
	grep -qE '^ +0\.070000 +0\.020000 +-0\.050000 +0\.070000 +0\.020000 +-0\.050000 +4 +1 +-3  B$' "$work/out"
vt_result profile_diff_text_largest_change_first $?

vt_run profile --diff "$work/a.trace" "$work/b.trace" --html "$work/d.html" --json
page_data "$work/d.html" > "$work/d.json"
[ "$rc" = 0 ] && python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); p = json.loads(sys.argv[2]); p["mode"] = "diff"
sys.exit(0 if d == p else 1)' "$work/d.json" "$DIFF"
s=$?
vt_run profile --diff "$work/a.trace" "$work/bad.dat" --html "$work/d2.html"
[ "$s" = 0 ] && [ "$rc" = 1 ] && [ ! -e "$work/d2.html" ]
vt_result profile_diff_html_page $?

# Headless chromium from here on.
CHROMIUM=
for c in chromium chromium-browser; do
	command -v "$c" > /dev/null && CHROMIUM=$c && break
done
browser_tests="browser_timeline_rows_spans_widths browser_hover_shows_arguments
	browser_profile_select_parents_children
	browser_profile_sort_filter browser_diff_page browser_offline_page_loads
	browser_atrace_program browser_recorded_program
	browser_perfetto_cpu_rows_as_tracedat"
if [ -z "$CHROMIUM" ]; then
	for t in $browser_tests; do
		ktap_test_skip "$t (no chromium: apt-get install chromium, or tools/rig/setup.sh)"
	done
	ktap_finished
	exit
fi
mkdir -p "$ARTIFACTS"

# browse URL [FLAGS...]: the page's state after it loaded, as JSON, in
# $work/page.state; with the window 1200 px wide the track is 1000 px.
browse() {
	local url=$1

	shift
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--no-first-run --user-data-dir="$work/profile-dir" \
		--window-size=1200,900 --virtual-time-budget=20000 "$@" \
		--dump-dom "$url" 2> /dev/null |
		python3 -c 'import html, re, sys
m = re.search(r"<pre id=\"vtrace-state\"[^>]*>(.*?)</pre>", sys.stdin.read(), re.S)
print(html.unescape(m.group(1)) if m else "{}")' > "$work/page.state"
}

# shot URL NAME: a screenshot, kept in the artifacts.
shot() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--no-first-run --user-data-dir="$work/profile-dir" \
		--window-size=1200,900 --virtual-time-budget=20000 \
		--screenshot="$ARTIFACTS/$2.png" "$1" > /dev/null 2>&1
	[ -s "$ARTIFACTS/$2.png" ]
}

# check PYTHON: asserts on the state (d) in python; on failure, prints
# what differs.
check() {
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$1" "$work/page.state" > "$work/check" 2>&1 || said
}

# At 0..100 us over 1000 px, 1 us is 10 px: A 1000 px, C 800, the B
# spans 200, 200, 100 and 300 (in the order of their begins).
rm -f "$ARTIFACTS"/timeline-dmtrace.png "$ARTIFACTS"/timeline-recording.png \
	"$ARTIFACTS"/profile-dmtrace.png "$ARTIFACTS"/profile-diff.png \
	"$ARTIFACTS"/timeline-atrace.png "$ARTIFACTS"/profile-atrace.png
rc=
browse "file://$work/a.html#t0=0&t1=100000"
check '
want = {"ready": True, "spans": 6, "threads": 2, "processes": 2, "trackWidth": 1000,
	"t0": 0, "t1": 100000, "drawnSpans": 6, "aggregatedSpans": 0,
	"widths": {"A": [1000], "B": [200, 200, 100, 300], "C": [800]},
	"rows": [{"kind": "group", "label": "main 1", "y": 22, "lanes": 0, "spans": 0},
		 {"kind": "thread", "label": "main 1", "y": 40, "lanes": 3, "spans": 4},
		 {"kind": "group", "label": "worker 2", "y": 88, "lanes": 0, "spans": 0},
		 {"kind": "thread", "label": "worker 2", "y": 106, "lanes": 2, "spans": 2}]}
bad = {k: d.get(k) for k in want if d.get(k) != want[k]}
print("differs:", bad)
sys.exit(1 if bad else 0)'
s=$?
# Zoomed to 40..60 us: B [40,60] fills the 1000 px, B [45,55] 500 px,
# the worker's B [20,50] 500 px (clipped at the left edge).
browse "file://$work/a.html#t0=40000&t1=60000"
[ "$s" = 0 ] && check '
w = d["widths"]
print("widths", w)
sys.exit(0 if w["B"] == [1000, 500, 500] and w["A"] == [1000] and w["C"] == [1000] else 1)' &&
	shot "file://$work/a.html#t0=0&t1=100000&sel=B" timeline-dmtrace
vt_result browser_timeline_rows_spans_widths $?

# Hovering (the hash's hover=X,Y, as a mouse there): B [10,30] us at 20
# us is x 400, its lane (depth 1 of main's row at y 40) y 56..71; its
# arguments are its key line's source. A has none; nothing at 95 us.
browse "file://$work/a.html#t0=0&t1=100000&hover=400,64"
check '
want = "B\nstart  10.000 us\ndur    20.000 us\ndepth  1\nthread main 1\nkind   marker / method\nargs   B.java:12"
print("hover", repr(d.get("hover")))
sys.exit(0 if d.get("hover") == want else 1)'
s=$?
browse "file://$work/a.html#t0=0&t1=100000&hover=300,48"
[ "$s" = 0 ] && check '
want = "A\nstart  0 ns\ndur    100.000 us\ndepth  0\nthread main 1\nkind   marker / method"
print("hover", repr(d.get("hover")))
sys.exit(0 if d.get("hover") == want else 1)'
s=$?
browse "file://$work/a.html#t0=0&t1=100000&hover=1150,64"
[ "$s" = 0 ] && check 'sys.exit(0 if "hover" in d and d["hover"] is None else 1)'
vt_result browser_hover_shows_arguments $?

browse "file://$work/a.html#sel=B"
check '
ok = d["selected"] == "B" and d["selectedSpans"] == 4
ok &= d["parents"] == [{"name": "A", "inclusive": 40000, "calls": 2, "share": "57.1%"},
		       {"name": "C", "inclusive": 30000, "calls": 1, "share": "42.9%"},
		       {"name": "B", "inclusive": 10000, "calls": 1, "share": "14.3%"}]
ok &= d["children"] == [{"name": "B", "inclusive": 10000, "calls": 1, "share": "14.3%"}]
ok &= [(r["name"], r["inclusive"], r["exclusive"], r["calls"], r["recursive"])
       for r in d["profile"]["rows"]] == [("A", 100000, 60000, 1, 0),
	("C", 80000, 50000, 1, 0), ("B", 70000, 70000, 4, 1)]
sys.exit(0 if ok else 1)' && shot "file://$work/p.html#sel=B" profile-dmtrace
vt_result browser_profile_select_parents_children $?

browse "file://$work/a.html#sort=calls"
check 'sys.exit(0 if [r["name"] for r in d["profile"]["rows"]] == ["B", "A", "C"] else 1)'
s=$?
browse "file://$work/a.html#sort=exclusive&asc=1&filter=a"
[ "$s" = 0 ] && check '
p = d["profile"]
sys.exit(0 if p["count"] == 1 and [r["name"] for r in p["rows"]] == ["A"] and p["asc"] else 1)'
s=$?
browse "file://$work/a.html#sort=name&asc=1"
[ "$s" = 0 ] && check 'sys.exit(0 if [r["name"] for r in d["profile"]["rows"]] == ["A", "B", "C"] else 1)'
vt_result browser_profile_sort_filter $?

browse "file://$work/d.html"
check '
rows = [(r["name"], r["in"], r.get("inclA"), r.get("inclB"), r["inclD"], r["callsD"])
	for r in d["profile"]["rows"]]
ok = d["mode"] == "diff" and rows == [("C", "only A", 80000, None, -80000, -1),
	("D", "only B", None, 60000, 60000, 1), ("B", "both", 70000, 20000, -50000, -3),
	("A", "both", 100000, 150000, 50000, 0)]
print(rows)
sys.exit(0 if ok else 1)' && shot "file://$work/d.html" profile-diff
vt_result browser_diff_page $?

# No network: every name unresolvable, every proxy refused; the page
# still loads whole (its script ran to the end and drew the timeline).
browse "file://$work/a.html" --host-resolver-rules='MAP * ~NOTFOUND' \
	--proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>'
check 'sys.exit(0 if d.get("ready") and d.get("spans") == 6 and d.get("drawnSpans") == 6 else 1)'
vt_result browser_offline_page_loads $?

# atrace_timeline, linked to libvtrace-atrace, run while vtrace record
# holds its tag (gfx) in an instance of its own, with sched_switch. The
# page's rows, spans per name and depths are the program's; at a view of
# 1000 * 2^16 ns (one px is 65536 ns, exactly) from the async slice's
# begin, each span's width is what its recorded begin and length (vtrace
# slices --json of the same file) make of x = 200 + (t - t0) / 65536,
# clipped to the track and rounded to 1/100 px as the page rounds. The
# profile: calls, parents and children of the nesting.
if [ "$(id -u)" != 0 ] || [ ! -d "$tracefs/instances" ] || [ ! -x "$TIMELINE" ]; then
	ktap_test_skip "browser_atrace_program (needs root, tracefs and $TIMELINE: make -C selftests/vtrace_atrace)"
else
	mkdir -p "$VTRACE_STATE_DIR"
	printf 'gfx\n sched/sched_switch\n' > "$work/atrace.cats"
	"$VTRACE" record --background -f "$work/atrace.cats" -c gfx \
		--instance "$atrace_inst" -t 60s -o "$work/at.dat" \
		> "$work/at.pid" 2> "$work/err"
	rc=$?
	recorder=$(tr -dc 0-9 < "$work/at.pid")
	[ "$rc" = 0 ] && vt_wait_recording "$tracefs/instances/$atrace_inst" &&
		"$TIMELINE" > "$work/at.ids" 2>> "$work/err"
	s=$?
	"$VTRACE" stop --instance "$atrace_inst" >> "$work/err" 2>&1
	while [ -n "$recorder" ] && kill -0 "$recorder" 2> /dev/null; do
		sleep 0.1
	done
	pid=$(sed -n 's/^pid //p' "$work/at.ids")
	worker=$(sed -n 's/^worker //p' "$work/at.ids")
	[ "$s" = 0 ] && "$VTRACE" slices --json "$work/at.dat" > "$work/at.slices" &&
		vt_run view "$work/at.dat" -o "$work/at.html" && [ "$rc" = 0 ]
	s=$?
	[ "$s" = 0 ] && page_data "$work/at.html" > "$work/at.data" &&
		t0=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2]))
print(s["async"][0]["ts"] - d["start"] if s["async"] else 0)' "$work/at.data" "$work/at.slices") &&
		t1=$((t0 + 1000 * 65536)) && browse "file://$work/at.html#t0=$t0&t1=$t1" && check "
import math
pid, worker, t0, t1 = $pid, $worker, $t0, $t1
s = json.load(open('$work/at.slices'))
start = json.load(open('$work/at.data'))['start']
sl = s['slices']
# The program's slices, as recorded.
got = sorted((x['tid'], x['name'], x['depth']) for x in sl)
want = sorted([(pid, 'frame', 0)] * 2 + [(pid, 'layout', 1)] * 2 +
	      [(pid, 'measure', 2)] * 4 + [(pid, 'draw', 1)] * 2 +
	      [(worker, 'decode', 0), (worker, 'parse', 1)])
ok = got == want and all(x['pid'] == pid for x in sl)
ok &= [(a['name'], a['cookie'], a['pid']) for a in s['async']] == [('upload', 7, pid)]
ok &= [(c['name'], c['value']) for c in s['counters']] == [('queue', 1), ('queue', 2), ('queue', 0)]
rows = d['rows']
ok &= d['ready'] and d['spans'] == 12 and d['threads'] == 2 and d['processes'] == 1
ok &= [(r['kind'], r['label'], r['lanes'], r['spans']) for r in rows
       if r['kind'] not in ('cpu', 'group')] == [
	('thread', 'tl-main %d' % pid, 3, 10), ('thread', 'tl-worker %d' % worker, 2, 2),
	('async', 'async %d' % pid, 1, 1), ('counter', 'queue', 1, 3)]
ok &= [r['values'] for r in rows if r['kind'] == 'counter'] == [[1, 2, 0]]
ok &= d['trackWidth'] == 1000
# The widths the page must draw, in the order it draws them (a name
# is one thread's and one depth's: the order of the begins).
def px(t):
	return 200 + (t - start - t0) / 65536
want_w = {}
spans = sorted([(x['ts'], x['dur'], x['name']) for x in sl] +
	       [(a['ts'], a['dur'], a['name']) for a in s['async']])
for ts, dur, name in spans:
	x0, x1 = max(200, px(ts)), min(1200, px(ts + dur))
	if ts - start <= t1 and ts + dur - start >= t0:
		want_w.setdefault(name, []).append(math.floor((x1 - x0) * 100 + 0.5) / 100)
w = {k: v for k, v in d['widths'].items() if k in want_w}
ok &= w == want_w and sum(map(len, want_w.values())) == 13
prof = {r['name']: r for r in d['profile']['rows']}
ok &= {k: prof[k]['calls'] for k in prof} == {'frame': 2, 'layout': 2, 'measure': 4,
	'draw': 2, 'decode': 1, 'parse': 1}
print('widths', w, 'want', want_w)
print('rows', rows)
sys.exit(0 if ok else 1)" && shot "file://$work/at.html#t0=$t0&t1=$t1" timeline-atrace
	s=$?
	# layout: called by frame, calls measure (the whole of its children).
	[ "$s" = 0 ] && browse "file://$work/at.html#sel=layout" && check "
s = json.load(open('$work/at.slices'))['slices']
lay = sum(x['dur'] for x in s if x['name'] == 'layout')
mea = sum(x['dur'] for x in s if x['name'] == 'measure')
ok = d['selected'] == 'layout' and d['selectedSpans'] == 2
ok &= [(e['name'], e['inclusive'], e['calls']) for e in d['parents']] == [('frame', lay, 2)]
ok &= [(e['name'], e['inclusive'], e['calls']) for e in d['children']] == [('measure', mea, 4)]
print('parents', d['parents'], 'children', d['children'])
sys.exit(0 if ok else 1)" && shot "file://$work/at.html#sel=layout" profile-atrace
	s=$?
	# Hovering the first measure: its details, and no arguments (an
	# atrace B marker carries its name only).
	[ "$s" = 0 ] && check "
from decimal import Decimal, ROUND_HALF_UP
pid, t0 = $pid, $t0
s = json.load(open('$work/at.slices'))['slices']
start = json.load(open('$work/at.data'))['start']
def fmt(ns):
	# The page's fmtNs: three decimals, halves up, of ms, us or ns.
	for div, unit in ((10**9, 's'), (10**6, 'ms'), (10**3, 'us')):
		if abs(ns) >= div:
			return str(Decimal(ns / div).quantize(Decimal('0.001'), ROUND_HALF_UP)) + ' ' + unit
	return '%d ns' % ns
m = [x for x in s if x['name'] == 'measure'][0]
row = [r for r in d['rows'] if r['kind'] == 'thread'][0]
open('$work/at.hover', 'w').write('%d,%d' % (200 + (m['ts'] - start - t0 + m['dur'] // 2) // 65536,
				  row['y'] + 2 * 16 + 8))
want = 'measure\nstart  %s\ndur    %s\ndepth  2\nthread tl-main %d\nkind   marker / method\ncpu    ' % (
	fmt(m['ts'] - start), fmt(m['dur']), pid)
open('$work/at.want', 'w').write(want)
" && browse "file://$work/at.html#t0=$t0&t1=$t1&hover=$(cat "$work/at.hover")" && check "
want = open('$work/at.want').read()
h = d.get('hover') or ''
print('hover', repr(h), 'want', repr(want))
sys.exit(0 if h.startswith(want) and h.count('\n') == 6 and 'args' not in h else 1)"
	vt_result browser_atrace_program $?
fi

# A recording of slices_markers (as slices_test.sh makes it), with
# sched_switch: its threads' rows, the CPU rows, the async slice, the
# counter, the profile of its four names.
if [ "$(id -u)" != 0 ] || [ ! -d "$tracefs/instances" ] || [ ! -x "$CAPTURE" ] ||
   [ ! -x "$MARKERS" ]; then
	ktap_test_skip "browser_recorded_program (needs root, tracefs, $CAPTURE and $MARKERS)"
	ktap_test_skip "browser_perfetto_cpu_rows_as_tracedat (needs the recording)"
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
vt_run view "$work/m.dat" -o "$work/m.html"
"$VTRACE" slices --json "$work/m.dat" > "$work/m.slices" 2> /dev/null
browse "file://$work/m.html"
[ "$rc" = 0 ] && grep -q "1 end(s) without a begin, 1 begin(s) still open" "$work/err" &&
	check "
pid, worker = $pid, $worker
s = json.load(open('$work/m.slices'))
rows = d['rows']
threads = [(r['label'].split()[-1], r['lanes'], r['spans']) for r in rows if r['kind'] == 'thread']
ok = d['ready'] and d['spans'] == 6 == len(s['slices'])
ok &= threads == [(str(pid), 3, 4), (str(worker), 2, 2)]
ok &= [(r['label'], r['spans']) for r in rows if r['kind'] == 'counter'] == [('frames', 2)]
ok &= [(r['label'], r['spans']) for r in rows if r['kind'] == 'async'] == [('async %d' % pid, 1)]
cpus = [r for r in rows if r['kind'] == 'cpu']
ok &= len(cpus) >= 1 and all(r['spans'] >= 1 for r in cpus)
ok &= sorted(r['name'] for r in d['profile']['rows']) == ['inner', 'outer', 'work', 'work|step']
ok &= [r['calls'] for r in d['profile']['rows'] if r['name'] == 'inner'] == [3]
print('threads', threads, 'cpu rows', len(cpus))
sys.exit(0 if ok else 1)" && shot "file://$work/m.html" timeline-recording
vt_result browser_recorded_program $?

# The same recording converted to Perfetto draws the same CPU rows: each
# run's CPU, begin, length, thread and name, and the same rows in the
# browser.
cp "$work/page.state" "$work/m.state"
"$VTRACE" convert --quiet "$work/m.dat" "$work/m.pftrace"
vt_run view "$work/m.pftrace" -o "$work/mp.html"
page_data "$work/m.html" > "$work/m.data"
page_data "$work/mp.html" > "$work/mp.data"
browse "file://$work/mp.html"
[ "$rc" = 0 ] && check "
a = json.load(open('$work/m.data'))['cpus']
b = json.load(open('$work/mp.data'))['cpus']
m = json.load(open('$work/m.state'))
cpu_rows = lambda st: [r for r in st['rows'] if r['kind'] == 'cpu']
print('runs', len(a['ts']), len(b['ts']), 'cpu rows', len(cpu_rows(m)), len(cpu_rows(d)))
sys.exit(0 if a == b and len(a['ts']) > 1 and cpu_rows(d) == cpu_rows(m) and
	 len(cpu_rows(d)) >= 1 else 1)"
vt_result browser_perfetto_cpu_rows_as_tracedat $?

ktap_finished
