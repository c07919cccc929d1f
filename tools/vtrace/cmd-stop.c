// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace stop - end the recording of an instance: SIGTERM to the process
 * named by its pid file, wait until it has finished the file, and print
 * what a background recording logged (its summary).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <vtrace/record-pidfile.h>

#include "builtin.h"
#include "cli.h"

#define STOP_POLL_MS 20

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace stop [--instance NAME] [--timeout SECONDS]\n\n"
		"End the 'vtrace record' running on the top level buffer or on\n"
		"instance NAME, wait until its file is complete (default: up to\n"
		"60 seconds) and print the summary of a --background recording.\n");
}

static void print_log(const char *instance)
{
	char buf[4096], *log;
	ssize_t n;
	int fd;

	if (vtrace_record_pidfile_path(instance, ".log", &log))
		return;
	fd = open(log, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, n, stdout);
		close(fd);
		unlink(log);
	}
	free(log);
}

/*
 * Finished when the recording has released its pid file (it does so last)
 * or is gone (killed, or a zombie's pid file was released already).
 */
static int finished(const char *instance, pid_t pid)
{
	pid_t owner;

	if (kill(pid, 0) && errno == ESRCH)
		return 1;
	return !vtrace_record_owner(instance, &owner) && owner != pid;
}

int cmd_stop(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "instance", required_argument, NULL, 'i' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const struct timespec tick = { 0, STOP_POLL_MS * 1000000L };
	const char *instance = NULL;
	long waited_ms = 0, timeout_s = 60;
	char *end;
	pid_t pid;
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			instance = optarg;
			break;
		case 'T':
			timeout_s = strtol(optarg, &end, 10);
			if (*end || timeout_s <= 0) {
				vtrace_err("bad timeout '%s'", optarg);
				return VTRACE_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		vtrace_err("unexpected argument '%s'", argv[optind]);
		return VTRACE_EXIT_USAGE;
	}

	if (vtrace_record_owner(instance, &pid))
		return VTRACE_EXIT_FAIL;
	if (!pid) {
		vtrace_err("no vtrace record is running on %s%s",
			   instance ? "instance " : "the top level buffer",
			   instance ? instance : "");
		return VTRACE_EXIT_FAIL;
	}
	if (kill(pid, SIGTERM) && errno != ESRCH) {
		vtrace_err("cannot signal vtrace record (pid %d): %s", pid,
			   strerror(errno));
		return VTRACE_EXIT_FAIL;
	}
	while (!finished(instance, pid)) {
		if (waited_ms >= timeout_s * 1000) {
			vtrace_err(
				"vtrace record (pid %d) is still finishing after %ld s",
				pid, timeout_s);
			return VTRACE_EXIT_FAIL;
		}
		nanosleep(&tick, NULL);
		waited_ms += STOP_POLL_MS;
	}
	print_log(instance);
	return VTRACE_EXIT_OK;
}
