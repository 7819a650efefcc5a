#include "viewport/scene.h"

#include "viewport/annotation_layer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkAppendPolyData.h>
#include <vtkFloatArray.h>
#include <vtkIntArray.h>
#include <vtkPointData.h>
#include <vtkPolyDataNormals.h>
#include <vtkQuadricDecimation.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkImageReader2.h>
#include <vtkImageReader2Factory.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkReverseSense.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkUnsignedCharArray.h>

#include "articulate/formats/mesh.h"
#include "articulate/model/appearance.h"
#include "articulate/dynamics/dynamics.h"

namespace art::gui {

namespace {

constexpr double kPi = 3.14159265358979323846;

using PolyPtr = vtkSmartPointer<vtkPolyData>;

// the most triangles meeting at a point of a mesh drawn with smooth normals (meshPart) or
// decimated (meshPoly): vtkPolyDataNormals' splitting and vtkQuadricDecimation both take time
// growing with the square of the cells meeting at a point
constexpr vtkIdType kMostCellsSmoothed = 64;

// the most cells that meet at one point of `pd`
vtkIdType mostCellsAtAPoint(vtkPolyData* pd) {
  std::vector<vtkIdType> count(static_cast<std::size_t>(pd->GetNumberOfPoints()), 0);
  vtkCellArray* cells = pd->GetPolys();
  vtkIdType n = 0, most = 0;
  const vtkIdType* ids = nullptr;
  for (cells->InitTraversal(); cells->GetNextCell(n, ids);)
    for (vtkIdType k = 0; k < n; ++k) most = std::max(most, ++count[static_cast<std::size_t>(ids[k])]);
  return most;
}

PolyPtr box(const Vec3& a, const Vec3& b) {
  vtkNew<vtkCubeSource> s;
  s->SetBounds(std::min(a.x(), b.x()), std::max(a.x(), b.x()), std::min(a.y(), b.y()),
               std::max(a.y(), b.y()), std::min(a.z(), b.z()), std::max(a.z(), b.z()));
  s->Update();
  return s->GetOutput();
}

// vtkCylinderSource is centred on the origin along y: move it between the end-face centres
PolyPtr cylinder(const Vec3& a, const Vec3& b, double r, int facets) {
  vtkNew<vtkCylinderSource> s;
  const Vec3 d = b - a;
  s->SetHeight(d.norm());
  s->SetRadius(r);
  s->SetResolution(facets);
  s->CappingOn();
  vtkNew<vtkTransform> t;
  const Vec3 mid = 0.5 * (a + b), y = Vec3::UnitY(), u = d.normalized();
  t->Translate(mid.x(), mid.y(), mid.z());
  const Vec3 axis = y.cross(u);
  const double angle = std::atan2(axis.norm(), y.dot(u)) * 180.0 / M_PI;
  if (axis.norm() > 1e-12)
    t->RotateWXYZ(angle, axis.x(), axis.y(), axis.z());
  else if (y.dot(u) < 0)
    t->RotateWXYZ(180.0, 1, 0, 0);
  vtkNew<vtkTransformPolyDataFilter> f;
  f->SetInputConnection(s->GetOutputPort());
  f->SetTransform(t);
  f->Update();
  return f->GetOutput();
}

PolyPtr sphere(const Vec3& c, double r, int facets, double theta0 = 0, double theta1 = 360,
               double phi0 = 0, double phi1 = 180) {
  vtkNew<vtkSphereSource> s;
  s->SetCenter(c.x(), c.y(), c.z());
  s->SetRadius(r);
  const int around = (facets + 3) / 4 * 4;  // a multiple of 4, as showmotion
  s->SetThetaResolution(std::max(4, around * static_cast<int>(theta1 - theta0) / 360));
  s->SetPhiResolution(std::max(2, around / 2 * static_cast<int>(phi1 - phi0) / 180));
  s->SetStartTheta(theta0);
  s->SetEndTheta(theta1);
  s->SetStartPhi(phi0);
  s->SetEndPhi(phi1);
  s->Update();
  return s->GetOutput();
}

PolyPtr polyline(const std::vector<Vec3>& pts) {
  vtkNew<vtkPoints> p;
  for (const Vec3& v : pts) p->InsertNextPoint(v.x(), v.y(), v.z());
  vtkNew<vtkCellArray> lines;
  lines->InsertNextCell(static_cast<vtkIdType>(pts.size()));
  for (vtkIdType k = 0; k < static_cast<vtkIdType>(pts.size()); ++k) lines->InsertCellPoint(k);
  PolyPtr pd = PolyPtr::New();
  pd->SetPoints(p);
  pd->SetLines(lines);
  return pd;
}

PolyPtr triangles(const Primitive& prim) {
  vtkNew<vtkPoints> p;
  for (const Vec3& v : prim.points) p->InsertNextPoint(v.x(), v.y(), v.z());
  vtkNew<vtkCellArray> tris;
  std::vector<std::array<int, 3>> distinct = prim.triangles;
  removeRepeatedTriangles(distinct);
  for (const auto& t : distinct) {
    const vtkIdType ids[3] = {t[0], t[1], t[2]};
    tris->InsertNextCell(3, ids);
  }
  PolyPtr pd = PolyPtr::New();
  pd->SetPoints(p);
  pd->SetPolys(tris);
  return pd;
}

// showmotion's chequered floor: grey 0.3 and 0.75 of it, grid anchored at the origin, a
// partial edge tile under 5% of a tile merged into its neighbour
PolyPtr tiles(const Primitive& prim) {
  int n = 0;
  for (int i = 0; i < 3; ++i)
    if (prim.range(i, 1) <= prim.range(i, 0)) n = i;
  const int u = (n + 1) % 3, v = (n + 2) % 3;
  const double size = prim.size, plane = prim.range(n, 0);
  const bool positive = prim.range(n, 1) == prim.range(n, 0);
  auto bounds = [&](int axis) {
    const double a = prim.range(axis, 0), b = prim.range(axis, 1);
    std::vector<double> out{a};
    for (double k = std::floor(a / size) + 1; k * size < b; k += 1) out.push_back(k * size);
    out.push_back(b);
    if (out.size() > 2 && out[1] - out[0] < 0.05 * size) out.erase(out.begin() + 1);
    if (out.size() > 2 && out[out.size() - 1] - out[out.size() - 2] < 0.05 * size)
      out.erase(out.end() - 2);
    return out;
  };
  const std::vector<double> bu = bounds(u), bv = bounds(v);
  vtkNew<vtkPoints> pts;
  vtkNew<vtkCellArray> quads;
  vtkNew<vtkUnsignedCharArray> colours;
  colours->SetNumberOfComponents(3);
  colours->SetName("colours");
  const unsigned char light = static_cast<unsigned char>(std::lround(0.3 * 255));
  const unsigned char dark = static_cast<unsigned char>(std::lround(0.3 * 0.75 * 255));
  for (std::size_t i = 0; i + 1 < bu.size(); ++i) {
    for (std::size_t j = 0; j + 1 < bv.size(); ++j) {
      vtkIdType ids[4];
      const double cu[4] = {bu[i], bu[i + 1], bu[i + 1], bu[i]};
      const double cv[4] = {bv[j], bv[j], bv[j + 1], bv[j + 1]};
      for (int k = 0; k < 4; ++k) {
        Vec3 p;
        p(n) = plane;
        p(u) = cu[positive ? k : 3 - k];
        p(v) = cv[positive ? k : 3 - k];
        ids[k] = pts->InsertNextPoint(p.x(), p.y(), p.z());
      }
      quads->InsertNextCell(4, ids);
      const long parity = std::lround(std::floor(0.5 * (bu[i] + bu[i + 1]) / size) +
                                      std::floor(0.5 * (bv[j] + bv[j + 1]) / size));
      const unsigned char g = (parity % 2 == 0) ? light : dark;
      colours->InsertNextTuple3(g, g, g);
    }
  }
  PolyPtr pd = PolyPtr::New();
  pd->SetPoints(pts);
  pd->SetPolys(quads);
  pd->GetCellData()->SetScalars(colours);
  return pd;
}

// The ground z = 0 of a spatial model with contact points or a plane geom of the world (a URDF
// robot's ground), as showmotion's tiles: a square about the bodies' and contact points'
// footprint at the initial state, at least 2 m wide and twice the footprint, in tiles of a round
// length (1, 2 or 5 times a power of ten) about an eighth of it; none for a model without either
std::optional<Primitive> groundTiles(const Model& model, Data& data) {
  const bool plane = std::any_of(model.geoms.begin(), model.geoms.end(),
                                 [](const GeomSpec& g) { return g.body < 0 && g.type == GeomSpec::Type::Plane; });
  if ((model.contacts.empty() && !plane) || model.arithmetic != Arithmetic::Spatial) return std::nullopt;
  forwardKinematics(model, data, model.q0);
  Eigen::Vector2d lo = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int i = 0; i < model.nb; ++i) {
    const Vec3 p = bodyPose(model, data, i).position;
    lo = lo.cwiseMin(p.head<2>());
    hi = hi.cwiseMax(p.head<2>());
  }
  for (const ContactPointSpec& c : model.contacts) {
    const BodyPose pose = bodyPose(model, data, c.body);
    const Vec3 p = pose.rotation * c.point + pose.position;
    lo = lo.cwiseMin(p.head<2>() - Eigen::Vector2d::Constant(c.radius));
    hi = hi.cwiseMax(p.head<2>() + Eigen::Vector2d::Constant(c.radius));
  }
  if (!lo.allFinite() || !hi.allFinite()) return std::nullopt;
  const double width = std::max(2.0, 2.0 * (hi - lo).maxCoeff());
  const double power = std::pow(10.0, std::floor(std::log10(width / 8)));
  double tile = power;
  for (const double m : {2.0, 5.0, 10.0})
    if (tile < width / 8) tile = m * power;
  Primitive floor;
  floor.kind = Primitive::Kind::Tiles;
  floor.size = tile;
  const Eigen::Vector2d centre = 0.5 * (lo + hi);
  const double half = std::ceil(0.5 * width / tile) * tile;
  for (int a = 0; a < 2; ++a) {
    const double mid = std::round(centre(a) / tile) * tile;
    floor.range(a, 0) = mid - half;
    floor.range(a, 1) = mid + half;
  }
  return floor;  // range's z row stays [0, 0]: the plane z = 0, seen from above
}

// one colour for every cell (replacing any), so that a body's parts can share one actor
PolyPtr coloured(const PolyPtr& pd, const Vec3& colour) {
  if (pd->GetCellData()->GetArray("colours")) return pd;  // tiles bring their own
  vtkNew<vtkUnsignedCharArray> c;
  c->SetNumberOfComponents(3);
  c->SetName("colours");
  const vtkIdType n = pd->GetNumberOfCells();
  for (vtkIdType k = 0; k < n; ++k)
    c->InsertNextTuple3(std::lround(255 * colour.x()), std::lround(255 * colour.y()),
                        std::lround(255 * colour.z()));
  pd->GetCellData()->SetScalars(c);
  return pd;
}

// the average colour (0..1) of an image file, read once per file; white where it does not
// read (the mesh reader found the file; a damaged one leaves the material colour)
Vec3 averageColour(const std::string& path) {
  static std::mutex lock;
  static std::map<std::string, Vec3> known;
  const std::lock_guard<std::mutex> guard(lock);
  if (const auto it = known.find(path); it != known.end()) return it->second;
  Vec3 average = Vec3::Ones();
  vtkSmartPointer<vtkImageReader2> reader;
  reader.TakeReference(vtkImageReader2Factory::CreateImageReader2(path.c_str()));
  if (reader) {
    reader->SetFileName(path.c_str());
    reader->Update();
    vtkDataArray* pixels = reader->GetOutput() ? reader->GetOutput()->GetPointData()->GetScalars() : nullptr;
    if (pixels && pixels->GetNumberOfTuples() > 0) {
      const int n = pixels->GetNumberOfComponents();
      const double full = pixels->GetDataTypeMax() > 255 ? 65535.0 : 255.0;
      Vec3 sum = Vec3::Zero();
      for (vtkIdType k = 0; k < pixels->GetNumberOfTuples(); ++k)
        for (int c = 0; c < 3; ++c) sum(c) += pixels->GetComponent(k, n >= 3 ? c : 0);  // grey: one
      average = (sum / (full * static_cast<double>(pixels->GetNumberOfTuples()))).cwiseMin(1.0).cwiseMax(0.0);
    }
  }
  known.emplace(path, average);
  return average;
}

// part `index`'s colour of a mesh file: its material's, times its texture's average colour
Vec3 partColour(const MeshData& mesh, int index) {
  const auto k = static_cast<std::size_t>(index);
  Vec3 colour = mesh.colours[k];
  if (k < mesh.textures.size() && !mesh.textures[k].empty())
    colour = colour.cwiseProduct(averageColour(mesh.textures[k]));
  return colour;
}

// A mesh file's triangles as VTK data in file coordinates, one cell-data colour index per
// triangle ("part", -1: no material); with `coarse`, decimated (vtkQuadricDecimation) to about
// Scene::kCoarseMeshTriangles. Both forms are built once per loaded file and kept (per
// MeshData: a changed file loads as new data).
constexpr vtkIdType kCoarseMeshTriangles = Scene::kCoarseMeshTriangles;

PolyPtr meshPoly(const std::shared_ptr<const MeshData>& mesh, bool coarse) {
  static std::mutex mutex;
  static std::map<std::pair<const MeshData*, bool>, std::pair<std::shared_ptr<const MeshData>, PolyPtr>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[{mesh.get(), coarse}];
  if (slot.second) return slot.second;
  PolyPtr pd = PolyPtr::New();
  vtkNew<vtkPoints> points;
  points->SetNumberOfPoints(static_cast<vtkIdType>(mesh->vertices.size()));
  for (std::size_t k = 0; k < mesh->vertices.size(); ++k) {
    const Eigen::Vector3f& v = mesh->vertices[k];
    points->SetPoint(static_cast<vtkIdType>(k), v.x(), v.y(), v.z());
  }
  vtkNew<vtkCellArray> tris;
  vtkNew<vtkIntArray> part;
  part->SetName("part");
  for (std::size_t k = 0; k < mesh->triangles.size(); ++k) {
    const auto& t = mesh->triangles[k];
    const vtkIdType ids[3] = {t[0], t[1], t[2]};
    tris->InsertNextCell(3, ids);
    part->InsertNextValue(mesh->triangleColour[k]);
  }
  pd->SetPoints(points);
  pd->SetPolys(tris);
  pd->GetCellData()->AddArray(part);
  if (coarse) {
    // parts decimated one by one, so that each keeps its colour
    vtkNew<vtkAppendPolyData> all;
    std::map<int, std::vector<vtkIdType>> cells;
    for (vtkIdType c = 0; c < pd->GetNumberOfCells(); ++c) cells[part->GetValue(c)].push_back(c);
    for (const auto& [index, ids] : cells) {
      PolyPtr piece = PolyPtr::New();
      vtkNew<vtkCellArray> pieceTris;
      for (vtkIdType c : ids) {
        vtkIdType n;
        const vtkIdType* pts;
        tris->GetCellAtId(c, n, pts);
        pieceTris->InsertNextCell(n, pts);
      }
      piece->SetPoints(points);
      piece->SetPolys(pieceTris);
      PolyPtr out = piece;  // a hostile mesh (thousands of triangles at a point) is not decimated
      if (mostCellsAtAPoint(piece) <= kMostCellsSmoothed) {
        vtkNew<vtkQuadricDecimation> decimate;
        decimate->SetInputData(piece);
        const double keep = std::min(1.0, static_cast<double>(kCoarseMeshTriangles) / static_cast<double>(mesh->triangles.size()));
        decimate->SetTargetReduction(1.0 - keep);
        decimate->Update();
        out = decimate->GetOutput();
      }
      vtkNew<vtkIntArray> outPart;
      outPart->SetName("part");
      for (vtkIdType c = 0; c < out->GetNumberOfCells(); ++c) outPart->InsertNextValue(index);
      out->GetCellData()->AddArray(outPart);
      all->AddInputData(out);
    }
    all->Update();
    pd = all->GetOutput();
  }
  slot = {mesh, pd};
  return pd;
}

// flat point normals (every edge split), as showmotion's flat-shaded triangles and floors:
// each cell gets its own points with its face normal (Newell's), and keeps its cell data. It
// is linear in the cells, where vtkPolyDataNormals walks the cells around each point through
// their edges and takes time that grows with the square of the cells meeting at a point (5,000
// coincident triangles took minutes)
PolyPtr flatNormals(const PolyPtr& pd) {
  PolyPtr out = PolyPtr::New();
  vtkNew<vtkPoints> points;
  vtkNew<vtkFloatArray> normals;
  normals->SetNumberOfComponents(3);
  normals->SetName("Normals");
  vtkNew<vtkCellArray> polys;
  out->GetCellData()->CopyAllocate(pd->GetCellData(), pd->GetNumberOfPolys());
  vtkCellArray* in = pd->GetPolys();
  vtkIdType n = 0, cell = 0;
  const vtkIdType* ids = nullptr;
  std::vector<vtkIdType> corners;
  for (in->InitTraversal(); in->GetNextCell(n, ids); ++cell) {
    Vec3 normal = Vec3::Zero();
    for (vtkIdType k = 0; k < n; ++k) {
      const Vec3 a = v3(pd->GetPoint(ids[k])), b = v3(pd->GetPoint(ids[(k + 1) % n]));
      normal += Vec3((a.y() - b.y()) * (a.z() + b.z()), (a.z() - b.z()) * (a.x() + b.x()), (a.x() - b.x()) * (a.y() + b.y()));
    }
    if (normal.norm() > 0) normal.normalize();
    corners.clear();
    for (vtkIdType k = 0; k < n; ++k) {
      corners.push_back(points->InsertNextPoint(pd->GetPoint(ids[k])));
      normals->InsertNextTuple3(normal.x(), normal.y(), normal.z());
    }
    const vtkIdType c = polys->InsertNextCell(n, corners.data());
    out->GetCellData()->CopyData(pd->GetCellData(), cell, c);
  }
  out->SetPoints(points);
  out->SetPolys(polys);
  out->GetPointData()->SetNormals(normals);
  return out;
}


// the cells of `pd` whose "part" is `index`, placed (x_body = R (scale .* x) + t), with smooth
// normals split at creases
PolyPtr meshPart(const PolyPtr& pd, int index, const Primitive& p) {
  vtkDataArray* part = pd->GetCellData()->GetArray("part");
  PolyPtr piece = PolyPtr::New();
  vtkNew<vtkPoints> points;
  const vtkIdType n = pd->GetNumberOfPoints();
  points->SetNumberOfPoints(n);
  for (vtkIdType k = 0; k < n; ++k) {
    double x[3];
    pd->GetPoint(k, x);
    const Vec3 y = p.rotation * Vec3(p.scale.x() * x[0], p.scale.y() * x[1], p.scale.z() * x[2]) + p.points[0];
    points->SetPoint(k, y.x(), y.y(), y.z());
  }
  const bool mirrored = p.scale.prod() < 0;
  vtkNew<vtkCellArray> tris;
  for (vtkIdType c = 0; c < pd->GetNumberOfCells(); ++c) {
    if (static_cast<int>(part->GetTuple1(c)) != index) continue;
    vtkIdType m;
    const vtkIdType* ids;
    pd->GetPolys()->GetCellAtId(c, m, ids);
    if (m != 3) continue;
    const vtkIdType t[3] = {ids[0], mirrored ? ids[2] : ids[1], mirrored ? ids[1] : ids[2]};
    tris->InsertNextCell(3, t);
  }
  piece->SetPoints(points);
  piece->SetPolys(tris);
  // vtkPolyDataNormals' time grows with the square of the cells meeting at a point: a real
  // mesh has a few at each, a hostile one thousands (coincident triangles), which are drawn
  // flat instead
  if (mostCellsAtAPoint(piece) > kMostCellsSmoothed) return flatNormals(piece);
  vtkNew<vtkPolyDataNormals> normals;
  normals->SetInputData(piece);
  normals->SplittingOn();
  normals->SetFeatureAngle(40.0);
  normals->ConsistencyOff();
  normals->AutoOrientNormalsOff();
  normals->Update();
  return normals->GetOutput();
}


vtkSmartPointer<vtkActor> actorFor(const PolyPtr& pd, const Vec3& colour, vtkTransform* t) {
  vtkNew<vtkPolyDataMapper> m;
  m->SetInputData(pd);
  m->ScalarVisibilityOff();
  auto a = vtkSmartPointer<vtkActor>::New();
  a->SetMapper(m);
  a->GetProperty()->SetColor(colour.x(), colour.y(), colour.z());
  a->GetProperty()->SetAmbient(0.15);
  a->GetProperty()->SetDiffuse(0.8);
  a->GetProperty()->SetSpecular(0.15);
  a->GetProperty()->SetSpecularPower(20);
  a->SetUserTransform(t);
  return a;
}

Vec3 centreOfMass(const InertiaSpec& in) {
  if (!in.raw) return in.com;
  const Mat6& I = in.matrix;
  if (I(5, 5) <= 0) return Vec3::Zero();
  return Vec3(I(2, 4), I(0, 5), I(1, 3)) / I(5, 5);
}

// a collision geom's surface as triangles in its body's coordinates: spheres, capsules and
// ellipsoids from one sphere of 24 x 13 facets (a capsule's halves moved apart along z; 13
// rings leave none on the equator), a cylinder's two rims and caps, a box's corners, a mesh's
// hull; nothing for a plane
std::optional<Primitive> geomSurface(const GeomSpec& g) {
  using T = GeomSpec::Type;
  Primitive p;
  p.kind = Primitive::Kind::Triangles;
  std::vector<Vec3>& v = p.points;
  auto& t = p.triangles;
  const Vec3& s = g.size;
  constexpr int kAround = 24, kUp = 13;
  switch (g.type) {
    case T::Plane: return std::nullopt;
    case T::Sphere:
    case T::Capsule:
    case T::Ellipsoid:
      v.push_back(Vec3::UnitZ());
      for (int i = 1; i < kUp; ++i)
        for (int j = 0; j < kAround; ++j) {
          const double th = kPi * i / kUp, ph = 2 * kPi * j / kAround;
          v.emplace_back(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th));
        }
      v.push_back(-Vec3::UnitZ());
      for (Vec3& u : v) {
        if (g.type == T::Ellipsoid) u = u.cwiseProduct(s);
        else u = u * s(0) + Vec3(0, 0, g.type == T::Capsule ? (u.z() > 0 ? s(1) : -s(1)) : 0.0);
      }
      for (int j = 0; j < kAround; ++j) {
        const auto ring = [&](int i, int k) { return 1 + (i - 1) * kAround + (k % kAround); };
        t.push_back({0, ring(1, j), ring(1, j + 1)});
        for (int i = 1; i + 1 < kUp; ++i) {
          t.push_back({ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)});
          t.push_back({ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)});
        }
        t.push_back({ring(kUp - 1, j), static_cast<int>(v.size()) - 1, ring(kUp - 1, j + 1)});
      }
      break;
    case T::Cylinder:
      for (double z : {s(1), -s(1)}) {
        v.emplace_back(0, 0, z);
        for (int j = 0; j < kAround; ++j)
          v.emplace_back(s(0) * std::cos(2 * kPi * j / kAround), s(0) * std::sin(2 * kPi * j / kAround), z);
      }
      for (int j = 0; j < kAround; ++j) {
        const int a = 1 + j, b = 1 + (j + 1) % kAround, c = a + kAround + 1, d = b + kAround + 1;
        t.push_back({0, a, b});
        t.push_back({kAround + 1, d, c});
        t.push_back({a, c, d});
        t.push_back({a, d, b});
      }
      break;
    case T::Box:
      for (int i = 0; i < 8; ++i) v.emplace_back(i & 1 ? s(0) : -s(0), i & 2 ? s(1) : -s(1), i & 4 ? s(2) : -s(2));
      t = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
           {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
      break;
    case T::Mesh:
      v = g.vertices;
      t = g.faces;
      break;
  }
  for (Vec3& u : v) u = g.rotation * u + g.position;
  return p;
}

}  // namespace

