// SPDX-License-Identifier: MIT
#pragma once

#include <QIcon>
#include <QMainWindow>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <memory>
#include <set>

#include "core/profile/profile.h"
#include "app/trace_loader.h"
#include "core/base/types.h"
#include "widgets/export/timeline_export.h"
#include "widgets/timeline/lane_layout.h"
#include "widgets/view_state.h"

class QAction;
class QDockWidget;
class QSplitter;
class QLabel;
class QMenu;
class QPushButton;
class QStackedWidget;
class QToolButton;

namespace npuscope::widgets {
class SearchBar;
class SliceDetailsPanel;
class StatsView;
class TimelineWidget;
class TopDownPanel;
class AdvicePanel;
class ChainPanel;
class ClusterPanel;
class DispatchPanel;
class ComparePanel;
class ViewState;
class LoadPreviewView;
}  // namespace npuscope::widgets

namespace npuscope {

/// The npuscope main window: the timeline in the centre, slice details docked on the right, a
/// status bar with the file, ranks, events, load time, memory and load warnings, and the
/// File / View / Help menus. Loading runs in a TraceLoader, so the window stays responsive;
/// meanwhile the centre shows a LoadPreviewView: a banner with progress, remaining time and
/// Cancel (Esc) over the ruler and lane headers known so far. The loaded profile then replaces
/// it; after an error or a cancel the previous view (or the start page) comes back unchanged. Settings (geometry, dock state,
/// last directory, recent paths) live in QSettings("npuscope", "npuscope").
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Starts loading a profiling folder or trace file in the background (cancels a running load).
  void openPath(const QString& path);
  /// Loads the current path again (F5), keeping the visible time range, the vertical scroll
  /// position and the expanded / collapsed groups when possible.
  void reload();
  /// Shows the empty page with `hint` (e.g. when the bundled sample is missing).
  void showStartPage(const QString& hint = {});

  /// The loaded profile (null before the first successful load).
  [[nodiscard]] std::shared_ptr<const core::Profile> profile() const { return m_profile; }
  [[nodiscard]] QString currentPath() const { return m_path; }
  [[nodiscard]] widgets::TimelineWidget* timeline() const { return m_timeline; }
  /// What the views show (profile, selected slice, visible range, selected bubble), shared by
  /// the timeline and the docks; its activateSlice / activateBubble requests are routed here
  /// (onChainLinkActivated, activateBubble).
  [[nodiscard]] widgets::ViewState* viewState() const { return m_viewState; }
  /// Docks `panel` (a widget that subscribes to viewState()) in `area` under `title`, with the
  /// stable `objectName` the saved window state uses, and adds its toggle to the View menu.
  /// The one line a new dock needs (docs/architecture.md, "A new dock").
  QDockWidget* addViewDock(QWidget* panel, const QString& title, const QString& objectName,
                           Qt::DockWidgetArea area = Qt::BottomDockWidgetArea);
  [[nodiscard]] TraceLoader* loader() const { return m_loader; }
  /// The view shown in the centre while a load runs (skeleton timeline and progress banner).
  [[nodiscard]] widgets::LoadPreviewView* loadPreview() const { return m_loadPreview; }
  /// The banner's detail text for `status` ("43% — 1.2 GB of 2.8 GB, ~3 s left").
  [[nodiscard]] static QString loadStatusText(const LoadStatus& status);
  /// When false, load errors go to the status bar and loadFinished only (no modal box). Tests.
  void setInteractiveErrors(bool on) { m_interactiveErrors = on; }
  /// View > Language: saves `key` ("system", "en", "zh_CN"), installs its translation and swaps
  /// this window for a new one built in that language (the menus, docks and models are built
  /// with their texts), with the same geometry, dock layout and loaded profile (no reload); this
  /// window closes. Returns the new window (null when the language is already in use).
  MainWindow* switchLanguage(const QString& key);

