#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent dispatch-chain tracer for torch_npu trace_view.json files (standard library only).

A second opinion on core/analysis/dispatch_chain.cpp, written from
../shared/docs/ascend-profiling-format.md (§2.3-2.7 and §3) without reading the C++ code.

For each selected device task (an X event of the `Ascend Hardware` process) it walks back:

  device task --HostToDevice f/s--> CANN slice where the `s` is bound (Node@launch, or an
  AscendCL API in older CANN) --> outermost AscendCL@ ancestor (CANN API)
  --> Dequeue* slice on the Python process, same OS tid as the HostToDevice `s`, containing the
      `s` ts (torch_npu's acl_ts -> Dequeue rule, §3 step 2: dq.ts <= acl_ts <= dq.ts + dur)
  --async_task_queue f/s--> Enqueue
  torch op: the `s` end of the async_npu flow whose `f` is bound to the task
            (cross-checked against the innermost cpu_op containing the Enqueue)
  Python API: the nearest python_function ancestor of the torch op (only with with_stack).

Level0 (no CANN slices): the HostToDevice `s` survives on a pid without metadata (§2.1); its ts
and tid still give acl_ts and the dequeue thread, so the Dequeue is found the same way and only
CannApi / Launch are missing.

Times: ts is parsed from its decimal text into integer ns (never through a float); dur likewise
(rounded half-up to the ns when it carries more than 3 decimals). Flow ids are compared as text.

Usage:
  trace_chains.py TRACE --task "Stream 2@1736408883712345678" [--task ...]
  trace_chains.py TRACE --first 3 "aclnnAddmm_*"        (fnmatch pattern on the task name)
  options: --json (machine-readable), --lead-python-fallback (see below), --all-flows
"""

import argparse
import fnmatch
import json
import sys
from collections import defaultdict

LAYERS = ["PythonApi", "TorchOp", "Enqueue", "Dequeue", "CannApi", "Launch", "DeviceTask"]


# ----------------------------------------------------------------------------- parsing

class Raw(str):
    """A JSON number kept as its exact text."""


def _num(text):
    return Raw(text)


def to_ns(value):
    """µs (number kept as text, or string) -> int ns, exactly; rounds half-up beyond 3 decimals."""
    if value is None:
        return None
    s = str(value).strip()
    if not s:
        return None
    neg = s.startswith("-")
    if neg or s.startswith("+"):
        s = s[1:]
    exp = 0
    low = s.lower()
    if "e" in low:
        mant, e = low.split("e", 1)
        s, exp = mant, int(e)
    if "." in s:
        ip, fp = s.split(".", 1)
    else:
        ip, fp = s, ""
    digits = (ip or "0") + fp
    point = len(ip or "0") + exp + 3  # position of the ns point inside digits
    if point <= 0:
        whole, rest = "0", "0" * (-point) + digits
    elif point >= len(digits):
        whole, rest = digits + "0" * (point - len(digits)), ""
    else:
        whole, rest = digits[:point], digits[point:]
    ns = int(whole or "0")
    if rest and rest[0] >= "5":
        ns += 1
    return -ns if neg else ns


def load_events(path):
    with open(path, "rb") as fh:
        data = fh.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8", errors="replace").rstrip()
    # torch_npu writes ",]" when the CANN part is empty (§2.1)
    if text.endswith("]"):
        body = text[:-1].rstrip()
        if body.endswith(","):
            text = body[:-1] + "]"
    doc = json.loads(text, parse_float=_num, parse_int=_num)
    if isinstance(doc, dict):
        doc = doc.get("traceEvents", [])
    return doc


def key_of(v):
    """Opaque key for pid/tid/id: number text and string are distinct (1 vs "1")."""
    if isinstance(v, Raw):
        return ("n", str(v))
    if isinstance(v, str):
        return ("s", v)
    return ("o", json.dumps(v))


def key_text(k):
    return k[1]


# ----------------------------------------------------------------------------- model

class Slice:
    __slots__ = ("idx", "lane", "name", "cat", "start", "end", "dur_ns", "args", "parent", "depth", "order")

    def __init__(self, idx, lane, name, cat, start, dur, args, order):
        self.idx = idx
        self.lane = lane
        self.name = name
        self.cat = cat
        self.start = start
        self.dur_ns = dur
        self.end = start + dur
        self.args = args
        self.parent = None
        self.depth = 0
        self.order = order

    def ancestors(self):
        p = self.parent
        while p is not None:
            yield p
            p = p.parent

    def __repr__(self):
        return "%s@%d" % (self.name, self.start)


class Trace:
    def __init__(self, path):
        self.path = path
        events = load_events(path)
        self.proc_name = {}
        self.thread_name = {}
        self.lanes = defaultdict(list)  # (pidkey, tidkey) -> [Slice]
        self.flow_events = []           # (order, ph, cat, name, idkey, pidkey, tidkey, ts, bp)
        n = 0
        for order, e in enumerate(events):
            if not isinstance(e, dict):
                continue
            ph = e.get("ph")
            pid, tid = key_of(e.get("pid")), key_of(e.get("tid"))
            if ph == "M":
                args = e.get("args") or {}
                if e.get("name") == "process_name":
                    self.proc_name[pid] = str(args.get("name"))
                elif e.get("name") == "thread_name":
                    self.thread_name[(pid, tid)] = str(args.get("name"))
            elif ph in ("X", "i", "I"):
                ts = to_ns(e.get("ts"))
                if ts is None:
                    continue
                dur = to_ns(e.get("dur")) if ph == "X" else 0
                if dur is None or dur < 0:
                    dur = 0
                s = Slice(n, (pid, tid), str(e.get("name", "")), e.get("cat"), ts, dur, e.get("args"), order)
                n += 1
                self.lanes[(pid, tid)].append(s)
            elif ph in ("s", "t", "f"):
                ts = to_ns(e.get("ts"))
                if ts is None:
                    continue
                self.flow_events.append((order, ph, e.get("cat"), e.get("name"), key_of(e.get("id")),
                                         pid, tid, ts, e.get("bp")))
        for lane in self.lanes.values():
            self._nest(lane)
        self._pair_flows()

    @staticmethod
    def _nest(lane):
        # chrome://tracing nesting: sort by (start asc, dur desc, file order); parent = innermost open
        # slice whose end is after the child's start.
        lane.sort(key=lambda s: (s.start, -s.dur_ns, s.order))
        stack = []
        for s in lane:
            while stack and not (stack[-1].end > s.start or
                                 (stack[-1].start == stack[-1].end == s.start)):
                stack.pop()
            if stack:
                s.parent = stack[-1]
                s.depth = stack[-1].depth + 1
            stack.append(s)

    def process_of(self, lane_key):
        return self.proc_name.get(lane_key[0])

    def lane_label(self, lane_key):
        p = self.proc_name.get(lane_key[0], key_text(lane_key[0]))
        t = self.thread_name.get(lane_key, "Thread " + key_text(lane_key[1]))
        return "%s / %s" % (p, t)

    def enclosing(self, lane_key, ts):
        """Deepest slice on the lane with start <= ts < end (or a zero-length slice at ts)."""
        best = None
        for s in self.lanes.get(lane_key, ()):
            if s.start > ts:
                break
            if s.start <= ts < s.end or s.start == s.end == ts:
                if best is None or s.depth > best.depth or (s.depth == best.depth and s.start >= best.start):
                    best = s
        return best

    def next_slice(self, lane_key, ts):
        for s in self.lanes.get(lane_key, ()):
            if s.start >= ts:
                return s
        return None

    def _bind(self, fe):
        order, ph, cat, name, fid, pid, tid, ts, bp = fe
        if ph == "f" and bp != "e":
            return self.next_slice((pid, tid), ts)
        return self.enclosing((pid, tid), ts)

    def _pair_flows(self):
        # Pair by (cat, id) (§2.6: "Pair s/f by (cat, id)"); name is kept for display. An `f` pairs
        # with the latest `s` before it in file order, else with the first later `s`.
        by_key = defaultdict(lambda: {"s": [], "f": []})
        for fe in self.flow_events:
            _, ph, cat, name, fid, *_ = fe
            by_key[(cat, fid)]["s" if ph in ("s", "t") else "f"].append(fe)
        self.flows = []  # dicts
        self.unpaired_f = 0
        for (cat, fid), d in by_key.items():
            starts = d["s"]
            for f in d["f"]:
                before = [s for s in starts if s[0] < f[0]]
                s = before[-1] if before else (starts[0] if starts else None)
                if s is None:
                    self.unpaired_f += 1
                    continue
                self.flows.append({
                    "cat": cat, "name": s[3], "id": key_text(fid),
                    "s_lane": (s[5], s[6]), "s_ts": s[7], "f_lane": (f[5], f[6]), "f_ts": f[7],
                    "from": self._bind(s), "to": self._bind(f),
                })
        self.flows_to = defaultdict(list)
        for fl in self.flows:
            if fl["to"] is not None:
                self.flows_to[id(fl["to"])].append(fl)

    def hw_tasks(self):
        for lk, lane in self.lanes.items():
            if self.proc_name.get(lk[0]) == "Ascend Hardware":
                for s in lane:
                    yield s


# ----------------------------------------------------------------------------- the chain

def is_cann(trace, lane_key):
    return trace.proc_name.get(lane_key[0]) == "CANN"


def is_python(trace, lane_key):
    return trace.proc_name.get(lane_key[0]) == "Python"


def classify_path(cann_api, dequeue, task):
    """§3: ACLNN = Dequeue@aclnn*, launch inside AscendCL@aclnn*, kernels aclnn*; ACLOP =
    Dequeue@{OpType}, AscendCL@aclopCompileAndExecute[V2], GE-named kernels."""
    if cann_api is not None:
        api = cann_api.name.split("@", 1)[-1]
        if api.startswith("aclopCompileAndExecute"):
            return "ACLOP", "CANN API %s" % cann_api.name
        if api.startswith("aclnn"):
            return "ACLNN", "CANN API %s" % cann_api.name
    if dequeue is not None and dequeue.name.startswith("Dequeue@"):
        op = dequeue.name[len("Dequeue@"):]
        if op.startswith("aclnn"):
            return "ACLNN", "Dequeue name %s" % dequeue.name
    if task.name.startswith("aclnn"):
        return "ACLNN", "kernel name %s" % task.name
    if dequeue is not None and dequeue.name.startswith("Dequeue@"):
        op = dequeue.name[len("Dequeue@"):]
        low = op.lower()
        if not (low.endswith("_event") or "memcpy" in low or low.startswith("hccl") or low.startswith("hcom")):
            return "ACLOP", "Dequeue name %s (OpType)" % dequeue.name
    return "", "cannot tell"


def chain_of(trace, task, lead_python_fallback=False):
    notes = []
    links = {}
    links["DeviceTask"] = (task, "")
    incoming = trace.flows_to.get(id(task), [])
    h2d = [f for f in incoming if f["cat"] == "HostToDevice"]
    npu = [f for f in incoming if f["cat"] == "async_npu"]
    acl_ts = None
    acl_tid = None
    launch_slice = None
    cann_api = None
    if len(h2d) > 1:
        notes.append("%d HostToDevice flows end on this task; using the first" % len(h2d))
    if h2d:
        f = h2d[0]
        acl_ts, acl_tid = f["s_ts"], f["s_lane"][1]
        notes.append("HostToDevice id %s: s ts %d on %s -> f ts %d" % (
            f["id"], f["s_ts"], trace.lane_label(f["s_lane"]), f["f_ts"]))
        src = f["from"]
        if src is not None and is_cann(trace, src.lane):
            launch_slice = src
            # CANN API = outermost AscendCL@ slice among the bound slice and its ancestors
            for a in [src] + list(src.ancestors()):
                if a.name.startswith("AscendCL@"):
                    cann_api = a
            if src.name.startswith("Node@launch") or src.name == "Node@launch":
                links["Launch"] = (src, "HostToDevice")
            elif src is not cann_api:
                notes.append("HostToDevice s bound to %s (not Node@launch)" % src.name)
            else:
                notes.append("HostToDevice s bound inside %s (older CANN, no Node@launch)" % src.name)
            if cann_api is not None:
                links["CannApi"] = (cann_api, "enclosing")
        elif src is None:
            notes.append("HostToDevice s is unbound (Level0: CANN slices pruned)")
    else:
        notes.append("no HostToDevice flow ends on this task")

    # Dequeue: Python-process lane with the OS tid of the launch, containing acl_ts (closed interval,
    # first in start order, as torch_npu's sorted scan). Among nested candidates take the deepest.
    dequeue = None
    if acl_ts is not None:
        cands = []
        for lk, lane in trace.lanes.items():
            if lk[1] == acl_tid and is_python(trace, lk):
                for s in lane:
                    if s.name.startswith("Dequeue") and s.start <= acl_ts <= s.end:
                        cands.append(s)
        if cands:
            cands.sort(key=lambda s: (-s.depth, s.start))
            dequeue = cands[0]
            if len(cands) > 1:
                notes.append("%d Dequeue candidates contain acl_ts" % len(cands))
            links["Dequeue"] = (dequeue, "same thread")
        else:
            notes.append("no Dequeue on tid %s contains acl_ts %d" % (key_text(acl_tid), acl_ts))

    enqueue = None
    if dequeue is not None:
        q = [f for f in trace.flows_to.get(id(dequeue), []) if f["cat"] == "async_task_queue"]
        if q:
            enqueue = q[0]["from"]
            notes.append("async_task_queue id %s: s ts %d -> f ts %d" % (q[0]["id"], q[0]["s_ts"], q[0]["f_ts"]))
            if enqueue is not None:
                links["Enqueue"] = (enqueue, "async_task_queue")

    torch_op = None
    if npu:
        f = npu[0]
        torch_op = f["from"]
        notes.append("async_npu id %s: s ts %d -> f ts %d" % (f["id"], f["s_ts"], f["f_ts"]))
        if len(npu) > 1:
            notes.append("%d async_npu flows end on this task" % len(npu))
        if torch_op is not None:
            links["TorchOp"] = (torch_op, "async_npu")
    # cross-check: the innermost cpu_op containing the Enqueue (§3 step 2)
    if enqueue is not None:
        enc = None
        for a in enqueue.ancestors():
            if a.cat == "cpu_op":
                enc = a
                break
        if torch_op is None and enc is not None:
            torch_op = enc
            links["TorchOp"] = (enc, "enclosing")
        elif enc is not None and enc is not torch_op:
            notes.append("MISMATCH: async_npu torch op %r != Enqueue's innermost cpu_op %r" % (torch_op, enc))

    if torch_op is not None:
        py = None
        for a in torch_op.ancestors():
            if a.cat == "python_function":
                py = a
                break
        if py is None and lead_python_fallback:
            outer = None
            for a in torch_op.ancestors():
                if a.name.startswith("ProfilerStep#"):
                    break
                outer = a
            py = outer
            if py is not None:
                notes.append("Python API by the outermost-ancestor fallback (not in the format doc)")
        if py is not None:
            links["PythonApi"] = (py, "enclosing")

    path, why = classify_path(cann_api, dequeue, task)
    # Launch latency (docs/diagnosis.md section 4): from Node@launch; without it from the
    # HostToDevice s ts (older CANN starts the flow inside the CANN API, whose start can lie a
    # millisecond earlier for ACLOP); else the CANN API, else the Dequeue.
    acl_latency = task.start - acl_ts if acl_ts is not None else None
    if "Launch" in links:
        latency = task.start - links["Launch"][0].start
    elif acl_ts is not None:
        latency = acl_latency
    elif "CannApi" in links:
        latency = task.start - links["CannApi"][0].start
    elif "Dequeue" in links:
        latency = task.start - links["Dequeue"][0].start
    else:
        latency = None
    return {
        "task": task,
        "links": [(layer, links[layer][0], links[layer][1]) for layer in LAYERS if layer in links],
        "missing": [layer for layer in LAYERS if layer not in links],
        "path": path, "path_reason": why,
        "launch_latency": latency,
        "acl_ts": acl_ts, "acl_latency": acl_latency,
        "notes": notes,
    }


# ----------------------------------------------------------------------------- CLI

def select_tasks(trace, task_specs, firsts):
    tasks = sorted(trace.hw_tasks(), key=lambda s: (s.start, s.order))
    out = []
    for spec in task_specs:
        stream, _, ts = spec.rpartition("@")
        ts = int(ts)
        hit = [t for t in tasks if t.start == ts and trace.thread_name.get(t.lane, "Thread " + key_text(t.lane[1])) == stream]
        if not hit:
            sys.exit("no Ascend Hardware task on %r at %d" % (stream, ts))
        out.extend(hit[:1])
    for n, pattern in firsts:
        hit = [t for t in tasks if fnmatch.fnmatchcase(t.name, pattern)]
        out.extend(hit[: int(n)])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--task", action="append", default=[], metavar="STREAM@NS",
                    help='e.g. "Stream 2@1736408883712345678" (thread name of the Ascend Hardware lane)')
    ap.add_argument("--first", action="append", nargs=2, default=[], metavar=("N", "PATTERN"))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--lead-python-fallback", action="store_true",
                    help="without a python_function ancestor, report the outermost ancestor below ProfilerStep#")
    args = ap.parse_args()
    trace = Trace(args.trace)
    tasks = select_tasks(trace, args.task, args.first)
    results = []
    for t in tasks:
        c = chain_of(trace, t, args.lead_python_fallback)
        if args.json:
            results.append({
                "task": {"lane": trace.lane_label(t.lane), "name": t.name, "start": t.start},
                "links": [{"layer": l, "name": s.name, "start": s.start, "dur": s.dur_ns, "via": v,
                           "lane": trace.lane_label(s.lane)} for l, s, v in c["links"]],
                "missing": c["missing"], "path": c["path"], "path_reason": c["path_reason"],
                "launch_latency": c["launch_latency"], "acl_ts": c["acl_ts"],
                "acl_latency": c["acl_latency"], "notes": c["notes"],
            })
            continue
        print("== %s  %s @ %d" % (trace.lane_label(t.lane), t.name, t.start))
        for layer, s, via in c["links"]:
            print("  %-10s %-60s start %d dur %d  [%s]%s" % (
                layer, s.name[:60], s.start, s.dur_ns, trace.lane_label(s.lane), (" via " + via) if via else ""))
        print("  missing: %s" % (", ".join(c["missing"]) or "-"))
        print("  path: %s (%s)" % (c["path"] or "?", c["path_reason"]))
        print("  launch latency: %s ns%s" % (c["launch_latency"],
              "" if c["acl_latency"] is None else "   (task start - HostToDevice s ts = %d ns)" % c["acl_latency"]))
        for n in c["notes"]:
            print("  note: " + n)
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()


if __name__ == "__main__":
    main()
