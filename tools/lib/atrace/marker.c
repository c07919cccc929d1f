// SPDX-License-Identifier: LGPL-2.1
/*
 * Writing markers: the lines atrace writes to trace_marker, one write(2)
 * each, formatted on the stack (no allocation, no lock).
 *
 * The descriptor written to is a number this library owns for the life of
 * the process. When the tag file names another buffer (its @seq changed),
 * the new trace_marker is dup'ed over that number, never closed and
 * reopened, so a marker racing the switch lands in the old buffer or the
 * new one, never in a file that happened to get the number.
 *
 * An open trace_marker of an instance keeps the instance from being
 * removed (EBUSY), and a process whose tags went off never writes again to
 * notice. So while the descriptor is an instance's, a thread waits for the
 * tag file to change (a futex on its @seq, woken by the writer) and
 * follows it, back to the top level when the recording ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <vtrace/atrace.h>

#include "atrace-local.h"

/* As libcutils: the longest line written; longer names are cut. */
#define ATRACE_MESSAGE_LENGTH 1024
#define TRACEFS_MAGIC 0x74726163

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

static pthread_mutex_t target_lock = PTHREAD_MUTEX_INITIALIZER;
/* The descriptor markers are written to, -1 until the first marker. */
static int marker_fd = -1;
/* The tag file's @seq that marker_fd follows; odd means "look again". */
static uint32_t marker_seq = 1;
static bool process_enabled = true;
/* marker_fd is an instance's, and the thread that follows the file runs. */
static bool target_is_instance;
static bool follower_running;
/* "|pid", formatted once per process. */
static char pid_text[16];
static size_t pid_len;

static void set_pid(int pid)
{
	int n = snprintf(pid_text, sizeof(pid_text), "|%d", pid);

	pid_len = n > 0 && (size_t)n < sizeof(pid_text) ? n : 0;
}

static void marker_forked(void);

static void register_fork_handler(void)
{
	pthread_atfork(NULL, NULL, marker_forked);
}

/*
 * Formats the pid again and looks for the buffer again; the first call
 * also has a fork() do that in the child.
 */
static void atrace_marker_reset(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, register_fork_handler);
	set_pid(getpid());
	__atomic_store_n(&marker_seq, 1, __ATOMIC_RELEASE);
}

#ifndef VTRACE_ATRACE_NO_CONSTRUCTOR
__attribute__((constructor)) static void marker_constructor(void)
{
	atrace_marker_reset();
}
#endif

/**
 * vtrace_atrace_set_pid - write another pid into this process's markers
 * @pid: the pid to write
 *
 * For a tool that marks on behalf of another process ("vtrace marker"
 * marks for the shell script that runs it). Call it before any thread
 * writes markers; a fork() sets the child's own pid again.
 */
void vtrace_atrace_set_pid(int pid)
{
	set_pid(pid);
}

static void start_follower_locked(void);

/*
 * The child's half of fork(): markers carry the child's own pid. A lock
 * held by another thread of the parent at the fork is not held in the
 * child, nor does the follower run.
 */
static void marker_forked(void)
{
	pthread_mutex_init(&target_lock, NULL);
	atrace_marker_reset();
	follower_running = false;
	if (target_is_instance)
		start_follower_locked();
}

static bool instance_name_ok(const char *name)
{
	size_t i;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (i = 0; name[i]; i++)
		if (name[i] == '/')
			return false;
	return true;
}

static int open_marker(const char *instance)
{
	char path[PATH_MAX];
	struct statfs sfs;
	size_t i;
	int fd;

	for (i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
		if (*instance)
			snprintf(path, sizeof(path),
				 "%s/instances/%s/trace_marker",
				 tracefs_dirs[i], instance);
		else
			snprintf(path, sizeof(path), "%s/trace_marker",
				 tracefs_dirs[i]);
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue;
		if (!fstatfs(fd, &sfs) && sfs.f_type == TRACEFS_MAGIC)
			return fd;
		close(fd);
	}
	return -1;
}

/* Follow the tag file to the buffer it names now. */
static void retarget(void)
{
	const struct vtrace_atrace_tagfile *tf = atrace_tagfile();
	char instance[VTRACE_ATRACE_INSTANCE_LEN];
	uint32_t seq;
	int fd;

	pthread_mutex_lock(&target_lock);
	seq = __atomic_load_n(&tf->seq, __ATOMIC_ACQUIRE);
	/* Odd: a writer is changing it; keep the old buffer this time. */
	if (seq == __atomic_load_n(&marker_seq, __ATOMIC_RELAXED) || seq & 1)
		goto out;
	memcpy(instance, tf->instance, sizeof(instance));
	instance[sizeof(instance) - 1] = '\0';
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&tf->seq, __ATOMIC_RELAXED) != seq)
		goto out;

	fd = instance_name_ok(instance) ? open_marker(instance) : -1;
	target_is_instance = fd >= 0 && *instance;
	/* Let go of the old buffer even when the new one cannot be opened. */
	if (fd < 0 && marker_fd >= 0)
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (marker_fd < 0) {
			__atomic_store_n(&marker_fd, fd, __ATOMIC_RELEASE);
		} else {
			dup3(fd, marker_fd, O_CLOEXEC);
			close(fd);
		}
	}
	__atomic_store_n(&marker_seq, seq, __ATOMIC_RELEASE);
	if (target_is_instance)
		start_follower_locked();
