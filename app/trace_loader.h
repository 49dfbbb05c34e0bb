// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/profile/profile.h"

namespace npuscope {

/// What is known of a running load, for drawing its first pixels (see TraceLoader::snapshot).
struct LoadSnapshot {
  std::vector<core::RankSource> ranks;  ///< as discovered (empty until discovery ran)
  /// Latest core::LoadPreview of each rank (same size as ranks), empty until its read started.
  std::vector<std::optional<core::LoadPreview>> previews;
  std::uint64_t revision = 0;           ///< grows with every change
};

/// Where a load is and how long it will still take, on the GUI thread (TraceLoader::status).
struct LoadStatus {
  enum class Phase : std::uint8_t { Starting, Reading, Building, Analysing };
  Phase phase = Phase::Starting;
  /// Estimated share of the whole load's wall time done, in [0, 1], never decreasing: reading is
  /// weighted by bytes, building and the analyses by the read time of the same rank times
  /// TraceLoader::kBuildPerRead / kAnalysesPerRead (measured, docs/benchmarks.md).
  double fraction = 0;
  std::uint64_t bytesRead = 0;   ///< trace bytes read so far (all ranks), bytes
  std::uint64_t totalBytes = 0;  ///< bytes of all trace files to read (0 until discovered)
  std::uint64_t events = 0;      ///< events read so far (all ranks)
  qint64 elapsedMs = 0;          ///< since load(), ms
  /// Remaining wall time in s from the read rate (bytes/s) measured since the first preview, or
  /// < 0 while unknown (less than 0.5 s since load(), 0.3 s since the first preview or 1 MB).
  double remainingSeconds = -1;
  int rankCount = 0;             ///< ranks discovered
  int currentRank = -1;          ///< index of the rank being loaded, -1 before
};

/// Loads a profiling folder or trace file in the background (core::loadProfile inside
/// QtConcurrent::run) so the GUI never blocks.
///
/// Progress is written by the loading threads into an atomic and published on the GUI thread by
/// a 30 ms timer (progressChanged), so a flood of progress callbacks never floods the event loop.
/// Exactly one of loaded / failed / cancelled is emitted per load() call, always on the thread
/// that owns the loader. cancel() returns at once: it requests a stop of the running job, emits
/// cancelled, and forgets the job; the worker winds down on its own (core polls the stop token;
/// npuscope_bench_cancel measures how fast) and drops its result, which frees the trace and the
/// raw records in the worker. Starting a new load() while one runs cancels the old one first.
///
/// First pixels: the worker discovers the ranks first, then core::loadProfile publishes a
/// core::LoadPreview of the rank being read about every 100 ms; the timer publishes them as
/// previewChanged (snapshot()) and the progress as progressChanged (status()).
class TraceLoader : public QObject {
  Q_OBJECT

 public:
  explicit TraceLoader(QObject* parent = nullptr);
  /// Requests a stop of every job still running; never waits for them.
  ~TraceLoader() override;

  /// Starts loading `path` (folder or file). Emits started() synchronously.
  void load(const QString& path);
  /// Which export a rank holding both trace_view.json and the .db export loads
  /// (core::LoadOptions::source): the command line's `--source db|text` when it set one here,
  /// else the setting `load/source` ("db" or "text", QSettings), else Auto (the text, with a
  /// message). Read by every load().
  static void setSourcePreference(core::LoadOptions::Source source);
  [[nodiscard]] static core::LoadOptions::Source sourcePreference();
  /// "db" / "text" -> Db / Text; anything else -> nullopt.
  [[nodiscard]] static std::optional<core::LoadOptions::Source> parseSource(const QString& text);
  /// Cancels the running load, if any, and emits cancelled(path). Returns immediately.
  void cancel();

  /// True between load() and the matching loaded/failed/cancelled signal.
  [[nodiscard]] bool isLoading() const { return m_job != nullptr; }
  /// Path of the running load (empty when idle).
  [[nodiscard]] QString currentPath() const;
  /// Last published progress of the running load, in [0, 1] (status().fraction).
  [[nodiscard]] double progress() const { return m_lastProgress; }
  /// Phase, byte counts and remaining-time estimate of the running load (as of the last timer
  /// tick); a default LoadStatus when idle.
  [[nodiscard]] LoadStatus status() const { return m_status; }
  /// What is known of the running load's tracks so far (as of the last previewChanged); empty
  /// when idle.
  [[nodiscard]] const LoadSnapshot& snapshot() const { return m_snapshot; }

  /// Wall time of building the lanes and of the analyses, relative to the read time of the same
  /// rank (npuscope_bench_cancel on the 1 GB trace, docs/benchmarks.md). Only the progress
  /// estimate uses them.
  static constexpr double kBuildPerRead = 0.4;
  static constexpr double kAnalysesPerRead = 0.04;

  /// Returns a sentence for the user when `path` cannot be opened at all (missing, unreadable),
  /// else an empty string. Shared by the GUI and the command line.
  [[nodiscard]] static QString checkPath(const QString& path);

  /// Number of loader worker tasks still running in this process, cancelled ones included
  /// (they wind down in the background). For tests and diagnostics.
  [[nodiscard]] static int runningWorkers();

  /// Parser threads passed to core (0 = core's default). Applies to the next load().
  void setThreads(unsigned threads) { m_threads = threads; }

 signals:
  void started(const QString& path);
  /// Overall fraction in [0, 1] (status().fraction); emitted at most every ~30 ms while loading.
  void progressChanged(double fraction);
  /// snapshot() changed (new tracks, names or time range); at most every ~30 ms while loading.
  void previewChanged();
  /// The profile is fully loaded and immutable from here on. `elapsedMs` is wall time.
  void loaded(const QString& path, std::shared_ptr<const npuscope::core::Profile> profile,
              qint64 elapsedMs);
  /// Nothing could be loaded; `error` is core's sentence for the user.
  void failed(const QString& path, const QString& error);
  void cancelled(const QString& path);

 private:
  struct Job;
  void publishProgress();
  void finishJob(const std::shared_ptr<Job>& job, core::ProfileLoadResult result);
  void resetState();
  [[nodiscard]] LoadStatus computeStatus(Job& job) const;

  std::shared_ptr<Job> m_job;  // the current job, null when idle
  QTimer m_progressTimer;
  double m_lastProgress = 0.0;
  LoadStatus m_status;
  LoadSnapshot m_snapshot;
  unsigned m_threads = 0;
};

}  // namespace npuscope
