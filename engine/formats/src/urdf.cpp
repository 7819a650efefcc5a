// URDF import and export through urdfdom (parseURDF, exportURDF); see articulate/urdf.h and
// docs/model-format.md, section URDF.
#include "articulate/formats/urdf.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <console_bridge/console.h>
#include <tinyxml.h>

#include "urdf_transmissions.h"
#include <urdf_parser/urdf_parser.h>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/appearance.h"
#include "articulate/model/model.h"
#include "articulate/formats/files.h"
#include "articulate/formats/mesh.h"
#include "articulate/formats/spatial_v2.h"
#include "robot_import.h"

namespace art {

namespace {

using nlohmann::json;
using robot::num;
using robot::vec;
using robot::vecText;

// the fixed base's link: "world", which URDF readers (DART, Pinocchio, Articulate) take as the
// fixed frame, so that the export of a fixed-base model reads back fixed
constexpr const char* kBaseLink = "world";
// URDF requires <limit> with all four numbers on revolute and prismatic joints: what a body
// does not limit is written as these (and reads back as these limits)
constexpr double kTravel = 1000;    // m or rad, either way
constexpr double kEffort = 1000;    // N or N m
constexpr double kVelocity = 100;   // m/s or rad/s

Vec3 toVec(const urdf::Vector3& v) { return {v.x, v.y, v.z}; }
urdf::Vector3 fromVec(const Vec3& v) { return urdf::Vector3(v.x(), v.y(), v.z()); }

// the rotation matrix of a urdf rotation (a unit quaternion); entries within round-off of 0 or
// +-1 are set to it, so that quarter turns read as clean matrices
Mat3 toMat(const urdf::Rotation& r) {
  Mat3 R = Eigen::Quaterniond(r.w, r.x, r.y, r.z).normalized().toRotationMatrix();
  for (int k = 0; k < 9; ++k) {
    double& x = R.data()[k];
    if (std::abs(x) < 4e-16) x = 0;
    if (std::abs(std::abs(x) - 1) < 4e-16) x = std::copysign(1.0, x);
  }
  return R;
}

urdf::Rotation fromMat(const Mat3& R) {
  const Eigen::Quaterniond q(R);
  urdf::Rotation r;
  r.setFromQuaternion(q.x(), q.y(), q.z(), q.w());
  return r;
}

urdf::Pose pose(const Mat3& R, const Vec3& p) {
  urdf::Pose out;
  out.position = fromVec(p);
  out.rotation = fromMat(R);
  return out;
}

// URDF colours are floats: the shortest decimal that reads back to the float, and its value
std::string numFloat(float v) {
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), r.ptr);
}
double colourValue(float v) {
  const std::string text = numFloat(v);
  double out = static_cast<double>(v);
  std::from_chars(text.data(), text.data() + text.size(), out);  // not strtod: no locale
  return out;
}

std::string nums(const Vec3& v) { return num(v.x()) + " " + num(v.y()) + " " + num(v.z()); }

void setAttr(TiXmlElement* e, const char* name, const std::string& value) {
  if (e) e->SetAttribute(name, value.c_str());
}

void setPose(TiXmlElement* e, const urdf::Pose& p) {
  setAttr(e, "xyz", nums(toVec(p.position)));
  setAttr(e, "rpy", nums(rpyAngles(toMat(p.rotation))));
}

void setColour(TiXmlElement* e, const urdf::Color& c) {
  setAttr(e, "rgba", numFloat(c.r) + " " + numFloat(c.g) + " " + numFloat(c.b) + " " + numFloat(c.a));
}

// a <geometry>'s box, cylinder or sphere numbers, exactly
void setGeometry(TiXmlElement* g, const urdf::GeometrySharedPtr& geometry) {
  if (!g || !geometry) return;
  if (geometry->type == urdf::Geometry::BOX)
    setAttr(g->FirstChildElement("box"), "size", nums(toVec(static_cast<const urdf::Box&>(*geometry).dim)));
  if (geometry->type == urdf::Geometry::CYLINDER) {
    const auto& c = static_cast<const urdf::Cylinder&>(*geometry);
    setAttr(g->FirstChildElement("cylinder"), "radius", num(c.radius));
    setAttr(g->FirstChildElement("cylinder"), "length", num(c.length));
  }
  if (geometry->type == urdf::Geometry::SPHERE)
    setAttr(g->FirstChildElement("sphere"), "radius", num(static_cast<const urdf::Sphere&>(*geometry).radius));
}

// urdfdom 3.0's exporter writes 6 significant digits (values2str) and rpy through getRPY (which
// snaps roll to 0 within 0.26 degrees of pitch +-90; spatial.h's rpyAngles does not); this
// pass rewrites every number of the exported document from the model, exactly
void writeExactNumbers(TiXmlElement* robot, const urdf::ModelInterface& m) {
  for (TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Value();
    const char* name = e->Attribute("name");
    if (!name) continue;
    if (tag == "material") {
      setColour(e->FirstChildElement("color"), m.materials_.at(name)->color);
    } else if (tag == "link") {
      const urdf::Link& link = *m.links_.at(name);
      if (TiXmlElement* in = e->FirstChildElement("inertial"); in && link.inertial) {
        const urdf::Inertial& i = *link.inertial;
        setAttr(in->FirstChildElement("mass"), "value", num(i.mass));
        setPose(in->FirstChildElement("origin"), i.origin);
        TiXmlElement* t = in->FirstChildElement("inertia");
        const std::pair<const char*, double> entries[] = {{"ixx", i.ixx}, {"ixy", i.ixy}, {"ixz", i.ixz},
                                                          {"iyy", i.iyy}, {"iyz", i.iyz}, {"izz", i.izz}};
        for (const auto& [key, value] : entries) setAttr(t, key, num(value));
      }
      std::size_t k = 0;
      for (TiXmlElement* v = e->FirstChildElement("visual"); v && k < link.visual_array.size();
           v = v->NextSiblingElement("visual"), ++k) {
        const urdf::Visual& visual = *link.visual_array[k];
        setPose(v->FirstChildElement("origin"), visual.origin);
        setGeometry(v->FirstChildElement("geometry"), visual.geometry);
        if (TiXmlElement* mat = v->FirstChildElement("material"); mat && visual.material)
          setColour(mat->FirstChildElement("color"), visual.material->color);
      }
      k = 0;
      for (TiXmlElement* c = e->FirstChildElement("collision"); c && k < link.collision_array.size();
           c = c->NextSiblingElement("collision"), ++k) {
        if (!link.collision_array[k]->name.empty()) setAttr(c, "name", link.collision_array[k]->name);  // urdfdom writes none
        setPose(c->FirstChildElement("origin"), link.collision_array[k]->origin);
        setGeometry(c->FirstChildElement("geometry"), link.collision_array[k]->geometry);
      }
    } else if (tag == "joint") {
      const urdf::Joint& j = *m.joints_.at(name);
      setPose(e->FirstChildElement("origin"), j.parent_to_joint_origin_transform);
      setAttr(e->FirstChildElement("axis"), "xyz", nums(toVec(j.axis)));
      if (TiXmlElement* l = e->FirstChildElement("limit"); l && j.limits) {
        setAttr(l, "lower", num(j.limits->lower));
        setAttr(l, "upper", num(j.limits->upper));
        setAttr(l, "effort", num(j.limits->effort));
        setAttr(l, "velocity", num(j.limits->velocity));
      }
      if (TiXmlElement* mi = e->FirstChildElement("mimic"); mi && j.mimic) {
        setAttr(mi, "multiplier", num(j.mimic->multiplier));
        setAttr(mi, "offset", num(j.mimic->offset));
      }
      if (TiXmlElement* d = e->FirstChildElement("dynamics"); d && j.dynamics) {
        setAttr(d, "damping", num(j.dynamics->damping));
        setAttr(d, "friction", num(j.dynamics->friction));
      }
    }
  }
}

// urdfdom writes links and joints in name order; put them in the model's order (base first)
void orderElements(TiXmlElement* robot, const char* tag, const std::vector<std::string>& names) {
  for (const std::string& n : names)
    for (TiXmlElement* e = robot->FirstChildElement(tag); e; e = e->NextSiblingElement(tag))
      if (e->Attribute("name") && n == e->Attribute("name")) {
        robot->InsertEndChild(*e);
        robot->RemoveChild(e);
        break;
      }
}

