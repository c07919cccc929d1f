// SPDX-License-Identifier: GPL-2.0
/*
 * trace_printk debug paths.  The default build adds no trace_printk formats
 * and writes nothing to the top-level buffer; the VTRACE_DEBUG=1 build logs
 * ftrace/bprint and ftrace/print events from vtrace's own code, gated by
 * each bit of debug_mask, and nothing while debug_mask is 0.
 *
 * trace_printk() always writes to the top-level buffer, so these tests use
 * it (and empty it) instead of an instance.  Both tests reload vtrace.ko
 * and leave the default build loaded with default parameters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vtrace_test.h"

#define DEBUG_MASK_PARAM "/sys/module/vtrace/parameters/debug_mask"
#define DBG_CONTROL 1 /* module/debug.h: emit and control files */
#define DBG_SIM 2 /* simulator steps */
#define DBG_BURST 4 /* burst threads */

enum printk_kind { PRINT, BPRINT, BPUTS, NR_PRINTK_KINDS };

static const char *const printk_events[NR_PRINTK_KINDS] = { "print", "bprint",
							    "bputs" };

/* trace_printk records found in the top-level buffer. */
struct printk_count {
	struct vt_format fmt[NR_PRINTK_KINDS];
	uint64_t text_lo, text_hi; /* vtrace.ko, from /proc/modules */
	char *formats; /* printk_formats text */
	uint64_t n[NR_PRINTK_KINDS];
	uint64_t outside_module; /* ip not in vtrace.ko */
	uint64_t unknown_format; /* bprint fmt not in printk_formats */
	char last_print[300]; /* text of the last print record */
};

static bool format_listed(const char *formats, uint64_t addr)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), "0x%llx : ", (unsigned long long)addr);
	for (p = strstr(formats, key); p; p = strstr(p + 1, key))
		if (p == formats || p[-1] == '\n')
			return true;
	return false;
}

static void count_printk(const struct vt_record *rec, void *arg)
{
	struct printk_count *c = arg;
	uint64_t ip, fmt;
	int k;

	for (k = 0; k < NR_PRINTK_KINDS && (int)rec->type != c->fmt[k].id; k++)
		;
	if (k == NR_PRINTK_KINDS)
		return;
	c->n[k]++;
	ip = vt_get_u64(vt_field(&c->fmt[k], "ip"), rec->data);
	if (ip < c->text_lo || ip >= c->text_hi)
		c->outside_module++;
	if (k == PRINT) {
		const struct vt_field *buf = vt_field(&c->fmt[k], "buf[]");
		size_t len = rec->size - buf->offset;

		if (len >= sizeof(c->last_print))
			len = sizeof(c->last_print) - 1;
		memcpy(c->last_print, (const char *)rec->data + buf->offset,
		       len);
		c->last_print[len] = '\0';
		return;
	}
	fmt = vt_get_u64(vt_field(&c->fmt[k], k == BPRINT ? "fmt" : "str"),
			 rec->data);
	if (!format_listed(c->formats, fmt))
		c->unknown_format++;
}

/* vtrace's address range: "vtrace SIZE REFS DEPS Live 0xADDR". */
static int module_range(uint64_t *lo, uint64_t *hi)
{
	char *text, *line;
	unsigned long long size, addr;
	size_t len;
	int ret = -ENOENT;

	text = vtrace_read_all("/proc/modules", &len);
	if (!text)
		return -errno;
	for (line = text; line;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, "vtrace ", 7))
			continue;
		if (sscanf(line, "vtrace %llu %*d %*s %*s 0x%llx", &size,
			   &addr) == 2 &&
		    addr) {
			*lo = addr;
			*hi = addr + size;
			ret = 0;
		}
		break;
	}
	free(text);
	return ret;
}

FIXTURE(printk)
{
	struct vt_tracing top;
	struct printk_count c;
	uint64_t saved_tracing_on;
	char saved_buffer_kb[32];
};

