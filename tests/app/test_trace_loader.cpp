// SPDX-License-Identifier: MIT
// TraceLoader: background loading, progress, errors, cancellation and supersession.
#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QSignalSpy>

#include "app/trace_loader.h"
#include "tests/app/test_helpers.h"

using npuscope::TraceLoader;
using npuscope::test::sharedPath;
using npuscope::test::waitUntil;

namespace {
// Counts the three terminal signals of a loader.
struct Outcome {
  explicit Outcome(TraceLoader& loader)
      : loaded(&loader, &TraceLoader::loaded),
        failed(&loader, &TraceLoader::failed),
        cancelled(&loader, &TraceLoader::cancelled),
        progress(&loader, &TraceLoader::progressChanged) {}
  [[nodiscard]] int total() const {
    return static_cast<int>(loaded.count() + failed.count() + cancelled.count());
  }
  QSignalSpy loaded;
  QSignalSpy failed;
  QSignalSpy cancelled;
  QSignalSpy progress;
};
}  // namespace

TEST_CASE("TraceLoader loads a two-rank folder in the background", "[loader]") {
  TraceLoader loader;
  Outcome outcome(loader);
  QSignalSpy started(&loader, &TraceLoader::started);
  const QString path = sharedPath("corpus/ascend-pt-910b-l1-text-2rank");
  loader.load(path);
  CHECK(started.count() == 1);
  CHECK(loader.isLoading());
  CHECK(loader.currentPath() == path);
  REQUIRE(waitUntil([&] { return outcome.total() > 0; }));
  INFO((outcome.failed.isEmpty() ? QString() : outcome.failed.first().at(1).toString()).toStdString());
  REQUIRE(outcome.loaded.count() == 1);
  CHECK_FALSE(loader.isLoading());
  const auto args = outcome.loaded.first();
  CHECK(args.at(0).toString() == path);
  const auto profile = args.at(1).value<std::shared_ptr<const npuscope::core::Profile>>();
  REQUIRE(profile);
  CHECK(profile->ranks.size() == 2);
  CHECK(args.at(2).toLongLong() >= 0);
  // Progress ends at 1 and never goes backwards.
  REQUIRE_FALSE(outcome.progress.isEmpty());
  double last = -1.0;
  for (const auto& p : outcome.progress) {
    CHECK(p.at(0).toDouble() >= last);
    last = p.at(0).toDouble();
  }
  CHECK(last == Approx(1.0));
}

TEST_CASE("TraceLoader reports a clear error for a path that does not exist", "[loader]") {
  TraceLoader loader;
  Outcome outcome(loader);
  loader.load(QStringLiteral("/nonexistent/npuscope/rank0_ascend_pt"));
  REQUIRE(waitUntil([&] { return outcome.total() > 0; }, 5000));
  REQUIRE(outcome.failed.count() == 1);
  CHECK(outcome.loaded.isEmpty());
  const QString error = outcome.failed.first().at(1).toString();
  CHECK(error.contains(QStringLiteral("No such file or folder")));
  CHECK(error.contains(QStringLiteral("/nonexistent/npuscope/rank0_ascend_pt")));
  CHECK_FALSE(loader.isLoading());
}

TEST_CASE("TraceLoader passes core's error through for an unloadable file", "[loader]") {
  TraceLoader loader;
  Outcome outcome(loader);
  loader.load(sharedPath("cases/30-empty-files/empty.json"));
  REQUIRE(waitUntil([&] { return outcome.total() > 0; }));
  // A 0-byte file is either refused with core's sentence or loaded as an empty profile; never
  // silently "nothing" with an empty message.
  if (outcome.failed.count() == 1) {
    CHECK_FALSE(outcome.failed.first().at(1).toString().trimmed().isEmpty());
  } else {
    CHECK(outcome.loaded.count() == 1);
  }
}

