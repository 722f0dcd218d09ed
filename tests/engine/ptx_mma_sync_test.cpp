// mma.sync (PTX ISA 9.2 §9.7.14.5.14): a hand-derived table from the ISA text. Register counts are the
// ISA's fragment layouts (§9.7.14.5.x "Matrix fragments for mma.m..."): per thread, A holds m*k/32 elements,
// B n*k/32, C and D m*n/32, packed into 32-bit registers (one 64-bit register per .f64 element); m8n8k4
// .f16 is computed per quad-pair (A, B: two .f16x2 registers; C, D: four .f16x2 or eight .f32). Where the
// ISA text is silent, the row names the ptxas 13.0 message it was checked against. The whole suite is
// tests/data/ptxas_front/mma_sync.jsonl.gz (ctest conform.ptxas.mma_sync); the live sample at the end re-asks
// the installed ptxas (skipped without it).
#include "layoutscope/ptx/module.hpp"
#include "ptx_test_util.hpp"
#include "ptxas_live_sample.hpp"
#include "ptxas_path.hpp"

using namespace layoutscope;
using namespace layoutscope::test;

namespace {

/// The message of the first diagnostic, for the rule a row must break.
std::string mmaWhy(const std::string& text, const PtxTarget& t) {
    return firstMessage(text, t);
}

} // namespace

TEST_CASE("mma.sync: fragment sizes are the ISA's per-thread element counts", "[ptx][validate][mma]") {
    const PtxTarget h = tgt("sm_90a");
    SECTION("valid: each class with its hand-derived register counts") {
        runTable(
            {// m16n8k16 .f16: A 16*16/32 = 8 halves = 4 regs, B 8*16/32 = 4 halves = 2, C/D 4 .f32
             {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
              "{%r9, %r10}, {%r1, %r2, %r3, %r4};",
              true, "m16n8k16 f16 -> f32"},
             // same with .f16 accumulators: C/D 4 halves = 2 regs
             {"mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r5, %r6, %r7, %r8}, {%r9, "
              "%r10}, "
              "{%r1, %r2};",
              true, "m16n8k16 f16 -> f16"},
             // m8n8k4 .f16 per quad-pair: A 2, B 2, D 8 .f32, C 4 .f16x2 (dtype .f32 with ctype .f16)
             {"mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, "
              "{%r9, %r10}, {%r11, %r12}, {%r13, %r14, %r15, %r16};",
              true, "m8n8k4 f16, any layout"},
             // m8n8k4 .f64: A 8*4/32 = 1, B 1, C/D 8*8/32 = 2 (64-bit registers)
             {"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%rd1, %rd2}, {%rd3}, {%rd4}, {%rd5, %rd6};",
              true, "m8n8k4 f64"},
             // m16n8k16 .f64 (sm_90): A 16*16/32 = 8, B 4, C/D 4
             {"mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%rd0, %rd1, %rd2, %rd3}, {%rd0, %rd1, "
              "%rd2, "
              "%rd3, %rd4, %rd5, %rd6, %rd7}, {%rd4, %rd5, %rd6, %rd7}, {%rd0, %rd1, %rd2, %rd3};",
              true, "m16n8k16 f64"},
             // m16n8k8 .tf32: A 16*8/32 = 4, B 2, C/D 4
             {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, "
              "%r8}, "
              "{%r9, %r10}, {%r1, %r2, %r3, %r4};",
              true, "m16n8k8 tf32"},
             // m16n8k64 .s4: A 16*64/32 = 32 nibbles = 4 regs, B 16 nibbles = 2, C/D 4
             {"mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.s4.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, "
              "%r7, "
              "%r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4};",
              true, "m16n8k64 s4/u4 with satfinite"},
             // m8n8k128 .b1: A 8*128/32 = 32 bits = 1, B 1, C/D 2
             {"mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc {%r1, %r2}, {%r3}, {%r4}, {%r1, "
              "%r2};",
              true, "m8n8k128 b1 and.popc"},
             // m16n8k32 FP8: A 16 bytes = 4, B 8 bytes = 2, C/D 4 .f32
             {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, "
              "%r8}, "
              "{%r9, %r10}, {%r1, %r2, %r3, %r4};",
              true, "m16n8k32 e4m3 x e5m2"}},
            h);
    }
    SECTION("invalid: one register short or over") {
        const auto wrong = [&](const char* text, const char* operand) {
            INFO(text);
            CHECK_THAT(mmaWhy(text, h), Catch::Contains(operand) && Catch::Contains("registers"));
        };
        wrong("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2}, {%r5, %r6, %r7, %r8}, {%r9, "
              "%r10}, "
              "{%r1, %r2, %r3, %r4};",
              "d (the result fragment");
        wrong("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r9, "
              "%r10}, "
              "{%r1, %r2, %r3, %r4};",
              "a (the A fragment");
        wrong("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {%r1, %r2, %r3, %r4}, {%r9, %r10}, {%r11}, "
              "{%r1, %r2, %r3, %r4};",
              "b (the B fragment");
        wrong("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%r1, %r2}, {%r3}, {%r4}, {%r1, %r2, %r3};",
              "c (the accumulator fragment");
    }
    SECTION("operands are vectors, even of one register; c may hold immediates, d a sink") {
        runTable(
            {{"mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {_, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, "
              "{0, 1, 2, 3};",
              true, "sink in d, immediates in c"},
             {"mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6}, %r7, "
              "{%r1, %r2, %r3, %r4};",
              false, "ptxas: Vector expected for argument 2"},
             {"mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {0, 1}, {%r7}, "
              "{%r1, %r2, %r3, %r4};",
              false, "ptxas: Arguments mismatch (immediates in a)"},
             {"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%r1, %r2}, {%rd3}, {%rd4}, {%rd5, %rd6};",
              false, "f64 fragments are 64-bit registers"}},
            h);
    }
}

