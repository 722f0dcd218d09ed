// cp.async.bulk.tensor tile-mode loads and stores (PTX ISA 9.2 §9.7.9.25.5.2) with the semantics
// measured on an H100 (golden/tma README "Observed semantics" and "Surprises and hazards"; tma.md
// §3–§6, §10, §11). Each 16-byte chunk of the box becomes one trace step; a multicast chunk's copies
// into every destination CTA share that step. A fault is detected before anything is written.
#include "layoutscope/tma/tma.hpp"
#include "tma/plan.hpp"
#include "tma/tensor_map_detail.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope {
namespace {

using detail::BoxPiece;
using detail::BoxPlan;

constexpr uint32_t kGranule = 16;    // bytes per TMA chunk
constexpr uint32_t kSmemAlign = 128; // shared::cta address alignment that does not fault (README hazards)

Diagnostic diag(DiagCode code, RuleId rule, std::string msg) {
    const RuleInfo& r = ruleInfo(rule);
    return Diagnostic{Severity::Error, code, {}, std::move(msg), r.reference, r.provenance};
}

Diagnostic unsupported(std::string msg) {
    return Diagnostic{Severity::Error, DiagCode::Unsupported, {},
                      std::move(msg),  "tma.md §7, §9",       Provenance::Assumption};
}

// The faults shared by loads and stores, in the order they are checked.
// unverified: which fault wins when several apply (no record combines them); the order below is
// coordinate checks first, then the shared-memory alignment.
std::optional<Diagnostic> commonFaults(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                       uint32_t smemAddr, bool store, TmaArch arch, bool clusterDst) {
    if (map.mode != TensorMap::Mode::Tiled)
        return unsupported("an im2col tensor map in a tile-mode copy is not modelled");
    const uint32_t eb = detail::tmaElemBytes(map);
    const uint32_t rank = std::min<uint32_t>(map.p.tensorRank, kMaxTensorRank);
    if (store)
        for (uint32_t i = 0; i < rank; ++i)
            if (coords[i] < 0)
                return diag(
                    DiagCode::FaultIllegalInstruction, RuleId::TmaFaultStoreNegative,
                    "store coordinate " + std::to_string(i) + " is " + std::to_string(coords[i]) +
                        "; tile stores fault on any negative coordinate (cudaErrorIllegalInstruction)");
    if (isSubByteType(map.p.dataType)) {
        if (auto f = detail::subByteFaults(map, coords, store, arch, clusterDst)) return f;
    } else if (eb == 0) {
        return unsupported("tensor data type " + cudaName(map.p.dataType) + " is not modelled");
    } else if (map.p.interleave == TensorInterleave::NONE && (int64_t(coords[0]) * eb) % kGranule != 0) {
        // Interleaved maps count dimension 0 in 16/32-byte slices, so any slice coordinate is aligned
        // (README: an INTERLEAVE_16B map ran with x = 1, tile_load_0351).
        return diag(DiagCode::FaultIllegalInstruction, RuleId::TmaFaultInnerCoordAlign,
                    "inner coordinate " + std::to_string(coords[0]) + " x " + std::to_string(eb) +
                        " B is not a multiple of 16 bytes (cudaErrorIllegalInstruction, even out of bounds)");
    }
    if (auto f = detail::targetSwizzleFaults(map, arch, clusterDst && !store)) return f;
    if (smemAddr % kSmemAlign != 0)
        return diag(
            DiagCode::FaultMisalignedAddress, RuleId::TmaFaultSmemAlign, "shared address 0x" + [&] {
                char b[16];
                std::snprintf(b, sizeof b, "%x", smemAddr);
                return std::string(b);
            }() + " is not 128-byte aligned (cudaErrorMisalignedAddress)");
    return std::nullopt;
}

std::optional<Diagnostic> checkFits(const BoxPlan& plan, uint32_t smemAddr, const MachineState& state,
                                    uint32_t cta) {
    uint64_t end = 0;
    for (const BoxPiece& p : plan.pieces) end = std::max<uint64_t>(end, uint64_t(p.smemOffset) + p.length);
    // Swizzles permute within a 128-byte line, so the footprint ends at the line holding the last byte.
    const uint64_t lineEnd = (uint64_t(smemAddr) + end + kSmemAlign - 1) / kSmemAlign * kSmemAlign;
    if (cta >= state.smem.size() || lineEnd > state.smem[cta].size())
        return Diagnostic{Severity::Error,
                          DiagCode::InvalidValue,
                          {},
                          "the box (" + std::to_string(end) + " B of shared memory) does not fit in CTA " +
                              std::to_string(cta) + "'s shared memory",
                          "CUDA-PG: 228 KiB shared memory per SM",
                          Provenance::Assumption};
    return std::nullopt;
}

// Runs of a piece that stay contiguous after the swizzle: [from, to) offsets inside the piece.
template <class Fn>
void forEachPhysicalRun(TensorSwizzle s, uint32_t addr, uint32_t len, Fn&& fn) {
    // Every swizzle but FLIP_8B XORs address bits >= 4 with bits >= 7, one mask per 16-byte chunk, so a
    // piece inside one chunk stays contiguous (swizzle.cpp).
    if (len != 0 && (s == TensorSwizzle::NONE || (s != TensorSwizzle::S128B_ATOM_32B_FLIP_8B &&
                                                  addr / kGranule == (addr + len - 1) / kGranule))) {
        fn(0u, len);
        return;
    }
    uint32_t from = 0;
    for (uint32_t j = 1; j <= len; ++j)
        if (j == len || swizzleAddress(s, addr + j) != swizzleAddress(s, addr + j - 1) + 1) {
            fn(from, j);
            from = j;
        }
}

// Elements spanned by `bytes` bytes of packed data (byte types: bytes / elemBytes).
int32_t elementsIn(const TensorMap& map, uint32_t bytes) {
    const uint32_t bits = elementBits(map.p.dataType);
    return bits == 0 ? 0 : int32_t(uint64_t(bytes) * 8 / bits);
}

// The rule that placed the in-bounds bytes of a copy (sub-byte layout, interleave, or swizzle).
RuleId placementRule(const TensorMap& map) {
    if (map.p.dataType == TensorDataType::T16U4_ALIGN8B) return RuleId::TmaSubBytePacked;
    if (isSubByteType(map.p.dataType)) return RuleId::TmaSubBytePadded;
    return map.p.interleave != TensorInterleave::NONE ? RuleId::TmaInterleave
                                                      : detail::swizzleRule(map.p.swizzle);
}

bool isTf32(TensorDataType t) {
    return t == TensorDataType::TFLOAT32 || t == TensorDataType::TFLOAT32_FTZ;
}

} // namespace

