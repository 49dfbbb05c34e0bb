#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of topdown_oracle.py on tiny hand-built traces (numbers computed by hand).

Run: python3 tools/oracles/test_topdown_oracle.py   (or python3 -m unittest from tools/oracles)
"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import topdown_oracle as T  # noqa: E402

US = 1000  # ns per us


def ts(us):
    """ts string (epoch us, 3 decimals, as torch_npu writes it) of offset `us`."""
    return str(1700000000000000 + us) + ".000"


T0 = 1700000000000000 * US  # the ns value of ts(0)


def meta(pid, name, label=None, threads=()):
    ev = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}}]
    if label:
        ev.append({"ph": "M", "name": "process_labels", "pid": pid, "tid": 0, "args": {"labels": label}})
    for tid, tname in threads:
        ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": tname}})
    return ev


def X(pid, tid, name, start, dur, cat=None, **args):
    e = {"ph": "X", "pid": pid, "tid": tid, "name": name, "ts": ts(start), "dur": dur, "args": args}
    if cat:
        e["cat"] = cat
    return e


def flow(cat, fid, s, f, bp_s=True):
    (sp, st, sts), (fp, ft, fts) = s, f
    a = {"ph": "s", "cat": cat, "id": fid, "name": cat, "pid": sp, "tid": st, "ts": ts(sts)}
    if bp_s:
        a["bp"] = "e"
    b = {"ph": "f", "cat": cat, "id": fid, "name": cat, "pid": fp, "tid": ft, "ts": ts(fts), "bp": "e"}
    return [a, b]


AH, HCCL, OA, PY, CANN = 10, 20, 30, 1, 2


def run(events):
    with tempfile.TemporaryDirectory() as tmp:
        p = os.path.join(tmp, "trace_view.json")
        with open(p, "w") as fh:
            json.dump(events, fh)
        rank = T.Rank([p])
        return T.Device(rank, 0, None, []).report()


def core(name, start, dur):
    return X(AH, 1, name, start, dur, **{"Task Type": "AI_CORE"})


class Numbers(unittest.TestCase):
    def test_to_ns(self):
        self.assertEqual(T.to_ns("1736408883704643.212"), 1736408883704643212)
        self.assertEqual(T.to_ns(T.Raw("12.77012757357446")), 12770)
        self.assertEqual(T.to_ns(T.Raw("0.0005")), 1)       # half away from zero
        self.assertEqual(T.to_ns(T.Raw("-0.0005")), -1)
        self.assertEqual(T.to_ns(T.Raw("1e-3")), 1)


class Overlap(unittest.TestCase):
    """C = [0,10)+[30,40) us, M = [5,25) (the Plane lane is ignored): Computing 20, Communication 20,
    Not Overlapped [10,25) = 15, Free [25,30) = 5, e2e 40."""

    def test_shares(self):
        ev = meta(AH, "Ascend Hardware", "NPU 0", [(1, "Stream 1")])
        ev += meta(HCCL, "HCCL", "NPU 0", [(0, "Group 0 Communication"), (1, "Plane 0")])
        ev += meta(OA, "Overlap Analysis", "NPU 0", [(0, "Computing"), (3, "Free")])
        ev += meta(PY, "Python", "CPU")
        ev += [core("k1", 0, 10), core("k2", 30, 10), X(AH, 1, "MEMCPY_ASYNC", 45, 5, **{"Task Type": "SDMA_SQE"}),
               X(HCCL, 0, "hcom_allReduce__1_0_1", 5, 20), X(HCCL, 1, "Notify_Wait", 0, 100),
               X(OA, 0, "Computing", 0, 10), X(OA, 0, "Computing", 30, 10), X(OA, 3, "Free", 25, 5),
               X(PY, 100, "aten::add", 0, 1, cat="cpu_op")]
        r = run(ev)
        self.assertEqual(r["whole"], {"computing_ns": 20 * US, "communication_ns": 20 * US,
                                      "comm_not_overlapped_ns": 15 * US, "free_ns": 5 * US, "e2e_ns": 40 * US,
                                      "between_iterations_ns": 0})
        self.assertEqual(r["recorded_lanes"]["computing_ns"], 20 * US)
        self.assertEqual(r["recorded_lanes"]["free_ns"], 5 * US)
        self.assertEqual(r["steps"][0]["step"], -1)
        self.assertEqual(r["steps"][0]["window"], [T0, T0 + 40 * US + 1])
        self.assertEqual(r["steps"][0]["comm_not_overlapped_ns"], 15 * US)
        v = r["verdict"]
        self.assertEqual(v["dominant"], "compute")      # 20 > 15 > 5
        self.assertTrue(v["free_second_finding"])       # 5 > 10% of 40
        self.assertEqual(r["bubbles"]["count"], 0)      # the only gap is 5 us
        self.assertEqual(r["kernels"], [{"name": "k1", "count": 1, "total_ns": 10 * US},
                                        {"name": "k2", "count": 1, "total_ns": 10 * US}])


