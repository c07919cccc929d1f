// SPDX-License-Identifier: GPL-2.0
/*
 * kshark_load FILE - load a trace.dat with KernelShark's own data layer
 * (libkshark 2, what the kernelshark GUI opens files with) and print one
 * line per entry, "CPU TIMESTAMP SYSTEM/EVENT", in KernelShark's time
 * order (the timestamp in ns, as trace-cmd report -t prints it). Exit 1 when
 * KernelShark cannot open or load the file, or its entries are out of
 * time order.
 *
 * The tests compare those lines with trace-cmd report's, so that "opens
 * in KernelShark" is checked without a display.
 *
 * Debian ships libkshark2 without its headers: the declarations below are
 * the few this needs, after KernelShark 2.x's libkshark.h (struct
 * kshark_entry is part of its ABI: the library hands out arrays of it).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

struct kshark_context;

struct kshark_entry {
	struct kshark_entry *next;
	uint16_t visible;
	int16_t stream_id;
	int16_t event_id;
	int16_t cpu;
	int32_t pid;
	int64_t offset;
	int64_t ts;
};

bool kshark_instance(struct kshark_context **kshark_ctx);
int kshark_open(struct kshark_context *kshark_ctx, const char *file);
ssize_t kshark_load_entries(struct kshark_context *kshark_ctx, int sd,
			    struct kshark_entry ***data_rows);
char *kshark_get_event_name(const struct kshark_entry *entry);
void kshark_close_all(struct kshark_context *kshark_ctx);
void kshark_free(struct kshark_context *kshark_ctx);

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	ssize_t n, i;
	int sd, status = 0;
	char *name;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	if (!kshark_instance(&ctx)) {
		fprintf(stderr, "kshark_load: no KernelShark session\n");
		return 1;
	}
	sd = kshark_open(ctx, argv[1]);
	if (sd < 0) {
		fprintf(stderr,
			"kshark_load: KernelShark cannot open %s (%d)\n",
			argv[1], sd);
		kshark_free(ctx);
		return 1;
	}
	n = kshark_load_entries(ctx, sd, &rows);
	if (n < 0) {
		fprintf(stderr,
			"kshark_load: KernelShark cannot load %s (%zd)\n",
			argv[1], n);
		status = 1;
	}
	for (i = 0; i < n; i++) {
		if (i && rows[i]->ts < rows[i - 1]->ts) {
			fprintf(stderr,
				"kshark_load: entry %zd is out of order\n", i);
			status = 1;
		}
		name = kshark_get_event_name(rows[i]);
		printf("%d %lld %s\n", rows[i]->cpu, (long long)rows[i]->ts,
		       name ? name : "?");
		free(name);
		free(rows[i]);
	}
	free(rows);
	kshark_close_all(ctx);
	kshark_free(ctx);
	return status;
}
