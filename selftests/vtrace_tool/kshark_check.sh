# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the host-only tests that read trace.dat files back
# (test_tracedat.sh, check_guest_artifacts.sh). Needs bash and python3.
#
# kshark_same_events FILE: KernelShark's data layer (kshark_load, built
# from kshark_load.c against Debian's libkshark2) loads FILE, and holds
# the events trace-cmd report -t does: the same (CPU, timestamp) pairs,
# and per event name the same count (events of the ftrace system apart:
# the two name those differently, "ftrace/print" and "tracing_mark_write").
# Prints what differs as KTAP comments; fails on any difference.

KSHARK_LOAD=${KSHARK_LOAD:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kshark_load}

kshark_same_events() {
	local file=$1 tmp rc

	if [ ! -x "$KSHARK_LOAD" ]; then
		echo "# no $KSHARK_LOAD (needs libkshark2: tools/rig/setup.sh)"
		return 1
	fi
	tmp=$(mktemp -d /tmp/vtrace-kshark.XXXXXX)
	"$KSHARK_LOAD" "$file" > "$tmp/ks" 2> "$tmp/ks.err"
	rc=$?
	trace-cmd report -t "$file" > "$tmp/tc" 2> /dev/null
	if [ "$rc" != 0 ]; then
		echo "# kshark_load $file: exit $rc: $(head -c 300 "$tmp/ks.err")"
	else
		python3 - "$tmp/ks" "$tmp/tc" <<'EOF'
import collections, re, sys
ks = [l.split() for l in open(sys.argv[1], errors="replace")]
# KernelShark adds an entry "missed_events" where a page's header says
# events were lost before it (trace-cmd prints no line for it): not an
# event, left out, and counted.
missed = sum(1 for _, _, n in ks if n == "missed_events")
ks = [e for e in ks if e[2] != "missed_events"]
if missed:
	print("# kernelshark: %d pages after a loss (missed_events)" % missed)
# trace-cmd 3.1 prints seconds.nanoseconds, or for a clock it does not
# know to count nanoseconds (boot) the nanoseconds alone.
line = re.compile(r".*\[(\d+)\] *(\d+)(?:\.(\d{9}))?: ([^:]+):")
tc = [m.groups() for m in map(line.match, open(sys.argv[2], errors="replace"))
      if m]
ks_keys = sorted((int(c), int(t)) for c, t, _ in ks)
tc_keys = sorted((int(c), int(s) * 10**9 + int(ns) if ns else int(s))
		 for c, s, ns, _ in tc)
names = collections.Counter(n.split("/", 1)[1] for _, _, n in ks
			    if not n.startswith("ftrace/"))
tc_names = collections.Counter(n for *_, n in tc if n in names)
bad = []
if ks_keys != tc_keys:
	bad.append("%d entries, trace-cmd %d; first (cpu, ts) apart: %s" % (
		len(ks_keys), len(tc_keys),
		next((p for p in zip(ks_keys, tc_keys) if p[0] != p[1]), None)))
if names != tc_names:
	bad.append("names: kernelshark %s, trace-cmd %s" % (dict(names), dict(tc_names)))
for b in bad:
	print("# kernelshark: " + b)
sys.exit(1 if bad or not ks_keys else 0)
EOF
		rc=$?
	fi
	rm -rf "$tmp"
	return "$rc"
}
