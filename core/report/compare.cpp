// SPDX-License-Identifier: MIT
#include "core/report/compare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "core/analysis/advisor.h"
#include "core/analysis/rank_summary.h"
#include "core/base/i18n.h"
#include "core/base/json_text.h"
#include "core/base/time_format.h"
#include "core/tables/csv.h"

namespace npuscope::core {

namespace {

constexpr TimeNs kSameNs = 1'000;  ///< differences under 1 us are "no difference"

/// A rank to compare: with a trace, or read from a full summary (its own analyses).
bool comparable(const RankProfile& r) { return r.trace || (r.summary && r.summary->full); }

const RankProfile* byRank(const Profile& p, int rank) {
  for (const RankProfile& r : p.ranks)
    if (r.rank() == rank && comparable(r)) return &r;
  return nullptr;
}

/// The rank's device analysis shown by `report`: the one of its own device, else the first.
const DeviceAnalysis* deviceOf(const RankProfile& r) {
  if (!r.analysis || r.analysis->devices.empty()) return nullptr;
  for (const DeviceAnalysis& d : r.analysis->devices)
    if (d.device == r.device()) return &d;
  return &r.analysis->devices.front();
}

/// What compare reads of one rank, from its analysis and kernel table or from its summary
/// (RankProfile::summary): a rank of a folder of summaries compares like a loaded one.
struct Side {
  bool analysed = false;                               ///< figures, steps and causes are known
  OverlapFigures figures;                              ///< the device's computed figures
  std::vector<std::pair<long long, OverlapFigures>> steps;  ///< per step, computed
  std::array<std::pair<std::size_t, TimeNs>, kBubbleCauseCount> causes{};  ///< count, ns per cause
  bool hasKernels = false;
  std::vector<KernelGroup> kernels;                    ///< per (type, name): complete
  std::vector<KernelGroup> kernelShapes;               ///< per (type, name, shapes): a summary's may be cut
  std::size_t kernelsCut = 0;                          ///< (type, name, shapes) groups a summary left out
  std::string level;                                   ///< profiler level ("Level0".."Level2"), "" unknown
  /// DeviceAnalysis::discrepancies: where the computed figures differ from the recorded ones
  /// (step_trace_time.csv, analysis.db StepTraceTime or the Overlap Analysis lanes), each naming
  /// its source. A summary keeps none.
  std::vector<std::string> discrepancies;
};

Side sideOf(const RankProfile& r) {
  Side s;
  if (r.summary) {
    const RankSummary& rs = *r.summary;
    s.analysed = rs.full;
    s.figures = rs.overlap;
    for (const SummaryStep& st : rs.steps) s.steps.emplace_back(st.number, st.computed);
    if (rs.steps.empty() && rs.full) s.steps.emplace_back(-1, rs.overlap);  // as a trace without ProfilerStep
    for (const SummaryCause& c : rs.causes)
      for (std::size_t k = 0; k < kBubbleCauseCount; ++k)
        if (c.key == bubbleCauseKey(static_cast<BubbleCause>(k))) s.causes[k] = {c.count, c.ns};
    s.hasKernels = rs.hasKernels;
    s.kernels = rs.kernels;
    s.kernelShapes = rs.kernelShapes;
    s.kernelsCut = rs.kernelGroupsCut;
    s.level = rs.profilerLevel;
    return s;
  }
  s.level = r.source.profilerLevel;
  if (const DeviceAnalysis* d = deviceOf(r)) {
    s.analysed = true;
    s.discrepancies = d->discrepancies;
    s.figures = d->computed;
    for (const StepOverlap& st : d->steps) s.steps.emplace_back(st.step, st.computed);
    for (std::size_t k = 0; k < kBubbleCauseCount; ++k) s.causes[k] = {d->causes.count[k], d->causes.ns[k]};
  }
  s.hasKernels = r.kernels != nullptr;
  s.kernels = kernelGroupsOf(r.kernels.get(), false);
  s.kernelShapes = kernelGroupsOf(r.kernels.get());
  return s;
}

void sortByDelta(std::vector<CompareRow>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const CompareRow& x, const CompareRow& y) {
    const TimeNs dx = std::llabs(x.delta()), dy = std::llabs(y.delta());
    return dx != dy ? dx > dy : x.key < y.key;
  });
}

