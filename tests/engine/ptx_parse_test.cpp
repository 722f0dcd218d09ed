// PTX instruction syntax: tokens, operand kinds and exact spans (columns counted by hand).
#include "layoutscope/ptx/instruction.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace layoutscope;

namespace {

ParsedInstr ok(std::string_view text, int line = 1, int column = 1) {
    auto r = parseInstruction(text, line, column);
    if (!r) FAIL("unexpected diagnostic: " << r.error().message);
    return std::move(r).value();
}

Diagnostic bad(std::string_view text) {
    auto r = parseInstruction(text);
    if (r) FAIL("expected a syntax error for: " << text);
    return r.error();
}

std::vector<std::string> tokens(const ParsedInstr& p) {
    std::vector<std::string> v;
    for (const auto& t : p.opcode) v.push_back(t.text);
    return v;
}

} // namespace

TEST_CASE("opcode splits into dot tokens, qualifiers may hold '::' and start with digits", "[parse][ptx]") {
    SECTION("TMA load") {
        auto p = ok("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [a], "
                    "[m, {0, 0}], [b];");
        CHECK(tokens(p) == std::vector<std::string>{"cp", ".async", ".bulk", ".tensor", ".2d",
                                                    ".shared::cluster", ".global", ".tile",
                                                    ".mbarrier::complete_tx::bytes"});
        CHECK(p.opcodeText() ==
              "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes");
        CHECK(p.hasToken(".shared::cluster"));
        CHECK_FALSE(p.hasToken("shared::cluster"));
        CHECK_FALSE(p.hasToken(".shared::cta"));
    }
    SECTION("tcgen05 shapes") {
        auto p = ok("tcgen05.ld.sync.aligned.16x32bx2.x4.b32 {r0, r1, r2, r3}, [taddr], 2;");
        CHECK(tokens(p) ==
              std::vector<std::string>{"tcgen05", ".ld", ".sync", ".aligned", ".16x32bx2", ".x4", ".b32"});
        auto q = ok("tcgen05.cp.cta_group::1.128x256b.warpx2::02_13.b8x16.b4x16_p64 [taddr], sdesc;");
        CHECK(q.hasToken(".warpx2::02_13"));
        CHECK(q.hasToken(".b4x16_p64"));
        CHECK(q.hasToken(".cta_group::1"));
    }
    SECTION("no operands, no semicolon") {
        auto p = ok("fence.proxy.async.shared::cta");
        CHECK(tokens(p).size() == 4);
        CHECK(p.operands.empty());
        auto q = ok("cp.async.bulk.commit_group;");
        CHECK(q.operands.empty());
    }
}

TEST_CASE("every token carries its 1-based line and column", "[parse][ptx]") {
    //          1234567890123456789012345678901234567890
    auto p = ok("  mbarrier.init.shared::cta.b64 [bar+8], 1;", 7, 3);
    // text[0] is at column 3, so column = 3 + index.
    REQUIRE(p.opcode.size() == 4);
    CHECK(p.opcode[0].span.line == 7);
    CHECK(p.opcode[0].span.column == 5);
    CHECK(p.opcode[0].span.length == 8);
    CHECK(p.opcode[2].text == ".shared::cta");
    CHECK(p.opcode[2].span.column == 3 + 15);
    CHECK(p.opcode[2].span.length == 12);
    REQUIRE(p.operands.size() == 2);
    CHECK(p.operands[0].kind == OperandKind::Address);
    CHECK(p.operands[0].span.column == 3 + 32);
    CHECK(p.operands[0].span.length == 7);
    CHECK(p.operands[0].imm == 8);
    CHECK(p.operands[0].elements.at(0).text == "bar");
    CHECK(p.operands[0].elements.at(0).span.column == 3 + 33);
    CHECK(p.operands[1].kind == OperandKind::Immediate);
    CHECK(p.operands[1].imm == 1);
    CHECK(p.operands[1].span.column == 3 + 41);
    CHECK(p.span.column == 5);
    CHECK(p.span.length == 41); // "mbarrier...1;" without leading blanks
}

TEST_CASE("operand kinds", "[parse][ptx]") {
    auto p = ok("x.y %r1, %rd20, -8, 0x10, sym$_1, {a, %r2, 3}, [%rd1+-16], [tmap, {c0, -1}], %tid.x, !p, "
                "0b101, 0f3F800000");
    REQUIRE(p.operands.size() == 12);
    CHECK(p.operands[0].kind == OperandKind::Register);
    CHECK(p.operands[0].text == "%r1");
    CHECK(p.operands[1].text == "%rd20");
    CHECK(p.operands[2].kind == OperandKind::Immediate);
    CHECK(p.operands[2].imm == -8);
    CHECK(p.operands[3].imm == 16);
    CHECK(p.operands[4].kind == OperandKind::Symbol);
    CHECK(p.operands[4].text == "sym$_1");
    CHECK(p.operands[5].kind == OperandKind::Vector);
    REQUIRE(p.operands[5].elements.size() == 3);
    CHECK(p.operands[5].elements[1].kind == OperandKind::Register);
    CHECK(p.operands[5].elements[2].imm == 3);
    CHECK(p.operands[6].kind == OperandKind::Address);
    CHECK(p.operands[6].imm == -16);
    CHECK(p.operands[6].elements.at(0).text == "%rd1");
    const Operand& t = p.operands[7];
    CHECK(t.kind == OperandKind::Address);
    REQUIRE(t.elements.size() == 2);
    CHECK(t.elements[0].text == "tmap");
    CHECK(t.elements[1].kind == OperandKind::Vector);
    CHECK(t.elements[1].elements.at(1).imm == -1);
    CHECK(p.operands[8].text == "%tid.x");
    CHECK(p.operands[9].text == "!p");
    CHECK(p.operands[10].imm == 5);
    CHECK(p.operands[11].imm == 0x3F800000);
}

