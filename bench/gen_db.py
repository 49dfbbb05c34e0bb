#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the SQLite export of a torch_npu-shaped trace_view.json (e.g. one npuscope_gen_trace
wrote), for comparing the load rate of the two readers on the same capture (docs/benchmarks.md).

The schema is the torch_npu db export's (format notes §5.3): STRING_IDS, PYTORCH_API (times as
TEXT), CANN_API, TASK + COMPUTE_TASK_INFO, COMMUNICATION_OP, COMMUNICATION_TASK_INFO (+ TASK),
CONNECTION_IDS (Enqueue/Dequeue correlation ids, fwdbwd pairs, torch op -> kernel launch ids),
STEP_TIME, OVERLAP_ANALYSIS, NPU_MEM, AICORE_FREQ, ENUM_API_TYPE. Standard library only.

Usage: python3 bench/gen_db.py TRACE_VIEW.json OUTPUT.db   (OUTPUT.db is replaced)
"""

import json
import os
import sqlite3
import sys


def ns(ts):
    whole, _, frac = str(ts).partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def main():
    src, dst = sys.argv[1], sys.argv[2]
    with open(src) as f:
        events = json.load(f, parse_float=str)
    if isinstance(events, dict):
        events = events["traceEvents"]
    if os.path.exists(dst):
        os.remove(dst)
    db = sqlite3.connect(dst)
    db.executescript("""
      CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
      CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER,
        sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER,
        type INTEGER);
      CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
      CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER, globalTid INTEGER,
        connectionId INTEGER PRIMARY KEY, name INTEGER);
      CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER, globalTaskId INTEGER,
        globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER, modelId INTEGER);
      CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER PRIMARY KEY, blockDim INTEGER,
        mixBlockDim INTEGER, taskType INTEGER, opType INTEGER, inputShapes INTEGER);
      CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId INTEGER,
        groupName INTEGER, opId INTEGER PRIMARY KEY, relay INTEGER, retry INTEGER, dataType INTEGER, algType INTEGER,
        count NUMERIC, opType INTEGER);
      CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER, globalTaskId INTEGER, taskType INTEGER, planeId INTEGER,
        groupName INTEGER, notifyId INTEGER, srcRank INTEGER, dstRank INTEGER, size INTEGER, opId INTEGER);
      CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
      CREATE TABLE OVERLAP_ANALYSIS (id INTEGER PRIMARY KEY AUTOINCREMENT, deviceId INTEGER, startNs INTEGER,
        endNs INTEGER, type INTEGER);
      CREATE TABLE NPU_MEM (type INTEGER, ddr NUMERIC, hbm NUMERIC, timestampNs INTEGER, deviceId INTEGER);
      CREATE TABLE AICORE_FREQ (deviceId INTEGER, timestampNs NUMERIC, freq INTEGER);
    """)
    db.executemany("INSERT INTO ENUM_API_TYPE VALUES (?, ?)",
                   [(5000, "runtime"), (5500, "hccl"), (10000, "node"), (15000, "model"), (20000, "acl"),
                    (50001, "op"), (50002, "queue"), (50003, "trace"), (50004, "mstx")])
    strings = {}

    def sid(text):
        if text not in strings:
            strings[text] = len(strings) + (1 << 28)
        return strings[text]

    proc = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}
    thread = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
              if e.get("ph") == "M" and e.get("name") == "thread_name"}
    python_pid = next((p for p, n in proc.items() if n == "Python"), 0)
    # Flows by (cat, id): the start and finish (pid, tid, ts).
    flows = {}
    for e in events:
        if e.get("ph") in ("s", "f"):
            flows.setdefault((e.get("cat"), str(e.get("id"))), {})[e["ph"]] = (e["pid"], e["tid"], ns(e["ts"]))
    # torch op start (pid, tid, ts) -> kernel (pid, tid, ts) of its async_npu flows; fwdbwd pairs.
    npu_of = {}
    fwd_id = {}
    next_fwd = (5 << 28) + 10000000
    for (cat, _), se in flows.items():
        if "s" not in se or "f" not in se:
            continue
        if cat == "async_npu":
            npu_of.setdefault(se["s"], []).append(se["f"])
        elif cat == "fwdbwd":
            fwd_id[se["s"]] = next_fwd
            fwd_id[se["f"]] = next_fwd
            next_fwd += 1
    kernel_conn = {}
    rows_py, rows_conn, rows_cann, rows_task, rows_cti, rows_op, rows_ctask = [], [], [], [], [], [], []
    rows_step, rows_overlap, rows_mem, rows_freq = [], [], [], []
    overlap_types = {"Computing": 0, "Communication": 1, "Communication(Not Overlapped)": 2, "Free": 3}
    levels = {"AscendCL": 20000, "Node": 10000, "Runtime": 5000, "Model": 15000, "Communication": 5500}
    compute_types = {"AI_CORE", "AI_VECTOR_CORE", "AI_CPU", "MIX_AIC", "MIX_AIV", "FFTS_PLUS"}
    groups = {}
    task_id = 0
    # Device tasks first (their connection ids are needed by the torch ops).
    for e in events:
        if e.get("ph") != "X":
            continue
        name, pid, tid, start = e["name"], e["pid"], e["tid"], ns(e["ts"])
        end = start + int(round(float(e.get("dur", 0)) * 1000))
        args = e.get("args") or {}
        pname = proc.get(pid, "")
        if pname == "Ascend Hardware":
            conn = int(args.get("connection_id", 4294967295))
            ttype = args.get("Task Type", "")
            rows_task.append((start, end, 0, conn, task_id, python_pid, sid(ttype), 4294967295, tid,
                              int(args.get("Task Id", 0)), 4294967295))
            if ttype in compute_types:
                rows_cti.append((sid(name), task_id, 1, 0, sid(ttype), sid(name.split("_")[-1]), sid("")))
            kernel_conn[(pid, tid, start)] = conn
            task_id += 1
        elif pname in ("Communication", "HCCL"):
            tname = thread.get((pid, tid), "")
            if tname.startswith("Plane"):
                rows_task.append((start, end, 0, 4294967295, task_id, python_pid, sid(name), 0, 9, 0, 4294967295))
                rows_ctask.append((sid(name), task_id, sid(name), int(tname.split()[-1]), sid("group"), 0, 3,
                                   int(args.get("dst rank", 0) or 0), int(args.get("size(Byte)", 0) or 0), 0))
                task_id += 1
            else:
                groups.setdefault(tname, len(groups))
                conn = int(args.get("connection_id", 4294967295))
                rows_op.append((sid(name), start, end, conn, sid("group"), len(rows_op) + 1, 0, 0, 4, sid("RING"),
                                args.get("count", 0), sid("hcom_allReduce_")))
                kernel_conn[(pid, tid, start)] = conn
        elif pname == "Overlap Analysis" and name in overlap_types:
            rows_overlap.append((0, start, end, overlap_types[name]))
    for e in events:
        if e.get("ph") == "X":
            name, pid, tid, start = e["name"], e["pid"], e["tid"], ns(e["ts"])
            end = start + int(round(float(e.get("dur", 0)) * 1000))
            args = e.get("args") or {}
            pname = proc.get(pid, "")
            if pname == "Python":
                cat = e.get("cat", "")
                typ = {"enqueue": 50002, "dequeue": 50002, "python_function": 50003}.get(cat, 50001)
                ids = []
                if "correlation_id" in args:
                    ids.append(int(args["correlation_id"]) + (5 << 28))
                for k in npu_of.get((pid, tid, start), []):
                    if k in kernel_conn:
                        ids.append(kernel_conn[k])
                if (pid, tid, start) in fwd_id:
                    ids.append(fwd_id[(pid, tid, start)])
                key = None
                if ids:
                    key = len(rows_py)
                    rows_conn.extend((key, c) for c in ids)
                rows_py.append((str(start), str(end), (pid << 32) | tid, key, sid(name), args.get("Sequence number"),
                                args.get("Fwd thread id"), None, None, None, typ))
                if name.startswith("ProfilerStep#"):
                    rows_step.append((int(name.split("#")[1]), start, end))
            elif pname == "CANN":
                level, _, api = name.partition("@")
                rows_cann.append((start, end, levels.get(level, 20000), (python_pid << 32) | tid,
                                  int(args.get("connection_id", 0)), sid(api)))
        elif e.get("ph") == "C":
            pname = proc.get(e["pid"], "")
            ts = ns(e["ts"])
            if pname == "AI Core Freq":
                rows_freq.append((0, ts, e["args"].get("MHz", 0)))
            elif pname == "NPU MEM" and e["name"] == "APP/HBM":
                rows_mem.append((sid("app"), 0, float(e["args"].get("KB", 0)) * 1024, ts, 0))
    db.executemany("INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows_py)
    db.executemany("INSERT INTO CONNECTION_IDS VALUES (?,?)", rows_conn)
    db.executemany("INSERT OR IGNORE INTO CANN_API VALUES (?,?,?,?,?,?)", rows_cann)
    db.executemany("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows_task)
    db.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,?,?,?,?,?)", rows_cti)
    db.executemany("INSERT INTO COMMUNICATION_OP VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows_op)
    db.executemany("INSERT INTO COMMUNICATION_TASK_INFO VALUES (?,?,?,?,?,?,?,?,?,?)", rows_ctask)
    db.executemany("INSERT INTO STEP_TIME VALUES (?,?,?)", rows_step)
    db.executemany("INSERT INTO OVERLAP_ANALYSIS (deviceId, startNs, endNs, type) VALUES (?,?,?,?)", rows_overlap)
    db.executemany("INSERT INTO NPU_MEM VALUES (?,?,?,?,?)", rows_mem)
    db.executemany("INSERT INTO AICORE_FREQ VALUES (?,?,?)", rows_freq)
    db.executemany("INSERT INTO STRING_IDS VALUES (?,?)", [(v, k) for k, v in strings.items()])
    db.commit()
    db.close()
    print("%s: %d torch rows, %d CANN, %d tasks, %d HCCL ops, %d connection ids" %
          (dst, len(rows_py), len(rows_cann), len(rows_task), len(rows_op), len(rows_conn)))


if __name__ == "__main__":
    main()
