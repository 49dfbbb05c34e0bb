#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Source checks that need no build, run by scripts/test.sh before it builds (and so by CI).
# Prints every offending line as file:line: text and exits 1 when there is one.
#
# 1. No unchecked text -> number conversion in the product code (core/, app/, widgets/):
#    std::stoi/stol/stoll/stoul/stoull/stof/stod/stold throw std::out_of_range (a device label
#    "NPU 99999999999" or a file profiler_info_99999999999.json aborted npuscope), and
#    atoi/atol/atoll/atof have undefined behaviour on overflow. Use core/base/parse_number.h
#    (std::from_chars). strtol/strtoll/strtoul/strtoull/strtod/strtof are allowed only with an end
#    pointer that is checked: a call passing nullptr/NULL/0 as the end pointer is reported.
#    bench/ and tests/ are not checked (their inputs are their own).
# 2. No file(GLOB ...) in the CMake files of app/ and tests/: sources are listed by name.
# 3. Every entry of the interface translations (resources/translations/*.ts) is translated: no
#    type="unfinished" (a new or changed tr() string after scripts/update_translations.sh), no
#    empty translation, no type="vanished"/"obsolete" left behind.
# 4. No function over 150 lines in core/, widgets/ and app/ (issue 26): scripts/function_lengths.py
#    (a brace-matching scan, no build) prints each as file:line: name N lines. Split a long
#    function along what each part decides, not by line count.
# 5. No Catch2 test name in tests/ that begins with "-": ctest runs each test as
#    `TEST_BINARY "NAME"`, and Catch reads such a name as an option ("--help ..." printed Catch's
#    help and exited 0, so the test passed without running, until 6633c17, 2026-12-05).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

status=0
# $1: what is wrong; $2: grep -n output (file:line:text), empty when nothing is wrong.
report() {
  if [ -n "$2" ]; then
    printf 'check_source: %s\n%s\n' "$1" "$2"
    status=1
  fi
}

product_dirs=(core app widgets)
report "unchecked number conversion (use parseInteger from core/base/parse_number.h)" "$(
  grep -rnE --include='*.cpp' --include='*.h' \
    '\bstd::sto(i|l|ll|ul|ull|f|d|ld)[[:space:]]*\(|\b(std::)?(atoi|atol|atoll|atof)[[:space:]]*\(' \
    "${product_dirs[@]}" || true)"
report "strto* without an end pointer to check" "$(
  grep -rnE --include='*.cpp' --include='*.h' \
    '\bstrto(l|ll|ul|ull|d|f|ld|imax|umax)[[:space:]]*\([^;]*,[[:space:]]*(nullptr|NULL|0)[[:space:]]*[,)]' \
    "${product_dirs[@]}" || true)"
report "file(GLOB) in the CMake files of app/ and tests/: list the files by name" "$(
  grep -nE '^[[:space:]]*file[[:space:]]*\([[:space:]]*GLOB' app/CMakeLists.txt tests/CMakeLists.txt || true)"

report "untranslated entries in resources/translations (translate them: see scripts/update_translations.sh)" "$(
  grep -nE 'type="(unfinished|vanished|obsolete)"|<translation></translation>|<translation/>' \
    resources/translations/*.ts || true)"

report "a Catch2 test name that begins with '-' (Catch reads it as an option: the test never runs)" "$(
  grep -rnE --include='*.cpp' '(TEST_CASE|SCENARIO|TEST_CASE_METHOD)[[:space:]]*\((\w+,[[:space:]]*)?"-' tests || true)"

report "a Catch2 test name with ';' (ctest's discovery splits the name there: the two halves match no test)" "$(
  grep -rnE --include='*.cpp' '(TEST_CASE|SCENARIO)[[:space:]]*\("[^"]*;' tests || true)"

if command -v python3 >/dev/null 2>&1; then
  report "function over 150 lines (split it along what each part decides)" "$(
    python3 scripts/function_lengths.py --limit 150 "${product_dirs[@]}" 2>&1 || true)"
else
  report "function lengths not checked" "scripts/function_lengths.py needs python3, which is not installed"
fi

exit "${status}"
