// SPDX-License-Identifier: MIT
#include "core/profile/profile.h"

#include "core/cluster/summary.h"
#include "core/cluster/summary_trace.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <filesystem>
#include <limits>
#include <regex>

#include "core/base/file_access.h"
#include "core/base/guard.h"
#include "core/base/parse_number.h"
#include "core/import/db/db_reader.h"
#include "core/import/db/db_tables.h"
#include "core/import/memory_counters.h"
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

/// profiler_info_*.json and info.json.N are a few KB; a larger one is not read.
constexpr std::size_t kSmallJsonLimit = std::size_t(64) << 20;

/// A message for each of `names` in `dir` that exists but is not a readable regular file (a FIFO
/// or device named trace_view.json, a folder named kernel_details.csv, a dangling link, ...):
/// such a path is skipped, and the user is told what it is.
void noteIrregular(const fs::path& dir, std::initializer_list<const char*> names, std::vector<std::string>& messages) {
  for (const char* n : names) {
    const fs::path p = dir / n;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(p, ec)) || isRegularFile(p)) continue;
    messages.push_back((dir.filename() / n).string() + " " + describeNotRegularFile(p.string()) + ": skipped");
  }
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

/// The profiler settings that change what a capture's figures hold, from profiler_info's parsed
/// `doc` (torch_npu's config, format notes §3), as (name, value) in this order: profiler_level,
/// aic_metrics, activities (joined by ", "), record_shapes, with_stack, profile_memory,
/// export_type; a setting the file lacks is left out (RankSource::profilerSettings).
std::vector<std::pair<std::string, std::string>> profilerSettingsOf(simdjson::dom::element doc) {
  // simdjson_result all the way: a missing key is an error value, never an exception.
  using Result = simdjson::simdjson_result<simdjson::dom::element>;
  const auto value = [](Result e) -> std::string {
    if (std::string_view v; !e.get(v)) return std::string(v);
    if (bool b; !e.get(b)) return b ? "true" : "false";
    if (simdjson::dom::array a; !e.get(a)) {
      std::string j;
      for (simdjson::dom::element x : a)
        if (std::string_view v; !x.get(v)) j += (j.empty() ? "" : ", ") + std::string(v);
      return j;
    }
    return {};
  };
  const Result common = doc["config"]["common_config"], exp = doc["config"]["experimental_config"];
  const std::pair<const char*, Result> keys[] = {
      {"profiler_level", exp["_profiler_level"]}, {"aic_metrics", exp["_aic_metrics"]},
      {"activities", common["activities"]},      {"record_shapes", common["record_shapes"]},
      {"with_stack", common["with_stack"]},       {"profile_memory", common["profile_memory"]},
      {"export_type", exp["_export_type"]}};
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, e] : keys)
    if (std::string v = value(e); !v.empty()) out.emplace_back(name, std::move(v));
  return out;
}

/// Reads profiler_metadata.json's parallel_group_info in `root` into src.parallelGroups: every
/// {"group_name": ..., "global_ranks": [...]} entry with a name and ranks in [0, 2^31); others
/// are skipped. A file that cannot be read or parsed leaves the groups empty (the advisor reports
/// such a file; the groups only refine the slow-rank rule).
void readParallelGroups(const fs::path& root, RankSource& src) {
  const fs::path file = root / "profiler_metadata.json";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return;
  std::string text, error;
  if (!readRegularFile(file.string(), text, error, kSmallJsonLimit)) return;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  simdjson::dom::object groups;
  if (parser.parse(simdjson::padded_string(text)).get(doc) || doc["parallel_group_info"].get_object().get(groups)) return;
  for (auto [key, g] : groups) {
    std::string_view name;
    simdjson::dom::array ranks;
    if (g["group_name"].get_string().get(name) || g["global_ranks"].get_array().get(ranks)) continue;
    ParallelGroup pg{std::string(name), {}};
    for (simdjson::dom::element r : ranks)
      if (std::int64_t v; !r.get_int64().get(v) && v >= 0 && v <= std::numeric_limits<int>::max()) pg.ranks.push_back(static_cast<int>(v));
    std::sort(pg.ranks.begin(), pg.ranks.end());
    pg.ranks.erase(std::unique(pg.ranks.begin(), pg.ranks.end()), pg.ranks.end());
    if (!pg.ranks.empty()) src.parallelGroups.push_back(std::move(pg));
  }
  std::sort(src.parallelGroups.begin(), src.parallelGroups.end(),
            [](const ParallelGroup& a, const ParallelGroup& b) { return std::tie(a.name, a.ranks) < std::tie(b.name, b.ranks); });
  src.parallelGroups.erase(std::unique(src.parallelGroups.begin(), src.parallelGroups.end()), src.parallelGroups.end());
}

