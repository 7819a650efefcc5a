// The VTK viewport, hosted in a native child window (Debian's VTK Qt module is Qt5-only):
// the widget hands its X11 window and display to a vtkRenderWindow and paints nothing itself.
#include "viewport/viewport.h"

#include <array>
#include <cmath>
#include <cstring>

#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellPicker.h>
#include <vtkLight.h>
#include <vtkMatrix4x4.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTransform.h>
#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <QSaveFile>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkImageData.h>
#include <vtkOggTheoraWriter.h>
#include <vtkWindowToImageFilter.h>

#include "viewport/camera.h"
#include "viewport/gizmo.h"
#include "viewport/scene.h"
#include "viewport/x_display.h"

namespace art::gui {

namespace {

// 12 intensity levels per light, as showmotion
double lightIntensity(int level) { return 0.1 * level; }

void applyCamera(vtkRenderer* r, const CameraPose& p) {
  vtkCamera* c = r->GetActiveCamera();
  c->SetFocalPoint(p.focus.x(), p.focus.y(), p.focus.z());
  c->SetPosition(p.position.x(), p.position.y(), p.position.z());
  c->SetViewUp(p.up.x(), p.up.y(), p.up.z());
  c->SetViewAngle(p.viewAngle);
  c->SetWindowCenter(p.windowCentre.x(), p.windowCentre.y());
  r->ResetCameraClippingRange();
}

// a modifiable copy for VTK setters that take double*
std::array<double, 3> xyz(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

// What the widget and the offscreen view share: the renderer and its two lights, the scene,
// and showmotion's camera with its framing and tracking.
struct SceneView {
  vtkNew<vtkRenderer> renderer;
  // the force overlays, drawn over the scene with its camera: a force inside or behind a body
  // stays visible (annotation_layer.h)
  vtkNew<vtkRenderer> overlay;
  vtkNew<vtkLight> headlight, overhead;
  std::unique_ptr<Scene> scene;
  std::vector<Vec3> framingPoints;  // kept in view by frame(.., true) (Viewport::setFramingPoints)
  std::vector<std::unique_ptr<Scene>> ghosts;  // translucent copies of other models (setGhosts)
  ResolvedCamera camera;
  Vec3 lastTrack = Vec3::Zero();  // trackpoint position when the camera last moved with it
  double defaultDistance = 1.0;   // eye to focus of the initial view (zoom 1 reference)
  int headLevel = 6, overheadLevel = 7;

  SceneView() {
    overlay->SetLayer(1);
    overlay->SetActiveCamera(renderer->GetActiveCamera());
    overlay->InteractiveOff();
    renderer->GradientBackgroundOn();
    renderer->SetBackground(0.16, 0.18, 0.21);
    renderer->SetBackground2(0.48, 0.53, 0.6);
    renderer->AutomaticLightCreationOff();
    headlight->SetLightTypeToHeadlight();
    overhead->SetLightTypeToSceneLight();
    overhead->PositionalOff();
    renderer->AddLight(headlight);
    renderer->AddLight(overhead);
    updateLights();
  }

  /// Translucent copies of other models, without their base drawing (Viewport::setGhosts).
  void setGhosts(const std::vector<ModelSpec>& specs, double opacity) {
    ghosts.clear();
    for (ModelSpec spec : specs) {
      spec.baseAppearance = nlohmann::json::array();  // the model's floor is drawn once
      auto ghost = std::make_unique<Scene>(spec, renderer, overlay);
      ghost->setGhost(opacity);
      ghosts.push_back(std::move(ghost));
    }
  }
  void setGhostPose(int g, const Eigen::VectorXd& q) {
    if (g >= 0 && g < static_cast<int>(ghosts.size())) ghosts[static_cast<std::size_t>(g)]->setPose(q);
  }

  /// Builds the scene of a model (replacing any) and takes its camera.
  void load(const ModelSpec& spec) {
    ghosts.clear();
    scene.reset();
    camera = resolveCamera(spec);
    scene = std::make_unique<Scene>(spec, renderer, overlay);
  }

  void updateLights() {
    headlight->SetIntensity(lightIntensity(headLevel));
    overhead->SetIntensity(lightIntensity(overheadLevel));
    overhead->SetPosition(xyz(Vec3(10.0 * camera.up + Vec3(1, 0.6, 0))).data());
    overhead->SetFocalPoint(0, 0, 0);
  }

  Vec3 trackPoint() const {
    if (!scene || camera.body < 0 || camera.body >= scene->bodies()) return Vec3::Zero();
    const BodyPose& p = scene->pose(camera.body);
    return p.rotation * camera.trackpoint + p.position;
  }

  /// The initial view for the current pose; `aspect` is width / height.
  /// Frames the moving bodies; with `reach`, everywhere their fixed-base chains can swing
  /// (Scene::reachBounds), so that a simulation stays in view.
  void frame(double aspect, bool reach = false) {
    if (!scene) return;
    Vec3 lo, hi;
    scene->movingBounds(lo, hi);
    if (reach) {
      Vec3 rlo, rhi;
      scene->reachBounds(rlo, rhi);
      if (rlo.x() <= rhi.x()) {
        lo = lo.cwiseMin(rlo);
        hi = hi.cwiseMax(rhi);
      }
      const double radius = scene->drawnRadius();
      for (const Vec3& p : framingPoints) {
        lo = lo.cwiseMin(p - Vec3::Constant(radius));
        hi = hi.cwiseMax(p + Vec3::Constant(radius));
      }
    }
    lastTrack = trackPoint();
    const CameraPose pose = initialCamera(camera, lo, hi, lastTrack, aspect);
    defaultDistance = (pose.position - pose.focus).norm();
    applyCamera(renderer, pose);
    updateLights();
  }

  ViewState state() const {
    ViewState v;
    vtkCamera* c = renderer->GetActiveCamera();
    v.position = v3(c->GetPosition());
    v.focus = v3(c->GetFocalPoint());
    v.up = v3(c->GetViewUp());
    v.viewAngle = c->GetViewAngle();
    v.windowCentre = Vec2(c->GetWindowCenter()[0], c->GetWindowCenter()[1]);
    v.lastTrack = lastTrack;
    v.headLevel = headLevel;
    v.overheadLevel = overheadLevel;
    return v;
  }

  void setState(const ViewState& v) {
    CameraPose p;
    p.position = v.position;
    p.focus = v.focus;
    p.up = v.up;
    p.viewAngle = v.viewAngle;
    p.windowCentre = v.windowCentre;
    applyCamera(renderer, p);
    lastTrack = v.lastTrack;
    headLevel = v.headLevel;
    overheadLevel = v.overheadLevel;
    updateLights();
  }

  /// Moves the camera with the trackpoint, horizontally.
  void track() {
    if (camera.body < 0) return;
    const Vec3 now = trackPoint();
    const Vec3 shift = trackingShift(camera, now, lastTrack);
    lastTrack = now;
    vtkCamera* c = renderer->GetActiveCamera();
    c->SetFocalPoint(xyz(Vec3(v3(c->GetFocalPoint()) + shift)).data());
    c->SetPosition(xyz(Vec3(v3(c->GetPosition()) + shift)).data());
  }
};

}  // namespace

struct Viewport::Impl {
  vtkSmartPointer<vtkRenderWindow> window = vtkSmartPointer<vtkRenderWindow>::New();
  // the Move tool's gizmo (gizmo.h) on the selected body's joint frame, and its drag: the part
  // grabbed and the frame, the axis parameter and the view-plane point at the press
  std::unique_ptr<MoveGizmo> gizmo;
  bool handleOn = false, handleDragging = false;
  GizmoPart dragPart;
  Vec3 dragOrigin = Vec3::Zero(), dragPlane0 = Vec3::Zero();
  Mat3 dragAxes = Mat3::Identity(), dragR = Mat3::Identity();
  Vec3 dragT = Vec3::Zero();
  double dragS0 = 0;
  int widgetHeight = 1;
  int jointDragBody = -1;  // the body turned about its joint axis by a Move-tool drag
  bool perturbable = false;
  bool turntable = true;  // left drags orbit as a turntable (else a trackball)
  vtkSmartPointer<vtkTextActor> info;  // the status overlay, created on first use
  QString infoText;
  int grabBody = -1;                  // the body a Ctrl+drag pulls (perturbationDragged)
  Vec3 grabPoint = Vec3::Zero();      // body coordinates
  Vec3 grabWorld = Vec3::Zero();      // the drag plane's point (world, at the press)
  bool grabTorque = false;
  double jointDelta = 0;
  SceneView view;
  vtkNew<vtkCellPicker> picker;
  ModelSpec spec;
  Overlays overlays;
  int selected = -1;
  bool native = false;
  QPoint pressPos, lastPos;
  Qt::MouseButton button = Qt::NoButton;
  Qt::KeyboardModifiers modifiers;

