// SPDX-License-Identifier: LGPL-2.1
/*
 * The collector sink (net-sink.h): a recording streamed to
 * "trace-cmd listen". The control connection carries the handshake and
 * the trace.dat metadata (vtrace_tracedat_head()); each CPU's raw
 * sub-buffers go over that CPU's data connection, which the listener
 * stores as is and appends to the metadata when the session closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <vtrace/net-sink.h>
#include <vtrace/sink.h>

#include <vtrace/file-io.h>
#include "sinks/net/tracecmd-msg.h"
#include <vtrace/tracedat-writer.h>

/* Connecting, and a blocked data connection's tail at the end. */
#define CONNECT_TIMEOUT_MS 5000
#define FLUSH_TIMEOUT_MS 5000
/* The listener waits about 2 s for its readers before it writes the file. */
#define CLOSE_TIMEOUT_MS 30000
/* A data port refusing a connection while the listener sets it up. */
#define DATA_CONNECT_TRIES 200
#define DATA_CONNECT_RETRY_US 10000

/**
 * struct net_cpu - one CPU's data connection
 * @fd: the socket, non-blocking
 * @pending: the unsent end of a sub-buffer a TCP connection took in part
 * @pending_len: bytes of it still to send
 * @sent_bytes: bytes of sub-buffers the connection took
 * @sent_subbufs: sub-buffers in them
 * @spliced_subbufs: those of them spliced from the reader's pipe
 * @dropped_subbufs: sub-buffers it could not take at once
 * @splice_err: the errno of a splice into the socket that failed, after
 *	which this CPU's sub-buffers are written instead; 0 if none did
 */
struct net_cpu {
	int fd;
	char *pending;
	size_t pending_len;
	unsigned long long sent_bytes;
	unsigned long long sent_subbufs;
	unsigned long long spliced_subbufs;
	unsigned long long dropped_subbufs;
	int splice_err;
};

/**
 * struct net_sink - a stream to one listener
 * @opts: where, how; @opts.fallback is @fallback_path
 * @fallback_path: the fallback file, or NULL
 * @ctl: the control connection
 * @cpus: each CPU's data connection
 * @nr_cpus: entries in @cpus
 * @info: the recording, kept for beginning the fallback
 * @gone: the collector went away; sub-buffers go to @fallback, if any
 * @lock: guards @gone_reason and @fallback while @gone is being set
 * @gone_reason: how it went away
 * @fallback: the fallback sink, once begun
 * @fallback_bytes: bytes added to @fallback
 * @err: the text of the last failure
 */
struct net_sink {
	struct vtrace_net_opts opts;
	char *fallback_path;
	struct vt_tcmsg_conn ctl;
	struct net_cpu *cpus;
	int nr_cpus;
	struct vtrace_sink_info info;
	atomic_bool gone;
	pthread_mutex_t lock;
	char gone_reason[256];
	struct vtrace_sink *fallback;
	atomic_ullong fallback_bytes;
	char err[512];
};

static struct net_sink *priv_of(const struct vtrace_sink *sink)
{
	return sink->priv;
}

/**
 * vtrace_net_addr_parse - read a collector's HOST:PORT
 * @spec: "HOST:PORT", "[IPV6]:PORT"
 * @addr: filled in
 * @why: set to what is wrong with @spec, for the message
 *
 * Return: 0, or -EINVAL.
 */
int vtrace_net_addr_parse(const char *spec, struct vtrace_net_addr *addr,
			  const char **why)
{
	const char *colon, *host = spec, *end;
	size_t host_len;
	unsigned long port;
	char *stop;

	*why = NULL;
	if (spec[0] == '[') {
		end = strchr(spec, ']');
		if (!end || end[1] != ':') {
			*why = "an IPv6 address is written [ADDRESS]:PORT";
			return -EINVAL;
		}
		host = spec + 1;
		host_len = end - host;
		colon = end + 1;
	} else {
		colon = strrchr(spec, ':');
		if (!colon) {
			*why = "it must be HOST:PORT";
			return -EINVAL;
		}
		if (memchr(spec, ':', colon - spec)) {
			*why = "an IPv6 address is written [ADDRESS]:PORT";
			return -EINVAL;
		}
		host_len = colon - spec;
	}
	if (!host_len || host_len >= sizeof(addr->host)) {
		*why = host_len ? "the host name is too long" : "no host";
		return -EINVAL;
	}
	errno = 0;
	port = strtoul(colon + 1, &stop, 10);
	if (!colon[1] || *stop || errno || colon[1] == '-' || colon[1] == '+' ||
	    !port || port > 65535) {
		*why = "PORT must be a number from 1 to 65535";
		return -EINVAL;
	}
	memcpy(addr->host, host, host_len);
	addr->host[host_len] = '\0';
	snprintf(addr->port, sizeof(addr->port), "%lu", port);
	return 0;
}

