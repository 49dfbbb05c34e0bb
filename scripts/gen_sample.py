#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate npuscope's bundled sample: a small, synthetic, single-card torch_npu profiling folder.

Everything here is invented by this script (fixed seed, fully deterministic); no byte comes from a
real capture. The *shape* follows what torch_npu 2.x + CANN 8.x write (see
../shared/docs/ascend-profiling-format.md): a Level1 text export with

  profiler_info_0.json, profiler_metadata.json,
  ASCEND_PROFILER_OUTPUT/{trace_view.json, kernel_details.csv, step_trace_time.csv, op_statistic.csv}

The simulated job trains a tiny CNN (conv -> relu -> fc -> relu -> fc -> cross-entropy, SGD) for
three profiled steps (ProfilerStep#1..#3) on NPU 0 with the task queue on:

* Python process: torch ops on the main thread (forward, optimizer), the autograd thread
  (backward), Enqueue@op / Dequeue@op on the dequeue thread (async_task_queue flows), fwdbwd
  flows from forward ops to their backward nodes.
* CANN process: AscendCL@aclnn* APIs with nested Node@launch on the dequeue thread (HostToDevice
  flows, id = connection_id << 32, to the device tasks), one ACLOP path (Conv2D forward and
  Conv2DBackpropFilter: AscendCL@aclopCompileAndExecute enclosing AscendCL@opCompile, GE-named
  kernels), AscendCL@aclrtMemcpyAsync for the input copies.
* Ascend Hardware "Stream 2": the device tasks (AI_CORE / AI_VECTOR_CORE kernels, MEMCPY_ASYNC).
  async_npu flows go from the innermost torch op to every kernel (id = kernel start in ns).
* Overlap Analysis: Computing (union of compute kernels) and Free (gaps inside the device span).
* AI Core Freq and NPU MEM counters.
* A dispatch bubble in ProfilerStep#2: loss.item() -> aten::item -> aten::_local_scalar_dense ->
  AscendCL@aclrtSynchronizeStream (waits for the device to drain) + a D2H aclrtMemcpy, then the
  host does ~1.1 ms of Python work and a burst of 30 tiny metric ops whose kernels take 1-3 us
  each: the device idles for ~2.5 ms.

step_trace_time.csv is derived from the Overlap Analysis events exactly as torch_npu's text parser
does (§4.2/§4.3: device step windows from the first/last correlation id with kernels, events
assigned by start ts in [start, end), full dur added, float arithmetic on µs values).

Usage: scripts/gen_sample.py [--out resources/sample]
"""

import argparse
import csv
import io
import json
import os
import random
import shutil
import sys
from contextlib import contextmanager

SEED = 20261129
FOLDER = "npuscope-sample_20261129101500000_ascend_pt"
# 2026-11-29 10:15:00 +08:00 in epoch ns, plus a little: the profiler starts a moment later.
BASE_NS = 1795918500_000_000_000 + 123_456_789

PID = 48213          # the Python process (OS pid)
MAIN = 48213         # main thread
BWD = 48301          # autograd engine thread for the NPU device
DQ = 48290           # task-queue (dequeue) thread; torch_npu gives it sort index max(tid)+1
DEVICE = 0
STREAM = 2


def fmt_pid(sort_index, dev):
    """msprof's formatted pid: (pid << 10) | (sortIndex << 5) | deviceId (31 for host layers)."""
    return (PID << 10) | (sort_index << 5) | dev


PID_CANN = fmt_pid(7, 31)
PID_HW = fmt_pid(14, DEVICE)
PID_FREQ = fmt_pid(15, DEVICE)
PID_MEM = fmt_pid(17, DEVICE)
PID_OVERLAP = fmt_pid(31, DEVICE)

COMPUTE_TYPES = {"AI_CORE", "AI_VECTOR_CORE", "AI_CPU", "MIX_AIC", "MIX_AIV"}


def ts_str(ns):
    """Epoch ns -> torch_npu's µs string with exactly 3 decimals."""
    return "%d.%03d" % (ns // 1000, ns % 1000)


def dur_num(ns):
    """ns -> float µs as the writers emit it (ns / 1000)."""
    return ns / 1000


class Sim:
    def __init__(self):
        self.rng = random.Random(SEED)
        self.t = {MAIN: BASE_NS, BWD: BASE_NS, DQ: BASE_NS}
        self.stack = {MAIN: [], BWD: [], DQ: []}
        self.fwk = []        # [start_ns, seq, event, [flow events]]
        self.cann = []       # CANN X events
        self.hw = []         # Ascend Hardware X events
        self.h2d = []        # HostToDevice s/f events
        self.t2n = []        # torch_to_npu s/f events (appended last, as torch_npu does)
        self.kernels = []    # dicts for kernel_details / overlap
        self.enqueues = []   # (enqueue ts, corr id)
        self.corr_kernels = {}  # corr id -> [kernel dicts]
        self.steps = []      # (N, host start ns, host end ns)
        self.dq_free = BASE_NS
        self.dev_free = BASE_NS
        self.corr = 61024
        self.conn = 20480
        self.task_id = 3310
        self.seq = 2213
        self.counter = 0
        self.compiled = set()
        self.cann_tids = set()

    # ---- helpers -------------------------------------------------------------------------
    def us(self, lo, hi):
        """A random duration in ns between lo and hi µs (10 ns resolution, like host clocks)."""
        return int(self.rng.uniform(lo, hi) * 100) * 10

    def adv(self, tid, lo, hi):
        self.t[tid] += self.us(lo, hi)

    def add_fwk(self, start, ev, flows=None):
        self.counter += 1
        rec = [start, self.counter, ev, flows or []]
        self.fwk.append(rec)
        return rec

    @contextmanager
    def op(self, tid, name, seq=-1, fwd=0, dims=None, types=None, pre=(2, 6), post=(1, 4),
           cat="cpu_op"):
        start = self.t[tid]
        args = {"Sequence number": seq, "Fwd thread id": fwd}
        if dims is not None:
            args["Input Dims"] = dims
            args["Input type"] = types or ""
        ev = {"ph": "X", "name": name, "pid": PID, "tid": tid, "ts": None, "dur": None,
              "cat": cat, "args": args}
        rec = self.add_fwk(start, ev)
        node = {"name": name, "start": start, "rec": rec}
        self.stack[tid].append(node)
        self.adv(tid, *pre)
        try:
            yield node
        finally:
            self.adv(tid, *post)
            self.stack[tid].pop()
            ev["ts"] = ts_str(start)
            ev["dur"] = dur_num(self.t[tid] - start)
            node["end"] = self.t[tid]

    def cann_x(self, tid, name, start, dur, mode, level, api_id, conn, item="0"):
        self.cann_tids.add(tid)
        ev = {"name": name, "pid": PID_CANN, "tid": tid, "ts": ts_str(start), "dur": dur_num(dur),
              "args": {"Thread Id": tid, "Mode": mode, "level": level, "id": api_id,
                       "item_id": item, "connection_id": conn}, "ph": "X"}
        self.cann.append((start, ev))
        return ev

    def device_task(self, name, ttype, op_type, launch_end, dur_lo, dur_hi, conn, shapes=None,
                    earliest=None):
        gap = self.us(1.2, 3.5)
        start = max(launch_end + self.us(9, 18), self.dev_free + gap)
        if earliest is not None:
            start = max(start, earliest)
        dur = self.us(dur_lo, dur_hi)
        self.dev_free = start + dur
        self.task_id += 1
        ev = {"name": name, "pid": PID_HW, "tid": STREAM, "ts": ts_str(start), "dur": dur_num(dur),
              "args": {"Model Id": 4294967295, "Task Type": ttype, "Physic Stream Id": STREAM,
                       "Task Id": self.task_id, "Batch Id": 0, "Subtask Id": 4294967295,
                       "connection_id": conn}, "ph": "X"}
        self.hw.append((start, ev))
        k = {"name": name, "type": op_type, "core": ttype, "start": start, "dur": dur,
             "task_id": self.task_id, "shapes": shapes or ("", "", "", "", "", ""),
             "compute": ttype in COMPUTE_TYPES}
        self.kernels.append(k)
        return k

    def h2d_flow(self, conn, s_ts, s_tid, kernel):
        fid = str(conn << 32)
        name = "HostToDevice" + fid
        self.h2d.append((s_ts, {"name": name, "ph": "s", "cat": "HostToDevice", "id": fid,
                                "pid": PID_CANN, "tid": s_tid, "ts": ts_str(s_ts)}))
        self.h2d.append((kernel["start"], {"name": name, "ph": "f", "id": fid,
                                           "ts": ts_str(kernel["start"]), "cat": "HostToDevice",
                                           "pid": PID_HW, "tid": STREAM, "bp": "e"}))

    # ---- the dispatch chain --------------------------------------------------------------
    def enqueue(self, tid, op_name, kernels, aclop=False, memcpy=None):
        """Enqueue@op on `tid` inside the current innermost torch op; Dequeue@op on the dequeue
        thread with its CANN APIs, Node@launch per kernel, device tasks and all flows.
        kernels: [(name, task type, op type, dur lo µs, dur hi µs, shapes)]."""
        inner = self.stack[tid][-1]
        cid = self.corr
        self.corr += 1
        enq_start = self.t[tid]
        enq_dur = self.us(3.5, 9)
        ev = {"ph": "X", "name": "Enqueue@" + op_name, "pid": PID, "tid": tid,
              "ts": ts_str(enq_start), "dur": dur_num(enq_dur), "cat": "enqueue",
              "args": {"correlation_id": cid}}
        self.add_fwk(enq_start, ev, [{"ph": "s", "bp": "e", "name": "enqueue_to_dequeue",
                                      "id": cid, "pid": PID, "tid": tid,
                                      "ts": ts_str(enq_start), "cat": "async_task_queue"}])
        self.enqueues.append((enq_start, cid))
        self.t[tid] += enq_dur

        dq_start = max(enq_start + self.us(7, 16), self.dq_free + self.us(1, 3))
        t = dq_start + self.us(1.5, 4)
        made = []
        if memcpy is not None:
            # aclrtMemcpyAsync: the HostToDevice start sits at the API (memcpy-async APIs link).
            nbytes, dlo, dhi = memcpy
            conn = self.conn
            self.conn += 1
            api_start = t
            api_dur = self.us(14, 26)
            self.cann_x(DQ, "AscendCL@aclrtMemcpyAsync", api_start, api_dur, "ACL_RTS", "acl",
                        "aclrtMemcpyAsync", conn)
            k = self.device_task("MEMCPY_ASYNC", "PCIE_DMA_SQE", "MEMCPY_ASYNC",
                                 api_start + api_dur, dlo, dhi, conn)
            self.hw[-1][1]["args"].update({"size(B)": nbytes,
                                           "bandwidth(GB/s)": round(nbytes / k["dur"], 6),
                                           "operation": "host to device"})
            self.h2d_flow(conn, api_start, DQ, k)
            made.append(k)
            t = api_start + api_dur + self.us(1, 3)
        else:
            conn_api = self.conn
            self.conn += 1
            api_start = t
            if aclop:
                api_name, mode, api_id = "AscendCL@aclopCompileAndExecute", "ACL_OP", \
                    "aclopCompileAndExecute"
                t += self.us(2, 5)
                first = op_name not in self.compiled
                self.compiled.add(op_name)
                c_dur = self.us(420, 520) if first else self.us(18, 30)
                self.cann_x(DQ, "AscendCL@opCompile", t, c_dur, "ACL_OP", "acl", "opCompile",
                            self.conn)
                self.conn += 1
                t += c_dur + self.us(3, 8)
            else:
                api_name, mode, api_id = "AscendCL@" + op_name, "ACL_NN", op_name
                t += self.us(2, 6)   # tiling / workspace inside the API
            for (kname, ttype, otype, dlo, dhi, shapes) in kernels:
                conn = self.conn
                self.conn += 1
                l_start = t + self.us(0.5, 2)
                l_dur = self.us(3, 8)
                self.cann_x(DQ, "Node@launch", l_start, l_dur, "launch", "node", "0", conn,
                            item=kname)
                k = self.device_task(kname, ttype, otype, l_start + l_dur, dlo, dhi, conn, shapes)
                self.h2d_flow(conn, l_start, DQ, k)
                made.append(k)
                t = l_start + l_dur
            t += self.us(1, 4)
            self.cann_x(DQ, api_name, api_start, t - api_start, mode, "acl", api_id, conn_api)
        dq_end = t + self.us(1, 3)
        self.dq_free = dq_end
        dev = {"ph": "X", "name": "Dequeue@" + op_name, "pid": PID, "tid": DQ,
               "ts": ts_str(dq_start), "dur": dur_num(dq_end - dq_start), "cat": "dequeue",
               "args": {"correlation_id": cid}}
        self.add_fwk(dq_start, dev, [{"ph": "f", "bp": "e", "name": "enqueue_to_dequeue",
                                      "id": cid, "pid": PID, "tid": DQ,
                                      "ts": ts_str(dq_start), "cat": "async_task_queue"}])
        for k in made:
            self.t2n.append({"ph": "s", "bp": "e", "name": "torch_to_npu", "id": k["start"],
                             "pid": PID, "tid": tid, "ts": ts_str(inner["start"]),
                             "cat": "async_npu"})
            self.t2n.append({"ph": "f", "bp": "e", "name": "torch_to_npu", "id": k["start"],
                             "pid": PID_HW, "tid": STREAM, "ts": ts_str(k["start"]),
                             "cat": "async_npu"})
        self.corr_kernels[cid] = made
        return made

    def aclnn(self, tid, aten, api, kernels, seq=-1, fwd=0, dims=None, types=None, wrap=None,
              empty=True):
        """aten op (optionally wrapped) -> [empty_tensor] -> op-plugin record `api` -> Enqueue."""
        names = (wrap or []) + [aten]

        def inner(i):
            if i < len(names):
                is_last = i == len(names) - 1
                with self.op(tid, names[i], seq=seq if is_last else -1, fwd=fwd,
                             dims=dims, types=types) as node:
                    inner(i + 1)
                return node
            if empty:
                with self.op(tid, "empty_tensor", pre=(4, 9), post=(2, 5)):
                    pass
            with self.op(tid, api, pre=(0.8, 2)):
                self.enqueue(tid, api, kernels)
        return inner(0)


def k_(name, ttype, otype, lo, hi, shapes=None):
    return (name, ttype, otype, lo, hi, shapes)


SH_X = ('"""64,3,64,64"""', "FLOAT", "NCHW", '"""64,3,64,64"""', "FLOAT16", "NC1HWC0")


def one_step(sim, n, bubble):
    rng = sim.rng
    step_seq = {}
    with sim.op(MAIN, "ProfilerStep#%d" % n, pre=(6, 10), post=(3, 6)) as step:
        # --- input copies (dataloader batch -> NPU) ---------------------------------------
        for shape, nbytes, lo, hi in (("64,3,64,64", 3145728, 105, 125), ("64", 512, 2, 3)):
            with sim.op(MAIN, "aten::to", dims=shape + ";\r\n;\r\n;\r\n;\r\n;\r\n",
                        types="float;\r\nScalar;\r\nScalar;\r\nNone;\r\nScalar;\r\nNone"):
                with sim.op(MAIN, "aten::_to_copy", dims=shape, types="float"):
                    with sim.op(MAIN, "aten::empty_strided", pre=(3, 6)):
                        pass
                    with sim.op(MAIN, "aten::copy_", dims=shape + ";\r\n" + shape,
                                types="float;\r\nfloat") as cp:
                        sim.enqueue(MAIN, "acl_memcpy_host_to_device", [],
                                    memcpy=(nbytes, lo, hi))
            sim.adv(MAIN, 8, 20)
        # --- forward ------------------------------------------------------------------------
        sim.adv(MAIN, 20, 40)
        seqs = {}
        with sim.op(MAIN, "aten::conv2d", dims="64,3,64,64;\r\n16,3,3,3;\r\n16",
                    types="float;\r\nfloat;\r\nfloat"):
            seqs["conv"] = sim.seq
            with sim.op(MAIN, "aten::convolution", seq=sim.seq,
                        dims="64,3,64,64;\r\n16,3,3,3;\r\n16", types="float;\r\nfloat;\r\nfloat"):
                with sim.op(MAIN, "aten::_convolution"):
                    # ACLOP: tensor descriptors are built on the calling thread.
                    t = sim.t[MAIN]
                    for api in ("aclCreateTensorDesc", "aclCreateDataBuffer") * 3 + \
                            ("aclopCreateAttr",):
                        d = sim.us(0.2, 1.8)
                        sim.cann_x(MAIN, "AscendCL@" + api, t, d, "ACL_OP", "acl", api, sim.conn)
                        sim.conn += 1
                        t += d + sim.us(0.5, 2.5)
                    sim.t[MAIN] = t + sim.us(3, 8)
                    with sim.op(MAIN, "Conv2D", pre=(1, 3)):
                        sim.enqueue(MAIN, "Conv2D", [
                            k_("trans_TransData_0", "AI_VECTOR_CORE", "TransData", 18, 24, SH_X),
                            k_("Conv2D1", "AI_CORE", "Conv2D", 300, 330,
                               ('"""64,1,64,64,16;1,1,16,16"""', "FLOAT16;FLOAT16",
                                "NC1HWC0;FRACTAL_Z", '"""64,1,62,62,16"""', "FLOAT16",
                                "NC1HWC0")),
                            k_("trans_TransData_1", "AI_VECTOR_CORE", "TransData", 30, 38)],
                            aclop=True)
        sim.seq += 1
        seqs["relu1"] = sim.seq
        sim.aclnn(MAIN, "aten::relu_", "aclnnInplaceRelu",
                  [k_("aclnnInplaceRelu_ReluAiCore_Relu", "AI_VECTOR_CORE", "Relu", 95, 110,
                      ('"""64,16,62,62"""', "FLOAT", "ND", '"""64,16,62,62"""', "FLOAT",
                       "ND"))], seq=sim.seq, dims="64,16,62,62", types="float", empty=False)
        sim.seq += 1
        with sim.op(MAIN, "aten::flatten", dims="64,16,62,62;\r\n;\r\n", types="float"):
            seqs["view"] = sim.seq
            with sim.op(MAIN, "aten::view", seq=sim.seq, dims="64,16,62,62;\r\n",
                        types="float;\r\nScalarList"):
                pass
        sim.seq += 1
        for name, inf, outf, mm_lo, mm_hi in (("fc1", 61504, 256, 240, 270),
                                              ("fc2", 256, 10, 9, 12)):
            sim.adv(MAIN, 10, 25)
            with sim.op(MAIN, "aten::linear", dims="64,%d;\r\n%d,%d;\r\n%d" % (inf, outf, inf, outf),
                        types="float;\r\nfloat;\r\nfloat"):
                with sim.op(MAIN, "aten::t", dims="%d,%d" % (outf, inf), types="float"):
                    with sim.op(MAIN, "aten::transpose", dims="%d,%d;\r\n;\r\n" % (outf, inf),
                                types="float;\r\nScalar;\r\nScalar"):
                        with sim.op(MAIN, "aten::as_strided"):
                            pass
                seqs[name] = sim.seq
                sim.aclnn(MAIN, "aten::addmm", "aclnnAddmm",
                          [k_("aclnnAddmm_MatMulCommon_MatMulV2", "AI_CORE", "MatMulV2", mm_lo,
                              mm_hi, ('"""%d;64,%d;%d,%d"""' % (outf, inf, inf, outf),
                                      "FLOAT;FLOAT;FLOAT", "ND;ND;ND", '"""64,%d"""' % outf,
                                      "FLOAT", "ND"))],
                          seq=sim.seq, dims="%d;\r\n64,%d;\r\n%d,%d;\r\n;\r\n" % (outf, inf, inf, outf),
                          types="float;\r\nfloat;\r\nfloat;\r\nScalar;\r\nScalar")
                sim.seq += 1
            if name == "fc1":
                seqs["relu2"] = sim.seq
                sim.aclnn(MAIN, "aten::relu", "aclnnRelu",
                          [k_("aclnnRelu_ReluAiCore_Relu", "AI_VECTOR_CORE", "Relu", 3, 4.5)],
                          seq=sim.seq, dims="64,256", types="float")
                sim.seq += 1
        sim.adv(MAIN, 15, 30)
        with sim.op(MAIN, "aten::cross_entropy_loss", dims="64,10;\r\n64;\r\n;\r\n;\r\n;\r\n",
                    types="float;\r\nlong int;\r\nNone;\r\nScalar;\r\nScalar;\r\nScalar"):
            with sim.op(MAIN, "aten::log_softmax", dims="64,10;\r\n;\r\n", types="float"):
                seqs["lsm"] = sim.seq
                sim.aclnn(MAIN, "aten::_log_softmax", "aclnnLogSoftmax",
                          [k_("aclnnLogSoftmax_LogSoftmaxV2AiCore_LogSoftmaxV2", "AI_VECTOR_CORE",
                              "LogSoftmaxV2", 3.5, 5)], seq=sim.seq, dims="64,10;\r\n;\r\n",
                          types="float;\r\nScalar;\r\nScalar")
                sim.seq += 1
            with sim.op(MAIN, "aten::nll_loss_nd", dims="64,10;\r\n64", types="float;\r\nlong int"):
                with sim.op(MAIN, "aten::nll_loss", dims="64,10;\r\n64", types="float;\r\nlong int"):
                    seqs["nll"] = sim.seq
                    sim.aclnn(MAIN, "aten::nll_loss_forward", "aclnnNLLLoss",
                              [k_("aclnnNLLLoss_NLLLossAiCore_NLLLoss", "AI_VECTOR_CORE", "NLLLoss",
                                  4, 6)], seq=sim.seq, dims="64,10;\r\n64", types="float;\r\nlong int")
                    sim.seq += 1
        # --- zero_grad + backward ------------------------------------------------------------
        sim.adv(MAIN, 20, 35)
        with sim.op(MAIN, "Optimizer.zero_grad#SGD.zero_grad", pre=(8, 15), post=(3, 6)):
            pass
        sim.adv(MAIN, 15, 30)
        sim.t[BWD] = sim.t[MAIN] + sim.us(20, 35)

        def bwd(fn_name, key, body):
            sim.adv(BWD, 4, 9)
            with sim.op(BWD, "autograd::engine::evaluate_function: " + fn_name, pre=(3, 6)):
                with sim.op(BWD, fn_name, seq=seqs[key], fwd=1) as node:
                    fwd_rec = fwd_nodes[key]
                    fwdbwd.append((seqs[key], fwd_rec, node))
                    body()

        fwdbwd = []
        fwd_nodes = {}
        for rec in sim.fwk:
            ev = rec[2]
            if ev["tid"] == MAIN and ev["ph"] == "X" and ev["cat"] == "cpu_op":
                sq = ev["args"].get("Sequence number", -1)
                for key, v in seqs.items():
                    if sq == v:
                        fwd_nodes[key] = rec

        def mm(a, b, lo, hi):
            sim.aclnn(BWD, "aten::mm", "aclnnMm",
                      [k_("aclnnMm_MatMulCommon_MatMulV2", "AI_CORE", "MatMulV2", lo, hi,
                          ('"""%s;%s"""' % (a, b), "FLOAT;FLOAT", "ND;ND", "", "FLOAT", "ND"))],
                      dims="%s;\r\n%s" % (a, b), types="float;\r\nfloat")

        def bsum(shape, lo, hi):
            sim.aclnn(BWD, "aten::sum", "aclnnReduceSum",
                      [k_("aclnnReduceSum_ReduceSumOpAiCore_ReduceSum", "AI_VECTOR_CORE",
                          "ReduceSum", lo, hi)], dims=shape + ";\r\n;\r\n;\r\n",
                      types="float;\r\nScalarList;\r\nScalar;\r\nNone")

        bwd("NllLossBackward0", "nll", lambda: sim.aclnn(
            BWD, "aten::nll_loss_backward", "aclnnNLLLossBackward",
            [k_("aclnnNLLLossBackward_NLLLossGradAiCore_NLLLossGrad", "AI_VECTOR_CORE",
                "NLLLossGrad", 3, 4.5)], dims="1;\r\n64,10;\r\n64", types="float;\r\nfloat;\r\nlong int"))
        bwd("LogSoftmaxBackward0", "lsm", lambda: sim.aclnn(
            BWD, "aten::_log_softmax_backward_data", "aclnnLogSoftmaxBackward",
            [k_("aclnnLogSoftmaxBackward_LogSoftmaxGradAiCore_LogSoftmaxGrad", "AI_VECTOR_CORE",
                "LogSoftmaxGrad", 3.5, 5)], dims="64,10;\r\n64,10", types="float;\r\nfloat"))
        bwd("AddmmBackward0", "fc2", lambda: (mm("64,10", "10,256", 8, 11),
                                              mm("10,64", "64,256", 8, 11), bsum("64,10", 3, 4)))
        bwd("ReluBackward0", "relu2", lambda: sim.aclnn(
            BWD, "aten::threshold_backward", "aclnnThresholdBackward",
            [k_("aclnnThresholdBackward_ReluGradAiCore_ReluGrad", "AI_VECTOR_CORE", "ReluGrad",
                3, 4.5)], dims="64,256;\r\n64,256;\r\n", types="float;\r\nfloat;\r\nScalar"))
        bwd("AddmmBackward0", "fc1", lambda: (mm("64,256", "256,61504", 250, 280),
                                              mm("256,64", "64,61504", 260, 295),
                                              bsum("64,256", 4, 6)))
        bwd("ViewBackward0", "view", lambda: sim.adv(BWD, 8, 14))   # a view: no kernel
        bwd("ReluBackward0", "relu1", lambda: sim.aclnn(
            BWD, "aten::threshold_backward", "aclnnThresholdBackward",
            [k_("aclnnThresholdBackward_ReluGradAiCore_ReluGrad", "AI_VECTOR_CORE", "ReluGrad",
                100, 115)], dims="64,16,62,62;\r\n64,16,62,62;\r\n", types="float;\r\nfloat;\r\nScalar"))

        def conv_bwd():
            with sim.op(BWD, "aten::convolution_backward", dims="64,16,62,62;\r\n64,3,64,64;\r\n16,3,3,3",
                        types="float;\r\nfloat;\r\nfloat"):
                t = sim.t[BWD]
                for api in ("aclCreateTensorDesc", "aclCreateDataBuffer") * 3 + ("aclopCreateAttr",):
                    d = sim.us(0.2, 1.8)
                    sim.cann_x(BWD, "AscendCL@" + api, t, d, "ACL_OP", "acl", api, sim.conn)
                    sim.conn += 1
                    t += d + sim.us(0.5, 2.5)
                sim.t[BWD] = t + sim.us(3, 8)
                with sim.op(BWD, "Conv2DBackpropFilter", pre=(1, 3)):
                    sim.enqueue(BWD, "Conv2DBackpropFilter", [
                        k_("trans_TransData_2", "AI_VECTOR_CORE", "TransData", 60, 70),
                        k_("Conv2DBackpropFilter2_MemSet", "AI_VECTOR_CORE", "MemSet", 1.5, 2.2),
                        k_("Conv2DBackpropFilter2", "AI_CORE", "Conv2DBackpropFilter", 380, 420),
                        k_("trans_TransData_3", "AI_VECTOR_CORE", "TransData", 2, 3)], aclop=True)
                bsum("64,16,62,62", 45, 55)
        bwd("ConvolutionBackward0", "conv", conv_bwd)
        for _ in range(6):
            sim.adv(BWD, 3, 7)
            with sim.op(BWD, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad"):
                with sim.op(BWD, "torch::autograd::AccumulateGrad"):
                    with sim.op(BWD, "aten::detach"):
                        with sim.op(BWD, "detach"):
                            pass
        sim.t[MAIN] = max(sim.t[MAIN], sim.t[BWD]) + sim.us(25, 45)
        for seq, frec, bnode in fwdbwd:
            frec[3].append({"ph": "s", "bp": "e", "name": "fwdbwd", "id": seq, "pid": PID,
                            "tid": MAIN, "ts": ts_str(frec[0]), "cat": "fwdbwd"})
            bnode["rec"][3].append({"ph": "f", "bp": "e", "name": "fwdbwd", "id": seq, "pid": PID,
                                    "tid": BWD, "ts": ts_str(bnode["start"]), "cat": "fwdbwd"})
        # --- optimizer --------------------------------------------------------------------------
        with sim.op(MAIN, "Optimizer.step#SGD.step", pre=(20, 35), post=(6, 12)):
            sim.aclnn(MAIN, "aten::_foreach_add_", "aclnnForeachAddListV2",
                      [k_("aclnnForeachAddListV2_ForeachAddListV2AiCore_ForeachAddList",
                          "AI_VECTOR_CORE", "ForeachAddList", 135, 150)],
                      dims="[16,3,3,3], [16], [256,61504], [256], [10,256], [10];\r\n"
                           "[16,3,3,3], [16], [256,61504], [256], [10,256], [10];\r\n",
                      types="TensorList;\r\nTensorList;\r\nScalar", empty=False)
        # --- the bubble: loss.item() then host-bound metric bookkeeping ------------------------
        if bubble:
            sim.adv(MAIN, 10, 20)
            with sim.op(MAIN, "aten::item", dims="", types="float"):
                with sim.op(MAIN, "aten::_local_scalar_dense", dims="", types="float", pre=(2, 4)):
                    s0 = sim.t[MAIN]
                    s_end = max(s0 + sim.us(3, 5), sim.dev_free + sim.us(7, 12))
                    sim.cann_x(MAIN, "AscendCL@aclrtSynchronizeStream", s0, s_end - s0, "ACL_RTS",
                               "acl", "aclrtSynchronizeStream", sim.conn)
                    sim.conn += 1
                    m0 = s_end + sim.us(2, 4)
                    conn = sim.conn
                    sim.conn += 1
                    k = sim.device_task("MEMCPY_ASYNC", "PCIE_DMA_SQE", "MEMCPY_ASYNC", m0, 1.8, 2.4,
                                        conn)
                    sim.hw[-1][1]["args"].update({"size(B)": 4,
                                                  "bandwidth(GB/s)": round(4 / k["dur"], 6),
                                                  "operation": "device to host"})
                    m_end = k["start"] + k["dur"] + sim.us(6, 9)
                    sim.cann_x(MAIN, "AscendCL@aclrtMemcpy", m0, m_end - m0, "ACL_RTS", "acl",
                               "aclrtMemcpy", conn)
                    sim.h2d_flow(conn, m0, MAIN, k)
                    sim.bubble_sync = (s0, s_end)
                    sim.t[MAIN] = m_end + sim.us(2, 4)
            sim.adv(MAIN, 1050, 1150)   # Python-side logging: nothing on the NPU
            tiny = [("aten::argmax", "aclnnArgMax", "aclnnArgMax_ArgMaxV2AiCore_ArgMaxV2", "ArgMaxV2"),
                    ("aten::eq", "aclnnEqTensor", "aclnnEqTensor_EqualAiCore_Equal", "Equal"),
                    ("aten::sum", "aclnnReduceSum", "aclnnReduceSum_ReduceSumOpAiCore_ReduceSum",
                     "ReduceSum"),
                    ("aten::add_", "aclnnInplaceAdd", "aclnnInplaceAdd_AddAiCore_Add", "Add"),
                    ("aten::mul", "aclnnMuls", "aclnnMuls_MulAiCore_Mul", "Mul"),
                    ("aten::div", "aclnnDivs", "aclnnDivs_RealDivAiCore_RealDiv", "RealDiv")]
            for i in range(30):
                aten, api, kname, otype = tiny[i % len(tiny)]
                sim.adv(MAIN, 14, 26)
                sim.aclnn(MAIN, aten, api, [k_(kname, "AI_VECTOR_CORE", otype, 1.2, 2.8)],
                          dims="64" if i % 6 < 2 else "", types="float")
    sim.steps.append((n, step["start"], step["end"]))
    sim.adv(MAIN, 25, 45)


def overlap(sim):
    """Computing = union of compute tasks, Free = the gaps between them (as real captures write it)."""
    comp = sorted((k["start"], k["start"] + k["dur"]) for k in sim.kernels if k["compute"])
    merged = []
    for s, e in comp:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    # The Overlap lanes of real captures span the first to the last Computing/Communication
    # interval: leading/trailing memcpy or event tasks are not Free (checked on the 910A/910B
    # corpus captures, see core/analysis/overlap.cpp), although §4.1 of the format notes says so.
    begin = merged[0][0]
    end = max(e for _, e in merged)
    free = []
    cur = begin
    for s, e in merged:
        if s > cur:
            free.append((cur, s))
        cur = max(cur, e)
    if end > cur:
        free.append((cur, end))
    return [(s, e) for s, e in merged], free


def step_windows(sim):
    """§4.3 text: device step = first kernel of the first corr id with kernels .. max(last corr
    id's kernel end, host step end)."""
    out = []
    for n, hs, he in sim.steps:
        # Enqueues inside the step (the autograd thread's fall in its time range too).
        cids = sorted(c for ts, c in sim.enqueues if hs <= ts <= he)
        with_k = [c for c in cids if sim.corr_kernels.get(c)]
        if with_k:
            first = sim.corr_kernels[with_k[0]]
            last = sim.corr_kernels[with_k[-1]]
            start = min(k["start"] for k in first)
            end = max(max(k["start"] + k["dur"] for k in last), he)
        else:
            start, end = hs, he
        out.append((n, hs, he, start, end))
    return out


def step_trace_rows(sim, comp, free, windows):
    """§4.2, reproduced with torch_npu's float arithmetic on µs values."""
    evs = [("Computing", s, e) for s, e in comp] + [("Free", s, e) for s, e in free]
    evs.sort(key=lambda x: x[1])
    rows = []
    for n, hs, he, start, end in windows:
        st, en = float(ts_str(start)), float(ts_str(end))
        computing = 0
        freesum = 0
        first_busy = None
        lo = hi = None
        for name, s, e in evs:
            ts = float(ts_str(s))
            if not (st <= ts < en):
                continue
            dur = dur_num(e - s)
            if name == "Computing":
                computing += dur
                if first_busy is None:
                    first_busy = ts
            else:
                freesum += dur
            lo = ts if lo is None else min(lo, ts)
            hi = ts + dur if hi is None else max(hi, ts + dur)
        stage = (hi - lo) - 0 if lo is not None else 0  # minus Bubble (no hcom_receive)
        preparing = (first_busy - float(ts_str(hs))) if first_busy is not None else 0
        rows.append([DEVICE, n, computing, 0, 0, 0, freesum, stage, 0, 0, preparing])
    return rows


def kernel_step(windows, start):
    for n, hs, he, s, e in windows:
        if s <= start <= e:
            return n
    return ""


PMU_COLS = ["Context ID", "aicore_time(us)", "aic_total_cycles", "aic_mac_time(us)", "aic_mac_ratio",
            "aic_scalar_time(us)", "aic_scalar_ratio", "aic_mte1_time(us)", "aic_mte1_ratio",
            "aic_mte2_time(us)", "aic_mte2_ratio", "aic_fixpipe_time(us)", "aic_fixpipe_ratio",
            "aic_icache_miss_rate", "aiv_time(us)", "aiv_total_cycles", "aiv_vec_time(us)",
            "aiv_vec_ratio", "aiv_scalar_time(us)", "aiv_scalar_ratio", "aiv_mte2_time(us)",
            "aiv_mte2_ratio", "aiv_mte3_time(us)", "aiv_mte3_ratio", "aiv_icache_miss_rate",
            "cube_utilization(%)"]


def write_kernel_details(sim, windows, path):
    rng = random.Random(SEED + 1)
    head = ["Step Id", "Device_id", "Model ID", "Task ID", "Stream ID", "Name", "Type", "OP State",
            "Accelerator Core", "Start Time(us)", "Duration(us)", "Wait Time(us)", "Block Num",
            "Mix Block Num", "HF32 Eligible", "Input Shapes", "Input Data Types", "Input Formats",
            "Output Shapes", "Output Data Types", "Output Formats"] + PMU_COLS
    lines = [",".join(head)]
    prev_end = None
    for k in sorted(sim.kernels, key=lambda k: k["start"]):
        wait = 0 if prev_end is None else (k["start"] - prev_end)
        prev_end = k["start"] + k["dur"]
        if not k["compute"]:
            continue
        d = k["dur"] / 1000
        cycles = int(d * 1800 * (24 if k["core"] == "AI_CORE" else 48))
        blocks = 24 if k["core"] == "AI_CORE" else (48 if d > 10 else 8)
        shapes = k["shapes"]
        if k["core"] == "AI_CORE":
            r = [rng.uniform(0.3, 0.8), rng.uniform(0.02, 0.1), rng.uniform(0.1, 0.4),
                 rng.uniform(0.3, 0.7), rng.uniform(0.05, 0.3)]
            pmu = ["N/A", "%.3f" % (d * 0.97), str(cycles)]
            for x in r:
                pmu += ["%.3f" % (d * x), "%.3f" % x]
            pmu += ["%.3f" % rng.uniform(0, 0.05)] + ["0.0", "0"] + ["0.0"] * 9 + ["%.3f" % (r[0] * 97)]
        else:
            r = [rng.uniform(0.2, 0.7), rng.uniform(0.05, 0.3), rng.uniform(0.2, 0.8),
                 rng.uniform(0.1, 0.6)]
            pmu = ["N/A", "0.0", "0"] + ["0.0"] * 11 + ["%.3f" % (d * 0.96), str(cycles)]
            for x in r:
                pmu += ["%.3f" % (d * x), "%.3f" % x]
            pmu += ["%.3f" % rng.uniform(0, 0.1), "0.000"]
        row = [str(kernel_step(windows, k["start"])), str(DEVICE), "4294967295", str(k["task_id"]),
               str(STREAM), k["name"], k["type"], "dynamic", k["core"], ts_str(k["start"]) + "\t",
               "%.3f" % d, "0" if wait == 0 else "%.6f" % (wait / 1000), str(blocks), "0", "NO",
               shapes[0] or "N/A", shapes[1] or "N/A", shapes[2] or "N/A",
               shapes[3] or "N/A", shapes[4] or "N/A", shapes[5] or "N/A"] + pmu
        lines.append(",".join(row))
    with open(path, "w", newline="") as f:
        f.write("\r\n".join(lines) + "\r\n")


def write_op_statistic(sim, path):
    stats = {}
    for k in sim.kernels:
        if not k["compute"]:
            continue
        st = stats.setdefault((k["type"], k["core"]), [])
        st.append(k["dur"] / 1000)
    total = sum(sum(v) for v in stats.values())
    rows = sorted(stats.items(), key=lambda kv: -sum(kv[1]))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(["Device_id", "OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)",
                "Avg Time(us)", "Max Time(us)", "Ratio(%)"])
    for (otype, core), v in rows:
        w.writerow([DEVICE, otype, core, len(v), round(sum(v), 3), round(min(v), 3),
                    round(sum(v) / len(v), 3), round(max(v), 3), round(100 * sum(v) / total, 3)])
    with open(path, "w", newline="") as f:
        f.write(out.getvalue())


def metadata_events():
    py = [{"ph": "M", "name": "process_name", "pid": PID, "tid": 0, "args": {"name": "Python"}},
          {"ph": "M", "name": "process_labels", "pid": PID, "tid": 0, "args": {"labels": "CPU"}},
          {"ph": "M", "name": "process_sort_index", "pid": PID, "tid": 0, "args": {"sort_index": 0}}]
    for tid, sidx in ((MAIN, MAIN), (BWD, BWD), (DQ, max(MAIN, BWD, DQ) + 1)):
        py.append({"ph": "M", "name": "thread_name", "pid": PID, "tid": tid,
                   "args": {"name": "Thread %d" % tid}})
        py.append({"ph": "M", "name": "thread_sort_index", "pid": PID, "tid": tid,
                   "args": {"sort_index": sidx}})
    return py


def ms_meta(pid, name, label, sort, threads=()):
    out = [{"name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}, "ph": "M"},
           {"name": "process_labels", "pid": pid, "tid": 0, "args": {"labels": label}, "ph": "M"},
           {"name": "process_sort_index", "pid": pid, "tid": 0, "args": {"sort_index": sort},
            "ph": "M"}]
    for tid, tname in threads:
        out.append({"name": "thread_name", "pid": pid, "tid": tid, "args": {"name": tname},
                    "ph": "M"})
        out.append({"name": "thread_sort_index", "pid": pid, "tid": tid,
                    "args": {"sort_index": tid}, "ph": "M"})
    return out


def self_check(root):
    """Re-derive step_trace_time.csv from the written trace_view.json alone, the way torch_npu's
    text parser does (§4.3 step windows via HostToDevice -> Dequeue -> correlation id, §4.2 sums),
    and check that every flow binds (tools/oracles/count_corpus.py)."""
    out_dir = os.path.join(root, "ASCEND_PROFILER_OUTPUT")
    ev = json.load(open(os.path.join(out_dir, "trace_view.json")))

    def ns(v):
        a, _, b = str(v).partition(".")
        return int(a) * 1000 + int((b + "000")[:3])

    x = [e for e in ev if e.get("ph") == "X"]
    hw = {(e["pid"], e["tid"], ns(e["ts"])): e for e in x if e["pid"] == PID_HW}
    h2d_s = {e["id"]: ns(e["ts"]) for e in ev if e.get("cat") == "HostToDevice" and e["ph"] == "s"}
    acl_kernels = {}
    for e in ev:
        if e.get("cat") == "HostToDevice" and e["ph"] == "f":
            k = hw[(e["pid"], e["tid"], ns(e["ts"]))]
            acl_kernels.setdefault(h2d_s[e["id"]], []).append(k)
    deq = sorted((ns(e["ts"]), ns(e["ts"]) + round(e["dur"] * 1000), e["args"]["correlation_id"])
                 for e in x if e.get("cat") == "dequeue")
    corr_k = {}
    for acl_ts, ks in acl_kernels.items():
        for s0, e0, cid in deq:
            if s0 <= acl_ts <= e0:
                corr_k.setdefault(cid, []).extend(ks)
                break
    enq = [(ns(e["ts"]), e["args"]["correlation_id"]) for e in x if e.get("cat") == "enqueue"]
    ov = sorted((e["name"], ns(e["ts"]), e["dur"]) for e in x if e["pid"] == PID_OVERLAP)
    rows = list(csv.reader(open(os.path.join(out_dir, "step_trace_time.csv"))))[1:]
    for e in sorted((e for e in x if e["name"].startswith("ProfilerStep#")), key=lambda e: e["ts"]):
        n = int(e["name"].split("#")[1])
        hs, he = ns(e["ts"]), ns(e["ts"]) + round(e["dur"] * 1000)
        cids = sorted(c for t, c in enq if hs <= t <= he and corr_k.get(c))
        start = min(ns(k["ts"]) for k in corr_k[cids[0]])
        end = max(max(ns(k["ts"]) + round(k["dur"] * 1000) for k in corr_k[cids[-1]]), he)
        st, en = float(ts_str(start)), float(ts_str(end))
        comp = sum(d for name, t, d in sorted(ov, key=lambda o: o[1])
                   if name == "Computing" and st <= float(ts_str(t)) < en)
        free = sum(d for name, t, d in sorted(ov, key=lambda o: o[1])
                   if name == "Free" and st <= float(ts_str(t)) < en)
        row = [r for r in rows if r[1] == str(n)][0]
        assert abs(float(row[2]) - comp) < 1e-6 and abs(float(row[6]) - free) < 1e-6, (n, row, comp, free)
    kd = list(csv.reader(open(os.path.join(out_dir, "kernel_details.csv"))))
    n_compute = sum(1 for k in hw.values() if k["args"]["Task Type"] in COMPUTE_TYPES)
    assert len(kd) - 1 == n_compute, (len(kd) - 1, n_compute)
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import count_corpus
    r = count_corpus.analyse(os.path.join(out_dir, "trace_view.json"))
    for cat, tot in r["flow_events"].items():
        assert r["flows_bound"].get(cat, 0) == tot["f"] == tot["s"], (cat, r["flows_bound"], tot)
    print("  self-check OK: step_trace_time.csv re-derived from trace_view.json, %d kernel rows, "
          "all %d flows bound" % (n_compute, sum(r["flows_bound"].values())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "resources", "sample"))
    a = ap.parse_args()

    sim = Sim()
    for n in (1, 2, 3):
        one_step(sim, n, bubble=(n == 2))
    comp, free = overlap(sim)
    windows = step_windows(sim)

    # ---- trace_view.json: FWK part, then msprof layers, then torch_to_npu flows -----------
    fwk_events = metadata_events()
    for start, _, ev, flows in sorted(sim.fwk, key=lambda r: (r[0], r[1])):
        fwk_events.append(ev)
        fwk_events.extend(flows)
    msprof = []
    msprof += ms_meta(PID_CANN, "CANN", "CPU", 7,
                      [(t, "Thread %d" % t) for t in sorted(sim.cann_tids)])
    msprof += [ev for _, ev in sorted(sim.cann, key=lambda x: x[0])]
    msprof += [ev for _, ev in sorted(sim.h2d, key=lambda x: (x[0], x[1]["ph"] == "f")) if ev["ph"] == "s"]
    msprof += ms_meta(PID_HW, "Ascend Hardware", "NPU %d" % DEVICE, 14, [(STREAM, "Stream %d" % STREAM)])
    msprof += [ev for _, ev in sorted(sim.hw, key=lambda x: x[0])]
    msprof += [ev for _, ev in sorted(sim.h2d, key=lambda x: x[0]) if ev["ph"] == "f"]
    # AI Core Freq: a sample at start and on every change (drops while the device idles).
    t0 = min(k["start"] for k in sim.kernels) - 250_000
    t_end = max(k["start"] + k["dur"] for k in sim.kernels) + 150_000
    msprof += ms_meta(PID_FREQ, "AI Core Freq", "NPU %d" % DEVICE, 15)
    longest_free = max(free, key=lambda f: f[1] - f[0])
    for ts, mhz in ((t0, 1800), (longest_free[0] + 400_000, 1300), (longest_free[1] - 40_000, 1800)):
        msprof.append({"name": "AI Core Freq", "ts": ts_str(ts), "pid": PID_FREQ, "tid": 0,
                       "args": {"MHz": mhz}, "ph": "C"})
    msprof += ms_meta(PID_MEM, "NPU MEM", "NPU %d" % DEVICE, 17)
    rng = random.Random(SEED + 2)
    t = t0
    app = 1_842_176.0
    while t < t_end:
        app += rng.choice((0, 0, 12288.0, -12288.0, 4096.0, -4096.0))
        for series, v in (("APP/HBM", app), ("APP/DDR", 0.0), ("Device/HBM", app + 3_211_264.0)):
            msprof.append({"name": series, "ts": ts_str(t), "pid": PID_MEM, "tid": 0,
                           "args": {"KB": v}, "ph": "C"})
        t += 200_000
    msprof += ms_meta(PID_OVERLAP, "Overlap Analysis", "NPU %d" % DEVICE, 31,
                      [(0, "Computing"), (3, "Free")])
    for name, tid, spans in (("Computing", 0, comp), ("Free", 3, free)):
        for s, e in spans:
            msprof.append({"name": name, "pid": PID_OVERLAP, "tid": tid, "ts": ts_str(s),
                           "dur": dur_num(e - s), "args": {}, "ph": "X"})
    msprof += sim.t2n

    root = os.path.join(os.path.abspath(a.out), FOLDER)
    if os.path.isdir(root):
        shutil.rmtree(root)
    out_dir = os.path.join(root, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out_dir)
    # torch_npu writes the FWK array without its closing bracket, then appends "," + rest + "]".
    text = json.dumps(fwk_events)[:-1] + "," + json.dumps(msprof)[1:]
    with open(os.path.join(out_dir, "trace_view.json"), "w") as f:
        f.write(text)

    rows = step_trace_rows(sim, comp, free, windows)
    with open(os.path.join(out_dir, "step_trace_time.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(["Device_id", "Step", "Computing", "Communication(Not Overlapped)", "Overlapped",
                    "Communication", "Free", "Stage", "Bubble",
                    "Communication(Not Overlapped and Exclude Receive)", "Preparing"])
        for r in rows:
            w.writerow(r)
    write_kernel_details(sim, windows, os.path.join(out_dir, "kernel_details.csv"))
    write_op_statistic(sim, os.path.join(out_dir, "op_statistic.csv"))

    first_ts = min(r[0] for r in sim.fwk)
    info = {
        "config": {
            "common_config": {
                "activities": ["ProfilerActivity.CPU", "ProfilerActivity.NPU"],
                "schedule": {"wait": 0, "active": 3, "warmup": 1, "repeat": 1, "skip_first": 0},
                "record_shapes": True, "profile_memory": False, "with_stack": False,
                "with_flops": False, "with_modules": False},
            "experimental_config": {
                "_profiler_level": "Level1", "_aic_metrics": "ACL_AICORE_PIPE_UTILIZATION",
                "_l2_cache": False, "_msprof_tx": False, "_mstx": False,
                "_data_simplification": True, "record_op_args": False, "_export_type": ["text"],
                "_host_sys": [], "_op_attr": False, "_gc_detect_threshold": None,
                "_mstx_domain_include": [], "_mstx_domain_exclude": [], "_sys_io": False,
                "_sys_interconnection": False}},
        "start_info": {"syscnt_enable": True, "freq": 100, "start_cnt": 912873460152830,
                       "start_monotonic": 9128734601528300},
        "end_info": {"collectionTimeEnd": t_end + 2_000_000,
                     "MonotonicTimeEnd": 9128734601528300 + (t_end + 2_000_000 - first_ts)},
        "torch_npu_version": "2.7.1",
        "cann_version": "8.3.RC1",
        "rank_id": 0}
    with open(os.path.join(root, "profiler_info_0.json"), "w") as f:
        json.dump(info, f, indent=4)
    meta = {"ENV_VARIABLES": {"ASCEND_GLOBAL_LOG_LEVEL": "", "HCCL_RDMA_TC": "", "HCCL_RDMA_SL": "",
                              "ACLNN_CACHE_LIMIT": "", "HOST_CACHE_CAPACITY": "",
                              "ASCEND_ENHANCE_ENABLE": "", "PYTORCH_NPU_ALLOC_CONF": "",
                              "ASCEND_LAUNCH_BLOCKING": "", "TASK_QUEUE_ENABLE": "1"},
            "model": "npuscope synthetic tiny CNN (generated by scripts/gen_sample.py)"}
    with open(os.path.join(root, "profiler_metadata.json"), "w") as f:
        json.dump(meta, f, indent=4)
    with open(os.path.join(out_dir, "analyse.done"), "w"):
        pass

    # ---- summary for the README / tests ------------------------------------------------------
    s2 = [w for w in windows if w[0] == 2][0]
    bub = max((f for f in free if s2[3] <= f[0] < s2[4]), key=lambda f: f[1] - f[0])
    print("wrote", root)
    print("  trace_view.json: %d bytes, %d events" % (len(text), len(fwk_events) + len(msprof)))
    print("  kernels: %d device tasks (%d compute)" % (len(sim.kernels),
                                                       sum(k["compute"] for k in sim.kernels)))
    for n, hs, he, s, e in windows:
        print("  ProfilerStep#%d host [%d, %d) device [%d, %d)" % (n, hs, he, s, e))
    print("  bubble: longest Free in step 2 starts %d ns, lasts %d ns (%s us)" %
          (bub[0], bub[1] - bub[0], dur_num(bub[1] - bub[0])))
    print("  sync: AscendCL@aclrtSynchronizeStream [%d, %d) = %d ns" %
          (sim.bubble_sync[0], sim.bubble_sync[1], sim.bubble_sync[1] - sim.bubble_sync[0]))
    for r in rows:
        print("  step_trace_time:", r)
    self_check(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