// the visuals of one drawing-instruction list (boxes, cylinders, spheres); counts the rest
void addVisuals(const json& appearance, const Vec3& defaultColour, bool isBase, urdf::Link& link,
                std::map<std::array<float, 3>, urdf::MaterialSharedPtr>& materials, int& dropped) {
  for (const Primitive& p : interpretAppearance(appearance, defaultColour, isBase, "", nullptr)) {
    auto visual = std::make_shared<urdf::Visual>();
    Mat3 R = Mat3::Identity();
    Vec3 centre = Vec3::Zero();
    if (!p.points.empty()) centre = p.points[0];
    if (p.kind == Primitive::Kind::Box) {
      auto box = std::make_shared<urdf::Box>();
      box->dim = fromVec((p.points[1] - p.points[0]).cwiseAbs());
      centre = (p.points[0] + p.points[1]) / 2;
      visual->geometry = box;
    } else if (p.kind == Primitive::Kind::Cylinder) {
      auto cyl = std::make_shared<urdf::Cylinder>();
      const Vec3 d = p.points[1] - p.points[0];
      cyl->length = d.norm();
      cyl->radius = p.radius;
      centre = (p.points[0] + p.points[1]) / 2;
      R = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitZ(), d).toRotationMatrix();
      visual->geometry = cyl;
    } else if (p.kind == Primitive::Kind::Sphere) {
      auto sphere = std::make_shared<urdf::Sphere>();
      sphere->radius = p.radius;
      visual->geometry = sphere;
    } else if (p.kind == Primitive::Kind::Mesh) {
      auto mesh = std::make_shared<urdf::Mesh>();
      mesh->filename = p.file;
      mesh->scale = fromVec(p.scale);
      R = p.rotation;
      visual->geometry = mesh;
      if (p.fileColours) {  // no <material>: the file's own colours
        visual->origin = pose(R, centre);
        link.visual_array.push_back(visual);
        continue;
      }
    } else {
      ++dropped;
      continue;
    }
    visual->origin = pose(R, centre);
    const std::array<float, 3> key = {static_cast<float>(p.colour.x()), static_cast<float>(p.colour.y()),
                                      static_cast<float>(p.colour.z())};
    urdf::MaterialSharedPtr& material = materials[key];
    if (!material) {
      material = std::make_shared<urdf::Material>();
      material->name = "colour" + std::to_string(materials.size() - 1);
      material->color.r = key[0];
      material->color.g = key[1];
      material->color.b = key[2];
      material->color.a = 1.0f;
    }
    visual->material = material;
    visual->material_name = material->name;
    link.visual_array.push_back(visual);
  }
}

// the geoms of `body` (-1: the base) that URDF holds, a sphere, box or cylinder, as <collision>s
// of its link (whose frame is the body's); counts the others (planes, capsules, ellipsoids,
// meshes: URDF's mesh is a file, a geom's hull is vertices)
void addCollisions(const ModelSpec& spec, int body, urdf::Link& link, int& unstored) {
  for (const GeomSpec& g : spec.geoms) {
    if (g.body != body) continue;
    urdf::GeometrySharedPtr geometry;
    if (g.type == GeomSpec::Type::Sphere) {
      auto sphere = std::make_shared<urdf::Sphere>();
      sphere->radius = g.size(0);
      geometry = sphere;
    } else if (g.type == GeomSpec::Type::Box) {
      auto box = std::make_shared<urdf::Box>();
      box->dim = fromVec(2 * g.size);
      geometry = box;
    } else if (g.type == GeomSpec::Type::Cylinder) {
      auto cyl = std::make_shared<urdf::Cylinder>();
      cyl->radius = g.size(0);
      cyl->length = 2 * g.size(1);
      geometry = cyl;
    } else {
      unstored += g.type != GeomSpec::Type::Plane || g.name != "ground";  // a URDF import's ground comes back by itself
      continue;
    }
    auto collision = std::make_shared<urdf::Collision>();
    collision->name = g.name;
    collision->origin = pose(g.rotation, g.position);
    collision->geometry = geometry;
    link.collision_array.push_back(collision);
  }
}

// whether the model floats: its first body is on a free joint (the URDF root link, no "world")
bool floatingRoot(const ModelSpec& spec) {
  return !spec.bodies.empty() && spec.bodies.front().joint.type == JointType::Free;
}

// refuses what has no URDF form: planar models, empty or "world" names, H joints, a free joint
// other than the first body's (or placed, or beside other bodies on the base), loops
void checkUrdfForm(const ModelSpec& spec) {
  if (spec.arithmetic == Arithmetic::Planar)
    throw UrdfError("planar models (arithmetic \"planar\") have no URDF form: URDF describes "
                    "spatial mechanisms");
  if (hasControlCharacter(spec.name))
    throw UrdfError("the model's name '" + robot::printable(spec.name) + "' has a control character, which URDF (XML 1.0) cannot hold");
  for (const BodySpec& b : spec.bodies) {
    if (hasControlCharacter(b.name))  // a NUL ended in "map::at"; \x01 was written as &#x01;, which no reader takes
      throw UrdfError("body '" + robot::printable(b.name) + "': the name has a control character, which URDF (XML 1.0) cannot hold");
    if (b.name.empty() || b.name == kBaseLink)
      throw UrdfError("body '" + b.name + "': URDF needs a non-empty link name other than 'world'");
    if (b.joint.type == JointType::H)
      throw UrdfError("body '" + b.name + "': its helical joint (H) has no URDF form (URDF joints "
                      "rotate or slide, not both)");
    if (b.joint.type == JointType::Ball)
      throw UrdfError("body '" + b.name + "': its ball joint has no URDF form (URDF has no "
                      "spherical joint; MJCF has)");
    if (b.joint.type == JointType::Free && &b != &spec.bodies.front())
      throw UrdfError("body '" + b.name + "': its free joint has no URDF form (a URDF robot floats "
                      "at its root link only: make it the first body)");
  }
  if (floatingRoot(spec)) {
    const BodySpec& root = spec.bodies.front();
    if (!root.rotation.isIdentity(0) || !root.translation.isZero(0))
      throw UrdfError("body '" + root.name + "': the placement of its free joint has no URDF form (a "
                      "floating root link is placed by its pose alone)");
    for (std::size_t i = 1; i < spec.bodies.size(); ++i)
      if (spec.bodies[i].parent < 0)
        throw UrdfError("body '" + spec.bodies[i].name + "': it is on the fixed base beside the floating '" +
                        root.name + "', and a URDF robot has one root link");
  }
  for (std::size_t k = 0; k < spec.constraints.size(); ++k) {
    const ConstraintSpec& c = spec.constraints[k];
    if (c.type == ConstraintSpec::Type::Loop)
      throw UrdfError("constraint " + (c.name.empty() ? "#" + std::to_string(k + 1) : "'" + c.name + "'") +
                      ": loop closures have no URDF form (URDF describes trees)");
  }
}

// body index -> its coupling constraint (its joint's <mimic>); refuses two on one body
std::map<int, const ConstraintSpec*> mimicsOf(const ModelSpec& spec) {
  std::map<int, const ConstraintSpec*> mimics;
  for (const ConstraintSpec& c : spec.constraints)
    if (!mimics.emplace(c.joint, &c).second)
      throw UrdfError("body '" + spec.bodies.at(c.joint).name + "': a URDF joint mimics one joint only, "
                      "it has two coupling constraints");
  return mimics;
}

// the URDF joint name of body `body` ("<body name>_joint")
std::string jointNameOf(const ModelSpec& spec, int body) {
  return spec.bodies[body].name + "_joint";
}

// a body's <inertial>: kg, COM (m) and inertia about it (kg m^2) in the link frame; null if none
urdf::InertialSharedPtr urdfInertial(const InertiaSpec& inertia) {
  const Mat6 I = inertia.spatial();
  if (I.isZero(0)) return nullptr;
  double mass = inertia.mass;
  Vec3 com = inertia.com;
  Mat3 Ic = inertia.aboutCom;
  if (inertia.raw) {  // [Ic + m cx cx', m cx; m cx', m 1]
    mass = I(5, 5);
    com = mass > 0 ? Vec3(Vec3(I(2, 4), I(0, 5), I(1, 3)) / mass) : Vec3(Vec3::Zero());
    Ic = I.topLeftCorner<3, 3>() - mass * skew(com) * skew(com).transpose();
  }
  auto in = std::make_shared<urdf::Inertial>();
  in->mass = mass;
  in->origin = pose(Mat3::Identity(), com);
  in->ixx = Ic(0, 0), in->ixy = Ic(0, 1), in->ixz = Ic(0, 2);
  in->iyy = Ic(1, 1), in->iyz = Ic(1, 2), in->izz = Ic(2, 2);
  return in;
}

// body i's continuous/prismatic joint: axis in joint frame, origin in parent link frame, mimic
urdf::JointSharedPtr urdfJoint(const ModelSpec& spec, int i,
                               const std::map<int, const ConstraintSpec*>& mimics) {
  const BodySpec& b = spec.bodies[i];
  auto joint = std::make_shared<urdf::Joint>();
  joint->name = jointNameOf(spec, i);
  const int axis = b.joint.unitAxis();  // 0..2 rotation, 3..5 translation
  const JointLimits& l = b.limits;
  joint->type = axis >= 3 ? urdf::Joint::PRISMATIC : l.lower || l.upper ? urdf::Joint::REVOLUTE : urdf::Joint::CONTINUOUS;
  joint->axis = fromVec(Vec3::Unit(axis % 3));
  joint->parent_link_name = b.parent < 0 ? std::string(kBaseLink) : spec.bodies[b.parent].name;
  joint->child_link_name = b.name;
  joint->parent_to_joint_origin_transform = pose(b.rotation.transpose(), b.translation);
  if (joint->type != urdf::Joint::CONTINUOUS || l.effort || l.velocity) {
    joint->limits = std::make_shared<urdf::JointLimits>();
    joint->limits->lower = l.lower.value_or(-kTravel);
    joint->limits->upper = l.upper.value_or(kTravel);
    joint->limits->effort = l.effort.value_or(kEffort);
    joint->limits->velocity = l.velocity.value_or(kVelocity);
  }
  if (auto c = mimics.find(i); c != mimics.end()) {
    joint->mimic = std::make_shared<urdf::JointMimic>();
    joint->mimic->joint_name = jointNameOf(spec, c->second->master);
    joint->mimic->multiplier = c->second->ratio;
    joint->mimic->offset = c->second->offset;
  }
  if (b.damping > 0 || b.friction > 0) {
    joint->dynamics = std::make_shared<urdf::JointDynamics>();
    joint->dynamics->damping = b.damping;
    joint->dynamics->friction = b.friction;
  }
  return joint;
}