static int set_err(struct net_sink *ns, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_err(struct net_sink *ns, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ns->err, sizeof(ns->err), fmt, ap);
	va_end(ap);
	return ret;
}

/* A connect() that gives up after CONNECT_TIMEOUT_MS; the socket blocks. */
static int connect_timed(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	int flags = fcntl(fd, F_GETFL), soerr = 0, ret;
	socklen_t soerr_len = sizeof(soerr);

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -errno;
	ret = connect(fd, sa, len);
	if (ret < 0 && errno != EINPROGRESS)
		return -errno;
	if (ret < 0) {
		do
			ret = poll(&pfd, 1, CONNECT_TIMEOUT_MS);
		while (ret < 0 && errno == EINTR);
		if (ret <= 0)
			return ret ? -errno : -ETIMEDOUT;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &soerr_len))
			return -errno;
		if (soerr)
			return -soerr;
	}
	return fcntl(fd, F_SETFL, flags) < 0 ? -errno : 0;
}

/* A socket connected to @host:@port, or a negative errno (*gai: why). */
static int dial(const char *host, const char *port, int type, int *gai)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = type };
	struct addrinfo *res, *ai;
	int fd = -1, ret;

	*gai = getaddrinfo(host, port, &hints, &res);
	if (*gai)
		return -EHOSTUNREACH;
	ret = -EHOSTUNREACH;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			ret = -errno;
			continue;
		}
		ret = connect_timed(fd, ai->ai_addr, ai->ai_addrlen);
		if (!ret)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd >= 0 ? fd : ret;
}

/* The address is the caller's to say (-N names it): @what is the port's. */
static int dial_err(struct net_sink *ns, int ret, int gai, const char *what,
		    const char *port)
{
	const char *why = gai ? gai_strerror(gai) : strerror(-ret);

	return set_err(ns, ret, "cannot connect to %s%s: %s", what, port, why);
}

static void close_data(struct net_sink *ns)
{
	int cpu;

	for (cpu = 0; ns->cpus && cpu < ns->nr_cpus; cpu++) {
		if (ns->cpus[cpu].fd >= 0)
			close(ns->cpus[cpu].fd);
		ns->cpus[cpu].fd = -1;
		free(ns->cpus[cpu].pending);
		ns->cpus[cpu].pending = NULL;
	}
}

/* Connect each CPU's data connection to the port the listener gave it. */
static int open_data(struct net_sink *ns, const unsigned int *ports)
{
	int type = ns->opts.udp ? SOCK_DGRAM : SOCK_STREAM;
	char port[8];
	int cpu, fd, gai, tries;

	for (cpu = 0; cpu < ns->nr_cpus; cpu++) {
		snprintf(port, sizeof(port), "%u", ports[cpu]);
		/*
		 * trace-cmd's listener binds each port before it sends the
		 * list, but starts listening on it in a child of its own a
		 * moment later.
		 */
		for (tries = 0;; tries++) {
			fd = dial(ns->opts.addr.host, port, type, &gai);
			if (fd != -ECONNREFUSED || tries == DATA_CONNECT_TRIES)
				break;
			usleep(DATA_CONNECT_RETRY_US);
		}
		if (fd < 0)
			return dial_err(ns, fd, gai, "its data port ", port);
		ns->cpus[cpu].fd = fd;
		if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0)
			return set_err(ns, -errno, "data connection: %s",
				       strerror(errno));
		ns->cpus[cpu].pending = malloc(ns->info.subbuf_size);
		if (!ns->cpus[cpu].pending)
			return -ENOMEM;
	}
	return 0;
}