  Impl() {
    window->SetNumberOfLayers(2);
    window->AddRenderer(view.renderer);
    window->AddRenderer(view.overlay);
    picker->SetTolerance(0.002);
    gizmo = std::make_unique<MoveGizmo>(view.overlay);
  }

  // the selected body's joint frame as drawn now (base coordinates): its parent's pose times
  // the placement (the spec's rotation maps parent to joint coordinates)
  bool jointFrame(Vec3& origin, Mat3& axes) const {
    if (!view.scene || selected < 0 || selected >= view.scene->bodies() ||
        selected >= static_cast<int>(spec.bodies.size()))
      return false;
    const BodySpec& b = spec.bodies[static_cast<std::size_t>(selected)];
    const Mat3 Rp = b.parent < 0 ? Mat3::Identity() : view.scene->pose(b.parent).rotation;
    const Vec3 pp = b.parent < 0 ? Vec3::Zero() : view.scene->pose(b.parent).position;
    origin = pp + Rp * b.translation;
    axes = Rp * b.rotation.transpose();
    return true;
  }

  // metres per widget pixel at a point's depth
  double metresPerPixel(const Vec3& at) const {
    vtkCamera* c = view.renderer->GetActiveCamera();
    if (c->GetParallelProjection()) return 2 * c->GetParallelScale() / widgetHeight;
    const double depth = (at - v3(c->GetPosition())).dot(v3(c->GetDirectionOfProjection()));
    return 2 * std::max(depth, 1e-6) * std::tan(0.5 * c->GetViewAngle() * M_PI / 180) / widgetHeight;
  }

  // shows the gizmo on the selected body's joint frame, 90 pixels long (moved with the drag
  // while one goes on), or hides it
  void placeHandle() {
    Vec3 o;
    Mat3 axes;
    if (handleDragging) {
      o = dragR * dragOrigin + dragT;
      axes = dragR * dragAxes;
    } else if (!handleOn || !jointFrame(o, axes)) {
      if (gizmo->visible()) gizmo->hide();
      return;
    }
    gizmo->place(o, axes, 90 * metresPerPixel(o), v3(view.renderer->GetActiveCamera()->GetPosition()));
  }

  Vec2 widgetOf(const Vec3& x) { return toScreen(x, widgetHeight); }

  // the mouse ray through a widget point (world): a point on it and its unit direction
  void ray(const QPoint& p, Vec3& from, Vec3& direction) {
    vtkRenderer* r = view.renderer;
    const auto unproject = [&](double depth) {
      r->SetDisplayPoint(p.x(), widgetHeight - 1 - p.y(), depth);
      r->DisplayToWorld();
      const double* w = r->GetWorldPoint();
      return Vec3(w[0] / w[3], w[1] / w[3], w[2] / w[3]);
    };
    from = unproject(0.0);
    direction = (unproject(1.0) - from).normalized();
  }

