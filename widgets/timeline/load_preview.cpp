// SPDX-License-Identifier: MIT
#include "widgets/timeline/load_preview.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <charconv>
#include <map>
#include <set>


#include "widgets/timeline/timeline_widget.h"

namespace npuscope::widgets {

namespace {

/// The decimal value of `text` when it is a plain (optionally negative) integer that fits.
std::optional<std::int64_t> decimal(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

/// Stable order: entries with a sort index first, by index; the others keep their order.
template <class T, class Key>
void sortByIndex(std::vector<T>& v, Key key) {
  std::stable_sort(v.begin(), v.end(), [&](const T& a, const T& b) {
    const std::optional<std::int64_t>& x = key(a);
    const std::optional<std::int64_t>& y = key(b);
    if (x.has_value() != y.has_value()) return x.has_value();
    return x && *x < *y;
  });
}

}  // namespace

std::shared_ptr<core::Trace> buildSkeletonTrace(const core::LoadPreview& preview) {
  auto trace = std::make_shared<core::Trace>();
  struct Proc {
    std::string pid;
    std::string name;
    std::optional<std::int64_t> sort;
    std::vector<const core::LoadPreview::Track*> tracks;
  };
  std::vector<Proc> procs;
  std::map<std::string, std::size_t> procIndex;
  std::set<std::pair<std::string, std::string>> seen;
  for (const core::LoadPreview::Track& t : preview.tracks) {
    if (!seen.insert({t.pid, t.tid}).second) continue;
    auto [it, fresh] = procIndex.try_emplace(t.pid, procs.size());
    if (fresh) procs.push_back({t.pid, {}, std::nullopt, {}});
    Proc& p = procs[it->second];
    if (p.name.empty() && !t.processName.empty()) p.name = t.processName;
    if (!p.sort && t.processSortIndex) p.sort = t.processSortIndex;
    p.tracks.push_back(&t);
  }
  sortByIndex(procs, [](const Proc& p) -> const std::optional<std::int64_t>& { return p.sort; });

  trace->processes.reserve(procs.size());
  trace->lanes.reserve(seen.size());
  for (Proc& p : procs) {
    core::Process out;
    if (const auto n = decimal(p.pid)) out.pid = *n;
    else out.pidText = p.pid;
    out.name = p.name.empty() ? "Process " + p.pid : p.name;
    out.sortIndex = p.sort;
    const auto processIndex = static_cast<std::uint32_t>(trace->processes.size());
    trace->processes.push_back(std::move(out));
    sortByIndex(p.tracks, [](const core::LoadPreview::Track* t) -> const std::optional<std::int64_t>& {
      return t->threadSortIndex;
    });
    for (const core::LoadPreview::Track* t : p.tracks) {
      core::Lane lane;
      lane.process = processIndex;
      if (const auto n = decimal(t->tid)) lane.tid = *n;
      else lane.tidText = t->tid;
      lane.name = t->threadName;
      lane.sortIndex = t->threadSortIndex;
      trace->lanes.push_back(std::move(lane));
    }
  }
  if (preview.hasRange) trace->range = {preview.minTs, std::max(preview.maxTs, preview.minTs + 1)};
  trace->eventCount = preview.events;
  return trace;
}

std::shared_ptr<core::Profile> buildSkeletonProfile(const std::string& path,
                                                    const std::vector<core::RankSource>& ranks,
                                                    const std::vector<std::optional<core::LoadPreview>>& previews) {
  auto profile = std::make_shared<core::Profile>();
  profile->path = path;
  profile->ranks.reserve(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    core::RankProfile rp;
    rp.source = ranks[i];
    if (i < previews.size() && previews[i]) rp.trace = buildSkeletonTrace(*previews[i]);
    profile->ranks.push_back(std::move(rp));
  }
  return profile;
}

LoadPreviewView::LoadPreviewView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("LoadPreviewView"));
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->setSpacing(0);

