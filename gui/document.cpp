// The document and its snapshot commands (see document.h).
#include "document.h"

#include <algorithm>

#include <QUndoCommand>

#include "articulate/formats/articulate.h"
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
  QString text = name;
  try {
    if (!after.keyframes.empty() && after.keyframes != m_spec.keyframes) {
      compile(after);  // an edit of the keyframes themselves: checked as they are
    } else if (!after.keyframes.empty()) {
      // an edit of the model: the keyframes that no longer fit its sizes go with it (undo
      // brings them back)
      std::vector<KeyframeSpec> keyframes = std::move(after.keyframes);
      after.keyframes.clear();
      const Model m = compile(after);
      const auto fits = [&](const KeyframeSpec& k) { return k.q.size() == m.nq() && k.qd.size() == m.nv(); };
      const auto dropped = std::count_if(keyframes.begin(), keyframes.end(), [&](const auto& k) { return !fits(k); });
      for (KeyframeSpec& k : keyframes)
        if (fits(k)) after.keyframes.push_back(std::move(k));
      if (dropped) text += tr(" (removes %n keyframe(s) that no longer fit)", nullptr, static_cast<int>(dropped));
      compile(after);
    } else {
      compile(after);
    }
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  if (specToJson(after) == specToJson(m_spec)) return {};  // nothing changed: nothing to undo
  m_undo.push(new SpecCommand(this, text, m_spec, std::move(after), change, mergeKey));
  return {};
}

void ModelDocument::apply(const ModelSpec& spec, Change change) {
  m_spec = spec;
  emit changed(change);
}

}  // namespace art::gui
