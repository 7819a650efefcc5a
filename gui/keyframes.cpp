// The Keyframes dock (see keyframes.h).
#include "keyframes.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QHeaderView>
#include <QKeyEvent>
#include <QTableWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

#include "articulate/model/edit.h"
#include "document.h"

namespace art::gui {

KeyframesPanel::KeyframesPanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document) {
  auto* layout = new QVBoxLayout(this);
  m_unavailable = new QLabel(this);
  m_unavailable->setWordWrap(true);
  m_unavailable->hide();
  layout->addWidget(m_unavailable);
  m_list = new QTableWidget(0, 2, this);
  m_list->setObjectName("keyframeList");
  m_list->setHorizontalHeaderLabels({tr("Keyframe"), tr("Time (s)")});
  m_list->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_list->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  m_list->verticalHeader()->hide();
  m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_list->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
  m_list->setToolTip(tr("The model's keyframes, saved with it. F2 or a click on the selected "
                        "one renames it; a double-click restores it."));
  m_list->installEventFilter(this);
  layout->addWidget(m_list, 1);
  const auto button = [&](const QString& text, const char* name, const QString& tip) {
    auto* b = new QPushButton(text, this);
    b->setObjectName(name);
    b->setToolTip(tip);
    return b;
  };
  m_add = button(tr("Add"), "addKeyframeButton", tr("Store the state at the playhead as a keyframe"));
  m_restore = button(tr("Restore"), "restoreKeyframeButton",
                     tr("Pause and show the keyframe's state at its time; Play continues from it"));
  m_remove = button(tr("Delete"), "deleteKeyframeButton", tr("Delete the selected keyframes"));
  m_initial = button(tr("Set as Initial State"), "keyframeInitialButton",
                     tr("Make the keyframe's positions and velocities the model's initial state"));
  m_export = button(tr("Export Video Between..."), "exportBetweenButton",
                    tr("Export the recording between the two selected keyframes' times"));
  auto* row1 = new QHBoxLayout;
  row1->addWidget(m_add);
  row1->addWidget(m_restore);
  row1->addWidget(m_remove);
  layout->addLayout(row1);
  layout->addWidget(m_initial);
  layout->addWidget(m_export);

  connect(m_add, &QPushButton::clicked, this, &KeyframesPanel::addRequested);
  connect(m_restore, &QPushButton::clicked, this, [this] {
    const QList<int> s = selected();
    if (s.size() == 1) emit restoreRequested(s.front());
  });
  connect(m_list, &QTableWidget::itemDoubleClicked, this, [this](QTableWidgetItem* item) {
    if (item->column() == 1) emit restoreRequested(item->row());  // the name column renames
  });
  connect(m_remove, &QPushButton::clicked, this, [this] {
    QList<int> s = selected();
    std::sort(s.begin(), s.end(), std::greater<int>());
    for (int k : s) remove(k);
  });
  connect(m_initial, &QPushButton::clicked, this, [this] {
    const QList<int> s = selected();
    if (s.size() == 1) setAsInitialState(s.front());
  });
  connect(m_export, &QPushButton::clicked, this, [this] {
    const QList<int> s = selected();
    if (s.size() != 2) return;
    const auto& frames = m_doc->spec().keyframes;
    const double a = frames[static_cast<std::size_t>(s[0])].time;
    const double b = frames[static_cast<std::size_t>(s[1])].time;
    emit exportRequested(std::min(a, b), std::max(a, b));
  });
  connect(m_list, &QTableWidget::itemSelectionChanged, this, &KeyframesPanel::updateButtons);
  connect(m_list, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (m_refreshing || item->column() != 0) return;
    const int k = item->row();
    const QString error = rename(k, item->text().trimmed());
    if (!error.isEmpty()) {
      m_unavailable->setText(error);
      m_unavailable->show();
      refresh();  // back to the name it has
    }
  });
  connect(document, &ModelDocument::changed, this, &KeyframesPanel::refresh);
  refresh();
}

QList<int> KeyframesPanel::selected() const {
  QList<int> rows;
  for (int k = 0; k < m_list->rowCount(); ++k)
    if (m_list->item(k, 0) && m_list->item(k, 0)->isSelected()) rows.push_back(k);
  return rows;
}

