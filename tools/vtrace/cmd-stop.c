// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace stop - end running sessions: SIGTERM to each session's recorder,
 * proven to be it (a pidfd checked against the recorder's start time,
 * executable and boot), wait until it has finished its file, and print
 * what a background recording logged (its summary).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vtrace/session.h>

#include "builtin.h"
#include "cli-session.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace stop [NAME | --all | --instance INSTANCE] [--timeout SECONDS]\n\n"
		"End the session NAME, every session (--all), or the one recording\n"
		"INSTANCE; without any, the one recording the top level buffer or\n"
		"else the only one running. Waits until each file is complete\n"
		"(default: up to 60 seconds) and prints the summary of a\n"
		"--background recording.\n");
}

struct stop_opts {
	const char *name;
	const char *instance;
	bool all;
	long long timeout_s;
};

static void print_log(const char *name)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (vtrace_session_log_open(name, false, &fd))
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(fd);
	vtrace_session_log_remove(name);
}

static bool chosen(const struct stop_opts *o,
		   const struct vtrace_session_info *s)
{
	if (o->all)
		return true;
	if (o->name)
		return !strcmp(o->name, s->name);
	if (o->instance)
		return s->instance && !strcmp(o->instance, s->instance);
	return !s->instance;
}

/* Without NAME or --instance: the top level buffer's, or the only one. */
static int choose(struct stop_opts *o, const struct vtrace_session_info *list,
		  size_t nr, bool *pick)
{
	size_t i, n = 0;

	for (i = 0; i < nr; i++) {
		pick[i] = chosen(o, &list[i]);
		n += pick[i];
	}
	if (n || o->all || o->name || o->instance || nr != 1)
		return n;
	pick[0] = true;
	return 1;
}

static void not_running(const struct stop_opts *o, size_t nr)
{
	if (o->name)
		vtrace_err("no session '%s' is running", o->name);
	else if (o->instance)
		vtrace_err("no session is recording instance %s", o->instance);
	else if (nr)
		vtrace_err(
			"%zu sessions are running, none on the top level buffer: name one (see 'vtrace sessions') or use --all",
			nr);
	else
		vtrace_err("no session is running");
}

/* Signal every chosen recorder first, so that they finish side by side. */
static int stop_sessions(const struct stop_opts *o,
			 const struct vtrace_session_info *list, size_t nr,
			 const bool *pick, int *pidfds)
{
	int ret, status = VTRACE_EXIT_OK;
	size_t i;

	for (i = 0; i < nr; i++) {
		pidfds[i] = -1;
		if (!pick[i])
			continue;
		ret = vtrace_session_signal(&list[i], SIGTERM, &pidfds[i]);
		if (ret == -ESRCH)
			continue; /* it ended meanwhile */
		if (ret == -ESTALE) {
			vtrace_err(
				"session %s: pid %d is not its recorder any more; not signalled",
				list[i].name, (int)list[i].recorder.pid);
			status = VTRACE_EXIT_FAIL;
		} else if (ret) {
			vtrace_err("cannot signal session %s (pid %d): %s",
				   list[i].name, (int)list[i].recorder.pid,
				   strerror(-ret));
			status = VTRACE_EXIT_FAIL;
		}
	}
	for (i = 0; i < nr; i++) {
		if (pidfds[i] < 0)
			continue;
		ret = vtrace_session_wait(pidfds[i], o->timeout_s * 1000);
		close(pidfds[i]);
		if (ret) {
			vtrace_err(
				"session %s (pid %d) is still finishing after %lld s",
				list[i].name, (int)list[i].recorder.pid,
				o->timeout_s);
			status = VTRACE_EXIT_FAIL;
			continue;
		}
		print_log(list[i].name);
	}
	return status;
}

static int parse_args(int argc, char **argv, struct stop_opts *o)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "instance", required_argument, NULL, 'i' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->all = true;
			break;
		case 'i':
			o->instance = optarg;
			break;
		case 'T':
			/* poll() takes the wait in int milliseconds */
			if (cli_parse_number("stop --timeout", optarg, 1,
					     INT_MAX / 1000, &o->timeout_s))
				return -EINVAL;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc)
		o->name = argv[optind++];
	if (o->name && cli_parse_session_name(o->name))
		return -EINVAL;
	if (o->instance && cli_parse_instance_name(o->instance))
		return -EINVAL;
	if (cli_unexpected_argument(argc, argv, optind))
		return -EINVAL;
	if (!!o->name + o->all + !!o->instance > 1) {
		vtrace_err("give one of NAME, --all and --instance");
		return -EINVAL;
	}
	return 0;
}

int cmd_stop(int argc, char **argv)
{
	struct stop_opts o = { .timeout_s = 60 };
	struct vtrace_session_info *list;
	int *pidfds = NULL, ret;
	bool *pick = NULL;
	size_t nr;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret > 0 ? VTRACE_EXIT_OK : VTRACE_EXIT_USAGE;
	ret = vtrace_sessions_list(&list, &nr);
	if (ret)
		return cli_state_dir_error("read the sessions", ret);
	pick = calloc(nr + 1, sizeof(*pick));
	pidfds = calloc(nr + 1, sizeof(*pidfds));
	if (!pick || !pidfds) {
		vtrace_err("out of memory");
		ret = VTRACE_EXIT_FAIL;
	} else if (!choose(&o, list, nr, pick)) {
		ret = VTRACE_EXIT_OK; /* --all of none */
		if (!o.all) {
			not_running(&o, nr);
			ret = VTRACE_EXIT_FAIL;
		}
	} else {
		ret = stop_sessions(&o, list, nr, pick, pidfds);
	}
	free(pick);
	free(pidfds);
	vtrace_sessions_free(list, nr);
	return ret;
}
