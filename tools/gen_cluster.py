#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate an N-rank torch_npu-shaped capture whose collective holders are known by construction.

Every rank gets rank{R}_ascend_pt/{profiler_info_R.json, ASCEND_PROFILER_OUTPUT/trace_view.json}
(Level1 text export shape, format notes §2): a Python process with one ProfilerStep#1 over the
capture, an Ascend Hardware stream with a compute kernel before each collective, and an HCCL
process with its group's "Group 0 Communication" lane and one "Plane p" lane per peer (a mesh, as
the 910B writes it, format notes §2.4).

The ranks form groups of --group-size consecutive ranks (group g: ranks g*G .. g*G+G-1, group rank
= R mod G, op names hcom_allReduce__{100+g}_{k}_1). Collective k of every group is reached by each
member at k * --period-us plus a seeded jitter of 0-5 us, plus the lateness --late gives it. The
HCCL tasks follow the member's arrival a (us): Notify_Record to every peer at a + 1, then a
Notify_Wait on each peer p from a + 2 until p's record lands (a_p + 4, or at once), then 10 us of
HCCS transfer per plane once every member has signalled, the op ending 2 us later. That is the
rule npuscope's holder finding reads back (docs/diagnosis.md §5.4): nothing here calls npuscope.

--omit leaves ranks out of the capture (they still take part: their peers wait for them).

The truth (--truth FILE, JSON): per group and collective, the member arriving last when it arrives
at least 50 us after every other member, else null: {"collectives": [{"group", "sequence",
"holder_group_rank", "holder_rank" (the global rank id), "captured" (bool), "late_us"}]}.

Usage:
  tools/gen_cluster.py OUT --ranks 16 --late 3:0:500 --late 9:2:1200 --omit 9 --truth truth.json
  tools/gen_cluster.py OUT --ranks 1024 --filler 2000      # a 1,024-rank cluster for benchmarks
