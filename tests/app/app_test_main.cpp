// SPDX-License-Identifier: MIT
// Catch2 session for the app tests: a QApplication on the offscreen platform, with settings
// redirected to a temporary folder so tests never touch the user's configuration.
#include "tests/catch_session.h"

#include <QApplication>
#include <QTemporaryDir>

#include "app/command_line.h"

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QTemporaryDir config;
  qputenv("XDG_CONFIG_HOME", QFile::encodeName(config.path()));
  QApplication app(argc, argv);
  npuscope::setApplicationIdentity();
  return runCatchSession(argc, argv);
}
