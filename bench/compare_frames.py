#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Side-by-side frame timings of several npuscope_bench_views builds on one trace.

Usage: compare_frames.py FILE ROUNDS BENCH_VIEWS [BENCH_VIEWS ...]
Runs each binary ROUNDS times, alternating (REPEAT renders per level, default 15, from the
environment), and prints per binary and zoom level the smallest of the round medians of process
CPU ms, without and with every flow category's arrows ("plain/arrows"), and, for a build that
times it, the fixed reference frame ("ref", the same picture on every build: issue 27 item 4)
with the whole-trace frame over it ("1/1 / ref"). Standard library only.
"""
import collections
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    path, rounds, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    res = collections.defaultdict(lambda: collections.defaultdict(list))
    refs = collections.defaultdict(list)
    env = dict(os.environ, QT_QPA_PLATFORM='offscreen')
    for _ in range(rounds):
        for b in bins:
            out = subprocess.run([b, path, '--frames-only', '--repeat', os.environ.get('REPEAT', '15')],
                                 capture_output=True, text=True, env=env).stdout
            for line in out.splitlines():
                m = re.match(r'1/(\d+) .*?\[([\d.]+)\]\s+[\d.]+ \[([\d.]+)\]', line)
                if m:
                    res[b][m.group(1)].append((float(m.group(2)), float(m.group(3))))
                m = re.match(r'reference frame\s+[\d.]+ \[([\d.]+)\]', line)
                if m:
                    refs[b].append(float(m.group(1)))
    for b in bins:
        best = {lv: (min(x[0] for x in v), min(x[1] for x in v)) for lv, v in res[b].items()}
        line = '  '.join(f"1/{lv}: {p:.2f}/{a:.2f}" for lv, (p, a) in best.items())
        if refs[b]:
            ref = min(refs[b])
            line += f"  ref: {ref:.2f}"
            if '1' in best and ref > 0:
                line += f"  1/1 / ref: {best['1'][0] / ref:.2f}/{best['1'][1] / ref:.2f}"
        print(b, line)


if __name__ == '__main__':
    main()
