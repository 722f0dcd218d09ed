// The order model on running kernels with asynchronous MMA and Tensor Memory operations (issue 23;
// docs/exec.md "Time and order"): each planted kernel of tests/data/exec/order/ (hand-written PTX that ptxas
// -arch=sm_100a / sm_90a accepts) gets exactly its expected diagnostics, naming both PTX lines and the fix;
// its fixed twin none. The lines are found in the PTX text itself, not taken from the executor.
#include "exec_test_util.hpp"
#include "layoutscope/async/async.hpp"
#include "ptxas_path.hpp"

#include <cstdlib>
#include <filesystem>

namespace {

using namespace exectest;

struct Expected {
    Severity severity;
    std::string atNeedle; ///< the reported line is the line of this text in the kernel
    std::vector<std::string> contains;
};

// 1-based line of the `nth` (0-based) line holding `needle`.
int lineOf(const std::string& text, const std::string& needle, int nth = 0) {
    int line = 1;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = text.find('\n', start);
        const std::string l = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (l.find(needle) != std::string::npos && nth-- == 0) return line;
        if (end == std::string::npos) break;
        start = end + 1, ++line;
    }
    FAIL("no line holds `" << needle << "`");
    return 0;
}

std::string lineText(const std::string& text, const std::string& needle, int nth = 0) {
    return "line " + std::to_string(lineOf(text, needle, nth));
}

Launch orderLaunch(uint32_t threads, bool tma, uint32_t boxRows, uint32_t outWords) {
    Launch l;
    l.entry = "k";
    l.block = {threads, 1, 1};
    if (tma) {
        auto t = parseExecTensor("T=tensor:u16[128,64]:index");
        REQUIRE(t);
        l.tensors.push_back(*t);
        auto map = parseExecArg("0=tensormap:tiled UINT16 dims=[64,128] strides=[128] box=[64," +
                                std::to_string(boxRows) + "] address=T");
        REQUIRE(map);
        l.args.push_back(*map);
    }
    if (outWords)
        l.args.push_back(tensorArg<uint32_t>(tma ? "1" : "0", "u32", std::vector<uint32_t>(outWords, 0)));
    return l;
}

// The broken kernel: the run fails with exactly `want` (in order); the fixed twin runs with no order finding.
void checkPair(const std::string& name, const Launch& l, const std::vector<Expected>& want) {
    const std::string broken = readData("order/" + name + ".ptx"),
                      fixed = readData("order/" + name + "_fixed.ptx");
    REQUIRE_FALSE(broken.empty());
    REQUIRE_FALSE(fixed.empty());
    SECTION("the broken kernel gets exactly its diagnostics") {
        auto r = runText(broken, l);
        REQUIRE_FALSE(r);
        const auto& got = r.diagnostics();
        for (const Diagnostic& d : got) UNSCOPED_INFO(formatDiagnostic(d));
        REQUIRE(got.size() == want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            CHECK(got[i].severity == want[i].severity);
            if (!want[i].atNeedle.empty()) CHECK(got[i].span.line == lineOf(broken, want[i].atNeedle));
            CHECK_THAT(got[i].message, Catch::StartsWith("order: "));
            for (const std::string& s : want[i].contains) CHECK_THAT(got[i].message, Catch::Contains(s));
        }
    }
    SECTION("its fixed twin runs clean") {
        auto r = runText(fixed, l);
        if (!r) FAIL(formatDiagnostic(r.error()));
        for (const Diagnostic& d : r->notes) CHECK_THAT(d.message, !Catch::StartsWith("order: "));
    }
}

} // namespace

TEST_CASE("exec order: a TMA reload of a stage before the tcgen05.mma reading it completed is a race",
          "[exec][exec_order][exec_order_mma]") {
    const std::string t = readData("order/tma_reload_before_mma_done.ptx");
    checkPair("tma_reload_before_mma_done", orderLaunch(128, true, 36, 128 * 16),
              {{Severity::Error,
                "{0, 36}",
                {"race (write after read): TMA load", lineText(t, "{0, 36}"), "tcgen05.mma",
                 lineText(t, "tcgen05.mma.cta_group"), "may still be reading", "tcgen05.commit",
                 "mbarrier.try_wait.parity"}}});
}

TEST_CASE("exec order: a tcgen05.mma issued before the TMA barrier wait is a race",
          "[exec][exec_order][exec_order_mma]") {
    const std::string t = readData("order/mma_before_tma_wait.ptx");
    checkPair(
        "mma_before_tma_wait", orderLaunch(128, true, 36, 128 * 16),
        {{Severity::Error,
          "tcgen05.mma.cta_group::1",
          {"race (read after write): tcgen05.mma", lineText(t, "tcgen05.mma.cta_group"), "reads A operand",
           "TMA load", lineText(t, "cp.async.bulk.tensor"), "mbarrier.try_wait.parity", ", 0 before"}}});
}

