// SPDX-License-Identifier: LGPL-2.1
/*
 * The recording journal (see journal.h).
 *
 * A journal is text, one entry a line, each appended with one write()
 * before the change it describes:
 *
 *	vtrace-journal 1
 *	pid PID
 *	instance [NAME]		(no name: the top level buffer)
 *	created			(the recording made the instance)
 *	set FILE<TAB>VALUE	(FILE of the instance held VALUE)
 *	partial PATH		(the output's temporary file)
 *
 * Restoring writes the "set" values back in reverse order, so the first
 * value found of a file is the one that stays, then removes an instance
 * the recording created.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/instance.h>
#include <vtrace/journal.h>
#include <vtrace/state-dir.h>
#include <vtrace/state-lock.h>

#define JOURNAL_PREFIX "journal-"
/*
 * VTRACE_STATE_LOCK_JOURNAL is held while dead journals are restored, so
 * that a recording starting meanwhile waits for the restore rather than
 * mistake a journal being restored (locked) for a live one and save its
 * leaked values; and while a journal is made, so that its file is never
 * seen unlocked.
 */
#define JOURNAL_HEADER "vtrace-journal 1\n"
/* Longest journal read back; a recording journals a few hundred lines. */
#define JOURNAL_MAX (4 << 20)

struct vtrace_journal {
	int fd;
	int dirfd;
	char name[64];
};

