// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the category file parser and the name rules in
 * tools/lib/vtrace. Each test is named after the rule it checks; every
 * rule is checked by exact map contents and exact diagnostics (severity,
 * line, column).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/categories.h>
#include <vtrace/event-name.h>
#include <vtrace/json.h>
#include <vtrace/strtab.h>

#include "../kselftest_harness.h"

/*
 * The harness runs each test in a child that leaves with _exit(), where
 * LeakSanitizer never looks: under ASan ("make sanitize") each fixture
 * asks for a leak check itself.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define leaks_found() __lsan_do_recoverable_leak_check()
#endif
#endif
#ifndef leaks_found
#define leaks_found() 0
#endif

static const char seed_file[] = "gfx\n"
				" mali/gpu_power_state\n"
				" mali/mali_pm_status\n"
				"thermal_tj\n"
				" thermal_exynos/thermal_cpu_pressure\n"
				" thermal_exynos/thermal_exynos_arm_update\n";

FIXTURE(catmap)
{
	struct vtrace_catmap map;
	struct vtrace_diags diags;
	char events[8192];
};

FIXTURE_SETUP(catmap)
{
	vtrace_catmap_init(&self->map);
	vtrace_diags_init(&self->diags);
}

FIXTURE_TEARDOWN(catmap)
{
	vtrace_catmap_free(&self->map);
	vtrace_diags_free(&self->diags);
	EXPECT_EQ(0, leaks_found());
}

static int parse_len(struct _test_data_catmap *self, const char *file,
		     const char *text, size_t len)
{
	return vtrace_catmap_parse(&self->map, file, text, len, &self->diags);
}

static int parse(struct _test_data_catmap *self, const char *text)
{
	return parse_len(self, "test.txt", text, strlen(text));
}

/* The events of @name joined with ',', or "(none)" without the category. */
static const char *events_of(struct _test_data_catmap *self, const char *name)
{
	const struct vtrace_category *cat =
		vtrace_catmap_find(&self->map, name);
	size_t i, off = 0;

	if (!cat)
		return "(none)";
	self->events[0] = '\0';
	for (i = 0; i < cat->nr_events; i++)
		off += snprintf(self->events + off, sizeof(self->events) - off,
				"%s%s", i ? "," : "", cat->events[i].name);
	return self->events;
}

/*
 * Whether there is a finding with exactly this severity, line and column
 * whose message contains @text.
 */
static bool has_diag(struct _test_data_catmap *self,
		     enum vtrace_severity severity, unsigned int line,
		     unsigned int column, const char *text)
{
	size_t i;

	for (i = 0; i < self->diags.nr; i++) {
		const struct vtrace_diag *d = &self->diags.items[i];

		if (d->severity == severity && d->line == line &&
		    d->column == column && strstr(d->message, text))
			return true;
	}
	for (i = 0; i < self->diags.nr; i++)
		fprintf(stderr, "# have: %s:%u:%u: %s: %s\n",
			self->diags.items[i].file, self->diags.items[i].line,
			self->diags.items[i].column,
			vtrace_severity_name(self->diags.items[i].severity),
			self->diags.items[i].message);
	return false;
}

/* Format: the seed's example and what atrace/Perfetto make of a file. */

TEST_F(catmap, seed_file_maps_two_categories_in_file_order)
{
	ASSERT_EQ(0, parse(self, seed_file));
	ASSERT_EQ(2, self->map.nr);
	EXPECT_STREQ("gfx", self->map.cats[0].name);
	EXPECT_STREQ("thermal_tj", self->map.cats[1].name);
	EXPECT_STREQ("mali/gpu_power_state,mali/mali_pm_status",
		     events_of(self, "gfx"));
	EXPECT_STREQ(
		"thermal_exynos/thermal_cpu_pressure,thermal_exynos/thermal_exynos_arm_update",
		events_of(self, "thermal_tj"));
	EXPECT_EQ(0, self->diags.nr);
}

