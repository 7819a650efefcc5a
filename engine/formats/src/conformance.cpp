#include "articulate/formats/conformance.h"

#include <algorithm>

#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/spatial_v2.h"

namespace art {

namespace {

using nlohmann::json;

Eigen::MatrixXd toMatrix(const json& j, const std::string& path) {
  // scalars, vectors (1 x n stored as a column) and row-major nested matrices
  if (j.is_number()) return Eigen::MatrixXd::Constant(1, 1, j.get<double>());
  if (!j.is_array()) throw FormatError(path, "expected a number or an array");
  if (j.empty()) return Eigen::MatrixXd(0, 1);
  if (j[0].is_number()) {
    Eigen::MatrixXd v(j.size(), 1);
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (!j[i].is_number()) throw FormatError(path + "[" + std::to_string(i) + "]", "expected a number");
      v(i, 0) = j[i].get<double>();
    }
    return v;
  }
  const std::size_t cols = j[0].is_array() ? j[0].size() : 0;
  Eigen::MatrixXd m(j.size(), cols);
  for (std::size_t r = 0; r < j.size(); ++r) {
    if (!j[r].is_array() || j[r].size() != cols)
      throw FormatError(path + "[" + std::to_string(r) + "]", "rows of unequal length");
    for (std::size_t c = 0; c < cols; ++c) {
      if (!j[r][c].is_number())
        throw FormatError(path + "[" + std::to_string(r) + "][" + std::to_string(c) + "]",
                          "expected a number");
      m(r, c) = j[r][c].get<double>();
    }
  }
  return m;
}

Eigen::VectorXd toVector(const json& j, const std::string& path) {
  Eigen::MatrixXd m = toMatrix(j, path);
  if (m.cols() != 1) throw FormatError(path, "expected a vector");
  return m.col(0);
}

class Recorder {
 public:
  explicit Recorder(ConformanceReport& r) : m_r(r) {}
  void compare(const std::string& qty, const std::string& caseName, const Eigen::MatrixXd& x,
               const Eigen::MatrixXd& ref) {
    if (x.rows() != ref.rows() || x.cols() != ref.cols())
      throw FormatError(caseName + ".outputs." + qty,
                        "has shape " + std::to_string(ref.rows()) + "x" +
                            std::to_string(ref.cols()) + ", computed " +
                            std::to_string(x.rows()) + "x" + std::to_string(x.cols()));
    const double scale = std::max(1.0, ref.size() ? ref.cwiseAbs().maxCoeff() : 0.0);
    const double err = ref.size() ? (x - ref).cwiseAbs().maxCoeff() / scale : 0.0;
    ConformanceEntry& e = m_r.quantities[qty];
    ++e.compared;
    if (!(err <= e.worst)) {  // NaN counts as worst
      e.worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;
      e.worstCase = caseName;
    }
  }

