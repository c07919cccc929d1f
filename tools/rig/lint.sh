#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh [--no-module] - static checks as KTAP (make lint): the module
# builds without a warning at W=1 and under sparse (C=1) against the
# headers of every rig kernel line (6.12 on both arches), the default
# build has no trace_printk in it,
# checkpatch --strict is clean on every C file (module/, tools/,
# selftests/), they are formatted with the kernel's .clang-format,
# kernel-doc -none -Wall finds nothing in the libraries (tools/lib/), the
# library keeps its walls (tools/rig/layout-check.py: no include or
# symbol cycle, tracefs written from tracefs/ only, no private header
# in a public one), the device-tree overlays in dts/ compile without a
# dtc warning, dt-schema
# accepts the bindings and validates the overlays against them, and
# docutils parses Documentation/*.rst without a warning, and groff
# formats the man pages without one.
# --no-module skips the module builds (minutes): the checks of the files
# alone, for running before landing.  checkpatch runs on every CPU, or on
# $VTRACE_LINT_JOBS of them (run-host.sh static: one, beside a guest).

set -uo pipefail

rig=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$rig/../.." && pwd)
work="$top/.cache/rig/lint"
ksrc="$top/.cache/linux-source"
# Every kernel line once, as make check boots them, plus 6.12's arm64.
targets=(6.12-amd64 6.12-arm64 6.1-amd64 5.10-arm64 7.3-amd64)
if [ "${1:-}" = --no-module ]; then
	targets=()
fi

n=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}

echo "TAP version 13"
echo "1..$((${#targets[@]} + (${#targets[@]} > 0) + 9))"

rm -rf "$work"
mkdir -p "$work"
for t in "${targets[@]}"; do
	env=$("$rig/fetch-kernel.sh" "$t")/env
	src="$work/$t"
	mkdir -p "$src"
	cp -r "$top/Kbuild" "$top/module" "$src/"
	(
		# shellcheck source=/dev/null
		. "$env"
		read -r -a kmake <<<"${KMAKEFLAGS:-}"
		make -C "$KDIR" "${kmake[@]}" M="$src" ARCH="$ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
			W=1 C=1 modules >"$src/build.log" 2>&1
	)
	rc=$?
	# Debian's Makefile notes that the host's pahole is not the one the
	# kernel was built with (7.3): the build's setting, not our code.
	grep -v 'warning: pahole version differs' "$src/build.log" >"$src/warn.log"
	warnings=$(grep -cE 'warning:|error:' "$src/warn.log")
	[ "$warnings" = 0 ] || grep -E 'warning:|error:' "$src/warn.log" | sed 's/^/# /'
	result $((rc || warnings)) "module builds for $t at W=1 C=1 with $warnings warnings"
	if [ "$t" = 6.12-amd64 ]; then
		printk_syms=$(nm "$src/vtrace.ko" 2>/dev/null |
			grep -cE '__trace_(b?printk|puts|bputs)')
		result "$printk_syms" "default build references trace_printk $printk_syms times"
	fi
done

# checkpatch IGNORE FILE...: checkpatch --strict's findings on each FILE
# (-f), one per line, the types in IGNORE (a list, or empty) left out.
# The files are checked one by one, so they are shared among the CPUs.
checkpatch() {
	local ignore=(${1:+--ignore "$1"})
	shift
	(cd "$top" && printf '%s\0' "$@" |
		xargs -0 -n 8 -P "${VTRACE_LINT_JOBS:-$(nproc)}" perl "$ksrc/scripts/checkpatch.pl" \
			--strict --no-tree --terse --show-types "${ignore[@]}" -f 2>&1) |
		grep -E ': (ERROR|WARNING|CHECK):'
	rm -f "$top"/.checkpatch-camelcase.*
}

# checkpatch_result WHAT IGNORE FILE...
checkpatch_result() {
	local what=$1 out problems
	shift
	out=$(checkpatch "$@")
	problems=$(grep -c . <<<"$out")
	[ "$problems" = 0 ] || sed 's/^/# /' <<<"$out"
	result "$problems" "checkpatch --strict on $what: $problems problems"
}

mapfile -t module_files < <(cd "$top" && git ls-files module | grep -E '\.[ch]$')
checkpatch_result module/ "" "${module_files[@]}"

