// SPDX-License-Identifier: MIT
#pragma once
// A trace built in a test through TraceBuilder (the format-neutral import seam): named processes
// and threads by (pid, tid), then finish() into an immutable core::Trace (REQUIREs success); and
// the advisor finding of one rule.

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>

#include "core/analysis/advisor.h"
#include "core/import/trace_builder.h"
#include "core/model/trace.h"

namespace npuscope::test {

/// Usage: `TraceBuild b; auto cann = b.thread(200, 1, "CANN", "CPU"); b.b.addSlice(cann, ...);
/// auto t = b.finish();`. `process` is the process name, `label` its process_labels ("CPU",
/// "NPU 0"), `threadName` the thread's name (none: the builder's default).
struct TraceBuild {
  core::TraceBuilder b;
  core::TraceBuilder::ThreadId thread(std::int64_t pid, std::int64_t tid, const char* process, const char* label = nullptr,
                                      const char* threadName = nullptr) {
    const auto p = b.process(pid);
    b.setProcessName(p, process);
    if (label) b.setProcessLabels(p, label);
    const auto t = b.thread(p, tid);
    if (threadName) b.setThreadName(t, threadName);
    return t;
  }
  std::shared_ptr<core::Trace> finish() {
    auto t = std::make_shared<core::Trace>();
    REQUIRE(b.finish(*t, {}));
    return t;
  }
};

/// The finding of rule `rule` ("aicpu", ...) in `a`, or null. Points into `a`: keep `a` alive.
inline const core::Finding* find(const core::RankAdvice& a, const std::string& rule) {
  for (const auto& f : a.findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

}  // namespace npuscope::test
