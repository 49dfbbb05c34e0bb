#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cluster at scale (issue 40 item 6; docs/benchmarks.md "A cluster of 1,024 ranks"): builds a
# 1,024-rank capture and times `npuscope summarize` over it and `npuscope report` over the summaries
# (the merge), with their peak memory (GNU time's maximum resident set size).
#
#   bench/cluster_scale.sh NPUSCOPE WORK [RANKS] [KIND]
#
# KIND corpus (default): copies of the 910B Level1 text export's two ranks (2.2 MB traces, with
#   their CSVs) with the rank ids rewritten (profiler_info_N.json); the traces are hard links, so
#   1,024 ranks take a few MB of disk. Every copy keeps group key 586: one group of RANKS members.
# KIND generated: tools/gen_cluster.py, groups of 8 with late members loaded and left out.
# WORK is emptied first. Prints one line per step: wall seconds, CPU seconds, peak RSS.
set -euo pipefail
npuscope="$(readlink -f "${1:?usage: cluster_scale.sh NPUSCOPE WORK [RANKS] [corpus|generated]}")"
work="${2:?usage: cluster_scale.sh NPUSCOPE WORK [RANKS] [corpus|generated]}"
ranks="${3:-1024}"
kind="${4:-corpus}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="${NPUSCOPE_SHARED:-$root/../shared}"
rm -rf "$work"
mkdir -p "$work/capture"
if [ "$kind" = corpus ]; then
  src="$shared/corpus/ascend-pt-910b-l1-text-2rank"
  for ((r = 0; r < ranks; r++)); do
    from="$src/rank$((r % 2))_ascend_pt"
    to="$work/capture/rank${r}_ascend_pt"
    mkdir -p "$to/ASCEND_PROFILER_OUTPUT"
    for f in "$from"/ASCEND_PROFILER_OUTPUT/*; do ln "$f" "$to/ASCEND_PROFILER_OUTPUT/" 2>/dev/null || cp "$f" "$to/ASCEND_PROFILER_OUTPUT/"; done
    cp "$from/profiler_metadata.json" "$to/"
    sed "s/\"rank_id\": [0-9]*/\"rank_id\": $r/" "$from/profiler_info_$((r % 2)).json" >"$to/profiler_info_$r.json"
  done
else
  python3 "$root/tools/gen_cluster.py" "$work/capture" --ranks "$ranks" --seed 5 --late 5:0:700 --late 100:1:1500 \
    --late 515:2:900 --late 1000:3:2500 --omit 100,700
fi
measure() {  # measure NAME CMD...: one line with wall, CPU and peak RSS
  local name="$1"
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" >"$work/$name.out" 2>"$work/$name.err" || true
  read -r wall user sys rss <"$work/time.txt"
  printf '%-10s wall %7.2f s  cpu %7.2f s  peak %7.1f MiB\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc -l)"
}
echo "ranks: $ranks ($kind), trace bytes per rank: $(stat -c %s "$work/capture/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")"
measure summarize "$npuscope" summarize "$work/capture" -o "$work/summaries" --quiet
echo "summaries: $(find "$work/summaries" -name '*.gz' | wc -l) files, $(du -sk "$work/summaries" | cut -f1) KiB"
measure merge "$npuscope" report "$work/summaries" --json
echo "report: $(stat -c %s "$work/merge.out") bytes"