  // the parameter s of the point o + s a of the drag's axis line nearest the mouse ray at p
  // (nullopt when the axis points along the ray)
  std::optional<double> axisParameter(const QPoint& p) {
    Vec3 e, dir;
    ray(p, e, dir);
    const Vec3 a = dragAxes.col(dragPart.axis), w = e - dragOrigin;
    const double b = a.dot(dir), denominator = 1 - b * b;
    if (denominator < 1e-6) return std::nullopt;
    return (a.dot(w) - b * dir.dot(w)) / denominator;
  }

  // the joint axis of a body in base coordinates (unit) and a point on it, at the current pose
  bool jointAxis(int body, Vec3& origin, Vec3& axis, bool& rotational) const {
    if (!view.scene || body < 0 || body >= view.scene->bodies()) return false;
    const Joint& j = view.scene->model().joints[body];
    if (hasQuaternion(j.type)) return false;
    const Vec3 a = j.axis();
    const BodyPose& p = view.scene->pose(body);
    origin = p.position;
    axis = (p.rotation * a).normalized();
    rotational = isRotational(j.type);
    return true;
  }

  Vec2 toScreen(const Vec3& x, int h) {
    view.renderer->SetWorldPoint(x.x(), x.y(), x.z(), 1.0);
    view.renderer->WorldToDisplay();
    const double* d = view.renderer->GetDisplayPoint();
    return Vec2(d[0], h - 1 - d[1]);
  }

  // the angle (rad, right-handed about `a`) a drag from `from` to `to` sweeps about the axis
  // through `o`: between the points where the mouse rays meet the plane normal to the axis, so
  // that what is turned follows the mouse as seen; a plane seen nearly edge-on takes the angle
  // swept around the axis's point on screen instead
  double sweptAngle(const Vec3& o, const Vec3& a, const QPoint& from, const QPoint& to, int h) {
    widgetHeight = std::max(1, h);
    Vec3 e0, d0, e1, d1;
    ray(from, e0, d0);
    ray(to, e1, d1);
    if (std::abs(d0.dot(a)) > 0.2 && std::abs(d1.dot(a)) > 0.2) {
      const Vec3 p0 = e0 + d0 * ((o - e0).dot(a) / d0.dot(a)) - o;
      const Vec3 p1 = e1 + d1 * ((o - e1).dot(a) / d1.dot(a)) - o;
      return std::atan2(p0.cross(p1).dot(a), p0.dot(p1));
    }
    // screen y runs down, and an axis pointing away from the viewer turns the other way
    const Vec2 os = toScreen(o, h);
    const Vec2 q0 = Vec2(from.x(), from.y()) - os, q1 = Vec2(to.x(), to.y()) - os;
    double angle = std::atan2(q0.x() * q1.y() - q0.y() * q1.x(), q0.dot(q1));
    if (a.dot(v3(view.renderer->GetActiveCamera()->GetPosition()) - o) > 0) angle = -angle;
    return angle;
  }

  // the joint change for a drag from `from` to `to` (widget pixels) of `body`
  double jointDragDelta(int body, const QPoint& from, const QPoint& to, int h) {
    Vec3 o, a;
    bool rotational = true;
    if (!jointAxis(body, o, a, rotational)) return 0;
    const Vec2 os = toScreen(o, h);
    const Vec2 p0 = Vec2(from.x(), from.y()) - os, p1 = Vec2(to.x(), to.y()) - os;
    if (rotational) return sweptAngle(o, a, from, to, h);
    // along the axis: the mouse motion projected on the axis's screen direction
    const Vec2 as = toScreen(o + a, h) - os;
    if (as.squaredNorm() < 1e-9) return 0;
    return (p1 - p0).dot(as) / as.squaredNorm();
  }

  // the gizmo drag's motion from the press to widget point p, as x -> dragR x + dragT
  void dragMotion(const QPoint& p, const QPoint& press) {
    dragR.setIdentity();
    dragT.setZero();
    const Vec3& o = dragOrigin;
    if (dragPart.kind == GizmoPart::Kind::Arrow) {
      if (const std::optional<double> s = axisParameter(p)) dragT = (*s - dragS0) * dragAxes.col(dragPart.axis);
    } else if (dragPart.kind == GizmoPart::Kind::Ring) {
      const Vec3 a = dragAxes.col(dragPart.axis);
      dragR = Eigen::AngleAxisd(sweptAngle(o, a, press, p, widgetHeight), a).toRotationMatrix();
      dragT = o - dragR * o;
    } else if (dragPart.kind == GizmoPart::Kind::Centre) {
      dragT = planePoint(p, o) - dragPlane0;
    }
  }

  // where the mouse ray at p meets the plane through `point` facing the camera
  Vec3 planePoint(const QPoint& p, const Vec3& point) {
    return rayPlane(p, point, v3(view.renderer->GetActiveCamera()->GetDirectionOfProjection()));
  }

  // where the mouse ray at p meets the plane through `point` normal to `normal`
  Vec3 rayPlane(const QPoint& p, const Vec3& point, const Vec3& normal) {
    Vec3 e, dir;
    ray(p, e, dir);
    const double along = dir.dot(normal);
    if (std::abs(along) < 1e-12) return point;
    return e + dir * ((point - e).dot(normal) / along);
  }

  void render() {
    if (!native) return;
    placeHandle();  // the gizmo keeps its size on screen as the camera moves
    view.renderer->ResetCameraClippingRange();
    window->Render();
  }

