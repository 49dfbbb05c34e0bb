// SPDX-License-Identifier: MIT
#include "app/html_export.h"

#include <algorithm>

#include <QBuffer>
#include <QCoreApplication>
#include <QDate>
#include <QLocale>
#include <QSaveFile>
#include <QTranslator>

#include "core/base/time_format.h"
#include "widgets/export/timeline_export.h"
#include "widgets/timeline/timeline_widget.h"

namespace npuscope {

namespace {

constexpr int kWidth = 1400;

std::string pngDataUri(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  // Qt's PNG writer: quality 0 is the strongest zlib level (QImageWriter::setCompression is not
  // the PNG handler's knob: with it the image was stored uncompressed, 4 bytes a pixel).
  if (!image.save(&buffer, "PNG", 0)) return {};
  return "data:image/png;base64," + bytes.toBase64().toStdString();
}

}  // namespace

std::vector<core::HtmlImage> timelineImages(const std::shared_ptr<const core::Profile>& profile, int bubbles,
                                            const QString& prefix) {
  std::vector<core::HtmlImage> out;
  if (!profile) return out;
  widgets::TimelineWidget timeline;
  timeline.resize(kWidth, 700);
  timeline.setProfile(profile);
  timeline.setDeviceFirst(true);  // as the window and `screenshot` show it
  timeline.fitAll();
  widgets::TimelineExportOptions options;
  options.range = widgets::TimelineExportOptions::Range::Whole;
  options.viewSize = QSize(kWidth, 700);
  const widgets::TimelineExport whole = widgets::exportTimelineImage(timeline, options);
  if (whole.ok())
    out.push_back({QString(prefix + QCoreApplication::translate("npuscope", "The whole capture")).toStdString(),
                   QCoreApplication::translate("npuscope", "Every rank's device lanes first, as the window shows them.").toStdString(),
                   pngDataUri(whole.image)});
  int rank = -1;
  for (std::size_t i = 0; i < profile->ranks.size() && rank < 0; ++i)
    if (profile->ranks[i].analysis && !profile->ranks[i].analysis->devices.empty()) rank = static_cast<int>(i);
  for (int n = 0; rank >= 0 && n < bubbles; ++n) {
    const core::Bubble* b = timeline.bubble(rank, 0, n);
    if (!b) break;
    if (b->after.valid()) timeline.selectSlice(rank, b->after);
    timeline.setSelectedBubble(rank, 0, n);
    timeline.setChainHighlight(rank, b->chain);
    timeline.zoomToBubble(rank, 0, n, 0.25);
    std::vector<core::SliceRef> slices{b->after};
    for (const core::ChainLink& link : b->chain.links) slices.push_back(link.slice);
    // As `screenshot --bubble`: as tall as the chain's lanes need (an unfolded Python stack can
    // be 40 rows), so that its CANN and device rows are in the image; at most 1600 px.
    timeline.resize(kWidth, 600);
    int height = 600;
    const int needed = timeline.focusLanes(rank, slices, height - timeline.rulerHeight());
    if (needed > height - timeline.rulerHeight()) {
      height = std::min(1600, needed + timeline.rulerHeight() + 4);
      timeline.resize(kWidth, height);
      timeline.focusLanes(rank, slices, height - timeline.rulerHeight());
    }
    widgets::TimelineExportOptions zoomed;
    zoomed.viewSize = QSize(kWidth, height);
    const widgets::TimelineExport image = widgets::exportTimelineImage(timeline, zoomed);
    if (!image.ok()) continue;
    out.push_back({QString(prefix + QCoreApplication::translate("npuscope", "Bubble %1: %2").arg(n + 1).arg(
                               QString::fromStdString(core::formatDuration(b->range.duration()))))
                       .toStdString(),
                   QCoreApplication::translate("npuscope", "The gap, the task that ends it and its dispatch chain highlighted.")
                       .toStdString(),
                   pngDataUri(image.image)});
  }
  return out;
}

core::HtmlMeta htmlMeta() {
  core::HtmlMeta m;
  m.version = QCoreApplication::applicationVersion().toStdString();
  m.date = QDate::currentDate().toString(Qt::ISODate).toStdString();
  // The translation installed by --lang names its language ("zh_CN" -> "zh-CN").
  const QString language = QCoreApplication::translate("npuscope", "en", "the HTML lang attribute of this translation");
  m.lang = QString(language).replace(QLatin1Char('_'), QLatin1Char('-')).toStdString();
  return m;
}

QString writeHtmlFile(const QString& file, const std::string& html) {
  QSaveFile out(file);
  if (!out.open(QIODevice::WriteOnly) || out.write(html.data(), static_cast<qint64>(html.size())) != static_cast<qint64>(html.size()) ||
      !out.commit())
    return QCoreApplication::translate("npuscope", "cannot write %1: %2").arg(file, out.errorString());
  return {};
}

}  // namespace npuscope
