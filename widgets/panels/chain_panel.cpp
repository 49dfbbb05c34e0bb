// SPDX-License-Identifier: MIT
#include "widgets/panels/chain_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <array>

#include "core/base/time_format.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/text_elide.h"

namespace npuscope::widgets {

namespace {
// `name` with a zero-width space after each '@', '/', '.', '_' and "::", where a long name
// ("AscendCL@aclopCompileAndExecute", "aten::_convolution") may then break when it wraps.
QString breakable(QString name) {
  static const QRegularExpression kAfter(QStringLiteral("(@|/|\\.|_|::)(?=\\S)"));
  return name.replace(kAfter, QStringLiteral("\\1") + QChar(0x200B));
}

// Rows as tall as their text wrapped at the column's width: QTreeView asks for a row's size
// with no width, so word wrap alone never makes a row taller.
class WrappingDelegate : public QStyledItemDelegate {
 public:
  explicit WrappingDelegate(QTreeWidget* tree) : QStyledItemDelegate(tree), m_tree(tree) {}
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    // Only the columns that wrap (Slice, Via); the others are sized to their one-line text.
    if (index.column() != ChainPanel::Name && index.column() != ChainPanel::Via)
      return QStyledItemDelegate::sizeHint(option, index);
    QStyleOptionViewItem o(option);
    const int width = m_tree->header()->sectionSize(index.column());
    if (width > 0) o.rect = QRect(0, 0, width, 1);
    o.features |= QStyleOptionViewItem::WrapText;
    return QStyledItemDelegate::sizeHint(o, index);
  }

 private:
  QTreeWidget* m_tree;
};
}  // namespace

using core::ChainLayer;
using core::TimeNs;

namespace {
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
QString dur(TimeNs ns) { return QString::fromStdString(core::formatDuration(ns)); }
QString at(TimeNs ns) { return QString::fromStdString(core::formatTimeOffset(ns)); }

constexpr std::array<ChainLayer, 7> kLayers = {ChainLayer::PythonApi, ChainLayer::TorchOp,  ChainLayer::Enqueue,
                                               ChainLayer::Dequeue,   ChainLayer::CannApi,  ChainLayer::Launch,
                                               ChainLayer::DeviceTask};
constexpr int kRefLaneRole = Qt::UserRole + 1;
constexpr int kRefIndexRole = Qt::UserRole + 2;
constexpr int kMissingRole = Qt::UserRole + 3;
constexpr int kFullNameRole = Qt::UserRole + 4;
constexpr int kLayerRole = Qt::UserRole + 5;

}  // namespace

QString ChainPanel::viaText(std::string_view via) {
  // The profiler's own names (core's ChainLink::via) in words (issue 42 item 6: the column showed
  // "enclosing" and "async_task_queue"); viaToolTip says what each means and names the flow.
  if (via == "HostToDevice" || via == "ac2g") return tr("launch flow");
  if (via == "async_npu" || via == "async_acl_npu") return tr("op → task flow");
  if (via == "async_task_queue") return tr("task queue");
  if (via == "enclosing") return tr("encloses it");
  if (via == "same thread") return tr("same thread");
  if (via == "External id") return tr("same External id");
  if (via == "kernel_record") return tr("kernel's own record");
  return QString::fromUtf8(via.data(), static_cast<qsizetype>(via.size()));
}

QString ChainPanel::viaToolTip(std::string_view via) {
  const QString key = QString::fromUtf8(via.data(), static_cast<qsizetype>(via.size()));
  if (via == "HostToDevice" || via == "ac2g")
    return tr("Reached from the row below through the profiler's launch flow (%1): the host call that launched the task").arg(key);
  if (via == "async_npu" || via == "async_acl_npu")
    return tr("Reached through the profiler's flow from the torch op to its device task (%1)").arg(key);
  if (via == "async_task_queue")
    return tr("Reached through torch_npu's task queue: the Enqueue on the op's thread feeds the Dequeue on the "
              "dispatch thread (flow %1)").arg(key);
  if (via == "enclosing") return tr("This slice encloses the one below it on its thread (its caller)");
  if (via == "same thread") return tr("On the same OS thread, around the row below it in time");
  if (via == "External id")
    return tr("The torch op whose External id the runtime record carries: Kineto's own link from an op to its "
              "runtime calls");
  if (via == "kernel_record")
    return tr("A runtime record of 0 us at the kernel's own start: it marks the kernel, not its launch. When the "
              "launch happened is not recorded; it lies inside the torch op above");
  return key;
}

