// SPDX-License-Identifier: MIT
#pragma once
// Timeline markers: named, coloured points (a time) and ranges (a time span) the user places
// (M at the cursor, Shift+M for the time selection, or the canvas's context menu). They are drawn
// on the ruler (TimeRuler) and over the lanes (MarkersPass), listed in the Markers dock
// (panels/markers_panel.h), and kept per profile folder in the user's settings (QSettings, never
// in the profiling folder): saveMarkers / loadMarkers, keyed by the canonical folder path.

#include <QObject>
#include <QRectF>
#include <QRgb>
#include <QString>
#include <vector>

#include "core/base/types.h"
#include "widgets/timeline/render_pass.h"

class QSettings;

namespace npuscope::widgets {

/// One marker. Times are absolute ns (the profile's epoch, as every TimeNs). A point has
/// end == start; a range end > start.
struct Marker {
  QString name;
  QRgb color = 0xffd55e00;
  core::TimeNs start = 0;
  core::TimeNs end = 0;

  [[nodiscard]] bool isRange() const { return end > start; }
  friend bool operator==(const Marker& a, const Marker& b) {
    return a.name == b.name && a.color == b.color && a.start == b.start && a.end == b.end;
  }
};

/// The markers of the shown profile, in the order they were added. Emits changed() after every
/// edit. Owned by the TimelineWidget (TimelineWidget::markers()); the ruler, the canvas pass and
/// the Markers dock read it.
class MarkerList : public QObject {
  Q_OBJECT

 public:
  explicit MarkerList(QObject* parent = nullptr);

  [[nodiscard]] const std::vector<Marker>& markers() const { return m_markers; }
  [[nodiscard]] int size() const { return static_cast<int>(m_markers.size()); }

  /// Adds a point marker at `t`; an empty name gives "Marker N" (N = the new count). The colour
  /// cycles through kDefaultColors. Returns its index.
  int addPoint(core::TimeNs t, const QString& name = {});
  /// Adds a range marker over `range` (an empty range adds a point at range.start).
  int addRange(core::TimeRange range, const QString& name = {});
  /// Edits marker `i`; false (and no signal) when `i` is out of range.
  bool remove(int i);
  bool rename(int i, const QString& name);
  bool recolor(int i, QRgb color);
  /// Replaces every marker (e.g. loaded from the settings); emits changed().
  void setMarkers(std::vector<Marker> markers);
  void clear() { setMarkers({}); }

  /// The colours new markers take in turn (Okabe-Ito: vermillion, blue, bluish green, reddish
  /// purple, orange), readable on the light and the dark chrome.
  static constexpr QRgb kDefaultColors[] = {0xffd55e00, 0xff0072b2, 0xff009e73, 0xffcc79a7, 0xffe69f00};

 signals:
  void changed();

 private:
  std::vector<Marker> m_markers;
  int m_added = 0;  // markers added so far, for the default colour
};

/// The QSettings key of a folder's markers: "markers/" + the hex SHA-1 of its canonical path
/// (QFileInfo::canonicalFilePath, the absolute path when it does not exist), so that the same
/// folder reached through a symlink or a relative path finds the same markers.
[[nodiscard]] QString markersSettingsKey(const QString& folder);
/// Writes `markers` for `folder` into `settings` (an empty list removes the entry). Nothing is
/// written anywhere near the folder itself.
void saveMarkers(QSettings& settings, const QString& folder, const std::vector<Marker>& markers);
/// The markers saved for `folder`, or none. Entries with an unreadable time are skipped.
[[nodiscard]] std::vector<Marker> loadMarkers(QSettings& settings, const QString& folder);

/// Where a marker is drawn in a canvas of `widthPx` showing `view`: x0 == x1 for a point (its
/// line), else the band [x0, x1] (clamped to a little outside the canvas). `visible` is false
/// when it lies wholly outside the view.
struct MarkerGeometry {
  double x0 = 0, x1 = 0;
  bool visible = false;
};
[[nodiscard]] MarkerGeometry markerGeometry(const Marker& m, core::TimeRange view, double widthPx);

/// The markers over the lanes: a 1 px line per point, a tinted band with edges per range, in
/// the marker's colour (canvas space, the whole canvas height). Reads the list it is given.
class MarkersPass final : public TimelineRenderPass {
 public:
  explicit MarkersPass(const MarkerList* markers) : m_markers(markers) {}
  [[nodiscard]] const char* name() const override { return "markers"; }
  [[nodiscard]] Space space() const override { return Space::Canvas; }
  void paint(QPainter& p, const TimelineFrame& frame) override;

 private:
  const MarkerList* m_markers;
};

/// Paints the markers on the ruler (`size` is the ruler's): a 1 px line at each point over the
/// whole height, and in the band of the top `bandHeight` px (TimeRuler::markerBandHeight, above
/// the tick labels, which it never covers) a flag with the name at each point and a coloured bar
/// with the name over each range. bandHeight 0: the lines and range edges only, no names.
/// Used by TimeRuler::paintTo.
void paintRulerMarkers(QPainter& p, const MarkerList& markers, core::TimeRange view, QSize size, int bandHeight);

}  // namespace npuscope::widgets
