#pragma once
// A structure in natural coordinates behind the System seam (system.h), so that the
// application simulates, records, plots and shows it like a tree or a rigid body.

#include <memory>

#include "articulate/formulations/natural/integrator.h"
#include "articulate/formulations/natural/structure.h"
#include "articulate/simulation/system.h"

namespace art {

/// q and v are the natural coordinates and their rates (body after body: points and
/// unit-vector components); each step is one step of the structure's integrator (Zhong06 or
/// RK4). Solver-facing: M is the constant mass matrix (isMassConstant), f the assembled
/// apparatus and gravity forces (natural::updateStructure), the constraint rows are the
/// structure's (intrinsic, then joints; natural::constraintResidual) with G = A and Gdot v =
/// Adot qd, and lambda = -natural's multipliers (natural's constraint force is -A' lambda).
class StructureSystem : public System {
 public:
  /// With the structure's own integrator settings (its `simulation`), or the given ones.
  /// Throws std::invalid_argument for a structure that does not build (see natural::Structure)
  /// or bad options (natural::StructureSimulation).
  explicit StructureSystem(const natural::StructureSpec& spec);
  StructureSystem(const natural::StructureSpec& spec, const natural::SimulationOptions& options);
  /// Rebuilds on another structure with its own settings (at its reference state, t = 0);
  /// structureVersion() changes. Throws as the constructor, changing nothing.
  void setStructure(const natural::StructureSpec& spec);

  int positionSize() const override { return m_structure->nq(); }
  int velocitySize() const override { return m_structure->nq(); }
  int constraintSize() const override { return m_structure->nc(); }
  std::string positionName(int i) const override;
  std::string velocityName(int i) const override;
  /// "<body>.intrinsic[k]" for a body's own rows, "<joint>[k]" for a joint's.
  std::string constraintName(int i) const override;
  double time() const override { return m_sim->time(); }
  const Eigen::VectorXd& positions() const override { return m_sim->q(); }
  const Eigen::VectorXd& velocities() const override { return m_sim->qd(); }
  void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) override;
  void reset() override;
  bool step() override;
  bool advanceTo(double t) override;
  const std::optional<Divergence>& divergence() const override { return m_divergence; }
  long stepsTaken() const override { return m_sim->stepsTaken(); }
  std::string integratorName() const override {
    return natural::integratorName(m_options.integrator);
  }
  EnergySample energy() override;
  int bodies() const override { return static_cast<int>(m_structure->bodies().size()); }
  /// The point is in the body's local frame (bodyPoses); bars take its component along the
  /// bar.
  void setPerturbation(const std::optional<Perturbation>& perturbation) override;
  std::optional<Perturbation> perturbation() const override { return m_sim->perturbation(); }
  std::optional<PerturbationLoad> perturbationLoad() override { return m_sim->perturbationLoad(); }
  double carriedMass(int body) const override;
  /// Each body's frame, in which its appearance is drawn (docs/model-format.md, "Body
  /// frames"): the origin at the body's base point r, the axes its local axes e1, e2, e3
  /// (two-point kinds: e1 = (rj - r) / L); 2D kinds: z is world z (a 2D bar: e1 and e1 turned
  /// by 90 degrees); a 3D bar: x = e1 normalised, y = normalise(z_w x e1) (or x_w x e1 when
  /// |e1_z| >= 0.9), z = x cross y, a frame that does not spin about the bar.
  void bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) override;

  void positionDerivative(const VecRef& q, const VecRef& v, VecOut qdot) const override;
  void integratePositions(const VecRef& q, const VecRef& v, double h, VecOut qout) const override;
  using System::evaluate;
  void evaluate(double t, const VecRef& q, const VecRef& v, const VecRef& w) override;
  bool isMassConstant() const override { return true; }
  void massMatrix(MatOut M) override;
  void solveMass(VecOut b) override;
  void generalizedForces(VecOut f) override;
  void constraintResidual(VecOut phi) override;
  void constraintJacobian(MatOut G) override;
  void constraintVelocityTerm(VecOut gdotv) override;
  /// The index-1 multipliers with natural's RK4 Baumgarte terms (options().baumgarte).
  void constraintForces(VecOut lambda) override;
  /// Analytic: the apparatuses' blocks (natural::forceJacobianEntries, the same assembly as
  /// Zhong06's Newton matrix); gravity's force is constant. Kq = dF/dq, Kv = dF/dqd.
  void forceJacobians(MatOut Kq, MatOut Kv) override;

  const natural::Structure& structure() const { return *m_structure; }
  const natural::SimulationOptions& options() const { return m_options; }
  /// Largest constraint residual max |phi| at the current state.
  double constraintError() { return m_sim->constraintError(); }
  /// One segment per apparatus in spec order, from its point on body a (or the ground) to its
  /// point on body b: kind Cable for cables, Spring for springs with stiffness, Damper for
  /// those without; the tension of natural::updateStructure at (q, v), slack for a cable
  /// whose tension is zero (shorter than its rest length, or pushed by its damping). Throws
  /// std::invalid_argument when q or v (unless empty) does not have nq entries.
  void segments(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                std::vector<SegmentReport>& out) override;

 private:
  std::unique_ptr<natural::Structure> m_structure;
  natural::SimulationOptions m_options;
  std::unique_ptr<natural::StructureSimulation> m_sim;
  std::optional<Divergence> m_divergence;
  std::vector<int> m_owner;  // body of each coordinate
  std::vector<std::string> m_rowNames;
  // the evaluation point and its workspaces
  std::unique_ptr<natural::StructureData> m_data;
  Eigen::VectorXd m_q, m_v;
  Eigen::LLT<Eigen::MatrixXd> m_Mllt;
  Eigen::MatrixXd m_K;  // [M A'; A 0]
  Eigen::PartialPivLU<Eigen::MatrixXd> m_Klu;
  Eigen::VectorXd m_rhs, m_sol;
  bool m_forces = false;
  std::unique_ptr<natural::StructureData> m_segmentData;  // segments' own workspace
  Eigen::VectorXd m_rest;  // zero velocities (nq), for segments without v
  void build(const natural::StructureSpec& spec, const natural::SimulationOptions& options);
  bool stopped();
};

/// A tree whose bodies draw a structure's bodies for the viewport: each body's appearance in
/// its body frame (StructureSystem::bodyPoses gives the poses) or, without one, the default
/// look (bars as rods from their point along their axis, rigid bodies as small boxes), and the
/// structure's base appearance. Springs, dampers and cables are drawn by the viewport from
/// StructureSystem::segments.
ModelSpec displayModel(const natural::StructureSpec& spec);

}  // namespace art
