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
  own TASK times: the constant is measured here from the rank's ascend_pytorch_profiler_N.db as
  the median over the ops of (recorded start - the earliest TASK.startNs of the op's small tasks,
  COMMUNICATION_TASK_INFO.opId = COMMUNICATION_OP.opId, TASK by globalTaskId); an op is the
  COMMUNICATION_OP of the same name (STRING_IDS) and occurrence, else the one whose first small
  task starts nearest the recorded start. ``start_ns`` is the recorded start minus it (the TASK
  clock, which npuscope shows); ``start_offset_ns`` is the constant (0 for communication.json).

Captures (under corpus/): ascend-pt-910b-l1-text-2rank, ascend-pt-cann83-l2-4rank-partial (its
communication.json; it also has analysis.db) and msinsight-server-fixtures test_rank_0 / test_rank_1
(text); ascend-pt-910b-db-2rank/level1 and ascend-pt-910a-db-2rank/level1 (database; level0 has
no CommAnalyzerTime). Ranks from profiler_info_N.json, else the folder name's digits. What is
absent is skipped (said on stderr).

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
   order. The same instance on two or more ranks is one collective (an instance held by one rank
   only is none: its peers were not captured). Groups are the groupName; only a rank that shares
   no group name at all with the reference (the lowest rank) and has as many groups pairs its
   groups with the reference's by order of first appearance. (The CANN 8.3 capture's names are
   not per-rank: every name there is shared by the ranks of one group, e.g. ...170 by ranks 0 and
   2, ...061 by ranks 1 and 3; names differ because the groups do, so nothing is paired by order.)
