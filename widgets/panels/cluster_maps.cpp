// SPDX-License-Identifier: MIT
// The Cluster dock's rank x step map and communication matrix (cluster_maps.h).

#include "widgets/panels/cluster_maps.h"

#include <QGuiApplication>
#include <QPalette>
#include <QStringList>
#include <algorithm>
#include <set>

#include "core/analysis/rank_summary.h"
#include "core/base/time_format.h"

namespace npuscope::widgets {

namespace {

QColor baseColor() { return QGuiApplication::palette().color(QPalette::Base); }

/// `base` at t = 0 to a strong red at t = 1 (the skew map's colours).
QColor heat(double t, const QColor& base) {
  t = std::clamp(t, 0.0, 1.0);
  const QColor hot(0xc6, 0x28, 0x28);
  const auto mix = [t](int a, int b) { return static_cast<int>(a + (b - a) * t + 0.5); };
  return QColor(mix(base.red(), hot.red()), mix(base.green(), hot.green()), mix(base.blue(), hot.blue()));
}

QColor textOn(const QColor& bg) {
  const double l = 0.2126 * bg.redF() + 0.7152 * bg.greenF() + 0.0722 * bg.blueF();
  return l > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
}

QString ms(core::TimeNs ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); }

const core::RankSummaries* summariesOf(const std::shared_ptr<const core::Profile>& p) {
  return p && p->analysis ? &p->analysis->summaries : nullptr;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// ClusterStepModel

ClusterStepModel::ClusterStepModel(QObject* parent) : QAbstractTableModel(parent) {}

void ClusterStepModel::setProfile(const std::shared_ptr<const core::Profile>& profile) {
  beginResetModel();
  m_profile = profile;
  m_rows.clear();
  m_steps.clear();
  std::set<long long> steps;
  if (const core::RankSummaries* ranks = summariesOf(profile))
    for (std::size_t i = 0; i < ranks->size(); ++i) {
      const core::RankSummary* s = (*ranks)[i].get();
      if (!s || s->steps.empty()) continue;
      m_rows.push_back(i);
      for (const core::SummaryStep& st : s->steps) steps.insert(st.number);
    }
  m_steps.assign(steps.begin(), steps.end());
  updateMax();
  endResetModel();
}

void ClusterStepModel::setDimension(Dimension d) {
  if (d == m_dimension) return;
  beginResetModel();
  m_dimension = d;
  updateMax();
  endResetModel();
}

void ClusterStepModel::updateMax() {
  m_max = 0;
  m_min = INT64_MAX;
  for (int r = 0; r < rowCount(); ++r)
    for (int c = 0; c < columnCount(); ++c)
      if (const core::SummaryStep* s = step(r, c)) {
        m_max = std::max(m_max, value(*s));
        m_min = std::min(m_min, value(*s));
      }
  if (m_min == INT64_MAX) m_min = 0;
}

double ClusterStepModel::heatOf(core::TimeNs v) const {
  // From the smallest cell (the base colour) to the largest (red), over at least 5% of the
  // largest: ranks that differ by a few percent stay pale.
  const double spread = std::max(static_cast<double>(m_max - m_min), 0.05 * static_cast<double>(m_max));
  return spread > 0 ? static_cast<double>(v - m_min) / spread : 0.0;
}

long long ClusterStepModel::stepOfColumn(int column) const {
  return column >= 0 && column < static_cast<int>(m_steps.size()) ? m_steps[static_cast<std::size_t>(column)] : -2;
}

int ClusterStepModel::rankIndexOfRow(int row) const {
  return row >= 0 && row < static_cast<int>(m_rows.size()) ? static_cast<int>(m_rows[static_cast<std::size_t>(row)]) : -1;
}

const core::SummaryStep* ClusterStepModel::step(int row, int column) const {
  const core::RankSummaries* ranks = summariesOf(m_profile);
  const int ri = rankIndexOfRow(row);
  const long long n = stepOfColumn(column);
  if (!ranks || ri < 0 || n == -2) return nullptr;
  for (const core::SummaryStep& s : (*ranks)[static_cast<std::size_t>(ri)]->steps)
    if (s.number == n) return &s;
  return nullptr;
}

core::TimeNs ClusterStepModel::value(const core::SummaryStep& s) const {
  switch (m_dimension) {
    case Dimension::Computing: return s.computed.computing;
    case Dimension::CommNotOverlapped: return s.computed.commNotOverlapped;
    case Dimension::Free: break;
  }
  return s.computed.free;
}

int ClusterStepModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }

int ClusterStepModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_steps.size()); }

