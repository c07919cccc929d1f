# SPDX-License-Identifier: GPL-2.0
#
# How to build libvtrace-atrace. Included by this directory's Makefile
# (the installed static and shared libraries), by tools/vtrace/Makefile and
# by the selftests, so that each builds it with its own compiler and flags.
#
# In:  LIBATRACE_OUT  directory for the objects and archives
#      CC, AR, CFLAGS, CPPFLAGS
#      LIBATRACE_WITH_STATE_DIR=0 when the program also links libvtrace.a,
#      which has the state directory's code already
# Out: LIBATRACE (the archive), LIBATRACE_SO (the shared library),
#      LIBATRACE_CFLAGS, LIBATRACE_LIBS

LIBATRACE_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
LIBATRACE_WITH_STATE_DIR ?= 1

# One line per source file.
LIBATRACE_SRCS += marker.c
LIBATRACE_SRCS += tagfile-map.c
LIBATRACE_SRCS += thread.c
# From the base room both libraries share (tools/lib/vtrace/base/): the
# one definition of the state directory.
LIBATRACE_BASE_SRCS := $(if $(filter 1,$(LIBATRACE_WITH_STATE_DIR)),state-dir.c)

LIBATRACE_CFLAGS := -I$(LIBATRACE_DIR)/include
LIBATRACE_LIBS := -lpthread

LIBATRACE_WARNINGS := -Wall -Wextra -Wno-unused-parameter -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wformat=2

LIBATRACE_OBJS := $(patsubst %.c,$(LIBATRACE_OUT)/%.o,$(LIBATRACE_SRCS)) \
	$(patsubst %.c,$(LIBATRACE_OUT)/base-%.o,$(LIBATRACE_BASE_SRCS))
LIBATRACE := $(LIBATRACE_OUT)/libvtrace-atrace.a
LIBATRACE_SONAME := libvtrace-atrace.so.0
LIBATRACE_SO := $(LIBATRACE_OUT)/$(LIBATRACE_SONAME)
LIBATRACE_DEPS := $(LIBATRACE_OBJS:.o=.d)

# Objects are position independent: the same ones make both libraries.
LIBATRACE_BUILD_FLAGS = $(CFLAGS) -fPIC \
	$(LIBATRACE_WARNINGS) -D_GNU_SOURCE= -I$(LIBATRACE_DIR)/include \
	-I$(LIBATRACE_DIR)/../vtrace/include \
	$(LIBATRACE_DEFINES) $(CPPFLAGS)

LIBATRACE_BUILD_ID := $(CC) $(LIBATRACE_BUILD_FLAGS)
LIBATRACE_STAMP := $(LIBATRACE_OUT)/.build-flags

$(LIBATRACE_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(LIBATRACE_BUILD_ID)' | cmp -s - $@ || \
		echo '$(LIBATRACE_BUILD_ID)' > $@

$(LIBATRACE_OUT)/%.o: $(LIBATRACE_DIR)/%.c $(LIBATRACE_STAMP)
	$(CC) $(LIBATRACE_BUILD_FLAGS) -MMD -MP -c -o $@ $<

$(LIBATRACE_OUT)/base-%.o: $(LIBATRACE_DIR)/../vtrace/base/%.c \
		$(LIBATRACE_STAMP)
	$(CC) $(LIBATRACE_BUILD_FLAGS) -MMD -MP -c -o $@ $<

-include $(LIBATRACE_DEPS)

$(LIBATRACE): $(LIBATRACE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(LIBATRACE_SO): $(LIBATRACE_OBJS) $(LIBATRACE_DIR)/libvtrace-atrace.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(LIBATRACE_SONAME) \
		-Wl,--version-script=$(LIBATRACE_DIR)/libvtrace-atrace.map \
		-o $@ $(LIBATRACE_OBJS) $(LIBATRACE_LIBS)

.PHONY: FORCE
FORCE:
