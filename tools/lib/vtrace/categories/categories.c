// SPDX-License-Identifier: LGPL-2.1
/*
 * Parser for Android vendor category files.
 *
 * Format, as atrace and Perfetto read /vendor/etc/atrace/atrace_categories.txt
 * since Android 14: lines are split at '\n' and empty lines skipped; a line
 * whose first byte is not a space or a tab names a category (a category named
 * twice accumulates); a line starting with spaces or tabs is, with those
 * removed, a "group/event" of the category above it, and a blank-only one is
 * skipped.
 *
 * Where those readers accept a file, the map built here is the same, with
 * these exceptions, each reported as a warning because the naive reading and
 * theirs differ: a CR before '\n', trailing blanks and a UTF-8 byte order
 * mark are not part of names (they would be for atrace and Perfetto, and no
 * such category or event exists), and an event listed twice in a category
 * is kept once.
 *
 * Stricter than them, as errors: names that could reach outside
 * events/<group>/<event>/ or contain characters no tracepoint uses, whole
 * groups, and files that are not text (NUL bytes, invalid UTF-8, huge lines
 * or files). A file with any error contributes nothing to the map.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/categories.h>
#include <vtrace/event-name.h>

#include <vtrace/file-io.h>

#define NO_CATEGORY (-1)
#define REJECTED_CATEGORY (-2)

struct parser {
	struct vtrace_catmap *map;
	struct vtrace_diags *diags;
	const char *file;
	unsigned int line;
	/*
	 * Index of the category the next event lines belong to, NO_CATEGORY
	 * before the first one, REJECTED_CATEGORY after a category line that
	 * was an error (its event lines are skipped: the error is reported).
	 */
	long current;
	/* Line of each category's first mention, for the "no events" check. */
	unsigned int *first_line;
	/* Bytes before the line start (a byte order mark on line 1). */
	unsigned int column_offset;
	bool warned_cr;
	int err;
};

static const char utf8_bom[] = "\xef\xbb\xbf";

/**
 * vtrace_catmap_init - start an empty category map
 * @map: map to initialise
 */
void vtrace_catmap_init(struct vtrace_catmap *map)
{
	memset(map, 0, sizeof(*map));
	vtrace_strtab_init(&map->index);
}

static void category_free(struct vtrace_category *cat)
{
	size_t i;

	for (i = 0; i < cat->nr_events; i++)
		free(cat->events[i].name);
	free(cat->events);
	vtrace_strtab_free(&cat->index);
	free(cat->name);
}

/**
 * vtrace_catmap_free - release a map and everything in it
 * @map: map to free; it is left empty and reusable
 */
void vtrace_catmap_free(struct vtrace_catmap *map)
{
	size_t i;

	for (i = 0; i < map->nr; i++)
		category_free(&map->cats[i]);
	free(map->cats);
	vtrace_strtab_free(&map->index);
	for (i = 0; i < map->nr_files; i++)
		free(map->files[i]);
	free(map->files);
	vtrace_catmap_init(map);
}

/**
 * vtrace_catmap_find - look a category up by name
 * @map: map to search
 * @name: category name
 *
 * Return: the category, or NULL when no file defines it.
 */
const struct vtrace_category *
vtrace_catmap_find(const struct vtrace_catmap *map, const char *name)
{
	size_t i;

	if (!vtrace_strtab_lookup(&map->index, name, &i))
		return NULL;
	return &map->cats[i];
}

/*
 * Find or add the category @name (taken over on success) and return its
 * index, or -ENOMEM (then @name is freed).
 */
static long catmap_category(struct vtrace_catmap *map, char *name)
{
	struct vtrace_category *cat;
	size_t found;
	int ret;

	if (vtrace_strtab_lookup(&map->index, name, &found)) {
		free(name);
		return found;
	}
	if (map->nr == map->alloc) {
		size_t alloc = map->alloc ? map->alloc * 2 : 8;
		struct vtrace_category *cats;

		cats = realloc(map->cats, alloc * sizeof(*cats));
		if (!cats)
			goto nomem;
		map->cats = cats;
		map->alloc = alloc;
	}
	ret = vtrace_strtab_insert(&map->index, name, map->nr, NULL);
	if (ret < 0)
		goto nomem;
	cat = &map->cats[map->nr];
	memset(cat, 0, sizeof(*cat));
	cat->name = name;
	vtrace_strtab_init(&cat->index);
	return map->nr++;
nomem:
	free(name);
	return -ENOMEM;
}

