// SPDX-License-Identifier: MIT
// Byte-level helpers of the reader (core/import/json/json_scan.cpp): the string repair of case 19.
#include <catch2/catch.hpp>

#include "core/import/json/json_fast.h"
#include "core/import/json/json_scan.h"

using namespace npuscope::core::detail;

#define FFFD "\xEF\xBF\xBD"

namespace {
std::string repaired(std::string_view in, SanitizeResult* result = nullptr) {
  std::string out;
  const SanitizeResult r = sanitizeJsonStrings(in, out);
  if (result) *result = r;
  return out;
}
}  // namespace

TEST_CASE("sanitizeJsonStrings: clean JSON is copied exactly") {
  const std::string clean = R"({"name":"a\"b\\c\u4e2d\ud83d\ude80","x":[1,2,{"y":"\t"}],"z":"中文 ✓"})";
  SanitizeResult r;
  CHECK(repaired(clean, &r) == clean);
  CHECK_FALSE(r.changed);
  CHECK(r.strings.empty());
}

TEST_CASE("sanitizeJsonStrings: maximal ill-formed subparts become one U+FFFD each") {
  // Unicode 15, §3.9, Table 3-8 ("U+FFFD for non-shortest form, surrogates, beyond U+10FFFF and
  // truncated sequences"): 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 -> a FFFD FFFD FFFD b FFFD c FFFD FFFD d.
  CHECK(repaired("\"a\xF1\x80\x80\xE1\x80\xC2" "b\x80" "c\x80\xBF" "d\"") ==
        "\"a" FFFD FFFD FFFD "b" FFFD "c" FFFD FFFD "d\"");
  // Table 3-9 (non-shortest forms, surrogates and beyond U+10FFFF: every byte is its own subpart).
  CHECK(repaired("\"\xC0\xAF\xE0\x80\xBF\xF0\x81\x82\x41\"") == "\"" FFFD FFFD FFFD FFFD FFFD FFFD FFFD FFFD "A\"");
  CHECK(repaired("\"\xED\xA0\x80\xF4\x90\x80\x80\"") == "\"" FFFD FFFD FFFD FFFD FFFD FFFD FFFD "\"");
  // Case 19 a's bytes.
  SanitizeResult r;
  CHECK(repaired("{\"kname\": \"k\xFF\xFE_\xC3(x\"}", &r) == "{\"kname\": \"k" FFFD FFFD "_" FFFD "(x\"}");
  CHECK(r.changed);
  REQUIRE(r.strings.size() == 1);
  CHECK(r.strings[0].offset == 12);  // the FF byte
  CHECK(r.strings[0].invalidUtf8);
  CHECK_FALSE(r.strings[0].control);
}

TEST_CASE("sanitizeJsonStrings: lone surrogate escapes, control bytes, TAB") {
  SanitizeResult r;
  CHECK(repaired(R"(["\ud800 x","\udc00","\ud800\u0041","\uDBFF\uDFFF","\\ud800"])", &r) ==
        R"(["\ufffd x","\ufffd","\ufffd\u0041","\uDBFF\uDFFF","\\ud800"])");
  CHECK(r.strings.size() == 3);
  CHECK(repaired("{\"a\":\"fn\x01hidden\",\"b\":\"tab\there\",\"c\":\"x\x1f\ny\"}", &r) ==
        "{\"a\":\"fn\\\\u0001hidden\",\"b\":\"tab\\there\",\"c\":\"x\\\\u001f\\\\u000ay\"}");
  CHECK(r.changed);
  // One entry per string with a non-TAB control byte; the TAB-only string is not reported.
  REQUIRE(r.strings.size() == 2);
  CHECK(r.strings[0].offset == 8);
  CHECK(r.strings[0].control);
  CHECK_FALSE(r.strings[0].invalidUtf8);
  CHECK(r.strings[1].offset == 38);
  // Outside strings nothing is touched (whitespace TAB/LF, and bytes a parser must reject).
  CHECK(repaired("{\t\"a\"\n:\x01 1}", &r) == "{\t\"a\"\n:\x01 1}");
  CHECK_FALSE(r.changed);
  // A TAB alone changes the text but reports nothing.
  CHECK(repaired("\"a\tb\"", &r) == "\"a\\tb\"");
  CHECK(r.changed);
  CHECK(r.strings.empty());
}

TEST_CASE("sanitizeJsonStrings: the byte map leads back to the input") {
  const std::string in = "{\"n\":\"\xFF\x01\",\"args\":{\"k\":\"\\udc00\"}}";
  std::string out;
  std::vector<std::uint32_t> map;
  (void)sanitizeJsonStrings(in, out, &map);
  REQUIRE(map.size() == out.size() + 1);
  CHECK(map.back() == in.size());
  const auto argsOut = out.find("{\"k\"");
  const auto argsIn = in.find("{\"k\"");
  REQUIRE(argsOut != std::string::npos);
  CHECK(map[argsOut] == argsIn);
  CHECK(map[out.size() - 2] == in.size() - 2);  // the args' closing brace
  // Every copied byte maps to an equal byte.
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i] == '{' || out[i] == '}' || out[i] == ':') CHECK(in[map[i]] == out[i]);
}

TEST_CASE("sanitizeJsonStrings: the backslash of an invalid escape becomes text") {
  SanitizeResult r;
  // JSON allows only \" \\ \/ \b \f \n \r \t \uXXXX (RFC 8259 §7).
  CHECK(repaired(R"(["a\qb","\u12x","ok\n","\'"])", &r) == R"(["a\\qb","\\u12x","ok\n","\\'"])");
  REQUIRE(r.strings.size() == 3);
  CHECK(r.strings[0].badEscape);
  CHECK(r.strings[0].offset == 3);
  CHECK_FALSE(r.strings[0].invalidUtf8);
  CHECK_FALSE(r.strings[0].control);
  // A backslash before a raw control byte: both repaired, one string.
  CHECK(repaired("\"x\\\x01\"", &r) == "\"x\\\\\\\\u0001\"");
  REQUIRE(r.strings.size() == 1);
  CHECK(r.strings[0].badEscape);
  CHECK(r.strings[0].control);
}

TEST_CASE("parseFlowId: decimal, hex strings, whitespace, overflow and text, by hand") {
  const auto value = [](std::string_view tok, bool str) { return parseFlowId(tok, str).value; };
  CHECK(value("263", false) == 263u);
  CHECK(value("263", true) == 263u);
  CHECK(value("0263", true) == 263u);  // leading zeros read as decimal
  CHECK(value("0", false) == 0u);
  CHECK(value("9999999999999999999", false) == 9999999999999999999ull);   // 19 digits
  CHECK(value("18446744073709551615", true) == 18446744073709551615ull);  // 20 digits: 2^64 - 1
  CHECK_FALSE(value("18446744073709551616", true));                      // 2^64
  CHECK(parseFlowId("18446744073709551616", true).overflow);
  CHECK(value("\"263\"", true) == 263u);  // a token with its quotes
  CHECK(value("263 ", false) == 263u);    // trailing whitespace
  CHECK(value("0x107", true) == 263u);    // hex only in a string
  CHECK_FALSE(value("0x107", false));
  CHECK_FALSE(value("26a", true));
  CHECK_FALSE(value("2.5", false));
  CHECK_FALSE(value("-1", false));
  CHECK_FALSE(value("", true));
}

TEST_CASE("eightDigits and parseEightDigits: every byte at every place, against a scalar reading") {
  // Seven '5's and one byte b at place i: eight digits exactly when b is '0'..'9', and then the
  // value is the decimal number the digits spell.
  for (int i = 0; i < 8; ++i)
    for (int b = 0; b < 256; ++b) {
      char text[8];
      for (char& c : text) c = '5';
      text[i] = static_cast<char>(b);
      const bool digit = b >= '0' && b <= '9';
      INFO("place " << i << " byte " << b);
      REQUIRE(eightDigits(text) == digit);
      if (!digit) continue;
      std::uint32_t want = 0;
      for (char c : text) want = want * 10 + static_cast<std::uint32_t>(c - '0');
      REQUIRE(parseEightDigits(text) == want);
    }
  // Edges: all zeros, all nines, and a run that a carry between bytes would spoil (0xFA + 6).
  CHECK(parseEightDigits("00000000") == 0u);
  CHECK(parseEightDigits("99999999") == 99999999u);
  CHECK(parseEightDigits("12345678") == 12345678u);
  CHECK_FALSE(eightDigits("\xFA" "1234567"));
  CHECK_FALSE(eightDigits("1234567\xFA"));
  CHECK_FALSE(eightDigits("1234:678"));
  CHECK_FALSE(eightDigits("1234/678"));
}

TEST_CASE("parseTimeFast: the value parseMicrosToNs gives, or a decline, on generated times") {
  // Integer parts of 1-20 digits, 0-5 decimals (or a bare point), a sign, quoted or not, and
  // what follows. The fast path must read exactly the common forms: 1-16 digits (value <=
  // (INT64_MAX - 999) / 1000), none or 1-3 decimals, then the closing quote, or , } or white
  // space unquoted; anything else declined (the general path reads it).
  std::uint64_t seed = 12345;
  const auto next = [&] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>(seed >> 33);
  };
  std::size_t accepted = 0, declined = 0;
  for (int n = 1; n <= 20; ++n)
    for (int dec = -1; dec <= 5; ++dec)  // -1: no point; 0: a point without digits
      for (int form = 0; form < 12; ++form) {
        const bool quoted = form % 2 == 1;
        const bool neg = form % 3 == 0;
        std::string digits;
        for (int i = 0; i < n; ++i) digits += static_cast<char>('0' + (form == 4 ? 9 : next() % 10));
        std::string frac;
        for (int i = 0; i < dec; ++i) frac += static_cast<char>('0' + next() % 10);
        std::string token = (quoted ? "\"" : "") + std::string(neg ? "-" : "") + digits + (dec >= 0 ? "." + frac : "");
        if (quoted) token += "\"";
        const char* const tails[] = {",", "}", " ", "\n", "x", ""};
        const std::string tail = tails[form % 6];
        const std::string text = token + tail;
        npuscope::core::TimeNs out = 0;
        const char* end = parseTimeFast(text.data(), text.data() + text.size(), out);
        std::uint64_t intValue = 0;
        bool small = n <= 16;
        if (small)
          for (char c : digits) intValue = intValue * 10 + static_cast<std::uint64_t>(c - '0');
        const bool tailOk = quoted ? true : (tail == "," || tail == "}" || tail == " " || tail == "\n");
        const bool common = small && intValue <= (INT64_MAX - 999) / 1000 && (dec == -1 || (dec >= 1 && dec <= 3)) &&
                            tailOk && !(!quoted && tail.empty());
        INFO("text [" << text << "]");
        REQUIRE((end != nullptr) == common);
        if (!end) {
          ++declined;
          continue;
        }
        ++accepted;
        CHECK(end == text.data() + token.size());
        const auto general = parseMicrosToNs(token);
        REQUIRE(general.has_value());
        CHECK(out == *general);
      }
  CHECK(accepted > 300);  // both outcomes really happen
  CHECK(declined > 300);
}

