// SPDX-License-Identifier: MIT
#include "widgets/panels/stats_view.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "core/base/time_format.h"
#include "widgets/panels/stats_table_model.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

namespace npuscope::widgets {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
QString dur(core::TimeNs ns) { return QString::fromStdString(core::formatDuration(ns)); }


QString layerTitle(core::StatsLayer l) {
  switch (l) {
    case core::StatsLayer::Python: return StatsView::tr("Python / aten ops");
    case core::StatsLayer::Cann: return StatsView::tr("CANN APIs");
    case core::StatsLayer::Kernels: return StatsView::tr("Kernels");
    case core::StatsLayer::Tasks: return StatsView::tr("Stream tasks");
    case core::StatsLayer::Communication: return StatsView::tr("Communication");
    case core::StatsLayer::Overlap: return StatsView::tr("Overlap Analysis");
  }
  return {};
}

// The step's window for the scope: the device window, else the host one.
core::TimeRange stepWindow(const core::StepWindow& s) { return s.device.empty() ? s.host : s.device; }

}  // namespace

StatsView::StatsView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("StatsView"));
  m_model = new StatsTableModel(this);
  m_proxy = new QSortFilterProxyModel(this);
  m_proxy->setSourceModel(m_model);
  m_proxy->setSortRole(StatsTableModel::SortRole);
  m_proxy->setFilterRole(StatsTableModel::NameRole);
  m_proxy->setFilterKeyColumn(StatsTableModel::Name);
  m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);

  // Controls row.
  m_rankLabel = new QLabel(tr("Rank"), this);
  m_rankCombo = new QComboBox(this);
  m_layerCombo = new QComboBox(this);
  for (core::StatsLayer l : core::kStatsLayers) m_layerCombo->addItem(layerTitle(l), static_cast<int>(l));
  m_layerCombo->setCurrentIndex(2);
  m_layerCombo->setToolTip(tr("Which lanes the table covers"));
  m_scopeCombo = new QComboBox(this);
  m_scopeCombo->setMinimumContentsLength(16);
  m_scopeCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_scopeCombo->setToolTip(tr("Slices whose start lies in the scope count, with their full duration.\n"
                              "Steps use their device window; Shift+drag on the timeline selects a range."));
  m_filter = new QLineEdit(this);
  m_filter->setPlaceholderText(tr("Filter names"));
  m_filter->setClearButtonEnabled(true);
  m_filter->setMinimumWidth(180);
  m_regex = new QCheckBox(tr("Regex"), this);
  m_regex->setToolTip(tr("Treat the filter as a regular expression (case-insensitive)"));
  m_copy = new QPushButton(tr("Copy"), this);
  m_copy->setToolTip(tr("Copy the selected rows as tab-separated text (Ctrl+C)"));
  m_export = new QPushButton(tr("Export CSV…"), this);
  m_export->setToolTip(tr("Save the rows passing the filter as CSV (times in us)"));

  auto* controls = new QHBoxLayout;
  controls->setContentsMargins(0, 0, 0, 0);
  controls->setSpacing(6);
  controls->addWidget(m_rankLabel);
  controls->addWidget(m_rankCombo);
  auto* layerLabel = new QLabel(tr("Layer"), this);
  controls->addWidget(layerLabel);
  controls->addWidget(m_layerCombo);
  auto* scopeLabel = new QLabel(tr("Scope"), this);
  controls->addWidget(scopeLabel);
  controls->addWidget(m_scopeCombo);
  controls->addSpacing(8);
  controls->addWidget(m_filter, 1);
  controls->addWidget(m_regex);
  controls->addSpacing(8);
  controls->addWidget(m_copy);
  controls->addWidget(m_export);

  m_totals = new QLabel(this);
  m_totals->setTextFormat(Qt::RichText);
  m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_totals->setToolTip(tr("sum: every slice's duration added up (overlapping slices count twice)\n"
                          "union: the time during which at least one slice of the layer runs"));

  // Table.
  m_table = new QTableView(this);
  m_table->setModel(m_proxy);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(StatsTableModel::Total, Qt::DescendingOrder);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_table->setAlternatingRowColors(true);
  m_table->setWordWrap(false);
  m_table->setTextElideMode(Qt::ElideMiddle);
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
  m_table->horizontalHeader()->setHighlightSections(false);
  m_table->horizontalHeader()->setStretchLastSection(false);
  m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
  m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);

  auto* copyAction = new QAction(tr("Copy Rows"), m_table);
  copyAction->setShortcut(QKeySequence::Copy);
  copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(copyAction, &QAction::triggered, this, [this] { copySelection(); });
  auto* occAction = new QAction(tr("Show Occurrences"), m_table);
  connect(occAction, &QAction::triggered, this, [this] {
    const QModelIndex i = m_table->currentIndex();
    if (i.isValid()) showOccurrences(i.data(StatsTableModel::NameRole).toString());
  });
  auto* exportAction = new QAction(tr("Export CSV…"), m_table);
  connect(exportAction, &QAction::triggered, this, &StatsView::exportCsvDialog);
  m_table->addActions({copyAction, occAction, exportAction});

  // Occurrences.
  auto* occPanel = new QWidget(this);
  auto* occLayout = new QVBoxLayout(occPanel);
  occLayout->setContentsMargins(0, 0, 0, 0);
  occLayout->setSpacing(2);
  m_occurrencesTitle = new QLabel(tr("Double-click a row to list its occurrences"), occPanel);
  m_occurrencesTitle->setTextFormat(Qt::PlainText);
  m_occurrencesTitle->setForegroundRole(QPalette::PlaceholderText);
  m_occurrences = new QTreeWidget(occPanel);
  m_occurrences->setRootIsDecorated(false);
  m_occurrences->setUniformRowHeights(true);
  m_occurrences->setAlternatingRowColors(true);
  m_occurrences->setHeaderLabels({tr("Start"), tr("Duration"), tr("Lane")});
  m_occurrences->header()->setStretchLastSection(true);
  m_occurrences->setToolTip(tr("Double-click or Enter: select and zoom to the slice on the timeline"));
  occLayout->addWidget(m_occurrencesTitle);
  occLayout->addWidget(m_occurrences, 1);

  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(m_table);
  split->addWidget(occPanel);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);

  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(6, 6, 6, 4);
  outer->setSpacing(4);
  outer->addLayout(controls);
  outer->addWidget(m_totals);
  outer->addWidget(split, 1);

  m_recompute.setSingleShot(true);
  m_recompute.setInterval(150);
  connect(&m_recompute, &QTimer::timeout, this, &StatsView::refresh);
  connect(m_rankCombo, &QComboBox::activated, this, [this](int i) { setRank(m_rankCombo->itemData(i).toInt()); });
  connect(m_layerCombo, &QComboBox::activated, this,
          [this](int i) { setLayer(static_cast<core::StatsLayer>(m_layerCombo->itemData(i).toInt())); });
  connect(m_scopeCombo, &QComboBox::activated, this, &StatsView::onScopeActivated);
  connect(m_filter, &QLineEdit::textChanged, this, &StatsView::applyFilter);
  connect(m_regex, &QCheckBox::toggled, this, [this](bool on) {
    applyFilter();
    emit filterRegexToggled(on);
  });
  connect(m_copy, &QPushButton::clicked, this, [this] { copySelection(); });
  connect(m_export, &QPushButton::clicked, this, &StatsView::exportCsvDialog);
  connect(m_table, &QTableView::doubleClicked, this,
          [this](const QModelIndex& i) { showOccurrences(i.data(StatsTableModel::NameRole).toString()); });
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& i) { highlightName(i.isValid() ? i.data(StatsTableModel::NameRole).toString() : QString()); });
  connect(m_occurrences, &QTreeWidget::itemActivated, this,
          [this](QTreeWidgetItem* item) { activateOccurrence(item->data(0, Qt::UserRole).toInt()); });

  setProfile(nullptr);
}

