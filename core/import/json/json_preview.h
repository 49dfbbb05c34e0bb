// SPDX-License-Identifier: MIT
#pragma once
// The preview sink of the JSON reader: what the parse workers found so far (threads, metadata,
// time range), published once per MB of input and merged into a LoadPreview for the first pixels
// of a load. Internal to core.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/import/raw_events.h"
#include "core/model/trace.h"

namespace npuscope::core::detail {

/// Shared between the parse workers (which publish what they found at each progress step) and
/// the calling thread (which turns it into a LoadPreview for first pixels).
struct PreviewSink {
  struct Meta {
    MetaKind kind;
    std::string pid, tid, text;
    std::optional<std::int64_t> number;
  };
  struct Part {
    std::vector<LoadPreview::Track> tracks;
    std::vector<Meta> metas;
    TimeNs minTs = INT64_MAX, maxTs = INT64_MIN;
    std::uint64_t events = 0;
  };
  std::mutex mutex;
  std::vector<Part> parts;
  std::atomic<std::uint64_t> version{0};
};

/// A worker's position in what it already published.
struct PreviewCursor {
  PreviewSink* sink = nullptr;
  std::size_t part = 0, threads = 0, metas = 0;
};

/// Publishes the worker's new threads, metadata and time range (cheap: called once per MB).
/// Does nothing without a sink.
void publishPreview(const WorkerOut& out, PreviewCursor& c);

/// Merges what the workers published into one preview (tracks deduplicated by pid/tid, names
/// and sort indices from the metadata seen so far). `fraction`: of the bytes read, in [0, 1].
LoadPreview makePreview(PreviewSink& sink, double fraction);

}  // namespace npuscope::core::detail
