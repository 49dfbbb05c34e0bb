// SPDX-License-Identifier: MIT
// The built `npuscope` binary run as a child process: report, screenshot, help, version, errors.
#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <utility>

#include "app/command_line.h"
#include "tests/app/test_helpers.h"

namespace {

struct Run {
  int exitCode = -1;
  QByteArray out;
  QByteArray err;
};

Run runNpuscope(const QStringList& args, const QProcessEnvironment& env =
                                              QProcessEnvironment::systemEnvironment()) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(NPUSCOPE_BINARY), args);
  REQUIRE(p.waitForStarted(10000));
  REQUIRE(p.waitForFinished(120000));
  Run r;
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

// A headless environment: no display and no platform chosen, as on a CI machine.
QProcessEnvironment headlessEnv() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove(QStringLiteral("DISPLAY"));
  env.remove(QStringLiteral("WAYLAND_DISPLAY"));
  env.remove(QStringLiteral("QT_QPA_PLATFORM"));
  return env;
}

const char* const kCaseFile = "cases/07-zero-duration/trace.json";
const char* const kRankFolder = "corpus/ascend-pt-910b-l1-text-2rank";

}  // namespace

using npuscope::test::sharedPath;

TEST_CASE("detectCommand picks the application kind from argv", "[cli]") {
  using npuscope::Command;
  using npuscope::detectCommand;
  const QString exe = QStringLiteral("npuscope");
  CHECK(detectCommand({exe}) == Command::Gui);
  CHECK(detectCommand({exe, QStringLiteral("/some/folder")}) == Command::Gui);
  CHECK(detectCommand({exe, QStringLiteral("report"), QStringLiteral("x")}) == Command::Report);
  CHECK(detectCommand({exe, QStringLiteral("report"), QStringLiteral("--help")}) == Command::Report);
  CHECK(detectCommand({exe, QStringLiteral("screenshot"), QStringLiteral("x")}) == Command::Screenshot);
  CHECK(detectCommand({exe, QStringLiteral("--help")}) == Command::Info);
  CHECK(detectCommand({exe, QStringLiteral("--version")}) == Command::Info);
  // Whatever follows "--" is a path, never an option.
  CHECK(detectCommand({exe, QStringLiteral("--"), QStringLiteral("--help")}) == Command::Gui);
}

TEST_CASE("report --json prints valid JSON with the documented keys", "[cli][report]") {
  const Run r = runNpuscope({QStringLiteral("report"), sharedPath(kCaseFile), QStringLiteral("--json")},
                            headlessEnv());
  INFO(r.err.toStdString());
  REQUIRE(r.exitCode == 0);
  QJsonParseError error{};
  const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
  INFO(r.out.left(400).toStdString());
  REQUIRE(error.error == QJsonParseError::NoError);
  REQUIRE(doc.isObject());
  const QJsonObject root = doc.object();
  CHECK(root.contains(QStringLiteral("path")));
  CHECK(root.contains(QStringLiteral("messages")));
  REQUIRE(root.value(QStringLiteral("ranks")).isArray());
  const QJsonArray ranks = root.value(QStringLiteral("ranks")).toArray();
  REQUIRE(ranks.size() == 1);
  const QJsonObject rank = ranks.first().toObject();
  for (const char* k : {"rank", "device", "file", "span_ns", "events", "lanes", "flows", "counters",
                        "warnings"}) {
    INFO("rank key " << k);
    CHECK(rank.contains(QString::fromLatin1(k)));
  }
}

TEST_CASE("report on a two-rank folder lists both ranks - text form works too", "[cli][report]") {
  const Run json = runNpuscope({QStringLiteral("report"), sharedPath(kRankFolder), QStringLiteral("--json")});
  INFO(json.err.toStdString());
  REQUIRE(json.exitCode == 0);
  const QJsonDocument doc = QJsonDocument::fromJson(json.out);
  REQUIRE(doc.isObject());
  CHECK(doc.object().value(QStringLiteral("ranks")).toArray().size() == 2);

  const Run text = runNpuscope({QStringLiteral("report"), sharedPath(kRankFolder)});
  REQUIRE(text.exitCode == 0);
  CHECK_FALSE(text.out.trimmed().isEmpty());
  CHECK(QJsonDocument::fromJson(text.out).isNull());  // text, not JSON
}

