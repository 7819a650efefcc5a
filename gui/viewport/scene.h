#pragma once
// The VTK scene of one model: actors built once per body from its drawing instructions, one
// transform per body that playback updates, and the overlays (frames, joint axes, COMs).

#include <array>
#include <memory>
#include <vector>

#include <vtkSmartPointer.h>

#include "articulate/model/appearance.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/model/model.h"
#include "articulate/model/spec.h"
#include "articulate/simulation/system.h"
#include "viewport/viewport.h"

class vtkActor;
class vtkPolyData;
class vtkRenderer;
class vtkTransform;
class vtkProp;

namespace art::gui {

/// A point or vector VTK hands out as double[3] (world coordinates, m), as a Vec3.
inline Vec3 v3(const double* d) { return Vec3(d[0], d[1], d[2]); }

class AnnotationLayer;

class Scene {
 public:
  /// Builds every body's geometry (base = body -1) and adds it to `renderer`; the force
  /// overlays go to `overlay` (a renderer drawn over it with its camera; null: `renderer`).
  Scene(const ModelSpec& spec, vtkRenderer* renderer, vtkRenderer* overlay = nullptr);
  ~Scene();
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  /// Makes the scene a ghost: every surface and line `opacity` (0..1) translucent and not
  /// pickable (a sweep's other runs played beside the model; Viewport::setGhosts).
  void setGhost(double opacity);

  /// Moves the bodies to q (forward kinematics); only transforms change.
  void setPose(const Eigen::VectorXd& q);
  /// Moves the bodies to these poses (base coordinates, one per body); only transforms change.
  /// Throws std::invalid_argument for a wrong count.
  void setPoses(const std::vector<BodyPose>& poses);
  /// Draws force elements as lines between their world points, all in one vtkPolyData whose
  /// points and cell colours are rewritten in place (its cells are rebuilt only when the number
  /// or kinds of the segments change): cables straight, red-orange when taut and pale blue-grey
  /// when slack; springs as green zigzag coils; dampers straight and dark grey. With tension
  /// shading on, a taut cable's colour goes from amber to deep red as its tension rises to the
  /// largest tension drawn since the shading was turned on (tensionColour).
  void setSegments(const std::vector<SegmentReport>& segments);
  /// Turns tension shading on or off (the forces overlay) and redraws the segments.
  void setTensionShading(bool on);
  /// The tension that shades deepest now (N; 0 before any taut cable was drawn shaded).
  double tensionScale() const { return m_tensionScale; }
  /// The segments last drawn, and the points of segment k's polyline (world coordinates;
  /// straight segments: their two ends).
  const std::vector<SegmentReport>& segments() const { return m_segments; }
  std::vector<Vec3> segmentPolyline(int k) const;
  /// The colour segment k is drawn in (RGB, 0..255).
  std::array<unsigned char, 3> segmentColour(int k) const;
  /// Body pose in base coordinates after setPose.
  const BodyPose& pose(int body) const { return m_poses[body]; }
  /// Bounding box of the moving bodies' geometry at the current pose (lo > hi when empty).
  void movingBounds(Vec3& lo, Vec3& hi) const;
  /// A box every pose of the bodies on fixed-base chains stays inside, whatever their revolute
  /// joints do: around each such chain's root, the path from the root to each body (its joint
  /// origins' distances at the current pose) plus the body's drawn radius. Bodies under a free
  /// joint are left out (they go anywhere); lo > hi when none is left.
  void reachBounds(Vec3& lo, Vec3& hi) const;
  /// The largest distance of body b's drawing from its origin, and of any body's (m; 0
  /// without drawings).
  double bodyRadius(int b) const;
  double drawnRadius() const;
  /// Bounding box (base coordinates) of one body's surfaces at the current pose (lo > hi when
  /// it draws none).
  void bodyBounds(int body, Vec3& lo, Vec3& hi) const;
  /// The body a picked actor and cell belong to (-1 base, -2 not ours).
  int bodyOf(vtkProp* prop, long long cell) const;
  /// Level of detail: cylinders and spheres of more than kCoarseFacets facets on moving
  /// bodies also have a kCoarseFacets version, drawn while their radius is under
  /// kCoarseBelowPixels on screen (where the two outlines differ by under half a pixel).
  /// Chosen before every render of the renderer; this is the count drawn coarse now.
  int coarseCount() const;
  static constexpr int kCoarseFacets = 8;
  static constexpr double kCoarseBelowPixels = 6.0;
  /// A mesh of more than kDetailedMeshTriangles on a moving body is drawn by its own actors
  /// (moved by their transform, not re-sent each frame): its file's triangles, and a form
  /// decimated to about kCoarseMeshTriangles drawn while its radius is under
  /// kMeshCoarseBelowPixels on screen. Smaller meshes join the batch.
  static constexpr std::size_t kDetailedMeshTriangles = 40000;
  static constexpr int kCoarseMeshTriangles = 20000;
  static constexpr double kMeshCoarseBelowPixels = 120.0;
  void setHighlighted(int body);
  void setOverlayVisibility(bool frames, bool jointAxes, bool coms);
  /// Shows or hides the model's sites (ModelSpec::sites) as small spheres in their colours,
  /// built the first time they are shown; not pickable.
  void setSitesVisible(bool visible);
  /// How many site spheres are shown.
  int sitesShown() const;
  /// Shows or hides the model's collision geometry (Model::geoms, a mesh as its convex hull)
  /// as translucent surfaces over the bodies, built the first time it is shown; planes are
  /// not drawn (the floor is); not pickable.
  void setCollisionGeomsVisible(bool visible);
  /// How many collision geoms are shown.
  int collisionGeomsShown() const;
  /// The force overlays (annotation_layer.h): draws these annotations and, with `names`, the
  /// bodies' names at their centres of mass (following the poses from now on).
  void setAnnotations(const Annotations& annotations, bool names);
  const Annotations& annotations() const { return m_annotations; }
  /// Metres of arrow per newton, its legend, and the arrows and labels drawn now.
  double forceScale() const;
  std::string forceLegend() const;
  int arrowsDrawn() const;
  int labelsDrawn() const;
  int bodies() const { return m_model.nb; }
  const Model& model() const { return m_model; }

