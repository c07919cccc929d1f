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
#include <vtrace/event-name.h>
#include <vtrace/events.h>
#include <vtrace/strtab.h>

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
		"                     or " VTRACE_DEFAULT_CATEGORIES ")\n"
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

/**
 * struct switch_list - the events a command switches, each once
 * @changes: events in argument order, expanded from categories
 * @origins: for each event, the category it came from, or NULL
 * @nr: number of events
 * @seen: event name to index in @changes
 */
struct switch_list {
	struct vtrace_event_change *changes;
	const char **origins;
	size_t nr;
	struct vtrace_strtab seen;
};

static int switch_list_add(struct switch_list *list, const char *name,
			   const char *origin)
{
	struct vtrace_event_change *changes;
	const char **origins;
	int ret;

	changes = realloc(list->changes, (list->nr + 1) * sizeof(*changes));
	if (!changes)
		return -ENOMEM;
	list->changes = changes;
	origins = realloc(list->origins, (list->nr + 1) * sizeof(*origins));
	if (!origins)
		return -ENOMEM;
	list->origins = origins;

	ret = vtrace_strtab_insert(&list->seen, name, list->nr, NULL);
	if (ret)
		return ret < 0 ? ret : 0;
	changes[list->nr].name = name;
	changes[list->nr].changed = false;
	origins[list->nr] = origin;
	list->nr++;
	return 0;
}

/* Expand the arguments into events; prints and returns an exit status. */
static int resolve_targets(struct switch_list *list,
			   const struct vtrace_catmap *map, char **targets,
			   int nr_targets)
{
	const struct vtrace_category *cat;
	struct vtrace_name_error nerr;
	int i, ret = 0;
	size_t k;

	for (i = 0; i < nr_targets && !ret; i++) {
		const char *target = targets[i];

		if (strchr(target, '/')) {
			if (vtrace_event_name_check(target, strlen(target),
						    &nerr)) {
				vtrace_err(
					"bad event name '%s' at offset %zu: %s%s%s",
					target, nerr.offset, nerr.reason,
					nerr.hint ? "; " : "",
					nerr.hint ? nerr.hint : "");
				return VTRACE_EXIT_FAIL;
			}
			ret = switch_list_add(list, target, NULL);
			continue;
		}
		cat = vtrace_catmap_find(map, target);
		if (!cat) {
			vtrace_err(
				"unknown category '%s' (%s; 'vtrace categories' lists them)",
				target,
				map->nr ? "not in the category files" :
					  "no category file loaded");
			return VTRACE_EXIT_FAIL;
		}
		for (k = 0; k < cat->nr_events && !ret; k++)
			ret = switch_list_add(list, cat->events[k].name,
					      cat->name);
	}
	if (ret) {
		vtrace_err("out of memory");
		return VTRACE_EXIT_USAGE;
	}
	return VTRACE_EXIT_OK;
}

static void report_missing(const struct switch_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		if (list->changes[i].before != VTRACE_EVENT_MISSING)
			continue;
		if (list->origins[i])
			vtrace_warn(
				"%s (category %s) is not on this kernel: skipped",
				list->changes[i].name, list->origins[i]);
		else
			vtrace_warn("%s is not on this kernel: skipped",
				    list->changes[i].name);
	}
}

static int switch_events(struct vtrace_instance *vi, struct switch_list *list,
			 bool enable)
{
	const char *verb = enable ? "enable" : "disable";
	size_t i, failed = 0, changed = 0, missing = 0;
	int ret;

	ret = vtrace_events_set(vi, list->changes, list->nr, enable, &failed);
	if (ret) {
		vtrace_err("cannot %s %s in %s: %s; nothing was changed", verb,
			   list->changes[failed].name, cli_instance_label(vi),
			   strerror(-ret));
		return VTRACE_EXIT_FAIL;
	}
	report_missing(list);
	for (i = 0; i < list->nr; i++) {
		changed += list->changes[i].changed;
		missing += list->changes[i].before == VTRACE_EVENT_MISSING;
	}
	printf("%sd %zu event(s) in %s; %zu already %sd, %zu skipped (not on this kernel)\n",
	       verb, changed, cli_instance_label(vi),
	       list->nr - changed - missing, verb, missing);
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
	if (ret) {
		vtrace_err("cannot %s the userspace atrace tags in %s: %s",
			   enable ? "enable" : "disable", vtrace_state_dir(),
			   strerror(-ret));
		return VTRACE_EXIT_FAIL;
	}
	printf("%sd userspace atrace tags 0x%llx\n",
	       enable ? "enable" : "disable", (unsigned long long)tags);
	return VTRACE_EXIT_OK;
}

static int disable_all(struct vtrace_instance *vi)
{
	int ret;

	ret = vtrace_atrace_tags_disable(vtrace_instance_name(vi), ~0ULL);
	if (ret)
		vtrace_warn("cannot disable the userspace atrace tags: %s",
			    strerror(-ret));

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
	struct switch_list list = {};
	struct vtrace_instance *vi = NULL;
	struct cli_files files = {};
	const char *instance = NULL;
	struct vtrace_catmap map;
	struct vtrace_diags diags;
	bool all = false;
	int status, opt, ret;

	while ((opt = getopt_long(argc, argv, "f:h", options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (cli_files_add(&files, optarg))
				return VTRACE_EXIT_USAGE;
			break;
		case 'i':
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
	if (all == (optind != argc)) {
		vtrace_err("%s: %s", argv[0],
			   all ? "--all takes no category or event" :
				 "no category or event given");
		switch_usage(stderr, argv[0]);
		free(files.names);
		return VTRACE_EXIT_USAGE;
	}

	vtrace_catmap_init(&map);
	vtrace_diags_init(&diags);
	vtrace_strtab_init(&list.seen);
	if (!all) {
		ret = cli_load_categories(&files, &map, &diags);
		cli_print_diags(stderr, &diags);
		if (ret) {
			vtrace_err("%s: bad category file; nothing was changed",
				   argv[0]);
			status = ret == -EINVAL ? VTRACE_EXIT_FAIL :
						  VTRACE_EXIT_USAGE;
			goto out;
		}
		status = resolve_targets(&list, &map, argv + optind,
					 argc - optind);
		if (status)
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
	vtrace_strtab_free(&list.seen);
	free(list.changes);
	free(list.origins);
	vtrace_diags_free(&diags);
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
