// SPDX-License-Identifier: LGPL-2.1
/*
 * linux.system_info: once, at the start, what the machine is (SystemInfo:
 * uname, page size, CPUs, RAM, USER_HZ) and what its CPUs are (CpuInfo:
 * name or ARM identifier, the frequencies cpufreq offers, the scheduler's
 * capacity on asymmetric systems such as Exynos' big.LITTLE).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <vtrace/file-io.h>
#include <vtrace/version.h>

#include "probes/probes-local.h"
#include "sinks/perfetto/perfetto-format.h"

#define CPU_DIR "/sys/devices/system/cpu"

/**
 * vt_system_info_write - encode the SystemInfo packet
 * @pb: the buffer, emptied and filled with the packet
 */
void vt_system_info_write(struct vt_pb *pb)
{
	struct utsname u;
	struct sysinfo si;

	vt_packet_begin(pb, VT_SEQ_SYSTEM_INFO);
	vt_pb_begin(pb, PF_PACKET_SYSTEM_INFO);
	if (!uname(&u)) {
		vt_pb_begin(pb, PF_SYSINFO_UTSNAME);
		vt_pb_string(pb, PF_UTS_SYSNAME, u.sysname);
		vt_pb_string(pb, PF_UTS_VERSION, u.version);
		vt_pb_string(pb, PF_UTS_RELEASE, u.release);
		vt_pb_string(pb, PF_UTS_MACHINE, u.machine);
		vt_pb_end(pb);
	}
	vt_pb_string(pb, PF_SYSINFO_SERVICE_VERSION, "vtrace " VTRACE_VERSION);
	vt_pb_varint(pb, PF_SYSINFO_PAGE_SIZE, sysconf(_SC_PAGESIZE));
	vt_pb_varint(pb, PF_SYSINFO_NUM_CPUS, sysconf(_SC_NPROCESSORS_CONF));
	vt_pb_int(pb, PF_SYSINFO_HZ, sysconf(_SC_CLK_TCK));
	if (!sysinfo(&si))
		vt_pb_varint(pb, PF_SYSINFO_RAM_BYTES,
			     (uint64_t)si.totalram * si.mem_unit);
	vt_pb_end(pb);
}

/**
 * struct cpu_id - what /proc/cpuinfo says of one CPU
 * @model: "model name" (x86) or "Processor" (32-bit ARM)
 * @arm: the "CPU implementer", "architecture", "variant", "part" and
 *	"revision" values (ARM), in ArmCpuIdentifier's order
 * @has_arm: @arm was read
 */
struct cpu_id {
	char model[128];
	unsigned int arm[5];
	bool has_arm;
};

static const char *const arm_keys[5] = {
	"CPU implementer", "CPU architecture", "CPU variant",
	"CPU part",	   "CPU revision",
};

/* Fills @ids[cpu] from /proc/cpuinfo's "processor : N" blocks. */
static void read_cpuinfo(struct cpu_id *ids, int nr)
{
	char *text, *line, *next, *colon;
	size_t len;
	int cpu = -1, i;

	text = vtrace_read_file("/proc/cpuinfo", &len);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		colon = strchr(line, ':');
		if (!colon)
			continue;
		if (!strncmp(line, "processor", 9)) {
			cpu = atoi(colon + 1);
			continue;
		}
		if (cpu < 0 || cpu >= nr)
			continue;
		if (!strncmp(line, "model name", 10) ||
		    !strncmp(line, "Processor", 9)) {
			snprintf(ids[cpu].model, sizeof(ids[cpu].model), "%s",
				 colon + 1 + (colon[1] == ' '));
			continue;
		}
		for (i = 0; i < 5; i++) {
			if (strncmp(line, arm_keys[i], strlen(arm_keys[i])))
				continue;
			ids[cpu].arm[i] = strtoul(colon + 1, NULL, 0);
			ids[cpu].has_arm = true;
		}
	}
	free(text);
}

/* The kHz values of a cpufreq file listing them; false if it has none. */
static bool put_freqs(struct vt_pb *pb, const char *path)
{
	char buf[1024], *p, *end;
	unsigned long khz;
	bool any = false;

	if (!vt_read_small(path, buf, sizeof(buf)))
		return false;
	for (p = buf;; p = end) {
		khz = strtoul(p, &end, 10);
		if (end == p)
			break;
		vt_pb_varint(pb, PF_CPU_FREQUENCIES, khz);
		any = true;
	}
	return any;
}

static void put_cpu(struct vt_pb *pb, int cpu, const struct cpu_id *id)
{
	char path[128], buf[32];
	int i;

	vt_pb_begin(pb, PF_CPU_INFO_CPUS);
	if (id->model[0])
		vt_pb_string(pb, PF_CPU_PROCESSOR, id->model);
	snprintf(path, sizeof(path),
		 CPU_DIR "/cpu%d/cpufreq/scaling_available_frequencies", cpu);
	if (!put_freqs(pb, path)) {
		/* Drivers without a table (intel_pstate): the range. */
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu%d/cpufreq/cpuinfo_min_freq", cpu);
		put_freqs(pb, path);
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
		put_freqs(pb, path);
	}
	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpu_capacity", cpu);
	if (vt_read_small(path, buf, sizeof(buf)))
		vt_pb_varint(pb, PF_CPU_CAPACITY, strtoul(buf, NULL, 10));
	if (id->has_arm) {
		vt_pb_begin_short(pb, PF_CPU_ARM_IDENTIFIER);
		for (i = 0; i < 5; i++)
			vt_pb_varint(pb, PF_ARM_IMPLEMENTER + i, id->arm[i]);
		vt_pb_end(pb);
	}
	vt_pb_end(pb);
}

/**
 * vt_cpu_info_write - encode the CpuInfo packet
 * @pb: the buffer, emptied and filled with the packet
 */
void vt_cpu_info_write(struct vt_pb *pb)
{
	int nr = sysconf(_SC_NPROCESSORS_CONF), cpu;
	struct cpu_id *ids;

	vt_packet_begin(pb, VT_SEQ_SYSTEM_INFO);
	if (nr < 1)
		nr = 1;
	ids = calloc(nr, sizeof(*ids));
	if (!ids) {
		pb->err = -ENOMEM;
		return;
	}
	read_cpuinfo(ids, nr);
	vt_pb_begin(pb, PF_PACKET_CPU_INFO);
	for (cpu = 0; cpu < nr; cpu++)
		put_cpu(pb, cpu, &ids[cpu]);
	vt_pb_end(pb);
	free(ids);
}
