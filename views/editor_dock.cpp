#include "editor_dock.hpp"

#include "recovery_store.hpp"
#include "scenario_checker.hpp"
#include "scenario_highlighter.hpp"

#include <QFile>
#include <QFrame>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

namespace layoutscope::views {

EditorDock::EditorDock(QWidget* parent)
    : QWidget(parent), m_editor(new CodeEditor(this)), m_list(new QListWidget(this)),
      m_state(new QLabel(this)),
      m_checker(
          new ScenarioChecker([this](std::unique_ptr<Document> d) { applyCheck(std::move(d)); }, this)) {
    setObjectName("scenarioEditor");
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    QFont mono("DejaVu Sans Mono");
    mono.setStyleHint(QFont::Monospace);
    m_editor->setFont(mono);
    m_editor->setObjectName("scenarioText");
    m_highlighter = new ScenarioHighlighter(m_editor->document());
    m_list->setFont(mono);
    m_list->setWordWrap(true);
    m_list->setObjectName("diagnosticsList");
    m_state->setWordWrap(true);
    lay->addWidget(m_editor, 3);
    lay->addWidget(m_state);
    lay->addWidget(m_list, 1);
    buildFileUi();
    lay->insertWidget(0, m_bar);

    m_timer.setSingleShot(true);
    m_timer.setInterval(250);
    connect(&m_timer, &QTimer::timeout, this, &EditorDock::checkNow);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading) return;
        m_checker->cancel(); // a check of the text before this keystroke is stale
        m_timer.start();
    });
    connect(m_editor->document(), &QTextDocument::modificationChanged, this, &EditorDock::modifiedChanged);
    const auto jump = [this](QListWidgetItem* it) {
        const int i = it->data(Qt::UserRole).toInt();
        if (i >= 0 && size_t(i) < m_editor->diagnostics().size())
            m_editor->jumpTo(m_editor->diagnostics()[size_t(i)]);
    };
    connect(m_list, &QListWidget::itemActivated, this, jump);
    connect(m_list, &QListWidget::itemClicked, this, jump);
}

std::string EditorDock::displayName() const {
    return m_path.isEmpty() ? std::string("(unsaved)") : m_path.toStdString();
}

void EditorDock::showDocument(const Document& doc, bool fromDisk) {
    m_timer.stop();
    m_checker->cancel(); // this document replaces whatever a pending check would bring
    const QString path = QString::fromStdString(doc.path());
    if (!fromDisk && path != m_statePath) { // a document that did not come through loadFile
        QFile f(path);
        const bool readable =
            !path.isEmpty() && f.size() <= qint64(kMaxScenarioBytes) && f.open(QIODevice::ReadOnly);
        setFileState(path, readable ? f.readAll() : QByteArray(), readable);
        m_shownText = QString::fromStdString(m_loadedText);
    }
    if (path != m_path) {
        m_path = path;
        emit pathChanged(m_path);
    }
    const QString text = QString::fromStdString(doc.text());
    if (m_editor->toPlainText() != text) {
        m_loading = true;
        m_editor->setPlainText(text);
        m_loading = false;
    }
    if (fromDisk) {
        m_loading = true; // not an undo back to the saved text: keep the file's recovery
        m_editor->document()->setModified(false);
        m_loading = false;
        m_shownText = editorText();
    }
    m_editor->setDiagnostics(doc.diagnostics());
    fillList(doc.diagnostics(), doc.hasTrace());
}

void EditorDock::checkNow() {
    m_timer.stop();
    m_checker->request(m_editor->toPlainText().toStdString(), m_path.toStdString());
}

bool EditorDock::checking() const {
    return m_timer.isActive() || m_checker->pending();
}

void EditorDock::applyCheck(std::unique_ptr<Document> doc) {
    m_editor->setDiagnostics(doc->diagnostics());
    fillList(doc->diagnostics(), doc->hasTrace());
    if (doc->hasTrace() && m_run) m_run(std::move(doc));
}

void EditorDock::fillList(const std::vector<Diagnostic>& diags, bool hasTrace) {
    m_list->clear();
    const std::string name = displayName();
    int errors = 0;
    for (size_t i = 0; i < diags.size(); ++i) {
        const Diagnostic& d = diags[i];
        errors += d.severity == Severity::Error ? 1 : 0;
        auto* it = new QListWidgetItem(QString::fromStdString(formatDiagnostic(d, name)), m_list);
        it->setData(Qt::UserRole, int(i));
        it->setForeground(d.severity == Severity::Error ? QColor(220, 70, 60) : QColor(200, 140, 30));
        it->setToolTip(m_editor->tooltipAt(d.span.valid() ? m_editor->spanRange(d).first : -1));
    }
    // A check mark only when nothing is wrong: a run with errors is red, one with warnings amber
    // (issue 24 item 6: a green check stood beside "1 diagnostic(s)" of a planted bug).
    const int warnings = int(diags.size()) - errors;
    QString colour;
    if (m_editor->toPlainText().trimmed().isEmpty()) {
        m_state->setText("No scenario: open one (File > Open, Examples) or type it here.");
    } else if (hasTrace && diags.empty()) {
        m_state->setText("✔ valid: the views show this text");
        colour = "rgb(60, 170, 80)";
    } else if (hasTrace && errors == 0) {
        m_state->setText(QString("⚠ runs, with %1 warning(s)").arg(warnings));
        colour = "rgb(215, 150, 30)";
    } else if (hasTrace) {
        m_state->setText(QString("✘ runs, with %1 error(s)%2: see the list")
                             .arg(errors)
                             .arg(warnings ? QString(" and %1 warning(s)").arg(warnings) : QString()));
        colour = "rgb(230, 60, 50)";
    } else {
        m_state->setText(
            QString("✘ %1 error(s): the views keep the last valid run").arg(std::max(errors, 1)));
        colour = "rgb(230, 60, 50)";
    }
    m_state->setStyleSheet(colour.isEmpty() ? QString() : "QLabel { color: " + colour + "; }");
    emit diagnosticsChanged();
}

QString EditorDock::diagnosticsText() const {
    QStringList lines;
    for (int i = 0; i < m_list->count(); ++i) lines << m_list->item(i)->text();
    return lines.join('\n');
}

bool EditorDock::isModified() const {
    return m_editor->document()->isModified();
}

void EditorDock::setDark(bool dark) {
    m_highlighter->setDark(dark);
    m_editor->setDark(dark);
}

} // namespace layoutscope::views
