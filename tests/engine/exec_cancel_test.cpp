// The executor's Cancel and progress (issue 25 item 3: long work in the GUI runs off the UI thread with a
// progress bar and Cancel; ExecOptions::cancel / progress). Truth: the documented polling contract: the
// flag and the callback are looked at every ExecOptions::kProgressEvery warp instructions, so a flag
// raised by the callback at its third call stops the run at exactly 3 * kProgressEvery instructions.
#include "exec_test_util.hpp"

#include <atomic>

using namespace exectest;

TEST_CASE("exec: a cancelled endless loop stops with a \"run cancelled\" error at the next poll",
          "[exec][cancel]") {
    auto m = readPtxModule(".version 8.0\n.target sm_90a\n.address_size 64\n"
                           ".visible .entry k()\n{\nL:\nbra.uni L;\n}\n");
    REQUIRE(m);
    Launch l;
    l.block = {64, 1, 1}; // two warps
    std::atomic<bool> cancel{false};
    std::vector<uint64_t> calls;
    ExecOptions o;
    o.cancel = &cancel;
    o.progress = [&](uint64_t n) {
        calls.push_back(n);
        if (calls.size() == 3) cancel = true;
    };
    auto r = runKernel(*m, l, o);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == DiagCode::Unsupported);
    CHECK_THAT(r.error().message,
               Catch::Contains("run cancelled after " + std::to_string(3 * ExecOptions::kProgressEvery)));
    CHECK(r.error().span.line == 7); // the loop's bra.uni (line 4 is .entry, 5 {, 6 L:)
    REQUIRE(calls.size() == 3);
    for (size_t i = 0; i < calls.size(); ++i) CHECK(calls[i] == (i + 1) * ExecOptions::kProgressEvery);
}

TEST_CASE("exec: a run that is not cancelled is unaffected by the flag and reports progress",
          "[exec][cancel]") {
    // 3 * kProgressEvery iterations of a 2-instruction loop body (add, setp, @p bra: 3 instructions) in one
    // warp: the progress callback sees every multiple of kProgressEvery up to the instructions issued.
    const uint64_t iters = ExecOptions::kProgressEvery;
    auto m = readPtxModule(".version 8.0\n.target sm_90a\n.address_size 64\n"
                           ".visible .entry k()\n{\n.reg .u32 %r<2>;\n.reg .pred %p<2>;\n"
                           "mov.u32 %r0, 0;\nL:\nadd.u32 %r0, %r0, 1;\nsetp.lt.u32 %p0, %r0, " +
                           std::to_string(iters) + ";\n@%p0 bra.uni L;\nret;\n}\n");
    REQUIRE(m);
    Launch l;
    l.block = {32, 1, 1};
    std::atomic<bool> cancel{false};
    uint64_t last = 0, count = 0;
    ExecOptions o;
    o.cancel = &cancel;
    o.progress = [&](uint64_t n) { last = n, ++count; };
    auto r = runKernel(*m, l, o);
    REQUIRE(r);
    CHECK(r->warpInstructions >= 3 * iters);
    CHECK(count == r->warpInstructions / ExecOptions::kProgressEvery);
    CHECK(last == count * ExecOptions::kProgressEvery);
}
