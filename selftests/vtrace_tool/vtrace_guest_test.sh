#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The vtrace helper with vtrace.ko's vendor events (the rig's guests load the
# module before the tests): the seed's category file maps gfx and thermal_tj
# onto exactly the module's Mali and Exynos thermal events. SKIPs where the
# events do not exist (the host, or a guest without the module).

. "$(dirname "$0")/vtrace_test_lib.sh"

I=vtrace_guest_$$
SEED="$DATA/seed_categories.txt"
MALI="mali/gpu_power_state
mali/mali_pm_status"
THERMAL="thermal_exynos/thermal_cpu_pressure
thermal_exynos/thermal_exynos_arm_update"

cleanup()
{
	if [ -d "$TRACEFS/instances/$I" ]; then
		echo 0 >"$TRACEFS/instances/$I/events/enable"
		rmdir "$TRACEFS/instances/$I"
	fi
	vt_cleanup_tmp
}
trap cleanup EXIT

ktap_print_header
vt_require_root
if [ ! -d "$TRACEFS/events/mali" ] || [ ! -d "$TRACEFS/events/thermal_exynos" ]; then
	ktap_skip_all "no mali/thermal_exynos events (vtrace.ko not loaded)"
	exit "$KSFT_SKIP"
fi
if [ ! -x "$VTRACE" ]; then
	ktap_skip_all "helper not built: $VTRACE"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 13

vt_run categories -f "$SEED" --json
[ "$rc" = 0 ] && [ "$out" = '{"categories":[{"name":"gfx","events":[{"event":"mali/gpu_power_state","present":true,"enabled":false},{"event":"mali/mali_pm_status","present":true,"enabled":false}]},{"name":"thermal_tj","events":[{"event":"thermal_exynos/thermal_cpu_pressure","present":true,"enabled":false},{"event":"thermal_exynos/thermal_exynos_arm_update","present":true,"enabled":false}]}],"diagnostics":[]}' ]
vt_result categories_shows_module_events_present_and_off $?

# A Pixel 6's vendor categories (all 65 reference events): none missing.
examples="$here/../../examples"
[ -d "$examples" ] || examples="$here/../../tools/vtrace/examples"
vt_run categories -f "$examples/pixel6-vendor.txt" --json
[ "$rc" = 0 ] &&
	[ "$(printf '%s' "$out" | grep -o '"present":true' | wc -l)" = 65 ] &&
	! contains "$out" '"present":false'
vt_result categories_pixel6_vendor_file_has_all_65_events $?

vt_run enable --instance "$I" -f "$SEED" gfx
[ "$rc" = 0 ] && [ "$(enabled_events "$TRACEFS/instances/$I")" = "$MALI" ] &&
	contains "$out" "enabled 2 event(s) in instance $I; 0 already enabled, 0 skipped"
vt_result enable_gfx_turns_on_exactly_the_two_mali_events $?

[ "$(event_state "$TRACEFS" mali/gpu_power_state)" = 0 ] &&
	[ "$(event_state "$TRACEFS" mali/mali_pm_status)" = 0 ]
vt_result enable_in_instance_leaves_top_level_off $?

vt_run status --instance "$I" -f "$SEED" --json
[ "$rc" = 0 ] && contains "$out" '"categories":[{"name":"gfx","events":[{"event":"mali/gpu_power_state","present":true,"enabled":true},{"event":"mali/mali_pm_status","present":true,"enabled":true}]}],"uncategorized":[]'
vt_result status_groups_mali_events_under_gfx $?

