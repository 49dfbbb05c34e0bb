// SPDX-License-Identifier: MIT
#include "core/model/trace.h"

#include "core/base/gallop.h"
#include "core/base/guard.h"
#include "core/base/gzip_stream.h"
#include "core/base/mapped_file.h"

#include <algorithm>
#include <filesystem>
#include <thread>

#include "core/import/db/db_reader.h"
#include "core/import/json/json_trace_reader.h"
#include "core/query/lod.h"
#include "core/import/slice_builder.h"
#include "core/import/trace_builder.h"

namespace npuscope::core {

Trace::Trace() = default;
Trace::~Trace() = default;

std::string_view Trace::argsText(SliceRef r) const {
  if (!r.valid()) return {};
  const Lane& l = lanes[r.lane];
  const auto len = l.argsLength[r.index];
  if (len == 0) return {};
  const std::uint64_t off = l.argsOffset[r.index];
  if (off & kRowArgs) return {};
  if (off & kOwnedArgs) {
    const std::uint64_t at = off & ~kOwnedArgs;
    return at + len <= ownedArgs.size() ? std::string_view(ownedArgs).substr(at, len) : std::string_view{};
  }
  if (!moreFiles.empty() && off >= moreFiles.front().base) {
    // A trace of several files: the last file whose base is <= off holds the args.
    const auto it = std::upper_bound(moreFiles.begin(), moreFiles.end(), off,
                                     [](std::uint64_t v, const MoreFile& f) { return v < f.base; }) - 1;
    const std::string_view bytes = it->file ? it->file->bytes() : std::string_view{};
    const std::uint64_t at = off - it->base;
    return at + len <= bytes.size() ? bytes.substr(at, len) : std::string_view{};
  }
  if (!file) return {};
  return file->bytes().substr(off, len);
}

namespace {
std::uint64_t refKey(SliceRef r) { return (static_cast<std::uint64_t>(r.lane) << 32) | r.index; }

/// The sampled keys of an index (Trace::flowsByFromKeys).
std::vector<std::uint64_t> sampleKeys(const std::vector<Flow>& flows, const std::vector<std::uint32_t>& index, SliceRef Flow::*end) {
  std::vector<std::uint64_t> keys;
  keys.reserve(index.size() / Trace::kFlowKeyStride + 1);
  for (std::size_t p = 0; p < index.size(); p += Trace::kFlowKeyStride) keys.push_back(refKey(flows[index[p]].*end));
  return keys;
}

/// [first, last) in `index` of the flows whose `end` is r; {0, 0} when the trace is not indexed.
std::pair<std::size_t, std::size_t> flowRange(const std::vector<Flow>& flows, const std::vector<std::uint32_t>& index,
                                              const std::vector<std::uint64_t>& keys, SliceRef r, SliceRef Flow::*end) {
  if (index.size() != flows.size()) return {0, 0};
  const std::uint64_t want = refKey(r);
  const auto before = [&](std::size_t p) { return refKey(flows[index[p]].*end) < want; };
  // Where this thread's last search in this index and lane ended (direct-mapped): the analyses
  // ask for the slices of a lane in order, so galloping from there reads two or three Flow
  // records where the sampled keys still leave five (issue 43). Only a starting point: the
  // answer does not depend on it.
  struct Hint {
    const std::uint32_t* index = nullptr;
    std::uint32_t lane = 0;
    std::size_t at = 0;
  };
  thread_local Hint hints[32];
  Hint& h = hints[(r.lane * 7u + static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(index.data()) >> 6)) & 31u];
  std::size_t lo = 0, hi = index.size(), from = index.size();  // `from` outside [lo, hi): no hint
  if (h.index == index.data() && h.lane == r.lane) {
    from = h.at;
  } else if (keys.size() == (index.size() + Trace::kFlowKeyStride - 1) / Trace::kFlowKeyStride) {
    // The first sample at or above r: the first position at or above r lies after the sample
    // before it, and at or before that sample.
    const auto j = static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), want) - keys.begin());
    lo = j == 0 ? 0 : (j - 1) * Trace::kFlowKeyStride + 1;
    hi = j == 0 ? 0 : std::min(index.size(), j * Trace::kFlowKeyStride);
  }
  const auto first = index.begin() + static_cast<std::ptrdiff_t>(partitionPointNear(lo, hi, from, before));
  auto last = first;
  while (last != index.end() && flows[*last].*end == r) ++last;
  h = {index.data(), r.lane, static_cast<std::size_t>(first - index.begin())};
  return {static_cast<std::size_t>(first - index.begin()), static_cast<std::size_t>(last - index.begin())};
}

