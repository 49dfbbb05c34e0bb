#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of comm_oracle.py on hand-built inputs (standard library unittest).

Hand counts: communication.json text read to ns (half away from zero), the per-rank Total Op
Info links, analysis.db read with the TASK-clock constant (name match and nearest-start fallback)
and the first-row-per-transport bandwidth, the median (floor for an even count), and the
last-rank rule of docs/diagnosis.md §5.4 (offset applied only from 3 same-sign end differences of
50 us or more; late from 50 us; lost and also_late; groups by name, by order only without a
shared name; instances the reference does not hold).
"""

import contextlib
import io
import json
import os
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comm_oracle  # noqa: E402


def op(name, start, elapse, group="g", sync=0):
    return {"name": name, "group": group, "step": "step1", "kind": "collective", "start_ns": start,
            "elapse_ns": elapse, "transit_ns": 0, "wait_ns": 0, "synchronization_ns": sync, "idle_ns": 0}


class CommOracleTest(unittest.TestCase):
    def setUp(self):
        # The oracle's cross-check reports go to stderr; keep the test's output to unittest's own.
        quiet = contextlib.redirect_stderr(io.StringIO())
        quiet.__enter__()
        self.addCleanup(quiet.__exit__, None, None, None)

    def test_text_rank_reads_decimal_text(self):
        data = {"step1": {"collective": {
            "hcom_allReduce__1_0_1@g": {
                "Communication Time Info": {"Start Timestamp(us)": 100.0005, "Elapse Time(ms)": 0.0012345,
                                            "Transit Time(ms)": 0.0000005, "Wait Time(ms)": 0.001,
                                            "Synchronization Time(ms)": 0.0009, "Idle Time(ms)": 0.0002340}},
            "Total Op Info": {"Communication Bandwidth Info": {
                "HCCS": {"Transit Size(MB)": 2.5, "Transit Time(ms)": 0.5},
                "SDMA": {"Transit Size(MB)": 2.5, "Transit Time(ms)": 0.5}}}}}}
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
            os.makedirs(out)
            with open(os.path.join(out, "communication.json"), "w") as f:
                json.dump(data, f)
            ops, links, constant = comm_oracle.text_rank(d)
        self.assertEqual(constant, 0)
        self.assertEqual(len(ops), 1)
        o = ops[0]
        self.assertEqual((o["name"], o["group"]), ("hcom_allReduce__1_0_1", "g"))
        self.assertEqual(o["start_ns"], 100001)        # 100000.5 ns, half away from zero
        self.assertEqual(o["elapse_ns"], 1235)         # 1234.5
        self.assertEqual(o["transit_ns"], 1)           # 0.5
        self.assertEqual(o["idle_ns"], 234)
        j = comm_oracle.links_json(links)
        self.assertEqual(j[0], {"transport": "HCCS", "transit_size_mb": "2.500000", "transit_time_us": "500.000",
                                "bandwidth_gb_s": "5.0000"})

    def test_late_rank_one_clock(self):
        # Rank 1 starts 5,607,700 ns late and ends 6,600 ns before rank 0 (both signs over the
        # three: no offset). 2 us and 8 us skews later are under 50 us: no late rank there.
        r0 = [op("hcom_allReduce__1_0_1", 0, 79_000_000), op("hcom_allReduce__1_1_1", 80_000_000, 2_000_000),
              op("hcom_allReduce__1_2_1", 90_000_000, 2_000_000)]
        r1 = [op("hcom_allReduce__1_0_1", 5_607_700, 73_385_700), op("hcom_allReduce__1_1_1", 80_002_000, 2_000_000),
              op("hcom_allReduce__1_2_1", 89_992_000, 2_009_000)]
        c = comm_oracle.collectives([(0, r0), (1, r1)])
        self.assertEqual([x["last_rank"] for x in c], [1, None, None])
        self.assertEqual(c[0]["max_skew_ns"], 5_607_700)
        self.assertEqual(c[0]["lost_ns"], 5_607_700)
        self.assertEqual(c[0]["offsets_ns"], {"0": 0, "1": 0})

    def test_offset_applied_when_ends_agree_on_one_side(self):
        # Rank 1's clock runs 1 ms ahead: its ends are 1 ms (+-1 us) later on all three ops, so the
        # offset 1,000,000 ns is applied and the 1 ms start difference is no lateness.
        r0 = [op("hcom_allReduce__1_%d_1" % i, i * 10_000_000, 1_000_000) for i in range(3)]
        r1 = [op("hcom_allReduce__1_%d_1" % i, i * 10_000_000 + 1_000_000, 1_000_000 + d) for i, d in
              enumerate((-1000, 0, 1000))]
        c = comm_oracle.collectives([(0, r0), (1, r1)])
        self.assertEqual(c[0]["offsets_ns"]["1"], 1_000_000)
        self.assertEqual([x["last_rank"] for x in c], [None, None, None])

    def test_also_late_and_lost(self):
        # Ranks 1 and 2 arrive 100 us and 120 us after rank 0, rank 3 30 us after it: rank 2 is
        # late; rank 1 (20 us before it) arrives with it; lost = 120 (rank 0) + 90 (rank 3) us.
        ops = [(r, [op("hcom_allReduce__1_0_1", s, 1_000_000 - s)]) for r, s in
               ((0, 0), (1, 100_000), (2, 120_000), (3, 30_000))]
        c = comm_oracle.collectives(ops)[0]
        self.assertEqual(c["last_rank"], 2)
        self.assertEqual(c["also_late"], [1])
        self.assertEqual(c["lost_ns"], 210_000)

    def test_groups_paired_by_order(self):
        # The ranks name the group differently (per-rank digits): paired by order of appearance.
        r0 = [op("hcom_allReduce__1_0_1", 0, 1000, group="a")]
        r1 = [op("hcom_allReduce__2_0_1", 60_000, 1000 - 60_000 + 60_000, group="b")]
        c = comm_oracle.collectives([(0, r0), (1, r1)])
        self.assertEqual(len(c), 1)
        self.assertEqual(c[0]["names"], {"0": "hcom_allReduce__1_0_1", "1": "hcom_allReduce__2_0_1"})
        self.assertEqual(c[0]["last_rank"], 1)


    def test_median_floor(self):
        self.assertEqual(comm_oracle.median([5, 1, 3]), 3)
        self.assertEqual(comm_oracle.median([1, 2]), 1)      # 1.5 -> floor
        self.assertEqual(comm_oracle.median([-1, -2]), -2)   # -1.5 -> floor

    def test_db_rank_constant_and_links(self):
        # TASK clock: op 1 (allReduce #0) first small task at 1,000,000 ns, op 2 at 2,000,000, op 3
        # (allGather) at 3,000,000. analysis.db records them 13.4 / 13.45 / 13.3 us later; op 3 under
        # a name the profiler db does not hold (matched by the nearest first task start).
        # Constant = median(13,400, 13,450, 13,300) = 13,400 ns.
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
            os.makedirs(out)
            a = sqlite3.connect(os.path.join(out, "analysis.db"))
            a.execute("CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
                      "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
                      "idle_time NUMERIC, step TEXT, type TEXT)")
            a.executemany("INSERT INTO CommAnalyzerTime VALUES (?,?,?,?,?,?,?,?,?,?)", [
                ("hcom_allReduce__1_0_1", "g", 1013.4, 1.5, 0.5, 0.75, 0.25, 0.25, "step1", "collective"),
                ("hcom_allReduce__1_1_1", "g", 2013.45, 0.5, 0.25, 0.125, 0.0, 0.125, "step1", "collective"),
                ("hcom_allGather__9_2_1", "g", 3013.3, 0.25, 0.0, 0.0, 0.0, 0.25, "step1", "collective")])
            a.execute("CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, "
                      "transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, package_size NUMERIC, "
                      "step TEXT, type TEXT)")
            a.executemany("INSERT INTO CommAnalyzerBandwidth VALUES (?,?,?,?,?,?,?,?,?)", [
                ("hcom_allReduce__1_0_1", "g", "HCCS", 10.0, 0.5, 20.0, 2.0, "step1", "collective"),
                ("hcom_allReduce__1_0_1", "g", "HCCS", 10.0, 0.5, 20.0, 8.0, "step1", "collective"),  # repeat
                ("hcom_allReduce__1_0_1", "g", "SDMA", 10.0, 0.5, 20.0, 0.0, "step1", "collective"),
                ("hcom_allReduce__1_1_1", "g", "HCCS", 5.0, 0.25, 20.0, 5.0, "step1", "collective"),
                ("hcom_allReduce__1_1_1", "g", "PCIE", 0.0, 0.0, 0.0, 0.0, "step1", "collective")])
            a.commit()
            a.close()
            p = sqlite3.connect(os.path.join(out, "ascend_pytorch_profiler_0.db"))
            p.execute("CREATE TABLE STRING_IDS (id INTEGER, value TEXT)")
            p.execute("CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, opId INTEGER)")
            p.execute("CREATE TABLE COMMUNICATION_TASK_INFO (globalTaskId INTEGER, opId INTEGER)")
            p.execute("CREATE TABLE TASK (globalTaskId INTEGER, startNs INTEGER)")
            p.executemany("INSERT INTO STRING_IDS VALUES (?,?)", [(1, "hcom_allReduce__1_0_1"),
                                                                  (2, "hcom_allReduce__1_1_1"),
                                                                  (3, "hcom_allGather__1_2_1")])
            p.executemany("INSERT INTO COMMUNICATION_OP VALUES (?,?,?)",
                          [(1, 1_000_000, 1), (2, 2_000_000, 2), (3, 3_000_000, 3)])
            p.executemany("INSERT INTO COMMUNICATION_TASK_INFO VALUES (?,?)",
                          [(10, 1), (11, 1), (20, 2), (21, 2), (30, 3)])
            p.executemany("INSERT INTO TASK VALUES (?,?)", [(10, 1_000_500), (11, 1_000_000), (20, 2_000_000),
                                                            (21, 2_000_100), (30, 3_000_000)])
            p.commit()
            p.close()
            ops, links, constant = comm_oracle.db_rank(d)
        self.assertEqual(constant, 13_400)
        self.assertEqual([(o["name"], o["start_ns"]) for o in sorted(ops, key=lambda o: o["start_ns"])],
                         [("hcom_allReduce__1_0_1", 1_000_000), ("hcom_allReduce__1_1_1", 2_000_050),
                          ("hcom_allGather__9_2_1", 2_999_900)])
        o = ops[0]
        self.assertEqual((o["elapse_ns"], o["transit_ns"], o["wait_ns"], o["synchronization_ns"], o["idle_ns"]),
                         (1_500_000, 500_000, 750_000, 250_000, 250_000))
        # HCCS: 10 (first row only) + 5 MB over 0.5 + 0.25 ms; SDMA 10 MB / 0.5 ms; PCIE moved nothing.
        self.assertEqual(comm_oracle.links_json(links), [
            {"transport": "HCCS", "transit_size_mb": "15.000000", "transit_time_us": "750.000",
             "bandwidth_gb_s": "20.0000"},
            {"transport": "SDMA", "transit_size_mb": "10.000000", "transit_time_us": "500.000",
             "bandwidth_gb_s": "20.0000"}])

    def test_groups_by_name_when_one_is_shared(self):
        # The CANN 8.3 shape: group W on all four ranks, A on ranks 0 and 2, B on ranks 1 and 3. A
        # and B are different groups, not one group under per-rank names: A pairs 0 with 2, B 1
        # with 3, never A with B. Rank 2 reaches A 100 us after rank 0; rank 3 reaches B 60 us
        # after rank 1; W: rank 3 is 70 us after rank 0, rank 1 40 us, rank 2 10 us after rank 0:
        # late 3, rank 1 waited 30 us (< 50: no loss, and also_late needs >= 50 us skew: none),
        # lost = 70 (rank 0) + 60 (rank 2) us.
        def ranks_ops(rank):
            a_or_b = "A" if rank in (0, 2) else "B"
            late = {0: 0, 1: 0, 2: 100_000, 3: 60_000}[rank]
            w = {0: 0, 1: 40_000, 2: 10_000, 3: 70_000}[rank]
            return [op("hcom_allReduce__1_0_1", 1_000_000 + late, 500_000 - late, group=a_or_b),
                    op("hcom_allGather__2_0_1", 5_000_000 + w, 500_000 - w, group="W")]
        c = comm_oracle.collectives([(r, ranks_ops(r)) for r in range(4)])
        got = {(x["group"], x["type"]): x for x in c}
        self.assertEqual(sorted(got), [("A", "allReduce"), ("B", "allReduce"), ("W", "allGather")])
        self.assertEqual(sorted(got[("A", "allReduce")]["names"]), ["0", "2"])
        self.assertEqual(sorted(got[("B", "allReduce")]["names"]), ["1", "3"])
        self.assertEqual((got[("A", "allReduce")]["last_rank"], got[("A", "allReduce")]["lost_ns"]), (2, 100_000))
        self.assertEqual((got[("B", "allReduce")]["last_rank"], got[("B", "allReduce")]["lost_ns"]), (3, 60_000))
        w = got[("W", "allGather")]
        self.assertEqual((w["last_rank"], w["max_skew_ns"], w["lost_ns"], w["also_late"]), (3, 70_000, 130_000, []))
        self.assertEqual(w["skew_ns"], {"0": 0, "1": 40_000, "2": 10_000, "3": 70_000})
        # Listed by earliest corrected start: A (1,000,000) before B (1,000,000, key B > A), W last.
        self.assertEqual([x["group"] for x in c], ["A", "B", "W"])

    def test_order_pairing_needs_same_group_count(self):
        # No shared name, but rank 1 has two groups and rank 0 one: nothing is paired.
        r0 = [op("hcom_allReduce__1_0_1", 0, 1000, group="a")]
        r1 = [op("hcom_allReduce__2_0_1", 0, 1000, group="b"), op("hcom_allReduce__3_0_1", 5000, 1000, group="c")]
        self.assertEqual(comm_oracle.collectives([(0, r0), (1, r1)]), [])

    def test_p2p_left_out(self):
        r0 = [dict(op("hcom_send__1_0_1", 0, 1000), kind="p2p")]
        r1 = [dict(op("hcom_receive__1_0_1", 900_000, 1000), kind="p2p")]
        self.assertEqual(comm_oracle.collectives([(0, r0), (1, r1)]), [])


if __name__ == "__main__":
    unittest.main()