StatsView::~StatsView() = default;

void StatsView::setTimeline(TimelineWidget* timeline) {
  if (m_timeline) disconnect(m_timeline->viewport(), nullptr, this, nullptr);
  m_timeline = timeline;
  if (!timeline) return;
  connect(timeline->viewport(), &TimelineViewport::selectionChanged, this, &StatsView::onTimelineSelection);
}

const core::RankProfile* StatsView::rankProfile() const {
  if (!m_profile || m_rank < 0 || static_cast<std::size_t>(m_rank) >= m_profile->ranks.size()) return nullptr;
  const core::RankProfile& r = m_profile->ranks[static_cast<std::size_t>(m_rank)];
  return r.trace ? &r : nullptr;
}

void StatsView::setProfile(std::shared_ptr<const core::Profile> profile) {
  m_profile = std::move(profile);
  m_rankCombo->clear();
  m_rank = -1;
  if (m_profile) {
    for (std::size_t i = 0; i < m_profile->ranks.size(); ++i) {
      const core::RankProfile& r = m_profile->ranks[i];
      if (!r.trace) continue;
      QString label = qs(r.source.label);
      if (label.isEmpty()) label = r.rank() >= 0 ? tr("rank %1").arg(r.rank()) : tr("rank #%1").arg(i);
      m_rankCombo->addItem(label, static_cast<int>(i));
      if (m_rank < 0) m_rank = static_cast<int>(i);
    }
  }
  const bool several = m_rankCombo->count() > 1;
  m_rankCombo->setVisible(several);
  m_rankLabel->setVisible(several);
  m_scope = Scope::Whole;
  m_step = -1;
  m_range = {};
  m_occurrenceName.clear();
  m_occurrenceRefs.clear();
  m_occurrences->clear();
  m_occurrencesTitle->setText(tr("Double-click a row to list its occurrences"));
  buildScopeCombo();
  refresh();
}

