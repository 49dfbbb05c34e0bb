#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent Top-Down diagnosis oracle for Ascend NPU traces (Python standard library only).

A second route to npuscope's Top-Down diagnosis, written from docs/diagnosis.md (the "diagnosis
rules" spec) and ../shared/docs/ascend-profiling-format.md sections 2-4, without any npuscope code.
Per rank and device it computes:

* the overlap shares (Computing, Communication, Communication(Not Overlapped), Free, e2e) for the
  whole capture and per step, plus the same figures summed from the trace's own Overlap Analysis
  lanes, and the step_trace_time.csv row; without ProfilerStep#N, msprof's `Iteration N` slices
  are the steps and the Free reaching across from one to the next is the wait between
  iterations (`between_iterations_ns`), not Free (docs/diagnosis.md §2.1);
* the verdict (dominant share, the "free > 10%" second finding, the bubble cause holding the most time);
* every device bubble (Free interval >= 10 us) with its cause, launch timing and dispatch chain;
* the clock-skew bound; the kernels table, by name and by kernel_details Type, and op_statistic.csv.

Exactness: ts/dur are turned into int ns from their decimal text (never through a float), rounded
half away from zero beyond 3 decimals. CSV times likewise.

Usage: python3 tools/oracles/topdown_oracle.py [--shared /work/shared] [--json tests/data/topdown_oracle.json]
Cross-checks (computed vs step_trace_time.csv, vs Overlap Analysis lanes, kernels_by_type vs
op_statistic.csv) go to stderr; they are reports, not failures.
"""

import argparse
import bisect
import csv
import glob
import io
import json
import os
import re
import sys
from collections import defaultdict

THRESHOLD_NS = 10000
FIRST_CALL_MIN_GAP_NS = 1000000  # docs/diagnosis.md §3 rule 10: the first-call rule judges gaps of 1 ms or more

# --------------------------------------------------------------------------------------- numbers


class Raw(str):
    """A JSON number kept as its exact source text."""


def to_ns(value):
    """Microseconds given as text or Raw number -> int ns, exact; half away from zero past 3 decimals."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value * 1000
    s = str(value).strip()
    if not s:
        return None
    neg = s.startswith("-")
    if s[0] in "+-":
        s = s[1:]
    exp = 0
    low = s.lower()
    if "e" in low:
        mant, e = low.split("e", 1)
        s, exp = mant, int(e)
    ip, _, fp = s.partition(".")
    ip = ip or "0"
    if not (ip + fp).isdigit():
        return None
    digits = ip + fp
    point = len(ip) + exp + 3
    if point <= 0:
        whole, rest = "0", "0" * (-point) + digits
    elif point >= len(digits):
        whole, rest = digits + "0" * (point - len(digits)), ""
    else:
        whole, rest = digits[:point], digits[point:]
    ns = int(whole)
    if rest and rest[0] >= "5":
        ns += 1
    return -ns if neg else ns


def load_json_events(path):
    with open(path, "rb") as fh:
        data = fh.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8", errors="replace").strip()
    if text.endswith("]"):
        body = text[:-1].rstrip()
        if body.endswith(","):
            text = body[:-1] + "]"
    doc = json.loads(text, parse_float=Raw, parse_int=Raw)
    if isinstance(doc, dict):
        doc = doc.get("traceEvents", [])
    return doc if isinstance(doc, list) else []


def tok(v):
    """Opaque key text of a pid / tid / flow id (raw token text)."""
    if v is None:
        return ""
    if isinstance(v, str):
        return str(v)
    return json.dumps(v)


def sort_num(v):
    try:
        return (0, int(str(v)))
    except ValueError:
        return (1, str(v))


# --------------------------------------------------------------------------------------- model


class Slice:
    __slots__ = ("lane", "name", "cat", "start", "end", "dur", "args", "order", "parent", "depth")

    def __init__(self, lane, name, cat, start, dur, args, order):
        self.lane, self.name, self.cat = lane, name, cat
        self.start, self.dur, self.end = start, dur, start + dur
        self.args, self.order = args, order
        self.parent, self.depth = None, 0

    def ancestors_and_self(self):
        s = self
        while s is not None:
            yield s
            s = s.parent

    def brief(self):
        return {"name": self.name, "start": self.start}


class Flow:
    __slots__ = ("cat", "sid", "s_lane", "s_ts", "f_lane", "f_ts", "src", "dst")


