// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the subcommands. This is where library errors become
 * messages: the library only returns them.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/dmtrace.h>
#include <vtrace/event-name.h>
#include <vtrace/diag.h>
#include <vtrace/file-io.h>
#include <vtrace/state-lock.h>
#include <vtrace/tracing-dir.h>

#include "builtin.h"
#include "cli.h"

static void vmessage(const char *what, const char *fmt, va_list ap)
{
	fputs("vtrace: ", stderr);
	if (what)
		fprintf(stderr, "%s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/**
 * vtrace_err - print an error message to stderr
 * @fmt: printf format, no trailing newline
 */
void vtrace_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error", fmt, ap);
	va_end(ap);
}

/**
 * vtrace_warn - print a warning message to stderr
 * @fmt: printf format, no trailing newline
 */
void vtrace_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning", fmt, ap);
	va_end(ap);
}

/**
 * vtrace_info - print what -v asked to be told, to stderr
 * @fmt: printf format, no trailing newline
 *
 * Neither an error nor a warning: "vtrace: " and the message.
 */
void vtrace_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(NULL, fmt, ap);
	va_end(ap);
}

/**
 * cli_unexpected_argument - refuse what is left after a command's options
 * @argc: the command's argc
 * @argv: its argv, argv[0] the command's name
 * @optind: the first argument getopt_long() did not take
 *
 * For the commands that take no operands: prints "CMD: unexpected
 * argument 'ARG'" for the first one left.
 *
 * Return: true when there is one (the command then fails with a usage
 * error), false when there is none.
 */
bool cli_unexpected_argument(int argc, char **argv, int optind)
{
	if (optind >= argc)
		return false;
	vtrace_err("%s: unexpected argument '%s'", argv[0], argv[optind]);
	return true;
}

/**
 * cli_files_add - remember a -f argument
 * @files: list to append to
 * @name: file name, borrowed
 *
 * Return: 0 or -ENOMEM.
 */
