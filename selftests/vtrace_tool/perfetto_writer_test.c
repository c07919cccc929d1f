// SPDX-License-Identifier: GPL-2.0
/*
 * The protobuf encoder and the Perfetto writer of tools/lib/vtrace, with
 * no tracefs: exact bytes for the wire format's corner cases, and a
 * trace written from records built here for the formats of the module's
 * vendor events and the scheduler's, whose decoded text
 * perfetto_test.sh compares with a golden file. The trace goes to
 * $VT_PERFETTO_OUT (default /dev/null).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>

#include <vtrace/perfetto-input.h>

#include "sinks/perfetto/perfetto-format.h"
#include "sinks/perfetto/perfetto-writer.h"
#include "sinks/perfetto/protobuf.h"

#include "../kselftest_harness.h"

#define COMMON_FIELDS                                                                  \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

struct format {
	const char *system;
	const char *text;
};

/* Layouts as the kernel prints them (the module's, a 6.12 kernel's). */
static const struct format formats[] = {
	{ "ftrace", "name: print\nID: 5\nformat:\n" COMMON_FIELDS
		    "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		    "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n\n"
		    "print fmt: \"%ps: %s\", REC->ip, REC->buf\n" },
	{ "ftrace",
	  "name: bprint\nID: 6\nformat:\n" COMMON_FIELDS
	  "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:const char * fmt;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\tfield:u32 buf[];\toffset:24;\tsize:0;\tsigned:0;\n\n"
	  "print fmt: \"%ps: %s\", REC->ip, REC->fmt\n" },
	{ "sched",
	  "name: sched_switch\nID: 300\nformat:\n" COMMON_FIELDS
	  "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	  "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	  "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	  "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	  "print fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n" },
	{ "mali",
	  "name: gpu_power_state\nID: 1500\nformat:\n" COMMON_FIELDS
	  "\tfield:u64 change_ns;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:int from_state;\toffset:16;\tsize:4;\tsigned:1;\n"
	  "\tfield:int to_state;\toffset:20;\tsize:4;\tsigned:1;\n\n"
	  "print fmt: \"from=%d to=%d\", REC->from_state, REC->to_state\n" },
	{ "mali",
	  "name: mali_pm_status\nID: 1501\nformat:\n" COMMON_FIELDS
	  "\tfield:u32 gpu_id;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:u32 event_id;\toffset:12;\tsize:4;\tsigned:0;\n"
	  "\tfield:u64 value;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	  "print fmt: \"gpu=%u mask=0x%llx\", REC->gpu_id, REC->value\n" },
	{ "thermal_exynos",
	  "name: thermal_cpu_pressure\nID: 1502\nformat:\n" COMMON_FIELDS
	  "\tfield:unsigned long pressure;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:int cpu;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	  "print fmt: \"cpu=%d pressure=%lu\", REC->cpu, REC->pressure\n" },
	{ "thermal_exynos",
	  "name: thermal_exynos_arm_update\nID: 1503\nformat:\n" COMMON_FIELDS
	  "\tfield:__data_loc char[] tmu_name;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:bool is_cpu_hw_throttled;\toffset:12;\tsize:1;\tsigned:0;\n"
	  "\tfield:int ppm_throttle_level;\toffset:16;\tsize:4;\tsigned:1;\n"
	  "\tfield:int ppm_clr_level;\toffset:20;\tsize:4;\tsigned:1;\n"
	  "\tfield:int mpmm_throttle_level;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:int mpmm_clr_level;\toffset:28;\tsize:4;\tsigned:1;\n\n"
	  "print fmt: \"tmu=%s ppm=%d\", __get_str(tmu_name), REC->ppm_throttle_level\n" },
	{ "thermal",
	  "name: thermal_temperature\nID: 1505\nformat:\n" COMMON_FIELDS
	  "\tfield:__data_loc char[] thermal_zone;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:int id;\toffset:12;\tsize:4;\tsigned:1;\n"
	  "\tfield:int temp_prev;\toffset:16;\tsize:4;\tsigned:1;\n"
	  "\tfield:int temp;\toffset:20;\tsize:4;\tsigned:1;\n\n"
	  "print fmt: \"zone=%s temp=%d\", __get_str(thermal_zone), REC->temp\n" },
	{ "thermal",
	  "name: cdev_update\nID: 1506\nformat:\n" COMMON_FIELDS
	  "\tfield:__data_loc char[] type;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:unsigned long target;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	  "print fmt: \"type=%s target=%lu\", __get_str(type), REC->target\n" },
	{ "vtrace_test", "name: array_event\nID: 1504\nformat:\n" COMMON_FIELDS
			 "\tfield:u16 vals[3];\toffset:8;\tsize:6;\tsigned:0;\n"
			 "\tfield:s8 delta;\toffset:14;\tsize:1;\tsigned:1;\n\n"
			 "print fmt: \"delta=%d\", REC->delta\n" },
};

