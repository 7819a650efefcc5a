#pragma once
// The 3D viewport: renders a model's drawing instructions (showmotion semantics) with VTK in a
// native child window, with showmotion's cameras and mouse/keyboard controls. This header is
// VTK-free; only gui/viewport/*.cpp include VTK.

#include <memory>
#include <optional>
#include <array>
#include <string>
#include <vector>

#include <QImage>
#include <QWidget>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/spec.h"
#include "articulate/simulation/system.h"
#include "viewport/gizmo.h"

namespace art::gui {

/// The colour of a taut cable under a fraction s (0..1, clamped; NaN: 1) of the largest tension
/// drawn (the forces overlay's tension shading): amber to deep red, RGB 0..255.
std::array<unsigned char, 3> tensionColour(double s);

/// Standard views.
enum class StandardView { Front, Side, Top, Iso };

/// What the viewport shows besides the bodies.
struct Overlays {
  bool bodyFrames = false;    // body coordinate axes
  bool jointAxes = false;     // joint axes as arrows
  bool centresOfMass = false; // a small sphere at each body's COM
  bool sites = false;         // the model's sites (ModelSpec::sites) as small spheres
  bool collisionGeoms = false;  // the collision geoms (Model::geoms), translucent
  bool contactForces = false;     // contact points touching the ground, reaction arrows
  bool constraintForces = false;  // loop-closure force arrows, coupling (gear) force labels,
                                  // taut cables and tendons shaded by their tension
  bool systemCom = false;         // the whole system's centre of mass
  bool bodyNames = false;         // each body's name at its centre of mass
  bool trails = false;            // fading paths of `trailBodies` over the last trailSeconds
  std::vector<int> trailBodies;   // body indices
  double trailSeconds = 2.0;      // s
};

/// A force drawn as an arrow from `origin` (world, m) along `force` (N, world), scaled by the
/// scene's force scale (Viewport::forceScale). The perturbation's arrow is the mouse's pull.
struct ForceArrow {
  enum class Kind { ContactNormal, ContactFriction, Constraint, Perturbation };
  Kind kind = Kind::ContactNormal;
  Vec3 origin = Vec3::Zero();
  Vec3 force = Vec3::Zero();
};

/// Text drawn at a world point (m), e.g. a coupling's force.
struct TextLabel {
  Vec3 position = Vec3::Zero();
  std::string text;
};

/// A body's recent path: points (world, m) oldest first, each with its age (s before the
/// frame's time; the newest 0), drawn fading out with age.
struct Trail {
  int body = 0;
  std::vector<Vec3> points;
  std::vector<double> ages;
};

/// What the force overlays draw in one frame besides the bodies (gui/frame.h computes it from
/// the simulated system at the frame's state): contact points touching the ground, force
/// arrows, labels, trails and the system's centre of mass (world coordinates).
struct Annotations {
  std::vector<Vec3> contactPoints;
  std::vector<ForceArrow> arrows;
  std::vector<TextLabel> labels;
  std::vector<Trail> trails;
  std::optional<Vec3> systemCom;
};

/// A picked point: the body (-1 = base) and the point in that body's coordinates (m), with the
/// outward surface normal there (unit, body coordinates). `hit` is false for a click on nothing.
struct Pick {
  int body = -1;
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
  bool hit = false;
};

/// The viewport's camera and lights, so that an export renders what the user sees.
struct ViewState {
  Vec3 position = Vec3::Zero(), focus = Vec3::Zero(), up = Vec3::UnitZ();
  double viewAngle = 25.0;              // degrees, vertical
  Vec2 windowCentre = Vec2::Zero();     // VTK window centre (the camera's locus)
  Vec3 lastTrack = Vec3::Zero();        // trackpoint position the camera last moved with
  int headLevel = 6, overheadLevel = 7; // light intensity levels, 0..11
};

/// Writes an Ogg Theora video (.ogv) with VTK's writer, frame by frame.
class OggVideoWriter {
 public:
  /// Opens `path` for frames of width x height (even numbers) at `fps` frames per second.
  /// Throws std::runtime_error naming the file when it cannot be written.
  OggVideoWriter(const QString& path, int width, int height, double fps);
  ~OggVideoWriter();
  OggVideoWriter(const OggVideoWriter&) = delete;
  OggVideoWriter& operator=(const OggVideoWriter&) = delete;
  /// Adds one frame (scaled to the video's size if it differs).
  void addFrame(const QImage& frame);
  /// Finishes the file (also done by the destructor).
  void finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

/// An offscreen rendering of one model, for screenshots, render tests and benchmarks. It needs
/// an X display (Xvfb is fine) and shows no window. The camera is the model's initial view.
class OffscreenView {
 public:
  /// Builds the scene at the model's initial pose; size in pixels.
  OffscreenView(const ModelSpec& spec, int width, int height);
  ~OffscreenView();
  OffscreenView(const OffscreenView&) = delete;
  OffscreenView& operator=(const OffscreenView&) = delete;
  /// Moves the bodies to q (a tracking camera follows) and, with `reframe`, recomputes the
  /// initial view for this pose.
  void setPose(const Eigen::VectorXd& q, bool reframe = false);
  /// Moves the bodies to these poses (one per body, base coordinates; a tracking camera
  /// follows) and, with `reframe`, recomputes the initial view for them (formulations whose
  /// bodies the display model's joints do not place). Throws std::invalid_argument for a
  /// wrong count.
  void setBodyPoses(const std::vector<BodyPose>& poses, bool reframe = false);
  /// Ghosts, as Viewport::setGhosts and setGhostPose.
  void setGhosts(const std::vector<ModelSpec>& specs, double opacity = 0.3);
  void setGhostPose(int ghost, const Eigen::VectorXd& q);
  /// Draws force elements (springs, dampers, cables; System::segments) as lines (see
  /// Viewport::setSegments).
  void setSegments(const std::vector<SegmentReport>& segments);
  /// Shows these overlays (as Viewport::setOverlays) and draws these annotations (as
  /// Viewport::setAnnotations), so that an export shows what the viewport shows.
  void setOverlays(const Overlays& overlays);
  void setAnnotations(const Annotations& annotations);
  /// Renders one frame.
  void render();
  /// Renders and writes a PNG; throws std::runtime_error naming the file on failure.
  void savePng(const QString& path);
  /// Renders and returns the frame (RGB, top row first).
  QImage image();
  /// Takes a viewport's camera and lights (see Viewport::viewState).
  void setViewState(const ViewState& state);
  /// Round shapes drawn at low detail in the last frame (Scene::coarseCount).
  int coarseShapes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

class Viewport : public QWidget {
  Q_OBJECT
 public:
  explicit Viewport(QWidget* parent = nullptr);
  ~Viewport() override;

