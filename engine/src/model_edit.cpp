// Structural edits of a ModelSpec (see model_edit.h).
#include "articulate/model_edit.h"

#include <algorithm>
#include <string>

namespace art {

namespace {

void checkBody(const ModelSpec& spec, int body, bool baseAllowed, const char* what) {
  if ((baseAllowed && body == -1) || (body >= 0 && body < static_cast<int>(spec.bodies.size())))
    return;
  throw EditError(std::string(what) + ": " + std::to_string(body) + " is not a body");
}

// Renumbers bodies: newIndex[old] is the new index, or -2 for a removed body. The bodies
// vector must already be in the new order; this fixes every reference to a body.
void remap(ModelSpec& spec, const std::vector<int>& newIndex) {
  for (BodySpec& b : spec.bodies) b.parent = b.parent < 0 ? b.parent : newIndex[b.parent];
  renumberBodyReferences(spec, newIndex);
}

}  // namespace

void renumberBodyReferences(ModelSpec& spec, const std::vector<int>& newIndex) {
  auto map = [&](int b) { return b < 0 ? b : newIndex[b]; };
  if (spec.camera.body >= 0) {
    spec.camera.body = map(spec.camera.body);
    if (spec.camera.body == -2) {
      spec.camera.body = -1;
      spec.camera.trackpoint.reset();
    }
  }
  std::vector<ContactPointSpec> contacts;
  for (ContactPointSpec c : spec.contacts)
    if ((c.body = map(c.body)) >= 0) contacts.push_back(c);
  spec.contacts = contacts;
  std::vector<ExternalForceSpec> forces;
  for (ExternalForceSpec f : spec.forces)
    if ((f.body = map(f.body)) >= 0) forces.push_back(f);
  spec.forces = forces;
  std::vector<ConstraintSpec> constraints;
  for (ConstraintSpec c : spec.constraints) {
    if (c.type == ConstraintSpec::Type::Coupling) {
      c.joint = map(c.joint);
      c.master = map(c.master);
      if (c.joint < 0 || c.master < 0) continue;
    } else {
      c.bodyA = map(c.bodyA);
      c.bodyB = map(c.bodyB);
      if (c.bodyA == -2 || c.bodyB == -2) continue;
    }
    constraints.push_back(c);
  }
  spec.constraints = constraints;
}

int addBody(ModelSpec& spec, BodySpec body) {
  checkBody(spec, body.parent, true, "parent");
  if (body.name.empty()) throw EditError("a body needs a name");
  if (body.name == "base") throw EditError("'base' names the fixed base");
  if (spec.findBody(body.name) >= 0)
    throw EditError("'" + body.name + "' is already the name of a body");
  spec.bodies.push_back(std::move(body));
  return static_cast<int>(spec.bodies.size()) - 1;
}

std::vector<int> subtree(const ModelSpec& spec, int body) {
  checkBody(spec, body, false, "body");
  std::vector<bool> in(spec.bodies.size(), false);
  std::vector<int> out;
  // parents may follow children in an unsorted spec: iterate to a fixed point
  in[body] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
      const int p = spec.bodies[i].parent;
      if (!in[i] && p >= 0 && in[p]) in[i] = grew = true;
    }
  }
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i]) out.push_back(static_cast<int>(i));
  return out;
}

void removeSubtree(ModelSpec& spec, int body) {
  const std::vector<int> gone = subtree(spec, body);
  std::vector<int> newIndex(spec.bodies.size(), -2);
  std::vector<BodySpec> kept;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    if (std::binary_search(gone.begin(), gone.end(), static_cast<int>(i))) continue;
    newIndex[i] = static_cast<int>(kept.size());
    kept.push_back(spec.bodies[i]);
  }
  spec.bodies = kept;
  remap(spec, newIndex);
}

int reparent(ModelSpec& spec, int body, int parent) {
  checkBody(spec, body, false, "body");
  checkBody(spec, parent, true, "parent");
  const std::vector<int> below = subtree(spec, body);
  if (parent >= 0 && std::binary_search(below.begin(), below.end(), parent))
    throw EditError("'" + spec.bodies[body].name + "' cannot move under " +
                    (parent == body ? "itself" : "its own descendant '" + spec.bodies[parent].name + "'"));
  spec.bodies[body].parent = parent;
  // stable order with parents first: repeatedly take the first body whose parent is placed
  const std::size_t n = spec.bodies.size();
  std::vector<int> newIndex(n, -1), order;
  while (order.size() < n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (newIndex[i] >= 0) continue;
      const int p = spec.bodies[i].parent;
      if (p < 0 || newIndex[p] >= 0) {
        newIndex[i] = static_cast<int>(order.size());
        order.push_back(static_cast<int>(i));
        break;
      }
    }
  }
  std::vector<BodySpec> sorted;
  for (int i : order) sorted.push_back(spec.bodies[i]);
  spec.bodies = sorted;
  remap(spec, newIndex);
  return newIndex[body];
}

}  // namespace art
