// The batched articulated-body algorithm and energies (batch.h): the passes of aba.cpp and
// energy.cpp written once over Lanes, with the per-body constants as broadcast doubles.
// Symmetric 6x6 matrices (the articulated inertias) keep their upper triangle only (21 entries,
// row-major). Transforms are spatial_v2's X = rot(E) xlt(r), as SpatialTransform.
#include "articulate/dynamics/batch.h"

#include <stdexcept>

#include "detail.h"

namespace art {

namespace {

// index of entry (i, j) of a symmetric 6x6 matrix in its packed upper triangle
constexpr int kSym[6][6] = {{0, 1, 2, 3, 4, 5},      {1, 6, 7, 8, 9, 10},
                            {2, 7, 11, 12, 13, 14},  {3, 8, 12, 15, 16, 17},
                            {4, 9, 13, 16, 18, 19},  {5, 10, 14, 17, 19, 20}};

inline Lanes broadcast(double x) { return Lanes{} + x; }

// a = b x c for 3-vectors
template <class T, class U>
inline void cross(const T* b, const U* c, Lanes* a) {
  a[0] = b[1] * c[2] - b[2] * c[1];
  a[1] = b[2] * c[0] - b[0] * c[2];
  a[2] = b[0] * c[1] - b[1] * c[0];
}

}  // namespace

// the constants of one body, from the model
struct BatchTree::Body {
  int parent = -1;
  int kind = 0;         // 0, 1, 2: revolute about x, y, z; 3, 4, 5: prismatic along x, y, z; 6: helical
  double pitch = 0.0;   // helical: m/rad
  double Et[3][3];      // tree transform: rotation
  double rt[3];         // and translation (m)
  double S[6];          // motion subspace
  int nonzeroS[6], nS = 0;  // its nonzero entries
  double I[21];         // spatial inertia, packed upper triangle
  double mass = 0.0, subtreeMass = 0.0;  // kg (kineticPotential)
};

// the per-state quantities of one body
struct BatchTree::Work {
  Lanes E[3][3], r[3];  // Xup = XJ(q) Xtree
  Lanes v[6], c[6], a[6];
  Lanes IA[21], pA[6];
  Lanes U[6], dinv, u;
};

std::string batchUnsupported(const Model& m) {
#ifndef __AVX2__
  // Lanes would be pairs of SSE2 registers without FMA: measured slower than one state at a
  // time (bench_sweep.cpp), so such builds step states alone
  (void)m;
  return "this build does not target AVX2 (ARTICULATE_HOST_ARCH off, or a CPU without it)";
#else
  if (m.hasQuaternions) return "free and ball joints take the one-state algorithms";
  if (!m.forces.empty()) return "external forces take the one-state algorithms";
  if (!m.contacts.empty()) return "ground contact takes the one-state algorithms";
  if (!m.constraints.empty()) return "loops and gears take the one-state algorithms";
  if (m.hasArmature) return "joint armature takes the one-state algorithms";
  if (m.hasActuation()) return "actuators, tendons and joint springs take the one-state algorithms";
  if (m.soft) {
    bool rows = !m.equalities.empty();
    for (int i = 0; i < m.nb; ++i)
      rows = rows || m.limits[static_cast<std::size_t>(i)].lower || m.limits[static_cast<std::size_t>(i)].upper ||
             m.friction[static_cast<std::size_t>(i)] > 0;
    if (rows) return "soft constraints (limits, friction, equalities) take the one-state algorithms";
  }
  return "";
#endif
}

BatchTree::BatchTree(const Model& model) : m_model(model) {
  const std::string why = batchUnsupported(model);
  if (!why.empty()) throw std::invalid_argument("BatchTree: " + why);
  m_bodies.resize(static_cast<std::size_t>(model.nb));
  m_work.resize(static_cast<std::size_t>(model.nb));
  const bool planar = model.arithmetic == Arithmetic::Planar;
  for (int i = 0; i < model.nb; ++i) {
    Body& b = m_bodies[static_cast<std::size_t>(i)];
    b.parent = model.parent[i];
    const Joint& j = model.joints[i];
    switch (j.type) {
      case JointType::Rx: b.kind = 0; break;
      case JointType::Ry: b.kind = 1; break;
      case JointType::Rz: case JointType::PlanarR: b.kind = 2; break;
      case JointType::Px: case JointType::PlanarPx: b.kind = 3; break;
      case JointType::Py: case JointType::PlanarPy: b.kind = 4; break;
      case JointType::Pz: b.kind = 5; break;
      case JointType::H: b.kind = 6; b.pitch = j.pitch; break;
      default: throw std::invalid_argument("BatchTree: joint " + model.names[i] + " has more than one degree of freedom");
    }
    Mat6 I6;
    Vec6 S6;
    SpatialTransform X;
    if (planar) {
      // the spatial equivalent of a planar body (spatial_v2: plnr(theta, r) = rotz(theta) xlt([r; 0])):
      // planar (w, vx, vy) are spatial (wz, vx, vy); the out-of-plane block (wx, wy, vz) never
      // meets the in-plane one, and of it only the first moment and mass are read (the
      // potential energy): m c x with c = (cx, cy, 0), and unit rotational inertias
      const PlanarTransform& P = model.planar.Xtree[i];
      X.E << P.c, P.s, 0, -P.s, P.c, 0, 0, 0, 1;
      X.r = Vec3(P.r.x(), P.r.y(), 0);
      const Vec3& s3 = model.planar.S[i];
      S6 << 0, 0, s3(0), s3(1), s3(2), 0;
      const Mat3& I3 = model.planar.I[i];
      const double m = I3(1, 1), mcx = I3(0, 2), mcy = -I3(0, 1);
      I6.setZero();
      const int in[3] = {2, 3, 4};
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) I6(in[r], in[c]) = I3(r, c);
      I6(0, 0) = I6(1, 1) = 1.0;
      I6(5, 5) = m;
      I6(0, 5) = I6(5, 0) = mcy;
      I6(1, 5) = I6(5, 1) = -mcx;
    } else {
      X = model.spatial.Xtree[i];
      S6 = model.spatial.S[i];
      I6 = model.spatial.I[i];
    }
    for (int r = 0; r < 3; ++r) {
      b.rt[r] = X.r(r);
      for (int c = 0; c < 3; ++c) b.Et[r][c] = X.E(r, c);
    }
    for (int k = 0; k < 6; ++k) {
      b.S[k] = S6(k);
      if (b.S[k] != 0.0) b.nonzeroS[b.nS++] = k;
    }
    for (int r = 0; r < 6; ++r)
      for (int c = r; c < 6; ++c) b.I[kSym[r][c]] = I6(r, c);
    b.mass = I6(5, 5);
  }
  m_gravity = model.gravity;
  if (planar) m_gravity.z() = 0.0;
  for (int i = model.nb - 1; i >= 0; --i) {
    Body& b = m_bodies[static_cast<std::size_t>(i)];
    b.subtreeMass += b.mass;
    if (b.parent >= 0) m_bodies[static_cast<std::size_t>(b.parent)].subtreeMass += b.subtreeMass;
  }
}

