// The Physics dialog (physics_dialog.h).
#include "physics_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include "number_box.h"

namespace art::gui {

PhysicsDialog::PhysicsDialog(const PhysicsSpec& physics, QWidget* parent) : QDialog(parent), m_given(physics) {
  setWindowTitle(tr("Physics"));
  setObjectName("physicsDialog");
  auto* form = new QFormLayout;
  m_constraints = new QComboBox(this);
  m_constraints->setObjectName("constraints");
  m_constraints->addItem(tr("Exact: rigid stops, exact loops and gears"), "exact");
  m_constraints->addItem(tr("Soft: MuJoCo's constraint model"), "soft");
  m_constraints->setCurrentIndex(physics.constraints == PhysicsSpec::Constraints::Soft ? 1 : 0);
  m_constraints->setToolTip(tr("Exact: limits are rigid stops, friction acts by impulses, loops and gears hold exactly "
                               "(spatial_v2's model). Soft: limits, dry friction and equality constraints are soft "
                               "rows solved together as one convex problem, as MuJoCo 2.2.2 does (MJCF files)."));
  form->addRow(tr("&Constraints:"), m_constraints);
  m_solver = new QComboBox(this);
  m_solver->setObjectName("solver");
  for (const auto& [id, label] : {std::pair{"newton", tr("Newton (exact line search)")}, std::pair{"pgs", tr("PGS (dual)")},
                                  std::pair{"cg", tr("Conjugate gradient")}})
    m_solver->addItem(label, id);
  m_solver->setCurrentIndex(m_solver->findData(solverName(physics.solver)));
  form->addRow(tr("&Solver:"), m_solver);
  m_iterations = new QSpinBox(this);
  m_iterations->setObjectName("iterations");
  m_iterations->setRange(1, 1000000);
  m_iterations->setValue(physics.iterations);
  form->addRow(tr("&Iterations:"), m_iterations);
  m_tolerance = new NumberBox(this, 0, 1, 6);
  m_tolerance->setObjectName("tolerance");
  m_tolerance->setValue(physics.tolerance);
  m_tolerance->setToolTip(tr("The solver stops when its scaled cost improvement or gradient falls below this"));
  form->addRow(tr("&Tolerance:"), m_tolerance);
  m_cone = new QComboBox(this);
  m_cone->setObjectName("cone");
  m_cone->addItem(tr("Pyramidal"), "pyramidal");
  m_cone->addItem(tr("Elliptic"), "elliptic");
  m_cone->setCurrentIndex(physics.cone == PhysicsSpec::Cone::Elliptic ? 1 : 0);
  m_cone->setToolTip(tr("The friction cone of contacts"));
  form->addRow(tr("Friction c&one:"), m_cone);
  m_impratio = new NumberBox(this, 1e-9, 1e9, 6);
  m_impratio->setObjectName("impratio");
  m_impratio->setValue(physics.impratio);
  m_impratio->setToolTip(tr("The ratio of frictional to normal impedance of contacts"));
  form->addRow(tr("I&mpratio:"), m_impratio);
  // solref: time constant and damping ratio, or (both <= 0) -stiffness and -damping
  auto* ref = new QHBoxLayout;
  const char* refNames[2] = {"solref0", "solref1"};
  for (int k = 0; k < 2; ++k) {
    m_solref[k] = new NumberBox(this, -1e12, 1e12, 6);
    m_solref[k]->setObjectName(refNames[k]);
    m_solref[k]->setValue(physics.soft.solref[static_cast<std::size_t>(k)]);
    ref->addWidget(m_solref[k]);
  }
  m_solref[0]->setToolTip(tr("Time constant (s), or -stiffness with both entries <= 0"));
  m_solref[1]->setToolTip(tr("Damping ratio, or -damping with both entries <= 0"));
  form->addRow(tr("Default solref:"), ref);
  auto* imp = new QHBoxLayout;
  const char* impTips[5] = {"dmin, in (0, 1)", "dmax, in (0, 1)", "width (m), >= 0", "midpoint, in (0, 1)", "power, >= 1"};
  const double lo[5] = {1e-4, 1e-4, 0, 1e-4, 1}, hi[5] = {0.9999, 0.9999, 1e6, 0.9999, 1e6};
  for (int k = 0; k < 5; ++k) {
    m_solimp[k] = new NumberBox(this, lo[k], hi[k], 6);
    m_solimp[k]->setObjectName(QString("solimp%1").arg(k));
    m_solimp[k]->setValue(physics.soft.solimp[static_cast<std::size_t>(k)]);
    m_solimp[k]->setToolTip(tr(impTips[k]));
    imp->addWidget(m_solimp[k]);
  }
  form->addRow(tr("Default solimp:"), imp);
  auto* note = new QLabel(tr("The defaults apply to the rows of limits, friction and equalities that give no "
                             "solref or solimp of their own."), this);
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note);
  layout->addWidget(buttons);
  connect(m_constraints, &QComboBox::currentIndexChanged, this, &PhysicsDialog::updateEnabled);
  updateEnabled();
}

void PhysicsDialog::updateEnabled() {
  const bool soft = m_constraints->currentData().toString() == "soft";
  for (QWidget* w : std::initializer_list<QWidget*>{m_solver, m_iterations, m_tolerance, m_cone, m_impratio, m_solref[0],
                                                    m_solref[1], m_solimp[0], m_solimp[1], m_solimp[2], m_solimp[3],
                                                    m_solimp[4]})
    w->setEnabled(soft);
}

PhysicsSpec PhysicsDialog::physics() const {
  PhysicsSpec p = m_given;
  p.constraints = m_constraints->currentData().toString() == "soft" ? PhysicsSpec::Constraints::Soft
                                                                     : PhysicsSpec::Constraints::Exact;
  parseSolver(m_solver->currentData().toString().toStdString(), p.solver);
  p.iterations = m_iterations->value();
  p.tolerance = m_tolerance->value();
  p.cone = m_cone->currentData().toString() == "elliptic" ? PhysicsSpec::Cone::Elliptic : PhysicsSpec::Cone::Pyramidal;
  p.impratio = m_impratio->value();
  for (int k = 0; k < 2; ++k) p.soft.solref[static_cast<std::size_t>(k)] = m_solref[k]->value();
  for (int k = 0; k < 5; ++k) p.soft.solimp[static_cast<std::size_t>(k)] = m_solimp[k]->value();
  return p;
}

}  // namespace art::gui
