// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs vtrace/emit: every command read back from the ring buffer with
 * exact field values (through an event filter built from the expected
 * values and by decoding trace_pipe_raw), bad commands refused with the
 * contract's errno and nothing recorded, and concurrent writers.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vtrace_test.h"

#define MAX_CMD_LEN 255 /* the contract's limit, newline excluded */

static uint64_t now_ns(void)
{
	struct timespec ts;

	/* ktime_get_ns() is CLOCK_MONOTONIC. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct field_value {
	const char *name;
	const char *value; /* as the filter and strtoull/strtoll read it */
};

/* Records of one event type, collected by collect(). */
struct collected {
	int type;
	int nr;
	unsigned char data[4][256];
	size_t size[4];
};

static void collect(const struct vt_record *rec, void *arg)
{
	struct collected *c = arg;

	if ((int)rec->type != c->type)
		return;
	if (c->nr < 4 && rec->size <= sizeof(c->data[0])) {
		memcpy(c->data[c->nr], rec->data, rec->size);
		c->size[c->nr] = rec->size;
	}
	c->nr++;
}

static bool is_string(const struct vt_field *fld)
{
	return !strncmp(fld->type, "__data_loc", 10);
}

/* "a==1 && b==\"BIG\"" from the expected values. */
static void build_filter(const struct vt_format *f,
			 const struct field_value *fv, char *buf, size_t size)
{
	const struct vt_field *fld;
	size_t len = 0;

	buf[0] = '\0';
	for (; fv->name; fv++) {
		fld = vt_field(f, fv->name);
		len += snprintf(buf + len, size - len,
				is_string(fld) ? "%s%s==\"%s\"" : "%s%s==%s",
				len ? " && " : "", fv->name, fv->value);
	}
}

FIXTURE(emit_ok)
{
	struct vt_tracing inst;
};

FIXTURE_VARIANT(emit_ok)
{
	const char *cmd;
	const char *system;
	const char *event;
	struct field_value fields[8];
};

FIXTURE_VARIANT_ADD(emit_ok, gpu_power_state_names) {
	.cmd = "gpu_power_state OFF GLOBAL",
	.system = "mali",
	.event = "gpu_power_state",
	.fields = { { "from_state", "0" }, { "to_state", "1" } },
};

FIXTURE_VARIANT_ADD(emit_ok, gpu_power_state_names_up) {
	.cmd = "gpu_power_state COREGROUP STACKS\n",
	.system = "mali",
	.event = "gpu_power_state",
	.fields = { { "from_state", "2" }, { "to_state", "3" } },
};

FIXTURE_VARIANT_ADD(emit_ok, gpu_power_state_numbers_bases) {
	.cmd = "gpu_power_state 0x1 02",
	.system = "mali",
	.event = "gpu_power_state",
	.fields = { { "from_state", "1" }, { "to_state", "2" } },
};

FIXTURE_VARIANT_ADD(emit_ok, gpu_power_state_blanks) {
	.cmd = "gpu_power_state\t3   OFF\n",
	.system = "mali",
	.event = "gpu_power_state",
	.fields = { { "from_state", "3" }, { "to_state", "0" } },
};

FIXTURE_VARIANT_ADD(emit_ok, mali_pm_status_small) {
	.cmd = "mali_pm_status 0 1 0xff",
	.system = "mali",
	.event = "mali_pm_status",
	.fields = { { "gpu_id", "0" }, { "event_id", "1" }, { "value", "255" } },
};

FIXTURE_VARIANT_ADD(emit_ok, mali_pm_status_max) {
	.cmd = "mali_pm_status 4294967295 0x2 18446744073709551615",
	.system = "mali",
	.event = "mali_pm_status",
	.fields = { { "gpu_id", "4294967295" },
		    { "event_id", "2" },
		    { "value", "18446744073709551615" } },
};

FIXTURE_VARIANT_ADD(emit_ok, mali_pm_status_octal_hex) {
	.cmd = "mali_pm_status 010 0 0x8000000000000001\n",
	.system = "mali",
	.event = "mali_pm_status",
	.fields = { { "gpu_id", "8" },
		    { "event_id", "0" },
		    { "value", "9223372036854775809" } },
};

FIXTURE_VARIANT_ADD(emit_ok, thermal_cpu_pressure) {
	.cmd = "thermal_cpu_pressure 0 12345",
	.system = "thermal_exynos",
	.event = "thermal_cpu_pressure",
	.fields = { { "cpu", "0" }, { "pressure", "12345" } },
};

FIXTURE_VARIANT_ADD(emit_ok, thermal_cpu_pressure_max) {
	.cmd = "thermal_cpu_pressure 0x0 0xffffffffffffffff\n",
	.system = "thermal_exynos",
	.event = "thermal_cpu_pressure",
	.fields = { { "cpu", "0" }, { "pressure", "18446744073709551615" } },
};

FIXTURE_VARIANT_ADD(emit_ok, arm_update) {
	.cmd = "thermal_exynos_arm_update BIG 1 2 1 3 2",
	.system = "thermal_exynos",
	.event = "thermal_exynos_arm_update",
	.fields = { { "tmu_name", "BIG" },
		    { "is_cpu_hw_throttled", "1" },
		    { "ppm_throttle_level", "2" },
		    { "ppm_clr_level", "1" },
		    { "mpmm_throttle_level", "3" },
		    { "mpmm_clr_level", "2" } },
};