class Causes(unittest.TestCase):
    """Four gaps of 20-30 us between AI_CORE tasks, one per cause."""

    def setUp(self):
        ev = meta(AH, "Ascend Hardware", "NPU 0", [(1, "Stream 1"), (2, "Stream 2")])
        ev += meta(PY, "Python", "CPU") + meta(CANN, "CANN", "CPU")
        ev += [core("k1", 0, 10), core("k2", 30, 10), core("k3", 60, 10), core("k4", 100, 10), core("k5", 140, 10)]
        # gap [10,30): a synchronize API containing gap.start
        ev += [X(CANN, 200, "AscendCL@aclrtSynchronizeStream", 5, 7)]
        # gap [40,60): a copy on another stream covering 13 of 20 us
        ev += [X(AH, 2, "MEMCPY_ASYNC", 42, 13, **{"Task Type": "SDMA_SQE"})]
        # gap [70,100): nothing on the host -> host_idle
        # gap [110,140): three torch ops starting inside, covering 26 of 30 us
        ev += [X(PY, 100, "aten::a", 112, 10, cat="cpu_op"), X(PY, 100, "aten::b", 122, 10, cat="cpu_op"),
               X(PY, 100, "aten::c", 132, 6, cat="cpu_op")]
        # launch of k2 at 11 (after the gap start 10), of k3 at 5 (before the gap start 40)
        ev += [X(CANN, 200, "Node@launch", 11, 1), X(CANN, 201, "Node@launch", 4, 2)]
        ev += flow("HostToDevice", "7", (CANN, 200, 11), (AH, 1, 30), bp_s=False)
        ev += flow("HostToDevice", "8", (CANN, 201, 5), (AH, 1, 60), bp_s=False)
        self.r = run(ev)

    def test_iterations(self):
        # msprof iterations (no ProfilerStep#N): Iteration 1 [0, 40) and 2 [100, 140) us on the
        # Step Trace lane; tasks 0-10, 30-40, 100-110, 120-130. The 60 us from 40 to 100 reach
        # across the boundary: between iterations, not Free; Free keeps 10-30 and 110-120.
        ev = meta(AH, "Ascend Hardware", "NPU 0", [(1, "Stream 1"), (9, "Step Trace(Model ID:1)")])
        ev += [core("a", 0, 10), core("b", 30, 10), core("c", 100, 10), core("d", 120, 10),
               X(AH, 9, "Iteration 1", 0, 40), X(AH, 9, "Iteration 2", 100, 40)]
        r = run(ev)
        self.assertEqual(r["whole"]["free_ns"], 30 * US)
        self.assertEqual(r["whole"]["between_iterations_ns"], 60 * US)
        self.assertEqual(r["whole"]["e2e_ns"], 130 * US)
        self.assertEqual([(s["step"], s["window"], s["free_ns"]) for s in r["steps"]],
                         [(1, [T0, T0 + 40 * US], 20 * US), (2, [T0 + 100 * US, T0 + 140 * US], 10 * US)])
        self.assertEqual(r["verdict"]["dominant"], "data")

    def test_causes(self):
        b = self.r["bubbles"]
        got = [(x["start"] - T0, x["end"] - T0, x["cause"]) for x in b["list"]]
        self.assertEqual(got, [(10 * US, 30 * US, "synchronization"), (40 * US, 60 * US, "device_copy"),
                               (70 * US, 100 * US, "host_idle"), (110 * US, 140 * US, "slow_dispatch")])
        self.assertEqual(b["count"], 4)
        self.assertEqual(b["total_ns"], 100 * US)
        self.assertEqual(b["by_cause"]["host_idle"], {"count": 1, "ns": 30 * US})
        v = self.r["verdict"]
        self.assertEqual(v["dominant"], "free")         # Free 100 us of 150 us (MEMCPY is not compute)
        self.assertFalse(v["free_second_finding"])
        self.assertEqual(v["top_cause"], "host_idle")   # 30 us ties slow_dispatch; first by name
        self.assertEqual(self.r["whole"]["free_ns"], 100 * US)

    def test_launch_timing(self):
        L = self.r["bubbles"]["list"]
        self.assertEqual(L[0]["after"], {"name": "k2", "start": T0 + 30 * US})
        self.assertEqual(L[0]["launched"], "after_gap_start")
        self.assertEqual(L[1]["launched"], "before_gap_start")
        self.assertEqual(L[2]["launched"], "unknown")
        self.assertEqual(L[0]["chain"]["launch"], {"name": "Node@launch", "start": T0 + 11 * US})
        self.assertEqual(L[0]["chain"]["raw_latency_ns"], 19 * US)
        # m = min(30-11, 60-5) = 19 us > 0: no skew
        self.assertEqual(self.r["skew"], {"min_task_minus_launch_ns": 19 * US, "skew_bound_ns": 0,
                                          "tasks_with_launch": 2, "outliers": 0})



