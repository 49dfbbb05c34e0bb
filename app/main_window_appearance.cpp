// SPDX-License-Identifier: MIT
// View > Language and View > Theme. Both apply at once: the language by swapping the window for
// one built in it (the menus, docks and models are built with their texts), keeping its layout
// and its loaded profile; the theme by a new palette.
#include <QActionGroup>
#include <QApplication>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>

#include "app/appearance.h"
#include "app/main_window.h"

namespace npuscope {

void MainWindow::addAppearanceMenus(QMenu* view) {
  view->addSeparator();

  QMenu* language = view->addMenu(tr("&Language"));
  language->setObjectName(QStringLiteral("LanguageMenu"));
  auto* languages = new QActionGroup(language);
  const QString current = savedLanguageSetting();
  // Each language is named in itself, as language menus do; the system's when it has a name (the
  // C / POSIX locale has none: "System", never "System ()").
  const QString systemName = QLocale::system().nativeLanguageName();
  const std::pair<QString, QString> choices[] = {
      {QStringLiteral("system"), systemName.isEmpty() ? tr("System") : tr("System (%1)").arg(systemName)},
      {QStringLiteral("en"), QStringLiteral("English")},
      {QStringLiteral("zh_CN"), QStringLiteral("简体中文")},
  };
  for (const auto& [key, label] : choices) {
    QAction* a = language->addAction(label);
    a->setCheckable(true);
    a->setData(key);
    a->setChecked(key == current || (key == QLatin1String("system") && current.isEmpty()));
    languages->addAction(a);
  }
  connect(languages, &QActionGroup::triggered, this, [this](QAction* a) {
    // Queued: the menu that triggered it belongs to this window, which the switch closes.
    const QString key = a->data().toString();
    QMetaObject::invokeMethod(this, [this, key] { switchLanguage(key); }, Qt::QueuedConnection);
  });

  QMenu* theme = view->addMenu(tr("&Theme"));
  theme->setObjectName(QStringLiteral("ThemeMenu"));
  auto* themes = new QActionGroup(theme);
  const Theme saved = savedTheme();
  const std::pair<Theme, QString> themeChoices[] = {
      {Theme::System, tr("&System")}, {Theme::Light, tr("&Light")}, {Theme::Dark, tr("&Dark")}};
  for (const auto& [t, label] : themeChoices) {
    QAction* a = theme->addAction(label);
    a->setCheckable(true);
    a->setData(themeKey(t));
    a->setChecked(t == saved);
    themes->addAction(a);
  }
  connect(themes, &QActionGroup::triggered, this, [](QAction* a) {
    const Theme t = themeFromKey(a->data().toString());
    saveTheme(t);
    if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance())) applyTheme(*app, t);
    // The views cache nothing colour-dependent but the panels' style sheets: rebuild them.
    for (QWidget* w : QApplication::allWidgets()) w->update();
  });
}

MainWindow* MainWindow::switchLanguage(const QString& key) {
  if (key == savedLanguageSetting()) return nullptr;
  saveLanguageSetting(key);
  auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
  if (app) installTranslation(*app, resolveLanguage(key, QLocale::system().name()));
  writeSettings();  // the new window reads this one's geometry and dock layout
  auto* next = new MainWindow;
  next->setAttribute(Qt::WA_DeleteOnClose);
  next->restoreGeometry(saveGeometry());  // this window's own, whatever the settings kept
  next->restoreState(saveState());
  next->setInteractiveErrors(m_interactiveErrors);
  if (m_profile) {
    next->m_lastDirectory = m_lastDirectory;
    next->onLoaded(m_path, m_profile, m_loadMs);
  }
  next->show();
  emit languageSwitched(next);
  close();
  return next;
}

}  // namespace npuscope
