#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-packages.sh - the Debian packages as a user installs them (make
# check-packages; run-host.sh runs it last), as KTAP:
#  - dpkg-buildpackage -us -uc -b builds the four packages from a copy of
#    the tree, and lintian finds no error and no warning in them;
#  - "apt-get install ./*.deb" on a machine with the 6.1 kernel's headers:
#    DKMS builds vtrace.ko for it, and again when the 6.12 headers are
#    installed afterwards (a kernel upgrade, through DKMS's kernel hook);
#  - debian/tests/smoke (the autopkgtest) passes on the installed packages;
#  - VTRACE_DEBUG=1 in /etc/default/vtrace-dkms makes DKMS build the
#    trace_printk variant;
#  - apt-get purge leaves nothing behind: no file "dpkg -L" listed, no
#    DKMS tree, no module under /lib/modules.
# The module DKMS built for 6.12 is left in .cache/rig/dkms/6.12-amd64/ for
# the 6.12 amd64 guest of make check (run-guest.sh, VTRACE_GUEST_MODULE).
# Kernel header and image packages it installed are purged again; it
# refuses to run when a vtrace package is installed already (the user's).

set -uo pipefail

rig=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$rig/../.." && pwd)
work="$top/.cache/rig/packages"
dkms_out="$top/.cache/rig/dkms/6.12-amd64"
packages=(vtrace vtrace-dkms libvtrace-atrace0 libvtrace-atrace-dev)
export DEBIAN_FRONTEND=noninteractive

n=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}
skip_rest() {
	while [ "$n" -lt "$plan" ]; do
		n=$((n + 1))
		echo "ok $n # SKIP $1"
	done
	exit 0
}
# quote FILE: a log's last lines as KTAP diagnostics.
quote() { tail -n "${2:-15}" "$1" | sed 's/^/# /'; }
installed() { dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q ' installed$'; }

plan=9
echo "TAP version 13"
echo "1..$plan"
rm -rf "$work" "$dkms_out"
mkdir -p "$work/src/vtrace" "$dkms_out"

if [ "$(id -u)" != 0 ] || ! command -v dpkg-buildpackage >/dev/null; then
	skip_rest "needs root and dpkg-buildpackage (tools/rig/setup.sh)"
fi
for p in "${packages[@]}"; do
	if installed "$p"; then
		echo "# $p is installed already: not replacing the user's packages"
		skip_rest "a vtrace package is installed already"
	fi
done
if [ "$(dpkg --print-architecture)" != amd64 ]; then
	skip_rest "the kernels under test are amd64's"
fi

# The rig's own choice of 6.1 and 6.12 kernels (fetch-kernel.sh).
kver() { (. "$("$rig/fetch-kernel.sh" "$1")/env" && echo "$KVER"); }
old_kver=$(kver 6.1-amd64) && new_kver=$(kver 6.12-amd64) ||
	skip_rest "cannot resolve the rig's 6.1 and 6.12 kernels"

# The packages, from the tracked (or trackable) files only.
git -C "$top" ls-files -z --cached --others --exclude-standard |
	tar -C "$top" --null -T - -cf - | tar -C "$work/src/vtrace" -xf -