 private:
  ConformanceReport& m_r;
};

Eigen::MatrixXd fextMatrix(const json& j, int dim, int nb, const std::string& path) {
  Eigen::MatrixXd f = toMatrix(j, path);  // nb x dim
  if (f.rows() != nb || f.cols() != dim)
    throw FormatError(path, "expected " + std::to_string(nb) + " forces of " + std::to_string(dim));
  return f.transpose();
}

void runCase(const json& c, Recorder& rec, const std::string& path) {
  const std::string name = c.value("name", path);
  const ModelSpec spec = specFromSpatialV2(c.at("model"), path + ".model");
  const Model model = compile(spec);
  Data data(model);
  const int dim = model.arithmetic == Arithmetic::Spatial ? 6 : 3;
  const json& in = c.at("inputs");
  const Eigen::VectorXd q = toVector(in.at("q"), path + ".inputs.q");
  const Eigen::VectorXd qd = toVector(in.at("qd"), path + ".inputs.qd");
  const Eigen::VectorXd qdd = toVector(in.at("qdd"), path + ".inputs.qdd");
  const Eigen::VectorXd tau = toVector(in.at("tau"), path + ".inputs.tau");
  Eigen::MatrixXd fextStore;
  const ExternalForces* fext = nullptr;
  if (in.contains("f_ext") && !in["f_ext"].is_null()) {
    fextStore = fextMatrix(in["f_ext"], dim, model.nb, path + ".inputs.f_ext");
    fext = &fextStore;
  }
  const json& out = c.at("outputs");
  auto ref = [&](const char* k) { return toMatrix(out.at(k), path + ".outputs." + k); };

  if (out.contains("ID_tau")) rec.compare("ID_tau", name, rnea(model, data, q, qd, qdd, fext), ref("ID_tau"));
  if (out.contains("FDab_qdd")) rec.compare("FDab_qdd", name, aba(model, data, q, qd, tau, fext), ref("FDab_qdd"));
  if (out.contains("FDcrb_qdd"))
    rec.compare("FDcrb_qdd", name, forwardDynamicsCrb(model, data, q, qd, tau, fext), ref("FDcrb_qdd"));
  if (out.contains("H")) rec.compare("H", name, crba(model, data, q), ref("H"));
  if (out.contains("C")) rec.compare("C", name, biasForces(model, data, q, qd, fext), ref("C"));
  if (out.contains("X0")) {
    forwardKinematics(model, data, q);
    const json& X0 = out["X0"];
    for (int i = 0; i < model.nb; ++i) {
      const Eigen::MatrixXd X = model.arithmetic == Arithmetic::Spatial
                                    ? Eigen::MatrixXd(data.spatial.X0[i].matrix())
                                    : Eigen::MatrixXd(data.planar.X0[i].matrix());
      rec.compare("X0", name, X, toMatrix(X0.at(i), path + ".outputs.X0[" + std::to_string(i) + "]"));
    }
  }
  if (out.contains("EnerMo")) {
    const json& em = out["EnerMo"];
    const EnergyMomentum e = energyMomentum(model, data, q, qd);
    const std::string p = path + ".outputs.EnerMo.";
    const int n2 = dim == 6 ? 3 : 2;
    auto scalar = [](double v) { return Eigen::MatrixXd::Constant(1, 1, v); };
    rec.compare("EnerMo.KE", name, scalar(e.kinetic), toMatrix(em.at("KE"), p + "KE"));
    rec.compare("EnerMo.PE", name, scalar(e.potential), toMatrix(em.at("PE"), p + "PE"));
    rec.compare("EnerMo.mass", name, scalar(e.mass), toMatrix(em.at("mass"), p + "mass"));
    rec.compare("EnerMo.htot", name, e.htot.head(dim), toMatrix(em.at("htot"), p + "htot"));
    rec.compare("EnerMo.Itot", name, e.Itot.topLeftCorner(dim, dim), toMatrix(em.at("Itot"), p + "Itot"));
    rec.compare("EnerMo.cm", name, e.cm.head(n2), toMatrix(em.at("cm"), p + "cm"));
    rec.compare("EnerMo.vcm", name, e.vcm.head(n2), toMatrix(em.at("vcm"), p + "vcm"));
  }
  if (out.contains("gcPosVel"))
    rec.compare("gcPosVel", name, contactPositionsVelocities(model, data, q, qd), ref("gcPosVel"));
}

void runTrajectory(const json& t, Recorder& rec, const std::string& path) {
  const std::string name = t.value("name", path);
  const Model model = compile(specFromSpatialV2(t.at("model"), path + ".model"));
  Data data(model);
  const Eigen::MatrixXd q = toMatrix(t.at("q"), path + ".q");
  const Eigen::MatrixXd qd = toMatrix(t.at("qd"), path + ".qd");
  const Eigen::VectorXd energy = toVector(t.at("energy"), path + ".energy");
  if (q.rows() != energy.size() || qd.rows() != energy.size() || q.cols() != model.nb)
    throw FormatError(path, "q, qd and energy must have one row per sample");
  // the stored total energy at every stored state (EnerMo KE + PE)
  Eigen::VectorXd e(energy.size());
  for (Eigen::Index k = 0; k < energy.size(); ++k) {
    const EnergyMomentum em = energyMomentum(model, data, q.row(k).transpose(), qd.row(k).transpose());
    e(k) = em.kinetic + em.potential;
  }
  rec.compare("trajectory.energy", name, e, energy);
}

}  // namespace

bool ConformanceReport::passed() const {
  if (quantities.empty()) return false;
  return std::all_of(quantities.begin(), quantities.end(),
                     [&](const auto& kv) { return kv.second.worst <= tolerance; });
}

namespace {
constexpr const char* kReferenceFormat = "spatial_v2-reference-1";
}  // namespace

ConformanceReport runConformance(const json& doc, double tolerance) {
  ConformanceReport report;
  report.tolerance = tolerance;
  Recorder rec(report);
  if (!doc.is_object()) throw FormatError("", "expected a reference document object");
  // a model file has neither: it was "0 cases" and no comparison, which is no check at all
  const std::string format = doc.contains("format") && doc["format"].is_string() ? doc["format"].get<std::string>() : "";
  if ((!format.empty() && format != kReferenceFormat) || (!doc.contains("cases") && !doc.contains("trajectories")))
    throw FormatError("", "is not a conformance file (format \"" + std::string(kReferenceFormat) + "\" with cases or trajectories)" +
                              (format.empty() ? std::string() : ": its format is \"" + messageValue(format) + "\"") +
                              (format == "articulate-model" || format == "articulate-recording" || doc.contains("NB")
                                   ? " (a model file: conformance takes a reference file such as tests/data/spatial_v2_cases.json)"
                                   : ""));
  if (doc.contains("cases")) {
    const json& cases = doc["cases"];
    if (!cases.is_array()) throw FormatError("cases", "expected an array");
    for (std::size_t k = 0; k < cases.size(); ++k) {
      runCase(cases[k], rec, "cases[" + std::to_string(k) + "]");
      ++report.cases;
    }
  }
  if (doc.contains("trajectories")) {
    const json& trajs = doc["trajectories"];
    if (!trajs.is_array()) throw FormatError("trajectories", "expected an array");
    for (std::size_t k = 0; k < trajs.size(); ++k) {
      runTrajectory(trajs[k], rec, "trajectories[" + std::to_string(k) + "]");
      ++report.trajectories;
    }
  }
  return report;
}

}  // namespace art
