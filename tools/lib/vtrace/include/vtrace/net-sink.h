/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Streaming a recording to a collector: the sink (sink.h) that sends it
 * to "trace-cmd listen" over trace-cmd's own protocol (tracecmd-msg.h),
 * where it becomes the listener's trace.HOST:PORT.dat.
 *
 *	vtrace_net_addr_parse("10.0.0.5:12345", &addr, &why);
 *	vtrace_net_sink_create(&opts, &sink, err, sizeof(err));  // connects
 *	(the recorder begins it, adds sub-buffers, finishes it)
 *	vtrace_net_sink_status(sink, &st);   // what reached the collector
 *
 * The connection is made and the listener checked when the sink is
 * created, before the recorder touches tracefs. Each CPU's sub-buffers
 * go to its own data connection without waiting (over TCP spliced from
 * the ring buffer on the splice reader path): one the connection
 * cannot take at once is dropped and counted (back-pressure), never
 * queued behind the kernel's buffer. When the collector goes away the
 * recording stops, or with a fallback file goes on into it.
 */
#ifndef _VTRACE_NET_SINK_H
#define _VTRACE_NET_SINK_H

#include <stdbool.h>
#include <stddef.h>

struct vtrace_sink;

/*
 * UDP data connections carry one sub-buffer per datagram, as trace-cmd's
 * listener reads them: a page, as "trace-cmd record -N" sends.
 */
#define VTRACE_NET_UDP_SUBBUF_SIZE 4096

/**
 * struct vtrace_net_addr - a collector's address
 * @host: host name or address (an IPv6 address without its brackets)
 * @port: port number, 1..65535, as text
 */
struct vtrace_net_addr {
	char host[256];
	char port[8];
};

/**
 * struct vtrace_net_opts - where and how to stream
 * @addr: the listener
 * @udp: per-CPU data over UDP (trace-cmd's default) instead of TCP
 * @fallback: a trace.dat file to go on recording into when the collector
 *	goes away; NULL: the recording stops then
 */
struct vtrace_net_opts {
	struct vtrace_net_addr addr;
	bool udp;
	const char *fallback;
};

/**
 * struct vtrace_net_status - what a stream did
 * @sent_bytes: bytes of sub-buffers the collector's connections took
 * @sent_subbufs: sub-buffers in them
 * @spliced_subbufs: those of them spliced from the ring buffer into the
 *	socket (TCP, splice reader path), never copied to user memory; the
 *	others were written from the readers' memory
 * @dropped_subbufs: sub-buffers dropped because a connection could not
 *	take them at once
 * @splice_err: the errno of the first splice into a socket that failed
 *	(that CPU's sub-buffers were written from then on), 0 if none
 * @splice_err_cpu: the CPU it failed on
 * @gone: the collector went away during the recording
 * @gone_reason: how it showed ("cpu1: Connection reset by peer"), "" if not
 * @fallback_bytes: bytes that went into the fallback file instead
 */
struct vtrace_net_status {
	unsigned long long sent_bytes;
	unsigned long long sent_subbufs;
	unsigned long long spliced_subbufs;
	unsigned long long dropped_subbufs;
	int splice_err;
	int splice_err_cpu;
	bool gone;
	const char *gone_reason;
	unsigned long long fallback_bytes;
};

int vtrace_net_addr_parse(const char *spec, struct vtrace_net_addr *addr,
			  const char **why);
int vtrace_net_sink_create(const struct vtrace_net_opts *opts,
			   struct vtrace_sink **out, char *err, size_t err_len);
void vtrace_net_sink_status(const struct vtrace_sink *sink,
			    struct vtrace_net_status *st);

#endif /* _VTRACE_NET_SINK_H */
