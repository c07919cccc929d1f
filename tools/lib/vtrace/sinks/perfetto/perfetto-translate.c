// SPDX-License-Identifier: LGPL-2.1
/*
 * The Perfetto writer's translation of ftrace events (see
 * perfetto-translate.h).
 *
 * Per event id, how to encode it is worked out once (typed message,
 * generic, counters) and kept in @encs, which the CPUs' threads read
 * without a lock: an entry, once published, never changes.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "analysis/counter-events.h"
#include "sinks/perfetto/perfetto-format.h"
#include "sinks/perfetto/perfetto-translate.h"
#include "sinks/perfetto/protobuf.h"
#include "tracefs/event-formats.h"

enum enc_how {
	ENC_GENERIC,
	ENC_TYPED,
	/* Generic, with one field holding the formatted text. */
	ENC_PRINTK,
};

struct pf_event_enc {
	struct tep_event *event;
	enum enc_how how;
	const struct pf_typed_event *typed;
	/* ENC_TYPED: the format's field of each typed->fields[] entry. */
	struct tep_format_field *typed_fields[PF_TYPED_FIELDS_MAX];
	/* ENC_PRINTK: the field written as the formatted text. */
	struct tep_format_field *text_field;
	/* Counter values for tracks the writer adds (counter-events.h). */
	const struct vt_counter_event *counter;
	struct tep_format_field *counter_key;
	struct tep_format_field *counter_values[PF_COUNTERS_MAX];
};

static bool is_string_field(const struct tep_format_field *f)
{
	return f->flags & TEP_FIELD_IS_STRING;
}

static bool is_number_field(const struct tep_format_field *f)
{
	return !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC |
			     TEP_FIELD_IS_STRING)) &&
	       (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

/* Whether @kind can be read from @f. */
static bool kind_fits(uint8_t kind, const struct tep_format_field *f)
{
	switch (kind) {
	case PF_STRING:
		return is_string_field(f);
	case PF_UINT64_ARRAY:
		return (f->flags & TEP_FIELD_IS_ARRAY) &&
		       !(f->flags &
			 (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) &&
		       (f->elementsize == 4 || f->elementsize == 8);
	default:
		return is_number_field(f);
	}
}

static const struct pf_typed_event *find_typed(struct tep_event *event)
{
	size_t i;

	for (i = 0; i < vt_pf_nr_typed_events; i++)
		if (!strcmp(vt_pf_typed_events[i].name, event->name) &&
		    !strcmp(vt_pf_typed_events[i].system, event->system))
			return &vt_pf_typed_events[i];
	return NULL;
}

static void find_counter(struct pf_event_enc *enc, struct tep_event *event)
{
	const struct vt_counter_event *ce;
	int v;

	ce = vt_counter_event_find(event->system, event->name);
	if (!ce || !ce->own_track)
		return;
	if (ce->key_kind != VT_COUNTER_KEY_NONE) {
		enc->counter_key = tep_find_field(event, ce->key);
		if (!enc->counter_key)
			return;
	}
	for (v = 0; v < PF_COUNTERS_MAX && ce->values[v].field; v++) {
		enc->counter_values[v] =
			tep_find_field(event, ce->values[v].field);
		if (!enc->counter_values[v] ||
		    !is_number_field(enc->counter_values[v]))
			return;
	}
	enc->counter = ce;
}

static struct pf_event_enc *make_enc(struct vt_pf_translator *tr,
				     struct tep_event *event)
{
	const struct pf_typed_event *typed;
	struct tep_format_field *f;
	struct pf_event_enc *enc;
	const char *text;
	int i;

	enc = calloc(1, sizeof(*enc));
	if (!enc)
		return NULL;
	enc->event = event;
	typed = find_typed(event);
	if (typed) {
		enc->how = ENC_TYPED;
		enc->typed = typed;
		for (i = 0; typed->fields[i].name; i++) {
			f = tep_find_field(event, typed->fields[i].name);
			if (f && kind_fits(typed->fields[i].kind, f))
				enc->typed_fields[i] = f;
		}
	} else if (!strcmp(event->system, "ftrace") &&
		   (!strcmp(event->name, "bprint") ||
		    !strcmp(event->name, "bputs"))) {
		/* Their text is a format and arguments: print it. */
		enc->how = ENC_PRINTK;
		if (tr->formats && vt_formats_need_printk(tr->formats)) {
			free(enc);
			return NULL;
		}
		text = strcmp(event->name, "bprint") ? "str" : "buf";
		enc->text_field = tep_find_field(event, text);
	}
	find_counter(enc, event);
	return enc;
}

/*
 * A number of @size bytes at @p: in line in this machine's byte order,
 * as tep_read_number() (a call per field, on the path of every event)
 * where the records are in the other.
 */
static uint64_t load(const struct vt_pf_translator *tr, const void *p, int size)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	if (!tr->native)
		return tep_read_number(tr->tep, p, size);
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		memcpy(&v16, p, sizeof(v16));
		return v16;
	case 4:
		memcpy(&v32, p, sizeof(v32));
		return v32;
	case 8:
		memcpy(&v64, p, sizeof(v64));
		return v64;
	default:
		return 0;
	}
}