TEST_CASE("sanitizeJsonStrings: plain ASCII text longer than a 32-byte block is copied with an identity map") {
  // The fast path (no byte below 0x20, none from 0x80, no backslash) must give what the byte loop
  // gives: the same text, `changed` false, the map 0..n (n: the end). A special byte in the last,
  // partial block or in the second full block takes the byte loop and is still repaired.
  const std::string plain = R"({"Model Id": 4294967295, "Task Type": "MIX_AIC", "Physic Stream Id": 2, "Task Id": 75787})";
  REQUIRE(plain.size() > 64);
  std::string out;
  std::vector<std::uint32_t> map;
  const SanitizeResult r = sanitizeJsonStrings(plain, out, &map);
  CHECK(out == plain);
  CHECK_FALSE(r.changed);
  REQUIRE(map.size() == plain.size() + 1);
  for (std::size_t i = 0; i < map.size(); ++i) CHECK(map[i] == i);
  SanitizeResult late, mid;
  CHECK(repaired(plain.substr(0, plain.size() - 2) + "\"\x01\"}", &late).find("\\u0001") != std::string::npos);
  CHECK(late.changed);
  std::string second = plain;
  second[40] = '\x7f' + 1;  // 0x80 inside "Task Type"'s key: invalid UTF-8
  CHECK(repaired(second, &mid).find(FFFD) != std::string::npos);
  CHECK(mid.changed);
}
