// SPDX-License-Identifier: MIT
#include "app/trace_loader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <stop_token>

namespace npuscope {

namespace {
std::atomic<int> g_runningWorkers{0};
}  // namespace

int TraceLoader::runningWorkers() { return g_runningWorkers.load(); }

// Shared between the GUI thread and the worker; the worker only touches `stop` (read) and
// `progress` (write).
struct TraceLoader::Job {
  QString path;
  std::stop_source stop;
  std::atomic<double> progress{0.0};
  QElapsedTimer clock;
};

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
  m_progressTimer.setInterval(30);
  connect(&m_progressTimer, &QTimer::timeout, this, &TraceLoader::publishProgress);
}

TraceLoader::~TraceLoader() {
  if (m_job) m_job->stop.request_stop();
  // Watchers are children of this object and die with it; the detached workers observe the stop
  // request and end soon. Their results are dropped.
}

QString TraceLoader::currentPath() const { return m_job ? m_job->path : QString(); }

QString TraceLoader::checkPath(const QString& path) {
  if (path.trimmed().isEmpty()) return tr("No path given.");
  const QFileInfo info(path);
  if (!info.exists()) return tr("No such file or folder: %1").arg(QDir::toNativeSeparators(path));
  if (!info.isReadable())
    return tr("Permission denied: %1 cannot be read.").arg(QDir::toNativeSeparators(path));
  return {};
}

void TraceLoader::load(const QString& path) {
  if (m_job) cancel();

  auto job = std::make_shared<Job>();
  job->path = path;
  job->clock.start();
  m_job = job;
  m_lastProgress = 0.0;

  core::LoadOptions options;
  options.threads = m_threads;
  options.stop = job->stop.get_token();
  // Called from loader threads: store only, never touch Qt objects here.
  options.progress = [raw = job.get()](double fraction) {
    raw->progress.store(fraction, std::memory_order_relaxed);
  };
  const std::string nativePath = QFile::encodeName(path).toStdString();

  if (const QString problem = checkPath(path); !problem.isEmpty()) {
    // Report on the next event-loop turn so callers see started() before failed(), like a
    // real load, and nothing is parsed.
    QTimer::singleShot(0, this, [this, job, problem] {
      if (job != m_job) return;
      m_job.reset();
      m_progressTimer.stop();
      emit failed(job->path, problem);
    });
    m_progressTimer.start();
    emit started(path);
    emit progressChanged(0.0);
    return;
  }

  auto* watcher = new QFutureWatcher<core::ProfileLoadResult>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
    watcher->deleteLater();
    finishJob(job, watcher->future().result());
  });
  // `job` is captured by value so the atomic outlives the worker even if this loader dies first.
  g_runningWorkers.fetch_add(1);
  watcher->setFuture(QtConcurrent::run([job, nativePath, options = std::move(options)] {
    core::ProfileLoadResult result = core::loadProfile(nativePath, options);
    g_runningWorkers.fetch_sub(1);
    return result;
  }));

  m_progressTimer.start();
  emit started(path);
  emit progressChanged(0.0);
}

void TraceLoader::cancel() {
  if (!m_job) return;
  const std::shared_ptr<Job> job = std::move(m_job);
  m_job.reset();
  job->stop.request_stop();
  m_progressTimer.stop();
  emit cancelled(job->path);
}

void TraceLoader::publishProgress() {
  if (!m_job) return;
  const double fraction = m_job->progress.load(std::memory_order_relaxed);
  if (fraction != m_lastProgress) {
    m_lastProgress = fraction;
    emit progressChanged(fraction);
  }
}

void TraceLoader::finishJob(const std::shared_ptr<Job>& job, core::ProfileLoadResult result) {
  if (job != m_job) return;  // cancelled or superseded: already reported
  const qint64 elapsed = job->clock.elapsed();
  m_job.reset();
  m_progressTimer.stop();
  if (result.ok()) {
    m_lastProgress = 1.0;
    emit progressChanged(1.0);
    emit loaded(job->path, std::shared_ptr<const core::Profile>(std::move(result.profile)),
                elapsed);
  } else if (job->stop.stop_requested()) {
    emit cancelled(job->path);
  } else {
    QString error = QString::fromStdString(result.error);
    if (error.isEmpty()) error = tr("Nothing could be loaded from this path.");
    emit failed(job->path, error);
  }
}

}  // namespace npuscope
