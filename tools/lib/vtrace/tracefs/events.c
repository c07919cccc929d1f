// SPDX-License-Identifier: LGPL-2.1
/*
 * Enabling and disabling tracefs events through events/<group>/<event>/enable.
 *
 * The individual enable file is written rather than calling
 * tracefs_event_enable(), which matches group and event as regular
 * expressions: vtrace switches exactly the events it was given.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include <vtrace/event-name.h>
#include <vtrace/events.h>
#include <vtrace/instance.h>

/* Split "group/event" into two NUL-terminated copies in @buf. */
static int split_name(const char *name, char *buf, size_t size,
		      const char **group, const char **event)
{
	char *slash;

	if (strlen(name) >= size)
		return -EINVAL;
	strcpy(buf, name);
	slash = strchr(buf, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	*group = buf;
	*event = slash + 1;
	return 0;
}

#define NAME_BUF_SIZE (2 * VTRACE_EVENT_PART_MAX + 2)

/**
 * vtrace_event_state - whether an event exists and is enabled
 * @vi: instance to look in
 * @name: "group/event"
 * @state: set to the event's state: %VTRACE_EVENT_ALWAYS_ON for an event
 *	with a format but no enable file
 *
 * Return: 0, -EINVAL for a name without '/', or the -errno of reading the
 * enable file.
 */
int vtrace_event_state(struct vtrace_instance *vi, const char *name,
		       enum vtrace_event_state *state)
{
	struct tracefs_instance *tfs = vtrace_instance_tracefs(vi);
	const char *group, *event;
	char buf[NAME_BUF_SIZE];
	char *value;
	int ret;

	ret = split_name(name, buf, sizeof(buf), &group, &event);
	if (ret)
		return ret;
	if (!tracefs_event_file_exists(tfs, group, event, "enable")) {
		*state =
			tracefs_event_file_exists(tfs, group, event, "format") ?
				VTRACE_EVENT_ALWAYS_ON :
				VTRACE_EVENT_MISSING;
		return 0;
	}
	errno = 0;
	value = tracefs_event_file_read(tfs, group, event, "enable", NULL);
	if (!value)
		return errno ? -errno : -EIO;
	/* "1", or "1*" when soft-enabled by a trigger: both are on. */
	*state = value[0] == '1' ? VTRACE_EVENT_ENABLED : VTRACE_EVENT_DISABLED;
	free(value);
	return 0;
}

static int event_write(struct vtrace_instance *vi, const char *name,
		       bool enable)
{
	const char *group, *event;
	char buf[NAME_BUF_SIZE];
	int ret;

	ret = split_name(name, buf, sizeof(buf), &group, &event);
	if (ret)
		return ret;
	errno = 0;
	if (tracefs_event_file_write(vtrace_instance_tracefs(vi), group, event,
				     "enable", enable ? "1" : "0") < 0)
		return errno ? -errno : -EIO;
	return 0;
}

/**
 * vtrace_events_restore - undo what vtrace_events_set() changed
 * @vi: instance the events were switched in
 * @changes: the array given to vtrace_events_set()
 * @nr: its length
 *
 * Every event marked changed is put back to its state before, in reverse
 * order, and unmarked. All are attempted even when one fails.
 *
 * Return: 0, or the -errno of the first failed write.
 */
int vtrace_events_restore(struct vtrace_instance *vi,
			  struct vtrace_event_change *changes, size_t nr)
{
	int ret = 0, err;

	while (nr--) {
		if (!changes[nr].changed)
			continue;
		err = event_write(vi, changes[nr].name,
				  changes[nr].before == VTRACE_EVENT_ENABLED);
		if (err && !ret)
			ret = err;
		if (!err)
			changes[nr].changed = false;
	}
	return ret;
}

/**
 * vtrace_events_set - enable or disable events, all or nothing
 * @vi: instance to work in
 * @changes: events to switch; before and changed are filled in
 * @nr: number of @changes
 * @enable: true to enable, false to disable
 * @failed: set to the index of the event whose write failed
 *
 * Events missing from tracefs are skipped (before is %VTRACE_EVENT_MISSING),
 * so are those always on (%VTRACE_EVENT_ALWAYS_ON: there is nothing to
 * write), events already in the wanted state are left alone. When a write fails,
 * every event this call switched is switched back before returning.
 *
 * Return: 0, or the -errno of the failed read or write (see @failed).
 */
int vtrace_events_set(struct vtrace_instance *vi,
		      struct vtrace_event_change *changes, size_t nr,
		      bool enable, size_t *failed)
{
	enum vtrace_event_state want = enable ? VTRACE_EVENT_ENABLED :
						VTRACE_EVENT_DISABLED;
	size_t i;
	int ret;

	for (i = 0; i < nr; i++)
		changes[i].changed = false;

	for (i = 0; i < nr; i++) {
		ret = vtrace_event_state(vi, changes[i].name,
					 &changes[i].before);
		if (!ret && (changes[i].before == VTRACE_EVENT_MISSING ||
			     changes[i].before == VTRACE_EVENT_ALWAYS_ON ||
			     changes[i].before == want))
			continue;
		if (!ret)
			ret = event_write(vi, changes[i].name, enable);
		if (ret) {
			*failed = i;
			vtrace_events_restore(vi, changes, i);
			return ret;
		}
		changes[i].changed = true;
	}
	return 0;
}

/**
 * vtrace_events_enabled - list the enabled events of an instance
 * @vi: instance
 * @names: set to a malloc'ed array of malloc'ed "group/event" strings
 * @nr: set to its length
 *
 * Reads the instance's set_event file, which the kernel keeps as the list
 * of enabled events: cheaper than reading thousands of enable files.
 *
 * Return: 0, -ENOMEM or the -errno of reading set_event.
 */
int vtrace_events_enabled(struct vtrace_instance *vi, char ***names, size_t *nr)
{
	char *text, *line, *save, *colon, **list = NULL, **grown;
	size_t count = 0;
	int ret = 0;

	errno = 0;
	text = tracefs_instance_file_read(vtrace_instance_tracefs(vi),
					  "set_event", NULL);
	if (!text && errno)
		return -errno;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '/';
		grown = realloc(list, (count + 1) * sizeof(*list));
		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		list = grown;
		list[count] = strdup(line);
		if (!list[count]) {
			ret = -ENOMEM;
			break;
		}
		count++;
	}
	free(text);
	if (ret) {
		while (count--)
			free(list[count]);
		free(list);
		return ret;
	}
	*names = list;
	*nr = count;
	return 0;
}

/**
 * vtrace_events_disable_all - disable every event of an instance
 * @vi: instance
 *
 * Return: 0, or the -errno of writing events/enable.
 */
int vtrace_events_disable_all(struct vtrace_instance *vi)
{
	errno = 0;
	if (tracefs_instance_file_write(vtrace_instance_tracefs(vi),
					"events/enable", "0") < 0)
		return errno ? -errno : -EIO;
	return 0;
}
