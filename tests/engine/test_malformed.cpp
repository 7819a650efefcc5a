// Malformed model files: every file in tests/data/malformed/ is refused with the problem its row
// names. A row's expectation is the start of one reported problem's full text, "PATH: REASON"
// (Diagnostic::text(); for files that are not JSON at all, "FILE: reason" with the file's name
// without its directory), so it pins down the JSON path as well as the reason. The same files
// go through loadModel, which must throw a FormatError containing that problem. The directory
// holds exactly the files of the table. Files named fuzz_* are regressions found by
// tests/fuzz/fuzz_model_loader.
//
// tests/data/fuzz_regressions/ holds files that load, on which the fuzz harness found a broken
// round trip: each must either be refused or load, compile, save to an Articulate document that
// reads back with no problem and saves to the identical text, and convert to a spatial_v2
// document that reads back with no problem (what tests/fuzz/fuzz_model_loader.cpp checks).
//
// Files named structure_* are structure documents ("kind": "structure"): they go through the
// structure reader (natural::structureFromJson and natural::loadStructure) instead.
//
// Rows with a `knownBug` document loader bugs not fixed yet: the row is expected to fail
// (QEXPECT_FAIL), and once the loader is fixed the unexpected pass fails the test, so that the
// note is removed with the fix.
#include <QtTest>

#include "test_main.h"
#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/files.h"
#include "articulate/formats/structure.h"

