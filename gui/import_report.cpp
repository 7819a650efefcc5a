// The Import report dock (see import_report.h).
#include "import_report.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace art::gui {

ImportReportPanel::ImportReportPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("importReportPanel");
  m_tree = new QTreeWidget(this);
  m_tree->setObjectName("importReportList");
  m_tree->setHeaderHidden(true);
  m_tree->setColumnCount(1);
  m_tree->setWordWrap(true);
  m_tree->setUniformRowHeights(false);
  m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_tree->header()->setSectionResizeMode(QHeaderView::Stretch);
  m_empty = new QLabel(this);
  m_empty->setWordWrap(true);
  m_empty->setAlignment(Qt::AlignCenter);
  m_empty->setEnabled(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(m_empty);
  layout->addWidget(m_tree, 1);
  setOpened({}, {});
}

void ImportReportPanel::setOpened(const QString& file, const std::vector<std::string>& notes) {
  m_tree->clear();
  addSection(file.isEmpty() ? tr("The model") : QFileInfo(file).fileName(), file, notes);
  const bool empty = m_tree->topLevelItemCount() == 0;
  m_empty->setText(empty ? (file.isEmpty() ? tr("No model file is open.")
                                           : tr("%1 opened as it is: nothing was left out or "
                                                "approximated.")
                                                 .arg(QFileInfo(file).fileName()))
                         : QString());
  m_empty->setVisible(empty);
  m_tree->setVisible(!empty);
}

void ImportReportPanel::addExport(const QString& file, const std::vector<std::string>& notes) {
  addSection(tr("Export to %1").arg(QFileInfo(file).fileName()), file, notes);
  if (m_tree->topLevelItemCount() == 0) return;
  m_empty->clear();
  m_empty->hide();
  m_tree->show();
}

void ImportReportPanel::addSection(const QString& heading, const QString& path,
                                   const std::vector<std::string>& notes) {
  if (notes.empty()) return;
  auto* top = new QTreeWidgetItem(m_tree, {heading});
  QFont bold = top->font(0);
  bold.setBold(true);
  top->setFont(0, bold);
  top->setFirstColumnSpanned(true);
  if (!path.isEmpty()) top->setToolTip(0, QDir::toNativeSeparators(path));
  for (const std::string& note : notes) {
    auto* row = new QTreeWidgetItem(top, {QString::fromStdString(note)});
    row->setToolTip(0, row->text(0));
  }
  top->setExpanded(true);
  m_tree->scrollToItem(top);
}

QStringList ImportReportPanel::headings() const {
  QStringList out;
  for (int k = 0; k < m_tree->topLevelItemCount(); ++k) out << m_tree->topLevelItem(k)->text(0);
  return out;
}

QStringList ImportReportPanel::rows(int heading) const {
  QStringList out;
  const QTreeWidgetItem* top = m_tree->topLevelItem(heading);
  for (int k = 0; top && k < top->childCount(); ++k) out << top->child(k)->text(0);
  return out;
}

QString ImportReportPanel::emptyText() const {
  return m_empty->isHidden() ? QString() : m_empty->text();
}

}  // namespace art::gui
