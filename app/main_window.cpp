// SPDX-License-Identifier: MIT
#include "app/main_window.h"

#include <QAction>
#include <QInputDialog>
#include <QLineEdit>
#include <algorithm>
#include <cmath>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImageWriter>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <map>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QSet>
#include <QScreen>
#include <QKeyEvent>
#include <QSettings>
#include <QShortcut>
#include <QClipboard>
#include <QGuiApplication>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QSvgRenderer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <initializer_list>
#include <utility>

#include "app/app_support.h"
#include "app/trace_loader.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/flow_navigation.h"
#include "widgets/timeline/load_preview.h"
#include "widgets/dialogs/advisor_thresholds_dialog.h"
#include "widgets/export/export_dialog.h"
#include "widgets/panels/advice_panel.h"
#include "widgets/panels/markers_panel.h"
#include "core/report/compare.h"
#include "widgets/panels/compare_panel.h"
#include "widgets/panels/dispatch_panel.h"
#include "widgets/timeline/markers.h"
#include "widgets/panels/search_bar.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/panels/slice_details_panel.h"
#include "widgets/panels/stats_view.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/timeline_widget.h"
#include "widgets/dialogs/warnings_dialog.h"
#include "widgets/view_state.h"

namespace npuscope {

namespace {

// The flow menu's legend: a swatch of the category's arrow colour as the action's icon.
void setFlowSwatch(QAction* a) {
  QPixmap swatch(16, 16);
  swatch.fill(Qt::transparent);
  QPainter p(&swatch);
  p.setRenderHint(QPainter::Antialiasing, false);
  const QColor c = QColor::fromRgb(widgets::ColorPalette::flowCategoryColor(a->data().toString().toStdString()));
  p.fillRect(QRect(1, 5, 14, 6), c);
  p.end();
  a->setIcon(QIcon(swatch));
}

constexpr auto kGeometryKey = "window/geometry";
constexpr auto kStateKey = "window/state";
constexpr auto kLastDirKey = "paths/lastDirectory";
constexpr auto kRecentKey = "paths/recent";

QString key(const char* k) { return QString::fromLatin1(k); }

// A compiled-in toolbar/menu icon (resources/icons/NAME.svg). Their grey strokes (#5b6677) are
// too dark on the dark chrome (about 2.4:1 on its window colour): there they are drawn light
// grey (#b4bcc8, about 7:1). The theme in force when the window is built decides.
// The toolbar icon `name` (:/icons/NAME.svg), with each colour of `swaps` (from, to) replaced
// and, on the dark chrome, its grey strokes drawn light.
QIcon icon(const char* name, std::initializer_list<std::pair<const char*, const char*>> swaps = {}) {
  const QString path = QStringLiteral(":/icons/") + QString::fromLatin1(name) + QStringLiteral(".svg");
  const bool dark = widgets::ColorPalette::isDarkChrome();
  if (!dark && swaps.size() == 0) return QIcon(path);
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return QIcon(path);
  QByteArray svg = file.readAll();
  for (const auto& [from, to] : swaps) svg.replace(from, to);
  if (dark) svg.replace("#5b6677", "#b4bcc8");
  QSvgRenderer renderer(svg);
  if (!renderer.isValid()) return QIcon(path);
  QIcon light;
  for (const int side : {16, 20, 24, 32, 48, 64}) {
    QPixmap pixmap(side, side);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    renderer.render(&p);
    p.end();
    light.addPixmap(pixmap);
  }
  return light;
}

// Every action with a shortcut of `actions` and, depth first, of their submenus, in menu order.
QList<QAction*> menuActions(const QList<QAction*>& actions) {
  QList<QAction*> out;
  for (QAction* a : actions) {
    if (a->isSeparator()) continue;
    if (QMenu* sub = a->menu())
      out << menuActions(sub->actions());
    else if (!a->shortcuts().isEmpty())  // the others (recent files, flow categories) come and go
      out << a;
  }
  return out;
}

QLabel* statusLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setContentsMargins(6, 0, 6, 0);
  return label;
}

// The first local path of a drag, or "" when it carries none.
QString droppedPath(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls()) {
    if (url.isLocalFile()) return url.toLocalFile();
  }
  return {};
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("MainWindow"));
  setWindowTitle(QStringLiteral("npuscope"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/npuscope.svg")));
  setAcceptDrops(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

  m_loader = new TraceLoader(this);
  m_viewState = new widgets::ViewState(this);
  connect(m_loader, &TraceLoader::started, this, &MainWindow::onLoadStarted);
  connect(m_loader, &TraceLoader::progressChanged, this, &MainWindow::onProgress);
  connect(m_loader, &TraceLoader::previewChanged, this, &MainWindow::onPreviewChanged);
  connect(m_loader, &TraceLoader::loaded, this, &MainWindow::onLoaded);
  connect(m_loader, &TraceLoader::failed, this, &MainWindow::onFailed);
  connect(m_loader, &TraceLoader::cancelled, this, &MainWindow::onCancelled);

  createActions();
  createCentralArea();
  createMenus();
  createStatsUi();
  // Docks bound to the view state: one addViewDock line each (docs/architecture.md, "A new dock").
  createMarkersDock();
  createClusterDock();
  createDispatchDock();
  createCompare();
  createStatusBar();
  readSettings();
  updateStatus();
  updateActions();
  // The keys dialog (? / F1) lists the menus' shortcuts as they are bound, then the canvas's.
  m_timeline->setShortcutActions(menuActions(menuBar()->actions()));

  m_memoryTimer.setInterval(2000);
  connect(&m_memoryTimer, &QTimer::timeout, this, &MainWindow::updateMemory);
  m_memoryTimer.start();
}

MainWindow::~MainWindow() = default;

// ---------------------------------------------------------------------------------------------
// Construction

void MainWindow::createActions() {
  m_openFolderAction = new QAction(icon("open-folder"), tr("Open &Folder…"), this);
  m_openFolderAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
  m_openFolderAction->setStatusTip(tr("Open a profiling folder (*_ascend_pt, a parent of rank folders, ASCEND_PROFILER_OUTPUT)"));
  connect(m_openFolderAction, &QAction::triggered, this, &MainWindow::openFolderDialog);

  m_openFileAction = new QAction(icon("open-file"), tr("Open F&ile…"), this);
  m_openFileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  m_openFileAction->setStatusTip(tr("Open a trace file (trace_view.json, *.json, *.json.gz)"));
  connect(m_openFileAction, &QAction::triggered, this, &MainWindow::openFileDialog);

  m_reloadAction = new QAction(icon("reload"), tr("&Reload"), this);
  m_reloadAction->setShortcut(QKeySequence(Qt::Key_F5));
  connect(m_reloadAction, &QAction::triggered, this, &MainWindow::reload);

  m_exportAction = new QAction(icon("export-image"), tr("&Export Image…"), this);
  m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  m_exportAction->setStatusTip(tr("Save the timeline as a PNG or SVG image, or copy it to the clipboard"));
  connect(m_exportAction, &QAction::triggered, this, &MainWindow::exportScreenshotDialog);

  m_quitAction = new QAction(tr("&Quit"), this);
  m_quitAction->setShortcut(QKeySequence::Quit);
  m_quitAction->setMenuRole(QAction::QuitRole);
  connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

  m_fitAllAction = new QAction(icon("fit-all"), tr("&Fit All"), this);
  m_fitAllAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  connect(m_fitAllAction, &QAction::triggered, this, [this] { m_timeline->fitAll(); });

  m_zoomSelectionAction = new QAction(icon("zoom-selection"), tr("&Zoom to Selection"), this);
  m_zoomSelectionAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Z));
  m_zoomSelectionAction->setStatusTip(tr("Zoom to the selected time range or slice"));
  connect(m_zoomSelectionAction, &QAction::triggered, this, &MainWindow::zoomToSelection);

  // Orange only when there is something to see; grey (the chrome's stroke colour) otherwise.
  m_warningsIcon = icon("warnings");
  m_noWarningsIcon = icon("warnings", {{"#c7821a", "#8a93a0"}, {"#f6c453", "#dfe3e8"}, {"#5a3b06", "#5b6677"}});
  m_warningsAction = new QAction(m_noWarningsIcon, tr("Show Load &Warnings…"), this);
  connect(m_warningsAction, &QAction::triggered, this, &MainWindow::showWarnings);

  m_shortcutsAction = new QAction(tr("&Keyboard Shortcuts"), this);
  m_shortcutsAction->setShortcuts({QKeySequence(Qt::Key_Question), QKeySequence(Qt::Key_F1)});
  connect(m_shortcutsAction, &QAction::triggered, this, &MainWindow::showShortcuts);

  m_aboutAction = new QAction(tr("&About npuscope"), this);
  m_aboutAction->setMenuRole(QAction::AboutRole);
  connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);

  m_wheelZoomsAction = new QAction(tr("Mouse &Wheel Zooms"), this);
  m_wheelZoomsAction->setCheckable(true);
  m_wheelZoomsAction->setStatusTip(tr("On: the mouse wheel zooms the timeline and Shift+wheel scrolls. Off: the wheel "
                                      "scrolls, Ctrl+wheel zooms and Shift+wheel pans (as Perfetto and chrome://tracing)"));
  m_wheelZoomsAction->setChecked(QSettings().value(QStringLiteral("timeline/wheelZooms"), false).toBool());
  connect(m_wheelZoomsAction, &QAction::toggled, this, [this](bool on) {
    m_timeline->setWheelZooms(on);
    QSettings().setValue(QStringLiteral("timeline/wheelZooms"), on);
  });

  m_deviceFirstAction = new QAction(tr("&Device Lanes First"), this);
  m_deviceFirstAction->setCheckable(true);
  m_deviceFirstAction->setStatusTip(tr("Show each rank's Ascend Hardware, Overlap Analysis and Communication lanes above "
                                       "the host lanes (Python, CANN), where the Top-Down method starts"));
  m_deviceFirstAction->setChecked(QSettings().value(QStringLiteral("timeline/deviceFirst"), true).toBool());
  connect(m_deviceFirstAction, &QAction::toggled, this, [this](bool on) {
    m_timeline->setDeviceFirst(on);
    QSettings().setValue(QStringLiteral("timeline/deviceFirst"), on);
  });

  m_showAllLanesAction = new QAction(tr("Show &All Lanes"), this);
  m_showAllLanesAction->setObjectName(QStringLiteral("ShowAllLanesAction"));
  m_showAllLanesAction->setStatusTip(tr("Show every lane again after a collective showed only its ranks' HCCL lanes"));
  m_showAllLanesAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
  m_showAllLanesAction->setEnabled(false);
  connect(m_showAllLanesAction, &QAction::triggered, this, &MainWindow::showAllLanes);

  m_deviceLanesOnlyAction = new QAction(tr("&Device and HCCL Lanes Only"), this);
  m_deviceLanesOnlyAction->setObjectName(QStringLiteral("DeviceLanesOnlyAction"));
  m_deviceLanesOnlyAction->setCheckable(true);
  m_deviceLanesOnlyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
  m_deviceLanesOnlyAction->setStatusTip(tr("Show each rank's device lanes (Ascend Hardware, Overlap Analysis) and HCCL lanes "
                                           "only, so that the same lanes of every rank lie together"));
  connect(m_deviceLanesOnlyAction, &QAction::toggled, this, &MainWindow::setDeviceLanesOnly);

  m_rankFilterAction = new QAction(tr("Show &Ranks…"), this);
  m_rankFilterAction->setObjectName(QStringLiteral("RankFilterAction"));
  m_rankFilterAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
  m_rankFilterAction->setStatusTip(tr("Show only some ranks, e.g. 0-7, 12 (empty: every rank)"));
  connect(m_rankFilterAction, &QAction::triggered, this, [this] {
    bool ok = false;
    const QString spec = QInputDialog::getText(this, tr("Show Ranks"), tr("Rank ids to show (e.g. 0-7, 12; empty: every rank):"),
                                               QLineEdit::Normal, m_rankFilterText, &ok);
    if (ok && !setRankFilter(spec))
      statusBar()->showMessage(tr("“%1” names no loaded rank: every rank stays shown").arg(spec), 6000);
  });

  m_cancelAction = new QAction(tr("Cancel Loading"), this);
  m_cancelAction->setIconText(tr("Cancel"));  // the status-bar button's label
  m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
  m_cancelAction->setShortcutContext(Qt::WindowShortcut);
  m_cancelAction->setEnabled(false);
  connect(m_cancelAction, &QAction::triggered, m_loader, &TraceLoader::cancel);
  addAction(m_cancelAction);
  m_fitAllAction->setShortcutContext(Qt::ApplicationShortcut);
  addNavigationShortcuts();
}

