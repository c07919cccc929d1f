#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-arm64-libs.sh - unpack Debian's arm64 libtracefs/libtraceevent
# (headers, static and shared libraries, pkg-config files) into
# .cache/arm64-libs/root, for cross-building the helper and its selftests.
#
# Prints, on stdout and nothing else, the shell assignment to eval before
# building:
#
#	eval "$(tools/rig/fetch-arm64-libs.sh)"
#	make -C tools/vtrace CROSS_COMPILE=aarch64-linux-gnu- STATIC=1
#
# The packages are fetched with apt-get download and unpacked with dpkg -x,
# never installed (an arm64 libc would conflict).  Idempotent: a second run
# only prints.  Needs the arm64 architecture added and apt lists updated,
# which tools/rig/setup.sh does.

set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
dest="$top/.cache/arm64-libs"
root="$dest/root"
triplet=aarch64-linux-gnu
pcdir="$root/usr/lib/$triplet/pkgconfig"

packages=(
	libtracefs-dev:arm64 libtracefs1:arm64
	libtraceevent-dev:arm64 libtraceevent1:arm64
)

stamp="$root/.stamp"
want="${packages[*]}"

# Several rig targets may run at once: one fetches, the others wait.
mkdir -p "$(dirname "$dest")"
exec 9>"$dest.lock"
flock 9

# Up to date when the stamp names these packages and the archives the
# static builds link are there (a partial clean-up refetches).
complete()
{
	local lib
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] || return 1
	for lib in libtracefs.a libtraceevent.a; do
		[ -f "$root/usr/lib/$triplet/$lib" ] || return 1
	done
}

if ! complete; then
	echo "fetch-arm64-libs: downloading ${packages[*]}" >&2
	tmp="$dest.tmp"
	rm -rf "$tmp"
	mkdir -p "$tmp/debs" "$tmp/root"
	(cd "$tmp/debs" && apt-get download -q "${packages[@]}") >&2
	for deb in "$tmp"/debs/*.deb; do
		dpkg -x "$deb" "$tmp/root"
	done
	echo "$want" >"$tmp/root/.stamp"
	rm -rf "$dest"
	mv "$tmp" "$dest"
fi

# The .pc files say prefix=/usr: point them at the unpacked tree, so that
# PKG_CONFIG_LIBDIR alone selects the arm64 headers and libraries.  Relative
# to the .pc file, as worktrees share .cache/ through a link and come and go;
# done on every run, which also mends a cache with an absolute prefix.
sed -i 's|^prefix=.*|prefix=${pcfiledir}/../../..|' "$pcdir"/*.pc

complete || {
	echo "fetch-arm64-libs: the unpacked packages lack libtracefs.a or libtraceevent.a" >&2
	exit 1
}

echo "export PKG_CONFIG_LIBDIR=$pcdir"
