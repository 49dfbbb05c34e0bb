// SPDX-License-Identifier: MIT
// npuscope_bench_load: loads one trace file with core::loadTrace and prints load throughput and
// memory figures as a table.
//
// Usage: npuscope_bench_load FILE [--threads N] [--simdjson-only] [--trim] [--phases [--cancel-build MS]]
//        npuscope_bench_load FILE --walk
// (--walk: the reference for the load rate: simdjson's On-Demand API alone walks every event of
//  the file (already read into memory) on one thread, reading each field's key and its number or
//  string (objects such as args skipped), and prints its MB/s; the load's MB/s over
//  this is the ratio docs/benchmarks.md states.)
// (--phases: per-phase wall/CPU time of the reader (for a gzip file: parsing while inflating; MB/s
//  of the inflated text), the builder (buildTrace) and the flow index
//  (Trace::indexFlows, the rest of loadTrace), and the peak RSS of each phase: VmHWM is reset
//  between them through /proc/self/clear_refs.
//  --cancel-build MS: requests a stop MS ms into buildTrace and prints how long it took to
//  return, and the RSS once it has returned.)
//
// Figures:
//   file MB, load s, MB/s, events (JSON events read), events/s
//   peak RSS   = VmHWM of /proc/self/status (includes the touched pages of the mapped file)
//   resident   = VmRSS after the load minus the Rss of the mapping(s) of FILE (/proc/self/smaps),
//                i.e. what the loaded model costs on top of the page-cache-backed file
//   model      = Trace::memoryBytes() (the trace's own estimate)
//   B/event    = resident / events and model / events
//   --trim     calls malloc_trim(0) after the load (and after timing) so that heap memory freed
//              during the load but kept by glibc is not counted as resident
// Run it once per process (peak RSS is per process); repeat from the shell and take the median.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <malloc.h>
#include <stop_token>
#include <string>
#include <thread>

#include <ctime>

#include <simdjson.h>

#include "core/import/json/json_trace_reader.h"
#include "core/base/gzip_stream.h"
#include "core/base/mapped_file.h"
#include "core/import/slice_builder.h"
#include "core/model/trace.h"