  /// Writes the timeline as PNG (or SVG when `file` ends in .svg). Returns an error or "".
  QString exportScreenshot(const QString& file);
  /// Exports the timeline to `file` as `options` say (widgets::writeTimelineExport); refuses a
  /// file inside the profiling folder. Returns "" or the error sentence.
  QString exportScreenshot(const QString& file, const widgets::TimelineExportOptions& options);

  // Top-Down (main_window_topdown.cpp).
  [[nodiscard]] widgets::TopDownPanel* topDownPanel() const { return m_topDown; }
  [[nodiscard]] widgets::ChainPanel* chainPanel() const { return m_chain; }
  [[nodiscard]] QDockWidget* topDownDock() const { return m_topDownDock; }
  [[nodiscard]] QDockWidget* chainDock() const { return m_chainDock; }
  /// What a click in the bubble list does: selects the bubble in the list and on the timeline,
  /// zooms the timeline to it (25% margin each side), selects the device task that ends it and
  /// shows that task's dispatch chain. Indexes: Profile::ranks, RankAnalysis::devices,
  /// DeviceAnalysis::bubbles. Returns false when there is no such bubble.
  bool activateBubble(int rankIndex, int deviceIndex, int bubbleIndex);

  /// The Statistics dock's view and the timeline's find bar (Ctrl+F).
  [[nodiscard]] widgets::StatsView* statsView() const { return m_stats; }
  [[nodiscard]] QDockWidget* statsDock() const { return m_statsDock; }
  /// The Advice dock (the advisor's findings, docs/diagnosis.md §6) and its panel.
  [[nodiscard]] widgets::AdvicePanel* advicePanel() const { return m_advice; }
  [[nodiscard]] QDockWidget* adviceDock() const { return m_adviceDock; }
  /// The Cluster dock (core's cross-rank communication analysis, docs/diagnosis.md §5.4).
  [[nodiscard]] widgets::ClusterPanel* clusterPanel() const { return m_cluster; }
  [[nodiscard]] QDockWidget* clusterDock() const { return m_clusterDock; }
  [[nodiscard]] widgets::DispatchPanel* dispatchPanel() const { return m_dispatch; }
  [[nodiscard]] QDockWidget* dispatchDock() const { return m_dispatchDock; }
  /// File > Compare With…: loads `path` (B) in the background; its timeline is stacked under the
  /// open one (A), aligned (ComparePanel::align) with zoom and scroll linked, and the Compare
  /// dock lists core::compareProfiles(A, B). compareFinished tells when it is done.
  void compareWith(const QString& path);
  void closeCompare();
  [[nodiscard]] std::shared_ptr<const core::Profile> compareProfile() const { return m_profileB; }
  [[nodiscard]] widgets::TimelineWidget* compareTimeline() const { return m_timelineB; }
  [[nodiscard]] widgets::ComparePanel* comparePanel() const { return m_comparePanel; }
  [[nodiscard]] QDockWidget* compareDock() const { return m_compareDock; }
  /// B's time minus A's at the same aligned moment, ns.
  [[nodiscard]] core::TimeNs compareOffset() const { return m_compareOffset; }
  /// What a click on a collective in the Cluster dock does: outlines its op slice on every rank
  /// (`ops`), selects the `focus` rank's op (scrolling to its lane) and zooms to it.
  void showCollective(const std::vector<widgets::RankSliceRef>& ops, widgets::RankSliceRef focus);
  /// Clears the lane filters: a collective's, Device and HCCL Lanes Only, the rank filter (View >
  /// Show All Lanes).
  void showAllLanes();
  /// View > Device and HCCL Lanes Only (Ctrl+Shift+D): every rank keeps only its device lanes
  /// (Ascend Hardware streams, Overlap Analysis, a Kineto device's streams) and its HCCL lanes, so
  /// that the same kind of lane of all ranks lies together (issue 42 item 2).
  void setDeviceLanesOnly(bool on);
  /// View > Show Ranks… (Ctrl+Shift+R): only the ranks whose ids `spec` lists ("0-3, 8, 12-15";
  /// empty: every rank) are laid out. Returns false, changing nothing, when `spec` does not parse
  /// or names no loaded rank.
  bool setRankFilter(const QString& spec);
  /// Opens rank `rankIndex` in full: a rank read from a summary in a new npuscope window on the
  /// folder its summary names, when it is reachable from here; else says where it lies.
  void openRankInFull(int rankIndex);
  [[nodiscard]] widgets::SearchBar* searchBar() const { return m_search; }
  /// View > Show Load Warnings… (also on the toolbar): its icon is the orange warning sign when
  /// the profile has load warnings (the status bar's count), a grey one when it has none.
  [[nodiscard]] QAction* warningsAction() const { return m_warningsAction; }
  /// View > Flow Arrows: one checkable action per flow category of the profile (data: the
  /// category), all unchecked after a load except the categories checked before a reload.
  [[nodiscard]] QList<QAction*> flowActions() const;
  /// Selects the other end of the selected slice's first outgoing (`forward`) or incoming flow.
  void followFlow(bool forward);

