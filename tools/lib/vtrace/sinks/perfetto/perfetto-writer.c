// SPDX-License-Identifier: LGPL-2.1
/*
 * Perfetto trace writer (see perfetto-writer.h).
 *
 * Each CPU has one TracePacket { FtraceEventBundle } open in its own
 * buffer; a full bundle is closed and written, so memory is a bundle
 * per CPU plus one buffer for the other packets (track descriptors,
 * counter values, process tree, stats). Packets are complete messages,
 * so the buffers can go to the file in any order: Perfetto sorts by
 * timestamp when it imports.
 *
 * What goes in each FtraceEvent, and which counter values an event
 * gives, is the translation's (perfetto-translate.c); this file frames
 * them: bundles, packets, counter tracks, the process tree and stats.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "analysis/marker-parse.h"
#include "sinks/perfetto/perfetto-format.h"
#include "sinks/perfetto/perfetto-translate.h"
#include "sinks/perfetto/perfetto-writer.h"
#include "sinks/perfetto/protobuf.h"

/* A bundle is written out once it is this large. */
#define BUNDLE_FLUSH_BYTES (64 * 1024)
/* So is the buffer of other packets. */
#define MISC_FLUSH_BYTES (64 * 1024)
/* Counter tracks are kept in a small table: TMUs and CPUs are few. */
#define TRACKS_MAX 512
/* The sequence every packet of the file is on. */
#define SEQUENCE_ID 1
/* Track uuids: any fixed non-zero base ("vt"), then the track index. */
#define TRACK_UUID_BASE 0x7674000000000000ull
/* Largest pid the ProcessTree bitmap follows (PID_MAX_LIMIT). */
#define PID_LIMIT (4 * 1024 * 1024)

struct track {
	char *name;
	uint64_t uuid;
};

/* A bitmap of thread ids. */
struct pid_set {
	uint64_t *words;
	size_t nr_words;
};

/*
 * What one CPU's thread writes: its bundle, its counts, and which pids
 * and marker writers it has passed to the shared state already, so that
 * it takes the lock once per new thread, not per event. The stats, set
 * at the end, come last: the next CPU's bundle is written right after.
 */
struct cpu_state {
	struct vt_pb pb;
	bool open; /* a packet and bundle are open in @pb */
	bool lost; /* the next bundle starts after lost events */
	uint64_t lost_events;
	uint64_t events;
	uint64_t first_ts;
	uint64_t last_ts;
	struct trace_seq scratch;
	struct pid_set pids;
	struct pid_set marker_pids; /* markers whose process is known */
	bool have_stats;
	struct vt_perfetto_cpu_stats stats;
};

/*
 * @lock covers the file, @misc, the tracks, @pids, @tgids, the clock pair
 * and the error; the CPUs' own state needs none.
 */
struct vt_perfetto {
	pthread_mutex_t lock;
	struct tep_handle *tep;
	int fd;
	int ncpus;
	struct cpu_state *cpus;
	struct vt_pb misc;
	struct vt_pf_translator tr;
	struct track tracks[TRACKS_MAX];
	int nr_tracks;
	int ftrace_clock; /* 0: boot */
	bool have_clock_pair;
	int64_t ftrace_ts;
	int64_t boot_ts;
	void (*new_pid)(void *ctx, int pid);
	void *new_pid_ctx;
	struct pid_set pids; /* every pid seen */
	int *tgids; /* by pid, 0: unknown */
	size_t nr_tgids;
	int print_id; /* ftrace/print, -1 if the formats lack it */
	struct tep_format_field *print_buf;
	uint64_t first_ts; /* of all CPUs, once vt_perfetto_finish() ran */
	uint64_t last_ts;
	uint64_t written; /* bytes of whole packets in the file */
	int err;
	char errbuf[256];
};

static int fail(struct vt_perfetto *pf, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct vt_perfetto *pf, int err, const char *fmt, ...)
{
	va_list ap;

	if (pf->err)
		return pf->err;
	va_start(ap, fmt);
	vsnprintf(pf->errbuf, sizeof(pf->errbuf), fmt, ap);
	va_end(ap);
	__atomic_store_n(&pf->err, err, __ATOMIC_RELEASE);
	return err;
}

