// SPDX-License-Identifier: MIT
// core/base/i18n: the positional formatter, the translation hook, and the verdict of a real
// capture through a fake translator (numbers intact, English without one).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "core/analysis/analysis.h"
#include "core/base/i18n.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using core::i18n::format;

namespace {

// A fake translation: a few of advice.cpp's sources, by hand, into "Chinese" (the real words do
// not matter; that the sentence is rebuilt from them with the numbers in place does).
std::string fakeZh(const char* context, const char* source) {
  struct Entry {
    const char* context;
    const char* source;
    const char* translation;
  };
  static const Entry kTable[] = {
      {"npuscope::core::Verdict", "Communication bound", "通信瓶颈"},
      {"npuscope::core::Verdict", "communication that is not hidden behind computation takes %1 of the time; %2.",
       "未被计算掩盖的通信占 %1；%2。"},
      {"npuscope::core::Verdict", "Computing %1, Communication (Not Overlapped) %2, Free %3 of %4",
       "共 %4：计算 %1，未掩盖通信 %2，空闲 %3"},
  };
  for (const Entry& e : kTable)
    if (std::strcmp(e.context, context) == 0 && std::strcmp(e.source, source) == 0) return e.translation;
  return source;
}

// Installs a translator for one test and removes it again, whatever happens.
struct TranslatorScope {
  explicit TranslatorScope(core::i18n::TranslateFn fn) { core::i18n::setTranslator(fn); }
  ~TranslatorScope() { core::i18n::setTranslator(nullptr); }
  TranslatorScope(const TranslatorScope&) = delete;
  TranslatorScope& operator=(const TranslatorScope&) = delete;
};

std::string throwingTranslator(const char*, const char*) { throw 42; }
std::string emptyTranslator(const char*, const char*) { return {}; }

}  // namespace

TEST_CASE("i18n format fills %1..%9 in any order, once", "[i18n]") {
  CHECK(format("%2 of %1", {"a", "b"}) == "b of a");
  CHECK(format("%1%2%1", {"x", "y"}) == "xyx");
  // Argument text is not substituted again.
  CHECK(format("%1 and %2", {"%2", "b"}) == "%2 and b");
  // "%%" is one percent sign; a lone % or a % before a letter stays.
  CHECK(format("~10%% mark", {}) == "~10% mark");
  CHECK(format("100% sure %x", {}) == "100% sure %x");
  CHECK(format("ends with %", {}) == "ends with %");
  // A %N without its argument stays as written.
  CHECK(format("%1 %3", {"a", "b"}) == "a %3");
  CHECK(format("%9", {"1", "2", "3", "4", "5", "6", "7", "8", "nine"}) == "nine");
  CHECK(format("", {"a"}).empty());
}

TEST_CASE("i18n lookup gives the source without a translator, from a failing one, or for an empty answer", "[i18n]") {
  core::i18n::setTranslator(nullptr);
  CHECK(core::npuTr("ctx", "Compute bound") == "Compute bound");
  CHECK(core::i18n::lookup("ctx", nullptr).empty());
  {
    TranslatorScope scope(&throwingTranslator);
    CHECK(core::npuTr("ctx", "Compute bound") == "Compute bound");
  }
  {
    TranslatorScope scope(&emptyTranslator);
    CHECK(core::npuTr("ctx", "Compute bound") == "Compute bound");
  }
  {
    TranslatorScope scope(&fakeZh);
    CHECK(core::npuTr("npuscope::core::Verdict", "Communication bound") == "通信瓶颈");
    CHECK(core::npuTr("other context", "Communication bound") == "Communication bound");
  }
  CHECK(core::i18n::translator() == nullptr);
}

TEST_CASE("i18n the verdict of a capture comes out translated with its numbers intact, English without a translator",
          "[i18n]") {
  // rank 0 of the 910B Level1 capture. Its step_trace_time.csv (the profiler's own figures, one
  // step): Computing 8873.756 us, Communication(Not Overlapped) 101963.203 us, Free 25744.05 us;
  // E2E = their sum 136581.009 us -> "136.581 ms"; shares (python3 on those numbers) 6.497%,
  // 74.654%, 18.849% -> "6.5%", "74.7%", "18.8%": communication bound.
  const auto t = test::load(test::shared(
      "corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"));
  const std::string english =
      "Communication bound: communication that is not hidden behind computation takes 74.7% of the time; Computing "
      "6.5%, Communication (Not Overlapped) 74.7%, Free 18.8% of 136.581 ms.";
  {
    core::i18n::setTranslator(nullptr);
    const core::RankAnalysis a = core::analyzeRank(*t, nullptr, nullptr);
    CHECK(a.verdict.dominant == "communication");
    CHECK(a.verdict.headline == "Communication bound");
    CHECK(a.verdict.summary == english);
  }
  {
    TranslatorScope scope(&fakeZh);
    const core::RankAnalysis a = core::analyzeRank(*t, nullptr, nullptr);
    CHECK(a.verdict.dominant == "communication");  // ids stay English
    CHECK(a.verdict.headline == "通信瓶颈");
    CHECK(a.verdict.summary == "通信瓶颈: 未被计算掩盖的通信占 74.7%；共 136.581 ms：计算 6.5%，未掩盖通信 74.7%，空闲 18.8%。");
  }
  // Removed again: English, byte for byte.
  const core::RankAnalysis again = core::analyzeRank(*t, nullptr, nullptr);
  CHECK(again.verdict.summary == english);
}
