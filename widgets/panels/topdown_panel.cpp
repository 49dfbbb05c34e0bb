// SPDX-License-Identifier: MIT
#include "widgets/panels/topdown_panel.h"

#include "core/analysis/rank_summary.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/base/time_format.h"
#include "widgets/analysis_labels.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/lane_layout.h"

namespace npuscope::widgets {

using core::TimeNs;

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
QString dur(TimeNs ns) { return QString::fromStdString(core::formatDuration(ns)); }
QString at(TimeNs ns) { return QString::fromStdString(core::formatTimeOffset(ns)); }
QString percent(double ratio) { return QString::number(ratio * 100.0, 'f', 1) + QStringLiteral("%"); }
TimeNs usToNs(double us) { return static_cast<TimeNs>(std::llround(us * 1000.0)); }

// The Overlap Analysis lane colours (the timeline colours slices by name).
QColor computingColor() { return QColor::fromRgb(ColorPalette::colorForName("Computing")); }
QColor commColor() { return QColor::fromRgb(ColorPalette::colorForName("Communication")); }
QColor commNotOverlappedColor() {
  return QColor::fromRgb(ColorPalette::colorForName("Communication(Not Overlapped)"));
}
QColor freeColor() { return QColor::fromRgb(ColorPalette::colorForName("Free")); }

const core::RankAnalysis* analysisOf(const std::shared_ptr<const core::Profile>& p, int rank) {
  if (!p || rank < 0 || static_cast<std::size_t>(rank) >= p->ranks.size()) return nullptr;
  return p->ranks[static_cast<std::size_t>(rank)].analysis.get();
}

/// One device's stacked bar with its legend.
class OverlapBar : public QWidget {
 public:
  /// `between`: the device's wait between msprof iterations (DeviceAnalysis::betweenIterations),
  /// drawn after Free and named in the legend when above 0.
  OverlapBar(QString title, const core::OverlapFigures& f, TimeNs between, QWidget* parent)
      : QWidget(parent), m_title(std::move(title)), m_f(f), m_between(between) {
    setMinimumHeight(kBarH + 8 + fontMetrics().height() + 2);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(TopDownPanel::tr("<b>%1</b><br>Computing %2 (%3)<br>Communication %4, of which overlapped "
                              "with computing %5<br>Communication (Not Overlapped) %6 (%7)<br>Free %8 "
                              "(%9)<br>E2E %10")
                   .arg(m_title.isEmpty() ? TopDownPanel::tr("Device") : m_title, dur(f.computing),
                        percent(ratio(f.computing)), dur(f.communication), dur(f.overlapped),
                        dur(f.commNotOverlapped), percent(ratio(f.commNotOverlapped)), dur(f.free),
                        percent(f.freeRatio()))
                   .arg(dur(f.e2e)));
    if (between > 0)
      setToolTip(toolTip() + TopDownPanel::tr("<br>Between iterations %1 (%2): the device waits for the next iteration "
                                              "(msprof's Data_aug Bound), in no step")
                                 .arg(dur(between), percent(ratio(between))));
  }
  [[nodiscard]] QSize sizeHint() const override { return {420, minimumHeight()}; }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    const QFontMetrics fm = fontMetrics();
    int x0 = 0;
    if (!m_title.isEmpty()) {
      p.setPen(palette().color(QPalette::WindowText));
      QFont bold = font();
      bold.setWeight(QFont::DemiBold);
      p.setFont(bold);
      p.drawText(QRect(0, 0, 56, kBarH), Qt::AlignVCenter | Qt::AlignLeft, m_title);
      p.setFont(font());
      x0 = 60;
    }
    const QRectF bar(x0, 0.5, width() - x0 - 1, kBarH);
    p.setRenderHint(QPainter::Antialiasing, true);
    QPainterPath clip;
    clip.addRoundedRect(bar, 3, 3);
    p.setClipPath(clip);
    p.fillRect(bar, QColor::fromRgb(ColorPalette::chrome().backgroundAlt));
    if (m_f.e2e > 0) {
      const double w = bar.width();
      double x = bar.left();
      auto seg = [&](TimeNs v, const QColor& c) {
        const double sw = w * static_cast<double>(v) / static_cast<double>(m_f.e2e);
        const QRectF r(x, bar.top(), sw, bar.height());
        p.fillRect(r, c);
        x += sw;
        return r;
      };
      const QRectF comp = seg(m_f.computing, computingColor());
      if (m_f.overlapped > 0 && m_f.computing > 0) {
        // The overlapped communication lies inside Computing: hatch its share at its end.
        const double ow = comp.width() * std::min(1.0, static_cast<double>(m_f.overlapped) /
                                                           static_cast<double>(m_f.computing));
        const QRectF o(comp.right() - ow, comp.top(), ow, comp.height());
        p.fillRect(o, commColor().lighter(115));
        p.fillRect(o, QBrush(computingColor(), Qt::BDiagPattern));
      }
      const QRectF cno = seg(m_f.commNotOverlapped, commNotOverlappedColor());
      const QRectF fr = seg(m_f.free, freeColor());
      const QRectF between = seg(m_between, betweenColor());
      if (m_between > 0) p.fillRect(between, QBrush(freeColor().darker(130), Qt::Dense6Pattern));
      p.setClipping(false);
      p.setClipPath(clip);
      auto label = [&](const QRectF& r, const QString& text, const QColor& bg) {
        if (fm.horizontalAdvance(text) + 8 > r.width()) return;
        p.setPen(QColor::fromRgb(ColorPalette::textColorOn(bg.rgb())));
        p.drawText(r, Qt::AlignCenter, text);
      };
      label(comp, TopDownPanel::tr("Computing %1").arg(percent(ratio(m_f.computing))), computingColor());
      label(cno, percent(ratio(m_f.commNotOverlapped)), commNotOverlappedColor());
      label(fr, TopDownPanel::tr("Free %1").arg(percent(m_f.freeRatio())), freeColor());
      label(between, TopDownPanel::tr("Between iterations %1").arg(percent(ratio(m_between))), betweenColor());
    }
    p.setClipping(false);
    p.setPen(QPen(QColor::fromRgb(ColorPalette::chrome().separator), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(bar, 3, 3);
    p.setRenderHint(QPainter::Antialiasing, false);

    // Legend.
    int lx = x0;
    const int ly = kBarH + 6;
    const int sw = fm.height() - 4;
    auto item = [&](const QColor& c, const QString& text, bool hatch, bool warn) {
      const QRect sq(lx, ly + 2, sw, sw);
      p.fillRect(sq, hatch ? commColor().lighter(115) : c);
      if (hatch) p.fillRect(sq, QBrush(computingColor(), Qt::BDiagPattern));
      p.setPen(QColor::fromRgb(ColorPalette::chrome().separator));
      p.drawRect(sq.adjusted(0, 0, -1, -1));
      QFont f = font();
      if (warn) f.setWeight(QFont::DemiBold);
      p.setFont(f);
      p.setPen(warn ? QColor::fromRgb(ColorPalette::chrome().warnText) : palette().color(QPalette::WindowText));
      const int tw = QFontMetrics(f).horizontalAdvance(text);
      p.drawText(QRect(lx + sw + 5, ly, tw + 2, fm.height()), Qt::AlignVCenter | Qt::AlignLeft, text);
      p.setFont(font());
      lx += sw + 5 + tw + 16;
    };
    item(computingColor(), TopDownPanel::tr("Computing %1").arg(dur(m_f.computing)), false, false);
    if (m_f.communication > 0) {
      item(commColor(), TopDownPanel::tr("Overlapped %1").arg(dur(m_f.overlapped)), true, false);
      item(commNotOverlappedColor(), TopDownPanel::tr("Comm. not overlapped %1").arg(dur(m_f.commNotOverlapped)),
           false, false);
    }
    item(freeColor(), TopDownPanel::tr("Free %1 (%2)").arg(dur(m_f.free), percent(m_f.freeRatio())), false,
         m_f.freeRatio() > OverlapSharesModel::kFreeWarnRatio);
    if (m_between > 0)
      item(betweenColor(), TopDownPanel::tr("Between iterations %1 (%2)").arg(dur(m_between), percent(ratio(m_between))), false,
           false);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(lx, ly, std::max(0, width() - lx), fm.height()), Qt::AlignVCenter | Qt::AlignLeft,
               TopDownPanel::tr("E2E %1").arg(dur(m_f.e2e)));
  }

