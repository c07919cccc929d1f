// SPDX-License-Identifier: LGPL-2.1
/*
 * vtrace convert to dmtrace; see dmtrace-convert.h. The records come
 * one CPU after another: the feed sorts them before the slices are
 * built (slices-tracedat.h), and the whole method trace is written at
 * the finish, when every slice is known.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vtrace/dmtrace-convert.h>
#include <vtrace/sink.h>
#include <vtrace/slices-tracedat.h>

struct dmtrace_conv {
	struct vt_slices_feed *feed;
	int fd;
	char msg[256];
};

/**
 * conv_create - start a method trace written to @fd
 * @writer: set to the writer
 * @fd: the output file (not closed)
 * @in: the input's formats
 *
 * Return: 0, or -ENOMEM.
 */
static int conv_create(void **writer, int fd, const struct vt_convert_input *in)
{
	struct dmtrace_conv *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	c->fd = fd;
	ret = vtrace_slices_feed_new(&c->feed, in->tep);
	if (ret) {
		free(c);
		return ret;
	}
	*writer = c;
	return 0;
}

/**
 * conv_add_record - offer one record
 * @writer: the writer
 * @record: a record of the input, checked by the caller
 *
 * Return: 0, or -ENOMEM.
 */
static int conv_add_record(void *writer, struct tep_record *record)
{
	struct dmtrace_conv *c = writer;
	int ret = vtrace_slices_feed_record(c->feed, record);

	if (ret)
		snprintf(c->msg, sizeof(c->msg), "%s", strerror(-ret));
	return ret;
}

/**
 * conv_finish - build the slices and write the method trace
 * @writer: the writer
 *
 * Return: 0, or a negative errno (conv_strerror() says why).
 */
static int conv_finish(void *writer)
{
	struct dmtrace_conv *c = writer;
	struct vt_dmtrace_write_stats stats;
	struct vt_slices s;
	FILE *f = NULL;
	int fd, ret;

	ret = vtrace_slices_init(&s);
	if (!ret)
		ret = vtrace_slices_feed_finish(c->feed, &s);
	if (ret) {
		snprintf(c->msg, sizeof(c->msg), "%s", strerror(-ret));
		goto out;
	}
	fd = dup(c->fd);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		snprintf(c->msg, sizeof(c->msg), "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	ret = vtrace_dmtrace_write_stream(&s, f, f, &stats, c->msg,
					  sizeof(c->msg));
	if (fclose(f) && !ret) {
		ret = -errno;
		snprintf(c->msg, sizeof(c->msg), "%s", strerror(errno));
	}
out:
	vtrace_slices_free(&s);
	return ret;
}

/**
 * conv_strerror - why the writer last failed
 * @writer: the writer
 *
 * Return: the message.
 */
static const char *conv_strerror(void *writer)
{
	return ((struct dmtrace_conv *)writer)->msg;
}

/**
 * conv_free - release the writer
 * @writer: the writer
 */
static void conv_free(void *writer)
{
	struct dmtrace_conv *c = writer;

	vtrace_slices_feed_free(c->feed);
	free(c);
}

const struct vtrace_convert_ops vt_dmtrace_convert_ops = {
	.create = conv_create,
	.add_record = conv_add_record,
	.finish = conv_finish,
	.strerror = conv_strerror,
	.free = conv_free,
};

/**
 * vtrace_dmtrace_convert_split - a trace.dat's slices as a .key + .data pair
 * @in: the trace.dat
 * @out: the pair's name (a ".trace" ending is replaced, see
 *	vtrace_dmtrace_write())
 * @stats: filled in with what was written
 * @msg: set to why, on failure (naming the file)
 * @msg_size: size of @msg
 *
 * Return: 0, or a negative errno.
 */
int vtrace_dmtrace_convert_split(const char *in, const char *out,
				 struct vt_dmtrace_write_stats *stats,
				 char *msg, size_t msg_size)
{
	char why[256] = "";
	struct vt_slices s;
	int ret;

	ret = vtrace_slices_init(&s);
	if (!ret)
		ret = vtrace_slices_from_tracedat(&s, in, why, sizeof(why));
	if (ret) {
		snprintf(msg, msg_size, "%s", why);
	} else {
		ret = vtrace_dmtrace_write(&s, out, true, stats, why,
					   sizeof(why));
		if (ret)
			snprintf(msg, msg_size, "%s", why);
	}
	vtrace_slices_free(&s);
	return ret;
}
