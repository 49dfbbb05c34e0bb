// SPDX-License-Identifier: MIT
#include "widgets/export/export_dialog.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace npuscope::widgets {

namespace {
using Range = TimelineExportOptions::Range;
using Lanes = TimelineExportOptions::Lanes;

QGroupBox* radioGroup(const QString& title, QButtonGroup* group, const std::vector<std::pair<QString, int>>& items,
                      QWidget* parent) {
  auto* box = new QGroupBox(title, parent);
  auto* layout = new QVBoxLayout(box);
  for (const auto& [text, id] : items) {
    auto* button = new QRadioButton(text, box);
    group->addButton(button, id);
    layout->addWidget(button);
  }
  group->buttons().constFirst()->setChecked(true);
  return box;
}
}  // namespace

ExportDialog::ExportDialog(bool hasTimeSelection, bool hasLaneSelection, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Export Image"));
  auto* layout = new QVBoxLayout(this);
  m_range = new QButtonGroup(this);
  m_lanes = new QButtonGroup(this);
  auto* columns = new QHBoxLayout;
  columns->addWidget(radioGroup(tr("Time range"), m_range,
                                {{tr("Visible range"), static_cast<int>(Range::Visible)},
                                 {tr("Selection (time range, bubble or slice)"), static_cast<int>(Range::Selection)},
                                 {tr("Whole capture"), static_cast<int>(Range::Whole)}},
                                this));
  columns->addWidget(radioGroup(tr("Lanes"), m_lanes,
                                {{tr("Visible lanes"), static_cast<int>(Lanes::Visible)},
                                 {tr("All lanes"), static_cast<int>(Lanes::All)},
                                 {tr("Lanes of the selection"), static_cast<int>(Lanes::Selected)}},
                                this));
  layout->addLayout(columns);
  m_range->button(static_cast<int>(Range::Selection))->setEnabled(hasTimeSelection);
  m_lanes->button(static_cast<int>(Lanes::Selected))->setEnabled(hasLaneSelection);

  auto* form = new QFormLayout;
  m_format = new QComboBox(this);
  m_format->addItem(tr("PNG (raster)"));
  m_format->addItem(tr("SVG (vector)"));
  form->addRow(tr("Format:"), m_format);
  m_scale = new QComboBox(this);
  m_scale->addItem(tr("1x"), 1.0);
  m_scale->addItem(tr("2x (HiDPI, print)"), 2.0);
  form->addRow(tr("Scale:"), m_scale);
  m_caption = new QCheckBox(tr("Caption: profile, rank, time range, verdict"), this);
  form->addRow(QString(), m_caption);
  layout->addLayout(form);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  QPushButton* save = buttons->addButton(tr("Save…"), QDialogButtonBox::AcceptRole);
  QPushButton* copy = buttons->addButton(tr("Copy Image to Clipboard"), QDialogButtonBox::ActionRole);
  save->setDefault(true);
  connect(save, &QPushButton::clicked, this, [this] {
    m_action = Action::Save;
    accept();
  });
  connect(copy, &QPushButton::clicked, this, [this] {
    m_action = Action::Copy;
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
}

TimelineExportOptions ExportDialog::options() const {
  TimelineExportOptions o;
  o.range = static_cast<Range>(m_range->checkedId());
  o.lanes = static_cast<Lanes>(m_lanes->checkedId());
  o.scale = m_scale->currentData().toDouble();
  return o;
}

void ExportDialog::setOptions(const TimelineExportOptions& o) {
  if (QAbstractButton* b = m_range->button(static_cast<int>(o.range)); b && b->isEnabled()) b->setChecked(true);
  if (QAbstractButton* b = m_lanes->button(static_cast<int>(o.lanes)); b && b->isEnabled()) b->setChecked(true);
  m_scale->setCurrentIndex(o.scale > 1.5 ? 1 : 0);
}

bool ExportDialog::svg() const { return m_format->currentIndex() == 1; }
void ExportDialog::setSvg(bool svg) { m_format->setCurrentIndex(svg ? 1 : 0); }
bool ExportDialog::caption() const { return m_caption->isChecked(); }
void ExportDialog::setCaption(bool on) { m_caption->setChecked(on); }

}  // namespace npuscope::widgets
