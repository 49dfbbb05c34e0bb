// SPDX-License-Identifier: MIT
// npuscope_bench_cancel: what a user sees while a big trace loads: the progress fractions over
// time, the time to the first preview (first pixels), and how fast core::loadProfile returns
// after a cancel (std::stop_source::request_stop) at several moments of the load, with the
// resident memory before, at the stop and after the result is destroyed.
//
// Usage: npuscope_bench_cancel FILE [--threads N] [--log-ms M] [--no-cancel] [--no-full]
//                              [--analyses-only]
//
// Output:
//   1. One full load (the GUI's call: core::loadProfile with progress and preview callbacks):
//      "t_s fraction" pairs of the reported progress every --log-ms (default 250), the phase
//      boundaries (first preview, first preview with lanes and a time range, end of the read
//      phase = the preview with fraction 1, loadTrace's final progress, loadProfile's return) and
//      the share of the wall time of each phase.
//   1b. core::analyzeRank alone on the loaded profile: its full time, and the latency from a stop
//      at +1 / +5 / +20 ms to its return (the analyses' own cancel latency, without the load's
//      teardown that the figures of 2. include).
//   2. One load per stop point (read 10% / 50% / 90%, build +50 ms / +400 ms, analyses +1 ms /
//      +5 ms / +20 ms; only the analyses points with --analyses-only):
//      the phase the stop landed in, the latency from request_stop() to loadProfile's return
//      and to the end of the result's destruction, and VmRSS before the load, at the stop and
//      after destruction (and after malloc_trim(0)).
// The stop is requested by the main thread, which polls the callbacks' state every 1 ms, as the
// GUI does with its timer. Wall times; expect noise on a shared machine.

#include <malloc.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/profile/profile.h"

namespace {

using Clock = std::chrono::steady_clock;
using npuscope::core::LoadOptions;
using npuscope::core::LoadPreview;
using npuscope::core::ProfileLoadResult;

std::int64_t rssKb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6);
  return -1;
}

double mb(std::int64_t kb) { return static_cast<double>(kb) / 1024.0; }

/// What the callbacks saw; written by the loading thread, read by the main thread.
struct Watch {
  Clock::time_point start = Clock::now();
  std::atomic<double> fraction{0.0};         // last progress value
  std::atomic<double> readFraction{0.0};     // LoadPreview::fraction of the last preview
  std::atomic<std::int64_t> readDoneNs{-1};    // the preview with fraction 1 (read phase ended)
  std::atomic<std::int64_t> traceDoneNs{-1};   // progress reached 1 (loadTrace ended)
  std::atomic<std::int64_t> firstPreviewNs{-1}, firstLanesNs{-1};
  std::atomic<int> previews{0};
  std::size_t firstLanesTracks = 0;
  std::mutex logMutex;
  std::vector<std::pair<double, double>> log;  // (t s, fraction), every progress call

  [[nodiscard]] std::int64_t nowNs() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  }
  LoadOptions options(unsigned threads, std::stop_token stop) {
    LoadOptions o;
    o.threads = threads;
    o.stop = std::move(stop);
    o.progress = [this](double f) {
      fraction.store(f);
      const std::int64_t t = nowNs();
      if (f >= 0.999999 && traceDoneNs.load() < 0) traceDoneNs.store(t);
      std::lock_guard lock(logMutex);
      log.emplace_back(static_cast<double>(t) * 1e-9, f);
    };
    o.preview = [this](const LoadPreview& p) {
      const std::int64_t t = nowNs();
      previews.fetch_add(1);
      readFraction.store(p.fraction);
      if (firstPreviewNs.load() < 0) firstPreviewNs.store(t);
      if (firstLanesNs.load() < 0 && p.hasRange && !p.tracks.empty()) {
        firstLanesTracks = p.tracks.size();
        firstLanesNs.store(t);
      }
      if (p.fraction >= 1.0 && readDoneNs.load() < 0) readDoneNs.store(t);
    };
    return o;
  }
};

const char* phaseAt(const Watch& w, std::int64_t t) {
  const std::int64_t read = w.readDoneNs.load(), trace = w.traceDoneNs.load();
  if (read < 0 || t < read) return "read";
  if (trace < 0 || t < trace) return "build";
  return "analyses";
}

