// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs "emit": emits one vendor event per write(2), for example
 *
 *	echo "gpu_power_state OFF GLOBAL" > /sys/kernel/debug/vtrace/emit
 *
 * A command is a line of blank-separated words: the event name, then its
 * arguments.  Every vendor event takes the generic form
 *
 *	EVENT FIELD=VALUE [FIELD=VALUE]...
 *
 * with the fields of event-table.h's row for EVENT (or SYSTEM/EVENT): any
 * subset, in any order, each at most once; fields not named are zero or
 * empty.  Integers are C notation checked against the field's size and
 * signedness, bools 0 or 1, strings one token of [A-Za-z0-9_-], arrays
 * comma-separated values (a CPU mask: CPU numbers), and an array's count
 * field is the number of values given.
 *
 * The first four events also keep their positional forms (arguments
 * without '='), each described by an entry of vtrace_emit_cmds[].
 *
 * The whole command is parsed before the event is emitted, so a bad
 * command emits nothing, and each write parses into its own buffers, so
 * concurrent writers share no state.
 */
#include <linux/ctype.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <trace/events/mali.h>
#include <trace/events/thermal_exynos.h>

#include "debug.h"
#include "vtrace.h"

#define VTRACE_EMIT_MAX_ARGS	6
/* Fields of the widest event, thermal_exynos_acpm_bulk. */
#define VTRACE_EMIT_MAX_FIELDS	11
#define VTRACE_EMIT_MAX_WORDS	(1 + VTRACE_EMIT_MAX_FIELDS)

enum vtrace_arg_type {
	VTRACE_ARG_POWER_LEVEL,	/* OFF|GLOBAL|COREGROUP|STACKS or 0..3 */
	VTRACE_ARG_CPU,		/* a possible CPU */
	VTRACE_ARG_FLAG,	/* 0 or 1 */
	VTRACE_ARG_INT,
	VTRACE_ARG_U32,
	VTRACE_ARG_U64,
	VTRACE_ARG_ULONG,
	VTRACE_ARG_TMU_NAME,	/* 1..15 of [A-Za-z0-9_-] */
};

union vtrace_arg {
	int sint;
	u32 u32val;
	u64 u64val;
	unsigned long ulong;
	bool flag;
	const char *name;
};

/**
 * struct vtrace_emit_cmd - an emit command
 * @name:	first word of the command, the event name
 * @nr_args:	number of words after the name
 * @arg_types:	type of each of those words
 * @emit:	emits the event from the parsed arguments
 */
struct vtrace_emit_cmd {
	const char *name;
	unsigned int nr_args;
	enum vtrace_arg_type arg_types[VTRACE_EMIT_MAX_ARGS];
	void (*emit)(const union vtrace_arg *args);
};

static int vtrace_parse_power_level(const char *word, union vtrace_arg *arg)
{
	static const char * const names[] = {
		[MALI_POWER_LEVEL_OFF]		= "OFF",
		[MALI_POWER_LEVEL_GLOBAL]	= "GLOBAL",
		[MALI_POWER_LEVEL_COREGROUP]	= "COREGROUP",
		[MALI_POWER_LEVEL_STACKS]	= "STACKS",
	};
	int level;
	int ret;

	level = match_string(names, ARRAY_SIZE(names), word);
	if (level < 0) {
		ret = kstrtoint(word, 0, &level);
		if (ret)
			return ret;
		if (level < MALI_POWER_LEVEL_OFF ||
		    level > MALI_POWER_LEVEL_STACKS)
			return -ERANGE;
	}
	arg->sint = level;
	return 0;
}

static int vtrace_parse_cpu(const char *word, union vtrace_arg *arg)
{
	int cpu;
	int ret;

	ret = kstrtoint(word, 0, &cpu);
	if (ret)
		return ret;
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -ERANGE;
	arg->sint = cpu;
	return 0;
}

static int vtrace_parse_flag(const char *word, union vtrace_arg *arg)
{
	int val;
	int ret;

	ret = kstrtoint(word, 0, &val);
	if (ret)
		return ret;
	if (val != 0 && val != 1)
		return -ERANGE;
	arg->flag = val;
	return 0;
}

static int vtrace_parse_int(const char *word, union vtrace_arg *arg)
{
	return kstrtoint(word, 0, &arg->sint);
}

static int vtrace_parse_u32(const char *word, union vtrace_arg *arg)
{
	return kstrtou32(word, 0, &arg->u32val);
}

static int vtrace_parse_u64(const char *word, union vtrace_arg *arg)
{
	return kstrtou64(word, 0, &arg->u64val);
}

static int vtrace_parse_ulong(const char *word, union vtrace_arg *arg)
{
	return kstrtoul(word, 0, &arg->ulong);
}