/* The first failure, read by the CPUs' threads without the lock. */
static int failed(const struct vt_perfetto *pf)
{
	return __atomic_load_n(&pf->err, __ATOMIC_ACQUIRE);
}

/* Adds @pid to @set. Return: 1 if it was not in it, 0 if it was, -ENOMEM. */
static int pid_set_add(struct pid_set *set, int pid)
{
	size_t word = (size_t)pid / 64, n;
	uint64_t *words, bit = 1ull << (pid % 64);

	if (word >= set->nr_words) {
		n = word + 1 > 2 * set->nr_words ? word + 1 : 2 * set->nr_words;
		words = reallocarray(set->words, n, sizeof(*words));
		if (!words)
			return -ENOMEM;
		memset(words + set->nr_words, 0,
		       (n - set->nr_words) * sizeof(*words));
		set->words = words;
		set->nr_words = n;
	}
	if (set->words[word] & bit)
		return 0;
	set->words[word] |= bit;
	return 1;
}

static bool pid_set_has(const struct pid_set *set, int pid)
{
	return (size_t)pid / 64 < set->nr_words &&
	       set->words[pid / 64] & 1ull << (pid % 64);
}

/*
 * Writes @pb out whole, or not at all: after a failed write the file is
 * cut back to the packets written before, and nothing more is written.
 * Called with @pf->lock held once readers may call in (before that,
 * from vt_perfetto_create(), by the only thread there is).
 */
static int write_buffer(struct vt_perfetto *pf, struct vt_pb *pb)
{
	const unsigned char *p = pb->buf;
	size_t left = pb->len;
	ssize_t n;
	int err;

	if (pf->err)
		return pf->err;
	if (pb->err)
		return fail(pf, pb->err, "encoding the trace: %s",
			    strerror(-pb->err));
	while (left) {
		n = write(pf->fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			if (ftruncate(pf->fd, pf->written) ||
			    lseek(pf->fd, pf->written, SEEK_SET) < 0)
				return fail(
					pf, err,
					"writing the trace: %s (and cutting it back to whole packets: %s)",
					strerror(-err), strerror(errno));
			return fail(pf, err, "writing the trace: %s",
				    strerror(-err));
		}
		p += n;
		left -= n;
	}
	pf->written += pb->len;
	vt_pb_reset(pb);
	return 0;
}