QString ChainPanel::layerName(ChainLayer layer) {
  switch (layer) {
    case ChainLayer::PythonApi: return tr("Python API");
    case ChainLayer::TorchOp: return tr("Torch op");
    case ChainLayer::Enqueue: return tr("Enqueue");
    case ChainLayer::Dequeue: return tr("Dequeue");
    case ChainLayer::CannApi: return tr("CANN API");
    case ChainLayer::Launch: return tr("Node@launch");
    case ChainLayer::DeviceTask: return tr("Device task");
  }
  return QStringLiteral("?");
}

ChainPanel::ChainPanel(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(6, 6, 6, 6);
  v->setSpacing(4);
  auto* top = new QHBoxLayout;
  top->setSpacing(6);
  m_header = new QLabel(this);
  m_header->setTextFormat(Qt::RichText);
  m_header->setWordWrap(true);
  neverWiden(m_header);
  m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_badge = new QLabel(this);
  m_badge->setObjectName(QStringLiteral("ChainPathBadge"));
  m_badge->setAlignment(Qt::AlignCenter);
  m_badge->hide();
  top->addWidget(m_header, 1);
  top->addWidget(m_badge, 0, Qt::AlignTop);
  v->addLayout(top);
  m_context = new QLabel(this);
  m_context->setWordWrap(true);
  neverWiden(m_context);
  m_context->setForegroundRole(QPalette::PlaceholderText);
  m_context->hide();
  v->addWidget(m_context);

  m_tree = new QTreeWidget(this);
  m_tree->setObjectName(QStringLiteral("ChainTree"));
  m_tree->setColumnCount(ColumnCount);
  m_tree->setHeaderLabels({tr("Layer"), tr("Slice"), tr("Start"),
                           tr("Duration"), tr("Via")});
  m_tree->setRootIsDecorated(false);
  // Long names ("<built-in method conv2d of type object at 0x...>", "AscendCL@aclopCompile...")
  // wrap onto more lines instead of being cut: rows grow to their text.
  m_tree->setUniformRowHeights(false);
  m_tree->setWordWrap(true);
  m_tree->setItemDelegate(new WrappingDelegate(m_tree));
  m_tree->setTextElideMode(Qt::ElideNone);
  m_tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_tree->setAlternatingRowColors(true);
  m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
  m_tree->header()->setStretchLastSection(false);
  m_tree->header()->setSectionResizeMode(Name, QHeaderView::Stretch);
  m_tree->header()->setSectionResizeMode(Layer, QHeaderView::ResizeToContents);
  m_tree->header()->setSectionResizeMode(Start, QHeaderView::ResizeToContents);
  m_tree->header()->setSectionResizeMode(Duration, QHeaderView::ResizeToContents);
  // The slice names are what the reader needs: Via is as wide as its longest word (fitViaColumn;
  // "latency 21.5 us (corrected)" wraps, its tooltip and the context line above hold it in
  // full) so that Slice gets the room.
  m_tree->header()->setSectionResizeMode(Via, QHeaderView::Interactive);
  m_tree->header()->resizeSection(Via, 84);
  m_tree->headerItem()->setToolTip(Via, tr("How the link was reached from the one below it"));
  // Wrapped rows take their height from the column widths: lay them out again after a resize.
  connect(m_tree->header(), &QHeaderView::sectionResized, this, [this] {
    if (m_relayoutPending) return;
    m_relayoutPending = true;
    QTimer::singleShot(0, this, [this] {
      m_relayoutPending = false;
      m_tree->doItemsLayout();
    });
  });
  v->addWidget(m_tree, 1);
  connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* it) { activate(it); });
  connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* it) { activate(it); });
  clearChain();
}

void ChainPanel::clearChain() {
  m_profile.reset();
  m_rank = -1;
  m_chain = {};
  m_tree->clear();
  m_badge->hide();
  m_context->hide();
  m_header->setText(tr("<i>Select a device task (Ascend Hardware) or a bubble to see its dispatch chain.</i>"));
}

