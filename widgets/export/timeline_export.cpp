// SPDX-License-Identifier: MIT
#include "widgets/export/timeline_export.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFontInfo>
#include <QFontMetrics>
#include <QImageWriter>
#include <QPainter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QStringList>
#include <QSvgGenerator>
#include <algorithm>
#include <functional>
#include <set>
#include <utility>

#include "core/base/time_format.h"
#include "core/profile/profile.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/timeline_overlays.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

namespace npuscope::widgets {

namespace {

using core::TimeRange;
using Part = TimelineWidget::Part;

// The time range an export shows, or an empty range with `error` set.
TimeRange exportRange(const TimelineWidget& t, const TimelineExportOptions& o, QString* error) {
  const TimelineViewport* vp = t.viewport();
  switch (o.range) {
    case TimelineExportOptions::Range::Visible: return vp->visibleRange();
    case TimelineExportOptions::Range::Whole: return vp->traceRange();
    case TimelineExportOptions::Range::Custom:
      if (o.customRange.empty()) *error = QCoreApplication::translate("npuscope::widgets::TimelineExport",
          "The time range to export is empty.");
      return o.customRange;
    case TimelineExportOptions::Range::Selection: break;
  }
  if (vp->hasSelection()) return vp->selection();
  // A bubble or a slice: it with a tenth of its length of context on each side.
  TimeRange r;
  bool found = false;
  const BubbleRef b = t.selectedBubble();
  if (const core::Bubble* bubble = t.bubble(b.rank, b.device, b.bubble)) {
    r = bubble->range;
    found = true;
  } else if (t.selectedRank() >= 0 && t.selectedSlice().valid() && t.profile()) {
    const auto& rank = t.profile()->ranks[static_cast<std::size_t>(t.selectedRank())];
    if (rank.trace) {
      r = rank.trace->sliceRange(t.selectedSlice());
      found = true;
    }
  }
  if (!found) {
    *error = QCoreApplication::translate("npuscope::widgets::TimelineExport",
        "Nothing is selected: select a time range (Shift+drag), a bubble or a slice first.");
    return {};
  }
  const core::TimeNs pad = std::max<core::TimeNs>(100, r.duration() / 10);
  return {r.start - pad, r.end + pad};
}

// The lanes of the selection, as (rank, lane) pairs.
std::set<std::pair<int, std::uint32_t>> selectedLanes(const TimelineWidget& t) {
  std::set<std::pair<int, std::uint32_t>> lanes;
  const auto profile = t.profile();
  if (!profile) return lanes;
  if (t.selectedRank() >= 0 && t.selectedSlice().valid()) lanes.insert({t.selectedRank(), t.selectedSlice().lane});
  if (t.chainRank() >= 0)
    for (const core::ChainLink& l : t.chainHighlight().links)
      if (l.slice.valid()) lanes.insert({t.chainRank(), l.slice.lane});
  if (t.highlightedSlicesRank() >= 0)
    for (const core::SliceRef& s : t.highlightedSlices())
      if (s.valid()) lanes.insert({t.highlightedSlicesRank(), s.lane});
  const BubbleRef b = t.selectedBubble();
  if (t.bubble(b.rank, b.device, b.bubble)) {
    const auto& trace = profile->ranks[static_cast<std::size_t>(b.rank)].trace;
    if (trace)
      for (std::uint32_t l = 0; l < trace->lanes.size(); ++l)
        if (trace->lanes[l].process < trace->processes.size() &&
            isDeviceProcess(trace->processes[trace->lanes[l].process]))
          lanes.insert({b.rank, l});
  }
  return lanes;
}

// Every rank and process expanded, every lane unfolded.
LaneLayout::ExpandState unfoldedState(const core::Profile& profile) {
  LaneLayout::ExpandState state;
  for (std::size_t r = 0; r < profile.ranks.size(); ++r) {
    const core::Trace* trace = profile.ranks[r].trace.get();
    if (!trace) continue;
    const int rank = static_cast<int>(r);
    state.ranks[rank] = true;
    for (std::uint32_t p = 0; p < trace->processes.size(); ++p) state.processes[{rank, p}] = true;
    for (std::uint32_t l = 0; l < trace->lanes.size(); ++l) state.lanesFolded[{rank, l}] = false;
  }
  return state;
}

// Sets the timeline up for an export and back when it goes out of scope.
class ExportScope {
 public:
  ExportScope(TimelineWidget& t, const TimelineExportOptions& o) : m_t(t) {
    m_savedRange = t.viewport()->visibleRange();
    m_savedScroll = t.verticalScroll();
    if (!t.profile()) {
      error = QCoreApplication::translate("npuscope::widgets::TimelineExport",
          "Nothing to export: no profile is loaded.");
      return;
    }
    range = exportRange(t, o, &error);
    if (!error.isEmpty()) return;
    if (range != m_savedRange) {
      const QSignalBlocker blocker(t.viewport());
      t.viewport()->setVisibleRange(range, false);
      range = t.viewport()->visibleRange();  // as clamped
    }
    using Lanes = TimelineExportOptions::Lanes;
    if (o.lanes != Lanes::Visible) {
      // Every level and series of the exported lanes: folded deep stacks and collapsed
      // processes (counters) open, as a report expects; the user's choices come back after.
      m_savedExpand = t.expandState();
      m_unfolded = true;
      t.setExpandState(unfoldedState(*t.profile()));
    }
    if (o.lanes == Lanes::Selected) {
      const auto lanes = selectedLanes(t);
      if (lanes.empty()) {
        error = QCoreApplication::translate("npuscope::widgets::TimelineExport",
            "No lane is selected: select a slice, a bubble or a dispatch chain first.");
        return;
      }
      m_filtered = true;
      t.setLaneFilter([lanes](int rank, std::uint32_t lane, std::uint32_t) { return lanes.count({rank, lane}) > 0; });
    } else if (o.lanes == Lanes::Pattern) {
      const QRegularExpression re(
          QRegularExpression::wildcardToRegularExpression(o.lanePattern,
                                                          QRegularExpression::UnanchoredWildcardConversion),
          QRegularExpression::CaseInsensitiveOption);
      const LaneLayout& layout = t.layout();
      m_filtered = true;
      t.setLaneFilter([re, &layout](int rank, std::uint32_t lane, std::uint32_t counter) {
        // The whole path, so a process name matches too ("*allocator*": every series of the
        // "Memory allocator" counter process).
        const QString text = lane != core::kInvalidIndex ? layout.lanePath(rank, lane) : layout.counterPath(rank, counter);
        return re.match(text).hasMatch();
      });
      if (t.layout().rows().empty()) {
        error = QCoreApplication::translate("npuscope::widgets::TimelineExport",
            "No lane matches '%1'.").arg(o.lanePattern);
        return;
      }
    }
    const int width = std::max(64, o.viewSize.width());
    if (o.lanes == Lanes::Visible) {
      size = QSize(width, std::max(t.rulerHeight() + 1, o.viewSize.height()));
      scrollY = m_savedScroll;
    } else {
      const int h = t.rulerHeight() + std::max(1, t.layout().totalHeight());
      size = QSize(width, std::clamp(h, t.rulerHeight() + 1, std::max(t.rulerHeight() + 1, o.maxHeight)));
      scrollY = 0;
    }
  }
  ~ExportScope() {
    if (m_filtered) m_t.setLaneFilter({});
    if (m_unfolded) m_t.setExpandState(m_savedExpand);
    if (m_t.viewport()->visibleRange() != m_savedRange) {
      const QSignalBlocker blocker(m_t.viewport());
      m_t.viewport()->setVisibleRange(m_savedRange, false);
    }
    m_t.setVerticalScroll(m_savedScroll);
  }
  ExportScope(const ExportScope&) = delete;
  ExportScope& operator=(const ExportScope&) = delete;

