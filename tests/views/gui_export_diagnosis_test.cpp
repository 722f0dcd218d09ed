// Headless export of all views carries the diagnosis (issue 24 item 6: exporting a bug showed no
// diagnosis): a band under the views, its fill dark red when there are errors, none without diagnostics.
#include "export_view.hpp"
#include "scene/document.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope::views;

namespace {
const std::string kScenarios = std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/";
constexpr QRgb kBandError = 0xFF3A1212; // export_view.cpp: rgb(58, 18, 18)
} // namespace

TEST_CASE("Export of all views: the diagnosis band under the views", "[views][gui][export]") {
    const QSize size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    SECTION("a planted bug (its '# diagnosis:' is an error): a red band at the bottom") {
        auto doc = Document::fromFile(kScenarios + "broken/expect_tx_too_small.scn");
        REQUIRE(doc->hasTrace());
        REQUIRE_FALSE(doc->diagnostics().empty());
        const ExportResult r = renderView(*doc, ExportView::All, UINT32_MAX, size, ViewOptions{});
        REQUIRE(r.ok);
        CHECK(r.image.size() == size);
        CHECK(r.image.pixel(2, size.height() - 3) == kBandError);
        CHECK(r.image.pixel(size.width() - 3, size.height() - 3) == kBandError);
    }
    SECTION("its fixed twin runs clean: no band") {
        auto doc = Document::fromFile(kScenarios + "broken/expect_tx_too_small_fixed.scn");
        REQUIRE(doc->hasTrace());
        REQUIRE(doc->diagnostics().empty());
        const ExportResult r = renderView(*doc, ExportView::All, UINT32_MAX, size, ViewOptions{});
        REQUIRE(r.ok);
        CHECK(r.image.size() == size);
        CHECK(r.image.pixel(2, size.height() - 3) != kBandError);
    }
}
