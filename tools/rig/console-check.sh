#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# console-check.sh LABEL CONSOLE_LOG - judge one guest (or host) run.
#
# Counts every KTAP result line of every test the guest ran, and fails the run
# on: a test that never finished (timeout, crash), a missing or short plan, a
# non-zero exit without a failing result, a guest that did not reach the end,
# or a kernel BUG/WARNING/Oops/Call Trace anywhere in the console or dmesg.
#
# With VTRACE_MODULE_SHA256 set, the module the guest loaded must be the
# one of that hash (run-guest.sh's VTRACE_GUEST_MODULE).
#
# Prints one line per test and ends with "N passed, N failed, N skipped".
# Under a failing test, its failed results follow, each after the test's
# diagnostic lines that came before it: the cause, in CI's own output.
# Exit status: 0 when nothing failed.

set -euo pipefail

label=${1:?usage: console-check.sh LABEL CONSOLE_LOG}
log=${2:?usage: console-check.sh LABEL CONSOLE_LOG}

awk -v label="$label" -v want_module="${VTRACE_MODULE_SHA256:-}" '
function finish_test(rc,   bad, why) {
	bad = 0; why = ""
	if (plan < 0) { bad = 1; why = "no KTAP plan" }
	else if (results != plan) { bad = 1; why = "plan 1.." plan " but " results " results" }
	else if (rc != 0 && rc != 4 && t_fail == 0) { bad = 1; why = "exit status " rc }
	else if (rc == 4 && results == 0) { why = "skipped whole" }
	total_pass += t_pass; total_fail += t_fail + bad; total_skip += t_skip
	if (rc == 4 && results == 0) total_skip++
	printf "%s %s %s: %d passed, %d failed, %d skipped%s%s\n", \
		(t_fail + bad) ? "not ok" : "ok", label, test, t_pass, t_fail, t_skip, \
		why != "" ? " (" why ")" : "", secs != "" ? " [" secs " s]" : ""
	printf "%s", t_detail
	test = ""
}
function rig_result(ok, what) {
	if (ok) total_pass++; else total_fail++
	printf "%s %s %s\n", ok ? "ok" : "not ok", label, what
}
BEGIN { test = ""; kernel_bad = ""; done = 0; guest = 0; artifact = 0 }
/### vtrace-guest / { guest++ }
/^### vtrace-test BEGIN / {
	if (test != "") { secs = ""; finish_test(-1) }
	test = $4; plan = -1; results = 0; t_pass = 0; t_fail = 0; t_skip = 0
	t_detail = ""; nr_diag = 0
	next
}
/^### vtrace-test END / {
	rc = $5; sub(/^rc=/, "", rc)
	secs = $6; sub(/^s=/, "", secs)
	finish_test(rc + 0)
	next
}
/^### vtrace-module sha256=/ { module = substr($3, 8) }
/^### vtrace-done/ { done++ }
/^### vtrace-error / { errors = errors substr($0, 17) "; " }
# A file sent back base64-framed may spell "Oops" by chance: its lines
# (nothing but the base64 alphabet) are not from the kernel; a kernel line
# printed in the middle of one still counts.
/^### vtrace-artifact BEGIN / { artifact = 1; next }
/^### vtrace-artifact END/ { artifact = 0; next }
artifact && /^[A-Za-z0-9+\/=]+$/ { next }
/BUG: |WARNING: (CPU|at )|Oops|Call Trace|Kernel panic/ {
	if (kernel_bad == "") kernel_bad = $0
}
test != "" && /^1\.\.[0-9]+/ && plan < 0 { plan = substr($1, 4) + 0 }
# The last few diagnostic lines before a result, kept for a failed one.
test != "" && /^# / {
	diag[nr_diag++ % 6] = $0
	next
}
test != "" && /^(not )?ok [0-9]+/ {
	results++
	if ($1 == "not") {
		for (i = (nr_diag > 6 ? nr_diag - 6 : 0); i < nr_diag; i++)
			t_detail = t_detail "    " diag[i % 6] "\n"
		t_detail = t_detail "    " $0 "\n"
	}
	nr_diag = 0
	if ($1 == "not") t_fail++
	else if ($0 ~ /# (SKIP|skip)/) t_skip++
	else t_pass++
}
END {
	if (test != "") { printf "# %s: %s never finished\n", label, test; secs = ""; finish_test(-1) }
	rig_result(guest, "run started (kernel booted to /init)")
	# A log may hold several boots (run-guest.sh adds the debugfs=off one).
	rig_result(guest && done == guest && errors == "", "run reached its end" \
		(done != guest ? " (" done " of " guest " boots did)" : "") \
		(errors != "" ? " (" errors ")" : ""))
	if (want_module != "")
		rig_result(module == want_module, "the module under test is the one given" \
			" (sha256 " want_module ", loaded " (module != "" ? module : "none") ")")
	rig_result(kernel_bad == "", "kernel log free of BUG/WARNING/Oops/Call Trace" \
		(kernel_bad != "" ? " (first: " kernel_bad ")" : ""))
	printf "%d passed, %d failed, %d skipped\n", total_pass, total_fail, total_skip
	exit total_fail != 0
}
' "$log"
