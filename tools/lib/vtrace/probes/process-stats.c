// SPDX-License-Identifier: LGPL-2.1
/*
 * linux.process_stats: the process tree from /proc at the start
 * (ProcessTree: each process's pid, ppid, uid and cmdline, each thread's
 * tid, tgid and, when asked, name) and, every proc_stats_poll_ms, each
 * user process's memory counters from /proc/PID/status (ProcessStats).
 * A thread the recorded events name that is not in the tree yet is added
 * with its process, in a ProcessTree of its own (on demand, as Perfetto's
 * process_stats does for the pids its ftrace source reports).
 *
 * A process that exits while it is read is left out; its tree entry or
 * counters are simply not in the packet, as with traced_probes.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/probes-local.h"
#include "sinks/perfetto/perfetto-format.h"

/* /proc/PID/status keys ProcessStats.Process carries, in kB. */
static const struct {
	const char *key;
	uint32_t field;
} status_kb[] = {
	{ "VmSize:", PF_PSTAT_VM_SIZE_KB },
	{ "VmRSS:", PF_PSTAT_VM_RSS_KB },
	{ "RssAnon:", PF_PSTAT_RSS_ANON_KB },
	{ "RssFile:", PF_PSTAT_RSS_FILE_KB },
	{ "RssShmem:", PF_PSTAT_RSS_SHMEM_KB },
	{ "VmSwap:", PF_PSTAT_VM_SWAP_KB },
	{ "VmLck:", PF_PSTAT_VM_LOCKED_KB },
	{ "VmHWM:", PF_PSTAT_VM_HWM_KB },
};

#define NR_STATUS_KB (sizeof(status_kb) / sizeof(status_kb[0]))

/**
 * struct vt_proc_stats - linux.process_stats' reader
 * @cfg: what to record
 * @ns_per_tick: nanoseconds per USER_HZ tick of /proc/PID/stat
 * @known: bit per pid and tid already in the trace's process tree
 * @known_words: 64-bit words at @known
 * @text: the last file read
 * @cap: bytes at @text
 */
struct vt_proc_stats {
	struct vtrace_process_stats cfg;
	uint64_t ns_per_tick;
	uint64_t *known;
	size_t known_words;
	char *text;
	size_t cap;
};

