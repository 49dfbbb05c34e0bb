#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent oracle for the holder of each HCCL collective (Python standard library only).

The holder is the member of a collective's group that arrives last: the one the others wait for
(docs/diagnosis.md §5.4 "The holder"). This script reads the RAW plane tasks the profilers write
and applies the rule as that section states it; it shares no code with npuscope.

Input, per rank of a capture:

* text export: ASCEND_PROFILER_OUTPUT/trace_view.json; msprof's legacy layout (MindSpore):
  device_N/timeline/msprof_{N}_{model}_{iter}.json, every iteration file read as one timeline. The
  HCCL process (process_name "HCCL"): ops are the slices of its threads whose name holds
  "Communication", plane tasks the slices of its "Plane p" threads; a task belongs to the op of
  the process that contains its start. Times are us in the file (read as Decimal, to int ns).
* database export: ascend_pytorch_profiler_N.db: COMMUNICATION_OP (ops, by opId) and
  COMMUNICATION_TASK_INFO joined with TASK by globalTaskId (the tasks: taskType as the task's
  name, planeId, srcRank, dstRank, linkType; strings from STRING_IDS). Rows whose planeId is
  4294967295 (Level0 writes its kernels so, type N/A) are no plane tasks.

The rule, written from docs/diagnosis.md §5.4:

1. Ops match across ranks by (group, type, sequence): group = the digits after "hcom_<type>__" in
   the name, else the op thread's name; type = the name between "hcom_" and the next "_", else the
   name less its trailing digits, "_" and "-"; sequence = the index among the rank's ops of that
   group and type by start. Point-to-point types (send, receive, recv, batchSendRecv) are left out.
2. Clock offset per rank against the lowest rank: the median (floor of the middle two's mean) of
   its op ends less the reference's over the shared collectives; applied when >= 3 of them, all of
   one sign, and |median| >= 50 us; else 0. corrected start = start - offset.
3. Per op: its group rank = srcRank of its tasks; peers = dstRank of its Notify_Wait and transfer
   tasks (a task not named Notify* whose link type is not ON_CHIP), other than itself and below
   2^31 - 1; ready = the start of its first Notify_Record to a peer; the first Notify_Wait on each
   peer (earliest start, any plane); blocked waits: Notify_Waits of at least max(50 us, 2 x the op's
   longest transfer task).
4. Outside members (group ranks no loaded rank is): arrival = the latest end, over the loaded
   ranks, of a first wait on it that lasted >= 50 us, less that rank's offset and its preamble
   (ready - start); without such a wait it is not a candidate.
5. Holder = the outside candidate with the latest arrival when it is >= 50 us after the last loaded
   rank's corrected start, else the last loaded rank (the latest corrected start, first in rank order
   on ties).