TEST_CASE("report on a missing path fails with exit code 1 and a message", "[cli][report]") {
  const Run r = runNpuscope({QStringLiteral("report"), QStringLiteral("/nonexistent/npuscope/nothing"),
                             QStringLiteral("--json")});
  CHECK(r.exitCode == 1);
  CHECK(r.out.isEmpty());
  CHECK(r.err.contains("No such file or folder"));
  CHECK(r.err.contains("/nonexistent/npuscope/nothing"));
}

TEST_CASE("report without a path is a usage error", "[cli][report]") {
  const Run r = runNpuscope({QStringLiteral("report")});
  CHECK(r.exitCode == 2);
  CHECK(r.err.contains("usage"));
}

TEST_CASE("report --source db reads the database export, a bad value is a usage error", "[cli][report]") {
  // ascend-pt-910b-db-2rank/level1: two db-only ranks; the JSON names the .db each was read from.
  const Run db = runNpuscope({QStringLiteral("report"), sharedPath("corpus/ascend-pt-910b-db-2rank/level1"),
                              QStringLiteral("--json"), QStringLiteral("--source"), QStringLiteral("db")});
  INFO(db.err.toStdString());
  REQUIRE(db.exitCode == 0);
  const QJsonArray ranks = QJsonDocument::fromJson(db.out).object().value(QStringLiteral("ranks")).toArray();
  REQUIRE(ranks.size() == 2);
  CHECK(ranks.at(0).toObject().value(QStringLiteral("file")).toString().endsWith(QStringLiteral("ascend_pytorch_profiler_0.db")));
  const Run bad = runNpuscope({QStringLiteral("report"), sharedPath(kRankFolder), QStringLiteral("--source"),
                               QStringLiteral("json")});
  CHECK(bad.exitCode == 2);
  CHECK(bad.err.contains("--source must be db or text"));
}

TEST_CASE("screenshot writes a PNG of the requested size without a display", "[cli][screenshot]") {
  QTemporaryDir out;
  REQUIRE(out.isValid());
  const QString file = out.filePath(QStringLiteral("shot.png"));
  const Run r = runNpuscope({QStringLiteral("screenshot"), sharedPath(kCaseFile), QStringLiteral("-o"), file,
                             QStringLiteral("--width"), QStringLiteral("800"), QStringLiteral("--height"),
                             QStringLiteral("500")},
                            headlessEnv());
  INFO(r.err.toStdString());
  REQUIRE(r.exitCode == 0);
  QImage image(file);
  REQUIRE_FALSE(image.isNull());
  CHECK(image.size() == QSize(800, 500));
  // Something was drawn: not a single flat colour.
  const QRgb first = image.pixel(0, 0);
  bool varied = false;
  for (int y = 0; y < image.height() && !varied; y += 7)
    for (int x = 0; x < image.width() && !varied; x += 7) varied = image.pixel(x, y) != first;
  CHECK(varied);
}

TEST_CASE("screenshot defaults to 1600x900 and accepts --range", "[cli][screenshot]") {
  QTemporaryDir out;
  const QString file = out.filePath(QStringLiteral("range.png"));
  // Every event of the capture's trace_view.json files lies between 1736408883573887920 and
  // 1736408883973810000 ns (ts and ts + dur, by a Python json walk over both ranks): a range
  // from 0 to inside it reaches before it, and is cut to the capture's start with a message.
  const Run r = runNpuscope({QStringLiteral("screenshot"), sharedPath(kRankFolder), QStringLiteral("-o"), file,
                             QStringLiteral("--range"), QStringLiteral("0:1736408883700000000"),
                             QStringLiteral("--caption")},
                            headlessEnv());
  INFO(r.err.toStdString());
  REQUIRE(r.exitCode == 0);
  CHECK(QImage(file).height() > 900);  // with the caption line
  CHECK(r.err.contains("reaches outside the capture"));
  CHECK(r.err.contains(":1736408883700000000 ns (+0 ns – +"));
  // A range wholly outside the capture: a usage error, nothing written.
  const QString none = out.filePath(QStringLiteral("none.png"));
  const Run outside = runNpuscope({QStringLiteral("screenshot"), sharedPath(kRankFolder), QStringLiteral("-o"), none,
                                   QStringLiteral("--range"), QStringLiteral("0:1000")},
                                  headlessEnv());
  CHECK(outside.exitCode == 2);
  CHECK(outside.err.contains("outside the capture"));
  CHECK_FALSE(QFile::exists(none));
}

