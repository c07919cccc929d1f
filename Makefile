# SPDX-License-Identifier: GPL-2.0
#
# Convenience wrapper.  The module itself is built by Kbuild through the
# standard out-of-tree invocation, which this file only forwards to:
#
#	make -C <kernel headers> M=$PWD [ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-]
#
# Targets:
#	all (default)	vtrace.ko against KDIR, and the vtrace helper
#	module		vtrace.ko only (VTRACE_DEBUG=1 for the trace_printk build)
#	tools		tools/vtrace/vtrace only
#	dtbs		device-tree overlays for boards (dts/*.dtbo)
#	demo		boot a VM with the module and its simulator, show the events
#	check		every test: host, then the default rig kernels (every kernel
#			line, both arches); ends "N passed, N failed"
#	check-all	the same on every rig kernel and arch
#	check-packages	build the Debian packages, install them (DKMS builds
#			the module), test and purge them (make check runs it)
#	lint		the static checks (tools/rig/lint.sh; make check runs them too)
#	bench		reader benchmarks: the host's tracefs, trace.dat readers
#			(report, convert), libvtrace-atrace's
#			marker cost, then the burst in a guest
#	install		the helper, its man page and example category files, and
#			libvtrace-atrace (header, static and shared library,
#			pkg-config file); PREFIX=DIR, DESTDIR=

KDIR ?= /lib/modules/$(shell uname -r)/build

all: module tools

module:
	@test -d "$(KDIR)" || { echo "KDIR=$(KDIR) does not exist:" \
		"install the kernel headers or pass KDIR=<headers dir>" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(if $(VTRACE_DEBUG),VTRACE_DEBUG=1) modules

tools:
	$(MAKE) -C tools/vtrace

dtbs:
	$(MAKE) -C dts

demo:
	tools/rig/demo.sh

check:
	tools/rig/check.sh

check-all:
	tools/rig/check.sh --all

check-packages:
	tools/rig/check-packages.sh

lint:
	tools/rig/lint.sh

bench: tools
	tools/bench/record-bench.sh
	tools/bench/lossless-sweep.sh
	tools/bench/lossless-sweep.sh -L marker -P 0
	tools/bench/net-bench.sh
	tools/bench/convert-bench.sh
	tools/bench/perfetto-bench.sh
	tools/bench/disturb-bench.sh
	tools/bench/probes-bench.sh
	$(MAKE) -s -C selftests/vtrace_atrace bench
	tools/rig/setup.sh
	tools/rig/run-guest.sh --bench 6.12-amd64

install:
	$(MAKE) -C tools/vtrace install
	$(MAKE) -C tools/lib/atrace install

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	$(MAKE) -C tools/vtrace clean
	$(MAKE) -C tools/lib/atrace clean
	$(MAKE) -C dts clean

.PHONY: all module tools dtbs demo check check-all check-packages lint bench install clean
