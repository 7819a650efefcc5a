// The application `articulate`: `articulate [MODEL]` opens the main window on a model (a bundled
// example without one), after offering any unsaved changes a crash left (MainWindow::offerRecovery);
// `--screenshot OUT.png` renders one frame and exits without a window.
#include <cmath>
#include <cstdio>
#include <optional>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QRegularExpression>
#include <QSize>
#include <QPixmap>
#include <QScreen>
#include <QTimer>

#include "articulate/formats/document.h"
#include "main_window.h"
#include "playback.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/model/model.h"
#include "viewport/viewport.h"

namespace {

constexpr int kErrorExit = 2;
constexpr int kMaxImageSide = 16384;  // pixels
const char* const kDefaultModel = "arm6.json";

/// Prints "articulate: <message>" to stderr and returns the error exit status.
int fail(const QString& message) {
  std::fprintf(stderr, "articulate: %s\n", message.toLocal8Bit().constData());
  return kErrorExit;
}

/// Parses "WIDTHxHEIGHT" (pixels, each 1..kMaxImageSide).
std::optional<QSize> parseSize(const QString& text) {
  static const QRegularExpression format("^(\\d{1,5})x(\\d{1,5})$");
  const QRegularExpressionMatch match = format.match(text);
  if (!match.hasMatch()) return std::nullopt;
  const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
  if (size.width() < 1 || size.height() < 1 || size.width() > kMaxImageSide ||
      size.height() > kMaxImageSide)
    return std::nullopt;
  return size;
}

/// The bundled example model: in the source tree's models/ (ARTICULATE_MODELS_DIR) or in the
/// installed package's share/articulate/models beside the executable; empty when neither has it.
QString bundledModel() {
  const QStringList dirs = {
#ifdef ARTICULATE_MODELS_DIR
      QStringLiteral(ARTICULATE_MODELS_DIR),
#endif
      QDir(QCoreApplication::applicationDirPath()).filePath("../share/articulate/models")};
  for (const QString& dir : dirs) {
    const QString path = QDir::cleanPath(QDir(dir).filePath(kDefaultModel));
    if (QFileInfo(path).isFile()) return path;
  }
  return {};
}

/// The command line, checked.
struct Options {
  QString model;       // the model file, empty for the bundled example
  QString screenshot;  // --screenshot: the PNG to write, or empty
  QSize size;          // --size (pixels)
  double time = 0.0;   // --time (s)
  bool timeSet = false;
  QString grab;        // --grab-window: the PNG of the whole window to write, or empty
  double playFor = 0;  // --play-for (s of wall time before the grab)
};

/// The options of the command line.
struct Parser {
  QCommandLineParser parser;
  const QCommandLineOption screenshot{
      "screenshot", "Render one frame of the model to OUT.png and exit without a window.",
      "OUT.png"};
  const QCommandLineOption size{"size", "Image size for --screenshot (default 1280x720); with "
                                "--grab-window, the window's size.",
                                "WIDTHxHEIGHT", "1280x720"};
  const QCommandLineOption time{
      "time",
      "Show the pose at time T (s): of the motion in the file, else simulated from the initial "
      "state with the model's integrator.",
      "T", "0"};
  const QCommandLineOption grab{
      "grab-window",
      "Show the window, press play, and after --play-for seconds save a screenshot of the whole "
      "window to OUT.png and exit (for documentation and checks).",
      "OUT.png"};
  const QCommandLineOption playFor{"play-for", "Seconds to play before --grab-window (default 2).",
                                   "S", "2"};

