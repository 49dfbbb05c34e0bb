// SPDX-License-Identifier: MIT
// MainWindow and the shared view state: a dock bound to it with one line, the timeline
// publishing to it, the requests routed to the Top-Down handlers.
#include <catch2/catch.hpp>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QImage>
#include <QTreeWidget>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QSettings>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "app/app_support.h"
#include "app/main_window.h"
#include "tests/app/test_helpers.h"
#include "widgets/panels/chain_panel.h"
#include "widgets/panels/topdown_panel.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/markers.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"
#include "widgets/view_state.h"

using npuscope::MainWindow;
using npuscope::test::sharedPath;
using npuscope::test::waitUntil;
using npuscope::widgets::BubbleRef;
using npuscope::widgets::RankSliceRef;
using npuscope::widgets::ViewState;

namespace {

bool loadAndWait(MainWindow& window, const QString& path) {
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(path);
  if (!waitUntil([&] { return !finished.isEmpty(); })) return false;
  return finished.first().at(0).toBool();
}

// The smallest dock a new panel needs: it shows the selected slice's rank, from the view state.
class RankLabel : public QLabel {
 public:
  explicit RankLabel(ViewState* state) {
    connect(state, &ViewState::selectedSliceChanged, this,
            [this](RankSliceRef r) { setText(QString::number(r.rank)); });
  }
};

}  // namespace

TEST_CASE("MainWindow shares one view state between the timeline and the docks", "[window][view_state]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  ViewState* state = window.viewState();
  REQUIRE(state);
  auto* label = new RankLabel(state);
  QDockWidget* dock = window.addViewDock(label, QStringLiteral("Rank Probe"), QStringLiteral("RankProbeDock"));
  CHECK(dock->objectName() == QStringLiteral("RankProbeDock"));
  QMenu* view = window.menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
  REQUIRE(view);
  CHECK(view->actions().contains(dock->toggleViewAction()));

  REQUIRE(loadAndWait(window, sharedPath("corpus/ascend-pt-910b-l1-text-2rank")));
  CHECK(state->profile() == window.profile());
  CHECK(state->visibleRange() == window.timeline()->viewport()->visibleRange());

  // Bubble #1 of rank 0 (the Top-Down list's first row): the timeline marks it, the state has it,
  // and the dock sees the slice that ends it (rank 0).
  REQUIRE(window.activateBubble(0, 0, 0));
  CHECK(state->selectedBubble() == BubbleRef{0, 0, 0});
  CHECK(state->selectedSlice() == window.timeline()->selection());
  CHECK(state->selectedSlice().rank == 0);
  CHECK(label->text() == QStringLiteral("0"));

  // A dock's request goes where a Dispatch Chain click goes: the slice is selected, the bubble's
  // chain stays shown.
  const auto chainLinks = window.chainPanel()->chain().links.size();
  REQUIRE(chainLinks >= 2);
  const RankSliceRef first{0, window.chainPanel()->chain().links.front().slice};
  state->activateSlice(first);
  CHECK(window.timeline()->selection() == first);
  CHECK(state->selectedSlice() == first);
  CHECK(window.chainPanel()->chain().links.size() == chainLinks);

  // A request for a bubble does what a click in the bubble list does.
  state->activateBubble({0, 0, 1});
  CHECK(window.timeline()->selectedBubble() == BubbleRef{0, 0, 1});
}

namespace {

// Content rows of rank 0's device processes (Ascend Hardware, Overlap Analysis, Communication)
// whose process header ends below the visible canvas; empty when every one is on screen.
QStringList deviceHeadersBelowTheFold(const MainWindow& window) {
  const auto* timeline = window.timeline();
  const auto& layout = timeline->layout();
  const auto& trace = window.profile()->ranks[0].trace;
  const int bottom = timeline->verticalScroll() + timeline->canvas()->height();
  QStringList out;
  for (const auto& row : layout.rows()) {
    if (row.rank != 0 || row.kind != npuscope::widgets::LayoutRow::Kind::Process) continue;
    using R = npuscope::core::Process::Role;
    const R role = trace->processes[row.process].role;
    // npuscope's own Overlap Analysis of a .db export without OVERLAP_ANALYSIS counts too.
    const bool computedOverlap = trace->processes[row.process].name == "Overlap Analysis (computed by npuscope)";
    if (role != R::AscendHardware && role != R::OverlapAnalysis && role != R::Communication && !computedOverlap)
      continue;
    if (row.y + row.height > bottom) out << layout.processTitle(0, row.process);
  }
  return out;
}

}  // namespace

