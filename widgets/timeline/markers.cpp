// SPDX-License-Identifier: MIT
#include "widgets/timeline/markers.h"

#include <QColor>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QPainter>
#include <QSettings>
#include <QVariantMap>
#include <algorithm>
#include <cmath>
#include <iterator>

#include "core/query/lod.h"

namespace npuscope::widgets {

using core::TimeNs;
using core::TimeRange;

MarkerList::MarkerList(QObject* parent) : QObject(parent) {}

int MarkerList::addPoint(TimeNs t, const QString& name) { return addRange({t, t}, name); }

int MarkerList::addRange(TimeRange range, const QString& name) {
  Marker m;
  m.start = range.start;
  m.end = std::max(range.start, range.end);
  m.name = name.isEmpty()
               ? QCoreApplication::translate("npuscope::widgets::Timeline", "Marker %1").arg(m_markers.size() + 1)
               : name;
  constexpr int kColors = static_cast<int>(std::size(kDefaultColors));
  m.color = kDefaultColors[m_added++ % kColors];
  m_markers.push_back(m);
  emit changed();
  return size() - 1;
}

bool MarkerList::remove(int i) {
  if (i < 0 || i >= size()) return false;
  m_markers.erase(m_markers.begin() + i);
  emit changed();
  return true;
}

bool MarkerList::rename(int i, const QString& name) {
  if (i < 0 || i >= size() || m_markers[static_cast<std::size_t>(i)].name == name) return false;
  m_markers[static_cast<std::size_t>(i)].name = name;
  emit changed();
  return true;
}

bool MarkerList::recolor(int i, QRgb color) {
  if (i < 0 || i >= size() || m_markers[static_cast<std::size_t>(i)].color == color) return false;
  m_markers[static_cast<std::size_t>(i)].color = color;
  emit changed();
  return true;
}

void MarkerList::setMarkers(std::vector<Marker> markers) {
  m_markers = std::move(markers);
  m_added = size();
  emit changed();
}

// ---------------------------------------------------------------------------------------------
// Settings

QString markersSettingsKey(const QString& folder) {
  const QFileInfo fi(folder);
  QString path = fi.canonicalFilePath();
  if (path.isEmpty()) path = QDir::cleanPath(fi.absoluteFilePath());
  const QByteArray hash = QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex();
  return QStringLiteral("markers/") + QString::fromLatin1(hash);
}

void saveMarkers(QSettings& settings, const QString& folder, const std::vector<Marker>& markers) {
  const QString key = markersSettingsKey(folder);
  if (markers.empty()) {
    settings.remove(key);
    return;
  }
  QVariantList list;
  for (const Marker& m : markers) {
    QVariantMap v;
    v[QStringLiteral("name")] = m.name;
    v[QStringLiteral("color")] = QColor::fromRgb(m.color).name(QColor::HexRgb);
    // As text: a QVariant of qlonglong round-trips through INI files as a string anyway.
    v[QStringLiteral("start")] = QString::number(m.start);
    v[QStringLiteral("end")] = QString::number(m.end);
    list << v;
  }
  settings.setValue(key + QStringLiteral("/path"), QFileInfo(folder).absoluteFilePath());
  settings.setValue(key + QStringLiteral("/list"), list);
}

std::vector<Marker> loadMarkers(QSettings& settings, const QString& folder) {
  std::vector<Marker> out;
  const QVariantList list = settings.value(markersSettingsKey(folder) + QStringLiteral("/list")).toList();
  for (const QVariant& item : list) {
    const QVariantMap v = item.toMap();
    bool okStart = false, okEnd = false;
    Marker m;
    m.start = v.value(QStringLiteral("start")).toString().toLongLong(&okStart);
    m.end = v.value(QStringLiteral("end")).toString().toLongLong(&okEnd);
    if (!okStart || !okEnd || m.end < m.start) continue;
    m.name = v.value(QStringLiteral("name")).toString();
    const QColor c(v.value(QStringLiteral("color")).toString());
    m.color = c.isValid() ? c.rgb() : MarkerList::kDefaultColors[0];
    out.push_back(m);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Drawing

MarkerGeometry markerGeometry(const Marker& m, TimeRange view, double widthPx) {
  MarkerGeometry g;
  if (view.empty() || !(widthPx > 0)) return g;
  if (m.isRange() ? (m.end <= view.start || m.start >= view.end) : (m.start < view.start || m.start > view.end))
    return g;
  g.visible = true;
  g.x0 = std::clamp(core::timeToX(m.start, view, widthPx), -2.0, widthPx + 2);
  g.x1 = m.isRange() ? std::clamp(core::timeToX(m.end, view, widthPx), -2.0, widthPx + 2) : g.x0;
  return g;
}

void MarkersPass::paint(QPainter& p, const TimelineFrame& f) {
  if (!m_markers) return;
  const double h = f.size.height();
  for (const Marker& m : m_markers->markers()) {
    const MarkerGeometry g = markerGeometry(m, f.view, f.widthPx);
    if (!g.visible) continue;
    const QColor c = QColor::fromRgb(m.color);
    if (m.isRange()) {
      QColor band = c;
      band.setAlpha(26);
      p.fillRect(QRectF(g.x0, 0, std::max(1.0, g.x1 - g.x0), h), band);
      QColor edge = c;
      edge.setAlpha(160);
      p.fillRect(QRectF(std::floor(g.x0), 0, 1, h), edge);
      p.fillRect(QRectF(std::floor(g.x1), 0, 1, h), edge);
    } else {
      p.fillRect(QRectF(std::floor(g.x0), 0, 1, h), c);
    }
  }
}

void paintRulerMarkers(QPainter& p, const MarkerList& markers, TimeRange view, QSize size, int bandHeight) {
  const double w = size.width();
  QFont f = p.font();
  const QFontMetricsF fm(f);
  const double labelH = std::min<double>(bandHeight, fm.height() + 2);
  for (const Marker& m : markers.markers()) {
    const MarkerGeometry g = markerGeometry(m, view, w);
    if (!g.visible) continue;
    const QColor c = QColor::fromRgb(m.color);
    const QColor text = QColor::fromRgb(QColor(c).lightness() > 150 ? 0xff16181d : 0xffffffff);
    if (m.isRange()) {
      // The range's edges down to the ticks, its bar with the name in the band.
      p.fillRect(QRectF(std::floor(g.x0), 0, 1, size.height()), c);
      p.fillRect(QRectF(std::floor(g.x1), 0, 1, size.height()), c);
      if (labelH <= 0) continue;
      const QRectF bar(g.x0, 0, std::max(2.0, g.x1 - g.x0), labelH);
      p.fillRect(bar, c);
      p.setPen(text);
      p.drawText(bar.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                 fm.elidedText(m.name, Qt::ElideRight, std::max(0.0, bar.width() - 5)));
    } else {
      const double x = std::floor(g.x0);
      p.fillRect(QRectF(x, 0, 1, size.height()), c);
      if (labelH <= 0) continue;
      const double tw = std::min(fm.horizontalAdvance(m.name) + 6, 220.0);
      const QRectF flag(x + 1, 0, tw, labelH);
      p.fillRect(flag, c);
      p.setPen(text);
      p.drawText(flag.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                 fm.elidedText(m.name, Qt::ElideRight, tw - 5));
    }
  }
}

}  // namespace npuscope::widgets
