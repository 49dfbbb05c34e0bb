// SPDX-License-Identifier: MIT
// The advisor's fusion rules (docs/diagnosis.md §6): msprof-analyze's affinity APIs (torch op
// sequences and optimizers that a torch_npu fused API replaces, timeline_fusion_ops.yaml) and
// fusible operator sequences (recurring runs of kernel_details.csv tasks that are host bound or
// MTE bound, fusible_operator.yaml). adviseRank calls them on Ascend traces only.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/analysis/advisor_rules.h"
#include "core/analysis/trace_query.h"
#include "core/base/i18n.h"
#include "core/base/parse_number.h"
#include "core/tables/csv.h"

namespace npuscope::core::detail {
namespace {

// ---------------------------------------------------------------------------------------------
// Affinity APIs
// ---------------------------------------------------------------------------------------------

/// One sequence rule of timeline_fusion_ops.yaml (section `aten`): the affinity API and the
/// op-name sequence it replaces, in the yaml's syntax ("(a|b){m,n}" elements joined by '-'; an
/// element without parentheses is one op exactly), and the yaml entry it comes from.
struct AtenRule {
  const char* api;
  const char* sequence;
  const char* entry;
};

// msprof-analyze profiler/msprof_analyze/advisor/rules/timeline_fusion_ops.yaml (mstt mirror,
// commit 99c2e0f), the entries its default version selects (CANN 8.0.0, torch 2.1.0: unique_id 3,
// which inherits 2, 1 and 0). The mindspeed.ops rules of unique_id 4 and 5 (CANN 8.0.RC3) are not
// in that default set and are left out.
constexpr AtenRule kAtenRules[] = {
    {"torch_npu.npu_confusion_transpose", "(permute|transpose)-(contiguous){0,1}-(reshape|view)", "unique_id 0 (CANN 6.3.RC2)"},
    {"torch_npu.npu_confusion_transpose", "(reshape|view)-(contiguous){0,1}-(permute|transpose)", "unique_id 0 (CANN 6.3.RC2)"},
    {"torch_npu.fast_gelu", "gelu", "unique_id 0 (CANN 6.3.RC2)"},
    {"torch_npu.npu_scaled_masked_softmax", "softmax-(mul){0,1}-(masked_fill_|add)", "unique_id 0 (CANN 6.3.RC2)"},
    {"optimizer.clip_grad_norm_fused_", "add-reciprocal-mul", "unique_id 0 (CANN 6.3.RC2)"},
    {"torch_npu.npu_fusion_attention", "matmul-(add){0,1}-(mul){0,1}-(masked_fill_|add){0,1}-softmax-(dropout){0,1}-matmul",
     "unique_id 1 (CANN 7.0.RC1)"},
    {"torch_npu.npu_rotary_mul", "(chunk|slice)-neg-cat-(mul){0,2}-add", "unique_id 1 (CANN 7.0.RC1)"},
    {"torch_npu.npu_rms_norm", "(pow){0,1}-(mean){0,1}-(add){0,1}-rsqrt-mul-(type_as){0,1}", "unique_id 2 (CANN 7.0.0)"},
    {"torch_npu.npu_swiglu", "(slice|chunk)-silu-mul", "unique_id 2 (CANN 7.0.0)"},
    {"torch_npu.npu_swiglu", "(slice|chunk)-mul-silu", "unique_id 2 (CANN 7.0.0)"},
    {"torch_npu.npu_swiglu", "(slice|chunk)-sigmoid-mul-mul", "unique_id 2 (CANN 7.0.0)"},
    {"torch_npu.npu_swiglu", "(slice|chunk)-mul-sigmoid-mul", "unique_id 2 (CANN 7.0.0)"},
    {"torch_npu.npu_swiglu", "(slice|chunk)-mul-mul-sigmoid", "unique_id 2 (CANN 7.0.0)"},
    {"torch_npu.npu_geglu", "(slice|chunk)-gelu-mul", "unique_id 3 (CANN 8.0.0)"},
    {"torch_npu.npu_geglu", "(slice|chunk)-mul-gelu", "unique_id 3 (CANN 8.0.0)"},
    {"torch_npu.npu_group_norm_silu", "group_norm-silu", "unique_id 3 (CANN 8.0.0)"},
    {"torch.addmm", "mul-mul-add", "unique_id 3 (CANN 8.0.0)"},
    {"torch_npu.npu_add_layer_norm", "add-layer_norm", "unique_id 3 (CANN 8.0.0)"},
};

/// One optimizer rule of timeline_fusion_ops.yaml (section `Optimizer`, unique_id 0): the fused
/// optimizer and the `Optimizer.step#{step}` record of the torch one it replaces.
struct OptimizerRule {
  const char* api;
  const char* step;
};
constexpr OptimizerRule kOptimizerRules[] = {
    {"torch_npu.optim.NpuFusedAdamW", "AdamW.step"},       {"torch_npu.optim.NpuFusedSGD", "SGD.step"},
    {"torch_npu.optim.NpuFusedAdadelta", "Adadelta.step"}, {"torch_npu.optim.NpuFusedLamb", "Lamb.step"},
    {"torch_npu.optim.NpuFusedAdamP", "AdamP.step"},       {"torch_npu.optim.NpuFusedBertAdam", "BertAdam.step"},
    {"torch_npu.optim.NpuFusedRMSprop", "RMSprop.step"},   {"torch_npu.optim.NpuFusedRMSpropTF", "RMSpropTF.step"},
    {"torch_npu.optim.NpuFusedAdam", "Adam.step"},
};

constexpr std::string_view kAten = "aten::";
constexpr std::string_view kOptimizerStep = "Optimizer.step#";

/// A compiled sequence element: any of `tokens`, repeated min..max times.
struct Element {
  std::vector<int> tokens;
  int min = 1, max = 1;
  [[nodiscard]] bool has(int t) const { return std::find(tokens.begin(), tokens.end(), t) != tokens.end(); }
};

/// The rules compiled once: every op name the sequences use gets a token (other ops are -1).
struct CompiledRules {
  std::unordered_map<std::string, int> token;
  std::vector<std::vector<Element>> sequences;  ///< one per kAtenRules entry
  CompiledRules() {
    for (const AtenRule& r : kAtenRules) {
      std::vector<Element> seq;
      std::string_view s = r.sequence;
      while (!s.empty()) {
        const std::size_t dash = s.find('-');
        std::string_view piece = s.substr(0, dash);
        s = dash == std::string_view::npos ? std::string_view() : s.substr(dash + 1);
        Element e;
        std::string_view names = piece;
        if (!piece.empty() && piece.front() == '(') {
          const std::size_t close = piece.find(')');
          names = piece.substr(1, close - 1);
          std::string_view rep = piece.substr(close + 1);  // "{m,n}" or ""
          if (rep.size() >= 5 && rep.front() == '{') {
            e.min = rep[1] - '0';
            e.max = rep[3] - '0';
          }
        }
        while (!names.empty()) {
          const std::size_t bar = names.find('|');
          const std::string name(names.substr(0, bar));
          names = bar == std::string_view::npos ? std::string_view() : names.substr(bar + 1);
          const auto it = token.emplace(name, static_cast<int>(token.size())).first;
          e.tokens.push_back(it->second);
        }
        seq.push_back(std::move(e));
      }
      sequences.push_back(std::move(seq));
    }
  }
};

const CompiledRules& compiledRules() {
  static const CompiledRules rules;
  return rules;
}

/// The end of a match of `seq` from element `e` at token `pos`, or -1. Greedy with backtracking,
/// longest repeat first: the order in which a regular expression tries "(a|b){m,n}" (each
/// repeat takes one op), so the first match found is the one re.finditer would report.
long long matchFrom(const std::vector<Element>& seq, std::size_t e, const std::vector<int>& tok, std::size_t pos) {
  if (e == seq.size()) return static_cast<long long>(pos);
  const Element& x = seq[e];
  int k = 0;
  while (k < x.max && pos + static_cast<std::size_t>(k) < tok.size() && x.has(tok[pos + static_cast<std::size_t>(k)])) ++k;
  for (int r = k; r >= x.min; --r) {
    const long long end = matchFrom(seq, e + 1, tok, pos + static_cast<std::size_t>(r));
    if (end >= 0) return end;
  }
  return -1;
}

struct ApiHits {
  std::size_t count = 0;
  TimeNs hostNs = 0;  ///< host time of the matched top-level ops
  std::vector<std::pair<double, SliceRef>> firstOps;
};

}  // namespace

/// Affinity APIs (msprof-analyze fusion_ops_analyzer.py on timeline_fusion_ops.yaml). Per host
/// thread of the Python process: its top-level torch ops (an `aten::` slice not inside an
/// earlier kept `aten::` slice of the thread, by start) form a sequence of op names without the
/// prefix, and each rule's sequence is matched leftmost, non-overlapping (re.finditer), as a true
/// alternation of the yaml's names (docs/diagnosis.md §6.2: msprof-analyze's own regex
/// translation garbles the "(a|b)" elements). An `Optimizer.step#X.step` slice with X one of the
/// yaml's optimizers is a match of its fused optimizer. Unknown when no torch op was recorded.
/// Cost: one pass over the Python lanes' slices, a sort of each lane's aten slices, and
/// O(ops x rules) matching with constant-size rules.
/// ruleAffinityApi's classes of a slice name, by name id: dense arrays with one entry per string
/// of the trace (a hash lookup per slice cost 40 ms on 1.3 M Python slices, issue 43).
struct NameClasses {
  static constexpr int kUnseen = -3;
  const Trace& t;
  const CompiledRules& rules;
  std::vector<int> token;      ///< kUnseen, -2 not aten, -1 an aten op no rule uses, else the rule token
  std::vector<int> optimizer;  ///< the index of kOptimizerRules, -1 none
  std::vector<char> foreach;   ///< an aten::_foreach_* op

  NameClasses(const Trace& trace, const CompiledRules& r)
      : t(trace), rules(r), token(trace.strings.size(), kUnseen), optimizer(trace.strings.size(), -1), foreach(trace.strings.size(), 0) {}

  /// Classifies `id` once; false when it is not a name of the trace's pool.
  bool classify(NameId id) {
    if (id >= token.size()) return false;
    if (token[id] != kUnseen) return true;
    token[id] = -2;
    const std::string_view n = t.name(id);
    if (n.starts_with(kAten)) {
      const auto tk = rules.token.find(std::string(n.substr(kAten.size())));
      token[id] = tk == rules.token.end() ? -1 : tk->second;
    }
    if (n.starts_with(kOptimizerStep))
      for (std::size_t k = 0; k < std::size(kOptimizerRules); ++k)
        if (n.substr(kOptimizerStep.size()) == kOptimizerRules[k].step) optimizer[id] = static_cast<int>(k);
    foreach[id] = n.starts_with("aten::_foreach_");
    return true;
  }
};

void ruleAffinityApi(const AdvisorContext& c, std::vector<Finding>& out) {
  const Trace& t = c.trace;
  const CompiledRules& rules = compiledRules();
  constexpr std::size_t nAten = std::size(kAtenRules), nOpt = std::size(kOptimizerRules);
  std::vector<ApiHits> aten(nAten), opt(nOpt);
  NameClasses names(t, rules);
  std::size_t atenOps = 0;
  struct Op {
    TimeNs start, end;
    SliceRef ref;
    int token;
  };
  std::vector<Op> ops;
  std::vector<int> tokens;
  std::vector<Op> kept;
  // Optimizer steps that already run torch's multi-tensor (foreach) kernels: an `aten::_foreach_*`
  // op inside the Optimizer.step slice (same thread). The fused optimizer may then save little.
  std::size_t stepsWithForeach = 0;
  std::vector<TimeNs> foreachStarts;
  std::vector<std::pair<TimeNs, TimeNs>> optimizerSpans;
  for (std::uint32_t li = 0; li < t.lanes.size(); ++li) {
    const Lane& lane = t.lanes[li];
    if (t.processes[lane.process].role != Process::Role::Python) continue;
    ops.clear();
    foreachStarts.clear();
    optimizerSpans.clear();
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      const NameId id = lane.names[i];
      if (!names.classify(id)) continue;  // not a name of this trace's pool
      if (const int token = names.token[id]; token != -2) {
        ops.push_back({lane.start[i], lane.end[i], SliceRef{li, i}, token});
        if (names.foreach[id]) foreachStarts.push_back(lane.start[i]);
      }
      if (const int o = names.optimizer[id]; o >= 0) {
        optimizerSpans.push_back({lane.start[i], lane.end[i]});
        ApiHits& h = opt[static_cast<std::size_t>(o)];
        ++h.count;
        h.hostNs += lane.end[i] - lane.start[i];
        h.firstOps.push_back({static_cast<double>(lane.end[i] - lane.start[i]), SliceRef{li, i}});
      }
    }
    std::sort(foreachStarts.begin(), foreachStarts.end());
    for (const auto& [b, e] : optimizerSpans) {
      const auto f = std::lower_bound(foreachStarts.begin(), foreachStarts.end(), b);
      if (f != foreachStarts.end() && *f < e) ++stepsWithForeach;
    }
    // Top-level torch ops of the thread, by start (the longer first on a tie: the parent).
    std::sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    kept.clear();
    for (const Op& o : ops)
      if (kept.empty() || !(kept.back().start <= o.start && o.end <= kept.back().end)) kept.push_back(o);
    atenOps += kept.size();
    tokens.resize(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) tokens[i] = kept[i].token;
    for (std::size_t r = 0; r < nAten; ++r) {
      const std::vector<Element>& seq = rules.sequences[r];
      for (std::size_t pos = 0; pos < tokens.size();) {
        if (!seq.front().has(tokens[pos]) && seq.front().min > 0) {  // cheap reject of most starts
          ++pos;
          continue;
        }
        const long long end = matchFrom(seq, 0, tokens, pos);
        if (end <= static_cast<long long>(pos)) {
          ++pos;
          continue;
        }
        ApiHits& h = aten[r];
        ++h.count;
        const TimeNs host = kept[static_cast<std::size_t>(end) - 1].end - kept[pos].start;
        h.hostNs += host;
        h.firstOps.push_back({static_cast<double>(host), kept[pos].ref});
        pos = static_cast<std::size_t>(end);
      }
    }
  }

  Finding f;
  f.rule = "affinity_api";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "%1 or more matches of a timeline_fusion_ops.yaml sequence of top-level torch ops "
                                       "(one thread) or of an Optimizer.step record of an optimizer with a fused torch_npu "
                                       "version"),
                             {std::to_string(c.thresholds.affinityMinMatches)});
  f.source = "msprof-analyze advisor fusion_ops_analyzer.py, timeline_fusion_ops.yaml (unique_id 0 to 3: its default "
             "CANN 8.0.0 / torch 2.1.0 rules); docs/diagnosis.md §6";
  const bool optimizerSeen = std::any_of(opt.begin(), opt.end(), [](const ApiHits& h) { return h.count > 0; });
  if (atenOps == 0 && !optimizerSeen) {
    f.title = npuTr("npuscope::core::Advisor", "Affinity APIs: unknown");
    f.severity = Severity::Unknown;
    f.numbers = torchLayerRecorded(t) ? npuTr("npuscope::core::Advisor", "the trace holds no torch op (aten::) on the Python threads")
                                      : npuTr("npuscope::core::Advisor", "the framework layer (torch ops) was not recorded (MindSpore / GE graph "
                                                  "mode through msprof?)");
    out.push_back(std::move(f));
    return;
  }
  // Per API (several rules can name the same API): matches, in yaml order.
  std::vector<std::pair<std::string, ApiHits*>> byApi;
  std::vector<std::string> detail;
  std::size_t total = 0;
  std::vector<std::pair<double, SliceRef>> ev;
  auto add = [&](const std::string& api, ApiHits& h, const std::string& what) {
    if (h.count == 0) return;
    total += h.count;
    detail.push_back(i18n::format(npuTr("npuscope::core::Advisor", "%1: %2 x %3 (%4 on the host)"),
                                  {api, std::to_string(h.count), what, us(h.hostNs)}));
    ev.insert(ev.end(), h.firstOps.begin(), h.firstOps.end());
    if (std::find_if(byApi.begin(), byApi.end(), [&](const auto& p) { return p.first == api; }) == byApi.end())
      byApi.push_back({api, &h});
  };
  for (std::size_t r = 0; r < nAten; ++r) add(kAtenRules[r].api, aten[r], kAtenRules[r].sequence);
  for (std::size_t k = 0; k < nOpt; ++k) add(kOptimizerRules[k].api, opt[k], kOptimizerRules[k].step);
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 over %2 top-level torch ops"),
                           {countNoun(total, npuTr("npuscope::core::Advisor", "match"), npuTr("npuscope::core::Advisor", "matches")), std::to_string(atenOps)});
  const std::string sep = clauseSep();
  for (const std::string& d : detail) f.numbers += sep + d;
  if (stepsWithForeach > 0)
    f.numbers += sep + i18n::format(npuTr("npuscope::core::Advisor", "%1 of the optimizer steps already run foreach kernels "
                                                                     "(aten::_foreach_*), so the fused optimizer may save little there"),
                                    {std::to_string(stepsWithForeach)});
  f.numbers += npuTr("npuscope::core::Advisor", ". The time a fused API would save is not measured: time at stake unknown (0)");
  if (total >= c.thresholds.affinityMinMatches && total > 0) {
    f.title = npuTr("npuscope::core::Advisor", "Affinity APIs available for what the model calls");
    f.severity = Severity::Issue;
    std::string apis;
    for (const auto& p : byApi) apis += (apis.empty() ? "" : ", ") + p.first;
    f.fix = i18n::format(npuTr("npuscope::core::Advisor", "Replace the matched code with its fused torch_npu API: %1 (one fused call instead of "
                                   "several launches; check the API's constraints in the torch_npu docs, and record "
                                   "with_stack to find the call sites)."),
                         {apis});
  } else {
    f.title = npuTr("npuscope::core::Advisor", "No affinity-API sequence found");
    f.severity = Severity::Ok;
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

// ---------------------------------------------------------------------------------------------
// Fusible operator sequences
// ---------------------------------------------------------------------------------------------
namespace {

double numberUs(const KernelDetails& k, std::size_t row, int col) {
  if (col < 0) return 0;
  return csvNumber(k.table.cell(row, col)).value_or(0.0);  // msprof-analyze: 0 for what float() refuses
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

bool lowerStartsWith(std::string_view s, std::string_view p) {
  if (s.size() < p.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != p[i]) return false;
  return true;
}

/// One candidate sequence, summed over its occurrences (fusible_operator_checker.py result_dict).
struct Candidate {
  std::size_t first = 0, length = 0;  ///< its first occurrence: rows [first, first + length)
  double wallUs = 0, taskUs = 0, mteUs = 0;
  std::size_t count = 0;
  bool mte = false, host = false;  ///< the flags of its last occurrence, as msprof-analyze keeps them
};

/// Per kernel_details.csv row, what ruleFusibleOps keys and weighs: a task id by (Name, Input
/// Shapes, Output Shapes), whether the row breaks a run (communication, AI_CPU, hcom/lccl/lcoc),
/// and its start, duration, MTE time and aicore time in us.
struct FusibleRows {
  std::vector<std::uint32_t> id;
  std::vector<char> breaker;
  std::vector<double> startUs, durUs, mteUs, aicoreUs;
  bool mteRecorded = false;  ///< the four MTE columns are in the file
};

/// The FusibleRows of kernel_details.csv's rows, in file order.
FusibleRows fusibleRows(const KernelDetails& k) {
  const CsvTable& tb = k.table;
  const int cOut = tb.column("Output Shapes"), cAicore = tb.column("aicore_time(us)");
  const int cAicMte2 = tb.column("aic_mte2_time(us)"), cAivMte2 = tb.column("aiv_mte2_time(us)");
  const int cAicFix = tb.column("aic_fixpipe_time(us)"), cAivMte3 = tb.column("aiv_mte3_time(us)");
  const std::size_t n = k.rows.size();
  FusibleRows rows;
  rows.mteRecorded = cAicMte2 >= 0 && cAivMte2 >= 0 && cAicFix >= 0 && cAivMte3 >= 0;
  rows.id.resize(n);
  rows.breaker.resize(n);
  rows.startUs.resize(n);
  rows.durUs.resize(n);
  rows.mteUs.resize(n);
  rows.aicoreUs.resize(n);
  std::unordered_map<std::string, std::uint32_t> ids;
  std::string key;
  for (std::size_t r = 0; r < n; ++r) {
    const KernelRow& row = k.rows[r];
    key = row.name;
    key += '\x1f';
    key += row.inputShapes;
    key += '\x1f';
    key += csvTrim(tb.cell(r, cOut));
    rows.id[r] = ids.emplace(key, static_cast<std::uint32_t>(ids.size())).first->second;
    rows.breaker[r] = row.isCommunication() || row.core == "AI_CPU" || lowerStartsWith(row.name, "hcom") ||
                      lowerStartsWith(row.name, "lccl") || lowerStartsWith(row.name, "lcoc");
    rows.startUs[r] = row.start ? static_cast<double>(*row.start) / 1e3 : 0.0;
    rows.durUs[r] = row.duration ? static_cast<double>(*row.duration) / 1e3 : 0.0;
    rows.mteUs[r] = std::max(numberUs(k, r, cAicMte2), numberUs(k, r, cAivMte2)) +
                    std::max(numberUs(k, r, cAicFix), numberUs(k, r, cAivMte3));
    rows.aicoreUs[r] = numberUs(k, r, cAicore);
  }
  return rows;
}

/// Whether rows [a, a + len) and [b, b + len) hold the same tasks.
bool sameSeq(const FusibleRows& rows, std::size_t a, std::size_t b, std::size_t len) {
  for (std::size_t i = 0; i < len; ++i)
    if (rows.id[a + i] != rows.id[b + i]) return false;
  return true;
}

/// Every run of fusibleMinTasks..fusibleMaxTasks tasks not crossing a breaker whose occurrence is
/// host bound or MTE bound, summed by key, in first-insertion order (the checker's OrderedDict).
/// Keys are hashed; an occurrence whose hash hits another key is left out and counted in
/// `collisions`.
std::vector<Candidate> fusibleCandidates(const FusibleRows& rows, const AdvisorThresholds& th, std::size_t& collisions) {
  const std::size_t n = rows.id.size();
  std::vector<Candidate> cand;
  std::unordered_map<std::uint64_t, std::size_t> byHash;
  const std::size_t maxExtra = th.fusibleMaxTasks > 0 ? th.fusibleMaxTasks - 1 : 0;
  const std::size_t minExtra = th.fusibleMinTasks > 0 ? th.fusibleMinTasks - 1 : 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (rows.breaker[i]) continue;
    std::uint64_t h = 1469598103934665603ULL ^ rows.id[i];
    double dur = rows.durUs[i], mte = rows.mteUs[i], aicore = rows.aicoreUs[i];
    for (std::size_t j = 1; j <= maxExtra && i + j < n; ++j) {
      const std::size_t r = i + j;
      if (rows.breaker[r]) break;
      h = (h ^ (rows.id[r] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2))) * 1099511628211ULL;
      dur += rows.durUs[r];
      mte += rows.mteUs[r];
      aicore += rows.aicoreUs[r];
      const double wall = rows.startUs[r] + rows.durUs[r] - rows.startUs[i];
      const bool host = wall != 0 && dur / wall < th.fusibleHostRatio;
      const bool mteBound = aicore != 0 && mte / aicore > th.fusibleMteRatio;
      if ((!host && !mteBound) || j < minExtra) continue;
      const std::uint64_t key = h ^ (static_cast<std::uint64_t>(j) << 56);
      auto [it, fresh] = byHash.try_emplace(key, cand.size());
      if (fresh) {
        cand.push_back({i, j + 1});
      } else if (cand[it->second].length != j + 1 || !sameSeq(rows, cand[it->second].first, i, j + 1)) {
        ++collisions;  // a 64-bit hash collision: the occurrence is left out (never seen)
        continue;
      }
      Candidate& cd = cand[it->second];
      cd.wallUs += wall;
      cd.taskUs += dur;
      cd.mteUs += mte;
      ++cd.count;
      cd.mte = mteBound;
      cd.host = host;
    }
  }
  return cand;
}

/// msprof-analyze's post_processing: the passing candidates (more than fusibleMinCount
/// occurrences, and over fusibleDurationShare of the span `spanUs` or MTE bound); of consecutive
/// passing ones each extending the previous (same tasks first), the one of largest summed wall
/// span. Indices into `cand`, largest wall span first.
std::vector<std::size_t> keptCandidates(const std::vector<Candidate>& cand, const FusibleRows& rows, double spanUs,
                                        const AdvisorThresholds& th) {
  auto passes = [&](const Candidate& cd) {
    const bool share = spanUs != 0 && cd.wallUs / spanUs > th.fusibleDurationShare;
    return cd.count > th.fusibleMinCount && (share || cd.mte);
  };
  auto extends = [&](const Candidate& longer, const Candidate& base) {
    return longer.length >= base.length && sameSeq(rows, longer.first, base.first, base.length);
  };
  std::vector<std::size_t> kept;
  std::size_t record = SIZE_MAX, base = SIZE_MAX;
  for (std::size_t x = 0; x < cand.size(); ++x) {
    if (!passes(cand[x])) continue;
    if (base == SIZE_MAX) record = x;
    else if (extends(cand[x], cand[base]) && cand[x].wallUs > cand[record].wallUs) record = x;
    else {
      kept.push_back(record);
      record = x;
    }
    base = x;
  }
  // As msprof-analyze ends it: the last candidate (passing or not decides) is added, not the
  // pending record, which is dropped unless it is that candidate (docs/diagnosis.md §6.2).
  if (!cand.empty() && passes(cand.back()) && std::find(kept.begin(), kept.end(), cand.size() - 1) == kept.end())
    kept.push_back(cand.size() - 1);
  std::sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) { return cand[a].wallUs > cand[b].wallUs; });
  return kept;
}

}  // namespace

