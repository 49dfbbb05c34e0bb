#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the committed seed corpus of the fuzz targets into fuzz/seeds/<target>/ (issue 15).

Python standard library only; small hand-written inputs, each exercising one part of the format
(../shared/docs/ascend-profiling-format.md: §2 trace events, §4.2 step_trace_time.csv, §5.1
kernel_details.csv, §5.2 communication.json, §1 folder layouts, §2.4 the SQLite export). Each
seed starts with the target's mode byte (see the target's header comment). Run it again after
changing a target's input format: `fuzz/make_seeds.py` (rewrites fuzz/seeds/). scripts/test_fuzz.sh
adds ../shared/cases (and the smallest corpus .db) at run time; those are never committed.
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "seeds")


def ev(**kw):
    return json.dumps(kw, separators=(",", ":"))


ASCEND = "[" + ",\n".join([
    ev(ph="M", name="process_name", pid=1, args={"name": "Python"}),
    ev(ph="M", name="process_name", pid=2, args={"name": "CANN"}),
    ev(ph="M", name="process_name", pid=3, args={"name": "Ascend Hardware"}),
    ev(ph="M", name="process_labels", pid=3, args={"labels": "NPU 0"}),
    ev(ph="M", name="process_sort_index", pid=3, args={"sort_index": 2}),
    ev(ph="M", name="thread_name", pid=3, tid=7, args={"name": "Stream 7"}),
    ev(ph="M", name="process_name", pid=4, args={"name": "Overlap Analysis"}),
    ev(ph="M", name="process_name", pid=5, args={"name": "HCCL"}),
    ev(ph="X", name="ProfilerStep#1", pid=1, tid=1, ts="1000.000", dur=500, cat="cpu_op"),
    ev(ph="X", name="aten::matmul", pid=1, tid=1, ts="1010.125", dur="20.5", args={"Sequence number": 3}),
    ev(ph="X", name="AscendCL@aclnnMatmul", pid=2, tid=1, ts="1012.000", dur=10),
    ev(ph="X", name="MatMul", pid=3, tid=7, ts="1100.000", dur=40,
       args={"Task Type": "AI_CORE", "Model Id": 4294967295, "Task Id": 5}),
    ev(ph="X", name="hcom_allReduce__1_0_1", pid=3, tid=7, ts="1200.000", dur=60,
       args={"Task Type": "COMMUNICATION"}),
    ev(ph="X", name="hcom_allReduce__1_0_1", pid=5, tid=1, ts="1200.000", dur=60),
    ev(ph="X", name="Computing", pid=4, tid=1, ts="1100.000", dur=40),
    ev(ph="X", name="Communication(Not Overlapped)", pid=4, tid=2, ts="1200.000", dur=60),
    ev(ph="X", name="Free", pid=4, tid=3, ts="1140.000", dur=60),
    ev(ph="s", name="HostToDevice", id="1", pid=2, tid=1, ts="1012.000", cat="HostToDevice"),
    ev(ph="f", name="HostToDevice", id="1", pid=3, tid=7, ts="1100.000", cat="HostToDevice", bp="e"),
    ev(ph="C", name="HBM", pid=3, ts="1100.000", args={"Read(MB/s)": 12.5, "Write(MB/s)": 3}),
]) + "\n]"

KINETO = json.dumps({
    "schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "Ascend"}],
    "distributedInfo": {"rank": 1}, "baseTimeNanoseconds": 1700000000000000000,
    "traceName": "fuzz", "traceEvents": [
        {"ph": "M", "name": "process_labels", "pid": 0, "args": {"labels": "GPU 0"}},
        {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 10, "ts": 5.5, "dur": 2,
         "args": {"External id": 1}},
        {"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7, "ts": 9, "dur": 1,
         "args": {"correlation": 1, "stream": 7}},
        {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 1, "pid": 10, "tid": 10, "ts": 6},
        {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 1, "pid": 0, "tid": 7, "ts": 9, "bp": "e"},
        {"ph": "X", "name": "flow_v2", "pid": 10, "tid": 10, "ts": 20, "dur": 3, "bind_id": 9, "flow_out": True},
        {"ph": "X", "name": "flow_v2_in", "pid": 0, "tid": 7, "ts": 30, "dur": 3, "bind_id": 9, "flow_in": True},
    ]}, indent=1)