FIXTURE_VARIANT_ADD(emit_ok, arm_update_int_limits) {
	.cmd = "thermal_exynos_arm_update GPU 0 -1 -2147483648 2147483647 0x10\n",
	.system = "thermal_exynos",
	.event = "thermal_exynos_arm_update",
	.fields = { { "tmu_name", "GPU" },
		    { "is_cpu_hw_throttled", "0" },
		    { "ppm_throttle_level", "-1" },
		    { "ppm_clr_level", "-2147483648" },
		    { "mpmm_throttle_level", "2147483647" },
		    { "mpmm_clr_level", "16" } },
};

FIXTURE_VARIANT_ADD(emit_ok, arm_update_name_charset) {
	.cmd = "thermal_exynos_arm_update a_b-C9 0 0 0 0 0",
	.system = "thermal_exynos",
	.event = "thermal_exynos_arm_update",
	.fields = { { "tmu_name", "a_b-C9" },
		    { "is_cpu_hw_throttled", "0" },
		    { "ppm_throttle_level", "0" },
		    { "ppm_clr_level", "0" },
		    { "mpmm_throttle_level", "0" },
		    { "mpmm_clr_level", "0" } },
};

FIXTURE_VARIANT_ADD(emit_ok, arm_update_name_15_chars) {
	.cmd = "thermal_exynos_arm_update 0123456789ABCDE 1 7 6 5 4",
	.system = "thermal_exynos",
	.event = "thermal_exynos_arm_update",
	.fields = { { "tmu_name", "0123456789ABCDE" },
		    { "is_cpu_hw_throttled", "1" },
		    { "ppm_throttle_level", "7" },
		    { "ppm_clr_level", "6" },
		    { "mpmm_throttle_level", "5" },
		    { "mpmm_clr_level", "4" } },
};

FIXTURE_SETUP(emit_ok)
{
	const char *why = vt_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vt_instance_create(&self->inst, "emit_ok"));
}

FIXTURE_TEARDOWN(emit_ok)
{
	EXPECT_EQ(0, vt_instance_destroy(&self->inst));
}

static void check_value(struct __test_metadata *_metadata,
			const struct vt_field *fld, const void *data,
			size_t size, const char *want)
{
	char str[64];

	if (is_string(fld)) {
		ASSERT_LE(0, vt_get_str(fld, data, size, str, sizeof(str)));
		EXPECT_STREQ(want, str);
	} else if (fld->is_signed) {
		EXPECT_EQ(strtoll(want, NULL, 0), vt_get_s64(fld, data))
		TH_LOG("field %s", fld->name);
	} else {
		EXPECT_EQ(strtoull(want, NULL, 0), vt_get_u64(fld, data))
		TH_LOG("field %s", fld->name);
	}
}

/*
 * The filter only passes a record whose fields hold the expected values, so
 * one entry in the buffer proves them as the kernel reads its own fields;
 * decoding the record checks the same values at the format's offsets.
 */
TEST_F(emit_ok, readback)
{
	char event[128], filter[1024];
	const struct field_value *fv;
	const struct vt_field *ts;
	struct vt_cpu_stats st;
	struct vt_consumed seen;
	struct vt_format f;
	struct collected c = { 0 };
	uint64_t t0, t1;
	ssize_t ret;

	snprintf(event, sizeof(event), "%s/%s", variant->system,
		 variant->event);
	ASSERT_EQ(0, vt_format_load(variant->system, variant->event, &f));
	for (fv = variant->fields; fv->name; fv++)
		ASSERT_NE(NULL, vt_field(&f, fv->name))
	TH_LOG("field %d of %s", (int)(fv - variant->fields), variant->event);
	build_filter(&f, variant->fields, filter, sizeof(filter));
	ASSERT_EQ(0, vt_tracing_filter(&self->inst, event, filter))
	TH_LOG("filter %s", filter);
	ASSERT_EQ(0, vt_tracing_enable(&self->inst, event, true));

	t0 = now_ns();
	ret = vt_emit(variant->cmd);
	t1 = now_ns();
	ASSERT_EQ((ssize_t)strlen(variant->cmd), ret);

	ASSERT_EQ(0, vt_total_stats(&self->inst, &st));
	EXPECT_EQ(1, st.entries) TH_LOG("filter %s", filter);

	c.type = f.id;
	ASSERT_EQ(0, vt_consume_all(&self->inst, collect, &c, &seen));
	ASSERT_EQ(1, c.nr);
	EXPECT_EQ(1, seen.records);
	for (fv = variant->fields; fv->name; fv++)
		check_value(_metadata, vt_field(&f, fv->name), c.data[0],
			    c.size[0], fv->value);

	/* Emitted commands stamp change_ns with ktime_get_ns(). */
	ts = vt_field(&f, "change_ns");
	if (ts) {
		EXPECT_LE(t0, vt_get_u64(ts, c.data[0]));
		EXPECT_GE(t1, vt_get_u64(ts, c.data[0]));
	}
}

