#pragma once
// The VTK scene of one model: actors built once per body from its drawing instructions, one
// transform per body that playback updates, and the overlays (frames, joint axes, COMs).

#include <vector>

#include <vtkSmartPointer.h>

#include "articulate/appearance.h"
#include "articulate/dynamics.h"
#include "articulate/model.h"
#include "articulate/model_spec.h"

class vtkActor;
class vtkRenderer;
class vtkTransform;
class vtkProp;

namespace art::gui {

class Scene {
 public:
  /// Builds every body's geometry (base = body -1) and adds it to `renderer`.
  Scene(const ModelSpec& spec, vtkRenderer* renderer);
  ~Scene();
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  /// Moves the bodies to q (forward kinematics); only transforms change.
  void setPose(const Eigen::VectorXd& q);
  /// Body pose in base coordinates after setPose.
  const BodyPose& pose(int body) const { return m_poses[body]; }
  /// Bounding box of the moving bodies' geometry at the current pose (lo > hi when empty).
  void movingBounds(Vec3& lo, Vec3& hi) const;
  /// The body an actor belongs to (-1 base, -2 not ours).
  int bodyOf(vtkProp* prop) const;
  void setHighlighted(int body);
  void setOverlayVisibility(bool frames, bool jointAxes, bool coms);
  int bodies() const { return m_model.nb; }
  const Model& model() const { return m_model; }

 private:
  struct BodyActors {
    vtkSmartPointer<vtkTransform> transform;
    std::vector<vtkSmartPointer<vtkActor>> actors;
    std::vector<vtkSmartPointer<vtkActor>> frames, axes, coms;
  };
  Model m_model;
  Data m_data;
  vtkRenderer* m_renderer;
  std::vector<BodyActors> m_bodies;  // index body + 1 (0 = base)
  std::vector<BodyPose> m_poses;
  int m_highlighted = -2;
  void addPrimitive(int body, const Primitive& p);
};

}  // namespace art::gui