Scene::Scene(const ModelSpec& spec, vtkRenderer* renderer, vtkRenderer* overlay)
    : m_model(compile(spec)), m_data(m_model), m_renderer(renderer) {
  m_bodies.resize(m_model.nb + 1);
  m_poses.resize(m_model.nb);
  m_sites = spec.sites;
  for (auto& b : m_bodies) b.transform = vtkSmartPointer<vtkTransform>::New();
  // geometry, once per body
  for (int body = -1; body < m_model.nb; ++body) {
    const nlohmann::json& list = body < 0 ? spec.baseAppearance : spec.bodies[body].appearance;
    bool floor = false;
    for (const Primitive& p :
         interpretAppearance(list, defaultBodyColour(body + 1), body < 0, "", nullptr)) {
      addPrimitive(body, p);
      floor = floor || p.kind == Primitive::Kind::Tiles;
    }
    // the ground that the contact points touch, drawn where the model's file draws none
    if (body < 0 && !floor) {
      if (const std::optional<Primitive> ground = groundTiles(m_model, m_data)) addPrimitive(body, *ground);
    }
    finishBody(body);
  }
  finishBatch();
  for (const BodySpec& b : spec.bodies) m_coms.push_back(centreOfMass(b.inertia));
  setPose(m_model.q0);
  // the force overlays' scale: the model's weight draws half its extent long
  Vec3 lo, hi;
  movingBounds(lo, hi);
  const double size = (lo.array() <= hi.array()).all() ? (hi - lo).norm() : 1.0;
  double mass = 0;
  for (const BodySpec& b : spec.bodies) mass += b.inertia.raw ? b.inertia.matrix(3, 3) : b.inertia.mass;
  m_layer = std::make_unique<AnnotationLayer>(overlay ? overlay : m_renderer, m_model.names, m_coms, size,
                                              mass * spec.effectiveGravity().norm(),
                                              spec.effectiveGravity());
}

void Scene::setAnnotations(const Annotations& annotations, bool names) {
  m_annotations = annotations;
  m_names = names;
  m_layer->update(m_annotations, m_names, m_poses);
}

double Scene::forceScale() const { return m_layer->forceScale(); }
std::string Scene::forceLegend() const { return m_layer->legend(); }
int Scene::arrowsDrawn() const { return m_layer->arrowCount(); }
int Scene::labelsDrawn() const { return m_layer->labelCount(); }

// overlays, sized from the model's extent, built the first time they are shown
void Scene::buildOverlays() {
  if (m_overlaysBuilt) return;
  m_overlaysBuilt = true;
  Vec3 lo, hi;
  movingBounds(lo, hi);
  const double L = (lo.array() <= hi.array()).all() ? std::max(0.08 * (hi - lo).norm(), 0.02) : 0.2;
  for (int body = 0; body < m_model.nb; ++body) {
    BodyActors& ba = m_bodies[body + 1];
    const Vec3 rgb[3] = {Vec3(0.9, 0.15, 0.15), Vec3(0.15, 0.75, 0.15), Vec3(0.2, 0.35, 0.95)};
    for (int k = 0; k < 3; ++k) {
      auto a = actorFor(polyline({Vec3::Zero(), L * Vec3::Unit(k)}), rgb[k], ba.transform);
      a->GetProperty()->SetLineWidth(3);
      a->GetProperty()->LightingOff();
      ba.frames.push_back(a);
    }
    const Vec3 axis = m_model.joints[body].axis();
    auto ax = actorFor(cylinder(-0.75 * L * axis, 0.75 * L * axis, 0.06 * L, 12), Vec3(1, 0.8, 0.1),
                       ba.transform);
    ba.axes.push_back(ax);
    auto com = actorFor(sphere(m_coms[body], 0.12 * L, 16),
                        Vec3(0.95, 0.95, 0.95), ba.transform);
    ba.coms.push_back(com);
    for (auto* group : {&ba.frames, &ba.axes, &ba.coms})
      for (auto& a : *group) {
        a->VisibilityOff();
        a->PickableOff();
        m_renderer->AddActor(a);
      }
  }
}

Scene::~Scene() {
  m_layer.reset();
  if (m_detailObserver) m_renderer->RemoveObserver(m_detailObserver);
  if (m_batchActor) m_renderer->RemoveActor(m_batchActor);
  if (m_segmentActor) m_renderer->RemoveActor(m_segmentActor);
  for (auto& b : m_bodies)
    for (auto* group : {&b.actors, &b.frames, &b.axes, &b.coms, &b.sites, &b.geoms})
      for (auto& a : *group) m_renderer->RemoveActor(a);
}

void Scene::addPrimitive(int body, const Primitive& p) {
  BodyActors& ba = m_bodies[body + 1];
  const std::size_t first = ba.surfaces.size();
  // the surfaces added since `from`, as an actor of their own (not the batch's) drawn at the
  // primitive's opacity: in picking, highlighting and ghosts as the body's actors
  auto ownActor = [&](std::size_t from, bool cullBackFaces) {
    vtkNew<vtkAppendPolyData> append;
    for (std::size_t k = from; k < ba.surfaces.size(); ++k) append->AddInputData(ba.surfaces[k].surface);
    append->Update();
    ba.surfaces.resize(from);
    auto a = actorFor(append->GetOutput(), Vec3::Ones(), ba.transform);
    a->GetMapper()->ScalarVisibilityOn();
    static_cast<vtkPolyDataMapper*>(a->GetMapper())->SetScalarModeToUseCellData();
    a->GetProperty()->SetBackfaceCulling(cullBackFaces);
    a->GetProperty()->SetOpacity(p.opacity);
    ba.actors.push_back(a);
    m_renderer->AddActor(a);
    return a.GetPointer();
  };
  int detail = -1;
  bool coarse = false;
  auto surface = [&](const PolyPtr& pd, const Vec3& colour) {
    ba.surfaces.push_back({coloured(pd, colour), detail, coarse});
  };
  // a moving body's round shape is built at its facets and, when finer, at kCoarseFacets too
  auto detailed = [&](const Vec3& centre, auto build) {
    if (body < 0 || p.facets <= kCoarseFacets || p.opacity < 1) return build(p.facets);
    detail = static_cast<int>(m_details.size());
    m_details.push_back({body, centre, p.radius, false});
    build(p.facets);
    coarse = true;
    build(kCoarseFacets);
    detail = -1;
    coarse = false;
  };
  switch (p.kind) {
    case Primitive::Kind::Box: surface(box(p.points[0], p.points[1]), p.colour); break;
    case Primitive::Kind::Cylinder:
      detailed(0.5 * (p.points[0] + p.points[1]), [&](int facets) {
        surface(cylinder(p.points[0], p.points[1], p.radius, facets), p.colour);
      });
      break;
    case Primitive::Kind::Sphere:
      detailed(p.points[0], [&](int facets) {
        if (p.colour2) {  // two-tone: alternating octants
          for (int k = 0; k < 4; ++k)
            for (int h = 0; h < 2; ++h)
              surface(sphere(p.points[0], p.radius, facets, 90.0 * k, 90.0 * (k + 1), 90.0 * h,
                             90.0 * (h + 1)),
                      (k + h) % 2 ? *p.colour2 : p.colour);
        } else {
          surface(sphere(p.points[0], p.radius, facets), p.colour);
        }
      });
      break;
    case Primitive::Kind::Line: ba.lines.push_back(coloured(polyline(p.points), p.colour)); break;
    case Primitive::Kind::Triangles: {
      // an open surface, seen from both sides: on a body it is batched with back faces culled,
      // so it gets both windings
      const PolyPtr front = triangles(p);
      surface(flatNormals(front), p.colour);
      if (body >= 0) {
        vtkNew<vtkReverseSense> back;
        back->SetInputData(front);
        back->ReverseCellsOn();
        back->Update();
        surface(flatNormals(back->GetOutput()), p.colour);
      }
      break;
    }
    case Primitive::Kind::Tiles: surface(flatNormals(tiles(p)), p.colour); break;
    case Primitive::Kind::Mesh: {
      std::shared_ptr<const MeshData> mesh;
      try {
        mesh = loadMesh(p.file);
      } catch (const std::exception&) {
        break;  // said when the document loaded (its notes); the body draws the rest
      }
      auto build = [&](bool coarseForm) {
        const PolyPtr pd = meshPoly(mesh, coarseForm);
        std::set<int> parts;
        vtkDataArray* part = pd->GetCellData()->GetArray("part");
        for (vtkIdType c = 0; c < pd->GetNumberOfCells(); ++c) parts.insert(static_cast<int>(part->GetTuple1(c)));
        for (int index : parts)
          surface(meshPart(pd, index, p),
                  p.fileColours && index >= 0 ? partColour(*mesh, index) : p.colour);
      };
      if (body < 0 || mesh->triangles.size() <= kDetailedMeshTriangles) {
        build(false);
        break;
      }
      // a large mesh on a moving body: its own actors, fine when near, decimated when small
      // on screen; they take part in picking, highlighting and ghosts as the body's actors
      auto actorOf = [&](bool coarseForm) {
        const std::size_t from = ba.surfaces.size();
        build(coarseForm);
        return ownActor(from, true);
      };
      const Vec3 lo = mesh->min.cwiseProduct(p.scale), hi = mesh->max.cwiseProduct(p.scale);
      DetailItem item{body, p.rotation * (0.5 * (lo + hi)) + p.points[0], 0.5 * (hi - lo).norm(), false};
      item.fine = actorOf(false);
      item.coarseActor = actorOf(true);
      item.coarseActor->VisibilityOff();
      m_details.push_back(item);
      break;
    }
  }
  // see-through shapes (an MJCF rgba alpha below 1): the batch is opaque
  if (p.opacity < 1 && ba.surfaces.size() > first) ownActor(first, false);
}

void Scene::addToBatch(int body, const std::vector<BodyActors::Part>& parts) {
  if (!m_batch) m_batch = vtkSmartPointer<vtkPolyData>::New();
  // bodies without surfaces before this one get empty ranges
  const auto before = static_cast<long long>(m_localPoints.size());
  if (m_bodyPointStart.size() < static_cast<std::size_t>(body) + 1) m_bodyPointStart.resize(body + 1, before);
  m_bodyPointStart[body] = before;
  for (const auto& part : parts) {
    PolyPtr pd = part.surface;
    if (!pd->GetPointData()->GetNormals()) pd = flatNormals(pd);
    vtkDataArray* normals = pd->GetPointData()->GetNormals();
    auto* colours = vtkUnsignedCharArray::SafeDownCast(pd->GetCellData()->GetArray("colours"));
    const vtkIdType offset = static_cast<vtkIdType>(m_localPoints.size());
    for (vtkIdType k = 0; k < pd->GetNumberOfPoints(); ++k) {
      m_localPoints.push_back(v3(pd->GetPoint(k)));
      m_localNormals.push_back(v3(normals->GetTuple3(k)));
    }
    CellGroup g;
    g.body = body;
    g.detail = part.detail;
    g.coarse = part.coarse;
    vtkCellArray* src = pd->GetPolys();
    vtkIdType npts = 0;
    const vtkIdType* ids = nullptr;
    vtkIdType cell = 0;
    for (src->InitTraversal(); src->GetNextCell(npts, ids); ++cell) {
      g.cells.push_back(npts);
      for (vtkIdType k = 0; k < npts; ++k) g.cells.push_back(ids[k] + offset);
      for (int c = 0; c < 3; ++c)
        g.colours.push_back(colours->GetValue(3 * (pd->GetNumberOfVerts() + pd->GetNumberOfLines() + cell) + c));
    }
    m_groups.push_back(std::move(g));
  }
  m_bodyPointStart.resize(body + 2);
  m_bodyPointStart[body + 1] = static_cast<long long>(m_localPoints.size());
}

void Scene::rebuildCells() {
  vtkNew<vtkCellArray> polys;
  m_cellBody.clear();
  m_cellColours.clear();
  for (const CellGroup& g : m_groups) {
    if (g.detail >= 0 && m_details[g.detail].coarse != g.coarse) continue;
    for (std::size_t k = 0, c = 0; k < g.cells.size(); k += 1 + g.cells[k], ++c) {
      polys->InsertNextCell(g.cells[k], g.cells.data() + k + 1);
      m_cellBody.push_back(g.body);
      m_cellColours.insert(m_cellColours.end(), g.colours.begin() + 3 * c, g.colours.begin() + 3 * c + 3);
    }
  }
  m_batch->SetPolys(polys);
  applyCellColours();
}

void Scene::applyCellColours() {
  vtkNew<vtkUnsignedCharArray> colours;
  colours->SetNumberOfComponents(3);
  colours->SetName("colours");
  colours->SetNumberOfTuples(static_cast<vtkIdType>(m_cellBody.size()));
  unsigned char* c = colours->GetPointer(0);
  for (std::size_t k = 0; k < m_cellBody.size(); ++k)
    for (int j = 0; j < 3; ++j) {
      const int orig = m_cellColours[3 * k + j];
      const int hl = (orig + (j == 2 ? 40 : 255)) / 2;  // towards yellow
      c[3 * k + j] = static_cast<unsigned char>(m_cellBody[k] == m_highlighted ? hl : orig);
    }
  m_batch->GetCellData()->SetScalars(colours);
}

void Scene::updateDetail() {
  if (m_details.empty()) return;
  vtkCamera* cam = m_renderer->GetActiveCamera();
  const int* size = m_renderer->GetSize();
  if (size[1] <= 0) return;
  // pixels per metre at unit depth (perspective) or everywhere (parallel projection)
  const bool parallel = cam->GetParallelProjection();
  const double scale =
      parallel ? size[1] / (2.0 * cam->GetParallelScale())
               : size[1] / (2.0 * std::tan(0.5 * cam->GetViewAngle() * M_PI / 180.0));
  const Vec3 eye = v3(cam->GetPosition());
  const Vec3 ahead = (v3(cam->GetFocalPoint()) - eye).normalized();
  bool changed = false;
  for (DetailItem& d : m_details) {
    const BodyPose& p = m_poses[d.body];
    const double depth = parallel ? 1.0 : (p.rotation * d.centre + p.position - eye).dot(ahead);
    const double pixels = depth > 0 ? d.radius * scale / depth : HUGE_VAL;
    // hysteresis: a body at the threshold does not flicker between the two
    const double below = d.fine ? kMeshCoarseBelowPixels : kCoarseBelowPixels;
    const bool coarse = d.coarse ? pixels < 1.2 * below : pixels < below;
    if (d.fine && coarse != d.coarse) {  // a large mesh's actors: no batch cells to rebuild
      d.fine->SetVisibility(!coarse);
      d.coarseActor->SetVisibility(coarse);
      d.coarse = coarse;
      continue;
    }
    changed |= coarse != d.coarse;
    d.coarse = coarse;
  }
  if (changed && m_batch) rebuildCells();
}

int Scene::coarseCount() const {
  int n = 0;
  for (const DetailItem& d : m_details) n += d.coarse;
  return n;
}

void Scene::finishBatch() {
  if (!m_batch) {
    watchDetail();  // large meshes have their own actors, and a level of detail
    return;
  }
  m_bodyPointStart.resize(m_model.nb + 1, static_cast<long long>(m_localPoints.size()));
  vtkNew<vtkPoints> points;
  points->SetDataTypeToFloat();  // what GL draws: uploaded without conversion each frame
  points->SetNumberOfPoints(static_cast<vtkIdType>(m_localPoints.size()));
  vtkNew<vtkFloatArray> normals;
  normals->SetNumberOfComponents(3);
  normals->SetNumberOfTuples(static_cast<vtkIdType>(m_localNormals.size()));
  normals->SetName("Normals");
  m_batch->SetPoints(points);
  m_batch->GetPointData()->SetNormals(normals);
  rebuildCells();
  m_batchActor = actorFor(m_batch, Vec3::Ones(), nullptr);
  m_batchActor->SetUserTransform(nullptr);
  // every batched surface is closed (boxes, capped cylinders, spheres) or two-sided
  // (triangles, see addPrimitive): back faces are never seen, and not rasterising them
  // halves software GL's work
  m_batchActor->GetProperty()->BackfaceCullingOn();
  m_batchActor->GetMapper()->ScalarVisibilityOn();
  static_cast<vtkPolyDataMapper*>(m_batchActor->GetMapper())->SetScalarModeToUseCellData();
  m_renderer->AddActor(m_batchActor);
  watchDetail();
}

void Scene::watchDetail() {
  if (m_details.empty() || m_detailObserver) return;
  // the level of detail follows the camera: chosen as each render starts
  vtkNew<vtkCallbackCommand> onRender;
  onRender->SetClientData(this);
  onRender->SetCallback([](vtkObject*, unsigned long, void* scene, void*) {
    static_cast<Scene*>(scene)->updateDetail();
  });
  m_detailObserver = m_renderer->AddObserver(vtkCommand::StartEvent, onRender);
}

void Scene::finishBody(int body) {
  BodyActors& ba = m_bodies[body + 1];
  // moving bodies' surfaces join the batch; the base's surfaces get one actor and every
  // body's lines another: draw calls, not triangles, cost most
  if (body >= 0 && !ba.surfaces.empty()) addToBatch(body, ba.surfaces);
  std::vector<PolyPtr> surfaces;
  if (body < 0)
    for (const BodyActors::Part& part : ba.surfaces) surfaces.push_back(part.surface);
  ba.surfaces.clear();
  for (auto* parts : {&surfaces, &ba.lines}) {
    if (parts->empty()) continue;
    vtkNew<vtkAppendPolyData> append;
    for (const PolyPtr& pd : *parts) append->AddInputData(pd);
    append->Update();
    auto a = actorFor(append->GetOutput(), Vec3::Ones(), ba.transform);
    a->GetMapper()->ScalarVisibilityOn();
    static_cast<vtkPolyDataMapper*>(a->GetMapper())->SetScalarModeToUseCellData();
    if (parts == &ba.lines) {
      a->GetProperty()->SetLineWidth(2);
      a->GetProperty()->LightingOff();
    }
    ba.actors.push_back(a);
    m_renderer->AddActor(a);
    parts->clear();
  }
}

void Scene::setGhost(double opacity) {
  auto ghost = [&](vtkActor* a) {
    a->GetProperty()->SetOpacity(opacity);
    a->PickableOff();
  };
  if (m_batchActor) ghost(m_batchActor);  // the moving bodies' surfaces, every detail level
  for (auto& b : m_bodies)
    for (auto& a : b.actors) ghost(a);
}

void Scene::setPose(const Eigen::VectorXd& q) {
  forwardKinematics(m_model, m_data, q);
  for (int i = 0; i < m_model.nb; ++i) m_poses[i] = bodyPose(m_model, m_data, i);
  placeBodies();
  if (m_layer && m_names) m_layer->update(m_annotations, m_names, m_poses);  // names follow
}

void Scene::setPoses(const std::vector<BodyPose>& poses) {
  if (static_cast<int>(poses.size()) != m_model.nb)
    throw std::invalid_argument("Scene::setPoses: expected " + std::to_string(m_model.nb) +
                                " poses, got " + std::to_string(poses.size()));
  m_poses = poses;
  placeBodies();
  if (m_layer && m_names) m_layer->update(m_annotations, m_names, m_poses);  // names follow
}

void Scene::placeBodies() {
  for (int i = 0; i < m_model.nb; ++i) {
    double M[16];
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) M[4 * r + c] = m_poses[i].rotation(r, c);
      M[4 * r + 3] = m_poses[i].position(r);
    }
    M[12] = M[13] = M[14] = 0;
    M[15] = 1;
    m_bodies[i + 1].transform->SetMatrix(M);
  }
  if (!m_batch) return;
  float* pts = static_cast<float*>(m_batch->GetPoints()->GetData()->GetVoidPointer(0));
  float* nrm = static_cast<vtkFloatArray*>(m_batch->GetPointData()->GetNormals())->GetPointer(0);
  for (int i = 0; i < m_model.nb; ++i) {
    const Mat3& R = m_poses[i].rotation;
    const Vec3& p = m_poses[i].position;
    for (long long k = m_bodyPointStart[i]; k < m_bodyPointStart[i + 1]; ++k) {
      Eigen::Map<Eigen::Vector3f>(pts + 3 * k) = (R * m_localPoints[k] + p).cast<float>();
      Eigen::Map<Eigen::Vector3f>(nrm + 3 * k) = (R * m_localNormals[k]).cast<float>();
    }
  }
  m_batch->GetPoints()->Modified();
  m_batch->GetPointData()->GetNormals()->Modified();
  m_batch->Modified();
}

