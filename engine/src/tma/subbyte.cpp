// Sub-byte TMA types (PTX ISA 9.2 §5.5.1.1, restrictions §9.7.9.25.5.1 = seed 004; cuda.h
// CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B / 16U4_ALIGN16B / 16U6_ALIGN16B; tma.md §7). No hardware record
// exists (Blackwell only): the layouts follow the cuda.h / PTX text, the open points are tagged.
//
//   one 16-element group      global (packed)          shared memory image
//   .b4x16      (ALIGN8B)     8 B                      8 B, identical (dense rows of boxDim[0]/2 B)
//   .b4x16_p64  (U4_ALIGN16B) 8 B                      [8 B data | 8 B untouched]      load only
//   .b6x16_p32  (U6, loads)   12 B                     [12 B data | 4 B untouched]
//   .b6p2x16    (U6, stores)  12 B  <- pack bits[5:0]  16 B, one byte per element (bits [7:6] ignored)
//
// A padded row is 128 elements = 128 shared bytes; rows then follow the tile pitch/swizzle of
// tma.md §4.1 like any other box.
#include "tma/plan.hpp"

#include <algorithm>
#include <string>

namespace layoutscope::detail {
namespace {

constexpr uint32_t kGroup = 16; // elements per packed group (the "x16" of the PTX type names)

struct Layout {
    uint32_t bits;        // bits per element
    uint32_t groupGlobal; // packed bytes of one group in global memory
    uint32_t groupSmem;   // shared bytes of one group (data + padding)
};

Layout layoutOf(TensorDataType t) {
    switch (t) {
    case TensorDataType::T16U4_ALIGN8B:
        return {4, 8, 8};
    case TensorDataType::T16U4_ALIGN16B:
        return {4, 8, 16};
    default:
        return {6, 12, 16}; // T16U6_ALIGN16B
    }
}

uint32_t entries(uint32_t box, uint32_t stride) {
    return (box + std::max(stride, 1u) - 1) / std::max(stride, 1u);
}

std::string ptxName(TensorDataType t, bool store) {
    if (t == TensorDataType::T16U4_ALIGN8B) return ".b4x16";
    if (t == TensorDataType::T16U4_ALIGN16B) return ".b4x16_p64";
    return store ? ".b6p2x16" : ".b6x16_p32";
}

// The nine restrictions of seed 004's sub-byte list, as quoted in diagnostics (index = number).
constexpr const char* kSubByteRestrictions[10] = {
    "",
    "cp.reduce.async.bulk doesn't support the types .b4x16, .b4x16_p64, .b6x16_p32 and .b6p2x16",
    "cp.async.bulk.tensor with the direction .global.shared::cta doesn't support the type .b4x16_p64",
    "cp.async.bulk.tensor with the direction .shared::cluster.global doesn't support the sub-byte "
    "types on sm_120a",
    "OOB-NaN fill mode doesn't support the types .b4x16, .b4x16_p64, .b6x16_p32 and .b6p2x16",
    "Box-Size[0] must be exactly: 96B for b6x16_p32 and .b6p2x16; 64B for b4x16_p64",
    "Tensor-Size[0] must be a multiple of: 96B for b6x16_p32 and .b6p2x16; 64B for b4x16_p64",
    "For .b4x16_p64, .b6x16_p32 and .b6p2x16, the first coordinate in the tensorCoords argument "
    "vector must be a multiple of 128.",
    "For .b4x16_p64, .b6x16_p32 and .b6p2x16, the global memory address must be 32B aligned. "
    "Additionally, tensor stride in every dimension must be 32B aligned.",
    ".b4x16_p64, .b6x16_p32 and .b6p2x16 supports the following swizzling modes: None; 128B (With "
    "all potential swizzle atomicity values except: 32B with 8B flip)",
};

// A seed-004 restriction, quoted: "<what is wrong> (PTX restriction <label>: "<restriction text>")".
// Labels: the number of the sub-byte list (1..9), "sm_103a-N" / "sm_120a-N" for the target lists.
Diagnostic restriction(DiagCode code, const std::string& what, const std::string& label, const char* quote) {
    const RuleInfo& r = ruleInfo(RuleId::TmaSubByteRestriction);
    return Diagnostic{Severity::Error,
                      code,
                      {},
                      what + " (PTX restriction " + label + ": \"" + quote + "\")",
                      std::string(r.reference) + ", restriction " + label,
                      r.provenance};
}
Diagnostic restriction(DiagCode code, const std::string& what, int number) {
    return restriction(code, what, std::to_string(number), kSubByteRestrictions[number]);
}

// sm_103a, .b6p2x16 stores (seed 004 "restrictions for sm_103a"): 48 B or 96 B boxes, 16-byte
// alignment, first coordinate a multiple of 64, and 64B swizzle allowed. The CUDA 13.0 encoder still
// demands boxDim[0] = 128 and 32-byte alignment for 16U6_ALIGN16B, so only maps altered past it (or
// from a newer driver) reach the relaxed forms.
std::optional<Diagnostic> sm103StoreFaults(const TensorMapTiledParams& p,
                                           const std::array<int32_t, 5>& coords) {
    if (p.boxDim[0] != 64 && p.boxDim[0] != 128)
        return restriction(DiagCode::InvalidValue,
                           "boxDim[0] is " + std::to_string(p.boxDim[0]) + " elements", "sm_103a-1",
                           "Box-Size[0] must be exactly either of 48B or 96B.");
    if (p.globalAddress % 16 != 0)
        return restriction(DiagCode::InvalidValue, "the global address is not 16-byte aligned", "sm_103a-2",
                           "The global memory address must be 16B aligned.");
    for (uint32_t i = 0; i + 1 < std::min<uint32_t>(p.tensorRank, kMaxTensorRank); ++i)
        if (p.globalStrides[i] % 16 != 0)
            return restriction(DiagCode::InvalidValue,
                               "globalStrides[" + std::to_string(i) + "] is not 16-byte aligned", "sm_103a-3",
                               "Tensor Stride in every dimension must be 16B aligned.");
    if (coords[0] % 64 != 0)
        return restriction(
            DiagCode::InvalidValue,
            "the first coordinate is " + std::to_string(coords[0]) + ", not a multiple of 64", "sm_103a-4",
            "The first coordinate in the tensorCoords argument vector must be a multiple of 64.");
    if (p.globalDim[0] % 64 != 0)
        return restriction(DiagCode::InvalidValue,
                           "globalDim[0] is " + std::to_string(p.globalDim[0]) +
                               ", not a multiple of 64 elements",
                           "sm_103a-5", "Tensor-Size[0] must be a multiple of 48B.");
    const TensorSwizzle s = p.swizzle;
    if (s != TensorSwizzle::NONE && s != TensorSwizzle::S128B && s != TensorSwizzle::S128B_ATOM_32B &&
        s != TensorSwizzle::S128B_ATOM_64B && s != TensorSwizzle::S64B)
        return restriction(DiagCode::InvalidValue, "swizzle " + cudaName(s) + " with .b6p2x16", "sm_103a-6",
                           "The following swizzle modes are supported: None; 128B (With all potential "
                           "swizzle atomicity values "
                           "except: 32B with 8B flip); 64B swizzle with 16B swizzle atomicity");
    return std::nullopt;
}

} // namespace

std::string subByteRestrictionQuote(int number) {
    if (number < 1 || number > 9) return {};
    return "PTX restriction " + std::to_string(number) + ": \"" + kSubByteRestrictions[number] + "\"";
}

uint32_t subByteRowBytes(const TensorMap& map) {
    const Layout l = layoutOf(map.p.dataType);
    return uint32_t(uint64_t(map.p.boxDim[0]) * l.groupSmem / kGroup);
}

std::optional<Diagnostic> targetSwizzleFaults(const TensorMap& map, TmaArch arch, bool clusterDst) {
    if (auto f = swizzle96BFaults(map, arch)) return f; // PTX-only 96B: sm_103 and its restrictions
    const auto s = uint32_t(map.p.swizzle);
    if (arch == TmaArch::Sm120 && clusterDst && s >= uint32_t(TensorSwizzle::S128B_ATOM_32B) &&
        s <= uint32_t(TensorSwizzle::S128B_ATOM_64B))
        return restriction(
            DiagCode::InvalidValue,
            "swizzle " + cudaName(map.p.swizzle) +
                " (a .swizzle_atomicity) in a .shared::cluster load on sm_120a",
            "sm_120a-1.2",
            "cp.async.bulk.tensor with the direction .shared::cluster.global doesn't support: the qualifier "
            ".swizzle_atomicity");
    return std::nullopt;
}

std::optional<Diagnostic> subByteDirectionFaults(const TensorMap& map, bool store, TmaArch arch,
                                                 bool clusterDst) {
    const TensorDataType t = map.p.dataType;
    if (!isSubByteType(t)) return std::nullopt;
    if (store && t == TensorDataType::T16U4_ALIGN16B)
        return restriction(DiagCode::InvalidValue,
                           "a store (.global.shared::cta) of a 16U4_ALIGN16B (.b4x16_p64) tensor", 2);
    if (!store && clusterDst && arch == TmaArch::Sm120)
        return restriction(
            DiagCode::InvalidValue,
            "a .shared::cluster load of the sub-byte type " + ptxName(t, store) + " on sm_120a", 3);
    return std::nullopt;
}

std::optional<Diagnostic> subByteFaults(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                        bool store, TmaArch arch, bool clusterDst) {
    const TensorMapTiledParams& p = map.p;
    const TensorDataType t = p.dataType;
    const std::string name = ptxName(t, store);
    const bool padded = t != TensorDataType::T16U4_ALIGN8B;
    if (p.interleave != TensorInterleave::NONE)
        return Diagnostic{Severity::Error,
                          DiagCode::Unsupported,
                          {},
                          "interleaved sub-byte tensor maps (" + cudaName(t) + ", " + cudaName(p.interleave) +
                              ") are not modelled",
                          "tma.md §5, §7",
                          Provenance::Assumption};
    if (auto f = subByteDirectionFaults(map, store, arch, clusterDst)) return f;
    if (p.oobFill == TensorOobFill::NAN_REQUEST_ZERO_FMA)
        return restriction(DiagCode::InvalidValue, "OOB-NaN fill with the sub-byte type " + name, 4);
    if (padded && store && arch == TmaArch::Sm103)
        return sm103StoreFaults(p, coords); // .b6p2x16 (U4 stores rejected above)
    if (padded) {
        const uint32_t bits = layoutOf(t).bits;
        if (p.boxDim[0] != 128)
            return restriction(DiagCode::InvalidValue,
                               "boxDim[0] is " + std::to_string(p.boxDim[0]) + " elements (" +
                                   std::to_string(p.boxDim[0] * bits / 8) + " B packed); " + name +
                                   " needs 128 (" + std::to_string(128 * bits / 8) + " B)",
                               5);
        if (p.globalDim[0] % 128 != 0)
            return restriction(
                DiagCode::InvalidValue,
                "globalDim[0] is " + std::to_string(p.globalDim[0]) + ", not a multiple of 128 elements", 6);
        if (coords[0] % 128 != 0)
            return restriction(
                DiagCode::InvalidValue,
                "the first coordinate is " + std::to_string(coords[0]) + ", not a multiple of 128", 7);
        bool strideOk = true;
        for (uint32_t i = 0; i + 1 < std::min<uint32_t>(p.tensorRank, kMaxTensorRank); ++i)
            strideOk &= p.globalStrides[i] % 32 == 0;
        if (p.globalAddress % 32 != 0 || !strideOk)
            return restriction(DiagCode::InvalidValue,
                               "the global address or a stride is not 32-byte aligned", 8);
        const TensorSwizzle s = p.swizzle;
        if (s != TensorSwizzle::NONE && s != TensorSwizzle::S128B && s != TensorSwizzle::S128B_ATOM_32B &&
            s != TensorSwizzle::S128B_ATOM_64B)
            return restriction(DiagCode::InvalidValue, "swizzle " + cudaName(s) + " with " + name, 9);
        if (!store && t == TensorDataType::T16U6_ALIGN16B && s == TensorSwizzle::S128B_ATOM_64B)
            return Diagnostic{Severity::Error,
                              DiagCode::InvalidValue,
                              {},
                              "a load of a 16U6_ALIGN16B tensor with SWIZZLE_128B_ATOM_64B (cuda.h: "
                              "\"CU_TENSOR_MAP_SWIZZLE_"
                              "128B_ATOM_64B (Store only)\")",
                              "cuda.h cuTensorMapEncodeTiled: 16U6_ALIGN16B swizzle modes",
                              Provenance::CudaHeader};
        return std::nullopt;
    }
    // .b4x16: the bounding box must start on a 16-byte boundary, i.e. 32 packed 4-bit values.
    // unverified: the sm_90 measurement (golden/tma Surprises) covers byte types only (open question 7).
    if (coords[0] % 32 != 0)
        return Diagnostic{Severity::Error,
                          DiagCode::FaultIllegalInstruction,
                          {},
                          "inner coordinate " + std::to_string(coords[0]) + " of a .b4x16 tensor is " +
                              std::to_string(coords[0] / 2) + (coords[0] % 2 ? ".5" : "") +
                              " B, not a multiple of 16 bytes (PTX: \"the address of the bounding box must "
                              "be aligned to 16 "
                              "bytes\"; cudaErrorIllegalInstruction on sm_90 for byte types)",
                          "PTX ISA 9.2 §5.5.3.1; tma.md §3; open-questions.md 7",
                          Provenance::PtxText};
    return std::nullopt;
}

BoxPlan subByteBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords, bool forStore) {
    const TensorMapTiledParams& p = map.p;
    const Layout l = layoutOf(p.dataType);
    const bool pack6 = forStore && p.dataType == TensorDataType::T16U6_ALIGN16B; // .b6p2x16
    const uint32_t rank = std::min<uint32_t>(p.tensorRank, kMaxTensorRank);
    std::array<uint32_t, kMaxTensorRank> count{};
    uint32_t rows = 1;
    for (uint32_t i = 1; i < rank; ++i) rows *= (count[i] = entries(p.boxDim[i], p.elementStrides[i]));
    const uint32_t inner = subByteRowBytes(map);
    const uint32_t span = swizzleSpan(p.swizzle);
    const uint32_t pitch = span != 0 ? std::max(span, inner) : inner;

    BoxPlan plan;
    const int64_t box0 = p.boxDim[0];
    plan.txBytes = uint64_t(box0) * l.bits / 8 * rows; // unverified for the padded types (open question 4)
    const int64_t c0 = coords[0];
    // Stores honour dimension 0 up to the 16-byte granule holding the bound (golden/tma rule 5, measured
    // for byte types; unverified here; a no-op for the padded types, whose rows are whole).
    int64_t dim0 = int64_t(p.globalDim[0]);
    if (forStore && !pack6) dim0 = (dim0 * l.bits / 8 + 15) / 16 * 16 * 8 / l.bits;
    const int64_t loEl = std::clamp(-c0, int64_t(0), box0);
    const int64_t hiEl = std::clamp(dim0 - c0, int64_t(0), box0);

    std::array<uint32_t, kMaxTensorRank> k{};
    for (uint32_t row = 0; row < rows; ++row) {
        std::array<int64_t, kMaxTensorRank> x{};
        bool rowIn = true;
        uint64_t rowBase =
            p.globalAddress + uint64_t(c0 * l.bits / 8); // c0 is a whole number of bytes (faults)
        for (uint32_t i = 1; i < rank; ++i) {
            x[i] = int64_t(coords[i]) + int64_t(k[i]) * std::max(p.elementStrides[i], 1u);
            if (x[i] < 0 || uint64_t(x[i]) >= p.globalDim[i]) rowIn = false;
            rowBase += uint64_t(x[i]) * p.globalStrides[i - 1]; // wraps for OOB rows; unused there
        }
        for (int64_t e0 = 0; e0 < box0; e0 += kGroup) {
            const int64_t e1 = std::min<int64_t>(e0 + kGroup, box0);
            const uint32_t g = uint32_t(e0 / kGroup);
            auto push = [&](int64_t a, int64_t b, uint32_t smemFrom, uint32_t len, uint64_t globalFrom) {
                BoxPiece piece;
                piece.smemOffset = row * pitch + g * l.groupSmem + smemFrom;
                piece.length = len;
                piece.inBounds = rowIn && a >= loEl && b <= hiEl;
                piece.globalAddr = rowBase + uint64_t(g) * l.groupGlobal + globalFrom;
                piece.coord[0] = int32_t(c0 + a);
                for (uint32_t i = 1; i < rank; ++i) piece.coord[i] = int32_t(x[i]);
                plan.pieces.push_back(piece);
            };
            if (pack6) { // whole group: 16 shared bytes -> 12 packed global bytes
                push(e0, e1, 0, l.groupSmem, 0);
                continue;
            }
            int64_t cuts[4] = {e0, e1, e1, e1};
            int n = 1;
            for (int64_t c : {loEl, hiEl})
                if (c > e0 && c < e1 && c != cuts[n - 1]) cuts[n++] = c;
            cuts[n] = e1;
            for (int s = 0; s < n; ++s) {
                const int64_t a = cuts[s], b = cuts[s + 1];
                if (b <= a) continue;
                const uint32_t from = uint32_t((a - e0) * l.bits / 8), to = uint32_t((b - e0) * l.bits / 8);
                push(a, b, from, to - from, from);
            }
        }
        for (uint32_t i = 1; i < rank; ++i) { // dimension 1 fastest
            if (++k[i] < count[i]) break;
            k[i] = 0;
        }
    }
    return plan;
}