/* The trace.dat metadata, on the control connection. */
/*
 * The metadata is made before the version is agreed: from then on the
 * listener allows 5 s between messages, and reading every event's format
 * and kallsyms can take longer than that on a slow board.
 */
static int make_head(struct net_sink *ns, char **head, size_t *len)
{
	struct vt_tracedat_opts o = {
		.instance = ns->info.instance,
		.ncpus = ns->nr_cpus,
		.page_size = ns->info.subbuf_size,
	};
	char text[256];
	int ret;

	ret = vtrace_tracedat_head(&o, head, len, text, sizeof(text));
	if (ret)
		return set_err(ns, ret, "%s", text);
	return 0;
}

static int send_head(struct net_sink *ns, const char *head, size_t len)
{
	struct vtrace_tcmsg_err err = { 0 };
	int ret;

	ret = vt_tcmsg_send_data(&ns->ctl, head, len, &err);
	if (!ret)
		ret = vt_tcmsg_fin_data(&ns->ctl, &err);
	if (ret)
		return set_err(ns, ret, "%s", err.text);
	return 0;
}

static int net_begin(struct vtrace_sink *sink,
		     const struct vtrace_sink_info *info)
{
	struct net_sink *ns = priv_of(sink);
	struct vtrace_tcmsg_err err = { 0 };
	unsigned int *ports;
	char *head;
	size_t len;
	int cpu, ret;

	if (sink->max_subbuf_size && info->subbuf_size > sink->max_subbuf_size)
		return set_err(
			ns, -EMSGSIZE,
			"%zu-byte sub-buffers do not fit in a UDP datagram here; use --tcp",
			info->subbuf_size);
	ns->info = *info;
	ns->info.stop_fd = -1; /* for the fallback's ->begin(), later */
	ns->ctl.cancel_fd = info->stop_fd;
	ns->nr_cpus = info->nr_cpus;
	ns->cpus = calloc(ns->nr_cpus, sizeof(*ns->cpus));
	ports = calloc(ns->nr_cpus, sizeof(*ports));
	if (!ns->cpus || !ports) {
		free(ports);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < ns->nr_cpus; cpu++)
		ns->cpus[cpu].fd = -1;
	ret = make_head(ns, &head, &len);
	if (ret) {
		free(ports);
		return ret;
	}
	ret = vt_tcmsg_agree_v3(&ns->ctl, &err);
	if (!ret)
		ret = vt_tcmsg_init(&ns->ctl, ns->nr_cpus, info->subbuf_size,
				    !ns->opts.udp, ports, &err);
	if (ret)
		set_err(ns, ret, "%s", err.text);
	else
		ret = open_data(ns, ports);
	free(ports);
	if (!ret)
		ret = send_head(ns, head, len);
	free(head);
	/* The close must still be sent once a stop is asked for. */
	ns->ctl.cancel_fd = -1;
	return ret;
}

/*
 * The collector is gone: keep the reason, and begin the fallback file
 * once. Return: the fallback, or NULL (the recording stops).
 */
static struct vtrace_sink *went_away(struct net_sink *ns, int cpu, int err)
{
	struct vtrace_sink *fallback;

	pthread_mutex_lock(&ns->lock);
	if (!atomic_load(&ns->gone)) {
		snprintf(ns->gone_reason, sizeof(ns->gone_reason), "cpu%d: %s",
			 cpu, strerror(err));
		if (ns->fallback_path &&
		    !vtrace_tracedat_sink_create(ns->fallback_path,
						 &ns->fallback) &&
		    ns->fallback->ops->begin(ns->fallback, &ns->info)) {
			set_err(ns, -EIO,
				"the collector went away (%s), and the fallback %s cannot be created: %s",
				ns->gone_reason, ns->fallback_path,
				ns->fallback->ops->strerror(ns->fallback));
			vtrace_sink_free(ns->fallback);
			ns->fallback = NULL;
		} else if (!ns->fallback) {
			set_err(ns, -ECONNRESET, "the collector went away (%s)",
				ns->gone_reason);
		}
		atomic_store(&ns->gone, true);
	}
	fallback = ns->fallback;
	pthread_mutex_unlock(&ns->lock);
	return fallback;
}

