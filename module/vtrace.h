/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtrace.ko internals: each event source owns a debugfs directory under
 * /sys/kernel/debug/vtrace/ and is set up and torn down by core.c.
 */
#ifndef _VTRACE_H
#define _VTRACE_H

#include <linux/dcache.h>
#include <linux/types.h>

/* Longest accepted emit command, without its optional trailing newline. */
#define VTRACE_EMIT_MAX_LEN	255

/* mali_pm_status event_id of every burst event, outside the core types. */
#define VTRACE_BURST_EVENT_ID	0x10000

/* Largest number of elements of an array field that emit accepts. */
#define VTRACE_EMIT_MAX_ELEMS	16

/**
 * enum vtrace_field_kind - how emit reads and checks a field's value
 * @VTRACE_FIELD_UINT:	unsigned integer of vtrace_event_field.size bytes
 * @VTRACE_FIELD_SINT:	signed integer of vtrace_event_field.size bytes
 * @VTRACE_FIELD_BOOL:	0 or 1
 * @VTRACE_FIELD_STR:	one token of [A-Za-z0-9_-]
 * @VTRACE_FIELD_U32S:	1 to .len comma-separated u32 (a dynamic array)
 * @VTRACE_FIELD_U64S:	1 to .len comma-separated u64, the rest zero
 * @VTRACE_FIELD_CPUS:	comma-separated possible CPU numbers (a bitmask)
 * @VTRACE_FIELD_LEN:	unsigned, the element count of field .of
 */
enum vtrace_field_kind {
	VTRACE_FIELD_UINT,
	VTRACE_FIELD_SINT,
	VTRACE_FIELD_BOOL,
	VTRACE_FIELD_STR,
	VTRACE_FIELD_U32S,
	VTRACE_FIELD_U64S,
	VTRACE_FIELD_CPUS,
	VTRACE_FIELD_LEN,
};

/**
 * struct vtrace_event_field - one field of a vendor event, for emit
 * @name:	the field's name in the event's format
 * @kind:	how its value is given
 * @size:	bytes of the integer, or of one array element
 * @len:	array fields: most (U32S) or exact (U64S) number of elements
 * @of:		VTRACE_FIELD_LEN: name of the array field it counts
 */
struct vtrace_event_field {
	const char *name;
	enum vtrace_field_kind kind;
	unsigned int size;
	unsigned int len;
	const char *of;
};

/**
 * struct vtrace_emit_value - a parsed field value, as its tracepoint
 *	argument takes it
 * @num:	integers and bools (negative ones as two's complement)
 * @str:	strings ("" when not given)
 * @ptr:	arrays: the u32s, u64s or struct cpumask
 * @count:	arrays: number of elements given
 */
struct vtrace_emit_value {
	u64 num;
	const char *str;
	const void *ptr;
	unsigned int count;
};

/**
 * struct vtrace_event_desc - a vendor event, from event-table.h
 * @system:	its TRACE_SYSTEM
 * @name:	its name
 * @fields:	its fields, in format order
 * @nr_fields:	number of @fields
 * @emit:	emits it from one value per field, in @fields order (@ev is
 *		this descriptor)
 */
struct vtrace_event_desc {
	const char *system;
	const char *name;
	const struct vtrace_event_field *fields;
	unsigned int nr_fields;
	void (*emit)(const struct vtrace_event_desc *ev,
		     const struct vtrace_emit_value *values);
};

extern const struct vtrace_event_desc vtrace_events[];
extern const unsigned int vtrace_nr_events;

void vtrace_emit_init(struct dentry *root);
bool vtrace_token_valid(const char *s);
bool vtrace_tmu_name_valid(const char *name);

/* Simulated thermal zones: big, mid and little CPU clusters, and the GPU. */
#define VTRACE_SIM_NR_TMUS	4
/* Longest TMU name that emit commands and the device tree may give. */
#define VTRACE_TMU_NAME_MAX_LEN	15

int vtrace_sim_init(struct dentry *root);
void vtrace_sim_exit(void);
void vtrace_sim_set_tmu_names(const char *const *names);

/* Operating points of the simulated GPU's DVFS (sim.c). */
#define VTRACE_SIM_GPU_NR_OPPS	10

/*
 * The kernel's own thermal zones and devfreq device, following the
 * simulator: sim-thermal.c and sim-devfreq.c.
 */
int vtrace_sim_thermal_init(const char *const *names);
void vtrace_sim_thermal_rename(const char *const *names);
void vtrace_sim_thermal_update(unsigned int id, int temp_mc);
void vtrace_sim_thermal_exit(void);

int vtrace_sim_devfreq_init(const u32 *opps_khz);
void vtrace_sim_devfreq_update(u32 khz, int load);
void vtrace_sim_devfreq_exit(void);

int vtrace_of_init(void);
void vtrace_of_exit(void);

void vtrace_burst_init(struct dentry *root);
void vtrace_burst_exit(void);

#endif /* _VTRACE_H */
