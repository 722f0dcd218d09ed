#include "scene/camera2d.hpp"

#include <catch2/catch.hpp>
#include <glm/glm.hpp>

using namespace layoutscope::views;

static bool near(glm::vec2 a, glm::vec2 b, float eps = 1e-3f) {
    return glm::all(glm::lessThan(glm::abs(a - b), glm::vec2(eps)));
}

TEST_CASE("Camera2D maps world to screen and back", "[views][camera]") {
    Camera2D cam;
    cam.setViewport({800, 600});
    SECTION("fit shows a 128x64 rectangle centred with square cells") {
        cam.fit({0, 0}, {128, 64});
        CHECK(cam.zoom() == Approx(800.0f / 128.0f)); // width-limited: 6.25 px per cell
        CHECK(near(cam.worldToScreen({64, 32}), {400, 300}));
        CHECK(near(cam.worldToScreen({0, 32}), {0, 300}));
    }
    SECTION("fit leaves margins free") {
        cam.fit({0, 0}, {100, 100}, {100, 50, 0, 50}); // 700 x 500 available
        CHECK(cam.zoom() == Approx(5.0f));
        CHECK(near(cam.worldToScreen({0, 0}), {100 + 100, 50}));
    }
    SECTION("fit against the top margin") {
        cam.fit({0, 0}, {128, 64}, {0, 40, 0, 0}, true);
        CHECK(cam.worldToScreen({0, 0}).y == Approx(40.0f));
    }
    SECTION("screenToWorld inverts worldToScreen") {
        cam.fit({-10, 3}, {50, 77});
        for (glm::vec2 w : {glm::vec2(0, 0), glm::vec2(12.5f, -3), glm::vec2(49, 76)})
            CHECK(near(cam.screenToWorld(cam.worldToScreen(w)), w));
    }
}

TEST_CASE("Camera2D zooms around the cursor and pans with the drag", "[views][camera]") {
    Camera2D cam;
    cam.setViewport({400, 400});
    cam.fit({0, 0}, {40, 40}); // 10 px per cell
    SECTION("the world point under the cursor stays under it") {
        const glm::vec2 cursor{123, 77};
        const glm::vec2 before = cam.screenToWorld(cursor);
        cam.zoomAt(cursor, 2.0f);
        CHECK(cam.zoom() == Approx(20.0f));
        CHECK(near(cam.screenToWorld(cursor), before));
    }
    SECTION("zoom is clamped") {
        cam.zoomAt({0, 0}, 1e9f);
        CHECK(cam.zoom() == Approx(Camera2D::kMaxZoom));
    }
    SECTION("dragging 50 px right moves the content 50 px right") {
        const glm::vec2 s0 = cam.worldToScreen({5, 5});
        cam.pan({50, 0});
        CHECK(near(cam.worldToScreen({5, 5}), s0 + glm::vec2(50, 0)));
    }
}

TEST_CASE("Camera2D projection puts the viewport corners at clip -1/+1 with y down", "[views][camera]") {
    Camera2D cam;
    cam.setViewport({200, 100});
    cam.fit({0, 0}, {20, 10});
    const glm::mat4 vp = cam.viewProjection();
    const glm::vec2 tl = cam.screenToWorld({0, 0}), br = cam.screenToWorld({200, 100});
    const glm::vec4 a = vp * glm::vec4(tl, 0, 1), b = vp * glm::vec4(br, 0, 1);
    CHECK(a.x == Approx(-1.0f));
    CHECK(a.y == Approx(1.0f)); // top of the screen is clip +1
    CHECK(b.x == Approx(1.0f));
    CHECK(b.y == Approx(-1.0f));
}

TEST_CASE("Camera2D Fill fit stretches cells so the region fills the free area", "[views][camera]") {
    // Tensor Memory "fit to allocation": 32 columns x 128 lanes in a 900 x 300 pane with margins
    // left 100, top 60, right 0, bottom 40 -> 800 x 200 px free: 25 px per column, 1.5625 px per lane.
    Camera2D cam;
    cam.setViewport({900, 300});
    cam.fit({0, 0}, {32, 128}, {100, 60, 0, 40}, true, Camera2D::FitMode::Fill);
    CHECK(cam.zoomXY().x == Approx(25.0f));
    CHECK(cam.zoomXY().y == Approx(1.5625f));
    CHECK(cam.zoom() == Approx(1.5625f)); // the smaller side
    CHECK(near(cam.worldToScreen({0, 0}), {100, 60}));
    CHECK(near(cam.worldToScreen({32, 128}), {900, 260}));
    SECTION("picking at non-square zoom: each pixel maps to the cell drawn under it") {
        // Column c spans x in [100 + 25c, 125 + 25c); lane l spans y in [60 + 1.5625 l, ...).
        CHECK(near(cam.screenToWorld({112.5f, 60.78125f}), {0.5f, 0.5f}));
        const glm::vec2 w = cam.screenToWorld({100 + 25 * 7 + 24, 60 + 1.5625f * 100 + 1});
        CHECK(int(w.x) == 7);
        CHECK(int(w.y) == 100);
        const glm::vec2 w2 = cam.screenToWorld({100 + 25 * 8 + 1, 60 + 1.5625f * 100 + 0.2f});
        CHECK(int(w2.x) == 8);
        CHECK(int(w2.y) == 100);
    }
    SECTION("zoomAt keeps the ratio and the point under the cursor") {
        const glm::vec2 cursor{400, 150};
        const glm::vec2 before = cam.screenToWorld(cursor);
        cam.zoomAt(cursor, 2.0f);
        CHECK(cam.zoomXY().x == Approx(50.0f));
        CHECK(cam.zoomXY().y == Approx(3.125f));
        CHECK(near(cam.screenToWorld(cursor), before));
        cam.zoomAt(cursor, 1e9f); // clamped where the larger side reaches kMaxZoom, ratio kept
        CHECK(cam.zoomXY().x == Approx(Camera2D::kMaxZoom));
        CHECK(cam.zoomXY().y == Approx(Camera2D::kMaxZoom / 16.0f));
    }
    SECTION("the projection puts the region's corners at the free area's corners in clip space") {
        const glm::mat4 vp = cam.viewProjection();
        const glm::vec4 a = vp * glm::vec4(0, 0, 0, 1), b = vp * glm::vec4(32, 128, 0, 1);
        CHECK(a.x == Approx(-1.0f + 2.0f * 100 / 900)); // x = 100 px
        CHECK(a.y == Approx(1.0f - 2.0f * 60 / 300));   // y = 60 px from the top
        CHECK(b.x == Approx(1.0f));
        CHECK(b.y == Approx(1.0f - 2.0f * 260 / 300));
    }
}
