// The Move tool's gizmo (see gizmo.h).
#include "viewport/gizmo.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <vtkActor.h>
#include <vtkConeSource.h>
#include <vtkLineSource.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkSphereSource.h>

namespace art::gui {

namespace {

constexpr double kRing = 0.8;          // ring radius / arrow length
constexpr double kBall = 0.12;         // ball radius / arrow length
constexpr double kArrowStart = 0.2;    // the arrow's shaft starts this far out (the ball's)
constexpr double kBallPixels = 11;     // grab tolerances on screen
constexpr double kArrowPixels = 8;
constexpr double kRingPixels = 7;
constexpr int kRingPoints = 64;
constexpr double kEndOn = 0.96;   // |cos| between an arrow and the view beyond which it is hidden
constexpr double kEdgeOn = 0.2;   // |cos| between a ring's axis and the view below which it is hidden

const std::array<std::array<double, 3>, 3> kAxisColours = {{{0.86, 0.2, 0.2}, {0.24, 0.7, 0.24}, {0.24, 0.36, 0.9}}};
const std::array<double, 3> kHighlight = {1.0, 0.85, 0.0};
const std::array<double, 3> kBallColour = {0.95, 0.95, 0.95};

void setColour(vtkActor* actor, const std::array<double, 3>& c) { actor->GetProperty()->SetColor(c[0], c[1], c[2]); }

vtkSmartPointer<vtkActor> actorOf(vtkAlgorithm* source, const std::array<double, 3>& colour, double width) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(source->GetOutputPort());
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  setColour(actor, colour);
  actor->GetProperty()->SetLineWidth(static_cast<float>(width));
  actor->GetProperty()->LightingOff();  // flat colours read at any angle
  actor->PickableOff();
  actor->VisibilityOff();
  return actor;
}

// the distance from p to the segment a-b (screen pixels)
double segmentDistance(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double s = len2 > 0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  return (a + s * ab - p).norm();
}

// unit vectors spanning the plane normal to axis k of the identity frame
void ringBasis(int k, Vec3& u, Vec3& v) {
  u = Vec3::Unit((k + 1) % 3);
  v = Vec3::Unit((k + 2) % 3);
}

}  // namespace

struct MoveGizmo::Impl {
  vtkRenderer* overlay;
  // built once in the frame's own coordinates (unit arrows along x, y, z); place() moves them
  // all with one matrix
  std::array<vtkSmartPointer<vtkActor>, 3> shafts, tips, rings;
  vtkSmartPointer<vtkActor> ball;
  vtkNew<vtkMatrix4x4> matrix;

  explicit Impl(vtkRenderer* r) : overlay(r) {
    for (int k = 0; k < 3; ++k) {
      vtkNew<vtkLineSource> line;
      const Vec3 a = Vec3::Unit(k);
      line->SetPoint1((kArrowStart * a).eval().data());
      line->SetPoint2((0.82 * a).eval().data());
      shafts[k] = actorOf(line, kAxisColours[k], 3);
      vtkNew<vtkConeSource> cone;
      cone->SetResolution(20);
      cone->SetHeight(0.2);
      cone->SetRadius(0.07);
      cone->SetCenter((0.9 * a).eval().data());
      cone->SetDirection(a.data());
      tips[k] = actorOf(cone, kAxisColours[k], 1);
      vtkNew<vtkRegularPolygonSource> circle;
      circle->GeneratePolygonOff();
      circle->SetNumberOfSides(kRingPoints);
      circle->SetRadius(kRing);
      circle->SetNormal(a.data());
      rings[k] = actorOf(circle, kAxisColours[k], 2.5);
    }
    vtkNew<vtkSphereSource> sphere;
    sphere->SetRadius(kBall);
    sphere->SetThetaResolution(20);
    sphere->SetPhiResolution(12);
    ball = actorOf(sphere, kBallColour, 1);
    for (auto* list : {&shafts, &tips, &rings})
      for (auto& a : *list) {
        a->SetUserMatrix(matrix);
        overlay->AddActor(a);
      }
    ball->SetUserMatrix(matrix);
    overlay->AddActor(ball);
  }
  ~Impl() {
    for (auto* list : {&shafts, &tips, &rings})
      for (auto& a : *list) overlay->RemoveActor(a);
    overlay->RemoveActor(ball);
  }
  void setVisible(bool on) {
    for (auto* list : {&shafts, &tips, &rings})
      for (auto& a : *list) a->SetVisibility(on);
    ball->SetVisibility(on);
  }
};

MoveGizmo::MoveGizmo(vtkRenderer* overlay) : d(std::make_unique<Impl>(overlay)) {}

MoveGizmo::~MoveGizmo() = default;

