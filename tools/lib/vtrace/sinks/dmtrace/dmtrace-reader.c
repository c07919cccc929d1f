// SPDX-License-Identifier: LGPL-2.1
/*
 * dmtrace reader: versions 1 to 3, combined or split; see dmtrace.h.
 *
 * Stricter than dmtracedump, which takes the text after a thread id up to
 * the first tab on trust (a line without a tab becomes a thread named by
 * whatever follows) and thread ids above 32767 (it keeps them in a short):
 * here every line must have the fields it needs and every record must
 * name a method of the key, or the file is refused with the line or
 * record at fault.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/dmtrace.h>

#include "sinks/dmtrace/dmtrace-format.h"
#include <vtrace/file-io.h>

/* Longest key line kept: names beyond are cut. */
#define KEY_LINE_MAX 4096
/* A trace file read whole; ART's own buffer is far smaller. */
#define FILE_MAX (1ULL << 32)

enum section { SEC_NONE, SEC_VERSION, SEC_THREADS, SEC_METHODS };

struct key_parser {
	struct vt_dmtrace *t;
	enum section sec;
	unsigned int line;
	bool version_seen, version_number;
	int art_pid;
	char *msg;
	size_t msg_size;
};

static int fail(char *msg, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (size) {
		va_start(ap, fmt);
		vsnprintf(msg, size, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static uint16_t get16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* An unsigned number of [s, s + len) in @base, up to @max. */
static bool parse_num(const char *s, size_t len, int base, uint64_t max,
		      uint64_t *out)
{
	uint64_t v = 0;
	unsigned int d;
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else if (base == 16 && s[i] >= 'A' && s[i] <= 'F')
			d = s[i] - 'A' + 10;
		else
			return false;
		if (d > max || v > (max - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

static bool line_is(const char *s, size_t len, const char *word)
{
	return len == strlen(word) && !memcmp(s, word, len);
}

static bool has_prefix(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

static int version_line(struct key_parser *p, const char *s, size_t len)
{
	struct vt_dmtrace *t = p->t;
	const char *v = s + strlen(DMTRACE_CLOCK_KEY);
	size_t vlen = len - strlen(DMTRACE_CLOCK_KEY);
	uint64_t n;

	if (!p->version_number) {
		if (!parse_num(s, len, 10, DMTRACE_VERSION_MAX, &n) ||
		    n < DMTRACE_VERSION_MIN)
			return fail(p->msg, p->msg_size,
				    "key line %u: version '%.*s' is not 1 to 3",
				    p->line, (int)(len < 32 ? len : 32), s);
		t->version = n;
		p->version_number = true;
		return 0;
	}
	if (has_prefix(s, len, DMTRACE_CLOCK_KEY)) {
		if (line_is(v, vlen, DMTRACE_CLOCK_DUAL))
			t->clock = VT_DMTRACE_CLOCK_DUAL;
		else if (line_is(v, vlen, DMTRACE_CLOCK_THREAD_CPU))
			t->clock = VT_DMTRACE_CLOCK_THREAD_CPU;
		else if (line_is(v, vlen, DMTRACE_CLOCK_WALL) ||
			 line_is(v, vlen, DMTRACE_CLOCK_GLOBAL))
			t->clock = VT_DMTRACE_CLOCK_WALL;
		else
			return fail(p->msg, p->msg_size,
				    "key line %u: unknown clock '%.*s'",
				    p->line, (int)(vlen < 32 ? vlen : 32), v);
		return 0;
	}
	if (has_prefix(s, len, "pid=") &&
	    parse_num(s + 4, len - 4, 10, INT_MAX, &n))
		p->art_pid = n;
	/* vtrace-thread lines are read with the threads; others ignored. */
	return 0;
}

static int add_thread(struct key_parser *p, const char *s, size_t len)
{
	struct vt_dmtrace *t = p->t;
	struct vt_dmtrace_thread *th;
	const char *tab = memchr(s, '\t', len);
	uint64_t id;
	void *n;

	/* Old dalvik wrote a space where ART writes a tab. */
	if (!tab)
		tab = memchr(s, ' ', len);
	if (!tab || !parse_num(s, tab - s, 10, UINT16_MAX, &id))
		return fail(
			p->msg, p->msg_size,
			"key line %u: a thread line is 'ID<TAB>NAME' with a decimal ID up to 65535",
			p->line);
	n = reallocarray(t->threads, t->nr_threads + 1, sizeof(*t->threads));
	if (!n)
		return -ENOMEM;
	t->threads = n;
	th = &t->threads[t->nr_threads];
	th->id = id;
	th->pid = p->art_pid ? p->art_pid : (int)id;
	th->tid = id;
	th->name = strndup(tab + 1, s + len - tab - 1);
	if (!th->name)
		return -ENOMEM;
	t->nr_threads++;
	return 0;
}

/* "FILE:LINE" or "FILE" of a key line's fields, NULL when it has no file. */
static int method_source(const char *file, size_t file_len, const char *line,
			 size_t line_len, char **source)
{
	char *p;

	*source = NULL;
	if (!file_len)
		return 0;
	p = malloc(file_len + line_len + 2);
	if (!p)
		return -ENOMEM;
	memcpy(p, file, file_len);
	if (line_len) {
		p[file_len] = ':';
		memcpy(p + file_len + 1, line, line_len);
		file_len += line_len + 1;
	}
	p[file_len] = '\0';
	*source = p;
	return 0;
}

/* "0xID\tclass[\tmethod[\tsignature[\tsource file[\tline]]]]" */
static int add_method(struct key_parser *p, const char *s, size_t len)
{
	struct vt_dmtrace *t = p->t;
	const char *field[5] = { 0 }, *end = s + len, *tab;
	size_t flen[5] = { 0 }, i, nr = 0;
	char *name, *source;
	uint64_t id;
	void *n;

	tab = memchr(s, '\t', len);
	if (!tab || tab - s < 3 || s[0] != '0' ||
	    (s[1] != 'x' && s[1] != 'X') ||
	    !parse_num(s + 2, tab - s - 2, 16, UINT32_MAX, &id) ||
	    tab + 1 == end)
		return fail(
			p->msg, p->msg_size,
			"key line %u: a method line is '0xID<TAB>CLASS[<TAB>METHOD<TAB>SIGNATURE]'",
			p->line);
	for (s = tab + 1; s <= end && nr < 5; s = tab + 1) {
		tab = memchr(s, '\t', end - s);
		if (!tab)
			tab = end;
		field[nr] = s;
		flen[nr++] = tab - s;
	}
	name = malloc(flen[0] + flen[1] + flen[2] + 3);
	if (!name)
		return -ENOMEM;
	memcpy(name, field[0], flen[0]);
	i = flen[0];
	if (flen[1]) {
		name[i++] = '.';
		memcpy(name + i, field[1], flen[1]);
		i += flen[1];
	}
	if (flen[2]) {
		name[i++] = ' ';
		memcpy(name + i, field[2], flen[2]);
		i += flen[2];
	}
	name[i] = '\0';
	n = reallocarray(t->methods, t->nr_methods + 1, sizeof(*t->methods));
	if (n)
		t->methods = n;
	if (!n ||
	    method_source(field[3], flen[3], field[4], flen[4], &source)) {
		free(name);
		return -ENOMEM;
	}
	t->methods[t->nr_methods].id = id & ~DMTRACE_ACTION_MASK;
	t->methods[t->nr_methods].source = source;
	t->methods[t->nr_methods++].name = name;
	return 0;
}

/* "vtrace-thread=ID PID TID" lines, applied once the threads are known. */
static int vtrace_thread_line(struct vt_dmtrace *t, const char *s, size_t len)
{
	char buf[80];
	unsigned int id;
	int pid, tid;
	size_t i;

	s += strlen(DMTRACE_VTRACE_THREAD_KEY);
	len -= strlen(DMTRACE_VTRACE_THREAD_KEY);
	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* The idle task's tid and pid are 0. */
	if (sscanf(buf, "%u %d %d", &id, &pid, &tid) != 3 || pid < 0 || tid < 0)
		return 0;
	for (i = 0; i < t->nr_threads; i++)
		if (t->threads[i].id == id) {
			t->threads[i].pid = pid;
			t->threads[i].tid = tid;
		}
	return 0;
}

static int cmp_method(const void *a, const void *b)
{
	const struct vt_dmtrace_method *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Parses key text up to its "*end" line; *@used is set to the bytes up
 * to and including that line.
 */
static int parse_key(struct vt_dmtrace *t, const char *key, size_t len,
		     size_t *used, char *msg, size_t msg_size)
{
	struct key_parser p = { .t = t, .msg = msg, .msg_size = msg_size };
	const char *s = key, *end = key + len, *nl;
	size_t l, i;
	int ret = 0;

	for (; s < end; s = nl + 1) {
		nl = memchr(s, '\n', end - s);
		if (!nl)
			return fail(msg, msg_size,
				    "key text ends without a '*end' line");
		l = nl - s;
		if (l && s[l - 1] == '\r')
			l--;
		p.line++;
		if (memchr(s, '\0', l))
			return fail(
				msg, msg_size,
				"key line %u holds a NUL byte: not key text",
				p.line);
		if (l > KEY_LINE_MAX)
			return fail(msg, msg_size,
				    "key line %u is longer than %d bytes",
				    p.line, KEY_LINE_MAX);
		if (p.line == 1 && !line_is(s, l, DMTRACE_KEY_VERSION))
			return fail(
				msg, msg_size,
				"not a dmtrace key: it starts without '*version'");
		if (l && s[0] == '*') {
			if (line_is(s, l, DMTRACE_KEY_VERSION))
				p.sec = SEC_VERSION;
			else if (line_is(s, l, DMTRACE_KEY_THREADS))
				p.sec = SEC_THREADS;
			else if (line_is(s, l, DMTRACE_KEY_METHODS))
				p.sec = SEC_METHODS;
			else if (!line_is(s, l, DMTRACE_KEY_END))
				return fail(
					msg, msg_size,
					"key line %u: unknown section '%.*s'",
					p.line, (int)(l < 32 ? l : 32), s);
			else
				break;
			continue;
		}
		if (!l)
			continue;
		if (p.sec == SEC_VERSION)
			ret = version_line(&p, s, l);
		else if (p.sec == SEC_THREADS)
			ret = add_thread(&p, s, l);
		else if (p.sec == SEC_METHODS)
			ret = add_method(&p, s, l);
		if (ret)
			return ret;
	}
	if (s >= end)
		return fail(msg, msg_size,
			    "key text ends without a '*end' line");
	if (!p.version_number)
		return fail(msg, msg_size,
			    "the '*version' section has no version number");
	*used = nl + 1 - key;

	/* Second pass over "*version" for vtrace's own thread lines. */
	for (s = key; s < key + *used; s = nl + 1) {
		nl = memchr(s, '\n', key + *used - s);
		l = nl - s;
		if (l && s[0] == '*' && !line_is(s, l, DMTRACE_KEY_VERSION))
			break;
		if (has_prefix(s, l, DMTRACE_VTRACE_THREAD_KEY))
			vtrace_thread_line(t, s, l);
	}
	if (t->nr_methods)
		qsort(t->methods, t->nr_methods, sizeof(*t->methods),
		      cmp_method);
	for (i = 1; i < t->nr_methods; i++)
		if (t->methods[i].id == t->methods[i - 1].id)
			return fail(msg, msg_size,
				    "method id 0x%x is in the key twice",
				    t->methods[i].id);
	return 0;
}

static int find_method(const struct vt_dmtrace *t, uint32_t id, uint32_t *index)
{
	size_t lo = 0, hi = t->nr_methods, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->methods[mid].id == id) {
			*index = mid;
			return 0;
		}
		if (t->methods[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}

static int parse_data(struct vt_dmtrace *t, const unsigned char *d, size_t len,
		      char *msg, size_t msg_size)
{
	size_t offset, rec_size, need, nr, i, tid_len;
	unsigned int version,
		timers = t->clock == VT_DMTRACE_CLOCK_DUAL ? 2 : 1;
	const unsigned char *r;
	struct vt_dmtrace_record *rec;
	uint32_t method;

	if (len < DMTRACE_HEADER_V1_LEN || get32(d) != DMTRACE_MAGIC)
		return fail(msg, msg_size,
			    "the data has no 'SLOW' header (%zu bytes)", len);
	version = get16(d + DMTRACE_OFF_VERSION);
	offset = get16(d + DMTRACE_OFF_DATA_OFFSET);
	t->start_us = get64(d + DMTRACE_OFF_START);
	if (version != (unsigned int)t->version)
		return fail(msg, msg_size,
			    "the key says version %d, the data header %u",
			    t->version, version);
	if (version == 1) {
		rec_size = DMTRACE_RECORD_V1_LEN;
		need = 1 + 4 + 4;
	} else if (version == 2) {
		rec_size = DMTRACE_RECORD_V2_LEN;
		need = 2 + 4 + 4;
	} else {
		if (len < DMTRACE_OFF_RECORD_SIZE + 2)
			return fail(msg, msg_size,
				    "the version 3 header is cut short");
		rec_size = get16(d + DMTRACE_OFF_RECORD_SIZE);
		need = 2 + 4 + 4 * timers;
	}
	if (version < 3 && timers == 2)
		return fail(
			msg, msg_size,
			"clock=dual needs version 3, the file is version %u",
			version);
	if (rec_size < need)
		return fail(msg, msg_size,
			    "records of %zu bytes cannot hold this clock's %zu",
			    rec_size, need);
	if (offset < DMTRACE_HEADER_V1_LEN ||
	    (version == 3 && offset < DMTRACE_OFF_RECORD_SIZE + 2) ||
	    offset > len)
		return fail(
			msg, msg_size,
			"the header's data offset %zu is outside the %zu bytes of data",
			offset, len);
	if ((len - offset) % rec_size)
		return fail(msg, msg_size,
			    "the data ends inside record %zu (truncated)",
			    (len - offset) / rec_size);
	nr = (len - offset) / rec_size;
	tid_len = version == 1 ? 1 : 2;
	t->records = calloc(nr ? nr : 1, sizeof(*t->records));
	if (!t->records)
		return -ENOMEM;
	for (i = 0, r = d + offset; i < nr; i++, r += rec_size) {
		rec = &t->records[i];
		rec->thread = version == 1 ? r[0] : get16(r);
		method = get32(r + tid_len);
		rec->action = method & DMTRACE_ACTION_MASK;
		if (rec->action > DMTRACE_ACTION_UNWIND)
			return fail(msg, msg_size,
				    "record %zu has the reserved action 3", i);
		if (find_method(t, method & ~DMTRACE_ACTION_MASK, &rec->method))
			return fail(
				msg, msg_size,
				"record %zu names method 0x%x, which is not in the key",
				i, method & ~DMTRACE_ACTION_MASK);
		rec->cpu_us = get32(r + tid_len + 4);
		rec->wall_us = timers == 2 ? get32(r + tid_len + 8) :
					     rec->cpu_us;
	}
	t->nr_records = nr;
	return 0;
}

/**
 * vtrace_dmtrace_parse - parse a split trace (.key text and .data)
 * @t: filled in; free with vtrace_dmtrace_free() whatever the result
 * @key: the key text
 * @key_len: its bytes
 * @data: the binary data
 * @data_len: its bytes
 * @msg: set to what is wrong, on -EINVAL
 * @msg_size: size of @msg
 *
 * Return: 0, -EINVAL for a malformed trace, or -ENOMEM.
 */
int vtrace_dmtrace_parse(struct vt_dmtrace *t, const char *key, size_t key_len,
			 const unsigned char *data, size_t data_len, char *msg,
			 size_t msg_size)
{
	size_t used;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = parse_key(t, key, key_len, &used, msg, msg_size);
	if (!ret)
		ret = parse_data(t, data, data_len, msg, msg_size);
	return ret;
}

/**
 * vtrace_dmtrace_parse_combined - parse a combined trace (key text, then data)
 * @t: filled in; free with vtrace_dmtrace_free() whatever the result
 * @buf: the file's bytes
 * @len: their number
 * @msg: set to what is wrong, on -EINVAL
 * @msg_size: size of @msg
 *
 * Return: 0, -EINVAL for a malformed trace, or -ENOMEM.
 */
int vtrace_dmtrace_parse_combined(struct vt_dmtrace *t,
				  const unsigned char *buf, size_t len,
				  char *msg, size_t msg_size)
{
	size_t used;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = parse_key(t, (const char *)buf, len, &used, msg, msg_size);
	if (!ret)
		ret = parse_data(t, buf + used, len - used, msg, msg_size);
	return ret;
}

/**
 * vtrace_dmtrace_free - free a parsed trace
 * @t: the trace
 */
void vtrace_dmtrace_free(struct vt_dmtrace *t)
{
	size_t i;

	for (i = 0; i < t->nr_threads; i++)
		free(t->threads[i].name);
	for (i = 0; i < t->nr_methods; i++) {
		free(t->methods[i].name);
		free(t->methods[i].source);
	}
	free(t->threads);
	free(t->methods);
	free(t->records);
	memset(t, 0, sizeof(*t));
}

static int read_file(const char *path, unsigned char **buf, size_t *len)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd, ret = 0;

	ret = vtrace_input_open(path, &fd);
	if (ret)
		return ret;
	if (fstat(fd, &st)) {
		ret = -errno;
	} else if ((unsigned long long)st.st_size > FILE_MAX) {
		ret = -EFBIG;
	} else {
		*buf = malloc(st.st_size ? st.st_size : 1);
		if (!*buf)
			ret = -ENOMEM;
		while (!ret && got < (size_t)st.st_size) {
			n = read(fd, *buf + got, st.st_size - got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				ret = n < 0 ? -errno : -EIO;
				break;
			}
			got += n;
		}
		*len = got;
		if (ret) {
			free(*buf);
			*buf = NULL;
		}
	}
	close(fd);
	return ret;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* @path with its extension @ext (or none) replaced by @repl. */
static char *sibling(const char *path, const char *ext, const char *repl)
{
	size_t n = strlen(path) - (ext ? strlen(ext) : 0);
	char *s;

	if (asprintf(&s, "%.*s%s", (int)n, path, repl) < 0)
		return NULL;
	return s;
}

static int load_split(struct vt_dmtrace *t, const char *key_path,
		      const char *data_path, char *msg, size_t msg_size)
{
	unsigned char *key = NULL, *data = NULL;
	size_t key_len = 0, data_len = 0;
	int ret;

	ret = read_file(key_path, &key, &key_len);
	if (ret) {
		snprintf(msg, msg_size, "%s: %s", key_path,
			 vtrace_input_strerror(ret));
		return ret == -EINVAL ? -EINVAL : ret;
	}
	ret = read_file(data_path, &data, &data_len);
	if (ret)
		snprintf(msg, msg_size, "%s: %s", data_path,
			 vtrace_input_strerror(ret));
	else
		ret = vtrace_dmtrace_parse(t, (const char *)key, key_len, data,
					   data_len, msg, msg_size);
	free(key);
	free(data);
	return ret;
}

/**
 * vtrace_dmtrace_load - read a method trace from files
 * @t: filled in; free with vtrace_dmtrace_free() whatever the result
 * @path: a combined .trace file; a .key or .data file of a split pair
 *	(the other is found by its extension); or the pair's base name
 * @msg: set to what is wrong, on failure
 * @msg_size: size of @msg
 *
 * Return: 0, -EINVAL for a malformed trace, or another negative errno
 * (with @msg naming the file) when a file cannot be read.
 */
int vtrace_dmtrace_load(struct vt_dmtrace *t, const char *path, char *msg,
			size_t msg_size)
{
	unsigned char *buf = NULL;
	char *key = NULL, *data = NULL;
	size_t len = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	if (access(path, F_OK) && errno == ENOENT) {
		key = sibling(path, NULL, ".key");
		data = sibling(path, NULL, ".data");
	} else if (ends_with(path, ".key")) {
		key = strdup(path);
		data = sibling(path, ".key", ".data");
	} else if (ends_with(path, ".data")) {
		key = sibling(path, ".data", ".key");
		data = strdup(path);
	} else {
		ret = read_file(path, &buf, &len);
		if (ret) {
			snprintf(msg, msg_size, "%s: %s", path,
				 vtrace_input_strerror(ret));
			return ret;
		}
		ret = vtrace_dmtrace_parse_combined(t, buf, len, msg, msg_size);
		free(buf);
		return ret;
	}
	if (!key || !data)
		ret = -ENOMEM;
	else
		ret = load_split(t, key, data, msg, msg_size);
	free(key);
	free(data);
	return ret;
}

/**
 * vtrace_dmtrace_probe - whether @path names a method trace
 * @path: a file, or the base name of a .key/.data pair
 *
 * By content: a file starting with "*version" (a combined trace or a key)
 * or with the "SLOW" magic (a data file); by name: a missing @path whose
 * PATH.key exists.
 *
 * Return: true for a method trace.
 */
bool vtrace_dmtrace_probe(const char *path)
{
	char head[sizeof(DMTRACE_KEY_VERSION)] = { 0 };
	char *key;
	bool found;
	int fd, ret;

	ret = vtrace_input_open(path, &fd);
	if (ret) {
		if (ret != -ENOENT)
			return false;
		key = sibling(path, NULL, ".key");
		found = key && !access(key, R_OK);
		free(key);
		return found;
	}
	found = read(fd, head, sizeof(head) - 1) >= DMTRACE_MAGIC_LEN &&
		(!strcmp(head, DMTRACE_KEY_VERSION) ||
		 !memcmp(head, "SLOW", DMTRACE_MAGIC_LEN));
	close(fd);
	return found;
}

/**
 * vtrace_dmtrace_find_thread - the "*threads" entry of a record's thread id
 * @t: the trace
 * @id: the id
 *
 * Return: the entry, or NULL when the key has none.
 */
const struct vt_dmtrace_thread *
vtrace_dmtrace_find_thread(const struct vt_dmtrace *t, unsigned int id)
{
	size_t i;

	for (i = 0; i < t->nr_threads; i++)
		if (t->threads[i].id == id)
			return &t->threads[i];
	return NULL;
}

/**
 * vtrace_dmtrace_slices - the slices of a method trace
 * @t: the trace
 * @s: an initialized, empty set (vtrace_slices_init()); finished on success
 *
 * Each enter/exit pair of a thread is a slice; times are the wall clock
 * (the header's start plus the record's delta), the thread clock giving
 * the CPU times where the trace has one. A method's source file and line
 * are its slices' arguments.
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_dmtrace_slices(const struct vt_dmtrace *t, struct vt_slices *s)
{
	const struct vt_dmtrace_thread *th;
	const struct vt_dmtrace_record *r;
	const char *name, *src;
	uint64_t ts;
	int pid, tid, ret = 0;
	size_t i;

	/* Thread lookups are linear: build a table of the 64Ki ids. */
	const struct vt_dmtrace_thread **by_id =
		calloc(UINT16_MAX + 1, sizeof(*by_id));

	if (!by_id)
		return -ENOMEM;
	for (i = t->nr_threads; i-- > 0;)
		by_id[t->threads[i].id] = &t->threads[i];
	for (i = 0; i < t->nr_records && !ret; i++) {
		r = &t->records[i];
		th = by_id[r->thread];
		pid = th ? th->pid : (int)r->thread;
		tid = th ? th->tid : (int)r->thread;
		name = t->methods[r->method].name;
		ts = (t->start_us + r->wall_us) * 1000;
		if (t->clock != VT_DMTRACE_CLOCK_WALL)
			ret = vtrace_slices_cpu_time(
				s, tid, (uint64_t)r->cpu_us * 1000);
		if (ret)
			break;
		if (r->action == DMTRACE_ACTION_ENTER) {
			ret = vtrace_slices_begin(s, ts, pid, tid, name,
						  strlen(name), false);
			src = t->methods[r->method].source;
			if (!ret && src)
				ret = vtrace_slices_args(s, tid, false, src,
							 strlen(src));
		} else {
			ret = vtrace_slices_end(s, ts, tid, name, false);
		}
	}
	for (i = 0; i < t->nr_threads && !ret; i++)
		ret = vtrace_slices_thread(s, t->threads[i].tid,
					   t->threads[i].pid,
					   t->threads[i].name);
	free(by_id);
	if (!ret)
		ret = vtrace_slices_finish(s);
	return ret;
}
