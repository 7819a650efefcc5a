#pragma once
// NumberBox: the numeric field of every form. It reads numbers as people type them: the
// locale's decimal mark or a point, scientific notation ("2e-4", "1.5E3"), spaces around the
// number and the field's suffix. It keeps the value exactly as typed (a plain QDoubleSpinBox
// rounds it to its decimals) and shows it rounded to the field's display digits, switching to
// scientific notation for magnitudes under 1e-3 or from 1e6.
//
// A text it cannot take (not a number, not finite, outside the field's range) is refused,
// never clamped or mangled: Enter or leaving the field keeps the typed text, marks the field
// red and shows the reason beside it (a tooltip at the field, and refusal()). The next
// accepted value clears it. Callers refuse model-level values the same way with refuse().

#include <QDoubleSpinBox>
#include <QString>

class QKeyEvent;

namespace art::gui {

/// Whether a key press is the window's Undo (Ctrl+Z), or its Redo (Ctrl+Shift+Z or Ctrl+Y):
/// the fields that would take them as text edits hand them to the model instead.
bool undoKey(const QKeyEvent* key);
bool redoKey(const QKeyEvent* key);

class NumberBox : public QDoubleSpinBox {
  Q_OBJECT
 public:
  /// A field for [lo, hi] shown with `digits` decimals (at most; trailing zeros are dropped)
  /// and `suffix` (for example " kg"). Keyboard tracking is off: one value per Enter.
  NumberBox(QWidget* parent, double lo, double hi, int digits, const QString& suffix = {});

  /// The number `text` means in `locale` (the field's suffix and surrounding spaces already
  /// removed), or the reason it means none. Both the locale's decimal mark and a point are
  /// read; group separators are not.
  static bool parse(const QString& text, const QLocale& locale, double& value, QString& why);

  /// Shows `reason` beside the field and marks it; an empty reason clears the mark.
  void refuse(const QString& reason);
  /// The reason shown now (empty when the field holds an accepted value).
  QString refusal() const { return m_refusal; }
  int displayDigits() const { return m_digits; }
  /// The text in the field now, as typed; keepText puts a text back (a value the model
  /// refused stays for fixing).
  QString typedText() const;
  void keepText(const QString& text);

  QValidator::State validate(QString& text, int& pos) const override;
  double valueFromText(const QString& text) const override;
  QString textFromValue(double value) const override;
  void fixup(QString& text) const override;

 signals:
  /// A typed text was refused (the reason, as refusal() gives it).
  void refused(const QString& reason);

 protected:
  bool event(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void focusOutEvent(QFocusEvent* event) override;

 private:
  // the typed text without the suffix and spaces
  QString bare(const QString& text) const;
  // whether the typed text is a number the field takes; else the reason
  bool acceptable(const QString& text, double& value, QString& why) const;
  int m_digits;
  QString m_refusal;
};

}  // namespace art::gui