TEST_CASE("screenshot --lanes selected without --bubble says what is missing", "[cli][screenshot]") {
  QTemporaryDir out;
  const QString file = out.filePath(QStringLiteral("sel.png"));
  const Run r = runNpuscope({QStringLiteral("screenshot"), sharedPath(kRankFolder), QStringLiteral("-o"), file,
                             QStringLiteral("--lanes"), QStringLiteral("selected")},
                            headlessEnv());
  CHECK(r.exitCode == 2);
  CHECK(r.err.contains("--bubble N"));
  CHECK_FALSE(QFile::exists(file));
}

TEST_CASE("screenshot of one rank folder never writes into its capture folder", "[cli][screenshot]") {
  // capture/{rank0_ascend_pt,rank1_ascend_pt}: opening rank0 and writing to capture/x.png (the
  // parent, which discovery groups into one capture) is refused; next to the capture it works.
  QTemporaryDir tmp;
  const QString capture = tmp.filePath(QStringLiteral("capture"));
  for (const char* rank : {"rank0_ascend_pt", "rank1_ascend_pt"}) {
    const QString folder = capture + QLatin1Char('/') + QLatin1String(rank) + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
    REQUIRE(QDir().mkpath(folder));
    REQUIRE(QFile::copy(sharedPath(kCaseFile), folder + QStringLiteral("/trace_view.json")));
  }
  const QString rank0 = capture + QStringLiteral("/rank0_ascend_pt");
  const QString inside = capture + QStringLiteral("/x.png");
  const Run r = runNpuscope({QStringLiteral("screenshot"), rank0 + QStringLiteral("/../rank0_ascend_pt"),
                             QStringLiteral("-o"), rank0 + QStringLiteral("/../x.png")},
                            headlessEnv());
  CHECK(r.exitCode == 2);
  CHECK(r.err.contains("profiling folder"));
  CHECK_FALSE(QFile::exists(inside));
  const QString beside = tmp.filePath(QStringLiteral("x.png"));
  const Run ok = runNpuscope({QStringLiteral("screenshot"), rank0, QStringLiteral("-o"), beside}, headlessEnv());
  INFO(ok.err.toStdString());
  CHECK(ok.exitCode == 0);
  CHECK(QFile::exists(beside));
}

TEST_CASE("screenshot rejects bad options", "[cli][screenshot]") {
  QTemporaryDir out;
  const QString file = out.filePath(QStringLiteral("bad.png"));
  const QString input = sharedPath(kCaseFile);
  SECTION("missing -o") {
    CHECK(runNpuscope({QStringLiteral("screenshot"), input}).exitCode == 2);
  }
  SECTION("bad range") {
    const Run r = runNpuscope({QStringLiteral("screenshot"), input, QStringLiteral("-o"), file,
                               QStringLiteral("--range"), QStringLiteral("200:100")});
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains("--range"));
  }
  SECTION("bad size") {
    CHECK(runNpuscope({QStringLiteral("screenshot"), input, QStringLiteral("-o"), file,
                       QStringLiteral("--width"), QStringLiteral("abc")})
              .exitCode == 2);
  }
  SECTION("missing input") {
    const Run r = runNpuscope({QStringLiteral("screenshot"), QStringLiteral("/nonexistent/x.json"),
                               QStringLiteral("-o"), file});
    CHECK(r.exitCode == 1);
    CHECK(r.err.contains("No such file or folder"));
  }
  CHECK_FALSE(QFile::exists(file));
}

