// SPDX-License-Identifier: LGPL-2.1
/*
 * Validation of tracefs event and instance names.
 *
 * A category file entry becomes the path events/<group>/<event>/enable, so an
 * entry must never be able to reach anything else: no empty parts, no "." or
 * "..", no further '/', and only the characters tracepoint names are made of
 * (TRACE_SYSTEM names may contain '-', as in "xhci-hcd"; event names may start
 * with a digit, as in "systrace/0").
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <vtrace/event-name.h>

static const char group_hint[] =
	"whole groups are not supported: list the group's events one per line";

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static int name_error(struct vtrace_name_error *err, size_t offset,
		      const char *reason, const char *hint)
{
	err->offset = offset;
	err->reason = reason;
	err->hint = hint;
	return -EINVAL;
}

/*
 * Check one path component of @len bytes at @part; @base is its offset in
 * the whole name, @what names the component in messages.
 */
static int check_part(const char *part, size_t len, size_t base,
		      const char *empty_reason, struct vtrace_name_error *err)
{
	size_t i;

	if (!len)
		return name_error(err, base, empty_reason, NULL);
	if (len == 1 && part[0] == '.')
		return name_error(err, base, "'.' is not a name", NULL);
	if (len == 2 && part[0] == '.' && part[1] == '.')
		return name_error(err, base, "'..' is not a name", NULL);
	for (i = 0; i < len; i++) {
		if (part[i] == '*' || part[i] == '?' || part[i] == '[')
			return name_error(err, base + i,
					  "wildcards are not supported",
					  group_hint);
		if (!is_name_char(part[i]))
			return name_error(
				err, base + i,
				"character not used in tracepoint names (allowed: A-Z a-z 0-9 _ -)",
				NULL);
	}
	if (len > VTRACE_EVENT_PART_MAX)
		return name_error(err, base + VTRACE_EVENT_PART_MAX,
				  "name longer than 255 characters", NULL);
	return 0;
}

/**
 * vtrace_event_name_check - validate a "group/event" name
 * @name: the name, not necessarily NUL-terminated
 * @len: its length in bytes
 * @err: filled in with the offset and reason of the first problem
 *
 * Return: 0 when @name is a well-formed group/event, -EINVAL otherwise.
 */
int vtrace_event_name_check(const char *name, size_t len,
			    struct vtrace_name_error *err)
{
	const char *slash = memchr(name, '/', len);
	const char *event, *extra;
	size_t group_len, event_len;
	int ret;

	if (!slash) {
		ret = check_part(name, len, 0, "empty event name", err);
		if (ret)
			return ret;
		return name_error(err, 0, "not in group/event form",
				  group_hint);
	}

	group_len = slash - name;
	ret = check_part(name, group_len, 0, "empty group name", err);
	if (ret)
		return ret;

	event = slash + 1;
	event_len = len - group_len - 1;
	if (!event_len || (event_len == 1 && event[0] == '*'))
		return name_error(err, group_len + 1, "missing event name",
				  group_hint);
	extra = memchr(event, '/', event_len);
	if (extra)
		return name_error(err, extra - name,
				  "extra '/' after the event name", NULL);
	return check_part(event, event_len, group_len + 1, "empty event name",
			  err);
}

/**
 * vtrace_instance_name_check - validate a tracefs instance name
 * @name: NUL-terminated name, as given to --instance
 * @err: filled in with the offset and reason of the first problem
 *
 * Instance names become instances/<name>; besides the event name characters
 * they may contain '.', but not first: no ".", "..", hidden directory or
 * "..." (which tools listing instances skip or take for a path), and no
 * '-' first either (which every command line takes for an option).
 *
 * Return: 0 when valid, -EINVAL otherwise.
 */
int vtrace_instance_name_check(const char *name, struct vtrace_name_error *err)
{
	size_t len = strlen(name);
	size_t i;

	if (!len)
		return name_error(err, 0, "empty instance name", NULL);
	for (i = 0; i < len; i++)
		if (!is_name_char(name[i]) && name[i] != '.')
			return name_error(
				err, i,
				"character not allowed in instance names (allowed: A-Z a-z 0-9 _ - .)",
				NULL);
	if (name[0] == '.' || name[0] == '-')
		return name_error(
			err, 0,
			"an instance name starts with a letter, a digit or '_'",
			NULL);
	if (len > VTRACE_EVENT_PART_MAX)
		return name_error(err, VTRACE_EVENT_PART_MAX,
				  "name longer than 255 characters", NULL);
	return 0;
}