 signals:
  /// Emitted after every load attempt: ok, or the error text ("cancelled" when cancelled).
  void loadFinished(bool ok, const QString& error);
  /// Emitted after every compareWith: whether B was loaded and compared.
  void compareFinished(bool ok);
  /// Emitted by switchLanguage with the window that replaces this one, before this one closes.
  void languageSwitched(MainWindow* next);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  /// W/S/A/D (and with Shift) and Ctrl+0 reach the timeline wherever the focus is in the
  /// application, docks and floating docks included, unless a text field takes the key (its
  /// ShortcutOverride wins): QShortcuts of Qt::ApplicationShortcut that forward the key to the
  /// timeline's canvas (issue 42 item 3).
  void addNavigationShortcuts();
  void createMenus();
  void createStatusBar();
  void createCentralArea();
  void createMarkersDock();  // Markers dock (widgets/panels/markers_panel.h), saved per folder
  void createClusterDock();  // main_window_cluster.cpp: the Cluster dock, tabbed with the bottom docks
  void createDispatchDock();  // main_window_cluster.cpp: the Dispatch dock (per-op dispatch statistics)
  void createCompare();       // main_window_compare.cpp: B's timeline, loader, Compare dock and actions
  void onCompareLoaded(const QString& path, std::shared_ptr<const core::Profile> profile);
  void alignCompare();
  void createStatsUi();  // Statistics dock, find bar, flow-arrow menu, follow-flow actions
  void rebuildFlowMenu();
  void applyFlowCategories();
  void readSettings();
  /// Shrinks and moves the window inside its screen's available area when it does not fit.
  void clampToScreen();
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
  void onPreviewChanged();
  void endLoadPreview();
  void onLoaded(const QString& path, std::shared_ptr<const core::Profile> profile,
                qint64 elapsedMs);
  void onFailed(const QString& path, const QString& error);
  void onCancelled(const QString& path);
  void onSliceSelected(int rankIndex, core::SliceRef ref);
  void setLoadingUi(bool loading);
  // Top-Down docks (main_window_topdown.cpp).
  void createTopDownDocks();
  void createAdviceDock();  // main_window.cpp: the Advice dock, tabbed with the bottom docks
  /// `panel` in a frameless scroll area, so that a bottom dock can shrink below the panel's own
  /// minimum height (it scrolls then) and leave the timeline its room.
  QWidget* shrinkable(QWidget* panel);
  void addTopDownMenuEntries(QMenu* view);
  // main_window_appearance.cpp: View > Language and View > Theme (app/appearance.h).
  void addAppearanceMenus(QMenu* view);
  void showTopDownProfile();
  void onTimelineBubbleClicked(int rankIndex, int deviceIndex, int bubbleIndex);
  void showChainForSlice(int rankIndex, core::SliceRef ref);
  void showBubbleChain(int rankIndex, int deviceIndex, int bubbleIndex);
  void onChainLinkActivated(int rankIndex, core::SliceRef ref);
  void updateStatus();
  void updateMemory();
  void updateActions();