MIXED = "[" + ",".join([
    ev(ph="B", name="open", pid="p1", tid="worker", ts=1),
    ev(ph="B", name="inner", pid="p1", tid="worker", ts=2),
    ev(ph="E", pid="p1", tid="worker", ts=3),
    ev(ph="i", name="mark", pid=1, tid=1, ts=4, s="g"),
    ev(ph="I", name="mark2", pid=1, tid=1, ts=5, s="p"),
    ev(ph="b", name="async", cat="a", id="0x10", pid=1, tid=1, ts=6),
    ev(ph="n", name="async", cat="a", id="0x10", pid=1, tid=1, ts=7),
    ev(ph="e", name="async", cat="a", id="0x10", pid=1, tid=1, ts=8),
    ev(ph="X", name="partial", pid=1, tid=1, ts=4, dur=10),
    ev(ph="X", name="overlap", pid=1, tid=1, ts=8, dur=10),
    ev(ph="t", name="f", id=2, pid=1, tid=1, ts=9),
    ev(ph="M", name="thread_sort_index", pid=1, tid=1, args={"sort_index": -3}),
    ev(ph="R", name="ready", pid=1, tid=1, ts=11),
    ev(ph="X", name="big", pid=9007199254740993, tid=1, ts=4611686018427387, dur=1),
]) + ",]"

BROKEN = ('[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"a" 1}},'
          '{"ph":"X","name":"b\\ud800","pid":1,"tid":1,"ts":2,"dur":1,"args":{"x":"\xff"}},'
          '{"ph":"X","name":"c","pid":1,"tid":1,"ts":1e400,"dur":-5},'
          '{"ph":"X","name":"d","pid":1e30,"tid":1,"ts":"12.3456789","dur":"x"},,'
          '{"ph":"X","name":"e","pid":1,"tid":1,"ts":3,"dur":1')

MSPROF = json.dumps([
    {"name": "process_name", "pid": 100, "tid": 0, "ph": "M", "args": {"name": "Step Trace"}},
    {"name": "Iteration 1", "pid": 100, "tid": 1, "ts": "100.0", "dur": 50, "ph": "X"},
    {"name": "process_name", "pid": 200, "tid": 0, "ph": "M", "args": {"name": "Task Scheduler"}},
    {"name": "process_labels", "pid": 200, "tid": 0, "ph": "M", "args": {"labels": "NPU"}},
    {"name": "Conv2D", "pid": 200, "tid": 3, "ts": "110.0", "dur": 5, "ph": "X", "args": {"Task Type": "AI_CORE"}},
])

TRACES = {"ascend": ASCEND, "kineto": KINETO, "mixed": MIXED, "broken": BROKEN, "msprof": MSPROF}

KERNELS = ("Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,"
           "Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block Dim,Input Shapes\n"
           "1,0,4294967295,5,7,MatMul,MatMul,dynamic,AI_CORE,1100.000\t,40.0,0.5,8,0,\"\"\"2,3;3,4\"\"\"\n"
           "1,0,4294967295,6,7,hcom_allReduce__1_0_1,hcom_allReduce_,N/A,COMMUNICATION,1200.000\t,60,0,0,0,\n")
STEPS = ("Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,"
         "Bubble,Communication(Not Overlapped and Exclude Receive),Preparing\n"
         "0,1,40,60,0,60,400,500,0,60,10\n"
         "0,,1e400,-1,NaN,\"1,5\",0x10,,,,\n")
COMM = json.dumps({"step1": {"collective": {"hcom_allReduce__1_0_1@123": {"Communication Time Info": {
    "Start Timestamp(us)": 1200.0, "Elapse Time(ms)": 0.06, "Transit Time(ms)": 0.04, "Wait Time(ms)": 0.01,
    "Synchronization Time(ms)": 0.005, "Idle Time(ms)": 0.01}}, "Total Op Info": {"Communication Time Info": {
        "Elapse Time(ms)": 0.06, "Transit Time(ms)": 0.04, "Wait Time(ms)": 0.01, "Synchronization Time(ms)": 0.005,
        "Idle Time(ms)": 0.01}}}, "p2p": {}}})