void StatsView::setLayer(core::StatsLayer layer) {
  const bool changed = layer != m_layer;
  m_layer = layer;
  for (int i = 0; i < m_layerCombo->count(); ++i)
    if (m_layerCombo->itemData(i).toInt() == static_cast<int>(layer)) m_layerCombo->setCurrentIndex(i);
  refresh();
  if (changed) emit layerChanged(layer);
}

void StatsView::setRank(int rankIndex) {
  if (rankIndex == m_rank) return;
  const int comboIndex = m_rankCombo->findData(rankIndex);
  if (comboIndex < 0) return;
  m_rankCombo->setCurrentIndex(comboIndex);
  // Keep the step number when the new rank has it.
  long long stepNumber = -1;
  if (m_scope == Scope::Step) {
    const core::RankProfile* r = rankProfile();
    if (r && r->analysis && m_step >= 0 && static_cast<std::size_t>(m_step) < r->analysis->steps.size())
      stepNumber = r->analysis->steps[static_cast<std::size_t>(m_step)].number;
  }
  m_rank = rankIndex;
  const core::RankProfile* r = rankProfile();
  int newStep = -1;
  if (stepNumber >= 0 && r && r->analysis) {
    for (std::size_t i = 0; i < r->analysis->steps.size(); ++i)
      if (r->analysis->steps[i].number == stepNumber) newStep = static_cast<int>(i);
  }
  buildScopeCombo();
  if (m_scope == Scope::Step) {
    if (newStep >= 0)
      setScopeStep(newStep);
    else
      setScopeWhole();
    return;
  }
  refresh();
}

