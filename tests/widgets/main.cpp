// SPDX-License-Identifier: MIT
// Catch2 session main for the widgets tests: creates the QApplication (offscreen by default).
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char** argv) {
  if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  QApplication app(argc, argv);
  return Catch::Session().run(argc, argv);
}