 private:
  struct BodyActors {
    vtkSmartPointer<vtkTransform> transform;
    std::vector<vtkSmartPointer<vtkActor>> actors;
    std::vector<vtkSmartPointer<vtkActor>> frames, axes, coms, sites, geoms;
    std::vector<vtkSmartPointer<vtkPolyData>> lines;  // parts before finishBody
    struct Part {
      vtkSmartPointer<vtkPolyData> surface;
      int detail = -1;      // index into m_details, -1: drawn at every distance
      bool coarse = false;  // the coarse version of that detail item
    };
    std::vector<Part> surfaces;
  };
  // one cylinder or sphere with a coarse version (see coarseCount)
  struct DetailItem {
    int body = 0;
    Vec3 centre = Vec3::Zero();  // body coordinates
    double radius = 0.0;
    bool coarse = false;         // the version drawn now
    vtkActor* fine = nullptr;    // a large mesh's two actors (else null: batched parts)
    vtkActor* coarseActor = nullptr;
  };
  // batched cells of one part: [n, id1..idn]... (batch point ids) and 3 colour bytes each
  struct CellGroup {
    int body = 0, detail = -1;
    bool coarse = false;
    std::vector<vtkIdType> cells;
    std::vector<unsigned char> colours;
  };
  Model m_model;
  Data m_data;
  vtkRenderer* m_renderer;
  std::vector<BodyActors> m_bodies;  // index body + 1 (0 = base)
  std::vector<BodyPose> m_poses;
  int m_highlighted = -2;
  std::vector<Vec3> m_coms;  // centres of mass, body coordinates (for overlays)
  std::unique_ptr<AnnotationLayer> m_layer;
  Annotations m_annotations;
  bool m_names = false;
  // all moving bodies' surfaces in one actor, vertices moved on the CPU each frame: draw calls
  // dominate software GL, so one large draw beats a thousand small ones
  vtkSmartPointer<vtkPolyData> m_batch;
  vtkSmartPointer<vtkActor> m_batchActor;
  std::vector<Vec3> m_localPoints, m_localNormals;   // body coordinates
  std::vector<long long> m_bodyPointStart;           // first point of each body (nb + 1)
  std::vector<CellGroup> m_groups;                   // every part's cells, both versions
  std::vector<DetailItem> m_details;
  std::vector<int> m_cellBody;                       // body of each drawn batched cell
  std::vector<unsigned char> m_cellColours;          // its original colour (3 per cell)
  unsigned long m_detailObserver = 0;
  bool m_overlaysBuilt = false;
  std::vector<SiteSpec> m_sites;  // drawn by setSitesVisible
  bool m_sitesBuilt = false;
  bool m_geomsBuilt = false;
  // force elements (setSegments): one polyline per segment, first point of each
  vtkSmartPointer<vtkPolyData> m_segmentLines;
  vtkSmartPointer<vtkActor> m_segmentActor;
  std::vector<SegmentReport> m_segments;
  bool m_tensionShading = false;
  double m_tensionScale = 0.0;  // the largest cable tension drawn shaded (N)
  std::vector<long long> m_segmentStart;  // first point of each segment (size + 1)
  std::vector<double> m_coilWidth;        // springs: half-width of the zigzag (m)
  void buildSegments(const std::vector<SegmentReport>& segments);
  void placeBodies();  // actor transforms and batched vertices from m_poses
  void addPrimitive(int body, const Primitive& p);
  void finishBody(int body);
  void addToBatch(int body, const std::vector<BodyActors::Part>& parts);
  void finishBatch();
  void rebuildCells();       // the drawn cells from m_groups and the details' versions
  void applyCellColours();   // cell colours, the highlighted body's tinted
  void updateDetail();       // chooses each detail item's version for the coming render
  void watchDetail();        // calls updateDetail as each render starts (when there are details)
  void buildOverlays();
};

}  // namespace art::gui
