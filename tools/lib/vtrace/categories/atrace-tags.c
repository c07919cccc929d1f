// SPDX-License-Identifier: LGPL-2.1
/*
 * The tag file's writer.
 *
 * The file is made complete under a temporary name and linked into place,
 * so a process waiting for it never maps a half-made one; once there it is
 * only ever changed in place (readers keep it mapped), under the state
 * directory's lock for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/futex.h>
#include <limits.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <vtrace/atrace-categories.h>
#include <vtrace/atrace-tags.h>
#include <vtrace/proc-ident.h>
#include <vtrace/state-dir.h>
#include <vtrace/state-lock.h>

/* ALWAYS is on whenever anything is recorded, as on Android. */
#define TAG_ALWAYS 1ULL

static int create_file(int dirfd)
{
	struct vtrace_atrace_tagfile head = {
		.version = VTRACE_ATRACE_TAGFILE_VERSION,
		.magic = VTRACE_ATRACE_TAGFILE_MAGIC,
	};
	char tmp[64];
	int fd, ret = 0;

	snprintf(tmp, sizeof(tmp), ".%s.%d", VTRACE_ATRACE_TAGFILE_NAME,
		 (int)getpid());
	unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp,
		    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/* 0644 whatever the umask: every process reads it. */
	if (fchmod(fd, 0644) || ftruncate(fd, VTRACE_ATRACE_TAGFILE_SIZE) ||
	    pwrite(fd, &head, sizeof(head), 0) != sizeof(head))
		ret = -errno;
	/* Another vtrace may have linked its own first: use that one. */
	if (!ret && linkat(dirfd, tmp, dirfd, VTRACE_ATRACE_TAGFILE_NAME, 0) &&
	    errno != EEXIST)
		ret = -errno;
	unlinkat(dirfd, tmp, 0);
	close(fd);
	return ret;
}

/*
 * Lock, open and map the tag file, making it when missing. The tag file
 * is readable by every process, so it is not its own lock.
 */
static int open_locked(bool create, const volatile sig_atomic_t *stop,
		       int *lockp, int *fdp, struct vtrace_atrace_tagfile **tfp)
{
	struct vtrace_atrace_tagfile *tf;
	int dirfd, fd, lock, ret;
	struct stat st;

	ret = vtrace_state_dir_open(create, &dirfd, NULL);
	if (ret)
		return ret;
	ret = vtrace_state_lock(dirfd, VTRACE_STATE_LOCK_ATRACE_TAGS, LOCK_EX,
				true, stop, &lock);
	if (ret) {
		close(dirfd);
		return ret;
	}
	fd = openat(dirfd, VTRACE_ATRACE_TAGFILE_NAME,
		    O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		ret = create_file(dirfd);
		if (!ret)
			fd = openat(dirfd, VTRACE_ATRACE_TAGFILE_NAME,
				    O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0 && !ret)
		ret = -errno;
	close(dirfd);
	if (ret)
		goto fail_unlock;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || st.st_size < VTRACE_ATRACE_TAGFILE_SIZE) {
		ret = -EINVAL;
		goto fail;
	}
	tf = mmap(NULL, VTRACE_ATRACE_TAGFILE_SIZE, PROT_READ | PROT_WRITE,
		  MAP_SHARED, fd, 0);
	if (tf == MAP_FAILED) {
		ret = -errno;
		goto fail;
	}
	if (tf->magic != VTRACE_ATRACE_TAGFILE_MAGIC ||
	    tf->version != VTRACE_ATRACE_TAGFILE_VERSION) {
		munmap(tf, VTRACE_ATRACE_TAGFILE_SIZE);
		ret = -EINVAL;
		goto fail;
	}
	*lockp = lock;
	*fdp = fd;
	*tfp = tf;
	return 0;
fail:
	close(fd);
fail_unlock:
	vtrace_state_unlock(lock);
	return ret;
}

/*
 * Publish the union of the holders' tags, and the buffer they agree on
 * (the top level when they name different ones, or when nothing is held).
 * The buffer is written first, between two increments of @seq, so that a
 * marker of a newly enabled tag already goes to the new buffer; processes
 * holding an instance's trace_marker wait on @seq (a futex) to let go of
 * it, so that the instance can be removed.
 */
