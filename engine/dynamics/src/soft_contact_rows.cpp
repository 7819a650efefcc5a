// The soft rows of contacts (soft_constraints.h; MuJoCo 2.2.2's mj_instantiateContact and the
// contact cases of mj_diagApprox, docs/design/mujoco-collision-2.2.2.md section 4), in
// pyramidal or elliptic cones, and their forces in the contact frame (mj_contactForce,
// mju_decodePyramid).
#include <algorithm>
#include <stdexcept>

#include "articulate/dynamics/soft_constraints.h"
#include "detail.h"

namespace art {

void detail::softContactRows(const Model& m, const Data& d, SoftConstraintData& s) {
  const auto weight = [&](int body, int rot) {
    return body < 0 ? 0.0 : s.bodyInvWeight[2 * static_cast<std::size_t>(body) + static_cast<std::size_t>(rot)];
  };
  if (s.contacts.empty()) return;
  dofMotions(m, d, s.dofMotion);
  for (std::size_t k = 0; k < s.contacts.size(); ++k) {
    Contact& c = s.contacts[k];
    c.row = -1;
    if (c.exclude) continue;
    const int b1 = m.geoms[static_cast<std::size_t>(c.geom1)].body, b2 = m.geoms[static_cast<std::size_t>(c.geom2)].body;
    const bool elliptic = detail::ellipticCones(m);
    const int first = s.nefc, n = contactRowCount(c, elliptic);
    const auto nv = static_cast<std::size_t>(s.J.cols());
    // the relative motion at the contact point, geom2's body's less geom1's, in the columns
    // that move one body and not the other (all of the contact's rows share them)
    // the rows' last entries back to zero (a row is zero outside its listed columns), not the
    // whole rows: a pile's rows are mostly zeros
    for (int r = first; r < first + n; ++r) {
      double* row = s.J.data() + static_cast<std::size_t>(r) * nv;
      const int* old = s.nzIndex.data() + static_cast<std::size_t>(r) * nv;
      for (int t = 0; t < s.nnz[static_cast<std::size_t>(r)]; ++t) row[old[t]] = 0;
    }
    int* cols = s.nzIndex.data() + static_cast<std::size_t>(first) * nv;
    const int nz = relativeJacobian(m, s.dofMotion, b1, b2, c.pos, cols, s.jp2, s.jr2);
    for (int r = first; r < first + n; ++r) {
      s.nnz[static_cast<std::size_t>(r)] = nz;
      if (r > first) std::copy(cols, cols + nz, s.nzIndex.data() + static_cast<std::size_t>(r) * nv);
    }
    const double tran = weight(b1, 0) + weight(b2, 0), rot = weight(b1, 1) + weight(b2, 1);
    // row r's entries: the frame's axis `axis` (0 the normal, 1 and 2 the tangents, 3..5 the
    // rotations about the normal and the tangents) plus `mu` times axis `other`
    const auto setRow = [&](int r, int axis, double mu = 0.0, int other = 0) {
      double* row = s.J.data() + static_cast<std::size_t>(r) * nv;
      double* value = s.nzValue.data() + static_cast<std::size_t>(r) * nv;
      for (int t = 0; t < nz; ++t) {
        const auto along = [&](int a) {
          return a < 3 ? c.frame.row(a).dot(s.jp2.col(t)) : c.frame.row(a - 3).dot(s.jr2.col(t));
        };
        value[t] = along(axis) + (mu != 0.0 ? mu * along(other) : 0.0);
        row[cols[t]] = value[t];
      }
    };
    if (c.dim == 1) {
      setRow(first, 0);
      s.diagApprox(first) = tran;
    } else if (elliptic) {
      // the normal, then each axis's own row; the block's residual sits on the normal's row
      setRow(first, 0);
      s.diagApprox(first) = tran;
      for (int axis = 1; axis < c.dim; ++axis) {
        setRow(first + axis, axis);
        s.diagApprox(first + axis) = axis < 3 ? tran : rot;
      }
    } else {
      for (int j = 0; j + 1 < c.dim; ++j) {
        const double mu = c.friction[static_cast<std::size_t>(j)];
        setRow(first + 2 * j, 0, mu, j + 1);
        setRow(first + 2 * j + 1, 0, -mu, j + 1);
        const double diag = tran + mu * mu * (j < 2 ? tran : rot);
        s.diagApprox(first + 2 * j) = diag;
        s.diagApprox(first + 2 * j + 1) = diag;
      }
    }
    const SoftRowType type = c.dim == 1 ? SoftRowType::ContactFrictionless
                             : elliptic ? SoftRowType::ContactElliptic
                                        : SoftRowType::ContactPyramidal;
    for (int r = first; r < first + n; ++r) {
      const bool residual = !elliptic || r == first;
      s.type[static_cast<std::size_t>(r)] = type;
      s.id[static_cast<std::size_t>(r)] = static_cast<int>(k);
      s.channel[static_cast<std::size_t>(r)] = -1;
      s.pos(r) = residual ? c.dist : 0.0;
      s.margin(r) = residual ? c.includeMargin : 0.0;
      s.frictionloss(r) = 0;
    }
    c.row = first;
    s.nefc += n;
    s.ncon += n;
  }
}

Vec6 contactForce(const SoftConstraintData& s, int k) {
  const Contact& c = s.contacts.at(static_cast<std::size_t>(k));
  Vec6 f = Vec6::Zero();
  if (c.row < 0) return f;
  if (c.dim == 1 || s.type[static_cast<std::size_t>(c.row)] == SoftRowType::ContactElliptic) {
    f.head(c.dim) = s.force.segment(c.row, c.dim);
    return f;
  }
  for (int r = 0; r < 2 * (c.dim - 1); ++r) f(0) += s.force(c.row + r);
  for (int j = 0; j + 1 < c.dim; ++j)
    f(j + 1) = (s.force(c.row + 2 * j) - s.force(c.row + 2 * j + 1)) * c.friction[static_cast<std::size_t>(j)];
  return f;
}

}  // namespace art