class Rank:
    """One timeline: one trace_view.json, or all msprof_*.json of one legacy device_N folder."""

    def __init__(self, paths, legacy_device=None):
        self.proc_name, self.proc_label, self.proc_sort = {}, {}, {}
        self.thread_name, self.thread_sort = {}, {}
        self.lanes = defaultdict(list)
        raw_flows = []
        order = 0
        for path in paths:
            for e in load_json_events(path):
                order += 1
                if not isinstance(e, dict):
                    continue
                ph = e.get("ph")
                pid, tid = tok(e.get("pid")), tok(e.get("tid"))
                if ph == "M":
                    a = e.get("args") or {}
                    n = e.get("name")
                    if n == "process_name":
                        self.proc_name[pid] = str(a.get("name"))
                    elif n == "process_labels":
                        self.proc_label[pid] = str(a.get("labels"))
                    elif n == "process_sort_index":
                        self.proc_sort[pid] = a.get("sort_index")
                    elif n == "thread_name":
                        self.thread_name[(pid, tid)] = str(a.get("name"))
                    elif n == "thread_sort_index":
                        self.thread_sort[(pid, tid)] = a.get("sort_index")
                elif ph in ("X", "i", "I"):
                    ts = to_ns(e.get("ts"))
                    if ts is None:
                        continue
                    dur = to_ns(e.get("dur")) if ph == "X" else 0
                    if dur is None or dur < 0:
                        dur = 0
                    self.lanes[(pid, tid)].append(Slice((pid, tid), str(e.get("name", "")), e.get("cat"),
                                                        ts, dur, e.get("args") or {}, order))
                elif ph in ("s", "f"):
                    ts = to_ns(e.get("ts"))
                    if ts is None:
                        continue
                    raw_flows.append((order, ph, e.get("cat"), tok(e.get("id")), (pid, tid), ts, e.get("bp")))
        self.legacy_device = legacy_device
        self.starts = {}
        for lk, lane in self.lanes.items():
            lane.sort(key=lambda s: (s.start, -s.dur, s.order))
            stack = []
            for s in lane:
                while stack and not (stack[-1].start <= s.start < stack[-1].end or
                                     (stack[-1].start == stack[-1].end == s.start)):
                    stack.pop()
                if stack:
                    s.parent = stack[-1]
                    s.depth = stack[-1].depth + 1
                stack.append(s)
            self.starts[lk] = [s.start for s in lane]
        self._pair(raw_flows)

    # -- metadata helpers
    def pname(self, lk):
        return self.proc_name.get(lk[0])

    def tname(self, lk):
        return self.thread_name.get(lk, "")

    def device_of_pid(self, pid):
        if self.legacy_device is not None:
            return self.legacy_device
        lab = self.proc_label.get(pid)
        if lab is None:
            return None
        m = re.fullmatch(r"\s*NPU\s*(\d+)?\s*", lab)
        if not m:
            return None
        return int(m.group(1)) if m.group(1) is not None else -1

    def lane_rank(self, lk):
        ps = self.proc_sort.get(lk[0])
        ts = self.thread_sort.get(lk)
        return (sort_num(ps if ps is not None else 1 << 40), sort_num(lk[0]),
                sort_num(ts if ts is not None else lk[1]), sort_num(lk[1]))

    # -- binding
    def enclosing(self, lk, ts):
        lane = self.lanes.get(lk)
        if not lane:
            return None
        hi = bisect.bisect_right(self.starts[lk], ts)
        best = None
        for s in lane[:hi]:
            if s.start <= ts < s.end or s.start == s.end == ts:
                if best is None or s.depth >= best.depth:
                    best = s
        return best

    def next_at_or_after(self, lk, ts):
        lane = self.lanes.get(lk)
        if not lane:
            return None
        i = bisect.bisect_left(self.starts[lk], ts)
        return lane[i] if i < len(lane) else None

    def _pair(self, raw):
        by_key = defaultdict(lambda: ([], []))
        for fe in raw:
            by_key[(fe[2], fe[3])][0 if fe[1] == "s" else 1].append(fe)
        self.flows = []
        self.flows_to = defaultdict(list)     # id(dst slice) -> [Flow]
        self.flows_from = defaultdict(list)   # id(src slice) -> [Flow]
        for (cat, fid), (ss, fs) in by_key.items():
            if not ss:
                continue
            for f in fs:
                prev = [s for s in ss if s[0] < f[0]]
                s = prev[-1] if prev else ss[0]
                fl = Flow()
                fl.cat, fl.sid = cat, fid
                fl.s_lane, fl.s_ts, fl.f_lane, fl.f_ts = s[4], s[5], f[4], f[5]
                fl.src = self.enclosing(s[4], s[5])
                fl.dst = self.enclosing(f[4], f[5]) if f[6] == "e" else self.next_at_or_after(f[4], f[5])
                self.flows.append(fl)
                if fl.dst is not None:
                    self.flows_to[id(fl.dst)].append(fl)
                if fl.src is not None:
                    self.flows_from[id(fl.src)].append(fl)

    def slices_of(self, pred):
        for lk, lane in self.lanes.items():
            if pred(lk):
                yield from lane


# --------------------------------------------------------------------------------------- intervals


def union(ivs):
    out = []
    for a, b in sorted(ivs):
        if b <= a:
            continue
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1][1] = b
        else:
            out.append([a, b])
    return [tuple(x) for x in out]


def subtract(a_ivs, b_ivs):
    """Merged a minus merged b."""
    out, j = [], 0
    for a, b in a_ivs:
        cur = a
        while j < len(b_ivs) and b_ivs[j][1] <= cur:
            j += 1
        k = j
        while k < len(b_ivs) and b_ivs[k][0] < b:
            x, y = b_ivs[k]
            if x > cur:
                out.append((cur, x))
            cur = max(cur, y)
            k += 1
        if cur < b:
            out.append((cur, b))
    return out


def total(ivs):
    return sum(b - a for a, b in ivs)


def overlap(s, a, b):
    return max(0, min(s.end, b) - max(s.start, a))


# --------------------------------------------------------------------------------------- CSV


