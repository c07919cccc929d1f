#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Shared by the vtrace helper's shell tests (POSIX sh: the guests run busybox).
# Source it from the test's directory; it sources kselftest's ktap_helpers.sh.
#
# Provides: $VTRACE (the helper), $TRACEFS, $DATA, vt_run (run the helper,
# keeping stdout, stderr and the exit status), vt_result (one KTAP result from
# a condition's status, logging what was seen on failure), expect/result
# (one result from several checks), vt_require_root and tracefs helpers.

# A test that sets vt_hide_kallsyms=1 before sourcing this file runs, in
# the guests (where $VTRACE_OUT is set), again in a mount namespace of its
# own with /proc/kallsyms hidden: each recording then has an empty
# kallsyms section (the writer's fallback; the host's runs cover
# kallsyms). Under TCG a guest kernel's 5 MB of symbols, written into
# every file and read back, would be most of such a test's time, and
# files sent back on the serial console go at tens of KB/s.
if [ "${vt_hide_kallsyms:-0}" = 1 ] && [ -n "$VTRACE_OUT" ] &&
   [ -z "$VTRACE_KALLSYMS_HIDDEN" ]; then
	: > "$VTRACE_OUT/.no-kallsyms"
	VTRACE_KALLSYMS_HIDDEN=1 exec unshare -m sh -c \
		'mount --bind "$VTRACE_OUT/.no-kallsyms" /proc/kallsyms &&
		 exec sh "$0"' "$0"
fi

here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$here/ktap_helpers.sh" ]; then
	. "$here/ktap_helpers.sh"
else
	. "$here/../kselftest/ktap_helpers.sh"
fi

DATA="$here/data"
TRACEFS=/sys/kernel/tracing
# In the guests the rig sets VTRACE_BIN; on the host the tests use the
# helper built in the source tree.
VTRACE=${VTRACE_BIN:-$here/../../tools/vtrace/vtrace}
VT_TMP=$(mktemp -d /tmp/vtrace-test.XXXXXX)
# Keep instance ownership markers of the tests out of /run/vtrace.
export VTRACE_STATE_DIR="$VT_TMP/state"
unset VTRACE_CATEGORIES

# vt_run ARGS... - run the helper; sets $rc, $out (stdout), $err (stderr).
vt_run()
{
	"$VTRACE" "$@" >"$VT_TMP/out" 2>"$VT_TMP/err"
	rc=$?
	out=$(cat "$VT_TMP/out")
	err=$(cat "$VT_TMP/err")
}

# vt_result NAME STATUS - one KTAP result: pass when STATUS is 0 (use $? of
# the test's condition); on failure log the last helper run.
vt_result()
{
	if [ "$2" = 0 ]; then
		ktap_test_pass "$1"
		return
	fi
	ktap_print_msg "$1: exit status of the helper: $rc"
	sed 's/^/# stdout: /' "$VT_TMP/out"
	sed 's/^/# stderr: /' "$VT_TMP/err"
	ktap_test_fail "$1"
}

# contains HAYSTACK NEEDLE - fixed-string match.
contains()
{
	case "$1" in
	*"$2"*) return 0 ;;
	*) return 1 ;;
	esac
}

# event_state DIR GROUP/EVENT - first character of the enable file (0/1).
event_state()
{
	cut -c1 "$1/events/$2/enable"
}

# enabled_events DIR - the enabled events of a tracefs dir, sorted, one
# group/event per line.
enabled_events()
{
	tr ':' '/' <"$1/set_event" | sort
}

# One KTAP result from the checks made since the last one: expect CMD...
# runs a check and remembers a failure together with the command; result
# NAME reports them (with the stderr kept in $VT_TMP/err).
ok=1
expect()
{
	"$@" && return
	ok=0
	ktap_print_msg "failed: $*"
}

result()
{
	if [ $ok != 1 ]; then
		ktap_print_msg "status $rc; stderr: $(head -c 600 "$VT_TMP/err" 2> /dev/null)"
		ktap_test_fail "$1"
	else
		ktap_test_pass "$1"
	fi
	ok=1
}

# json_num KEY FILE - the top-level number KEY of a --json summary.
json_num()
{
	sed 's/"cpus".*//; s/.*"'"$1"'":\([0-9]*\).*/\1/' "$2"
}

# settings_of DIR - what vtrace record changes and restores in a tracefs
# dir (buffer_subbuf_size_kb: 6.8 and later).
settings_of()
{
	cat "$1/buffer_size_kb" "$1/trace_clock" "$1/tracing_on" \
		"$1/buffer_percent" "$1/set_event"
	[ ! -e "$1/buffer_subbuf_size_kb" ] || cat "$1/buffer_subbuf_size_kb"
}

# vt_wait_recording DIR - until a recording of tracefs dir DIR has begun
# (30 s at most): the recorder turns tracing off, enables its events and only
# then turns it on, so both together mean it has begun.
vt_wait_recording()
{
	n=0
	until [ -n "$(cat "$1/set_event" 2> /dev/null)" ] &&
		[ "$(cat "$1/tracing_on" 2> /dev/null)" = 1 ]; do
		[ $n -ge 300 ] && return 1
		sleep 0.1
		n=$((n + 1))
	done
}

# vt_remove_instance DIR - switch off and remove a test's own instance,
# where it exists.
vt_remove_instance()
{
	[ -d "$1" ] || return 0
	echo 0 > "$1/events/enable"
	rmdir "$1"
}

vt_cleanup_tmp()
{
	rm -rf "$VT_TMP"
}

# vt_require_root - skip the whole test unless run as root (tracefs writes).
vt_require_root()
{
	[ "$(id -u)" = 0 ] && return
	ktap_skip_all "needs root"
	exit "$KSFT_SKIP"
}

# vt_require_tracefs - mount tracefs if it is not, skip the whole test
# when there is none.  A top-level buffer still at its boot-time minimum
# ("7 (expanded: 1408)") is expanded first, as the first event enabled
# would: nothing can make it unexpanded again, so the before-and-after
# comparisons start from the expanded size.
vt_require_tracefs()
{
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2> /dev/null
	if [ -d $TRACEFS/instances ]; then
		vt_kb=$(sed -n 's/.*(expanded: \([0-9]*\))/\1/p' \
			$TRACEFS/buffer_size_kb)
		[ -z "$vt_kb" ] || echo "$vt_kb" > $TRACEFS/buffer_size_kb
		return
	fi
	ktap_skip_all "no tracefs"
	exit "$KSFT_SKIP"
}

# vt_stopped PID - the process is stopped (SIGSTOP: a stopping point of
# the vtrace_phases test build, see tools/lib/vtrace/base/test-phase.h) or gone.
vt_stopped()
{
	vt_state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2> /dev/null)
	[ -z "$vt_state" ] || [ "$vt_state" = T ]
}

# vt_wait_stopped PID - until vt_stopped; fails when the process is gone.
vt_wait_stopped()
{
	until vt_stopped "$1"; do
		sleep 0.02
	done
	[ -e "/proc/$1" ]
}
