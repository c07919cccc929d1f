// SPDX-License-Identifier: LGPL-2.1
/*
 * The data sources beside ftrace: when each one writes, and where to.
 *
 * linux.system_info writes once at the start, linux.process_stats its
 * process tree at the start; the polled counters (linux.sys_stats, and
 * process_stats' proc_stats_poll_ms) are read by one thread of their own,
 * which sleeps until the next period is due (no CPU between polls) and
 * never touches the ring buffers, so it cannot delay their readers.
 * Periods are kept on CLOCK_MONOTONIC from the start: a late poll does not
 * shift the ones after it, and polls missed while the thread could not run
 * are skipped, not caught up.
 *
 * Processes first seen in the recorded events (vtrace_probes_note_pid(),
 * from the readers' threads) wait in a queue of their own, so that a
 * reader never waits for a poll; the poller reads them from /proc at its
 * next tick, at most ON_DEMAND_MS later.
 *
 * Each source writes into its trace buffer (struct vtrace_probe_buffer):
 * straight to the output when the recording streams, else the first (fill
 * policy DISCARD) or the newest (RING_BUFFER) size_kb of its packets,
 * the latter held here and written at the stop.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/probes-local.h"

/**
 * struct held - a packet a ring buffer keeps until the stop
 * @next: the newer one
 * @len: its bytes
 * @data: the packet
 */
struct held {
	struct held *next;
	size_t len;
	unsigned char data[];
};

/**
 * struct out - a source's trace buffer
 * @cfg: its size and fill policy
 * @used: bytes taken (DISCARD) or held (RING_BUFFER)
 * @head: oldest held packet
 * @tail: newest held packet
 */
struct out {
	struct vtrace_probe_buffer cfg;
	uint64_t used;
	struct held *head;
	struct held *tail;
};

enum { OUT_PROCESS, OUT_SYS, OUT_INFO, OUT_NR };

/* How long a new process waits to be read, and how many may wait. */
#define ON_DEMAND_MS 100
#define PENDING_MAX 4096

/**
 * struct vtrace_probes - the running data sources
 * @cfg: what they were asked
 * @emit: where packets go
 * @ctx: @emit's context
 * @out: each source's buffer
 * @sys: linux.sys_stats' reader, or NULL
 * @proc: linux.process_stats' reader, or NULL
 * @pb: the packet being encoded (by one thread at a time: @lock)
 * @lock: serializes the thread and the caller, and guards @stop
 * @wake: signalled to stop the thread
 * @thread: the poller
 * @have_thread: @thread runs
 * @stop: the thread is to end
 * @tick_ms: the poller's period: the periods' greatest common divisor
 * @tick: polls done
 * @dropped: packets a full buffer refused or a ring buffer overwrote
 * @err: first failure of @emit
 * @pending_lock: guards @pending and @nr_pending (held only to copy)
 * @pending: processes seen in the events, to read from /proc
 * @nr_pending: entries in @pending
 * @on_demand: @pending is read (process_stats' on_demand)
 */
struct vtrace_probes {
	struct vtrace_probes_config cfg;
	vtrace_packet_fn emit;
	void *ctx;
	struct out out[OUT_NR];
	struct vt_sys_stats *sys;
	struct vt_proc_stats *proc;
	struct vt_pb pb;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	bool have_thread;
	bool stop;
	uint32_t tick_ms;
	uint64_t tick;
	uint64_t dropped;
	int err;
	pthread_mutex_t pending_lock;
	int pending[PENDING_MAX];
	size_t nr_pending;
	bool on_demand;
};

/**
 * vtrace_probes_wanted - whether a config asks for any data source here
 * @cfg: the data sources
 *
 * Return: true when one of them is enabled.
 */
bool vtrace_probes_wanted(const struct vtrace_probes_config *cfg)
{
	return cfg->process_stats.enabled || cfg->sys_stats.enabled ||
	       cfg->system_info;
}

static int emit(struct vtrace_probes *p, const void *data, size_t len)
{
	int ret;

	if (p->err)
		return p->err;
	ret = p->emit(p->ctx, data, len);
	if (ret)
		p->err = ret;
	return ret;
}

/* Hands @pb's packet to its buffer; an encoding failure drops it. */
static void put(struct vtrace_probes *p, struct out *o, struct vt_pb *pb)
{
	uint64_t limit = (uint64_t)o->cfg.size_kb * 1024;
	struct held *h;

	if (pb->err || !pb->len) {
		p->dropped += !!pb->err;
		return;
	}
	switch (o->cfg.fill_policy) {
	case VTRACE_FILL_STREAM:
		emit(p, pb->buf, pb->len);
		return;
	case VTRACE_FILL_DISCARD:
		if (o->used + pb->len > limit) {
			p->dropped++;
			return;
		}
		o->used += pb->len;
		emit(p, pb->buf, pb->len);
		return;
	case VTRACE_FILL_RING_BUFFER:
		h = malloc(sizeof(*h) + pb->len);
		if (!h) {
			p->dropped++;
			return;
		}
		h->next = NULL;
		h->len = pb->len;
		memcpy(h->data, pb->buf, pb->len);
		if (o->tail)
			o->tail->next = h;
		else
			o->head = h;
		o->tail = h;
		o->used += h->len;
		while (o->used > limit && o->head) {
			h = o->head;
			o->head = h->next;
			if (!o->head)
				o->tail = NULL;
			o->used -= h->len;
			free(h);
			p->dropped++;
		}
		return;
	}
}

