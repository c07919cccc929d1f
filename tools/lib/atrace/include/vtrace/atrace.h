/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libvtrace-atrace: Android's userspace tracing API (<cutils/trace.h>) on
 * Linux, so that code written for Android builds unchanged:
 *
 *	#define ATRACE_TAG ATRACE_TAG_GRAPHICS
 *	#include <vtrace/atrace.h>
 *
 *	ATRACE_BEGIN("compose");
 *	...
 *	ATRACE_END();
 *
 * A tag is enabled while a "vtrace enable" or "vtrace record" of a category
 * carrying it is in effect (Android's debug.atrace.tags.enableflags). A
 * disabled tag costs one load and a branch; an enabled marker is one
 * write(2) of the line atrace writes ("B|pid|name", "E|pid", ...) to the
 * recording's trace_marker. See Documentation/libvtrace-atrace.rst.
 */
#ifndef _VTRACE_ATRACE_H
#define _VTRACE_ATRACE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Tag bits, with the values of libcutils' cutils/trace.h. */
#define ATRACE_TAG_NEVER 0
#define ATRACE_TAG_ALWAYS (1 << 0)
#define ATRACE_TAG_GRAPHICS (1 << 1)
#define ATRACE_TAG_INPUT (1 << 2)
#define ATRACE_TAG_VIEW (1 << 3)
#define ATRACE_TAG_WEBVIEW (1 << 4)
#define ATRACE_TAG_WINDOW_MANAGER (1 << 5)
#define ATRACE_TAG_ACTIVITY_MANAGER (1 << 6)
#define ATRACE_TAG_SYNC_MANAGER (1 << 7)
#define ATRACE_TAG_AUDIO (1 << 8)
#define ATRACE_TAG_VIDEO (1 << 9)
#define ATRACE_TAG_CAMERA (1 << 10)
#define ATRACE_TAG_HAL (1 << 11)
#define ATRACE_TAG_APP (1 << 12)
#define ATRACE_TAG_RESOURCES (1 << 13)
#define ATRACE_TAG_DALVIK (1 << 14)
#define ATRACE_TAG_RS (1 << 15)
#define ATRACE_TAG_BIONIC (1 << 16)
#define ATRACE_TAG_POWER (1 << 17)
#define ATRACE_TAG_PACKAGE_MANAGER (1 << 18)
#define ATRACE_TAG_SYSTEM_SERVER (1 << 19)
#define ATRACE_TAG_DATABASE (1 << 20)
#define ATRACE_TAG_NETWORK (1 << 21)
#define ATRACE_TAG_ADB (1 << 22)
#define ATRACE_TAG_VIBRATOR (1 << 23)
#define ATRACE_TAG_AIDL (1 << 24)
#define ATRACE_TAG_NNAPI (1 << 25)
#define ATRACE_TAG_RRO (1 << 26)
#define ATRACE_TAG_THERMAL (1 << 27)
#define ATRACE_TAG_LAST ATRACE_TAG_THERMAL

/* Reserved, as in libcutils: never a tag of a marker. */
#define ATRACE_TAG_NOT_READY (1ULL << 63)

#define ATRACE_TAG_VALID_MASK ((ATRACE_TAG_LAST - 1) | ATRACE_TAG_LAST)

#ifndef ATRACE_TAG
#define ATRACE_TAG ATRACE_TAG_NEVER
#elif ATRACE_TAG > ATRACE_TAG_VALID_MASK
#error ATRACE_TAG must be one of the ATRACE_TAG_* values of vtrace/atrace.h
#endif

/*
 * The enabled tags, in the first word of a page that the library replaces
 * with the read-only mapping of vtrace's tag file. Not part of the API: use
 * atrace_is_tag_enabled().
 */
extern uint64_t vtrace_atrace_tags_page[];

/* Out-of-line halves of the inline calls below; not to be called directly. */
void atrace_begin_body(const char *name);
void atrace_end_body(void);
void atrace_async_begin_body(const char *name, int32_t cookie);
void atrace_async_end_body(const char *name, int32_t cookie);
void atrace_instant_body(const char *name);
void atrace_int_body(const char *name, int32_t value);
void atrace_int64_body(const char *name, int64_t value);

void atrace_setup(void);
void atrace_init(void);
void atrace_update_tags(void);
void atrace_set_tracing_enabled(bool enabled);
uint64_t atrace_get_enabled_tags(void);

/* Not in Android's API. */
void vtrace_atrace_set_pid(int pid);

#define ATRACE_INIT() atrace_init()
#define ATRACE_GET_ENABLED_TAGS() atrace_get_enabled_tags()

/**
 * atrace_is_tag_enabled - whether markers of a tag are recorded now
 * @tag: ATRACE_TAG_* bits
 *
 * One load and a branch; usable as a guard around expensive work.
 *
 * Return: the bits of @tag that are enabled, 0 when none is.
 */
static inline uint64_t atrace_is_tag_enabled(uint64_t tag)
{
	return __atomic_load_n(&vtrace_atrace_tags_page[0], __ATOMIC_RELAXED) &
	       tag;
}

#define ATRACE_ENABLED() atrace_is_tag_enabled(ATRACE_TAG)

/**
 * atrace_begin - mark the beginning of a slice on the calling thread
 * @tag: ATRACE_TAG_* bits
 * @name: the slice's name
 *
 * Writes "B|pid|name". Slices nest; each is ended by atrace_end().
 */
static inline void atrace_begin(uint64_t tag, const char *name)
{
	if (__builtin_expect(atrace_is_tag_enabled(tag) != 0, 0))
		atrace_begin_body(name);
}

#define ATRACE_BEGIN(name) atrace_begin(ATRACE_TAG, name)

/**
 * atrace_end - end the calling thread's innermost slice
 * @tag: ATRACE_TAG_* bits
 *
 * Writes "E|pid".
 */
static inline void atrace_end(uint64_t tag)
{
	if (__builtin_expect(atrace_is_tag_enabled(tag) != 0, 0))
		atrace_end_body();
}

#define ATRACE_END() atrace_end(ATRACE_TAG)

/**
 * atrace_async_begin - begin an asynchronous slice
 * @tag: ATRACE_TAG_* bits
 * @name: the slice's name
 * @cookie: tells apart simultaneous slices of one name
 *
 * Writes "S|pid|name|cookie". Async slices need not nest and may end on
 * another thread; atrace_async_end() with the same name and cookie ends it.
 */
static inline void atrace_async_begin(uint64_t tag, const char *name,
				      int32_t cookie)
{
	if (__builtin_expect(atrace_is_tag_enabled(tag) != 0, 0))
		atrace_async_begin_body(name, cookie);
}

#define ATRACE_ASYNC_BEGIN(name, cookie) \
	atrace_async_begin(ATRACE_TAG, name, cookie)

/**
 * atrace_async_end - end an asynchronous slice
 * @tag: ATRACE_TAG_* bits
 * @name: the name given to atrace_async_begin()
 * @cookie: the cookie given to atrace_async_begin()
 *
 * Writes "F|pid|name|cookie".
 */
static inline void atrace_async_end(uint64_t tag, const char *name,
				    int32_t cookie)
{
	if (__builtin_expect(atrace_is_tag_enabled(tag) != 0, 0))
		atrace_async_end_body(name, cookie);
}

#define ATRACE_ASYNC_END(name, cookie) \
	atrace_async_end(ATRACE_TAG, name, cookie)

/**
 * atrace_instant - mark an instant, an event without duration
 * @tag: ATRACE_TAG_* bits
 * @name: the instant's name
 *
 * Writes "I|pid|name".
 */
static inline void atrace_instant(uint64_t tag, const char *name)
{
	if (__builtin_expect(atrace_is_tag_enabled(tag) != 0, 0))
		atrace_instant_body(name);
}

#define ATRACE_INSTANT(name) atrace_instant(ATRACE_TAG, name)

/**
 * atrace_int - record a counter's value
 * @tag: ATRACE_TAG_* bits
 * @name: the counter's name
 * @value: its value now
 *
 * Writes "C|pid|name|value".
 */
static inline void atrace_int(uint64_t tag, const char *name, int32_t value)
{
	if (__builtin_expect(atrace_is_tag_enabled(tag) != 0, 0))
		atrace_int_body(name, value);
}

#define ATRACE_INT(name, value) atrace_int(ATRACE_TAG, name, value)

/**
 * atrace_int64 - record a 64-bit counter's value
 * @tag: ATRACE_TAG_* bits
 * @name: the counter's name
 * @value: its value now
 *
 * Writes "C|pid|name|value".
 */
static inline void atrace_int64(uint64_t tag, const char *name, int64_t value)
{
	if (__builtin_expect(atrace_is_tag_enabled(tag) != 0, 0))
		atrace_int64_body(name, value);
}

#define ATRACE_INT64(name, value) atrace_int64(ATRACE_TAG, name, value)

#ifdef __cplusplus
}
#endif

#endif /* _VTRACE_ATRACE_H */