int cli_files_add(struct cli_files *files, char *name)
{
	char **names;

	names = realloc(files->names, (files->nr + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	names[files->nr++] = name;
	files->names = names;
	return 0;
}

/**
 * cli_load_categories - load the category files a command works with
 * @files: files given with -f; when none, $VTRACE_CATEGORIES, else the
 *	Android default, else the board's (each skipped silently when it
 *	does not exist)
 * @map: map to merge the files into
 * @diags: findings, for the caller to print
 *
 * Return: 0, -EINVAL when a file had errors, or the -errno of a file that
 * could not be read.
 */
int cli_load_categories(const struct cli_files *files,
			struct vtrace_catmap *map, struct vtrace_diags *diags)
{
	static const char *const defaults[] = { VTRACE_DEFAULT_CATEGORIES,
						VTRACE_BOARD_CATEGORIES };
	const char *env = getenv(VTRACE_CATEGORIES_ENV);
	int ret = 0, err;
	size_t i;

	if (!files->nr && env && *env)
		return vtrace_catmap_load(map, env, diags);
	if (!files->nr) {
		for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
			if (!access(defaults[i], F_OK) || errno != ENOENT)
				return vtrace_catmap_load(map, defaults[i],
							  diags);
		return 0;
	}
	for (i = 0; i < files->nr; i++) {
		err = vtrace_catmap_load(map, files->names[i], diags);
		/* An unreadable file outranks one with errors. */
		if (err && (!ret || ret == -EINVAL))
			ret = err;
	}
	return ret;
}

/**
 * cli_parse_report_opts - parse the options of a command that reports on
 *	the categories
 * @argc: the command's argument count
 * @argv: its arguments, the command's name first
 * @usage: prints the command's usage on @out
 * @o: set from them; @o->files.names is the caller's to free
 *
 * -h prints the usage on stdout, a bad option or an argument the usage on
 * stderr.
 *
 * Return: -1 to go on, or the exit status the command is to return now
 * (%VTRACE_EXIT_OK after -h, %VTRACE_EXIT_USAGE).
 */
int cli_parse_report_opts(int argc, char **argv, void (*usage)(FILE *out),
			  struct cli_report_opts *o)
{
	static const struct option options[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "instance", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int opt;

	*o = (struct cli_report_opts){};
	while ((opt = getopt_long(argc, argv, "f:h", options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (cli_files_add(&o->files, optarg))
				return VTRACE_EXIT_USAGE;
			break;
		case 'i':
			if (cli_parse_instance_name(optarg))
				return VTRACE_EXIT_USAGE;
			o->instance = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (cli_unexpected_argument(argc, argv, optind)) {
		usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	return -1;
}

/**
 * cli_load_categories_status - cli_load_categories(), as an exit status
 * @files: as for cli_load_categories()
 * @map: as for cli_load_categories()
 * @diags: as for cli_load_categories(); printed on stderr, with @json
 *	only when loading failed (otherwise they go in the JSON)
 * @json: the command prints JSON
 *
 * Return: %VTRACE_EXIT_OK, %VTRACE_EXIT_FAIL when a file had errors, or
 * %VTRACE_EXIT_USAGE when one could not be read.
 */
int cli_load_categories_status(const struct cli_files *files,
			       struct vtrace_catmap *map,
			       struct vtrace_diags *diags, bool json)
{
	int ret = cli_load_categories(files, map, diags);
	int status = !ret	    ? VTRACE_EXIT_OK :
		     ret == -EINVAL ? VTRACE_EXIT_FAIL :
				      VTRACE_EXIT_USAGE;

	if (!json || status)
		cli_print_diags(stderr, diags);
	return status;
}

/**
 * cli_load_selection_files - load the category files that name events
 * @files: files given with -f (see cli_load_categories())
 * @map: an initialised map to merge them into
 * @cmd: the command, for the message
 *
 * Prints the findings, and on failure what it means.
 *
 * Return: %VTRACE_EXIT_OK, %VTRACE_EXIT_FAIL for a file with errors, or
 * %VTRACE_EXIT_USAGE for one that could not be read.
 */
int cli_load_selection_files(const struct cli_files *files,
			     struct vtrace_catmap *map, const char *cmd)
{
	struct vtrace_diags diags;
	int ret;

	vtrace_diags_init(&diags);
	ret = cli_load_categories(files, map, &diags);
	cli_print_diags(stderr, &diags);
	vtrace_diags_free(&diags);
	if (!ret)
		return VTRACE_EXIT_OK;
	vtrace_err("%s: bad category file; nothing was changed", cmd);
	return ret == -EINVAL ? VTRACE_EXIT_FAIL : VTRACE_EXIT_USAGE;
}

/**
 * cli_check_input - refuse an input file that cannot be read
 * @cmd: the command, for the message
 * @path: the file
 *
 * A missing or unreadable file, a directory, FIFO, device or socket is a
 * file that could not be read, exit status 2 as for a category file; a
 * file that is read and found damaged is 1, which its reader tells.
 *
 * Return: %VTRACE_EXIT_OK, or %VTRACE_EXIT_USAGE (printed).
 */
int cli_check_input(const char *cmd, const char *path)
{
	int fd, ret;

	/* The base name of a split method trace is no file itself. */
	if (vtrace_dmtrace_probe(path))
		return VTRACE_EXIT_OK;
	ret = vtrace_input_open(path, &fd);
	if (!ret) {
		close(fd);
		return VTRACE_EXIT_OK;
	}
	vtrace_err("%s: %s: %s", cmd, path, vtrace_input_strerror(ret));
	return VTRACE_EXIT_USAGE;
}

/**
 * cli_selection_error - print why an event selection failed
 * @sel: the selection
 * @err: the negative errno a vtrace_selection_*() call returned
 *
 * Return: the exit status: %VTRACE_EXIT_USAGE when out of memory, else
 * %VTRACE_EXIT_FAIL.
 */
int cli_selection_error(const struct vtrace_selection *sel, int err)
{
	vtrace_err("%s", vtrace_selection_strerror(sel));
	return err == -ENOMEM ? VTRACE_EXIT_USAGE : VTRACE_EXIT_FAIL;
}

/**
 * cli_selection_warn_missing - warn about each event not on this kernel
 * @sel: a checked or switched selection
 *
 * And say which of those asked for by name are always on (ftrace/print
 * and the like): they are recorded without being enabled. (A category's,
 * such as the ftrace/print of one with a userspace tag, go unsaid.)
 */
void cli_selection_warn_missing(const struct vtrace_selection *sel)
{
	char msg[VTRACE_EVENT_PART_MAX * 3 + 96];
	size_t i;

	for (i = 0; i < sel->nr; i++) {
		if (vtrace_selection_missing(sel, i, msg, sizeof(msg)))
			vtrace_warn("%s", msg);
		else if (!sel->origins[i] &&
			 vtrace_selection_always_on(sel, i, msg, sizeof(msg)))
			vtrace_info("%s", msg);
	}
}

/**
 * cli_print_diags - print findings as FILE:LINE:COL: SEVERITY: MESSAGE
 * @out: stream
 * @diags: findings
 */
void cli_print_diags(FILE *out, const struct vtrace_diags *diags)
{
	const struct vtrace_diag *d;
	size_t i;

	for (i = 0; i < diags->nr; i++) {
		d = &diags->items[i];
		if (!d->line)
			fprintf(out, "%s: ", d->file);
		else if (!d->column)
			fprintf(out, "%s:%u: ", d->file, d->line);
		else
			fprintf(out, "%s:%u:%u: ", d->file, d->line, d->column);
		fprintf(out, "%s: %s\n", vtrace_severity_name(d->severity),
			d->message);
	}
}

/**
 * cli_json_diags - write the "diagnostics" member
 * @j: JSON writer, inside the top level object
 * @diags: findings
 *
 * Line and column are 0 when a finding is about a whole file or line.
 */
void cli_json_diags(struct vtrace_json *j, const struct vtrace_diags *diags)
{
	const struct vtrace_diag *d;
	size_t i;

	vtrace_json_array_begin(j, "diagnostics");
	for (i = 0; i < diags->nr; i++) {
		d = &diags->items[i];
		vtrace_json_object_begin(j, NULL);
		vtrace_json_string(j, "file", d->file);
		vtrace_json_uint(j, "line", d->line);
		vtrace_json_uint(j, "column", d->column);
		vtrace_json_string(j, "severity",
				   vtrace_severity_name(d->severity));
		vtrace_json_string(j, "message", d->message);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
}

/**
 * cli_whole_number - the whole of a string as a number, quietly
 * @arg: decimal, or hexadecimal after "0x"; no blank, no '+', a '-' only
 *	for a negative number
 * @v: set to the number
 *
 * For an argument that may be a number or a name; options that take a
 * number use cli_parse_number().
 *
 * Return: true when @arg is a number that fits.
 */
bool cli_whole_number(const char *arg, long long *v)
{
	const char *digits = arg[0] == '-' ? arg + 1 : arg;
	int base = 10;
	char *end;

	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
		base = 16;
		digits += 2;
	}
	if (!isxdigit((unsigned char)digits[0]))
		return false;
	errno = 0;
	*v = strtoll(arg, &end, base);
	return !errno && !*end;
}

/**
 * cli_parse_number - a numeric option's argument, range-checked
 * @opt: the command and option, for the message ("record -b")
 * @arg: the argument: decimal, or hexadecimal after "0x"
 * @min: the smallest number accepted
 * @max: the largest
 * @v: set to the number
 *
 * Anything else (a blank, a fraction, trailing text, a number out of
 * range or too large for any type) prints "OPT: 'ARG' is not a whole
 * number from MIN to MAX".
 *
 * Return: 0, or -EINVAL (printed).
 */
int cli_parse_number(const char *opt, const char *arg, long long min,
		     long long max, long long *v)
{
	long long n;

	if (cli_whole_number(arg, &n) && n >= min && n <= max) {
		*v = n;
		return 0;
	}
	vtrace_err("%s: '%s' is not a whole number from %lld to %lld", opt, arg,
		   min, max);
	return -EINVAL;
}

/**
 * cli_parse_duration - a duration option's argument, range-checked
 * @opt: the command and option, for the message ("record -t")
 * @arg: "10s", "500ms", "2m", or seconds ("1.5")
 * @max_ms: the longest accepted, in milliseconds
 * @ms: set to the duration in milliseconds
 *
 * Anything else, under 1 ms or over @max_ms (NaN and infinity too)
 * prints "OPT: 'ARG' is not a duration from 1ms to MAXs (examples: 10s,
 * 500ms, 2m, 5)".
 *
 * Return: 0, or -EINVAL (printed).
 */
int cli_parse_duration(const char *opt, const char *arg, long long max_ms,
		       long long *ms)
{
	double v = -1;
	char *end;

	/* (strtod's hexadecimal and its "nan", "inf" are no durations) */
	if ((isdigit((unsigned char)arg[0]) || arg[0] == '.') &&
	    !strpbrk(arg, "xX")) {
		errno = 0;
		v = strtod(arg, &end);
		if (errno || end == arg)
			v = -1;
		else if (!strcmp(end, "ms"))
			;
		else if (!*end || !strcmp(end, "s"))
			v *= 1000;
		else if (!strcmp(end, "m"))
			v *= 60 * 1000;
		else
			v = -1;
	}
	if (v >= 1 && v <= max_ms) {
		*ms = (long long)v;
		return 0;
	}
	vtrace_err(
		"%s: '%s' is not a duration from 1ms to %llds (examples: 10s, 500ms, 2m, 5)",
		opt, arg, max_ms / 1000);
	return -EINVAL;
}

/**
 * cli_find_tracefs - find (or, as root, mount) tracefs and check access
 * @dir: set to the tracing directory
 *
 * Prints what went wrong and what to do about it.
 *
 * Return: %VTRACE_EXIT_OK, or the exit status to fail with.
 */
int cli_find_tracefs(const char **dir)
{
	int ret;

	ret = vtrace_tracing_dir(geteuid() == 0, dir);
	if (ret == -ENODEV && geteuid() != 0) {
		vtrace_err(
			"tracefs is not mounted; as root, run: mount -t tracefs nodev %s",
			VTRACE_TRACEFS_MOUNTPOINT);
		return VTRACE_EXIT_FAIL;
	}
	if (ret) {
		vtrace_err(
			"cannot mount tracefs on %s: %s; mount it with: mount -t tracefs nodev %s",
			VTRACE_TRACEFS_MOUNTPOINT, strerror(-ret),
			VTRACE_TRACEFS_MOUNTPOINT);
		return VTRACE_EXIT_FAIL;
	}

	/*
	 * Without access every event would look missing: say so instead.
	 * tracefs is root-only (0700) unless the system opened it up.
	 */
	if (access(*dir, R_OK | X_OK)) {
		if (errno == ENOENT)
			vtrace_err(
				"tracefs is not at %s; mount it with: mount -t tracefs nodev %s",
				*dir, VTRACE_TRACEFS_MOUNTPOINT);
		else
			vtrace_err("cannot access tracefs at %s: %s%s", *dir,
				   strerror(errno),
				   geteuid() ? " (run as root)" : "");
		return VTRACE_EXIT_FAIL;
	}
	return VTRACE_EXIT_OK;
}

/**
 * cli_parse_instance_name - check an --instance argument
 * @arg: the name
 *
 * Return: 0, or -EINVAL after printing "bad instance name 'ARG': why".
 */
int cli_parse_instance_name(const char *arg)
{
	struct vtrace_name_error nerr;

	if (!vtrace_instance_name_check(arg, &nerr))
		return 0;
	vtrace_err("bad instance name '%s': %s", arg, nerr.reason);
	return -EINVAL;
}

/**
 * cli_open_tracefs - find (or mount) tracefs and open the instance
 * @instance: --instance argument, or NULL for the top level buffer
 * @mode: whether a missing instance is created
 * @vi: set to the open instance
 *
 * Prints what went wrong and what to do about it.
 *
 * Return: %VTRACE_EXIT_OK, or the exit status to fail with.
 */
int cli_open_tracefs(const char *instance, enum vtrace_instance_mode mode,
		     struct vtrace_instance **vi)
{
	const char *dir;
	int ret;

	if (instance && cli_parse_instance_name(instance))
		return VTRACE_EXIT_USAGE;
	ret = cli_find_tracefs(&dir);
	if (ret)
		return ret;
	/* Its marker would go there: a foreign directory is refused first. */
	if (instance && mode == VTRACE_INSTANCE_CREATE &&
	    !tracefs_instance_exists(instance)) {
		ret = cli_state_dir_check("note the instance vtrace creates");
		if (ret)
			return ret;
	}

	ret = vtrace_instance_open(instance, mode, vi);
	if (ret == -ENOENT) {
		vtrace_err(
			"no tracefs instance '%s' (vtrace enable --instance %s creates it)",
			instance, instance);
		return VTRACE_EXIT_FAIL;
	}
	if (ret) {
		vtrace_err("cannot open tracefs instance '%s' in %s: %s",
			   instance, dir, strerror(-ret));
		return VTRACE_EXIT_FAIL;
	}
	ret = vtrace_instance_marker_error(*vi);
	if (ret)
		vtrace_warn(
			"cannot note in %s that vtrace created instance '%s' (%s): 'vtrace disable --all' will leave it in place",
			vtrace_state_dir(), instance, strerror(-ret));
	return VTRACE_EXIT_OK;
}

/**
 * cli_instance_label - how messages name an instance
 * @vi: instance
 *
 * Return: "instance NAME" or "the top level buffer".
 */
const char *cli_instance_label(const struct vtrace_instance *vi)
{
	static char label[VTRACE_EVENT_PART_MAX + 16];

	if (!vtrace_instance_name(vi))
		return "the top level buffer";
	snprintf(label, sizeof(label), "instance %s", vtrace_instance_name(vi));
	return label;
}

/**
 * cli_finish_json - end a --json document, reporting a failed write
 * @j: writer
 *
 * Return: 0, or %VTRACE_EXIT_USAGE (an I/O error) when stdout failed.
 */
int cli_finish_json(struct vtrace_json *j)
{
	int ret = vtrace_json_finish(j);

	if (!ret)
		return 0;
	vtrace_err("writing JSON output: %s", strerror(-ret));
	return VTRACE_EXIT_USAGE;
}

/* The message for @err, which may be that the state directory is foreign. */
static void state_dir_message(void (*print)(const char *fmt, ...),
			      const char *what, int err)
{
	char comm[32], shown[4 * sizeof(comm)];
	enum vtrace_state_dir_fault fault;
	const char *lock;
	int fd, ret;
	pid_t pid;

	ret = vtrace_state_dir_open(false, &fd, &fault);
	if (!ret)
		close(fd);
	if ((err == -EPERM || err == -ENOTDIR) && ret == err) {
		print("cannot %s: state directory %s is not trusted: %s", what,
		      vtrace_state_dir(), vtrace_state_dir_fault_str(fault));
		return;
	}
	if (err == -EAGAIN &&
	    !vtrace_state_lock_holder(&lock, &pid, comm, sizeof(comm))) {
		vtrace_escape(comm, strlen(comm), shown, sizeof(shown));
		print("cannot %s: %s/%s is held by pid %d%s%s%s; gave up after %d s",
		      what, vtrace_state_dir(), lock, (int)pid,
		      *shown ? " (" : "", shown, *shown ? ")" : "",
		      VTRACE_STATE_LOCK_WAIT_MS / 1000);
		return;
	}
	if (err == -EINTR) {
		print("cannot %s: interrupted while waiting for a lock in %s",
		      what, vtrace_state_dir());
		return;
	}
	print("cannot %s in %s: %s%s", what, vtrace_state_dir(), strerror(-err),
	      (err == -EACCES || err == -EPERM) && geteuid() ?
		      " (run as root)" :
		      "");
}

/**
 * cli_state_dir_error - report a failure to use the state directory
 * @what: what could not be done, as "VERB the OBJECT"
 * @err: the -errno
 *
 * Return: %VTRACE_EXIT_FAIL.
 */
int cli_state_dir_error(const char *what, int err)
{
	state_dir_message(vtrace_err, what, err);
	return VTRACE_EXIT_FAIL;
}

/**
 * cli_state_dir_warn - warn of a failure to use the state directory
 * @what: what could not be done, as "VERB the OBJECT"
 * @err: the -errno
 */
void cli_state_dir_warn(const char *what, int err)
{
	state_dir_message(vtrace_warn, what, err);
}

/**
 * cli_state_dir_check - refuse to go on with a state directory not ours
 * @what: what needs it, as "VERB the OBJECT"
 *
 * For a command about to change what a later run must know of (an
 * instance it creates, tags it holds): makes the directory when missing.
 *
 * Return: %VTRACE_EXIT_OK, or %VTRACE_EXIT_FAIL (printed) when the
 * directory is foreign, writable by others or not a directory.
 */
int cli_state_dir_check(const char *what)
{
	int fd, ret;

	ret = vtrace_state_dir_open(true, &fd, NULL);
	if (!ret) {
		close(fd);
		return VTRACE_EXIT_OK;
	}
	if (ret != -EPERM && ret != -ENOTDIR)
		return VTRACE_EXIT_OK; /* e.g. read-only: warned about later */
	return cli_state_dir_error(what, ret);
}
