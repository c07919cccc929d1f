#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vtrace record -N HOST:PORT against Debian's real "trace-cmd listen", both
# ends in a private network namespace (loopback only; the listener binds
# every interface, so it never runs outside one): the listener's file holds,
# per CPU, exactly the events vtrace says it sent, over TCP (spliced from
# the ring buffer, or written from the read path's memory) and UDP, and
# KernelShark reads it; a collector that is unreachable, not trace-cmd, gone
# mid-recording (with and without --fallback-output) or too slow (back-
# pressure, counted as loss) and bad HOST:PORT values each end as documented,
# with tracefs as it was.
#
# Host only (needs trace-cmd, unshare, ip, python3); POSIX sh.

if [ -z "$VTRACE_NET_NS" ] && [ "$(id -u)" = 0 ] &&
	command -v trace-cmd > /dev/null && command -v unshare > /dev/null &&
	command -v ip > /dev/null && command -v python3 > /dev/null; then
	VTRACE_NET_NS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$0"' "$0"
fi

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
inst=vtrace_net_test_$$
idir=$TRACEFS/instances/$inst
port=18800
lpid=

stop_listener() {
	[ -n "$lpid" ] || return 0
	# Its own process group (setsid): the listener and its children.
	kill -CONT "-$lpid" 2> /dev/null
	kill -KILL "-$lpid" 2> /dev/null
	wait "$lpid" 2> /dev/null
	lpid=
}

cleanup() {
	stop_listener
	vt_remove_instance "$idir"
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
vt_require_tracefs
if [ -z "$VTRACE_NET_NS" ]; then
	ktap_skip_all "needs trace-cmd, unshare, ip and python3 (the host's tests)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 13

# start_listener DIR - trace-cmd listen on a new port, files into DIR.
start_listener() {
	port=$((port + 1))
	mkdir -p "$1"
	setsid trace-cmd listen -p "$port" -d "$1" > "$1.log" 2>&1 &
	lpid=$!
	n=0
	until ss -Hltn "sport = :$port" 2> /dev/null | grep -q .; do
		[ $n -ge 50 ] && return 1
		sleep 0.1
		n=$((n + 1))
	done
}

# received DIR - the listener's file for our one client.
received() {
	ls "$1"/trace.*.dat 2> /dev/null | head -1
}

# per_cpu_report FILE - "CPU COUNT" lines of what trace-cmd reads.
per_cpu_report() {
	trace-cmd report "$1" 2> /dev/null |
		sed -n 's/^.*\[\([0-9][0-9]*\)\] *[0-9.]*: .*/\1/p' |
		sort -n | uniq -c | awk '{ print $2 + 0, $1 }'
}

# per_cpu_json FILE - "CPU EVENTS" lines of a --json summary.
per_cpu_json() {
	python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cpus"]:
    if c["events"]:
        print(c["cpu"], c["events"])' "$1"
}

# json_get FILE EXPR - a value of a --json summary, EXPR in Python.
json_get() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"
}

markers_in() {
	trace-cmd report "$1" 2> /dev/null | grep -c 'vtnet-marker-[0-9]'
}

wait_started() {
	vt_wait_recording "$idir"
}

# metadata_read DIR - wait until the listener has read the metadata: it
# writes it into its file as it reads (the data goes to files per CPU),
# so the file stops growing. Until then a signal (the SIGCHLD of its
# readers stopped or continued) ends its poll() for the next message with
# EINTR, which trace-cmd 3.1.6 takes for an error: it drops the session.
metadata_read() {
	prev=-1
	n=0
	while [ $n -lt 100 ]; do
		size=$(stat -c %s "$(received "$1")" 2> /dev/null || echo 0)
		[ "$size" -gt 0 ] && [ "$size" = "$prev" ] && return 0
		prev=$size
		sleep 0.3
		n=$((n + 1))
	done
	return 1
}

# markers N [PAUSE] - N markers into the instance, with a pause of PAUSE
# seconds after each 100.
markers() {
	i=0
	while [ $i -lt "$1" ]; do
		echo "vtnet-marker-$i" > "$idir/trace_marker"
		i=$((i + 1))
		[ -z "$2" ] || [ $((i % 100)) != 0 ] || sleep "$2"
	done
}