class FirstCall(unittest.TestCase):
    """docs/diagnosis.md section 3 rule 10 (first call, warm-up): the same traces as
    tests/core/analysis/test_first_call.cpp, written again here."""

    @staticmethod
    def trace(conv):
        ev = meta(AH, "Ascend Hardware", "NPU 0", [(5, "Stream 5")]) + meta(PY, "Python", "CPU")
        ev += [X(AH, 5, "Conv2D", 0, 100, **{"Task Type": "AI_CORE"})]
        t = 50
        for d in conv:
            ev += [X(PY, 1, "aten::conv2d", t, d, cat="cpu_op")]
            task = t + d + 10
            ev += [X(AH, 5, "Conv2D", task, 100, **{"Task Type": "AI_CORE"})]
            t = task + 150
        return run(ev)["bubbles"]["list"]

    def cause_at(self, conv, start_us):
        hits = [b["cause"] for b in self.trace(conv) if b["start"] - T0 == start_us * US]
        self.assertEqual(len(hits), 1)
        return hits[0]

    def test_rule(self):
        self.assertEqual(self.cause_at([5000, 100, 100, 100], 100), "first_call")   # 5000 >= 10 x 100
        self.assertEqual(self.cause_at([5000, 500, 500, 500], 100), "first_call")   # exactly 10x
        self.assertNotEqual(self.cause_at([5000, 501, 501, 501], 100), "first_call")  # 10 x 501 > 5000
        self.assertNotEqual(self.cause_at([100, 5000, 100, 100], 260), "first_call")  # warm-up ended at call 1
        self.assertNotEqual(self.cause_at([5000, 100], 100), "first_call")           # fewer than 3 calls
        self.assertNotEqual(self.cause_at([900, 10, 10, 10], 100), "first_call")     # gap 0.86 ms < 1 ms


