// SPDX-License-Identifier: MIT
// Main of the core tests (Catch2 itself: tests/catch_impl.cpp).
#include "tests/catch_session.h"

int main(int argc, char** argv) { return runCatchSession(argc, argv); }
