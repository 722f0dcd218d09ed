// Examples menu: titles and tooltips from each scenario's header comment, listed dynamically.
#include "examples_menu.hpp"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QMenu>
#include <QTemporaryDir>

using namespace layoutscope::views;

namespace {
void write(const QString& path, const char* text) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly | QIODevice::Text));
    f.write(text);
}
} // namespace

TEST_CASE("An example's title is its first comment line and its tooltip the rest of the header",
          "[views][gui][examples]") {
    QTemporaryDir tmp;
    const QString p = tmp.filePath("b_demo.scn");
    write(p, "# Demo: a 64x64 tile\n#\n# First paragraph\n# continues here.\n#\n# Second one.\n.tensor A;\n# "
             "not header\n");
    const ExampleScenario e = readExampleHeader(p);
    CHECK(e.title == "Demo: a 64x64 tile");
    CHECK(e.description == "First paragraph continues here.\n\nSecond one.");
    SECTION("a title wrapped onto a second line is joined; a long one is cut at a word") {
        write(tmp.filePath("w.scn"), "# tcgen05.cp .64x128b (PTX ISA 9.2 section 9.7.16.9.1): 64 source rows "
                                     "of 16 B,\n# multicast to lane quarters\n");
        const ExampleScenario w = readExampleHeader(tmp.filePath("w.scn"));
        CHECK(w.title == QString::fromUtf8("tcgen05.cp .64x128b (PTX ISA 9.2 section 9.7.16.9.1): 64 source "
                                           "rows of 16 B, \u2026")); // last word boundary within 80 chars
        CHECK(w.description == "tcgen05.cp .64x128b (PTX ISA 9.2 section 9.7.16.9.1): 64 source rows of 16 "
                               "B, multicast to lane quarters");
    }
    SECTION("no header comment: the file name is the title") {
        write(tmp.filePath("a_bare.scn"), ".tensor A;\n");
        CHECK(readExampleHeader(tmp.filePath("a_bare.scn")).title == "a_bare");
        CHECK(readExampleHeader(tmp.filePath("a_bare.scn")).description.isEmpty());
    }
}

TEST_CASE("The examples menu lists every .scn each time it opens", "[views][gui][examples]") {
    QTemporaryDir tmp;
    write(tmp.filePath("one.scn"), "# One\n");
    write(tmp.filePath("notes.txt"), "# not a scenario\n");
    QMenu menu;
    QString opened;
    attachExamplesMenu(&menu, tmp.path(), [&](const QString& p) { opened = p; });
    emit menu.aboutToShow();
    REQUIRE(menu.actions().size() == 1);
    CHECK(menu.actions()[0]->text() == "One");
    write(tmp.filePath("two.scn"), "# Two\n#\n# with a description\n"); // added while the app runs
    emit menu.aboutToShow();
    REQUIRE(menu.actions().size() == 2);
    CHECK(menu.actions()[1]->text() == "Two");
    CHECK(menu.actions()[1]->toolTip() == "two.scn\n\nwith a description");
    menu.actions()[1]->trigger();
    CHECK(opened == tmp.filePath("two.scn"));
}

TEST_CASE("Every bundled scenario appears with an annotated title", "[views][gui][examples]") {
    const auto examples = listExamples(LAYOUTSCOPE_ASSETS_DIR "/scenarios");
    const QStringList files = QDir(LAYOUTSCOPE_ASSETS_DIR "/scenarios").entryList({"*.scn"}, QDir::Files);
    REQUIRE(examples.size() == size_t(files.size()));
    for (const ExampleScenario& e : examples) {
        INFO(e.path.toStdString());
        CHECK(e.title != QFileInfo(e.path).completeBaseName()); // each has a header comment
        CHECK_FALSE(e.title.isEmpty());
    }
}