QVariant ClusterStepModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const core::SummaryStep* s = step(index.row(), index.column());
  if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (!s) return role == Qt::UserRole ? QVariant(qlonglong(-1)) : QVariant();
  const core::TimeNs v = value(*s);
  const double t = heatOf(v);
  switch (role) {
    case Qt::DisplayRole: return ms(v);
    case Qt::UserRole: return qlonglong(v);
    case Qt::BackgroundRole: return heat(t, baseColor());
    case Qt::ForegroundRole: return textOn(heat(t, baseColor()));
    case Qt::ToolTipRole:
      return tr("Step %1 on this rank's device: %2 ms\nComputing %3 ms, Communication (Not Overlapped) %4 ms, Free %5 ms")
          .arg(s->number)
          .arg(ms(s->computed.e2e), ms(s->computed.computing), ms(s->computed.commNotOverlapped), ms(s->computed.free));
    default: return {};
  }
}

QVariant ClusterStepModel::headerData(int section, Qt::Orientation o, int role) const {
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  if (o == Qt::Horizontal) {
    const long long n = stepOfColumn(section);
    if (role == Qt::ToolTipRole) return tr("Step %1: the dimension chosen above, ms").arg(n);
    return n >= 0 ? tr("Step %1").arg(n) : tr("Capture");
  }
  const core::RankSummaries* ranks = summariesOf(m_profile);
  const int ri = rankIndexOfRow(section);
  if (!ranks || ri < 0) return {};
  const core::RankSummary& s = *(*ranks)[static_cast<std::size_t>(ri)];
  if (role == Qt::ToolTipRole)
    return s.host.empty() ? QString::fromStdString(s.path) : QString::fromStdString(s.host + ":" + s.path);
  return s.rank >= 0 ? QString::number(s.rank) : QString::fromStdString(s.label);
}

// ---------------------------------------------------------------------------------------------
// ClusterMatrixModel

ClusterMatrixModel::ClusterMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void ClusterMatrixModel::setProfile(const std::shared_ptr<const core::Profile>& profile) {
  m_profile = profile;
  m_groups.clear();
  std::map<std::string, std::uint64_t> bytes;
  if (const core::RankSummaries* ranks = summariesOf(profile))
    for (const auto& s : *ranks) {
      if (!s) continue;
      for (const core::CommOp& op : s->ops)
        for (const core::CommPeerLink& p : op.peerLinks) bytes[op.groupKey] += p.link.bytes;
    }
  for (const auto& [k, b] : bytes)
    if (b > 0) m_groups.push_back(k);
  std::stable_sort(m_groups.begin(), m_groups.end(), [&](const std::string& a, const std::string& b) { return bytes[a] > bytes[b]; });
  m_group = m_groups.empty() ? std::string() : m_groups.front();
  beginResetModel();
  rebuild();
  endResetModel();
}

void ClusterMatrixModel::setGroup(const std::string& key) {
  beginResetModel();
  m_group = key;
  rebuild();
  endResetModel();
}

