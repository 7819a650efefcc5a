#pragma once
// Image comparison against the baseline PNGs in tests/render/baselines (the directory is the
// compile definition ARTICULATE_RENDER_BASELINES). Tolerance "mean-2/1%": the mean absolute
// difference per channel is at most 2 (of 255) and at most 1% of the pixels differ by more
// than 48 in any channel. On failure the actual image is written beside the baseline as
// NAME.actual.png.
#include <algorithm>
#include <cstdlib>

#include <QImage>
#include <QString>

namespace art::test {

// Compares a rendering with its baseline (see the header comment); empty when it matches.
inline QString compareWithBaseline(const QImage& rendered, const QString& baseline) {
  const QImage actual = rendered.convertToFormat(QImage::Format_RGB32);
  const QString basePath = QStringLiteral(ARTICULATE_RENDER_BASELINES) + "/" + baseline + ".png";
  const QImage base = QImage(basePath).convertToFormat(QImage::Format_RGB32);
  if (base.isNull()) return "no baseline " + basePath;
  if (base.size() != actual.size()) return "the baseline's size differs";
  double sum = 0;
  long bad = 0;
  for (int y = 0; y < base.height(); ++y) {
    const QRgb* a = reinterpret_cast<const QRgb*>(actual.constScanLine(y));
    const QRgb* b = reinterpret_cast<const QRgb*>(base.constScanLine(y));
    for (int x = 0; x < base.width(); ++x) {
      const int dr = std::abs(qRed(a[x]) - qRed(b[x])), dg = std::abs(qGreen(a[x]) - qGreen(b[x])),
                db = std::abs(qBlue(a[x]) - qBlue(b[x]));
      sum += dr + dg + db;
      if (std::max({dr, dg, db}) > 48) ++bad;
    }
  }
  const double pixels = double(base.width()) * base.height();
  const double mean = sum / (3 * pixels), badFraction = bad / pixels;
  if (mean <= 2.0 && badFraction <= 0.01) return "";
  actual.save(QStringLiteral(ARTICULATE_RENDER_BASELINES) + "/" + baseline + ".actual.png");
  return QString("mean difference %1, %2% of pixels differ by > 48; actual image written to "
                 "%3.actual.png")
      .arg(mean)
      .arg(100 * badFraction)
      .arg(baseline);
}

}  // namespace art::test