FIXTURE_SETUP(printk)
{
	const char *why = vt_skip_reason();
	char path[PATH_MAX], buf[64], *exp;
	int k;

	if (why)
		SKIP(return, "%s", why);
	if (!vt_ko(false))
		SKIP(return, "VTRACE_KO does not name the default build");
	vt_tracing_top(&self->top);
	for (k = 0; k < NR_PRINTK_KINDS; k++)
		ASSERT_EQ(0, vt_format_load("ftrace", printk_events[k],
					    &self->c.fmt[k]));
	ASSERT_EQ(0, vt_tracing_file(&self->top, "tracing_on", path,
				     sizeof(path)));
	ASSERT_EQ(0, vt_read_u64(path, &self->saved_tracing_on));
	/* "7 (expanded: 1408)" until the buffer is first used. */
	ASSERT_EQ(0, vt_tracing_file(&self->top, "buffer_size_kb", path,
				     sizeof(path)));
	ASSERT_LT(0, vt_read(path, buf, sizeof(buf)));
	exp = strstr(buf, "expanded: ");
	snprintf(self->saved_buffer_kb, sizeof(self->saved_buffer_kb), "%llu",
		 strtoull(exp ? exp + 10 : buf, NULL, 10));
	ASSERT_EQ(0, vt_tracing_write(&self->top, "buffer_size_kb", "1024"));
	ASSERT_EQ(0, vt_tracing_write(&self->top, "tracing_on", "1"));
}

FIXTURE_TEARDOWN(printk)
{
	free(self->c.formats);
	EXPECT_EQ(0, vt_module_restore_default());
	EXPECT_EQ(0, vt_tracing_clear(&self->top));
	EXPECT_EQ(0, vt_tracing_write(&self->top, "buffer_size_kb",
				      self->saved_buffer_kb));
	EXPECT_EQ(0, vt_tracing_write(&self->top, "tracing_on",
				      self->saved_tracing_on ? "1" : "0"));
}

static char *printk_formats(void)
{
	char path[PATH_MAX];
	size_t len;

	snprintf(path, sizeof(path), "%s/printk_formats", vt_tracefs());
	return vtrace_read_all(path, &len);
}

/* Load @ko with @params and learn where it is and what formats exist. */
static void load(struct __test_metadata *_metadata, FIXTURE_DATA(printk) * self,
		 const char *ko, const char *params)
{
	if (vt_module_loaded())
		ASSERT_EQ(0, vt_module_unload());
	ASSERT_EQ(0, vt_module_load(ko, params))
	TH_LOG("insmod %s %s", ko, params);
	ASSERT_EQ(0, module_range(&self->c.text_lo, &self->c.text_hi));
	free(self->c.formats);
	self->c.formats = printk_formats();
	ASSERT_NE(NULL, self->c.formats);
}

/* Count the trace_printk records now in the buffer, and empty it. */
static uint64_t drain(struct __test_metadata *_metadata,
		      FIXTURE_DATA(printk) * self)
{
	struct vt_consumed seen;
	int k;

	for (k = 0; k < NR_PRINTK_KINDS; k++)
		self->c.n[k] = 0;
	self->c.outside_module = 0;
	self->c.unknown_format = 0;
	EXPECT_EQ(0, vt_consume_all(&self->top, count_printk, &self->c, &seen));
	EXPECT_EQ(0, seen.missed_pages);
	return self->c.n[PRINT] + self->c.n[BPRINT] + self->c.n[BPUTS];
}

/* Drive every event source once: emit, simulator steps and a burst. */
static void exercise(struct __test_metadata *_metadata, bool emit, bool sim,
		     bool burst)
{
	char state[32];
	int i;

	if (emit)
		ASSERT_EQ(19, vt_emit("gpu_power_state 0 1"));
	if (sim)
		ASSERT_EQ(0, vt_ctl_write("sim/step", "5"));
	if (!burst)
		return;
	ASSERT_EQ(0, vt_ctl_write("burst/start", "100"));
	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(0, vt_ctl_status("burst/status", "state", state,
					   sizeof(state)));
		if (strcmp(state, "running"))
			break;
		usleep(10000);
	}
	ASSERT_STREQ("done", state);
}