/* Reads a /proc file whole into ps->text; its length, or -1. */
static ssize_t read_proc(struct vt_proc_stats *ps, const char *path)
{
	size_t len = 0;
	ssize_t n;
	char *p;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		if (len + 1 >= ps->cap) {
			p = realloc(ps->text, ps->cap ? ps->cap * 2 : 8192);
			if (!p)
				break;
			ps->text = p;
			ps->cap = ps->cap ? ps->cap * 2 : 8192;
		}
		n = read(fd, ps->text + len, ps->cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	if (!ps->text)
		return -1;
	ps->text[len] = '\0';
	return len;
}

/* Linux's PID_MAX_LIMIT: no pid is larger. */
#define PID_LIMIT (4 * 1024 * 1024)

static bool is_known(const struct vt_proc_stats *ps, int pid)
{
	size_t word = (size_t)pid / 64;

	return word < ps->known_words && ps->known[word] & 1ull << (pid % 64);
}

/* Remembers @pid as written; false (and not remembered) without memory. */
static bool set_known(struct vt_proc_stats *ps, int pid)
{
	size_t word = (size_t)pid / 64, n;
	uint64_t *known;

	if (pid < 0 || pid >= PID_LIMIT)
		return false;
	if (word >= ps->known_words) {
		n = word + 1 > 2 * ps->known_words ? word + 1 :
						     2 * ps->known_words;
		known = reallocarray(ps->known, n, sizeof(*known));
		if (!known)
			return false;
		memset(known + ps->known_words, 0,
		       (n - ps->known_words) * sizeof(*known));
		ps->known = known;
		ps->known_words = n;
	}
	ps->known[word] |= 1ull << (pid % 64);
	return true;
}

/* The value after "\n@key" in a status file, or NULL. */
static const char *status_field(const char *status, const char *key)
{
	size_t klen = strlen(key);
	const char *p = status;

	while (p && *p) {
		if (!strncmp(p, key, klen))
			return p + klen;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static bool is_pid(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (!isdigit((unsigned char)*name))
			return false;
	return true;
}

/*
 * A kernel thread: "Kthread: 1" in its status (6.x), else a child of
 * kthreadd (pid 2) or kthreadd itself.
 */
static bool is_kthread(const char *status, int pid, int ppid)
{
	const char *v = status_field(status, "Kthread:");

	if (v)
		return atoi(v) == 1;
	return pid == 2 || ppid == 2;
}

/* A Process from /proc/@pid/status and cmdline; false if it is gone. */
static bool put_process(struct vt_proc_stats *ps, int pid, struct vt_pb *pb)
{
	char path[64], name[64] = "";
	const char *v, *arg;
	int ppid = 0, uid = 0;
	bool kthread;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_proc(ps, path) < 0)
		return false;
	v = status_field(ps->text, "Name:");
	if (v)
		sscanf(v, " %63[^\n]", name);
	v = status_field(ps->text, "PPid:");
	if (v)
		ppid = atoi(v);
	v = status_field(ps->text, "Uid:");
	if (v)
		uid = atoi(v);
	kthread = is_kthread(ps->text, pid, ppid);

	vt_pb_begin(pb, PF_PROCESS_TREE_PROCESSES);
	vt_pb_varint(pb, PF_PROCESS_PID, pid);
	vt_pb_varint(pb, PF_PROCESS_PPID, ppid);
	vt_pb_varint(pb, PF_PROCESS_UID, uid);
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	len = kthread ? 0 : read_proc(ps, path);
	if (len > 0) {
		for (arg = ps->text; arg < ps->text + len;
		     arg += strlen(arg) + 1)
			vt_pb_string(pb, PF_PROCESS_CMDLINE, arg);
	} else {
		vt_pb_string(pb, PF_PROCESS_CMDLINE, name);
		vt_pb_varint(pb, PF_PROCESS_CMDLINE_IS_COMM, 1);
	}
	if (kthread)
		vt_pb_varint(pb, PF_PROCESS_IS_KTHREAD, 1);
	vt_pb_end(pb);
	return true;
}

/* One thread, named when the config asks. */
static void put_thread(struct vt_proc_stats *ps, int tid, int tgid,
		       struct vt_pb *pb)
{
	char path[64], comm[64];

	vt_pb_begin_short(pb, PF_PROCESS_TREE_THREADS);
	vt_pb_varint(pb, PF_THREAD_TID, tid);
	vt_pb_varint(pb, PF_THREAD_TGID, tgid);
	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	if (ps->cfg.record_thread_names &&
	    vt_read_small(path, comm, sizeof(comm)))
		vt_pb_string(pb, PF_THREAD_NAME, comm);
	vt_pb_end(pb);
}

/* Every thread of process @pid. */
static void put_threads(struct vt_proc_stats *ps, int pid, struct vt_pb *pb)
{
	struct dirent *de;
	char path[64];
	int tid;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!is_pid(de->d_name))
			continue;
		tid = atoi(de->d_name);
		set_known(ps, tid);
		put_thread(ps, tid, pid, pb);
	}
	closedir(d);
}

/**
 * vt_proc_stats_scan_all - encode the ProcessTree of every process
 * @ps: the reader
 * @pb: the buffer, emptied and filled with the packet
 */
void vt_proc_stats_scan_all(struct vt_proc_stats *ps, struct vt_pb *pb)
{
	struct dirent *de;
	DIR *d;
	int pid;

	vt_packet_begin(pb, VT_SEQ_PROCESS_STATS);
	vt_pb_begin(pb, PF_PACKET_PROCESS_TREE);
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		if (!is_pid(de->d_name))
			continue;
		pid = atoi(de->d_name);
		if (put_process(ps, pid, pb)) {
			set_known(ps, pid);
			put_threads(ps, pid, pb);
		}
	}
	if (d)
		closedir(d);
	vt_pb_varint(pb, PF_PROCESS_TREE_COLLECTION_END, vt_boot_ns());
	vt_pb_end(pb);
}

/**
 * vt_proc_stats_add_new - encode the processes of threads not yet written
 * @ps: the reader
 * @pids: thread ids the recorded events named
 * @nr: entries in @pids
 * @pb: the buffer, emptied and filled with a ProcessTree packet
 *
 * Each thread still in /proc is written with its process (unless the
 * process was written before); one gone already is left to the events.
 *
 * Return: true when @pb holds a packet to write.
 */
bool vt_proc_stats_add_new(struct vt_proc_stats *ps, const int *pids, size_t nr,
			   struct vt_pb *pb)
{
	char path[64];
	const char *v;
	bool any = false;
	int tgid;
	size_t i;

