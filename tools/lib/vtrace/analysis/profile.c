// SPDX-License-Identifier: LGPL-2.1
/*
 * The profile of a set of slices; see profile.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/profile.h>

/* Per name while building: its entry index, or -1. */
struct build {
	const struct vt_slices *s;
	struct vt_profile *p;
	size_t *entry_of; /* by name */
};

static int add_edge(struct vt_profile_edge **edges, size_t *nr, uint32_t name,
		    uint64_t ns)
{
	struct vt_profile_edge *e;
	size_t i;

	for (i = 0; i < *nr; i++)
		if ((*edges)[i].name == name)
			break;
	if (i == *nr) {
		e = reallocarray(*edges, *nr + 1, sizeof(**edges));
		if (!e)
			return -ENOMEM;
		*edges = e;
		memset(&e[i], 0, sizeof(e[i]));
		e[i].name = name;
		(*nr)++;
	}
	(*edges)[i].inclusive += ns;
	(*edges)[i].calls++;
	return 0;
}

static struct vt_profile_entry *entry(struct build *b, uint32_t name)
{
	struct vt_profile *p = b->p;

	if (b->entry_of[name] == SIZE_MAX) {
		b->entry_of[name] = p->nr_entries;
		memset(&p->entries[p->nr_entries], 0, sizeof(p->entries[0]));
		p->entries[p->nr_entries++].name = name;
	}
	return &p->entries[b->entry_of[name]];
}

/* Whether an ancestor of slice @i has its name. */
static bool recursive_call(const struct vt_slices *s, size_t i)
{
	size_t a;

	for (a = s->slices[i].parent; a != VT_SLICE_NO_PARENT;
	     a = s->slices[a].parent)
		if (s->slices[a].name == s->slices[i].name)
			return true;
	return false;
}

static const struct vt_profile *sort_profile;

static int cmp_edge(const void *a, const void *b)
{
	const struct vt_profile_edge *x = a, *y = b;

	if (x->inclusive != y->inclusive)
		return x->inclusive > y->inclusive ? -1 : 1;
	if (x->name == y->name)
		return 0;
	return strcmp(vtrace_profile_name(sort_profile, x->name),
		      vtrace_profile_name(sort_profile, y->name));
}

static int cmp_entry(const void *a, const void *b)
{
	const struct vt_profile_entry *x = a, *y = b;

	if (x->inclusive != y->inclusive)
		return x->inclusive > y->inclusive ? -1 : 1;
	return strcmp(vtrace_profile_name(sort_profile, x->name),
		      vtrace_profile_name(sort_profile, y->name));
}

static int account(struct build *b, size_t i)
{
	const struct vt_slices *s = b->s;
	const struct vt_slice *sl = &s->slices[i], *parent = NULL;
	struct vt_profile_entry *e = entry(b, sl->name), *pe;
	uint32_t caller = VT_PROFILE_TOPLEVEL;
	bool rec = recursive_call(s, i);
	int ret;

	if (sl->parent != VT_SLICE_NO_PARENT) {
		parent = &s->slices[sl->parent];
		caller = parent->name;
	}
	e->calls++;
	if (rec)
		e->recursive++;
	else
		e->inclusive += sl->dur;
	/* Exclusive: own time; children take theirs from their parent. */
	e->exclusive += sl->dur;
	b->p->total += sl->dur;
	if (parent) {
		pe = entry(b, parent->name);
		/* A child longer than its parent (clipped input) takes no more than it. */
		pe->exclusive -= sl->dur < pe->exclusive ? sl->dur :
							   pe->exclusive;
		b->p->total -= sl->dur;
		ret = add_edge(&pe->children, &pe->nr_children, sl->name,
			       sl->dur);
		if (ret)
			return ret;
	}
	return add_edge(&e->parents, &e->nr_parents, caller, sl->dur);
}

/**
 * vtrace_profile_build - profile slices
 * @p: filled in; free with vtrace_profile_free()
 * @s: finished slices, which must outlive @p
 * @tid: only this thread's slices, or -1 for all
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_profile_build(struct vt_profile *p, const struct vt_slices *s,
			 int tid)
{
	struct build b = { .s = s, .p = p };
	size_t i;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->slices = s;
	b.entry_of =
		malloc((s->nr_names ? s->nr_names : 1) * sizeof(*b.entry_of));
	p->entries = calloc(s->nr_names ? s->nr_names : 1, sizeof(*p->entries));
	if (!b.entry_of || !p->entries) {
		free(b.entry_of);
		return -ENOMEM;
	}
	for (i = 0; i < s->nr_names; i++)
		b.entry_of[i] = SIZE_MAX;
	/*
	 * Parents before children (by begin, then depth), so that a
	 * parent's exclusive time holds its own duration before its
	 * children's are taken from it.
	 */
	for (i = 0; i < s->nr_slices && !ret; i++)
		if (tid < 0 || s->slices[i].tid == tid)
			ret = account(&b, i);
	free(b.entry_of);
	if (ret)
		return ret;
	sort_profile = p;
	/* Every entry has a parent edge; children it may have none. */
	for (i = 0; i < p->nr_entries; i++) {
		qsort(p->entries[i].parents, p->entries[i].nr_parents,
		      sizeof(struct vt_profile_edge), cmp_edge);
		if (p->entries[i].nr_children)
			qsort(p->entries[i].children, p->entries[i].nr_children,
			      sizeof(struct vt_profile_edge), cmp_edge);
	}
	qsort(p->entries, p->nr_entries, sizeof(*p->entries), cmp_entry);
	return 0;
}

