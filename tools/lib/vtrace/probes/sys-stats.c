// SPDX-License-Identifier: LGPL-2.1
/*
 * linux.sys_stats: the kernel's counters in /proc and sysfs, read at each
 * kind's period into one SysStats packet, with Perfetto's units: meminfo
 * in kB, CPU times in ns, cpufreq in kHz, devfreq as cur_freq reads,
 * thermal zones in degrees Celsius, PSI totals in ns.
 *
 * The /proc files stay open and are read again from offset 0 at each poll
 * (as traced_probes does); sysfs directories are listed at each poll, as
 * their devices come and go. A kind whose file or class the kernel lacks
 * is noted once (vt_sys_stats_missing()) and not polled again.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/probes-local.h"
#include "sinks/perfetto/perfetto-format.h"

#define DEVFREQ_CLASS "/sys/class/devfreq"
#define THERMAL_CLASS "/sys/class/thermal"
#define CPU_DIR "/sys/devices/system/cpu"

/* The /proc file each kind reads, NULL for the sysfs ones. */
static const char *const proc_files[VTRACE_SYS_NR] = {
	[VTRACE_SYS_MEMINFO] = "/proc/meminfo",
	[VTRACE_SYS_VMSTAT] = "/proc/vmstat",
	[VTRACE_SYS_STAT] = "/proc/stat",
	[VTRACE_SYS_BUDDYINFO] = "/proc/buddyinfo",
	[VTRACE_SYS_DISKSTAT] = "/proc/diskstats",
};

/* PSI's files, in the order of SysStats.PsiSample.PsiResource. */
static const char *const psi_files[] = {
	"/proc/pressure/cpu",
	"/proc/pressure/io",
	"/proc/pressure/memory",
};

#define NR_PSI (sizeof(psi_files) / sizeof(psi_files[0]))

/* Lines of /proc/meminfo and /proc/vmstat whose match is remembered. */
#define HINT_LINES 512
#define HINT_UNKNOWN 0
#define HINT_NONE 0xffff
/* Longest /proc/vmstat key of VmstatCounters, and its NUL. */
#define VMSTAT_KEY_MAX 48

/**
 * struct vt_sys_stats - linux.sys_stats' reader
 * @cfg: what to read
 * @fd: each kind's open /proc file, -1 where it has none
 * @psi_fd: the PSI files
 * @missing: bit per kind the kernel lacks (not polled)
 * @ns_per_tick: nanoseconds per USER_HZ tick of /proc/stat
 * @nr_cpus: CPUs whose frequency cpufreq_khz lists
 * @meminfo_key: /proc/meminfo key of each wanted MeminfoCounters value
 * @vmstat_key: /proc/vmstat key of each wanted VmstatCounters value
 * @vmstat_keys: the text of those keys, %VMSTAT_KEY_MAX bytes each
 * @hint: per line of /proc/meminfo and /proc/vmstat, the value it matched
 *	at the last poll, %HINT_NONE or %HINT_UNKNOWN
 * @text: the last file read
 * @cap: bytes at @text
 */
struct vt_sys_stats {
	struct vtrace_sys_stats cfg;
	int fd[VTRACE_SYS_NR];
	int psi_fd[NR_PSI];
	uint32_t missing;
	uint64_t ns_per_tick;
	int nr_cpus;
	const char *meminfo_key[VTRACE_MEMINFO_MAX + 1];
	const char *vmstat_key[VTRACE_VMSTAT_MAX + 1];
	char vmstat_keys[(VTRACE_VMSTAT_MAX + 1) * VMSTAT_KEY_MAX];
	uint16_t hint[2][HINT_LINES];
	char *text;
	size_t cap;
};