uint32_t tmaSignalCta(uint32_t ctaGroup, uint32_t dstCta, uint32_t mbarCta) {
    // unverified (open question 12): .cta_group::2 signals the even or the odd CTA of every pair,
    // following the parity of the CTA that holds mbar (tma.md §10, seed 003).
    return ctaGroup == 2 ? (dstCta & ~1u) | (mbarCta & 1u) : dstCta;
}

namespace detail {

std::optional<Diagnostic> loadDestinations(const TmaTileLoad& op, const MachineState& state,
                                           std::vector<uint8_t>& dests) {
    dests.clear();
    if (op.issuingCta >= state.clusterSize || (!op.multicast && op.dstCta >= state.clusterSize))
        return Diagnostic{Severity::Error,
                          DiagCode::InvalidValue,
                          {},
                          "CTA rank outside the cluster of " + std::to_string(state.clusterSize),
                          "tma.md §10",
                          Provenance::PtxText};
    if (op.multicast && (uint32_t(op.ctaMask) >> state.clusterSize) != 0)
        return diag(DiagCode::FaultLaunchFailure, RuleId::TmaFaultMulticastMask,
                    "ctaMask selects a CTA rank beyond the cluster of " + std::to_string(state.clusterSize) +
                        " (cudaErrorLaunchFailure)");
    if (op.ctaGroup != 1 && op.ctaGroup != 2)
        return Diagnostic{Severity::Error,
                          DiagCode::InvalidValue,
                          {},
                          ".cta_group::" + std::to_string(op.ctaGroup) + " does not exist (1 or 2)",
                          "PTX ISA 9.2 §9.7.9.25.5.2",
                          Provenance::PtxText};
    if (op.multicast) {
        for (uint32_t c = 0; c < state.clusterSize; ++c)
            if (op.ctaMask & (1u << c)) dests.push_back(uint8_t(c));
    } else {
        dests.push_back(uint8_t(op.dstCta));
    }
    if (op.ctaGroup == 2) {
        if (!op.multicast && (op.mbarCta & ~1u) != (op.dstCta & ~1u))
            return diag(DiagCode::InvalidValue, RuleId::TmaCtaGroup2,
                        "with .cta_group::2 mbar must be in dstMem's CTA " + std::to_string(op.dstCta) +
                            " or its peer " + std::to_string(op.dstCta ^ 1u) + ", not CTA " +
                            std::to_string(op.mbarCta) +
                            " (PTX: \"the mbarrier object mbar can be in shared memory of either the "
                            "destination CTA or "
                            "its peer-CTA\")");
        if (op.mbarCta >= state.clusterSize)
            return Diagnostic{Severity::Error,
                              DiagCode::InvalidValue,
                              {},
                              "mbar CTA " + std::to_string(op.mbarCta) + " is outside the cluster of " +
                                  std::to_string(state.clusterSize),
                              "tma.md §10",
                              Provenance::PtxText};
        for (uint8_t d : dests)
            if (tmaSignalCta(2, d, op.mbarCta) >= state.clusterSize)
                return diag(DiagCode::InvalidValue, RuleId::TmaCtaGroup2,
                            "with .cta_group::2 the signal for CTA " + std::to_string(d) + " goes to CTA " +
                                std::to_string(tmaSignalCta(2, d, op.mbarCta)) +
                                ", which is outside the cluster of " + std::to_string(state.clusterSize) +
                                " (the CTA pair is incomplete)");
    }
    return std::nullopt;
}

std::optional<Diagnostic> tileFaults(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                     uint32_t smemAddr, bool store, TmaArch arch, bool clusterDst) {
    return commonFaults(map, coords, smemAddr, store, arch, clusterDst);
}

Status deliverLoad(const TmaTileLoad& op, const BoxPlan& plan, const std::vector<uint8_t>& dests,
                   MachineState& state, TraceBuilder& trace, RuleId placeRuleOverride) {
    const TensorMap& map = op.map;
    for (uint8_t c : dests)
        if (auto f = checkFits(plan, op.dstAddr, state, c)) return *f;

    const TensorSwizzle swz = map.p.swizzle;
    const bool interleaved = map.p.interleave != TensorInterleave::NONE;
    const RuleId placeRule = placeRuleOverride != RuleId::None ? placeRuleOverride : placementRule(map);
    const bool nanFill = map.p.oobFill == TensorOobFill::NAN_REQUEST_ZERO_FMA;
    const bool tf32 = isTf32(map.p.dataType);

    // The destination of every move is the swizzle of dstAddr + logicalOffset: a box row is one trace run.
    const AddrDerivation dstDerive{AddrDerivation::Side::Dst, uint32_t(swz), op.dstAddr};
    std::array<uint8_t, kGranule> buf{};
    int64_t lastGranule = -1;
    for (const BoxPiece& piece : plan.pieces) {
        LAYOUTSCOPE_ASSERT(piece.length <= kGranule);
        Transform transform = Transform::Copy;
        RuleId rule = placeRule;
        if (piece.inBounds) {
            state.global.read(piece.globalAddr, std::span<uint8_t>(buf.data(), piece.length));
            if (tf32) { // golden tile_load_0249; tma.md §3.2
                for (uint32_t j = 0; j + 4 <= piece.length; j += 4) {
                    uint32_t v = uint32_t(buf[j]) | uint32_t(buf[j + 1]) << 8 | uint32_t(buf[j + 2]) << 16 |
                                 uint32_t(buf[j + 3]) << 24;
                    v = detail::roundToTf32(v);
                    for (uint32_t b = 0; b < 4; ++b) buf[j + b] = uint8_t(v >> (8 * b));
                }
                transform = Transform::RoundTf32;
                rule = RuleId::TmaTf32Round;
            }
        } else if (nanFill) { // 0x7FF7 in every little-endian 16-bit unit of the element
            for (uint32_t j = 0; j < piece.length; ++j) buf[j] = ((piece.smemOffset + j) & 1u) ? 0x7F : 0xF7;
            transform = Transform::FillNaN;
            rule = RuleId::TmaOobFillNaN;
        } else {
            std::fill(buf.begin(), buf.end(), uint8_t(0));
            transform = Transform::FillZero;
            rule = RuleId::TmaOobFillZero;
        }
        const int64_t granule = piece.smemOffset / kGranule;
        const bool newGranule = granule != lastGranule;
        lastGranule = granule;
        const uint32_t logical = op.dstAddr + piece.smemOffset;
        for (size_t ci = 0; ci < dests.size(); ++ci) {
            forEachPhysicalRun(swz, logical, piece.length, [&](uint32_t from, uint32_t to) {
                ByteMove m;
                m.src = piece.inBounds ? MemRef{MemSpace::Global, 0, piece.globalAddr + from}
                                       : MemRef{MemSpace::Fill, 0, 0};
                m.dst = MemRef{MemSpace::SharedCta, dests[ci], swizzleAddress(swz, logical + from)};
                m.length = to - from;
                m.transform = transform;
                m.rule = rule;
                m.logicalOffset = piece.smemOffset + from;
                m.coord = piece.coord;
                if (!interleaved) m.coord[0] += elementsIn(map, from);
                trace.move(state, m, std::span<const uint8_t>(buf.data() + from, to - from),
                           ci == 0 && from == 0 && newGranule, dstDerive);
            });
        }
    }
    // complete_tx: the dense box bytes (fill included) to the mbarrier at the same offset in every
    // destination CTA (README rules 1, 7; tma.md §6), or in the pair member .cta_group::2 selects.
    for (uint8_t c : dests)
        trace.tx(state, uint8_t(tmaSignalCta(op.ctaGroup, c, op.mbarCta)), op.mbarAddr,
                 int64_t(plan.txBytes));
    // unverified (open question 4): padded sub-byte loads credit the packed global bytes.
    if (!dests.empty() && detail::paddedSubByte(map.p.dataType)) trace.alsoRule(RuleId::TmaSubByteTxBytes);
    return okStatus();
}

Status deliverStore(const TmaTileStore& op, const BoxPlan& plan, MachineState& state, TraceBuilder& trace,
                    RuleId placeRuleOverride) {
    const TensorMap& map = op.map;
    if (auto f = checkFits(plan, op.srcAddr, state, op.srcCta)) return *f;
    if (map.p.dataType == TensorDataType::T16U6_ALIGN16B) return storeB6p2x16(op, plan, state, trace);

    const TensorSwizzle swz = map.p.swizzle;
    const bool interleaved = map.p.interleave != TensorInterleave::NONE;
    const RuleId placeRule = placeRuleOverride != RuleId::None ? placeRuleOverride : placementRule(map);
    const std::span<const uint8_t> smem = state.smem[op.srcCta].bytes();
    const AddrDerivation srcDerive{AddrDerivation::Side::Src, uint32_t(swz), op.srcAddr};

    std::array<uint8_t, kGranule> buf{};
    int64_t lastGranule = -1;
    for (const BoxPiece& piece : plan.pieces) {
        if (!piece.inBounds) continue; // out-of-bounds elements are not written (README rule 5)
        // Elements past globalDim[0] inside the 16-byte granule that holds the bound are written.
        const bool edge = !interleaved && uint64_t(int64_t(piece.coord[0]) + elementsIn(map, piece.length)) >
                                              map.p.globalDim[0];
        const RuleId rule = edge ? RuleId::TmaStoreUpperEdge : placeRule;
        const int64_t granule = piece.smemOffset / kGranule;
        const bool newGranule = granule != lastGranule;
        lastGranule = granule;
        const uint32_t logical = op.srcAddr + piece.smemOffset;
        forEachPhysicalRun(swz, logical, piece.length, [&](uint32_t from, uint32_t to) {
            const uint32_t phys = swizzleAddress(swz, logical + from);
            std::copy_n(smem.begin() + phys, to - from, buf.begin());
            ByteMove m;
            m.src = MemRef{MemSpace::SharedCta, uint8_t(op.srcCta), phys};
            m.dst = MemRef{MemSpace::Global, 0, piece.globalAddr + from};
            m.length = to - from;
            m.transform =
                Transform::Copy; // TFLOAT32 / FLOAT32_FTZ stores write the bits unchanged (S11_dtype)
            m.rule = rule;
            m.logicalOffset = piece.smemOffset + from;
            m.coord = piece.coord;
            if (!interleaved) m.coord[0] += elementsIn(map, from);
            trace.move(state, m, std::span<const uint8_t>(buf.data(), to - from), from == 0 && newGranule,
                       srcDerive);
        });
    }
    return okStatus();
}

} // namespace detail