  QString error;
  TimeRange range;
  QSize size;  // the composite without the caption, logical px
  int scrollY = 0;

 private:
  TimelineWidget& m_t;
  TimeRange m_savedRange;
  int m_savedScroll = 0;
  bool m_filtered = false;
  bool m_unfolded = false;
  LaneLayout::ExpandState m_savedExpand;
};

int captionHeight(const TimelineWidget& t, const QString& caption) {
  return caption.isEmpty() ? 0 : QFontMetrics(t.font()).height() + 10;
}

void paintCaption(QPainter& p, const TimelineWidget& t, const QString& caption, QSize size) {
  p.save();
  p.setFont(t.font());
  p.fillRect(QRect(QPoint(0, 0), size), QColor::fromRgb(ColorPalette::chrome().headerBackground));
  p.fillRect(QRect(0, size.height() - 1, size.width(), 1), QColor::fromRgb(ColorPalette::chrome().separator));
  p.setPen(QColor::fromRgb(ColorPalette::chrome().text));
  const QRect text(8, 0, size.width() - 16, size.height() - 1);
  p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
             QFontMetrics(t.font()).elidedText(caption, Qt::ElideMiddle, text.width()));
  p.restore();
}

QString resolvedCaption(const TimelineWidget& t, const TimelineExportOptions& o, TimeRange range, int scrollY, int canvasHeight) {
  if (o.caption.isEmpty() || !t.profile()) return {};
  return exportCaption(*t.profile(), o.caption, exportRank(t), range, ranksInRows(t, scrollY, canvasHeight));
}

// One part painted by QSvgGenerator: the elements of its document (what follows its <defs>).
QByteArray svgBody(QSize size, const std::function<void(QPainter&)>& paint) {
  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(size);
  generator.setViewBox(QRect(QPoint(0, 0), size));
  // The raster export's resolution, so that a font of N pt is as many px in both.
  generator.setResolution(QImage(1, 1, QImage::Format_ARGB32).logicalDpiY());
  {
    QPainter p(&generator);
    paint(p);
  }
  const QByteArray doc = buffer.data();
  qsizetype begin = doc.indexOf("</defs>");
  begin = begin >= 0 ? begin + 7 : doc.indexOf('>', doc.indexOf("<svg")) + 1;
  const qsizetype end = doc.lastIndexOf("</svg>");
  if (begin <= 0 || end < begin) return {};
  QByteArray body = doc.mid(begin, end - begin);
  // The bubble hatch (BubblesPass draws it as lines in the bubble colour on an SVG): name its groups.
  static const QRegularExpression hatch(QStringLiteral("<g ([^>]*stroke=\"#ea580c\")"));
  QString text = QString::fromUtf8(body).replace(hatch, QStringLiteral("<g class=\"bubble-hatch\" \\1"));
  // Fonts by the family Qt resolved ("Sans Serif" is Qt's alias, unknown to a browser), then the
  // CSS generic family as the fallback.
  static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
  QString out;
  qsizetype last = 0;
  for (auto it = family.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    QFont font(m.captured(1));
    const QString resolved = QFontInfo(font).family();
    const bool mono = QFontInfo(font).fixedPitch();
    out += QStringView(text).mid(last, m.capturedStart() - last);
    out += QStringLiteral("font-family=\"") + resolved.toHtmlEscaped() +
           (mono ? QStringLiteral(", monospace\"") : QStringLiteral(", sans-serif\""));
    last = m.capturedEnd();
  }
  out += QStringView(text).mid(last);
  return out.toUtf8();
}

QByteArray num(double v) { return QByteArray::number(v, 'g', 10); }

}  // namespace

