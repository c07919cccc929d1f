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
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <vtrace/session.h>
#include <vtrace/state-dir.h>

#define REGISTRY_LOCK "sessions.lock"
#define ENTRY_PREFIX "session-"
#define ENTRY_SUFFIX ".session"

struct vtrace_session {
	int dirfd;
	int lockfd;
	struct vtrace_session_info info;
	char *abort_reason;
};

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

/* The registry lock, taken with @op (LOCK_SH or LOCK_EX). */
static int registry_lock(int dirfd, int op, bool create, int *fd)
{
	int flags = create ? O_RDWR | O_CREAT : O_RDONLY;

	*fd = openat(dirfd, REGISTRY_LOCK, flags | O_NOFOLLOW | O_CLOEXEC,
		     0644);
	if (*fd < 0)
		return -errno;
	while (flock(*fd, op)) {
		if (errno == EINTR)
			continue;
		close(*fd);
		return -errno;
	}
	return 0;
}

static void registry_unlock(int fd)
{
	close(fd); /* drops the flock */
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

static int entry_write(int dirfd, const struct vtrace_session_info *info)
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

/* Every file of a session but its log; the registry lock is held. */
static void session_remove(int dirfd, const char *name)
{
	static const char *const exts[] = { "session", "abort", "tmp", "lock" };
	char path[VTRACE_SESSION_NAME_MAX + 32];
	size_t i;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		file_name(path, sizeof(path), name, exts[i]);
		unlinkat(dirfd, path, 0);
	}
}

/*
 * The live sessions, with the registry lock held. With @cleanup (the
 * registry lock held exclusively) the entries of dead ones are removed.
 */
static int load_live(int dirfd, bool cleanup, struct vtrace_session_info **list,
		     size_t *nr)
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
				session_remove(dirfd, name);
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

static bool same_instance(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void refuse(struct vtrace_session_refused *r,
		   enum vtrace_session_refusal why,
		   const struct vtrace_session_info *holder)
{
	r->why = why;
	if (!holder)
		return;
	snprintf(r->holder, sizeof(r->holder), "%s", holder->name);
	r->pid = holder->recorder.pid;
	free(r->holder_instance);
	r->holder_instance = holder->instance ? strdup(holder->instance) : NULL;
}

/*
 * Perfetto's rules, in its order: the name first, then a running
 * exclusive session, then (for a session that is not to abort the
 * others) the buffer and the single-tenant features.
 */
static bool admissible(const struct vtrace_session_info *me,
		       const struct vtrace_session_info *live, size_t nr,
		       struct vtrace_session_refused *r)
{
	const struct vtrace_session_info *top = NULL;
	unsigned int bit;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!strcmp(live[i].name, me->name)) {
			refuse(r, VTRACE_SESSION_NAME_TAKEN, &live[i]);
			return false;
		}
		if (live[i].exclusive_prio &&
		    (!top || live[i].exclusive_prio > top->exclusive_prio))
			top = &live[i];
	}
	if (top && top->exclusive_prio >= me->exclusive_prio) {
		refuse(r, VTRACE_SESSION_EXCLUSIVE_ACTIVE, top);
		r->prio = top->exclusive_prio;
		r->requested = me->exclusive_prio;
		return false;
	}
	if (me->exclusive_prio)
		return true; /* every other session is to be aborted */
	for (i = 0; i < nr; i++) {
		if (same_instance(live[i].instance, me->instance)) {
			refuse(r, VTRACE_SESSION_INSTANCE_BUSY, &live[i]);
			return false;
		}
		bit = live[i].features & me->features;
		if (bit) {
			refuse(r, VTRACE_SESSION_FEATURE_HELD, &live[i]);
			r->feature = bit & -bit;
			return false;
		}
	}
	return true;
}

/* Create and take this session's own lock; the registry lock is held. */
static int take_own_lock(int dirfd, const char *name, int *fd)
{
	char path[VTRACE_SESSION_NAME_MAX + 32];

	file_name(path, sizeof(path), name, "lock");
	unlinkat(dirfd, path, 0); /* a dead session's, cleaned up already */
	*fd = openat(dirfd, path,
		     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (*fd < 0)
		return -errno;
	if (flock(*fd, LOCK_EX | LOCK_NB)) {
		close(*fd);
		unlinkat(dirfd, path, 0);
		return -errno;
	}
	return 0;
}

/* The abort request first, then the signal that makes the recorder stop. */
static int request_abort(int dirfd, const struct vtrace_session_info *victim,
			 const struct vtrace_session_info *me, int *pidfd)
{
	char path[VTRACE_SESSION_NAME_MAX + 32];
	int fd, ret;

	*pidfd = -1;
	ret = vtrace_proc_pidfd_open(&victim->recorder, pidfd);
	if (ret)
		return ret;
	file_name(path, sizeof(path), victim->name, "abort");
	unlinkat(dirfd, path, 0); /* an earlier request's */
	fd = openat(dirfd, path,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto err;
	}
	dprintf(fd, "higher-priority (%u) exclusive session %s",
		me->exclusive_prio, me->name);
	close(fd);
	ret = vtrace_proc_pidfd_signal(*pidfd, SIGTERM);
	if (!ret)
		return 0;
err:
	close(*pidfd);
	*pidfd = -1;
	return ret;
}

static int wait_victims(struct vtrace_session_info *live, int *pidfds,
			size_t nr, int timeout_ms,
			struct vtrace_session_refused *r)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (pidfds[i] < 0)
			continue;
		if (vtrace_session_wait(pidfds[i], timeout_ms)) {
			refuse(r, VTRACE_SESSION_ABORT_TIMEOUT, &live[i]);
			r->waited_s = timeout_ms / 1000;
			return -ETIMEDOUT;
		}
	}
	return 0;
}

