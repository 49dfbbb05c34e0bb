// SPDX-License-Identifier: MIT
#include "core/base/gzip_stream.h"

#include "core/base/file_access.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
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

z_stream* zOf(void* p) { return static_cast<z_stream*>(p); }
/// Compressed bytes read at a time. 64 KiB: ASan's allocator serves blocks under 128 KiB (with
/// its redzones) from its size classes and maps anything larger afresh, so 256 KiB cost fuzz_gzip
/// page faults on every open (a quarter of its time). The compressed bytes are 3-15% of the text:
/// a 1 GB trace gzipped to 67 MB takes about 1,000 reads.
constexpr std::size_t kInputBytes = 64u << 10;

}  // namespace

namespace detail {
std::size_t appendUtf16AsUtf8(std::string& out, std::string_view b, bool bigEndian, bool final) {
  auto unit = [&](std::size_t i) -> char16_t {
    const auto lo = static_cast<unsigned char>(b[i]), hi = static_cast<unsigned char>(b[i + 1]);
    return bigEndian ? static_cast<char16_t>((lo << 8) | hi) : static_cast<char16_t>((hi << 8) | lo);
  };
  std::size_t i = 0;
  for (; i + 1 < b.size(); i += 2) {
    char16_t u = unit(i);
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (i + 3 < b.size()) {
        char16_t v = unit(i + 2);
        if (v >= 0xDC00 && v <= 0xDFFF) {
          appendUtf8(out, 0x10000 + ((char32_t(u) - 0xD800) << 10) + (char32_t(v) - 0xDC00));
          i += 2;
          continue;
        }
      } else if (!final) {
        return i;  // its low half may come with the next bytes
      }
    }
    if (u >= 0xD800 && u <= 0xDFFF) appendUtf8(out, 0xFFFD);
    else appendUtf8(out, u);
  }
  return final ? b.size() : i;
}
}  // namespace detail

bool isGzipFile(const std::string& path) {
  if (path.ends_with(".gz")) return true;
  std::string error;
  const int fd = openRegularFile(path, error);
  if (fd < 0) return false;
  unsigned char magic[2] = {0, 0};
  const bool gzip = ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1F && magic[1] == 0x8B;
  ::close(fd);
  return gzip;
}

std::unique_ptr<GzipStream> GzipStream::open(const std::string& path, std::string& error, std::uint64_t maxInflatedBytes) {
  const int fd = openRegularFile(path, error);
  if (fd < 0) return nullptr;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  std::unique_ptr<GzipStream> s(new GzipStream());
  s->m_fd = fd;
  s->m_path = path;
  s->m_diskSize = static_cast<std::size_t>(st.st_size);
  s->m_defaultLimit = maxInflatedBytes == 0;
  s->m_limit = maxInflatedBytes ? maxInflatedBytes : gzipInflateLimit(s->m_diskSize);
  s->m_in = std::make_unique_for_overwrite<unsigned char[]>(kInputBytes);
  s->m_z = new z_stream{};
  // 15 + 16: a gzip header and trailer (RFC 1952), up to a 32 KiB window.
  if (inflateInit2(zOf(s->m_z), 15 + 16) != Z_OK) {
    error = "cannot read gzip file " + path + ": out of memory";
    return nullptr;
  }
  s->m_zReady = true;
  return s;
}

GzipStream::~GzipStream() {
  if (m_zReady) inflateEnd(zOf(m_z));
  delete zOf(m_z);
  if (m_fd >= 0) ::close(m_fd);
}

std::uint64_t GzipStream::compressedOffset() const {
  const std::uint64_t pending = m_z ? zOf(m_z)->avail_in : 0;
  return std::min<std::uint64_t>(m_fileRead > pending ? m_fileRead - pending : 0, m_diskSize);
}

/// Reads compressed bytes until at least `bytes` are in the input buffer or the file ends
/// (a read error ends it too); what is there is kept (moved to the buffer's front). True when
/// there are at least `bytes`.
bool GzipStream::ensureInput(std::size_t bytes) {
  z_stream* z = zOf(m_z);
  if (z->avail_in >= bytes) return true;
  if (z->avail_in > 0) std::memmove(m_in.get(), z->next_in, z->avail_in);
  z->next_in = m_in.get();
  while (z->avail_in < bytes) {
    const ssize_t n = ::read(m_fd, m_in.get() + z->avail_in, kInputBytes - z->avail_in);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    m_fileRead += static_cast<std::uint64_t>(n);
    z->avail_in += static_cast<uInt>(n);
  }
  return true;
}

/// True when the next input bytes are gzip's magic 1F 8B (RFC 1952).
bool GzipStream::atGzipMagic() {
  const z_stream* z = zOf(m_z);
  return ensureInput(2) && z->next_in[0] == 0x1F && z->next_in[1] == 0x8B;
}