void MainWindow::addNavigationShortcuts() {
  for (const Qt::Key key : {Qt::Key_W, Qt::Key_S, Qt::Key_A, Qt::Key_D})
    for (const Qt::KeyboardModifiers mods : {Qt::KeyboardModifiers(Qt::NoModifier), Qt::KeyboardModifiers(Qt::ShiftModifier)}) {
      auto* shortcut = new QShortcut(QKeySequence(static_cast<int>(mods.toInt()) | key), this);
      shortcut->setContext(Qt::ApplicationShortcut);
      connect(shortcut, &QShortcut::activated, this, [this, key, mods] {
        if (!m_timeline || !m_timeline->canvas()) return;
        const QString text = QString(QChar(key)).toLower();
        QKeyEvent press(QEvent::KeyPress, key, mods, mods & Qt::ShiftModifier ? text.toUpper() : text);
        m_timeline->canvas()->handleNavigationKey(&press);
      });
    }
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->setObjectName(QStringLiteral("FileMenu"));
  file->addAction(m_openFolderAction);
  file->addAction(m_openFileAction);
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
  file->addAction(m_reloadAction);
  file->addSeparator();
  file->addAction(m_exportAction);
  file->addSeparator();
  file->addAction(m_quitAction);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->setObjectName(QStringLiteral("ViewMenu"));
  view->addAction(m_fitAllAction);
  view->addAction(m_zoomSelectionAction);
  view->addSeparator();
  view->addAction(m_warningsAction);
  view->addAction(m_deviceFirstAction);
  view->addAction(m_deviceLanesOnlyAction);
  view->addAction(m_rankFilterAction);
  view->addAction(m_showAllLanesAction);
  view->addAction(m_wheelZoomsAction);
  view->addSeparator();
  QAction* detailsToggle = m_detailsDock->toggleViewAction();
  detailsToggle->setText(tr("Slice &Details Panel"));
  detailsToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
  detailsToggle->setIcon(icon("details-panel"));
  view->addAction(detailsToggle);
  addTopDownMenuEntries(view);
  QAction* adviceToggle = m_adviceDock->toggleViewAction();
  adviceToggle->setText(tr("&Advice Panel"));
  adviceToggle->setStatusTip(tr("The advisor's findings: what to fix first, with the time at stake"));
  view->addAction(adviceToggle);
  addAppearanceMenus(view);

  // A slim icon toolbar for the frequent actions (tooltips carry the shortcuts).
  QToolBar* tools = addToolBar(tr("Main Toolbar"));
  tools->setObjectName(QStringLiteral("MainToolBar"));
  tools->setMovable(false);
  tools->setIconSize(QSize(18, 18));
  tools->setToolButtonStyle(Qt::ToolButtonIconOnly);
  for (QAction* a : {m_openFolderAction, m_openFileAction, m_reloadAction, static_cast<QAction*>(nullptr),
                     m_fitAllAction, m_zoomSelectionAction, static_cast<QAction*>(nullptr),
                     m_exportAction, m_warningsAction, static_cast<QAction*>(nullptr), detailsToggle}) {
    if (!a) {
      tools->addSeparator();
      continue;
    }
    tools->addAction(a);
    const QString text = a->text().remove(QLatin1Char('&')).remove(QStringLiteral("…"));
    const QKeySequence shortcut = a->shortcut();
    a->setToolTip(shortcut.isEmpty() ? text
                                     : QStringLiteral("%1  (%2)").arg(text, shortcut.toString(QKeySequence::NativeText)));
  }
  view->insertAction(view->actions().constFirst(), tools->toggleViewAction());
  view->insertSeparator(view->actions().at(1));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(m_shortcutsAction);
  help->addSeparator();
  help->addAction(m_aboutAction);
}

