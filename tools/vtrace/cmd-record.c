// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace record - enable events, read every CPU's ring buffer into a
 * trace.dat until the duration ends, a signal or "vtrace stop" arrives,
 * drain what is left, and put every tracefs setting back.
 *
 * The order of the set-up is what keeps failures clean: everything that
 * can be checked is checked before tracefs is touched, the output file is
 * created before any event is enabled, and every step taken is undone in
 * reverse by record_teardown(), whatever failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/categories.h>
#include <vtrace/event-name.h>
#include <vtrace/events.h>
#include <vtrace/instance.h>
#include <vtrace/json.h>
#include <vtrace/record-pidfile.h>
#include <vtrace/record-settings.h>
#include <vtrace/ring-reader.h>
#include <vtrace/ring-stats.h>
#include <vtrace/tracedat-writer.h>

#include "builtin.h"
#include "cli.h"

/* poll() wakes a reader when its buffer is this full. */
#define RECORD_BUFFER_PERCENT 25
/* Longest sleep between two looks at the buffers, and progress updates. */
#define RECORD_TICK_MS 1000
/*
 * Sub-buffer size, where the kernel lets it be chosen (6.8 and later).
 * The mmap and splice readers pay per sub-buffer: one GET_READER ioctl, or
 * one page swap in the kernel, and one write; 64 KB ones take a sixteenth
 * of the calls of 4 KB pages
 * (record-bench.sh: the splice reader went from 2.8 to 0.9 ms of CPU per MB).
 */
#define RECORD_SUBBUF_KB 64

struct record_opts {
	struct cli_files catfiles;
	char **cats;
	size_t nr_cats;
	char **events;
	size_t nr_events;
	long long duration_ms; /* 0: until stopped */
	long long buffer_kb; /* 0: leave as it is */
	const char *output;
	const char *instance;
	const char *clock;
	enum vtrace_reader_path path;
	bool background;
	bool verbose;
	bool json;
};

struct recorder;

/*
 * One reader thread per CPU, each polling its own CPU's buffer: under a
 * load that keeps every CPU busy, a single thread reading all buffers
 * gets a share of one CPU's time and loses events; one per CPU gets a
 * share of each (record-bench.sh, unbounded storm).
 */
struct cpu_thread {
	struct recorder *r;
	int cpu;
	pthread_t id;
	bool running;
	/* After a write failure: sub-buffers are drained, not written. */
	bool discarding;
	/* ... these events and bytes of them, counted as lost. */
	unsigned long long discarded_events;
	unsigned long long discarded_bytes;
	int err;
};

struct recorder {
	const struct record_opts *opts;
	struct vtrace_instance *vi;
	struct tracefs_instance *tfs;
	bool locked;
	bool settings_saved;
	struct vtrace_record_settings settings;
	struct vtrace_event_change *changes;
	size_t nr_changes;
	const char **formats; /* NULL-terminated names for the writer */
	struct vt_tracedat *td;
	int nr_cpus;
	struct vtrace_ring_reader **readers;
	struct cpu_thread *threads;
	/* Readable once the threads are to stop; then they drain if @drain. */
	int stop_fd;
	atomic_bool drain;
	/* Readable once a thread has failed: the recording stops. */
	int failed_fd;
	/* Guards @write_err and @shown while the threads run. */
	pthread_mutex_t lock;
	/* The first write failure; every CPU then stops writing. */
	int write_err;
	/* What each CPU has written so far, for progress(). */
	struct vtrace_ring_stats *shown;
	struct vtrace_ring_counters *end;
	struct timespec start;
	double elapsed;
};

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace record [-c CAT[,CAT]]... [-e group/event]... [-f CATFILE]...\n"
		"                     [-t DURATION] [-b BUFFER_KB] [-o FILE] [--instance NAME]\n"
		"                     [--clock CLOCK] [--reader auto|mmap|splice|read]\n"
		"                     [--background] [-v] [--json]\n\n"
		"Record the events of categories CAT and events group/event from every CPU's\n"
		"ring buffer into FILE (default trace.dat, trace-cmd's format version 6),\n"
		"until DURATION (10s, 500ms, 2m, or seconds) has passed, SIGINT or SIGTERM\n"
		"arrives, or 'vtrace stop' is run. Every tracefs setting changed is restored.\n\n"
		"  -c, --category CAT    events of category CAT (comma-separated list allowed)\n"
		"  -e, --event G/E       the event G/E\n"
		"  -f, --file CATFILE    category file (default $VTRACE_CATEGORIES or\n"
		"                        " VTRACE_DEFAULT_CATEGORIES ")\n"
		"  -t, --duration D      stop after D\n"
		"  -b, --buffer-kb KB    per-CPU ring buffer size during the recording\n"
		"  -o, --output FILE     output file (default trace.dat)\n"
		"      --instance NAME   record in tracefs instance NAME (created if missing,\n"
		"                        removed afterwards if created)\n"
		"      --clock CLOCK     trace_clock during the recording\n"
		"      --reader PATH     auto (default: mmap where the kernel maps ring\n"
		"                        buffers, else splice), mmap, splice or read\n"
		"      --background      detach, print the PID; finish on SIGTERM or 'vtrace stop'\n"
		"  -v, --verbose         tell the reader path and settings used\n"
		"      --json            print the summary as JSON on stdout\n");
}

