// The model tree and its panel (see model_tree.h).
#include "model_tree.h"

#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPixmap>
#include <QTreeView>
#include <QVBoxLayout>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/model.h"
#include "articulate/spatial/joint.h"
#include "articulate/model/edit.h"
#include "document.h"
#include "joint_code.h"

namespace art::gui {

namespace {

// where the copy of a duplicated subtree goes: this far along the base's x axis (m)
constexpr double kDuplicateOffset = 0.25;

// body `parent`'s pose in the base at the model's initial state (the base: identity); the
// keyframes are left out (mid-edit they may not fit yet)
BodyPose initialPose(const ModelSpec& s, int parent) {
  if (parent < 0) return {};
  ModelSpec bare = s;
  bare.keyframes.clear();
  const Model m = compile(bare);
  Data d(m);
  forwardKinematics(m, d, m.q0);
  return bodyPose(m, d, parent);
}

// body b's joint frame in the base at the model's initial state: rotation and origin
void jointFrameInBase(const ModelSpec& s, int b, Mat3& R, Vec3& o) {
  const BodySpec& body = s.bodies[static_cast<std::size_t>(b)];
  const BodyPose parent = initialPose(s, body.parent);
  R = parent.rotation * body.rotation.transpose();
  o = parent.position + parent.rotation * body.translation;
}

// places body b's joint frame at (R, o) in the base, at the initial state, by its placement in
// its parent
void placeJointFrame(ModelSpec& s, int b, const Mat3& R, const Vec3& o) {
  const BodyPose parent = initialPose(s, s.bodies[static_cast<std::size_t>(b)].parent);
  BodySpec& body = s.bodies[static_cast<std::size_t>(b)];
  body.rotation = R.transpose() * parent.rotation;
  body.translation = parent.rotation.transpose() * (o - parent.position);
}

constexpr const char* kMime = "application/x-articulate-body";

// a small coloured disc per joint family: revolute, prismatic, helical, planar, base
QIcon jointIcon(int family) {
  static QIcon icons[5];
  if (icons[family].isNull()) {
    const QColor colours[5] = {QColor(214, 96, 40), QColor(52, 120, 200), QColor(140, 80, 180),
                               QColor(60, 150, 90), QColor(90, 90, 90)};
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(colours[family]);
    p.setPen(Qt::NoPen);
    if (family == 1) p.drawRect(2, 4, 10, 6);  // prismatic: a slider
    else if (family == 4) p.drawRect(1, 8, 12, 5);  // base: ground
    else p.drawEllipse(2, 2, 10, 10);
    icons[family] = QIcon(pm);
  }
  return icons[family];
}

int family(JointType t) {
  switch (t) {
    case JointType::Rx: case JointType::Ry: case JointType::Rz: return 0;
    case JointType::Px: case JointType::Py: case JointType::Pz: return 1;
    case JointType::H: return 2;
    default: return 3;
  }
}

QString bodyName(const ModelSpec& s, int body) {
  return body < 0 ? QStringLiteral("base") : QString::fromStdString(s.bodies[body].name);
}

}  // namespace

ModelTreeModel::ModelTreeModel(ModelDocument* document, QObject* parent)
    : QAbstractItemModel(parent), m_doc(document) {
  rebuild();
  connect(document, &ModelDocument::changed, this, [this] {
    beginResetModel();
    rebuild();
    endResetModel();
  });
}

void ModelTreeModel::rebuild() {
  const ModelSpec& s = m_doc->spec();
  m_children.assign(s.bodies.size() + 1, {});
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const int p = s.bodies[i].parent;
    if (p >= -1 && p < static_cast<int>(s.bodies.size())) m_children[p + 1].push_back(int(i));
  }
}

int ModelTreeModel::bodyOf(const QModelIndex& index) {
  return index.isValid() ? static_cast<int>(index.internalId()) - 1 : -2;
}

QModelIndex ModelTreeModel::indexOfBody(int body) const {
  if (body == -1) return createIndex(0, 0, quintptr(0));
  if (body < 0 || body >= static_cast<int>(m_doc->spec().bodies.size())) return {};
  const std::vector<int>& siblings = m_children[m_doc->spec().bodies[body].parent + 1];
  const auto it = std::find(siblings.begin(), siblings.end(), body);
  return createIndex(static_cast<int>(it - siblings.begin()), 0, quintptr(body + 1));
}

QModelIndex ModelTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!parent.isValid()) return row == 0 ? createIndex(0, column, quintptr(0)) : QModelIndex();
  const int p = bodyOf(parent);
  const std::vector<int>& kids = m_children[p + 1];
  if (row < 0 || row >= static_cast<int>(kids.size())) return {};
  return createIndex(row, column, quintptr(kids[row] + 1));
}

QModelIndex ModelTreeModel::parent(const QModelIndex& child) const {
  const int b = bodyOf(child);
  if (b < 0) return {};
  return indexOfBody(m_doc->spec().bodies[b].parent);
}

int ModelTreeModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return 1;
  if (parent.column() != 0) return 0;
  return static_cast<int>(m_children[bodyOf(parent) + 1].size());
}

QVariant ModelTreeModel::data(const QModelIndex& index, int role) const {
  const int b = bodyOf(index);
  if (b < -1) return {};
  const ModelSpec& s = m_doc->spec();
  if (index.column() == 0) {
    if (role == Qt::DisplayRole || role == Qt::EditRole) return bodyName(s, b);
    if (role == Qt::DecorationRole) return jointIcon(b < 0 ? 4 : family(s.bodies[b].joint.type));
  } else if (role == Qt::DisplayRole) {
    if (b < 0) return tr("fixed");
    const Joint& j = s.bodies[b].joint;
    QString text = jointCodeText(j.type);
    if (j.type == JointType::H) text += QString(" (pitch %1)").arg(j.pitch);
    return text;
  }
  if (role == Qt::ToolTipRole && b >= 0)
    return tr("%1: %2 joint under %3").arg(bodyName(s, b), jointCodeText(s.bodies[b].joint.type),
                                          bodyName(s, s.bodies[b].parent));
  return {};
}

QVariant ModelTreeModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == 0 ? tr("Body") : tr("Joint");
}

Qt::ItemFlags ModelTreeModel::flags(const QModelIndex& index) const {
  const int b = bodyOf(index);
  if (b < -1) return Qt::ItemIsDropEnabled;
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDropEnabled;
  if (b >= 0) f |= Qt::ItemIsDragEnabled | (index.column() == 0 ? Qt::ItemIsEditable : Qt::NoItemFlags);
  return f;
}

bool ModelTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const int b = bodyOf(index);
  if (role != Qt::EditRole || b < 0 || index.column() != 0) return false;
  const std::string name = value.toString().trimmed().toStdString();
  const std::string old = m_doc->spec().bodies[b].name;
  if (name == old) return false;
  QString error;
  if (name.empty()) error = tr("A body needs a name.");
  else if (name == "base") error = tr("'base' names the fixed base.");
  else if (m_doc->spec().findBody(name) >= 0)
    error = tr("'%1' is already the name of a body.").arg(QString::fromStdString(name));
  else
    error = m_doc->edit(tr("Rename '%1' to '%2'").arg(QString::fromStdString(old), QString::fromStdString(name)),
                        [b, name](ModelSpec& s) { s.bodies[b].name = name; });
  m_error = error;
  if (!error.isEmpty()) emit refused(error);
  return error.isEmpty();
}

QStringList ModelTreeModel::mimeTypes() const { return {kMime}; }

QMimeData* ModelTreeModel::mimeData(const QModelIndexList& indexes) const {
  for (const QModelIndex& i : indexes)
    if (bodyOf(i) >= 0) {
      auto* mime = new QMimeData;
      mime->setData(kMime, QByteArray::number(bodyOf(i)));
      return mime;
    }
  return nullptr;
}

bool ModelTreeModel::canDropMimeData(const QMimeData* data, Qt::DropAction, int, int,
                                     const QModelIndex& parent) const {
  if (!data || !data->hasFormat(kMime) || bodyOf(parent) < -1) return false;
  const int body = data->data(kMime).toInt();
  if (body < 0 || body >= static_cast<int>(m_doc->spec().bodies.size())) return false;
  const std::vector<int> below = subtree(m_doc->spec(), body);
  return std::find(below.begin(), below.end(), bodyOf(parent)) == below.end();
}

bool ModelTreeModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row,
                                  int column, const QModelIndex& parent) {
  if (!canDropMimeData(data, action, row, column, parent)) {
    m_error = tr("A body cannot move under itself or its own descendants.");
    emit refused(m_error);
    return false;
  }
  const int body = data->data(kMime).toInt(), target = bodyOf(parent);
  const ModelSpec& s = m_doc->spec();
  if (s.bodies[body].parent == target) return false;
  const QString name = tr("Move '%1' under '%2'").arg(bodyName(s, body), bodyName(s, target));
  // the body stays where it is in the world (at the initial state): its placement becomes
  // relative to the new parent
  m_error = m_doc->edit(name, [body, target](ModelSpec& m) {
    Mat3 R;
    Vec3 o;
    jointFrameInBase(m, body, R, o);
    placeJointFrame(m, reparent(m, body, target), R, o);
  }, ModelDocument::Change::Structure);
  if (!m_error.isEmpty()) emit refused(m_error);
  // the document rebuilt the model; returning false keeps the view from removing the source row
  return false;
}

// ---------------------------------------------------------------------------------------------