static void publish(struct vtrace_atrace_tagfile *tf)
{
	const char *dest = NULL;
	uint64_t tags = 0;
	size_t i;

	for (i = 0; i < VTRACE_ATRACE_HOLDERS; i++) {
		const struct vtrace_atrace_holder *h = &tf->holders[i];

		if (!h->pid || !h->tags)
			continue;
		tags |= h->tags;
		if (!dest)
			dest = h->instance;
		else if (strcmp(dest, h->instance))
			dest = "";
	}
	if (!dest)
		dest = "";
	if (strcmp(dest, tf->instance)) {
		__atomic_store_n(&tf->seq, tf->seq + 1, __ATOMIC_RELEASE);
		memset(tf->instance, 0, sizeof(tf->instance));
		strcpy(tf->instance, dest);
		__atomic_store_n(&tf->seq, tf->seq + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&tf->tags, tags, __ATOMIC_RELEASE);
	syscall(SYS_futex, &tf->seq, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static void close_locked(int lock, int fd, struct vtrace_atrace_tagfile *tf)
{
	msync(tf, VTRACE_ATRACE_TAGFILE_SIZE, MS_ASYNC);
	munmap(tf, VTRACE_ATRACE_TAGFILE_SIZE);
	close(fd);
	vtrace_state_unlock(lock);
}

static struct vtrace_atrace_holder *find(struct vtrace_atrace_tagfile *tf,
					 pid_t pid, uint64_t start_time,
					 const char *instance)
{
	size_t i;

	for (i = 0; i < VTRACE_ATRACE_HOLDERS; i++) {
		struct vtrace_atrace_holder *h = &tf->holders[i];

		if (h->pid == pid && h->start_time == start_time &&
		    !strcmp(h->instance, instance))
			return h;
	}
	return NULL;
}

static bool holder_alive(const struct vtrace_atrace_holder *h)
{
	struct vtrace_proc_ident id;

	if (h->pid == VTRACE_ATRACE_HOLDER_ENABLE)
		return true;
	if (vtrace_proc_ident_read(h->pid, &id) == -ESRCH)
		return false;
	return id.start_time == h->start_time;
}

/* Drop holders of recordings that ended without releasing their tags. */
static unsigned int reap(struct vtrace_atrace_tagfile *tf)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < VTRACE_ATRACE_HOLDERS; i++) {
		struct vtrace_atrace_holder *h = &tf->holders[i];

		if (h->pid && !holder_alive(h)) {
			memset(h, 0, sizeof(*h));
			n++;
		}
	}
	return n;
}

/* How set_holder() changes a holder's tags. */
enum holder_op {
	HOLDER_SET, /* to @tags, 0 drops the holder */
	HOLDER_OR, /* add @tags and ALWAYS */
	HOLDER_CLEAR, /* remove @tags; ALWAYS goes with the last other tag */
};

static uint64_t new_tags(enum holder_op op, uint64_t old, uint64_t tags)
{
	switch (op) {
	case HOLDER_OR:
		return old | tags | TAG_ALWAYS;
	case HOLDER_CLEAR:
		old &= ~tags;
		return old == TAG_ALWAYS ? 0 : old;
	case HOLDER_SET:
		break;
	}
	return tags;
}

static int set_holder(const char *instance, pid_t pid, uint64_t start_time,
		      enum holder_op op, uint64_t tags,
		      const volatile sig_atomic_t *stop)
{
	bool add = op != HOLDER_CLEAR && tags;
	struct vtrace_atrace_holder *h;
	struct vtrace_atrace_tagfile *tf;
	int lock, fd, ret;

	if (!instance)
		instance = "";
	if (strlen(instance) >= VTRACE_ATRACE_INSTANCE_LEN)
		return -ENAMETOOLONG;
	ret = open_locked(add, stop, &lock, &fd, &tf);
	if (ret)
		return ret == -ENOENT && !add ? 0 : ret;
	h = find(tf, pid, start_time, instance);
	if (add && !h) {
		h = find(tf, 0, 0, "");
		if (!h && reap(tf))
			h = find(tf, 0, 0, "");
		if (!h) {
			ret = -ENOSPC;
			goto out;
		}
		h->pid = pid;
		h->start_time = start_time;
		strcpy(h->instance, instance);
		h->tags = 0;
	}
	if (h) {
		h->tags = new_tags(op, h->tags, tags);
		if (!h->tags)
			memset(h, 0, sizeof(*h));
	}
	publish(tf);
out:
	close_locked(lock, fd, tf);
	return ret;
}

static int self_start_time(uint64_t *start_time)
{
	struct vtrace_proc_ident id;
	int ret;

	ret = vtrace_proc_ident_read(0, &id);
	*start_time = id.start_time;
	return ret;
}

/**
 * vtrace_atrace_tags_of - the userspace tags of categories
 * @categories: category names
 * @nr: how many
 *
 * Return: the ATRACE_TAG_* bits of those that are standard atrace
 * categories (vendor categories and kernel-only ones add none).
 */
uint64_t vtrace_atrace_tags_of(char *const *categories, size_t nr)
{
	const struct vtrace_atrace_category *cat;
	uint64_t tags = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		cat = vtrace_atrace_category_find(categories[i]);
		if (cat)
			tags |= cat->tags;
	}
	return tags;
}

