# SPDX-License-Identifier: GPL-2.0
#
# How to build libvtrace.a. Included by this directory's Makefile, by
# tools/vtrace/Makefile and by selftests/vtrace_tool/Makefile, so that each
# builds the library with its own compiler and flags (native, static, cross).
#
# In:  LIBVTRACE_OUT  directory for the objects and the archive
#      CC, AR, CFLAGS, CPPFLAGS, LDFLAGS, STATIC=1 (or -static in LDFLAGS)
# Out: LIBVTRACE (the archive), LIBVTRACE_CFLAGS, LIBVTRACE_LIBS

LIBVTRACE_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

# One line per source file, by room (Documentation/vtrace-design.rst).
LIBVTRACE_SRCS += base/diag.c
LIBVTRACE_SRCS += base/event-name.c
LIBVTRACE_SRCS += base/file-io.c
LIBVTRACE_SRCS += base/json.c
LIBVTRACE_SRCS += base/output-file.c
LIBVTRACE_SRCS += base/proc-ident.c
LIBVTRACE_SRCS += base/state-dir.c
LIBVTRACE_SRCS += base/state-lock.c
LIBVTRACE_SRCS += base/strtab.c
LIBVTRACE_SRCS += base/test-phase.c
LIBVTRACE_SRCS += tracefs/event-formats.c
LIBVTRACE_SRCS += tracefs/events.c
LIBVTRACE_SRCS += tracefs/instance.c
LIBVTRACE_SRCS += tracefs/journal.c
LIBVTRACE_SRCS += tracefs/record-settings.c
LIBVTRACE_SRCS += tracefs/selection.c
LIBVTRACE_SRCS += tracefs/tracing-dir.c
LIBVTRACE_SRCS += ring/ring-reader.c
LIBVTRACE_SRCS += ring/ring-reader-mmap.c
LIBVTRACE_SRCS += ring/ring-reader-tracefs.c
LIBVTRACE_SRCS += ring/ring-stats.c
LIBVTRACE_SRCS += ring/subbuf.c
LIBVTRACE_SRCS += record/plan.c
LIBVTRACE_SRCS += record/recorder.c
LIBVTRACE_SRCS += record/results.c
LIBVTRACE_SRCS += record/setup.c
LIBVTRACE_SRCS += record/state.c
LIBVTRACE_SRCS += record/wakeups.c
LIBVTRACE_SRCS += record/watchdog.c
LIBVTRACE_SRCS += record/session.c
LIBVTRACE_SRCS += record/session-admit.c
LIBVTRACE_SRCS += record/thread-sched.c
LIBVTRACE_SRCS += probes/packet.c
LIBVTRACE_SRCS += probes/probes.c
LIBVTRACE_SRCS += probes/process-stats.c
LIBVTRACE_SRCS += probes/sys-stats.c
LIBVTRACE_SRCS += probes/sys-stats-counters.c
LIBVTRACE_SRCS += probes/system-info.c
LIBVTRACE_SRCS += sinks/format.c
LIBVTRACE_SRCS += sinks/sink.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-cpu-data.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-sink.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-head.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-meta.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-recover.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-writer.c
LIBVTRACE_SRCS += sinks/perfetto/perfetto-convert.c
LIBVTRACE_SRCS += sinks/perfetto/perfetto-events.c
LIBVTRACE_SRCS += sinks/perfetto/perfetto-reader.c
LIBVTRACE_SRCS += sinks/perfetto/perfetto-sink.c
LIBVTRACE_SRCS += sinks/perfetto/perfetto-translate.c
LIBVTRACE_SRCS += sinks/perfetto/perfetto-writer.c
LIBVTRACE_SRCS += sinks/perfetto/pb-read.c
LIBVTRACE_SRCS += sinks/perfetto/protobuf.c
LIBVTRACE_SRCS += sinks/dmtrace/dmtrace-reader.c
LIBVTRACE_SRCS += sinks/dmtrace/dmtrace-writer.c
LIBVTRACE_SRCS += sinks/net/net-sink.c
LIBVTRACE_SRCS += sinks/net/tracecmd-msg.c
LIBVTRACE_SRCS += config/pbtxt.c
LIBVTRACE_SRCS += config/proto-decode.c
LIBVTRACE_SRCS += config/proto-msg.c
LIBVTRACE_SRCS += config/trace-config.c
LIBVTRACE_SRCS += config/trace-config-write.c
LIBVTRACE_SRCS += config/trace-config-schema.c
LIBVTRACE_SRCS += categories/atrace-categories.c
LIBVTRACE_SRCS += categories/atrace-tags.c
LIBVTRACE_SRCS += categories/categories.c
LIBVTRACE_SRCS += analysis/counter-events.c
LIBVTRACE_SRCS += analysis/marker-parse.c
LIBVTRACE_SRCS += analysis/profile.c
LIBVTRACE_SRCS += analysis/slices.c

