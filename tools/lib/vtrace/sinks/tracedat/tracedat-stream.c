// SPDX-License-Identifier: LGPL-2.1
/*
 * A trace.dat's records read ahead by a thread (see tracedat-stream.h).
 *
 * The queue is a ring of a few batches: the reader fills one while the
 * caller takes records from another, so memory stays a few MiB whatever
 * the file's size. Records are copied out of libtracecmd's pages, which
 * the reader thread recycles on its own.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include <vtrace/tracedat-input.h>
#include <vtrace/tracedat-stream.h>

#define NR_BATCHES 4
#define BATCH_RECORDS 4096
#define BATCH_DATA (256 << 10)

struct stream_record {
	unsigned long long ts;
	unsigned long long offset;
	long long missed_events;
	struct tep_event *event;
	size_t data;
	int size;
	int cpu;
};

struct batch {
	struct stream_record recs[BATCH_RECORDS];
	char *data;
	size_t used;
	size_t cap;
	int nr;
};

struct vt_tracedat_stream {
	struct tracecmd_input *handle;
	int cpu;
	int nr_cpus;
	struct tep_record **heads; /* each CPU's next record */
	bool primed;
	struct tep_format_field *type_field;
	struct tep_event **events; /* by id */
	bool *want; /* by id; NULL: every event */
	int nr_ids;

	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t filled;
	pthread_cond_t emptied;
	struct batch batches[NR_BATCHES];
	unsigned int head; /* next batch the reader fills */
	unsigned int tail; /* next batch the caller takes */
	unsigned int count; /* filled batches not yet taken back */
	bool done;
	bool stop;
	int err;
	char msg[256];

	/* The caller's side. */
	struct batch *cur;
	int pos;
	struct tep_record record;
};

static struct tep_event *record_event(struct vt_tracedat_stream *s,
				      struct tep_record *record)
{
	unsigned long long id;

	if (!s->type_field ||
	    tep_read_number_field(s->type_field, record->data, &id) ||
	    id >= (unsigned long long)s->nr_ids)
		return NULL;
	return s->events[id];
}

static bool record_wanted(struct vt_tracedat_stream *s,
			  struct tep_record *record)
{
	unsigned long long id;

	if (!s->want)
		return true;
	if (!s->type_field ||
	    tep_read_number_field(s->type_field, record->data, &id) ||
	    id >= (unsigned long long)s->nr_ids)
		return false;
	return s->want[id];
}

/* Copies @record into @b; false if @b has no room left for it. */
static bool batch_add(struct batch *b, struct tep_record *record,
		      struct tep_event *event)
{
	struct stream_record *r;
	size_t size = record->size;
	char *data;

	if (b->nr == BATCH_RECORDS)
		return false;
	if (b->used + size > b->cap) {
		if (b->nr)
			return false;
		/* A record larger than a batch's data: one batch for it. */
		data = realloc(b->data, size);
		if (!data)
			return false;
		b->data = data;
		b->cap = size;
	}
	r = &b->recs[b->nr++];
	r->ts = record->ts;
	r->offset = record->offset;
	r->missed_events = record->missed_events;
	r->event = event;
	r->data = b->used;
	r->size = record->size;
	r->cpu = record->cpu;
	memcpy(b->data + b->used, record->data, size);
	b->used += size;
	return true;
}

/*
 * The next record by timestamp, the lowest CPU first on a tie, as
 * tracecmd_iterate_events() merges them. Not that function itself:
 * libtracecmd 1.3 looks up the event of every record with missed events
 * in the tep (tep_find_event_by_record() writes its event cache), which
 * this thread must not touch.
 */
static struct tep_record *read_next(struct vt_tracedat_stream *s)
{
	struct tep_record *record;
	int cpu, next = -1;

	if (s->cpu >= 0)
		return tracecmd_read_data(s->handle, s->cpu);
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!s->primed)
			s->heads[cpu] = tracecmd_read_data(s->handle, cpu);
		if (s->heads[cpu] &&
		    (next < 0 || s->heads[cpu]->ts < s->heads[next]->ts))
			next = cpu;
	}
	s->primed = true;
	if (next < 0)
		return NULL;
	record = s->heads[next];
	s->heads[next] = tracecmd_read_data(s->handle, next);
	return record;
}

