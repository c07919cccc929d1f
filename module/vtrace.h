/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtrace.ko internals: each event source owns a debugfs directory under
 * /sys/kernel/debug/vtrace/ and is set up and torn down by core.c.
 */
#ifndef _VTRACE_H
#define _VTRACE_H

#include <linux/dcache.h>
#include <linux/types.h>

/* Longest accepted emit command, without its optional trailing newline. */
#define VTRACE_EMIT_MAX_LEN	255

/* mali_pm_status event_id of every burst event, outside the core types. */
#define VTRACE_BURST_EVENT_ID	0x10000

void vtrace_emit_init(struct dentry *root);
bool vtrace_tmu_name_valid(const char *name);

/* Simulated thermal zones: big, mid and little CPU clusters, and the GPU. */
#define VTRACE_SIM_NR_TMUS	4
/* Longest TMU name that emit commands and the device tree may give. */
#define VTRACE_TMU_NAME_MAX_LEN	15

int vtrace_sim_init(struct dentry *root);
void vtrace_sim_exit(void);
void vtrace_sim_set_tmu_names(const char *const *names);

int vtrace_of_init(void);
void vtrace_of_exit(void);

void vtrace_burst_init(struct dentry *root);
void vtrace_burst_exit(void);

#endif /* _VTRACE_H */
