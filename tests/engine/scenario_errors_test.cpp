// Malformed scenarios: each gives the expected DiagCode at the offending token's line and column
// (columns counted by hand), and no input crashes the parser.
#include "layoutscope/engine.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

using namespace layoutscope;

namespace {

const char* kHead =
    "target sm_90a\n"                                                                      // 1
    "tensormap A tiled FLOAT16 dims=[4096,4096] strides=[8192] box=[64,64] swizzle=128B\n" // 2
    "smem sA 16384 align=1024\n"                                                           // 3
    "mbarrier bar\n";                                                                      // 4
const char* kLoad = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes ";
// column of the first operand in a line starting with kLoad
constexpr int kOp1 = 78;

Diagnostic firstError(const std::string& text) {
    auto r = parseScenario(text);
    if (r) FAIL("expected a diagnostic for:\n" << text);
    return r.error();
}

void expectAt(const Diagnostic& d, DiagCode code, int line, int column) {
    INFO(formatDiagnostic(d));
    CHECK(d.code == code);
    CHECK(d.span.line == line);
    CHECK(d.span.column == column);
    CHECK_FALSE(d.message.empty());
    CHECK(d.severity == Severity::Error);
}

} // namespace

TEST_CASE("the head used below is clean", "[scenario][diag]") {
    auto r = parseScenario(std::string(kHead) + kLoad + "[sA], [A, {0, 0}], [bar];\n");
    if (!r) FAIL(formatDiagnostic(r.error()));
    CHECK(r->instrs.size() == 1);
    CHECK(std::string(kLoad).size() + 1 == kOp1);
}

TEST_CASE("empty and comment-only files have no instruction", "[scenario][diag]") {
    SECTION("empty") {
        expectAt(firstError(""), DiagCode::InvalidValue, 1, 1);
    }
    SECTION("comments") {
        expectAt(firstError("# nothing\n// here\n\n"), DiagCode::InvalidValue, 1, 1);
    }
    SECTION("declarations only") {
        expectAt(firstError(kHead), DiagCode::InvalidValue, 1, 1);
    }
}

TEST_CASE("binary junk is a syntax error, not a crash", "[scenario][diag]") {
    expectAt(firstError(std::string("\x01\xff\xfe\x00zz", 6)), DiagCode::Syntax, 1, 1);
    expectAt(firstError(std::string(kHead) + "\x7f\x80;"), DiagCode::Syntax, 5, 1);
}

TEST_CASE("malformed and huge numbers in directives", "[scenario][diag]") {
    SECTION("malformed size") {
        expectAt(firstError("smem sA 12x4\n"), DiagCode::Syntax, 1, 9);
    }
    SECTION("huge size") {
        expectAt(firstError("smem sA 99999999999999999999999\n"), DiagCode::InvalidValue, 1, 9);
    }
    SECTION("size over 228 KiB") {
        expectAt(firstError("smem sA 300000\n"), DiagCode::InvalidValue, 1, 9);
    }
    SECTION("alignment not a power of two") {
        expectAt(firstError("smem sA 64 align=96\n"), DiagCode::InvalidValue, 1, 18);
    }
    SECTION("negative dim") {
        expectAt(firstError("tensormap A tiled FLOAT16 dims=[-4,4] box=[4,4]\n"), DiagCode::InvalidValue, 1,
                 33);
    }
    SECTION("huge box entry") {
        //                   1234567890123456789012345678901234567890123456
        expectAt(firstError("tensormap A tiled FLOAT16 dims=[64,64] box=[0x100000000,4]\n"),
                 DiagCode::InvalidValue, 1, 45);
    }
    SECTION("let with junk") {
        expectAt(firstError("let x = 0x\n"), DiagCode::Syntax, 1, 9);
    }
}

