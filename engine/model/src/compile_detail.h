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

/// Throws ModelError(field, why) when `p` is not a usable set of solver parameters.
void checkSoft(const SoftParams& p, const std::string& field);

/// Checks the spec's geoms, contact pairs and excludes (geom_check.cpp) and fills the model's.
/// Needs m.soft and m.physics. Throws ModelError naming the field: a geom outside the soft
/// model, beside ground-contact points, with a size <= 0 where its type needs one, condim
/// other than 1, 3, 4 or 6, friction, margin, gap or solmix below 0, a
/// mesh whose hull is not closed, convex, around its origin and of some volume, an exclude
/// naming no body.
void compileGeoms(const ModelSpec& spec, Model& m);

}  // namespace art::detail