int exportRank(const TimelineWidget& t) {
  const BubbleRef b = t.selectedBubble();
  if (t.bubble(b.rank, b.device, b.bubble)) return b.rank;
  if (t.selectedRank() >= 0 && t.selectedSlice().valid()) return t.selectedRank();
  if (t.chainRank() >= 0) return t.chainRank();
  return -1;
}

namespace {
/// "+START – +END (DURATION)" relative to the profile's start (core::formatSignedOffset).
QString captionRange(const core::Profile& profile, TimeRange range) {
  const core::TimeNs origin = profile.range().start;
  const core::TimeNs tick = std::max<core::TimeNs>(1, range.duration() / 1000);
  return QStringLiteral("%1 – %2 (%3)")
      .arg(QString::fromStdString(core::formatSignedOffset(range.start - origin, tick)),
           QString::fromStdString(core::formatSignedOffset(range.end - origin, tick)),
           QString::fromStdString(core::formatDuration(range.duration())));
}
}  // namespace

std::vector<int> ranksInRows(const TimelineWidget& t, int scrollY, int height) {
  std::vector<int> ranks;
  for (const LayoutRow& r : t.layout().rows())
    if (r.y < scrollY + height && r.y + r.height > scrollY && (ranks.empty() || ranks.back() != r.rank)) ranks.push_back(r.rank);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

QString exportCaption(const core::Profile& profile, const QString& name, int rank, TimeRange range, const std::vector<int>& shown) {
  std::vector<int> valid;
  for (int r : shown)
    if (r >= 0 && static_cast<std::size_t>(r) < profile.ranks.size()) valid.push_back(r);
  if (valid.empty()) return exportCaption(profile, name, rank, range);
  if (valid.size() == 1) return exportCaption(profile, name, valid.front(), range);
  QStringList labels;
  for (std::size_t i = 0; i < valid.size() && i < 4; ++i) labels << rankLabel(profile.ranks[static_cast<std::size_t>(valid[i])]);
  if (valid.size() > 4) labels << QCoreApplication::translate("npuscope::widgets::TimelineExport", "+%1 more").arg(valid.size() - 4);
  QStringList parts{name, labels.join(QStringLiteral(", "))};
  parts << captionRange(profile, range);
  if (std::find(valid.begin(), valid.end(), rank) != valid.end()) {
    const core::RankProfile& rp = profile.ranks[static_cast<std::size_t>(rank)];
    if (rp.analysis && !rp.analysis->cancelled && !rp.analysis->verdict.headline.empty())
      parts << rankLabel(rp) + QStringLiteral(": ") + QString::fromStdString(rp.analysis->verdict.headline);
  }
  parts.removeAll(QString());
  return parts.join(QStringLiteral(" · "));
}

QString exportCaption(const core::Profile& profile, const QString& name, int rank, TimeRange range) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= profile.ranks.size()) {
    rank = -1;
    for (std::size_t i = 0; i < profile.ranks.size() && rank < 0; ++i)
      if (profile.ranks[i].analysis && !profile.ranks[i].analysis->cancelled) rank = static_cast<int>(i);
  }
  QStringList parts{name};
  std::string headline;
  if (rank >= 0) {
    const core::RankProfile& rp = profile.ranks[static_cast<std::size_t>(rank)];
    parts << rankLabel(rp);
    if (rp.analysis && !rp.analysis->cancelled) headline = rp.analysis->verdict.headline;
  }
  parts << captionRange(profile, range);
  if (!headline.empty()) parts << QString::fromStdString(headline);
  parts.removeAll(QString());
  return parts.join(QStringLiteral(" · "));
}

