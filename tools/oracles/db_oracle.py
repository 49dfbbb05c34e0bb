#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent oracle for the SQLite export (Python standard library `sqlite3` only).

From the profiler database's own tables, queried with SQL written from
../shared/docs/ascend-profiling-format.md §5.3 / §5.4 (no npuscope code), it prints per database:

* lanes: "process/thread" -> slice count, named as the text export's trace_view.json names them
  (Python/CANN "Thread {tid}", Ascend Hardware "Stream {streamId}", HCCL "Group {k} Communication"
  per group in order of first op and "Plane {planeId}", Overlap Analysis by OVERLAP_ANALYSIS type);
  counts only, keyed by device for the device layers ("Ascend Hardware 0/Stream 2");
* flows per kind (HostToDevice, async_npu, async_task_queue, fwdbwd, MsTx), rebuilt from the
  connection ids as §5.4 says;
* steps: STEP_TIME (id, startNs, endNs) and analysis.db StepTraceTime rows (µs as stored, text);
* kernels: COMPUTE_TASK_INFO joined with TASK, per name: count and total duration (ns).
* memory: MEMORY_RECORD per component (STRING_IDS name): rows, the peak totalAllocated (bytes) with
  the timestamp of its first row (ns), the peak totalReserved (bytes); OP_MEMORY: rows, summed size
  (bytes), and the rows allocated at or before the peak of the "PTA+GE" component (else "PTA", else
  "GE") and not released at it (releaseTime NULL or after), summed per name (bytes, count);
* comm: analysis.db CommAnalyzerTime ops ("{hccl_op_name}@{group_name}", step, type) with
  start_timestamp (µs as stored) and, from CommAnalyzerBandwidth, per transport the transit_size
  (MB), transit_time (ms) and bandwidth (GB/s) of its first row (the table repeats them on every
  size-distribution row of the transport).

