// SPDX-License-Identifier: MIT
// MainWindow wiring: menus and shortcuts, loading into the timeline, errors, drop, settings.
#include <catch2/catch.hpp>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>

#include "app/main_window.h"
#include "app/trace_loader.h"
#include "tests/app/test_helpers.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using npuscope::MainWindow;
using npuscope::test::sharedPath;
using npuscope::test::waitUntil;

namespace {
QAction* findAction(const QWidget& window, const QString& text) {
  for (QAction* a : window.findChildren<QAction*>()) {
    QString t = a->text();
    t.remove(QLatin1Char('&'));
    if (t == text) return a;
  }
  return nullptr;
}

bool loadAndWait(MainWindow& window, const QString& path, QString* error = nullptr) {
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(path);
  if (!waitUntil([&] { return !finished.isEmpty(); })) return false;
  if (error) *error = finished.first().at(1).toString();
  return finished.first().at(0).toBool();
}
}  // namespace

TEST_CASE("MainWindow has the documented menus and shortcuts", "[window]") {
  MainWindow window;
  QStringList menus;
  for (QAction* a : window.menuBar()->actions()) menus << a->text().remove(QLatin1Char('&'));
  CHECK(menus == QStringList{QStringLiteral("File"), QStringLiteral("View"), QStringLiteral("Help")});

  const struct {
    const char* text;
    QKeySequence key;
  } expected[] = {
      {"Open Folder…", QKeySequence(Qt::CTRL | Qt::Key_O)},
      {"Open File…", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)},
      {"Reload", QKeySequence(Qt::Key_F5)},
      {"Fit All", QKeySequence(Qt::CTRL | Qt::Key_0)},
      {"Zoom to Selection", QKeySequence(Qt::SHIFT | Qt::Key_Z)},
      {"Keyboard Shortcuts", QKeySequence(Qt::Key_Question)},
  };
  for (const auto& e : expected) {
    INFO(e.text);
    QAction* action = findAction(window, QString::fromUtf8(e.text));
    REQUIRE(action);
    CHECK(action->shortcut() == e.key);
  }
  CHECK(findAction(window, QStringLiteral("Export Image…")));
  CHECK(findAction(window, QStringLiteral("Show Load Warnings…")));
  CHECK(findAction(window, QStringLiteral("Quit")));
  CHECK(findAction(window, QStringLiteral("About npuscope")));
  CHECK(window.acceptDrops());
  CHECK_FALSE(window.windowIcon().isNull());
  // View > Language names the system's language, and never shows empty brackets (the C locale of
  // a test machine has no language name: "System").
  auto* language = window.findChild<QMenu*>(QStringLiteral("LanguageMenu"));
  REQUIRE(language);
  REQUIRE(language->actions().size() == 3);
  const QString system = language->actions().front()->text();
  CHECK_FALSE(system.contains(QStringLiteral("()")));
  CHECK(system.startsWith(QStringLiteral("System")));
}

