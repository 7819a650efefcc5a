// Mesh files and the `mesh` drawing instruction (formats/mesh.h, model/appearance.h): every
// listed format read through assimp from files this test writes with known geometry (triangle
// counts, bounding boxes, a Collada file in millimetres and Z up, material colours); broken and
// missing files refused by name; URDF mesh visuals found by package:// in the documented order,
// with a note naming the link and the file when not; mesh paths relative to the document.
#include <sys/resource.h>
#include <sys/stat.h>

#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <variant>
#include <vector>

#include "articulate/formats/articulate.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formats/mesh.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/urdf.h"
#include "articulate/model/appearance.h"
#include "mesh_read.h"

using namespace art;
using nlohmann::json;

namespace {

void write(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

// the 12 triangles of the box [0, sx] x [0, sy] x [0, sz], outward
std::vector<std::array<Eigen::Vector3f, 3>> boxTriangles(float sx, float sy, float sz) {
  const Eigen::Vector3f v[8] = {{0, 0, 0}, {sx, 0, 0}, {sx, sy, 0}, {0, sy, 0},
                                {0, 0, sz}, {sx, 0, sz}, {sx, sy, sz}, {0, sy, sz}};
  const int f[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                        {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  std::vector<std::array<Eigen::Vector3f, 3>> out;
  for (const auto& t : f) out.push_back({v[t[0]], v[t[1]], v[t[2]]});
  return out;
}

QByteArray asciiStl(const std::vector<std::array<Eigen::Vector3f, 3>>& tris) {
  QByteArray s = "solid box\n";
  for (const auto& t : tris) {
    s += "facet normal 0 0 0\n outer loop\n";
    for (const auto& v : t) s += QString(" vertex %1 %2 %3\n").arg(static_cast<double>(v.x())).arg(static_cast<double>(v.y())).arg(static_cast<double>(v.z())).toUtf8();
    s += " endloop\nendfacet\n";
  }
  return s + "endsolid box\n";
}

QByteArray binaryStl(const std::vector<std::array<Eigen::Vector3f, 3>>& tris, std::uint32_t claimed = 0) {
  QByteArray s(80, ' ');
  const std::uint32_t n = claimed ? claimed : static_cast<std::uint32_t>(tris.size());
  s.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : tris) {
    const float normal[3] = {0, 0, 0};
    s.append(reinterpret_cast<const char*>(normal), 12);
    for (const auto& v : t) s.append(reinterpret_cast<const char*>(v.data()), 12);
    s.append(2, '\0');
  }
  return s;
}

void expectBox(const MeshData& m, std::size_t triangles, const Vec3& lo, const Vec3& hi) {
  QCOMPARE(m.triangles.size(), triangles);
  QVERIFY2((m.min - lo).cwiseAbs().maxCoeff() < 1e-6, qPrintable(QString("min %1 %2 %3").arg(m.min.x()).arg(m.min.y()).arg(m.min.z())));
  QVERIFY2((m.max - hi).cwiseAbs().maxCoeff() < 1e-6, qPrintable(QString("max %1 %2 %3").arg(m.max.x()).arg(m.max.y()).arg(m.max.z())));
}


// issue 31: hostile mesh files, as a probe made them

// a Collada file with one triangle (geometry "g") and the given scene and library nodes
QByteArray collada(const QByteArray& libraryNodes, const QByteArray& sceneNodes) {
  return "<?xml version=\"1.0\"?><COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\"><library_geometries><geometry id=\"g\"><mesh><source id=\"p\"><float_array id=\"pa\" count=\"9\">0 0 0 1 0 0 0 1 0</float_array><technique_common><accessor source=\"#pa\" count=\"3\" stride=\"3\"><param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common></source><vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/></vertices><triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/><p>0 1 2</p></triangles></mesh></geometry></library_geometries><library_nodes>" + libraryNodes + "</library_nodes><library_visual_scenes><visual_scene id=\"s\">" +
         sceneNodes + "</visual_scene></library_visual_scenes><scene><instance_visual_scene url=\"#s\"/></scene></COLLADA>";
}

// a glTF of one triangle; `buffer` is its buffer's uri (a data: URI when empty), `tail` JSON
// members added at the top level, `nodes` its node list
QByteArray gltf(const QByteArray& buffer, const QByteArray& tail = "", const QByteArray& nodes = "[{\"mesh\": 0}]") {
  const float xyz[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const QByteArray bytes(reinterpret_cast<const char*>(xyz), sizeof xyz);
  const QByteArray uri = buffer.isEmpty() ? "data:application/octet-stream;base64," + bytes.toBase64() : buffer;
  return "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}], \"nodes\": " + nodes +
         ", \"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0}}]}],\"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\", \"min\": [0, 0, 0], \"max\": [1, 1, 0]}],\"bufferViews\": [{\"buffer\": 0, \"byteLength\": 36}], \"buffers\": [{\"byteLength\": 36, \"uri\": \"" + uri + "\"}]" + tail + "}";
}

// loadMesh's message for `path`, or "loaded"
QString refusal(const QString& path) {
  try {
    loadMesh(path.toStdString());
    return "loaded";
  } catch (const FormatError& e) {
    return QString::fromStdString(e.what());
  }
}

}  // namespace

class TestMesh : public QObject {
  Q_OBJECT

 private slots:
  void everyFormatReads() {
    QTemporaryDir tmp;
    const auto box = boxTriangles(2.0f, 1.0f, 0.5f);
    write(tmp.filePath("ascii.stl"), asciiStl(box));
    expectBox(*loadMesh(tmp.filePath("ascii.stl").toStdString()), 12, Vec3(0, 0, 0), Vec3(2, 1, 0.5));
    write(tmp.filePath("binary.stl"), binaryStl(box));
    expectBox(*loadMesh(tmp.filePath("binary.stl").toStdString()), 12, Vec3(0, 0, 0), Vec3(2, 1, 0.5));
    // STL has no colours: assimp's default material is not taken for the file's
    QVERIFY(loadMesh(tmp.filePath("binary.stl").toStdString())->colours.empty());
    QCOMPARE(loadMesh(tmp.filePath("binary.stl").toStdString())->triangleColour.front(), -1);
    // OBJ with a quad (triangulated) and a material colour
    write(tmp.filePath("part.mtl"), "newmtl red\nKd 0.8 0.1 0.2\n");
    write(tmp.filePath("part.obj"),
          "mtllib part.mtl\nv 0 0 0\nv 3 0 0\nv 3 2 0\nv 0 2 0\nv 0 0 1\nusemtl red\nf 1 2 3 4\nf 1 2 5\n");
    const auto obj = loadMesh(tmp.filePath("part.obj").toStdString());
    expectBox(*obj, 3, Vec3(0, 0, 0), Vec3(3, 2, 1));
    QVERIFY(obj->triangleColour[0] >= 0);
    QVERIFY((obj->colours[static_cast<std::size_t>(obj->triangleColour[0])] - Vec3(0.8, 0.1, 0.2)).norm() < 1e-6);
    // PLY (ASCII): the box's six faces as quads
    QByteArray ply = "ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
                     "element face 6\nproperty list uchar int vertex_indices\nend_header\n"
                     "0 0 0\n4 0 0\n4 4 0\n0 4 0\n0 0 4\n4 0 4\n4 4 4\n0 4 4\n"
                     "4 0 3 2 1\n4 4 5 6 7\n4 0 1 5 4\n4 1 2 6 5\n4 2 3 7 6\n4 3 0 4 7\n";
    write(tmp.filePath("cube.ply"), ply);
    expectBox(*loadMesh(tmp.filePath("cube.ply").toStdString()), 12, Vec3(0, 0, 0), Vec3(4, 4, 4));
    // Collada in millimetres, Z up: metres out, z kept (as RViz reads ROS meshes)
    const QByteArray dae = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
        "  <asset><unit name=\"millimeter\" meter=\"0.001\"/><up_axis>Z_UP</up_axis></asset>\n"
        "  <library_geometries><geometry id=\"g\" name=\"g\"><mesh>\n"
        "    <source id=\"p\"><float_array id=\"pa\" count=\"12\">0 0 0 100 0 0 0 200 0 0 0 300</float_array>\n"
        "      <technique_common><accessor source=\"#pa\" count=\"4\" stride=\"3\"><param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common></source>\n"
        "    <vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/></vertices>\n"
        "    <triangles count=\"4\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/><p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>\n"
        "  </mesh></geometry></library_geometries>\n"
        "  <library_visual_scenes><visual_scene id=\"s\"><node id=\"n\"><instance_geometry url=\"#g\"/></node></visual_scene></library_visual_scenes>\n"
        "  <scene><instance_visual_scene url=\"#s\"/></scene>\n"
        "</COLLADA>\n"
        "";
    write(tmp.filePath("tetra.dae"), dae);
    expectBox(*loadMesh(tmp.filePath("tetra.dae").toStdString()), 4, Vec3(0, 0, 0), Vec3(0.1, 0.2, 0.3));
    // glTF with its buffer inline: one triangle
    const float pts[9] = {0, 0, 0, 1, 0, 0, 0, 0, 2};
    const std::uint16_t idx[4] = {0, 1, 2, 0};
    QByteArray buffer(reinterpret_cast<const char*>(pts), sizeof pts);
    buffer.append(reinterpret_cast<const char*>(idx), sizeof idx);
    const json gltf = {
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes", {{{"mesh", 0}}}},
        {"meshes", {{{"primitives", {{{"attributes", {{"POSITION", 0}}}, {"indices", 1}}}}}}},
        {"buffers", {{{"byteLength", buffer.size()}, {"uri", "data:application/octet-stream;base64," + buffer.toBase64().toStdString()}}}},
        {"bufferViews", {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 36}}, {{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 6}}}},
        {"accessors", {{{"bufferView", 0}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}, {"min", {0, 0, 0}}, {"max", {1, 0, 2}}},
                       {{"bufferView", 1}, {"componentType", 5123}, {"count", 3}, {"type", "SCALAR"}}}}};
    write(tmp.filePath("tri.gltf"), QByteArray::fromStdString(gltf.dump()));
    expectBox(*loadMesh(tmp.filePath("tri.gltf").toStdString()), 1, Vec3(0, 0, 0), Vec3(1, 0, 2));
    // cached: the same object for an unchanged file
    QCOMPARE(loadMesh(tmp.filePath("binary.stl").toStdString()).get(), loadMesh(tmp.filePath("binary.stl").toStdString()).get());
  }