static int common_field(const struct vt_pf_translator *tr,
			const struct tep_format_field *f,
			const struct tep_record *record)
{
	if (!f || f->offset + f->size > record->size)
		return -1;
	return (int)load(tr, (const unsigned char *)record->data + f->offset,
			 f->size);
}

int vt_pf_record_pid(const struct vt_pf_translator *tr,
		     const struct tep_record *record)
{
	return common_field(tr, tr->pid, record);
}

int vt_pf_record_type(const struct vt_pf_translator *tr,
		      const struct tep_record *record)
{
	return common_field(tr, tr->type, record);
}

/* Under @tr->lock: the encoding of event @id, worked out on first use. */
static struct pf_event_enc *make_enc_locked(struct vt_pf_translator *tr, int id)
{
	struct pf_event_enc **chunk = tr->encs[id >> 8], *enc;
	struct tep_event *event;

	if (chunk && chunk[id & 0xff])
		return chunk[id & 0xff];
	event = tep_find_event(tr->tep, id);
	if (!event && tr->formats && !vt_formats_need(tr->formats, id))
		event = tep_find_event(tr->tep, id);
	if (!event)
		return NULL;
	if (!chunk) {
		chunk = calloc(256, sizeof(*chunk));
		if (!chunk)
			return NULL;
		__atomic_store_n(&tr->encs[id >> 8], chunk, __ATOMIC_RELEASE);
	}
	enc = make_enc(tr, event);
	if (enc)
		__atomic_store_n(&chunk[id & 0xff], enc, __ATOMIC_RELEASE);
	return enc;
}

static struct pf_event_enc *get_enc(struct vt_pf_translator *tr,
				    struct tep_record *record)
{
	struct pf_event_enc **chunk, *enc;
	int id;

	id = vt_pf_record_type(tr, record);
	if (id < 0 || id > 0xffff)
		return NULL;
	chunk = __atomic_load_n(&tr->encs[id >> 8], __ATOMIC_ACQUIRE);
	enc = chunk ? __atomic_load_n(&chunk[id & 0xff], __ATOMIC_ACQUIRE) :
		      NULL;
	if (enc)
		return enc;
	pthread_mutex_lock(&tr->lock);
	enc = make_enc_locked(tr, id);
	pthread_mutex_unlock(&tr->lock);
	return enc;
}

/* A number field's value, sign-extended when the format says signed. */
static uint64_t read_number(struct vt_pf_translator *tr,
			    const struct tep_format_field *f,
			    const unsigned char *p)
{
	uint64_t v = load(tr, p, f->size);

	if (!(f->flags & TEP_FIELD_IS_SIGNED))
		return v;
	switch (f->size) {
	case 1:
		return (int64_t)(int8_t)v;
	case 2:
		return (int64_t)(int16_t)v;
	case 4:
		return (int64_t)(int32_t)v;
	default:
		return v;
	}
}

/*
 * Where @f's bytes are in @record: its own place, or for __data_loc and
 * __rel_loc the data its location word points at; a trailing char buf[]
 * (ftrace/print) runs to the record's end. False when they are not
 * inside the record.
 */
static bool field_bytes(struct vt_pf_translator *tr,
			const struct tep_format_field *f,
			const struct tep_record *record,
			const unsigned char **p, size_t *len)
{
	const unsigned char *data = record->data;
	size_t size = record->size;
	uint64_t loc, start, n;

	if (f->offset + (size_t)f->size > size)
		return false;
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		n = f->size ? (size_t)f->size : size - f->offset;
		*p = data + f->offset;
		*len = n;
		return true;
	}
	loc = load(tr, data + f->offset, f->size);
	start = loc & 0xffff;
	n = loc >> 16 & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		start += f->offset + f->size;
	if (start + n > size)
		return false;
	*p = data + start;
	*len = n;
	return true;
}