# record_bg ARGS - vtrace record of the instance in the background.
record_bg() {
	"$VTRACE" record --instance "$inst" "$@" > "$work/out" 2> "$work/err" &
	vpid=$!
}

mkdir "$idir"
before=$(settings_of "$idir")

# stream NAME TRANSPORT READER SPLICED EVENT MARKERS PAUSE - EVENT and
# markers to the listener with --reader READER; SPLICED: whether the data
# connections are to be fed by splice from the ring buffer (y) or written
# (n), as the summary, -v and --json tell. UDP at a pace its listener keeps
# up with: a datagram its socket has no room for is dropped there, unseen
# by the sender (see Documentation/vtrace-net.rst); the namespace's
# UdpRcvbufErrors tells.
stream() {
	d=$work/$1
	spliced=$4
	nm=$6
	expect start_listener "$d"
	record_bg -N "127.0.0.1:$port" "$2" --reader "$3" -e "$5" -t 3 --json -v
	expect wait_started
	markers "$nm" "$7"
	wait "$vpid"
	rc=$?
	cp "$work/out" "$d.json"
	expect [ "$rc" = 0 ]
	f=$(received "$d")
	expect [ -n "$f" ]
	expect [ "$(markers_in "$f")" = "$nm" ]
	per_cpu_report "$f" > "$d.got"
	per_cpu_json "$d.json" > "$d.sent"
	expect [ -s "$d.sent" ]
	expect cmp -s "$d.got" "$d.sent"
	cmp -s "$d.got" "$d.sent" ||
		ktap_print_msg "received: $(cat "$d.got" | tr '\n' ' '); sent: $(cat "$d.sent" | tr '\n' ' '); $(nstat -az UdpRcvbufErrors 2> /dev/null | grep Udp)"
	expect [ "$(json_get "$d.json" 'j["output"]')" = "127.0.0.1:$port" ]
	expect [ "$(json_get "$d.json" 'j["lost"]')" = 0 ]
	# Splice moves complete sub-buffers; the drain's last ones are written.
	c='j["collector"]'
	n_sent=$(json_get "$d.json" "${c}[\"sent_subbufs\"]")
	n_spliced=$(json_get "$d.json" "${c}[\"spliced_subbufs\"]")
	n_written=$((n_sent - n_spliced))
	if [ "$spliced" = y ]; then
		expect [ "$n_spliced" -gt 0 ]
		expect [ "$n_written" -le "$(nproc)" ]
	else
		expect [ "$n_spliced" = 0 ]
	fi
	expect [ "$(json_get "$d.json" "'splice_error' in ${c}")" = False ]
	expect contains "$(cat "$work/err")" "vtrace: data connections: $n_spliced of $n_sent sub-buffers spliced from the ring buffer, $n_written written"
	expect [ "$(settings_of "$idir")" = "$before" ]
	stop_listener
	result "$1"
}

stream net_tcp_listener_gets_exactly_what_was_sent --tcp auto y \
	sched/sched_switch 3000
stream net_tcp_read_path_writes_exactly_what_was_sent --tcp read n \
	sched/sched_switch 3000
stream net_udp_listener_gets_exactly_what_was_sent --udp auto n \
	sched/sched_process_exec 300 0.2
if bash -c ". '$here/kshark_check.sh' && kshark_same_events '$f'"; then
	ktap_test_pass net_received_file_reads_in_kernelshark
else
	ktap_test_fail net_received_file_reads_in_kernelshark
fi

# refused NAME STATUS MESSAGE ARGS... - vtrace record exits STATUS with
# MESSAGE in stderr, and tracefs is as it was.
refused() {
	name=$1 want_rc=$2 msg=$3
	shift 3
	vt_run record --instance "$inst" -e sched/sched_switch -t 1 "$@"
	expect [ "$rc" = "$want_rc" ]
	expect contains "$err" "$msg"
	expect [ "$(settings_of "$idir")" = "$before" ]
	result "$name"
}

port=$((port + 1))
refused net_unreachable_collector_changes_nothing 1 \
	"vtrace: error: -N 127.0.0.1:$port: cannot connect to the collector: Connection refused" \
	-N "127.0.0.1:$port"