FIXTURE(emit)
{
	struct vt_tracing inst;
	struct vt_format f;
};

FIXTURE_SETUP(emit)
{
	const char *why = vt_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vt_instance_create(&self->inst, "emit"));
	ASSERT_EQ(0, vt_format_load("mali", "gpu_power_state", &self->f));
}

FIXTURE_TEARDOWN(emit)
{
	EXPECT_EQ(0, vt_instance_destroy(&self->inst));
}

static uint64_t entries(struct __test_metadata *_metadata,
			const struct vt_tracing *t)
{
	struct vt_cpu_stats st;

	EXPECT_EQ(0, vt_total_stats(t, &st));
	EXPECT_EQ(0, st.overrun);
	return st.entries;
}

/* The filter used by readback does reject other values. */
TEST_F(emit, filter_rejects_other_values)
{
	ASSERT_EQ(0, vt_tracing_filter(&self->inst, "mali/gpu_power_state",
				       "from_state==1 && to_state==2"));
	ASSERT_EQ(0,
		  vt_tracing_enable(&self->inst, "mali/gpu_power_state", true));
	ASSERT_EQ(19, vt_emit("gpu_power_state 2 1"));
	EXPECT_EQ(0, entries(_metadata, &self->inst));
	ASSERT_EQ(19, vt_emit("gpu_power_state 1 2"));
	EXPECT_EQ(1, entries(_metadata, &self->inst));
}

/* The trace text names the power levels, in from/to order. */
TEST_F(emit, printed_symbolically)
{
	char path[PATH_MAX], *text, *line, *from, *to;
	size_t len;

	ASSERT_EQ(0,
		  vt_tracing_enable(&self->inst, "mali/gpu_power_state", true));
	ASSERT_EQ(26, vt_emit("gpu_power_state STACKS 0x2"));
	ASSERT_EQ(0, vt_tracing_file(&self->inst, "trace", path, sizeof(path)));
	text = vtrace_read_all(path, &len);
	ASSERT_NE(NULL, text);
	line = strstr(text, "gpu_power_state: ");
	ASSERT_NE(NULL, line) TH_LOG("no event in:\n%s", text);
	line[strcspn(line, "\n")] = '\0';
	from = strstr(line, "STACKS");
	to = strstr(line, "COREGROUP");
	EXPECT_NE(NULL, from) TH_LOG("%s", line);
	EXPECT_NE(NULL, to) TH_LOG("%s", line);
	EXPECT_TRUE(from && to && from < to) TH_LOG("%s", line);
	free(text);
}

/* "gpu_power_state" + blanks + " 1 2", exactly len bytes. */
static void padded_cmd(char *buf, size_t len)
{
	const char *head = "gpu_power_state", *tail = " 1 2";

	memset(buf, ' ', len);
	memcpy(buf, head, strlen(head));
	memcpy(buf + len - strlen(tail), tail, strlen(tail));
	buf[len] = '\0';
}

TEST_F(emit, length_limit)
{
	char cmd[MAX_CMD_LEN + 3];

	ASSERT_EQ(0, vt_tracing_filter(&self->inst, "mali/gpu_power_state",
				       "from_state==1 && to_state==2"));
	ASSERT_EQ(0,
		  vt_tracing_enable(&self->inst, "mali/gpu_power_state", true));

	padded_cmd(cmd, MAX_CMD_LEN);
	EXPECT_EQ(MAX_CMD_LEN, vt_emit(cmd));
	EXPECT_EQ(1, entries(_metadata, &self->inst));

	strcat(cmd, "\n");
	EXPECT_EQ(MAX_CMD_LEN + 1, vt_emit(cmd));
	EXPECT_EQ(2, entries(_metadata, &self->inst));

	padded_cmd(cmd, MAX_CMD_LEN + 1);
	EXPECT_EQ(-EINVAL, vt_emit(cmd));
	strcat(cmd, "\n");
	EXPECT_EQ(-EINVAL, vt_emit(cmd));
	EXPECT_EQ(2, entries(_metadata, &self->inst));
}

static int last_cpu(const char *which)
{
	bool mask[VT_MAX_CPUS];
	int cpu;

	if (vt_cpus(which, mask) <= 0)
		return -1;
	for (cpu = VT_MAX_CPUS - 1; cpu >= 0 && !mask[cpu]; cpu--)
		;
	return cpu;
}

TEST_F(emit, pressure_last_possible_cpu)
{
	int cpu = last_cpu("possible");
	char cmd[64], filter[64];

	ASSERT_LE(0, cpu);
	snprintf(filter, sizeof(filter), "cpu==%d && pressure==77", cpu);
	ASSERT_EQ(0, vt_tracing_filter(&self->inst,
				       "thermal_exynos/thermal_cpu_pressure",
				       filter));
	ASSERT_EQ(0, vt_tracing_enable(&self->inst,
				       "thermal_exynos/thermal_cpu_pressure",
				       true));
	snprintf(cmd, sizeof(cmd), "thermal_cpu_pressure %d 77", cpu);
	EXPECT_EQ((ssize_t)strlen(cmd), vt_emit(cmd));
	EXPECT_EQ(1, entries(_metadata, &self->inst));
}

