#pragma once
// Helpers of the GUI tests that open the bundled broken-kernel examples (assets/scenarios/broken/).
#include "main_window.hpp"
#include "scene/document.hpp"

#include <catch2/catch.hpp>

#include <QString>
#include <QTest>
#include <optional>
#include <string>

namespace layoutscope::views::test {

/// The count the consumer check's diagnostic states for `what` ("<what> reads N of ..."), nullopt: none.
inline std::optional<size_t> diagnosed(const Document& doc, const std::string& what) {
    for (const Diagnostic& d : doc.diagnostics()) {
        const std::string lead = what + " reads ";
        if (d.message.rfind(lead, 0) == 0) return std::stoul(d.message.substr(lead.size()));
    }
    return std::nullopt;
}

/// Open broken/FILE in `w` at 1280x800, shown, with a trace.
inline void openBrokenExample(MainWindow& w, const QString& file) {
    w.resize(1280, 800);
    w.openFile(QString(LAYOUTSCOPE_ASSETS_DIR "/scenarios/broken/") + file);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    REQUIRE(w.document());
    REQUIRE(w.document()->hasTrace());
}

} // namespace layoutscope::views::test
