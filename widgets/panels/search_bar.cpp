// SPDX-License-Identifier: MIT
#include "widgets/panels/search_bar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QToolButton>
#include <algorithm>

#include "core/analysis/stats.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

namespace npuscope::widgets {

namespace {

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setText(text);
  b->setToolTip(tip);
  b->setAutoRaise(true);
  b->setFocusPolicy(Qt::NoFocus);
  return b;
}

}  // namespace

SearchBar::SearchBar(TimelineWidget* timeline) : QFrame(timeline), m_timeline(timeline) {
  setObjectName(QStringLiteral("SearchBar"));
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  setStyleSheet(QStringLiteral(
      "#SearchBar { background: palette(base); border: 1px solid palette(mid); border-radius: 5px; }"
      "#SearchBar QLineEdit { border: 1px solid palette(mid); border-radius: 3px; padding: 2px 4px; }"
      "#SearchBar QLineEdit[invalid=\"true\"] { border-color: %1; background: %2; }")
                    .arg(ColorPalette::css(ColorPalette::chrome().errorText),
                         ColorPalette::css(ColorPalette::chrome().errorFill)));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(6, 4, 4, 4);
  row->setSpacing(3);
  m_edit = new QLineEdit(this);
  m_edit->setPlaceholderText(tr("Find slices by name"));
  m_edit->setClearButtonEnabled(true);
  m_edit->setMinimumWidth(240);
  m_regex = toolButton(QStringLiteral(".*"), tr("Regular expression (ECMAScript)"), this);
  m_regex->setCheckable(true);
  m_count = new QLabel(this);
  m_count->setMinimumWidth(92);
  m_count->setAlignment(Qt::AlignCenter);
  m_count->setForegroundRole(QPalette::PlaceholderText);
  m_prev = toolButton(QStringLiteral("\u2191"), tr("Previous match (Shift+Enter)"), this);
  m_next = toolButton(QStringLiteral("\u2193"), tr("Next match (Enter)"), this);
  m_close = toolButton(QStringLiteral("\u2715"), tr("Close (Esc)"), this);
  row->addWidget(m_edit, 1);
  row->addWidget(m_regex);
  row->addWidget(m_count);
  row->addWidget(m_prev);
  row->addWidget(m_next);
  row->addWidget(m_close);

  m_debounce.setSingleShot(true);
  m_debounce.setInterval(120);
  connect(&m_debounce, &QTimer::timeout, this, &SearchBar::runQuery);
  connect(m_edit, &QLineEdit::textChanged, this, [this] { m_debounce.start(); });
  connect(m_regex, &QToolButton::toggled, this, [this](bool on) {
    runQuery();
    emit regexToggled(on);
  });
  connect(m_prev, &QToolButton::clicked, this, &SearchBar::previous);
  connect(m_next, &QToolButton::clicked, this, &SearchBar::next);
  connect(m_close, &QToolButton::clicked, this, &SearchBar::close);
  m_edit->installEventFilter(this);
  timeline->installEventFilter(this);
  hide();
  updateCount();
}

void SearchBar::activate() {
  show();
  raise();
  reposition();
  m_edit->setFocus(Qt::ShortcutFocusReason);
  m_edit->selectAll();
  if (!m_edit->text().isEmpty()) runQuery();
}

void SearchBar::close() {
  m_debounce.stop();
  hide();
  m_matches.clear();
  m_current = -1;
  m_timeline->clearSearchMatches();
  m_timeline->setFocus(Qt::OtherFocusReason);
}

void SearchBar::setText(const QString& text) { m_edit->setText(text); }
QString SearchBar::text() const { return m_edit->text(); }
void SearchBar::setRegex(bool on) { m_regex->setChecked(on); }
bool SearchBar::isRegex() const { return m_regex->isChecked(); }

