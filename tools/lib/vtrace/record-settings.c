// SPDX-License-Identifier: LGPL-2.1
/*
 * Saving and restoring the tracefs settings a recording changes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include <vtrace/journal.h>
#include <vtrace/record-settings.h>

static int errno_or(int fallback)
{
	return errno ? -errno : fallback;
}

static int write_number(struct tracefs_instance *instance, const char *file,
			long long value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", value);
	errno = 0;
	if (tracefs_instance_file_write(instance, file, buf) < 0)
		return errno_or(-EIO);
	return 0;
}

static long long read_kb(struct tracefs_instance *instance, const char *file,
			 bool *expanded)
{
	const char *mark;
	long long kb;
	char *buf;

	buf = tracefs_instance_file_read(instance, file, NULL);
	if (!buf)
		return -1;
	mark = strstr(buf, "expanded:");
	if (expanded)
		*expanded = mark;
	kb = strtoll(mark ? mark + strlen("expanded:") : buf, NULL, 10);
	free(buf);
	return kb;
}

/*
 * Each CPU's buffer_size_kb. Until tracing is first used the top level
 * buffer is kept minimal and shows "7 (expanded: 1408)": the size to put
 * back is the expanded one, which any use (ours included) turns it into.
 */
static void read_buffer_kb(struct vtrace_record_settings *s)
{
	bool expanded;
	char file[64];
	long long kb;
	int cpu;

	kb = read_kb(s->instance, "buffer_size_kb", &expanded);
	s->unexpanded = expanded;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb",
			 cpu);
		/* A CPU without a buffer (never online) keeps -1. */
		s->buffer_kb[cpu] = read_kb(s->instance, file, NULL);
		if (expanded && s->buffer_kb[cpu] >= 0)
			s->buffer_kb[cpu] = kb;
	}
}

/* Notes a number setting in the journal before it changes. */
static int journal_number(struct vtrace_record_settings *s, const char *file,
			  long long value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", value);
	return vtrace_journal_setting(s->journal, file, buf);
}

/**
 * vtrace_settings_save - read the settings of an instance
 * @instance: tracefs instance, NULL for the top level
 * @nr_cpus: CPUs whose buffer sizes to keep
 * @s: filled in; free with vtrace_settings_free()
 *
 * Return: 0 or a negative errno.
 */
int vtrace_settings_save(struct tracefs_instance *instance, int nr_cpus,
			 struct vtrace_record_settings *s)
{
	long long value;

	memset(s, 0, sizeof(*s));
	s->instance = instance;
	s->nr_cpus = nr_cpus;
	s->buffer_kb = calloc(nr_cpus, sizeof(*s->buffer_kb));
	if (!s->buffer_kb)
		return -ENOMEM;
	read_buffer_kb(s);
	errno = 0;
	s->clock = tracefs_get_clock(instance);
	if (!s->clock)
		return errno_or(-EIO);
	if (tracefs_instance_file_read_number(instance, "tracing_on", &value))
		return errno_or(-EIO);
	s->tracing_on = value;
	s->buffer_percent = -1;
	if (!tracefs_instance_file_read_number(instance, "buffer_percent",
					       &value))
		s->buffer_percent = value;
	s->subbuf_kb = -1;
	if (!tracefs_instance_file_read_number(instance,
					       "buffer_subbuf_size_kb", &value))
		s->subbuf_kb = value;
	return 0;
}

/**
 * vtrace_settings_set_buffer_kb - set every CPU's buffer_size_kb
 * @s: saved settings of the instance
 * @kb: new size per CPU
 *
 * Return: 0, or a negative errno (-EBUSY while the buffer is mapped).
 */
int vtrace_settings_set_buffer_kb(struct vtrace_record_settings *s,
				  long long kb)
{
	char file[64];
	int cpu, ret;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (s->buffer_kb[cpu] < 0)
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb",
			 cpu);
		ret = journal_number(s, file, s->buffer_kb[cpu]);
		if (ret)
			return ret;
	}
	s->buffer_changed = true;
	return write_number(s->instance, "buffer_size_kb", kb);
}

/**
 * vtrace_settings_set_clock - set trace_clock
 * @s: saved settings of the instance
 * @clock: a name listed in trace_clock
 *
 * Return: 0, or a negative errno (-EINVAL for a clock the kernel lacks).
 */
int vtrace_settings_set_clock(struct vtrace_record_settings *s,
			      const char *clock)
{
	int ret = vtrace_journal_setting(s->journal, "trace_clock", s->clock);

	if (ret)
		return ret;
	s->clock_changed = true;
	errno = 0;
	if (tracefs_instance_file_write(s->instance, "trace_clock", clock) < 0)
		return errno_or(-EIO);
	return 0;
}