/*
 * [A-Za-z0-9_-] in ASCII.  Not isalnum(): the kernel's ctype classes the
 * Latin-1 letters 0xC0-0xFF as alphanumeric too.
 */
static bool vtrace_token_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/**
 * vtrace_token_valid() - check a name emit and the device tree accept
 * @s: the name
 *
 * Return: true if @s is one or more characters of [A-Za-z0-9_-] (ASCII).
 */
bool vtrace_token_valid(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!vtrace_token_char(*s))
			return false;
	return true;
}

/**
 * vtrace_tmu_name_valid() - check a thermal zone name for tmu_name
 * @name: the name
 *
 * Return: true for 1..VTRACE_TMU_NAME_MAX_LEN characters of [A-Za-z0-9_-].
 */
bool vtrace_tmu_name_valid(const char *name)
{
	size_t len = strlen(name);

	return len && len <= VTRACE_TMU_NAME_MAX_LEN && vtrace_token_valid(name);
}

static int vtrace_parse_tmu_name(const char *word, union vtrace_arg *arg)
{
	if (!vtrace_tmu_name_valid(word))
		return -EINVAL;
	arg->name = word;
	return 0;
}

static int (* const vtrace_arg_parsers[])(const char *word,
					  union vtrace_arg *arg) = {
	[VTRACE_ARG_POWER_LEVEL]	= vtrace_parse_power_level,
	[VTRACE_ARG_CPU]		= vtrace_parse_cpu,
	[VTRACE_ARG_FLAG]		= vtrace_parse_flag,
	[VTRACE_ARG_INT]		= vtrace_parse_int,
	[VTRACE_ARG_U32]		= vtrace_parse_u32,
	[VTRACE_ARG_U64]		= vtrace_parse_u64,
	[VTRACE_ARG_ULONG]		= vtrace_parse_ulong,
	[VTRACE_ARG_TMU_NAME]		= vtrace_parse_tmu_name,
};

static void vtrace_emit_gpu_power_state(const union vtrace_arg *args)
{
	trace_gpu_power_state(ktime_get_ns(), args[0].sint, args[1].sint);
}

static void vtrace_emit_mali_pm_status(const union vtrace_arg *args)
{
	trace_mali_pm_status(args[0].u32val, args[1].u32val, args[2].u64val);
}

static void vtrace_emit_thermal_cpu_pressure(const union vtrace_arg *args)
{
	/* The command names the CPU first, the tracepoint takes it last. */
	trace_thermal_cpu_pressure(args[1].ulong, args[0].sint);
}

static void vtrace_emit_thermal_exynos_arm_update(const union vtrace_arg *args)
{
	trace_thermal_exynos_arm_update(args[0].name, args[1].flag,
					args[2].sint, args[3].sint,
					args[4].sint, args[5].sint);
}

static const struct vtrace_emit_cmd vtrace_emit_cmds[] = {
	{
		.name		= "gpu_power_state",
		.nr_args	= 2,
		.arg_types	= { VTRACE_ARG_POWER_LEVEL,
				    VTRACE_ARG_POWER_LEVEL },
		.emit		= vtrace_emit_gpu_power_state,
	},
	{
		.name		= "mali_pm_status",
		.nr_args	= 3,
		.arg_types	= { VTRACE_ARG_U32, VTRACE_ARG_U32,
				    VTRACE_ARG_U64 },
		.emit		= vtrace_emit_mali_pm_status,
	},
	{
		.name		= "thermal_cpu_pressure",
		.nr_args	= 2,
		.arg_types	= { VTRACE_ARG_CPU, VTRACE_ARG_ULONG },
		.emit		= vtrace_emit_thermal_cpu_pressure,
	},
	{
		.name		= "thermal_exynos_arm_update",
		.nr_args	= 6,
		.arg_types	= { VTRACE_ARG_TMU_NAME, VTRACE_ARG_FLAG,
				    VTRACE_ARG_INT, VTRACE_ARG_INT,
				    VTRACE_ARG_INT, VTRACE_ARG_INT },
		.emit		= vtrace_emit_thermal_exynos_arm_update,
	},
};

static const struct vtrace_emit_cmd *vtrace_emit_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vtrace_emit_cmds); i++)
		if (!strcmp(vtrace_emit_cmds[i].name, name))
			return &vtrace_emit_cmds[i];
	return NULL;
}

static bool vtrace_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Splits @line in place into at most @max_words blank-separated words.
 * Returns the number of words, or -EINVAL if there are none, too many, or
 * the line holds a character that is neither blank nor printable.
 */
