// SPDX-License-Identifier: MIT
#include "widgets/panels/stats_table_model.h"

#include <algorithm>

#include "core/base/time_format.h"

namespace npuscope::widgets {

namespace {

QString qs(const std::string& s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

bool isDuration(int column) {
  return column == StatsTableModel::Total || column == StatsTableModel::Self || column == StatsTableModel::Avg ||
         column == StatsTableModel::Min || column == StatsTableModel::Max;
}

double durationValue(const core::StatsRow& r, int column) {
  switch (column) {
    case StatsTableModel::Total: return static_cast<double>(r.total);
    case StatsTableModel::Self: return static_cast<double>(r.self);
    case StatsTableModel::Avg: return r.avg;
    case StatsTableModel::Min: return static_cast<double>(r.min);
    case StatsTableModel::Max: return static_cast<double>(r.max);
    default: return 0;
  }
}

QString fixed3(double v) { return QString::number(v, 'f', 3); }

}  // namespace

DurationUnit unitForMaxDuration(double maxNs) {
  if (maxNs >= 100e9) return {1e9, QStringLiteral("s")};
  if (maxNs >= 100e6) return {1e6, QStringLiteral("ms")};
  return {1e3, QStringLiteral("us")};
}

StatsTableModel::StatsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void StatsTableModel::setTable(core::StatsTable table) {
  beginResetModel();
  m_table = std::move(table);
  for (int c = 0; c < ColumnCount; ++c) {
    if (!isDuration(c)) continue;
    double maxNs = 0;
    for (const auto& r : m_table.rows) maxNs = std::max(maxNs, durationValue(r, c));
    m_units[c] = unitForMaxDuration(maxNs);
  }
  endResetModel();
}

const core::StatsRow* StatsTableModel::statsRow(int row) const {
  if (row < 0 || static_cast<std::size_t>(row) >= m_table.rows.size()) return nullptr;
  return &m_table.rows[static_cast<std::size_t>(row)];
}

int StatsTableModel::rowOfName(const QString& name) const {
  const std::string n = name.toStdString();
  for (std::size_t i = 0; i < m_table.rows.size(); ++i)
    if (m_table.rows[i].name == n) return static_cast<int>(i);
  return -1;
}

DurationUnit StatsTableModel::unit(Column column) const {
  if (column == Wait) return {};
  return m_units[column];
}

int StatsTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size());
}

int StatsTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return m_table.layer == core::StatsLayer::Kernels ? ColumnCount : Share + 1;
}

QString StatsTableModel::displayText(const core::StatsRow& r, int column) const {
  switch (column) {
    case Name: return qs(r.name);
    case Count: return QString::number(r.count);
    case Share: return QString::number(r.share * 100.0, 'f', 2) + QStringLiteral(" %");
    case Type: return qs(r.type);
    case Core: return qs(r.core);
    case Shapes: return QString::number(r.shapes);
    case Wait: return fixed3(r.waitUs);
    case Tflops: return r.tflopsRows > 0 ? QString::number(r.tflops, 'f', 2) : QStringLiteral("\u2014");
    case Bound:
      if (r.bound.empty()) return QStringLiteral("\u2014");
      if (r.boundShare < 0.995) return qs(r.bound) + QStringLiteral(" (%1 %)").arg(r.boundShare * 100.0, 0, 'f', 0);
      return qs(r.bound);
    default: break;
  }
  if (isDuration(column)) return fixed3(durationValue(r, column) / m_units[column].nsPerUnit);
  return {};
}