	vt_packet_begin(pb, VT_SEQ_PROCESS_STATS);
	vt_pb_begin(pb, PF_PACKET_PROCESS_TREE);
	for (i = 0; i < nr; i++) {
		/* The idle task, and threads written already. */
		if (pids[i] <= 0 || is_known(ps, pids[i]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/status", pids[i]);
		if (read_proc(ps, path) < 0)
			continue;
		v = status_field(ps->text, "Tgid:");
		tgid = v ? atoi(v) : pids[i];
		if (!is_known(ps, tgid) && put_process(ps, tgid, pb))
			set_known(ps, tgid);
		put_thread(ps, pids[i], tgid, pb);
		set_known(ps, pids[i]);
		any = true;
	}
	vt_pb_varint(pb, PF_PROCESS_TREE_COLLECTION_END, vt_boot_ns());
	vt_pb_end(pb);
	return any;
}

/* CPU time from /proc/@pid/stat: utime and stime, fields 14 and 15. */
static void put_runtime(struct vt_proc_stats *ps, int pid, struct vt_pb *pb)
{
	unsigned long long utime, stime;
	char path[64];
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_proc(ps, path) < 0)
		return;
	/* The comm in parentheses may hold spaces: fields follow its end. */
	p = strrchr(ps->text, ')');
	if (!p ||
	    sscanf(p + 1,
		   " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
		   &utime, &stime) != 2)
		return;
	vt_pb_varint(pb, PF_PSTAT_RUNTIME_USER_MODE, utime * ps->ns_per_tick);
	vt_pb_varint(pb, PF_PSTAT_RUNTIME_KERNEL_MODE, stime * ps->ns_per_tick);
}

/* One process's counters; kernel threads, without memory, are skipped. */
static void put_process_stats(struct vt_proc_stats *ps, int pid,
			      struct vt_pb *pb)
{
	unsigned long long kb;
	char path[64], buf[32];
	const char *v;
	unsigned int i;
	char *end;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_proc(ps, path) < 0 || !status_field(ps->text, "VmSize:"))
		return;
	vt_pb_begin_short(pb, PF_PROC_STATS_PROCESSES);
	vt_pb_varint(pb, PF_PSTAT_PID, pid);
	for (i = 0; i < NR_STATUS_KB; i++) {
		v = status_field(ps->text, status_kb[i].key);
		if (!v)
			continue;
		kb = strtoull(v, &end, 10);
		if (end != v)
			vt_pb_varint(pb, status_kb[i].field, kb);
	}
	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", pid);
	if (vt_read_small(path, buf, sizeof(buf)))
		vt_pb_int(pb, PF_PSTAT_OOM_SCORE_ADJ, atoi(buf));
	if (ps->cfg.record_process_runtime)
		put_runtime(ps, pid, pb);
	vt_pb_end(pb);
}

/**
 * vt_proc_stats_poll - encode the ProcessStats of every user process
 * @ps: the reader
 * @pb: the buffer, emptied and filled with the packet
 */
void vt_proc_stats_poll(struct vt_proc_stats *ps, struct vt_pb *pb)
{
	struct dirent *de;
	DIR *d;

	vt_packet_begin(pb, VT_SEQ_PROCESS_STATS);
	vt_pb_begin(pb, PF_PACKET_PROCESS_STATS);
	d = opendir("/proc");
	while (d && (de = readdir(d)))
		if (is_pid(de->d_name))
			put_process_stats(ps, atoi(de->d_name), pb);
	if (d)
		closedir(d);
	vt_pb_varint(pb, PF_PROC_STATS_COLLECTION_END, vt_boot_ns());
	vt_pb_end(pb);
}

/**
 * vt_proc_stats_new - a reader of the processes a config asks for
 * @out: set to the reader
 * @cfg: the config (copied)
 *
 * Return: 0, or -ENOMEM.
 */
int vt_proc_stats_new(struct vt_proc_stats **out,
		      const struct vtrace_process_stats *cfg)
{
	struct vt_proc_stats *ps = calloc(1, sizeof(*ps));
	long hz = sysconf(_SC_CLK_TCK);

	*out = ps;
	if (!ps)
		return -ENOMEM;
	ps->cfg = *cfg;
	ps->ns_per_tick = hz > 0 ? 1000000000 / hz : 10000000;
	return 0;
}

/**
 * vt_proc_stats_free - release a reader
 * @ps: the reader, or NULL
 */
void vt_proc_stats_free(struct vt_proc_stats *ps)
{
	if (!ps)
		return;
	free(ps->known);
	free(ps->text);
	free(ps);
}