TEST_F(emit, pressure_impossible_cpu)
{
	int cpu = last_cpu("possible") + 1;
	char cmd[64];

	ASSERT_LT(0, cpu);
	ASSERT_EQ(0, vt_tracing_enable(&self->inst, "thermal_exynos", true));
	snprintf(cmd, sizeof(cmd), "thermal_cpu_pressure %d 77", cpu);
	EXPECT_EQ(-ERANGE, vt_emit(cmd));
	EXPECT_EQ(-ERANGE, vt_emit("thermal_cpu_pressure 4294967296 1"));
	EXPECT_EQ(0, entries(_metadata, &self->inst));
}

/*
 * Each write(2) on one open file is a command of its own; a write at a
 * non-zero offset, or one holding a NUL byte, is refused.
 */
TEST_F(emit, one_command_per_write)
{
	static const char nul_cmd[] = "gpu_power_state 1 2\0";
	int fd = open(VT_DEBUGFS "/emit", O_WRONLY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_tracing_filter(&self->inst, "mali/gpu_power_state",
				       "from_state==1 && to_state==2"));
	ASSERT_EQ(0,
		  vt_tracing_enable(&self->inst, "mali/gpu_power_state", true));
	EXPECT_EQ(19, write(fd, "gpu_power_state 1 2", 19));
	EXPECT_EQ(20, write(fd, "gpu_power_state 1 2\n", 20));
	EXPECT_EQ(2, entries(_metadata, &self->inst));
	EXPECT_EQ(-1, pwrite(fd, "gpu_power_state 1 2", 19, 5));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(fd, nul_cmd, sizeof(nul_cmd) - 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(2, entries(_metadata, &self->inst));
	close(fd);
}

#define WRITERS 4
#define WRITES 1000

struct writer {
	int id;
	int failures;
};

static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	char cmd[64];
	int i;

	for (i = 0; i < WRITES; i++) {
		snprintf(cmd, sizeof(cmd), "mali_pm_status %d 7 %d", w->id, i);
		if (vt_emit(cmd) != (ssize_t)strlen(cmd))
			w->failures++;
	}
	return NULL;
}

struct seen_values {
	const struct vt_format *f;
	unsigned char hits[WRITERS][WRITES];
	int bad;
};

static void count_writes(const struct vt_record *rec, void *arg)
{
	struct seen_values *s = arg;
	uint64_t gpu, ev, val;

	if ((int)rec->type != s->f->id) {
		s->bad++;
		return;
	}
	gpu = vt_get_u64(vt_field(s->f, "gpu_id"), rec->data);
	ev = vt_get_u64(vt_field(s->f, "event_id"), rec->data);
	val = vt_get_u64(vt_field(s->f, "value"), rec->data);
	if (gpu >= WRITERS || ev != 7 || val >= WRITES)
		s->bad++;
	else
		s->hits[gpu][val]++;
}

/*
 * 4 threads x 1000 commands: every one recorded exactly once, intact.
 * (Under TCG on a busy host the 4000 writes took longer than the
 * harness's default 30 s once.)
 */
TEST_F_TIMEOUT(emit, concurrent_writers, 120)
{
	struct writer w[WRITERS];
	pthread_t tid[WRITERS];
	struct seen_values *s;
	struct vt_consumed seen;
	struct vt_format f;
	int i, j, missing = 0, dup = 0;

	ASSERT_EQ(0, vt_format_load("mali", "mali_pm_status", &f));
	/* 4000 events of 28 bytes fit many times over in 1 MB per CPU. */
	ASSERT_EQ(0, vt_tracing_write(&self->inst, "buffer_size_kb", "1024"));
	ASSERT_EQ(0,
		  vt_tracing_enable(&self->inst, "mali/mali_pm_status", true));
	for (i = 0; i < WRITERS; i++) {
		w[i] = (struct writer) { .id = i };
		ASSERT_EQ(0,
			  pthread_create(&tid[i], NULL, writer_thread, &w[i]));
	}
	for (i = 0; i < WRITERS; i++) {
		pthread_join(tid[i], NULL);
		EXPECT_EQ(0, w[i].failures) TH_LOG("writer %d", i);
	}
	EXPECT_EQ(WRITERS * WRITES, entries(_metadata, &self->inst));

	s = calloc(1, sizeof(*s));
	ASSERT_NE(NULL, s);
	s->f = &f;
	ASSERT_EQ(0, vt_consume_all(&self->inst, count_writes, s, &seen));
	EXPECT_EQ(0, seen.missed_pages);
	EXPECT_EQ(WRITERS * WRITES, seen.records);
	EXPECT_EQ(0, s->bad);
	for (i = 0; i < WRITERS; i++) {
		for (j = 0; j < WRITES; j++) {
			missing += !s->hits[i][j];
			dup += s->hits[i][j] > 1;
		}
	}
	EXPECT_EQ(0, missing);
	EXPECT_EQ(0, dup);
	free(s);
}

