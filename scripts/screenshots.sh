#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The screenshots issue 14 asks for: the first screen of every capture of the shared corpus
# (light and dark, English and Chinese, 1x and 2x), and the PNG and SVG export of bubble 1 with
# its dispatch chain; a contact sheet per capture when ImageMagick's `montage` is installed.
#
#   scripts/screenshots.sh OUT_DIR [NPUSCOPE_BINARY] [CORPUS_DIR]
#
# OUT_DIR must not be inside the corpus (npuscope refuses to write into a profiling folder
# anyway). "2x" is --scale 2 for the timeline image; the window shot (--window) has no scale
# option, so its 2x is QT_SCALE_FACTOR=2 (a 2x device pixel ratio, as on a HiDPI screen).
set -u
out=${1:?usage: scripts/screenshots.sh OUT_DIR [NPUSCOPE_BINARY] [CORPUS_DIR]}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${2:-$here/build/app/npuscope}
corpus=${3:-$here/../shared/corpus}
[ -d "$corpus" ] || corpus=/work/shared/corpus
corpus=$(cd "$corpus" && pwd -P)  # a clean path for the window's status bar
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
case "$out/" in "$corpus"/*) echo "OUT_DIR is inside the corpus" >&2; exit 2 ;; esac
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
failed=0
shot() {  # name, then npuscope screenshot arguments (an optional leading ENV=VALUE)
  local name=$1; shift
  local env=()
  if [[ "${1:-}" == *=* && "${1:-}" != -* ]]; then env=("$1"); shift; fi
  if ! env "${env[@]}" "$bin" screenshot "$@" 2>"$out/$name.log"; then
    echo "FAILED: $name: $(grep -v 'XDG_RUNTIME_DIR\|propagateSizeHints' "$out/$name.log" | tail -1)" >&2
    failed=$((failed + 1))
  fi
  grep -v 'XDG_RUNTIME_DIR\|propagateSizeHints' "$out/$name.log" >"$out/$name.log.tmp"
  mv "$out/$name.log.tmp" "$out/$name.log"
  [ -s "$out/$name.log" ] || rm -f "$out/$name.log"
}
# Every capture folder, plus the timelines inside the two fixture grab-bags (SOURCES.md §7, §8),
# which are not captures themselves: NAME=PATH.
inputs=()
for capture in "$corpus"/*/; do
  capture=${capture%/}
  [ "$(basename "$capture")" = msprof-analyze-advisor-fixtures ] && continue  # no capture layout
  inputs+=("$(basename "$capture")=$capture")
done
inputs+=("msprof-analyze-advisor-timeline=$corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json"
         "msinsight-full-db=$corpus/msinsight-server-fixtures/full_db/msprof_0.db"
         "msinsight-heatmap=$corpus/msinsight-server-fixtures/heatMap/trace_view.json")
for input in "${inputs[@]}"; do
  c=${input%%=*}
  capture=${input#*=}
  [ -e "$capture" ] || { echo "missing: $capture" >&2; continue; }
  for theme in light dark; do
    for lang in en zh_CN; do
      base="$c.first.$theme.$lang"
      shot "$base.1x" "$capture" -o "$out/$base.1x.png" --window --width 1600 --height 1000 --theme "$theme" --lang "$lang"
      shot "$base.2x" QT_SCALE_FACTOR=2 "$capture" -o "$out/$base.2x.png" --window --width 1600 --height 1000 \
        --theme "$theme" --lang "$lang"
    done
  done
  # A bubble with its chain: the window, the PNG export at 1x and 2x, the SVG export.
  shot "$c.bubble1.window" "$capture" -o "$out/$c.bubble1.window.png" --window --width 1600 --height 1000 --bubble 1
  shot "$c.bubble1" "$capture" -o "$out/$c.bubble1.png" --bubble 1 --caption --width 1600 --height 1000
  shot "$c.bubble1.2x" "$capture" -o "$out/$c.bubble1.2x.png" --bubble 1 --caption --scale 2 --width 1600 --height 1000
  shot "$c.bubble1.svg" "$capture" -o "$out/$c.bubble1.svg" --bubble 1 --caption --width 1600 --height 1000
  sheet=()
  for f in "$out/$c".first.*.1x.png "$out/$c".bubble1.window.png; do [ -f "$f" ] && sheet+=("$f"); done
  if command -v montage >/dev/null && [ ${#sheet[@]} -gt 0 ]; then
    montage "${sheet[@]}" -tile 3x -geometry 800x500+4+4 -title "$c" "$out/$c.sheet.png" 2>/dev/null ||
      echo "montage failed for $c" >&2
  fi
done
echo "$(ls "$out"/*.png "$out"/*.svg 2>/dev/null | wc -l) images in $out; $failed failed (see the .log files;" \
  "a --bubble shot of a capture without device tasks fails by design)"
[ "$failed" -eq 0 ]
