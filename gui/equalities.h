#pragma once
// The Equality dock: one check box per equality constraint of the model (EqualitySpec), as
// MuJoCo's simulate has in its Equality section. Checked, the constraint acts; unchecked, its
// rows leave the solver and the bodies move apart (the view still draws a connect's or weld's
// two anchors, dimmed). Each row says what the equality ties, e.g. "connect: 'rod' to
// 'crank'".
//
// How it meets the simulation (MainWindow wires it): a click emits equalitiesEdited with every
// switch; the window hands them to the running (or paused) simulation (Playback::
// setEqualities), which records each change with the time it took effect (Recording::
// equalitiesAt). While the playhead is off the live end (scrubbing) the boxes follow the
// switches that were in force at the shown time (setShown).

#include <vector>

#include <QWidget>

class QCheckBox;
class QLabel;
class QVBoxLayout;

namespace art {
struct ModelSpec;
}  // namespace art

namespace art::gui {

class EqualityPanel : public QWidget {
  Q_OBJECT
 public:
  explicit EqualityPanel(QWidget* parent = nullptr);

  /// Builds one check box per equality of `spec` (none: a note saying the model has none),
  /// checked as the model starts (EqualitySpec::active).
  void setModel(const ModelSpec& spec);
  /// Shows the switches (one per equality; another size: the model's own) without emitting
  /// equalitiesEdited.
  void setShown(const std::vector<char>& active);
  /// The switches the boxes show (one per equality, 1 acting).
  const std::vector<char>& active() const { return m_active; }

  // for tests
  int rowCount() const { return static_cast<int>(m_boxes.size()); }
  QCheckBox* box(int row) const { return m_boxes[static_cast<std::size_t>(row)]; }

 signals:
  /// The user switched an equality: every switch, one per equality.
  void equalitiesEdited(const std::vector<char>& active);

 private:
  std::vector<QCheckBox*> m_boxes;
  std::vector<char> m_active, m_initial;
  QVBoxLayout* m_list = nullptr;
  QLabel* m_note = nullptr;
};

}  // namespace art::gui
