// SPDX-License-Identifier: GPL-2.0
/*
 * The vendor events' format files against a real device's: every event of
 * the reference (a Pixel 6's tracefs formats, and Perfetto's synthetic ones
 * for the CSF Mali and ACPM events; the Pixel's wins where both have one)
 * exists with the same fields in the same order, types, sizes, signedness
 * and offsets, and the same print fmt, except for what vtrace.ko changes
 * on purpose:
 *
 *  - A "const char *" name field is stored in the event: it shows as
 *    "__data_loc char[]" of size 4 (signedness of char), printed with
 *    __get_str(); the fields after it sit where the C layout puts them.
 *  - Power levels are TRACE_DEFINE_ENUM symbols, so the print fmt shows
 *    their values where the device shows GPU_POWER_LEVEL_* names.
 *  - A string field is as signed as the kernel's char: the device is arm64
 *    (unsigned), 6.1 on x86 signed, 6.2 and later unsigned everywhere.
 *
 * The reference is not part of the project: VTRACE_REF_DIR names the
 * directory holding pixel-raven-5.10/ and perfetto-synthetic/ (run-guest.sh
 * stages ../shared/ref into the guest as ../../ref); without it the tests
 * skip.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest_harness.h"
#include "vtrace_test.h"

#define NR_REFERENCE_EVENTS 65

static const char *const ref_sets[] = { "pixel-raven-5.10",
					"perfetto-synthetic" };
static const char *const systems[] = { "mali", "thermal_exynos",
				       "thermal_exynos_gpu" };

/* The enum values behind the device's symbols (enum mali_power_level). */
static const char *const power_levels[][2] = {
	{ "GPU_POWER_LEVEL_OFF", "0" },
	{ "GPU_POWER_LEVEL_GLOBAL", "1" },
	{ "GPU_POWER_LEVEL_COREGROUP", "2" },
	{ "GPU_POWER_LEVEL_STACKS", "3" },
};

static const char *ref_dir(void)
{
	const char *dir = getenv("VTRACE_REF_DIR");

	return dir ? dir : "../../ref";
}

/* The reference format of SYSTEM/EVENT, the Pixel's first; 0 or -errno. */
static int ref_path(const char *system, const char *event, char *path,
		    size_t size)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ref_sets); i++) {
		snprintf(path, size, "%s/%s/events/%s/%s/format", ref_dir(),
			 ref_sets[i], system, event);
		if (vt_exists(path))
			return 0;
	}
	return -ENOENT;
}

static bool ref_present(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/events/mali", ref_dir(),
		 ref_sets[0]);
	return vt_exists(path);
}

/* Signedness of char in this kernel, from a built-in __string field. */
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

/* Called for each reference event, see walk_ref_events(). */
typedef void (*ref_event_fn)(const char *system, const char *event, void *arg);

/* A reference field as vtrace.ko must show it. */
struct want_field {
	char type[96];
	char name[64];
	char len[64]; /* "[...]" of a fixed array, else "" */
	int offset;
	int size;
	int is_signed;
	bool stored_name; /* the "const char *" deviation */
};

/*
 * The reference's parser splits "u64 mem_values[(4 * sizeof(u64)) / ...]"
 * at its last blank: put the declaration together again and split it
 * into type, name and "[length]".
 */
static void split_decl(const struct vt_field *fld, struct want_field *w)
{
	char decl[sizeof(w->type) + 64], *bracket, *name;

	snprintf(decl, sizeof(decl), "%s %s", fld->type, fld->name);
	w->len[0] = '\0';
	bracket = strstr(decl, "__data_loc") ? NULL : strchr(decl, '[');
	if (bracket) {
		snprintf(w->len, sizeof(w->len), "%s", bracket);
		*bracket = '\0';
	}
	name = strrchr(decl, ' ');
	snprintf(w->name, sizeof(w->name), "%s", name + 1);
	*name = '\0';
	snprintf(w->type, sizeof(w->type), "%.95s", decl);
}

static int field_align(const struct want_field *w)
{
	if (!strncmp(w->type, "__data_loc", 10))
		return 4;
	if (w->len[0]) /* the reference's only array holds u64 */
		return 8;
	return w->size > 8 ? 8 : w->size;
}

/*
 * The reference's fields with the deviations applied and the offsets laid
 * out as the compiler does; *layout_same says whether that layout gives the
 * reference's own offsets (it must, for events without the deviation).
 */
