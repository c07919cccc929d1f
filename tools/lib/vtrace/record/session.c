// SPDX-License-Identifier: LGPL-2.1
/*
 * The session registry, in the state directory:
 *
 *   sessions.lock         flock'ed exclusively for every change of the
 *                         registry, shared to read it
 *   session-NAME.lock     flock'ed exclusively by the recorder of NAME for
 *                         its whole life: the proof that it runs
 *   session-NAME.session  its entry (key=value lines), replaced whole by
 *                         rename so that a reader never sees half of one
 *   session-NAME.abort    why it was aborted, written by the exclusive
 *                         session that aborted it
 *   session-NAME.log      a background recording's messages
 *
 * Creating a session's lock and taking it happen under the registry lock,
 * so whoever holds the registry lock and finds a session's lock free
 * knows its recorder has died.
 *
 * Who may register, and whom a new exclusive session aborts, is
 * session-admit.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <vtrace/session.h>
#include <vtrace/state-dir.h>
#include <vtrace/state-lock.h>

#include "record/session-local.h"

#define ENTRY_PREFIX "session-"
#define ENTRY_SUFFIX ".session"

/**
 * vtrace_session_name_valid - whether a name can be a session's
 * @name: the name
 *
 * Return: true for 1 to %VTRACE_SESSION_NAME_MAX letters, digits, '_',
 * '-' and '.', not starting with '.'.
 */
bool vtrace_session_name_valid(const char *name)
{
	size_t i, len = strlen(name);

	if (!len || len > VTRACE_SESSION_NAME_MAX || name[0] == '.')
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && c != '_' && c != '-' && c != '.')
			return false;
	}
	return true;
}

static void file_name(char *buf, size_t size, const char *name, const char *ext)
{
	snprintf(buf, size, ENTRY_PREFIX "%s.%s", name, ext);
}

/* Output paths may hold any byte but NUL: one line each, escaped. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static char *unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 'n' ? '\n' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

/**
 * vt_session_entry_write - write a session's entry, replacing it whole
 * @dirfd: the state directory
 * @info: the session
 *
 * Return: 0 or the -errno of writing it.
 */
int vt_session_entry_write(int dirfd, const struct vtrace_session_info *info)
{
	const struct vtrace_proc_ident *id = &info->recorder;
	char tmp[VTRACE_SESSION_NAME_MAX + 32];
	char path[VTRACE_SESSION_NAME_MAX + 32];
	FILE *f;
	int fd, ret = 0;

	file_name(tmp, sizeof(tmp), info->name, "tmp");
	file_name(path, sizeof(path), info->name, "session");
	unlinkat(dirfd, tmp, 0); /* a dead recorder's */
	fd = openat(dirfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto out;
	}
	fprintf(f,
		"name=%s\npid=%d\nstart_time=%llu\nexe=%llu:%llu\n"
		"boot_id=%s\n",
		info->name, (int)id->pid, id->start_time, id->exe_dev,
		id->exe_ino, id->boot_id);
	if (info->instance)
		fprintf(f, "instance=%s\n", info->instance);
	fprintf(f,
		"exclusive_prio=%u\nfeatures=%u\nevents=%llu\nbytes=%llu\n"
		"started_ns=%llu\noutput=",
		info->exclusive_prio, info->features, info->events, info->bytes,
		info->started_ns);
	put_escaped(f, info->output ? info->output : "");
	fputc('\n', f);
	if (info->partial) {
		fputs("partial=", f);
		put_escaped(f, info->partial);
		fputc('\n', f);
	}
	if (fclose(f))
		ret = -errno;
	if (!ret && renameat(dirfd, tmp, dirfd, path))
		ret = -errno;
out:
	if (ret)
		unlinkat(dirfd, tmp, 0);
	return ret;
}

static void info_release(struct vtrace_session_info *info)
{
	free(info->instance);
	free(info->output);
	free(info->partial);
	info->instance = NULL;
	info->output = NULL;
	info->partial = NULL;
}

