// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace profile - Traceview's profile panel as text: per slice name its
 * inclusive and exclusive time, calls, callers and callees; and the call
 * graph as dot (and PNG through Graphviz), as dmtracedump -g draws it;
 * the panel as an HTML page (dmtracedump -h) and the difference of two
 * files' profiles (dmtracedump -d). The numbers are the library's
 * (profile.h).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vtrace/output-file.h>
#include <vtrace/profile.h>

#include "builtin.h"
#include "cli.h"
#include "slices-load.h"
#include "view-page.h"

/* dmtracedump -g's default threshold, percent. */
#define DOT_THRESHOLD_DEFAULT 20

struct profile_opts {
	int tid;
	bool json;
	const char *dot;
	const char *png;
	const char *html;
	bool diff;
	unsigned int threshold;
};

static void profile_usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace profile FILE [--thread TID] [--json] [--html OUT.html]\n"
		"                      [--dot OUT.dot] [--png OUT.png] [--threshold PCT]\n"
		"       vtrace profile --diff A B [--thread TID] [--json] [--html OUT.html]\n"
		"\n"
		"Profile the slices of FILE (a trace.dat, a Perfetto trace or a\n"
		"dmtrace method trace)\n"
		"as Traceview's profile panel does: per name, inclusive and exclusive\n"
		"time (ns and %% of the total), calls+recursive calls, and its parents\n"
		"and children with their share, sorted by inclusive time.\n"
		"\n"
		"  --thread TID     only the slices of thread TID\n"
		"  --json           {\"total\":NS,\"methods\":[{\"name\",\"inclusive\",\n"
		"                   \"exclusive\",\"calls\",\"recursive\",\"parents\":[{\"name\",\n"
		"                   \"inclusive\",\"calls\"}],\"children\":[...]}]} (ns)\n"
		"  --dot OUT.dot    the call graph in Graphviz dot, edges weighted by\n"
		"                   inclusive time\n"
		"  --png OUT.png    the call graph rendered by Graphviz's dot\n"
		"  --threshold PCT  draw a callee when its time under a caller is at\n"
		"                   least PCT%% of the caller's (default %d, as\n"
		"                   dmtracedump -t)\n"
		"  --html OUT.html  the profile panel as a self-contained HTML page\n"
		"  --diff A B       per name, inclusive and exclusive time and calls in\n"
		"                   A and in B and their change, largest change first;\n"
		"                   names in one file only are marked so\n",
		DOT_THRESHOLD_DEFAULT);
}

static void pct(uint64_t part, uint64_t whole)
{
	printf("%6.1f%%", whole ? 100.0 * part / whole : 0.0);
}

static void ns_ms(uint64_t ns)
{
	printf("%10llu.%06llu", (unsigned long long)(ns / 1000000),
	       (unsigned long long)(ns % 1000000));
}

/* "[N]" of a name: its rank in the table, as Traceview numbers rows. */
static size_t rank_of(const struct vt_profile *p, uint32_t name)
{
	size_t i;

	for (i = 0; i < p->nr_entries; i++)
		if (p->entries[i].name == name)
			return i + 1;
	return 0;
}

static void print_edges(const struct vt_profile *p,
			const struct vt_profile_entry *e, bool parents)
{
	const struct vt_profile_edge *edges = parents ? e->parents :
							e->children;
	size_t n = parents ? e->nr_parents : e->nr_children, i;
	const struct vt_profile_entry *other;

	for (i = 0; i < n; i++) {
		other = edges[i].name == VT_PROFILE_TOPLEVEL ?
				NULL :
				vtrace_profile_find(p, edges[i].name);
		printf("       %s ", parents ? "parent" : " child");
		pct(edges[i].inclusive, e->inclusive);
		ns_ms(edges[i].inclusive);
		printf(" ms %8llu/%-8llu ", (unsigned long long)edges[i].calls,
		       (unsigned long long)(parents ? e->calls :
					    other   ? other->calls :
						      0));
		if (other)
			printf("[%zu] ", rank_of(p, edges[i].name));
		printf("%s\n", vtrace_profile_name(p, edges[i].name));
	}
}

