// SPDX-License-Identifier: MIT
#include "widgets/panels/cluster_panel.h"

#include <QComboBox>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "core/analysis/rank_summary.h"

#include <algorithm>

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPalette>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTimer>
#include <QTableView>
#include <QVBoxLayout>

#include "core/analysis/analysis.h"
#include "core/analysis/profile_analysis.h"
#include "core/base/time_format.h"

namespace npuscope::widgets {

namespace {

// ns as ms with three decimals ("5.608"): the unit is in the column header.
QString ms(core::TimeNs ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); }
QString duration(core::TimeNs ns) { return QString::fromStdString(core::formatDuration(ns)); }

const core::ProfileAnalysis* analysisOf(const std::shared_ptr<const core::Profile>& p) {
  return p ? p->analysis.get() : nullptr;
}

int rankNumber(const core::Profile& p, std::size_t rankIndex) {
  return rankIndex < p.ranks.size() ? p.ranks[rankIndex].rank() : -1;
}

QString rankText(int rank) { return rank >= 0 ? QString::number(rank) : QStringLiteral("?"); }

// The view's base colour (the table background) in the current theme.
QColor baseColor() { return QGuiApplication::palette().color(QPalette::Base); }

// Black or white, whichever reads on `bg` (relative luminance, sRGB weights).
QColor textOn(const QColor& bg) {
  const double l = 0.2126 * bg.redF() + 0.7152 * bg.greenF() + 0.0722 * bg.blueF();
  return l > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
}

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
  auto* proxy = new QSortFilterProxyModel(parent);
  proxy->setSourceModel(model);
  proxy->setSortRole(Qt::UserRole);
  auto* view = new QTableView(parent);
  view->setModel(proxy);
  view->setWordWrap(false);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // the model's order first
  view->setSortingEnabled(true);
  view->horizontalHeader()->setHighlightSections(false);
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  return view;
}

// Draws a selected heat-map cell with its own background and a frame in the highlight colour,
// so that selecting a collective does not hide its skews.
class HeatCellDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    if (!(option.state & QStyle::State_Selected) || !index.data(Qt::BackgroundRole).isValid()) {
      QStyledItemDelegate::paint(painter, option, index);
      return;
    }
    QStyleOptionViewItem plain(option);
    plain.state &= ~QStyle::State_Selected;
    QStyledItemDelegate::paint(painter, plain, index);
    painter->save();
    painter->setPen(QPen(option.palette.color(QPalette::Highlight), 2));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(QRectF(option.rect).adjusted(1, 1, -1, -1));
    painter->restore();
  }
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// ClusterRankModel

ClusterRankModel::ClusterRankModel(QObject* parent) : QAbstractTableModel(parent) {}

void ClusterRankModel::setProfile(const std::shared_ptr<const core::Profile>& profile) {
  beginResetModel();
  m_profile = profile;
  m_rows.clear();
  if (const core::ProfileAnalysis* a = analysisOf(profile)) {
    std::vector<Row> byIndex(profile->ranks.size());
    std::vector<bool> used(profile->ranks.size(), false);
    const auto at = [&](std::size_t i) -> Row* {
      if (i >= byIndex.size()) return nullptr;
      used[i] = true;
      byIndex[i].rankIndex = i;
      byIndex[i].rank = rankNumber(*profile, i);
      return &byIndex[i];
    };
    for (const core::RankTimeFigures& f : a->ranks)
      if (Row* r = at(f.rankIndex)) r->figures = &f;
    for (const core::RankCollectiveTotals& t : a->comm.totals)
      if (Row* r = at(t.rankIndex)) r->totals = &t;
    for (const core::RankClock& c : a->comm.clocks)
      if (Row* r = at(c.rankIndex)) r->clock = &c;
    for (std::size_t i = 0; i < byIndex.size(); ++i)
      if (used[i]) m_rows.push_back(byIndex[i]);
  }
  endResetModel();
}

int ClusterRankModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}
int ClusterRankModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ClusterRankModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size())) return {};
  const Row& row = m_rows[static_cast<std::size_t>(index.row())];
  const int col = index.column();
  if (role == Qt::TextAlignmentRole)
    return col == Rank ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole) {
    if (col == ClockOffset && row.clock)
      return tr("Estimated offset of this rank's clock against the reference rank: %1 ns, the median over %2 "
                "collectives of the difference of their ends. %3")
          .arg(row.clock->estimate)
          .arg(row.clock->samples)
          .arg(row.clock->applied ? tr("Applied to the starts.")
                                  : tr("Not applied: too few collectives, ends on both sides, or under 50 us; the "
                                       "ranks are taken to share one clock."));
    if (row.figures && (col == Computing || col == CommNotOverlapped || col == Free))
      return tr("From %1").arg(QString::fromStdString(row.figures->source));
    if (col == Rank && m_profile && row.rankIndex < m_profile->ranks.size())
      return QString::fromStdString(m_profile->ranks[row.rankIndex].source.label);
    return {};
  }
  if (role == kRankIndexRole) return static_cast<int>(row.rankIndex);
  const bool sort = role == Qt::UserRole;
  if (role != Qt::DisplayRole && !sort) return {};
  const auto timeCell = [&](bool has, core::TimeNs ns) -> QVariant {
    if (!has) return sort ? QVariant(qlonglong(-1)) : QVariant(QStringLiteral("—"));
    return sort ? QVariant(qlonglong(ns)) : QVariant(ms(ns));
  };
  switch (col) {
    case Rank: return sort ? QVariant(row.rank) : QVariant(rankText(row.rank));
    case Computing: return timeCell(row.figures, row.figures ? row.figures->computing : 0);
    case CommNotOverlapped: return timeCell(row.figures, row.figures ? row.figures->commNotOverlapped : 0);
    case Free: return timeCell(row.figures, row.figures ? row.figures->free : 0);
    case Late:
      if (!row.totals) return sort ? QVariant(qlonglong(-1)) : QVariant(QStringLiteral("—"));
      return sort ? QVariant(qlonglong(row.totals->lateCount)) : QVariant(QString::number(row.totals->lateCount));
    case Caused: return timeCell(row.totals, row.totals ? row.totals->caused : 0);
    case Waited: return timeCell(row.totals, row.totals ? row.totals->waited : 0);
    case ClockOffset:
      if (!row.clock || !row.clock->applied) return sort ? QVariant(qlonglong(0)) : QVariant(QStringLiteral("—"));
      return sort ? QVariant(qlonglong(row.clock->offset)) : QVariant(QString::number(row.clock->offset));
    default: return {};
  }
}

QVariant ClusterRankModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Computing:
      case CommNotOverlapped:
      case Free:
        return tr("msprof-analyze's dimensions of the rank's first device, summed over the steps (ms): "
                  "step_trace_time.csv, else the Overlap Analysis lanes, else the device tasks");
      case Late: return tr("Collectives this rank reached 50 us or more after the first rank");
      case Caused: return tr("What the other ranks waited for this rank in the collectives it was late to (ms)");
      case Waited: return tr("What this rank waited for late peers in the collectives (ms)");
      case ClockOffset:
        return tr("The clock offset applied to this rank's starts (ns); — when none is applied (the estimate is in "
                  "the tooltip)");
      default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    // Two lines each, so that the eight columns fit beside the skew table.
    case Rank: return tr("Rank");
    case Computing: return tr("Computing\n(ms)");
    case CommNotOverlapped: return tr("Communication\n(Not Overlapped, ms)");
    case Free: return tr("Free\n(ms)");
    case Late: return tr("Late to\n(collectives)");
    case Caused: return tr("Others waited\nfor it (ms)");
    case Waited: return tr("It waited\n(ms)");
    case ClockOffset: return tr("Clock offset\n(ns)");
    default: return {};
  }
}

// ---------------------------------------------------------------------------------------------
// CollectiveModel

CollectiveModel::CollectiveModel(QObject* parent) : QAbstractTableModel(parent) {}

void CollectiveModel::setProfile(const std::shared_ptr<const core::Profile>& profile) {
  beginResetModel();
  m_profile = profile;
  m_rankColumns.clear();
  m_maxSkew = 0;
  if (const core::ProfileAnalysis* a = analysisOf(profile)) {
    std::vector<bool> has(profile->ranks.size(), false);
    for (const core::Collective& c : a->comm.collectives) {
      m_maxSkew = std::max(m_maxSkew, c.maxSkew);
      for (const core::CollectiveRank& r : c.ranks)
        if (r.rankIndex < has.size()) has[r.rankIndex] = true;
    }
    for (std::size_t i = 0; i < has.size(); ++i)
      if (has[i]) m_rankColumns.push_back(static_cast<int>(i));
  }
  endResetModel();
}

int CollectiveModel::rankIndexOfColumn(int column) const {
  const int k = column - FirstRank;
  return k >= 0 && k < static_cast<int>(m_rankColumns.size()) ? m_rankColumns[static_cast<std::size_t>(k)] : -1;
}

int CollectiveModel::columnOfRank(int rankIndex) const {
  const auto it = std::find(m_rankColumns.begin(), m_rankColumns.end(), rankIndex);
  return it == m_rankColumns.end() ? -1 : FirstRank + static_cast<int>(it - m_rankColumns.begin());
}