/*
 * Append @event (name taken over on success) to @cat unless it is already
 * listed. Return 0 when added, 1 when already there (then *first is the line
 * it was first listed on and the name is freed), or -ENOMEM.
 */
static int category_add_event(struct vtrace_category *cat,
			      struct vtrace_category_event *event,
			      const struct vtrace_category_event **first)
{
	size_t found;
	int ret;

	if (cat->nr_events == cat->alloc) {
		size_t alloc = cat->alloc ? cat->alloc * 2 : 4;
		struct vtrace_category_event *events;

		events = realloc(cat->events, alloc * sizeof(*events));
		if (!events)
			return -ENOMEM;
		cat->events = events;
		cat->alloc = alloc;
	}
	ret = vtrace_strtab_insert(&cat->index, event->name, cat->nr_events,
				   &found);
	if (ret < 0)
		return ret;
	if (ret == 1) {
		*first = &cat->events[found];
		free(event->name);
		return 1;
	}
	cat->events[cat->nr_events++] = *event;
	return 0;
}

static void diag(struct parser *p, unsigned int column,
		 enum vtrace_severity severity, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void diag(struct parser *p, unsigned int column,
		 enum vtrace_severity severity, const char *fmt, ...)
{
	va_list ap;

	if (column)
		column += p->column_offset;
	va_start(ap, fmt);
	if (vtrace_diag_vadd(p->diags, p->file, p->line, column, severity, fmt,
			     ap))
		p->err = -ENOMEM;
	va_end(ap);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Length of the valid UTF-8 sequence at @s (at most @len bytes), or 0 when
 * it is not one: truncated, overlong, a surrogate or beyond U+10FFFF.
 */
static size_t utf8_sequence(const unsigned char *s, size_t len)
{
	unsigned int cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/*
 * Reject what is no text file: NUL bytes or invalid UTF-8. Reports the first
 * offending byte and returns false when there is one.
 */
static bool check_text(struct parser *p, const char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t i = 0, line_start = 0, n;

	p->line = 1;
	while (i < len) {
		if (s[i] == '\n') {
			p->line++;
			line_start = ++i;
			continue;
		}
		if (!s[i]) {
			diag(p, i - line_start + 1, VTRACE_ERROR,
			     "NUL byte: this is not a text file");
			return false;
		}
		n = utf8_sequence(s + i, len - i);
		if (!n) {
			diag(p, i - line_start + 1, VTRACE_ERROR,
			     "invalid UTF-8: this is not a text file");
			return false;
		}
		i += n;
	}
	return true;
}

static void parse_category(struct parser *p, const char *s, size_t len)
{
	size_t i, nr_before = p->map->nr;
	unsigned int *lines;
	char *name;

	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			diag(p, i + 1, VTRACE_ERROR,
			     "control character in category name");
			p->current = REJECTED_CATEGORY;
			return;
		}
	}

	name = strndup(s, len);
	if (!name) {
		p->err = -ENOMEM;
		return;
	}
	if (memchr(s, '/', len))
		diag(p, 1, VTRACE_WARNING,
		     "category '%s' looks like an event: indent event lines with a space or a tab",
		     name);
	else if (memchr(s, ' ', len) || memchr(s, '\t', len))
		diag(p, 1, VTRACE_WARNING, "category name '%s' contains blanks",
		     name);

	p->current = catmap_category(p->map, name);
	if (p->current < 0) {
		p->err = p->current;
		return;
	}
	if (p->map->nr == nr_before)
		return;
	lines = realloc(p->first_line, p->map->alloc * sizeof(*lines));
	if (!lines) {
		p->err = -ENOMEM;
		return;
	}
	p->first_line = lines;
	p->first_line[p->current] = p->line;
}

static void parse_event(struct parser *p, const char *s, size_t len,
			size_t indent)
{
	const struct vtrace_category_event *first;
	struct vtrace_category_event event;
	struct vtrace_name_error nerr;
	struct vtrace_category *cat;
	int ret;

	if (vtrace_event_name_check(s, len, &nerr)) {
		diag(p, indent + nerr.offset + 1, VTRACE_ERROR, "%s%s%s%s",
		     nerr.reason, nerr.hint ? " (" : "",
		     nerr.hint ? nerr.hint : "", nerr.hint ? ")" : "");
		return;
	}
	if (p->current == REJECTED_CATEGORY)
		return;
	if (p->current == NO_CATEGORY) {
		diag(p, indent + 1, VTRACE_ERROR,
		     "event line before any category (a category name starts in column 1)");
		return;
	}

	event.name = strndup(s, len);
	if (!event.name) {
		p->err = -ENOMEM;
		return;
	}
	event.group_len = (const char *)memchr(s, '/', len) - s;
	event.file = p->file;
	event.line = p->line;
	event.column = indent + 1;

	cat = &p->map->cats[p->current];
	ret = category_add_event(cat, &event, &first);
	if (ret < 0) {
		free(event.name);
		p->err = ret;
	} else if (ret == 1) {
		diag(p, indent + 1, VTRACE_WARNING,
		     "duplicate event in category '%s' (first listed on line %u): enabled once",
		     cat->name, first->line);
	}
}

static void parse_line(struct parser *p, const char *s, size_t len)
{
	size_t indent = 0, end;

	if (len && s[len - 1] == '\r') {
		len--;
		if (!p->warned_cr) {
			diag(p, len + 1, VTRACE_WARNING,
			     "CRLF line end: CRs before line ends are ignored in this file (atrace and Perfetto keep them in names)");
			p->warned_cr = true;
		}
	}
	if (len > VTRACE_CATEGORIES_MAX_LINE) {
		diag(p, VTRACE_CATEGORIES_MAX_LINE + 1, VTRACE_ERROR,
		     "line longer than %d bytes", VTRACE_CATEGORIES_MAX_LINE);
		return;
	}
	if (!len)
		return;

	while (indent < len && is_blank(s[indent]))
		indent++;
	if (indent == len) {
		diag(p, 1, VTRACE_WARNING, "whitespace-only line ignored");
		return;
	}
	end = len;
	while (is_blank(s[end - 1]))
		end--;
	if (end < len)
		diag(p, end + 1, VTRACE_WARNING,
		     "trailing whitespace ignored (atrace and Perfetto keep it in names)");

	if (indent)
		parse_event(p, s + indent, end - indent, indent);
	else
		parse_category(p, s, end);
}

/* Warn about categories this file names but gives no events. */
static void check_empty_categories(struct parser *p)
{
	size_t i;

	for (i = 0; i < p->map->nr; i++) {
		if (p->map->cats[i].nr_events)
			continue;
		p->line = p->first_line[i];
		diag(p, 1, VTRACE_WARNING, "category '%s' has no events",
		     p->map->cats[i].name);
	}
}

static int catmap_add_file(struct vtrace_catmap *map, const char *file,
			   const char **copy)
{
	char **files;

	files = realloc(map->files, (map->nr_files + 1) * sizeof(*files));
	if (!files)
		return -ENOMEM;
	map->files = files;
	files[map->nr_files] = strdup(file);
	if (!files[map->nr_files])
		return -ENOMEM;
	*copy = files[map->nr_files++];
	return 0;
}

/*
 * Move the categories and events of @from into @map, keeping @map's order
 * and listing each event once per category; @from is left empty.
 */
static int catmap_merge(struct vtrace_catmap *map, struct vtrace_catmap *from,
			const char *file, struct vtrace_diags *diags)
{
	const struct vtrace_category_event *first;
	const char *file_copy;
	size_t i, j;
	long idx;
	int ret;

	ret = catmap_add_file(map, file, &file_copy);
	if (ret)
		return ret;

	/* The first file: take its categories over, no need to re-index. */
	if (!map->nr) {
		for (i = 0; i < from->nr; i++)
			for (j = 0; j < from->cats[i].nr_events; j++)
				from->cats[i].events[j].file = file_copy;
		vtrace_strtab_free(&map->index);
		free(map->cats);
		map->cats = from->cats;
		map->nr = from->nr;
		map->alloc = from->alloc;
		map->index = from->index;
		from->cats = NULL;
		from->nr = 0;
		from->alloc = 0;
		vtrace_strtab_init(&from->index);
		return 0;
	}

	for (i = 0; i < from->nr; i++) {
		struct vtrace_category *src = &from->cats[i];

		idx = catmap_category(map, src->name);
		src->name = NULL;
		if (idx < 0)
			return idx;
		for (j = 0; j < src->nr_events; j++) {
			struct vtrace_category_event *event = &src->events[j];

			event->file = file_copy;
			ret = category_add_event(&map->cats[idx], event,
						 &first);
			if (ret < 0)
				return ret;
			event->name = NULL;
			if (ret == 1 &&
			    vtrace_diag_add(
				    diags, file, event->line, event->column,
				    VTRACE_WARNING,
				    "duplicate event in category '%s' (first listed in %s:%u): enabled once",
				    map->cats[idx].name, first->file,
				    first->line))
				return -ENOMEM;
		}
		src->nr_events = 0;
	}
	return 0;
}

/**
 * vtrace_catmap_parse - parse a category file held in memory and merge it
 * @map: map to merge into
 * @file: name used in diagnostics
 * @buf: file contents, need not be NUL-terminated
 * @len: length of @buf
 * @diags: list the findings are appended to
 *
 * A file with any error is rejected whole: @map is left as it was.
 *
 * Return: 0 when the file was merged (warnings allowed), -EINVAL when it had
 * errors, -ENOMEM.
 */
int vtrace_catmap_parse(struct vtrace_catmap *map, const char *file,
			const char *buf, size_t len, struct vtrace_diags *diags)
{
	struct vtrace_catmap parsed;
	size_t errors = diags->nr_errors;
	struct parser p = {
		.map = &parsed,
		.diags = diags,
		.file = file,
		.current = NO_CATEGORY,
	};
	const char *s = buf, *end = buf + len, *nl;

	vtrace_catmap_init(&parsed);
	if (len > VTRACE_CATEGORIES_MAX_FILE) {
		diag(&p, 0, VTRACE_ERROR,
		     "file too large (%zu bytes, at most %d accepted)", len,
		     VTRACE_CATEGORIES_MAX_FILE);
		return p.err ? p.err : -EINVAL;
	}
	if (!check_text(&p, buf, len))
		return p.err ? p.err : -EINVAL;

	p.line = 1;
	if (len >= sizeof(utf8_bom) - 1 &&
	    !memcmp(buf, utf8_bom, sizeof(utf8_bom) - 1)) {
		diag(&p, 1, VTRACE_WARNING,
		     "UTF-8 byte order mark ignored (atrace and Perfetto keep it in the first category name)");
		s += sizeof(utf8_bom) - 1;
		p.column_offset = sizeof(utf8_bom) - 1;
	}
	for (; s < end && !p.err; p.line++) {
		nl = memchr(s, '\n', end - s);
		if (!nl)
			nl = end;
		parse_line(&p, s, nl - s);
		p.column_offset = 0;
		s = nl + 1;
	}
	if (!p.err)
		check_empty_categories(&p);
	if (!p.err && diags->nr_errors == errors)
		p.err = catmap_merge(map, &parsed, file, diags);
	else if (!p.err)
		p.err = -EINVAL;

	free(p.first_line);
	vtrace_catmap_free(&parsed);
	return p.err;
}

/**
 * vtrace_catmap_load - read a category file and merge it
 * @map: map to merge into
 * @path: file to read
 * @diags: list the findings are appended to
 *
 * Return: 0 when merged, -EINVAL when the file had errors (see @diags),
 * -ENOMEM, or another -errno when it could not be read (also in @diags).
 */
int vtrace_catmap_load(struct vtrace_catmap *map, const char *path,
		       struct vtrace_diags *diags)
{
	size_t len = 0, alloc = 0;
	char *buf = NULL, *grown;
	struct stat st;
	ssize_t n;
	int fd, ret;

	ret = vtrace_input_open(path, &fd);
	if (ret)
		goto io_error;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto io_error;
	}
	if (st.st_size > VTRACE_CATEGORIES_MAX_FILE) {
		close(fd);
		ret = vtrace_diag_add(
			diags, path, 0, 0, VTRACE_ERROR,
			"file too large (%lld bytes, at most %d accepted)",
			(long long)st.st_size, VTRACE_CATEGORIES_MAX_FILE);
		return ret ? ret : -EINVAL;
	}

	/* Read one byte past the limit, so that growth while reading shows. */
	for (;;) {
		if (len == alloc) {
			alloc = alloc ? alloc * 2 : 64 << 10;
			if (alloc > VTRACE_CATEGORIES_MAX_FILE + 1)
				alloc = VTRACE_CATEGORIES_MAX_FILE + 1;
			if (len == alloc)
				break;
			grown = realloc(buf, alloc);
			if (!grown) {
				ret = -ENOMEM;
				goto out;
			}
			buf = grown;
		}
		n = read(fd, buf + len, alloc - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto io_error;
		}
		if (!n)
			break;
		len += n;
	}
	ret = vtrace_catmap_parse(map, path, buf, len, diags);
out:
	free(buf);
	close(fd);
	return ret;

io_error:
	free(buf);
	if (fd >= 0)
		close(fd);
	if (vtrace_diag_add(diags, path, 0, 0, VTRACE_ERROR, "cannot read: %s",
			    vtrace_input_strerror(ret)))
		return -ENOMEM;
	return ret;
}
