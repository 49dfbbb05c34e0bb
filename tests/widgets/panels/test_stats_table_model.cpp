// SPDX-License-Identifier: MIT
#include "widgets/panels/stats_table_model.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"

using namespace npuscope;
using widgets::StatsTableModel;

namespace {

// QStringList from ASCII literals (the widgets/app code is built with QT_NO_CAST_FROM_ASCII).
inline QStringList L(std::initializer_list<const char*> items) {
  QStringList out;
  for (const char* s : items) out << QString::fromUtf8(s);
  return out;
}

core::StatsRow row(const std::string& name, std::uint64_t count, core::TimeNs total, core::TimeNs min, core::TimeNs max) {
  core::StatsRow r;
  r.name = name;
  r.count = count;
  r.total = total;
  r.self = total / 2;
  r.min = min;
  r.max = max;
  r.avg = static_cast<double>(total) / static_cast<double>(count);
  r.share = static_cast<double>(total) / 1e9;
  return r;
}

// Totals whose text order differs from their numeric order once in us: "12.000" < "200.000" < "9.000".
core::StatsTable sampleTable(core::StatsLayer layer = core::StatsLayer::Cann) {
  core::StatsTable t;
  t.layer = layer;
  t.scopeDuration = 1'000'000'000;
  t.rows = {row("aclnnMatmul", 2, 250'000'000, 1'000, 9'000),   // 250 ms total
            row("aclrtMemcpy", 1, 9'000, 9'000, 9'000),         // 9 us
            row("MatMulV2", 4, 12'000, 1'500, 4'000)};          // 12 us
  t.rows[0].type = "MatMul";
  t.rows[0].core = "AI_CORE";
  t.rows[0].shapes = 3;
  t.rows[0].waitUs = 1.25;
  t.rows[0].tflops = 38.211;
  t.rows[0].tflopsRows = 1;
  t.rows[0].bound = "memory-bound (MTE2)";
  t.rows[0].boundShare = 0.656;
  return t;
}

QStringList columnTexts(const QAbstractItemModel& m, int column) {
  QStringList out;
  for (int r = 0; r < m.rowCount(); ++r) out << m.index(r, column).data().toString();
  return out;
}

}  // namespace

TEST_CASE("StatsTableModel passes QAbstractItemModelTester through resets", "[stats_table_model]") {
  StatsTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  CHECK(model.rowCount() == 0);
  model.setTable(sampleTable());
  CHECK(model.rowCount() == 3);
  CHECK(model.columnCount() == StatsTableModel::Share + 1);  // no kernel columns for CANN
  model.setTable(sampleTable(core::StatsLayer::Kernels));
  CHECK(model.columnCount() == StatsTableModel::ColumnCount);
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
  proxy.setSortRole(StatsTableModel::SortRole);
  proxy.sort(StatsTableModel::Total);
  model.setTable({});
  CHECK(proxy.rowCount() == 0);
}

TEST_CASE("StatsTableModel: one unit per duration column, chosen from the data", "[stats_table_model]") {
  StatsTableModel model;
  model.setTable(sampleTable(core::StatsLayer::Kernels));
  // Total reaches 250 ms -> ms for the whole column; Min/Max stay below 100 ms -> us.
  CHECK(model.unit(StatsTableModel::Total).suffix == QStringLiteral("ms"));
  CHECK(model.headerData(StatsTableModel::Total, Qt::Horizontal).toString() == QStringLiteral("Total (ms)"));
  CHECK(model.headerData(StatsTableModel::Min, Qt::Horizontal).toString() == QStringLiteral("Min (us)"));
  CHECK(columnTexts(model, StatsTableModel::Total) == L({"250.000", "0.009", "0.012"}));
  CHECK(columnTexts(model, StatsTableModel::Min) == L({"1.000", "9.000", "1.500"}));
  CHECK(columnTexts(model, StatsTableModel::Avg) == L({"125.000", "0.009", "0.003"}));  // 3 us in ms
  CHECK(columnTexts(model, StatsTableModel::Count) == L({"2", "1", "4"}));
  CHECK(columnTexts(model, StatsTableModel::Share) == L({"25.00 %", "0.00 %", "0.00 %"}));
  CHECK(model.index(0, StatsTableModel::Type).data().toString() == QStringLiteral("MatMul"));
  CHECK(model.index(0, StatsTableModel::Core).data().toString() == QStringLiteral("AI_CORE"));
  CHECK(model.index(0, StatsTableModel::Shapes).data().toString() == QStringLiteral("3"));
  CHECK(model.index(0, StatsTableModel::Wait).data().toString() == QStringLiteral("1.250"));
  // TFLOPS and Bound: the core figures with 2 decimals / as text, "—" where not computable
  // (rows 1 and 2 have neither), a bound covering part of the time with its share.
  CHECK(columnTexts(model, StatsTableModel::Tflops) == L({"38.21", "\u2014", "\u2014"}));
  CHECK(columnTexts(model, StatsTableModel::Bound) == L({"memory-bound (MTE2) (66 %)", "\u2014", "\u2014"}));
  CHECK(model.headerData(StatsTableModel::Tflops, Qt::Horizontal).toString() == QStringLiteral("TFLOPS"));
  CHECK(model.index(1, StatsTableModel::Tflops).data(StatsTableModel::SortRole).toDouble() < 0);
  // Tooltips carry the exact duration; SortRole the raw ns.
  CHECK(model.index(1, StatsTableModel::Total).data(StatsTableModel::SortRole).toLongLong() == 9'000);
  CHECK(model.index(1, StatsTableModel::Total).data(Qt::ToolTipRole).toString() == QStringLiteral("9 us"));
  CHECK(widgets::unitForMaxDuration(99e6).suffix == QStringLiteral("us"));
  CHECK(widgets::unitForMaxDuration(100e6).suffix == QStringLiteral("ms"));
  CHECK(widgets::unitForMaxDuration(200e9).suffix == QStringLiteral("s"));
}

TEST_CASE("StatsTableModel: SortRole sorts numerically, not as text", "[stats_table_model]") {
  StatsTableModel model;
  core::StatsTable t = sampleTable();
  t.rows[0].total = 200'000;  // 200 us: all totals in us now ("9.000", "12.000", "200.000")
  model.setTable(t);
  REQUIRE(model.unit(StatsTableModel::Total).suffix == QStringLiteral("us"));
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(StatsTableModel::SortRole);
  proxy.sort(StatsTableModel::Total, Qt::AscendingOrder);
  CHECK(columnTexts(proxy, StatsTableModel::Total) == L({"9.000", "12.000", "200.000"}));
  proxy.sort(StatsTableModel::Total, Qt::DescendingOrder);
  CHECK(columnTexts(proxy, StatsTableModel::Name) == L({"aclnnMatmul", "MatMulV2", "aclrtMemcpy"}));
  proxy.sort(StatsTableModel::Count, Qt::DescendingOrder);
  CHECK(columnTexts(proxy, StatsTableModel::Count) == L({"4", "2", "1"}));
  // The text order would be different: that is what DisplayRole sorting would give.
  proxy.setSortRole(Qt::DisplayRole);
  proxy.sort(StatsTableModel::Total, Qt::AscendingOrder);
  CHECK(columnTexts(proxy, StatsTableModel::Total) == L({"12.000", "200.000", "9.000"}));
}

TEST_CASE("StatsTableModel: name filter through the proxy, TSV rows", "[stats_table_model]") {
  StatsTableModel model;
  model.setTable(sampleTable());
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setFilterRole(StatsTableModel::NameRole);
  proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy.setFilterFixedString(QStringLiteral("matmul"));
  CHECK(columnTexts(proxy, StatsTableModel::Name) == L({"aclnnMatmul", "MatMulV2"}));
  proxy.setFilterRegularExpression(QRegularExpression(QStringLiteral("^acl"), QRegularExpression::CaseInsensitiveOption));
  CHECK(columnTexts(proxy, StatsTableModel::Name) == L({"aclnnMatmul", "aclrtMemcpy"}));
  CHECK(model.rowOfName(QStringLiteral("MatMulV2")) == 2);
  CHECK(model.rowOfName(QStringLiteral("nope")) == -1);

  model.setTable(sampleTable());
  const QString tsv = model.rowsAsTsv({2});
  const QStringList lines = tsv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == QStringLiteral("Name\tCount\tTotal (ms)\tSelf (ms)\tAvg (ms)\tMin (us)\tMax (us)\t% of layer"));
  CHECK(lines[1] == QStringLiteral("MatMulV2\t4\t0.012\t0.006\t0.003\t1.500\t4.000\t0.00 %"));
  // The share header names its denominator.
  core::StatsTable overlap = sampleTable(core::StatsLayer::Overlap);
  overlap.shareBasis = core::ShareBasis::E2E;
  model.setTable(overlap);
  CHECK(model.headerData(StatsTableModel::Share, Qt::Horizontal).toString() == QStringLiteral("% of E2E"));
  CHECK(model.headerData(StatsTableModel::Share, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QStringLiteral("Free")));
}