TEST_CASE("screenshot --bubble without --window, --svg, --scale, --caption, --lanes", "[cli][screenshot]") {
  QTemporaryDir out;
  const QString folder = sharedPath(kRankFolder);
  const auto shot = [&](const QString& name, QStringList extra) {
    const QString file = out.filePath(name);
    QStringList args{QStringLiteral("screenshot"), folder, QStringLiteral("-o"), file, QStringLiteral("--width"),
                     QStringLiteral("1000"), QStringLiteral("--height"), QStringLiteral("600")};
    args << extra;
    return std::make_pair(runNpuscope(args, headlessEnv()), file);
  };
  SECTION("--bubble 1 --scale 2 --caption: a 2x PNG, taller by the caption line") {
    const auto [r, file] = shot(QStringLiteral("b.png"), {QStringLiteral("--bubble"), QStringLiteral("1"),
                                                           QStringLiteral("--scale"), QStringLiteral("2"),
                                                           QStringLiteral("--caption")});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    const QImage image(file);
    CHECK(image.width() == 2000);
    CHECK(image.height() > 1200);
  }
  SECTION("an .svg name or --svg writes an SVG with the clipped parts") {
    const auto [r, file] = shot(QStringLiteral("b.svg"), {QStringLiteral("--bubble"), QStringLiteral("1")});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    QFile f(file);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const QByteArray svg = f.readAll();
    CHECK(svg.contains("<g id=\"lanes\""));
    CHECK(svg.contains("clip-path=\"url(#clip-lanes)\""));
    CHECK(svg.contains("class=\"bubble-hatch\""));
    const auto [r2, file2] = shot(QStringLiteral("b2.out"), {QStringLiteral("--svg")});
    REQUIRE(r2.exitCode == 0);
    QFile f2(file2);
    REQUIRE(f2.open(QIODevice::ReadOnly));
    CHECK(f2.read(5) == "<?xml");
  }
  SECTION("--lanes all is as tall as the lanes; a pattern that matches nothing fails") {
    const auto [r, file] = shot(QStringLiteral("all.png"), {QStringLiteral("--lanes"), QStringLiteral("all")});
    REQUIRE(r.exitCode == 0);
    CHECK(QImage(file).height() > 600);
    const auto [r2, file2] = shot(QStringLiteral("none.png"), {QStringLiteral("--lanes"), QStringLiteral("zz-no-lane")});
    CHECK(r2.exitCode == 1);
    CHECK(r2.err.contains("zz-no-lane"));
    CHECK_FALSE(QFile::exists(file2));
    const auto [r3, file3] = shot(QStringLiteral("sel.png"), {QStringLiteral("--bubble"), QStringLiteral("1"),
                                                               QStringLiteral("--lanes"), QStringLiteral("selected")});
    REQUIRE(r3.exitCode == 0);
    CHECK(QImage(file3).height() < QImage(file).height());
  }
  SECTION("bad values and --window combinations are usage errors") {
    CHECK(shot(QStringLiteral("x.png"), {QStringLiteral("--scale"), QStringLiteral("9")}).first.exitCode == 2);
    CHECK(shot(QStringLiteral("x.png"), {QStringLiteral("--bubble"), QStringLiteral("0")}).first.exitCode == 2);
    const auto [r, file] = shot(QStringLiteral("x.svg"), {QStringLiteral("--window")});
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains("--svg"));
    CHECK(shot(QStringLiteral("x.png"), {QStringLiteral("--bubble"), QStringLiteral("100000")}).first.exitCode == 1);
  }
}

TEST_CASE("screenshot never writes into the profiling folder", "[cli][screenshot]") {
  QTemporaryDir tmp;
  const QString folder = tmp.filePath(QStringLiteral("rank0_ascend_pt"));
  REQUIRE(QDir().mkpath(folder));
  REQUIRE(QFile::copy(sharedPath(kCaseFile), folder + QStringLiteral("/trace_view.json")));
  const QString target = folder + QStringLiteral("/shot.png");
  const Run r = runNpuscope({QStringLiteral("screenshot"), folder, QStringLiteral("-o"), target});
  CHECK(r.exitCode == 2);
  CHECK(r.err.contains("profiling folder"));
  CHECK_FALSE(QFile::exists(target));
}

TEST_CASE("help and version options work without a display", "[cli]") {
  const Run help = runNpuscope({QStringLiteral("--help")}, headlessEnv());
  CHECK(help.exitCode == 0);
  // Every command detectCommand accepts has its line in the "Commands:" list.
  for (const char* command : {"report", "compare", "screenshot", "stats"}) {
    INFO(command);
    CHECK(npuscope::detectCommand({QStringLiteral("npuscope"), QString::fromLatin1(command), QStringLiteral("x")}) !=
          npuscope::Command::Gui);
    CHECK(help.out.contains(QByteArray(QByteArray("\n  npuscope ") + command + ' ')));
  }
  const Run version = runNpuscope({QStringLiteral("--version")}, headlessEnv());
  CHECK(version.exitCode == 0);
  CHECK(version.out.contains(NPUSCOPE_VERSION));
  const Run reportHelp = runNpuscope({QStringLiteral("report"), QStringLiteral("--help")}, headlessEnv());
  CHECK(reportHelp.exitCode == 0);
  CHECK(reportHelp.out.contains("--json"));
  const Run shotHelp = runNpuscope({QStringLiteral("screenshot"), QStringLiteral("--help")}, headlessEnv());
  CHECK(shotHelp.exitCode == 0);
  CHECK(shotHelp.out.contains("--range"));
}

