// SPDX-License-Identifier: GPL-2.0
/*
 * The in-line sub-buffer walk of tools/lib/vtrace (ring/subbuf-walk.h)
 * against libtraceevent's kbuffer, which it stands in for on the Perfetto
 * sink's path: sub-buffers laid out as the kernel writes them (every
 * event type, both long sizes, missed events counted and not), first
 * with exact expected events, then 20000 random ones where both must give
 * the same events, sizes, times and missed count. No tracefs needed.
 *
 * One difference is meant: kbuffer tells the missed events only while at
 * the sub-buffer's first entry, so after a leading time stamp it says 0;
 * the walk says what the header says.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kbuffer.h>

#include "ring/subbuf-walk.h"

#include "../kselftest_harness.h"

#define PAGE 4096
/* kbuffer reads a header past the commit: keep that inside the buffer. */
#define SLACK 64

struct page {
	unsigned char buf[PAGE + SLACK];
	int long_size;
	size_t used; /* bytes of events */
};

static void page_init(struct page *pg, int long_size, uint64_t ts)
{
	memset(pg, 0, sizeof(*pg));
	pg->long_size = long_size;
	memcpy(pg->buf, &ts, sizeof(ts));
}

static unsigned char *page_data(struct page *pg)
{
	return pg->buf + 8 + pg->long_size;
}

static void put_u32(struct page *pg, uint32_t v)
{
	memcpy(page_data(pg) + pg->used, &v, sizeof(v));
	pg->used += sizeof(v);
}

static void put_head(struct page *pg, uint32_t type_len, uint32_t delta)
{
	put_u32(pg, type_len | delta << 5);
}

/* A data event of @len bytes (a multiple of 4) filled with @fill. */
static void put_data(struct page *pg, uint32_t delta, uint32_t len, int fill)
{
	if (len && len <= 28 * 4) {
		put_head(pg, len / 4, delta);
	} else {
		put_head(pg, 0, delta);
		put_u32(pg, len + 4);
	}
	memset(page_data(pg) + pg->used, fill, len);
	pg->used += len;
}

static void put_long_delta(struct page *pg, uint32_t type_len, uint64_t v)
{
	put_head(pg, type_len, v & ((1u << SUBBUF_TS_SHIFT) - 1));
	put_u32(pg, v >> SUBBUF_TS_SHIFT);
}

static void put_padding(struct page *pg, uint32_t delta, uint32_t len)
{
	put_head(pg, SUBBUF_EVENT_PADDING, delta);
	put_u32(pg, len);
	pg->used += len - 4;
}

/* The commit word: the events' bytes, flags, a stored missed count. */
static void page_commit(struct page *pg, uint32_t flags, uint64_t missed)
{
	uint64_t commit = pg->used | flags;

	if (pg->long_size == 4) {
		uint32_t c32 = commit;

		memcpy(pg->buf + 8, &c32, 4);
		memcpy(page_data(pg) + pg->used, &missed, 4);
	} else {
		memcpy(pg->buf + 8, &commit, 8);
		memcpy(page_data(pg) + pg->used, &missed, 8);
	}
}

struct walked {
	size_t offset; /* of the data, from the sub-buffer's start */
	unsigned int size;
	uint64_t ts;
};

#define MAX_WALKED 1024

static int walk_inline(struct page *pg, struct walked *out, long long *missed)
{
	struct vt_subbuf_walk w;
	unsigned int size;
	const void *data;
	uint64_t ts;
	int n = 0;

	if (vt_subbuf_walk_init(&w, pg->buf, PAGE, pg->long_size))
		return -1;
	*missed = w.missed;
	while (n < MAX_WALKED && (data = vt_subbuf_walk_next(&w, &size, &ts)))
		out[n++] = (struct walked) {
			.offset = (const unsigned char *)data - pg->buf,
			.size = size,
			.ts = ts,
		};
	return n;
}

