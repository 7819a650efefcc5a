#pragma once
// The model tree: a QAbstractItemModel over the document (base at the top, each body under its
// parent, with its joint), and the dock widget around it: rename in place, drag a body onto
// another to move it there with its subtree (cycles refused), a context menu to add a child,
// duplicate a subtree or delete one (asking first when it has children). Selection is shared
// with the viewport through selectedBody / bodySelected.

#include <QAbstractItemModel>
#include <QWidget>

class QTreeView;

namespace art::gui {

class ModelDocument;

class ModelTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  explicit ModelTreeModel(ModelDocument* document, QObject* parent = nullptr);

  /// The index of a body (-1: the base).
  QModelIndex indexOfBody(int body) const;
  /// The body of an index (-1: the base; -2: invalid).
  static int bodyOf(const QModelIndex& index);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& = {}) const override { return 2; }
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  /// Renaming pushes "Rename 'a' to 'b'"; an empty or duplicate name is refused.
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
  QStringList mimeTypes() const override;
  QMimeData* mimeData(const QModelIndexList& indexes) const override;
  bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                       const QModelIndex& parent) const override;
  /// Dropping a body onto another (or the base) moves it there with its subtree.
  bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                    const QModelIndex& parent) override;

  /// The last refusal (a rename or move that would break the model), for the status bar.
  QString lastError() const { return m_error; }

 signals:
  void refused(const QString& reason);

 private:
  void rebuild();
  ModelDocument* m_doc;
  std::vector<std::vector<int>> m_children;  // per body + 1 (0 = base): child bodies
  QString m_error;
};

class ModelTreePanel : public QWidget {
  Q_OBJECT
 public:
  explicit ModelTreePanel(ModelDocument* document, QWidget* parent = nullptr);
  ModelTreeModel* model() const { return m_model; }
  QTreeView* view() const { return m_view; }
  /// Selects a body (-1 base, -2 nothing) without emitting bodySelected.
  void selectBody(int body);
  int selectedBody() const;

  // the context menu's actions, for the menu and for tests
  /// Adds a child body under `body` (-1: base) with a generated name, a revolute joint about z
  /// (planar models: the planar revolute) 0.3 m along the parent's x, a 1 kg rod and its drawing.
  /// Returns the new body's index, or -1 when the edit was refused.
  int addChild(int body);
  /// Duplicates a body's subtree beside it (names get a suffix). Returns the copy's index.
  int duplicate(int body);
  /// Deletes a body with its subtree; asks first when it has children (unless `ask` is false).
  bool remove(int body, bool ask = true);

 signals:
  void bodySelected(int body);

 private:
  void contextMenu(const QPoint& pos);
  ModelDocument* m_doc;
  ModelTreeModel* m_model;
  QTreeView* m_view;
  bool m_selecting = false;
};

}  // namespace art::gui