/// True when the table records operator types (Level0 writes `N/A` in every Type cell).
bool hasTypes(const Side& k) {
  for (const KernelGroup& g : k.kernels)
    if (!g.type.empty() && g.type != "N/A") return true;
  return false;
}

/// Kernel time per Type (and per Type + Input Shapes) of one side into rows; per Name when
/// `byName` (a side without types: the two sides are then keyed alike).
void addKernels(const Side& k, bool sideB, bool byName, bool dropComm, std::map<std::string, CompareRow>& types,
                std::map<std::string, CompareRow>& ops) {
  // Type rows from the (type, name) groups, Type + shapes rows from the (type, name, shapes) ones.
  for (const bool withShapes : {false, true})
    for (const KernelGroup& g : withShapes ? k.kernelShapes : k.kernels) {
      if (dropComm && g.communication) continue;
      std::string type = byName || g.type.empty() ? g.name : g.type;
      // An HCCL op's name carries its group hash and index (hcom_allReduce__586_0_1), which differ
      // from run to run: keyed by its type, the name up to "__" (the Level1 Type "hcom_allReduce_").
      if (byName && type.starts_with("hcom_"))
        if (const auto at = type.find("__"); at != std::string::npos) type = type.substr(0, at + 1);
      CompareRow& row = withShapes ? ops[type + '\x1f' + g.shapes] : types[type];
      row.type = type;
      row.shapes = g.shapes;
      row.key = g.shapes.empty() ? type : type + " [" + g.shapes + "]";
      (sideB ? row.b : row.a) += g.total;
      (sideB ? row.bCount : row.aCount) += g.count;
    }
}

std::string signedDuration(TimeNs ns) { return (ns > 0 ? "+" : ns < 0 ? "-" : "±") + formatDuration(std::llabs(ns)); }

bool same(const OverlapFigures& x, const OverlapFigures& y) {
  return std::llabs(x.computing - y.computing) < kSameNs && std::llabs(x.communication - y.communication) < kSameNs &&
         std::llabs(x.commNotOverlapped - y.commNotOverlapped) < kSameNs && std::llabs(x.free - y.free) < kSameNs &&
         std::llabs(x.e2e - y.e2e) < kSameNs;
}

/// The verdict of one paired rank: the step time change, its largest part and what made it.
std::string rankVerdict(const CompareRank& r) {
  const OverlapFigures& a = *r.a;
  const OverlapFigures& b = *r.b;
  struct Part {
    const char* name;
    TimeNs delta;
  };
  const Part parts[] = {{"Computing", b.computing - a.computing},
                        {"Communication (Not Overlapped)", b.commNotOverlapped - a.commNotOverlapped},
                        {"Free", b.free - a.free}};
  const Part* top = &parts[0];
  for (const Part& p : parts)
    if (std::llabs(p.delta) > std::llabs(top->delta)) top = &p;
  if (std::llabs(b.e2e - a.e2e) < kSameNs && std::llabs(top->delta) < kSameNs)
    return i18n::format(npuTr("npuscope::core::Compare", "rank %1: the same device time (%2) and shares within 1 us"),
                        {std::to_string(r.rank), formatDuration(a.e2e)});
  std::string s = i18n::format(npuTr("npuscope::core::Compare", "rank %1: device time %2 (%3 -> %4): %5 %6"),
                               {std::to_string(r.rank), signedDuration(b.e2e - a.e2e), formatDuration(a.e2e),
                                formatDuration(b.e2e), top->name, signedDuration(top->delta)});
  if (std::string(top->name) == "Free" && !r.bubbleCauses.empty() && r.bubbleCauses.front().notComparable.empty() &&
      std::llabs(r.bubbleCauses.front().delta()) >= kSameNs)
    s += i18n::format(npuTr("npuscope::core::Compare", ", mostly %1 bubbles %2"),
                      {r.bubbleCauses.front().key, signedDuration(r.bubbleCauses.front().delta())});
  if (!r.operatorTypes.empty() && std::llabs(r.operatorTypes.front().delta()) >= kSameNs)
    s += i18n::format(npuTr("npuscope::core::Compare", "; the operator type that changed most: %1 %2"),
                      {r.operatorTypes.front().key, signedDuration(r.operatorTypes.front().delta())});
  return s;
}

}  // namespace