static int walk_kbuffer(struct page *pg, struct walked *out, long long *missed)
{
	struct kbuffer *kbuf;
	unsigned long long ts;
	void *data;
	int n = 0;

	kbuf = kbuffer_alloc(pg->long_size == 4 ? KBUFFER_LSIZE_4 :
						  KBUFFER_LSIZE_8,
			     KBUFFER_ENDIAN_LITTLE);
	if (!kbuf || kbuffer_load_subbuffer(kbuf, pg->buf) < 0) {
		kbuffer_free(kbuf);
		return -1;
	}
	*missed = kbuffer_missed_events(kbuf);
	for (data = kbuffer_read_event(kbuf, &ts); data && n < MAX_WALKED;
	     data = kbuffer_next_event(kbuf, &ts))
		out[n++] = (struct walked) {
			.offset = (unsigned char *)data - pg->buf,
			.size = kbuffer_event_size(kbuf),
			.ts = ts,
		};
	kbuffer_free(kbuf);
	return n;
}

/* Both walks, which must agree; returns the number of events. */
static int walk_both(struct __test_metadata *_metadata, struct page *pg,
		     struct walked *events, long long *missed)
{
	uint32_t first_type = page_data(pg)[0] & 0x1f;
	struct walked theirs[MAX_WALKED];
	long long their_missed = 0;
	int n, i;

	n = walk_inline(pg, events, missed);
	EXPECT_EQ(walk_kbuffer(pg, theirs, &their_missed), n);
	if (first_type < SUBBUF_EVENT_PADDING)
		EXPECT_EQ(their_missed, *missed);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(theirs[i].offset, events[i].offset);
		EXPECT_EQ(theirs[i].size, events[i].size);
		EXPECT_EQ(theirs[i].ts, events[i].ts);
	}
	return n;
}

TEST(every_event_type)
{
	const int long_sizes[] = { 8, 4 };
	struct walked ev[MAX_WALKED];
	long long missed;
	struct page pg;
	size_t header;
	int i;

	for (i = 0; i < 2; i++) {
		header = 8 + long_sizes[i];
		page_init(&pg, long_sizes[i], 1000000);
		put_data(&pg, 10, 8, 0xa1); /* small: type_len 2 */
		put_long_delta(&pg, SUBBUF_EVENT_TIME_EXTEND, 3ull << 30);
		put_data(&pg, 5, 200, 0xa2); /* large: type_len 0 */
		put_padding(&pg, 7, 24); /* a discarded event */
		put_data(&pg, 1, 112, 0xa3); /* largest small one */
		put_long_delta(&pg, SUBBUF_EVENT_TIME_STAMP, 5000000000ull);
		put_data(&pg, 4, 0, 0); /* an empty event, as type_len 0 */
		page_commit(&pg, 0, 0);

		ASSERT_EQ(4, walk_both(_metadata, &pg, ev, &missed));
		EXPECT_EQ(0, missed);
		EXPECT_EQ(header + 4, ev[0].offset);
		EXPECT_EQ(8, ev[0].size);
		EXPECT_EQ(1000010, ev[0].ts);
		EXPECT_EQ(header + 12 + 8 + 8, ev[1].offset);
		EXPECT_EQ(200, ev[1].size);
		EXPECT_EQ(1000010 + (3ull << 30) + 5, ev[1].ts);
		EXPECT_EQ(112, ev[2].size);
		EXPECT_EQ(1000010 + (3ull << 30) + 5 + 7 + 1, ev[2].ts);
		EXPECT_EQ(0, ev[3].size);
		EXPECT_EQ(5000000000ull + 4, ev[3].ts);
		EXPECT_EQ(0xa3, pg.buf[ev[2].offset + 111]);
	}
}

TEST(missed_events_counted_and_not)
{
	struct walked ev[MAX_WALKED];
	long long missed;
	struct page pg;

	page_init(&pg, 8, 1);
	put_data(&pg, 1, 16, 1);
	page_commit(&pg, SUBBUF_MISSED_EVENTS | SUBBUF_MISSED_STORED, 12345);
	EXPECT_EQ(1, walk_both(_metadata, &pg, ev, &missed));
	EXPECT_EQ(12345, missed);

	page_commit(&pg, SUBBUF_MISSED_EVENTS, 12345);
	EXPECT_EQ(1, walk_both(_metadata, &pg, ev, &missed));
	EXPECT_EQ(-1, missed);

	page_init(&pg, 4, 1);
	put_data(&pg, 1, 16, 1);
	page_commit(&pg, SUBBUF_MISSED_EVENTS | SUBBUF_MISSED_STORED, 77);
	EXPECT_EQ(1, walk_both(_metadata, &pg, ev, &missed));
	EXPECT_EQ(77, missed);
}