void MainWindow::createCentralArea() {
  m_stack = new QStackedWidget(this);

  // Start page: what to do when nothing is loaded.
  m_startPage = new QWidget(m_stack);
  m_startPage->setObjectName(QStringLiteral("StartPage"));
  auto* outer = new QVBoxLayout(m_startPage);
  outer->addStretch(3);
  auto* icon = new QLabel(m_startPage);
  icon->setPixmap(QIcon(QStringLiteral(":/icons/npuscope.svg")).pixmap(QSize(96, 96), devicePixelRatioF()));
  icon->setAlignment(Qt::AlignCenter);
  outer->addWidget(icon);
  auto* title = new QLabel(QStringLiteral("npuscope"), m_startPage);
  QFont titleFont = title->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 2.0);
  titleFont.setWeight(QFont::DemiBold);
  title->setFont(titleFont);
  title->setAlignment(Qt::AlignCenter);
  outer->addWidget(title);
  auto* subtitle = new QLabel(tr("Timeline viewer for Ascend NPU profiling data"), m_startPage);
  subtitle->setAlignment(Qt::AlignCenter);
  subtitle->setForegroundRole(QPalette::PlaceholderText);
  outer->addWidget(subtitle);
  outer->addSpacing(24);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch();
  auto* openFolder = new QPushButton(m_openFolderAction->icon(), tr("Open Folder…"), m_startPage);
  openFolder->setMinimumWidth(150);
  connect(openFolder, &QPushButton::clicked, m_openFolderAction, &QAction::trigger);
  auto* openFile = new QPushButton(m_openFileAction->icon(), tr("Open File…"), m_startPage);
  openFile->setMinimumWidth(150);
  connect(openFile, &QPushButton::clicked, m_openFileAction, &QAction::trigger);
  buttons->addWidget(openFolder);
  buttons->addSpacing(8);
  buttons->addWidget(openFile);
  buttons->addStretch();
  outer->addLayout(buttons);
  outer->addSpacing(16);
  m_startHint = new QLabel(m_startPage);
  m_startHint->setAlignment(Qt::AlignCenter);
  m_startHint->setWordWrap(true);
  m_startHint->setForegroundRole(QPalette::PlaceholderText);
  m_startHint->setMaximumWidth(460);
  auto* hintRow = new QHBoxLayout;
  hintRow->addStretch();
  hintRow->addWidget(m_startHint);
  hintRow->addStretch();
  outer->addLayout(hintRow);
  outer->addStretch(4);
  m_stack->addWidget(m_startPage);

  // The timeline page: A's timeline, and under it B's when comparing (createCompare).
  m_timelineSplit = new QSplitter(Qt::Vertical, m_stack);
  m_timeline = new widgets::TimelineWidget(m_timelineSplit);
  m_timeline->setObjectName(QStringLiteral("Timeline"));
  m_timelineSplit->addWidget(m_timeline);
  m_stack->addWidget(m_timelineSplit);
  m_loadPreview = new widgets::LoadPreviewView(m_stack);
  connect(m_loadPreview, &widgets::LoadPreviewView::cancelRequested, m_loader, &TraceLoader::cancel);
  m_stack->addWidget(m_loadPreview);
  m_timeline->setViewState(m_viewState);
  m_timeline->setWheelZooms(m_wheelZoomsAction->isChecked());
  m_timeline->setDeviceFirst(m_deviceFirstAction->isChecked());
  connect(m_timeline, &widgets::TimelineWidget::sliceSelected, this,
          [this](widgets::RankSliceRef ref) { onSliceSelected(ref.rank, ref.slice); });
  // Requests of any dock bound to the view state.
  connect(m_viewState, &widgets::ViewState::sliceActivationRequested, this,
          [this](widgets::RankSliceRef ref) { onChainLinkActivated(ref.rank, ref.slice); });
  connect(m_viewState, &widgets::ViewState::bubbleActivationRequested, this,
          [this](widgets::BubbleRef ref) { activateBubble(ref.rank, ref.device, ref.bubble); });
  setCentralWidget(m_stack);

  m_details = new widgets::SliceDetailsPanel(this);
  m_detailsDock = new QDockWidget(tr("Slice Details"), this);
  m_detailsDock->setObjectName(QStringLiteral("SliceDetailsDock"));
  m_detailsDock->setWidget(m_details);
  m_detailsDock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea | Qt::BottomDockWidgetArea);
  addDockWidget(Qt::RightDockWidgetArea, m_detailsDock);
  resizeDocks({m_detailsDock}, {440}, Qt::Horizontal);  // the chain panel needs room for its slice names
  createTopDownDocks();
  createAdviceDock();

  showStartPage();
}

