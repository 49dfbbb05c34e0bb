#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent dispatch statistics per torch op and per CANN API (standard library only).

A second opinion on `dispatch_stats` of `npuscope report --json` (core/analysis/operators.cpp,
docs/diagnosis.md §6.3), built on trace_chains.py's chain walk (written from the format notes
without the C++ code) and nothing of npuscope's.

For every top-level task of an `Ascend Hardware` lane, trace_chains.chain_of gives its chain:
  - torch layer: the chain's TorchOp (the async_npu flow's source, else the cpu_op around the
    Enqueue), raised to its outermost `aten::` ancestor (the op the user called: aten::conv2d over
    aten::convolution over Conv2D); the chain's own when none is aten::;
  - cann layer: the chain's CannApi (the outermost AscendCL@ slice around the HostToDevice start).
An instance is one such op slice. Per instance:
  host   = the slice's duration;
  device = the summed duration of the tasks reached from it;
  queue  = Dequeue start - Enqueue start of the chain of its earliest task that has both (torch only);
  launch = its earliest task's start - the chain's launch (Node@launch start, else the HostToDevice
           `s` ts, ...), plus the clock-skew bound (below); dropped when still negative.
The skew bound: the lowest (task start - HostToDevice `s` ts) over the tasks with one, ignoring a
lowest value unless two more lie within 5 us of it (a lone outlier), negated, never below 0.
p50 / p90: linear interpolation at position (n-1)*p of the sorted sample (numpy's default).

Output (--json FILE): {"captures": [{"trace": relative path, "skew_bound_ns": n,
  "stats": [{"op", "layer", "count", "host_p50_us", "host_p90_us", "queue_p50_us", ...}]}]}
"""

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_chains  # noqa: E402

TRACES = [
    "ascend-pt-910b-l1-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
    "ascend-pt-910b-l1-text-2rank/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
    "ascend-pt-910b-l0-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
    "ascend-pt-910a-l0-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
]

SKEW_CLUSTER_NS = 5000


def percentile(sample, p):
    if not sample:
        return None
    v = sorted(sample)
    pos = p * (len(v) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def skew_bound(values):
    v = sorted(values)
    i = 0
    while i < len(v):
        near = sum(1 for x in v[i + 1:] if x - v[i] <= SKEW_CLUSTER_NS)
        if near >= 2 or len(v) - i < 3:
            return max(0, -v[i])
        i += 1
    return 0


def outermost_aten(op):
    best = op
    for a in [op] + list(op.ancestors()):
        if a.name.startswith("aten::"):
            best = a
    return best


def stats_of(trace):
    tasks = [s for s in trace.hw_tasks() if s.parent is None]
    chains = [(t, trace_chains.chain_of(trace, t)) for t in tasks]
    diffs = [t.start - c["acl_ts"] for t, c in chains if c["acl_ts"] is not None]
    bound = skew_bound(diffs) if diffs else 0
    inst = {"torch": {}, "cann": {}}
    for task, c in chains:
        links = {layer: s for layer, s, _ in c["links"]}
        ops = {}
        if "TorchOp" in links:
            ops["torch"] = outermost_aten(links["TorchOp"])
        if "CannApi" in links:
            ops["cann"] = links["CannApi"]
        for layer, op in ops.items():
            rec = inst[layer].setdefault(id(op), {"op": op, "device": 0, "first": None, "launch": None, "queue": None})
            rec["device"] += task.dur_ns
            if rec["first"] is None or task.start < rec["first"]:
                rec["first"] = task.start
                lat = c["launch_latency"]
                rec["launch"] = lat + bound if lat is not None and lat + bound >= 0 else None
            if layer == "torch" and rec["queue"] is None and "Enqueue" in links and "Dequeue" in links:
                rec["queue"] = links["Dequeue"].start - links["Enqueue"].start
    out = []
    for layer in ("torch", "cann"):
        names = {}
        for rec in inst[layer].values():
            names.setdefault(rec["op"].name, []).append(rec)
        for name, recs in sorted(names.items()):
            row = {"op": name, "layer": layer, "count": len(recs)}
            samples = {
                "host": [r["op"].dur_ns for r in recs],
                "device": [r["device"] for r in recs],
                "launch": [r["launch"] for r in recs if r["launch"] is not None],
                "queue": [r["queue"] for r in recs if r["queue"] is not None],
            }
            for k in ("host", "queue", "launch", "device"):
                for p, key in ((0.5, "p50"), (0.9, "p90")):
                    v = percentile(samples[k], p)
                    row["%s_%s_us" % (k, key)] = None if v is None else round(v / 1000.0, 3)
            row["host_over_device"] = sum(1 for r in recs if r["op"].dur_ns > r["device"])
            out.append(row)
    return bound, out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=os.path.join(here, "..", "..", "..", "shared"))
    ap.add_argument("--json", help="write the result here (default: stdout)")
    args = ap.parse_args()
    corpus = os.path.join(args.shared, "corpus")
    result = {"captures": []}
    for rel in TRACES:
        trace = trace_chains.Trace(os.path.join(corpus, rel))
        bound, stats = stats_of(trace)
        result["captures"].append({"trace": rel, "skew_bound_ns": bound, "stats": stats})
    text = json.dumps(result, indent=1, sort_keys=True) + "\n"
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
