// SPDX-License-Identifier: MIT
#include "widgets/panels/dispatch_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/base/time_format.h"

namespace npuscope::widgets {

namespace {

constexpr int kBins = 24;

enum Column { Op, Count, HostP50, HostP90, HostMax, QueueP50, LaunchP50, DeviceP50, DeviceP90, HostOver, Bubbles, BubbleUs, Columns };

/// A table cell that sorts by its number (us), shown with the unit's usual precision; "—" for none.
QTableWidgetItem* numberItem(const std::optional<double>& v, int decimals = 1) {
  auto* it = new QTableWidgetItem;
  if (v) it->setData(Qt::DisplayRole, std::round(*v * std::pow(10.0, decimals)) / std::pow(10.0, decimals));
  else it->setData(Qt::DisplayRole, QStringLiteral("—"));
  it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return it;
}

std::optional<double> us(const std::optional<double>& ns) { return ns ? std::optional<double>(*ns / 1e3) : std::nullopt; }

}  // namespace

DispatchHistogram::DispatchHistogram(QWidget* parent) : QWidget(parent) {
  setMinimumSize(200, 80);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void DispatchHistogram::setSample(std::vector<double> sampleNs, const QString& title) {
  m_sample = std::move(sampleNs);
  std::sort(m_sample.begin(), m_sample.end());
  m_title = title;
  m_bins.clear();
  if (!m_sample.empty()) {
    m_min = m_sample.front();
    m_max = m_sample.back();
    m_bins.assign(kBins, 0);
    const double width = std::max(1.0, m_max - m_min) / kBins;
    for (double v : m_sample) ++m_bins[static_cast<std::size_t>(std::clamp(static_cast<int>((v - m_min) / width), 0, kBins - 1))];
  }
  update();
}

void DispatchHistogram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  p.setPen(palette().text().color());
  const QFontMetrics fm(font());
  p.drawText(QRect(6, 2, width() - 12, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, m_title);
  if (m_bins.empty()) {
    p.drawText(rect(), Qt::AlignCenter, tr("no samples"));
    return;
  }
  const int left = 40, right = 12, top = fm.height() + 8, bottom = fm.height() + 8;
  const QRect plot(left, top, std::max(10, width() - left - right), std::max(10, height() - top - bottom));
  const int peak = *std::max_element(m_bins.begin(), m_bins.end());
  const double bw = static_cast<double>(plot.width()) / kBins;
  const QColor bar = palette().highlight().color();
  for (int i = 0; i < kBins; ++i) {
    if (!m_bins[static_cast<std::size_t>(i)]) continue;
    const int h = static_cast<int>(std::lround(static_cast<double>(plot.height()) * m_bins[static_cast<std::size_t>(i)] / peak));
    p.fillRect(QRectF(plot.left() + i * bw + 1, plot.bottom() - h + 1, std::max(1.0, bw - 2), h), bar);
  }
  p.setPen(palette().mid().color());
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  p.drawLine(plot.bottomLeft(), plot.topLeft());
  // p50 and p90 (interpolated as core::spreadOf does).
  const core::Spread s = core::spreadOf(m_sample);
  auto xOf = [&](double v) {
    return plot.left() + (m_max > m_min ? (v - m_min) / (m_max - m_min) : 0.5) * plot.width();
  };
  const std::pair<const char*, std::optional<double>> marks[] = {{"p50", s.p50}, {"p90", s.p90}};
  for (const auto& [name, v] : marks) {
    if (!v) continue;
    const double x = xOf(*v);
    p.setPen(QPen(QColor(200, 60, 40), 1, Qt::DashLine));
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    p.drawText(QPointF(x + 3, plot.top() + fm.ascent()), QString::fromLatin1(name));
  }
  p.setPen(palette().text().color());
  p.drawText(QRect(0, plot.top() - fm.height() / 2, left - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter, QString::number(peak));
  p.drawText(QRect(0, plot.bottom() - fm.height() / 2, left - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
  const int ty = plot.bottom() + 4;
  p.drawText(QRect(plot.left(), ty, plot.width() / 2, fm.height()), Qt::AlignLeft,
             QString::fromStdString(core::formatDuration(static_cast<core::TimeNs>(m_min))));
  p.drawText(QRect(plot.left() + plot.width() / 2, ty, plot.width() / 2, fm.height()), Qt::AlignRight,
             QString::fromStdString(core::formatDuration(static_cast<core::TimeNs>(m_max))));
  p.drawText(QRect(plot.left(), ty, plot.width(), fm.height()), Qt::AlignHCenter,
             tr("%n instance(s)", nullptr, static_cast<int>(m_sample.size())));
}

DispatchPanel::DispatchPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QHBoxLayout;
  m_rankCombo = new QComboBox(this);
  m_layerCombo = new QComboBox(this);
  m_layerCombo->addItem(tr("Torch ops"), QStringLiteral("torch"));
  m_layerCombo->addItem(tr("CANN APIs"), QStringLiteral("cann"));
  m_metricCombo = new QComboBox(this);
  m_metricCombo->addItems({tr("Host time"), tr("Queue wait (Enqueue → Dequeue)"), tr("Launch → device start"), tr("Device time")});
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  bar->addWidget(m_rankCombo);
  bar->addWidget(m_layerCombo);
  bar->addWidget(new QLabel(tr("Histogram:"), this));
  bar->addWidget(m_metricCombo);
  bar->addStretch(1);
  layout->addLayout(bar);
  layout->addWidget(m_summary);
  // Side by side: a bottom dock is wide and short.
  auto* split = new QSplitter(Qt::Horizontal, this);
  m_table = new QTableWidget(this);
  m_table->setColumnCount(Columns);
  m_table->setHorizontalHeaderLabels({tr("Op"), tr("Count"), tr("Host p50 (us)"), tr("Host p90 (us)"), tr("Host max (us)"),
                                      tr("Queue p50 (us)"), tr("Launch p50 (us)"), tr("Device p50 (us)"),
                                      tr("Device p90 (us)"), tr("Host > device"), tr("Bubbles ended"),
                                      tr("Bubble time (us)")});
  m_table->horizontalHeaderItem(HostOver)->setToolTip(tr("Instances whose host time exceeds the device time of their tasks: "
                                                         "the host cannot keep the device busy with this op"));
  m_table->horizontalHeaderItem(Bubbles)->setToolTip(tr("Device idle gaps (10 us or more) that one of its tasks ends"));
  m_table->horizontalHeaderItem(LaunchP50)->setToolTip(tr("First task's start - its launch (Node@launch), clocks corrected"));
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->verticalHeader()->hide();
  m_table->setSortingEnabled(true);
  m_table->horizontalHeader()->setSectionResizeMode(Op, QHeaderView::Stretch);
  m_histogram = new DispatchHistogram(this);
  split->addWidget(m_table);
  split->addWidget(m_histogram);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  m_table->setMinimumHeight(80);
  layout->addWidget(split, 1);
  connect(m_rankCombo, &QComboBox::activated, this, [this](int i) { setRank(m_rankCombo->itemData(i).toInt()); });
  connect(m_layerCombo, &QComboBox::activated, this, [this](int) { fillTable(); });
  connect(m_metricCombo, &QComboBox::activated, this, [this](int m) { setMetric(m); });
  connect(m_table, &QTableWidget::itemSelectionChanged, this, &DispatchPanel::onRowSelected);
}

void DispatchPanel::setProfile(std::shared_ptr<const core::Profile> profile) {
  m_profile = std::move(profile);
  m_rankCombo->clear();
  m_rank = -1;
  if (m_profile)
    for (std::size_t i = 0; i < m_profile->ranks.size(); ++i) {
      const core::RankProfile& rp = m_profile->ranks[i];
      if (!rp.trace || !rp.analysis) continue;
      m_rankCombo->addItem(QString::fromStdString(rp.source.label), static_cast<int>(i));
      if (m_rank < 0) m_rank = static_cast<int>(i);
    }
  m_rankCombo->setVisible(m_rankCombo->count() > 1);
  m_stats.clear();
  m_dirty = true;
  if (isVisible()) compute();
  else fillTable();
}

void DispatchPanel::setRank(int rankIndex) {
  if (rankIndex == m_rank && !m_dirty) return;
  m_rank = rankIndex;
  const int at = m_rankCombo->findData(rankIndex);
  if (at >= 0) m_rankCombo->setCurrentIndex(at);
  m_dirty = true;
  if (isVisible()) compute();
}

void DispatchPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (m_dirty) compute();
}

void DispatchPanel::compute() {
  m_dirty = false;
  m_stats.clear();
  if (m_profile && m_rank >= 0 && static_cast<std::size_t>(m_rank) < m_profile->ranks.size()) {
    const core::RankProfile& rp = m_profile->ranks[static_cast<std::size_t>(m_rank)];
    if (rp.trace && rp.analysis) m_stats = core::dispatchStats(*rp.trace, *rp.analysis);
  }
  fillTable();
}

void DispatchPanel::fillTable() {
  const QString layer = m_layerCombo->currentData().toString();
  m_table->setSortingEnabled(false);
  m_table->clearContents();
  int n = 0;
  for (const core::DispatchStat& s : m_stats) n += QString::fromStdString(s.layer) == layer ? 1 : 0;
  m_table->setRowCount(n);
  int row = 0, hostOver = 0;
  for (std::size_t i = 0; i < m_stats.size(); ++i) {
    const core::DispatchStat& s = m_stats[i];
    if (QString::fromStdString(s.layer) != layer) continue;
    const core::Spread host = core::spreadOf(s.host), queue = core::spreadOf(s.queue), launch = core::spreadOf(s.launch),
                       device = core::spreadOf(s.device);
    auto* name = new QTableWidgetItem(QString::fromStdString(s.op));
    name->setData(Qt::UserRole, static_cast<int>(i));
    m_table->setItem(row, Op, name);
    m_table->setItem(row, Count, numberItem(static_cast<double>(s.count), 0));
    m_table->setItem(row, HostP50, numberItem(us(host.p50)));
    m_table->setItem(row, HostP90, numberItem(us(host.p90)));
    m_table->setItem(row, HostMax, numberItem(us(host.max)));
    m_table->setItem(row, QueueP50, numberItem(us(queue.p50)));
    m_table->setItem(row, LaunchP50, numberItem(us(launch.p50)));
    m_table->setItem(row, DeviceP50, numberItem(us(device.p50)));
    m_table->setItem(row, DeviceP90, numberItem(us(device.p90)));
    m_table->setItem(row, HostOver, numberItem(static_cast<double>(s.hostOverDevice), 0));
    m_table->setItem(row, Bubbles, numberItem(static_cast<double>(s.bubblesEnded), 0));
    m_table->setItem(row, BubbleUs, numberItem(static_cast<double>(s.bubblesEndedNs) / 1e3));
    hostOver += s.hostOverDevice > s.count / 2 ? 1 : 0;
    ++row;
  }
  m_table->setSortingEnabled(true);
  m_table->resizeColumnsToContents();
  m_table->horizontalHeader()->setSectionResizeMode(Op, QHeaderView::Stretch);
  m_summary->setText(m_stats.empty() ? tr("No dispatch chains: the trace has no launch flows from the host to the device tasks.")
                                     : tr("%1 ops; %2 of them spend more time on the host than their tasks on the device "
                                          "in most calls. Click a row: its instances on the timeline and its histogram.")
                                           .arg(n)
                                           .arg(hostOver));
  m_histogram->setSample({}, QString());
}

const core::DispatchStat* DispatchPanel::selectedStat() const {
  const auto rows = m_table->selectionModel()->selectedRows(Op);
  if (rows.isEmpty()) return nullptr;
  const QTableWidgetItem* it = m_table->item(rows.front().row(), Op);
  if (!it) return nullptr;
  const int i = it->data(Qt::UserRole).toInt();
  return i >= 0 && static_cast<std::size_t>(i) < m_stats.size() ? &m_stats[static_cast<std::size_t>(i)] : nullptr;
}

void DispatchPanel::setMetric(int metric) {
  if (m_metricCombo->currentIndex() != metric) m_metricCombo->setCurrentIndex(metric);
  const core::DispatchStat* s = selectedStat();
  if (!s) return;
  const std::vector<double>* samples[] = {&s->host, &s->queue, &s->launch, &s->device};
  const int m = std::clamp(metric, 0, 3);
  m_histogram->setSample(*samples[m], QString::fromStdString(s->op) + QStringLiteral(" · ") + m_metricCombo->itemText(m));
}

void DispatchPanel::onRowSelected() {
  const core::DispatchStat* s = selectedStat();
  if (!s) return;
  setMetric(m_metricCombo->currentIndex());
  emit instancesSelected(m_rank, s->instances);
}

bool DispatchPanel::selectRow(int row) {
  if (row < 0 || row >= m_table->rowCount()) return false;
  m_table->selectRow(row);
  return true;
}

}  // namespace npuscope::widgets