static int to_fallback(struct net_sink *ns, int cpu, const void *subbuf,
		       size_t size)
{
	struct vtrace_sink *fallback;
	int ret;

	pthread_mutex_lock(&ns->lock);
	fallback = ns->fallback;
	pthread_mutex_unlock(&ns->lock);
	if (!fallback)
		return -ECONNRESET;
	ret = fallback->ops->add_subbuf(fallback, cpu, subbuf, size);
	if (ret)
		return set_err(ns, ret, "%s",
			       fallback->ops->strerror(fallback));
	atomic_fetch_add(&ns->fallback_bytes, size);
	return 0;
}

/* Send what is left of a sub-buffer taken in part; -EAGAIN: not yet all. */
static int send_pending(struct net_cpu *c, size_t size)
{
	ssize_t n;

	while (c->pending_len) {
		n = send(c->fd, c->pending + size - c->pending_len,
			 c->pending_len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0)
			return errno == EINTR ? 0 : -errno;
		c->pending_len -= n;
	}
	return 0;
}

static bool would_block(int err)
{
	return err == -EAGAIN || err == -EWOULDBLOCK || err == -ENOBUFS;
}

static int net_add_subbuf(struct vtrace_sink *sink, int cpu, const void *subbuf,
			  size_t size)
{
	struct net_sink *ns = priv_of(sink);
	struct net_cpu *c = &ns->cpus[cpu];
	ssize_t n;
	int ret;

	if (atomic_load(&ns->gone))
		return to_fallback(ns, cpu, subbuf, size);
	ret = send_pending(c, size);
	if (would_block(ret) || (!ret && c->pending_len)) {
		c->dropped_subbufs++;
		return VTRACE_SINK_DROPPED;
	}
	if (!ret) {
		n = send(c->fd, subbuf, size, MSG_DONTWAIT | MSG_NOSIGNAL);
		ret = n < 0 ? -errno : 0;
	}
	if (would_block(ret)) {
		c->dropped_subbufs++;
		return VTRACE_SINK_DROPPED;
	}
	if (ret) {
		if (!went_away(ns, cpu, -ret))
			return -ECONNRESET;
		return to_fallback(ns, cpu, subbuf, size);
	}
	/* A stream took part of it: the rest goes before the next one. */
	if ((size_t)n < size) {
		memcpy(c->pending + n, (const char *)subbuf + n, size - n);
		c->pending_len = size - n;
	}
	c->sent_bytes += size;
	c->sent_subbufs++;
	return 0;
}

/*
 * A TCP connection takes the pages of the reader's pipe as they are;
 * whatever is not spliced on goes through @spill and net_add_subbuf(),
 * which keeps the stream whole (a tail taken in part goes first) and
 * counts what a blocked connection cannot take.
 */
static int net_splice_subbuf(struct vtrace_sink *sink, int cpu, int pipe,
			     size_t size, void *spill, size_t *stored)
{
	struct net_sink *ns = priv_of(sink);
	struct net_cpu *c = &ns->cpus[cpu];
	ssize_t n = -1;
	int ret;

	/* One sub-buffer at a time: a failure keeps none of it. */
	*stored = 0;
	if (!atomic_load(&ns->gone) && !c->pending_len && !c->splice_err) {
		n = splice(pipe, NULL, c->fd, NULL, size,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n < 0 && (errno == EINVAL || errno == EOPNOTSUPP))
			c->splice_err = errno;
	}
	if (n > 0) {
		/* The rest, after the part the stream took, before the next. */
		ret = vtrace_read_all(pipe, c->pending + n, size - n);
		if (ret)
			return set_err(ns, ret, "cpu%d's pipe: %s", cpu,
				       strerror(-ret));
		c->pending_len = size - n;
		c->sent_bytes += size;
		c->sent_subbufs++;
		c->spliced_subbufs++;
		return 0;
	}
	ret = vtrace_read_all(pipe, spill, size);
	if (ret)
		return set_err(ns, ret, "cpu%d's pipe: %s", cpu,
			       strerror(-ret));
	return net_add_subbuf(sink, cpu, spill, size);
}

