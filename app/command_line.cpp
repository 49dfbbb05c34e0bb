// SPDX-License-Identifier: MIT
#include "app/command_line.h"

#include "core/cluster/summarize.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QPixmap>
#include <QSaveFile>
#include <QFileInfo>
#include <QImageWriter>
#include <QtGlobal>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "app/app_support.h"
#include "app/appearance.h"
#include "core/base/file_access.h"
#include "app/trace_loader.h"
#include "core/analysis/stats.h"
#include "core/base/time_format.h"
#include "core/profile/profile.h"
#include "app/html_export.h"
#include "core/report/compare.h"
#include "core/report/html_report.h"
#include "core/report/report.h"
#include "core/tables/table_summary.h"
#include "app/main_window.h"
#include <QDockWidget>

#include "widgets/export/timeline_export.h"
#include "widgets/panels/advice_panel.h"
#include "widgets/panels/cluster_panel.h"
#include "widgets/panels/dispatch_panel.h"
#include "widgets/timeline/timeline_widget.h"

namespace npuscope {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

void printError(const QString& message) {
  const QByteArray bytes = (QStringLiteral("npuscope: ") + message + QLatin1Char('\n')).toLocal8Bit();
  std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
  std::fflush(stderr);
}

QString describe() {
  return QCoreApplication::translate(
      "npuscope", "Timeline viewer for Huawei Ascend NPU profiling data.\n\n"
                  "Commands:\n"
                  "  npuscope [PATH]                      open PATH (default: bundled sample)\n"
                  "  npuscope report PATH [--json | --html OUT.html]\n"
                  "                                       the analysis of PATH: Top-Down, bubbles,\n"
                  "                                       dispatch chains, advice, ranks\n"
                  "  npuscope compare A B [--json | --html OUT.html]\n"
                  "                                       what changed from capture A to B\n"
                  "  npuscope screenshot PATH -o FILE.png render the timeline to a PNG (or .svg)\n"
                  "  npuscope stats PATH [--layer L]      print per-name statistics tables\n"
                  "  npuscope summarize PATH -o OUT       one small summary file per rank of PATH,\n"
                  "                                       made where the traces lie; report, compare\n"
                  "                                       and the window open OUT as a capture\n\n"
                  "Use 'npuscope COMMAND --help' for the options of a command.");
}

// `report --capture NAME|NUMBER`: which capture of a folder holding several to load (core's
// discoverProfile; empty = the newest).
std::string g_capture;

// Loads synchronously with core, reporting a clear error. Returns null when nothing could be
// loaded (hard error, or no rank with a trace or with the tables of a trace-less text export).
// `drawn`: the command draws the timeline (an image, or an HTML report's); otherwise the summary
// levels, which only drawing reads, are not built (LoadOptions::summaryLevels; issue 43).
std::shared_ptr<core::Profile> loadForCli(const QString& path, QString* error, bool drawn) {
  // The argument's own bytes: a name that is not valid in the locale's encoding is opened as it
  // is (Qt's decoding replaced those bytes; QFileInfo cannot check it, core says what is wrong).
  const std::string native = nativeArgument(path);
  if (QString problem = TraceLoader::checkPath(path);
      !problem.isEmpty() && native == QFile::encodeName(path).toStdString()) {
    // Core's sentence is more precise for a link loop, a dangling link or a path over PATH_MAX.
    const std::string why = core::describeNotRegularFile(native);
    if (why.find("symbolic link") != std::string::npos || why.find("PATH_MAX") != std::string::npos)
      problem = path + QStringLiteral(" ") + QString::fromStdString(why);
    *error = problem;
    return nullptr;
  }
  core::LoadOptions options;
  options.source = TraceLoader::sourcePreference();
  options.capture = g_capture;
  options.summaryLevels = drawn;
  core::ProfileLoadResult result = core::loadProfile(native, options);
  if (!result.ok()) {
    *error = result.error.empty()
                 ? QCoreApplication::translate("npuscope", "nothing could be loaded from %1").arg(path)
                 : QString::fromStdString(result.error);
    return nullptr;
  }
  const ProfileTotals totals = profileTotals(*result.profile);
  const bool anyTables = std::any_of(result.profile->ranks.begin(), result.profile->ranks.end(),
                                     [](const core::RankProfile& r) { return r.tablesOnly != nullptr || r.summary != nullptr; });
  if (totals.loadedRanks == 0 && !anyTables) {
    QStringList reasons;
    for (const core::RankProfile& rank : result.profile->ranks) {
      if (!rank.error.empty()) reasons << QString::fromStdString(rank.error);
    }
    for (const std::string& m : result.profile->messages) reasons << QString::fromStdString(m);
    reasons.removeDuplicates();
    *error = QCoreApplication::translate("npuscope", "no trace could be loaded from %1").arg(path);
    if (!reasons.isEmpty()) *error += QStringLiteral(": ") + reasons.join(QStringLiteral("; "));
    return nullptr;
  }
  return std::move(result.profile);
}

// `--source db|text`: which export a rank with both trace_view.json and the .db export loads.
QCommandLineOption sourceOption() {
  return QCommandLineOption(QStringLiteral("source"),
                            QCoreApplication::translate("npuscope", "For a rank with both trace_view.json and the "
                                                                    ".db export: which one to read (default text)."),
                            QStringLiteral("db|text"));
}

// Applies --source (to this process's loads); false with a message when its value is not db or text.
bool applySourceOption(const QCommandLineParser& parser, const QCommandLineOption& option) {
  if (!parser.isSet(option)) return true;
  const auto source = TraceLoader::parseSource(parser.value(option));
  if (!source) {
    printError(QCoreApplication::translate("npuscope", "--source must be db or text"));
    return false;
  }
  TraceLoader::setSourcePreference(*source);
  return true;
}

// `--lang en|zh_CN` of report and stats: the language of core's sentences (verdict, findings,
// advice, report text); JSON keys and ids stay English. Default en.
QCommandLineOption langOption() {
  return QCommandLineOption(QStringLiteral("lang"),
                            QCoreApplication::translate("npuscope", "Language of the analysis sentences: en "
                                                                    "(default) or zh_CN."),
                            QStringLiteral("LANG"), QStringLiteral("en"));
}

// Applies --lang (installs the translation, core's included); false with a message when the
// language is not offered or its translation cannot be loaded.
bool applyLangOption(const QCommandLineParser& parser, const QCommandLineOption& option) {
  const QString language = parser.value(option);
  if (language != QLatin1String("en") && !availableLanguages().contains(language)) {
    printError(QCoreApplication::translate("npuscope", "--lang must be en or one of: %1")
                   .arg(availableLanguages().join(QStringLiteral(", "))));
    return false;
  }
  if (!QCoreApplication::instance() || !installTranslation(*QCoreApplication::instance(), language)) {
    printError(QCoreApplication::translate("npuscope", "the %1 translation could not be loaded").arg(language));
    return false;
  }
  return true;
}

bool parseRange(const QString& text, core::TimeRange* range) {
  const qsizetype colon = text.indexOf(QLatin1Char(':'), 1);  // allow a leading '-'
  if (colon < 0) return false;
  bool okStart = false;
  bool okEnd = false;
  const qint64 start = text.left(colon).trimmed().toLongLong(&okStart);
  const qint64 end = text.mid(colon + 1).trimmed().toLongLong(&okEnd);
  if (!okStart || !okEnd || end <= start) return false;
  *range = {start, end};
  return true;
}

// Why `stats` has nothing to print for `wantedRank` (-1: any rank) of `path`: which ranks exist,
// what the wanted one holds and what the layer needs (a trace; for the kernels layer a
// kernel_details.csv does too).
QString statsNothingMessage(const core::Profile& profile, int wantedRank, bool kernelsLayer, const QString& path) {
  const auto tr = [](const char* text) { return QCoreApplication::translate("npuscope", text); };
  const QString needs = kernelsLayer ? tr("the kernels layer needs the trace or kernel_details.csv")
                                     : tr("this layer needs the trace (only --layer kernels reads kernel_details.csv)");
  QStringList ranks, usable;  // every rank; those this layer can read
  const core::RankProfile* wanted = nullptr;
  for (std::size_t i = 0; i < profile.ranks.size(); ++i) {
    const core::RankProfile& r = profile.ranks[i];
    const int number = r.rank() >= 0 ? r.rank() : static_cast<int>(i);
    ranks << QString::number(number);
    if (r.trace || (kernelsLayer && r.kernels)) usable << QString::number(number);
    if (number == wantedRank && !wanted) wanted = &r;
  }
  if (wantedRank >= 0 && !wanted)
    return tr("no rank %1 in %2 (its ranks: %3)").arg(wantedRank).arg(path, ranks.join(QStringLiteral(", ")));
  if (!wanted) return tr("no rank of %1 has what this layer needs: %2").arg(path, needs);
  QString holds;
  if (wanted->tablesOnly) {
    QStringList present;
    for (const std::string& p : wanted->tablesOnly->present) present << QString::fromStdString(p);
    holds = tr("it holds only %1").arg(present.join(QStringLiteral(", ")));
  } else if (!wanted->error.empty()) {
    holds = QString::fromStdString(wanted->error);
  }
  QString missing = tr("no trace_view.json");
  if (kernelsLayer || !wanted->kernels) missing += tr(" and no kernel_details.csv");
  QString msg = tr("rank %1 of %2 has %3").arg(wantedRank).arg(path, missing);
  if (!holds.isEmpty()) msg += QStringLiteral("; ") + holds;
  msg += QStringLiteral("; ") + needs;
  if (!usable.isEmpty()) msg += tr(" (ranks that have it: %1)").arg(usable.join(QStringLiteral(", ")));
  if (wanted->tablesOnly && !wanted->tablesOnly->devices.empty())
    msg += tr("; `npuscope report` shows its step_trace_time.csv figures");
  return msg;
}

}  // namespace

