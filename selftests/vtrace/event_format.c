// SPDX-License-Identifier: GPL-2.0
/*
 * The vendor events' format files: exactly the fields (name, type, offset,
 * size, signedness) that the Pixel Mali and Exynos thermal drivers define,
 * after the common fields, so that existing consumers decode them unchanged.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest_harness.h"
#include "vtrace_test.h"

/* Signedness of "char" as the running kernel was built (-funsigned-char?). */
#define CHAR_SIGNED -1

struct expected_field {
	const char *type;
	const char *name;
	int offset;
	int size;
	int is_signed;
};

/* struct trace_entry, the same for every event. */
static const struct expected_field common_fields[] = {
	{ "unsigned short", "common_type", 0, 2, 0 },
	{ "unsigned char", "common_flags", 2, 1, 0 },
	{ "unsigned char", "common_preempt_count", 3, 1, 0 },
	{ "int", "common_pid", 4, 4, 1 },
};

/*
 * Read the signedness of char from a built-in event with a __string field:
 * 6.1 x86 kernels have signed char, 6.12 and every arm64 kernel unsigned.
 */
static int kernel_char_signed(void)
{
	static const char *const refs[][3] = {
		{ "irq", "irq_handler_entry", "name" },
		{ "sched", "sched_process_exec", "filename" },
	};
	const struct vt_field *fld;
	struct vt_format f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		if (vt_format_load(refs[i][0], refs[i][1], &f))
			continue;
		fld = vt_field(&f, refs[i][2]);
		if (fld && !strcmp(fld->type, "__data_loc char[]"))
			return fld->is_signed;
	}
	return -1;
}

FIXTURE(format)
{
	struct vt_format f;
};

FIXTURE_VARIANT(format)
{
	const char *system;
	const char *event;
	int nr_fields;
	struct expected_field fields[8];
	const char *print_words[8];
};

FIXTURE_VARIANT_ADD(format, gpu_power_state) {
	.system = "mali",
	.event = "gpu_power_state",
	.nr_fields = 3,
	.fields = {
		{ "u64", "change_ns", 8, 8, 0 },
		{ "int", "from_state", 16, 4, 1 },
		{ "int", "to_state", 20, 4, 1 },
	},
	.print_words = { "__print_symbolic(REC->from_state",
			 "__print_symbolic(REC->to_state", "\"OFF\"",
			 "\"GLOBAL\"", "\"COREGROUP\"", "\"STACKS\"" },
};

FIXTURE_VARIANT_ADD(format, mali_pm_status) {
	.system = "mali",
	.event = "mali_pm_status",
	.nr_fields = 3,
	.fields = {
		{ "u32", "gpu_id", 8, 4, 0 },
		{ "u32", "event_id", 12, 4, 0 },
		{ "u64", "value", 16, 8, 0 },
	},
};

FIXTURE_VARIANT_ADD(format, thermal_cpu_pressure) {
	.system = "thermal_exynos",
	.event = "thermal_cpu_pressure",
	.nr_fields = 2,
	.fields = {
		{ "unsigned long", "pressure", 8, sizeof(long), 0 },
		{ "int", "cpu", 8 + sizeof(long), 4, 1 },
	},
};

FIXTURE_VARIANT_ADD(format, thermal_exynos_arm_update) {
	.system = "thermal_exynos",
	.event = "thermal_exynos_arm_update",
	.nr_fields = 6,
	.fields = {
		{ "__data_loc char[]", "tmu_name", 8, 4, CHAR_SIGNED },
		{ "bool", "is_cpu_hw_throttled", 12, 1, 0 },
		{ "int", "ppm_throttle_level", 16, 4, 1 },
		{ "int", "ppm_clr_level", 20, 4, 1 },
		{ "int", "mpmm_throttle_level", 24, 4, 1 },
		{ "int", "mpmm_clr_level", 28, 4, 1 },
	},
	.print_words = { "__get_str(tmu_name)" },
};