# Userspace C is held to the kernel's style too, but for what checkpatch
# asks of kernel code only:
#  PREFER_KERNEL_TYPES, BIT_MACRO, ARRAY_SIZE, STRCPY,
#  PREFER_DEFINED_ATTRIBUTE_MACRO: u32, BIT(), ARRAY_SIZE(), strscpy()
#	and __printf() are the kernel's own; userspace has <stdint.h>, libc
#	and the compiler's attributes.
#  VOLATILE: a signal handler's flag is a volatile sig_atomic_t, and a
#	page the kernel writes while it is mapped is read through volatile
#	(userspace has no READ_ONCE()).
#  EMBEDDED_FUNCTION_NAME: a message is for the user: "usage:" or
#	"truncated" is its text, not the name of the C function printing it.
#  AVOID_EXTERNS: kshark_load.c declares the libkshark functions it
#	calls, as Debian ships libkshark without headers.
#  OPEN_ENDED_LINE: the kernel's .clang-format, enforced below, breaks a
#	call after its "(" when the first argument does not fit.
#  CAMELCASE: names from C11 (_Atomic), <inttypes.h> (PRIu64), libFuzzer
#	(LLVMFuzzerTestOneInput) and the kernel's uapi (trace_mmap.h's
#	Reserved1) are not ours to rename.
user_ignore=PREFER_KERNEL_TYPES,BIT_MACRO,ARRAY_SIZE,STRCPY
user_ignore+=,PREFER_DEFINED_ATTRIBUTE_MACRO,VOLATILE,EMBEDDED_FUNCTION_NAME
user_ignore+=,AVOID_EXTERNS,OPEN_ENDED_LINE,CAMELCASE
mapfile -t user_files < <(cd "$top" && git ls-files tools selftests | grep -E '\.[ch]$')
checkpatch_result "tools/ and selftests/" "$user_ignore" "${user_files[@]}"

# The style is tools/.clang-format (the kernel's), which .clang-format
# links to; selftests/.clang-format adds what kselftest_harness.h needs.
unformatted=0
for f in "${user_files[@]}"; do
	if ! clang-format --style=file "$top/$f" |
		cmp -s - "$top/$f"; then
		echo "# not clang-formatted: $f"
		unformatted=$((unformatted + 1))
	fi
done
result "$unformatted" "tools/ and selftests/ C files clang-formatted: $unformatted differ"

mapfile -t lib_files < <(cd "$top" && git ls-files tools/lib | grep -E '\.[ch]$')
kdoc_out=$(cd "$top" && perl "$ksrc/scripts/kernel-doc" -none -Wall "${lib_files[@]}" 2>&1)
kdoc_warnings=$(grep -c . <<<"$kdoc_out")
[ "$kdoc_warnings" = 0 ] || sed 's/^/# /' <<<"$kdoc_out"
result "$kdoc_warnings" "kernel-doc -none -Wall on tools/lib/: $kdoc_warnings warnings"

# The helper built into a folder of its own, for the objects' symbols.
layout_out=$(make -s -C "$top/tools/vtrace" OUTPUT="$work/layout/" 2>&1 &&
	python3 "$rig/layout-check.py" "$top" "$work/layout" 2>&1)
layout_rc=$?
sed 's/^/    /' <<<"$layout_out"
layout_failed=$(grep -c '^not ok' <<<"$layout_out")
result "$((layout_rc || layout_failed))" "library layout keeps its walls: $layout_failed checks fail"

dtc_out=$(make -s -C "$top/dts" check 2>&1)
dtc_problems=$(grep -c . <<<"$dtc_out")
[ "$dtc_problems" = 0 ] || sed 's/^/# /' <<<"$dtc_out"
result "$dtc_problems" "dts/ overlays compile without dtc warnings: $dtc_problems lines"

# dt-doc-validate on Documentation/devicetree/bindings, dt-validate of each
# overlay applied to a minimal tree (dts/Makefile says why).
dt_out=$(make -s -C "$top/dts" validate 2>&1)
dt_problems=$(grep -c . <<<"$dt_out")
[ "$dt_problems" = 0 ] || sed 's/^/# /' <<<"$dt_out"
result "$dt_problems" "dt-schema: bindings and dts/ overlays validate: $dt_problems lines"

# Debian's docutils (python3-docutils), not whichever python3 is first on
# PATH: a page the reST parser warns about renders wrongly.
rst_out=$(cd "$top" && for f in Documentation/*.rst; do
	/usr/bin/rst2pseudoxml --halt=warning --report=warning "$f" 2>&1 >/dev/null
done)
rst_problems=$(grep -c . <<<"$rst_out")
[ "$rst_problems" = 0 ] || sed 's/^/# /' <<<"$rst_out"
result "$rst_problems" "docutils parses Documentation/*.rst: $rst_problems lines"

# groff (groff-base, which man-db needs) on each man page, every warning
# on: a stray control character or a line it cannot break shows in man.
mapfile -t man_pages < <(cd "$top" && git ls-files | grep -E '\.[1-8]$')
man_out=$(cd "$top" && for f in "${man_pages[@]}"; do
	groff -man -ww -z "$f" 2>&1
done)
man_problems=$(grep -c . <<<"$man_out")
[ "$man_problems" = 0 ] || sed 's/^/# /' <<<"$man_out"
result "$man_problems" "groff -man -ww formats the man pages: $man_problems warnings"
