#pragma once
// Reproducible model generators: spatial_v2's autoTree, planar, floatbase and example models
// (gfxExample, vee, singlebody, scissor, doubleElbow, rollingdisc), and seeded random trees for
// tests. Generated models are ModelSpecs, so they can be saved, edited and compiled. The example
// files in models/ are these generators' output (models/README.md lists the commands); their
// numbers do not depend on the compiler's floating-point contraction (FMA).

#include <cstdint>
#include <vector>

#include "articulate/model/spec.h"
#include "articulate/formulations/rigid_body.h"

namespace art {

/// Options of spatial_v2's autoTree(nb, bf, skew, taper).
struct AutoTreeOptions {
  int bodies = 7;         // number of bodies (>= 0)
  double branching = 1;   // branching factor bf (>= 1); 1 gives an unbranched chain
  double skew = 0;        // rotation about x of each joint axis relative to its parent (rad)
  double taper = 1;       // length ratio of successive links (> 0)
  // joint types used in turn along body numbers (default: all Rz as spatial_v2); the
  // benchmarks use {Rz, Ry} to make chains truly 3D
  std::vector<JointType> axes{JointType::Rz};
};

/// spatial_v2 autoTree: breadth-first revolute tree, parent(i) = floor((i-2+ceil(bf))/bf)
/// (1-based); link i is a tube of length taper^(i-1) (m), mass taper^(3(i-1)) (kg), COM at
/// half length on x, inertia about the COM m l^2 diag(0.0025, 1.015/12, 1.015/12);
/// Xtree = rotx(skew) * xlt([l_parent 0 0]) (identity for children of the base). Drawn as
/// spatial_v2 draws it: a tube per link, a joint cylinder (along the joint axis) on each
/// parent's first child, a box under the base.
/// Throws std::invalid_argument for out-of-range options.
ModelSpec autoTree(const AutoTreeOptions& options);

/// spatial_v2 planar(n): an n-link planar chain of `r` joints, unit links of mass 1 with the
/// COM at the middle and inertia 1/12 about it, zero gravity (as spatial_v2); drawn as spatial_v2
/// draws it (a bar and a joint cylinder per link, a box under the base).
ModelSpec planarChain(int n);

/// spatial_v2 floatbase(model): the floating-base equivalent of a spatial tree whose first body
/// is the only one on the fixed base. Old joint 1 is discarded (with its initial state); joints
/// Px, Py, Pz, Rx, Ry (five new massless bodies "float_px" .. "float_ry", drawn as nothing) and
/// Rz (the old first body, keeping its placement) give it six degrees of freedom. Every body
/// index (parents, camera.body, contacts, constraints) shifts by 5; the rest is kept.
/// Singular where the Ry angle (q[4]) is +-pi/2. Throws std::invalid_argument for a planar
/// model, an empty one, more than one body on the base, a gearing constraint on the discarded
/// joint, or a body already named like a new one.
ModelSpec floatBase(const ModelSpec& model);

/// The double pendulum of the spatial_v2 reference trajectory: planar(2) under gravity
/// [0, -9.81] released from rest at q = [pi/3, -pi/6], simulated with RK4 and the energy
/// projection (SimulationSpec::energyProjection).
ModelSpec doublePendulum();

/// spatial_v2 gfxExample: planar(2) adorned with every drawing instruction (tiled floor and
/// platform, a roof of triangles, two-tone and low-facet spheres in nested sub-lists, circles
/// as lines; Articulate adds a line through vertex indices). `trackingCamera` gives
/// gfxExample(1): a camera tracking point [1.1, 0, 0] of body 2.
ModelSpec gfxExample(bool trackingCamera);

/// A vee: two 1 m, 1 kg tubes (autoTree's link) joined at one end by a revolute joint whose
/// axis is at 45 degrees to both, floating (floatBase) in zero gravity, opened to 60 degrees
/// (q = pi/2).
ModelSpec vee();

/// spatial_v2 singlebody: a free-floating unit-mass 3 x 2 x 1 m box (corner at the body
/// origin) in zero gravity, with the base's x, y, z axes drawn as lines.
ModelSpec singleBody();

/// spatial_v2 scissor: two unit-mass 0.2 x 0.1 x 1 m plates joined at the middle by an Ry
/// joint, floating in zero gravity; opened by 0.6 rad.
ModelSpec scissor();

/// spatial_v2 doubleElbow: planar(2) whose elbow is two `r` joints 0.25 m apart (a massless
/// link between), geared 1:1 by the coupling constraint q3 = q2.
ModelSpec doubleElbow();

/// spatial_v2 rollingdisc(npt): a floating disc (radius 0.05 m, thickness 0.01 m, density
/// 3000 kg/m^3, axle along body y) with 2 * npt ground-contact points, npt around each rim,
/// drawn as an npt-sided cylinder; tiled floor, camera tracking the disc from direction
/// [1 0 0.1] with locus [0 0.5]. Starts at rest standing on its rim on the floor (z = 0).
/// `points` must be in 3..1024.
ModelSpec rollingDisc(int points);

/// The reference workload of the single rigid body (FortranMbdVector, spec/formulations.md
/// section B): a cylinder of length 90 mm, radius 30 mm and mass 2 kg, standing upright (axis
/// along z) with its centre at `height` (m; 0.045 stands it on the floor), moving down at
/// 1 m/s and spinning at 5 rad/s about y, over the floor z = 0 with restitution 0.87 and
/// friction 0.15, under gravity [0, 0, -10]; drawn with a white stripe so that the spin shows,
/// over a tiled floor. Throws std::invalid_argument if `height` is not finite or below 0.045.
RigidBodySpec bouncingCylinder(double height);

/// A random tree with `nb` bodies, seeded: random parents (each body's parent precedes it),
/// joint types drawn from `types`, placements rotx*roty*rotz*xlt with angles in [-pi, pi] and
/// offsets in [-0.6, 0.6]^3, masses in [0.5, 2], COM in [-0.3, 0.3]^3 and inertia about the COM
/// A A^T + 0.1 I. `types` must be all spatial or all planar joint types.
ModelSpec randomTree(int nb, std::uint32_t seed, const std::vector<JointType>& types);

}  // namespace art
