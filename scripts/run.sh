#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds, and opens npuscope on PATH (a profiling folder or trace
# file) or, without PATH, on the bundled sample. Extra arguments go to npuscope, so
# `scripts/run.sh report PATH --json` works too. Without a display the window runs under
# xvfb-run (installed when needed).
set -euo pipefail
# shellcheck source=setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

npuscope_install_packages "${NPUSCOPE_PACKAGES[@]}"
npuscope_build
binary="${NPUSCOPE_BUILD_DIR}/app/npuscope"

gui=1
case "${1:-}" in
  report|screenshot|-h|--help|-v|--version) gui=0 ;;
esac
if [ "$gui" = 1 ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  npuscope_install_packages xvfb xauth
  npuscope_log "No display: running under xvfb-run"
  exec xvfb-run -a -s "-screen 0 1920x1080x24" "$binary" "$@"
fi
exec "$binary" "$@"
