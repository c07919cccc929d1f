#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vtrace record -N with vtrace.ko's vendor events, in the rig's guests:
# Debian's "trace-cmd listen" runs in the guest (a private network
# namespace, loopback only) and receives the module's burst and emitted
# events; trace-cmd report of the listener's file finds, per CPU, the
# events vtrace says it sent and, per event, exactly as many as the module
# emitted, over TCP and UDP, with tracefs as it was.
#
# Guests only (the module's debugfs burst/ and emit): SKIPs elsewhere.
# POSIX sh (busybox).

if [ -z "$VTRACE_NET_NS" ] && [ "$(id -u)" = 0 ] &&
	command -v trace-cmd > /dev/null && command -v unshare > /dev/null &&
	command -v ip > /dev/null; then
	VTRACE_NET_NS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$0"' "$0"
fi

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
inst=vtrace_net_guest_$$
idir=$TRACEFS/instances/$inst
ctl=/sys/kernel/debug/vtrace
port=18900
lpid=
vpid=

cleanup() {
	[ -z "$vpid" ] || kill -INT "$vpid" 2> /dev/null
	[ -z "$lpid" ] || kill -KILL "-$lpid" 2> /dev/null
	vt_remove_instance "$idir"
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
vt_require_tracefs
if [ ! -d "$TRACEFS/events/mali" ] || [ ! -w "$ctl/burst/start" ]; then
	ktap_skip_all "no vtrace.ko with debugfs (the guests' tests)"
	exit "$KSFT_SKIP"
fi
if [ -z "$VTRACE_NET_NS" ]; then
	ktap_skip_all "needs trace-cmd, unshare and ip"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 2

# start_listener DIR - trace-cmd listen on a new port, files into DIR, in
# a process group of its own.
start_listener() {
	port=$((port + 1))
	mkdir -p "$1"
	setsid trace-cmd listen -p "$port" -d "$1" > "$1.log" 2>&1 &
	lpid=$!
	n=0
	until netstat -ltn 2> /dev/null | grep -q ":$port "; do
		[ $n -ge 100 ] && return 1
		sleep 0.1
		n=$((n + 1))
	done
}

stop_listener() {
	kill -KILL "-$lpid" 2> /dev/null
	wait "$lpid" 2> /dev/null
	lpid=
}

# report_counts FILE - "CPU COUNT" lines (CPU) and "EVENT COUNT" lines
# (EVENT) of what trace-cmd report reads, into FILE.cpu and FILE.event.
report_counts() {
	trace-cmd report "$1" 2> /dev/null > "$1.txt"
	sed -n 's/^.*\[\([0-9][0-9]*\)\] *[0-9.]*: .*/\1/p' "$1.txt" |
		sort -n | uniq -c | awk '{ print $2 + 0, $1 }' > "$1.cpu"
	sed -n 's/^.*\[[0-9][0-9]*\] *[0-9.]*: \([a-z_0-9]*\): .*/\1/p' "$1.txt" |
		sort | uniq -c | awk '{ print $2, $1 }' > "$1.event"
}

# json_cpus FILE - "CPU EVENTS" lines of a --json summary, CPUs with
# events only.
json_cpus() {
	sed 's/.*"cpus":\[//; s/\].*//' "$1" | tr '}' '\n' |
		sed -n 's/.*"cpu":\([0-9]*\),"events":\([0-9]*\).*/\1 \2/p' |
		awk '$2 != 0'
}

emitted() {
	awk '/^emitted:/ { print $2 }' "$ctl/burst/status"
}

# emit N - N gpu_power_state and N thermal_cpu_pressure events.
emit() {
	i=0
	while [ $i -lt "$1" ]; do
		echo "gpu_power_state $((i % 4)) $(((i + 1) % 4))" > "$ctl/emit" ||
			return
		echo "thermal_cpu_pressure 0 $i" > "$ctl/emit" || return
		i=$((i + 1))
	done
}

mkdir "$idir"
before=$(settings_of "$idir")

# stream NAME TRANSPORT BURST EMITS - the burst (BURST events per CPU, 0:
# none) and EMITS emitted events of each kind, recorded to the listener.
stream() {
	d=$work/$1
	expect start_listener "$d"
	"$VTRACE" record --instance "$inst" -N "127.0.0.1:$port" "$2" \
		-e mali/mali_pm_status -e mali/gpu_power_state \
		-e thermal_exynos/thermal_cpu_pressure -b 8192 --json \
		> "$d.json" 2> "$work/err" &
	vpid=$!
	expect vt_wait_recording "$idir"
	want_burst=0
	if [ "$3" != 0 ]; then
		echo "$3" > "$ctl/burst/start"
		while grep -q 'state: running' "$ctl/burst/status"; do
			sleep 0.1
		done
		expect grep -q 'state: done' "$ctl/burst/status"
		want_burst=$(emitted)
	fi
	expect emit "$4"
	kill -INT "$vpid"
	wait "$vpid"
	rc=$?
	vpid=
	expect [ "$rc" = 0 ]
	f=$(ls "$d"/trace.*.dat 2> /dev/null | head -1)
	expect [ -n "$f" ]
	report_counts "$f"
	json_cpus "$d.json" > "$d.sent"
	expect [ -s "$d.sent" ]
	expect cmp -s "$f.cpu" "$d.sent"
	{
		[ "$want_burst" = 0 ] || echo "mali_pm_status $want_burst"
		echo "gpu_power_state $4"
		echo "thermal_cpu_pressure $4"
	} | sort > "$d.want"
	expect cmp -s "$f.event" "$d.want"
	if ! cmp -s "$f.cpu" "$d.sent" || ! cmp -s "$f.event" "$d.want"; then
		ktap_print_msg "received per CPU: $(tr '\n' ' ' < "$f.cpu"); sent: $(tr '\n' ' ' < "$d.sent")"
		ktap_print_msg "received per event: $(tr '\n' ' ' < "$f.event"); emitted: $(tr '\n' ' ' < "$d.want")"
	fi
	expect [ "$(json_num lost "$d.json")" = 0 ]
	expect [ "$(json_num backpressure "$d.json")" = 0 ]
	expect contains "$(cat "$d.json")" "\"output\":\"127.0.0.1:$port\""
	expect [ "$(settings_of "$idir")" = "$before" ]
	stop_listener
	[ $ok = 1 ] || ktap_print_msg "listener: $(head -c 600 "$d.log")"
	result "$1 ($(json_num events "$d.json") events)"
}

# UDP with the emitted events only: a datagram the listener's socket has no
# room for is dropped unseen by the sender (Documentation/vtrace-net.rst),
# and a burst outruns a listener under TCG.
stream net_guest_tcp_vendor_events_exact --tcp 20000 200
stream net_guest_udp_vendor_events_exact --udp 0 200

ktap_finished
