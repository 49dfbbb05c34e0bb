// SPDX-License-Identifier: MIT
#pragma once
// Non-throwing, non-blocking access to the files and folders of a profiling path (issue 15,
// items 1, 3 and 8). A profiling folder comes from crashed jobs, half-copied trees and network
// shares: it may hold symlink loops, dangling links, FIFOs or device nodes named like profiler
// files, unreadable folders and paths longer than PATH_MAX. Nothing here throws, blocks on a
// FIFO or opens anything but a regular file, and every failure is a sentence for the user that
// names the path and says what it is.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace npuscope::core {

/// What is at `path` (symlinks followed) when it is not a readable regular file, as the end of a
/// sentence: "is a folder, not a file", "is a FIFO (named pipe), not a file", "is a character
/// device, not a file", "does not exist", "is a dangling symbolic link", "is a symbolic link loop",
/// "is longer than PATH_MAX (4096 bytes)", "cannot be read: Permission denied", ... Empty when
/// `path` is a regular file that can be opened for reading. Uses stat/lstat/access only: never
/// opens the path, so a FIFO or device is never touched.
[[nodiscard]] std::string describeNotRegularFile(const std::string& path);

/// Opens `path` read-only for reading its bytes: only a regular file is opened, and the open
/// itself never blocks (O_NONBLOCK, cleared once the descriptor is known to be a regular file;
/// O_NOCTTY, O_CLOEXEC). Returns the descriptor, or -1 with `error` set to
/// "<path> <describeNotRegularFile>" (e.g. "/p/trace_view.json is a FIFO (named pipe), not a file").
[[nodiscard]] int openRegularFile(const std::string& path, std::string& error);

/// Reads the whole regular file `path` into `out` (openRegularFile, then read until EOF).
/// False with `error` set as openRegularFile does, or "<path>: read error: ...", or
/// "<path> is larger than <maxBytes> bytes" when it holds more than `maxBytes`.
[[nodiscard]] bool readRegularFile(const std::string& path, std::string& out, std::string& error,
                                   std::size_t maxBytes = std::size_t(1) << 32);

/// True when `path` is a regular file (symlinks followed); false on any error. Never throws.
[[nodiscard]] bool isRegularFile(const std::filesystem::path& path);
/// True when `path` is a folder (symlinks followed); false on any error (a symlink loop, a
/// dangling link, no permission). Never throws.
[[nodiscard]] bool isDirectory(const std::filesystem::path& path);

/// The entries of folder `dir` (not recursive, in directory order), read with the error_code
/// overloads so that an unreadable folder, an entry that vanishes or a read error mid-listing
/// ends the listing instead of throwing. When `error` is given it receives a sentence for the
/// first problem ("<dir> cannot be listed: Permission denied"), else it is left as is.
[[nodiscard]] std::vector<std::filesystem::path> listDirectory(const std::filesystem::path& dir,
                                                               std::string* error = nullptr);

}  // namespace npuscope::core