/*
 * The generic form for every vendor event, driven by the event's own
 * format: each field gets a value no other field has (negative for signed
 * fields, past 32 bits for 64-bit ones), the command records exactly one
 * event that a filter on every non-array field selects (arrays cannot be
 * filtered), and the record holds each value at the format's offset.
 */
#define VENDOR_SYSTEMS                                         \
	{                                                      \
		"mali", "thermal_exynos", "thermal_exynos_gpu" \
	}

/* A fixed array: "u64 mem_values[(4 * sizeof(u64)) / sizeof(u64)]", the
 * device's declaration, which the format parser splits at a blank inside
 * the length.
 */
static bool fixed_array(const struct vt_field *fld)
{
	return strncmp(fld->type, "__data_loc", 10) &&
	       (strchr(fld->type, '[') || strchr(fld->name, '['));
}

/* The field's name without a fixed array's "[length]". */
static void field_name(const struct vt_field *fld, char *buf, size_t size)
{
	char decl[192], *end, *start;

	snprintf(decl, sizeof(decl), "%s %s", fld->type, fld->name);
	end = fixed_array(fld) ? strchr(decl, '[') : decl + strlen(decl);
	*end = '\0';
	start = strrchr(decl, ' ');
	snprintf(buf, size, "%s", start ? start + 1 : decl);
}

enum value_kind { V_INT, V_BOOL, V_STR, V_U32S, V_U64S, V_CPUS, V_COUNT };

static enum value_kind value_kind(const struct vt_format *f,
				  const struct vt_field *fld)
{
	char array[80];

	if (!strcmp(fld->type, "__data_loc char[]"))
		return V_STR;
	if (!strcmp(fld->type, "__data_loc u32[]"))
		return V_U32S;
	if (!strcmp(fld->type, "__data_loc unsigned long[]"))
		return V_CPUS;
	if (fixed_array(fld))
		return V_U64S;
	if (!strcmp(fld->type, "bool"))
		return V_BOOL;
	/* FOO_len counts the dynamic array FOO. */
	if (strlen(fld->name) > 4 &&
	    !strcmp(fld->name + strlen(fld->name) - 4, "_len")) {
		snprintf(array, sizeof(array), "%.*s",
			 (int)strlen(fld->name) - 4, fld->name);
		if (vt_field(f, array))
			return V_COUNT;
	}
	return V_INT;
}

/* A value for field @i that no other field of the event has. */
static int64_t distinct_value(const struct vt_field *fld, int i)
{
	int64_t v = i + 1;

	if (fld->size == 8)
		v |= (int64_t)(i + 1) << 40;
	else if (fld->size == 4)
		v |= (int64_t)(i + 1) << 24;
	else if (fld->size == 2)
		v |= (int64_t)(i + 1) << 8;
	return fld->is_signed ? -v : v;
}

struct generic_case {
	char cmd[256];
	char filter[1024];
	int nr_u32s;
};

static void build_generic(const char *system, const char *event,
			  const struct vt_format *f, struct generic_case *gc)
{
	size_t cl, fl = 0;
	int i;

	cl = snprintf(gc->cmd, sizeof(gc->cmd), "%s/%s", system, event);
	gc->filter[0] = '\0';
	gc->nr_u32s = 0;
	for (i = 4; i < f->nr_fields; i++) {
		const struct vt_field *fld = &f->field[i];
		char name[64];

		field_name(fld, name, sizeof(name));
		switch (value_kind(f, fld)) {
		case V_STR:
			cl += snprintf(gc->cmd + cl, sizeof(gc->cmd) - cl,
				       " %s=f%d-X_y", name, i);
			fl += snprintf(gc->filter + fl, sizeof(gc->filter) - fl,
				       "%s%s==\"f%d-X_y\"", fl ? " && " : "",
				       name, i);
			break;
		case V_U32S:
			gc->nr_u32s = 3;
			cl += snprintf(gc->cmd + cl, sizeof(gc->cmd) - cl,
				       " %s=%d,%d,0x%x", name, i, i + 1,
				       0xf0000000 + i);
			break;
		case V_U64S:
			cl += snprintf(gc->cmd + cl, sizeof(gc->cmd) - cl,
				       " %s=1,2,3,0x%llx", name,
				       0xf000000000000000ULL + i);
			break;
		case V_CPUS:
			cl += snprintf(gc->cmd + cl, sizeof(gc->cmd) - cl,
				       " %s=0", name);
			break;
		case V_COUNT:
			/* Not named: emit gives it the array's count. */
			break;
		case V_BOOL:
			cl += snprintf(gc->cmd + cl, sizeof(gc->cmd) - cl,
				       " %s=1", name);
			fl += snprintf(gc->filter + fl, sizeof(gc->filter) - fl,
				       "%s%s==1", fl ? " && " : "", name);
			break;
		case V_INT:
			cl += snprintf(gc->cmd + cl, sizeof(gc->cmd) - cl,
				       " %s=%lld", name,
				       (long long)distinct_value(fld, i));
			fl += snprintf(gc->filter + fl, sizeof(gc->filter) - fl,
				       "%s%s==%lld", fl ? " && " : "", name,
				       (long long)distinct_value(fld, i));
			break;
		}
	}
}

