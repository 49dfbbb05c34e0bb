#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fuzz job (issue 15): builds the libFuzzer targets of fuzz/ with Debian's clang
# (-fsanitize=fuzzer,address,undefined, -fno-sanitize-recover=all; core only, no Qt) into
# build-fuzz, then runs each target for a fixed time on its committed seeds (fuzz/seeds/<target>)
# plus, when present, the inputs of ../shared/cases (and for the database target the smallest
# .db of ../shared/corpus), read at run time and never committed. Any crash, sanitizer finding,
# leak, timeout (-timeout) or memory beyond -rss_limit_mb fails the script; libFuzzer leaves the
# input as crash-* / leak-* / timeout-* / oom-* in the artifacts folder, named in the output.
# Usage: scripts/test_fuzz.sh [target...]      (default: every target)
#   NPUSCOPE_FUZZ_SECONDS    seconds per target (default 45)
#   NPUSCOPE_FUZZ_BUILD_DIR  build folder (default: build-fuzz beside build)
#   NPUSCOPE_FUZZ_WORK       corpus and artifacts folder (default: a temporary folder, removed)
#   NPUSCOPE_FUZZ_MAX_LEN    -max_len for the whole-pipeline text targets (default 65536)
#   NPUSCOPE_FUZZ_NARROW_MAX_LEN  -max_len for the narrow targets (default 4096: an event, a table,
#                            a database's rows or a gzip file fit; more only slows every run)
#   NPUSCOPE_FUZZ_ARGS       more libFuzzer flags (default -entropic=0, see below)
#   NPUSCOPE_FUZZ_ARGS_<target>  libFuzzer flags for that target only, after NPUSCOPE_FUZZ_ARGS
#                            (the last of a flag given twice wins: CI gives fuzz_sqlite_reader,
#                            at about 150 runs per second, fewer -runs than the others)
#   NPUSCOPE_SHARED          the shared data folder (default: ../shared beside the checkout)
#   NPUSCOPE_FUZZ_EXPLORATION_GATES  1 (default): a finding of the fuzzing fails the script; 0:
#                            it is printed (with the input, base64, when small) and kept, and only
#                            the replay fails the script (CI: .ci/run; why: docs/robustness.md)
# Each target first replays every seed once (the committed seeds, among them the inputs of fixed
# findings, fuzz/seeds/<target>/finding-*, and the ../shared ones): a crash there always fails the
# script. Then it fuzzes.
# Reproduce a finding: build-fuzz/fuzz/<target> <crash-file>
set -euo pipefail
# shellcheck source=setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

FUZZ_BUILD_DIR="${NPUSCOPE_FUZZ_BUILD_DIR:-${NPUSCOPE_ROOT}/build-fuzz}"
SHARED="${NPUSCOPE_SHARED:-${NPUSCOPE_ROOT}/../shared}"
SECONDS_PER_TARGET="${NPUSCOPE_FUZZ_SECONDS:-45}"
EXPLORATION_GATES="${NPUSCOPE_FUZZ_EXPLORATION_GATES:-1}"
MAX_LEN="${NPUSCOPE_FUZZ_MAX_LEN:-65536}"
NARROW_MAX_LEN="${NPUSCOPE_FUZZ_NARROW_MAX_LEN:-4096}"
# -entropic=0: clang 14's entropic scheduler spent 65% of fuzz_json_trace's CPU time in its own
# InputCorpus::UpdateFeatureFrequency (perf, ~30k features); without it the same 2,000 runs took
# 6.4 s of CPU instead of 16.7 s and reached as many features (docs/robustness.md, "Speed (e8854b9, 2026-12-01)").
read -r -a EXTRA_ARGS <<<"${NPUSCOPE_FUZZ_ARGS--entropic=0}"
# The whole-pipeline targets (a reader, then the analyses and the report; 6-300 runs per second),
# then the narrow ones (issue 26 item 2: one reader alone each, thousands of runs per second but
# the database reader; docs/robustness.md "Narrow targets").
NARROW_TARGETS=(fuzz_json_scanner fuzz_json_simdjson fuzz_csv_table fuzz_sqlite_reader fuzz_gzip fuzz_summary)
ALL_TARGETS=(fuzz_json_trace fuzz_json_differential fuzz_csv_tables fuzz_folder_discovery fuzz_sqlite_db
  "${NARROW_TARGETS[@]}")
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=("${ALL_TARGETS[@]}")
start=$(date +%s)