BatchTree::~BatchTree() = default;

// Xup of every body at q (as Joint::transformTimes: the joint's rotation mixes rows of Xtree's
// E, its translation moves r along a row of E)
void BatchTree::transforms(const Lanes* q) {
  const int nb = m_model.nb;
  for (int i = 0; i < nb; ++i) {
    const Body& b = m_bodies[static_cast<std::size_t>(i)];
    Work& w = m_work[static_cast<std::size_t>(i)];
    const Lanes qi = q[m_model.vIndex[i]];
    for (int r = 0; r < 3; ++r) {
      w.r[r] = broadcast(b.rt[r]);
      for (int c = 0; c < 3; ++c) w.E[r][c] = broadcast(b.Et[r][c]);
    }
    int axis = b.kind;
    if (b.kind >= 3) {
      const int k = b.kind == 6 ? 2 : b.kind - 3;
      const Lanes d = b.kind == 6 ? qi * b.pitch : qi;
      for (int c = 0; c < 3; ++c) w.r[c] += d * b.Et[k][c];
      axis = b.kind == 6 ? 2 : -1;
    }
    if (axis < 0) continue;
    alignas(32) double x[kLanes], s[kLanes], co[kLanes];
    for (int l = 0; l < kLanes; ++l) x[l] = qi[l];
    detail::sinCosLanes(x, s, co);
    Lanes sl, cl;
    for (int l = 0; l < kLanes; ++l) {
      sl[l] = s[l];
      cl[l] = co[l];
    }
    const int a = (axis + 1) % 3, bb = (axis + 2) % 3;
    for (int c = 0; c < 3; ++c) {
      w.E[a][c] = cl * b.Et[a][c] + sl * b.Et[bb][c];
      w.E[bb][c] = cl * b.Et[bb][c] - sl * b.Et[a][c];
    }
  }
}