/* "10s", "500ms", "2m", "1.5" (seconds). */
static int parse_duration(const char *arg, long long *ms)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || v <= 0)
		return -EINVAL;
	if (!strcmp(end, "ms"))
		;
	else if (!*end || !strcmp(end, "s"))
		v *= 1000;
	else if (!strcmp(end, "m"))
		v *= 60 * 1000;
	else
		return -EINVAL;
	if (v < 1 || v > 1e12)
		return -EINVAL;
	*ms = (long long)v;
	return 0;
}

static int push(char ***list, size_t *nr, char *item)
{
	char **grown = realloc(*list, (*nr + 1) * sizeof(**list));

	if (!grown)
		return -ENOMEM;
	grown[(*nr)++] = item;
	*list = grown;
	return 0;
}

enum {
	OPT_INSTANCE = 256,
	OPT_CLOCK,
	OPT_READER,
	OPT_BACKGROUND,
	OPT_JSON,
};

static int parse_args(int argc, char **argv, struct record_opts *o)
{
	static const struct option longopts[] = {
		{ "category", required_argument, NULL, 'c' },
		{ "event", required_argument, NULL, 'e' },
		{ "file", required_argument, NULL, 'f' },
		{ "duration", required_argument, NULL, 't' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "instance", required_argument, NULL, OPT_INSTANCE },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "reader", required_argument, NULL, OPT_READER },
		{ "background", no_argument, NULL, OPT_BACKGROUND },
		{ "verbose", no_argument, NULL, 'v' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	char *end, *tok, *save;
	int c;

	o->output = "trace.dat";
	while ((c = getopt_long(argc, argv, "c:e:f:t:b:o:vh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			for (tok = strtok_r(optarg, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				if (push(&o->cats, &o->nr_cats, tok))
					return -ENOMEM;
			break;
		case 'e':
			if (push(&o->events, &o->nr_events, optarg))
				return -ENOMEM;
			break;
		case 'f':
			if (cli_files_add(&o->catfiles, optarg))
				return -ENOMEM;
			break;
		case 't':
			if (parse_duration(optarg, &o->duration_ms)) {
				vtrace_err(
					"bad duration '%s' (examples: 10s, 500ms, 2m, 5)",
					optarg);
				return -EINVAL;
			}
			break;
		case 'b':
			errno = 0;
			o->buffer_kb = strtoll(optarg, &end, 10);
			if (errno || *end || o->buffer_kb <= 0) {
				vtrace_err("bad buffer size '%s' (KB per CPU)",
					   optarg);
				return -EINVAL;
			}
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_INSTANCE:
			o->instance = optarg;
			break;
		case OPT_CLOCK:
			o->clock = optarg;
			break;
		case OPT_READER:
			if (vtrace_reader_path_parse(optarg, &o->path)) {
				vtrace_err(
					"bad reader '%s' (auto, mmap, splice or read)",
					optarg);
				return -EINVAL;
			}
			break;
		case OPT_BACKGROUND:
			o->background = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			exit(VTRACE_EXIT_OK);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		vtrace_err("unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (!o->nr_cats && !o->nr_events) {
		vtrace_err(
			"nothing to record: give -c CATEGORY or -e group/event");
		return -EINVAL;
	}
	return 0;
}

static bool listed(const struct recorder *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_changes; i++)
		if (!strcmp(r->changes[i].name, name))
			return true;
	return false;
}

static int add_event(struct recorder *r, const char *name)
{
	struct vtrace_event_change *grown;

	if (listed(r, name))
		return 0;
	grown = realloc(r->changes, (r->nr_changes + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	r->changes = grown;
	r->changes[r->nr_changes++] = (struct vtrace_event_change){
		.name = name,
	};
	return 0;
}

/*
 * -e events must exist; events of a category that this kernel lacks are
 * skipped with a warning, as "vtrace enable" does.
 */
static int check_event(struct recorder *r, const char *name, bool explicit)
{
	enum vtrace_event_state state;
	struct vtrace_name_error nerr;
	int ret;

	if (vtrace_event_name_check(name, strlen(name), &nerr)) {
		vtrace_err("bad event name '%s': %s", name, nerr.reason);
		return -EINVAL;
	}
	ret = vtrace_event_state(r->vi, name, &state);
	if (ret) {
		vtrace_err("cannot read events/%s/enable: %s", name,
			   strerror(-ret));
		return ret;
	}
	if (state == VTRACE_EVENT_MISSING) {
		if (explicit) {
			vtrace_err(
				"unknown event '%s': no events/%s in tracefs (%s)",
				name, name, cli_instance_label(r->vi));
			return -ENOENT;
		}
		vtrace_warn("skipping event '%s': not in this kernel's tracefs",
			    name);
		return 0;
	}
	return add_event(r, name);
}

static int resolve_events(struct recorder *r, struct vtrace_catmap *map)
{
	const struct record_opts *o = r->opts;
	const struct vtrace_category *cat;
	struct vtrace_diags diags;
	size_t i, j;
	int ret = 0;

	vtrace_diags_init(&diags);
	if (o->nr_cats) {
		ret = cli_load_categories(&o->catfiles, map, &diags);
		cli_print_diags(stderr, &diags);
		if (ret) {
			vtrace_err("cannot use the category files");
			goto out;
		}
	}
	for (i = 0; i < o->nr_cats; i++) {
		cat = vtrace_catmap_find(map, o->cats[i]);
		if (!cat) {
			vtrace_err(
				"unknown category '%s' (see vtrace categories)",
				o->cats[i]);
			ret = -ENOENT;
			goto out;
		}
		for (j = 0; j < cat->nr_events; j++) {
			ret = check_event(r, cat->events[j].name, false);
			if (ret)
				goto out;
		}
	}
	for (i = 0; i < o->nr_events; i++) {
		ret = check_event(r, o->events[i], true);
		if (ret)
			goto out;
	}
	if (!r->nr_changes) {
		vtrace_err(
			"none of the events asked for exists in this kernel");
		ret = -ENOENT;
		goto out;
	}
	r->formats = calloc(r->nr_changes + 1, sizeof(*r->formats));
	if (!r->formats) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < r->nr_changes; i++)
		r->formats[i] = r->changes[i].name;
out:
	vtrace_diags_free(&diags);
	return ret;
}

static const char *instance_name(const struct recorder *r)
{
	return vtrace_instance_name(r->vi);
}

static int open_readers(struct recorder *r)
{
	int cpu, ret;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		ret = vtrace_ring_reader_open(r->tfs, cpu, r->opts->path,
					      &r->readers[cpu]);
		if (ret == -ENODEV)
			continue; /* a possible CPU that was never up */
		if (ret == -EOPNOTSUPP) {
			vtrace_err(
				"the %s reader is not offered by this kernel (ring-buffer mmap needs Linux 6.10); use --reader auto",
				vtrace_reader_path_name(r->opts->path));
			return ret;
		}
		if (ret) {
			vtrace_err(
				"cannot open per_cpu/cpu%d/trace_pipe_raw: %s",
				cpu, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/*
 * Large sub-buffers, where the kernel lets them be chosen (6.8 and later):
 * fewer, larger hand-overs (see RECORD_SUBBUF_KB). Not for the read
 * reader: read() also returns the sub-buffer the writer is filling, and
 * reading on, one more for each few events written meanwhile, each stored
 * whole; 64 KB ones made a 14 MB recording 201 MB.
 */
static int choose_subbuf_size(struct recorder *r)
{
	int ret;

	if (r->opts->path == VTRACE_READER_READ)
		return 0;
	ret = vtrace_settings_set_subbuf_kb(&r->settings, RECORD_SUBBUF_KB);
	return ret == -EOPNOTSUPP ? 0 : ret;
}

static const char *reader_path_name(const struct recorder *r)
{
	int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (r->readers[cpu])
			return vtrace_reader_path_name(
				vtrace_ring_reader_path(r->readers[cpu]));
	return vtrace_reader_path_name(r->opts->path);
}

static int settings_error(const char *what, int err)
{
	if (err == -EBUSY)
		vtrace_err(
			"tracefs is busy: cannot set %s: %s (another tracer holds this buffer; try --instance NAME)",
			what, strerror(-err));
	else
		vtrace_err("cannot set %s: %s", what, strerror(-err));
	return err;
}

static int record_setup(struct recorder *r)
{
	const struct record_opts *o = r->opts;
	struct vt_tracedat_opts wopts = { 0 };
	struct vtrace_catmap map;
	size_t failed;
	pid_t owner;
	int ret;

	vtrace_catmap_init(&map);
	ret = cli_open_tracefs(o->instance, VTRACE_INSTANCE_CREATE, &r->vi);
	if (ret) {
		ret = -ENODEV;
		goto out;
	}
	r->tfs = vtrace_instance_tracefs(r->vi);

	ret = vtrace_record_lock(instance_name(r), &owner);
	if (ret == -EBUSY) {
		vtrace_err(
			"tracefs is busy: vtrace record (pid %d) is already recording %s; end it with 'vtrace stop%s%s'",
			owner, cli_instance_label(r->vi),
			o->instance ? " --instance " : "",
			o->instance ? o->instance : "");
		goto out;
	}
	if (ret) {
		vtrace_err("cannot write the pid file in %s: %s",
			   VTRACE_STATE_DIR, strerror(-ret));
		goto out;
	}
	r->locked = true;

	ret = resolve_events(r, &map);
	if (ret)
		goto out;

	r->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	r->readers = calloc(r->nr_cpus, sizeof(*r->readers));
	r->threads = calloc(r->nr_cpus, sizeof(*r->threads));
	r->shown = calloc(r->nr_cpus, sizeof(*r->shown));
	r->end = calloc(r->nr_cpus, sizeof(*r->end));
	if (!r->readers || !r->threads || !r->shown || !r->end) {
		ret = -ENOMEM;
		goto out;
	}
	for (int cpu = 0; cpu < r->nr_cpus; cpu++)
		r->threads[cpu] = (struct cpu_thread){ .r = r, .cpu = cpu };
	r->stop_fd = eventfd(0, EFD_CLOEXEC);
	r->failed_fd = eventfd(0, EFD_CLOEXEC);
	if (r->stop_fd < 0 || r->failed_fd < 0) {
		ret = -errno;
		vtrace_err("eventfd: %s", strerror(errno));
		goto out;
	}

	ret = vtrace_settings_save(r->tfs, r->nr_cpus, &r->settings);
	if (ret) {
		vtrace_err("cannot read the tracefs settings: %s",
			   strerror(-ret));
		goto out;
	}
	r->settings_saved = true;
	ret = vtrace_settings_set_tracing_on(&r->settings, 0);
	if (ret) {
		settings_error("tracing_on", ret);
		goto out;
	}
	/*
	 * Enabling an event grows a buffer still at its boot-time minimum,
	 * which fails once the buffer is mapped: grow it now.
	 */
	if (o->buffer_kb || r->settings.unexpanded) {
		ret = vtrace_settings_set_buffer_kb(
			&r->settings, o->buffer_kb ?: r->settings.buffer_kb[0]);
		if (ret) {
			settings_error("buffer_size_kb", ret);
			goto out;
		}
	}
	if (o->clock) {
		ret = vtrace_settings_set_clock(&r->settings, o->clock);
		if (ret) {
			if (ret == -EINVAL)
				vtrace_err(
					"unknown clock '%s' (see trace_clock)",
					o->clock);
			else
				settings_error("trace_clock", ret);
			goto out;
		}
	}
	ret = vtrace_settings_set_percent(&r->settings, RECORD_BUFFER_PERCENT);
	if (ret && ret != -EOPNOTSUPP) {
		settings_error("buffer_percent", ret);
		goto out;
	}
	if (tracefs_instance_file_clear(r->tfs, "trace")) {
		ret = settings_error("trace (clearing the buffer)",
				     errno ? -errno : -EIO);
		goto out;
	}

	ret = choose_subbuf_size(r);
	if (ret) {
		settings_error("buffer_subbuf_size_kb", ret);
		goto out;
	}
	ret = open_readers(r);
	if (ret)
		goto out;

	wopts.instance = r->tfs;
	wopts.ncpus = r->nr_cpus;
	wopts.page_size = 0;
	for (int cpu = 0; cpu < r->nr_cpus && !wopts.page_size; cpu++)
		if (r->readers[cpu])
			wopts.page_size =
				vtrace_ring_reader_subbuf_size(r->readers[cpu]);
	wopts.events = r->formats;
	ret = vt_tracedat_create(&r->td, o->output, &wopts);
	if (ret) {
		vtrace_err("cannot create %s: %s", o->output,
			   r->td ? vt_tracedat_strerror(r->td) :
				   strerror(-ret));
		goto out;
	}

	ret = vtrace_events_set(r->vi, r->changes, r->nr_changes, true,
				&failed);
	if (ret) {
		vtrace_err("cannot enable %s: %s", r->changes[failed].name,
			   strerror(-ret));
		goto out;
	}
	if (o->verbose) {
		vtrace_warn(
			"reader: %s on %d CPUs, %zu-byte sub-buffers, woken at buffer_percent %d; %zu events; output %s",
			reader_path_name(r), r->nr_cpus, wopts.page_size,
			RECORD_BUFFER_PERCENT, r->nr_changes, o->output);
	}
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	ret = vtrace_settings_set_tracing_on(&r->settings, 1);
	if (ret)
		settings_error("tracing_on", ret);
out:
	vtrace_catmap_free(&map);
	return ret;
}

static int write_subbuf(void *ctx, int cpu, const void *subbuf, size_t size)
{
	struct recorder *r = ctx;

	return vt_tracedat_add_page(r->td, cpu, subbuf, size);
}

/* After a write failure: empty the buffer, count what it held as lost. */
static int discard_subbuf(void *ctx, int cpu, const void *subbuf, size_t size)
{
	struct recorder *r = ctx;
	struct cpu_thread *t = &r->threads[cpu];

	t->discarded_events +=
		vtrace_ring_subbuf_events(r->readers[cpu], subbuf);
	t->discarded_bytes += size;
	return 0;
}

static bool write_failed(struct recorder *r)
{
	bool failed;

	pthread_mutex_lock(&r->lock);
	failed = r->write_err;
	pthread_mutex_unlock(&r->lock);
	return failed;
}

/*
 * Keep what this CPU has written; discard the rest from now on (the
 * sub-buffer a write refused is offered again, and discarded).
 */
static void stop_writing(struct cpu_thread *t)
{
	t->discarding = true;
}

static void note_write_error(struct recorder *r, int err)
{
	bool first;

	pthread_mutex_lock(&r->lock);
	first = !r->write_err;
	if (first)
		r->write_err = err;
	pthread_mutex_unlock(&r->lock);
	if (!first)
		return;
	vtrace_err("writing %s: %s; recording stops, what was captured is kept",
		   r->opts->output, vt_tracedat_strerror(r->td));
	eventfd_write(r->failed_fd, 1);
}

static int consume_cpu(struct cpu_thread *t, bool drain)
{
	struct recorder *r = t->r;
	struct vtrace_ring_reader *reader = r->readers[t->cpu];
	vtrace_ring_subbuf_fn fn;
	int ret;

	if (!t->discarding && write_failed(r))
		stop_writing(t);
	for (;;) {
		fn = t->discarding ? discard_subbuf : write_subbuf;
		ret = drain ? vtrace_ring_reader_drain(reader, fn, r) :
			      vtrace_ring_reader_consume(reader, fn, r);
		if (t->discarding || (ret != -ENOSPC && ret != -EIO &&
				      ret != -EFBIG && ret != -EDQUOT))
			break;
		stop_writing(t);
		note_write_error(r, ret); /* and this CPU again, discarding */
	}
	if (ret)
		vtrace_err("reading cpu%d: %s", t->cpu, strerror(-ret));
	return ret;
}

static void publish_stats(struct cpu_thread *t)
{
	struct recorder *r = t->r;

	pthread_mutex_lock(&r->lock);
	r->shown[t->cpu] = *vtrace_ring_reader_stats(r->readers[t->cpu]);
	r->shown[t->cpu].events -= t->discarded_events;
	r->shown[t->cpu].bytes -= t->discarded_bytes;
	pthread_mutex_unlock(&r->lock);
}

/*
 * A CPU's reader thread: consumes until record_stop() makes stop_fd
 * readable, then drains what is left once tracing is off.
 */
static void *record_cpu(void *arg)
{
	struct cpu_thread *t = arg;
	struct recorder *r = t->r;
	struct pollfd pfd[2] = {
		{ .fd = vtrace_ring_reader_fd(r->readers[t->cpu]),
		  .events = POLLIN },
		{ .fd = r->stop_fd, .events = POLLIN },
	};
	cpu_set_t on_cpu;

	/*
	 * Run on the CPU whose buffer this thread reads, so that under a
	 * load on every CPU each reader competes for its own CPU only,
	 * never with another reader for the same one. An offline CPU
	 * refuses the mask; the thread then runs where it is put.
	 */
	CPU_ZERO(&on_cpu);
	CPU_SET(t->cpu, &on_cpu);
	sched_setaffinity(0, sizeof(on_cpu), &on_cpu);

	while (!(pfd[1].revents & POLLIN)) {
		if (poll(pfd, 2, RECORD_TICK_MS) < 0) {
			t->err = -errno;
			vtrace_err("poll cpu%d: %s", t->cpu, strerror(errno));
			break;
		}
		t->err = consume_cpu(t, false);
		if (t->err)
			break;
		publish_stats(t);
	}
	if (t->err)
		eventfd_write(r->failed_fd, 1);
	else if (atomic_load(&r->drain))
		t->err = consume_cpu(t, true);
	return NULL;
}

static int start_thread(struct recorder *r, int cpu)
{
	struct cpu_thread *t = &r->threads[cpu];
	int err;

	err = pthread_create(&t->id, NULL, record_cpu, t);
	if (err) {
		vtrace_err("cannot start the reader of cpu%d: %s", cpu,
			   strerror(err));
		return -err;
	}
	t->running = true;
	return 0;
}

static int start_threads(struct recorder *r)
{
	int cpu, ret;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!r->readers[cpu])
			continue;
		ret = start_thread(r, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A CPU first online during the recording (the instance was made while it
 * was offline) gets its ring buffer only then: read it from then on.
 */
static int adopt_new_cpus(struct recorder *r)
{
	int cpu, ret;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (r->readers[cpu])
			continue;
		ret = vtrace_ring_reader_open(r->tfs, cpu, r->opts->path,
					      &r->readers[cpu]);
		if (ret == -ENODEV)
			continue;
		if (ret) {
			vtrace_err(
				"cannot open per_cpu/cpu%d/trace_pipe_raw: %s",
				cpu, strerror(-ret));
			return ret;
		}
		if (r->opts->verbose)
			vtrace_warn("cpu%d came online: reading it too", cpu);
		ret = start_thread(r, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void progress(struct recorder *r, double elapsed)
{
	unsigned long long events = 0, bytes = 0, lost = 0;
	struct vtrace_ring_counters c;
	int cpu;

	pthread_mutex_lock(&r->lock);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		events += r->shown[cpu].events;
		bytes += r->shown[cpu].bytes;
	}
	pthread_mutex_unlock(&r->lock);
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (r->readers[cpu] &&
		    !vtrace_ring_counters_read(r->tfs, cpu, &c))
			lost += vtrace_ring_counters_lost(&c);
	fprintf(stderr, "\r%6.1f s  %8.1f MB  %10.0f events/s  lost %llu   ",
		elapsed, bytes / 1e6, elapsed > 0 ? events / elapsed : 0.0,
		lost);
	fflush(stderr);
}

static int record_loop(struct recorder *r)
{
	const struct record_opts *o = r->opts;
	bool show = !o->background && isatty(STDERR_FILENO);
	struct pollfd failed = { .fd = r->failed_fd, .events = POLLIN };
	struct timespec ts;
	sigset_t unblocked;
	long long left_ms, wait_ms;
	int ret;

	sigprocmask(SIG_BLOCK, NULL, &unblocked);
	sigdelset(&unblocked, SIGINT);
	sigdelset(&unblocked, SIGTERM);

	ret = start_threads(r);
	while (!ret && !stop_signal && !(failed.revents & POLLIN)) {
		wait_ms = RECORD_TICK_MS;
		if (o->duration_ms) {
			left_ms = o->duration_ms - since(&r->start) * 1000;
			if (left_ms <= 0)
				break;
			if (left_ms < wait_ms)
				wait_ms = left_ms;
		}
		ts.tv_sec = wait_ms / 1000;
		ts.tv_nsec = (wait_ms % 1000) * 1000000;
		if (ppoll(&failed, 1, &ts, &unblocked) < 0 && errno != EINTR) {
			ret = -errno;
			vtrace_err("poll: %s", strerror(errno));
		}
		if (!ret)
			ret = adopt_new_cpus(r);
		if (show)
			progress(r, since(&r->start));
	}
	if (show)
		fputc('\n', stderr);
	return ret;
}

/*
 * Stop writing, let every CPU's thread bring out what is left, read the
 * final counters. A CPU whose thread did not start is drained from here.
 */
static int record_stop(struct recorder *r)
{
	struct cpu_thread *t;
	int cpu, ret;

	r->elapsed = since(&r->start);
	ret = vtrace_settings_set_tracing_on(&r->settings, 0);
	if (ret)
		vtrace_err("cannot stop tracing: %s", strerror(-ret));
	atomic_store(&r->drain, !ret);
	eventfd_write(r->stop_fd, 1);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!r->readers[cpu])
			continue;
		t = &r->threads[cpu];
		if (t->running)
			pthread_join(t->id, NULL);
		else if (!ret)
			t->err = consume_cpu(t, true);
		ret = ret ?: t->err;
		vtrace_ring_counters_read(r->tfs, cpu, &r->end[cpu]);
	}
	return ret;
}

/* Undo the set-up in reverse; returns the first error. */
static int record_teardown(struct recorder *r, bool finish)
{
	int ret = 0, err, cpu;

	if (r->nr_changes) {
		err = vtrace_events_restore(r->vi, r->changes, r->nr_changes);
		/* A module's events vanish with it: nothing to put back. */
		if (err && err != -ENOENT) {
			vtrace_err("cannot restore the events: %s",
				   strerror(-err));
			ret = ret ? ret : err;
		}
	}
	for (cpu = 0; r->readers && cpu < r->nr_cpus; cpu++)
		vtrace_ring_reader_close(r->readers[cpu]);
	if (r->td && finish) {
		err = vt_tracedat_finish(r->td);
		if (err) {
			vtrace_err("cannot finish %s: %s", r->opts->output,
				   vt_tracedat_strerror(r->td));
			ret = ret ? ret : err;
		}
		vt_tracedat_close(r->td);
	} else if (r->td) {
		vt_tracedat_abort(r->td);
	}
	if (r->settings_saved) {
		err = vtrace_settings_restore(&r->settings);
		if (err) {
			vtrace_err("cannot restore the tracefs settings: %s",
				   strerror(-err));
			ret = ret ? ret : err;
		}
		vtrace_settings_free(&r->settings);
	}
	if (r->vi && vtrace_instance_is_new(r->vi)) {
		err = vtrace_instance_remove(r->vi);
		if (err) {
			vtrace_err("cannot remove instance %s: %s",
				   instance_name(r), strerror(-err));
			ret = ret ? ret : err;
		}
	}
	if (r->locked)
		vtrace_record_unlock(instance_name(r));
	vtrace_instance_close(r->vi);
	if (r->stop_fd >= 0)
		close(r->stop_fd);
	if (r->failed_fd >= 0)
		close(r->failed_fd);
	free(r->readers);
	free(r->threads);
	free(r->shown);
	free(r->end);
	free(r->changes);
	free(r->formats);
	return ret;
}

struct cpu_summary {
	unsigned long long events, lost, bytes;
};

static void cpu_summary(const struct recorder *r, int cpu,
			struct cpu_summary *s)
{
	const struct cpu_thread *t = &r->threads[cpu];
	const struct vtrace_ring_stats *all;
	unsigned long long by_buffer;

	all = vtrace_ring_reader_stats(r->readers[cpu]);
	s->events = all->events - t->discarded_events;
	s->bytes = all->bytes - t->discarded_bytes;
	/*
	 * The buffer counts what it overwrote or dropped; sub-buffer
	 * headers tell the same from the reader's side. Events drained
	 * after a write failure are lost too.
	 */
	by_buffer = vtrace_ring_counters_lost(&r->end[cpu]);
	s->lost = by_buffer > all->missed_events ? by_buffer :
						   all->missed_events;
	s->lost += t->discarded_events;
}

static void print_summary(const struct recorder *r)
{
	const struct record_opts *o = r->opts;
	unsigned long long events = 0, lost = 0, bytes = 0, left = 0;
	struct cpu_summary s;
	struct vtrace_json j;
	int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!r->readers[cpu])
			continue;
		cpu_summary(r, cpu, &s);
		events += s.events;
		lost += s.lost;
		bytes += s.bytes;
		left += r->end[cpu].entries;
	}

	fprintf(stderr,
		"vtrace: recorded %llu events (%.1f MB) from %d CPUs into %s in %.1f s, %s reader\n",
		events, bytes / 1e6, r->nr_cpus, o->output, r->elapsed,
		reader_path_name(r));
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!r->readers[cpu])
			continue;
		cpu_summary(r, cpu, &s);
		fprintf(stderr, "  cpu%d: %llu events, %llu lost, %llu bytes\n",
			cpu, s.events, s.lost, s.bytes);
	}
	if (lost)
		vtrace_warn(
			"LOST %llu EVENTS: the ring buffer overflowed before it was read; record fewer events or use a larger -b",
			lost);
	if (left)
		vtrace_warn("%llu events were left in the ring buffer", left);

	if (!o->json)
		return;
	vtrace_json_init(&j, stdout);
	vtrace_json_object_begin(&j, NULL);
	vtrace_json_string(&j, "reader", reader_path_name(r));
	vtrace_json_string(&j, "output", o->output);
	vtrace_json_uint(&j, "events", events);
	vtrace_json_uint(&j, "lost", lost);
	vtrace_json_uint(&j, "bytes", bytes);
	vtrace_json_array_begin(&j, "cpus");
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!r->readers[cpu])
			continue;
		cpu_summary(r, cpu, &s);
		vtrace_json_object_begin(&j, NULL);
		vtrace_json_int(&j, "cpu", cpu);
		vtrace_json_uint(&j, "events", s.events);
		vtrace_json_uint(&j, "lost", s.lost);
		vtrace_json_uint(&j, "bytes", s.bytes);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	vtrace_json_object_end(&j);
	cli_finish_json(&j);
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigset_t block;

	/* No SA_RESTART: a stop signal must end the wait at once. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	/* Delivered only inside ppoll(), so no wake-up is missed. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, NULL);
}

/*
 * --background: the child records; the parent waits until the child has
 * started (one byte on @ready) and prints its PID, or exits with the
 * child's status when the set-up failed. Returns in the child only.
 */
static int detach(int *ready)
{
	int status, fds[2];
	pid_t pid;
	char byte;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid) {
		close(fds[1]);
		if (read(fds[0], &byte, 1) == 1) {
			printf("%d\n", pid);
			exit(VTRACE_EXIT_OK);
		}
		if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
			exit(WEXITSTATUS(status));
		exit(VTRACE_EXIT_FAIL);
	}
	close(fds[0]);
	setsid();
	*ready = fds[1];
	return 0;
}

/* The started child leaves the terminal: its messages go to the log. */
static void background_started(const struct recorder *r, int ready)
{
	char *log;
	int fd;

	if (vtrace_record_pidfile_path(instance_name(r), ".log", &log))
		return;
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	free(log);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	if (write(ready, "1", 1) != 1)
		vtrace_warn("the parent went away before the PID was printed");
	close(ready);
}

int cmd_record(int argc, char **argv)
{
	struct record_opts opts = { .path = VTRACE_READER_AUTO };
	struct recorder r = {
		.opts = &opts,
		.stop_fd = -1,
		.failed_fd = -1,
		.lock = PTHREAD_MUTEX_INITIALIZER,
	};
	int ready = -1, ret, status;

	if (parse_args(argc, argv, &opts))
		return VTRACE_EXIT_USAGE;
	if (opts.background && detach(&ready)) {
		vtrace_err("cannot detach: %s", strerror(errno));
		return VTRACE_EXIT_FAIL;
	}
	install_signals();

	ret = record_setup(&r);
	if (ret) {
		record_teardown(&r, false);
		status = VTRACE_EXIT_FAIL;
		goto out;
	}
	if (opts.background)
		background_started(&r, ready);

	ret = record_loop(&r);
	ret = record_stop(&r) ?: ret;
	print_summary(&r);
	ret = record_teardown(&r, true) ?: ret;
	status = ret || r.write_err ? VTRACE_EXIT_FAIL : VTRACE_EXIT_OK;
out:
	free(opts.cats);
	free(opts.events);
	free(opts.catfiles.names);
	return status;
}
