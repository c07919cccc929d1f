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

# One line per source file.
LIBVTRACE_SRCS += atrace-categories.c
LIBVTRACE_SRCS += atrace-tags.c
LIBVTRACE_SRCS += categories.c
LIBVTRACE_SRCS += diag.c
LIBVTRACE_SRCS += dmtrace-reader.c
LIBVTRACE_SRCS += dmtrace-writer.c
LIBVTRACE_SRCS += event-name.c
LIBVTRACE_SRCS += events.c
LIBVTRACE_SRCS += file-io.c
LIBVTRACE_SRCS += instance.c
LIBVTRACE_SRCS += journal.c
LIBVTRACE_SRCS += json.c
LIBVTRACE_SRCS += marker-parse.c
LIBVTRACE_SRCS += net-sink.c
LIBVTRACE_SRCS += pbtxt.c
LIBVTRACE_SRCS += profile.c
LIBVTRACE_SRCS += proto-decode.c
LIBVTRACE_SRCS += proto-msg.c
LIBVTRACE_SRCS += output-file.c
LIBVTRACE_SRCS += perfetto-sink.c
LIBVTRACE_SRCS += perfetto-writer.c
LIBVTRACE_SRCS += protobuf.c
LIBVTRACE_SRCS += proc-ident.c
LIBVTRACE_SRCS += record-settings.c
LIBVTRACE_SRCS += recorder.c
LIBVTRACE_SRCS += ring-reader.c
LIBVTRACE_SRCS += ring-reader-mmap.c
LIBVTRACE_SRCS += ring-reader-tracefs.c
LIBVTRACE_SRCS += ring-stats.c
LIBVTRACE_SRCS += selection.c
LIBVTRACE_SRCS += session.c
LIBVTRACE_SRCS += sink.c
LIBVTRACE_SRCS += slices.c
LIBVTRACE_SRCS += state-dir.c
LIBVTRACE_SRCS += strtab.c
LIBVTRACE_SRCS += test-phase.c
LIBVTRACE_SRCS += thread-sched.c
LIBVTRACE_SRCS += trace-config.c
LIBVTRACE_SRCS += trace-config-schema.c
LIBVTRACE_SRCS += tracecmd-msg.c
LIBVTRACE_SRCS += tracedat-check.c
LIBVTRACE_SRCS += tracedat-cpu-data.c
LIBVTRACE_SRCS += tracedat-sink.c
LIBVTRACE_SRCS += tracedat-writer.c
LIBVTRACE_SRCS += tracing-dir.c

ifeq ($(STATIC),1)
LDFLAGS += -static
endif
ifneq ($(filter -static,$(LDFLAGS)),)
PKG_CONFIG_STATIC := --static
endif
PKG_CONFIG ?= pkg-config
LIBVTRACE_PKGS := libtracefs libtraceevent
# Units that read trace.dat through libtracecmd, which Debian ships shared
# only: not in static builds.
ifeq ($(PKG_CONFIG_STATIC),)
LIBVTRACE_SRCS += slices-tracedat.c
LIBVTRACE_SRCS += convert.c
LIBVTRACE_SRCS += dmtrace-convert.c
LIBVTRACE_SRCS += tracedat-input.c
LIBVTRACE_SRCS += tracedat-stream.c
LIBVTRACE_PKGS += libtracecmd
endif

# Headers are included as <vtrace/NAME.h>.
LIBVTRACE_CFLAGS := -I$(LIBVTRACE_DIR)/.. -I$(LIBVTRACE_DIR)/../atrace/include \
	-D_GNU_SOURCE= \
	$(shell $(PKG_CONFIG) --cflags $(LIBVTRACE_PKGS))
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
LIBVTRACE_HDRS := $(wildcard $(LIBVTRACE_DIR)/*.h) \
	$(LIBVTRACE_DIR)/../atrace/include/vtrace/atrace.h

# Rebuild everything when the compiler or its flags change, so that a cross
# or static build in the same tree never links stale objects.
LIBVTRACE_BUILD_ID := $(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(LIBVTRACE_LIBS)
LIBVTRACE_STAMP := $(LIBVTRACE_OUT)/.build-flags

$(LIBVTRACE_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(LIBVTRACE_BUILD_ID)' | cmp -s - $@ || \
		echo '$(LIBVTRACE_BUILD_ID)' > $@

$(LIBVTRACE_OUT)/%.o: $(LIBVTRACE_DIR)/%.c $(LIBVTRACE_HDRS) $(LIBVTRACE_STAMP)
	$(CC) $(CFLAGS) $(LIBVTRACE_WARNINGS) $(LIBVTRACE_CFLAGS) $(CPPFLAGS) \
		-c -o $@ $<

$(LIBVTRACE): $(LIBVTRACE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

.PHONY: FORCE
FORCE:
