// The force overlays' actors (see annotation_layer.h).
#include "viewport/annotation_layer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCoordinate.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

namespace art::gui {

namespace {

// 1, 2 or 5 times a power of ten, at most x (x > 0)
double roundDown125(double x) {
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  const double m = x / p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

std::string lengthText(double metres) {
  char buf[64];
  if (metres >= 1) std::snprintf(buf, sizeof buf, "%g m", metres);
  else if (metres >= 0.01) std::snprintf(buf, sizeof buf, "%g cm", metres * 100);
  else std::snprintf(buf, sizeof buf, "%g mm", metres * 1000);
  return buf;
}

std::array<unsigned char, 3> colourOf(ForceArrow::Kind kind) {
  switch (kind) {
    case ForceArrow::Kind::ContactNormal: return {255, 214, 30};    // yellow
    case ForceArrow::Kind::ContactFriction: return {40, 200, 255};  // sky blue
    case ForceArrow::Kind::Constraint: return {240, 80, 230};       // magenta
    case ForceArrow::Kind::Perturbation: return {80, 240, 90};      // green, as the spring
  }
  return {255, 255, 255};
}

// trails, one colour each in turn
constexpr unsigned char kTrailColours[][3] = {
    {255, 140, 0}, {0, 200, 255}, {255, 60, 160}, {150, 255, 60}, {200, 160, 255}};

vtkSmartPointer<vtkActor> lineActor(vtkPolyData* data, double width, bool cellColours) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(data);
  mapper->ScalarVisibilityOn();
  if (cellColours) mapper->SetScalarModeToUseCellData();
  else mapper->SetScalarModeToUsePointData();
  mapper->SetColorModeToDirectScalars();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetLineWidth(static_cast<float>(width));
  actor->GetProperty()->LightingOff();
  actor->PickableOff();
  return actor;
}

vtkSmartPointer<vtkUnsignedCharArray> colourArray(int components) {
  auto a = vtkSmartPointer<vtkUnsignedCharArray>::New();
  a->SetNumberOfComponents(components);
  a->SetName("colours");
  return a;
}

}  // namespace

double forceScaleFor(double size, double weight, std::string* legend) {
  if (!(size > 0) || !std::isfinite(size)) size = 1.0;
  if (!(weight > 0) || !std::isfinite(weight)) weight = 1.0;
  const double scale = roundDown125(0.5 * size / weight);
  if (legend) {
    const double length = roundDown125(0.1 * size);
    char force[64];
    std::snprintf(force, sizeof force, "%.3g N", length / scale);
    *legend = "Force arrows: " + lengthText(length) + " = " + force;
  }
  return scale;
}

AnnotationLayer::AnnotationLayer(vtkRenderer* renderer, std::vector<std::string> names,
                                 std::vector<Vec3> coms, double size, double weight,
                                 const Vec3& down)
    : m_renderer(renderer), m_names(std::move(names)), m_coms(std::move(coms)),
      m_size(size > 0 && std::isfinite(size) ? size : 1.0),
      m_down(down.norm() > 0 ? Vec3(down.normalized()) : Vec3::Zero()) {
  m_scale = forceScaleFor(m_size, weight, &m_legend);
  for (auto* data : {&m_arrows, &m_points, &m_trails}) {
    *data = vtkSmartPointer<vtkPolyData>::New();
    (*data)->SetPoints(vtkSmartPointer<vtkPoints>::New());
  }
  m_arrowActor = lineActor(m_arrows, 3, true);
  m_pointActor = lineActor(m_points, 11, true);
  m_pointActor->GetProperty()->SetPointSize(11);
  m_pointActor->GetProperty()->RenderPointsAsSpheresOn();
  m_trailActor = lineActor(m_trails, 2.5, false);
  vtkNew<vtkSphereSource> sphere;
  sphere->SetRadius(0.035 * m_size);
  sphere->SetThetaResolution(16);
  sphere->SetPhiResolution(8);
  vtkNew<vtkPolyDataMapper> comMapper;
  comMapper->SetInputConnection(sphere->GetOutputPort());
  m_comActor = vtkSmartPointer<vtkActor>::New();
  m_comActor->SetMapper(comMapper);
  m_comActor->GetProperty()->SetColor(1.0, 0.45, 0.0);
  m_comActor->PickableOff();
  m_legendActor = vtkSmartPointer<vtkTextActor>::New();
  m_legendActor->SetInput(m_legend.c_str());
  vtkTextProperty* p = m_legendActor->GetTextProperty();
  p->SetFontSize(14);
  p->SetColor(1, 1, 1);
  p->SetShadow(1);
  m_legendActor->SetDisplayPosition(10, 10);
  for (vtkProp* a : std::initializer_list<vtkProp*>{m_arrowActor, m_pointActor, m_trailActor,
                                                    m_comActor, m_legendActor}) {
    a->VisibilityOff();
    m_renderer->AddViewProp(a);
  }
}

AnnotationLayer::~AnnotationLayer() {
  for (vtkProp* a : std::initializer_list<vtkProp*>{m_arrowActor, m_pointActor, m_trailActor,
                                                    m_comActor, m_legendActor})
    m_renderer->RemoveViewProp(a);
  for (auto& l : m_labels) m_renderer->RemoveViewProp(l);
}

vtkTextActor* AnnotationLayer::label(std::size_t k) {
  while (m_labels.size() <= k) {
    auto a = vtkSmartPointer<vtkTextActor>::New();
    a->GetPositionCoordinate()->SetCoordinateSystemToWorld();
    vtkTextProperty* p = a->GetTextProperty();
    p->SetFontSize(13);
    p->SetColor(1, 1, 0.85);
    p->SetShadow(1);
    p->SetJustificationToCentered();
    p->SetVerticalJustificationToBottom();
    a->PickableOff();
    m_renderer->AddViewProp(a);
    m_labels.push_back(a);
  }
  return m_labels[k];
}

int AnnotationLayer::labelCount() const {
  int n = 0;
  for (const auto& l : m_labels) n += l->GetVisibility() ? 1 : 0;
  return n;
}

void AnnotationLayer::update(const Annotations& a, bool names, const std::vector<BodyPose>& poses) {
  // arrows: a shaft and four barbs around its tip, so that the head shows from any side
  {
    vtkPoints* pts = m_arrows->GetPoints();
    pts->Reset();
    vtkNew<vtkCellArray> lines;
    auto colours = colourArray(3);
    m_arrowCount = 0;
    for (const ForceArrow& arrow : a.arrows) {
      const Vec3 d = m_scale * arrow.force;
      const double length = d.norm();
      if (!(length > 1e-6 * m_size) || !std::isfinite(length)) continue;
      const Vec3 u = d / length;
      const Vec3 side = (std::abs(u.z()) < 0.9 ? u.cross(Vec3::UnitZ()) : u.cross(Vec3::UnitX())).normalized();
      const Vec3 side2 = u.cross(side);
      const Vec3 tip = arrow.origin + d;
      const double head = std::min(0.3 * length, 0.04 * m_size);
      const auto c = colourOf(arrow.kind);
      auto segment = [&](const Vec3& p, const Vec3& q) {
        const vtkIdType ids[2] = {pts->InsertNextPoint(p.data()), pts->InsertNextPoint(q.data())};
        lines->InsertNextCell(2, ids);
        colours->InsertNextTypedTuple(c.data());
      };
      segment(arrow.origin, tip);
      for (const Vec3& s : {side, Vec3(-side), side2, Vec3(-side2)})
        segment(tip, tip - head * u + 0.45 * head * s);
      ++m_arrowCount;
    }
    // the system's centre of mass over the ground: a plumb line and a cross where it lands
    if (a.systemCom && m_down.norm() > 0 && a.systemCom->dot(m_down) < 0) {
      const Vec3 top = *a.systemCom, foot = top - top.dot(m_down) * m_down;
      const Vec3 u = (std::abs(m_down.z()) < 0.9 ? m_down.cross(Vec3::UnitZ()) : m_down.cross(Vec3::UnitX())).normalized();
      const Vec3 w = m_down.cross(u);
      const std::array<unsigned char, 3> orange = {255, 115, 0};
      const double r = 0.05 * m_size;
      for (const auto& [p, q] : {std::pair<Vec3, Vec3>{top, foot}, {foot - r * u, foot + r * u}, {foot - r * w, foot + r * w}}) {
        const vtkIdType ids[2] = {pts->InsertNextPoint(p.data()), pts->InsertNextPoint(q.data())};
        lines->InsertNextCell(2, ids);
        colours->InsertNextTypedTuple(orange.data());
      }
    }
    m_arrows->SetLines(lines);
    m_arrows->GetCellData()->SetScalars(colours);
    pts->Modified();
    m_arrows->Modified();
    m_arrowActor->SetVisibility(lines->GetNumberOfCells() > 0);
    m_legendActor->SetVisibility(m_arrowCount > 0);
  }
  // contact points touching the ground
  {
    vtkPoints* pts = m_points->GetPoints();
    pts->Reset();
    vtkNew<vtkCellArray> verts;
    auto colours = colourArray(3);
    const unsigned char red[3] = {255, 70, 40};
    for (const Vec3& p : a.contactPoints) {
      const vtkIdType id = pts->InsertNextPoint(p.data());
      verts->InsertNextCell(1, &id);
      colours->InsertNextTypedTuple(red);
    }
    m_points->SetVerts(verts);
    m_points->GetCellData()->SetScalars(colours);
    pts->Modified();
    m_points->Modified();
    m_pointActor->SetVisibility(!a.contactPoints.empty());
  }
  // trails: opaque at the body, fading to nothing at the oldest point
  {
    vtkPoints* pts = m_trails->GetPoints();
    pts->Reset();
    vtkNew<vtkCellArray> lines;
    auto colours = colourArray(4);
    std::size_t k = 0;
    for (const Trail& t : a.trails) {
      const unsigned char* c = kTrailColours[k++ % std::size(kTrailColours)];
      if (t.points.size() < 2) continue;
      double oldest = 0;
      for (double age : t.ages) oldest = std::max(oldest, age);
      lines->InsertNextCell(static_cast<vtkIdType>(t.points.size()));
      for (std::size_t i = 0; i < t.points.size(); ++i) {
        lines->InsertCellPoint(pts->InsertNextPoint(t.points[i].data()));
        const double fade = oldest > 0 && i < t.ages.size() ? 1.0 - t.ages[i] / oldest : 1.0;
        const unsigned char rgba[4] = {c[0], c[1], c[2],
                                       static_cast<unsigned char>(std::lround(255 * std::clamp(fade, 0.0, 1.0)))};
        colours->InsertNextTypedTuple(rgba);
      }
    }
    m_trails->SetLines(lines);
    m_trails->GetPointData()->SetScalars(colours);
    pts->Modified();
    m_trails->Modified();
    m_trailActor->SetVisibility(lines->GetNumberOfCells() > 0);
  }
  m_comActor->SetVisibility(a.systemCom.has_value());
  if (a.systemCom) m_comActor->SetPosition(a.systemCom->x(), a.systemCom->y(), a.systemCom->z());
  // labels: the annotations', then the bodies' names
  std::size_t used = 0;
  for (const TextLabel& l : a.labels) {
    vtkTextActor* t = label(used++);
    t->SetInput(l.text.c_str());
    t->GetPositionCoordinate()->SetValue(l.position.x(), l.position.y(), l.position.z());
    t->GetTextProperty()->SetColor(1.0, 0.6, 1.0);
    t->VisibilityOn();
  }
  if (names)
    for (std::size_t b = 0; b < m_names.size() && b < poses.size() && b < m_coms.size(); ++b) {
      const Vec3 p = poses[b].position + poses[b].rotation * m_coms[b];
      vtkTextActor* t = label(used++);
      t->SetInput(m_names[b].c_str());
      t->GetPositionCoordinate()->SetValue(p.x(), p.y(), p.z());
      t->GetTextProperty()->SetColor(1, 1, 0.85);
      t->VisibilityOn();
    }
  for (std::size_t k = used; k < m_labels.size(); ++k) m_labels[k]->VisibilityOff();
}

}  // namespace art::gui
