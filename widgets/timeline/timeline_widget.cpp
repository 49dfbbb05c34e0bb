// SPDX-License-Identifier: MIT
#include "widgets/timeline/timeline_widget.h"

#include <QGridLayout>
#include <QPainter>
#include <QScrollBar>
#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "core/query/lod.h"
#include "core/base/time_format.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/lane_header.h"
#include "widgets/timeline/markers.h"
#include "widgets/timeline/render_passes.h"
#include "widgets/timeline/timeline_overlays.h"
#include "widgets/dialogs/shortcuts_dialog.h"
#include "widgets/timeline/time_ruler.h"
#include "widgets/timeline/timeline_viewport.h"

namespace npuscope::widgets {

namespace {

/// Top-left corner above the lane headers: shows the visible duration.
class CornerWidget : public QWidget {
 public:
  CornerWidget(std::function<void(QPainter&, QSize)> paint, QWidget* parent)
      : QWidget(parent), m_paint(std::move(paint)) {
    setAttribute(Qt::WA_OpaquePaintEvent);
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    m_paint(p, size());
  }

 private:
  std::function<void(QPainter&, QSize)> m_paint;
};

}  // namespace

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
  qRegisterMetaType<npuscope::core::SliceRef>();
  qRegisterMetaType<npuscope::core::TimeRange>();
  qRegisterMetaType<npuscope::widgets::RankSliceRef>();
  qRegisterMetaType<npuscope::widgets::BubbleRef>();
  m_viewport = new TimelineViewport(this);
  m_ctx.viewport = m_viewport;
  m_ruler = new TimeRuler(&m_ctx, this);
  m_header = new LaneHeader(&m_ctx, this);
  m_canvas = new LaneCanvas(&m_ctx, this);
  m_vscroll = new QScrollBar(Qt::Vertical, this);
  m_corner = new CornerWidget([this](QPainter& p, QSize s) { paintCorner(p, s); }, this);
  m_corner->setFixedSize(m_header->width(), m_ruler->preferredHeight());
  m_ruler->setFocusPolicy(Qt::NoFocus);
  m_header->setFocusPolicy(Qt::NoFocus);
  m_vscroll->setFocusPolicy(Qt::NoFocus);

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(0);
  grid->addWidget(m_corner, 0, 0);
  grid->addWidget(m_ruler, 0, 1);
  grid->addWidget(m_header, 1, 0);
  grid->addWidget(m_canvas, 1, 1);
  grid->addWidget(m_vscroll, 1, 2);
  grid->setRowStretch(1, 1);
  grid->setColumnStretch(1, 1);
  setFocusProxy(m_canvas);

