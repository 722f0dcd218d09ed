// st.async, red.async and st.bulk (rules_async_st.cpp, rules_st_bulk.cpp). Every verdict below is what CUDA
// 13.0 ptxas said for the same text in the golden/ptxas wrapper kernel (run_ptxas.py; each row is a record of
// tests/data/ptxas_front/async_st.jsonl.gz at the same target and .version); the ptxas message is the row's
// why. The whole suite is ctest conform.ptxas.async_st.
#include "ptx_test_util.hpp"

using namespace layoutscope;
using namespace layoutscope::test;

TEST_CASE("st.async forms, as ptxas 13.0 decides them", "[ptx][validate][async_st]") {
    SECTION("the mbarrier form on sm_90a, PTX 8.1") {
        runTable(
            {{"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r3], %r1, [%r2];", true,
              "the ISA form"},
             {"st.async.mbarrier::complete_tx::bytes.u32 [%r3], %r1, [%r2];", true,
              "order and space left out"},
             {"st.async.v2.weak.u32.shared::cluster.mbarrier::complete_tx::bytes [%r3], {%r1, %r2}, [%r2];",
              true, "qualifier order is free"},
             {"st.async.weak.shared::cta.mbarrier::complete_tx::bytes.u32 [%r3], %r1, [%r2];", true,
              "`.shared::cta` is taken"},
             {"st.async.u32 [%r3], %r1;", true, "two operands, no qualifier"},
             {"st.async.u32 [%r3], %r1, [%r2];", false,
              "Modifier '.shared::cluster' requires modifier '.completion_mechanism'"},
             {"st.async.relaxed.u32 [%r3], %r1, [%r2];", false, "Illegal modifier '.relaxed'"},
             {"st.async.weak.cluster.mbarrier::complete_tx::bytes.u32 [%r3], %r1, [%r2];", false,
              "Modifier '.weak' cannot be combined with modifier '.cluster'"},
             {"st.async.cluster.shared::cta.u32 [%r3], %r1, [%r2];", false,
              "Modifier '.cluster' requires '.shared::cluster' space"},
             {"st.async.mbarrier::complete_tx.u32 [%r3], %r1, [%r2];", false,
              "Unknown modifier '.mbarrier::complete_tx'"}},
            tgt("sm_90a", 8, 1));
    }
    SECTION("types, vectors and values") {
        runTable(
            {{"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.b8 [%r3], %r1, [%r2];", false,
              "Arguments mismatch (8-bit types)"},
             {"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.b128 [%r3], %rd1, [%r2];", false,
              "Unexpected instruction types"},
             {"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.b64 [%r3], {%rd1, %rd2, %rd3, "
              "%rd4}, "
              "[%r2];",
              false, "Vector type too large, exceeds 128 bit limit"},
             {"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%r3], {%r1}, [%r2];", false,
              "Argument vector size mismatch"},
             {"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r3], {%r1}, [%r2];", true,
              "a one-element vector for a scalar"},
             {"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v2.u32 [%r3], {%r1, _}, [%r2];",
              false, "Sink '_' not allowed as a source operand"},
             {"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r3], smem, [%r2];", false,
              "Argument 1 must be register"},
             {"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u32 [%h3], %r1, [%r2];", false,
              "Arguments mismatch for 'mov' (a 16-bit address)"},
             {"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r3], %r1, [%h3];", true,
              "the mbarrier in a 16-bit register"}},
            tgt("sm_90a", 9, 0));
    }
    SECTION("the .release / .mmio / .global form is sm_100+ with PTX 8.7") {
        runTable({{"st.async.release.gpu.global.u32 [%rd3], %r1;", false,
                   "Feature 'st.async/red.async with .global state space' requires .target sm_100"}},
                 tgt("sm_90a", 9, 0));
        runTable({{"st.async.release.gpu.global.u32 [%rd3], %r1;", false,
                   "Feature '... .global state space' requires PTX ISA .version 8.7"}},
                 tgt("sm_100a", 8, 6));
        runTable(
            {{"st.async.release.gpu.global.u32 [%rd3], %r1;", true, "the ISA form"},
             {"st.async.mmio.release.sys.global.b16 [%rd3], %h1;", true, "mmio, a 16-bit type"},
             {"st.async.mmio.gpu.u32 [%r3], %r1;", false, "Modifier '.mmio' requires modifier '.release'"},
             {"st.async.release.cluster.u32 [%r3], %r1, [%r2];", false,
              "Illegal modifier '.cluster' with '.release'"},
             {"st.async.release.gpu.global.v2.b16 [%rd3], {%h1, %h2};", false,
              "Vector qualifier is not allowed"},
             {"st.async.release.gpu.global.b8 [%rd3], %r1;", false, "Arguments mismatch (8-bit types)"},
             {"st.async.release.gpu.global.u32 [smem], %r1;", false, "State space mismatch"}},
            tgt("sm_100a", 9, 0));
    }
}

