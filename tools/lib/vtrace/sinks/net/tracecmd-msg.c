// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-cmd's network protocol, client side (see tracecmd-msg.h for why
 * vtrace has its own). Facts from trace-cmd 3.1.6's trace-msg.c and
 * trace-listen.c:
 *
 *  - greeting, bytes on the connection: the listener sends "tracecmd"
 *    (8 bytes); the client "-1V3\0"; the listener "V3\0"; the client the
 *    magic "766679\0\0"; the listener "OK".
 *  - then messages: a header of three big-endian 32-bit words (total
 *    size, command, size of the command's fixed part), the fixed part,
 *    then a payload; 8192 bytes at most.
 *  - TINIT (cpus, page size, number of options; options as NUL-ended
 *    strings, "tcp" for TCP data connections, UDP without it) is answered
 *    by RINIT (cpus; one port per CPU as NUL-ended decimal strings).
 *  - SEND_DATA payloads are the file's metadata, appended to it as they
 *    come, until FIN_DATA; CLOSE ends the session, and the listener then
 *    puts the per-CPU data after the metadata and closes the connection.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <vtrace/diag.h>

#include "sinks/net/tracecmd-msg.h"

#define TCMSG_GREETING "tracecmd"
#define TCMSG_GREETING_LEN 8
/* The version request, the answer and the magic, NULs included. */
#define TCMSG_V3_REQUEST "-1V3"
#define TCMSG_V3_REQUEST_LEN 5
#define TCMSG_V3_ANSWER "V3"
#define TCMSG_V3_ANSWER_LEN 3
#define TCMSG_V3_MAGIC "766679\0"
#define TCMSG_V3_MAGIC_LEN 8
#define TCMSG_OK "OK"
#define TCMSG_OK_LEN 2

#define TCMSG_MAX_LEN 8192
#define TCMSG_HDR_LEN 12

enum tcmsg_cmd {
	TCMSG_CLOSE = 0,
	TCMSG_TINIT = 1,
	TCMSG_RINIT = 2,
	TCMSG_SEND_DATA = 3,
	TCMSG_FIN_DATA = 4,
	TCMSG_NOT_SUPP = 5,
};

/* TINIT's fixed part: cpus, page size, options; RINIT's: cpus. */
#define TCMSG_TINIT_LEN 12
#define TCMSG_RINIT_LEN 4
#define TCMSG_OPTION_TCP "tcp"

static int set_err(struct vtrace_tcmsg_err *err, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_err(struct vtrace_tcmsg_err *err, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
	return ret;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * Wait until @c's socket is ready for @events, until @deadline_ms
 * (now_ms()'s clock), or until the recording is asked to stop.
 *
 * Return: 1 when ready, 0 at the deadline, -ECANCELED on a stop request,
 * or a negative errno from poll().
 */
static int wait_ready(const struct vt_tcmsg_conn *c, short events,
		      long long deadline_ms)
{
	struct pollfd pfd[2] = {
		{ .fd = c->fd, .events = events },
		{ .fd = c->cancel_fd, .events = POLLIN },
	};
	long long left;
	int ret;

	for (;;) {
		left = deadline_ms - now_ms();
		if (left <= 0)
			return 0;
		ret = poll(pfd, c->cancel_fd >= 0 ? 2 : 1, left);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (ret && (pfd[1].revents & POLLIN))
			return -ECANCELED;
		if (ret)
			return 1;
	}
}

/* Why a wait for @what ended without the socket ready; see wait_ready(). */
static int wait_err(struct vtrace_tcmsg_err *err, int ret, const char *doing,
		    const char *what)
{
	if (ret == -ECANCELED)
		return set_err(err, ret, "stopped while %s %s", doing, what);
	if (!ret)
		return set_err(err, -ETIMEDOUT,
			       "the listener took nothing while %s %s for %d s",
			       doing, what, VTRACE_TCMSG_TIMEOUT_MS / 1000);
	return set_err(err, ret, "%s %s: %s", doing, what, strerror(-ret));
}

/*
 * All of @mh's bytes, @left of them; each wait for room in the socket at
 * most VTRACE_TCMSG_TIMEOUT_MS, and a stop request ends it. @mh's vector
 * is used up.
 */
static int send_iov(const struct vt_tcmsg_conn *c, struct msghdr *mh,
		    size_t left, struct vtrace_tcmsg_err *err, const char *what)
{
	ssize_t n;
	int ret;

	while (left) {
		n = sendmsg(c->fd, mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			ret = wait_ready(c, POLLOUT,
					 now_ms() + VTRACE_TCMSG_TIMEOUT_MS);
			if (ret != 1)
				return wait_err(err, ret, "sending", what);
			continue;
		}
		if (n < 0)
			return set_err(err, -errno, "sending %s: %s", what,
				       strerror(errno));
		left -= n;
		while (mh->msg_iovlen && (size_t)n >= mh->msg_iov->iov_len) {
			n -= mh->msg_iov->iov_len;
			mh->msg_iov++;
			mh->msg_iovlen--;
		}
		if (mh->msg_iovlen) {
			mh->msg_iov->iov_base =
				(char *)mh->msg_iov->iov_base + n;
			mh->msg_iov->iov_len -= n;
		}
	}
	return 0;
}

static int write_all(const struct vt_tcmsg_conn *c, const void *buf, size_t len,
		     struct vtrace_tcmsg_err *err, const char *what)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	return send_iov(c, &mh, len, err, what);
}

/*
 * Exactly @len bytes, each wait at most VTRACE_TCMSG_TIMEOUT_MS; a stop
 * request ends it.
 */
static int read_all(const struct vt_tcmsg_conn *c, void *buf, size_t len,
		    struct vtrace_tcmsg_err *err, const char *what)
{
	char *p = buf;
	ssize_t n;
	int ret;

	while (len) {
		ret = wait_ready(c, POLLIN, now_ms() + VTRACE_TCMSG_TIMEOUT_MS);
		if (ret == -ECANCELED)
			return wait_err(err, ret, "waiting for", what);
		if (ret < 0)
			return set_err(err, ret, "waiting for %s: %s", what,
				       strerror(-ret));
		if (!ret)
			return set_err(
				err, -ETIMEDOUT,
				"waited %d s for %s in vain: not a trace-cmd listener?",
				VTRACE_TCMSG_TIMEOUT_MS / 1000, what);
		n = recv(c->fd, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return set_err(err, -errno, "reading %s: %s", what,
				       strerror(errno));
		if (!n)
			return set_err(
				err, -ECONNRESET,
				"the listener closed the connection instead of sending %s",
				what);
		p += n;
		len -= n;
	}
	return 0;
}

static int expect(const struct vt_tcmsg_conn *c, const char *want, size_t len,
		  const char *what, struct vtrace_tcmsg_err *err)
{
	char got[16], text[80];
	int ret;

	ret = read_all(c, got, len, err, what);
	if (ret)
		return ret;
	if (memcmp(got, want, len))
		return set_err(err, -EPROTO,
			       "not a trace-cmd listener: it sent '%s' for %s",
			       vtrace_escape(got, len, text, sizeof(text)),
			       what);
	return 0;
}

/**
 * vt_tcmsg_greeting - check that a listener answered
 * @c: a connected TCP socket to "trace-cmd listen"
 * @err: the failure's text
 *
 * Reads the word a trace-cmd listener sends first. The listener then
 * waits for the client's protocol version for as long as it takes, so a
 * client may check the collector long before it has a session to start.
 *
 * Return: 0; -EPROTO when the peer is not a trace-cmd listener (it sent
 * something else); -ETIMEDOUT when it sent nothing; -ECONNRESET when it
 * closed the connection; another negative errno from the socket.
 */
int vt_tcmsg_greeting(const struct vt_tcmsg_conn *c,
		      struct vtrace_tcmsg_err *err)
{
	return expect(c, TCMSG_GREETING, TCMSG_GREETING_LEN, "its greeting",
		      err);
}

/**
 * vt_tcmsg_agree_v3 - agree on protocol version 3 with a listener
 * @c: a socket after vt_tcmsg_greeting()
 * @err: the failure's text
 *
 * From here on the listener allows 5 s between two messages: the
 * session's messages should follow at once.
 *
 * Return: 0; -EPROTO when the listener does not speak version 3 (it
 * answered something else); -ETIMEDOUT when it did not answer;
 * -ECONNRESET when it closed the connection; another negative errno from
 * the socket.
 */
int vt_tcmsg_agree_v3(const struct vt_tcmsg_conn *c,
		      struct vtrace_tcmsg_err *err)
{
	int ret;

	ret = write_all(c, TCMSG_V3_REQUEST, TCMSG_V3_REQUEST_LEN, err,
			"the protocol version");
	if (!ret)
		ret = expect(c, TCMSG_V3_ANSWER, TCMSG_V3_ANSWER_LEN,
			     "protocol version 3", err);
	if (!ret)
		ret = write_all(c, TCMSG_V3_MAGIC, TCMSG_V3_MAGIC_LEN, err,
				"the protocol magic");
	if (!ret)
		ret = expect(c, TCMSG_OK, TCMSG_OK_LEN, "its OK", err);
	return ret;
}

static void put_be32(char *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, sizeof(v));
}

static uint32_t get_be32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return ntohl(v);
}

/* One message: header, @fixed_len bytes of fixed part, then @payload. */
static int send_msg(const struct vt_tcmsg_conn *c, enum tcmsg_cmd cmd,
		    const char *fixed, size_t fixed_len, const void *payload,
		    size_t payload_len, struct vtrace_tcmsg_err *err,
		    const char *what)
{
	char hdr[TCMSG_HDR_LEN + TCMSG_TINIT_LEN];
	size_t hdr_len = TCMSG_HDR_LEN + fixed_len;
	struct iovec iov[2] = {
		{ .iov_base = hdr, .iov_len = hdr_len },
		{ .iov_base = (void *)payload, .iov_len = payload_len },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };

	put_be32(hdr, hdr_len + payload_len);
	put_be32(hdr + 4, cmd);
	put_be32(hdr + 8, fixed_len);
	memcpy(hdr + TCMSG_HDR_LEN, fixed, fixed_len);
	return send_iov(c, &mh, hdr_len + payload_len, err, what);
}

/* RINIT's ports: @cpus NUL-ended decimal strings in @buf. */
static int parse_ports(const char *buf, size_t len, int cpus,
		       unsigned int *ports, struct vtrace_tcmsg_err *err)
{
	const char *p = buf, *end = buf + len;
	unsigned long v;
	char *stop;
	int cpu;

	for (cpu = 0; cpu < cpus; cpu++) {
		if (p >= end || !memchr(p, '\0', end - p))
			return set_err(
				err, -EPROTO,
				"the listener's port list ends after %d of %d CPUs",
				cpu, cpus);
		errno = 0;
		v = strtoul(p, &stop, 10);
		if (errno || *stop || stop == p || !v || v > 65535)
			return set_err(err, -EPROTO,
				       "the listener sent a bad port for cpu%d",
				       cpu);
		ports[cpu] = v;
		p = stop + 1;
	}
	return 0;
}

/**
 * vt_tcmsg_init - tell the listener the recording's shape, get ports
 * @c: a socket after vt_tcmsg_agree_v3()
 * @cpus: CPUs whose data will be sent (0..@cpus-1)
 * @page_size: the sub-buffer size; the listener reads data in these units
 * @tcp: data connections over TCP; UDP when false
 * @ports: set to each CPU's data port on the listener; @cpus entries
 * @err: the failure's text
 *
 * Return: 0; -EPROTO when the listener answers with anything but its
 * port list for @cpus CPUs; -ECONNRESET when it closed the connection;
 * another negative errno from the socket.
 */
int vt_tcmsg_init(const struct vt_tcmsg_conn *c, int cpus,
		  unsigned int page_size, bool tcp, unsigned int *ports,
		  struct vtrace_tcmsg_err *err)
{
	char fixed[TCMSG_TINIT_LEN], hdr[TCMSG_HDR_LEN];
	uint32_t size, cmd, cmd_size;
	char *body;
	int ret;

	put_be32(fixed, cpus);
	put_be32(fixed + 4, page_size);
	put_be32(fixed + 8, tcp ? 1 : 0);
	ret = send_msg(c, TCMSG_TINIT, fixed, sizeof(fixed),
		       tcp ? TCMSG_OPTION_TCP : NULL,
		       tcp ? sizeof(TCMSG_OPTION_TCP) : 0, err,
		       "the recording's CPUs and page size");
	if (!ret)
		ret = read_all(c, hdr, sizeof(hdr), err, "its port list");
	if (ret)
		return ret;
	size = get_be32(hdr);
	cmd = get_be32(hdr + 4);
	cmd_size = get_be32(hdr + 8);
	if (cmd == TCMSG_CLOSE)
		return set_err(
			err, -ECONNRESET,
			"the listener closed the session instead of sending its port list");
	if (size > TCMSG_MAX_LEN || size < TCMSG_HDR_LEN + TCMSG_RINIT_LEN ||
	    cmd != TCMSG_RINIT || cmd_size < TCMSG_RINIT_LEN ||
	    cmd_size > size - TCMSG_HDR_LEN)
		return set_err(
			err, -EPROTO,
			"the listener answered message %u (size %u) instead of its port list",
			cmd, size);
	body = malloc(size - TCMSG_HDR_LEN);
	if (!body)
		return -ENOMEM;
	ret = read_all(c, body, size - TCMSG_HDR_LEN, err, "its port list");
	if (!ret && (int)get_be32(body) != cpus)
		ret = set_err(err, -EPROTO,
			      "the listener offers ports for %u CPUs, not %d",
			      get_be32(body), cpus);
	if (!ret)
		ret = parse_ports(body + cmd_size,
				  size - TCMSG_HDR_LEN - cmd_size, cpus, ports,
				  err);
	free(body);
	return ret;
}

/**
 * vt_tcmsg_send_data - send part of the file's metadata
 * @c: a socket after vt_tcmsg_init()
 * @data: bytes to append to the listener's file
 * @len: their number
 * @err: the failure's text
 *
 * Return: 0 or a negative errno from the socket.
 */
int vt_tcmsg_send_data(const struct vt_tcmsg_conn *c, const void *data,
		       size_t len, struct vtrace_tcmsg_err *err)
{
	const size_t max = TCMSG_MAX_LEN - TCMSG_HDR_LEN;
	const char *p = data;
	size_t n;
	int ret;

	while (len) {
		n = len < max ? len : max;
		ret = send_msg(c, TCMSG_SEND_DATA, NULL, 0, p, n, err,
			       "the metadata");
		if (ret)
			return ret;
		p += n;
		len -= n;
	}
	return 0;
}

/**
 * vt_tcmsg_fin_data - end the metadata
 * @c: a socket after vt_tcmsg_send_data()
 * @err: the failure's text
 *
 * Return: 0 or a negative errno from the socket.
 */
int vt_tcmsg_fin_data(const struct vt_tcmsg_conn *c,
		      struct vtrace_tcmsg_err *err)
{
	return send_msg(c, TCMSG_FIN_DATA, NULL, 0, NULL, 0, err,
			"the end of the metadata");
}

/**
 * vt_tcmsg_close - end the session, wait until the listener is done
 * @c: a socket after vt_tcmsg_fin_data(), with every data
 *	connection closed
 * @timeout_ms: longest wait for the listener to close its end
 * @err: the failure's text
 *
 * The listener closes the connection once it has put the file together
 * (trace-cmd 3.1.6 first waits about 2 s for its data readers).
 *
 * Return: 0; -ETIMEDOUT when it did not close in time; another negative
 * errno from the socket.
 */
int vt_tcmsg_close(const struct vt_tcmsg_conn *c, int timeout_ms,
		   struct vtrace_tcmsg_err *err)
{
	long long deadline = now_ms() + timeout_ms;
	char buf[TCMSG_MAX_LEN];
	ssize_t n;
	int ret;

	ret = send_msg(c, TCMSG_CLOSE, NULL, 0, NULL, 0, err,
		       "the end of the session");
	if (ret)
		return ret;
	/* One deadline: a listener that keeps talking does not extend it. */
	for (;;) {
		ret = wait_ready(c, POLLIN, deadline);
		if (ret < 0)
			return set_err(err, ret, "waiting for the listener: %s",
				       strerror(-ret));
		if (!ret)
			return set_err(
				err, -ETIMEDOUT,
				"the listener did not finish the file within %d s",
				timeout_ms / 1000);
		n = recv(c->fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		/* Its NOT_SUPP answers, if any, are of no interest. */
		if (n > 0)
			continue;
		if (n < 0 && errno != ECONNRESET)
			return set_err(err, -errno,
				       "waiting for the listener: %s",
				       strerror(errno));
		return 0;
	}
}