/**
 * vtrace_profile_free - free a profile
 * @p: the profile
 */
void vtrace_profile_free(struct vt_profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_entries; i++) {
		free(p->entries[i].parents);
		free(p->entries[i].children);
	}
	free(p->entries);
	memset(p, 0, sizeof(*p));
}

/**
 * vtrace_profile_name - the text of a name index
 * @p: the profile
 * @name: a name index, or %VT_PROFILE_TOPLEVEL
 *
 * Return: the name; "(toplevel)" for %VT_PROFILE_TOPLEVEL.
 */
const char *vtrace_profile_name(const struct vt_profile *p, uint32_t name)
{
	return name == VT_PROFILE_TOPLEVEL ? "(toplevel)" :
					     p->slices->names[name];
}

/**
 * vtrace_profile_find - the entry of a name
 * @p: the profile
 * @name: a name index
 *
 * Return: the entry, or NULL when the name has no slices in @p.
 */
const struct vt_profile_entry *vtrace_profile_find(const struct vt_profile *p,
						   uint32_t name)
{
	size_t i;

	for (i = 0; i < p->nr_entries; i++)
		if (p->entries[i].name == name)
			return &p->entries[i];
	return NULL;
}

/* The body of a dot string: quotes and backslashes escaped, controls dropped. */
static void dot_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, out);
	}
}

static void ms(FILE *out, uint64_t ns)
{
	fprintf(out, "%llu.%03llu", (unsigned long long)(ns / 1000000),
		(unsigned long long)(ns / 1000 % 1000));
}

/* Whether a callee's @inclusive ns under a caller of @base ns is drawn. */
static bool over(uint64_t inclusive, uint64_t base, unsigned int threshold)
{
	return inclusive * 100 >= base * (uint64_t)threshold;
}

/**
 * vtrace_profile_write_dot - the call graph in Graphviz dot
 * @p: the profile
 * @out: where to write it
 * @threshold: percent: an edge is drawn when the callee's inclusive time
 *	under that caller is at least this share of the caller's inclusive
 *	time (of the total for bottom slices), as dmtracedump -t; a node
 *	when an edge to it passes
 *
 * Nodes are labelled "NAME (INCLUSIVE ms, EXCLUSIVE ms, CALLS)", edges
 * with the callee's inclusive ms under the caller and weighted by it.
 *
 * Return: 0, -ENOMEM, or -EIO when @out fails.
 */
int vtrace_profile_write_dot(const struct vt_profile *p, FILE *out,
			     unsigned int threshold)
{
	const struct vt_profile_entry *e, *ce;
	const struct vt_profile_edge *edge;
	uint64_t base;
	bool *shown;
	size_t i, j;

	/* By name index: a node is drawn when an edge into it passes. */
	shown = calloc(p->slices->nr_names ? p->slices->nr_names : 1,
		       sizeof(*shown));
	if (!shown)
		return -ENOMEM;
	for (i = 0; i < p->nr_entries; i++) {
		e = &p->entries[i];
		for (j = 0; j < e->nr_parents; j++) {
			edge = &e->parents[j];
			base = edge->name == VT_PROFILE_TOPLEVEL ?
				       p->total :
				       vtrace_profile_find(p, edge->name)
					       ->inclusive;
			if (over(edge->inclusive, base, threshold))
				shown[e->name] = true;
		}
	}
	fprintf(out, "digraph \"vtrace profile\" {\n"
		     "\tnode [shape=box, fontname=\"Helvetica\"];\n");
	for (i = 0; i < p->nr_entries; i++) {
		e = &p->entries[i];
		if (!shown[e->name])
			continue;
		fprintf(out, "\tn%u [label=\"", e->name);
		dot_escape(out, vtrace_profile_name(p, e->name));
		fputs("\\n(", out);
		ms(out, e->inclusive);
		fputs(" ms, ", out);
		ms(out, e->exclusive);
		fprintf(out, " ms, %llu)\"];\n", (unsigned long long)e->calls);
	}
	for (i = 0; i < p->nr_entries; i++) {
		e = &p->entries[i];
		if (!shown[e->name])
			continue;
		for (j = 0; j < e->nr_children; j++) {
			edge = &e->children[j];
			ce = vtrace_profile_find(p, edge->name);
			if (!shown[edge->name] || !ce ||
			    !over(edge->inclusive, e->inclusive, threshold))
				continue;
			fprintf(out, "\tn%u -> n%u [label=\"", e->name,
				edge->name);
			ms(out, edge->inclusive);
			fprintf(out, " ms\", weight=%llu];\n",
				(unsigned long long)(edge->inclusive / 1000 +
						     1));
		}
	}
	fprintf(out, "}\n");
	free(shown);
	return ferror(out) ? -EIO : 0;
}