const core::Collective* CollectiveModel::collective(int row) const {
  const core::ProfileAnalysis* a = analysisOf(m_profile);
  if (!a || row < 0 || row >= static_cast<int>(a->comm.collectives.size())) return nullptr;
  return &a->comm.collectives[static_cast<std::size_t>(row)];
}

const core::CollectiveRank* CollectiveModel::entry(int row, int rankIndex) const {
  const core::Collective* c = collective(row);
  if (!c || rankIndex < 0) return nullptr;
  for (const core::CollectiveRank& r : c->ranks)
    if (r.rankIndex == static_cast<std::size_t>(rankIndex)) return &r;
  return nullptr;
}

QColor CollectiveModel::heatColor(core::TimeNs skew, core::TimeNs maxSkew, const QColor& base) {
  const double t = maxSkew > 0 ? std::clamp(static_cast<double>(skew) / static_cast<double>(maxSkew), 0.0, 1.0) : 0.0;
  const QColor hot(0xc6, 0x28, 0x28);  // a strong red, the same in both themes
  const auto mix = [t](int a, int b) { return static_cast<int>(a + (b - a) * t + 0.5); };
  return QColor(mix(base.red(), hot.red()), mix(base.green(), hot.green()), mix(base.blue(), hot.blue()));
}

int CollectiveModel::rowCount(const QModelIndex& parent) const {
  const core::ProfileAnalysis* a = analysisOf(m_profile);
  return parent.isValid() || !a ? 0 : static_cast<int>(a->comm.collectives.size());
}

int CollectiveModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : FirstRank + static_cast<int>(m_rankColumns.size());
}

QString CollectiveModel::holderText(const core::Collective& c) { return QString::fromStdString(core::holderLabel(c)); }

int CollectiveModel::holderSortKey(const core::Collective& c) {
  const core::Holder& h = c.holder;
  if (h.status == core::Holder::Status::None) return -3;
  if (h.status == core::Holder::Status::Unknown || h.status == core::Holder::Status::Contradicted) return -2;
  return h.loaded() ? h.rank : 100000 + h.groupRank;
}

QString CollectiveModel::cellToolTip(const core::Collective& c, const core::CollectiveRank& r) const {
  QStringList lines;
  lines << tr("Rank %1 · %2").arg(rankText(r.rank), QString::fromStdString(core::collectiveLabel(c)));
  if (c.step >= 0) lines << tr("Step %1").arg(c.step);
  const core::TimeNs origin = m_profile ? m_profile->range().start : 0;
  if (r.correctedStart != r.start)
    lines << tr("Start: %1 after the capture start (%2 on the common clock)")
                 .arg(duration(r.start - origin), duration(r.correctedStart - origin));
  else
    lines << tr("Start: %1 after the capture start").arg(duration(r.start - origin));
  lines << (c.lateRank >= 0 && r.rankIndex == c.ranks[c.lateIndex].rankIndex
                ? tr("Skew: %1 after the first rank (the late rank)").arg(duration(r.skew))
                : tr("Skew: %1 after the first rank").arg(duration(r.skew)));
  const core::CommOp* op = m_profile && m_profile->analysis ? core::collectiveOp(m_profile->analysis->summaries, r) : nullptr;
  if (op) {
    lines << tr("Elapse: %1").arg(duration(op->elapse));
    if (op->hasTasks) {
      lines << tr("Transit: %1").arg(duration(op->transit));
      lines << tr("Wait: %1").arg(duration(op->wait));
      lines << (op->syncPeer.peer >= 0 && op->synchronization > 0
                    ? tr("Synchronization: %1 (waiting for group rank %2)")
                          .arg(duration(op->synchronization))
                          .arg(op->syncPeer.peer)
                    : tr("Synchronization: %1").arg(duration(op->synchronization)));
      lines << (op->idleWait.ns > 0 && op->idleWait.peer >= 0
                    ? tr("Idle: %1 (meanwhile another plane waits %2 for group rank %3)")
                          .arg(duration(op->idle), duration(op->idleWait.ns))
                          .arg(op->idleWait.peer)
                    : tr("Idle: %1").arg(duration(op->idle)));
    } else {
      lines << tr("No plane tasks recorded (Level0): transit, wait, synchronization and idle are unknown");
    }
    if (const auto& rec = op->recorded)
      lines << tr("Recorded by the profiler: elapse %1, transit %2, wait %3, synchronization %4, idle %5")
                   .arg(duration(rec->elapse), duration(rec->transit), duration(rec->wait),
                        duration(rec->synchronization), duration(rec->idle));
  }
  return lines.join(QLatin1Char('\n'));
}

