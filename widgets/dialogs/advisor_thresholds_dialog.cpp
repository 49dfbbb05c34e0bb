// SPDX-License-Identifier: MIT
#include "widgets/dialogs/advisor_thresholds_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace npuscope::widgets {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString qs(const char* s) { return QString::fromUtf8(s); }

QTableWidgetItem* readOnly(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(item->flags() & ~Qt::ItemIsEditable);
  item->setToolTip(text);
  return item;
}

int decimalsOf(const core::ThresholdField& f) { return f.integer ? 0 : 3; }

QString settingsKey(const char* key) { return QStringLiteral("advisor/") + QString::fromLatin1(key); }

}  // namespace

AdvisorThresholdsDialog::AdvisorThresholdsDialog(const core::AdvisorThresholds& current, const QString& captureChip,
                                                 QWidget* parent)
    : QDialog(parent), m_base(current) {
  setWindowTitle(tr("Advisor Thresholds"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(tr("The marks of the advisor's rules (docs/diagnosis.md §6). Edited values are kept "
                              "between sessions and the advice is recomputed at once."),
                           this);
  intro->setWordWrap(true);
  layout->addWidget(intro);

  const auto& fields = core::advisorThresholdFields();
  const core::AdvisorThresholds defaults;
  m_fields = new QTableWidget(static_cast<int>(fields.size()), 5, this);
  m_fields->setHorizontalHeaderLabels({tr("Threshold"), tr("Value"), tr("Default"), tr("Unit"), tr("Source")});
  m_fields->verticalHeader()->hide();
  m_fields->setSelectionMode(QAbstractItemView::NoSelection);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const core::ThresholdField& f = fields[i];
    const int row = static_cast<int>(i);
    auto* name = readOnly(qs(f.label));
    name->setToolTip(qs(f.label) + QStringLiteral("\n") + tr("key: %1").arg(qs(f.key)));
    m_fields->setItem(row, 0, name);
    auto* spin = new QDoubleSpinBox(m_fields);
    spin->setDecimals(decimalsOf(f));
    spin->setRange(f.min, f.max);
    spin->setSingleStep(f.integer ? 1.0 : (f.max <= 1 ? 0.05 : 1.0));
    spin->setValue(core::thresholdValue(current, f.key).value_or(0));
    spin->setObjectName(qs(f.key));
    m_fields->setCellWidget(row, 1, spin);
    m_editors.push_back(spin);
    m_fields->setItem(row, 2, readOnly(QString::number(core::thresholdValue(defaults, f.key).value_or(0), 'g', 6)));
    m_fields->setItem(row, 3, readOnly(qs(f.unit)));
    m_fields->setItem(row, 4, readOnly(qs(f.source)));
  }
  m_fields->resizeColumnsToContents();
  m_fields->setColumnWidth(0, std::min(m_fields->columnWidth(0), 380));
  m_fields->setColumnWidth(1, std::max(m_fields->columnWidth(1), 110));
  m_fields->horizontalHeader()->setStretchLastSection(true);
  layout->addWidget(m_fields, 3);

  // The chip: the capture's own when it records one, else one of the table's.
  auto* form = new QFormLayout;
  m_chip = new QComboBox(this);
  m_chip->setEditable(true);
  m_chip->addItem(captureChip.isEmpty() ? tr("(not recorded by the capture: unknown)")
                                        : tr("(from the capture: %1)").arg(captureChip),
                  QString());
  QStringList chips;
  for (const auto& c : current.cores) chips << qs(c.chip);
  for (const auto& p : current.peaks)
    if (!chips.contains(qs(p.chip))) chips << qs(p.chip);
  for (const QString& c : chips) m_chip->addItem(c, c);
  if (current.chip.empty()) {
    m_chip->setCurrentIndex(0);
  } else {
    const int at = m_chip->findData(qs(current.chip));
    if (at >= 0) m_chip->setCurrentIndex(at);
    else m_chip->setEditText(qs(current.chip));
  }
  m_chip->setToolTip(tr("The chip for the TFLOPS utilisation and block-dim rules, when the capture does not "
                        "record it (the torch_npu text export does not). A name matches the tables below by prefix."));
  form->addRow(tr("Chip:"), m_chip);
  layout->addLayout(form);

  // The peak and core tables, read-only with their sources.
  auto* peaksTitle = new QLabel(tr("Peak TFLOPS (dense, cube) and core counts, read-only:"), this);
  layout->addWidget(peaksTitle);
  m_peaks = new QTableWidget(static_cast<int>(current.peaks.size() + current.cores.size()), 4, this);
  m_peaks->setHorizontalHeaderLabels({tr("Chip"), tr("What"), tr("Value"), tr("Source")});
  m_peaks->verticalHeader()->hide();
  m_peaks->setEditTriggers(QAbstractItemView::NoEditTriggers);
  int row = 0;
  for (const auto& p : current.peaks) {
    m_peaks->setItem(row, 0, readOnly(qs(p.chip)));
    m_peaks->setItem(row, 1, readOnly(tr("%1 peak").arg(qs(p.dtype))));
    m_peaks->setItem(row, 2, readOnly(tr("%1 TFLOPS").arg(p.tflops)));
    m_peaks->setItem(row, 3, readOnly(qs(p.source)));
    ++row;
  }
  for (const auto& c : current.cores) {
    m_peaks->setItem(row, 0, readOnly(qs(c.chip)));
    m_peaks->setItem(row, 1, readOnly(tr("cores (cube / vector)")));
    m_peaks->setItem(row, 2, readOnly(QStringLiteral("%1 / %2").arg(c.cube).arg(c.vector)));
    m_peaks->setItem(row, 3, readOnly(qs(c.source)));
    ++row;
  }
  m_peaks->resizeColumnsToContents();
  m_peaks->horizontalHeader()->setStretchLastSection(true);
  layout->addWidget(m_peaks, 2);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel |
                                           QDialogButtonBox::RestoreDefaults,
                                       this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
          &AdvisorThresholdsDialog::restoreDefaults);
  layout->addWidget(buttons);
  resize(1100, 680);
}

