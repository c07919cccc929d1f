#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh TARGET - download and unpack one Debian cloud kernel of the
# rig (image, modules, headers, kbuild) plus the guest's busybox, into
# .cache/kernels/TARGET/, and write .cache/kernels/TARGET/env describing it.
#
# TARGET is one of 6.12-amd64, 6.12-arm64, 6.1-amd64, 5.10-amd64,
# 5.10-arm64, 7.3-amd64, 7.3-arm64.  The newest version in the package
# index is used; no ABI number is written down anywhere.  Nothing is
# installed on the host: packages are fetched with apt-get download and
# unpacked with dpkg -x, so the relative scripts/ and tools/ symlinks of the
# headers resolve into the kbuild package unpacked next to them.
#
# 6.12 and 6.1 come from the machine's own (bookworm) package index.  5.10
# (bullseye) and 7.3 (trixie-backports) come from a private apt
# configuration under .cache/apt/ on the same mirror: the machine's apt
# sources are never changed.

set -euo pipefail

targets="6.12-amd64|6.12-arm64|6.1-amd64|5.10-amd64|5.10-arm64|7.3-amd64|7.3-arm64"
target=${1:?usage: fetch-kernel.sh $targets}
top=$(cd "$(dirname "$0")/../.." && pwd)
dir="$top/.cache/kernels/$target"

case "$target" in
6.12-amd64 | 6.12-arm64 | 6.1-amd64 | 5.10-amd64 | 5.10-arm64 | 7.3-amd64 | 7.3-arm64)
	series=${target%-*} arch=${target#*-} ;;
*) echo "fetch-kernel.sh: unknown target '$target' (one of $targets)" >&2; exit 2 ;;
esac

if [ "$arch" = arm64 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "fetch-kernel.sh: run tools/rig/setup.sh first (arm64 not enabled in dpkg)" >&2
	exit 2
fi

# The private apt configuration for the suites the machine does not list.
# trixie proper is there for its libc alone (amd64: 7.3's host programs).
apt_dir="$top/.cache/apt"
apt_opts=()
private_apt() {
	local mirror
	apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
		-o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$apt_dir/lists"
		-o "Dir::Cache=$apt_dir/cache"
		-o Acquire::Languages=none)
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
	exec 8>"$apt_dir.lock"
	flock 8
	# Lists younger than a day are used as they are (several targets in
	# one run share them).
	if [ -n "$(find "$apt_dir/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440)" ]; then
		exec 8>&-
		return
	fi
	# The mirror the machine's own bookworm entry names (one-line or
	# deb822 sources).
	mirror=$(find /etc/apt -maxdepth 2 \( -path /etc/apt/sources.list -o \
		-path '/etc/apt/sources.list.d/*.list' -o -name '*.sources' \) \
		-exec cat {} + | awk '
		$1 == "deb" { sub(/\[[^]]*\] */, ""); if ($3 == "bookworm") { print $2; exit } }
		/^URIs:/ { uri = $2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") { print uri; exit } }
		/^$/ { uri = "" }')
	if [ -z "$mirror" ]; then
		echo "fetch-kernel.sh: no bookworm entry in /etc/apt/sources.list*" >&2
		exit 1
	fi
	cat >"$apt_dir/sources.list" <<LIST
deb [arch=amd64,arm64] $mirror bullseye main
deb [arch=amd64,arm64] $mirror trixie-backports main
deb [arch=amd64] $mirror trixie main
LIST
	echo "fetch-kernel.sh: apt-get update (bullseye, trixie) into $apt_dir" >&2
	apt-get -q "${apt_opts[@]}" update >&2
	exec 8>&-
}

# Debian names: 6.12 ABIs look like 6.12.117+deb12, 6.1 ones like 6.1.0-57,
# 5.10 ones like 5.10.0-32, 7.3 ones like 7.3.4+deb13.
image=linux-image- unsigned=-unsigned
case "$series" in
6.12) abi_re='6\.12\.[0-9]+\+deb12' ;;
6.1) abi_re='6\.1\.0-[0-9]+' ;;
5.10) abi_re='5\.10\.0-[0-9]+' ;;
7.3) abi_re='7\.3\.[0-9]+\+deb13' image=linux-binary-unsigned- unsigned= ;;
esac
case "$series" in
5.10 | 7.3) private_apt ;;
esac
abi=$(apt-cache "${apt_opts[@]}" search --names-only \
	"^${image}${abi_re}-cloud-${arch}${unsigned}\$" |
	sed -E "s/^${image}(${abi_re})-cloud-.*/\1/" | sort -V | tail -n 1)