  connect(m_viewport, &TimelineViewport::visibleRangeChanged, this, [this](core::TimeRange r) {
    m_canvas->update();
    m_ruler->update();
    m_corner->update();
    if (m_viewState) m_viewState->setVisibleRange(r);
    emit visibleRangeChanged(r);
  });
  connect(m_viewport, &TimelineViewport::selectionChanged, this, [this] {
    m_canvas->update();
    m_ruler->update();
  });
  connect(m_vscroll, &QScrollBar::valueChanged, this, [this](int v) {
    if (v == m_ctx.scrollY) return;
    m_ctx.scrollY = v;
    m_canvas->update();
    m_header->update();
    emit verticalScrollChanged(v);
  });
  connect(m_header, &LaneHeader::toggleRequested, this, [this](int row) {
    m_ctx.layout.toggleRow(row);
    relayout();
  });
  connect(m_header, &LaneHeader::rankStepRequested, this, &TimelineWidget::scrollByRanks);
  connect(m_canvas, &LaneCanvas::rankStepRequested, this, &TimelineWidget::scrollByRanks);
  connect(m_canvas, &LaneCanvas::scrollRequested, this, &TimelineWidget::scrollBy);
  connect(m_canvas, &LaneCanvas::scrollToRequested, this, &TimelineWidget::setVerticalScroll);
  connect(m_canvas, &LaneCanvas::sliceClicked, this, &TimelineWidget::onSliceClicked);
  connect(m_canvas, &LaneCanvas::hoverChanged, this, &TimelineWidget::hoveredSliceChanged);
  connect(m_canvas, &LaneCanvas::bubbleClicked, this, &TimelineWidget::bubbleClicked);
  m_sliceSet = static_cast<SliceSetPass*>(m_canvas->addRenderPass(std::make_unique<SliceSetPass>(), "hover"));
  m_markers = new MarkerList(this);
  m_ctx.markers = m_markers;
  m_canvas->addRenderPass(std::make_unique<MarkersPass>(m_markers), "slice-set");
  m_moment = static_cast<MomentPass*>(m_canvas->addRenderPass(std::make_unique<MomentPass>(), "slice-set"));
  connect(m_markers, &MarkerList::changed, this, [this] {
    // The ruler grows a band for the markers' names while there are any (and the corner with it).
    m_ruler->updateHeight();
    m_corner->setFixedSize(m_header->width(), m_ruler->preferredHeight());
    m_canvas->update();
    m_ruler->update();
  });
  connect(m_canvas, &LaneCanvas::pointMarkerRequested, this, [this](core::TimeNs t) {
    if (m_ctx.profile) m_markers->addPoint(t);
  });
  connect(m_canvas, &LaneCanvas::rangeMarkerRequested, this, [this] {
    const core::TimeRange sel = m_viewport->selection();
    if (m_ctx.profile && !sel.empty()) m_markers->addRange(sel);
  });
  connect(m_canvas, &LaneCanvas::shortcutsRequested, this, &TimelineWidget::showShortcuts);
  connect(m_canvas, &LaneCanvas::zoomToSliceRequested, this, &TimelineWidget::zoomToSelectedSlice);
  connect(m_ruler, &TimeRuler::wheelZoom, this, [this](double x, double factor) {
    const auto view = m_viewport->visibleRange();
    m_viewport->zoomAt(core::xToTime(x, view, std::max(1, m_ruler->width())), factor);
  });
  relayout();
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::revealMarker(int index) {
  if (index < 0 || index >= m_markers->size()) return;
  const Marker& m = m_markers->markers()[static_cast<std::size_t>(index)];
  if (m.isRange()) {
    const core::TimeNs margin = std::max<core::TimeNs>(m.end / 10 - m.start / 10, 1);
    setVisibleRange({m.start - margin, m.end + margin});
  } else {
    const core::TimeRange view = m_viewport->visibleRange();
    const core::TimeNs half = std::max<core::TimeNs>(view.duration() / 2, 500);
    setVisibleRange({m.start - half, m.start + half});
  }
}

void TimelineWidget::setProfile(std::shared_ptr<const core::Profile> profile) {
  m_ctx.profile = std::move(profile);
  m_chainUnfolded.clear();  // lane indexes of the previous profile
  m_ctx.selected = {};
  m_ctx.selectedRank = -1;
  m_ctx.hovered = {};
  m_ctx.hoveredRank = -1;
  m_canvas->bubbles()->setSelected({});
  m_canvas->chain()->setChain(-1, {});
  m_sliceSet->clear();
  m_moment->setMoment(-1, 0, {});
  m_canvas->nameMarks()->clearHighlight();
  m_canvas->nameMarks()->clearSearch();
  m_ctx.scrollY = 0;
  m_ctx.layout.setProfile(m_ctx.profile);
  m_viewport->setTraceRange(m_ctx.profile ? m_ctx.profile->range() : core::TimeRange{});
  relayout();
  update();
}

void TimelineWidget::clear() { setProfile(nullptr); }

void TimelineWidget::setVisibleRange(core::TimeRange range) { m_viewport->setVisibleRange(range, true); }

void TimelineWidget::fitAll() { m_viewport->fitAll(); }

int TimelineWidget::headerWidth() const { return m_header->width(); }

int TimelineWidget::rulerHeight() const { return m_ruler->preferredHeight(); }

void TimelineWidget::onSliceClicked(RankSliceRef ref) {
  if (ref.rank == m_ctx.selectedRank && ref.slice == m_ctx.selected) return;
  m_ctx.selectedRank = ref.slice.valid() ? ref.rank : -1;
  m_ctx.selected = ref.slice.valid() ? ref.slice : core::SliceRef{};
  m_canvas->update();
  if (m_viewState) m_viewState->setSelectedSlice(selection());
  emit sliceSelected(selection());
}

void TimelineWidget::selectSlice(int rankIndex, core::SliceRef ref) {
  const auto& p = m_ctx.profile;
  bool ok = p && rankIndex >= 0 && static_cast<std::size_t>(rankIndex) < p->ranks.size() && ref.valid();
  const core::Trace* t = ok ? p->ranks[static_cast<std::size_t>(rankIndex)].trace.get() : nullptr;
  ok = ok && t && ref.lane < t->lanes.size() && ref.index < t->lanes[ref.lane].sliceCount();
  if (!ok) {
    onSliceClicked({});
    return;
  }
  // Make the slice's row visible: expand its rank/process, then scroll to it.
  const std::uint32_t proc = t->lanes[ref.lane].process;
  if (!m_ctx.layout.isRankExpanded(rankIndex)) m_ctx.layout.setRankExpanded(rankIndex, true);
  if (!m_ctx.layout.isProcessExpanded(rankIndex, proc)) m_ctx.layout.setProcessExpanded(rankIndex, proc, true);
  if (t->lanes[ref.lane].depthOf(ref.index) >= LaneLayout::kFoldedRows && m_ctx.layout.isLaneFolded(rankIndex, ref.lane))
    m_ctx.layout.setLaneFolded(rankIndex, ref.lane, false);
  relayout();
  const int row = m_ctx.layout.rowOfSlice(rankIndex, ref.lane, t->lanes[ref.lane].depthOf(ref.index));
  if (row >= 0) {
    const LayoutRow& r = m_ctx.layout.rows()[static_cast<std::size_t>(row)];
    const int h = m_canvas->height();
    if (r.y < m_ctx.scrollY || r.y + r.height > m_ctx.scrollY + h) setVerticalScroll(r.y - h / 3);
  }
  onSliceClicked({rankIndex, ref});
}

void TimelineWidget::zoomToSelectedSlice() {
  if (!m_ctx.selected.valid() || !m_ctx.profile) return;
  const auto& t = m_ctx.profile->ranks[static_cast<std::size_t>(m_ctx.selectedRank)].trace;
  if (!t) return;
  const core::TimeRange r = t->sliceRange(m_ctx.selected);
  const core::TimeNs pad = std::max<core::TimeNs>(r.duration() / 10, 50);
  m_viewport->setVisibleRange({r.start - pad, r.end + pad}, true);
}

void TimelineWidget::setVisibleFlowCategories(const QSet<QString>& categories) {
  m_ctx.flowCategories = categories;
  m_canvas->update();
}

void TimelineWidget::setHighlightedNames(int rankIndex, std::vector<bool> nameMask) {
  m_canvas->nameMarks()->setHighlight(rankIndex, std::move(nameMask));
  m_canvas->update();
}

void TimelineWidget::clearHighlightedNames() {
  m_canvas->nameMarks()->clearHighlight();
  m_canvas->update();
}

void TimelineWidget::setSearchMatches(int rankIndex, std::vector<bool> nameMask) {
  m_canvas->nameMarks()->setSearch(rankIndex, std::move(nameMask));
  m_canvas->update();
}

void TimelineWidget::clearSearchMatches() {
  m_canvas->nameMarks()->clearSearch();
  m_canvas->update();
}

bool TimelineWidget::hasSearchMatches() const { return m_canvas->nameMarks()->dimNonMatching(); }

bool TimelineWidget::isHighlighted(int rankIndex, core::SliceRef ref) const {
  return m_canvas->nameMarks()->isHighlighted(m_ctx.profile.get(), rankIndex, ref);
}

bool TimelineWidget::isSearchMatch(int rankIndex, core::SliceRef ref) const {
  return m_canvas->nameMarks()->isSearchMatch(m_ctx.profile.get(), rankIndex, ref);
}

void TimelineWidget::setViewState(ViewState* state) {
  if (m_viewState) disconnect(m_viewState, nullptr, this, nullptr);
  m_viewState = state;
  if (!state) return;
  connect(state, &ViewState::profileChanged, this, [this](const std::shared_ptr<const core::Profile>& p) {
    if (p != m_ctx.profile) setProfile(p);
  });
  connect(state, &ViewState::selectedSliceChanged, this, [this](RankSliceRef ref) {
    if (!(ref == selection())) revealSlice(ref.rank, ref.slice);
  });
  connect(state, &ViewState::visibleRangeChanged, this, [this](core::TimeRange range) {
    if (!range.empty() && range != m_viewport->visibleRange()) setVisibleRange(range);
  });
  connect(state, &ViewState::selectedBubbleChanged, this, [this](BubbleRef ref) {
    if (!(ref == selectedBubble())) setSelectedBubble(ref);
  });
  state->setSelectedSlice(selection());
  state->setVisibleRange(m_viewport->visibleRange());
  state->setSelectedBubble(selectedBubble());
}

void TimelineWidget::revealSlice(int rankIndex, core::SliceRef ref) {
  selectSlice(rankIndex, ref);
  if (!m_ctx.selected.valid()) return;
  const core::TimeRange r = m_ctx.profile->ranks[static_cast<std::size_t>(rankIndex)].trace->sliceRange(ref);
  const core::TimeRange v = m_viewport->visibleRange();
  if (r.duration() * 10 > v.duration() * 9) {
    zoomToSelectedSlice();
    return;
  }
  if (r.start >= v.start && r.end <= v.end) return;  // fully visible: leave the view alone
  const core::TimeNs mid = r.start + r.duration() / 2;
  m_viewport->setVisibleRange({mid - v.duration() / 2, mid - v.duration() / 2 + v.duration()}, true);
}

int TimelineWidget::focusLanes(int rankIndex, const std::vector<core::SliceRef>& slices, int viewHeight) {
  if (!m_ctx.profile || rankIndex < 0 || static_cast<std::size_t>(rankIndex) >= m_ctx.profile->ranks.size()) return -1;
  const core::Trace* trace = m_ctx.profile->ranks[static_cast<std::size_t>(rankIndex)].trace.get();
  if (!trace) return -1;
  std::set<std::uint32_t> processes;
  std::vector<core::SliceRef> valid;
  for (const core::SliceRef& s : slices)
    if (s.valid() && s.lane < trace->lanes.size() && trace->lanes[s.lane].process < trace->processes.size()) {
      processes.insert(trace->lanes[s.lane].process);
      valid.push_back(s);
    }
  if (valid.empty()) return -1;
  // The rows of the slices: the topmost one's rank and process headers, the lowest row's bottom.
  struct Span {
    int rankY = -1, rankHeight = 0, processY = -1, bottom = -1;
  };
  const auto span = [&]() {
    const auto& rows = m_ctx.layout.rows();
    int topRow = -1;
    Span out;
    for (const core::SliceRef& s : valid) {
      const std::uint32_t depth = trace->lanes[s.lane].depthOf(s.index);
      const int row = m_ctx.layout.rowOfSlice(rankIndex, s.lane, depth, true);
      if (row < 0) continue;
      if (topRow < 0 || row < topRow) topRow = row;
      const LayoutRow& r = rows[static_cast<std::size_t>(row)];
      out.bottom = std::max(out.bottom, r.y + r.height);
    }
    if (topRow < 0) return out;
    out.processY = out.rankY = rows[static_cast<std::size_t>(topRow)].y;
    bool process = false;
    for (int i = topRow; i >= 0; --i) {
      const LayoutRow& r = rows[static_cast<std::size_t>(i)];
      if (r.rank != rankIndex) break;
      if (r.kind == LayoutRow::Kind::Process && !process) {
        out.processY = r.y;
        process = true;
      }
      if (r.kind == LayoutRow::Kind::Rank) {
        out.rankY = r.y;
        out.rankHeight = r.height;
        break;
      }
    }
    return out;
  };
  const int canvasHeight = viewHeight >= 0 ? viewHeight : m_canvas->height();
  Span at = span();
  if (at.bottom < 0 || at.bottom - at.rankY > canvasHeight) {
    // They do not fit as laid out: collapse every process that holds none of them.
    LaneLayout::ExpandState state = m_ctx.layout.expandState();
    for (std::size_t r = 0; r < m_ctx.profile->ranks.size(); ++r) {
      const core::Trace* t = m_ctx.profile->ranks[r].trace.get();
      if (!t) continue;
      const int rank = static_cast<int>(r);
      state.ranks[rank] = rank == rankIndex;
      for (std::uint32_t p = 0; p < t->processes.size(); ++p)
        state.processes[{rank, p}] = rank == rankIndex && processes.count(p) > 0;
    }
    setExpandState(state);
    at = span();
  }
  if (at.bottom < 0) return -1;
  // From the rank's header when everything fits below it, else from the process header under
  // the rank's sticky label (LaneHeader::stickyRows): the topmost slice's lane (the device task,
  // device lanes first) must never sit under the sticky rank and process labels; what does not
  // fit is cut at the bottom (a with_stack Python stack of 35 levels).
  const int underLabel = at.processY - at.rankHeight;
  const int top = at.bottom - at.rankY <= canvasHeight ? at.rankY : std::max(0, underLabel);
  setVerticalScroll(top);
  return at.bottom - top;
}

void TimelineWidget::setAllProcessesExpanded(bool expanded) {
  m_ctx.layout.setAllProcessesExpanded(expanded);
  relayout();
}

void TimelineWidget::setExpandState(const LaneLayout::ExpandState& state) {
  m_ctx.layout.setExpandState(state);
  relayout();
}

void TimelineWidget::setDeviceFirst(bool on) {
  m_ctx.layout.setDeviceFirst(on);
  relayout();
}

void TimelineWidget::setWheelZooms(bool on) { m_canvas->setWheelZooms(on); }

bool TimelineWidget::wheelZooms() const { return m_canvas->wheelZooms(); }

void TimelineWidget::setVerticalScroll(int y) {
  const int maxY = std::max(0, m_ctx.layout.totalHeight() - m_canvas->height());
  y = std::clamp(y, 0, maxY);
  m_vscroll->setValue(y);
  if (m_ctx.scrollY != y) {
    m_ctx.scrollY = y;
    m_canvas->update();
    m_header->update();
    emit verticalScrollChanged(y);
  }
}

void TimelineWidget::scrollBy(int dy) { setVerticalScroll(m_ctx.scrollY + dy); }

std::vector<std::pair<int, int>> TimelineWidget::rankHeaders() const {
  std::vector<std::pair<int, int>> out;
  for (const LayoutRow& r : m_ctx.layout.rows())
    if (r.kind == LayoutRow::Kind::Rank) out.emplace_back(r.rank, r.y);
  return out;
}

std::pair<int, int> TimelineWidget::rankAtTop() const {
  std::pair<int, int> at{-1, m_ctx.scrollY};
  for (const auto& [rank, y] : rankHeaders())
    if (y <= m_ctx.scrollY) at = {rank, m_ctx.scrollY - y};
  return at;
}

void TimelineWidget::scrollByRanks(int step) {
  const std::vector<std::pair<int, int>> tops = rankHeaders();
  if (tops.empty() || step == 0) return;
  // The rank at the top: the last header at or above the scroll position.
  std::size_t at = 0;
  while (at + 1 < tops.size() && tops[at + 1].second <= m_ctx.scrollY) ++at;
  // Scrolling up from inside a rank goes to its own header first.
  if (step < 0 && tops[at].second < m_ctx.scrollY) ++step;
  const auto target = std::clamp<long long>(static_cast<long long>(at) + step, 0, static_cast<long long>(tops.size()) - 1);
  setVerticalScroll(tops[static_cast<std::size_t>(target)].second);
}

void TimelineWidget::relayout() {
  m_canvas->invalidate();
  updateScrollBar();
  m_header->update();
  m_canvas->update();
  m_ruler->update();
  m_corner->update();
}

void TimelineWidget::updateScrollBar() {
  const int page = std::max(1, m_canvas->height());
  const int maxY = std::max(0, m_ctx.layout.totalHeight() - page);
  m_vscroll->setRange(0, maxY);
  m_vscroll->setPageStep(page);
  m_vscroll->setSingleStep(m_ctx.layout.metrics().sliceRow);
  if (m_ctx.scrollY > maxY) {
    m_ctx.scrollY = maxY;
  }
  m_vscroll->setValue(m_ctx.scrollY);
}

void TimelineWidget::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  updateScrollBar();
}

