// Issue 23: the async-completion model and its happens-before checker. Truth: each broken example plants
// one ordering bug (its header says which); the expected diagnostics below are derived from that bug and
// the PTX rule it breaks (which access races with which, where a wait hangs), not from the checker's
// output. Each fixed twin adds the missing wait / commit / fence / parity and must get none.
#include "layoutscope/async/async.hpp"
#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace layoutscope;

namespace {

struct Expected {
    Severity severity;
    int line;
    std::vector<std::string> parts; ///< substrings the message must contain
};

// Every Error and Warning of the run must match exactly one expectation, and every expectation one of them.
void checkExactly(const std::string& file, const std::vector<Expected>& want) {
    const test::LoadedScenario l = test::loadBrokenExample(file);
    std::vector<const Diagnostic*> got;
    for (const Diagnostic& d : l.run.warnings)
        if (d.severity != Severity::Note) got.push_back(&d);
    std::string all;
    for (const Diagnostic* d : got) all += std::to_string(d->span.line) + ": " + d->message + "\n";
    INFO(file << " reported:\n" << all);
    REQUIRE(got.size() == want.size());
    std::vector<bool> used(got.size(), false);
    for (const Expected& e : want) {
        bool found = false;
        for (size_t i = 0; i < got.size() && !found; ++i) {
            if (used[i] || got[i]->severity != e.severity || got[i]->span.line != e.line) continue;
            bool all = true;
            for (const std::string& p : e.parts) all = all && got[i]->message.find(p) != std::string::npos;
            if (all) used[i] = found = true;
        }
        INFO("expected at line " << e.line << ": " << e.parts.front());
        CHECK(found);
    }
}

// Races, hangs and in-flight-at-dealloc are errors; an operation still in flight at kernel exit is a warning.
constexpr Severity E = Severity::Error, W = Severity::Warning;

} // namespace

TEST_CASE("async: each broken ordering example gets exactly its diagnostics, its fixed twin none",
          "[async]") {
    struct Pair {
        const char* name;
        std::vector<Expected> want;
    };
    const std::vector<Pair> pairs{
        {"async_parity_first_phase",
         {{E,
           12,
           {"race (read after write)", "ld.shared", "TMA load", "mbarrier.try_wait.parity [bar], 0",
            "names the phase before phase 0"}},
          {W, 12, {"TMA load", "still in flight at kernel exit"}}}},
        {"async_no_wait_before_consumer",
         {{E, 11, {"race (read after write)", "ld.shared", "mbarrier.try_wait.parity [bar], 0"}},
          {W, 11, {"still in flight at kernel exit"}}}},
        {"async_cp_wait_st_no_commit",
         {{E, 21, {"race (read after write): tcgen05.ld", "tcgen05.cp", "tcgen05.commit"}},
          {E, 23, {"tcgen05.cp", "still in flight at tcgen05.dealloc"}},
          {W, 24, {"tcgen05.cp", "kernel exit"}}}},
        {"async_stage_reload_before_release",
         {{E, 28, {"race (write after read): TMA load", "sA", "tcgen05.mma", "tcgen05.commit"}}}},
        {"async_multicast_mask_omits_cta",
         {{E,
           41,
           {"ctaMask 0x7 (line 33) omits CTA 3, whose barrier at 0x2400 expects 8192 B", "never completes",
            "0 of 8192 tx bytes"}}}},
        {"async_double_buffer_wrong_phase",
         {{E, 49, {"race (write after read): TMA load", "sA1", "wgmma.mma_async", "wgmma.wait_group 0"}}}},
        {"async_release_before_mma_done",
         {{E, 25, {"race (write after read): TMA load", "sA", "wgmma.mma_async", "wgmma.wait_group 0"}}}},
        {"async_store_without_proxy_fence",
         {{E, 10, {"race (proxy)", "TMA store", "st.shared", "fence.proxy.async"}}}},
        {"async_tmem_ld_used_before_wait",
         {{E, 12, {"race (read after write): tcgen05.st", "registers r8..r15", "tcgen05.wait::ld"}}}},
        {"async_mma_before_tma_wait",
         {{E, 21, {"race (read after write): tcgen05.mma", "reads sA", "TMA load"}},
          {E, 21, {"race (read after write): tcgen05.mma", "reads sB", "TMA load"}}}},
        {"async_dealloc_mma_in_flight",
         {{E, 23, {"tcgen05.mma", "still in flight at tcgen05.dealloc", "tcgen05.commit"}},
          {W, 24, {"tcgen05.mma", "kernel exit"}}}},
        {"async_mbarrier_before_init",
         {{E, 7, {"mbarrier bar", "before any mbarrier.init"}},
          {E, 11, {"race (read after write)", "ld.shared"}},
          {W, 11, {"kernel exit"}}}},
        {"async_remote_barrier_no_init_fence",
         {{E, 20, {"mbarrier bar1 of CTA 1", "used from CTA 0", "no fence.mbarrier_init"}}}},
    };
    for (const Pair& p : pairs) {
        SECTION(p.name) {
            checkExactly(std::string(p.name) + ".scn", p.want);
            checkExactly(std::string(p.name) + "_fixed.scn", {});
        }
    }
}

