// SPDX-License-Identifier: MIT
#pragma once
// Long names in labels: template-heavy kernels and mangled symbols reach 8 KB - 600 KB
// (../shared/cases/21-extremely-long-names). A label sizes itself to its longest unbreakable
// word, so one such name would widen its dock and the main window (up to 32,767 px).

#include <QLabel>
#include <QSizePolicy>
#include <QString>

namespace npuscope::widgets {

/// Characters a label shows of one name at most (kept at both ends).
inline constexpr qsizetype kMaxLabelChars = 160;

/// `text` when it has at most `maxChars` characters, else its first and last maxChars / 2
/// characters joined by "…" (the full text belongs in a tooltip or the details tree).
[[nodiscard]] inline QString elideMiddle(const QString& text, qsizetype maxChars = kMaxLabelChars) {
  if (text.size() <= maxChars) return text;
  const qsizetype half = maxChars / 2;
  return text.left(half) + QStringLiteral("…") + text.right(half);
}

/// Makes `label` take the width its layout gives it instead of asking for its text's width, so
/// no text can widen the window; a word-wrapped label still grows in height.
inline void neverWiden(QLabel* label) {
  QSizePolicy policy = label->sizePolicy();
  policy.setHorizontalPolicy(QSizePolicy::Ignored);
  label->setSizePolicy(policy);
  label->setMinimumWidth(1);
}

}  // namespace npuscope::widgets
