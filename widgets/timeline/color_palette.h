// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QRgb>
#include <QString>
#include <string_view>

namespace npuscope::widgets {

/// Stable slice colours. A colour is derived from the *text* of a slice name (FNV-1a hash into a
/// precomputed table of muted hues), never from a NameId, so the same name gets the same colour in
/// every rank, every lane and every run. All functions are pure and thread-safe.
class ColorPalette {
 public:
  /// Number of entries of the hue table.
  static constexpr int kTableSize = 48;

  /// 32-bit FNV-1a hash of `text` (bytes as UTF-8).
  [[nodiscard]] static std::uint32_t hashName(std::string_view text);
  /// Fill colour for a slice called `name`.
  [[nodiscard]] static QRgb colorForName(std::string_view name);
  /// Table entry `i` (0 <= i < kTableSize).
  /// The fixed colour of an Overlap Analysis category name ("Computing", "Communication",
  /// "Communication(Not Overlapped)", "Free"), or 0 for any other name.
  [[nodiscard]] static QRgb overlapCategoryColor(std::string_view name);
  [[nodiscard]] static QRgb tableColor(int i);
  /// The colour of flow arrows of category `category` (Trace::flows `cat` text) in the current
  /// chrome (light or dark): the torch_npu / msprof categories HostToDevice, async_npu,
  /// async_task_queue, fwdbwd, MsTx (format notes §2.5) and Kineto's ac2g get fixed Okabe-Ito
  /// colours (distinct under protanopia and deuteranopia; lighter variants on the dark chrome,
  /// where MsTx takes the yellow, since a lightened orange comes too near the lightened
  /// vermillion of fwdbwd); any other category is
  /// the chrome's dim text grey. The flow-arrow menu shows the same colours as its legend.
  [[nodiscard]] static QRgb flowCategoryColor(std::string_view category);
  /// The same for an explicit theme (tests).
  [[nodiscard]] static QRgb flowCategoryColor(std::string_view category, bool dark);
  /// Black or white, whichever reads better on `background`.
  [[nodiscard]] static QRgb textColorOn(QRgb background);
  /// A darker variant of `c` for outlines.
  [[nodiscard]] static QRgb outline(QRgb c);
  /// A lighter variant of `c` for hovered boxes.
  [[nodiscard]] static QRgb hovered(QRgb c);

  /// The chrome colours of one theme (timeline background, headers, grid, text, selection, and
  /// the panels' warning / verdict boxes). Slice colours do not change with the theme; text on a
  /// slice uses textColorOn(slice colour), so it stays readable on both.
  struct Chrome {
    QRgb background, backgroundAlt, headerBackground, rankHeader, processHeader, grid, separator;
    QRgb text, textDim, selection, overlap, flow, counter, searchMatch, highlight;
    QRgb warnText;    ///< a warning's text (Free above its threshold, computed != recorded)
    QRgb warnFill;    ///< a warning cell's background
    QRgb errorText;   ///< an invalid filter, a load error
    QRgb errorFill;   ///< an invalid line edit's background
    QRgb info;        ///< "N shown" and other accents in text
    QRgb verdictWarnFill, verdictWarnEdge, verdictOkFill, verdictOkEdge;  ///< Top-Down verdict box
  };
  /// The light chrome (the k* constants below) or the dark one, as set by setDarkChrome.
  [[nodiscard]] static const Chrome& chrome();
  [[nodiscard]] static const Chrome& lightChrome();
  [[nodiscard]] static const Chrome& darkChrome();
  /// Chooses the chrome every view paints with from now on (app/appearance.cpp calls it when
  /// the theme changes; light by default). Call from the GUI thread only.
  static void setDarkChrome(bool dark);
  [[nodiscard]] static bool isDarkChrome();
  /// "#rrggbb" of `c`, for style sheets and rich text.
  [[nodiscard]] static QString css(QRgb c);

  // Chrome colours of the timeline (light theme; chrome() is what the views use).
  static constexpr QRgb kBackground = 0xffffffff;
  static constexpr QRgb kBackgroundAlt = 0xfff6f7f9;   ///< alternating lane band
  static constexpr QRgb kHeaderBackground = 0xfff3f4f6;
  static constexpr QRgb kRankHeader = 0xffdfe4ec;
  static constexpr QRgb kProcessHeader = 0xffeceff3;
  static constexpr QRgb kGrid = 0xffe3e6ea;
  static constexpr QRgb kSeparator = 0xffd0d4da;
  static constexpr QRgb kText = 0xff1f2329;
  static constexpr QRgb kTextDim = 0xff6b7280;
  static constexpr QRgb kSelection = 0xff1a56db;       ///< selected slice outline, time selection
  static constexpr QRgb kOverlap = 0xffd92d20;         ///< kSlicePartialOverlap outline
  static constexpr QRgb kFlow = 0xff3b3f46;
  static constexpr QRgb kCounter = 0xff4a7fb8;
  static constexpr QRgb kSearchMatch = 0xffd97706;     ///< search match outline (amber)
  static constexpr QRgb kHighlight = 0xffc026d3;       ///< Statistics-view highlight (magenta)
};

}  // namespace npuscope::widgets