static int vtrace_split_words(char *line, char **words, int max_words)
{
	int nr_words = 0;
	char *p;

	for (p = line; *p; p++) {
		if (vtrace_is_blank(*p)) {
			*p = '\0';
			continue;
		}
		if (!isgraph(*p))
			return -EINVAL;
		if (p == line || !p[-1]) {
			if (nr_words == max_words)
				return -EINVAL;
			words[nr_words++] = p;
		}
	}
	return nr_words ? nr_words : -EINVAL;
}

/* Buffers of one generic command: the values and what arrays point to. */
struct vtrace_emit_buf {
	struct vtrace_emit_value values[VTRACE_EMIT_MAX_FIELDS];
	u32 u32s[VTRACE_EMIT_MAX_ELEMS];
	u64 u64s[VTRACE_EMIT_MAX_ELEMS];
	struct cpumask cpus;
};

static const struct vtrace_event_desc *vtrace_event_lookup(const char *name)
{
	const char *slash = strchr(name, '/');
	unsigned int i;

	for (i = 0; i < vtrace_nr_events; i++) {
		const struct vtrace_event_desc *ev = &vtrace_events[i];

		if (!slash && !strcmp(ev->name, name))
			return ev;
		if (slash && !strcmp(ev->name, slash + 1) &&
		    strlen(ev->system) == slash - name &&
		    !strncmp(ev->system, name, slash - name))
			return ev;
	}
	return NULL;
}

static int vtrace_field_index(const struct vtrace_event_desc *ev,
			      const char *name)
{
	unsigned int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return i;
	return -1;
}

/* An integer of @size bytes, signed or not, in C notation. */
static int vtrace_parse_num(const char *word, unsigned int size,
			    bool is_signed, u64 *val)
{
	unsigned int bits = size * BITS_PER_BYTE;
	s64 sval;

	if (!is_signed) {
		if (kstrtou64(word, 0, val))
			return -EINVAL;
		return bits < 64 && *val >> bits ? -EINVAL : 0;
	}
	if (kstrtos64(word, 0, &sval))
		return -EINVAL;
	if (bits < 64 && (sval < -(1LL << (bits - 1)) ||
			  sval > (1LL << (bits - 1)) - 1))
		return -EINVAL;
	*val = sval;
	return 0;
}

/* Splits "a,b,c" in place; returns the number of elements or -EINVAL. */
static int vtrace_split_list(char *list, char **elems, unsigned int max)
{
	unsigned int n = 0;
	char *elem;

	while ((elem = strsep(&list, ","))) {
		if (!*elem || n == max)
			return -EINVAL;
		elems[n++] = elem;
	}
	return n;
}

static int vtrace_parse_array(const struct vtrace_event_field *fld,
			      char *word, struct vtrace_emit_value *val,
			      struct vtrace_emit_buf *buf)
{
	char *elems[VTRACE_EMIT_MAX_ELEMS];
	unsigned int max = fld->kind == VTRACE_FIELD_CPUS ?
			   VTRACE_EMIT_MAX_ELEMS : fld->len;
	u64 num;
	int n, i;

	n = vtrace_split_list(word, elems, max);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (fld->kind == VTRACE_FIELD_CPUS) {
			if (vtrace_parse_num(elems[i], sizeof(u32), false,
					     &num) ||
			    num >= nr_cpu_ids || !cpu_possible(num))
				return -EINVAL;
			cpumask_set_cpu(num, &buf->cpus);
		} else if (vtrace_parse_num(elems[i], fld->size, false,
					    &num)) {
			return -EINVAL;
		} else if (fld->kind == VTRACE_FIELD_U32S) {
			buf->u32s[i] = num;
		} else {
			buf->u64s[i] = num;
		}
	}
	val->count = n;
	return 0;
}

static int vtrace_parse_value(const struct vtrace_event_field *fld,
			      char *word, struct vtrace_emit_value *val,
			      struct vtrace_emit_buf *buf)
{
	switch (fld->kind) {
	case VTRACE_FIELD_UINT:
	case VTRACE_FIELD_LEN:
		return vtrace_parse_num(word, fld->size, false, &val->num);
	case VTRACE_FIELD_SINT:
		return vtrace_parse_num(word, fld->size, true, &val->num);
	case VTRACE_FIELD_BOOL:
		if (strcmp(word, "0") && strcmp(word, "1"))
			return -EINVAL;
		val->num = word[0] == '1';
		return 0;
	case VTRACE_FIELD_STR:
		if (!vtrace_token_valid(word))
			return -EINVAL;
		val->str = word;
		return 0;
	default:
		return vtrace_parse_array(fld, word, val, buf);
	}
}

/* Points every value at its default: zero, "", an empty array. */
static void vtrace_emit_defaults(const struct vtrace_event_desc *ev,
				 struct vtrace_emit_buf *buf)
{
	unsigned int i;