TEST_F(catmap, event_records_its_group_length_and_line)
{
	const struct vtrace_category *cat;

	ASSERT_EQ(0, parse(self, seed_file));
	cat = vtrace_catmap_find(&self->map, "thermal_tj");
	ASSERT_NE(NULL, cat);
	EXPECT_EQ(strlen("thermal_exynos"), cat->events[0].group_len);
	EXPECT_EQ(5, cat->events[0].line);
	EXPECT_STREQ("test.txt", cat->events[0].file);
}

TEST_F(catmap, category_named_twice_accumulates_events)
{
	ASSERT_EQ(0, parse(self, "gfx\n a/one\nmem\n b/x\ngfx\n a/two\n"));
	ASSERT_EQ(2, self->map.nr);
	EXPECT_STREQ("a/one,a/two", events_of(self, "gfx"));
	EXPECT_STREQ("b/x", events_of(self, "mem"));
	EXPECT_EQ(0, self->diags.nr);
}

TEST_F(catmap, events_keep_file_order)
{
	ASSERT_EQ(0, parse(self, "c\n z/z\n a/a\n m/m\n b/b\n"));
	EXPECT_STREQ("z/z,a/a,m/m,b/b", events_of(self, "c"));
}

TEST_F(catmap, tab_indent_makes_an_event_line)
{
	ASSERT_EQ(0, parse(self, "gfx\n\tmali/gpu_power_state\n"));
	EXPECT_STREQ("mali/gpu_power_state", events_of(self, "gfx"));
	EXPECT_EQ(0, self->diags.nr);
}

TEST_F(catmap, mixed_blank_indent_makes_an_event_line)
{
	ASSERT_EQ(0, parse(self, "gfx\n \t  \tmali/gpu_power_state\n"));
	EXPECT_STREQ("mali/gpu_power_state", events_of(self, "gfx"));
}

TEST_F(catmap, empty_lines_are_skipped_silently)
{
	ASSERT_EQ(0, parse(self, "\n\ngfx\n\n a/b\n\n\n c/d\n\n"));
	EXPECT_STREQ("a/b,c/d", events_of(self, "gfx"));
	EXPECT_EQ(0, self->diags.nr);
}

TEST_F(catmap, last_line_without_newline_is_parsed)
{
	ASSERT_EQ(0, parse(self, "gfx\n a/b"));
	EXPECT_STREQ("a/b", events_of(self, "gfx"));
}

TEST_F(catmap, empty_file_yields_empty_map)
{
	ASSERT_EQ(0, parse(self, ""));
	EXPECT_EQ(0, self->map.nr);
	EXPECT_EQ(0, self->diags.nr);
}

TEST_F(catmap, category_without_events_is_kept_with_warning)
{
	ASSERT_EQ(0, parse(self, "gfx\n a/b\nempty\n"));
	ASSERT_EQ(2, self->map.nr);
	EXPECT_STREQ("", events_of(self, "empty"));
	EXPECT_TRUE(has_diag(self, VTRACE_WARNING, 3, 1, "has no events"));
	EXPECT_EQ(1, self->diags.nr);
}

TEST_F(catmap, event_line_before_any_category_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "  mali/gpu_power_state\ngfx\n a/b\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 1, 3, "before any category"));
	EXPECT_EQ(1, self->diags.nr_errors);
}

/* Whole groups. */

TEST_F(catmap, whole_group_is_error_with_hint)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 2,
			     "list the group's events one per line"));
}

TEST_F(catmap, whole_group_with_star_is_error_with_hint)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali/*\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 7,
			     "list the group's events one per line"));
}

TEST_F(catmap, group_with_trailing_slash_is_error_with_hint)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali/\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 7, "missing event name"));
}

TEST_F(catmap, wildcard_in_event_name_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali/gpu_*\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 11, "wildcards"));
}

/* Line ends and blanks: accepted, warned where the meaning changes. */

TEST_F(catmap, crlf_line_ends_give_the_lf_map_and_one_warning)
{
	ASSERT_EQ(0, parse(self, "gfx\r\n mali/gpu_power_state\r\n"
				 " mali/mali_pm_status\r\n"));
	EXPECT_STREQ("mali/gpu_power_state,mali/mali_pm_status",
		     events_of(self, "gfx"));
	EXPECT_EQ(1, self->diags.nr);
	EXPECT_TRUE(has_diag(self, VTRACE_WARNING, 1, 4, "CRLF"));
}

