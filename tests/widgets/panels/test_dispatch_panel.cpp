// SPDX-License-Identifier: MIT
// The Dispatch dock's panel on the corpus 910B Level1 rank 0: its table shows, per torch op, the
// figures tools/oracles/dispatch_oracle.py computes by its own chain walk (tests/data/
// dispatch_oracle.json), its histogram holds every instance, and a click hands the op's
// instances to the timeline.
#include "widgets/panels/dispatch_panel.h"

#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTableWidget>
#include <catch2/catch.hpp>
#include <numeric>

#include "core/profile/profile.h"
#include "tests/widgets/test_profiles.h"

using namespace npuscope;

namespace {

constexpr const char* kRank0 = "ascend-pt-910b-l1-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";

/// The oracle's rows of the rank-0 trace for one layer: op -> (count, host p50 us). Read with Qt's
/// JSON (this binary must not compile simdjson's inline code: core is built with its threads
/// option, and two layouts of simdjson::dom::parser in one program break it).
std::map<std::string, std::pair<std::size_t, double>> oracleRows(const QString& layer) {
  QFile file(QStringLiteral(NPUSCOPE_SOURCE_DIR "/tests/data/dispatch_oracle.json"));
  REQUIRE(file.open(QIODevice::ReadOnly));
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
  std::map<std::string, std::pair<std::size_t, double>> out;
  for (const QJsonValue cap : doc.object().value(QStringLiteral("captures")).toArray()) {
    if (cap.toObject().value(QStringLiteral("trace")).toString() != QLatin1String(kRank0)) continue;
    for (const QJsonValue s : cap.toObject().value(QStringLiteral("stats")).toArray()) {
      const QJsonObject o = s.toObject();
      if (o.value(QStringLiteral("layer")).toString() == layer)
        out[o.value(QStringLiteral("op")).toString().toStdString()] = {
            static_cast<std::size_t>(o.value(QStringLiteral("count")).toInteger()), o.value(QStringLiteral("host_p50_us")).toDouble()};
    }
  }
  return out;
}

}  // namespace

TEST_CASE("dispatch panel: the torch ops' rows equal the oracle's, the histogram holds every instance", "[dispatch_panel]") {
  auto r = core::loadProfile(std::string(NPUSCOPE_SHARED_DIR) + "/corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt");
  REQUIRE(r.ok());
  widgets::DispatchPanel panel;
  panel.resize(900, 600);
  panel.setProfile(r.profile);
  panel.show();  // the statistics are computed when the panel is first shown
  QTableWidget* table = panel.table();
  const auto want = oracleRows(QStringLiteral("torch"));
  REQUIRE(want.size() > 10);
  CHECK(static_cast<std::size_t>(table->rowCount()) == want.size());
  int convRow = -1;
  for (int row = 0; row < table->rowCount(); ++row) {
    const std::string op = table->item(row, 0)->text().toStdString();
    INFO(op);
    const auto it = want.find(op);
    REQUIRE(it != want.end());
    CHECK(table->item(row, 1)->data(Qt::DisplayRole).toDouble() == double(it->second.first));
    CHECK(table->item(row, 2)->data(Qt::DisplayRole).toDouble() == Approx(it->second.second).margin(0.06));  // 0.1 us shown
    if (op == "aten::conv2d") convRow = row;
  }
  REQUIRE(convRow >= 0);
  QSignalSpy spy(&panel, &widgets::DispatchPanel::instancesSelected);
  REQUIRE(panel.selectRow(convRow));
  REQUIRE(spy.count() == 1);
  const auto slices = spy.at(0).at(1).value<std::vector<core::SliceRef>>();
  CHECK(slices.size() == want.at("aten::conv2d").first);  // the 5 aten::conv2d calls of the step
  const auto& bins = panel.histogram()->bins();
  REQUIRE(bins.size() == 24);
  CHECK(std::accumulate(bins.begin(), bins.end(), 0) == static_cast<int>(want.at("aten::conv2d").first));
  // The CANN layer: AscendCL@ APIs, as many rows as the oracle's.
  auto* layer = panel.findChildren<QComboBox*>().at(1);
  layer->setCurrentIndex(1);
  emit layer->activated(1);
  CHECK(static_cast<std::size_t>(table->rowCount()) == oracleRows(QStringLiteral("cann")).size());
}