void MainWindow::createAdviceDock() {
  m_advice = new widgets::AdvicePanel(this);
  m_adviceDock = new QDockWidget(tr("Advice"), this);
  m_adviceDock->setObjectName(QStringLiteral("AdviceDock"));
  m_adviceDock->setWidget(m_advice);
  addDockWidget(Qt::BottomDockWidgetArea, m_adviceDock);  // tabbed with Top-Down on first run
  // The thresholds edited in the dialog are kept between sessions ("advisor/<key>").
  {
    QSettings settings;
    m_advice->setThresholds(widgets::loadAdvisorThresholds(settings));
  }
  connect(m_advice, &widgets::AdvicePanel::thresholdsChanged, this, [](const core::AdvisorThresholds& t) {
    QSettings settings;
    widgets::saveAdvisorThresholds(settings, t);
  });
  // Click: outline exactly the finding's evidence slices and select the worst one (no zoom).
  connect(m_advice, &widgets::AdvicePanel::evidenceSelected, this,
          [this](int rank, const std::vector<core::SliceRef>& slices) {
            m_timeline->setHighlightedSlices(rank, slices);
            if (!slices.empty()) m_timeline->selectSlice(rank, slices.front());
          });
  // A decision-tree finding: its kernels' row in the Stats view (kernel layer, that rank).
  connect(m_advice, &widgets::AdvicePanel::operatorFindingSelected, this, [this](int rank, core::SliceRef worst) {
    if (!m_profile || rank < 0 || static_cast<std::size_t>(rank) >= m_profile->ranks.size()) return;
    const auto& trace = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
    if (!trace || !worst.valid() || worst.lane >= trace->lanes.size()) return;
    // Device kernels: the kernel layer; a host slice (the .item() branch): the Python layer.
    const auto role = trace->processes[trace->lanes[worst.lane].process].role;
    if (role != core::Process::Role::AscendHardware && role != core::Process::Role::Python) return;
    m_stats->setRank(rank);
    m_stats->setLayer(role == core::Process::Role::Python ? core::StatsLayer::Python : core::StatsLayer::Kernels);
    m_stats->selectName(QString::fromStdString(std::string(trace->sliceName(worst))));
  });
  // Double-click: zoom to the worst slice, as the Top-Down panel's evidence does.
  connect(m_advice, &widgets::AdvicePanel::evidenceActivated, this, [this](int rank, core::SliceRef ref) {
    onChainLinkActivated(rank, ref);
    m_timeline->zoomToSelectedSlice();
  });
  // Double-click on a finding about an instant (the memory peak): that instant on its curve.
  connect(m_advice, &widgets::AdvicePanel::momentActivated, this,
          [this](int rank, core::TimeNs t, const QString& label, const QString& process) {
            m_timeline->revealMoment(rank, t, label, process.toStdString());
          });
}

void MainWindow::createMarkersDock() {
  auto* panel = new widgets::MarkersPanel(m_viewState, m_timeline->markers(), this);
  QDockWidget* dock = addViewDock(panel, tr("Markers"), QStringLiteral("MarkersDock"), Qt::RightDockWidgetArea);
  dock->hide();  // shown from View > Markers, or when the first marker is added
  connect(panel, &widgets::MarkersPanel::markerActivated, m_timeline, &widgets::TimelineWidget::revealMarker);
  // Every edit is saved at once, in the user's settings under the folder's canonical path.
  connect(m_timeline->markers(), &widgets::MarkerList::changed, this, [this, dock] {
    if (m_path.isEmpty()) return;
    QSettings settings;
    widgets::saveMarkers(settings, m_path, m_timeline->markers()->markers());
    if (m_timeline->markers()->size() > 0 && !dock->isVisible() && !m_restoringMarkers) dock->show();
  });
}

