// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>
#include <QString>
#include <QTimer>
#include <vector>

#include "core/base/types.h"
#include "widgets/timeline/metatypes.h"

class QLabel;
class QLineEdit;
class QToolButton;

namespace npuscope::widgets {

class TimelineWidget;

/// The timeline's find bar (Ctrl+F in the app): a floating bar at the top right of the lane
/// area with a name field, a regex toggle, the match count ("3 / 120") and previous / next
/// buttons. Matching is core::findSlices over every rank (case-insensitive substring, or an
/// ECMAScript regex); all matches are marked on the timeline (setSearchMatches: outlined, the
/// rest dimmed). Enter / Shift+Enter (and the buttons) select the next / previous match in time
/// order across ranks and reveal it (TimelineWidget::revealSlice keeps the zoom if it fits);
/// Esc closes the bar and clears the marks. The query runs 120 ms after the last keystroke.
class SearchBar : public QFrame {
  Q_OBJECT

 public:
  /// A match: rank index and slice, ordered by start time.
  struct Match {
    int rank = -1;
    core::SliceRef ref;
    core::TimeNs start = 0;
  };

  /// Floats over `timeline` (its child), hidden until activate().
  explicit SearchBar(TimelineWidget* timeline);

  /// Shows the bar, focuses and selects the field.
  void activate();
  /// Hides the bar and clears the marks on the timeline.
  void close();

  void setText(const QString& text);
  [[nodiscard]] QString text() const;
  void setRegex(bool on);
  [[nodiscard]] bool isRegex() const;

  /// Runs the pending query now (normally 120 ms after the last edit).
  void runQuery();
  [[nodiscard]] const std::vector<Match>& matches() const { return m_matches; }
  /// Index of the current match in matches(), -1 before the first navigation.
  [[nodiscard]] int currentIndex() const { return m_current; }
  /// The count text ("3 / 120", "– / 120", "No matches").
  [[nodiscard]] QString countText() const;
  /// The regex error of the last query ("" when fine).
  [[nodiscard]] QString errorText() const { return m_error; }

 public slots:
  void next();
  void previous();
  /// Re-runs the query on the timeline's (new) profile, or clears it when hidden.
  void profileChanged();

 signals:
  /// The regex toggle changed (for remembering it).
  void regexToggled(bool on);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void step(int delta);
  void reposition();
  void updateCount();

  TimelineWidget* m_timeline;
  QLineEdit* m_edit = nullptr;
  QToolButton* m_regex = nullptr;
  QLabel* m_count = nullptr;
  QToolButton* m_prev = nullptr;
  QToolButton* m_next = nullptr;
  QToolButton* m_close = nullptr;
  QTimer m_debounce;
  std::vector<Match> m_matches;
  int m_current = -1;
  QString m_error;
};

}  // namespace npuscope::widgets