void StatsView::buildScopeCombo() {
  m_scopeCombo->clear();
  m_scopeCombo->addItem(tr("Whole capture"), -1);
  if (const core::RankProfile* r = rankProfile(); r && r->analysis) {
    for (std::size_t i = 0; i < r->analysis->steps.size(); ++i) {
      const core::StepWindow& s = r->analysis->steps[i];
      m_scopeCombo->addItem(tr("Step %1  (%2)").arg(s.number).arg(dur(stepWindow(s).duration())), static_cast<int>(i));
    }
  }
  m_scopeCombo->addItem(tr("Selected range"), -2);
  int index = 0;
  if (m_scope == Scope::Step) index = m_scopeCombo->findData(m_step);
  if (m_scope == Scope::Range) index = m_scopeCombo->count() - 1;
  m_scopeCombo->setCurrentIndex(std::max(0, index));
  if (auto* items = qobject_cast<QStandardItemModel*>(m_scopeCombo->model())) {
    const bool hasSelection = m_timeline && m_timeline->viewport()->hasSelection();
    items->item(m_scopeCombo->count() - 1)->setEnabled(hasSelection || m_scope == Scope::Range);
  }
}

void StatsView::onScopeActivated(int index) {
  const int data = m_scopeCombo->itemData(index).toInt();
  if (data == -1) {
    setScopeWhole();
  } else if (data == -2) {
    if (m_timeline && m_timeline->viewport()->hasSelection())
      setScopeRange(m_timeline->viewport()->selection());
    else if (m_scope != Scope::Range)
      setScopeWhole();
  } else {
    setScopeStep(data);
  }
}

void StatsView::setScopeWhole() {
  m_scope = Scope::Whole;
  m_step = -1;
  m_scopeCombo->setCurrentIndex(0);
  if (m_timeline && m_timeline->viewport()->hasSelection()) {
    m_syncing = true;
    m_timeline->viewport()->clearSelection();
    m_syncing = false;
  }
  refresh();
}

void StatsView::setScopeStep(int stepIndex) {
  const core::RankProfile* r = rankProfile();
  if (!r || !r->analysis || stepIndex < 0 || static_cast<std::size_t>(stepIndex) >= r->analysis->steps.size()) return;
  m_scope = Scope::Step;
  m_step = stepIndex;
  m_scopeCombo->setCurrentIndex(std::max(0, m_scopeCombo->findData(stepIndex)));
  if (m_timeline) {
    m_syncing = true;
    m_timeline->viewport()->setSelection(stepWindow(r->analysis->steps[static_cast<std::size_t>(stepIndex)]));
    m_syncing = false;
  }
  refresh();
}

void StatsView::setScopeRange(core::TimeRange range) {
  if (range.empty()) {
    setScopeWhole();
    return;
  }
  m_scope = Scope::Range;
  m_step = -1;
  m_range = range;
  if (m_timeline && m_timeline->viewport()->selection() != range) {
    m_syncing = true;
    m_timeline->viewport()->setSelection(range);
    m_syncing = false;
  }
  buildScopeCombo();
  refresh();
}

void StatsView::onTimelineSelection(core::TimeRange range) {
  if (m_syncing) return;
  if (auto* items = qobject_cast<QStandardItemModel*>(m_scopeCombo->model()))
    items->item(m_scopeCombo->count() - 1)->setEnabled(!range.empty() || m_scope == Scope::Range);
  if (range.empty()) {
    // The timeline's selection was cleared: a range scope falls back to the whole capture; a step
    // scope stays (it is still a meaningful choice).
    if (m_scope == Scope::Range) {
      m_scope = Scope::Whole;
      m_scopeCombo->setCurrentIndex(0);
      m_recompute.start();
    }
    return;
  }
  m_scope = Scope::Range;
  m_step = -1;
  m_range = range;
  m_scopeCombo->setCurrentIndex(m_scopeCombo->count() - 1);
  m_recompute.start();  // debounced: a drag emits many selections
}