static int append(struct vtrace_journal *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int append(struct vtrace_journal *j, const char *fmt, ...)
{
	char *line;
	va_list ap;
	ssize_t n;
	int len;

	if (!j)
		return 0;
	va_start(ap, fmt);
	len = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -ENOMEM;
	n = write(j->fd, line, len);
	free(line);
	if (n < 0)
		return -errno;
	return n == len ? 0 : -EIO;
}

/**
 * vtrace_journal_open - start the journal of a recording
 * @instance: the instance it records, NULL for the top level buffer
 * @out: set to the journal
 *
 * Return: 0, an error of vtrace_state_dir_open(), or a negative errno.
 */
int vtrace_journal_open(const char *instance, struct vtrace_journal **out)
{
	struct vtrace_journal *j;
	struct timespec now;
	char tmp[80];
	int lock, ret;

	*out = NULL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	ret = vtrace_state_dir_open(true, &j->dirfd, NULL);
	if (ret) {
		free(j);
		return ret;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(j->name, sizeof(j->name), JOURNAL_PREFIX "%d-%lld%09ld",
		 (int)getpid(), (long long)now.tv_sec, now.tv_nsec);
	snprintf(tmp, sizeof(tmp), ".%s", j->name);
	j->fd = -1;
	ret = vtrace_state_lock(j->dirfd, VTRACE_STATE_LOCK_JOURNAL, LOCK_EX,
				true, NULL, &lock);
	if (ret)
		goto fail;
	j->fd = openat(j->dirfd, tmp,
		       O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW |
			       O_CLOEXEC,
		       0600);
	/* New and ours alone: no one else waits on it. */
	if (j->fd < 0 || flock(j->fd, LOCK_EX | LOCK_NB)) {
		ret = -errno;
		goto fail;
	}
	ret = append(j, JOURNAL_HEADER "pid %d\ninstance %s\n", (int)getpid(),
		     instance ?: "");
	if (!ret && fsync(j->fd))
		ret = -errno;
	if (!ret && renameat(j->dirfd, tmp, j->dirfd, j->name))
		ret = -errno;
	if (ret)
		goto fail;
	vtrace_state_unlock(lock);
	*out = j;
	return 0;
fail:
	if (j->fd >= 0) {
		unlinkat(j->dirfd, tmp, 0);
		close(j->fd);
	}
	vtrace_state_unlock(lock);
	close(j->dirfd);
	free(j);
	return ret;
}

/**
 * vtrace_journal_setting - note a tracefs file's value before changing it
 * @j: the journal, or NULL (nothing is noted)
 * @file: the file, relative to the instance ("trace_clock",
 *	"events/sched/sched_switch/enable")
 * @value: what it holds now; its line breaks are kept as spaces
 *
 * Return: 0 or a negative errno: then do not change the file.
 */
int vtrace_journal_setting(struct vtrace_journal *j, const char *file,
			   const char *value)
{
	char *flat, *p;
	int ret;

	flat = strdup(value);
	if (!flat)
		return -ENOMEM;
	for (p = flat; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	ret = append(j, "set %s\t%s\n", file, flat);
	free(flat);
	return ret;
}

/**
 * vtrace_journal_instance_created - note that the recording makes its instance
 * @j: the journal, or NULL
 *
 * Call before creating it.
 *
 * Return: 0 or a negative errno.
 */
int vtrace_journal_instance_created(struct vtrace_journal *j)
{
	return append(j, "created\n");
}

/**
 * vtrace_journal_partial - note the temporary file of the output
 * @j: the journal, or NULL
 * @path: the file
 *
 * Return: 0 or a negative errno.
 */
int vtrace_journal_partial(struct vtrace_journal *j, const char *path)
{
	char *abs = realpath(path, NULL);
	int ret;

	ret = append(j, "partial %s\n", abs ?: path);
	free(abs);
	return ret;
}

/**
 * vtrace_journal_close - end a recording's journal: it restored everything
 * @j: the journal, may be NULL
 *
 * The journal is removed, then its lock released.
 */
void vtrace_journal_close(struct vtrace_journal *j)
{
	if (!j)
		return;
	unlinkat(j->dirfd, j->name, 0);
	close(j->fd);
	close(j->dirfd);
	free(j);
}

/* The journal's text, NUL-terminated. */
static char *read_journal(int fd)
{
	size_t len = 0, size = 4096;
	char *text = malloc(size), *grown;
	ssize_t n;

	while (text) {
		if (len + 1 == size) {
			grown = size < JOURNAL_MAX ? realloc(text, size * 2) :
						     NULL;
			if (!grown)
				break;
			text = grown;
			size *= 2;
		}
		n = pread(fd, text + len, size - 1 - len, len);
		if (n <= 0)
			break;
		len += n;
	}
	if (text)
		text[len] = '\0';
	return text;
}

static void restore_failed(struct vtrace_journal_restored *r, const char *what,
			   int err)
{
	if (!r->failed++)
		snprintf(r->first_error, sizeof(r->first_error), "%s: %s", what,
			 strerror(-err));
}

/*
 * Whether @file already holds @value: a knob the dead recording never
 * managed to change (the kernel refused it) is not written again.
 */
static bool holds(struct tracefs_instance *tfs, const char *file,
		  const char *value)
{
	char *now;
	bool same;

	if (!strcmp(file, "trace_clock"))
		now = tracefs_get_clock(tfs);
	else
		now = tracefs_instance_file_read(tfs, file, NULL);
	if (!now)
		return false;
	now[strcspn(now, "\n")] = '\0';
	same = !strcmp(now, value);
	free(now);
	return same;
}

/* Writes the "set" lines back, last first. */
static void restore_settings(struct tracefs_instance *tfs, char **lines, int nr,
			     struct vtrace_journal_restored *r)
{
	char *file, *value;
	int i;

	for (i = nr - 1; i >= 0; i--) {
		if (strncmp(lines[i], "set ", 4))
			continue;
		file = lines[i] + 4;
		value = strchr(file, '\t');
		if (!value || strstr(file, "..") || *file == '/')
			continue;
		*value++ = '\0';
		if (holds(tfs, file, value))
			continue;
		errno = 0;
		/* An empty list is written as a truncation alone. */
		if (tracefs_instance_file_write(tfs, file,
						*value ? value : "\n") < 0)
			restore_failed(r, file, errno ? -errno : -EIO);
		else
			r->settings++;
	}
}

static void remove_instance(const char *name, struct vtrace_journal_restored *r)
{
	struct tracefs_instance *tfs;
	struct vtrace_instance *vi;
	int ret;

	ret = vtrace_instance_open(name, VTRACE_INSTANCE_EXISTING, &vi);
	if (ret == -ENOENT)
		return;
	if (!ret) {
		tracefs_instance_file_write(vtrace_instance_tracefs(vi),
					    "events/enable", "0");
		ret = vtrace_instance_remove(vi);
		vtrace_instance_close(vi);
	}
	/* No marker of ours, but the journal proves the recording made it. */
	if (ret == -EPERM) {
		tfs = tracefs_instance_alloc(NULL, name);
		errno = 0;
		ret = tfs && !tracefs_instance_destroy(tfs) ? 0 :
		      errno				    ? -errno :
							      -EIO;
		tracefs_instance_free(tfs);
	}
	if (ret)
		restore_failed(r, name, ret);
	else
		r->instance_removed = true;
}

/* Puts back what the dead recording of one journal changed. */
static void restore_journal(char *text, struct vtrace_journal_restored *r)
{
	struct tracefs_instance *tfs = NULL;
	char **lines = NULL, *line, *save = NULL;
	bool created = false;
	int nr = 0, i;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char **grown = realloc(lines, (nr + 1) * sizeof(*lines));

		if (!grown)
			break;
		lines = grown;
		lines[nr++] = line;
	}
	for (i = 0; i < nr; i++) {
		if (!strncmp(lines[i], "pid ", 4))
			r->pid = atoi(lines[i] + 4);
		else if (!strncmp(lines[i], "instance ", 9) && lines[i][9])
			r->instance = lines[i] + 9;
		else if (!strcmp(lines[i], "created"))
			created = true;
		else if (!strncmp(lines[i], "partial ", 8))
			r->partial = lines[i] + 8;
	}
	if (r->instance && !tracefs_instance_exists(r->instance)) {
		free(lines);
		return; /* gone with everything it held */
	}
	if (r->instance)
		tfs = tracefs_instance_alloc(NULL, r->instance);
	if (r->instance && !tfs)
		restore_failed(r, r->instance, -ENOMEM);
	else if (!created)
		restore_settings(tfs, lines, nr, r);
	tracefs_instance_free(tfs);
	if (created && r->instance)
		remove_instance(r->instance, r);
	free(lines);
}

/* Restores one journal when its recording is dead; 1 when it was. */
static int restore_if_dead(int dirfd, const char *name,
			   vtrace_journal_report_fn report, void *ctx)
{
	struct vtrace_journal_restored r = { 0 };
	char *text;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd); /* alive: its recording holds the lock */
		return 0;
	}
	text = read_journal(fd);
	/* One not yet renamed into place changed nothing. */
	if (text && *name != '.' &&
	    !strncmp(text, JOURNAL_HEADER, strlen(JOURNAL_HEADER))) {
		restore_journal(text, &r);
		if (report)
			report(ctx, &r);
	}
	free(text);
	/* Removed while locked: no one else restores it again. */
	unlinkat(dirfd, name, 0);
	close(fd);
	return *name != '.';
}