	for (i = 0; i < ev->nr_fields; i++) {
		struct vtrace_emit_value *val = &buf->values[i];

		val->str = "";
		switch (ev->fields[i].kind) {
		case VTRACE_FIELD_U32S:
			val->ptr = buf->u32s;
			break;
		case VTRACE_FIELD_U64S:
			val->ptr = buf->u64s;
			break;
		case VTRACE_FIELD_CPUS:
			val->ptr = &buf->cpus;
			break;
		default:
			break;
		}
	}
}

/* Each count field is its array's count; a named one must say so. */
static int vtrace_emit_counts(const struct vtrace_event_desc *ev,
			      struct vtrace_emit_buf *buf, const bool *named)
{
	unsigned int i;
	int array;

	for (i = 0; i < ev->nr_fields; i++) {
		if (ev->fields[i].kind != VTRACE_FIELD_LEN)
			continue;
		array = vtrace_field_index(ev, ev->fields[i].of);
		if (array < 0)
			return -EINVAL;
		if (named[i] && buf->values[i].num != buf->values[array].count)
			return -EINVAL;
		buf->values[i].num = buf->values[array].count;
	}
	return 0;
}

/* EVENT FIELD=VALUE...: @words[1..nr_words - 1] are the assignments. */
static int vtrace_emit_generic(const struct vtrace_event_desc *ev,
			       char **words, int nr_words)
{
	bool named[VTRACE_EMIT_MAX_FIELDS] = { };
	struct vtrace_emit_buf *buf;
	char *value;
	int i, idx;
	int ret = 0;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	vtrace_emit_defaults(ev, buf);

	for (i = 1; i < nr_words && !ret; i++) {
		value = strchr(words[i], '=');
		if (!value) {
			ret = -EINVAL;
			break;
		}
		*value++ = '\0';
		idx = vtrace_field_index(ev, words[i]);
		if (idx < 0 || named[idx]) {
			ret = -EINVAL;
			break;
		}
		named[idx] = true;
		ret = vtrace_parse_value(&ev->fields[idx], value,
					 &buf->values[idx], buf);
	}
	if (!ret)
		ret = vtrace_emit_counts(ev, buf, named);
	if (!ret)
		ev->emit(ev, buf->values);
	kfree(buf);
	return ret;
}

static int vtrace_emit_line(char *line)
{
	char *words[VTRACE_EMIT_MAX_WORDS];
	union vtrace_arg args[VTRACE_EMIT_MAX_ARGS];
	const struct vtrace_event_desc *ev;
	const struct vtrace_emit_cmd *cmd;
	unsigned int i;
	int nr_words;
	int ret;

	nr_words = vtrace_split_words(line, words, ARRAY_SIZE(words));
	if (nr_words < 0)
		return nr_words;

	/* A positional form, when the event has one and no word has '='. */
	cmd = vtrace_emit_lookup(words[0]);
	if (cmd && (nr_words == 1 || !strchr(words[1], '='))) {
		if (nr_words != 1 + cmd->nr_args)
			return -EINVAL;
		for (i = 0; i < cmd->nr_args; i++) {
			ret = vtrace_arg_parsers[cmd->arg_types[i]](words[1 + i],
								    &args[i]);
			if (ret)
				return ret;
		}
		cmd->emit(args);
		return 0;
	}

	ev = vtrace_event_lookup(words[0]);
	if (!ev)
		return -EINVAL;
	return vtrace_emit_generic(ev, words, nr_words);
}

static ssize_t vtrace_emit_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	/* The command, its optional newline and a terminating NUL. */
	char line[VTRACE_EMIT_MAX_LEN + 2];
	size_t len = count;
	int ret;

	if (*ppos || !count || count > VTRACE_EMIT_MAX_LEN + 1)
		return -EINVAL;
	if (copy_from_user(line, ubuf, count))
		return -EFAULT;
	if (line[len - 1] == '\n')
		len--;
	if (len > VTRACE_EMIT_MAX_LEN || memchr(line, '\0', len))
		return -EINVAL;
	line[len] = '\0';

	vtrace_dbg_str(VTRACE_DBG_CONTROL, line);
	ret = vtrace_emit_line(line);
	vtrace_dbg(VTRACE_DBG_CONTROL, "vtrace: emit returns %d\n", ret);
	return ret ? ret : count;
}

static const struct file_operations vtrace_emit_fops = {
	.owner	= THIS_MODULE,
	.write	= vtrace_emit_write,
	.llseek	= noop_llseek,
};

void vtrace_emit_init(struct dentry *root)
{
	debugfs_create_file("emit", 0200, root, NULL, &vtrace_emit_fops);
}