MEMORY = ("Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
          "APP,999.000\t,,2109.6015625,,,NPU:0\n"
          "PTA+GE,1000.500\t,935.9951171875,1452.0,935.9951171875,1431569360,NPU:0\n"
          "PTA,1000.500\t,935.9951171875,1452.0,935.9951171875,1431569360,NPU:0\n"
          "GE,1001.000\t,1.5,2.0,,,NPU:0\n"
          "PTA+GE,not a time,1,2,3,1,NPU:0\n"
          "PTA+GE,1002.000\t,1e400,NaN,,1,NPU:0\n")


OPERATOR_MEMORY = ("Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),"
                   "Active Duration(us),Allocation Total Allocated(MB),Device Type\n"
                   "aten::empty_strided,18816.5,1000.500\t,1200.000\t,1200.000\t,199.5,199.5,935.99,NPU:0\n"
                   "aten::add,-4,1100\t,,,,,1,NPU:0\n"
                   "PTA,N/A,1e400,x,,,,,NPU:0\n")

# The narrow JSON targets read events as they stand in the array: single events of each phase
# and shape (one seed each, so that the fuzzer starts from every one).
EVENTS = {
    "x_fast": ev(ph="X", name="MatMul", pid=3, tid=7, ts="1100.000", dur=40, args={"Task Type": "AI_CORE"}),
    "x_numbers": ev(ph="X", name="aten::add", cat="cpu_op", pid=10, tid=10, ts=5.5, dur=2, args={"External id": 1}),
    "b_e": ev(ph="B", name="open", pid="p1", tid="worker", ts=1) + "," + ev(ph="E", pid="p1", tid="worker", ts=3),
    "instant": ev(ph="i", name="mark", pid=1, tid=1, ts=4, s="g"),
    "counter": ev(ph="C", name="HBM", pid=3, ts="1100.000", args={"Read(MB/s)": 12.5, "Write(MB/s)": 3}),
    "counter_id": ev(ph="C", name="Freq", id="7", pid=3, ts=1, args={"MHz": 1800}),
    "flow_v1": ev(ph="s", name="HostToDevice", id="1", pid=2, tid=1, ts="1012.000", cat="HostToDevice") + "," +
               ev(ph="f", name="HostToDevice", id="1", pid=3, tid=7, ts="1100.000", cat="HostToDevice", bp="e"),
    "flow_v2": ev(ph="X", name="flow_v2", pid=10, tid=10, ts=20, dur=3, bind_id=9, flow_out=True),
    "async": ev(ph="b", name="async", cat="a", id="0x10", pid=1, tid=1, ts=6) + "," +
             ev(ph="e", name="async", cat="a", id2={"global": "0x1"}, pid=1, tid=1, ts=8),
    "metadata": ev(ph="M", name="process_name", pid=2001, args={"name": "Python"}) + "," +
                ev(ph="M", name="thread_sort_index", pid=1, tid=1, args={"sort_index": -3}),
    "escapes": '{"ph":"X","name":"a\\u00e9\\n","pid":1,"tid":1,"ts":1,"dur":1,"args":{"k\\"":"v"}}',
}