TEST_CASE("exec order: a tcgen05.ld result read by tcgen05.st before tcgen05.wait::ld is a race",
          "[exec][exec_order][exec_order_mma]") {
    const std::string t = readData("order/tmem_ld_used_before_wait.ptx");
    checkPair(
        "tmem_ld_used_before_wait", orderLaunch(32, false, 0, 32 * 8),
        {{Severity::Error,
          "[%r6], {%v0",
          {"race (read after write): `tcgen05.st", "register %v0 of thread 0", "tcgen05.ld",
           lineText(t, "{%v0, %v1"), lineText(t, "[%r6], {%v0"), "tcgen05.wait::ld.sync.aligned before"}}});
}

TEST_CASE("exec order: tcgen05.dealloc while a tcgen05.mma is in flight is an error",
          "[exec][exec_order][exec_order_mma]") {
    const std::string t = readData("order/dealloc_mma_in_flight.ptx");
    checkPair("dealloc_mma_in_flight", orderLaunch(128, false, 0, 0),
              {{Severity::Error,
                "tcgen05.dealloc.cta_group",
                {"tcgen05.mma", lineText(t, "tcgen05.mma.cta_group"), "still in flight at tcgen05.dealloc",
                 lineText(t, "tcgen05.dealloc.cta_group"), "TMEM lanes [0, 128) columns [0, 16)",
                 "tcgen05.commit"}},
               {Severity::Warning, "", {"tcgen05.mma", "still in flight at kernel exit"}}});
}

TEST_CASE("exec order: a TMA reload of a stage a wgmma may still read before wgmma.wait_group is a race",
          "[exec][exec_order][exec_order_mma]") {
    const std::string t = readData("order/wgmma_stage_reload_before_wait.ptx");
    checkPair("wgmma_stage_reload_before_wait", orderLaunch(128, true, 18, 128 * 4),
              {{Severity::Error,
                "{0, 18}",
                {"race (write after read): TMA load", lineText(t, "{0, 18}"), "wgmma.mma_async",
                 lineText(t, "wgmma.mma_async.sync"), "wgmma.wait_group 0 before the access"}}});
}

TEST_CASE(
    "exec order: the wgmma accumulator read before wgmma.wait_group is a race; a chain of wgmmas is not",
    "[exec][exec_order][exec_order_mma]") {
    // PTX ISA 9.2 §9.7.15.5.2: D's registers may be accessed only after a wgmma.wait_group covering the
    // wgmma's group, except by further wgmma.mma_async of the same shape (both kernels chain two).
    const std::string t = readData("order/wgmma_d_read_before_wait.ptx");
    checkPair(
        "wgmma_d_read_before_wait", orderLaunch(128, true, 18, 128 * 4),
        {{Severity::Error,
          "st.global.v4.f32",
          {"race (read after write): `st.global.v4.f32", "reads register %f0 of thread", "wgmma.mma_async",
           lineText(t, "wgmma.mma_async.sync.aligned", 1), // the later of the chain writes D last
           "wgmma.commit_group after it and wgmma.wait_group 0"}}});
}

TEST_CASE("exec order: a wgmma.mma_async using registers written with no wgmma.fence between is a warning",
          "[exec][exec_order][exec_order_mma]") {
    // PTX ISA 9.2 §9.7.15.6.1: wgmma.fence before a warp's first wgmma.mma_async and between a register write
    // and a wgmma using the register. The kernel runs (ptxas inserts the fence, info C7519): one warning,
    // at the first wgmma, naming the mov that zeroed the accumulator; the chained second wgmma none.
    auto orderNotes = [](const ExecResult& r) {
        std::vector<Diagnostic> out;
        for (const Diagnostic& d : r.notes)
            if (d.message.rfind("order: ", 0) == 0) out.push_back(d);
        return out;
    };
    const std::string t = readData("order/wgmma_no_fence.ptx");
    auto bad = runText(t, orderLaunch(128, true, 18, 128 * 4));
    if (!bad) FAIL(formatDiagnostic(bad.error()));
    const auto got = orderNotes(*bad);
    for (const Diagnostic& d : got) UNSCOPED_INFO(formatDiagnostic(d));
    REQUIRE(got.size() == 1);
    CHECK(got[0].severity == Severity::Warning);
    CHECK(got[0].span.line == lineOf(t, "wgmma.mma_async.sync.aligned"));
    for (const std::string& want :
         {std::string("uses register %f0"), std::string("`mov.f32 \t%f0, 0f00000000`"),
          lineText(t, "mov.f32 \t%f0"), std::string("no wgmma.fence between them"), std::string("C7519"),
          std::string("Fix: wgmma.fence.sync.aligned")})
        CHECK_THAT(got[0].message, Catch::Contains(want));
    auto good = runText(readData("order/wgmma_no_fence_fixed.ptx"), orderLaunch(128, true, 18, 128 * 4));
    if (!good) FAIL(formatDiagnostic(good.error()));
    CHECK(orderNotes(*good).empty());
}