out:
	pthread_mutex_unlock(&target_lock);
}

/* Follow the tag file for as long as marker_fd is an instance's. */
static void *follow(void *arg)
{
	const struct vtrace_atrace_tagfile *tf = atrace_tagfile();
	struct timespec timeout = { 2, 0 };
	uint32_t seq, now;

	for (;;) {
		pthread_mutex_lock(&target_lock);
		if (!target_is_instance) {
			follower_running = false;
			pthread_mutex_unlock(&target_lock);
			return NULL;
		}
		seq = marker_seq;
		pthread_mutex_unlock(&target_lock);
		now = __atomic_load_n(&tf->seq, __ATOMIC_ACQUIRE);
		if (now == seq || now & 1)
			syscall(SYS_futex, &tf->seq, FUTEX_WAIT, now, &timeout,
				NULL, 0);
		retarget();
	}
}

static void start_follower_locked(void)
{
	if (!follower_running)
		follower_running = atrace_spawn(follow);
}

static int target_fd(void)
{
	const struct vtrace_atrace_tagfile *tf = atrace_tagfile();

	if (__builtin_expect(__atomic_load_n(&tf->seq, __ATOMIC_RELAXED) !=
				     __atomic_load_n(&marker_seq,
						     __ATOMIC_RELAXED),
			     0))
		retarget();
	return __atomic_load_n(&marker_fd, __ATOMIC_ACQUIRE);
}

/* Append @name, with what would break the line's syntax made '_'. */
static char *put_name(char *p, const char *end, const char *name)
{
	unsigned char c;

	if (!name)
		return p;
	while ((c = *name++) && p < end)
		*p++ = c == '|' || c < 0x20 || c == 0x7f ? '_' : c;
	return p;
}

static char *put_int(char *p, int64_t v)
{
	char digits[24];
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	int n = 0;

	do
		digits[n++] = '0' + u % 10;
	while (u /= 10);
	*p++ = '|';
	if (v < 0)
		*p++ = '-';
	while (n)
		*p++ = digits[--n];
	return p;
}

/*
 * "T|pid", then "|name" when @name is given, then "|value" when
 * @has_value: the formats of libcutils' trace-dev.
 */
static void emit(char type, const char *name, bool has_value, int64_t value)
{
	/* Room kept for "|-9223372036854775808". */
	char buf[ATRACE_MESSAGE_LENGTH], *p = buf;
	const char *name_end = buf + sizeof(buf) - 22;
	ssize_t ret;
	int fd;

	if (!__atomic_load_n(&process_enabled, __ATOMIC_RELAXED))
		return;
	fd = target_fd();
	if (fd < 0)
		return;
	*p++ = type;
	memcpy(p, pid_text, pid_len);
	p += pid_len;
	if (name) {
		*p++ = '|';
		p = put_name(p, name_end, name);
	}
	if (has_value)
		p = put_int(p, value);
	do
		ret = write(fd, buf, p - buf);
	while (ret < 0 && errno == EINTR);
}

/* A NULL name is the empty name (NULL to emit() means "no name part"). */
static const char *name_or_empty(const char *name)
{
	return name ? name : "";
}

void atrace_begin_body(const char *name)
{
	emit('B', name_or_empty(name), false, 0);
}

void atrace_end_body(void)
{
	emit('E', NULL, false, 0);
}

void atrace_async_begin_body(const char *name, int32_t cookie)
{
	emit('S', name_or_empty(name), true, cookie);
}

void atrace_async_end_body(const char *name, int32_t cookie)
{
	emit('F', name_or_empty(name), true, cookie);
}

void atrace_instant_body(const char *name)
{
	emit('I', name_or_empty(name), false, 0);
}

void atrace_int_body(const char *name, int32_t value)
{
	emit('C', name_or_empty(name), true, value);
}

void atrace_int64_body(const char *name, int64_t value)
{
	emit('C', name_or_empty(name), true, value);
}

/**
 * atrace_set_tracing_enabled - let this process write markers, or not
 * @enabled: false to write none (Android uses it in the zygote)
 *
 * atrace_is_tag_enabled() still reports the system's tags.
 */
void atrace_set_tracing_enabled(bool enabled)
{
	__atomic_store_n(&process_enabled, enabled, __ATOMIC_RELAXED);
}

/**
 * atrace_get_enabled_tags - the tags enabled now
 *
 * Return: ATRACE_TAG_* bits, 0 when none is (or this process was told not
 * to trace).
 */
uint64_t atrace_get_enabled_tags(void)
{
	if (!__atomic_load_n(&process_enabled, __ATOMIC_RELAXED))
		return 0;
	return atrace_is_tag_enabled(~0ULL);
}

/**
 * atrace_setup - map the tag file now
 *
 * The library does this when it is loaded (and waits for a tag file that
 * does not exist yet); calling it again looks for the file at once.
 */
void atrace_setup(void)
{
	atrace_tagfile_setup(false);
	atrace_marker_reset();
}

/**
 * atrace_init - as atrace_setup(), for code written for Android
 */
void atrace_init(void)
{
	atrace_setup();
}

/**
 * atrace_update_tags - as atrace_setup(), for code written for Android
 *
 * Android calls it when the property changes; here the tags are read
 * through the mapping, so it only matters before the tag file existed.
 */
void atrace_update_tags(void)
{
	atrace_setup();
}
