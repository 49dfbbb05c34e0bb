// SPDX-License-Identifier: MIT
#include "widgets/timeline/color_palette.h"

#include <QColor>
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
