// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs "emit": emits one vendor event per write(2), for example
 *
 *	echo "gpu_power_state OFF GLOBAL" > /sys/kernel/debug/vtrace/emit
 *
 * A command is a line of blank-separated words: the event name, then its
 * arguments.  Each event is described by an entry of vtrace_emit_cmds[],
 * which lists the type of every argument.  The whole command is parsed into
 * values on the writer's stack before the event is emitted, so a bad
 * command emits nothing and concurrent writers share no state.
 */
#include <linux/ctype.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <trace/events/mali.h>
#include <trace/events/thermal_exynos.h>

#include "debug.h"
#include "vtrace.h"

#define VTRACE_EMIT_MAX_ARGS	6

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

/**
 * vtrace_tmu_name_valid() - check a thermal zone name for tmu_name
 * @name: the name
 *
 * Return: true for 1..VTRACE_TMU_NAME_MAX_LEN characters of [A-Za-z0-9_-].
 */
bool vtrace_tmu_name_valid(const char *name)
{
	size_t len = strlen(name);
	size_t i;

	if (!len || len > VTRACE_TMU_NAME_MAX_LEN)
		return false;
	/* isascii() first: the kernel's isalnum() accepts Latin-1 letters. */
	for (i = 0; i < len; i++)
		if (!isascii(name[i]) ||
		    (!isalnum(name[i]) && name[i] != '_' && name[i] != '-'))
			return false;
	return true;
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

static int vtrace_emit_line(char *line)
{
	char *words[1 + VTRACE_EMIT_MAX_ARGS];
	union vtrace_arg args[VTRACE_EMIT_MAX_ARGS];
	const struct vtrace_emit_cmd *cmd;
	unsigned int i;
	int nr_words;
	int ret;

	nr_words = vtrace_split_words(line, words, ARRAY_SIZE(words));
	if (nr_words < 0)
		return nr_words;

	cmd = vtrace_emit_lookup(words[0]);
	if (!cmd || nr_words != 1 + cmd->nr_args)
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