 private:
  static constexpr int kBarH = 22;
  [[nodiscard]] double ratio(TimeNs v) const {
    return m_f.e2e > 0 ? static_cast<double>(v) / static_cast<double>(m_f.e2e) : 0.0;
  }
  [[nodiscard]] static QColor betweenColor() { return freeColor().lighter(108); }
  QString m_title;
  core::OverlapFigures m_f;
  TimeNs m_between = 0;
};

}  // namespace

QString overlapScopeLabel(long long step, int deviceId, bool withDevice) {
  QString s = step == -2 ? TopDownPanel::tr("Whole capture")
              : step < 0 ? TopDownPanel::tr("(no step)")
                         : TopDownPanel::tr("Step %1").arg(step);
  if (withDevice) s = QStringLiteral("NPU %1 · ").arg(deviceId) + s;
  return s;
}

// ---------------------------------------------------------------------------------------------
// OverlapSharesModel

OverlapSharesModel::OverlapSharesModel(QObject* parent) : QAbstractTableModel(parent) {}

void OverlapSharesModel::setRank(std::shared_ptr<const core::Profile> profile, int rankIndex) {
  beginResetModel();
  m_rows.clear();
  m_deviceIds.clear();
  if (const core::RankAnalysis* a = analysisOf(profile, rankIndex)) {
    for (const auto& d : a->devices) m_deviceIds.push_back(d.device);
    const bool multi = a->devices.size() > 1;
    for (std::size_t d = 0; d < a->devices.size(); ++d) {
      const core::DeviceAnalysis& dev = a->devices[d];
      Row whole;
      whole.device = static_cast<int>(d);
      whole.computed = dev.computed;
      whole.lanes = dev.lanes;
      whole.multiDevice = multi;
      m_rows.push_back(whole);
      for (const core::StepOverlap& s : dev.steps) {
        Row r;
        r.device = static_cast<int>(d);
        r.step = s.step;
        r.window = s.window;
        r.span = s.span;
        for (const core::StepWindow& w : a->steps)
          if (w.number == s.step && s.step >= 0) r.host = w.host;
        r.computed = s.computed;
        r.lanes = s.lanes;
        r.csv = s.csv;
        r.multiDevice = multi;
        m_rows.push_back(r);
      }
    }
  }
  endResetModel();
}

int OverlapSharesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int OverlapSharesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

TimeNs OverlapSharesModel::value(const core::OverlapFigures& f, int column) {
  switch (column) {
    case Computing: return f.computing;
    case Communication: return f.communication;
    case CommNotOverlapped: return f.commNotOverlapped;
    case Overlapped: return f.overlapped;
    case Free: return f.free;
    case E2E: return f.e2e;
    case FreePercent: return static_cast<TimeNs>(std::llround(f.freeRatio() * 1e6));
    default: return 0;
  }
}

std::optional<TimeNs> OverlapSharesModel::csvValue(const core::StepTraceRow& r, int column) {
  switch (column) {
    case Computing: return usToNs(r.computing);
    case Communication: return usToNs(r.communication);
    case CommNotOverlapped: return usToNs(r.commNotOverlapped);
    case Overlapped: return usToNs(r.overlapped);
    case Free: return usToNs(r.free);
    case E2E: return usToNs(r.stage);  // torch_npu's Stage = span of the step's events - Bubble
    default: return std::nullopt;
  }
}

std::optional<TimeNs> OverlapSharesModel::computedNs(int row, Column column) const {
  if (row < 0 || row >= rowCount() || column == Scope) return std::nullopt;
  return value(m_rows[static_cast<std::size_t>(row)].computed, column);
}

bool OverlapSharesModel::differs(const Row& r, int column) const {
  if (column == Scope || column == FreePercent || column == E2E) return false;
  const TimeNs c = value(r.computed, column);
  if (r.lanes && std::abs(value(*r.lanes, column) - c) > kToleranceNs) return true;
  if (r.csv) {
    const auto v = csvValue(*r.csv, column);
    if (v && std::abs(*v - c) > kToleranceNs) return true;
  }
  return false;
}

bool OverlapSharesModel::hostDiffers(const Row& r) {
  return r.step >= 0 && r.host && !r.window.empty() && r.host->duration() != r.window.duration();
}

long long OverlapSharesModel::stepAt(int row) const {
  return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].step : -2;
}