std::vector<std::uint32_t> flowsAt(const std::vector<Flow>& flows, const std::vector<std::uint32_t>& index,
                                   const std::vector<std::uint64_t>& keys, SliceRef r, SliceRef Flow::*end) {
  std::vector<std::uint32_t> out;
  if (index.size() != flows.size()) {  // a hand-built trace that was never indexed: scan
    for (std::uint32_t i = 0; i < flows.size(); ++i)
      if (flows[i].*end == r) out.push_back(i);
    return out;
  }
  const auto [first, last] = flowRange(flows, index, keys, r, end);
  out.assign(index.begin() + static_cast<std::ptrdiff_t>(first), index.begin() + static_cast<std::ptrdiff_t>(last));
  return out;
}
}  // namespace

void Trace::indexFlows() {
  detail::buildFlowIndex(flows, lanes, flowsByFrom, flowsByTo);
  flowsByFromKeys = sampleKeys(flows, flowsByFrom, &Flow::from);
  flowsByToKeys = sampleKeys(flows, flowsByTo, &Flow::to);
}

std::vector<std::uint32_t> Trace::flowsFrom(SliceRef r) const { return flowsAt(flows, flowsByFrom, flowsByFromKeys, r, &Flow::from); }
std::vector<std::uint32_t> Trace::flowsTo(SliceRef r) const { return flowsAt(flows, flowsByTo, flowsByToKeys, r, &Flow::to); }
std::pair<std::size_t, std::size_t> Trace::flowsFromRange(SliceRef r) const {
  return flowRange(flows, flowsByFrom, flowsByFromKeys, r, &Flow::from);
}
std::pair<std::size_t, std::size_t> Trace::flowsToRange(SliceRef r) const { return flowRange(flows, flowsByTo, flowsByToKeys, r, &Flow::to); }

std::size_t Trace::sliceCount() const {
  std::size_t n = 0;
  for (const auto& l : lanes) n += l.sliceCount();
  return n;
}

int Trace::deviceId() const {
  for (const auto& p : processes)
    if (p.deviceId >= 0) return p.deviceId;
  return -1;
}

std::size_t Trace::memoryBytes() const {
  std::size_t b = strings.memoryBytes() + (ownedArgs.empty() ? 0 : ownedArgs.capacity()) + (rowArgs.empty() ? 0 : rowArgs.memoryBytes()) + flows.capacity() * sizeof(Flow) +
                  (flowsByFrom.capacity() + flowsByTo.capacity()) * 4 + (flowsByFromKeys.capacity() + flowsByToKeys.capacity()) * 8 +
                  processes.capacity() * sizeof(Process) + lanes.capacity() * sizeof(Lane);
  for (const auto& l : lanes) b += l.memoryBytes();
  for (const auto& c : counters) b += c.ts.capacity() * 8 + c.value.capacity() * 8 + c.lod.memoryBytes() + sizeof(c);
  // Bytes the file objects hold in memory (the args copied out of a gzip text; 0 for a mapping).
  if (file) b += file->heapBytes();
  for (const auto& m : moreFiles) b += m.file ? m.file->heapBytes() : 0;
  return b;
}