/**
 * vtrace_settings_set_percent - set buffer_percent, the poll() watermark
 * @s: saved settings of the instance
 * @percent: 0..100
 *
 * Return: 0, -EOPNOTSUPP when the kernel has no buffer_percent, or a
 * negative errno.
 */
int vtrace_settings_set_percent(struct vtrace_record_settings *s, int percent)
{
	int ret;

	if (s->buffer_percent < 0)
		return -EOPNOTSUPP;
	ret = journal_number(s, "buffer_percent", s->buffer_percent);
	if (ret)
		return ret;
	s->percent_changed = true;
	return write_number(s->instance, "buffer_percent", percent);
}

/**
 * vtrace_settings_set_subbuf_kb - set buffer_subbuf_size_kb
 * @s: saved settings of the instance
 * @kb: sub-buffer size, rounded up by the kernel to a power of two pages
 *
 * This reallocates the ring buffer, emptying it: only while no reader has
 * it mapped.
 *
 * Return: 0, -EOPNOTSUPP when the kernel has no buffer_subbuf_size_kb
 * (before 6.8), or a negative errno.
 */
int vtrace_settings_set_subbuf_kb(struct vtrace_record_settings *s,
				  long long kb)
{
	int ret;

	if (s->subbuf_kb < 0)
		return -EOPNOTSUPP;
	ret = journal_number(s, "buffer_subbuf_size_kb", s->subbuf_kb);
	if (ret)
		return ret;
	s->subbuf_changed = true;
	return write_number(s->instance, "buffer_subbuf_size_kb", kb);
}

/**
 * vtrace_settings_set_tracing_on - switch writing to the buffer
 * @s: saved settings of the instance
 * @on: 1 or 0
 *
 * Return: 0 or a negative errno.
 */
int vtrace_settings_set_tracing_on(struct vtrace_record_settings *s, int on)
{
	int ret;

	if (!s->tracing_on_changed) {
		ret = journal_number(s, "tracing_on", s->tracing_on);
		if (ret)
			return ret;
	}
	s->tracing_on_changed = true;
	return write_number(s->instance, "tracing_on", on);
}

/* A file's contents without the trailing newline, or NULL. */
static char *read_setting(struct tracefs_instance *instance, const char *file)
{
	char *buf;
	size_t len;

	errno = 0;
	buf = tracefs_instance_file_read(instance, file, NULL);
	/* libtracefs returns NULL for an empty file too. */
	if (!buf)
		return errno ? NULL : strdup("");
	len = strlen(buf);
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return buf;
}

static int write_setting(struct tracefs_instance *instance, const char *file,
			 const char *value)
{
	errno = 0;
	if (tracefs_instance_file_write(instance, file, value) < 0)
		return errno_or(-EIO);
	return 0;
}

/**
 * vtrace_settings_set_cpumask - trace only on some CPUs
 * @s: saved settings
 * @mask: hex mask as tracing_cpumask takes it ("3", "ff,ffffffff")
 *
 * Return: 0 or a negative errno.
 */
int vtrace_settings_set_cpumask(struct vtrace_record_settings *s,
				const char *mask)
{
	int ret;

	if (!s->cpumask) {
		s->cpumask = read_setting(s->instance, "tracing_cpumask");
		if (!s->cpumask)
			return errno_or(-EIO);
		ret = vtrace_journal_setting(s->journal, "tracing_cpumask",
					     s->cpumask);
		if (ret)
			return ret;
	}
	return write_setting(s->instance, "tracing_cpumask", mask);
}

/**
 * vtrace_settings_set_event_pids - record only some threads' events
 * @s: saved settings
 * @pids: the threads (set_event_pid)
 * @nr: how many
 *
 * Return: 0 or a negative errno.
 */
int vtrace_settings_set_event_pids(struct vtrace_record_settings *s,
				   const pid_t *pids, size_t nr)
{
	size_t i, off = 0;
	char *list;
	int ret;

	if (!s->event_pids) {
		s->event_pids = read_setting(s->instance, "set_event_pid");
		if (!s->event_pids)
			return errno_or(-EIO);
		ret = vtrace_journal_setting(s->journal, "set_event_pid",
					     s->event_pids);
		if (ret)
			return ret;
	}
	list = malloc(nr * 12 + 1);
	if (!list)
		return -ENOMEM;
	list[0] = '\0';
	for (i = 0; i < nr; i++)
		off += sprintf(list + off, "%s%d", i ? " " : "", (int)pids[i]);
	/* Writing replaces the list (the file is opened with O_TRUNC). */
	ret = write_setting(s->instance, "set_event_pid", list);
	free(list);
	return ret;
}

