#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent oracle for the HCCL collectives (Python standard library only).

It reads the PROFILER'S OWN per-op communication figures, never trace events:

* text export: each rank's ``ASCEND_PROFILER_OUTPUT/communication.json`` (format notes §5.2):
  per step and kind, per op "{opName}@{group}": Communication Time Info (Start Timestamp(us),
  Elapse / Transit / Wait / Synchronization / Idle Time(ms)); the "Total Op Info" entries give the
  links (Communication Bandwidth Info per transport, summed over steps and kinds);
* database export: each rank's ``analysis.db`` CommAnalyzerTime (start_timestamp us, the five
  times ms) and CommAnalyzerBandwidth (per op and transport the transit size MB and time ms,
  repeated on every size-distribution row: the first row is taken), summed over the ops per
  transport for the links. ``start_timestamp`` sits a constant per rank away from the database's
  own TASK times: the constant is measured here as the median over the ops of (recorded start -
  the earliest TASK.startNs of the op's COMMUNICATION_TASK_INFO tasks, joined on opId), and
  ``start_ns`` is the recorded start minus it (the TASK clock, which npuscope shows).

The communication matrix per rank: communication_matrix.json's "{type}-total@{group}" entries (or
analysis.db CommAnalyzerMatrix's "{type}-total" rows), "src-dst" pairs summed over steps and kinds,
the LOCAL (on-chip) pairs left out.

Numbers are parsed from their text (json with Decimal; the database's REAL through repr) and
converted to integer ns, half away from zero.

The collectives across ranks (docs/diagnosis.md §5.4, the rule npuscope implements; written from
that text, not from npuscope's code):

0. Point-to-point ops (the file's "p2p" kind: send, receive, batchSendRecv) are left out: they
   synchronise two ranks, not the group. (npuscope also refuses to pair by order two groups in which
   two ranks hold the same group rank; the recorded files do not say the group rank, so that check
   is not reproduced here.)
1. An op instance is (group, op type, sequence): op type = the name between "hcom_" and the next
   "_" ("allReduce"); sequence = its index among the rank's ops of that group and type in start
   order. Groups pair by group name; a rank whose groups share no name with the reference pairs
   them by order of first appearance.
2. Reference = the lowest rank. Per other rank, the differences (end - the reference's end) over
   the shared instances, end = start + elapse; estimate = their median (even count: the floor of
   the mean of the two middle ones); applied when there are >= 3, all of one sign (all > 0 or all
   < 0), and |estimate| >= 50,000 ns; else the offset is 0.
3. corrected start = start - offset; skew = corrected start - the instance's earliest; the late
   rank is the first (in rank order) with the largest corrected start when its skew >= 50,000 ns,
   else null; lost = the sum over the other ranks that waited >= 50,000 ns of (late corrected
   start - their corrected start); also_late = the other ranks with skew >= 50,000 ns that waited
   less than 50,000 ns for it.

Cross-checks go to stderr (reports, not failures): the SDMA line of Total Op Info against the sum
of its HCCS, PCIE and SIO lines; where a late rank is named, the other ranks' recorded
synchronization against their skew.

Databases are opened read-only and immutable, never written.

Usage: python3 tools/oracles/comm_oracle.py [--shared /work/shared] [--json tests/data/comm_oracle.json]
"""

import argparse
import decimal
import json
import os
import re
import sqlite3
import sys
import urllib.parse
from decimal import Decimal

LATE_NS = 50_000
MIN_SAMPLES = 3

# (capture folder under corpus/, export)
CAPTURES = [
    ("ascend-pt-910b-l1-text-2rank", "text"),
    ("ascend-pt-910b-db-2rank/level1", "db"),
    ("ascend-pt-910a-db-2rank/level1", "db"),
    ("ascend-pt-cann83-l2-4rank-partial", "text"),
]


def to_ns(value, scale):
    """Decimal/str/float `value` in a unit of `scale` ns -> int ns, half away from zero."""
    if isinstance(value, float):
        value = Decimal(repr(value))
    d = Decimal(value) * scale
    return int(d.to_integral_value(rounding=decimal.ROUND_HALF_UP)) if d >= 0 else -int(
        (-d).to_integral_value(rounding=decimal.ROUND_HALF_UP))


def op_type(name):
    if name.startswith("hcom_"):
        return name[5:].split("_", 1)[0]
    return re.sub(r"[\d_\-]+$", "", name) or name


def rank_folders(capture_dir):
    """[(rank, folder)] of a capture: rank from profiler_info_N.json, else the folder's digits."""
    out = []
    for entry in sorted(os.listdir(capture_dir)):
        path = os.path.join(capture_dir, entry)
        if not os.path.isdir(path) or not re.search(r"ascend_pt$", entry):
            continue
        rank = None
        for f in os.listdir(path):
            m = re.fullmatch(r"profiler_info_(\d+)\.json", f)
            if m:
                rank = int(m.group(1))
        if rank is None:
            m = re.search(r"(\d+)", entry)
            rank = int(m.group(1)) if m else None
        if rank is not None:
            out.append((rank, path))
    return sorted(out)


def connect(path):
    return sqlite3.connect("file:" + urllib.parse.quote(os.path.abspath(path)) + "?immutable=1", uri=True)


def add_pair(matrix, src, dst, transport, size, time):
    """Sums one "src-dst" entry of a -total matrix into `matrix` (LOCAL, on the chip, left out)."""
    if transport == "LOCAL":
        return
    acc = matrix.setdefault((int(src), int(dst), transport), [Decimal(0), Decimal(0)])
    acc[0] += Decimal(size)
    acc[1] += Decimal(time)


def text_matrix(folder):
    """communication_matrix.json's "{type}-total@{group}" entries, summed over steps and kinds."""
    path = os.path.join(folder, "ASCEND_PROFILER_OUTPUT", "communication_matrix.json")
    matrix = {}
    if not os.path.isfile(path):
        return matrix
    with open(path, encoding="utf-8") as f:
        data = json.load(f, parse_float=Decimal, parse_int=Decimal)
    for kinds in data.values():
        for entries in kinds.values():
            for key, pairs in entries.items():
                if not key.partition("@")[0].endswith("-total"):
                    continue
                for pair, v in pairs.items():
                    src, _, dst = pair.partition("-")
                    add_pair(matrix, src, dst, v.get("Transport Type", ""), v.get("Transit Size(MB)", 0),
                             v.get("Transit Time(ms)", 0))
    return matrix


def db_matrix(folder):
    """analysis.db CommAnalyzerMatrix's "{type}-total" rows, summed."""
    matrix = {}
    a = connect(os.path.join(folder, "ASCEND_PROFILER_OUTPUT", "analysis.db"))
    if not a.execute("SELECT 1 FROM sqlite_master WHERE name='CommAnalyzerMatrix'").fetchone():
        return matrix
    for src, dst, transport, size, time in a.execute(
            "SELECT src_rank, dst_rank, transport_type, transit_size, transit_time FROM CommAnalyzerMatrix "
            "WHERE hccl_op_name LIKE '%-total'"):
        add_pair(matrix, src, dst, transport, Decimal(repr(float(size))), Decimal(repr(float(time))))
    return matrix


def matrix_json(matrix):
    return [{"src": src, "dst": dst, "transport": t, "transit_size_mb": "%.6f" % size,
             "transit_time_us": "%.3f" % (time * 1000)}
            for (src, dst, t), (size, time) in sorted(matrix.items())]


def text_rank(folder):
    path = os.path.join(folder, "ASCEND_PROFILER_OUTPUT", "communication.json")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        data = json.load(f, parse_float=Decimal, parse_int=Decimal)
    ops, links = [], {}
    for step, kinds in data.items():
        for kind, entries in kinds.items():
            for key, entry in entries.items():
                if key == "Total Op Info":
                    for transport, b in entry.get("Communication Bandwidth Info", {}).items():
                        size, time = Decimal(b.get("Transit Size(MB)", 0)), Decimal(b.get("Transit Time(ms)", 0))
                        acc = links.setdefault(transport, [Decimal(0), Decimal(0)])
                        acc[0] += size
                        acc[1] += time
                    continue
                t = entry["Communication Time Info"]
                name, _, group = key.partition("@")
                ops.append({"name": name, "group": group, "step": step, "kind": kind,
                            "start_ns": to_ns(t["Start Timestamp(us)"], 1000),
                            "elapse_ns": to_ns(t["Elapse Time(ms)"], 1_000_000),
                            "transit_ns": to_ns(t["Transit Time(ms)"], 1_000_000),
                            "wait_ns": to_ns(t["Wait Time(ms)"], 1_000_000),
                            "synchronization_ns": to_ns(t["Synchronization Time(ms)"], 1_000_000),
                            "idle_ns": to_ns(t["Idle Time(ms)"], 1_000_000)})
    return ops, links, 0


def db_rank(folder):
    out_dir = os.path.join(folder, "ASCEND_PROFILER_OUTPUT")
    analysis = os.path.join(out_dir, "analysis.db")
    dbs = [f for f in os.listdir(out_dir) if re.fullmatch(r"ascend_pytorch_profiler(_\d+)?\.db", f)]
    if not os.path.isfile(analysis) or not dbs:
        return None
    a = connect(analysis)
    if not a.execute("SELECT 1 FROM sqlite_master WHERE name='CommAnalyzerTime'").fetchone():
        return None
    ops = []
    for name, group, start, el, tr, wa, sy, idle, step, kind in a.execute(
            "SELECT hccl_op_name, group_name, start_timestamp, elapse_time, transit_time, wait_time, "
            "synchronization_time, idle_time, step, type FROM CommAnalyzerTime"):
        ops.append({"name": name, "group": str(group), "step": step, "kind": kind,
                    "start_ns": to_ns(start, 1000), "elapse_ns": to_ns(el, 1_000_000),
                    "transit_ns": to_ns(tr, 1_000_000), "wait_ns": to_ns(wa, 1_000_000),
                    "synchronization_ns": to_ns(sy, 1_000_000), "idle_ns": to_ns(idle, 1_000_000)})
    links, seen = {}, set()
    for name, group, transport, size, time, step, kind in a.execute(
            "SELECT hccl_op_name, group_name, transport_type, transit_size, transit_time, step, type "
            "FROM CommAnalyzerBandwidth ORDER BY rowid"):
        k = (name, group, step, kind, transport)
        if k in seen:
            continue
        seen.add(k)
        acc = links.setdefault(transport, [Decimal(0), Decimal(0)])
        acc[0] += Decimal(repr(float(size)))
        acc[1] += Decimal(repr(float(time)))
    # The per-rank constant between CommAnalyzerTime and the database's TASK clock.
    d = connect(os.path.join(out_dir, dbs[0]))
    first_task = {}
    for name, first in d.execute(
            "SELECT s.value, MIN(t.startNs) FROM COMMUNICATION_OP o JOIN STRING_IDS s ON s.id = o.opName "
            "JOIN COMMUNICATION_TASK_INFO c ON c.opId = o.opId JOIN TASK t ON t.globalTaskId = c.globalTaskId "
            "GROUP BY o.opId ORDER BY MIN(t.startNs)"):
        first_task.setdefault(name, []).append(first)
    diffs, used = [], {}
    for op in sorted(ops, key=lambda o: o["start_ns"]):
        k = used.get(op["name"], 0)
        used[op["name"]] = k + 1
        starts = first_task.get(op["name"], [])
        if k < len(starts):
            diffs.append(op["start_ns"] - starts[k])
    constant = median(diffs) if diffs else 0
    for op in ops:
        op["start_ns"] -= constant
    return ops, links, constant


def median(values):
    v = sorted(values)
    n = len(v)
    if n % 2:
        return v[n // 2]
    return (v[n // 2 - 1] + v[n // 2]) // 2


def links_json(links):
    out = []
    for transport in sorted(links):
        size, time = links[transport]
        if size <= 0:
            continue
        bw = (size / time) if time > 0 else Decimal(0)
        out.append({"transport": transport, "transit_size_mb": "%.6f" % size,
                    "transit_time_us": "%.3f" % (time * 1000), "bandwidth_gb_s": "%.4f" % bw})
    return out


def collectives(ranks):
    """The instances across `ranks` ([(rank, ops)] in rank order) by the rule of the docstring."""
    if len(ranks) < 2:
        return []
    keyed = []  # per rank: {(group, type, seq): op}
    for _, ops in ranks:
        seq, m = {}, {}
        for op in sorted(ops, key=lambda o: o["start_ns"]):
            if op["kind"] == "p2p":  # send / receive synchronise two ranks, not the group
                continue
            k = (op["group"], op_type(op["name"]))
            n = seq.get(k, 0)
            seq[k] = n + 1
            m[(op["group"], op_type(op["name"]), n)] = op
        keyed.append(m)
    ref_groups = []
    for op in sorted(ranks[0][1], key=lambda o: o["start_ns"]):
        if op["kind"] != "p2p" and op["group"] not in ref_groups:
            ref_groups.append(op["group"])
    # Pair each rank's groups with the reference's: by name, else by order.
    for i in range(1, len(ranks)):
        groups = []
        for op in sorted(ranks[i][1], key=lambda o: o["start_ns"]):
            if op["kind"] != "p2p" and op["group"] not in groups:
                groups.append(op["group"])
        left = [g for g in ref_groups if g not in groups]
        rename = {}
        for g in groups:
            if g not in ref_groups and left:
                rename[g] = left.pop(0)
                print("%s: group %s paired by order with %s" % (ranks[i][0], g, rename[g]), file=sys.stderr)
        keyed[i] = {(rename.get(g, g), t, n): op for (g, t, n), op in keyed[i].items()}
    ref = keyed[0]
    ordered = sorted(ref, key=lambda k: ref[k]["start_ns"])
    offsets = {ranks[0][0]: 0}
    for i in range(1, len(ranks)):
        diffs = [(keyed[i][k]["start_ns"] + keyed[i][k]["elapse_ns"]) - (ref[k]["start_ns"] + ref[k]["elapse_ns"])
                 for k in ordered if k in keyed[i]]
        est = median(diffs) if diffs else 0
        one_sign = all(x > 0 for x in diffs) or all(x < 0 for x in diffs)
        applied = len(diffs) >= MIN_SAMPLES and one_sign and abs(est) >= LATE_NS
        offsets[ranks[i][0]] = est if applied else 0
    out = []
    for k in ordered:
        members = [(ranks[i][0], keyed[i][k]) for i in range(len(ranks)) if k in keyed[i]]
        corrected = [(r, op["start_ns"] - offsets[r]) for r, op in members]
        earliest = min(c for _, c in corrected)
        late, late_c = None, None
        for r, c in corrected:
            if late_c is None or c > late_c:
                late, late_c = r, c
        max_skew = late_c - earliest
        lost, also = 0, []
        if max_skew >= LATE_NS:
            for r, c in corrected:
                if r == late:
                    continue
                if late_c - c >= LATE_NS:
                    lost += late_c - c
                elif c - earliest >= LATE_NS:
                    also.append(r)
        else:
            late = None
        if late is not None:
            for r, op in members:
                if r != late:
                    waited = late_c - dict(corrected)[r]
                    print("%s #%d: rank %d waited %d ns for rank %d, recorded synchronization %d ns" %
                          (k[1], k[2], r, waited, late, op["synchronization_ns"]), file=sys.stderr)
        out.append({"group": k[0], "type": k[1], "sequence": k[2], "step": members[0][1]["step"],
                    "names": {str(r): op["name"] for r, op in members}, "late_rank": late,
                    "max_skew_ns": max_skew, "lost_ns": lost, "also_late": sorted(also),
                    "skew_ns": {str(r): c - earliest for r, c in corrected},
                    "offsets_ns": {str(r): offsets[r] for r, _ in members}})
    return out


def capture(shared, rel, export):
    base = os.path.join(shared, "corpus", rel)
    if not os.path.isdir(base):
        return None
    ranks_out, ranks_ops = [], []
    for rank, folder in rank_folders(base):
        got = text_rank(folder) if export == "text" else db_rank(folder)
        if not got:
            continue
        ops, links, constant = got
        ops.sort(key=lambda o: o["start_ns"])
        if "SDMA" in links:
            parts = sum((links[t][0] for t in ("HCCS", "PCIE", "SIO") if t in links), Decimal(0))
            print("%s rank %d: SDMA %s MB, HCCS+PCIE+SIO %s MB" % (rel, rank, links["SDMA"][0], parts), file=sys.stderr)
        matrix = text_matrix(folder) if export == "text" else db_matrix(folder)
        ranks_out.append({"rank": rank, "start_offset_ns": constant, "ops": ops, "links": links_json(links),
                          "matrix": matrix_json(matrix)})
        ranks_ops.append((rank, ops))
    if not ranks_out:
        return None
    return {"capture": rel, "source": "communication.json" if export == "text" else "analysis.db",
            "ranks": ranks_out, "collectives": collectives(ranks_ops)}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shared", default=os.path.join(here, "..", "..", "..", "shared"))
    p.add_argument("--json", help="write the result here (else stdout)")
    args = p.parse_args()
    result = {"captures": [c for c in (capture(args.shared, rel, exp) for rel, exp in CAPTURES) if c]}
    text = json.dumps(result, indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
