// SPDX-License-Identifier: MIT
// Issue 26 item 4: a gzip trace is parsed while it is inflated (GzipStream, ReadAhead,
// readTraceEventsStreamed), so memory follows the events kept, not the inflated bytes; the args
// of the kept slices are copied out of the text. Every input is built here; the expected counts,
// names and args texts come from that construction, not from npuscope's output.
#include <catch2/catch.hpp>

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stop_token>

#include "core/base/gzip_stream.h"
#include "core/base/mapped_file.h"
#include "core/import/json/json_trace_reader.h"
#include "core/import/slice_builder.h"
#include "core/model/slice_args.h"
#include "core/model/trace.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using test::TempDir;
namespace fs = std::filesystem;

namespace {

/// Writes `text` gzip-compressed (one member; "ab" appends another member) at `level`.
void writeGzip(const fs::path& path, const std::string& text, const char* mode = "wb") {
  gzFile gz = gzopen(path.c_str(), mode);
  REQUIRE(gz);
  REQUIRE(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  REQUIRE(gzclose(gz) == Z_OK);
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Everything `stream` gives, read `step` bytes at a time.
std::string readAll(core::GzipStream& stream, std::size_t step) {
  std::string out, buf(step, '\0');
  for (std::size_t n; (n = stream.read(buf.data(), step)) > 0;) out.append(buf, 0, n);
  return out;
}

/// The args text of slice s{i} in streamTrace: its pad grows with i (0 to 36 'x' * 7 bytes), and
/// every 50th slice has 5000 bytes of pad, longer than the small windows (they grow to hold it).
std::string argsOf(int i) {
  const std::size_t pad = i % 50 == 49 ? 5000 : static_cast<std::size_t>(i % 37) * 7;
  return R"({"i":)" + std::to_string(i) + R"(,"pad":")" + std::string(pad, 'x') + R"("})";
}

constexpr int kSlices = 600;

/// Object form: "distributedInfo" (rank 5) before the array, "traceName" after it. In the array:
/// kSlices X slices s{i} on pid 1 / tid 1, 10 us apart, 5 us long, with argsOf(i) and a variable
/// run of spaces after each; a b/e async pair "job" whose b has args {"a":"async"}; an event with
/// a raw control byte in its name (parsed from a repaired copy) with args {"r":1}; an event whose
/// args object is malformed ({"m" 1}, kept without args, its bytes kept as they are); and 40
/// flows s -> f (v1, bp e) from s{2k} to s{2k+1}. Slices: kSlices + 2 + 1 async = kSlices + 3.
std::string streamTrace() {
  std::string j = R"({"distributedInfo": {"rank": 5}, "traceEvents": [)";
  for (int i = 0; i < kSlices; ++i) {
    const std::string ts = std::to_string(1000 + 10 * i);
    j += R"({"ph":"X","name":"s)" + std::to_string(i) + R"(","pid":1,"tid":1,"ts":)" + ts + R"(,"dur":5,"args":)" +
         argsOf(i) + "}," + std::string(static_cast<std::size_t>(i % 13), ' ');
    if (i < 80 && i % 2 == 0)
      j += R"({"ph":"s","cat":"c","name":"fl","id":)" + std::to_string(i) + R"(,"pid":1,"tid":1,"ts":)" + ts + R"(},)";
    if (i < 80 && i % 2 == 1)
      j += R"({"ph":"f","bp":"e","cat":"c","name":"fl","id":)" + std::to_string(i - 1) + R"(,"pid":1,"tid":1,"ts":)" + ts + R"(},)";
  }
  j += R"({"ph":"b","cat":"c","name":"job","id":"0x1","pid":1,"tid":2,"ts":1000,"args":{"a":"async"}},)";
  j += R"({"ph":"e","cat":"c","name":"job","id":"0x1","pid":1,"tid":2,"ts":2000},)";
  j += "{\"ph\":\"X\",\"name\":\"ctl\x01\",\"pid\":1,\"tid\":3,\"ts\":50,\"dur\":1,\"args\":{\"r\":1}},";
  j += R"({"ph":"X","name":"malformed","pid":1,"tid":3,"ts":60,"dur":1,"args":{"m" 1}}], "traceName": "streamed"})";
  return j;
}

/// Builds the trace of a streamed read as loadTrace does (its file: the copied args).
std::shared_ptr<core::Trace> buildStreamed(core::detail::ReadResult read, std::size_t diskSize) {
  auto trace = std::make_shared<core::Trace>();
  trace->file = core::MappedFile::fromCopiedArgs(std::move(read.copiedArgs), diskSize, "t.json.gz");
  REQUIRE(core::detail::buildTrace(std::move(read), *trace, std::stop_token{}));
  trace->indexFlows();
  return trace;
}

/// The checks of streamTrace's construction on a loaded trace.
void checkStreamTrace(const core::Trace& t) {
  CHECK(t.sliceCount() == static_cast<std::size_t>(kSlices + 3));
  CHECK(t.flows.size() == 40);
  CHECK(t.rankFromFile == 5);
  CHECK(t.traceName == "streamed");
  for (int i = 0; i < kSlices; ++i) {
    std::string name = "s";  // (not "s" + ...: GCC 12's -Wrestrict false positive)
    name.append(std::to_string(i));
    const core::SliceRef r = test::findSlice(t, name);
    REQUIRE(r.valid());
    CHECK(t.sliceRange(r).start == (1000 + 10 * i) * 1000);
    if (t.argsText(r) != argsOf(i)) FAIL("args of s" << i << ": " << t.argsText(r));
  }
  CHECK(t.argsText(test::findSlice(t, "job")) == R"({"a":"async"})");
  CHECK(core::sliceArg(t, test::findSlice(t, "job"), "a") == "async");
  CHECK(t.argsText(test::findSlice(t, "ctl\\u0001")) == R"({"r":1})");
  CHECK(t.argsText(test::findSlice(t, "malformed")) == R"({"m" 1})");  // the file's bytes, read as none
  CHECK(core::sliceArgs(t, test::findSlice(t, "malformed")).empty());
  CHECK(t.stats.count(core::ImportWarning::ControlCharacter) == 1);
  CHECK(t.stats.count(core::ImportWarning::MalformedArgs) == 1);
}

/// Sum of the args texts' lengths of streamTrace, by construction.
std::size_t streamTraceArgsBytes() {
  std::size_t n = 0;
  for (int i = 0; i < kSlices; ++i) n += argsOf(i).size();
  return n + std::string(R"({"a":"async"})").size() + std::string(R"({"r":1})").size() + std::string(R"({"m" 1})").size();
}

/// VmHWM of this process in KiB, -1 when unknown.
long peakKb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

}  // namespace

TEST_CASE("gzip stream: the text whatever the read sizes, members in turn, a UTF-8 BOM skipped", "[gzip]") {
  TempDir dir("gzip-stream");
  // Two members, the first starting with a UTF-8 BOM: the text is both halves without the BOM.
  const std::string a = "[{\"name\":\"first half\"},", b = "{\"name\":\"second half\"}]";
  writeGzip(dir.root / "two.gz", "\xEF\xBB\xBF" + a);
  writeGzip(dir.root / "two.gz", b, "ab");
  for (const std::size_t step : {1u, 2u, 7u, 4096u}) {
    INFO("step " << step);
    std::string error;
    auto s = core::GzipStream::open((dir.root / "two.gz").string(), error);
    REQUIRE(s);
    CHECK(readAll(*s, step) == a + b);
    CHECK(s->inflatedBytes() == 3 + a.size() + b.size());
    CHECK(s->warning().empty());
    CHECK(s->error().empty());
    CHECK_FALSE(s->transcodedUtf16());
    CHECK(s->compressedOffset() == fs::file_size(dir.root / "two.gz"));
  }
  CHECK(core::isGzipFile((dir.root / "two.gz").string()));
  dir.write("plain.json", "[]");
  CHECK_FALSE(core::isGzipFile((dir.root / "plain.json").string()));
  std::string error;
  CHECK_FALSE(core::MappedFile::open((dir.root / "two.gz").string(), error));
  CHECK(error.find("gzip") != std::string::npos);
}

TEST_CASE("gzip stream: UTF-16 text is transcoded in pieces as whole, surrogate pairs cut anywhere", "[gzip]") {
  TempDir dir("gzip-utf16");
  // UTF-16 units written by hand: "[é😀中]" = 5B 00E9 D83D DE00 4E2D 5D, then a lone high surrogate
  // D83D and one odd byte. Expected UTF-8, by hand: 5B, C3 A9, F0 9F 98 80, E4 B8 AD, 5D, and
  // U+FFFD (EF BF BD) for the lone surrogate; the odd byte is dropped.
  const std::vector<std::uint16_t> units = {0x5B, 0xE9, 0xD83D, 0xDE00, 0x4E2D, 0x5D, 0xD83D};
  const std::string expected = "[\xC3\xA9\xF0\x9F\x98\x80\xE4\xB8\xAD]\xEF\xBF\xBD";
  for (const bool big : {false, true}) {
    std::string bytes = big ? "\xFE\xFF" : "\xFF\xFE";
    for (const std::uint16_t u : units) {
      const char hi = static_cast<char>(u >> 8), lo = static_cast<char>(u & 0xFF);
      bytes += big ? std::string{hi, lo} : std::string{lo, hi};
    }
    bytes += 'Z';  // the odd byte
    const fs::path path = dir.root / (big ? "be.gz" : "le.gz");
    writeGzip(path, bytes);
    for (std::size_t step = 1; step <= 9; ++step) {
      INFO("big-endian " << big << " step " << step);
      std::string error;
      auto s = core::GzipStream::open(path.string(), error);
      REQUIRE(s);
      CHECK(readAll(*s, step) == expected);
      CHECK(s->transcodedUtf16());
      CHECK(s->inflatedBytes() == bytes.size());
    }
  }
  // A whole trace in UTF-16 (little-endian, every character below U+0100 here: one unit each) loads
  // with its names and one Utf16File warning, as the same file uncompressed.
  const std::string json = R"([{"ph":"X","name":"caf)" "\xC3\xA9" R"(","pid":1,"tid":1,"ts":1,"dur":1}])";
  std::string utf16 = "\xFF\xFE";
  for (std::size_t i = 0; i < json.size(); ++i) {
    const auto c = static_cast<unsigned char>(json[i]);
    const std::uint16_t u = c == 0xC3 ? static_cast<std::uint16_t>(0xC0 | (static_cast<unsigned char>(json[++i]) & 0x3F)) : c;
    utf16 += static_cast<char>(u & 0xFF);
    utf16 += static_cast<char>(u >> 8);
  }
  writeGzip(dir.root / "trace.json.gz", utf16);
  const auto r = core::loadTrace((dir.root / "trace.json.gz").string());
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(test::countSlices(*r.trace, "caf\xC3\xA9") == 1);
  CHECK(r.trace->stats.count(core::ImportWarning::Utf16File) == 1);
  CHECK(r.trace->stats.total() == 1);
}

TEST_CASE("gzip stream: events cut by the window's refills at every size load whole, args copied", "[gzip]") {
  TempDir dir("gzip-window");
  const std::string json = streamTrace();
  writeGzip(dir.root / "t.json.gz", json);
  const std::size_t disk = fs::file_size(dir.root / "t.json.gz");
  // The same text in memory, read in place: the same warnings and notes.
  const auto plain = test::loadMemory(json);
  checkStreamTrace(*plain);
  for (const std::size_t window : {16u, 17u, 23u, 64u, 333u, 4096u, 256u << 10}) {
    INFO("window " << window);
    std::string error;
    auto s = core::GzipStream::open((dir.root / "t.json.gz").string(), error);
    REQUIRE(s);
    core::detail::ReadResult read = core::detail::readTraceEventsStreamed(*s, core::LoadOptions{}, window);
    REQUIRE(read.error.empty());
    REQUIRE(read.parts.size() == 1);
    CHECK(read.parts[0].stop == core::detail::WorkerOut::Stop::ArrayEnd);
    CHECK(read.copiedArgs.size() == streamTraceArgsBytes());
    CHECK(s->inflatedBytes() == json.size());
    const auto t = buildStreamed(std::move(read), disk);
    checkStreamTrace(*t);
    CHECK(t->eventCount == plain->eventCount);
    CHECK(t->stats.counts == plain->stats.counts);
    CHECK(t->stats.examples == plain->stats.examples);
    CHECK(t->notes == plain->notes);
  }
}

TEST_CASE("gzip stream: args of kept slices are read after the load from the trace's own copy", "[gzip]") {
  TempDir dir("gzip-args");
  const std::string json = streamTrace();
  const fs::path path = dir.root / "t.json.gz";
  writeGzip(path, json);
  std::vector<double> progress;
  std::vector<std::uint64_t> previewEvents;
  core::LoadOptions o;
  o.progress = [&](double f) { progress.push_back(f); };  // a parse thread besides the inflating one
  o.preview = [&](const core::LoadPreview& p) { previewEvents.push_back(p.events); };
  core::LoadResult r = core::loadTrace(path.string(), o);
  INFO(r.error);
  REQUIRE(r.ok());
  // The file is gone and nothing holds it open: the args read below can only come from the copy,
  // which holds the args texts and nothing else (their lengths summed by construction).
  fs::remove(path);
  REQUIRE_FALSE(fs::exists(path));
  REQUIRE(r.trace->file);
  CHECK(r.trace->file->fd() < 0);
  CHECK(r.trace->file->bytes().size() == streamTraceArgsBytes());
  CHECK(r.trace->fileBytes == r.trace->file->diskSize());
  checkStreamTrace(*r.trace);
  CHECK(core::sliceArg(*r.trace, test::findSlice(*r.trace, "s599"), "i") == "599");
  CHECK(core::sliceArg(*r.trace, test::findSlice(*r.trace, "s49"), "pad") == std::string(5000, 'x'));
  CHECK(core::argsLostMessage(*r.trace, test::findSlice(*r.trace, "s599")).empty());
  CHECK(r.trace->memoryBytes() >= streamTraceArgsBytes());
  REQUIRE_FALSE(progress.empty());
  CHECK(std::is_sorted(progress.begin(), progress.end()));
  CHECK(progress.back() == 1.0);
  // The last preview counts every event of the text: kSlices X, 80 flow events, b, e and the 2
  // events on tid 3.
  REQUIRE_FALSE(previewEvents.empty());
  CHECK(previewEvents.back() == static_cast<std::uint64_t>(kSlices + 80 + 4));
  CHECK(r.trace->eventCount == static_cast<std::uint64_t>(kSlices + 80 + 4));
}

TEST_CASE("gzip stream: plain and gzip files read as one trace keep each file's args", "[gzip]") {
  TempDir dir("gzip-files");
  // Two files of 2 slices each, by hand: a0, a1 (args {"f":"a0"}, ...) then b0, b1.
  const auto part = [](const char* p) {
    std::string j = "[";
    for (int i = 0; i < 2; ++i)
      j += std::string(i ? "," : "") + R"({"ph":"X","name":")" + p + std::to_string(i) + R"(","pid":1,"tid":1,"ts":)" +
           std::to_string((p[0] == 'a' ? 0 : 100) + 10 * i) + R"(,"dur":1,"args":{"f":")" + p + std::to_string(i) + R"("}})";
    return j + "]";
  };
  dir.write("a.json", part("a"));
  writeGzip(dir.root / "b.json.gz", part("b"));
  writeGzip(dir.root / "a.json.gz", part("a"));
  dir.write("b.json", part("b"));
  for (const auto& [first, second] : {std::pair{"a.json", "b.json.gz"}, std::pair{"a.json.gz", "b.json"}}) {
    INFO(first << " + " << second);
    const auto r = core::loadTraceFiles({(dir.root / first).string(), (dir.root / second).string()});
    INFO(r.error);
    REQUIRE(r.ok());
    REQUIRE(r.trace->sliceCount() == 4);
    for (const char* name : {"a0", "a1", "b0", "b1"})
      CHECK(core::sliceArg(*r.trace, test::findSlice(*r.trace, name), "f") == name);
  }
}

TEST_CASE("gzip stream: a bomb of spaces stops at the 256x limit with GzipLimit, in bounded memory", "[gzip]") {
  CHECK(core::gzipInflateLimit(0) == 64ull << 20);
  CHECK(core::gzipInflateLimit(1000) == 64ull << 20);         // 256 000 < 64 MiB
  CHECK(core::gzipInflateLimit(1ull << 20) == 256ull << 20);  // 1 MiB * 256
  CHECK(core::gzipInflateLimit(~0ull) == ~0ull);              // no overflow
  TempDir dir("gzip-bomb");
  // One event, then 80 MiB of spaces before the closing bracket: zlib makes about 80 KB of it,
  // whose default limit is the 64 MiB floor (256 * 80 KB = 20 MiB is less).
  std::string text = R"([{"ph":"X","name":"before","pid":1,"tid":1,"ts":1,"dur":1,"args":{"k":"v"}},)";
  const std::size_t head = text.size();
  text.append(80u << 20, ' ');
  text += "]";
  const fs::path path = dir.root / "bomb.json.gz";
  writeGzip(path, text);
  text = {};
  REQUIRE(fs::file_size(path) < (256u << 10));
  // Peak memory of the load alone (VmHWM reset to the current RSS; Linux >= 4.0): inflating whole
  // held the 64 MiB text (and its doubling); streamed, a window and four 256 KiB blocks.
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  const bool reset = static_cast<bool>(clear);
  const long before = peakKb();
  const core::LoadResult r = core::loadTrace(path.string());
  const long after = peakKb();
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(r.trace->sliceCount() == 1);
  CHECK(core::sliceArg(*r.trace, test::findSlice(*r.trace, "before"), "k") == "v");
  CHECK(r.trace->stats.count(core::ImportWarning::GzipLimit) == 1);
  CHECK(r.trace->stats.count(core::ImportWarning::TruncatedGzip) == 0);
  REQUIRE(r.trace->stats.examples.size() >= 1);
  std::string warning;
  for (const auto& [kind, example] : r.trace->stats.examples)
    if (kind == core::ImportWarning::GzipLimit) warning = example;
  CHECK(warning.find("inflates to more than 67108864 bytes") != std::string::npos);
  CHECK(warning.find("256 times the compressed size") != std::string::npos);
  // The text was cut at the limit inside the run of spaces: the array was not closed.
  CHECK(std::find(r.trace->notes.begin(), r.trace->notes.end(), "closing bracket added (the event array was not closed)") !=
        r.trace->notes.end());
  CHECK(head < (64u << 20));
  if (reset && before > 0 && after > 0) CHECK(after - before < 32 * 1024);
  else WARN("VmHWM could not be reset: the memory bound is not checked");
}

TEST_CASE("LoadOptions::gzipMaxInflatedBytes cuts a gzip trace: the events before the limit load, a GzipLimit warning", "[gzip]") {
  TempDir dir("gzip-limit");
  // 200 slices named "op" of 1 us each, 2 us apart, each with about 20 bytes of args.
  std::string text = "[\n";
  for (std::size_t i = 0; i < 200; ++i) {
    if (i) text += ",\n";
    text += R"({"ph":"X","name":"op","pid":1,"tid":1,"ts":)" + std::to_string(1000 + 2 * i) + R"(,"dur":1,"args":{"pad":")" +
            std::string(20, 'a') + R"("}})";
  }
  text += "\n]\n";
  const fs::path path = dir.root / "limit.json";
  writeGzip(path, text);
  core::LoadOptions o;
  o.threads = 1;
  o.gzipMaxInflatedBytes = 5000;
  // The slices whose whole event ends before byte 5000 of the text (counted here on the text,
  // not by npuscope): each event line ends with "}}".
  std::size_t complete = 0;
  for (std::size_t at = text.find("}}"); at != std::string::npos && at + 2 <= 5000; at = text.find("}}", at + 2)) ++complete;
  REQUIRE(complete > 10);
  REQUIRE(complete < 200);
  const core::LoadResult r = core::loadTrace(path.string(), o);
  REQUIRE(r.ok());
  CHECK(r.trace->stats.counts[static_cast<std::size_t>(core::ImportWarning::GzipLimit)] == 1);
  CHECK(r.trace->stats.counts[static_cast<std::size_t>(core::ImportWarning::TruncatedGzip)] == 0);
  REQUIRE(r.trace->lanes.size() == 1);
  CHECK(r.trace->lanes[0].sliceCount() == complete);
  // Without the knob the same file loads whole (about 20 KB, far below 64 MiB).
  o.gzipMaxInflatedBytes = 0;
  const core::LoadResult whole = core::loadTrace(path.string(), o);
  REQUIRE(whole.ok());
  CHECK(whole.trace->lanes[0].sliceCount() == 200);
  CHECK(whole.trace->stats.counts[static_cast<std::size_t>(core::ImportWarning::GzipLimit)] == 0);
}

TEST_CASE("gzip stream: a bad CRC after the last event keeps every event and warns, corrupt data from the start is an error", "[gzip]") {
  TempDir dir("gzip-corrupt");
  std::string json = "[";
  for (int i = 0; i < 100; ++i)
    json += std::string(i ? "," : "") + R"({"ph":"X","name":"e)" + std::to_string(i) + R"(","pid":1,"tid":1,"ts":)" +
            std::to_string(10 * i) + R"(,"dur":1})";
  json += "]";
  writeGzip(dir.root / "ok.gz", json);
  std::string bytes = readFile(dir.root / "ok.gz");
  // RFC 1952: the member ends with CRC32 and ISIZE (4 bytes each); flip the CRC's first byte.
  bytes[bytes.size() - 8] = static_cast<char>(bytes[bytes.size() - 8] ^ 0xFF);
  std::ofstream(dir.root / "crc.json.gz", std::ios::binary) << bytes;
  const auto r = core::loadTrace((dir.root / "crc.json.gz").string());
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(r.trace->sliceCount() == 100);
  CHECK(r.trace->stats.count(core::ImportWarning::TruncatedGzip) == 1);
  REQUIRE_FALSE(r.trace->stats.examples.empty());
  CHECK(r.trace->stats.examples[0].second.find("corrupt gzip data in") != std::string::npos);
  CHECK(r.trace->stats.examples[0].second.find("after " + std::to_string(json.size()) + " bytes decoded") != std::string::npos);
  // A header followed by bytes that are no deflate data: nothing decodes, a hard error.
  std::ofstream(dir.root / "bad.json.gz", std::ios::binary) << bytes.substr(0, 10) << std::string(64, '\xFF');
  const auto bad = core::loadTrace((dir.root / "bad.json.gz").string());
  CHECK_FALSE(bad.ok());
  CHECK(bad.error.find("corrupt gzip data in") != std::string::npos);
}