namespace {

/// What the PNG and the SVG export share around the composite: the caption above it (its text
/// and height, logical px; 0 without one), the scale, and the whole image's logical size.
struct ExportFrame {
  ExportFrame(const TimelineWidget& t, const TimelineExportOptions& o, const ExportScope& scope)
      : caption(resolvedCaption(t, o, scope.range, scope.scrollY, t.partRect(TimelineWidget::Part::Canvas, scope.size).height())),
        captionHeight(npuscope::widgets::captionHeight(t, caption)),
        scale(o.scale > 0 ? o.scale : 1.0),
        logical(scope.size.width(), scope.size.height() + captionHeight) {}
  QString caption;
  int captionHeight;
  double scale;
  QSize logical;
};

}  // namespace

TimelineExport exportTimelineImage(TimelineWidget& t, const TimelineExportOptions& o) {
  TimelineExport out;
  const ExportScope scope(t, o);
  if (!scope.error.isEmpty()) {
    out.error = scope.error;
    return out;
  }
  const ExportFrame frame(t, o, scope);
  const QString& caption = frame.caption;
  const int ch = frame.captionHeight;
  const double scale = frame.scale;
  const QSize logical = frame.logical;
  QImage image(qRound(logical.width() * scale), qRound(logical.height() * scale), QImage::Format_ARGB32_Premultiplied);
  if (image.isNull()) {
    out.error = QCoreApplication::translate("npuscope::widgets::TimelineExport",
        "The image of %1 x %2 px is too large.").arg(image.width()).arg(image.height());
    return out;
  }
  image.setDevicePixelRatio(scale);
  image.fill(QColor::fromRgb(ColorPalette::chrome().background));
  {
    QPainter p(&image);
    if (ch > 0) paintCaption(p, t, caption, QSize(logical.width(), ch));
    for (const Part part : {Part::Corner, Part::Ruler, Part::Header, Part::Canvas}) {
      const QRect r = t.partRect(part, scope.size);
      p.save();
      p.translate(r.topLeft() + QPoint(0, ch));
      p.setClipRect(QRect(QPoint(0, 0), r.size()));
      t.paintPart(p, part, scope.size, scope.scrollY);
      p.restore();
    }
  }
  out.image = image;
  return out;
}

