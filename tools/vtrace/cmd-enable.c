// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace enable / vtrace disable: switch categories and group/event events,
 * all or nothing.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/atrace-tags.h>
#include <vtrace/events.h>
#include <vtrace/selection.h>

#include "builtin.h"
#include "cli.h"

static void switch_usage(FILE *out, const char *cmd)
{
	fprintf(out,
		"usage: vtrace %s [-f FILE]... [--instance NAME] CATEGORY|GROUP/EVENT...\n",
		cmd);
	if (!strcmp(cmd, "disable"))
		fprintf(out, "       vtrace disable [--instance NAME] --all\n");
	fprintf(out,
		"\n%s the events of each CATEGORY (from the category files) and\n"
		"each GROUP/EVENT. Events not on this kernel are skipped and\n"
		"reported. All or nothing: if one write fails, every event this\n"
		"command switched is switched back.\n\n"
		"  -f, --file FILE    category file (repeatable; default $VTRACE_CATEGORIES\n"
		"                     or " VTRACE_DEFAULT_CATEGORIES ",\n"
		"                     then " VTRACE_BOARD_CATEGORIES ")\n"
		"  --instance NAME    work in tracefs instance NAME%s\n",
		!strcmp(cmd, "enable") ? "Enable" : "Disable",
		!strcmp(cmd, "enable") ? " (created if missing)" : "");
	if (!strcmp(cmd, "disable"))
		fprintf(out,
			"  --all              disable every event; remove the instance\n"
			"                     if vtrace created it\n");
	fprintf(out,
		"  -h, --help         show this help\n\n"
		"Exit status: 0 ok, 1 bad category file, unknown category or a\n"
		"failed write (rolled back), 2 usage or I/O error.\n");
}

/* Expand the arguments into events; prints and returns an exit status. */
static int resolve_targets(struct vtrace_selection *sel,
			   const struct vtrace_catmap *map, char **targets,
			   int nr_targets)
{
	int i, ret;

	for (i = 0; i < nr_targets; i++) {
		ret = vtrace_selection_add(sel, map, targets[i]);
		if (ret)
			return cli_selection_error(sel, ret);
	}
	return VTRACE_EXIT_OK;
}

static int switch_events(struct vtrace_instance *vi,
			 struct vtrace_selection *list, bool enable)
{
	const char *verb = enable ? "enable" : "disable";
	size_t i, failed = 0, changed = 0, missing = 0, always = 0;
	int ret;

	ret = vtrace_events_set(vi, list->changes, list->nr, enable, &failed);
	if (ret) {
		vtrace_err("cannot %s %s in %s: %s; nothing was changed", verb,
			   list->changes[failed].name, cli_instance_label(vi),
			   strerror(-ret));
		return VTRACE_EXIT_FAIL;
	}
	cli_selection_warn_missing(list);
	for (i = 0; i < list->nr; i++) {
		changed += list->changes[i].changed;
		missing += list->changes[i].before == VTRACE_EVENT_MISSING;
		always += list->changes[i].before == VTRACE_EVENT_ALWAYS_ON;
	}
	printf("%sd %zu event(s) in %s; %zu already %sd, %zu skipped (not on this kernel)",
	       verb, changed, cli_instance_label(vi),
	       list->nr - changed - missing - always, verb, missing);
	if (always)
		printf(", %zu always on (no enable file)", always);
	putchar('\n');
	return VTRACE_EXIT_OK;
}

/* The userspace atrace tags of the categories go on and off with them. */
static int switch_atrace_tags(const char *instance, char **targets,
			      int nr_targets, bool enable)
{
	uint64_t tags = vtrace_atrace_tags_of(targets, nr_targets);
	int ret;

	if (!tags)
		return VTRACE_EXIT_OK;
	ret = enable ? vtrace_atrace_tags_enable(instance, tags) :
		       vtrace_atrace_tags_disable(instance, tags);
	if (ret)
		return cli_state_dir_error(
			enable ? "enable the userspace atrace tags" :
				 "disable the userspace atrace tags",
			ret);
	printf("%sd userspace atrace tags 0x%llx\n",
	       enable ? "enable" : "disable", (unsigned long long)tags);
	return VTRACE_EXIT_OK;
}