TEST_F(printk, default_build_silent)
{
	char *before;

	ASSERT_EQ(0, vt_module_unload());
	before = printk_formats();
	ASSERT_NE(NULL, before);
	load(_metadata, self, vt_ko(false), "");
	EXPECT_STREQ(before, self->c.formats);
	free(before);
	EXPECT_FALSE(vt_exists(DEBUG_MASK_PARAM));

	ASSERT_EQ(0, vt_tracing_clear(&self->top));
	exercise(_metadata, true, true, true);
	EXPECT_EQ(0, drain(_metadata, self));

	/* The count does see print records: a trace_marker write is one. */
	ASSERT_EQ(0, vt_tracing_write(&self->top, "trace_marker", "vtrace"));
	EXPECT_EQ(1, drain(_metadata, self));
	EXPECT_EQ(1, self->c.n[PRINT]);
	EXPECT_EQ(1, self->c.outside_module);
}

TEST_F(printk, debug_build_mask)
{
	const char *ko = vt_ko(true);
	uint64_t mask;

	if (!ko || !vt_exists(ko))
		SKIP(return, "no debug build (VTRACE_DEBUG_KO)");
	load(_metadata, self, ko, "debug_mask=0");
	ASSERT_EQ(0, vt_read_u64(DEBUG_MASK_PARAM, &mask));
	EXPECT_EQ(0, mask);

	/* Mask 0: every path compiled in, none taken. */
	ASSERT_EQ(0, vt_tracing_clear(&self->top));
	exercise(_metadata, true, true, true);
	EXPECT_EQ(0, drain(_metadata, self));

	/*
	 * Bit 0: each emit logs its command verbatim (print) and its result
	 * (bprint), from vtrace.ko's code and formats.
	 */
	ASSERT_EQ(0, vt_write_str(DEBUG_MASK_PARAM, "1"));
	exercise(_metadata, true, false, false);
	EXPECT_EQ(2, drain(_metadata, self));
	EXPECT_EQ(1, self->c.n[PRINT]);
	EXPECT_EQ(1, self->c.n[BPRINT]);
	EXPECT_STREQ("gpu_power_state 0 1\n", self->c.last_print);
	EXPECT_EQ(0, self->c.outside_module);
	EXPECT_EQ(0, self->c.unknown_format);
	exercise(_metadata, true, false, false);
	exercise(_metadata, true, false, false);
	exercise(_metadata, true, false, false);
	EXPECT_EQ(6, drain(_metadata, self));
	EXPECT_EQ(3, self->c.n[PRINT]);
	EXPECT_EQ(0, self->c.outside_module);

	/* Bit 1: one bprint per simulator step, and nothing else. */
	ASSERT_EQ(0, vt_write_str(DEBUG_MASK_PARAM, "2"));
	ASSERT_EQ(0, vt_ctl_write("sim/step", "1"));
	EXPECT_EQ(1, drain(_metadata, self));
	ASSERT_EQ(0, vt_ctl_write("sim/step", "4"));
	EXPECT_EQ(4, drain(_metadata, self));
	EXPECT_EQ(4, self->c.n[BPRINT]);
	EXPECT_EQ(0, self->c.outside_module);
	EXPECT_EQ(0, self->c.unknown_format);
	exercise(_metadata, true, false, false);
	EXPECT_EQ(0, drain(_metadata, self));

	/* Bit 2: each burst thread logs its start and its end; emit nothing. */
	ASSERT_EQ(0, vt_write_str(DEBUG_MASK_PARAM, "4"));
	exercise(_metadata, true, false, true);
	EXPECT_EQ(2 * vt_nr_cpus("online"), drain(_metadata, self));
	EXPECT_EQ(2 * vt_nr_cpus("online"), self->c.n[BPRINT]);
	EXPECT_EQ(0, self->c.outside_module);
	EXPECT_EQ(0, self->c.unknown_format);

	/* Back to 0: silent again. */
	ASSERT_EQ(0, vt_write_str(DEBUG_MASK_PARAM, "0"));
	exercise(_metadata, true, true, true);
	EXPECT_EQ(0, drain(_metadata, self));
}

TEST_HARNESS_MAIN
