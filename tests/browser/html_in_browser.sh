#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The HTML reports in a real browser (issue 25): `report --html` of the 2-rank Level1 capture and
# `compare --html --lang zh_CN` of Level0 vs Level1 are written, checked to be self-contained
# (no script, nothing fetched: every src is a data: URI), under 10 MB, opened in Chromium's
# headless shell, whose DOM must hold the report's sections and whose screenshot must show the
# page and, in its lower part, the timeline images. The screenshots stay in OUT for a look.
# Usage: html_in_browser.sh NPUSCOPE SHARED OUT. Exit 77 (skipped) when no Chromium is installed
# (the README's test command installs chromium-headless-shell).
set -euo pipefail
npuscope="$1"; shared="$2"; out="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
browser="$(command -v chromium-headless-shell || command -v chromium || true)"
if [[ -z "${browser}" ]]; then
  echo "skipped: neither chromium-headless-shell nor chromium is installed (scripts/test.sh installs chromium-headless-shell)"
  exit 77
fi
rm -rf "${out}" && mkdir -p "${out}"
fail() { echo "FAIL: $*" >&2; exit 1; }
flags=(--no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="${out}/profile")
[[ "$(basename "${browser}")" == chromium ]] && flags+=(--headless)

check_file() {  # FILE: self-contained and small enough
  local f="$1" size
  size=$(stat -c %s "${f}")
  (( size < 10000000 )) || fail "${f} is ${size} bytes (limit 10 MB)"
  grep -qi '<script' "${f}" && fail "${f} has a script"
  grep -Eqi '(src|href)="(https?:)?//' "${f}" && fail "${f} refers to the network"
  grep -Eo 'src="[a-z]+:' "${f}" | grep -v 'src="data:' && fail "${f} has a src that is not a data: URI"
  return 0
}

shoot() {  # HTML PNG HEIGHT: DOM to HTML.dom, screenshot to PNG
  timeout 120 "${browser}" "${flags[@]}" --dump-dom "file://$1" > "$1.dom" 2>/dev/null
  timeout 120 "${browser}" "${flags[@]}" --screenshot="$2" --window-size="1300,$3" "file://$1" > /dev/null 2>&1
  [[ -s "$2" ]] || fail "no screenshot of $1"
}

"${npuscope}" report "${shared}/corpus/ascend-pt-910b-l1-text-2rank" --html "${out}/report.html"
check_file "${out}/report.html"
shoot "${out}/report.html" "${out}/report.png" 2400
for text in 'Performance report' 'where the device time goes' 'Bubbles: ' 'Ranks compared' 'Collectives' 'Advice' \
            'The whole capture' 'Bubble 1: ' 'Group rank 5 of HCCL group 586, which is not in this capture, holds 3 of 4 collectives' 'which costs nothing'; do
  grep -qF "${text}" "${out}/report.html.dom" || fail "the report's DOM lacks '${text}'"
done
(( $(grep -o '<img ' "${out}/report.html.dom" | wc -l) == 4 )) || fail "the report should hold 4 images"
read -r w h ink colours < <(python3 "${here}/png_ink.py" "${out}/report.png")
echo "report.png ${w}x${h}: ink ${ink}, ${colours} colours"
python3 -c "import sys; sys.exit(0 if float('${ink}') > 0.05 and ${colours} > 50 else 1)" || fail "report.png looks blank"
# The timeline images: the same document from its Timeline heading on (the head and styles
# kept), so that they fill the screenshot.
python3 - "${out}/report.html" "${out}/report_timeline.html" <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(s[: s.index("<body>") + 6] + s[s.index('<h2 id="timeline">'):])
PY
shoot "${out}/report_timeline.html" "${out}/report_timeline.png" 1400
read -r w h ink colours < <(python3 "${here}/png_ink.py" "${out}/report_timeline.png")
echo "report_timeline.png ${w}x${h}: ink ${ink}, ${colours} colours"
python3 -c "import sys; sys.exit(0 if float('${ink}') > 0.15 and ${colours} > 100 else 1)" || \
  fail "the timeline images look blank in the browser"

"${npuscope}" compare "${shared}/corpus/ascend-pt-910b-l0-text-2rank" "${shared}/corpus/ascend-pt-910b-l1-text-2rank" \
  --html "${out}/compare.html" --lang zh_CN
check_file "${out}/compare.html"
shoot "${out}/compare.html" "${out}/compare.png" 1800
grep -q '<html lang="zh-CN">' "${out}/compare.html.dom" || fail "compare.html is not marked zh-CN"
for text in '两个采集对比' 'hcom_allReduce_' 'A: ' 'B: '; do
  grep -qF "${text}" "${out}/compare.html.dom" || fail "the comparison's DOM lacks '${text}'"
done
read -r w h ink colours < <(python3 "${here}/png_ink.py" "${out}/compare.png")
echo "compare.png ${w}x${h}: ink ${ink}, ${colours} colours"
python3 -c "import sys; sys.exit(0 if float('${ink}') > 0.03 and ${colours} > 20 else 1)" || fail "compare.png looks blank"
echo "ok: ${out}/report.png, ${out}/compare.png"