std::vector<SliceRef> slicesOfKernelKey(const RankProfile& rank, std::string_view key, std::size_t limit) {
  std::vector<SliceRef> out;
  if (!rank.trace || !rank.kernels) return out;
  std::set<TimeNs> starts;
  for (const KernelRow& r : rank.kernels->rows) {
    if (!r.start) continue;
    const bool hccl = key.starts_with("hcom_") && key.ends_with("_") && std::string_view(r.name).starts_with(key);
    if (r.type == key || r.name == key || hccl) starts.insert(*r.start);
  }
  const Trace& t = *rank.trace;
  // An HCCL op: its slices on the group lanes of the HCCL process, by name (the kernel table's
  // start can differ from the slice's by 1 ns there).
  if (key.starts_with("hcom_")) {
    for (std::uint32_t li = 0; li < t.lanes.size() && out.size() < limit; ++li) {
      if (t.processes[t.lanes[li].process].role != Process::Role::Communication) continue;
      const Lane& lane = t.lanes[li];
      for (std::uint32_t i = 0; i < lane.sliceCount() && out.size() < limit; ++i)
        if (t.strings.view(lane.names[i]).starts_with(key)) out.push_back({li, i});
    }
    if (!out.empty()) return out;
  }
  for (std::uint32_t li = 0; li < t.lanes.size() && out.size() < limit; ++li) {
    if (t.processes[t.lanes[li].process].role != Process::Role::AscendHardware) continue;
    const Lane& lane = t.lanes[li];
    for (std::uint32_t i = 0; i < lane.sliceCount() && out.size() < limit; ++i)
      if (starts.count(lane.start[i])) out.push_back({li, i});
  }
  return out;
}

namespace {

/// True when the table holds HCCL rows (the text export's kernel_details.csv does; the .db
/// export's COMPUTE_TASK_INFO does not).
bool hasCommunication(const Side& k) {
  for (const KernelGroup& g : k.kernels)
    if (g.communication) return true;
  return false;
}

bool hasShapes(const Side& k) {
  for (const KernelGroup& g : k.kernelShapes)
    if (!g.shapes.empty()) return true;
  return false;
}

/// Steps paired by number; a side without ProfilerStep (its one row, step -1) is said once.
void compareSteps(const Side& da, const Side& db, CompareRank& cr) {
  std::map<long long, CompareStep> steps;
  bool stepsA = false, stepsB = false;
  for (const auto& [n, f] : da.steps) steps[n].step = n, steps[n].a = f, stepsA = stepsA || n >= 0;
  for (const auto& [n, f] : db.steps) steps[n].step = n, steps[n].b = f, stepsB = stepsB || n >= 0;
  std::string onlyA, onlyB;
  for (auto& [n, s] : steps) {
    if (n < 0 && stepsA != stepsB) continue;  // "the whole capture" row of the side without steps
    if (n >= 0 && s.a && !s.b) onlyA += (onlyA.empty() ? "" : ", ") + std::to_string(n);
    if (n >= 0 && s.b && !s.a) onlyB += (onlyB.empty() ? "" : ", ") + std::to_string(n);
    cr.steps.push_back(s);
  }
  if (stepsA != stepsB)
    cr.notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "%1 has no ProfilerStep: only the whole captures are compared"),
                                    {stepsA ? std::string("B") : std::string("A")}));
  if (!onlyA.empty() && stepsB)
    cr.notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "steps only in A: %1"), {onlyA}));
  if (!onlyB.empty() && stepsA)
    cr.notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "steps only in B: %1"), {onlyB}));
}

