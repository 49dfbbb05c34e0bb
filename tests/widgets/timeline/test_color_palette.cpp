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