TEST_CASE("predicate guard", "[parse][ptx]") {
    CHECK(ok("@p bra L;").predicate == "@p");
    CHECK(ok("@!p0 bra L;").predicate == "@!p0");
    CHECK(ok("@%p1 bra L;").predicate == "@%p1");
    CHECK(ok("@p bra L;").opcode.at(0).span.column == 4);
    CHECK(ok("bra L;").predicate.empty());
}

TEST_CASE("integer literal limits", "[parse][ptx]") {
    CHECK(ok("a 0xFFFFFFFFFFFFFFFF").operands[0].imm == -1);
    CHECK(ok("a -9223372036854775808").operands[0].imm == INT64_MIN);
    CHECK(ok("a 17U").operands[0].imm == 17);
    CHECK(ok("a 010").operands[0].imm == 8);
    SECTION("too big") {
        auto d = bad("a 0x10000000000000000;");
        CHECK(d.code == DiagCode::Syntax);
        CHECK(d.span.column == 3);
        CHECK(d.message.find("64 bits") != std::string::npos);
        CHECK(bad("a 99999999999999999999").span.column == 3);
        CHECK(bad("a -9223372036854775809").span.column == 3);
    }
    SECTION("malformed") {
        auto d = bad("a 0x1g, 2;");
        CHECK(d.span.column == 3);
        CHECK(d.span.length == 4);
        CHECK(d.message.find("malformed") != std::string::npos);
        CHECK(bad("a 09").span.column == 3);
        CHECK(bad("a 12abc").span.column == 3);
    }
}

TEST_CASE("syntax errors name what was expected and where", "[parse][ptx]") {
    SECTION("missing comma between operands") {
        //        1234567890123456789012345678
        auto d = bad("mov.u32 %r1 %r2;");
        CHECK(d.code == DiagCode::Syntax);
        CHECK(d.span.line == 1);
        CHECK(d.span.column == 13);
        CHECK(d.message == "expected ',' or ';' after operand 1 at column 13, found '%'");
        CHECK(d.ruleRef.find("PTX ISA") != std::string::npos);
    }
    SECTION("the brief's example position") {
        const std::string s = "cp.async.bulk.tensor.2d.shared::cta.global.tile [sA], [A, {0, 0}] [bar];";
        auto d = bad(s);
        CHECK(d.span.column == static_cast<int>(s.find("[bar]")) + 1);
        CHECK(d.message.find("after operand 2") != std::string::npos);
    }
    SECTION("unterminated brackets") {
        auto d = bad("a [x, {1, 2}");
        CHECK(d.message.find("']'") != std::string::npos);
        CHECK(d.span.column == 13);
        auto v = bad("a {1, 2");
        CHECK(v.message.find("'}'") != std::string::npos);
        CHECK(v.span.column == 8);
        CHECK(bad("a [").span.column == 4);
    }
    SECTION("empty and junk") {
        CHECK(bad("").message.find("opcode") != std::string::npos);
        CHECK(bad("   ;").span.column == 4);
        auto j = bad("\x01\xff\xfe");
        CHECK(j.span.column == 1);
        CHECK(j.message.find("byte 0x01") != std::string::npos);
        CHECK(bad("a b\xff").span.column == 4);
    }
    SECTION("bad qualifiers") {
        CHECK(bad("cp..async").span.column == 4);
        CHECK(bad("cp.").span.column == 4);
        CHECK(bad("a.shared:cta").span.column == 9);
        CHECK(bad("a.shared::").span.column == 11);
        CHECK(bad("a.b-c x").span.column == 4);
    }
    SECTION("text after ';'") {
        auto d = bad("a x; b");
        CHECK(d.span.column == 6);
        CHECK(ok("a x; // comment").operands.size() == 1);
    }
    SECTION("empty operand") {
        CHECK(bad("a x, , y").span.column == 6);
        CHECK(bad("a x,").span.column == 5);
        CHECK(bad("a {}").span.column == 4);
        CHECK(bad("a [x+]").span.column == 6);
    }
    SECTION("negative address offset is written +-") {
        // ptxas 13.0: "ld.global.u32 %r3, [%rd0-8];" -> Parsing error near '-'; [%rd0+-8] assembles
        auto d = bad("ld.global.u32 %r3, [%rd0-8];");
        CHECK(d.span.column == 25);
        CHECK(ok("ld.global.u32 %r3, [%rd0+-8];").operands.at(1).imm == -8);
        CHECK(ok("ld.global.u32 %r3, [%rd0 + 8];").operands.at(1).imm == 8);
    }
    SECTION("bad guard") {
        CHECK(bad("@ p bra").span.column == 2);
        CHECK(bad("@pbra").span.column == 6);
    }
}

TEST_CASE("multi-line instruction text keeps file positions", "[parse][ptx]") {
    auto p = ok("cp.async.bulk.commit_group\n  ;", 3, 1);
    CHECK(p.span.line == 3);
    auto d = bad("a x,\n  y z");
    CHECK(d.span.line == 2);
    CHECK(d.span.column == 5);
}
