// SPDX-License-Identifier: MIT
#pragma once
// Two captures compared (`npuscope compare A B`, docs/diagnosis.md §8): ranks paired by rank id,
// steps by step number; per rank the device figures, per step the same, the kernel time per
// operator type and per type + input shapes, and the bubble time per cause, each side exactly as
// `report` computes it, the delta B - A, and a one- or two-sentence verdict.

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/profile/profile.h"

namespace npuscope::core {

/// One row of a per-key comparison (an operator type, a type + input shapes, a bubble cause).
struct CompareRow {
  std::string key;              ///< the type, "type [shapes]", or the cause key
  std::string type, shapes;     ///< for operators
  TimeNs a = 0, b = 0;          ///< summed time, ns (0 where the side has none)
  std::size_t aCount = 0, bCount = 0;
  /// Why the row's change is not the run's, "" when it is comparable: e.g. a bubble cause where
  /// one side recorded a host layer the other did not (Level0 has no CANN layer, so it has no
  /// aclop_* bubble and those gaps take other causes). Such rows are listed, never ranked.
  std::string notComparable;
  [[nodiscard]] TimeNs delta() const { return b - a; }
};

/// One step number on both sides (either may be missing).
struct CompareStep {
  long long step = -1;
  std::optional<OverlapFigures> a, b;
};

/// One rank id on both sides.
struct CompareRank {
  int rank = -1;
  int deviceA = -1, deviceB = -1;
  /// The rank's figures on each side: its first analysed device's computed OverlapFigures (the
  /// `overlap.computed` of `report --json`); empty where the side has no such rank or no analysis.
  std::optional<OverlapFigures> a, b;
  std::vector<CompareStep> steps;      ///< by step number, ascending
  std::vector<CompareRow> operatorTypes;  ///< kernel table time per `Type`, largest |delta| first
  std::vector<CompareRow> operators;   ///< per `Type` + `Input Shapes`, largest |delta| first
  std::vector<CompareRow> bubbleCauses;  ///< bubble time per cause (all bubbles found), largest |delta| first
  std::vector<std::string> notes;      ///< what could not be paired on this rank
};

struct CompareResult {
  std::string a, b;  ///< the two paths
  std::vector<CompareRank> ranks;  ///< by rank id; unpaired ranks are listed with one side empty
  std::vector<std::string> notes;  ///< what cannot be compared (rank counts, formats, missing tables)
  /// One or two sentences: what changed most and where ("rank 0: step time -12.3 ms: Free -9.8 ms,
  /// mostly slow_dispatch bubbles -9.1 ms; MatMulV2 +1.1 ms"), or "no difference".
  std::string verdict;
  bool noDifference = false;  ///< every paired figure and row differs by less than 1 us
};

/// The device tasks of `rank` that a CompareRow of its operatorTypes stands for (`key`: a Type, a
/// kernel name, or an HCCL type such as "hcom_allReduce_"), matched through the kernel table's
/// rows by exact start; at most `limit`. For outlining a compared operator on the timeline.
[[nodiscard]] std::vector<SliceRef> slicesOfKernelKey(const RankProfile& rank, std::string_view key, std::size_t limit = 5000);

/// Compares `a` with `b` (both loaded by loadProfile, any format). Never throws.
[[nodiscard]] CompareResult compareProfiles(const Profile& a, const Profile& b);

/// The version of the `compare --json` document ("MAJOR.MINOR"; a minor version only adds keys;
/// docs/json-versions.md lists each), written first as its "schema_version".
inline constexpr const char* kCompareSchemaVersion = "1.0";

/// `{"schema_version", "a", "b", "ranks": [{"rank", "device_a", "device_b", "a": {...}, "b": {...}, "delta":
/// {"computing_us", "communication_us", "communication_not_overlapped_us", "overlapped_us",
/// "free_us", "step_us"}, "steps": [{"step", "a", "b", "delta"}], "operator_types": [{"type",
/// "a_us", "b_us", "delta_us", "a_count", "b_count"}], "operators": [{"type", "input_shapes", ...}],
/// "bubble_causes": [{"cause", "a_us", "b_us", "delta_us"}], "notes"}], "notes", "verdict",
/// "no_difference"}`; a side that is missing is null.
[[nodiscard]] std::string compareJson(const CompareResult& r);
/// The same as readable text.
[[nodiscard]] std::string compareText(const CompareResult& r);

}  // namespace npuscope::core
