// SPDX-License-Identifier: MIT
// View > Language and View > Theme. The language takes effect at the next start (the menus,
// docks and models are built once with their texts); the theme applies at once.
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
    const QString key = a->data().toString();
    if (key == savedLanguageSetting()) return;
    saveLanguageSetting(key);
    QMessageBox::information(this, tr("Language"),
                             tr("The interface language changes when npuscope is started again."));
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

}  // namespace npuscope
