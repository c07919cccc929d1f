/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What vtrace record holds, shared by its three files: the options
 * (record-options.c), the recording (cmd-record.c) and what is printed of
 * it once it ends (record-summary.c).
 */
#ifndef _VTRACE_CMD_RECORD_H
#define _VTRACE_CMD_RECORD_H

#include <stdbool.h>

#include <vtrace/categories.h>
#include <vtrace/journal.h>
#include <vtrace/net-sink.h>
#include <vtrace/record-plan.h>
#include <vtrace/recorder.h>
#include <vtrace/ring-reader.h>
#include <vtrace/selection.h>
#include <vtrace/session.h>
#include <vtrace/trace-config.h>

#include "cli-config.h"

/*
 * The options. What to record is @tc, the config model: the flags' values
 * (@flags) over --config's.
 */
struct record_opts {
	struct cli_config_flags flags;
	const char *output; /* the file, or -N's HOST:PORT */
	const char *format; /* NULL: by the output's extension */
	/* -N: a collector instead of a file (@output is its HOST:PORT) */
	bool net;
	struct vtrace_net_opts net_opts;
	bool net_transport_given;
	const char *clock;
	/* The readers' policy; @policy_given: by --keep-all or --light. */
	enum vtrace_reader_policy policy;
	bool policy_given;
	int rt_prio;
	/* Single-tenant settings asked for (VTRACE_SESSION_CPUMASK, ...). */
	unsigned int session_features;
	enum vtrace_reader_path path;
	bool background;
	bool keep_buffer;
	bool verbose;
	bool json;
	const char *config;
	enum vtrace_config_format config_format;
	bool strict;
	bool force;
	struct vtrace_trace_config tc;
};

/**
 * struct record - what vtrace record holds around the recording
 * @opts: the options
 * @vi: the instance recorded
 * @session: the recording's session
 * @journal: what the recording changes, for undoing it after a SIGKILL
 * @aborted: why a higher-priority exclusive session aborted it, or NULL
 * @files_status: the exit status of a failure to load the category files
 * @map: the category files, which @sel and @events borrow names from
 * @sel: the events asked for
 * @events: those of them on this kernel, to record
 * @nr_events: entries in @events
 * @copying_markers: the top level's trace_marker is copied into @vi
 * @holding_tags: this recording holds its userspace atrace tags
 * @plan: what the config asks of the recorder (record-plan.h)
 * @rec: the recording
 * @progress_shown: the progress line is on the terminal
 * @progress_at: when it was last written, in seconds of the recording
 */
struct record {
	const struct record_opts *opts;
	struct vtrace_instance *vi;
	struct vtrace_session *session;
	struct vtrace_journal *journal;
	const char *aborted;
	int files_status;
	struct vtrace_catmap map;
	struct vtrace_selection sel;
	const char **events;
	size_t nr_events;
	bool copying_markers;
	bool holding_tags;
	struct vtrace_record_plan plan;
	struct vtrace_recorder *rec;
	bool progress_shown;
	double progress_at;
};

int record_parse_args(int argc, char **argv, struct record_opts *o);
int record_make_config(struct record_opts *o);
void record_print_not_set(const struct record *r);
void record_print_summary(const struct record *r);

#endif /* _VTRACE_CMD_RECORD_H */
