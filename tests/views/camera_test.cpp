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
