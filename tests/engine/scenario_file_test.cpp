// readScenarioFile and the scenario size limit (docs/scenario-format.md "Limits", issue 11): a bounded
// read, so a device or an endless pipe ends with the size rule instead of reading forever.
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace layoutscope;

namespace {

std::string tempFile(const std::string& name, const std::string& bytes) {
    const auto p = std::filesystem::temp_directory_path() / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
}

} // namespace

TEST_CASE("the scenario size limit is 16 MiB", "[scenario][limits]") {
    STATIC_REQUIRE(kMaxScenarioBytes == 16u * 1024 * 1024);
    SECTION("parseScenario rejects a longer text at 1:1 naming the rule") {
        const std::string text(kMaxScenarioBytes + 1, ' ');
        const auto r = parseScenario(text);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().span.line == 1);
        CHECK(r.error().span.column == 1);
        CHECK(r.error().message.find("larger than the 16 MiB limit") != std::string::npos);
        CHECK(r.error().ruleRef.find("size limit") != std::string::npos);
    }
    SECTION("a text of exactly the limit is parsed (here: no instruction to run)") {
        const std::string text(kMaxScenarioBytes, ' ');
        const auto r = parseScenario(text);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("no instruction to run") != std::string::npos);
    }
}

TEST_CASE("readScenarioFile reads at most the limit", "[scenario][limits]") {
    SECTION("a file's bytes come back unchanged (CR, NUL, BOM included)") {
        const std::string bytes = std::string("\xEF\xBB\xBF"
                                              "target sm_90a\r\n\0x",
                                              20);
        const auto r = readScenarioFile(tempFile("layoutscope_read_ok.scn", bytes));
        REQUIRE(r.ok());
        CHECK(*r == bytes);
    }
    SECTION("one byte over the limit is an io error naming the size rule") {
        const auto r =
            readScenarioFile(tempFile("layoutscope_read_big.scn", std::string(kMaxScenarioBytes + 1, '#')));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == DiagCode::Io);
        CHECK(r.error().ruleRef.find("size limit") != std::string::npos);
    }
    SECTION("an endless device is refused before a byte is read (regular files only, issue 25)") {
        if (!std::filesystem::exists("/dev/zero")) {
            WARN("no /dev/zero here");
            return;
        }
        const auto r = readScenarioFile("/dev/zero");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("not a regular file") != std::string::npos);
    }
    SECTION("a missing file and a directory are io errors") {
        CHECK(readScenarioFile("/nonexistent/layoutscope.scn").error().code == DiagCode::Io);
        CHECK(readScenarioFile(std::filesystem::temp_directory_path().string()).error().code == DiagCode::Io);
    }
}
