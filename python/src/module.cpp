// articulate._articulate: the engine for Python (docs/python.md). This file: the module, its
// errors, the array conversions every function shares, loading and the Model object.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>

#include <pybind11/stl.h>

#include "articulate/batch/system_factory.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/files.h"
#include "articulate/formats/json.h"
#include "articulate/formats/structure.h"
#include "articulate/formats/urdf.h"
#include "module.h"

namespace artpy {

using art::LoadedModel;

const art::Model& PyModel::tree(const char* fn) const {
  if (!model)
    throw py::type_error(std::string(fn) + ": takes a kinematic tree; this model is a " + kind() +
                         " (simulate() takes every kind)");
  return *model;
}

std::string PyModel::kind() const {
  if (std::holds_alternative<art::RigidBodySpec>(document)) return "rigid_body";
  if (std::holds_alternative<art::natural::StructureSpec>(document)) return "structure";
  return "tree";
}

std::shared_ptr<PyModel> makeModel(art::LoadedDocument document, std::string path) {
  auto m = std::make_shared<PyModel>();
  m->document = std::move(document);
  m->path = std::move(path);
  if (const LoadedModel* t = m->loaded()) {
    m->model = std::make_shared<const art::Model>(art::compile(t->spec));
    m->data = std::make_unique<art::Data>(*m->model);
    m->zeros = Eigen::VectorXd::Zero(m->model->nv());
    m->fext.setZero(m->model->arithmetic == art::Arithmetic::Spatial ? 6 : 3, m->model->nb);
    m->nq = m->model->nq();
    m->nv = m->model->nv();
    m->q0 = m->model->q0;
    m->qd0 = m->model->qd0;
  } else {
    // a rigid body's or a structure's sizes and initial state are its system's
    const art::BuiltSystem s = art::buildSystem(m->document, {});
    m->nq = s.system->positionSize();
    m->nv = s.system->velocitySize();
    m->q0 = s.q0;
    m->qd0 = s.v0;
  }
  return m;
}

std::string shapeText(const std::vector<py::ssize_t>& shape) {
  std::ostringstream s;
  s << "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s << (i ? ", " : "") << shape[i];
  s << (shape.size() == 1 ? ",)" : ")");
  return s.str();
}

bool allFinite(const double* p, std::ptrdiff_t n) {
  // a double is not finite exactly when its exponent bits are all ones: one vectorised pass
  // over the bits
  constexpr std::uint64_t kExponent = 0x7ff0000000000000ULL;
  std::uint64_t bad = 0;
  for (std::ptrdiff_t k = 0; k < n; ++k) {
    std::uint64_t bits;
    std::memcpy(&bits, p + k, sizeof bits);
    bad |= static_cast<std::uint64_t>((bits & kExponent) == kExponent);
  }
  return !bad;
}

Array input(py::handle obj, const char* name, const std::vector<py::ssize_t>& shape, bool checkFinite) {
  if (obj.is_none())
    throw py::type_error(std::string(name) + ": expected an array of shape " + shapeText(shape) +
                         ", got None");
  Array a = Array::ensure(obj);
  if (!a) {
    PyErr_Clear();
    throw py::type_error(std::string(name) + ": expected an array of numbers of shape " +
                         shapeText(shape) + ", got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  const std::vector<py::ssize_t> got(a.shape(), a.shape() + a.ndim());
  if (got != shape)
    throw py::value_error(std::string(name) + ": expected shape " + shapeText(shape) + ", got " +
                          shapeText(got));
  const double* p = a.data();
  const py::ssize_t n = a.size();
  if (!checkFinite || allFinite(p, n)) return a;
  for (py::ssize_t k = 0; k < n; ++k) {
    if (std::isfinite(p[k])) continue;
    // name the entry by its indices
    std::ostringstream s;
    s << name << "[";
    py::ssize_t rest = k, stride = n;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      stride /= shape[d];
      s << (d ? ", " : "") << rest / stride;
      rest %= stride;
    }
    s << "] is " << p[k] << ": every entry must be a finite number";
    throw py::value_error(s.str());
  }
  return a;
}

py::array_t<double> output(const py::object& out, const std::vector<py::ssize_t>& shape) {
  if (out.is_none()) return py::array_t<double>(shape);
  // the common case first, by numpy's C API: a float64 C-contiguous writable array of the shape
  if (py::array_t<double, py::array::c_style>::check_(out)) {
    auto a = py::reinterpret_borrow<py::array_t<double>>(out);
    if (a.writeable() && static_cast<std::size_t>(a.ndim()) == shape.size() &&
        std::equal(shape.begin(), shape.end(), a.shape()))
      return a;
  }
  const auto fail = [&](const std::string& why) {
    throw py::value_error("out: expected a writable C-contiguous float64 numpy array of shape " +
                          shapeText(shape) + "; " + why);
  };
  if (!py::isinstance<py::array>(out)) fail("got " + std::string(py::str(py::type::of(out).attr("__name__"))));
  auto a = py::reinterpret_borrow<py::array>(out);
  if (!a.dtype().is(py::dtype::of<double>())) fail("got dtype " + std::string(py::str(a.dtype())));
  const std::vector<py::ssize_t> got(a.shape(), a.shape() + a.ndim());
  if (got != shape) fail("got shape " + shapeText(got));
  if (!(a.flags() & py::array::c_style)) fail("it is not C-contiguous");
  if (!a.writeable()) fail("it is read-only");
  return py::reinterpret_borrow<py::array_t<double>>(a);
}

int bodyIndex(const art::Model& model, const py::handle& body) {
  if (py::isinstance<py::str>(body)) {
    const std::string name = body.cast<std::string>();
    for (int i = 0; i < model.nb; ++i)
      if (model.names[static_cast<std::size_t>(i)] == name) return i;
    throw py::value_error("body: the model has no body named '" + name + "'");
  }
  if (!py::isinstance<py::int_>(body)) throw py::type_error("body: expected a body name or index");
  const long i = body.cast<long>();
  if (i < 0 || i >= model.nb)
    throw py::value_error("body: index " + std::to_string(i) + " is out of range (the model has " +
                          std::to_string(model.nb) + " bodies)");
  return static_cast<int>(i);
}

int batchThreads(const py::object& threads, long n) {
  long t = threads.is_none() ? static_cast<long>(std::max(1u, std::thread::hardware_concurrency()))
                             : threads.cast<long>();
  if (t < 1) throw py::value_error("threads: must be at least 1, got " + std::to_string(t));
  t = std::min(t, std::max(1L, n / 16));
  return static_cast<int>(t);
}

namespace {

py::array_t<double> vector(const Eigen::VectorXd& v) {
  return py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data());
}

std::shared_ptr<PyModel> load(const py::object& file, const std::optional<std::string>& base) {
  const std::string path = py::str(py::module_::import("os").attr("fspath")(file));
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) {
    PyErr_SetString(PyExc_FileNotFoundError, (path + ": no such file").c_str());
    throw py::error_already_set();
  }
  if (std::filesystem::is_directory(status)) {
    PyErr_SetString(PyExc_IsADirectoryError, (path + ": is a folder, not a model file").c_str());
    throw py::error_already_set();
  }
  if (base) {
    art::UrdfBase b;
    if (!art::parseUrdfBase(*base, b))
      throw py::value_error("base: expected 'auto', 'fixed' or 'floating', got '" + *base + "'");
    if (!art::isUrdfPath(path))
      throw py::value_error("base: for URDF files only (" + path +
                            " says its base itself: a free joint floats)");
    py::gil_scoped_release release;
    return makeModel(art::loadUrdfModel(path, b), path);
  }
  py::gil_scoped_release release;
  return makeModel(art::loadDocument(path), path);
}

std::shared_ptr<PyModel> fromJson(const py::object& obj) {
  std::string text;
  if (py::isinstance<py::str>(obj))
    text = obj.cast<std::string>();
  else if (py::isinstance<py::dict>(obj))
    text = py::module_::import("json").attr("dumps")(obj).cast<std::string>();
  else
    throw py::type_error("from_json: expected a dict or a JSON string, got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  const nlohmann::json doc = art::parseJsonText(text, "from_json");
  art::Diagnostics problems;
  std::optional<art::LoadedDocument> document = art::readDocument(doc, problems);
  if (!problems.empty() || !document) {
    std::string list;
    for (const art::Diagnostic& d : problems) list += (list.empty() ? "" : "\n") + d.text();
    throw art::FormatError("from_json", list.empty() ? "not a model document" : list);
  }
  return makeModel(std::move(*document), "");
}

py::object toJson(const PyModel& m) {
  std::string text;
  if (const LoadedModel* t = m.loaded())
    text = art::specToJson(t->spec).dump();
  else if (const auto* r = std::get_if<art::RigidBodySpec>(&m.document))
    text = art::rigidBodyToJson(*r).dump();
  else
    text = art::natural::structureToJson(std::get<art::natural::StructureSpec>(m.document)).dump();
  return py::module_::import("json").attr("loads")(text);
}

// one joint as Python sees it
py::dict joint(const PyModel& pm, int i) {
  const art::Model& m = *pm.model;
  const LoadedModel& t = *pm.loaded();
  py::dict j;
  const std::string& fileName =
      static_cast<std::size_t>(i) < t.jointNames.size() ? t.jointNames[static_cast<std::size_t>(i)] : std::string();
  j["name"] = fileName.empty() ? m.names[static_cast<std::size_t>(i)] : fileName;
  j["body"] = m.names[static_cast<std::size_t>(i)];
  j["parent"] = m.parent[static_cast<std::size_t>(i)] < 0
                    ? py::object(py::none())
                    : py::object(py::str(m.names[static_cast<std::size_t>(m.parent[static_cast<std::size_t>(i)])]));
  j["type"] = std::string(art::jointCode(m.joints[static_cast<std::size_t>(i)].type));
  j["q_index"] = m.qIndex[static_cast<std::size_t>(i)];
  j["nq"] = m.jointNq(i);
  j["v_index"] = m.vIndex[static_cast<std::size_t>(i)];
  j["nv"] = m.jointNv(i);
  return j;
}

ModelClass bindModelClass(py::module_& mod) {
  ModelClass c(mod, "Model", R"(A model document: a kinematic tree (Articulate, spatial_v2, URDF or MJCF), a rigid body or a
natural-coordinate structure. Made by load() or from_json(). The dynamics functions take trees;
simulate() takes every kind.)");
  c.def_property_readonly("kind", &PyModel::kind, "'tree', 'rigid_body' or 'structure'.");
  c.def_property_readonly("path", [](const PyModel& m) { return m.path; }, "The file it was read from ('' for from_json).");
  c.def_property_readonly("format", [](const PyModel& m) {
    return m.loaded() ? m.loaded()->format : std::string("articulate-model");
  }, "The file's format: 'articulate-model', 'articulate-recording', 'spatial_v2', 'urdf' or 'mjcf'.");
  c.def_property_readonly("name", [](const PyModel& m) {
    if (const LoadedModel* t = m.loaded()) return t->spec.name;
    if (const auto* r = std::get_if<art::RigidBodySpec>(&m.document)) return r->name;
    return std::get<art::natural::StructureSpec>(m.document).name;
  });
  c.def_property_readonly("nq", [](const PyModel& m) { return m.nq; }, "Number of position variables (size of q).");
  c.def_property_readonly("nv", [](const PyModel& m) { return m.nv; }, "Number of velocity variables (size of qd, qdd, tau).");
  c.def_property_readonly("nu", [](const PyModel& m) { return m.model ? m.model->nu() : 0; },
                          "Number of actuator inputs (size of ctrl; 0 for rigid bodies and structures).");
  c.def_property_readonly("actuators", [](const PyModel& m) {
    std::vector<std::string> names;
    if (m.model)
      for (const art::ActuatorSpec& a : m.model->actuators) names.push_back(a.name);
    return names;
  }, "Actuator names, in ctrl order.");
  c.def_property_readonly("nb", [](const PyModel& m) { return m.tree("nb").nb; }, "Number of bodies of a tree.");
  c.def_property_readonly("bodies", [](const PyModel& m) { return m.tree("bodies").names; }, "Body names, in index order.");
  c.def_property_readonly("joints", [](const PyModel& m) {
    py::list out;
    for (int i = 0; i < m.tree("joints").nb; ++i) out.append(joint(m, i));
    return out;
  }, "Per body, its joint: name (the file's), body, parent (None: the base), type, q_index, nq, v_index, nv.");
  c.def_property_readonly("gravity", [](const PyModel& m) {
    return vector(m.tree("gravity").gravity);
  }, "Gravitational acceleration, base coordinates (m/s^2).");
  c.def_property_readonly("q0", [](const PyModel& m) { return vector(m.q0); }, "Initial positions (nq).");
  c.def_property_readonly("qd0", [](const PyModel& m) { return vector(m.qd0); }, "Initial velocities (nv).");
  c.def_property_readonly("keyframes", [](const PyModel& m) {
    py::dict out;
    if (const LoadedModel* t = m.loaded())
      for (const art::KeyframeSpec& k : t->spec.keyframes)
        out[py::str(k.name)] = py::make_tuple(k.time, vector(k.q), vector(k.qd));
    return out;
  }, "Named states kept with the model: name -> (time s, q, qd).");
  c.def_property_readonly("constraints", [](const PyModel& m) {
    py::list out;
    if (const LoadedModel* t = m.loaded())
      for (const art::ConstraintSpec& k : t->spec.constraints) {
        py::dict d;
        d["name"] = k.name;
        d["type"] = k.type == art::ConstraintSpec::Type::Coupling ? "coupling" : "loop";
        out.append(d);
      }
    return out;
  }, "A tree's loop closures and couplings (gears, URDF mimic joints): name and type; simulate() enforces them, aba() does not.");
  c.def_property_readonly("notes", [](const PyModel& m) {
    return m.loaded() ? m.loaded()->notes : std::vector<std::string>{};
  }, "What the reader left out or approximated (URDF, MJCF).");
  c.def_property_readonly("motion", [](const PyModel& m) -> py::object {
    const LoadedModel* t = m.loaded();
    if (!t || !t->motion) return py::none();
    const art::Motion& mo = *t->motion;
    py::array_t<double> q({static_cast<py::ssize_t>(mo.q.rows()), static_cast<py::ssize_t>(mo.q.cols())});
    for (Eigen::Index r = 0; r < mo.q.rows(); ++r)
      for (Eigen::Index k = 0; k < mo.q.cols(); ++k) q.mutable_at(r, k) = mo.q(r, k);
    return py::make_tuple(vector(mo.t), q);
  }, "The motion the file carried, (t, q), or None.");
  c.def("body_index", [](const PyModel& m, const py::object& body) { return bodyIndex(m.tree("body_index"), body); },
        py::arg("body"), "The index of a body given by name (or checked index).");
  c.def("to_json", &toJson, "The model as an Articulate document (a dict), for editing and from_json().");
  c.def("__repr__", [](const PyModel& m) {
    return "<articulate.Model '" + py::cast(m).attr("name").cast<std::string>() + "' " + m.kind() +
           " nq=" + std::to_string(m.nq) + " nv=" + std::to_string(m.nv) + ">";
  });
  return c;
}

}  // namespace

}  // namespace artpy

PYBIND11_MODULE(_articulate, mod) {
  using namespace artpy;
  mod.doc() = "Articulate's engine: loading, dynamics, simulation and sweeps on numpy arrays.";
  static py::exception<art::FormatError> formatError(mod, "FormatError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const art::FormatError& e) {
      formatError(e.what());
    } catch (const art::ModelError& e) {
      formatError(e.what());
    }
  });
  ModelClass model = bindModelClass(mod);
  mod.def("load", &load, py::arg("path"), py::arg("base") = py::none(),
          R"(Reads a model file of any kind the app opens (Articulate, recordings, spatial_v2, URDF, MJCF,
rigid bodies, structures). base: for URDF only, 'auto' (floating when collision geometry reaches
below the root link in two or more of its branches, its legs; else fixed), 'fixed' or 'floating'. Raises FileNotFoundError, FormatError (a ValueError) with the
CLI's message naming the file, line and field.)");
  mod.def("from_json", &fromJson, py::arg("document"),
          "A model from an Articulate document given as a dict or a JSON string. Raises FormatError listing every problem with its JSON path.");
  bindDynamics(mod);
  bindSimulation(mod, model);
#ifdef ARTICULATE_BUILD_APP
  mod.attr("_build_app") = ARTICULATE_BUILD_APP;  // the application of this build tree
#else
  mod.attr("_build_app") = "";
#endif
}