static void session_free(struct vtrace_session *s)
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
 * vtrace_session_start - register a new session, by Perfetto's rules
 * @params: what it asks for
 * @session: set to the running session, to be ended with
 *	vtrace_session_end()
 * @refused: set to why it may not start on -EEXIST, -EPERM, -EBUSY,
 *	-EINVAL and -ETIMEDOUT (release with vtrace_session_refused_free())
 *
 * A session with a running session's name is refused; so is every
 * session while an exclusive one of equal or higher priority runs. A new
 * exclusive session (root only) aborts every other one and waits until
 * they have ended (their recorders restore what they changed); any other
 * session is refused a buffer another records and a single-tenant feature
 * another holds. Entries of sessions whose recorder died are removed.
 *
 * Return: 0; -EINVAL (a bad name), -EEXIST (the name is taken), -EPERM
 * (an exclusive session without root), -EBUSY (an exclusive session, the
 * buffer or a feature is taken), -ETIMEDOUT (an aborted session did not
 * end), or an error of the state directory (see vtrace_state_dir_open()).
 */
int vtrace_session_start(const struct vtrace_session_params *params,
			 struct vtrace_session **session,
			 struct vtrace_session_refused *refused)
{
	struct vtrace_session_info *live = NULL;
	int regfd, ret, *pidfds = NULL;
	struct vtrace_session *s;
	size_t nr = 0, i;

	memset(refused, 0, sizeof(*refused));
	snprintf(refused->name, sizeof(refused->name), "%s",
		 params->name ? params->name : "");
	refused->requested = params->exclusive_prio;
	if (params->name && *params->name &&
	    !vtrace_session_name_valid(params->name)) {
		refused->why = VTRACE_SESSION_BAD_NAME;
		return -EINVAL;
	}
	if (params->exclusive_prio && geteuid()) {
		refused->why = VTRACE_SESSION_NOT_ROOT;
		return -EPERM;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->dirfd = -1;
	s->lockfd = -1;
	ret = session_init(params, s);
	if (ret)
		goto err;
	snprintf(refused->name, sizeof(refused->name), "%s", s->info.name);

	ret = registry_lock(s->dirfd, LOCK_EX, true, &regfd);
	if (ret)
		goto err;
	ret = load_live(s->dirfd, true, &live, &nr);
	if (ret)
		goto unlock;
	if (!admissible(&s->info, live, nr, refused)) {
		ret = refused->why == VTRACE_SESSION_NAME_TAKEN ? -EEXIST :
								  -EBUSY;
		goto unlock;
	}
	ret = take_own_lock(s->dirfd, s->info.name, &s->lockfd);
	if (!ret)
		ret = entry_write(s->dirfd, &s->info);
	if (!ret && s->info.exclusive_prio && nr) {
		pidfds = malloc(nr * sizeof(*pidfds));
		if (!pidfds)
			ret = -ENOMEM;
		/* A recorder not proven to be one is never signalled. */
		for (i = 0; !ret && i < nr; i++)
			request_abort(s->dirfd, &live[i], &s->info, &pidfds[i]);
	}
	if (ret && s->lockfd >= 0)
		session_remove(s->dirfd, s->info.name);
unlock:
	registry_unlock(regfd);
	if (!ret && pidfds)
		ret = wait_victims(live, pidfds, nr,
				   params->abort_wait_ms ?:
					   VTRACE_SESSION_ABORT_WAIT_MS,
				   refused);
	for (i = 0; pidfds && i < nr; i++)
		if (pidfds[i] >= 0)
			close(pidfds[i]);
	free(pidfds);
	vtrace_sessions_free(live, nr);
	if (ret == -ETIMEDOUT) {
		vtrace_session_end(s);
		return ret;
	}
	if (ret)
		goto err;
	*session = s;
	return 0;
err:
	session_free(s);
	return ret;
}

/**
 * vtrace_session_claim - take single-tenant features for a running session
 * @s: the session
 * @features: &enum vtrace_session_feature bits
 * @refused: set to the holder on -EBUSY
 *
 * Return: 0, -EBUSY when another running session holds one of them, or
 * an error of the registry.
 */
int vtrace_session_claim(struct vtrace_session *s, unsigned int features,
			 struct vtrace_session_refused *refused)
{
	struct vtrace_session_info *live;
	unsigned int bit;
	int regfd, ret;
	size_t nr, i;