QDockWidget* MainWindow::addViewDock(QWidget* panel, const QString& title, const QString& objectName,
                                     Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(objectName);
  dock->setWidget(panel);
  dock->setAllowedAreas(Qt::AllDockWidgetAreas);
  addDockWidget(area, dock);
  if (QMenu* view = menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu")))
    view->addAction(dock->toggleViewAction());
  return dock;
}

void MainWindow::createStatusBar() {
  QStatusBar* bar = statusBar();
  bar->setSizeGripEnabled(true);

  m_fileLabel = statusLabel(bar);
  m_fileLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_ranksLabel = statusLabel(bar);
  m_eventsLabel = statusLabel(bar);
  m_timeLabel = statusLabel(bar);
  m_memoryLabel = statusLabel(bar);
  m_memoryLabel->setToolTip(tr("Resident memory of npuscope"));
  m_warningsButton = new QToolButton(bar);
  m_warningsButton->setAutoRaise(true);
  m_warningsButton->setIcon(icon("warnings"));
  m_warningsButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_warningsButton->setToolTip(tr("Show the load warnings"));
  m_warningsButton->setIconSize(QSize(14, 14));
  connect(m_warningsButton, &QToolButton::clicked, this, &MainWindow::showWarnings);
  m_warningsButton->hide();

  // The path takes the room the others leave and is cut when there is none (its tooltip has it
  // in full): it never makes the window wider than the screen.
  m_fileLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_fileLabel->setMinimumWidth(40);
  bar->addWidget(m_fileLabel, 1);
  bar->addPermanentWidget(m_warningsButton);
  bar->addPermanentWidget(m_ranksLabel);
  bar->addPermanentWidget(m_eventsLabel);
  bar->addPermanentWidget(m_timeLabel);
  bar->addPermanentWidget(m_memoryLabel);
}

void MainWindow::createStatsUi() {
  QSettings settings;
  // Statistics dock (bottom).
  m_stats = new widgets::StatsView(this);
  m_stats->setTimeline(m_timeline);
  if (const auto layer = core::statsLayerFromKey(settings.value(QStringLiteral("stats/layer")).toString().toStdString()))
    m_stats->setLayer(*layer);
  m_stats->setFilterRegex(settings.value(QStringLiteral("stats/regex"), false).toBool());
  connect(m_stats, &widgets::StatsView::layerChanged, this, [](core::StatsLayer l) {
    QSettings().setValue(QStringLiteral("stats/layer"), QString::fromLatin1(core::statsLayerKey(l)));
  });
  connect(m_stats, &widgets::StatsView::filterRegexToggled, this,
          [](bool on) { QSettings().setValue(QStringLiteral("stats/regex"), on); });
  m_statsDock = new QDockWidget(tr("Statistics"), this);
  m_statsDock->setObjectName(QStringLiteral("StatisticsDock"));
  m_statsDock->setWidget(shrinkable(m_stats));
  m_statsDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::TopDockWidgetArea | Qt::LeftDockWidgetArea |
                               Qt::RightDockWidgetArea);
  addDockWidget(Qt::BottomDockWidgetArea, m_statsDock);
  resizeDocks({m_statsDock}, {260}, Qt::Vertical);

  // Find bar over the timeline.
  m_search = new widgets::SearchBar(m_timeline);
  m_search->setRegex(settings.value(QStringLiteral("search/regex"), false).toBool());
  connect(m_search, &widgets::SearchBar::regexToggled, this,
          [](bool on) { QSettings().setValue(QStringLiteral("search/regex"), on); });
  m_findAction = new QAction(icon("search"), tr("&Find Slices…"), this);
  m_findAction->setShortcut(QKeySequence::Find);
  m_findAction->setStatusTip(tr("Find slices by name (Enter / Shift+Enter: next / previous match)"));
  connect(m_findAction, &QAction::triggered, this, [this] {
    if (m_profile) m_search->activate();
  });

  // Follow flows from the selected slice.
  m_followForwardAction = new QAction(tr("Follow Flow &Forward"), this);
  m_followForwardAction->setShortcuts({QKeySequence(Qt::Key_BracketRight), QKeySequence(Qt::CTRL | Qt::Key_Right)});
  m_followForwardAction->setStatusTip(tr("Select the other end of the selected slice's first outgoing flow"));
  connect(m_followForwardAction, &QAction::triggered, this, [this] { followFlow(true); });
  m_followBackAction = new QAction(tr("Follow Flow &Back"), this);
  m_followBackAction->setShortcuts({QKeySequence(Qt::Key_BracketLeft), QKeySequence(Qt::CTRL | Qt::Key_Left)});
  m_followBackAction->setStatusTip(tr("Select the other end of the selected slice's first incoming flow"));
  connect(m_followBackAction, &QAction::triggered, this, [this] { followFlow(false); });

  // View menu: find, flows, statistics.
  QMenu* view = menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
  m_flowMenu = new QMenu(tr("Flow &Arrows"), this);
  m_flowMenu->setIcon(icon("flow-arrows"));
  m_flowMenu->setToolTipsVisible(true);
  // The swatches are the legend of the arrows' colours, which follow the theme: redo them on show.
  connect(m_flowMenu, &QMenu::aboutToShow, this, [this] {
    for (QAction* a : flowActions()) setFlowSwatch(a);
  });
  QAction* statsToggle = m_statsDock->toggleViewAction();
  statsToggle->setText(tr("&Statistics Panel"));
  statsToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
  statsToggle->setIcon(icon("statistics"));
  if (view) {
    view->addAction(statsToggle);
    view->addSeparator();
    view->addAction(m_findAction);
    view->addMenu(m_flowMenu);
    view->addAction(m_followForwardAction);
    view->addAction(m_followBackAction);
  } else {
    addActions({m_findAction, m_followForwardAction, m_followBackAction});
  }
  if (auto* tools = findChild<QToolBar*>(QStringLiteral("MainToolBar"))) {
    tools->addAction(statsToggle);
    statsToggle->setToolTip(tr("Statistics Panel  (%1)").arg(statsToggle->shortcut().toString(QKeySequence::NativeText)));
    tools->addSeparator();
    tools->addAction(m_findAction);
    m_findAction->setToolTip(tr("Find Slices  (%1)").arg(m_findAction->shortcut().toString(QKeySequence::NativeText)));
    auto* flows = new QToolButton(tools);
    flows->setMenu(m_flowMenu);
    flows->setPopupMode(QToolButton::InstantPopup);
    flows->setIcon(icon("flow-arrows"));
    flows->setToolTip(tr("Flow arrows drawn for the whole view, by category"));
    tools->addWidget(flows);
  }
  rebuildFlowMenu();
}

QList<QAction*> MainWindow::flowActions() const {
  QList<QAction*> out;
  for (QAction* a : m_flowMenu->actions())
    if (a->isCheckable()) out << a;
  return out;
}

void MainWindow::rebuildFlowMenu() {
  QSet<QString> checked;
  for (QAction* a : flowActions())
    if (a->isChecked()) checked << a->data().toString();
  m_flowMenu->clear();
  std::map<std::string, std::size_t> counts;
  if (m_profile) {
    for (const core::RankProfile& r : m_profile->ranks) {
      if (!r.trace) continue;
      for (const auto& [name, n] : core::flowCategories(*r.trace)) counts[name] += n;
    }
  }
  // The torch_npu categories first, in their usual order, then the others by name.
  std::vector<std::string> order;
  for (const char* known : {"async_npu", "HostToDevice", "async_task_queue", "fwdbwd", "MsTx"})
    if (counts.count(known)) order.emplace_back(known);
  for (const auto& [name, n] : counts)
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
  const QLocale locale;
  for (const std::string& name : order) {
    const QString cat = QString::fromStdString(name);
    QAction* a = m_flowMenu->addAction(
        tr("%1  (%2)").arg(cat.isEmpty() ? tr("(no category)") : cat, locale.toString(static_cast<qulonglong>(counts[name]))));
    a->setCheckable(true);
    a->setData(cat);
    a->setChecked(checked.contains(cat));
    a->setToolTip(tr("Draw every %1 flow in the visible range").arg(cat));
    setFlowSwatch(a);
    connect(a, &QAction::toggled, this, &MainWindow::applyFlowCategories);
  }
  if (order.empty()) {
    m_flowMenu->addAction(m_profile ? tr("(no flows in this profile)") : tr("(no profile loaded)"))->setEnabled(false);
  } else {
    m_flowMenu->addSeparator();
    connect(m_flowMenu->addAction(tr("Hide All")), &QAction::triggered, this, [this] {
      for (QAction* a : flowActions()) a->setChecked(false);
    });
  }
  m_flowMenu->addSeparator();
  QAction* note = m_flowMenu->addAction(tr("The selected slice's own flows are always drawn"));
  note->setEnabled(false);
  applyFlowCategories();
}

void MainWindow::applyFlowCategories() {
  QSet<QString> categories;
  for (QAction* a : flowActions())
    if (a->isChecked()) categories << a->data().toString();
  m_timeline->setVisibleFlowCategories(categories);
}

void MainWindow::followFlow(bool forward) {
  const int rank = m_timeline->selectedRank();
  const core::SliceRef ref = m_timeline->selectedSlice();
  if (!m_profile || rank < 0 || !ref.valid()) {
    statusBar()->showMessage(tr("Select a slice first"), 3000);
    return;
  }
  const auto& trace = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
  const core::SliceRef target = trace ? widgets::flowNeighbour(*trace, ref, forward) : core::SliceRef{};
  if (!target.valid()) {
    statusBar()->showMessage(forward ? tr("The selected slice has no outgoing flow")
                                     : tr("The selected slice has no incoming flow"),
                             3000);
    return;
  }
  m_timeline->revealSlice(rank, target);
}

// ---------------------------------------------------------------------------------------------
// Settings