void TimelineWidget::paintCorner(QPainter& p, QSize size) const {
  p.fillRect(QRect(QPoint(0, 0), size), QColor::fromRgb(ColorPalette::chrome().headerBackground));
  p.setPen(QColor::fromRgb(ColorPalette::chrome().separator));
  p.drawLine(0, size.height() - 1, size.width(), size.height() - 1);
  p.drawLine(size.width() - 1, 0, size.width() - 1, size.height());
  if (!m_ctx.profile) return;
  const core::TimeRange v = m_viewport->visibleRange();
  if (v.empty()) return;  // a load preview before any event was read: no range to describe yet
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  p.setFont(f);
  p.setPen(QColor::fromRgb(ColorPalette::chrome().textDim));
  const core::TimeNs tick = std::max<core::TimeNs>(1, v.duration() / 100);
  // Before the capture start (the view may show a margin there) the offset is "-9 ms", never "+-9 ms".
  const core::TimeNs offset = v.start - m_ctx.origin();
  const QString text = (offset >= 0 ? tr("view %1  ·  +%2") : tr("view %1  ·  %2"))
                           .arg(QString::fromStdString(core::formatDuration(v.duration())),
                                QString::fromStdString(core::formatTickLabel(offset, tick)));
  p.drawText(QRect(8, 0, size.width() - 12, size.height() - 1), Qt::AlignVCenter | Qt::AlignLeft, text);
}

