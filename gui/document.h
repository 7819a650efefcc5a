#pragma once
// ModelDocument: the one editable copy of the open model, with its undo stack. Every change
// is a QUndoCommand with a readable name ("Add body 'link3'", "Set camera"); a command keeps
// the model before and after, so undo and redo restore it exactly. Continuous edits with the
// same merge key (a slider drag) merge into one command. Views read spec() and react to
// changed().

#include <QObject>
#include <QString>
#include <QUndoStack>

#include "articulate/model/spec.h"

namespace art::gui {

class ModelDocument : public QObject {
  Q_OBJECT
 public:
  /// What an edit changed: only values (sizes and bodies stay), or the structure (bodies
  /// added, removed or reordered: state sizes may change).
  enum class Change { Values, Structure };

  explicit ModelDocument(QObject* parent = nullptr);

  const ModelSpec& spec() const { return m_spec; }
  QUndoStack* undoStack() { return &m_undo; }
  /// Whether the model differs from the last setClean() (a save or a load).
  bool isModified() const { return !m_undo.isClean(); }
  void setClean() { m_undo.setClean(); }
  /// Marks the model modified without an edit (a recovered document differs from its file);
  /// undoing can no longer make it clean.
  void markModified() { m_undo.resetClean(); }

  /// Starts a new document (no undo history, clean).
  void reset(const ModelSpec& spec);

  /// Pushes an edit named `name`: `edit` changes a copy of the model; the copy must compile
  /// (compile() in model.h) or the edit is refused with the reason (nothing changes). A
  /// nonzero `mergeKey` merges with the previous command of the same key and name. An edit
  /// that changes nothing (a drag released where it began) pushes nothing.
  /// Returns an empty string on success, else the reason.
  template <class Edit>
  QString edit(const QString& name, Edit&& edit, Change change = Change::Values, int mergeKey = 0) {
    ModelSpec after = m_spec;
    try {
      edit(after);
    } catch (const std::exception& e) {
      return QString::fromStdString(e.what());
    }
    return push(name, std::move(after), change, mergeKey);
  }

 signals:
  /// The model changed (an edit, an undo, a redo or a reset).
  void changed(art::gui::ModelDocument::Change change);

 private:
  friend class SpecCommand;
  QString push(const QString& name, ModelSpec after, Change change, int mergeKey);
  void apply(const ModelSpec& spec, Change change);
  ModelSpec m_spec;
  QUndoStack m_undo;
};

}  // namespace art::gui