  TraceLoader* m_loader = nullptr;
  widgets::ViewState* m_viewState = nullptr;
  std::shared_ptr<const core::Profile> m_profile;
  QString m_path;          // path of the shown profile
  bool m_restoringMarkers = false;  // loading the folder's markers: do not pop the dock up
  QString m_pendingPath;   // path being loaded
  qint64 m_loadMs = -1;
  bool m_interactiveErrors = true;
  bool m_shownOnce = false;
  QSize m_restoredSize;  // the size restored from the settings or the default one, clamped to the screen
  bool m_restoreRange = false;
  core::TimeRange m_rangeBeforeReload;
  int m_scrollBeforeReload = 0;
  widgets::LaneLayout::ExpandState m_expandBeforeReload;
  QString m_lastDirectory;
  QStringList m_recentPaths;

  QStackedWidget* m_stack = nullptr;
  widgets::LoadPreviewView* m_loadPreview = nullptr;
  QWidget* m_startPage = nullptr;
  QLabel* m_startHint = nullptr;
  widgets::TimelineWidget* m_timeline = nullptr;
  widgets::SliceDetailsPanel* m_details = nullptr;
  QDockWidget* m_detailsDock = nullptr;
  widgets::TopDownPanel* m_topDown = nullptr;
  QDockWidget* m_topDownDock = nullptr;
  widgets::ChainPanel* m_chain = nullptr;
  QDockWidget* m_chainDock = nullptr;
  widgets::StatsView* m_stats = nullptr;
  QDockWidget* m_statsDock = nullptr;
  widgets::AdvicePanel* m_advice = nullptr;
  QDockWidget* m_adviceDock = nullptr;
  widgets::ClusterPanel* m_cluster = nullptr;
  QDockWidget* m_clusterDock = nullptr;
  widgets::DispatchPanel* m_dispatch = nullptr;
  QSplitter* m_timelineSplit = nullptr;  // A's timeline above B's (B hidden unless comparing)
  widgets::TimelineWidget* m_timelineB = nullptr;
  TraceLoader* m_compareLoader = nullptr;
  std::shared_ptr<const core::Profile> m_profileB;
  QString m_pathB;
  widgets::ComparePanel* m_comparePanel = nullptr;
  QDockWidget* m_compareDock = nullptr;
  QAction* m_compareAction = nullptr;
  QAction* m_closeCompareAction = nullptr;
  core::TimeNs m_compareOffset = 0;
  bool m_linking = false;
  QDockWidget* m_dispatchDock = nullptr;
  widgets::SearchBar* m_search = nullptr;
  QMenu* m_flowMenu = nullptr;
  QAction* m_findAction = nullptr;
  QAction* m_followForwardAction = nullptr;
  QAction* m_followBackAction = nullptr;

  QLabel* m_fileLabel = nullptr;
  QLabel* m_ranksLabel = nullptr;
  QLabel* m_eventsLabel = nullptr;
  QLabel* m_timeLabel = nullptr;
  QLabel* m_memoryLabel = nullptr;
  QToolButton* m_warningsButton = nullptr;
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
  QIcon m_warningsIcon;    // the orange warning sign: the profile has load warnings
  QIcon m_noWarningsIcon;  // the same sign in grey: none
  QAction* m_shortcutsAction = nullptr;
  QAction* m_aboutAction = nullptr;
  QAction* m_cancelAction = nullptr;
  QAction* m_wheelZoomsAction = nullptr;
  QAction* m_deviceFirstAction = nullptr;
  QAction* m_showAllLanesAction = nullptr;
  QAction* m_deviceLanesOnlyAction = nullptr;
  QAction* m_rankFilterAction = nullptr;
  /// The rank ids View > Show Ranks… keeps (empty: every rank), and its text.
  std::set<int> m_rankFilter;
  QString m_rankFilterText;
  /// Lays out what View > Device and HCCL Lanes Only and the rank filter keep (none: every lane).
  void applyLaneFilters();
};

}  // namespace npuscope
