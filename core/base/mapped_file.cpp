// SPDX-License-Identifier: MIT
#include "core/base/mapped_file.h"

#include "core/base/file_access.h"
#include "core/base/gzip_stream.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

}  // namespace

namespace detail {
std::string utf16ToUtf8(std::string_view b, bool bigEndian) {
  std::string out;
  out.reserve(b.size() / 2);
  appendUtf16AsUtf8(out, b, bigEndian, true);
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

std::shared_ptr<MappedFile> MappedFile::fromCopiedArgs(detail::RecordBuffer<char>&& args, std::size_t diskSize,
                                                      const std::string& path) {
  std::shared_ptr<MappedFile> f(new MappedFile());
  f->m_args = std::move(args);
  f->m_data = f->m_args.data();
  f->m_size = f->m_args.size();
  f->m_diskSize = diskSize;
  f->m_path = path;
  return f;
}

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path, std::string& error) {
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
  // A gzip file is streamed (GzipStream, loadTrace), never inflated whole here: its bytes would be
  // parsed as JSON and fail with raw binary bytes in the message.
  unsigned char magic[2] = {0, 0};
  if (::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1F && magic[1] == 0x8B) {
    ::close(fd);
    error = path + " is gzip-compressed: it is read by GzipStream, not mapped";
    return nullptr;
  }
  if (f->m_diskSize > 0) {
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

std::size_t MappedFile::heapBytes() const {
  return (m_owned.empty() ? 0 : m_owned.capacity()) + m_args.capacity();
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