core::TimeRange OverlapSharesModel::windowAt(int row) const {
  return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].window : core::TimeRange{};
}

core::TimeRange OverlapSharesModel::selectionAt(int row) const {
  if (row < 0 || row >= rowCount()) return {};
  const Row& r = m_rows[static_cast<std::size_t>(row)];
  return r.span.empty() ? r.window : r.span;
}

std::optional<core::TimeRange> OverlapSharesModel::hostStepAt(int row) const {
  if (row < 0 || row >= rowCount()) return std::nullopt;
  return m_rows[static_cast<std::size_t>(row)].host;
}

QString OverlapSharesModel::tooltip(const Row& r, int column) const {
  if (column == Scope) {
    if (r.step == -2)
      return TopDownPanel::tr("Whole capture: span of device activity (CANN's Overlap Analysis rule). Click to list "
                              "the bubbles of every step.");
    QString tip = TopDownPanel::tr("Step %1: intervals starting inside the step's device window, full duration "
                                   "(torch_npu's step_trace_time rule)")
                      .arg(r.step);
    if (!r.window.empty())
      tip += TopDownPanel::tr("<br>device window: %1 (from the first device task launched in the step to the end "
                              "of the last one, or the host step's end if later)")
                 .arg(dur(r.window.duration()));
    if (r.host)
      tip += TopDownPanel::tr("<br>host step (ProfilerStep#%1 on the timeline): %2").arg(r.step).arg(dur(r.host->duration()));
    if (hostDiffers(r))
      tip += TopDownPanel::tr("<br>The two differ: the device runs behind the host, so the figures of this row are "
                              "over the device window, not over the host step.");
    if (r.step >= 0 && !r.window.empty() && r.computed.e2e != r.window.duration())
      tip += TopDownPanel::tr("<br>E2E (%1) is the span of the device intervals starting in the window, not the "
                              "window itself.")
                 .arg(dur(r.computed.e2e));
    if (r.step >= 0)
      tip += TopDownPanel::tr("<br>Click to select what the figures measure on the timeline (the E2E span) and list "
                              "the step's bubbles.");
    return tip;
  }
  const bool pct = column == FreePercent;
  auto fmt = [&](TimeNs v) { return pct ? percent(static_cast<double>(v) / 1e6) : dur(v); };
  QString tip = TopDownPanel::tr("<b>%1</b><br>computed: %2")
                    .arg(headerData(column, Qt::Horizontal).toString(), fmt(value(r.computed, column)));
  if (r.lanes) tip += TopDownPanel::tr("<br>recorded (Overlap Analysis lanes): %1").arg(fmt(value(*r.lanes, column)));
  if (r.csv) {
    if (pct) {
      const double e2e = r.csv->computing + r.csv->commNotOverlapped + r.csv->free;
      if (e2e > 0) tip += TopDownPanel::tr("<br>step_trace_time.csv: %1").arg(percent(r.csv->free / e2e));
    } else if (const auto v = csvValue(*r.csv, column)) {
      tip += TopDownPanel::tr("<br>step_trace_time.csv%1: %2")
                 .arg(column == E2E ? TopDownPanel::tr(" (Stage)") : QString(), dur(*v));
    }
  }
  if (!r.lanes && !r.csv) tip += TopDownPanel::tr("<br><i>nothing recorded to compare with</i>");
  if (differs(r, column))
    tip += QStringLiteral("<br><span style='color:%1'>⚠ %2</span>")
               .arg(ColorPalette::css(ColorPalette::chrome().warnText),
                    TopDownPanel::tr("the computed value differs from the recorded one"));
  return tip;
}

QVariant OverlapSharesModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Row& r = m_rows[static_cast<std::size_t>(index.row())];
  const int c = index.column();
  const bool freeWarn = r.computed.freeRatio() > kFreeWarnRatio;
  switch (role) {
    case Qt::DisplayRole: {
      if (c == Scope) {
        const int devId = static_cast<std::size_t>(r.device) < m_deviceIds.size() ? m_deviceIds[static_cast<std::size_t>(r.device)] : -1;
        QString label = overlapScopeLabel(r.step, devId, r.multiDevice);
        // The host step (ProfilerStep#N on the timeline) and the device window this row measures
        // differ: say which one the row is, so a step never has two unexplained durations.
        if (hostDiffers(r)) label += TopDownPanel::tr(" · device window");
        return label;
      }
      QString text = c == FreePercent ? percent(r.computed.freeRatio()) : dur(value(r.computed, c));
      if (differs(r, c)) text += QStringLiteral(" ⚠");
      return text;
    }
    case Qt::ToolTipRole: return tooltip(r, c);
    case Qt::TextAlignmentRole:
      return c == Scope ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (differs(r, c) || (c == FreePercent && freeWarn)) return QColor::fromRgb(ColorPalette::chrome().warnText);
      return {};
    case Qt::BackgroundRole:
      if ((c == FreePercent || c == Free) && freeWarn) return QColor::fromRgb(ColorPalette::chrome().warnFill);
      return {};
    case Qt::FontRole:
      if (c == Scope && r.step == -2) {
        QFont f;
        f.setWeight(QFont::DemiBold);
        return f;
      }
      if (c == FreePercent && freeWarn) {
        QFont f;
        f.setWeight(QFont::DemiBold);
        return f;
      }
      return {};
    case kTopDownSortRole: return c == Scope ? QVariant(r.step) : QVariant(static_cast<qlonglong>(value(r.computed, c)));
    case kTopDownDeviceRole: return r.device;
    case kTopDownDiscrepancyRole: return differs(r, c);
    default: return {};
  }
}

QVariant OverlapSharesModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case Scope: return TopDownPanel::tr("Scope");
      case Computing: return TopDownPanel::tr("Computing");
      case Communication: return TopDownPanel::tr("Communication");
      case CommNotOverlapped: return TopDownPanel::tr("Comm. Not Overlapped");
      case Overlapped: return TopDownPanel::tr("Overlapped");
      case Free: return TopDownPanel::tr("Free");
      case E2E: return TopDownPanel::tr("E2E");
      case FreePercent: return TopDownPanel::tr("Free %");
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Computing: return TopDownPanel::tr("Union of the compute tasks' intervals");
      case Communication: return TopDownPanel::tr("Union of the HCCL big ops' intervals");
      case CommNotOverlapped: return TopDownPanel::tr("Communication not covered by computing");
      case Overlapped: return TopDownPanel::tr("Communication − Comm. Not Overlapped");
      case Free: return TopDownPanel::tr("Device idle: E2E minus computing and communication");
      case E2E: return TopDownPanel::tr("Span of device activity (= Computing + Comm. Not Overlapped + Free)");
      case FreePercent: return TopDownPanel::tr("Free / E2E; above 10% is highlighted");
      default: return {};
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// BubbleTableModel