void ClusterMatrixModel::rebuild() {
  m_src.clear();
  m_dst.clear();
  m_cells.clear();
  const core::RankSummaries* ranks = summariesOf(m_profile);
  if (!ranks || m_group.empty()) return;
  std::set<int> src, dst;
  for (const auto& s : *ranks) {
    if (!s) continue;
    for (const core::CommOp& op : s->ops) {
      if (op.groupKey != m_group) continue;
      for (const core::CommPeerLink& p : op.peerLinks) {
        if (p.self < 0 || p.peer < 0) continue;
        Cell& c = m_cells[{p.self, p.peer}];
        if (c.chip.empty()) c.chip = s->chip;  // the sending rank's chip: its links' nominals
        auto it = std::find_if(c.links.begin(), c.links.end(), [&](const core::CommLink& l) { return l.transport == p.link.transport; });
        if (it == c.links.end()) it = c.links.insert(c.links.end(), core::CommLink{p.link.transport, 0, 0, 0});
        it->bytes += p.link.bytes;
        it->time += p.link.time;
        it->tasks += p.link.tasks;
        c.bytes += p.link.bytes;
        c.time += p.link.time;
        src.insert(p.self);
        dst.insert(p.peer);
      }
    }
  }
  for (auto& [key, c] : m_cells) {
    const auto main = std::max_element(c.links.begin(), c.links.end(),
                                       [](const core::CommLink& a, const core::CommLink& b) { return a.bytes < b.bytes; });
    const double nominal = main == c.links.end() ? 0.0 : core::nominalLinkGBs(main->transport, c.chip);
    c.share = nominal > 0 && c.time > 0 ? static_cast<double>(c.bytes) / static_cast<double>(c.time) / nominal : -1.0;
  }
  m_src.assign(src.begin(), src.end());
  m_dst.assign(dst.begin(), dst.end());
}

int ClusterMatrixModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_src.size()); }

int ClusterMatrixModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_dst.size()); }

QVariant ClusterMatrixModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  const auto it = m_cells.find({m_src[static_cast<std::size_t>(index.row())], m_dst[static_cast<std::size_t>(index.column())]});
  if (it == m_cells.end()) return role == Qt::UserRole ? QVariant(-1.0) : QVariant();
  const Cell& c = it->second;
  const double gbs = c.time > 0 ? static_cast<double>(c.bytes) / static_cast<double>(c.time) : 0.0;
  // Red for a slow link: 0 at or above the nominal, 1 at no bandwidth at all.
  const double t = c.share < 0 ? 0.0 : 1.0 - std::min(1.0, c.share);
  switch (role) {
    case Qt::DisplayRole:
      return c.share < 0 ? QString::number(gbs, 'f', 2) : QStringLiteral("%1 (%2%)").arg(gbs, 0, 'f', 2).arg(c.share * 100.0, 0, 'f', 0);
    case Qt::UserRole: return c.share;
    case Qt::BackgroundRole: return heat(t, baseColor());
    case Qt::ForegroundRole: return textOn(heat(t, baseColor()));
    case Qt::ToolTipRole: {
      QStringList lines;
      lines << tr("Group rank %1 to %2, HCCL group %3").arg(it->first.first).arg(it->first.second).arg(QString::fromStdString(m_group));
      for (const core::CommLink& l : c.links)
        lines << tr("%1: %2 MB in %3 ms, %4 GB/s (nominal %5 GB/s)")
                     .arg(QString::fromStdString(l.transport))
                     .arg(static_cast<double>(l.bytes) / 1e6, 0, 'f', 3)
                     .arg(static_cast<double>(l.time) / 1e6, 0, 'f', 3)
                     .arg(l.bandwidthGBs(), 0, 'f', 2)
                     .arg(core::nominalLinkGBs(l.transport, c.chip));
      return lines.join(QLatin1Char('\n'));
    }
    default: return {};
  }
}

QVariant ClusterMatrixModel::headerData(int section, Qt::Orientation o, int role) const {
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  const std::vector<int>& v = o == Qt::Horizontal ? m_dst : m_src;
  if (section < 0 || section >= static_cast<int>(v.size())) return {};
  if (role == Qt::ToolTipRole)
    return o == Qt::Horizontal ? tr("To group rank %1 (GB/s and share of the link's nominal)").arg(v[static_cast<std::size_t>(section)])
                               : tr("From group rank %1 (a loaded rank)").arg(v[static_cast<std::size_t>(section)]);
  return QString::number(v[static_cast<std::size_t>(section)]);
}

}  // namespace npuscope::widgets