void MainWindow::readSettings() {
  QSettings settings;
  const QByteArray geometry = settings.value(key(kGeometryKey)).toByteArray();
  if (geometry.isEmpty() || !restoreGeometry(geometry)) resize(1440, 860);
  // Never larger than the screen, whatever was saved, nor by default (1440 x 860 logical px is
  // more than a 1920 x 1080 screen at a scale factor of 1.5 or 2); again once the frame is known.
  clampToScreen();
  m_restoredSize = size();
  restoreState(settings.value(key(kStateKey)).toByteArray());
  m_lastDirectory = settings.value(key(kLastDirKey)).toString();
  m_recentPaths = settings.value(key(kRecentKey)).toStringList();
}

void MainWindow::clampToScreen() {
  const QScreen* s = screen();
  if (!s || fitsInside(frameGeometry(), s->availableGeometry())) return;
  const QRect inner = QWidget::geometry();
  const QSize frame = frameGeometry().size() - inner.size();
  setGeometry(fitInside(inner, s->availableGeometry().adjusted(0, 0, -frame.width(), -frame.height())));
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (!m_shownOnce) {
    m_shownOnce = true;
    // The restored geometry again, now that the frame is known; a size set by the program
    // after that (screenshot --window renders at any size) is left alone.
    if (m_restoredSize.isValid() && size() == m_restoredSize) clampToScreen();
  }
}

void MainWindow::writeSettings() const {
  QSettings settings;
  // A window larger than its screen is not saved: the next start uses the default size.
  if (const QScreen* s = screen(); s && !fitsInside(frameGeometry(), s->availableGeometry()))
    settings.remove(key(kGeometryKey));
  else
    settings.setValue(key(kGeometryKey), saveGeometry());
  settings.setValue(key(kStateKey), saveState());
  settings.setValue(key(kLastDirKey), m_lastDirectory);
  settings.setValue(key(kRecentKey), m_recentPaths);
}

void MainWindow::rememberPath(const QString& path) {
  m_recentPaths = addRecentPath(m_recentPaths, path);
  const QFileInfo info(path);
  m_lastDirectory = info.isDir() ? info.absoluteDir().absolutePath() : info.absolutePath();
  QSettings settings;
  settings.setValue(key(kRecentKey), m_recentPaths);
  settings.setValue(key(kLastDirKey), m_lastDirectory);
}

