// SPDX-License-Identifier: MIT
#include "app/app_support.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <unistd.h>

#include <vector>

namespace npuscope {

namespace {
QString cleanPath(const QString& path) {
  QString p = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
  return p;
}
bool isProfilingRoot(const QString& name) {
  return name.endsWith(QStringLiteral("_ascend_pt")) || name.endsWith(QStringLiteral("_ascend_ms"));
}
std::vector<std::string>& rawArguments() {
  static std::vector<std::string> args;
  return args;
}
}  // namespace

void setRawArguments(int argc, char** argv) {
  rawArguments().assign(argv, argv + argc);
}

std::string nativeArgument(const QString& argument) {
  for (const std::string& raw : rawArguments())
    if (QString::fromLocal8Bit(raw.data(), static_cast<qsizetype>(raw.size())) == argument) return raw;
  return QFile::encodeName(argument).toStdString();
}

QStringList addRecentPath(const QStringList& recent, const QString& path, int maxEntries) {
  const QString cleaned = cleanPath(path);
  QStringList out;
  out.reserve(maxEntries);
  out.append(cleaned);
  for (const QString& entry : recent) {
    if (out.size() >= maxEntries) break;
    if (entry.isEmpty() || cleanPath(entry) == cleaned) continue;
    out.append(entry);
  }
  return out;
}

QString findSampleProfile() {
  QStringList candidates;
#ifdef NPUSCOPE_SAMPLE_DIR
  candidates << QStringLiteral(NPUSCOPE_SAMPLE_DIR);
#endif
  if (QCoreApplication::instance()) {
    const QString exeDir = QCoreApplication::applicationDirPath();
    candidates << exeDir + QStringLiteral("/../share/npuscope/sample")
               << exeDir + QStringLiteral("/sample") << exeDir + QStringLiteral("/resources/sample");
  }
  for (const QString& c : candidates) {
    const QFileInfo info(c);
    if (info.isDir() && !QDir(c).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot))
      return QDir::cleanPath(info.absoluteFilePath());
  }
  return {};
}

qint64 residentMemoryBytes() {
  QFile statm(QStringLiteral("/proc/self/statm"));
  if (!statm.open(QIODevice::ReadOnly)) return -1;
  const QList<QByteArray> fields = statm.readAll().simplified().split(' ');
  if (fields.size() < 2) return -1;
  bool ok = false;
  const qint64 pages = fields[1].toLongLong(&ok);
  if (!ok) return -1;
  return pages * static_cast<qint64>(sysconf(_SC_PAGESIZE));
}

ProfileTotals profileTotals(const core::Profile& profile) {
  ProfileTotals t;
  t.ranks = static_cast<int>(profile.ranks.size());
  for (const core::RankProfile& rank : profile.ranks) {
    t.tableMessages += rank.tableMessages.size();
    if (!rank.trace) {
      // A pruned text export (CSV-only ranks) loaded what it has: not a failure.
      if (rank.tablesOnly) ++t.tablesOnlyRanks;
      else ++t.failedRanks;
      continue;
    }
    ++t.loadedRanks;
    t.events += rank.trace->eventCount;
    t.slices += rank.trace->sliceCount();
    t.warnings += rank.trace->stats.total();
    t.traceBytes += rank.trace->memoryBytes();
  }
  return t;
}

QString displayName(const QString& path) {
  const QFileInfo info(QDir::cleanPath(path));
  const QString name = info.fileName();
  return name.isEmpty() ? QDir::toNativeSeparators(path) : name;
}

QString captureRootOf(const QString& rankRoot) {
  const QFileInfo root(rankRoot);
  if (!root.isDir()) return {};
  QDir dir(root.canonicalFilePath());
  // msprof's layouts: the rank is PROF_*/device_N(/timeline) or a PROF_ folder: its PROF_ folder.
  for (QDir up = dir; !up.isRoot(); ) {
    if (up.dirName().startsWith(QStringLiteral("PROF_"))) return up.canonicalPath();
    if (!up.cdUp()) break;
  }
  // A rank folder (*_ascend_pt / *_ascend_ms, or its ASCEND_PROFILER_OUTPUT) whose parent holds
  // another rank folder: that parent is the capture (discoverProfile groups such siblings).
  if (dir.dirName() == QLatin1String("ASCEND_PROFILER_OUTPUT") && !dir.cdUp()) return {};
  if (!isProfilingRoot(dir.dirName())) return {};
  const QString self = dir.dirName();
  if (!dir.cdUp()) return {};
  const QStringList siblings = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
  for (const QString& s : siblings)
    if (s != self && isProfilingRoot(s)) return dir.canonicalPath();
  return {};
}

QStringList protectedFolders(const QString& path, const core::Profile* profile) {
  QStringList folders;
  const QFileInfo info(path);
  if (info.isDir()) folders << info.canonicalFilePath();
  if (info.isDir()) folders << captureRootOf(info.canonicalFilePath());
  if (profile) {
    for (const core::RankProfile& rank : profile->ranks) {
      const QString rootPath = QFile::decodeName(rank.source.root.c_str());
      const QFileInfo root(rootPath);
      if (root.isDir() && isProfilingRoot(root.fileName())) folders << root.canonicalFilePath();
      folders << captureRootOf(rootPath);
    }
  }
  folders.removeAll(QString());
  folders.removeDuplicates();
  return folders;
}

bool isInsideAny(const QString& file, const QStringList& folders) {
  const QFileInfo info(file);
  // The file may not exist yet: resolve its folder instead.
  const QString dir = QFileInfo(info.absolutePath()).canonicalFilePath();
  if (dir.isEmpty()) return false;
  for (const QString& folder : folders) {
    if (dir == folder || dir.startsWith(folder + QLatin1Char('/'))) return true;
  }
  return false;
}

QRect fitInside(const QRect& window, const QRect& available) {
  if (available.isEmpty()) return window;
  QRect r = window;
  r.setWidth(std::min(r.width(), available.width()));
  r.setHeight(std::min(r.height(), available.height()));
  if (r.right() > available.right()) r.moveRight(available.right());
  if (r.bottom() > available.bottom()) r.moveBottom(available.bottom());
  if (r.left() < available.left()) r.moveLeft(available.left());
  if (r.top() < available.top()) r.moveTop(available.top());
  return r;
}

bool fitsInside(const QRect& window, const QRect& available) {
  return available.isEmpty() || (window.width() <= available.width() && window.height() <= available.height());
}

}  // namespace npuscope