BubbleTableModel::BubbleTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void BubbleTableModel::setRank(std::shared_ptr<const core::Profile> profile, int rankIndex) {
  beginResetModel();
  m_profile = std::move(profile);
  m_rank = rankIndex;
  m_rows.clear();
  if (const core::RankAnalysis* a = analysisOf(m_profile, m_rank)) {
    for (std::size_t d = 0; d < a->devices.size(); ++d)
      for (std::size_t b = 0; b < a->devices[d].bubbles.size(); ++b)
        m_rows.emplace_back(static_cast<int>(d), static_cast<int>(b));
  }
  endResetModel();
}

int BubbleTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int BubbleTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const core::Bubble& BubbleTableModel::bubble(int row) const {
  const auto [d, b] = m_rows.at(static_cast<std::size_t>(row));
  return analysisOf(m_profile, m_rank)->devices[static_cast<std::size_t>(d)].bubbles[static_cast<std::size_t>(b)];
}

int BubbleTableModel::rowOf(int deviceIndex, int bubbleIndex) const {
  const auto it = std::find(m_rows.begin(), m_rows.end(), std::make_pair(deviceIndex, bubbleIndex));
  return it == m_rows.end() ? -1 : static_cast<int>(it - m_rows.begin());
}

TimeNs BubbleTableModel::totalNs() const {
  TimeNs t = 0;
  for (int i = 0; i < rowCount(); ++i) t += bubble(i).range.duration();
  return t;
}

QVariant BubbleTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const core::Bubble& b = bubble(index.row());
  const auto [d, bi] = m_rows[static_cast<std::size_t>(index.row())];
  const TimeNs origin = m_profile->range().start;
  const int c = index.column();
  switch (role) {
    case Qt::DisplayRole:
      switch (c) {
        case Number: return bi + 1;
        case Start: return at(b.range.start - origin);
        case Duration: return dur(b.range.duration());
        case Step: return b.step >= 0 ? QString::number(b.step) : QStringLiteral("–");
        case Cause: return bubbleCauseText(b.cause);
        case Detail: return QString::fromStdString(b.detail);
        default: return {};
      }
    case Qt::ToolTipRole: {
      const auto& trace = *m_profile->ranks[static_cast<std::size_t>(m_rank)].trace;
      QString tip = TopDownPanel::tr("<b>%1 bubble, %2</b><br>%3 → %4")
                        .arg(bubbleCauseText(b.cause), dur(b.range.duration()),
                             at(b.range.start - origin), at(b.range.end - origin));
      if (!b.detail.empty()) tip += QStringLiteral("<br>") + QString::fromStdString(b.detail).toHtmlEscaped();
      if (!b.evidence.empty())
        tip += QStringLiteral("<br><i>") + tr("Double-click to select the evidence (%1) on the timeline")
                                               .arg(qs(trace.sliceName(b.evidence.front())).toHtmlEscaped()) +
               QStringLiteral("</i>");
      if (b.before.valid())
        tip += TopDownPanel::tr("<br>after task: ") + qs(trace.sliceName(b.before)).toHtmlEscaped();
      if (b.after.valid())
        tip += TopDownPanel::tr("<br>ended by task: ") + qs(trace.sliceName(b.after)).toHtmlEscaped();
      tip += QStringLiteral("<br>") +
             (b.launched == core::LaunchTiming::AfterGapStart
                  ? tr("its launch came after the device went idle (the device waited for the host)")
              : b.launched == core::LaunchTiming::BeforeGapStart
                  ? tr("it was launched before the device went idle (queued; the device held it)")
                  : tr("its launch was not recorded"));
      tip += QStringLiteral("<br>") + tr("host busy %1% of the gap").arg(qRound(b.hostCoverage * 100.0));
      if (const char* fa = core::bubbleCauseFreeAnalysisCategory(b.cause); *fa)
        tip += QStringLiteral("<br>") + tr("msprof-analyze free_analysis: %1").arg(QString::fromLatin1(fa));
      return tip;
    }
    case Qt::TextAlignmentRole:
      return (c == Number || c == Start || c == Duration || c == Step) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                        : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case kTopDownSortRole:
      switch (c) {
        case Number: return bi;
        case Start: return static_cast<qlonglong>(b.range.start);
        case Duration: return static_cast<qlonglong>(b.range.duration());
        case Step: return static_cast<qlonglong>(b.step);
        case Cause: return bubbleCauseText(b.cause);
        case Detail: return QString::fromStdString(b.detail);
        default: return {};
      }
    case kTopDownDeviceRole: return d;
    case kTopDownBubbleRole: return bi;
    default: return {};
  }
}

QVariant BubbleTableModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case Number: return QStringLiteral("#");
      case Start: return TopDownPanel::tr("Start");
      case Duration: return TopDownPanel::tr("Duration");
      case Step: return TopDownPanel::tr("Step");
      case Cause: return TopDownPanel::tr("Cause");
      case Detail: return TopDownPanel::tr("Detail");
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Number: return TopDownPanel::tr("Rank by duration (1 = longest)");
      case Start: return TopDownPanel::tr("Start relative to the profile start");
      case Cause: return TopDownPanel::tr("What the host was doing during the gap");
      default: return {};
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// TopDownPanel

TopDownPanel::TopDownPanel(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->setChildrenCollapsible(false);
  outer->addWidget(split);
  QWidget* figures = buildFiguresSide(split);
  QWidget* bubbles = buildBubbleList(split);
  split->addWidget(figures);
  split->addWidget(bubbles);
  split->setStretchFactor(0, 5);
  split->setStretchFactor(1, 6);
  rebuild();
}