core::AdvisorThresholds AdvisorThresholdsDialog::thresholds() const {
  core::AdvisorThresholds t = m_base;
  const auto& fields = core::advisorThresholdFields();
  for (std::size_t i = 0; i < fields.size(); ++i)
    (void)core::setThreshold(t, fields[i].key, m_editors[i]->value());  // the spin box keeps it in range
  const QVariant data = m_chip->currentData();
  // An item of the list carries its chip (the first: "" = the capture's); typed text is taken as is.
  if (m_chip->currentIndex() >= 0 && m_chip->itemText(m_chip->currentIndex()) == m_chip->currentText())
    t.chip = data.toString().toStdString();
  else
    t.chip = m_chip->currentText().trimmed().toStdString();
  return t;
}

void AdvisorThresholdsDialog::restoreDefaults() {
  const core::AdvisorThresholds defaults;
  const auto& fields = core::advisorThresholdFields();
  for (std::size_t i = 0; i < fields.size(); ++i)
    m_editors[i]->setValue(core::thresholdValue(defaults, fields[i].key).value_or(0));
  m_chip->setCurrentIndex(0);
}

QDoubleSpinBox* AdvisorThresholdsDialog::editor(const char* key) const {
  const auto& fields = core::advisorThresholdFields();
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (std::string_view(fields[i].key) == key) return m_editors[i];
  return nullptr;
}

core::AdvisorThresholds loadAdvisorThresholds(QSettings& settings) {
  core::AdvisorThresholds t;
  for (const core::ThresholdField& f : core::advisorThresholdFields()) {
    const QVariant v = settings.value(settingsKey(f.key));
    if (!v.isValid()) continue;
    bool ok = false;
    const double d = v.toDouble(&ok);
    if (ok) (void)core::setThreshold(t, f.key, d);  // a bad saved value keeps the default
  }
  t.chip = settings.value(QStringLiteral("advisor/chip")).toString().toStdString();
  return t;
}

void saveAdvisorThresholds(QSettings& settings, const core::AdvisorThresholds& t) {
  const core::AdvisorThresholds defaults;
  for (const core::ThresholdField& f : core::advisorThresholdFields()) {
    const double v = core::thresholdValue(t, f.key).value_or(0);
    if (v == core::thresholdValue(defaults, f.key).value_or(0)) settings.remove(settingsKey(f.key));
    else settings.setValue(settingsKey(f.key), v);
  }
  if (t.chip.empty()) settings.remove(QStringLiteral("advisor/chip"));
  else settings.setValue(QStringLiteral("advisor/chip"), qs(t.chip));
}

}  // namespace npuscope::widgets