static void check_generic_record(struct __test_metadata *_metadata,
				 const char *event, const struct vt_format *f,
				 const struct generic_case *gc,
				 const unsigned char *data, size_t size)
{
	char str[64], want[64];
	uint32_t loc, u32;
	uint64_t u64;
	int i, e;

	for (i = 4; i < f->nr_fields; i++) {
		const struct vt_field *fld = &f->field[i];

		switch (value_kind(f, fld)) {
		case V_STR:
			snprintf(want, sizeof(want), "f%d-X_y", i);
			ASSERT_LE(0, vt_get_str(fld, data, size, str,
						sizeof(str)));
			EXPECT_STREQ(want, str) TH_LOG("%s", event);
			break;
		case V_U32S:
			loc = vt_get_u64(fld, data);
			ASSERT_EQ(12, loc >> 16) TH_LOG("%s", event);
			ASSERT_GE(size, (loc & 0xffff) + 12);
			for (e = 0; e < 3; e++) {
				memcpy(&u32, data + (loc & 0xffff) + 4 * e, 4);
				EXPECT_EQ(e < 2 ? (uint32_t)(i + e) :
						  0xf0000000u + i,
					  u32)
				TH_LOG("%s[%d]", event, e);
			}
			break;
		case V_U64S:
			memcpy(&u64, data + fld->offset + 24, 8);
			EXPECT_EQ(0xf000000000000000ULL + i, u64);
			memcpy(&u64, data + fld->offset, 8);
			EXPECT_EQ(1, u64);
			break;
		case V_CPUS:
			loc = vt_get_u64(fld, data);
			ASSERT_LE(sizeof(long), loc >> 16);
			ASSERT_GE(size, (loc & 0xffff) + sizeof(long));
			memcpy(&u64, data + (loc & 0xffff), sizeof(u64));
			EXPECT_EQ(1, u64) TH_LOG("%s cpumask", event);
			break;
		case V_COUNT:
			EXPECT_EQ((uint64_t)gc->nr_u32s, vt_get_u64(fld, data));
			break;
		case V_BOOL:
			EXPECT_EQ(1, vt_get_u64(fld, data));
			break;
		case V_INT:
			if (fld->is_signed) {
				EXPECT_EQ(distinct_value(fld, i),
					  vt_get_s64(fld, data))
				TH_LOG("%s %s", event, fld->name);
			} else {
				EXPECT_EQ((uint64_t)distinct_value(fld, i),
					  vt_get_u64(fld, data))
				TH_LOG("%s %s", event, fld->name);
			}
			break;
		}
	}
}

static void emit_generic_one(struct __test_metadata *_metadata,
			     struct vt_tracing *inst, const char *system,
			     const char *event)
{
	static struct generic_case gc;
	static struct vt_format f;
	struct collected c = { 0 };
	struct vt_consumed seen;
	struct vt_cpu_stats st;
	char name[300];

	snprintf(name, sizeof(name), "%s/%s", system, event);
	ASSERT_EQ(0, vt_format_load(system, event, &f));
	build_generic(system, event, &f, &gc);
	ASSERT_EQ(0, vt_tracing_clear(inst));
	if (gc.filter[0])
		ASSERT_EQ(0, vt_tracing_filter(inst, name, gc.filter))
	TH_LOG("%s: filter %s", name, gc.filter);
	ASSERT_EQ(0, vt_tracing_enable(inst, name, true));
	EXPECT_EQ((ssize_t)strlen(gc.cmd), vt_emit(gc.cmd))
	TH_LOG("%s", gc.cmd);
	ASSERT_EQ(0, vt_total_stats(inst, &st));
	EXPECT_EQ(1, st.entries) TH_LOG("%s | %s", gc.cmd, gc.filter);

	c.type = f.id;
	ASSERT_EQ(0, vt_consume_all(inst, collect, &c, &seen));
	EXPECT_EQ(1, c.nr) TH_LOG("%s", name);
	if (c.nr == 1)
		check_generic_record(_metadata, name, &f, &gc, c.data[0],
				     c.size[0]);
	ASSERT_EQ(0, vt_tracing_enable(inst, name, false));
	ASSERT_EQ(0, vt_tracing_filter(inst, name, "0"));
}

TEST(generic_form_every_event)
{
	static const char *const systems[] = VENDOR_SYSTEMS;
	char path[PATH_MAX], fmt[PATH_MAX + 300];
	struct vt_tracing inst;
	struct dirent *de;
	size_t sys;
	int n = 0;
	DIR *dir;

	if (vt_skip_reason())
		SKIP(return, "%s", vt_skip_reason());
	ASSERT_EQ(0, vt_instance_create(&inst, "emit_generic"));
	for (sys = 0; sys < ARRAY_SIZE(systems); sys++) {
		snprintf(path, sizeof(path), "%s/events/%s", vt_tracefs(),
			 systems[sys]);
		dir = opendir(path);
		ASSERT_NE(NULL, dir);
		while ((de = readdir(dir))) {
			snprintf(fmt, sizeof(fmt), "%s/%s/format", path,
				 de->d_name);
			if (de->d_name[0] == '.' || !vt_exists(fmt))
				continue;
			emit_generic_one(_metadata, &inst, systems[sys],
					 de->d_name);
			n++;
		}
		closedir(dir);
	}
	EXPECT_EQ(0, vt_instance_destroy(&inst));
	/* The 65 reference events (event_format checks which they are). */
	EXPECT_EQ(65, n);
}