ifeq ($(STATIC),1)
LDFLAGS += -static
endif
ifneq ($(filter -static,$(LDFLAGS)),)
PKG_CONFIG_STATIC := --static
endif
PKG_CONFIG ?= pkg-config
LIBVTRACE_PKGS := libtracefs libtraceevent
# Units that read trace.dat through libtracecmd, which Debian ships shared
# only, and the checks of a file before it does: not in static builds.
ifeq ($(PKG_CONFIG_STATIC),)
LIBVTRACE_SRCS += analysis/slices-tracedat.c
LIBVTRACE_SRCS += sinks/convert.c
LIBVTRACE_SRCS += sinks/dmtrace/dmtrace-convert.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-check.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-check-v7.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-decompress.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-input.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-walk.c
LIBVTRACE_SRCS += sinks/tracedat/tracedat-stream.c
LIBVTRACE_PKGS += libtracecmd
# The check of version 7 files decompresses their sections.
LIBVTRACE_PKGS += libzstd
LIBVTRACE_DEFINES := -DVTRACE_HAVE_TRACECMD
endif

# The public API is included as <vtrace/NAME.h> (include/vtrace/); a
# room's private headers as "ROOM/NAME.h", by the library itself and by
# unit tests of its internals only (LIBVTRACE_PRIVATE_CFLAGS).
LIBVTRACE_CFLAGS := -I$(LIBVTRACE_DIR)/include \
	-I$(LIBVTRACE_DIR)/../atrace/include -D_GNU_SOURCE= \
	$(shell $(PKG_CONFIG) --cflags $(LIBVTRACE_PKGS))
LIBVTRACE_PRIVATE_CFLAGS := -iquote $(LIBVTRACE_DIR)
LIBVTRACE_LIBS := $(shell $(PKG_CONFIG) --libs $(PKG_CONFIG_STATIC) $(LIBVTRACE_PKGS))
# tracedat-stream.c and the recorder run threads.
LIBVTRACE_LIBS += -lpthread
# libtraceevent loads its plugins with dlopen().
ifneq ($(PKG_CONFIG_STATIC),)
LIBVTRACE_LIBS += -ldl
endif

LIBVTRACE_WARNINGS := -Wall -Wextra -Wno-unused-parameter -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wformat=2

LIBVTRACE_OBJS := $(patsubst %.c,$(LIBVTRACE_OUT)/%.o,$(LIBVTRACE_SRCS))
LIBVTRACE := $(LIBVTRACE_OUT)/libvtrace.a
LIBVTRACE_DEPS := $(LIBVTRACE_OBJS:.o=.d)
# For programs built from the library's sources directly (the sanitizer
# and fuzzer builds of selftests/vtrace_tool).
LIBVTRACE_HDRS := $(wildcard $(LIBVTRACE_DIR)/include/vtrace/*.h \
	$(LIBVTRACE_DIR)/*/*.h $(LIBVTRACE_DIR)/*/*/*.h)

# Rebuild everything when the compiler or its flags change, so that a cross
# or static build in the same tree never links stale objects.
LIBVTRACE_BUILD_ID := $(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(LIBVTRACE_LIBS)
LIBVTRACE_STAMP := $(LIBVTRACE_OUT)/.build-flags

$(LIBVTRACE_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(LIBVTRACE_BUILD_ID)' | cmp -s - $@ || \
		echo '$(LIBVTRACE_BUILD_ID)' > $@

# -MMD: each object depends on the headers it includes, found by the
# compiler, so a changed header rebuilds exactly its users.
$(LIBVTRACE_OUT)/%.o: $(LIBVTRACE_DIR)/%.c $(LIBVTRACE_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LIBVTRACE_WARNINGS) $(LIBVTRACE_CFLAGS) \
		$(LIBVTRACE_PRIVATE_CFLAGS) $(LIBVTRACE_DEFINES) $(CPPFLAGS) \
		-MMD -MP -c -o $@ $<

-include $(LIBVTRACE_DEPS)

$(LIBVTRACE): $(LIBVTRACE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

.PHONY: FORCE
FORCE:
