// SPDX-License-Identifier: MIT
#pragma once
// Rank summaries on disk (docs/summary-format.md): what `npuscope summarize` writes for each rank
// where its trace lies, and what `report`, `compare` and the GUI read back as a capture of their
// own. One gzip'd JSON object per rank, versioned ("schema_version": "MAJOR.MINOR"; a reader takes
// its own major and any minor), deterministic (the same rank on the same machine gives the same
// bytes), and small (a few KB per rank: the ops and steps the cross-rank stage needs, the longest
// bubbles, the top operators and dispatch statistics).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/advisor.h"
#include "core/analysis/rank_summary.h"

namespace npuscope::core {

struct RankProfile;

/// The "schema" value of a rank summary.
inline constexpr std::string_view kSummarySchema = "npuscope.rank-summary";
/// The version written; a reader accepts this major and any minor (a minor only adds keys).
inline constexpr int kSummaryMajor = 1;
inline constexpr int kSummaryMinor = 2;  ///< 1.1: profiler_settings; 1.2: parallel_groups
/// The ending of a summary file's name ("rank00003.npuscope-summary.json.gz"); discovery also
/// takes it without ".gz".
inline constexpr std::string_view kSummarySuffix = ".npuscope-summary.json.gz";

/// Adds the rank's own analyses to its summary (RankSummary::full): the whole-capture figures,
/// the verdict, the kSummaryBubbles longest bubbles with cause and chain, the bubble time per
/// cause, the kernel table's groups (kernelGroupsOf, for `compare`), and the report's operator
/// table and dispatch statistics cut to kSummaryOperators and kSummaryDispatch entries (as
/// `report --json` computes them: rankOperatorTable, the table adviseRankProfile's decision tree
/// reads; dispatchStats on `threads` threads, 0 the hardware's; no decision tree).
/// Nothing when the rank has no analysis. Never throws but std::bad_alloc.
void addRankAnalyses(RankSummary& s, const RankProfile& rp, const AdvisorThresholds& thresholds = {}, unsigned threads = 0);

/// The summary as JSON text (one object, keys in a fixed order, integers for every time: the
/// same summary gives the same bytes). docs/summary-format.md lists the keys.
[[nodiscard]] std::string summaryJson(const RankSummary& s);

/// Reads summaryJson's text into `out`. False with `error` set ("…: schema_version 2.0 is newer
/// than this npuscope reads (1.x)", "…: ops[3].range_ns: end before start", …) when the text is
/// not a summary this version reads: wrong schema or major version, a key missing or of the wrong
/// type, a count or time out of range. Never throws.
[[nodiscard]] bool parseSummaryJson(std::string_view text, RankSummary& out, std::string& error);

/// Writes `s` to `path` gzip-compressed (zlib, no file name or time in the header: the same
/// summary gives the same bytes), through a temporary file renamed into place. False with
/// `error` on failure.
[[nodiscard]] bool writeSummaryFile(const std::string& path, const RankSummary& s, std::string& error);

/// Reads a summary file (gzip or plain JSON, by content), at most kSummaryMaxBytes inflated.
/// False with `error` (naming the file) when it cannot be read or parsed. Never throws.
[[nodiscard]] bool readSummaryFile(const std::string& path, RankSummary& out, std::string& error);

/// The largest summary text read (inflated), bytes: far above any real summary (a 1,000-op rank
/// is about 1 MB), low enough that a crafted file cannot exhaust memory.
inline constexpr std::uint64_t kSummaryMaxBytes = std::uint64_t(256) << 20;

/// "rank00003.npuscope-summary.json.gz" for rank 3; for a rank without an id, the label's
/// letters and digits ("rank-x.npuscope-summary.json.gz"), or "rank-unknown".
[[nodiscard]] std::string summaryFileName(const RankSummary& s);

/// True when `name` ends with kSummarySuffix, or with it less ".gz".
[[nodiscard]] bool isSummaryFileName(std::string_view name);

/// The `ranks[]` entry of `report --json` for a rank read from a summary: its identity, where its
/// trace lies, its steps and, from a full summary, its figures, verdict, bubbles and operators.
[[nodiscard]] std::string summaryReportJson(const RankSummary& s);

/// The same as lines of text for `report` (each line without its indent).
[[nodiscard]] std::vector<std::string> summaryReportLines(const RankSummary& s);

}  // namespace npuscope::core
