// SPDX-License-Identifier: GPL-2.0
/*
 * The metadata of a recording alone, as a trace.dat begins, for
 * trace-cmd listen (the network sink sends it before the CPU data).
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "sinks/tracedat/tracedat-local.h"

/*
 * The whole header in one buffer: a collector puts the data section
 * after it. Nothing is written to a file, so td has no fd.
 */
static int build_head(struct vt_tracedat *td, struct out_buf *b,
		      const char *const *events)
{
	int ret;

	vt_td_add_file_header(td, b);
	if (b->err)
		return b->err;
	b->data[0] = TRACEDAT_MAGIC[0];
	ret = vt_td_add_header_file(td, b, "header_page");
	if (!ret)
		ret = vt_td_add_header_file(td, b, "header_event");
	if (!ret)
		ret = vt_td_add_event_formats(td, b, events);
	if (ret)
		return ret;
	vt_td_add_kallsyms(b);
	vt_td_add_printk_formats(b);
	vt_td_add_cmdlines(td, b);
	vt_td_buf_add_u32(b, td->ncpus);
	vt_td_add_options(td, b, false);
	if (b->err)
		return set_error(td, b->err, "building the header");
	return 0;
}

int vtrace_tracedat_head(const struct vt_tracedat_opts *opts, char **data,
			 size_t *len, char *err, size_t err_len)
{
	struct out_buf b = { 0 };
	struct vt_tracedat td = {
		.fd = -1,
		.ncpus = opts->ncpus,
		.page_size = opts->page_size,
		.instance = opts->instance,
	};
	int ret;

	*data = NULL;
	*len = 0;
	if (!vt_td_valid_opts(opts))
		return -EINVAL;
	pthread_mutex_init(&td.err.lock, NULL);
	td.clock = tracefs_get_clock(opts->instance);
	ret = td.clock ? build_head(&td, &b, opts->events) : -ENOMEM;
	if (ret) {
		snprintf(err, err_len, "%s",
			 td.err.text[0] ? td.err.text : strerror(-ret));
		free(b.data);
	} else {
		*data = b.data;
		*len = b.len;
	}
	free(td.clock);
	pthread_mutex_destroy(&td.err.lock);
	return ret;
}
