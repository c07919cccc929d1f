// SPDX-License-Identifier: GPL-2.0
/*
 * The file behind vtrace slices/profile/convert: a method trace or a
 * Perfetto trace by its content (see vtrace_dmtrace_probe() and
 * vtrace_perfetto_probe()), a trace.dat otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <vtrace/dmtrace.h>
#include <vtrace/perfetto-input.h>
#ifdef VTRACE_HAVE_TRACECMD
#include <vtrace/dmtrace-convert.h>
#include <vtrace/slices-tracedat.h>
#endif

#include "builtin.h"
#include "cli.h"
#include "slices-load.h"

static int load_dmtrace(const char *cmd, const char *file, struct vt_slices *s)
{
	struct vt_dmtrace t;
	char msg[256] = "";
	int ret;

	ret = vtrace_dmtrace_load(&t, file, msg, sizeof(msg));
	if (!ret)
		ret = vtrace_dmtrace_slices(&t, s);
	vtrace_dmtrace_free(&t);
	if (ret == -EINVAL)
		vtrace_err("%s: %s: not a usable method trace: %s", cmd, file,
			   msg);
	else if (ret && *msg)
		vtrace_err("%s: %s", cmd, msg);
	else if (ret)
		vtrace_err("%s: %s: %s", cmd, file, strerror(-ret));
	return ret;
}

static int load_perfetto(const char *cmd, const char *file, struct vt_slices *s)
{
	struct vt_perfetto_input in;
	char msg[512] = "";
	int ret;

	ret = vtrace_perfetto_load(&in, file, msg, sizeof(msg));
	if (ret) {
		vtrace_err("%s: %s", cmd, msg);
	} else {
		vtrace_slices_free(s);
		*s = in.slices;
		memset(&in.slices, 0, sizeof(in.slices));
		if (in.compressed_packets)
			vtrace_warn(
				"%s: %s: %llu compressed packet(s) skipped: vtrace reads uncompressed traces",
				cmd, file, in.compressed_packets);
	}
	vtrace_perfetto_input_free(&in);
	return ret;
}

/**
 * cli_load_slices - the slices of a trace.dat, a Perfetto trace or a
 *	method trace
 * @cmd: the subcommand, for messages
 * @file: the file
 * @s: filled in (finished); free with vtrace_slices_free() whatever the result
 *
 * Prints why on failure.
 *
 * Return: 0 or a negative errno.
 */
int cli_load_slices(const char *cmd, const char *file, struct vt_slices *s)
{
	int ret;

	ret = vtrace_slices_init(s);
	if (ret) {
		vtrace_err("%s: %s", cmd, strerror(-ret));
		return ret;
	}
	if (vtrace_dmtrace_probe(file))
		return load_dmtrace(cmd, file, s);
	if (vtrace_perfetto_probe(file))
		return load_perfetto(cmd, file, s);
#ifdef VTRACE_HAVE_TRACECMD
	char msg[256] = "";

	ret = vtrace_slices_from_tracedat(s, file, msg, sizeof(msg));
	if (ret)
		vtrace_err("%s: %s", cmd, msg);
#else
	ret = -EOPNOTSUPP;
	vtrace_err(
		"%s: %s: this vtrace is a static build, without libtracecmd: it reads method traces (.trace) and Perfetto traces only; read trace.dat files with a dynamic build",
		cmd, file);
#endif
	return ret;
}

/**
 * cli_report_slice_faults - say on stderr what the input held that made
 *	no slice
 * @cmd: the subcommand
 * @file: the file
 * @s: its slices
 */
void cli_report_slice_faults(const char *cmd, const char *file,
			     const struct vt_slices *s)
{
	if (s->unmatched || s->open || s->malformed)
		vtrace_warn(
			"%s: %s: %llu end(s) without a begin, %llu begin(s) still open at the end, %llu malformed marker(s)",
			cmd, file, s->unmatched, s->open, s->malformed);
}

/**
 * cli_finish_stdout - flush text output, reporting a failed write
 *
 * Return: %VTRACE_EXIT_OK, or %VTRACE_EXIT_USAGE (an I/O error).
 */
int cli_finish_stdout(void)
{
	if (!fflush(stdout) && !ferror(stdout))
		return VTRACE_EXIT_OK;
	vtrace_err("writing output: %s", strerror(errno));
	return VTRACE_EXIT_USAGE;
}

#ifdef VTRACE_HAVE_TRACECMD
/**
 * cli_convert_dmtrace_split - vtrace convert --split
 * @format: the format asked for, which must be "dmtrace"
 * @in: the trace.dat
 * @out: the pair's name
 * @quiet: print nothing on success
 *
 * Return: the exit status.
 */
int cli_convert_dmtrace_split(const char *format, const char *in,
			      const char *out, bool quiet)
{
	struct vt_dmtrace_write_stats st;
	char msg[512];

	if (strcmp(format, "dmtrace")) {
		vtrace_err(
			"convert: --split is for dmtrace output (.trace), not %s",
			format);
		return VTRACE_EXIT_USAGE;
	}
	if (vtrace_dmtrace_convert_split(in, out, &st, msg, sizeof(msg))) {
		vtrace_err("convert: %s", msg);
		return VTRACE_EXIT_FAIL;
	}
	if (!quiet)
		printf("%s: %zu records, %zu threads, %zu methods (dmtrace, .key + .data)\n",
		       out, st.records, st.threads, st.methods);
	return VTRACE_EXIT_OK;
}
#endif