def sqlite_reader_seed():
    """The seed database of make_seed_db.py in fuzz_sqlite_reader's input form (one row per table
    the reader reads, plus an analysis.db): flags, the mask of tables, then rows."""
    import struct
    # The tables and their column counts, read from the target itself (kTables).
    src = open(os.path.join(HERE, "fuzz_sqlite_reader.cpp")).read()
    block = src[src.index("const std::array<Table, 32> kTables"):src.index("}};")]
    columns = {m.group(1): re.findall(r'\{"(\w+)", "[^"]*"\}', m.group(3))
               for m in re.finditer(r'\{"(\w+)", (true|false), \{(.*?)\}\}(,|\n)', block, re.S)}
    tables = ["STRING_IDS", "ENUM_API_TYPE", "PYTORCH_API", "PYTORCH_CALLCHAINS", "CANN_API", "GC_RECORD",
              "MSTX_EVENTS", "TASK", "COMPUTE_TASK_INFO", "COMMUNICATION_OP", "ENUM_HCCL_DATA_TYPE",
              "COMMUNICATION_TASK_INFO", "ENUM_HCCL_TRANSPORT_TYPE", "ENUM_HCCL_LINK_TYPE", "CONNECTION_IDS",
              "STEP_TIME", "OVERLAP_ANALYSIS", "NPU_MEM", "HBM", "DDR", "LLC", "AICORE_FREQ", "ACC_PMU",
              "SOC_BANDWIDTH_LEVEL", "TASK_PMU_INFO", "RANK_DEVICE_MAP", "NPU_INFO", "MEMORY_RECORD", "OP_MEMORY",
              "StepTraceTime", "CommAnalyzerTime", "CommAnalyzerBandwidth"]
    # Value encodings (fuzz_sqlite_reader.cpp): tag byte, then the payload.
    null = b"\x00"

    def small(n):  # 0-15, no payload
        return bytes([15 | (n << 4)])

    def byte(n):
        return b"\x0d" + bytes([n])

    def i64(n):
        return b"\x04" + struct.pack("<q", n)

    def time(us):  # 1.7e18 ns + 1000 * us
        return b"\x06" + struct.pack("<H", us)

    def time_text(us):
        return b"\x0e" + struct.pack("<H", us)

    def gtid(pid, tid):
        return b"\x07" + bytes([pid, tid])

    def real(x):
        return b"\x08" + struct.pack("<d", x)

    def text(t):
        b = t.encode()
        return b"\x0a" + bytes([len(b)]) + b

    def row(table, *values):
        return bytes([tables.index(table)]) + b"".join(values)

    strings = ["aten::matmul", "aclnnMatmul", "MatMul", "AI_CORE", "MatMul", "1,2;2,3", "hcom_allReduce__1_0_1",
               "group0", "Notify_Wait", "ProfilerStep#1", "acl", "aic_mac_ratio", "PTA", "Enqueue", "Dequeue"]
    rows = [row("STRING_IDS", small(i), text(v)) for i, v in enumerate(strings)]
    rows += [
        row("ENUM_API_TYPE", i64(20000), text("acl")),
        row("PYTORCH_API", time_text(1), time_text(9), gtid(4, 5), small(1), small(0), small(1), small(0), null,
            small(5), small(1), i64(50001)),
        row("PYTORCH_API", time_text(0), time_text(20), gtid(4, 5), null, small(9), null, null, null, null, null,
            i64(50001)),
        row("PYTORCH_API", time_text(2), time_text(3), gtid(4, 6), small(2), small(13), null, null, null, null, null,
            i64(50002)),
        row("PYTORCH_API", time_text(4), time_text(5), gtid(4, 7), small(2), small(14), null, null, null, null, null,
            i64(50002)),
        row("PYTORCH_CALLCHAINS", small(1), small(0), small(0)),
        row("PYTORCH_CALLCHAINS", small(1), small(9), small(1)),
        row("CANN_API", time(2), time(8), i64(20000), gtid(4, 5), small(2), small(1)),
        row("GC_RECORD", time(1), time(2), gtid(4, 5)),
        row("MSTX_EVENTS", time(3), time(4), small(0), small(1), null, small(7), gtid(4, 5), gtid(4, 5), small(0),
            small(3)),
        row("TASK", time(10), time(12), small(0), small(2), byte(100), small(0), small(3), i64(4294967295), small(3),
            small(7), small(0)),
        row("TASK", time(13), time(16), small(0), small(3), byte(101), small(0), small(8), i64(4294967295), small(4),
            small(8), small(0)),
        row("TASK", time(13), time(14), small(0), small(3), byte(102), small(0), small(8), small(0), small(4),
            small(8), small(0)),
        row("COMPUTE_TASK_INFO", small(2), byte(100), small(8), small(0), small(3), small(4), null, null, small(5),
            null, null, small(5), null, small(1), null),
        row("COMMUNICATION_OP", small(6), time(13), time(16), small(3), small(7), small(1), small(0), small(0), small(1),
            null, i64(1024), null, small(0)),
        row("ENUM_HCCL_DATA_TYPE", small(1), text("FP32")),
        row("COMMUNICATION_TASK_INFO", small(6), byte(102), small(8), small(0), small(7), small(1), null, small(0),
            small(1), small(1), i64(1024), small(1), small(1), small(1)),
        row("ENUM_HCCL_TRANSPORT_TYPE", small(1), text("SDMA")),
        row("ENUM_HCCL_LINK_TYPE", small(1), text("HCCS")),
        row("CONNECTION_IDS", small(1), small(1)),
        row("CONNECTION_IDS", small(1), small(2)),
        row("CONNECTION_IDS", small(2), small(5)),
        row("STEP_TIME", small(1), time(0), time(20)),
        row("OVERLAP_ANALYSIS", small(1), small(0), time(10), time(12), small(0)),
        row("OVERLAP_ANALYSIS", small(2), small(0), time(13), time(16), small(1)),
        row("OVERLAP_ANALYSIS", small(3), small(0), time(12), time(13), small(3)),
        row("NPU_MEM", text("app"), small(10), byte(200), time(10), small(0)),
        row("HBM", small(0), time(10), real(1048576.0), small(0), text("read")),
        row("DDR", small(0), time(10), real(12.5), real(3.0)),
        row("LLC", small(0), small(0), time(10), real(55.5), i64(1048576), text("read")),
        row("AICORE_FREQ", small(0), time(10), i64(1800)),
        row("ACC_PMU", small(0), small(1), small(2), small(3), small(4), time(10), small(0)),
        row("SOC_BANDWIDTH_LEVEL", small(1), small(2), time(10), small(0)),
        row("TASK_PMU_INFO", byte(100), small(11), real(0.25)),
        row("RANK_DEVICE_MAP", small(0), small(0)),
        row("NPU_INFO", small(0), text("Ascend910B")),
        row("MEMORY_RECORD", small(12), time(10), i64(981462016), i64(1522532352), i64(981462016), small(1), small(0)),
        row("OP_MEMORY", small(0), i64(19268096), time(10), time(12), time(12), i64(2000), small(0)),
        row("StepTraceTime", small(0), text("1"), real(40.0), real(60.0), real(0.0), real(60.0), real(400.0),
            real(500.0), real(0.0), real(60.0), real(10.0)),
        row("CommAnalyzerTime", text("hcom_allReduce__1_0_1"), text("group0"), real(1200.0), real(0.06), real(0.04),
            real(0.01), real(0.005), real(0.01), text("step1"), text("collective")),
        row("CommAnalyzerTime", text("Total Op Info"), null, null, real(0.06), real(0.04), real(0.01), real(0.005),
            real(0.01), text("step1"), text("collective")),
        row("CommAnalyzerBandwidth", text("hcom_allReduce__1_0_1"), text("group0"), text("SDMA"), real(1.0), real(0.04),
            real(25.0), real(1.0), text("step1"), text("collective")),
    ]
    def seed(flags, names, drops=b""):
        """Flags, the drops, then the rows of `names` (every table when None: each one also made
        to exist by a 0x80 record that drops no column, even without rows)."""
        if names is None:
            names = tables
            drops = b"".join(bytes([0x80 | i, len(columns[t])]) for i, t in enumerate(tables)) + drops
        body = b"".join(r for r in rows if tables[r[0]] in names)
        return bytes([flags]) + drops + body

    # Flags bit 0: also read with two threads and compare; bit 2: an analysis.db even without
    # its tables. Each seed holds the tables of one part of the reader (a database has the tables
    # the input has rows of; the fuzzer adds others).
    python = ["STRING_IDS", "PYTORCH_API", "PYTORCH_CALLCHAINS", "CONNECTION_IDS", "TASK", "COMPUTE_TASK_INFO"]
    seeds = {
        "all_tables": seed(0, None),
        "python_flows": seed(1, python),
        "python_step_time": seed(0, ["STRING_IDS", "PYTORCH_API", "STEP_TIME"]),
        "cann_tasks": seed(1, ["STRING_IDS", "ENUM_API_TYPE", "CANN_API", "TASK", "COMPUTE_TASK_INFO", "TASK_PMU_INFO",
                               "NPU_INFO", "RANK_DEVICE_MAP"]),
        "mstx_gc": seed(0, ["STRING_IDS", "MSTX_EVENTS", "GC_RECORD", "TASK"]),
        "communication": seed(0, ["STRING_IDS", "TASK", "COMPUTE_TASK_INFO", "COMMUNICATION_OP", "ENUM_HCCL_DATA_TYPE",
                                  "COMMUNICATION_TASK_INFO", "ENUM_HCCL_TRANSPORT_TYPE", "ENUM_HCCL_LINK_TYPE"]),
        "overlap": seed(0, ["TASK", "COMPUTE_TASK_INFO", "OVERLAP_ANALYSIS"]),
        "counters": seed(0, ["STRING_IDS", "NPU_MEM", "HBM", "DDR", "LLC", "AICORE_FREQ", "ACC_PMU",
                             "SOC_BANDWIDTH_LEVEL"]),
        "memory": seed(0, ["STRING_IDS", "MEMORY_RECORD", "OP_MEMORY"]),
        "analysis_db": seed(0, ["TASK", "StepTraceTime", "CommAnalyzerTime", "CommAnalyzerBandwidth"]),
        # blockDim dropped (blockNum read), MEMORY_RECORD without totalReserved; an empty analysis.db.
        "dropped_columns": seed(4, ["STRING_IDS", "TASK", "COMPUTE_TASK_INFO", "MEMORY_RECORD"],
                                bytes([0x80 | 8, 2, 0x80 | 27, 3])),
    }
    return seeds