static void print_text(const struct vt_profile *p)
{
	const struct vt_profile_entry *e;
	size_t i;

	printf("total ");
	ns_ms(p->total);
	printf(" ms in %zu names\n\n", p->nr_entries);
	printf("%s\n",
	       "index   incl %       inclusive ms  excl %       exclusive ms    calls+recur  name");
	for (i = 0; i < p->nr_entries; i++) {
		e = &p->entries[i];
		printf("[%zu]%*s", i + 1,
		       i + 1 < 10  ? 3 :
		       i + 1 < 100 ? 2 :
				     1,
		       "");
		pct(e->inclusive, p->total);
		ns_ms(e->inclusive);
		printf(" ");
		pct(e->exclusive, p->total);
		ns_ms(e->exclusive);
		printf(" %8llu+%-6llu %s\n",
		       (unsigned long long)(e->calls - e->recursive),
		       (unsigned long long)e->recursive,
		       vtrace_profile_name(p, e->name));
		print_edges(p, e, true);
		print_edges(p, e, false);
	}
}

static int print_json(const struct vt_profile *p)
{
	struct vtrace_json j;

	vtrace_json_init(&j, stdout);
	view_json_profile(&j, NULL, p);
	return cli_finish_json(&j);
}

/* Why vtrace_output_file_create() or _commit() failed for @path. */
static void output_error(const char *path, int err)
{
	vtrace_err("profile: %s: %s", path, vtrace_output_file_strerror(err));
}

struct dot_args {
	const struct vt_profile *p;
	unsigned int threshold;
};

static int fill_dot(FILE *f, void *arg)
{
	const struct dot_args *a = arg;

	return vtrace_profile_write_dot(a->p, f, a->threshold);
}

/* Like a trace, written whole or not at all (see output-file.h). */
static int write_dot(const struct vt_profile *p, const char *path,
		     unsigned int threshold)
{
	struct dot_args a = { .p = p, .threshold = threshold };
	int ret;

	ret = vtrace_output_file_write(path, fill_dot, &a);
	if (ret)
		output_error(path, ret);
	return ret;
}

/* Whether @prog is an executable on $PATH. */
static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *full;
	bool found = false;

	copy = strdup(path ? path : "/usr/bin:/bin");
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		if (asprintf(&full, "%s/%s", dir, prog) < 0)
			break;
		found = !access(full, X_OK);
		free(full);
	}
	free(copy);
	return found;
}

