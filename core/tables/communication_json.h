// SPDX-License-Identifier: MIT
#pragma once
// communication.json (torch_npu's `_communication_parser.py`, format notes
// ../shared/docs/ascend-profiling-format.md §5.2): per step, per p2p/collective op, the
// "Communication Time Info" of each HCCL op. Read by key, tolerant of missing keys.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/types.h"

namespace npuscope::core {

/// One transport of an op's "Communication Bandwidth Info" (format notes §5.2).
struct CommBandwidth {
  std::string transport;   ///< "SDMA", "RDMA", "HCCS", "PCIE", "SIO"
  double sizeMB = 0;       ///< `Transit Size(MB)`
  double timeMs = 0;       ///< `Transit Time(ms)`
  double gbps = 0;         ///< `Bandwidth(GB/s)` as recorded (0 when absent)
};

/// The time info of one op ("{opName}@{group}") of communication.json. Times in ns, converted
/// from the file's ms; a key the file lacks reads 0 and is named in CommunicationJson::warnings.
struct CommOpTimes {
  std::string step;   ///< "step50", or "step" without steps
  std::string kind;   ///< "p2p" or "collective"
  std::string name;   ///< the op key as written, e.g. "hcom_allReduce__586_0_1@1752..."
  TimeNs elapse = 0;  ///< `Elapse Time(ms)`: the op's span
  TimeNs transit = 0; ///< `Transit Time(ms)`: data moving (SDMA/RDMA/memcpy/reduce tasks)
  TimeNs wait = 0;    ///< `Wait Time(ms)`: notify waits (includes the synchronization)
  TimeNs synchronization = 0;  ///< `Synchronization Time(ms)`: waits before the first transit (a peer is late)
  TimeNs idle = 0;    ///< `Idle Time(ms)`: elapse - transit - wait
  std::optional<TimeNs> start;  ///< `Start Timestamp(us)`, when recorded
  /// "Communication Bandwidth Info", one entry per transport in file order (empty when absent).
  std::vector<CommBandwidth> bandwidth;
  /// The entry of `transport`, or null.
  [[nodiscard]] const CommBandwidth* transportInfo(std::string_view transport) const;
};

/// communication.json, parsed. `ops` excludes the "Total Op Info" entries (the profiler's own
/// sums, kept in `recordedTotal` when present, summed over steps and kinds).
struct CommunicationJson {
  std::vector<CommOpTimes> ops;
  std::optional<CommOpTimes> recordedTotal;
  std::vector<std::string> warnings;  ///< keys missing, values of the wrong type
  std::string error;                  ///< set when the file is unreadable or not a JSON object
  /// Sums over `ops`: elapse, transit, wait, synchronization, idle (ns).
  [[nodiscard]] CommOpTimes sum() const;
};

/// Reads communication.json from `path`. Never throws: an unreadable or malformed file gives
/// `error` and whatever was read before the problem.
[[nodiscard]] CommunicationJson readCommunicationJson(const std::string& path);
/// The same from the file's text (tests).
[[nodiscard]] CommunicationJson parseCommunicationJson(std::string_view text);

}  // namespace npuscope::core
