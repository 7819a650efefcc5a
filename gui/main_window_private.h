#pragma once
// Helpers shared by the main window's source files (main_window*.cpp); not part of its interface.

#include <string>

#include <QFile>
#include <QString>

namespace art::gui {

/// `path` in the local 8-bit encoding, as the engine's file functions take it.
inline std::string localPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

}  // namespace art::gui