QVariant StatsTableModel::data(const QModelIndex& index, int role) const {
  const core::StatsRow* r = index.isValid() ? statsRow(index.row()) : nullptr;
  if (!r || index.column() >= columnCount()) return {};
  const int c = index.column();
  switch (role) {
    case Qt::DisplayRole:
      return displayText(*r, c);
    case SortRole:
      switch (c) {
        case Name: return qs(r->name);
        case Count: return static_cast<qulonglong>(r->count);
        case Total: return static_cast<qlonglong>(r->total);
        case Self: return static_cast<qlonglong>(r->self);
        case Avg: return r->avg;
        case Min: return static_cast<qlonglong>(r->min);
        case Max: return static_cast<qlonglong>(r->max);
        case Share: return r->share;
        case Type: return qs(r->type);
        case Core: return qs(r->core);
        case Shapes: return static_cast<uint>(r->shapes);
        case Wait: return r->waitUs;
        case Tflops: return r->tflopsRows > 0 ? r->tflops : -1.0;
        case Bound: return qs(r->bound);
        default: return {};
      }
    case NameRole:
      return qs(r->name);
    case Qt::ToolTipRole:
      if (c == Name || c == Type || c == Core) return displayText(*r, c);
      if (c == Tflops)
        return r->tflopsRows > 0 ? tr("Summed FLOPs (from the shapes) / summed duration of %1 of the %2 occurrences")
                                       .arg(r->tflopsRows)
                                       .arg(r->count)
                                 : tr("No work computable: not a MatMul / Conv2D, or no shapes (Level0)");
      if (c == Bound)
        return r->bound.empty() ? tr("No pipe ratios in kernel_details.csv (Level1 with aic_metrics PipeUtilization)")
                                : tr("The unit whose pipe ratio is highest (>= %1), for %2 % of the time of the rows "
                                     "with ratios")
                                      .arg(core::kBusyPipeRatio)
                                      .arg(r->boundShare * 100.0, 0, 'f', 0);
      if (isDuration(c))
        return QString::fromStdString(core::formatDuration(static_cast<core::TimeNs>(durationValue(*r, c) + 0.5)));
      return {};
    case Qt::TextAlignmentRole:
      if (c == Name || c == Type || c == Core || c == Bound) return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
      return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
      return {};
  }
}

QVariant StatsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  if (role == Qt::TextAlignmentRole)
    return QVariant::fromValue((section == Name || section == Type || section == Core || section == Bound ? Qt::AlignLeft : Qt::AlignRight) |
                               Qt::AlignVCenter);
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Total: return tr("Summed duration of the slices starting in the scope");
      case Self: return tr("Total minus the time covered by child slices on the same lane");
      case Share:
        return m_table.shareBasis == core::ShareBasis::E2E
                   ? tr("Total / E2E (Computing + Communication(Not Overlapped) + Free in the scope): those three add "
                        "up to 100 %, as in the Top-Down panel")
                   : tr("Total / the layer's summed total in the scope: the rows add up to 100 %");
      case Shapes: return tr("Distinct input shapes (kernel_details.csv)");
      case Wait: return tr("Summed Wait Time (kernel_details.csv)");
      case Tflops: return tr("Achieved TFLOPS from the recorded shapes (2·M·N·K for MatMul, 2·Cin·k²·Cout·Hout·Wout for Conv2D)");
      case Bound: return tr("Compute- or memory-bound by the AI Core pipe ratios (kernel_details.csv, Level1+)");
      default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  const auto withUnit = [&](const QString& title) -> QString {
    return title + QStringLiteral(" (") + m_units[section].suffix + QLatin1Char(')');
  };
  switch (section) {
    case Name: return tr("Name");
    case Count: return tr("Count");
    case Total: return withUnit(tr("Total"));
    case Self: return withUnit(tr("Self"));
    case Avg: return withUnit(tr("Avg"));
    case Min: return withUnit(tr("Min"));
    case Max: return withUnit(tr("Max"));
    case Share: return m_table.shareBasis == core::ShareBasis::E2E ? tr("% of E2E") : tr("% of layer");
    case Type: return tr("Type");
    case Core: return tr("Core");
    case Shapes: return tr("Shapes");
    case Wait: return tr("Wait (us)");
    case Tflops: return tr("TFLOPS");
    case Bound: return tr("Bound");
    default: return {};
  }
}

QString StatsTableModel::rowsAsTsv(const QList<int>& rows) const {
  const int columns = columnCount();
  QStringList header;
  for (int c = 0; c < columns; ++c) header << headerData(c, Qt::Horizontal).toString();
  QString out = header.join(QLatin1Char('\t')) + QLatin1Char('\n');
  for (int row : rows) {
    const core::StatsRow* r = statsRow(row);
    if (!r) continue;
    QStringList cells;
    for (int c = 0; c < columns; ++c) {
      QString text = displayText(*r, c);
      text.replace(QLatin1Char('\t'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
      cells << text;
    }
    out += cells.join(QLatin1Char('\t')) + QLatin1Char('\n');
  }
  return out;
}

}  // namespace npuscope::widgets
