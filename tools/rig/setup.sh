#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything vtrace needs on a Debian 12 machine and extract the few
# kernel files we use but do not ship (kselftest harness, checkpatch, the
# kernel's .clang-format) from Debian's linux-source-6.12 into .cache/.
# Idempotent: a second run only checks.

set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache="$top/.cache"
ksrc="$cache/linux-source"
stamp="$cache/setup.stamp"

packages=(
	build-essential bc kmod cpio xz-utils pkg-config rsync
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	qemu-system-x86 qemu-system-arm busybox-static
	device-tree-compiler dt-schema sparse dwarves
	libtracefs-dev libtraceevent-dev libtracecmd-dev libzstd-dev trace-cmd libkshark2
	clang libclang-rt-14-dev
	linux-source-6.12 man-db
	protobuf-compiler dmtracedump graphviz python3-docutils
	chromium
	debhelper dh-dkms dkms lintian
)

need_install() {
	local p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || return 0
	done
	return 1
}

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# The arm64 guest's kernel, headers and userspace come from Debian's arm64
# packages (fetched with apt-get download, never installed).
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	as_root dpkg --add-architecture arm64
	rm -f "$stamp"
fi

if need_install || [ ! -f "$stamp" ]; then
	echo "setup: installing Debian packages"
	as_root apt-get update -q
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

# The amd64 kernel headers (and with them the host linux-kbuild packages the
# arm64 headers reuse) are resolved per kernel by fetch-kernel.sh.

members=(
	.clang-format
	include/uapi/linux/trace_mmap.h
	scripts/checkpatch.pl
	scripts/kernel-doc
	scripts/spelling.txt
	scripts/const_structs.checkpatch
	tools/testing/selftests/kselftest.h
	tools/testing/selftests/kselftest_harness.h
	tools/testing/selftests/lib.mk
	tools/testing/selftests/kselftest/ktap_helpers.sh
)

# The stamp names the members, so that adding one extracts again.
if [ "$(cat "$stamp" 2>/dev/null)" != "${members[*]}" ]; then
	echo "setup: extracting kselftest and checkpatch files from linux-source-6.12"
	rm -rf "$ksrc"
	mkdir -p "$ksrc"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$ksrc" \
		--strip-components=1 "${members[@]/#/linux-source-6.12/}"
	echo "${members[*]}" >"$stamp"
fi

# Lay the harness out next to selftests/ the way a kernel tree has it, so the
# test directories build with their kernel-style "../lib.mk" includes.
for f in kselftest.h kselftest_harness.h lib.mk kselftest; do
	ln -sfn "$ksrc/tools/testing/selftests/$f" "$top/selftests/$f"
done
