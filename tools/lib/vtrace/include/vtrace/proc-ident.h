/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Which process a pid names, in a form pid reuse cannot fake: the pid
 * together with the process's start time, its executable and the boot.
 * A pidfd opened and then checked against it refers to that very
 * process, so a signal sent through it reaches that process or nobody.
 */
#ifndef _VTRACE_PROC_IDENT_H
#define _VTRACE_PROC_IDENT_H

#include <stdbool.h>
#include <sys/types.h>

#define VTRACE_BOOT_ID_LEN 36

/**
 * struct vtrace_proc_ident - a process, told apart from any later one
 * @pid: its pid
 * @start_time: when it started, in clock ticks after boot (field 22 of
 *	/proc/PID/stat)
 * @exe_dev: device of its executable (/proc/PID/exe)
 * @exe_ino: inode of its executable
 * @boot_id: /proc/sys/kernel/random/boot_id of the boot it ran in
 */
struct vtrace_proc_ident {
	pid_t pid;
	unsigned long long start_time;
	unsigned long long exe_dev;
	unsigned long long exe_ino;
	char boot_id[VTRACE_BOOT_ID_LEN + 1];
};

int vtrace_proc_ident_read(pid_t pid, struct vtrace_proc_ident *id);
bool vtrace_proc_ident_equal(const struct vtrace_proc_ident *a,
			     const struct vtrace_proc_ident *b);
int vtrace_proc_pidfd_open(const struct vtrace_proc_ident *id, int *pidfd);
int vtrace_proc_pidfd_signal(int pidfd, int sig);

#endif /* _VTRACE_PROC_IDENT_H */