TEST_CASE("unterminated brackets and missing pieces", "[scenario][diag]") {
    SECTION("list without ']'") {
        //                   123456789012345678901234567890123456789
        expectAt(firstError("tensormap A tiled FLOAT16 dims=[64,64 box=[64,64]\n"), DiagCode::Syntax, 1, 39);
    }
    SECTION("option without '='") {
        expectAt(firstError("smem sA 64 align 128\n"), DiagCode::Syntax, 1, 18);
    }
    SECTION("tensormap without box") {
        expectAt(firstError("tensormap A tiled FLOAT16 dims=[64,64]\n"), DiagCode::Syntax, 1, 39);
    }
    SECTION("instruction without ';' at end of file") {
        auto text = std::string(kHead) + kLoad + "[sA], [A, {0, 0}], [bar]";
        expectAt(firstError(text), DiagCode::Syntax, 5, kOp1 + 24);
    }
    SECTION("instruction without ';' before a directive") {
        auto text = std::string(kHead) + kLoad + "[sA], [A, {0, 0}], [bar]\nsmem sB 64\n" + kLoad +
                    "[sB], [A, {0, 0}], [bar];\n";
        expectAt(firstError(text), DiagCode::Syntax, 5, kOp1 + 24);
    }
    SECTION("unterminated address in an instruction") {
        auto text = std::string(kHead) + kLoad + "[sA], [A, {0, 0}, [bar];\n";
        // the ',' after the vector continues the address; '[' of [bar] is not an element: column kOp1 + 18
        expectAt(firstError(text), DiagCode::Syntax, 5, kOp1 + 16 + 2);
    }
}

TEST_CASE("names must be declared, once, with the right kind", "[scenario][diag]") {
    SECTION("unknown tensor map") {
        expectAt(firstError(std::string(kHead) + kLoad + "[sA], [B, {0, 0}], [bar];\n"),
                 DiagCode::UnknownName, 5, kOp1 + 7);
    }
    SECTION("unknown buffer") {
        expectAt(firstError(std::string(kHead) + kLoad + "[sX], [A, {0, 0}], [bar];\n"),
                 DiagCode::UnknownName, 5, kOp1 + 1);
    }
    SECTION("a buffer used as the mbarrier") {
        expectAt(firstError(std::string(kHead) + kLoad + "[sA], [A, {0, 0}], [sA];\n"),
                 DiagCode::InvalidValue, 5, kOp1 + 20);
    }
    SECTION("duplicate name") {
        expectAt(firstError(std::string(kHead) + "smem bar 64\n"), DiagCode::InvalidValue, 5, 6);
    }
    SECTION("unknown fill target") {
        expectAt(firstError("fill Q pattern=zero\n"), DiagCode::UnknownName, 1, 6);
    }
    SECTION("let name as coordinate") {
        auto text = std::string(kHead) + "let x = 64\n" + kLoad + "[sA], [A, {x, y}], [bar];\n";
        expectAt(firstError(text), DiagCode::UnknownName, 6, kOp1 + 14);
    }
}

TEST_CASE("operand checks against the tensor map and buffers", "[scenario][diag]") {
    SECTION("box does not fit the buffer") {
        auto text = std::string(kHead) + "smem sB 4096\n" + kLoad + "[sB], [A, {0, 0}], [bar];\n";
        expectAt(firstError(text), DiagCode::InvalidValue, 6, kOp1);
    }
    SECTION("box does not fit from an offset") {
        expectAt(firstError(std::string(kHead) + kLoad + "[sA+8208], [A, {0, 0}], [bar];\n"),
                 DiagCode::InvalidValue, 5, kOp1);
    }
    SECTION("coordinate beyond s32") {
        auto text = std::string(kHead) + kLoad + "[sA], [A, {0x80000000, 0}], [bar];\n";
        expectAt(firstError(text), DiagCode::InvalidValue, 5, kOp1 + 11);
    }
    SECTION("register coordinate") {
        auto text = std::string(kHead) + kLoad + "[sA], [A, {%r1, 0}], [bar];\n";
        expectAt(firstError(text), DiagCode::Unsupported, 5, kOp1 + 11);
    }
    SECTION(".3d on a rank-2 map with 3 coordinates") {
        std::string load3 = kLoad;
        load3.replace(load3.find(".2d"), 3, ".3d");
        auto text = std::string(kHead) + load3 + "[sA], [A, {0, 0, 0}], [bar];\n";
        expectAt(firstError(text), DiagCode::InvalidValue, 5, 21);
    }
    SECTION("ctaMask beyond 16 bits") {
        auto text = std::string("cluster 2\n") + kHead +
                    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes."
                    "multicast::cluster "
                    "[sA], [A, {0, 0}], [bar], 0x10000;\n";
        expectAt(firstError(text), DiagCode::InvalidValue, 6, 101 + 26);
    }
}

