// SPDX-License-Identifier: MIT
// Flow names that are the category followed by the id (torch_npu's HostToDevice<id>) are not
// interned (core/import/raw_events.h, kFlowNameIsCategoryAndId): the flows pair exactly as they
// did by name, the other names are kept, and every reader path follows the same rule. Expected
// values are hand counts from the JSON below.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "core/import/raw_events.h"
#include "core/import/trace_builder.h"
#include "core/model/trace.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using core::detail::flowNameIsCategoryAndId;

TEST_CASE("flowNameIsCategoryAndId: the category, then the id in decimal, and nothing else") {
  CHECK(flowNameIsCategoryAndId("HostToDevice263", "HostToDevice", 263));
  CHECK(flowNameIsCategoryAndId("HostToDevice0", "HostToDevice", 0));
  CHECK(flowNameIsCategoryAndId("HostToDevice18446744073709551615", "HostToDevice", UINT64_MAX));
  CHECK(flowNameIsCategoryAndId("HostToDevice1128159059640320", "HostToDevice", 262670ull << 32));
  CHECK_FALSE(flowNameIsCategoryAndId("HostToDevice0263", "HostToDevice", 263));  // a leading zero
  CHECK_FALSE(flowNameIsCategoryAndId("HostToDevice264", "HostToDevice", 263));
  CHECK_FALSE(flowNameIsCategoryAndId("HostToDevice2630", "HostToDevice", 263));
  CHECK_FALSE(flowNameIsCategoryAndId("HostToDevice26", "HostToDevice", 263));
  CHECK_FALSE(flowNameIsCategoryAndId("HostToDevice", "HostToDevice", 263));
  CHECK_FALSE(flowNameIsCategoryAndId("HostToDevicex263", "HostToDevice", 263));
  CHECK_FALSE(flowNameIsCategoryAndId("hostToDevice263", "HostToDevice", 263));
  CHECK_FALSE(flowNameIsCategoryAndId("263", "", 263));  // no category: the name is kept
  CHECK_FALSE(flowNameIsCategoryAndId("HostToDevice0x107", "HostToDevice", 263));
}

namespace {
// Four launches on the host thread (1, 1) and four tasks on the device stream (2, 2).
// Flows, by hand:
//  - 263: s id "263", f id 263 (a number); both named HostToDevice263: launchA -> kernA, not kept.
//  - 264: s id "0x108" (hex 264), f id "264"; both named HostToDevice264: as the names were equal,
//    they pair (launchB -> kernB) and neither name is kept (the id's value, not its text, counts).
//  - "abc": a text id; HostToDeviceabc is kept (only numeric ids are matched): launchC -> kernC.
//  - 7: enqueue_to_dequeue of async_task_queue, kept: enq -> deq. Its `s` is written with the name
//    before the category and an escaped category (\u0071 = q), so the simdjson path reads it.
//  - 9: s named HostToDevice9 (derived), f named HostToDevice09 (kept): different names, so no
//    flow; each is a flow event without its other end.
const char* kJson = R"({"traceEvents":[
{"ph":"X","name":"launchA","pid":1,"tid":1,"ts":10,"dur":5},
{"ph":"X","name":"launchB","pid":1,"tid":1,"ts":30,"dur":5},
{"ph":"X","name":"launchC","pid":1,"tid":1,"ts":50,"dur":5},
{"ph":"X","name":"enq","pid":1,"tid":1,"ts":70,"dur":5},
{"ph":"X","name":"kernA","pid":2,"tid":2,"ts":12,"dur":3},
{"ph":"X","name":"kernB","pid":2,"tid":2,"ts":32,"dur":3},
{"ph":"X","name":"kernC","pid":2,"tid":2,"ts":52,"dur":3},
{"ph":"X","name":"deq","pid":2,"tid":2,"ts":72,"dur":3},
{"name":"HostToDevice263","ph":"s","cat":"HostToDevice","id":"263","pid":1,"tid":1,"ts":11},
{"name":"HostToDevice263","ph":"f","id":263,"ts":12,"cat":"HostToDevice","pid":2,"tid":2,"bp":"e"},
{"cat":"HostToDevice","ph":"s","name":"HostToDevice264","id":"0x108","pid":1,"tid":1,"ts":31},
{"name":"HostToDevice264","ph":"f","id":"264","ts":32,"cat":"HostToDevice","pid":2,"tid":2,"bp":"e"},
{"name":"HostToDeviceabc","ph":"s","cat":"HostToDevice","id":"abc","pid":1,"tid":1,"ts":51},
{"name":"HostToDeviceabc","ph":"f","id":"abc","ts":52,"cat":"HostToDevice","pid":2,"tid":2,"bp":"e"},
{"name":"enqueue_to_dequeue","ph":"s","cat":"async_task_\u0071ueue","id":7,"pid":1,"tid":1,"ts":71},
{"ph":"f","cat":"async_task_queue","name":"enqueue_to_dequeue","id":7,"pid":2,"tid":2,"ts":72,"bp":"e"},
{"name":"HostToDevice9","ph":"s","cat":"HostToDevice","id":9,"pid":1,"tid":1,"ts":13},
{"name":"HostToDevice09","ph":"f","cat":"HostToDevice","id":9,"pid":2,"tid":2,"ts":14,"bp":"e"}
]})";

