// SPDX-License-Identifier: MIT
// Markers (widgets/timeline/markers.h) and the Markers dock (widgets/panels/markers_panel.h):
// editing, the settings round trip keyed by the canonical folder, the ruler and canvas drawing,
// the M / Shift+M keys. Offscreen Qt; the pixel positions are computed from the view by hand
// (x = header width + (t - view.start) / view.duration * canvas width).
#include <QCursor>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>

#include "core/query/lod.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/panels/markers_panel.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/markers.h"
#include "widgets/timeline/time_ruler.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;
using npuscope::testing::kBase;
using widgets::Marker;
using widgets::MarkerList;

TEST_CASE("a marker list adds, renames, recolours and deletes with one signal each", "[markers]") {
  MarkerList list;
  QSignalSpy changed(&list, &MarkerList::changed);
  CHECK(list.addPoint(kBase + 100) == 0);
  CHECK(list.addRange({kBase + 200, kBase + 500}, QStringLiteral("warm-up")) == 1);
  CHECK(changed.count() == 2);
  REQUIRE(list.size() == 2);
  CHECK(list.markers()[0].name == QStringLiteral("Marker 1"));
  CHECK_FALSE(list.markers()[0].isRange());
  CHECK(list.markers()[1].isRange());
  CHECK(list.markers()[1].end - list.markers()[1].start == 300);
  // Default colours come in turn from the table.
  CHECK(list.markers()[0].color == MarkerList::kDefaultColors[0]);
  CHECK(list.markers()[1].color == MarkerList::kDefaultColors[1]);
  CHECK(list.rename(0, QStringLiteral("slow step")));
  CHECK_FALSE(list.rename(0, QStringLiteral("slow step")));  // unchanged: no signal
  CHECK(list.recolor(1, 0xff123456));
  CHECK_FALSE(list.recolor(7, 0xff123456));
  CHECK(changed.count() == 4);
  CHECK(list.remove(0));
  CHECK_FALSE(list.remove(-1));
  REQUIRE(list.size() == 1);
  CHECK(list.markers()[0].name == QStringLiteral("warm-up"));
  CHECK(list.markers()[0].color == 0xff123456u);
  // An empty range is a point.
  list.addRange({kBase + 9, kBase + 9});
  CHECK_FALSE(list.markers()[1].isRange());
}

TEST_CASE("markers are saved in the settings per canonical folder, never in the folder", "[markers]") {
  QTemporaryDir tmp;
  REQUIRE(tmp.isValid());
  const QString folder = tmp.path() + QStringLiteral("/run_ascend_pt");
  REQUIRE(QDir().mkpath(folder));
  REQUIRE(QFile::link(folder, tmp.path() + QStringLiteral("/link_to_run")));
  QSettings settings(tmp.path() + QStringLiteral("/settings.ini"), QSettings::IniFormat);

  std::vector<Marker> saved{{QStringLiteral("step 3 stall"), 0xff0072b2, kBase + 123, kBase + 123},
                            {QStringLiteral("allreduce, 名字"), 0xffcc79a7, kBase + 1000, kBase + 4000}};
  widgets::saveMarkers(settings, folder, saved);
  settings.sync();
  // Same folder by another spelling (a symlink, a trailing "/.") finds the same markers.
  CHECK(widgets::loadMarkers(settings, tmp.path() + QStringLiteral("/link_to_run")) == saved);
  CHECK(widgets::loadMarkers(settings, folder + QStringLiteral("/.")) == saved);
  CHECK(widgets::markersSettingsKey(folder) == widgets::markersSettingsKey(tmp.path() + QStringLiteral("/link_to_run")));
  // Another folder has none.
  CHECK(widgets::loadMarkers(settings, tmp.path()).empty());
  // Nothing was written into the profiling folder.
  CHECK(QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty());
  // A new QSettings on the same file reads them back (the INI text round trip).
  {
    QSettings again(tmp.path() + QStringLiteral("/settings.ini"), QSettings::IniFormat);
    CHECK(widgets::loadMarkers(again, folder) == saved);
  }
  // An entry with a broken time is skipped, the others kept.
  {
    QVariantList list = settings.value(widgets::markersSettingsKey(folder) + QStringLiteral("/list")).toList();
    QVariantMap bad = list[0].toMap();
    bad[QStringLiteral("start")] = QStringLiteral("12x");
    list.prepend(bad);
    settings.setValue(widgets::markersSettingsKey(folder) + QStringLiteral("/list"), list);
    CHECK(widgets::loadMarkers(settings, folder) == saved);
  }
  // Saving none removes the entry.
  widgets::saveMarkers(settings, folder, {});
  CHECK(widgets::loadMarkers(settings, folder).empty());
  CHECK_FALSE(settings.contains(widgets::markersSettingsKey(folder) + QStringLiteral("/list")));
}

