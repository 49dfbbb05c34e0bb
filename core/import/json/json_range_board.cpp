// SPDX-License-Identifier: MIT
#include "core/import/json/json_range_board.h"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace npuscope::core::detail {

RangeBoard::RangeBoard(std::vector<Range> initial, std::size_t minCut, std::size_t fileSize,
                       std::function<std::size_t(std::size_t, std::size_t)> cut)
    : m_minCut(std::max<std::size_t>(minCut, 1)), m_fileSize(fileSize), m_cut(std::move(cut)) {
  m_parts.reserve(initial.size());
  for (const Range& r : initial) m_parts.push_back({r, r.begin, true, Answer::None, 0});
}

std::size_t RangeBoard::left(const Part& p) const {
  const std::size_t end = std::min(p.range.limit, m_fileSize);
  return end > p.pos ? end - p.pos : 0;
}

std::size_t RangeBoard::step(unsigned k, std::size_t pos) {
  const std::lock_guard lock(m_mutex);
  Part& p = m_parts[k];
  p.pos = std::max(p.pos, pos);
  if (p.answer != Answer::Pending) return p.range.limit;
  p.answer = Answer::Declined;
  const std::size_t rest = left(p);
  if (rest >= 2 * m_minCut) {
    const std::size_t at = m_cut(p.pos + rest / 2, p.range.limit);
    if (at > p.pos && at < std::min(p.range.limit, m_fileSize)) {
      const Range back{at, p.range.limit};
      p.range.limit = at;
      p.answer = Answer::Given;
      p.given = static_cast<unsigned>(m_parts.size());
      m_parts.push_back({back, back.begin, true, Answer::None, 0});  // may move `p`: not used below
    }
  }
  m_answered.notify_all();
  return m_parts[k].range.limit;
}

void RangeBoard::finished(unsigned k) {
  const std::lock_guard lock(m_mutex);
  Part& p = m_parts[k];
  p.active = false;
  if (p.answer == Answer::Pending) {
    p.answer = Answer::Declined;
    m_answered.notify_all();
  }
}

std::optional<unsigned> RangeBoard::steal(const std::stop_token& stop) {
  std::unique_lock lock(m_mutex);
  for (;;) {
    if (stop.stop_requested()) return std::nullopt;
    // The part with the most bytes left that nobody is waiting on yet.
    std::size_t best = m_parts.size();
    for (std::size_t i = 0; i < m_parts.size(); ++i) {
      const Part& p = m_parts[i];
      if (!p.active || p.answer == Answer::Pending || left(p) < 2 * m_minCut) continue;
      if (best == m_parts.size() || left(p) > left(m_parts[best])) best = i;
    }
    if (best == m_parts.size()) return std::nullopt;
    m_parts[best].answer = Answer::Pending;
    // Its worker answers at its next step or when it ends; the stop is looked at meanwhile.
    while (m_parts[best].answer == Answer::Pending) {
      m_answered.wait_for(lock, std::chrono::milliseconds(20));
      if (stop.stop_requested()) {
        if (m_parts[best].answer == Answer::Pending) m_parts[best].answer = Answer::None;
        return std::nullopt;
      }
    }
    if (m_parts[best].answer == Answer::Given) {
      m_parts[best].answer = Answer::None;
      return m_parts[best].given;
    }
    m_parts[best].answer = Answer::None;  // declined: too little left by then; look again
  }
}

RangeBoard::Range RangeBoard::range(unsigned k) const {
  const std::lock_guard lock(m_mutex);
  return m_parts[k].range;
}

std::size_t RangeBoard::parts() const {
  const std::lock_guard lock(m_mutex);
  return m_parts.size();
}

std::vector<unsigned> RangeBoard::fileOrder() const {
  const std::lock_guard lock(m_mutex);
  std::vector<unsigned> order(m_parts.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return m_parts[a].range.begin < m_parts[b].range.begin; });
  return order;
}

}  // namespace npuscope::core::detail
