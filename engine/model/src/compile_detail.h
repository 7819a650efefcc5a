#pragma once
// compile()'s parts in other files of the model layer.

#include "articulate/model/model.h"

namespace art::detail {

/// Checks the spec's joint springs, sites' frames, tendons and actuators and fills the model's
/// (stiffness, qSpring, sites, tendons, actuators, actIndex, na, springs, tendonDamping). Needs
/// m.q0 and m.qIndex. Throws ModelError naming the field.
void compileActuation(const ModelSpec& spec, Model& m);

/// Checks the spec's physics settings, equalities and every soft row's parameters, and fills
/// the model's (physics, soft, equalities and the resolved parameters). Needs the joints,
/// tendons and m.stops; in soft physics clears m.stops (limits and friction become rows).
/// Throws ModelError naming the field.
void compilePhysics(const ModelSpec& spec, Model& m);

}  // namespace art::detail
