# SPDX-License-Identifier: GPL-2.0
#
# Perfetto's own importer on a Perfetto file: trace_processor_shell, the
# trace processor behind ui.perfetto.dev, from ../shared/ref/perfetto/bin
# (reference tools outside the project, x86-64 only; see BUILD.md there).
# Sourced by the tests (POSIX sh), or run by hand:
#
#   sh perfetto_tp_check.sh stats|cpus FILE.pftrace
#   sh perfetto_tp_check.sh query FILE.pftrace 'select ...'
#   sh perfetto_tp_check.sh import FILE.dat FILE.pftrace
#   sh perfetto_tp_check.sh recorded SUMMARY FILE.pftrace [MARKERS [SWITCHES]]
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
#   tc_cpu_events DAT    the same of a trace.dat, as trace-cmd reports it
#   tc_expected_stats DAT
#                        the tp_bad_stats rows the trace.dat's Perfetto
#                        file is to give, from trace-cmd's reading
#   tp_check_import DAT PFTRACE
#                        0 when PFTRACE (DAT converted or recorded beside
#                        it) imports with exactly those stats and per CPU
#                        the events of DAT; otherwise says how on stderr
#   tp_check_recorded SUMMARY PFTRACE MARKERS [SWITCHES]
#                        the same for a file vtrace record wrote: per CPU
#                        the events of its summary ("  cpuN: X events, L
#                        lost, ..."), data loss stats on exactly the CPUs
#                        that lost events, their overrun the loss, MARKERS
#                        plain-text markers' parse failures and SWITCHES
#                        mismatched sched_switch tids (pf_switch_mismatches)
#   tb_find              tp_find for tracebox, Perfetto's recorder: sets $TB
#   tb_top_save FILE     the tracefs top level's knobs that tracebox
#                        changes even when told to use an instance, into
#                        FILE ($tracefs is the tracefs mount)
#   tb_top_restore FILE  puts back what changed since tb_top_save; sets
#                        tb_changed to what it found changed
#
# VTRACE_PERFETTO_BIN_DIR names another folder holding
# trace_processor_shell.xz and tracebox.xz.

tp_top=$(cd "$(dirname "${0}")/../.." && pwd)
TP_XZ=${VTRACE_PERFETTO_BIN_DIR:-$tp_top/../shared/ref/perfetto/bin}/trace_processor_shell.xz

# tp_unpack XZ NAME: $tp_bin set to NAME unpacked from XZ into $VT_TMP,
# or tp_why says why not.
tp_unpack()
{
	if [ ! -r "$1" ]; then
		tp_why="no $1 (../shared is reference data, not part of the project)"
		return 1
	fi
	if [ "$(uname -m)" != x86_64 ]; then
		tp_why="$2 is built for x86-64 only"
		return 1
	fi
	tp_dir=${VT_TMP:?}/tp-$(sha256sum < "$1" | cut -c1-16)
	if [ ! -x "$tp_dir/$2" ]; then
		mkdir -p "$tp_dir" &&
		xz -dc "$1" > "$tp_dir/$2.part" &&
		chmod +x "$tp_dir/$2.part" &&
		mv "$tp_dir/$2.part" "$tp_dir/$2" || {
			tp_why="cannot unpack $1"
			return 1
		}
	fi
	tp_bin=$tp_dir/$2
}

tp_find()
{
	if [ -n "${TP:-}" ] && [ -x "$TP" ]; then
		return 0
	fi
	tp_unpack "$TP_XZ" trace_processor_shell && TP=$tp_bin
}

tb_find()
{
	if [ -n "${TB:-}" ] && [ -x "$TB" ]; then
		return 0
	fi
	tp_unpack "${TP_XZ%/*}/tracebox.xz" tracebox && TB=$tp_bin
}