TEST_CASE("MainWindow loads a folder into the timeline and remembers it", "[window]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  const QString path = sharedPath("corpus/ascend-pt-910b-l1-text-2rank");
  QString error;
  REQUIRE(loadAndWait(window, path, &error));
  REQUIRE(window.profile());
  CHECK(window.profile()->ranks.size() == 2);
  CHECK(window.currentPath() == path);
  CHECK(window.windowTitle().contains(QStringLiteral("ascend-pt-910b-l1-text-2rank")));
  CHECK(window.centralWidget()->isVisible());
  CHECK(window.timeline()->isVisible());
  const QStringList recent = QSettings().value(QStringLiteral("paths/recent")).toStringList();
  REQUIRE_FALSE(recent.isEmpty());
  CHECK(recent.first() == QDir::cleanPath(path));

  SECTION("export writes PNG and SVG") {
    QTemporaryDir tmp;
    const QString png = tmp.filePath(QStringLiteral("t.png"));
    CHECK(window.exportScreenshot(png).isEmpty());
    CHECK_FALSE(QImage(png).isNull());
    const QString svg = tmp.filePath(QStringLiteral("t.svg"));
    CHECK(window.exportScreenshot(svg).isEmpty());
    QFile f(svg);
    REQUIRE(f.open(QIODevice::ReadOnly));
    CHECK(f.readAll().contains("<svg"));
    // Never into the profiling folder (the corpus folder itself here).
    const QString inside = path + QStringLiteral("/npuscope-export-test.png");
    CHECK(window.exportScreenshot(inside).contains(QStringLiteral("profiling folder")));
    CHECK_FALSE(QFile::exists(inside));
  }
  SECTION("reload keeps the profile path and the visible range") {
    const npuscope::core::TimeRange all = window.profile()->range();
    const npuscope::core::TimeRange zoomed{all.start + all.duration() / 4,
                                           all.start + all.duration() / 2};
    window.timeline()->setVisibleRange(zoomed);
    const npuscope::core::TimeRange before = window.timeline()->viewport()->visibleRange();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.reload();
    REQUIRE(waitUntil([&] { return !finished.isEmpty(); }));
    CHECK(finished.first().at(0).toBool());
    CHECK(window.currentPath() == path);
    CHECK(window.timeline()->viewport()->visibleRange() == before);
  }
  SECTION("Open Recent lists the loaded path") {
    QMenu* recent = nullptr;
    for (QMenu* m : window.findChildren<QMenu*>())
      if (m->title().remove(QLatin1Char('&')) == QStringLiteral("Open Recent")) recent = m;
    REQUIRE(recent);
    QMetaObject::invokeMethod(recent, "aboutToShow");
    REQUIRE_FALSE(recent->actions().isEmpty());
    CHECK(recent->actions().first()->statusTip() == QDir::toNativeSeparators(QDir::cleanPath(path)));
  }
}

TEST_CASE("MainWindow reports a missing path and keeps the previous profile", "[window]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  const QString good = sharedPath("cases/07-zero-duration/trace.json");
  REQUIRE(loadAndWait(window, good));
  QString error;
  CHECK_FALSE(loadAndWait(window, QStringLiteral("/nonexistent/trace_view.json"), &error));
  CHECK(error.contains(QStringLiteral("No such file or folder")));
  REQUIRE(window.profile());
  CHECK(window.currentPath() == good);
}

TEST_CASE("MainWindow opens a dropped folder", "[window]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  QMimeData mime;
  const QString path = sharedPath("cases/07-zero-duration");
  mime.setUrls({QUrl::fromLocalFile(path)});
  // Qt delivers a drop only to the widget that accepted the drag enter.
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &enter);
  CHECK(enter.isAccepted());
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &drop);
  CHECK(window.loader()->isLoading());
  REQUIRE(waitUntil([&] { return !finished.isEmpty(); }));
  CHECK(finished.first().at(0).toBool());
  CHECK(window.currentPath() == path);
}

TEST_CASE("MainWindow grabs render the loaded window", "[window][grab]") {
  // Also a handy way to look at the window: NPUSCOPE_GRAB_DIR=/tmp ctest -R grab
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1400, 800);
  window.show();
  REQUIRE(loadAndWait(window, sharedPath("corpus/ascend-pt-910b-l1-text-2rank")));
  const QByteArray dir = qgetenv("NPUSCOPE_GRAB_DIR");
  const QImage image = window.grab().toImage();
  CHECK(image.width() >= 1000);
  if (!dir.isEmpty()) image.save(QFile::decodeName(dir) + QStringLiteral("/npuscope-window.png"));

  // Select the first depth-0 slice of the busiest lane: the details panel follows.
  const auto& trace = *window.profile()->ranks.front().trace;
  std::uint32_t lane = 0;
  for (std::uint32_t i = 0; i < trace.lanes.size(); ++i)
    if (trace.lanes[i].sliceCount() > trace.lanes[lane].sliceCount()) lane = i;
  REQUIRE(trace.lanes[lane].sliceCount() > 0);
  window.timeline()->selectSlice(0, npuscope::core::SliceRef{lane, 0});
  CHECK(window.timeline()->selectedSlice().valid());
  const QImage selected = window.grab().toImage();
  if (!dir.isEmpty()) selected.save(QFile::decodeName(dir) + QStringLiteral("/npuscope-selected.png"));

  MainWindow empty;
  empty.resize(1000, 640);
  empty.show();
  const QImage start = empty.grab().toImage();
  CHECK_FALSE(start.isNull());
  if (!dir.isEmpty()) start.save(QFile::decodeName(dir) + QStringLiteral("/npuscope-start.png"));
}