static void put_string_field(struct vt_pf_translator *tr, struct vt_pb *pb,
			     uint32_t number, const struct tep_format_field *f,
			     const struct tep_record *record)
{
	const unsigned char *p;
	size_t len;

	if (!field_bytes(tr, f, record, &p, &len))
		return;
	vt_pb_bytes(pb, number, p, strnlen((const char *)p, len));
}

/*
 * @n numbers of @size bytes at @p as a repeated varint field (sys_enter's
 * arguments): room is made once and the bytes written through a local
 * pointer, as this runs for every syscall traced.
 */
static void put_varints(const struct vt_pf_translator *tr, struct vt_pb *pb,
			uint32_t number, const unsigned char *p, size_t n,
			unsigned int size)
{
	uint64_t tag = (uint64_t)number << 3 | VT_PB_VARINT, v;
	unsigned char *out;
	size_t i;

	if (vt_pb_room(pb, n * 2 * VT_PB_VARINT_MAX))
		return;
	out = pb->buf + pb->len;
	for (i = 0; i < n; i++) {
		if (tr->native && size == sizeof(v))
			memcpy(&v, p + i * size, sizeof(v));
		else
			v = load(tr, p + i * size, size);
		out = vt_pb_put_varint(out, tag);
		out = vt_pb_put_varint(out, v);
	}
	pb->len = out - pb->buf;
}

static void put_typed(struct vt_pf_translator *tr, struct vt_pb *pb,
		      const struct pf_event_enc *enc,
		      const struct tep_record *record)
{
	const unsigned char *data = record->data, *p;
	const struct pf_field *pff;
	struct tep_format_field *f;
	size_t len;
	uint64_t v;
	int n;

	vt_pb_begin_short(pb, enc->typed->number);
	for (n = 0; enc->typed->fields[n].name; n++) {
		f = enc->typed_fields[n];
		pff = &enc->typed->fields[n];
		if (!f)
			continue;
		if (pff->kind == PF_STRING) {
			put_string_field(tr, pb, pff->number, f, record);
			continue;
		}
		if (pff->kind == PF_UINT64_ARRAY) {
			if (field_bytes(tr, f, record, &p, &len))
				put_varints(tr, pb, pff->number, p,
					    len / f->elementsize,
					    f->elementsize);
			continue;
		}
		if (f->offset + (size_t)f->size > (size_t)record->size)
			continue;
		v = read_number(tr, f, data + f->offset);
		switch (pff->kind) {
		case PF_INT32:
			vt_pb_int(pb, pff->number, (int32_t)v);
			break;
		case PF_UINT32:
			vt_pb_varint(pb, pff->number, (uint32_t)v);
			break;
		default:
			vt_pb_varint(pb, pff->number, v);
			break;
		}
	}
	vt_pb_end(pb);
}

/* A non-string array's elements, as {1,2,3}. */
static void put_array_field(struct vt_pf_translator *tr, struct trace_seq *seq,
			    struct vt_pb *pb, const struct tep_format_field *f,
			    const struct tep_record *record)
{
	unsigned int esize = f->elementsize;
	const unsigned char *p;
	size_t len, i;

	if (!field_bytes(tr, f, record, &p, &len))
		return;
	if (esize != 1 && esize != 2 && esize != 4 && esize != 8)
		esize = 1;
	trace_seq_reset(seq);
	trace_seq_putc(seq, '{');
	for (i = 0; i + esize <= len; i += esize)
		trace_seq_printf(seq, "%s%llu", i ? "," : "",
				 (unsigned long long)load(tr, p + i, esize));
	trace_seq_putc(seq, '}');
	vt_pb_bytes(pb, PF_GENERIC_FIELD_STR_VALUE, seq->buffer, seq->len);
}

/*
 * The event's text as the kernel prints it, without the newline; under
 * @tr->lock, as printing looks the event up in the tep.
 */
static void put_event_text(struct vt_pf_translator *tr, struct trace_seq *seq,
			   struct vt_pb *pb, struct tep_record *record)
{
	trace_seq_reset(seq);
	pthread_mutex_lock(&tr->lock);
	tep_print_event(tr->tep, seq, record, "%s", TEP_PRINT_INFO);
	pthread_mutex_unlock(&tr->lock);
	if (seq->len && seq->buffer[seq->len - 1] == '\n')
		seq->len--;
	vt_pb_bytes(pb, PF_GENERIC_FIELD_STR_VALUE, seq->buffer, seq->len);
}

