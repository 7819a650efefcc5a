#include "articulate/batch/system_factory.h"

#include <stdexcept>
#include <variant>

#include "articulate/formulations/rigid_body.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/simulation/structure_system.h"

namespace art {

BuiltSystem buildSystem(const LoadedDocument& document, const SimulationOverrides& a) {
  BuiltSystem out;
  if (const auto* structure = std::get_if<natural::StructureSpec>(&document)) {
    natural::SimulationOptions opt = natural::simulationOptions(*structure);
    if (!a.integrator.empty() && !natural::parseIntegrator(a.integrator, opt.integrator))
      throw std::invalid_argument("--integrator: structures are integrated with zhong06 or rk4");
    if (a.dt > 0) opt.dt = a.dt;
    if (a.energyProjection)
      throw std::invalid_argument("--energy-projection: for tree models (zhong06 keeps a "
                                  "structure's energy bounded by itself)");
    auto system = std::make_unique<StructureSystem>(*structure, opt);
    out.q0 = system->structure().q0();
    out.v0 = system->structure().qd0();
    out.system = std::move(system);
    out.name = structure->name;
    out.dt = opt.dt;
    out.variable = "natural coordinate";
    return out;
  }
  if (const auto* rb = std::get_if<RigidBodySpec>(&document)) {
    if (!a.integrator.empty() && a.integrator != "rk4")
      throw std::invalid_argument(
          "--integrator: rigid_body models are integrated with rk4 only, got " + a.integrator);
    if (a.energyProjection)
      throw std::invalid_argument("--energy-projection: for tree models (a rigid body's "
                                  "impacts change its energy)");
    out.dt = a.dt > 0 ? a.dt : 1e-3;
    out.system = std::make_unique<RigidBodySystem>(*rb, out.dt, out.dt * a.every);
    out.q0 = out.system->positions();
    out.v0 = out.system->velocities();
    out.name = rb->name;
    out.variable = "rigid-body coordinate";
    return out;
  }
  const LoadedModel& lm = std::get<LoadedModel>(document);
  auto model = std::make_shared<const Model>(compile(lm.spec));
  SimulationOptions opt = simulationOptions(lm.spec);
  if (!a.integrator.empty() && !parseIntegrator(a.integrator, opt.integrator))
    throw std::invalid_argument("--integrator: expected rk4, euler or dopri5 (zhong06 is for structures)");
  if (a.dt > 0) opt.dt = a.dt;
  if (a.rtol > 0) opt.relTol = a.rtol;
  if (a.atol > 0) opt.absTol = a.atol;
  if (a.energyProjection) opt.energyProjection = true;
  out.q0 = model->q0;
  out.v0 = model->qd0;
  out.system = std::make_unique<TreeSystem>(model, opt);
  out.model = model;
  out.options = opt;
  out.name = lm.spec.name;
  out.dt = opt.dt;
  return out;
}

}  // namespace art