QVariant CollectiveModel::data(const QModelIndex& index, int role) const {
  const core::Collective* c = index.isValid() ? collective(index.row()) : nullptr;
  if (!c) return {};
  const int col = index.column();
  if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (col < FirstRank) {
    const bool sort = role == Qt::UserRole;
    if (role != Qt::DisplayRole && !sort) return {};
    switch (col) {
      case LateRank: return sort ? QVariant(holderSortKey(*c)) : QVariant(holderText(*c));
      case MaxSkew: return sort ? QVariant(qlonglong(c->maxSkew)) : QVariant(ms(c->maxSkew));
      case Lost:
        // Holder unknown: the loss to the latest arrival seen is a lower bound (lostAtLeast).
        if (c->holder.status == core::Holder::Status::Unknown)
          return sort ? QVariant(qlonglong(c->lostAtLeast)) : QVariant(tr("≥ %1").arg(ms(c->lostAtLeast)));
        return sort ? QVariant(qlonglong(c->lost)) : QVariant(ms(c->lost));
      default: return {};
    }
  }
  const core::CollectiveRank* r = entry(index.row(), rankIndexOfColumn(col));
  if (!r) return role == Qt::UserRole ? QVariant(qlonglong(-1)) : QVariant();
  const bool late = c->lateRank >= 0 && r->rankIndex == c->ranks[c->lateIndex].rankIndex;
  switch (role) {
    case Qt::DisplayRole: return ms(r->skew);
    case Qt::UserRole: return qlonglong(r->skew);
    case Qt::BackgroundRole: return heatColor(r->skew, m_maxSkew, baseColor());
    case Qt::ForegroundRole: return textOn(heatColor(r->skew, m_maxSkew, baseColor()));
    case Qt::FontRole: {
      if (!late) return {};
      QFont f;
      f.setBold(true);
      return f;
    }
    case Qt::ToolTipRole: return cellToolTip(*c, *r);
    default: return {};
  }
}

QVariant CollectiveModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o == Qt::Vertical) {
    const core::Collective* c = collective(section);
    if (!c) return {};
    if (role == Qt::DisplayRole) {
      const QString label = tr("%1 #%2").arg(QString::fromStdString(c->type)).arg(c->sequence);
      return c->step >= 0 ? tr("%1 · step %2").arg(label).arg(c->step) : label;
    }
    if (role == Qt::ToolTipRole) {
      QString tip = tr("%1, group %2").arg(QString::fromStdString(core::collectiveLabel(*c)),
                                           QString::fromStdString(c->group));
      if (!c->uncaptured.empty()) {
        QStringList peers;
        for (int p : c->uncaptured) peers << QString::number(p);
        tip += QLatin1Char('\n') + tr("Group ranks not in this capture: %1").arg(peers.join(QStringLiteral(", ")));
      }
      return QString(tip + QLatin1Char('\n') + tr("Click: show this op on every rank of the timeline"));
    }
    return {};
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case LateRank:
        return tr("The member of the group the others wait for: the last to arrive, loaded or not (a group rank outside the "
                  "capture arrives when the loaded ranks' first waits on it end); '?' without plane tasks (Level0), where a "
                  "later member outside the capture cannot be seen; 'unknown' when a loaded rank is still held after the "
                  "last arrival the capture sees; — when every member arrives within 50 us");
      case MaxSkew: return tr("The largest skew of the collective: last start - first start (ms)");
      case Lost:
        return tr("What the loaded ranks lose waiting for the holder, summed (ms); '≥' where the holder is unknown: what they "
                  "lose at least, to the latest arrival the capture sees");
      default: {
        const int ri = rankIndexOfColumn(section);
        if (ri < 0 || !m_profile) return {};
        return tr("Rank %1 (%2): its start after the first rank's, ms; bold: the late rank")
            .arg(rankText(rankNumber(*m_profile, static_cast<std::size_t>(ri))),
                 QString::fromStdString(m_profile->ranks[static_cast<std::size_t>(ri)].source.label));
      }
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case LateRank: return tr("Holder");
    case MaxSkew: return tr("Max skew (ms)");
    case Lost: return tr("Lost (ms)");
    default: {
      const int ri = rankIndexOfColumn(section);
      return ri >= 0 && m_profile ? rankText(rankNumber(*m_profile, static_cast<std::size_t>(ri))) : QVariant();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// ClusterLinkModel

ClusterLinkModel::ClusterLinkModel(QObject* parent) : QAbstractTableModel(parent) {}

void ClusterLinkModel::setProfile(const std::shared_ptr<const core::Profile>& profile) {
  beginResetModel();
  m_profile = profile;
  m_rows.clear();
  if (profile && profile->analysis) {
    // The stage's ranks (a loaded rank's summary, or a rank read from a summary file).
    const core::RankSummaries& ranks = profile->analysis->summaries;
    const core::SlowLink slow = core::slowestLink(ranks);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (!ranks[i] || ranks[i]->ops.empty()) continue;
      const core::RankSummary& rs = *ranks[i];
      for (const core::CommLink& l : core::linksOf(rs.ops)) m_rows.push_back({rs.rank, -1, l, false, rs.chip});
      for (const core::CommPeerLink& p : core::peerLinksOf(rs.ops)) {
        const bool slowest = slow.found && slow.rankIndex == i && slow.link.peer == p.peer &&
                             slow.link.link.transport == p.link.transport && slow.share < core::kSlowLinkShare;
        m_rows.push_back({rs.rank, p.peer, p.link, slowest, rs.chip});
      }
    }
  }
  endResetModel();
}

int ClusterLinkModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}
int ClusterLinkModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ClusterLinkModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size())) return {};
  const Row& row = m_rows[static_cast<std::size_t>(index.row())];
  const core::CommLink& l = row.link;
  const int col = index.column();
  const double nominal = core::nominalLinkGBs(l.transport, row.chip);
  if (role == Qt::TextAlignmentRole)
    return col <= Transport ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::FontRole && row.slowest) {
    QFont f;
    f.setBold(true);
    return f;
  }
  if (role == Qt::ToolTipRole) {
    QString tip = l.transport == "SDMA" ? tr("SDMA = HCCS + PCIE + SIO, as communication.json's totals write it; %1 tasks")
                                              .arg(l.tasks)
                                        : tr("%1 transfer tasks").arg(l.tasks);
    if (row.slowest)
      tip += QLatin1Char('\n') + tr("The slowest link of the capture, below 80% of its nominal %1 GB/s").arg(nominal);
    return tip;
  }
  const bool sort = role == Qt::UserRole;
  if (role != Qt::DisplayRole && !sort) return {};
  switch (col) {
    case Rank: return sort ? QVariant(row.rank) : QVariant(rankText(row.rank));
    case Peer: return sort ? QVariant(row.peer) : row.peer < 0 ? QVariant(tr("all")) : QVariant(QString::number(row.peer));
    case Nominal:
      if (nominal <= 0) return sort ? QVariant(-1.0) : QVariant(QStringLiteral("—"));
      return sort ? QVariant(l.bandwidthGBs() / nominal)
                  : QVariant(tr("%1% of %2").arg(QString::number(100.0 * l.bandwidthGBs() / nominal, 'f', 0)).arg(nominal));
    case Transport: return QString::fromStdString(l.transport);
    case Size:
      return sort ? QVariant(qulonglong(l.bytes)) : QVariant(QString::number(static_cast<double>(l.bytes) / 1e6, 'f', 3));
    case Time: return sort ? QVariant(qlonglong(l.time)) : QVariant(ms(l.time));
    case Bandwidth: return sort ? QVariant(l.bandwidthGBs()) : QVariant(QString::number(l.bandwidthGBs(), 'f', 2));
    default: return {};
  }
}