static int parse_line(struct vtrace_session_info *info, const char *key,
		      const char *val)
{
	struct vtrace_proc_ident *id = &info->recorder;

	if (!strcmp(key, "name"))
		snprintf(info->name, sizeof(info->name), "%s", val);
	else if (!strcmp(key, "pid"))
		id->pid = strtol(val, NULL, 10);
	else if (!strcmp(key, "start_time"))
		id->start_time = strtoull(val, NULL, 10);
	else if (!strcmp(key, "exe"))
		sscanf(val, "%llu:%llu", &id->exe_dev, &id->exe_ino);
	else if (!strcmp(key, "boot_id"))
		snprintf(id->boot_id, sizeof(id->boot_id), "%s", val);
	else if (!strcmp(key, "instance"))
		return (info->instance = strdup(val)) ? 0 : -ENOMEM;
	else if (!strcmp(key, "exclusive_prio"))
		info->exclusive_prio = strtoul(val, NULL, 10);
	else if (!strcmp(key, "features"))
		info->features = strtoul(val, NULL, 10);
	else if (!strcmp(key, "events"))
		info->events = strtoull(val, NULL, 10);
	else if (!strcmp(key, "bytes"))
		info->bytes = strtoull(val, NULL, 10);
	else if (!strcmp(key, "started_ns"))
		info->started_ns = strtoull(val, NULL, 10);
	else if (!strcmp(key, "output"))
		return (info->output = unescape(val)) ? 0 : -ENOMEM;
	else if (!strcmp(key, "partial") && !info->partial)
		return (info->partial = unescape(val)) ? 0 : -ENOMEM;
	return 0;
}

static bool file_exists(int dirfd, const char *name, const char *ext)
{
	char file[VTRACE_SESSION_NAME_MAX + 32];
	struct stat st;

	file_name(file, sizeof(file), name, ext);
	return !fstatat(dirfd, file, &st, AT_SYMLINK_NOFOLLOW);
}

static int entry_read(int dirfd, const char *name,
		      struct vtrace_session_info *info)
{
	char path[VTRACE_SESSION_NAME_MAX + 32], *line = NULL, *eq;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int fd, ret = 0;

	memset(info, 0, sizeof(*info));
	file_name(path, sizeof(path), name, "session");
	fd = openat(dirfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	while (!ret && (len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		ret = parse_line(info, line, eq + 1);
	}
	free(line);
	fclose(f);
	if (!ret && strcmp(info->name, name))
		ret = -EIO;
	if (!ret && !info->output)
		ret = (info->output = strdup("")) ? 0 : -ENOMEM;
	if (ret) {
		info_release(info);
		return ret;
	}
	info->aborting = file_exists(dirfd, name, "abort");
	return 0;
}

/* Whether the recorder of @name holds its lock, that is, lives. */
static bool session_alive(int dirfd, const char *name)
{
	char path[VTRACE_SESSION_NAME_MAX + 32];
	bool alive;
	int fd;

	file_name(path, sizeof(path), name, "lock");
	fd = openat(dirfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	alive = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);
	return alive;
}

/**
 * vt_session_remove - remove every file of a session but its log
 * @dirfd: the state directory
 * @name: the session
 *
 * The registry lock is held exclusively.
 */
void vt_session_remove(int dirfd, const char *name)
{
	static const char *const exts[] = { "session", "abort", "tmp", "lock" };
	char path[VTRACE_SESSION_NAME_MAX + 32];
	size_t i;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		file_name(path, sizeof(path), name, exts[i]);
		unlinkat(dirfd, path, 0);
	}
}

/**
 * vt_session_load_live - the live sessions, with the registry lock held
 * @dirfd: the state directory
 * @cleanup: remove the entries of dead ones (the registry lock is held
 *	exclusively)
 * @list: set to an array, to be released with vtrace_sessions_free()
 * @nr: set to its length
 *
 * Return: 0, -ENOMEM, or the -errno of reading the state directory or an
 * entry.
 */
int vt_session_load_live(int dirfd, bool cleanup,
			 struct vtrace_session_info **list, size_t *nr)
{
	struct vtrace_session_info *l = NULL, *grown;
	char name[VTRACE_SESSION_NAME_MAX + 1];
	size_t n = 0, len, pre = strlen(ENTRY_PREFIX);
	size_t suf = strlen(ENTRY_SUFFIX);
	struct dirent *de;
	int fd, ret = 0;
	DIR *dir;

