// SPDX-License-Identifier: MIT
// A monkey test (issue 42 item 7): random clicks, drags, wheel turns and keys on every visible
// widget of the main window, with opening, comparing and closing captures in between, for a
// while, seeded so that a failure replays. Modal dialogs and popup menus the monkey opens are
// closed at once (a dialog waiting for a user would stall it), and Quit is never pressed. The
// window must survive: no crash (the sanitizer job runs this too), no hang, a profile at the end.
//
//   NPUSCOPE_MONKEY_SEED=N      the seed (default 20261208; printed on failure)
//   NPUSCOPE_MONKEY_SECONDS=S   how long (default 20; the sanitizer job asks for more)
//   NPUSCOPE_MONKEY_CAPTURE=P   one more capture to open and compare (e.g. a generated 64-rank
//                               one: tools/gen_cluster.py --ranks 64 /tmp/c64); it is opened first
#include <catch2/catch.hpp>

#include <QAbstractButton>
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QMenu>
#include <QMenuBar>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>
#include <cstdio>

#include "app/main_window.h"
#include "tests/app/test_helpers.h"

using npuscope::MainWindow;
using npuscope::test::sharedPath;
using npuscope::test::waitUntil;

namespace {

int envInt(const char* name, int fallback) {
  bool ok = false;
  const int v = qEnvironmentVariableIntValue(name, &ok);
  return ok ? v : fallback;
}

/// A visible widget of `window` (or of a floating dock) the monkey may touch: not a menu bar or
/// menu (Quit lives there), not zero-sized.
QWidget* pickWidget(MainWindow& window, QRandomGenerator& rng) {
  QList<QWidget*> all;
  for (QWidget* w : QApplication::topLevelWidgets())
    if (w->isVisible() && (w == &window || qobject_cast<QDockWidget*>(w))) all << w << w->findChildren<QWidget*>();
  QList<QWidget*> ok;
  for (QWidget* w : all)
    if (w->isVisible() && w->width() > 2 && w->height() > 2 && !qobject_cast<QMenuBar*>(w) && !qobject_cast<QMenu*>(w) &&
        !w->window()->isModal())
      ok << w;
  return ok.isEmpty() ? &window : ok[static_cast<qsizetype>(rng.bounded(static_cast<quint32>(ok.size())))];
}

QPoint pointIn(const QWidget* w, QRandomGenerator& rng) {
  return {static_cast<int>(rng.bounded(static_cast<quint32>(std::max(1, w->width())))),
          static_cast<int>(rng.bounded(static_cast<quint32>(std::max(1, w->height()))))};
}

Qt::KeyboardModifiers randomMods(QRandomGenerator& rng) {
  Qt::KeyboardModifiers m;
  if (rng.bounded(4u) == 0) m |= Qt::ControlModifier;
  if (rng.bounded(4u) == 0) m |= Qt::ShiftModifier;
  if (rng.bounded(8u) == 0) m |= Qt::AltModifier;
  return m;
}

}  // namespace

