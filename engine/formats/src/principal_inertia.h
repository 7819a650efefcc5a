#pragma once
// A full rotational inertia as MuJoCo's compiler keeps it: private to formats.

#include "articulate/spatial/spatial.h"

namespace art {

/// `I` (any units, in the frame MuJoCo's compiler holds it in) as MuJoCo 3.3.8 keeps it: its
/// principal moments and axes from MuJoCo's Jacobi eigenvalue iteration, rebuilt as R diag R'.
/// MuJoCo keeps every full inertia that way (<inertial fullinertia>, a mesh's inertia, a body's
/// inertia from its geoms), and its iteration stops when the largest off-diagonal entry is below
/// 1e-12 in absolute terms or the next rotation's cosine is within 1e-12 of 1: so a small or
/// nearly diagonal inertia keeps off-diagonal parts of up to about 1e-6 of its spread, which H
/// shows at 1e-8 to 1e-6 (the Panda, the Allegro hand's fingertips). The iteration follows
/// mju_eig3's steps: the largest off-diagonal pivot, a 2x2 Schur rotation accumulated as a
/// quaternion, at most 500 sweeps.
Mat3 mujocoPrincipalInertia(const Mat3& I);

}  // namespace art