/* Opens a TracePacket on the file's sequence. */
static void packet_begin(struct vt_pb *pb)
{
	vt_pb_begin(pb, PF_TRACE_PACKET);
	vt_pb_varint(pb, PF_PACKET_TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
}

/* A packet's timestamp: ftrace clock to boot time. */
static uint64_t boot_time(struct vt_perfetto *pf, uint64_t ts)
{
	if (pf->ftrace_clock && pf->have_clock_pair)
		return ts + (pf->boot_ts - pf->ftrace_ts);
	return ts;
}

static int ftrace_clock_of(const char *clock)
{
	if (!clock || !strcmp(clock, "boot"))
		return 0;
	if (!strcmp(clock, "local"))
		return PF_FTRACE_CLOCK_LOCAL;
	if (!strcmp(clock, "mono_raw"))
		return PF_FTRACE_CLOCK_MONO_RAW;
	/*
	 * global, mono, uptime, perf, x86-tsc, counter: Perfetto has no
	 * name for them, and treats "global" as a clock of this sequence
	 * placed by the ftrace/boot pairs, which is what each of them is.
	 */
	return PF_FTRACE_CLOCK_GLOBAL;
}

static void bundle_begin(struct vt_perfetto *pf, int cpu, uint64_t ts)
{
	struct cpu_state *c = &pf->cpus[cpu];
	struct vt_pb *pb = &c->pb;

	packet_begin(pb);
	vt_pb_begin(pb, PF_PACKET_FTRACE_EVENTS);
	vt_pb_varint(pb, PF_BUNDLE_CPU, cpu);
	if (c->lost)
		vt_pb_varint(pb, PF_BUNDLE_LOST_EVENTS, 1);
	c->lost = false;
	if (pf->ftrace_clock) {
		pthread_mutex_lock(&pf->lock);
		/*
		 * Without a measured pair: the identity, at the first bundle's
		 * first event, and the same pair in every bundle after it.
		 * Perfetto adds each new pair as a snapshot of the sequence's
		 * clock; a pair earlier than the last (another CPU's bundle
		 * starting earlier) marks the clock non-monotonic and drops
		 * every later event (clock_sync_failure_no_path).
		 */
		if (!pf->have_clock_pair) {
			pf->ftrace_ts = (int64_t)ts;
			pf->boot_ts = (int64_t)ts;
			pf->have_clock_pair = true;
		}
		vt_pb_varint(pb, PF_BUNDLE_FTRACE_CLOCK, pf->ftrace_clock);
		vt_pb_int(pb, PF_BUNDLE_FTRACE_TIMESTAMP, pf->ftrace_ts);
		vt_pb_int(pb, PF_BUNDLE_BOOT_TIMESTAMP, pf->boot_ts);
		pthread_mutex_unlock(&pf->lock);
	}
	c->open = true;
}

static int bundle_flush(struct vt_perfetto *pf, int cpu)
{
	struct cpu_state *c = &pf->cpus[cpu];
	int ret;

	if (!c->open)
		return 0;
	vt_pb_end(&c->pb);
	vt_pb_end(&c->pb);
	c->open = false;
	pthread_mutex_lock(&pf->lock);
	ret = write_buffer(pf, &c->pb);
	pthread_mutex_unlock(&pf->lock);
	return ret;
}

/* Called as write_buffer() is. */
static int misc_flush(struct vt_perfetto *pf, bool force)
{
	if (!force && pf->misc.len < MISC_FLUSH_BYTES && !pf->misc.err)
		return 0;
	return write_buffer(pf, &pf->misc);
}

static void find_print(struct vt_perfetto *pf)
{
	struct tep_event *print;

	print = tep_find_event_by_name(pf->tep, "ftrace", "print");
	pf->print_id = print ? print->id : -1;
	pf->print_buf = print ? tep_find_field(print, "buf") : NULL;
}

int vt_perfetto_create(struct vt_perfetto **pfp, int fd,
		       const struct vt_perfetto_opts *opts)
{
	struct vt_perfetto *pf;
	int i, ret;

	*pfp = NULL;
	if (!opts || !opts->tep || opts->ncpus <= 0 || fd < 0)
		return -EINVAL;
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return -ENOMEM;
	pf->cpus = calloc(opts->ncpus, sizeof(*pf->cpus));
	if (!pf->cpus) {
		free(pf);
		return -ENOMEM;
	}
	pthread_mutex_init(&pf->lock, NULL);
	pf->tep = opts->tep;
	pf->fd = fd;
	pf->ncpus = opts->ncpus;
	pf->ftrace_clock = ftrace_clock_of(opts->clock);
	pf->have_clock_pair = opts->have_clock_pair;
	pf->ftrace_ts = opts->ftrace_ts;
	pf->boot_ts = opts->boot_ts;
	pf->new_pid = opts->new_pid;
	pf->new_pid_ctx = opts->new_pid_ctx;
	for (i = 0; i < pf->ncpus; i++) {
		vt_pb_init(&pf->cpus[i].pb);
		trace_seq_init(&pf->cpus[i].scratch);
		pf->cpus[i].first_ts = UINT64_MAX;
	}
	vt_pb_init(&pf->misc);
	vt_pf_translator_init(&pf->tr, pf->tep, opts->formats);
	find_print(pf);

	/* The sequence starts with no interned or track state. */
	packet_begin(&pf->misc);
	vt_pb_varint(&pf->misc, PF_PACKET_SEQUENCE_FLAGS,
		     PF_SEQ_INCREMENTAL_STATE_CLEARED);
	vt_pb_varint(&pf->misc, PF_PACKET_FIRST_PACKET_ON_SEQUENCE, 1);
	vt_pb_end(&pf->misc);
	ret = misc_flush(pf, true);
	if (ret) {
		vt_perfetto_free(pf);
		return ret;
	}
	*pfp = pf;
	return 0;
}

/*
 * The uuid of the counter track called @name, described on first use.
 * Called with @pf->lock held, as is everything that writes @pf->misc.
 */
static int track_uuid(struct vt_perfetto *pf, const char *name, uint64_t *uuid)
{
	struct vt_pb *pb = &pf->misc;
	struct track *t;
	int i;

	for (i = 0; i < pf->nr_tracks; i++) {
		if (!strcmp(pf->tracks[i].name, name)) {
			*uuid = pf->tracks[i].uuid;
			return 0;
		}
	}
	if (pf->nr_tracks == TRACKS_MAX)
		return -ENOSPC;
	t = &pf->tracks[pf->nr_tracks];
	t->name = strdup(name);
	if (!t->name)
		return -ENOMEM;
	t->uuid = TRACK_UUID_BASE + pf->nr_tracks++;
	packet_begin(pb);
	vt_pb_begin(pb, PF_PACKET_TRACK_DESCRIPTOR);
	vt_pb_varint(pb, PF_TRACK_DESCRIPTOR_UUID, t->uuid);
	vt_pb_string(pb, PF_TRACK_DESCRIPTOR_NAME, t->name);
	vt_pb_begin(pb, PF_TRACK_DESCRIPTOR_COUNTER);
	vt_pb_end(pb);
	vt_pb_end(pb);
	vt_pb_end(pb);
	*uuid = t->uuid;
	return 0;
}

static void put_counter_value(struct vt_perfetto *pf, uint64_t ts,
			      uint64_t uuid, int64_t value)
{
	struct vt_pb *pb = &pf->misc;

	packet_begin(pb);
	vt_pb_varint(pb, PF_PACKET_TIMESTAMP, boot_time(pf, ts));
	vt_pb_begin(pb, PF_PACKET_TRACK_EVENT);
	vt_pb_varint(pb, PF_TRACK_EVENT_TYPE, PF_TRACK_EVENT_TYPE_COUNTER);
	vt_pb_varint(pb, PF_TRACK_EVENT_TRACK_UUID, uuid);
	vt_pb_int(pb, PF_TRACK_EVENT_COUNTER_VALUE, value);
	vt_pb_end(pb);
	vt_pb_end(pb);
}

/* Each value on its counter track, the track described on first use. */
static int put_counters(struct vt_perfetto *pf, uint64_t ts,
			const struct vt_pf_counter *counters, int nr)
{
	uint64_t uuid;
	int i, ret;

	for (i = 0; i < nr; i++) {
		ret = track_uuid(pf, counters[i].track, &uuid);
		if (ret == -ENOSPC)
			continue;
		if (ret)
			return ret;
		put_counter_value(pf, ts, uuid, counters[i].value);
	}
	return misc_flush(pf, false);
}

int vt_perfetto_add_packet(struct vt_perfetto *pf, const void *packet,
			   size_t len)
{
	int ret;

	pthread_mutex_lock(&pf->lock);
	vt_pb_bytes(&pf->misc, PF_TRACE_PACKET, packet, len);
	ret = misc_flush(pf, false);
	pthread_mutex_unlock(&pf->lock);
	return ret;
}

/* A thread met on @c's CPU: new to the trace, it is noted under the lock. */
static int note_pid(struct vt_perfetto *pf, struct cpu_state *c, int pid)
{
	int ret;

	if (pid < 0 || pid >= PID_LIMIT || pid_set_has(&c->pids, pid))
		return 0;
	ret = pid_set_add(&c->pids, pid);
	if (ret < 0)
		return ret;
	pthread_mutex_lock(&pf->lock);
	ret = pid_set_add(&pf->pids, pid);
	if (ret > 0 && pf->new_pid)
		pf->new_pid(pf->new_pid_ctx, pid);
	pthread_mutex_unlock(&pf->lock);
	return ret < 0 ? ret : 0;
}

static int tgid_of(const struct vt_perfetto *pf, int pid)
{
	return (size_t)pid < pf->nr_tgids ? pf->tgids[pid] : 0;
}

/*
 * An atrace marker names its writer's process. A trace.dat keeps no
 * tgids, and without one Perfetto's importer gives the marker's process
 * a main thread of its own beside the writer of the same tid. Only for a
 * thread of no known tgid: saved_tgids, read at the end, still wins.
 * Once a thread's process is known, its markers on @c's CPU pass by.
 */
static int note_marker_tgid(struct vt_perfetto *pf, struct cpu_state *c,
			    int tid, struct tep_record *record)
{
	const struct tep_format_field *f = pf->print_buf;
	struct vt_marker m;
	int ret = 0;

	if (!f || tid <= 0 || tid >= PID_LIMIT ||
	    vt_pf_record_type(&pf->tr, record) != pf->print_id ||
	    f->offset >= record->size || pid_set_has(&c->marker_pids, tid))
		return 0;
	pthread_mutex_lock(&pf->lock);
	if (!tgid_of(pf, tid) &&
	    !vt_marker_parse((const char *)record->data + f->offset,
			     record->size - f->offset, &m) &&
	    m.pid > 0)
		ret = vt_perfetto_set_tgid(pf, tid, m.pid);
	if (tgid_of(pf, tid))
		ret = pid_set_add(&c->marker_pids, tid);
	pthread_mutex_unlock(&pf->lock);
	return ret == -ENOMEM ? ret : 0;
}

int vt_perfetto_add_record(struct vt_perfetto *pf, struct tep_record *record)
{
	struct vt_pf_counter counters[PF_COUNTERS_MAX];
	int cpu = record->cpu, pid, nr_counters, ret;
	struct cpu_state *c;
	struct vt_pb *pb;

	ret = failed(pf);
	if (ret)
		return ret;
	if (cpu < 0 || cpu >= pf->ncpus)
		return -ERANGE;
	c = &pf->cpus[cpu];
	pb = &c->pb;
	if (record->missed_events) {
		c->lost = true;
		if (record->missed_events > 0)
			c->lost_events += record->missed_events;
		ret = bundle_flush(pf, cpu);
		if (ret)
			return ret;
	}
	if (!c->open)
		bundle_begin(pf, cpu, record->ts);

	pid = vt_pf_record_pid(&pf->tr, record);
	ret = note_pid(pf, c, pid);
	if (!ret)
		ret = note_marker_tgid(pf, c, pid, record);
	if (ret) {
		pthread_mutex_lock(&pf->lock);
		ret = fail(pf, ret, "out of memory");
		pthread_mutex_unlock(&pf->lock);
		return ret;
	}
	vt_pb_begin_short(pb, PF_BUNDLE_EVENT);
	vt_pb_varint(pb, PF_EVENT_TIMESTAMP, record->ts);
	vt_pb_varint(pb, PF_EVENT_PID, (uint32_t)pid);
	nr_counters =
		vt_pf_translate(&pf->tr, &c->scratch, pb, record, counters);
	vt_pb_end(pb);
	if (nr_counters) {
		pthread_mutex_lock(&pf->lock);
		ret = put_counters(pf, record->ts, counters, nr_counters);
		if (ret)
			ret = fail(pf, ret, "counter tracks: %s",
				   strerror(-ret));
		pthread_mutex_unlock(&pf->lock);
		if (ret)
			return ret;
	}

	c->events++;
	if (record->ts < c->first_ts)
		c->first_ts = record->ts;
	if (record->ts > c->last_ts)
		c->last_ts = record->ts;
	if (pb->len >= BUNDLE_FLUSH_BYTES || pb->err)
		return bundle_flush(pf, cpu);
	return 0;
}

int vt_perfetto_set_tgid(struct vt_perfetto *pf, int pid, int tgid)
{
	size_t n;
	int *tgids;

	if (pid <= 0 || pid >= PID_LIMIT || tgid <= 0 || tgid >= PID_LIMIT)
		return -EINVAL;
	if ((size_t)pid >= pf->nr_tgids) {
		n = (size_t)pid + 1 > 2 * pf->nr_tgids ? (size_t)pid + 1 :
							 2 * pf->nr_tgids;
		tgids = reallocarray(pf->tgids, n, sizeof(*tgids));
		if (!tgids)
			return -ENOMEM;
		memset(tgids + pf->nr_tgids, 0,
		       (n - pf->nr_tgids) * sizeof(*tgids));
		pf->tgids = tgids;
		pf->nr_tgids = n;
	}
	pf->tgids[pid] = tgid;
	return 0;
}

/*
 * A process for each thread group with a thread seen, named by its
 * leader's comm: Perfetto names a process track by it.
 */
static void put_processes(struct vt_perfetto *pf, struct vt_pb *pb)
{
	int pid, tgid, max = 0;
	uint64_t *done;
	size_t words;

	for (pid = 1; (size_t)pid < pf->nr_tgids; pid++)
		if (pf->tgids[pid] > max)
			max = pf->tgids[pid];
	words = max / 64 + 1;
	done = calloc(words, sizeof(*done));
	if (!done) {
		pb->err = pb->err ?: -ENOMEM;
		return;
	}
	for (pid = 1; (size_t)pid < pf->nr_tgids; pid++) {
		tgid = pf->tgids[pid];
		if (!tgid || !pid_set_has(&pf->pids, pid) ||
		    done[tgid / 64] & 1ull << (tgid % 64))
			continue;
		done[tgid / 64] |= 1ull << (tgid % 64);
		vt_pb_begin(pb, PF_PROCESS_TREE_PROCESSES);
		vt_pb_int(pb, PF_PROCESS_PID, tgid);
		if (tep_is_pid_registered(pf->tep, tgid))
			vt_pb_string(pb, PF_PROCESS_CMDLINE,
				     tep_data_comm_from_pid(pf->tep, tgid));
		vt_pb_end(pb);
	}
	free(done);
}

int vt_perfetto_set_cpu_stats(struct vt_perfetto *pf, int cpu,
			      const struct vt_perfetto_cpu_stats *stats)
{
	if (cpu < 0 || cpu >= pf->ncpus)
		return -ERANGE;
	pf->cpus[cpu].stats = *stats;
	pf->cpus[cpu].have_stats = true;
	return 0;
}

/* Thread names for every pid seen, a packet per MISC_FLUSH_BYTES. */
static int put_process_tree(struct vt_perfetto *pf)
{
	struct vt_pb *pb = &pf->misc;
	bool open = false;
	size_t w;
	int pid, ret;

	if (pf->nr_tgids) {
		packet_begin(pb);
		vt_pb_varint(pb, PF_PACKET_TIMESTAMP,
			     boot_time(pf, pf->first_ts));
		vt_pb_begin(pb, PF_PACKET_PROCESS_TREE);
		put_processes(pf, pb);
		open = true;
	}
	for (w = 0; w < pf->pids.nr_words; w++) {
		if (!pf->pids.words[w])
			continue;
		for (pid = w * 64; pid < (int)(w + 1) * 64; pid++) {
			if (!pid_set_has(&pf->pids, pid) ||
			    !tep_is_pid_registered(pf->tep, pid))
				continue;
			if (!open) {
				packet_begin(pb);
				vt_pb_varint(pb, PF_PACKET_TIMESTAMP,
					     boot_time(pf, pf->first_ts));
				vt_pb_begin(pb, PF_PACKET_PROCESS_TREE);
				open = true;
			}
			vt_pb_begin(pb, PF_PROCESS_TREE_THREADS);
			vt_pb_int(pb, PF_THREAD_TID, pid);
			vt_pb_string(pb, PF_THREAD_NAME,
				     tep_data_comm_from_pid(pf->tep, pid));
			if (tgid_of(pf, pid))
				vt_pb_int(pb, PF_THREAD_TGID, tgid_of(pf, pid));
			vt_pb_end(pb);
			if (pb->len < MISC_FLUSH_BYTES)
				continue;
			vt_pb_end(pb);
			vt_pb_end(pb);
			open = false;
			ret = misc_flush(pf, true);
			if (ret)
				return ret;
		}
	}
	if (open) {
		vt_pb_end(pb);
		vt_pb_end(pb);
	}
	return misc_flush(pf, true);
}

static void put_ftrace_stats(struct vt_perfetto *pf)
{
	struct vt_pb *pb = &pf->misc;
	const struct cpu_state *c;
	uint64_t overrun;
	int cpu;

	packet_begin(pb);
	vt_pb_varint(pb, PF_PACKET_TIMESTAMP, boot_time(pf, pf->last_ts));
	vt_pb_begin(pb, PF_PACKET_FTRACE_STATS);
	vt_pb_varint(pb, PF_FTRACE_STATS_PHASE,
		     PF_FTRACE_STATS_PHASE_END_OF_TRACE);
	for (cpu = 0; cpu < pf->ncpus; cpu++) {
		c = &pf->cpus[cpu];
		/* The loss the records showed, if the kernel's is lower. */
		overrun = c->stats.overrun > c->lost_events ? c->stats.overrun :
							      c->lost_events;
		vt_pb_begin(pb, PF_FTRACE_STATS_CPU_STATS);
		vt_pb_varint(pb, PF_CPU_STATS_CPU, cpu);
		if (c->have_stats) {
			vt_pb_varint(pb, PF_CPU_STATS_ENTRIES,
				     c->stats.entries);
			vt_pb_varint(pb, PF_CPU_STATS_COMMIT_OVERRUN,
				     c->stats.commit_overrun);
			vt_pb_varint(pb, PF_CPU_STATS_BYTES_READ,
				     c->stats.bytes);
			vt_pb_varint(pb, PF_CPU_STATS_DROPPED_EVENTS,
				     c->stats.dropped_events);
			vt_pb_varint(pb, PF_CPU_STATS_READ_EVENTS,
				     c->stats.read_events);
		}
		vt_pb_varint(pb, PF_CPU_STATS_OVERRUN, overrun);
		vt_pb_end(pb);
	}
	vt_pb_end(pb);
	vt_pb_end(pb);
}

int vt_perfetto_finish(struct vt_perfetto *pf)
{
	const struct cpu_state *c;
	int cpu, ret;

	pf->first_ts = UINT64_MAX;
	for (cpu = 0; cpu < pf->ncpus; cpu++) {
		ret = bundle_flush(pf, cpu);
		if (ret)
			return ret;
		c = &pf->cpus[cpu];
		if (c->first_ts < pf->first_ts)
			pf->first_ts = c->first_ts;
		if (c->last_ts > pf->last_ts)
			pf->last_ts = c->last_ts;
	}
	if (pf->err)
		return pf->err;
	if (!vt_perfetto_events(pf))
		pf->first_ts = 0;
	pthread_mutex_lock(&pf->lock);
	ret = put_process_tree(pf);
	if (!ret) {
		put_ftrace_stats(pf);
		ret = misc_flush(pf, true);
	}
	pthread_mutex_unlock(&pf->lock);
	return ret;
}

uint64_t vt_perfetto_events(const struct vt_perfetto *pf)
{
	uint64_t events = 0;
	int cpu;

	for (cpu = 0; cpu < pf->ncpus; cpu++)
		events += pf->cpus[cpu].events;
	return events;
}

const char *vt_perfetto_strerror(const struct vt_perfetto *pf)
{
	return pf->err ? pf->errbuf : "";
}

void vt_perfetto_free(struct vt_perfetto *pf)
{
	int t;

	if (!pf)
		return;
	for (t = 0; t < pf->ncpus; t++) {
		vt_pb_free(&pf->cpus[t].pb);
		trace_seq_destroy(&pf->cpus[t].scratch);
		free(pf->cpus[t].pids.words);
		free(pf->cpus[t].marker_pids.words);
	}
	for (t = 0; t < pf->nr_tracks; t++)
		free(pf->tracks[t].name);
	vt_pb_free(&pf->misc);
	vt_pf_translator_release(&pf->tr);
	free(pf->pids.words);
	free(pf->tgids);
	free(pf->cpus);
	pthread_mutex_destroy(&pf->lock);
	free(pf);
}