TEST_CASE("markers are drawn on the ruler and over the lanes", "[markers]") {
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  const QSize size(800, 300);
  // The fitted view is [kBase, kBase + 10000); a point at 2500 ns and a range [6000, 8000).
  w.markers()->addPoint(kBase + 2500, QStringLiteral("p"));
  w.markers()->recolor(0, 0xff00c000);
  w.markers()->addRange({kBase + 6000, kBase + 8000}, QStringLiteral("r"));
  w.markers()->recolor(1, 0xffc00000);
  const QImage img = w.renderToImage(size, 1.0);
  const int canvasW = size.width() - w.headerWidth();
  const auto view = w.viewport()->visibleRange();
  REQUIRE(view == core::TimeRange{kBase, kBase + 10'000});
  // x of the point: 2500 / 10000 of the canvas width, floored (a 1 px line).
  const int xp = w.headerWidth() + static_cast<int>(std::floor(core::timeToX(kBase + 2500, view, canvasW)));
  // Bottom of the canvas, below every lane (an empty background): the marker line is there.
  const int yEmpty = size.height() - 5;
  CHECK(img.pixelColor(xp, yEmpty).rgb() == QColor(0, 0xc0, 0).rgb());
  CHECK(img.pixelColor(xp + 3, yEmpty).rgb() != QColor(0, 0xc0, 0).rgb());
  // On the ruler: the flag right of the line, in the marker's colour (top rows of the ruler).
  CHECK(img.pixelColor(xp + 3, 2).rgb() == QColor(0, 0xc0, 0).rgb());
  // The range: a red bar across the top of the ruler from 6000 to 8000 ns, and a faint red band
  // over the lanes (red above green and blue in the middle of the band).
  const int xr = w.headerWidth() + static_cast<int>(core::timeToX(kBase + 7000, view, canvasW));
  CHECK(img.pixelColor(xr, 2).rgb() == QColor(0xc0, 0, 0).rgb());
  const QColor band = img.pixelColor(xr, yEmpty);
  CHECK(band.red() > band.green() + 10);
  const int xOutside = w.headerWidth() + static_cast<int>(core::timeToX(kBase + 9500, view, canvasW));
  const QColor outside = img.pixelColor(xOutside, yEmpty);
  CHECK(std::abs(outside.red() - outside.green()) <= 2);  // the grey/white background, no tint
  // The pass is installed and named.
  bool found = false;
  for (const auto& p : w.canvas()->renderPasses()) found = found || std::string(p->name()) == "markers";
  CHECK(found);
}

TEST_CASE("M adds a marker at the cursor, Shift+M one over the time selection", "[markers]") {
  widgets::TimelineWidget w;
  w.resize(1000, 400);
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  // The mouse a quarter of the way across the canvas: 2500 ns into the 10 us view (within a px).
  w.show();
  REQUIRE(QTest::qWaitForWindowExposed(&w));
  const int canvasW = w.canvas()->width();
  QCursor::setPos(w.canvas()->mapToGlobal(QPoint(canvasW / 4, 5)));
  QTest::keyClick(w.canvas(), Qt::Key_M);
  REQUIRE(w.markers()->size() == 1);
  const double nsPerPx = 10'000.0 / canvasW;
  INFO("cursor " << w.canvas()->mapFromGlobal(QCursor::pos()).x() << " of " << canvasW);
  CHECK(std::abs(static_cast<double>(w.markers()->markers()[0].start - (kBase + 2500))) <= 2 * nsPerPx);
  // Without a time selection Shift+M adds nothing.
  QTest::keyClick(w.canvas(), Qt::Key_M, Qt::ShiftModifier);
  CHECK(w.markers()->size() == 1);
  w.viewport()->setSelection({kBase + 1000, kBase + 3000});
  QTest::keyClick(w.canvas(), Qt::Key_M, Qt::ShiftModifier);
  REQUIRE(w.markers()->size() == 2);
  CHECK(w.markers()->markers()[1].start == kBase + 1000);
  CHECK(w.markers()->markers()[1].end == kBase + 3000);
  // revealMarker shows the range with a tenth of its 2000 ns on each side.
  w.revealMarker(1);
  CHECK(w.viewport()->visibleRange() == core::TimeRange{kBase + 800, kBase + 3200});
}

TEST_CASE("the Markers dock lists, jumps to, renames and deletes markers", "[markers]") {
  widgets::ViewState state;
  state.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  MarkerList markers;
  markers.addPoint(kBase + 2000, QStringLiteral("first"));
  markers.addRange({kBase + 2000, kBase + 4500}, QStringLiteral("second"));
  widgets::MarkersPanel panel(&state, &markers);
  QTreeWidget* list = panel.list();
  REQUIRE(list->topLevelItemCount() == 2);
  CHECK(list->topLevelItem(0)->text(0) == QStringLiteral("first"));
  // Times relative to the profile start (kBase): 2 us; the range lasts 2.5 us.
  CHECK(list->topLevelItem(0)->text(1) == QStringLiteral("2 us"));
  CHECK(list->topLevelItem(1)->text(2) == QStringLiteral("2.5 us"));
  QSignalSpy activated(&panel, &widgets::MarkersPanel::markerActivated);
  panel.resize(500, 300);
  panel.show();
  REQUIRE(QTest::qWaitForWindowExposed(&panel));
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->topLevelItem(1)).center());
  REQUIRE(activated.count() >= 1);
  CHECK(activated.last().at(0).toInt() == 1);
  // Renaming in place renames the marker.
  list->topLevelItem(1)->setText(0, QStringLiteral("all-reduce wait"));
  CHECK(markers.markers()[1].name == QStringLiteral("all-reduce wait"));
  // Delete removes the current one.
  list->setCurrentItem(list->topLevelItem(0));
  panel.deleteCurrent();
  REQUIRE(markers.size() == 1);
  CHECK(markers.markers()[0].name == QStringLiteral("all-reduce wait"));
  CHECK(list->topLevelItemCount() == 1);
  // Edits made elsewhere (recolouring) show at once.
  markers.recolor(0, 0xff00ff00);
  CHECK(list->topLevelItemCount() == 1);
}