namespace {
// points of a spring's zigzag between its ends (kCoilPoints inner points)
constexpr int kCoilPoints = 16;
int segmentPoints(SegmentReport::Kind kind) {
  return kind == SegmentReport::Kind::Spring ? kCoilPoints + 2 : 2;
}
std::array<unsigned char, 3> colourOf(const SegmentReport& s) {
  switch (s.kind) {
    case SegmentReport::Kind::Cable:
      return s.slack ? std::array<unsigned char, 3>{150, 175, 205}
                     : std::array<unsigned char, 3>{225, 70, 25};
    case SegmentReport::Kind::Spring: return {40, 165, 60};
    case SegmentReport::Kind::Damper: return {70, 70, 75};
    case SegmentReport::Kind::Rod: return {120, 125, 135};
    case SegmentReport::Kind::Equality: {
      if (!s.active) return {150, 150, 160};  // switched off: grey, whatever its violation
      // green while it holds, through amber to red at 1 cm (or 0.1 rad of a weld) apart
      const double x = std::isfinite(s.violation) ? std::clamp(s.violation / 0.01, 0.0, 1.0) : 1.0;
      auto mix = [x](double a, double b) { return static_cast<unsigned char>(std::lround(a + x * (b - a))); };
      return {mix(30, 225), mix(200, 40), mix(90, 30)};
    }
  }
  return {0, 0, 0};
}
}  // namespace

void Scene::buildSegments(const std::vector<SegmentReport>& segments) {
  if (m_segmentActor) m_renderer->RemoveActor(m_segmentActor);
  m_segmentActor = nullptr;
  m_segmentLines = nullptr;
  m_segmentStart.assign(1, 0);
  m_coilWidth.clear();
  if (segments.empty()) return;
  vtkNew<vtkCellArray> lines;
  for (const SegmentReport& s : segments) {
    const int n = segmentPoints(s.kind);
    lines->InsertNextCell(n);
    for (int i = 0; i < n; ++i) lines->InsertCellPoint(m_segmentStart.back() + i);
    m_segmentStart.push_back(m_segmentStart.back() + n);
    // a coil as wide as a twentieth of the spring's first length (at least 1 cm)
    m_coilWidth.push_back(std::max(0.01, 0.05 * (s.b - s.a).norm()));
  }
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(static_cast<vtkIdType>(m_segmentStart.back()));
  vtkNew<vtkUnsignedCharArray> colours;
  colours->SetNumberOfComponents(3);
  colours->SetName("colours");
  colours->SetNumberOfTuples(static_cast<vtkIdType>(segments.size()));
  m_segmentLines = vtkSmartPointer<vtkPolyData>::New();
  m_segmentLines->SetPoints(points);
  m_segmentLines->SetLines(lines);
  m_segmentLines->GetCellData()->SetScalars(colours);
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(m_segmentLines);
  mapper->ScalarVisibilityOn();
  mapper->SetScalarModeToUseCellData();
  m_segmentActor = vtkSmartPointer<vtkActor>::New();
  m_segmentActor->SetMapper(mapper);
  m_segmentActor->GetProperty()->SetLineWidth(3.0);
  // the colour says taut or slack: unlit, exactly the cell's colour
  m_segmentActor->GetProperty()->LightingOff();
  m_segmentActor->GetProperty()->SetAmbient(0.0);
  m_segmentActor->GetProperty()->SetDiffuse(1.0);
  m_segmentActor->PickableOff();
  m_renderer->AddActor(m_segmentActor);
}

void Scene::setSegments(const std::vector<SegmentReport>& segments) {
  bool same = segments.size() == m_segments.size() && m_segmentLines;
  for (std::size_t k = 0; same && k < segments.size(); ++k)
    same = segments[k].kind == m_segments[k].kind;
  if (!same && !(segments.empty() && m_segments.empty())) buildSegments(segments);
  m_segments = segments;
  if (!m_segmentLines) return;
  if (m_tensionShading)
    for (const SegmentReport& s : segments)
      if (s.kind == SegmentReport::Kind::Cable && !s.slack) m_tensionScale = std::max(m_tensionScale, s.tension);
  double* pts = static_cast<double*>(m_segmentLines->GetPoints()->GetData()->GetVoidPointer(0));
  unsigned char* rgb =
      static_cast<vtkUnsignedCharArray*>(m_segmentLines->GetCellData()->GetScalars())->GetPointer(0);
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const SegmentReport& s = segments[k];
    double* line = pts + 3 * m_segmentStart[k];
    Eigen::Map<Vec3>(line + 0) = s.a;
    if (s.kind == SegmentReport::Kind::Spring) {
      // zigzag across the spring, in the plane of the spring and world z when it can be (so
      // that planar structures show it in their plane)
      const Vec3 d = s.b - s.a;
      const Vec3 e = d.norm() > 0 ? Vec3(d.normalized()) : Vec3::UnitX();
      Vec3 u = e.cross(Vec3::UnitZ());
      if (u.norm() < 0.1) u = e.cross(Vec3::UnitX());
      u = u.normalized() * m_coilWidth[k];
      for (int i = 0; i < kCoilPoints; ++i) {
        const double t = 0.15 + 0.7 * (i + 0.5) / kCoilPoints;
        Eigen::Map<Vec3>(line + 3 * (i + 1)) = s.a + t * d + (i % 2 ? -1.0 : 1.0) * u;
      }
    }
    Eigen::Map<Vec3>(line + 3 * (m_segmentStart[k + 1] - m_segmentStart[k] - 1)) = s.b;
    const bool shaded = m_tensionShading && s.kind == SegmentReport::Kind::Cable && !s.slack && m_tensionScale > 0;
    const auto c = shaded ? tensionColour(s.tension / m_tensionScale) : colourOf(s);
    std::copy(c.begin(), c.end(), rgb + 3 * k);
  }
  m_segmentLines->GetPoints()->Modified();
  m_segmentLines->GetCellData()->GetScalars()->Modified();
  m_segmentLines->Modified();
}

std::array<unsigned char, 3> tensionColour(double s) {
  s = std::isfinite(s) ? std::clamp(s, 0.0, 1.0) : 1.0;
  // amber (250, 200, 60) to deep red (170, 0, 20): light to dark, readable on the grey floor
  auto mix = [s](double a, double b) { return static_cast<unsigned char>(std::lround(a + s * (b - a))); };
  return {mix(250, 170), mix(200, 0), mix(60, 20)};
}

void Scene::setTensionShading(bool on) {
  if (on == m_tensionShading) return;
  m_tensionShading = on;
  m_tensionScale = 0.0;
  const std::vector<SegmentReport> again = m_segments;
  setSegments(again);
}

std::vector<Vec3> Scene::segmentPolyline(int k) const {
  std::vector<Vec3> out;
  if (!m_segmentLines || k < 0 || k >= static_cast<int>(m_segments.size())) return out;
  for (long long i = m_segmentStart[k]; i < m_segmentStart[k + 1]; ++i)
    out.push_back(v3(m_segmentLines->GetPoint(i)));
  return out;
}

