// SPDX-License-Identifier: MIT
#pragma once
// The npuscope command line: `npuscope [PATH]` (GUI), `npuscope report PATH [--json]` and
// `npuscope screenshot PATH -o FILE.png|.svg [--width W --height H] [--range visible|all|START_NS:END_NS]
// [--lanes visible|all|selected|PATTERN] [--scale N] [--caption] [--bubble N] [--window]` and
// `npuscope stats PATH [--layer L] [--step N | --range A:B] [--csv] [--rank R]`.
// The subcommands use the same core code as the GUI and need no display.

#include <QString>
#include <QStringList>

namespace npuscope {

/// What the process was asked to do, decided from argv before any QCoreApplication exists
/// (the kind of application object to create depends on it).
enum class Command {
  Gui,         ///< open the window (QApplication, needs a display)
  Report,      ///< print a report (QCoreApplication, no GUI at all)
  Compare,     ///< compare two captures (QCoreApplication)
  Screenshot,  ///< render the timeline to a PNG (QApplication, offscreen when headless)
  Stats,       ///< print statistics tables (QCoreApplication, no GUI at all)
  Summarize,   ///< write one summary file per rank (QCoreApplication, no GUI at all)
  Info,        ///< --help / --version of the GUI form (QCoreApplication)
};

/// Classifies raw arguments (argv as strings, program name first).
[[nodiscard]] Command detectCommand(const QStringList& arguments);

/// Sets QT_QPA_PLATFORM=offscreen when it is unset and neither DISPLAY nor WAYLAND_DISPLAY is
/// set, so rendering works on a headless machine. Call before constructing the application.
void useOffscreenWhenHeadless();

/// Sets application name, organisation and version (QSettings("npuscope", "npuscope")).
void setApplicationIdentity();

/// `npuscope compare A B [--json] [--source db|text] [--lang en|zh_CN]`: core::compareText (or
/// compareJson) of the two captures; needs a QCoreApplication. Returns the process exit code
/// (1 when either side cannot be loaded).
[[nodiscard]] int runCompare(const QStringList& arguments);
/// `npuscope report ...`; needs a QCoreApplication. Returns the process exit code.
[[nodiscard]] int runReport(const QStringList& arguments);
/// `npuscope screenshot ...`; needs a QApplication. Returns the process exit code.
/// The timeline image goes through widgets::exportTimelineImage / exportTimelineSvg (--svg or a
/// .svg name): --range, --lanes, --scale, --caption as TimelineExportOptions; `--bubble N`
/// selects bubble N (1 = longest) of the first analysed rank with its chain and zooms to it, as
/// a click in the Top-Down list does. `--window` renders the whole main window (QWidget::grab
/// after loading; --bubble works there too; --svg, --lanes, --scale, --caption are refused).
[[nodiscard]] int runScreenshot(const QStringList& arguments);
/// `npuscope stats PATH [--layer kernels|tasks|cann|python|communication|overlap] [--step N]
/// [--range A:B] [--csv] [--rank R]`: core::statsText (or core::statsCsv) per rank, or of rank R
/// only. --step N scopes to ProfilerStep#N's device window, --range to [A, B) absolute ns.
/// With --csv and several ranks, a leading "Rank" column keeps one parseable table. The ranks'
/// CSV reading problems (RankProfile::tableMessages) go to stderr, one line each. Needs a
/// QCoreApplication. Returns the process exit code.
[[nodiscard]] int runStats(const QStringList& arguments);
/// `npuscope summarize PATH -o OUT [--jobs N]`: core::summarizePath; exit 1 when a rank failed.
[[nodiscard]] int runSummarize(const QStringList& arguments);

/// Parsed GUI arguments.
struct GuiOptions {
  QString path;      ///< profile to open; empty = the bundled sample
  QString grabFile;  ///< hidden --grab-window FILE: save a window grab after loading, then quit
  int exitCode = -1; ///< >= 0 when the process should exit right away (bad usage)
};
/// Parses `npuscope [PATH]`; --help/--version exit the process (only with Command::Info).
[[nodiscard]] GuiOptions parseGuiArguments(const QStringList& arguments);

}  // namespace npuscope