TEST_CASE("mma.sync: the ISA table's shapes, types, layouts and qualifiers", "[ptx][validate][mma]") {
    const PtxTarget h = tgt("sm_90a");
    const std::string regs4 =
        " {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4};";
    const auto rule = [&](const std::string& form, const char* expected, const PtxTarget& t) {
        const std::string text = form + regs4;
        INFO(text);
        CHECK_THAT(mmaWhy(text, t), Catch::Contains(expected));
    };
    SECTION("shapes per input type") {
        rule("mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32", "`.tf32` inputs take the shapes", h);
        rule("mma.sync.aligned.m16n8k4.row.col.f32.bf16.bf16.f32", "`.bf16` inputs take the shapes", h);
        rule("mma.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32", "8-bit integer inputs take the shapes", h);
    }
    SECTION("types: pairs, accumulators, dtype = ctype") {
        rule("mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32", "not an atype.btype pair", h);
        rule("mma.sync.aligned.m16n8k16.row.col.f32.s8.s4.s32", "not an atype.btype pair", h);
        rule("mma.sync.aligned.m16n8k8.row.col.f16.tf32.tf32.f16", "accumulate in `.f32`", h);
        rule("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16", "dtype must equal ctype", h);
        rule("mma.sync.aligned.m16n8k32.row.col.f32.e2m1.e2m1.f32", "need `.kind::f8f6f4`", tgt("sm_120a"));
    }
    SECTION("layouts: .row.col except m8n8k4 .f16") {
        rule("mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32", "takes the layouts `.row.col` only", h);
        rule("mma.sync.aligned.m16n8k16.row.f32.f16.f16.f32", "two layouts", h);
    }
    SECTION(".satfinite for the integer forms, .xor/.and .popc for .b1") {
        rule("mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32", "`.satfinite` is for", h);
        rule("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32", "needs its operation", h);
        rule("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.popc.xor", "before `.popc`", h);
        rule("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32.xor.popc", "belong to the `.b1` form", h);
    }
    SECTION(".sync and .aligned are both required (ptxas: \".aligned modifier required\")") {
        rule("mma.sync.m16n8k16.row.col.f32.f16.f16.f32", "alignment", h);
        rule("mma.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sync", h);
        CHECK(accepted("mma.aligned.sync.row.col.m16n8k16.f32.f16.f16.f32" + regs4, h)); // order is free
    }
    SECTION("PTX versions and targets") {
        // FP8: 8.4 (§9.7.14.5.14 PTX ISA notes); m16n8k16 and .f16 accumulation 8.7.
        rule("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", "needs PTX ISA 8.4", tgt("sm_90", 8, 3));
        rule("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16", "needs PTX ISA 8.7",
             tgt("sm_100a", 8, 6));
        // FP6/FP4 with .kind::f8f6f4: sm_120a family only (ISA: sm_120a).
        rule("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32", "mma with FP6/FP4 inputs",
             tgt("sm_100a"));
        CHECK(accepted("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32" + regs4,
                       tgt("sm_120a")));
        // A kind on a non-FP8 form (ptxas: "Illegal modifier '.kind::f8f6f4' for instruction 'mma'").
        rule("mma.sync.aligned.m16n8k16.row.col.kind::f8f6f4.f32.f16.f16.f32", "is for FP8/FP6/FP4 inputs",
             tgt("sm_120a"));
    }
}

TEST_CASE("mma.sp and block-scaled mma are validated by their own table (rules_mma_sp.cpp)",
          "[ptx][validate][mma]") {
    // Verdicts of ptxas 13.0 (tests/data/ptxas_front/mma_sp.jsonl.gz): the form is accepted on sm_90a; the
    // selector of m16n8k64 .s8 is 0 only ("Argument 6 of instruction 'Sparse mma': value '1' out of range").
    const std::string sp = "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, "
                           "%r6, %r7, %r8}, {%r9, %r10, %r11, %r12}, {%r1, %r2, %r3, %r4}, %r13, 0x0;";
    auto p = parseInstruction(sp);
    REQUIRE(p);
    CHECK(validatorModels(*p));
    CHECK(check(sp, tgt("sm_90a")).ok());
    const Status s =
        check("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, "
              "%r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10, %r11, %r12}, {%r1, %r2, %r3, %r4}, %r13, 1;",
              tgt("sm_90a"));
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.error().message, Catch::Contains("sparsity selector of .m16n8k64 with i8 inputs is 0"));
}

TEST_CASE("mma.sync: the validator agrees with the installed ptxas on a live sample (skipped without ptxas)",
          "[ptx][validate][mma][ptxas]") {
    const std::string ptxas = findPtxas();
    if (ptxas.empty()) {
        WARN(
            "SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas; live mma.sync sample not run");
        return;
    }
    static const std::vector<const char*> kMmaSample = {
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8}, "
        "{%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, "
        "%r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, "
        "%r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m3.e2m1.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, "
        "%r7, "
        "%r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e4m3.f16 {%r1, %r2}, {%r5, %r6}, {%r9}, {%r1, %r2};",
        // one-token mutations
        "mma.sync.m16n8k16.row.col.f32.bf16.bf16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, "
        "%r10}, "
        "{%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k16.col.col.f32.bf16.bf16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, "
        "%r8}, "
        "{%r9}, {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.popc {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k32.row.col.f32.e2m3.e2m1.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e4m3.f16 {%r1, %r2}, {%r5, %r6}, {%r9}, {%r1, %r2};",
    };
    checkLiveSample(ptxas, "mma_sync", {"sm_90a", "sm_100a", "sm_120a"}, kMmaSample);
}
