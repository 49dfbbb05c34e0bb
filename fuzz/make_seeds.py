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
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "seed.db")
        subprocess.run([sys.executable, os.path.join(HERE, "make_seed_db.py"), db], check=True)
        with open(db, "rb") as f:
            write("fuzz_sqlite_db", "generated", b"\x00" + f.read())


if __name__ == "__main__":
    main()
