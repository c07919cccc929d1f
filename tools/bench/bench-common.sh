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