TEST_CASE("the first screen shows the device lanes of every corpus capture", "[window][first_screen]") {
  // The case: about 300 px of timeline (1.5x scaling on 1080p): a 1280 x 720 window.
  for (const char* capture : {"corpus/ascend-pt-910a-l0-text-2rank", "corpus/ascend-pt-910b-l0-text-2rank",
                              "corpus/ascend-pt-910b-l1-text-2rank", "corpus/ascend-pt-910a-db-2rank"}) {
    CAPTURE(capture);
    MainWindow window;
    window.setInteractiveErrors(false);
    window.resize(1280, 720);
    window.show();
    REQUIRE(loadAndWait(window, sharedPath(capture)));
    QApplication::processEvents();
    CAPTURE(window.timeline()->canvas()->height());
    CHECK(deviceHeadersBelowTheFold(window).isEmpty());
  }
}

TEST_CASE("F5 keeps the vertical scroll and the collapsed groups", "[window][reload]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1400, 900);
  window.show();
  const QString path = sharedPath("corpus/ascend-pt-910b-l1-text-2rank");
  REQUIRE(loadAndWait(window, path));
  auto* timeline = window.timeline();
  // Collapse rank 1 and unfold every deep lane of rank 0, then scroll down.
  const auto& rows = timeline->layout().rows();
  int rank1 = -1;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].kind == npuscope::widgets::LayoutRow::Kind::Rank && rows[i].rank == 1) rank1 = static_cast<int>(i);
  REQUIRE(rank1 > 0);
  auto state = timeline->expandState();
  state.ranks[1] = false;
  for (std::uint32_t l = 0; l < window.profile()->ranks[0].trace->lanes.size(); ++l) state.lanesFolded[{0, l}] = false;
  timeline->setExpandState(state);
  const int height = timeline->layout().totalHeight();
  timeline->setVerticalScroll(400);
  REQUIRE(timeline->verticalScroll() == 400);

  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.reload();
  REQUIRE(waitUntil([&] { return !finished.isEmpty(); }));
  REQUIRE(finished.first().at(0).toBool());
  CHECK(timeline->layout().totalHeight() == height);
  CHECK_FALSE(timeline->layout().isRankExpanded(1));
  CHECK(timeline->verticalScroll() == 400);

  // Opening (not reloading) starts fresh.
  QSignalSpy again(&window, &MainWindow::loadFinished);
  window.openPath(path);
  REQUIRE(waitUntil([&] { return !again.isEmpty(); }));
  CHECK(timeline->layout().isRankExpanded(1));
  CHECK(timeline->verticalScroll() == 0);
}

TEST_CASE("a window geometry larger than the screen is never restored nor saved", "[window][geometry]") {
  QSettings().remove(QStringLiteral("window/geometry"));
  QRect available;
  {
    MainWindow big;
    big.show();
    REQUIRE(big.screen());
    available = big.screen()->availableGeometry();
    big.resize(32767, available.height() * 3);
    QSettings().setValue(QStringLiteral("window/geometry"), big.saveGeometry());
    big.close();  // closing a too-large window drops the saved geometry
    CHECK_FALSE(QSettings().contains(QStringLiteral("window/geometry")));
  }
  {
    MainWindow sized;
    sized.show();
    sized.resize(32767, available.height() * 3);
    QSettings().setValue(QStringLiteral("window/geometry"), sized.saveGeometry());  // as an old version saved it
  }
  MainWindow restored;
  restored.show();
  QApplication::processEvents();
  CHECK(restored.frameGeometry().width() <= available.width());
  CHECK(restored.frameGeometry().height() <= available.height());
  QSettings().remove(QStringLiteral("window/geometry"));

  // fitInside: shrink to the screen, then move inside it.
  CHECK(npuscope::fitInside(QRect(-50, 10, 5000, 300), QRect(0, 0, 1920, 1080)) == QRect(0, 10, 1920, 300));
  CHECK(npuscope::fitInside(QRect(1800, 900, 400, 400), QRect(0, 0, 1920, 1080)) == QRect(1520, 680, 400, 400));
  CHECK(npuscope::fitInside(QRect(5, 5, 10, 10), QRect()) == QRect(5, 5, 10, 10));
}

