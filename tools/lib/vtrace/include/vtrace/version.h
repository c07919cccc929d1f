/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The one version string of vtrace: what --version prints and what the
 * files it writes name as their writer.
 */
#ifndef _VTRACE_VERSION_H
#define _VTRACE_VERSION_H

#define VTRACE_VERSION "0.1"

#endif /* _VTRACE_VERSION_H */