/* The tails still pending, all within FLUSH_TIMEOUT_MS. */
static int flush_data(struct net_sink *ns)
{
	struct pollfd pfd = { .events = POLLOUT };
	struct timespec t0, t;
	struct net_cpu *c;
	int cpu, ret, left;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (cpu = 0; cpu < ns->nr_cpus; cpu++) {
		c = &ns->cpus[cpu];
		pfd.fd = c->fd;
		while (c->pending_len) {
			ret = send_pending(c, ns->info.subbuf_size);
			if (!would_block(ret) && ret)
				return set_err(ns, ret,
					       "sending cpu%d's last data: %s",
					       cpu, strerror(-ret));
			clock_gettime(CLOCK_MONOTONIC, &t);
			left = FLUSH_TIMEOUT_MS -
			       ((t.tv_sec - t0.tv_sec) * 1000 +
				(t.tv_nsec - t0.tv_nsec) / 1000000);
			if (c->pending_len &&
			    (left <= 0 || poll(&pfd, 1, left) <= 0))
				return set_err(
					ns, -ETIMEDOUT,
					"the collector took no more of cpu%d's data",
					cpu);
		}
	}
	return 0;
}

static int net_finish(struct vtrace_sink *sink,
		      const struct vtrace_sink_end *end)
{
	struct net_sink *ns = priv_of(sink);
	struct vtrace_tcmsg_err err = { 0 };
	int ret = 0, fret = 0;

	if (!atomic_load(&ns->gone)) {
		ret = flush_data(ns);
		close_data(ns);
		if (!ret) {
			ret = vt_tcmsg_close(&ns->ctl, CLOSE_TIMEOUT_MS, &err);
			if (ret)
				set_err(ns, ret, "%s", err.text);
		}
	}
	close_data(ns);
	if (ns->fallback) {
		fret = ns->fallback->ops->finish(ns->fallback, end);
		if (fret)
			set_err(ns, fret, "%s",
				ns->fallback->ops->strerror(ns->fallback));
	}
	return ret ?: fret;
}

/* The listener drops a session that ends without CLOSE: no file is left. */
static void net_abort(struct vtrace_sink *sink)
{
	struct net_sink *ns = priv_of(sink);

	close_data(ns);
	if (ns->ctl.fd >= 0)
		close(ns->ctl.fd);
	ns->ctl.fd = -1;
	if (ns->fallback)
		ns->fallback->ops->abort(ns->fallback);
}

/* A collector keeps no partial file here; a fallback file, once begun, is. */
static const char *net_partial(const struct vtrace_sink *sink)
{
	struct net_sink *ns = priv_of(sink);
	const char *partial = NULL;

	pthread_mutex_lock(&ns->lock);
	if (ns->fallback)
		partial = ns->fallback->ops->partial(ns->fallback);
	pthread_mutex_unlock(&ns->lock);
	return partial;
}

static const char *net_strerror(const struct vtrace_sink *sink)
{
	return priv_of(sink)->err;
}

static void net_destroy(struct vtrace_sink *sink)
{
	struct net_sink *ns = priv_of(sink);

	close_data(ns);
	if (ns->ctl.fd >= 0)
		close(ns->ctl.fd);
	vtrace_sink_free(ns->fallback);
	free(ns->cpus);
	free(ns->fallback_path);
	pthread_mutex_destroy(&ns->lock);
	free(ns);
}

static const struct vtrace_sink_ops net_sink_ops = {
	.name = "tracecmd-listen",
	.clock = "local",
	.begin = net_begin,
	.add_subbuf = net_add_subbuf,
	.splice_subbuf = net_splice_subbuf,
	.finish = net_finish,
	.abort = net_abort,
	.partial = net_partial,
	.strerror = net_strerror,
	.destroy = net_destroy,
};

/*
 * The control connection, and the listener's greeting checked; the
 * version is agreed in net_begin(), where the session follows at once.
 */
