// SPDX-License-Identifier: LGPL-2.1
/*
 * Mapping vtrace's tag file.
 *
 * The enabled tags are the first word of vtrace_atrace_tags_page, a
 * page-aligned block of this library's zeroed data, so that testing a tag
 * is one load of a global. Once the tag file is found, its first page is
 * mapped read-only over that block (MAP_FIXED): from then on the load reads
 * what vtrace writes, with nothing to poll.
 *
 * A process may start before any vtrace command made the file (at boot,
 * before the first recording). Then a thread waits for the file to appear
 * (inotify on the state directory, or a slow poll while even that is
 * missing), maps it and exits, so that later recordings see the process's
 * markers as Android's processes see later changes of the property.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/state-dir.h>
#include <vtrace/atrace.h>

#include "atrace-local.h"

/*
 * Here, with the constructor that maps it: a static link that reads the
 * tags brings the mapping in.
 */
uint64_t vtrace_atrace_tags_page[VTRACE_ATRACE_PAGE_MAX / sizeof(uint64_t)]
	__attribute__((aligned(VTRACE_ATRACE_PAGE_MAX)));

static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static bool mapped;
static bool watching;

static bool trusted(const struct stat *st)
{
	return S_ISREG(st->st_mode) &&
	       (st->st_uid == 0 || st->st_uid == geteuid()) &&
	       !(st->st_mode & 0022) &&
	       st->st_size >= VTRACE_ATRACE_TAGFILE_SIZE;
}

static int map_locked(void)
{
	struct vtrace_atrace_tagfile head;
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	void *p;
	int fd, ret;

	if (mapped)
		return 0;
	/*
	 * The block must be exactly ours: a copy of it relocated into a
	 * non-PIE executable need not be page aligned.
	 */
	if (page <= 0 || page > VTRACE_ATRACE_PAGE_MAX ||
	    (uintptr_t)vtrace_atrace_tags_page % page)
		return -EINVAL;
	ret = vtrace_state_file_open(VTRACE_ATRACE_TAGFILE_NAME, O_RDONLY, 0,
				     &fd);
	if (ret)
		return ret;
	if (fstat(fd, &st) || !trusted(&st) ||
	    pread(fd, &head, sizeof(head), 0) != sizeof(head) ||
	    head.magic != VTRACE_ATRACE_TAGFILE_MAGIC ||
	    head.version != VTRACE_ATRACE_TAGFILE_VERSION) {
		close(fd);
		return -EINVAL;
	}
	p = mmap(vtrace_atrace_tags_page, page, PROT_READ,
		 MAP_SHARED | MAP_FIXED, fd, 0);
	ret = p == MAP_FAILED ? -errno : 0;
	close(fd);
	if (!ret)
		__atomic_store_n(&mapped, true, __ATOMIC_RELEASE);
	return ret;
}

/**
 * atrace_tagfile_map - map the tag file if it exists and is vtrace's
 *
 * Return: 0 when it is mapped (now or before), -ENOENT when it (or the
 * state directory) does not exist yet, another negative errno when it
 * cannot be used.
 */
int atrace_tagfile_map(void)
{
	int ret;

	if (__atomic_load_n(&mapped, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&map_lock);
	ret = map_locked();
	pthread_mutex_unlock(&map_lock);
	return ret;
}

/* Block until the state directory changes, or a second passed. */
static void wait_for_change(void)
{
	char events[sizeof(struct inotify_event) + 256];
	int fd;

	fd = inotify_init1(IN_CLOEXEC);
	if (fd >= 0 && inotify_add_watch(fd, vtrace_state_dir(),
					 IN_CREATE | IN_MOVED_TO) >= 0) {
		/* It may have appeared before the watch was set. */
		if (atrace_tagfile_map() != -ENOENT) {
			close(fd);
			return;
		}
		if (read(fd, events, sizeof(events)) < 0)
			sleep(1);
	} else {
		sleep(1);
	}
	if (fd >= 0)
		close(fd);
}

static void *watch(void *arg)
{
	while (atrace_tagfile_map() == -ENOENT)
		wait_for_change();
	pthread_mutex_lock(&map_lock);
	watching = false;
	pthread_mutex_unlock(&map_lock);
	return NULL;
}

static void start_watch_locked(void)
{
	if (!watching)
		watching = atrace_spawn(watch);
}

static void before_fork(void)
{
	pthread_mutex_lock(&map_lock);
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&map_lock);
}

/* The mapping is inherited; the watching thread is not. */
static void after_fork_child(void)
{
	bool rewatch = watching;

	watching = false;
	if (rewatch && !mapped)
		start_watch_locked();
	pthread_mutex_unlock(&map_lock);
}

static void register_fork_handlers(void)
{
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

/**
 * atrace_tagfile_setup - map the tag file, or wait for it
 * @watch_for_file: when there is none yet, a thread maps it once it
 *	appears
 */
void atrace_tagfile_setup(bool watch_for_file)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	int ret;

	pthread_once(&once, register_fork_handlers);
	pthread_mutex_lock(&map_lock);
	ret = map_locked();
	if (ret == -ENOENT && watch_for_file)
		start_watch_locked();
	pthread_mutex_unlock(&map_lock);
}

#ifndef VTRACE_ATRACE_NO_CONSTRUCTOR
__attribute__((constructor)) static void atrace_constructor(void)
{
	atrace_tagfile_setup(true);
}
#endif