QRect TimelineWidget::partRect(Part part, QSize logicalSize) const {
  const int hw = m_header->width();
  const int rh = rulerHeight();
  const int cw = qMax(1, logicalSize.width() - hw), ch = qMax(1, logicalSize.height() - rh);
  switch (part) {
    case Part::Corner: return {0, 0, hw, rh};
    case Part::Ruler: return {hw, 0, cw, rh};
    case Part::Header: return {0, rh, hw, ch};
    case Part::Canvas: break;
  }
  return {hw, rh, cw, ch};
}

void TimelineWidget::paintPart(QPainter& p, Part part, QSize logicalSize, int scrollY) {
  const QSize size = partRect(part, logicalSize).size();
  p.save();
  p.setFont(font());
  // The scroll position, valid for this canvas height, for the time of the paint.
  const int savedScroll = m_ctx.scrollY;
  m_ctx.scrollY = std::clamp(scrollY, 0, std::max(0, m_ctx.layout.totalHeight() - partRect(Part::Canvas, logicalSize).height()));
  switch (part) {
    case Part::Corner: paintCorner(p, size); break;
    case Part::Ruler: m_ruler->paintTo(p, size); break;
    case Part::Header: m_header->paintTo(p, size); break;
    case Part::Canvas: m_canvas->paintTo(p, size); break;
  }
  m_ctx.scrollY = savedScroll;
  if (part == Part::Canvas) m_canvas->invalidate();  // its draw list was built for this size and scroll
  p.restore();
}