QVariant ClusterLinkModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole && section == Size) return tr("Bytes moved, in MB of 10^6 bytes as the profiler counts");
  if (role == Qt::ToolTipRole && section == Bandwidth) return tr("Size / time, GB of 10^9 bytes per second");
  if (role == Qt::ToolTipRole && section == Peer)
    return tr("The rank in the HCCL group the transfers go to (dst rank); \"all\": the rank's total per transport");
  if (role == Qt::ToolTipRole && section == Nominal)
    return tr("Bandwidth against the link's nominal: HCCS 18, PCIE 20, RDMA 12.5 GB/s (msprof's HCCL analysis); below 80% "
              "the link is slow");
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Rank: return tr("Rank");
    case Peer: return tr("Peer");
    case Nominal: return tr("Of nominal");
    case Transport: return tr("Transport");
    case Size: return tr("Size (MB)");
    case Time: return tr("Time (ms)");
    case Bandwidth: return tr("Bandwidth (GB/s)");
    default: return {};
  }
}

// ---------------------------------------------------------------------------------------------
// ClusterPanel

ClusterPanel::ClusterPanel(ViewState* state, QWidget* parent) : QWidget(parent), m_state(state) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  m_stack = new QStackedWidget(this);
  layout->addWidget(m_stack);

  m_empty = new QLabel(m_stack);
  m_empty->setObjectName(QStringLiteral("ClusterEmpty"));
  m_empty->setForegroundRole(QPalette::PlaceholderText);
  m_empty->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  m_empty->setWordWrap(true);
  m_stack->addWidget(m_empty);

  auto* page = new QWidget(m_stack);
  auto* pageLayout = new QVBoxLayout(page);
  pageLayout->setContentsMargins(0, 0, 0, 0);
  m_findings = new QLabel(page);
  m_findings->setObjectName(QStringLiteral("ClusterFindings"));
  m_findings->setWordWrap(true);
  m_findings->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_findings->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  m_findingsArea = new QScrollArea(page);
  m_findingsArea->setFrameShape(QFrame::NoFrame);
  m_findingsArea->setWidgetResizable(true);
  m_findingsArea->setWidget(m_findings);
  m_findingsArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // At most five lines; the rest scrolls, so the tables keep the room.
  m_findingsArea->setMaximumHeight(fontMetrics().lineSpacing() * 5 + 6);
  m_findingsArea->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  pageLayout->addWidget(m_findingsArea);

  m_rankModel = new ClusterRankModel(this);
  m_collectiveModel = new CollectiveModel(this);
  m_linkModel = new ClusterLinkModel(this);

  // Left the ranks and their links (two tabs), right the skew per collective; a 64-rank
  // capture scrolls within each.
  auto* split = new QSplitter(Qt::Horizontal, page);
  split->setChildrenCollapsible(false);
  m_tabs = new QTabWidget(split);
  m_tabs->setObjectName(QStringLiteral("ClusterTabs"));
  m_tabs->setDocumentMode(true);
  m_rankView = makeTable(m_rankModel, m_tabs);
  m_rankView->setObjectName(QStringLiteral("ClusterRanks"));
  m_rankView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_rankView->verticalHeader()->hide();
  m_rankView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_linkView = makeTable(m_linkModel, m_tabs);
  m_linkView->setObjectName(QStringLiteral("ClusterLinks"));
  m_linkView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_linkView->verticalHeader()->hide();
  m_linkView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_tabs->addTab(m_rankView, tr("Ranks"));
  m_tabs->addTab(m_linkView, tr("Links"));
  buildMapTabs();

  m_collectiveView = makeTable(m_collectiveModel, split);
  m_collectiveView->setObjectName(QStringLiteral("ClusterCollectives"));
  m_collectiveView->setSelectionBehavior(QAbstractItemView::SelectItems);
  m_collectiveView->setItemDelegate(new HeatCellDelegate(m_collectiveView));
  // Narrow rank columns (a 64-rank capture scrolls sideways); the collective's label stays in
  // the vertical header, which does not scroll away.
  m_collectiveView->horizontalHeader()->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("00.000")) + 10);
  m_collectiveView->horizontalHeader()->setDefaultSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("000.000")) + 12);
  m_collectiveView->verticalHeader()->setSectionsClickable(true);
  split->addWidget(m_tabs);
  split->addWidget(m_collectiveView);
  split->setStretchFactor(0, 0);
  split->setStretchFactor(1, 1);
  m_split = split;
  // The bottom dock may be squeezed (a 960 x 540 screen): every part can shrink and scroll.
  m_findingsArea->setMinimumHeight(fontMetrics().lineSpacing() + 4);
  for (QWidget* w : {static_cast<QWidget*>(m_tabs), static_cast<QWidget*>(m_rankView),
                     static_cast<QWidget*>(m_linkView), static_cast<QWidget*>(m_collectiveView)})
    w->setMinimumSize(80, 40);
  connect(split, &QSplitter::splitterMoved, this, [this] { m_splitMoved = true; });
  pageLayout->addWidget(split, 1);
  m_stack->addWidget(page);

  connect(m_collectiveView->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) { onCollectiveClicked(current); });
  // A click on the current cell again shows the op again (the timeline may have moved since).
  connect(m_collectiveView, &QTableView::clicked, this, [this](const QModelIndex& index) {
    if (index == m_collectiveView->currentIndex()) onCollectiveClicked(index);
  });
  // The row header (the collective's name) acts as its cells do, with no rank clicked: the
  // last loaded rank to arrive is shown (issue 42 item 2: the header did nothing).
  connect(m_collectiveView->verticalHeader(), &QHeaderView::sectionClicked, this,
          [this](int section) { onCollectiveClicked(m_collectiveView->model()->index(section, CollectiveModel::LateRank)); });

  if (m_state) {
    connect(m_state, &ViewState::profileChanged, this,
            [this](const std::shared_ptr<const core::Profile>& p) { setProfile(p); });
    setProfile(m_state->profile());
  } else {
    setProfile(nullptr);
  }
}

