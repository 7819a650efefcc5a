#pragma once
// The Physics dialog (Simulation > Physics...): how the model's limits, joint friction and
// equality constraints are enforced (exact stops and loops, or MuJoCo's soft constraint model)
// and, for the soft model, its solver, iterations, tolerance, friction cone, impratio and the
// default solref and solimp of rows whose element gives none (spec.h PhysicsSpec). The main
// window applies the result as one undoable edit.

#include <QDialog>

#include "articulate/model/spec.h"

class QComboBox;
class QSpinBox;

namespace art::gui {

class NumberBox;

class PhysicsDialog : public QDialog {
  Q_OBJECT
 public:
  PhysicsDialog(const PhysicsSpec& physics, QWidget* parent = nullptr);
  /// The settings as the dialog holds them now (the given ones with the fields' values).
  PhysicsSpec physics() const;

 private:
  void updateEnabled();
  PhysicsSpec m_given;
  QComboBox *m_constraints = nullptr, *m_solver = nullptr, *m_cone = nullptr;
  QSpinBox* m_iterations = nullptr;
  NumberBox *m_tolerance = nullptr, *m_impratio = nullptr;
  NumberBox* m_solref[2] = {nullptr, nullptr};
  NumberBox* m_solimp[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
};

}  // namespace art::gui
