// SPDX-License-Identifier: MIT
// Catch2's implementation, compiled once for the three test programs (each has its own main:
// core/main.cpp, widgets/main.cpp, app/app_test_main.cpp, which call runCatchSession). It was
// compiled in each main before, about 25 s of a 2-core CI machine's time apiece (issue 26 item 1:
// the CI budget). catch.hpp declares Catch::Session only where the implementation is compiled.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "tests/catch_session.h"

int runCatchSession(int argc, char** argv) { return Catch::Session().run(argc, argv); }