std::shared_ptr<core::Trace> loadJson(bool fastScanner, unsigned parts = 1) {
  core::LoadOptions o;
  o.threads = parts;
  o.minPartBytes = 64;  // parts > 1: the input is really cut, so a flow's ends are in different parts
  o.fastScanner = fastScanner;
  auto r = core::loadTraceFromMemory(kJson, "flow-names", o);
  REQUIRE(r.ok());
  return r.trace;
}

/// "from->to name|category" of every flow, sorted.
std::vector<std::string> flows(const core::Trace& t) {
  std::vector<std::string> v;
  for (const auto& f : t.flows)
    v.push_back(std::string(t.sliceName(f.from)) + "->" + std::string(t.sliceName(f.to)) + " " +
                std::string(t.name(f.name)) + "|" + std::string(t.name(f.category)));
  std::sort(v.begin(), v.end());
  return v;
}
}  // namespace

TEST_CASE("flows named category + id pair as by their names, and those names are not kept") {
  for (const auto& [fast, parts] : {std::pair{true, 1u}, {false, 1u}, {true, 2u}, {true, 8u}, {false, 8u}}) {
    INFO((fast ? "fast scanner, parts " : "simdjson path only, parts ") << parts);
    const auto t = loadJson(fast, parts);
    const std::vector<std::string> expected = {
        "enq->deq enqueue_to_dequeue|async_task_queue", "launchA->kernA |HostToDevice", "launchB->kernB |HostToDevice",
        "launchC->kernC HostToDeviceabc|HostToDevice"};
    CHECK(flows(*t) == expected);
    // Not in the string table: the derived names; in it: the kept ones.
    CHECK(t->strings.find("HostToDevice263") == core::kInvalidIndex);
    CHECK(t->strings.find("HostToDevice264") == core::kInvalidIndex);
    CHECK(t->strings.find("HostToDevice9") == core::kInvalidIndex);
    CHECK(t->strings.find("HostToDeviceabc") != core::kInvalidIndex);
    CHECK(t->strings.find("HostToDevice09") != core::kInvalidIndex);
    CHECK(t->strings.find("enqueue_to_dequeue") != core::kInvalidIndex);
    // Flow 9's two ends have different names: two events without their other end (hand count).
    CHECK(t->stats.count(core::ImportWarning::FlowStartWithoutEnd) == 1);
    CHECK(t->stats.count(core::ImportWarning::FlowEndWithoutStart) == 1);
  }
  // Both paths build the same string table, in the same order.
  const auto a = loadJson(true), b = loadJson(false);
  REQUIRE(a->strings.size() == b->strings.size());
  for (std::size_t i = 0; i < a->strings.size(); ++i)
    CHECK(a->strings.view(static_cast<core::NameId>(i)) == b->strings.view(static_cast<core::NameId>(i)));
}

TEST_CASE("TraceBuilder: a flow named category + numeric id keeps no name, a text id keeps it") {
  core::TraceBuilder b;
  const auto host = b.thread(b.process(1), 1), dev = b.thread(b.process(2), 2);
  b.addSlice(host, 10, 5, "launchA");
  b.addSlice(host, 30, 5, "launchB");
  b.addSlice(dev, 12, 3, "kernA");
  b.addSlice(dev, 32, 3, "kernB");
  using P = core::TraceBuilder::FlowPhase;
  b.addFlowEvent(host, 11, P::Start, 263, "HostToDevice", "HostToDevice263");
  b.addFlowEvent(dev, 12, P::End, 263, "HostToDevice", "HostToDevice263", true);
  b.addFlowEvent(host, 31, P::Start, "264", "HostToDevice", "HostToDevice264");
  b.addFlowEvent(dev, 32, P::End, "264", "HostToDevice", "HostToDevice264", true);
  // A text id is interned, and its pool id is a small number: names HostToDevice0..63 with the
  // text id "t" must all be kept, whichever number that pool id is.
  for (int k = 0; k < 64; ++k) b.addFlowEvent(host, 40, P::Start, "t", "HostToDevice", "HostToDevice" + std::to_string(k));
  core::Trace t;
  REQUIRE(b.finish(t, {}));
  for (int k = 0; k < 64; ++k) CHECK(t.strings.find("HostToDevice" + std::to_string(k)) != core::kInvalidIndex);
  const std::vector<std::string> expected = {"launchA->kernA |HostToDevice", "launchB->kernB HostToDevice264|HostToDevice"};
  CHECK(flows(t) == expected);
  CHECK(t.strings.find("HostToDevice263") == core::kInvalidIndex);
}