def read_csv(path):
    if not os.path.exists(path):
        return None
    with open(path, "rb") as fh:
        text = fh.read().decode("utf-8-sig", errors="replace")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        return []
    head = [h.strip() for h in rows[0]]
    out = []
    for r in rows[1:]:
        if not any(c.strip() for c in r):
            continue
        out.append({h: (r[i].strip() if i < len(r) else "") for i, h in enumerate(head)})
    return out


# --------------------------------------------------------------------------------------- classification

COMPUTE_TYPES = {"AI_CORE", "AI_VECTOR_CORE", "AI_CPU", "MIX_AIC", "MIX_AIV", "FFTS_PLUS", "DSA_SQE"}
NON_COMPUTE_PREFIX = ("MEMCPY", "Memcpy", "Memcopy", "EVENT_", "Notify", "SDMA", "Write Value", "PROFILING_",
                      "PLACE_HOLDER", "hcom", "STREAM_", "KERNEL_", "Reduce_Inline", "RDMA")
COPY_PREFIX = ("MEMCPY", "Memcpy", "SDMA", "PCIE_DMA")
WAIT_PREFIX = ("EVENT_WAIT", "Notify_Wait", "Notify Wait")
SYNC_WORDS = ("aclrtSynchronize", "SynchronizeStream", "SynchronizeDevice", "aten::item",
              "aten::_local_scalar_dense", "Tensor.item", "aten::nonzero", "aten::is_nonzero")
H2D_WORDS = ("aclrtMemcpy", "acl_memcpy_host_to_device", "MemcpyAsync", "aten::pin_memory")


def never_compute(name):
    return name.endswith("AivKernel") or name.endswith("AicpuKernel")


def compute_by_type(task):
    if never_compute(task.name):
        return False
    tt = task.args.get("Task Type") if isinstance(task.args, dict) else None
    tt = "" if tt is None else str(tt)
    if tt in COMPUTE_TYPES:
        return True
    if tt in ("Other", "N/A", ""):
        return not task.name.startswith(NON_COMPUTE_PREFIX)
    return False


def is_dataloader(name):
    return "DataLoader" in name or "dataloader" in name


def is_copy_task(name):
    return name.startswith(COPY_PREFIX)


def is_wait_task(name):
    return name.startswith(WAIT_PREFIX) or name.endswith("_WAIT_SQE")


# --------------------------------------------------------------------------------------- analysis


