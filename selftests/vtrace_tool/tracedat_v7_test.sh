#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# trace.dat version 7, what trace-cmd 3.x writes by default, read by
# vtrace report, slices, profile and convert:
#  - the committed version 6 recording (data/fgraph-6.12-amd64.dat.gz)
#    converted by trace-cmd to version 7, uncompressed and compressed,
#    gives exactly what the version 6 file gives (the same report, slices,
#    profile, and converted Perfetto and dmtrace files);
#  - version 7 files made unsound are refused, by each of the four, with
#    exit status 1 and the fault named, as version 6 files are: a format
#    whose print fmt names a field it no longer has (one changed byte),
#    a kallsyms size of 0xffffffff, truncations, a section's offset past
#    the file or at another section, an options chain that loops, CPU
#    data past the file, a compressed section that claims 4 GiB; and the
#    committed compressed ones of fuzz-report-corpus/ (a changed format,
#    a huge kallsyms size: made by tracedat_v7_mutate.py).
# Needs no tracefs: only trace-cmd (for its convert) and a vtrace with
# report (not the guests' static build). The uncompressed files are
# changed in place with od and dd, little endian as trace-cmd writes them
# on this host.

. "$(cd "$(dirname "$0")" && pwd)/vtrace_test_lib.sh"

work=$VT_TMP
corpus=$here/fuzz-report-corpus
trap vt_cleanup_tmp EXIT

ktap_print_header
if ! command -v trace-cmd > /dev/null; then
	ktap_skip_all "needs trace-cmd (its convert makes the version 7 files)"
	exit "$KSFT_SKIP"
fi
gunzip -c "$DATA/fgraph-6.12-amd64.dat.gz" > "$work/v6.dat"
vt_run report "$work/v6.dat"
if [ $rc != 0 ]; then
	ktap_skip_all "vtrace has no report here: $(head -c 200 "$VT_TMP/err")"
	exit "$KSFT_SKIP"
fi
if ! trace-cmd convert -i "$work/v6.dat" -o "$work/v7.dat" \
	--file-version 7 --compression none > /dev/null 2>&1 ||
	! trace-cmd convert -i "$work/v6.dat" -o "$work/v7z.dat" \
	--file-version 7 --compression any > /dev/null 2>&1; then
	ktap_skip_all "trace-cmd convert cannot write version 7 files"
	exit "$KSFT_SKIP"
fi

# u16/u32/u64 FILE OFFSET - a little-endian number in FILE.
u16() { od -An -tu2 -j "$2" -N2 "$1" | tr -d ' '; }
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
u64() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }

# put FILE OFFSET BYTES VALUE - write VALUE there, little endian.
put()
{
	put_v=$4
	put_s=
	put_i=0
	while [ $put_i -lt "$3" ]; do
		put_s="$put_s$(printf '\\%03o' $((put_v & 255)))"
		put_v=$((put_v >> 8))
		put_i=$((put_i + 1))
	done
	# shellcheck disable=SC2059
	printf "$put_s" | dd of="$1" bs=1 seek="$2" conv=notrunc 2> /dev/null
}