Command detectCommand(const QStringList& arguments) {
  if (arguments.size() > 1) {
    const QString& first = arguments.at(1);
    if (first == QStringLiteral("report")) return Command::Report;
    if (first == QStringLiteral("compare")) return Command::Compare;
    if (first == QStringLiteral("screenshot")) return Command::Screenshot;
    if (first == QStringLiteral("stats")) return Command::Stats;
    if (first == QStringLiteral("summarize")) return Command::Summarize;
  }
  for (const QString& a : arguments.mid(1)) {
    if (a == QStringLiteral("--")) break;
    if (a == QStringLiteral("-h") || a == QStringLiteral("--help") ||
        a == QStringLiteral("--help-all") || a == QStringLiteral("-v") ||
        a == QStringLiteral("--version") || a == QStringLiteral("-?"))
      return Command::Info;
  }
  return Command::Gui;
}

void useOffscreenWhenHeadless() {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
      qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
  }
}

void setApplicationIdentity() {
  QCoreApplication::setOrganizationName(QStringLiteral("npuscope"));
  QCoreApplication::setApplicationName(QStringLiteral("npuscope"));
  QCoreApplication::setApplicationVersion(QStringLiteral(NPUSCOPE_VERSION));
}

namespace {

QCommandLineOption htmlOption() {
  return QCommandLineOption(QStringLiteral("html"),
                            QCoreApplication::translate("npuscope", "Write a self-contained HTML report (styles and images "
                                                                    "inline, no script, no network) to FILE instead of "
                                                                    "printing text."),
                            QStringLiteral("FILE"));
}

// Refuses an HTML file inside any profiling folder read (`paths`, and every rank folder of the
// loaded profiles): npuscope never writes into the folder it reads.
bool htmlTargetAllowed(const QString& file, const QStringList& paths, const std::vector<const core::Profile*>& profiles) {
  for (qsizetype i = 0; i < paths.size(); ++i) {
    const QString& path = paths[i];
    QStringList folders = protectedFolders(path, nullptr);
    if (static_cast<std::size_t>(i) < profiles.size()) folders += protectedFolders(path, profiles[static_cast<std::size_t>(i)]);
    if (isInsideAny(file, folders) || QFileInfo(file).absoluteFilePath() == QFileInfo(path).absoluteFilePath()) {
      printError(QCoreApplication::translate("npuscope", "refusing to write %1 inside the profiling folder %2").arg(file, path));
      return false;
    }
  }
  return true;
}

}  // namespace

int runReport(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QCoreApplication::translate(
      "npuscope", "Prints a summary of a profiling folder or trace file: ranks, devices, lanes, "
                  "slices, flows, counters and load warnings."));
  parser.addHelpOption();
  parser.addPositionalArgument(QStringLiteral("report"), QCoreApplication::translate("npuscope", "The report command."),
                               QStringLiteral("report"));
  parser.addPositionalArgument(QStringLiteral("PATH"),
                               QCoreApplication::translate("npuscope", "Profiling folder (*_ascend_pt, a parent of rank folders) or trace file."));
  const QCommandLineOption json(QStringLiteral("json"),
                                QCoreApplication::translate("npuscope", "Print JSON instead of text."));
  const QCommandLineOption chip(QStringLiteral("chip"),
                                QCoreApplication::translate("npuscope", "The chip when the capture does not record it "
                                                                        "(e.g. Ascend910B3), for the advisor's TFLOPS "
                                                                        "and block-dim rules."),
                                QStringLiteral("NAME"));
  const QCommandLineOption threshold(
      QStringLiteral("threshold"),
      QCoreApplication::translate("npuscope", "Sets one advisor threshold, KEY=VALUE in the key's unit (e.g. "
                                              "aicpu_min_us=50; repeatable; the keys are listed in docs/diagnosis.md "
                                              "§6 and in the GUI's Advisor Thresholds dialog)."),
      QStringLiteral("KEY=VALUE"));
  const QCommandLineOption source = sourceOption();
  const QCommandLineOption capture(
      QStringLiteral("capture"),
      QCoreApplication::translate("npuscope", "For a folder holding several captures (profiling runs): which one to "
                                              "load, by name or number as the report lists them (default the newest)."),
      QStringLiteral("NAME|NUMBER"));
  const QCommandLineOption lang = langOption();
  const QCommandLineOption html = htmlOption();
  parser.addOptions({json, chip, threshold, source, capture, lang, html});
  parser.process(arguments);  // exits on --help or an unknown option
  if (!applySourceOption(parser, source) || !applyLangOption(parser, lang)) return kExitUsage;
  if (parser.isSet(capture)) g_capture = parser.value(capture).toStdString();
  core::AdvisorThresholds thresholds;
  for (const QString& t : parser.values(threshold)) {
    const std::string error = core::applyThresholdAssignment(thresholds, t.toStdString());
    if (!error.empty()) {
      printError(QString::fromStdString(error));
      return kExitUsage;
    }
  }

  const QStringList positional = parser.positionalArguments();
  if (positional.size() != 2) {
    printError(QCoreApplication::translate("npuscope", "usage: npuscope report PATH [--json] [--html FILE] [--chip NAME] [--threshold KEY=VALUE]... [--source db|text] [--capture NAME|NUMBER] [--lang en|zh_CN]"));
    return kExitUsage;
  }
  const QString path = positional.at(1);
  QString error;
  const std::shared_ptr<core::Profile> profile = loadForCli(path, &error, parser.isSet(html));
  if (!profile) {
    printError(error);
    return kExitFailure;
  }
  if (parser.isSet(chip)) thresholds.chip = parser.value(chip).toStdString();
  if (parser.isSet(html)) {
    const QString file = parser.value(html);
    if (!htmlTargetAllowed(file, {path}, {profile.get()})) return kExitUsage;
    const QString error = writeHtmlFile(file, core::reportHtml(*profile, thresholds, htmlMeta(), timelineImages(profile, 3)));
    if (!error.isEmpty()) {
      printError(error);
      return kExitFailure;
    }
    return kExitOk;
  }
  std::string out = parser.isSet(json) ? core::reportJson(*profile, thresholds) : core::reportText(*profile, thresholds);
  if (out.empty() || out.back() != '\n') out.push_back('\n');
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return kExitOk;
}

