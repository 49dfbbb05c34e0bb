// SPDX-License-Identifier: MIT
// Catch2 session main for the widgets tests: creates the QApplication (offscreen by default).
// Catch2 itself: tests/catch_impl.cpp.
#include <QApplication>
#include "tests/catch_session.h"
#include <cstdlib>

int main(int argc, char** argv) {
  if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  QApplication app(argc, argv);
  return runCatchSession(argc, argv);
}
