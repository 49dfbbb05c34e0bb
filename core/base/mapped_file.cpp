// SPDX-License-Identifier: MIT
#include "core/base/mapped_file.h"

#include "core/base/file_access.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace npuscope::core {

namespace {

// ---- The SIGBUS guard of mapped files (see MappedFile's docstring). A fixed table, so the
// handler reads it without locks or allocation: a slot is claimed by a compare-exchange on
// `begin`, its size is written before its begin is published, and it is freed before munmap.
struct GuardSlot {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::size_t> size{0};
  std::atomic<std::uintptr_t> lostFrom{0};  ///< first address replaced by zeros, 0 when none
};
constexpr int kGuardSlots = 4096;
GuardSlot g_guard[kGuardSlots];
struct sigaction g_previousSigbus {};
std::uintptr_t g_pageSize = 4096;

void onSigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (GuardSlot& s : g_guard) {
    const std::uintptr_t b = s.begin.load(std::memory_order_acquire);
    if (b == 0) continue;
    const std::size_t n = s.size.load(std::memory_order_acquire);
    if (addr < b || addr - b >= n) continue;
    const std::uintptr_t from = addr & ~(g_pageSize - 1);
    // mmap is a plain system call on Linux (not on POSIX's async-signal-safe list, but it takes
    // no lock in glibc); the pages past the file's new end are gone for every mapping anyway.
    void* p = ::mmap(reinterpret_cast<void*>(from), b + n - from, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) break;
    std::uintptr_t cur = s.lostFrom.load(std::memory_order_relaxed);
    while ((cur == 0 || from < cur) && !s.lostFrom.compare_exchange_weak(cur, from)) {
    }
    return;  // the faulting read runs again and reads zeros
  }
  // Not a registered mapping: whatever would have happened without this handler.
  if ((g_previousSigbus.sa_flags & SA_SIGINFO) && g_previousSigbus.sa_sigaction) {
    g_previousSigbus.sa_sigaction(sig, info, context);
  } else if (g_previousSigbus.sa_handler != SIG_DFL && g_previousSigbus.sa_handler != SIG_IGN) {
    g_previousSigbus.sa_handler(sig);
  } else {
    ::signal(SIGBUS, SIG_DFL);  // the fault repeats on return and ends the process as before
  }
}

void installSigbusGuard() {
  static std::once_flag once;
  std::call_once(once, [] {
    const long page = ::sysconf(_SC_PAGESIZE);
    if (page > 0) g_pageSize = static_cast<std::uintptr_t>(page);
    struct sigaction sa {};
    sa.sa_sigaction = onSigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previousSigbus);
  });
}

/// Registers [p, p + n) with the handler; the slot index, or -1 when the table is full.
int guardMapping(const void* p, std::size_t n) {
  installSigbusGuard();
  for (int i = 0; i < kGuardSlots; ++i) {
    std::uintptr_t expected = 0;
    // Claim with a placeholder so the handler never sees the slot half-written.
    if (!g_guard[i].begin.compare_exchange_strong(expected, 1)) continue;
    g_guard[i].size.store(0, std::memory_order_release);
    g_guard[i].lostFrom.store(0, std::memory_order_release);
    g_guard[i].size.store(n, std::memory_order_release);
    g_guard[i].begin.store(reinterpret_cast<std::uintptr_t>(p), std::memory_order_release);
    return i;
  }
  return -1;
}

void unguardMapping(int slot) {
  if (slot < 0) return;
  g_guard[slot].size.store(0, std::memory_order_release);
  g_guard[slot].begin.store(0, std::memory_order_release);
}

void appendUtf8(std::string& out, char32_t c) {
  if (c < 0x80) out += static_cast<char>(c);
  else if (c < 0x800) { out += static_cast<char>(0xC0 | (c >> 6)); out += static_cast<char>(0x80 | (c & 0x3F)); }
  else if (c < 0x10000) { out += static_cast<char>(0xE0 | (c >> 12)); out += static_cast<char>(0x80 | ((c >> 6) & 0x3F)); out += static_cast<char>(0x80 | (c & 0x3F)); }
  else { out += static_cast<char>(0xF0 | (c >> 18)); out += static_cast<char>(0x80 | ((c >> 12) & 0x3F)); out += static_cast<char>(0x80 | ((c >> 6) & 0x3F)); out += static_cast<char>(0x80 | (c & 0x3F)); }
}

}  // namespace