TEST_CASE("exec order: D read by tcgen05.ld after __syncthreads alone races with the MMA writing it",
          "[exec][exec_order][exec_order_mma]") {
    // tcgen05_kernels.ptx umma_f16 with commit = 0: no tcgen05.commit / mbarrier wait between the MMAs and
    // the epilogue's tcgen05.ld (its README: not valid on hardware). commit = 1 is the correct kernel.
    const std::string t = readData("tcgen05_kernels.ptx");
    auto run = [&](const char* commit) {
        Launch l;
        l.entry = "umma_f16";
        l.block = {128, 1, 1};
        l.args = {tensorArg<uint8_t>("0", "u8", std::vector<uint8_t>(128 * 64, 0)),
                  tensorArg<uint8_t>("1", "u8", std::vector<uint8_t>(64 * 64, 0)),
                  tensorArg<uint32_t>("2", "u32", std::vector<uint32_t>(128 * 64, 0)),
                  scalarArg("3", "135266320"), scalarArg("4", commit)};
        return runText(t, l);
    };
    auto bad = run("0");
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error().message, Catch::Contains("race (read after write): `tcgen05.ld"));
    CHECK_THAT(bad.error().message, Catch::Contains("which tcgen05.mma"));
    CHECK_THAT(bad.error().message, Catch::Contains("only tcgen05.commit makes visible"));
    auto good = run("1");
    if (!good) FAIL(formatDiagnostic(good.error()));
}

TEST_CASE("exec order: ptxas accepts every planted kernel and its twin (skipped without ptxas)",
          "[exec][exec_order_mma][ptxas]") {
    const std::string ptxas = layoutscope::test::findPtxas();
    if (ptxas.empty()) {
        WARN("SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas; the planted kernels not "
             "assembled");
        return;
    }
    for (const char* name :
         {"tma_reload_before_mma_done", "mma_before_tma_wait", "tmem_ld_used_before_wait",
          "dealloc_mma_in_flight", "wgmma_stage_reload_before_wait", "wgmma_d_read_before_wait"})
        for (const char* twin : {"", "_fixed"}) {
            const std::string file = std::string(name) + twin + ".ptx";
            const std::string text = readData("order/" + file);
            const std::string arch = text.find(".target sm_90a") != std::string::npos ? "sm_90a" : "sm_100a";
            const auto out =
                std::filesystem::temp_directory_path() / ("layoutscope_order_" + file + ".cubin");
            const std::string cmd = "'" + ptxas + "' -arch=" + arch + " '" +
                                    std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/exec/order/" + file +
                                    "' -o '" + out.string() + "' > /dev/null 2>&1";
            INFO(cmd);
            CHECK(std::system(cmd.c_str()) == 0);
            std::filesystem::remove(out);
        }
}

TEST_CASE("exec order: Tensor Memory lane x column rectangles overlap only on a common lane and column",
          "[exec][exec_order_mma][async]") {
    // An MMA's D write of lanes [32, 64) x columns [8, 16) (async::Range::lanes), never completed; each read
    // below comes from its own thread, so each overlap is its own read-after-write race.
    using namespace layoutscope::async;
    Model mo;
    auto site = [](uint32_t thread) {
        return Site{{0, thread / 32, thread}, SourceSpan{int(thread) + 1, 1, 1}, "x"};
    };
    auto tmem = [](uint32_t lane, uint32_t col, uint32_t cols, uint32_t lanes) {
        return Range{MemSpace::TensorMemory,
                     0,
                     uint64_t(lane) << 16 | col,
                     (uint64_t(lane) << 16 | col) + cols,
                     "D",
                     lanes};
    };
    AsyncOp op;
    op.kind = OpKind::Tcgen05Mma;
    op.how = Completion::Tcgen05Commit;
    op.writes = {tmem(32, 8, 8, 32)};
    mo.issue(site(0), op);
    mo.access(site(40), {tmem(40, 12, 1, 1)}, {}); // inside: lane 40, column 12
    mo.access(site(64), {tmem(64, 8, 8, 1)}, {});  // lane 64: outside the lanes
    mo.access(site(33), {tmem(33, 16, 4, 1)}, {}); // columns [16, 20): outside the columns
    mo.access(site(96), {tmem(0, 15, 6, 128)},
              {}); // every lane, columns [15, 21): lanes [32, 64) x column 15
    const auto& f = mo.findings();
    REQUIRE(f.size() == 2);
    CHECK(f[0].span.line == 41);
    CHECK_THAT(f[0].message, Catch::Contains("race (read after write)"));
    CHECK_THAT(f[0].message, Catch::Contains("TMEM lane 40 columns [12, 13) of CTA 0"));
    CHECK(f[1].span.line == 97);
    CHECK_THAT(f[1].message, Catch::Contains("TMEM lanes [32, 64) columns [15, 16) of CTA 0"));
}

