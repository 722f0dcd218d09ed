// Examples menu: titles and tooltips from each scenario's header comment, listed dynamically.
#include "examples_menu.hpp"

#include <catch2/catch.hpp>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
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
    SECTION("a title wrapped onto a second line is joined, whole, without its spec reference") {
        write(tmp.filePath("w.scn"), "# tcgen05.cp .64x128b (PTX ISA 9.2 section 9.7.16.9.1): 64 source rows "
                                     "of 16 B,\n# multicast to lane quarters\n");
        const ExampleScenario w = readExampleHeader(tmp.filePath("w.scn"));
        CHECK(w.title == "tcgen05.cp .64x128b: 64 source rows of 16 B, multicast to lane quarters");
        CHECK(w.description == "tcgen05.cp .64x128b (PTX ISA 9.2 section 9.7.16.9.1): 64 source rows of 16 "
                               "B, multicast to lane quarters");
    }
    SECTION("the title is the first sentence; the tooltip keeps the paragraph") {
        write(tmp.filePath("s.scn"),
              "# Multicast in a 2x2 cluster. %cluster_ctarank r = x + 2*y (PTX ISA 9.2 "
              "\xc2\xa7"
              "9.7.9.25).\n");
        const ExampleScenario t = readExampleHeader(tmp.filePath("s.scn"));
        CHECK(t.title == "Multicast in a 2x2 cluster");
        CHECK(t.description.startsWith("Multicast in a 2x2 cluster. %cluster_ctarank"));
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

TEST_CASE("The bundled examples are grouped by topic, with whole titles", "[views][gui][examples]") {
    const auto examples = listExamples(LAYOUTSCOPE_ASSETS_DIR "/scenarios");
    auto topicOf = [&](const char* name) {
        for (const ExampleScenario& e : examples)
            if (QFileInfo(e.path).completeBaseName() == name) return exampleTopic(e);
        return QString("(missing)");
    };
    // Hand-assigned from each file's subject.
    CHECK(topicOf("tma_tile_sw64") == "TMA tiles && swizzle");
    CHECK(topicOf("tma_store_tile") == "TMA tiles && swizzle");
    CHECK(topicOf("tma_oob_edge_tile") == "OOB && strides");
    CHECK(topicOf("tma_im2col_conv") == "im2col");
    CHECK(topicOf("tma_multicast_cluster2x2") == "Multicast");
    CHECK(topicOf("tma_gather4_rows") == "gather4");
    CHECK(topicOf("tcgen05_st_32x32b") == "tcgen05 ld / st");
    CHECK(topicOf("tcgen05_shift_down") == "tcgen05 ld / st");
    CHECK(topicOf("tcgen05_cp_128x256b") == "tcgen05 cp");
    CHECK(topicOf("tcgen05_cp_64x128b_warpx2_02_13_b6") == "Decompression");
    CHECK(topicOf("tma_fp4_to_tmem") == "Decompression");
    CHECK(topicOf("tcgen05_mma_i8_128x64") == "tcgen05 mma");
    CHECK(topicOf("wgmma_m64n8k16_d") == "wgmma");
    for (const ExampleScenario& e : examples) {
        INFO(e.path.toStdString());
        CHECK_FALSE(exampleTopic(e).isEmpty()); // every bundled example has a group
        CHECK_FALSE(e.title.contains(QString::fromUtf8("\u2026")));
    }
    QMenu menu;
    attachExamplesMenu(&menu, LAYOUTSCOPE_ASSETS_DIR "/scenarios", [](const QString&) {});
    emit menu.aboutToShow();
    QStringList subs;
    for (QAction* a : menu.actions())
        if (a->menu()) subs << a->text();
    for (const QString& t : exampleTopics()) CHECK(subs.contains(t));
    CHECK(subs.contains("Broken kernels (diagnosed)"));
}
