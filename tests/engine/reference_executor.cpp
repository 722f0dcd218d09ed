// Reference model of TMA tile copies: per element, per byte, from the golden/tma README rules.
#include "reference_executor.hpp"

#include <vector>

namespace layoutscope::reference {
namespace {

struct Box {
    uint32_t rank = 0, eb = 0, pitch = 0;
    std::vector<uint64_t> n; // entries per dimension (README rule 1)
    uint64_t total = 1;
};

Box boxOf(const TensorMap& m) {
    Box b;
    b.rank = m.p.tensorRank;
    b.eb = elementBits(m.p.dataType) / 8;
    for (uint32_t i = 0; i < b.rank; ++i) {
        // rule 1: elementStrides[0] ignored; dimension i >= 1 has ceil(boxDim/elementStrides) entries
        const uint64_t e = i == 0 ? 1 : m.p.elementStrides[i];
        b.n.push_back((m.p.boxDim[i] + e - 1) / e);
        b.total *= b.n.back();
    }
    const uint32_t inner = m.p.boxDim[0] * b.eb;
    // rule 2: swizzled rows start at multiples of the span
    switch (m.p.swizzle) {
    case TensorSwizzle::NONE:
        b.pitch = inner;
        break;
    case TensorSwizzle::S32B:
        b.pitch = 32;
        break;
    case TensorSwizzle::S64B:
        b.pitch = 64;
        break;
    default:
        b.pitch = 128;
        break;
    }
    return b;
}

// Tensor coordinates of element number `flat` of the box (dimension 0 fastest) and its row.
std::vector<int64_t> coordsOf(const TensorMap& m, const Box& b, const std::array<int32_t, 5>& c,
                              uint64_t flat, uint64_t& row, uint64_t& k0) {
    std::vector<int64_t> x(b.rank);
    k0 = flat % b.n[0];
    row = flat / b.n[0];
    x[0] = int64_t(c[0]) + int64_t(k0);
    uint64_t rest = row;
    for (uint32_t i = 1; i < b.rank; ++i) {
        const uint64_t k = rest % b.n[i];
        rest /= b.n[i];
        x[i] = int64_t(c[i]) + int64_t(k) * int64_t(m.p.elementStrides[i]);
    }
    return x;
}

uint64_t addressOf(const TensorMap& m, const std::vector<int64_t>& x, uint32_t eb) {
    int64_t off = x[0] * int64_t(eb);
    for (size_t i = 1; i < x.size(); ++i) off += x[i] * int64_t(m.p.globalStrides[i - 1]);
    return m.p.globalAddress + uint64_t(off);
}

bool innerMisaligned(const std::array<int32_t, 5>& c, uint32_t eb) {
    return (int64_t(c[0]) * eb) % 16 != 0;
}

} // namespace

uint32_t cuteSwizzle(uint32_t bBits, uint32_t mBase, uint32_t sShift, uint32_t addr) {
    const uint32_t yyy = ((1u << bBits) - 1u) << (mBase + sShift);
    return addr ^ ((addr & yyy) >> sShift);
}

uint32_t referenceSwizzle(TensorSwizzle s, uint32_t a) {
    switch (s) {
    case TensorSwizzle::NONE:
        return a;
    case TensorSwizzle::S32B:
        return cuteSwizzle(1, 4, 3, a);
    case TensorSwizzle::S64B:
        return cuteSwizzle(2, 4, 3, a);
    case TensorSwizzle::S128B:
        return cuteSwizzle(3, 4, 3, a);
    case TensorSwizzle::S128B_ATOM_32B:
        return cuteSwizzle(2, 5, 2, a);
    case TensorSwizzle::S128B_ATOM_32B_FLIP_8B: // tma.md §4.2 (unverified): then swap 8-B halves on odd lines
        return cuteSwizzle(2, 5, 2, a) ^ ((a & 0x80u) ? 8u : 0u);
    case TensorSwizzle::S128B_ATOM_64B:
        return cuteSwizzle(1, 6, 1, a);
    case TensorSwizzle::PTX_96B:
        return cuteSwizzle(1, 4, 3, a); // tma.md §4.2: same lines as 32B
    }
    return a;
}

uint32_t referenceTf32(uint32_t v) {
    if ((v & 0x7F800000u) == 0x7F800000u && (v & 0x007FFFFFu) != 0)
        return 0x7FFFE000u; // any NaN (docs/tf32.md)
    const uint32_t dropped = v & 0x1FFFu;
    uint32_t kept = v - dropped;
    const bool keptOdd = (kept & 0x2000u) != 0;
    if (dropped > 0x1000u || (dropped == 0x1000u && keptOdd)) kept += 0x2000u;
    return kept;
}

std::optional<DiagCode> referenceLoad(const TmaTileLoad& op, MachineState& state) {
    const TensorMap& m = op.map;
    const Box b = boxOf(m);
    if (op.multicast)
        for (uint32_t bit = state.clusterSize; bit < 16; ++bit)
            if (op.ctaMask & (1u << bit)) return DiagCode::FaultLaunchFailure;
    if (innerMisaligned(op.coords, b.eb)) return DiagCode::FaultIllegalInstruction;
    if (op.dstAddr % 128 != 0) return DiagCode::FaultMisalignedAddress;

    std::vector<uint32_t> dests;
    if (!op.multicast)
        dests.push_back(op.dstCta);
    else
        for (uint32_t c = 0; c < state.clusterSize; ++c)
            if (op.ctaMask & (1u << c)) dests.push_back(c);

    const bool tf32 =
        m.p.dataType == TensorDataType::TFLOAT32 || m.p.dataType == TensorDataType::TFLOAT32_FTZ;
    for (uint64_t flat = 0; flat < b.total; ++flat) {
        uint64_t row = 0, k0 = 0;
        const std::vector<int64_t> x = coordsOf(m, b, op.coords, flat, row, k0);
        bool inBounds = true;
        for (uint32_t i = 0; i < b.rank; ++i)
            if (x[i] < 0 || x[i] >= int64_t(m.p.globalDim[i])) inBounds = false;
        std::vector<uint8_t> value(b.eb, 0);
        if (inBounds) {
            const uint64_t ga = addressOf(m, x, b.eb);
            for (uint32_t j = 0; j < b.eb; ++j) value[j] = state.global.readByte(ga + j);
            if (tf32) {
                uint32_t v = 0;
                for (uint32_t j = 0; j < 4; ++j) v |= uint32_t(value[j]) << (8 * j);
                v = referenceTf32(v);
                for (uint32_t j = 0; j < 4; ++j) value[j] = uint8_t(v >> (8 * j));
            }
        } else if (m.p.oobFill == TensorOobFill::NAN_REQUEST_ZERO_FMA) {
            for (uint32_t j = 0; j < b.eb; ++j) value[j] = j % 2 == 0 ? 0xF7 : 0x7F; // 0x7FF7 per 16 bits
        }
        for (uint32_t cta : dests)
            for (uint32_t j = 0; j < b.eb; ++j) {
                const uint32_t logical = op.dstAddr + uint32_t(row * b.pitch + k0 * b.eb + j);
                state.smem[cta].bytes()[referenceSwizzle(m.p.swizzle, logical)] = value[j];
            }
    }
    for (uint32_t cta : dests) {
        MbarrierState& mb = state.mbarriers[{cta, op.mbarAddr}];
        mb.completedBytes += int64_t(b.total * b.eb);
        mb.txCount -= int64_t(b.total * b.eb);
    }
    return std::nullopt;
}

std::optional<DiagCode> referenceStore(const TmaTileStore& op, MachineState& state) {
    const TensorMap& m = op.map;
    const Box b = boxOf(m);
    for (uint32_t i = 0; i < b.rank; ++i)
        if (op.coords[i] < 0) return DiagCode::FaultIllegalInstruction;
    if (innerMisaligned(op.coords, b.eb)) return DiagCode::FaultIllegalInstruction;
    if (op.srcAddr % 128 != 0) return DiagCode::FaultMisalignedAddress;
    // rule 5: dimension 0 bound rounded up to a whole 16-byte granule
    const int64_t bound0 = int64_t((m.p.globalDim[0] * b.eb + 15) / 16 * 16 / b.eb);
    for (uint64_t flat = 0; flat < b.total; ++flat) {
        uint64_t row = 0, k0 = 0;
        const std::vector<int64_t> x = coordsOf(m, b, op.coords, flat, row, k0);
        bool inBounds = x[0] < bound0;
        for (uint32_t i = 1; i < b.rank; ++i)
            if (x[i] >= int64_t(m.p.globalDim[i])) inBounds = false;
        if (!inBounds) continue;
        const uint64_t ga = addressOf(m, x, b.eb);
        for (uint32_t j = 0; j < b.eb; ++j) {
            const uint32_t logical = op.srcAddr + uint32_t(row * b.pitch + k0 * b.eb + j);
            const uint8_t byte = state.smem[op.srcCta].bytes()[referenceSwizzle(m.p.swizzle, logical)];
            state.global.write(ga + j, std::span<const uint8_t>(&byte, 1));
        }
    }
    return std::nullopt;
}

} // namespace layoutscope::reference