  /// Builds the scene for a model (geometry once per body) and resets the camera to the
  /// model's camera; shows the model at q.
  void setModel(const ModelSpec& spec, const Eigen::VectorXd& q);
  /// Moves the bodies to joint positions q (only actor transforms change) and renders.
  void setPose(const Eigen::VectorXd& q);
  /// Moves the bodies to these poses (one per body, base coordinates) and renders. Throws
  /// std::invalid_argument for a wrong count.
  void setBodyPoses(const std::vector<BodyPose>& poses);
  /// Ghosts: translucent copies of other models drawn with the model (a sweep's other runs
  /// played together with it), without their base drawing, not pickable; each posed by
  /// setGhostPose. An empty list removes them, and so does setModel. Throws ModelError for a
  /// spec that does not compile.
  void setGhosts(const std::vector<ModelSpec>& specs, double opacity = 0.3);
  /// Moves ghost g's bodies to q (its model's joint positions), drawn at the next render (the
  /// model's own setPose or setBodyPoses renders: pose the ghosts first).
  void setGhostPose(int ghost, const Eigen::VectorXd& q);
  int ghosts() const;
  /// How many collision geoms the view shows (Overlays::collisionGeoms).
  int collisionGeomsShown() const;
  /// Ghost g's body pose (base coordinates) as drawn now.
  BodyPose ghostPose(int ghost, int body) const;
  /// Draws force elements (springs, dampers, cables; System::segments, world coordinates) as
  /// lines: cables red-orange when taut and pale blue-grey when slack (with the constraint-forces
  /// overlay on, amber to deep red by tension: Scene::setSegments), springs as green zigzags,
  /// dampers dark grey. Shown with the next render (setBodyPoses renders); a new model clears
  /// them.
  void setSegments(const std::vector<SegmentReport>& segments);
  /// The points of segment k's drawn polyline (world; straight segments: their two ends) and
  /// its colour (RGB 0..255); empty and black for an index out of range.
  std::vector<Vec3> segmentPolyline(int k) const;
  std::array<unsigned char, 3> segmentColour(int k) const;
  /// The segments drawn now, and the tension that shades deepest (N; Scene::tensionScale).
  std::vector<SegmentReport> segments() const;
  double tensionScale() const;
  /// The pose a body is shown at (base coordinates); identity without a model or for an index
  /// out of range.
  BodyPose bodyPose(int body) const;
  /// Points (base coordinates) the default framing keeps in view besides the bodies where they
  /// are (a recorded motion's body origins over time), each with the largest body's drawn
  /// radius around it; empty: none. Takes effect at the next framing (resetView).
  void setFramingPoints(std::vector<Vec3> points);
  /// Resets the view to the model's camera and the default framing (key `i`).
  void resetView();
  void setStandardView(StandardView view);
  void setOverlays(const Overlays& overlays);
  /// Draws the force overlays' annotations of the frame shown next (arrows scaled by
  /// forceScale(), with a legend of the scale in the bottom-left corner while any arrow is
  /// drawn); a new model clears them.
  void setAnnotations(const Annotations& annotations);
  const Annotations& annotations() const;
  /// Metres of arrow per newton of force: chosen once per model so that its weight (total mass
  /// times gravity; 1 N when weightless) draws half as long as the model is wide, rounded to 1,
  /// 2 or 5 times a power of ten; 0 without a model.
  double forceScale() const;
  /// The scale's legend, e.g. "Force arrows: 10 cm = 50 N"; empty without a model.
  QString forceLegend() const;
  /// Text drawn in the view's top-left corner (the status overlay; lines split at '\n'),
  /// shown with the next render; empty hides it.
  void setInfoText(const QString& text);
  QString infoText() const;
  Overlays overlays() const;
  /// Highlights a body (-1: none).
  void setSelectedBody(int body);
  /// Shows the Move tool's gizmo (gizmo.h) on the selected body's joint frame, or hides it:
  /// its arrows move the frame along its axes, its rings turn it about them, its ball moves it
  /// in the view plane (each drag emits handleDragged); dragging a body elsewhere turns (or
  /// slides) it about its own joint axis and emits jointDragged. While it is shown, hovering
  /// emits hint() with what a drag from there would do.
  void setTransformHandle(bool on);
  bool transformHandle() const;
  int selectedBody() const;
  /// The current camera as a model camera (for "save camera to model").
  CameraSpec currentCamera() const;
  /// The current camera and lights exactly, for exports.
  ViewState viewState() const;
  /// Takes a camera and lights as viewState() gave them (a reload keeps the view) and renders.
  void setViewState(const ViewState& state);
  /// How a left drag turns the view: a turntable (on, the default: azimuth about the model's
  /// vertical, elevation about the horizontal across the view, no roll) or a trackball (off:
  /// free rotation inside 80% of the view, roll outside).
  void setTurntable(bool on);
  bool turntable() const;
  /// Whether Ctrl+drag on a body pulls it (perturbationDragged; while a simulation runs) instead
  /// of turning the camera. Off by default.
  void setPerturbable(bool on);
  bool perturbable() const;
  /// Where the mouse ray at a widget position meets the plane through `point` (world, m)
  /// facing the camera (the perturbation's drag plane); `point` itself when the ray runs
  /// along the plane.
  Vec3 dragPlanePoint(const QPoint& position, const Vec3& point);
  /// Where the mouse ray at a widget position meets the plane through `point` (world, m) normal
  /// to `normal`; `point` itself when the ray runs along the plane.
  Vec3 rayPlanePoint(const QPoint& position, const Vec3& point, const Vec3& normal);
  /// The gizmo's part under a widget position (None when the gizmo is hidden or nothing is
  /// near), and a widget position on a part (for tests; (-1, -1) when hidden).
  GizmoPart gizmoPartAt(const QPoint& position);
  QPoint gizmoPoint(const GizmoPart& part);
  /// What a left-button drag from `position` would do with the Move tool, over `part`.
  QString dragHint(const GizmoPart& part, const QPoint& position);
  /// Picks the body under a widget position, if any.
  std::optional<Pick> pickAt(const QPoint& position);
  /// Where a point (base coordinates, m) appears in the widget (pixels from the top left), for
  /// placing clicks in tests and overlays.
  QPoint widgetPoint(const Vec3& world);