#define BPRINT_FMT_ADDR 0xffffffff82000000ull

static struct tep_handle *make_tep(void)
{
	static const char printk[] =
		"0xffffffff82000000 : \"budget=%d zone=%s\\n\"\n";
	struct tep_handle *tep = tep_alloc();
	size_t i;

	if (!tep)
		return NULL;
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_cpus(tep, 2);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (tep_parse_event(tep, formats[i].text,
				    strlen(formats[i].text),
				    formats[i].system)) {
			tep_free(tep);
			return NULL;
		}
	tep_parse_printk_formats(tep, printk);
	tep_register_comm(tep, "swapper/0", 0);
	tep_register_comm(tep, "kworker/1:2", 77);
	tep_register_comm(tep, "thermal-hal", 1234);
	return tep;
}

struct rec {
	unsigned char data[128];
	int size;
};

static void put(struct rec *r, int off, const void *v, int len)
{
	memcpy(r->data + off, v, len);
	if (off + len > r->size)
		r->size = off + len;
}

static void put_u16(struct rec *r, int off, uint16_t v)
{
	put(r, off, &v, 2);
}

static void put_u32(struct rec *r, int off, uint32_t v)
{
	put(r, off, &v, 4);
}

static void put_u64(struct rec *r, int off, uint64_t v)
{
	put(r, off, &v, 8);
}

static void common(struct rec *r, uint16_t type, int pid)
{
	memset(r, 0, sizeof(*r));
	put_u16(r, 0, type);
	put_u32(r, 4, pid);
}

static int add(struct vt_perfetto *pf, int cpu, unsigned long long ts,
	       struct rec *r, int missed)
{
	struct tep_record record = {
		.ts = ts,
		.cpu = cpu,
		.size = r->size,
		.data = r->data,
		.missed_events = missed,
	};

	return vt_perfetto_add_record(pf, &record);
}