// the urdfdom model being exported, with its shared materials and the model's element order
struct UrdfExport {
  urdf::ModelInterface m;
  std::map<std::array<float, 3>, urdf::MaterialSharedPtr> materials;  // by colour (float RGB)
  int dropped = 0;  // drawing instructions with no URDF visual
  int unstoredGeoms = 0;  // geoms with no URDF collision
  std::vector<std::string> linkOrder = {kBaseLink};
  std::vector<std::string> jointOrder;
};

// fills x.m from a checked spec: root link "world" (fixed base) or the first body's (floating), then each body's link and joint in order
void buildUrdfModel(const ModelSpec& spec, const std::map<int, const ConstraintSpec*>& mimics,
                    UrdfExport& x) {
  x.m.name_ = spec.name.empty() ? "articulate" : spec.name;
  const bool floating = floatingRoot(spec);
  urdf::LinkSharedPtr root;
  if (!floating) {
    root = std::make_shared<urdf::Link>();
    root->name = kBaseLink;
    addVisuals(spec.baseAppearance, defaultBodyColour(0), true, *root, x.materials, x.dropped);
    addCollisions(spec, -1, *root, x.unstoredGeoms);
    x.m.links_[root->name] = root;
  } else {
    x.linkOrder.clear();
    for (const GeomSpec& g : spec.geoms)  // no world link to hold the base's geoms
      x.unstoredGeoms += g.body < 0 && (g.type != GeomSpec::Type::Plane || g.name != "ground");
  }
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& b = spec.bodies[i];
    auto link = std::make_shared<urdf::Link>();
    link->name = b.name;
    link->inertial = urdfInertial(b.inertia);  // null: none
    addVisuals(b.appearance, defaultBodyColour(static_cast<int>(i) + 1), false, *link, x.materials,
               x.dropped);
    addCollisions(spec, static_cast<int>(i), *link, x.unstoredGeoms);
    x.m.links_[link->name] = link;
    x.linkOrder.push_back(link->name);
    if (floating && i == 0) {  // the root link: no joint
      root = link;
      continue;
    }

    const urdf::JointSharedPtr joint = urdfJoint(spec, static_cast<int>(i), mimics);
    x.m.joints_[joint->name] = joint;
    x.jointOrder.push_back(joint->name);
  }
  for (const auto& [key, material] : x.materials) x.m.materials_[material->name] = material;
  x.m.root_link_ = root;
}

// the URDF text: urdfdom's export with exact numbers, links and joints in the model's order
std::string printUrdf(const UrdfExport& x, const ModelSpec& spec, std::vector<std::string>& notes) {
  const std::unique_ptr<TiXmlDocument> doc(urdf::exportURDF(x.m));
  TiXmlElement* robot = doc ? doc->FirstChildElement("robot") : nullptr;
  if (!robot) throw UrdfError("urdfdom could not export the model");
  writeExactNumbers(robot, x.m);
  orderElements(robot, "link", x.linkOrder);
  orderElements(robot, "joint", x.jointOrder);
  std::vector<std::string> jointNames;  // each body's URDF joint (a floating root has none)
  for (std::size_t i = 0; i < spec.bodies.size(); ++i)
    jointNames.push_back(spec.bodies[i].joint.type == JointType::Free ? std::string() : jointNameOf(spec, static_cast<int>(i)));
  urdf_io::writeTransmissions(robot, spec, jointNames, notes);
  TiXmlPrinter printer;
  printer.SetIndent("  ");
  doc->Accept(&printer);
  return std::string("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- written by Articulate -->\n") +
         printer.Str();
}

// one note per kind of thing URDF cannot hold (gravity, initial state, controllers, ...)
std::vector<std::string> exportNotes(const ModelSpec& spec, int dropped, int unstoredGeoms) {
  std::vector<std::string> notes;
  const Vec3 g = spec.effectiveGravity();
  if (g != Vec3(0, 0, -9.81))
    notes.push_back("gravity " + vecText(g) + " m/s^2 is not stored: URDF has none (its readers "
                    "assume [0 0 -9.81])");
  int initial = 0, controlled = 0;
  for (const BodySpec& b : spec.bodies) {
    initial += b.q0 != 0 || b.qd0 != 0;
    controlled += b.control.type != ControlSpec::Type::None;
  }
  if (initial) notes.push_back("the initial state of " + std::to_string(initial) + " joint(s) is not stored");
  if (controlled) notes.push_back("the controllers of " + std::to_string(controlled) + " joint(s) are not stored");
  const auto armature = std::count_if(spec.bodies.begin(), spec.bodies.end(), [](const BodySpec& b) { return b.armature > 0; });
  if (armature) notes.push_back("the armature of " + std::to_string(armature) + " joint(s) is not stored: URDF has none");
  const auto springs = std::count_if(spec.bodies.begin(), spec.bodies.end(), [](const BodySpec& b) { return b.stiffness > 0; });
  if (springs) notes.push_back("the springs of " + std::to_string(springs) + " joint(s) are not stored: URDF has none");
  if (!spec.contacts.empty())
    notes.push_back(std::to_string(spec.contacts.size()) + " ground-contact point(s) are not stored");
  if (!spec.equalities.empty())
    notes.push_back(std::to_string(spec.equalities.size()) + " equality constraint(s) of the soft model are not stored "
                    "(a URDF <mimic> is written from a coupling constraint)");
  if (unstoredGeoms)
    notes.push_back(std::to_string(unstoredGeoms) + " collision geom(s) are not stored: URDF's <collision>s are spheres, "
                    "boxes, cylinders and mesh files (planes, capsules, ellipsoids and convex hulls are not)");
  const GeomSpec plain;
  const auto tuned = std::count_if(spec.geoms.begin(), spec.geoms.end(), [&](const GeomSpec& geom) {
    return geom.contype != plain.contype || geom.conaffinity != plain.conaffinity || geom.condim != plain.condim ||
           geom.priority != plain.priority || geom.friction != plain.friction || geom.solmix != plain.solmix ||
           geom.margin != plain.margin || geom.gap != plain.gap || geom.soft != plain.soft;
  });
  if (tuned)
    notes.push_back("the contact parameters of " + std::to_string(tuned) + " geom(s) are not stored: URDF has none "
                    "(read back, each takes MuJoCo's defaults)");
  if (!spec.contactPairs.empty())
    notes.push_back(std::to_string(spec.contactPairs.size()) + " contact pair(s) are not stored");
  if (!spec.contactExcludes.empty())
    notes.push_back(std::to_string(spec.contactExcludes.size()) + " contact exclude(s) are not stored (read back, links "
                    "that overlap at the initial pose are excluded again)");
  if (!spec.forces.empty())
    notes.push_back(std::to_string(spec.forces.size()) + " external force(s) are not stored");
  if (!spec.sites.empty()) notes.push_back(std::to_string(spec.sites.size()) + " site(s) are not stored (URDF has no sites)");
  if (!spec.camera.empty()) notes.push_back("the camera is not stored");
  if (floatingRoot(spec)) {
    const BodySpec& root = spec.bodies.front();
    // URDF has no word for it: readers float a root link not named "world", and Articulate's
    // automatic base only a robot whose collision geometry reaches below it in two branches
    notes.push_back("the floating base is the root link '" + root.name + "' not named 'world' (Articulate reads "
                    "it back floating with --base floating, or by itself when it stands on two or more legs)");
    if (!spec.baseAppearance.empty())
      notes.push_back("the base's drawing is not stored (a floating URDF robot has no fixed link)");
    if (!root.freePosition.isZero(0) || root.freeOrientation != Eigen::Vector4d(1, 0, 0, 0) || !root.freeVelocity.isZero(0))
      notes.push_back("the initial pose and velocity of the floating '" + root.name + "' are not stored");
  }
  if (dropped)
    notes.push_back(std::to_string(dropped) + " drawing instruction(s) other than boxes, cylinders "
                    "and spheres (lines, triangles, tiles) are not stored");
  return notes;
}

}  // namespace

bool isUrdfPath(const std::string& path) {
  if (path.size() < 5) return false;
  std::string ext = path.substr(path.size() - 5);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".urdf";
}

UrdfText specToUrdf(const ModelSpec& spec) {
  checkUrdfForm(spec);
  const std::map<int, const ConstraintSpec*> mimics = mimicsOf(spec);
  UrdfExport x;
  buildUrdfModel(spec, mimics, x);
  UrdfText out;
  out.notes = exportNotes(spec, x.dropped, x.unstoredGeoms);
  out.xml = printUrdf(x, spec, out.notes);
  return out;
}

std::vector<std::string> saveUrdf(const std::string& path, const ModelSpec& spec) {
  UrdfText t = specToUrdf(spec);
  writeFileAtomically(path, t.xml);
  return t.notes;
}

// ---- import ----

namespace {

using robot::Mass;
using robot::printable;

// collects urdfdom's error messages (console_bridge) while it parses
class ErrorCollector : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors.push_back(text);
  }
  std::vector<std::string> errors;
};

// where a link's coordinates go (robot_import.h)
using Frame = robot::Frame;

// refuses, before urdfdom links the links, a link that two joints hold (urdfdom keeps the last
// one) and a cycle of joints: urdfdom's links own their children, so a cycle would leak
void refuseJointCycles(const std::string& xml, const std::string& source) {
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  const TiXmlElement* robot = doc.FirstChildElement("robot");
  if (!robot) return;  // urdfdom says what is wrong
  std::map<std::string, std::pair<std::string, std::string>> up;  // child link -> (joint, parent link)
  for (const TiXmlElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint")) {
    const TiXmlElement* child = e->FirstChildElement("child");
    const TiXmlElement* parent = e->FirstChildElement("parent");
    const char* link = child ? child->Attribute("link") : nullptr;
    const char* parentLink = parent ? parent->Attribute("link") : nullptr;
    const char* name = e->Attribute("name");
    if (!link || !name || !parentLink) continue;  // urdfdom says what is wrong
    const auto [it, first] = up.emplace(link, std::make_pair(std::string(name), std::string(parentLink)));
    if (!first)
      throw FormatError(source, "link '" + printable(link) + "' is the child of joints '" + printable(it->second.first) +
                                    "' and '" + printable(name) + "': a URDF is a tree (no loops, one parent per link)");
  }
  // one parent each: a cycle is a walk up that comes back to where it started
  std::set<std::string> cleared;  // links whose walk up ends at a root
  for (const auto& [start, unused] : up) {
    std::vector<std::string> path;
    std::set<std::string> onPath;
    std::string link = start;
    while (!cleared.count(link)) {
      if (!onPath.insert(link).second) {
        std::string joints;
        for (auto at = link;;) {
          const auto& [joint, parentLink] = up.at(at);
          joints += (joints.empty() ? "'" : ", '") + printable(joint) + "'";
          if ((at = parentLink) == link) break;
        }
        throw FormatError(source, "joints " + joints + " form a loop through link '" + printable(link) +
                                      "': a URDF is a tree (no loops, one parent per link)");
      }
      path.push_back(link);
      const auto next = up.find(link);
      if (next == up.end()) break;
      link = next->second.second;
    }
    cleared.insert(path.begin(), path.end());
  }
}

// one numeric attribute: `count` numbers separated by spaces (1 for a scalar), each finite (a
// leading '+' allowed, no locale); "" when it is, else why not. urdfdom 3.0 reads "1.O", "nan",
// "inf" and "" as 0 or drops the element with only a log line, and the link was massless
std::string numericProblem(const std::string& text, std::size_t count) {
  std::vector<std::string> items;
  std::istringstream in(text);
  for (std::string item; in >> item;) items.push_back(item);
  if (items.empty()) return "empty, expected " + std::string(count == 1 ? "a number" : std::to_string(count) + " numbers");
  for (const std::string& item : items) {
    const char* first = item.data() + (item.size() > 1 && item[0] == '+' ? 1 : 0);
    double x = 0;
    const auto r = std::from_chars(first, item.data() + item.size(), x);
    if (r.ec == std::errc::result_out_of_range) return "'" + messageValue(item) + "' is out of the range of a double";
    if (r.ec != std::errc() || r.ptr != item.data() + item.size()) return "'" + messageValue(item) + "' is not a number";
    if (!std::isfinite(x)) return "'" + item + "' is not a finite number";
  }
  if (items.size() != count)
    return "expected " + (count == 1 ? std::string("one number") : std::to_string(count) + " numbers") + ", got " +
           std::to_string(items.size());
  return "";
}

// refuses a numeric attribute that is not a finite number (or the right count of them), naming
// the link or joint, the element and the attribute: what urdfdom reads, checked before it reads it
void checkNumericAttributes(const std::string& xml, const std::string& source) {
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  const TiXmlElement* robot = doc.FirstChildElement("robot");
  if (!robot) return;  // urdfdom says what is wrong
  const auto check = [&](const std::string& owner, const TiXmlElement* e, const char* attr, std::size_t count) {
    if (!e) return;
    const char* value = e->Attribute(attr);
    if (!value) return;  // absent: urdfdom's default, or its own error
    const std::string why = numericProblem(value, count);
    if (!why.empty())
      throw FormatError(source, owner + ": <" + e->Value() + " " + attr + "=\"" + messageValue(printable(value)) + "\">: " + why);
  };
  const auto origin = [&](const std::string& owner, const TiXmlElement* parent) {
    const TiXmlElement* o = parent ? parent->FirstChildElement("origin") : nullptr;
    check(owner, o, "xyz", 3);
    check(owner, o, "rpy", 3);
  };
  const auto colour = [&](const std::string& owner, const TiXmlElement* material) {
    if (material) check(owner, material->FirstChildElement("color"), "rgba", 4);
  };
  for (const TiXmlElement* m = robot->FirstChildElement("material"); m; m = m->NextSiblingElement("material"))
    colour("material '" + printable(m->Attribute("name") ? m->Attribute("name") : "") + "'", m);
  for (const TiXmlElement* link = robot->FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    const std::string owner = "link '" + printable(link->Attribute("name") ? link->Attribute("name") : "") + "'";
    for (const TiXmlElement* in = link->FirstChildElement("inertial"); in; in = in->NextSiblingElement("inertial")) {
      origin(owner, in);
      check(owner, in->FirstChildElement("mass"), "value", 1);
      for (const char* k : {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}) check(owner, in->FirstChildElement("inertia"), k, 1);
    }
    for (const char* part : {"visual", "collision"})
      for (const TiXmlElement* v = link->FirstChildElement(part); v; v = v->NextSiblingElement(part)) {
        origin(owner, v);
        if (const TiXmlElement* g = v->FirstChildElement("geometry")) {
          check(owner, g->FirstChildElement("box"), "size", 3);
          check(owner, g->FirstChildElement("cylinder"), "radius", 1);
          check(owner, g->FirstChildElement("cylinder"), "length", 1);
          check(owner, g->FirstChildElement("capsule"), "radius", 1);
          check(owner, g->FirstChildElement("capsule"), "length", 1);
          check(owner, g->FirstChildElement("sphere"), "radius", 1);
          check(owner, g->FirstChildElement("mesh"), "scale", 3);
        }
        colour(owner, v->FirstChildElement("material"));
      }
  }
  for (const TiXmlElement* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
    const std::string owner = "joint '" + printable(j->Attribute("name") ? j->Attribute("name") : "") + "'";
    origin(owner, j);
    check(owner, j->FirstChildElement("axis"), "xyz", 3);
    for (const char* k : {"lower", "upper", "effort", "velocity"}) check(owner, j->FirstChildElement("limit"), k, 1);
    for (const char* k : {"damping", "friction"}) check(owner, j->FirstChildElement("dynamics"), k, 1);
    for (const char* k : {"multiplier", "offset"}) check(owner, j->FirstChildElement("mimic"), k, 1);
    for (const char* k : {"soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"})
      check(owner, j->FirstChildElement("safety_controller"), k, 1);
    for (const char* k : {"rising", "falling"}) check(owner, j->FirstChildElement("calibration"), k, 1);
  }
}

// urdfdom's model of the text; refuses too deep XML and what urdfdom rejects (with its errors)
urdf::ModelInterfaceSharedPtr parseUrdfText(const std::string& xml, const std::string& source) {
  if (robot::xmlNestingDepth(xml) > kMaxUrdfDepth)
    throw FormatError(source, "is nested deeper than " + std::to_string(kMaxUrdfDepth) +
                                  " XML elements (a URDF document needs a handful)");
  checkNumericAttributes(xml, source);
  refuseJointCycles(xml, source);
  urdf::ModelInterfaceSharedPtr m;
  ErrorCollector collector;
  {
    static std::mutex mutex;  // console_bridge's output handler is global
    const std::lock_guard<std::mutex> lock(mutex);
    console_bridge::useOutputHandler(&collector);
    try {
      m = urdf::parseURDF(xml);
    } catch (const std::exception& e) {
      collector.errors.push_back(e.what());
    }
    console_bridge::restorePreviousOutputHandler();
  }
  if (!m || !m->getRoot()) {
    std::string why;
    for (const std::string& e : collector.errors) why += (why.empty() ? "" : "; ") + e;
    throw FormatError(source,
                      "not a valid URDF document" + (why.empty() ? std::string() : ": " + why));
  }
  return m;
}

// refuses a robot, link or joint name that is not valid UTF-8 text
void checkNames(const urdf::ModelInterface& m, const std::string& source) {
  // names become the model's body names, which every format writes as UTF-8 (JSON, and URDF
  // itself): a name in another encoding would load here and fail on the first save
  const auto checkName = [&](const char* what, const std::string& name) {
    if (!robot::validUtf8(name))
      throw FormatError(source, std::string(what) + " '" + printable(name) +
                                    "': the name is not valid UTF-8 text");
  };
  checkName("robot", m.getName());
  std::vector<urdf::LinkSharedPtr> all;
  m.getLinks(all);
  for (const auto& link : all) checkName("link", link->name);
  for (const auto& [name, joint] : m.joints_) checkName("joint", name);
}

// the links, parents before children, else in document order; refuses links that are not a tree
std::vector<urdf::LinkSharedPtr> linksInTreeOrder(const urdf::ModelInterface& m,
                                                  const std::string& xml,
                                                  const std::string& source) {
  // links in document order
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  std::map<std::string, int> fileOrder;
  if (const TiXmlElement* robot = doc.FirstChildElement("robot")) {
    for (const TiXmlElement* e = robot->FirstChildElement("link"); e; e = e->NextSiblingElement("link"))
      if (e->Attribute("name")) fileOrder.emplace(e->Attribute("name"), static_cast<int>(fileOrder.size()));
  }
  // parents before children, document order otherwise
  std::vector<urdf::LinkSharedPtr> links;
  m.getLinks(links);
  std::sort(links.begin(), links.end(), [&](const auto& a, const auto& b) {
    return fileOrder[a->name] < fileOrder[b->name];
  });
  const std::string rootName = m.getRoot()->name;
  std::vector<urdf::LinkSharedPtr> ordered;
  std::set<std::string> placed = {rootName};
  ordered.push_back(std::const_pointer_cast<urdf::Link>(m.getRoot()));
  while (ordered.size() < links.size()) {
    bool progress = false;
    for (const auto& l : links)
      if (!placed.count(l->name) && l->parent_joint && placed.count(l->parent_joint->parent_link_name)) {
        placed.insert(l->name);
        ordered.push_back(l);
        progress = true;
        break;
      }
    if (!progress) {
      std::string loose;
      int n = 0;
      for (const auto& l : links)
        if (!placed.count(l->name) && n++ < 3) loose += std::string(n > 1 ? ", " : "") + "'" + printable(l->name) + "'";
      throw FormatError(source, "the links do not form one tree: link" + std::string(n > 1 ? "s " : " ") + loose +
                                    (n > 3 ? ", ..." : "") + " do" + (n > 1 ? "" : "es") + " not hang from the root link '" +
                                    printable(rootName) + "' (a loop of joints?)");
    }
  }
  return ordered;
}

// the spec being read, and what the link walk gathers for the later steps and the notes
struct ImportState {
  std::string source;                       // the FormatError path
  std::string rootName;                     // the root link: the fixed base, or body 0 floating
  bool floating = false;                    // the root link is body 0 on a free joint
  std::string baseWhy;                      // why the automatic base chose (empty: chosen by the caller)
  std::string folder;                       // the URDF's folder: relative mesh names start there
  std::vector<std::string> packagePaths;    // more folders to find package://NAME in (settings)
  std::vector<std::string> meshNotes;       // meshes not found or not readable
  ModelSpec spec;
  std::map<std::string, Frame> frames;      // link -> where its coordinates go
  std::vector<std::vector<Mass>> masses;    // body -> its links' mass properties
  std::vector<const urdf::Joint*> jointOf;  // body -> its URDF joint
  std::map<std::string, int> bodyOfJoint;   // URDF joint name -> body
  int collisions = 0, merged = 0;  // counted for the notes
  int contactShapes[4] = {0, 0, 0, 0};  // collision spheres, boxes, cylinders, meshes in contact
  bool geoms = false;                   // UrdfContact::Geoms: collisions become geoms
  std::set<std::string> geomNames;      // taken by the geoms so far
  std::vector<std::string> excluded;    // "a and b (why)" per excluded pair of links, for the note
  bool ground = false;                  // the ground plane was added (finishGeoms)
  double rootMass = 0;                      // kg on the root link and the links fixed to it

  FormatError fail(const std::string& reason) const { return FormatError(source, reason); }
};

// adds link's body on movable joint j (frame Rj, pj in parent's coordinates); returns its frame
Frame addBody(ImportState& s, const urdf::Link& link, const urdf::Joint& j, int parent,
              const Mat3& Rj, const Vec3& pj, const std::string& jwhere) {
  Vec3 a = toVec(j.axis);
  if (!a.allFinite() || a.norm() == 0) throw s.fail(jwhere + ": axis must be a nonzero vector");
  a.normalize();
  // the body frame is the link frame turned by A (x_link = A x_body) so that the axis is
  // a coordinate axis of the joint frame
  int k = 2;
  const Mat3 A = robot::axisTurn(a, k);
  const bool prismatic = j.type == urdf::Joint::PRISMATIC;
  static constexpr JointType kTypes[2][3] = {{JointType::Rx, JointType::Ry, JointType::Rz},
                                            {JointType::Px, JointType::Py, JointType::Pz}};
  BodySpec b;
  b.name = link.name;
  b.parent = parent;
  b.joint.type = kTypes[prismatic][k];
  b.rotation = (Rj * A).transpose();
  b.translation = pj;
  const int index = static_cast<int>(s.spec.bodies.size());
  s.spec.bodies.push_back(std::move(b));
  s.masses.emplace_back();
  s.jointOf.push_back(&j);
  s.bodyOfJoint[j.name] = index;
  BodySpec& added = s.spec.bodies.back();
  if (j.limits) {  // URDF: effort and velocity <= 0 (or left out, which urdfdom reads as 0) is no limit
    const urdf::JointLimits& l = *j.limits;
    if (j.type != urdf::Joint::CONTINUOUS) {
      if (!std::isfinite(l.lower) || !std::isfinite(l.upper) || l.lower > l.upper)
        throw s.fail(jwhere + ": limit lower (" + num(l.lower) + ") and upper (" + num(l.upper) +
                     ") must be numbers with lower <= upper");
      added.limits.lower = l.lower;
      added.limits.upper = l.upper;
    }
    if (l.effort > 0 && std::isfinite(l.effort)) added.limits.effort = l.effort;
    if (l.velocity > 0 && std::isfinite(l.velocity)) added.limits.velocity = l.velocity;
  }
  if (j.dynamics) {
    for (const auto& [value, what] : {std::pair{j.dynamics->damping, "damping"}, {j.dynamics->friction, "friction"}})
      if (!std::isfinite(value) || value < 0)
        throw s.fail(jwhere + ": dynamics " + what + " must be a number >= 0, got " + num(value));
    added.damping = j.dynamics->damping;
    added.friction = j.dynamics->friction;
  }
  return {index, A.transpose(), Vec3::Zero()};
}

// a link's frame in its owner: base for the root, parent's owner for fixed joints, else a body
Frame linkFrame(ImportState& s, const urdf::Link& link) {
  if (link.name == s.rootName) return s.floating ? Frame{0, Mat3::Identity(), Vec3::Zero()} : Frame{};
  const std::string where = "link '" + link.name + "'";
  const urdf::Joint& j = *link.parent_joint;
  const std::string jwhere = "joint '" + j.name + "' (to " + where + ")";
  const Frame& fp = s.frames.at(j.parent_link_name);
  const Mat3 Rj = fp.R * toMat(j.parent_to_joint_origin_transform.rotation);
  const Vec3 pj = fp.R * toVec(j.parent_to_joint_origin_transform.position) + fp.t;
  if (!Rj.allFinite() || !pj.allFinite()) throw s.fail(jwhere + ": origin must be finite");
  if (j.type == urdf::Joint::FIXED) {
    ++s.merged;
    return {fp.owner, Rj, pj};
  }
  if (j.type == urdf::Joint::REVOLUTE || j.type == urdf::Joint::CONTINUOUS ||
      j.type == urdf::Joint::PRISMATIC)
    return addBody(s, link, j, fp.owner, Rj, pj, jwhere);
  const char* type = j.type == urdf::Joint::FLOATING ? "floating"
                     : j.type == urdf::Joint::PLANAR ? "planar"
                                                     : "unknown";
  throw s.fail(jwhere + ": '" + type + "' joints are not supported (Articulate reads revolute, "
               "continuous, prismatic and fixed joints)");
}

// adds the link's <inertial> (kg, m, kg m^2) in owner coordinates to its owner, or to rootMass
void addInertial(ImportState& s, const urdf::Link& link, const Frame& frame) {
  const urdf::InertialSharedPtr& in = link.inertial;
  if (!in) return;
  const std::string where = "link '" + link.name + "'";
  if (!std::isfinite(in->mass) || in->mass < 0)
    throw s.fail(where + ": inertial mass must be >= 0, got " + num(in->mass));
  Mat3 I;
  I << in->ixx, in->ixy, in->ixz, in->ixy, in->iyy, in->iyz, in->ixz, in->iyz, in->izz;
  if (!I.allFinite()) throw s.fail(where + ": inertia must be finite");
  const Mat3 Ri = frame.R * toMat(in->origin.rotation);
  Mass part;
  part.m = in->mass;
  part.c = frame.R * toVec(in->origin.position) + frame.t;
  part.Ic = Ri * I * Ri.transpose();
  if (frame.owner < 0)
    s.rootMass += part.m;
  else
    s.masses[frame.owner].push_back(part);
}

