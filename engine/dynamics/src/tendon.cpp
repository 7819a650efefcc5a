// Tendon lengths and moment arms (MuJoCo 2.2.2's mj_tendon). A fixed tendon is linear in the
// joint positions. A spatial tendon's path is cut into branches by its pulleys; within a
// branch, each pair of consecutive sites (or site, wrapping shape, site) adds the straight
// segments and the wrap's arc between them, divided by the branch's divisor. The moment arm of
// a segment between points on different bodies is the difference of the two points' velocity
// Jacobians along the segment's direction.
#include "articulate/dynamics/actuation.h"
#include "detail.h"

namespace art {

namespace {

// a row of a column-major matrix
using RowRef = Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>>;

using Kind = TendonSpec::Element::Kind;

// a site's world position from the kinematics in d
Vec3 sitePosition(const Model& m, const Data& d, int site) {
  const SiteSpec& s = m.sites[static_cast<std::size_t>(site)];
  Mat3 R;
  Vec3 r;
  detail::worldPose(d, s.body, R, r);
  return R * s.position + r;
}

// adds to `row` the moment arm of the segment a -> b (a on body ba, b on body bb), divided by
// `divisor`
void addSegment(const Model& m, Data& d, int ba, const Vec3& a, int bb, const Vec3& b, double divisor,
                RowRef row) {
  if (ba == bb) return;  // one rigid body: the segment's length does not change
  Vec3 dir = b - a;
  const double n = dir.norm();
  dir = n < 1e-15 ? Vec3::UnitX() : Vec3(dir * (1 / n));
  detail::frameJacobian(m, d, ba, a, &d.jacA, nullptr);
  detail::frameJacobian(m, d, bb, b, &d.jacB, nullptr);
  row += ((d.jacB - d.jacA).transpose() * dir).transpose() / divisor;
}

// a spatial tendon's length and moment arms, and its drawn points from column `point` on
double spatialTendon(const Model& m, Data& d, const TendonSpec& t, RowRef row, int& point) {
  double length = 0.0, divisor = 1.0;
  const std::size_t n = t.path.size();
  std::size_t j = 0;
  bool branch = false;  // the next point starts a branch after a pulley
  const auto add = [&](const Vec3& x) {
    d.tendonPathBranch[static_cast<std::size_t>(point)] = branch;
    branch = false;
    d.tendonPath.col(point++) = x;
  };
  while (j + 1 < n) {
    const TendonSpec::Element& e0 = t.path[j];
    const TendonSpec::Element& e1 = t.path[j + 1];
    if (e0.kind == Kind::Pulley || e1.kind == Kind::Pulley) {
      if (e0.kind == Kind::Pulley) {
        divisor = e0.coef;
        branch = true;
      }
      ++j;
      continue;
    }
    const int s0 = e0.index;
    const Vec3 x0 = sitePosition(m, d, s0);
    const int b0 = m.sites[static_cast<std::size_t>(s0)].body;
    add(x0);
    if (e1.kind == Kind::Sphere || e1.kind == Kind::Cylinder) {  // site, shape, site
      const TendonSpec::Element& e2 = t.path[j + 2];
      const Vec3 x1 = sitePosition(m, d, e2.index);
      const int b1 = m.sites[static_cast<std::size_t>(e2.index)].body;
      Mat3 R;
      Vec3 r;
      detail::worldPose(d, e1.body, R, r);
      const Vec3 centre = R * e1.position + r;
      const Mat3 axes = R * e1.rotation;
      Vec3 side, p0, p1;
      if (e1.sideSite >= 0) side = sitePosition(m, d, e1.sideSite);
      const double arc = wrapTendon(x0, x1, centre, axes, e1.radius, e1.kind == Kind::Cylinder,
                                    e1.sideSite >= 0 ? &side : nullptr, p0, p1);
      if (arc < 0) {
        length += (x1 - x0).norm() / divisor;
        addSegment(m, d, b0, x0, b1, x1, divisor, row);
      } else {
        length += ((p0 - x0).norm() + arc + (x1 - p1).norm()) / divisor;
        addSegment(m, d, b0, x0, e1.body, p0, divisor, row);
        addSegment(m, d, e1.body, p0, e1.body, p1, divisor, row);
        addSegment(m, d, e1.body, p1, b1, x1, divisor, row);
        add(p0);
        add(p1);
      }
      j += 2;
    } else {  // site, site
      const Vec3 x1 = sitePosition(m, d, e1.index);
      length += (x1 - x0).norm() / divisor;
      addSegment(m, d, b0, x0, m.sites[static_cast<std::size_t>(e1.index)].body, x1, divisor, row);
      j += 1;
    }
    // the branch's last site, before a pulley or at the end
    if (j == n - 1 || t.path[j + 1].kind == Kind::Pulley) add(sitePosition(m, d, t.path[j].index));
  }
  return length;
}

}  // namespace

void tendonKinematics(const Model& m, Data& d, const VecRef& q, const VecRef& qd) {
  detail::checkSize("tendonKinematics", "q", q.size(), m.nq());
  detail::checkSize("tendonKinematics", "qd", qd.size(), m.nv());
  const bool spatial = std::any_of(m.tendons.begin(), m.tendons.end(), [](const TendonSpec& t) { return t.spatial(); });
  if (spatial) forwardKinematics(m, d, q);
  d.tendonMoment.setZero();
  int point = 0;
  for (std::size_t k = 0; k < m.tendons.size(); ++k) {
    const TendonSpec& t = m.tendons[k];
    const auto row = static_cast<Eigen::Index>(k);
    d.tendonPathStart[k] = point;
    double length = 0.0;
    if (t.spatial()) {
      length = spatialTendon(m, d, t, d.tendonMoment.row(row), point);
    } else {
      for (const TendonSpec::Element& e : t.path) {
        const auto b = static_cast<std::size_t>(e.index);
        length += e.coef * q(m.qIndex[b]);
        d.tendonMoment(row, m.vIndex[b]) += e.coef;
      }
    }
    d.tendonLength(row) = length;
  }
  d.tendonPathStart[m.tendons.size()] = point;
  d.tendonVelocity.noalias() = d.tendonMoment * qd;
}

}  // namespace art
