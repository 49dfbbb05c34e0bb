// SPDX-License-Identifier: MIT
// Counter units (core/base/counter_units.h). The series names and keys are the ones in the corpus
// traces (a Python json one-liner over every trace_view.json: NPU MEM "APP/HBM" key "KB", AI Core
// Freq "MHz", HBM "HBM 0/Read" key "Read(MB/s)", LLC "Hit Rate(%)", Acc PMU "value"). Expected
// texts are computed by hand in the comments.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/base/counter_units.h"

using namespace npuscope::core;

TEST_CASE("counterUnitOf reads the unit from the key, then from the name", "[base][counter-units]") {
  CHECK(counterUnitOf("APP/HBM", "KB") == CounterUnit::KiB);
  CHECK(counterUnitOf("AI Core Freq", "MHz") == CounterUnit::MHz);
  CHECK(counterUnitOf("HBM 0/Read", "Read(MB/s)") == CounterUnit::MBps);
  CHECK(counterUnitOf("LLC 0 Read/Throughput", "Throughput(MB/s)") == CounterUnit::MBps);
  CHECK(counterUnitOf("LLC 0 Read/Hit Rate", "Hit Rate(%)") == CounterUnit::Percent);
  CHECK(counterUnitOf("link", "bandwidth(GB/s)") == CounterUnit::GBps);
  CHECK(counterUnitOf("Total Allocated(MB)", "value") == CounterUnit::MiB);
  CHECK(counterUnitOf("size(Byte)", "v") == CounterUnit::Bytes);
  // No unit: Acc PMU, QoS, the Stars Soc Info levels, a name with unrelated parentheses.
  CHECK(counterUnitOf("read_bandwidth", "value") == CounterUnit::None);
  CHECK(counterUnitOf("L2 Buffer Bw Level", "L2 Buffer Bw Level") == CounterUnit::None);
  CHECK(counterUnitOf("queue (main)", "value") == CounterUnit::None);
  CHECK(counterUnitOf("", "") == CounterUnit::None);
  CHECK(counterUnitOf("x)", "(") == CounterUnit::None);
}

TEST_CASE("formatCounterValue scales sizes by 1024 and rates by 1000", "[base][counter-units]") {
  // 2164000 KB * 1024 = 2215936000 B = 2.0637 GiB (/ 2^30): the "2.06 GiB, not 2.164e+06".
  CHECK(formatCounterValue(2164000, CounterUnit::KiB) == "2.06 GiB");
  CHECK(formatCounterValue(512, CounterUnit::KiB) == "512 KiB");
  CHECK(formatCounterValue(0, CounterUnit::KiB) == "0 B");
  // 1023.9 KiB = 0.99990 MiB, which rounds to 1 at 3 digits: "1 MiB", never "1024 KiB".
  CHECK(formatCounterValue(1023.9, CounterUnit::KiB) == "1 MiB");
  CHECK(formatCounterValue(1536, CounterUnit::MiB) == "1.5 GiB");
  CHECK(formatCounterValue(100, CounterUnit::Bytes) == "100 B");
  CHECK(formatCounterValue(-2048, CounterUnit::Bytes) == "-2 KiB");
  // 24500 MB/s = 24.5e9 B/s = 24.5 GB/s; 850.25 MB/s stays "850 MB/s" (3 digits).
  CHECK(formatCounterValue(24500, CounterUnit::MBps) == "24.5 GB/s");
  CHECK(formatCounterValue(850.25, CounterUnit::MBps) == "850 MB/s");
  CHECK(formatCounterValue(0.5, CounterUnit::MBps) == "500 KB/s");
  CHECK(formatCounterValue(1.25, CounterUnit::GBps) == "1.25 GB/s");
}

TEST_CASE("formatCounterValue keeps MHz and percent as they are", "[base][counter-units]") {
  CHECK(formatCounterValue(1800, CounterUnit::MHz) == "1800 MHz");
  CHECK(formatCounterValue(45.26, CounterUnit::Percent) == "45.3 %");
  CHECK(formatCounterValue(100, CounterUnit::Percent) == "100 %");
  CHECK(formatCounterValue(7.5, CounterUnit::Percent) == "7.5 %");
}

TEST_CASE("formatCounterValue without a unit uses k M G suffixes, never an exponent above 0.01",
          "[base][counter-units]") {
  CHECK(formatCounterValue(2164000, CounterUnit::None) == "2.16M");
  CHECK(formatCounterValue(40, CounterUnit::None) == "40");
  CHECK(formatCounterValue(0.5, CounterUnit::None) == "0.5");
  CHECK(formatCounterValue(12345, CounterUnit::None) == "12.3k");
  CHECK(formatCounterValue(-3.14159, CounterUnit::None) == "-3.14");
  CHECK(formatCounterValue(0.000025, CounterUnit::None) == "2.5e-05");
  CHECK(formatCounterValue(0, CounterUnit::None) == "0");
  CHECK(formatCounterValue(std::numeric_limits<double>::quiet_NaN(), CounterUnit::KiB) == "nan");
  CHECK(formatCounterValue(-std::numeric_limits<double>::infinity(), CounterUnit::None) == "-inf");
  CHECK(formatCounterValue(1e300, CounterUnit::KiB).find("EiB") != std::string::npos);
}
