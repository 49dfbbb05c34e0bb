#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent comparison of two torch_npu text captures from the profiler's own CSV files
(standard library only): a second opinion on `npuscope compare A B --json` (core/report/compare.cpp,
docs/diagnosis.md §8), written from the issue's definition without reading the C++ code.

Per rank (its `profiler_info_N.json` rank_id, else the digits of its folder name), paired by rank id:
  - steps: step_trace_time.csv rows paired by Step; delta = B - A of Computing,
    Communication(Not Overlapped), Free and Stage (us);
  - operator types: kernel_details.csv Duration(us) summed per Type and counted; when either side's
    table has no Type other than N/A (Level0), both sides are keyed by Name instead, an HCCL name
    (hcom_*) cut after its first "__" (hcom_allReduce__586_0_1 -> hcom_allReduce_), which is what
    Level1 writes as its Type.

Output (--json FILE): {"pairs": [{"a", "b", "ranks": [{"rank", "steps": [{"step", "computing_us",
"communication_not_overlapped_us", "free_us", "stage_us"}], "operator_types": [{"type", "delta_us",
"a_count", "b_count"}]}]}]}, deltas rounded to the ns.
"""

import argparse
import csv
import glob
import json
import os
import re
import sys

PAIRS = [
    ("ascend-pt-910b-l0-text-2rank", "ascend-pt-910b-l1-text-2rank"),
    ("ascend-pt-910b-l1-text-2rank", "ascend-pt-910b-l1-text-2rank"),
]


def rank_folders(capture):
    out = {}
    for folder in sorted(glob.glob(os.path.join(capture, "*_ascend_pt"))):
        rank = None
        for info in glob.glob(os.path.join(folder, "profiler_info_*.json")):
            with open(info, encoding="utf-8") as f:
                rank = json.load(f).get("rank_id")
        if rank is None:
            m = re.search(r"(\d+)", os.path.basename(folder))
            rank = int(m.group(1)) if m else -1
        out[int(rank)] = os.path.join(folder, "ASCEND_PROFILER_OUTPUT")
    return out


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def num(cell):
    return float(str(cell).strip().strip("\t"))


def steps_of(out_dir):
    rows = {}
    for r in read_csv(os.path.join(out_dir, "step_trace_time.csv")):
        rows[int(num(r["Step"]))] = {
            "computing_us": num(r["Computing"]),
            "communication_not_overlapped_us": num(r["Communication(Not Overlapped)"]),
            "free_us": num(r["Free"]),
            "stage_us": num(r["Stage"]),
        }
    return rows


def kernels_of(out_dir):
    return read_csv(os.path.join(out_dir, "kernel_details.csv"))


def has_types(rows):
    return any(r.get("Type", "").strip() not in ("", "N/A") for r in rows)


def key_of(row, by_name):
    key = row["Name"] if by_name or not row.get("Type", "").strip() else row["Type"]
    key = key.strip()
    if by_name and key.startswith("hcom_") and "__" in key:
        key = key[: key.index("__") + 1]
    return key


def per_type(rows, by_name):
    out = {}
    for r in rows:
        try:
            d = num(r["Duration(us)"])
        except (KeyError, ValueError):
            continue
        k = key_of(r, by_name)
        t, n = out.get(k, (0.0, 0))
        out[k] = (t + d, n + 1)
    return out


def compare(a, b):
    ra, rb = rank_folders(a), rank_folders(b)
    ranks = []
    for rank in sorted(set(ra) & set(rb)):
        sa, sb = steps_of(ra[rank]), steps_of(rb[rank])
        steps = []
        for step in sorted(set(sa) & set(sb)):
            steps.append(dict({"step": step}, **{k: round(sb[step][k] - sa[step][k], 3) for k in sa[step]}))
        ka, kb = kernels_of(ra[rank]), kernels_of(rb[rank])
        by_name = not has_types(ka) or not has_types(kb)
        ta, tb = per_type(ka, by_name), per_type(kb, by_name)
        types = []
        for k in sorted(set(ta) | set(tb)):
            (a_us, a_n), (b_us, b_n) = ta.get(k, (0.0, 0)), tb.get(k, (0.0, 0))
            types.append({"type": k, "delta_us": round(b_us - a_us, 3), "a_count": a_n, "b_count": b_n})
        ranks.append({"rank": rank, "steps": steps, "operator_types": types})
    return ranks


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=os.path.join(here, "..", "..", "..", "shared"))
    ap.add_argument("--json", help="write the result here (default: stdout)")
    args = ap.parse_args()
    corpus = os.path.join(args.shared, "corpus")
    result = {"pairs": []}
    for a, b in PAIRS:
        result["pairs"].append({"a": a, "b": b, "ranks": compare(os.path.join(corpus, a), os.path.join(corpus, b))})
    text = json.dumps(result, indent=1, sort_keys=True) + "\n"
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