/// Reads rank, profiler level and settings from profiler_info*.json in `root`. A rank that does not fit
/// an int (profiler_info_99999999999.json) is taken as unknown, with a message.
void readProfilerInfo(const fs::path& root, RankSource& src, std::vector<std::string>& messages) {
  std::error_code ec;
  static const std::regex kInfo(R"(profiler_info(?:_(\d+))?\.json)");
  for (const auto& e : listDirectory(root)) {
    const std::string name = e.filename().string();
    std::smatch m;
    if (!std::regex_match(name, m, kInfo)) continue;
    src.profilerInfo = e.string();
    if (m[1].matched) src.rank = checkedRank(parseInteger<long long>(m[1].str()), name, messages);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    std::string text, error;
    if (!readRegularFile(src.profilerInfo, text, error, kSmallJsonLimit)) {
      messages.push_back(error);
      break;
    }
    if (parser.parse(simdjson::padded_string(text)).get(doc)) break;
    std::int64_t r;
    if (src.rank < 0 && !doc["rank_id"].get_int64().get(r) && r >= 0)
      src.rank = checkedRank(static_cast<long long>(r), name + " rank_id", messages);
    std::string_view level;
    if (!doc["config"]["experimental_config"]["_profiler_level"].get_string().get(level)) src.profilerLevel = level;
    src.profilerSettings = profilerSettingsOf(doc);
    // When the collection stopped (epoch ns; torch_npu _dump_profiler_info): tells captures apart.
    std::int64_t end;
    if (!doc["end_info"]["collectionTimeEnd"].get_int64().get(end) && end > 0) src.collectionEndNs = end;
    else if (std::uint64_t uend; !doc["end_info"]["collectionTimeEnd"].get_uint64().get(uend) &&
                                 uend <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      src.collectionEndNs = static_cast<std::int64_t>(uend);
    break;
  }
}

/// The msprof export files of a `mindstudio_profiler_output` folder (format notes §6): the
/// `msprof_{ts}.json` file or the `msprof_slice_{k}_{ts}.json` parts of the newest timestamp,
/// parts in k order (msprof-analyze `find_msprof_json` takes the newest). `older` receives how
/// many files of older timestamps were left out. Empty when there is none.
std::vector<std::string> msprofExportFiles(const fs::path& dir, std::size_t& older) {
  std::error_code ec;
  static const std::regex kName(R"(msprof_(?:slice_(\d+)_)?(\d+)\.json)");
  struct Part {
    long long ts, k;
    std::string path;
  };
  std::vector<Part> parts;
  for (const auto& e : listDirectory(dir)) {
    const std::string n = e.filename().string();
    std::smatch m;
    if (!isRegularFile(e) || !std::regex_match(n, m, kName)) continue;
    constexpr long long kTooLong = -1;  // a number that does not fit sorts first (oldest)
    parts.push_back({parseInteger<long long>(m[2].str()).value_or(kTooLong),
                     m[1].matched ? parseInteger<long long>(m[1].str()).value_or(kTooLong) : -1, e.string()});
  }
  older = 0;
  if (parts.empty()) return {};
  long long newest = parts.front().ts;
  for (const auto& p : parts) newest = std::max(newest, p.ts);
  std::sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return std::tie(a.k, a.path) < std::tie(b.k, b.path); });
  std::vector<std::string> out;
  for (const auto& p : parts) {
    if (p.ts == newest) out.push_back(p.path);
    else ++older;
  }
  return out;
}

/// msprof's SQLite export of a PROF_* folder (format notes §1.1, §5.3: `msprof --type=db`
/// writes `PROF_*/msprof_{ts}.db`; a copy may sit in `mindstudio_profiler_output/`): the newest
/// by timestamp, the PROF_ folder's own first. "" when there is none.
std::string msprofDbFile(const fs::path& prof) {
  static const std::regex kName(R"(msprof_(\d+)\.db)");
  for (const fs::path& dir : {prof, prof / "mindstudio_profiler_output"}) {
    std::string best;
    long long bestTs = -2;
    for (const auto& e : listDirectory(dir)) {
      const std::string n = e.filename().string();
      std::smatch m;
      if (!isRegularFile(e) || !std::regex_match(n, m, kName)) continue;
      const long long ts = parseInteger<long long>(m[1].str()).value_or(-1);
      if (ts > bestTs || (ts == bestTs && e.string() > best)) {
        bestTs = ts;
        best = e.string();
      }
    }
    if (!best.empty()) return best;
  }
  return {};
}

/// Sets src.traceFile / src.traceFiles from `files` (reading order).
void setTraceFiles(RankSource& src, std::vector<std::string> files) {
  src.traceFile = files.empty() ? std::string{} : files.front();
  src.traceFiles = files.size() > 1 ? std::move(files) : std::vector<std::string>{};
}

/// Fills a RankSource for a *_ascend_pt-like folder (one that holds ASCEND_PROFILER_OUTPUT or PROF_*).
bool describeRankFolder(const fs::path& root, RankSource& src, std::vector<std::string>& messages) {
  std::error_code ec;
  src.root = root.string();
  src.label = root.filename().string();
  const fs::path out = root / "ASCEND_PROFILER_OUTPUT";
  if (fs::is_directory(out, ec)) {
    std::string listError;
    (void)listDirectory(out, &listError);
    if (!listError.empty()) messages.push_back(listError);
    noteIrregular(out, {"trace_view.json", "trace_view.json.gz", "kernel_details.csv", "step_trace_time.csv",
                        "communication.json", "memory_record.csv"},
                  messages);
    src.traceFile = firstExisting(out, {"trace_view.json", "trace_view.json.gz"});
    src.kernelDetails = firstExisting(out, {"kernel_details.csv"});
    src.stepTraceTime = firstExisting(out, {"step_trace_time.csv"});
    src.communicationJson = firstExisting(out, {"communication.json"});
    src.memoryRecord = firstExisting(out, {"memory_record.csv"});
    src.analysisDb = firstExisting(out, {"analysis.db"});
    for (const auto& e : listDirectory(out)) {
      const std::string n = e.filename().string();
      if ((n.rfind("ascend_pytorch_profiler", 0) == 0 || n.rfind("ascend_mindspore_profiler", 0) == 0) &&
          n.ends_with(".db"))
        src.dbFile = e.string();
    }
  }
  // Device id from PROF_*/device_N; the msprof export (all slices of the newest timestamp) as a
  // fallback timeline when there is no trace_view.json (format notes §8.1).
  std::vector<std::string> msprofFiles;
  std::string msprofDb;
  for (const auto& e : listDirectory(root)) {
    const std::string n = e.filename().string();
    if (n.rfind("PROF_", 0) != 0 || !isDirectory(e)) continue;
    for (const auto& d : listDirectory(e)) {
      const std::string dn = d.filename().string();
      if (dn.rfind("device_", 0) != 0) continue;
      if (const auto id = parseInteger<int>(std::string_view(dn).substr(7)); id && *id >= 0) src.device = *id;
    }
    std::size_t older = 0;
    if (auto files = msprofExportFiles(e / "mindstudio_profiler_output", older); !files.empty())
      msprofFiles = std::move(files);
    if (msprofDb.empty()) msprofDb = msprofDbFile(e);
  }
  if (src.dbFile.empty() && !msprofDb.empty()) {
    // torch_npu moves this file into ASCEND_PROFILER_OUTPUT when its db export finishes (§1.1):
    // here it did not (an interrupted parse, or msprof run by hand), so it is the database.
    src.dbFile = msprofDb;
    messages.push_back(src.label + ": the msprof database " + fs::path(msprofDb).parent_path().filename().string() + "/" +
                       fs::path(msprofDb).filename().string() + " found (CANN layers only: no Python layer)");
  }
  if (src.traceFile.empty() && !msprofFiles.empty()) {
    messages.push_back(src.label + ": no trace_view.json; the msprof export " +
                       fs::path(msprofFiles.front()).filename().string() +
                       (msprofFiles.size() > 1 ? " (" + std::to_string(msprofFiles.size()) + " slices)" : std::string{}) +
                       " is read instead (CANN layers only: no Python layer, no async_npu flows)");
    setTraceFiles(src, std::move(msprofFiles));
  }
  readProfilerInfo(root, src, messages);
  readParallelGroups(root, src);
  if (src.rank >= 0) src.label = "rank " + std::to_string(src.rank);
  return !src.traceFile.empty() || !src.dbFile.empty() || !src.stepTraceTime.empty() || !src.kernelDetails.empty();
}

