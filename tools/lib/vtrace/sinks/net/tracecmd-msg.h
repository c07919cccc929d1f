/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The client side of trace-cmd's network protocol (version 3), as
 * "trace-cmd listen" speaks it, for streaming a recording to a collector.
 *
 * Why this exists: libtracecmd exports tracecmd_msg_*(), but Debian's
 * libtracecmd-dev does not declare them (they are trace-cmd's private
 * API), and their handle is an opaque struct of trace-cmd's. This unit
 * speaks the protocol from its facts; names are vtrace_tcmsg_* so that
 * they never clash with libtracecmd's own symbols in one program.
 *
 * A session, on one TCP connection to the listener:
 *
 *	vt_tcmsg_greeting(c, &err);      // "tracecmd": it is a listener
 *	  (the listener waits for the version without a time limit)
 *	vt_tcmsg_agree_v3(c, &err);      // "-1V3", "V3", magic, "OK"
 *	vt_tcmsg_init(c, cpus, page_size, tcp, ports, &err);  // TINIT/RINIT
 *	vt_tcmsg_send_data(c, metadata, len, &err);  // the trace.dat header
 *	vt_tcmsg_fin_data(c, &err);      // ... ends it
 *	  (per-CPU data on connections to ports[cpu], raw sub-buffers)
 *	vt_tcmsg_close(c, ms, &err);     // the listener assembles the file
 *
 * Every wait has a deadline: VTRACE_TCMSG_TIMEOUT_MS for each answer and
 * for room in the socket, the caller's for the close. A stop request
 * (@c's cancel_fd readable) ends any wait but the close's, which a
 * stopping recording still needs.
 *
 * Functions return 0 or a negative errno and never print; what went
 * wrong is written to @err.
 */
#ifndef _VTRACE_TRACECMD_MSG_H
#define _VTRACE_TRACECMD_MSG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * How long the client waits for each answer of the listener; the
 * listener itself gives up after 5 s between two messages, from the
 * version agreement on.
 */
#define VTRACE_TCMSG_TIMEOUT_MS 5000

/**
 * struct vt_tcmsg_conn - the control connection
 * @fd: the TCP socket to the listener
 * @cancel_fd: readable once the recording is asked to stop (never read
 *	here), or -1
 */
struct vt_tcmsg_conn {
	int fd;
	int cancel_fd;
};

/**
 * struct vtrace_tcmsg_err - the text of a failure
 * @text: "what: why", or "" while nothing failed
 */
struct vtrace_tcmsg_err {
	char text[256];
};

int vt_tcmsg_greeting(const struct vt_tcmsg_conn *c,
		      struct vtrace_tcmsg_err *err);
int vt_tcmsg_agree_v3(const struct vt_tcmsg_conn *c,
		      struct vtrace_tcmsg_err *err);
int vt_tcmsg_init(const struct vt_tcmsg_conn *c, int cpus,
		  unsigned int page_size, bool tcp, unsigned int *ports,
		  struct vtrace_tcmsg_err *err);
int vt_tcmsg_send_data(const struct vt_tcmsg_conn *c, const void *data,
		       size_t len, struct vtrace_tcmsg_err *err);
int vt_tcmsg_fin_data(const struct vt_tcmsg_conn *c,
		      struct vtrace_tcmsg_err *err);
int vt_tcmsg_close(const struct vt_tcmsg_conn *c, int timeout_ms,
		   struct vtrace_tcmsg_err *err);

#endif /* _VTRACE_TRACECMD_MSG_H */
