// SPDX-License-Identifier: MIT
#pragma once
// Units of counter series (ph "C" events and the database's counter tables), inferred from the
// series' name and args key, and the text of a value in that unit ("2.06 GiB", "1800 MHz").

#include <string>
#include <string_view>

namespace npuscope::core {

/// The unit a counter's values are in.
enum class CounterUnit {
  None,      ///< unknown: a plain number, large values with a k/M/G suffix
  Bytes,     ///< bytes ("B", "Bytes", "(Byte)")
  KiB,       ///< kibibytes: msprof's NPU MEM `KB` series (npu_mem, KB = 1024 bytes)
  MiB,       ///< mebibytes ("MB" or "(MB)"; torch_npu's memory files, format notes §3)
  MBps,      ///< megabytes per second ("(MB/s)": HBM, DDR, LLC throughput), 10^6 B/s
  GBps,      ///< gigabytes per second ("(GB/s)"), 10^9 B/s
  MHz,       ///< megahertz ("MHz": AI Core Freq)
  Percent,   ///< percent, 0..100 ("(%)", "%": LLC hit rate, CPU usage)
};

/// The unit of a counter series called `name` (the event name, e.g. "APP/HBM", "HBM 0/Read")
/// whose value key is `key` (e.g. "KB", "Read(MB/s)", "MHz", "value"). The key decides first,
/// then a unit in parentheses at the end of the name. The keys are msprof's (format notes
/// §2.4 "C: counters"; msprof `analysis/csrc/application/timeline/*_assembler.cpp`: NPU MEM in
/// `KB`, AI Core Freq in `MHz`, HBM/DDR `Read(MB/s)`, LLC `Hit Rate(%)` / `Throughput(MB/s)`).
/// Keys without a unit ("value", Acc PMU, QoS, Stars Soc Info levels) give None.
[[nodiscard]] CounterUnit counterUnitOf(std::string_view name, std::string_view key);

/// `value` (in `unit`) as short text with 3 significant digits and a unit, scaled to the largest
/// unit it reaches: KiB 2164000 -> "2.06 GiB" (binary prefixes for sizes: 1024), MBps 24500 ->
/// "24.5 GB/s" (decimal: 1000), MHz 1800 -> "1800 MHz", Percent 45.26 -> "45.3 %", None
/// 2164000 -> "2.16M" (k, M, G, T), None 0.5 -> "0.5". Negative values keep their sign; NaN is
/// "nan", an infinity "inf" / "-inf". Only None values below 0.01 (not 0) use exponent notation
/// (printf %.3g: "2.5e-05").
[[nodiscard]] std::string formatCounterValue(double value, CounterUnit unit);

/// The short unit symbol of `unit` as written after a value in its base scale ("KiB", "MB/s",
/// "MHz", "%"; "" for None).
[[nodiscard]] std::string_view counterUnitSymbol(CounterUnit unit);

}  // namespace npuscope::core