int runSummarize(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QCoreApplication::translate(
      "npuscope", "Writes one summary file per rank of PATH into OUT (rankNNNNN.npuscope-summary.json.gz): the "
                  "rank's steps, HCCL ops, longest bubbles, operators and verdict, a few KB each, for the "
                  "cross-rank analysis of a cluster whose traces lie on many machines. `npuscope report OUT` "
                  "merges them (docs/architecture.md, \"The cross-rank stage\")."));
  parser.addHelpOption();
  parser.addPositionalArgument(QStringLiteral("summarize"), QCoreApplication::translate("npuscope", "The summarize command."),
                               QStringLiteral("summarize"));
  parser.addPositionalArgument(QStringLiteral("PATH"), QCoreApplication::translate(
                                                           "npuscope", "Profiling folder, rank folder, .db or trace file."));
  const QCommandLineOption out({QStringLiteral("o"), QStringLiteral("output")},
                               QCoreApplication::translate("npuscope", "The folder to write the summaries into (created "
                                                                       "when missing; never inside PATH)."),
                               QStringLiteral("OUT"));
  const QCommandLineOption jobs({QStringLiteral("j"), QStringLiteral("jobs")},
                                QCoreApplication::translate("npuscope", "Ranks summarized at once (default: the cores)."),
                                QStringLiteral("N"));
  const QCommandLineOption source = sourceOption();
  const QCommandLineOption capture(
      QStringLiteral("capture"),
      QCoreApplication::translate("npuscope", "For a folder holding several captures: which one, by name or number."),
      QStringLiteral("NAME|NUMBER"));
  const QCommandLineOption quiet({QStringLiteral("q"), QStringLiteral("quiet")},
                                 QCoreApplication::translate("npuscope", "Print nothing but errors."));
  parser.addOptions({out, jobs, source, capture, quiet});
  parser.process(arguments);
  if (!applySourceOption(parser, source)) return kExitUsage;
  const QStringList positional = parser.positionalArguments();
  if (positional.size() != 2 || !parser.isSet(out)) {
    printError(QCoreApplication::translate("npuscope", "usage: npuscope summarize PATH -o OUT [--jobs N] [--source db|text] [--capture NAME|NUMBER] [--quiet]"));
    return kExitUsage;
  }
  core::SummarizeOptions options;
  if (parser.isSet(jobs)) {
    bool ok = false;
    const int n = parser.value(jobs).toInt(&ok);
    if (!ok || n < 1 || n > 1024) {
      printError(QCoreApplication::translate("npuscope", "--jobs takes a number from 1 to 1024"));
      return kExitUsage;
    }
    options.jobs = static_cast<unsigned>(n);
  }
  options.load.source = TraceLoader::sourcePreference();
  if (parser.isSet(capture)) options.load.capture = parser.value(capture).toStdString();
  const QString path = positional.at(1), outDir = parser.value(out);
  // The protected folders the GUI and the HTML report use (a capture root around a rank folder too).
  // OUT need not exist yet: its parent is what isInsideAny resolves.
  if (isInsideAny(outDir, protectedFolders(path, nullptr)) || QFileInfo(outDir).absoluteFilePath() == QFileInfo(path).absoluteFilePath()) {
    printError(QCoreApplication::translate("npuscope", "refusing to write summaries inside the profiling folder %1").arg(path));
    return kExitUsage;
  }
  const bool verbose = !parser.isSet(quiet);
  options.progress = [verbose](std::size_t done, std::size_t total, const std::string& label) {
    if (verbose) std::fprintf(stderr, "summarize: %zu/%zu %s\n", done, total, label.c_str());
  };
  const core::SummarizeResult r = core::summarizePath(nativeArgument(path), nativeArgument(outDir), options);
  if (!r.error.empty()) {
    printError(QString::fromStdString(r.error));
    return kExitFailure;
  }
  if (verbose)
    for (const std::string& m : r.messages) std::fprintf(stderr, "summarize: note: %s\n", m.c_str());
  for (const core::SummarizedRank& rank : r.ranks) {
    if (!rank.error.empty()) std::fprintf(stderr, "summarize: failed: %s\n", rank.error.c_str());
    if (verbose && !rank.note.empty()) std::fprintf(stderr, "summarize: note: %s\n", rank.note.c_str());
    if (verbose && !rank.file.empty()) std::printf("%s\n", rank.file.c_str());
  }
  std::fflush(stdout);
  // Exit 1 when any rank failed (its summary, with the error, is written all the same).
  return r.failed() > 0 ? kExitFailure : kExitOk;
}

int runCompare(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QCoreApplication::translate(
      "npuscope", "Compares two captures (folders or files of any format npuscope reads): ranks paired by rank "
                  "id, steps by number; the deltas are B - A. Never writes into either folder."));
  parser.addHelpOption();
  parser.addPositionalArgument(QStringLiteral("compare"), QCoreApplication::translate("npuscope", "The compare command."),
                               QStringLiteral("compare"));
  parser.addPositionalArgument(QStringLiteral("A"), QCoreApplication::translate("npuscope", "The first capture (the baseline)."));
  parser.addPositionalArgument(QStringLiteral("B"), QCoreApplication::translate("npuscope", "The second capture."));
  const QCommandLineOption json(QStringLiteral("json"), QCoreApplication::translate("npuscope", "Print JSON instead of text."));
  const QCommandLineOption source = sourceOption();
  const QCommandLineOption lang = langOption();
  const QCommandLineOption html = htmlOption();
  parser.addOptions({json, source, lang, html});
  parser.process(arguments);
  if (!applySourceOption(parser, source) || !applyLangOption(parser, lang)) return kExitUsage;
  const QStringList positional = parser.positionalArguments();
  if (positional.size() != 3) {
    printError(QCoreApplication::translate("npuscope", "usage: npuscope compare A B [--json] [--html FILE] [--source db|text] [--lang en|zh_CN]"));
    return kExitUsage;
  }
  std::shared_ptr<core::Profile> sides[2];
  for (int i = 0; i < 2; ++i) {
    QString error;
    sides[i] = loadForCli(positional.at(i + 1), &error, parser.isSet(html));
    if (!sides[i]) {
      printError(QStringLiteral("%1: %2").arg(i == 0 ? QStringLiteral("A") : QStringLiteral("B"), error));
      return kExitFailure;
    }
  }
  const core::CompareResult result = core::compareProfiles(*sides[0], *sides[1]);
  if (parser.isSet(html)) {
    const QString file = parser.value(html);
    if (!htmlTargetAllowed(file, {positional.at(1), positional.at(2)}, {sides[0].get(), sides[1].get()})) return kExitUsage;
    std::vector<core::HtmlImage> images = timelineImages(sides[0], 1, QStringLiteral("A: "));
    for (core::HtmlImage& im : timelineImages(sides[1], 1, QStringLiteral("B: "))) images.push_back(std::move(im));
    const QString error = writeHtmlFile(file, core::compareHtml(result, htmlMeta(), images));
    if (!error.isEmpty()) {
      printError(error);
      return kExitFailure;
    }
    return kExitOk;
  }
  std::string out = parser.isSet(json) ? core::compareJson(result) : core::compareText(result);
  if (out.empty() || out.back() != '\n') out.push_back('\n');
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return kExitOk;
}

