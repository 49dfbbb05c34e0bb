#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CLI on hostile inputs (issue 15): each case must end (a timeout is a hang), with status 0 or
# 1 and the expected message; `report --json` must be valid UTF-8 JSON (python3's strict decoder
# and json module check it). Inputs are built in a fresh temp folder.
# Usage: cli_hostile_inputs.sh NPUSCOPE_BINARY SHARED_DIR
set -uo pipefail
bin="$1"
shared="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "${tmp}"' EXIT
export QT_QPA_PLATFORM=offscreen
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# expect STATUS TEXT ARGS...: runs npuscope ARGS with a 60 s limit; checks the status and that
# TEXT occurs in stdout+stderr.
expect() {
  local want="$1" text="$2" status=0
  shift 2
  timeout 60 "${bin}" "$@" >"${tmp}/out" 2>"${tmp}/err" || status=$?
  if [ "${status}" != "${want}" ]; then fail "npuscope $* exited ${status}, expected ${want}: $(head -c 400 "${tmp}/err")"; return; fi
  if ! grep -qF -- "${text}" "${tmp}/out" "${tmp}/err"; then fail "npuscope $*: no '${text}' in: $(head -c 400 "${tmp}/err")"; fi
}
valid_json() {
  python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8","strict"))' "${tmp}/out" ||
    fail "npuscope $*: report --json is not valid UTF-8 JSON"
}
event='[{"ph":"X","name":"op","pid":1,"tid":1,"ts":1000,"dur":10}]'

# A FIFO named trace_view.json: no hang, named as a FIFO.
mkdir -p "${tmp}/fifo/a_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkfifo "${tmp}/fifo/a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
expect 1 "trace_view.json is a FIFO (named pipe), not a file" report "${tmp}/fifo"
expect 1 "is a FIFO (named pipe), not a file" report "${tmp}/fifo/a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"

# Symlink loops and dangling links beside a good rank folder.
mkdir -p "${tmp}/links/a_ascend_pt/ASCEND_PROFILER_OUTPUT"
printf '%s' "${event}" >"${tmp}/links/a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
ln -s loop "${tmp}/links/loop"
ln -s PROF_1 "${tmp}/links/a_ascend_pt/PROF_1"
ln -s nowhere "${tmp}/links/dangling"
expect 0 "1 slice" report "${tmp}/links"
expect 1 "symbolic link loop" report "${tmp}/links/loop"

# A file name that is not valid UTF-8 (Latin-1 e-acute): opened byte for byte, JSON valid.
mkdir -p "${tmp}/names"
printf '%s' "${event}" >"${tmp}/names/caf"$'\xe9'".json"
expect 0 "slices" report "${tmp}/names/caf"$'\xe9'".json"
expect 0 '"ranks"' report --json "${tmp}/names/caf"$'\xe9'".json"
valid_json "report --json (Latin-1 name)"

# Case 19: invalid UTF-8 and control characters inside the trace.
expect 0 '"ranks"' report --json "${shared}/cases/19-invalid-utf8-control-chars"
valid_json "report --json case 19"

# A folder where a trace file was expected.
mkdir -p "${tmp}/dir/trace_view.json"
expect 1 "no profiling data found" report "${tmp}/dir"

if [ "${failures}" -gt 0 ]; then
  echo "cli_hostile_inputs: ${failures} failure(s)" >&2
  exit 1
fi
echo "cli_hostile_inputs: all cases passed"