/// The device N and rank_id of an msprof `device_N` folder: N from the name, rank_id from its
/// `info.json.N` (-1 when unknown; format notes §1.2). Sets src.device, src.rank and the label; an unreadable info.json.N is a message.
void readMsprofDevice(const fs::path& deviceDir, RankSource& src, std::vector<std::string>& messages) {
  std::error_code ec;
  const std::string dn = deviceDir.filename().string();
  if (const auto id = parseInteger<int>(std::string_view(dn).substr(std::min<std::size_t>(7, dn.size())));
      dn.rfind("device_", 0) == 0 && id && *id >= 0)
    src.device = *id;
  src.label = src.device >= 0 ? "device " + std::to_string(src.device) : dn;
  for (const auto& e : listDirectory(deviceDir)) {
    const std::string n = e.filename().string();
    if (n.rfind("info.json.", 0) != 0 || n.ends_with(".done")) continue;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    std::int64_t r;
    std::string text, error;
    if (!readRegularFile(e.string(), text, error, kSmallJsonLimit)) messages.push_back(error);
    else if (!parser.parse(simdjson::padded_string(text)).get(doc) && !doc["rank_id"].get_int64().get(r) && r >= 0 &&
        r <= std::numeric_limits<int>::max()) {
      src.rank = static_cast<int>(r);
      src.label = "rank " + std::to_string(r);
    }
    break;
  }
}

/// The `device_*` folders of a PROF_* folder, sorted.
std::vector<fs::path> msprofDeviceDirs(const fs::path& prof) {
  std::error_code ec;
  std::vector<fs::path> out;
  for (const auto& d : listDirectory(prof))
    if (isDirectory(d) && d.filename().string().rfind("device_", 0) == 0) out.push_back(d);
  std::sort(out.begin(), out.end());
  return out;
}

/// An msprof `device_{N}/timeline` folder (very old CANN / MindSpore, format notes §6): one rank
/// for device N whose trace is every `msprof_{N}_{model}_{iter}.json`, by model then iteration,
/// read as one timeline. The corpus capture (mindspore-msprof-prof-2dev) shows why this is
/// safe: the iteration files share no event (only their metadata repeats), and the hccl_*,
/// task_time_* files hold a subset of msprof_*'s events (same name, ts, dur, args), so they
/// are not read; step_trace_* repeats the Step Trace thread for every iteration of the run,
/// including those whose files are absent. False when `timeline` holds no msprof file.
bool describeMsprofTimeline(const fs::path& timeline, RankSource& src, std::vector<std::string>& messages) {
  std::error_code ec;
  struct Candidate {
    int model, iter;
    fs::path path;
  };
  std::vector<Candidate> files;
  static const std::regex kName(R"(msprof_(\d+)_(\d+)_(\d+)\.json)");
  for (const auto& e : listDirectory(timeline)) {
    const std::string n = e.filename().string();
    std::smatch m;
    if (!isRegularFile(e) || !std::regex_match(n, m, kName)) continue;
    // Numbers too long for an int sort last (the regex holds digits only).
    constexpr int kTooLong = std::numeric_limits<int>::max();
    files.push_back({parseInteger<int>(m[2].str()).value_or(kTooLong), parseInteger<int>(m[3].str()).value_or(kTooLong),
                     e});
  }
  if (files.empty()) return false;
  std::sort(files.begin(), files.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.model, a.iter, a.path) < std::tie(b.model, b.iter, b.path);
  });
  src.root = timeline.string();
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.path.string());
  setTraceFiles(src, std::move(paths));
  readMsprofDevice(timeline.parent_path(), src, messages);
  if (src.device < 0) src.device = deviceFromTracePath(src.traceFile);
  const fs::path prof = timeline.parent_path().parent_path();
  std::string msg = prof.filename().string() + "/" + timeline.parent_path().filename().string() + "/timeline: " +
                    std::to_string(files.size()) + " msprof iteration file" + (files.size() > 1 ? "s" : "") +
                    " read as one timeline (" + files.front().path.filename().string() +
                    (files.size() > 1 ? " .. " + files.back().path.filename().string() : std::string{}) +
                    "); hccl_*, task_time_* and step_trace_* not read (msprof_* holds their events)";
  messages.push_back(msg);
  return true;
}

/// An msprof PROF_* folder with `mindstudio_profiler_output/msprof*.json` (format notes §6):
/// one rank, the newest export's parts as its trace; device and rank from its device_N folder
/// (the first, when there are several: msprof writes one export per PROF_ folder). False
/// without such files.
bool describeMsprofExport(const fs::path& prof, RankSource& src, std::vector<std::string>& messages) {
  std::size_t older = 0;
  std::vector<std::string> files = msprofExportFiles(prof / "mindstudio_profiler_output", older);
  std::string db = msprofDbFile(prof);
  if (files.empty() && db.empty()) return false;
  src.root = prof.string();
  setTraceFiles(src, std::move(files));
  src.dbFile = std::move(db);  // chooseRankExport: the text when both, unless --source db
  src.label = prof.filename().string();
  if (const auto devices = msprofDeviceDirs(prof); !devices.empty()) readMsprofDevice(devices.front(), src, messages);
  if (src.traceFile.empty()) return true;  // the database alone: loadProfile reads it
  std::string msg = prof.filename().string() + "/mindstudio_profiler_output: " +
                    fs::path(src.traceFile).filename().string();
  if (!src.traceFiles.empty()) msg += " and " + std::to_string(src.traceFiles.size() - 1) + " more slices read as one timeline";
  if (older) msg += "; " + std::to_string(older) + " file" + (older > 1 ? "s" : "") + " of older exports not read";
  messages.push_back(msg);
  return true;
}

