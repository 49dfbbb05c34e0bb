// SPDX-License-Identifier: MIT
#pragma once
// Shared helpers of the app tests: paths to the shared corpus and cases, and a wait loop.

#include <QByteArray>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QString>
#include <QThread>
#include <functional>

namespace npuscope::test {

/// A path under ../shared (the corpus and cases beside the checkout).
inline QString sharedPath(const char* relative) {
  return QStringLiteral(NPUSCOPE_SHARED_DIR "/") + QString::fromUtf8(relative);
}

/// Spins the event loop until `done` returns true or `timeoutMs` passes; returns done().
inline bool waitUntil(const std::function<bool()>& done, int timeoutMs = 20000) {
  QDeadlineTimer deadline(timeoutMs);
  while (!done() && !deadline.hasExpired()) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(1);
  }
  return done();
}

/// Writes a big torch_npu-like JSON array trace to `file` in ~1 MiB chunks: "[" + `head` (events
/// each followed by ",\n"), then `count` X events aten::op_<i % 97> (cat cpu_op, dur 2 us, args
/// {"Sequence number": i}) whose `"pid":P,"tid":T,"ts":TS` part comes from `where(i)`, then
/// `last` (an event and the closing "]"). Returns false when the file cannot be written.
inline bool writeBigTrace(const QString& file, const QByteArray& head, int count,
                          const std::function<QByteArray(int)>& where, const QByteArray& last) {
  QFile out(file);
  if (!out.open(QIODevice::WriteOnly)) return false;
  QByteArray chunk = "[" + head;
  for (int i = 0; i < count; ++i) {
    chunk += QByteArrayLiteral(R"({"ph":"X","name":"aten::op_)") + QByteArray::number(i % 97) +
             QByteArrayLiteral(R"(","cat":"cpu_op",)") + where(i) +
             QByteArrayLiteral(R"(,"dur":2,"args":{"Sequence number":)") + QByteArray::number(i) +
             QByteArrayLiteral("}},\n");
    if (chunk.size() > (1 << 20)) {
      out.write(chunk);
      chunk.clear();
    }
  }
  chunk += last;
  return out.write(chunk) == chunk.size();
}

}  // namespace npuscope::test