TEST_F(catmap, crlf_blank_line_does_not_start_a_category)
{
	ASSERT_EQ(0, parse(self, "gfx\r\n a/b\r\n\r\n c/d\r\n"));
	EXPECT_EQ(1, self->map.nr);
	EXPECT_STREQ("a/b,c/d", events_of(self, "gfx"));
}

TEST_F(catmap, byte_order_mark_is_ignored_with_warning)
{
	ASSERT_EQ(0, parse(self, "\xef\xbb\xbfgfx\x20\n a/b\n"));
	EXPECT_STREQ("a/b", events_of(self, "gfx"));
	EXPECT_TRUE(has_diag(self, VTRACE_WARNING, 1, 1, "byte order mark"));
	/* Columns on line 1 still count the mark's bytes. */
	EXPECT_TRUE(has_diag(self, VTRACE_WARNING, 1, 7, "trailing"));
	EXPECT_EQ(2, self->diags.nr);
}

TEST_F(catmap, trailing_blanks_after_event_are_ignored_with_warning)
{
	ASSERT_EQ(0, parse(self, "gfx\n mali/gpu_power_state \t\x20\n"));
	EXPECT_STREQ("mali/gpu_power_state", events_of(self, "gfx"));
	EXPECT_TRUE(has_diag(self, VTRACE_WARNING, 2, 22, "trailing"));
	EXPECT_EQ(1, self->diags.nr);
}

TEST_F(catmap, trailing_blanks_after_category_are_ignored_with_warning)
{
	ASSERT_EQ(0, parse(self, "gfx \x20\n a/b\n"));
	EXPECT_STREQ("a/b", events_of(self, "gfx"));
	EXPECT_TRUE(has_diag(self, VTRACE_WARNING, 1, 4, "trailing"));
}

TEST_F(catmap, whitespace_only_line_is_ignored_with_warning)
{
	ASSERT_EQ(0, parse(self, "gfx\n a/b\n \t\x20\n c/d\n"));
	EXPECT_STREQ("a/b,c/d", events_of(self, "gfx"));
	EXPECT_TRUE(has_diag(self, VTRACE_WARNING, 3, 1, "whitespace-only"));
	EXPECT_EQ(1, self->diags.nr);
}

TEST_F(catmap, duplicate_event_is_listed_once_with_warning)
{
	ASSERT_EQ(0, parse(self, "gfx\n a/b\n c/d\n a/b\n"));
	EXPECT_STREQ("a/b,c/d", events_of(self, "gfx"));
	EXPECT_TRUE(has_diag(self, VTRACE_WARNING, 4, 2, "line 2"));
	EXPECT_EQ(1, self->diags.nr);
}

TEST_F(catmap, duplicate_event_after_category_reopens_is_listed_once)
{
	ASSERT_EQ(0, parse(self, "gfx\n a/b\nmem\n x/y\ngfx\n a/b\n"));
	EXPECT_STREQ("a/b", events_of(self, "gfx"));
	EXPECT_TRUE(has_diag(self, VTRACE_WARNING, 6, 2, "duplicate"));
}

TEST_F(catmap, same_event_in_two_categories_is_no_duplicate)
{
	ASSERT_EQ(0, parse(self, "gfx\n a/b\nmem\n a/b\n"));
	EXPECT_STREQ("a/b", events_of(self, "gfx"));
	EXPECT_STREQ("a/b", events_of(self, "mem"));
	EXPECT_EQ(0, self->diags.nr);
}

TEST_F(catmap, duplicate_event_across_files_is_listed_once_with_warning)
{
	static const char one[] = "gfx\n a/b\n", two[] = "gfx\n c/d\n a/b\n";

	ASSERT_EQ(0, parse_len(self, "one.txt", one, strlen(one)));
	ASSERT_EQ(0, parse_len(self, "two.txt", two, strlen(two)));
	EXPECT_STREQ("a/b,c/d", events_of(self, "gfx"));
	ASSERT_EQ(1, self->diags.nr);
	EXPECT_STREQ("two.txt", self->diags.items[0].file);
	EXPECT_EQ(3, self->diags.items[0].line);
	EXPECT_EQ(2, self->diags.items[0].column);
	EXPECT_NE(NULL, strstr(self->diags.items[0].message, "one.txt:2"));
}

