/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Named points of a recording (set-up, streaming, final drain, layout of
 * the file, and inside the layout step: after its first move's step,
 * after the first CPU's run is in place, after the header's remainder)
 * where a test build of vtrace stops itself with SIGSTOP when
 * $VTRACE_STOP_AT names the point, so that a test can SIGKILL it exactly
 * there instead of guessing with sleeps. Compiled in only with
 * -DVTRACE_TEST_PHASES (selftests/vtrace_tool builds vtrace_phases so);
 * the installed vtrace has none.
 */
#ifndef _VTRACE_TEST_PHASE_H
#define _VTRACE_TEST_PHASE_H

#define VTRACE_STOP_AT_ENV "VTRACE_STOP_AT"

#ifdef VTRACE_TEST_PHASES
void vt_test_phase(const char *phase);
#else
static inline void vt_test_phase(const char *phase)
{
}
#endif

#endif /* _VTRACE_TEST_PHASE_H */