namespace {

const char* const kDir = ARTICULATE_TEST_DATA_DIR "/malformed";
const char* const kRegressionDir = ARTICULATE_TEST_DATA_DIR "/fuzz_regressions";

struct Row {
  const char* file;
  const char* expected;  // start of one problem's full text
  const char* knownBug;  // nullptr, or why the loader does not report it yet
};

const Row kRows[] = {
    // not a model document at all
    {"not_json.json", "not_json.json: is not valid JSON (line 1, column 1)", nullptr},
    {"truncated.json", "truncated.json: is not valid JSON (line 6, column 1): it ends too early",
     nullptr},
    {"empty.json", "empty.json: is empty", nullptr},
    {"top_level_array.json", "(document): expected an object, got array", nullptr},
    {"deep_nesting.json", "deep_nesting.json: is nested deeper than 256 levels", nullptr},
    {"huge_number.json", "huge_number.json: is not valid JSON: number overflow parsing '1e999'", nullptr},
    // top level
    {"wrong_format.json", "format: expected \"articulate-model\", got \"articulate-modle\"",
     nullptr},
    {"unsupported_version.json", "version: this Articulate reads format version 1, got 2",
     nullptr},
    {"fractional_version.json", "version: this Articulate reads format version 1, got 1.5",
     nullptr},
    {"unknown_top_level_field.json", "gravty: unknown field (expected one of: format, version,",
     nullptr},
    {"missing_bodies.json", "(document): missing field 'bodies'", nullptr},
    {"gravity_wrong_size.json", "gravity: expected 3 numbers", nullptr},
    {"simulation_energy_projection_not_boolean.json",
     "simulation.energy_projection: expected true or false, got string", nullptr},
    {"kind_structure.json",
     "kind: 'structure' models are not supported by this version of Articulate", nullptr},
    // keyframes: every field, the model's sizes, unique names
    {"keyframe_wrong_size.json",
     "keyframes[0].q: has 1 entries, the model has 2 positions (keyframe 'push')", nullptr},
    {"keyframe_duplicate_name.json", "keyframes[1].name: 'a' is also the name of keyframes[0]",
     nullptr},
    {"keyframe_missing_qd.json", "keyframes[0]: missing field 'qd'", nullptr},
    // issue 31: names with control characters, which no format's export can write (a NUL made
    // URDF export fail with "map::at"; \x01 was written as &#x01;, which no reader takes)
    {"name_nul.json", "bodies[1].name: has a control character (U+0000..U+001F or U+007F), which no model "
                      "format can write as a name (body 'low\\x00er')", nullptr},
    {"name_control_character.json", "bodies[0].name: has a control character", nullptr},
    {"keyframe_name_control_character.json", "keyframes[0].name: 'rest\\x7F' has a control character", nullptr},
    {"model_name_control_character.json", "name: 'arm\\x1B[31m' has a control character", nullptr},
    {"helical_without_pitch.json",
     "bodies[0].joint: a helical (H) joint needs its pitch: {\"type\": \"H\", \"pitch\": p} "
     "(metres per radian)",
     nullptr},
    // controllers, external forces
    {"control_unknown_type.json",
     "bodies[0].control.type: expected \"constant\", \"pd\" or \"table\", got \"pid\"", nullptr},
    {"control_missing_type.json", "bodies[0].control: missing field 'type'", nullptr},
    {"control_negative_gain.json", "bodies[0].control.kp: must be >= 0", nullptr},
    {"control_unused_field.json", "bodies[0].control.kp: is not used by a 'constant' controller",
     nullptr},
    {"control_table_decreasing.json", "bodies[0].control.t[2]: times must increase", nullptr},
    {"control_table_length_mismatch.json",
     "bodies[0].control.torque: expected 3 numbers (one per time in 't')", nullptr},
    {"control_constant_without_torque.json",
     "bodies[0].control: a constant controller needs 'torque'", nullptr},
    {"force_unknown_body.json", "forces[0].body: 'lnk' is not defined", nullptr},
    {"force_wrong_size.json", "forces[0].force: expected 3 numbers", nullptr},
    // recordings
    {"recording_q_wrong_shape.json", "q[1]: expected 1 numbers", nullptr},
    {"recording_time_decreasing.json", "t[2]: sample times must not decrease", nullptr},
    {"recording_bad_model.json", "model.bodies[0].joint: unknown joint type 'Rq'", nullptr},
    {"recording_missing_model.json",
     "(document): missing field 'model' (an articulate-model document)", nullptr},
    // bodies, names and parents
    {"body_not_object.json", "bodies[0]: expected an object, got string", nullptr},
    {"unknown_body_field.json", "bodies[0].mass: unknown field (expected one of: name, parent,",
     nullptr},
    {"missing_name.json", "bodies[1]: missing field 'name'", nullptr},
    {"empty_name.json", "bodies[0].name: must not be empty", nullptr},
    {"duplicate_names.json", "bodies[2].name: 'link' is already the name of bodies[0]", nullptr},
    {"name_base.json", "bodies[0].name: 'base' names the fixed base", nullptr},
    {"unknown_parent.json", "bodies[2].parent: 'link9' is not defined", nullptr},
    {"self_parent.json", "bodies[1].parent: a body cannot be its own parent", nullptr},
    {"cycle_of_two.json", "bodies[0].parent: the parents form a cycle: 'a' -> 'b' -> 'a'", nullptr},
    {"cycle_of_three.json", "bodies[1].parent: the parents form a cycle: 'a' -> 'c' -> 'b' -> 'a'",
     nullptr},
    // joints
    {"missing_joint.json", "bodies[0]: missing field 'joint'", nullptr},
    {"unknown_joint_type.json",
     "bodies[0].joint: unknown joint type 'Rw' (Rx Ry Rz R Px Py Pz P H free ball r px py)", nullptr},
    {"planar_joint_in_spatial_model.json",
     "bodies[0].joint: 'r' is a planar joint in a spatial model", nullptr},
    {"spatial_joint_in_planar_model.json",
     "bodies[0].joint: 'Rz' is a spatial joint in a planar model", nullptr},
    {"pitch_on_revolute_joint.json", "bodies[0].joint.pitch: only helical (H) joints have a pitch",
     nullptr},
    // placements
    {"placement_not_rotation.json",
     "bodies[0].placement.rotation: is not a proper rotation matrix (orthonormal, determinant +1)",
     nullptr},
    {"placement_reflection.json",
     "bodies[0].placement.rotation: is not a proper rotation matrix (orthonormal, determinant +1)",
     nullptr},
    {"rpy_two_numbers.json", "bodies[0].placement.rotation.rpy: expected 3 numbers", nullptr},
    {"axis_angle_missing_angle.json",
     "bodies[0].placement.rotation: axis-angle rotation needs 'angle' (rad)", nullptr},
    {"axis_angle_zero_axis.json", "bodies[0].placement.rotation.axis: must be nonzero", nullptr},
    {"planar_rotation_tilted.json",
     "bodies[0].placement.rotation: planar models rotate joints about z only", nullptr},
    // inertias
    {"missing_inertia.json", "bodies[0]: missing field 'inertia'", nullptr},
    {"inertia_matrix_and_mass.json",
     "bodies[0].inertia: give either 'matrix' or 'mass', 'com' and 'about_com', not both", nullptr},
    {"mass_string.json", "bodies[0].inertia.mass: expected a number, got string", nullptr},
    {"negative_mass.json", "bodies[3].inertia.mass: must be >= 0, got -1", nullptr},
    {"about_com_not_symmetric.json",
     "bodies[0].inertia.about_com: matrix is not symmetric (body 'link')", nullptr},
    {"about_com_not_symmetric_reordered.json",
     "bodies[0].inertia.about_com: matrix is not symmetric (body 'child')", nullptr},
    {"about_com_not_psd.json",
     "bodies[0].inertia.about_com: matrix is not positive semi-definite (smallest eigenvalue "
     "-0.01)",
     nullptr},
    {"triangle_inequality.json",
     "bodies[0].inertia.about_com: principal moments violate the triangle inequality", nullptr},
    {"raw_matrix_wrong_size.json", "bodies[0].inertia.matrix: expected a 6x6 matrix (6 rows)",
     nullptr},
    {"raw_matrix_not_psd.json",
     "bodies[0].inertia.matrix: matrix is not positive semi-definite (smallest eigenvalue -1)",
     nullptr},
    {"planar_matrix_not_rigid_body.json",
     "bodies[0].inertia.matrix: is not a planar rigid-body inertia", nullptr},
    // drawing instructions
    {"appearance_unknown_instruction.json",
     "bodies[0].appearance[0]: 'cube' is not a drawing instruction", nullptr},
    {"appearance_cyl_arguments.json", "bodies[1].appearance[2]: 'cyl' needs 2 arguments", nullptr},
    {"appearance_box_zero_extent.json",
     "bodies[0].appearance[0]: 'box' has zero extent along an axis", nullptr},
    {"appearance_sphere_negative_radius.json",
     "bodies[0].appearance[0]: 'sphere' radius must be a number > 0", nullptr},
    {"appearance_colour_out_of_range.json",
     "bodies[0].appearance[0]: 'colour' components must be in [0, 1]", nullptr},
    {"appearance_facets_2.json",
     "bodies[0].appearance[0]: 'facets' must be an integer from 3 to 1024", nullptr},
    {"appearance_facets_1e9.json",
     "bodies[0].appearance[0]: 'facets' must be an integer from 3 to 1024", nullptr},
    {"appearance_vertex_index_out_of_range.json",
     "bodies[0].appearance[2]: vertex index 4 is outside 1..3 (the current vertex list)", nullptr},
    // the index is converted to long long for the message: undefined for 1e300 (UBSan)
    {"appearance_vertex_index_huge.json", "bodies[0].appearance[2]: vertex index ", nullptr},
    {"appearance_degenerate_triangle.json",
     "bodies[0].appearance[2]: 'triangles' has a degenerate triangle", nullptr},
    {"appearance_nested_too_deep.json", "bodies[0].appearance[0][0][0]", nullptr},
    {"tiles_in_body.json",
     "bodies[0].appearance[0]: 'tiles' is only allowed in the base's appearance", nullptr},
    {"tiles_no_flat_range.json",
     "base_appearance[0]: 'tiles' needs exactly one range with x1 <= x0", nullptr},
    {"tiles_too_many.json", "base_appearance[0]: 'tiles' would draw more than 1000000 tiles",
     nullptr},
    // camera, contacts, constraints
    {"camera_zero_direction.json", "camera.direction: must be nonzero", nullptr},
    {"camera_zoom_zero.json", "camera.zoom: must be > 0, got 0", nullptr},
    {"camera_locus_out_of_range.json", "camera.locus: must lie in [-1, 1]^2", nullptr},
    {"camera_up_parallel.json", "camera.up: must not be parallel to direction", nullptr},
    {"camera_up_parallel_default_direction.json", "camera.up: must not be parallel to direction", nullptr},
    {"camera_unknown_body.json", "camera.body: 'wheel' is not defined", nullptr},
    {"contact_unknown_body.json", "contacts[0].body: 'foot' is not defined", nullptr},
    {"contact_on_base.json", "contacts[0].body: must name a body, not 'base'", nullptr},
    {"coupling_joint_is_master.json", "constraints[0].master: must differ from 'joint'", nullptr},
    {"loop_one_axis.json", "constraints[0]: axis alignment needs an 'axis' on both 'a' and 'b'",
     nullptr},
    {"constraint_unknown_type.json",
     "constraints[0].type: expected \"coupling\" or \"loop\", got \"gear\"", nullptr},
    // spatial_v2 model structs (and a motion beside them)
    // structures: their bodies' and floor's drawing instructions, read as for trees
    {"structure_appearance_cyl_arguments.json", "bodies[0].appearance[2]: 'cyl' needs 2 arguments",
     nullptr},
    {"structure_appearance_tiles_on_body.json",
     "bodies[0].appearance[0]: 'tiles' is only allowed in the base's appearance", nullptr},
    {"structure_base_appearance_not_list.json",
     "base_appearance: expected a list of drawing instructions, got object", nullptr},
    {"structure_base_appearance_sphere_radius.json",
     "base_appearance[3]: 'sphere' radius must be a number > 0", nullptr},
    {"sv2_not_json.json", "sv2_not_json.json: is not valid JSON (line 1, column 43)", nullptr},
    {"sv2_truncated.json",
     "sv2_truncated.json: is not valid JSON (line 2, column 1): it ends too early", nullptr},
    {"sv2_huge_number.json",
     "sv2_huge_number.json: is not valid JSON: number overflow parsing '1e999'", nullptr},
    {"sv2_missing_xtree.json", "(document): missing field 'Xtree'", nullptr},
    {"sv2_nb_mismatch.json", "parent: expected 3 entries (NB)", nullptr},
    {"sv2_nb_negative.json", "NB: expected an integer from 0 to 100000", nullptr},
    {"sv2_parent_not_before_child.json",
     "parent[1]: must be from 0 to 1 (parents precede children), got 2", nullptr},
    // 1e300 is converted to int before the range check: undefined (UBSan)
    {"sv2_parent_huge.json",
     "parent[0]: must be from 0 to 0 (parents precede children), got 1.0000000000000001e+300",
     nullptr},
    // found by fuzz_model_loader (UBSan: 2.1e+20 is outside the range of int)
    {"fuzz_sv2_parent_float_overflow.json",
     "parent[2]: must be from 0 to 2 (parents precede children), got 2.1e+20", nullptr},
    {"sv2_parent_wraps_around.json",
     "parent[0]: must be from 0 to 0 (parents precede children), got 4294967296", nullptr},
    {"sv2_xtree_not_plucker.json",
     "Xtree[0]: is not a Plücker coordinate transform [E 0; -E*skew(r) E]", nullptr},
    {"sv2_xtree_not_rotation.json", "Xtree[0]: is not a proper rotation matrix (body 1)", nullptr},
    {"sv2_jtype_unknown.json",
     "jtype[0]: unknown joint code 'Rq' (known: Rx Ry Rz R Px Py Pz P H r px py)", nullptr},
    {"sv2_jtype_planar_in_spatial.json",
     "jtype[0]: joint 'r' does not match the 6x6 Xtree matrices", nullptr},
    {"sv2_inertia_string.json", "I[0][3][3]: expected a number, got string", nullptr},
    {"sv2_inertia_not_psd.json",
     "I[0]: matrix is not positive semi-definite (smallest eigenvalue -1) (body 1)", nullptr},
    {"sv2_gc_body_out_of_range.json", "gc.body[1]: expected a body number from 1 to 1", nullptr},
    {"sv2_gc_body_wraps_around.json", "gc.body[0]: expected a body number from 1 to 1", nullptr},
    {"sv2_appearance_cyl_arguments.json", "appearance.body[0][2]: 'cyl' needs 2 arguments",
     nullptr},
    {"sv2_camera_zero_direction.json", "camera.direction: must be nonzero", nullptr},
    {"sv2_camera_locus_out_of_range.json", "camera.locus: must lie in [-1, 1]^2", nullptr},
    {"sv2_motion_t_decreasing.json", "t[2]: sample times must not decrease", nullptr},
    // spatial_v2's jcalc fails on 'H' without pars.pitch, showmotion on a short appearance.body
    {"sv2_helical_without_pitch.json",
     "jtype[1]: a helical joint 'H' needs its pitch (pars.pitch, metres per radian), as "
     "spatial_v2's jcalc does",
     nullptr},
    {"sv2_appearance_body_short.json",
     "appearance.body: expected 3 entries (one per body, NB), got 2: body 3 has no appearance",
     nullptr},
    {"sv2_motion_q_wrong_size.json", "q: expected NB x nt (2x3) or nt x NB (3x2), got 2x2", nullptr},
};

struct Regression {
  const char* file;
  const char* knownBug;  // nullptr, or why the round trip breaks
};

const Regression kRegressions[] = {
    {"fuzz_planar_massless_rotational.json", nullptr},
    {"fuzz_planar_empty.json", nullptr},
    {"sv2_near_rotation.json", nullptr},
    // loads and round-trips; its singular joint-space inertia stopped the simulation with an
    // exception (test_simulation: aSingularInertiaMatrixIsADivergence)
    {"fuzz_massless_geared_elbow.json", nullptr},
};

// what a problem list looks like in a message
std::string joined(const art::Diagnostics& problems) {
  std::string text;
  for (const auto& p : problems) text += "\n  " + p.text();
  return text;
}

// Empty when the file is refused, or loads and round-trips; else what broke.
std::string roundTripFailure(const std::string& path) {
  try {
    art::Diagnostics problems;
    const auto loaded = art::readModelDocument(art::readJsonFile(path), problems);
    if (!loaded) return problems.empty() ? "refused without a problem" : "";
    art::compile(loaded->spec);
    const std::string saved = art::formatJson(art::specToJson(loaded->spec));
    const auto back = art::readModelDocument(art::parseJsonText(saved, "saved"), problems);
    if (!back) return "the saved Articulate document is refused:" + joined(problems);
    if (art::formatJson(art::specToJson(back->spec)) != saved)
      return "saving the re-read Articulate document changes it";
    const std::string sv2 = art::formatJson(art::specToSpatialV2(loaded->spec));
    if (!art::readModelDocument(art::parseJsonText(sv2, "converted"), problems))
      return "the converted spatial_v2 document is refused:" + joined(problems);
    return "";
  } catch (const art::FormatError&) {
    return "";  // refused
  } catch (const std::exception& e) {
    return std::string("exception: ") + e.what();
  }
}

// the names of the files in `dir` that are not in `rows`, and of the rows without a file
QString tableMismatch(const char* dir, const QStringList& rows) {
  const QStringList files = QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System);
  QStringList duplicates, orphans, missing;
  for (const QString& r : rows)
    if (rows.count(r) > 1 && !duplicates.contains(r)) duplicates << r;
  for (const QString& f : files)
    if (!rows.contains(f)) orphans << f;
  for (const QString& r : rows)
    if (!files.contains(r)) missing << r;
  QString text;
  if (!duplicates.isEmpty()) text += " rows listed twice: " + duplicates.join(", ") + ";";
  if (!orphans.isEmpty()) text += " files without a row: " + orphans.join(", ") + ";";
  if (!missing.isEmpty()) text += " rows without a file: " + missing.join(", ") + ";";
  return text;
}