std::optional<core::TimeRange> StatsView::scopeRange() const {
  switch (m_scope) {
    case Scope::Whole: return std::nullopt;
    case Scope::Range: return m_range;
    case Scope::Step: {
      const core::RankProfile* r = rankProfile();
      if (r && r->analysis && m_step >= 0 && static_cast<std::size_t>(m_step) < r->analysis->steps.size())
        return stepWindow(r->analysis->steps[static_cast<std::size_t>(m_step)]);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

QString StatsView::scopeText() const {
  switch (m_scope) {
    case Scope::Whole: return tr("Whole capture");
    case Scope::Range: return tr("Selected range");
    case Scope::Step: {
      const core::RankProfile* r = rankProfile();
      if (r && r->analysis && m_step >= 0 && static_cast<std::size_t>(m_step) < r->analysis->steps.size())
        return tr("Step %1").arg(r->analysis->steps[static_cast<std::size_t>(m_step)].number);
      return {};
    }
  }
  return {};
}

void StatsView::setFilterText(const QString& text) { m_filter->setText(text); }
void StatsView::setFilterRegex(bool on) { m_regex->setChecked(on); }
bool StatsView::filterRegex() const { return m_regex->isChecked(); }

void StatsView::applyFilter() {
  const QString text = m_filter->text();
  m_filterError.clear();
  if (m_regex->isChecked() && !text.isEmpty()) {
    const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
    if (re.isValid()) {
      m_proxy->setFilterRegularExpression(re);
    } else {
      m_filterError = tr("invalid regular expression: %1 (at %2)").arg(re.errorString()).arg(re.patternErrorOffset());
      m_proxy->setFilterRegularExpression(QRegularExpression());
    }
  } else {
    m_proxy->setFilterFixedString(text);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  }
  m_filter->setStyleSheet(m_filterError.isEmpty() ? QString()
                                                  : QStringLiteral("QLineEdit { border: 1px solid %1; "
                                                                   "background: %2; color: %3; }")
                                                        .arg(ColorPalette::css(ColorPalette::chrome().errorText),
                                                             ColorPalette::css(ColorPalette::chrome().errorFill),
                                                             ColorPalette::css(ColorPalette::chrome().warnText)));
  m_filter->setToolTip(m_filterError);
  updateTotals();
}

void StatsView::refresh() {
  m_recompute.stop();
  core::StatsTable table;
  table.layer = m_layer;
  if (const core::RankProfile* r = rankProfile())
    table = core::computeStats(*r->trace, m_layer, scopeRange(), r->kernels.get());
  // Keep the selected name selected across recomputations.
  const QModelIndex current = m_table->currentIndex();
  const QString selectedName = current.isValid() ? current.data(StatsTableModel::NameRole).toString() : QString();
  m_model->setTable(std::move(table));
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  for (int c = 1; c < m_model->columnCount(); ++c) {
    m_table->resizeColumnToContents(c);
    if (c == StatsTableModel::Type || c == StatsTableModel::Core)  // long texts: elide, tooltip has them
      m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 130));
    if (c == StatsTableModel::Bound) m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 190));
  }
  fitNameColumn();
  if (!selectedName.isEmpty()) {
    const int row = m_model->rowOfName(selectedName);
    if (row >= 0) {
      const QModelIndex i = m_proxy->mapFromSource(m_model->index(row, 0));
      m_table->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
  }
  if (!m_occurrenceName.isEmpty()) showOccurrences(m_occurrenceName);
  updateTotals();
}

const core::StatsTable& StatsView::table() const { return m_model->table(); }

void StatsView::fitNameColumn() {
  // Names matter most: at least 320 px (the table then scrolls horizontally), else all the width
  // the other columns leave.
  int others = 0;
  for (int c = 1; c < m_model->columnCount(); ++c) others += m_table->columnWidth(c);
  const int avail = m_table->viewport()->width() - others - 2;
  m_table->setColumnWidth(StatsTableModel::Name, std::max(320, avail));
}

void StatsView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitNameColumn();
}

