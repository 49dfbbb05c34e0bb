// SPDX-License-Identifier: MIT
#include "core/base/file_access.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

namespace npuscope::core {

namespace fs = std::filesystem;

namespace {

std::string typeSentence(mode_t mode) {
  if (S_ISDIR(mode)) return "is a folder, not a file";
  if (S_ISFIFO(mode)) return "is a FIFO (named pipe), not a file";
  if (S_ISCHR(mode)) return "is a character device, not a file";
  if (S_ISBLK(mode)) return "is a block device, not a file";
  if (S_ISSOCK(mode)) return "is a socket, not a file";
  return "is not a regular file";
}

std::string errnoSentence(const std::string& path, int err) {
  switch (err) {
    case ENAMETOOLONG:
      return "is longer than PATH_MAX (" + std::to_string(PATH_MAX) + " bytes) or has a name longer than " +
             std::to_string(NAME_MAX) + " bytes";
    case ELOOP: return "is a symbolic link loop (too many levels of symbolic links)";
    case ENOENT: {
      struct stat l {};
      if (::lstat(path.c_str(), &l) == 0 && S_ISLNK(l.st_mode)) return "is a dangling symbolic link";
      return "does not exist";
    }
    case ENOTDIR: return "does not exist (a part of the path is not a folder)";
    default: return std::string("cannot be read: ") + std::strerror(err);
  }
}

}  // namespace

std::string describeNotRegularFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errnoSentence(path, errno);
  if (!S_ISREG(st.st_mode)) return typeSentence(st.st_mode);
  if (::access(path.c_str(), R_OK) != 0) return errnoSentence(path, errno);
  return {};
}

int openRegularFile(const std::string& path, std::string& error) {
  // stat first: a device node is never opened (opening one can have effects, e.g. a tape rewind).
  if (std::string why = describeNotRegularFile(path); !why.empty()) {
    error = path + " " + why;
    return -1;
  }
  // O_NONBLOCK: if the path was swapped for a FIFO after the stat, the open returns at once.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    error = path + " " + errnoSentence(path, errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = path + " " + typeSentence(st.st_mode);
    ::close(fd);
    return -1;
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

bool readRegularFile(const std::string& path, std::string& out, std::string& error, std::size_t maxBytes) {
  out.clear();
  const int fd = openRegularFile(path, error);
  if (fd < 0) return false;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    if (static_cast<std::size_t>(st.st_size) > maxBytes) {
      error = path + " is larger than " + std::to_string(maxBytes) + " bytes";
      ::close(fd);
      return false;
    }
    out.reserve(static_cast<std::size_t>(st.st_size));
  }
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = path + ": read error: " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    if (out.size() + static_cast<std::size_t>(n) > maxBytes) {
      error = path + " is larger than " + std::to_string(maxBytes) + " bytes";
      ::close(fd);
      return false;
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return true;
}

bool isRegularFile(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

bool isDirectory(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

std::vector<fs::path> listDirectory(const fs::path& dir, std::string* error) {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) out.push_back(it->path());
  if (ec && error && error->empty()) *error = dir.string() + " cannot be listed: " + ec.message();
  return out;
}

}  // namespace npuscope::core