Rules the spec leaves open (npuscope must agree; read before blaming it):
1. A TASK row without a COMPUTE_TASK_INFO record and without a context id (contextId 4294967295)
   that holds a task of the same (deviceId, streamId, taskId) with a context id starting inside it
   is a container (FFTS+/MIX parent, or the HCCL op's task around its notify tasks): the text export
   does not show it, so it is no slice and no flow end.
2. The device ends of a connection id: the COMMUNICATION_OP rows with it when there are any (the
   HCCL small tasks share the op's id), else the shown TASK rows with it that have a compute record
   or are MEMCPY_ASYNC tasks: the tasks the text export's HostToDevice flows end on (corpus
   ascend-pt-910b-l1-text-2rank rank0: 187 compute tasks, 24 MEMCPY_ASYNC, 4 HCCL ops = its 215
   `f` events; no EVENT_RECORD / EVENT_WAIT / notify task has one). HostToDevice = one flow
   per (CANN_API row, device end); async_npu = one per (PYTORCH_API row, CONNECTION_IDS row, end).
3. A CONNECTION_IDS.connectionId without device ends shared by >= 2 PYTORCH_API rows: with an
   Enqueue row, one async_task_queue flow from the first Enqueue to each non-Enqueue row; else one
   fwdbwd flow from the earliest row to each other row.
4. MsTx: one per (MSTX_EVENTS row, shown TASK of rule 2 with its connectionId), ids 4294967295 and
   4000000000 excluded.
6. MSTX_EVENTS: one slice per row (a range, or a mark of zero length) on "MsTx/Thread {tid}", tid =
   globalTid & 0xffffffff: the database records no name for the host process (the text export puts
   them on the process of that pid, named after it, §2.4), so the process is called MsTx.
5. COMMUNICATION_TASK_INFO rows with planeId 4294967295 (every row at Level0) get no Plane lane:
   the text export omits the HCCL small tasks at Level0 (format notes §7).

Databases are opened read-only and immutable (`file:...?immutable=1`, uri=True), never written.

Usage: python3 tools/oracles/db_oracle.py [--shared /work/shared] [--json tests/data/db_oracle.json]
"""

import argparse
import glob
import json
import os
import sqlite3
import sys
import urllib.parse

NO_CONTEXT = 4294967295
NO_CONNECTION = (4294967295, 4000000000)

CAPTURES = [
    "ascend-pt-910a-db-2rank/level0",
    "ascend-pt-910a-db-2rank/level1",
    "ascend-pt-910b-db-2rank/level0",
    "ascend-pt-910b-db-2rank/level1",
]

# msprof's own database (`msprof --type=db`, format notes §1.2 / §5.3: the CANN layers only, no
# PYTORCH_API, no STEP_TIME), read with the same rules.
MSPROF_DBS = [
    "msinsight-server-fixtures/full_db/msprof_0.db",
]


def connect(path):
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?immutable=1&mode=ro"
    return sqlite3.connect(uri, uri=True)


def tables(db):
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def columns(db, table):
    return [r[1] for r in db.execute('PRAGMA table_info("%s")' % table)]


def lanes_of(db, have):
    lanes = {}

    def add(key, n):
        if n:
            lanes[key] = lanes.get(key, 0) + n

    if "PYTORCH_API" in have:
        for tid, n in db.execute("SELECT globalTid & 4294967295, count(*) FROM PYTORCH_API GROUP BY 1"):
            add("Python/Thread %d" % tid, n)
    if "CANN_API" in have:
        for tid, n in db.execute("SELECT globalTid & 4294967295, count(*) FROM CANN_API GROUP BY 1"):
            add("CANN/Thread %d" % tid, n)
    if "MSTX_EVENTS" in have:
        for tid, n in db.execute("SELECT globalTid & 4294967295, count(*) FROM MSTX_EVENTS GROUP BY 1"):
            add("MsTx/Thread %d" % tid, n)
    if "TASK" in have:
        compute = "COMPUTE_TASK_INFO" in have
        for dev, stream, n in db.execute(
            "SELECT a.deviceId, a.streamId, count(*) FROM TASK a WHERE NOT (a.contextId = %d %s AND EXISTS "
            "(SELECT 1 FROM TASK b WHERE b.deviceId = a.deviceId AND b.streamId = a.streamId AND b.taskId = a.taskId "
            "AND b.contextId != %d AND b.startNs BETWEEN a.startNs AND a.endNs)) GROUP BY 1, 2"
            % (NO_CONTEXT, "AND a.globalTaskId NOT IN (SELECT globalTaskId FROM COMPUTE_TASK_INFO)" if compute else "",
               NO_CONTEXT)):
            add("Ascend Hardware %d/Stream %d" % (dev, stream), n)
    devices = [r[0] for r in db.execute("SELECT DISTINCT deviceId FROM TASK")] if "TASK" in have else []
    sole = devices[0] if len(devices) == 1 else -1
    groups = {}
    if "COMMUNICATION_OP" in have:
        for group, n in db.execute("SELECT groupName, count(*) FROM COMMUNICATION_OP GROUP BY 1 ORDER BY min(startNs)"):
            groups.setdefault(group, len(groups))
            add("HCCL %d/Group %d Communication" % (sole, groups[group]), n)
    if "COMMUNICATION_TASK_INFO" in have and "TASK" in have:
        for dev, plane, n in db.execute(
                "SELECT t.deviceId, c.planeId, count(*) FROM COMMUNICATION_TASK_INFO c JOIN TASK t "
                "ON t.globalTaskId = c.globalTaskId WHERE c.planeId != %d GROUP BY 1, 2" % NO_CONTEXT):
            add("HCCL %d/Plane %d" % (dev, plane), n)
    if "OVERLAP_ANALYSIS" in have:
        names = ["Computing", "Communication", "Communication(Not Overlapped)", "Free"]
        for dev, typ, n in db.execute("SELECT deviceId, type, count(*) FROM OVERLAP_ANALYSIS GROUP BY 1, 2"):
            add("Overlap Analysis %d/%s" % (dev, names[typ]), n)
    return dict(sorted(lanes.items()))


def flows_of(db, have):
    flows = {"HostToDevice": 0, "async_npu": 0, "async_task_queue": 0, "fwdbwd": 0, "MsTx": 0}
    if "TASK" not in have:
        return flows
    compute = "COMPUTE_TASK_INFO" in have
    shown = {}
    linked = ("(a.globalTaskId IN (SELECT globalTaskId FROM COMPUTE_TASK_INFO) OR " if compute else "(") + \
        "a.taskType IN (SELECT id FROM STRING_IDS WHERE value = 'MEMCPY_ASYNC'))"
    for conn, n in db.execute(
            "SELECT a.connectionId, count(*) FROM TASK a WHERE " + linked + " AND NOT (a.contextId = %d %s AND EXISTS "
            "(SELECT 1 FROM TASK b WHERE b.deviceId = a.deviceId AND b.streamId = a.streamId AND b.taskId = a.taskId "
            "AND b.contextId != %d AND b.startNs BETWEEN a.startNs AND a.endNs)) GROUP BY 1"
            % (NO_CONTEXT, "AND a.globalTaskId NOT IN (SELECT globalTaskId FROM COMPUTE_TASK_INFO)" if compute else "",
               NO_CONTEXT)):
        if conn is not None and conn != NO_CONTEXT:
            shown[conn] = n
    ops = {}
    if "COMMUNICATION_OP" in have:
        for conn, n in db.execute("SELECT connectionId, count(*) FROM COMMUNICATION_OP GROUP BY 1"):
            ops[conn] = n

    def ends(conn):
        return ops[conn] if conn in ops else shown.get(conn, 0)

    if "CANN_API" in have:
        for (conn,) in db.execute("SELECT connectionId FROM CANN_API WHERE connectionId IS NOT NULL"):
            flows["HostToDevice"] += ends(conn)
    if "PYTORCH_API" in have and "CONNECTION_IDS" in have:
        groups = {}
        for conn, name in db.execute(
                "SELECT c.connectionId, s.value FROM PYTORCH_API p JOIN CONNECTION_IDS c ON c.id = p.connectionId "
                "LEFT JOIN STRING_IDS s ON s.id = p.name"):
            groups.setdefault(conn, []).append(name or "")
        for conn, names in groups.items():
            e = ends(conn)
            if e:
                flows["async_npu"] += e * len(names)
            elif len(names) >= 2:
                enqueues = sum(1 for n in names if n.startswith("Enqueue"))
                if enqueues:
                    flows["async_task_queue"] += len(names) - enqueues
                else:
                    flows["fwdbwd"] += len(names) - 1
    if "MSTX_EVENTS" in have and "connectionId" in columns(db, "MSTX_EVENTS"):
        for (conn,) in db.execute("SELECT connectionId FROM MSTX_EVENTS WHERE connectionId IS NOT NULL"):
            if conn not in NO_CONNECTION:
                flows["MsTx"] += shown.get(conn, 0)
    return flows


def steps_of(db, have, analysis):
    out = {"STEP_TIME": [], "StepTraceTime": []}
    if "STEP_TIME" in have:
        out["STEP_TIME"] = [list(r) for r in db.execute("SELECT id, startNs, endNs FROM STEP_TIME ORDER BY id")]
    if analysis and os.path.exists(analysis):
        a = connect(analysis)
        if "StepTraceTime" in tables(a):
            cols = [c for c in ["step", "computing", "communication_not_overlapped", "overlapped", "communication",
                                "free", "stage", "bubble", "communication_not_overlapped_and_exclude_receive",
                                "preparing"] if c in columns(a, "StepTraceTime")]
            for row in a.execute("SELECT %s FROM StepTraceTime" % ", ".join('CAST("%s" AS TEXT)' % c for c in cols)):
                out["StepTraceTime"].append(dict(zip(cols, row)))
        a.close()
    return out


def kernels_of(db, have):
    if "TASK" not in have or "COMPUTE_TASK_INFO" not in have:
        return []
    rows = db.execute(
        "SELECT s.value, count(*), sum(t.endNs - t.startNs) FROM COMPUTE_TASK_INFO c JOIN TASK t "
        "ON t.globalTaskId = c.globalTaskId LEFT JOIN STRING_IDS s ON s.id = c.name GROUP BY 1 ORDER BY 1")
    return [{"name": n, "count": k, "total_ns": d} for n, k, d in rows]


def memory_of(db, have):
    out = {"components": {}, "op_memory": None, "peak_component": None}
    if "MEMORY_RECORD" not in have:
        return out
    rows = db.execute(
        "SELECT coalesce(s.value, CAST(m.component AS TEXT)), m.timestamp, m.totalAllocated, m.totalReserved "
        "FROM MEMORY_RECORD m LEFT JOIN STRING_IDS s ON s.id = m.component").fetchall()
    comps = out["components"]
    for comp, ts, alloc, reserved in rows:
        c = comps.setdefault(comp, {"rows": 0, "peak_allocated_bytes": None, "peak_ts_ns": None,
                                    "peak_reserved_bytes": None})
        c["rows"] += 1
        if alloc is not None and (c["peak_allocated_bytes"] is None or alloc > c["peak_allocated_bytes"]):
            c["peak_allocated_bytes"], c["peak_ts_ns"] = alloc, ts
        if reserved is not None and (c["peak_reserved_bytes"] is None or reserved > c["peak_reserved_bytes"]):
            c["peak_reserved_bytes"] = reserved
    peak_comp = next((k for k in ("PTA+GE", "PTA", "GE") if k in comps and comps[k]["peak_ts_ns"] is not None), None)
    out["peak_component"] = peak_comp
    if "OP_MEMORY" in have:
        n, total = db.execute("SELECT count(*), sum(size) FROM OP_MEMORY").fetchone()
        live = {}
        if peak_comp:
            t = comps[peak_comp]["peak_ts_ns"]
            for name, size in db.execute(
                    "SELECT coalesce(s.value, CAST(o.name AS TEXT)), o.size FROM OP_MEMORY o LEFT JOIN STRING_IDS s "
                    "ON s.id = o.name WHERE o.allocationTime <= ? AND (o.releaseTime IS NULL OR o.releaseTime > ?) "
                    "AND o.size > 0", (t, t)):
                e = live.setdefault(name, {"bytes": 0, "count": 0})
                e["bytes"] += size
                e["count"] += 1
        out["op_memory"] = {"rows": n, "size_bytes": total, "live_at_peak": live}
    return out


def comm_of(analysis):
    if not analysis or not os.path.exists(analysis):
        return None
    a = connect(analysis)
    have = tables(a)
    if "CommAnalyzerTime" not in have:
        a.close()
        return None
    ops = {}
    for name, group, start, step, kind in a.execute(
            "SELECT hccl_op_name, group_name, start_timestamp, step, type FROM CommAnalyzerTime"):
        ops["%s@%s|%s|%s" % (name, group, step, kind)] = {"start_us": start, "transports": {}}
    if "CommAnalyzerBandwidth" in have:
        for name, group, transport, size, time_ms, bw, step, kind in a.execute(
                "SELECT hccl_op_name, group_name, transport_type, transit_size, transit_time, bandwidth, step, type "
                "FROM CommAnalyzerBandwidth"):
            op = ops.get("%s@%s|%s|%s" % (name, group, step, kind))
            if op is not None and transport not in op["transports"]:
                op["transports"][transport] = {"size_mb": size, "time_ms": time_ms, "gbps": bw}
    a.close()
    return ops


def describe(path):
    db = connect(path)
    have = tables(db)
    analysis = os.path.join(os.path.dirname(path), "analysis.db")
    out = {
        "lanes": lanes_of(db, have),
        "flows": flows_of(db, have),
        "steps": steps_of(db, have, analysis),
        "kernels": kernels_of(db, have),
        "memory": memory_of(db, have),
        "comm": comm_of(analysis),
    }
    db.close()
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=os.path.join(here, "..", "..", "..", "shared"))
    parser.add_argument("--json", help="write here instead of stdout")
    args = parser.parse_args()
    corpus = os.path.join(args.shared, "corpus")
    result = {}
    for capture in CAPTURES:
        for path in sorted(glob.glob(os.path.join(corpus, capture, "*", "ASCEND_PROFILER_OUTPUT",
                                                  "ascend_pytorch_profiler_*.db"))):
            result[os.path.relpath(path, corpus)] = describe(path)
    for rel in MSPROF_DBS:
        if os.path.exists(os.path.join(corpus, rel)):
            result[rel] = describe(os.path.join(corpus, rel))
    text = json.dumps(result, indent=1, sort_keys=True) + "\n"
    if args.json:
        with open(args.json, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
