// SPDX-License-Identifier: MIT
// `npuscope stats` run as a child process. Expected values come from kernel_details.csv of the
// corpus, aggregated independently (python csv: Name == ..., sum of Duration(us)).
#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QProcess>
#include <map>
#include <QStringList>

#include "app/command_line.h"
#include "tests/app/test_helpers.h"

using npuscope::test::sharedPath;

namespace {

struct Run {
  int exitCode = -1;
  QString out;
  QString err;
};

Run runStats(const QStringList& extra) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove(QStringLiteral("DISPLAY"));
  env.remove(QStringLiteral("WAYLAND_DISPLAY"));
  env.remove(QStringLiteral("QT_QPA_PLATFORM"));  // stats needs no platform at all
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(NPUSCOPE_BINARY), QStringList{QStringLiteral("stats")} + extra);
  REQUIRE(p.waitForStarted(10000));
  REQUIRE(p.waitForFinished(120000));
  Run r;
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

const char* const kFolder = "corpus/ascend-pt-910b-l1-text-2rank";
const QString kForeach = QStringLiteral("aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList");
const QString kCsvHeader = QStringLiteral(
    "Name,Count,Total(us),Self(us),Avg(us),Min(us),Max(us),Share of layer total(%),Type,Accelerator Core,Distinct Shapes,"
    "Wait Time(us)");

// Fields of one CSV line (quotes allowed, "" inside quotes).
QStringList splitCsv(const QString& line) {
  QStringList out;
  QString cur;
  bool quoted = false;
  for (qsizetype i = 0; i < line.size(); ++i) {
    const QChar c = line[i];
    if (quoted) {
      if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
        cur += c;
        ++i;
      } else if (c == QLatin1Char('"')) {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == QLatin1Char('"')) {
      quoted = true;
    } else if (c == QLatin1Char(',')) {
      out << cur.trimmed();
      cur.clear();
    } else {
      cur += c;
    }
  }
  out << cur.trimmed();
  return out;
}

// The CSV line of `name` split into fields (names in this corpus have no commas or quotes).
QStringList csvRow(const QString& csv, const QString& name, int nameColumn = 0) {
  for (const QString& line : csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
    const QStringList f = line.split(QLatin1Char(','));
    if (f.size() > nameColumn && f[nameColumn] == name) return f;
  }
  return {};
}

}  // namespace

TEST_CASE("detectCommand recognises stats", "[cli][stats]") {
  CHECK(npuscope::detectCommand({QStringLiteral("npuscope"), QStringLiteral("stats"), QStringLiteral("x")}) ==
        npuscope::Command::Stats);
}

