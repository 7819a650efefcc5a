#pragma once
// The force overlays of one scene (View > Contact Forces, Constraint Forces, System Centre of
// Mass, Body Names, Trails): arrows, contact points, labels, fading trails, the system's
// centre of mass and the legend of the force scale, each kind one VTK actor (labels one text
// actor each) whose data are rewritten in place every frame.

#include <string>
#include <vector>

#include <vtkSmartPointer.h>

#include "viewport/viewport.h"

class vtkActor;
class vtkActor2D;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace art::gui {

class AnnotationLayer {
 public:
  /// `names` and `coms` (body coordinates) of the bodies, `size` the model's extent (m) and
  /// `weight` its weight (N; 0: weightless) for the force scale, `down` the direction of
  /// gravity (the system's centre of mass is projected along it onto the ground through the
  /// origin; zero: no projection).
  AnnotationLayer(vtkRenderer* renderer, std::vector<std::string> names, std::vector<Vec3> coms,
                  double size, double weight, const Vec3& down);
  ~AnnotationLayer();
  AnnotationLayer(const AnnotationLayer&) = delete;
  AnnotationLayer& operator=(const AnnotationLayer&) = delete;

  /// Metres of arrow per newton, and the legend (see Viewport::forceScale).
  double forceScale() const { return m_scale; }
  const std::string& legend() const { return m_legend; }
  /// What to draw: the annotations and, with `names`, each body's name at its centre of mass
  /// at `poses` (base coordinates). The legend shows in the bottom-left corner while any arrow
  /// is drawn; the system's centre of mass is an orange ball with a line down to a cross on the
  /// ground (where it stands over the support).
  void update(const Annotations& annotations, bool names, const std::vector<BodyPose>& poses);
  /// Arrows and visible labels drawn now (for tests).
  int arrowCount() const { return m_arrowCount; }
  int labelCount() const;

 private:
  vtkRenderer* m_renderer;
  std::vector<std::string> m_names;
  std::vector<Vec3> m_coms;
  double m_size = 1.0, m_scale = 1.0;
  Vec3 m_down = Vec3::Zero();
  std::string m_legend;
  int m_arrowCount = 0;
  vtkSmartPointer<vtkPolyData> m_arrows, m_points, m_trails;
  vtkSmartPointer<vtkActor> m_arrowActor, m_pointActor, m_trailActor, m_comActor;
  vtkSmartPointer<vtkTextActor> m_legendActor;
  std::vector<vtkSmartPointer<vtkTextActor>> m_labels;  // a pool, reused frame to frame
  vtkTextActor* label(std::size_t k);
};

/// The force scale for a model of extent `size` (m) and weight `weight` (N): metres per newton
/// such that the weight draws size / 2 long, rounded down to 1, 2 or 5 times a power of ten,
/// and its legend for an arrow of a round length near size / 10.
double forceScaleFor(double size, double weight, std::string* legend = nullptr);

}  // namespace art::gui