/// Inflates (or copies, for a file that is not gzip) up to `n` bytes into `dst`; 0 only at the
/// end of the text, whose reason it records (m_warning, m_error). The bytes decoded before a cut
/// or an error are returned first; the next call returns 0.
std::size_t GzipStream::inflateInto(char* dst, std::size_t n) {
  if (m_stopped) return 0;
  z_stream* z = zOf(m_z);
  if (m_transparent) {
    std::size_t got = std::min<std::size_t>(z->avail_in, n);
    std::memcpy(dst, z->next_in, got);
    z->next_in += got;
    z->avail_in -= static_cast<uInt>(got);
    while (got < n) {
      const ssize_t r = ::read(m_fd, dst + got, n - got);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      m_fileRead += static_cast<std::uint64_t>(r);
      got += static_cast<std::size_t>(r);
    }
    m_stopped = got == 0;
    return got;
  }
  z->next_out = reinterpret_cast<unsigned char*>(dst);
  z->avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
  const uInt want = z->avail_out;
  const auto decoded = [&] { return std::to_string(m_inflated + (want - z->avail_out)); };
  while (z->avail_out == want && !m_stopped) {
    if (!m_inMember) {
      // After a member, another one follows when the next bytes are gzip's magic; anything else
      // (zero padding, garbage) ends the text, as zlib's gzread does.
      if (!atGzipMagic()) {
        m_stopped = true;
        break;
      }
      inflateReset(z);
      m_inMember = true;
    }
    // Without more input zlib may still hold output: the rest of a match whose copy the last
    // small output buffer cut (found by fuzz_gzip: a cut file read in 1-16 byte pieces gave 12
    // bytes, in 64 KiB reads 13). So inflate runs once more on no input, and the file ends early
    // only when that gives nothing.
    const bool more = ensureInput(1);
    const uInt before = z->avail_out;
    const int ret = inflate(z, Z_NO_FLUSH);
    if (ret == Z_STREAM_END) {
      m_inMember = false;
    } else if (!more && z->avail_out == before && (ret == Z_OK || ret == Z_BUF_ERROR)) {
      m_warning = "gzip data in " + m_path + " ends early (truncated file?): " + decoded() +
                  " bytes decoded, the rest is lost (unexpected end of file)";
      m_stopped = true;
    } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
      const std::string zlib = z->msg ? std::string(z->msg) : "zlib error " + std::to_string(ret);
      if (m_inflated + (want - z->avail_out) == 0) m_error = "corrupt gzip data in " + m_path + ": " + zlib;
      else m_warning = "corrupt gzip data in " + m_path + " after " + decoded() + " bytes decoded (" + zlib + "): the rest is lost";
      m_stopped = true;
    }
  }
  return want - z->avail_out;
}

/// Up to `n` inflated bytes (before transcoding), at most up to the limit; 0 at the end, with
/// the warning or error that ended it.
std::size_t GzipStream::readInflated(char* dst, std::size_t n) {
  if (n == 0 || m_limited) return 0;
  if (!m_formatKnown) {
    m_transparent = !atGzipMagic();
    m_inMember = !m_transparent;
    m_formatKnown = true;
  }
  if (m_inflated >= m_limit) {
    // At the limit: one more byte says whether the stream goes on past it.
    char probe = 0;
    if (inflateInto(&probe, 1) == 0) return 0;  // the text ends exactly at the limit
    m_limited = m_stopped = true;
    m_warning = "gzip data in " + m_path + " inflates to more than " + std::to_string(m_inflated) + " bytes (" +
                std::to_string(m_diskSize) + " compressed; the limit is " +
                (m_defaultLimit ? std::string("256 times the compressed size, at least 64 MiB")
                                : std::string("LoadOptions::gzipMaxInflatedBytes")) +
                "): reading stopped there, the events after it are lost (a gzip bomb?)";
    return 0;
  }
  const std::size_t got = inflateInto(dst, static_cast<std::size_t>(std::min<std::uint64_t>(n, m_limit - m_inflated)));
  m_inflated += got;
  return got;
}

/// Reads the first bytes (up to 3) and sets the text's encoding from its byte order mark.
void GzipStream::detectEncoding() {
  char head[3];
  std::size_t have = 0;
  while (have < 3) {
    const std::size_t got = readInflated(head + have, 3 - have);
    if (got == 0) break;
    have += got;
  }
  const std::string_view h(head, have);
  if (h.size() >= 2 && (h.substr(0, 2) == "\xFF\xFE" || h.substr(0, 2) == "\xFE\xFF")) {
    m_mode = h[0] == '\xFE' ? Mode::Utf16Be : Mode::Utf16Le;
    m_carry.assign(h.substr(2));
  } else {
    m_mode = Mode::Utf8;
    m_pending.assign(h.substr(0, 3) == "\xEF\xBB\xBF" ? std::string_view() : h);
  }
}

std::size_t GzipStream::read(char* dst, std::size_t n) {
  if (n == 0) return 0;
  if (m_mode == Mode::Unknown) detectEncoding();
  for (;;) {
    if (m_pendingAt < m_pending.size()) {
      const std::size_t k = std::min(n, m_pending.size() - m_pendingAt);
      std::memcpy(dst, m_pending.data() + m_pendingAt, k);
      m_pendingAt += k;
      return k;
    }
    m_pending.clear();
    m_pendingAt = 0;
    if (m_mode == Mode::Utf8) return readInflated(dst, n);  // straight into the caller's buffer
    if (m_utf16Done) return 0;
    // UTF-16: transcode the next inflated bytes (about as many as asked for) into m_pending.
    const std::size_t chunk = std::clamp<std::size_t>(n, 2, 1u << 20);
    const std::size_t at = m_carry.size();
    m_carry.resize(at + chunk);
    const std::size_t got = readInflated(m_carry.data() + at, chunk);
    m_carry.resize(at + got);
    const std::size_t used = detail::appendUtf16AsUtf8(m_pending, m_carry, m_mode == Mode::Utf16Be, got == 0);
    m_carry.erase(0, used);
    m_utf16Done = got == 0;
  }
}

}  // namespace npuscope::core
