// SPDX-License-Identifier: MIT
#include "core/profile/profile.h"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <regex>

#include "core/base/parse_number.h"
#include "core/import/db/db_reader.h"
#include "core/import/json/json_scan.h"

namespace npuscope::core {

namespace fs = std::filesystem;

namespace {


bool isRankFolderName(const std::string& name) {
  return name.ends_with("_ascend_pt") || name.ends_with("_ascend_ms");
}

bool isTraceFileName(const std::string& name) {
  return name.ends_with(".json") || name.ends_with(".json.gz");  // trace_view.json, *.pt.trace.json(.gz), ...
}

std::string firstExisting(const fs::path& dir, std::initializer_list<const char*> names) {
  std::error_code ec;
  for (const char* n : names) {
    const fs::path p = dir / n;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return {};
}

/// A rank number read from a file name or a "rank_id" field: `value` when it is in [0, 2^31),
/// else -1 with a message naming `where` (std::stoi used to abort on a 10+ digit one).
int checkedRank(std::optional<long long> value, const std::string& where, std::vector<std::string>& messages) {
  if (value && *value >= 0 && *value <= std::numeric_limits<int>::max()) return static_cast<int>(*value);
  messages.push_back(where + ": rank out of range, taken as unknown");
  return -1;
}

/// Reads rank and profiler level from profiler_info*.json in `root`. A rank that does not fit
/// an int (profiler_info_99999999999.json) is taken as unknown, with a message.
void readProfilerInfo(const fs::path& root, RankSource& src, std::vector<std::string>& messages) {
  std::error_code ec;
  static const std::regex kInfo(R"(profiler_info(?:_(\d+))?\.json)");
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const std::string name = e.path().filename().string();
    std::smatch m;
    if (!std::regex_match(name, m, kInfo)) continue;
    src.profilerInfo = e.path().string();
    if (m[1].matched) src.rank = checkedRank(parseInteger<long long>(m[1].str()), name, messages);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.load(src.profilerInfo).get(doc)) break;
    std::int64_t r;
    if (src.rank < 0 && !doc["rank_id"].get_int64().get(r) && r >= 0)
      src.rank = checkedRank(static_cast<long long>(r), name + " rank_id", messages);
    std::string_view level;
    if (!doc["config"]["experimental_config"]["_profiler_level"].get_string().get(level)) src.profilerLevel = level;
    break;
  }
}

/// Fills a RankSource for a *_ascend_pt-like folder (one that holds ASCEND_PROFILER_OUTPUT or PROF_*).
bool describeRankFolder(const fs::path& root, RankSource& src, std::vector<std::string>& messages) {
  std::error_code ec;
  src.root = root.string();
  src.label = root.filename().string();
  const fs::path out = root / "ASCEND_PROFILER_OUTPUT";
  if (fs::is_directory(out, ec)) {
    src.traceFile = firstExisting(out, {"trace_view.json", "trace_view.json.gz"});
    src.kernelDetails = firstExisting(out, {"kernel_details.csv"});
    src.stepTraceTime = firstExisting(out, {"step_trace_time.csv"});
    src.communicationJson = firstExisting(out, {"communication.json"});
    src.analysisDb = firstExisting(out, {"analysis.db"});
    for (const auto& e : fs::directory_iterator(out, ec)) {
      const std::string n = e.path().filename().string();
      if ((n.rfind("ascend_pytorch_profiler", 0) == 0 || n.rfind("ascend_mindspore_profiler", 0) == 0) &&
          n.ends_with(".db"))
        src.dbFile = e.path().string();
    }
  }
  // Device id from PROF_*/device_N; msprof JSON as a fallback timeline.
  std::string newestMsprof;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("PROF_", 0) != 0 || !e.is_directory()) continue;
    for (const auto& d : fs::directory_iterator(e.path(), ec)) {
      const std::string dn = d.path().filename().string();
      if (dn.rfind("device_", 0) != 0) continue;
      if (const auto id = parseInteger<int>(std::string_view(dn).substr(7)); id && *id >= 0) src.device = *id;
    }
    const fs::path mo = e.path() / "mindstudio_profiler_output";
    if (fs::is_directory(mo, ec))
      for (const auto& f : fs::directory_iterator(mo, ec)) {
        const std::string fn = f.path().filename().string();
        if (fn.rfind("msprof_", 0) == 0 && fn.ends_with(".json") && f.path().string() > newestMsprof)
          newestMsprof = f.path().string();
      }
  }
  if (src.traceFile.empty()) src.traceFile = newestMsprof;
  readProfilerInfo(root, src, messages);
  if (src.rank >= 0) src.label = "rank " + std::to_string(src.rank);
  return !src.traceFile.empty() || !src.dbFile.empty() || !src.stepTraceTime.empty() || !src.kernelDetails.empty();
}