# Something else on the port: it answers an HTTP error to anything.
port=$((port + 1))
python3 -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(1)
print("up", flush=True)
c, _ = s.accept()
c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
c.recv(100)
c.close()' "$port" > "$work/fake.out" 2>&1 &
fake=$!
n=0
until grep -qs up "$work/fake.out" || [ $n -ge 50 ]; do
	sleep 0.1
	n=$((n + 1))
done
refused net_listener_not_trace_cmd_is_refused 1 \
	"vtrace: error: -N 127.0.0.1:$port: not a trace-cmd listener: it sent 'HTTP/1.1' for its greeting" \
	-N "127.0.0.1:$port"
wait "$fake"

ok_bad=1
for spec in nohost 127.0.0.1 127.0.0.1: :123 127.0.0.1:0 127.0.0.1:65536 \
	127.0.0.1:12a ::1:123 "[::1]123"; do
	vt_run record -e sched/sched_switch -t 1 -N "$spec"
	[ "$rc" = 2 ] && contains "$err" "-N: bad collector address '$spec'" &&
		continue
	ok_bad=0
	ktap_print_msg "-N $spec: status $rc: $err"
done
vt_run record -e sched/sched_switch -t 1 --udp
[ "$rc" = 2 ] && contains "$err" "need -N HOST:PORT" || ok_bad=0
vt_run record -e sched/sched_switch -N 127.0.0.1:1 -o x.dat
[ "$rc" = 2 ] && contains "$err" "-o and -N" || ok_bad=0
[ $ok_bad = 1 ]
vt_result net_bad_address_names_the_option $?

# kill_collector NAME ROUNDS ARGS... - record ARGS into a listener, kill
# it once it has data, then write markers for at most ROUNDS tenths of a
# second while the recording runs.
kill_collector() {
	expect start_listener "$work/$1"
	rounds=$2
	shift 2
	record_bg -N "127.0.0.1:$port" -e sched/sched_switch --json "$@"
	expect wait_started
	markers 2000
	sleep 1.5
	kill -KILL "-$lpid"
	wait "$lpid" 2> /dev/null
	lpid=
	n=0
	while [ $n -lt "$rounds" ] && kill -0 "$vpid" 2> /dev/null; do
		markers 100
		sleep 0.1
		n=$((n + 1))
	done
}

# The collector killed mid-recording: vtrace stops by itself, restores
# tracefs, and tells how much the collector had taken.
kill_collector gone 100
if kill -0 "$vpid" 2> /dev/null; then
	kill -INT "$vpid"
	ktap_print_msg "vtrace did not stop when the collector went away"
	ok=0
fi
wait "$vpid"
rc=$?
err=$(cat "$work/err")
expect [ "$rc" = 1 ]
expect contains "$err" "went away during the recording"
expect contains "$err" "it had taken"
expect [ "$(json_get "$work/out" 'j["collector"]["gone"]')" = True ]
expect [ "$(settings_of "$idir")" = "$before" ]
result net_collector_gone_stops_cleanly

# The same with --fallback-output: the rest goes into the file.
# It runs until told to stop. The switch comes when a CPU's send fails,
# which can take a sub-buffer or two after the kill; the 1000 markers
# are written once the fallback file (its temporary name) exists.
kill_collector fallback 0 --fallback-output "$work/rest.dat"
n=0
until ls "$work"/.rest.dat.* > /dev/null 2>&1 || [ $n -gt 100 ]; do
	markers 100
	sleep 0.1
	n=$((n + 1))
done
expect ls "$work"/.rest.dat.* > /dev/null
markers 1000
kill -INT "$vpid"
wait "$vpid"
rc=$?
err=$(cat "$work/err")
expect [ "$rc" = 1 ]
expect contains "$err" "was recorded into $work/rest.dat"
expect trace-cmd report "$work/rest.dat" > /dev/null 2>&1
# The markers written after the switch are all in the file.
expect [ "$(markers_in "$work/rest.dat")" -ge 1000 ]
expect [ "$(json_get "$work/out" 'j["collector"]["fallback_bytes"] > 0')" = True ]
expect [ "$(settings_of "$idir")" = "$before" ]
result net_collector_gone_falls_back_to_a_file