class Chain(unittest.TestCase):
    """python_function > aten::add > Enqueue --queue--> Dequeue@aclnnAdd; CANN on the dequeue tid:
    AscendCL@aclnnAdd > Node@launch > Runtime@rtKernelLaunch, where the HostToDevice s binds.
    A second task starts 3 us before its launch: skew bound 3 us."""

    def setUp(self):
        ev = meta(AH, "Ascend Hardware", "NPU 0", [(1, "Stream 1")])
        ev += meta(PY, "Python", "CPU") + meta(CANN, "CANN", "CPU")
        ev += [X(PY, 100, "model.forward", 0, 50, cat="python_function"),
               X(PY, 100, "aten::add", 5, 10, cat="cpu_op"),
               X(PY, 100, "Enqueue", 6, 1, cat="enqueue"),
               X(PY, 200, "Dequeue@aclnnAdd", 20, 10, cat="dequeue"),
               X(CANN, 200, "AscendCL@aclnnAdd", 21, 8),
               X(CANN, 200, "Node@launch", 22, 5),
               X(CANN, 200, "Runtime@rtKernelLaunch", 23, 2),
               X(CANN, 200, "AscendCL@aclrtRecordEvent", 53, 2),
               X(CANN, 200, "Node@launch", 53, 1)]
        ev += [core("k0", 0, 10), core("aclnnAdd_AddAiCore_Add", 40, 5),
               X(AH, 1, "EVENT_RECORD", 50, 2, **{"Task Type": "EVENT_RECORD_SQE"})]
        ev += flow("async_task_queue", 5, (PY, 100, 6), (PY, 200, 20))
        ev += flow("async_npu", 1700000000000040000, (PY, 100, 5), (AH, 1, 40))
        ev += flow("HostToDevice", "9", (CANN, 200, 24), (AH, 1, 40), bp_s=False)
        ev += flow("HostToDevice", "10", (CANN, 200, 53), (AH, 1, 50), bp_s=False)
        self.r = run(ev)

    def test_chain(self):
        L = self.r["bubbles"]["list"]
        self.assertEqual([(x["start"] - T0, x["end"] - T0) for x in L], [(10 * US, 40 * US)])
        c = L[0]["chain"]
        b = lambda n, s: {"name": n, "start": T0 + s * US}
        self.assertEqual(c["device_task"], b("aclnnAdd_AddAiCore_Add", 40))
        self.assertEqual(c["launch"], b("Node@launch", 22))            # walked up from Runtime@
        self.assertEqual(c["cann_api"], b("AscendCL@aclnnAdd", 21))
        self.assertEqual(c["dequeue"], b("Dequeue@aclnnAdd", 20))
        self.assertEqual(c["enqueue"], b("Enqueue", 6))
        self.assertEqual(c["aten_op"], b("aten::add", 5))
        self.assertEqual(c["python_api"], b("model.forward", 0))
        self.assertEqual(c["path"], "ACLNN")
        self.assertEqual(c["raw_latency_ns"], 18 * US)                 # 40 - 22
        self.assertEqual(c["corrected_latency_ns"], 21 * US)           # + skew bound 3

    def test_skew(self):
        # m = min(40 - 24, 50 - 53) = -3 us
        self.assertEqual(self.r["skew"], {"min_task_minus_launch_ns": -3 * US, "skew_bound_ns": 3 * US,
                                          "tasks_with_launch": 2, "outliers": 0})
        # launched: s 24 + min(0, m) = 21 >= gap start 10
        self.assertEqual(self.r["bubbles"]["list"][0]["launched"], "after_gap_start")
        # host covers the gap ([10,15) aten::add, [20,30) Dequeue/CANN) 15/30 = 50%, but only 3 starts
        # inside it (Dequeue, AscendCL@aclnnAdd, Node@launch): slow_dispatch
        self.assertEqual(self.r["bubbles"]["list"][0]["cause"], "slow_dispatch")


if __name__ == "__main__":
    unittest.main()