static int connect_listener(struct net_sink *ns)
{
	struct vtrace_tcmsg_err err = { 0 };
	int gai, ret;

	ns->ctl.fd =
		dial(ns->opts.addr.host, ns->opts.addr.port, SOCK_STREAM, &gai);
	if (ns->ctl.fd < 0)
		return dial_err(ns, ns->ctl.fd, gai, "the collector", "");
	ret = vt_tcmsg_greeting(&ns->ctl, &err);
	if (ret)
		return set_err(ns, ret, "%s", err.text);
	return 0;
}

/**
 * vtrace_net_sink_create - a sink streaming to "trace-cmd listen"
 * @opts: the listener and how to reach it; copied
 * @out: set to the new sink, NULL on failure
 * @err: set to the text of a failure
 * @err_len: room in @err
 *
 * Connects to the listener and checks that it speaks trace-cmd's
 * protocol version 3 now, before any tracefs change. The caller ignores
 * or blocks SIGPIPE: a splice into a connection the collector closed
 * raises it (send() is told not to).
 *
 * Return: 0; -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH (no such host) and
 * the like when it cannot be reached; -EPROTO when what answers is not a
 * trace-cmd listener; -ENOMEM.
 */
int vtrace_net_sink_create(const struct vtrace_net_opts *opts,
			   struct vtrace_sink **out, char *err, size_t err_len)
{
	struct vtrace_sink *sink;
	struct net_sink *ns;
	int ret;

	*out = NULL;
	snprintf(err, err_len, "%s", strerror(ENOMEM));
	sink = calloc(1, sizeof(*sink));
	ns = calloc(1, sizeof(*ns));
	if (!sink || !ns)
		goto nomem;
	ns->opts = *opts;
	ns->ctl = (struct vt_tcmsg_conn){ .fd = -1, .cancel_fd = -1 };
	pthread_mutex_init(&ns->lock, NULL);
	sink->ops = &net_sink_ops;
	sink->priv = ns;
	sink->peer = true;
	sink->max_subbuf_size = opts->udp ? VTRACE_NET_UDP_SUBBUF_SIZE : 0;
	/* A splice into a UDP socket need not keep a datagram a sub-buffer. */
	sink->splice_batch = opts->udp ? 0 : 1;
	if (opts->fallback) {
		ns->fallback_path = strdup(opts->fallback);
		if (!ns->fallback_path)
			goto nomem_sink;
	}
	ns->opts.fallback = ns->fallback_path;
	if (asprintf(&sink->path, "%s%s%s:%s",
		     strchr(opts->addr.host, ':') ? "[" : "", opts->addr.host,
		     strchr(opts->addr.host, ':') ? "]" : "",
		     opts->addr.port) < 0) {
		sink->path = NULL;
		goto nomem_sink;
	}
	ret = connect_listener(ns);
	if (ret) {
		snprintf(err, err_len, "%s", ns->err);
		vtrace_sink_free(sink);
		return ret;
	}
	*out = sink;
	return 0;

nomem_sink:
	vtrace_sink_free(sink);
	return -ENOMEM;
nomem:
	free(sink);
	free(ns);
	return -ENOMEM;
}

/**
 * vtrace_net_sink_status - what a stream sent, once it is finished
 * @sink: a sink of vtrace_net_sink_create()
 * @st: filled in; @st->gone_reason is valid while @sink is
 */
void vtrace_net_sink_status(const struct vtrace_sink *sink,
			    struct vtrace_net_status *st)
{
	struct net_sink *ns = priv_of(sink);
	int cpu;

	*st = (struct vtrace_net_status){ .gone_reason = ns->gone_reason };
	for (cpu = 0; ns->cpus && cpu < ns->nr_cpus; cpu++) {
		st->sent_bytes += ns->cpus[cpu].sent_bytes;
		st->sent_subbufs += ns->cpus[cpu].sent_subbufs;
		st->spliced_subbufs += ns->cpus[cpu].spliced_subbufs;
		st->dropped_subbufs += ns->cpus[cpu].dropped_subbufs;
		if (ns->cpus[cpu].splice_err && !st->splice_err) {
			st->splice_err = ns->cpus[cpu].splice_err;
			st->splice_err_cpu = cpu;
		}
	}
	st->gone = atomic_load(&ns->gone);
	st->fallback_bytes = atomic_load(&ns->fallback_bytes);
}
