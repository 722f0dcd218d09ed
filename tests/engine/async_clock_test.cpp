// Issue 25 item 3: async::Clock, the persistent vector clock of the happens-before checker. Truth: a dense
// std::vector<uint32_t> clock kept here (component u = v[u], 0 past the end; join = component-wise max),
// obviously correct and independent of the trie; every read of the persistent clock must equal it.
#include "async/clock.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using layoutscope::async::Clock;

namespace {

/// The reference: a dense vector clock.
struct Dense {
    std::vector<uint32_t> v;
    [[nodiscard]] uint32_t at(uint32_t u) const { return u < v.size() ? v[u] : 0; }
    void set(uint32_t u, uint32_t x) {
        if (v.size() <= u) v.resize(u + 1, 0);
        v[u] = x;
    }
    void join(const Dense& b) {
        if (v.size() < b.v.size()) v.resize(b.v.size(), 0);
        for (size_t i = 0; i < b.v.size(); ++i) v[i] = std::max(v[i], b.v[i]);
    }
};

/// Every component below `units` (and a few past it) of c equals d's.
bool sameAs(const Clock& c, const Dense& d, uint32_t units) {
    for (uint32_t u = 0; u < units + 40; ++u)
        if (c.at(u) != d.at(u)) return false;
    return true;
}

/// Components `ids` (and their neighbours) of c equal d's.
bool sameAt(const Clock& c, const Dense& d, const std::vector<uint32_t>& ids) {
    for (const uint32_t u : ids)
        for (const uint32_t v : {u, u + 1, u - 1})
            if (c.at(v) != d.at(v)) return false;
    return true;
}

} // namespace

TEST_CASE("async clock: a fresh clock reads 0 everywhere; set writes one component", "[async][clock]") {
    Clock c;
    CHECK(c.at(0) == 0);
    CHECK(c.at(4000000000u) == 0);
    SECTION("within the first leaf") {
        c.set(3, 7);
        CHECK(c.at(3) == 7);
        CHECK(c.at(2) == 0);
        CHECK(c.at(4) == 0);
    }
    SECTION("units far apart grow the trie; earlier components survive the growth") {
        const std::vector<uint32_t> units = {0, 31, 32, 1023, 1024, 32767, 32768, 1u << 20, 0xFFFFFFFFu};
        uint32_t x = 1;
        for (uint32_t u : units) c.set(u, x++);
        x = 1;
        for (uint32_t u : units) CHECK(c.at(u) == x++);
        CHECK(c.at(33) == 0);
        CHECK(c.at(0xFFFFFFFEu) == 0);
    }
    SECTION("setting 0 where nothing was set leaves the clock empty") {
        c.set(1u << 30, 0);
        CHECK(Clock::distinctNodes({&c}) == 0);
        CHECK(c.at(1u << 30) == 0);
    }
    SECTION("clear makes every component 0") {
        c.set(5, 1);
        c.set(70000, 2);
        c.clear();
        CHECK(c.at(5) == 0);
        CHECK(c.at(70000) == 0);
    }
}

TEST_CASE("async clock: a copy is independent of its original (copy-on-write)", "[async][clock]") {
    Clock a;
    for (uint32_t u = 0; u < 2000; u += 3) a.set(u, u + 1);
    Clock b = a;
    b.set(3, 100);   // a shared leaf
    b.set(50000, 9); // beyond a's capacity: b grows, a does not
    a.set(1500, 1);  // a's own write after the copy
    CHECK(a.at(3) == 4);
    CHECK(b.at(3) == 100);
    CHECK(a.at(50000) == 0);
    CHECK(b.at(50000) == 9);
    CHECK(a.at(1500) == 1);
    CHECK(b.at(1500) == 1501);
    SECTION("assignment and self-assignment") {
        Clock c;
        c = b;
        const Clock& self = c;
        c = self;
        CHECK(c.at(3) == 100);
        c = std::move(b);
        CHECK(c.at(50000) == 9);
    }
}

TEST_CASE("async clock: join is the component-wise maximum", "[async][clock]") {
    SECTION("of unrelated clocks of different sizes, in both orders") {
        Clock a, b;
        Dense da, db;
        std::mt19937 rng(7);
        for (int i = 0; i < 300; ++i) {
            const uint32_t u = rng() % 3000, v = rng() % 50;
            a.set(u, v), da.set(u, v);
            const uint32_t w = rng() % 40000, x = rng() % 50;
            b.set(w, x), db.set(w, x);
        }
        Clock ab = a, ba = b;
        Dense dab = da, dba = db;
        ab.join(b), dab.join(db);
        ba.join(a), dba.join(da);
        CHECK(sameAs(ab, dab, 40000));
        CHECK(sameAs(ba, dab, 40000)); // commutative
        CHECK(sameAs(a, da, 3000));    // the operands unchanged
        CHECK(sameAs(b, db, 40000));
    }
    SECTION("with itself and with an empty clock") {
        Clock a;
        a.set(70, 2);
        a.join(a);
        a.join(Clock{});
        CHECK(a.at(70) == 2);
        Clock e;
        e.join(a);
        CHECK(e.at(70) == 2);
    }
}