/* The records of the golden trace; returns the first error. */
static int write_records(struct vt_perfetto *pf)
{
	static const char marker[] = "C|1234|gpu_util|42\n";
	struct rec r;
	int ret = 0;

	common(&r, 300, 0);
	put(&r, 8, "swapper/0", 10);
	put_u32(&r, 24, 0);
	put_u32(&r, 28, 120);
	put_u64(&r, 32, 0);
	put(&r, 40, "thermal-hal", 12);
	put_u32(&r, 56, 1234);
	put_u32(&r, 60, 110);
	ret = ret ?: add(pf, 0, 1000, &r, 0);

	common(&r, 5, 1234);
	put_u64(&r, 8, 0xffffffff81000010ull);
	put(&r, 16, marker, sizeof(marker));
	ret = ret ?: add(pf, 0, 1100, &r, 0);

	common(&r, 1500, 77);
	put_u64(&r, 8, 5000);
	put_u32(&r, 16, 1);
	put_u32(&r, 20, 3);
	ret = ret ?: add(pf, 1, 1200, &r, 0);

	common(&r, 1501, 77);
	put_u32(&r, 8, 0);
	put_u32(&r, 12, 0x100);
	put_u64(&r, 16, 0xff);
	ret = ret ?: add(pf, 1, 1300, &r, 0);

	common(&r, 1502, 77);
	put_u64(&r, 8, 512);
	put_u32(&r, 16, 1);
	ret = ret ?: add(pf, 1, 1400, &r, 0);

	/* "BIG": 4 bytes at offset 32. */
	common(&r, 1503, 1234);
	put_u32(&r, 8, 4 << 16 | 32);
	r.data[12] = 1;
	put_u32(&r, 16, 2);
	put_u32(&r, 20, 1);
	put_u32(&r, 24, 3);
	put_u32(&r, 28, 0);
	put(&r, 32, "BIG", 4);
	ret = ret ?: add(pf, 1, 1500, &r, 0);

	/* After 7 events lost on CPU 1: a new bundle says so. */
	common(&r, 1504, 77);
	put_u16(&r, 8, 1);
	put_u16(&r, 10, 2);
	put_u16(&r, 12, 65535);
	put(&r, 14, "\xfb", 1);
	ret = ret ?: add(pf, 1, 1600, &r, 7);

	/* trace_printk("budget=%d zone=%s\n", -3, "cpu") */
	common(&r, 6, 1234);
	put_u64(&r, 8, 0xffffffff81000020ull);
	put_u64(&r, 16, BPRINT_FMT_ADDR);
	put_u32(&r, 24, (uint32_t)-3);
	put(&r, 28, "cpu", 4);
	ret = ret ?: add(pf, 0, 1700, &r, 0);

	/* The kernel's thermal zone and cooling device: "soc" at 24. */
	common(&r, 1505, 0);
	put_u32(&r, 8, 4 << 16 | 24);
	put_u32(&r, 12, 2);
	put_u32(&r, 16, 44000);
	put_u32(&r, 20, 45500);
	put(&r, 24, "soc", 4);
	ret = ret ?: add(pf, 0, 1800, &r, 0);

	/* "fan0" at 24. */
	common(&r, 1506, 0);
	put_u32(&r, 8, 5 << 16 | 24);
	put_u64(&r, 16, 3);
	put(&r, 24, "fan0", 5);
	ret = ret ?: add(pf, 0, 1900, &r, 0);
	return ret;
}

TEST(golden_trace)
{
	const char *out = getenv("VT_PERFETTO_OUT");
	struct vt_perfetto_cpu_stats stats = { .overrun = 3, .entries = 1 };
	struct vt_perfetto_opts opts = { .ncpus = 2, .clock = "local" };
	struct vt_perfetto *pf;
	int fd;

	opts.tep = make_tep();
	ASSERT_NE(NULL, opts.tep);
	fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_perfetto_create(&pf, fd, &opts));
	EXPECT_EQ(0, write_records(pf));
	EXPECT_EQ(0, vt_perfetto_set_tgid(pf, 1234, 1234));
	EXPECT_EQ(0, vt_perfetto_set_tgid(pf, 5000, 1234)); /* no events */
	EXPECT_EQ(-EINVAL, vt_perfetto_set_tgid(pf, -1, 1));
	EXPECT_EQ(0, vt_perfetto_set_cpu_stats(pf, 1, &stats));
	EXPECT_EQ(-ERANGE, vt_perfetto_set_cpu_stats(pf, 2, &stats));
	EXPECT_EQ(0, vt_perfetto_finish(pf));
	EXPECT_EQ(10, vt_perfetto_events(pf));
	vt_perfetto_free(pf);
	close(fd);
	tep_free(opts.tep);
}

/*
 * Records from one thread per CPU at once, as while recording: every CPU
 * meets the same threads (each must be announced once, and named once in
 * the process tree) and writes markers, sched_switch and an event with an
 * array field (formatted in the CPU's own scratch text).
 */
#define THREADED_CPUS 4
#define THREADED_RECORDS 20000
#define THREADED_PIDS 700
#define THREADED_PID_BASE 100
#define THREADED_TGID 4242
/* Every this many records, a B| marker; the next record ends it. */
#define THREADED_MARKER_EVERY 100

struct threaded_cpu {
	struct vt_perfetto *pf;
	int cpu;
	int ret;
};

static unsigned char threaded_announced[THREADED_PID_BASE + THREADED_PIDS];
static int threaded_announcements;

/* Called under the writer's lock: plain counting is enough. */
static void threaded_new_pid(void *ctx, int pid)
{
	(void)ctx;
	threaded_announcements++;
	if (pid >= THREADED_PID_BASE && pid < THREADED_PID_BASE + THREADED_PIDS)
		threaded_announced[pid]++;
}