def esc(text):
    """One line of the discovery target's input: line ends as the two bytes backslash n."""
    return text.replace("\n", "\\n")


TREES = {
    "torch_npu_rank": "\n".join([
        "d r_ascend_pt/ASCEND_PROFILER_OUTPUT",
        "w r_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json\t" + esc(ASCEND),
        "w r_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv\t" + esc(KERNELS),
        "w r_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv\t" + esc(STEPS),
        "w r_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json\t" + esc(COMM),
        "w r_ascend_pt/profiler_info_3.json\t" + json.dumps({"config": {"common_config": {"profiler_level": "Level1"}}}),
    ]),
    "two_ranks_links": "\n".join([
        "w a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json\t" + esc(MIXED),
        "w b_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv\t" + esc(KERNELS),
        "l b_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json\tloop",
        "l loop\tloop",
        "l up\t..",
        "l c_ascend_pt\ta_ascend_pt",
        "p a_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
        "f NPU 99999999999/profiler_info_99999999999.json",
    ]),
    "msprof_prof": "\n".join([
        "w PROF_000001_20240101_abc/device_0/timeline/msprof_0_1_1.json\t" + esc(MSPROF),
        "w PROF_000001_20240101_abc/device_0/timeline/msprof_0_1_2.json\t" + esc(MSPROF),
        "w PROF_000001_20240101_abc/device_0/info.json.0\t" + json.dumps({"rank_id": 5}),
        "w PROF_000001_20240101_abc/mindstudio_profiler_output/msprof_slice_0_20240101.json\t" + esc(MSPROF),
        "w PROF_000001_20240101_abc/mindstudio_profiler_output/msprof_slice_1_20240101.json\t" + esc(MSPROF),
        "o PROF_000001_20240101_abc",
    ]),
    "tables_only": "\n".join([
        "w x_ascend_ms/ASCEND_PROFILER_OUTPUT/step_trace_time.csv\t" + esc(STEPS),
        "f x_ascend_ms/ASCEND_PROFILER_OUTPUT/analysis.db",
        "f x_ascend_ms/ASCEND_PROFILER_OUTPUT/ascend_mindspore_profiler_0.db",
        "w t.pt.trace.json\t" + esc(KINETO),
    ]),
}