/// msprof's own layouts (format notes §6) at `path`: a `device_N/timeline` folder, a `device_N`
/// folder, a PROF_* folder or a folder of PROF_* folders. Appends one rank per PROF_* export or
/// per legacy device timeline to `layout`; false when `path` is none of these.
bool discoverMsprof(const fs::path& path, ProfileLayout& layout) {
  std::error_code ec;
  const std::string name = path.filename().string();
  std::vector<fs::path> timelines, profs;
  if (name == "timeline" && path.parent_path().filename().string().rfind("device_", 0) == 0) {
    timelines.push_back(path);
  } else if (name.rfind("device_", 0) == 0 && fs::is_directory(path / "timeline", ec)) {
    timelines.push_back(path / "timeline");
  } else if (name.rfind("PROF_", 0) == 0) {
    profs.push_back(path);
  } else {
    for (const auto& e : listDirectory(path))
      if (isDirectory(e) && e.filename().string().rfind("PROF_", 0) == 0) profs.push_back(e);
    std::sort(profs.begin(), profs.end());
  }
  for (const auto& p : profs) {
    RankSource src;
    if (describeMsprofExport(p, src, layout.messages)) {
      layout.ranks.push_back(src);
      continue;
    }
    for (const auto& d : msprofDeviceDirs(p))
      if (fs::is_directory(d / "timeline", ec)) timelines.push_back(d / "timeline");
  }
  const std::size_t before = layout.ranks.size();
  for (const auto& t : timelines) {
    RankSource src;
    if (describeMsprofTimeline(t, src, layout.messages)) layout.ranks.push_back(src);
  }
  if (layout.ranks.size() == before && !profs.empty() && layout.ranks.empty())
    for (const auto& p : profs)
      layout.messages.push_back(p.filename().string() +
                                ": no msprof timeline (neither mindstudio_profiler_output/msprof*.json nor "
                                "device_N/timeline/msprof_*.json; the profiler deletes them when data_simplification is on)");
  return !layout.ranks.empty();
}

/// Where profiling data lies deeper than discovery looks (a repository checkout, a folder of
/// captures), or what the folder holds instead: up to three paths relative to `root` of trace
/// files, rank or PROF_ folders, CSV tables, .db files or msprof-analyze `cluster_*` outputs
/// (named as such), searched at most 8 levels and 20000 entries deep. "" when none.
std::string deeperDataHint(const fs::path& root) {
  std::error_code ec;
  std::vector<std::string> found;
  std::size_t seen = 0;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end && found.size() < 3 && ++seen < 20000; it.increment(ec)) {
    if (it.depth() >= 8) it.disable_recursion_pending();
    const std::string n = it->path().filename().string();
    std::error_code typeError;  // an entry that cannot be stat'ed is taken as a file
    const bool dir = it->is_directory(typeError);
    const bool hit = dir ? isRankFolderName(n) || n.rfind("PROF_", 0) == 0
                         : n == "trace_view.json" || n.ends_with(".pt.trace.json") || n.ends_with(".pt.trace.json.gz") ||
                               n == "kernel_details.csv" || n == "step_trace_time.csv" || n.ends_with(".db") ||
                               n.rfind("cluster_", 0) == 0;
    if (!hit) continue;
    found.push_back(it->path().lexically_relative(root).generic_string());
    // msprof-analyze's cluster outputs (cluster_step_trace_time.csv, cluster_analysis.db, ...)
    // summarise several ranks; npuscope does not read them.
    if (n.rfind("cluster_", 0) == 0) found.back() += " (an msprof-analyze cluster output, not read)";
    if (dir) it.disable_recursion_pending();
  }
  std::string out;
  for (const auto& f : found) out += (out.empty() ? "" : ", ") + f;
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

/// "2025-01-09 07:17:48 UTC" for an epoch ns time (civil calendar, no time zone lookup).
std::string utcText(std::int64_t ns) {
  using namespace std::chrono;
  const sys_time<nanoseconds> tp{nanoseconds(ns)};
  const auto day = floor<days>(tp);
  const year_month_day ymd(day);
  const hh_mm_ss hms(floor<seconds>(tp - day));
  char b[64];
  std::snprintf(b, sizeof b, "%04d-%02u-%02u %02d:%02d:%02d UTC", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
                static_cast<int>(hms.minutes().count()), static_cast<int>(hms.seconds().count()));
  return b;
}

