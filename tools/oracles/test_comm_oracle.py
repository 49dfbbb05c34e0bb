#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of comm_oracle.py on hand-built inputs (standard library unittest).

Hand counts: communication.json text read to ns (half away from zero), the per-rank Total Op
Info links, and the late-rank rule of docs/diagnosis.md §5.4 (offset applied only from 3 same-sign
end differences of 50 us or more; late from 50 us; lost and also_late).
"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comm_oracle  # noqa: E402


def op(name, start, elapse, group="g", sync=0):
    return {"name": name, "group": group, "step": "step1", "kind": "collective", "start_ns": start,
            "elapse_ns": elapse, "transit_ns": 0, "wait_ns": 0, "synchronization_ns": sync, "idle_ns": 0}


class CommOracleTest(unittest.TestCase):
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
        self.assertEqual([x["late_rank"] for x in c], [1, None, None])
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
        self.assertEqual([x["late_rank"] for x in c], [None, None, None])

    def test_also_late_and_lost(self):
        # Ranks 1 and 2 arrive 100 us and 120 us after rank 0, rank 3 30 us after it: rank 2 is
        # late; rank 1 (20 us before it) arrives with it; lost = 120 (rank 0) + 90 (rank 3) us.
        ops = [(r, [op("hcom_allReduce__1_0_1", s, 1_000_000 - s)]) for r, s in
               ((0, 0), (1, 100_000), (2, 120_000), (3, 30_000))]
        c = comm_oracle.collectives(ops)[0]
        self.assertEqual(c["late_rank"], 2)
        self.assertEqual(c["also_late"], [1])
        self.assertEqual(c["lost_ns"], 210_000)

    def test_groups_paired_by_order(self):
        # The ranks name the group differently (per-rank digits): paired by order of appearance.
        r0 = [op("hcom_allReduce__1_0_1", 0, 1000, group="a")]
        r1 = [op("hcom_allReduce__2_0_1", 60_000, 1000 - 60_000 + 60_000, group="b")]
        c = comm_oracle.collectives([(0, r0), (1, r1)])
        self.assertEqual(len(c), 1)
        self.assertEqual(c[0]["names"], {"0": "hcom_allReduce__1_0_1", "1": "hcom_allReduce__2_0_1"})
        self.assertEqual(c[0]["late_rank"], 1)


if __name__ == "__main__":
    unittest.main()
