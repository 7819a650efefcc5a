// The numeric field (see number_box.h).
#include "number_box.h"

#include <cfloat>
#include <cmath>

#include <QKeyEvent>
#include <QLineEdit>
#include <QToolTip>

namespace art::gui {

namespace {

// the locale as the field reads and writes numbers: no group separators, short exponents
QLocale plain(QLocale locale) {
  locale.setNumberOptions(QLocale::OmitGroupSeparator | QLocale::RejectGroupSeparator |
                          QLocale::OmitLeadingZeroInExponent);
  return locale;
}

// "1.2500" -> "1.25", "2.0" -> "2", "-0" -> "0"
QString trimZeros(QString s, QChar point) {
  if (s.contains(point)) {
    while (s.endsWith('0')) s.chop(1);
    if (s.endsWith(point)) s.chop(1);
  }
  if (s == "-0") s = "0";
  return s;
}

}  // namespace

NumberBox::NumberBox(QWidget* parent, double lo, double hi, int digits, const QString& suffix)
    : QDoubleSpinBox(parent), m_digits(digits) {
  // the value is kept as typed: QDoubleSpinBox rounds to decimals(), so it gets all of them,
  // and textFromValue rounds what is shown instead
  setDecimals(DBL_MAX_10_EXP + DBL_DIG);
  setRange(lo, hi);
  setSuffix(suffix);
  setKeyboardTracking(false);
  // an accepted value clears a refusal (callers refuse again after it when the model refuses)
  connect(this, &QDoubleSpinBox::valueChanged, this, [this] {
    if (!m_refusal.isEmpty()) refuse({});
  });
}

bool NumberBox::parse(const QString& text, const QLocale& locale, double& value, QString& why) {
  const QString t = text.trimmed();
  if (t.isEmpty()) {
    why = tr("Type a number.");
    return false;
  }
  bool ok = false;
  value = plain(locale).toDouble(t, &ok);
  if (!ok) value = plain(QLocale::c()).toDouble(t, &ok);
  if (!ok || !std::isfinite(value)) {
    why = tr("'%1' is not a number this field can hold (for example 0.25, -3 or 2e-4).").arg(t);
    return false;
  }
  return true;
}

QString NumberBox::bare(const QString& text) const {
  QString s = text.trimmed();
  if (!prefix().isEmpty() && s.startsWith(prefix().trimmed())) s.remove(0, prefix().trimmed().size());
  const QString sfx = suffix().trimmed();
  while (!sfx.isEmpty() && s.endsWith(sfx)) s = s.chopped(sfx.size()).trimmed();  // "3 kg kg"
  return s;
}

bool NumberBox::acceptable(const QString& text, double& value, QString& why) const {
  const QString s = bare(text);
  if (s == textFromValue(this->value())) {  // shown as it is: the exact value
    value = this->value();
    return true;
  }
  if (!parse(s, locale(), value, why)) return false;
  if (value < minimum()) {
    why = tr("%1 is below this field's smallest value, %2.").arg(s, textFromValue(minimum()));
    return false;
  }
  if (value > maximum()) {
    why = tr("%1 is above this field's largest value, %2.").arg(s, textFromValue(maximum()));
    return false;
  }
  return true;
}

QValidator::State NumberBox::validate(QString& text, int&) const {
  double v;
  QString why;
  if (acceptable(text, v, why)) return QValidator::Acceptable;
  // anything else may be on its way to a number ("2e-"), or is refused with its reason at
  // Enter: no keystroke is silently dropped
  return QValidator::Intermediate;
}

double NumberBox::valueFromText(const QString& text) const {
  double v;
  QString why;
  return acceptable(text, v, why) ? v : value();
}

QString NumberBox::textFromValue(double v) const {
  if (v == 0) return "0";
  const QLocale l = plain(locale());
  const double a = std::abs(v);
  if (a >= 1e-3 && a < 1e6) return trimZeros(l.toString(v, 'f', m_digits), l.decimalPoint().at(0));
  // scientific: the mantissa's trailing zeros dropped ("2e-4", "1.5e+7")
  const QString s = l.toString(v, 'e', std::min(3, m_digits));
  const qsizetype e = s.indexOf(l.exponential(), 0, Qt::CaseInsensitive);
  if (e < 0) return s;
  return trimZeros(s.left(e), l.decimalPoint().at(0)) + s.mid(e);
}

bool undoKey(const QKeyEvent* key) { return key->matches(QKeySequence::Undo); }

bool redoKey(const QKeyEvent* key) {
  return key->matches(QKeySequence::Redo) || key->keyCombination() == QKeyCombination(Qt::CTRL, Qt::Key_Y);
}

void NumberBox::fixup(QString&) const {}  // a refused text stays as typed

void NumberBox::refuse(const QString& reason) {
  if (m_refusal.isEmpty() && !reason.isEmpty()) setProperty("ownToolTip", toolTip());
  m_refusal = reason;
  QPalette p = palette();
  p.setColor(QPalette::Base, reason.isEmpty() ? QPalette().color(QPalette::Base) : QColor(255, 221, 221));
  setPalette(p);
  setToolTip(reason.isEmpty() ? property("ownToolTip").toString() : reason);
  if (reason.isEmpty()) return;
  if (isVisible()) {
    QToolTip::hideText();  // shown again where the field is now
    QToolTip::showText(mapToGlobal(QPoint(0, height())), reason, this);
  }
  emit refused(reason);
}

void NumberBox::keepText(const QString& text) { lineEdit()->setText(text); }

QString NumberBox::typedText() const { return lineEdit()->text(); }

bool NumberBox::event(QEvent* e) {
  // Undo and Redo are the model's (the window's shortcuts), unless a typed number is pending:
  // then Undo discards the typing
  if (e->type() == QEvent::ShortcutOverride) {
    const bool undo = undoKey(static_cast<QKeyEvent*>(e)), redo = redoKey(static_cast<QKeyEvent*>(e));
    if (undo || redo) {
      if (undo && bare(typedText()) != textFromValue(value())) {
        keepText(textFromValue(value()) + suffix());
        refuse({});
        e->accept();
        return true;
      }
      e->ignore();
      return false;
    }
  }
  return QDoubleSpinBox::event(e);
}

void NumberBox::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
    double v;
    QString why;
    if (!acceptable(text(), v, why)) {
      refuse(why);
      event->accept();
      return;
    }
  }
  QDoubleSpinBox::keyPressEvent(event);
}

void NumberBox::focusOutEvent(QFocusEvent* event) {
  double v;
  QString why;
  if (!acceptable(text(), v, why)) {
    refuse(why);  // the typed text stays for fixing
    QWidget::focusOutEvent(event);
    return;
  }
  QDoubleSpinBox::focusOutEvent(event);
}

}  // namespace art::gui
