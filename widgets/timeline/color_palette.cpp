// SPDX-License-Identifier: MIT
#include "widgets/timeline/color_palette.h"

#include <array>
#include <cmath>

namespace npuscope::widgets {

namespace {

// Built once: hues spread by the golden angle, with three lightness/saturation tiers so that
// neighbouring hues still differ. Muted (HSL saturation ~0.45-0.6), readable with dark text.
std::array<QRgb, ColorPalette::kTableSize> buildTable() {
  std::array<QRgb, ColorPalette::kTableSize> t{};
  constexpr double kGolden = 137.50776405;
  constexpr double kSat[3] = {0.55, 0.45, 0.62};
  constexpr double kLight[3] = {0.68, 0.60, 0.76};
  for (int i = 0; i < ColorPalette::kTableSize; ++i) {
    const double hue = std::fmod(20.0 + i * kGolden, 360.0);
    QColor c = QColor::fromHslF(static_cast<float>(hue / 360.0), static_cast<float>(kSat[i % 3]),
                                static_cast<float>(kLight[i % 3]));
    // Blues and purples are dark at equal HSL lightness: lift them until dark label text reads
    // well (perceived luminance >= 150 of 255), so every box uses the same dark text colour.
    for (int k = 0; k < 20; ++k) {
      const double lum = 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
      if (lum >= 152) break;
      c = QColor::fromHslF(c.hslHueF(), c.hslSaturationF(), std::min(0.92f, c.lightnessF() + 0.02f));
    }
    t[static_cast<std::size_t>(i)] = c.rgb();
  }
  return t;
}

const std::array<QRgb, ColorPalette::kTableSize>& table() {
  static const auto t = buildTable();
  return t;
}

}  // namespace

std::uint32_t ColorPalette::hashName(std::string_view text) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : text) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

QRgb ColorPalette::colorForName(std::string_view name) {
  // The Overlap Analysis categories get fixed colours from the Okabe-Ito palette (distinct under
  // the common colour-vision deficiencies and in greyscale print), the same in the lanes, the
  // Top-Down bar and its legend: the name hash gave Communication(Not Overlapped) and Free two
  // near-identical pinks.
  if (const QRgb fixed = overlapCategoryColor(name)) return fixed;
  const std::uint32_t h = hashName(name);
  return table()[(h ^ (h >> 16)) % kTableSize];
}

QRgb ColorPalette::overlapCategoryColor(std::string_view name) {
  if (name == "Computing") return 0xff0072b2;                      // blue
  if (name == "Communication") return 0xffe69f00;                  // orange
  if (name == "Communication(Not Overlapped)") return 0xffd55e00;  // vermillion
  if (name == "Free") return 0xffd0d0d0;                           // light grey: the device does nothing
  return 0;
}

QRgb ColorPalette::flowCategoryColor(std::string_view category) { return flowCategoryColor(category, isDarkChrome()); }

QRgb ColorPalette::flowCategoryColor(std::string_view category, bool dark) {
  struct Entry {
    std::string_view category;
    QRgb light, dark;
  };
  // Okabe & Ito (2008), "Color Universal Design": bluish green, reddish purple, sky blue,
  // vermillion, orange (dark: yellow), blue. Light: the palette as published; dark: lightened so
  // that each line keeps a contrast of at least 5:1 on the dark background.
  static constexpr Entry kTable[] = {
      {"HostToDevice", 0xff009e73, 0xff3fc99b},     {"async_npu", 0xffcc79a7, 0xffe39ccb},
      {"async_task_queue", 0xff56b4e9, 0xff7cc8f2}, {"fwdbwd", 0xffd55e00, 0xffff8a3d},
      {"MsTx", 0xffe69f00, 0xfff0e442},             {"ac2g", 0xff0072b2, 0xff5b8ff9},
  };
  for (const Entry& e : kTable)
    if (e.category == category) return dark ? e.dark : e.light;
  return dark ? darkChrome().textDim : lightChrome().textDim;
}

QRgb ColorPalette::tableColor(int i) { return table()[static_cast<std::size_t>(i % kTableSize)]; }

QRgb ColorPalette::textColorOn(QRgb bg) {
  const double lum = 0.299 * qRed(bg) + 0.587 * qGreen(bg) + 0.114 * qBlue(bg);
  return lum > 150 ? 0xff16181d : 0xffffffff;
}

QRgb ColorPalette::outline(QRgb c) { return QColor(c).darker(150).rgb(); }

QRgb ColorPalette::hovered(QRgb c) { return QColor(c).lighter(112).rgb(); }

namespace {
bool g_darkChrome = false;
}  // namespace

const ColorPalette::Chrome& ColorPalette::lightChrome() {
  static const Chrome c{kBackground, kBackgroundAlt, kHeaderBackground, kRankHeader, kProcessHeader, kGrid, kSeparator,
                        kText, kTextDim, kSelection, kOverlap, kFlow, kCounter, kSearchMatch, kHighlight,
                        /*warnText*/ 0xffb42318, /*warnFill*/ 0xfffde7e4, /*errorText*/ 0xffd92d20,
                        /*errorFill*/ 0xfffef3f2, /*info*/ 0xff1a56db,
                        /*verdict*/ 0xfffff7ed, 0xffea580c, 0xfff0fdf4, 0xff16a34a};
  return c;
}

const ColorPalette::Chrome& ColorPalette::darkChrome() {
  // Neutral dark greys (the Fusion dark palette of app/appearance.cpp), lighter accents so that
  // lines and text keep their contrast on them.
  static const Chrome c{0xff1e1f22, 0xff25272b, 0xff2b2d31, 0xff3a3f4b, 0xff30343b, 0xff34373c, 0xff4a4e55,
                        0xffe3e5e8, 0xff9aa0a8, 0xff5b9bff, 0xffff6b5e, 0xffd0d4da, 0xff6fa8e6, 0xfff59e0b,
                        0xffe879f9,
                        /*warnText*/ 0xffff8a80, /*warnFill*/ 0xff4a2421, /*errorText*/ 0xffff7b72,
                        /*errorFill*/ 0xff4a2421, /*info*/ 0xff7aa7ff,
                        /*verdict*/ 0xff3a2a1c, 0xfffb923c, 0xff1b3326, 0xff4ade80};
  return c;
}

const ColorPalette::Chrome& ColorPalette::chrome() { return g_darkChrome ? darkChrome() : lightChrome(); }
void ColorPalette::setDarkChrome(bool dark) { g_darkChrome = dark; }
bool ColorPalette::isDarkChrome() { return g_darkChrome; }
QString ColorPalette::css(QRgb c) { return QColor::fromRgb(c).name(QColor::HexRgb); }

}  // namespace npuscope::widgets