void TimelineWidget::setLaneFilter(LaneLayout::LaneFilter filter) {
  m_ctx.layout.setLaneFilter(std::move(filter));
  relayout();
}

QImage TimelineWidget::renderToImage(QSize logicalSize, qreal dpr) {
  if (dpr <= 0) dpr = 1.0;
  const QSize phys(qMax(1, qRound(logicalSize.width() * dpr)), qMax(1, qRound(logicalSize.height() * dpr)));
  QImage img(phys, QImage::Format_ARGB32_Premultiplied);
  img.setDevicePixelRatio(dpr);
  // The background, except under the lanes at a whole device pixel ratio: LaneCanvas::paintTo
  // fills its whole rect with it first (at a fractional ratio the rects' edges fall inside pixels).
  const QColor background = QColor::fromRgb(ColorPalette::chrome().background);
  const bool wholeRatio = dpr == std::round(dpr);
  if (!wholeRatio) img.fill(background);
  QPainter p(&img);
  if (wholeRatio) {
    const QRegion outside = QRegion(QRect(QPoint(0, 0), logicalSize)) - QRegion(partRect(Part::Canvas, logicalSize));
    for (const QRect& r : outside) p.fillRect(r, background);
  }
  for (const Part part : {Part::Corner, Part::Ruler, Part::Header, Part::Canvas}) {
    const QRect r = partRect(part, logicalSize);
    p.save();
    p.translate(r.topLeft());
    p.setClipRect(QRect(QPoint(0, 0), r.size()));
    paintPart(p, part, logicalSize, m_ctx.scrollY);
    p.restore();
  }
  return img;
}

void TimelineWidget::setShortcutActions(const QList<QAction*>& actions) {
  m_shortcutActions.clear();
  for (QAction* a : actions) m_shortcutActions << QPointer<QAction>(a);
  if (m_shortcuts) m_shortcuts->setActions(actions);
}

void TimelineWidget::showShortcuts() {
  if (!m_shortcuts) {
    m_shortcuts = new ShortcutsDialog(this);
    QList<QAction*> actions;
    for (const QPointer<QAction>& a : m_shortcutActions)
      if (a) actions << a.data();
    m_shortcuts->setActions(actions);
  }
  m_shortcuts->show();
  m_shortcuts->raise();
  m_shortcuts->activateWindow();
}

}  // namespace npuscope::widgets