/* Reads an open file whole into ss->text; NULL on failure. */
static char *slurp(struct vt_sys_stats *ss, int fd)
{
	size_t len = 0;
	ssize_t n;
	char *p;

	for (;;) {
		if (len + 1 >= ss->cap) {
			p = realloc(ss->text, ss->cap ? ss->cap * 2 : 16384);
			if (!p)
				return NULL;
			ss->text = p;
			ss->cap = ss->cap ? ss->cap * 2 : 16384;
		}
		n = pread(fd, ss->text + len, ss->cap - len - 1, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return NULL;
		if (!n)
			break;
		len += n;
	}
	ss->text[len] = '\0';
	return ss->text;
}

/* The next line of @*pos, NUL-terminated in place; NULL at the end. */
static char *next_line(char **pos)
{
	char *line = *pos, *nl;

	if (!*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*pos = nl + 1;
	} else {
		*pos = line + strlen(line);
	}
	return line;
}

static bool wanted(const uint64_t *mask, unsigned int bit)
{
	return mask[bit / 64] & (1ull << (bit % 64));
}

/*
 * The "KEY<@sep> VALUE" lines of /proc/meminfo or /proc/vmstat: each line
 * whose key is wanted (@keys[N], N its enum value; NULL: not wanted) as
 * message @field of SysStats. A running kernel lists the same keys in the
 * same order at every read, so what a line matched (a value, or none) is
 * kept by its number and each line is compared once, not searched for.
 */
static void poll_keyed(struct vt_sys_stats *ss, int kind, char sep,
		       const char *const *keys, unsigned int max,
		       uint32_t field, struct vt_pb *pb)
{
	uint16_t *hint = ss->hint[kind == VTRACE_SYS_VMSTAT];
	unsigned long long value;
	char *pos, *line, *end;
	unsigned int n, v;

	pos = slurp(ss, ss->fd[kind]);
	for (n = 0; pos && (line = next_line(&pos)); n++) {
		end = strchr(line, sep);
		if (!end)
			continue;
		*end++ = '\0';
		v = n < HINT_LINES ? hint[n] : HINT_UNKNOWN;
		if (v == HINT_NONE)
			continue;
		if (v == HINT_UNKNOWN || !keys[v] || strcmp(keys[v], line)) {
			for (v = 1; v <= max; v++)
				if (keys[v] && !strcmp(keys[v], line))
					break;
			if (n < HINT_LINES)
				hint[n] = v <= max ? v : HINT_NONE;
			if (v > max)
				continue;
		}
		value = strtoull(end, NULL, 10);
		vt_pb_begin_short(pb, field);
		vt_pb_varint(pb, PF_SYS_KEY, v);
		vt_pb_varint(pb, PF_SYS_VALUE, value);
		vt_pb_end(pb);
	}
}

/* "intr" and "softirq": the total, then the non-zero counts by number. */
static void put_interrupts(struct vt_pb *pb, const char *counts,
			   uint32_t total_field, uint32_t each_field)
{
	unsigned long long n;
	char *end;
	int irq;

	n = strtoull(counts, &end, 10);
	vt_pb_varint(pb, total_field, n);
	for (irq = 0;; irq++) {
		counts = end;
		n = strtoull(counts, &end, 10);
		if (end == counts)
			break;
		if (!n)
			continue;
		vt_pb_begin_short(pb, each_field);
		vt_pb_varint(pb, PF_SYS_KEY, irq);
		vt_pb_varint(pb, PF_SYS_VALUE, n);
		vt_pb_end(pb);
	}
}

static void poll_stat(struct vt_sys_stats *ss, struct vt_pb *pb)
{
	unsigned long long t[PF_CPU_TIMES_NR];
	uint32_t which = ss->cfg.stat_counters;
	unsigned long long forks;
	char *pos, *line;
	int cpu, i;

	pos = slurp(ss, ss->fd[VTRACE_SYS_STAT]);
	while (pos && (line = next_line(&pos))) {
		if (!strncmp(line, "cpu", 3) &&
		    isdigit((unsigned char)line[3])) {
			if (!(which & VTRACE_STAT_CPU_TIMES))
				continue;
			memset(t, 0, sizeof(t));
			if (sscanf(line + 3,
				   "%d %llu %llu %llu %llu %llu %llu %llu %llu",
				   &cpu, &t[0], &t[1], &t[2], &t[3], &t[4],
				   &t[5], &t[6], &t[7]) < 5)
				continue;
			vt_pb_begin_short(pb, PF_SYS_CPU_STAT);
			vt_pb_varint(pb, PF_CPU_TIMES_CPU_ID, cpu);
			for (i = 0; i < PF_CPU_TIMES_NR; i++)
				vt_pb_varint(pb, PF_CPU_TIMES_FIRST + i,
					     t[i] * ss->ns_per_tick);
			vt_pb_end(pb);
		} else if (!strncmp(line, "intr ", 5)) {
			if (which & VTRACE_STAT_IRQ_COUNTS)
				put_interrupts(pb, line + 5,
					       PF_SYS_NUM_IRQ_TOTAL,
					       PF_SYS_NUM_IRQ);
		} else if (!strncmp(line, "softirq ", 8)) {
			if (which & VTRACE_STAT_SOFTIRQ_COUNTS)
				put_interrupts(pb, line + 8,
					       PF_SYS_NUM_SOFTIRQ_TOTAL,
					       PF_SYS_NUM_SOFTIRQ);
		} else if (sscanf(line, "processes %llu", &forks) == 1) {
			if (which & VTRACE_STAT_FORK_COUNT)
				vt_pb_varint(pb, PF_SYS_NUM_FORKS, forks);
		}
	}
}

static void put_devfreq(const char *dir, const char *name, struct vt_pb *pb)
{
	char path[512], buf[32];
	unsigned long long hz;

	snprintf(path, sizeof(path), "%s/%s/cur_freq", dir, name);
	if (!vt_read_small(path, buf, sizeof(buf)) ||
	    sscanf(buf, "%llu", &hz) != 1)
		return;
	vt_pb_begin_short(pb, PF_SYS_DEVFREQ);
	vt_pb_string(pb, PF_SYS_KEY, name);
	vt_pb_varint(pb, PF_SYS_VALUE, hz);
	vt_pb_end(pb);
}

static void put_thermal_zone(const char *dir, const char *name,
			     struct vt_pb *pb)
{
	char path[512], buf[64];
	long long mc;

	if (strncmp(name, "thermal_zone", 12))
		return;
	snprintf(path, sizeof(path), "%s/%s/temp", dir, name);
	/* A sensor that cannot be read now (EAGAIN, ENODATA) is left out. */
	if (!vt_read_small(path, buf, sizeof(buf)) ||
	    sscanf(buf, "%lld", &mc) != 1)
		return;
	snprintf(path, sizeof(path), "%s/%s/type", dir, name);
	if (!vt_read_small(path, buf, sizeof(buf)))
		buf[0] = '\0';
	vt_pb_begin_short(pb, PF_SYS_THERMAL_ZONE);
	vt_pb_string(pb, PF_THERMAL_NAME, name);
	vt_pb_varint(pb, PF_THERMAL_TEMP, mc > 0 ? mc / 1000 : 0);
	vt_pb_string(pb, PF_THERMAL_TYPE, buf);
	vt_pb_end(pb);
}

/* Each device of a sysfs class (devfreq's, the thermal zones) by @put. */
static void poll_class(const char *dir,
		       void (*put)(const char *dir, const char *name,
				   struct vt_pb *pb),
		       struct vt_pb *pb)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		put(dir, de->d_name, pb);
	}
	closedir(d);
}

