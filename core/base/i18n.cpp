// SPDX-License-Identifier: MIT
#include "core/base/i18n.h"

#include <atomic>

namespace npuscope::core::i18n {

namespace {
std::atomic<TranslateFn>& slot() noexcept {
  static std::atomic<TranslateFn> fn{nullptr};
  return fn;
}
}  // namespace

void setTranslator(TranslateFn fn) noexcept { slot().store(fn, std::memory_order_release); }

TranslateFn translator() noexcept { return slot().load(std::memory_order_acquire); }

std::string lookup(const char* context, const char* source) noexcept {
  if (!source) return {};
  try {
    const TranslateFn fn = translator();
    if (fn && context) {
      std::string t = fn(context, source);
      if (!t.empty()) return t;
    }
    return std::string(source);
  } catch (...) {  // a TranslateFn that throws, or bad_alloc: the source, else nothing
    try {
      return std::string(source);
    } catch (...) {
      return {};
    }
  }
}

std::string format(std::string_view tmpl, std::initializer_list<std::string_view> args) noexcept {
  std::string out;
  try {
    out.reserve(tmpl.size() + 16 * args.size());
    for (std::size_t i = 0; i < tmpl.size(); ++i) {
      const char c = tmpl[i];
      if (c != '%' || i + 1 == tmpl.size()) {
        out += c;
        continue;
      }
      const char n = tmpl[i + 1];
      if (n == '%') {
        out += '%';
        ++i;
      } else if (n >= '1' && n <= '9' && static_cast<std::size_t>(n - '1') < args.size()) {
        out += *(args.begin() + (n - '1'));
        ++i;
      } else {
        out += c;
      }
    }
  } catch (...) {  // bad_alloc / length_error: what was built so far
  }
  return out;
}

}  // namespace npuscope::core::i18n
