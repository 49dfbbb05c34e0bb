// SPDX-License-Identifier: MIT
#pragma once

/// Runs the Catch2 session over the command line `argc` / `argv` (test filters, reporters) and
/// returns its exit status: the number of failed test cases, capped at 255 by Catch2. Defined in
/// tests/catch_impl.cpp, the one place Catch2's implementation is compiled.
int runCatchSession(int argc, char** argv);
