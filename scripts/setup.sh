#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian bookworm packages npuscope needs (only those missing), then configures and
# builds it with CMake + Ninja. Sourced by run.sh and test.sh; can also be run on its own.
#
#   scripts/setup.sh            install + build (Release) into build/ of the checkout
#   NPUSCOPE_BUILD_DIR=dir      build elsewhere
#   NPUSCOPE_JOBS=n             parallel jobs (default 2)
set -euo pipefail

NPUSCOPE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NPUSCOPE_BUILD_DIR="${NPUSCOPE_BUILD_DIR:-${NPUSCOPE_ROOT}/build}"
NPUSCOPE_JOBS="${NPUSCOPE_JOBS:-2}"

# Build tools, Qt 6 (Widgets, Concurrent, Svg, Test), simdjson, zlib, sqlite, Catch2 v2, fonts
# for offscreen rendering (DejaVu, and WenQuanYi Micro Hei for Chinese lane and kernel names:
# 计算流, 矩阵乘, which DejaVu draws as empty boxes), the X/Wayland platform plugins, and Qt
# Linguist's lupdate/lrelease (the interface translations, resources/translations/), and Qt's own
# translations (qtbase_zh_CN.qm: OK / Cancel and the file dialog in the Chinese interface).
NPUSCOPE_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-svg-dev qt6-qpa-plugins libgl-dev libvulkan-dev
  libsimdjson-dev zlib1g-dev libsqlite3-dev catch2
  fonts-dejavu-core fonts-wqy-microhei
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
)

# The fuzz job (scripts/test_fuzz.sh) also needs clang with libFuzzer: on bookworm `clang` is
# clang-14, libclang-rt-14-dev holds compiler-rt (libclang_rt.fuzzer, asan, ubsan) and `llvm`
# gives llvm-symbolizer for readable stacks.
NPUSCOPE_FUZZ_PACKAGES=(clang libclang-rt-14-dev llvm)

npuscope_log() { printf '\033[1;34m==>\033[0m %s\n' "$*" >&2; }

npuscope_install_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "npuscope: missing packages (${missing[*]}) and no apt-get; install them by hand." >&2
    return 1
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "npuscope: need root (or sudo) to install: ${missing[*]}" >&2
      return 1
    fi
  fi
  npuscope_log "Installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

npuscope_build() {
  npuscope_log "Configuring ${NPUSCOPE_BUILD_DIR}"
  # ccache when the machine has it (a developer's; CI without it builds as before).
  local launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "${NPUSCOPE_ROOT}" -B "${NPUSCOPE_BUILD_DIR}" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
  npuscope_log "Building (-j${NPUSCOPE_JOBS})"
  cmake --build "${NPUSCOPE_BUILD_DIR}" --parallel "${NPUSCOPE_JOBS}"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  npuscope_install_packages "${NPUSCOPE_PACKAGES[@]}"
  npuscope_build "$@"
fi
