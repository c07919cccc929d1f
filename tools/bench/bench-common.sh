# SPDX-License-Identifier: GPL-2.0
#
# bench-common.sh - the set-up the tracefs benchmarks share (record-bench.sh,
# lossless-sweep.sh, net-bench.sh); sourced after their options are read.
#
#   bench_setup NAME
#	mounts tracefs where it is not, makes the work folder $work
#	(/tmp/vtrace-NAME.XXXXXX), names the instance $inst (vtrace_NAME_PID,
#	'-' as '_') at $idir, sets the caller's cleanup() as the EXIT trap,
#	builds $work/storm from syscall-storm.c and sets $filter (both
#	raw_syscalls events on the getppid syscall number) and $ncpus.
#   bench_instance DIR
#	makes the instance DIR with $filter on both events.
#   bench_drop_instance DIR
#	switches DIR's events and tracing off and removes it, if it exists.
#   bench_tracebox_config FILE BUFFER_KB DURATION_MS [DRAIN_PERCENT]
#	writes to FILE the TraceConfig tracebox records the load with: both
#	raw_syscalls events of getppid in $inst, BUFFER_KB per CPU, into its
#	file every second for DURATION_MS; with DRAIN_PERCENT, its
#	drain_buffer_percent (Perfetto v48 on, kernels 6.9 on): it reads a
#	CPU's buffer once that full, as well as every drain period (100
#	ms). Its buffer is a ring: with
#	write_into_file, DISCARD stops taking data once the buffer's size
#	has been written in all (the config_write_into_file_discard stat).
#   kernel_lost
#	the loss so far in $idir: overrun + commit overrun + dropped events,
#	all CPUs.

tracefs=/sys/kernel/tracing

bench_setup() {
	[ -d $tracefs/events ] || mount -t tracefs nodev $tracefs
	work=$(mktemp -d "/tmp/vtrace-$1.XXXXXX")
	inst=vtrace_${1//-/_}_$$
	idir=$tracefs/instances/$inst
	trap cleanup EXIT
	gcc -O2 -o "$work/storm" "$top/tools/bench/syscall-storm.c"
	getppid_nr=$(printf '#include <sys/syscall.h>\nSYS_getppid\n' | cpp -P - | tail -1)
	filter="id == $getppid_nr"
	ncpus=$(nproc)
}

bench_instance() {
	mkdir "$1"
	for e in sys_enter sys_exit; do
		echo "$filter" > "$1/events/raw_syscalls/$e/filter"
	done
}

bench_drop_instance() {
	[ -d "$1" ] || return 0
	echo 0 > "$1/tracing_on"
	echo 0 > "$1/events/enable"
	for e in sys_enter sys_exit; do
		echo 0 > "$1/events/raw_syscalls/$e/filter"
	done
	rmdir "$1"
}

kernel_lost() {
	cat "$idir"/per_cpu/cpu*/stats | awk '
		/^(overrun|commit overrun|dropped events):/ { s += $NF }
		END { print s + 0 }'
}

bench_tracebox_config() {
	cat > "$1" << EOF
buffers { size_kb: 65536 fill_policy: RING_BUFFER }
data_sources {
  config {
    name: "linux.ftrace"
    ftrace_config {
      ftrace_events: "raw_syscalls/sys_enter"
      ftrace_events: "raw_syscalls/sys_exit"
      syscall_events: "sys_getppid"
      buffer_size_kb: $2${4:+
      drain_buffer_percent: $4}
      instance_name: "$inst"
    }
  }
}
write_into_file: true
file_write_period_ms: 1000
duration_ms: $3
EOF
}