  void brokenFilesAreRefusedByName() {
    QTemporaryDir tmp;
    const std::string missing = tmp.filePath("nothing.stl").toStdString();
    QVERIFY_THROWS_EXCEPTION(FormatError, loadMesh(missing));
    try {
      loadMesh(missing);
    } catch (const FormatError& e) {
      QCOMPARE(QString::fromStdString(e.path()), QString::fromStdString(missing));
      QVERIFY2(QString(e.what()).contains("no such mesh file"), e.what());
    }
    // a binary STL that claims 1000 triangles and holds 12
    write(tmp.filePath("short.stl"), binaryStl(boxTriangles(1, 1, 1), 1000));
    try {
      loadMesh(tmp.filePath("short.stl").toStdString());
      QFAIL("a truncated STL loaded");
    } catch (const FormatError& e) {
      QVERIFY2(QString(e.what()).startsWith(tmp.filePath("short.stl") + ": the mesh file does not read"), e.what());
    }
    write(tmp.filePath("noise.obj"), "this is not a mesh\n\x01\x02");
    QVERIFY_THROWS_EXCEPTION(FormatError, loadMesh(tmp.filePath("noise.obj").toStdString()));
    // issue 31: a folder, a device and a FIFO get their own reason, at once (a FIFO used to
    // hang the reader until something wrote to it)
    QVERIFY(QDir(tmp.path()).mkdir("folder.stl"));
    QVERIFY(::mkfifo(tmp.filePath("fifo.stl").toLocal8Bit().constData(), 0600) == 0);
    QElapsedTimer clock;
    clock.start();
    for (const auto& [path, why] : std::vector<std::pair<QString, QString>>{
             {tmp.filePath("folder.stl"), "is a folder, not a mesh file"},
             {"/dev/zero", "is not a regular file (a device, FIFO or socket)"},
             {tmp.filePath("fifo.stl"), "is not a regular file (a device, FIFO or socket)"}}) {
      try {
        loadMesh(path.toStdString());
        QFAIL(qPrintable(path + " loaded"));
      } catch (const FormatError& e) {
        QVERIFY2(QString(e.what()) == path + ": " + why, e.what());
      }
    }
    // and so does every model reader (readTextFile and readJsonFile share the check)
    for (const auto& [path, why] : std::vector<std::pair<QString, QString>>{
             {tmp.path(), "is a folder, not a file"},
             {"/dev/zero", "is not a regular file (a device, FIFO or socket)"},
             {tmp.filePath("fifo.stl"), "is not a regular file (a device, FIFO or socket)"},
             {tmp.filePath("none.json"), "no such file"}})
      for (int reader = 0; reader < 2; ++reader) {
        try {
          if (reader == 0)
            readTextFile(path.toStdString());
          else
            readJsonFile(path.toStdString());
          QFAIL(qPrintable(path + " read"));
        } catch (const FormatError& e) {
          QVERIFY2(QString(e.what()) == path + ": " + why, e.what());
        }
      }
    QVERIFY(clock.elapsed() < 5000);
  }

