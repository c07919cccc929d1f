// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_cpu_data_test - the trace.dat writer's per-CPU store when the
 * disk fills up while a batch of sub-buffers is spliced into it.
 *
 * A tmpfs of the test's own, in a mount namespace of its own (root), is
 * filled up to a known number of free pages; a pipe holding a batch of
 * numbered pages is spliced into the store. The whole pages the disk took
 * must be stored and counted, the others handed back in the spill buffer
 * at their offsets in the batch, and the pipe left empty.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sinks/tracedat/tracedat-cpu-data.h"

#include "../kselftest_harness.h"

#define PAGE 4096
#define BATCH 8
#define CPU 1

FIXTURE(disk)
{
	char dir[PATH_MAX];
	char path[PATH_MAX + 16];
	char fill[PATH_MAX + 16];
	bool mounted;
	int fd;
	int pipe[2];
	struct vt_cpu_data *d;
	struct vt_tracedat_err err;
	char spill[BATCH * PAGE];
};

/* How many pages the disk has room for when the batch comes. */
FIXTURE_VARIANT(disk)
{
	int room;
};

FIXTURE_VARIANT_ADD(disk, part_of_the_batch) {
	.room = 5,
};

FIXTURE_VARIANT_ADD(disk, none_of_it) {
	.room = 0,
};

FIXTURE_VARIANT_ADD(disk, all_of_it) {
	.room = BATCH,
};

/* Fills the file system of @path until it has exactly @room pages left. */
static int leave_room(const char *path, int room)
{
	static const char zero[PAGE];
	off_t size = 0;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (write(fd, zero, PAGE) == PAGE)
		size += PAGE;
	if (errno != ENOSPC || size < (off_t)room * PAGE ||
	    ftruncate(fd, size - (off_t)room * PAGE))
		ret = -EIO;
	close(fd);
	return ret;
}

FIXTURE_SETUP(disk)
{
	char page[PAGE];
	int i;

	self->fd = -1;
	self->pipe[0] = -1;
	self->pipe[1] = -1;
	pthread_mutex_init(&self->err.lock, NULL);
	if (unshare(CLONE_NEWNS))
		SKIP(return, "needs root: a mount namespace of its own");
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	snprintf(self->dir, sizeof(self->dir), "%s/vtrace-cpu-data.XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, mount("vtrace_test", self->dir, "tmpfs", 0,
			   "size=4m,huge=never"));
	self->mounted = true;
	snprintf(self->path, sizeof(self->path), "%s/out.dat", self->dir);
	snprintf(self->fill, sizeof(self->fill), "%s/fill", self->dir);
	self->fd =
		open(self->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, vt_cpu_data_open(&self->d, self->fd, self->path, 0, 2,
				      PAGE, &self->err));
	ASSERT_EQ(0, leave_room(self->fill, variant->room));

	ASSERT_EQ(0, pipe2(self->pipe, O_CLOEXEC));
	for (i = 0; i < BATCH; i++) {
		memset(page, 'a' + i, sizeof(page));
		ASSERT_EQ(PAGE, write(self->pipe[1], page, PAGE));
	}
}

FIXTURE_TEARDOWN(disk)
{
	if (self->d)
		vt_cpu_data_close(self->d, true);
	if (self->fd >= 0)
		close(self->fd);
	if (self->pipe[0] >= 0) {
		close(self->pipe[0]);
		close(self->pipe[1]);
	}
	if (self->mounted)
		umount(self->dir);
	if (*self->dir)
		rmdir(self->dir);
}

/* Page @i of the batch, as it went into the pipe. */
static bool is_page(const char *p, int i)
{
	int off;

	for (off = 0; off < PAGE; off++)
		if (p[off] != 'a' + i)
			return false;
	return true;
}

TEST_F(disk, whole_pages_the_disk_took_are_stored)
{
	size_t stored = SIZE_MAX;
	unsigned long long share;
	int left = -1, i, ret, kept = variant->room;
	char page[PAGE];
	off_t start;

	ret = vt_cpu_data_splice(self->d, CPU, self->pipe[0], BATCH * PAGE,
				 self->spill, &stored);
	if (kept >= BATCH) {
		EXPECT_EQ(0, ret);
		kept = BATCH;
	} else {
		EXPECT_EQ(-ENOSPC, ret);
		EXPECT_EQ((size_t)kept * PAGE, stored);
		EXPECT_NE(NULL,
			  strstr(self->err.text, "No space left on device"));
	}
	EXPECT_EQ((unsigned long long)kept * PAGE,
		  vt_cpu_data_bytes(self->d, CPU));
	EXPECT_EQ(0, vt_cpu_data_bytes(self->d, 0));
	EXPECT_EQ(0, ioctl(self->pipe[0], FIONREAD, &left));
	EXPECT_EQ(0, left);
	/* The ones not stored, each at its offset in the batch. */
	for (i = kept; i < BATCH; i++)
		EXPECT_TRUE(is_page(self->spill + i * PAGE, i));
	/* The stored ones, in the CPU's run. */
	vt_cpu_data_layout(self->d, &start, &share);
	/* tmpfs punches holes: the runs are in the output itself. */
	ASSERT_NE(0, share);
	for (i = 0; i < kept; i++) {
		ASSERT_EQ(PAGE, pread(self->fd, page, PAGE,
				      start + CPU * share + i * PAGE));
		EXPECT_TRUE(is_page(page, i));
	}
}

TEST_HARNESS_MAIN