TEST_CASE("red.async forms, as ptxas 13.0 decides them", "[ptx][validate][async_st]") {
    runTable(
        {{"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r3], %r1, [%r2];",
          true, "the ISA form"},
         {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.s64 [%r3], %rd1, "
          "[%r2];",
          true, ".add .s64 (not in the ISA's list)"},
         {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.b64 [%r3], %rd1, "
          "[%r2];",
          false, "Incorrect type '.b64' for operation '.add'"},
         {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.u64 [%r3], %rd1, "
          "[%r2];",
          false, "Incorrect type '.u64' for operation '.min'"},
         {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.f32 [%r3], %r1, [%r2];",
          false, "Unexpected instruction types"},
         {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.exch.u32 [%r3], %r1, "
          "[%r2];",
          false, "Illegal reduction operation"},
         {"red.async.add.u32 [%r3], %r1, [%r2];", false, "order modifier required"},
         {"red.async.relaxed.add.u32 [%r3], %r1, [%r2];", false, "Modifier '.relaxed' requires scope"},
         {"red.async.relaxed.gpu.add.u32 [%r3], %r1;", true, "relaxed .gpu, two operands"},
         {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r3], {%r1}, "
          "[%r2];",
          false, "Vector operand is not allowed"}},
        tgt("sm_90a", 8, 1));
    runTable({{"red.async.release.gpu.global.add.u32 [%r3], %r1;", true, "the .global form"},
              {"red.async.mmio.relaxed.gpu.add.u32 [%r3], %r1;", false,
               "Modifier '.mmio' cannot be combined with modifier '.relaxed'"},
              {"red.async.release.gpu.global.and.b32 [%rd3], 0f3F800000;", false,
               "Type of argument does not match formal parameter"}},
             tgt("sm_100a", 9, 0));
}

TEST_CASE("st.bulk forms, as ptxas 13.0 decides them", "[ptx][validate][async_st]") {
    runTable({{"st.bulk.weak.shared::cta [%r3], 64, 0;", false, "Feature 'st.bulk' requires .target sm_100"}},
             tgt("sm_90a", 9, 0));
    runTable({{"st.bulk [%r3], 64, 0;", false, "Feature 'st.bulk' requires PTX ISA .version 8.6"}},
             tgt("sm_90a", 8, 1));
    runTable(
        {{"st.bulk.weak.shared::cta [%r3], 64, 0;", true, "the ISA form"},
         {"st.bulk [smem], %rd1, 0;", true, "generic address, 64-bit size register"},
         {"st.bulk.weak.shared::cta [smem], 64, 0;", false, "Argument 1 of 'add': must be register"},
         {"st.bulk.shared [%r3], 64, 0;", false, "State space incorrect, expected '.shared::cta'"},
         {"st.bulk.weak.shared::cta [%r3], 12, 0;", false, "expected to be multiple of 8"},
         {"st.bulk.weak.shared::cta [%r3], 4294967296, 0;", false, "out of range [0..16777216]"},
         {"st.bulk.weak.shared::cta [%r3], %r1, 0;", false, "Arguments mismatch for 'mov' (32-bit size)"},
         {"st.bulk.weak.shared::cta [%r3], 64, 1;", false, "expected to be zero"},
         {"st.bulk.weak.shared::cta [%r3], 64, 0x0;", true, "zero written in hex"}},
        tgt("sm_100a", 8, 6));
}
