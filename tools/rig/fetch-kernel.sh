#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh TARGET - download and unpack one Debian cloud kernel of the
# rig (image, modules, headers, kbuild) plus the guest's busybox, into
# .cache/kernels/TARGET/, and write .cache/kernels/TARGET/env describing it.
#
# TARGET is one of 6.12-amd64, 6.12-arm64, 6.1-amd64.  The newest version in
# the package index is used; no ABI number is written down anywhere.  Nothing
# is installed on the host: packages are fetched with apt-get download and
# unpacked with dpkg -x, so the relative scripts/ and tools/ symlinks of the
# headers resolve into the kbuild package unpacked next to them.

set -euo pipefail

target=${1:?usage: fetch-kernel.sh 6.12-amd64|6.12-arm64|6.1-amd64}
top=$(cd "$(dirname "$0")/../.." && pwd)
dir="$top/.cache/kernels/$target"

case "$target" in
6.12-amd64) series=6.12 arch=amd64 ;;
6.12-arm64) series=6.12 arch=arm64 ;;
6.1-amd64) series=6.1 arch=amd64 ;;
*) echo "fetch-kernel.sh: unknown target '$target'" >&2; exit 2 ;;
esac

if [ "$arch" = arm64 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "fetch-kernel.sh: run tools/rig/setup.sh first (arm64 not enabled in dpkg)" >&2
	exit 2
fi

# Debian names: 6.12 ABIs look like 6.12.117+deb12, 6.1 ones like 6.1.0-57.
case "$series" in
6.12) abi_re='6\.12\.[0-9]+\+deb12' ;;
6.1) abi_re='6\.1\.0-[0-9]+' ;;
esac
abi=$(apt-cache search --names-only "^linux-image-${abi_re}-cloud-${arch}-unsigned\$" |
	sed -E "s/^linux-image-(${abi_re})-cloud-.*/\1/" | sort -V | tail -n 1)
if [ -z "$abi" ]; then
	echo "fetch-kernel.sh: no linux-image-$series cloud $arch kernel in the package index" >&2
	exit 1
fi
kver="$abi-cloud-$arch"

if [ -f "$dir/env" ] && grep -qx "KVER=$kver" "$dir/env"; then
	echo "$dir"
	exit 0
fi

echo "fetch-kernel.sh: fetching $kver" >&2
rm -rf "$dir"
mkdir -p "$dir/debs" "$dir/root"
# linux-kbuild is a host tool package: always the amd64 build.
pkgs=(
	"linux-image-$kver-unsigned:$arch"
	"linux-headers-$kver:$arch"
	"linux-headers-$abi-common"
	"linux-kbuild-${abi%%-*}"
	"busybox-static:$arch"
)
[ "$series" = 6.1 ] && pkgs[3]="linux-kbuild-6.1"
(cd "$dir/debs" && apt-get download -q "${pkgs[@]}" >&2)
for deb in "$dir"/debs/*.deb; do
	dpkg -x "$deb" "$dir/root"
done

# The per-flavour headers Makefile includes the common headers by absolute
# path; point it at the copy unpacked here.
sed -i "s|^include /usr/src/|include $dir/root/usr/src/|" \
	"$dir/root/usr/src/linux-headers-$kver/Makefile"

case "$arch" in
amd64) karch=x86_64 cross= qemu=qemu-system-x86_64 console=ttyS0 ;;
arm64) karch=arm64 cross=aarch64-linux-gnu- qemu=qemu-system-aarch64 console=ttyAMA0 ;;
esac

cat > "$dir/env" <<ENV
KVER=$kver
ARCH=$karch
CROSS_COMPILE=$cross
KDIR=$dir/root/usr/src/linux-headers-$kver
VMLINUZ=$dir/root/boot/vmlinuz-$kver
MODULES=$dir/root/lib/modules/$kver
BUSYBOX=$dir/root/bin/busybox
QEMU=$qemu
CONSOLE=$console
ENV
rm -rf "$dir/debs"
echo "$dir"
