#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tracecmd-ns.sh WORK INSTANCE_DIR CMD [ARGS...] - run CMD (trace-cmd
# record) where this host lets it trace: in the private mount namespace it
# is started in (unshare -m), the function-tracer files the host refuses
# are masked, the top level's and INSTANCE_DIR's (which must exist), and
# ftrace_enabled reads 1 (shared NOTES.md). WORK holds the masks.
set -e
work=$1
idir=$2
shift 2
echo 1 > "$work/fe"
mount --bind "$work/fe" /proc/sys/kernel/ftrace_enabled
: > "$work/empty"
for d in /sys/kernel/tracing "$idir"; do
	for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid; do
		[ ! -e "$d/$f" ] || mount --bind "$work/empty" "$d/$f"
	done
done
exec "$@"
