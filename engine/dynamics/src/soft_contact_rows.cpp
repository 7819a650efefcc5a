// The soft rows of contacts (soft_constraints.h; MuJoCo 2.2.2's mj_instantiateContact and the
// contact cases of mj_diagApprox, docs/design/mujoco-collision-2.2.2.md section 4), in
// pyramidal or elliptic cones, and their forces in the contact frame (mj_contactForce,
// mju_decodePyramid).
#include <stdexcept>

#include "articulate/dynamics/soft_constraints.h"
#include "detail.h"

namespace art {

void detail::softContactRows(const Model& m, const Data& d, SoftConstraintData& s) {
  const auto weight = [&](int body, int rot) {
    return body < 0 ? 0.0 : s.bodyInvWeight[2 * static_cast<std::size_t>(body) + static_cast<std::size_t>(rot)];
  };
  for (std::size_t k = 0; k < s.contacts.size(); ++k) {
    Contact& c = s.contacts[k];
    c.row = -1;
    if (c.exclude) continue;
    const int b1 = m.geoms[static_cast<std::size_t>(c.geom1)].body, b2 = m.geoms[static_cast<std::size_t>(c.geom2)].body;
    // the relative motion at the contact point: geom2's body's less geom1's
    frameJacobian(m, d, b2, c.pos, &s.jp2, &s.jr2);
    frameJacobian(m, d, b1, c.pos, &s.jp1, &s.jr1);
    s.jp2 -= s.jp1;
    s.jr2 -= s.jr1;
    const double tran = weight(b1, 0) + weight(b2, 0), rot = weight(b1, 1) + weight(b2, 1);
    const bool elliptic = detail::ellipticCones(m);
    const int first = s.nefc, n = contactRowCount(c, elliptic);
    s.work.noalias() = s.jp2.transpose() * c.frame.row(0).transpose();  // the normal's row
    const auto axisRow = [&](int axis) {  // tangent 1, 2 (axis 1, 2), torsional, rolling 1, 2
      if (axis < 3) s.g0.noalias() = s.jp2.transpose() * c.frame.row(axis).transpose();
      else s.g0.noalias() = s.jr2.transpose() * c.frame.row(axis - 3).transpose();
    };
    if (c.dim == 1) {
      s.J.row(first) = s.work.transpose();
      s.diagApprox(first) = tran;
    } else if (elliptic) {
      // the normal, then each axis's own row; the block's residual sits on the normal's row
      s.J.row(first) = s.work.transpose();
      s.diagApprox(first) = tran;
      for (int axis = 1; axis < c.dim; ++axis) {
        axisRow(axis);
        s.J.row(first + axis) = s.g0.transpose();
        s.diagApprox(first + axis) = axis < 3 ? tran : rot;
      }
    } else {
      for (int j = 0; j + 1 < c.dim; ++j) {
        axisRow(j + 1);
        const double mu = c.friction[static_cast<std::size_t>(j)];
        s.J.row(first + 2 * j) = (s.work + mu * s.g0).transpose();
        s.J.row(first + 2 * j + 1) = (s.work - mu * s.g0).transpose();
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
