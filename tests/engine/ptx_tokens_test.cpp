// Tokens as ptxas 13.0 reads them (issue 21 item 1). Each verdict below was taken from
// /usr/local/cuda/bin/ptxas -arch=sm_100a (or sm_103a) on the README wrapper kernel:
//   accepted  `tcgen05.ld.sync.aligned.32x32b.x1.b32{%r1},[%r0];`          (nvcc's inline asm output)
//   accepted  `tcgen05.ld.sync.aligned.32x32b.x1.b32{ %r1 }  ,[ %r0+4 ] ;`
//   accepted  `tcgen05.st.sync.aligned.32x32b.x1.b32[%r0],{%r1};`
//   accepted  `tcgen05.dealloc.cta_group::1.sync.aligned.b32%r0,32;`
//   accepted  `tcgen05.ld.sync .aligned.32x32b.x1.b32 {%r1}, [%r0];`       (a blank before a qualifier)
//   accepted  `tcgen05.ld .sync.aligned.32x32b.x1.b32 {%r1}, [%r0];`
//   accepted  `tcgen05.ld.sync.aligned.32x32b` NEWLINE `.x1.b32 {%r1}, [%r0];`
//   rejected  `tcgen05 .ld.sync.aligned.32x32b.x1.b32 {%r1}, [%r0];`       "Not a name of any known
//   instruction" rejected  `cp.async.bulk .tensor.1d…`                                    "Unknown modifier
//   '.tensor'" rejected  `tcgen05.ld.sync.aligned.32x32b.x1. b32 …`                     "Parsing error near
//   '.'" rejected  `tcgen05.ld.sync.aligned.32x32b.x3.b32{%r1},[%r0];`            "Unknown modifier '.x3'"
#include "layoutscope/ptx/instruction.hpp"
#include "layoutscope/ptx/module.hpp"
#include "layoutscope/ptx/validate.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

namespace {

const PtxTarget kSm100a{"sm_100a", 9, 0};

/// Parse then validate with the ptxas wrapper's declarations; "" when both accept.
std::string verdict(const std::string& text, const PtxTarget& t = kSm100a) {
    auto p = parseInstruction(text);
    if (!p) return "parse: " + p.error().message;
    Status s = validateInstruction(*p, t, ptxasWrapperEnvironment());
    return s ? std::string() : s.diagnostics().front().message;
}

} // namespace

TEST_CASE("blanks are optional around braces, brackets and commas, as ptxas reads them", "[ptx][tokens]") {
    SECTION("nvcc's inline asm: the operand right after the last qualifier") {
        CHECK(verdict("tcgen05.ld.sync.aligned.32x32b.x1.b32{%r1},[%r0];").empty());
        CHECK(verdict("tcgen05.st.sync.aligned.32x32b.x1.b32[%r0],{%r1};").empty());
        CHECK(verdict("tcgen05.dealloc.cta_group::1.sync.aligned.b32%r0,32;").empty());
    }
    SECTION("blanks inside braces and brackets and before commas") {
        CHECK(verdict("tcgen05.ld.sync.aligned.32x32b.x1.b32{ %r1 }  ,[ %r0+4 ] ;").empty());
        auto p = parseInstruction("tcgen05.ld.sync.aligned.32x32b.x2.b32{%r1,%r2},[%r0];");
        REQUIRE(p);
        CHECK(p->opcode.back().text == ".b32");
        CHECK(p->operands.size() == 2);
        CHECK(p->operands[0].elements.size() == 2);
    }
    SECTION("a real error is still found in the tight spelling") {
        const std::string m = verdict("tcgen05.ld.sync.aligned.32x32b.x3.b32{%r1},[%r0];");
        CHECK(m.find("`.x3`") != std::string::npos);
    }
}

TEST_CASE("a qualifier may follow blanks, the instruction name may not", "[ptx][tokens]") {
    SECTION("blanks (even a line break) before a qualifier") {
        CHECK(verdict("tcgen05.ld.sync .aligned.32x32b.x1.b32 {%r1}, [%r0];").empty());
        CHECK(verdict("tcgen05.ld .sync.aligned.32x32b.x1.b32 {%r1}, [%r0];").empty());
        CHECK(verdict("tcgen05.ld.sync.aligned.32x32b\n.x1.b32 {%r1}, [%r0];").empty());
    }
    SECTION("a blank inside the instruction name") {
        const std::string m = verdict("tcgen05 .ld.sync.aligned.32x32b.x1.b32 {%r1}, [%r0];");
        CHECK(m.find("one word") != std::string::npos);
        CHECK_FALSE(verdict("tcgen05.mma .ws.cta_group::1.kind::f16 [%r0], %rd1, %rd2, %r3, %p1;").empty());
    }
    SECTION("a blank after a dot is a syntax error") {
        CHECK_FALSE(parseInstruction("tcgen05.ld.sync.aligned.32x32b.x1. b32 {%r1}, [%r0];"));
    }
}

TEST_CASE("a module of nvcc's tight spelling is checked, not skipped", "[ptx][tokens][module]") {
    const std::string head = ".version 9.0\n.target sm_100a\n.address_size 64\n"
                             ".visible .entry k()\n{\n.reg .b32 %r<40>;\nmov.u32 %r36, 0;\n";
    SECTION("valid lines count as validated instructions") {
        auto m = readPtxModule(head + "tcgen05.ld.sync.aligned.32x32b.x1.b32{%r1},[%r36];\n"
                                      "tcgen05.ld.sync.aligned.32x32b.x2.b32{%r1,%r2},[%r36];\nret;\n}\n");
        REQUIRE(m);
        size_t modelled = 0;
        for (const auto& f : m->functions)
            for (const auto& i : f.instrs) modelled += i.modelled;
        CHECK(modelled == 2);
        CHECK(checkPtxModule(*m).empty());
    }
    SECTION("an invalid .x3 in that spelling is an error at its line") {
        auto m = readPtxModule(head + "tcgen05.ld.sync.aligned.32x32b.x3.b32{%r1},[%r36];\nret;\n}\n");
        REQUIRE(m);
        const auto ds = checkPtxModule(*m);
        REQUIRE(ds.size() == 1);
        CHECK(ds[0].span.line == 8);
        CHECK(ds[0].message.find("`.x3`") != std::string::npos);
    }
}