void SearchBar::runQuery() {
  m_debounce.stop();
  m_matches.clear();
  m_current = -1;
  m_error.clear();
  m_timeline->clearSearchMatches();
  const auto profile = m_timeline->profile();
  const QString text = m_edit->text();
  if (profile && !text.isEmpty()) {
    core::NameQuery q;
    q.text = text.toStdString();
    q.regex = m_regex->isChecked();
    for (std::size_t r = 0; r < profile->ranks.size(); ++r) {
      const auto& trace = profile->ranks[r].trace;
      if (!trace) continue;
      std::string error;
      std::vector<bool> names = core::matchingNames(*trace, q, &error);
      if (!error.empty()) {
        m_error = QString::fromStdString(error);
        break;
      }
      const std::vector<core::SliceRef> found = core::findSlices(*trace, q);
      m_matches.reserve(m_matches.size() + found.size());
      for (const core::SliceRef& ref : found)
        m_matches.push_back({static_cast<int>(r), ref, trace->lanes[ref.lane].start[ref.index]});
      m_timeline->setSearchMatches(static_cast<int>(r), std::move(names));
    }
    if (!m_error.isEmpty()) {
      m_matches.clear();
      m_timeline->clearSearchMatches();
    }
    // Each rank's list is sorted by start; merge the ranks (stable: rank order breaks ties).
    std::stable_sort(m_matches.begin(), m_matches.end(),
                     [](const Match& a, const Match& b) { return a.start < b.start; });
  }
  m_edit->setProperty("invalid", !m_error.isEmpty());
  m_edit->style()->unpolish(m_edit);
  m_edit->style()->polish(m_edit);
  m_edit->setToolTip(m_error);
  updateCount();
}

QString SearchBar::countText() const {
  if (!m_error.isEmpty()) return tr("Invalid regex");
  if (m_edit->text().isEmpty()) return {};
  if (m_matches.empty()) return tr("No matches");
  const QString total = QString::number(m_matches.size());
  return (m_current < 0 ? QStringLiteral("\u2013") : QString::number(m_current + 1)) + QStringLiteral(" / ") + total;
}

void SearchBar::updateCount() {
  m_count->setText(countText());
  m_count->setStyleSheet(m_error.isEmpty() ? QString()
                                           : QStringLiteral("color: %1;").arg(ColorPalette::css(ColorPalette::chrome().errorText)));
  m_prev->setEnabled(!m_matches.empty());
  m_next->setEnabled(!m_matches.empty());
}

void SearchBar::next() { step(1); }
void SearchBar::previous() { step(-1); }

void SearchBar::step(int delta) {
  if (m_debounce.isActive()) runQuery();
  if (m_matches.empty()) return;
  const int n = static_cast<int>(m_matches.size());
  if (m_current < 0) {
    // Start from the selected slice when it is a match, else from the view start.
    const core::TimeNs from = m_timeline->viewport() ? m_timeline->viewport()->visibleRange().start : 0;
    auto it = std::lower_bound(m_matches.begin(), m_matches.end(), from,
                               [](const Match& m, core::TimeNs t) { return m.start < t; });
    int i = static_cast<int>(it - m_matches.begin());
    if (delta < 0) --i;
    m_current = ((i % n) + n) % n;
  } else {
    m_current = ((m_current + delta) % n + n) % n;
  }
  const Match& m = m_matches[static_cast<std::size_t>(m_current)];
  m_timeline->revealSlice(m.rank, m.ref);
  updateCount();
}

void SearchBar::profileChanged() {
  if (isVisible() && !m_edit->text().isEmpty())
    runQuery();
  else {
    m_matches.clear();
    m_current = -1;
    updateCount();
  }
}

bool SearchBar::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_timeline && (event->type() == QEvent::Resize || event->type() == QEvent::Show)) {
    reposition();
  } else if (watched == m_edit && event->type() == QEvent::KeyPress) {
    auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
      if (key->modifiers() & Qt::ShiftModifier)
        previous();
      else
        next();
      return true;
    }
    if (key->key() == Qt::Key_Escape) {
      close();
      return true;
    }
  }
  return QFrame::eventFilter(watched, event);
}

void SearchBar::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape) {
    close();
    return;
  }
  QFrame::keyPressEvent(event);
}

void SearchBar::reposition() {
  adjustSize();
  const int w = std::min(std::max(sizeHint().width(), 460), std::max(200, m_timeline->width() - 40));
  resize(w, sizeHint().height());
  move(m_timeline->width() - w - 24, m_timeline->rulerHeight() + 6);
}

}  // namespace npuscope::widgets
