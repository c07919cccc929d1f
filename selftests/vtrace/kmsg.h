/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log, read from /dev/kmsg: what the module printed since a
 * point in time.  Functions return -errno on failure and print nothing.
 */
#ifndef VTRACE_KMSG_H
#define VTRACE_KMSG_H

int vt_kmsg_open_at_end(void);
int vt_kmsg_count(int fd, const char *text);

#endif /* VTRACE_KMSG_H */
