#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent figures of a PyTorch Kineto trace (CUDA / ROCm / torch_npu PrivateUse1), standard
library only, sharing no code with npuscope. Written from the format notes
(../shared/docs/ascend-profiling-format.md section 6.1) and the rule stated in docs/diagnosis.md:

- a device is a process whose process_labels is "GPU k" (device k) or "Ascend NPU" (device = pid);
  its threads are streams;
- on a stream, cat "kernel" is compute, except kernels whose name contains nccl / rccl / hccl (any
  case) or starts with hcom_, which are communication; cat gpu_memcpy / gpu_memset are copies
  (neither compute nor communication); anything else (cuda_sync, gpu_user_annotation) is no task;
- e2e = first start to last end of compute U communication; Free = e2e minus that union;
- bubbles = Free intervals of at least 10 us;
- a task's chain: the ac2g flow (s on the host launch, f at the start of a device task, paired by
  id) whose start lies inside a runtime call (cat cuda_runtime / cuda_driver / privateuse1_runtime) on the host
  thread, and the innermost cpu_op around that call.

Times are kept exact: ts / dur are read as decimals (json parse_float=Decimal) and converted to
integer ns.

Usage: python3 tools/oracles/kineto_oracle.py TRACE.json[.gz]   -> JSON on stdout
"""
import collections
import decimal
import gzip
import json
import sys

NS = decimal.Decimal(1000)


def ns(v):
    if isinstance(v, str):
        v = decimal.Decimal(v)
    return int((decimal.Decimal(v) * NS).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def load(path):
    with open(path, "rb") as fh:
        raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw.decode("utf-8"), parse_float=decimal.Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def union(intervals):
    out = []
    for s, e in sorted(intervals):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def total(u):
    return sum(e - s for s, e in u)


def kind(cat, name):
    if cat in ("gpu_memcpy", "gpu_memset"):
        return "copy"
    if cat != "kernel":
        return None
    low = name.lower()
    if "nccl" in low or "rccl" in low or "hccl" in low or name.startswith("hcom_"):
        return "comm"
    return "compute"


def analyse(events):
    labels = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_labels":
            labels[e.get("pid")] = (e.get("args") or {}).get("labels", "")
    device_of = {}
    for pid, lab in labels.items():
        if lab.startswith("GPU ") and lab[4:].isdigit():
            device_of[pid] = int(lab[4:])
        elif lab == "Ascend NPU" and isinstance(pid, int):
            device_of[pid] = pid
    per = collections.defaultdict(lambda: {"compute": [], "comm": [], "copy": [], "streams": collections.Counter()})
    for e in events:
        if e.get("ph") != "X" or e.get("pid") not in device_of:
            continue
        k = kind(e.get("cat"), e.get("name", ""))
        if not k:
            continue
        d = per[device_of[e["pid"]]]
        s = ns(e["ts"])
        d[k].append((s, s + ns(e.get("dur", 0))))
        if k != "copy":
            d["streams"][str(e.get("tid"))] += 1
    out = {}
    for dev, d in sorted(per.items()):
        c, m = union(d["compute"]), union(d["comm"])
        busy = union(c + m)
        if not busy:
            continue
        begin, end = busy[0][0], busy[-1][1]
        free = []
        for (s0, e0), (s1, e1) in zip(busy, busy[1:]):
            free.append((e0, s1))
        # Communication (Not Overlapped) = |M \ C| = |C U M| - |C|
        not_overlapped = total(busy) - total(c)
        bubbles = [g for g in free if g[1] - g[0] >= 10_000]
        out[str(dev)] = {
            "kernels_per_stream": dict(sorted(d["streams"].items())),
            "copies": len(d["copy"]),
            "computing_ns": total(c),
            "communication_ns": total(m),
            "comm_not_overlapped_ns": not_overlapped,
            "e2e_ns": end - begin,
            "free_ns": (end - begin) - total(busy),
            "bubbles": len(bubbles),
            "bubbles_ns": sum(b - a for a, b in bubbles),
            "longest_bubble": list(max(bubbles, key=lambda g: g[1] - g[0])) if bubbles else None,
        }
    # Chains: ac2g pairs whose f lands on a device task and whose s lies in a runtime call.
    starts, finishes = {}, {}
    for e in events:
        if e.get("cat") == "ac2g" and e.get("ph") in ("s", "f"):
            (starts if e["ph"] == "s" else finishes)[e["id"]] = e
    runtime = collections.defaultdict(list)
    ops = collections.defaultdict(list)
    for e in events:
        if e.get("ph") != "X":
            continue
        s = ns(e["ts"])
        iv = (s, s + ns(e.get("dur", 0)), e.get("name"))
        if e.get("cat") in ("cuda_runtime", "cuda_driver", "privateuse1_runtime"):
            runtime[(e["pid"], e["tid"])].append(iv)
        elif e.get("cat") == "cpu_op":
            ops[(e["pid"], e["tid"])].append(iv)
    # The device tasks by (pid, tid, ts): an ac2g finish also lands on cuda_sync records (the
    # host's sync call is linked to its record on the device), which are no tasks.
    tasks = set()
    for e in events:
        if e.get("ph") == "X" and e.get("pid") in device_of and kind(e.get("cat"), e.get("name", "")):
            tasks.add((e["pid"], e["tid"], ns(e["ts"])))
    chains = collections.Counter()
    for fid, s in starts.items():
        if fid not in finishes or finishes[fid].get("pid") not in device_of:
            continue
        fin = finishes[fid]
        if (fin["pid"], fin["tid"], ns(fin["ts"])) not in tasks:
            continue
        t = ns(s["ts"])
        key = (s["pid"], s["tid"])
        launch = [r for r in runtime[key] if r[0] <= t < r[1] or r[0] == t]
        if not launch:
            continue
        around = [o for o in ops[key] if o[0] <= launch[0][0] and launch[0][1] <= o[1]]
        chains["with_launch"] += 1
        if around:
            chains["with_torch_op"] += 1
    return {"devices": out, "chains": dict(chains)}


def main():
    print(json.dumps(analyse(load(sys.argv[1])), indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