void StatsView::updateTotals() {
  const core::StatsTable& t = m_model->table();
  const QLocale locale;
  if (!rankProfile()) {
    m_totals->setText(tr("No profile loaded"));
    return;
  }
  const QString scope = tr("%1 · %2").arg(scopeText(), dur(t.scopeDuration));
  if (t.slices == 0) {
    m_totals->setText(tr("No %1 slices in this scope (%2)").arg(layerTitle(m_layer), scope.toHtmlEscaped()));
    return;
  }
  QString text = tr("<b>Σ %1</b> (sum) · <b>%2</b> covered (union) · %3 slices · %4 names · scope %5")
                     .arg(dur(t.sumTotal), dur(t.unionTotal), locale.toString(static_cast<qulonglong>(t.slices)))
                     .arg(t.rows.size())
                     .arg(scope.toHtmlEscaped());
  text += t.shareBasis == core::ShareBasis::E2E
              ? tr(" · share of E2E %1").arg(dur(t.shareDenominator))
              : tr(" · share of the layer's sum");
  QString tip = tr("sum: every slice's duration added up (overlapping slices count twice)\n"
                   "union: the time during which at least one slice of the layer runs");
  if (!t.kernelRule.empty()) tip += tr("\nKernels are told from stream tasks by %1").arg(qs(t.kernelRule));
  m_totals->setToolTip(tip);
  if (m_proxy->rowCount() != m_model->rowCount())
    text += QStringLiteral(" · <span style='color:%1'>%2</span>")
                .arg(ColorPalette::css(ColorPalette::chrome().info), tr("%1 shown").arg(m_proxy->rowCount()));
  if (!m_filterError.isEmpty())
    text += QStringLiteral(" · <span style='color:%1'>%2</span>")
                .arg(ColorPalette::css(ColorPalette::chrome().errorText), m_filterError.toHtmlEscaped());
  m_totals->setText(text);
}

QString StatsView::totalsText() const {
  QString html = m_totals->text();
  html.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
  return html;
}

void StatsView::showOccurrences(const QString& name) {
  m_occurrenceName = name;
  m_occurrences->clear();
  m_occurrenceRefs.clear();
  const core::RankProfile* r = rankProfile();
  if (!r || name.isEmpty()) return;
  std::vector<core::SliceRef> refs = core::statsOccurrences(*r->trace, m_layer, name.toStdString(), scopeRange(), r->kernels.get());
  const std::size_t total = refs.size();
  if (refs.size() > static_cast<std::size_t>(kMaxOccurrences)) refs.resize(static_cast<std::size_t>(kMaxOccurrences));
  m_occurrenceRefs = std::move(refs);
  const core::TimeNs origin = m_profile->range().start;
  const core::Trace& t = *r->trace;
  QList<QTreeWidgetItem*> items;
  items.reserve(static_cast<qsizetype>(m_occurrenceRefs.size()));
  for (std::size_t i = 0; i < m_occurrenceRefs.size(); ++i) {
    const core::SliceRef ref = m_occurrenceRefs[i];
    const core::TimeRange sr = t.sliceRange(ref);
    const QString lane = m_timeline ? m_timeline->layout().lanePath(m_rank, ref.lane)
                                    : QString(qs(t.processes[t.lanes[ref.lane].process].name) + QStringLiteral(" / ") +
                                              qs(t.lanes[ref.lane].name));
    auto* item = new QTreeWidgetItem({QStringLiteral("+") + dur(sr.start - origin), dur(sr.duration()), lane});
    item->setData(0, Qt::UserRole, static_cast<int>(i));
    item->setTextAlignment(0, Qt::AlignRight | Qt::AlignVCenter);
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    items << item;
  }
  m_occurrences->addTopLevelItems(items);
  m_occurrences->resizeColumnToContents(0);
  m_occurrences->resizeColumnToContents(1);
  QString title = total == 1 ? tr("1 occurrence of %1").arg(name) : tr("%1 occurrences of %2").arg(total).arg(name);
  if (total > m_occurrenceRefs.size()) title += tr(" (first %1 listed)").arg(m_occurrenceRefs.size());
  m_occurrencesTitle->setText(title);
  m_occurrencesTitle->setToolTip(name);
  m_occurrencesTitle->setForegroundRole(QPalette::WindowText);
}