ModelTreePanel::ModelTreePanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document), m_model(new ModelTreeModel(document, this)) {
  setObjectName("modelTreePanel");
  m_view = new QTreeView(this);
  m_view->setObjectName("modelTree");
  m_view->setModel(m_model);
  m_view->setHeaderHidden(false);
  m_view->header()->setStretchLastSection(true);
  m_view->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  m_view->setDragDropMode(QAbstractItemView::InternalMove);
  m_view->setDefaultDropAction(Qt::MoveAction);
  m_view->setSelectionMode(QAbstractItemView::SingleSelection);
  m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  m_view->setContextMenuPolicy(Qt::CustomContextMenu);
  m_view->expandAll();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_view);
  connect(m_view, &QTreeView::customContextMenuRequested, this, &ModelTreePanel::contextMenu);
  connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) {
            if (!m_selecting) emit bodySelected(ModelTreeModel::bodyOf(current));
          });
  connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
    m_view->expandAll();
  });
}

void ModelTreePanel::selectBody(int body) {
  m_selecting = true;
  const QModelIndex i = m_model->indexOfBody(body);
  if (i.isValid()) m_view->setCurrentIndex(i);
  else m_view->clearSelection();
  m_selecting = false;
}

int ModelTreePanel::selectedBody() const { return ModelTreeModel::bodyOf(m_view->currentIndex()); }

int ModelTreePanel::addChild(int body) {
  const ModelSpec& s = m_doc->spec();
  const std::string name = freeBodyName(s, "link", static_cast<int>(s.bodies.size()) + 1);
  BodySpec b;
  b.name = name;
  b.parent = body;
  // revolute about z (in planar models: the planar revolute)
  b.joint.type = s.arithmetic == Arithmetic::Planar ? JointType::PlanarR : JointType::Rz;
  if (body >= 0) b.translation = Vec3(0.3, 0, 0);
  b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3(0.15, 0, 0),
                                              Vec3(0.0002, 0.0077, 0.0077).asDiagonal());
  b.appearance = nlohmann::json::parse(R"(["cyl", [[0, 0, 0], [0.3, 0, 0]], 0.02])");
  int added = -1;
  const QString error =
      m_doc->edit(tr("Add body '%1'").arg(QString::fromStdString(name)),
                  [&](ModelSpec& m) { added = addBody(m, b); }, ModelDocument::Change::Structure);
  return error.isEmpty() ? added : -1;
}

int ModelTreePanel::duplicate(int body) {
  const ModelSpec& s = m_doc->spec();
  if (body < 0 || body >= static_cast<int>(s.bodies.size())) return -1;
  const std::vector<int> tree = subtree(s, body);
  int copy = -1;
  const QString error = m_doc->edit(
      tr("Duplicate '%1'").arg(QString::fromStdString(s.bodies[body].name)),
      [&](ModelSpec& m) {
        std::vector<int> newIndex(m.bodies.size(), -1);
        for (int i : tree) {
          BodySpec b = m.bodies[i];
          std::string name = b.name + "_copy";
          for (int k = 2; m.findBody(name) >= 0; ++k) name = b.name + "_copy" + std::to_string(k);
          b.name = name;
          if (i != body) b.parent = newIndex[b.parent];
          newIndex[i] = addBody(m, b);
        }
        copy = newIndex[body];
        // beside the original, not on it
        Mat3 R;
        Vec3 o;
        jointFrameInBase(m, copy, R, o);
        placeJointFrame(m, copy, R, o + kDuplicateOffset * Vec3::UnitX());
      },
      ModelDocument::Change::Structure);
  return error.isEmpty() ? copy : -1;
}

bool ModelTreePanel::remove(int body, bool ask) {
  const ModelSpec& s = m_doc->spec();
  if (body < 0 || body >= static_cast<int>(s.bodies.size())) return false;
  const std::size_t count = subtree(s, body).size();
  const QString name = QString::fromStdString(s.bodies[body].name);
  if (ask && count > 1 &&
      QMessageBox::question(this, tr("Delete"),
                            tr("Delete '%1' and the %2 bodies below it?").arg(name).arg(count - 1)) !=
          QMessageBox::Yes)
    return false;
  return m_doc->edit(count > 1 ? tr("Delete '%1' and %2 more").arg(name).arg(count - 1)
                               : tr("Delete '%1'").arg(name),
                     [body](ModelSpec& m) { removeSubtree(m, body); },
                     ModelDocument::Change::Structure)
      .isEmpty();
}

void ModelTreePanel::contextMenu(const QPoint& pos) {
  const QModelIndex index = m_view->indexAt(pos);
  const int body = ModelTreeModel::bodyOf(index);
  if (body < -1) return;
  QMenu menu(this);
  menu.addAction(tr("Add Child Body"), this, [this, body] { addChild(body); });
  if (body >= 0) {
    menu.addAction(tr("Duplicate Subtree"), this, [this, body] { duplicate(body); });
    menu.addAction(tr("Rename"), this, [this, index] { m_view->edit(index); });
    menu.addSeparator();
    menu.addAction(tr("Delete"), this, [this, body] { remove(body); });
  }
  menu.exec(m_view->viewport()->mapToGlobal(pos));
}

}  // namespace art::gui