# clang and its runtime libraries: NPUSCOPE_FUZZ_PACKAGES (scripts/setup.sh).
npuscope_install_packages "${NPUSCOPE_PACKAGES[@]}" "${NPUSCOPE_FUZZ_PACKAGES[@]}" python3
npuscope_log "Configuring ${FUZZ_BUILD_DIR} (clang, libFuzzer + ASan + UBSan)"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# -O1: the usual libFuzzer trade (fast enough to run, quick to build on 2 cores); line tables for
# the stacks. NPUSCOPE_BUILD_FUZZ builds core and fuzz/ only (the top-level CMakeLists.txt).
cmake -S "${NPUSCOPE_ROOT}" -B "${FUZZ_BUILD_DIR}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" -DNPUSCOPE_BUILD_FUZZ=ON \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang "${launcher[@]}" >/dev/null
npuscope_log "Building ${targets[*]} (-j${NPUSCOPE_JOBS})"
cmake --build "${FUZZ_BUILD_DIR}" --parallel "${NPUSCOPE_JOBS}" --target "${targets[@]}"
built=$(date +%s)

if [ -n "${NPUSCOPE_FUZZ_WORK:-}" ]; then
  work="${NPUSCOPE_FUZZ_WORK}"
  mkdir -p "${work}"
else
  work="$(mktemp -d)"
  trap 'rm -rf "${work}"' EXIT
fi
# Leaks count (detect_leaks=1); SIGBUS is npuscope's own handler (core/base/mapped_file.cpp).
export ASAN_OPTIONS="detect_leaks=1:allow_user_segv_handler=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

# Extra seeds of one target from ../shared (mode byte + file, as the target reads its input), in
# sorted path order so that case-<i> names the same file on every machine (find's order is the
# file system's): with -seed fixed, the same corpus is what makes two runs alike.
shared_seeds() {
  local target="$1" dir="$2" f i=0
  [ -d "${SHARED}/cases" ] || return 0
  case "${target}" in
    fuzz_json_trace | fuzz_json_differential)
      while IFS= read -r -d '' f; do
        i=$((i + 1))
        [ "$(stat -c %s "${f}")" -le "${MAX_LEN}" ] || continue
        # fuzz_json_trace: .gz through the file path (mode 4), the rest from memory.
        case "${f}" in *.gz) mode='\x04' ;; *) mode='\x00' ;; esac
        { printf "${mode}"; cat "${f}"; } >"${dir}/case-${i}"
      done < <(find "${SHARED}/cases" -type f \( -name '*.json' -o -name '*.json.gz' \) ! -name 'communication.json' -print0 | LC_ALL=C sort -z)
      ;;
    fuzz_csv_tables)
      while IFS= read -r -d '' f; do
        i=$((i + 1))
        case "${f}" in
          *step_trace_time*) { printf '\x00\x00'; cat "${f}"; } >"${dir}/case-${i}" ;;
          *communication*.json) { printf '\x00\x00\x00'; cat "${f}"; } >"${dir}/case-${i}" ;;
          *) { printf '\x00'; cat "${f}"; } >"${dir}/case-${i}" ;;
        esac
      done < <(find "${SHARED}/cases" -type f \( -name '*.csv' -o -name 'communication*.json' \) -print0 | LC_ALL=C sort -z)
      ;;
    fuzz_json_scanner | fuzz_json_simdjson)
      # The events as they are (no mode byte); a case larger than the -max_len of the whole
      # targets is left out, as there.
      while IFS= read -r -d '' f; do
        i=$((i + 1))
        [ "$(stat -c %s "${f}")" -le "${MAX_LEN}" ] || continue
        cp "${f}" "${dir}/case-${i}"
      done < <(find "${SHARED}/cases" -type f -name '*.json' ! -name 'communication*.json' -print0 | LC_ALL=C sort -z)
      ;;
    fuzz_csv_table)
      # Byte 0 picks the reader by the file's name (fuzz_csv_table.cpp).
      while IFS= read -r -d '' f; do
        i=$((i + 1))
        case "${f}" in
          *kernel_details* | *op_summary*) mode='\x01' ;;
          *step_trace_time*) mode='\x02' ;;
          *communication*.json) mode='\x03' ;;
          *memory_record*) mode='\x04' ;;
          *operator_memory*) mode='\x05' ;;
          *) mode='\x00' ;;
        esac
        { printf "${mode}"; cat "${f}"; } >"${dir}/case-${i}"
      done < <(find "${SHARED}/cases" -type f \( -name '*.csv' -o -name 'communication*.json' \) -print0 | LC_ALL=C sort -z)
      ;;
    fuzz_sqlite_db)
      [ -d "${SHARED}/corpus" ] || return 0
      f="$(find "${SHARED}/corpus" -name 'ascend_*profiler*.db' -printf '%s %p\n' 2>/dev/null | sort -n | head -n 1 | cut -d' ' -f2-)" || f=""
      if [ -n "${f}" ]; then { printf '\x00'; cat "${f}"; } >"${dir}/corpus-smallest-db"; fi
      ;;
  esac
}