namespace {
/// Shifts the args byte ranges of one parsed file's chunks by `base` (loadTraceFiles: the args of
/// the k-th file are found at base_k + offset, Trace::MoreFile). Ranges that no longer fit the
/// packed field move to the chunk's side table, as RawSlice::setArgs does for any long range.
void shiftArgs(detail::WorkerOut& w, std::uint64_t base) {
  for (auto& buffer : w.slices)
    for (detail::RawSlice& r : buffer) {
      const std::uint32_t len = r.argsLength(&w.longArgs);
      if (len == 0) continue;
      if (r.hasLongArgs()) w.longArgs[r.packed & detail::RawSlice::kOffsetMask].first += base;
      else r.setArgs(r.argsOffset(nullptr) + base, len, w.longArgs);
    }
  for (detail::RawAsync& a : w.asyncs)
    if (a.argsLength) a.argsOffset += base;
}

/// One file of a trace to read: mapped (a plain file, or bytes in memory) or a gzip stream.
struct TraceInput {
  std::shared_ptr<const MappedFile> mapped;
  std::unique_ptr<GzipStream> gzip;
  /// Bytes to read, for the progress shares: the mapped bytes, or the compressed size.
  [[nodiscard]] std::uint64_t size() const { return mapped ? mapped->bytes().size() : gzip->diskSize(); }
};

/// Opens `path` for loadTrace: a GzipStream for a gzip file (isGzipFile), else a MappedFile.
/// False with `error` set when it cannot be opened.
bool openInput(const std::string& path, const LoadOptions& options, TraceInput& input, std::string& error) {
  if (isGzipFile(path)) input.gzip = GzipStream::open(path, error, options.gzipMaxInflatedBytes);
  else input.mapped = MappedFile::open(path, error);
  return input.mapped || input.gzip;
}

/// Reads `inputs` (names in `names`, same order) as one trace; see loadTraceFiles. One file is
/// loadTrace's own path: nothing is shifted and Trace::moreFiles stays empty.
LoadResult loadFromFiles(std::vector<TraceInput>& inputs, const std::vector<std::string>& names,
                         const LoadOptions& options) {
  LoadResult result;
  unsigned threads = options.threads;
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::uint64_t totalBytes = 0;
  for (const auto& in : inputs) totalBytes += in.size();
  auto trace = std::make_shared<Trace>();
  trace->path = names.front();
  TraceBuilder builder;
  std::uint64_t base = 0, done = 0;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    TraceInput& input = inputs[k];
    LoadOptions readOptions = options;
    if (k > 0) readOptions.preview = nullptr;  // a preview grows monotonically: the first file's only
    // Reading is ~2/3 of loadTrace's wall time, building the rest (npuscope_bench_cancel on the
    // 1 GB trace: read 64.5%, build 30.5%, analyses after loadTrace 5%; docs/benchmarks.md).
    // Several files share the read part by their sizes.
    const double before = totalBytes ? static_cast<double>(done) / static_cast<double>(totalBytes) : 0.0;
    const double share = totalBytes ? static_cast<double>(input.size()) / static_cast<double>(totalBytes) : 1.0;
    done += input.size();
    if (options.progress)
      readOptions.progress = [&options, before, share](double f) { options.progress(0.7 * (before + share * f)); };
    detail::ReadResult read;
    std::shared_ptr<const MappedFile> file = input.mapped;
    if (input.mapped) {
      // A file that shrank between its open and now is read up to its current end, as a truncated
      // file (issue 15 item 2); the bytes past it would read as zeros (MappedFile's SIGBUS guard).
      const std::string_view bytes = file->bytes().substr(0, file->validSize());
      read = detail::readTraceEvents(bytes, threads, readOptions, detail::readSourceFor(*file));
    } else {
      // A gzip file is parsed while it is inflated: memory follows the events kept, not the
      // inflated bytes (issue 26 item 4); the args of the kept events are copied out of the text.
      read = detail::readTraceEventsStreamed(*input.gzip, readOptions);
      if (!input.gzip->error().empty()) {
        result.error = input.gzip->error();
        return result;
      }
      file = MappedFile::fromCopiedArgs(std::move(read.copiedArgs), input.gzip->diskSize(), names[k]);
    }
    if (read.cancelled || options.stop.stop_requested()) {
      result.error = "cancelled";
      return result;
    }
    if (!read.error.empty()) {
      result.error = names[k] + ": " + read.error;
      return result;
    }
    trace->fileBytes += file->diskSize();
    // Shrank while it was read: the events past the new end were read as zeros or not at all.
    if (std::string shrank = file->shrinkMessage(); !shrank.empty()) read.notes.push_back(std::move(shrank));
    if (file->transcodedUtf16() || (input.gzip && input.gzip->transcodedUtf16()))
      trace->stats.add(ImportWarning::Utf16File, "transcoded from UTF-16");
    if (input.gzip && !input.gzip->warning().empty())
      trace->stats.add(input.gzip->inflateLimited() ? ImportWarning::GzipLimit : ImportWarning::TruncatedGzip,
                       input.gzip->warning());
    input.gzip.reset();  // closes the file
    if (k == 0) {
      trace->file = file;
      // The JSON reader is one client of TraceBuilder: its parse workers' record chunks are
      // handed over as they are (zero-copy args: byte ranges of the mapped file, or of the args
      // copied out of a gzip text).
      if (read.top.rank) builder.setRank(*read.top.rank);
      if (read.top.baseTimeNanoseconds) builder.setBaseTimeNanoseconds(*read.top.baseTimeNanoseconds);
      builder.setTraceName(std::move(read.top.traceName));
    } else {
      for (auto& part : read.parts) shiftArgs(part, base);
      trace->moreFiles.push_back({base, file, names[k]});
    }
    builder.adoptChunks(std::move(read.parts));
    for (auto& note : read.notes)
      builder.addNote(inputs.size() > 1 ? names[k] + ": " + note : std::move(note));
    base += file->bytes().size();
  }
  if (inputs.size() > 1) {
    std::string note = "read " + std::to_string(inputs.size()) + " files as one timeline:";
    for (std::size_t k = 0; k < names.size(); ++k) {
      const std::size_t cut = names[k].find_last_of("/\\");
      note += (k ? ", " : " ") + (cut == std::string::npos ? names[k] : names[k].substr(cut + 1));
    }
    builder.addNote(std::move(note));
  }
  const int plainNpuDevice = options.device >= 0 ? options.device : deviceFromTracePath(names.front());
  if (!builder.finish(*trace, {options.stop, plainNpuDevice, threads, options.summaryLevels})) {
    result.error = "cancelled";
    return result;
  }
  if (options.progress) options.progress(1.0);
  result.trace = std::move(trace);
  return result;
}

