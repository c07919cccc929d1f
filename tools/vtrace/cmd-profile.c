// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace profile - Traceview's profile panel as text: per slice name its
 * inclusive and exclusive time, calls, callers and callees; and the call
 * graph as dot (and PNG through Graphviz), as dmtracedump -g draws it.
 * The numbers are the library's (profile.h).
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

/* dmtracedump -g's default threshold, percent. */
#define DOT_THRESHOLD_DEFAULT 20

struct profile_opts {
	int tid;
	bool json;
	const char *dot;
	const char *png;
	unsigned int threshold;
};

static void profile_usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace profile FILE [--thread TID] [--json]\n"
		"                      [--dot OUT.dot] [--png OUT.png] [--threshold PCT]\n"
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
		"                   dmtracedump -t)\n",
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

static void json_edges(struct vtrace_json *j, const struct vt_profile *p,
		       const char *key, const struct vt_profile_edge *edges,
		       size_t n)
{
	size_t i;

	vtrace_json_array_begin(j, key);
	for (i = 0; i < n; i++) {
		vtrace_json_object_begin(j, NULL);
		vtrace_json_string(j, "name",
				   vtrace_profile_name(p, edges[i].name));
		vtrace_json_uint(j, "inclusive", edges[i].inclusive);
		vtrace_json_uint(j, "calls", edges[i].calls);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
}

static int print_json(const struct vt_profile *p)
{
	const struct vt_profile_entry *e;
	struct vtrace_json j;
	size_t i;

	vtrace_json_init(&j, stdout);
	vtrace_json_object_begin(&j, NULL);
	vtrace_json_uint(&j, "total", p->total);
	vtrace_json_array_begin(&j, "methods");
	for (i = 0; i < p->nr_entries; i++) {
		e = &p->entries[i];
		vtrace_json_object_begin(&j, NULL);
		vtrace_json_string(&j, "name", vtrace_profile_name(p, e->name));
		vtrace_json_uint(&j, "inclusive", e->inclusive);
		vtrace_json_uint(&j, "exclusive", e->exclusive);
		vtrace_json_uint(&j, "calls", e->calls);
		vtrace_json_uint(&j, "recursive", e->recursive);
		json_edges(&j, p, "parents", e->parents, e->nr_parents);
		json_edges(&j, p, "children", e->children, e->nr_children);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	vtrace_json_object_end(&j);
	return cli_finish_json(&j);
}

/* Why vtrace_output_file_create() or _commit() failed for @path. */
static void output_error(const char *path, int err)
{
	vtrace_err("profile: %s: %s", path, vtrace_output_file_strerror(err));
}

/* Like a trace, written whole or not at all (see output-file.h). */
static int write_dot(const struct vt_profile *p, const char *path,
		     unsigned int threshold)
{
	struct vt_output_file out;
	FILE *f = NULL;
	int ret, fd;

	ret = vtrace_output_file_create(&out, path);
	if (ret) {
		output_error(path, ret);
		return ret;
	}
	fd = dup(out.fd);
	if (fd >= 0)
		f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		vtrace_output_file_discard(&out);
		output_error(path, ret);
		return ret;
	}
	ret = vtrace_profile_write_dot(p, f, threshold);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		vtrace_output_file_discard(&out);
		output_error(path, ret);
		return ret;
	}
	ret = vtrace_output_file_commit(&out, false);
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
		case 'h':
			profile_usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			profile_usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		profile_usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	return -1;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_opts o = { .tid = -1,
				  .threshold = DOT_THRESHOLD_DEFAULT };
	struct vt_profile p = { 0 };
	struct vt_slices s;
	const char *file;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	file = argv[argc - 1];
	if (cli_check_input("profile", file))
		return VTRACE_EXIT_USAGE;
	if (cli_load_slices("profile", file, &s)) {
		vtrace_slices_free(&s);
		return VTRACE_EXIT_FAIL;
	}
	cli_report_slice_faults("profile", file, &s);
	ret = VTRACE_EXIT_FAIL;
	if (o.tid >= 0 && !vtrace_slices_find_thread(&s, o.tid)) {
		vtrace_err("profile: %s: thread %d has no slices", file, o.tid);
	} else if (vtrace_profile_build(&p, &s, o.tid)) {
		vtrace_err("profile: %s", strerror(ENOMEM));
	} else if (!graphs(&p, &o)) {
		if (o.json) {
			ret = print_json(&p);
		} else {
			print_text(&p);
			ret = cli_finish_stdout();
		}
	}
	vtrace_profile_free(&p);
	vtrace_slices_free(&s);
	return ret;
}
