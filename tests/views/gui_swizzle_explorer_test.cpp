// Qt Test interaction with the swizzle explorer: picking a mode updates the CuTe line, and hovering
// a logical element shows where it lands (hand-derived from tma.md §4.2: 128B, fp16, element (1, 0)
// at A = 128 -> chunk 0 ^ 1 -> P = 0x90).
#include "cell_canvas.hpp"
#include "gui_test_util.hpp"
#include "swizzle_explorer.hpp"
#include "swizzle_explorer_dock.hpp"
#include "window_grab.hpp"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QMainWindow>
#include <QTest>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("Swizzle explorer: picking 128B shows Sw<3,4,3> and the element form",
          "[views][gui][swizzle-explorer]") {
    SwizzleExplorer e;
    e.resize(900, 600);
    e.show();
    REQUIRE(QTest::qWaitForWindowExposed(&e));
    auto* mode = e.findChild<QComboBox*>("swizzleMode");
    REQUIRE(mode);
    SECTION("pick 32B then 128B with the combo box") {
        mode->setCurrentIndex(mode->findText("32B"));
        CHECK(e.cuteText().contains("Sw<1,4,3>"));
        mode->setCurrentIndex(mode->findText("128B"));
        CHECK(e.cuteText().contains("Sw<3,4,3>"));
        CHECK(e.cuteText().contains("Sw<3,3,3>")); // 2-B elements by default
        CHECK(e.bitText().contains("bits [4,7) ^= bits [7,10)"));
        e.setElemBytes(4);
        CHECK(e.cuteText().contains("Sw<3,2,3>"));
    }
    SECTION("hovering logical element (1, 0) names physical 0x90, chunk 1") {
        e.setMode(TensorSwizzle::S128B);
        e.setElemBytes(2);
        const auto cells = e.cellsOfElement(1, 0);
        REQUIRE(cells);
        CHECK(cells->second == QPoint(64 + 6 + 8, 1)); // physical slot 72 = line 1, slot 8
        REQUIRE(test::hover(e.canvas(), e.canvas()->cellCentre(0, 1).toPoint()));
        const QString text = e.canvas()->inspectorText();
        CHECK(text.contains("physical P = 0x90"));
        CHECK(text.contains("SWIZZLE_128B"));
        const QString dir = qEnvironmentVariable("LAYOUTSCOPE_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QTest::qWait(200);
            grabWithCanvases(e).save(dir + "/swizzle_explorer_128b.png");
        }
    }
}

TEST_CASE("Swizzle explorer dock: one call adds it to a main window", "[views][gui][swizzle-explorer]") {
    QMainWindow w;
    QDockWidget* dock = addSwizzleExplorerDock(w);
    REQUIRE(dock);
    CHECK(dock->objectName() == "swizzleExplorerDock");
    auto* e = dock->findChild<SwizzleExplorer*>();
    REQUIRE(e);
    CHECK(e->cuteText().contains("Sw<3,4,3>")); // opens on 128B, the common mode
}

TEST_CASE("Swizzle explorer: every mode renders (screenshots with LAYOUTSCOPE_SCREENSHOT_DIR)",
          "[views][gui][swizzle-explorer]") {
    SwizzleExplorer e;
    e.resize(900, 600);
    e.show();
    REQUIRE(QTest::qWaitForWindowExposed(&e));
    const QString dir = qEnvironmentVariable("LAYOUTSCOPE_SCREENSHOT_DIR");
    for (TensorSwizzle m :
         {TensorSwizzle::NONE, TensorSwizzle::S32B, TensorSwizzle::S64B, TensorSwizzle::S128B_ATOM_32B,
          TensorSwizzle::S128B_ATOM_32B_FLIP_8B, TensorSwizzle::S128B_ATOM_64B}) {
        e.setMode(m);
        CHECK(e.mode() == m);
        CHECK_FALSE(e.bitText().isEmpty());
        if (!dir.isEmpty()) {
            QTest::qWait(100);
            grabWithCanvases(e).save(dir + "/swizzle_explorer_mode" + QString::number(static_cast<int>(m)) +
                                     ".png");
        }
    }
    e.setMode(TensorSwizzle::S128B_ATOM_32B_FLIP_8B);
    CHECK(e.cuteText().contains("no single Swizzle"));
    CHECK(e.cuteText().contains("open question 1"));
}

TEST_CASE("Swizzle explorer: bank conflicts of a 16-B column read, unswizzled vs 128B",
          "[views][gui][swizzle-explorer]") {
    // Hand-derived (banks_test.cpp): 8 rows per quarter-warp hit banks 0..3 unswizzled -> 32 wavefronts;
    // 128B puts row r's chunk at c ^ (r%8) -> 4 wavefronts, no excess.
    SwizzleExplorer e;
    auto* pattern = e.findChild<QComboBox*>("bankPattern");
    REQUIRE(pattern);
    pattern->setCurrentIndex(3); // column of 16-B chunks
    e.setMode(TensorSwizzle::NONE);
    CHECK(e.bankText().contains("= 32 wavefronts (ideal 4, 28 excess)"));
    e.setMode(TensorSwizzle::S128B);
    CHECK(e.bankText().contains("= 4 wavefronts (ideal 4, 0 excess)"));
}

TEST_CASE("Swizzle explorer: the captions over the two images never overlap, at any dock width",
          "[views][gui][swizzle-explorer][layout]") {
    SwizzleExplorer e;
    e.show();
    REQUIRE(QTest::qWaitForWindowExposed(&e));
    const auto width = GENERATE(260, 320, 420, 900);
    const auto mode =
        GENERATE(TensorSwizzle::NONE, TensorSwizzle::S128B, TensorSwizzle::S128B_ATOM_32B_FLIP_8B);
    e.setMode(mode);
    e.setElemBytes(mode == TensorSwizzle::NONE ? 16 : 2);
    e.resize(width, 600);
    QTest::qWait(50);
    CellCanvas* c = e.canvas();
    const glm::vec2 vp(float(c->width()), float(c->height()));
    INFO("canvas " << vp.x << " x " << vp.y);
    const OverlayList o = c->frameOverlay(vp);
    REQUIRE(o.texts.size() >= 4);
    auto box = [](const OverlayList::Text& t) {
        return QRectF(t.pos.x, t.pos.y, approxTextWidth(t.text), 16.0);
    };
    for (size_t i = 0; i < o.texts.size(); ++i) {
        INFO("'" << o.texts[i].text << "' at " << o.texts[i].pos.x << "," << o.texts[i].pos.y);
        CHECK(box(o.texts[i]).right() <= vp.x + 0.5); // inside the canvas
        for (size_t j = i + 1; j < o.texts.size(); ++j)
            if (!o.texts[i].text.empty() && !o.texts[j].text.empty())
                CHECK_FALSE(box(o.texts[i]).intersects(box(o.texts[j])));
    }
}
