// Qt Test of the scenario editor: typing an invalid qualifier puts a wavy-underlined diagnostic at
// the column of the bad token (after the debounce), with a gutter marker, a tooltip and a list row
// in the CLI's `file:line:col: error:` form; fixing it re-runs the scenario and keeps the step.
#include "code_editor.hpp"
#include "editor_dock.hpp"
#include "main_window.hpp"
#include "window_grab.hpp"

#include <catch2/catch.hpp>

#include <QListWidget>
#include <QTest>
#include <QTextBlock>
#include <algorithm>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
const QString kScn = QStringLiteral(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_64x64_f16_sw128.scn");

/// Line (1-based) and column (1-based) of the first occurrence of `needle` in `text`.
std::pair<int, int> lineColOf(const QString& text, const QString& needle) {
    const QStringList lines = text.split('\n');
    for (int i = 0; i < lines.size(); ++i)
        if (const qsizetype c = lines[i].indexOf(needle); c >= 0) return {i + 1, int(c) + 1};
    return {0, 0};
}

/// Select `needle` in the editor and type `replacement` over it, key by key.
void typeOver(CodeEditor* ed, const QString& needle, const QString& replacement) {
    const qsizetype at = ed->toPlainText().indexOf(needle);
    REQUIRE(at >= 0);
    QTextCursor c(ed->document());
    c.setPosition(int(at));
    c.setPosition(int(at + needle.size()), QTextCursor::KeepAnchor);
    ed->setTextCursor(c);
    ed->setFocus();
    QTest::keyClicks(ed, replacement);
}

bool hasWaveAt(const CodeEditor* ed, int pos) {
    for (const QTextEdit::ExtraSelection& s : ed->extraSelections())
        if (s.format.underlineStyle() == QTextCharFormat::WaveUnderline && s.cursor.selectionStart() <= pos &&
            pos < s.cursor.selectionEnd())
            return true;
    return false;
}
} // namespace

TEST_CASE("Typing a bad qualifier shows an inline diagnostic at its column", "[views][gui][editor]") {
    MainWindow w;
    w.resize(1400, 900);
    w.openFile(kScn);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    REQUIRE(w.document()->hasTrace());
    EditorDock* dock = w.editorDock();
    CodeEditor* ed = dock->editor();
    REQUIRE(ed->diagnostics().empty());
    const uint32_t steps = w.document()->trace().stepCount;
    w.playback()->seek(100);

    SECTION("an unknown state space qualifier on cp.async.bulk.tensor") {
        // ".shared::cta" -> ".shared::clustr": not a PTX state space (PTX ISA §9.7.9.25.5.1).
        const QString bad = ".shared::clustr";
        typeOver(ed, ".shared::cta.global", bad + ".global");
        CHECK(ed->diagnostics().empty()); // nothing before the debounce
        CHECK(w.document()->hasTrace());
        QTRY_VERIFY_WITH_TIMEOUT(!ed->diagnostics().empty(), 3000);
        const auto [line, col] = lineColOf(ed->toPlainText(), "cp.async.bulk.tensor");
        const auto [bline, bcol] = lineColOf(ed->toPlainText(), bad);
        // The diagnostic that names the bad qualifier (the engine may add others for the same line).
        const auto& ds = ed->diagnostics();
        const auto it = std::find_if(ds.begin(), ds.end(), [](const Diagnostic& x) {
            return x.message.find("clustr") != std::string::npos;
        });
        REQUIRE(it != ds.end());
        const Diagnostic& d = *it;
        const QString list = dock->diagnosticsText();
        INFO(list.toStdString());
        CHECK(d.severity == Severity::Error);
        CHECK(d.span.line == line);
        // The span is the bad qualifier itself: it starts inside ".shared::clustr" and not at the opcode.
        CHECK(d.span.column >= bcol);
        CHECK(d.span.column < bcol + int(bad.size()));
        const int pos = ed->document()->findBlockByNumber(line - 1).position() + d.span.column - 1;
        CHECK(hasWaveAt(ed, pos));
        const auto [a, b] = ed->spanRange(d);
        CHECK(a == pos);
        CHECK(b - a == int(bad.size())); // exactly the bad token, not the opcode before it
        CHECK(ed->toPlainText().mid(a, b - a) == bad);
        (void)col;
        CHECK(ed->tooltipAt(pos).contains(QString::fromStdString(d.message).toHtmlEscaped()));
        CHECK(list.contains(QString("%1:%2:%3: error: unknown qualifier").arg(kScn).arg(line).arg(bcol)));
        // The views keep the last valid run, at the same step; the title says the text is modified.
        REQUIRE(w.document()->hasTrace());
        CHECK(w.playback()->step() == 100);
        CHECK(w.windowTitle().endsWith(" *"));
        if (const QString dir = qEnvironmentVariable("LAYOUTSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTextCursor c(ed->document());
            c.setPosition(pos + int(bad.size()) + 12);
            ed->setTextCursor(c);
            ed->ensureCursorVisible();
            QTest::qWait(200);
            grabWithCanvases(w).save(dir + "/editor_inline_error.png");
        }

        // Clicking the list row selects the span.
        QListWidget* l = dock->diagnosticsList();
        const int row = int(it - ds.begin());
        REQUIRE(l->count() == int(ds.size()));
        QTest::mouseClick(l->viewport(), Qt::LeftButton, {}, l->visualItemRect(l->item(row)).center());
        CHECK(ed->textCursor().blockNumber() == line - 1);
        CHECK(ed->textCursor().selectionStart() == pos);

        // Fixing it re-runs: no diagnostics, a new document with the same trace length and step.
        const Document* before = w.document();
        typeOver(ed, bad, ".shared::cluster");
        QTRY_VERIFY_WITH_TIMEOUT(w.document() != before, 3000);
        CHECK(ed->diagnostics().empty());
        CHECK(w.document()->hasTrace());
        CHECK(w.document()->trace().stepCount == steps);
        CHECK(w.playback()->step() == 100);
        CHECK(ed->extraSelections().isEmpty());
    }
    SECTION("a syntax error while typing keeps the text and the views") {
        typeOver(ed, "box=[64,64]", "box=[64,");
        QTRY_VERIFY_WITH_TIMEOUT(!ed->diagnostics().empty(), 3000);
        CHECK(ed->toPlainText().contains("box=[64,"));
        CHECK(w.document()->hasTrace());
        CHECK(dock->isModified());
    }
}