namespace {

// out = X m for a motion vector (SpatialTransform::apply)
template <class W, class V>
inline void applyMotion(const W& w, const V* m, Lanes* out) {
  Lanes t[3], d[3];
  cross(w.r, m, t);
  for (int k = 0; k < 3; ++k) d[k] = m[3 + k] - t[k];
  for (int r = 0; r < 3; ++r) {
    out[r] = w.E[r][0] * m[0] + w.E[r][1] * m[1] + w.E[r][2] * m[2];
    out[3 + r] = w.E[r][0] * d[0] + w.E[r][1] * d[1] + w.E[r][2] * d[2];
  }
}

// out += X' f for a force vector (SpatialTransform::applyTransposeForce)
template <class W>
inline void addTransposeForce(const W& w, const Lanes* f, Lanes* out) {
  Lanes lin[3], ang[3], t[3];
  for (int c = 0; c < 3; ++c) {
    lin[c] = w.E[0][c] * f[3] + w.E[1][c] * f[4] + w.E[2][c] * f[5];
    ang[c] = w.E[0][c] * f[0] + w.E[1][c] * f[1] + w.E[2][c] * f[2];
  }
  cross(w.r, lin, t);
  for (int c = 0; c < 3; ++c) {
    out[c] += ang[c] + t[c];
    out[3 + c] += lin[c];
  }
}

// out += X' Ia X for Ia symmetric (packed), as SpatialTransform::addTransposeTransformInertia:
// rotate the blocks [A B; B' M] back (E'AE, E'BE, E'ME), then shift by r
template <class W>
inline void addTransposeInertia(const W& w, const Lanes* Ia, Lanes* out) {
  auto at = [&](int r, int c) { return Ia[kSym[r][c]]; };
  Lanes A1[3][3], B1[3][3], M1[3][3], T[3][3];
  auto rotate = [&](int r0, int c0, Lanes (&R)[3][3], bool symmetric) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        T[i][j] = at(r0 + i, c0) * w.E[0][j] + at(r0 + i, c0 + 1) * w.E[1][j] + at(r0 + i, c0 + 2) * w.E[2][j];
    for (int i = 0; i < 3; ++i)
      for (int j = symmetric ? i : 0; j < 3; ++j)
        R[i][j] = w.E[0][i] * T[0][j] + w.E[1][i] * T[1][j] + w.E[2][i] * T[2][j];
    if (symmetric) {
      R[1][0] = R[0][1];
      R[2][0] = R[0][2];
      R[2][1] = R[1][2];
    }
  };
  rotate(0, 0, A1, true);
  rotate(0, 3, B1, false);
  rotate(3, 3, M1, true);
  const Lanes rx = w.r[0], ry = w.r[1], rz = w.r[2];
  Lanes C[3][3], D[3][3];
  for (int j = 0; j < 3; ++j) {
    C[0][j] = ry * M1[2][j] - rz * M1[1][j];
    C[1][j] = rz * M1[0][j] - rx * M1[2][j];
    C[2][j] = rx * M1[1][j] - ry * M1[0][j];
    D[j][0] = B1[j][1] * rz - B1[j][2] * ry;
    D[j][1] = B1[j][2] * rx - B1[j][0] * rz;
    D[j][2] = B1[j][0] * ry - B1[j][1] * rx;
  }
  for (int i = 0; i < 3; ++i) {
    const Lanes Crx[3] = {C[i][1] * rz - C[i][2] * ry, C[i][2] * rx - C[i][0] * rz,
                          C[i][0] * ry - C[i][1] * rx};
    for (int j = i; j < 3; ++j) {
      out[kSym[i][j]] += A1[i][j] - D[i][j] - D[j][i] - Crx[j];
      out[kSym[3 + i][3 + j]] += M1[i][j];
    }
    for (int j = 0; j < 3; ++j) out[kSym[i][3 + j]] += B1[i][j] + C[i][j];
  }
}