# A collector that takes nothing for a while (stopped; small socket
# buffers): vtrace drops what the connections cannot take, counts it as
# back-pressure, never waits, and what was sent arrives whole.  The
# recording is ended a while after the listener runs again: trace-cmd
# listen gives its per-CPU readers one second after CLOSE, so a listener
# still catching up when the session closes (a loaded host) would lose
# what vtrace did send.
sysctl -qw net.ipv4.tcp_rmem="4096 16384 32768" net.ipv4.tcp_wmem="4096 16384 32768"
d=$work/slow
expect start_listener "$d"
record_bg -N "127.0.0.1:$port" -e sched/sched_switch -t 60 --json
expect wait_started
expect metadata_read "$d"
kill -STOP "-$lpid"
start=$(date +%s)
markers 20000
sleep 1
kill -CONT "-$lpid"
sleep 3
kill -TERM "$vpid"
wait "$vpid"
rc=$?
end=$(date +%s)
cp "$work/out" "$d.json"
expect [ "$rc" = 0 ]
# Never waited for the stopped listener: only the markers and the sleeps.
expect [ $((end - start)) -le 20 ]
bp=$(json_get "$d.json" 'j["backpressure"]')
expect [ "$bp" -gt 0 ]
expect [ "$(json_get "$d.json" 'j["lost"] >= j["backpressure"]')" = True ]
expect contains "$(cat "$work/err")" "to back-pressure"
f=$(received "$d")
per_cpu_report "$f" > "$d.got"
per_cpu_json "$d.json" > "$d.sent"
expect cmp -s "$d.got" "$d.sent"
if ! cmp -s "$d.got" "$d.sent"; then
	ktap_print_msg "received: $(cat "$d.got" | tr '\n' ' '); sent: $(cat "$d.sent" | tr '\n' ' '); $(tr -d '\n' < "$d.json")"
	# The listener's side of a mismatch.
	ktap_print_msg "listener's files: $(ls -l "$d" | tr '\n' ' ')"
	ktap_print_msg "listener's log: $(tail -n 20 "$d.log" | tr '\n' ' ')"
	ktap_print_msg "report: $(trace-cmd report "$f" 2>&1 | tail -n 5 | tr '\n' ' ')"
fi
expect [ "$(settings_of "$idir")" = "$before" ]
stop_listener
result net_slow_collector_is_back_pressure_loss

# start_fake MODE - fake_collector.py MODE on a new port.
start_fake() {
	port=$((port + 1))
	python3 "$here/fake_collector.py" "$1" "$port" > "$work/fake.out" 2>&1 &
	fake=$!
	n=0
	until grep -qs up "$work/fake.out" || [ $n -ge 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

stop_fake() {
	kill "$fake" 2> /dev/null
	wait "$fake" 2> /dev/null
}

# A collector that takes the set-up, then nothing (small socket buffers,
# as above: the metadata does not fit in them): the metadata's send has
# a deadline, and the recording ends with tracefs as it was.
sysctl -qw net.ipv4.tcp_rmem="4096 16384 32768" net.ipv4.tcp_wmem="4096 16384 32768"
start_fake mute
vt_run record --instance "$inst" -e sched/sched_switch -t 2 \
	-N "127.0.0.1:$port"
expect [ "$rc" = 1 ]
expect contains "$err" "the listener took nothing while sending the metadata for 5 s"
expect [ "$(settings_of "$idir")" = "$before" ]
stop_fake
result net_mute_collector_meets_a_deadline

# The same collector, and SIGINT while the metadata waits: the stop is
# honoured at once, not after the deadline.
start_fake mute
"$VTRACE" record --instance "$inst" -e sched/sched_switch -t 2 \
	-N "127.0.0.1:$port" > "$work/out" 2> "$work/err" &
vpid=$!
sleep 1
kill -INT "$vpid"
wait "$vpid"
rc=$?
expect [ "$rc" = 1 ]
expect grep -q "stopped while sending the metadata" "$work/err"
expect [ "$(settings_of "$idir")" = "$before" ]
stop_fake
result net_stop_ends_a_blocked_metadata_send

# A collector that keeps talking after CLOSE and never closes: the close
# has one deadline (30 s), which its chatter does not extend.
start_fake chatty
vt_run record --instance "$inst" -e sched/sched_switch -t 1 \
	-N "127.0.0.1:$port"
expect [ "$rc" = 1 ]
expect contains "$err" "the listener did not finish the file within 30 s"
expect [ "$(settings_of "$idir")" = "$before" ]
stop_fake
result net_chatty_collector_close_has_one_deadline

ktap_finished