2. Reference = the lowest rank. Per other rank, the differences (end - the reference's end) over
   the shared instances, end = start + elapse; estimate = their median (even count: the floor of
   the mean of the two middle ones); applied when there are >= 3, all of one sign (all > 0 or all
   < 0), and |estimate| >= 50,000 ns; else the offset is 0.
3. corrected start = start - offset; skew = corrected start - the instance's earliest; the last
   rank is the first (in rank order) with the largest corrected start when its skew >= 50,000 ns,
   else null; lost = the sum over the other ranks that waited >= 50,000 ns of (last corrected start
   - their corrected start); also_late = the other ranks with skew >= 50,000 ns that waited less
   than 50,000 ns for it. These are the figures of a last rank that holds the collective. Whether
   it does, or a member outside the capture arrives later still, the recorded files cannot tell
   (they give no group rank and no per-peer wait): tools/oracles/holder_oracle.py answers that
   from the raw plane tasks. Collectives are listed by earliest corrected start, then key.

Cross-checks go to stderr (reports, not failures): the SDMA line of Total Op Info against the sum
of its HCCS, PCIE and SIO lines; where a late rank is named, the other ranks' recorded
synchronization against the time they waited; each rank's clock offset estimate; for the
database, the spread of the per-op constant and COMMUNICATION_OP.startNs against the op's first
small task.

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

# (capture folder under corpus/, export, rank folders or None for every *ascend_pt folder).
# The database captures' level0 folders have no CommAnalyzerTime and are left out.
CAPTURES = [
    ("ascend-pt-910b-l1-text-2rank", "text", None),
    ("ascend-pt-910b-db-2rank/level1", "db", None),
    ("ascend-pt-910a-db-2rank/level1", "db", None),
    ("ascend-pt-cann83-l2-4rank-partial", "text", None),
    ("msinsight-server-fixtures", "text", ("test_rank_0", "test_rank_1")),
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


def rank_folders(capture_dir, names=None):
    """[(rank, folder)] of a capture: rank from profiler_info_N.json, else the folder's digits."""
    out = []
    for entry in sorted(os.listdir(capture_dir)) if names is None else names:
        path = os.path.join(capture_dir, entry)
        if not os.path.isdir(path) or (names is None and not re.search(r"ascend_pt$", entry)):
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


def text_rank(folder, label=""):
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


def db_rank(folder, label=""):
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
    constant = task_clock_constant(os.path.join(out_dir, sorted(dbs)[0]), ops, label)
    for op in ops:
        op["start_ns"] -= constant
    return ops, links, constant


def task_clock_constant(db_path, ops, label=""):
    """The constant between CommAnalyzerTime.start_timestamp (ops' start_ns, still as recorded) and
    the database's TASK clock: the median over the ops of (recorded start - the earliest TASK.startNs
    of the op's small tasks, COMMUNICATION_TASK_INFO.opId = COMMUNICATION_OP.opId). An op is the
    COMMUNICATION_OP of the same name and occurrence (start order), else the one whose first task
    starts nearest the recorded start."""
    d = connect(db_path)
    comm = []  # [name, COMMUNICATION_OP.startNs, first small task startNs] in start order
    for name, op_start, first in d.execute(
            "SELECT s.value, o.startNs, (SELECT MIN(t.startNs) FROM COMMUNICATION_TASK_INFO c "
            "JOIN TASK t ON t.globalTaskId = c.globalTaskId WHERE c.opId = o.opId) "
            "FROM COMMUNICATION_OP o LEFT JOIN STRING_IDS s ON s.id = o.opName ORDER BY o.startNs, o.opId"):
        if first is not None:
            comm.append((name, op_start, first))
    d.close()
    by_name = {}
    for c in comm:
        by_name.setdefault(c[0], []).append(c)
    diffs, used, fallback = [], {}, 0
    for op in sorted(ops, key=lambda o: (o["start_ns"], o["name"])):
        k = used.get(op["name"], 0)
        used[op["name"]] = k + 1
        same = by_name.get(op["name"], [])
        if k < len(same):
            c = same[k]
        elif comm:
            c = min(comm, key=lambda x: (abs(op["start_ns"] - x[2]), x[2]))
            fallback += 1
        else:
            continue
        diffs.append(op["start_ns"] - c[2])
    constant = median(diffs) if diffs else 0
    op_vs_task = [c[1] - c[2] for c in comm]
    print("%s: start_timestamp - first TASK start: constant %d ns from %d ops (spread %s..%s ns, %d matched "
          "by nearest start); COMMUNICATION_OP.startNs - first small task start: %s" %
          (label, constant, len(diffs), min(diffs) - constant if diffs else "-",
           max(diffs) - constant if diffs else "-", fallback,
           "0 on all %d ops" % len(comm) if not any(op_vs_task) else
           "nonzero on %d of %d ops (%d..%d ns)" % (sum(1 for x in op_vs_task if x), len(comm),
                                                    min(op_vs_task), max(op_vs_task))), file=sys.stderr)
    return constant


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


def group_order(ops):
    """The groups of the non-p2p ops in order of first appearance (start order)."""
    out = []
    for op in sorted(ops, key=lambda o: (o["start_ns"], o["name"])):
        if op["kind"] != "p2p" and op["group"] not in out:
            out.append(op["group"])
    return out


def collectives(ranks, label=""):
    """The instances across `ranks` ([(rank, ops)] in rank order) by the rule of the docstring."""
    if len(ranks) < 2:
        return []
    ref_groups = group_order(ranks[0][1])
    keyed = []  # per rank: {(group, type, seq): op}
    for i, (rank, ops) in enumerate(ranks):
        groups = group_order(ops)
        rename = {}
        if i > 0 and groups and not set(groups) & set(ref_groups):
            if len(groups) == len(ref_groups):
                rename = dict(zip(groups, ref_groups))
                for g in groups:
                    print("%s: rank %d group %s paired by order with rank %d's %s" %
                          (label, rank, g, ranks[0][0], rename[g]), file=sys.stderr)
            else:
                print("%s: rank %d shares no group name with rank %d and has %d groups, not %d: not paired" %
                      (label, rank, ranks[0][0], len(groups), len(ref_groups)), file=sys.stderr)
        seq, m = {}, {}
        for op in sorted(ops, key=lambda o: (o["start_ns"], o["name"])):
            if op["kind"] == "p2p":  # send / receive synchronise two ranks, not the group
                continue
            k = (rename.get(op["group"], op["group"]), op_type(op["name"]))
            n = seq.get(k, 0)
            seq[k] = n + 1
            m[k + (n,)] = op
        keyed.append(m)
    ref = keyed[0]
    offsets = {ranks[0][0]: 0}
    for i in range(1, len(ranks)):
        diffs = [(keyed[i][k]["start_ns"] + keyed[i][k]["elapse_ns"]) - (ref[k]["start_ns"] + ref[k]["elapse_ns"])
                 for k in sorted(ref) if k in keyed[i]]
        est = median(diffs) if diffs else 0
        one_sign = all(x > 0 for x in diffs) or all(x < 0 for x in diffs)
        applied = len(diffs) >= MIN_SAMPLES and one_sign and abs(est) >= LATE_NS
        offsets[ranks[i][0]] = est if applied else 0
        print("%s: rank %d clock offset estimate %d ns from %d collectives shared with rank %d (ends %s..%s ns "
              "apart): %s" % (label, ranks[i][0], est, len(diffs), ranks[0][0], min(diffs) if diffs else "-",
                              max(diffs) if diffs else "-", "applied" if applied else "not applied, offset 0"),
              file=sys.stderr)
    keys = set()
    for m in keyed:
        keys.update(m)
    alone = sum(1 for k in keys if sum(1 for m in keyed if k in m) < 2)
    if alone:
        print("%s: %d op instances held by one rank only (no collective)" % (label, alone), file=sys.stderr)
    rows = []
    for k in keys:
        members = [(ranks[i][0], keyed[i][k]) for i in range(len(ranks)) if k in keyed[i]]
        if len(members) < 2:
            continue
        corrected = [(r, op["start_ns"] - offsets[r]) for r, op in members]
        rows.append((min(c for _, c in corrected), k, members, corrected))
    out = []
    for earliest, k, members, corrected in sorted(rows, key=lambda x: (x[0], x[1])):
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
                    sync = op["synchronization_ns"]
                    print("%s: %s %s #%d: rank %d waited %d ns for rank %d, recorded synchronization %d ns "
                          "(%+d ns, %s), recorded wait %d ns, transit %d ns" %
                          (label, k[0], k[1], k[2], r, waited, late, sync, sync - waited,
                           "%+.1f%%" % (100.0 * (sync - waited) / waited) if waited else "-", op["wait_ns"],
                           op["transit_ns"]), file=sys.stderr)
        out.append({"group": k[0], "type": k[1], "sequence": k[2], "step": members[0][1]["step"],
                    "names": {str(r): op["name"] for r, op in members}, "last_rank": late,
                    "max_skew_ns": max_skew, "lost_ns": lost, "also_late": sorted(also),
                    "skew_ns": {str(r): c - earliest for r, c in corrected},
                    "offsets_ns": {str(r): offsets[r] for r, _ in members}})
    return out


def sdma_check(label, links):
    """Total Op Info's SDMA line against the sum of its HCCS, PCIE and SIO lines (stderr)."""
    if "SDMA" not in links:
        return
    parts = [sum((links[t][n] for t in ("HCCS", "PCIE", "SIO") if t in links), Decimal(0)) for n in (0, 1)]
    size, time = links["SDMA"]
    print("%s: SDMA %s MB / %s ms, HCCS+PCIE+SIO %s MB / %s ms: %s" %
          (label, size, time, parts[0], parts[1],
           "equal" if (size, time) == tuple(parts) else "differ by %s MB / %s ms" % (size - parts[0], time - parts[1])),
          file=sys.stderr)


def capture(shared, rel, export, names=None):
    base = os.path.join(shared, "corpus", rel)
    if not os.path.isdir(base):
        print("%s: absent, skipped" % rel, file=sys.stderr)
        return None
    ranks_out, ranks_ops = [], []
    for rank, folder in rank_folders(base, names):
        label = "%s rank %d" % (rel, rank)
        got = text_rank(folder, label) if export == "text" else db_rank(folder, label)
        if not got:
            print("%s: no communication records, skipped" % label, file=sys.stderr)
            continue
        ops, links, constant = got
        ops.sort(key=lambda o: (o["start_ns"], o["name"]))
        sdma_check(label, links)
        matrix = text_matrix(folder) if export == "text" else db_matrix(folder)
        ranks_out.append({"rank": rank, "start_offset_ns": constant, "ops": ops, "links": links_json(links),
                          "matrix": matrix_json(matrix)})
        ranks_ops.append((rank, ops))
    if not ranks_out:
        return None
    return {"capture": rel, "source": "communication.json" if export == "text" else "analysis.db",
            "ranks": ranks_out, "collectives": collectives(ranks_ops, rel)}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shared", default=os.path.join(here, "..", "..", "..", "shared"))
    p.add_argument("--json", help="write the result here (else stdout)")
    args = p.parse_args()
    result = {"captures": [c for c in (capture(args.shared, rel, exp, names) for rel, exp, names in CAPTURES) if c]}
    text = json.dumps(result, indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