/// The kernel rows of both sides, keyed alike (by name when a side has no types), without the
/// HCCL rows when only one table holds them and without the shapes when a side has none.
void compareKernels(const Side& sa, const Side& sb, CompareRank& cr) {
  std::map<std::string, CompareRow> types, ops;
  const Side* ka = sa.hasKernels ? &sa : nullptr;
  const Side* kb = sb.hasKernels ? &sb : nullptr;
  // Level0 writes no operator type (N/A): then both sides are keyed by kernel name, which the
  // levels share (aclnnAddmm_MatMulCommon_MatMulV2, Conv2D1).
  const bool byName = (ka && !hasTypes(*ka)) || (kb && !hasTypes(*kb));
  if (byName && ka && kb)
    cr.notes.push_back(npuTr("npuscope::core::Compare", "a side records no operator type (Level0): kernels are compared by name"));
  const bool commA = ka && hasCommunication(*ka), commB = kb && hasCommunication(*kb);
  const bool dropComm = ka && kb && commA != commB;
  if (dropComm)
    cr.notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "only %1's kernel table holds the communication ops (the .db "
                                          "export's has none): they are left out of the operator rows"),
                                    {commA ? std::string("A") : std::string("B")}));
  if (ka) addKernels(*ka, false, byName, dropComm, types, ops);
  if (kb) addKernels(*kb, true, byName, dropComm, types, ops);
  for (const Side* k : {ka, kb})
    if (k && k->kernelsCut > 0)
      cr.notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "%1 is a summary: its kernel table's %2 shortest groups by "
                                                                       "type, name and input shapes are left out of the rows per "
                                                                       "shapes (the operator types are complete)"),
                                      {k == ka ? std::string("A") : std::string("B"), std::to_string(k->kernelsCut)}));
  if ((!ka) != (!kb))
    cr.notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "only %1 has a kernel table: the operator rows show one side"),
                                    {ka ? std::string("A") : std::string("B")}));
  for (auto& [k, row] : types) cr.operatorTypes.push_back(row);
  if (ka && kb && (!hasShapes(*ka) || !hasShapes(*kb))) {
    cr.notes.push_back(npuTr("npuscope::core::Compare", "a side records no input shapes: operators are compared by type only"));
  } else {
    for (auto& [k, row] : ops) cr.operators.push_back(row);
  }
  sortByDelta(cr.operatorTypes);
  sortByDelta(cr.operators);
}

void compareCauses(const Side& da, const Side& db, CompareRank& cr) {
  for (std::size_t c = 0; c < kBubbleCauseCount; ++c) {
    CompareRow row;
    row.key = bubbleCauseKey(static_cast<BubbleCause>(c));
    row.a = da.causes[c].second, row.aCount = da.causes[c].first;
    row.b = db.causes[c].second, row.bCount = db.causes[c].first;
    if (row.a || row.b) cr.bubbleCauses.push_back(row);
  }
  sortByDelta(cr.bubbleCauses);
  // torch_npu's Level0 records no CANN layer (format notes §7): its gaps can take no cause that
  // reads CANN (aclop_compile, aclop_execute, a collective's launch API) and take others instead,
  // so against a Level1/2 side every cause's time moves by what was recorded, not by the run.
  const bool a0 = da.level == "Level0", b0 = db.level == "Level0";
  if (a0 != b0 && !da.level.empty() && !db.level.empty() && !cr.bubbleCauses.empty()) {
    const std::string why = i18n::format(npuTr("npuscope::core::Compare", "%1 is Level0, which records no CANN layer"), {a0 ? "A" : "B"});
    for (CompareRow& row : cr.bubbleCauses) row.notComparable = why;
    cr.notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "bubble causes are not compared: %1, so its gaps cannot "
                                                                     "have CANN causes (aclop_*) and take others"),
                                    {why}));
  }
}

/// The rank pairs: by rank id; two single-rank captures are paired whatever their ids (a Kineto
/// trace without a rank is -1).
std::vector<std::pair<const RankProfile*, const RankProfile*>> pairRanks(const Profile& pa, const Profile& pb,
                                                                         std::vector<std::string>& notes) {
  std::vector<const RankProfile*> ra, rb;
  for (const RankProfile& r : pa.ranks)
    if (comparable(r)) ra.push_back(&r);
  for (const RankProfile& r : pb.ranks)
    if (comparable(r)) rb.push_back(&r);
  std::vector<std::pair<const RankProfile*, const RankProfile*>> out;
  if (ra.size() == 1 && rb.size() == 1) {
    if (ra[0]->rank() != rb[0]->rank())
      notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "one rank on each side: rank %1 of A paired with rank %2 of B"),
                                   {std::to_string(ra[0]->rank()), std::to_string(rb[0]->rank())}));
    out.emplace_back(ra[0], rb[0]);
    return out;
  }
  std::set<int> ids;
  for (const RankProfile* r : ra) ids.insert(r->rank());
  for (const RankProfile* r : rb) ids.insert(r->rank());
  for (int id : ids) out.emplace_back(byRank(pa, id), byRank(pb, id));
  return out;
}