void ClusterPanel::fitSplit() {
  // Until the user drags the handle: at every resize (the dock gets its size late, and tabbing
  // may show the panel tiny first).
  if (m_splitMoved || !showsTables() || m_split->width() <= 0 || !isVisible()) return;
  m_rankView->resizeColumnsToContents();
  const int ranks = m_rankView->horizontalHeader()->length() + m_rankView->verticalScrollBar()->sizeHint().width() +
                    2 * m_rankView->frameWidth() + 4;
  const int skews = m_collectiveView->verticalHeader()->width() + m_collectiveView->horizontalHeader()->length() +
                    m_collectiveView->verticalScrollBar()->sizeHint().width() + 2 * m_collectiveView->frameWidth() + 4;
  const int total = m_split->width() - m_split->handleWidth();
  // The skew table what it needs, at least 45%; the rank table the rest, up to its width.
  const int left = std::max(0, std::min(ranks, std::max(total * 45 / 100, total - skews)));
  m_split->setSizes({left, total - left});
}

// Once laid out (the dock may be raised, or first get its size, after the profile was set).
void ClusterPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (!m_splitMoved) QTimer::singleShot(0, this, [this] { fitSplit(); });
}

void ClusterPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // Once the layout has given the findings their new width.
  QTimer::singleShot(0, this, [this] { fitFindings(); });
  if (!m_splitMoved) QTimer::singleShot(0, this, [this] { fitSplit(); });
}

