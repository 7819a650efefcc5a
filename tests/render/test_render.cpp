// Rendering tests: models rendered offscreen (Mesa under Xvfb) against baseline PNGs in
// tests/render/baselines (compareWithBaseline, render/baseline.h). Set
// ARTICULATE_UPDATE_BASELINES=1 to write new baselines instead (then look at them).
#include <QtTest>

#include "test_main.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QImage>
#include <QSignalSpy>

#include "articulate/formulations/generators.h"
#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/urdf.h"
#include "articulate/formats/structure.h"
#include "articulate/simulation/structure_system.h"
#include "baseline.h"
#include "viewport/viewport.h"

Q_DECLARE_METATYPE(art::gui::Pick)

using art::test::compareWithBaseline;
namespace {
const QString kBaselines = QStringLiteral(ARTICULATE_RENDER_BASELINES);
}  // namespace

class TestRender : public QObject {
  Q_OBJECT
 private slots:
  void matchesBaseline_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("baseline");
    QTest::newRow("gfx_example") << "gfx_example.json" << "gfx_example";
    QTest::newRow("tracking camera") << "gfx_example_tracking.json" << "gfx_example_tracking";
    QTest::newRow("planar") << "planar5.json" << "planar5";
    QTest::newRow("tiles floor") << "rollingdisc.json" << "rollingdisc";
    QTest::newRow("arm") << "arm6.json" << "arm6";
    // meshes: STL in metres and Collada in millimetres (Z up), by package://, coloured by the
    // URDF's materials and the Collada file's own
    QTest::newRow("meshed arm (URDF)") << "robots/meshed_arm_description/urdf/meshed_arm.urdf" << "meshed_arm";
  }
  void matchesBaseline() {
    QFETCH(QString, model);
    QFETCH(QString, baseline);
    const art::LoadedModel lm = art::loadModel(ARTICULATE_MODELS_DIR "/" + model.toStdString());
    QTemporaryDir dir;
    const QString actualPath = dir.filePath("actual.png");
    art::gui::Viewport::renderToPng(lm.spec, art::compile(lm.spec).q0, 640, 400, actualPath);
    const QImage actual = QImage(actualPath).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(actual.size(), QSize(640, 400));
    if (qEnvironmentVariableIsSet("ARTICULATE_UPDATE_BASELINES")) {
      QVERIFY(actual.save(kBaselines + "/" + baseline + ".png"));
      QSKIP("baseline written");
    }
    const QString problem = compareWithBaseline(actual, baseline);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  // a structure with cables (the tensegrity prism with one bar moved towards the middle, so
  // that some cables are slack and some taut): bodies posed by StructureSystem::bodyPoses,
  // cables drawn from StructureSystem::segments in their taut and slack colours, and its floor
  void structureWithCables() {
    const art::natural::StructureSpec spec =
        art::natural::loadStructure(ARTICULATE_MODELS_DIR "/tensegrity_prism.json");
    art::StructureSystem system(spec);
    Eigen::VectorXd q = system.positions();
    for (int i : {0, 3}) q(i) -= 0.2;  // both points of bar1 (a bar3d_2p: [r; rj]) along -x
    std::vector<art::BodyPose> poses;
    std::vector<art::SegmentReport> segments;
    system.bodyPoses(q, poses);
    system.segments(q, Eigen::VectorXd(), segments);
    int slack = 0;
    for (const auto& s : segments) slack += s.slack;
    QVERIFY2(slack > 0 && slack < static_cast<int>(segments.size()), "expected slack and taut cables");
    art::gui::OffscreenView view(art::displayModel(spec), 640, 400);
    view.setSegments(segments);
    view.setBodyPoses(poses, true);
    const QImage actual = view.image();
    QCOMPARE(actual.size(), QSize(640, 400));
    // both cable colours are on screen (Scene's taut red-orange and slack blue-grey)
    int taut = 0, pale = 0;
    for (int y = 0; y < actual.height(); ++y)
      for (int x = 0; x < actual.width(); ++x) {
        const QRgb c = actual.pixel(x, y);
        taut += qRed(c) == 225 && qGreen(c) == 70 && qBlue(c) == 25;
        pale += qRed(c) == 150 && qGreen(c) == 175 && qBlue(c) == 205;
      }
    QVERIFY2(taut > 100 && pale > 50, qPrintable(QString("taut %1 px, slack %2 px").arg(taut).arg(pale)));
    if (qEnvironmentVariableIsSet("ARTICULATE_UPDATE_BASELINES")) {
      QVERIFY(actual.save(kBaselines + "/tensegrity_prism.png"));
      QSKIP("baseline written");
    }
    const QString problem = compareWithBaseline(actual, "tensegrity_prism");
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  // a click on a body selects it and reports the body and a point on its surface; the view keys
  // move the camera and `i` restores the model's view
  void pickingAndKeys() {
    const art::LoadedModel lm = art::loadModel(ARTICULATE_MODELS_DIR "/arm6.json");
    art::gui::Viewport view;
    view.resize(640, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setModel(lm.spec, art::compile(lm.spec).q0);
    QCoreApplication::processEvents();
    // find a pixel showing a moving body
    std::optional<art::gui::Pick> hit;
    QPoint where;
    for (int y = 20; y < 400 && !(hit && hit->body >= 0); y += 10)
      for (int x = 20; x < 640 && !(hit && hit->body >= 0); x += 10)
        if ((hit = view.pickAt(QPoint(x, y))) && hit->body >= 0) where = QPoint(x, y);
    QVERIFY2(hit && hit->body >= 0, "no body under any pixel");
    QSignalSpy picked(&view, &art::gui::Viewport::bodyPicked);
    QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, where);
    QCOMPARE(picked.size(), 1);
    const auto pick = picked.first().first().value<art::gui::Pick>();
    QCOMPARE(pick.body, hit->body);
    QCOMPARE(view.selectedBody(), hit->body);
    // the picked point lies on the body: within its geometry's extent (under 1 m for this arm)
    QVERIFY(pick.point.allFinite() && pick.point.norm() < 1.0);
    // clicking empty space clears the selection
    QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, QPoint(5, 5));
    QCOMPARE(view.selectedBody(), -1);
    // keys: z zooms out, Z in, i resets
    const double zoom0 = *view.currentCamera().zoom;
    QTest::keyClick(&view, Qt::Key_Z);  // 'z' (lower case) without shift
    QVERIFY(*view.currentCamera().zoom < zoom0);
    QTest::keyClick(&view, Qt::Key_I);
    QVERIFY(std::abs(*view.currentCamera().zoom - zoom0) < 1e-9);
    QTest::keyClick(&view, Qt::Key_Left, Qt::ShiftModifier);  // rotate 3 degrees
    const art::Vec3 d0 = *view.currentCamera().direction;
    QTest::keyClick(&view, Qt::Key_I);
    QVERIFY((*view.currentCamera().direction - d0).norm() > 1e-3);
  }

  // body surfaces are drawn with back faces culled: a body's open 'triangles' surface must
  // still show from both sides (a closed box beside it shows either way)
  void openSurfacesShowFromBothSides() {
    art::ModelSpec spec;
    spec.name = "one triangle";
    art::BodySpec b;
    b.name = "plate";
    b.joint.type = art::JointType::Rz;
    b.inertia = art::InertiaSpec::fromMassComInertia(1.0, art::Vec3::Zero(), art::Mat3::Identity());
    b.appearance = nlohmann::json::parse(
        R"(["colour", [1, 0, 0], "vertices", [[-1, -1, 0], [1, -1, 0], [0, 1, 0]],
            "triangles", [[1, 2, 3]]])");
    spec.bodies.push_back(b);
    for (double side : {1.0, -1.0}) {
      spec.camera.direction = art::Vec3(0, 0.2, side);  // in front of, then behind, the triangle
      spec.camera.up = art::Vec3(0, 1, 0);
      QTemporaryDir dir;
      art::gui::Viewport::renderToPng(spec, art::compile(spec).q0, 160, 120, dir.filePath("t.png"));
      const QImage img(dir.filePath("t.png"));
      const QColor c = img.pixelColor(img.width() / 2, img.height() / 2);
      QVERIFY2(c.red() > 2 * c.green() + 40 && c.red() > 2 * c.blue() + 40,
               qPrintable(QString("side %1: centre pixel %2").arg(side).arg(c.name())));
    }
  }

  // issue 32: a textured COLLADA link (tests/data/textured, drawn white before) shows its
  // texture's colour, dark red (its average is 160, 30, 22 of 255); the same file without its
  // texture beside it is drawn in its material colour, white
  void texturedMeshShowsItsColour() {
    const QString data = ARTICULATE_TEST_DATA_DIR "/textured";
    QTemporaryDir tmp;
    QVERIFY(QDir().mkpath(tmp.filePath("meshes")));
    QVERIFY(QFile::copy(data + "/robot.urdf", tmp.filePath("robot.urdf")));
    QVERIFY(QFile::copy(data + "/meshes/body.dae", tmp.filePath("meshes/body.dae")));
    for (const QString& folder : {data, tmp.path()}) {
      const art::LoadedModel model = art::loadModel((folder + "/robot.urdf").toStdString());
      art::gui::Viewport::renderToPng(model.spec, art::compile(model.spec).q0, 320, 200, tmp.filePath("t.png"));
      const QImage img(tmp.filePath("t.png"));
      const QColor c = img.pixelColor(img.width() / 2, img.height() / 2 - 20);  // on the box's side
      qInfo("%s: pixel %s", folder == data ? "textured" : "texture missing", qPrintable(c.name()));
      if (folder == data) {
        QVERIFY2(c.red() > 60 && c.green() < 0.35 * c.red() && c.blue() < 0.35 * c.red(), qPrintable(c.name()));
      } else {
        QVERIFY2(c.red() > 60 && std::abs(c.green() - c.red()) < 20 && std::abs(c.blue() - c.red()) < 30, qPrintable(c.name()));
      }
    }
  }

  // sites are drawn as small spheres in their colour only while shown (Overlays::sites,
  // View > Sites): shown, a red site above the box changes the picture only where it is red
  void sitesShowOnRequest() {
    art::ModelSpec spec;
    spec.name = "sites";
    art::BodySpec b;
    b.name = "arm";
    b.joint.type = art::JointType::Rz;
    b.inertia = art::InertiaSpec::fromMassComInertia(1.0, art::Vec3::Zero(), art::Mat3::Identity());
    b.appearance = nlohmann::json::array({"colour", {0.2, 0.2, 0.9}, "box", {{-1, -0.1, -0.1}, {0, 0.1, 0.1}}});
    spec.bodies = {b};
    art::SiteSpec site;
    site.body = 0;
    site.position = art::Vec3(-0.5, 0, 0.3);  // above the box, seen from above
    site.size = 0.08;
    site.colour = art::Vec3(1, 0, 0);
    spec.sites = {site};
    spec.camera.direction = art::Vec3(0, 0, 1);
    spec.camera.up = art::Vec3(0, 1, 0);
    art::gui::OffscreenView view(spec, 320, 200);
    QImage hidden = view.image();
    art::gui::Overlays o;
    o.sites = true;
    view.setOverlays(o);
    QImage shown = view.image();
    // the site is the only change, and red
    int changed = 0, red = 0;
    for (int y = 0; y < shown.height(); ++y)
      for (int x = 0; x < shown.width(); ++x)
        if (shown.pixel(x, y) != hidden.pixel(x, y)) {
          ++changed;
          const QColor c = shown.pixelColor(x, y);
          red += c.red() > 100 && c.green() < 60 && c.blue() < 60;
        }
    qInfo("showing the site changed %d pixels, %d of them red", changed, red);
    QVERIFY(changed > 100);
    QVERIFY(red > 0.8 * changed);
    o.sites = false;
    view.setOverlays(o);
    QVERIFY(view.image() == hidden);
  }

  // the "opacity" instruction (an MJCF rgba alpha below 1) draws see-through: a red box at
  // opacity 0.4 in front of a blue one shows both colours at the centre; at opacity 1 only red
  void translucentShapesShowWhatIsBehind() {
    art::ModelSpec spec;
    spec.name = "see-through";
    art::BodySpec b;
    b.name = "boxes";
    b.joint.type = art::JointType::Rz;
    b.inertia = art::InertiaSpec::fromMassComInertia(1.0, art::Vec3::Zero(), art::Mat3::Identity());
    spec.camera.direction = art::Vec3(0, 0.2, 1);
    spec.camera.up = art::Vec3(0, 1, 0);
    for (double opacity : {0.4, 1.0}) {
      b.appearance = nlohmann::json::array({"colour", {0, 0, 1}, "box", {{-1, -1, -1}, {1, 1, -0.5}},
                                            {"opacity", opacity, "colour", {1, 0, 0}, "box", {{-0.5, -0.5, 0}, {0.5, 0.5, 0.5}}}});
      spec.bodies = {b};
      QTemporaryDir dir;
      art::gui::Viewport::renderToPng(spec, art::compile(spec).q0, 160, 120, dir.filePath("t.png"));
      const QImage img(dir.filePath("t.png"));
      const QColor c = img.pixelColor(img.width() / 2, img.height() / 2);
      qInfo("opacity %.1f: centre pixel %s", opacity, qPrintable(c.name()));
      QVERIFY2(c.red() > 60 && c.green() < 40, qPrintable(c.name()));
      if (opacity < 1)
        QVERIFY2(c.blue() > 60, qPrintable(c.name()));
      else
        QVERIFY2(c.blue() < 30, qPrintable(c.name()));
    }
  }

  // level of detail: seen whole at 640x400, autoTree(100)'s tubes (radius 0.05 m, 1 m long)
  // are a few pixels thick and drawn coarse; from 0.5 m away the shapes near the camera are
  // drawn at full detail again, and going back brings the coarse count back
  // issue 31, finding 4: coincident triangles (every point shared by thousands of them) took
  // vtkPolyDataNormals a time growing with their square (2,000 took 25 s in --screenshot);
  // a mesh of them, a triangle list of them and a large fan of distinct triangles meeting at
  // one point, on moving bodies, now draw in linear time, and are seen
  void coincidentTriangles() {
    QTemporaryDir dir;
    // `count` triangles: copies of one, or a fan of distinct ones around one point (a cone of
    // radius 0.5 m), all meeting at its apex
    auto stl = [&](const QString& name, std::uint32_t count, bool fan) {
      QFile f(dir.filePath(name));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray(80, ' '));
      f.write(reinterpret_cast<const char*>(&count), 4);
      for (std::uint32_t k = 0; k < count; ++k) {
        const double a = 2 * M_PI * k / count, b = 2 * M_PI * (k + 1) / count;
        const float copy[12] = {0, 0, 1, -0.5f, -0.5f, 0, 0.5f, -0.5f, 0, 0, 0.5f, 0};
        const float part[12] = {0, 0, 1, 0, 0, 0.2f, float(0.5 * std::cos(a)), float(0.5 * std::sin(a)), 0,
                                float(0.5 * std::cos(b)), float(0.5 * std::sin(b)), 0};
        f.write(reinterpret_cast<const char*>(fan ? part : copy), sizeof copy);
        f.write("\0\0", 2);
      }
    };
    stl("many.stl", 5000, false);
    // past Scene::kDetailedMeshTriangles: its own actors, and a coarse form (vtkQuadricDecimation
    // was quadratic in the triangles at a point too)
    stl("lots.stl", 60000, true);
    nlohmann::json triangles = nlohmann::json::array();
    for (int k = 0; k < 5000; ++k) triangles.push_back({1, 2, 3});  // 1-based, as spatial_v2
    const nlohmann::json inertia = {{"mass", 1}, {"com", {0, 0, 0}}, {"about_com", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}};
    const nlohmann::json doc = {
        {"format", "articulate-model"}, {"version", 1}, {"name", "coincident"}, {"kind", "tree"}, {"arithmetic", "spatial"},
        {"gravity", {0, 0, -9.81}},
        {"bodies",
         {{{"name", "a"}, {"parent", "base"}, {"joint", "Rz"}, {"inertia", inertia},
           {"appearance", {"colour", {0.9, 0.1, 0.1}, "mesh", {{"file", "many.stl"}, {"colour", "context"}}}}},
          {{"name", "b"}, {"parent", "base"}, {"joint", "Rz"}, {"placement", {{"position", {1.2, 0, 0}}}}, {"inertia", inertia},
           {"appearance", {"colour", {0.1, 0.9, 0.1}, "vertices", {{-0.5, -0.5, 0}, {0.5, -0.5, 0}, {0, 0.5, 0}}, "triangles", triangles}}},
          {{"name", "c"}, {"parent", "base"}, {"joint", "Rz"}, {"placement", {{"position", {-1.2, 0, 0}}}}, {"inertia", inertia},
           {"appearance", {"colour", {0.1, 0.1, 0.9}, "mesh", {{"file", "lots.stl"}, {"colour", "context"}}}}}}}};
    QFile model(dir.filePath("coincident.json"));
    QVERIFY(model.open(QIODevice::WriteOnly));
    model.write(QByteArray::fromStdString(doc.dump()));
    model.close();
    const art::LoadedModel lm = art::loadModel(dir.filePath("coincident.json").toStdString());
    QElapsedTimer clock;
    clock.start();
    art::gui::OffscreenView off(lm.spec, 640, 400);
    off.render();
    QVERIFY2(clock.elapsed() < 15000, qPrintable(QString::number(clock.elapsed()) + " ms"));
    art::gui::ViewState above;
    above.position = art::Vec3(0, 0, 6);
    above.focus = art::Vec3::Zero();
    above.up = art::Vec3::UnitY();
    off.setViewState(above);
    off.render();
    const QImage image = off.image();
    // each shape seen in its colour (red, green, blue): pixels where that channel dominates
    int seen[3] = {0, 0, 0};
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width(); ++x) {
        const QColor c = image.pixelColor(x, y);
        const int v[3] = {c.red(), c.green(), c.blue()};
        for (int k = 0; k < 3; ++k) seen[k] += v[k] > 2 * v[(k + 1) % 3] + 20 && v[k] > 2 * v[(k + 2) % 3] + 20;
      }
    QVERIFY2(seen[0] > 500, qPrintable("the coincident mesh is not drawn: " + QString::number(seen[0])));
    QVERIFY2(seen[1] > 500, qPrintable("the coincident triangle list is not drawn: " + QString::number(seen[1])));
    QVERIFY2(seen[2] > 500, qPrintable("the large coincident mesh is not drawn: " + QString::number(seen[2])));
  }

  // a mesh of more than Scene::kDetailedMeshTriangles triangles on a moving body: its own
  // actors, picked as its body, and its decimated form drawn when the camera is far
  void largeMeshes() {
    QTemporaryDir dir;
    // a sphere of radius 0.2 m, 200 x 128 quads (about 51,000 triangles), as binary STL
    const int n = 200, m = 128;
    std::vector<float> tris;
    auto pt = [&](int i, int j) {
      const double th = M_PI * j / m, ph = 2 * M_PI * i / n;
      return std::array<float, 3>{float(0.2 * std::sin(th) * std::cos(ph)), float(0.2 * std::sin(th) * std::sin(ph)),
                                  float(0.2 * std::cos(th))};
    };
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) {
        const auto a = pt(i, j), b = pt(i + 1, j), c = pt(i + 1, j + 1), d = pt(i, j + 1);
        for (const auto& t : {std::array<std::array<float, 3>, 3>{a, d, b}, std::array<std::array<float, 3>, 3>{b, d, c}}) {
          if ((j == 0 && t[0] == a) || (j == m - 1 && t[0] == b)) continue;  // no triangles at the poles' points
          for (int k = 0; k < 3; ++k) tris.insert(tris.end(), t[k].begin(), t[k].end());
        }
      }
    QFile stl(dir.filePath("ball.stl"));
    QVERIFY(stl.open(QIODevice::WriteOnly));
    stl.write(QByteArray(80, ' '));
    const std::uint32_t count = static_cast<std::uint32_t>(tris.size() / 9);
    QVERIFY(count > 40000);  // Scene::kDetailedMeshTriangles
    stl.write(reinterpret_cast<const char*>(&count), 4);
    for (std::size_t k = 0; k < tris.size(); k += 9) {
      const float normal[3] = {0, 0, 0};
      stl.write(reinterpret_cast<const char*>(normal), 12);
      stl.write(reinterpret_cast<const char*>(&tris[k]), 36);
      stl.write("\0\0", 2);
    }
    stl.close();
    QFile urdf(dir.filePath("ball.urdf"));
    QVERIFY(urdf.open(QIODevice::WriteOnly));
    urdf.write("<robot name='ball'><link name='world'/><link name='ball'><inertial><mass value='1'/><inertia ixx='0.1' "
               "iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial><visual><geometry><mesh filename='ball.stl'/>"
               "</geometry><material name='red'><color rgba='0.9 0.1 0.1 1'/></material></visual></link>"
               "<joint name='spin' type='continuous'><parent link='world'/><child link='ball'/><axis xyz='0 0 1'/></joint></robot>");
    urdf.close();
    const art::LoadedModel lm = art::loadModel(dir.filePath("ball.urdf").toStdString());
    art::gui::Viewport view;
    view.resize(640, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setModel(lm.spec, art::compile(lm.spec).q0);
    QCoreApplication::processEvents();
    const std::optional<art::gui::Pick> hit = view.pickAt(QPoint(320, 200));
    QVERIFY2(hit && hit->body == 0, "the ball is not picked at the centre of the view");
    QVERIFY(std::abs(hit->point.norm() - 0.2) < 0.01);  // on the sphere
    // seen whole it is drawn fine; from far away, decimated
    art::gui::OffscreenView off(lm.spec, 640, 400);
    off.render();
    QCOMPARE(off.coarseShapes(), 0);
    const QImage nearImage = off.image();
    QVERIFY(nearImage.pixelColor(320, 200).red() > 2 * nearImage.pixelColor(320, 200).green());
    art::gui::ViewState far;
    far.position = art::Vec3(0, -60, 10);
    far.focus = art::Vec3::Zero();
    far.up = art::Vec3::UnitZ();
    off.setViewState(far);
    off.render();
    QCOMPARE(off.coarseShapes(), 1);
    const QImage farImage = off.image();
    QVERIFY2(farImage.pixelColor(320, 200).red() > 2 * farImage.pixelColor(320, 200).green(), "the far ball is not drawn");
  }

  void levelOfDetail() {
    art::AutoTreeOptions o;
    o.bodies = 100;
    o.branching = 2;
    o.axes = {art::JointType::Rz, art::JointType::Ry};
    art::gui::OffscreenView view(art::autoTree(o), 640, 400);
    view.render();
    const int far = view.coarseShapes();
    QVERIFY2(far > 100, qPrintable(QString("%1 coarse shapes").arg(far)));
    art::gui::ViewState close;
    close.position = art::Vec3(0.5, -0.5, 0.1);
    close.focus = art::Vec3(0.5, 0, 0);
    close.up = art::Vec3::UnitZ();
    view.setViewState(close);
    view.render();
    const int near = view.coarseShapes();
    qInfo("coarse shapes: %d seen whole, %d close up", far, near);
    QVERIFY2(near < far, qPrintable(QString("%1 coarse close up, %2 far").arg(near).arg(far)));
    // the first link's tube fills the view: no pixel of it is the background's
    const QImage img = view.image();
    QVERIFY(img.pixelColor(img.width() / 2, img.height() / 2) != img.pixelColor(2, img.height() / 2));
    view.setPose(Eigen::VectorXd::Zero(o.bodies), true);  // reframed: whole again
    view.render();
    QCOMPARE(view.coarseShapes(), far);
  }

  // a blank render would pass against a blank baseline: the image must show the model
  void rendersSomething() {
    const art::LoadedModel lm = art::loadModel(ARTICULATE_MODELS_DIR "/arm6.json");
    QTemporaryDir dir;
    art::gui::Viewport::renderToPng(lm.spec, art::compile(lm.spec).q0, 320, 200, dir.filePath("a.png"));
    const QImage img(dir.filePath("a.png"));
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 4)
      for (int x = 0; x < img.width(); x += 4) colours.insert(img.pixel(x, y));
    QVERIFY2(colours.size() > 50, qPrintable(QString("only %1 colours").arg(colours.size())));
  }
};

ARTICULATE_TEST_MAIN(TestRender)
#include "test_render.moc"
