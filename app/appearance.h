// SPDX-License-Identifier: MIT
#pragma once
// Interface language and colour theme of the GUI (View > Language, View > Theme), kept in
// QSettings ("ui/language", "ui/theme"). The translations are Qt Linguist files
// (resources/translations/npuscope_<lang>.ts), compiled to .qm by CMake and embedded as
// :/i18n/npuscope_<lang>.qm.

#include <QString>
#include <QStringList>

class QApplication;
class QCoreApplication;

namespace npuscope {

/// Interface languages offered besides English: {"zh_CN"}.
[[nodiscard]] QStringList availableLanguages();

/// The language to use for `setting` ("" or "system": the system locale, zh* -> "zh_CN", else
/// "en"; "en"; "zh_CN"). Unknown values give "en".
[[nodiscard]] QString resolveLanguage(const QString& setting, const QString& systemLocaleName);

/// The saved View > Language choice ("system" when never set).
[[nodiscard]] QString savedLanguageSetting();
void saveLanguageSetting(const QString& setting);

/// Installs npuscope's translator for `language` ("en" removes it) on `app`, plus Qt's own
/// qtbase_<lang>.qm when the system has it (standard buttons). Returns false when the embedded
/// .qm for a non-English language could not be loaded (the interface then stays English).
/// Also installs core's translation hook (core::i18n::setTranslator, QCoreApplication::translate)
/// for a non-English language, and removes it for English, so that core's sentences (verdict,
/// bubble details, advisor findings, report text) follow the interface language.
bool installTranslation(QCoreApplication& app, const QString& language);

/// View > Theme choices.
enum class Theme { System, Light, Dark };
[[nodiscard]] Theme themeFromKey(const QString& key);  ///< "light", "dark", else System
[[nodiscard]] QString themeKey(Theme theme);           ///< "system", "light", "dark"
[[nodiscard]] Theme savedTheme();
void saveTheme(Theme theme);

/// Applies `theme` to the whole application: System keeps the platform's style and palette (as
/// they were at the first call); Light and Dark use the Fusion style with a light or dark palette.
/// Also tells the timeline which chrome colours to use (widgets::ColorPalette::setDarkChrome).
void applyTheme(QApplication& app, Theme theme);

/// True when `theme` ends up dark on this system (System: the platform window colour is dark).
[[nodiscard]] bool isDarkTheme(Theme theme);

}  // namespace npuscope
