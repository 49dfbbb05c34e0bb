// SPDX-License-Identifier: MIT
#include "app/appearance.h"

#include <QApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QPalette>
#include <QPainter>
#include <QPointer>
#include <QProxyStyle>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOptionMenuItem>
#include <QTranslator>
#include <optional>

#include "core/base/i18n.h"
#include "widgets/timeline/color_palette.h"

namespace npuscope {

namespace {

// core's TranslateFn (core/base/i18n.h): the installed translators, through
// QCoreApplication::translate (thread-safe; core's analyses call it on worker threads).
std::string translateForCore(const char* context, const char* source) {
  return QCoreApplication::translate(context, source).toStdString();
}

constexpr auto kLanguageKey = "ui/language";
constexpr auto kThemeKey = "ui/theme";

QString key(const char* k) { return QString::fromLatin1(k); }

// The translators installed by installTranslation (owned by the application object).
QPointer<QTranslator>& appTranslator() {
  static QPointer<QTranslator> t;
  return t;
}
QPointer<QTranslator>& qtTranslator() {
  static QPointer<QTranslator> t;
  return t;
}

// The platform's style name and palette before the first applyTheme (Theme::System restores them).
struct PlatformLook {
  QString style;
  QPalette palette;
};
std::optional<PlatformLook>& platformLook() {
  static std::optional<PlatformLook> look;
  return look;
}

bool isDark(const QPalette& p) { return p.color(QPalette::Window).lightness() < 128; }

QPalette darkPalette() {
  // Fusion's dark palette, close to the official viewer's dark mode (neutral greys, blue accent).
  QPalette p;
  const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), alt(0x26, 0x28, 0x2c);
  const QColor text(0xe3, 0xe5, 0xe8), dim(0x8b, 0x90, 0x98), accent(0x3d, 0x7b, 0xe0);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, alt);
  p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x37, 0x3c));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, dim);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
  p.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4e));
  p.setColor(QPalette::Midlight, QColor(0x3a, 0x3d, 0x42));
  p.setColor(QPalette::Mid, QColor(0x30, 0x32, 0x36));
  p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
  p.setColor(QPalette::Shadow, QColor(0x0e, 0x0f, 0x10));
  p.setColor(QPalette::Highlight, accent);
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(0x6c, 0xa6, 0xff));
  p.setColor(QPalette::LinkVisited, QColor(0xb3, 0x8c, 0xff));
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, QColor(0x6e, 0x72, 0x79));
  p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x4a, 0x4d, 0x52));
  return p;
}

/// Fusion with a visible box (or ring) for an unchecked checkable menu item: Fusion draws nothing
/// there, so View > Device Lanes First and the other toggles did not look like toggles, in dark
/// most of all (issue 42 item 5). The box sits where Fusion draws the check mark (its check
/// column: menuItemHMargin 3 + windowsItemFrame 2 - 1 px from the left, 14 px square).
class MenuCheckStyle : public QProxyStyle {
 public:
  MenuCheckStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {}
  void drawControl(ControlElement element, const QStyleOption* option, QPainter* painter, const QWidget* widget) const override {
    QProxyStyle::drawControl(element, option, painter, widget);
    const auto* item = qstyleoption_cast<const QStyleOptionMenuItem*>(option);
    if (element != CE_MenuItem || !item || item->checked || item->checkType == QStyleOptionMenuItem::NotCheckable ||
        item->menuItemType == QStyleOptionMenuItem::Separator)
      return;
    const QRect box(item->rect.left() + 4, item->rect.center().y() - 6, 13, 13);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    QColor pen = item->palette.color(QPalette::Text);
    pen.setAlphaF(item->state & State_Enabled ? 0.6 : 0.3);
    painter->setPen(QPen(pen, 1.2));
    painter->setBrush(Qt::NoBrush);
    if (item->checkType == QStyleOptionMenuItem::Exclusive) painter->drawEllipse(QRectF(box).adjusted(1.5, 1.5, -1.5, -1.5));
    else painter->drawRoundedRect(QRectF(box).adjusted(1.5, 1.5, -1.5, -1.5), 2, 2);
    painter->restore();
  }
};

}  // namespace

QStringList availableLanguages() { return {QStringLiteral("zh_CN")}; }

QString resolveLanguage(const QString& setting, const QString& systemLocaleName) {
  if (setting == QLatin1String("en")) return QStringLiteral("en");
  if (availableLanguages().contains(setting)) return setting;
  if (setting.isEmpty() || setting == QLatin1String("system"))
    return systemLocaleName.startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN") : QStringLiteral("en");
  return QStringLiteral("en");
}

QString savedLanguageSetting() { return QSettings().value(key(kLanguageKey), QStringLiteral("system")).toString(); }
void saveLanguageSetting(const QString& setting) { QSettings().setValue(key(kLanguageKey), setting); }

bool installTranslation(QCoreApplication& app, const QString& language) {
  for (QPointer<QTranslator>* t : {&appTranslator(), &qtTranslator()}) {
    if (*t) {
      QCoreApplication::removeTranslator(*t);
      delete t->data();
    }
  }
  core::i18n::setTranslator(nullptr);  // core's sentences English until a translation is in place
  if (language.isEmpty() || language == QLatin1String("en")) return true;
  auto* mine = new QTranslator(&app);
  if (!mine->load(QStringLiteral(":/i18n/npuscope_%1.qm").arg(language))) {
    delete mine;
    return false;
  }
  QCoreApplication::installTranslator(mine);
  appTranslator() = mine;
  core::i18n::setTranslator(&translateForCore);
  auto* qt = new QTranslator(&app);
  if (qt->load(QStringLiteral("qtbase_%1").arg(language), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    QCoreApplication::installTranslator(qt);
    qtTranslator() = qt;
  } else {
    delete qt;
  }
  return true;
}

Theme themeFromKey(const QString& k) {
  if (k == QLatin1String("light")) return Theme::Light;
  if (k == QLatin1String("dark")) return Theme::Dark;
  return Theme::System;
}
QString themeKey(Theme theme) {
  switch (theme) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    case Theme::System: break;
  }
  return QStringLiteral("system");
}
Theme savedTheme() { return themeFromKey(QSettings().value(key(kThemeKey)).toString()); }
void saveTheme(Theme theme) { QSettings().setValue(key(kThemeKey), themeKey(theme)); }

void applyTheme(QApplication& app, Theme theme) {
  if (!platformLook()) platformLook() = PlatformLook{app.style()->name(), QApplication::palette()};
  const PlatformLook& platform = *platformLook();
  switch (theme) {
    case Theme::System:
      if (app.style()->name() != platform.style) QApplication::setStyle(platform.style);
      QApplication::setPalette(platform.palette);
      break;
    case Theme::Light:
      QApplication::setStyle(new MenuCheckStyle);
      QApplication::setPalette(QApplication::style()->standardPalette());
      break;
    case Theme::Dark:
      QApplication::setStyle(new MenuCheckStyle);
      QApplication::setPalette(darkPalette());
      break;
  }
  widgets::ColorPalette::setDarkChrome(isDark(QApplication::palette()));
}

bool isDarkTheme(Theme theme) {
  if (theme == Theme::Dark) return true;
  if (theme == Theme::Light) return false;
  return isDark(platformLook() ? platformLook()->palette : QApplication::palette());
}

}  // namespace npuscope