/* One value per CPU, 0 for a CPU whose frequency cannot be read. */
static void poll_cpufreq(struct vt_sys_stats *ss, struct vt_pb *pb)
{
	char path[128], buf[32];
	unsigned long khz;
	int cpu;

	for (cpu = 0; cpu < ss->nr_cpus; cpu++) {
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu%d/cpufreq/scaling_cur_freq", cpu);
		if (!vt_read_small(path, buf, sizeof(buf)) ||
		    sscanf(buf, "%lu", &khz) != 1)
			khz = 0;
		vt_pb_varint(pb, PF_SYS_CPUFREQ_KHZ, khz);
	}
}

/* "Node 0, zone   Normal   n0 n1 ...": free blocks of each order. */
static void poll_buddyinfo(struct vt_sys_stats *ss, struct vt_pb *pb)
{
	char *pos, *line, *end, node[16], zone[32];
	unsigned long n;
	int off;

	pos = slurp(ss, ss->fd[VTRACE_SYS_BUDDYINFO]);
	while (pos && (line = next_line(&pos))) {
		if (sscanf(line, "Node %15[^,], zone %31s%n", node, zone,
			   &off) != 2)
			continue;
		vt_pb_begin(pb, PF_SYS_BUDDY_INFO);
		vt_pb_string(pb, PF_BUDDY_NODE, node);
		vt_pb_string(pb, PF_BUDDY_ZONE, zone);
		for (line += off;; line = end) {
			n = strtoul(line, &end, 10);
			if (end == line)
				break;
			vt_pb_varint(pb, PF_BUDDY_ORDER_PAGES, n);
		}
		vt_pb_end(pb);
	}
}

/*
 * /proc/diskstats: major minor name, then reads, reads merged, sectors
 * read, ms reading, the same four for writes, in flight, ms doing I/O,
 * weighted ms, the four for discards (4.18+), flushes and ms flushing
 * (5.5+).
 */