TEST_CASE("selecting a slice with a 600 KB name does not widen the window", "[window][long_names]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1200, 800);
  window.show();
  REQUIRE(loadAndWait(window, sharedPath("cases/21-extremely-long-names/trace.json")));
  const auto& trace = *window.profile()->ranks[0].trace;
  // case.md: X [60,65] on lane Stream 7 has a 614400-character name: the longest of the 3.
  npuscope::core::SliceRef longest;
  std::size_t longestSize = 0;
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l)
    for (std::uint32_t i = 0; i < trace.lanes[l].sliceCount(); ++i)
      if (trace.sliceName({l, i}).size() > longestSize) {
        longestSize = trace.sliceName({l, i}).size();
        longest = {l, i};
      }
  REQUIRE(longestSize == 614400);
  window.timeline()->selectSlice(0, longest);
  QApplication::processEvents();
  CHECK(window.width() <= 1200);
  CHECK(window.minimumSizeHint().width() < 1200);
  CHECK(window.chainPanel()->minimumSizeHint().width() < 1200);
}

TEST_CASE("MainWindow keeps markers per folder in the settings and restores them on reopen", "[window][markers]") {
  const QString sample = QStringLiteral(NPUSCOPE_SOURCE_DIR "/resources/sample");
  const auto listing = [&] {
    QStringList out;
    QDirIterator it(sample, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) out << it.next();
    out.sort();
    return out;
  };
  const QStringList before = listing();
  npuscope::core::TimeNs start = 0;
  {
    MainWindow window;
    window.setInteractiveErrors(false);
    REQUIRE(loadAndWait(window, sample));
    auto* markers = window.timeline()->markers();
    markers->clear();
    start = window.viewState()->profile()->range().start;
    markers->addPoint(start + 1'000'000, QStringLiteral("first step starts"));
    markers->addRange({start + 2'000'000, start + 3'000'000}, QStringLiteral("slow part"));
    markers->recolor(1, 0xff009e73);
    // The dock pops up with the first marker and lists both.
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("MarkersDock"));
    REQUIRE(dock);
    CHECK_FALSE(dock->isHidden());
    auto* list = dock->findChild<QTreeWidget*>(QStringLiteral("MarkersList"));
    REQUIRE(list);
    CHECK(list->topLevelItemCount() == 2);
  }
  // Saved under the canonical folder path in the user's settings (the test's temporary config).
  QSettings settings;
  const QString key = npuscope::widgets::markersSettingsKey(sample);
  CHECK(settings.contains(key + QStringLiteral("/list")));
  {
    MainWindow window;
    window.setInteractiveErrors(false);
    REQUIRE(loadAndWait(window, sample));
    const auto& restored = window.timeline()->markers()->markers();
    REQUIRE(restored.size() == 2);
    CHECK(restored[0].name == QStringLiteral("first step starts"));
    CHECK(restored[0].start == start + 1'000'000);
    CHECK(restored[1].isRange());
    CHECK(restored[1].color == 0xff009e73u);
    window.timeline()->markers()->clear();
  }
  CHECK_FALSE(QSettings().contains(key + QStringLiteral("/list")));
  // npuscope never writes into the folder it reads.
  CHECK(listing() == before);
}

TEST_CASE("MainWindow: the flow menu is a colour legend, step rows select the device window", "[window][flows]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  REQUIRE(loadAndWait(window, QStringLiteral(NPUSCOPE_SOURCE_DIR "/resources/sample")));
  // Flow categories of the sample (a Python json count of its trace_view.json: HostToDevice 224,
  // async_npu 222, async_task_queue 192, fwdbwd 48 s/f events): one checkable action each, with a
  // swatch of the arrows' colour.
  QMenu* view = window.menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
  REQUIRE(view);
  QMenu* flows = nullptr;
  for (QMenu* m : window.findChildren<QMenu*>())
    for (QAction* a : m->actions())
      if (a->isCheckable() && a->data().toString() == QStringLiteral("async_npu")) flows = m;
  REQUIRE(flows);
  int swatches = 0;
  for (QAction* a : flows->actions()) {
    if (!a->isCheckable()) continue;
    REQUIRE_FALSE(a->icon().isNull());
    const QImage img = a->icon().pixmap(16, 16).toImage();
    CHECK(img.pixelColor(8, 8).rgb() ==
          QColor::fromRgb(npuscope::widgets::ColorPalette::flowCategoryColor(a->data().toString().toStdString())).rgb());
    ++swatches;
  }
  CHECK(swatches == 4);

  // A step row: the Top-Down panel gives the range its figures measure, which becomes the time selection.
  auto* topDown = window.findChild<npuscope::widgets::TopDownPanel*>();
  REQUIRE(topDown);
  const auto* shares = topDown->sharesModel();
  int stepRow = -1;
  for (int r = 0; r < shares->rowCount(); ++r)
    if (shares->stepAt(r) >= 0 && stepRow < 0) stepRow = r;
  REQUIRE(stepRow >= 0);
  const npuscope::core::TimeRange window2 = shares->selectionAt(stepRow);
  REQUIRE_FALSE(window2.empty());
  emit topDown->stepActivated(topDown->rank(), shares->stepAt(stepRow), window2);
  auto* timeline = window.timeline();
  CHECK(timeline->viewport()->selection() == window2);
  CHECK(timeline->viewport()->visibleRange().start <= window2.start);
  CHECK(timeline->viewport()->visibleRange().end >= window2.end);
  emit topDown->stepActivated(topDown->rank(), npuscope::widgets::TopDownPanel::kAllSteps, {});
  CHECK(timeline->viewport()->selection().empty());
}