static void *reader_thread(void *arg)
{
	struct vt_tracedat_stream *s = arg;
	struct tep_record *record = NULL;
	struct tep_event *event = NULL;
	bool eof = false;
	struct batch *b;
	int i, err = 0;

	while (!eof && !err) {
		pthread_mutex_lock(&s->lock);
		while (s->count == NR_BATCHES && !s->stop)
			pthread_cond_wait(&s->emptied, &s->lock);
		if (s->stop) {
			pthread_mutex_unlock(&s->lock);
			break;
		}
		b = &s->batches[s->head % NR_BATCHES];
		pthread_mutex_unlock(&s->lock);
		b->nr = 0;
		b->used = 0;
		for (;;) {
			if (!record) {
				record = read_next(s);
				if (!record) {
					eof = true;
					break;
				}
				if (!record_wanted(s, record)) {
					tracecmd_free_record(record);
					record = NULL;
					continue;
				}
				event = record_event(s, record);
				if (event && !vtrace_tracedat_record_ok(
						     event, record, s->msg,
						     sizeof(s->msg))) {
					err = -EINVAL;
					break;
				}
			}
			if (!batch_add(b, record, event)) {
				if (!b->nr)
					err = -ENOMEM;
				break;
			}
			tracecmd_free_record(record);
			record = NULL;
		}
		pthread_mutex_lock(&s->lock);
		s->head++;
		s->count++;
		pthread_cond_signal(&s->filled);
		pthread_mutex_unlock(&s->lock);
	}
	if (record)
		tracecmd_free_record(record);
	for (i = 0; i < s->nr_cpus; i++)
		if (s->heads[i])
			tracecmd_free_record(s->heads[i]);
	pthread_mutex_lock(&s->lock);
	s->err = err;
	s->done = true;
	pthread_cond_signal(&s->filled);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* The tables the reader thread looks events up in, without the tep. */
static int stream_tables(struct vt_tracedat_stream *s, struct tep_handle *tep,
			 const int *event_ids, int nr_event_ids)
{
	int i, n = tep_get_events_count(tep), max = -1;
	struct tep_event *event;

	for (i = 0; i < n; i++)
		if (tep_get_event(tep, i)->id > max)
			max = tep_get_event(tep, i)->id;
	s->nr_ids = max + 1;
	s->events = calloc(s->nr_ids ? s->nr_ids : 1, sizeof(*s->events));
	if (!s->events)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		event = tep_get_event(tep, i);
		if (event->id >= 0)
			s->events[event->id] = event;
	}
	if (n)
		s->type_field = tep_find_common_field(tep_get_event(tep, 0),
						      "common_type");
	if (!event_ids)
		return 0;
	s->want = calloc(s->nr_ids ? s->nr_ids : 1, sizeof(*s->want));
	if (!s->want)
		return -ENOMEM;
	for (i = 0; i < nr_event_ids; i++)
		if (event_ids[i] >= 0 && event_ids[i] < s->nr_ids)
			s->want[event_ids[i]] = true;
	return 0;
}

/**
 * vtrace_tracedat_stream_start - start reading a trace.dat's records ahead
 * @handle: the file, from vtrace_tracedat_open(); the stream's thread reads
 *	it until vtrace_tracedat_stream_free(), so use it for nothing else
 *	meanwhile
 * @cpu: only this CPU's records, or -1 for every CPU's, merged by
 *	timestamp as tracecmd_read_next_data() merges them
 * @event_ids: only records of these event ids, or NULL for every record
 * @nr_event_ids: the number of @event_ids
 * @out: set to the stream; free it with vtrace_tracedat_stream_free()
 *
 * Return: 0, or a negative errno.
 */
