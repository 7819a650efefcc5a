#pragma once
// The Keyframes dock: the model's named states (ModelSpec::keyframes, saved in the model file).
// Add stores the state at the playhead, Restore makes a keyframe the paused state at its time,
// Set as Initial State writes it into the model, Export Video Between exports the recording
// between two selected keyframes; names are edited in place. Every change is one undoable
// document command.

#include <QWidget>

#include "articulate/model/spec.h"

class QLabel;
class QTableWidget;
class QPushButton;

namespace art::gui {

class ModelDocument;

class KeyframesPanel : public QWidget {
  Q_OBJECT
 public:
  explicit KeyframesPanel(ModelDocument* document, QWidget* parent = nullptr);

  /// Appends a keyframe of state (q, qd) at time t (s) named `name` (empty: "Keyframe N", the
  /// first N free), with the actuators' controls and activations then (empty: none), and
  /// selects it. Returns the refusal (a size the model does not have, a name in use), or empty.
  QString add(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
              const QString& name = {}, const Eigen::VectorXd& ctrl = {}, const Eigen::VectorXd& act = {});
  /// Renames keyframe k; removes it. Return the refusal, or empty.
  QString rename(int k, const QString& name);
  QString remove(int k);
  /// Makes keyframe k the model's initial state (positions and velocities).
  QString setAsInitialState(int k);
  /// The selected keyframes' indices, in list order.
  QList<int> selected() const;
  /// Greys the dock with a reason (rigid bodies and structures have no keyframes), or (empty)
  /// makes it available.
  void setUnavailable(const QString& reason);
  QTableWidget* list() const { return m_list; }

 signals:
  /// Add was clicked: the window answers with add() at the playhead.
  void addRequested();
  /// Restore was clicked (or a keyframe double-clicked outside its name).
  void restoreRequested(int k);
  /// Export Video Between was clicked with two keyframes selected: times in increasing order.
  void exportRequested(double from, double to);

 protected:
  /// F2 in the list renames the current keyframe: the window's F2 (the status overlay) waits.
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void refresh();
  void updateButtons();
  ModelDocument* m_doc;
  QTableWidget* m_list;  // name (editable) and time, one row per keyframe
  QPushButton *m_add, *m_restore, *m_initial, *m_remove, *m_export;
  QLabel* m_unavailable;
  bool m_refreshing = false;
};

}  // namespace art::gui