# offset_of FILE TEXT - where TEXT (printable, no newline) first is in
# FILE (busybox's grep has no -b; strings -t d gives each run's offset).
offset_of()
{
	of_line=$(LC_ALL=C strings -t d "$1" | grep -F -m1 -- "$2")
	of_run=${of_line#*[0-9] }
	of_pre=${of_run%%"$2"*}
	of_num=${of_line%"$of_run"}
	echo $((${of_num% } + ${#of_pre}))
}

# after_nul FILE OFFSET - the offset after the first NUL from OFFSET.
after_nul()
{
	an_p=$2
	while [ "$(od -An -tu1 -j "$an_p" -N1 "$1" | tr -d ' ')" != 0 ]; do
		an_p=$((an_p + 1))
	done
	echo $((an_p + 1))
}

# options_at FILE - where the file header gives the first options
# section's offset: after magic, "7", endianness, long size, page size
# and the compression's name and version.
options_at()
{
	after_nul "$1" "$(after_nul "$1" 18)"
}

# options FILE - "ID OFFSET SIZE" for each option of an uncompressed
# file's options sections, OFFSET being that of its data; the sections
# after their 16-byte headers, following each DONE's next offset.
options()
{
	opt_sec=$(u64 "$1" "$(options_at "$1")")
	opt_n=0
	while [ "$opt_sec" != 0 ] && [ $opt_n -lt 8 ]; do
		opt_p=$((opt_sec + 16))
		opt_id=
		while [ "$opt_id" != 0 ]; do
			opt_id=$(u16 "$1" $opt_p)
			opt_size=$(u32 "$1" $((opt_p + 2)))
			echo "$opt_id $((opt_p + 6)) $opt_size $opt_sec"
			opt_p=$((opt_p + 6 + opt_size))
		done
		opt_sec=$(u64 "$1" $((opt_p - 8)))
		opt_n=$((opt_n + 1))
	done
}

# option FILE ID FIELD - FIELD (2: data offset, 3: size, 4: its options
# section) of the first option ID.
option()
{
	options "$1" | awk -v id="$2" -v f="$3" '$1 == id { print $f; exit }'
}

# run_all FILE - the four readers on FILE; their stdout in FILE.CMD, their
# exit statuses in $statuses, their errors in $errors.
run_all()
{
	statuses=
	errors=
	for cmd in report slices profile convert; do
		case $cmd in
		convert) vt_run convert "$1" "$1.pftrace" ;;
		*) vt_run "$cmd" "$1" ;;
		esac
		statuses="$statuses $rc"
		errors="$errors$err
"
		printf '%s\n' "$out" | sed "s|$1|FILE|g" > "$1.$cmd"
	done
}

# same NAME FILE CMD - one result: CMD gives on version 7's FILE exactly
# what it gives on version 6's (its output, and for convert the files).
same()
{
	case $3 in
	convert)
		vt_run convert "$2" "$2.pftrace"
		v7_rc=$rc
		sed "s|$2|FILE|" "$VT_TMP/out" > "$2.out"
		vt_run convert "$2" "$2.trace"
		sed "s|$2|FILE|" "$VT_TMP/out" >> "$2.out"
		[ $v7_rc = 0 ] && [ $rc = 0 ] &&
			cmp -s "$2.out" "$work/v6.dat.out" &&
			cmp -s "$2.pftrace" "$work/v6.dat.pftrace" &&
			cmp -s "$2.trace" "$work/v6.dat.trace"
		;;
	*)
		vt_run "$3" "$2"
		printf '%s\n' "$out" > "$2.$3"
		[ $rc = 0 ] && [ -s "$2.$3" ] && cmp -s "$2.$3" "$work/v6.dat.$3"
		;;
	esac
	vt_result "$1" $?
}

# refused NAME FILE WHAT - one result: each reader refuses FILE with exit
# status 1 and an error naming FILE and saying WHAT.
refused()
{
	run_all "$2"
	ok=1
	for s in $statuses; do
		[ "$s" = 1 ] || ok=0
	done
	n=$(printf '%s' "$errors" | grep -c "vtrace: error: .*$2: .*$3")
	if [ $ok = 1 ] && [ "$n" = 4 ]; then
		ktap_test_pass "$1"
		return
	fi
	ktap_print_msg "$1: exit statuses$statuses (report slices profile convert)"
	printf '%s' "$errors" | head -c 1200 | sed 's/^/# stderr: /'
	ktap_test_fail "$1"
}

ktap_set_plan 20

# The version 6 file's results, which version 7's must equal.
for cmd in report slices profile; do
	"$VTRACE" "$cmd" "$work/v6.dat" > "$work/v6.dat.$cmd" 2> /dev/null
done
{
	"$VTRACE" convert "$work/v6.dat" "$work/v6.dat.pftrace"
	"$VTRACE" convert "$work/v6.dat" "$work/v6.dat.trace"
} 2> /dev/null | sed "s|$work/v6.dat|FILE|" > "$work/v6.dat.out"
ktap_print_msg "version 6: $(wc -l < "$work/v6.dat.report") report lines, $(cat "$work/v6.dat.out" | tr '\n' ' ')"

for f in v7 v7z; do
	for cmd in report slices profile convert; do
		same "${f}_${cmd}_as_version_6" "$work/$f.dat" $cmd
	done
done

# One changed byte in sched_switch's format: its print fmt names
# REC->prev_state, the field is now prev_statX.
cp "$work/v7.dat" "$work/m-format.dat"
at=$(offset_of "$work/m-format.dat" 'long prev_state;')
put "$work/m-format.dat" $((at + 14)) 1 88
refused v7_format_names_missing_field "$work/m-format.dat" \
	"prints REC->prev_state, which is not one of its fields"