TEST_CASE("TraceLoader cancel returns at once and emits cancelled", "[loader]") {
  TraceLoader loader;
  Outcome outcome(loader);
  const QString path = sharedPath("corpus/ascend-pt-910b-l1-text-2rank");
  loader.load(path);
  REQUIRE(loader.isLoading());
  QElapsedTimer clock;
  clock.start();
  loader.cancel();
  CHECK(clock.elapsed() < 100);
  REQUIRE(outcome.cancelled.count() == 1);
  CHECK(outcome.cancelled.first().at(0).toString() == path);
  CHECK_FALSE(loader.isLoading());
  // The abandoned job must not surface later.
  waitUntil([] { return false; }, 1500);
  CHECK(outcome.loaded.isEmpty());
  CHECK(outcome.failed.isEmpty());
  CHECK(outcome.cancelled.count() == 1);
  // A second cancel is a no-op.
  loader.cancel();
  CHECK(outcome.cancelled.count() == 1);
}

TEST_CASE("TraceLoader: a new load supersedes the running one", "[loader]") {
  TraceLoader loader;
  Outcome outcome(loader);
  loader.load(sharedPath("corpus/ascend-pt-910b-l1-text-2rank"));
  const QString second = sharedPath("cases/07-zero-duration/trace.json");
  loader.load(second);
  CHECK(outcome.cancelled.count() == 1);
  REQUIRE(waitUntil([&] { return outcome.loaded.count() + outcome.failed.count() > 0; }));
  REQUIRE(outcome.loaded.count() == 1);
  CHECK(outcome.loaded.first().at(0).toString() == second);
  waitUntil([] { return false; }, 500);
  CHECK(outcome.total() == 2);
}

TEST_CASE("TraceLoader can be destroyed while loading", "[loader]") {
  auto loader = std::make_unique<TraceLoader>();
  loader->load(sharedPath("corpus/ascend-pt-910b-l1-text-2rank"));
  loader.reset();  // requests a stop; the worker finishes on its own
  waitUntil([] { return false; }, 200);
  SUCCEED();
}

TEST_CASE("TraceLoader cancel stops a large load early and keeps the event loop free",
          "[loader][large]") {
  // A synthetic ~60 MB trace: big enough that loading takes a noticeable time on 2 cores.
  QTemporaryDir tmp;
  REQUIRE(tmp.isValid());
  const QString file = tmp.filePath(QStringLiteral("big.json"));
  REQUIRE(npuscope::test::writeBigTrace(
      file, "\n", 600000,
      [](int i) {
        QByteArray s(R"("pid":1,"tid":)");
        s += QByteArray::number(1 + i % 4);
        s += R"(,"ts":)";
        s += QByteArray::number(1000 + i * 3);
        return s;
      },
      R"({"ph":"X","name":"last","pid":1,"tid":1,"ts":0,"dur":1}])"));

  SECTION("a full load publishes progress and keeps the GUI thread responsive") {
    TraceLoader loader;
    Outcome outcome(loader);
    QElapsedTimer clock;
    clock.start();
    loader.load(file);
    // Measure the longest gap between event-loop turns while the worker parses.
    qint64 longestGap = 0;
    qint64 last = clock.elapsed();
    REQUIRE(waitUntil([&] {
      const qint64 now = clock.elapsed();
      longestGap = std::max(longestGap, now - last);
      last = now;
      return outcome.total() > 0;
    }, 60000));
    REQUIRE(outcome.loaded.count() == 1);
    WARN("full load " << clock.elapsed() << " ms, " << outcome.progress.count()
                      << " progress updates, longest GUI stall " << longestGap << " ms");
    CHECK(longestGap < 250);
  }

  SECTION("cancel mid-load") {
    TraceLoader loader;
    Outcome outcome(loader);
    loader.load(file);
    REQUIRE(waitUntil([&] { return loader.progress() > 0.05 || outcome.total() > 0; }, 60000));
    if (outcome.total() > 0) {
      WARN("the load finished before it could be cancelled (machine too fast)");
      return;
    }
    QElapsedTimer clock;
    clock.start();
    loader.cancel();
    CHECK(clock.elapsed() < 50);
    CHECK(outcome.cancelled.count() == 1);
    // The worker observes the stop token and ends soon after.
    CHECK(waitUntil([] { return TraceLoader::runningWorkers() == 0; }, 5000));
    WARN("worker stopped " << clock.elapsed() << " ms after cancel");
    CHECK(outcome.loaded.isEmpty());
  }
}
