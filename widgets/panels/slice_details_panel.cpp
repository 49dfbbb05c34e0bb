// SPDX-License-Identifier: MIT
#include "widgets/panels/slice_details_panel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QKeyEvent>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <cmath>
#include <functional>

#include "core/model/slice_args.h"
#include "core/base/time_format.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/lane_layout.h"
#include "widgets/text_elide.h"

namespace npuscope::widgets {

using core::TimeNs;

namespace {
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
QString dur(TimeNs ns) { return QString::fromStdString(core::formatDuration(ns)); }
QString at(TimeNs ns) { return QString::fromStdString(core::formatTimeOffset(ns)); }

void addJson(SliceDetailsPanel* panel, QTreeWidgetItem* parent, const QString& key, const QJsonValue& v,
             const std::function<QTreeWidgetItem*(QTreeWidgetItem*, const QString&, const QString&)>& add) {
  if (v.isObject()) {
    const QJsonObject o = v.toObject();
    QTreeWidgetItem* it = add(parent, key, QStringLiteral("{%1}").arg(o.size()));
    for (auto i = o.begin(); i != o.end(); ++i) addJson(panel, it, i.key(), i.value(), add);
    it->setExpanded(o.size() <= 8);
  } else if (v.isArray()) {
    const QJsonArray a = v.toArray();
    QTreeWidgetItem* it = add(parent, key, QStringLiteral("[%1]").arg(a.size()));
    for (int i = 0; i < a.size(); ++i) addJson(panel, it, QString::number(i), a.at(i), add);
    it->setExpanded(a.size() <= 8);
  } else {
    add(parent, key, argValueText(v));
  }
}
}  // namespace

QString argValueText(const QJsonValue& v) {
  switch (v.type()) {
    case QJsonValue::String: {
      QString s = v.toString();
      s.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
      s.replace(QLatin1Char('\r'), QLatin1Char('\n'));
      return s;
    }
    case QJsonValue::Double: {
      const double d = v.toDouble();
      if (d == static_cast<double>(static_cast<long long>(d)) && std::abs(d) < 9e15)
        return QString::number(static_cast<long long>(d));
      return QString::number(d, 'g', 15);
    }
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Object:
      return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Array:
      return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    default: return {};
  }
}

SliceDetailsPanel::SliceDetailsPanel(QWidget* parent) : QWidget(parent) {
  m_title = new QLabel(this);
  m_title->setTextFormat(Qt::PlainText);
  m_title->setWordWrap(true);
  neverWiden(m_title);
  m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont tf = m_title->font();
  tf.setBold(true);
  tf.setPointSizeF(tf.pointSizeF() * 1.1);
  m_title->setFont(tf);
  m_title->setContentsMargins(6, 4, 6, 2);
  m_tree = new QTreeWidget(this);
  m_tree->setColumnCount(2);
  m_tree->setHeaderLabels({tr("Property"), tr("Value")});
  m_tree->setUniformRowHeights(false);
  m_tree->setWordWrap(true);
  m_tree->setAlternatingRowColors(true);
  m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_tree->header()->setStretchLastSection(true);
  m_tree->setColumnWidth(0, 150);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->setSpacing(0);
  lay->addWidget(m_title);
  lay->addWidget(m_tree);
  auto* copy = new QAction(tr("Copy"), this);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(copy, &QAction::triggered, this, &SliceDetailsPanel::copySelection);
  addAction(copy);
  m_tree->addAction(copy);
  m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
  clearSlice();
}

QTreeWidgetItem* SliceDetailsPanel::addRow(QTreeWidgetItem* parent, const QString& key, const QString& value) {
  auto* it = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
  it->setText(0, key);
  it->setText(1, value);
  if (value.contains(QLatin1Char('\n'))) it->setToolTip(1, value);
  return it;
}

void SliceDetailsPanel::clearSlice() {
  m_profile.reset();
  m_tree->clear();
  m_title->setText(tr("No slice selected"));
  m_title->setForegroundRole(QPalette::PlaceholderText);
}

void SliceDetailsPanel::showSlice(std::shared_ptr<const core::Profile> profile, int rankIndex, core::SliceRef ref) {
  if (!profile || rankIndex < 0 || static_cast<std::size_t>(rankIndex) >= profile->ranks.size() || !ref.valid()) {
    clearSlice();
    return;
  }
  const auto& trace = profile->ranks[static_cast<std::size_t>(rankIndex)].trace;
  if (!trace || ref.lane >= trace->lanes.size() || ref.index >= trace->lanes[ref.lane].sliceCount()) {
    clearSlice();
    return;
  }
  m_profile = profile;
  m_tree->clear();
  const core::Trace& t = *trace;
  const core::Lane& lane = t.lanes[ref.lane];
  const TimeNs s = lane.start[ref.index], e = lane.end[ref.index];
  const TimeNs origin = profile->range().start;
  const std::uint8_t flags = lane.flags[ref.index];
  const QString name = qs(t.sliceName(ref));
  m_title->setText(name.isEmpty() ? tr("(unnamed slice)") : elideMiddle(name));
  m_title->setToolTip(name.size() > kMaxLabelChars ? tr("%1 characters; the Name row has all of them").arg(name.size())
                                                   : QString());
  m_title->setForegroundRole(QPalette::WindowText);

  const core::Process& proc = t.processes[lane.process];
  QString procText = qs(proc.name);
  if (!proc.label.empty()) procText += QStringLiteral(" (") + qs(proc.label) + QStringLiteral(")");
  procText += tr("  pid ") + (proc.pidText.empty() ? QString::number(proc.pid) : qs(proc.pidText));
  QString threadText = lane.name.empty() ? QString() : qs(lane.name) + QStringLiteral("  ");
  threadText += tr("tid ") + (lane.tidText.empty() ? QString::number(lane.tid) : qs(lane.tidText));

  addRow(nullptr, tr("Name"), name);
  addRow(nullptr, tr("Category"), qs(t.name(lane.categories[ref.index])));
  addRow(nullptr, tr("Rank"), rankLabel(profile->ranks[static_cast<std::size_t>(rankIndex)]));
  addRow(nullptr, tr("Process"), procText);
  addRow(nullptr, tr("Thread"), threadText);
  addRow(nullptr, tr("Start"), at(s - origin));
  addRow(nullptr, tr("Start (absolute)"), QString::fromStdString(core::formatTimestampUs(s)));
  QString d = dur(e - s);
  if (flags & core::kSliceUnfinished) d += tr(" (did not end: drawn to the trace end)");
  addRow(nullptr, tr("Duration"), d);
  addRow(nullptr, tr("Self time"), dur(lane.selfTime(ref.index)));
  addRow(nullptr, tr("Depth"), QString::number(lane.depthOf(ref.index)));
  QStringList fl;
  if (flags & core::kSliceUnfinished) fl << tr("unfinished");
  if (flags & core::kSlicePartialOverlap) fl << tr("partial overlap");
  if (flags & core::kSliceMinorOverlap) fl << tr("overlap (informational)");
  if (flags & core::kSliceInstant) fl << tr("instant");
  addRow(nullptr, tr("Flags"), fl.isEmpty() ? tr("none") : fl.join(QStringLiteral(", ")));

  // Flows in and out of this slice.
  int nIn = 0, nOut = 0;
  QTreeWidgetItem* flowsItem = addRow(nullptr, tr("Flows"), {});
  for (const core::Flow& f : t.flows) {
    const bool out = f.from == ref, in = f.to == ref;
    if (!out && !in) continue;
    const core::SliceRef other = out ? f.to : f.from;
    QString otherText = other.valid() && other.lane < t.lanes.size() ? qs(t.sliceName(other)) : QStringLiteral("?");
    QString cat = qs(t.name(f.category));
    if (cat.isEmpty()) cat = qs(t.name(f.name));
    addRow(flowsItem, out ? tr("out → %1").arg(cat) : tr("in ← %1").arg(cat),
           otherText + QStringLiteral("  @ ") + at((out ? f.toTs : f.fromTs) - origin));
    (out ? nOut : nIn) += 1;
  }
  flowsItem->setText(1, tr("%1 in, %2 out").arg(nIn).arg(nOut));
  flowsItem->setExpanded(nIn + nOut <= 10);

  // Args, parsed on demand (repaired like the reader's events: invalid UTF-8 shown as U+FFFD).
  const std::string args = core::sliceArgsJson(t, ref);
  if (!args.empty()) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(
        QByteArray::fromRawData(args.data(), static_cast<qsizetype>(args.size())), &err);
    QTreeWidgetItem* argsItem = addRow(nullptr, tr("Args"), {});
    const std::function<QTreeWidgetItem*(QTreeWidgetItem*, const QString&, const QString&)> add =
        [this](QTreeWidgetItem* p, const QString& k, const QString& v) { return addRow(p, k, v); };
    if (err.error == QJsonParseError::NoError && doc.isObject()) {
      const QJsonObject o = doc.object();
      argsItem->setText(1, QStringLiteral("{%1}").arg(o.size()));
      for (auto i = o.begin(); i != o.end(); ++i) addJson(this, argsItem, i.key(), i.value(), add);
    } else {
      addRow(argsItem, tr("(raw)"), qs(args));
    }
    argsItem->setExpanded(true);
  }
  m_tree->resizeColumnToContents(0);
  if (m_tree->columnWidth(0) > 260) m_tree->setColumnWidth(0, 260);
}

QString SliceDetailsPanel::valueOf(const QString& property) const {
  const auto items = m_tree->findItems(property, Qt::MatchExactly | Qt::MatchRecursive, 0);
  return items.isEmpty() ? QString() : items.front()->text(1);
}

QString SliceDetailsPanel::toPlainText() const {
  QString out;
  std::function<void(QTreeWidgetItem*, int)> walk = [&](QTreeWidgetItem* it, int level) {
    out += QString(level * 2, QLatin1Char(' ')) + it->text(0) + QStringLiteral(": ") + it->text(1) + QLatin1Char('\n');
    for (int i = 0; i < it->childCount(); ++i) walk(it->child(i), level + 1);
  };
  for (int i = 0; i < m_tree->topLevelItemCount(); ++i) walk(m_tree->topLevelItem(i), 0);
  return out;
}

void SliceDetailsPanel::copySelection() const {
  QString text;
  for (QTreeWidgetItem* it : m_tree->selectedItems())
    text += it->text(0) + QStringLiteral(": ") + it->text(1) + QLatin1Char('\n');
  if (text.isEmpty()) text = toPlainText();
  if (!text.isEmpty()) QApplication::clipboard()->setText(text);
}

}  // namespace npuscope::widgets
