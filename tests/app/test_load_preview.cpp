// SPDX-License-Identifier: MIT
// First pixels while loading: the window shows the skeleton (ruler + lane headers) and the
// progress banner at once, the real trace replaces it, and Esc / Cancel bring the previous view
// back. Also the banner's text and the loader's status on a real (synthetic) file.
#include <catch2/catch.hpp>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSplitter>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app/main_window.h"
#include "app/trace_loader.h"
#include "tests/app/test_helpers.h"
#include "widgets/timeline/lane_layout.h"
#include "widgets/timeline/load_preview.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using npuscope::LoadStatus;
using npuscope::MainWindow;
using npuscope::TraceLoader;
using npuscope::test::sharedPath;
using npuscope::test::waitUntil;

namespace {

constexpr int kEvents = 600000;

// A ~60 MB trace: process_name/thread_name metadata for pid 7 ("Python", threads "main" and
// "worker") first, then kEvents X events on pid 7 tids 1..2 and pid 9 tid 5 (no metadata),
// ts 1000 + 3 i us. Big enough that reading it takes several preview periods (100 ms).
QString writeBigTrace(const QTemporaryDir& dir) {
  const QString file = dir.filePath(QStringLiteral("big.json"));
  const QByteArray head = R"({"ph":"M","name":"process_name","pid":7,"tid":0,"args":{"name":"Python"}},)" "\n"
                         R"({"ph":"M","name":"thread_name","pid":7,"tid":1,"args":{"name":"main"}},)" "\n"
                         R"({"ph":"M","name":"thread_name","pid":7,"tid":2,"args":{"name":"worker"}},)" "\n";
  const auto where = [](int i) {
    const int k = i % 3;
    QByteArray s(k == 2 ? R"("pid":9,"tid":5,"ts":)" : k == 1 ? R"("pid":7,"tid":2,"ts":)" : R"("pid":7,"tid":1,"ts":)");
    s += QByteArray::number(1000 + i * 3);
    return s;
  };
  if (!npuscope::test::writeBigTrace(file, head, kEvents, where,
                                     R"({"ph":"X","name":"last","pid":7,"tid":1,"ts":1000,"dur":1}])"))
    return {};
  return file;
}

bool loadAndWait(MainWindow& window, const QString& path) {
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(path);
  return waitUntil([&] { return !finished.isEmpty(); }) && finished.first().at(0).toBool();
}

QWidget* currentPage(const MainWindow& window) {
  QWidget* page = window.findChild<QStackedWidget*>()->currentWidget();
  // The timeline page is a splitter: A's timeline, and B's under it when comparing.
  if (auto* split = qobject_cast<QSplitter*>(page)) return split->widget(0);
  return page;
}

QStringList rowTitles(const npuscope::widgets::TimelineWidget& w) {
  QStringList out;
  for (const auto& r : w.layout().rows()) out << w.layout().rowTitle(r);
  return out;
}

bool skeletonHasLanes(const MainWindow& window) {
  const auto s = window.loadPreview()->skeleton();
  return s && !s->ranks.empty() && s->ranks[0].trace && s->ranks[0].trace->lanes.size() >= 3;
}

}  // namespace

TEST_CASE("loadStatusText says percent, bytes, phase and time left", "[load_preview]") {
  LoadStatus s;
  CHECK(MainWindow::loadStatusText(s) == QStringLiteral("Opening…"));

  s.phase = LoadStatus::Phase::Reading;
  s.fraction = 0.437;
  s.bytesRead = 1288490189;   // 1.2 x 1024^3
  s.totalBytes = 3006477107;  // 2.8 x 1024^3
  s.remainingSeconds = 2.2;   // shown rounded up
  CHECK(MainWindow::loadStatusText(s) == QStringLiteral("43% — 1.2 GB of 2.8 GB, ~3 s left"));
  s.remainingSeconds = -1;
  CHECK(MainWindow::loadStatusText(s) == QStringLiteral("43% — 1.2 GB of 2.8 GB, estimating the time left…"));

  s.phase = LoadStatus::Phase::Building;
  s.fraction = 0.8;
  s.bytesRead = s.totalBytes;
  s.remainingSeconds = 125;
  s.rankCount = 2;
  s.currentRank = 1;
  CHECK(MainWindow::loadStatusText(s) ==
        QStringLiteral("80% — building the timeline (2.8 GB read) · rank 2 of 2, ~2 min 5 s left"));

  s.phase = LoadStatus::Phase::Analysing;
  s.fraction = 0.999;
  s.remainingSeconds = 0.2;
  s.rankCount = 1;
  s.currentRank = 0;
  CHECK(MainWindow::loadStatusText(s) == QStringLiteral("99% — analysing, ~1 s left"));
  s.remainingSeconds = 0;
  CHECK(MainWindow::loadStatusText(s) == QStringLiteral("99% — analysing, almost done"));
}