namespace detail {
std::string utf16ToUtf8(std::string_view b, bool bigEndian) {
  std::string out;
  out.reserve(b.size() / 2);
  auto unit = [&](std::size_t i) -> char16_t {
    const auto lo = static_cast<unsigned char>(b[i]), hi = static_cast<unsigned char>(b[i + 1]);
    return bigEndian ? static_cast<char16_t>((lo << 8) | hi) : static_cast<char16_t>((hi << 8) | lo);
  };
  for (std::size_t i = 0; i + 1 < b.size(); i += 2) {
    char16_t u = unit(i);
    if (u >= 0xD800 && u <= 0xDBFF && i + 3 < b.size()) {
      char16_t v = unit(i + 2);
      if (v >= 0xDC00 && v <= 0xDFFF) {
        appendUtf8(out, 0x10000 + ((char32_t(u) - 0xD800) << 10) + (char32_t(v) - 0xDC00));
        i += 2;
        continue;
      }
    }
    if (u >= 0xD800 && u <= 0xDFFF) appendUtf8(out, 0xFFFD);
    else appendUtf8(out, u);
  }
  return out;
}
}  // namespace detail

std::shared_ptr<MappedFile> MappedFile::fromMemory(std::string_view bytes) {
  std::shared_ptr<MappedFile> f(new MappedFile());
  f->m_owned.assign(bytes);
  f->m_data = f->m_owned.data();
  f->m_size = f->m_owned.size();
  f->m_diskSize = bytes.size();
  return f;
}

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path, std::string& error,
                                             std::uint64_t maxInflatedBytes) {
  std::shared_ptr<MappedFile> f(new MappedFile());
  // Only a regular file is opened, without blocking (a FIFO named trace_view.json used to block
  // the load forever); the error says what the path is.
  const int fd = openRegularFile(path, error);
  if (fd < 0) return nullptr;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  f->m_diskSize = static_cast<std::size_t>(st.st_size);
  // gzip by its magic bytes (RFC 1952: 1F 8B), whatever the name: a trace.json that is really
  // gzip would otherwise be parsed as JSON and fail with raw binary bytes in the message.
  unsigned char magic[2] = {0, 0};
  const bool gzipMagic = ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1F && magic[1] == 0x8B;
  if (gzipMagic || path.ends_with(".gz")) {
    gzFile gz = gzdopen(fd, "rb");
    if (!gz) {
      ::close(fd);
      error = "cannot read gzip file " + path;
      return nullptr;
    }
    gzbuffer(gz, 1 << 20);
    // Inflate at most `limit` bytes (a gzip bomb would otherwise take all memory): read one
    // byte past it to know whether the stream goes on.
    const std::uint64_t limit = maxInflatedBytes ? maxInflatedBytes : gzipInflateLimit(f->m_diskSize);
    const std::size_t hardCap = static_cast<std::size_t>(std::min<std::uint64_t>(limit, SIZE_MAX - 1)) + 1;
    std::string out;
    out.resize(std::min<std::size_t>(std::max<std::size_t>(f->m_diskSize * 8, 1 << 16), hardCap));
    std::size_t used = 0;
    for (;;) {
      if (used == out.size()) {
        if (out.size() >= hardCap) break;
        out.resize(std::min(out.size() * 2, hardCap));
      }
      const int n = gzread(gz, out.data() + used, static_cast<unsigned>(std::min<std::size_t>(out.size() - used, 1u << 30)));
      if (n < 0) {
        int errnum = 0;
        error = "corrupt gzip data in " + path + ": " + gzerror(gz, &errnum);
        gzclose(gz);
        return nullptr;
      }
      if (n == 0) break;
      used += static_cast<std::size_t>(n);
    }
    if (used >= hardCap) {
      used = hardCap - 1;
      f->m_inflateLimited = true;
      f->m_warning = "gzip data in " + path + " inflates to more than " + std::to_string(used) + " bytes (" +
                     std::to_string(f->m_diskSize) + " compressed; the limit is " +
                     (maxInflatedBytes ? std::string("LoadOptions::gzipMaxInflatedBytes")
                                       : std::string("256 times the compressed size, at least 64 MiB")) +
                     "): reading stopped there, the events after it are lost (a gzip bomb?)";
    } else {
      // gzread reports a stream cut short (no trailer) as end of file with Z_BUF_ERROR set: keep
      // what was decoded and say so (the JSON reader then reads the events before the cut).
      int errnum = Z_OK;
      const char* what = gzerror(gz, &errnum);
      if (errnum == Z_BUF_ERROR)
        f->m_warning = "gzip data in " + path + " ends early (truncated file?): " + std::to_string(used) +
                       " bytes decoded, the rest is lost (" + what + ")";
    }
    gzclose(gz);
    out.resize(used);
    f->m_owned = std::move(out);
  } else if (f->m_diskSize > 0) {
    // No MAP_POPULATE: it faults the whole file in before returning — seconds that cannot be
    // cancelled and show no progress on a multi-GB trace, and for a file near the RAM size it
    // evicts its own first pages again. The parse workers fault their ranges in parallel (the
    // reader prefetches ahead), at the same CPU cost on a cached 300 MB file.
    // The descriptor stays open: the reader copies the events through pread (ReadSource) and
    // touches the mapping only for args read on demand.
    void* p = ::mmap(nullptr, f->m_diskSize, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      error = "cannot map " + path + ": " + std::strerror(errno);
      ::close(fd);
      return nullptr;
    }
    f->m_guardSlot = guardMapping(p, f->m_diskSize);
    if (f->m_guardSlot >= 0) {
      f->m_map = p;
      f->m_mapSize = f->m_diskSize;
      f->m_fd = fd;
    } else {
      // More live mappings than the handler's table holds: read this file into memory instead.
      ::munmap(p, f->m_diskSize);
      std::string owned(f->m_diskSize, '\0');
      std::size_t got = 0;
      while (got < owned.size()) {
        const ssize_t n = ::pread(fd, owned.data() + got, owned.size() - got, static_cast<off_t>(got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
      }
      owned.resize(got);
      ::close(fd);
      f->m_owned = std::move(owned);
    }
  } else {
    ::close(fd);
  }
  std::string_view b = f->m_map ? std::string_view(static_cast<const char*>(f->m_map), f->m_mapSize)
                                : std::string_view(f->m_owned);
  // Encoding: UTF-16 with BOM is transcoded; a UTF-8 BOM is skipped.
  if (b.size() >= 2 && ((b[0] == '\xFF' && b[1] == '\xFE') || (b[0] == '\xFE' && b[1] == '\xFF'))) {
    std::string u8 = detail::utf16ToUtf8(b.substr(2), b[0] == '\xFE');
    if (f->m_map) {
      unguardMapping(f->m_guardSlot);
      f->m_guardSlot = -1;
      ::munmap(f->m_map, f->m_mapSize);
      f->m_map = nullptr;
    }
    if (f->m_fd >= 0) { ::close(f->m_fd); f->m_fd = -1; }
    f->m_owned = std::move(u8);
    f->m_utf16 = true;
    b = f->m_owned;
  } else if (b.size() >= 3 && b.substr(0, 3) == "\xEF\xBB\xBF") {
    b.remove_prefix(3);
    f->m_fileOffset = 3;
  }
  f->m_data = b.data();
  f->m_size = b.size();
  f->m_path = path;
  return f;
}

std::size_t MappedFile::validSize() const {
  if (!m_map) return m_size;
  std::size_t valid = m_size;
  struct stat st {};
  if (m_fd >= 0 && ::fstat(m_fd, &st) == 0 && static_cast<std::size_t>(st.st_size) < m_mapSize)
    valid = std::min(valid, static_cast<std::size_t>(st.st_size) > m_fileOffset ? static_cast<std::size_t>(st.st_size) - m_fileOffset : 0);
  if (m_guardSlot >= 0) {
    const std::uintptr_t lost = g_guard[m_guardSlot].lostFrom.load(std::memory_order_acquire);
    const auto begin = reinterpret_cast<std::uintptr_t>(m_data);
    if (lost != 0) valid = std::min(valid, lost > begin ? static_cast<std::size_t>(lost - begin) : 0);
  }
  return valid;
}

std::string MappedFile::shrinkMessage() const {
  if (!m_map) return {};
  const std::size_t valid = validSize();
  if (valid >= m_size) return {};
  const std::string now = std::to_string(valid + m_fileOffset);
  return m_path + " shrank from " + std::to_string(m_mapSize) + " to " + now +
         " bytes after it was opened (truncated or rewritten while npuscope read it): the bytes past " + now +
         " read as zeros";
}

MappedFile::~MappedFile() {
  if (m_map) {
    unguardMapping(m_guardSlot);
    ::munmap(m_map, m_mapSize);
  }
  if (m_fd >= 0) ::close(m_fd);
}

}  // namespace npuscope::core
