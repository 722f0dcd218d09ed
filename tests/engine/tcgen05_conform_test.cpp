// The tcgen05 engine against every golden/cute file (CuTe-derived maps, descriptors, swizzles).
#include "conform/conform.hpp"

#include <catch2/catch.hpp>

TEST_CASE("conform cute: every golden/cute check passes", "[tcgen05][conform]") {
    auto r = layoutscope::conform::conformCute(std::string(LAYOUTSCOPE_SHARED_DIR) + "/golden/cute");
    REQUIRE(r.ok());
    REQUIRE(r->size() > 100);
    for (const auto& o : *r) {
        INFO(o.id << ": " << o.firstDifference);
        CHECK(o.passed);
    }
}