/**
 * vtrace_settings_set_option - set a trace option
 * @s: saved settings
 * @option: "name" to set options/name, "noname" to clear it
 *
 * Return: 0, -ENOENT for an option this kernel does not have, or another
 * negative errno.
 */
int vtrace_settings_set_option(struct vtrace_record_settings *s,
			       const char *option)
{
	bool on = strncmp(option, "no", 2);
	const char *name = on ? option : option + 2;
	char file[300], **grown, *was;
	int ret;

	snprintf(file, sizeof(file), "options/%s", name);
	if (!tracefs_file_exists(s->instance, file))
		return -ENOENT;
	was = read_setting(s->instance, file);
	if (!was)
		return errno_or(-EIO);
	ret = vtrace_journal_setting(s->journal, file, was);
	if (ret) {
		free(was);
		return ret;
	}
	grown = realloc(s->options, (s->nr_options + 1) * sizeof(*grown));
	if (!grown) {
		free(was);
		return -ENOMEM;
	}
	s->options = grown;
	ret = asprintf(&grown[s->nr_options], "%s%s",
		       strcmp(was, "1") ? "no" : "", name);
	free(was);
	if (ret < 0)
		return -ENOMEM;
	s->nr_options++;
	return write_setting(s->instance, file, on ? "1" : "0");
}

/* tracing_cpumask, set_event_pid and options, as found; in reverse. */
static int restore_filters(struct vtrace_record_settings *s)
{
	char file[300];
	int ret = 0, err;
	bool on;

	while (s->nr_options) {
		char *opt = s->options[--s->nr_options];

		on = strncmp(opt, "no", 2);
		snprintf(file, sizeof(file), "options/%s", on ? opt : opt + 2);
		err = write_setting(s->instance, file, on ? "1" : "0");
		if (err && !ret)
			ret = err;
		free(opt);
	}
	if (s->event_pids) {
		/* An empty list is written as a truncation alone. */
		err = write_setting(s->instance, "set_event_pid",
				    *s->event_pids ? s->event_pids : "\n");
		if (err && !ret)
			ret = err;
		free(s->event_pids);
		s->event_pids = NULL;
	}
	if (s->cpumask) {
		err = write_setting(s->instance, "tracing_cpumask", s->cpumask);
		if (err && !ret)
			ret = err;
		free(s->cpumask);
		s->cpumask = NULL;
	}
	return ret;
}

/**
 * vtrace_settings_restore - put back every setting that was changed
 * @s: saved settings
 *
 * All are attempted even when one fails; tracing_on goes last so that the
 * buffer is not written to while it is being restored.
 * Return: 0, or the negative errno of the first failure.
 */
int vtrace_settings_restore(struct vtrace_record_settings *s)
{
	int ret = 0, err, cpu;
	char file[64];

	if (s->subbuf_changed) {
		err = write_number(s->instance, "buffer_subbuf_size_kb",
				   s->subbuf_kb);
		if (err && !ret)
			ret = err;
		s->subbuf_changed = false;
	}
	if (s->buffer_changed) {
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			if (s->buffer_kb[cpu] < 0)
				continue;
			snprintf(file, sizeof(file),
				 "per_cpu/cpu%d/buffer_size_kb", cpu);
			err = write_number(s->instance, file,
					   s->buffer_kb[cpu]);
			if (err && !ret)
				ret = err;
		}
		s->buffer_changed = false;
	}
	if (s->clock_changed) {
		errno = 0;
		if (tracefs_instance_file_write(s->instance, "trace_clock",
						s->clock) < 0 &&
		    !ret)
			ret = errno_or(-EIO);
		s->clock_changed = false;
	}
	if (s->percent_changed) {
		err = write_number(s->instance, "buffer_percent",
				   s->buffer_percent);
		if (err && !ret)
			ret = err;
		s->percent_changed = false;
	}
	err = restore_filters(s);
	if (err && !ret)
		ret = err;
	if (s->tracing_on_changed) {
		err = write_number(s->instance, "tracing_on", s->tracing_on);
		if (err && !ret)
			ret = err;
		s->tracing_on_changed = false;
	}
	return ret;
}

/**
 * vtrace_settings_free - release saved settings (restores nothing)
 * @s: saved settings
 */
void vtrace_settings_free(struct vtrace_record_settings *s)
{
	size_t i;

	free(s->buffer_kb);
	free(s->clock);
	free(s->cpumask);
	free(s->event_pids);
	for (i = 0; i < s->nr_options; i++)
		free(s->options[i]);
	free(s->options);
	s->buffer_kb = NULL;
	s->clock = NULL;
	s->cpumask = NULL;
	s->event_pids = NULL;
	s->options = NULL;
	s->nr_options = 0;
}