/// An msprof `device_{N}/timeline` folder (very old CANN / MindSpore, format notes §6): one rank
/// for device N, with the first (lowest model, then iteration) `msprof_{N}_{model}_{iter}.json`
/// as its trace. Several iterations are separate files; reading them into one timeline is not
/// done yet, so a message names the file loaded and the ones left out. False when `timeline`
/// holds no such file.
bool describeMsprofTimeline(const fs::path& timeline, RankSource& src, std::vector<std::string>& messages) {
  std::error_code ec;
  const std::string deviceDir = timeline.parent_path().filename().string();
  struct Candidate {
    int model, iter;
    fs::path path;
  };
  std::vector<Candidate> files;
  static const std::regex kName(R"(msprof_(\d+)_(\d+)_(\d+)\.json)");
  for (const auto& e : fs::directory_iterator(timeline, ec)) {
    const std::string n = e.path().filename().string();
    std::smatch m;
    if (!e.is_regular_file() || !std::regex_match(n, m, kName)) continue;
    // Numbers too long for an int sort last (the regex holds digits only).
    constexpr int kTooLong = std::numeric_limits<int>::max();
    files.push_back({parseInteger<int>(m[2].str()).value_or(kTooLong), parseInteger<int>(m[3].str()).value_or(kTooLong),
                     e.path()});
  }
  if (files.empty()) return false;
  std::sort(files.begin(), files.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.model, a.iter, a.path) < std::tie(b.model, b.iter, b.path);
  });
  src.root = timeline.string();
  src.traceFile = files.front().path.string();
  src.device = deviceFromTracePath(src.traceFile);
  src.label = src.device >= 0 ? "device " + std::to_string(src.device) : deviceDir;
  // PROF_*/device_N/info.json.N holds rank_id (-1 if unknown; format notes §1.2).
  for (const auto& e : fs::directory_iterator(timeline.parent_path(), ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("info.json.", 0) != 0 || n.ends_with(".done")) continue;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    std::int64_t r;
    if (!parser.load(e.path().string()).get(doc) && !doc["rank_id"].get_int64().get(r) && r >= 0 &&
        r <= std::numeric_limits<int>::max()) {
      src.rank = static_cast<int>(r);
      src.label = "rank " + std::to_string(r);
    }
    break;
  }
  const fs::path prof = timeline.parent_path().parent_path();
  std::string msg = prof.filename().string() + "/" + deviceDir + "/timeline: loaded " +
                    files.front().path.filename().string() + " only";
  if (files.size() > 1) {
    msg += "; the other iterations were not loaded (";
    for (std::size_t i = 1; i < files.size(); ++i) msg += (i > 1 ? ", " : "") + files[i].path.filename().string();
    msg += "): one msprof file per device is read";
  }
  messages.push_back(msg);
  return true;
}