  m_banner = new QWidget(this);
  m_banner->setObjectName(QStringLiteral("LoadBanner"));
  m_banner->setAttribute(Qt::WA_StyledBackground, true);
  m_banner->setStyleSheet(QStringLiteral(
      // Palette roles only, so that the banner follows the light or dark theme.
      "#LoadBanner { background: palette(alternate-base); border-bottom: 1px solid palette(mid); }"
      "#LoadBanner QProgressBar { background: palette(midlight); border: none; border-radius: 3px; }"
      "#LoadBanner QProgressBar::chunk { background: palette(highlight); border-radius: 3px; }"));
  auto* box = new QVBoxLayout(m_banner);
  box->setContentsMargins(14, 9, 10, 10);
  box->setSpacing(6);
  auto* top = new QHBoxLayout;
  top->setSpacing(10);
  m_title = new QLabel(m_banner);
  m_title->setObjectName(QStringLiteral("LoadTitle"));
  QFont bold = m_title->font();
  bold.setWeight(QFont::DemiBold);
  m_title->setFont(bold);
  m_title->setTextFormat(Qt::PlainText);
  m_detail = new QLabel(m_banner);
  m_detail->setObjectName(QStringLiteral("LoadDetail"));
  m_detail->setTextFormat(Qt::PlainText);
  m_hint = new QLabel(tr("Esc to cancel"), m_banner);
  m_hint->setObjectName(QStringLiteral("LoadHint"));
  m_hint->setForegroundRole(QPalette::PlaceholderText);
  m_cancel = new QPushButton(tr("Cancel"), m_banner);
  m_cancel->setObjectName(QStringLiteral("LoadCancel"));
  m_cancel->setToolTip(tr("Stop loading and free its memory (Esc)"));
  m_cancel->setFocusPolicy(Qt::NoFocus);  // Esc and the window keep working
  connect(m_cancel, &QPushButton::clicked, this, &LoadPreviewView::cancelRequested);
  // Neither the capture's name nor the status text may widen the window (a long folder name,
  // "reading ... of ..." at 2x scale made the main window 1053 px wide while loading, and it
  // stayed so: the first-window test at a scale factor of 2).
  // Both keep their text's width while there is room and shrink (clipped) when there is not.
  m_title->setMinimumWidth(1);
  m_detail->setMinimumWidth(1);
  top->addWidget(m_title);
  top->addWidget(m_detail, 1);
  top->addWidget(m_hint);
  top->addWidget(m_cancel);
  box->addLayout(top);
  m_bar = new QProgressBar(m_banner);
  m_bar->setRange(0, 1000);
  m_bar->setTextVisible(false);
  m_bar->setFixedHeight(6);
  box->addWidget(m_bar);
  outer->addWidget(m_banner);

  m_timeline = new TimelineWidget(this);
  m_timeline->setObjectName(QStringLiteral("PreviewTimeline"));
  outer->addWidget(m_timeline, 1);
  m_waiting = new QLabel(tr("Reading the first events…"), m_timeline);
  m_waiting->setObjectName(QStringLiteral("LoadWaiting"));
  m_waiting->setAlignment(Qt::AlignCenter);
  m_waiting->setForegroundRole(QPalette::PlaceholderText);
  m_waiting->setAttribute(Qt::WA_TransparentForMouseEvents);
  m_timeline->installEventFilter(this);
  setFocusPolicy(Qt::StrongFocus);
  reset();
}

bool LoadPreviewView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_timeline && event->type() == QEvent::Resize) placeWaiting();
  return QWidget::eventFilter(watched, event);
}

void LoadPreviewView::placeWaiting() {
  m_waiting->setGeometry(QRect(QPoint(0, 0), m_timeline->size()));
  m_waiting->raise();
}

bool LoadPreviewView::isWaitingForLanes() const { return !m_waiting->isHidden(); }

LoadPreviewView::~LoadPreviewView() = default;

void LoadPreviewView::setSkeleton(std::shared_ptr<const core::Profile> skeleton) {
  m_skeleton = std::move(skeleton);
  const bool lanes = m_skeleton && std::any_of(m_skeleton->ranks.begin(), m_skeleton->ranks.end(), [](const auto& r) {
                       return r.trace && !r.trace->lanes.empty();
                     });
  const int scroll = m_timeline->verticalScroll();
  // An empty profile rather than none: the canvas then stays blank instead of "No profile".
  m_timeline->setProfile(m_skeleton ? m_skeleton : std::make_shared<const core::Profile>());
  m_timeline->setVerticalScroll(scroll);
  m_waiting->setVisible(!lanes);
  if (!lanes) placeWaiting();
}

void LoadPreviewView::setBanner(const LoadBannerState& state) {
  m_title->setText(state.title);
  m_detail->setText(state.detail);
  m_bar->setValue(static_cast<int>(std::clamp(state.fraction, 0.0, 1.0) * 1000.0 + 0.5));
}

void LoadPreviewView::reset() {
  setSkeleton(nullptr);
  m_title->setText(tr("Loading"));
  m_detail->clear();
  m_bar->setValue(0);
}

QString LoadPreviewView::titleText() const { return m_title->text(); }
QString LoadPreviewView::detailText() const { return m_detail->text(); }
int LoadPreviewView::barValue() const { return m_bar->value(); }

}  // namespace npuscope::widgets