class Device:
    def __init__(self, rank, d, out_dir, notes):
        self.rank, self.d, self.notes = rank, d, notes
        R = rank
        # device tasks: the Ascend Hardware process of device d; the legacy "Step Trace" lane
        # (Iteration / FP_BP Time / Reduce ... slices) is not device work and is left out.
        self.task_lanes = sorted(
            [lk for lk in R.lanes if R.pname(lk) == "Ascend Hardware" and R.device_of_pid(lk[0]) == d
             and not R.tname(lk).startswith("Step Trace")], key=R.lane_rank)
        self.lane_idx = {lk: i for i, lk in enumerate(self.task_lanes)}
        self.tasks = [s for lk in self.task_lanes for s in R.lanes[lk]]
        self.task_ids = {id(t) for t in self.tasks}
        self.kd = read_csv(os.path.join(out_dir, "kernel_details.csv")) if out_dir else None
        self.ops = read_csv(os.path.join(out_dir, "op_statistic.csv")) if out_dir else None
        self.stt = read_csv(os.path.join(out_dir, "step_trace_time.csv")) if out_dir else None
        self._match_kernels()
        if self.kd is not None:
            comp = [t for t in self.tasks if id(t) in self.kd_match and not never_compute(t.name)]
        else:
            comp = [t for t in self.tasks if compute_by_type(t)]
        self.compute_tasks = comp
        C = union([(t.start, t.end) for t in comp])
        comm_lanes = [lk for lk in R.lanes if R.pname(lk) in ("Communication", "HCCL")
                      and R.device_of_pid(lk[0]) == d and not R.tname(lk).startswith("Plane")]
        self.comm_ops = [s for lk in comm_lanes for s in R.lanes[lk] if s.depth == 0]
        M_raw = [(s.start, s.end) for s in self.comm_ops]
        if not M_raw:
            M_raw = [(t.start, t.end) for t in self.tasks if t.name.startswith("hcom_")]
        M = union(M_raw)
        self.C, self.M = C, M
        CM = union(C + M)
        if CM:
            self.begin, self.end = CM[0][0], CM[-1][1]
            self.free = subtract([(self.begin, self.end)], CM)
        else:
            self.begin = self.end = None
            self.free = []
        self.not_ov = subtract(M, C)
        # msprof iterations as steps (docs/diagnosis.md §2.1): the Free intervals reaching across
        # from one Iteration N slice's end to the next one's start are the wait between
        # iterations, taken out of Free.
        self.between = []
        its = self.iterations()
        if len(its) >= 2:
            keep = []
            for a, b in self.free:
                if any(e0 < s1 and a < s1 and b > e0 for (_, _, e0), (_, s1, _) in zip(its, its[1:])):
                    self.between.append((a, b))
                else:
                    keep.append((a, b))
            self.free = keep

    # -- kernel_details matching: each row takes one task with the same start ns (same name first)
    def _match_kernels(self):
        self.kd_match = {}   # id(task) -> row
        self.kd_unmatched = 0
        self.kd_ambiguous = 0
        self.kd_other_name = []
        if self.kd is None:
            return
        by_start = defaultdict(list)
        for t in sorted(self.tasks, key=lambda t: (t.start, self.lane_idx[t.lane], t.order)):
            by_start[t.start].append(t)
        for row in self.kd:
            st = to_ns(row.get("Start Time(us)", ""))
            cands = [t for t in by_start.get(st, []) if id(t) not in self.kd_match]
            if len(cands) > 1:
                self.kd_ambiguous += 1
            same = [t for t in cands if t.name == row.get("Name", "")]
            if not same:
                # start-only matching would take an unrelated task here (the hcom_* big-op rows
                # of kernel_details start at the same ns as an HCCL MEMCPY/SDMA task)
                if cands:
                    self.kd_other_name.append((row.get("Name", ""), cands[0].name))
                self.kd_unmatched += 1
                continue
            self.kd_match[id(same[0])] = row

    def whole(self):
        if self.begin is None:
            return {"computing_ns": 0, "communication_ns": 0, "comm_not_overlapped_ns": 0, "free_ns": 0, "e2e_ns": 0,
                    "between_iterations_ns": 0}
        return {"computing_ns": total(self.C), "communication_ns": total(self.M),
                "comm_not_overlapped_ns": total(self.not_ov), "free_ns": total(self.free),
                "e2e_ns": self.end - self.begin, "between_iterations_ns": total(self.between)}

    def iterations(self):
        """msprof's `Iteration N` slices of a `Step Trace...` lane, (N, start, end) by start; only
        when the trace has no ProfilerStep#N (format notes §6)."""
        R = self.rank
        if any(s.name.startswith("ProfilerStep#") for s in R.slices_of(lambda lk: R.pname(lk) == "Python")):
            return []
        out = []
        for lk in R.lanes:
            if not (R.tname(lk).startswith("Step Trace") or R.pname(lk).startswith("Step Trace")):
                continue
            for sl in R.lanes[lk]:
                m = re.match(r"Iteration (-?\d+)$", sl.name)
                if m:
                    out.append((int(m.group(1)), sl.start, sl.end))
        return sorted(out, key=lambda x: x[1])

    def recorded_lanes(self):
        R = self.rank
        lanes = [lk for lk in R.lanes if R.pname(lk) == "Overlap Analysis" and R.device_of_pid(lk[0]) == self.d]
        if not lanes:
            return None
        keys = {"Computing": "computing_ns", "Communication": "communication_ns",
                "Communication(Not Overlapped)": "comm_not_overlapped_ns", "Free": "free_ns"}
        out = {v: 0 for v in keys.values()}
        lo, hi = None, None
        for lk in lanes:
            k = keys.get(R.tname(lk))
            for s in R.lanes[lk]:
                if k:
                    out[k] += s.dur
                lo = s.start if lo is None else min(lo, s.start)
                hi = s.end if hi is None else max(hi, s.end)
        out["e2e_ns"] = (hi - lo) if lo is not None else 0
        return out

    # -- steps (format doc §4.3, text)
    def step_windows(self):
        R = self.rank
        host = sorted([s for s in R.slices_of(lambda lk: R.pname(lk) == "Python")
                       if s.name.startswith("ProfilerStep#") and not any(
                           a.name.startswith("ProfilerStep#") for a in s.ancestors_and_self() if a is not s)],
                      key=lambda s: (s.start, s.order))
        if not host:
            its = self.iterations()
            if its:
                # Each device task (Ascend Hardware and HCCL lanes of the device) belongs to the
                # last iteration that starts at or before it (none after the last one's end);
                # the window is the first such task's start .. max(iteration end, last task end).
                lo = [None] * len(its)
                hi = [None] * len(its)
                starts = [st for _, st, _ in its]
                lanes = self.task_lanes + [lk for lk in R.lanes if R.pname(lk) in ("Communication", "HCCL")
                                           and R.device_of_pid(lk[0]) == self.d]
                for lk in lanes:
                    for t in R.lanes[lk]:
                        k = max(bisect.bisect_right(starts, t.start) - 1, 0)
                        if k == len(its) - 1 and t.start > its[k][2]:
                            continue
                        lo[k] = t.start if lo[k] is None else min(lo[k], t.start)
                        hi[k] = t.end if hi[k] is None else max(hi[k], t.end)
                return [(n, lo[k] if lo[k] is not None else st, max(en, hi[k]) if hi[k] is not None else en)
                        for k, (n, st, en) in enumerate(its)]
            b = self.begin if self.begin is not None else 0
            e = self.end if self.end is not None else 0
            return [(-1, b, e + 1)]
        npu = [fl for fl in R.flows if fl.cat == "async_npu"]
        out = []
        if npu:
            for h in host:
                reached = [fl.dst for fl in npu if h.start <= fl.s_ts < h.end and fl.dst is not None
                           and id(fl.dst) in self.task_ids]
                if reached:
                    st = min(t.start for t in reached)
                    en = max(max(t.end for t in reached), h.end)
                else:
                    st, en = h.start, h.end
                out.append((self.step_no(h.name), st, en))
        else:
            far = max([h.end for h in host] + [self.end + 1 if self.end is not None else 0])
            for i, h in enumerate(host):
                en = host[i + 1].start if i + 1 < len(host) else far
                out.append((self.step_no(h.name), h.start, en))
        return out

    @staticmethod
    def step_no(name):
        m = re.match(r"ProfilerStep#(-?\d+)", name)
        return int(m.group(1)) if m else -1

    def steps(self):
        rows = []
        sets = {"computing_ns": self.C, "communication_ns": self.M,
                "comm_not_overlapped_ns": self.not_ov, "free_ns": self.free}
        for n, a, b in self.step_windows():
            row = {"step": n, "window": [a, b]}
            for k, ivs in sets.items():
                row[k] = sum(y - x for x, y in ivs if a <= x < b)
            row["csv"] = self.csv_row(n)
            rows.append(row)
        return rows

    def csv_row(self, n):
        if not self.stt:
            return None
        want = "" if n == -1 else str(n)
        cands = [r for r in self.stt if r.get("Step", "") == want]
        if "Device_id" in (self.stt[0] if self.stt else {}):
            dev = [r for r in cands if r.get("Device_id", "") == str(self.d)]
            if dev:
                cands = dev
        return dict(cands[0]) if cands else None

    # -- skew (spec §D)
    def skew(self):
        # (task start - launch ts) per (task, launch) pair, sorted. The minimum bounds the offset,
        # unless it is a lone outlier: take the lowest value with two more within 5 us above it,
        # looking at most 1% + 2 values up (docs/diagnosis.md section 4).
        vals = []
        for t in self.tasks:
            seen = set()
            for fl in self.rank.flows_to.get(id(t), []):
                if fl.cat == "HostToDevice" and fl.s_ts not in seen:
                    seen.add(fl.s_ts)
                    vals.append(t.start - fl.s_ts)
        vals.sort()
        base = 0
        limit = min(len(vals), len(vals) // 100 + 3)
        for i in range(len(vals)):
            if i + 2 >= len(vals) or i >= limit:
                break
            if vals[i + 2] - vals[i] <= 5000:
                base = i
                break
        m = vals[base] if vals else None
        self.m = m
        self.skew_bound = max(0, -m) if m is not None else 0
        return {"min_task_minus_launch_ns": m, "skew_bound_ns": self.skew_bound, "tasks_with_launch": len(vals),
                "outliers": base}

    # -- chain (spec §D, format doc §3)
    def chain(self, task):
        R = self.rank
        out = {k: None for k in ("python_api", "aten_op", "enqueue", "dequeue", "cann_api", "launch")}
        out["device_task"] = task.brief()
        h2d = [fl for fl in R.flows_to.get(id(task), []) if fl.cat == "HostToDevice"]
        h = h2d[0] if h2d else None
        launch = cann = None
        if h is not None and h.src is not None and R.pname(h.src.lane) == "CANN":
            for a in h.src.ancestors_and_self():
                if launch is None and (a.name == "Node@launch" or (a.name.startswith("Node@") and "launch" in a.name)):
                    launch = a
                if a.name.startswith("AscendCL@"):
                    cann = a
        dq = None
        if h is not None:
            cands = []
            for lk, lane in R.lanes.items():
                if lk[1] == h.s_lane[1] and R.pname(lk) == "Python":
                    cands += [s for s in lane if s.name.startswith("Dequeue") and s.start <= h.s_ts <= s.end]
            if cands:
                cands.sort(key=lambda s: (-s.depth, s.start, s.order))
                dq = cands[0]
        enq = None
        if dq is not None:
            q = [fl for fl in R.flows_to.get(id(dq), []) if fl.cat == "async_task_queue" and fl.src is not None]
            if q:
                enq = q[0].src
        op = None
        npu = [fl for fl in R.flows_to.get(id(task), []) if fl.cat == "async_npu" and fl.src is not None]
        if npu:
            op = npu[0].src
        elif enq is not None:
            for a in enq.ancestors_and_self():
                if a is not enq and a.cat == "cpu_op" and not a.name.startswith("ProfilerStep#"):
                    op = a
                    break
        py = None
        if op is not None:
            for a in op.ancestors_and_self():
                if a is not op and a.cat == "python_function":
                    py = a
                    break
        # path
        path = ""
        if cann is not None and "aclopCompileAndExecute" in cann.name:
            path = "ACLOP"
        elif (cann is not None and "aclnn" in cann.name) or (dq is not None and dq.name.startswith("Dequeue@aclnn")) \
                or task.name.startswith("aclnn"):
            path = "ACLNN"
        elif dq is not None and dq.name.startswith("Dequeue@"):
            x = dq.name[len("Dequeue@"):]
            if "event" not in x and "memcpy" not in x:
                path = "ACLOP"
        raw = None
        if launch is not None:
            raw = task.start - launch.start
        elif h is not None:
            raw = task.start - h.s_ts
        elif cann is not None:
            raw = task.start - cann.start
        elif dq is not None:
            raw = task.start - dq.start
        out.update({"python_api": py.brief() if py else None, "aten_op": op.brief() if op else None,
                    "enqueue": enq.brief() if enq else None, "dequeue": dq.brief() if dq else None,
                    "cann_api": cann.brief() if cann else None, "launch": launch.brief() if launch else None,
                    "path": path, "raw_latency_ns": raw,
                    "corrected_latency_ns": None if raw is None or raw + self.skew_bound < 0
                    else raw + self.skew_bound})
        return out, h, enq, dq, cann

    @staticmethod
    def first_call(hs, a, b, g, calls, is_cann):
        """docs/diagnosis.md §3 rule 10: the host op with the largest overlap (not a python_function,
        data loader, step or Enqueue/Dequeue; a torch op (cpu_op) or a CANN API; ties: longer,
        earlier, smaller name) covers half the gap
        and is one of its name's first slow calls: at least 3 calls, >= 10x their (lower) median,
        and before the first call (by start) of at most 2x the median."""
        cands = [s for s in hs if (s.cat == "cpu_op" or is_cann(s)) and not is_dataloader(s.name)
                 and not s.name.startswith("Enqueue") and not s.name.startswith("Dequeue")]
        if not cands:
            return False
        best = min(cands, key=lambda s: (-overlap(s, a, b), -s.dur, s.start, s.name.encode()))
        if 2 * overlap(best, a, b) < g:
            return False
        mine = sorted(calls[best.name])
        if len(mine) < 3:
            return False
        med = sorted(d for _, d in mine)[(len(mine) - 1) // 2]
        warm_end = next((st for st, d in mine if d <= 2 * med), None)
        return best.dur >= 10 * med and (warm_end is None or best.start < warm_end)

    # -- bubbles (spec §C)
    def bubbles(self):
        R = self.rank
        host_lanes = [lk for lk in R.lanes if R.pname(lk) in ("Python", "CANN", "Python GC")]
        has_host = any(R.lanes[lk] for lk in R.lanes if R.pname(lk) in ("Python", "CANN"))
        host = sorted([s for lk in host_lanes for s in R.lanes[lk] if not s.name.startswith("ProfilerStep#")],
                      key=lambda s: s.start)
        host_starts = [s.start for s in host]
        host_maxdur = max([s.dur for s in host] + [0])
        calls = defaultdict(list)  # name -> [(start, dur)] of every host slice, for first_call
        for s in host:
            calls[s.name].append((s.start, s.dur))
        tasks_by_start = sorted(self.tasks, key=lambda t: (t.start, self.lane_idx[t.lane], t.order))
        t_starts = [t.start for t in tasks_by_start]
        task_maxdur = max([t.dur for t in self.tasks] + [0])
        out = []
        by_cause = defaultdict(lambda: {"count": 0, "ns": 0})
        for a, b in self.free:
            g = b - a
            if g < THRESHOLD_NS:
                continue
            # device tasks overlapping the gap
            lo = bisect.bisect_left(t_starts, a - task_maxdur)
            hi = bisect.bisect_left(t_starts, b)
            dev = [t for t in tasks_by_start[lo:hi] if overlap(t, a, b) > 0]
            lo = bisect.bisect_left(host_starts, a - host_maxdur)
            hi = bisect.bisect_left(host_starts, b)
            near = host[lo:hi]
            hs = [s for s in near if overlap(s, a, b) > 0]
            cov = total(union([(max(s.start, a), min(s.end, b)) for s in hs
                               if s.cat != "python_function" and not is_dataloader(s.name)]))
            # The task that ends the gap, its chain and when it was launched (spec section C).
            i = bisect.bisect_left(t_starts, b)
            after = tasks_by_start[i] if i < len(tasks_by_start) else None
            item = {"start": a, "end": b, "cause": None, "launched": "unknown",
                    "after": after.brief() if after else None, "chain": None}
            # A collective (HCCL big op) starting exactly at the gap's end ends it (spec section C):
            # its chain is walked instead, and its launch timing is unknown (HCCL submits its tasks
            # inside Hccl@Launch_* after the HostToDevice flow start).
            coll = [s for s in self.comm_ops if s.start == b]
            collective = coll[0] if coll else None
            if collective is not None:
                after = collective
                item["after"] = after.brief()
            enq = dq = cann_api = None
            if after is not None:
                ch, h, enq, dq, cann_api = self.chain(after)
                item["chain"] = ch
                if h is not None and collective is None:
                    item["launched"] = "after_gap_start" if h.s_ts - self.skew_bound >= a else "before_gap_start"
            launched = item["launched"]
            cause = None
            if not has_host:
                cause = "unknown"
            elif 2 * sum(overlap(t, a, b) for t in dev if is_copy_task(t.name)) >= g:
                cause = "device_copy"
            elif 2 * sum(overlap(t, a, b) for t in dev
                         if is_wait_task(t.name) and (after is None or t.lane == after.lane)) >= g:
                cause = "device_wait"
            elif collective is not None and cann_api is not None and 4 * overlap(cann_api, a, b) >= g:
                cause = "slow_dispatch"  # the host was launching the collective
            elif launched == "before_gap_start":
                cause = "queued"
            elif any(s.name.endswith("opCompile") and "CompileAndExecute" not in s.name and 4 * overlap(s, a, b) >= g
                     for s in hs):
                cause = "aclop_compile"
            elif any("aclopCompileAndExecute" in s.name and 4 * overlap(s, a, b) >= g for s in hs):
                cause = "aclop_execute"
            elif enq is not None and dq is not None and launched == "after_gap_start" \
                    and enq.start < a + self.skew_bound:
                cause = "slow_dispatch"  # queue side
            elif any(any(w in s.name for w in SYNC_WORDS) and (s.start <= a < s.end or 4 * overlap(s, a, b) >= g)
                     for s in hs):
                cause = "synchronization"
            elif any(any(w in s.name for w in H2D_WORDS) and 4 * overlap(s, a, b) >= g for s in hs):
                cause = "host_to_device_copy"
            elif 2 * total(union([(max(s.start, a), min(s.end, b)) for s in hs if is_dataloader(s.name)])) >= g:
                cause = "data_loading"
            elif g >= FIRST_CALL_MIN_GAP_NS and self.first_call(hs, a, b, g, calls,
                                                                          lambda s: R.pname(s.lane) == "CANN"):
                cause = "first_call"
            elif 2 * cov >= g and sum(1 for s in near if a <= s.start < b and (
                    s.cat == "cpu_op" or s.name.startswith("Dequeue") or "launch" in s.name
                    or s.name.startswith("AscendCL@aclnn"))) >= 3:
                cause = "slow_dispatch"
            elif 5 * cov < g:
                cause = "host_idle"
            else:
                cause = "unknown"
            item["cause"] = cause
            out.append(item)
            by_cause[cause]["count"] += 1
            by_cause[cause]["ns"] += g
        return {"threshold_ns": THRESHOLD_NS, "count": len(out), "total_ns": sum(x["end"] - x["start"] for x in out),
                "by_cause": {k: dict(v) for k, v in sorted(by_cause.items())}, "list": out}

    def verdict(self, whole, bubbles):
        comp, comm, free = whole["computing_ns"], whole["comm_not_overlapped_ns"], whole["free_ns"]
        between = whole.get("between_iterations_ns", 0)
        dom = "compute"
        best = comp
        if comm > best:
            dom, best = "communication", comm
        if free > best:
            dom, best = "free", free
        if between > best:
            dom = "data"
        label = {"compute": "Compute bound", "communication": "Communication bound",
                 "free": "Dispatch/host bound", "data": "Data-loading bound"}[dom]
        top, top_ns, top_n = None, 0, 0
        for k, v in sorted(bubbles["by_cause"].items()):
            if v["ns"] > top_ns:
                top, top_ns, top_n = k, v["ns"], v["count"]
        return {"dominant": dom, "label": label,
                "free_second_finding": dom != "free" and 10 * free > whole["e2e_ns"],
                "top_cause": top, "top_cause_ns": top_ns, "top_cause_count": top_n}

    def kernels(self):
        agg = defaultdict(lambda: [0, 0])
        if self.kd is not None:
            listed = [t for t in self.tasks if id(t) in self.kd_match]
        else:
            listed = self.compute_tasks
        for t in listed:
            agg[t.name][0] += 1
            agg[t.name][1] += t.dur
        return [{"name": k, "count": v[0], "total_ns": v[1]} for k, v in sorted(agg.items())]

    def kernels_by_type(self):
        if self.kd is None:
            return None
        agg = defaultdict(lambda: [0, 0])
        for t in self.tasks:
            row = self.kd_match.get(id(t))
            if row is not None:
                agg[row.get("Type", "")][0] += 1
                agg[row.get("Type", "")][1] += t.dur
        return [{"type": k, "count": v[0], "total_ns": v[1]} for k, v in sorted(agg.items())]

    def op_statistic(self):
        if self.ops is None:
            return None
        out = [{"type": r.get("OP Type", ""), "core_type": r.get("Core Type", ""),
                "count": int(r.get("Count", "0") or 0), "total_ns": to_ns(r.get("Total Time(us)", "0"))}
               for r in self.ops]
        return sorted(out, key=lambda x: (x["type"], x["core_type"]))

    def report(self):
        whole = self.whole()
        sk = self.skew()
        bub = self.bubbles()
        return {"device": self.d, "whole": whole, "recorded_lanes": self.recorded_lanes(), "steps": self.steps(),
                "verdict": self.verdict(whole, bub), "bubbles": bub, "skew": sk, "kernels": self.kernels(),
                "kernels_by_type": self.kernels_by_type(), "op_statistic": self.op_statistic()}


# --------------------------------------------------------------------------------------- corpus


def discover(corpus):
    caps = []
    for pat in ("ascend-pt-910a-l0-text-2rank/rank*_ascend_pt", "ascend-pt-910b-l0-text-2rank/rank*_ascend_pt",
                "ascend-pt-910b-l1-text-2rank/rank*_ascend_pt"):
        for rank in sorted(glob.glob(os.path.join(corpus, pat))):
            out = os.path.join(rank, "ASCEND_PROFILER_OUTPUT")
            tv = os.path.join(out, "trace_view.json")
            if os.path.exists(tv):
                caps.append((os.path.relpath(rank, corpus), [tv], out, None))
    adv = os.path.join(corpus, "msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json")
    if os.path.exists(adv):
        caps.append((os.path.relpath(adv, corpus), [adv], None, None))
    for dev in sorted(glob.glob(os.path.join(corpus, "mindspore-msprof-prof-2dev/PROF_*/device_*"))):
        files = sorted(glob.glob(os.path.join(dev, "timeline", "msprof_*.json")))
        if files:
            n = int(re.search(r"device_(\d+)$", dev).group(1))
            caps.append((os.path.relpath(dev, corpus), files, None, n))
    return caps


def analyse(capture, files, out_dir, legacy_device, corpus):
    rank = Rank(files, legacy_device)
    devs = sorted({rank.device_of_pid(lk[0]) for lk in rank.lanes if rank.pname(lk) == "Ascend Hardware"} - {None})
    notes = []
    devices = [Device(rank, d, out_dir, notes) for d in devs]
    return {"capture": capture, "files": [os.path.relpath(f, corpus) for f in files],
            "devices": [dv.report() for dv in devices]}, devices


# --------------------------------------------------------------------------------------- cross-checks


def cross_check(cap, devices, log):
    for dv, rep in zip(devices, cap["devices"]):
        tag = "%s dev %d" % (cap["capture"], rep["device"])
        w, rec = rep["whole"], rep["recorded_lanes"]
        if rec is not None:
            diffs = {k: w[k] - rec[k] for k in w if k in rec and w[k] != rec[k]}
            log("%s: whole vs Overlap Analysis lanes: %s" % (tag, "equal" if not diffs else
                "computed - recorded = %s (computed %s; recorded %s)" % (diffs, w, rec)))
        if rec is not None:
            R = dv.rank
            mine = {"Computing": dv.C, "Communication": dv.M, "Communication(Not Overlapped)": dv.not_ov,
                    "Free": dv.free}
            parts = []
            for k, ivs in mine.items():
                theirs = sorted((s.start, s.end) for lk in R.lanes if R.pname(lk) == "Overlap Analysis"
                                and R.device_of_pid(lk[0]) == dv.d and R.tname(lk) == k for s in R.lanes[lk])
                ends = dict(theirs)
                paired = [abs(b - ends[a]) for a, b in ivs if a in ends]
                parts.append("%s %d/%d intervals, %d same start, max |end diff| %s ns" % (
                    k, len(ivs), len(theirs), len(paired), max(paired) if paired else "-"))
            log("%s: intervals computed/recorded: %s" % (tag, "; ".join(parts)))
        for st in rep["steps"]:
            row = st["csv"]
            if row is None:
                continue
            pairs = [("computing_ns", "Computing"), ("communication_ns", "Communication"),
                     ("comm_not_overlapped_ns", "Communication(Not Overlapped)"), ("free_ns", "Free")]
            diffs = {}
            for k, c in pairs:
                if c in row:
                    v = to_ns(row[c])
                    if v != st[k]:
                        diffs[k] = (st[k], v, st[k] - v)
            log("%s step %s vs step_trace_time.csv: %s" % (tag, st["step"], "equal" if not diffs else
                "differs (computed, csv, diff): %s" % diffs))
            if rec is not None and len(rep["steps"]) == 1:
                rd = {k: (rec[k], to_ns(row[c])) for k, c in pairs if c in row and rec[k] != to_ns(row[c])}
                log("%s step %s: Overlap Analysis lanes vs step_trace_time.csv: %s" % (
                    tag, st["step"], "equal" if not rd else "differs (lanes, csv): %s" % rd))
        kt, ops = rep["kernels_by_type"], rep["op_statistic"]
        if dv.kd is not None:
            log("%s: kernel_details rows %d, matched (start ns + name) %d, unmatched %d, start collisions %d; "
                "rows whose start ns only hits a differently named task: %s" % (
                    tag, len(dv.kd), len(dv.kd_match), dv.kd_unmatched, dv.kd_ambiguous, dv.kd_other_name))
        if kt is not None and ops is not None:
            agg = defaultdict(lambda: [0, 0])
            for r in ops:
                agg[r["type"]][0] += r["count"]
                agg[r["type"]][1] += r["total_ns"]
            mine = {r["type"]: [r["count"], r["total_ns"]] for r in kt}
            types = set(mine) | set(agg)
            cnt_bad = sorted(k for k in types if (mine.get(k) or [None])[0] != (agg.get(k) or [None])[0])
            tot = [abs(mine[k][1] - agg[k][1]) for k in types if k in mine and k in agg]
            log("%s: kernels_by_type vs op_statistic.csv: %d types; counts %s; totals: %d types differ, "
                "max |diff| %d ns, sum of |diff| %d ns" % (
                    tag, len(types), "equal on all" if not cnt_bad else "differ on %s" % cnt_bad,
                    sum(1 for x in tot if x), max(tot or [0]), sum(tot)))


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", default=os.path.join(repo, "..", "shared"))
    ap.add_argument("--json", default=None, help="write the result here (default: stdout)")
    args = ap.parse_args(argv)
    corpus = os.path.join(args.shared, "corpus")
    log = lambda m: print(m, file=sys.stderr)
    result = {"spec": "docs/diagnosis.md", "captures": []}
    for capture, files, out_dir, legacy in discover(corpus):
        cap, devices = analyse(capture, files, out_dir, legacy, corpus)
        result["captures"].append(cap)
        cross_check(cap, devices, log)
    text = json.dumps(result, sort_keys=True, indent=1) + "\n"
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