void ChainPanel::setChain(std::shared_ptr<const core::Profile> profile, int rankIndex,
                          const core::DispatchChain& chain, const QString& context) {
  const core::Trace* trace = (profile && rankIndex >= 0 && static_cast<std::size_t>(rankIndex) < profile->ranks.size())
                                 ? profile->ranks[static_cast<std::size_t>(rankIndex)].trace.get()
                                 : nullptr;
  if (!trace) {
    clearChain();
    return;
  }
  m_profile = std::move(profile);
  m_rank = rankIndex;
  m_chain = chain;
  m_tree->clear();
  const TimeNs origin = m_profile->range().start;
  const QColor dim = palette().color(QPalette::PlaceholderText);

  for (ChainLayer layer : kLayers) {
    const core::ChainLink* link = chain.find(layer);
    const bool missing = !link && std::find(chain.missing.begin(), chain.missing.end(), layer) != chain.missing.end();
    if (!link && !missing) continue;  // a layer this path does not have (e.g. no Launch row when not listed)
    auto* it = new QTreeWidgetItem(m_tree);
    // A Kineto chain's launch is a runtime call (cudaLaunchKernel, ...), bound by an ac2g flow.
    const QString shownLayer =
        layer == ChainLayer::Launch && link && link->via == "ac2g"            ? tr("Runtime launch")
        : layer == ChainLayer::Launch && link && link->via == "kernel_record" ? tr("Runtime record")
                                                                               : layerName(layer);
    it->setText(Layer, shownLayer);
    it->setData(0, kLayerRole, shownLayer);
    if (link) {
      const core::TimeRange r = trace->sliceRange(link->slice);
      const QString name = qs(trace->sliceName(link->slice));
      it->setText(Name, breakable(elideMiddle(name)));  // wrapped, at most 160 characters of it
      it->setData(Name, kFullNameRole, name);
      it->setToolTip(Name, name.toHtmlEscaped());
      it->setText(Start, at(r.start - origin));
      it->setToolTip(Start, QString::fromStdString(core::formatTimestampUs(r.start)));
      it->setText(Duration, dur(r.duration()));
      it->setText(Via, viaText(link->via));
      it->setToolTip(Via, viaToolTip(link->via));
      if (layer == ChainLayer::DeviceTask && chain.launchLatency) {
        // Never a bare negative number: the latency corrected by the rank's clock skew bound.
        const TimeNs shown = chain.correctedLatency ? *chain.correctedLatency : *chain.launchLatency;
        it->setText(Via, chain.skewBound > 0 ? tr("latency %1 (corrected)").arg(dur(shown)) : tr("latency %1").arg(dur(shown)));
        QString tip = tr("Device task start − host launch (Node@launch, else the CANN API, the HostToDevice flow "
                         "start or the Dequeue start).");
        if (chain.skewBound > 0)
          tip += tr("\nRecorded %1. This rank's host and device clocks disagree: some task starts %2 before its own "
                    "launch, so every latency is corrected by that bound (docs/diagnosis.md §4).")
                     .arg(dur(*chain.launchLatency), dur(chain.skewBound));
        else if (*chain.launchLatency < 0)
          tip += tr("\nNegative as recorded: the host and device clocks disagree slightly.");
        it->setToolTip(Via, tip);
        QFont f = it->font(Via);
        f.setWeight(QFont::DemiBold);
        it->setFont(Via, f);
      }
      it->setData(0, kRefLaneRole, link->slice.lane);
      it->setData(0, kRefIndexRole, link->slice.index);
      it->setData(0, kMissingRole, false);
      if (layer == ChainLayer::DeviceTask) {
        QFont f = it->font(Name);
        f.setWeight(QFont::DemiBold);
        it->setFont(Name, f);
      }
      it->setToolTip(Layer, tr("Click to select this slice on the timeline"));
    } else {
      // One spanned cell: "Python API · missing (not recorded at this profiler level)".
      it->setText(Layer, layerName(layer) + QStringLiteral("  ·  ") + missingText());
      it->setData(Name, kFullNameRole, missingText());
      it->setData(0, kMissingRole, true);
      it->setFlags(it->flags() & ~Qt::ItemIsSelectable);
      QFont f = it->font(Name);
      f.setItalic(true);
      for (int c = 0; c < ColumnCount; ++c) it->setForeground(c, dim);
      it->setFont(Layer, f);
      it->setFirstColumnSpanned(true);
      it->setToolTip(Layer, tr("This layer was not found in the trace (e.g. Level0 or no with_stack); "
                              "npuscope does not guess it."));
    }
  }

  fitViaColumn();

  // Header: the task and the latency; the path badge.
  const core::ChainLink* task = chain.find(ChainLayer::DeviceTask);
  QString head = task ? tr("<b>%1</b>").arg(elideMiddle(qs(trace->sliceName(task->slice))).toHtmlEscaped())
                      : tr("<b>Dispatch chain</b>");
  m_header->setText(head);
  QStringList sub;
  if (chain.launchLatency) {
    // core's sentence starts lower-case in English ("launch latency ..."): capitalised here; a
    // translation (core/base/i18n.h) is shown as it is.
    QString latency = QString::fromStdString(core::launchLatencyText(chain));
    if (latency.startsWith(QLatin1Char('l'))) latency[0] = QLatin1Char('L');
    sub << latency;
  } else if (const core::ChainLink* rec = chain.find(ChainLayer::Launch); rec && rec->via == "kernel_record") {
    const core::ChainLink* op = chain.find(ChainLayer::TorchOp);
    sub << (op ? tr("Launch time not recorded: issued during %1").arg(elideMiddle(qs(trace->sliceName(op->slice))))
               : tr("Launch time not recorded, and no torch op carries the record's External id"));
  }
  if (!context.isEmpty()) sub << context;
  const QString contextLine = sub.join(QStringLiteral("  ·  "));
  if (chain.path.empty()) {
    m_badge->hide();
  } else {
    const bool aclop = chain.path == "ACLOP";
    m_badge->setText(QString::fromStdString(chain.path));
    m_badge->setToolTip(aclop ? tr("ACLOP path: operator compiled/executed through aclopCompileAndExecute")
                              : tr("ACLNN path: two-stage aclnn API (GetWorkspaceSize + launch)"));
    m_badge->setStyleSheet(QStringLiteral("QLabel#ChainPathBadge { color: white; background: %1; border-radius: 3px; "
                                          "padding: 1px 6px; font-weight: 600; }")
                               .arg(aclop ? QStringLiteral("#b45309") : QStringLiteral("#1d4ed8")));
    m_badge->show();
  }
  m_context->setText(contextLine);
  m_context->setVisible(!contextLine.isEmpty());
}

void ChainPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitViaColumn();
}

void ChainPanel::fitViaColumn() {
  // As wide as the longest word of a Via cell or its title (a word never breaks), at most a
  // quarter of the tree: "latency 21.546 us (corrected)" wraps between its words.
  int widest = QFontMetrics(m_tree->headerItem()->font(Via)).horizontalAdvance(m_tree->headerItem()->text(Via));
  for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
    const QTreeWidgetItem* it = m_tree->topLevelItem(i);
    if (it->isFirstColumnSpanned()) continue;
    const QFontMetrics fm(it->font(Via));
    for (const QString& word : it->text(Via).split(QLatin1Char(' '), Qt::SkipEmptyParts))
      widest = std::max(widest, fm.horizontalAdvance(word));
  }
  const int margins = 2 * (m_tree->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_tree) + 1) + 6;
  m_tree->header()->resizeSection(Via, std::min(widest + margins, std::max(84, width() / 4)));
}

int ChainPanel::rowCount() const { return m_tree->topLevelItemCount(); }

QString ChainPanel::text(int row, int column) const {
  const QTreeWidgetItem* it = m_tree->topLevelItem(row);
  if (!it) return {};
  if (column == Name) return it->data(Name, kFullNameRole).toString();
  if (column == Layer) return it->data(0, kLayerRole).toString();
  return it->text(column);
}

bool ChainPanel::isMissing(int row) const {
  const QTreeWidgetItem* it = m_tree->topLevelItem(row);
  return it && it->data(0, kMissingRole).toBool();
}

QString ChainPanel::badgeText() const { return m_badge->isHidden() ? QString() : m_badge->text(); }

QString ChainPanel::headerText() const { return m_header->text(); }

QString ChainPanel::contextText() const { return m_context->text(); }

void ChainPanel::activate(QTreeWidgetItem* item) {
  if (!item || m_rank < 0 || item->data(0, kMissingRole).toBool()) return;
  core::SliceRef ref;
  ref.lane = item->data(0, kRefLaneRole).toUInt();
  ref.index = item->data(0, kRefIndexRole).toUInt();
  emit linkActivated(RankSliceRef{m_rank, ref});
}

}  // namespace npuscope::widgets