void ClusterPanel::fitFindings() {
  // As tall as the findings' text at this width, at most five lines (the rest scrolls): one
  // finding left three empty lines above the tables (issue 42 item 2: 64 ranks showed 4-5 rows).
  const int width = std::max(80, m_findingsArea->viewport()->width());
  const int text = m_findings->heightForWidth(width) + 4;
  const int cap = fontMetrics().lineSpacing() * 5 + 6;
  m_findingsArea->setMaximumHeight(std::clamp(text, fontMetrics().lineSpacing() + 4, cap));
}

QString ClusterPanel::findingsText() const { return showsTables() ? m_findings->text() : QString(); }

bool ClusterPanel::showsTables() const { return m_stack->currentIndex() == 1; }

void ClusterPanel::buildMapTabs() {
  // Steps: a rank x step heat map of one Top-Down dimension, chosen above it.
  m_stepModel = new ClusterStepModel(this);
  auto* stepPage = new QWidget(m_tabs);
  auto* stepLayout = new QVBoxLayout(stepPage);
  stepLayout->setContentsMargins(0, 2, 0, 0);
  m_stepCombo = new QComboBox(stepPage);
  m_stepCombo->setObjectName(QStringLiteral("ClusterStepDimension"));
  m_stepCombo->addItem(tr("Free (ms)"), static_cast<int>(ClusterStepModel::Dimension::Free));
  m_stepCombo->addItem(tr("Communication (Not Overlapped, ms)"), static_cast<int>(ClusterStepModel::Dimension::CommNotOverlapped));
  m_stepCombo->addItem(tr("Computing (ms)"), static_cast<int>(ClusterStepModel::Dimension::Computing));
  m_stepCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  stepLayout->addWidget(m_stepCombo, 0, Qt::AlignLeft);
  m_stepView = makeTable(m_stepModel, stepPage);
  m_stepView->setObjectName(QStringLiteral("ClusterSteps"));
  m_stepView->setItemDelegate(new HeatCellDelegate(m_stepView));
  stepLayout->addWidget(m_stepView, 1);
  connect(m_stepCombo, &QComboBox::currentIndexChanged, this, [this] {
    m_stepModel->setDimension(static_cast<ClusterStepModel::Dimension>(m_stepCombo->currentData().toInt()));
  });
  m_tabs->addTab(stepPage, tr("Steps"));
  // Matrix: the communication matrix of one HCCL group, chosen above it.
  m_matrixModel = new ClusterMatrixModel(this);
  auto* matrixPage = new QWidget(m_tabs);
  auto* matrixLayout = new QVBoxLayout(matrixPage);
  matrixLayout->setContentsMargins(0, 2, 0, 0);
  m_matrixCombo = new QComboBox(matrixPage);
  m_matrixCombo->setObjectName(QStringLiteral("ClusterMatrixGroup"));
  m_matrixCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  matrixLayout->addWidget(m_matrixCombo, 0, Qt::AlignLeft);
  m_matrixView = makeTable(m_matrixModel, matrixPage);
  m_matrixView->setObjectName(QStringLiteral("ClusterMatrix"));
  m_matrixView->setItemDelegate(new HeatCellDelegate(m_matrixView));
  m_matrixView->setSortingEnabled(false);  // a matrix keeps its order
  matrixLayout->addWidget(m_matrixView, 1);
  connect(m_matrixCombo, &QComboBox::currentIndexChanged, this, [this] {
    if (m_matrixCombo->currentIndex() >= 0) m_matrixModel->setGroup(m_matrixCombo->currentData().toString().toStdString());
  });
  m_tabs->addTab(matrixPage, tr("Matrix"));
  // A double-click on a rank (its row in Ranks, its header in Steps) asks to open it in full.
  connect(m_rankView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    const auto* proxy = static_cast<const QSortFilterProxyModel*>(m_rankView->model());
    const int row = proxy->mapToSource(index).row();
    const QVariant ri = m_rankModel->data(m_rankModel->index(row, ClusterRankModel::Rank), ClusterRankModel::kRankIndexRole);
    if (ri.isValid()) emit rankOpenRequested(ri.toInt());
  });
  connect(m_stepView->verticalHeader(), &QHeaderView::sectionDoubleClicked, this, [this](int section) {
    const auto* proxy = static_cast<const QSortFilterProxyModel*>(m_stepView->model());
    const int ri = m_stepModel->rankIndexOfRow(proxy->mapToSource(proxy->index(section, 0)).row());
    if (ri >= 0) emit rankOpenRequested(ri);
  });
}