static int want_fields(const struct vt_format *ref, int char_signed,
		       struct want_field *want, bool *layout_same)
{
	int i, end = 0, align;

	*layout_same = true;
	for (i = 0; i < ref->nr_fields; i++) {
		struct want_field *w = &want[i];

		split_decl(&ref->field[i], w);
		w->size = ref->field[i].size;
		w->is_signed = ref->field[i].is_signed;
		w->stored_name = !strcmp(w->type, "const char *");
		if (w->stored_name) {
			strcpy(w->type, "__data_loc char[]");
			w->size = 4;
		}
		/* A string's signedness is the kernel's char's. */
		if (!strcmp(w->type, "__data_loc char[]"))
			w->is_signed = char_signed;
		if (!strncmp(w->name, "common_", 7)) {
			w->offset = ref->field[i].offset;
		} else {
			align = field_align(w);
			w->offset = (end + align - 1) / align * align;
		}
		end = w->offset + w->size;
		if (!w->stored_name && w->offset != ref->field[i].offset)
			*layout_same = false;
	}
	return ref->nr_fields;
}

/* Replaces every @from in @s (of @size bytes) by @to. */
static void replace_all(char *s, size_t size, const char *from, const char *to)
{
	char *p = s, *buf;

	buf = malloc(size);
	while (buf && (p = strstr(p, from))) {
		snprintf(buf, size, "%s%s", to, p + strlen(from));
		snprintf(p, size - (p - s), "%s", buf);
		p += strlen(to);
	}
	free(buf);
}

static void want_print_fmt(const struct vt_format *ref,
			   const struct want_field *want, char *fmt,
			   size_t size)
{
	char from[80], to[80];
	size_t i;
	int f;

	snprintf(fmt, size, "%s", ref->print_fmt);
	for (f = 0; f < ref->nr_fields; f++) {
		if (!want[f].stored_name)
			continue;
		snprintf(from, sizeof(from), "REC->%s", want[f].name);
		snprintf(to, sizeof(to), "__get_str(%s)", want[f].name);
		replace_all(fmt, size, from, to);
	}
	for (i = 0; i < ARRAY_SIZE(power_levels); i++)
		replace_all(fmt, size, power_levels[i][0], power_levels[i][1]);
}

static void check_event(struct __test_metadata *_metadata, const char *system,
			const char *event, int char_signed)
{
	struct want_field want[VT_MAX_FIELDS];
	char path[PATH_MAX];
	static struct vt_format ref, got;
	static char fmt[sizeof(ref.print_fmt)];
	struct want_field g;
	bool layout_same;
	bool deviates = false;
	int i, n;

	ASSERT_EQ(0, ref_path(system, event, path, sizeof(path)))
	TH_LOG("%s/%s: no reference format", system, event);
	ASSERT_EQ(0, vt_format_load_file(path, &ref)) TH_LOG("%s", path);
	ASSERT_EQ(0, vt_format_load(system, event, &got))
	TH_LOG("%s/%s not in tracefs", system, event);

	n = want_fields(&ref, char_signed, want, &layout_same);
	for (i = 0; i < n; i++)
		deviates |= want[i].stored_name;
	EXPECT_TRUE(deviates || layout_same)
	TH_LOG("%s/%s: the C layout does not give the reference offsets",
	       system, event);
	ASSERT_EQ(n, got.nr_fields) TH_LOG("%s/%s", system, event);
	for (i = 0; i < n; i++) {
		split_decl(&got.field[i], &g);
		EXPECT_STREQ(want[i].name, g.name)
		TH_LOG("%s/%s field %d", system, event, i);
		EXPECT_STREQ(want[i].type, g.type)
		TH_LOG("%s/%s %s", system, event, want[i].name);
		EXPECT_EQ(want[i].offset, got.field[i].offset)
		TH_LOG("%s/%s %s", system, event, want[i].name);
		EXPECT_EQ(want[i].size, got.field[i].size)
		TH_LOG("%s/%s %s", system, event, want[i].name);
		EXPECT_EQ(want[i].is_signed, got.field[i].is_signed)
		TH_LOG("%s/%s %s", system, event, want[i].name);
		/* A fixed array's length as the device spells it. */
		EXPECT_STREQ(want[i].len, g.len)
		TH_LOG("%s/%s %s", system, event, want[i].name);
	}
	want_print_fmt(&ref, want, fmt, sizeof(fmt));
	EXPECT_STREQ(fmt, got.print_fmt) TH_LOG("%s/%s", system, event);
}

