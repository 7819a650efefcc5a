#pragma once
// The application's remembered settings: a plain struct with defaults and JSON conversion.
// settings.cpp is the only file that touches QSettings.

#include <QByteArray>
#include <QJsonObject>
#include <QStringList>

namespace art::gui {

struct Settings {
  static constexpr int kMaxRecentFiles = 10;
  static constexpr int kMaxUrdfBases = 200;

  QByteArray geometry;         // QMainWindow::saveGeometry(), empty = default size
  QByteArray state;            // QMainWindow::saveState() (docks, toolbars), empty = default
  QStringList recentFiles;     // absolute paths, most recent first, at most kMaxRecentFiles
  bool bodyFrames = false;     // View > Body frames
  bool jointAxes = false;      // View > Joint axes
  bool centresOfMass = false;  // View > Centres of mass
  bool sites = false;          // View > Sites
  bool collisionGeoms = false; // View > Collision Geometry
  bool statusOverlay = false;  // View > Status Overlay (F2)
  bool contactForces = false;     // View > Contact Forces (F3)
  bool constraintForces = false;  // View > Constraint Forces (F4)
  bool systemCom = false;         // View > System Centre of Mass (F5)
  bool bodyNames = false;         // View > Body Names (F6)
  bool trails = false;            // View > Trails (F7)
  double trailSeconds = 2.0;      // View > Trail Length (s, 0.1 to 60)
  bool trackball = false;         // View > Trackball Camera (else the turntable)
  // File > URDF Base, per robot file: "fixed:PATH" or "floating:PATH" (absolute), most recent
  // first, at most kMaxUrdfBases; a file not listed takes the automatic base
  QStringList urdfBases;
  QStringList packageFolders;     // File > URDF Package Folders: where package://NAME is also found

  /// Puts `path` (made absolute) first in recentFiles, removing an earlier entry for the same
  /// file and dropping the oldest beyond kMaxRecentFiles.
  void addRecentFile(const QString& path);
  /// The base chosen for the URDF file `path` ("auto", "fixed" or "floating").
  QString urdfBase(const QString& path) const;
  /// Remembers `base` for the URDF file `path` ("auto" forgets it).
  void setUrdfBase(const QString& path, const QString& base);
  /// Removes `path` from recentFiles, if present.
  void removeRecentFile(const QString& path);
  /// Removes the recent files that no longer exist. Returns whether any was removed.
  bool pruneRecentFiles();

  /// The settings as JSON (byte arrays in base64); the key names are the QSettings keys.
  QJsonObject toJson() const;
  /// Settings from JSON: missing or mistyped fields keep their defaults, the recent files are
  /// capped at kMaxRecentFiles.
  static Settings fromJson(const QJsonObject& json);

  /// Reads the settings of the application (organisation and application name of
  /// QCoreApplication) from QSettings; what is missing takes the defaults.
  static Settings load();
  /// Writes the settings to QSettings and flushes them to disk.
  void save() const;
};

}  // namespace art::gui