std::array<unsigned char, 3> Scene::segmentColour(int k) const {
  if (!m_segmentLines || k < 0 || k >= static_cast<int>(m_segments.size())) return {0, 0, 0};
  const unsigned char* rgb =
      static_cast<vtkUnsignedCharArray*>(m_segmentLines->GetCellData()->GetScalars())->GetPointer(0);
  return {rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]};
}

void Scene::movingBounds(Vec3& lo, Vec3& hi) const {
  lo = Vec3::Constant(INFINITY);
  hi = Vec3::Constant(-INFINITY);
  if (m_batch && m_batch->GetNumberOfPoints() > 0) {
    double b[6];
    m_batch->GetBounds(b);
    lo = Vec3(b[0], b[2], b[4]);
    hi = Vec3(b[1], b[3], b[5]);
  }
  for (int i = 1; i <= m_model.nb; ++i)
    for (const auto& a : m_bodies[i].actors) {
      double b[6];
      a->GetBounds(b);
      if (b[0] > b[1]) continue;
      for (int k = 0; k < 3; ++k) {
        lo(k) = std::min(lo(k), b[2 * k]);
        hi(k) = std::max(hi(k), b[2 * k + 1]);
      }
    }
}

double Scene::bodyRadius(int b) const {
  double radius = 0;
  if (b >= 0 && m_bodyPointStart.size() > static_cast<std::size_t>(b + 1))
    for (long long k = m_bodyPointStart[b]; k < m_bodyPointStart[b + 1]; ++k)
      radius = std::max(radius, m_localPoints[static_cast<std::size_t>(k)].norm());
  return radius;
}

double Scene::drawnRadius() const {
  double radius = 0;
  for (int b = 0; b < m_model.nb; ++b) radius = std::max(radius, bodyRadius(b));
  return radius;
}

void Scene::reachBounds(Vec3& lo, Vec3& hi) const {
  lo = Vec3::Constant(INFINITY);
  hi = Vec3::Constant(-INFINITY);
  const int nb = m_model.nb;
  std::vector<double> reach(static_cast<std::size_t>(nb), 0.0);
  std::vector<int> root(static_cast<std::size_t>(nb), -1);
  for (int b = 0; b < nb; ++b) {
    const int p = m_model.parent[b];
    if (p < 0) {
      root[b] = m_model.joints[b].type == JointType::Free ? -1 : b;
    } else {
      root[b] = root[p];
      reach[b] = reach[p] + (m_poses[b].position - m_poses[p].position).norm();
    }
    if (root[b] < 0) continue;
    const double radius = bodyRadius(b);
    // a planar chain swings in the x-y plane only
    const double r = reach[b] + radius;
    const Vec3 extent = m_model.arithmetic == Arithmetic::Planar ? Vec3(r, r, radius) : Vec3::Constant(r);
    const Vec3& c = m_poses[root[b]].position;
    lo = lo.cwiseMin(c - extent);
    hi = hi.cwiseMax(c + extent);
  }
}

void Scene::bodyBounds(int body, Vec3& lo, Vec3& hi) const {
  lo = Vec3::Constant(INFINITY);
  hi = Vec3::Constant(-INFINITY);
  if (body < 0 || body >= m_model.nb) return;
  if (m_bodyPointStart.size() > static_cast<std::size_t>(body + 1)) {
    const BodyPose& p = m_poses[body];
    for (long long k = m_bodyPointStart[body]; k < m_bodyPointStart[body + 1]; ++k) {
      const Vec3 x = p.rotation * m_localPoints[k] + p.position;
      lo = lo.cwiseMin(x);
      hi = hi.cwiseMax(x);
    }
  }
  for (const DetailItem& d : m_details) {  // large meshes: their own actors
    if (d.body != body || !d.fine) continue;
    double b[6];
    d.fine->GetBounds(b);
    if (b[0] > b[1]) continue;
    lo = lo.cwiseMin(Vec3(b[0], b[2], b[4]));
    hi = hi.cwiseMax(Vec3(b[1], b[3], b[5]));
  }
}

int Scene::bodyOf(vtkProp* prop, long long cell) const {
  if (m_batchActor && prop == m_batchActor.GetPointer())
    return cell >= 0 && cell < static_cast<long long>(m_cellBody.size()) ? m_cellBody[cell] : -2;
  for (std::size_t i = 0; i < m_bodies.size(); ++i)
    for (const auto& a : m_bodies[i].actors)
      if (a.GetPointer() == prop) return static_cast<int>(i) - 1;
  return -2;
}

void Scene::setHighlighted(int body) {
  auto style = [&](int b, bool on) {
    if (b < -1 || b >= m_model.nb) return;
    for (auto& a : m_bodies[b + 1].actors) {
      a->GetProperty()->SetAmbient(on ? 0.55 : 0.15);
      a->GetProperty()->SetAmbientColor(on ? 1.0 : 1.0, on ? 0.85 : 1.0, on ? 0.2 : 1.0);
    }
  };
  style(m_highlighted, false);
  m_highlighted = body;
  style(body, true);
  if (m_batch) applyCellColours();
}

void Scene::setSitesVisible(bool visible) {
  if (visible && !m_sitesBuilt) {
    m_sitesBuilt = true;
    for (const SiteSpec& site : m_sites) {
      BodyActors& ba = m_bodies[static_cast<std::size_t>(site.body + 1)];
      auto a = actorFor(sphere(site.position, site.size, 16), site.colour, ba.transform);
      a->GetProperty()->SetOpacity(site.opacity);
      a->PickableOff();
      ba.sites.push_back(a);
      m_renderer->AddActor(a);
    }
  }
  for (auto& b : m_bodies)
    for (auto& a : b.sites) a->SetVisibility(visible);
}

void Scene::setCollisionGeomsVisible(bool visible) {
  if (visible && !m_geomsBuilt) {
    m_geomsBuilt = true;
    for (const GeomSpec& g : m_model.geoms) {
      const std::optional<Primitive> surface = geomSurface(g);
      if (!surface) continue;
      BodyActors& ba = m_bodies[static_cast<std::size_t>(g.body + 1)];
      // orange, translucent, lit from both sides: the shape that collides over the one drawn
      auto a = actorFor(triangles(*surface), Vec3(1.0, 0.55, 0.1), ba.transform);
      a->GetProperty()->SetOpacity(0.45);
      a->PickableOff();
      ba.geoms.push_back(a);
      m_renderer->AddActor(a);
    }
  }
  for (auto& b : m_bodies)
    for (auto& a : b.geoms) a->SetVisibility(visible);
}

int Scene::collisionGeomsShown() const {
  int n = 0;
  for (const auto& b : m_bodies)
    for (const auto& a : b.geoms) n += a->GetVisibility() ? 1 : 0;
  return n;
}

int Scene::sitesShown() const {
  int n = 0;
  for (const auto& b : m_bodies)
    for (const auto& a : b.sites) n += a->GetVisibility() ? 1 : 0;
  return n;
}

void Scene::setOverlayVisibility(bool frames, bool jointAxes, bool coms) {
  if (frames || jointAxes || coms) buildOverlays();
  for (auto& b : m_bodies) {
    for (auto& a : b.frames) a->SetVisibility(frames);
    for (auto& a : b.axes) a->SetVisibility(jointAxes);
    for (auto& a : b.coms) a->SetVisibility(coms);
  }
}

}  // namespace art::gui