  // issue 31, finding 1: three small files crashed every command (SIGSEGV) and the app; each
  // is now refused by the structure check before assimp parses it, with the limit named
  void crashingFilesAreRefused() {
    QTemporaryDir tmp;
    // <instance_node> elements that form a cycle (405 bytes in the probe)
    write(tmp.filePath("cycle.dae"),
          collada("<node id=\"A\"><instance_node url=\"#B\"/></node><node id=\"B\"><instance_node url=\"#A\"/></node>",
                  "<node id=\"r\"><instance_geometry url=\"#g\"/><instance_node url=\"#A\"/></node>"));
    // 100,000 nested <node> elements
    QByteArray deep = "<node id='r'><instance_geometry url='#g'/>";
    for (int k = 0; k < 100000; ++k) deep += "<node>";
    for (int k = 0; k < 100000; ++k) deep += "</node>";
    write(tmp.filePath("deep.dae"), collada("", deep + "</node>"));
    // a glTF whose extras nest 200,000 arrays
    write(tmp.filePath("extras.gltf"), gltf("", ", \"extras\": " + QByteArray(200000, '[') + QByteArray(200000, ']')));
    // no cycle, but 2^20 nodes once expanded: each level instantiates the next twice
    QByteArray doubling;
    for (int k = 0; k < 20; ++k)
      doubling += QString("<node id='n%1'><instance_node url='#n%2'/><instance_node url='#n%2'/></node>").arg(k).arg(k + 1).toUtf8();
    doubling += "<node id='n20'><instance_geometry url='#g'/></node>";
    write(tmp.filePath("doubling.dae"), collada(doubling, "<node id='r'><instance_node url='#n0'/></node>"));
    QElapsedTimer clock;
    clock.start();
    const QString dir = tmp.path() + "/";
    QCOMPARE(refusal(dir + "cycle.dae"), dir + "cycle.dae: the Collada file's <instance_node> references form a cycle through node 'A'");
    QCOMPARE(refusal(dir + "deep.dae"), dir + "deep.dae: the Collada file nests its XML elements deeper than 100 levels");
    QCOMPARE(refusal(dir + "extras.gltf"), dir + "extras.gltf: the glTF file nests its JSON arrays and objects deeper than 100 levels");
    QCOMPARE(refusal(dir + "doubling.dae"),
             dir + "doubling.dae: the Collada file's scene has more than 100000 nodes once its <instance_node> references are expanded");
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    // the same structures within the limits still read
    write(tmp.filePath("shared.dae"),
          collada("<node id='A'><instance_geometry url='#g'/></node>",
                  "<node id='r'><node><instance_node url='#A'/></node><node><translate>2 0 0</translate><instance_node url='#A'/></node></node>"));
    QCOMPARE(loadMesh((dir + "shared.dae").toStdString())->triangles.size(), std::size_t(2));
    write(tmp.filePath("extras_ok.gltf"), gltf("", ", \"extras\": " + QByteArray(90, '[') + QByteArray(90, ']')));
    QCOMPARE(loadMesh((dir + "extras_ok.gltf").toStdString())->triangles.size(), std::size_t(1));
  }

  // a file that crashes assimp past every check (a chain of 200,000 glTF nodes, each the
  // child of the one before: assimp 5.2 recurses once per node and overflows its stack) ends
  // its reader's process, not this one
  void aCrashingReaderIsContained() {
    QTemporaryDir tmp;
    QByteArray chain = "[";
    for (int k = 1; k < 200000; ++k) chain += "{\"children\": [" + QByteArray::number(k) + "]}, ";
    write(tmp.filePath("loop.gltf"), gltf("", "", chain + "{\"mesh\": 0}]"));
    const QString why = refusal(tmp.filePath("loop.gltf"));
    QVERIFY2(why.startsWith(tmp.filePath("loop.gltf") + ": the mesh reader (assimp) crashed on this file (signal "), qPrintable(why));
    // this process goes on reading meshes
    write(tmp.filePath("ok.gltf"), gltf(""));
    QCOMPARE(loadMesh(tmp.filePath("ok.gltf").toStdString())->triangles.size(), std::size_t(1));
  }