/* A value read back after the generic form, for the other fields zero. */
TEST(generic_form_unnamed_fields_are_zero)
{
	const char *event = "thermal_exynos_hard_limit_cdev_update";
	char name[96], cmd[96];
	struct collected c = { 0 };
	struct vt_consumed seen;
	struct vt_tracing inst;
	struct vt_format f;
	char str[16];

	if (vt_skip_reason())
		SKIP(return, "%s", vt_skip_reason());
	ASSERT_EQ(0, vt_instance_create(&inst, "emit_zero"));
	ASSERT_EQ(0, vt_format_load("thermal_exynos", event, &f));
	snprintf(name, sizeof(name), "thermal_exynos/%s", event);
	ASSERT_EQ(0, vt_tracing_enable(&inst, name, true));
	snprintf(cmd, sizeof(cmd), "%s state=0xffffffff", event);
	ASSERT_EQ((ssize_t)strlen(cmd), vt_emit(cmd));
	c.type = f.id;
	ASSERT_EQ(0, vt_consume_all(&inst, collect, &c, &seen));
	ASSERT_EQ(1, c.nr);
	ASSERT_LE(0, vt_get_str(vt_field(&f, "tmu_name"), c.data[0], c.size[0],
				str, sizeof(str)));
	EXPECT_STREQ("", str);
	ASSERT_LE(0, vt_get_str(vt_field(&f, "cdev_type"), c.data[0], c.size[0],
				str, sizeof(str)));
	EXPECT_STREQ("", str);
	EXPECT_EQ(0, vt_get_u64(vt_field(&f, "is_hardlimited"), c.data[0]));
	EXPECT_EQ(0, vt_get_u64(vt_field(&f, "pid_switch_on"), c.data[0]));
	EXPECT_EQ(0, vt_get_u64(vt_field(&f, "prev_max_state"), c.data[0]));
	EXPECT_EQ(0xffffffff, vt_get_u64(vt_field(&f, "state"), c.data[0]));
	EXPECT_EQ(0, vt_instance_destroy(&inst));
}

FIXTURE(emit_bad)
{
	struct vt_tracing inst;
};

FIXTURE_VARIANT(emit_bad)
{
	const char *cmd;
	int err;
};

/* One KTAP case per refused command. */
FIXTURE_VARIANT_ADD(emit_bad, empty) {
	.cmd = "",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, newline_only) {
	.cmd = "\n",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, blanks_only) {
	.cmd = " \t \x20\n",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, unknown_event) {
	.cmd = "gpu_frequency 1 2",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, event_name_case) {
	.cmd = "GPU_POWER_STATE 0 1",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, state_missing_words) {
	.cmd = "gpu_power_state 1",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, state_no_words) {
	.cmd = "gpu_power_state\n",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, state_extra_word) {
	.cmd = "gpu_power_state 1 2 3",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, state_bad_name) {
	.cmd = "gpu_power_state ON OFF",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, state_out_of_range) {
	.cmd = "gpu_power_state 0 4",
	.err = ERANGE,
};

FIXTURE_VARIANT_ADD(emit_bad, state_hex_out_of_range) {
	.cmd = "gpu_power_state 0x10 0",
	.err = ERANGE,
};

FIXTURE_VARIANT_ADD(emit_bad, state_lower_case_name) {
	.cmd = "gpu_power_state off global",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, state_negative) {
	.cmd = "gpu_power_state -1 0",
	.err = ERANGE,
};

FIXTURE_VARIANT_ADD(emit_bad, state_control_char) {
	.cmd = "gpu_power_state 0\r1",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, state_two_newlines) {
	.cmd = "gpu_power_state 0 1\n\n",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, status_missing_word) {
	.cmd = "mali_pm_status 1 2",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, status_not_a_number) {
	.cmd = "mali_pm_status 0 0 12abc",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, status_negative) {
	.cmd = "mali_pm_status 0 0 -1",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, status_u32_overflow) {
	.cmd = "mali_pm_status 0x100000000 0 0",
	.err = ERANGE,
};

FIXTURE_VARIANT_ADD(emit_bad, status_u64_overflow) {
	.cmd = "mali_pm_status 0 0 0x10000000000000000",
	.err = ERANGE,
};

FIXTURE_VARIANT_ADD(emit_bad, pressure_missing_word) {
	.cmd = "thermal_cpu_pressure 0",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, pressure_not_a_number) {
	.cmd = "thermal_cpu_pressure 0 x",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, pressure_ulong_overflow) {
	.cmd = "thermal_cpu_pressure 0 18446744073709551616",
	.err = ERANGE,
};

FIXTURE_VARIANT_ADD(emit_bad, update_missing_word) {
	.cmd = "thermal_exynos_arm_update BIG 1 0 0 0",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, update_throttled_2) {
	.cmd = "thermal_exynos_arm_update BIG 2 0 0 0 0",
	.err = ERANGE,
};