TEST_CASE("async clock: random copies, increments and joins read as a dense clock", "[async][clock]") {
    // The model's patterns: units added over the run; a new unit's clock copies one clock and sets its own
    // component; a unit increments its own component; a clock joins another (a wait, an arrival). `sparse`:
    // unit numbers jump now and then (up to ~300,000), so clocks of 1 to 4 trie levels meet in the joins.
    for (const uint32_t seed : {1u, 2u, 3u, 42u, 2026u})
        for (const bool sparse : {false, true}) {
            std::mt19937 rng(seed);
            std::vector<Clock> clocks(1);
            std::vector<Dense> dense(1);
            std::vector<uint32_t> ids{0};
            uint32_t units = 1;
            for (int step = 0; step < 4000; ++step) {
                const size_t i = rng() % clocks.size(), j = rng() % clocks.size();
                switch (rng() % 5) {
                case 0: // a new unit copies a clock and counts its first event
                    if (sparse && rng() % 8 == 0) units += rng() % 3000;
                    clocks.push_back(clocks[j]), dense.push_back(dense[j]);
                    clocks.back().set(units, 1), dense.back().set(units, 1);
                    ids.push_back(units++);
                    break;
                case 1: { // an increment of some unit's component
                    const uint32_t u = ids[rng() % ids.size()];
                    clocks[i].set(u, clocks[i].at(u) + 1), dense[i].set(u, dense[i].at(u) + 1);
                    break;
                }
                case 2:
                case 3:
                    clocks[i].join(clocks[j]), dense[i].join(dense[j]);
                    break;
                case 4: // a copy over an existing clock, or a cleared one
                    if (rng() % 4 == 0)
                        clocks[i].clear(), dense[i].v.clear();
                    else
                        clocks[i] = clocks[j], dense[i] = dense[j];
                    break;
                }
                if (step % 500 == 0)
                    for (size_t k = 0; k < clocks.size(); ++k) REQUIRE(sameAt(clocks[k], dense[k], ids));
            }
            INFO("seed " << seed << (sparse ? ", sparse" : "") << ", " << units << " units");
            for (size_t k = 0; k < clocks.size(); ++k) {
                REQUIRE(sameAt(clocks[k], dense[k], ids));
                if (!sparse) REQUIRE(sameAs(clocks[k], dense[k], units)); // every component
            }
        }
}

TEST_CASE("async clock: copies share their nodes (memory sub-linear in units)", "[async][clock]") {
    // 10,000 operations issued by one thread: each copies the thread's clock and sets its own component,
    // then the thread counts an event. Dense clocks would hold ~10,000^2 / 2 components; the shared trie
    // holds a few nodes per clock (a root-to-leaf path of depth 3).
    const uint32_t n = 10000;
    Clock thread;
    thread.set(0, 1);
    std::vector<Clock> ops;
    ops.reserve(n);
    for (uint32_t u = 1; u <= n; ++u) {
        ops.push_back(thread);
        ops.back().set(u, 1);
        thread.set(0, thread.at(0) + 1);
    }
    std::vector<const Clock*> all{&thread};
    for (const Clock& c : ops) all.push_back(&c);
    // Per operation: the thread's leaf it copied away from, and its own path (a root, the first child that
    // holds the thread's leaf, an inner node and a leaf): at most 6 nodes of <= 264 bytes each.
    CHECK(Clock::distinctNodes(all) <= 6 * size_t(n));
    CHECK(ops[n - 1].at(n) == 1);
    CHECK(ops[n - 1].at(0) == n);
    CHECK(ops[0].at(0) == 1);
    SECTION("a thread that joins every operation holds one leaf per 32 units, the rest shared or freed") {
        const size_t before = Clock::distinctNodes(all);
        for (const Clock& c : ops) thread.join(c);
        for (uint32_t u = 1; u <= n; ++u) REQUIRE(thread.at(u) == 1);
        CHECK(thread.at(0) == n + 1);
        CHECK(Clock::distinctNodes({&thread}) <= n / 32 + 40);
        CHECK(Clock::distinctNodes(all) <= before + n / 32 + 40);
    }
}