def write(target, name, data):
    d = os.path.join(SEEDS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    # The generated seeds are rewritten; the inputs of fixed findings (finding-*), committed by
    # hand so that every run replays them, are kept.
    if os.path.isdir(SEEDS):
        for target in os.listdir(SEEDS):
            for name in os.listdir(os.path.join(SEEDS, target)):
                if not name.startswith("finding-"):
                    os.remove(os.path.join(SEEDS, target, name))
    for name, text in TRACES.items():
        raw = text.encode("utf-8", "surrogateescape") if name != "broken" else text.encode("latin-1")
        write("fuzz_json_trace", name + "_fast", b"\x00" + raw)
        write("fuzz_json_trace", name + "_simdjson_parts", b"\x03" + raw)
        write("fuzz_json_differential", name, b"\x00" + raw)
    # The file path: gzip (two members, the second cut short) and UTF-16 with a BOM.
    gz = gzip.compress(ASCEND.encode(), mtime=0) + gzip.compress(MIXED.encode(), mtime=0)[:-20]
    write("fuzz_json_trace", "ascend_gzip_file", b"\x04" + gz)
    write("fuzz_json_trace", "kineto_utf16_file", b"\x04" + b"\xff\xfe" + KINETO.encode("utf-16-le"))
    write("fuzz_csv_tables", "all_three", b"\x00" + KERNELS.encode() + b"\x00" + STEPS.encode() + b"\x00" + COMM.encode())
    write("fuzz_csv_tables", "all_three_files", b"\x01\xef\xbb\xbf" + KERNELS.encode() + b"\x00" + STEPS.encode() +
          b"\x00" + COMM.encode())
    write("fuzz_csv_tables", "steps_only", b"\x00\x00" + STEPS.encode())
    write("fuzz_csv_tables", "memory_only", b"\x00\x00\x00\x00" + MEMORY.encode())
    write("fuzz_csv_tables", "memory_file", b"\x01\x00\x00\x00\xef\xbb\xbf" + MEMORY.encode())
    for name, tree in TREES.items():
        write("fuzz_folder_discovery", name, tree.encode())
    # The narrow targets (issue 26 item 2).
    for name, text in TRACES.items():
        raw = text.encode("utf-8", "surrogateescape") if name != "broken" else text.encode("latin-1")
        write("fuzz_json_scanner", name, raw)
        write("fuzz_json_simdjson", name, raw)
    for name, text in EVENTS.items():
        write("fuzz_json_scanner", "event_" + name, text.encode())
        write("fuzz_json_simdjson", "event_" + name, text.encode())
    write("fuzz_csv_table", "csv_quotes_bom", b"\x00\xef\xbb\xbf" + b'a, "b" ,c\r\n"x,1","y""2",\r\n\n3,,"multi\nline"\n')
    write("fuzz_csv_table", "csv_utf16", b"\x00\xff\xfe" + "Name,Type\nMatMul,AI_CORE\n".encode("utf-16-le"))
    write("fuzz_csv_table", "kernel_details", b"\x01" + KERNELS.encode())
    write("fuzz_csv_table", "step_trace_time", b"\x02" + STEPS.encode())
    write("fuzz_csv_table", "communication_json", b"\x03" + COMM.encode())
    write("fuzz_csv_table", "memory_record", b"\x04" + MEMORY.encode())
    write("fuzz_csv_table", "operator_memory", b"\x05" + OPERATOR_MEMORY.encode())
    # fuzz_gzip: mode (bit 0 the .gz name, bits 1-7 the small limit), the read-size seed, the file.
    two_members = gzip.compress(ASCEND.encode(), mtime=0) + gzip.compress(MIXED.encode(), mtime=0)
    write("fuzz_gzip", "two_members", bytes([0x20 << 1, 0x5A]) + two_members)
    write("fuzz_gzip", "two_members_cut", bytes([0x10 << 1, 0x33]) + two_members[:-20])
    write("fuzz_gzip", "small_limit_bom", bytes([2 << 1, 0x01]) + gzip.compress(b"\xef\xbb\xbf[{}]", mtime=0))
    write("fuzz_gzip", "utf16_inside", bytes([0x7F << 1, 0xC7]) +
          gzip.compress(b"\xff\xfe" + KINETO.encode("utf-16-le"), mtime=0))
    write("fuzz_gzip", "plain_gz_name", bytes([0x01, 0x10]) + MSPROF.encode())
    write("fuzz_gzip", "plain_utf16", bytes([0x00, 0x02]) +
          b"\xfe\xff" + "[{\"ph\":\"X\"}]\ud83d\ude00".encode("utf-16-be", "surrogatepass"))
    bad_crc = bytearray(gzip.compress(MSPROF.encode(), mtime=0))
    bad_crc[-8] ^= 0xFF
    write("fuzz_gzip", "bad_crc", bytes([0x40 << 1, 0x77]) + bytes(bad_crc))
    for name, data in sqlite_reader_seed().items():
        write("fuzz_sqlite_reader", name, data)
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "seed.db")
        subprocess.run([sys.executable, os.path.join(HERE, "make_seed_db.py"), db], check=True)
        with open(db, "rb") as f:
            write("fuzz_sqlite_db", "generated", b"\x00" + f.read())


if __name__ == "__main__":
    main()