/// The `device_*/timeline` folders under a PROF_* folder, sorted.
std::vector<fs::path> msprofTimelines(const fs::path& prof) {
  std::error_code ec;
  std::vector<fs::path> out;
  for (const auto& d : fs::directory_iterator(prof, ec)) {
    const std::string dn = d.path().filename().string();
    if (d.is_directory() && dn.rfind("device_", 0) == 0 && fs::is_directory(d.path() / "timeline", ec))
      out.push_back(d.path() / "timeline");
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// Which export of a rank loadProfile reads (format notes §1.1, §8): the SQLite export when it is
/// the only one, or when both exist and `preference` is Db; else the text. When both exist a
/// message says which one was loaded and why. True: read `src.dbFile`.
bool chooseRankExport(const RankSource& src, LoadOptions::Source preference, std::vector<std::string>& messages) {
  if (src.dbFile.empty()) return false;
  const std::string db = fs::path(src.dbFile).filename().string();
  if (src.traceFile.empty()) return true;
  const std::string text = fs::path(src.traceFile).filename().string();
  if (preference == LoadOptions::Source::Db) {
    messages.push_back(src.label + ": loaded the database " + db + " (--source db); " + text + " is also there");
    return true;
  }
  messages.push_back(src.label + ": loaded " + text + (preference == LoadOptions::Source::Text ? " (--source text)" : " (the text export is the default)") +
                     "; the database " + db + " is also there (--source db reads it)");
  return false;
}

bool looksLikeRankFolder(const fs::path& p) {
  std::error_code ec;
  return isRankFolderName(p.filename().string()) || fs::is_directory(p / "ASCEND_PROFILER_OUTPUT", ec);
}

}  // namespace

ProfileLayout discoverProfile(const std::string& pathText) {
  ProfileLayout layout;
  std::error_code ec;
  fs::path path(pathText);
  if (!fs::exists(path, ec)) {
    layout.error = "no such file or folder: " + pathText;
    return layout;
  }
  path = fs::absolute(path, ec).lexically_normal();
  if (path.has_filename() == false) path = path.parent_path();
  if (fs::is_regular_file(path, ec)) {
    RankSource src;
    src.traceFile = path.string();
    src.root = path.parent_path().string();
    src.label = path.filename().string();
    // .../X_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json: describe the whole rank folder.
    if (path.parent_path().filename() == "ASCEND_PROFILER_OUTPUT") {
      RankSource full;
      describeRankFolder(path.parent_path().parent_path(), full, layout.messages);
      full.traceFile = path.string();
      src = full;
    }
    if (path.extension() == ".db") {
      // The SQLite export opened directly: read it (and analysis.db beside it), not a trace file.
      // analysis.db itself holds no timeline: the profiler database beside it is read instead.
      if (path.filename() != "analysis.db" || src.dbFile.empty()) src.dbFile = path.string();
      src.traceFile.clear();
      if (src.analysisDb.empty() && path.filename() != "analysis.db")
        src.analysisDb = firstExisting(path.parent_path(), {"analysis.db"});
    }
    if (src.device < 0) src.device = deviceFromTracePath(src.traceFile);
    if (src.kernelDetails.empty()) src.kernelDetails = firstExisting(path.parent_path(), {"kernel_details.csv"});
    if (src.stepTraceTime.empty()) src.stepTraceTime = firstExisting(path.parent_path(), {"step_trace_time.csv"});
    if (src.communicationJson.empty()) src.communicationJson = firstExisting(path.parent_path(), {"communication.json"});
    layout.ranks.push_back(src);
    return layout;
  }
  if (!fs::is_directory(path, ec)) {
    layout.error = pathText + " is neither a file nor a folder";
    return layout;
  }
  if (path.filename() == "ASCEND_PROFILER_OUTPUT") path = path.parent_path();
  // msprof's own layout (very old CANN / MindSpore): PROF_*/device_N/timeline/msprof_N_*.json,
  // one rank per device. Opened as the timeline folder, the device folder, a PROF_* folder or
  // a folder holding PROF_* folders.
  std::vector<fs::path> timelines;
  if (path.filename() == "timeline" && path.parent_path().filename().string().rfind("device_", 0) == 0) {
    timelines.push_back(path);
  } else if (path.filename().string().rfind("device_", 0) == 0 && fs::is_directory(path / "timeline", ec)) {
    timelines.push_back(path / "timeline");
  } else if (!looksLikeRankFolder(path)) {
    std::vector<fs::path> profs;
    if (path.filename().string().rfind("PROF_", 0) == 0) profs.push_back(path);
    else
      for (const auto& e : fs::directory_iterator(path, ec))
        if (e.is_directory() && e.path().filename().string().rfind("PROF_", 0) == 0) profs.push_back(e.path());
    std::sort(profs.begin(), profs.end());
    for (const auto& p : profs)
      for (const auto& t : msprofTimelines(p)) timelines.push_back(t);
  }
  for (const auto& t : timelines) {
    RankSource src;
    if (describeMsprofTimeline(t, src, layout.messages)) layout.ranks.push_back(src);
  }
  if (!layout.ranks.empty()) {
    std::stable_sort(layout.ranks.begin(), layout.ranks.end(),
                     [](const RankSource& a, const RankSource& b) { return std::tie(a.rank, a.device) < std::tie(b.rank, b.device); });
    return layout;
  }
  if (looksLikeRankFolder(path)) {
    RankSource src;
    if (describeRankFolder(path, src, layout.messages)) layout.ranks.push_back(src);
  } else {
    // A parent of rank folders (searched two levels deep), else trace files in the folder.
    std::vector<fs::path> candidates;
    for (const auto& e : fs::directory_iterator(path, ec)) {
      if (!e.is_directory()) continue;
      if (looksLikeRankFolder(e.path())) {
        candidates.push_back(e.path());
      } else {
        for (const auto& e2 : fs::directory_iterator(e.path(), ec))
          if (e2.is_directory() && looksLikeRankFolder(e2.path())) candidates.push_back(e2.path());
      }
    }
    std::sort(candidates.begin(), candidates.end());
    for (const auto& c : candidates) {
      RankSource src;
      if (describeRankFolder(c, src, layout.messages)) layout.ranks.push_back(src);
      else layout.messages.push_back(c.filename().string() + ": no profiler output found, skipped");
    }
    if (layout.ranks.empty()) {
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(path, ec))
        if (e.is_regular_file() && isTraceFileName(e.path().filename().string())) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        const std::string n = f.filename().string();
        if (n.rfind("profiler_info", 0) == 0 || n == "profiler_metadata.json" || n.rfind("communication", 0) == 0)
          continue;
        RankSource src;
        src.traceFile = f.string();
        src.root = path.string();
        src.label = n;
        layout.ranks.push_back(src);
      }
    }
  }
  if (layout.ranks.empty()) {
    layout.error = "no profiling data found in " + pathText +
                   " (expected a *_ascend_pt folder, ASCEND_PROFILER_OUTPUT, or a trace .json file)";
    return layout;
  }
  // Several rank folders without profiler_info_*.json: number them in folder order, and say so.
  if (layout.ranks.size() > 1 &&
      std::all_of(layout.ranks.begin(), layout.ranks.end(), [](const RankSource& r) { return r.rank < 0 && r.profilerInfo.empty() && r.traceFile.find(".pt.trace.json") == std::string::npos; })) {
    std::sort(layout.ranks.begin(), layout.ranks.end(),
              [](const RankSource& a, const RankSource& b) { return detail::naturalCompare(a.label, b.label) < 0; });
    for (std::size_t i = 0; i < layout.ranks.size(); ++i) layout.ranks[i].rank = static_cast<int>(i);
    layout.messages.push_back("no profiler_info_*.json: ranks numbered in folder order");
  }
  std::stable_sort(layout.ranks.begin(), layout.ranks.end(), [](const RankSource& a, const RankSource& b) {
    if ((a.rank < 0) != (b.rank < 0)) return a.rank >= 0;
    if (a.rank != b.rank) return a.rank < b.rank;
    return detail::naturalCompare(a.label, b.label) < 0;
  });
  return layout;
}