/// Fusible operator sequences (msprof-analyze fusible_operator_checker.py, fusible_operator.yaml),
/// over kernel_details.csv in file order: every run of fusibleMinTasks..fusibleMaxTasks consecutive
/// tasks not crossing a communication or AI_CPU task is keyed by its tasks' (Name, Input Shapes,
/// Output Shapes); an occurrence counts when it is host bound (summed Duration / wall span <
/// fusibleHostRatio) or MTE bound ((max(aic_mte2, aiv_mte2) + max(aic_fixpipe, aiv_mte3)) summed /
/// aicore_time summed > fusibleMteRatio). A key is reported when it occurs more than
/// fusibleMinCount times and its summed wall span exceeds fusibleDurationShare of the kernels'
/// whole span or its last occurrence is MTE bound; of a run of reported keys each extending the
/// previous, the one of largest summed wall span is kept (msprof-analyze's post_processing).
/// Unknown without kernel_details.csv. Cost: O(rows x fusibleMaxTasks), one hash entry per flagged
/// candidate key (keys are compared by task ids, verified on a hash hit).
void ruleFusibleOps(const AdvisorContext& c, std::vector<Finding>& out) {
  Finding f;
  f.rule = "fusible_ops";
  const AdvisorThresholds& th = c.thresholds;
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor",
                                   "a run of %1 to %2 consecutive tasks occurring more than %3 times, host bound (task "
                                   "time / wall span < %4) or MTE bound (MTE time / aicore time > %5), and over %6% of "
                                   "the kernels' span in all (or MTE bound)"),
                             {std::to_string(th.fusibleMinTasks), std::to_string(th.fusibleMaxTasks),
                              std::to_string(th.fusibleMinCount), num(th.fusibleHostRatio), num(th.fusibleMteRatio),
                              num(th.fusibleDurationShare * 100)});
  f.source = "msprof-analyze advisor fusible_operator_checker.py, fusible_operator.yaml; docs/diagnosis.md §6";
  const KernelDetails* k = c.kernels;
  if (!k || k->rows.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Fusible operator sequences: unknown");
    f.severity = Severity::Unknown;
    f.numbers = npuTr("npuscope::core::Advisor", "kernel_details.csv was not read (it lists the tasks in order with their shapes)");
    out.push_back(std::move(f));
    return;
  }
  const std::size_t n = k->rows.size();
  const FusibleRows rows = fusibleRows(*k);
  const double spanUs = rows.startUs[n - 1] + rows.durUs[n - 1] - rows.startUs[0];
  std::size_t collisions = 0;
  const std::vector<Candidate> cand = fusibleCandidates(rows, th, collisions);
  const std::vector<std::size_t> kept = keptCandidates(cand, rows, spanUs, th);

  std::size_t hostN = 0, mteN = 0;
  std::vector<std::pair<double, SliceRef>> ev;
  for (std::size_t x : kept) {
    hostN += cand[x].host ? 1 : 0;
    mteN += cand[x].mte ? 1 : 0;
    ev.push_back({cand[x].wallUs, c.taskOf(k->rows[cand[x].first])});
  }
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 sequences (%2 host bound, %3 MTE bound) among %4 tasks"),
                           {std::to_string(kept.size()), std::to_string(hostN), std::to_string(mteN), std::to_string(n)});
  if (!rows.mteRecorded) f.numbers += npuTr("npuscope::core::Advisor", "; MTE bound not judged: kernel_details.csv has no MTE columns (Level1 with PipeUtilization writes them)");
  for (std::size_t q = 0; q < kept.size() && q < 3; ++q) {
    const Candidate& cd = cand[kept[q]];
    f.numbers += "; rows " + std::to_string(cd.first) + "-" + std::to_string(cd.first + cd.length - 1) + " (" +
                 k->rows[cd.first].name + " ... " + k->rows[cd.first + cd.length - 1].name + "), " +
                 std::to_string(cd.count) + " times, wall " + us(static_cast<TimeNs>(cd.wallUs * 1e3)) + ", tasks " +
                 us(static_cast<TimeNs>(cd.taskUs * 1e3)) + (cd.mte ? ", MTE bound" : "") +
                 (cd.host ? ", host bound" : "");
  }
  if (collisions > 0)
    f.numbers += clauseSep() + i18n::format(npuTr("npuscope::core::Advisor", "%1 occurrences left out (key hash collision)"),
                                            {std::to_string(collisions)});
  f.numbers += npuTr("npuscope::core::Advisor", ". Sequences overlap (a sliding window over the same tasks) and what a fused kernel saves is not "
               "known: time at stake unknown (0)");
  if (!kept.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Fusible operator sequences");
    f.severity = Severity::Issue;
    f.fix = npuTr("npuscope::core::Advisor", "Host-bound runs: many small launches, look for a fused torch_npu API or graph mode (torch.compile / "
            "torchair); MTE-bound runs move data between kernels: ask whether the sequence can be one fused kernel. "
            "Row numbers are kernel_details.csv's, from 0 without the header.");
  } else {
    f.title = npuTr("npuscope::core::Advisor", "No fusible operator sequence");
    f.severity = Severity::Ok;
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

}  // namespace npuscope::core::detail
