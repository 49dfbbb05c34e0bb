// SPDX-License-Identifier: MIT
// `npuscope summarize` (summarize.h).

#include "core/cluster/summarize.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "core/analysis/rank_summary.h"
#include "core/base/guard.h"
#include "core/cluster/summary.h"
#include "core/profile/profile.h"

namespace npuscope::core {

namespace fs = std::filesystem;

namespace {

/// `inner` is `outer` or lies below it (both made absolute and normal, symlinks of the existing
/// part resolved).
bool within(const fs::path& inner, const fs::path& outer) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(inner, ec), ec);
  const fs::path b = fs::weakly_canonical(fs::absolute(outer, ec), ec);
  if (a.empty() || b.empty()) return false;
  auto ai = a.begin();
  for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai) {
    if (bi->empty()) continue;  // a trailing separator
    if (ai == a.end() || *ai != *bi) return false;
  }
  return true;
}

/// Why writing into `outDir` is refused ("" when it is not): inside the opened path (a folder)
/// or inside a rank's folder.
std::string refusal(const std::string& path, const std::string& outDir, const ProfileLayout& layout) {
  std::error_code ec;
  if (fs::is_directory(path, ec) && within(outDir, path)) return "refusing to write summaries inside " + path + ", the folder read";
  for (const RankSource& r : layout.ranks)
    if (r.summaryFile.empty() && !r.root.empty() && within(outDir, r.root))
      return "refusing to write summaries inside " + r.root + ", a rank's profiling folder";
  return {};
}

/// Unique file names: summaryFileName, then "-2", "-3", ... before the suffix.
std::vector<std::string> fileNames(const std::vector<RankSummary>& heads) {
  std::vector<std::string> names;
  std::set<std::string> used;
  const std::string suffix(kSummarySuffix);
  for (const RankSummary& h : heads) {
    std::string name = summaryFileName(h);
    for (int k = 2; used.count(name); ++k) name = summaryFileName(h).substr(0, summaryFileName(h).size() - suffix.size()) + "-" + std::to_string(k) + suffix;
    used.insert(name);
    names.push_back(name);
  }
  return names;
}

}  // namespace

std::size_t SummarizeResult::failed() const {
  return static_cast<std::size_t>(std::count_if(ranks.begin(), ranks.end(), [](const SummarizedRank& r) { return !r.error.empty(); }));
}

std::string localHostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return {};
  return buf;
}

SummarizeResult summarizePath(const std::string& path, const std::string& outDir, const SummarizeOptions& options) {
  SummarizeResult result;
  try {
    ProfileLayout layout = discoverProfile(path, options.load.capture);
    result.messages = layout.messages;
    if (!layout.error.empty()) {
      result.error = layout.error;
      return result;
    }
    if (layout.ranks.empty()) {
      result.error = "no rank found in " + path;
      return result;
    }
    if (std::string why = refusal(path, outDir, layout); !why.empty()) {
      result.error = why;
      return result;
    }
    std::error_code ec;
    fs::create_directories(outDir, ec);
    if (!fs::is_directory(outDir, ec)) {
      result.error = "cannot create " + outDir + (ec ? ": " + ec.message() : std::string());
      return result;
    }
    const std::string host = options.host.empty() ? localHostName() : options.host;
    // File names are chosen up front (rank ids from discovery; the load may refine a label).
    std::vector<RankSummary> heads(layout.ranks.size());
    for (std::size_t i = 0; i < layout.ranks.size(); ++i) {
      heads[i].rank = layout.ranks[i].rank;
      heads[i].label = layout.ranks[i].label;
    }
    const std::vector<std::string> names = fileNames(heads);
    result.ranks.resize(layout.ranks.size());
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned jobs = std::max(1u, std::min<unsigned>(options.jobs ? options.jobs : cores, static_cast<unsigned>(layout.ranks.size())));
    std::atomic<std::size_t> next{0};
    std::mutex mutex;  // result.messages and progress
    std::size_t done = 0;
    const auto work = [&] {
      for (std::size_t i; (i = next.fetch_add(1)) < layout.ranks.size();) {
        if (options.load.stop.stop_requested()) return;
        SummarizedRank& out = result.ranks[i];
        out.label = layout.ranks[i].label;
        out.rank = layout.ranks[i].rank;
        LoadOptions lo = options.load;
        lo.threads = std::max(1u, cores / jobs);
        lo.progress = nullptr;
        lo.preview = nullptr;
        lo.summaryLevels = false;  // nothing is drawn
        AnalysisOptions ao;
        ao.threads = lo.threads;
        std::vector<std::string> messages;
        bool cancelled = false;
        RankSummary s;
        try {
          RankProfile rp = loadRank(layout.ranks[i], lo, ao, messages, cancelled);
          if (cancelled) return;
          if (rp.summary) {
            s = *rp.summary;
          } else {
            s = summarizeRank(rp);
            addRankAnalyses(s, rp, options.thresholds, lo.threads);
            s.host = host;
          }
        } catch (...) {
          s.rank = out.rank;
          s.label = out.label;
          s.path = layout.ranks[i].root;
          s.host = host;
          s.error = describeException(std::current_exception(), "summarizing " + out.label);
        }
        if (!s.label.empty()) out.label = s.label;
        out.rank = s.rank;
        // A rank with figures or HCCL ops is usable even without a trace (tables only).
        (s.hasFigures || !s.ops.empty() ? out.note : out.error) = s.error;
        const std::string file = (fs::path(outDir) / names[i]).string();
        std::string werr;
        if (writeSummaryFile(file, s, werr)) out.file = file;
        else out.error = out.error.empty() ? werr : out.error + "; " + werr;
        std::lock_guard<std::mutex> lock(mutex);
        for (std::string& m : messages) result.messages.push_back(std::move(m));
        ++done;
        if (options.progress) options.progress(done, layout.ranks.size(), out.label);
      }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    if (options.load.stop.stop_requested()) result.error = "cancelled";
  } catch (...) {
    result.error = describeException(std::current_exception(), "summarizing " + path);
  }
  return result;
}

}  // namespace npuscope::core