(cd "$work/src/vtrace" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1
rc=$?
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
debs=()
for p in "${packages[@]}"; do
	f=$(ls "$work/src/${p}_${version}_"*.deb 2>/dev/null)
	[ -f "$f" ] && debs+=("$f")
done
[ "$rc" = 0 ] || quote "$work/build.log"
result $((rc || ${#debs[@]} != ${#packages[@]})) \
	"dpkg-buildpackage builds ${#debs[@]} of ${#packages[@]} packages"
[ "${#debs[@]}" = "${#packages[@]}" ] || skip_rest "no packages to install"

lintian --fail-on none "$work/src/"*.changes >"$work/lintian.log" 2>&1
sed -i '/running with root privileges/d' "$work/lintian.log"
sed 's/^/# lintian: /' "$work/lintian.log"
problems=$(grep -cE '^(E|W): ' "$work/lintian.log")
result "$problems" "lintian: $problems errors and warnings"

# Every package this run adds (the kernels' headers, what they pull in) is
# purged again at the end, and what depmod wrote for kernels that were not
# here before.
list_installed() {
	dpkg-query -W -f '${db:Status-Abbrev} ${Package}:${Architecture}\n' |
		sed -n 's/^ii  *//p' | sort
}
list_installed >"$work/installed-before"
kernels_before=$(ls /lib/modules 2>/dev/null)
[ -d /lib/modules ] && modules_dir_before=1 || modules_dir_before=
added() { list_installed | comm -13 "$work/installed-before" -; }
cleanup() {
	local k
	apt-get purge -y "${packages[@]}" >/dev/null 2>&1
	mapfile -t extra < <(added)
	[ "${#extra[@]}" = 0 ] || apt-get purge -y "${extra[@]}" >>"$work/purge.log" 2>&1
	for k in $(ls /lib/modules 2>/dev/null); do
		grep -qx "$k" <<<"$kernels_before" && continue
		rm -f "/lib/modules/$k"/modules.*
		find "/lib/modules/$k" -depth -type d -empty -delete
	done
	[ -n "$modules_dir_before" ] || rmdir /lib/modules 2>/dev/null
}
trap cleanup EXIT
install_kernel_headers() {
	apt-get install -y --no-install-recommends "linux-headers-$1" \
		>>"$work/apt.log" 2>&1
}

install_kernel_headers "$old_kver" &&
	apt-get install -y --no-install-recommends "${debs[@]}" >>"$work/apt.log" 2>&1
rc=$?
dkms status vtrace >"$work/dkms-status" 2>&1
sed 's/^/# dkms status: /' "$work/dkms-status"
[ "$rc" = 0 ] || quote "$work/apt.log"
grep -qx "vtrace/$version, $old_kver, x86_64: installed" "$work/dkms-status"
result $((rc || $?)) "apt-get install ./*.deb: DKMS builds vtrace.ko for $old_kver"

# printk_refs KO: how often the module calls the trace_printk() helpers.
printk_refs() {
	[ -f "$1" ] || { echo missing; return; }
	nm "$1" | grep -cE '__trace_(b?printk|puts|bputs)'
}
# The debug variant, on the older kernel (the newer one's build is the
# default one the guest loads).
dkms_ko="/var/lib/dkms/vtrace/$version/$old_kver/x86_64/module/vtrace.ko"
default_refs=$(printk_refs "$dkms_ko")
sed -i 's/^VTRACE_DEBUG=.*/VTRACE_DEBUG=1/' /etc/default/vtrace-dkms &&
	dkms build --force -m vtrace -v "$version" -k "$old_kver" >"$work/dkms.log" 2>&1
rc=$?
debug_refs=$(printk_refs "$dkms_ko")
sed -i 's/^VTRACE_DEBUG=.*/VTRACE_DEBUG=0/' /etc/default/vtrace-dkms
echo "# trace_printk references: $default_refs with VTRACE_DEBUG=0, $debug_refs with 1"
[ "$rc" = 0 ] && [ "$default_refs" = 0 ] && [ "$debug_refs" != missing ] &&
	[ "$debug_refs" -gt 0 ]
rc=$?
[ "$rc" = 0 ] || quote "$work/dkms.log"
result "$rc" "VTRACE_DEBUG in /etc/default/vtrace-dkms selects the trace_printk build"

# A kernel upgrade: DKMS's kernel hook builds for the new kernel's headers.
if installed "linux-headers-$new_kver"; then
	dpkg-reconfigure "linux-headers-$new_kver" >>"$work/apt.log" 2>&1
else
	install_kernel_headers "$new_kver"
fi
rc=$?
dkms status vtrace >"$work/dkms-status" 2>&1
sed 's/^/# dkms status: /' "$work/dkms-status"
[ "$rc" = 0 ] || quote "$work/apt.log"
grep -qx "vtrace/$version, $new_kver, x86_64: installed" "$work/dkms-status" &&
	ls "/lib/modules/$new_kver/updates/dkms/vtrace.ko"* >/dev/null
result $((rc || $?)) "installing the $new_kver headers: DKMS builds vtrace.ko for it"

"$top/debian/tests/smoke" >"$work/smoke.log" 2>&1
rc=$?
if [ "$rc" = 0 ]; then quote "$work/smoke.log" 1; else quote "$work/smoke.log"; fi
result "$rc" "debian/tests/smoke passes on the installed packages"

# The module the 6.12 guest loads: DKMS's installed build.
ko=$(ls "/lib/modules/$new_kver/updates/dkms/vtrace.ko"* 2>/dev/null | head -n 1)
case $ko in
*.xz) xz -dc "$ko" >"$dkms_out/vtrace.ko" ;;
*.ko) cp "$ko" "$dkms_out/vtrace.ko" ;;
*) false ;;
esac
rc=$?
modinfo -F vermagic "$dkms_out/vtrace.ko" 2>/dev/null | grep -q "^$new_kver "
result $((rc || $?)) "DKMS's $new_kver vtrace.ko kept for the 6.12 guest"

# Everything the packages installed, before they go.
for p in "${packages[@]}"; do dpkg -L "$p"; done 2>/dev/null | sort -u >"$work/files"
apt-get purge -y "${packages[@]}" >"$work/purge.log" 2>&1
rc=$?
left=0
while read -r f; do
	[ -f "$f" ] || [ -L "$f" ] || continue
	echo "# left behind: $f"
	left=$((left + 1))
done <"$work/files"
for f in /var/lib/dkms/vtrace /usr/src/vtrace-"$version" /etc/vtrace \
	/etc/default/vtrace-dkms /lib/modules/*/updates/dkms/vtrace.ko*; do
	[ -e "$f" ] || continue
	echo "# left behind: $f"
	left=$((left + 1))
done
[ "$rc" = 0 ] || quote "$work/purge.log"
echo "# $(wc -l <"$work/files") paths were installed"
result $((rc || left)) "apt-get purge leaves $left files behind"

pulled_in=$(added | wc -l)
cleanup
trap - EXIT
left=$(added)
[ -z "$left" ] || sed 's/^/# still installed: /' <<<"$left"
for k in $(ls /lib/modules 2>/dev/null); do
	grep -qx "$k" <<<"$kernels_before" || { echo "# left: /lib/modules/$k"; left+=x; }
done
[ -z "$left" ]
result $? "the $pulled_in packages the kernel headers pulled in are purged again"