  // finding 4: a file that hangs assimp past every check (a 94-byte PLY, found by fuzz_mesh:
  // assimp 5.2 seeks in it forever) is stopped when the reader's time is up (60 s for
  // loadMesh; 2 s here), and its refusal is remembered, not read again (resolveMeshes asks
  // for each mesh twice: its note and the drawing's size)
  void aHangingReaderIsStopped() {
    QTemporaryDir tmp;
    write(tmp.filePath("hang.ply"), QByteArray::fromBase64("cGx5CmZvcm1hdCBhc2NpaSAxLjAKZWwxIDEKMCAxIDEKMyAwIDIgMQozIDAgMyAyCjMgNSA1IDYK"
                                                             "Mx00IDYgNwozIDAgMSA1CjMgMCAKMyAzIDAgNAozIDMgNCA3Cg=="));
    QElapsedTimer clock;
    clock.start();
    try {
      mesh_read::readInChild(tmp.filePath("hang.ply").toStdString(), 2);
      QFAIL("the PLY read");
    } catch (const FormatError& e) {
      QCOMPARE(QString(e.what()), tmp.filePath("hang.ply") + ": reading the mesh file took longer than 2 s");
    }
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    // a refusal is cached with the file's modification time: the same message, at once
    write(tmp.filePath("crash.gltf"), gltf("", "", "[{\"children\": [1]}, {\"children\": [0]}]"));
    const QString first = refusal(tmp.filePath("crash.gltf"));
    QVERIFY(first != "loaded");
    QCOMPARE(refusal(tmp.filePath("crash.gltf")), first);
  }

