#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Refreshes resources/translations/npuscope_*.ts from the sources: lupdate over app/, widgets/
# and core/ (core's sentences are npuTr(context, source) calls, core/base/i18n.h, told to lupdate
# with -tr-function-alias translate+=npuTr). The command line's own messages,
# app/command_line.cpp, stay English. New strings arrive as "unfinished": translate them with Qt
# Linguist (linguist resources/translations/npuscope_zh_CN.ts) or by hand, then rebuild (CMake
# runs lrelease). scripts/check_translations.sh fails while any entry is unfinished.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
LUPDATE="${LUPDATE:-$(command -v lupdate || echo /usr/lib/qt6/bin/lupdate)}"
mapfile -t sources < <(find app widgets core \( -name '*.cpp' -o -name '*.h' \) ! -path app/command_line.cpp | sort)
for ts in resources/translations/npuscope_*.ts; do
  "${LUPDATE}" -I . -locations none -no-obsolete -tr-function-alias translate+=npuTr "${sources[@]}" -ts "${ts}"
done
