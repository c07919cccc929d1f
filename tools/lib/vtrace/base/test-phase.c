// SPDX-License-Identifier: LGPL-2.1
/*
 * Stopping points of a test build (see test-phase.h).
 */
#ifdef VTRACE_TEST_PHASES
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/test-phase.h"

/**
 * vt_test_phase - stop here when $VTRACE_STOP_AT names @phase
 * @phase: the point reached ("setup", "streaming", "drain", "layout",
 *	"layout-step", "layout-moved", "layout-header")
 *
 * Stops the whole process once, the first time @phase is reached: the
 * test waits for the stop (ps state T), then kills it.
 */
void vt_test_phase(const char *phase)
{
	static atomic_bool stopped;
	const char *want = getenv(VTRACE_STOP_AT_ENV);

	if (want && !strcmp(want, phase) && !atomic_exchange(&stopped, true))
		raise(SIGSTOP);
}
#endif
