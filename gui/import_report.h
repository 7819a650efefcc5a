#pragma once
// The Import report dock: what reading the open file left out or approximated (LoadedModel::
// notes, e.g. a URDF's unused root mass or merged fixed joints), one row per note under the
// file's name, and what exporting a model left out (File > Export: URDF or spatial_v2 notes)
// under "Export to FILE". Opening another model starts the report afresh; without notes it says
// so. MainWindow shows and raises the dock when a file opens or exports with notes.

#include <string>
#include <vector>

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace art::gui {

class ImportReportPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ImportReportPanel(QWidget* parent = nullptr);

  /// Starts the report of a model opened from `file` (empty: a model without a file, e.g. a
  /// new one) with its reader's notes: one heading, the file's name, with a row per note, or
  /// none and the empty-state text when there are no notes.
  void setOpened(const QString& file, const std::vector<std::string>& notes);
  /// Adds the notes of exporting the model to `file` under "Export to FILE" (nothing when there
  /// are none).
  void addExport(const QString& file, const std::vector<std::string>& notes);

  /// The headings and, for each, its rows (for tests).
  QStringList headings() const;
  QStringList rows(int heading) const;
  /// The text shown when there is nothing to report (empty while there are notes).
  QString emptyText() const;
  QTreeWidget* tree() const { return m_tree; }

 private:
  void addSection(const QString& heading, const QString& path,
                  const std::vector<std::string>& notes);
  QTreeWidget* m_tree;
  QLabel* m_empty;
};

}  // namespace art::gui