void KeyframesPanel::refresh() {
  m_refreshing = true;
  const QList<int> before = selected();
  const auto& frames = m_doc->spec().keyframes;
  m_list->setRowCount(static_cast<int>(frames.size()));
  for (int r = 0; r < static_cast<int>(frames.size()); ++r) {
    const KeyframeSpec& k = frames[static_cast<std::size_t>(r)];
    auto* name = new QTableWidgetItem(QString::fromStdString(k.name));
    name->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable);
    auto* time = new QTableWidgetItem(QString::number(k.time, 'f', 3));
    time->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    time->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_list->setItem(r, 0, name);
    m_list->setItem(r, 1, time);
  }
  m_list->clearSelection();
  for (int k : before)
    if (k < m_list->rowCount())
      m_list->selectionModel()->select(m_list->model()->index(k, 0),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
  m_refreshing = false;
  updateButtons();
}

void KeyframesPanel::updateButtons() {
  const int n = static_cast<int>(selected().size());
  m_restore->setEnabled(n == 1);
  m_initial->setEnabled(n == 1);
  m_remove->setEnabled(n >= 1);
  m_export->setEnabled(n == 2);
}

void KeyframesPanel::setUnavailable(const QString& reason) {
  m_unavailable->setText(reason);
  m_unavailable->setVisible(!reason.isEmpty());
  for (QWidget* w : std::initializer_list<QWidget*>{m_list, m_add, m_restore, m_remove, m_initial, m_export})
    w->setEnabled(reason.isEmpty());
  if (reason.isEmpty()) updateButtons();
}

QString KeyframesPanel::add(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                            const QString& name, const Eigen::VectorXd& ctrl, const Eigen::VectorXd& act) {
  const auto& frames = m_doc->spec().keyframes;
  const auto taken = [&](const std::string& n) {
    return std::any_of(frames.begin(), frames.end(), [&](const KeyframeSpec& k) { return k.name == n; });
  };
  std::string chosen = name.trimmed().toStdString();
  for (int n = static_cast<int>(frames.size()) + 1; chosen.empty() || (name.isEmpty() && taken(chosen)); ++n)
    chosen = "Keyframe " + std::to_string(n);
  KeyframeSpec k;
  k.name = chosen;
  k.time = t;
  k.q = q;
  k.qd = qd;
  k.ctrl = ctrl;
  k.act = act;
  const QString error = m_doc->edit(tr("Add keyframe '%1'").arg(QString::fromStdString(chosen)),
                                    [&k](ModelSpec& s) { s.keyframes.push_back(k); });
  if (error.isEmpty()) {
    m_list->clearSelection();
    m_list->selectionModel()->select(m_list->model()->index(m_list->rowCount() - 1, 0),
                                     QItemSelectionModel::Select | QItemSelectionModel::Rows);
  }
  return error;
}

bool KeyframesPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_list && event->type() == QEvent::ShortcutOverride &&
      static_cast<QKeyEvent*>(event)->key() == Qt::Key_F2 &&
      static_cast<QKeyEvent*>(event)->modifiers() == Qt::NoModifier) {
    event->accept();  // the list's own edit key, not the window's shortcut
    return true;
  }
  return QWidget::eventFilter(watched, event);
}

QString KeyframesPanel::rename(int k, const QString& name) {
  const auto& frames = m_doc->spec().keyframes;
  if (k < 0 || k >= static_cast<int>(frames.size())) return tr("There is no keyframe %1.").arg(k);
  if (frames[static_cast<std::size_t>(k)].name == name.toStdString()) return {};
  return m_doc->edit(tr("Rename keyframe '%1' to '%2'")
                         .arg(QString::fromStdString(frames[static_cast<std::size_t>(k)].name), name),
                     [k, n = name.toStdString()](ModelSpec& s) {
                       s.keyframes[static_cast<std::size_t>(k)].name = n;
                     });
}

QString KeyframesPanel::remove(int k) {
  const auto& frames = m_doc->spec().keyframes;
  if (k < 0 || k >= static_cast<int>(frames.size())) return tr("There is no keyframe %1.").arg(k);
  return m_doc->edit(tr("Delete keyframe '%1'").arg(QString::fromStdString(frames[static_cast<std::size_t>(k)].name)),
                     [k](ModelSpec& s) { s.keyframes.erase(s.keyframes.begin() + k); });
}

QString KeyframesPanel::setAsInitialState(int k) {
  const auto& frames = m_doc->spec().keyframes;
  if (k < 0 || k >= static_cast<int>(frames.size())) return tr("There is no keyframe %1.").arg(k);
  const KeyframeSpec f = frames[static_cast<std::size_t>(k)];
  return m_doc->edit(tr("Set initial state from keyframe '%1'").arg(QString::fromStdString(f.name)),
                     [&f](ModelSpec& s) { setInitialState(s, f.q, f.qd); });
}

}  // namespace art::gui