static void *threaded_writer(void *arg)
{
	struct threaded_cpu *t = arg;
	char marker[64];
	struct rec r;
	int i, pid, len;

	for (i = 0; i < THREADED_RECORDS && !t->ret; i++) {
		pid = THREADED_PID_BASE + (i * 3 + t->cpu) % THREADED_PIDS;
		if (i % THREADED_MARKER_EVERY == 0 ||
		    i % THREADED_MARKER_EVERY == 1) {
			len = snprintf(marker, sizeof(marker),
				       i % THREADED_MARKER_EVERY ?
					       "E|%d\n" :
					       "B|%d|work-%d\n",
				       THREADED_TGID, t->cpu);
			pid = THREADED_PID_BASE + t->cpu;
			common(&r, 5, pid);
			put_u64(&r, 8, 0xffffffff81000010ull);
			put(&r, 16, marker, len + 1);
		} else if (i % 2) {
			common(&r, 1504, pid);
			put_u16(&r, 8, i);
			put_u16(&r, 10, t->cpu);
			put_u16(&r, 12, 3);
			put(&r, 14, "\xff", 1);
		} else {
			common(&r, 300, pid);
			put(&r, 8, "a", 2);
			put_u32(&r, 24, pid);
			put_u32(&r, 28, 120);
			put_u64(&r, 32, 1);
			put(&r, 40, "b", 2);
			put_u32(&r, 56, pid + 1);
			put_u32(&r, 60, 120);
		}
		t->ret =
			add(t->pf, t->cpu, 1000000ull + i * 10 + t->cpu, &r, 0);
	}
	return NULL;
}

TEST(cpus_written_at_once)
{
	struct vt_perfetto_opts opts = { .ncpus = THREADED_CPUS,
					 .new_pid = threaded_new_pid };
	struct threaded_cpu threads[THREADED_CPUS];
	size_t per_cpu[THREADED_CPUS] = { 0 }, i;
	pthread_t tids[THREADED_CPUS];
	struct vt_perfetto_input in;
	char name[16], msg[256];
	struct vt_perfetto *pf;
	int cpu, pid, fd, once = 0;
	struct stat st;
	void *map;

	opts.tep = make_tep();
	ASSERT_NE(NULL, opts.tep);
	for (pid = THREADED_PID_BASE; pid <= THREADED_PID_BASE + THREADED_PIDS;
	     pid++) {
		snprintf(name, sizeof(name), "worker-%d", pid);
		ASSERT_EQ(0, tep_register_comm(opts.tep, name, pid));
	}
	fd = memfd_create("threaded.pftrace", 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_perfetto_create(&pf, fd, &opts));
	for (cpu = 0; cpu < THREADED_CPUS; cpu++) {
		threads[cpu] = (struct threaded_cpu) { .pf = pf, .cpu = cpu };
		ASSERT_EQ(0, pthread_create(&tids[cpu], NULL, threaded_writer,
					    &threads[cpu]));
	}
	for (cpu = 0; cpu < THREADED_CPUS; cpu++) {
		pthread_join(tids[cpu], NULL);
		EXPECT_EQ(0, threads[cpu].ret);
	}
	ASSERT_EQ(0, vt_perfetto_finish(pf));
	EXPECT_EQ(THREADED_CPUS * THREADED_RECORDS, vt_perfetto_events(pf));
	vt_perfetto_free(pf);

	/* sched_switch's next_pid is not the writer's: pids 100..799. */
	EXPECT_EQ(THREADED_PIDS, threaded_announcements);
	for (pid = THREADED_PID_BASE; pid < THREADED_PID_BASE + THREADED_PIDS;
	     pid++)
		once += threaded_announced[pid] == 1;
	EXPECT_EQ(THREADED_PIDS, once);

	ASSERT_EQ(0, fstat(fd, &st));
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, vtrace_perfetto_parse(&in, map, st.st_size, msg,
					   sizeof(msg)));
	EXPECT_EQ(THREADED_CPUS * THREADED_RECORDS, in.nr_events);
	for (i = 0; i < in.nr_events; i++)
		if (in.events[i].cpu >= 0 && in.events[i].cpu < THREADED_CPUS)
			per_cpu[in.events[i].cpu]++;
	for (cpu = 0; cpu < THREADED_CPUS; cpu++)
		EXPECT_EQ(THREADED_RECORDS, per_cpu[cpu]);
	/* One work-CPU slice per marker pair, all of the markers' process. */
	EXPECT_EQ(THREADED_CPUS * THREADED_RECORDS / THREADED_MARKER_EVERY,
		  in.slices.nr_slices);
	for (i = 0; i < in.slices.nr_slices; i++)
		if (in.slices.slices[i].pid != THREADED_TGID)
			break;
	EXPECT_EQ(in.slices.nr_slices, i);
	EXPECT_STREQ("worker-100", vtrace_perfetto_comm(&in, 100));
	EXPECT_STREQ("worker-799", vtrace_perfetto_comm(&in, 799));
	vtrace_perfetto_input_free(&in);
	munmap(map, st.st_size);
	close(fd);
	tep_free(opts.tep);
}