if [ -z "$abi" ]; then
	echo "fetch-kernel.sh: no ${image}$series cloud $arch kernel in the package index" >&2
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
# linux-kbuild is a host tool package: always the amd64 build.  7.3 ships
# image and modules as one linux-binary package.
pkgs=(
	"$image$kver$unsigned:$arch"
	"linux-headers-$kver:$arch"
	"linux-headers-$abi-common"
	"linux-kbuild-${abi%%-*}"
)
case "$series" in
6.1 | 5.10) pkgs[3]="linux-kbuild-$series" ;;
7.3) pkgs+=("libc6:amd64/trixie") ;;
esac
(cd "$dir/debs" && apt-get download -q "${apt_opts[@]}" "${pkgs[@]}" >&2)
# The guest's userspace stays bookworm's whatever the kernel.
(cd "$dir/debs" && apt-get download -q "busybox-static:$arch" >&2)
if [ "$series" = 7.3 ]; then
	# trixie's libc goes apart: only 7.3's host programs run with it.
	mkdir -p "$dir/glibc"
	dpkg -x "$dir"/debs/libc6_*.deb "$dir/glibc"
	rm "$dir"/debs/libc6_*.deb
fi
for deb in "$dir"/debs/*.deb; do
	dpkg -x "$deb" "$dir/root"
done

kdir="$dir/root/usr/src/linux-headers-$kver"
# The per-flavour headers Makefile includes the common headers (and 7.3's
# sets KBUILD_OUTPUT) by absolute path; point them at the copy unpacked here.
sed -i -E "s#^(include |KBUILD_OUTPUT ?= ?)/usr/src/#\1$dir/root/usr/src/#" \
	"$kdir/Makefile"

# The make arguments a module build needs on this machine's gcc-12.  The
# headers name the compiler Debian built with (gcc-10 for 5.10, gcc-14
# for 7.3): use the host's, for the target's arch.  7.3's .config holds
# what only gcc-14 and its pahole can do; unset them.
kmake=
case "$series" in
5.10) kmake="CC=${arch/amd64/x86_64}-linux-gnu-gcc" ;;
7.3) kmake="CC=${arch/amd64/x86_64}-linux-gnu-gcc"
	kmake+=" CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT= CONFIG_DEBUG_INFO_BTF_MODULES=" ;;
esac
kmake=${kmake//arm64-linux-gnu/aarch64-linux-gnu}

# trixie's modpost, objtool and resolve_btfids need glibc 2.38, newer than
# bookworm's: each such program becomes a script running it with trixie's
# loader and libc (the other libraries they need are the host's).
if [ "$series" = 7.3 ]; then
	host_glibc=$(ldd --version | sed -n '1s/.* \([0-9][0-9.]*\)$/\1/p')
	loader=$(find "$dir/glibc" -name 'ld-linux-x86-64.so.2' | head -n 1)
	libdir=$(dirname "$(find "$dir/glibc" -name 'libc.so.6' | head -n 1)")
	kbuild=$(readlink -f "$kdir/scripts/..")
	find "$kbuild" -type f -perm -u+x | while read -r f; do
		need=$(objdump -T "$f" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' |
			sed "s/GLIBC_//" | sort -V | tail -n 1) || true
		[ -n "$need" ] || continue
		[ "$(printf '%s\n' "$need" "$host_glibc" | sort -V | tail -n 1)" = "$host_glibc" ] &&
			continue
		mv "$f" "$f.glibc"
		# shellcheck disable=SC2016 # $0 and $@ are the wrapper's.
		printf '#!/bin/sh\nexec %s --library-path %s "$0.glibc" "$@"\n' \
			"$loader" "$libdir" >"$f"
		chmod 0755 "$f"
	done
fi

case "$arch" in
amd64) karch=x86_64 cross='' qemu=qemu-system-x86_64 console=ttyS0 ;;
arm64) karch=arm64 cross=aarch64-linux-gnu- qemu=qemu-system-aarch64 console=ttyAMA0 ;;
esac

vmlinuz=$dir/root/boot/vmlinuz-$kver
modules=$dir/root/lib/modules/$kver
if [ "$series" = 7.3 ]; then
	modules=$dir/root/usr/lib/modules/$kver
	vmlinuz=$modules/vmlinuz.unsigned
fi

cat > "$dir/env" <<ENV
KVER=$kver
ARCH=$karch
CROSS_COMPILE=$cross
KDIR=$kdir
KMAKEFLAGS="$kmake"
VMLINUZ=$vmlinuz
MODULES=$modules
BUSYBOX=$dir/root/bin/busybox
QEMU=$qemu
CONSOLE=$console
ENV
rm -rf "$dir/debs"
echo "$dir"
