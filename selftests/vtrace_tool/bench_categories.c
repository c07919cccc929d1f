// SPDX-License-Identifier: GPL-2.0
/*
 * bench_categories FILE [RUNS] - time vtrace_catmap_parse() on FILE held in
 * memory, RUNS times (default 20), each into a fresh map, and print one
 * line: "lines bytes categories events min_ms median_ms min_cpu_ms" (wall
 * time, and the process CPU time that a loaded machine does not inflate).
 * Used by bench_categories.sh, which prints the table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vtrace/categories.h>

static double now_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long size;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc(size + 1);
	if (buf && fread(buf, 1, size, f) != (size_t)size) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = size;
	return buf;
}

int main(int argc, char **argv)
{
	size_t len, lines = 0, events = 0, cats = 0, i, k;
	int runs = argc > 2 ? atoi(argv[2]) : 20;
	struct vtrace_catmap map;
	struct vtrace_diags diags;
	double *ms, *cpu;
	char *buf;
	int r;

	if (argc < 2 || runs < 1) {
		fprintf(stderr, "usage: bench_categories FILE [RUNS]\n");
		return 2;
	}
	buf = read_file(argv[1], &len);
	ms = calloc(runs, sizeof(*ms));
	cpu = calloc(runs, sizeof(*cpu));
	if (!buf || !ms || !cpu) {
		fprintf(stderr, "bench_categories: %s: %s\n", argv[1],
			strerror(errno));
		return 2;
	}
	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';

	for (r = 0; r < runs; r++) {
		double start, start_cpu;
		int ret;

		vtrace_catmap_init(&map);
		vtrace_diags_init(&diags);
		start = now_ms(CLOCK_MONOTONIC);
		start_cpu = now_ms(CLOCK_PROCESS_CPUTIME_ID);
		ret = vtrace_catmap_parse(&map, argv[1], buf, len, &diags);
		ms[r] = now_ms(CLOCK_MONOTONIC) - start;
		cpu[r] = now_ms(CLOCK_PROCESS_CPUTIME_ID) - start_cpu;
		if (ret) {
			fprintf(stderr, "bench_categories: parse failed: %d\n",
				ret);
			return 1;
		}
		cats = map.nr;
		for (k = 0, events = 0; k < map.nr; k++)
			events += map.cats[k].nr_events;
		vtrace_diags_free(&diags);
		vtrace_catmap_free(&map);
	}
	qsort(ms, runs, sizeof(*ms), cmp_double);
	qsort(cpu, runs, sizeof(*cpu), cmp_double);
	printf("%zu %zu %zu %zu %.2f %.2f %.2f\n", lines, len, cats, events,
	       ms[0], ms[runs / 2], cpu[0]);
	free(cpu);
	free(ms);
	free(buf);
	return 0;
}