/// Groups `ranks` (rank folders found under `base`) into captures, sets each one's
/// RankSource::capture and returns the captures oldest first (see discoverProfile). A capture:
/// the same parent folder and profiler level; split where a known rank number repeats or where
/// two collection end times in a row are more than kCaptureGapNs apart.
std::vector<CaptureInfo> groupCaptures(const fs::path& base, std::vector<RankSource>& ranks) {
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> byKey;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    byKey[{fs::path(ranks[i].root).parent_path().string(), ranks[i].profilerLevel}].push_back(i);
  struct Group {
    CaptureInfo info;
    std::string folder;
    std::vector<std::size_t> members;
  };
  std::vector<Group> groups;
  for (auto& [key, members] : byKey) {
    std::stable_sort(members.begin(), members.end(),
                     [&](std::size_t a, std::size_t b) { return ranks[a].collectionEndNs < ranks[b].collectionEndNs; });
    std::string rel = fs::path(key.first).lexically_relative(base).generic_string();
    if (rel.empty()) rel = ".";
    Group cur;
    std::set<int> seen;
    // `level` by init-capture: clang 14 (the fuzz build) cannot capture a structured binding.
    const auto close = [&, level = key.second] {
      cur.folder = rel;
      cur.info.profilerLevel = level;
      cur.info.ranks = cur.members.size();
      groups.push_back(std::move(cur));
      cur = {};
      seen.clear();
    };
    for (std::size_t i : members) {
      const RankSource& r = ranks[i];
      const bool repeat = r.rank >= 0 && seen.count(r.rank) > 0;
      const bool gap = cur.info.endNs >= 0 && r.collectionEndNs >= 0 && r.collectionEndNs - cur.info.endNs > kCaptureGapNs;
      if (!cur.members.empty() && (repeat || gap)) close();
      cur.members.push_back(i);
      if (r.rank >= 0) seen.insert(r.rank);
      cur.info.endNs = std::max(cur.info.endNs, r.collectionEndNs);
    }
    close();
  }
  // Oldest first: by end time (unknown first), then by folder.
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    return std::tie(a.info.endNs, a.folder) < std::tie(b.info.endNs, b.folder);
  });
  std::map<std::string, int> perFolder, seenFolder;
  for (const auto& g : groups) ++perFolder[g.folder];
  std::vector<CaptureInfo> out;
  for (auto& g : groups) {
    g.info.name = perFolder[g.folder] > 1 ? g.folder + "#" + std::to_string(++seenFolder[g.folder]) : g.folder;
    for (std::size_t i : g.members) ranks[i].capture = g.info.name;
    out.push_back(g.info);
  }
  return out;
}

/// With several captures in `layout.ranks`, keeps the ranks of one (`wanted`, else the newest)
/// and lists them all in `layout.captures` and a message; an unknown `wanted` is layout.error.
void selectCapture(const fs::path& base, const std::string& wanted, ProfileLayout& layout) {
  std::vector<CaptureInfo> caps = groupCaptures(base, layout.ranks);
  if (caps.size() < 2) {
    for (auto& r : layout.ranks) r.capture.clear();
    if (!wanted.empty() && wanted != "1" && (caps.empty() || wanted != caps.front().name))
      layout.error = "no capture named " + wanted + " in " + base.string() + " (it holds one capture)";
    return;
  }
  std::size_t chosen = caps.size();
  std::string why;
  if (!wanted.empty()) {
    for (std::size_t i = 0; i < caps.size(); ++i)
      if (caps[i].name == wanted || parseInteger<long long>(wanted) == static_cast<long long>(i + 1)) chosen = i;
    why = "as asked";
  } else {
    chosen = caps.size() - 1;  // oldest first: the last is the newest (or the last by folder name)
    why = caps.back().endNs >= 0 ? "the newest by profiler_info's collection end time"
                                 : "the last by folder name: no profiler_info end time recorded";
  }
  std::string list;
  for (std::size_t i = 0; i < caps.size(); ++i) {
    const CaptureInfo& c = caps[i];
    list += (i ? "; " : "") + std::to_string(i + 1) + ". " + c.name + " (" + std::to_string(c.ranks) + " rank" +
            (c.ranks == 1 ? "" : "s") + (c.profilerLevel.empty() ? std::string{} : ", " + c.profilerLevel) +
            (c.endNs >= 0 ? ", ended " + utcText(c.endNs) : std::string{}) + ")";
  }
  if (chosen >= caps.size()) {
    layout.error = "no capture named " + wanted + " in " + base.string() + "; it holds " + std::to_string(caps.size()) +
                   " captures: " + list;
    layout.ranks.clear();
    return;
  }
  caps[chosen].loaded = true;
  const std::string name = caps[chosen].name;
  std::erase_if(layout.ranks, [&](const RankSource& r) { return r.capture != name; });
  layout.messages.insert(layout.messages.begin(),
                         std::to_string(caps.size()) + " captures (separate profiling runs) found: " + list + ". Loaded " +
                             name + " only (" + why + "); the ranks of different captures are never compared. " +
                             "To see another, open its folder (or use --capture NAME|NUMBER on the command line)");
  layout.captures = std::move(caps);
}

}  // namespace

namespace {

/// A summary file, or a folder holding summary files (`npuscope summarize`'s output, names
/// isSummaryFileName): one rank per file, by name order. False when `path` is neither.
bool discoverSummaries(const fs::path& path, ProfileLayout& layout) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    if (isSummaryFileName(path.filename().string())) files.push_back(path);
  } else if (fs::is_directory(path, ec)) {
    for (const auto& e : listDirectory(path))
      if (isRegularFile(e) && isSummaryFileName(e.filename().string())) files.push_back(e);
  }
  if (files.empty()) return false;
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    RankSource src;
    src.summaryFile = f.string();
    src.root = f.parent_path().string();
    src.label = f.filename().string();
    layout.ranks.push_back(src);
  }
  return true;
}

