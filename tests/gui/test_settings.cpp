// Settings: the recent-files list, JSON round trip and defaults, QSettings round trip.
#include <QtTest>

#include "test_main.h"

#include "settings.h"

using art::gui::Settings;

class TestSettings : public QObject {
  Q_OBJECT

  static Settings sample() {
    Settings s;
    s.geometry = QByteArray("\x01\x02\xff geometry", 12);
    s.state = QByteArray("state\0bytes", 11);
    s.recentFiles = {"/models/a.json"};
    s.jointAxes = true;
    return s;
  }
  static void compare(const Settings& a, const Settings& b) {
    QCOMPARE(a.geometry, b.geometry);
    QCOMPARE(a.state, b.state);
    QCOMPARE(a.recentFiles, b.recentFiles);
    QCOMPARE(a.bodyFrames, b.bodyFrames);
    QCOMPARE(a.jointAxes, b.jointAxes);
    QCOMPARE(a.centresOfMass, b.centresOfMass);
  }

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("articulate-test");
    QCoreApplication::setApplicationName("test_settings");
  }
  void init() { QSettings().clear(); }
  void cleanupTestCase() { QSettings().clear(); }

  void recentFilesMostRecentFirstAndCapped() {
    Settings s;
    for (int i = 0; i < 12; ++i) s.addRecentFile(QString("/m/%1.json").arg(i));
    QCOMPARE(s.recentFiles.size(), Settings::kMaxRecentFiles);
    QCOMPARE(s.recentFiles.first(), QString("/m/11.json"));
    QCOMPARE(s.recentFiles.last(), QString("/m/2.json"));
    s.addRecentFile("/m/5.json");
    QCOMPARE(s.recentFiles.first(), QString("/m/5.json"));
    QCOMPARE(s.recentFiles.count("/m/5.json"), 1);
    QCOMPARE(s.recentFiles.size(), Settings::kMaxRecentFiles);
    s.removeRecentFile("/m/5.json");
    QVERIFY(!s.recentFiles.contains("/m/5.json"));
    s.addRecentFile("relative.json");
    QCOMPARE(s.recentFiles.first(), QDir::current().absoluteFilePath("relative.json"));
  }

  void pruneDropsMissingFiles() {
    QTemporaryDir dir;
    const QString kept = dir.filePath("kept.json");
    QFile f(kept);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    Settings s;
    s.recentFiles = {dir.filePath("gone.json"), kept};
    QVERIFY(s.pruneRecentFiles());
    QCOMPARE(s.recentFiles, QStringList{kept});
    QVERIFY(!s.pruneRecentFiles());
  }

  void jsonRoundTrip() { compare(Settings::fromJson(sample().toJson()), sample()); }

  void jsonDefaultsForMissingOrMistypedFields() {
    QJsonObject json;
    json["jointAxes"] = "yes";
    json["recentFiles"] = QJsonArray{1, "/a.json", "", "/b.json"};
    const Settings s = Settings::fromJson(json);
    QVERIFY(s.geometry.isEmpty());
    QVERIFY(!s.jointAxes);
    QCOMPARE(s.recentFiles, QStringList({"/a.json", "/b.json"}));
    QJsonArray many;
    for (int i = 0; i < 15; ++i) many.append(QString("/m/%1.json").arg(i));
    json["recentFiles"] = many;
    QCOMPARE(Settings::fromJson(json).recentFiles.size(), Settings::kMaxRecentFiles);
  }

  void qsettingsRoundTrip() {
    compare(Settings::load(), Settings());
    sample().save();
    compare(Settings::load(), sample());
    Settings two = sample();
    two.recentFiles = {"/x.json", "/y.json"};
    two.bodyFrames = true;
    two.save();
    compare(Settings::load(), two);
  }
};

ARTICULATE_TEST_MAIN(TestSettings)
#include "test_settings.moc"
