// SPDX-License-Identifier: MIT
// npuscope_bench_views: what a user waits for once a trace is loaded. Loads FILE, then times
// (median of --repeat runs each):
//   analyses  core::analyzeRank (overlap per device and step, bubbles with causes and chains,
//             verdict), core::computeStats for every layer, core::findSlices (substring, regex)
//   frames    TimelineWidget::renderToImage at W x H (default 1920x1080) at five zoom levels
//             (whole trace, 1/10, 1/100, 1/1000, 1/10000 of it, centred), once with no flow
//             category shown and once with every category's arrows on
//   reference the fixed reference frame (referenceFrame): the same picture on every build,
//             drawn by Qt's raster engine alone, so that a frame figure can be stated as a ratio
//             to what this machine and this Qt take for a simple frame (issue 27 item 4)
// and prints a table. Run offscreen: QT_QPA_PLATFORM=offscreen npuscope_bench_views FILE.
//
// Each frame figure is the median wall time and, in brackets, the median CPU time of the whole
// process over the same render (all threads: Qt's raster engine may fan fills out to a pool).
//
// Usage: npuscope_bench_views FILE [--width W] [--height H] [--repeat N] [--query TEXT]
//                             [--frames-only] [--level L] [--png-prefix PATH]
//   --frames-only      skip the analyses, time only the frames
//   --level L          time only zoom level L (0 = whole trace .. 4 = 1/10000), e.g. for perf
//   --png-prefix PATH  also save each zoom level's frame as PATH-L{0..4}[-arrows].png

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QSet>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/stats.h"
#include "core/profile/profile.h"
#include "widgets/timeline/timeline_widget.h"
#include "widgets/timeline/lane_canvas.h"