npuscope::core::ProfileLoadResult fullLoad(const std::string& path, unsigned threads, int logMs) {
  Watch w;
  std::stop_source never;
  const std::int64_t rss0 = rssKb();
  ProfileLoadResult r = npuscope::core::loadProfile(path, w.options(threads, never.get_token()));
  const double total = static_cast<double>(w.nowNs()) * 1e-9;
  if (!r.ok()) {
    std::printf("load failed: %s\n", r.error.c_str());
    std::exit(1);
  }
  std::printf("== full load of %s (threads %u)\n", path.c_str(), threads);
  std::printf("   t_s   fraction   (every %d ms)\n", logMs);
  double nextT = 0;
  for (const auto& [t, f] : w.log) {
    if (t + 1e-9 < nextT) continue;
    std::printf("%7.3f  %7.4f\n", t, f);
    nextT = t + logMs / 1000.0;
  }
  if (!w.log.empty()) std::printf("%7.3f  %7.4f  (last progress call)\n", w.log.back().first, w.log.back().second);
  const double read = static_cast<double>(w.readDoneNs.load()) * 1e-9;
  const double trace = static_cast<double>(w.traceDoneNs.load()) * 1e-9;
  std::printf("first preview         %7.3f s (%d previews)\n", static_cast<double>(w.firstPreviewNs.load()) * 1e-9,
              w.previews.load());
  std::printf("first lanes + range   %7.3f s (%zu tracks)\n", static_cast<double>(w.firstLanesNs.load()) * 1e-9,
              w.firstLanesTracks);
  std::printf("read phase ends       %7.3f s  (%.1f%% of the load)\n", read, 100.0 * read / total);
  std::printf("build ends            %7.3f s  (build %.1f%%)\n", trace, 100.0 * (trace - read) / total);
  std::printf("loadProfile returns   %7.3f s  (tables + analyses %.1f%%)\n", total,
              100.0 * (total - trace) / total);
  std::printf("RSS before %.0f MB, loaded %.0f MB\n", mb(rss0), mb(rssKb()));
  return r;
}