/* Names never address anything outside events/<group>/<event>/. */

TEST_F(catmap, empty_group_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n /gpu_power_state\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 2, "empty group"));
}

TEST_F(catmap, absolute_path_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n /sys/kernel/tracing\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 2, "empty group"));
}

TEST_F(catmap, extra_slash_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali/gpu/enable\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 10, "extra '/'"));
}

TEST_F(catmap, double_slash_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali//gpu\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 7, "extra '/'"));
}

TEST_F(catmap, dot_group_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n ./enable\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 2, "'.'"));
}

TEST_F(catmap, dotdot_group_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n ../tracing_on\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 2, "'..'"));
}

TEST_F(catmap, dotdot_event_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali/..\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 7, "'..'"));
}

TEST_F(catmap, path_traversal_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali/../../tracing_on\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 9, "extra '/'"));
}

TEST_F(catmap, blank_inside_name_is_error_at_its_column)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali/gpu power\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 10, "character not used"));
}

TEST_F(catmap, backslash_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali\\gpu/x\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 6, "character not used"));
}

TEST_F(catmap, non_ascii_in_event_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n mali/g\xc3\xbc\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 8, "character not used"));
}

TEST_F(catmap, numeric_event_name_is_valid)
{
	ASSERT_EQ(0, parse(self, "sched\n systrace/0\n"));
	EXPECT_STREQ("systrace/0", events_of(self, "sched"));
}

TEST_F(catmap, uppercase_event_name_is_valid)
{
	ASSERT_EQ(0, parse(self, "gfx\n mali/mali_KCPU_CQS_SET\n"));
	EXPECT_STREQ("mali/mali_KCPU_CQS_SET", events_of(self, "gfx"));
}

TEST_F(catmap, dash_in_group_is_valid)
{
	ASSERT_EQ(0, parse(self, "usb\n xhci-hcd/xhci_urb_enqueue\n"));
	EXPECT_STREQ("xhci-hcd/xhci_urb_enqueue", events_of(self, "usb"));
}

TEST_F(catmap, name_part_of_255_chars_is_valid_and_256_is_error)
{
	char text[600];

	snprintf(text, sizeof(text), "c\n g/%0255d\n", 0);
	ASSERT_EQ(0, parse(self, text));
	snprintf(text, sizeof(text), "d\n g/%0256d\n", 0);
	EXPECT_EQ(-EINVAL, parse(self, text));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 259, "longer than 255"));
}

/* Category lines. */

TEST_F(catmap, control_character_in_category_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gf\x01x\n a/b\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 1, 3, "control character"));
	/* Its events are not reported again as orphans. */
	EXPECT_EQ(1, self->diags.nr_errors);
}

TEST_F(catmap, unindented_event_becomes_category_with_warning)
{
	ASSERT_EQ(0, parse(self, "gfx\n a/b\nmali/gpu_power_state\n"));
	EXPECT_STREQ("", events_of(self, "mali/gpu_power_state"));
	EXPECT_TRUE(
		has_diag(self, VTRACE_WARNING, 3, 1, "looks like an event"));
}

TEST_F(catmap, utf8_category_name_is_accepted)
{
	ASSERT_EQ(0, parse(self, "gr\303\244fik\n a/b\n"));
	EXPECT_STREQ("a/b", events_of(self, "gr\303\244fik"));
}

/* Files that are not category files. */

TEST_F(catmap, nul_byte_is_error_at_its_position)
{
	static const char text[] = "gfx\n a/b\n c/\0d\n";

	EXPECT_EQ(-EINVAL, parse_len(self, "t", text, sizeof(text) - 1));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 3, 4, "NUL byte"));
	EXPECT_EQ(0, self->map.nr);
}

TEST_F(catmap, invalid_utf8_is_error_at_its_position)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n a/b\xff\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 2, 5, "invalid UTF-8"));
}

TEST_F(catmap, overlong_utf8_encoding_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "g\xc0\xaf\n a/b\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 1, 2, "invalid UTF-8"));
}