TEST_CASE("stats --csv --rank: kernels aggregated as in kernel_details.csv", "[cli][stats]") {
  const Run r = runStats({sharedPath(kFolder), QStringLiteral("--csv"), QStringLiteral("--rank"), QStringLiteral("0")});
  INFO(r.err.toStdString());
  REQUIRE(r.exitCode == 0);
  const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  REQUIRE(lines.size() > 10);
  CHECK(lines[0] == kCsvHeader);
  const QStringList row = csvRow(r.out, kForeach);
  REQUIRE(row.size() == 12);
  CHECK(row[1] == QStringLiteral("3"));
  CHECK(row[2] == QStringLiteral("1959.079"));
  CHECK(row[5] == QStringLiteral("624.152"));  // min
  CHECK(row[6] == QStringLiteral("706.614"));  // max
  // Every data line has the header's field count.
  for (const QString& line : lines) CHECK(line.split(QLatin1Char(',')).size() == 12);
  // Every compute kernel of kernel_details.csv (aggregated here by name) has the same count and
  // total. The hcom_* rows of that file are communication ops: the Communication layer has them.
  QFile file(sharedPath(kFolder) + QStringLiteral("/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
  REQUIRE(file.open(QIODevice::ReadOnly));
  const QStringList csvLines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  const QStringList header = splitCsv(csvLines[0]);
  const int nameCol = static_cast<int>(header.indexOf(QStringLiteral("Name")));
  const int durCol = static_cast<int>(header.indexOf(QStringLiteral("Duration(us)")));
  REQUIRE(nameCol >= 0);
  REQUIRE(durCol >= 0);
  std::map<QString, std::pair<int, double>> expected;
  for (const QString& line : csvLines.mid(1)) {
    const QStringList f = splitCsv(line);
    auto& e = expected[f[nameCol]];
    ++e.first;
    e.second += f[durCol].toDouble();
  }
  REQUIRE(expected.size() == 82);
  int compared = 0;
  for (const auto& [name, e] : expected) {
    if (name.startsWith(QStringLiteral("hcom_"))) continue;
    INFO(name.toStdString());
    const QStringList got = csvRow(r.out, name);
    REQUIRE(got.size() == 12);
    CHECK(got[1].toInt() == e.first);
    CHECK(got[2].toDouble() == Approx(e.second).margin(0.0015));
    ++compared;
  }
  CHECK(compared == 78);
}

TEST_CASE("stats --csv over both ranks adds a Rank column", "[cli][stats]") {
  const Run r = runStats({sharedPath(kFolder), QStringLiteral("--csv"), QStringLiteral("--layer"), QStringLiteral("kernels")});
  INFO(r.err.toStdString());
  REQUIRE(r.exitCode == 0);
  const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  REQUIRE_FALSE(lines.isEmpty());
  CHECK(lines[0] == QStringLiteral("Rank,") + kCsvHeader);
  int foreachRows = 0;
  for (const QString& line : lines.mid(1)) {
    const QStringList f = line.split(QLatin1Char(','));
    REQUIRE(f.size() == 13);
    if (f[1] != kForeach) continue;
    ++foreachRows;
    CHECK(f[2] == QStringLiteral("3"));
    if (f[0] == QStringLiteral("0")) {
      CHECK(f[3] == QStringLiteral("1959.079"));
    } else {
      // kernel_details.csv sums 1954.139 us from durations rounded to ns; the trace has
      // 626.8325 us for one of them (sub-ns), which rounds half up to 626833 ns: 1 ns more.
      CHECK(f[3].toDouble() == Approx(1954.139).margin(0.0011));
    }
  }
  CHECK(foreachRows == 2);
}

TEST_CASE("stats text, --step and --range scopes", "[cli][stats]") {
  SECTION("text per rank") {
    const Run r = runStats({sharedPath(kFolder)});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains(QStringLiteral("== rank 0 ==")));
    CHECK(r.out.contains(QStringLiteral("== rank 1 ==")));
    CHECK(r.out.contains(QStringLiteral("kernels statistics")));
    bool found = false;
    for (const QString& line : r.out.split(QLatin1Char('\n'))) {
      if (!line.startsWith(kForeach)) continue;
      const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
      REQUIRE(f.size() >= 3);
      CHECK(f[1] == QStringLiteral("3"));
      CHECK((f[2] + QLatin1Char(' ') + f[3]) == QStringLiteral("1.959 ms"));
      found = true;
      break;
    }
    CHECK(found);
  }
  SECTION("--step 50 is the only step: every kernel of the CSV is in it") {
    const Run r = runStats({sharedPath(kFolder), QStringLiteral("--csv"), QStringLiteral("--rank"), QStringLiteral("1"),
                            QStringLiteral("--step"), QStringLiteral("50")});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    const QStringList row = csvRow(r.out, kForeach);
    REQUIRE(row.size() == 12);
    CHECK(row[1] == QStringLiteral("3"));
    CHECK(row[2].toDouble() == Approx(1954.139).margin(0.0011));  // see the Rank-column case
  }
  SECTION("--range holding only the first ForeachAddList start (1736408883838670.090 us)") {
    const Run r = runStats({sharedPath(kFolder), QStringLiteral("--csv"), QStringLiteral("--rank"), QStringLiteral("0"),
                            QStringLiteral("--range"), QStringLiteral("1736408883838670090:1736408883838670091")});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    REQUIRE(lines.size() == 2);
    const QStringList row = csvRow(r.out, kForeach);
    REQUIRE(row.size() == 12);
    CHECK(row[1] == QStringLiteral("1"));
    CHECK(row[2] == QStringLiteral("628.313"));
  }
  SECTION("other layers") {
    const Run r = runStats({sharedPath(kFolder), QStringLiteral("--layer"), QStringLiteral("cann"), QStringLiteral("--rank"),
                            QStringLiteral("0")});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains(QStringLiteral("cann statistics")));
    CHECK_FALSE(r.out.contains(QStringLiteral("== rank 1")));
  }
}

TEST_CASE("stats usage errors", "[cli][stats]") {
  CHECK(runStats({sharedPath(kFolder), QStringLiteral("--layer"), QStringLiteral("gpu")}).exitCode == 2);
  CHECK(runStats({sharedPath(kFolder), QStringLiteral("--step"), QStringLiteral("1"), QStringLiteral("--range"),
                  QStringLiteral("1:2")})
            .exitCode == 2);
  CHECK(runStats({sharedPath(kFolder), QStringLiteral("--range"), QStringLiteral("5:2")}).exitCode == 2);
  CHECK(runStats({}).exitCode == 2);
  const Run noStep = runStats({sharedPath(kFolder), QStringLiteral("--step"), QStringLiteral("999")});
  CHECK(noStep.exitCode == 1);
  CHECK(noStep.err.contains(QStringLiteral("no ProfilerStep#999")));
  const Run noRank = runStats({sharedPath(kFolder), QStringLiteral("--rank"), QStringLiteral("7")});
  CHECK(noRank.exitCode == 1);
  CHECK(noRank.err.contains(QStringLiteral("no rank 7 in")));
  CHECK(noRank.err.contains(QStringLiteral("(its ranks: 0, 1)")));
}