  Parser() {
    parser.setApplicationDescription("Build, simulate and play back articulated mechanisms.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        "MODEL", "Model file (Articulate or spatial_v2 JSON); default: the bundled arm6.json.",
        "[MODEL]");
    parser.addOptions({screenshot, size, time, grab, playFor});
  }
  /// Whether the parsed command line asks for help or the version.
  bool wantsInformation() const {
    return parser.isSet("help") || parser.isSet("help-all") || parser.isSet("version");
  }
  /// Checks the parsed command line into `out`; returns an error message, or empty.
  QString check(Options& out) const {
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
      return QString("expected at most one model file, got %1").arg(positional.size());
    const std::optional<QSize> pixels = parseSize(parser.value(size));
    if (!pixels)
      return QString("--size: expected WIDTHxHEIGHT (e.g. 1280x720, each 1..%1), got '%2'")
          .arg(kMaxImageSide)
          .arg(parser.value(size));
    bool ok = false;
    const double t = parser.value(time).toDouble(&ok);
    if (!ok || !std::isfinite(t))
      return QString("--time: expected a number of seconds, got '%1'").arg(parser.value(time));
    const double play = parser.value(playFor).toDouble(&ok);
    if (!ok || !(play >= 0) || play > 3600)
      return QString("--play-for: expected 0 to 3600 seconds, got '%1'").arg(parser.value(playFor));
    out.grab = parser.value(grab);
    out.playFor = play;
    out.model = positional.value(0);
    out.screenshot = parser.value(screenshot);
    out.size = *pixels;
    out.time = t;
    out.timeSet = parser.isSet(time);
    return {};
  }
};

/// Renders the screenshot of --screenshot; returns the exit status.
int screenshot(const Options& options) {
  const QString path = options.model.isEmpty() ? bundledModel() : options.model;
  if (path.isEmpty()) return fail("no model given and the bundled example was not found");
  // the image must not replace the model (the same file, through links too)
  const QFileInfo image(options.screenshot), source(path);
  if (image.exists() && source.exists() && image.canonicalFilePath() == source.canonicalFilePath())
    return fail(QString("--screenshot: %1 is the model file itself; write the image elsewhere").arg(options.screenshot));
  try {
    const art::gui::AnyDocument doc = art::gui::readAnyDocument(QFile::encodeName(path).toStdString());
    const art::LoadedModel& model = doc.loaded;
    // a tree's pose comes from its motion or its initial joint values; a rigid body's or a
    // structure's only from its System, which also draws its force elements
    if (model.motion || (!(options.time > 0) && !doc.rigid && !doc.structure)) {
      art::gui::Viewport::renderToPng(model.spec, art::gui::poseAtTime(model, options.time),
                                      options.size.width(), options.size.height(), options.screenshot);
      return 0;
    }
    // no motion: simulate to the time (none for the initial state), then draw the system's own
    // poses and force elements
    const std::unique_ptr<art::System> system = art::gui::makeSystem(model.spec, doc.rigid, doc.structure);
    if (options.time > 0 && !system->advanceTo(options.time)) {
      const auto divergence = system->divergence();
      return fail(divergence ? QString::fromStdString(divergence->message)
                             : QString("the simulation stopped before t = %1 s").arg(options.time));
    }
    std::vector<art::BodyPose> poses;
    std::vector<art::SegmentReport> segments;
    system->bodyPoses(system->positions(), poses);
    system->segments(system->positions(), system->velocities(), segments);
    art::gui::OffscreenView view(model.spec, options.size.width(), options.size.height());
    view.setBodyPoses(poses, true);
    view.setSegments(segments);
    view.savePng(options.screenshot);
  } catch (const std::exception& e) {
    return fail(QString::fromStdString(e.what()));
  }
  return 0;
}

/// Shows help or the version (and exits) when the parsed command line asks for them.
void showInformation(Parser& cli) {
  if (cli.parser.isSet("version")) cli.parser.showVersion();
  if (cli.wantsInformation()) cli.parser.showHelp(0);
}

}  // namespace

int main(int argc, char** argv) {
  // the viewport hosts an X11 window: on Wayland desktops run through XWayland
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "xcb");
  QCoreApplication::setOrganizationName("Articulate");
  QCoreApplication::setApplicationName("articulate");
  QCoreApplication::setApplicationVersion(ARTICULATE_VERSION);

  // the command line is read before any application exists, so that errors, help, the version
  // and screenshots need no display; one that does not parse may hold Qt's own options (such as
  // -platform) and is read again after QApplication has taken those out
  Parser cli;
  QStringList arguments;
  for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
  const bool parsed = cli.parser.parse(arguments);
  Options options;
  if (parsed && !cli.wantsInformation()) {
    const QString error = cli.check(options);
    if (!error.isEmpty()) return fail(error);
  }
  if (parsed && (cli.wantsInformation() || !options.screenshot.isEmpty())) {
    const QCoreApplication app(argc, argv);
    showInformation(cli);
    return screenshot(options);
  }

  const QApplication app(argc, argv);
  if (!parsed) {
    if (!cli.parser.parse(QCoreApplication::arguments())) return fail(cli.parser.errorText());
    showInformation(cli);
    const QString error = cli.check(options);
    if (!error.isEmpty()) return fail(error);
    if (!options.screenshot.isEmpty()) return screenshot(options);
  }

  QApplication::setWindowIcon(QIcon(":/icons/articulate.png"));
  art::gui::MainWindow window;
  window.setAsking(options.grab.isEmpty());  // a grab for documentation runs unattended
  if (!options.grab.isEmpty() && cli.parser.isSet(cli.size)) window.resize(options.size);
  window.show();
  const QString model = options.model.isEmpty() ? bundledModel() : options.model;
  QTimer::singleShot(0, &window, [&window, model, options] {
    // unsaved changes a crash left behind come first (not when grabbing for documentation)
    if (options.grab.isEmpty() && window.offerRecovery()) return;
    if (model.isEmpty() || !window.openFile(model)) {
      // an unattended grab has nothing to show: it fails instead of waiting
      if (!options.grab.isEmpty()) QCoreApplication::exit(fail("cannot open " + model));
      return;
    }
    if (options.timeSet) window.showTime(options.time);
    // the bundled example starts moving, so that the first thing a user sees is alive
    if (options.model.isEmpty() && options.grab.isEmpty()) window.playback()->play();
    if (options.grab.isEmpty()) return;
    window.playback()->play();
    QTimer::singleShot(static_cast<int>(options.playFor * 1000), &window, [&window, options] {
      QScreen* screen = window.screen();
      const QPixmap shot = screen->grabWindow(0, window.x(), window.y(),
                                              window.frameGeometry().width(),
                                              window.frameGeometry().height());
      QCoreApplication::exit(shot.save(options.grab) ? 0 : (fail("cannot write " + options.grab), 1));
    });
  });
  return QApplication::exec();
}