/// A note per side that holds a partial capture (returns true then), and when one side is a GPU
/// trace and the other not.
/// The profiler settings of a side: those of its first rank that records them
/// (RankSource::profilerSettings); empty when none does.
const std::vector<std::pair<std::string, std::string>>& profilerSettings(const Profile& p) {
  static const std::vector<std::pair<std::string, std::string>> kNone;
  for (const RankProfile& r : p.ranks)
    if (!r.source.profilerSettings.empty()) return r.source.profilerSettings;
  return kNone;
}

/// A note per profiler setting the two sides both record with different values (issue 41 item 7):
/// a figure that changes with it (the operator rows of Level0 against Level1, the pipe bounds of
/// other AI Core metrics) may come from the setting, not from the run. True when there is one.
bool settingsNotes(const Profile& pa, const Profile& pb, std::vector<std::string>& notes) {
  const auto& a = profilerSettings(pa);
  const auto& b = profilerSettings(pb);
  bool any = false;
  for (const auto& [name, va] : a)
    for (const auto& [nameB, vb] : b)
      if (name == nameB && va != vb) {
        any = true;
        notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "the captures were taken with other profiler settings: %1 is %2 "
                                                                      "in A and %3 in B (profiler_info); a change that this setting "
                                                                      "explains is not the run's"),
                                     {name, va, vb}));
      }
  return any;
}

bool sideNotes(const Profile& pa, const Profile& pb, std::vector<std::string>& notes) {
  bool partial = false;
  for (int side = 0; side < 2; ++side)
    for (const RankProfile& r : (side ? pb : pa).ranks)
      if (r.analysis && r.analysis->verdict.partial)
        partial = true, notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "%1's %2 is a partial capture (%3): its figures cover only "
                                           "what was read"),
                                     {side ? std::string("B") : std::string("A"), r.source.label, r.analysis->verdict.partialReason}));
  auto gpu = [](const Profile& p) {
    for (const RankProfile& r : p.ranks)
      if (r.trace && isGpuTrace(*r.trace)) return true;
    return false;
  };
  if (gpu(pa) != gpu(pb))
    notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "%1 is a GPU trace and the other an Ascend capture: their "
                                       "operators and causes differ in kind"),
                                 {gpu(pa) ? std::string("A") : std::string("B")}));
  return partial;
}

}  // namespace