static void put_generic(struct vt_pf_translator *tr, struct trace_seq *seq,
			struct vt_pb *pb, const struct pf_event_enc *enc,
			struct tep_record *record)
{
	const unsigned char *data = record->data;
	struct tep_format_field *f;
	uint64_t v;

	vt_pb_begin_short(pb, PF_EVENT_GENERIC);
	vt_pb_string(pb, PF_GENERIC_EVENT_NAME, enc->event->name);
	for (f = enc->event->format.fields; f; f = f->next) {
		vt_pb_begin_short(pb, PF_GENERIC_FIELD);
		vt_pb_string(pb, PF_GENERIC_FIELD_NAME, f->name);
		if (f == enc->text_field) {
			put_event_text(tr, seq, pb, record);
		} else if (is_string_field(f)) {
			put_string_field(tr, pb, PF_GENERIC_FIELD_STR_VALUE, f,
					 record);
		} else if (!is_number_field(f)) {
			put_array_field(tr, seq, pb, f, record);
		} else if (f->offset + (size_t)f->size <=
			   (size_t)record->size) {
			v = read_number(tr, f, data + f->offset);
			if (f->flags & TEP_FIELD_IS_SIGNED)
				vt_pb_int(pb, PF_GENERIC_FIELD_INT_VALUE, v);
			else
				vt_pb_varint(pb, PF_GENERIC_FIELD_UINT_VALUE,
					     v);
		}
		vt_pb_end(pb);
	}
	vt_pb_end(pb);
}

static int get_counters(struct vt_pf_translator *tr,
			const struct pf_event_enc *enc,
			const struct tep_record *record,
			struct vt_pf_counter *counters)
{
	const struct vt_counter_event *ce = enc->counter;
	const unsigned char *data = record->data, *p = NULL;
	struct tep_format_field *f;
	int64_t key_num = 0;
	size_t len = 0;
	int v, n = 0;

	f = enc->counter_key;
	if (f && is_string_field(f)) {
		if (!field_bytes(tr, f, record, &p, &len))
			return 0;
		len = strnlen((const char *)p, len);
	} else if (f && is_number_field(f)) {
		if (f->offset + (size_t)f->size > (size_t)record->size)
			return 0;
		key_num = (int64_t)read_number(tr, f, data + f->offset);
	}
	for (v = 0; v < PF_COUNTERS_MAX && ce->values[v].field; v++) {
		f = enc->counter_values[v];
		if (f->offset + (size_t)f->size > (size_t)record->size ||
		    !vt_counter_track_name(ce, v, (const char *)p, len, key_num,
					   counters[n].track,
					   sizeof(counters[n].track)))
			continue;
		counters[n++].value = read_number(tr, f, data + f->offset);
	}
	return n;
}

void vt_pf_translator_init(struct vt_pf_translator *tr, struct tep_handle *tep,
			   struct vt_formats *formats)
{
	/* Every event has the same common fields: any one tells them. */
	struct tep_event *any =
		tep_get_events_count(tep) ? tep_get_event(tep, 0) : NULL;

	tr->tep = tep;
	tr->formats = formats;
	memset(tr->encs, 0, sizeof(tr->encs));
	pthread_mutex_init(&tr->lock, NULL);
	tr->native = tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep);
	tr->type = any ? tep_find_common_field(any, "common_type") : NULL;
	tr->pid = any ? tep_find_common_field(any, "common_pid") : NULL;
}

int vt_pf_translate(struct vt_pf_translator *tr, struct trace_seq *scratch,
		    struct vt_pb *pb, struct tep_record *record,
		    struct vt_pf_counter counters[PF_COUNTERS_MAX])
{
	struct pf_event_enc *enc = get_enc(tr, record);

	if (!enc)
		return 0;
	if (enc->how == ENC_TYPED)
		put_typed(tr, pb, enc, record);
	else
		put_generic(tr, scratch, pb, enc, record);
	if (!enc->counter)
		return 0;
	return get_counters(tr, enc, record, counters);
}

void vt_pf_translator_release(struct vt_pf_translator *tr)
{
	size_t hi, lo;

	for (hi = 0; hi < 256; hi++) {
		if (!tr->encs[hi])
			continue;
		for (lo = 0; lo < 256; lo++)
			free(tr->encs[hi][lo]);
		free(tr->encs[hi]);
	}
	pthread_mutex_destroy(&tr->lock);
}