TEST_CASE("the GUI without a display explains what to do", "[cli]") {
  const Run r = runNpuscope({sharedPath(kCaseFile)}, headlessEnv());
  CHECK(r.exitCode == 1);
  CHECK(r.err.contains("no display"));
}

TEST_CASE("screenshot without --window puts the device lanes first and --bubble shows the chain host rows",
          "[cli][screenshot]") {
  QTemporaryDir out;
  const QString folder = sharedPath(kRankFolder);
  const auto svgOf = [&](const QString& name, QStringList extra) {
    const QString file = out.filePath(name);
    QStringList args{QStringLiteral("screenshot"), folder, QStringLiteral("-o"), file};
    args << extra;
    const Run r = runNpuscope(args, headlessEnv());
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    QFile f(file);
    REQUIRE(f.open(QIODevice::ReadOnly));
    return f.readAll();
  };
  // The plain 1600x900 render, as the window orders it: rank 0's Overlap Analysis header
  // before its Python one in the lane headers (drawn top to bottom).
  const QByteArray plain = svgOf(QStringLiteral("plain.svg"), {});
  const qsizetype headers = plain.indexOf("<g id=\"lane-headers\"");
  REQUIRE(headers >= 0);
  // (The lanes' group comes before the headers'; the ruler's and corner's after hold no names.)
  const qsizetype overlap = plain.indexOf(">Overlap Analysis<", headers);
  const qsizetype python = plain.indexOf(">Python<", headers);
  CHECK(overlap >= 0);
  CHECK((python < 0 || overlap < python));

  // --bubble 1: the torch op of its dispatch chain (from report --json, the core's analysis) is
  // a slice deep in the with_stack Python stack; its name is drawn, so its row is shown.
  const Run report = runNpuscope({QStringLiteral("report"), folder, QStringLiteral("--json")}, headlessEnv());
  REQUIRE(report.exitCode == 0);
  const QJsonArray chain = QJsonDocument::fromJson(report.out)
                               .object()[QStringLiteral("ranks")]
                               .toArray()[0]
                               .toObject()[QStringLiteral("bubbles")]
                               .toArray()[0]
                               .toObject()[QStringLiteral("chain")]
                               .toArray();
  QString torchOp;
  for (const auto& link : chain)
    if (link.toObject()[QStringLiteral("layer")].toString() == QStringLiteral("aten_op"))
      torchOp = link.toObject()[QStringLiteral("name")].toString();
  REQUIRE_FALSE(torchOp.isEmpty());
  const QByteArray bubble = svgOf(QStringLiteral("bubble.svg"), {QStringLiteral("--bubble"), QStringLiteral("1")});
  CAPTURE(torchOp.toStdString());
  const QByteArray drawn = QByteArray(">") + torchOp.toUtf8() + QByteArray("<");
  CHECK(bubble.contains(drawn));
  // Without --height the image grows to the chain's lowest row: the unfolded with_stack Python
  // stack holding the torch op (about 40 rows here) and the CANN rows below it do not fit the
  // default 900 px. With --height 900 it stays 900.
  const auto svgHeight = [](const QByteArray& svg) {
    const qsizetype root = svg.indexOf("<svg");
    const qsizetype at = svg.indexOf(" height=\"", root);
    REQUIRE(at > 0);
    return svg.mid(at + 9, svg.indexOf('"', at + 9) - at - 9).toDouble();
  };
  CHECK(svgHeight(bubble) > 900);
  const QByteArray fixed = svgOf(QStringLiteral("bubble900.svg"), {QStringLiteral("--bubble"), QStringLiteral("1"),
                                                                  QStringLiteral("--height"), QStringLiteral("900")});
  CHECK(svgHeight(fixed) == 900);
}