TEST_CASE("First pixels: skeleton while loading, real trace after, previous view on cancel",
          "[load_preview][large]") {
  QTemporaryDir tmp;
  REQUIRE(tmp.isValid());
  const QString big = writeBigTrace(tmp);
  REQUIRE_FALSE(big.isEmpty());
  const qint64 bigBytes = QFileInfo(big).size();

  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1200, 700);
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));

  SECTION("cancel restores the previously shown profile and view") {
    REQUIRE(loadAndWait(window, sharedPath("cases/07-zero-duration/trace.json")));
    const auto before = window.profile();
    const auto all = before->range();
    const npuscope::core::TimeRange zoomed{all.start, all.start + all.duration() / 3};
    window.timeline()->setVisibleRange(zoomed);

    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openPath(big);
    // At once: the preview page with the banner, before any event was read.
    CHECK(currentPage(window) == window.loadPreview());
    CHECK(window.loadPreview()->titleText() == QStringLiteral("Loading big.json"));
    // Then the lanes of the tracks read so far, and the ruler from the first event on: the
    // first preview may come from the second parse part alone (its range then starts mid-file),
    // so wait until the first part has read its first event too.
    const auto previewStart = [&] { return window.loadPreview()->timeline()->viewport()->visibleRange().start; };
    REQUIRE(waitUntil([&] { return (skeletonHasLanes(window) && previewStart() == 1'000'000) || !finished.isEmpty(); },
                      60000));
    if (!finished.isEmpty()) {
      WARN("the load ended before the first preview (machine too fast)");
      return;
    }
    const QStringList titles = rowTitles(*window.loadPreview()->timeline());
    // Rank header, "Python" with "main" and "worker", then pid 9 without metadata.
    CHECK(titles.mid(0, 4) == QStringList{QStringLiteral("big.json"), QStringLiteral("Python"),
                                          QStringLiteral("main"), QStringLiteral("worker")});
    CHECK(titles.contains(QStringLiteral("Process 9")));
    const auto range = window.loadPreview()->timeline()->viewport()->visibleRange();
    // ts are 1000 + 3 i us: the ruler starts at 1000 us (1e6 ns) and ends inside the file's span.
    CHECK(range.start == 1'000'000);
    CHECK(range.end > range.start);
    CHECK(range.end <= (1000 + 3LL * (kEvents - 1) + 2) * 1000);
    const LoadStatus status = window.loader()->status();
    CHECK(status.totalBytes == static_cast<std::uint64_t>(bigBytes));
    CHECK(status.bytesRead <= status.totalBytes);

    QTest::keyClick(&window, Qt::Key_Escape);
    REQUIRE(finished.count() == 1);
    CHECK(finished.first().at(1).toString() == QStringLiteral("cancelled"));
    // The previous profile, page and zoom are back, and the skeleton is gone.
    CHECK(currentPage(window) == window.timeline());
    CHECK(window.profile() == before);
    CHECK(window.timeline()->profile() == before);
    CHECK(window.timeline()->viewport()->visibleRange() == zoomed);
    CHECK_FALSE(window.loadPreview()->skeleton());
    // The worker winds down on its own (and frees what it read).
    CHECK(waitUntil([] { return TraceLoader::runningWorkers() == 0; }, 30000));
  }

  SECTION("cancel without a previous profile shows the start page") {
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openPath(big);
    CHECK(currentPage(window) == window.loadPreview());
    auto* cancel = window.loadPreview()->findChild<QWidget*>(QStringLiteral("LoadCancel"));
    REQUIRE(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);
    REQUIRE(finished.count() == 1);
    CHECK(finished.first().at(1).toString() == QStringLiteral("cancelled"));
    CHECK(currentPage(window)->objectName() == QStringLiteral("StartPage"));
    CHECK_FALSE(window.profile());
    CHECK(waitUntil([] { return TraceLoader::runningWorkers() == 0; }, 30000));
  }

  SECTION("a finished load replaces the skeleton with the real trace") {
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    std::vector<double> fractions;
    std::vector<int> phases;
    QObject::connect(window.loader(), &TraceLoader::progressChanged, [&](double f) {
      fractions.push_back(f);
      if (window.loader()->isLoading()) phases.push_back(static_cast<int>(window.loader()->status().phase));
    });
    window.openPath(big);
    REQUIRE(waitUntil([&] { return !finished.isEmpty(); }, 120000));
    REQUIRE(finished.first().at(0).toBool());
    CHECK(currentPage(window) == window.timeline());
    CHECK_FALSE(window.loadPreview()->skeleton());
    REQUIRE(window.profile());
    // 3 lanes: pid 7 tids 1 and 2, pid 9 tid 5.
    CHECK(window.profile()->ranks.at(0).trace->lanes.size() == 3);
    // Progress never goes back, ends at 1, and the phases come in order.
    REQUIRE_FALSE(fractions.empty());
    for (std::size_t i = 1; i < fractions.size(); ++i) CHECK(fractions[i] >= fractions[i - 1]);
    CHECK(fractions.back() == Approx(1.0));
    for (std::size_t i = 1; i < phases.size(); ++i) CHECK(phases[i] >= phases[i - 1]);
  }
}