TEST_CASE("async: a wait whose parity names the phase before the first one is explained", "[async]") {
    const test::LoadedScenario l = test::loadBrokenExample("async_parity_first_phase.scn");
    int notes = 0;
    for (const Diagnostic& d : l.run.warnings)
        if (d.severity == Severity::Note) {
            ++notes;
            CHECK(d.span.line == 11);
            CHECK(d.message.find("completes at once") != std::string::npos);
            CHECK(d.message.find("phase 0 (parity 0)") != std::string::npos);
        }
    CHECK(notes == 1);
}

TEST_CASE("async: the model's groups, commits and barriers order exactly what PTX says", "[async]") {
    using namespace layoutscope::async;
    auto site = [](int line) { return Site{{0, 0, 0}, {line, 1, 1}, "line " + std::to_string(line)}; };
    auto smem = [](uint64_t b, uint64_t e) { return Range{MemSpace::SharedCta, 0, b, e, "s"}; };
    auto errors = [](const Model& m) {
        int n = 0;
        for (const Diagnostic& d : m.findings()) n += d.severity == Severity::Error;
        return n;
    };
    SECTION("wait_group 1 completes only the older of two bulk groups") {
        Model m;
        m.issue(site(1),
                AsyncOp{OpKind::TmaStore, {smem(0, 64)}, {}, Completion::BulkGroup, {}, 0, 0, UINT32_MAX});
        m.commitGroup(site(2), Completion::BulkGroup);
        m.issue(site(3),
                AsyncOp{OpKind::TmaStore, {smem(64, 128)}, {}, Completion::BulkGroup, {}, 0, 0, UINT32_MAX});
        m.commitGroup(site(4), Completion::BulkGroup);
        m.waitGroup(site(5), Completion::BulkGroup, 1, true);
        m.access(site(6), {}, {smem(0, 64)}); // the first store's source: read by then
        CHECK(errors(m) == 0);
        m.access(site(7), {}, {smem(64, 128)}); // the second store may still read it
        CHECK(errors(m) == 1);
    }
    SECTION("a phase completes only when its arrivals and its tx bytes are all in; a missing arrival hangs") {
        Model m;
        const BarrierRef b{0, 0x400, "bar"};
        m.init(site(1), b, 2);
        m.arrive(site(2), b, 128, true);
        m.issue(site(3),
                AsyncOp{OpKind::TmaLoad, {}, {smem(0, 128)}, Completion::Mbarrier, b, 128, 0, UINT32_MAX});
        CHECK_FALSE(m.wait(site(4), b, 0u)); // 1 of 2 arrivals
        REQUIRE(errors(m) == 1);
        CHECK(m.findings().back().message.find("1 of 2 arrivals, 128 of 128 tx bytes") != std::string::npos);
    }
    SECTION("tcgen05.commit covers every earlier tcgen05.mma of the thread; tcgen05.wait::st does not") {
        Model m;
        const BarrierRef b{0, 0x400, "done"};
        const Range tmem{MemSpace::TensorMemory, 0, 0, 64, "TMEM"};
        m.init(site(1), b, 1);
        m.issue(site(2),
                AsyncOp{OpKind::Tcgen05Mma, {}, {tmem}, Completion::Tcgen05Commit, {}, 0, 0, UINT32_MAX});
        m.tcgen05Wait(site(3), Completion::Tcgen05WaitSt);
        m.dealloc(site(4), 0, 32);
        CHECK(errors(m) == 1); // still in flight at the dealloc
        m.tcgen05Commit(site(5), b);
        CHECK(m.wait(site(6), b, 0u));
        m.dealloc(site(7), 32, 64);
        CHECK(errors(m) == 1);
    }
}

