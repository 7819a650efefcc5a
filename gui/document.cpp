// The document and its snapshot commands (see document.h).
#include "document.h"

#include <QUndoCommand>

#include "articulate/model/model.h"

namespace art::gui {

class SpecCommand : public QUndoCommand {
 public:
  SpecCommand(ModelDocument* doc, const QString& name, ModelSpec before, ModelSpec after,
              ModelDocument::Change change, int mergeKey)
      : QUndoCommand(name),
        m_doc(doc),
        m_before(std::move(before)),
        m_after(std::move(after)),
        m_change(change),
        m_key(mergeKey) {}
  void undo() override { m_doc->apply(m_before, m_change); }
  void redo() override { m_doc->apply(m_after, m_change); }
  int id() const override { return m_key ? m_key : -1; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* o = dynamic_cast<const SpecCommand*>(other);
    if (!o || o->m_key != m_key || o->text() != text()) return false;
    m_after = o->m_after;
    if (o->m_change == ModelDocument::Change::Structure) m_change = o->m_change;
    return true;
  }

 private:
  ModelDocument* m_doc;
  ModelSpec m_before, m_after;
  ModelDocument::Change m_change;
  int m_key;
};

ModelDocument::ModelDocument(QObject* parent) : QObject(parent) {}

void ModelDocument::reset(const ModelSpec& spec) {
  m_undo.clear();
  m_spec = spec;
  m_undo.setClean();
  emit changed(Change::Structure);
}

QString ModelDocument::push(const QString& name, ModelSpec after, Change change, int mergeKey) {
  try {
    compile(after);
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  m_undo.push(new SpecCommand(this, name, m_spec, std::move(after), change, mergeKey));
  return {};
}

void ModelDocument::apply(const ModelSpec& spec, Change change) {
  m_spec = spec;
  emit changed(change);
}

}  // namespace art::gui