namespace {

QJsonValue profileAnalysisOf(const QByteArray& reportJson) {
  const QJsonDocument doc = QJsonDocument::fromJson(reportJson);
  REQUIRE(doc.isObject());
  return doc.object().value(QStringLiteral("profile_analysis"));
}

}  // namespace

TEST_CASE("summarize then report OUT gives report PATH's profile_analysis on every multi-rank corpus capture", "[cli][summary]") {
  // The cross-rank stage reads the same summaries either way (core/analysis/rank_summary.h): the
  // figures, holders and findings must not depend on whether the traces were at hand.
  const char* const captures[] = {
      "corpus/ascend-pt-910b-l1-text-2rank",   "corpus/ascend-pt-910b-l0-text-2rank",  "corpus/ascend-pt-910a-l0-text-2rank",
      "corpus/ascend-pt-910b-db-2rank/level1", "corpus/ascend-pt-910a-db-2rank/level1", "corpus/mindspore-msprof-prof-2dev",
      "corpus/ascend-pt-cann83-l2-4rank-partial",
  };
  QTemporaryDir tmp;
  REQUIRE(tmp.isValid());
  int n = 0;
  for (const char* capture : captures) {
    INFO(capture);
    const QString out = tmp.filePath(QStringLiteral("s%1").arg(n++));
    const Run s = runNpuscope({QStringLiteral("summarize"), sharedPath(capture), QStringLiteral("-o"), out});
    CHECK(s.exitCode == 0);
    CHECK(QDir(out).entryList({QStringLiteral("*.npuscope-summary.json.gz")}, QDir::Files).size() >= 2);
    const Run full = runNpuscope({QStringLiteral("report"), sharedPath(capture), QStringLiteral("--json")});
    const Run merged = runNpuscope({QStringLiteral("report"), out, QStringLiteral("--json")});
    REQUIRE(full.exitCode == 0);
    REQUIRE(merged.exitCode == 0);
    const QJsonValue a = profileAnalysisOf(full.out), b = profileAnalysisOf(merged.out);
    CHECK(a.isObject());
    CHECK(a == b);
    // Each rank of the merged report says where its trace lies.
    const QJsonArray ranks = QJsonDocument::fromJson(merged.out).object().value(QStringLiteral("ranks")).toArray();
    REQUIRE_FALSE(ranks.isEmpty());
    const QString where = ranks.first().toObject().value(QStringLiteral("summary")).toObject().value(QStringLiteral("path")).toString();
    CHECK(QFileInfo(where).isDir());
    CHECK(where.startsWith(QFileInfo(sharedPath(capture)).canonicalFilePath()));
  }
}

TEST_CASE("summarize refuses OUT inside PATH, says usage without -o, and exits 1 when a rank fails", "[cli][summary]") {
  QTemporaryDir tmp;
  REQUIRE(tmp.isValid());
  // A capture of two ranks, the second one unreadable.
  QDir(tmp.path()).mkpath(QStringLiteral("cap/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT"));
  QDir(tmp.path()).mkpath(QStringLiteral("cap/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT"));
  QFile::copy(sharedPath("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"),
              tmp.filePath(QStringLiteral("cap/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")));
  QFile bad(tmp.filePath(QStringLiteral("cap/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")));
  REQUIRE(bad.open(QIODevice::WriteOnly));
  bad.write("not a trace");
  bad.close();
  const QString cap = tmp.filePath(QStringLiteral("cap"));
  const Run inside = runNpuscope({QStringLiteral("summarize"), cap, QStringLiteral("-o"), cap + QStringLiteral("/out")});
  CHECK(inside.exitCode == 2);
  CHECK(inside.err.contains("refusing to write summaries inside"));
  CHECK_FALSE(QDir(cap + QStringLiteral("/out")).exists());
  const Run noOut = runNpuscope({QStringLiteral("summarize"), cap});
  CHECK(noOut.exitCode == 2);
  CHECK(noOut.err.contains("usage: npuscope summarize PATH -o OUT"));
  const Run partial = runNpuscope({QStringLiteral("summarize"), cap, QStringLiteral("-o"), tmp.filePath(QStringLiteral("out"))});
  CHECK(partial.exitCode == 1);
  CHECK(partial.err.contains("summarize: failed:"));
  CHECK(QDir(tmp.filePath(QStringLiteral("out"))).entryList(QDir::Files).size() == 2);
}
