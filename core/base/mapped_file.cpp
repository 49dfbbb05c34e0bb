// SPDX-License-Identifier: MIT
#include "core/base/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

namespace npuscope::core {

namespace {

void appendUtf8(std::string& out, char32_t c) {
  if (c < 0x80) out += static_cast<char>(c);
  else if (c < 0x800) { out += static_cast<char>(0xC0 | (c >> 6)); out += static_cast<char>(0x80 | (c & 0x3F)); }
  else if (c < 0x10000) { out += static_cast<char>(0xE0 | (c >> 12)); out += static_cast<char>(0x80 | ((c >> 6) & 0x3F)); out += static_cast<char>(0x80 | (c & 0x3F)); }
  else { out += static_cast<char>(0xF0 | (c >> 18)); out += static_cast<char>(0x80 | ((c >> 12) & 0x3F)); out += static_cast<char>(0x80 | ((c >> 6) & 0x3F)); out += static_cast<char>(0x80 | (c & 0x3F)); }
}

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
}  // namespace

std::shared_ptr<MappedFile> MappedFile::fromMemory(std::string_view bytes) {
  std::shared_ptr<MappedFile> f(new MappedFile());
  f->m_owned.assign(bytes);
  f->m_data = f->m_owned.data();
  f->m_size = f->m_owned.size();
  f->m_diskSize = bytes.size();
  return f;
}

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path, std::string& error) {
  std::shared_ptr<MappedFile> f(new MappedFile());
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = path + " is not a regular file";
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
    std::string out;
    std::size_t cap = std::max<std::size_t>(f->m_diskSize * 8, 1 << 16);
    out.resize(cap);
    std::size_t used = 0;
    for (;;) {
      if (used == out.size()) out.resize(out.size() * 2);
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
    // gzread reports a stream cut short (no trailer) as end of file with Z_BUF_ERROR set: keep
    // what was decoded and say so (the JSON reader then reads the events before the cut).
    int errnum = Z_OK;
    const char* what = gzerror(gz, &errnum);
    if (errnum == Z_BUF_ERROR)
      f->m_warning = "gzip data in " + path + " ends early (truncated file?): " + std::to_string(used) +
                     " bytes decoded, the rest is lost (" + what + ")";
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
    f->m_map = p;
    f->m_mapSize = f->m_diskSize;
    f->m_fd = fd;
  } else {
    ::close(fd);
  }
  std::string_view b = f->m_map ? std::string_view(static_cast<const char*>(f->m_map), f->m_mapSize)
                                : std::string_view(f->m_owned);
  // Encoding: UTF-16 with BOM is transcoded; a UTF-8 BOM is skipped.
  if (b.size() >= 2 && ((b[0] == '\xFF' && b[1] == '\xFE') || (b[0] == '\xFE' && b[1] == '\xFF'))) {
    std::string u8 = utf16ToUtf8(b.substr(2), b[0] == '\xFE');
    if (f->m_map) { ::munmap(f->m_map, f->m_mapSize); f->m_map = nullptr; }
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
  return f;
}

MappedFile::~MappedFile() {
  if (m_map) ::munmap(m_map, m_mapSize);
  if (m_fd >= 0) ::close(m_fd);
}

}  // namespace npuscope::core
