// The rows of MuJoCo's constraint model (soft_constraints.h): their Jacobians and residuals
// (mj_instantiateEquality, mj_instantiateFriction, mj_instantiateLimit), MuJoCo's approximate
// diagonal of J H^-1 J' from the inverse weights at q0 (mj_setConst, mj_diagApprox), the
// impedance and the reference acceleration (mj_makeImpedance, mj_referenceConstraint).
#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

#include "articulate/dynamics/actuation.h"
#include "articulate/dynamics/soft_constraints.h"
#include "detail.h"

namespace art {

using detail::contactImpedance;
using detail::contactRowCount;
using detail::softContactRows;

namespace {


int equalityRowCount(const EqualitySpec& e) {
  return e.type == EqualitySpec::Type::Connect ? 3 : e.type == EqualitySpec::Type::Weld ? 6 : 1;
}

// the channels (softChannelNames) of each kind of element: every row an element can have
int equalityChannels(const Model& m) {
  int n = 0;
  for (const EqualitySpec& e : m.equalities) n += equalityRowCount(e);
  return n;
}
int frictionChannels(const Model& m) {
  int n = 0;
  for (int i = 0; i < m.nb; ++i)
    if (m.friction[static_cast<std::size_t>(i)] > 0) n += m.jointNv(i);
  for (const TendonSpec& t : m.tendons) n += t.frictionloss > 0 ? 1 : 0;
  return n;
}
int limitChannels(const Model& m) {
  int n = 0;
  for (const JointLimits& l : m.limits) n += (l.lower ? 1 : 0) + (l.upper ? 1 : 0);
  for (const TendonSpec& t : m.tendons) n += t.range ? 2 : 0;
  return n;
}
int rowCapacity(const Model& m) { return equalityChannels(m) + frictionChannels(m) + limitChannels(m); }

// sizes the row arrays for `cap` rows; their contents are rebuilt at every evaluation
void reserveRows(SoftConstraintData& s, int cap, int nv) {
  s.capacity = cap;
  s.type.resize(static_cast<std::size_t>(cap));
  s.id.resize(static_cast<std::size_t>(cap));
  s.channel.resize(static_cast<std::size_t>(cap));
  s.state.resize(static_cast<std::size_t>(cap));
  s.J.setZero(cap, nv);
  s.nnz.assign(static_cast<std::size_t>(cap), 0);
  s.nzIndex.assign(static_cast<std::size_t>(cap) * static_cast<std::size_t>(nv), 0);
  s.nzValue.assign(static_cast<std::size_t>(cap) * static_cast<std::size_t>(nv), 0.0);
  for (Eigen::VectorXd* v : {&s.pos, &s.margin, &s.frictionloss, &s.vel, &s.aref, &s.R, &s.D, &s.diagApprox, &s.imp,
                             &s.force, &s.jar, &s.Jdir, &s.r0})
    v->setZero(cap);
  s.MinvJt.setZero(nv, cap);
  s.AR.setZero(cap, cap);
  s.kinks.reserve(2 * static_cast<std::size_t>(cap));
}

Eigen::Quaterniond quaternion(const Eigen::Vector4d& v) { return Eigen::Quaterniond(v(0), v(1), v(2), v(3)); }

// a body's centre of mass in body coordinates (its origin when it has no mass)
Vec3 bodyCom(const Model& m, int b) {
  const Mat6& I = m.spatial.I[static_cast<std::size_t>(b)];
  const double mass = I(5, 5);
  if (!(mass > 0)) return Vec3::Zero();
  const Mat3 cx = I.block<3, 3>(0, 3) / mass;  // skew(c)
  return Vec3(cx(2, 1), cx(0, 2), cx(1, 0));
}

// MuJoCo's set0: the inverse weights at q0 and the mean of H's diagonal
void inverseWeights(const Model& m, SoftConstraintData& s) {
  Data d(m);
  const int nv = m.nv();
  crba(m, d, m.q0);
  s.meanInertia = nv ? d.H.diagonal().mean() : 1.0;
  factorizeMassMatrix(m, d);
  forwardKinematics(m, d, m.q0);
  Eigen::MatrixXd J(6, nv), X(nv, 6);
  Eigen::MatrixXd jp(3, nv), jr(3, nv);
  s.bodyInvWeight.assign(2 * static_cast<std::size_t>(m.nb), 0.0);
  for (int b = 0; b < m.nb; ++b) {
    Mat3 R;
    Vec3 r;
    detail::worldPose(d, b, R, r);
    detail::frameJacobian(m, d, b, R * bodyCom(m, b) + r, &jp, &jr);
    J.topRows(3) = jp;
    J.bottomRows(3) = jr;
    X = J.transpose();
    for (int k = 0; k < 6; ++k) {
      Eigen::VectorXd col = X.col(k);
      solveMassMatrix(m, d, col);
      X.col(k) = col;
    }
    const Mat6 A = J * X;
    s.bodyInvWeight[2 * static_cast<std::size_t>(b)] = A.topLeftCorner<3, 3>().trace() / 3;
    s.bodyInvWeight[2 * static_cast<std::size_t>(b) + 1] = A.bottomRightCorner<3, 3>().trace() / 3;
  }
  s.dofInvWeight.setZero(nv);
  for (int i = 0; i < m.nb; ++i) {
    const int first = m.vIndex[static_cast<std::size_t>(i)], n = m.jointNv(i);
    double sum = 0;
    for (int k = 0; k < n; ++k) {
      Eigen::VectorXd e = Eigen::VectorXd::Unit(nv, first + k);
      solveMassMatrix(m, d, e);
      sum += e(first + k);
    }
    s.dofInvWeight.segment(first, n).setConstant(sum / n);
  }
  s.tendonInvWeight.setZero(static_cast<Eigen::Index>(m.tendons.size()));
  if (!m.tendons.empty()) {
    tendonKinematics(m, d, m.q0, Eigen::VectorXd::Zero(nv));
    for (Eigen::Index t = 0; t < s.tendonInvWeight.size(); ++t) {
      Eigen::VectorXd x = d.tendonMoment.row(t).transpose();
      solveMassMatrix(m, d, x);
      s.tendonInvWeight(t) = d.tendonMoment.row(t).dot(x);
    }
  }
}

// MuJoCo's getimpedance: d(pos) from solimp
double impedance(const std::array<double, 5>& si, double pos, double margin) {
  const double dmin = std::clamp(si[0], 1e-4, 0.9999), dmax = std::clamp(si[1], 1e-4, 0.9999);
  const double width = std::max(0.0, si[2]), mid = std::clamp(si[3], 1e-4, 0.9999), power = std::max(1.0, si[4]);
  if (dmin == dmax || width <= kSoftMinValue) return 0.5 * (dmin + dmax);
  const double x = std::abs((pos - margin) / width);
  if (x >= 1 || x <= 0) return x >= 1 ? dmax : dmin;
  double y;
  if (power == 1) y = x;
  else if (x <= mid) y = std::pow(x, power) / std::pow(mid, power - 1);
  else y = 1 - std::pow(1 - x, power) / std::pow(1 - mid, power - 1);
  return dmin + y * (dmax - dmin);
}

struct RowBuilder {
  const Model& m;
  SoftConstraintData& s;
  // appends `n` rows whose Jacobian the caller writes into s.J.middleRows(first, n); they are
  // the element's channels from `channel` on (softChannelNames)
  int add(SoftRowType type, int id, int n, int channel) {
    const int first = s.nefc;
    for (int k = 0; k < n; ++k) {
      const int r = first + k;
      s.type[static_cast<std::size_t>(r)] = type;
      s.id[static_cast<std::size_t>(r)] = id;
      s.channel[static_cast<std::size_t>(r)] = channel + k;
      s.pos(r) = 0;
      s.margin(r) = 0;
      s.frictionloss(r) = 0;
    }
    s.nefc += n;
    return first;
  }
};

void equalityRows(const Model& m, Data& d, SoftConstraintData& s, const VecRef& q) {
  RowBuilder rb{m, s};
  const int nv = m.nv();
  int channel = 0;  // the element's first channel: every equality has its own, acting or not
  for (std::size_t k = 0; k < m.equalities.size(); ++k) {
    const EqualitySpec& e = m.equalities[k];
    const int id = static_cast<int>(k), ch = channel;
    channel += equalityRowCount(e);
    if (!s.equalityActive[k]) continue;
    using T = EqualitySpec::Type;
    if (e.type == T::Connect || e.type == T::Weld) {
      Mat3 R1, R2;
      Vec3 r1, r2;
      detail::worldPose(d, e.obj1, R1, r1);
      detail::worldPose(d, e.obj2, R2, r2);
      const Vec3 p1 = R1 * e.anchor1 + r1, p2 = R2 * e.anchor2 + r2;
      detail::frameJacobian(m, d, e.obj1, p1, &s.jp1, &s.jr1);
      detail::frameJacobian(m, d, e.obj2, p2, &s.jp2, &s.jr2);
      const int first = rb.add(SoftRowType::Equality, id, equalityRowCount(e), ch);
      s.J.middleRows(first, 3) = s.jp1 - s.jp2;
      s.pos.segment<3>(first) = p1 - p2;
      if (e.type == T::Weld) {
        // e = conj(Q2 q2) Q1 q1; de/dt = 1/2 conj(Q2 q2) (0, w1 - w2) Q1 q1 (w in world axes)
        const Eigen::Quaterniond A = (Eigen::Quaterniond(R2) * quaternion(e.quat2)).conjugate();
        const Eigen::Quaterniond B = Eigen::Quaterniond(R1) * quaternion(e.quat1);
        s.pos.segment<3>(first + 3) = (A * B).vec();
        Mat3 M;
        for (int c = 0; c < 3; ++c) {
          const Eigen::Quaterniond w(0, c == 0, c == 1, c == 2);
          M.col(c) = (A * w * B).vec();
        }
        s.J.middleRows(first + 3, 3) = (0.5 * e.torquescale) * M * (s.jr1 - s.jr2);
      }
    } else {
      double x1, x2 = 0;
      s.work.setZero(nv);
      if (e.type == T::Joint) {
        x1 = q(m.qIndex[static_cast<std::size_t>(e.obj1)]);
        s.work(m.vIndex[static_cast<std::size_t>(e.obj1)]) = 1;
        if (e.obj2 >= 0) x2 = q(m.qIndex[static_cast<std::size_t>(e.obj2)]);
      } else {
        x1 = d.tendonLength(e.obj1);
        s.work = d.tendonMoment.row(e.obj1).transpose();
        if (e.obj2 >= 0) x2 = d.tendonLength(e.obj2);
      }
      const int r = rb.add(SoftRowType::Equality, id, 1, ch);
      if (e.obj2 >= 0) {
        const double dif = x2 - e.ref2;
        const auto& c = e.poly;
        s.pos(r) = x1 - e.ref1 - (c[0] + dif * (c[1] + dif * (c[2] + dif * (c[3] + dif * c[4]))));
        const double deriv = c[1] + dif * (2 * c[2] + dif * (3 * c[3] + dif * 4 * c[4]));
        if (e.type == T::Joint) s.work(m.vIndex[static_cast<std::size_t>(e.obj2)]) -= deriv;
        else s.work -= deriv * d.tendonMoment.row(e.obj2).transpose();
      } else {
        s.pos(r) = x1 - e.ref1 - e.poly[0];
      }
      s.J.row(r) = s.work.transpose();
    }
  }
  s.ne = s.nefc;
}

void frictionRows(const Model& m, const Data& d, SoftConstraintData& s) {
  RowBuilder rb{m, s};
  int channel = equalityChannels(m);
  for (int i = 0; i < m.nb; ++i) {
    const double f = m.friction[static_cast<std::size_t>(i)];
    if (!(f > 0)) continue;
    for (int k = 0; k < m.jointNv(i); ++k) {
      const int v = m.vIndex[static_cast<std::size_t>(i)] + k;
      const int r = rb.add(SoftRowType::FrictionDof, v, 1, channel++);
      s.J.row(r).setZero();
      s.J(r, v) = 1;
      s.frictionloss(r) = f;
    }
  }
  for (std::size_t t = 0; t < m.tendons.size(); ++t) {
    if (!(m.tendons[t].frictionloss > 0)) continue;
    const int r = rb.add(SoftRowType::FrictionTendon, static_cast<int>(t), 1, channel++);
    s.J.row(r) = d.tendonMoment.row(static_cast<Eigen::Index>(t));
    s.frictionloss(r) = m.tendons[t].frictionloss;
  }
  s.nf = s.nefc - s.ne;
}

void limitRows(const Model& m, const Data& d, SoftConstraintData& s, const VecRef& q) {
  RowBuilder rb{m, s};
  int channel = equalityChannels(m) + frictionChannels(m);
  for (int i = 0; i < m.nb; ++i) {
    const JointLimits& l = m.limits[static_cast<std::size_t>(i)];
    if (!l.lower && !l.upper) continue;
    const double value = q(m.qIndex[static_cast<std::size_t>(i)]), margin = m.limitMargin[static_cast<std::size_t>(i)];
    for (int side = -1; side <= 1; side += 2) {
      const std::optional<double>& bound = side < 0 ? l.lower : l.upper;
      if (!bound) continue;
      const int ch = channel++;
      const double dist = side * (*bound - value);
      if (!(dist < margin)) continue;
      const int r = rb.add(SoftRowType::LimitJoint, i, 1, ch);
      s.J.row(r).setZero();
      s.J(r, m.vIndex[static_cast<std::size_t>(i)]) = -side;
      s.pos(r) = dist;
      s.margin(r) = margin;
    }
  }
  for (std::size_t t = 0; t < m.tendons.size(); ++t) {
    const auto& range = m.tendons[t].range;
    if (!range) continue;
    const double value = d.tendonLength(static_cast<Eigen::Index>(t)), margin = m.tendonMargin[t];
    for (int side = -1; side <= 1; side += 2) {
      const int ch = channel++;
      const double dist = side * ((*range)[side < 0 ? 0 : 1] - value);
      if (!(dist < margin)) continue;
      const int r = rb.add(SoftRowType::LimitTendon, static_cast<int>(t), 1, ch);
      s.J.row(r) = -side * d.tendonMoment.row(static_cast<Eigen::Index>(t));
      s.pos(r) = dist;
      s.margin(r) = margin;
    }
  }
}

const SoftParams& rowParams(const Model& m, const SoftConstraintData& s, int r) {
  const auto id = static_cast<std::size_t>(s.id[static_cast<std::size_t>(r)]);
  switch (s.type[static_cast<std::size_t>(r)]) {
    case SoftRowType::Equality: return m.equalitySoft[id];
    case SoftRowType::FrictionDof: return m.frictionSoft[static_cast<std::size_t>(m.dofBody[id])];
    case SoftRowType::FrictionTendon: return m.tendonFrictionSoft[id];
    case SoftRowType::LimitJoint: return m.limitSoft[id];
    case SoftRowType::ContactFrictionless:
    case SoftRowType::ContactPyramidal:
    case SoftRowType::ContactElliptic: return s.contacts[id].soft;
    case SoftRowType::LimitTendon: break;
  }
  return m.tendonLimitSoft[id];
}

// mj_diagApprox
double diagApprox(const Model& m, const SoftConstraintData& s, int r) {
  const auto id = static_cast<std::size_t>(s.id[static_cast<std::size_t>(r)]);
  const auto body = [&](int b, int rot) {
    return b < 0 ? 0.0 : s.bodyInvWeight[2 * static_cast<std::size_t>(b) + static_cast<std::size_t>(rot)];
  };
  switch (s.type[static_cast<std::size_t>(r)]) {
    case SoftRowType::Equality: {
      const EqualitySpec& e = m.equalities[id];
      switch (e.type) {
        case EqualitySpec::Type::Connect: return body(e.obj1, 0) + body(e.obj2, 0);
        // MuJoCo 2.2.2 means the rotation rows to take the bodies' rotational weights, but its
        // counter of weld rows is reset on every row (efc_type is compared with mjEQ_WELD), so
        // all six take the translational ones: as here, so that R is MuJoCo's
        case EqualitySpec::Type::Weld: return body(e.obj1, 0) + body(e.obj2, 0);
        case EqualitySpec::Type::Joint:
          return s.dofInvWeight(m.vIndex[static_cast<std::size_t>(e.obj1)]) +
                 (e.obj2 >= 0 ? s.dofInvWeight(m.vIndex[static_cast<std::size_t>(e.obj2)]) : 0.0);
        case EqualitySpec::Type::Tendon:
          return s.tendonInvWeight(e.obj1) + (e.obj2 >= 0 ? s.tendonInvWeight(e.obj2) : 0.0);
      }
      return 0.0;
    }
    case SoftRowType::FrictionDof: return s.dofInvWeight(static_cast<Eigen::Index>(id));
    case SoftRowType::LimitJoint: return s.dofInvWeight(m.vIndex[id]);
    case SoftRowType::ContactFrictionless:
    case SoftRowType::ContactPyramidal:
    case SoftRowType::ContactElliptic: return s.diagApprox(r);  // contactRows wrote it
    case SoftRowType::FrictionTendon:
    case SoftRowType::LimitTendon: break;
  }
  return s.tendonInvWeight(static_cast<Eigen::Index>(id));
}

// mj_makeImpedance and mj_referenceConstraint for rows [first, first + dim), which share one
// impedance (a connect's or weld's rows: of the norm of their residual)
void impedanceRows(const Model& m, SoftConstraintData& s, int first, int dim) {
  const SoftParams& p = rowParams(m, s, first);
  std::array<double, 2> solref = p.solref;
  if (m.physics.refsafe && solref[0] > 0) solref[0] = std::max(solref[0], 2 * s.timestep);
  const double dmax = std::clamp(p.solimp[1], 1e-4, 0.9999);
  double pos = s.pos(first);
  if (dim == 3) pos = s.pos.segment<3>(first).norm();
  if (dim == 6) {
    const double ts = m.equalities[static_cast<std::size_t>(s.id[static_cast<std::size_t>(first)])].torquescale;
    pos = std::sqrt(s.pos.segment<3>(first).squaredNorm() + ts * ts * s.pos.segment<3>(first + 3).squaredNorm());
  }
  const double imp = impedance(p.solimp, pos, s.margin(first));
  for (int r = first; r < first + dim; ++r) {
    const SoftRowType t = s.type[static_cast<std::size_t>(r)];
    const bool friction = t == SoftRowType::FrictionDof || t == SoftRowType::FrictionTendon;
    const double k = friction ? 0.0
                     : solref[0] > 0 ? 1 / std::max(kSoftMinValue, dmax * dmax * solref[0] * solref[0] * solref[1] * solref[1])
                                     : -solref[0] / std::max(kSoftMinValue, dmax * dmax);
    const double b = solref[1] > 0 ? 2 / std::max(kSoftMinValue, dmax * solref[0]) : -solref[1] / std::max(kSoftMinValue, dmax);
    s.diagApprox(r) = diagApprox(m, s, r);
    s.imp(r) = imp;
    s.R(r) = std::max(kSoftMinValue, (1 - imp) * s.diagApprox(r) / imp);
    s.D(r) = 1 / s.R(r);
    s.aref(r) = -b * s.vel(r) - k * imp * (s.pos(r) - s.margin(r));
  }
}

}  // namespace

void detail::contactImpedance(const Model& m, SoftConstraintData& s, int first) {
  const Contact& c = s.contacts[static_cast<std::size_t>(s.id[static_cast<std::size_t>(first)])];
  const int n = contactRowCount(c, detail::ellipticCones(m));
  std::array<double, 2> solref = c.soft.solref;
  if (m.physics.refsafe && solref[0] > 0) solref[0] = std::max(solref[0], 2 * s.timestep);
  const double dmax = std::clamp(c.soft.solimp[1], 1e-4, 0.9999);
  const double imp = impedance(c.soft.solimp, s.pos(first), s.margin(first));
  for (int r = first; r < first + n; ++r) s.R(r) = std::max(kSoftMinValue, (1 - imp) * s.diagApprox(r) / imp);
  const SoftRowType type = s.type[static_cast<std::size_t>(first)];
  if (type == SoftRowType::ContactPyramidal || type == SoftRowType::ContactElliptic) {
    // impratio scales the friction's regulariser, and so the cone's coefficient in the scaled
    // space (MuJoCo's con->mu)
    const double R0 = s.R(first), R1 = R0 / std::max(kSoftMinValue, m.physics.impratio);
    const double mu = c.friction[0] * std::sqrt(R1 / R0);
    s.contacts[static_cast<std::size_t>(s.id[static_cast<std::size_t>(first)])].mu = mu;
    if (type == SoftRowType::ContactElliptic) {
      // each further axis's R such that R_j mu_j^2 = R_1 mu_0^2 (a friction of 0 leaves its axis
      // with no force, as its cost's scale is 0)
      s.R(first + 1) = R1;
      for (int j = 1; j + 1 < n; ++j) {
        const double fj = c.friction[static_cast<std::size_t>(j)];
        s.R(first + j + 1) = std::max(kSoftMinValue, R1 * c.friction[0] * c.friction[0] / std::max(kSoftMinValue, fj * fj));
      }
    } else {
      // the pyramid's edges all take one R
      const double Rpy = 2 * mu * mu * R0;
      for (int r = first; r < first + n; ++r) s.R(r) = Rpy;
    }
  }
  const double k = solref[0] > 0 ? 1 / std::max(kSoftMinValue, dmax * dmax * solref[0] * solref[0] * solref[1] * solref[1])
                                 : -solref[0] / std::max(kSoftMinValue, dmax * dmax);
  const double b = solref[1] > 0 ? 2 / std::max(kSoftMinValue, dmax * solref[0]) : -solref[1] / std::max(kSoftMinValue, dmax);
  for (int r = first; r < first + n; ++r) {
    // an elliptic block's friction rows have no stiffness (their residual is 0 besides)
    const double kr = type == SoftRowType::ContactElliptic && r > first ? 0.0 : k;
    s.imp(r) = imp;
    s.D(r) = 1 / s.R(r);
    s.aref(r) = -b * s.vel(r) - kr * imp * (s.pos(r) - s.margin(r));
  }
}

const char* softRowKind(SoftRowType type) {
  switch (type) {
    case SoftRowType::Equality: return "equality";
    case SoftRowType::FrictionDof:
    case SoftRowType::FrictionTendon: return "friction";
    case SoftRowType::ContactFrictionless:
    case SoftRowType::ContactPyramidal:
    case SoftRowType::ContactElliptic: return "contact";
    case SoftRowType::LimitJoint:
    case SoftRowType::LimitTendon: break;
  }
  return "limit";
}

SoftConstraintData::SoftConstraintData(const Model& model) : llt(model.nv()) {
  if (model.arithmetic != Arithmetic::Spatial)
    throw std::invalid_argument("SoftConstraintData: the soft constraint model needs a spatial model");
  const int nv = model.nv();
  equalityActive.resize(model.equalities.size());
  for (std::size_t k = 0; k < model.equalities.size(); ++k) equalityActive[k] = model.equalities[k].active;
  channels = rowCapacity(model);
  // room for a contact of each geom at first: it grows when more come (reserveRows)
  reserveRows(*this, channels + (model.geoms.empty() ? 0 : 4 * static_cast<int>(model.geoms.size())), nv);
  for (Eigen::VectorXd* v : {&qacc0, &qacc, &qfrcConstraint, &grad, &dir, &Mdir, &Ma, &work, &prevGrad, &prevMgrad,
                             &mgrad, &warm})
    v->setZero(nv);
  Hs.setZero(nv, nv);
  dofMotion.setZero(6, nv);
  long treeEntries = nv;  // H's nonzeros below and on the diagonal
  for (int i = 0; i < nv; ++i)
    for (int j = model.dofParent[static_cast<std::size_t>(i)]; j >= 0; j = model.dofParent[static_cast<std::size_t>(j)]) ++treeEntries;
  sparseH = 8 * treeEntries < static_cast<long>(nv) * nv;
  hNnz.assign(static_cast<std::size_t>(nv), 0);
  const std::size_t pattern = sparseH ? static_cast<std::size_t>(nv) * static_cast<std::size_t>(nv) : 0;  // the dense LLT reads none
  hCols.assign(pattern, 0);
  hMark.assign(pattern, 0);
  hRows.assign(static_cast<std::size_t>(nv) * 10, 0.0);  // a contact's most rows: the pyramid's 10 of condim 6
  for (Eigen::MatrixXd* M : {&jp1, &jr1, &jp2, &jr2}) M->setZero(3, nv);
  inverseWeights(model, *this);
}

void softConstraintRows(const Model& m, Data& d, SoftConstraintData& s, const VecRef& q, const VecRef& qd) {
  detail::checkSize("softConstraintRows", "q", q.size(), m.nq());
  detail::checkSize("softConstraintRows", "qd", qd.size(), m.nv());
  forwardKinematics(m, d, q);
  detail::softRowsAtKinematics(m, d, s, q, qd);
}

void detail::softRowsAtKinematics(const Model& m, Data& d, SoftConstraintData& s, const VecRef& q, const VecRef& qd) {
  s.nefc = s.ne = s.nf = s.ncon = 0;
  const PhysicsSpec& ph = m.physics;
  collide(m, d, s.contacts);
  int contactRows = 0;
  for (const Contact& c : s.contacts) contactRows += c.exclude ? 0 : contactRowCount(c, detail::ellipticCones(m));
  if (s.channels + contactRows > s.capacity) reserveRows(s, 2 * (s.channels + contactRows), m.nv());
  if (!m.tendons.empty()) tendonKinematics(m, d, q, qd);
  if (ph.equality) equalityRows(m, d, s, q);
  if (ph.frictionloss) frictionRows(m, d, s);
  else s.nf = 0;
  if (ph.limit) limitRows(m, d, s, q);
  softRowSparsity(s, 0, s.nefc);
  softContactRows(m, d, s);
  const int n = s.nefc;
  softRowsTimes(s, 0, n, qd, s.vel);
  // MuJoCo's rows act on the acceleration in its coordinates, which for a free joint are the
  // origin's world-frame velocity [R v; w]: its acceleration R (dv + w x v) holds the velocity
  // product w x v that body coordinates [w; v] leave out. The rows take it as a known part of
  // J qacc, so that the soft problem is MuJoCo's (aref - J a_c, a_c = [0; w x v] per free joint)
  bool freeMoving = false;
  s.work.setZero(m.nv());
  for (int i = 0; i < m.nb; ++i) {
    if (m.joints[static_cast<std::size_t>(i)].type != JointType::Free) continue;
    const int v0 = m.vIndex[static_cast<std::size_t>(i)];
    const Vec3 w = qd.segment<3>(v0), v = qd.segment<3>(v0 + 3);
    s.work.segment<3>(v0 + 3) = w.cross(v);
    freeMoving = true;
  }
  for (int r = 0; r < n;) {
    const SoftRowType t = s.type[static_cast<std::size_t>(r)];
    if (t == SoftRowType::ContactFrictionless || t == SoftRowType::ContactPyramidal || t == SoftRowType::ContactElliptic) {
      const Contact& c = s.contacts[static_cast<std::size_t>(s.id[static_cast<std::size_t>(r)])];
      contactImpedance(m, s, r);
      r += contactRowCount(c, detail::ellipticCones(m));
      continue;
    }
    int dim = 1;
    if (t == SoftRowType::Equality) {
      dim = equalityRowCount(m.equalities[static_cast<std::size_t>(s.id[static_cast<std::size_t>(r)])]);
    }
    impedanceRows(m, s, r, dim);
    r += dim;
  }
  if (freeMoving) {
    softRowsTimes(s, 0, n, s.work, s.jar);
    s.aref.head(n) -= s.jar.head(n);
  }
}

void detail::softRowsTimes(const SoftConstraintData& s, int first, int end, const VecRef& x, Eigen::VectorXd& y) {
  const Eigen::Index nv = s.J.cols();
  for (int r = first; r < end; ++r) {
    const int n = s.nnz[static_cast<std::size_t>(r)];
    if (2 * n > nv) {  // mostly full: the whole row, vectorised
      y(r) = s.J.row(r).dot(x);
      continue;
    }
    const double* value = s.nzValue.data() + r * nv;
    const int* nz = s.nzIndex.data() + r * nv;
    double sum = 0;
    for (int t = 0; t < n; ++t) sum += value[t] * x(nz[t]);
    y(r) = sum;
  }
}

void detail::softRowsTransposeTimes(const SoftConstraintData& s, const Eigen::VectorXd& f, Eigen::VectorXd& y) {
  const Eigen::Index nv = s.J.cols();
  y.setZero(nv);
  for (int r = 0; r < s.nefc; ++r) {
    const double fr = f(r);
    if (fr == 0) continue;
    const int n = s.nnz[static_cast<std::size_t>(r)];
    if (2 * n > nv) {
      y += fr * s.J.row(r).transpose();
      continue;
    }
    const double* value = s.nzValue.data() + r * nv;
    const int* nz = s.nzIndex.data() + r * nv;
    for (int t = 0; t < n; ++t) y(nz[t]) += fr * value[t];
  }
}

void detail::softRowSparsity(SoftConstraintData& s, int first, int end) {
  const Eigen::Index nv = s.J.cols();
  for (int r = first; r < end; ++r) {
    const double* row = s.J.data() + r * nv;
    int* nz = s.nzIndex.data() + r * nv;
    double* value = s.nzValue.data() + r * nv;
    int n = 0;
    for (Eigen::Index c = 0; c < nv; ++c)
      if (row[c] != 0) {
        value[n] = row[c];
        nz[n++] = static_cast<int>(c);
      }
    s.nnz[static_cast<std::size_t>(r)] = n;
  }
}

std::string softRowName(const Model& m, const SoftConstraintData& s, int row) {
  const auto id = static_cast<std::size_t>(s.id[static_cast<std::size_t>(row)]);
  switch (s.type[static_cast<std::size_t>(row)]) {
    case SoftRowType::Equality:
      return m.equalities[id].name.empty() ? "equality " + std::to_string(id) : m.equalities[id].name;
    case SoftRowType::FrictionDof: return m.names[static_cast<std::size_t>(m.dofBody[id])];
    case SoftRowType::LimitJoint: return m.names[id];
    case SoftRowType::ContactFrictionless:
    case SoftRowType::ContactPyramidal:
    case SoftRowType::ContactElliptic:
      return geomName(m, s.contacts[id].geom1) + "/" + geomName(m, s.contacts[id].geom2);
    case SoftRowType::FrictionTendon:
    case SoftRowType::LimitTendon: break;
  }
  return m.tendons[id].name.empty() ? "tendon " + std::to_string(id) : m.tendons[id].name;
}

std::vector<std::string> softChannelNames(const Model& m) {
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(rowCapacity(m)));
  auto element = [](const std::string& name, const char* fallback, std::size_t k) {
    return name.empty() ? fallback + std::to_string(k) : name;
  };
  static const char* const kAxes[] = {".x", ".y", ".z", ".rx", ".ry", ".rz"};
  for (std::size_t k = 0; k < m.equalities.size(); ++k) {
    const EqualitySpec& e = m.equalities[k];
    const std::string name = "equality " + element(e.name, "", k);
    const int n = equalityRowCount(e);
    for (int c = 0; c < n; ++c) out.push_back(n > 1 ? name + kAxes[c] : name);
  }
  for (int i = 0; i < m.nb; ++i)
    if (m.friction[static_cast<std::size_t>(i)] > 0)
      for (int k = 0; k < m.jointNv(i); ++k)
        out.push_back("friction " + m.names[static_cast<std::size_t>(i)] +
                      (m.jointNv(i) > 1 ? "[" + std::to_string(k) + "]" : std::string()));
  for (std::size_t t = 0; t < m.tendons.size(); ++t)
    if (m.tendons[t].frictionloss > 0) out.push_back("friction " + element(m.tendons[t].name, "tendon ", t));
  for (int i = 0; i < m.nb; ++i) {
    const JointLimits& l = m.limits[static_cast<std::size_t>(i)];
    if (l.lower) out.push_back("limit " + m.names[static_cast<std::size_t>(i)] + ".lower");
    if (l.upper) out.push_back("limit " + m.names[static_cast<std::size_t>(i)] + ".upper");
  }
  for (std::size_t t = 0; t < m.tendons.size(); ++t)
    if (m.tendons[t].range) {
      const std::string name = "limit " + element(m.tendons[t].name, "tendon ", t);
      out.push_back(name + ".lower");
      out.push_back(name + ".upper");
    }
  return out;
}

void softChannelForces(const SoftConstraintData& s, Eigen::Ref<Eigen::VectorXd> out) {
  detail::checkSize("softChannelForces", "out", out.size(), s.channels);
  out.setZero();
  for (int r = 0; r < s.nefc; ++r)
    if (s.channel[static_cast<std::size_t>(r)] >= 0) out(s.channel[static_cast<std::size_t>(r)]) = s.force(r);
}

}  // namespace art
