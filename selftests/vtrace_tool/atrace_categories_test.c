// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the standard atrace category table: exact tags and events
 * of the categories vtrace users rely on, and the rules every entry keeps
 * (valid event names, tags inside libcutils' mask, unique names).
 */
#include <stdio.h>
#include <string.h>

#include <vtrace/atrace-categories.h>
#include <vtrace/event-name.h>

#include "../kselftest_harness.h"

/* The events of @cat, each followed by a newline. */
static const char *events_of(const struct vtrace_atrace_category *cat)
{
	static char buf[4096];
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < cat->nr_events; i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%s\n",
				cat->events[i]);
	return buf;
}

TEST(table_has_every_atrace_category_and_perfettos_ion)
{
	size_t nr;

	vtrace_atrace_categories(&nr);
	/* gfx..rro (25), core_services, pdx, 19 kernel-only, thermal, ion. */
	EXPECT_EQ(48, nr);
}

TEST(names_are_unique_and_found)
{
	const struct vtrace_atrace_category *cats;
	size_t nr, i, j;

	cats = vtrace_atrace_categories(&nr);
	for (i = 0; i < nr; i++) {
		EXPECT_EQ(&cats[i], vtrace_atrace_category_find(cats[i].name));
		for (j = i + 1; j < nr; j++)
			EXPECT_NE(0, strcmp(cats[i].name, cats[j].name));
	}
}

TEST(unknown_and_differently_cased_names_are_not_found)
{
	EXPECT_EQ(NULL, vtrace_atrace_category_find("thermal_tj"));
	EXPECT_EQ(NULL, vtrace_atrace_category_find("Sched"));
	EXPECT_EQ(NULL, vtrace_atrace_category_find(""));
	EXPECT_EQ(NULL, vtrace_atrace_category_find("sched "));
}

TEST(tags_match_libcutils)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} expect[] = {
		{ "gfx", 1 },	    { "input", 2 },    { "view", 3 },
		{ "webview", 4 },   { "wm", 5 },       { "am", 6 },
		{ "sm", 7 },	    { "audio", 8 },    { "video", 9 },
		{ "camera", 10 },   { "hal", 11 },     { "res", 13 },
		{ "dalvik", 14 },   { "rs", 15 },      { "bionic", 16 },
		{ "power", 17 },    { "pm", 18 },      { "ss", 19 },
		{ "database", 20 }, { "network", 21 }, { "adb", 22 },
		{ "vibrator", 23 }, { "aidl", 24 },    { "nnapi", 25 },
		{ "rro", 26 },	    { "thermal", 27 },
	};
	size_t i;

	for (i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		const struct vtrace_atrace_category *cat =
			vtrace_atrace_category_find(expect[i].name);

		ASSERT_NE(NULL, cat);
		EXPECT_EQ(1ULL << expect[i].bit, cat->tags)
		TH_LOG("%s", expect[i].name);
	}
	EXPECT_EQ(0xfffffffULL, ATRACE_TAG_VALID_MASK);
	EXPECT_EQ(1ULL << 12, ATRACE_TAG_APP);
}

TEST(kernel_only_categories_have_no_tag)
{
	static const char *const names[] = {
		"sched",	 "freq",   "idle",	    "irq", "disk",
		"binder_driver", "memory", "core_services", "pdx"
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct vtrace_atrace_category *cat =
			vtrace_atrace_category_find(names[i]);

		ASSERT_NE(NULL, cat);
		EXPECT_EQ(0, cat->tags);
	}
}

TEST(every_tag_bit_belongs_to_one_category)
{
	const struct vtrace_atrace_category *cats;
	uint64_t seen = 0;
	size_t nr, i;

	cats = vtrace_atrace_categories(&nr);
	for (i = 0; i < nr; i++) {
		EXPECT_EQ(0, cats[i].tags & seen) TH_LOG("%s", cats[i].name);
		EXPECT_EQ(0, cats[i].tags & ~ATRACE_TAG_VALID_MASK);
		seen |= cats[i].tags;
	}
	/* All but ALWAYS and APP, which no category sets. */
	EXPECT_EQ(ATRACE_TAG_VALID_MASK & ~(ATRACE_TAG_ALWAYS | ATRACE_TAG_APP),
		  seen);
}

TEST(sched_follows_perfetto_without_sched_wakeup)
{
	EXPECT_STREQ("sched/sched_switch\n"
		     "sched/sched_waking\n"
		     "sched/sched_blocked_reason\n"
		     "sched/sched_cpu_hotplug\n"
		     "sched/sched_pi_setprio\n"
		     "sched/sched_process_exit\n"
		     "cgroup/*\n"
		     "oom/oom_score_adj_update\n"
		     "task/task_rename\n"
		     "task/task_newtask\n"
		     "systrace/*\n"
		     "scm/*\n",
		     events_of(vtrace_atrace_category_find("sched")));
}

TEST(small_categories_have_exact_events)
{
	EXPECT_STREQ("power/cpu_idle\n",
		     events_of(vtrace_atrace_category_find("idle")));
	EXPECT_STREQ("irq/*\n"
		     "ipi/*\n",
		     events_of(vtrace_atrace_category_find("irq")));
	EXPECT_STREQ("thermal/thermal_temperature\n"
		     "thermal/cdev_update\n",
		     events_of(vtrace_atrace_category_find("thermal")));
	EXPECT_STREQ("mdss/*\n"
		     "mali/*\n"
		     "sde/*\n"
		     "dpu/*\n"
		     "g2d/*\n"
		     "panel/*\n",
		     events_of(vtrace_atrace_category_find("gfx")));
	EXPECT_STREQ("binder/binder_transaction\n"
		     "binder/binder_transaction_received\n"
		     "binder/binder_transaction_alloc_buf\n"
		     "binder/binder_set_priority\n",
		     events_of(vtrace_atrace_category_find("binder_driver")));
	EXPECT_STREQ("", events_of(vtrace_atrace_category_find("input")));
	EXPECT_EQ(14, vtrace_atrace_category_find("freq")->nr_events);
	EXPECT_EQ(13, vtrace_atrace_category_find("disk")->nr_events);
}

TEST(every_event_is_a_valid_name_or_group_wildcard)
{
	const struct vtrace_atrace_category *cats;
	struct vtrace_name_error err;
	char name[2 * VTRACE_EVENT_PART_MAX + 2];
	size_t nr, i, j, len;

	cats = vtrace_atrace_categories(&nr);
	for (i = 0; i < nr; i++) {
		for (j = 0; j < cats[i].nr_events; j++) {
			snprintf(name, sizeof(name), "%s", cats[i].events[j]);
			len = strlen(name);
			/* A wildcard is valid when its group is. */
			if (len > 2 && !strcmp(name + len - 2, "/*"))
				name[len - 1] = 'x';
			EXPECT_EQ(0, vtrace_event_name_check(name, len, &err))
			TH_LOG("%s: %s", cats[i].events[j], err.reason);
		}
		EXPECT_NE(NULL, cats[i].description);
	}
}

TEST_HARNESS_MAIN