namespace {

double processCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct Timing {
  double wallMs = 0;  ///< median wall time
  double cpuMs = 0;   ///< median process CPU time (all threads)
};

Timing medianTiming(int repeat, const std::function<void()>& fn) {
  std::vector<double> ms, cpu;
  for (int i = 0; i < repeat; ++i) {
    const double c0 = processCpuMs();
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    cpu.push_back(processCpuMs() - c0);
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cpu.begin(), cpu.end());
  return {ms[ms.size() / 2], cpu[cpu.size() / 2]};
}

double medianMs(int repeat, const std::function<void()>& fn) { return medianTiming(repeat, fn).wallMs; }

/// The fixed reference frame (issue 27 item 4) into `img` (ARGB32 premultiplied): the shapes of a
/// zoomed-out timeline with arrows, through Qt's raster engine alone, the same on every build:
/// the background filled, 40 rows of up to 500 opaque boxes 1-4 px wide and 15 px tall in 12
/// colours, then 300 antialiased 1 px cubic curves from the top to the bottom. A frame figure
/// over this one (same run, same machine) says what to expect on another machine.
void referenceFrame(QImage& img) {
  static const QRgb kColors[12] = {0xff4e79a7, 0xfff28e2b, 0xffe15759, 0xff76b7b2, 0xff59a14f, 0xffedc948,
                                   0xffb07aa1, 0xffff9da7, 0xff9c755f, 0xffbab0ac, 0xff1f77b4, 0xff2ca02c};
  QPainter p(&img);
  p.fillRect(img.rect(), QColor(0xf6, 0xf7, 0xf9));
  const int w = img.width(), h = img.height();
  for (int row = 0; row < 40; ++row) {
    int x = 0;
    for (int i = 0; i < 500 && x < w; ++i) {
      const int bw = 1 + (row * 7 + i * 13) % 4;
      p.fillRect(QRect(x, 30 + row * (h - 60) / 40, bw, 15), QColor::fromRgb(kColors[(row * 5 + i) % 12]));
      x += bw + i % 3;
    }
  }
  p.setRenderHint(QPainter::Antialiasing, true);
  for (int k = 0; k < 300; ++k) {
    const double x0 = k * (w - 30) / 300.0, x1 = x0 + 25;
    QPainterPath path;
    path.moveTo(x0, 40);
    path.cubicTo(x0 + 30, 40, x1 - 30, h - 40, x1, h - 40);
    p.strokePath(path, QPen(QColor::fromRgb(kColors[k % 12]), 1.0));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s FILE [--width W] [--height H] [--repeat N] [--query TEXT] [--frames-only] "
                 "[--level L] [--png-prefix PATH]\n",
                 argv[0]);
    return 2;
  }
  int width = 1920, height = 1080, repeat = 5;
  std::string query = "matmul";
  std::string pngPrefix;
  bool framesOnly = false;
  int onlyLevel = -1;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--frames-only")) {
      framesOnly = true;
      continue;
    }
    if (i + 1 >= argc) break;
    if (!std::strcmp(argv[i], "--width")) width = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--height")) height = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeat")) repeat = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--query")) query = argv[i + 1];
    else if (!std::strcmp(argv[i], "--png-prefix")) pngPrefix = argv[i + 1];
    else if (!std::strcmp(argv[i], "--level")) onlyLevel = std::atoi(argv[i + 1]);
    ++i;
  }
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);

  const auto t0 = std::chrono::steady_clock::now();
  auto loaded = npuscope::core::loadProfile(argv[1]);
  if (!loaded.ok()) {
    std::fprintf(stderr, "cannot load: %s\n", loaded.error.c_str());
    return 1;
  }
  const double loadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::shared_ptr<const npuscope::core::Profile> profile = loaded.profile;
  const auto& rank = profile->ranks.front();
  const npuscope::core::Trace& trace = *rank.trace;
  std::printf("file %s: %zu slices, %zu flows, %llu events; loadProfile (load + analyses) %.0f ms\n", argv[1],
              trace.sliceCount(), trace.flows.size(), static_cast<unsigned long long>(trace.eventCount), loadMs);
  if (!framesOnly) {
    std::printf("\n%-44s %12s\n", "query", "median ms");
    std::size_t bubbles = 0;
    std::printf("%-44s %12.1f\n", "analyzeRank (overlap, bubbles, chains)", medianMs(repeat, [&] {
                  const auto a = npuscope::core::analyzeRank(trace, rank.kernels.get(), nullptr);
                  bubbles = a.devices.empty() ? 0 : a.devices.front().bubbles.size();
                }));
    for (auto layer : {npuscope::core::StatsLayer::Python, npuscope::core::StatsLayer::Cann,
                       npuscope::core::StatsLayer::Kernels, npuscope::core::StatsLayer::Communication}) {
      const std::string label = std::string("computeStats ") + npuscope::core::statsLayerKey(layer);
      std::printf("%-44s %12.1f\n", label.c_str(),
                  medianMs(repeat, [&] { (void)npuscope::core::computeStats(trace, layer, std::nullopt, rank.kernels.get()); }));
    }
    std::size_t hits = 0;
    std::printf("%-44s %12.1f\n", ("findSlices \"" + query + "\"").c_str(),
                medianMs(repeat, [&] { hits = npuscope::core::findSlices(trace, {query}).size(); }));
    std::printf("%-44s %12.1f\n", "findSlices regex \"^aten::(add|mul)\"",
                medianMs(repeat, [&] { (void)npuscope::core::findSlices(trace, {"^aten::(add|mul)", true}); }));
    std::printf("(bubbles %zu, search hits %zu)\n", bubbles, hits);
  }

  npuscope::widgets::TimelineWidget widget;
  widget.resize(width, height);
  widget.setProfile(profile);
  widget.setAllProcessesExpanded(true);
  QSet<QString> all;
  for (const auto& [cat, n] : npuscope::core::flowCategories(trace)) all.insert(QString::fromStdString(cat));
  const npuscope::core::TimeRange full = profile->range();
  std::printf("\nframes %dx%d (median of %d renders; wall ms [process CPU ms])\n%-22s %18s %20s\n", width, height,
              repeat, "visible range", "no arrows", "all flow arrows");
  for (int level = 0; level < 5; ++level) {
    if (onlyLevel >= 0 && level != onlyLevel) continue;
    npuscope::core::TimeNs span = full.duration();
    for (int k = 0; k < level; ++k) span /= 10;
    span = std::max<npuscope::core::TimeNs>(span, 1000);
    const npuscope::core::TimeNs mid = full.start + full.duration() / 2;
    const npuscope::core::TimeRange view{mid - span / 2, mid - span / 2 + span};
    const auto frame = [&] {
      widget.setVisibleRange({view.start + 1, view.end + 1});  // defeat the draw-list cache
      widget.setVisibleRange(view);
      (void)widget.renderToImage(QSize(width, height));
    };
    widget.setVisibleFlowCategories({});
    widget.setVisibleRange(view);
    const QImage plainImage = widget.renderToImage(QSize(width, height));  // also warms the caches
    const Timing plain = medianTiming(repeat, frame);
    widget.setVisibleFlowCategories(all);
    widget.setVisibleRange(view);
    const auto firstArrows = std::chrono::steady_clock::now();
    const QImage arrowsImage = widget.renderToImage(QSize(width, height));  // the first builds the flow index
    const double firstArrowsMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - firstArrows).count();
    const Timing arrows = medianTiming(repeat, frame);
    const QSize canvasSize = widget.partRect(npuscope::widgets::TimelineWidget::Part::Canvas, QSize(width, height)).size();
    const auto& list = widget.canvas()->drawList(canvasSize);
    std::fprintf(stderr, "level %d: %zu boxes in %zu rows, %zu labels, %zu counters; first arrows frame %.1f ms\n",
                 level, list.boxes.size(), list.rowRanges.size(), list.labels.size(), list.counters.size(), firstArrowsMs);
    if (!pngPrefix.empty()) {
      const QString base = QString::fromStdString(pngPrefix) + QStringLiteral("-L%1").arg(level);
      plainImage.save(base + QStringLiteral(".png"));
      arrowsImage.save(base + QStringLiteral("-arrows.png"));
    }
    char label[64], a[64], b[64];
    std::snprintf(label, sizeof label, "1/%d (%.3g ms)", level == 0 ? 1 : static_cast<int>(std::pow(10, level)),
                  static_cast<double>(span) / 1e6);
    std::snprintf(a, sizeof a, "%.1f [%.1f]", plain.wallMs, plain.cpuMs);
    std::snprintf(b, sizeof b, "%.1f [%.1f]", arrows.wallMs, arrows.cpuMs);
    std::printf("%-22s %18s %20s\n", label, a, b);
  }
  // A cluster of many ranks: the whole-trace frame scrolled to the middle of the lanes (what a
  // user sees scrolling through 1,024 ranks), then the first frame of a fresh widget (what the
  // window shows right after the load).
  widget.setVisibleFlowCategories({});
  widget.setVisibleRange(full);
  widget.setVerticalScroll(widget.layout().totalHeight() / 2);
  (void)widget.renderToImage(QSize(width, height));
  const Timing scrolled = medianTiming(repeat, [&] {
    widget.setVerticalScroll(widget.verticalScroll() == 0 ? widget.layout().totalHeight() / 2 : 0);
    (void)widget.renderToImage(QSize(width, height));
  });
  char sc[64];
  std::snprintf(sc, sizeof sc, "%.1f [%.1f]", scrolled.wallMs, scrolled.cpuMs);
  std::printf("%-22s %18s  (%zu ranks, %d px of lanes)\n", "whole, scrolled", sc, profile->ranks.size(), widget.layout().totalHeight());
  {
    const auto f0 = std::chrono::steady_clock::now();
    npuscope::widgets::TimelineWidget fresh;
    fresh.resize(width, height);
    fresh.setProfile(profile);
    (void)fresh.renderToImage(QSize(width, height));
    std::printf("%-22s %18.1f\n", "first frame (fresh)", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - f0).count());
  }
  QImage reference(width, height, QImage::Format_ARGB32_Premultiplied);
  referenceFrame(reference);  // warm
  const Timing ref = medianTiming(repeat, [&] { referenceFrame(reference); });
  char r[64];
  std::snprintf(r, sizeof r, "%.1f [%.1f]", ref.wallMs, ref.cpuMs);
  std::printf("%-22s %18s\n", "reference frame", r);
  if (!pngPrefix.empty()) reference.save(QString::fromStdString(pngPrefix) + QStringLiteral("-reference.png"));
  return 0;
}
