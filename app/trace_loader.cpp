// SPDX-License-Identifier: MIT
#include "app/trace_loader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <stop_token>

#include "core/base/guard.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace npuscope {

namespace {
std::atomic<int> g_runningWorkers{0};
}  // namespace

int TraceLoader::runningWorkers() { return g_runningWorkers.load(); }

// Shared between the GUI thread and the worker. The worker writes the load's state from core's
// callbacks (under `mutex`); the GUI thread's timer reads it.
struct TraceLoader::Job {
  using Clock = std::chrono::steady_clock;
  QString path;
  std::stop_source stop;
  QElapsedTimer clock;             // GUI thread only
  Clock::time_point start = Clock::now();

  struct Rank {
    std::uint64_t bytes = 0;       // trace file size, 0 without a trace file
    double base = 0, end = 0;      // its interval of loadProfile's progress
    bool hasTrace = false;         // loadProfile reads a trace file for it
    std::optional<core::LoadPreview> preview;
    double readFraction = 0;       // of the latest preview
    std::int64_t readFractionNs = -1;  // when it arrived
    double firstFraction = 0;      // of the first preview, for this rank's read rate
    std::int64_t firstFractionNs = -1;
    // Phase boundaries, ns since the load started (-1: not yet). The read of the first rank
    // starts with the load (discovery and mapping the file are part of its cost), the read of a
    // later rank when it reports its first progress.
    std::int64_t readStartNs = -1, readEndNs = -1, builtNs = -1, doneNs = -1;
  };
  std::mutex mutex;
  std::vector<core::RankSource> sources;
  std::vector<Rank> ranks;
  int current = -1;                // rank being loaded, -1 before the first
  double progress = 0;             // core's last progress value
  std::uint64_t revision = 0;      // bumped on discovery and on every preview

  [[nodiscard]] std::int64_t nowNs() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  }

  // Worker: the ranks core::loadProfile will read, and their share of its progress. The weights
  // are loadProfile's own (trace file size + 1, 0 without a trace file), so a progress value
  // tells which rank is being loaded.
  void discovered(std::vector<core::RankSource> found) {
    std::vector<Rank> r(found.size());
    double total = 0;
    std::vector<double> weight;
    for (std::size_t i = 0; i < found.size(); ++i) {
      std::error_code ec;
      // loadProfile's weight: the trace file, else the .db export it reads instead.
      const std::string& f = found[i].traceFile.empty() ? found[i].dbFile : found[i].traceFile;
      const auto size = f.empty() ? 0 : std::filesystem::file_size(f, ec);
      r[i].bytes = ec ? 0 : static_cast<std::uint64_t>(size);
      const double w = f.empty() ? 0.0 : static_cast<double>(ec ? 0 : size) + 1.0;
      weight.push_back(w);
      total += w;
    }
    double done = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (total > 0) {
        r[i].base = done / total;
        r[i].end = r[i].base + weight[i] / total;
      }
      done += weight[i];
      r[i].hasTrace = weight[i] > 0;
    }
    std::lock_guard lock(mutex);
    sources = std::move(found);
    ranks = std::move(r);
    ++revision;
  }

  // Progress values of loadProfile are computed as here, so they match up to rounding; the
  // smallest rank share is 1 / total bytes.
  static constexpr double kTol = 1e-12;

  // The last rank with a trace whose progress interval starts at or before p (loadProfile
  // reports each rank's start, base, before reading it).
  [[nodiscard]] int rankAt(double p) const {
    int at = -1;
    for (std::size_t i = 0; i < ranks.size(); ++i)
      if (ranks[i].hasTrace && ranks[i].base <= p + kTol) at = static_cast<int>(i);
    return at;
  }

  // Rank r starts reading: every rank before it is finished (loaded, failed or skipped).
  void enter(int r, std::int64_t now) {
    for (int i = std::max(current, 0); i < r; ++i) {
      Rank& k = ranks[static_cast<std::size_t>(i)];
      if (k.readEndNs < 0) k.readEndNs = now;
      if (k.builtNs < 0) k.builtNs = now;
      if (k.doneNs < 0) k.doneNs = now;
    }
    Rank& k = ranks[static_cast<std::size_t>(r)];
    if (k.readStartNs < 0) k.readStartNs = current < 0 ? 0 : now;
    current = r;
  }

  // Worker: core's progress callback.
  void onProgress(double p) {
    const std::int64_t now = nowNs();
    std::lock_guard lock(mutex);
    progress = p;
    if (ranks.empty()) return;
    if (current >= 0) {
      Rank& c = ranks[static_cast<std::size_t>(current)];
      if (p >= c.end - kTol && c.builtNs < 0) {  // loadTrace of this rank ended
        if (c.readEndNs < 0) c.readEndNs = now;
        c.builtNs = now;
      }
    }
    const int r = rankAt(p);
    if (r > current && (current < 0 || p > ranks[static_cast<std::size_t>(r)].base + kTol)) enter(r, now);
  }

  // Worker: core's preview callback (loadProfile reports the start of each rank as progress first).
  void onPreview(const core::LoadPreview& preview) {
    const std::int64_t now = nowNs();
    std::lock_guard lock(mutex);
    if (ranks.empty()) return;
    const int r = std::max(rankAt(progress), current);
    if (r < 0) return;
    if (r != current) enter(r, now);
    Rank& k = ranks[static_cast<std::size_t>(r)];
    k.preview = preview;
    k.readFraction = std::clamp(preview.fraction, 0.0, 1.0);
    k.readFractionNs = now;
    if (k.firstFractionNs < 0) {
      k.firstFraction = k.readFraction;
      k.firstFractionNs = now;
    }
    if (k.readFraction >= 1.0 && k.readEndNs < 0) k.readEndNs = now;
    ++revision;
  }
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