	memset(refused, 0, sizeof(*refused));
	snprintf(refused->name, sizeof(refused->name), "%s", s->info.name);
	ret = registry_lock(s->dirfd, LOCK_EX, true, &regfd);
	if (ret)
		return ret;
	ret = load_live(s->dirfd, true, &live, &nr);
	if (ret)
		goto out;
	for (i = 0; i < nr && !ret; i++) {
		bit = live[i].features & features;
		if (!strcmp(live[i].name, s->info.name) || !bit)
			continue;
		refuse(refused, VTRACE_SESSION_FEATURE_HELD, &live[i]);
		refused->feature = bit & -bit;
		ret = -EBUSY;
	}
	vtrace_sessions_free(live, nr);
	if (!ret) {
		s->info.features |= features;
		ret = entry_write(s->dirfd, &s->info);
	}
out:
	registry_unlock(regfd);
	return ret;
}

/**
 * vtrace_session_refused_free - release what a refusal holds
 * @refused: filled in by vtrace_session_start() or vtrace_session_claim()
 */
void vtrace_session_refused_free(struct vtrace_session_refused *refused)
{
	free(refused->holder_instance);
	refused->holder_instance = NULL;
}

/**
 * vtrace_session_feature_name - a single-tenant feature, for messages
 * @feature: one &enum vtrace_session_feature bit
 *
 * Return: the name of the setting, as a trace config calls it.
 */
const char *vtrace_session_feature_name(unsigned int feature)
{
	switch (feature) {
	case VTRACE_SESSION_CPUMASK:
		return "tracing_cpumask";
	case VTRACE_SESSION_TIDS:
		return "tids_to_trace";
	case VTRACE_SESSION_OPTIONS:
		return "tracefs_options";
	case VTRACE_SESSION_GLOBAL:
		return "the top level buffer's global settings";
	}
	return "?";
}

/**
 * vtrace_session_refused_str - the message of a refusal
 * @r: the refusal
 * @buf: where the message goes
 * @size: its size
 *
 * The messages of Perfetto's rules are Perfetto's own wording.
 *
 * Return: the length of the message, as snprintf().
 */
int vtrace_session_refused_str(const struct vtrace_session_refused *r,
			       char *buf, size_t size)
{
	switch (r->why) {
	case VTRACE_SESSION_BAD_NAME:
		return snprintf(
			buf, size,
			"bad session name '%s': 1 to %d letters, digits, '_', '-' and '.', not starting with '.'",
			r->name, VTRACE_SESSION_NAME_MAX);
	case VTRACE_SESSION_NAME_TAKEN:
		return snprintf(
			buf, size,
			"A trace with this unique session name (%s) already exists",
			r->name);
	case VTRACE_SESSION_NOT_ROOT:
		return snprintf(
			buf, size,
			"an exclusive session (exclusive_prio %u) may only be started by root",
			r->requested);
	case VTRACE_SESSION_EXCLUSIVE_ACTIVE:
		return snprintf(
			buf, size,
			"An exclusive session with priority %u >= requested priority %u is already active.",
			r->prio, r->requested);
	case VTRACE_SESSION_INSTANCE_BUSY:
		return snprintf(
			buf, size,
			"tracefs is busy: session %s (pid %d) is already recording %s%s; end it with 'vtrace stop %s'",
			r->holder, r->pid,
			r->holder_instance ? "instance " :
					     "the top level buffer",
			r->holder_instance ? r->holder_instance : "",
			r->holder);
	case VTRACE_SESSION_FEATURE_HELD:
		return snprintf(
			buf, size,
			"%s is held by session %s (pid %d): one session at a time may change it",
			vtrace_session_feature_name(r->feature), r->holder,
			r->pid);
	case VTRACE_SESSION_ABORT_TIMEOUT:
		return snprintf(
			buf, size,
			"session %s (pid %d), aborted for this exclusive session, is still finishing after %u s",
			r->holder, r->pid, r->waited_s);
	case VTRACE_SESSION_OK:
		break;
	}
	return snprintf(buf, size, "session %s may start", r->name);
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
	return entry_write(s->dirfd, &s->info);
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
	return entry_write(s->dirfd, &s->info);
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
	if (!registry_lock(s->dirfd, LOCK_EX, true, &regfd)) {
		session_remove(s->dirfd, s->info.name);
		registry_unlock(regfd);
	}
	session_free(s);
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
	ret = registry_lock(dirfd, LOCK_SH, false, &regfd);
	if (ret) {
		close(dirfd);
		return ret == -ENOENT ? 0 : ret;
	}
	ret = load_live(dirfd, false, list, nr);
	registry_unlock(regfd);
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