LoadResult loadFromInput(TraceInput input, const std::string& name, const LoadOptions& options) {
  std::vector<TraceInput> inputs;
  inputs.push_back(std::move(input));
  return loadFromFiles(inputs, {name}, options);
}
}  // namespace

namespace {
/// The core may be compiled for AVX2 (NPUSCOPE_NATIVE_SIMD); refuse clearly on an older CPU.
bool cpuSupportsBuild(std::string& error) {
#if defined(__AVX2__) && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2")) {
    error = "this npuscope build needs a CPU with AVX2; rebuild with -DNPUSCOPE_NATIVE_SIMD=OFF";
    return false;
  }
#endif
  (void)error;
  return true;
}
}  // namespace

int deviceFromTracePath(const std::string& path) {
  // Components of the path, last first ('/' or '\\' separated).
  std::vector<std::string_view> parts;
  std::string_view rest(path);
  while (!rest.empty()) {
    const std::size_t cut = rest.find_last_of("/\\");
    const std::string_view part = cut == std::string_view::npos ? rest : rest.substr(cut + 1);
    if (!part.empty()) parts.push_back(part);
    if (cut == std::string_view::npos) break;
    rest = rest.substr(0, cut);
  }
  // The number at the start of `s` (at most 6 digits; `used` = how many), or -1.
  const auto number = [](std::string_view s, std::size_t& used) -> int {
    used = 0;
    long v = 0;
    while (used < s.size() && s[used] >= '0' && s[used] <= '9' && used < 6) v = v * 10 + (s[used++] - '0');
    return used ? static_cast<int>(v) : -1;
  };
  if (!parts.empty()) {
    const std::string_view file = parts.front();
    if (file.starts_with("msprof_") && file.ends_with(".json")) {
      std::size_t used = 0;
      const int dev = number(file.substr(7), used);
      // msprof_{dev}_{model}_{iter}.json: three numbers; msprof_{YYYYmmddHHMMSS}.json is not a device.
      if (dev >= 0 && 7 + used < file.size() && file[7 + used] == '_') {
        std::size_t u2 = 0, u3 = 0;
        const std::string_view tail = file.substr(8 + used);
        if (number(tail, u2) >= 0 && u2 < tail.size() && tail[u2] == '_' && number(tail.substr(u2 + 1), u3) >= 0 &&
            tail.substr(u2 + 1 + u3) == ".json")
          return dev;
      }
    }
  }
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (parts[i].starts_with("device_")) {
      std::size_t used = 0;
      const int dev = number(parts[i].substr(7), used);
      if (dev >= 0 && 7 + used == parts[i].size()) return dev;
    }
  return -1;
}