TimelineExport exportTimelineSvg(TimelineWidget& t, const TimelineExportOptions& o) {
  TimelineExport out;
  const ExportScope scope(t, o);
  if (!scope.error.isEmpty()) {
    out.error = scope.error;
    return out;
  }
  const ExportFrame frame(t, o, scope);
  const QString& caption = frame.caption;
  const int ch = frame.captionHeight;
  const double scale = frame.scale;
  const QSize logical = frame.logical;
  struct Group {
    const char* id;
    QRect rect;  // in the document
    std::function<void(QPainter&)> paint;
  };
  std::vector<Group> groups;
  // Painted in this order: what comes later covers what an earlier part drew outside its
  // rectangle, for renderers that ignore clip-path.
  const std::pair<Part, const char*> parts[] = {
      {Part::Canvas, "lanes"}, {Part::Header, "lane-headers"}, {Part::Ruler, "ruler"}, {Part::Corner, "corner"}};
  for (const auto& [part, id] : parts) {
    const QRect r = t.partRect(part, scope.size).translated(0, ch);
    const Part which = part;
    groups.push_back({id, r, [&t, &scope, which](QPainter& p) { t.paintPart(p, which, scope.size, scope.scrollY); }});
  }
  if (ch > 0)
    groups.push_back({"caption", QRect(0, 0, logical.width(), ch),
                      [&t, &caption, w = logical.width(), ch](QPainter& p) { paintCaption(p, t, caption, QSize(w, ch)); }});

  const QColor background = QColor::fromRgb(ColorPalette::chrome().background);
  QByteArray svg;
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.2\" "
         "baseProfile=\"tiny\" width=\"" +
         num(logical.width() * scale) + "\" height=\"" + num(logical.height() * scale) + "\" viewBox=\"0 0 " +
         num(logical.width()) + " " + num(logical.height()) + "\">\n";
  svg += "<title>" + QCoreApplication::translate("npuscope::widgets::TimelineExport",
      "npuscope timeline").toHtmlEscaped().toUtf8() + "</title>\n";
  if (!caption.isEmpty()) svg += "<desc>" + caption.toHtmlEscaped().toUtf8() + "</desc>\n";
  svg += "<defs>\n";
  for (const Group& g : groups)
    svg += QByteArray("<clipPath id=\"clip-") + g.id + "\"><rect x=\"0\" y=\"0\" width=\"" + num(g.rect.width()) +
           "\" height=\"" + num(g.rect.height()) + "\"/></clipPath>\n";
  svg += "</defs>\n";
  svg += "<rect x=\"0\" y=\"0\" width=\"" + num(logical.width()) + "\" height=\"" + num(logical.height()) +
         "\" fill=\"" + background.name().toUtf8() + "\" stroke=\"none\"/>\n";
  for (const Group& g : groups) {
    const QByteArray body = svgBody(g.rect.size(), g.paint);
    if (body.isNull()) {
      out.error = QCoreApplication::translate("npuscope::widgets::TimelineExport",
          "The SVG of the %1 could not be made.").arg(QString::fromLatin1(g.id));
      return out;
    }
    svg += QByteArray("<g id=\"") + g.id + "\" transform=\"translate(" + num(g.rect.x()) + "," + num(g.rect.y()) +
           ")\" clip-path=\"url(#clip-" + g.id + ")\">\n" + body + "</g>\n";
  }
  svg += "</svg>\n";
  out.svg = svg;
  return out;
}

QString writeTimelineExport(TimelineWidget& t, const TimelineExportOptions& o, const QString& file) {
  const bool asSvg = file.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive);
  const TimelineExport e = asSvg ? exportTimelineSvg(t, o) : exportTimelineImage(t, o);
  if (!e.ok()) return e.error;
  if (asSvg) {
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(e.svg) != e.svg.size() || !out.commit())
      return QCoreApplication::translate("npuscope::widgets::TimelineExport",
          "Cannot write %1: %2").arg(file, out.errorString());
    return {};
  }
  QImageWriter writer(file, "png");
  if (!writer.write(e.image)) return QCoreApplication::translate("npuscope::widgets::TimelineExport",
      "Cannot write %1: %2").arg(file, writer.errorString());
  return {};
}

}  // namespace npuscope::widgets