# kallsyms (option 19 gives its section) claiming 0xffffffff bytes.
cp "$work/v7.dat" "$work/m-kallsyms.dat"
ksec=$(u64 "$work/m-kallsyms.dat" "$(option "$work/v7.dat" 19 2)")
put "$work/m-kallsyms.dat" $((ksec + 16)) 4 4294967295
refused v7_kallsyms_size_huge "$work/m-kallsyms.dat" "truncated in kallsyms"

# Cut in the CPU data, and before the first options section: trace-cmd
# writes the last options section (the buffers') after the CPU data.
size=$(wc -c < "$work/v7.dat")
head -c $((size - 1000)) "$work/v7.dat" > "$work/m-cut-data.dat"
refused v7_truncated_in_cpu_data "$work/m-cut-data.dat" \
	"truncated or corrupt: the section of the options at offset [0-9]*"

head -c 3000 "$work/v7.dat" > "$work/m-cut-head.dat"
refused v7_truncated_before_options "$work/m-cut-head.dat" \
	"truncated or corrupt: the section of the options at offset [0-9]*"

# The event formats' offset (option 18) past the file, then at the
# header_page section (option 16's).
cp "$work/v7.dat" "$work/m-past.dat"
put "$work/m-past.dat" "$(option "$work/v7.dat" 18 2)" 8 $((size + 4096))
refused v7_section_past_the_file "$work/m-past.dat" \
	"the section of the event formats at offset $((size + 4096)) is past the file"

cp "$work/v7.dat" "$work/m-other.dat"
put "$work/m-other.dat" "$(option "$work/v7.dat" 18 2)" 8 \
	"$(u64 "$work/v7.dat" "$(option "$work/v7.dat" 16 2)")"
refused v7_section_offset_at_other_section "$work/m-other.dat" \
	"is not the event formats"

# The last options section's DONE naming the first again: libtracecmd
# follows the chain by recursion.
cp "$work/v7.dat" "$work/m-loop.dat"
done_at=$(options "$work/v7.dat" | awk '$1 == 0 { d = $2 } END { print d }')
put "$work/m-loop.dat" "$done_at" 8 "$(u64 "$work/v7.dat" "$(options_at "$work/v7.dat")")"
refused v7_options_chain_loops "$work/m-loop.dat" "comes again"

# CPU 0's data (the BUFFER option's first CPU: after the section offset,
# the instance's name "" and clock, page size and CPU count, the id)
# past the file.
cp "$work/v7.dat" "$work/m-cpu.dat"
buf=$(option "$work/v7.dat" 3 2)
clock_end=$(after_nul "$work/v7.dat" $((buf + 9)))
put "$work/m-cpu.dat" $((clock_end + 12)) 8 $((size * 2))
refused v7_cpu_data_past_the_file "$work/m-cpu.dat" "truncated: CPU 0 data"

# Compressed (trace-cmd leaves the options sections of a converted file
# uncompressed): the event formats claiming 4 GiB decompressed (after
# their section header, the compressed size, then this one), and a cut
# in the compressed CPU data.
cp "$work/v7z.dat" "$work/z-huge.dat"
fsec=$(u64 "$work/v7z.dat" "$(option "$work/v7z.dat" 18 2)")
put "$work/z-huge.dat" $((fsec + 20)) 4 4294967295
refused v7z_section_size_huge "$work/z-huge.dat" \
	"corrupt the event formats: 4294967295 bytes when decompressed"

zbuf=$(option "$work/v7z.dat" 3 2)
zcpu=$(u64 "$work/v7z.dat" $(($(after_nul "$work/v7z.dat" $((zbuf + 9))) + 12)))
head -c $((zcpu + 100)) "$work/v7z.dat" > "$work/z-cut.dat"
refused v7z_truncated_in_cpu_data "$work/z-cut.dat" \
	"truncated or corrupt: the section of the options at offset [0-9]*"

# committed NAME FILE WHAT - refused, for a committed input (only in the
# source tree: not installed with the test).
committed()
{
	if [ -f "$corpus/$2" ]; then
		cp "$corpus/$2" "$work/$2"
		refused "$1" "$work/$2" "$3"
	else
		ktap_test_skip "$1 (no $2 here: run from the source tree)"
	fi
}

committed v7z_format_names_missing_field v7-zstd-format-unknown-field.dat \
	"prints REC->prev_state, which is not one of its fields"
committed v7z_kallsyms_size_huge v7-zstd-kallsyms-size-huge.dat \
	"truncated in kallsyms"

ktap_finished