TEST_CASE("TraceLoader attributes previews to their ranks, also after a rank that fails",
          "[load_preview][loader]") {
  // Three rank folders (numbered in folder order): r0 with pid 100, r1 with an empty
  // trace_view.json (fails, never previews), r2 with pid 200 and a thread name.
  QTemporaryDir tmp;
  REQUIRE(tmp.isValid());
  const auto writeRank = [&](const char* folder, const QByteArray& json) {
    const QString dir = tmp.filePath(QString::fromLatin1(folder) + QStringLiteral("/ASCEND_PROFILER_OUTPUT"));
    REQUIRE(QDir().mkpath(dir));
    QFile f(dir + QStringLiteral("/trace_view.json"));
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(json);
  };
  writeRank("r0_ascend_pt", R"([{"ph":"X","name":"a","pid":100,"tid":1,"ts":10,"dur":5}])");
  writeRank("r1_ascend_pt", "");
  writeRank("r2_ascend_pt", R"([{"ph":"M","name":"thread_name","pid":200,"tid":3,"args":{"name":"io"}},)"
                            R"({"ph":"X","name":"b","pid":200,"tid":3,"ts":20,"dur":5}])");
  TraceLoader loader;
  npuscope::LoadSnapshot last;
  QObject::connect(&loader, &TraceLoader::previewChanged, [&] { last = loader.snapshot(); });
  QSignalSpy loaded(&loader, &TraceLoader::loaded);
  QSignalSpy failed(&loader, &TraceLoader::failed);
  loader.load(tmp.path());
  REQUIRE(waitUntil([&] { return loaded.count() + failed.count() > 0; }));
  REQUIRE(loaded.count() == 1);
  REQUIRE(last.ranks.size() == 3);
  REQUIRE(last.previews.size() == 3);
  REQUIRE(last.previews[0]);
  REQUIRE(last.previews[0]->tracks.size() == 1);
  CHECK(last.previews[0]->tracks[0].pid == "100");
  CHECK(last.previews[0]->minTs == 10'000);  // 10 us
  CHECK_FALSE(last.previews[1]);
  REQUIRE(last.previews[2]);
  REQUIRE(last.previews[2]->tracks.size() == 1);
  CHECK(last.previews[2]->tracks[0].pid == "200");
  CHECK(last.previews[2]->tracks[0].threadName == "io");
  CHECK(last.previews[2]->minTs == 20'000);
  // After the load the loader forgets the snapshot.
  CHECK(loader.snapshot().ranks.empty());
}

TEST_CASE("First pixels review grabs", "[.][review-loading]") {
  // Hidden: NPUSCOPE_GRAB_DIR=/tmp NPUSCOPE_BIG_TRACE=/work/benchdata/trace_1g.json
  //         npuscope_app_tests "[review-loading]"
  // Grabs the window at the first preview with lanes, at 40% and in the build phase.
  const QByteArray dir = qgetenv("NPUSCOPE_GRAB_DIR");
  const QByteArray big = qgetenv("NPUSCOPE_BIG_TRACE");
  if (dir.isEmpty() || big.isEmpty()) return;
  const QString out = QFile::decodeName(dir);
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1600, 900);
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  QElapsedTimer clock;
  clock.start();
  // (t, shown fraction, remaining s, phase) at every progress update, to check the estimate.
  QFile log(out + QStringLiteral("/npuscope-loading-progress.csv"));
  REQUIRE(log.open(QIODevice::WriteOnly));
  log.write("t_s,fraction,remaining_s,phase\n");
  QObject::connect(window.loader(), &TraceLoader::progressChanged, [&](double f) {
    const LoadStatus st = window.loader()->status();
    log.write(QByteArray::number(clock.elapsed() / 1000.0, 'f', 3) + ',' + QByteArray::number(f, 'f', 4) + ',' +
              QByteArray::number(st.remainingSeconds, 'f', 2) + ',' + QByteArray::number(static_cast<int>(st.phase)) +
              '\n');
  });
  window.openPath(QFile::decodeName(big));
  window.grab().save(out + QStringLiteral("/npuscope-loading-0-start.png"));
  REQUIRE(waitUntil([&] { return skeletonHasLanes(window) || !finished.isEmpty(); }, 120000));
  WARN("first lanes after " << clock.elapsed() << " ms");
  window.grab().save(out + QStringLiteral("/npuscope-loading-1-first.png"));
  waitUntil([&] { return window.loader()->progress() >= 0.4 || !finished.isEmpty(); }, 120000);
  window.grab().save(out + QStringLiteral("/npuscope-loading-2-mid.png"));
  waitUntil([&] { return window.loader()->status().phase == LoadStatus::Phase::Building || !finished.isEmpty(); },
            120000);
  waitUntil([] { return false; }, 300);
  window.grab().save(out + QStringLiteral("/npuscope-loading-3-build.png"));
  REQUIRE(waitUntil([&] { return !finished.isEmpty(); }, 300000));
  waitUntil([] { return false; }, 200);
  window.grab().save(out + QStringLiteral("/npuscope-loading-4-done.png"));
}