6. Status: "unverified" when no op of the collective has plane tasks; else "known", unless not every
   member is seen (fewer than two loaded ranks with plane tasks, or no loaded rank names, with
   itself, every group rank 0..n-1 that any loaded rank names) and the rank that saw the holder arrive (the loaded holder itself, or the rank whose wait
   gave the outside holder's arrival) is held afterwards: a loaded holder with any blocked wait, an
   outside holder whose witness has a blocked wait ending >= 50 us after that first wait's end
   (both less offset and preamble) -> "unknown". When that rank is the only loaded one with plane
   tasks and the group ranks it names (itself and its peers) are not 0..m, every Notify_Wait of
   >= 50 us counts as blocked there (no allowance for the transfers). Finally "none" (no holder) when the status is not
   unknown and the holder's arrival is < 50 us after the earliest loaded corrected start.
7. Without plane tasks (status "unverified" above): "unknown" when the last loaded rank's op lasts
   >= 50 us longer and >= 4x as long as its element count (the op's `count` arg, COMMUNICATION_OP
   .count) takes at the best count/duration of that rank's ops of the same group and type.
8. With every member seen and a loaded holder: "contradicted" when no loaded rank starting >= 50 us
   before the holder has a first wait on it lasting >= 50 us, and one such rank's first wait on it
   ends (less its offset) >= 50 us before the holder's arrival.

Output (--json): {"captures": [{"capture", "collectives": [{"group", "type", "sequence", "status",
"holder_group_rank", "holder_rank" (null outside the capture), "after_last_loaded_ns", "waits_ns": {rank:
what it waits for the holder, ns}}]}]}.

Usage: python3 tools/oracles/holder_oracle.py [--shared /work/shared] [--json OUT]
"""

import argparse
import glob
import json
import os
import re
import sqlite3
import sys
import urllib.parse
from decimal import Decimal

LATE_NS = 50_000
MIN_SAMPLES = 3
NO_RANK = 2**31 - 1

CAPTURES = [
    ("ascend-pt-910b-l1-text-2rank", "text"),
    ("ascend-pt-910b-l0-text-2rank", "text"),
    ("ascend-pt-910a-l0-text-2rank", "text"),
    ("ascend-pt-910b-db-2rank/level1", "db"),
    ("ascend-pt-910b-db-2rank/level0", "db"),
    ("ascend-pt-910a-db-2rank/level1", "db"),
    ("ascend-pt-910a-db-2rank/level0", "db"),
    ("mindspore-msprof-prof-2dev", "msprof"),
    # One rank opened alone: its own first waits tell its group's arrivals.
    ("ascend-pt-910b-l1-text-2rank/rank0_ascend_pt", "text"),
    ("ascend-pt-910a-db-2rank/level1/rank1_ascend_pt", "db"),
    ("mindspore-msprof-prof-2dev/PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0", "msprof"),
    ("mindspore-msprof-prof-2dev/PROF_000001_20230818142704567_GQFAMHBKGODKJMLA/device_1", "msprof"),
]


def rank_folders(capture_dir, pattern):
    """The folders matching `pattern` under capture_dir, or capture_dir itself when it is one."""
    here = os.path.basename(os.path.normpath(capture_dir))
    if re.fullmatch(pattern.replace("*", ".*"), here):
        return [capture_dir]
    return sorted(glob.glob(os.path.join(capture_dir, pattern)))


def us_to_ns(v):
    d = Decimal(str(v)) * 1000
    return int(d.to_integral_value())


def op_type(name):
    if name.startswith("hcom_"):
        return name[5:].split("_", 1)[0]
    return re.sub(r"[\d_\-]+$", "", name) or name


def group_of(name, thread):
    m = re.match(r"hcom_[^_]+_+(\d+)", name)
    return m.group(1) if m else thread


def as_rank(v):
    try:
        v = int(v)
    except (TypeError, ValueError):
        return -1
    return v if 0 <= v < NO_RANK else -1


def as_count(v):
    """An op's element count (its `count` arg or column), -1 when absent or not a positive integer."""
    try:
        n = int(v)
    except (TypeError, ValueError):
        return -1
    return n if n > 0 else -1


def task(plane, name, start, end, src, dst, link):
    return {"plane": plane, "name": name, "start": start, "end": end, "src": as_rank(src), "dst": as_rank(dst),
            "link": link or ""}


def events_ops(events, thread_group=True):
    """Ops with their tasks from trace events (text and msprof JSON)."""
    pname, tname = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            pname[e["pid"]] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            tname[(e["pid"], e["tid"])] = e["args"]["name"]
    hccl = {p for p, n in pname.items() if n == "HCCL"}
    ops, tasks = [], []
    for e in events:
        if e.get("ph") != "X" or e.get("pid") not in hccl:
            continue
        t = tname.get((e["pid"], e["tid"]), "")
        start = us_to_ns(e["ts"])
        end = start + us_to_ns(e.get("dur", 0))
        if "Communication" in t:
            ops.append({"name": e["name"], "group": group_of(e["name"], t), "pid": e["pid"], "start": start, "end": end,
                        "count": as_count((e.get("args") or {}).get("count")), "tasks": []})
        elif t.startswith("Plane"):
            a = e.get("args") or {}
            tasks.append((e["pid"], task(t, e["name"], start, end, a.get("src rank"), a.get("dst rank"), a.get("link type"))))
    ops.sort(key=lambda o: o["start"])
    for pid, tk in tasks:
        owner = None
        for o in ops:
            if o["pid"] == pid and o["start"] <= tk["start"] <= o["end"]:
                owner = o
        if owner:
            owner["tasks"].append(tk)
    return ops


def load_json_events(path):
    with open(path, encoding="utf-8") as f:
        d = json.load(f, parse_float=Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d


def text_ranks(capture_dir):
    out = []
    for folder in rank_folders(capture_dir, "*_ascend_pt"):
        info = glob.glob(os.path.join(folder, "profiler_info_*.json"))
        rank = int(re.search(r"profiler_info_(\d+)", info[0]).group(1)) if info else int(re.search(r"(\d+)", os.path.basename(folder)).group(1))
        out.append((rank, events_ops(load_json_events(os.path.join(folder, "ASCEND_PROFILER_OUTPUT", "trace_view.json")))))
    return sorted(out, key=lambda x: x[0])


def msprof_ranks(capture_dir):
    out = []
    devs = [capture_dir] if re.fullmatch(r"device_\d+", os.path.basename(os.path.normpath(capture_dir))) else \
        sorted(glob.glob(os.path.join(capture_dir, "PROF_*", "device_*")))
    for dev in devs:
        info = [f for f in glob.glob(os.path.join(dev, "info.json.*")) if not f.endswith(".done")]
        rank = json.load(open(info[0])).get("rank_id") if info else None
        if rank is None:
            rank = int(dev.rsplit("_", 1)[1])
        files = sorted(glob.glob(os.path.join(dev, "timeline", "msprof_*.json")),
                       key=lambda p: int(re.search(r"_(\d+)\.json$", p).group(1)))
        events = []
        for f in files:
            events.extend(load_json_events(f))
        out.append((int(rank), events_ops(events)))
    return sorted(out, key=lambda x: x[0])


def db_ranks(capture_dir):
    out = []
    for db in [d for f in rank_folders(capture_dir, "*_ascend_pt")
               for d in sorted(glob.glob(os.path.join(f, "ASCEND_PROFILER_OUTPUT", "ascend_pytorch_profiler_*.db")))]:
        rank = int(re.search(r"profiler_(\d+)\.db$", db).group(1))
        c = sqlite3.connect("file:" + urllib.parse.quote(os.path.abspath(db)) + "?immutable=1", uri=True)
        s = dict(c.execute("select id, value from STRING_IDS"))
        ops = {}
        cols = {r[1] for r in c.execute("pragma table_info(COMMUNICATION_OP)")}
        count = "count" if "count" in cols else "null"
        for name, start, end, group, op_id, n_el in c.execute(
                "select opName, startNs, endNs, groupName, opId, %s from COMMUNICATION_OP" % count):
            n = s.get(name, str(name))
            ops[op_id] = {"name": n, "group": group_of(n, str(s.get(group, group))), "start": start, "end": end,
                          "count": as_count(n_el), "tasks": []}
        have = {r[0] for r in c.execute("select name from sqlite_master where type='table'")}
        if "COMMUNICATION_TASK_INFO" in have:
            # The task's own name is its taskType (Notify_Wait, Memcpy, ...); `name` is the op's.
            q = ("select i.opId, i.taskType, i.planeId, i.srcRank, i.dstRank, i.linkType, t.startNs, t.endNs from "
                 "COMMUNICATION_TASK_INFO i join TASK t on i.globalTaskId = t.globalTaskId")
            for op_id, name, plane, src, dst, link, start, end in c.execute(q):
                # Level0 writes one row per kernel with planeId 4294967295 and type N/A: no plane task.
                if op_id in ops and as_rank(plane) >= 0:
                    ops[op_id]["tasks"].append(task(plane, s.get(name, str(name)), start, end, src, dst, s.get(link, link)))
        out.append((rank, sorted(ops.values(), key=lambda o: o["start"])))
    return sorted(out, key=lambda x: x[0])


def is_wait(t):
    return t["name"].lower().startswith("notify") and "wait" in t["name"].lower()


def is_record(t):
    return t["name"].lower().startswith("notify") and "wait" not in t["name"].lower()


def is_transfer(t):
    return not t["name"].lower().startswith("notify") and t["link"] != "ON_CHIP"


def op_facts(op):
    """Group rank, peers, preamble, first waits per peer and the last blocked wait end of an op."""
    ts = sorted(op["tasks"], key=lambda t: t["start"])
    self_rank = next((t["src"] for t in ts if t["src"] >= 0), -1)
    peers, first = set(), {}
    ready, longest = None, 0
    for t in ts:
        if (is_wait(t) or is_transfer(t)) and t["dst"] >= 0 and t["dst"] != self_rank:
            peers.add(t["dst"])
        if is_record(t) and t["dst"] >= 0 and t["dst"] != self_rank and ready is None:
            ready = t["start"]
        if is_wait(t) and t["dst"] >= 0 and t["dst"] != self_rank and t["dst"] not in first:
            first[t["dst"]] = t
        if is_transfer(t):
            longest = max(longest, t["end"] - t["start"])
    blocking = max(LATE_NS, 2 * longest)
    blocked = [t["end"] for t in ts if is_wait(t) and t["end"] - t["start"] >= blocking]
    long_waits = [t["end"] for t in ts if is_wait(t) and t["end"] - t["start"] >= LATE_NS]
    named = peers | ({self_rank} if self_rank >= 0 else set())
    return {"self": self_rank, "peers": peers, "preamble": (ready - op["start"]) if ready is not None else 0,
            "first": first, "last_blocked": max(blocked) if blocked else None,
            "last_long": max(long_waits) if long_waits else None,
            "gap": bool(named) and (min(named) != 0 or max(named) != len(named) - 1), "tasks": bool(ts)}


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) // 2


def collectives(ranks):
    keyed = []
    for rank, ops in ranks:
        seq, m = {}, {}
        for op in ops:
            t = op_type(op["name"])
            if re.match(r"(send|receive|recv|batchsendrecv)", t, re.I):
                continue
            n = seq.get((op["group"], t), 0)
            seq[(op["group"], t)] = n + 1
            m[(op["group"], t, n)] = op
        keyed.append((rank, m))
    ref_rank, ref = keyed[0]
    offsets = {ref_rank: 0}
    for rank, m in keyed[1:]:
        diffs = [m[k]["end"] - ref[k]["end"] for k in ref if k in m]
        est = median(diffs) if diffs else 0
        one_sign = all(x > 0 for x in diffs) or all(x < 0 for x in diffs)
        offsets[rank] = est if len(diffs) >= MIN_SAMPLES and one_sign and abs(est) >= LATE_NS else 0
    out = []
    for k in sorted({k for _, m in keyed for k in m}, key=lambda k: (k[0], k[1], k[2])):
        members = [(rank, m[k]) for rank, m in keyed if k in m]
        # A collective of one loaded rank is told only by its plane tasks (its first waits).
        if len(members) < 2 and not members[0][1]["tasks"]:
            continue
        same = {rank: [op for kk, op in m.items() if kk[0] == k[0] and kk[1] == k[1]] for rank, m in keyed}
        out.append(holder(k, members, offsets, same))
    return out


def held_inside(op, same):
    """Rule 7: (held, expected) when an op without plane tasks lasts >= 50 us longer and >= 4x as
    long as its count at the best count/duration of `same` (its rank's ops of that group and type)."""
    if op["count"] <= 0 or op["end"] <= op["start"]:
        return None
    rate = max((o["count"] / (o["end"] - o["start"]) for o in same if o["count"] > 0 and o["end"] > o["start"]), default=0)
    if rate <= 0:
        return None
    elapse = op["end"] - op["start"]
    expected = int(op["count"] / rate)
    if elapse - expected < LATE_NS or elapse < 4 * expected:
        return None
    return elapse - expected, expected


def holder(k, members, offsets, same):
    facts = {r: op_facts(op) for r, op in members}
    start = {r: op["start"] - offsets[r] for r, op in members}
    last = max(members, key=lambda m: (start[m[0]], -m[0]))[0]
    loaded = {f["self"] for f in facts.values() if f["self"] >= 0}
    outside = {}  # group rank -> (arrival, witness rank, its wait end in start terms)
    for r, _ in members:
        f = facts[r]
        for peer, t in f["first"].items():
            if peer in loaded or t["end"] - t["start"] < LATE_NS:
                continue
            at = t["end"] - offsets[r] - f["preamble"]
            if peer not in outside or at > outside[peer][0]:
                outside[peer] = (at, r)
    res = {"group": k[0], "type": k[1], "sequence": k[2]}
    best = max(outside.items(), key=lambda kv: (kv[1][0], -kv[0])) if outside else None
    if best and best[1][0] - start[last] >= LATE_NS:
        h_group, h_rank, arrival, witness = best[0], None, best[1][0], best[1][1]
    else:
        h_group, h_rank, arrival, witness = facts[last]["self"], last, start[last], last
    if not any(f["tasks"] for f in facts.values()):
        status = "unverified"
        if held_inside(dict(members)[last], same[last]):
            status = "unknown"
    else:
        status = "known"
        members_seen = set(loaded)
        for f in facts.values():
            members_seen |= f["peers"]
        complete = (sum(1 for f in facts.values() if f["tasks"]) >= 2 and
                    members_seen and min(members_seen) == 0 and max(members_seen) == len(members_seen) - 1 and
                    any(f["tasks"] and f["self"] >= 0 and len(f["peers"]) + 1 == len(members_seen) for f in facts.values()))
        if not complete:
            f = facts[witness]
            alone = sum(1 for g in facts.values() if g["tasks"]) < 2
            last_held = f["last_long"] if alone and f["gap"] else f["last_blocked"]
            if last_held is not None:
                held = last_held - offsets[witness] - f["preamble"]
                if h_rank is not None or held - arrival >= LATE_NS:
                    status = "unknown"
        elif h_rank is not None:
            # Rule 8: the ranks before a loaded holder must see it late.
            blocked, early = False, False
            for r, _ in members:
                if r == h_rank or arrival - start[r] < LATE_NS or not facts[r]["tasks"]:
                    continue
                t = facts[r]["first"].get(h_group)
                if t is None:
                    continue
                if t["end"] - t["start"] >= LATE_NS:
                    blocked = True
                elif arrival - (t["end"] - offsets[r]) >= LATE_NS:
                    early = True
            if early and not blocked:
                status = "contradicted"
    if status != "unknown" and arrival - min(start.values()) < LATE_NS:
        status = "none"
    # What each loaded rank waits for the holder: its arrival - the rank's corrected start, for the
    # ranks that arrive at least 50 us before it (a known or unverified holder only).
    waits = {}
    if status in ("known", "unverified"):
        for r, _ in members:
            if r != h_rank and arrival - start[r] >= LATE_NS:
                waits[str(r)] = arrival - start[r]
    res.update({"status": status, "holder_group_rank": h_group if h_group is not None and h_group >= 0 else None,
                "holder_rank": h_rank, "after_last_loaded_ns": arrival - start[last], "waits_ns": waits})
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--shared", default=os.path.join(here, "..", "..", "..", "shared"))
    ap.add_argument("--json", help="write the result here (default: stdout)")
    args = ap.parse_args()
    readers = {"text": text_ranks, "db": db_ranks, "msprof": msprof_ranks}
    caps = []
    for rel, kind in CAPTURES:
        d = os.path.join(args.shared, "corpus", rel)
        if not os.path.isdir(d):
            print("%s: absent, skipped" % rel, file=sys.stderr)
            continue
        ranks = [r for r in readers[kind](d) if r[1]]
        caps.append({"capture": rel, "collectives": collectives(ranks) if ranks else []})
    text = json.dumps({"captures": caps}, indent=1, sort_keys=True) + "\n"
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