/// core::analyzeRank alone on the loaded ranks (no load, no destruction in the figure): its
/// full time, then the latency from request_stop() at +N ms to its return.
void analysisCancel(const npuscope::core::Profile& profile) {
  namespace core = npuscope::core;
  const auto runAll = [&](const std::stop_token& stop, bool& cancelled) {
    cancelled = false;
    for (const auto& rp : profile.ranks) {
      if (!rp.trace) continue;
      core::AnalysisOptions o;
      o.stop = stop;
      const core::RankAnalysis a =
          core::analyzeRank(*rp.trace, rp.kernels.get(), rp.stepTrace.empty() ? nullptr : &rp.stepTrace, o);
      if (a.cancelled) {
        cancelled = true;
        return;
      }
    }
  };
  bool cancelled = false;
  const auto t0 = Clock::now();
  runAll({}, cancelled);
  const double fullMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  std::printf("== analyzeRank alone: full run %.1f ms (a stop that is not polled waits for the rest of it)\n", fullMs);
  for (int ms : {1, 5, 20}) {
    std::stop_source stop;
    std::atomic<std::int64_t> returnedNs{-1};
    const auto start = Clock::now();
    std::thread worker([&] {
      bool c = false;
      runAll(stop.get_token(), c);
      cancelled = c;
      returnedNs.store(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
    });
    std::this_thread::sleep_until(start + std::chrono::milliseconds(ms));
    const std::int64_t stopNs = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    stop.request_stop();
    worker.join();
    const std::int64_t ret = returnedNs.load();
    if (!cancelled) {
      std::printf("stop at +%2d ms   finished before the stop (%.1f ms)\n", ms, static_cast<double>(ret) * 1e-6);
      continue;
    }
    std::printf("stop at +%2d ms   returned after %6.2f ms (cancelled)\n", ms, static_cast<double>(ret - stopNs) * 1e-6);
  }
  std::fflush(stdout);
}

struct StopPoint {
  const char* name;
  std::function<bool(const Watch&)> due;  // true when the stop should be requested now
};

void cancelAt(const std::string& path, unsigned threads, const StopPoint& point) {
  Watch w;
  std::stop_source stop;
  const std::int64_t rss0 = rssKb();
  std::atomic<std::int64_t> returnedNs{-1}, destroyedNs{-1};
  std::atomic<bool> ok{false};
  std::thread loader([&] {
    ProfileLoadResult r = npuscope::core::loadProfile(path, w.options(threads, stop.get_token()));
    returnedNs.store(w.nowNs());
    ok.store(r.ok());
    r = {};  // destroy the profile (if any) now, like the GUI's worker when its job is dropped
    destroyedNs.store(w.nowNs());
  });
  std::int64_t stopNs = -1, rssAtStop = -1;
  while (destroyedNs.load() < 0) {
    if (stopNs < 0 && point.due(w)) {
      rssAtStop = rssKb();
      stopNs = w.nowNs();
      stop.request_stop();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  loader.join();
  const std::int64_t rssAfter = rssKb();
  malloc_trim(0);
  const std::int64_t rssTrim = rssKb();
  if (stopNs < 0) {
    std::printf("%-16s  load ended before the stop point (%.3f s)\n", point.name,
                static_cast<double>(returnedNs.load()) * 1e-9);
    return;
  }
  std::printf("%-16s  at %6.3f s  in %-8s  returned after %7.1f ms, freed after %7.1f ms%s  "
              "RSS %5.0f -> %5.0f at stop -> %5.0f after (%5.0f trimmed) MB\n",
              point.name, static_cast<double>(stopNs) * 1e-9, phaseAt(w, stopNs),
              static_cast<double>(returnedNs.load() - stopNs) * 1e-6,
              static_cast<double>(destroyedNs.load() - stopNs) * 1e-6, ok.load() ? " (ok: not cancelled)" : "",
              mb(rss0), mb(rssAtStop), mb(rssAfter), mb(rssTrim));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [--threads N] [--log-ms M] [--no-cancel] [--no-full] [--analyses-only]\n",
                 argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  unsigned threads = 0;
  int logMs = 250;
  bool cancel = true, full = true, analysesOnly = false;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = static_cast<unsigned>(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--log-ms") && i + 1 < argc) logMs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--no-cancel")) cancel = false;
    else if (!std::strcmp(argv[i], "--no-full")) full = false;
    else if (!std::strcmp(argv[i], "--analyses-only")) analysesOnly = true;
    else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (full) {
    ProfileLoadResult r = fullLoad(path, threads, logMs);
    analysisCancel(*r.profile);
  }
  if (!cancel) return 0;
  auto readAt = [](double f) {
    return [f](const Watch& w) { return w.readDoneNs.load() < 0 && w.readFraction.load() >= f; };
  };
  auto after = [](std::atomic<std::int64_t> Watch::*mark, int ms) {
    return [mark, ms](const Watch& w) {
      const std::int64_t t = (w.*mark).load();
      return t >= 0 && w.nowNs() >= t + static_cast<std::int64_t>(ms) * 1000000;
    };
  };
  const std::vector<StopPoint> points = {
      {"start +20 ms", [](const Watch& w) { return w.nowNs() >= 20'000'000; }},
      {"read 10%", readAt(0.10)},
      {"read 50%", readAt(0.50)},
      {"read 90%", readAt(0.90)},
      {"build +50 ms", after(&Watch::readDoneNs, 50)},
      {"build +400 ms", after(&Watch::readDoneNs, 400)},
      {"analyses +1 ms", after(&Watch::traceDoneNs, 1)},
      {"analyses +5 ms", after(&Watch::traceDoneNs, 5)},
      {"analyses +20 ms", after(&Watch::traceDoneNs, 20)},
  };
  std::printf("== cancel latency (request_stop -> loadProfile returns / result destroyed)\n");
  for (const StopPoint& p : points)
    if (!analysesOnly || std::strncmp(p.name, "analyses", 8) == 0) cancelAt(path, threads, p);
  return 0;
}