namespace {

// One warp: alloc 32 columns, tcgen05.st columns 0-7 + wait::st, tcgen05.ld them, then `use`, then
// bar.sync and dealloc (no tcgen05.wait::ld anywhere).
std::string ldThenDealloc(const std::string& use) {
    return R"(.version 8.7
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b32 %v<8>;
	.reg .b64 %rd<4>;
	.shared .align 4 .b32 slot;
	mov.u32 %r1, slot;
	tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;
	tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
	bar.sync 0;
	ld.shared.b32 %r2, [%r1];
	mov.u32 %r0, %tid.x;
	tcgen05.st.sync.aligned.32x32b.x8.b32 [%r2], {%r0, %r0, %r0, %r0, %r0, %r0, %r0, %r0};
	tcgen05.wait::st.sync.aligned;
	tcgen05.ld.sync.aligned.32x32b.x8.b32 {%v0, %v1, %v2, %v3, %v4, %v5, %v6, %v7}, [%r2];
)" + use + R"(
	bar.sync 0;
	tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r2, 32;
	ret;
}
)";
}

Launch oneWarp() {
    Launch l;
    l.entry = "k";
    l.block = {32, 1, 1};
    l.args.push_back(tensorArg<uint32_t>("0", "u32", std::vector<uint32_t>(32, 0)));
    return l;
}

} // namespace

TEST_CASE(
    "exec order: tcgen05.ld registers read by a plain instruction complete the load (register dependency)",
    "[exec][exec_order_mma]") {
    // ref/tcgen05.md §4 (PTX §9.7.16.6.4.5): a register true dependency on a tcgen05.ld destination is
    // honoured, as CUTLASS's epilogues and the CuTe tutorials assume: no wait::ld, yet nothing is in flight
    // at dealloc.
    const std::string ptx = ldThenDealloc("\tadd.s32 %r3, %v0, %v7;\n"
                                          "\tld.param.u64 %rd0, [out];\n"
                                          "\tcvta.to.global.u64 %rd0, %rd0;\n"
                                          "\tst.global.b32 [%rd0], %r3;");
    auto r = runText(ptx, oneWarp());
    if (!r) FAIL(formatDiagnostic(r.error()));
    for (const Diagnostic& d : r->notes) CHECK_THAT(d.message, !Catch::StartsWith("order: "));
}

TEST_CASE("exec order: a tcgen05.ld neither waited for nor read is in flight at the dealloc of its columns",
          "[exec][exec_order_mma]") {
    const std::string ptx = ldThenDealloc("");
    auto r = runText(ptx, oneWarp());
    REQUIRE_FALSE(r);
    CHECK(r.error().span.line == lineOf(ptx, "tcgen05.dealloc"));
    CHECK_THAT(r.error().message, Catch::Contains("tcgen05.ld"));
    CHECK_THAT(r.error().message, Catch::Contains("line " + std::to_string(lineOf(ptx, "tcgen05.ld"))));
    CHECK_THAT(r.error().message, Catch::Contains("still in flight at tcgen05.dealloc"));
    CHECK_THAT(r.error().message, Catch::Contains("tcgen05.wait::ld"));
}

TEST_CASE(
    "exec order: a tcgen05.st over the columns of a tcgen05.ld not yet complete is a write-after-read race",
    "[exec][exec_order_mma]") {
    const std::string ptx =
        ldThenDealloc("\ttcgen05.st.sync.aligned.32x32b.x8.b32 [%r2], {%r0, %r0, %r0, %r0, "
                      "%r0, %r0, %r0, %r0};\n\ttcgen05.wait::st.sync.aligned;");
    auto r = runText(ptx, oneWarp());
    REQUIRE_FALSE(r);
    const int st = lineOf(ptx, "tcgen05.st.sync", 1), ld = lineOf(ptx, "tcgen05.ld");
    CHECK(r.error().span.line == st);
    CHECK_THAT(r.error().message, Catch::Contains("race (write after read): tcgen05.st"));
    CHECK_THAT(r.error().message, Catch::Contains("TMEM lanes [0, 32) columns [0, 8)"));
    CHECK_THAT(r.error().message, Catch::Contains("tcgen05.ld"));
    CHECK_THAT(r.error().message, Catch::Contains("line " + std::to_string(ld)));
    CHECK_THAT(r.error().message, Catch::Contains("tcgen05.wait::ld"));
}