Status executeTmaLoad(const TmaTileLoad& op, MachineState& state, TraceBuilder& trace) {
    thread_local std::vector<uint8_t> dests; // reused (loadDestinations clears it): no allocation per load
    if (auto f = detail::loadDestinations(op, state, dests)) return *f;
    if (auto f = commonFaults(op.map, op.coords, op.dstAddr, false, op.arch, op.clusterDst)) return *f;
    if (dests.empty())
        return okStatus(); // mask 0: silent no-op, nothing written or credited (README hazards)
    if (auto fast = detail::fastTileLoad(op, dests, state, trace)) return *fast;
    return detail::deliverLoad(op, detail::tileBoxPlan(op.map, op.coords, false), dests, state, trace);
}

Status executeTmaStore(const TmaTileStore& op, MachineState& state, TraceBuilder& trace) {
    if (op.srcCta >= state.clusterSize)
        return Diagnostic{Severity::Error,
                          DiagCode::InvalidValue,
                          {},
                          "CTA rank outside the cluster of " + std::to_string(state.clusterSize),
                          "tma.md §11",
                          Provenance::PtxText};
    if (auto f = commonFaults(op.map, op.coords, op.srcAddr, true, op.arch, false)) return *f;
    return detail::deliverStore(op, detail::tileBoxPlan(op.map, op.coords, true), state, trace);
}

} // namespace layoutscope