Status storeB6p2x16(const TmaTileStore& op, const BoxPlan& plan, MachineState& state, TraceBuilder& trace) {
    const TensorSwizzle swz = op.map.p.swizzle;
    const std::span<const uint8_t> smem = state.smem[op.srcCta].bytes();
    for (const BoxPiece& piece : plan.pieces) {
        if (!piece.inBounds) continue; // whole 128-element rows: a row is in or out (restrictions 6, 7)
        // unverified (open question 10): element j of the group goes to bits [6j+5:6j] of the 12
        // little-endian packed bytes; bits [7:6] of each container are discarded.
        std::array<uint8_t, 12> out{};
        for (uint32_t j = 0; j < kGroup; ++j) {
            const uint32_t v = smem[swizzleAddress(swz, op.srcAddr + piece.smemOffset + j)] & 0x3Fu;
            const uint32_t bit = 6 * j;
            out[bit / 8] |= uint8_t(v << (bit % 8));
            if (bit % 8 > 2) out[bit / 8 + 1] |= uint8_t(v >> (8 - bit % 8));
        }
        ByteMove m;
        m.src = MemRef{MemSpace::SharedCta, uint8_t(op.srcCta),
                       swizzleAddress(swz, op.srcAddr + piece.smemOffset)};
        m.dst = MemRef{MemSpace::Global, 0, piece.globalAddr};
        m.length = uint32_t(out.size());
        m.transform = Transform::Pack8to6;
        m.rule = RuleId::TmaSubByteStorePack;
        m.logicalOffset = piece.smemOffset;
        m.coord = piece.coord;
        trace.move(state, m, std::span<const uint8_t>(out.data(), out.size()), true);
    }
    return okStatus();
}

} // namespace layoutscope::detail