TEST_CASE("unsupported instructions are named", "[scenario][diag]") {
    // st.shared / ld.shared / ldmatrix are consumer access patterns now (smem_access_test.cpp).
    auto d = firstError(std::string(kHead) + "  st.global.b32 [gptr], r0;\n");
    expectAt(d, DiagCode::Unsupported, 5, 3);
    CHECK(d.message.find("st.global.b32") != std::string::npos);
    // tcgen05 runs in scenarios now (tcgen05_scenario_test.cpp), but not on the sm_90a default target.
    expectAt(firstError(std::string(kHead) + "  tcgen05.ld.sync.aligned.32x32b.x1.b32 {r0}, [taddr];\n"),
             DiagCode::TargetMismatch, 5, 3);
    expectAt(firstError(std::string(kHead) + "@p " + kLoad + "[sA], [A, {0, 0}], [bar];\n"),
             DiagCode::Unsupported, 5, 1);
}

TEST_CASE("header directives", "[scenario][diag]") {
    SECTION("pre-TMA target") {
        expectAt(firstError("target sm_80\n"), DiagCode::TargetMismatch, 1, 8);
    }
    SECTION("not a target") {
        expectAt(firstError("target hopper\n"), DiagCode::InvalidValue, 1, 8);
    }
    SECTION("cluster too big") {
        expectAt(firstError("cluster 4x4x2\n"), DiagCode::InvalidValue, 1, 9);
    }
    SECTION("cta outside the cluster") {
        expectAt(firstError("cluster 2\ncta 2\n"), DiagCode::InvalidValue, 2, 5);
    }
    SECTION("target twice") {
        expectAt(firstError("target sm_90a\ntarget sm_100a\n"), DiagCode::InvalidValue, 2, 1);
    }
    SECTION("bad ptx version") {
        expectAt(firstError("ptx 8\n"), DiagCode::Syntax, 1, 5);
    }
    SECTION("buffer in a CTA outside the cluster") {
        expectAt(firstError("smem sA 64 cta=1\n"), DiagCode::InvalidValue, 1, 16);
    }
}

TEST_CASE("tensor map encode rejections appear at the option they name", "[scenario][diag][encode]") {
    // cuTensorMapEncodeTiled: boxDim[i] <= 256 (tma.md §2.2); needs the encode rules to be in place.
    //                               1234567890123456789012345678901234567890123
    auto d = firstError("tensormap A tiled FLOAT16 dims=[4096,4096] box=[64,512]\n");
    INFO(formatDiagnostic(d));
    CHECK(d.code == DiagCode::InvalidValue);
    CHECK(d.span.line == 1);
    CHECK(d.span.column == 44);
}

TEST_CASE("a dense default stride the driver rejects is reported at dims=", "[scenario][diag][encode]") {
    // 100 fp16 = 200 B per row, not a multiple of 16 (cuda.h: globalStrides[i] % 16 == 0)
    //                   123456789012345678901234567
    auto d = firstError("tensormap A tiled FLOAT16 dims=[100,64] box=[64,64]\n");
    expectAt(d, DiagCode::InvalidValue, 1, 27);
    CHECK(d.message.find("strides=") != std::string::npos);
}

TEST_CASE("a failed declaration is reported once, not again at each use", "[scenario][diag]") {
    auto r =
        parseScenario("smem sA 12x4\nmbarrier bar\ntensormap A tiled FLOAT16 dims=[64,64] box=[64,64]\n" +
                      std::string(kLoad) + "[sA], [A, {0, 0}], [bar];\n");
    REQUIRE_FALSE(r);
    REQUIRE(r.diagnostics().size() == 1);
    expectAt(r.error(), DiagCode::Syntax, 1, 9);
}

