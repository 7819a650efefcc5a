// The collision driver of collision.h (MuJoCo 2.2.2's mj_collision, mj_collideGeoms and
// mj_contactFilter; docs/design/mujoco-collision-2.2.2.md sections 1 and 2): the candidate
// pairs by a sweep over the bounding spheres along x, MuJoCo's filters and its order, the
// mixing of the two geoms' parameters, and the contacts of the narrow phase.
#include <algorithm>
#include <cmath>
#include <tuple>

#include "articulate/dynamics/collision.h"
#include "collision_detail.h"
#include "detail.h"

namespace art {

namespace {

constexpr double kMinMu = 1e-5;  // MuJoCo's mjMINMU: the least friction of a contact

// a pair to collide, in MuJoCo's order: by body pair (the base first), an explicit pair before
// the dynamic ones of its body pair, then by geom
struct Candidate {
  int body1, body2;  // body1 <= body2 (-1 the base)
  int kind;          // 0 explicit, 1 dynamic
  int a, b;          // explicit: the pair's index, 0; dynamic: the geoms, a's body the lower
  bool operator<(const Candidate& o) const {
    return std::tie(body1, body2, kind, a, b) < std::tie(o.body1, o.body2, o.kind, o.a, o.b);
  }
};

struct CollisionWorkspace {
  std::vector<detail::PlacedGeom> placed;
  std::vector<int> order;  // non-plane geoms by the low end of their x interval
  std::vector<int> planes;
  std::vector<Candidate> candidates;
};

// box-box can give one point twice: a point is dropped when a later one is at exactly the same
// place (MuJoCo's mj_collideGeoms), the others keep their order
int dropRepeats(detail::ContactPoint* points, int count) {
  int kept = 0;
  for (int i = 0; i < count; ++i) {
    bool repeated = false;
    for (int j = i + 1; j < count && !repeated; ++j) repeated = points[i].pos == points[j].pos;
    if (!repeated) points[kept++] = points[i];
  }
  return kept;
}

int parentOf(const Model& m, int body) { return body < 0 ? -1 : m.parent[static_cast<std::size_t>(body)]; }

// MuJoCo's mj_contactFilter for a dynamic pair of geoms on different bodies
bool passesFilters(const Model& m, int g1, int g2) {
  const GeomSpec &a = m.geoms[static_cast<std::size_t>(g1)], &b = m.geoms[static_cast<std::size_t>(g2)];
  if (!(a.contype & b.conaffinity) && !(b.contype & a.conaffinity)) return false;
  if (a.body == b.body) return false;  // one body, or both static
  if (a.type == GeomSpec::Type::Plane && b.type == GeomSpec::Type::Plane) return false;
  if (m.physics.filterParent && a.body >= 0 && b.body >= 0 &&
      (parentOf(m, a.body) == b.body || parentOf(m, b.body) == a.body))
    return false;
  const std::pair<int, int> key(std::min(a.body, b.body), std::max(a.body, b.body));
  if (std::binary_search(m.contactExcludes.begin(), m.contactExcludes.end(), key)) return false;
  // an explicit pair of the same geoms replaces it
  return !std::binary_search(m.contactPairGeoms.begin(), m.contactPairGeoms.end(),
                             std::pair<int, int>(std::min(g1, g2), std::max(g1, g2)));
}

void addDynamic(const Model& m, CollisionWorkspace& w, int g1, int g2) {
  if (!passesFilters(m, g1, g2)) return;
  int b1 = m.geoms[static_cast<std::size_t>(g1)].body, b2 = m.geoms[static_cast<std::size_t>(g2)].body;
  if (b1 > b2 || (b1 == b2 && g1 > g2)) {
    std::swap(b1, b2);
    std::swap(g1, g2);
  }
  w.candidates.push_back({b1, b2, 1, g1, g2});
}

// the dynamic candidates: planes with every other geom, the rest where their bounding
// intervals along x (radius and margin) overlap
void broadPhase(const Model& m, CollisionWorkspace& w) {
  const int n = static_cast<int>(m.geoms.size());
  w.order.clear();
  w.planes.clear();
  for (int g = 0; g < n; ++g)
    (m.geoms[static_cast<std::size_t>(g)].type == GeomSpec::Type::Plane ? w.planes : w.order).push_back(g);
  const auto reach = [&](int g) { return m.geomRbound[static_cast<std::size_t>(g)] + m.geoms[static_cast<std::size_t>(g)].margin; };
  const auto lo = [&](int g) { return w.placed[static_cast<std::size_t>(g)].p.x() - reach(g); };
  std::sort(w.order.begin(), w.order.end(), [&](int a, int b) { return lo(a) < lo(b); });
  for (int p : w.planes)
    for (int g : w.order) addDynamic(m, w, p, g);
  for (std::size_t i = 0; i < w.order.size(); ++i) {
    const int a = w.order[i];
    const double hi = w.placed[static_cast<std::size_t>(a)].p.x() + reach(a);
    for (std::size_t j = i + 1; j < w.order.size() && lo(w.order[j]) <= hi; ++j) addDynamic(m, w, a, w.order[j]);
  }
}

// the contact parameters of a dynamic pair (mj_collideGeoms): the higher priority's, else the
// larger condim and frictions and solref and solimp mixed by solmix
void mixParameters(const GeomSpec& a, const GeomSpec& b, Contact& c) {
  const GeomSpec* own = a.priority > b.priority ? &a : b.priority > a.priority ? &b : nullptr;
  std::array<double, 3> f;
  if (own) {
    c.dim = own->condim;
    f = own->friction;
    c.soft = own->soft;
  } else {
    c.dim = std::max(a.condim, b.condim);
    for (int k = 0; k < 3; ++k) f[static_cast<std::size_t>(k)] = std::max(a.friction[static_cast<std::size_t>(k)], b.friction[static_cast<std::size_t>(k)]);
    const double s1 = a.solmix, s2 = b.solmix, eps = detail::kCollisionMinValue;
    const double mix = s1 >= eps && s2 >= eps ? s1 / (s1 + s2) : s1 < eps && s2 < eps ? 0.5 : s1 < eps ? 0.0 : 1.0;
    for (int k = 0; k < 2; ++k) {
      const double r1 = a.soft.solref[static_cast<std::size_t>(k)], r2 = b.soft.solref[static_cast<std::size_t>(k)];
      c.soft.solref[static_cast<std::size_t>(k)] =
          a.soft.solref[0] > 0 && b.soft.solref[0] > 0 ? mix * r1 + (1 - mix) * r2 : std::min(r1, r2);
    }
    for (std::size_t k = 0; k < 5; ++k) c.soft.solimp[k] = mix * a.soft.solimp[k] + (1 - mix) * b.soft.solimp[k];
  }
  c.friction = {f[0], f[0], f[1], f[2], f[2]};
}

// mj_collideGeoms: the pair's parameters, the bounding-sphere test and the narrow phase
void collidePair(const Model& m, const CollisionWorkspace& w, const Candidate& cand, std::vector<Contact>& out) {
  Contact c;
  int g1, g2;
  double margin, gap;
  if (cand.kind == 0) {
    const ContactPairSpec& p = m.contactPairs[static_cast<std::size_t>(cand.a)];
    g1 = p.geom1;
    g2 = p.geom2;
    if (m.geoms[static_cast<std::size_t>(g1)].body > m.geoms[static_cast<std::size_t>(g2)].body) std::swap(g1, g2);
    c.dim = p.condim;
    c.friction = p.friction;
    c.soft = p.soft;
    margin = p.margin;
    gap = p.gap;
    c.explicitPair = true;
  } else {
    g1 = cand.a;
    g2 = cand.b;
    const GeomSpec &a = m.geoms[static_cast<std::size_t>(g1)], &b = m.geoms[static_cast<std::size_t>(g2)];
    mixParameters(a, b, c);
    margin = std::max(a.margin, b.margin);
    gap = std::max(a.gap, b.gap);
  }
  if (m.geoms[static_cast<std::size_t>(g1)].type > m.geoms[static_cast<std::size_t>(g2)].type) std::swap(g1, g2);
  if (m.physics.override) {
    margin = m.physics.overrideMargin;
    c.soft = m.physics.overrideSoft;
  }
  const detail::PlacedGeom &x1 = w.placed[static_cast<std::size_t>(g1)], &x2 = w.placed[static_cast<std::size_t>(g2)];
  const double rb1 = m.geomRbound[static_cast<std::size_t>(g1)], rb2 = m.geomRbound[static_cast<std::size_t>(g2)];
  if (rb1 > 0 && rb2 > 0 && (x1.p - x2.p).norm() > rb1 + rb2 + margin) return;
  if (x1.type == GeomSpec::Type::Plane && rb2 > 0 && (x2.p - x1.p).dot(x1.R.col(2)) > margin + rb2) return;
  detail::ContactPoint points[detail::kMaxPairContacts];
  int count = detail::narrowPhase(x1, x2, margin, points);
  if (x1.type == GeomSpec::Type::Box && x2.type == GeomSpec::Type::Box) count = dropRepeats(points, count);
  for (double& f : c.friction) f = std::max(f, kMinMu);
  c.geom1 = g1;
  c.geom2 = g2;
  c.includeMargin = margin - gap;
  for (int k = 0; k < count; ++k) {
    c.dist = points[k].dist;
    c.pos = points[k].pos;
    c.frame = detail::makeFrame(points[k].normal, points[k].hint);
    c.exclude = !(c.dist < c.includeMargin);
    out.push_back(c);
  }
}

}  // namespace

void geomPose(const Model& m, const Data& d, int g, Mat3& R, Vec3& p) {
  const GeomSpec& geom = m.geoms[static_cast<std::size_t>(g)];
  Mat3 Rb;
  Vec3 rb;
  detail::worldPose(d, geom.body, Rb, rb);
  R = Rb * geom.rotation;
  p = Rb * geom.position + rb;
}

std::string geomName(const Model& m, int g) {
  const GeomSpec& geom = m.geoms[static_cast<std::size_t>(g)];
  if (!geom.name.empty()) return geom.name;
  int k = 0;
  for (int i = 0; i <= g; ++i) k += m.geoms[static_cast<std::size_t>(i)].body == geom.body;
  return (geom.body < 0 ? std::string("world") : m.names[static_cast<std::size_t>(geom.body)]) + "#" + std::to_string(k);
}

void collide(const Model& m, const Data& d, std::vector<Contact>& out) {
  out.clear();
  if (m.geoms.empty() || !m.physics.contact) return;
  thread_local CollisionWorkspace w;
  const int n = static_cast<int>(m.geoms.size());
  w.placed.resize(static_cast<std::size_t>(n));
  for (int g = 0; g < n; ++g) {
    detail::PlacedGeom& x = w.placed[static_cast<std::size_t>(g)];
    x.type = m.geoms[static_cast<std::size_t>(g)].type;
    x.size = m.geoms[static_cast<std::size_t>(g)].size;
    x.hull = &m.geomHulls[static_cast<std::size_t>(g)];
    x.rbound = m.geomRbound[static_cast<std::size_t>(g)];
    geomPose(m, d, g, x.R, x.p);
    // a state gone non-finite (a diverging simulation, stopped by its own check) has no
    // contacts: the sweep's sort needs ordered numbers
    if (!x.p.allFinite() || !x.R.allFinite()) return;
  }
  w.candidates.clear();
  broadPhase(m, w);
  for (std::size_t k = 0; k < m.contactPairs.size(); ++k) {
    const ContactPairSpec& p = m.contactPairs[k];
    const int b1 = m.geoms[static_cast<std::size_t>(p.geom1)].body, b2 = m.geoms[static_cast<std::size_t>(p.geom2)].body;
    w.candidates.push_back({std::min(b1, b2), std::max(b1, b2), 0, static_cast<int>(k), 0});
  }
  std::sort(w.candidates.begin(), w.candidates.end());
  for (const Candidate& c : w.candidates) collidePair(m, w, c, out);
}

}  // namespace art
