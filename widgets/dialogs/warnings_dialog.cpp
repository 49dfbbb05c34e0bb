// SPDX-License-Identifier: MIT
#include "widgets/dialogs/warnings_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/model/import_stats.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/lane_layout.h"

namespace npuscope::widgets {

namespace {
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
}  // namespace

WarningsDialog::WarningsDialog(std::shared_ptr<const core::Profile> profile, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Import warnings"));
  m_tree = new QTreeWidget(this);
  m_tree->setColumnCount(3);
  m_tree->setHeaderLabels({tr("Warning"), tr("Count"), tr("Kind")});
  m_tree->setAlternatingRowColors(true);
  m_tree->setUniformRowHeights(true);
  auto* summary = new QLabel(this);
  summary->setWordWrap(true);

  const QColor warnColor(0xb4, 0x53, 0x09);
  if (profile) {
    for (std::size_t r = 0; r < profile->ranks.size(); ++r) {
      const core::RankProfile& rp = profile->ranks[r];
      auto* rankItem = new QTreeWidgetItem(m_tree);
      QFont bold = rankItem->font(0);
      bold.setBold(true);
      rankItem->setFont(0, bold);
      rankItem->setText(0, rankLabel(rp));
      std::uint64_t rankTotal = 0;
      if (!rp.error.empty()) {
        auto* it = new QTreeWidgetItem(rankItem);
        it->setText(0, tr("load error: %1").arg(qs(rp.error)));
        it->setForeground(0, QColor::fromRgb(ColorPalette::chrome().errorText));
      }
      if (rp.trace) {
        const core::ImportStats& st = rp.trace->stats;
        for (std::size_t k = 0; k < core::ImportStats::kKinds; ++k) {
          const auto kind = static_cast<core::ImportWarning>(k);
          const std::uint64_t n = st.count(kind);
          if (n == 0) continue;
          // Informational kinds (minor overlaps, communication tasks at once) are listed, dimmed,
          // and left out of the totals, which then equal the status bar's (issue 42 item 4).
          const bool info = core::ImportStats::informational(kind);
          if (info) m_informational += n;
          else rankTotal += n;
          auto* it = new QTreeWidgetItem(rankItem);
          it->setText(0, qs(core::warningLabel(kind)));
          it->setText(1, QString::number(n));
          it->setText(2, info ? tr("%1 (informational)").arg(qs(core::warningKey(kind))) : qs(core::warningKey(kind)));
          it->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
          if (info) {
            for (int c = 0; c < 3; ++c) it->setForeground(c, QColor::fromRgb(ColorPalette::chrome().textDim));
          } else {
            it->setForeground(0, warnColor);
          }
          for (const auto& [w, example] : st.examples) {
            if (w != kind) continue;
            auto* ex = new QTreeWidgetItem(it);
            ex->setText(0, qs(example));
            ex->setToolTip(0, qs(example));
          }
        }
        for (const std::string& note : rp.trace->notes) {
          auto* it = new QTreeWidgetItem(rankItem);
          it->setText(0, tr("note: %1").arg(qs(note)));
        }
      }
      // Problems reading the rank's CSV files (kernel_details.csv, step_trace_time.csv).
      for (const std::string& m : rp.tableMessages) {
        ++rankTotal;
        auto* it = new QTreeWidgetItem(rankItem);
        it->setText(0, qs(m));
        it->setToolTip(0, qs(m));
        it->setText(1, QStringLiteral("1"));
        it->setText(2, tr("table"));
        it->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        it->setForeground(0, warnColor);
      }
      rankItem->setText(1, QString::number(rankTotal));
      rankItem->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
      rankItem->setExpanded(true);
      m_total += rankTotal;
    }
    if (!profile->messages.empty()) {
      auto* msgs = new QTreeWidgetItem(m_tree);
      msgs->setText(0, tr("Profile messages"));
      for (const std::string& m : profile->messages) {
        auto* it = new QTreeWidgetItem(msgs);
        it->setText(0, qs(m));
        it->setToolTip(0, qs(m));
      }
      msgs->setExpanded(true);
    }
  }
  QString text = m_total == 0 ? tr("No import warnings: every event was read as written.")
                              : tr("%1 event(s) or table problem(s) were skipped, repaired or flagged "
                                   "while importing. The rest of the profile loaded normally.")
                                    .arg(m_total);
  if (m_informational > 0)
    text += QStringLiteral(" ") + tr("%1 more are informational (listed dimmed, not counted): overlaps under 1 us from the "
                                     "device clock's rounding and communication tasks running at once.")
                                      .arg(m_informational);
  summary->setText(text);
  m_tree->header()->setStretchLastSection(false);
  m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  m_tree->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* lay = new QVBoxLayout(this);
  lay->addWidget(summary);
  lay->addWidget(m_tree);
  lay->addWidget(buttons);
  resize(760, 480);
}

}  // namespace npuscope::widgets