namespace {
// `screenshot --window`: the whole main window after loading, optionally with a bubble selected,
// the Advice dock shown (`advice` not empty) with a finding selected (a row number, 0 = none, or a
// rule key: its first row) and, with `activate`, double-clicked; `dock` (not empty) raises that
// bottom dock (topdown, advice, statistics, cluster, dispatch: its top op selected) and `collective` > 0 clicks collective N of
// the Cluster dock (raising it).
QString renderWindowScreenshot(const QString& path, const QString& file, QSize size, int bubbleNumber,
                               std::optional<core::TimeRange> range, const QString& advice, bool activate,
                               const QString& dock, int collective, const QString& compare) {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(size);
  window.show();
  QEventLoop loop;
  bool ok = false;
  QString error;
  QObject::connect(&window, &MainWindow::loadFinished, &loop, [&](bool success, const QString& e) {
    ok = success;
    error = e;
    loop.quit();
  });
  window.openPath(path);
  loop.exec();
  if (ok && !compare.isEmpty()) {
    // File > Compare With…: B under A, aligned, the Compare dock raised.
    QEventLoop compareLoop;
    bool compared = false;
    QObject::connect(&window, &MainWindow::compareFinished, &compareLoop, [&](bool success) {
      compared = success;
      compareLoop.quit();
    });
    window.compareWith(compare);
    compareLoop.exec();
    if (!compared) return QCoreApplication::translate("npuscope", "--compare %1: could not be loaded").arg(compare);
  }
  if (!ok) return error;
  if (bubbleNumber > 0) {
    const auto profile = window.profile();
    int rank = -1;
    for (std::size_t i = 0; i < profile->ranks.size() && rank < 0; ++i)
      if (profile->ranks[i].analysis && !profile->ranks[i].analysis->devices.empty()) rank = static_cast<int>(i);
    if (rank < 0)
      return QCoreApplication::translate("npuscope", "--bubble %1: no rank of this profile has an analysed device "
                                                     "timeline (no trace, or no device tasks in it), so there are "
                                                     "no bubbles").arg(bubbleNumber);
    if (!window.activateBubble(rank, 0, bubbleNumber - 1))
      return QCoreApplication::translate("npuscope", "--bubble %1: no such bubble").arg(bubbleNumber);
    // The bubble's device lane and the host lanes of its chain together in the shot: the other
    // processes collapsed, scrolled to the first of them (the docks have their sizes by now).
    for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
    if (const core::Bubble* b = window.timeline()->bubble(rank, 0, bubbleNumber - 1)) {
      std::vector<core::SliceRef> slices{b->after};
      for (const core::ChainLink& link : b->chain.links) slices.push_back(link.slice);
      window.timeline()->focusLanes(rank, slices);
    }
  }
  if (!advice.isEmpty()) {
    // The Advice dock in front; N > 0 clicks finding N (1 = first row), as a user would.
    for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();  // the first-run tabbing
    window.adviceDock()->show();
    window.adviceDock()->raise();
    bool isNumber = false;
    int adviceNumber = advice.toInt(&isNumber);
    if (!isNumber) {
      // A rule key ("memory"): its first row.
      const auto& rows = window.advicePanel()->model()->rows();
      for (std::size_t i = 0; i < rows.size() && adviceNumber == 0; ++i)
        if (QString::fromStdString(rows[i].finding.rule) == advice) adviceNumber = static_cast<int>(i) + 1;
      if (adviceNumber == 0) return QCoreApplication::translate("npuscope", "--advice %1: no finding of that rule").arg(advice);
    }
    if (adviceNumber > 0) {
      if (adviceNumber > window.advicePanel()->model()->rowCount())
        return QCoreApplication::translate("npuscope", "--advice %1: no such finding").arg(adviceNumber);
      window.advicePanel()->selectRow(adviceNumber - 1);
      if (activate) window.advicePanel()->activateRow(adviceNumber - 1);
    }
  }
  if (!dock.isEmpty() || collective > 0) {
    for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();  // the first-run tabbing
    const QString name = collective > 0 && dock.isEmpty() ? QStringLiteral("cluster") : dock;
    QDockWidget* d = name == QLatin1String("topdown")      ? window.topDownDock()
                     : name == QLatin1String("advice")     ? window.adviceDock()
                     : name == QLatin1String("statistics") ? window.statsDock()
                     : name == QLatin1String("cluster")    ? window.clusterDock()
                     : name == QLatin1String("dispatch")   ? window.dispatchDock()
                                                           : nullptr;
    if (!d)
      return QCoreApplication::translate("npuscope", "--dock %1: no such dock (topdown, advice, statistics, cluster, dispatch)").arg(dock);
    d->show();
    d->raise();
    if (name == QLatin1String("dispatch")) {
      // The top op selected, so that its histogram shows.
      for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
      window.dispatchPanel()->selectRow(0);
    }
    if (collective > 0) {
      for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();  // the panel's layout
      if (!window.clusterPanel()->selectCollective(collective - 1))
        return QCoreApplication::translate("npuscope", "--collective %1: no such collective").arg(collective);
    }
  }
  if (range) window.timeline()->setVisibleRange(*range);
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
  const QPixmap pixmap = window.grab();
  QImageWriter writer(file, "png");
  if (!writer.write(pixmap.toImage()))
    return QCoreApplication::translate("npuscope", "cannot write %1: %2").arg(file, writer.errorString());
  return {};
}
/// The largest width or height of a screenshot, px.
constexpr int kMaxSide = 16384;

/// Declares the options of `screenshot` on `parser` (its description, arguments and options, in
/// the order --help lists them); runScreenshot's readers ask for them by name.
void addScreenshotOptions(QCommandLineParser& parser) {
  parser.setApplicationDescription(QCoreApplication::translate(
      "npuscope", "Loads a profile and renders its timeline to a PNG or SVG image, without a display. "
                  "Never writes into the profiling folder."));
  parser.addHelpOption();
  parser.addPositionalArgument(QStringLiteral("screenshot"), QCoreApplication::translate("npuscope", "The screenshot command."),
                               QStringLiteral("screenshot"));
  parser.addPositionalArgument(QStringLiteral("PATH"),
                               QCoreApplication::translate("npuscope", "Profiling folder or trace file."));
  const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")},
                                  QCoreApplication::translate("npuscope", "PNG or SVG file to write (.svg: an SVG)."),
                                  QStringLiteral("FILE"));
  const QCommandLineOption width(QStringLiteral("width"),
                                 QCoreApplication::translate("npuscope", "Image width in pixels (default 1600)."),
                                 QStringLiteral("W"), QStringLiteral("1600"));
  const QCommandLineOption height(QStringLiteral("height"),
                                  QCoreApplication::translate("npuscope", "Image height in pixels (default 900; with "
                                                                          "--bubble, as tall as its chain's lanes need)."),
                                  QStringLiteral("H"), QStringLiteral("900"));
  const QCommandLineOption range(QStringLiteral("range"),
                                 QCoreApplication::translate("npuscope", "The time range: START_NS:END_NS in absolute "
                                                                         "ns (cut to the capture, with a message, "
                                                                         "when it reaches outside it), all (the whole "
                                                                         "capture) or visible (default: the whole "
                                                                         "capture, or --bubble's zoom)."),
                                 QStringLiteral("visible|all|START_NS:END_NS"));
  const QCommandLineOption window(QStringLiteral("window"),
                                  QCoreApplication::translate("npuscope", "Render the whole main window (docks "
                                                                          "included) instead of the timeline."));
  const QCommandLineOption bubble(QStringLiteral("bubble"),
                                  QCoreApplication::translate("npuscope", "Select bubble N of the first analysed "
                                                                          "rank (1 = longest) with its dispatch "
                                                                          "chain and zoom to it, as a click in the "
                                                                          "Top-Down list does (also with --window)."),
                                  QStringLiteral("N"));
  const QCommandLineOption svg(QStringLiteral("svg"),
                               QCoreApplication::translate("npuscope", "Write an SVG (also when -o ends in .svg)."));
  const QCommandLineOption scale(QStringLiteral("scale"),
                                 QCoreApplication::translate("npuscope", "Pixels per logical px of the image, 1 to 4 "
                                                                         "(default 1; 2 for a HiDPI image)."),
                                 QStringLiteral("N"), QStringLiteral("1"));
  const QCommandLineOption caption(QStringLiteral("caption"),
                                   QCoreApplication::translate("npuscope", "Add a caption line: profile, rank, time "
                                                                           "range, verdict headline."));
  const QCommandLineOption lanes(QStringLiteral("lanes"),
                                 QCoreApplication::translate("npuscope", "visible (default: the first screen, "
                                                                         "--height tall), all (every lane with all its "
                                                                         "levels: folded stacks and collapsed counters "
                                                                         "opened; as tall as needed), selected (the "
                                                                         "lanes of --bubble's chain and device; needs "
                                                                         "--bubble) or a PATTERN matched "
                                                                         "against 'rank 0 · NPU 0 / process / lane' "
                                                                         "(wildcards * ?, case-insensitive)."),
                                 QStringLiteral("visible|all|selected|PATTERN"), QStringLiteral("visible"));
  const QCommandLineOption advice(QStringLiteral("advice"),
                                  QCoreApplication::translate("npuscope", "With --window: show the Advice dock and "
                                                                          "select finding N (1 = first row; 0 = "
                                                                          "none), or the first finding of rule "
                                                                          "RULE (e.g. memory), as a click does."),
                                  QStringLiteral("N|RULE"));
  const QCommandLineOption activate(QStringLiteral("activate"),
                                    QCoreApplication::translate("npuscope", "With --advice N: double-click the finding "
                                                                            "too (zoom to its worst slice, or show its "
                                                                            "moment, e.g. the memory peak on its curve)."));
  const QCommandLineOption dock(QStringLiteral("dock"),
                               QCoreApplication::translate("npuscope", "With --window: raise that bottom dock: topdown, "
                                                                       "advice, statistics, cluster or dispatch."),
                               QStringLiteral("NAME"));
  const QCommandLineOption collective(QStringLiteral("collective"),
                                      QCoreApplication::translate("npuscope", "With --window: raise the Cluster dock "
                                                                              "and click collective N (1 = first row): "
                                                                              "its op outlined on every rank."),
                                      QStringLiteral("N"));
  const QCommandLineOption compareOption(QStringLiteral("compare"),
                                         QCoreApplication::translate("npuscope", "With --window: open PATH2 with File > "
                                                                                 "Compare With… (stacked under the "
                                                                                 "capture, aligned, the Compare dock raised)."),
                                         QStringLiteral("PATH2"));
  const QCommandLineOption source = sourceOption();
  const QCommandLineOption lang(QStringLiteral("lang"),
                                QCoreApplication::translate("npuscope", "Interface language of the image: en "
                                                                        "(default) or zh_CN."),
                                QStringLiteral("LANG"), QStringLiteral("en"));
  const QCommandLineOption theme(QStringLiteral("theme"),
                                 QCoreApplication::translate("npuscope", "Colour theme: light, dark or system "
                                                                         "(default: system)."),
                                 QStringLiteral("THEME"), QStringLiteral("system"));
  parser.addOptions({output, width, height, range, window, bubble, advice, activate, dock, collective, compareOption, source, lang, theme,
                     svg, scale, caption, lanes});
}

