#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs two npuscope binaries over every corpus capture and every case of ../shared and compares
# their `report --json` and `stats --csv` (every layer) byte for byte. For refactors that must not
# change behaviour: build the old commit and the new one, then
#   scripts/compare_outputs.sh OLD_BINARY NEW_BINARY [SHARED_DIR]
# Prints one line per difference and a closing "N passed, N failed" line; exits 1 on any difference.
set -uo pipefail
old="$1"; new="$2"
shared="${3:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../shared" && pwd)}"
layers=(kernels cann python communication overlap)
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
run() {  # run BIN OUT ARGS...: stdout and exit code, stderr dropped (it holds timings)
  local bin="$1" out="$2"; shift 2
  "$bin" "$@" >"$out" 2>/dev/null; echo "exit $?" >>"$out"
}
inputs=()
for d in "$shared"/corpus/*/ "$shared"/cases/*/; do inputs+=("${d%/}"); done
for p in "${inputs[@]}"; do
  cmds=("report $p --json")
  for l in "${layers[@]}"; do cmds+=("stats $p --csv --layer $l"); done
  for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    run "$old" "$tmp/a" $c; run "$new" "$tmp/b" $c
    if cmp -s "$tmp/a" "$tmp/b"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "DIFF: $c"; fi
  done
done
echo "compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