TEST_CASE("the first window fits a 1920 x 1080 screen at a scale factor of 2", "[window][geometry]") {
  // At QT_SCALE_FACTOR=2 a 1920 x 1080 screen is 960 x 540 logical px (less a panel): the
  // window must be able to be that small with a capture loaded (the status bar names its long
  // path), and its first size is never larger than the screen it opens on. A first start: no
  // saved geometry nor dock layout (a layout saved by another test can make it wider).
  QSettings().remove(QStringLiteral("window/geometry"));
  QSettings().remove(QStringLiteral("window/state"));
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  REQUIRE(loadAndWait(window, sharedPath("corpus/ascend-pt-910b-l1-text-2rank")));
  QApplication::processEvents();
  const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
  CAPTURE(minimum.width(), minimum.height());
  CHECK(minimum.width() <= 960);
  CHECK(minimum.height() <= 540 - 40);
  REQUIRE(window.screen());
  const QRect available = window.screen()->availableGeometry();
  CAPTURE(available.width(), available.height());
  CHECK(window.width() <= std::max(available.width(), minimum.width()));
  CHECK(window.height() <= std::max(available.height(), minimum.height()));
}

TEST_CASE("the warnings action is grey without load warnings and orange with some", "[window][warnings]") {
  // The sign's fill, sampled below its apex (resources/icons/warnings.svg: a triangle from
  // (12, 3.5) to (3, 19.5) / (21, 19.5), the mark on x = 12): a grey has next to no saturation.
  const auto fillSaturation = [](const QAction* action) {
    const QImage image = action->icon().pixmap(QSize(48, 48)).toImage();
    return image.pixelColor(16, 34).hsvSaturation();
  };
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  // cases/21-extremely-long-names: 0 warnings (the status bar shows no count).
  REQUIRE(loadAndWait(window, sharedPath("cases/21-extremely-long-names")));
  CHECK(fillSaturation(window.warningsAction()) < 40);
  // The Level1 capture reads with load warnings (the audit's status bar: 277).
  REQUIRE(loadAndWait(window, sharedPath("corpus/ascend-pt-910b-l1-text-2rank")));
  CHECK(fillSaturation(window.warningsAction()) > 120);
}

TEST_CASE("W/S/A/D and Ctrl+0 reach the timeline from a dock, never from a text field", "[window][keys]") {
  // Issue 42 item 3: after a click in a dock the navigation keys did nothing until the timeline
  // was clicked again. Real key events, sent to the widget that has the focus.
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1400, 900);
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  REQUIRE(loadAndWait(window, QStringLiteral(NPUSCOPE_SOURCE_DIR "/resources/sample")));
  auto* vp = window.timeline()->viewport();
  const npuscope::core::TimeRange all = vp->visibleRange();
  // A dock's table has the focus: W zooms in, S out, D pans, Ctrl+0 fits all again.
  auto* dock = window.findChild<npuscope::widgets::TopDownPanel*>();
  REQUIRE(dock);
  QWidget* table = dock->sharesView();
  table->setFocus();
  QApplication::processEvents();
  REQUIRE(QApplication::focusWidget() == table);
  QTest::keyClick(table, Qt::Key_W);
  const npuscope::core::TimeRange zoomed = vp->visibleRange();
  CHECK(zoomed.duration() < all.duration());
  QTest::keyClick(table, Qt::Key_D);
  CHECK(vp->visibleRange().start > zoomed.start);
  QTest::keyClick(table, Qt::Key_S);
  CHECK(vp->visibleRange().duration() > zoomed.duration());
  QTest::keyClick(table, Qt::Key_0, Qt::ControlModifier);
  CHECK(vp->visibleRange() == all);
  // A text field keeps its letters: typing W there types a 'w' and leaves the view alone.
  auto* field = new QLineEdit(dock);
  field->show();
  field->setFocus();
  QApplication::processEvents();
  REQUIRE(QApplication::focusWidget() == field);
  QTest::keyClick(field, Qt::Key_W);
  CHECK(field->text() == QStringLiteral("w"));
  CHECK(vp->visibleRange() == all);
}