failures=0
findings=0
for target in "${targets[@]}"; do
  seeds="${work}/seeds/${target}"
  corpus="${work}/corpus/${target}"
  artifacts="${work}/artifacts/${target}"
  mkdir -p "${seeds}" "${corpus}" "${artifacts}"
  cp "${NPUSCOPE_ROOT}/fuzz/seeds/${target}/"* "${seeds}/"
  shared_seeds "${target}" "${seeds}"
  # The seeds go in as a list in name order (-seed_inputs=@file, comma-separated), not as a
  # folder: libFuzzer reads a folder in the file system's order and sorts by size only, so seeds
  # of equal size would start in a different order on another machine. New inputs go to the
  # empty corpus folder.
  mapfile -t seed_files < <(find "${seeds}" -type f | LC_ALL=C sort)
  (IFS=,; echo "${seed_files[*]}") >"${work}/${target}.seeds"
  max_len="${MAX_LEN}"
  [ "${target}" != fuzz_sqlite_db ] || max_len=1048576  # the corpus .db files are 0.7-1 MB
  [[ " ${NARROW_TARGETS[*]} " != *" ${target} "* ]] || max_len="${NARROW_MAX_LEN}"
  target_var="NPUSCOPE_FUZZ_ARGS_${target}"
  read -r -a target_args <<<"${!target_var:-}"
  dict=()
  [ ! -f "${NPUSCOPE_ROOT}/fuzz/dicts/${target}.dict" ] || dict=("-dict=${NPUSCOPE_ROOT}/fuzz/dicts/${target}.dict")
  # The replay: every seed once, as a regression test (the same inputs on every machine).
  npuscope_log "Replaying the ${#seed_files[@]} seeds of ${target}"
  if ! "${FUZZ_BUILD_DIR}/fuzz/${target}" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    "${seed_files[@]}" >"${work}/${target}.replay.log" 2>&1; then
    echo "FAILED: ${target}: a seed crashes (replay):" >&2
    grep -E -B2 -A30 'ERROR: |runtime error|npuscope fuzz finding' "${work}/${target}.replay.log" | head -n 60 >&2 || true
    failures=$((failures + 1))
    continue
  fi
  npuscope_log "Fuzzing ${target} for ${SECONDS_PER_TARGET} s (${#seed_files[@]} seeds)"
  # -timeout: one input may take at most 20 s (a hang is a finding); -rss_limit_mb / -malloc_limit_mb:
  # the "bounded memory" rule (a 64 KB input must not make npuscope allocate 2 GB).
  status=0
  "${FUZZ_BUILD_DIR}/fuzz/${target}" -max_total_time="${SECONDS_PER_TARGET}" -timeout=20 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -max_len="${max_len}" -print_final_stats=1 -artifact_prefix="${artifacts}/" \
    "-seed_inputs=@${work}/${target}.seeds" "${dict[@]}" "${EXTRA_ARGS[@]}" "${target_args[@]}" "${corpus}" \
    >"${work}/${target}.log" 2>&1 ||
    status=$?
  grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+ *DONE' "${work}/${target}.log" >&2 || true
  # slow-unit-*: an input that took over 10 s of wall time is only a note (a starved process on a
  # loaded machine writes them; -timeout is the hang check). Any other artifact is a finding.
  if [ "${status}" -ne 0 ] || [ -n "$(ls -A "${artifacts}" | grep -v '^slow-unit-' || true)" ]; then
    if [ "${EXPLORATION_GATES}" = 1 ]; then
      echo "FAILED: ${target} (status ${status}); artifacts in ${artifacts}:" >&2
      failures=$((failures + 1))
    else
      echo "FUZZ FINDING (exploration, not gating): ${target} (status ${status}); artifacts in ${artifacts}:" >&2
      findings=$((findings + 1))
    fi
    ls "${artifacts}" >&2 || true
    grep -E -A30 'ERROR: |runtime error|npuscope fuzz finding' "${work}/${target}.log" | head -n 60 >&2 || true
    # The input itself, so that a finding of a run whose folder is gone (CI) can be replayed:
    # base64 -d > crash && build-fuzz/fuzz/<target> crash.
    for a in "${artifacts}"/*; do
      case "$(basename "${a}")" in slow-unit-*) continue ;; esac
      if [ "$(stat -c %s "${a}")" -le 8192 ]; then
        echo "input $(basename "${a}") (base64): $(base64 -w0 "${a}")" >&2
      fi
    done
  fi
done
end=$(date +%s)
npuscope_log "Fuzz job: build $((built - start)) s, fuzzing $((end - built)) s (${#targets[@]} targets), total $((end - start)) s"
if [ "${findings}" -gt 0 ]; then
  echo "test_fuzz: ${findings} exploration finding(s), not gating (NPUSCOPE_FUZZ_EXPLORATION_GATES=0): fix them" >&2
fi
if [ "${failures}" -gt 0 ] || [ "${findings}" -gt 0 ]; then
  [ -n "${NPUSCOPE_FUZZ_WORK:-}" ] || trap - EXIT  # keep the artifacts
fi
if [ "${failures}" -gt 0 ]; then
  echo "test_fuzz: ${failures} target(s) failed; work folder ${work}" >&2
  exit 1
fi