/* Writes what a ring buffer holds, oldest first, and empties it. */
static void flush_held(struct vtrace_probes *p, struct out *o)
{
	struct held *h;

	while ((h = o->head)) {
		o->head = h->next;
		emit(p, h->data, h->len);
		free(h);
	}
	o->tail = NULL;
	o->used = 0;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The poller's period, 0 when nothing is polled. */
static uint32_t tick_of(const struct vtrace_probes_config *cfg)
{
	uint32_t t = 0;
	int k;

	if (cfg->sys_stats.enabled)
		for (k = 0; k < VTRACE_SYS_NR; k++)
			t = gcd(t, cfg->sys_stats.period_ms[k]);
	if (cfg->process_stats.enabled)
		t = gcd(t, cfg->process_stats.poll_ms);
	if (cfg->process_stats.enabled && cfg->process_stats.on_demand)
		t = gcd(t, ON_DEMAND_MS);
	return t;
}

/* True when a source polled every @period_ms is due at tick @tick. */
static bool due(const struct vtrace_probes *p, uint32_t period_ms)
{
	return period_ms && (p->tick * p->tick_ms) % period_ms == 0;
}

/* The processes the events named since the last tick, into the trace. */
static void read_pending(struct vtrace_probes *p)
{
	int pids[PENDING_MAX];
	size_t n;

	pthread_mutex_lock(&p->pending_lock);
	n = p->nr_pending;
	memcpy(pids, p->pending, n * sizeof(*pids));
	p->nr_pending = 0;
	pthread_mutex_unlock(&p->pending_lock);
	if (n && vt_proc_stats_add_new(p->proc, pids, n, &p->pb))
		put(p, &p->out[OUT_PROCESS], &p->pb);
}

/* One tick's polls; called with @lock held. */
static void poll_once(struct vtrace_probes *p)
{
	uint32_t kinds = 0;
	int k;

	if (p->sys) {
		for (k = 0; k < VTRACE_SYS_NR; k++)
			if (due(p, p->cfg.sys_stats.period_ms[k]))
				kinds |= 1u << k;
		if (kinds) {
			vt_sys_stats_poll(p->sys, kinds, &p->pb);
			put(p, &p->out[OUT_SYS], &p->pb);
		}
	}
	if (p->proc && due(p, p->cfg.process_stats.poll_ms)) {
		vt_proc_stats_poll(p->proc, &p->pb);
		put(p, &p->out[OUT_PROCESS], &p->pb);
	}
	if (p->on_demand)
		read_pending(p);
	p->tick++;
}

/**
 * vtrace_probes_note_pid - a thread seen in the recorded events
 * @probes: the running sources
 * @pid: its id
 *
 * process_stats reads the process of each one it has not written yet
 * from /proc, soon after, in its own thread. Cheap enough for a
 * ring-buffer reader: a lock held to store one int. When too many wait,
 * the newest are not read (the events still name them).
 */
void vtrace_probes_note_pid(struct vtrace_probes *probes, int pid)
{
	if (!probes->on_demand)
		return;
	pthread_mutex_lock(&probes->pending_lock);
	if (probes->nr_pending < PENDING_MAX)
		probes->pending[probes->nr_pending++] = pid;
	pthread_mutex_unlock(&probes->pending_lock);
}

static void add_ms(struct timespec *ts, uint64_t ms)
{
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

static bool before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *poller(void *arg)
{
	struct vtrace_probes *p = arg;
	struct timespec start, next, now;
	uint64_t n = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_mutex_lock(&p->lock);
	while (!p->stop && !p->err) {
		poll_once(p);
		/* The next period not yet begun: missed ones are skipped. */
		clock_gettime(CLOCK_MONOTONIC, &now);
		do {
			next = start;
			add_ms(&next, ++n * p->tick_ms);
		} while (before(&next, &now));
		p->tick = n;
		while (!p->stop && !p->err &&
		       pthread_cond_timedwait(&p->wake, &p->lock, &next) !=
			       ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static void out_init(struct out *o, const struct vtrace_probe_buffer *cfg)
{
	o->cfg = *cfg;
}

/**
 * vtrace_probes_start - start the data sources a config asks for
 * @out: set to the running sources
 * @cfg: the sources (copied)
 * @emit_fn: takes each packet
 * @ctx: @emit_fn's context
 *
 * Writes linux.system_info and the process tree now (through @emit_fn,
 * in this thread) and starts the poller for the periodic counters.
 *
 * Return: 0, -ENOMEM, the error of @emit_fn, or that of creating the
 * thread; nothing runs after a failure.
 */
int vtrace_probes_start(struct vtrace_probes **out,
			const struct vtrace_probes_config *cfg,
			vtrace_packet_fn emit_fn, void *ctx)
{
	struct vtrace_probes *p;
	pthread_condattr_t attr;
	int k, ret = 0;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->cfg = *cfg;
	p->emit = emit_fn;
	p->ctx = ctx;
	vt_pb_init(&p->pb);
	pthread_mutex_init(&p->lock, NULL);
	pthread_mutex_init(&p->pending_lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &attr);
	pthread_condattr_destroy(&attr);
	out_init(&p->out[OUT_PROCESS], &cfg->process_stats.buffer);
	out_init(&p->out[OUT_SYS], &cfg->sys_stats.buffer);
	out_init(&p->out[OUT_INFO], &cfg->system_info_buffer);

	if (cfg->sys_stats.enabled)
		ret = vt_sys_stats_new(&p->sys, &cfg->sys_stats);
	/* What the kernel lacks costs no wake-up. */
	for (k = 0; !ret && p->sys && k < VTRACE_SYS_NR; k++)
		if (vt_sys_stats_missing(p->sys) & 1u << k)
			p->cfg.sys_stats.period_ms[k] = 0;
	if (!ret && cfg->process_stats.enabled)
		ret = vt_proc_stats_new(&p->proc, &cfg->process_stats);
	if (ret)
		goto fail;
	if (cfg->system_info) {
		vt_system_info_write(&p->pb);
		put(p, &p->out[OUT_INFO], &p->pb);
		vt_cpu_info_write(&p->pb);
		put(p, &p->out[OUT_INFO], &p->pb);
	}
	if (p->proc && cfg->process_stats.scan_all_processes_on_start) {
		vt_proc_stats_scan_all(p->proc, &p->pb);
		put(p, &p->out[OUT_PROCESS], &p->pb);
	}
	ret = p->err;
	if (ret)
		goto fail;
	p->on_demand = p->proc && cfg->process_stats.on_demand;
	p->tick_ms = tick_of(&p->cfg);
	if (p->tick_ms) {
		ret = -pthread_create(&p->thread, NULL, poller, p);
		if (ret)
			goto fail;
		p->have_thread = true;
	}
	*out = p;
	return 0;
fail:
	vtrace_probes_free(p);
	return ret;
}

/**
 * vtrace_probes_stop - stop polling and write what the buffers hold
 * @probes: the running sources
 *
 * Return: 0, or the first error of the packet function.
 */
int vtrace_probes_stop(struct vtrace_probes *probes)
{
	int o;

	pthread_mutex_lock(&probes->lock);
	probes->stop = true;
	pthread_cond_signal(&probes->wake);
	pthread_mutex_unlock(&probes->lock);
	if (probes->have_thread)
		pthread_join(probes->thread, NULL);
	probes->have_thread = false;
	if (probes->on_demand)
		read_pending(probes);
	for (o = 0; o < OUT_NR; o++)
		flush_held(probes, &probes->out[o]);
	return probes->err;
}

/**
 * vtrace_probes_dropped - packets the buffers could not keep
 * @probes: the sources
 *
 * Return: packets refused by a full DISCARD buffer, overwritten in a
 * RING_BUFFER one, or not encoded.
 */
uint64_t vtrace_probes_dropped(const struct vtrace_probes *probes)
{
	return probes->dropped;
}

/**
 * vtrace_probes_missing - the polled counters this kernel lacks
 * @probes: the sources
 *
 * Return: bit per enum vtrace_sys_stats_kind asked for but not polled,
 * as its file or sysfs class is absent.
 */
uint32_t vtrace_probes_missing(const struct vtrace_probes *probes)
{
	return probes->sys ? vt_sys_stats_missing(probes->sys) : 0;
}

/**
 * vtrace_probes_free - stop (without writing what is held) and release
 * @probes: the sources, or NULL
 */
void vtrace_probes_free(struct vtrace_probes *probes)
{
	struct held *h;
	int o;

	if (!probes)
		return;
	if (probes->have_thread) {
		pthread_mutex_lock(&probes->lock);
		probes->stop = true;
		pthread_cond_signal(&probes->wake);
		pthread_mutex_unlock(&probes->lock);
		pthread_join(probes->thread, NULL);
	}
	for (o = 0; o < OUT_NR; o++)
		while ((h = probes->out[o].head)) {
			probes->out[o].head = h->next;
			free(h);
		}
	vt_sys_stats_free(probes->sys);
	vt_proc_stats_free(probes->proc);
	vt_pb_free(&probes->pb);
	pthread_cond_destroy(&probes->wake);
	pthread_mutex_destroy(&probes->pending_lock);
	pthread_mutex_destroy(&probes->lock);
	free(probes);
}