void MainWindow::rebuildRecentMenu() {
  m_recentMenu->clear();
  int n = 0;
  for (const QString& path : std::as_const(m_recentPaths)) {
    ++n;
    const QString label = n < 10 ? QStringLiteral("&%1  %2").arg(n).arg(displayName(path))
                                 : QStringLiteral("%1  %2").arg(n).arg(displayName(path));
    QAction* action = m_recentMenu->addAction(label);
    action->setToolTip(QDir::toNativeSeparators(path));
    action->setStatusTip(QDir::toNativeSeparators(path));
    action->setEnabled(QFileInfo::exists(path));
    connect(action, &QAction::triggered, this, [this, path] { openPath(path); });
  }
  if (m_recentPaths.isEmpty()) {
    m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
  } else {
    m_recentMenu->addSeparator();
    connect(m_recentMenu->addAction(tr("Clear Recent")), &QAction::triggered, this, [this] {
      m_recentPaths.clear();
      QSettings().setValue(key(kRecentKey), m_recentPaths);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Opening

void MainWindow::openPath(const QString& path) {
  if (path.isEmpty()) return;
  m_restoreRange = false;
  m_loader->load(path);
}

void MainWindow::reload() {
  const QString path = m_loader->isLoading() ? m_loader->currentPath() : m_path;
  if (path.isEmpty()) return;
  const bool keepRange = m_profile && path == m_path;
  if (keepRange) {
    m_rangeBeforeReload = m_timeline->viewport()->visibleRange();
    m_scrollBeforeReload = m_timeline->verticalScroll();
    m_expandBeforeReload = m_timeline->expandState();
  }
  m_loader->load(path);
  m_restoreRange = keepRange;
}

void MainWindow::openFolderDialog() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Profiling Folder"),
                                                        m_lastDirectory);
  if (!dir.isEmpty()) openPath(dir);
}

void MainWindow::openFileDialog() {
  const QStringList filters = {
      tr("Trace files (trace_view.json *.json *.json.gz)"),
      tr("Ascend trace view (trace_view.json)"),
      tr("Gzipped trace (*.json.gz)"),
      tr("All files (*)"),
  };
  const QString file = QFileDialog::getOpenFileName(this, tr("Open Trace File"), m_lastDirectory,
                                                    filters.join(QStringLiteral(";;")));
  if (!file.isEmpty()) openPath(file);
}

void MainWindow::showStartPage(const QString& hint) {
  m_startHint->setText(hint.isEmpty()
                           ? tr("Open a torch_npu / MindSpore profiling folder (*_ascend_pt), a "
                                "folder of ranks, or a trace_view.json — or drop it on this window.")
                           : hint);
  m_stack->setCurrentWidget(m_startPage);
}

void MainWindow::onLoadStarted(const QString& path) {
  m_pendingPath = path;
  setLoadingUi(true);
  statusBar()->showMessage(tr("Loading %1…").arg(QDir::toNativeSeparators(path)));
  // First pixels: the preview view takes the centre at once (the shown timeline stays as it is
  // underneath, for a cancel or an error).
  m_loadPreview->reset();
  widgets::LoadBannerState banner;
  banner.title = tr("Loading %1").arg(displayName(path));
  banner.detail = loadStatusText(m_loader->status());
  m_loadPreview->setBanner(banner);
  m_stack->setCurrentWidget(m_loadPreview);
  m_loadPreview->setFocus();
}

void MainWindow::onProgress(double fraction) {
  if (!m_loader->isLoading()) return;
  widgets::LoadBannerState banner;
  banner.title = tr("Loading %1").arg(displayName(m_pendingPath));
  banner.detail = loadStatusText(m_loader->status());
  banner.fraction = fraction;
  m_loadPreview->setBanner(banner);
}

void MainWindow::onPreviewChanged() {
  if (!m_loader->isLoading()) return;
  const LoadSnapshot& snap = m_loader->snapshot();
  m_loadPreview->setSkeleton(widgets::buildSkeletonProfile(QFile::encodeName(m_pendingPath).toStdString(),
                                                           snap.ranks, snap.previews));
}

void MainWindow::endLoadPreview() {
  m_loadPreview->reset();  // frees the skeleton
  if (m_stack->currentWidget() != m_loadPreview) return;
  if (m_profile) {
    m_stack->setCurrentWidget(m_timelineSplit);
    m_timeline->setFocus();
  } else {
    showStartPage();
  }
}

QString MainWindow::loadStatusText(const LoadStatus& status) {
  const QLocale locale;
  const auto size = [&](std::uint64_t bytes) {
    return locale.formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeTraditionalFormat);
  };
  const int percent = static_cast<int>(std::floor(std::clamp(status.fraction, 0.0, 1.0) * 100.0));
  QString text = tr("%1%").arg(percent);
  switch (status.phase) {
    case LoadStatus::Phase::Starting:
      return tr("Opening…");
    case LoadStatus::Phase::Reading:
      text += QStringLiteral(" — ") + tr("%1 of %2").arg(size(status.bytesRead), size(status.totalBytes));
      break;
    case LoadStatus::Phase::Building:
      text += QStringLiteral(" — ") + tr("building the timeline (%1 read)").arg(size(status.bytesRead));
      break;
    case LoadStatus::Phase::Analysing:
      text += QStringLiteral(" — ") + tr("analysing");
      break;
  }
  if (status.rankCount > 1 && status.currentRank >= 0)
    text += QStringLiteral(" · ") + tr("rank %1 of %2").arg(status.currentRank + 1).arg(status.rankCount);
  if (status.remainingSeconds >= 0) {
    const auto s = static_cast<qint64>(std::ceil(status.remainingSeconds));
    text += QStringLiteral(", ");
    if (s >= 60)
      text += tr("~%1 min %2 s left").arg(s / 60).arg(s % 60);
    else if (s >= 1)
      text += tr("~%1 s left").arg(s);
    else
      text += tr("almost done");
  } else {
    text += QStringLiteral(", ") + tr("estimating the time left…");
  }
  return text;
}

void MainWindow::onLoaded(const QString& path, std::shared_ptr<const core::Profile> profile,
                          qint64 elapsedMs) {
  setLoadingUi(false);
  statusBar()->clearMessage();
  const bool sameRange = m_restoreRange && path == m_path;
  m_restoreRange = false;
  m_profile = std::move(profile);
  m_path = path;
  m_loadMs = elapsedMs;
  m_details->clearSlice();
  showAllLanes();  // a collective's lane filter belongs to the profile it was made for
  m_viewState->setProfile(m_profile);  // the timeline and every bound dock follow
  {
    QSettings settings;
    m_restoringMarkers = true;
    m_timeline->markers()->setMarkers(widgets::loadMarkers(settings, path));
    m_restoringMarkers = false;
  }
  showTopDownProfile();
  m_advice->setProfile(m_profile);
  m_stats->setProfile(m_profile);
  m_dispatch->setProfile(m_profile);
  if (m_profileB) {
    // Comparing: the new A against the same B.
    m_comparePanel->setResult(core::compareProfiles(*m_profile, *m_profileB));
    alignCompare();
  }
  m_search->profileChanged();
  rebuildFlowMenu();
  if (sameRange && !m_rangeBeforeReload.empty())
    m_timeline->setVisibleRange(m_rangeBeforeReload);
  else
    m_timeline->fitAll();
  if (sameRange) {
    m_timeline->setExpandState(m_expandBeforeReload);
    m_timeline->setVerticalScroll(m_scrollBeforeReload);
  }
  m_stack->setCurrentWidget(m_timelineSplit);
  m_timeline->setFocus();
  m_loadPreview->reset();  // the real trace is shown now: free the skeleton
  rememberPath(path);
  setWindowTitle(tr("%1 — npuscope").arg(displayName(path)));
  setWindowFilePath(path);
  updateStatus();
  updateActions();
  emit loadFinished(true, {});
}

void MainWindow::onFailed(const QString& path, const QString& error) {
  setLoadingUi(false);
  endLoadPreview();
  statusBar()->showMessage(tr("Could not load %1").arg(displayName(path)), 10000);
  if (!m_profile) showStartPage(tr("Could not load %1.").arg(QDir::toNativeSeparators(path)));
  updateActions();
  emit loadFinished(false, error);
  if (m_interactiveErrors) {
    QMessageBox box(QMessageBox::Critical, tr("Cannot Open Profile"),
                    tr("npuscope could not load\n%1").arg(QDir::toNativeSeparators(path)),
                    QMessageBox::Ok, this);
    box.setInformativeText(error);
    box.exec();
  }
}

void MainWindow::onCancelled(const QString& path) {
  setLoadingUi(false);
  endLoadPreview();
  statusBar()->showMessage(tr("Loading of %1 cancelled").arg(displayName(path)), 5000);
  updateActions();
  emit loadFinished(false, QStringLiteral("cancelled"));
}

void MainWindow::setLoadingUi(bool loading) { m_cancelAction->setEnabled(loading); }

// ---------------------------------------------------------------------------------------------
// Status

void MainWindow::updateStatus() {
  if (!m_profile) {
    m_fileLabel->setText(tr("No profile loaded"));
    m_fileLabel->setToolTip({});
    m_ranksLabel->clear();
    m_eventsLabel->clear();
    m_timeLabel->clear();
    m_warningsAction->setIcon(m_noWarningsIcon);
    m_warningsButton->hide();
    updateMemory();
    return;
  }
  const QLocale locale;
  const ProfileTotals t = profileTotals(*m_profile);
  m_fileLabel->setText(QDir::toNativeSeparators(m_path));
  m_fileLabel->setToolTip(QDir::toNativeSeparators(m_path));
  QString ranks = t.ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(t.ranks);
  if (t.failedRanks > 0) ranks += tr(" (%1 failed)").arg(t.failedRanks);
  if (t.tablesOnlyRanks > 0) ranks += tr(" (%1 tables only)").arg(t.tablesOnlyRanks);
  // A folder of several profiling runs: only one is loaded (core's discoverProfile); say which.
  QString captures;
  const auto& caps = m_profile->captures;
  for (std::size_t i = 0; i < caps.size(); ++i) {
    if (caps[i].loaded)
      ranks += QStringLiteral(" · ") + tr("capture %1 of %2: %3").arg(i + 1).arg(caps.size()).arg(QString::fromStdString(caps[i].name));
    captures += (captures.isEmpty() ? QString() : QStringLiteral("\n")) +
                tr("%1. %2: %n rank(s)", nullptr, static_cast<int>(caps[i].ranks)).arg(i + 1).arg(QString::fromStdString(caps[i].name)) +
                (caps[i].loaded ? tr(" (loaded)") : QString());
  }
  m_ranksLabel->setText(ranks);
  m_ranksLabel->setToolTip(captures.isEmpty() ? QString()
                                              : tr("This folder holds several profiling runs; only one is loaded. "
                                                   "Open another run's folder to see it.") +
                                                    QStringLiteral("\n") + captures);
  m_eventsLabel->setText(tr("%1 events").arg(locale.toString(static_cast<qulonglong>(t.events))));
  m_eventsLabel->setToolTip(tr("%1 slices").arg(locale.toString(static_cast<qulonglong>(t.slices))));
  m_timeLabel->setText(tr("loaded in %1 s").arg(locale.toString(m_loadMs / 1000.0, 'f', 2)));
  const quint64 problems = t.warnings + t.tableMessages + static_cast<quint64>(t.failedRanks);
  m_warningsAction->setIcon(problems > 0 ? m_warningsIcon : m_noWarningsIcon);
  m_warningsAction->setToolTip(problems > 0 ? tr("Show the load warnings") : tr("No load warnings (show the notes)"));
  m_warningsButton->setVisible(problems > 0);
  m_warningsButton->setText(problems == 1 ? tr("1 warning")
                                          : tr("%1 warnings").arg(locale.toString(static_cast<qulonglong>(problems))));
  updateMemory();
}

void MainWindow::updateMemory() {
  const qint64 rss = residentMemoryBytes();
  if (rss < 0) {
    m_memoryLabel->clear();
    return;
  }
  m_memoryLabel->setText(tr("Mem %1").arg(QLocale().formattedDataSize(rss, 0, QLocale::DataSizeTraditionalFormat)));
}

void MainWindow::updateActions() {
  const bool has = m_profile != nullptr;
  m_reloadAction->setEnabled(has || m_loader->isLoading());
  m_exportAction->setEnabled(has);
  if (m_compareAction) m_compareAction->setEnabled(has);
  m_fitAllAction->setEnabled(has);
  m_zoomSelectionAction->setEnabled(has);
  m_warningsAction->setEnabled(has);
}

// ---------------------------------------------------------------------------------------------
// View

void MainWindow::onSliceSelected(int rankIndex, core::SliceRef ref) {
  if (!m_profile || !ref.valid() || rankIndex < 0 ||
      rankIndex >= static_cast<int>(m_profile->ranks.size())) {
    m_details->clearSlice();
    showChainForSlice(-1, {});
    return;
  }
  m_details->showSlice(m_profile, rankIndex, ref);
  showChainForSlice(rankIndex, ref);
}

void MainWindow::zoomToSelection() {
  if (!m_profile) return;
  // The time selection (Shift+drag) wins; else the selected slice, like the canvas' own keys.
  if (m_timeline->viewport()->hasSelection()) {
    m_timeline->viewport()->zoomToSelection();
  } else if (m_timeline->selectedSlice().valid()) {
    m_timeline->zoomToSelectedSlice();
  } else {
    statusBar()->showMessage(tr("Select a slice or Shift+drag a time range first"), 3000);
  }
}

void MainWindow::showWarnings() {
  if (!m_profile) return;
  auto* dialog = new widgets::WarningsDialog(m_profile, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

void MainWindow::showShortcuts() { m_timeline->showShortcuts(); }

void MainWindow::showAbout() {
  QMessageBox::about(
      this, tr("About npuscope"),
      tr("<h3>npuscope %1</h3>"
         "<p>A native, fast timeline viewer for Huawei Ascend NPU profiling data "
         "(torch_npu / MindSpore *_ascend_pt folders, trace_view.json, Kineto traces).</p>"
         "<p>Built with Qt %2. Licensed under the MIT licence.</p>")
          .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

// ---------------------------------------------------------------------------------------------
// Export

void MainWindow::exportScreenshotDialog() {
  if (!m_profile) return;
  const core::TimeRange selection = m_timeline->viewport()->selection();
  const bool hasSlice = m_timeline->selectedRank() >= 0 && m_timeline->selectedSlice().valid();
  const bool hasBubble = m_timeline->selectedBubble().bubble >= 0;
  widgets::ExportDialog dialog(!selection.empty() || hasSlice || hasBubble,
                               hasSlice || hasBubble || m_timeline->chainRank() >= 0 ||
                                   m_timeline->highlightedSlicesRank() >= 0,
                               this);
  QSettings settings;
  dialog.setSvg(settings.value(QStringLiteral("export/svg"), false).toBool());
  dialog.setCaption(settings.value(QStringLiteral("export/caption"), false).toBool());
  {
    widgets::TimelineExportOptions previous;
    previous.scale = settings.value(QStringLiteral("export/scale"), 1.0).toDouble();
    dialog.setOptions(previous);
  }
  if (dialog.exec() != QDialog::Accepted) return;
  settings.setValue(QStringLiteral("export/svg"), dialog.svg());
  settings.setValue(QStringLiteral("export/caption"), dialog.caption());
  settings.setValue(QStringLiteral("export/scale"), dialog.options().scale);
  widgets::TimelineExportOptions options = dialog.options();
  options.viewSize = m_timeline->size();
  if (dialog.caption()) options.caption = displayName(m_path);

  if (dialog.action() == widgets::ExportDialog::Action::Copy) {
    const widgets::TimelineExport image = widgets::exportTimelineImage(*m_timeline, options);
    if (!image.ok()) {
      QMessageBox::warning(this, tr("Export Image"), image.error);
      return;
    }
    QGuiApplication::clipboard()->setImage(image.image);
    statusBar()->showMessage(tr("Image copied to the clipboard"), 5000);
    return;
  }
  // Never into the profiling folder: the user's last export folder, else the home folder.
  QString dir = settings.value(QStringLiteral("export/lastDir")).toString();
  if (dir.isEmpty() || !QFileInfo(dir).isDir() || isInsideAny(dir + QStringLiteral("/x"), protectedFolders(m_path, m_profile.get())))
    dir = QDir::homePath();
  const QString suffix = dialog.svg() ? QStringLiteral(".svg") : QStringLiteral(".png");
  const QString suggested = dir + QLatin1Char('/') + displayName(m_path) + QStringLiteral("-timeline") + suffix;
  QString file = QFileDialog::getSaveFileName(this, tr("Export Image"), suggested,
                                              dialog.svg() ? tr("SVG image (*.svg)") : tr("PNG image (*.png)"));
  if (file.isEmpty()) return;
  if (QFileInfo(file).suffix().isEmpty()) file += suffix;
  settings.setValue(QStringLiteral("export/lastDir"), QFileInfo(file).absolutePath());
  const QString error = exportScreenshot(file, options);
  if (!error.isEmpty())
    QMessageBox::warning(this, tr("Export Image"), error);
  else
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(file)), 5000);
}

QString MainWindow::exportScreenshot(const QString& file) {
  widgets::TimelineExportOptions options;
  options.viewSize = m_timeline->size();
  // A PNG at the screen's pixel density; an SVG at the window's size in logical px.
  options.scale = file.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive) ? 1.0 : devicePixelRatioF();
  return exportScreenshot(file, options);
}

QString MainWindow::exportScreenshot(const QString& file, const widgets::TimelineExportOptions& options) {
  if (!m_profile) return tr("Nothing to export: no profile is loaded.");
  if (isInsideAny(file, protectedFolders(m_path, m_profile.get())))
    return tr("%1 is inside the profiling folder, which npuscope never writes into: choose another folder.")
        .arg(QDir::toNativeSeparators(file));
  return widgets::writeTimelineExport(*m_timeline, options, file);
}

// ---------------------------------------------------------------------------------------------
// Events

void MainWindow::closeEvent(QCloseEvent* event) {
  m_loader->cancel();
  writeSettings();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!droppedPath(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString path = droppedPath(event->mimeData());
  if (path.isEmpty()) return;
  event->acceptProposedAction();
  openPath(path);
}

}  // namespace npuscope