/* Calls @fn for each reference event, the Pixel's first; returns count. */
static int walk_ref_events(ref_event_fn fn, void *arg)
{
	char path[PATH_MAX], seen[PATH_MAX];
	size_t set, sys;
	struct dirent *de;
	int n = 0;
	DIR *dir;

	for (set = 0; set < ARRAY_SIZE(ref_sets); set++) {
		for (sys = 0; sys < ARRAY_SIZE(systems); sys++) {
			snprintf(path, sizeof(path), "%s/%s/events/%s",
				 ref_dir(), ref_sets[set], systems[sys]);
			dir = opendir(path);
			if (!dir)
				continue;
			while ((de = readdir(dir))) {
				if (de->d_name[0] == '.')
					continue;
				/* Already had from the Pixel's set? */
				snprintf(seen, sizeof(seen),
					 "%s/%s/events/%s/%s/format", ref_dir(),
					 ref_sets[0], systems[sys], de->d_name);
				if (set && vt_exists(seen))
					continue;
				fn(systems[sys], de->d_name, arg);
				n++;
			}
			closedir(dir);
		}
	}
	return n;
}

struct check_arg {
	struct __test_metadata *_metadata;
	int char_signed;
};

static void check_one(const char *system, const char *event, void *arg)
{
	struct check_arg *c = arg;

	check_event(c->_metadata, system, event, c->char_signed);
}

/* Every reference event, compared field by field and by print fmt. */
TEST(formats_match_the_reference)
{
	struct check_arg c = { _metadata };

	if (vt_skip_reason())
		SKIP(return, "%s", vt_skip_reason());
	if (!ref_present())
		SKIP(return, "no reference formats in %s", ref_dir());
	c.char_signed = kernel_char_signed();
	ASSERT_LE(0, c.char_signed) TH_LOG("no built-in __string event");
	EXPECT_EQ(NR_REFERENCE_EVENTS, walk_ref_events(check_one, &c));
}

/* The module's systems hold exactly the reference's events. */
TEST(no_events_beyond_the_reference)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t sys;
	int n = 0;
	DIR *dir;

	if (vt_skip_reason())
		SKIP(return, "%s", vt_skip_reason());
	if (!ref_present())
		SKIP(return, "no reference formats in %s", ref_dir());
	for (sys = 0; sys < ARRAY_SIZE(systems); sys++) {
		snprintf(path, sizeof(path), "%s/events/%s", vt_tracefs(),
			 systems[sys]);
		dir = opendir(path);
		ASSERT_NE(NULL, dir) TH_LOG("%s", path);
		while ((de = readdir(dir))) {
			snprintf(path, sizeof(path), "%s/events/%s/%s/format",
				 vt_tracefs(), systems[sys], de->d_name);
			if (de->d_name[0] == '.' || !vt_exists(path))
				continue;
			n++;
			EXPECT_EQ(0, ref_path(systems[sys], de->d_name, path,
					      sizeof(path)))
			TH_LOG("%s/%s has no reference", systems[sys],
			       de->d_name);
		}
		closedir(dir);
	}
	EXPECT_EQ(NR_REFERENCE_EVENTS, n);
}

/* Each format's ID is its event's id file. */
TEST(ids_are_the_id_files)
{
	static const char *const events[][2] = {
		{ "mali", "gpu_power_state" },
		{ "mali", "mali_KCPU_CQS_SET" },
		{ "thermal_exynos", "thermal_exynos_arm_update" },
		{ "thermal_exynos_gpu", "vendor_cdev_update" },
	};
	char path[PATH_MAX];
	struct vt_format f;
	uint64_t id;
	size_t i;

	if (vt_skip_reason())
		SKIP(return, "%s", vt_skip_reason());
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		ASSERT_EQ(0, vt_format_load(events[i][0], events[i][1], &f));
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", vt_tracefs(),
			 events[i][0], events[i][1]);
		ASSERT_EQ(0, vt_read_u64(path, &id));
		EXPECT_EQ(id, (uint64_t)f.id);
		EXPECT_LT(0, f.id);
	}
}

TEST_HARNESS_MAIN
