// SPDX-License-Identifier: MIT
#pragma once
// Small helpers of the app layer that need no window: recent-list bookkeeping, the bundled
// sample's location, process memory, and the numbers shown in the status bar.

#include <QRect>
#include <QString>
#include <QStringList>
#include <string>

#include "core/profile/profile.h"

namespace npuscope {

/// `window` shrunk to at most the size of `available` (a screen's available geometry) and moved
/// inside it; `window` itself when `available` is empty. A window geometry is never saved or
/// restored larger than the screen (a very long name once widened the window to 32,767 px).
[[nodiscard]] QRect fitInside(const QRect& window, const QRect& available);
/// Whether `window` fits inside `available` (always true when `available` is empty).
[[nodiscard]] bool fitsInside(const QRect& window, const QRect& available);
/// Records the process's command line as the bytes the system gave (main calls it first), so
/// that a path argument that is not valid in the locale's encoding (a Latin-1 file name under a
/// UTF-8 locale) can still be opened: QString decoding replaces such bytes by U+FFFD.
void setRawArguments(int argc, char** argv);
/// The native bytes of the command-line argument that decodes to `argument`
/// (QString::fromLocal8Bit), else QFile::encodeName(argument) (an argument not from the command
/// line). issue 15 item 8: the native path encoding end to end.
[[nodiscard]] std::string nativeArgument(const QString& argument);

/// Maximum number of entries kept in File > Open Recent.
inline constexpr int kMaxRecentPaths = 10;

/// Returns `recent` with `path` moved (or added) to the front, duplicates removed (paths are
/// compared after cleaning, so "a/b/" and "a/b" are one entry), and at most `maxEntries` kept.
[[nodiscard]] QStringList addRecentPath(const QStringList& recent, const QString& path,
                                        int maxEntries = kMaxRecentPaths);

/// The bundled torch_npu-shaped sample folder: NPUSCOPE_SAMPLE_DIR from the source tree, else
/// an installed copy next to the executable (../share/npuscope/sample, ./sample,
/// ./resources/sample). Empty when none exists.
[[nodiscard]] QString findSampleProfile();

/// Resident memory of this process in bytes (Linux /proc/self/statm), or -1 when unknown.
[[nodiscard]] qint64 residentMemoryBytes();

/// Totals over the loaded ranks of a profile, for the status bar and the CLI.
struct ProfileTotals {
  int ranks = 0;             ///< ranks discovered
  int loadedRanks = 0;       ///< ranks whose trace loaded
  quint64 events = 0;        ///< JSON events read
  quint64 slices = 0;        ///< slices built
  quint64 warnings = 0;      ///< import anomalies (ImportStats::total) over all ranks
  quint64 tableMessages = 0; ///< problems reading the ranks' CSV files (RankProfile::tableMessages)
  int failedRanks = 0;       ///< ranks with neither a trace nor tables (nothing loaded)
  int tablesOnlyRanks = 0;   ///< ranks without a trace whose tables loaded (RankProfile::tablesOnly)
  quint64 traceBytes = 0;    ///< Trace::memoryBytes over all ranks
};
[[nodiscard]] ProfileTotals profileTotals(const core::Profile& profile);

/// A short display name for a profile path: the folder or file name ("rank0_ascend_pt").
[[nodiscard]] QString displayName(const QString& path);

/// The capture (profiling run) folder around a rank's root folder, canonical, or "" when there
/// is none: the nearest PROF_* folder above or at it (msprof), else, for a *_ascend_pt /
/// *_ascend_ms folder (or its ASCEND_PROFILER_OUTPUT), its parent when that parent holds another
/// such rank folder (the ranks discoverProfile groups into one capture, format notes §1).
[[nodiscard]] QString captureRootOf(const QString& rankRoot);

/// The folders a profile was read from that must never be written into: the path itself when
/// it is a folder, every rank root that is a *_ascend_pt / *_ascend_ms folder, and the capture
/// folder around each (captureRootOf), so that opening one rank folder of a capture does not let
/// an export land beside it in the capture.
[[nodiscard]] QStringList protectedFolders(const QString& path, const core::Profile* profile);
/// True when `file` would land inside one of `folders` (canonical comparison).
[[nodiscard]] bool isInsideAny(const QString& file, const QStringList& folders);

}  // namespace npuscope
