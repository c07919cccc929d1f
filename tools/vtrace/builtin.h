/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtrace subcommands. Each lives in its own cmd-NAME.c and is listed once in
 * the command table in vtrace.c.
 *
 * A subcommand gets argv with argv[0] set to its own name, handles its own
 * --help, and returns the process exit status.
 */
#ifndef _VTRACE_BUILTIN_H
#define _VTRACE_BUILTIN_H

/* Exit statuses shared by all subcommands. */
enum {
	VTRACE_EXIT_OK = 0,
	VTRACE_EXIT_FAIL = 1, /* bad input or a tracefs operation failed */
	VTRACE_EXIT_USAGE = 2, /* bad command line, or an I/O error */
	VTRACE_EXIT_ABORTED = 3, /* record: aborted by an exclusive session */
};

int cmd_check(int argc, char **argv);
int cmd_categories(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_sessions(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_marker(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_recover(int argc, char **argv);
int cmd_slices(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_view(int argc, char **argv);

#endif /* _VTRACE_BUILTIN_H */