/* What kbuffer would read past the sub-buffer, the walk stops before. */
TEST(never_past_the_subbuffer)
{
	struct vt_subbuf_walk w;
	unsigned int size;
	struct page pg;
	uint64_t ts;
	int n = 0;

	page_init(&pg, 8, 1);
	put_data(&pg, 1, 8, 1);
	put_head(&pg, 0, 1);
	put_u32(&pg, 3); /* a length shorter than itself */
	page_commit(&pg, 0, 0);
	ASSERT_EQ(0, vt_subbuf_walk_init(&w, pg.buf, PAGE, 8));
	while (vt_subbuf_walk_next(&w, &size, &ts))
		n++;
	EXPECT_EQ(1, n);

	/* A commit larger than the sub-buffer; an event running off it. */
	page_init(&pg, 8, 1);
	put_data(&pg, 1, 8, 1);
	put_data(&pg, 1, 64, 2);
	page_commit(&pg, 0, 0);
	memcpy(pg.buf + 8, &(uint64_t) { ((1u << 27) - 1) }, 8);
	ASSERT_EQ(0, vt_subbuf_walk_init(&w, pg.buf, 16 + 12 + 40, 8));
	EXPECT_EQ(40 + 12, w.size);
	n = 0;
	while (vt_subbuf_walk_next(&w, &size, &ts))
		n++;
	EXPECT_EQ(1, n);

	EXPECT_EQ(-1, vt_subbuf_walk_init(&w, pg.buf, 15, 8));
	EXPECT_EQ(NULL, vt_subbuf_walk_next(&w, &size, &ts));
}

/* xorshift64: the same pages on every run. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

TEST(random_subbuffers_match_kbuffer)
{
	static const uint32_t missed_flags[] = {
		0,
		SUBBUF_MISSED_EVENTS,
		SUBBUF_MISSED_EVENTS | SUBBUF_MISSED_STORED,
	};
	struct walked ev[MAX_WALKED];
	uint64_t seed = 0x7674726163650001ull, total = 0;
	long long missed, stored;
	struct page pg;
	uint32_t flags;
	int i, kind;

	for (i = 0; i < 20000; i++) {
		page_init(&pg, rnd(&seed) % 2 ? 8 : 4, rnd(&seed) >> 8);
		while (pg.used + 8 + 200 + 8 < PAGE - 16) {
			kind = rnd(&seed) % 16;
			/* Now and then a sub-buffer ends early, as at a drain. */
			if (kind == 3 && rnd(&seed) % 4 == 0)
				break;
			if (kind == 0)
				put_long_delta(&pg, SUBBUF_EVENT_TIME_EXTEND,
					       rnd(&seed) >> 20);
			else if (kind == 1)
				put_long_delta(&pg, SUBBUF_EVENT_TIME_STAMP,
					       rnd(&seed) >> 8);
			else if (kind == 2)
				put_padding(&pg, rnd(&seed) % 1000,
					    4 + 4 * (rnd(&seed) % 30));
			else
				put_data(&pg, rnd(&seed) & 0x7ffffff,
					 4 * (rnd(&seed) % 50), i);
		}
		flags = missed_flags[i % 3];
		stored = rnd(&seed) % 100000;
		page_commit(&pg, flags, stored);
		total += walk_both(_metadata, &pg, ev, &missed);
		EXPECT_EQ(flags & SUBBUF_MISSED_STORED ? stored :
			  flags			       ? -1 :
							 0,
			  missed);
		if (_metadata->exit_code)
			break;
	}
	/* The pages held events: the walks compared something. */
	EXPECT_LT(20000 * 10, total);
}

TEST_HARNESS_MAIN
