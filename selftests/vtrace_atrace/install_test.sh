#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# libvtrace-atrace as a user gets it: "make install PREFIX=DIR" (the
# library's own Makefile and the top level's), then an Android-style
# program built with "cc app.c $(pkg-config --cflags --libs vtrace-atrace)"
# against DIR, shared and static, and as C++; each binary's markers must
# arrive in a private instance while "vtrace enable" holds its tag there.
# Needs a compiler and the source tree (SKIP in the guests).

if [ -f "$(dirname "$0")/vtrace_test_lib.sh" ]; then
	. "$(dirname "$0")/vtrace_test_lib.sh"
else
	. "$(dirname "$0")/../vtrace_tool/vtrace_test_lib.sh"
fi

ktap_print_header
top="$here/../.."
if ! command -v cc >/dev/null || ! command -v pkg-config >/dev/null ||
	[ ! -f "$top/tools/lib/atrace/Makefile" ]; then
	ktap_skip_all "needs cc, pkg-config and the source tree"
	exit "$KSFT_SKIP"
fi
vt_require_root
ktap_set_plan 6

inst=vtrace_atrace_install_$$
prefix="$VT_TMP/prefix"
cats="$VT_TMP/categories.txt"
printf 'gfx\n sched/sched_wakeup\n' >"$cats"
mkdir -p "$VTRACE_STATE_DIR"
cleanup() {
	"$VTRACE" disable --all --instance "$inst" >/dev/null 2>&1
	vt_cleanup_tmp
}
trap cleanup EXIT

make -s -C "$top/tools/lib/atrace" OUTPUT="$VT_TMP/build/" install \
	PREFIX="$prefix" >"$VT_TMP/make.log" 2>&1 &&
	for f in include/vtrace/atrace.h lib/libvtrace-atrace.a \
		lib/libvtrace-atrace.so lib/pkgconfig/vtrace-atrace.pc; do
		[ -e "$prefix/$f" ] || { echo "# missing $f"; false; } || break
	done
ok=$?
[ "$ok" = 0 ] || sed 's/^/# /' "$VT_TMP/make.log"
vt_result make_install_puts_header_libraries_and_pc_file $ok

# The top level's install, into a staging directory.
make -s -C "$top" install DESTDIR="$VT_TMP/stage" PREFIX=/usr \
	>"$VT_TMP/make2.log" 2>&1 &&
	[ -f "$VT_TMP/stage/usr/include/vtrace/atrace.h" ] &&
	[ -f "$VT_TMP/stage/usr/lib/pkgconfig/vtrace-atrace.pc" ] &&
	[ -x "$VT_TMP/stage/usr/bin/vtrace" ]
ok=$?
[ "$ok" = 0 ] || sed 's/^/# /' "$VT_TMP/make2.log"
vt_result top_level_install_has_the_library $ok

cat >"$VT_TMP/app.c" <<'APP'
#define ATRACE_TAG ATRACE_TAG_GRAPHICS
#include <vtrace/atrace.h>
#include <stdio.h>

int main(void)
{
	if (!ATRACE_ENABLED())
		return 3;
	ATRACE_BEGIN("installed");
	ATRACE_INT("n", 1);
	ATRACE_INT64("n64", -2);
	ATRACE_ASYNC_BEGIN("a", 3);
	ATRACE_ASYNC_END("a", 3);
	ATRACE_END();
	return 0;
}
APP
cp "$VT_TMP/app.c" "$VT_TMP/app.cc"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -o "$VT_TMP/app-shared" "$VT_TMP/app.c" $(pkg-config --cflags --libs vtrace-atrace) &&
	cc -static -o "$VT_TMP/app-static" "$VT_TMP/app.c" \
		$(pkg-config --cflags --libs --static vtrace-atrace) &&
	c++ -o "$VT_TMP/app-cxx" "$VT_TMP/app.cc" $(pkg-config --cflags --libs vtrace-atrace) \
		2>"$VT_TMP/cc.log"
ok=$?
[ "$ok" = 0 ] || sed 's/^/# /' "$VT_TMP/cc.log"
vt_result app_builds_with_pkg_config $ok

"$VTRACE" enable -f "$cats" --instance "$inst" gfx >/dev/null 2>&1
export LD_LIBRARY_PATH="$prefix/lib"
for app in shared static cxx; do
	: >"$TRACEFS/instances/$inst/trace"
	"$VT_TMP/app-$app"
	rc=$?
	sed -n 's/.*tracing_mark_write: //p' "$TRACEFS/instances/$inst/trace" \
		>"$VT_TMP/got"
	pid=$(sed -n '1s/^B|\([0-9]*\)|.*/\1/p' "$VT_TMP/got")
	printf 'B|%s|installed\nC|%s|n|1\nC|%s|n64|-2\nS|%s|a|3\nF|%s|a|3\nE|%s\n' \
		"$pid" "$pid" "$pid" "$pid" "$pid" "$pid" >"$VT_TMP/want"
	[ "$rc" = 0 ] && [ -n "$pid" ] && cmp -s "$VT_TMP/want" "$VT_TMP/got"
	ok=$?
	# The shared builds load the installed .so, the static one has it in.
	linked=shared
	ldd "$VT_TMP/app-$app" 2>&1 | grep -q "$prefix/lib/libvtrace-atrace.so" ||
		linked=static
	case "$app" in static) want=static ;; *) want=shared ;; esac
	[ "$linked" = "$want" ] || { echo "# $app is linked $linked"; ok=1; }
	[ "$ok" = 0 ] || { echo "# exit $rc"; sed 's/^/# got: /' "$VT_TMP/got"; }
	vt_result "${app}_app_marks_into_the_instance" $ok
done

ktap_finished
