// export-cuda (export_cuda.hpp): what the generated program must contain, derived by hand from the
// scenario text: shared::cta addresses relative to the 1024-aligned base, driver encode arguments in
// cuda.h names, register operands, descriptors moved with the buffers, and clear errors for what a repro
// cannot express. Whether the program compiles is checked by nvcc (tests/cli/export_cuda_nvcc.sh); whether
// its bytes are right, by the H100 (docs/repro-h100.log).
#include "layoutscope/scenario/export_cuda.hpp"

#include <catch2/catch.hpp>

#include <cctype>
#include <string>

using namespace layoutscope;

namespace {

Result<std::string> exportText(const std::string& text) {
    auto sc = parseScenario(text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    return exportCuda(*sc, *run, text);
}

bool has(const std::string& hay, const std::string& needle) {
    return hay.find(needle) != std::string::npos;
}

} // namespace

TEST_CASE("export-cuda: a TMA load becomes inline PTX over addresses relative to the aligned base",
          "[export_cuda]") {
    // sA: 16384 B at the first address (1024); bar: the next 8-aligned address, 1024 + 16384 = 17408.
    const std::string text = "target sm_90a\n"
                             "tensormap A tiled FLOAT16 dims=[256,256] box=[64,128] swizzle=128B\n"
                             "smem sA 16384 align=1024\n"
                             "mbarrier bar\n"
                             "let y = 64\n"
                             "mbarrier.init.shared::cta.b64 [bar], 1;\n"
                             "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 16384;\n"
                             "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
                             "[sA], [A, {0, y}], [bar];\n"
                             "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n";
    auto cu = exportText(text);
    REQUIRE(cu);
    const std::string& s = cu.value();
    CHECK(has(s, "-gencode=arch=compute_90a,code=sm_90a"));
    CHECK(has(s, "constexpr uint32_t kSmemBase = 1024;"));
    CHECK(has(s, "constexpr uint32_t kRegion = 16392;")); // 16384 B of sA + the 8-B barrier
    // The copy: operands numbered in order of first use, `let y` substituted, the map by its address.
    CHECK(has(s, "[%0], [%1, {0, 64}], [%2];\" :  : \"r\"(sb + 0u), "
                 "\"l\"(reinterpret_cast<uint64_t>(&maps.m[0])), \"r\"(sb + 16384u)"));
    // The wait: a bounded loop over a fresh predicate, not the scenario's name `p`.
    CHECK(has(
        s,
        "{ .reg .pred P1; mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], 0; selp.u32 %0, 1, 0, P1; }"));
    CHECK(has(s, "timeout(status, 9)"));
    // The driver call with the scenario's parameters in cuda.h names; strides dense: 256 * 2 B.
    CHECK(has(s, "const cuuint64_t dims[] = {256ull, 256ull};"));
    CHECK(has(s, "const cuuint64_t strides[] = {512ull};"));
    CHECK(has(s, "const cuuint32_t box[] = {64, 128};"));
    CHECK(has(
        s,
        "cuTensorMapEncodeTiled(&maps.m[0], CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, ptr[0], dims, strides, box, "
        "es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B"));
    // The init is hoisted before the first cluster barrier.
    CHECK(s.find("mbarrier.init.shared::cta.b64 [%0], 1;") < s.find("fence.mbarrier_init.release.cluster"));
}

TEST_CASE("export-cuda: tcgen05 registers, TMEM addresses and descriptors", "[export_cuda]") {
    SECTION("st / ld: registers of the warp as asm operands, the ld waited on in the same statement") {
        const std::string text = "target sm_100a\nptx 8.8\nsmem taddrBuf 16\nlet tmem = 0x200000\nlet col0 = "
                                 "0\nwarp 1\nregs pattern=index\n"
                                 "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
                                 "tcgen05.st.sync.aligned.32x32b.x2.b32 [tmem], {%r0, %r1};\n"
                                 "tcgen05.wait::st.sync.aligned;\n"
                                 "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r4, %r5}, [tmem];\n"
                                 "tcgen05.dealloc.cta_group::1.sync.aligned.b32 col0, 32;\n";
        auto cu = exportText(text);
        REQUIRE(cu);
        const std::string& s = cu.value();
        CHECK(has(s, "-gencode=arch=compute_100a,code=sm_100a"));
        CHECK(has(s, "if (warp == 1) {")); // .sync.aligned: the whole issuing warp
        CHECK(has(
            s, "tcgen05.st.sync.aligned.32x32b.x2.b32 [%0], {%1, %2};\" :  : \"r\"(2097152u), \"r\"(r[0]), "
               "\"r\"(r[1])"));
        CHECK(has(s, "{%0, %1}, [%2]; tcgen05.wait::ld.sync.aligned;\" : \"=r\"(r[4]), \"=r\"(r[5]) : "
                     "\"r\"(2097152u)"));
        // TMEM read back before the dealloc: columns [0, 32) of all 128 lanes.
        CHECK(s.find("tmemReadBack(tmemDump") <
              s.find("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"));
        CHECK(has(s, "if (cta == 0 && warp == 1) slot = 0;"));
    }
    SECTION("cp: the descriptor's start address follows the buffers to the real base") {
        // desc start=sA (1024): bits [0,14) = 1024 >> 4 = 0x40; lbo 16 -> 1 at bits [16,30); sbo 128 -> 8 at
        // bits [32,46); version 1 at bit 46 (sm_100 descriptor).
        const std::string text = "target sm_100a\nptx 8.8\nsmem sA 512 align=128\nsmem taddrBuf 16\n"
                                 "desc sd start=sA lbo=16 sbo=128 swizzle=none\nlet tmem = 0\n"
                                 "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
                                 "tcgen05.cp.cta_group::1.32x128b.warpx4 [tmem], sd;\n"
                                 "tcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 32;\n";
        auto cu = exportText(text);
        REQUIRE(cu);
        CHECK(has(cu.value(), "\"l\"(movedDescriptor(0x0000400800010040ull, sb))"));
        CHECK(has(cu.value(), "if (warp == 0 && lane == 0) {")); // cp: one thread issues it
    }
}

TEST_CASE("export-cuda: what a repro cannot express is an error naming the line", "[export_cuda]") {
    // An st.shared of a warp with no register values: the engine stores nothing, so the repro cannot know
    // what to store (with `regs pattern=...` it can: the next test case).
    const std::string text = "target sm_90a\nsmem sS 4096\n"
                             "st.shared.v4.b32 [sS + lane * 128], {%r0, %r1, %r2, %r3};\n";
    auto sc = parseScenario(text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    auto cu = exportCuda(*sc, *run, text);
    REQUIRE_FALSE(cu);
    CHECK(cu.error().code == DiagCode::Unsupported);
    CHECK(cu.error().span.line == 3);
}

TEST_CASE("export-cuda: st.shared runs on its lanes from the registers the engine stored", "[export_cuda]") {
    const std::string text = "target sm_90a\nsmem sS 4096\nregs pattern=index\n"
                             "st.shared.v2.b32 [sS + lane * 8], {%r3, %r7};\n";
    auto sc = parseScenario(text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    auto cu = exportCuda(*sc, *run, text);
    REQUIRE(cu);
    // Every lane of warp 0 stores r[3], r[7] (uploaded from the `regs` pattern) at its own address.
    CHECK(has(cu.value(), "asm volatile(\"st.shared.v2.b32 [%0], {%1, %2};\" :: \"r\"(sb + (addr[lane] - "
                          "kSmemBase)), \"r\"(r[3]), \"r\"(r[7]) : \"memory\");"));
    CHECK(has(cu.value(), "const uint32_t addr[32] = {1024u, 1032u, 1040u"));
}

TEST_CASE("export-cuda: wgmma runs unbranched in a one-warpgroup block, its D kept in registers to the wait",
          "[export_cuda]") {
    auto text = readScenarioFile(std::string(LAYOUTSCOPE_ASSETS_DIR) +
                                 "/scenarios/broken/async_release_before_mma_done_fixed.scn");
    REQUIRE(text);
    auto sc = parseScenario(*text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    auto cu = exportCuda(*sc, *run, *text);
    REQUIRE(cu);
    const std::string& c = cu.value();
    CHECK(has(c, "float acc_31 = __uint_as_float(r[31]);"));
    CHECK(has(c, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1,"));
    CHECK(has(c, "\"+f\"(acc_0), \"+f\"(acc_1)"));
    CHECK(has(c, "asm volatile(\"wgmma.wait_group.sync.aligned 0;\" : \"+f\"(acc_0)"));
    CHECK(has(c, "r[31] = __float_as_uint(acc_31);"));
    CHECK_FALSE(has(c, "if (warp / 4 == 0)")); // under a branch ptxas serializes wgmma (C7520)
    CHECK(has(c, "kWgmmaRelTolerance"));
}

TEST_CASE("export-cuda: a consumer ld.shared is run by its lanes and compared with the bytes it must see",
          "[export_cuda]") {
    // A FLOAT16 tile 64x64 (index fill: element e holds the 16-bit integer e) loaded with SWIZZLE_128B, then
    // read by lane l at sA + 16 l: row r = l / 8, 16-byte chunk c = l % 8. SW128 stores the logical chunk
    // c ^ (r % 8) of row r at chunk c (../shared/ref TMA swizzle), so lane l must read elements
    // 256 r + 8 (c ^ r) + 0..7 of the 256-wide tensor, little-endian.
    const std::string text = "target sm_90a\n"
                             "tensormap A tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B\n"
                             "smem sA 8192 align=1024\n"
                             "mbarrier bar\n"
                             "mbarrier.init.shared::cta.b64 [bar], 1;\n"
                             "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n"
                             "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
                             "[sA], [A, {0, 0}], [bar];\n"
                             "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n"
                             "ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 16];\n";
    auto cu = exportText(text);
    REQUIRE(cu);
    const std::string& s = cu.value();
    CHECK(has(s, "// line 9: ld.shared by each active lane"));
    CHECK(has(s, "ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"));
    CHECK(has(s, "constexpr uint32_t kObsBytes = 512;"));
    // The expected bytes: the literal after the table entry {9, 0, 0, 4294967295u, 16, 0,
    const size_t at = s.find("{9, 0, 0, 4294967295u, 16, 0,");
    REQUIRE(at != std::string::npos);
    std::string hexs;
    for (size_t i = s.find('"', at); hexs.size() < 1024 && i < s.size(); ++i)
        if (std::isxdigit(static_cast<unsigned char>(s[i]))) hexs += s[i];
    REQUIRE(hexs.size() == 1024);
    for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t r = l / 8, c = l % 8;
        for (uint32_t e = 0; e < 8; ++e) {
            const uint32_t want = 256 * r + 8 * (c ^ r) + e;
            const auto byte = [&](uint32_t b) {
                return std::stoul(hexs.substr(2 * (16 * l + 2 * e + b), 2), nullptr, 16);
            };
            INFO("lane " << l << " element " << e);
            CHECK((byte(0) | byte(1) << 8) == want);
        }
    }
}