int RankProfile::rank() const {
  if (source.rank >= 0) return source.rank;
  if (trace && trace->rankFromFile) return *trace->rankFromFile;
  return -1;
}

int RankProfile::device() const {
  if (trace) {
    const int d = trace->deviceId();
    if (d >= 0) return d;
  }
  return source.device;
}

TimeRange Profile::range() const {
  TimeRange r{0, 0};
  bool any = false;
  for (const auto& rp : ranks) {
    if (!rp.trace || rp.trace->range.empty()) continue;
    if (!any) r = rp.trace->range;
    r.start = std::min(r.start, rp.trace->range.start);
    r.end = std::max(r.end, rp.trace->range.end);
    any = true;
  }
  return r;
}

ProfileLoadResult loadProfile(const std::string& path, const LoadOptions& options, const AnalysisOptions& analysis) {
  ProfileLoadResult result;
  ProfileLayout layout = discoverProfile(path);
  if (!layout.error.empty()) {
    result.error = layout.error;
    return result;
  }
  auto profile = std::make_shared<Profile>();
  profile->path = path;
  profile->messages = layout.messages;
  // Progress weighted by file size.
  std::vector<double> weight;
  double total = 0;
  for (const auto& r : layout.ranks) {
    std::error_code ec;
    const std::string& f = r.traceFile.empty() ? r.dbFile : r.traceFile;
    const double w = f.empty() ? 0.0 : static_cast<double>(fs::file_size(f, ec)) + 1.0;
    weight.push_back(w);
    total += w;
  }
  double done = 0;
  std::size_t loaded = 0;
  std::string firstError;
  for (std::size_t i = 0; i < layout.ranks.size(); ++i) {
    RankProfile rp;
    rp.source = layout.ranks[i];
    const bool useDb = chooseRankExport(rp.source, options.source, profile->messages);
    if (!useDb && rp.source.traceFile.empty()) {
      // Say what the folder does hold (only CSV tables / analysis.db).
      const RankSource& src = rp.source;
      if (!src.kernelDetails.empty() || !src.stepTraceTime.empty() || !src.analysisDb.empty())
        rp.error = src.label + ": no trace_view.json, only summary tables (kernel_details.csv, step_trace_time.csv or "
                               "analysis.db): there is no timeline to show or analyse";
      else
        rp.error = src.label + ": no trace_view.json";
      profile->messages.push_back(rp.error);
    } else {
      LoadOptions o = options;
      // The device of plain "NPU" processes (format notes §2.3): the file's own name or
      // device_N folder, else the PROF_*/device_N folder, else the rank.
      if (o.device < 0) {
        o.device = deviceFromTracePath(rp.source.traceFile);
        if (o.device < 0) o.device = rp.source.device >= 0 ? rp.source.device : rp.source.rank;
      }
      if (options.progress && total > 0) {
        const double base = done / total, share = weight[i] / total;
        o.progress = [&, base, share](double f) { options.progress(base + share * f); };
        o.progress(0.0);  // each rank's start, so a caller can tell whose preview comes next
      }
      DbImport db;
      if (useDb) db = readAscendDb(rp.source.dbFile, rp.source.analysisDb, o);
      LoadResult lr = useDb ? std::move(db.result) : loadTrace(rp.source.traceFile, o);
      if (options.stop.stop_requested()) {
        result.error = "cancelled";
        return result;
      }
      if (lr.ok()) {
        rp.trace = std::move(lr.trace);
        ++loaded;
        if (useDb) {
          // The database's own kernels and step figures, in the text export's table shapes.
          for (const auto& m : db.messages) rp.tableMessages.push_back(fs::path(rp.source.dbFile).filename().string() + ": " + m);
          if (db.kernelDetails) rp.kernels = std::make_shared<KernelDetails>(parseKernelDetails(*db.kernelDetails));
          std::string err;
          if (db.stepTraceTime) rp.stepTrace = parseStepTraceTime(*db.stepTraceTime, err);
          if (!err.empty()) rp.tableMessages.push_back("analysis.db StepTraceTime: " + err);
        }
        if (!useDb && !rp.source.kernelDetails.empty()) {
          auto k = std::make_shared<KernelDetails>(readKernelDetails(rp.source.kernelDetails));
          for (const auto& w : k->warnings) rp.tableMessages.push_back("kernel_details.csv: " + w);
          rp.kernels = std::move(k);
        }
        if (!useDb && !rp.source.stepTraceTime.empty()) {
          std::string err;
          rp.stepTrace = readStepTraceTime(rp.source.stepTraceTime, err);
          if (!err.empty()) rp.tableMessages.push_back("step_trace_time.csv: " + err);
        }
        AnalysisOptions ao = analysis;
        if (!ao.stop.stop_possible()) ao.stop = options.stop;
        CommunicationJson commJson;
        if (useDb && db.communication) {
          commJson = std::move(*db.communication);
          if (!commJson.error.empty()) rp.tableMessages.push_back(commJson.error);
          ao.communication = &commJson;
        }
        if (!useDb && !rp.source.communicationJson.empty()) {
          commJson = readCommunicationJson(rp.source.communicationJson);
          if (!commJson.error.empty()) rp.tableMessages.push_back(commJson.error);
          for (const auto& w : commJson.warnings) rp.tableMessages.push_back("communication.json: " + w);
          ao.communication = &commJson;
        }
        rp.analysis = std::make_shared<RankAnalysis>(
            analyzeRank(*rp.trace, rp.kernels.get(), rp.stepTrace.empty() ? nullptr : &rp.stepTrace, ao));
        if (rp.analysis->cancelled || options.stop.stop_requested()) {
          result.error = "cancelled";
          return result;
        }
      } else {
        rp.error = lr.error;
        if (firstError.empty()) firstError = lr.error;
        profile->messages.push_back(lr.error);
      }
    }
    done += weight[i];
    profile->ranks.push_back(std::move(rp));
  }
  if (loaded == 0) {
    result.error = firstError.empty() ? (profile->messages.empty() ? "nothing to load" : profile->messages.front())
                                      : firstError;
    // Every rank failed: say how many, so "rank 0: ..." is not read as the only rank.
    if (firstError.empty() && profile->messages.size() > 1)
      result.error += "; " + std::to_string(profile->messages.size() - 1) + " more rank" +
                      (profile->messages.size() > 2 ? "s" : "") + " without a trace either";
    return result;
  }
  // The profile-level stage, once every rank is analysed (cheap: a few figures per rank).
  profile->analysis = std::make_shared<const ProfileAnalysis>(analyzeProfile(*profile));
  if (options.progress) options.progress(1.0);
  result.profile = std::move(profile);
  return result;
}

}  // namespace npuscope::core
