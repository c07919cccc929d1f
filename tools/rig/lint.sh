#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh - static checks as KTAP: the module builds without a warning at
# W=1 and under sparse (C=1) against each rig kernel's headers, checkpatch
# --strict is clean on module/, the default build has no trace_printk in it,
# tools/ is formatted with the kernel's .clang-format, and the device-tree
# overlays in dts/ compile without a dtc warning.

set -uo pipefail

rig=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$rig/../.." && pwd)
work="$top/.cache/rig/lint"
ksrc="$top/.cache/linux-source"
targets=(6.12-amd64 6.12-arm64 6.1-amd64)

n=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}

echo "TAP version 13"
echo "1..$((${#targets[@]} + 4))"

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
		make -C "$KDIR" M="$src" ARCH="$ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
			W=1 C=1 modules >"$src/build.log" 2>&1
	)
	rc=$?
	warnings=$(grep -cE 'warning:|error:' "$src/build.log")
	[ "$warnings" = 0 ] || grep -E 'warning:|error:' "$src/build.log" | sed 's/^/# /'
	result $((rc || warnings)) "module builds for $t at W=1 C=1 with $warnings warnings"
	if [ "$t" = 6.12-amd64 ]; then
		printk_syms=$(nm "$src/vtrace.ko" 2>/dev/null |
			grep -cE '__trace_(b?printk|puts|bputs)')
		result "$printk_syms" "default build references trace_printk $printk_syms times"
	fi
done

mapfile -t module_files < <(cd "$top" && git ls-files module | grep -E '\.[ch]$')
out=$(cd "$top" && perl "$ksrc/scripts/checkpatch.pl" --strict --no-tree --terse \
	--show-types -f "${module_files[@]}" 2>&1)
problems=$(grep -cE ': (ERROR|WARNING|CHECK):' <<<"$out")
[ "$problems" = 0 ] || sed 's/^/# /' <<<"$out"
result "$problems" "checkpatch --strict on module/: $problems problems"

mapfile -t tool_files < <(cd "$top" && git ls-files tools | grep -E '\.[ch]$')
unformatted=0
for f in "${tool_files[@]}"; do
	if ! clang-format --style="file:$top/tools/.clang-format" "$top/$f" |
		cmp -s - "$top/$f"; then
		echo "# not clang-formatted: $f"
		unformatted=$((unformatted + 1))
	fi
done
result "$unformatted" "tools/ C files clang-formatted: $unformatted differ"

dtc_out=$(make -s -C "$top/dts" check 2>&1)
dtc_problems=$(grep -c . <<<"$dtc_out")
[ "$dtc_problems" = 0 ] || sed 's/^/# /' <<<"$dtc_out"
result "$dtc_problems" "dts/ overlays compile without dtc warnings: $dtc_problems lines"
