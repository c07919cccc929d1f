// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace report and convert in a static build. Debian ships libtracecmd as a shared
 * library only, so the static helper for the test guests cannot decode
 * trace.dat; the file is reported on the host (vtrace or trace-cmd).
 */
#include "builtin.h"
#include "cli.h"

int cmd_report(int argc, char **argv)
{
	vtrace_err(
		"report: not in this static build (libtracecmd is shared only); copy the file out and run 'vtrace report' or 'trace-cmd report' there");
	return VTRACE_EXIT_USAGE;
}

int cmd_convert(int argc, char **argv)
{
	vtrace_err(
		"convert: not in this static build (libtracecmd is shared only); copy the file out and run 'vtrace convert' there");
	return VTRACE_EXIT_USAGE;
}