// out = I v for I symmetric (packed doubles)
inline void inertiaTimes(const double* I, const Lanes* v, Lanes* out) {
  for (int r = 0; r < 6; ++r) {
    Lanes s = I[kSym[r][0]] * v[0];
    for (int c = 1; c < 6; ++c) s += I[kSym[r][c]] * v[c];
    out[r] = s;
  }
}

}  // namespace

void BatchTree::forwardDynamics(const Lanes* q, const Lanes* qd, const Lanes* tau, Lanes* qdd) {
  const int nb = m_model.nb;
  transforms(q);
  // outward pass: velocities, velocity-product accelerations, bias forces
  for (int i = 0; i < nb; ++i) {
    const Body& b = m_bodies[static_cast<std::size_t>(i)];
    Work& w = m_work[static_cast<std::size_t>(i)];
    const Lanes qdi = qd[m_model.vIndex[i]];
    Lanes vJ[6] = {};
    for (int k = 0; k < b.nS; ++k) vJ[b.nonzeroS[k]] = b.S[b.nonzeroS[k]] * qdi;
    if (b.parent < 0) {
      for (int k = 0; k < 6; ++k) {
        w.v[k] = vJ[k];
        w.c[k] = Lanes{};
      }
    } else {
      applyMotion(w, m_work[static_cast<std::size_t>(b.parent)].v, w.v);
      for (int k = 0; k < 6; ++k) w.v[k] += vJ[k];
      // c = v x vJ (crossMotion)
      Lanes t[3];
      cross(w.v, vJ, w.c);
      cross(w.v, vJ + 3, w.c + 3);
      cross(w.v + 3, vJ, t);
      for (int k = 0; k < 3; ++k) w.c[3 + k] += t[k];
    }
    for (int k = 0; k < 21; ++k) w.IA[k] = broadcast(b.I[k]);
    // pA = v x* (I v) (crossForce)
    Lanes h[6], t[3];
    inertiaTimes(b.I, w.v, h);
    cross(w.v, h, w.pA);
    cross(w.v + 3, h + 3, t);
    for (int k = 0; k < 3; ++k) w.pA[k] += t[k];
    cross(w.v, h + 3, w.pA + 3);
  }
  // inward pass: articulated-body inertias and bias forces
  for (int i = nb - 1; i >= 0; --i) {
    const Body& b = m_bodies[static_cast<std::size_t>(i)];
    Work& w = m_work[static_cast<std::size_t>(i)];
    const int vi = m_model.vIndex[i];
    Lanes d{}, sp{};
    for (int r = 0; r < 6; ++r) {
      Lanes s{};
      for (int k = 0; k < b.nS; ++k) s += b.S[b.nonzeroS[k]] * w.IA[kSym[r][b.nonzeroS[k]]];
      w.U[r] = s;
    }
    for (int k = 0; k < b.nS; ++k) {
      d += b.S[b.nonzeroS[k]] * w.U[b.nonzeroS[k]];
      sp += b.S[b.nonzeroS[k]] * w.pA[b.nonzeroS[k]];
    }
    w.dinv = 1.0 / d;
    w.u = (tau ? tau[vi] : Lanes{}) - sp;
    if (b.parent < 0) continue;
    Work& wp = m_work[static_cast<std::size_t>(b.parent)];
    // Ia = IA - U U'/d and pa = pA + Ia c + U u/d, in place of IA and pA
    Lanes Ud[6];
    for (int r = 0; r < 6; ++r) Ud[r] = w.U[r] * w.dinv;
    for (int r = 0; r < 6; ++r)
      for (int c = r; c < 6; ++c) w.IA[kSym[r][c]] -= Ud[r] * w.U[c];
    for (int r = 0; r < 6; ++r) {
      Lanes s = w.pA[r] + Ud[r] * w.u;
      for (int c = 0; c < 6; ++c) s += w.IA[kSym[r][c]] * w.c[c];
      w.pA[r] = s;
    }
    addTransposeInertia(w, w.IA, wp.IA);
    addTransposeForce(w, w.pA, wp.pA);
  }
  // outward pass: accelerations
  Lanes aGrav[6];
  for (int k = 0; k < 6; ++k) aGrav[k] = broadcast(k < 3 ? 0.0 : -m_gravity(k - 3));
  for (int i = 0; i < nb; ++i) {
    const Body& b = m_bodies[static_cast<std::size_t>(i)];
    Work& w = m_work[static_cast<std::size_t>(i)];
    applyMotion(w, b.parent < 0 ? aGrav : m_work[static_cast<std::size_t>(b.parent)].a, w.a);
    Lanes Ua{};
    for (int k = 0; k < 6; ++k) {
      w.a[k] += w.c[k];
      Ua += w.U[k] * w.a[k];
    }
    const Lanes x = (w.u - Ua) * w.dinv;
    qdd[m_model.vIndex[i]] = x;
    for (int k = 0; k < b.nS; ++k) w.a[b.nonzeroS[k]] += b.S[b.nonzeroS[k]] * x;
  }
}

