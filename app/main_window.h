// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <memory>

#include "core/profile.h"
#include "core/types.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QToolButton;

namespace npuscope::widgets {
class SliceDetailsPanel;
class TimelineWidget;
}  // namespace npuscope::widgets

namespace npuscope {

class TraceLoader;

/// The npuscope main window: the timeline in the centre, slice details docked on the right, a
/// status bar with the file, ranks, events, load time, memory and load warnings, and the
/// File / View / Help menus. Loading runs in a TraceLoader, so the window stays responsive; a
/// progress bar with Cancel sits in the status bar meanwhile. Settings (geometry, dock state,
/// last directory, recent paths) live in QSettings("npuscope", "npuscope").
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Starts loading a profiling folder or trace file in the background (cancels a running load).
  void openPath(const QString& path);
  /// Loads the current path again (F5), keeping the visible time range when possible.
  void reload();
  /// Shows the empty page with `hint` (e.g. when the bundled sample is missing).
  void showStartPage(const QString& hint = {});

  /// The loaded profile (null before the first successful load).
  [[nodiscard]] std::shared_ptr<const core::Profile> profile() const { return m_profile; }
  [[nodiscard]] QString currentPath() const { return m_path; }
  [[nodiscard]] widgets::TimelineWidget* timeline() const { return m_timeline; }
  [[nodiscard]] TraceLoader* loader() const { return m_loader; }
  /// When false, load errors go to the status bar and loadFinished only (no modal box). Tests.
  void setInteractiveErrors(bool on) { m_interactiveErrors = on; }

  /// Writes the timeline as PNG (or SVG when `file` ends in .svg). Returns an error or "".
  QString exportScreenshot(const QString& file);

 signals:
  /// Emitted after every load attempt: ok, or the error text ("cancelled" when cancelled).
  void loadFinished(bool ok, const QString& error);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  void createMenus();
  void createStatusBar();
  void createCentralArea();
  void readSettings();
  void writeSettings() const;

  void openFolderDialog();
  void openFileDialog();
  void exportScreenshotDialog();
  void rebuildRecentMenu();
  void rememberPath(const QString& path);
  void zoomToSelection();
  void showWarnings();
  void showShortcuts();
  void showAbout();

  void onLoadStarted(const QString& path);
  void onProgress(double fraction);
  void onLoaded(const QString& path, std::shared_ptr<const core::Profile> profile,
                qint64 elapsedMs);
  void onFailed(const QString& path, const QString& error);
  void onCancelled(const QString& path);
  void onSliceSelected(int rankIndex, core::SliceRef ref);
  void setLoadingUi(bool loading);
  void updateStatus();
  void updateMemory();
  void updateActions();

  TraceLoader* m_loader = nullptr;
  std::shared_ptr<const core::Profile> m_profile;
  QString m_path;          // path of the shown profile
  QString m_pendingPath;   // path being loaded
  qint64 m_loadMs = -1;
  bool m_interactiveErrors = true;
  bool m_restoreRange = false;
  core::TimeRange m_rangeBeforeReload;
  QString m_lastDirectory;
  QStringList m_recentPaths;

  QStackedWidget* m_stack = nullptr;
  QWidget* m_startPage = nullptr;
  QLabel* m_startHint = nullptr;
  widgets::TimelineWidget* m_timeline = nullptr;
  widgets::SliceDetailsPanel* m_details = nullptr;
  QDockWidget* m_detailsDock = nullptr;

  QLabel* m_fileLabel = nullptr;
  QLabel* m_ranksLabel = nullptr;
  QLabel* m_eventsLabel = nullptr;
  QLabel* m_timeLabel = nullptr;
  QLabel* m_memoryLabel = nullptr;
  QToolButton* m_warningsButton = nullptr;
  QProgressBar* m_progressBar = nullptr;
  QToolButton* m_cancelButton = nullptr;
  QTimer m_memoryTimer;

  QMenu* m_recentMenu = nullptr;
  QAction* m_openFolderAction = nullptr;
  QAction* m_openFileAction = nullptr;
  QAction* m_reloadAction = nullptr;
  QAction* m_exportAction = nullptr;
  QAction* m_quitAction = nullptr;
  QAction* m_fitAllAction = nullptr;
  QAction* m_zoomSelectionAction = nullptr;
  QAction* m_warningsAction = nullptr;
  QAction* m_shortcutsAction = nullptr;
  QAction* m_aboutAction = nullptr;
  QAction* m_cancelAction = nullptr;
};

}  // namespace npuscope
