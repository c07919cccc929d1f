/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The offline HTML pages of vtrace view and vtrace profile --html: one
 * self-contained file of the page's template, style and script (built
 * into the binary from tools/vtrace/view/) and the data as JSON.
 */
#ifndef _VTRACE_VIEW_PAGE_H
#define _VTRACE_VIEW_PAGE_H

#include <vtrace/json.h>
#include <vtrace/profile.h>

/* The page's files, NUL-terminated (view-assets.c, generated). */
extern const char vt_view_html[];
extern const char vt_view_css[];
extern const char vt_view_js[];

/* Writes the members of the page's data object (its "mode" first). */
typedef void (*view_page_data_fn)(struct vtrace_json *j, void *arg);

int view_page_write(const char *cmd, const char *path, view_page_data_fn data,
		    void *arg);
void view_json_profile(struct vtrace_json *j, const char *key,
		       const struct vt_profile *p);
void view_json_timeline(struct vtrace_json *j, const struct vt_slices *s);

#endif /* _VTRACE_VIEW_PAGE_H */