TEST_CASE("CRLF line ends, tabs and a byte order mark are accepted", "[scenario][diag]") {
    std::string text = "\xEF\xBB\xBFtarget sm_90a\r\ntensormap A tiled FLOAT16 dims=[64,64] box=[64,64]\r\n"
                       "smem\tsA 8192\r\nmbarrier bar\r\n" +
                       std::string(kLoad) + "[sA],\r\n   [A, {0, 0}], [bar];\r\n";
    auto r = parseScenario(text);
    if (!r) FAIL(formatDiagnostic(r.error()));
    REQUIRE(r->instrs.size() == 1);
    CHECK(r->instrs[0].span.line == 5);
    CHECK(r->instrs[0].text == std::string(kLoad) + "[sA], [A, {0, 0}], [bar];");
}

TEST_CASE("every diagnostic has a position and a rule", "[scenario][diag]") {
    auto r = parseScenario(std::string(kHead) + "smem sA 64\nlet = 3\nfill A pattern=plaid\n" + kLoad +
                           "[sA], [A, {0}], [bar];\nbogus.instr x;\n");
    REQUIRE_FALSE(r);
    CHECK(r.diagnostics().size() >= 4);
    for (const Diagnostic& d : r.diagnostics()) {
        INFO(formatDiagnostic(d));
        CHECK(d.span.line >= 5);
        CHECK(d.span.column >= 1);
        CHECK_FALSE(d.ruleRef.empty());
    }
}

TEST_CASE("no input crashes the parser", "[scenario][diag][fuzz]") {
    std::ifstream f(std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tma_multicast_cluster2.scn");
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string base = ss.str();
    REQUIRE(base.size() > 100);
    SECTION("every prefix of a bundled scenario") {
        for (size_t n = 0; n <= base.size(); ++n) {
            auto r = parseScenario(base.substr(0, n));
            if (!r)
                for (const auto& d : r.diagnostics()) CHECK(d.span.line >= 1);
        }
    }
    SECTION("random byte edits") {
        std::mt19937 rng(12345);
        const std::string alphabet = "[]{},;=+-x0123456789abcdefAF_%@!.: \n\t#/\x00\xff";
        for (int iter = 0; iter < 3000; ++iter) {
            std::string s = base;
            const int edits = 1 + static_cast<int>(rng() % 8);
            for (int e = 0; e < edits; ++e) {
                const size_t pos = rng() % s.size();
                const char c =
                    rng() % 4 == 0 ? static_cast<char>(rng() & 0xFF) : alphabet[rng() % alphabet.size()];
                switch (rng() % 3) {
                case 0:
                    s[pos] = c;
                    break;
                case 1:
                    s.insert(pos, 1, c);
                    break;
                default:
                    s.erase(pos, 1);
                    break;
                }
            }
            auto r = parseScenario(s);
            if (!r)
                for (const auto& d : r.diagnostics()) REQUIRE(d.span.valid());
        }
    }
}

TEST_CASE("A rule of Layoutscope's own formats is tagged as such, not as an unverified assumption",
          "[scenario][errors][provenance]") {
    SECTION("a scenario directive") {
        const Diagnostic d = firstError("target sm_90a\nsmem sA\n");
        CHECK(d.provenance == Provenance::ToolFormat);
        const std::string text = formatDiagnostic(d, "a.scn");
        const size_t rule = text.rfind('[');
        CHECK(text.find("docs/", rule) == rule + 1);      // the rule names the format's page
        CHECK(text.find(';', rule) == std::string::npos); // and carries no provenance tag
    }
    SECTION("a PTX rule keeps its own provenance") {
        const Diagnostic d = firstError(std::string(kHead) + kLoad + "[sA], [A, {0, 0}];\n");
        CHECK(d.provenance != Provenance::ToolFormat);
    }
    SECTION("a lesson") {
        auto l = parseLesson("lesson\n");
        REQUIRE(!l);
        CHECK(l.error().provenance == Provenance::ToolFormat);
    }
}
