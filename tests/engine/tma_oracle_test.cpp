// Oracle test: the engine's chunked TMA executor against the slow per-byte reference model
// (reference_executor.cpp, written straight from the golden/tma README rules and sharing no code
// with the engine) on random tile loads and stores: every shared-memory byte, every global byte,
// every mbarrier and every fault must agree.
#include "reference_executor.hpp"
#include "tma_test_util.hpp"

#include "layoutscope/tma/tma.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace layoutscope;
using namespace tmatest;

namespace {

struct Rng {
    uint64_t s;
    uint64_t next() { // splitmix64
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return uint32_t(next() % n); }
    int32_t between(int32_t lo, int32_t hi) { return lo + int32_t(below(uint32_t(hi - lo + 1))); }
};

constexpr TensorDataType kTypes[] = {
    TensorDataType::UINT8,   TensorDataType::UINT16, TensorDataType::FLOAT16,     TensorDataType::BFLOAT16,
    TensorDataType::UINT32,  TensorDataType::INT32,  TensorDataType::FLOAT32,     TensorDataType::TFLOAT32,
    TensorDataType::FLOAT64, TensorDataType::UINT64, TensorDataType::FLOAT32_FTZ,
};
constexpr TensorSwizzle kSwizzles[] = {TensorSwizzle::NONE, TensorSwizzle::S32B, TensorSwizzle::S64B,
                                       TensorSwizzle::S128B};

uint32_t spanOf(TensorSwizzle s) {
    switch (s) {
    case TensorSwizzle::S32B:
        return 32;
    case TensorSwizzle::S64B:
        return 64;
    case TensorSwizzle::S128B:
        return 128;
    default:
        return 256 * 8;
    }
}

/// A random map the encoder accepts (or nullopt after a few tries), with a text to reproduce it.
std::optional<TensorMap> randomMap(Rng& rng, std::string& what) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        MapSpec s;
        s.type = kTypes[rng.below(std::size(kTypes))];
        s.swizzle = kSwizzles[rng.below(std::size(kSwizzles))];
        const uint32_t eb = elementBits(s.type) / 8;
        const uint32_t rank = 1 + rng.below(5);
        const uint32_t maxInner = std::min<uint32_t>(spanOf(s.swizzle), 256 * eb) / eb;
        const uint32_t granule = 16 / eb; // inner box bytes must be a multiple of 16
        const uint32_t inner = granule * (1 + rng.below(std::max<uint32_t>(1, maxInner / granule)));
        s.dims.push_back(1 + rng.below(200));
        s.box.push_back(inner);
        for (uint32_t i = 1; i < rank; ++i) {
            s.dims.push_back(1 + rng.below(rank > 3 ? 6 : 40));
            s.box.push_back(1 + rng.below(rank > 3 ? 4 : 24));
        }
        s.elementStrides.push_back(1 + rng.below(8));
        for (uint32_t i = 1; i < rank; ++i)
            s.elementStrides.push_back(1 + rng.below(std::min<uint32_t>(8, s.box[i])));
        const bool floating = s.type != TensorDataType::UINT8 && s.type != TensorDataType::UINT16 &&
                              s.type != TensorDataType::UINT32 && s.type != TensorDataType::INT32 &&
                              s.type != TensorDataType::UINT64;
        s.fill = floating && rng.below(2) ? TensorOobFill::NAN_REQUEST_ZERO_FMA : TensorOobFill::NONE;
        auto r = encodeTiled(paramsOf(s), TmaArch::Sm90);
        if (!r.ok()) continue;
        std::ostringstream o;
        o << "type " << int(s.type) << " swizzle " << int(s.swizzle) << " fill " << int(s.fill)
          << " dims/box/es";
        for (uint32_t i = 0; i < rank; ++i)
            o << " " << s.dims[i] << "/" << s.box[i] << "/" << s.elementStrides[i];
        what = o.str();
        return r.value();
    }
    return std::nullopt;
}

std::array<int32_t, 5> randomCoords(Rng& rng, const TensorMap& m, bool allowNegative) {
    std::array<int32_t, 5> c{};
    const uint32_t eb = elementBits(m.p.dataType) / 8;
    for (uint32_t i = 0; i < m.p.tensorRank; ++i) {
        const int32_t lo = allowNegative ? -int32_t(m.p.boxDim[i]) : 0;
        c[i] = rng.between(lo, int32_t(m.p.globalDim[i]) + 2);
    }
    // mostly 16-byte aligned inner coordinates (an unaligned one faults: both must agree)
    if (rng.below(8) != 0) c[0] = c[0] / int32_t(16 / eb) * int32_t(16 / eb);
    return c;
}

/// Whether a box placed at `addr` stays inside one CTA's shared memory. The reference does not model
/// what happens beyond it (the executor reports an error), so the oracle draws only boxes that fit.
bool fitsInSmem(const TensorMap& m, uint32_t addr) {
    return addr + tileGeometry(m).boxBytes + 1024 <= kSmemBytesPerCta;
}

uint32_t randomSmemAddr(Rng& rng) {
    const uint32_t base = 1024 * (1 + rng.below(8));
    return rng.below(10) == 0 ? base + 16 * (1 + rng.below(7)) : base + 128 * rng.below(8);
}

