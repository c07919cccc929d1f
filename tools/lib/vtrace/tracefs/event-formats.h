/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Event formats loaded as a recording needs them.
 *
 * A sink that decodes events as it reads them needs the formats of the
 * events recorded, not of every event the kernel has:
 * tracefs_local_events() parses all of them and /proc/kallsyms, which
 * costs more CPU than seconds of recording. Here a tep starts with the
 * page header and the ftrace system (markers, trace_printk()), and takes
 * more formats when a record of an unknown event is met: first those of
 * the events enabled in the instance, then, for an event enabled later,
 * all. The symbols and printk formats are loaded only for
 * trace_printk()'s text, their one user.
 */
#ifndef _VTRACE_EVENT_FORMATS_H
#define _VTRACE_EVENT_FORMATS_H

#include <stdbool.h>

struct tep_handle;
struct tracefs_instance;

/**
 * struct vt_formats - a tep that grows as records need it
 * @tep: the formats loaded so far
 * @instance: the instance recorded (NULL: the top level)
 * @added_enabled: the events enabled in @instance were loaded
 * @added_all: every format was loaded
 * @added_printk: the symbols and printk formats were loaded
 */
struct vt_formats {
	struct tep_handle *tep;
	struct tracefs_instance *instance;
	bool added_enabled;
	bool added_all;
	bool added_printk;
};

int vt_formats_init(struct vt_formats *fm, struct tracefs_instance *instance);
int vt_formats_need(struct vt_formats *fm, int id);
int vt_formats_need_printk(struct vt_formats *fm);
void vt_formats_release(struct vt_formats *fm);

#endif /* _VTRACE_EVENT_FORMATS_H */
