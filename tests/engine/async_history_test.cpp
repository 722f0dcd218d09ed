// Issue 25 item 3: async::IndexedHistory, the granule index of the happens-before checker's access history
// (engine/src/async/history.hpp), whose records live in fixed chunks (ChunkedVector) and keep their range
// as an Extent. Truth: a plain std::vector of every record added with a dead flag per record, walked in
// full (the linear history the index replaced); on random access sequences in every memory space, past
// several 4,096-record chunks, the index must return every live record that overlaps the query (and the
// reads only when asked), each once, ascending, never a killed one, and hold exactly what was added.
#include "async/history.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace async_history_test { // named, not anonymous: the tests build in unity batches
using namespace layoutscope;
using namespace layoutscope::async;

struct Rec {
    Extent range;
    bool write = false;
    uint32_t tag = 0;
};

/// A random range: shared or global bytes (some wider than the 4,096-granule wide limit), a thread's
/// registers (thread << 32 | 4 * slot), or a Tensor Memory lane x column rectangle.
Extent randomExtent(std::mt19937& rng) {
    auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
    Extent e;
    e.cta = pick(2);
    switch (pick(4)) {
    case 0:
    case 1: {
        e.space = pick(2) ? MemSpace::SharedCta : MemSpace::Global;
        e.begin = pick(8192);
        e.end = e.begin + 1 + (pick(50) == 0 ? 600000 : pick(512));
        break;
    }
    case 2: {
        e.space = MemSpace::Register;
        e.begin = uint64_t(pick(4)) << 32 | 4 * pick(160);
        e.end = e.begin + 4 * (1 + pick(128));
        break;
    }
    default: {
        e.space = MemSpace::TensorMemory;
        e.lanes = 1 + pick(pick(3) ? 1 : 128);
        const uint32_t lane = pick(129 - e.lanes), col = pick(512);
        e.begin = uint64_t(lane) << 16 | col;
        e.end = e.begin + 1 + pick(128);
        break;
    }
    }
    return e;
}

} // namespace async_history_test

TEST_CASE("async: the indexed history returns exactly the live overlapping records of a linear walk",
          "[async][history]") {
    using namespace async_history_test;
    for (const uint32_t seed : {1u, 2u, 3u}) {
        std::mt19937 rng(seed);
        IndexedHistory<Rec> index;
        std::vector<Rec> all; // the reference: every record, in order
        std::vector<bool> dead;
        std::vector<uint32_t> got;
        const uint32_t n = 9000; // three chunks of 4,096 records
        for (uint32_t k = 0; k < n; ++k) {
            const Extent q = randomExtent(rng);
            const bool write = rng() % 2 != 0;
            index.candidates(q, got, write);
            // Each once, ascending, live, and every live overlapping record of the walk is there.
            REQUIRE(std::is_sorted(got.begin(), got.end()));
            REQUIRE(std::adjacent_find(got.begin(), got.end()) == got.end());
            std::vector<uint32_t> overlapping;
            for (const uint32_t i : got) {
                REQUIRE(i < all.size());
                REQUIRE_FALSE(dead[i]);
                REQUIRE((write || all[i].write));
                if (overlaps(all[i].range, q)) overlapping.push_back(i);
            }
            std::vector<uint32_t> expected;
            for (uint32_t i = 0; i < all.size(); ++i)
                if (!dead[i] && (write || all[i].write) && overlaps(all[i].range, q)) expected.push_back(i);
            REQUIRE(overlapping == expected); // a wide query too (main's index missed narrow records)
            // A write kills what it covers (as Model::Impl::record does), and now and then another record.
            for (const uint32_t i : got)
                if ((write && covers(q, all[i].range)) || rng() % 64 == 0) {
                    index.kill(i);
                    dead[i] = true;
                }
            index.add(Rec{q, write, k});
            all.push_back(Rec{q, write, k});
            dead.push_back(false);
        }
        REQUIRE(index.size() == all.size());
        for (uint32_t i = 0; i < n; ++i) {
            REQUIRE(index[i].tag == i);
            REQUIRE(index[i].range.begin == all[i].range.begin);
            REQUIRE(index[i].range.end == all[i].range.end);
        }
    }
}

TEST_CASE("async: Extent geometry equals the Range geometry it comes from", "[async][history]") {
    using namespace async_history_test;
    // Hand-derived: Tensor Memory address lane << 16 | column; lanes 4-7 x columns 8-15 and lanes 6-9 x
    // columns 12-19 share lanes 6-7 x columns 12-15; shared [0x10, 0x20) and [0x20, 0x30) share nothing.
    const Range a{MemSpace::TensorMemory, 0, 4u << 16 | 8, (4u << 16 | 8) + 8, "TMEM", 4};
    const Range b{MemSpace::TensorMemory, 0, 6u << 16 | 12, (6u << 16 | 12) + 8, "", 4};
    CHECK(overlaps(extentOf(a), extentOf(b)));
    const Range ov = intersect(b, extentOf(a));
    CHECK(ov.begin == (6u << 16 | 12));
    CHECK(ov.end == (6u << 16 | 16));
    CHECK(ov.lanes == 2);
    CHECK(ov.name.empty()); // the first argument's name
    CHECK_FALSE(covers(extentOf(a), extentOf(b)));
    const Range s1{MemSpace::SharedCta, 0, 0x10, 0x20, "s"}, s2{MemSpace::SharedCta, 0, 0x20, 0x30, "s"};
    CHECK_FALSE(overlaps(extentOf(s1), extentOf(s2)));
    CHECK(covers(extentOf(Range{MemSpace::SharedCta, 0, 0x10, 0x30, "s"}), extentOf(s2)));
    CHECK_FALSE(overlaps(extentOf(s1), extentOf(Range{MemSpace::SharedCta, 1, 0x10, 0x20, "s"}))); // CTA 1
}