TEST(cpu_out_of_range)
{
	struct vt_perfetto_opts opts = { .ncpus = 2 };
	struct vt_perfetto *pf;
	struct rec r;
	int fd;

	opts.tep = make_tep();
	ASSERT_NE(NULL, opts.tep);
	fd = open("/dev/null", O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, vt_perfetto_create(&pf, -1, &opts));
	EXPECT_EQ(NULL, pf);
	ASSERT_EQ(0, vt_perfetto_create(&pf, fd, &opts));
	common(&r, 1504, 1);
	EXPECT_EQ(-ERANGE, add(pf, 2, 1, &r, 0));
	EXPECT_EQ(0, add(pf, 1, 1, &r, 0));
	EXPECT_EQ(0, vt_perfetto_finish(pf));
	vt_perfetto_free(pf);
	close(fd);
	tep_free(opts.tep);
}

/* A write error sticks, is named, and finish() returns it. */
TEST(write_error)
{
	struct vt_perfetto_opts opts = { .ncpus = 1 };
	struct vt_perfetto *pf;
	struct rec r;
	int fd, i, ret = 0;

	opts.tep = make_tep();
	ASSERT_NE(NULL, opts.tep);
	fd = open("/dev/full", O_WRONLY);
	if (fd < 0)
		SKIP(return, "no /dev/full");
	ret = vt_perfetto_create(&pf, fd, &opts);
	EXPECT_EQ(-ENOSPC, ret);
	if (!ret) {
		common(&r, 1504, 1);
		for (i = 0; i < 10000 && !ret; i++)
			ret = add(pf, 0, i, &r, 0);
		vt_perfetto_free(pf);
	}
	close(fd);
	tep_free(opts.tep);
}

static void expect_bytes(struct __test_metadata *_metadata, struct vt_pb *pb,
			 const char *want, size_t len)
{
	ASSERT_EQ(0, pb->err);
	ASSERT_EQ(len, pb->len);
	EXPECT_EQ(0, memcmp(pb->buf, want, len));
	vt_pb_reset(pb);
}

