// Settings <-> JSON <-> QSettings. The only file of the application that touches QSettings.
#include "settings.h"

#include <algorithm>

#include <QFileInfo>
#include <QJsonArray>
#include <QSettings>

namespace art::gui {

namespace {

QString absolute(const QString& path) { return QFileInfo(path).absoluteFilePath(); }

}  // namespace

void Settings::addRecentFile(const QString& path) {
  const QString file = absolute(path);
  recentFiles.removeAll(file);
  recentFiles.prepend(file);
  while (recentFiles.size() > kMaxRecentFiles) recentFiles.removeLast();
}

void Settings::removeRecentFile(const QString& path) { recentFiles.removeAll(absolute(path)); }

QString Settings::urdfBase(const QString& path) const {
  const QString file = absolute(path);
  for (const QString& base : {QString("fixed"), QString("floating")})
    if (urdfBases.contains(base + ":" + file)) return base;
  return "auto";
}

void Settings::setUrdfBase(const QString& path, const QString& base) {
  const QString file = absolute(path);
  urdfBases.removeAll("fixed:" + file);
  urdfBases.removeAll("floating:" + file);
  if (base == "fixed" || base == "floating") urdfBases.prepend(base + ":" + file);
  while (urdfBases.size() > kMaxUrdfBases) urdfBases.removeLast();
}

bool Settings::pruneRecentFiles() {
  const auto before = recentFiles.size();
  recentFiles.erase(std::remove_if(recentFiles.begin(), recentFiles.end(),
                                   [](const QString& f) { return !QFileInfo::exists(f); }),
                    recentFiles.end());
  return recentFiles.size() != before;
}

QJsonObject Settings::toJson() const {
  QJsonObject json;
  json["geometry"] = QString::fromLatin1(geometry.toBase64());
  json["state"] = QString::fromLatin1(state.toBase64());
  json["recentFiles"] = QJsonArray::fromStringList(recentFiles);
  json["bodyFrames"] = bodyFrames;
  json["jointAxes"] = jointAxes;
  json["centresOfMass"] = centresOfMass;
  json["sites"] = sites;
  json["collisionGeoms"] = collisionGeoms;
  json["statusOverlay"] = statusOverlay;
  json["trackball"] = trackball;
  json["contactForces"] = contactForces;
  json["constraintForces"] = constraintForces;
  json["systemCom"] = systemCom;
  json["bodyNames"] = bodyNames;
  json["trails"] = trails;
  json["trailSeconds"] = trailSeconds;
  json["urdfBases"] = QJsonArray::fromStringList(urdfBases);
  json["packageFolders"] = QJsonArray::fromStringList(packageFolders);
  return json;
}

Settings Settings::fromJson(const QJsonObject& json) {
  Settings s;
  const auto bytes = [&](const char* key, QByteArray& out) {
    if (json[key].isString()) out = QByteArray::fromBase64(json[key].toString().toLatin1());
  };
  const auto flag = [&](const char* key, bool& out) {
    if (json[key].isBool()) out = json[key].toBool();
  };
  bytes("geometry", s.geometry);
  bytes("state", s.state);
  for (const auto& v : json["recentFiles"].toArray())
    if (v.isString() && !v.toString().isEmpty() && s.recentFiles.size() < kMaxRecentFiles)
      s.recentFiles.append(v.toString());
  flag("bodyFrames", s.bodyFrames);
  flag("jointAxes", s.jointAxes);
  flag("centresOfMass", s.centresOfMass);
  flag("sites", s.sites);
  flag("collisionGeoms", s.collisionGeoms);
  flag("statusOverlay", s.statusOverlay);
  flag("trackball", s.trackball);
  flag("contactForces", s.contactForces);
  flag("constraintForces", s.constraintForces);
  flag("systemCom", s.systemCom);
  flag("bodyNames", s.bodyNames);
  flag("trails", s.trails);
  for (const auto& v : json["urdfBases"].toArray()) {
    const QString entry = v.toString();
    if ((entry.startsWith("fixed:/") || entry.startsWith("floating:/")) && s.urdfBases.size() < kMaxUrdfBases)
      s.urdfBases.append(entry);
  }
  for (const auto& v : json["packageFolders"].toArray())
    if (v.isString() && !v.toString().isEmpty()) s.packageFolders.append(v.toString());
  if (json["trailSeconds"].isDouble()) {
    const double seconds = json["trailSeconds"].toDouble();
    if (seconds >= 0.1 && seconds <= 60) s.trailSeconds = seconds;
  }
  return s;
}

Settings Settings::load() {
  const QSettings store;
  // each stored value is converted to the JSON type of the default (QSettings' INI format gives
  // booleans back as strings and a one-element list as a plain string)
  const QJsonObject defaults = Settings().toJson();
  QJsonObject json;
  for (auto it = defaults.begin(); it != defaults.end(); ++it) {
    if (!store.contains(it.key())) continue;
    const QVariant value = store.value(it.key());
    if (it->isBool())
      json[it.key()] = value.toBool();
    else if (it->isDouble())
      json[it.key()] = value.toDouble();
    else if (it->isArray())
      json[it.key()] = QJsonArray::fromStringList(value.toStringList());
    else
      json[it.key()] = value.toString();
  }
  return fromJson(json);
}

void Settings::save() const {
  QSettings store;
  const QJsonObject json = toJson();
  for (auto it = json.begin(); it != json.end(); ++it) {
    // a string list, so that QSettings writes it readably
    if (it->isArray())
      store.setValue(it.key(), it->toVariant().toStringList());
    else
      store.setValue(it.key(), it->toVariant());
  }
  store.sync();
}

}  // namespace art::gui