CompareResult compareProfiles(const Profile& pa, const Profile& pb) {
  CompareResult out;
  out.a = pa.path;
  out.b = pb.path;
  const bool partial = sideNotes(pa, pb, out.notes);
  const bool settingsDiffer = settingsNotes(pa, pb, out.notes);
  bool recordsDiffer = false;  // a paired side's computed figures differ from its own records
  std::size_t paired = 0;
  for (const auto& [ra, rb] : pairRanks(pa, pb, out.notes)) {
    CompareRank cr;
    cr.rank = ra ? ra->rank() : rb->rank();
    if (ra) cr.deviceA = ra->device();
    if (rb) cr.deviceB = rb->device();
    const Side sa = ra ? sideOf(*ra) : Side{}, sb = rb ? sideOf(*rb) : Side{};
    if (sa.analysed) cr.a = sa.figures;
    if (sb.analysed) cr.b = sb.figures;
    if (!ra || !rb) {
      // One side only: its figures are shown, nothing is compared.
      out.notes.push_back(i18n::format(npuTr("npuscope::core::Compare", "rank %1 is only in %2: not compared"),
                                       {std::to_string(cr.rank), ra ? std::string("A") : std::string("B")}));
      out.ranks.push_back(std::move(cr));
      continue;
    }
    if (!sa.analysed || !sb.analysed) {
      cr.notes.push_back(npuTr("npuscope::core::Compare", "no device analysis on one side: the figures are not compared"));
    } else {
      ++paired;
      compareSteps(sa, sb, cr);
      compareCauses(sa, sb, cr);
      // The figures compared are computed from the tasks; where a side's own records disagree, say
      // so with the first difference (which names its source: a database capture's is StepTraceTime).
      for (const auto& [name, side] : {std::pair<const char*, const Side*>{"A", &sa}, {"B", &sb}}) {
        if (side->discrepancies.empty()) continue;
        recordsDiffer = true;
        cr.notes.push_back(i18n::format(
              npuTr("npuscope::core::Compare", "%1's figures are computed from its tasks and differ from its own records: %2%3"),
              {name, side->discrepancies.front(),
               side->discrepancies.size() > 1 ? i18n::format(npuTr("npuscope::core::Compare", " (and %1 more)"),
                                                             {std::to_string(side->discrepancies.size() - 1)})
                                              : std::string()}));
      }
    }
    compareKernels(sa, sb, cr);
    out.ranks.push_back(std::move(cr));
  }
  if (paired == 0) {
    out.verdict = npuTr("npuscope::core::Compare", "nothing to compare: no rank id has a device analysis on both sides");
    return out;
  }
  // No difference: every paired figure, step and row within 1 us.
  bool none = true;
  for (const CompareRank& r : out.ranks) {
    if (r.a && r.b && !same(*r.a, *r.b)) none = false;
    for (const CompareStep& s : r.steps)
      if (!s.a || !s.b || !same(*s.a, *s.b)) none = false;  // a step on one side only is a difference too
    for (const auto* rows : {&r.operatorTypes, &r.bubbleCauses})
      for (const CompareRow& row : *rows)
        if (std::llabs(row.delta()) >= kSameNs || row.aCount != row.bCount) none = false;
  }
  out.noDifference = none && out.notes.empty();

  if (out.noDifference) {
    out.verdict = npuTr("npuscope::core::Compare", "no difference: every paired figure, step, operator type and bubble cause "
                        "is the same within 1 us");
    if (recordsDiffer) out.verdict += npuTr("npuscope::core::Compare", " (computed from the tasks; a side's own records differ: see the notes)");
    return out;
  }
  // The rank whose device time changed most speaks for the comparison.
  const CompareRank* top = nullptr;
  for (const CompareRank& r : out.ranks)
    if (r.a && r.b && (!top || std::llabs(r.b->e2e - r.a->e2e) > std::llabs(top->b->e2e - top->a->e2e))) top = &r;
  out.verdict = rankVerdict(*top);
  if (partial) out.verdict += npuTr("npuscope::core::Compare", " (a side is a partial capture: see the notes)");
  if (settingsDiffer)
    out.verdict += npuTr("npuscope::core::Compare", " (the captures' profiler settings differ: see the notes before reading a change as the run's)");
  if (recordsDiffer) out.verdict += npuTr("npuscope::core::Compare", " (computed from the tasks; a side's own records differ: see the notes)");
  if (paired > 1) out.verdict += i18n::format(npuTr("npuscope::core::Compare", " (%1 ranks compared; this one changed most)"),
                                              {std::to_string(paired)});
  return out;
}

namespace {

std::string usText(TimeNs ns) {
  char b[40];
  std::snprintf(b, sizeof b, "%.3f", static_cast<double>(ns) / 1e3);
  return b;
}

void figures(std::string& o, const std::optional<OverlapFigures>& f) {
  if (!f) {
    o += "null";
    return;
  }
  o += "{\"computing_us\": " + usText(f->computing) + ", \"communication_us\": " + usText(f->communication) +
       ", \"communication_not_overlapped_us\": " + usText(f->commNotOverlapped) + ", \"overlapped_us\": " + usText(f->overlapped) +
       ", \"free_us\": " + usText(f->free) + ", \"step_us\": " + usText(f->e2e) + "}";
}

void delta(std::string& o, const std::optional<OverlapFigures>& a, const std::optional<OverlapFigures>& b) {
  if (!a || !b) {
    o += "null";
    return;
  }
  OverlapFigures d;
  d.computing = b->computing - a->computing;
  d.communication = b->communication - a->communication;
  d.commNotOverlapped = b->commNotOverlapped - a->commNotOverlapped;
  d.overlapped = b->overlapped - a->overlapped;
  d.free = b->free - a->free;
  d.e2e = b->e2e - a->e2e;
  figures(o, d);
}


void rowsJson(std::string& o, const std::vector<CompareRow>& rows, const char* keyName, bool shapes) {
  o += "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CompareRow& r = rows[i];
    o += i ? ", {" : "{";
    o += std::string("\"") + keyName + "\": ";
    appendJsonString(o, shapes ? r.type : r.key);
    if (shapes) {
      o += ", \"input_shapes\": ";
      appendJsonString(o, r.shapes);
    }
    o += ", \"a_us\": " + usText(r.a) + ", \"b_us\": " + usText(r.b) + ", \"delta_us\": " + usText(r.delta()) +
         ", \"a_count\": " + std::to_string(r.aCount) + ", \"b_count\": " + std::to_string(r.bCount) + ", \"not_comparable\": ";
    if (r.notComparable.empty()) o += "null";
    else appendJsonString(o, r.notComparable);
    o += "}";
  }
  o += "]";
}

}  // namespace