/**
 * vtrace_atrace_tags_hold - enable tags for as long as this process runs
 * @instance: the buffer recorded, NULL for the top level
 * @tags: ATRACE_TAG_* bits (%ATRACE_TAG_ALWAYS is added)
 * @stop: when not NULL, a flag that gives up the wait for the tag lock
 *	once it is non-zero: a stop signal that came as the wait began
 *
 * For a recording: release them with vtrace_atrace_tags_release(); if the
 * process dies first, vtrace_atrace_tags_reset() drops them.
 *
 * Return: 0, -ENOSPC when too many recordings hold tags, -EINTR when a
 * signal or @stop ended the wait for the lock, or a negative errno of the
 * state directory or the tag file.
 */
int vtrace_atrace_tags_hold(const char *instance, uint64_t tags,
			    const volatile sig_atomic_t *stop)
{
	uint64_t start_time;
	int ret;

	ret = self_start_time(&start_time);
	if (ret)
		return ret;
	return set_holder(instance, getpid(), start_time, HOLDER_SET,
			  tags | TAG_ALWAYS, stop);
}

/**
 * vtrace_atrace_tags_release - drop what vtrace_atrace_tags_hold() enabled
 * @instance: as given to it
 *
 * Return: 0 (also when nothing was held), or a negative errno.
 */
int vtrace_atrace_tags_release(const char *instance)
{
	uint64_t start_time;
	int ret;

	ret = self_start_time(&start_time);
	if (ret)
		return ret;
	return set_holder(instance, getpid(), start_time, HOLDER_SET, 0, NULL);
}

/**
 * vtrace_atrace_tags_enable - enable tags until they are disabled
 * @instance: the buffer the markers go to, NULL for the top level
 * @tags: ATRACE_TAG_* bits, added to those enabled before
 *
 * Return: 0, or a negative errno of the state directory or the tag file.
 */
int vtrace_atrace_tags_enable(const char *instance, uint64_t tags)
{
	if (!tags)
		return 0;
	return set_holder(instance, VTRACE_ATRACE_HOLDER_ENABLE, 0, HOLDER_OR,
			  tags, NULL);
}

/**
 * vtrace_atrace_tags_disable - disable tags that were enabled
 * @instance: as given to vtrace_atrace_tags_enable()
 * @tags: ATRACE_TAG_* bits, ~0 for all; recordings keep theirs
 *
 * Return: 0, or a negative errno of the state directory or the tag file.
 */
int vtrace_atrace_tags_disable(const char *instance, uint64_t tags)
{
	return set_holder(instance, VTRACE_ATRACE_HOLDER_ENABLE, 0,
			  HOLDER_CLEAR, tags, NULL);
}

/**
 * vtrace_atrace_tags_reset - drop the tags of recordings that died
 * @dropped: set to how many recordings' tags were dropped
 *
 * A recording is dead when no process has its pid and start time. What
 * live recordings and "vtrace enable" hold stays.
 *
 * Return: 0 (also when there is no tag file), or a negative errno.
 */
int vtrace_atrace_tags_reset(unsigned int *dropped)
{
	struct vtrace_atrace_tagfile *tf;
	int lock, fd, ret;

	*dropped = 0;
	ret = open_locked(false, NULL, &lock, &fd, &tf);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	*dropped = reap(tf);
	publish(tf);
	close_locked(lock, fd, tf);
	return 0;
}

/**
 * vtrace_atrace_tags_read - a copy of the tag file
 * @copy: filled in
 *
 * Return: 0, -ENOENT when no tag file exists yet, or another negative
 * errno.
 */
int vtrace_atrace_tags_read(struct vtrace_atrace_tagfile *copy)
{
	int fd, ret;

	ret = vtrace_state_file_open(VTRACE_ATRACE_TAGFILE_NAME, O_RDONLY, 0,
				     &fd);
	if (ret)
		return ret;
	ret = pread(fd, copy, sizeof(*copy), 0) == sizeof(*copy) ? 0 : -EINVAL;
	if (!ret && (copy->magic != VTRACE_ATRACE_TAGFILE_MAGIC ||
		     copy->version != VTRACE_ATRACE_TAGFILE_VERSION))
		ret = -EINVAL;
	close(fd);
	return ret;
}
