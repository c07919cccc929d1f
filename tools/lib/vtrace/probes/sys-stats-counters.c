// SPDX-License-Identifier: LGPL-2.1
/*
 * linux.sys_stats' counter enums, MeminfoCounters and VmstatCounters of
 * Perfetto's sys_stats_counters.proto: each value's name as a config
 * names it, and the /proc/meminfo or /proc/vmstat key it stands for. A
 * vmstat value's key is its name without "VMSTAT_", in lower case; a
 * meminfo key is not derived from its name, so it is listed. The values
 * are dense: a value is its index. The config schema takes its enum values
 * from here; selftests/vtrace_tool/trace_config_schema.sh checks them
 * against the .proto.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "probes/probes-local.h"

/* The sizes are probes.h's: a value added here and not there fails. */
const struct vtrace_pb_enum_value vtrace_meminfo_counters[] = {
	{ "MEMINFO_UNSPECIFIED", 0 },
	{ "MEMINFO_MEM_TOTAL", 1 },
	{ "MEMINFO_MEM_FREE", 2 },
	{ "MEMINFO_MEM_AVAILABLE", 3 },
	{ "MEMINFO_BUFFERS", 4 },
	{ "MEMINFO_CACHED", 5 },
	{ "MEMINFO_SWAP_CACHED", 6 },
	{ "MEMINFO_ACTIVE", 7 },
	{ "MEMINFO_INACTIVE", 8 },
	{ "MEMINFO_ACTIVE_ANON", 9 },
	{ "MEMINFO_INACTIVE_ANON", 10 },
	{ "MEMINFO_ACTIVE_FILE", 11 },
	{ "MEMINFO_INACTIVE_FILE", 12 },
	{ "MEMINFO_UNEVICTABLE", 13 },
	{ "MEMINFO_MLOCKED", 14 },
	{ "MEMINFO_SWAP_TOTAL", 15 },
	{ "MEMINFO_SWAP_FREE", 16 },
	{ "MEMINFO_DIRTY", 17 },
	{ "MEMINFO_WRITEBACK", 18 },
	{ "MEMINFO_ANON_PAGES", 19 },
	{ "MEMINFO_MAPPED", 20 },
	{ "MEMINFO_SHMEM", 21 },
	{ "MEMINFO_SLAB", 22 },
	{ "MEMINFO_SLAB_RECLAIMABLE", 23 },
	{ "MEMINFO_SLAB_UNRECLAIMABLE", 24 },
	{ "MEMINFO_KERNEL_STACK", 25 },
	{ "MEMINFO_PAGE_TABLES", 26 },
	{ "MEMINFO_COMMIT_LIMIT", 27 },
	{ "MEMINFO_COMMITED_AS", 28 },
	{ "MEMINFO_VMALLOC_TOTAL", 29 },
	{ "MEMINFO_VMALLOC_USED", 30 },
	{ "MEMINFO_VMALLOC_CHUNK", 31 },
	{ "MEMINFO_CMA_TOTAL", 32 },
	{ "MEMINFO_CMA_FREE", 33 },
	{ "MEMINFO_GPU", 34 },
	{ "MEMINFO_ZRAM", 35 },
	{ "MEMINFO_MISC", 36 },
	{ "MEMINFO_ION_HEAP", 37 },
	{ "MEMINFO_ION_HEAP_POOL", 38 },
};

/* /proc/meminfo keys, by value; "" for UNSPECIFIED. */
static const char *const meminfo_keys[VTRACE_MEMINFO_MAX + 1] = {
	"",
	"MemTotal",
	"MemFree",
	"MemAvailable",
	"Buffers",
	"Cached",
	"SwapCached",
	"Active",
	"Inactive",
	"Active(anon)",
	"Inactive(anon)",
	"Active(file)",
	"Inactive(file)",
	"Unevictable",
	"Mlocked",
	"SwapTotal",
	"SwapFree",
	"Dirty",
	"Writeback",
	"AnonPages",
	"Mapped",
	"Shmem",
	"Slab",
	"SReclaimable",
	"SUnreclaim",
	"KernelStack",
	"PageTables",
	"CommitLimit",
	"Committed_AS",
	"VmallocTotal",
	"VmallocUsed",
	"VmallocChunk",
	"CmaTotal",
	"CmaFree",
	"Gpu",
	"Zram",
	"Misc",
	"ION_heap",
	"ION_heap_pool",
};