void BatchTree::kineticPotential(const Lanes* q, const Lanes* qd, Lanes& kinetic, Lanes& potential) {
  const int nb = m_model.nb;
  transforms(q);
  Lanes ke{};
  for (int i = 0; i < nb; ++i) {
    const Body& b = m_bodies[static_cast<std::size_t>(i)];
    Work& w = m_work[static_cast<std::size_t>(i)];
    const Lanes qdi = qd[m_model.vIndex[i]];
    if (b.parent < 0) {
      for (int k = 0; k < 6; ++k) w.v[k] = Lanes{};
    } else {
      applyMotion(w, m_work[static_cast<std::size_t>(b.parent)].v, w.v);
    }
    for (int k = 0; k < b.nS; ++k) w.v[b.nonzeroS[k]] += b.S[b.nonzeroS[k]] * qdi;
    Lanes h[6];
    inertiaTimes(b.I, w.v, h);
    Lanes e{};
    for (int k = 0; k < 6; ++k) e += w.v[k] * h[k];
    ke += 0.5 * e;
    // the body's first moment m c (spatial inertia's top-right block: I(2,4), I(0,5), I(1,3))
    w.pA[0] = broadcast(b.I[kSym[2][4]]);
    w.pA[1] = broadcast(b.I[kSym[0][5]]);
    w.pA[2] = broadcast(b.I[kSym[1][3]]);
  }
  // inward: each subtree's first moment into its parent's coordinates (E' h + M r)
  Lanes mc[3] = {};
  for (int i = nb - 1; i >= 0; --i) {
    const Body& b = m_bodies[static_cast<std::size_t>(i)];
    const Work& w = m_work[static_cast<std::size_t>(i)];
    Lanes* dst = b.parent < 0 ? mc : m_work[static_cast<std::size_t>(b.parent)].pA;
    for (int c = 0; c < 3; ++c)
      dst[c] += w.E[0][c] * w.pA[0] + w.E[1][c] * w.pA[1] + w.E[2][c] * w.pA[2] + b.subtreeMass * w.r[c];
  }
  kinetic = ke;
  const Vec3& g = m_gravity;
  potential = -(mc[0] * g.x() + mc[1] * g.y() + mc[2] * g.z());
}

}  // namespace art