std::string compareJson(const CompareResult& r) {
  std::string o = std::string("{\"schema_version\": \"") + kCompareSchemaVersion + "\", \"a\": ";
  appendJsonString(o, r.a);
  o += ", \"b\": ";
  appendJsonString(o, r.b);
  o += ", \"ranks\": [";
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const CompareRank& k = r.ranks[i];
    o += i ? ",\n  {" : "\n  {";
    o += "\"rank\": " + std::to_string(k.rank) + ", \"device\": " + std::to_string(k.deviceA >= 0 ? k.deviceA : k.deviceB) +
         ", \"device_a\": " + std::to_string(k.deviceA) +
         ", \"device_b\": " + std::to_string(k.deviceB) + ", \"a\": ";
    figures(o, k.a);
    o += ", \"b\": ";
    figures(o, k.b);
    o += ", \"delta\": ";
    delta(o, k.a, k.b);
    o += ", \"steps\": [";
    for (std::size_t s = 0; s < k.steps.size(); ++s) {
      o += s ? ", {" : "{";
      o += "\"step\": " + std::to_string(k.steps[s].step) + ", \"a\": ";
      figures(o, k.steps[s].a);
      o += ", \"b\": ";
      figures(o, k.steps[s].b);
      o += ", \"delta\": ";
      delta(o, k.steps[s].a, k.steps[s].b);
      o += "}";
    }
    o += "], \"operator_types\": ";
    rowsJson(o, k.operatorTypes, "type", false);
    o += ", \"operators\": ";
    rowsJson(o, k.operators, "type", true);
    o += ", \"bubble_causes\": ";
    rowsJson(o, k.bubbleCauses, "cause", false);
    o += ", \"notes\": ";
    appendJsonStringArray(o, k.notes);
    o += "}";
  }
  o += "\n], \"notes\": ";
  appendJsonStringArray(o, r.notes);
  o += ", \"verdict\": ";
  appendJsonString(o, r.verdict);
  o += std::string(", \"no_difference\": ") + (r.noDifference ? "true" : "false") + "}\n";
  return o;
}

std::string compareText(const CompareResult& r) {
  std::string o = "A: " + r.a + "\nB: " + r.b + "\n\n" + r.verdict + "\n";
  for (const std::string& n : r.notes) o += "note: " + n + "\n";
  for (const CompareRank& k : r.ranks) {
    o += "\n== rank " + std::to_string(k.rank) + "\n";
    for (const std::string& n : k.notes) o += "   note: " + n + "\n";
    if (k.a && k.b) {
      const std::pair<const char*, TimeNs OverlapFigures::*> parts[] = {
          {"Computing", &OverlapFigures::computing},
          {"Communication (Not Overlapped)", &OverlapFigures::commNotOverlapped},
          {"Free", &OverlapFigures::free},
          {"device time (e2e)", &OverlapFigures::e2e}};
      for (const auto& [name, m] : parts)
        o += std::string("   ") + name + ": " + formatDuration((*k.a).*m) + " -> " + formatDuration((*k.b).*m) + " (" +
             signedDuration((*k.b).*m - (*k.a).*m) + ")\n";
    }
    std::size_t shown = 0;
    for (const CompareRow& row : k.operatorTypes) {
      if (shown++ >= 5 || std::llabs(row.delta()) < kSameNs) break;
      o += "   op " + row.key + ": " + formatDuration(row.a) + " x" + std::to_string(row.aCount) + " -> " +
           formatDuration(row.b) + " x" + std::to_string(row.bCount) + " (" + signedDuration(row.delta()) + ")\n";
    }
    shown = 0;
    for (const CompareRow& row : k.bubbleCauses) {
      if (shown++ >= 3 || std::llabs(row.delta()) < kSameNs) break;
      o += "   bubbles " + row.key + ": " + formatDuration(row.a) + " -> " + formatDuration(row.b) + " (" +
           signedDuration(row.delta()) + ")" +
           (row.notComparable.empty() ? std::string() : i18n::format(npuTr("npuscope::core::Compare", " [not comparable: %1]"), {row.notComparable})) +
           "\n";
    }
  }
  return o;
}

}  // namespace npuscope::core