FIXTURE_SETUP(format)
{
	const char *why = vt_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vt_format_load(variant->system, variant->event, &self->f));
}

FIXTURE_TEARDOWN(format)
{
}

static void check_field(struct __test_metadata *_metadata,
			const struct vt_field *got,
			const struct expected_field *want)
{
	int want_signed = want->is_signed;

	if (want_signed == CHAR_SIGNED) {
		want_signed = kernel_char_signed();
		ASSERT_LE(0, want_signed) TH_LOG("no built-in __string event");
	}
	EXPECT_STREQ(want->name, got->name);
	EXPECT_STREQ(want->type, got->type) TH_LOG("field %s", want->name);
	EXPECT_EQ(want->offset, got->offset) TH_LOG("field %s", want->name);
	EXPECT_EQ(want->size, got->size) TH_LOG("field %s", want->name);
	EXPECT_EQ(want_signed, got->is_signed) TH_LOG("field %s", want->name);
}

/* Exactly the common fields followed by the vendor fields, in order. */
TEST_F(format, fields)
{
	const int nr_common = ARRAY_SIZE(common_fields);
	int i;

	ASSERT_EQ(nr_common + variant->nr_fields, self->f.nr_fields);
	for (i = 0; i < nr_common; i++)
		check_field(_metadata, &self->f.field[i], &common_fields[i]);
	for (i = 0; i < variant->nr_fields; i++)
		check_field(_metadata, &self->f.field[nr_common + i],
			    &variant->fields[i]);
}

/* The format's ID is the event's id file, and unique to it. */
TEST_F(format, id)
{
	char path[PATH_MAX];
	uint64_t id;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", vt_tracefs(),
		 variant->system, variant->event);
	ASSERT_EQ(0, vt_read_u64(path, &id));
	EXPECT_EQ(id, (uint64_t)self->f.id);
	EXPECT_LT(0, self->f.id);
}

/* Every field is printed, enums symbolically. */
TEST_F(format, print_fmt)
{
	char ref[96];
	int i;

	for (i = 0; i < variant->nr_fields; i++) {
		const char *name = variant->fields[i].name;

		snprintf(ref, sizeof(ref), "REC->%s", name);
		if (!strstr(self->f.print_fmt, ref)) {
			snprintf(ref, sizeof(ref), "__get_str(%s)", name);
			EXPECT_NE(NULL, strstr(self->f.print_fmt, ref))
			TH_LOG("%s not printed: %s", name, self->f.print_fmt);
		}
	}
	for (i = 0; variant->print_words[i]; i++)
		EXPECT_NE(NULL,
			  strstr(self->f.print_fmt, variant->print_words[i]))
	TH_LOG("no %s in: %s", variant->print_words[i], self->f.print_fmt);
}

/* Each event system holds exactly the vendor events and nothing else. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_events(const char *system, char *names, size_t size)
{
	char path[PATH_MAX], *found[32];
	struct dirent *de;
	size_t n = 0, i;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/events/%s", vt_tracefs(), system);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir)) && n < 32) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/format",
			 vt_tracefs(), system, de->d_name);
		if (de->d_name[0] != '.' && vt_exists(path))
			found[n++] = strdup(de->d_name);
	}
	closedir(dir);
	qsort(found, n, sizeof(found[0]), cmp_str);
	names[0] = '\0';
	for (i = 0; i < n; i++) {
		snprintf(names + strlen(names), size - strlen(names), "%s%s",
			 i ? " " : "", found[i]);
		free(found[i]);
	}
	return 0;
}

TEST(event_systems)
{
	char names[512];

	if (vt_skip_reason())
		SKIP(return, "%s", vt_skip_reason());
	ASSERT_EQ(0, list_events("mali", names, sizeof(names)));
	EXPECT_STREQ("gpu_power_state mali_pm_status", names);
	ASSERT_EQ(0, list_events("thermal_exynos", names, sizeof(names)));
	EXPECT_STREQ("thermal_cpu_pressure thermal_exynos_arm_update", names);
}

TEST_HARNESS_MAIN
