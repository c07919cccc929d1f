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

/* Whether every CPU's buffer already has @kb, expanded. */
static bool buffer_holds(const struct vtrace_record_settings *s, long long kb)
{
	int cpu;

	if (s->unexpanded)
		return false;
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		if (s->buffer_kb[cpu] >= 0 && s->buffer_kb[cpu] != kb)
			return false;
	return true;
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

	if (!s->buffer_changed && buffer_holds(s, kb))
		return 0;
	for (cpu = 0; cpu < s->nr_cpus && !s->buffer_changed; cpu++) {
		if (s->buffer_kb[cpu] < 0)
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb",
			 cpu);
		ret = journal_number(s, file, s->buffer_kb[cpu]);
		if (ret)
			return ret;
	}
	ret = write_number(s->instance, "buffer_size_kb", kb);
	if (!ret)
		s->buffer_changed = true;
	return ret;
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
	int ret;

	if (!s->clock_changed && !strcmp(s->clock, clock))
		return 0;
	ret = vtrace_journal_setting(s->journal, "trace_clock", s->clock);
	if (ret)
		return ret;
	ret = write_setting(s->instance, "trace_clock", clock);
	if (!ret)
		s->clock_changed = true;
	return ret;
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
	if (!s->percent_changed && s->buffer_percent == percent)
		return 0;
	ret = journal_number(s, "buffer_percent", s->buffer_percent);
	if (ret)
		return ret;
	ret = write_number(s->instance, "buffer_percent", percent);
	if (!ret)
		s->percent_changed = true;
	return ret;
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
	if (!s->subbuf_changed && s->subbuf_kb == kb)
		return 0;
	ret = journal_number(s, "buffer_subbuf_size_kb", s->subbuf_kb);
	if (ret)
		return ret;
	ret = write_number(s->instance, "buffer_subbuf_size_kb", kb);
	if (!ret)
		s->subbuf_changed = true;
	return ret;
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
		if (s->tracing_on == on)
			return 0;
		ret = journal_number(s, "tracing_on", s->tracing_on);
		if (ret)
			return ret;
	}
	ret = write_number(s->instance, "tracing_on", on);
	if (!ret)
		s->tracing_on_changed = true;
	return ret;
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
	char *was = s->cpumask;
	int ret;

	if (!was) {
		was = read_setting(s->instance, "tracing_cpumask");
		if (!was)
			return errno_or(-EIO);
		ret = vtrace_journal_setting(s->journal, "tracing_cpumask",
					     was);
		if (ret) {
			free(was);
			return ret;
		}
	}
	ret = write_setting(s->instance, "tracing_cpumask", mask);
	if (!ret)
		s->cpumask = was;
	else if (was != s->cpumask)
		free(was);
	return ret;
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
	char *list, *was = s->event_pids;
	size_t i, off = 0;
	int ret;

	if (!was) {
		was = read_setting(s->instance, "set_event_pid");
		if (!was)
			return errno_or(-EIO);
		ret = vtrace_journal_setting(s->journal, "set_event_pid", was);
		if (ret) {
			free(was);
			return ret;
		}
	}
	list = malloc(nr * 12 + 1);
	if (!list) {
		if (was != s->event_pids)
			free(was);
		return -ENOMEM;
	}
	list[0] = '\0';
	for (i = 0; i < nr; i++)
		off += sprintf(list + off, "%s%d", i ? " " : "", (int)pids[i]);
	/* Writing replaces the list (the file is opened with O_TRUNC). */
	ret = write_setting(s->instance, "set_event_pid", list);
	free(list);
	if (!ret)
		s->event_pids = was;
	else if (was != s->event_pids)
		free(was);
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
	if (!strcmp(was, on ? "1" : "0")) {
		free(was);
		return 0;
	}
	grown = realloc(s->options, (s->nr_options + 1) * sizeof(*grown));
	ret = grown ? vtrace_journal_setting(s->journal, file, was) : -ENOMEM;
	if (grown)
		s->options = grown;
	if (!ret)
		ret = write_setting(s->instance, file, on ? "1" : "0");
	/* What is put back is the opposite of what was written. */
	if (!ret &&
	    asprintf(&grown[s->nr_options], "%s%s", on ? "no" : "", name) < 0)
		ret = -ENOMEM;
	else if (!ret)
		s->nr_options++;
	free(was);
	return ret;
}

/**
 * vtrace_knob_refusal - whether a write failed because the kernel refuses it
 * @err: the negative errno of a setter
 *
 * A knob the kernel does not have (yet), cannot take or will not let this
 * process change (a read-only mount, SELinux, lockdown): a recording that
 * only chose the value itself can go on with the kernel's.
 *
 * Return: true for -EPERM, -EACCES, -EROFS, -EINVAL, -ENOENT and
 * -EOPNOTSUPP.
 */