/**
 * vtrace_journal_restore_dead - undo what dead recordings left in tracefs
 * @report: called for each dead recording restored, or NULL
 * @ctx: passed to @report
 * @restored: set to the number of dead recordings restored
 *
 * Journals of live recordings (their lock held) are not touched.
 *
 * Return: 0, or an error of vtrace_state_dir_open() (-ENOENT: no state
 * directory, so nothing to restore, is 0).
 */
int vtrace_journal_restore_dead(vtrace_journal_report_fn report, void *ctx,
				unsigned int *restored)
{
	struct dirent *de;
	int dirfd, fd, lock, ret;
	const char *name;
	DIR *dir;

	*restored = 0;
	ret = vtrace_state_dir_open(false, &dirfd, NULL);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	ret = vtrace_state_lock(dirfd, VTRACE_STATE_LOCK_JOURNAL, LOCK_EX, true,
				NULL, &lock);
	if (ret) {
		close(dirfd);
		return ret;
	}
	fd = dup(dirfd);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		goto out;
	}
	while ((de = readdir(dir))) {
		name = de->d_name + (de->d_name[0] == '.');
		if (!strncmp(name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)))
			*restored +=
				restore_if_dead(dirfd, de->d_name, report, ctx);
	}
	closedir(dir);
out:
	vtrace_state_unlock(lock);
	close(dirfd);
	return ret;
}
