#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a tiny Ascend profiler database (the SQLite export's tables, format notes
../shared/docs/ascend-profiling-format.md §2.4 and §5.3) as a seed for fuzz/fuzz_sqlite_db.

Python standard library only. One Python API, one CANN API, two device tasks (a MatMul with its
COMPUTE_TASK_INFO and a communication op), their connection ids, one step, one overlap row and a
memory counter: every reader method of core/import/db/db_reader.cpp has a row to read. The file
is small (about 40 KB with page_size 512) so that libFuzzer can mutate it.

Usage: fuzz/make_seed_db.py OUT.db   (the fuzz target's seed input is one mode byte + the file:
scripts/test_fuzz.sh writes it into the run's corpus; nothing generated is committed)
"""
import os
import sqlite3
import sys


def main(out):
    if os.path.exists(out):
        os.remove(out)
    db = sqlite3.connect(out)
    db.execute("PRAGMA page_size = 512")
    db.execute("PRAGMA journal_mode = DELETE")
    c = db.cursor()
    c.executescript(
        """
        CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
        CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER,
            name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER,
            inputShapes INTEGER, callchainId INTEGER, type INTEGER);
        CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER, globalTid INTEGER,
            connectionId INTEGER, name INTEGER);
        CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER,
            globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER,
            streamId INTEGER, taskId INTEGER, modelId INTEGER);
        CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER, blockDim INTEGER,
            mixBlockDim INTEGER, taskType INTEGER, opType INTEGER, inputFormats INTEGER,
            inputDataTypes INTEGER, inputShapes INTEGER, outputFormats INTEGER,
            outputDataTypes INTEGER, outputShapes INTEGER, attrInfo INTEGER);
        CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER,
            connectionId INTEGER, groupName INTEGER, opId INTEGER, relay INTEGER, retry INTEGER,
            dataType INTEGER, algType INTEGER, count NUMERIC, opType INTEGER, deviceId INTEGER);
        CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
        CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
        CREATE TABLE OVERLAP_ANALYSIS (deviceId INTEGER, startNs INTEGER, endNs INTEGER, type INTEGER);
        CREATE TABLE NPU_MEM (type TEXT, ddr NUMERIC, hbm NUMERIC, timestampNs INTEGER, deviceId INTEGER);
        CREATE TABLE NPU_INFO (id INTEGER, name TEXT);
        """
    )
    strings = ["aten::matmul", "aclnnMatmul", "MatMul", "AI_CORE", "MatMul", "1,2;2,3",
               "hcom_allReduce__1_0_1", "group0", "Notify_Wait", "ProfilerStep#1"]
    c.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", list(enumerate(strings)))
    c.execute("INSERT INTO ENUM_API_TYPE VALUES (20000, 'acl')")
    tid = (1234 << 32) | 1235
    base = 1_700_000_000_000_000_000
    c.execute("INSERT INTO PYTORCH_API VALUES (?, ?, ?, 1, 0, 1, 0, NULL, 5, NULL, 50001)",
              (str(base + 1000), str(base + 9000), tid))
    c.execute("INSERT INTO PYTORCH_API VALUES (?, ?, ?, NULL, 9, NULL, NULL, NULL, NULL, NULL, 50001)",
              (str(base), str(base + 20000), tid))
    c.execute("INSERT INTO CANN_API VALUES (?, ?, 20000, ?, 2, 1)", (base + 2000, base + 8000, tid))
    c.execute("INSERT INTO TASK VALUES (?, ?, 0, 2, 100, 0, 3, 4294967295, 3, 7, 0)", (base + 10000, base + 12000))
    c.execute("INSERT INTO TASK VALUES (?, ?, 0, 3, 101, 0, 8, 4294967295, 4, 8, 0)", (base + 13000, base + 16000))
    c.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (2, 100, 8, 0, 3, 4, NULL, NULL, 5, NULL, NULL, NULL, NULL)")
    c.execute("INSERT INTO COMMUNICATION_OP VALUES (6, ?, ?, 3, 7, 1, 0, 0, NULL, NULL, 1024, NULL, 0)",
              (base + 13000, base + 16000))
    c.executemany("INSERT INTO CONNECTION_IDS VALUES (?, ?)", [(1, 1), (1, 2)])
    c.execute("INSERT INTO STEP_TIME VALUES (1, ?, ?)", (base, base + 20000))
    c.executemany("INSERT INTO OVERLAP_ANALYSIS VALUES (0, ?, ?, ?)",
                  [(base + 10000, base + 12000, 0), (base + 13000, base + 16000, 1), (base + 12000, base + 13000, 3)])
    c.execute("INSERT INTO NPU_MEM VALUES ('app', 100, 200, ?, 0)", (base + 10000,))
    c.execute("INSERT INTO NPU_INFO VALUES (0, 'Ascend910B')")
    db.commit()
    db.execute("VACUUM")
    db.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_seed_db.py OUT.db")
    main(sys.argv[1])
