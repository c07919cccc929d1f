/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_printk() debug paths, compiled in only by "make VTRACE_DEBUG=1".
 *
 * A module that calls trace_printk() makes the kernel allocate its
 * trace_printk buffers and print a warning banner at load time, so the
 * default build must not contain a single call.  In the debug build each
 * call is gated at run time by a bit of the debug_mask module parameter.
 *
 * vtrace_dbg() logs a formatted message (an ftrace/bprint event);
 * vtrace_dbg_str() logs a string that is not a compile-time constant
 * verbatim (an ftrace/print event).
 */
#ifndef _VTRACE_DEBUG_H
#define _VTRACE_DEBUG_H

#include <linux/bits.h>
#include <linux/compiler_attributes.h>
#include <linux/kernel.h>

#define VTRACE_DBG_CONTROL	BIT(0)	/* emit and control files */
#define VTRACE_DBG_SIM		BIT(1)	/* simulator steps */
#define VTRACE_DBG_BURST	BIT(2)	/* burst threads */

#ifdef VTRACE_DEBUG

extern unsigned int vtrace_debug_mask;

#define vtrace_dbg(bit, fmt, ...)					\
	do {								\
		if (READ_ONCE(vtrace_debug_mask) & (bit))		\
			trace_printk(fmt, ##__VA_ARGS__);		\
	} while (0)

#define vtrace_dbg_str(bit, str)					\
	do {								\
		if (READ_ONCE(vtrace_debug_mask) & (bit))		\
			trace_puts(str);				\
	} while (0)

#else

/* Still type-checks the debug calls, and compiles to nothing. */
static inline __printf(2, 3) void vtrace_dbg(unsigned int bit,
					     const char *fmt, ...)
{
}

static inline void vtrace_dbg_str(unsigned int bit, const char *str)
{
}

#endif /* VTRACE_DEBUG */

#endif /* _VTRACE_DEBUG_H */
