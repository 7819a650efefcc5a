#pragma once
// The convex hull of a point set, through qhull (Debian's libqhull-dev, the reentrant
// libqhull_r): MJCF meshes given as vertex lists without faces, as MuJoCo builds them.
// Private to formats.

#include <string>
#include <vector>

#include "articulate/formats/mesh.h"
#include "articulate/spatial/spatial.h"

namespace art {

/// The convex hull of `points` (m, any frame) as a closed triangle mesh wound outwards: its
/// vertices are the points on the hull (in float, as meshes are), its triangles qhull's
/// facets triangulated. Throws std::invalid_argument saying why for fewer than 4 points, a
/// point that is not finite, or points that span no volume (all on one plane: a flat hull).
MeshData convexHull(const std::vector<Vec3>& points);

}  // namespace art