/// What zlib decodes of `bytes` (a gzip member, possibly cut) in one inflate call with room for
/// all of it: the most a cut file can give, the reference for reads in pieces.
std::string inflateAtOnce(const std::string& bytes) {
  z_stream z{};
  REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);
  std::string out(1 << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  (void)inflate(&z, Z_NO_FLUSH);
  out.resize(out.size() - z.avail_out);
  inflateEnd(&z);
  return out;
}

TEST_CASE("gzip stream: a cut file gives every byte zlib can decode, whatever the read sizes", "[gzip]") {
  TempDir dir("gzip-cut");
  // fuzz_gzip's finding, minimised: a gzip header, a deflate block whose last symbol is a match
  // ("I" repeated), cut before the trailer. Python's zlib.decompressobj(31).decompress gives the
  // 13 bytes "IIIIIIIIIII7a"; reads of 1 byte used to stop at 12, with the match's rest left in
  // zlib.
  const std::string minimal("\x1F\x8B\x08\x00\xCF\x00\xFF\xFF\x7E\x44\xF3\x44\x00\xF3\x44", 15);
  std::ofstream(dir.root / "min.json.gz", std::ios::binary) << minimal;
  for (const std::size_t step : {1u, 2u, 3u, 65536u}) {
    INFO("step " << step);
    std::string error;
    auto s = core::GzipStream::open((dir.root / "min.json.gz").string(), error);
    REQUIRE(s);
    CHECK(readAll(*s, step) == "IIIIIIIIIII7a");
    CHECK(s->warning().find("ends early") != std::string::npos);
  }
  // A text of long matches, cut at every length after the header: reads of 1, 5 and 64 KiB bytes
  // give what one inflate call gives.
  std::string text;
  for (int i = 0; i < 40; ++i) text += std::string(static_cast<std::size_t>(40 + i * 13), static_cast<char>('a' + i % 26)) + "|";
  writeGzip(dir.root / "long.gz", text);
  const std::string bytes = readFile(dir.root / "long.gz");
  REQUIRE(inflateAtOnce(bytes) == text);
  for (std::size_t cut = 11; cut < bytes.size(); ++cut) {
    INFO("cut at " << cut << " of " << bytes.size());
    const std::string part = bytes.substr(0, cut);
    std::ofstream(dir.root / "cut.json.gz", std::ios::binary | std::ios::trunc) << part;
    const std::string expected = inflateAtOnce(part);
    for (const std::size_t step : {1u, 5u, 65536u}) {
      std::string error;
      auto s = core::GzipStream::open((dir.root / "cut.json.gz").string(), error);
      REQUIRE(s);
      if (readAll(*s, step) != expected) FAIL("step " << step << ": differs from one inflate call");
    }
  }
}

TEST_CASE("gzip stream: a stop request cancels the load", "[gzip]") {
  TempDir dir("gzip-cancel");
  writeGzip(dir.root / "t.json.gz", streamTrace());
  std::stop_source stop;
  stop.request_stop();
  core::LoadOptions o;
  o.stop = stop.get_token();
  const auto r = core::loadTrace((dir.root / "t.json.gz").string(), o);
  CHECK_FALSE(r.ok());
  CHECK(r.error == "cancelled");
}
