/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The recording journal: before a recording changes anything in tracefs
 * (an instance created, an event enabled, a buffer size, the clock,
 * buffer_percent, the sub-buffer size, tracing_on, an option, a filter),
 * it writes what was there into a journal file in the state directory,
 * and it notes the temporary file its output is written to. A clean end
 * removes the journal; after a SIGKILL, an OOM kill or a power loss the
 * journal is what vtrace_journal_restore_dead() puts back.
 *
 * Liveness is the kernel's: the recording holds an exclusive flock on its
 * journal for as long as it lives (the kernel drops it when the process
 * dies, however it dies), so a journal whose lock can be taken is dead,
 * whatever pid it names, and a live one is never touched.
 *
 * Files are opened relative to the state directory's proven descriptor,
 * with O_NOFOLLOW; a journal is made under a temporary name and renamed
 * once locked, so it is never seen unlocked by another process.
 */
#ifndef _VTRACE_JOURNAL_H
#define _VTRACE_JOURNAL_H

#include <stdbool.h>

struct vtrace_journal;

/**
 * struct vtrace_journal_restored - what was put back for one dead recording
 * @pid: the recording's pid
 * @instance: its instance, NULL for the top level buffer
 * @settings: settings written back (events included)
 * @failed: those that could not be (e.g. the instance is gone)
 * @instance_removed: the instance it had created was removed
 * @partial: the temporary file its output was written to, or NULL
 * @first_error: text of the first failure, "" when none
 */
struct vtrace_journal_restored {
	int pid;
	const char *instance;
	unsigned int settings;
	unsigned int failed;
	bool instance_removed;
	const char *partial;
	char first_error[256];
};

/**
 * typedef vtrace_journal_report_fn - told about each dead recording restored
 * @ctx: the caller's
 * @r: what was done; valid during the call
 */
typedef void (*vtrace_journal_report_fn)(
	void *ctx, const struct vtrace_journal_restored *r);

int vtrace_journal_open(const char *instance, struct vtrace_journal **out);
int vtrace_journal_setting(struct vtrace_journal *j, const char *file,
			   const char *value);
int vtrace_journal_instance_created(struct vtrace_journal *j);
int vtrace_journal_partial(struct vtrace_journal *j, const char *path);
void vtrace_journal_close(struct vtrace_journal *j);
int vtrace_journal_restore_dead(vtrace_journal_report_fn report, void *ctx,
				unsigned int *restored);

#endif /* _VTRACE_JOURNAL_H */
