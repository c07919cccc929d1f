#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-arm64-libs.sh - unpack Debian's arm64 libtracefs/libtraceevent
# (headers, static and shared libraries, pkg-config files) into
# .cache/arm64-libs/root, for cross-building the helper and its selftests,
# and Debian's arm64 trace-cmd with the shared libraries and dynamic loader
# it runs with into .cache/arm64-trace-cmd/root, for the guest's initramfs.
#
# Prints, on stdout and nothing else, the shell assignments to eval before
# building:
#
#	eval "$(tools/rig/fetch-arm64-libs.sh)"
#	make -C tools/vtrace CROSS_COMPILE=aarch64-linux-gnu- STATIC=1
#
# (PKG_CONFIG_LIBDIR, and VTRACE_ARM64_TRACE_CMD_ROOT for run-guest.sh.)
# The packages are fetched with apt-get download and unpacked with dpkg -x,
# never installed (an arm64 libc would conflict); the two sets stay apart,
# so that the cross build never sees the arm64 libc's shared objects.
# Idempotent: a second run only prints.  Needs the arm64 architecture added
# and apt lists updated, which tools/rig/setup.sh does.

set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
triplet=aarch64-linux-gnu

build_dest="$top/.cache/arm64-libs"
build_packages=(
	libtracefs-dev:arm64 libtracefs1:arm64
	libtraceevent-dev:arm64 libtraceevent1:arm64
)
build_files=("usr/lib/$triplet/libtracefs.a" "usr/lib/$triplet/libtraceevent.a")

# trace-cmd's Depends (its plugins left out: the guests' tests read the
# module's events, which no plugin prints).
run_dest="$top/.cache/arm64-trace-cmd"
run_packages=(
	trace-cmd:arm64 libtracefs1:arm64 libtraceevent1:arm64 libzstd1:arm64
	libc6:arm64
)
run_files=(usr/bin/trace-cmd lib/ld-linux-aarch64.so.1)

# fetch DEST FILES PACKAGES... - unpack PACKAGES into DEST/root unless its
# stamp names them and the FILES (a space-separated list) are there; a
# partial clean-up refetches.  Several rig targets may run at once: one
# fetches, the others wait.
fetch() {
	local dest=$1 files=$2 want f
	shift 2
	want="$*"
	mkdir -p "$(dirname "$dest")"
	exec 9>"$dest.lock"
	flock 9
	if ! complete "$dest" "$want" "$files"; then
		echo "fetch-arm64-libs: downloading $want" >&2
		rm -rf "$dest.tmp"
		mkdir -p "$dest.tmp/debs" "$dest.tmp/root"
		(cd "$dest.tmp/debs" && apt-get download -q "$@") >&2
		for f in "$dest.tmp"/debs/*.deb; do
			dpkg -x "$f" "$dest.tmp/root"
		done
		echo "$want" >"$dest.tmp/root/.stamp"
		rm -rf "$dest"
		mv "$dest.tmp" "$dest"
	fi
	complete "$dest" "$want" "$files" || {
		echo "fetch-arm64-libs: the unpacked packages lack one of: $files" >&2
		exit 1
	}
	exec 9>&-
}

complete() {
	local f
	[ -f "$1/root/.stamp" ] && [ "$(cat "$1/root/.stamp")" = "$2" ] || return 1
	for f in $3; do
		[ -e "$1/root/$f" ] || return 1
	done
}

fetch "$build_dest" "${build_files[*]}" "${build_packages[@]}"
fetch "$run_dest" "${run_files[*]}" "${run_packages[@]}"

# The .pc files say prefix=/usr: point them at the unpacked tree, so that
# PKG_CONFIG_LIBDIR alone selects the arm64 headers and libraries.  Relative
# to the .pc file, as worktrees share .cache/ through a link and come and go;
# done on every run, which also mends a cache with an absolute prefix.
pcdir="$build_dest/root/usr/lib/$triplet/pkgconfig"
sed -i 's|^prefix=.*|prefix=${pcfiledir}/../../..|' "$pcdir"/*.pc

echo "export PKG_CONFIG_LIBDIR=$pcdir"
echo "export VTRACE_ARM64_TRACE_CMD_ROOT=$run_dest/root"