// the message without the directory of the data files
std::string local(std::string text) {
  const std::string prefix = std::string(kDir) + "/";
  if (text.compare(0, prefix.size(), prefix) == 0) text.erase(0, prefix.size());
  return text;
}

}  // namespace

class TestMalformed : public QObject {
  Q_OBJECT
 private slots:
  void refusedWithItsProblem_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("knownBug");
    for (const Row& r : kRows)
      QTest::newRow(r.file) << QString(r.file) << QString::fromUtf8(r.expected)
                            << QString(r.knownBug ? r.knownBug : "");
  }
  void refusedWithItsProblem() {
    QFETCH(QString, file);
    QFETCH(QString, expected);
    QFETCH(QString, knownBug);
    const std::string path = std::string(kDir) + "/" + file.toStdString();
    const std::string want = expected.toStdString();
    const bool structure = file.startsWith("structure_");

    // the problems as readJsonFile and readModelDocument report them
    std::vector<std::string> problems;
    bool accepted = false;
    try {
      const nlohmann::json doc = art::readJsonFile(path);
      art::Diagnostics d;
      if (structure) {
        art::natural::structureFromJson(doc, d);
        accepted = d.empty();
      } else {
        accepted = art::readModelDocument(doc, d).has_value();
      }
      for (const auto& p : d) problems.push_back(p.text());
    } catch (const art::FormatError& e) {
      problems.push_back(local(e.what()));
    } catch (const std::exception& e) {
      problems.push_back(std::string("(not a FormatError) ") + e.what());
    }
    const bool reported =
        !accepted && std::any_of(problems.begin(), problems.end(), [&](const std::string& p) {
          return p.compare(0, want.size(), want) == 0;
        });

    // loadModel throws a FormatError that lists it
    std::string thrown = "(nothing thrown)";
    bool listed = false;
    try {
      if (structure) art::natural::loadStructure(path);
      else art::loadModel(path);
    } catch (const art::FormatError& e) {
      thrown = local(e.what());
      listed = thrown.find(want) != std::string::npos;
    } catch (const std::exception& e) {
      thrown = std::string("(not a FormatError) ") + e.what();
    }

    QString details = "expected a problem starting with: " + expected + "\n" +
                      (accepted ? "accepted; " : "") + "problems:\n";
    for (const auto& p : problems) details += "  " + QString::fromStdString(p) + "\n";
    details += "loadModel threw: " + QString::fromStdString(thrown);
    if (!knownBug.isEmpty()) QEXPECT_FAIL("", qPrintable("known loader bug: " + knownBug), Abort);
    QVERIFY2(reported && listed, qPrintable(details));
  }

  void roundTripRegressions_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("knownBug");
    for (const Regression& r : kRegressions)
      QTest::newRow(r.file) << QString(r.file) << QString(r.knownBug ? r.knownBug : "");
  }
  void roundTripRegressions() {
    QFETCH(QString, file);
    QFETCH(QString, knownBug);
    const std::string failure =
        roundTripFailure(std::string(kRegressionDir) + "/" + file.toStdString());
    if (!knownBug.isEmpty()) QEXPECT_FAIL("", qPrintable("known loader bug: " + knownBug), Abort);
    QVERIFY2(failure.empty(), failure.c_str());
  }

  // issue 31: 200,000 keyframes (the duplicate-name check was quadratic: minutes) are refused at
  // once by the limit, naming it; at the limit a duplicate name is found in well under a second
  void keyframesAreBounded() {
    const auto document = [](int count, bool duplicate) {
      nlohmann::json doc = {{"format", "articulate-model"}, {"version", 1},
                            {"bodies", {{{"name", "a"}, {"parent", "base"}, {"joint", "Rz"}, {"inertia", {{"mass", 1}}}}}}};
      nlohmann::json& ks = doc["keyframes"] = nlohmann::json::array();
      for (int k = 0; k < count; ++k)
        ks.push_back({{"name", duplicate && k == count - 1 ? std::string("k0") : "k" + std::to_string(k)},
                      {"time", k}, {"q", {0}}, {"qd", {0}}});
      return doc;
    };
    const auto problems = [](const nlohmann::json& doc) {
      art::Diagnostics d;
      art::readModelDocument(doc, d);
      std::string out;
      for (const auto& p : d) out += p.text() + "\n";
      return out;
    };
    QElapsedTimer clock;
    clock.start();
    std::string got = problems(document(200000, false));
    QVERIFY2(got.find("keyframes: 200000 keyframes, more than the 10000 a model may have") != std::string::npos, got.c_str());
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QString("%1 ms").arg(clock.elapsed())));
    clock.restart();
    got = problems(document(art::kMaxKeyframes, true));
    QVERIFY2(got.find("keyframes[9999].name: 'k0' is also the name of keyframes[0]") != std::string::npos, got.c_str());
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString("%1 ms").arg(clock.elapsed())));
    QVERIFY(problems(document(art::kMaxKeyframes, false)).empty());
  }

  // the unknown-joint-type message lists exactly the codes the reader accepts: every joint
  // type's code (ball included) and the aliases R and P, each once
  void unknownJointTypeListsEveryCode() {
    const nlohmann::json doc = {{"format", "articulate-model"}, {"version", 1},
                                {"bodies", {{{"name", "a"}, {"parent", "base"}, {"joint", "Rw"}, {"inertia", {{"mass", 1}}}}}}};
    art::Diagnostics d;
    QVERIFY(!art::readModelDocument(doc, d).has_value());
    QCOMPARE(d.size(), std::size_t(1));
    const QString text = QString::fromStdString(d.front().text());
    const QString prefix = "bodies[0].joint: unknown joint type 'Rw' (";
    QVERIFY2(text.startsWith(prefix) && text.endsWith(")"), qPrintable(text));
    const QStringList listed = text.mid(prefix.size(), text.size() - prefix.size() - 1).split(' ');
    QStringList accepted = {"R", "P"};  // the aliases of Rz and Pz
    for (int t = 0; t <= static_cast<int>(art::JointType::Ball); ++t) {  // Ball: the enum's last
      const std::string_view code = art::jointCode(static_cast<art::JointType>(t));
      accepted << QString::fromUtf8(code.data(), static_cast<qsizetype>(code.size()));
    }
    QVERIFY(accepted.contains("ball"));
    for (const QString& code : accepted) {
      art::JointType type;
      QVERIFY2(art::parseJointCode(code.toStdString(), type), qPrintable(code));
      QVERIFY2(listed.count(code) == 1, qPrintable("'" + code + "' is not listed once in: " + text));
    }
    for (const QString& code : listed) {
      art::JointType type;
      QVERIFY2(art::parseJointCode(code.toStdString(), type), qPrintable("'" + code + "' is listed but not accepted"));
    }
    QCOMPARE(listed.size(), accepted.size());
  }

  // every file of the directories is a row and every row has its file
  void directoriesHoldExactlyTheTables() {
    QStringList rows, regressions;
    for (const Row& r : kRows) rows << r.file;
    for (const Regression& r : kRegressions) regressions << r.file;
    QVERIFY(QDir(kDir).exists());
    QVERIFY(QDir(kRegressionDir).exists());
    const QString malformed = tableMismatch(kDir, rows);
    QVERIFY2(malformed.isEmpty(), qPrintable("malformed/:" + malformed));
    const QString fuzz = tableMismatch(kRegressionDir, regressions);
    QVERIFY2(fuzz.isEmpty(), qPrintable("fuzz_regressions/:" + fuzz));
    QVERIFY(rows.size() >= 45);
  }
};

ARTICULATE_TEST_MAIN(TestMalformed)
#include "test_malformed.moc"