namespace {

std::int64_t statusKb(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::size_t n = std::strlen(key);
  while (std::getline(in, line))
    if (line.compare(0, n, key) == 0 && line.size() > n && line[n] == ':')
      return std::atoll(line.c_str() + n + 1);
  return -1;
}

/// Sum of "Rss:" (kB) over the mappings whose path is `path`.
std::int64_t mappedRssKb(const std::string& path) {
  std::ifstream in("/proc/self/smaps");
  std::string line;
  bool inFile = false;
  std::int64_t kb = 0;
  while (std::getline(in, line)) {
    // Mapping header: "7f..-7f.. r--s 00000000 fd:01 123   /path"; fields: "Rss:   12 kB".
    const auto sp = line.find(' ');
    const std::string first = line.substr(0, sp);
    const bool header = first.find('-') != std::string::npos &&
                        first.find_first_not_of("0123456789abcdef-") == std::string::npos;
    if (header) {
      const auto slash = line.find('/');
      inFile = slash != std::string::npos && line.compare(slash, std::string::npos, path) == 0;
    } else if (inFile && line.compare(0, 4, "Rss:") == 0) {
      kb += std::atoll(line.c_str() + 4);
    }
  }
  return kb;
}

/// Resets VmHWM to the current RSS (Linux >= 4.0: "5" to /proc/self/clear_refs), so that the
/// next statusKb("VmHWM") is the peak of what ran in between. Returns false when unsupported.
bool resetPeak() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

double cpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

int runPhases(const std::string& path, const npuscope::core::LoadOptions& opt, double cancelBuildMs) {
  using Clock = std::chrono::steady_clock;
  namespace core = npuscope::core;
  auto wall = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  const auto t0 = Clock::now();
  const double c0 = cpuSeconds();
  std::string error;
  // A gzip file is read as loadTrace reads it: parsed while it is inflated (the "map" phase is
  // then only the open, and "read" includes the inflating).
  std::shared_ptr<const core::MappedFile> file;
  std::unique_ptr<core::GzipStream> gzip;
  if (core::isGzipFile(path)) gzip = core::GzipStream::open(path, error);
  else file = core::MappedFile::open(path, error);
  if (!file && !gzip) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  const auto t1 = Clock::now();
  const double c1 = cpuSeconds();
  unsigned threads = opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
  core::detail::ReadResult read = gzip ? core::detail::readTraceEventsStreamed(*gzip, opt)
                                       : core::detail::readTraceEvents(file->bytes(), threads, opt, core::detail::readSourceFor(*file));
  const double textBytes = gzip ? static_cast<double>(gzip->inflatedBytes()) : static_cast<double>(file->bytes().size());
  if (gzip) file = core::MappedFile::fromCopiedArgs(std::move(read.copiedArgs), gzip->diskSize(), path);
  const auto t2 = Clock::now();
  const double c2 = cpuSeconds();
  const std::int64_t readPeakKb = statusKb("VmHWM");
  const std::int64_t readEndKb = statusKb("VmRSS");
  const bool peakReset = resetPeak();
  unsigned long long fastEvents = 0, declined = 0;
  const std::size_t partCount = read.parts.size();
  for (const auto& p : read.parts) {
    fastEvents += p.fastEvents;
    declined += p.declinedEvents;
  }
  core::Trace trace;
  trace.file = file;
  std::stop_source stop;
  std::atomic<bool> built{false};
  Clock::time_point stopAt{};
  std::jthread canceller;
  if (cancelBuildMs >= 0)
    canceller = std::jthread([&] {
      const auto until = Clock::now() + std::chrono::microseconds(static_cast<long long>(cancelBuildMs * 1000));
      while (!built.load() && Clock::now() < until) std::this_thread::sleep_for(std::chrono::microseconds(200));
      stopAt = Clock::now();
      stop.request_stop();
    });
  const bool ok = core::detail::buildTrace(std::move(read), trace, stop.get_token());
  const auto t3 = Clock::now();
  const double c3 = cpuSeconds();
  const std::int64_t buildPeakKb = statusKb("VmHWM");
  const std::int64_t buildEndKb = statusKb("VmRSS");
  built = true;
  if (canceller.joinable()) canceller.join();
  if (cancelBuildMs >= 0) {
    std::printf("| metric | value |\n|---|---|\n");
    std::printf("| buildTrace result | %s |\n", ok ? "finished before the stop" : "cancelled");
    if (!ok) {
      std::printf("| stop requested at (into build) ms | %.1f |\n", wall(t2, stopAt) * 1e3);
      std::printf("| returned after the stop ms | %.1f |\n", wall(stopAt, t3) * 1e3);
    }
    std::printf("| RSS after return MiB | %.1f (mapped file %.1f) |\n", statusKb("VmRSS") / 1024.0,
                mappedRssKb(path) / 1024.0);
    return 0;
  }
  trace.indexFlows();
  const auto t4 = Clock::now();
  const double c4 = cpuSeconds();
  const std::int64_t fileKb = mappedRssKb(path);
  const double mb = textBytes / 1e6;
  std::printf("| phase | wall s | cpu s | MB/s (wall) | MB/s (cpu) |\n|---|---|---|---|---|\n");
  std::printf("| map | %.3f | %.3f | | |\n", wall(t0, t1), c1 - c0);
  std::printf("| read | %.3f | %.3f | %.0f | %.0f |\n", wall(t1, t2), c2 - c1, mb / wall(t1, t2), mb / (c2 - c1));
  std::printf("| build | %.3f | %.3f | %.0f | %.0f |\n", wall(t2, t3), c3 - c2, mb / wall(t2, t3), mb / (c3 - c2));
  std::printf("| index | %.3f | %.3f | | |\n", wall(t3, t4), c4 - c3);
  std::printf("| total | %.3f | %.3f | %.0f | %.0f |\n", wall(t0, t4), c4 - c0, mb / wall(t0, t4), mb / (c4 - c0));
  std::printf("| events / slices / flows | %llu / %zu / %zu | | | |\n",
              static_cast<unsigned long long>(trace.eventCount), trace.sliceCount(), trace.flows.size());
  std::printf("| parts / fast-scanned / declined events | %zu / %llu / %llu | | | |\n", partCount, fastEvents, declined);
  std::printf("| peak RSS (VmHWM) MiB | %.1f | | | |\n", std::max(readPeakKb, buildPeakKb) / 1024.0);
  std::printf("| read: peak / RSS at end MiB | %.1f / %.1f | | | |\n", readPeakKb / 1024.0, readEndKb / 1024.0);
  if (peakReset)
    std::printf("| build: peak / RSS at end MiB | %.1f / %.1f | | | |\n", buildPeakKb / 1024.0, buildEndKb / 1024.0);
  std::printf("| mapped file resident MiB | %.1f | | | |\n", fileKb / 1024.0);
  return 0;
}

// --walk: see the header. Returns the process exit code.
int runWalk(const std::string& path) {
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text)) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return 1;
  }
  simdjson::ondemand::parser parser;
  std::uint64_t events = 0, fields = 0;
  double sum = 0;  // keeps the number reads
  std::size_t chars = 0;  // and the string reads
  const auto walkEvent = [&](simdjson::ondemand::object ev) {
    ++events;
    for (auto field : ev) {
      std::string_view key;
      if (field.unescaped_key().get(key)) continue;
      ++fields;
      auto v = field.value();
      simdjson::ondemand::json_type type;
      if (v.type().get(type)) continue;
      if (type == simdjson::ondemand::json_type::number) {
        double d = 0;
        if (!v.get_double().get(d)) sum += d;
      } else if (type == simdjson::ondemand::json_type::string) {
        std::string_view sv;
        if (!v.get_string().get(sv)) chars += sv.size();
      }  // else an object or array (args): skipped by the next field's read
    }
  };
  // Twice: the first pass also allocates the parser's index for the whole file (its page
  // faults); the second, timed, reuses it.
  const auto walk = [&]() -> bool {
    simdjson::ondemand::document doc;
    if (parser.iterate(text).get(doc)) return false;
    simdjson::ondemand::json_type top;
    if (doc.type().get(top)) return false;
    simdjson::ondemand::array list;
    if (top == simdjson::ondemand::json_type::array) {
      if (doc.get_array().get(list)) return false;
    } else if (doc["traceEvents"].get_array().get(list)) {
      return false;
    }
    for (auto item : list) {
      simdjson::ondemand::object ev;
      if (!item.get_object().get(ev)) walkEvent(ev);
    }
    return true;
  };
  if (!walk()) return 1;
  events = fields = 0;
  sum = 0;
  chars = 0;
  const auto t0 = std::chrono::steady_clock::now();
  if (!walk()) return 1;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double mb = static_cast<double>(text.size()) / 1e6;
  std::printf("| simdjson walk, one thread | %.3f s | %.0f MB/s | %llu events, %llu fields (%.3g, %zu) |\n", secs,
              mb / secs, static_cast<unsigned long long>(events), static_cast<unsigned long long>(fields), sum, chars);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [--threads N] [--simdjson-only] [--trim] [--phases [--cancel-build MS]] | --walk\n", argv[0]);
    return 2;
  }
  std::string path = argv[1];
  npuscope::core::LoadOptions opt;
  bool phases = false;
  bool trim = false;
  double cancelBuildMs = -1;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
      opt.threads = static_cast<unsigned>(std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--simdjson-only") == 0)
      opt.fastScanner = false;  // every event through simdjson (the reference path)
    else if (std::strcmp(argv[i], "--phases") == 0)
      phases = true;
    else if (std::strcmp(argv[i], "--walk") == 0)
      return runWalk(path);
    else if (std::strcmp(argv[i], "--trim") == 0)
      trim = true;
    else if (std::strcmp(argv[i], "--cancel-build") == 0 && i + 1 < argc)
      cancelBuildMs = std::atof(argv[++i]);
  }
  if (char* real = realpath(path.c_str(), nullptr)) {
    path = real;
    std::free(real);
  }
  if (phases) return runPhases(path, opt, cancelBuildMs);
  const std::int64_t rssBeforeKb = statusKb("VmRSS");
  const auto t0 = std::chrono::steady_clock::now();
  npuscope::core::LoadResult r = npuscope::core::loadTrace(path, opt);
  const auto t1 = std::chrono::steady_clock::now();
  if (!r.ok()) {
    std::fprintf(stderr, "load failed: %s\n", r.error.c_str());
    return 1;
  }
  const auto& t = *r.trace;
  const double secs = std::chrono::duration<double>(t1 - t0).count();
  const double mb = static_cast<double>(t.fileBytes) / 1e6;
  const double events = static_cast<double>(t.eventCount);
  const std::int64_t hwmKb = statusKb("VmHWM");
  if (trim) malloc_trim(0);
  const std::int64_t rssKb = statusKb("VmRSS");
  const std::int64_t fileKb = mappedRssKb(path);
  const double residentBytes = static_cast<double>(rssKb - fileKb - rssBeforeKb) * 1024.0;
  const double modelBytes = static_cast<double>(t.memoryBytes());

  std::printf("| metric | value |\n|---|---|\n");
  std::printf("| file | %s |\n", path.c_str());
  std::printf("| threads | %u%s |\n", opt.threads, trim ? " (malloc_trim after load)" : "");
  std::printf("| file MB (10^6 B) | %.1f |\n", mb);
  std::printf("| load s | %.3f |\n", secs);
  std::printf("| MB/s | %.0f |\n", mb / secs);
  std::printf("| events | %.0f |\n", events);
  std::printf("| events/s | %.2f M |\n", events / secs / 1e6);
  std::printf("| slices / flows / counter series | %zu / %zu / %zu |\n", t.sliceCount(),
              t.flows.size(), t.counters.size());
  std::printf("| peak RSS (VmHWM) MiB | %.1f |\n", hwmKb / 1024.0);
  std::printf("| RSS after load MiB | %.1f (of which mapped file %.1f, before load %.1f) |\n",
              rssKb / 1024.0, fileKb / 1024.0, rssBeforeKb / 1024.0);
  std::printf("| resident excl. file MiB | %.1f |\n", residentBytes / 1048576.0);
  std::printf("| Trace::memoryBytes() MiB | %.1f |\n", modelBytes / 1048576.0);
  std::printf("| resident B/event | %.1f |\n", residentBytes / events);
  std::printf("| memoryBytes B/event | %.1f |\n", modelBytes / events);
  std::size_t lodGroups = 0, lodBytes = 0;
  for (const auto& lane : t.lanes) {
    lodGroups += lane.lod.first.size();
    lodBytes += lane.lod.memoryBytes();
  }
  std::printf("| summary levels: groups / MiB | %zu / %.1f |\n", lodGroups, lodBytes / 1048576.0);
  std::printf("| import warnings | %llu |\n",
              static_cast<unsigned long long>(t.stats.total()));
  std::fflush(stdout);
  return 0;
}
