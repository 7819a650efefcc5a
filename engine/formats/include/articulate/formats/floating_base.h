#pragma once
// Conversion of spatial_v2's six-joint floating base (floatbase: joints Px Py Pz Rx Ry Rz with
// five massless intermediate bodies, singular where the Ry angle is +-pi/2) into Articulate's
// free joint (joint.h), which has no singularity.

#include <Eigen/Core>

#include "articulate/model/spec.h"

namespace art {

/// Whether spec holds at least one six-joint floating base that convertFloatingBases replaces:
/// a chain from the fixed base of bodies on joints Px, Py, Pz, Rx, Ry, Rz (each the only child
/// of the one before), whose first five bodies are massless, drawn as nothing, have no other
/// child, and carry no contact point, constraint, external force, controller or camera.
bool hasFloatingBases(const ModelSpec& spec);

/// Replaces every six-joint floating base of a spatial model (see hasFloatingBases) by one free
/// joint: the five massless bodies are dropped and the Rz body (the real one, keeping its name,
/// inertia, appearance and children) gets a free joint on the base with an identity placement,
/// its initial pose and velocity those of the six-joint initial state (q0, qd0), so that the
/// motion is the same. Body indices (parents, camera, contacts, constraints, forces) are
/// renumbered. A spec without such a chain (or a planar one) is returned unchanged. Throws
/// ModelError (model.h) when the spec does not compile.
ModelSpec convertFloatingBases(const ModelSpec& spec);

/// The state (q, qd) of convertFloatingBases(spec) equal to the state (q, qd) of spec (sizes
/// nq and nv of the compiled spec; the outputs are resized). Throws ModelError when spec does
/// not compile and std::invalid_argument on a size mismatch.
void convertFloatingBaseState(const ModelSpec& spec, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& qd, Eigen::VectorXd& qOut,
                              Eigen::VectorXd& qdOut);

/// convertFloatingBaseState for a whole motion: row k of q (nq columns) and qd (nv columns) is
/// one state of spec; the outputs get the converted states in the same rows. Compiles spec
/// once. Throws as convertFloatingBaseState.
void convertFloatingBaseMotion(const ModelSpec& spec, const Eigen::MatrixXd& q,
                               const Eigen::MatrixXd& qd, Eigen::MatrixXd& qOut,
                               Eigen::MatrixXd& qdOut);

/// The inverse of convertFloatingBases, for formats without a free joint (spatial_v2): every
/// free body becomes spatial_v2's six-joint floating base, five massless bodies "<name>_px",
/// "<name>_py", "<name>_pz", "<name>_rx", "<name>_ry" (drawn as nothing) on joints Px, Py, Pz,
/// Rx, Ry, the first placed where the free joint was, and the body itself on Rz with an
/// identity placement. The initial state maps to the angles of R = Rx(a) Ry(b) Rz(c) and their
/// rates (at the emulation's singularity cos b = 0 the rate a' is taken as 0).
/// Body indices shift. A spec without free joints is returned unchanged. Throws
/// std::invalid_argument when a new body's name is taken.
ModelSpec expandFreeJoints(const ModelSpec& spec);

}  // namespace art
