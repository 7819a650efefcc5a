// Image, image-sequence and video export (see export.h).
#include "export.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

#include "frame.h"

namespace art::gui {

QString ffmpegProgram() { return QStandardPaths::findExecutable("ffmpeg"); }

int exportFrameCount(const ExportOptions& o) {
  if (!(o.end >= o.start) || !(o.fps > 0) || !(o.speed > 0)) return 0;
  return static_cast<int>(std::floor((o.end - o.start) * o.fps / o.speed + 1e-9)) + 1;
}

namespace {

// A video is written beside its target under a temporary name with the same suffix (ffmpeg
// picks the container by it) and renamed over the target once complete: cancelling or failing
// leaves an existing file as it was.
QString partialPath(const QString& path) {
  const QFileInfo info(path);
  return info.dir().filePath(QString(".%1.partial-%2.%3")
                                 .arg(info.completeBaseName())
                                 .arg(QCoreApplication::applicationPid())
                                 .arg(info.suffix()));
}

// ffmpeg reading raw RGB frames on its standard input
class FfmpegVideo {
 public:
  FfmpegVideo(const QString& program, const ExportOptions& o, const QString& output) {
    m_process.setProgram(program);
    m_process.setArguments({"-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24",
                            "-s", QString("%1x%2").arg(o.width).arg(o.height), "-r",
                            QString::number(o.fps), "-i", "-", "-pix_fmt", "yuv420p", output});
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.start();
    if (!m_process.waitForStarted(10000)) throw std::runtime_error("cannot start ffmpeg");
  }
  void add(const QImage& frame) {
    const QImage f = frame.convertToFormat(QImage::Format_RGB888);
    for (int y = 0; y < f.height(); ++y)
      m_process.write(reinterpret_cast<const char*>(f.constScanLine(y)), qint64(f.width()) * 3);
    while (m_process.bytesToWrite() > (1 << 22)) m_process.waitForBytesWritten(1000);
  }
  QString finish() {
    m_process.closeWriteChannel();
    if (!m_process.waitForFinished(120000)) return "ffmpeg did not finish";
    if (m_process.exitCode() != 0)
      return "ffmpeg failed: " + QString::fromLocal8Bit(m_process.readAll()).trimmed();
    return {};
  }
  void kill() {
    m_process.kill();
    m_process.waitForFinished(5000);
  }

 private:
  QProcess m_process;
};

}  // namespace

QString exportFrames(const ModelSpec& spec, const Recording& recording, System& poses,
                     const ViewState& view,
                     const ExportOptions& o,
                     const std::function<bool(int done, int total)>& progress) {
  if (recording.empty()) return "there is nothing to export";
  const int total = exportFrameCount(o);
  if (total < 1) return "the time range, frame rate or speed is invalid";
  if (o.kind == ExportOptions::Kind::Video && (o.width % 2 || o.height % 2))
    return "a video needs an even width and height";
  const bool ogg = QFileInfo(o.path).suffix().compare("ogv", Qt::CaseInsensitive) == 0;
  const QString ffmpeg = ffmpegProgram();
  if (o.kind == ExportOptions::Kind::Video && !ogg && ffmpeg.isEmpty())
    return "ffmpeg is not installed: install it (apt-get install ffmpeg) or export to a .ogv file";
  const bool video = o.kind == ExportOptions::Kind::Video;
  const QString part = video ? partialPath(o.path) : QString();
  // whatever happens below, an unfinished video goes and the target stays as it was
  struct RemovePartial {
    QString path;
    ~RemovePartial() {
      if (!path.isEmpty()) QFile::remove(path);
    }
  } cleanup{part};
  try {
    OffscreenView offscreen(spec, o.width, o.height);
    std::unique_ptr<OggVideoWriter> oggWriter;
    std::unique_ptr<FfmpegVideo> ffmpegWriter;
    if (video) {
      if (ogg) oggWriter = std::make_unique<OggVideoWriter>(part, o.width, o.height, o.fps);
      else ffmpegWriter = std::make_unique<FfmpegVideo>(ffmpeg, o, part);
    }
    const QFileInfo first(o.path);
    const QString stem = first.dir().filePath(first.completeBaseName());
    Eigen::VectorXd q, qd;
    FrameContent frame;
    // the viewport's camera; a tracking camera then moves with its body from there
    offscreen.setViewState(view);
    offscreen.setOverlays(o.overlays);
    std::vector<ModelSpec> ghostSpecs;
    for (const ExportOptions::Ghost& g : o.ghosts) ghostSpecs.push_back(g.spec);
    if (!ghostSpecs.empty()) offscreen.setGhosts(ghostSpecs);
    Eigen::VectorXd gq, gqd;
    for (int k = 0; k < total; ++k) {
      const double t = std::min(o.end, o.start + k * o.speed / o.fps);
      for (std::size_t g = 0; g < o.ghosts.size(); ++g) {
        o.ghosts[g].recording->stateAt(t, gq, gqd);
        offscreen.setGhostPose(static_cast<int>(g), gq);
      }
      recording.stateAt(t, q, qd);
      computeFrame(poses, spec, &recording, t, q, qd, recording.perturbationAt(t), o.overlays,
                   frame);
      offscreen.setSegments(frame.segments);
      offscreen.setAnnotations(frame.annotations);
      offscreen.setBodyPoses(frame.poses);
      if (!video) {
        offscreen.savePng(QString("%1_%2.png").arg(stem).arg(k, 5, 10, QChar('0')));  // atomic
      } else {
        const QImage image = offscreen.image();
        if (oggWriter) oggWriter->addFrame(image);
        else ffmpegWriter->add(image);
      }
      if (progress && !progress(k + 1, total)) {
        if (ffmpegWriter) ffmpegWriter->kill();
        oggWriter.reset();
        return "cancelled";
      }
    }
    if (oggWriter) oggWriter->finish();
    if (ffmpegWriter) {
      const QString failure = ffmpegWriter->finish();
      if (!failure.isEmpty()) return failure;
    }
    oggWriter.reset();
    if (video) {
      // complete: it takes the target's place in one step (rename(2) replaces atomically)
      if (std::rename(QFile::encodeName(part).constData(), QFile::encodeName(o.path).constData()) != 0)
        return QString("cannot write '%1': %2").arg(o.path, QString::fromLocal8Bit(std::strerror(errno)));
      cleanup.path.clear();
    }
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace art::gui