static int disable_all(struct vtrace_instance *vi)
{
	int ret;

	ret = vtrace_atrace_tags_disable(vtrace_instance_name(vi), ~0ULL);
	if (ret)
		cli_state_dir_warn("disable the userspace atrace tags", ret);

	ret = vtrace_events_disable_all(vi);
	if (ret) {
		vtrace_err("cannot disable the events of %s: %s",
			   cli_instance_label(vi), strerror(-ret));
		return VTRACE_EXIT_FAIL;
	}
	printf("disabled all events in %s\n", cli_instance_label(vi));
	if (!vtrace_instance_is_owned(vi))
		return VTRACE_EXIT_OK;
	ret = vtrace_instance_remove(vi);
	if (ret) {
		vtrace_err("cannot remove %s: %s", cli_instance_label(vi),
			   strerror(-ret));
		return VTRACE_EXIT_FAIL;
	}
	printf("removed instance %s (vtrace created it)\n",
	       vtrace_instance_name(vi));
	return VTRACE_EXIT_OK;
}

static int cmd_switch(int argc, char **argv, bool enable)
{
	static const struct option options[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "instance", required_argument, NULL, 'i' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct vtrace_selection list;
	struct vtrace_instance *vi = NULL;
	struct cli_files files = {};
	const char *instance = NULL, *dir;
	struct vtrace_catmap map;
	bool all = false, has_targets;
	int status, opt;

	while ((opt = getopt_long(argc, argv, "f:h", options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (cli_files_add(&files, optarg))
				return VTRACE_EXIT_USAGE;
			break;
		case 'i':
			if (cli_parse_instance_name(optarg))
				return VTRACE_EXIT_USAGE;
			instance = optarg;
			break;
		case 'a':
			if (enable) {
				vtrace_err(
					"enable: --all is an option of disable");
				switch_usage(stderr, argv[0]);
				return VTRACE_EXIT_USAGE;
			}
			all = true;
			break;
		case 'h':
			switch_usage(stdout, argv[0]);
			return VTRACE_EXIT_OK;
		default:
			switch_usage(stderr, argv[0]);
			return VTRACE_EXIT_USAGE;
		}
	}
	has_targets = optind < argc;
	if (all == has_targets) {
		vtrace_err("%s: %s", argv[0],
			   all ? "--all takes no category or event" :
				 "no category or event given");
		switch_usage(stderr, argv[0]);
		free(files.names);
		return VTRACE_EXIT_USAGE;
	}

	vtrace_catmap_init(&map);
	vtrace_selection_init(&list);
	if (!all) {
		status = cli_load_selection_files(&files, &map, argv[0]);
		if (status)
			goto out;
		status = resolve_targets(&list, &map, argv + optind,
					 argc - optind);
		if (status)
			goto out;
	}

	/* Tags are held in the state directory: a foreign one is refused. */
	if (enable && !all &&
	    vtrace_atrace_tags_of(argv + optind, argc - optind)) {
		status =
			cli_state_dir_check("enable the userspace atrace tags");
		if (status)
			goto out;
	}
	/* What a dead recording left is put back before anything else. */
	if (enable && (cli_find_tracefs(&dir) ||
		       cli_restore_dead_recordings(stderr) < 0)) {
		status = VTRACE_EXIT_FAIL;
		goto out;
	}
	status = cli_open_tracefs(instance,
				  enable ? VTRACE_INSTANCE_CREATE :
					   VTRACE_INSTANCE_EXISTING,
				  &vi);
	if (status)
		goto out;
	if (all) {
		status = disable_all(vi);
		goto out;
	}
	status = switch_events(vi, &list, enable);
	if (!status)
		status = switch_atrace_tags(instance, argv + optind,
					    argc - optind, enable);
	/* An instance made for a failed enable would be half-done work. */
	if (status && vtrace_instance_is_new(vi))
		vtrace_instance_remove(vi);
out:
	vtrace_instance_close(vi);
	vtrace_selection_free(&list);
	vtrace_catmap_free(&map);
	free(files.names);
	return status;
}

int cmd_enable(int argc, char **argv)
{
	return cmd_switch(argc, argv, true);
}

int cmd_disable(int argc, char **argv)
{
	return cmd_switch(argc, argv, false);
}