vt_run enable --instance "$I" -f "$SEED" thermal_tj
[ "$rc" = 0 ] && [ "$(enabled_events "$TRACEFS/instances/$I")" = "$MALI
$THERMAL" ]
vt_result enable_thermal_tj_adds_exactly_the_thermal_events $?

vt_run disable --instance "$I" -f "$SEED" gfx
[ "$rc" = 0 ] && [ "$(enabled_events "$TRACEFS/instances/$I")" = "$THERMAL" ]
vt_result disable_gfx_leaves_thermal_on $?

# A category of the file only: gfx would also bring the standard gfx
# category's events (mali/* among them), as atrace merges the two.
printf 'partial\n mali/gpu_power_state\n mali/no_such_mali_event\n' >"$VT_TMP/partial.txt"
vt_run enable --instance "$I" -f "$VT_TMP/partial.txt" partial
[ "$rc" = 0 ] &&
	contains "$err" "mali/no_such_mali_event (category partial) is not on this kernel: skipped" &&
	[ "$(enabled_events "$TRACEFS/instances/$I")" = "mali/gpu_power_state
$THERMAL" ]
vt_result missing_event_is_skipped_and_the_rest_enabled $?

vt_run disable --all --instance "$I"
[ "$rc" = 0 ] && [ ! -d "$TRACEFS/instances/$I" ]
vt_result disable_all_removes_the_instance $?

# The default state directory (the rig's initramfs has no /run).
unset VTRACE_STATE_DIR
vt_run enable --instance "$I" -f "$SEED" gfx
created_rc=$rc created_err=$err
vt_run disable --all --instance "$I"
export VTRACE_STATE_DIR="$VT_TMP/state"
[ "$created_rc" = 0 ] && [ -z "$created_err" ] && [ "$rc" = 0 ] &&
	[ ! -d "$TRACEFS/instances/$I" ] && contains "$out" "removed instance $I"
vt_result default_state_dir_lets_disable_all_remove_the_instance $?

# The top level buffer, as a board's atrace would use it; restored after.
vt_run enable -f "$SEED" gfx
[ "$rc" = 0 ] && [ "$(event_state "$TRACEFS" mali/gpu_power_state)" = 1 ] &&
	[ "$(event_state "$TRACEFS" mali/mali_pm_status)" = 1 ] &&
	[ "$(event_state "$TRACEFS" thermal_exynos/thermal_cpu_pressure)" = 0 ]
vt_result enable_gfx_in_top_level_buffer $?

export VTRACE_CATEGORIES="$SEED"
vt_run disable gfx
unset VTRACE_CATEGORIES
[ "$rc" = 0 ] && [ "$(event_state "$TRACEFS" mali/gpu_power_state)" = 0 ] &&
	[ "$(event_state "$TRACEFS" mali/mali_pm_status)" = 0 ]
vt_result disable_gfx_with_categories_from_environment $?

# function_graph (the guests' kernels have it; the host refuses it):
# slices_markers' write(2)s traced as ksys_write > vfs_write while vtrace
# record records, the file left for check_guest_artifacts.sh, which reads
# the kernel slices back on the host. /proc/kallsyms is cut to the two
# functions (in a mount namespace) to keep the file small.
FG_FILTER="ksys_write vfs_write"
fgraph_record()
{
	grep -qw function_graph "$TRACEFS/available_tracers" || return 1
	# Each with the symbol after it, which bounds it for the reader.
	grep -A1 -E ' [tT] (ksys_write|vfs_write)$' /proc/kallsyms |
		grep -v '^--$' >"$VT_TMP/ksyms"
	[ "$(grep -cE ' (ksys_write|vfs_write)$' "$VT_TMP/ksyms")" = 2 ] ||
		return 1
	echo "$FG_FILTER" >"$TRACEFS/set_ftrace_filter" || return 1
	echo function_graph >"$TRACEFS/current_tracer" || return 1
	unshare -m sh -c 'mount --bind "$1" /proc/kallsyms && exec "$2" record \
		-e sched/sched_switch -o "$3" --background' sh "$VT_TMP/ksyms" \
		"$VTRACE" "$VT_TMP/fgraph.dat" >"$VT_TMP/bgpid" 2>"$VT_TMP/err" ||
		return 1
	until grep -qx sched:sched_switch "$TRACEFS/set_event" &&
	      [ "$(cat "$TRACEFS/tracing_on")" = 1 ]; do
		kill -0 "$(cat "$VT_TMP/bgpid")" 2>/dev/null || return 1
		sleep 0.05
	done
	"$(dirname "$0")/slices_markers" "$TRACEFS/trace_marker" >"$VT_TMP/ids" ||
		return 1
	"$VTRACE" stop >/dev/null 2>>"$VT_TMP/err"
}
fg_tracer=$(cat "$TRACEFS/current_tracer")
fgraph_record
fg_rc=$?
echo "$fg_tracer" >"$TRACEFS/current_tracer"
echo >"$TRACEFS/set_ftrace_filter"
if [ "$fg_rc" = 0 ] && [ -n "$VTRACE_OUT" ]; then
	gzip -c "$VT_TMP/fgraph.dat" >"$VTRACE_OUT/fgraph.dat.gz"
	{ sed "s/ /: /" "$VT_TMP/ids"; echo "filter: $FG_FILTER"; } \
		>"$VTRACE_OUT/fgraph.expect"
fi
[ "$fg_rc" = 0 ] && [ "$(cat "$TRACEFS/current_tracer")" = "$fg_tracer" ] &&
	grep -q '^#### all functions enabled ####' "$TRACEFS/set_ftrace_filter"
vt_result function_graph_recorded_for_the_host $?

ktap_finished