TEST_F(catmap, utf8_surrogate_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "g\xed\xa0\x80\n a/b\n"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 1, 2, "invalid UTF-8"));
}

TEST_F(catmap, truncated_utf8_at_end_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n a/b\n\xe2\x82"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 3, 1, "invalid UTF-8"));
}

TEST_F(catmap, line_of_one_megabyte_is_error)
{
	size_t len = 1 << 20;
	char *text = malloc(len + 16);

	ASSERT_NE(NULL, text);
	memcpy(text, "gfx\n a/b\n ", 10);
	memset(text + 10, 'x', len);
	strcpy(text + 10 + len, "\n");
	EXPECT_EQ(-EINVAL, parse(self, text));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 3, 4097, "longer than 4096"));
	EXPECT_EQ(0, self->map.nr);
	free(text);
}

TEST_F(catmap, line_of_4096_bytes_is_accepted)
{
	char *text = malloc(4096 + 16);

	ASSERT_NE(NULL, text);
	memset(text, 'c', 4096);
	strcpy(text + 4096, "\n a/b\n");
	ASSERT_EQ(0, parse(self, text));
	EXPECT_EQ(1, self->map.nr);
	EXPECT_EQ(4096, strlen(self->map.cats[0].name));
	free(text);
}

TEST_F(catmap, every_error_of_a_file_is_reported)
{
	EXPECT_EQ(-EINVAL, parse(self, " a/b\ngfx\n mali\n ok/ok\n x/../y\n"));
	EXPECT_EQ(3, self->diags.nr_errors);
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 1, 2, "before any category"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 3, 2, "group/event"));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 5, 6, "extra '/'"));
}

TEST_F(catmap, file_with_an_error_contributes_nothing)
{
	ASSERT_EQ(0, parse_len(self, "good.txt", "gfx\n a/b\n", 9));
	EXPECT_EQ(-EINVAL, parse(self, "gfx\n c/d\nnew\n e/f\n ../x\n"));
	EXPECT_EQ(1, self->map.nr);
	EXPECT_STREQ("a/b", events_of(self, "gfx"));
	EXPECT_STREQ("(none)", events_of(self, "new"));
	EXPECT_EQ(1, self->map.nr_files);
}

/* Reading files. */

static char tmp_path[64];

static const char *write_tmp(const char *text, size_t len)
{
	int fd;

	strcpy(tmp_path, "/tmp/vtrace-catXXXXXX");
	fd = mkstemp(tmp_path);
	if (fd < 0)
		return NULL;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	close(fd);
	return tmp_path;
}

TEST_F(catmap, load_reads_a_file_and_names_it_in_events)
{
	const char *path = write_tmp(seed_file, strlen(seed_file));

	ASSERT_NE(NULL, path);
	ASSERT_EQ(0, vtrace_catmap_load(&self->map, path, &self->diags));
	EXPECT_STREQ("mali/gpu_power_state,mali/mali_pm_status",
		     events_of(self, "gfx"));
	EXPECT_STREQ(path, self->map.cats[0].events[0].file);
	unlink(path);
}

TEST_F(catmap, missing_file_is_io_error_with_message)
{
	EXPECT_EQ(-ENOENT, vtrace_catmap_load(&self->map, "/nonexistent/c.txt",
					      &self->diags));
	ASSERT_EQ(1, self->diags.nr);
	EXPECT_EQ(0, self->diags.items[0].line);
	EXPECT_NE(NULL, strstr(self->diags.items[0].message,
			       "No such file or directory"));
}

TEST_F(catmap, directory_is_io_error)
{
	EXPECT_EQ(-EISDIR,
		  vtrace_catmap_load(&self->map, "/tmp", &self->diags));
	EXPECT_EQ(1, self->diags.nr_errors);
}

TEST_F(catmap, file_of_100_megabytes_is_error_without_reading_it)
{
	int fd;

	strcpy(tmp_path, "/tmp/vtrace-bigXXXXXX");
	fd = mkstemp(tmp_path);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 100 << 20));
	close(fd);
	EXPECT_EQ(-EINVAL,
		  vtrace_catmap_load(&self->map, tmp_path, &self->diags));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 0, 0, "file too large"));
	unlink(tmp_path);
}

