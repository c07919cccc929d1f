// SPDX-License-Identifier: LGPL-2.1
/*
 * A recording's state shared by its threads: the failures and their
 * messages, why it stops, and the settings the kernel refused.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>

#include "record/recorder-local.h"

void vt_rec_error(struct vtrace_recorder *rec, const char *fmt, ...)
{
	size_t len, size = sizeof(rec->err_text);
	va_list ap;

	pthread_mutex_lock(&rec->lock);
	len = strlen(rec->err_text);
	if (len > rec->err_from && len + 2 < size) {
		strcpy(rec->err_text + len, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	if (len < size)
		vsnprintf(rec->err_text + len, size - len, fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&rec->lock);
}

/* A public call begins: vtrace_recorder_strerror() tells its failures. */
void vt_rec_new_call(struct vtrace_recorder *rec)
{
	pthread_mutex_lock(&rec->lock);
	rec->err_from = strlen(rec->err_text);
	pthread_mutex_unlock(&rec->lock);
}

void vt_rec_set_reason(struct vtrace_recorder *rec,
		       enum vtrace_stop_reason reason)
{
	int none = VTRACE_STOP_NONE;

	if (atomic_compare_exchange_strong(&rec->reason, &none, reason))
		eventfd_write(rec->wake_fd, 1);
}

double vt_rec_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

void vt_rec_fail(struct vtrace_recorder *rec, int err)
{
	pthread_mutex_lock(&rec->lock);
	if (!rec->fail_err)
		rec->fail_err = err;
	pthread_mutex_unlock(&rec->lock);
	vt_rec_set_reason(rec, VTRACE_STOP_FAILED);
}

/*
 * Notes a setting the kernel refused that the recording chose itself
 * (@err a refusal: vt_knob_refusal()); @value is what is in force.
 */
void vt_rec_note_not_set(struct vtrace_recorder *rec, const char *knob, int err,
			 const char *value)
{
	struct vtrace_knob_not_set *n;

	if (rec->nr_not_set == MAX_NOT_SET)
		return;
	n = &rec->not_set[rec->nr_not_set++];
	n->knob = knob;
	n->err = err;
	n->missing = err == -ENOENT || err == -EOPNOTSUPP;
	snprintf(n->value, sizeof(n->value), "%s", value);
}

bool vt_rec_sink_failed(struct vtrace_recorder *rec)
{
	bool failed;

	pthread_mutex_lock(&rec->lock);
	failed = rec->sink_err;
	pthread_mutex_unlock(&rec->lock);
	return failed;
}