void ClusterPanel::setProfile(const std::shared_ptr<const core::Profile>& profile) {
  m_profile = profile;
  m_rankModel->setProfile(profile);
  m_collectiveModel->setProfile(profile);
  m_linkModel->setProfile(profile);
  m_stepModel->setProfile(profile);
  m_matrixModel->setProfile(profile);
  {
    const QSignalBlocker block(m_matrixCombo);
    m_matrixCombo->clear();
    for (const std::string& g : m_matrixModel->groups())
      m_matrixCombo->addItem(tr("HCCL group %1").arg(QString::fromStdString(g)), QString::fromStdString(g));
  }
  const std::size_t ranks = profile ? profile->ranks.size() : 0;
  if (!profile || ranks < 2 || !profile->analysis) {
    m_empty->setText(profile ? tr("The Cluster view compares the ranks of a capture: it needs two or more ranks "
                                  "(this profile has %n).", nullptr, static_cast<int>(ranks))
                             : tr("Open a profile of two or more ranks to compare them."));
    m_findings->clear();
    m_stack->setCurrentIndex(0);
    return;
  }
  QStringList lines;
  for (const std::string& s : profile->analysis->findings)
    lines << QStringLiteral("• ") + QString::fromStdString(s);
  if (lines.isEmpty()) {
    lines << tr("No collective was matched across the ranks.");
    for (const std::string& n : profile->analysis->comm.notes) lines << QStringLiteral("• ") + QString::fromStdString(n);
  }
  m_findings->setText(lines.join(QLatin1Char('\n')));
  m_stack->setCurrentIndex(1);
  fitFindings();
  QTimer::singleShot(0, this, [this] { fitFindings(); });
  m_collectiveView->resizeColumnToContents(CollectiveModel::LateRank);
  m_collectiveView->resizeColumnToContents(CollectiveModel::MaxSkew);
  m_collectiveView->resizeColumnToContents(CollectiveModel::Lost);
  fitSplit();
}

bool ClusterPanel::selectCollective(int row, int rankIndex) {
  if (!m_collectiveModel->collective(row)) return false;
  const int column = rankIndex >= 0 ? m_collectiveModel->columnOfRank(rankIndex) : CollectiveModel::LateRank;
  if (column < 0) return false;
  auto* proxy = static_cast<QSortFilterProxyModel*>(m_collectiveView->model());
  const QModelIndex index = proxy->mapFromSource(m_collectiveModel->index(row, column));
  if (index == m_collectiveView->currentIndex())
    onCollectiveClicked(index);
  else
    m_collectiveView->setCurrentIndex(index);
  return true;
}

void ClusterPanel::onCollectiveClicked(const QModelIndex& proxyIndex) {
  if (!proxyIndex.isValid() || !m_profile) return;
  auto* proxy = static_cast<QSortFilterProxyModel*>(m_collectiveView->model());
  const QModelIndex source = proxy->mapToSource(proxyIndex);
  const core::Collective* c = m_collectiveModel->collective(source.row());
  if (!c || c->ranks.empty()) return;
  const int clicked = m_collectiveModel->rankIndexOfColumn(source.column());
  std::vector<RankSliceRef> ops;
  RankSliceRef focus, late, first;
  for (std::size_t k = 0; k < c->ranks.size(); ++k) {
    const core::CollectiveRank& r = c->ranks[k];
    const core::CommOp* op = core::collectiveOp(*m_profile, r);
    if (!op || !op->slice.valid()) continue;
    const RankSliceRef ref{static_cast<int>(r.rankIndex), op->slice};
    ops.push_back(ref);
    if (!first.valid()) first = ref;
    // Without a clicked rank: the last loaded rank to arrive (the holder when it is loaded).
    if (c->ranks.size() >= 2 && k == c->lateIndex) late = ref;
    if (clicked >= 0 && static_cast<int>(r.rankIndex) == clicked) focus = ref;
  }
  if (ops.empty()) return;
  if (!focus.valid()) focus = late.valid() ? late : first;
  emit collectiveSelected(ops, focus);
}

}  // namespace npuscope::widgets
