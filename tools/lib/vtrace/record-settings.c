// SPDX-License-Identifier: LGPL-2.1
/*
 * Saving and restoring the tracefs settings a recording changes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

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
	if (s->buffer_percent < 0)
		return -EOPNOTSUPP;
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
	if (s->subbuf_kb < 0)
		return -EOPNOTSUPP;
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
	s->tracing_on_changed = true;
	return write_number(s->instance, "tracing_on", on);
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
	free(s->buffer_kb);
	free(s->clock);
	s->buffer_kb = NULL;
	s->clock = NULL;
}