LoadResult loadTrace(const std::string& path, const LoadOptions& options) {
  try {
    std::string error;
    if (!cpuSupportsBuild(error)) return {nullptr, error};
    if (path.ends_with(".db")) {
      std::error_code ec;
      const std::filesystem::path sibling = std::filesystem::path(path).parent_path() / "analysis.db";
      const bool hasAnalysis = std::filesystem::is_regular_file(sibling, ec) && sibling != std::filesystem::path(path);
      // The trace only: the tables (kernels, step figures, chip) are loadProfile's, not kept here.
      DbImport db = readAscendDb(path, hasAnalysis ? sibling.string() : std::string(), options, false);
      if (db.result.trace)
        for (auto& m : db.messages) db.result.trace->notes.push_back(std::move(m));
      return std::move(db.result);
    }
    TraceInput input;
    if (!openInput(path, options, input, error)) return {nullptr, error};
    return loadFromInput(std::move(input), path, options);
  } catch (...) {
    return {nullptr, describeException(std::current_exception(), "loading " + path)};
  }
}

LoadResult loadTraceFiles(const std::vector<std::string>& paths, const LoadOptions& options) {
  if (paths.empty()) return {nullptr, "no trace file given"};
  if (paths.size() == 1) return loadTrace(paths.front(), options);
  std::string error;
  if (!cpuSupportsBuild(error)) return {nullptr, error};
  try {
    std::vector<TraceInput> inputs(paths.size());
    for (std::size_t k = 0; k < paths.size(); ++k)
      if (!openInput(paths[k], options, inputs[k], error)) return {nullptr, error};
    return loadFromFiles(inputs, paths, options);
  } catch (...) {
    return {nullptr, describeException(std::current_exception(), "loading " + paths.front())};
  }
}

LoadResult loadTraceFromMemory(std::string_view json, const std::string& name, const LoadOptions& options) {
  try {
    std::string error;
    if (!cpuSupportsBuild(error)) return {nullptr, error};
    return loadFromInput({MappedFile::fromMemory(json), nullptr}, name, options);
  } catch (...) {
    return {nullptr, describeException(std::current_exception(), "loading " + name)};
  }
}

}  // namespace npuscope::core
