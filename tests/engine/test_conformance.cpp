// Every output of the spatial_v2 reference data (tests/data/spatial_v2_cases.json) within the
// recommended 1e-9 normwise-relative tolerance, and the check itself detects errors.
#include <QtTest>

#include "test_main.h"

#include "articulate/formats/conformance.h"
#include "articulate/formats/files.h"

using namespace art;

class TestConformance : public QObject {
  Q_OBJECT
  nlohmann::json m_doc;

 private slots:
  void initTestCase() {
    m_doc = readJsonFile(ARTICULATE_TEST_DATA_DIR "/spatial_v2_cases.json");
    QCOMPARE(QString::fromStdString(m_doc["format"].get<std::string>()),
             QString("spatial_v2-reference-1"));
  }

  void everyQuantityMatches_data() {
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<int>("expectedArrays");
    // 33 cases; X0 is one array per body; gcPosVel only in rollingdisc4 (3 states)
    for (const char* q : {"ID_tau", "FDab_qdd", "FDcrb_qdd", "H", "C", "EnerMo.KE", "EnerMo.PE",
                          "EnerMo.htot", "EnerMo.Itot", "EnerMo.mass", "EnerMo.cm",
                          "EnerMo.vcm"})
      QTest::newRow(q) << QString(q) << 33;
    QTest::newRow("gcPosVel") << QString("gcPosVel") << 3;
    QTest::newRow("trajectory.energy") << QString("trajectory.energy") << 3;
  }
  void everyQuantityMatches() {
    QFETCH(QString, quantity);
    QFETCH(int, expectedArrays);
    const ConformanceReport r = runConformance(m_doc);
    QCOMPARE(r.cases, 33);
    QCOMPARE(r.trajectories, 3);
    const auto it = r.quantities.find(quantity.toStdString());
    QVERIFY2(it != r.quantities.end(), "quantity was not compared");
    QCOMPARE(it->second.compared, expectedArrays);
    QVERIFY2(it->second.worst <= 1e-9,
             qPrintable(QString("worst error %1 in %2")
                            .arg(it->second.worst)
                            .arg(QString::fromStdString(it->second.worstCase))));
  }

  void transformsOfEveryBody() {
    const ConformanceReport r = runConformance(m_doc);
    int bodies = 0;
    for (const auto& c : m_doc["cases"]) bodies += c["model"]["NB"].get<int>();
    QCOMPARE(r.quantities.at("X0").compared, bodies);
    QVERIFY(r.quantities.at("X0").worst <= 1e-9);
    QVERIFY(r.passed());
  }

  // a perturbed reference value must be caught, and named with its case
  void detectsAPerturbedValue_data() {
    QTest::addColumn<QString>("field");
    QTest::newRow("FDab_qdd") << "FDab_qdd";
    QTest::newRow("H") << "H";
    QTest::newRow("C") << "C";
  }
  void detectsAPerturbedValue() {
    QFETCH(QString, field);
    nlohmann::json doc = m_doc;
    nlohmann::json& out = doc["cases"][7]["outputs"][field.toStdString()];
    nlohmann::json& v = out[0].is_array() ? out[0][0] : out[0];
    v = v.get<double>() + 1e-3;
    const ConformanceReport r = runConformance(doc);
    QVERIFY(!r.passed());
    const ConformanceEntry& e = r.quantities.at(field.toStdString());
    QVERIFY(e.worst > 1e-9);
    QCOMPARE(QString::fromStdString(e.worstCase),
             QString::fromStdString(doc["cases"][7]["name"].get<std::string>()));
  }

  void rejectsMalformedDocuments() {
    nlohmann::json doc = m_doc;
    doc["cases"][2]["model"]["Xtree"][1] = nlohmann::json::array({1, 2, 3});
    try {
      runConformance(doc);
      QFAIL("expected a FormatError");
    } catch (const FormatError& e) {
      QCOMPARE(QString(e.what()).left(29), QString("cases[2].model.Xtree[1]: expe"));
    }
  }
};

ARTICULATE_TEST_MAIN(TestConformance)
#include "test_conformance.moc"
