#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent counts for the advisor's fusion rules (docs/diagnosis.md §6, §6.1, §6.2).

Standard library only, no npuscope code.

  fusion_oracle.py affinity TRACE_VIEW_JSON
      Affinity-API matches: per (pid, tid), the X events named aten::* sorted by (ts, longer
      first), an event dropped when it lies inside the previous kept one (top-level torch ops);
      their names without "aten::" joined as "-a--b-..." and each timeline_fusion_ops.yaml
      sequence (the default set, unique_id 0-3) turned into a regular expression with a true
      alternation per "(a|b){m,n}" element, counted with re.findall; plus every X event named
      Optimizer.step#X.step with X one of the yaml's optimizers.
  fusion_oracle.py fusible KERNEL_DETAILS_CSV
      Fusible operator sequences: msprof-analyze's fusible_operator_checker.py logic as described
      in docs/diagnosis.md §6 (runs of 3-10 tasks, host / MTE bound, > 5 occurrences, > 1% of the
      span or MTE bound, the prefix post-processing), over the rows in file order.
"""
import csv
import json
import re
import sys
from collections import OrderedDict
from decimal import Decimal

RULES = {
    "torch_npu.npu_confusion_transpose": ["(permute|transpose)-(contiguous){0,1}-(reshape|view)",
                                          "(reshape|view)-(contiguous){0,1}-(permute|transpose)"],
    "torch_npu.fast_gelu": ["gelu"],
    "torch_npu.npu_scaled_masked_softmax": ["softmax-(mul){0,1}-(masked_fill_|add)"],
    "optimizer.clip_grad_norm_fused_": ["add-reciprocal-mul"],
    "torch_npu.npu_fusion_attention": ["matmul-(add){0,1}-(mul){0,1}-(masked_fill_|add){0,1}-softmax-(dropout){0,1}-matmul"],
    "torch_npu.npu_rotary_mul": ["(chunk|slice)-neg-cat-(mul){0,2}-add"],
    "torch_npu.npu_rms_norm": ["(pow){0,1}-(mean){0,1}-(add){0,1}-rsqrt-mul-(type_as){0,1}"],
    "torch_npu.npu_swiglu": ["(slice|chunk)-silu-mul", "(slice|chunk)-mul-silu", "(slice|chunk)-sigmoid-mul-mul",
                             "(slice|chunk)-mul-sigmoid-mul", "(slice|chunk)-mul-mul-sigmoid"],
    "torch_npu.npu_geglu": ["(slice|chunk)-gelu-mul", "(slice|chunk)-mul-gelu"],
    "torch_npu.npu_group_norm_silu": ["group_norm-silu"],
    "torch.addmm": ["mul-mul-add"],
    "torch_npu.npu_add_layer_norm": ["add-layer_norm"],
}
OPTIMIZERS = ["AdamW", "SGD", "Adadelta", "Lamb", "AdamP", "BertAdam", "RMSprop", "RMSpropTF", "Adam"]


def pattern(rule):
    out = ""
    for piece in rule.split("-"):
        m = re.fullmatch(r"\(([\w|]+)\)(\{\d+,\d+\})?", piece)
        if m:
            out += "(?:" + "|".join("-" + n + "-" for n in m.group(1).split("|")) + ")" + (m.group(2) or "")
        else:
            out += "(?:-" + piece + "-)"
    return out


def affinity(path):
    data = json.load(open(path, encoding="utf-8"), parse_float=Decimal)
    events = data["traceEvents"] if isinstance(data, dict) else data
    threads = {}
    optim = {}
    for e in events:
        if e.get("ph") != "X" or not isinstance(e.get("name"), str):
            continue
        name = e["name"]
        if name.startswith("aten::"):
            threads.setdefault((e.get("pid"), e.get("tid")), []).append(
                (Decimal(str(e["ts"])), Decimal(str(e.get("dur", 0))), name[len("aten::"):]))
        if name.startswith("Optimizer.step#") and name.endswith(".step") and name[15:-5] in OPTIMIZERS:
            optim[name[15:]] = optim.get(name[15:], 0) + 1
    total_ops = 0
    counts = {}
    for ops in threads.values():
        kept = []
        for ts, dur, name in sorted(ops, key=lambda o: (o[0], -o[1])):
            if kept and kept[-1][0] <= ts and ts + dur <= kept[-1][0] + kept[-1][1]:
                continue
            kept.append((ts, dur, name))
        total_ops += len(kept)
        text = "".join("-" + n + "-" for _, _, n in kept)
        for api, rules in RULES.items():
            for r in rules:
                n = len(re.findall(pattern(r), text))
                if n:
                    counts[api + " " + r] = counts.get(api + " " + r, 0) + n
    print("top-level torch ops", total_ops)
    print("sequences", counts)
    print("optimizers", optim)


def fusible(path):
    min_extra, max_tasks, host_mark, mte_mark, share_mark, count_mark = 2, 10, 0.4, 0.8, 0.01, 5
    rows = list(csv.DictReader(open(path, newline="", encoding="utf-8")))

    def num(r, k):
        try:
            return float(r.get(k) or "")
        except ValueError:
            return 0.0

    def breaks(r):
        return r.get("Accelerator Core", "") in ("COMMUNICATION", "HCCL", "AI_CPU") or \
            r.get("Name", "").lower().startswith(("hcom", "lccl", "lcoc"))

    def mte(r):
        return max(num(r, "aic_mte2_time(us)"), num(r, "aiv_mte2_time(us)")) + \
            max(num(r, "aic_fixpipe_time(us)"), num(r, "aiv_mte3_time(us)"))

    keys = [(r.get("Name", ""), r.get("Input Shapes", ""), r.get("Output Shapes", "")) for r in rows]
    span = num(rows[-1], "Start Time(us)") + num(rows[-1], "Duration(us)") - num(rows[0], "Start Time(us)")
    cand = OrderedDict()
    for i, r in enumerate(rows):
        if breaks(r):
            continue
        start = num(r, "Start Time(us)")
        dur, m, core = num(r, "Duration(us)"), mte(r), num(r, "aicore_time(us)")
        for j in range(1, max_tasks):
            if i + j >= len(rows) or breaks(rows[i + j]):
                break
            u = rows[i + j]
            dur += num(u, "Duration(us)")
            m += mte(u)
            core += num(u, "aicore_time(us)")
            wall = num(u, "Start Time(us)") + num(u, "Duration(us)") - start
            host = wall != 0 and dur / wall < host_mark
            mteb = core != 0 and m / core > mte_mark
            if (not host and not mteb) or j < min_extra:
                continue
            k = tuple(keys[i:i + j + 1])
            w, d, mm, c, _, _ = cand.get(k, (0, 0, 0, 0, False, False))
            cand[k] = (w + wall, d + dur, mm + m, c + 1, mteb, host)

    def passes(v):
        return v[3] > count_mark and ((span != 0 and v[0] / span > share_mark) or v[4])

    out, base, record = [], None, None
    for k, v in cand.items():
        if not passes(v):
            continue
        if base is None:
            record = k
        elif k[:len(base)] == base and v[0] > cand[record][0]:
            record = k
        else:
            out.append(record)
            record = k
        base = k
    if cand:
        last = next(reversed(cand))
        if last not in out and passes(cand[last]):
            out.append(last)
    print("rows", len(rows), "reported", len(out), "host bound", sum(cand[k][5] for k in out),
          "MTE bound", sum(cand[k][4] for k in out))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("affinity", "fusible"):
        sys.exit(__doc__)
    (affinity if sys.argv[1] == "affinity" else fusible)(sys.argv[2])