void TraceLoader::resetState() {
  m_lastProgress = 0.0;
  m_status = {};
  m_snapshot = {};
}

void TraceLoader::load(const QString& path) {
  if (m_job) cancel();

  auto job = std::make_shared<Job>();
  job->path = path;
  job->clock.start();
  m_job = job;
  resetState();

  core::LoadOptions options;
  options.threads = m_threads;
  options.source = sourcePreference();
  options.stop = job->stop.get_token();
  // Called from the loading thread: they only write the job's state, never touch Qt objects.
  options.progress = [raw = job.get()](double fraction) { raw->onProgress(fraction); };
  options.preview = [raw = job.get()](const core::LoadPreview& preview) { raw->onPreview(preview); };
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
    finishJob(job, watcher->future().takeResult());
  });
  // `job` is captured by value so its state outlives the worker even if this loader dies first.
  g_runningWorkers.fetch_add(1);
  watcher->setFuture(QtConcurrent::run([job, nativePath, options = std::move(options)] {
    // Discovery is cheap (a few directory listings); knowing the ranks and their file sizes
    // first gives the skeleton its rank headers and the progress its byte counts.
    // core never throws, but an exception escaping a QtConcurrent task would end the process:
    // anything unexpected becomes the load's error message.
    core::ProfileLoadResult result;
    try {
      job->discovered(core::discoverProfile(nativePath).ranks);
      result = core::loadProfile(nativePath, options);
    } catch (...) {
      result = {nullptr, core::describeException(std::current_exception(), "loading " + nativePath)};
    }
    if (job->stop.stop_requested()) {
      // Cancelled (possibly after the last stop check): free the profile here, on the worker,
      // rather than on the GUI thread, and give the freed heap back to the system.
      result = {nullptr, "cancelled"};
#if defined(__GLIBC__)
      malloc_trim(0);
#endif
    }
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
  resetState();
  emit cancelled(job->path);
}

void TraceLoader::publishProgress() {
  if (!m_job) return;
  std::uint64_t revision = 0;
  {
    std::lock_guard lock(m_job->mutex);
    revision = m_job->revision;
    if (revision != m_snapshot.revision) {
      m_snapshot.revision = revision;
      m_snapshot.ranks = m_job->sources;
      m_snapshot.previews.clear();
      for (const auto& r : m_job->ranks) m_snapshot.previews.push_back(r.preview);
    } else {
      revision = 0;
    }
  }
  m_status = computeStatus(*m_job);
  if (revision != 0) emit previewChanged();
  if (m_status.fraction != m_lastProgress) {
    m_lastProgress = m_status.fraction;
    emit progressChanged(m_status.fraction);
  }
}

void TraceLoader::finishJob(const std::shared_ptr<Job>& job, core::ProfileLoadResult result) {
  if (job != m_job) return;  // cancelled or superseded: already reported
  publishProgress();  // the last previews (a short load may end between two timer ticks)
  const qint64 elapsed = job->clock.elapsed();
  m_job.reset();
  m_progressTimer.stop();
  resetState();
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

// The load's state machine (Job), turned into what the user sees.
LoadStatus TraceLoader::computeStatus(Job& job) const {
  const double previousFraction = m_lastProgress;
  LoadStatus s;
  s.elapsedMs = job.clock.elapsed();
  const std::int64_t now = job.nowNs();
  constexpr double kCap = 0.95;            // an estimated phase never shows as done before it is
  constexpr std::int64_t kSmoothNs = 150'000'000;  // extrapolate the read at most this far
  std::lock_guard lock(job.mutex);
  s.rankCount = static_cast<int>(job.ranks.size());
  s.currentRank = job.current;
  double total = 0, done = 0, readNs = 0, readBytes = 0;
  for (std::size_t i = 0; i < job.ranks.size(); ++i) {
    const Job::Rank& r = job.ranks[i];
    if (!r.hasTrace) continue;
    const auto bytes = static_cast<double>(r.bytes) + 1.0;
    s.totalBytes += r.bytes;
    if (r.preview) s.events += r.preview->events;
    total += bytes * (1.0 + TraceLoader::kBuildPerRead + TraceLoader::kAnalysesPerRead);
    // Read: bytes from the latest preview, extrapolated between previews (~100 ms apart) at the
    // rate seen since this rank's first preview, so the bar moves on every tick.
    double read = r.readEndNs >= 0 ? bytes : r.readFraction * bytes;
    if (r.readEndNs < 0 && r.readFractionNs - r.firstFractionNs >= 50'000'000) {
      const double rate = (r.readFraction - r.firstFraction) * bytes /
                          static_cast<double>(r.readFractionNs - r.firstFractionNs);  // bytes/ns
      const auto ahead = static_cast<double>(std::min(now - r.readFractionNs, kSmoothNs));
      read = std::min(read + rate * ahead, bytes);
    }
    s.bytesRead += static_cast<std::uint64_t>(std::min(read, static_cast<double>(r.bytes)));
    done += read;
    // The rate for the time left counts from this rank's first preview: what came before
    // (discovery, mapping the file) is spent and would only make the rate look slower.
    if (r.firstFractionNs >= 0) {
      readNs += static_cast<double>((r.readEndNs >= 0 ? r.readEndNs : now) - r.firstFractionNs);
      readBytes += read - r.firstFraction * bytes;
    }
    // Build and analyses: expected to take k x this rank's own read time.
    const double readTime = r.readEndNs > r.readStartNs && r.readStartNs >= 0
                                ? static_cast<double>(r.readEndNs - r.readStartNs) : 1.0;
    auto phase = [&](double k, std::int64_t from, std::int64_t to) {
      if (to >= 0) return bytes * k;
      if (from < 0) return 0.0;
      return bytes * k * std::min(kCap, static_cast<double>(now - from) / (k * readTime));
    };
    done += phase(TraceLoader::kBuildPerRead, r.readEndNs, r.builtNs);
    done += phase(TraceLoader::kAnalysesPerRead, r.builtNs, r.doneNs);
  }
  if (job.current >= 0) {
    const Job::Rank& c = job.ranks[static_cast<std::size_t>(job.current)];
    s.phase = c.readEndNs < 0 ? LoadStatus::Phase::Reading
              : c.builtNs < 0 ? LoadStatus::Phase::Building
                              : LoadStatus::Phase::Analysing;
  }
  s.fraction = std::max(previousFraction, total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0.0);
  // Remaining time from the measured read rate, once enough is in.
  if (s.elapsedMs >= 500 && readBytes >= 1e6 && readNs >= 3e8) {
    const double bytesPerNs = readBytes / readNs;
    s.remainingSeconds = std::max(0.0, (total - done) / bytesPerNs * 1e-9);
  }
  return s;
}

namespace {
std::optional<core::LoadOptions::Source>& sourceOverride() {
  static std::optional<core::LoadOptions::Source> source;
  return source;
}
}  // namespace

void TraceLoader::setSourcePreference(core::LoadOptions::Source source) { sourceOverride() = source; }

std::optional<core::LoadOptions::Source> TraceLoader::parseSource(const QString& text) {
  if (text == QStringLiteral("db")) return core::LoadOptions::Source::Db;
  if (text == QStringLiteral("text")) return core::LoadOptions::Source::Text;
  return std::nullopt;
}

core::LoadOptions::Source TraceLoader::sourcePreference() {
  if (sourceOverride()) return *sourceOverride();
  return parseSource(QSettings().value(QStringLiteral("load/source")).toString()).value_or(core::LoadOptions::Source::Auto);
}

}  // namespace npuscope
