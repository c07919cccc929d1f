#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-guest.sh [--demo|--bench] TARGET - build vtrace.ko (default and debug builds),
# the helper and every selftests/ directory for TARGET's kernel and arch, pack
# them into a busybox initramfs, boot the Debian kernel under QEMU (TCG) and
# check the console.  TARGET: one of fetch-kernel.sh's (6.12-amd64, 6.12-arm64,
# 6.1-amd64, 5.10-amd64, 5.10-arm64, 7.3-amd64, 7.3-arm64).
# VTRACE_SELFTESTS="vtrace ..." limits the selftests/ directories built and
# run (default: all of them); an entry DIR:PROG runs only that program of
# DIR (check_guest_artifacts.sh included).  VTRACE_GUEST_MODULE=KO tests that vtrace.ko
# (the one DKMS built, check-packages.sh) instead of building the default
# one; the console check then asserts that the guest loaded it.
#
# Without --demo, the guest runs the kselftests and the result of the console
# check is printed by console-check.sh; the exit status is non-zero on any
# failure.  --bench runs tools/bench/guest-burst-bench.sh instead and prints
# its table.  Every initramfs has Debian's trace-cmd in /usr/bin.
# Work files go to .cache/rig/TARGET/.

set -euo pipefail

# Called from "make check", the makes below would see MAKELEVEL > 0, and
# kselftest's lib.mk then leaves OUTPUT empty and builds the tests into /.
unset MAKELEVEL MAKEFLAGS MFLAGS