# tb_knob KNOB: its value as written (trace_clock's [chosen] one, the
# buffer size without "(expanded: ...)").
tb_knob()
{
	case $1 in
	trace_clock) sed 's/.*\[\(.*\)\].*/\1/' "$tracefs/trace_clock" ;;
	*) sed 's/ .*//' "$tracefs/$1" ;;
	esac
}

tb_top_save()
{
	for k in tracing_on buffer_size_kb trace_clock buffer_percent \
		 current_tracer $(cd "$tracefs" && echo options/*); do
		echo "$k $(tb_knob "$k")"
	done > "$1"
}

tb_top_restore()
{
	tb_changed=
	while read -r k v; do
		[ "$(tb_knob "$k")" = "$v" ] && continue
		tb_changed="$tb_changed $k=$(tb_knob "$k")"
		echo "$v" > "$tracefs/$k"
	done < "$1"
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

# trace-cmd report without plugins: the function graph plugin folds a
# leaf's return into its entry line.
tc_cpu_events()
{
	trace-cmd report -N -t -i "$1" 2> /dev/null | awk '
	match($0, /\[[0-9]+\] *[0-9.]+: /) {
		split(substr($0, RSTART + 1, RLENGTH - 3), f, /\] */)
		c = f[1] + 0
		ts = f[2]
		if (ts ~ /\./)
			ts = substr(ts, 1, index(ts, ".") - 1) substr(ts, index(ts, ".") + 1)
		sub(/^0+/, "", ts)
		n[c]++
		if (!(c in lo) || ts + 0 < lo[c] + 0) lo[c] = ts
		if (!(c in hi) || ts + 0 > hi[c] + 0) hi[c] = ts
	}
	END { for (c in n) print c, n[c], lo[c], hi[c] }' | sort -n
}

# What the importer counts as errors in a recording that is whole: one
# systrace_parse_failure per print whose text is not an atrace marker (as
# on a phone), one mismatched_sched_switch_tids per sched_switch whose
# prev_pid is not its CPU's last next_pid (events the kernel dropped,
# e.g. when unloading a module reset the buffers). With raw_syscalls
# recorded, an atrace B| (written by write(2)) nests in the write's
# slice, which its sys_exit ends first: Perfetto then counts a
# misplaced_end_event for up to each E|, as for a phone's trace; the want
# line says "<=E". A CPU whose recording lost events (trace-cmd
# report's "CPU:N [... EVENTS DROPPED]", as trace-cmd record may on a
# loaded machine) has its ftrace_cpu_has_data_loss.
tc_expected_stats()
{
	trace-cmd report -N -t -i "$1" 2> /dev/null | awk '
	/CPU:[0-9]+ \[([0-9]+ )?EVENTS DROPPED\]/ {
		match($0, /CPU:[0-9]+/)
		lost_cpu[substr($0, RSTART + 4, RLENGTH - 4) + 0] = 1
	}
	match($0, /\[[0-9]+\] *[0-9.]+: print: +[^ ]+: /) {
		text = substr($0, RSTART + RLENGTH)
		if (text !~ /^[BCEFGHINSTU]\|/)
			failures++
		if (text ~ /^E\|/)
			ends++
	}
	/\[[0-9]+\] *[0-9.]+: sys_exit: / { sys_exits++ }
	match($0, /\[[0-9]+\] *[0-9.]+: sched_switch: /) {
		match($0, /\[[0-9]+\]/)
		cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
		match($0, / prev_pid=-?[0-9]+ /)
		prev = substr($0, RSTART + 10, RLENGTH - 11)
		match($0, / next_pid=-?[0-9]+ /)
		if ((cpu in last) && last[cpu] != prev)
			mismatched++
		last[cpu] = substr($0, RSTART + 10, RLENGTH - 11)
	}
	END {
		if (mismatched)
			print "mismatched_sched_switch_tids [NULL]", mismatched
		if (failures)
			print "systrace_parse_failure [NULL]", failures
		if (ends && sys_exits)
			print "misplaced_end_event [NULL] <=" ends
		for (c in lost_cpu)
			print "ftrace_cpu_has_data_loss", c, 1
	}' | sort
}