	fd = dup(dirfd);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -errno;
	}
	rewinddir(dir); /* the duplicate shares the offset of earlier reads */
	while (!ret && (de = readdir(dir))) {
		len = strlen(de->d_name);
		if (len <= pre + suf ||
		    strncmp(de->d_name, ENTRY_PREFIX, pre) ||
		    strcmp(de->d_name + len - suf, ENTRY_SUFFIX) ||
		    len - pre - suf > VTRACE_SESSION_NAME_MAX)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(len - pre - suf),
			 de->d_name + pre);
		if (!vtrace_session_name_valid(name))
			continue;
		if (!session_alive(dirfd, name)) {
			if (cleanup)
				vt_session_remove(dirfd, name);
			continue;
		}
		grown = realloc(l, (n + 1) * sizeof(*l));
		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		l = grown;
		ret = entry_read(dirfd, name, &l[n]);
		if (ret == -ENOENT) /* it ended meanwhile */
			ret = 0;
		else if (!ret)
			n++;
	}
	closedir(dir);
	if (ret) {
		vtrace_sessions_free(l, n);
		return ret;
	}
	*list = l;
	*nr = n;
	return 0;
}

/**
 * vt_session_take_own_lock - create and take a new session's own lock
 * @dirfd: the state directory
 * @name: the session
 * @fd: set to the lock, held for the recorder's life; -1 on failure
 *
 * The registry lock is held exclusively.
 *
 * Return: 0 or the -errno of creating or locking it.
 */