void StatsView::activateOccurrence(int index) {
  if (!m_timeline || index < 0 || static_cast<std::size_t>(index) >= m_occurrenceRefs.size()) return;
  m_timeline->selectSlice(m_rank, m_occurrenceRefs[static_cast<std::size_t>(index)]);
  m_timeline->zoomToSelectedSlice();
}

bool StatsView::selectName(const QString& name) {
  refresh();
  auto find = [&]() -> int {
    for (int r = 0; r < m_proxy->rowCount(); ++r)
      if (m_proxy->index(r, StatsTableModel::Name).data(StatsTableModel::NameRole).toString() == name) return r;
    return -1;
  };
  int row = find();
  if (row < 0 && !m_filter->text().isEmpty()) {
    m_filter->clear();
    applyFilter();
    row = find();
  }
  if (row < 0) return false;
  m_table->setCurrentIndex(m_proxy->index(row, StatsTableModel::Name));
  m_table->selectRow(row);
  m_table->scrollTo(m_proxy->index(row, StatsTableModel::Name));
  highlightName(name);
  return true;
}

void StatsView::highlightName(const QString& name) {
  if (!m_timeline) return;
  m_timeline->clearHighlightedNames();
  if (name.isEmpty() || !m_profile) return;
  const std::string n = name.toStdString();
  for (std::size_t i = 0; i < m_profile->ranks.size(); ++i) {
    const auto& trace = m_profile->ranks[i].trace;
    if (!trace) continue;
    const core::NameId id = trace->strings.find(n);
    if (id == core::kInvalidIndex) continue;
    std::vector<bool> mask(trace->strings.size(), false);
    mask[id] = true;
    m_timeline->setHighlightedNames(static_cast<int>(i), std::move(mask));
  }
}

QString StatsView::copySelection() {
  QList<int> rows;
  const QModelIndexList selected = m_table->selectionModel()->selectedRows();
  QList<int> proxyRows;
  for (const QModelIndex& i : selected) proxyRows << i.row();
  std::sort(proxyRows.begin(), proxyRows.end());
  for (int pr : proxyRows) rows << m_proxy->mapToSource(m_proxy->index(pr, 0)).row();
  if (rows.isEmpty()) return {};
  const QString text = m_model->rowsAsTsv(rows);
  if (QClipboard* cb = QApplication::clipboard()) cb->setText(text);
  return text;
}

core::StatsTable StatsView::filteredTable() const {
  core::StatsTable t = m_model->table();
  t.rows.clear();
  for (int pr = 0; pr < m_proxy->rowCount(); ++pr) {
    const int row = m_proxy->mapToSource(m_proxy->index(pr, 0)).row();
    if (const core::StatsRow* r = m_model->statsRow(row)) t.rows.push_back(*r);
  }
  return t;
}

QString StatsView::exportCsv(const QString& file) const {
  QFile out(file);
  if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
    return tr("Cannot write %1: %2").arg(file, out.errorString());
  const std::string csv = core::statsCsv(filteredTable());
  if (out.write(csv.data(), static_cast<qint64>(csv.size())) != static_cast<qint64>(csv.size()))
    return tr("Cannot write %1: %2").arg(file, out.errorString());
  return {};
}

void StatsView::exportCsvDialog() {
  if (!rankProfile()) return;
  const QString suggested = QStringLiteral("npuscope-%1-stats.csv").arg(QString::fromLatin1(core::statsLayerKey(m_layer)));
  const QString file = QFileDialog::getSaveFileName(this, tr("Export Statistics"), suggested, tr("CSV files (*.csv)"));
  if (file.isEmpty()) return;
  const QString error = exportCsv(file);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Export Statistics"), error);
}

}  // namespace npuscope::widgets