const struct vtrace_pb_enum_value vtrace_vmstat_counters[] = {
	{ "VMSTAT_UNSPECIFIED", 0 },
	{ "VMSTAT_NR_FREE_PAGES", 1 },
	{ "VMSTAT_NR_ALLOC_BATCH", 2 },
	{ "VMSTAT_NR_INACTIVE_ANON", 3 },
	{ "VMSTAT_NR_ACTIVE_ANON", 4 },
	{ "VMSTAT_NR_INACTIVE_FILE", 5 },
	{ "VMSTAT_NR_ACTIVE_FILE", 6 },
	{ "VMSTAT_NR_UNEVICTABLE", 7 },
	{ "VMSTAT_NR_MLOCK", 8 },
	{ "VMSTAT_NR_ANON_PAGES", 9 },
	{ "VMSTAT_NR_MAPPED", 10 },
	{ "VMSTAT_NR_FILE_PAGES", 11 },
	{ "VMSTAT_NR_DIRTY", 12 },
	{ "VMSTAT_NR_WRITEBACK", 13 },
	{ "VMSTAT_NR_SLAB_RECLAIMABLE", 14 },
	{ "VMSTAT_NR_SLAB_UNRECLAIMABLE", 15 },
	{ "VMSTAT_NR_PAGE_TABLE_PAGES", 16 },
	{ "VMSTAT_NR_KERNEL_STACK", 17 },
	{ "VMSTAT_NR_OVERHEAD", 18 },
	{ "VMSTAT_NR_UNSTABLE", 19 },
	{ "VMSTAT_NR_BOUNCE", 20 },
	{ "VMSTAT_NR_VMSCAN_WRITE", 21 },
	{ "VMSTAT_NR_VMSCAN_IMMEDIATE_RECLAIM", 22 },
	{ "VMSTAT_NR_WRITEBACK_TEMP", 23 },
	{ "VMSTAT_NR_ISOLATED_ANON", 24 },
	{ "VMSTAT_NR_ISOLATED_FILE", 25 },
	{ "VMSTAT_NR_SHMEM", 26 },
	{ "VMSTAT_NR_DIRTIED", 27 },
	{ "VMSTAT_NR_WRITTEN", 28 },
	{ "VMSTAT_NR_PAGES_SCANNED", 29 },
	{ "VMSTAT_WORKINGSET_REFAULT", 30 },
	{ "VMSTAT_WORKINGSET_ACTIVATE", 31 },
	{ "VMSTAT_WORKINGSET_NODERECLAIM", 32 },
	{ "VMSTAT_NR_ANON_TRANSPARENT_HUGEPAGES", 33 },
	{ "VMSTAT_NR_FREE_CMA", 34 },
	{ "VMSTAT_NR_SWAPCACHE", 35 },
	{ "VMSTAT_NR_DIRTY_THRESHOLD", 36 },
	{ "VMSTAT_NR_DIRTY_BACKGROUND_THRESHOLD", 37 },
	{ "VMSTAT_PGPGIN", 38 },
	{ "VMSTAT_PGPGOUT", 39 },
	{ "VMSTAT_PGPGOUTCLEAN", 40 },
	{ "VMSTAT_PSWPIN", 41 },
	{ "VMSTAT_PSWPOUT", 42 },
	{ "VMSTAT_PGALLOC_DMA", 43 },
	{ "VMSTAT_PGALLOC_NORMAL", 44 },
	{ "VMSTAT_PGALLOC_MOVABLE", 45 },
	{ "VMSTAT_PGFREE", 46 },
	{ "VMSTAT_PGACTIVATE", 47 },
	{ "VMSTAT_PGDEACTIVATE", 48 },
	{ "VMSTAT_PGFAULT", 49 },
	{ "VMSTAT_PGMAJFAULT", 50 },
	{ "VMSTAT_PGREFILL_DMA", 51 },
	{ "VMSTAT_PGREFILL_NORMAL", 52 },
	{ "VMSTAT_PGREFILL_MOVABLE", 53 },
	{ "VMSTAT_PGSTEAL_KSWAPD_DMA", 54 },
	{ "VMSTAT_PGSTEAL_KSWAPD_NORMAL", 55 },
	{ "VMSTAT_PGSTEAL_KSWAPD_MOVABLE", 56 },
	{ "VMSTAT_PGSTEAL_DIRECT_DMA", 57 },
	{ "VMSTAT_PGSTEAL_DIRECT_NORMAL", 58 },
	{ "VMSTAT_PGSTEAL_DIRECT_MOVABLE", 59 },
	{ "VMSTAT_PGSCAN_KSWAPD_DMA", 60 },
	{ "VMSTAT_PGSCAN_KSWAPD_NORMAL", 61 },
	{ "VMSTAT_PGSCAN_KSWAPD_MOVABLE", 62 },
	{ "VMSTAT_PGSCAN_DIRECT_DMA", 63 },
	{ "VMSTAT_PGSCAN_DIRECT_NORMAL", 64 },
	{ "VMSTAT_PGSCAN_DIRECT_MOVABLE", 65 },
	{ "VMSTAT_PGSCAN_DIRECT_THROTTLE", 66 },
	{ "VMSTAT_PGINODESTEAL", 67 },
	{ "VMSTAT_SLABS_SCANNED", 68 },
	{ "VMSTAT_KSWAPD_INODESTEAL", 69 },
	{ "VMSTAT_KSWAPD_LOW_WMARK_HIT_QUICKLY", 70 },
	{ "VMSTAT_KSWAPD_HIGH_WMARK_HIT_QUICKLY", 71 },
	{ "VMSTAT_PAGEOUTRUN", 72 },
	{ "VMSTAT_ALLOCSTALL", 73 },
	{ "VMSTAT_PGROTATED", 74 },
	{ "VMSTAT_DROP_PAGECACHE", 75 },
	{ "VMSTAT_DROP_SLAB", 76 },
	{ "VMSTAT_PGMIGRATE_SUCCESS", 77 },
	{ "VMSTAT_PGMIGRATE_FAIL", 78 },
	{ "VMSTAT_COMPACT_MIGRATE_SCANNED", 79 },
	{ "VMSTAT_COMPACT_FREE_SCANNED", 80 },
	{ "VMSTAT_COMPACT_ISOLATED", 81 },
	{ "VMSTAT_COMPACT_STALL", 82 },
	{ "VMSTAT_COMPACT_FAIL", 83 },
	{ "VMSTAT_COMPACT_SUCCESS", 84 },
	{ "VMSTAT_COMPACT_DAEMON_WAKE", 85 },
	{ "VMSTAT_UNEVICTABLE_PGS_CULLED", 86 },
	{ "VMSTAT_UNEVICTABLE_PGS_SCANNED", 87 },
	{ "VMSTAT_UNEVICTABLE_PGS_RESCUED", 88 },
	{ "VMSTAT_UNEVICTABLE_PGS_MLOCKED", 89 },
	{ "VMSTAT_UNEVICTABLE_PGS_MUNLOCKED", 90 },
	{ "VMSTAT_UNEVICTABLE_PGS_CLEARED", 91 },
	{ "VMSTAT_UNEVICTABLE_PGS_STRANDED", 92 },
	{ "VMSTAT_NR_ZSPAGES", 93 },
	{ "VMSTAT_NR_ION_HEAP", 94 },
	{ "VMSTAT_NR_GPU_HEAP", 95 },
	{ "VMSTAT_ALLOCSTALL_DMA", 96 },
	{ "VMSTAT_ALLOCSTALL_MOVABLE", 97 },
	{ "VMSTAT_ALLOCSTALL_NORMAL", 98 },
	{ "VMSTAT_COMPACT_DAEMON_FREE_SCANNED", 99 },
	{ "VMSTAT_COMPACT_DAEMON_MIGRATE_SCANNED", 100 },
	{ "VMSTAT_NR_FASTRPC", 101 },
	{ "VMSTAT_NR_INDIRECTLY_RECLAIMABLE", 102 },
	{ "VMSTAT_NR_ION_HEAP_POOL", 103 },
	{ "VMSTAT_NR_KERNEL_MISC_RECLAIMABLE", 104 },
	{ "VMSTAT_NR_SHADOW_CALL_STACK_BYTES", 105 },
	{ "VMSTAT_NR_SHMEM_HUGEPAGES", 106 },
	{ "VMSTAT_NR_SHMEM_PMDMAPPED", 107 },
	{ "VMSTAT_NR_UNRECLAIMABLE_PAGES", 108 },
	{ "VMSTAT_NR_ZONE_ACTIVE_ANON", 109 },
	{ "VMSTAT_NR_ZONE_ACTIVE_FILE", 110 },
	{ "VMSTAT_NR_ZONE_INACTIVE_ANON", 111 },
	{ "VMSTAT_NR_ZONE_INACTIVE_FILE", 112 },
	{ "VMSTAT_NR_ZONE_UNEVICTABLE", 113 },
	{ "VMSTAT_NR_ZONE_WRITE_PENDING", 114 },
	{ "VMSTAT_OOM_KILL", 115 },
	{ "VMSTAT_PGLAZYFREE", 116 },
	{ "VMSTAT_PGLAZYFREED", 117 },
	{ "VMSTAT_PGREFILL", 118 },
	{ "VMSTAT_PGSCAN_DIRECT", 119 },
	{ "VMSTAT_PGSCAN_KSWAPD", 120 },
	{ "VMSTAT_PGSKIP_DMA", 121 },
	{ "VMSTAT_PGSKIP_MOVABLE", 122 },
	{ "VMSTAT_PGSKIP_NORMAL", 123 },
	{ "VMSTAT_PGSTEAL_DIRECT", 124 },
	{ "VMSTAT_PGSTEAL_KSWAPD", 125 },
	{ "VMSTAT_SWAP_RA", 126 },
	{ "VMSTAT_SWAP_RA_HIT", 127 },
	{ "VMSTAT_WORKINGSET_RESTORE", 128 },
	{ "VMSTAT_ALLOCSTALL_DEVICE", 129 },
	{ "VMSTAT_ALLOCSTALL_DMA32", 130 },
	{ "VMSTAT_BALLOON_DEFLATE", 131 },
	{ "VMSTAT_BALLOON_INFLATE", 132 },
	{ "VMSTAT_BALLOON_MIGRATE", 133 },
	{ "VMSTAT_CMA_ALLOC_FAIL", 134 },
	{ "VMSTAT_CMA_ALLOC_SUCCESS", 135 },
	{ "VMSTAT_NR_FILE_HUGEPAGES", 136 },
	{ "VMSTAT_NR_FILE_PMDMAPPED", 137 },
	{ "VMSTAT_NR_FOLL_PIN_ACQUIRED", 138 },
	{ "VMSTAT_NR_FOLL_PIN_RELEASED", 139 },
	{ "VMSTAT_NR_SEC_PAGE_TABLE_PAGES", 140 },
	{ "VMSTAT_NR_SHADOW_CALL_STACK", 141 },
	{ "VMSTAT_NR_SWAPCACHED", 142 },
	{ "VMSTAT_NR_THROTTLED_WRITTEN", 143 },
	{ "VMSTAT_PGALLOC_DEVICE", 144 },
	{ "VMSTAT_PGALLOC_DMA32", 145 },
	{ "VMSTAT_PGDEMOTE_DIRECT", 146 },
	{ "VMSTAT_PGDEMOTE_KSWAPD", 147 },
	{ "VMSTAT_PGREUSE", 148 },
	{ "VMSTAT_PGSCAN_ANON", 149 },
	{ "VMSTAT_PGSCAN_FILE", 150 },
	{ "VMSTAT_PGSKIP_DEVICE", 151 },
	{ "VMSTAT_PGSKIP_DMA32", 152 },
	{ "VMSTAT_PGSTEAL_ANON", 153 },
	{ "VMSTAT_PGSTEAL_FILE", 154 },
	{ "VMSTAT_THP_COLLAPSE_ALLOC", 155 },
	{ "VMSTAT_THP_COLLAPSE_ALLOC_FAILED", 156 },
	{ "VMSTAT_THP_DEFERRED_SPLIT_PAGE", 157 },
	{ "VMSTAT_THP_FAULT_ALLOC", 158 },
	{ "VMSTAT_THP_FAULT_FALLBACK", 159 },
	{ "VMSTAT_THP_FAULT_FALLBACK_CHARGE", 160 },
	{ "VMSTAT_THP_FILE_ALLOC", 161 },
	{ "VMSTAT_THP_FILE_FALLBACK", 162 },
	{ "VMSTAT_THP_FILE_FALLBACK_CHARGE", 163 },
	{ "VMSTAT_THP_FILE_MAPPED", 164 },
	{ "VMSTAT_THP_MIGRATION_FAIL", 165 },
	{ "VMSTAT_THP_MIGRATION_SPLIT", 166 },
	{ "VMSTAT_THP_MIGRATION_SUCCESS", 167 },
	{ "VMSTAT_THP_SCAN_EXCEED_NONE_PTE", 168 },
	{ "VMSTAT_THP_SCAN_EXCEED_SHARE_PTE", 169 },
	{ "VMSTAT_THP_SCAN_EXCEED_SWAP_PTE", 170 },
	{ "VMSTAT_THP_SPLIT_PAGE", 171 },
	{ "VMSTAT_THP_SPLIT_PAGE_FAILED", 172 },
	{ "VMSTAT_THP_SPLIT_PMD", 173 },
	{ "VMSTAT_THP_SWPOUT", 174 },
	{ "VMSTAT_THP_SWPOUT_FALLBACK", 175 },
	{ "VMSTAT_THP_ZERO_PAGE_ALLOC", 176 },
	{ "VMSTAT_THP_ZERO_PAGE_ALLOC_FAILED", 177 },
	{ "VMSTAT_VMA_LOCK_ABORT", 178 },
	{ "VMSTAT_VMA_LOCK_MISS", 179 },
	{ "VMSTAT_VMA_LOCK_RETRY", 180 },
	{ "VMSTAT_VMA_LOCK_SUCCESS", 181 },
	{ "VMSTAT_WORKINGSET_ACTIVATE_ANON", 182 },
	{ "VMSTAT_WORKINGSET_ACTIVATE_FILE", 183 },
	{ "VMSTAT_WORKINGSET_NODES", 184 },
	{ "VMSTAT_WORKINGSET_REFAULT_ANON", 185 },
	{ "VMSTAT_WORKINGSET_REFAULT_FILE", 186 },
	{ "VMSTAT_WORKINGSET_RESTORE_ANON", 187 },
	{ "VMSTAT_WORKINGSET_RESTORE_FILE", 188 },
};