TEST_CASE("stats on a rank of tables only says what it holds and what is missing", "[cli][stats]") {
  // ascend-pt-cann83-l2-4rank-partial (SOURCES.md; ls of each ASCEND_PROFILER_OUTPUT): no rank has
  // trace_view.json; ranks 0 and 2 keep kernel_details.csv, ranks 1 and 3 only
  // step_trace_time.csv, communication.json and analysis.db.
  const QString cann83 = sharedPath("corpus/ascend-pt-cann83-l2-4rank-partial");
  const Run r1 = runStats({cann83, QStringLiteral("--rank"), QStringLiteral("1")});
  CHECK(r1.exitCode == 1);
  CHECK(r1.err.contains(QStringLiteral("rank 1 of")));
  CHECK(r1.err.contains(QStringLiteral("has no trace_view.json and no kernel_details.csv")));
  CHECK(r1.err.contains(QStringLiteral("it holds only step_trace_time.csv, communication.json")));
  CHECK(r1.err.contains(QStringLiteral("(ranks that have it: 0, 2)")));
  // Rank 0 has kernel_details.csv: the kernels layer works, the python layer needs the trace.
  const Run r0 = runStats({cann83, QStringLiteral("--rank"), QStringLiteral("0"), QStringLiteral("--layer"),
                           QStringLiteral("python")});
  CHECK(r0.exitCode == 1);
  CHECK(r0.err.contains(QStringLiteral("rank 0 of")));
  CHECK(r0.err.contains(QStringLiteral("has no trace_view.json;")));
  CHECK(r0.err.contains(QStringLiteral("only --layer kernels reads kernel_details.csv")));
  // Its kernels: 2448 rows of kernel_details.csv without the 15 COMMUNICATION rows (Python csv
  // count of Accelerator Core).
  const Run k0 = runStats({cann83, QStringLiteral("--rank"), QStringLiteral("0")});
  CHECK(k0.exitCode == 0);
  CHECK(k0.out.contains(QStringLiteral("2448 slices")));
}

TEST_CASE("stats --layer tasks: the Ascend Hardware tasks that are no kernel", "[cli][stats]") {
  // Python on rank 0's trace_view.json: 535 Ascend Hardware X events, 187 of them the compute rows
  // of kernel_details.csv (exact start and name), so 348 stream tasks: 112 "Write Value", 112
  // "Notify Wait", 72 "SDMA", the rest EVENT_* / MEMCPY_* / PROFILING_*.
  const Run r = runStats({sharedPath(kFolder), QStringLiteral("--csv"), QStringLiteral("--rank"), QStringLiteral("0"),
                          QStringLiteral("--layer"), QStringLiteral("tasks")});
  INFO(r.err.toStdString());
  REQUIRE(r.exitCode == 0);
  const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  REQUIRE(lines.size() > 1);
  CHECK(lines[0] == QStringLiteral("Name,Count,Total(us),Self(us),Avg(us),Min(us),Max(us),Share of layer total(%)"));
  int count = 0;
  double share = 0;
  for (const QString& line : lines.mid(1)) {
    const QStringList f = line.split(QLatin1Char(','));
    REQUIRE(f.size() == 8);
    count += f[1].toInt();
    share += f[7].toDouble();
  }
  CHECK(count == 348);
  CHECK(share == Approx(100.0).margin(0.001 * lines.size()));  // each share rounded to 3 decimals
  CHECK(csvRow(r.out, QStringLiteral("Notify Wait")).value(1) == QStringLiteral("112"));
  CHECK(csvRow(r.out, QStringLiteral("Write Value")).value(1) == QStringLiteral("112"));
  CHECK(csvRow(r.out, QStringLiteral("SDMA")).value(1) == QStringLiteral("72"));
}

TEST_CASE("stats prints the ranks' table messages on stderr", "[cli][stats]") {
  // A rank folder whose kernel_details.csv is case 30's empty.csv (0 bytes): "empty CSV".
  QTemporaryDir dir;
  REQUIRE(dir.isValid());
  const QString out = dir.filePath(QStringLiteral("x_ascend_pt/ASCEND_PROFILER_OUTPUT"));
  REQUIRE(QDir().mkpath(out));
  {
    QFile trace(out + QStringLiteral("/trace_view.json"));
    REQUIRE(trace.open(QIODevice::WriteOnly));
    trace.write(R"([{"ph":"M","name":"process_name","pid":2,"args":{"name":"Ascend Hardware"}},)"
                R"({"ph":"X","name":"MatMul","pid":2,"tid":1,"ts":1,"dur":10,"args":{"Task Type":"AI_CORE"}}])");
  }
  REQUIRE(QFile::copy(sharedPath("cases/30-empty-files/empty.csv"), out + QStringLiteral("/kernel_details.csv")));
  const Run r = runStats({dir.filePath(QStringLiteral("x_ascend_pt"))});
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.contains(QStringLiteral("kernel_details.csv: empty CSV")));
  CHECK(r.out.contains(QStringLiteral("MatMul")));
}