QWidget* TopDownPanel::buildFiguresSide(QWidget* parent) {
  auto* scroll = new QScrollArea(parent);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* left = new QWidget(scroll);
  auto* lv = new QVBoxLayout(left);
  lv->setContentsMargins(8, 6, 8, 6);
  lv->setSpacing(6);

  m_rankRow = new QWidget(left);
  auto* rh = new QHBoxLayout(m_rankRow);
  rh->setContentsMargins(0, 0, 0, 0);
  rh->addWidget(new QLabel(tr("Rank:"), m_rankRow));
  m_rankCombo = new QComboBox(m_rankRow);
  m_rankCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  rh->addWidget(m_rankCombo);
  rh->addStretch();
  lv->addWidget(m_rankRow);
  connect(m_rankCombo, &QComboBox::activated, this, [this](int i) { setRank(m_rankCombo->itemData(i).toInt()); });

  m_verdict = new QLabel(left);
  m_verdict->setObjectName(QStringLiteral("TopDownVerdict"));
  m_verdict->setWordWrap(true);
  m_verdict->setTextFormat(Qt::RichText);
  m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_verdict->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);

  // The shares first (one bar per device, the method's first look), then the verdict.
  m_barsBox = new QWidget(left);
  m_barsLayout = new QVBoxLayout(m_barsBox);
  m_barsLayout->setContentsMargins(0, 2, 0, 2);
  m_barsLayout->setSpacing(6);
  lv->addWidget(m_barsBox);
  lv->addWidget(m_verdict);
  lv->addWidget(buildSharesTable(left));

  m_discrepancies = new QLabel(left);
  m_discrepancies->setWordWrap(true);
  m_discrepancies->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QPalette dp = m_discrepancies->palette();
  dp.setColor(QPalette::WindowText, QColor::fromRgb(ColorPalette::chrome().warnText));
  m_discrepancies->setPalette(dp);
  lv->addWidget(m_discrepancies);
  lv->addStretch(1);
  scroll->setWidget(left);
  return scroll;
}

QTableView* TopDownPanel::buildSharesTable(QWidget* parent) {
  m_shares = new OverlapSharesModel(this);
  m_sharesView = new QTableView(parent);
  m_sharesView->setObjectName(QStringLiteral("TopDownShares"));
  m_sharesView->setModel(m_shares);
  m_sharesView->verticalHeader()->hide();
  m_sharesView->setSelectionMode(QAbstractItemView::NoSelection);
  m_sharesView->setFocusPolicy(Qt::NoFocus);
  m_sharesView->setAlternatingRowColors(true);
  m_sharesView->setWordWrap(false);
  m_sharesView->setShowGrid(false);
  m_sharesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_sharesView->horizontalHeader()->setStretchLastSection(false);
  m_sharesView->horizontalHeader()->setHighlightSections(false);
  m_sharesView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  m_sharesView->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_sharesView->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  // Step rows are clickable: the range the row's figures measure (its E2E span) on the timeline,
  // its bubbles in the list.
  connect(m_sharesView, &QAbstractItemView::clicked, this, [this](const QModelIndex& i) {
    if (!i.isValid()) return;
    const long long step = m_shares->stepAt(i.row());
    if (step >= 0) {
      setStepFilter(step);
      emit stepActivated(m_rank, step, m_shares->selectionAt(i.row()));
    } else {
      setStepFilter(kAllSteps);
      emit stepActivated(m_rank, kAllSteps, core::TimeRange{});
    }
  });
  m_sharesView->viewport()->setCursor(Qt::PointingHandCursor);
  return m_sharesView;
}

QWidget* TopDownPanel::buildBubbleList(QWidget* parent) {
  auto* right = new QWidget(parent);
  auto* rv = new QVBoxLayout(right);
  rv->setContentsMargins(4, 6, 8, 6);
  rv->setSpacing(4);
  m_bubblesTitle = new QLabel(right);
  m_bubblesTitle->setWordWrap(true);
  m_allSteps = new QPushButton(tr("All steps"), right);
  m_allSteps->setObjectName(QStringLiteral("TopDownAllSteps"));
  m_allSteps->setToolTip(tr("List the bubbles of every step again"));
  m_allSteps->hide();
  connect(m_allSteps, &QPushButton::clicked, this, [this] {
    setStepFilter(kAllSteps);
    emit stepActivated(m_rank, kAllSteps, core::TimeRange{});
  });
  {
    auto* titleRow = new QHBoxLayout;
    titleRow->setContentsMargins(0, 0, 0, 0);
    titleRow->addWidget(m_bubblesTitle, 1);
    titleRow->addWidget(m_allSteps, 0, Qt::AlignTop);
    rv->addLayout(titleRow);
  }
  m_bubbles = new BubbleTableModel(this);
  m_bubbleProxy = new QSortFilterProxyModel(this);
  m_bubbleProxy->setSourceModel(m_bubbles);
  m_bubbleProxy->setSortRole(kTopDownSortRole);
  // The step filter: the Step column's raw number (kTopDownSortRole) matched exactly.
  m_bubbleProxy->setFilterRole(kTopDownSortRole);
  m_bubbleProxy->setFilterKeyColumn(BubbleTableModel::Step);
  m_bubbleView = new QTableView(right);
  m_bubbleView->setObjectName(QStringLiteral("TopDownBubbles"));
  m_bubbleView->setModel(m_bubbleProxy);
  m_bubbleView->setSortingEnabled(true);
  m_bubbleView->sortByColumn(BubbleTableModel::Number, Qt::AscendingOrder);
  m_bubbleView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_bubbleView->setSelectionMode(QAbstractItemView::SingleSelection);
  m_bubbleView->verticalHeader()->hide();
  m_bubbleView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  m_bubbleView->setAlternatingRowColors(true);
  m_bubbleView->setShowGrid(false);
  m_bubbleView->setWordWrap(false);
  m_bubbleView->setTextElideMode(Qt::ElideRight);
  QHeaderView* bh = m_bubbleView->horizontalHeader();
  bh->setHighlightSections(false);
  bh->setStretchLastSection(true);
  bh->setSectionResizeMode(QHeaderView::Interactive);
  rv->addWidget(m_bubbleView, 1);
  connectBubbleView();
  return right;
}