  /// The keys and mouse actions the view handles itself (keyPressEvent and the mouse events),
  /// as (keys, what they do), for Help > Keyboard Shortcuts.
  static std::vector<std::pair<QString, QString>> keyBindings();

  /// Renders one frame of `spec` at `q` into a PNG without showing a window. Throws
  /// std::runtime_error naming the file on failure.
  static void renderToPng(const ModelSpec& spec, const Eigen::VectorXd& q, int width, int height,
                          const QString& path);

 signals:
  /// A click selected a body (or the base / nothing: body -1).
  void bodyPicked(const art::gui::Pick& pick);
  /// The transform handle of `body` moved: the rigid motion x -> rotation x + translation (base
  /// coordinates) from where the body was when the drag began. `snap`: Ctrl was held; `finished`:
  /// the button was released (the last call of a drag).
  void handleDragged(int body, const art::Mat3& rotation, const art::Vec3& translation, bool snap,
                     bool finished);
  /// A body was dragged about its joint axis (Move tool): `delta` is the joint's change since
  /// the press (rad for revolute and helical joints, measured around the axis as seen; m for
  /// prismatic ones, along the axis). `finished`: the button was released.
  void jointDragged(int body, double delta, bool finished);
  /// With the Move tool on, what a drag from under the mouse would do (dragHint), as it moves.
  void hint(const QString& text);
  /// Ctrl+drag of a body while perturbable: `point` is the grabbed point (body coordinates, m)
  /// and `target` where the mouse is now, in the plane through the grabbed point facing the
  /// camera (world, m); `torque`: Shift was held at the press (turn, do not pull). Emitted at
  /// the press (target = the grabbed point), at every move, and with `finished` at the release.
  void perturbationDragged(int body, const art::Vec3& point, const art::Vec3& target, bool torque,
                           bool finished);

 protected:
  QPaintEngine* paintEngine() const override { return nullptr; }
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void showEvent(QShowEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void keyPressEvent(QKeyEvent*) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace art::gui
