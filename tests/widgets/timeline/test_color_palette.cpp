// SPDX-License-Identifier: MIT
#include "widgets/timeline/color_palette.h"

#include <QColor>
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>
#include <catch2/catch.hpp>
#include <set>
#include <string>

using npuscope::widgets::ColorPalette;

TEST_CASE("colours depend on the name text only and are stable", "[palette]") {
  CHECK(ColorPalette::colorForName("aclnnMatmul") == ColorPalette::colorForName(std::string("aclnnMatmul")));
  // FNV-1a reference values: the hash (and so the colour) never changes between runs.
  CHECK(ColorPalette::hashName("") == 2166136261u);
  CHECK(ColorPalette::hashName("a") == 0xe40c292cu);
  std::set<QRgb> colours;
  for (int i = 0; i < 200; ++i) colours.insert(ColorPalette::colorForName("op_" + std::to_string(i)));
  CHECK(colours.size() >= ColorPalette::kTableSize * 3 / 4);  // names spread over the table
}

TEST_CASE("palette entries are muted and labels readable", "[palette]") {
  for (int i = 0; i < ColorPalette::kTableSize; ++i) {
    const QColor c = QColor::fromRgb(ColorPalette::tableColor(i));
    CHECK(c.hslSaturationF() <= 0.7f);
    CHECK(c.lightnessF() >= 0.5f);
    CHECK(ColorPalette::textColorOn(c.rgb()) == 0xff16181du);  // dark text on light boxes
  }
  CHECK(ColorPalette::textColorOn(0xff000000u) == 0xffffffffu);
}

TEST_CASE("the four overlap categories have fixed, clearly different colours", "[palette]") {
  using npuscope::widgets::ColorPalette;
  const QRgb c[] = {ColorPalette::colorForName("Computing"), ColorPalette::colorForName("Communication"),
                    ColorPalette::colorForName("Communication(Not Overlapped)"), ColorPalette::colorForName("Free")};
  // Okabe-Ito blue, orange, vermillion and a grey.
  CHECK(c[0] == 0xff0072b2u);
  CHECK(c[3] == 0xffd0d0d0u);
  // Pairwise: far apart in RGB and in luminance order for greyscale print (no two within 20 of
  // 255 in luma, except Communication vs Not Overlapped, told apart by hue: 0xe69f00 vs 0xd55e00).
  auto luma = [](QRgb x) { return 0.299 * qRed(x) + 0.587 * qGreen(x) + 0.114 * qBlue(x); };
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      const int d = std::abs(qRed(c[i]) - qRed(c[j])) + std::abs(qGreen(c[i]) - qGreen(c[j])) + std::abs(qBlue(c[i]) - qBlue(c[j]));
      INFO(i << " vs " << j);
      CHECK(d >= 80);
      if (!(i == 1 && j == 2)) CHECK(std::abs(luma(c[i]) - luma(c[j])) >= 20);
    }
}

namespace {

// sRGB <-> linear, and the Vienot, Brettel & Mollon (1999) protanope / deuteranope projections in
// linear RGB: a second route to "distinct under colour blindness", independent of the table.
double toLinear(int v) {
  const double c = v / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double toSrgb255(double v) {
  v = std::clamp(v, 0.0, 1.0);
  return 255.0 * (v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1 / 2.4) - 0.055);
}
std::array<double, 3> simulate(QRgb c, const double (*m)[3]) {
  const double l[3] = {toLinear(qRed(c)), toLinear(qGreen(c)), toLinear(qBlue(c))};
  std::array<double, 3> out{};
  for (int i = 0; i < 3; ++i) out[static_cast<std::size_t>(i)] = toSrgb255(m[i][0] * l[0] + m[i][1] * l[1] + m[i][2] * l[2]);
  return out;
}
double relLuminance(QRgb c) { return 0.2126 * toLinear(qRed(c)) + 0.7152 * toLinear(qGreen(c)) + 0.0722 * toLinear(qBlue(c)); }
double contrastRatio(QRgb a, QRgb b) {
  const double la = relLuminance(a), lb = relLuminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace

TEST_CASE("flow categories have fixed colours, distinct under colour blindness, in both themes", "[palette]") {
  static const double kIdentity[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  static const double kProtan[3][3] = {{0.11238, 0.88762, 0}, {0.11238, 0.88762, 0}, {0.00401, -0.00401, 1}};
  static const double kDeutan[3][3] = {{0.29275, 0.70725, 0}, {0.29275, 0.70725, 0}, {-0.02234, 0.02234, 1}};
  const std::vector<std::string> cats{"HostToDevice", "async_npu", "async_task_queue", "fwdbwd", "MsTx", "ac2g"};
  for (const bool dark : {false, true}) {
    INFO("dark " << dark);
    const QRgb bg = dark ? ColorPalette::darkChrome().background : ColorPalette::lightChrome().background;
    std::set<QRgb> distinct;
    for (const std::string& c : cats) {
      INFO(c);
      const QRgb col = ColorPalette::flowCategoryColor(c, dark);
      distinct.insert(col);
      // A thin line needs contrast with the lane background: the measured minimum of the table is
      // 2.25 (orange on white, as published by Okabe-Ito) and 5.29 on the dark background.
      CHECK(contrastRatio(col, bg) >= (dark ? 5.0 : 2.2));
    }
    CHECK(distinct.size() == cats.size());
    // Pairwise distance in sRGB 0..255 after each simulation: the table's measured minima are 66
    // (normal), 38 (protanope) and 42 (deuteranope); 35 leaves no pair that looks the same.
    for (const auto* m : {kIdentity, kProtan, kDeutan}) {
      for (std::size_t i = 0; i < cats.size(); ++i)
        for (std::size_t j = i + 1; j < cats.size(); ++j) {
          INFO(cats[i] << " vs " << cats[j]);
          const auto a = simulate(ColorPalette::flowCategoryColor(cats[i], dark), m);
          const auto b = simulate(ColorPalette::flowCategoryColor(cats[j], dark), m);
          CHECK(std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) >= 35.0);
        }
    }
    // An unknown category is the dim grey, not one of the fixed colours.
    CHECK(distinct.count(ColorPalette::flowCategoryColor("my_custom_flow", dark)) == 0);
  }
  // The one-argument form follows the chrome.
  ColorPalette::setDarkChrome(true);
  CHECK(ColorPalette::flowCategoryColor("fwdbwd") == ColorPalette::flowCategoryColor("fwdbwd", true));
  ColorPalette::setDarkChrome(false);
  CHECK(ColorPalette::flowCategoryColor("fwdbwd") == ColorPalette::flowCategoryColor("fwdbwd", false));
}