tp_check_import()
{
	tc_expected_stats "$1" > "$VT_TMP/tp.want_stats"
	tp_bad_stats "$2" > "$VT_TMP/tp.got" || return 1
	awk 'NR == FNR { if ($3 ~ /^<=/) most[$1] = substr($3, 3); next }
	     ($1 in most) && $3 <= most[$1] { $3 = "<=" most[$1] } 1' \
		"$VT_TMP/tp.want_stats" "$VT_TMP/tp.got" > "$VT_TMP/tp.stats"
	if ! cmp -s "$VT_TMP/tp.want_stats" "$VT_TMP/tp.stats"; then
		echo "$2: stats $(tr '\n' ';' < "$VT_TMP/tp.stats"), want $(tr '\n' ';' < "$VT_TMP/tp.want_stats")" >&2
		return 1
	fi
	tc_cpu_events "$1" > "$VT_TMP/tp.want_cpus"
	tp_cpu_events "$2" > "$VT_TMP/tp.cpus" || return 1
	if ! cmp -s "$VT_TMP/tp.want_cpus" "$VT_TMP/tp.cpus"; then
		echo "$2: cpu count first last $(tr '\n' ';' < "$VT_TMP/tp.cpus"), trace-cmd $(tr '\n' ';' < "$VT_TMP/tp.want_cpus")" >&2
		return 1
	fi
}

tp_check_recorded()
{
	awk -v m="$3" -v s="${4:-0}" '
	/^  cpu[0-9]+: [0-9]+ events, [0-9]+ lost/ {
		cpu = substr($1, 4) + 0
		if ($4 > 0)
			print "ftrace_cpu_has_data_loss", cpu, 1
	}
	END {
		if (m > 0)
			print "systrace_parse_failure [NULL]", m
		if (s > 0)
			print "mismatched_sched_switch_tids [NULL]", s
	}' "$1" |
		sort > "$VT_TMP/tp.want_stats"
	tp_bad_stats "$2" > "$VT_TMP/tp.stats" || return 1
	if ! cmp -s "$VT_TMP/tp.want_stats" "$VT_TMP/tp.stats"; then
		echo "$2: stats $(tr '\n' ';' < "$VT_TMP/tp.stats"), want $(tr '\n' ';' < "$VT_TMP/tp.want_stats")" >&2
		return 1
	fi
	awk '/^  cpu[0-9]+: [0-9]+ events, [0-9]+ lost/ && $2 > 0 {
		print substr($1, 4) + 0, $2, $4 }' "$1" > "$VT_TMP/tp.want_cpus"
	tp_query "$2" "select e.cpu, e.n, coalesce(s.value, 0) from
		(select cpu, count(*) as n from ftrace_event group by cpu) e
		left join stats s on s.name = 'ftrace_cpu_overrun_end' and
		s.idx = e.cpu order by e.cpu;" | tr ',' ' ' > "$VT_TMP/tp.cpus"
	if ! cmp -s "$VT_TMP/tp.want_cpus" "$VT_TMP/tp.cpus"; then
		echo "$2: cpu events overrun $(tr '\n' ';' < "$VT_TMP/tp.cpus"), recorded $(tr '\n' ';' < "$VT_TMP/tp.want_cpus")" >&2
		return 1
	fi
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
	import) tp_check_import "$2" "$3" ;;
	recorded) tp_check_recorded "$2" "$3" "${4:-0}" "${5:-0}" ;;
	query) tp_query "$2" "$3" ;;
	*) echo "usage: $0 stats|cpus FILE | query FILE SQL | import DAT PFTRACE | recorded SUMMARY PFTRACE [MARKERS [SWITCHES]]" >&2; exit 2 ;;
	esac
	;;
esac
