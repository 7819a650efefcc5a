#pragma once
// Structural edits of a ModelSpec that keep every body reference consistent (parents, the
// camera's tracked body, contact points, constraints, external forces): adding a body,
// removing a body with its subtree, and moving a body (with its subtree) under a new parent.
// The model editor's undoable commands are built on these.

#include <stdexcept>
#include <vector>

#include "articulate/model_spec.h"

namespace art {

/// An edit that would break the tree (a cycle, an unknown body, a duplicate name).
class EditError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Renumbers every reference to a body outside the bodies' own parents (the camera's tracked
/// body, contact points, external forces, constraints): body b becomes newIndex[b] and the base
/// (-1) stays. A reference to a body whose newIndex is -2 (removed) goes away with its item, and
/// a camera tracking one becomes fixed. newIndex has one entry per body before the renumbering.
void renumberBodyReferences(ModelSpec& spec, const std::vector<int>& newIndex);

/// Appends `body` (its parent must be -1 or an existing body) and returns its index. Throws
/// EditError for an unknown parent or a name that is empty or already used.
int addBody(ModelSpec& spec, BodySpec body);

/// The body and every body below it, in increasing index order.
std::vector<int> subtree(const ModelSpec& spec, int body);

/// Removes a body with its subtree; contact points, constraints and forces on removed bodies
/// go with them and a camera tracking one becomes fixed. Throws EditError for an unknown body.
void removeSubtree(ModelSpec& spec, int body);

/// Moves `body` (with its subtree) under `parent` (-1: the base), keeping its placement
/// relative to the new parent as given, and reorders the bodies so that parents precede
/// children (others keep their order). Returns the body's new index. Throws EditError when
/// `parent` is the body itself or below it (a cycle) or either is unknown.
int reparent(ModelSpec& spec, int body, int parent);

}  // namespace art