bool vtrace_knob_refusal(int err)
{
	switch (err) {
	case -EPERM:
	case -EACCES:
	case -EROFS:
	case -EINVAL:
	case -ENOENT:
	case -EOPNOTSUPP:
		return true;
	default:
		return false;
	}
}

/**
 * vtrace_settings_read_back - the value of a knob now, as the kernel has it
 * @s: saved settings of the instance
 * @knob: the file, relative to the instance
 * @value: set to its first line (the selected clock alone for trace_clock),
 *	or to "" when the file cannot be read
 * @len: room in @value
 */
void vtrace_settings_read_back(const struct vtrace_record_settings *s,
			       const char *knob, char *value, size_t len)
{
	char *buf;

	if (!strcmp(knob, "trace_clock"))
		buf = tracefs_get_clock(s->instance);
	else
		buf = read_setting(s->instance, knob);
	snprintf(value, len, "%.*s", buf ? (int)strcspn(buf, "\n") : 0,
		 buf ?: "");
	free(buf);
}

/* Notes the first knob that could not be put back, and what it holds. */
static void restore_failed(struct vtrace_record_settings *s, const char *knob,
			   const char *wanted, int err, int *ret)
{
	char now[VTRACE_KNOB_VALUE_MAX];

	if (*ret)
		return;
	*ret = err;
	vtrace_settings_read_back(s, knob, now, sizeof(now));
	snprintf(s->restore_error, sizeof(s->restore_error),
		 "cannot put %s back to %s: %s; it is left at %s", knob, wanted,
		 strerror(-err), *now ? now : "an unknown value");
}

static void restore_number(struct vtrace_record_settings *s, const char *knob,
			   long long value, int *ret)
{
	char buf[32];
	int err;

	err = write_number(s->instance, knob, value);
	snprintf(buf, sizeof(buf), "%lld", value);
	if (err)
		restore_failed(s, knob, buf, err, ret);
}

static void restore_string(struct vtrace_record_settings *s, const char *knob,
			   const char *value, int *ret)
{
	/* An empty list is written as a truncation alone. */
	int err = write_setting(s->instance, knob, *value ? value : "\n");

	if (err)
		restore_failed(s, knob, *value ? value : "\"\"", err, ret);
}

/* tracing_cpumask, set_event_pid and options, as found; in reverse. */
static void restore_filters(struct vtrace_record_settings *s, int *ret)
{
	char file[300];
	bool on;

	while (s->nr_options) {
		char *opt = s->options[--s->nr_options];

		on = strncmp(opt, "no", 2);
		snprintf(file, sizeof(file), "options/%s", on ? opt : opt + 2);
		restore_string(s, file, on ? "1" : "0", ret);
		free(opt);
	}
	if (s->event_pids) {
		restore_string(s, "set_event_pid", s->event_pids, ret);
		free(s->event_pids);
		s->event_pids = NULL;
	}
	if (s->cpumask) {
		restore_string(s, "tracing_cpumask", s->cpumask, ret);
		free(s->cpumask);
		s->cpumask = NULL;
	}
}

/**
 * vtrace_settings_restore - put back every setting that was changed
 * @s: saved settings
 *
 * Only what a setter changed is written. All are attempted even when one
 * fails; tracing_on goes last so that the buffer is not written to while
 * it is being restored.
 *
 * Return: 0, or the negative errno of the first failure, which
 * @s->restore_error then describes.
 */
int vtrace_settings_restore(struct vtrace_record_settings *s)
{
	char file[64];
	int ret = 0, cpu;

	s->restore_error[0] = '\0';
	if (s->subbuf_changed)
		restore_number(s, "buffer_subbuf_size_kb", s->subbuf_kb, &ret);
	s->subbuf_changed = false;
	for (cpu = 0; s->buffer_changed && cpu < s->nr_cpus; cpu++) {
		if (s->buffer_kb[cpu] < 0)
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb",
			 cpu);
		restore_number(s, file, s->buffer_kb[cpu], &ret);
	}
	s->buffer_changed = false;
	if (s->clock_changed)
		restore_string(s, "trace_clock", s->clock, &ret);
	s->clock_changed = false;
	if (s->percent_changed)
		restore_number(s, "buffer_percent", s->buffer_percent, &ret);
	s->percent_changed = false;
	restore_filters(s, &ret);
	if (s->tracing_on_changed)
		restore_number(s, "tracing_on", s->tracing_on, &ret);
	s->tracing_on_changed = false;
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
