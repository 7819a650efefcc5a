// The Equality dock (see equalities.h).
#include "equalities.h"

#include <QCheckBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "articulate/model/spec.h"
#include "controls.h"

namespace art::gui {

namespace {

// what an equality ties: its two objects by their names in the model
QString ties(const ModelSpec& spec, const EqualitySpec& e) {
  const auto body = [&](int b) {
    return b < 0 ? QObject::tr("the world") : QString("'%1'").arg(QString::fromStdString(spec.bodies[static_cast<std::size_t>(b)].name));
  };
  const auto tendon = [&](int t) {
    const std::string& n = spec.tendons[static_cast<std::size_t>(t)].name;
    return n.empty() ? QObject::tr("tendon %1").arg(t) : QString("'%1'").arg(QString::fromStdString(n));
  };
  switch (e.type) {
    case EqualitySpec::Type::Connect:
    case EqualitySpec::Type::Weld: return QObject::tr("%1 to %2").arg(body(e.obj1), body(e.obj2));
    case EqualitySpec::Type::Joint:
      return e.obj2 < 0 ? QObject::tr("joint of %1 held").arg(body(e.obj1))
                        : QObject::tr("joint of %1 follows joint of %2").arg(body(e.obj1), body(e.obj2));
    case EqualitySpec::Type::Tendon:
      return e.obj2 < 0 ? QObject::tr("%1 held").arg(tendon(e.obj1))
                        : QObject::tr("%1 follows %2").arg(tendon(e.obj1), tendon(e.obj2));
  }
  return {};
}

}  // namespace

EqualityPanel::EqualityPanel(QWidget* parent) : QWidget(parent) {
  QWidget* inner = addNoteAndRows(this,
                                  tr("This model has no equality constraints. MJCF files bring theirs (connect, weld, "
                                     "joint, tendon); the Articulate format keeps them under \"equalities\" with soft "
                                     "physics."),
                                  m_note);
  m_list = new QVBoxLayout(inner);
  m_list->setContentsMargins(0, 0, 0, 0);
  m_list->addStretch(1);
}

void EqualityPanel::setModel(const ModelSpec& spec) {
  for (QCheckBox* b : m_boxes) delete b;
  m_boxes.clear();
  m_active.assign(spec.equalities.size(), 1);
  for (std::size_t k = 0; k < spec.equalities.size(); ++k) {
    const EqualitySpec& e = spec.equalities[k];
    m_active[k] = e.active ? 1 : 0;
    const QString name = e.name.empty() ? tr("equality %1").arg(k) : QString::fromStdString(e.name);
    auto* box = new QCheckBox(QString("%1  (%2: %3)").arg(name, QString::fromLatin1(equalityTypeName(e.type)), ties(spec, e)),
                              m_list->parentWidget());
    box->setObjectName(QString("equality%1").arg(k));
    box->setChecked(e.active);
    box->setToolTip(tr("Checked, '%1' acts; unchecked, it is switched off from the next step on, and the "
                       "switch is recorded with the motion")
                        .arg(name));
    connect(box, &QCheckBox::toggled, this, [this, k](bool on) {
      m_active[k] = on ? 1 : 0;
      emit equalitiesEdited(m_active);
    });
    m_list->insertWidget(static_cast<int>(k), box);
    m_boxes.push_back(box);
  }
  m_initial = m_active;
  m_note->setVisible(m_boxes.empty());
}

void EqualityPanel::setShown(const std::vector<char>& active) {
  m_active = active.size() == m_boxes.size() ? active : m_initial;
  for (std::size_t k = 0; k < m_boxes.size(); ++k) {
    const QSignalBlocker block(m_boxes[k]);
    m_boxes[k]->setChecked(m_active[k] != 0);
  }
}

}  // namespace art::gui
