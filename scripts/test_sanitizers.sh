#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sanitizer job (issue 15): builds npuscope with AddressSanitizer + UndefinedBehaviorSanitizer
# (-DNPUSCOPE_ENABLE_SANITIZERS=ON, which adds -fno-sanitize-recover=all: the first finding ends
# the process with a non-zero status) into its own build folder, runs the whole ctest suite, then
# runs the CLI (`report`, `report --json`, `stats`) over every case of ../shared/cases and every
# capture of ../shared/corpus. A finding, a crash or an invalid JSON report fails the script; a
# CLI exit status of 1 (the input has no loadable data: a clear message) does not.
# Usage: scripts/test_sanitizers.sh [ctest arguments...]
#   NPUSCOPE_ASAN_BUILD_DIR  build folder (default: build-asan beside build)
#   NPUSCOPE_SHARED          the shared data folder (default: ../shared beside the checkout)
set -euo pipefail
# shellcheck source=setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

ASAN_BUILD_DIR="${NPUSCOPE_ASAN_BUILD_DIR:-${NPUSCOPE_ROOT}/build-asan}"
SHARED="${NPUSCOPE_SHARED:-${NPUSCOPE_ROOT}/../shared}"
start=$(date +%s)

npuscope_install_packages "${NPUSCOPE_PACKAGES[@]}" python3
npuscope_log "Configuring ${ASAN_BUILD_DIR} (ASan + UBSan)"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# RelWithDebInfo at -O1 -g1: optimised enough that the suite's large inputs stay fast, with line
# numbers in reports; -O2 -g took 2.7 times as long to compile (core/profile/profile.cpp: 68 s
# against 25 s on one core) for a test run about as long (docs/robustness.md, CI budget).
# Warnings are not errors here: under -fsanitize GCC 12 reports false -Wformat-truncation and
# -Wmaybe-uninitialized in the standard library; scripts/test.sh builds with -Werror.
cmake -S "${NPUSCOPE_ROOT}" -B "${ASAN_BUILD_DIR}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DNPUSCOPE_BUILD_TESTS=ON -DNPUSCOPE_WARNINGS_AS_ERRORS=OFF -DNPUSCOPE_ENABLE_SANITIZERS=ON \
  -DNPUSCOPE_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
npuscope_log "Building (-j${NPUSCOPE_JOBS})"
cmake --build "${ASAN_BUILD_DIR}" --parallel "${NPUSCOPE_JOBS}"
built=$(date +%s)

# detect_leaks=0: Qt's plugin loader and fontconfig keep caches for the process lifetime.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allow_user_segv_handler=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export QT_QPA_PLATFORM=offscreen
# The window's monkey test (tests/app/test_monkey.cpp) runs a minute here, 20 s in scripts/test.sh.
export NPUSCOPE_MONKEY_SECONDS="${NPUSCOPE_MONKEY_SECONDS:-60}"

npuscope_log "Running tests under ASan + UBSan"
(cd "${ASAN_BUILD_DIR}" && ctest --output-on-failure --parallel "${NPUSCOPE_JOBS}" --timeout 1800 "$@")
tested=$(date +%s)

npuscope_log "Running the CLI over every case and corpus capture"
bin="${ASAN_BUILD_DIR}/app/npuscope"
failures=0
checked=0
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
# Runs the CLI; status 0 or 1 is an answer (1: nothing loadable, said in a message), anything
# else (a sanitizer finding, a signal) is a failure.
run_cli() {
  local status=0
  "${bin}" "$@" >"${out}/stdout" 2>"${out}/stderr" || status=$?
  if [ "${status}" -gt 1 ]; then
    echo "FAILED (status ${status}): npuscope $*" >&2
    tail -n 40 "${out}/stderr" >&2
    failures=$((failures + 1))
    return 1
  fi
  return "${status}"
}
inputs=()
for d in "${SHARED}"/cases/*/ "${SHARED}"/corpus/*/; do
  [ -d "${d}" ] || continue
  inputs+=("${d%/}")
  # Each file of a case on its own too (a case folder holds several small traces).
  case "${d}" in
    */cases/*) for f in "${d}"*.json "${d}"*.json.gz; do [ -f "${f}" ] && inputs+=("${f}"); done ;;
  esac
done
for p in "${inputs[@]}"; do
  checked=$((checked + 1))
  run_cli report "${p}" || true
  if run_cli report --json "${p}"; then
    if ! python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))' "${out}/stdout"; then
      echo "FAILED: npuscope report --json ${p} is not valid UTF-8 JSON" >&2
      failures=$((failures + 1))
    fi
  fi
  run_cli stats "${p}" || true
done
end=$(date +%s)
npuscope_log "Sanitizer job: build $((built - start)) s, ctest $((tested - built)) s, CLI over ${checked} inputs $((end - tested)) s, total $((end - start)) s"
if [ "${failures}" -gt 0 ]; then
  echo "test_sanitizers: ${failures} failure(s)" >&2
  exit 1
fi