void TopDownPanel::connectBubbleView() {
  connect(m_bubbleView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) { onCurrentRowChanged(cur); });
  // A click on the already-current row activates it again (zooms back to it); the click that
  // made the row current has already emitted.
  connect(m_bubbleView, &QAbstractItemView::clicked, this, [this](const QModelIndex& i) {
    if (i.row() == m_lastEmittedRow && m_lastEmit.isValid() && m_lastEmit.elapsed() < 500) return;
    onCurrentRowChanged(i);
  });

  // Double-click: select the evidence of the cause (the slices the rule found) on the timeline.
  connect(m_bubbleView, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex& i) {
    if (!i.isValid()) return;
    const auto [d, b] = m_bubbles->bubbleAt(m_bubbleProxy->mapToSource(i).row());
    const core::RankAnalysis* a = analysisOf(m_profile, m_rank);
    if (!a || d < 0 || static_cast<std::size_t>(d) >= a->devices.size()) return;
    const auto& bubbles = a->devices[static_cast<std::size_t>(d)].bubbles;
    if (b < 0 || static_cast<std::size_t>(b) >= bubbles.size()) return;
    const core::Bubble& bubble = bubbles[static_cast<std::size_t>(b)];
    if (!bubble.evidence.empty()) emit evidenceActivated(RankSliceRef{m_rank, bubble.evidence.front()});
  });
}

TopDownPanel::~TopDownPanel() = default;

void TopDownPanel::setProfile(std::shared_ptr<const core::Profile> profile) {
  m_profile = std::move(profile);
  m_rank = -1;
  m_rankCombo->clear();
  if (m_profile) {
    for (std::size_t i = 0; i < m_profile->ranks.size(); ++i) {
      const core::RankProfile& rp = m_profile->ranks[i];
      if (!rp.analysis) continue;
      m_rankCombo->addItem(rankLabel(rp), static_cast<int>(i));
      if (m_rank < 0) m_rank = static_cast<int>(i);
    }
  }
  m_rankRow->setVisible(m_rankCombo->count() > 1);
  m_stepFilter = kAllSteps;
  rebuild();
}

void TopDownPanel::setRank(int rankIndex) {
  if (rankIndex == m_rank || !analysisOf(m_profile, rankIndex)) return;
  m_rank = rankIndex;
  m_rankCombo->setCurrentIndex(m_rankCombo->findData(rankIndex));
  m_stepFilter = kAllSteps;
  rebuild();
}

void TopDownPanel::setStepFilter(long long step) {
  m_stepFilter = step < 0 ? kAllSteps : step;
  m_bubbleProxy->setFilterRegularExpression(
      m_stepFilter < 0 ? QRegularExpression()
                       : QRegularExpression(QStringLiteral("^%1$").arg(m_stepFilter)));
  updateBubblesTitle();
}

void TopDownPanel::updateBubblesTitle() {
  if (m_stepFilter < 0) {
    m_bubblesTitle->setText(m_bubblesTitleText);
    m_allSteps->hide();
    return;
  }
  m_bubblesTitle->setText(tr("<b>Bubbles of step %1</b> — %2 of %3 listed bubbles")
                              .arg(m_stepFilter)
                              .arg(m_bubbleProxy->rowCount())
                              .arg(m_bubbles->rowCount()));
  m_allSteps->show();
}

namespace {

QString pctOf(core::TimeNs part, core::TimeNs whole) {
  return whole > 0 ? QString::number(100.0 * static_cast<double>(part) / static_cast<double>(whole), 'f', 1) +
                         QLatin1Char('%')
                   : QStringLiteral("-");
}

/// Exclusive shares (core::BreakdownPart::exclusive) plus the split's overlap: they add up to 100%.
QString partsText(const std::vector<core::BreakdownPart>& parts, core::TimeNs total, core::TimeNs overlap,
                  const QString& sep) {
  // The forward/backward keys are ids (core::ComputeBreakdown::byPass): shown in the UI's language.
  const auto label = [](const std::string& key) {
    if (key == "forward") return TopDownPanel::tr("forward");
    if (key == "backward") return TopDownPanel::tr("backward");
    if (key == "no launch") return TopDownPanel::tr("no launch");
    return QString::fromStdString(key).toHtmlEscaped();
  };
  QStringList l;
  for (const auto& p : parts)
    if (p.ns > 0) l << label(p.key) + QLatin1Char(' ') + pctOf(p.exclusive, total);
  if (overlap > 0) l << TopDownPanel::tr("several at once %1").arg(pctOf(overlap, total));
  return l.join(sep);
}

/// What Communication (Not Overlapped) and Computing are made of (docs/diagnosis.md §5), two
/// short lines under the device's bar; the sources in the tooltip.
QLabel* breakdownLabel(const core::DeviceAnalysis& d, QWidget* parent) {
  QStringList lines;
  const core::CommBreakdown& c = d.comm;
  if (c.exposed > 0) {
    QString line = TopDownPanel::tr("<b>Exposed communication</b> %1: ")
                       .arg(QString::fromStdString(core::formatDuration(c.exposed)));
    if (c.fromTrace)
      line += TopDownPanel::tr("synchronization %1 · transit %2 · other wait %3 · idle %4")
                  .arg(pctOf(c.synchronization, c.exposed), pctOf(c.transit, c.exposed), pctOf(c.wait, c.exposed),
                       pctOf(c.idle, c.exposed));
    else
      line += TopDownPanel::tr("<i>split unknown (no HCCL plane tasks recorded)</i>");
    lines << line;
  }
  const core::ComputeBreakdown& k = d.compute;
  if (k.total > 0) {
    QString line = TopDownPanel::tr("<b>Computing</b> %1: %2 · %3")
                       .arg(QString::fromStdString(core::formatDuration(k.total)),
                            partsText(k.byClass, k.total, k.classOverlap, QStringLiteral(", ")),
                            partsText(k.byCore, k.total, k.coreOverlap, QStringLiteral(" / ")));
    if (!k.byPass.empty()) line += QStringLiteral(" · ") + partsText(k.byPass, k.total, k.passOverlap, QStringLiteral(" / "));
    lines << line;
  }
  auto* l = new QLabel(lines.join(QStringLiteral("<br>")), parent);
  l->setObjectName(QStringLiteral("TopDownBreakdown"));
  l->setTextFormat(Qt::RichText);
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont f = l->font();
  f.setPointSizeF(f.pointSizeF() * 0.92);
  l->setFont(f);
  QString tip = QString::fromStdString(core::commBreakdownText(c));
  if (!tip.isEmpty()) tip += QStringLiteral("\n");
  tip += QString::fromStdString(core::computeBreakdownText(k)) +
         TopDownPanel::tr("\nCore from %1, class from %2. Each share is the time that part alone runs; \"several at "
                        "once\" is the time two or more run together (parallel streams), so each split adds up to 100%.")
             .arg(QString::fromStdString(k.coreSource), QString::fromStdString(k.classSource));
  l->setToolTip(tip);
  l->setVisible(!lines.isEmpty());
  return l;
}

/// For a profile without any trace whose ranks kept their tables (a pruned text export): per
/// rank the shares from step_trace_time.csv and the kernel statistics, marked as the profiler's
/// own figures, and what needs the trace (core::tablesOnlyLines). Empty when no rank has tables.
QString tablesOnlyHtml(const std::shared_ptr<const core::Profile>& p) {
  if (!p) return {};
  QString html;
  for (const core::RankProfile& rp : p->ranks) {
    if (!rp.tablesOnly) continue;
    html += QStringLiteral("<div style='margin-top:4px; font-weight:600'>%1</div><ul style='margin-top:2px; "
                           "margin-bottom:0px; margin-left:-24px'>")
                .arg(QString::fromStdString(rp.source.label).toHtmlEscaped());
    for (const std::string& line : core::tablesOnlyLines(*rp.tablesOnly))
      html += QStringLiteral("<li>%1</li>").arg(QString::fromStdString(line).toHtmlEscaped());
    html += QStringLiteral("</ul>");
  }
  if (html.isEmpty()) return {};
  return QStringLiteral("<div style='font-size:large; font-weight:700'>%1</div><div>%2</div>")
             .arg(TopDownPanel::tr("Tables only: no trace"),
                  TopDownPanel::tr("The profile has no trace_view.json. The figures below are the profiler's own "
                              "(step_trace_time.csv, kernel_details.csv); the timeline, bubbles and dispatch "
                              "chains need the trace.")) +
         html;
}

/// For a folder of rank summaries (`npuscope summarize`): what each rank's summary says (its
/// verdict and Top-Down shares, made where its trace lies), at most 64 ranks, and where to look
/// further. Empty when no rank was read from a summary.
QString summariesHtml(const std::shared_ptr<const core::Profile>& p) {
  if (!p) return {};
  QString html;
  std::size_t shown = 0, summaries = 0;
  for (const core::RankProfile& rp : p->ranks) {
    if (!rp.summary) continue;
    ++summaries;
    if (shown >= 64) continue;
    ++shown;
    const core::RankSummary& s = *rp.summary;
    const QString where = QString::fromStdString(s.host.empty() ? s.path : s.host + ":" + s.path).toHtmlEscaped();
    QString line = s.full ? QString::fromStdString(s.verdictSummary.empty() ? s.headline : s.verdictSummary)
                          : QString::fromStdString(s.error.empty() ? std::string("(no analyses in this summary)") : s.error);
    html += QStringLiteral("<div style='margin-top:4px'><b>%1</b> <span style='color:gray'>%2</span><br>%3</div>")
                .arg(QString::fromStdString(s.label).toHtmlEscaped(), where, line.toHtmlEscaped());
  }
  if (summaries == 0) return {};
  if (summaries > shown) html += QStringLiteral("<div>") + TopDownPanel::tr("… and %1 more ranks").arg(summaries - shown) + QStringLiteral("</div>");
  return QStringLiteral("<div style='font-size:large; font-weight:700'>%1</div><div>%2</div>")
             .arg(TopDownPanel::tr("Rank summaries"),
                  TopDownPanel::tr("This capture is a folder of rank summaries (npuscope summarize): each rank's verdict "
                                   "below was made where its trace lies. The Cluster dock compares the ranks (holders, "
                                   "steps, links); double-click a rank there to open it in full.")) +
         html;
}

}  // namespace