void MoveGizmo::place(const Vec3& origin, const Mat3& axes, double length, const Vec3& eye) {
  m_origin = origin;
  m_axes = axes;
  m_length = length;
  const Vec3 view = (origin - eye).normalized();
  for (int k = 0; k < 3; ++k) {
    const double along = std::abs(view.dot(axes.col(k)));
    m_arrowShown[k] = along < kEndOn;   // an arrow pointing at the eye is a dot
    m_ringShown[k] = along > kEdgeOn;   // a ring whose plane holds the eye is a line
  }
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) d->matrix->SetElement(r, c, axes(r, c) * length);
    d->matrix->SetElement(r, 3, origin(r));
  }
  d->matrix->Modified();
  d->setVisible(true);
  for (int k = 0; k < 3; ++k) {
    d->shafts[k]->SetVisibility(m_arrowShown[k]);
    d->tips[k]->SetVisibility(m_arrowShown[k]);
    d->rings[k]->SetVisibility(m_ringShown[k]);
  }
  m_visible = true;
}

void MoveGizmo::hide() {
  d->setVisible(false);
  m_visible = false;
  highlight({});
}

bool MoveGizmo::shown(const GizmoPart& part) const {
  if (!m_visible) return false;
  if (part.kind == GizmoPart::Kind::Arrow) return m_arrowShown[part.axis];
  if (part.kind == GizmoPart::Kind::Ring) return m_ringShown[part.axis];
  return part.kind == GizmoPart::Kind::Centre;
}

void MoveGizmo::highlight(const GizmoPart& part) {
  m_highlight = part;
  for (int k = 0; k < 3; ++k) {
    const bool arrow = part.kind == GizmoPart::Kind::Arrow && part.axis == k;
    const bool ring = part.kind == GizmoPart::Kind::Ring && part.axis == k;
    setColour(d->shafts[k], arrow ? kHighlight : kAxisColours[k]);
    setColour(d->tips[k], arrow ? kHighlight : kAxisColours[k]);
    setColour(d->rings[k], ring ? kHighlight : kAxisColours[k]);
    d->rings[k]->GetProperty()->SetLineWidth(ring ? 4.0f : 2.5f);
    d->shafts[k]->GetProperty()->SetLineWidth(arrow ? 5.0f : 3.0f);
  }
  setColour(d->ball, part.kind == GizmoPart::Kind::Centre ? kHighlight : kBallColour);
}

GizmoPart MoveGizmo::partAt(const Vec2& p, const std::function<Vec2(const Vec3&)>& toWidget) const {
  if (!m_visible) return {};
  const Vec2 centre = toWidget(m_origin);
  // the ball: its projected radius, at least the tolerance
  const Vec3 side = m_axes.col(0).cross(m_axes.col(1)).normalized();
  const double ballPixels = std::max(kBallPixels, (toWidget(m_origin + kBall * m_length * side) - centre).norm());
  if ((p - centre).norm() <= ballPixels) return {GizmoPart::Kind::Centre, 0};
  GizmoPart best;
  double bestDistance = 1e300;
  for (int k = 0; k < 3; ++k) {
    const Vec3 a = m_axes.col(k);
    const double arrow = !m_arrowShown[k] ? 1e300 : segmentDistance(p, toWidget(m_origin + kArrowStart * m_length * a),
                                         toWidget(m_origin + m_length * a));
    if (arrow <= kArrowPixels && arrow < bestDistance) {
      best = {GizmoPart::Kind::Arrow, k};
      bestDistance = arrow;
    }
    if (!m_ringShown[k]) continue;
    Vec2 previous = toWidget(partPoint({GizmoPart::Kind::Ring, k}, 0));
    for (int i = 1; i <= kRingPoints; ++i) {
      const Vec2 next = toWidget(partPoint({GizmoPart::Kind::Ring, k}, double(i) / kRingPoints));
      const double ring = segmentDistance(p, previous, next);
      if (ring <= kRingPixels && ring < bestDistance) {
        best = {GizmoPart::Kind::Ring, k};
        bestDistance = ring;
      }
      previous = next;
    }
  }
  return best;
}

Vec3 MoveGizmo::partPoint(const GizmoPart& part, double s) const {
  if (part.kind == GizmoPart::Kind::Arrow)
    return m_origin + (kArrowStart + (1 - kArrowStart) * s) * m_length * m_axes.col(part.axis);
  if (part.kind != GizmoPart::Kind::Ring) return m_origin;
  Vec3 u, v;
  ringBasis(part.axis, u, v);
  const double angle = 2 * M_PI * s;
  return m_origin + kRing * m_length * (m_axes * (std::cos(angle) * u + std::sin(angle) * v));
}

Vec3 MoveGizmo::grabPoint(const GizmoPart& part, const Vec3& eye) const {
  if (part.kind == GizmoPart::Kind::Arrow) return m_origin + 0.7 * m_length * m_axes.col(part.axis);
  if (part.kind != GizmoPart::Kind::Ring) return m_origin;
  // of the four points halfway between the other axes' arrows, the one nearest the eye
  Vec3 u, v;
  ringBasis(part.axis, u, v);
  u = m_axes * u;
  v = m_axes * v;
  Vec3 best = (u + v).normalized();
  for (const Vec3& w : {Vec3((u - v).normalized()), Vec3((-u + v).normalized()), Vec3((-u - v).normalized())})
    if (w.dot(eye - m_origin) > best.dot(eye - m_origin)) best = w;
  return m_origin + kRing * m_length * best;
}

}  // namespace art::gui