  // pan by a fraction of the view height
  void pan(double fx, double fy) {
    vtkCamera* c = view.renderer->GetActiveCamera();
    const Vec3 pos = v3(c->GetPosition()), focus = v3(c->GetFocalPoint());
    const Vec3 up = v3(c->GetViewUp()).normalized();
    const Vec3 right = (focus - pos).cross(up).normalized();
    const double h = 2.0 * (focus - pos).norm() * std::tan(0.5 * c->GetViewAngle() * M_PI / 180);
    const Vec3 d = (-fx * right + fy * up) * h;
    c->SetFocalPoint(xyz(Vec3(focus + d)).data());
    c->SetPosition(xyz(Vec3(pos + d)).data());
  }
};

Viewport::Viewport(QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>()) {
  setAttribute(Qt::WA_NativeWindow);
  setAttribute(Qt::WA_PaintOnScreen);
  setAttribute(Qt::WA_NoSystemBackground);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(320, 240);
}

Viewport::~Viewport() {
  d->view.scene.reset();
  d->window->Finalize();
}

void Viewport::showEvent(QShowEvent*) {
  if (d->native) return;
  auto* x11 = qGuiApp->nativeInterface<QNativeInterface::QX11Application>();
  if (!x11) return;  // only X11 (and Xvfb) is supported
  d->window->SetDisplayId(x11->display());
  d->window->SetWindowId(reinterpret_cast<void*>(winId()));
  d->window->SetSize(width(), height());
  d->widgetHeight = std::max(1, height());
  d->native = true;
  d->view.frame(double(width()) / std::max(1, height()), true);
}

void Viewport::paintEvent(QPaintEvent*) { d->render(); }

void Viewport::resizeEvent(QResizeEvent*) {
  d->widgetHeight = std::max(1, height());
  if (!d->native) return;
  d->window->SetSize(width(), height());
  d->render();
}

void Viewport::setModel(const ModelSpec& spec, const Eigen::VectorXd& q) {
  // the first model frames the view; an edited one keeps the user's camera (resetView frames)
  const bool first = !d->view.scene;
  vtkNew<vtkCamera> keep;
  keep->DeepCopy(d->view.renderer->GetActiveCamera());
  d->spec = spec;
  d->view.load(spec);
  d->view.scene->setPose(q);
  // an edited model keeps its selection while the body exists
  if (first || d->selected >= d->view.scene->bodies()) d->selected = -1;
  d->view.scene->setHighlighted(d->selected);
  d->placeHandle();
  d->view.scene->setOverlayVisibility(d->overlays.bodyFrames, d->overlays.jointAxes,
                                      d->overlays.centresOfMass);
  d->view.scene->setSitesVisible(d->overlays.sites);
  d->view.scene->setCollisionGeomsVisible(d->overlays.collisionGeoms);
  d->view.scene->setTensionShading(d->overlays.constraintForces);
  d->view.scene->setAnnotations({}, d->overlays.bodyNames);
  if (first) d->view.frame(double(width()) / std::max(1, height()), true);
  else d->view.renderer->GetActiveCamera()->DeepCopy(keep);
  d->render();
}

void Viewport::setPose(const Eigen::VectorXd& q) {
  if (!d->view.scene) return;
  d->view.scene->setPose(q);
  d->view.track();
  d->render();
}

void Viewport::setBodyPoses(const std::vector<BodyPose>& poses) {
  if (!d->view.scene) return;
  d->view.scene->setPoses(poses);
  d->view.track();
  d->render();
}

void Viewport::setGhosts(const std::vector<ModelSpec>& specs, double opacity) {
  d->view.setGhosts(specs, opacity);
  d->render();
}

void Viewport::setGhostPose(int ghost, const Eigen::VectorXd& q) { d->view.setGhostPose(ghost, q); }


int Viewport::ghosts() const { return static_cast<int>(d->view.ghosts.size()); }

int Viewport::collisionGeomsShown() const { return d->view.scene ? d->view.scene->collisionGeomsShown() : 0; }

BodyPose Viewport::ghostPose(int ghost, int body) const {
  return d->view.ghosts.at(static_cast<std::size_t>(ghost))->pose(body);
}

void Viewport::setSegments(const std::vector<SegmentReport>& segments) {
  if (d->view.scene) d->view.scene->setSegments(segments);
}

std::vector<Vec3> Viewport::segmentPolyline(int k) const {
  return d->view.scene ? d->view.scene->segmentPolyline(k) : std::vector<Vec3>();
}

std::array<unsigned char, 3> Viewport::segmentColour(int k) const {
  return d->view.scene ? d->view.scene->segmentColour(k) : std::array<unsigned char, 3>{0, 0, 0};
}

std::vector<SegmentReport> Viewport::segments() const {
  return d->view.scene ? d->view.scene->segments() : std::vector<SegmentReport>{};
}

double Viewport::tensionScale() const { return d->view.scene ? d->view.scene->tensionScale() : 0.0; }

BodyPose Viewport::bodyPose(int body) const {
  if (!d->view.scene || body < 0 || body >= static_cast<int>(d->spec.bodies.size())) return {};
  return d->view.scene->pose(body);
}

void Viewport::setFramingPoints(std::vector<Vec3> points) { d->view.framingPoints = std::move(points); }

void Viewport::resetView() {
  d->view.frame(double(width()) / std::max(1, height()), true);
  d->render();
}

void Viewport::setStandardView(StandardView view) {
  if (!d->view.scene) return;
  switch (view) {
    case StandardView::Front: d->view.camera.direction = Vec3(0, -1, 0); break;
    case StandardView::Side: d->view.camera.direction = Vec3(1, 0, 0); break;
    case StandardView::Top: d->view.camera.direction = Vec3(0, 0, 1); break;
    case StandardView::Iso: d->view.camera.direction = Vec3(1, -1, 1).normalized(); break;
  }
  if (view == StandardView::Top) d->view.camera.up = Vec3::UnitY();
  else d->view.camera.up = resolveCamera(d->spec).up;
  // planar models seen from above their plane
  resetView();
}

void Viewport::setOverlays(const Overlays& o) {
  d->overlays = o;
  if (d->view.scene) {
    d->view.scene->setOverlayVisibility(o.bodyFrames, o.jointAxes, o.centresOfMass);
    d->view.scene->setSitesVisible(o.sites);
    d->view.scene->setCollisionGeomsVisible(o.collisionGeoms);
    d->view.scene->setTensionShading(o.constraintForces);
    d->view.scene->setAnnotations(d->view.scene->annotations(), o.bodyNames);
  }
  d->render();
}

void Viewport::setAnnotations(const Annotations& annotations) {
  if (d->view.scene) d->view.scene->setAnnotations(annotations, d->overlays.bodyNames);
}

const Annotations& Viewport::annotations() const {
  static const Annotations none;
  return d->view.scene ? d->view.scene->annotations() : none;
}

double Viewport::forceScale() const { return d->view.scene ? d->view.scene->forceScale() : 0.0; }

QString Viewport::forceLegend() const {
  return d->view.scene ? QString::fromStdString(d->view.scene->forceLegend()) : QString();
}

Overlays Viewport::overlays() const { return d->overlays; }

void Viewport::setSelectedBody(int body) {
  d->selected = body;
  if (d->view.scene) d->view.scene->setHighlighted(body);
  if (!d->handleDragging) d->placeHandle();
  d->render();
}

void Viewport::setTransformHandle(bool on) {
  d->handleOn = on;
  setMouseTracking(on);  // the hint of what a drag will do follows the mouse
  d->placeHandle();
  d->render();
}

bool Viewport::transformHandle() const { return d->handleOn; }

int Viewport::selectedBody() const { return d->selected; }

ViewState Viewport::viewState() const { return d->view.state(); }

void Viewport::setInfoText(const QString& text) {
  d->infoText = text;
  if (!d->info) {
    if (text.isEmpty()) return;
    d->info = vtkSmartPointer<vtkTextActor>::New();
    vtkTextProperty* p = d->info->GetTextProperty();
    p->SetFontFamilyToCourier();
    p->SetFontSize(15);
    p->SetColor(1.0, 1.0, 1.0);
    p->SetShadow(1);  // readable over the light floor as over the dark sky
    p->SetVerticalJustificationToTop();
    p->SetJustificationToLeft();
    d->view.renderer->AddActor2D(d->info);
  }
  d->info->SetVisibility(!text.isEmpty());
  d->info->SetInput(text.toUtf8().constData());
  d->info->SetDisplayPosition(10, std::max(0, height() - 10));
}

QString Viewport::infoText() const { return d->infoText; }

void Viewport::setViewState(const ViewState& state) {
  d->view.setState(state);
  d->render();
}

CameraSpec Viewport::currentCamera() const {
  CameraSpec c = d->spec.camera;
  vtkCamera* cam = d->view.renderer->GetActiveCamera();
  const Vec3 pos = v3(cam->GetPosition()), focus = v3(cam->GetFocalPoint());
  c.direction = (pos - focus).normalized();
  c.up = v3(cam->GetViewUp());
  c.zoom = d->view.defaultDistance / std::max(1e-12, (pos - focus).norm()) * d->view.camera.zoom;
  return c;
}

std::optional<Pick> Viewport::pickAt(const QPoint& position) {
  if (!d->view.scene || !d->native) return std::nullopt;
  if (!d->picker->Pick(position.x(), height() - 1 - position.y(), 0, d->view.renderer)) return std::nullopt;
  const int body = d->view.scene->bodyOf(d->picker->GetActor(), d->picker->GetCellId());
  if (body < -1) return std::nullopt;
  Pick p;
  p.body = body;
  p.hit = true;
  const Vec3 world = v3(d->picker->GetPickPosition());
  Vec3 normal = v3(d->picker->GetPickNormal());
  // towards the camera: a flat face's normal may point either way
  const Vec3 eye = v3(d->view.renderer->GetActiveCamera()->GetPosition());
  if (normal.dot(eye - world) < 0) normal = -normal;
  normal = normal.norm() > 0 ? Vec3(normal.normalized()) : Vec3::UnitZ();
  if (body >= 0) {
    const BodyPose& pose = d->view.scene->pose(body);
    p.point = pose.rotation.transpose() * (world - pose.position);
    p.normal = pose.rotation.transpose() * normal;
  } else {
    p.point = world;
    p.normal = normal;
  }
  return p;
}

QPoint Viewport::widgetPoint(const Vec3& world) {
  vtkRenderer* r = d->view.renderer;
  r->SetWorldPoint(world.x(), world.y(), world.z(), 1.0);
  r->WorldToDisplay();
  const double* display = r->GetDisplayPoint();
  // display y runs up from the bottom (the inverse of pickAt's mapping)
  return QPoint(static_cast<int>(std::lround(display[0])),
                static_cast<int>(std::lround(height() - 1 - display[1])));
}

GizmoPart Viewport::gizmoPartAt(const QPoint& position) {
  if (!d->handleOn || !d->gizmo->visible()) return {};
  return d->gizmo->partAt(Vec2(position.x(), position.y()), [this](const Vec3& x) { return d->widgetOf(x); });
}

QPoint Viewport::gizmoPoint(const GizmoPart& part) {
  d->widgetHeight = std::max(1, height());
  d->placeHandle();
  if (!d->gizmo->shown(part)) return {-1, -1};
  // the part's preferred point, else the first point of its drawing that grabs it (another part
  // may be drawn over some of it from this view)
  const Vec3 eye = v3(d->view.renderer->GetActiveCamera()->GetPosition());
  const QPoint preferred = widgetPoint(d->gizmo->grabPoint(part, eye));
  if (gizmoPartAt(preferred) == part) return preferred;
  for (int i = 0; i < 96; ++i) {
    const QPoint at = widgetPoint(d->gizmo->partPoint(part, i / 95.0));
    if (gizmoPartAt(at) == part) return at;
  }
  return preferred;
}

QString Viewport::dragHint(const GizmoPart& part, const QPoint& position) {
  const QString name = d->selected >= 0 && d->selected < static_cast<int>(d->spec.bodies.size())
                           ? QString::fromStdString(d->spec.bodies[static_cast<std::size_t>(d->selected)].name)
                           : QString();
  const char* axis[3] = {"x", "y", "z"};
  switch (part.kind) {
    case GizmoPart::Kind::Arrow:
      return tr("Drag: move '%1' along its joint frame's %2 axis (Ctrl: 1 cm steps)").arg(name, axis[part.axis]);
    case GizmoPart::Kind::Ring:
      return tr("Drag: turn '%1' about its joint frame's %2 axis (Ctrl: 15 degree steps)").arg(name, axis[part.axis]);
    case GizmoPart::Kind::Centre:
      return tr("Drag: move '%1' in the view's plane (Ctrl: 1 cm steps)").arg(name);
    case GizmoPart::Kind::None: break;
  }
  const std::optional<Pick> p = pickAt(position);
  if (p && p->body >= 0 && p->body < static_cast<int>(d->spec.bodies.size())) {
    const QString body = QString::fromStdString(d->spec.bodies[static_cast<std::size_t>(p->body)].name);
    if (hasQuaternion(d->spec.bodies[static_cast<std::size_t>(p->body)].joint.type))
      return tr("Click: select '%1'").arg(body);
    return tr("Drag: turn '%1' about its joint (its initial position); click: select it").arg(body);
  }
  return name.isEmpty() ? tr("Move: click a body to select it and show its handles")
                        : tr("Move '%1': drag an arrow to move it, a ring to turn it; drag the background to turn the view").arg(name);
}

void Viewport::setTurntable(bool on) { d->turntable = on; }
bool Viewport::turntable() const { return d->turntable; }

void Viewport::setPerturbable(bool on) { d->perturbable = on; }
bool Viewport::perturbable() const { return d->perturbable; }

Vec3 Viewport::dragPlanePoint(const QPoint& position, const Vec3& point) {
  return rayPlanePoint(position, point, v3(d->view.renderer->GetActiveCamera()->GetDirectionOfProjection()));
}

Vec3 Viewport::rayPlanePoint(const QPoint& position, const Vec3& point, const Vec3& normal) {
  d->widgetHeight = std::max(1, height());
  return d->rayPlane(position, point, normal);
}

void Viewport::mousePressEvent(QMouseEvent* e) {
  d->pressPos = d->lastPos = e->pos();
  d->button = e->button();
  d->modifiers = e->modifiers();
  setFocus();
  d->widgetHeight = std::max(1, height());
  const GizmoPart part = e->button() == Qt::LeftButton ? gizmoPartAt(e->pos()) : GizmoPart{};
  const bool onHandle = part.kind != GizmoPart::Kind::None;
  // the transform handle first (Ctrl snaps it), then Ctrl+drag pulls a body
  if (!onHandle && e->button() == Qt::LeftButton && d->perturbable &&
      (e->modifiers() & Qt::ControlModifier)) {
    const std::optional<Pick> p = pickAt(e->pos());
    if (p && p->body >= 0) {
      const BodyPose& pose = d->view.scene->pose(p->body);
      d->grabBody = p->body;
      d->grabPoint = p->point;
      d->grabWorld = pose.position + pose.rotation * p->point;
      d->grabTorque = e->modifiers() & Qt::ShiftModifier;
      emit perturbationDragged(d->grabBody, d->grabPoint, d->grabWorld, d->grabTorque, false);
      return;
    }
  }
  if (onHandle) {
    d->dragPart = part;
    d->dragOrigin = d->gizmo->origin();
    d->dragAxes = d->gizmo->axes();
    d->dragR.setIdentity();
    d->dragT.setZero();
    d->dragPlane0 = d->planePoint(e->pos(), d->dragOrigin);
    d->dragS0 = 0;
    if (part.kind == GizmoPart::Kind::Arrow) d->dragS0 = d->axisParameter(e->pos()).value_or(0.0);
    d->handleDragging = true;
    d->gizmo->highlight(part);
  } else if (e->button() == Qt::LeftButton && d->handleOn && !(e->modifiers() & Qt::ShiftModifier)) {
    const std::optional<Pick> p = pickAt(e->pos());
    if (p && p->body >= 0) {
      d->jointDragBody = p->body;
      d->jointDelta = 0;
    }
  }
}

void Viewport::mouseMoveEvent(QMouseEvent* e) {
  if (d->grabBody >= 0) {
    emit perturbationDragged(d->grabBody, d->grabPoint, dragPlanePoint(e->pos(), d->grabWorld),
                             d->grabTorque, false);
    return;
  }
  if (d->handleDragging) {
    d->modifiers = e->modifiers();
    d->dragMotion(e->pos(), d->pressPos);
    emit handleDragged(d->selected, d->dragR, d->dragT, e->modifiers() & Qt::ControlModifier, false);
    d->render();
    return;
  }
  if (d->button == Qt::NoButton && d->handleOn) {  // hovering: say what a drag would do
    const GizmoPart part = gizmoPartAt(e->pos());
    if (part != d->gizmo->highlighted()) {
      d->gizmo->highlight(part);
      d->render();
    }
    emit hint(dragHint(part, e->pos()));
    return;
  }
  if (d->jointDragBody >= 0) {
    d->jointDelta = d->jointDragDelta(d->jointDragBody, d->pressPos, e->pos(), height());
    emit jointDragged(d->jointDragBody, d->jointDelta, false);
    return;
  }
  if (d->button == Qt::NoButton || !d->view.scene) return;
  const QPoint delta = e->pos() - d->lastPos;
  d->lastPos = e->pos();
  vtkCamera* c = d->view.renderer->GetActiveCamera();
  const bool panning = d->button == Qt::MiddleButton ||
                       (d->button == Qt::LeftButton && (d->modifiers & Qt::ShiftModifier));
  if (panning) {
    d->pan(double(delta.x()) / height(), double(delta.y()) / height());
  } else if (d->button == Qt::LeftButton && d->turntable) {
    // turntable: about the model's vertical and the horizontal across the view; the horizon
    // stays level
    const double k = M_PI / std::max(1, std::min(width(), height()));
    const Vec3 eye = turntableOrbit(v3(c->GetPosition()), v3(c->GetFocalPoint()), d->view.camera.up,
                                    -delta.x() * k, delta.y() * k);
    c->SetPosition(eye.data());
    c->SetViewUp(d->view.camera.up.data());
    c->OrthogonalizeViewUp();
  } else if (d->button == Qt::LeftButton) {
    // trackball inside 80% of the ball, spin outside
    const QPointF centre(width() / 2.0, height() / 2.0);
    const QPointF p0 = QPointF(d->pressPos) - centre;
    const double ball = 0.8 * 0.5 * std::min(width(), height());
    if (std::hypot(p0.x(), p0.y()) < ball) {
      const double k = 180.0 / std::max(1, std::min(width(), height()));
      c->Azimuth(-delta.x() * k);
      c->Elevation(delta.y() * k);
      c->OrthogonalizeViewUp();
    } else {
      const QPointF a = QPointF(e->pos() - delta) - centre, b = QPointF(e->pos()) - centre;
      const double angle = std::atan2(a.x() * b.y() - a.y() * b.x(), a.x() * b.x() + a.y() * b.y());
      c->Roll(angle * 180.0 / M_PI);
    }
  }
  d->render();
}

void Viewport::mouseReleaseEvent(QMouseEvent* e) {
  if (d->grabBody >= 0) {
    const int body = d->grabBody;
    d->grabBody = -1;
    d->button = Qt::NoButton;
    emit perturbationDragged(body, d->grabPoint, dragPlanePoint(e->pos(), d->grabWorld),
                             d->grabTorque, true);
    return;
  }
  if (d->handleDragging) {
    d->dragMotion(e->pos(), d->pressPos);
    d->handleDragging = false;
    d->button = Qt::NoButton;
    const Mat3 R = d->dragR;
    const Vec3 t = d->dragT;
    d->gizmo->highlight(gizmoPartAt(e->pos()));
    emit handleDragged(d->selected, R, t, e->modifiers() & Qt::ControlModifier, true);
    d->render();  // the gizmo on the joint frame where it now is
    return;
  }
  if (d->jointDragBody >= 0) {
    const int body = d->jointDragBody;
    const bool moved = (e->pos() - d->pressPos).manhattanLength() >= 4;
    d->jointDragBody = -1;
    d->button = Qt::NoButton;
    if (moved) {
      emit jointDragged(body, d->jointDragDelta(body, d->pressPos, e->pos(), height()), true);
      return;
    }
    emit jointDragged(body, 0.0, true);  // a click: nothing turned; it selects below
  }
  const bool click = (e->pos() - d->pressPos).manhattanLength() < 4 && d->button == Qt::LeftButton;
  d->button = Qt::NoButton;
  if (!click) return;
  const std::optional<Pick> p = pickAt(e->pos());
  setSelectedBody(p ? p->body : -1);
  emit bodyPicked(p ? *p : Pick{});
}

void Viewport::wheelEvent(QWheelEvent* e) {
  const double count = e->angleDelta().y() / 120.0;
  const double factor = count >= 0 ? 1 + count / 8 : 1 / (1 - count / 8);
  d->view.renderer->GetActiveCamera()->Dolly(factor);
  d->render();
}

std::vector<std::pair<QString, QString>> Viewport::keyBindings() {
  return {{tr("Left drag"), tr("Turn the view (a turntable; View > Trackball Camera: a trackball)")},
          {tr("Shift+left drag, middle drag"), tr("Pan")},
          {tr("Wheel"), tr("Zoom")},
          {tr("Click"), tr("Select a body")},
          {tr("Ctrl+drag"), tr("While simulating: pull a body towards the mouse (Ctrl+Shift+drag: turn it)")},
          {tr("Arrows"), tr("Pan")},
          {tr("Shift+arrows"), tr("Turn the view 3 degrees")},
          {tr("Ctrl+Left, Ctrl+Right"), tr("Roll the view 2 degrees")},
          {tr("z, Z"), tr("Zoom out, in")},
          {tr("i"), tr("Reset the view")},
          {tr("l, L"), tr("Headlight dimmer, brighter")},
          {tr("o, O"), tr("Overhead light dimmer, brighter")}};
}

void Viewport::keyPressEvent(QKeyEvent* e) {
  vtkCamera* c = d->view.renderer->GetActiveCamera();
  const bool shift = e->modifiers() & Qt::ShiftModifier, ctrl = e->modifiers() & Qt::ControlModifier;
  const QString text = e->text();
  switch (e->key()) {
    case Qt::Key_Left:
      if (ctrl) c->Roll(-2);
      else if (shift) c->Azimuth(-3);
      else d->pan(-0.05, 0);
      break;
    case Qt::Key_Right:
      if (ctrl) c->Roll(2);
      else if (shift) c->Azimuth(3);
      else d->pan(0.05, 0);
      break;
    case Qt::Key_Up:
      if (shift) c->Elevation(3), c->OrthogonalizeViewUp();
      else d->pan(0, 0.05);
      break;
    case Qt::Key_Down:
      if (shift) c->Elevation(-3), c->OrthogonalizeViewUp();
      else d->pan(0, -0.05);
      break;
    default:
      if (text == "z") c->Dolly(1 / 1.02);
      else if (text == "Z") c->Dolly(1.02);
      else if (text == "i") return resetView();
      else if (text == "l") d->view.headLevel = std::max(0, d->view.headLevel - 1), d->view.updateLights();
      else if (text == "L") d->view.headLevel = std::min(11, d->view.headLevel + 1), d->view.updateLights();
      else if (text == "o") d->view.overheadLevel = std::max(0, d->view.overheadLevel - 1), d->view.updateLights();
      else if (text == "O") d->view.overheadLevel = std::min(11, d->view.overheadLevel + 1), d->view.updateLights();
      else return QWidget::keyPressEvent(e);
  }
  d->render();
}

struct OffscreenView::Impl {
  vtkNew<vtkRenderWindow> window;
  SceneView view;
  Overlays overlays;
  double aspect = 1.0;
};

// Debian's VTK renders through an X window and aborts the process (signal 6) when it cannot
// open the display: the view says so first, in one line
OffscreenView::OffscreenView(const ModelSpec& spec, int width, int height)
    : d((requireXDisplay(), std::make_unique<Impl>())) {
  if (width < 1 || height < 1 || width > 16384 || height > 16384)
    throw std::invalid_argument("image size must be from 1x1 to 16384x16384");
  d->window->SetOffScreenRendering(1);
  d->window->SetMultiSamples(0);  // software GL: 8x MSAA costs more than the whole scene
  d->window->SetSize(width, height);
  d->aspect = double(width) / height;
  d->window->SetNumberOfLayers(2);
  d->window->AddRenderer(d->view.renderer);
  d->window->AddRenderer(d->view.overlay);
  d->view.load(spec);
  d->view.frame(d->aspect);
}

OffscreenView::~OffscreenView() {
  d->view.scene.reset();
  d->window->Finalize();
}

void OffscreenView::setPose(const Eigen::VectorXd& q, bool reframe) {
  d->view.scene->setPose(q);
  if (reframe)
    d->view.frame(d->aspect);
  else
    d->view.track();
}

void OffscreenView::setGhosts(const std::vector<ModelSpec>& specs, double opacity) {
  d->view.setGhosts(specs, opacity);
}

void OffscreenView::setGhostPose(int ghost, const Eigen::VectorXd& q) { d->view.setGhostPose(ghost, q); }

void OffscreenView::setBodyPoses(const std::vector<BodyPose>& poses, bool reframe) {
  d->view.scene->setPoses(poses);
  if (reframe)
    d->view.frame(d->aspect);
  else
    d->view.track();
}

void OffscreenView::setSegments(const std::vector<SegmentReport>& segments) {
  d->view.scene->setSegments(segments);
}

void OffscreenView::setOverlays(const Overlays& o) {
  d->overlays = o;
  d->view.scene->setOverlayVisibility(o.bodyFrames, o.jointAxes, o.centresOfMass);
  d->view.scene->setSitesVisible(o.sites);
  d->view.scene->setCollisionGeomsVisible(o.collisionGeoms);
  d->view.scene->setTensionShading(o.constraintForces);
  d->view.scene->setAnnotations(d->view.scene->annotations(), o.bodyNames);
}

void OffscreenView::setAnnotations(const Annotations& annotations) {
  d->view.scene->setAnnotations(annotations, d->overlays.bodyNames);
}

int OffscreenView::coarseShapes() const { return d->view.scene ? d->view.scene->coarseCount() : 0; }

void OffscreenView::render() {
  d->view.renderer->ResetCameraClippingRange();
  d->window->Render();
}

void OffscreenView::savePng(const QString& path) {
  // written atomically (QSaveFile: a temporary file renamed over the target on commit), so an
  // existing image is replaced whole or not at all
  const QImage frame = image();
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || !frame.save(&file, "PNG") || !file.commit())
    throw std::runtime_error("cannot write '" + path.toStdString() + "': " +
                             file.errorString().toStdString());
}

QImage OffscreenView::image() {
  render();
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(d->window);
  grab->ReadFrontBufferOff();
  grab->SetInputBufferTypeToRGB();
  grab->Update();
  vtkImageData* img = grab->GetOutput();
  int dims[3];
  img->GetDimensions(dims);
  QImage out(dims[0], dims[1], QImage::Format_RGB888);
  const auto* src = static_cast<const unsigned char*>(img->GetScalarPointer());
  for (int y = 0; y < dims[1]; ++y)  // VTK's rows run bottom-up
    std::memcpy(out.scanLine(dims[1] - 1 - y), src + std::size_t(y) * dims[0] * 3,
                std::size_t(dims[0]) * 3);
  return out;
}

void OffscreenView::setViewState(const ViewState& state) { d->view.setState(state); }

struct OggVideoWriter::Impl {
  vtkNew<vtkOggTheoraWriter> writer;
  vtkNew<vtkImageData> frame;
  int width = 0, height = 0;
  bool open = false;
};

OggVideoWriter::OggVideoWriter(const QString& path, int width, int height, double fps)
    : d(std::make_unique<Impl>()) {
  if (width < 2 || height < 2 || width % 2 || height % 2)
    throw std::invalid_argument("an Ogg Theora video needs an even width and height");
  d->width = width;
  d->height = height;
  d->frame->SetDimensions(width, height, 1);
  d->frame->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
  const QByteArray file = path.toLocal8Bit();
  d->writer->SetFileName(file.constData());
  d->writer->SetRate(std::max(1, static_cast<int>(std::lround(fps))));
  d->writer->SetQuality(2);
  d->writer->SetInputData(d->frame);
  d->writer->Start();
  if (d->writer->GetError())
    throw std::runtime_error("cannot write '" + path.toStdString() + "'");
  d->open = true;
}

OggVideoWriter::~OggVideoWriter() { finish(); }

void OggVideoWriter::addFrame(const QImage& image) {
  if (!d->open) return;
  QImage f = image.convertToFormat(QImage::Format_RGB888);
  if (f.width() != d->width || f.height() != d->height)
    f = f.scaled(d->width, d->height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  auto* dst = static_cast<unsigned char*>(d->frame->GetScalarPointer());
  for (int y = 0; y < d->height; ++y)
    std::memcpy(dst + std::size_t(y) * d->width * 3, f.constScanLine(d->height - 1 - y),
                std::size_t(d->width) * 3);
  d->frame->Modified();
  d->writer->Write();
}

void OggVideoWriter::finish() {
  if (!d->open) return;
  d->writer->End();
  d->open = false;
}

void Viewport::renderToPng(const ModelSpec& spec, const Eigen::VectorXd& q, int width, int height,
                           const QString& path) {
  OffscreenView view(spec, width, height);
  view.setPose(q, true);
  view.savePng(path);
}

}  // namespace art::gui