TEST_CASE("monkey: random clicks, drags, wheel turns, keys and captures leave the window working", "[window][monkey]") {
  const quint32 seed = static_cast<quint32>(envInt("NPUSCOPE_MONKEY_SEED", 20261208));
  const int seconds = envInt("NPUSCOPE_MONKEY_SECONDS", 20);
  INFO("seed " << seed << " (NPUSCOPE_MONKEY_SEED replays it)");
  QRandomGenerator rng(seed);
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1400, 900);
  window.show();
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  const QString extra = qEnvironmentVariable("NPUSCOPE_MONKEY_CAPTURE");
  window.openPath(extra.isEmpty() ? sharedPath("corpus/ascend-pt-910b-l1-text-2rank") : extra);
  REQUIRE(waitUntil([&] { return !loaded.isEmpty(); }, 120000));
  // Whatever the monkey opens that waits for a user (a file dialog, a message box, a menu) is closed.
  QTimer closer;
  QObject::connect(&closer, &QTimer::timeout, [] {
    if (QWidget* modal = QApplication::activeModalWidget()) modal->close();
    if (QWidget* popup = QApplication::activePopupWidget()) popup->close();
  });
  closer.start(30);
  QStringList captures = {sharedPath("corpus/ascend-pt-910b-l1-text-2rank"), sharedPath("corpus/ascend-pt-910b-l0-text-2rank"),
                          sharedPath("corpus/mindspore-msprof-prof-2dev"), sharedPath("cases/29-multi-rank-duplicate-pid")};
  if (!extra.isEmpty()) captures << extra;
  const int keys[] = {Qt::Key_W, Qt::Key_A, Qt::Key_S, Qt::Key_D, Qt::Key_0, Qt::Key_Left, Qt::Key_Right, Qt::Key_Up,
                      Qt::Key_Down, Qt::Key_PageUp, Qt::Key_PageDown, Qt::Key_Home, Qt::Key_End, Qt::Key_Escape,
                      Qt::Key_Return, Qt::Key_Tab, Qt::Key_Space, Qt::Key_M, Qt::Key_F, Qt::Key_R, Qt::Key_B, Qt::Key_Delete};
  QStringList last;  // the last actions, for the report of a failure
  const auto did = [&](const QString& what) {
    last << what;
    if (last.size() > 12) last.removeFirst();
  };
  QElapsedTimer clock;
  clock.start();
  int steps = 0;
  while (clock.elapsed() < seconds * 1000LL) {
    ++steps;
    const quint32 kind = rng.bounded(100u);
    QWidget* w = pickWidget(window, rng);
    const QPoint p = pointIn(w, rng);
    const QString name = QString::fromLatin1(w->metaObject()->className()) + QLatin1Char('#') + w->objectName();
    if (kind < 30) {
      did(QStringLiteral("click %1 at %2,%3").arg(name).arg(p.x()).arg(p.y()));
      QTest::mouseClick(w, rng.bounded(5u) == 0 ? Qt::RightButton : Qt::LeftButton, randomMods(rng), p);
    } else if (kind < 38) {
      did(QStringLiteral("double-click %1").arg(name));
      QTest::mouseDClick(w, Qt::LeftButton, {}, p);
    } else if (kind < 50) {
      const QPoint q = pointIn(w, rng);
      did(QStringLiteral("drag %1 %2,%3 -> %4,%5").arg(name).arg(p.x()).arg(p.y()).arg(q.x()).arg(q.y()));
      QTest::mousePress(w, Qt::LeftButton, randomMods(rng), p);
      QTest::mouseMove(w, (p + q) / 2);
      QTest::mouseMove(w, q);
      QTest::mouseRelease(w, Qt::LeftButton, {}, q);
    } else if (kind < 70) {
      const int delta = (static_cast<int>(rng.bounded(9u)) - 4) * 120;
      const Qt::KeyboardModifiers mods = randomMods(rng);
      did(QStringLiteral("wheel %1 %2").arg(name).arg(delta));
      QWheelEvent ev(QPointF(p), QPointF(w->mapToGlobal(p)), QPoint(), rng.bounded(4u) == 0 ? QPoint(delta, 0) : QPoint(0, delta),
                     Qt::NoButton, mods, Qt::NoScrollPhase, false);
      QApplication::sendEvent(w, &ev);
    } else if (kind < 92) {
      const int key = keys[rng.bounded(static_cast<quint32>(std::size(keys)))];
      Qt::KeyboardModifiers mods = randomMods(rng);
      if (key == Qt::Key_W || key == Qt::Key_Q) mods &= ~Qt::ControlModifier;  // never Ctrl+Q / Ctrl+W
      did(QStringLiteral("key %1 mods %2 on %3").arg(key).arg(static_cast<int>(mods)).arg(name));
      QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window, static_cast<Qt::Key>(key), mods);
    } else if (kind < 95) {
      const QString path = captures[static_cast<qsizetype>(rng.bounded(static_cast<quint32>(captures.size())))];
      did(QStringLiteral("compare with %1").arg(path));
      QSignalSpy compared(&window, &MainWindow::compareFinished);
      window.compareWith(path);
      CHECK(waitUntil([&] { return !compared.isEmpty(); }, 60000));
    } else if (kind < 97) {
      did(QStringLiteral("close comparison"));
      window.closeCompare();
    } else {
      const QString path = captures[static_cast<qsizetype>(rng.bounded(static_cast<quint32>(captures.size())))];
      did(QStringLiteral("open %1").arg(path));
      QSignalSpy opened(&window, &MainWindow::loadFinished);
      window.openPath(path);
      CHECK(waitUntil([&] { return !opened.isEmpty(); }, 60000));
    }
    QApplication::processEvents();
  }
  closer.stop();
  std::fprintf(stderr, "monkey: %d steps in %d s, seed %u\n", steps, seconds, seed);
  INFO("steps " << steps << "; last actions:\n  " << last.join(QStringLiteral("\n  ")).toStdString());
  // Still working: the window shows a profile and answers a fit and a reopen.
  REQUIRE(window.profile());
  window.show();
  QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
  QSignalSpy reopened(&window, &MainWindow::loadFinished);
  window.openPath(sharedPath("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(waitUntil([&] { return !reopened.isEmpty(); }, 60000));
  CHECK(reopened.first().at(0).toBool());
  CHECK(steps > 50);
}
