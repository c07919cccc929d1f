// SPDX-License-Identifier: LGPL-2.1
/*
 * Event formats loaded as a recording needs them (see event-formats.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include <vtrace/file-io.h>
#include "tracefs/event-formats.h"

static int add_event(struct tep_handle *tep, const char *system,
		     const char *name)
{
	char *buf;
	int size;
	enum tep_errno err;

	if (tep_find_event_by_name(tep, system, name))
		return 0;
	buf = tracefs_event_file_read(NULL, system, name, "format", &size);
	if (!buf)
		return -errno ?: -EIO;
	err = tep_parse_event(tep, buf, size, system);
	free(buf);
	/* An event whose format libtraceevent cannot parse is left out. */
	return err == TEP_ERRNO__MEM_ALLOC_FAILED ? -ENOMEM : 0;
}

static int add_system(struct tep_handle *tep, const char *system)
{
	char **names = tracefs_system_events(NULL, system);
	int i, ret = 0;

	if (!names)
		return -ENOENT;
	for (i = 0; names[i] && ret != -ENOMEM; i++)
		ret = add_event(tep, system, names[i]);
	tracefs_list_free(names);
	return ret == -ENOMEM ? ret : 0;
}

/**
 * vt_formats_init - a tep with the page header and the ftrace system
 * @fm: set up
 * @instance: the instance recorded (NULL: the top level); must stay
 *	valid until vt_formats_release()
 *
 * Return: 0, -EIO when tracefs has no page header, or -ENOMEM.
 */
int vt_formats_init(struct vt_formats *fm, struct tracefs_instance *instance)
{
	enum tep_endian order;
	char *header;
	int size, ret;

	memset(fm, 0, sizeof(*fm));
	fm->instance = instance;
	fm->tep = tep_alloc();
	if (!fm->tep)
		return -ENOMEM;
	/* The ring buffer is in this machine's order and word size. */
	order = tep_is_local_bigendian(fm->tep) ? TEP_BIG_ENDIAN :
						  TEP_LITTLE_ENDIAN;
	tep_set_file_bigendian(fm->tep, order);
	tep_set_long_size(fm->tep, sizeof(long));
	tep_set_page_size(fm->tep, getpagesize());
	header = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!header)
		return -EIO;
	ret = tep_parse_header_page(fm->tep, header, size, sizeof(long));
	free(header);
	if (ret)
		return -EIO;
	ret = add_system(fm->tep, "ftrace");
	return ret == -ENOMEM ? ret : 0;
}

/* The events enabled in the instance: set_event's "SYSTEM:EVENT" lines. */
static int add_enabled(struct vt_formats *fm)
{
	char *text, *line, *colon, *save = NULL;
	int ret = 0;

	text = tracefs_instance_file_read(fm->instance, "set_event", NULL);
	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line && ret != -ENOMEM;
	     line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		ret = add_event(fm->tep, line, colon + 1);
	}
	free(text);
	return ret == -ENOMEM ? ret : 0;
}

/**
 * vt_formats_need - load more formats for an event id not in the tep
 * @fm: the formats
 * @id: the event id met
 *
 * Loads the events enabled in the instance, the first time; the next
 * time, or when that does not bring @id, every format.
 * Return: 0 when @id is known now, -ENOENT when it is not (a record of an
 * event removed since, or garbage), -ENOMEM.
 */
int vt_formats_need(struct vt_formats *fm, int id)
{
	int ret;

	if (!fm->added_enabled) {
		fm->added_enabled = true;
		ret = add_enabled(fm);
		if (ret)
			return ret;
		if (tep_find_event(fm->tep, id))
			return 0;
	}
	if (!fm->added_all) {
		fm->added_all = true;
		if (tracefs_fill_local_events(NULL, fm->tep, NULL))
			return -ENOMEM;
	}
	return tep_find_event(fm->tep, id) ? 0 : -ENOENT;
}

/**
 * vt_formats_need_printk - load what trace_printk()'s text needs
 * @fm: the formats
 *
 * The kernel's symbols (for %pS and the like) and its printk formats
 * (the format strings bprint records point at), once. Either may be
 * unreadable (kptr_restrict, an old kernel): the text then shows
 * addresses.
 * Return: 0 or -ENOMEM.
 */
int vt_formats_need_printk(struct vt_formats *fm)
{
	size_t len;
	char *text;
	int ret = 0;

	if (fm->added_printk)
		return 0;
	fm->added_printk = true;
	text = vtrace_read_file("/proc/kallsyms", &len);
	if (text && tep_parse_kallsyms(fm->tep, text))
		ret = -ENOMEM;
	free(text);
	text = tracefs_instance_file_read(NULL, "printk_formats", NULL);
	if (text && tep_parse_printk_formats(fm->tep, text))
		ret = -ENOMEM;
	free(text);
	return ret;
}

/**
 * vt_formats_release - free the formats
 * @fm: the formats; left empty
 */
void vt_formats_release(struct vt_formats *fm)
{
	tep_free(fm->tep);
	memset(fm, 0, sizeof(*fm));
}
