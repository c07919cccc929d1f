/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options that say what to record (-c, -e, -f, -t, -b, -o,
 * --instance, --name, --exclusive-prio, --poll, --process-tree), one table for vtrace record and
 * vtrace config. Both turn them into the config model
 * (<vtrace/trace-config.h>), as perfetto_cmd turns its flags into a
 * TraceConfig: the flags and --config reach the recorder by one road, and
 * vtrace config prints what vtrace record would record.
 */
#ifndef _VTRACE_CLI_CONFIG_H
#define _VTRACE_CLI_CONFIG_H

#include <getopt.h>
#include <stdio.h>

#include <vtrace/trace-config.h>

#include "cli.h"

enum {
	CLI_OPT_INSTANCE = 256,
	CLI_OPT_NAME,
	CLI_OPT_EXCLUSIVE_PRIO,
	CLI_OPT_POLL,
	CLI_OPT_PROCESS_TREE,
	/* A command's own long options are numbered from here. */
	CLI_OPT_CONFIG_END,
};

/**
 * struct cli_config_flags - what the options give
 * @cmd: the command, for messages ("record", "config")
 * @duration_ms_max: the longest -t
 * @tc: the options as a config model; their values carry no position
 * @files: the category files of -f
 */
struct cli_config_flags {
	const char *cmd;
	long long duration_ms_max;
	struct vtrace_trace_config tc;
	struct cli_files files;
};

int cli_config_flag(struct cli_config_flags *f, int opt, char *arg);
int cli_config_parse(int argc, char **argv, struct cli_config_flags *f,
		     const char *own_short, const struct option *own,
		     int (*own_flag)(void *ctx, int opt, char *arg), void *ctx,
		     void (*usage)(FILE *out));
bool cli_config_flags_empty(const struct cli_config_flags *f);
void cli_config_flags_free(struct cli_config_flags *f);

#endif /* _VTRACE_CLI_CONFIG_H */
