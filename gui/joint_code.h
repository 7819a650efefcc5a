#pragma once
// A joint type's code ("Rz", "free", "ball", ...: articulate/spatial/joint.h) as Qt text, for the
// model tree and the Properties dock.

#include <QString>
#include <string_view>

#include "articulate/spatial/joint.h"

namespace art::gui {

inline QString jointCodeText(JointType t) {
  const std::string_view c = jointCode(t);
  return QString::fromUtf8(c.data(), static_cast<qsizetype>(c.size()));
}

}  // namespace art::gui