static void poll_diskstat(struct vt_sys_stats *ss, struct vt_pb *pb)
{
	unsigned long long f[17];
	char *pos, *line, *name, *end;
	int n;

	pos = slurp(ss, ss->fd[VTRACE_SYS_DISKSTAT]);
	while (pos && (line = next_line(&pos))) {
		/* The name is the third field. */
		strtoul(line, &end, 10);
		strtoul(end, &end, 10);
		name = end + strspn(end, " ");
		end = name + strcspn(name, " ");
		if (end == name || !*end)
			continue;
		*end++ = '\0';
		memset(f, 0, sizeof(f));
		for (n = 0; n < 17; n++) {
			line = end;
			f[n] = strtoull(line, &end, 10);
			if (end == line)
				break;
		}
		if (n < 11)
			continue;
		vt_pb_begin_short(pb, PF_SYS_DISK_STAT);
		vt_pb_string(pb, PF_DISK_DEVICE_NAME, name);
		vt_pb_varint(pb, PF_DISK_READ_SECTORS, f[2]);
		vt_pb_varint(pb, PF_DISK_READ_TIME_MS, f[3]);
		vt_pb_varint(pb, PF_DISK_WRITE_SECTORS, f[6]);
		vt_pb_varint(pb, PF_DISK_WRITE_TIME_MS, f[7]);
		vt_pb_varint(pb, PF_DISK_DISCARD_SECTORS, f[13]);
		vt_pb_varint(pb, PF_DISK_DISCARD_TIME_MS, f[14]);
		vt_pb_varint(pb, PF_DISK_FLUSH_COUNT, f[15]);
		vt_pb_varint(pb, PF_DISK_FLUSH_TIME_MS, f[16]);
		vt_pb_end(pb);
	}
}

/* "some avg10=... total=US" and "full ...": totals in ns. */
static void poll_psi(struct vt_sys_stats *ss, struct vt_pb *pb)
{
	unsigned long long us;
	char *pos, *line, *total;
	unsigned int r;
	int full;

	for (r = 0; r < NR_PSI; r++) {
		if (ss->psi_fd[r] < 0)
			continue;
		pos = slurp(ss, ss->psi_fd[r]);
		while (pos && (line = next_line(&pos))) {
			full = !strncmp(line, "full ", 5);
			total = strstr(line, "total=");
			if ((!full && strncmp(line, "some ", 5)) || !total ||
			    sscanf(total + 6, "%llu", &us) != 1)
				continue;
			vt_pb_begin_short(pb, PF_SYS_PSI);
			vt_pb_varint(pb, PF_PSI_RESOURCE, 1 + 2 * r + full);
			vt_pb_varint(pb, PF_PSI_TOTAL_NS, us * 1000);
			vt_pb_end(pb);
		}
	}
}

static void poll_meminfo(struct vt_sys_stats *ss, struct vt_pb *pb)
{
	poll_keyed(ss, VTRACE_SYS_MEMINFO, ':', ss->meminfo_key,
		   VTRACE_MEMINFO_MAX, PF_SYS_MEMINFO, pb);
}

static void poll_vmstat(struct vt_sys_stats *ss, struct vt_pb *pb)
{
	poll_keyed(ss, VTRACE_SYS_VMSTAT, ' ', ss->vmstat_key,
		   VTRACE_VMSTAT_MAX, PF_SYS_VMSTAT, pb);
}

static void poll_devfreq(struct vt_sys_stats *ss, struct vt_pb *pb)
{
	poll_class(DEVFREQ_CLASS, put_devfreq, pb);
}

static void poll_thermal(struct vt_sys_stats *ss, struct vt_pb *pb)
{
	poll_class(THERMAL_CLASS, put_thermal_zone, pb);
}

/* Each kind's reader, in the order of SysStats' fields. */
static void (*const pollers[VTRACE_SYS_NR])(struct vt_sys_stats *ss,
					    struct vt_pb *pb) = {
	[VTRACE_SYS_MEMINFO] = poll_meminfo,
	[VTRACE_SYS_VMSTAT] = poll_vmstat,
	[VTRACE_SYS_STAT] = poll_stat,
	[VTRACE_SYS_DEVFREQ] = poll_devfreq,
	[VTRACE_SYS_CPUFREQ] = poll_cpufreq,
	[VTRACE_SYS_BUDDYINFO] = poll_buddyinfo,
	[VTRACE_SYS_DISKSTAT] = poll_diskstat,
	[VTRACE_SYS_PSI] = poll_psi,
	[VTRACE_SYS_THERMAL] = poll_thermal,
};