void TopDownPanel::styleVerdict() {
  // The box's colours come from the theme's chrome; its text from the palette (WindowText), so
  // that it reads on the dark theme too.
  const auto& c = ColorPalette::chrome();
  const QString css = QStringLiteral("QLabel#TopDownVerdict { background: %1; border-left: 3px solid %2; "
                                     "padding: 6px 8px; color: palette(window-text); }")
                          .arg(ColorPalette::css(m_verdictWarn ? c.verdictWarnFill : c.verdictOkFill),
                               ColorPalette::css(m_verdictWarn ? c.verdictWarnEdge : c.verdictOkEdge));
  if (m_verdict->styleSheet() != css) m_verdict->setStyleSheet(css);  // no PaletteChange loop
}

void TopDownPanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && !m_verdict->styleSheet().isEmpty()) styleVerdict();
}

void TopDownPanel::rebuild() {
  m_shares->setRank(m_profile, m_rank);
  m_bubbles->setRank(m_profile, m_rank);
  while (QLayoutItem* item = m_barsLayout->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  const core::RankAnalysis* a = analysisOf(m_profile, m_rank);
  if (!a) {
    const QString tables = tablesOnlyHtml(m_profile), summaries = summariesHtml(m_profile);
    m_verdict->setText(!summaries.isEmpty() ? summaries
                       : !tables.isEmpty() ? tables
                       : m_profile       ? tr("<i>No Top-Down analysis: the profile has no loadable trace.</i>")
                                         : tr("<i>Open a profile to see its Top-Down summary.</i>"));
    m_discrepancies->clear();
    m_discrepancies->hide();
    m_bubblesTitleText = tr("<b>Bubbles</b>");
    setStepFilter(kAllSteps);
    m_sharesView->setVisible(false);
    return;
  }
  m_rankCombo->setCurrentIndex(m_rankCombo->findData(m_rank));
  m_sharesView->setVisible(m_shares->rowCount() > 0);
  m_sharesView->resizeColumnsToContents();
  {
    // Fit the table's height to its rows (it sits in a scroll area already).
    const int h = m_sharesView->horizontalHeader()->height() + m_shares->rowCount() * m_sharesView->verticalHeader()->defaultSectionSize() +
                  2 * m_sharesView->frameWidth() + 2;
    m_sharesView->setFixedHeight(h);
  }

  // Verdict: the headline (the dominant share, the method's first question), the summary, the
  // further findings, then the suggestions.
  bool warn = false;
  for (const auto& d : a->devices) warn = warn || d.computed.freeRatio() > OverlapSharesModel::kFreeWarnRatio;
  const core::Verdict& v = a->verdict;
  warn = warn || v.partial;  // a partial capture: the figures cover only the part read
  QString html;
  if (!v.headline.empty())
    html += QStringLiteral("<div style='font-size:large; font-weight:700'>%1</div>")
                .arg(QString::fromStdString(v.headline).toHtmlEscaped());
  // The summary repeats the headline as its first words ("Communication bound: ..."): drop them.
  QString summary = QString::fromStdString(v.summary);
  for (const QString& colon : {QStringLiteral(": "), QStringLiteral("：")}) {  // the Chinese summary joins with "："
    const QString prefix = QString::fromStdString(v.headline) + colon;
    if (!v.headline.empty() && summary.startsWith(prefix)) {
      summary.remove(0, prefix.size());
      if (!summary.isEmpty()) summary[0] = summary[0].toUpper();
      break;
    }
  }
  html += QStringLiteral("<div style='font-weight:600'>%1</div>").arg(summary.toHtmlEscaped());
  if (!v.findings.empty()) {
    html += QStringLiteral("<ul style='margin-top:4px; margin-bottom:0px; margin-left:-24px'>");
    for (const std::string& s : v.findings)
      html += QStringLiteral("<li style='margin-bottom:2px'>%1</li>").arg(QString::fromStdString(s).toHtmlEscaped());
    html += QStringLiteral("</ul>");
  }
  if (!v.suggestions.empty()) {
    html += QStringLiteral("<div style='margin-top:4px; font-weight:600'>%1</div>").arg(tr("What to do"));
    html += QStringLiteral("<ul style='margin-top:2px; margin-bottom:0px; margin-left:-24px'>");
    for (const std::string& s : v.suggestions)
      html += QStringLiteral("<li style='margin-bottom:2px'>%1</li>").arg(QString::fromStdString(s).toHtmlEscaped());
    html += QStringLiteral("</ul>");
  }
  m_verdict->setText(html);
  m_verdictWarn = warn;
  styleVerdict();

  // One bar per device.
  const bool multi = a->devices.size() > 1;
  for (const core::DeviceAnalysis& d : a->devices) {
    auto* bar = new OverlapBar(multi ? QStringLiteral("NPU %1").arg(d.device) : QString(), d.computed, d.betweenIterationsNs, m_barsBox);
    m_barsLayout->addWidget(bar);
    m_barsLayout->addWidget(breakdownLabel(d, m_barsBox));
  }

  // Discrepancies reported by core.
  QStringList notes;
  for (const auto& d : a->devices)
    for (const std::string& s : d.discrepancies)
      notes << QStringLiteral("⚠ ") + (multi ? QStringLiteral("NPU %1: ").arg(d.device) : QString()) +
                   QString::fromStdString(s);
  m_discrepancies->setText(notes.join(QLatin1Char('\n')));
  m_discrepancies->setToolTip(notes.isEmpty() ? QString()
                                              : tr("Computed from the device tasks vs. recorded by the profiler "
                                                   "(Overlap Analysis lanes, step_trace_time.csv)"));
  m_discrepancies->setVisible(!notes.isEmpty());

  const int n = m_bubbles->rowCount();
  std::size_t found = 0;
  TimeNs foundNs = 0;
  for (const auto& d : a->devices) {
    found += d.gapsFound;
    foundNs += d.gapsFoundNs;
  }
  if (n == 0) {
    m_bubblesTitleText = tr("<b>Bubbles</b> — none");
  } else if (found > static_cast<std::size_t>(n)) {
    // Only the longest are listed: say how many there are in all, and their idle time.
    m_bubblesTitleText = (tr("<b>Bubbles</b> — the %1 longest of %2 device gaps (%3 of %4 idle; click to "
                               "show on the timeline)")
                                .arg(n)
                                .arg(found)
                                .arg(dur(m_bubbles->totalNs()))
                                .arg(dur(foundNs)));
  } else {
    m_bubblesTitleText = (tr("<b>Bubbles</b> — %1 device gaps, %2 in total (longest first; click to "
                               "show on the timeline)")
                                .arg(n)
                                .arg(dur(m_bubbles->totalNs())));
  }
  setStepFilter(m_stepFilter);
  m_bubbleView->sortByColumn(BubbleTableModel::Number, Qt::AscendingOrder);
  m_bubbleView->resizeColumnsToContents();
  QHeaderView* bh = m_bubbleView->horizontalHeader();
  bh->resizeSection(BubbleTableModel::Cause, std::max(bh->sectionSize(BubbleTableModel::Cause), 110));
}

void TopDownPanel::onCurrentRowChanged(const QModelIndex& current) {
  if (m_quiet || !current.isValid()) return;
  const QModelIndex src = m_bubbleProxy->mapToSource(current);
  const auto [d, b] = m_bubbles->bubbleAt(src.row());
  m_lastEmittedRow = current.row();
  m_lastEmit.start();
  emit bubbleActivated(BubbleRef{m_rank, d, b});
}

void TopDownPanel::selectBubble(int rankIndex, int deviceIndex, int bubbleIndex) {
  m_quiet = true;
  if (rankIndex >= 0 && rankIndex != m_rank) setRank(rankIndex);
  const int row = rankIndex == m_rank ? m_bubbles->rowOf(deviceIndex, bubbleIndex) : -1;
  if (row < 0) {
    m_bubbleView->clearSelection();
    m_bubbleView->selectionModel()->setCurrentIndex({}, QItemSelectionModel::Clear);
  } else {
    const QModelIndex idx = m_bubbleProxy->mapFromSource(m_bubbles->index(row, 0));
    m_bubbleView->selectionModel()->setCurrentIndex(
        idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_bubbleView->scrollTo(idx);
  }
  m_quiet = false;
}

std::pair<int, int> TopDownPanel::selectedBubble() const {
  const QModelIndexList rows = m_bubbleView->selectionModel()->selectedRows();
  if (rows.isEmpty()) return {-1, -1};
  return m_bubbles->bubbleAt(m_bubbleProxy->mapToSource(rows.first()).row());
}

QString TopDownPanel::verdictText() const {
  const core::RankAnalysis* a = analysisOf(m_profile, m_rank);
  if (!a) return {};
  QString s = a->verdict.headline.empty() ? QString() : QString::fromStdString(a->verdict.headline) + QLatin1Char('\n');
  s += QString::fromStdString(a->verdict.summary);
  for (const std::string& x : a->verdict.findings) s += QStringLiteral("\n* ") + QString::fromStdString(x);
  for (const std::string& x : a->verdict.suggestions) s += QStringLiteral("\n• ") + QString::fromStdString(x);
  return s;
}

QString TopDownPanel::discrepancyText() const { return m_discrepancies->text(); }

}  // namespace npuscope::widgets