/* dot writes the temporary file, renamed to @png once complete. */
static int render_png(const char *dot_path, const char *png)
{
	struct vt_output_file out;
	int status, ret;
	pid_t pid;

	ret = vtrace_output_file_create(&out, png);
	if (ret) {
		output_error(png, ret);
		return ret;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		vtrace_err("profile: fork: %s", strerror(-ret));
		vtrace_output_file_discard(&out);
		return ret;
	}
	if (!pid) {
		execlp("dot", "dot", "-Tpng", "-o", out.tmp, dot_path,
		       (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		vtrace_err("profile: dot -Tpng -o %s %s failed", png, dot_path);
		vtrace_output_file_discard(&out);
		return -EIO;
	}
	ret = vtrace_output_file_commit(&out, false);
	if (ret)
		output_error(png, ret);
	return ret;
}

static int graphs(const struct vt_profile *p, const struct profile_opts *o)
{
	char tmp[] = "/tmp/vtrace-profile-XXXXXX";
	const char *dot = o->dot;
	int ret, fd;

	if (o->png && !on_path("dot")) {
		vtrace_err(
			"profile: --png needs Graphviz's dot, which is not installed (apt install graphviz); --dot writes the graph for it");
		return -ENOENT;
	}
	if (!dot && o->png) {
		fd = mkstemp(tmp);
		if (fd < 0) {
			vtrace_err("profile: %s: %s", tmp, strerror(errno));
			return -errno;
		}
		close(fd);
		dot = tmp;
	}
	ret = dot ? write_dot(p, dot, o->threshold) : 0;
	if (!ret && o->png)
		ret = render_png(dot, o->png);
	if (dot == tmp)
		unlink(tmp);
	return ret;
}

static int parse_args(int argc, char **argv, struct profile_opts *o)
{
	static const struct option longopts[] = {
		{ "thread", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "dot", required_argument, NULL, 'd' },
		{ "png", required_argument, NULL, 'p' },
		{ "threshold", required_argument, NULL, 'T' },
		{ "html", required_argument, NULL, 'H' },
		{ "diff", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long long v;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (cli_parse_number("profile --thread", optarg, 0,
					     INT_MAX, &v))
				return VTRACE_EXIT_USAGE;
			o->tid = v;
			break;
		case 'j':
			o->json = true;
			break;
		case 'd':
			o->dot = optarg;
			break;
		case 'p':
			o->png = optarg;
			break;
		case 'T':
			if (cli_parse_number("profile --threshold", optarg, 0,
					     100, &v))
				return VTRACE_EXIT_USAGE;
			o->threshold = v;
			break;
		case 'H':
			o->html = optarg;
			break;
		case 'D':
			o->diff = true;
			break;
		case 'h':
			profile_usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			profile_usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc - (o->diff ? 2 : 1)) {
		profile_usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	if (o->diff && (o->dot || o->png)) {
		vtrace_err(
			"profile: --diff writes no call graph (--dot, --png)");
		return VTRACE_EXIT_USAGE;
	}
	return -1;
}

/* The profile of @file (of thread @tid, or all when negative). */
static int load_profile(const char *file, int tid, struct vt_slices *s,
			struct vt_profile *p)
{
	memset(p, 0, sizeof(*p));
	if (cli_check_input("profile", file))
		return VTRACE_EXIT_USAGE;
	if (cli_load_slices("profile", file, s))
		return VTRACE_EXIT_FAIL;
	cli_report_slice_faults("profile", file, s);
	if (tid >= 0 && !vtrace_slices_find_thread(s, tid)) {
		vtrace_err("profile: %s: thread %d has no slices", file, tid);
		return VTRACE_EXIT_FAIL;
	}
	if (vtrace_profile_build(p, s, tid)) {
		vtrace_err("profile: %s", strerror(ENOMEM));
		return VTRACE_EXIT_FAIL;
	}
	return VTRACE_EXIT_OK;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

struct profile_page {
	const char *file;
	const struct vt_profile *p;
};

static void profile_page_json(struct vtrace_json *j, void *arg)
{
	const struct profile_page *pp = arg;

	vtrace_json_string(j, "mode", "profile");
	vtrace_json_string(j, "file", base_name(pp->file));
	view_json_profile(j, "profile", pp->p);
}

/* One name of a --diff: its entry in A, in B, or in both. */
struct diff_row {
	const char *name;
	const struct vt_profile_entry *a, *b;
	int64_t inclusive, exclusive, calls;
};

struct diff {
	const char *file_a, *file_b;
	const struct vt_profile *pa, *pb;
	struct diff_row *rows;
	size_t nr_rows;
};

static uint64_t abs64(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

/* Largest change of inclusive time first, then of exclusive, then name. */
static int cmp_diff_row(const void *x, const void *y)
{
	const struct diff_row *a = x, *b = y;

	if (abs64(a->inclusive) != abs64(b->inclusive))
		return abs64(a->inclusive) > abs64(b->inclusive) ? -1 : 1;
	if (abs64(a->exclusive) != abs64(b->exclusive))
		return abs64(a->exclusive) > abs64(b->exclusive) ? -1 : 1;
	if (abs64(a->calls) != abs64(b->calls))
		return abs64(a->calls) > abs64(b->calls) ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int cmp_diff_name(const void *x, const void *y)
{
	const struct diff_row *a = x, *b = y;

	return strcmp(a->name, b->name);
}

/* Rows of the names of @p, sorted by name; @a says which side. */
static struct diff_row *side_rows(const struct vt_profile *p, bool a)
{
	struct diff_row *r = calloc(p->nr_entries + 1, sizeof(*r));
	size_t i;

	if (!r)
		return NULL;
	for (i = 0; i < p->nr_entries; i++) {
		r[i].name = vtrace_profile_name(p, p->entries[i].name);
		if (a)
			r[i].a = &p->entries[i];
		else
			r[i].b = &p->entries[i];
	}
	qsort(r, p->nr_entries, sizeof(*r), cmp_diff_name);
	return r;
}

static int diff_build(struct diff *d)
{
	struct diff_row *ra = side_rows(d->pa, true);
	struct diff_row *rb = side_rows(d->pb, false);
	size_t na = d->pa->nr_entries, nb = d->pb->nr_entries, i = 0, k = 0;
	struct diff_row *r;
	int c;

	d->rows = calloc(na + nb + 1, sizeof(*d->rows));
	if (!ra || !rb || !d->rows) {
		free(ra);
		free(rb);
		return -ENOMEM;
	}
	while (i < na || k < nb) {
		r = &d->rows[d->nr_rows++];
		c = i == na ? 1 : k == nb ? -1 : strcmp(ra[i].name, rb[k].name);
		if (c <= 0) {
			*r = ra[i++];
			if (!c)
				r->b = rb[k++].b;
		} else {
			*r = rb[k++];
		}
		r->inclusive = (int64_t)(r->b ? r->b->inclusive : 0) -
			       (int64_t)(r->a ? r->a->inclusive : 0);
		r->exclusive = (int64_t)(r->b ? r->b->exclusive : 0) -
			       (int64_t)(r->a ? r->a->exclusive : 0);
		r->calls = (int64_t)(r->b ? r->b->calls : 0) -
			   (int64_t)(r->a ? r->a->calls : 0);
	}
	free(ra);
	free(rb);
	qsort(d->rows, d->nr_rows, sizeof(*d->rows), cmp_diff_row);
	return 0;
}

static const char *diff_in(const struct diff_row *r)
{
	return r->a && r->b ? "both" : r->a ? "a" : "b";
}

static void json_side(struct vtrace_json *j, const char *key,
		      const struct vt_profile_entry *e)
{
	if (!e)
		return;
	vtrace_json_object_begin(j, key);
	vtrace_json_uint(j, "inclusive", e->inclusive);
	vtrace_json_uint(j, "exclusive", e->exclusive);
	vtrace_json_uint(j, "calls", e->calls);
	vtrace_json_uint(j, "recursive", e->recursive);
	vtrace_json_object_end(j);
}

/* The members of --diff --json's object (and of the diff page's data). */
static void diff_json_members(struct vtrace_json *j, const struct diff *d)
{
	const struct diff_row *r;
	size_t i;

	vtrace_json_object_begin(j, "a");
	vtrace_json_string(j, "file", d->file_a);
	vtrace_json_uint(j, "total", d->pa->total);
	vtrace_json_object_end(j);
	vtrace_json_object_begin(j, "b");
	vtrace_json_string(j, "file", d->file_b);
	vtrace_json_uint(j, "total", d->pb->total);
	vtrace_json_object_end(j);
	vtrace_json_array_begin(j, "methods");
	for (i = 0; i < d->nr_rows; i++) {
		r = &d->rows[i];
		vtrace_json_object_begin(j, NULL);
		vtrace_json_string(j, "name", r->name);
		vtrace_json_string(j, "in", diff_in(r));
		json_side(j, "a", r->a);
		json_side(j, "b", r->b);
		vtrace_json_object_begin(j, "change");
		vtrace_json_int(j, "inclusive", r->inclusive);
		vtrace_json_int(j, "exclusive", r->exclusive);
		vtrace_json_int(j, "calls", r->calls);
		vtrace_json_object_end(j);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
}

static void diff_page_json(struct vtrace_json *j, void *arg)
{
	vtrace_json_string(j, "mode", "diff");
	diff_json_members(j, arg);
}

/* "12.345678" ms of @ns, or "-" for a side that lacks the name. */
static const char *ms(char *buf, size_t size, const struct vt_profile_entry *e,
		      bool inclusive)
{
	uint64_t ns;

	if (!e)
		return "-";
	ns = inclusive ? e->inclusive : e->exclusive;
	snprintf(buf, size, "%llu.%06llu", (unsigned long long)(ns / 1000000),
		 (unsigned long long)(ns % 1000000));
	return buf;
}

static const char *signed_ms(char *buf, size_t size, int64_t ns)
{
	uint64_t a = abs64(ns);

	snprintf(buf, size, "%c%llu.%06llu", ns < 0 ? '-' : '+',
		 (unsigned long long)(a / 1000000),
		 (unsigned long long)(a % 1000000));
	return buf;
}

static const char *calls_of(char *buf, size_t size,
			    const struct vt_profile_entry *e)
{
	if (!e)
		return "-";
	snprintf(buf, size, "%llu", (unsigned long long)e->calls);
	return buf;
}

static void diff_text(const struct diff *d)
{
	char b1[32], b2[32], b3[32];
	const struct diff_row *r;
	size_t i;

	printf("A %s: total %s ms\n", d->file_a,
	       signed_ms(b1, sizeof(b1), d->pa->total) + 1);
	printf("B %s: total %s ms, change %s ms\n\n", d->file_b,
	       signed_ms(b1, sizeof(b1), d->pb->total) + 1,
	       signed_ms(b2, sizeof(b2),
			 (int64_t)d->pb->total - (int64_t)d->pa->total));
	printf("%-14s %14s %14s   %14s %14s %14s   %8s %8s %8s  %s\n",
	       "inclusive ms A", "B", "change", "exclusive ms A", "B", "change",
	       "calls A", "B", "change", "name");
	for (i = 0; i < d->nr_rows; i++) {
		r = &d->rows[i];
		printf("%14s ", ms(b1, sizeof(b1), r->a, true));
		printf("%14s ", ms(b2, sizeof(b2), r->b, true));
		printf("%14s   ", signed_ms(b3, sizeof(b3), r->inclusive));
		printf("%14s ", ms(b1, sizeof(b1), r->a, false));
		printf("%14s ", ms(b2, sizeof(b2), r->b, false));
		printf("%14s   ", signed_ms(b3, sizeof(b3), r->exclusive));
		printf("%8s ", calls_of(b1, sizeof(b1), r->a));
		printf("%8s ", calls_of(b2, sizeof(b2), r->b));
		printf("%+8lld  %s%s\n", (long long)r->calls, r->name,
		       r->a && r->b ? "" :
		       r->a	    ? "  (only in A)" :
				      "  (only in B)");
	}
}

static int cmd_profile_diff(const struct profile_opts *o, const char *a,
			    const char *b)
{
	struct vt_profile pa = { 0 }, pb = { 0 };
	struct vt_slices sa = { 0 }, sb = { 0 };
	struct diff d = { .file_a = a, .file_b = b, .pa = &pa, .pb = &pb };
	struct vtrace_json j;
	int ret;

	ret = load_profile(a, o->tid, &sa, &pa);
	if (!ret)
		ret = load_profile(b, o->tid, &sb, &pb);
	if (!ret && diff_build(&d)) {
		vtrace_err("profile: %s", strerror(ENOMEM));
		ret = VTRACE_EXIT_FAIL;
	}
	if (!ret && o->html &&
	    view_page_write("profile", o->html, diff_page_json, &d))
		ret = VTRACE_EXIT_FAIL;
	if (!ret && o->json) {
		vtrace_json_init(&j, stdout);
		vtrace_json_object_begin(&j, NULL);
		diff_json_members(&j, &d);
		vtrace_json_object_end(&j);
		ret = cli_finish_json(&j);
	} else if (!ret) {
		diff_text(&d);
		ret = cli_finish_stdout();
	}
	free(d.rows);
	vtrace_profile_free(&pa);
	vtrace_profile_free(&pb);
	vtrace_slices_free(&sa);
	vtrace_slices_free(&sb);
	return ret;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_opts o = { .tid = -1,
				  .threshold = DOT_THRESHOLD_DEFAULT };
	struct profile_page pp;
	struct vt_profile p;
	struct vt_slices s = { 0 };
	const char *file;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (o.diff)
		return cmd_profile_diff(&o, argv[argc - 2], argv[argc - 1]);
	file = argv[argc - 1];
	ret = load_profile(file, o.tid, &s, &p);
	pp.file = file;
	pp.p = &p;
	if (!ret && graphs(&p, &o))
		ret = VTRACE_EXIT_FAIL;
	if (!ret && o.html &&
	    view_page_write("profile", o.html, profile_page_json, &pp))
		ret = VTRACE_EXIT_FAIL;
	if (!ret && o.json) {
		ret = print_json(&p);
	} else if (!ret) {
		print_text(&p);
		ret = cli_finish_stdout();
	}
	vtrace_profile_free(&p);
	vtrace_slices_free(&s);
	return ret;
}
