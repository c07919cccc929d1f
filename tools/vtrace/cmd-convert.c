// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace convert - turn a trace.dat into another trace format.
 *
 * The conversion is the library's (convert.h); this file parses the
 * options and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <vtrace/convert.h>
#include <vtrace/format.h>

#include "builtin.h"
#include "cli.h"
#include "slices-load.h"

static void convert_usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace convert IN.dat OUT [--format FORMAT] [--split] [--quiet]\n"
		"\n"
		"Convert a trace.dat (vtrace's or trace-cmd's, version 6 or 7,\n"
		"compressed or not) into another trace format. OUT's extension\n"
		"selects the format unless --format is given.\n"
		"\n"
		"  --format FORMAT  one of: %s\n"
		"  --split          dmtrace: write OUT.key and OUT.data (a .trace\n"
		"                   ending replaced) instead of one combined file\n"
		"  --quiet          print nothing on success\n",
		vtrace_format_names(VTRACE_FORMAT_CONVERT));
}

int cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "split", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct vtrace_format *format = NULL;
	struct vt_convert_result res;
	const char *in, *out;
	bool quiet = false, split = false;
	char msg[512];
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "hq", longopts, NULL)) != -1) {
		switch (opt) {
		case 'F':
			format = vtrace_format_by_name(optarg,
						       VTRACE_FORMAT_CONVERT);
			if (!format) {
				vtrace_err(
					"convert: --format: no format '%s' (formats: %s)",
					optarg,
					vtrace_format_names(
						VTRACE_FORMAT_CONVERT));
				return VTRACE_EXIT_USAGE;
			}
			break;
		case 'q':
			quiet = true;
			break;
		case 's':
			split = true;
			break;
		case 'h':
			convert_usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			convert_usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc - 2) {
		convert_usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	in = argv[optind];
	out = argv[optind + 1];
	if (!format)
		format = vtrace_format_by_path(out, VTRACE_FORMAT_CONVERT);
	if (!format) {
		vtrace_err(
			"convert: %s: no format has this extension; use --format (formats: %s)",
			out, vtrace_format_names(VTRACE_FORMAT_CONVERT));
		return VTRACE_EXIT_USAGE;
	}
	if (cli_check_input("convert", in))
		return VTRACE_EXIT_USAGE;
	if (split)
		return cli_convert_dmtrace_split(format->name, in, out, quiet);
	if (vtrace_convert(in, out, format, &res, msg, sizeof(msg))) {
		vtrace_err("convert: %s", msg);
		return VTRACE_EXIT_FAIL;
	}
	if (res.buffers_left_out)
		vtrace_warn(
			"convert: %s: %d instance buffer(s) left out: only the top-level buffer is converted",
			in, res.buffers_left_out);
	if (!quiet)
		printf("%s: %" PRIu64 " events, %" PRIu64 " bytes (%s)\n", out,
		       res.events, res.bytes, format->name);
	return VTRACE_EXIT_OK;
}
