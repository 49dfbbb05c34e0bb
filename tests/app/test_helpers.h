// SPDX-License-Identifier: MIT
#pragma once
// Shared helpers of the app tests: paths to the shared corpus and cases, and a wait loop.

#include <QCoreApplication>
#include <QDeadlineTimer>
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

}  // namespace npuscope::test