/**
 * vt_meminfo_key - the /proc/meminfo key of a MeminfoCounters value
 * @value: the value
 *
 * Return: the key, or NULL for MEMINFO_UNSPECIFIED and unknown values.
 */
const char *vt_meminfo_key(unsigned int value)
{
	if (!value || value > VTRACE_MEMINFO_MAX)
		return NULL;
	return meminfo_keys[value];
}

/**
 * vt_vmstat_key - the /proc/vmstat key of a VmstatCounters value
 * @value: the value
 * @buf: set to the key
 * @size: bytes at @buf
 *
 * Return: 0, or -EINVAL for VMSTAT_UNSPECIFIED, unknown values and keys
 * longer than @size.
 */
int vt_vmstat_key(unsigned int value, char *buf, size_t size)
{
	const char *name;
	size_t i;

	if (!value || value > VTRACE_VMSTAT_MAX)
		return -EINVAL;
	name = vtrace_vmstat_counters[value].name + strlen("VMSTAT_");
	if (strlen(name) >= size)
		return -EINVAL;
	for (i = 0; name[i]; i++)
		buf[i] = tolower((unsigned char)name[i]);
	buf[i] = '\0';
	return 0;
}

/* Each kind's name on the command line (--poll), as its config field's. */
static const char *const kind_names[VTRACE_SYS_NR] = {
	[VTRACE_SYS_MEMINFO] = "meminfo",
	[VTRACE_SYS_VMSTAT] = "vmstat",
	[VTRACE_SYS_STAT] = "stat",
	[VTRACE_SYS_DEVFREQ] = "devfreq",
	[VTRACE_SYS_CPUFREQ] = "cpufreq",
	[VTRACE_SYS_BUDDYINFO] = "buddyinfo",
	[VTRACE_SYS_DISKSTAT] = "diskstat",
	[VTRACE_SYS_PSI] = "psi",
	[VTRACE_SYS_THERMAL] = "thermal",
};

/**
 * vtrace_sys_stats_kind_name - a sys_stats kind's name
 * @kind: the kind
 *
 * Return: its name ("meminfo", ...; SysStatsConfig's field is the name
 * followed by "_period_ms"), or NULL when @kind is out of range.
 */
const char *vtrace_sys_stats_kind_name(enum vtrace_sys_stats_kind kind)
{
	if ((unsigned int)kind >= VTRACE_SYS_NR)
		return NULL;
	return kind_names[kind];
}

/**
 * vtrace_sys_stats_kind_parse - a sys_stats kind by its name
 * @name: the name, as vtrace_sys_stats_kind_name() gives it
 * @kind: set to the kind
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int vtrace_sys_stats_kind_parse(const char *name,
				enum vtrace_sys_stats_kind *kind)
{
	int k;

	for (k = 0; k < VTRACE_SYS_NR; k++) {
		if (!strcmp(name, kind_names[k])) {
			*kind = k;
			return 0;
		}
	}
	return -EINVAL;
}
