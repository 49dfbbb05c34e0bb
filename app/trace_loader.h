// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>

#include "core/profile.h"

namespace npuscope {

/// Loads a profiling folder or trace file in the background (core::loadProfile inside
/// QtConcurrent::run) so the GUI never blocks.
///
/// Progress is written by the loading threads into an atomic and published on the GUI thread by
/// a 30 ms timer (progressChanged), so a flood of progress callbacks never floods the event loop.
/// Exactly one of loaded / failed / cancelled is emitted per load() call, always on the thread
/// that owns the loader. cancel() returns at once: it requests a stop of the running job, emits
/// cancelled, and forgets the job; the worker winds down on its own and its result is dropped.
/// Starting a new load() while one runs cancels the old one first.
class TraceLoader : public QObject {
  Q_OBJECT

 public:
  explicit TraceLoader(QObject* parent = nullptr);
  /// Requests a stop of every job still running; never waits for them.
  ~TraceLoader() override;

  /// Starts loading `path` (folder or file). Emits started() synchronously.
  void load(const QString& path);
  /// Cancels the running load, if any, and emits cancelled(path). Returns immediately.
  void cancel();

  /// True between load() and the matching loaded/failed/cancelled signal.
  [[nodiscard]] bool isLoading() const { return m_job != nullptr; }
  /// Path of the running load (empty when idle).
  [[nodiscard]] QString currentPath() const;
  /// Last published progress of the running load, in [0, 1].
  [[nodiscard]] double progress() const { return m_lastProgress; }

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
  /// Overall fraction in [0, 1]; emitted at most every ~30 ms while loading.
  void progressChanged(double fraction);
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

  std::shared_ptr<Job> m_job;  // the current job, null when idle
  QTimer m_progressTimer;
  double m_lastProgress = 0.0;
  unsigned m_threads = 0;
};

}  // namespace npuscope