/// The image's language (--lang) and colour theme (--theme), installed for the rendering; the
/// exit code when one of them is wrong or cannot be loaded.
std::optional<int> applyScreenshotLook(const QCommandLineParser& parser) {
  const QString language = parser.value(QStringLiteral("lang"));
  const QString themeName = parser.value(QStringLiteral("theme"));
  if (language != QLatin1String("en") && !availableLanguages().contains(language)) {
    printError(QCoreApplication::translate("npuscope", "--lang must be en or one of: %1")
                   .arg(availableLanguages().join(QStringLiteral(", "))));
    return kExitUsage;
  }
  if (themeName != QLatin1String("light") && themeName != QLatin1String("dark") &&
      themeName != QLatin1String("system")) {
    printError(QCoreApplication::translate("npuscope", "--theme must be light, dark or system"));
    return kExitUsage;
  }
  if (!installTranslation(*QCoreApplication::instance(), language)) {
    printError(QCoreApplication::translate("npuscope", "the %1 translation could not be loaded").arg(language));
    return kExitFailure;
  }
  if (auto* gui = qobject_cast<QApplication*>(QCoreApplication::instance())) applyTheme(*gui, themeFromKey(themeName));
  return std::nullopt;
}

/// What `screenshot` is asked to render and where to write it, read from its options.
struct ScreenshotRequest {
  QString path;  ///< the capture
  QString file;  ///< the image to write
  int width = 0, height = 0;
  bool heightSet = false;  ///< --height given: --bubble does not grow the image
  QString rangeText;       ///< --range as given
  bool hasRange = false;   ///< --range START_NS:END_NS (then `range`)
  bool rangeAll = false;   ///< --range all
  core::TimeRange range;
  double scale = 1;
  int bubble = 0;      ///< --bubble N, 0 without
  int collective = 0;  ///< --collective N, 0 without
  bool window = false, asSvg = false, caption = false, activate = false;
  QString lanes;
  QString advice, dock, compare;  ///< empty when not given
};

/// The image's geometry: --width, --height, --range and --scale read and checked; the exit code
/// when one is wrong.
std::optional<int> readScreenshotGeometry(const QCommandLineParser& parser, ScreenshotRequest& r) {
  bool okW = false;
  bool okH = false;
  r.width = parser.value(QStringLiteral("width")).toInt(&okW);
  r.height = parser.value(QStringLiteral("height")).toInt(&okH);
  r.heightSet = parser.isSet(QStringLiteral("height"));
  if (!okW || !okH || r.width < 16 || r.height < 16 || r.width > kMaxSide || r.height > kMaxSide) {
    printError(QCoreApplication::translate("npuscope", "--width and --height must be integers between 16 and %1")
                   .arg(kMaxSide));
    return kExitUsage;
  }
  r.rangeText = parser.value(QStringLiteral("range"));
  r.rangeAll = r.rangeText == QLatin1String("all");
  r.hasRange = parser.isSet(QStringLiteral("range")) && r.rangeText != QLatin1String("visible") && !r.rangeAll;
  if (r.hasRange && !parseRange(r.rangeText, &r.range)) {
    printError(QCoreApplication::translate("npuscope", "--range must be visible, all or START_NS:END_NS with integer "
                                                       "ns and START < END"));
    return kExitUsage;
  }
  bool okScale = false;
  r.scale = parser.value(QStringLiteral("scale")).toDouble(&okScale);
  if (!okScale || r.scale < 1 || r.scale > 4) {
    printError(QCoreApplication::translate("npuscope", "--scale must be a number from 1 to 4"));
    return kExitUsage;
  }
  return std::nullopt;
}