ProfileLayout discoverUnguarded(const std::string& pathText, const std::string& capture) {
  ProfileLayout layout;
  std::error_code ec;
  fs::path path(pathText);
  if (!fs::exists(path, ec)) {
    const std::string why = describeNotRegularFile(pathText);
    layout.error = why.empty() || why == "does not exist" ? "no such file or folder: " + pathText : pathText + " " + why;
    return layout;
  }
  path = fs::absolute(path, ec).lexically_normal();
  if (path.has_filename() == false) path = path.parent_path();
  if (discoverSummaries(path, layout)) return layout;
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
    if (const std::string n = path.filename().string(); n == "step_trace_time.csv" || n == "kernel_details.csv") {
      // A profiler table given alone (issue 41 item 9): a rank of tables only, its own figures
      // (describeTracelessRank), with the other table beside it when there is one.
      src.traceFile.clear();
      (n == "step_trace_time.csv" ? src.stepTraceTime : src.kernelDetails) = path.string();
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
    layout.error = pathText + " " + describeNotRegularFile(path.string());
    return layout;
  }
  if (path.filename() == "ASCEND_PROFILER_OUTPUT") path = path.parent_path();
  // msprof's own layouts (format notes §6): PROF_* folders, device_N, device_N/timeline.
  if (!looksLikeRankFolder(path) && discoverMsprof(path, layout)) {
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
    for (const auto& e : listDirectory(path)) {
      if (!isDirectory(e)) continue;
      if (looksLikeRankFolder(e)) {
        candidates.push_back(e);
      } else {
        for (const auto& e2 : listDirectory(e))
          if (isDirectory(e2) && looksLikeRankFolder(e2)) candidates.push_back(e2);
      }
    }
    std::sort(candidates.begin(), candidates.end());
    for (const auto& c : candidates) {
      RankSource src;
      if (describeRankFolder(c, src, layout.messages)) layout.ranks.push_back(src);
      else layout.messages.push_back(c.filename().string() + ": no profiler output found, skipped");
    }
    if (!layout.ranks.empty()) {
      selectCapture(path, capture, layout);
      if (!layout.error.empty()) return layout;
    }
    if (layout.ranks.empty()) {
      std::vector<fs::path> files;
      for (const auto& e : listDirectory(path))
        if (isRegularFile(e) && isTraceFileName(e.filename().string())) files.push_back(e);
      std::sort(files.begin(), files.end());
      // msprof's SQLite export lying loose (a copied PROF_ folder's msprof_{ts}.db, §5.3): one
      // rank each. Other .db files (cluster_analysis.db, analysis.db) hold no timeline.
      static const std::regex kMsprofDb(R"(msprof_\d+\.db)");
      for (const auto& e : listDirectory(path)) {
        if (!isRegularFile(e) || !std::regex_match(e.filename().string(), kMsprofDb)) continue;
        RankSource src;
        src.dbFile = e.string();
        src.root = path.string();
        src.label = e.filename().string();
        layout.ranks.push_back(src);
      }
      if (!layout.ranks.empty()) files.clear();
      for (const auto& f : files) {
        const std::string n = f.filename().string();
        // Not traces: the profiler's side files and msprof-analyze's cluster outputs
        // (cluster_communication.json, communication_group.json, ...).
        if (n.rfind("profiler_info", 0) == 0 || n == "profiler_metadata.json" ||
            n.find("communication") != std::string::npos)
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
    // A folder holding the profiler's tables alone (a pruned export, a copied step_trace_time.csv):
    // one rank of tables only (describeTracelessRank).
    RankSource src;
    src.stepTraceTime = firstExisting(path, {"step_trace_time.csv"});
    src.kernelDetails = firstExisting(path, {"kernel_details.csv"});
    if (!src.stepTraceTime.empty() || !src.kernelDetails.empty()) {
      src.root = path.string();
      src.label = path.filename().string();
      src.communicationJson = firstExisting(path, {"communication.json"});
      layout.ranks.push_back(src);
    }
  }
  if (layout.ranks.empty()) {
    layout.error = "no profiling data found in " + pathText +
                   " (expected a *_ascend_pt / *_ascend_ms folder, ASCEND_PROFILER_OUTPUT, a PROF_* folder, or a trace "
                   ".json file)";
    for (const auto& m : layout.messages) layout.error += "; " + m;  // e.g. a symlink loop named like a trace
    if (const std::string deeper = deeperDataHint(path); !deeper.empty())
      layout.error += "; found inside: " + deeper;
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

}  // namespace

ProfileLayout discoverProfile(const std::string& pathText, const std::string& capture) {
  try {
    return discoverUnguarded(pathText, capture);
  } catch (...) {
    ProfileLayout layout;
    layout.error = describeException(std::current_exception(), "reading the folder " + pathText);
    return layout;
  }
}

int RankProfile::rank() const {
  if (source.rank >= 0) return source.rank;
  if (trace && trace->rankFromFile) return *trace->rankFromFile;
  return -1;
}

int RankProfile::device() const {
  // The device the rank's analysis is for (a Kineto trace labels every GPU of the node, GPU 0
  // included, while the work may be on GPU 2: corpus kineto-hta-mi250-rocm).
  if (analysis && !analysis->devices.empty() && analysis->devices.front().device >= 0)
    return analysis->devices.front().device;
  if (trace) {
    const int d = trace->deviceId();
    if (d >= 0) return d;
  }
  // A trace-less rank: the one Device_id of its step_trace_time.csv, when it has one.
  if (source.device < 0 && tablesOnly && tablesOnly->devices.size() == 1) return tablesOnly->devices.front().device;
  return source.device;
}

std::vector<std::pair<int, bool>> RankProfile::otherDevices() const {
  std::map<int, bool> devices;
  if (!trace) return {};
  const int mine = device();
  for (const auto& p : trace->processes)
    if (p.deviceId >= 0 && p.deviceId != mine) devices.emplace(p.deviceId, false);
  for (const auto& l : trace->lanes) {
    const int d = trace->processes[l.process].deviceId;
    if (d >= 0 && d != mine && l.sliceCount() > 0) devices[d] = true;
  }
  return {devices.begin(), devices.end()};
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

namespace {

/// Reads a rank's kernel_details.csv and step_trace_time.csv (when found) into rp; problems go
/// to rp.tableMessages.
void readRankTables(RankProfile& rp) {
  if (!rp.source.kernelDetails.empty()) {
    auto k = std::make_shared<KernelDetails>(readKernelDetails(rp.source.kernelDetails));
    for (const auto& w : k->warnings) rp.tableMessages.push_back("kernel_details.csv: " + w);
    rp.kernels = std::move(k);
  }
  if (!rp.source.stepTraceTime.empty()) {
    std::string err;
    rp.stepTrace = readStepTraceTime(rp.source.stepTraceTime, err);
    if (!err.empty()) rp.tableMessages.push_back("step_trace_time.csv: " + err);
  }
}

/// The allocator's memory curve as counter series of the rank's trace (addMemoryCounters): the
/// .db export's MEMORY_RECORD for a rank read from its database, else memory_record.csv when the
/// folder has one. What cannot be read goes to rp.tableMessages; the trace is left as it was.
void addRankMemoryCurve(RankProfile& rp, Trace& trace, bool useDb) {
  if (useDb) {
    const std::string dbName = fs::path(rp.source.dbFile).filename().string();
    std::string error;
    const std::optional<MemoryRecord> rec = readDbMemoryRecord(rp.source.dbFile, error);
    if (!error.empty()) rp.tableMessages.push_back(dbName + ": " + error);
    if (!rec) return;
    if (!rec->error.empty()) rp.tableMessages.push_back(dbName + ": " + rec->error);
    for (const auto& w : rec->warnings) rp.tableMessages.push_back(dbName + ": " + w);
    addMemoryCounters(trace, *rec, "MEMORY_RECORD of " + dbName);
    return;
  }
  if (rp.source.memoryRecord.empty()) return;
  const MemoryRecord rec = readMemoryRecord(rp.source.memoryRecord);
  if (!rec.error.empty()) rp.tableMessages.push_back(rec.error);  // it names the file already
  for (const auto& w : rec.warnings) rp.tableMessages.push_back("memory_record.csv: " + w);
  addMemoryCounters(trace, rec, "memory_record.csv");
}

/// A rank without a trace or database (chooseRankExport reads a .db when there is no trace):
/// says what its folder holds in rp.error (only tables) and, when it has tables, reads them and fills rp.tablesOnly (a pruned text export:
/// CSV-only or analysis.db-only ranks, as in the CANN 8.3 corpus capture).
void describeTracelessRank(RankProfile& rp) {
  const RankSource& src = rp.source;
  if (src.kernelDetails.empty() && src.stepTraceTime.empty() && src.analysisDb.empty()) {
    rp.error = src.label + ": no trace_view.json";
    return;
  }
  readRankTables(rp);
  std::vector<std::string> others;
  if (!src.communicationJson.empty()) {
    others.emplace_back("communication.json");
    // The profiler's per-op records: the cross-rank stage matches them (issue 41 item 9).
    const CommunicationJson json = readCommunicationJson(src.communicationJson);
    if (!json.error.empty()) rp.tableMessages.push_back(json.error);
    rp.recordedOps = commOpsFromRecords(json);
  }
  if (!src.analysisDb.empty()) others.emplace_back("analysis.db (not read)");
  rp.tablesOnly = std::make_shared<const TablesOnlySummary>(
      summarizeTables(rp.kernels.get(), rp.stepTrace.empty() ? nullptr : &rp.stepTrace, others));
  std::string held;
  for (const auto& p : rp.tablesOnly->present) held += (held.empty() ? "" : ", ") + p;
  rp.error = src.label + ": no trace_view.json, only tables (" + held +
             "): the figures shown are the profiler's own; the timeline, bubbles and dispatch chains need the trace";
}

/// The ranks read from summaries must be of one capture: a rank number read twice keeps its first
/// file (by name) and drops the others, with a message; ranks of other profiler levels, or whose
/// trace ends more than kCaptureGapNs from the first summary rank's, are kept with a message (the
/// files of two runs mixed in one folder: their collectives would match by order, wrongly).
void checkSummaryRanks(Profile& profile) {
  const RankSummary* first = nullptr;
  std::set<int> seen;
  std::vector<std::string> level, far;
  for (auto it = profile.ranks.begin(); it != profile.ranks.end();) {
    const RankSummary* s = it->summary.get();
    if (!s) {
      ++it;
      continue;
    }
    if (s->rank >= 0 && !seen.insert(s->rank).second) {
      profile.messages.push_back(fs::path(it->source.summaryFile).filename().string() + ": rank " + std::to_string(s->rank) +
                                 " was read already from another summary: skipped (summaries of two runs in one folder?)");
      it = profile.ranks.erase(it);
      continue;
    }
    if (!first) {
      first = s;
    } else {
      if (s->profilerLevel != first->profilerLevel) level.push_back(it->source.label);
      const std::int64_t gap = s->span.end > first->span.end ? s->span.end - first->span.end : first->span.end - s->span.end;
      if (s->span.end > 0 && first->span.end > 0 && gap > kCaptureGapNs) far.push_back(it->source.label);
    }
    ++it;
  }
  const auto list = [](const std::vector<std::string>& v) {
    std::string o;
    for (std::size_t i = 0; i < v.size() && i < 5; ++i) o += (i ? ", " : "") + v[i];
    return v.size() > 5 ? o + ", and " + std::to_string(v.size() - 5) + " more" : o;
  };
  if (!level.empty())
    profile.messages.push_back(list(level) + ": another profiler level than " + first->label + "'s (" +
                               (first->profilerLevel.empty() ? std::string("unknown") : first->profilerLevel) +
                               "): summaries of two captures in one folder? Their collectives are matched by order");
  if (!far.empty())
    profile.messages.push_back(list(far) + ": the trace ends more than 5 minutes from " + first->label +
                               "'s: summaries of two captures in one folder? Their collectives are matched by order");
}

/// loadRank without the exception guard.
RankProfile loadRankUnguarded(const RankSource& source, const LoadOptions& options, const AnalysisOptions& analysis,
                              std::vector<std::string>& messages, bool& cancelled) {
  RankProfile rp;
  rp.source = source;
  if (!source.summaryFile.empty()) {
    auto summary = std::make_shared<RankSummary>();
    std::string error;
    if (readSummaryFile(source.summaryFile, *summary, error)) {
      rp.source.rank = summary->rank;
      rp.source.device = summary->device;
      if (!summary->label.empty()) rp.source.label = summary->label;
      rp.source.root = summary->path;
      rp.source.profilerLevel = summary->profilerLevel;
      rp.source.profilerSettings = summary->profilerSettings;
      rp.source.parallelGroups = summary->parallelGroups;
      rp.chip = summary->chip;
      // Its lanes on the timeline (steps, HCCL ops, longest bubbles); the ops learn their slices.
      rp.trace = traceOfSummary(*summary, source.summaryFile);
      rp.summary = std::move(summary);
    } else {
      rp.error = error;
      messages.push_back(error);
    }
    return rp;
  }
  const bool useDb = chooseRankExport(rp.source, options.source, messages);
  if (!useDb && rp.source.traceFile.empty()) {
    describeTracelessRank(rp);
    messages.push_back(rp.error);
    return rp;
  }
  LoadOptions o = options;
  // The device of plain "NPU" processes (format notes §2.3): the file's own name or
  // device_N folder, else the PROF_*/device_N folder, else the rank.
  if (o.device < 0) {
    o.device = deviceFromTracePath(rp.source.traceFile);
    if (o.device < 0) o.device = rp.source.device >= 0 ? rp.source.device : rp.source.rank;
  }
  if (o.progress) o.progress(0.0);  // each rank's start, so a caller can tell whose preview comes next
  DbImport db;
  if (useDb) db = readAscendDb(rp.source.dbFile, rp.source.analysisDb, o);
  LoadResult lr = useDb                               ? std::move(db.result)
                  : rp.source.traceFiles.size() > 1 ? loadTraceFiles(rp.source.traceFiles, o)
                                                    : loadTrace(rp.source.traceFile, o);
  if (options.stop.stop_requested()) {
    cancelled = true;
    return rp;
  }
  if (!lr.ok()) {
    rp.error = lr.error;
    messages.push_back(lr.error);
    return rp;
  }
  addRankMemoryCurve(rp, *lr.trace, useDb);
  rp.trace = std::move(lr.trace);
  if (useDb) {
    // The database's own kernels and step figures, in the text export's table shapes.
    rp.chip = db.chip;
    for (const auto& m : db.messages) rp.tableMessages.push_back(fs::path(rp.source.dbFile).filename().string() + ": " + m);
    if (db.kernelDetails) rp.kernels = std::make_shared<KernelDetails>(parseKernelDetails(*db.kernelDetails));
    std::string err;
    if (db.stepTraceTime) {
      rp.stepTrace = parseStepTraceTime(*db.stepTraceTime, err);
      for (StepTraceRow& row : rp.stepTrace) row.source = StepTraceRow::kStepTraceDb;
    }
    if (!err.empty()) rp.tableMessages.push_back("analysis.db StepTraceTime: " + err);
  }
  if (!useDb) readRankTables(rp);
  AnalysisOptions ao = analysis;
  if (!ao.stop.stop_possible()) ao.stop = options.stop;
  if (ao.chip.empty()) ao.chip = !rp.chip.empty() ? rp.chip : msprofDeviceInfo(rp.source.root).chip;
  if (ao.threads == 0) ao.threads = options.threads;  // threads = 1: no side thread either
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
  if (rp.analysis->cancelled || options.stop.stop_requested()) cancelled = true;
  return rp;
}

ProfileLoadResult loadUnguarded(const std::string& path, const LoadOptions& options, const AnalysisOptions& analysis) {
  ProfileLoadResult result;
  ProfileLayout layout = discoverProfile(path, options.capture);
  if (!layout.error.empty()) {
    result.error = layout.error;
    return result;
  }
  auto profile = std::make_shared<Profile>();
  profile->path = path;
  profile->messages = layout.messages;
  profile->captures = layout.captures;
  // Progress weighted by file size.
  std::vector<double> weight;
  double total = 0;
  for (const auto& r : layout.ranks) {
    std::error_code ec;
    double w = 0;
    const std::vector<std::string> files = !r.traceFiles.empty() ? r.traceFiles
                                           : std::vector<std::string>{r.traceFile.empty() ? r.dbFile : r.traceFile};
    for (const auto& f : files)
      if (!f.empty()) w += static_cast<double>(fs::file_size(f, ec)) + 1.0;
    weight.push_back(w);
    total += w;
  }
  double done = 0;
  std::size_t loaded = 0, tablesOnly = 0;
  std::string firstError;
  for (std::size_t i = 0; i < layout.ranks.size(); ++i) {
    LoadOptions o = options;
    if (options.progress && total > 0) {
      const double base = done / total, share = weight[i] / total;
      o.progress = [&, base, share](double f) { options.progress(base + share * f); };
    }
    bool cancelled = false;
    RankProfile rp = loadRank(layout.ranks[i], o, analysis, profile->messages, cancelled);
    if (cancelled) {
      result.error = "cancelled";
      return result;
    }
    if (rp.trace || rp.summary) ++loaded;
    else if (rp.tablesOnly) ++tablesOnly;
    const bool attempted = !rp.source.traceFile.empty() || !rp.source.dbFile.empty() || !rp.source.summaryFile.empty();
    if (!rp.trace && !rp.summary && !rp.tablesOnly && !rp.error.empty() && firstError.empty() && attempted)
      firstError = rp.error;
    done += weight[i];
    profile->ranks.push_back(std::move(rp));
  }
  checkSummaryRanks(*profile);
  if (loaded == 0 && tablesOnly == 0) {
    result.error = firstError.empty() ? (profile->messages.empty() ? "nothing to load" : profile->messages.front())
                                      : firstError;
    // Every rank failed: say how many, so "rank 0: ..." is not read as the only rank.
    if (firstError.empty() && profile->messages.size() > 1)
      result.error += "; " + std::to_string(profile->messages.size() - 1) + " more rank" +
                      (profile->messages.size() > 2 ? "s" : "") + " without a trace either";
    return result;
  }
  if (loaded == 0)
    profile->messages.push_back("no rank has a trace: the figures shown are the profiler's own tables (step_trace_time.csv, "
                                "kernel_details.csv); the timeline, bubbles and dispatch chains need trace_view.json");
  // The profile-level stage, once every rank is analysed (cheap: a few figures per rank).
  {
    ProfileAnalysis pa = analyzeProfile(*profile);
    applyCollectiveVerdicts(*profile, pa);
    profile->analysis = std::make_shared<const ProfileAnalysis>(std::move(pa));
  }
  if (options.progress) options.progress(1.0);
  result.profile = std::move(profile);
  return result;
}

}  // namespace

RankProfile loadRank(const RankSource& source, const LoadOptions& options, const AnalysisOptions& analysis,
                     std::vector<std::string>& messages, bool& cancelled) {
  cancelled = false;
  try {
    return loadRankUnguarded(source, options, analysis, messages, cancelled);
  } catch (...) {
    RankProfile rp;
    rp.source = source;
    rp.error = describeException(std::current_exception(), "loading " + source.label);
    messages.push_back(rp.error);
    return rp;
  }
}

ProfileLoadResult loadProfile(const std::string& path, const LoadOptions& options, const AnalysisOptions& analysis) {
  try {
    return loadUnguarded(path, options, analysis);
  } catch (...) {
    return {nullptr, describeException(std::current_exception(), "loading " + path)};
  }
}

}  // namespace npuscope::core
