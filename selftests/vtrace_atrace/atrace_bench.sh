#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# atrace_bench.sh [ROUNDS] - run atrace_bench against a private instance
# with a private tag file, and print its table. Needs root and tracefs.

here=$(cd "$(dirname "$0")" && pwd)
tracefs=/sys/kernel/tracing
inst=vtrace_atrace_bench_$$
state=$(mktemp -d /tmp/vtrace-atrace-bench.XXXXXX) || exit 1
chmod 755 "$state"
cleanup() {
	[ -d "$tracefs/instances/$inst" ] && rmdir "$tracefs/instances/$inst"
	rm -rf "$state"
}
trap cleanup EXIT
mkdir "$tracefs/instances/$inst" || exit 1
VTRACE_STATE_DIR=$state "$here/atrace_bench" "$inst" "$@"
