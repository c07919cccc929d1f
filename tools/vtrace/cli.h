/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the subcommands share: messages, category file loading, opening
 * tracefs, and the common parts of --json output.
 */
#ifndef _VTRACE_CLI_H
#define _VTRACE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <vtrace/categories.h>
#include <vtrace/diag.h>
#include <vtrace/instance.h>
#include <vtrace/json.h>
#include <vtrace/selection.h>
#include <vtrace/version.h>

/* Overrides the default category file, like the -f option. */
#define VTRACE_CATEGORIES_ENV "VTRACE_CATEGORIES"

/*
 * The board's own category file, read when the Android one is absent:
 * $(SYSCONFDIR)/vtrace/atrace_categories.txt of the build (the Debian
 * package's /etc/vtrace/atrace_categories.txt).
 */
#ifndef VTRACE_BOARD_CATEGORIES
#define VTRACE_BOARD_CATEGORIES "/usr/local/etc/vtrace/atrace_categories.txt"
#endif

/*
 * The largest -b: TraceConfig's buffer_size_kb is a uint32. The longest
 * -t of a recording: about 31 years, past any use.
 */
#define VTRACE_BUFFER_KB_MAX 4294967295LL
#define VTRACE_DURATION_MS_MAX 1000000000000LL

void vtrace_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vtrace_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vtrace_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * struct cli_files - category files given with -f
 * @names: the arguments, borrowed from argv
 * @nr: how many
 */
struct cli_files {
	char **names;
	size_t nr;
};

int cli_files_add(struct cli_files *files, char *name);

/**
 * struct cli_report_opts - the options of a command that reports on the
 *	categories (categories, status)
 * @files: -f/--file, in order
 * @instance: --instance NAME, or NULL for the top level
 * @json: --json
 */
struct cli_report_opts {
	struct cli_files files;
	const char *instance;
	bool json;
};

int cli_parse_report_opts(int argc, char **argv, void (*usage)(FILE *out),
			  struct cli_report_opts *o);
int cli_load_categories_status(const struct cli_files *files,
			       struct vtrace_catmap *map,
			       struct vtrace_diags *diags, bool json);
bool cli_unexpected_argument(int argc, char **argv, int optind);
int cli_load_categories(const struct cli_files *files,
			struct vtrace_catmap *map, struct vtrace_diags *diags);
void cli_print_diags(FILE *out, const struct vtrace_diags *diags);
void cli_json_diags(struct vtrace_json *j, const struct vtrace_diags *diags);
int cli_load_selection_files(const struct cli_files *files,
			     struct vtrace_catmap *map, const char *cmd);
int cli_check_input(const char *cmd, const char *path);
int cli_selection_error(const struct vtrace_selection *sel, int err);
void cli_selection_warn_missing(const struct vtrace_selection *sel);
bool cli_whole_number(const char *arg, long long *v);
int cli_parse_number(const char *opt, const char *arg, long long min,
		     long long max, long long *v);
int cli_parse_duration(const char *opt, const char *arg, long long max_ms,
		       long long *ms);
int cli_find_tracefs(const char **dir);
int cli_parse_instance_name(const char *arg);
int cli_open_tracefs(const char *instance, enum vtrace_instance_mode mode,
		     struct vtrace_instance **vi);
const char *cli_instance_label(const struct vtrace_instance *vi);
int cli_finish_json(struct vtrace_json *j);
int cli_state_dir_error(const char *what, int err);
void cli_state_dir_warn(const char *what, int err);
int cli_state_dir_check(const char *what);
int cli_restore_dead_recordings(FILE *out);

#endif /* _VTRACE_CLI_H */
