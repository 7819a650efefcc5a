#pragma once
// The Python module's shared pieces: the Model object that Python holds, and the conversions
// between numpy arrays and the engine's vectors. Everything else is the engine's own functions.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/document.h"

namespace artpy {

namespace py = pybind11;

/// A float64 C-contiguous array: what every input is converted to (once, when it is not one).
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// A loaded model document as Python sees it (articulate.Model). Trees carry their compiled
/// model and one workspace for single-state calls, which run with the GIL held (so one
/// workspace serves every Python thread); batched calls make their own workspaces.
struct PyModel {
  art::LoadedDocument document;
  std::string path;  // the file it was read from; "" for from_json
  std::shared_ptr<const art::Model> model;  // trees only
  std::unique_ptr<art::Data> data;          // trees only
  Eigen::VectorXd zeros;                    // nv zeros: a tau that was not given
  art::ExternalForces fext;                 // fext's engine layout (dim x nb)
  int nq = 0, nv = 0;                       // sizes of q and qd, every kind
  Eigen::VectorXd q0, qd0;                  // the initial state, every kind

  /// The tree, or a TypeError naming `fn` for a rigid body or a structure.
  const art::Model& tree(const char* fn) const;
  /// The loaded tree document (format, spec, notes), or nullptr for the other kinds.
  const art::LoadedModel* loaded() const { return std::get_if<art::LoadedModel>(&document); }
  /// "tree", "rigid_body" or "structure".
  std::string kind() const;
};

/// Builds a PyModel of a document (compiling a tree; throws ModelError for an invalid one).
std::shared_ptr<PyModel> makeModel(art::LoadedDocument document, std::string path);

/// obj as a float64 C-contiguous array (converted once when needed) of the given shape, every
/// entry finite. Throws TypeError for what is not numbers, ValueError naming `name`, the
/// expected and the given shape, or the first entry that is not finite ("q[2] is nan").
/// Without `checkFinite` the caller checks the entries (allFinite) where it reads them, and
/// calls input again to name the first bad one.
Array input(py::handle obj, const char* name, const std::vector<py::ssize_t>& shape,
            bool checkFinite = true);

/// Whether the n doubles at p are all finite (a vectorised pass over their bits).
bool allFinite(const double* p, std::ptrdiff_t n);

/// The result array: a new one of `shape`, or `out` itself when it is a writable float64
/// C-contiguous numpy array of exactly that shape (else ValueError naming out and the shape).
py::array_t<double> output(const py::object& out, const std::vector<py::ssize_t>& shape);

/// "(7,)" or "(100, 7)".
std::string shapeText(const std::vector<py::ssize_t>& shape);

/// A body given by name or index, as an index (ValueError naming it when there is none).
int bodyIndex(const art::Model& model, const py::handle& body);

/// The threads a batched call uses for n states: `threads` (None: all cores), at most one
/// per 16 states.
int batchThreads(const py::object& threads, long n);

using ModelClass = py::class_<PyModel, std::shared_ptr<PyModel>>;

void bindDynamics(py::module_& m);    // dynamics.cpp: one state and batches
void bindSimulation(py::module_& m, ModelClass& model);  // simulation.cpp: simulate, sweep, save_motion

}  // namespace artpy