// the drawing of a box/cylinder/sphere visual at R, p (owner coordinates, m); false for a mesh
bool visualShape(const ImportState& s, const std::string& where, const urdf::Geometry& geometry,
                 const Mat3& R, const Vec3& p, json& shape) {
  switch (geometry.type) {
    case urdf::Geometry::BOX: {
      const Vec3 d = toVec(static_cast<const urdf::Box&>(geometry).dim);
      if (!(d.minCoeff() > 0) || !d.allFinite())
        throw s.fail(where + ": visual box size must be positive, got " + vecText(d));
      // so far from the link's origin that the box's faces round to one plane (fuzz_urdf: a
      // 0.1 m box 6.7e14 m away): not drawable, and the saved model would not read back
      const Vec3 reach = R.cwiseAbs() * d / 2;
      if (!(((p + reach) - (p - reach)).minCoeff() > 0))
        throw s.fail(where + ": visual box of size " + vecText(d) + " at " + vecText(p) +
                     " m is too small to draw so far from the link's origin");
      if (robot::signedPermutation(R)) {
        const Vec3 e = R.cwiseAbs() * d / 2;
        shape = json::array({"box", json::array({vec(p - e), vec(p + e)})});
      } else {
        shape = robot::boxMesh(R, p, d);
      }
      break;
    }
    case urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const urdf::Cylinder&>(geometry);
      if (!(c.radius > 0) || !(c.length > 0) || !std::isfinite(c.radius) || !std::isfinite(c.length))
        throw s.fail(where + ": visual cylinder radius and length must be positive, got " +
                     num(c.radius) + " and " + num(c.length));
      const Vec3 half = R.col(2) * c.length / 2;
      if (!(((p + half) - (p - half)).norm() > 0))
        throw s.fail(where + ": visual cylinder of length " + num(c.length) + " at " + vecText(p) +
                     " m is too short to draw so far from the link's origin");
      shape = json::array({"cyl", json::array({vec(p - half), vec(p + half)}), c.radius});
      break;
    }
    case urdf::Geometry::SPHERE: {
      const double r = static_cast<const urdf::Sphere&>(geometry).radius;
      if (!(r > 0) || !std::isfinite(r)) throw s.fail(where + ": visual sphere radius must be positive, got " + num(r));
      shape = json::array({"sphere", vec(p), r});
      break;
    }
    case urdf::Geometry::MESH:
      return false;
  }
  return true;
}

// the folders a package://NAME/... mesh may be under, in the order they are searched: the
// URDF's folder and its ancestors (one named NAME, or holding a folder NAME), ROS_PACKAGE_PATH,
// AMENT_PREFIX_PATH (PREFIX/share/NAME), then the settings' list
std::vector<std::filesystem::path> packageCandidates(const ImportState& s, const std::string& name) {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  for (fs::path dir = fs::absolute(s.folder).lexically_normal(); !dir.empty(); dir = dir.parent_path()) {
    if (dir.filename() == name) out.push_back(dir);
    out.push_back(dir / name);
    if (dir == dir.root_path()) break;
  }
  auto split = [](const char* list) {
    std::vector<std::string> parts;
    std::stringstream ss(list ? list : "");
    std::string item;
    while (std::getline(ss, item, ':'))
      if (!item.empty()) parts.push_back(item);
    return parts;
  };
  for (const std::string& root : split(std::getenv("ROS_PACKAGE_PATH"))) {
    if (fs::path(root).filename() == name) out.push_back(root);
    out.push_back(fs::path(root) / name);
  }
  for (const std::string& prefix : split(std::getenv("AMENT_PREFIX_PATH"))) out.push_back(fs::path(prefix) / "share" / name);
  for (const std::string& root : s.packagePaths) {
    if (fs::path(root).filename() == name) out.push_back(root);
    out.push_back(fs::path(root) / name);
  }
  return out;
}

// a <mesh filename>'s file, absolute: package://NAME/REST (packageCandidates), file://PATH, or
// a path (relative to the URDF's folder); nullopt, with a note, when it is not found or does not
// read as a mesh
std::optional<std::string> meshFile(ImportState& s, const std::string& where, const std::string& name,
                                    const char* unused = "is not drawn") {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::optional<fs::path> found;
  std::string looked;
  if (name.rfind("package://", 0) == 0) {
    // package://NAME/PATH, and package:///PATH (no package name), as ROS's resource retriever
    // reads it: PATH under a package search folder (its first part a package's name), else
    // the absolute /PATH
    const bool bare = name.rfind("package:///", 0) == 0;
    const std::string rest = name.substr(bare ? 11 : 10);
    const std::size_t slash = rest.find('/');
    const std::string package = rest.substr(0, slash);
    const std::string inside = slash == std::string::npos ? std::string() : rest.substr(slash + 1);
    if (bare ? rest.empty() || slash == 0 : package.empty() || inside.empty()) {
      s.meshNotes.push_back(where + ": mesh '" + name + "' " + unused + ": expected " + (bare ? "package:///PATH" : "package://NAME/PATH"));
      return std::nullopt;
    }
    if (!inside.empty())
      for (const fs::path& dir : packageCandidates(s, package))
        if (fs::is_regular_file(dir / inside, ec)) {
          found = dir / inside;
          break;
        }
    if (bare && !found && fs::is_regular_file(fs::path("/") / rest, ec)) found = fs::path("/") / rest;
    looked = bare ? " (looked for as '" + rest + "' in the package search folders, beside the URDF and in its parent "
                    "folders, ROS_PACKAGE_PATH, AMENT_PREFIX_PATH and the settings' package folders, and as /" + rest + ")"
                  : " (package '" + package + "' looked for beside the URDF and in its parent folders, ROS_PACKAGE_PATH, "
                    "AMENT_PREFIX_PATH and the settings' package folders)";
  } else {
    fs::path file = name.rfind("file://", 0) == 0 ? fs::path(name.substr(7)) : fs::path(name);
    if (file.is_relative()) file = fs::path(s.folder) / file;
    if (fs::is_regular_file(file, ec)) found = file;
  }
  if (!found) {
    s.meshNotes.push_back(where + ": mesh '" + name + "' " + unused + ": not found" + looked);
    return std::nullopt;
  }
  const std::string path = fs::absolute(*found).lexically_normal().string();
  try {
    const std::shared_ptr<const MeshData> mesh = loadMesh(path);
    if (std::string(unused) == "is not drawn")  // drawn: how its materials are
      for (const std::string& note : mesh->notes) s.meshNotes.push_back(where + ": mesh '" + name + "': " + note);
  } catch (const FormatError& e) {
    s.meshNotes.push_back(where + ": mesh '" + name + "' " + unused + ": " + e.what());
    return std::nullopt;
  }
  return path;
}

// adds the link's visuals to its owner's appearance in their colour; counts collisions, meshes
void addLinkVisuals(ImportState& s, const urdf::Link& link, const Frame& frame) {
  const std::string where = "link '" + link.name + "'";
  json& appearance = frame.owner < 0 ? s.spec.baseAppearance : s.spec.bodies[frame.owner].appearance;
  for (const urdf::VisualSharedPtr& v : link.visual_array) {
    if (!v || !v->geometry) continue;
    const Mat3 R = frame.R * toMat(v->origin.rotation);
    const Vec3 p = frame.R * toVec(v->origin.position) + frame.t;
    json shape;
    if (!visualShape(s, where, *v->geometry, R, p, shape)) {
      const auto& m = static_cast<const urdf::Mesh&>(*v->geometry);
      const std::optional<std::string> file = meshFile(s, where, m.filename);
      if (!file) continue;
      const Vec3 scale = toVec(m.scale);
      if (!scale.allFinite() || !(scale.array() != 0).all())
        throw s.fail(where + ": mesh scale must be finite and nonzero, got " + vecText(scale));
      json rows = json::array();
      for (int r = 0; r < 3; ++r) rows.push_back(vec(R.row(r).transpose()));
      json instruction = {{"file", *file}, {"scale", vec(scale)}, {"position", vec(p)}, {"rotation", rows}};
      if (!v->material || !v->material->texture_filename.empty()) {  // the file's own colours
        appearance.push_back("mesh");
        appearance.push_back(instruction);
        continue;
      }
      instruction["colour"] = "context";
      shape = json::array({"mesh", instruction});
    }
    if (v->material && v->material->texture_filename.empty()) {
      const urdf::Color& c = v->material->color;
      json list = json::array({"colour", json::array({colourValue(c.r), colourValue(c.g), colourValue(c.b)})});
      list.insert(list.end(), shape.begin(), shape.end());
      appearance.push_back(list);
    } else if (shape[0] == "vertices") {
      appearance.push_back(shape);  // a sub-list keeps the vertex list local
    } else {
      appearance.insert(appearance.end(), shape.begin(), shape.end());
    }
  }
}