/**
 * vt_sys_stats_poll - encode one SysStats packet
 * @ss: the reader
 * @kinds: bit per enum vtrace_sys_stats_kind due now
 * @pb: the buffer, emptied and filled with the packet
 */
void vt_sys_stats_poll(struct vt_sys_stats *ss, uint32_t kinds,
		       struct vt_pb *pb)
{
	int k;

	kinds &= ~ss->missing;
	vt_packet_begin(pb, VT_SEQ_SYS_STATS);
	vt_pb_begin(pb, PF_PACKET_SYS_STATS);
	for (k = 0; k < VTRACE_SYS_NR; k++)
		if (kinds & 1u << k)
			pollers[k](ss, pb);
	vt_pb_varint(pb, PF_SYS_COLLECTION_END, vt_boot_ns());
	vt_pb_end(pb);
}

/* Whether the kernel has what @kind reads; opens its files. */
static bool open_kind(struct vt_sys_stats *ss, int kind)
{
	char path[128];
	unsigned int r;
	bool any = false;

	switch (kind) {
	case VTRACE_SYS_DEVFREQ:
		return !access(DEVFREQ_CLASS, R_OK);
	case VTRACE_SYS_THERMAL:
		return !access(THERMAL_CLASS, R_OK);
	case VTRACE_SYS_CPUFREQ:
		snprintf(path, sizeof(path), CPU_DIR "/cpu0/cpufreq");
		return !access(path, R_OK);
	case VTRACE_SYS_PSI:
		for (r = 0; r < NR_PSI; r++) {
			ss->psi_fd[r] =
				open(psi_files[r], O_RDONLY | O_CLOEXEC);
			any |= ss->psi_fd[r] >= 0;
		}
		return any;
	default:
		ss->fd[kind] = open(proc_files[kind], O_RDONLY | O_CLOEXEC);
		return ss->fd[kind] >= 0;
	}
}

/**
 * vt_sys_stats_new - a reader of the counters a config asks for
 * @out: set to the reader
 * @cfg: the config (copied)
 *
 * Return: 0, or -ENOMEM.
 */
int vt_sys_stats_new(struct vt_sys_stats **out,
		     const struct vtrace_sys_stats *cfg)
{
	struct vt_sys_stats *ss;
	long hz;
	int k;
	unsigned int v;

	*out = NULL;
	ss = calloc(1, sizeof(*ss));
	if (!ss)
		return -ENOMEM;
	ss->cfg = *cfg;
	for (k = 0; k < VTRACE_SYS_NR; k++)
		ss->fd[k] = -1;
	for (v = 0; v < NR_PSI; v++)
		ss->psi_fd[v] = -1;
	hz = sysconf(_SC_CLK_TCK);
	ss->ns_per_tick = hz > 0 ? 1000000000 / hz : 10000000;
	ss->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	for (v = 1; v <= VTRACE_MEMINFO_MAX; v++)
		if (cfg->meminfo & 1ull << v)
			ss->meminfo_key[v] = vt_meminfo_key(v);
	for (v = 1; v <= VTRACE_VMSTAT_MAX; v++)
		if (wanted(cfg->vmstat, v) &&
		    !vt_vmstat_key(v, ss->vmstat_keys + v * VMSTAT_KEY_MAX,
				   VMSTAT_KEY_MAX))
			ss->vmstat_key[v] =
				ss->vmstat_keys + v * VMSTAT_KEY_MAX;
	for (k = 0; k < VTRACE_SYS_NR; k++)
		if (cfg->period_ms[k] && !open_kind(ss, k))
			ss->missing |= 1u << k;
	*out = ss;
	return 0;
}

/**
 * vt_sys_stats_missing - the kinds this kernel does not have
 * @ss: the reader
 *
 * Return: bit per enum vtrace_sys_stats_kind asked for but not polled.
 */
uint32_t vt_sys_stats_missing(const struct vt_sys_stats *ss)
{
	return ss->missing;
}

/**
 * vt_sys_stats_free - close and release a reader
 * @ss: the reader, or NULL
 */
void vt_sys_stats_free(struct vt_sys_stats *ss)
{
	unsigned int i;

	if (!ss)
		return;
	for (i = 0; i < VTRACE_SYS_NR; i++)
		if (ss->fd[i] >= 0)
			close(ss->fd[i]);
	for (i = 0; i < NR_PSI; i++)
		if (ss->psi_fd[i] >= 0)
			close(ss->psi_fd[i]);
	free(ss->text);
	free(ss);
}