TEST(wire_format)
{
	struct vt_pb pb;
	char big[300];
	int i;

	vt_pb_init(&pb);
	vt_pb_varint(&pb, 1, 0);
	expect_bytes(_metadata, &pb, "\x08\x00", 2);
	vt_pb_varint(&pb, 1, 300);
	expect_bytes(_metadata, &pb, "\x08\xac\x02", 3);
	vt_pb_varint(&pb, 16, UINT64_MAX);
	expect_bytes(_metadata, &pb,
		     "\x80\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12);
	vt_pb_int(&pb, 2, -1);
	expect_bytes(_metadata, &pb,
		     "\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
	vt_pb_sint(&pb, 3, -1);
	expect_bytes(_metadata, &pb, "\x18\x01", 2);
	vt_pb_sint(&pb, 3, -64);
	vt_pb_sint(&pb, 3, 64);
	expect_bytes(_metadata, &pb, "\x18\x7f\x18\x80\x01", 5);
	vt_pb_fixed32(&pb, 4, 0x01020304);
	vt_pb_fixed64(&pb, 5, 0x0102030405060708ull);
	expect_bytes(_metadata, &pb,
		     "\x25\x04\x03\x02\x01\x29\x08\x07\x06\x05\x04\x03\x02\x01",
		     14);
	vt_pb_double(&pb, 6, 1.0);
	expect_bytes(_metadata, &pb, "\x31\x00\x00\x00\x00\x00\x00\xf0\x3f", 9);
	vt_pb_string(&pb, 7, "hi");
	expect_bytes(_metadata, &pb, "\x3a\x02hi", 4);

	/* Empty, one-byte and two-byte lengths of nested messages. */
	vt_pb_begin(&pb, 1);
	vt_pb_end(&pb);
	expect_bytes(_metadata, &pb, "\x0a\x00", 2);
	vt_pb_begin(&pb, 1);
	vt_pb_begin(&pb, 2);
	vt_pb_varint(&pb, 3, 1);
	vt_pb_end(&pb);
	vt_pb_end(&pb);
	expect_bytes(_metadata, &pb, "\x0a\x04\x12\x02\x18\x01", 6);
	memset(big, 'x', sizeof(big));
	vt_pb_begin(&pb, 1);
	vt_pb_bytes(&pb, 2, big, 200);
	vt_pb_end(&pb);
	ASSERT_EQ(0, pb.err);
	ASSERT_EQ(2 + 1 + 2 + 200 + 1, pb.len);
	EXPECT_EQ(0, memcmp(pb.buf, "\x0a\xcb\x01\x12\xc8\x01xx", 8));
	vt_pb_reset(&pb);

	/* Too deep: the error sticks until reset. */
	for (i = 0; i <= VT_PB_MAX_DEPTH; i++)
		vt_pb_begin(&pb, 1);
	EXPECT_EQ(-E2BIG, pb.err);
	vt_pb_reset(&pb);
	vt_pb_varint(&pb, 1, 1);
	expect_bytes(_metadata, &pb, "\x08\x01", 2);
	vt_pb_free(&pb);
}

/*
 * Every typed message's fields against real kernels' formats of its event
 * (the Pixel 6's and Perfetto's synthetic ones, in the directories of
 * $VT_PERFETTO_REF_EVENTS, colon-separated: DIR/SYSTEM/EVENT/format):
 * each field the message has is in the format, a string where the
 * message has a string and a number where it has a number.
 */
TEST(typed_fields_match_reference_formats)
{
	const char *dirs = getenv("VT_PERFETTO_REF_EVENTS");
	char path[512], *list, *dir, *save = NULL, *text;
	const struct pf_typed_event *t;
	struct tep_format_field *f;
	struct tep_event *event;
	struct tep_handle *tep;
	int checked = 0, i;
	size_t n, len;
	FILE *fp;

	if (!dirs)
		SKIP(return, "VT_PERFETTO_REF_EVENTS not set");
	list = strdup(dirs);
	ASSERT_NE(NULL, list);
	for (dir = strtok_r(list, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		for (n = 0; n < vt_pf_nr_typed_events; n++) {
			t = &vt_pf_typed_events[n];
			snprintf(path, sizeof(path), "%s/%s/%s/format", dir,
				 t->system, t->name);
			fp = fopen(path, "r");
			if (!fp)
				continue;
			text = NULL;
			len = 0;
			ASSERT_LT(0, getdelim(&text, &len, '\0', fp));
			fclose(fp);
			tep = tep_alloc();
			tep_set_long_size(tep, 8);
			ASSERT_EQ(0, tep_parse_event(tep, text, strlen(text),
						     t->system))
			TH_LOG("%s", path);
			event = tep_find_event_by_name(tep, t->system, t->name);
			ASSERT_NE(NULL, event);
			for (i = 0; t->fields[i].name; i++) {
				f = tep_find_field(event, t->fields[i].name);
				EXPECT_NE(NULL, f)
				TH_LOG("%s: no field %s", path,
				       t->fields[i].name);
				if (f)
					EXPECT_EQ(t->fields[i].kind ==
							  PF_STRING,
						  !!(f->flags &
						     TEP_FIELD_IS_STRING))
				TH_LOG("%s: field %s", path, t->fields[i].name);
			}
			checked++;
			tep_free(tep);
			free(text);
		}
	}
	free(list);
	TH_LOG("%d formats checked", checked);
	EXPECT_LT(0, checked);
}

TEST_HARNESS_MAIN