// a geom's name: the <collision>'s own, else LINK#K (its K-th collision, from 1), made unique
std::string geomName(ImportState& s, const std::string& own, const std::string& link, int k) {
  std::string name = !own.empty() && !s.geomNames.count(own) ? own : link + "#" + std::to_string(k);
  for (int n = 2; s.geomNames.count(name); ++n) name = link + "#" + std::to_string(k) + "." + std::to_string(n);
  s.geomNames.insert(name);
  return name;
}

// the link's collision geometry as geoms of its body (UrdfContact::Geoms; the fixed base's are
// static): a sphere, box or cylinder as it is, a mesh as its convex hull; a mesh that is not
// found, or whose hull is flat, is left out with a note
void addLinkGeoms(ImportState& s, const urdf::Link& link, const Frame& frame) {
  const std::string where = "link '" + link.name + "'";
  int k = 0;
  for (const urdf::CollisionSharedPtr& c : link.collision_array) {
    if (!c || !c->geometry) continue;
    ++k;
    GeomSpec g;
    g.body = frame.owner;
    g.rotation = frame.R * toMat(c->origin.rotation);
    g.position = frame.R * toVec(c->origin.position) + frame.t;
    if (!g.position.allFinite() || !g.rotation.allFinite())
      throw s.fail(where + ": collision geometry must be finite, got an origin at " + vecText(g.position));
    const urdf::Geometry& geometry = *c->geometry;
    switch (geometry.type) {
      case urdf::Geometry::SPHERE:
        g.type = GeomSpec::Type::Sphere;
        g.size(0) = static_cast<const urdf::Sphere&>(geometry).radius;
        ++s.contactShapes[0];
        break;
      case urdf::Geometry::BOX:
        g.type = GeomSpec::Type::Box;
        g.size = 0.5 * toVec(static_cast<const urdf::Box&>(geometry).dim);
        ++s.contactShapes[1];
        break;
      case urdf::Geometry::CYLINDER: {
        const auto& cyl = static_cast<const urdf::Cylinder&>(geometry);
        g.type = GeomSpec::Type::Cylinder;
        g.size = Vec3(cyl.radius, 0.5 * cyl.length, 0);
        ++s.contactShapes[2];
        break;
      }
      case urdf::Geometry::MESH: {
        const auto& m = static_cast<const urdf::Mesh&>(geometry);
        const std::optional<std::string> file = meshFile(s, where, m.filename, "is not used for contact");
        if (!file) continue;
        const Vec3 scale = toVec(m.scale);
        if (!scale.allFinite() || !(scale.array() != 0).all())
          throw s.fail(where + ": mesh scale must be finite and nonzero, got " + vecText(scale));
        try {
          robot::setHullGeom(*loadMesh(*file), scale, g);
        } catch (const std::invalid_argument& why) {
          s.meshNotes.push_back(where + ": collision mesh '" + m.filename + "' is not used for contact: it has no convex hull: " +
                                why.what());
          continue;
        }
        ++s.contactShapes[3];
        break;
      }
    }
    g.name = geomName(s, c->name, link.name, k);
    s.spec.geoms.push_back(std::move(g));
  }
}

// the link's collision geometry as ground-contact points of its body, on a floating robot (a
// fixed base's links are counted for a note): a sphere is a contact sphere, a box its 8
// corners, a cylinder 8 points on each rim, a mesh its extreme vertices in 14 directions (the
// axes and the diagonals: vertices of its convex hull)
void addLinkCollisions(ImportState& s, const urdf::Link& link, const Frame& frame) {
  if (s.geoms) {
    addLinkGeoms(s, link, frame);
    return;
  }
  const std::string where = "link '" + link.name + "'";
  for (const urdf::CollisionSharedPtr& c : link.collision_array) {
    if (!c || !c->geometry) continue;
    if (frame.owner < 0 || !s.floating) {
      ++s.collisions;
      continue;
    }
    const Mat3 R = frame.R * toMat(c->origin.rotation);
    const Vec3 p = frame.R * toVec(c->origin.position) + frame.t;
    const auto add = [&](const Vec3& local, double radius = 0.0) {
      const Vec3 point = R * local + p;
      if (!point.allFinite() || !(radius >= 0) || !std::isfinite(radius))
        throw s.fail(where + ": collision geometry must be finite, got a point at " + vecText(point));
      s.spec.contacts.push_back({frame.owner, point, radius});
    };
    const urdf::Geometry& g = *c->geometry;
    switch (g.type) {
      case urdf::Geometry::SPHERE:
        add(Vec3::Zero(), static_cast<const urdf::Sphere&>(g).radius);
        ++s.contactShapes[0];
        break;
      case urdf::Geometry::BOX: {
        const Vec3 half = 0.5 * toVec(static_cast<const urdf::Box&>(g).dim);
        for (int k = 0; k < 8; ++k)
          add(Vec3(k & 1 ? half.x() : -half.x(), k & 2 ? half.y() : -half.y(), k & 4 ? half.z() : -half.z()));
        ++s.contactShapes[1];
        break;
      }
      case urdf::Geometry::CYLINDER: {
        const auto& cyl = static_cast<const urdf::Cylinder&>(g);
        for (int k = 0; k < 16; ++k) {
          const double a = (k % 8) * (3.14159265358979323846 / 4);
          add(Vec3(cyl.radius * std::cos(a), cyl.radius * std::sin(a), k < 8 ? -0.5 * cyl.length : 0.5 * cyl.length));
        }
        ++s.contactShapes[2];
        break;
      }
      case urdf::Geometry::MESH: {
        const auto& m = static_cast<const urdf::Mesh&>(g);
        const std::optional<std::string> file = meshFile(s, where, m.filename, "is not used for contact");
        if (!file) break;
        for (const Vec3& v : robot::meshSupportPoints(*loadMesh(*file), toVec(m.scale))) add(v);
        ++s.contactShapes[3];
        break;
      }
    }
  }
}

// walks the links parents first: each one's frame (and body), mass properties and visuals
void walkLinks(ImportState& s, const std::vector<urdf::LinkSharedPtr>& ordered) {
  for (const urdf::LinkSharedPtr& link : ordered) {
    const Frame frame = linkFrame(s, *link);
    s.frames[link->name] = frame;
    addInertial(s, *link, frame);
    addLinkVisuals(s, *link, frame);
    addLinkCollisions(s, *link, frame);
  }
}

// adds each <mimic> as a coupling constraint; refuses a mimic of a joint that is not a body's
void addMimics(ImportState& s) {
  for (std::size_t i = 0; i < s.spec.bodies.size(); ++i)
    if (const urdf::JointMimicSharedPtr& mimic = s.jointOf[i] ? s.jointOf[i]->mimic : nullptr) {
      const auto master = s.bodyOfJoint.find(mimic->joint_name);
      if (master == s.bodyOfJoint.end())
        throw s.fail("joint '" + s.jointOf[i]->name + "': mimics '" + mimic->joint_name +
                     "', which is not a revolute, continuous or prismatic joint of this model");
      if (s.spec.physics.constraints == PhysicsSpec::Constraints::Soft) {
        // the soft model's joint equality: q_i = offset + multiplier q_master (its rows are soft)
        EqualitySpec e;
        e.type = EqualitySpec::Type::Joint;
        e.name = s.jointOf[i]->name;
        e.obj1 = static_cast<int>(i);
        e.obj2 = master->second;
        e.poly = {mimic->offset, mimic->multiplier, 0, 0, 0};
        s.spec.equalities.push_back(e);
        continue;
      }
      ConstraintSpec c;
      c.type = ConstraintSpec::Type::Coupling;
      c.joint = static_cast<int>(i);
      c.master = master->second;
      c.ratio = mimic->multiplier;
      c.offset = mimic->offset;
      s.spec.constraints.push_back(c);
    }
}