int vtrace_tracedat_stream_start(struct tracecmd_input *handle, int cpu,
				 const int *event_ids, int nr_event_ids,
				 struct vt_tracedat_stream **out)
{
	struct vt_tracedat_stream *s;
	int i, ret;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->handle = handle;
	s->cpu = cpu;
	s->nr_cpus = tep_get_cpus(tracecmd_get_tep(handle));
	s->heads = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->heads));
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->filled, NULL);
	pthread_cond_init(&s->emptied, NULL);
	ret = s->heads ? stream_tables(s, tracecmd_get_tep(handle), event_ids,
				       nr_event_ids) :
			 -ENOMEM;
	for (i = 0; !ret && i < NR_BATCHES; i++) {
		s->batches[i].data = malloc(BATCH_DATA);
		if (!s->batches[i].data)
			ret = -ENOMEM;
		s->batches[i].cap = BATCH_DATA;
	}
	if (!ret) {
		ret = -pthread_create(&s->thread, NULL, reader_thread, s);
		s->started = !ret;
	}
	if (ret) {
		vtrace_tracedat_stream_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

/**
 * vtrace_tracedat_stream_next - the next record of a stream
 * @s: the stream
 * @event: set to the record's event, or NULL for an id the file does not
 *	define
 *
 * The record stays valid until the next call; its data is a copy that
 * vtrace_tracedat_record_ok() has accepted.
 *
 * Return: the record, or NULL at the end of the records or on an error
 * (see vtrace_tracedat_stream_error()).
 */
struct tep_record *vtrace_tracedat_stream_next(struct vt_tracedat_stream *s,
					       struct tep_event **event)
{
	struct stream_record *r;

	for (;;) {
		if (s->cur && s->pos < s->cur->nr)
			break;
		pthread_mutex_lock(&s->lock);
		if (s->cur) {
			s->cur = NULL;
			s->tail++;
			s->count--;
			pthread_cond_signal(&s->emptied);
		}
		while (!s->count && !s->done)
			pthread_cond_wait(&s->filled, &s->lock);
		if (s->count)
			s->cur = &s->batches[s->tail % NR_BATCHES];
		pthread_mutex_unlock(&s->lock);
		if (!s->cur)
			return NULL;
		s->pos = 0;
	}
	r = &s->cur->recs[s->pos++];
	memset(&s->record, 0, sizeof(s->record));
	s->record.ts = r->ts;
	s->record.offset = r->offset;
	s->record.missed_events = r->missed_events;
	s->record.size = r->size;
	s->record.cpu = r->cpu;
	s->record.data = s->cur->data + r->data;
	*event = r->event;
	return &s->record;
}

/**
 * vtrace_tracedat_stream_error - why a stream ended
 * @s: the stream, after vtrace_tracedat_stream_next() returned NULL
 * @msg: set to the reason, for -EINVAL
 * @msg_size: the size of @msg
 *
 * Return: 0 at the end of the records, -EINVAL for a corrupt record
 * (the records before it were all returned), or another negative errno.
 */
int vtrace_tracedat_stream_error(struct vt_tracedat_stream *s, char *msg,
				 size_t msg_size)
{
	int err;

	pthread_mutex_lock(&s->lock);
	err = s->done ? s->err : 0;
	pthread_mutex_unlock(&s->lock);
	snprintf(msg, msg_size, "%s", err == -EINVAL ? s->msg : "");
	return err;
}

/**
 * vtrace_tracedat_stream_free - stop a stream's thread and free the stream
 * @s: the stream, may be NULL
 */
void vtrace_tracedat_stream_free(struct vt_tracedat_stream *s)
{
	int i;

	if (!s)
		return;
	if (s->started) {
		pthread_mutex_lock(&s->lock);
		s->stop = true;
		pthread_cond_signal(&s->emptied);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
	}
	for (i = 0; i < NR_BATCHES; i++)
		free(s->batches[i].data);
	pthread_cond_destroy(&s->emptied);
	pthread_cond_destroy(&s->filled);
	pthread_mutex_destroy(&s->lock);
	free(s->want);
	free(s->events);
	free(s->heads);
	free(s);
}
