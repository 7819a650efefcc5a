// A helper process for test_recovery: the application's window, with the application's names
// (so the same recovery folder), opens MODEL, changes the mass of its second body to MASS
// through the Properties panel as a user would, prints "autosaved PATH" once the autosave has
// written the recovery file, and waits to be killed. The autosave interval comes from
// ARTICULATE_AUTOSAVE_SECONDS as in the application.
#include <cstdio>

#include <QApplication>
#include <QDoubleSpinBox>

#include "main_window.h"
#include "properties.h"
#include "recovery.h"

int main(int argc, char** argv) {
  QCoreApplication::setOrganizationName("Articulate");
  QCoreApplication::setApplicationName("articulate");
  QApplication app(argc, argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: autosave_child MODEL MASS\n");
    return 2;
  }
  art::gui::MainWindow window;
  window.show();
  if (!window.openFile(QString::fromLocal8Bit(argv[1]))) return 2;
  QObject::connect(window.autosaver(), &art::gui::Autosaver::saved, [](const QString& path) {
    std::printf("autosaved %s\n", qPrintable(path));
    std::fflush(stdout);
  });
  window.properties()->setBody(1);
  auto* mass = window.properties()->findChild<QDoubleSpinBox*>("massSpin");
  if (!mass) return 2;
  mass->setValue(QString::fromLocal8Bit(argv[2]).toDouble());
  if (!window.isWindowModified()) return 3;
  return QApplication::exec();
}