FIXTURE_VARIANT_ADD(emit_bad, update_level_over_int) {
	.cmd = "thermal_exynos_arm_update BIG 1 2147483648 0 0 0",
	.err = ERANGE,
};

FIXTURE_VARIANT_ADD(emit_bad, update_level_under_int) {
	.cmd = "thermal_exynos_arm_update BIG 1 0 0 0 -2147483649",
	.err = ERANGE,
};

FIXTURE_VARIANT_ADD(emit_bad, update_name_16_chars) {
	.cmd = "thermal_exynos_arm_update 0123456789ABCDEF 1 0 0 0 0",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, update_name_bad_char) {
	.cmd = "thermal_exynos_arm_update B.G 1 0 0 0 0",
	.err = EINVAL,
};

/* Latin-1 letters, which the kernel's isalnum() takes for alphanumerics. */
FIXTURE_VARIANT_ADD(emit_bad, update_name_latin1_c0) {
	.cmd = "thermal_exynos_arm_update BIG\xc0 1 0 0 0 0",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, update_name_latin1_e9) {
	.cmd = "thermal_exynos_arm_update G\xe9U 1 0 0 0 0",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, update_name_latin1_ff) {
	.cmd = "thermal_exynos_arm_update \xff 1 0 0 0 0",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_unknown_field) {
	.cmd = "mali_jit_trim nope=1",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_duplicate_field) {
	.cmd = "mali_jit_trim freed_pages=1 freed_pages=2",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_u8_over) {
	.cmd = "mali_jit_alloc jit_id=256",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_u8_hex_over) {
	.cmd = "mali_jit_alloc jit_id=0x100",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_unsigned_negative) {
	.cmd = "mali_jit_alloc jit_id=-1",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_u32_over) {
	.cmd = "mali_pm_status event_id=0x100000000",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_u64_over) {
	.cmd = "mali_jit_trim freed_pages=18446744073709551616",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_s16_over) {
	.cmd = "thermal_exynos_acpm_bulk pid_p=32768",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_s16_under) {
	.cmd = "thermal_exynos_acpm_bulk pid_p=-32769",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_s32_under) {
	.cmd = "thermal_exynos_power_allocator_pid err=-2147483649",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_not_a_number) {
	.cmd = "mali_jit_trim freed_pages=12a",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_empty_value) {
	.cmd = "mali_jit_trim freed_pages=",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_bool_2) {
	.cmd = "thermal_exynos_tpu_pause is_paused=2",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_bool_word) {
	.cmd = "thermal_exynos_tpu_pause is_paused=true",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_string_empty) {
	.cmd = "thermal_exynos_tpu_pause tmu_name=",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_string_dot) {
	.cmd = "thermal_exynos_tpu_pause tmu_name=B.G",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_string_latin1) {
	.cmd = "thermal_exynos_tpu_pause tmu_name=B\xc9G",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_array_empty_element) {
	.cmd = "thermal_exynos_power_cpu_get_power load=1,,2",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_array_trailing_comma) {
	.cmd = "thermal_exynos_power_cpu_get_power load=1,",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_array_17) {
	.cmd = "thermal_exynos_power_cpu_get_power load=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_array_u32_over) {
	.cmd = "thermal_exynos_power_cpu_get_power load=0x100000000",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_count_mismatch) {
	.cmd = "thermal_exynos_power_cpu_get_power load=1,2 load_len=3",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_fixed_array_5) {
	.cmd = "mali_jit_report_gpu_mem mem_values=1,2,3,4,5",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_cpu_impossible) {
	.cmd = "thermal_exynos_cpu_pause cpumask=4096",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_cpu_negative) {
	.cmd = "thermal_exynos_cpu_pause cpumask=-1",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_positional_word) {
	.cmd = "mali_jit_trim 5",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_mixed_forms) {
	.cmd = "gpu_power_state 1 to_state=2",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_wrong_system) {
	.cmd = "thermal_exynos/mali_jit_trim freed_pages=1",
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(emit_bad, generic_field_case) {
	.cmd = "mali_jit_trim FREED_PAGES=1",
	.err = EINVAL,
};

FIXTURE_SETUP(emit_bad)
{
	const char *why = vt_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vt_instance_create(&self->inst, "emit_bad"));
	ASSERT_EQ(0, vt_tracing_enable(&self->inst, "mali", true));
	ASSERT_EQ(0, vt_tracing_enable(&self->inst, "thermal_exynos", true));
	ASSERT_EQ(0,
		  vt_tracing_enable(&self->inst, "thermal_exynos_gpu", true));
}

FIXTURE_TEARDOWN(emit_bad)
{
	EXPECT_EQ(0, vt_instance_destroy(&self->inst));
}

/*
 * The write fails with the exact errno and leaves every vendor event's
 * buffer empty; a good command afterwards shows the instance does record.
 */
TEST_F(emit_bad, refused)
{
	EXPECT_EQ(-variant->err, vt_emit(variant->cmd));
	EXPECT_EQ(0, entries(_metadata, &self->inst));
	ASSERT_EQ(19, vt_emit("gpu_power_state 0 1"));
	EXPECT_EQ(1, entries(_metadata, &self->inst));
}

TEST_HARNESS_MAIN
