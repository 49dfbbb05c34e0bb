#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the source checks (scripts/check_source.sh), installs what is missing, builds everything
# (core, widgets, app, tests, benchmarks) with warnings as errors and runs all tests with ctest on
# the offscreen Qt platform. The tests read ../shared beside the checkout.
set -euo pipefail
# shellcheck source=setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

# The function-length check of check_source.sh (scripts/function_lengths.py) runs on python3.
start=$(date +%s)
npuscope_install_packages python3
npuscope_log "Checking sources"
"${NPUSCOPE_ROOT}/scripts/check_source.sh"
npuscope_install_packages "${NPUSCOPE_PACKAGES[@]}"
# The browser test of the HTML reports (tests/browser/): Chromium's headless shell. Where it
# cannot be installed the test says so and is skipped; the rest runs.
npuscope_install_packages chromium-headless-shell python3 ||
  npuscope_log "chromium-headless-shell could not be installed: the browser test will be skipped"
# The Slurm test (scripts/test_slurm.sh): a one-node cluster of Debian's Slurm and munge.
npuscope_install_packages slurmd slurmctld slurm-client munge ||
  npuscope_log "Slurm could not be installed: the Slurm test will be skipped"
installed=$(date +%s)
npuscope_build -DNPUSCOPE_BUILD_TESTS=ON -DNPUSCOPE_WARNINGS_AS_ERRORS=ON
built=$(date +%s)
npuscope_log "Running tests"
cd "${NPUSCOPE_BUILD_DIR}"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "${NPUSCOPE_JOBS}" "$@"
# The parts' times, for the CI budget (docs/robustness.md).
npuscope_log "Test job: install and source checks $((installed - start)) s, build $((built - installed)) s, ctest $(($(date +%s) - built)) s"