"""

import argparse
import json
import os
import random
import sys

LATE_NS = 50_000
BASE_US = 1_700_000_000_000_000  # an epoch-like start, us


def args_of(rank, peer, link="INVALID_TYPE", size=0):
    return {"src rank": rank, "dst rank": peer, "link type": link, "transport type": "SDMA", "size(Byte)": size}


def x(pid, tid, name, ts, dur, args=None):
    e = {"ph": "X", "pid": pid, "tid": tid, "name": name, "ts": "%.3f" % ts, "dur": "%.3f" % dur}
    if args is not None:
        e["args"] = args
    return e


def meta(pid, name, label=None, tid=None, thread=None):
    out = []
    if thread is None:
        out.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}})
        if label:
            out.append({"ph": "M", "name": "process_labels", "pid": pid, "tid": 0, "args": {"labels": label}})
    else:
        out.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": thread}})
        out.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid, "args": {"sort_index": tid}})
    return out


def arrivals(opts, rng):
    """arrival[rank][k] in us, for every rank of the job (captured or not)."""
    late = {}
    for spec in opts.late:
        r, k, us = spec.split(":")
        late[(int(r), int(k))] = float(us)
    arr = {}
    for r in range(opts.ranks):
        arr[r] = [k * opts.period_us + rng.uniform(0, 5) + late.get((r, k), 0.0) for k in range(opts.collectives)]
    return arr


def rank_events(r, opts, arr):
    g, gsize = r // opts.group_size, opts.group_size
    members = [m for m in range(g * gsize, min((g + 1) * gsize, opts.ranks))]
    me = r - g * gsize
    dev = r % 8
    label = "NPU %d" % dev
    ev = meta(100, "Python") + meta(100, "", tid=1, thread="Thread 1")
    ev += meta(300, "Ascend Hardware", label) + meta(300, "", tid=2, thread="Stream 2")
    ev += meta(400, "HCCL", label) + meta(400, "", tid=0, thread="Group 0 Communication")
    planes = [m for m in members if m != r]
    for i, _ in enumerate(planes):
        ev += meta(400, "", tid=i + 1, thread="Plane %d" % i)
    end_all = opts.collectives * opts.period_us + 100
    ev.append(x(100, 1, "ProfilerStep#1", BASE_US - 50, end_all + 100, {}))
    for k in range(opts.collectives):
        a = arr[r][k]
        # A compute kernel ending as the rank reaches the collective (its device was busy).
        ev.append(x(300, 2, "MatMul_%d" % k, BASE_US + a - 40, 40, {"Task Type": "AI_CORE"}))
        land = {m: arr[m][k] + 4 for m in members}
        ready = max(max(land.values()), a + 2)
        for i, m in enumerate(planes):
            pm = m - g * gsize
            ev.append(x(400, i + 1, "Notify_Record", BASE_US + a + 1, 0.5, args_of(me, pm)))
            ev.append(x(400, i + 1, "Notify_Wait", BASE_US + a + 2, max(a + 2, land[m]) - (a + 2), args_of(me, pm)))
            ev.append(x(400, i + 1, "Memcpy", BASE_US + ready + 1, 10, args_of(me, pm, "HCCS", 1 << 20)))
        name = "hcom_allReduce__%d_%d_1" % (100 + g, k)
        ev.append(x(400, 0, name, BASE_US + a, ready + 13 - a, {"alg_type": "MESH-RING"}))
    # Filler kernels after the last collective, to grow the trace (--filler).
    t = BASE_US + end_all
    for i in range(opts.filler):
        ev.append(x(300, 2, "Filler_%d" % (i % 50), t, 3, {"Task Type": "AI_VECTOR_CORE"}))
        t += 5
    return ev


def truth(opts, arr, omitted):
    out = []
    for g in range((opts.ranks + opts.group_size - 1) // opts.group_size):
        members = list(range(g * opts.group_size, min((g + 1) * opts.group_size, opts.ranks)))
        if sum(1 for m in members if m not in omitted) < 2:
            continue
        for k in range(opts.collectives):
            order = sorted(members, key=lambda m: arr[m][k])
            last, before = order[-1], order[-2]
            held = (arr[last][k] - arr[before][k]) * 1000 >= LATE_NS and (arr[last][k] - min(arr[m][k] for m in members)) * 1000 >= LATE_NS
            out.append({"group": str(100 + g), "sequence": k,
                        "holder_group_rank": (last - g * opts.group_size) if held else None,
                        "holder_rank": last if held else None,
                        "captured": (last not in omitted) if held else None,
                        "late_us": round(arr[last][k] - arr[before][k], 3) if held else 0})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--group-size", type=int, default=8)
    ap.add_argument("--collectives", type=int, default=4)
    ap.add_argument("--period-us", type=float, default=10_000.0)
    ap.add_argument("--late", action="append", default=[], help="RANK:COLLECTIVE:US (repeatable)")
    ap.add_argument("--omit", default="", help="rank ids left out of the capture, comma separated")
    ap.add_argument("--filler", type=int, default=0, help="extra kernels per rank (grows each trace)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--truth", help="write the holders by construction here (never inside OUT)")
    opts = ap.parse_args()
    if opts.ranks < 2 or opts.group_size < 2:
        sys.exit("gen_cluster.py: need --ranks >= 2 and --group-size >= 2")
    rng = random.Random(opts.seed)
    arr = arrivals(opts, rng)
    omitted = {int(v) for v in opts.omit.split(",") if v.strip()}
    for r in range(opts.ranks):
        if r in omitted:
            continue
        folder = os.path.join(opts.out, "rank%d_ascend_pt" % r)
        os.makedirs(os.path.join(folder, "ASCEND_PROFILER_OUTPUT"), exist_ok=True)
        with open(os.path.join(folder, "profiler_info_%d.json" % r), "w") as f:
            json.dump({"config": {"experimental_config": {"_profiler_level": "Level1", "_export_type": "text"}}, "rank_id": r}, f)
        with open(os.path.join(folder, "ASCEND_PROFILER_OUTPUT", "trace_view.json"), "w") as f:
            f.write("[\n")
            f.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in rank_events(r, opts, arr)))
            f.write("\n]\n")
    if opts.truth:
        with open(opts.truth, "w") as f:
            json.dump({"collectives": truth(opts, arr, omitted)}, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