// one note per kind of thing not used (root mass, merged links, limits, collisions, meshes)
void importNotes(const ImportState& s, std::vector<std::string>& notes) {
  if (s.rootMass > 0)
    notes.push_back("the mass of the root link '" + s.rootName + "' and the links fixed to it (" +
                    num(s.rootMass) + " kg) is not used: the root is the fixed base");
  if (s.floating)
    notes.push_back("the root link '" + s.rootName + "' floats on a free joint (" +
                    (s.baseWhy.empty() ? "as asked" : "automatic: " + s.baseWhy) + "; choose the base with --base fixed|floating)");
  else if (!s.baseWhy.empty() && s.rootName != "world")
    notes.push_back("the root link '" + s.rootName + "' is the fixed base (automatic: " + s.baseWhy +
                    "; choose the base with --base fixed|floating)");
  if (s.merged) notes.push_back(std::to_string(s.merged) + " fixed joint(s) merged their child link into its parent");
  if (s.collisions)
    notes.push_back(std::to_string(s.collisions) + " collision geometr" + (s.collisions > 1 ? "ies are" : "y is") +
                    " not used: " + (s.floating ? "the fixed base's" : "the robot's base is fixed (ground contact acts on floating robots: --base floating)"));
  if (!s.spec.geoms.empty()) {
    const int* n = s.contactShapes;
    const std::size_t n0 = s.spec.geoms.size() - (s.ground ? 1 : 0);
    notes.push_back(std::to_string(n0) + " collision geometr" + (n0 > 1 ? "ies collide" : "y collides") +
                    (s.ground ? " with each other and with the ground plane z = 0 (geom 'ground')"
                              : " with each other (no ground: a link of the fixed robot starts below z = 0, so it hangs from its mount)") +
                    ", in the soft constraint model: " +
                    std::to_string(n[0]) + " sphere(s), " + std::to_string(n[1]) + " box(es), " + std::to_string(n[2]) +
                    " cylinder(s) and " + std::to_string(n[3]) +
                    " mesh(es) as their convex hulls; joint limits, friction and mimics are soft constraint rows, "
                    "the integrator mujoco-euler at 2 ms (ground-contact points instead: convert --urdf-contact points)");
    if (!s.excluded.empty()) {
      std::string list;
      for (std::size_t k = 0; k < s.excluded.size() && k < 8; ++k) list += (k ? "; " : "") + s.excluded[k];
      if (s.excluded.size() > 8) list += "; and " + std::to_string(s.excluded.size() - 8) + " more";
      notes.push_back(std::to_string(s.excluded.size()) + " pair(s) of links do not collide with each other: " + list);
    }
  }
  if (!s.spec.contacts.empty()) {
    const int* n = s.contactShapes;
    notes.push_back("collision geometry became " + std::to_string(s.spec.contacts.size()) + " ground-contact point(s): " +
                    std::to_string(n[0]) + " sphere(s) as rolling contact spheres, " + std::to_string(n[1]) +
                    " box(es) by their corners, " + std::to_string(n[2]) + " cylinder(s) by 8 points on each rim, " +
                    std::to_string(n[3]) + " mesh(es) by their extreme vertices in 14 directions");
  }
  notes.insert(notes.end(), s.meshNotes.begin(), s.meshNotes.end());
}

}  // namespace

bool parseUrdfContact(const std::string& text, UrdfContact& out) {
  if (text == "geoms") out = UrdfContact::Geoms;
  else if (text == "points") out = UrdfContact::Points;
  else return false;
  return true;
}

bool parseUrdfBase(const std::string& text, UrdfBase& out) {
  if (text == "auto") out = UrdfBase::Auto;
  else if (text == "fixed") out = UrdfBase::Fixed;
  else if (text == "floating") out = UrdfBase::Floating;
  else return false;
  return true;
}

// the robot read with the root link floating (body 0 on a free joint at the world origin) or
// as the fixed base
ImportState importLinks(const urdf::ModelInterface& m, const std::vector<urdf::LinkSharedPtr>& ordered,
                        const std::string& source, const std::vector<std::string>& packagePaths, bool floating,
                        UrdfContact contact) {
  ImportState s;
  s.source = source;
  s.geoms = contact == UrdfContact::Geoms;
  s.folder = std::filesystem::absolute(source).parent_path().string();
  s.packagePaths = packagePaths;
  s.rootName = m.getRoot()->name;
  s.floating = floating;
  s.spec.name = m.getName();
  if (s.floating) {
    BodySpec root;
    root.name = s.rootName;
    root.parent = -1;
    root.joint.type = JointType::Free;
    s.spec.bodies.push_back(std::move(root));
    s.masses.emplace_back();
    s.jointOf.push_back(nullptr);
  }
  walkLinks(s, ordered);
  robot::setInertias(s.spec, s.masses);
  if (!s.spec.geoms.empty()) {  // body-body contact is the soft model's (spec.h: ModelSpec::geoms)
    s.spec.physics.constraints = PhysicsSpec::Constraints::Soft;
    s.spec.simulation.integrator = Integrator::MujocoEuler;
    s.spec.simulation.dt = 0.002;
  }
  return s;
}

// the ground plane, and the pairs of links that do not collide (docs/model-format.md#urdf-collision):
// adjacent links (a link and its parent link, MuJoCo's parent filter; not a link and the fixed
// base, which also holds the ground and often a table) and links that overlap at the initial
// pose by more than 1 micrometre (as robot tools exclude the meshes that touch at the joints)
// the ground plane z = 0, the geom "ground" (a unique name)
void addGround(ImportState& s) {
  GeomSpec ground;
  ground.type = GeomSpec::Type::Plane;
  ground.body = -1;
  ground.name = "ground";
  for (int n = 2; s.geomNames.count(ground.name); ++n) ground.name = "ground#" + std::to_string(n);
  s.spec.geoms.push_back(ground);
}

void finishGeoms(ImportState& s) {
  const auto name = [&](int body) { return s.spec.bodies[static_cast<std::size_t>(body)].name; };
  // a fixed robot with a link that starts below z = 0 hangs from its mount: no ground under it
  s.ground = s.floating || !(robot::lowestPoint(s.spec) < -1e-6);
  if (s.ground) addGround(s);
  for (const auto& [a, b] : robot::overlappingBodies(s.spec, 1e-6)) {
    s.spec.contactExcludes.push_back({"", a, b});
    const std::string first = a >= 0 ? printable(name(a)) : printable(s.rootName) + " (the fixed base)";
    s.excluded.push_back(first + " and " + printable(name(b)) + " (overlap at the initial pose)");
  }
}

ModelSpec specFromUrdf(const std::string& xml, const std::string& source, UrdfImport* report, UrdfBase base,
                       const std::vector<std::string>& packagePaths, UrdfContact contact) {
  const urdf::ModelInterfaceSharedPtr m = parseUrdfText(xml, source);
  checkNames(*m, source);
  const std::vector<urdf::LinkSharedPtr> ordered = linksInTreeOrder(*m, xml, source);
  // the automatic base (docs/urdf.md): fixed for a root link named "world"; else floating when
  // collision geometry reaches below the root link in two or more of its branches (legs), so
  // that arms and mounted mechanisms stay where they are and legged robots stand
  const bool world = m->getRoot()->name == "world";
  ImportState s = importLinks(*m, ordered, source, packagePaths, base == UrdfBase::Floating || (base == UrdfBase::Auto && !world), contact);
  if (base == UrdfBase::Auto && !world) {
    int legs = 0;
    try {  // a robot that cannot float (a root link without mass) has no legs to stand on
      legs = robot::branchesBelowRoot(s.spec);
    } catch (const ModelError&) {
    }
    if (legs < 2) s = importLinks(*m, ordered, source, packagePaths, false, contact);
    s.baseWhy = legs == 0 ? "no collision geometry reaches below the root link"
                          : "collision geometry reaches below the root link in " + std::to_string(legs) +
                                " of its branches, " + (legs < 2 ? "fewer than two legs" : "its legs");
  }
  const std::string renamed = robot::renameBase(s.spec);
  addMimics(s);
  std::vector<std::string> names;
  for (const urdf::Joint* j : s.jointOf) names.push_back(j ? j->name : std::string());
  std::vector<std::string> placed;
  robot::clampToLimits(s.spec, names, placed);
  robot::checkCompiles(s.spec, s.source, "link");
  std::vector<std::string> transmissionNotes;
  urdf_io::readTransmissions(xml, names, s.spec, transmissionNotes);
  const double lift = robot::placeOnGround(s.spec);
  if (!s.spec.geoms.empty()) {
    try {
      finishGeoms(s);
    } catch (const ModelError& e) {
      throw s.fail(std::string("collision geometry: ") + e.what());
    }
  }
  if (lift != 0.0)
    placed.push_back(std::string("the robot was ") + (lift > 0 ? "raised" : "lowered") + " by " + num(std::abs(lift)) +
                     " m to stand on the ground: its lowest collision geometry touches z = 0");
  if (report) {
    importNotes(s, report->notes);
    report->notes.insert(report->notes.end(), placed.begin(), placed.end());
    report->notes.insert(report->notes.end(), transmissionNotes.begin(), transmissionNotes.end());
    if (!renamed.empty())
      report->notes.push_back("the link 'base' is the body '" + renamed + "' ('base' names the fixed base)");
    report->floating = s.floating;
    report->jointNames = names;
  }
  return std::move(s.spec);
}

ModelSpec specFromUrdf(const std::string& xml, const std::string& source, std::vector<std::string>* notes) {
  UrdfImport report;
  ModelSpec spec = specFromUrdf(xml, source, &report, UrdfBase::Auto);
  if (notes) notes->insert(notes->end(), report.notes.begin(), report.notes.end());
  return spec;
}

ModelSpec loadUrdf(const std::string& path, UrdfImport* report, UrdfBase base,
                   const std::vector<std::string>& packagePaths, UrdfContact contact) {
  return specFromUrdf(readTextFile(path), path, report, base, packagePaths, contact);
}

ModelSpec loadUrdf(const std::string& path, std::vector<std::string>* notes) {
  return specFromUrdf(readTextFile(path), path, notes);
}

}  // namespace art