MachineState freshState(const TensorMap& m, uint32_t cluster = 1) {
    MachineState st(cluster, 0xA5);
    st.global.addRegion(kGlobal, extentOf(m) + 256, [](uint64_t o) { return globalByte(o); });
    for (uint32_t c = 0; c < cluster; ++c)
        for (uint32_t a = 0; a < 0x400; ++a)
            st.smem[c].bytes()[a] = uint8_t(a * 31 + c); // a source for stores
    for (uint32_t c = 0; c < cluster; ++c)
        for (uint32_t a = 0x400; a < 0x10000; ++a) st.smem[c].bytes()[a] = uint8_t(a * 131 + 7 * c);
    return st;
}

} // namespace

TEST_CASE("Tile loads: the executor agrees with the per-byte reference on random maps", "[tma][oracle]") {
    const uint64_t seed = GENERATE(range<uint64_t>(0, 300));
    Rng rng{seed * 7919 + 1};
    std::string what;
    const auto map = randomMap(rng, what);
    if (!map) return;
    const uint32_t cluster = rng.below(4) == 0 ? 4 : 1;
    TmaTileLoad op;
    op.map = *map;
    op.coords = randomCoords(rng, *map, true);
    op.dstAddr = randomSmemAddr(rng);
    if (!fitsInSmem(*map, op.dstAddr)) return;
    op.mbarAddr = 8;
    if (cluster > 1) {
        op.multicast = true;
        op.ctaMask = uint16_t(1 + rng.below(15));
    }
    INFO("seed " << seed << ": " << what << " dst 0x" << std::hex << op.dstAddr << std::dec << " coords "
                 << op.coords[0] << "," << op.coords[1] << "," << op.coords[2] << " mask " << op.ctaMask);

    MachineState fast = freshState(*map, cluster), slow = freshState(*map, cluster);
    Trace trace;
    TraceBuilder tb(trace);
    tb.beginInstr("cp.async.bulk.tensor");
    const Status s = executeTmaLoad(op, fast, tb);
    tb.endInstr();
    const std::optional<DiagCode> ref = reference::referenceLoad(op, slow);
    REQUIRE(s.ok() == !ref.has_value());
    if (ref) {
        CHECK(s.error().code == *ref);
        return;
    }
    for (uint32_t c = 0; c < cluster; ++c) {
        const auto a = fast.smem[c].bytes(), b = slow.smem[c].bytes();
        const auto diff = std::mismatch(a.begin(), a.end(), b.begin());
        const size_t at = size_t(diff.first - a.begin()), w = at & ~size_t(3);
        INFO("CTA " << c << " first differing shared byte 0x" << std::hex << at << ": executor word "
                    << (diff.first == a.end()
                            ? 0u
                            : uint32_t(a[w] | a[w + 1] << 8 | a[w + 2] << 16 | uint32_t(a[w + 3]) << 24))
                    << ", reference word "
                    << (diff.first == a.end()
                            ? 0u
                            : uint32_t(b[w] | b[w + 1] << 8 | b[w + 2] << 16 | uint32_t(b[w + 3]) << 24)));
        CHECK(diff.first == a.end());
    }
    for (const auto& [key, mb] : slow.mbarriers) {
        INFO("mbarrier of CTA " << key.first);
        CHECK(fast.mbarriers[key].completedBytes == mb.completedBytes);
        CHECK(fast.mbarriers[key].txCount == mb.txCount);
    }
}

TEST_CASE("Tile stores: the executor agrees with the per-byte reference on random maps", "[tma][oracle]") {
    const uint64_t seed = GENERATE(range<uint64_t>(0, 200));
    Rng rng{seed * 104729 + 3};
    std::string what;
    const auto map = randomMap(rng, what);
    if (!map) return;
    TmaTileStore op;
    op.map = *map;
    op.coords = randomCoords(rng, *map, rng.below(6) == 0);
    op.srcAddr = randomSmemAddr(rng);
    if (!fitsInSmem(*map, op.srcAddr)) return;
    INFO("seed " << seed << ": " << what << " src 0x" << std::hex << op.srcAddr << std::dec << " coords "
                 << op.coords[0] << "," << op.coords[1] << "," << op.coords[2]);

    MachineState fast = freshState(*map), slow = freshState(*map);
    Trace trace;
    TraceBuilder tb(trace);
    tb.beginInstr("cp.async.bulk.tensor");
    const Status s = executeTmaStore(op, fast, tb);
    tb.endInstr();
    const std::optional<DiagCode> ref = reference::referenceStore(op, slow);
    INFO("executor: " << (s.ok() ? std::string("ok") : s.error().message));
    REQUIRE(s.ok() == !ref.has_value());
    if (ref) {
        CHECK(s.error().code == *ref);
        return;
    }
    const uint64_t n = extentOf(*map) + 256;
    std::vector<uint8_t> a(n), b(n);
    fast.global.read(kGlobal, a);
    slow.global.read(kGlobal, b);
    const auto diff = std::mismatch(a.begin(), a.end(), b.begin());
    INFO("first differing global byte at offset " << (diff.first - a.begin()));
    CHECK(diff.first == a.end());
}