  // finding 5: a file that makes assimp allocate without end (a PLY header that claims two
  // billion vertices) meets the reader's memory limit in its own process: a message, and this
  // process's memory untouched
  void aReaderOutOfMemoryIsContained() {
#ifdef ARTICULATE_SANITIZED
    QSKIP("the sanitizers reserve terabytes of address space: the reader runs without RLIMIT_AS");
#endif
    QTemporaryDir tmp;
    write(tmp.filePath("huge.ply"),
          "ply\nformat binary_little_endian 1.0\nelement vertex 2000000000\nproperty float x\nproperty float y\n"
          "property float z\nelement face 2000000000\nproperty list uchar int vertex_indices\nend_header\n");
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(refusal(tmp.filePath("huge.ply")), tmp.filePath("huge.ply") + ": the mesh file needs more than the reader's 3 GiB of memory");
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));
    rusage self{};
    ::getrusage(RUSAGE_SELF, &self);
    QVERIFY2(self.ru_maxrss < 1024 * 1024, qPrintable(QString::number(self.ru_maxrss) + " KiB"));  // under 1 GiB
  }

  // findings 4 and 6: side files are regular files in the mesh file's folder or below it
  void sideFilesAreConfined() {
    QTemporaryDir tmp;
    const QString dir = tmp.path() + "/";
    QVERIFY(QDir(tmp.path()).mkpath("deep/er"));
    // a buffer outside the folder: read as vertices before
    write(dir + "deep/er/passwd.gltf", gltf("../../../../../../../../etc/passwd"));
    QCOMPARE(refusal(dir + "deep/er/passwd.gltf"),
             dir + "deep/er/passwd.gltf: the mesh file names the side file '" + dir +
                 "deep/er/../../../../../../../../etc/passwd', which is outside the mesh file's folder");
    // FIFOs as an OBJ's mtllib and a glTF's buffer: they hung the reader
    QVERIFY(::mkfifo((dir + "m.mtl").toLocal8Bit().constData(), 0600) == 0);
    QVERIFY(::mkfifo((dir + "b.bin").toLocal8Bit().constData(), 0600) == 0);
    write(dir + "fifo.obj", "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    write(dir + "fifo.gltf", gltf("b.bin"));
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(refusal(dir + "fifo.obj"), dir + "fifo.obj: the mesh file names a side file that cannot be read: " + dir +
                                            "m.mtl: is not a regular file (a device, FIFO or socket)");
    QCOMPARE(refusal(dir + "fifo.gltf"), dir + "fifo.gltf: the mesh file names a side file that cannot be read: " + dir +
                                             "b.bin: is not a regular file (a device, FIFO or socket)");
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    // side files in the folder and below it still read: an OBJ's colours, a glTF's buffer
    write(dir + "deep/m.mtl", "newmtl red\nKd 1 0 0\n");
    write(dir + "deep/red.obj", "mtllib m.mtl\nusemtl red\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    const auto red = loadMesh((dir + "deep/red.obj").toStdString());
    QCOMPARE(red->colours.size(), std::size_t(1));
    QCOMPARE(red->colours[0], Vec3(1, 0, 0));
    const float xyz[9] = {0, 0, 0, 2, 0, 0, 0, 2, 0};
    write(dir + "deep/er/b.bin", QByteArray(reinterpret_cast<const char*>(xyz), sizeof xyz));
    write(dir + "deep/buffer.gltf", gltf("er/b.bin"));
    QCOMPARE(loadMesh((dir + "deep/buffer.gltf").toStdString())->max.x(), 2.0);
  }

  // fuzz_mesh: an OBJ that ends in blanks without a newline made the face prescan index past
  // its text (undefined behaviour that UBSan reports); it reads
  void objEndingInBlanksReads() {
    QTemporaryDir tmp;
    write(tmp.filePath("blank.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n   \t ");
    QCOMPARE(loadMesh(tmp.filePath("blank.obj").toStdString())->triangles.size(), std::size_t(1));
  }

  // issue 32: a COLLADA file's diffuse texture (tests/data/textured, as ANYmal's links are
  // drawn) is found in the mesh file's folder and noted as drawn by its average colour; a
  // texture that does not exist, one outside the folder and an embedded one are each named
  // in a note, and the part keeps its material colour
  void texturesAreFoundAndNoted() {
    const std::string dae = ARTICULATE_TEST_DATA_DIR "/textured/meshes/body.dae";
    const auto mesh = loadMesh(dae);
    QCOMPARE(mesh->colours.size(), std::size_t(1));
    QCOMPARE(mesh->textures.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(mesh->textures[0]),
             QFileInfo(ARTICULATE_TEST_DATA_DIR "/textured/meshes/body_skin.png").absoluteFilePath());
    QCOMPARE(mesh->colours[0], Vec3(1, 1, 1));  // the effect gives the texture alone
    QCOMPARE(mesh->notes, std::vector<std::string>{"its texture 'body_skin.png' is drawn as its average colour"});
    QFile f(QString::fromStdString(dae));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QTemporaryDir tmp;
    write(tmp.filePath("inside/missing.dae"), text);  // body_skin.png is not beside it
    write(tmp.filePath("outside.png"), "not read");
    write(tmp.filePath("inside/outside.dae"), QByteArray(text).replace("<init_from>body_skin.png", "<init_from>../outside.png"));
    const auto missing = loadMesh(tmp.filePath("inside/missing.dae").toStdString());
    QCOMPARE(missing->notes, std::vector<std::string>{"its texture 'body_skin.png' is not found: the material colour is used"});
    QVERIFY(missing->textures.size() == 1 && missing->textures[0].empty());
    QCOMPARE(missing->colours.size(), std::size_t(1));
    // a texture name with a control character is named escaped
    write(tmp.filePath("inside/odd.dae"), QByteArray(text).replace("<init_from>body_skin.png", "<init_from>skin&#x1b;[2J.png"));
    QCOMPARE(loadMesh(tmp.filePath("inside/odd.dae").toStdString())->notes,
             std::vector<std::string>{"its texture 'skin\\x1B[2J.png' is not found: the material colour is used"});
    const auto outside = loadMesh(tmp.filePath("inside/outside.dae").toStdString());
    QCOMPARE(outside->notes, std::vector<std::string>{"its texture '../outside.png' is outside the mesh file's folder and not drawn: the material colour is used"});
    // glTF: the base colour texture, times the base colour factor
    QByteArray textured = gltf("");
    textured.replace("[{\"attributes\": {\"POSITION\": 0}}]", "[{\"attributes\": {\"POSITION\": 0}, \"material\": 0}]");
    textured.chop(1);
    textured += ", \"materials\": [{\"pbrMetallicRoughness\": {\"baseColorFactor\": [1, 0.5, 0.5, 1], \"baseColorTexture\": {\"index\": 0}}}],"
                " \"textures\": [{\"source\": 0}], \"images\": [{\"uri\": \"skin.png\"}]}";
    write(tmp.filePath("gltf/part.gltf"), textured);
    write(tmp.filePath("gltf/skin.png"), "an image");
    const auto part = loadMesh(tmp.filePath("gltf/part.gltf").toStdString());
    QCOMPARE(part->notes, std::vector<std::string>{"its texture 'skin.png' is drawn as its average colour"});
    QCOMPARE(QString::fromStdString(part->textures.at(0)), QFileInfo(tmp.filePath("gltf/skin.png")).absoluteFilePath());
    QCOMPARE(part->colours.at(0), Vec3(1, 0.5, 0.5));
    // the URDF import reports it per link, as every command and the app's report show it
    std::vector<std::string> notes;
    loadUrdf(ARTICULATE_TEST_DATA_DIR "/textured/robot.urdf", &notes);
    QVERIFY(std::find(notes.begin(), notes.end(),
                      "link 'body': mesh 'meshes/body.dae': its texture 'body_skin.png' is drawn as its average colour") != notes.end());
  }

  // finding 4: an OBJ face of 900,000 corners hung the reader (ear clipping is quadratic);
  // polygons are bounded per polygon and in all, checked before any is triangulated
  void largePolygonsAreBounded() {
    QTemporaryDir tmp;
    const QString dir = tmp.path() + "/";
    auto polygonObj = [](int polygons, int corners) {
      QByteArray obj;
      for (int k = 0; k < corners; ++k)
        obj += QString("v %1 %2 0\n").arg(std::cos(2 * M_PI * k / corners)).arg(std::sin(2 * M_PI * k / corners)).toUtf8();
      for (int p = 0; p < polygons; ++p) {
        obj += "f";
        for (int k = 1; k <= corners; ++k) obj += " " + QByteArray::number(k);
        obj += "\n";
      }
      return obj;
    };
    write(dir + "huge.obj", polygonObj(1, 900000));
    write(dir + "many.obj", polygonObj(101, 1000));
    write(dir + "fine.obj", polygonObj(10, 1000));
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(refusal(dir + "huge.obj"), dir + "huge.obj: the mesh file has a polygon of 900000 corners (at most 1000)");
    QCOMPARE(refusal(dir + "many.obj"),
             dir + "many.obj: the mesh file's polygons have more than 100000 corners in all (polygons are faces of more than four corners)");
    // (the 10 polygons are one polygon repeated: its 998 triangles, the repeats removed)
    QCOMPARE(loadMesh((dir + "fine.obj").toStdString())->triangles.size(), std::size_t(998));
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));
  }

  // finding 5: 50 spheres at facets 1024 (a 1.4 KB model) took over 4 GB in --screenshot; the
  // drawing is bounded when the model is read, by every command and the app alike
  void theDrawingIsBounded() {
    QTemporaryDir tmp;
    auto model = [&](int spheres, int facets) {
      json app = json::array({"facets", facets});
      for (int k = 0; k < spheres; ++k) app.push_back("sphere"), app.push_back(json::array({k, 0, 0})), app.push_back(0.4);
      json m = {{"format", "articulate-model"}, {"version", 1}, {"name", "balls"}, {"kind", "tree"}, {"arithmetic", "spatial"},
                {"gravity", {0, 0, -9.81}},
                {"bodies", {{{"name", "b"}, {"parent", "base"}, {"joint", "Rz"},
                             {"inertia", {{"mass", 1}, {"com", {0, 0, 0}}, {"about_com", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}}},
                             {"appearance", app}}}}};
      const QString path = tmp.filePath(QString("balls_%1_%2.json").arg(spheres).arg(facets));
      write(path, QByteArray::fromStdString(m.dump()));
      return path.toStdString();
    };
    const std::string big = model(50, 1024);
    try {
      loadDocument(big);
      QFAIL("50 spheres at facets 1024 loaded");
    } catch (const FormatError& e) {
      QCOMPARE(QString(e.what()), QString::fromStdString(big) +
                                      ": drawing the model takes 52428800 triangles, more than the limit of 16777216 (body 'b' asks "
                                      "for 52428800; fewer facets on round shapes, or smaller meshes, bring it down)");
    }
    // the same spheres at the default facets, and a few at 1024, load
    QVERIFY(std::holds_alternative<LoadedModel>(loadDocument(model(50, 24))));
    QVERIFY(std::holds_alternative<LoadedModel>(loadDocument(model(15, 1024))));
    // meshes count once per instruction: 64 instructions of a file of 2^18 triangles fit the
    // limit (2^24), 65 do not (a binary STL: 50 bytes a triangle)
    {
      QFile stl(tmp.filePath("big.stl"));
      QVERIFY(stl.open(QIODevice::WriteOnly));
      const std::uint32_t n = 1u << 18;
      stl.write(QByteArray(80, ' '));
      stl.write(reinterpret_cast<const char*>(&n), 4);
      QByteArray tri(50, '\0');
      QByteArray all;
      all.reserve(static_cast<qsizetype>(50) * n);
      for (std::uint32_t k = 0; k < n; ++k) {  // distinct triangles: repeats would be removed
        const float x = static_cast<float>(k), corners[9] = {x, 0, 0, x + 1, 0, 0, x, 1, 0};
        std::memcpy(tri.data() + 12, corners, sizeof corners);
        all += tri;
      }
      stl.write(all);
    }
    auto meshes = [&](int count) {
      json app = json::array();
      for (int k = 0; k < count; ++k) app.push_back("mesh"), app.push_back({{"file", "big.stl"}});
      json m = {{"format", "articulate-model"}, {"version", 1}, {"name", "meshes"}, {"kind", "tree"}, {"arithmetic", "spatial"},
                {"gravity", {0, 0, -9.81}},
                {"bodies", {{{"name", "b"}, {"parent", "base"}, {"joint", "Rz"},
                             {"inertia", {{"mass", 1}, {"com", {0, 0, 0}}, {"about_com", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}}},
                             {"appearance", app}}}}};
      const QString path = tmp.filePath(QString("meshes_%1.json").arg(count));
      write(path, QByteArray::fromStdString(m.dump()));
      return path.toStdString();
    };
    QVERIFY(std::holds_alternative<LoadedModel>(loadDocument(meshes(64))));
    QVERIFY_THROWS_EXCEPTION(FormatError, loadDocument(meshes(65)));
  }

  // finding 4: 5,000 copies of one triangle took --screenshot tens of seconds to rasterise;
  // the reader keeps one of each (its reverse too: seen from the other side) and drops
  // triangles with a repeated corner
  void repeatedTrianglesAreRemoved() {
    QTemporaryDir tmp;
    QByteArray obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n";
    for (int k = 0; k < 5000; ++k) obj += "f 1 2 3\nf 2 3 1\n";
    obj += "f 3 2 1\nf 2 4 3\nf 1 1 2\n";
    write(tmp.filePath("repeats.obj"), obj);
    const auto mesh = loadMesh(tmp.filePath("repeats.obj").toStdString());
    QCOMPARE(mesh->triangles.size(), std::size_t(3));
    QCOMPARE(mesh->triangleColour.size(), std::size_t(3));
  }

  void meshInstruction() {
    Diagnostics problems;
    const json good = json::parse("[\"colour\", [0.1, 0.2, 0.3], \"mesh\", {\"file\": \"a.stl\", \"scale\": [2, 2, 0.5],\n"
        "        \"position\": [1, 0, 0], \"rotation\": [[0, -1, 0], [1, 0, 0], [0, 0, 1]], \"colour\": \"context\"}]");
    const auto prims = interpretAppearance(good, Vec3::Ones(), false, "appearance", &problems);
    QVERIFY(problems.empty());
    QCOMPARE(prims.size(), std::size_t(1));
    QCOMPARE(prims[0].kind, Primitive::Kind::Mesh);
    QCOMPARE(prims[0].file, std::string("a.stl"));
    QCOMPARE(prims[0].scale, Vec3(2, 2, 0.5));
    QCOMPARE(prims[0].points[0], Vec3(1, 0, 0));
    QVERIFY(!prims[0].fileColours);
    QCOMPARE(prims[0].colour, Vec3(0.1, 0.2, 0.3));
    const std::pair<const char*, const char*> bad[] = {
        {"[\"mesh\", \"a.stl\"]", "'mesh' needs {"},
        {"[\"mesh\", {\"scale\": 1}]", "appearance[0].file: 'mesh' needs a file name"},
        {"[\"mesh\", {\"file\": \"a.stl\", \"scale\": [1, 0, 1]}]", "appearance[0].scale: must not be zero along an axis"},
        {"[\"mesh\", {\"file\": \"a.stl\", \"rotation\": [[2, 0, 0], [0, 1, 0], [0, 0, 1]]}]", "appearance[0].rotation: is not a rotation matrix"},
        {"[\"mesh\", {\"file\": \"a.stl\", \"colour\": \"red\"}]", "appearance[0].colour: expected \"file\""},
        {"[\"mesh\", {\"file\": \"a.stl\", \"size\": 1}]", "appearance[0].size: is not a field of 'mesh'"}};
    for (const auto& [text, message] : bad) {
      Diagnostics p;
      interpretAppearance(json::parse(text), Vec3::Ones(), false, "appearance", &p);
      QVERIFY2(!p.empty() && QString::fromStdString(p.front().text()).contains(message),
               qPrintable(QString(text) + " -> " + (p.empty() ? QString("nothing") : QString::fromStdString(p.front().text()))));
    }
  }

  // package://NAME/PATH: beside the URDF and its parent folders, ROS_PACKAGE_PATH,
  // AMENT_PREFIX_PATH/share, the settings' folders; a missing or broken mesh is a note naming
  // the link and the file, and the rest of the robot loads
  void urdfMeshesAreFound() {
    QTemporaryDir tmp;
    const QByteArray stl = binaryStl(boxTriangles(0.1f, 0.1f, 0.1f));
    write(tmp.filePath("ws/src/my_robot/meshes/base.stl"), stl);
    write(tmp.filePath("ros/other_pkg/m.stl"), stl);
    write(tmp.filePath("ament/share/ament_pkg/m.stl"), stl);
    write(tmp.filePath("mine/settings_pkg/m.stl"), stl);
    write(tmp.filePath("ws/src/my_robot/meshes/broken.stl"), binaryStl(boxTriangles(1, 1, 1), 500));
    write(tmp.filePath("ws/src/my_robot/urdf/local.stl"), stl);
    auto link = [](const QString& name, const QString& file, const QString& extra = "") {
      return "<link name='" + name + "'><inertial><mass value='1'/><inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial>"
             "<visual><origin xyz='0 0 0.1' rpy='0 0 1.5707963267948966'/><geometry><mesh filename='" + file + "' scale='2 2 2'/></geometry>" + extra + "</visual></link>";
    };
    auto joint = [](int k, const QString& parent, const QString& child) {
      return QString("<joint name='j%1' type='continuous'><parent link='%2'/><child link='%3'/><axis xyz='0 0 1'/></joint>").arg(k).arg(parent, child);
    };
    const QString urdf = "<robot name='r'>" + link("base_link", "package://my_robot/meshes/base.stl") +
                         link("a", "package://other_pkg/m.stl") + joint(1, "base_link", "a") +
                         link("b", "package://ament_pkg/m.stl", "<material name='blue'><color rgba='0 0 1 1'/></material>") + joint(2, "a", "b") +
                         link("c", "package://settings_pkg/m.stl") + joint(3, "b", "c") +
                         link("d", "package://nowhere/m.stl") + joint(4, "c", "d") +
                         link("e", "package://my_robot/meshes/broken.stl") + joint(5, "d", "e") +
                         link("f", "local.stl") + joint(6, "e", "f") + "</robot>";
    const QString path = tmp.filePath("ws/src/my_robot/urdf/robot.urdf");
    write(path, urdf.toUtf8());
    qputenv("ROS_PACKAGE_PATH", (tmp.filePath("nothing") + ":" + tmp.filePath("ros")).toUtf8());
    qputenv("AMENT_PREFIX_PATH", tmp.filePath("ament").toUtf8());
    UrdfImport report;
    const ModelSpec spec = loadUrdf(path.toStdString(), &report, UrdfBase::Floating, {tmp.filePath("mine").toStdString()});
    qunsetenv("ROS_PACKAGE_PATH");
    qunsetenv("AMENT_PREFIX_PATH");
    QCOMPARE(spec.bodies.size(), std::size_t(7));
    auto meshOf = [&](int body) {
      const auto prims = interpretAppearance(spec.bodies[static_cast<std::size_t>(body)].appearance, Vec3::Ones(), false, "", nullptr);
      for (const Primitive& p : prims)
        if (p.kind == Primitive::Kind::Mesh) return p;
      return Primitive();
    };
    QCOMPARE(QString::fromStdString(meshOf(0).file), QFileInfo(tmp.filePath("ws/src/my_robot/meshes/base.stl")).absoluteFilePath());
    QCOMPARE(QString::fromStdString(meshOf(1).file), QFileInfo(tmp.filePath("ros/other_pkg/m.stl")).absoluteFilePath());
    QCOMPARE(QString::fromStdString(meshOf(2).file), QFileInfo(tmp.filePath("ament/share/ament_pkg/m.stl")).absoluteFilePath());
    QCOMPARE(QString::fromStdString(meshOf(3).file), QFileInfo(tmp.filePath("mine/settings_pkg/m.stl")).absoluteFilePath());
    QCOMPARE(QString::fromStdString(meshOf(6).file), QFileInfo(tmp.filePath("ws/src/my_robot/urdf/local.stl")).absoluteFilePath());
    QCOMPARE(meshOf(0).scale, Vec3(2, 2, 2));
    QVERIFY((meshOf(0).points[0] - Vec3(0, 0, 0.1)).norm() < 1e-15);
    QVERIFY(meshOf(0).fileColours);
    QVERIFY(!meshOf(2).fileColours);
    QVERIFY((meshOf(2).colour - Vec3(0, 0, 1)).norm() < 1e-6);
    QCOMPARE(meshOf(4).kind, Primitive::Kind::Box);  // none: left out
    std::string notes;
    for (const std::string& n : report.notes) notes += n + "\n";
    QVERIFY2(QString::fromStdString(notes).contains("link 'd': mesh 'package://nowhere/m.stl' is not drawn: not found (package 'nowhere' looked for"),
             notes.c_str());
    QVERIFY2(QString::fromStdString(notes).contains("link 'e': mesh 'package://my_robot/meshes/broken.stl' is not drawn: " +
                                                    QFileInfo(tmp.filePath("ws/src/my_robot/meshes/broken.stl")).absoluteFilePath() +
                                                    ": the mesh file does not read"),
             notes.c_str());
    // the URDF export writes the meshes back; the Articulate format names them relative to
    // its own folder, and reading it makes them absolute again
    const UrdfText out = specToUrdf(spec);
    QVERIFY2(QString::fromStdString(out.xml).contains("<mesh filename=\"" + QFileInfo(tmp.filePath("ros/other_pkg/m.stl")).absoluteFilePath() + "\""),
             out.xml.c_str());
    // spatial_v2 has no meshes: left out, and said
    std::vector<std::string> sv2Notes;
    const std::string sv2 = specToSpatialV2(spec, &sv2Notes).dump();
    QVERIFY(sv2.find("\"mesh\"") == std::string::npos);
    QCOMPARE(sv2Notes.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(sv2Notes[0]).startsWith("5 mesh drawing(s) are not stored"), sv2Notes[0].c_str());
    const QString saved = tmp.filePath("ws/model.json");
    saveModel(saved.toStdString(), spec);
    const json doc = readJsonFile(saved.toStdString());
    QCOMPARE(QString::fromStdString(meshFiles(doc["bodies"][0]["appearance"]).at(0)), QString("src/my_robot/meshes/base.stl"));
    QVERIFY(QFileInfo(QString::fromStdString(meshFiles(doc["bodies"][1]["appearance"]).at(0))).isAbsolute());  // outside its folder
    const LoadedModel back = loadModel(saved.toStdString());
    QCOMPARE(QString::fromStdString(meshFiles(back.spec.bodies[0].appearance).at(0)),
             QFileInfo(tmp.filePath("ws/src/my_robot/meshes/base.stl")).absoluteFilePath());
    // a document whose mesh went missing still loads, and says which body's mesh
    QVERIFY(QFile::remove(tmp.filePath("ws/src/my_robot/meshes/base.stl")));
    QVERIFY(QFile::copy(saved, tmp.filePath("ws/model2.json")));
    const LoadedModel gone = loadModel(tmp.filePath("ws/model2.json").toStdString());
    bool said = false;
    for (const std::string& n : gone.notes) said |= QString::fromStdString(n).contains("body 'base_link': a mesh is not drawn:") &&
                                                   QString::fromStdString(n).contains("no such mesh file");
    QVERIFY(said);
  }

  // package:///PATH (three slashes: no package name, as a public Talos description writes its
  // 95 meshes) resolves as ROS's resource retriever does: PATH's first part a package in the
  // search folders, else the absolute /PATH; one that is nowhere is a note that says where it
  // was looked for
  void urdfTripleSlashPackages() {
    QTemporaryDir tmp;
    const QByteArray stl = binaryStl(boxTriangles(0.1f, 0.1f, 0.1f));
    write(tmp.filePath("ws/src/talos_data/meshes/leg.stl"), stl);
    write(tmp.filePath("abs/arm.stl"), stl);
    const QString absolute = QFileInfo(tmp.filePath("abs/arm.stl")).absoluteFilePath();
    auto link = [](const QString& name, const QString& file) {
      return "<link name='" + name + "'><inertial><mass value='1'/><inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial>"
             "<visual><geometry><mesh filename='" + file + "'/></geometry></visual></link>";
    };
    auto joint = [](int k, const QString& parent, const QString& child) {
      return QString("<joint name='j%1' type='continuous'><parent link='%2'/><child link='%3'/><axis xyz='0 0 1'/></joint>").arg(k).arg(parent, child);
    };
    const QString urdf = "<robot name='r'>" + link("base_link", "package:///talos_data/meshes/leg.stl") +
                         link("a", "package://" + absolute) + joint(1, "base_link", "a") +
                         link("b", "package:///talos_data/meshes/none.stl") + joint(2, "a", "b") +
                         link("c", "package:///") + joint(3, "b", "c") + "</robot>";
    const QString path = tmp.filePath("ws/src/talos_data/robots/talos.urdf");
    write(path, urdf.toUtf8());
    UrdfImport report;
    const ModelSpec spec = loadUrdf(path.toStdString(), &report, UrdfBase::Floating);
    auto meshOf = [&](int body) {
      for (const Primitive& p : interpretAppearance(spec.bodies[static_cast<std::size_t>(body)].appearance, Vec3::Ones(), false, "", nullptr))
        if (p.kind == Primitive::Kind::Mesh) return QString::fromStdString(p.file);
      return QString();
    };
    QCOMPARE(meshOf(0), QFileInfo(tmp.filePath("ws/src/talos_data/meshes/leg.stl")).absoluteFilePath());
    QCOMPARE(meshOf(1), absolute);
    QCOMPARE(meshOf(2), QString());
    QCOMPARE(meshOf(3), QString());
    std::string notes;
    for (const std::string& n : report.notes) notes += n + "\n";
    QVERIFY2(QString::fromStdString(notes).contains("link 'b': mesh 'package:///talos_data/meshes/none.stl' is not drawn: not found "
                                                    "(looked for as 'talos_data/meshes/none.stl' in the package search folders"),
             notes.c_str());
    QVERIFY2(QString::fromStdString(notes).contains("link 'c': mesh 'package:///' is not drawn: expected package:///PATH"), notes.c_str());
  }
};

ARTICULATE_TEST_MAIN(TestMesh)
#include "test_mesh.moc"
