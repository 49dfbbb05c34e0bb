// SPDX-License-Identifier: MIT
#pragma once
// Exception boundaries (issue 15, item 1). core never throws out of its API, but the standard
// library can still throw inside it (std::bad_alloc on a resource bomb, std::length_error, a
// std::filesystem or std::regex error missed by a review). An exception that leaves a thread
// function calls std::terminate, and one that leaves main aborts the process: every thread body
// runs under an ExceptionSlot, and every API entry point (loadTrace, discoverProfile,
// loadProfile) and command (the CLI, the GUI's loader task) turns the exception into a message.

#include <exception>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace npuscope::core {

/// A sentence for the user about exception `e` caught while doing `what` (e.g. "loading
/// /p/trace_view.json"): "out of memory while loading ..." for std::bad_alloc, "internal error
/// while loading ...: <e.what()>" otherwise. Never throws (falls back to a fixed text).
[[nodiscard]] inline std::string describeException(const std::exception_ptr& e, const std::string& what) noexcept {
  try {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      return "out of memory while " + what;
    } catch (const std::exception& x) {
      return "internal error while " + what + ": " + x.what();
    } catch (...) {
      return "internal error while " + what;
    }
  } catch (...) {
    return {};
  }
}

/// Holds the first exception thrown by any of several worker threads. A worker runs its body
/// through run(); the thread that joins them calls rethrow() to continue the unwinding there,
/// where an API boundary catches it. Thread-safe.
class ExceptionSlot {
 public:
  /// Calls f(); if it throws, keeps the first exception (later ones are dropped) and returns.
  template <class F>
  void run(F&& f) noexcept {
    try {
      f();
    } catch (...) {
      std::lock_guard lock(m_mutex);
      if (!m_first) m_first = std::current_exception();
    }
  }
  /// True once a body threw.
  [[nodiscard]] bool failed() {
    std::lock_guard lock(m_mutex);
    return m_first != nullptr;
  }
  /// Rethrows the kept exception, if any; call after joining the workers.
  void rethrow() {
    std::exception_ptr e;
    {
      std::lock_guard lock(m_mutex);
      e = m_first;
    }
    if (e) std::rethrow_exception(e);
  }

 private:
  std::mutex m_mutex;
  std::exception_ptr m_first;
};

/// Calls `f` when the scope ends, by return or by exception (f must not throw).
template <class F>
class ScopeExit {
 public:
  explicit ScopeExit(F f) : m_f(std::move(f)) {}
  ScopeExit(const ScopeExit&) = delete;
  ScopeExit& operator=(const ScopeExit&) = delete;
  ~ScopeExit() { m_f(); }

 private:
  F m_f;
};

}  // namespace npuscope::core