int vt_session_take_own_lock(int dirfd, const char *name, int *fd)
{
	char path[VTRACE_SESSION_NAME_MAX + 32];

	file_name(path, sizeof(path), name, "lock");
	unlinkat(dirfd, path, 0); /* a dead session's, cleaned up already */
	*fd = openat(dirfd, path,
		     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (*fd < 0)
		return -errno;
	if (flock(*fd, LOCK_EX | LOCK_NB)) {
		int err = -errno;

		close(*fd);
		*fd = -1;
		unlinkat(dirfd, path, 0);
		return err;
	}
	return 0;
}

/**
 * vt_session_free - release a session, registered or not
 * @s: the session
 *
 * Its files stay: vtrace_session_end() removes them.
 */
void vt_session_free(struct vtrace_session *s)
{
	if (s->lockfd >= 0)
		close(s->lockfd);
	if (s->dirfd >= 0)
		close(s->dirfd);
	info_release(&s->info);
	free(s->abort_reason);
	free(s);
}

static int session_init(const struct vtrace_session_params *p,
			struct vtrace_session *s)
{
	struct timespec now;
	int ret;

	if (p->name && *p->name)
		snprintf(s->info.name, sizeof(s->info.name), "%s", p->name);
	else
		snprintf(s->info.name, sizeof(s->info.name), "vtrace-%d",
			 (int)getpid());
	s->info.instance = p->instance ? strdup(p->instance) : NULL;
	s->info.output = strdup(p->output ? p->output : "");
	if ((p->instance && !s->info.instance) || !s->info.output)
		return -ENOMEM;
	s->info.exclusive_prio = p->exclusive_prio;
	s->info.features = p->features;
	clock_gettime(CLOCK_REALTIME, &now);
	s->info.started_ns = now.tv_sec * 1000000000ULL + now.tv_nsec;
	ret = vtrace_proc_ident_read(0, &s->info.recorder);
	if (ret)
		return ret;
	return vtrace_state_dir_open(true, &s->dirfd, NULL);
}

/**
 * vt_session_new - a session as @params asks for it, not registered yet
 * @params: what it asks for
 * @session: set to the session, to be released with vt_session_free()
 *
 * Return: 0, -ENOMEM, or an error of reading the recorder's identity or
 * of the state directory (see vtrace_state_dir_open()).
 */
int vt_session_new(const struct vtrace_session_params *params,
		   struct vtrace_session **session)
{
	struct vtrace_session *s;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->dirfd = -1;
	s->lockfd = -1;
	ret = session_init(params, s);
	if (ret) {
		vt_session_free(s);
		return ret;
	}
	*session = s;
	return 0;
}

/**
 * vtrace_session_name - a session's unique name
 * @s: the session
 *
 * Return: the name given, or the one made up for it.
 */
const char *vtrace_session_name(const struct vtrace_session *s)
{
	return s->info.name;
}

/**
 * vtrace_session_update - publish how much a session has recorded
 * @s: the session
 * @events: events written so far
 * @bytes: bytes of them
 *
 * Called by the recorder about once a second; readers of the registry
 * see the old or the new entry, never a mix.
 *
 * Return: 0 or the -errno of writing the entry.
 */
int vtrace_session_update(struct vtrace_session *s, unsigned long long events,
			  unsigned long long bytes)
{
	s->info.events = events;
	s->info.bytes = bytes;
	return vt_session_entry_write(s->dirfd, &s->info);
}

/**
 * vtrace_session_set_partial - publish the temporary file of an output
 * @s: the session
 * @partial: the file its output is written as until it is complete (a
 *	temporary name next to it), or NULL for none
 *
 * Return: 0, -ENOMEM, or the -errno of writing the entry.
 */
int vtrace_session_set_partial(struct vtrace_session *s, const char *partial)
{
	char *copy = partial ? strdup(partial) : NULL;

	if (partial && !copy)
		return -ENOMEM;
	free(s->info.partial);
	s->info.partial = copy;
	return vt_session_entry_write(s->dirfd, &s->info);
}

/**
 * vt_session_note_abort - tell a session why it is aborted
 * @dirfd: the state directory
 * @name: the session aborted
 * @by: the exclusive session aborting it
 *
 * Written before its recorder is signalled, for the recorder's
 * vtrace_session_abort_reason() and the registry's readers.
 *
 * Return: 0 or the -errno of creating the note.
 */
int vt_session_note_abort(int dirfd, const char *name,
			  const struct vtrace_session_info *by)
{
	char path[VTRACE_SESSION_NAME_MAX + 32];
	int fd;

	file_name(path, sizeof(path), name, "abort");
	unlinkat(dirfd, path, 0); /* an earlier request's */
	fd = openat(dirfd, path,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	dprintf(fd, "higher-priority (%u) exclusive session %s",
		by->exclusive_prio, by->name);
	close(fd);
	return 0;
}

/**
 * vtrace_session_abort_reason - whether a higher-priority session aborted it
 * @s: the session
 *
 * The exclusive session that aborts another notes why before it sends the
 * recorder SIGTERM: a recorder stopped by a signal asks this.
 *
 * Return: NULL, or "higher-priority (N) exclusive session NAME".
 */
const char *vtrace_session_abort_reason(struct vtrace_session *s)
{
	char path[VTRACE_SESSION_NAME_MAX + 32], buf[256];
	ssize_t n;
	int fd;

	if (s->abort_reason)
		return s->abort_reason;
	file_name(path, sizeof(path), s->info.name, "abort");
	fd = openat(s->dirfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	s->abort_reason = strdup(buf);
	return s->abort_reason;
}

/**
 * vtrace_session_end - unregister a session and release it
 * @s: the session, or NULL
 *
 * Its log stays for "vtrace stop" to print.
 */
void vtrace_session_end(struct vtrace_session *s)
{
	int regfd;

	if (!s)
		return;
	if (!vtrace_state_lock(s->dirfd, VTRACE_STATE_LOCK_SESSIONS, LOCK_EX,
			       true, NULL, &regfd)) {
		vt_session_remove(s->dirfd, s->info.name);
		vtrace_state_unlock(regfd);
	}
	vt_session_free(s);
}

/**
 * vtrace_session_log_open - a background session's log
 * @name: the session
 * @create: open for writing, a new file replacing any earlier one; else
 *	for reading
 * @fd: set to the descriptor
 *
 * Return: 0 or an error of vtrace_state_file_open() or
 * vtrace_state_file_create().
 */
int vtrace_session_log_open(const char *name, bool create, int *fd)
{
	char path[VTRACE_SESSION_NAME_MAX + 32];

	if (!vtrace_session_name_valid(name))
		return -EINVAL;
	file_name(path, sizeof(path), name, "log");
	if (create)
		return vtrace_state_file_create(path, 0644, fd);
	return vtrace_state_file_open(path, O_RDONLY, 0, fd);
}

/**
 * vtrace_session_log_remove - remove a session's log
 * @name: the session
 */
void vtrace_session_log_remove(const char *name)
{
	char path[VTRACE_SESSION_NAME_MAX + 32];
	int dirfd;

	if (!vtrace_session_name_valid(name) ||
	    vtrace_state_dir_open(false, &dirfd, NULL))
		return;
	file_name(path, sizeof(path), name, "log");
	unlinkat(dirfd, path, 0);
	close(dirfd);
}

static int by_name(const void *a, const void *b)
{
	const struct vtrace_session_info *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/**
 * vtrace_sessions_list - the running sessions
 * @list: set to an array, to be released with vtrace_sessions_free()
 * @nr: set to its length
 *
 * Sessions whose recorder died are left out; the others are sorted by
 * name.
 *
 * Return: 0 (an empty list when there is no registry yet), or an error
 * of the state directory or the registry.
 */
int vtrace_sessions_list(struct vtrace_session_info **list, size_t *nr)
{
	int dirfd, regfd, ret;

	*list = NULL;
	*nr = 0;
	ret = vtrace_state_dir_open(false, &dirfd, NULL);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	ret = vtrace_state_lock(dirfd, VTRACE_STATE_LOCK_SESSIONS, LOCK_SH,
				false, NULL, &regfd);
	if (ret) {
		close(dirfd);
		return ret == -ENOENT ? 0 : ret;
	}
	ret = vt_session_load_live(dirfd, false, list, nr);
	vtrace_state_unlock(regfd);
	close(dirfd);
	if (!ret && *nr)
		qsort(*list, *nr, sizeof(**list), by_name);
	return ret;
}

/**
 * vtrace_sessions_free - release a list of sessions
 * @list: from vtrace_sessions_list(), or NULL
 * @nr: its length
 */
void vtrace_sessions_free(struct vtrace_session_info *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		info_release(&list[i]);
	free(list);
}

/**
 * vtrace_session_signal - signal a session's recorder, proven to be it
 * @info: the session, from vtrace_sessions_list()
 * @sig: the signal
 * @pidfd: set to a pidfd of the recorder, for vtrace_session_wait()
 *
 * The signal goes through a pidfd of the process whose start time,
 * executable and boot are those the recorder registered: to the recorder
 * or to nobody, never to a process that got its pid later.
 *
 * Return: 0, -ESRCH when the recorder has exited, -ESTALE when its pid
 * now names another process, or another -errno.
 */
int vtrace_session_signal(const struct vtrace_session_info *info, int sig,
			  int *pidfd)
{
	int ret;

	ret = vtrace_proc_pidfd_open(&info->recorder, pidfd);
	if (ret)
		return ret;
	ret = vtrace_proc_pidfd_signal(*pidfd, sig);
	if (ret) {
		close(*pidfd);
		*pidfd = -1;
	}
	return ret;
}

/**
 * vtrace_session_wait - wait until a recorder has exited
 * @pidfd: from vtrace_session_signal()
 * @timeout_ms: how long at most
 *
 * A recorder ends its session last, after its file is complete: once it
 * has exited, everything it had to do is done.
 *
 * Return: 0, -ETIMEDOUT, or the -errno of poll.
 */
int vtrace_session_wait(int pidfd, int timeout_ms)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	int n;

	do
		n = poll(&pfd, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n ? 0 : -ETIMEDOUT;
}
