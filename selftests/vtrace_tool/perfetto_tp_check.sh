# SPDX-License-Identifier: GPL-2.0
#
# Perfetto's own importer on a Perfetto file: trace_processor_shell, the
# trace processor behind ui.perfetto.dev, from ../shared/ref/perfetto/bin
# (reference tools outside the project, x86-64 only; see BUILD.md there).
# Sourced by the tests (POSIX sh), or run by hand:
#
#   sh perfetto_tp_check.sh stats|cpus FILE.pftrace
#   sh perfetto_tp_check.sh query FILE.pftrace 'select ...'
#
#   tp_find              0 when the shell can run: unpacks it once into
#                        $VT_TMP (a folder named by the .xz's sha256) and
#                        sets $TP; otherwise tp_why says why
#   tp_query FILE SQL    the query's rows, CSV without the header; fails
#                        (trace_processor's last message on stderr) when
#                        the file or the query cannot be read
#   tp_bad_stats FILE    "NAME IDX VALUE" per row of stats with severity
#                        error or data_loss and a value above 0, sorted
#   tp_cpu_events FILE   "CPU COUNT FIRST_TS LAST_TS" per CPU of the
#                        ftrace events imported (ftrace_event: every
#                        FtraceEvent, typed or generic, print events too)
#
# VTRACE_PERFETTO_BIN_DIR names another folder holding
# trace_processor_shell.xz.

tp_top=$(cd "$(dirname "${0}")/../.." && pwd)
TP_XZ=${VTRACE_PERFETTO_BIN_DIR:-$tp_top/../shared/ref/perfetto/bin}/trace_processor_shell.xz

tp_find()
{
	if [ -n "${TP:-}" ] && [ -x "$TP" ]; then
		return 0
	fi
	if [ ! -r "$TP_XZ" ]; then
		tp_why="no $TP_XZ (../shared is reference data, not part of the project)"
		return 1
	fi
	if [ "$(uname -m)" != x86_64 ]; then
		tp_why="trace_processor_shell is built for x86-64 only"
		return 1
	fi
	tp_dir=${VT_TMP:?}/tp-$(sha256sum < "$TP_XZ" | cut -c1-16)
	if [ ! -x "$tp_dir/trace_processor_shell" ]; then
		mkdir -p "$tp_dir" &&
		xz -dc "$TP_XZ" > "$tp_dir/tp.part" &&
		chmod +x "$tp_dir/tp.part" &&
		mv "$tp_dir/tp.part" "$tp_dir/trace_processor_shell" || {
			tp_why="cannot unpack $TP_XZ"
			return 1
		}
	fi
	TP=$tp_dir/trace_processor_shell
}

tp_query()
{
	printf '%s\n' "$2" > "$VT_TMP/tp.sql"
	if ! "$TP" -q "$VT_TMP/tp.sql" "$1" > "$VT_TMP/tp.csv" \
	     2> "$VT_TMP/tp.err"; then
		echo "trace_processor_shell $1: $(tr '\r' '\n' < "$VT_TMP/tp.err" | tail -1)" >&2
		return 1
	fi
	sed 1d "$VT_TMP/tp.csv"
}

tp_bad_stats()
{
	tp_query "$1" "select name, idx, value from stats
		where severity in ('error', 'data_loss') and value > 0;" \
		> "$VT_TMP/tp.rows" || return 1
	tr -d '"' < "$VT_TMP/tp.rows" | tr ',' ' ' | sort
}

tp_cpu_events()
{
	tp_query "$1" "select cpu, count(*), min(ts), max(ts) from ftrace_event
		group by cpu order by cpu;" > "$VT_TMP/tp.rows" || return 1
	tr ',' ' ' < "$VT_TMP/tp.rows"
}

case $0 in
*perfetto_tp_check.sh)
	VT_TMP=$(mktemp -d /tmp/vtrace-tp.XXXXXX)
	trap 'rm -rf "$VT_TMP"' EXIT
	if ! tp_find; then
		echo "perfetto_tp_check: $tp_why" >&2
		exit 4
	fi
	case ${1:-} in
	stats) tp_bad_stats "$2" ;;
	cpus) tp_cpu_events "$2" ;;
	query) tp_query "$2" "$3" ;;
	*) echo "usage: $0 stats|cpus FILE | query FILE SQL" >&2; exit 2 ;;
	esac
	;;
esac
