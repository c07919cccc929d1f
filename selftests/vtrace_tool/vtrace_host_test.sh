#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The vtrace helper on this kernel's tracefs, with built-in events
# (sched/sched_switch, sched/sched_wakeup): check, categories, enable,
# disable and status, in tracefs instances of its own so that nothing else
# is disturbed; everything it creates is removed at the end. Runs on the host
# and in the guests. Needs root.

. "$(dirname "$0")/vtrace_test_lib.sh"

A=vtrace_selftest_a_$$
B=vtrace_selftest_b_$$
C=vtrace_selftest_c_$$
F=vtrace_selftest_foreign_$$
SCHED="$VT_TMP/sched.txt"

cleanup()
{
	for i in $A $B $C $F; do
		[ -d "$TRACEFS/instances/$i" ] || continue
		echo 0 >"$TRACEFS/instances/$i/events/enable"
		rmdir "$TRACEFS/instances/$i"
	done
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
if [ ! -d "$TRACEFS/events/sched/sched_switch" ]; then
	ktap_skip_all "no tracefs with sched events at $TRACEFS"
	exit "$KSFT_SKIP"
fi
if [ ! -x "$VTRACE" ]; then
	ktap_skip_all "helper not built: $VTRACE"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 37

printf 'sched_cat\n sched/sched_switch\n sched/sched_wakeup\n' >"$SCHED"
printf 'gfx\n mali/gpu_power_state\n mali/../tracing_on\n' >"$VT_TMP/bad.txt"

# --help and usage.
vt_run --help
ok=0
for c in check categories enable disable status; do
	contains "$out" "  $c " || ok=1
done
[ "$rc" = 0 ] && [ "$ok" = 0 ]
vt_result help_lists_every_command $?

ok=0
for c in check categories enable disable status; do
	vt_run "$c" --help
	[ "$rc" = 0 ] && contains "$out" "usage: vtrace $c" || ok=1
done
[ "$ok" = 0 ]
vt_result every_command_has_help $?

# A command that takes no operands refuses one with the same message.
ok=0
for c in categories config record sessions status; do
	vt_run "$c" extra-arg
	[ "$rc" = 2 ] && [ "$(head -n 1 "$VT_TMP/err")" = \
		"vtrace: error: $c: unexpected argument 'extra-arg'" ] || ok=1
done
vt_result operand_refused_alike_by_every_command $ok

vt_run frobnicate
[ "$rc" = 2 ] && contains "$err" "unknown command 'frobnicate'"
vt_result unknown_command_exits_2 $?

# check: lint only.
vt_run check --json "$DATA/seed_categories.txt"
[ "$rc" = 0 ] && [ "$out" = '{"categories":[{"name":"gfx","events":["mali/gpu_power_state","mali/mali_pm_status"]},{"name":"thermal_tj","events":["thermal_exynos/thermal_cpu_pressure","thermal_exynos/thermal_exynos_arm_update"]}],"diagnostics":[]}' ]
vt_result check_json_of_seed_file_is_exact $?

vt_run check "$VT_TMP/bad.txt"
[ "$rc" = 1 ] && contains "$err" "$VT_TMP/bad.txt:3:9: error: extra '/' after the event name"
vt_result check_error_exits_1_with_file_line_column $?

vt_run check "$VT_TMP/bad.txt" "$VT_TMP/nonexistent.txt"
[ "$rc" = 2 ] && contains "$err" "$VT_TMP/nonexistent.txt: error: cannot read: No such file or directory"
vt_result check_unreadable_file_exits_2 $?

head -c 512 "$VTRACE" >"$VT_TMP/binary.txt"
vt_run check "$VT_TMP/binary.txt"
[ "$rc" = 1 ] && contains "$err" "not a text file"
vt_result check_binary_file_exits_1 $?

dd if=/dev/zero of="$VT_TMP/huge.txt" bs=1 count=0 seek=104857600 2>/dev/null
vt_run check "$VT_TMP/huge.txt"
[ "$rc" = 1 ] && contains "$err" "$VT_TMP/huge.txt: error: file too large (104857600 bytes"
vt_result check_100mb_file_exits_1 $?

{ printf 'gfx\n a/b\n '; head -c 1048576 /dev/zero | tr '\0' x; echo; } >"$VT_TMP/longline.txt"
vt_run check "$VT_TMP/longline.txt"
[ "$rc" = 1 ] && contains "$err" "$VT_TMP/longline.txt:3:4097: error: line longer than 4096 bytes"
vt_result check_1mb_line_exits_1 $?

printf 'gfx\r\n mali/gpu_power_state\r\n mali/gpu_power_state\r\n' >"$VT_TMP/warn.txt"
vt_run check --json "$VT_TMP/warn.txt"
[ "$rc" = 0 ] && contains "$out" '"events":["mali/gpu_power_state"]' &&
	contains "$out" '"line":3,"column":2,"severity":"warning"'
vt_result check_warnings_only_exits_0 $?

# The example files "make install" ships are clean.
examples="$here/examples"
[ -d "$examples" ] || examples="$here/../../tools/vtrace/examples"
vt_run check "$examples"/exynos-mali.txt
seed_ok=$rc
vt_run check "$examples"/exynos-mali-power.txt
[ "$seed_ok" = 0 ] && [ "$rc" = 0 ] && [ -z "$err" ] &&
	cmp -s "$examples/exynos-mali.txt" "$DATA/seed_categories.txt"
vt_result shipped_examples_are_clean_and_hold_the_seed_categories $?

# enable in a new instance, leaving the top level alone.
top_before=$(event_state "$TRACEFS" sched/sched_switch)
vt_run enable --instance "$A" sched/sched_switch
[ "$rc" = 0 ] &&
	[ "$(event_state "$TRACEFS/instances/$A" sched/sched_switch)" = 1 ] &&
	[ "$(event_state "$TRACEFS" sched/sched_switch)" = "$top_before" ] &&
	[ "$(enabled_events "$TRACEFS/instances/$A")" = sched/sched_switch ]
vt_result enable_event_creates_instance_and_enables_only_there $?

vt_run enable --instance "$A" sched/sched_switch
[ "$rc" = 0 ] && contains "$out" "enabled 0 event(s) in instance $A; 1 already enabled"
vt_result enable_again_reports_already_enabled $?

clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$TRACEFS/instances/$A/trace_clock")
vt_run status --instance "$A" -f "$SCHED" --json
[ "$rc" = 0 ] &&
	contains "$out" '"categories":[{"name":"sched_cat","events":[{"event":"sched/sched_switch","present":true,"enabled":true}]}],"uncategorized":[]' &&
	contains "$out" "\"instance\":\"$A\"" && contains "$out" "\"clock\":\"$clock\""
vt_result status_json_groups_enabled_events_by_category $?

vt_run status --instance "$A"
[ "$rc" = 0 ] && contains "$out" "(uncategorized)
  sched/sched_switch"
vt_result status_text_lists_uncategorized_events $?

vt_run categories --instance "$A" -f "$SCHED" -f "$DATA/seed_categories.txt" --json
[ "$rc" = 0 ] &&
	contains "$out" '{"name":"sched_cat","events":[{"event":"sched/sched_switch","present":true,"enabled":true},{"event":"sched/sched_wakeup","present":true,"enabled":false}]}'
vt_result categories_json_marks_presence_and_state $?

# What is not on this kernel is skipped and said so.
if [ -d "$TRACEFS/events/mali" ]; then
	ktap_test_skip "enable_category_of_missing_events_skips_them (mali events present)"
else
	vt_run enable --instance "$A" -f "$DATA/seed_categories.txt" gfx
	[ "$rc" = 0 ] &&
		contains "$err" "mali/gpu_power_state (category gfx) is not on this kernel: skipped" &&
		contains "$err" "mali/mali_pm_status (category gfx) is not on this kernel: skipped" &&
		contains "$out" "enabled 0 event(s) in instance $A; 0 already enabled, 2 skipped"
	vt_result enable_category_of_missing_events_skips_them $?
fi

vt_run enable --instance "$A" nosuchgroup/nosuchevent
[ "$rc" = 0 ] && contains "$err" "nosuchgroup/nosuchevent is not on this kernel: skipped"
vt_result enable_missing_event_skips_it $?

# Bad input: nothing enabled, no instance left behind.
vt_run enable --instance "$B" -f "$VT_TMP/bad.txt" -f "$SCHED" sched_cat
[ "$rc" = 1 ] && [ ! -d "$TRACEFS/instances/$B" ] && contains "$err" "nothing was changed"
vt_result enable_with_bad_file_enables_nothing $?

vt_run enable --instance "$B" -f "$SCHED" sched_cat no_such_category
[ "$rc" = 1 ] && [ ! -d "$TRACEFS/instances/$B" ] &&
	contains "$err" "unknown category 'no_such_category'"
vt_result enable_unknown_category_enables_nothing $?

vt_run enable --instance "$B" sched/sched_switch sched/../../tracing_on
[ "$rc" = 1 ] && [ ! -d "$TRACEFS/instances/$B" ] && contains "$err" "extra '/'"
vt_result enable_bad_event_name_enables_nothing $?

vt_run enable --instance "../x" sched/sched_switch
[ "$rc" = 2 ] && contains "$err" "bad instance name"
vt_result bad_instance_name_exits_2 $?

# All or nothing: a write that fails rolls back what this command enabled.
# The failure is real: sched_wakeup's enable file is covered by a read-only
# bind mount in a private mount namespace.
if unshare -m true 2>/dev/null; then
	echo 0 >"$VT_TMP/ro_enable"
	ro="$TRACEFS/instances/$A/events/sched/sched_wakeup/enable"
	echo 0 >"$TRACEFS/instances/$A/events/sched/sched_switch/enable"
	unshare -m sh -c "mount -o bind '$VT_TMP/ro_enable' '$ro' &&
		mount -o remount,bind,ro '$ro' &&
		exec '$VTRACE' enable --instance '$A' -f '$SCHED' sched_cat" \
		>"$VT_TMP/out" 2>"$VT_TMP/err"
	rc=$?
	err=$(cat "$VT_TMP/err")
	[ "$rc" = 1 ] &&
		contains "$err" "cannot enable sched/sched_wakeup in instance $A: Read-only file system; nothing was changed" &&
		[ "$(event_state "$TRACEFS/instances/$A" sched/sched_switch)" = 0 ]
	vt_result enable_failure_rolls_back_and_names_event $?

	# A failed enable in an instance it has just created removes it again.
	unshare -m sh -c "mkdir '$VT_TMP/fake_instances' &&
		mount -o bind '$VT_TMP/fake_instances' '$TRACEFS/instances' &&
		mount -o remount,bind,ro '$TRACEFS/instances' &&
		exec '$VTRACE' enable --instance '$C' sched/sched_switch" \
		>"$VT_TMP/out" 2>"$VT_TMP/err"
	rc=$?
	[ "$rc" = 1 ] && [ ! -d "$TRACEFS/instances/$C" ] &&
		contains "$(cat "$VT_TMP/err")" "cannot open tracefs instance '$C'"
	vt_result instance_that_cannot_be_created_is_reported $?
else
	ktap_test_skip "enable_failure_rolls_back_and_names_event (no unshare -m)"
	ktap_test_skip "instance_that_cannot_be_created_is_reported (no unshare -m)"
fi

# Instances do not see each other's events.
vt_run enable --instance "$A" sched/sched_switch
vt_run enable --instance "$B" sched/sched_wakeup
[ "$rc" = 0 ] &&
	[ "$(enabled_events "$TRACEFS/instances/$A")" = sched/sched_switch ] &&
	[ "$(enabled_events "$TRACEFS/instances/$B")" = sched/sched_wakeup ]
vt_result instances_are_independent $?

vt_run disable --instance "$A" -f "$SCHED" sched_cat
[ "$rc" = 0 ] && [ -z "$(enabled_events "$TRACEFS/instances/$A")" ] &&
	contains "$out" "disabled 1 event(s) in instance $A; 1 already disabled"
vt_result disable_category_turns_its_events_off $?

vt_run disable --all --instance "$B"
[ "$rc" = 0 ] && [ ! -d "$TRACEFS/instances/$B" ] && contains "$out" "removed instance $B"
vt_result disable_all_removes_instance_vtrace_created $?

mkdir "$TRACEFS/instances/$F"
echo 1 >"$TRACEFS/instances/$F/events/sched/sched_switch/enable"
vt_run disable --all --instance "$F"
[ "$rc" = 0 ] && [ -d "$TRACEFS/instances/$F" ] && ! contains "$out" "removed" &&
	[ -z "$(enabled_events "$TRACEFS/instances/$F")" ]
vt_result disable_all_keeps_instance_it_did_not_create $?

# Where the creation cannot be noted, enable still works and says what
# disable --all will do.
VTRACE_STATE_DIR=/proc/vtrace_no_such_dir
vt_run enable --instance "$B" sched/sched_switch
created_rc=$rc created_err=$err
vt_run disable --all --instance "$B"
VTRACE_STATE_DIR="$VT_TMP/state"
[ "$created_rc" = 0 ] && [ "$rc" = 0 ] && [ -d "$TRACEFS/instances/$B" ] &&
	contains "$created_err" "cannot note in /proc/vtrace_no_such_dir that vtrace created instance '$B'" &&
	[ -z "$(enabled_events "$TRACEFS/instances/$B")" ] &&
	rmdir "$TRACEFS/instances/$B"
vt_result unrecorded_creation_warns_and_instance_is_kept $?

vt_run status --instance "$B"
[ "$rc" = 1 ] && contains "$err" "no tracefs instance '$B'"
vt_result status_of_missing_instance_exits_1 $?

vt_run disable --instance "$B" sched/sched_switch
[ "$rc" = 1 ] && [ ! -d "$TRACEFS/instances/$B" ]
vt_result disable_does_not_create_instances $?

# tracefs not mounted: vtrace (as root) mounts it. Private namespace only.
# Every tracefs mount goes, debugfs's tracing/ too once it was automounted:
# libtracefs would find that one in /proc/mounts.
if unshare -m true 2>/dev/null; then
	unshare -m sh -c "for m in \$(awk '\$3 == \"tracefs\" { print \$2 }' /proc/mounts | sort -r); do
			umount \"\$m\" || exit 99
		done
		[ -e '$TRACEFS/trace' ] && exit 98
		'$VTRACE' status --instance '$A' || exit \$?
		[ -e '$TRACEFS/trace' ] || exit 97" >"$VT_TMP/out" 2>"$VT_TMP/err"
	rc=$?
	[ "$rc" = 0 ] && contains "$(cat "$VT_TMP/out")" "instance $A: tracing_on"
	vt_result unmounted_tracefs_is_mounted_by_vtrace $?
else
	ktap_test_skip "unmounted_tracefs_is_mounted_by_vtrace (no unshare -m)"
fi

# Without access to tracefs, events must not all look "missing".
if [ "$(stat -c %a "$TRACEFS")" = 700 ] && id nobody >/dev/null 2>&1 &&
	command -v su >/dev/null; then
	mkdir "$VT_TMP/pub"
	chmod 755 "$VT_TMP" "$VT_TMP/pub"
	cp "$VTRACE" "$SCHED" "$VT_TMP/pub/"
	su -s /bin/sh nobody -c "'$VT_TMP/pub/vtrace' categories -f '$VT_TMP/pub/sched.txt'" \
		>"$VT_TMP/out" 2>"$VT_TMP/err"
	rc=$?
	[ "$rc" = 1 ] && [ ! -s "$VT_TMP/out" ] &&
		contains "$(cat "$VT_TMP/err")" "cannot access tracefs at $TRACEFS: Permission denied"
	vt_result tracefs_without_access_is_an_error_not_missing_events $?
else
	ktap_test_skip "tracefs_without_access_is_an_error_not_missing_events (no nobody user or tracefs not 0700)"
fi

# As a user, record says what enable and status say: run as root.
if [ "$(stat -c %a "$TRACEFS")" = 700 ] && id nobody >/dev/null 2>&1 &&
	command -v su >/dev/null; then
	su -s /bin/sh nobody -c "'$VT_TMP/pub/vtrace' record -e sched/sched_switch -t 1 -o '$VT_TMP/pub/u.dat'" \
		>"$VT_TMP/out" 2>"$VT_TMP/err"
	rc=$?
	[ "$rc" = 1 ] &&
		[ "$(cat "$VT_TMP/err")" = "vtrace: error: cannot access tracefs at $TRACEFS: Permission denied (run as root)" ]
	vt_result record_as_a_user_says_run_as_root $?
else
	ktap_test_skip "record_as_a_user_says_run_as_root (no nobody user or tracefs not 0700)"
fi

# A vendor category while vtrace.ko is not loaded: the events are named,
# and so is the module.
if [ ! -d "$TRACEFS/events/thermal_exynos" ]; then
	vt_run record -f "$examples"/exynos-mali.txt -c thermal_tj -t 1 \
		-o "$VT_TMP/none.dat"
	[ "$rc" = 1 ] && [ ! -e "$VT_TMP/none.dat" ] &&
		[ "$err" = "vtrace: error: none of the events asked for exists in this kernel (thermal_exynos/thermal_cpu_pressure, thermal_exynos/thermal_exynos_arm_update); mali/ and thermal_exynos/ are vtrace.ko's: it is not loaded" ]
	vt_result vendor_events_without_the_module_name_it $?
else
	ktap_test_skip "vendor_events_without_the_module_name_it (vtrace.ko is loaded)"
fi

vt_run disable --all --instance "$A"
[ "$rc" = 0 ] && [ ! -d "$TRACEFS/instances/$A" ] && [ ! -d "$TRACEFS/instances/$C" ]
vt_result disable_all_leaves_no_test_instance $?

ktap_finished