/// What the image shows selected: --bubble and --collective read and checked, with the options
/// that need --window or --bubble; the exit code when one is wrong.
std::optional<int> readScreenshotSelection(const QCommandLineParser& parser, ScreenshotRequest& r) {
  if (parser.isSet(QStringLiteral("bubble"))) {
    bool okBubble = false;
    r.bubble = parser.value(QStringLiteral("bubble")).toInt(&okBubble);
    if (!okBubble || r.bubble < 1) {
      printError(QCoreApplication::translate("npuscope", "--bubble must be a bubble number, 1 = the longest"));
      return kExitUsage;
    }
  }
  if (parser.isSet(QStringLiteral("collective"))) {
    bool okCollective = false;
    r.collective = parser.value(QStringLiteral("collective")).toInt(&okCollective);
    if (!okCollective || r.collective < 1) {
      printError(QCoreApplication::translate("npuscope", "--collective must be a collective number, 1 = the first row"));
      return kExitUsage;
    }
  }
  if ((parser.isSet(QStringLiteral("dock")) || parser.isSet(QStringLiteral("collective"))) &&
      !parser.isSet(QStringLiteral("window"))) {
    printError(QCoreApplication::translate("npuscope", "--dock and --collective need --window"));
    return kExitUsage;
  }
  r.lanes = parser.value(QStringLiteral("lanes"));
  if (r.lanes == QLatin1String("selected") && r.bubble == 0) {
    // On the command line the only selection is --bubble's: without it the image would be empty.
    printError(QCoreApplication::translate("npuscope", "--lanes selected shows the lanes of --bubble N's dispatch "
                                                       "chain and device: add --bubble N (1 = the longest bubble)"));
    return kExitUsage;
  }
  return std::nullopt;
}

/// The options of `screenshot` read into `r` and checked: the arguments, the geometry, the
/// selection, the options the window shot cannot take, and an output that would land inside the
/// profiling folder or overwrite the input. The exit code when one is wrong.
std::optional<int> readScreenshotRequest(const QCommandLineParser& parser, ScreenshotRequest& r) {
  const QStringList positional = parser.positionalArguments();
  if (positional.size() != 2 || !parser.isSet(QStringLiteral("output"))) {
    printError(QCoreApplication::translate(
        "npuscope", "usage: npuscope screenshot PATH -o FILE.png|FILE.svg [--width W --height H] "
                    "[--range visible|all|START_NS:END_NS] [--lanes visible|all|selected|PATTERN] [--scale N] "
                    "[--caption] [--svg] [--bubble N] [--window]"));
    return kExitUsage;
  }
  if (const auto exit = readScreenshotGeometry(parser, r)) return exit;
  if (const auto exit = readScreenshotSelection(parser, r)) return exit;
  r.path = positional.at(1);
  r.file = parser.value(QStringLiteral("output"));
  r.asSvg = parser.isSet(QStringLiteral("svg")) || r.file.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive);
  r.window = parser.isSet(QStringLiteral("window"));
  r.caption = parser.isSet(QStringLiteral("caption"));
  r.activate = parser.isSet(QStringLiteral("activate"));
  if (parser.isSet(QStringLiteral("advice"))) r.advice = parser.value(QStringLiteral("advice"));
  if (parser.isSet(QStringLiteral("dock"))) r.dock = parser.value(QStringLiteral("dock"));
  if (parser.isSet(QStringLiteral("compare"))) r.compare = parser.value(QStringLiteral("compare"));
  if (r.window) {
    // The window is grabbed as the screen shows it: these choose what the timeline image shows.
    for (const char* name : {"svg", "caption", "lanes", "scale"}) {
      const QString option = QString::fromLatin1(name);
      if (parser.isSet(option) || (option == QLatin1String("svg") && r.asSvg)) {
        printError(QCoreApplication::translate("npuscope", "--%1 is for the timeline image, not with --window").arg(option));
        return kExitUsage;
      }
    }
  }
  if (isInsideAny(r.file, protectedFolders(r.path, nullptr))) {
    printError(QCoreApplication::translate("npuscope", "refusing to write %1 inside the profiling folder %2")
                   .arg(r.file, r.path));
    return kExitUsage;
  }
  if (QFileInfo(r.file).absoluteFilePath() == QFileInfo(r.path).absoluteFilePath()) {
    printError(QCoreApplication::translate("npuscope", "refusing to overwrite the input %1").arg(r.path));
    return kExitUsage;
  }
  return std::nullopt;
}

/// A --range reaching outside the capture is cut to it, and said so (the view would otherwise
/// clamp it silently, and to a margin around the capture); the exit code when none of it is
/// inside.
std::optional<int> cutRangeToCapture(ScreenshotRequest& r, const core::Profile& profile) {
  const core::TimeRange capture = profile.range();
  const core::TimeRange cut{std::max(r.range.start, capture.start), std::min(r.range.end, capture.end)};
  if (cut.end <= cut.start) {
    printError(QCoreApplication::translate("npuscope", "--range %1 lies outside the capture, which spans %2:%3 ns")
                   .arg(r.rangeText)
                   .arg(capture.start)
                   .arg(capture.end));
    return kExitUsage;
  }
  if (cut != r.range) {
    const core::TimeNs tick = std::max<core::TimeNs>(1, cut.duration() / 1000);
    printError(QCoreApplication::translate("npuscope", "--range %1 reaches outside the capture (%2:%3 ns): "
                                                       "clamped to %4:%5 ns (%6 – %7 from the capture start)")
                   .arg(r.rangeText)
                   .arg(capture.start)
                   .arg(capture.end)
                   .arg(cut.start)
                   .arg(cut.end)
                   .arg(QString::fromStdString(core::formatSignedOffset(cut.start - capture.start, tick)),
                        QString::fromStdString(core::formatSignedOffset(cut.end - capture.start, tick))));
    r.range = cut;
  }
  return std::nullopt;
}

/// As a click in the Top-Down list (MainWindow::activateBubble): the task that ends the gap of
/// bubble r.bubble of the first analysed rank, the bubble, its chain, zoomed to it with a quarter
/// of its length on each side, and its lanes on the first screen. Without --height the view
/// grows (`viewHeight`) as tall as the chain's lanes need. The exit code when there is no such
/// bubble.
std::optional<int> focusBubble(widgets::TimelineWidget& timeline, const core::Profile& profile, const ScreenshotRequest& r,
                               int& viewHeight) {
  const int h = r.height;
  int rank = -1;
  for (std::size_t i = 0; i < profile.ranks.size() && rank < 0; ++i)
    if (profile.ranks[i].analysis && !profile.ranks[i].analysis->devices.empty()) rank = static_cast<int>(i);
  const core::Bubble* b = rank >= 0 ? timeline.bubble(rank, 0, r.bubble - 1) : nullptr;
  if (rank < 0) {
    printError(QCoreApplication::translate("npuscope", "--bubble %1: no rank of this profile has an analysed "
                                                       "device timeline (no trace, or no device tasks in it), so "
                                                       "there are no bubbles")
                   .arg(r.bubble));
    return kExitFailure;
  }
  if (!b) {
    printError(QCoreApplication::translate("npuscope", "--bubble %1: no such bubble").arg(r.bubble));
    return kExitFailure;
  }
  if (b->after.valid()) timeline.selectSlice(rank, b->after);
  timeline.setSelectedBubble(rank, 0, r.bubble - 1);
  timeline.setChainHighlight(rank, b->chain);
  timeline.zoomToBubble(rank, 0, r.bubble - 1, 0.25);
  // The first screen (--lanes visible) shows the device lane and the chain's host lanes, in
  // the window's order (device processes first), where they fit together.
  std::vector<core::SliceRef> slices{b->after};
  for (const core::ChainLink& link : b->chain.links) slices.push_back(link.slice);
  const int needed = timeline.focusLanes(rank, slices, h - timeline.rulerHeight());
  // Without --height, the image is as tall as the chain's lanes need (an unfolded Python stack
  // holding its aten op can be 40 rows), so its CANN and device rows are not cut off.
  if (!r.heightSet && r.lanes == QLatin1String("visible") && needed > h - timeline.rulerHeight()) {
    viewHeight = std::min(kMaxSide, needed + timeline.rulerHeight() + 4);
    timeline.resize(r.width, viewHeight);
    timeline.focusLanes(rank, slices, viewHeight - timeline.rulerHeight());
  }
  return std::nullopt;
}