TEST_CASE("MainWindow shortcuts reach their actions", "[window][keys]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  REQUIRE(loadAndWait(window, sharedPath("cases/07-zero-duration/trace.json")));
  auto* viewport = window.timeline()->viewport();
  const npuscope::core::TimeRange fit = viewport->visibleRange();
  const npuscope::core::TimeRange all = window.profile()->range();
  window.timeline()->setVisibleRange({all.start, all.start + all.duration() / 3});
  REQUIRE_FALSE(viewport->visibleRange() == fit);
  QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
  CHECK(viewport->visibleRange() == fit);

  const auto shortcutsShown = [] {
    for (QWidget* w : QApplication::topLevelWidgets())
      if (w->isVisible() && w->inherits("npuscope::widgets::ShortcutsDialog")) return true;
    return false;
  };
  // '?' as the offscreen platform reports it (X11 also offers Shift+? as a candidate).
  QTest::keyClick(&window, Qt::Key_Question);
  CHECK(shortcutsShown());
  for (QWidget* w : QApplication::topLevelWidgets())
    if (w->inherits("npuscope::widgets::ShortcutsDialog")) w->hide();
  REQUIRE_FALSE(shortcutsShown());
  QTest::keyClick(&window, Qt::Key_F1);
  CHECK(shortcutsShown());
}

TEST_CASE("MainWindow shows progress while loading (review grab)", "[.][review]") {
  // Hidden: NPUSCOPE_GRAB_DIR=/tmp NPUSCOPE_BIG_TRACE=big.json npuscope_app_tests "[review]"
  const QByteArray dir = qgetenv("NPUSCOPE_GRAB_DIR");
  const QByteArray big = qgetenv("NPUSCOPE_BIG_TRACE");
  if (dir.isEmpty() || big.isEmpty()) return;
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1400, 800);
  window.show();
  REQUIRE(loadAndWait(window, sharedPath("cases/07-zero-duration/trace.json")));
  window.openPath(QFile::decodeName(big));
  REQUIRE(waitUntil([&] { return window.loader()->progress() > 0.3; }, 60000));
  window.grab().save(QFile::decodeName(dir) + QStringLiteral("/npuscope-loading.png"));
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  REQUIRE(waitUntil([&] { return !finished.isEmpty(); }, 120000));
  waitUntil([] { return false; }, 300);
  window.grab().save(QFile::decodeName(dir) + QStringLiteral("/npuscope-big.png"));
}

TEST_CASE("MainWindow shows a clear message box when a load fails", "[window][error]") {
  MainWindow window;
  window.show();
  QString boxText;
  QString boxDetails;
  // The box is modal: inspect and close it from a timer while exec() runs.
  QTimer poll;
  poll.setInterval(20);
  QObject::connect(&poll, &QTimer::timeout, [&] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
      boxText = box->text();
      boxDetails = box->informativeText();
      if (const QByteArray dir = qgetenv("NPUSCOPE_GRAB_DIR"); !dir.isEmpty())
        box->grab().save(QFile::decodeName(dir) + QStringLiteral("/npuscope-error.png"));
      box->accept();
    }
  });
  poll.start();
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(QStringLiteral("/nonexistent/rank0_ascend_pt"));
  REQUIRE(waitUntil([&] { return !finished.isEmpty() && !boxText.isEmpty(); }, 10000));
  CHECK(boxText.contains(QStringLiteral("/nonexistent/rank0_ascend_pt")));
  CHECK(boxDetails.contains(QStringLiteral("No such file or folder")));
}