mode=tests
case "${1:-}" in
--demo | --bench)
	mode=${1#--}
	shift
	;;
esac
target=${1:?usage: run-guest.sh [--demo|--bench] TARGET}
rig=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$rig/../.." && pwd)
work="$top/.cache/rig/$target"
guest_timeout=${VTRACE_GUEST_TIMEOUT:-2400}

run_start=$SECONDS
kdir_env=$("$rig/fetch-kernel.sh" "$target")/env
# shellcheck source=/dev/null
. "$kdir_env"
export ARCH CROSS_COMPILE
# Extra make arguments the kernel's headers need here (fetch-kernel.sh).
read -r -a kmake <<<"${KMAKEFLAGS:-}"

log() { echo "run-guest[$target]: $*" >&2; }

# One run per target at a time: a second one waits instead of deleting the
# first one's build trees.
mkdir -p "$top/.cache/rig"
exec 9>"$work.lock"
flock 9

rm -rf "$work/src" "$work/src-debug" "$work/stage"
mkdir -p "$work" "$work/stage/vtrace/debug" "$work/stage/vtrace/bin" \
	"$work/stage/vtrace/selftests"
stage="$work/stage"

# Build from copies so that several targets and the debug variant never share
# object files, and the source tree stays clean.  Only the sources are
# copied (what git tracks or would track), never objects of earlier builds.
copy_tree() {
	mkdir -p "$2"
	git -C "$1" ls-files -z --cached --others --exclude-standard |
		tar -C "$1" --null -T - -cf - | tar -C "$2" -xf -
	# ... plus the kselftest framework links setup.sh made (ignored by git).
	cp -P "$1"/selftests/{lib.mk,kselftest.h,kselftest_harness.h,kselftest} \
		"$2/selftests/"
}
copy_tree "$top" "$work/src"
copy_tree "$top" "$work/src-debug"

: >"$work/build.log"
if [ -n "${VTRACE_GUEST_MODULE:-}" ]; then
	log "vtrace.ko for $KVER: $VTRACE_GUEST_MODULE"
	cp "$VTRACE_GUEST_MODULE" "$stage/vtrace/vtrace.ko"
	export VTRACE_MODULE_SHA256
	VTRACE_MODULE_SHA256=$(sha256sum <"$VTRACE_GUEST_MODULE" | cut -d' ' -f1)
else
	log "building vtrace.ko for $KVER"
	make -s -C "$KDIR" "${kmake[@]}" M="$work/src" modules \
		>>"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
	cp "$work/src/vtrace.ko" "$stage/vtrace/vtrace.ko"
fi
make -s -C "$KDIR" "${kmake[@]}" M="$work/src-debug" VTRACE_DEBUG=1 modules \
	>>"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
cp "$work/src-debug/vtrace.ko" "$stage/vtrace/debug/vtrace.ko"

# Userspace for the guest is linked statically: the initramfs has no libc.
# For arm64 the libraries come from Debian's arm64 packages, unpacked by
# fetch-arm64-libs.sh, which prints the pkg-config settings to use them
# (and where it unpacked the arm64 trace-cmd, for the initramfs).
if [ "$ARCH" = arm64 ]; then
	arm64_env=$("$rig/fetch-arm64-libs.sh")
	eval "$arm64_env"
fi
export LDFLAGS=-static

if [ -f "$work/src/tools/vtrace/Makefile" ]; then
	log "building the vtrace helper"
	make -s -C "$work/src/tools/vtrace" STATIC=1 >>"$work/build.log" 2>&1 ||
		{ cat "$work/build.log" >&2; exit 1; }
	cp "$work/src/tools/vtrace/vtrace" "$stage/vtrace/bin/vtrace"
	cp -r "$work/src/tools/vtrace/examples" "$stage/vtrace/examples"
fi

# Real devices' format files (../shared/ref, reference data, not part of the
# project; VTRACE_REF_DIR overrides), for selftests/vtrace/event_format as
# /vtrace/ref; without them that test skips.
ref_dir=${VTRACE_REF_DIR:-$top/../shared/ref}
for set in pixel-raven-5.10 perfetto-synthetic; do
	if [ -d "$ref_dir/$set/events" ]; then
		mkdir -p "$stage/vtrace/ref/$set"
		cp -r "$ref_dir/$set/events" "$stage/vtrace/ref/$set/"
	fi
done

# The arm64 guest, the longest run (TCG), leaves two tests of what no
# architecture changes to the x86_64 guests and the host: the session
# arbitration and the recovery of killed recordings are userspace logic
# over tracefs instances and file systems. Each is reported skipped whole.
arch_skip=
[ "$ARCH" = arm64 ] &&
	arch_skip="vtrace_tool:sessions_test.sh vtrace_tool:recovery_test.sh"

# only_some DIR - VTRACE_SELFTESTS names programs of DIR, not all of it;
# listed ENTRY - it names DIR:PROG.
only_some() { tr " " "\n" <<<"${VTRACE_SELFTESTS:-}" | grep -q -- "^$1:"; }
listed() { tr " " "\n" <<<"${VTRACE_SELFTESTS:-}" | grep -qxF -- "$1"; }

: > "$stage/vtrace/tests.list"
for mk in "$work"/src/selftests/*/Makefile; do
	dir=$(dirname "$mk")
	name=$(basename "$dir")
	if [ -n "${VTRACE_SELFTESTS:-}" ] &&
		! grep -qw -- "$name" <<<"$VTRACE_SELFTESTS"; then
		continue
	fi
	log "building selftests/$name"
	make -s -C "$dir" >>"$work/build.log" 2>&1 &&
		make -s -C "$dir" install INSTALL_PATH="$stage/vtrace/selftests/$name" \
			>>"$work/build.log" 2>&1 ||
		{ cat "$work/build.log" >&2; exit 1; }
	timeout_s=45
	if [ -f "$dir/settings" ]; then
		timeout_s=$(sed -n 's/^timeout=//p' "$dir/settings")
	fi
	make -s -C "$dir" emit_tests | while read -r entry; do
		entry=$name:${entry#*:}
		if only_some "$name" && ! listed "$entry"; then
			continue
		elif tr " " "\n" <<<"$arch_skip" | grep -qxF -- "$entry"; then
			echo "$entry skip"
		else
			echo "$entry $timeout_s"
		fi
	done >>"$stage/vtrace/tests.list"
done

log "packing the initramfs"
mkdir -p "$stage/bin" "$stage/sbin" "$stage/proc" "$stage/sys" "$stage/dev" \
	"$stage/tmp" "$stage/root"
cp "$BUSYBOX" "$stage/bin/busybox"
# The host's busybox-static is the same Debian build as the guest's, so its
# applet list holds for either arch.  The list names busybox itself: linking
# it to itself would make /init fail with ELOOP.
for applet in $(busybox --list); do
	[ "$applet" = busybox ] || ln -sf busybox "$stage/bin/$applet"
done
install -m 0755 "$rig/guest-init.sh" "$stage/init"
# Debian's trace-cmd, for the tests that run "trace-cmd listen" or read
# files back in the guest and for --bench: the host's own on x86_64, the
# arm64 package's (fetch-arm64-libs.sh) on arm64, with the dynamic loader
# and the shared libraries it needs, at the paths Debian has them.
case "$ARCH" in
x86_64) tc_root='' triplet=x86_64-linux-gnu ;;
arm64) tc_root=$VTRACE_ARM64_TRACE_CMD_ROOT triplet=aarch64-linux-gnu ;;
esac
# add_elf FILE - FILE (its path in the guest) from $tc_root, then its
# program interpreter and, recursively, the libraries it needs.
add_elf() {
	local file=$1 interp lib dir
	[ -e "$stage$file" ] && return
	mkdir -p "$stage$(dirname "$file")"
	cp -L "$tc_root$file" "$stage$file"
	interp=$(readelf -l "$tc_root$file" |
		sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
	[ -z "$interp" ] || add_elf "$interp"
	for lib in $(readelf -d "$tc_root$file" |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		for dir in /lib/$triplet /usr/lib/$triplet; do
			[ -e "$tc_root$dir/$lib" ] || continue
			add_elf "$dir/$lib"
			continue 2
		done
		log "$file needs $lib, which is not in ${tc_root:-/}"
		exit 1
	done
}
add_elf /usr/bin/trace-cmd
# "trace-cmd listen" names a client by getnameinfo(), which fails without
# a hosts file to look in (no DNS in the guest): loopback's name only.
mkdir -p "$stage/etc"
echo "127.0.0.1 localhost" >"$stage/etc/hosts"
echo "hosts: files" >"$stage/etc/nsswitch.conf"
if [ "$mode" = bench ]; then
	mkdir -p "$stage/vtrace/bench"
	cp "$top/tools/bench/guest-burst-bench.sh" "$stage/vtrace/bench/"
fi
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initramfs.gz"

# x86_64 runs its vCPUs on one host thread: under multi-threaded TCG the
# kernel's int3-based text patching (every static key an event flips, e.g.
# sched_switch for cmdline recording) raced with the other vCPU's translated
# code and oopsed on "int3" in __schedule in about one run of three.
# arm64's "max" CPU has pointer authentication, which Debian's kernels use
# in every function: TCG computes the architected QARMA5 cipher slowly,
# its implementation-defined one quickly, and both sign and check every
# pointer alike.
case "$ARCH" in
x86_64) machine=(-M pc -accel tcg,thread=single -cpu max) ;;
arm64) machine=(-M virt -accel tcg -cpu max,pauth-impdef=on) ;;
esac

machine+=(-m 1024 -smp 2)

# arm64 boots with dts/vtrace-sim.dtso applied to the virt machine's own
# device tree, as a board's boot loader applies an overlay: the module's
# "vtrace,sim" driver binds to it (selftests/vtrace/of_sim).  The nodes it
# must refuse come with it (selftests/vtrace/of_sim_refused.dtso).
dtb=()
if [ "$ARCH" = arm64 ]; then
	log "applying dts/vtrace-sim.dtso to the virt machine's device tree"
	refused="$work/src/selftests/vtrace/of_sim_refused"
	make -s -C "$work/src/dts" >>"$work/build.log" 2>&1 &&
		dtc -@ -I dts -O dtb -o "$refused.dtbo" "$refused.dtso" \
			>>"$work/build.log" 2>&1 &&
		"$QEMU" "${machine[@]}" -machine dumpdtb="$work/virt.dtb" \
			-nographic </dev/null >>"$work/build.log" 2>&1 &&
		fdtoverlay -i "$work/virt.dtb" -o "$work/virt-vtrace.dtb" \
			"$work/src/dts/vtrace-sim.dtbo" "$refused.dtbo" \
			>>"$work/build.log" 2>&1 ||
		{ cat "$work/build.log" >&2; exit 1; }
	dtb=(-dtb "$work/virt-vtrace.dtb")
fi

log "fetched, built and packed in $((SECONDS - run_start)) s"
boot_start=$SECONDS
log "booting $KVER ($mode)"
console="$work/console.log"
set +e
timeout "$guest_timeout" "$QEMU" "${machine[@]}" "${dtb[@]}" \
	-nographic -no-reboot -kernel "$VMLINUZ" -initrd "$work/initramfs.gz" \
	-append "console=$CONSOLE panic=-1 loglevel=3 vtrace.mode=$mode" \
	</dev/null | stdbuf -oL tr -d '\r' | tee "$console" |
	if [ "$mode" = demo ]; then cat; else cat >/dev/null; fi
qemu_rc=${PIPESTATUS[0]}
set -e
if [ "$qemu_rc" = 124 ]; then
	log "guest timed out after ${guest_timeout}s"
	echo "### vtrace-error guest timed out after ${guest_timeout}s" >>"$console"
fi

# A second, short boot without debugfs: the module still loads, and its
# events and simulator still work (selftests/vtrace/no_debugfs).
if [ "$mode" = tests ] && [ -x "$stage/vtrace/selftests/vtrace/no_debugfs" ]; then
	log "booting $KVER with debugfs=off"
	set +e
	timeout 300 "$QEMU" "${machine[@]}" "${dtb[@]}" \
		-nographic -no-reboot -kernel "$VMLINUZ" -initrd "$work/initramfs.gz" \
		-append "console=$CONSOLE panic=-1 loglevel=3 debugfs=off vtrace.mode=no_debugfs" \
		</dev/null | stdbuf -oL tr -d '\r' >>"$console"
	qemu_rc=${PIPESTATUS[0]}
	set -e
	if [ "$qemu_rc" = 124 ]; then
		echo "### vtrace-error debugfs=off guest timed out after 300s" >>"$console"
	fi
fi

log "guest boots took $((SECONDS - boot_start)) s"
[ "$mode" = demo ] && exit 0
if [ "$mode" = bench ]; then
	sed -n '/^### vtrace-bench BEGIN/,/^### vtrace-bench END/p' "$console" |
		sed '1d;$d'
	grep -q '^### vtrace-bench END' "$console"
	exit
fi

# Files the tests left in the guest's $VTRACE_OUT came back base64-framed on
# the console.  Decode them and let each selftests directory check them with
# the host's tools (Debian's trace-cmd, the dynamically linked helper): its
# check_guest_artifacts.sh DIR TARGET prints KTAP, judged with the guest's.
artifacts="$work/artifacts"
rm -rf "$artifacts"
mkdir -p "$artifacts"
awk -v dir="$artifacts" '
/^### vtrace-artifact BEGIN / { cmd = "base64 -d > \"" dir "/" $4 "\""; next }
/^### vtrace-artifact END/ { close(cmd); cmd = ""; next }
cmd != "" { print | cmd }
' "$console"
# The host's own helper (with report), in a folder of its own and without
# the guest build's static, cross and pkg-config settings exported above.
mkdir -p "$work/host-tools"
env -u LDFLAGS -u ARCH -u CROSS_COMPILE -u PKG_CONFIG_LIBDIR \
	make -s -C "$top/tools/vtrace" OUTPUT="$work/host-tools/" \
	>>"$work/build.log" 2>&1 ||
	echo "### vtrace-error building the host's tools/vtrace failed" >>"$console"
export VTRACE="$work/host-tools/vtrace"
# And KernelShark's loader, for the same checks.
env -u LDFLAGS -u ARCH -u CROSS_COMPILE -u PKG_CONFIG_LIBDIR \
	make -s -C "$top/selftests/vtrace_tool" OUTPUT="$work/host-tools/kshark" \
	"$work/host-tools/kshark/kshark_load" >>"$work/build.log" 2>&1 ||
	echo "### vtrace-error building the host's kshark_load failed" >>"$console"
export KSHARK_LOAD="$work/host-tools/kshark/kshark_load"
for check in "$top"/selftests/*/check_guest_artifacts.sh; do
	[ -x "$check" ] || continue
	dir=$(basename "$(dirname "$check")")
	if [ -n "${VTRACE_SELFTESTS:-}" ] &&
		! grep -qw -- "$dir" <<<"$VTRACE_SELFTESTS"; then
		continue
	fi
	name="$dir:$(basename "$check")"
	if only_some "$dir" && ! listed "$name"; then
		continue
	fi
	{
		echo "### vtrace-test BEGIN $name"
		start=$SECONDS
		rc=0
		"$check" "$artifacts" "$target" 2>&1 || rc=$?
		echo "### vtrace-test END $name rc=$rc s=$((SECONDS - start))"
	} >>"$console"
done

"$rig/console-check.sh" "$target" "$console"