/// The export options of the timeline image: its range, its lanes, the view's size, the scale
/// and the caption.
widgets::TimelineExportOptions timelineExportOptions(const ScreenshotRequest& r, int viewHeight) {
  widgets::TimelineExportOptions options;
  if (r.hasRange) {
    options.range = widgets::TimelineExportOptions::Range::Custom;
    options.customRange = r.range;
  } else if (r.rangeAll) {
    options.range = widgets::TimelineExportOptions::Range::Whole;
  }
  if (r.lanes == QLatin1String("all")) {
    options.lanes = widgets::TimelineExportOptions::Lanes::All;
  } else if (r.lanes == QLatin1String("selected")) {
    options.lanes = widgets::TimelineExportOptions::Lanes::Selected;
  } else if (r.lanes != QLatin1String("visible")) {
    options.lanes = widgets::TimelineExportOptions::Lanes::Pattern;
    options.lanePattern = r.lanes;
  }
  options.viewSize = QSize(r.width, viewHeight);
  options.maxHeight = kMaxSide;
  options.scale = r.scale;
  if (r.caption) options.caption = displayName(r.path);
  return options;
}

/// Renders the timeline of `profile` as `r` asks (the window's lane order, fitted, or focused on
/// --bubble) and writes it as a PNG or SVG; the exit code.
int writeTimelineImage(const ScreenshotRequest& r, const std::shared_ptr<core::Profile>& profile) {
  widgets::TimelineWidget timeline;
  int viewHeight = r.height;  // grown for --bubble without --height
  timeline.resize(r.width, r.height);
  timeline.setProfile(profile);
  // The window's default order (MainWindow, View > Device Lanes First): each rank's device
  // processes (Overlap Analysis, Ascend Hardware, Communication) above the host ones.
  timeline.setDeviceFirst(true);
  timeline.fitAll();
  if (r.bubble > 0)
    if (const auto exit = focusBubble(timeline, *profile, r, viewHeight)) return *exit;
  const widgets::TimelineExportOptions options = timelineExportOptions(r, viewHeight);
  const widgets::TimelineExport image =
      r.asSvg ? widgets::exportTimelineSvg(timeline, options) : widgets::exportTimelineImage(timeline, options);
  if (!image.ok()) {
    printError(image.error);
    return kExitFailure;
  }
  if (r.asSvg) {
    QSaveFile out(r.file);
    if (!out.open(QIODevice::WriteOnly) || out.write(image.svg) != image.svg.size() || !out.commit()) {
      printError(QCoreApplication::translate("npuscope", "cannot write %1: %2").arg(r.file, out.errorString()));
      return kExitFailure;
    }
    return kExitOk;
  }
  QImageWriter writer(r.file, "png");
  if (!writer.write(image.image)) {
    printError(QCoreApplication::translate("npuscope", "cannot write %1: %2").arg(r.file, writer.errorString()));
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

int runScreenshot(const QStringList& arguments) {
  QCommandLineParser parser;
  addScreenshotOptions(parser);
  parser.process(arguments);
  if (!applySourceOption(parser, sourceOption())) return kExitUsage;
  if (const auto exit = applyScreenshotLook(parser)) return *exit;
  ScreenshotRequest r;
  if (const auto exit = readScreenshotRequest(parser, r)) return *exit;

  QString error;
  std::shared_ptr<core::Profile> profile = loadForCli(r.path, &error, true);
  if (!profile) {
    printError(error);
    return kExitFailure;
  }
  if (isInsideAny(r.file, protectedFolders(r.path, profile.get()))) {
    printError(QCoreApplication::translate("npuscope", "refusing to write %1 inside a profiling folder").arg(r.file));
    return kExitUsage;
  }
  if (r.hasRange)
    if (const auto exit = cutRangeToCapture(r, *profile)) return *exit;
  if (!r.window) return writeTimelineImage(r, profile);
  // The window loads the folder itself (as a user's Open does): drop the CLI's copy first so
  // that two loaded traces are never resident at once (was 2x the memory on a 1 GB trace).
  profile.reset();
  const QString werror = renderWindowScreenshot(r.path, r.file, QSize(r.width, r.height), r.bubble,
                                                r.hasRange ? std::optional<core::TimeRange>(r.range) : std::nullopt,
                                                r.advice, r.activate, r.dock, r.collective, r.compare);
  if (!werror.isEmpty()) {
    printError(werror);
    return kExitFailure;
  }
  return kExitOk;
}

namespace {

/// Declares the options of `stats` on `parser` (its description, arguments and options, in the
/// order --help lists them); the readers ask for them by name.
void addStatsOptions(QCommandLineParser& parser) {
  parser.setApplicationDescription(QCoreApplication::translate(
      "npuscope", "Prints the Stats System View tables of a profile: per name the count, total, self, avg, min, "
                  "max and share of one layer, for every rank (or one). Slices count when their start lies in "
                  "the scope."));
  parser.addHelpOption();
  parser.addPositionalArgument(QStringLiteral("stats"), QCoreApplication::translate("npuscope", "The stats command."),
                               QStringLiteral("stats"));
  parser.addPositionalArgument(QStringLiteral("PATH"),
                               QCoreApplication::translate("npuscope", "Profiling folder or trace file."));
  const QCommandLineOption layer(QStringLiteral("layer"),
                                 QCoreApplication::translate("npuscope", "kernels (default: what kernel_details.csv lists), tasks (the other Ascend Hardware "
                                                                   "stream tasks), cann, python, communication or overlap."),
                                 QStringLiteral("LAYER"), QStringLiteral("kernels"));
  const QCommandLineOption step(QStringLiteral("step"),
                                QCoreApplication::translate("npuscope", "Only ProfilerStep#N (its device window)."),
                                QStringLiteral("N"));
  const QCommandLineOption range(QStringLiteral("range"),
                                 QCoreApplication::translate("npuscope", "Only slices starting in [A, B), absolute ns."),
                                 QStringLiteral("A:B"));
  const QCommandLineOption csv(QStringLiteral("csv"),
                               QCoreApplication::translate("npuscope", "Print CSV (times in us) instead of text."));
  const QCommandLineOption rank(QStringLiteral("rank"),
                                QCoreApplication::translate("npuscope", "Only rank R (default: every rank)."),
                                QStringLiteral("R"));
  const QCommandLineOption source = sourceOption();
  const QCommandLineOption lang = langOption();
  parser.addOptions({layer, step, range, csv, rank, source, lang});
}

/// What `stats` is asked to print, read from its options.
struct StatsRequest {
  QString path;
  core::StatsLayer layer = core::StatsLayer::Kernels;
  long long step = -1;  ///< --step N, -1 without
  std::optional<core::TimeRange> range;  ///< --range A:B
  int rank = -1;  ///< --rank R, -1 without
  bool csv = false;
};

/// The options of `stats` read into `r` and checked; the exit code when one is wrong.
std::optional<int> readStatsRequest(const QCommandLineParser& parser, StatsRequest& r) {
  const QString usage = QCoreApplication::translate(
      "npuscope", "usage: npuscope stats PATH [--layer kernels|tasks|cann|python|communication|overlap] "
                  "[--step N | --range A:B] [--csv] [--rank R] [--lang en|zh_CN]");
  const QStringList positional = parser.positionalArguments();
  if (positional.size() != 2) {
    printError(usage);
    return kExitUsage;
  }
  r.path = positional.at(1);
  const QString layer = parser.value(QStringLiteral("layer"));
  const std::optional<core::StatsLayer> statsLayer = core::statsLayerFromKey(layer.toStdString());
  if (!statsLayer) {
    printError(QCoreApplication::translate("npuscope", "unknown --layer '%1'; %2").arg(layer, usage));
    return kExitUsage;
  }
  r.layer = *statsLayer;
  if (parser.isSet(QStringLiteral("step")) && parser.isSet(QStringLiteral("range"))) {
    printError(QCoreApplication::translate("npuscope", "--step and --range cannot be combined"));
    return kExitUsage;
  }
  if (parser.isSet(QStringLiteral("step"))) {
    bool ok = false;
    r.step = parser.value(QStringLiteral("step")).toLongLong(&ok);
    if (!ok || r.step < 0) {
      printError(QCoreApplication::translate("npuscope", "--step must be a step number (ProfilerStep#N)"));
      return kExitUsage;
    }
  }
  if (parser.isSet(QStringLiteral("range"))) {
    core::TimeRange scopeRange;
    if (!parseRange(parser.value(QStringLiteral("range")), &scopeRange)) {
      printError(QCoreApplication::translate("npuscope", "--range must be A:B with integer ns and A < B"));
      return kExitUsage;
    }
    r.range = scopeRange;
  }
  if (parser.isSet(QStringLiteral("rank"))) {
    bool ok = false;
    r.rank = parser.value(QStringLiteral("rank")).toInt(&ok);
    if (!ok || r.rank < 0) {
      printError(QCoreApplication::translate("npuscope", "--rank must be a rank number"));
      return kExitUsage;
    }
  }
  r.csv = parser.isSet(QStringLiteral("csv"));
  return std::nullopt;
}

/// The ranks to print: those with a trace (or, for the Kernels layer, a kernel_details.csv), or
/// the one whose rank (else index) is `wantedRank`.
std::vector<std::size_t> statsRanks(const core::Profile& profile, int wantedRank, core::StatsLayer layer) {
  std::vector<std::size_t> chosen;
  const bool kernels = layer == core::StatsLayer::Kernels;
  for (std::size_t i = 0; i < profile.ranks.size(); ++i) {
    const core::RankProfile& r = profile.ranks[i];
    // A tables-only rank (no trace) has the Kernels layer from its kernel_details.csv.
    if (!r.trace && !(r.kernels && kernels)) continue;
    if (wantedRank < 0 || r.rank() == wantedRank) chosen.push_back(i);
  }
  if (wantedRank >= 0 && chosen.empty() && static_cast<std::size_t>(wantedRank) < profile.ranks.size() &&
      (profile.ranks[static_cast<std::size_t>(wantedRank)].trace ||
       (profile.ranks[static_cast<std::size_t>(wantedRank)].kernels && kernels)))
    chosen.push_back(static_cast<std::size_t>(wantedRank));
  return chosen;
}

/// The scope of a rank's table: --range, or the device window (else the host one) of its
/// ProfilerStep#N; nullopt for the whole trace; false when the rank has no such step.
bool statsScope(const core::RankProfile& r, const StatsRequest& req, std::optional<core::TimeRange>& scope) {
  scope = req.range;
  if (req.step < 0) return true;
  if (r.analysis)
    for (const core::StepWindow& s : r.analysis->steps)
      if (s.number == req.step) scope = s.device.empty() ? s.host : s.device;
  return scope.has_value();
}

/// Appends `csv` (a rank's table as CSV) with every line prefixed by the rank, the header only
/// for the first table printed.
void appendRankCsv(std::string& out, const std::string& csv, int rankNumber, bool first) {
  std::size_t pos = 0;
  bool header = true;
  while (pos < csv.size()) {
    std::size_t end = csv.find('\n', pos);
    if (end == std::string::npos) end = csv.size();
    const std::string line = csv.substr(pos, end - pos);
    if (header) {
      if (first) out += "Rank," + line + "\n";
      header = false;
    } else if (!line.empty()) {
      out += std::to_string(rankNumber) + "," + line + "\n";
    }
    pos = end + 1;
  }
}

}  // namespace

int runStats(const QStringList& arguments) {
  QCommandLineParser parser;
  addStatsOptions(parser);
  parser.process(arguments);
  if (!applySourceOption(parser, sourceOption()) || !applyLangOption(parser, langOption())) return kExitUsage;
  StatsRequest req;
  if (const auto exit = readStatsRequest(parser, req)) return *exit;

  QString error;
  const std::shared_ptr<core::Profile> profile = loadForCli(req.path, &error, false);
  if (!profile) {
    printError(error);
    return kExitFailure;
  }
  const std::vector<std::size_t> chosen = statsRanks(*profile, req.rank, req.layer);
  if (chosen.empty()) {
    printError(statsNothingMessage(*profile, req.rank, req.layer == core::StatsLayer::Kernels, req.path));
    return kExitFailure;
  }
  const bool rankColumn = req.csv && chosen.size() > 1;
  std::string out;
  int printed = 0;
  for (std::size_t i : chosen) {
    const core::RankProfile& r = profile->ranks[i];
    std::optional<core::TimeRange> scope;
    if (!statsScope(r, req, scope)) {
      printError(QCoreApplication::translate("npuscope", "%1 has no ProfilerStep#%2")
                     .arg(QString::fromStdString(r.source.label)).arg(req.step));
      continue;
    }
    // Problems reading the rank's CSV files (kernel_details.csv decides the kernels layer).
    for (const std::string& m : r.tableMessages)
      printError(QString::fromStdString(r.source.label + ": " + m));
    const core::StatsTable table = r.trace ? core::computeStats(*r.trace, req.layer, scope, r.kernels.get())
                                           : core::kernelTableStats(*r.kernels, scope);
    const int rankNumber = r.rank() >= 0 ? r.rank() : static_cast<int>(i);
    if (!req.csv) {
      if (printed > 0) out += "\n";
      out += "== " + (r.source.label.empty() ? "rank " + std::to_string(rankNumber) : r.source.label);
      if (req.step >= 0) out += " · step " + std::to_string(req.step);
      out += " ==\n" + core::statsText(table);
    } else if (!rankColumn) {
      out += core::statsCsv(table);
    } else {
      appendRankCsv(out, core::statsCsv(table), rankNumber, printed == 0);
    }
    ++printed;
  }
  if (printed == 0) return kExitFailure;
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return kExitOk;
}

GuiOptions parseGuiArguments(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(describe());
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("PATH"),
                               QCoreApplication::translate("npuscope", "Profiling folder or trace file to open."),
                               QStringLiteral("[PATH]"));
  QCommandLineOption grab(QStringLiteral("grab-window"),
                          QStringLiteral("Save a grab of the window after loading, then quit."),
                          QStringLiteral("FILE"));
  grab.setFlags(QCommandLineOption::HiddenFromHelp);
  parser.addOption(grab);
  const QCommandLineOption source = sourceOption();
  parser.addOption(source);
  parser.process(arguments);
  if (!applySourceOption(parser, source)) {
    GuiOptions failed;
    failed.exitCode = kExitUsage;
    return failed;
  }

  GuiOptions options;
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) {
    printError(QCoreApplication::translate("npuscope", "too many arguments; usage: npuscope [PATH]"));
    options.exitCode = kExitUsage;
    return options;
  }
  if (!positional.isEmpty()) options.path = positional.first();
  options.grabFile = parser.value(grab);
  return options;
}

}  // namespace npuscope