TEST_F(catmap, oversized_stream_is_error)
{
	size_t len = VTRACE_CATEGORIES_MAX_FILE + 1;
	char *text = malloc(len);

	ASSERT_NE(NULL, text);
	memset(text, '\n', len);
	EXPECT_EQ(-EINVAL, parse_len(self, "big", text, len));
	EXPECT_TRUE(has_diag(self, VTRACE_ERROR, 0, 0, "file too large"));
	free(text);
}

/* The name checks the CLI applies to its own arguments. */

TEST(event_name_check_reports_offset_and_reason)
{
	struct vtrace_name_error err;

	EXPECT_EQ(0, vtrace_event_name_check("sched/sched_switch", 18, &err));
	EXPECT_EQ(-EINVAL,
		  vtrace_event_name_check("sched/sched switch", 18, &err));
	EXPECT_EQ(11, err.offset);
	EXPECT_EQ(NULL, err.hint);
	EXPECT_EQ(-EINVAL, vtrace_event_name_check("sched", 5, &err));
	EXPECT_NE(NULL, err.hint);
}

TEST(instance_name_allows_dots_but_not_paths)
{
	struct vtrace_name_error err;

	EXPECT_EQ(0, vtrace_instance_name_check("vtrace-test.1_a", &err));
	EXPECT_EQ(-EINVAL, vtrace_instance_name_check("a/b", &err));
	EXPECT_EQ(1, err.offset);
	EXPECT_EQ(-EINVAL, vtrace_instance_name_check("..", &err));
	EXPECT_EQ(-EINVAL, vtrace_instance_name_check(".", &err));
	EXPECT_EQ(-EINVAL, vtrace_instance_name_check("", &err));
}

/* Building blocks. */

TEST(strtab_finds_every_key_after_growing)
{
	static char keys[10000][8];
	struct vtrace_strtab tab;
	size_t i, value;

	vtrace_strtab_init(&tab);
	for (i = 0; i < 10000; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%zu", i);
		ASSERT_EQ(0, vtrace_strtab_insert(&tab, keys[i], i, NULL));
	}
	ASSERT_EQ(1, vtrace_strtab_insert(&tab, "k42", 7, &value));
	EXPECT_EQ(42, value);
	for (i = 0; i < 10000; i++) {
		ASSERT_TRUE(vtrace_strtab_lookup(&tab, keys[i], &value));
		ASSERT_EQ(i, value);
	}
	EXPECT_FALSE(vtrace_strtab_lookup(&tab, "k10000", &value));
	EXPECT_EQ(10000, tab.nr);
	vtrace_strtab_free(&tab);
}

static char *json_of(void (*write)(struct vtrace_json *j), int *ret)
{
	struct vtrace_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	vtrace_json_init(&j, out);
	write(&j);
	*ret = vtrace_json_finish(&j);
	fclose(out);
	return buf;
}

static void json_escapes(struct vtrace_json *j)
{
	vtrace_json_object_begin(j, NULL);
	vtrace_json_string(j, "s", "a\"b\\c\n\x01");
	vtrace_json_array_begin(j, "n");
	vtrace_json_int(j, NULL, -3);
	vtrace_json_uint(j, NULL, 18446744073709551615ull);
	vtrace_json_bool(j, NULL, false);
	vtrace_json_array_end(j);
	vtrace_json_object_end(j);
}

static void json_unbalanced(struct vtrace_json *j)
{
	vtrace_json_object_begin(j, NULL);
	vtrace_json_array_begin(j, "a");
}

TEST(json_escapes_strings_and_separates_members)
{
	int ret;
	char *out = json_of(json_escapes, &ret);

	EXPECT_EQ(0, ret);
	EXPECT_STREQ(
		"{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"n\":[-3,18446744073709551615,false]}\n",
		out);
	free(out);
}

TEST(json_reports_unclosed_nesting)
{
	int ret;
	char *out = json_of(json_unbalanced, &ret);

	EXPECT_EQ(-EINVAL, ret);
	free(out);
}

TEST_HARNESS_MAIN
