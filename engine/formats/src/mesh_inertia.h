#pragma once
// A mesh's mass properties as MuJoCo 3.3.8's compiler computes them (<mesh inertia>): private
// to formats.

#include <string>

#include "articulate/formats/mesh.h"
#include "articulate/spatial/spatial.h"

namespace art {

/// MJCF's <mesh inertia>: how a mesh's volume, centre and inertia are found. Legacy is MuJoCo
/// 3.3.8's default.
enum class MeshInertia { Convex, Exact, Legacy, Shell };

/// "convex", "exact", "legacy" or "shell" into `out`; false for any other text.
bool parseMeshInertia(const std::string& text, MeshInertia& out);

/// A mesh's "volume" (m^3; for Shell its area, m^2), centre (m) and rotational inertia about
/// that centre per unit of that volume (m^5 per m^3, so per unit mass: multiply by the mass),
/// in the mesh's frame with its vertices scaled by `scale`, as MuJoCo 3.3.8 computes them
/// (mjCMesh::Process): pyramids from each triangle to the faces' area-weighted centroid give
/// the volume and centre, then tetrahedra from each triangle to that centre the inertia and
/// the volume again.
///   - Exact: the pyramids' signed volumes (a closed, outward-wound mesh's true mass properties).
///   - Legacy: their absolute values, so a triangle counts whichever way it is wound.
///   - Convex: Exact on the convex hull of the vertices (qhull).
///   - Shell: the triangles' areas instead of volumes, a thin shell of the surface.
/// Throws std::invalid_argument saying why, as MuJoCo refuses: a surface of no area, a volume
/// of at most 1e-15 (negative: misoriented triangles), or no hull (Convex).
struct MeshMass {
  double volume = 0;
  Vec3 centre = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();  // per unit volume (or area), about the centre
};
MeshMass meshMass(const MeshData& mesh, const Vec3& scale, MeshInertia mode);

}  // namespace art
