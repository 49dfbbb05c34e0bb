// SPDX-License-Identifier: MIT
// npuscope entry point: picks the kind of application object from the command (no GUI for
// `report`/`stats`, offscreen rendering for `screenshot` on a headless machine), then runs it.

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QIcon>
#include <QLocale>
#include <QTimer>
#include <cstdio>
#include <string>

#include "app/app_support.h"
#include "app/appearance.h"
#include "app/command_line.h"
#include "app/main_window.h"
#include "core/base/guard.h"

namespace {

QStringList rawArguments(int argc, char** argv) {
  QStringList args;
  args.reserve(argc);
  for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
  return args;
}

int runGui(int argc, char** argv) {
  QApplication app(argc, argv);
  npuscope::setApplicationIdentity();
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/npuscope.svg")));
  QGuiApplication::setDesktopFileName(QStringLiteral("npuscope"));

  const npuscope::GuiOptions options = npuscope::parseGuiArguments(QCoreApplication::arguments());
  if (options.exitCode >= 0) return options.exitCode;
  // View > Language (default: the system locale) and View > Theme, before any window exists.
  const QString language = npuscope::resolveLanguage(npuscope::savedLanguageSetting(), QLocale::system().name());
  if (!npuscope::installTranslation(app, language))
    std::fprintf(stderr, "npuscope: the %s translation could not be loaded; using English\n", qPrintable(language));
  npuscope::applyTheme(app, npuscope::savedTheme());

  npuscope::MainWindow window;
  window.show();

  if (!options.grabFile.isEmpty()) {
    // Hidden hook for looking at the window from scripts: grab once the first load settles.
    window.setInteractiveErrors(false);
    const QString file = options.grabFile;
    auto grab = [&window, file] {
      QTimer::singleShot(400, &window, [&window, file] {
        const bool ok = window.grab().save(file, "PNG");
        QCoreApplication::exit(ok ? 0 : 1);
      });
    };
    QObject::connect(&window, &npuscope::MainWindow::loadFinished, &window, grab);
    if (options.path.isEmpty() && npuscope::findSampleProfile().isEmpty()) grab();
  }

  QString path = options.path;
  if (path.isEmpty()) {
    path = npuscope::findSampleProfile();
    if (path.isEmpty()) {
      window.showStartPage(QCoreApplication::translate(
          "npuscope", "The bundled sample profile was not found. Open a profiling folder "
                      "(*_ascend_pt) or a trace_view.json to begin — or drop it on this window."));
    }
  }
  if (!path.isEmpty()) window.openPath(path);
  return app.exec();
}

}  // namespace

namespace {

int run(int argc, char** argv) {
  const QStringList args = rawArguments(argc, argv);
  switch (npuscope::detectCommand(args)) {
    case npuscope::Command::Report:
    case npuscope::Command::Compare: {
      const bool report = npuscope::detectCommand(args) == npuscope::Command::Report;
      if (args.contains(QStringLiteral("--html"))) {
        // The HTML report holds timeline images: rendered offscreen, as `screenshot` renders them.
        npuscope::useOffscreenWhenHeadless();
        QApplication app(argc, argv);
        npuscope::setApplicationIdentity();
        return report ? npuscope::runReport(QCoreApplication::arguments()) : npuscope::runCompare(QCoreApplication::arguments());
      }
      QCoreApplication app(argc, argv);
      npuscope::setApplicationIdentity();
      return report ? npuscope::runReport(QCoreApplication::arguments()) : npuscope::runCompare(QCoreApplication::arguments());
    }
    case npuscope::Command::Stats: {
      QCoreApplication app(argc, argv);
      npuscope::setApplicationIdentity();
      return npuscope::runStats(QCoreApplication::arguments());
    }
    case npuscope::Command::Summarize: {
      QCoreApplication app(argc, argv);
      npuscope::setApplicationIdentity();
      return npuscope::runSummarize(QCoreApplication::arguments());
    }
    case npuscope::Command::Screenshot: {
      npuscope::useOffscreenWhenHeadless();
      QApplication app(argc, argv);
      npuscope::setApplicationIdentity();
      return npuscope::runScreenshot(QCoreApplication::arguments());
    }
    case npuscope::Command::Info: {
      QCoreApplication app(argc, argv);
      npuscope::setApplicationIdentity();
      (void)npuscope::parseGuiArguments(QCoreApplication::arguments());  // prints and exits
      return 0;
    }
    case npuscope::Command::Gui:
      break;
  }
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
      qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    std::fputs("npuscope: no display found (DISPLAY/WAYLAND_DISPLAY unset). Run it on a desktop, "
               "under xvfb-run, or use 'npuscope report' / 'npuscope screenshot'.\n",
               stderr);
    return 1;
  }
  return runGui(argc, argv);
}

}  // namespace

// The command boundary: an exception that escapes (none should: core never throws) is printed
// as a message and exit code 70 (EX_SOFTWARE) instead of aborting the process.
int main(int argc, char** argv) {
  npuscope::setRawArguments(argc, argv);
  try {
    return run(argc, argv);
  } catch (...) {
    const std::string message = npuscope::core::describeException(std::current_exception(), "running npuscope");
    std::fprintf(stderr, "npuscope: %s\n", message.c_str());
    return 70;
  }
}