TEST_CASE("marker names sit in a band above the ruler's tick labels, never over them", "[markers]") {
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  const QSize size(800, 300);
  const int plainHeight = w.rulerHeight();
  CHECK(plainHeight == widgets::TimeRuler::kHeight);
  const QImage plain = w.renderToImage(size, 1.0);
  // A point marker with a long name right at the first major tick of the fitted view
  // [kBase, kBase + 10000): before the fix its flag covered that tick's label.
  const auto view = w.viewport()->visibleRange();
  const int canvasW = size.width() - w.headerWidth();
  const core::Ticks ticks = widgets::relativeTicks(view, canvasW, kBase);
  REQUIRE(ticks.major.size() >= 2);
  w.markers()->addPoint(ticks.major[1], QStringLiteral("a marker with a rather long name"));
  w.markers()->recolor(0, 0xff00c000);
  const int band = w.rulerHeight() - plainHeight;
  CHECK(band > 8);  // one line of text
  const QImage marked = w.renderToImage(size, 1.0);
  const int xLine = w.headerWidth() + static_cast<int>(std::floor(core::timeToX(ticks.major[1], view, canvasW)));
  // The ticks and their labels (the bottom kHeight rows of the ruler) are pixel for pixel those
  // of the ruler without the marker, except the marker's 1 px line.
  long long differing = 0;
  for (int y = 0; y < plainHeight; ++y)
    for (int x = w.headerWidth(); x < size.width(); ++x)
      if (x != xLine && plain.pixel(x, y) != marked.pixel(x, y + band)) ++differing;
  CHECK(differing == 0);
  // The flag is in the band, in the marker's colour, right of the line.
  CHECK(marked.pixelColor(xLine + 3, 2).rgb() == QColor(0, 0xc0, 0).rgb());
  // Removing the last marker gives the rows back.
  w.markers()->clear();
  CHECK(w.rulerHeight() == plainHeight);
}