// Issue 25 item 3 (linear time): N TMA loads into one buffer with no wait between them. Hand-derived: each
// load's write covers the previous load's whole range, so the previous one is the only live record it meets
// (history.hpp: a covering write supersedes what it overwrote), and it races with exactly that one: N - 1
// comparisons and N - 1 write-after-write races. Before, load k was compared with all k - 1 earlier loads
// (N (N - 1) / 2 comparisons and as many races: 1,000 such loads took 26 s and 1.4 GiB).
TEST_CASE("async: a write supersedes the accesses it covers, so the checker's work is linear", "[async]") {
    using namespace layoutscope::async;
    auto site = [](int line) { return Site{{0, 0, 0}, {line, 1, 1}, "line " + std::to_string(line)}; };
    const Range tile{MemSpace::SharedCta, 0, 0x400, 0x400 + 8192, "sA"};
    const BarrierRef b{0, 0x100, "full"};
    auto errors = [](const Model& m) {
        size_t n = 0;
        for (const Diagnostic& d : m.findings()) n += d.severity == Severity::Error;
        return n;
    };
    SECTION("unwaited loads: each meets only the one before it") {
        for (const uint32_t n : {100u, 1000u}) {
            Model m;
            m.init(site(1), b, 1);
            for (uint32_t k = 0; k < n; ++k)
                m.issue(site(2),
                        AsyncOp{OpKind::TmaLoad, {}, {tile}, Completion::Mbarrier, b, 8192, 0, UINT32_MAX});
            CHECK(m.comparisons() == n - 1);
            CHECK(errors(m) == n - 1);
        }
    }
    SECTION("load, wait, 32 lane reads of 16 B, next load: the reads are superseded by the next load") {
        // Round k: the load meets load k-1 and the 32 reads of round k-1 (33); lane j's read meets this
        // round's load only (1): a read is compared with writes alone, never with the reads of lanes j-8,
        // j-16, ... in its 128-byte granule (a read-read pair cannot race). Per round 33 + 32.
        const uint32_t n = 200;
        Model m;
        m.init(site(1), b, 1);
        for (uint32_t k = 0; k < n; ++k) {
            m.arrive(site(2), b, 8192, true);
            m.issue(site(3),
                    AsyncOp{OpKind::TmaLoad, {}, {tile}, Completion::Mbarrier, b, 8192, 0, UINT32_MAX});
            m.wait(site(4), b, k & 1);
            for (uint32_t j = 0; j < 32; ++j)
                m.access(site(5), {Range{MemSpace::SharedCta, 0, 0x400 + 16 * j, 0x400 + 16 * j + 16, "sA"}},
                         {});
        }
        const uint64_t perRound = 33 + 32;
        CHECK(m.comparisons() == (n - 1) * perRound + 32); // round 0's load meets nothing
        CHECK(errors(m) == 0); // each load waits for nothing it overwrites: the reads are the same thread's
    }
}
