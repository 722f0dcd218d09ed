// cuTensorMapEncodeTiled / Im2col / Im2colWide / ReplaceAddress: one declarative rule table.
//
// Each rule is (functions it applies to, check, cuda.h reference, provenance). A check returns ""
// when the rule holds, otherwise a plain-words message that names the parameter. Provenance:
//   CudaDriver  - the CUDA 13 driver on an H100 was seen to enforce it (golden/tma/tensormap_encode
//                 and the encode_result of every copy record; tma.md §2.2 [HW-sm90]),
//   CudaHeader  - only documented in cuda.h (sub-byte types, sm_100 swizzles: the sm_90 driver
//                 rejects those types/swizzles outright, so their finer rules were never observed),
//   Assumption  - neither (the exact threshold is inferred; see docs/tensormap-layout.md).
//
// Documented rules the H100 driver does NOT enforce, hence absent here (golden README "Encode is
// lenient"): tensorMap 64-byte alignment (8/16/32-aligned accepted), globalAddress non-null,
// globalStrides monotonic / covering the lower dimension (0, 64 < row, [128,64] accepted),
// "INTERLEAVE_32B requires SWIZZLE_32B" (NONE/64B/128B accepted, encode_0214..0217), the
// Im2colWide swizzle list (NONE and 32B accepted, within the inner-box limit), and "pixelsPerColumn
// ignored in W128" (it is range-checked). Rules marked "probe" were measured on an H100 with the same
// driver (580.159.04, CUDA 13.0) by a small encode-only program; results in docs/tensormap-layout.md §3.
#include "tma/tensor_map_detail.hpp"

#include <string>
#include <vector>

namespace layoutscope {
namespace {

using Mode = TensorMap::Mode;
using S = std::string;

enum ModeMask : uint8_t { kTiled = 1, kIm2col = 2, kWide = 4, kIm = kIm2col | kWide, kAll = 7 };

struct EncodeInput {
    const TensorMap& m;
    TmaArch arch;
    [[nodiscard]] const TensorMapTiledParams& p() const { return m.p; }
    [[nodiscard]] uint32_t rank() const { return m.p.tensorRank; }
    [[nodiscard]] uint32_t dims() const {
        return rank() <= uint32_t(kMaxTensorRank) ? rank() : uint32_t(kMaxTensorRank);
    }
    [[nodiscard]] bool tiled() const { return m.mode == Mode::Tiled; }
};

using Check = S (*)(const EncodeInput&);
/// The seed-004 sub-byte restriction (1..9) that a failed rule also breaks, 0 if none (the rule is
/// cuda.h's alone); its diagnostic then quotes that restriction too (PTX ISA 9.2 §9.7.9.25.5.1).
using PtxRestriction = int (*)(const EncodeInput&);

struct EncodeRule {
    uint8_t modes;
    Check check;
    const char* ruleRef;
    Provenance provenance;
    PtxRestriction ptxRestriction = nullptr;
};

S n(uint64_t v) {
    return std::to_string(v);
}
S i64(int64_t v) {
    return std::to_string(v);
}
S idx(const char* name, uint32_t i) {
    return S(name) + "[" + n(i) + "]";
}

bool typeKnown(TensorDataType t) {
    return uint32_t(t) <= uint32_t(TensorDataType::T16U6_ALIGN16B);
}
using detail::innerBytes;
using detail::paddedSubByte;

bool interleaveKnown(TensorInterleave v) {
    return uint32_t(v) <= 2;
}
bool swizzleKnown(TensorSwizzle v) {
    return uint32_t(v) <= 6;
}

/// The dimension-0 count that plays the role of boxDim[0]: boxDim[0] (tiled) or channelsPerPixel.
uint64_t innerCount(const EncodeInput& in) {
    return in.tiled() ? in.p().boxDim[0] : in.m.channelsPerPixel;
}
const char* innerName(const EncodeInput& in) {
    return in.tiled() ? "boxDim[0]" : "channelsPerPixel";
}

constexpr uint64_t kMaxDim = uint64_t(1) << 32;
constexpr uint64_t kMaxStride = uint64_t(1) << 40;
// Probed on the H100 (docs/tensormap-layout.md §3): 233472 B (228 KiB, the shared memory of one SM)
// accepted, the next reachable sizes rejected, for tiled, im2col and im2col-wide alike.
constexpr uint64_t kMaxBoxBytes = 233472;

// Seed-004 restrictions behind the cuda.h sub-byte rules (only asked once the rule has failed). The
// 16U4_ALIGN8B "even globalDim[0]" rule has no PTX counterpart; neither has NaN fill of byte types.
int ptxAddressAndStrides(const EncodeInput&) {
    return 8;
}
int ptxTensorSize(const EncodeInput& in) {
    return paddedSubByte(in.p().dataType) ? 6 : 0;
}
int ptxBoxSize(const EncodeInput&) {
    return 5;
}
int ptxOobNaN(const EncodeInput& in) {
    return isSubByteType(in.p().dataType) ? 4 : 0;
}
// PTX allows NONE and 128B with any atomicity but the 8-byte flip (cuda.h is stricter for 16U4_ALIGN16B).
int ptxSwizzle(const EncodeInput& in) {
    const auto s = in.p().swizzle;
    const bool ptxOk = s == TensorSwizzle::NONE || s == TensorSwizzle::S128B ||
                       s == TensorSwizzle::S128B_ATOM_32B || s == TensorSwizzle::S128B_ATOM_64B;
    return ptxOk ? 0 : 9;
}

// clang-format off
const std::vector<EncodeRule>& rules() {
    static const std::vector<EncodeRule> kRules = {
    // ---- enumerations -----------------------------------------------------------------------
    {kAll, [](const EncodeInput& in) -> S {
        return typeKnown(in.p().dataType) ? "" : "tensorDataType " + n(uint32_t(in.p().dataType)) + " is not a CUtensorMapDataType value (0..15)";
    }, "cuda.h cuTensorMapEncode*: tensorDataType must be a CUtensorMapDataType", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        return in.arch == TmaArch::Sm90 && isSubByteType(in.p().dataType)
            ? "tensorDataType " + cudaName(in.p().dataType) + " is a sub-byte type of sm_100+; the sm_90 driver rejects it" : "";
    }, "golden/tma README: 16U4_ALIGN8B/16U4_ALIGN16B/16U6_ALIGN16B rejected on sm_90", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        return interleaveKnown(in.p().interleave) ? "" : "interleave " + n(uint32_t(in.p().interleave)) + " is not a CUtensorMapInterleave value (0..2)";
    }, "cuda.h cuTensorMapEncode*: interleave must be a CUtensorMapInterleave", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        return swizzleKnown(in.p().swizzle) ? "" : "swizzle " + n(uint32_t(in.p().swizzle)) + " is not a CUtensorMapSwizzle value (0..6)";
    }, "cuda.h cuTensorMapEncode*: swizzle must be a CUtensorMapSwizzle", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        const auto s = uint32_t(in.p().swizzle);
        return in.arch == TmaArch::Sm90 && s >= 4 && s <= 6
            ? "swizzle " + cudaName(in.p().swizzle) + " needs sm_100+; the sm_90 driver rejects the 128B atom swizzles" : "";
    }, "golden/tma README: SWIZZLE_128B_ATOM_* rejected on sm_90", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        return uint32_t(in.p().l2Promotion) <= 3 ? "" : "l2Promotion " + n(uint32_t(in.p().l2Promotion)) + " is not a CUtensorMapL2promotion value (0..3)";
    }, "cuda.h cuTensorMapEncode*: l2Promotion must be a CUtensorMapL2promotion", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        return uint32_t(in.p().oobFill) <= 1 ? "" : "oobFill " + n(uint32_t(in.p().oobFill)) + " is not a CUtensorMapFloatOOBfill value (0..1)";
    }, "cuda.h cuTensorMapEncode*: oobFill must be a CUtensorMapFloatOOBfill", Provenance::CudaDriver},
    {kWide, [](const EncodeInput& in) -> S {
        return in.m.wideMode <= 1 ? "" : "mode " + n(in.m.wideMode) + " is not a CUtensorMapIm2ColWideMode value (W=0, W128=1)";
    }, "cuda.h cuTensorMapEncodeIm2colWide: mode is W or W128", Provenance::CudaDriver},
    // ---- rank -------------------------------------------------------------------------------
    {kTiled, [](const EncodeInput& in) -> S {
        return in.rank() >= 1 && in.rank() <= 5 ? "" : "tensorRank is " + n(in.rank()) + "; it must be in [1, 5]";
    }, "cuda.h cuTensorMapEncodeTiled: tensorRank in [1, 5]", Provenance::CudaDriver},
    {kIm, [](const EncodeInput& in) -> S {
        return in.rank() >= 3 && in.rank() <= 5 ? "" : "tensorRank is " + n(in.rank()) + "; im2col needs 3, 4 or 5 (NWC, NHWC, NDHWC)";
    }, "cuda.h cuTensorMapEncodeIm2col: tensorRank in {3, 4, 5}", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        return in.p().interleave == TensorInterleave::NONE || !interleaveKnown(in.p().interleave) || in.rank() >= 3 || in.rank() == 0
            ? "" : "tensorRank is " + n(in.rank()) + " with interleave " + cudaName(in.p().interleave) + "; interleaved layouts need tensorRank >= 3";
    }, "cuda.h cuTensorMapEncodeTiled: interleave != NONE requires tensorRank >= 3", Provenance::CudaDriver},
    // ---- global address ---------------------------------------------------------------------
    {kAll, [](const EncodeInput& in) -> S {
        return in.p().globalAddress % 16 == 0 ? "" : "globalAddress is " + n(in.p().globalAddress % 16) + " bytes past a 16-byte boundary; it must be 16-byte aligned";
    }, "cuda.h cuTensorMapEncodeTiled: globalAddress 16-byte aligned", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        return in.p().interleave != TensorInterleave::I32B || in.p().globalAddress % 32 == 0
            ? "" : "globalAddress must be 32-byte aligned with INTERLEAVE_32B";
    }, "cuda.h cuTensorMapEncodeTiled: globalAddress 32-byte aligned when interleave = 32B", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        return !paddedSubByte(in.p().dataType) || in.p().globalAddress % 32 == 0
            ? "" : "globalAddress must be 32-byte aligned for " + cudaName(in.p().dataType);
    }, "cuda.h cuTensorMapEncodeTiled: globalAddress 32-byte aligned for 16U4_ALIGN16B/16U6_ALIGN16B", Provenance::CudaHeader, ptxAddressAndStrides},
    // ---- globalDim / globalStrides ----------------------------------------------------------
    {kAll, [](const EncodeInput& in) -> S {
        for (uint32_t i = 0; i < in.dims(); ++i)
            if (in.p().globalDim[i] == 0 || in.p().globalDim[i] > kMaxDim)
                return idx("globalDim", i) + " is " + n(in.p().globalDim[i]) + "; it must be in [1, 2^32]";
        return "";
    }, "cuda.h cuTensorMapEncodeTiled: globalDim[i] in [1, 2^32]", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        const auto t = in.p().dataType;
        if (paddedSubByte(t) && in.p().globalDim[0] % 128 != 0) return "globalDim[0] must be a multiple of 128 for " + cudaName(t);
        if (t == TensorDataType::T16U4_ALIGN8B && in.p().globalDim[0] % 2 != 0) return "globalDim[0] must be even for " + cudaName(t);
        return "";
    }, "cuda.h cuTensorMapEncodeTiled: packed types: globalDim[0] multiple of 128 (ALIGN16B) or 2 (ALIGN8B)", Provenance::CudaHeader, ptxTensorSize},
    {kAll, [](const EncodeInput& in) -> S {
        for (uint32_t i = 0; i + 1 < in.dims(); ++i)
            if (in.p().globalStrides[i] % 16 != 0) return idx("globalStrides", i) + " is " + n(in.p().globalStrides[i]) + " bytes; strides must be multiples of 16";
        return "";
    }, "cuda.h cuTensorMapEncodeTiled: globalStrides[i] multiple of 16", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        for (uint32_t i = 0; i + 1 < in.dims(); ++i)
            if (in.p().globalStrides[i] >= kMaxStride) return idx("globalStrides", i) + " is " + n(in.p().globalStrides[i]) + " bytes; strides must be below 2^40";
        return "";
    }, "cuda.h cuTensorMapEncodeTiled: globalStrides[i] < 2^40", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        if (in.p().interleave != TensorInterleave::I32B) return "";
        for (uint32_t i = 0; i + 1 < in.dims(); ++i)
            if (in.p().globalStrides[i] % 32 != 0) return idx("globalStrides", i) + " must be a multiple of 32 with INTERLEAVE_32B";
        return "";
    }, "cuda.h cuTensorMapEncodeTiled: globalStrides multiple of 32 when interleave = 32B", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        if (!paddedSubByte(in.p().dataType)) return "";
        for (uint32_t i = 0; i + 1 < in.dims(); ++i)
            if (in.p().globalStrides[i] % 32 != 0) return idx("globalStrides", i) + " must be a multiple of 32 for " + cudaName(in.p().dataType);
        return "";
    }, "cuda.h cuTensorMapEncodeTiled: globalStrides multiple of 32 for 16U4_ALIGN16B/16U6_ALIGN16B", Provenance::CudaHeader, ptxAddressAndStrides},
    // ---- box (tiled) / channels and pixels (im2col) -----------------------------------------
    {kTiled, [](const EncodeInput& in) -> S {
        for (uint32_t i = 0; i < in.dims(); ++i)
            if (in.p().boxDim[i] == 0 || in.p().boxDim[i] > 256) return idx("boxDim", i) + " is " + n(in.p().boxDim[i]) + "; it must be in [1, 256]";
        return "";
    }, "cuda.h cuTensorMapEncodeTiled: boxDim[i] in [1, 256]", Provenance::CudaDriver},
    {kIm, [](const EncodeInput& in) -> S {
        const uint32_t c = in.m.channelsPerPixel;
        return c >= 1 && c <= 256 ? "" : "channelsPerPixel is " + n(c) + "; it must be in [1, 256]";
    }, "cuda.h cuTensorMapEncodeIm2col: channelsPerPixel in [1, 256]", Provenance::CudaDriver},
    {kIm, [](const EncodeInput& in) -> S {
        // Checked in mode W128 too, although cuda.h calls the field ignored there (probed: 0 and 1025 rejected).
        const uint32_t c = in.m.pixelsPerColumn;
        return c >= 1 && c <= 1024 ? "" : "pixelsPerColumn is " + n(c) + "; it must be in [1, 1024]";
    }, "cuda.h cuTensorMapEncodeIm2col: pixelsPerColumn in [1, 1024]", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        const uint64_t b = innerBytes(in.p().dataType, innerCount(in));
        return !typeKnown(in.p().dataType) || b % 16 == 0
            ? "" : S(innerName(in)) + " spans " + n(b) + " bytes; the inner box must be a multiple of 16 bytes";
    }, "cuda.h cuTensorMapEncodeTiled: boxDim[0] * elementSize multiple of 16 bytes (the driver applies it to interleaved maps too)", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        return !paddedSubByte(in.p().dataType) || innerCount(in) == 128
            ? "" : S(innerName(in)) + " must be 128 for " + cudaName(in.p().dataType);
    }, "cuda.h cuTensorMapEncodeTiled: boxDim[0] (channelsPerPixel) == 128 for 16U4_ALIGN16B/16U6_ALIGN16B", Provenance::CudaHeader, ptxBoxSize},
    {kAll, [](const EncodeInput& in) -> S {
        const uint64_t b = detail::descriptorBoxBytes(in.m);
        return !typeKnown(in.p().dataType) || b <= kMaxBoxBytes
            ? "" : S(in.tiled() ? "the box (boxDim / elementStrides)" : "channelsPerPixel * pixelsPerColumn") + " holds " + n(b) +
                   " bytes, more than the " + n(kMaxBoxBytes) + " bytes (228 KiB) of shared memory of one SM";
    }, "golden/tma encode_0086 and H100 probes: box bytes <= 228 KiB", Provenance::CudaDriver},
    {kAll, [](const EncodeInput& in) -> S {
        for (uint32_t i = 0; i < in.dims(); ++i)
            if (in.p().elementStrides[i] == 0 || in.p().elementStrides[i] > 8)
                return idx("elementStrides", i) + " is " + n(in.p().elementStrides[i]) + "; it must be in [1, 8] (even element 0, which is otherwise ignored)";
        return "";
    }, "cuda.h cuTensorMapEncodeTiled: elementStrides[i] in [1, 8]", Provenance::CudaDriver},
    // ---- swizzle ----------------------------------------------------------------------------
    {kAll, [](const EncodeInput& in) -> S {
        const uint32_t span = swizzleSpan(in.p().swizzle);
        const uint64_t b = innerBytes(in.p().dataType, innerCount(in));
        return in.p().interleave != TensorInterleave::NONE || span == 0 || b <= span
            ? "" : S(innerName(in)) + " spans " + n(b) + " bytes, more than the " + n(span) + "-byte " + cudaName(in.p().swizzle) + " span";
    }, "cuda.h cuTensorMapEncodeTiled: interleave NONE and swizzle != NONE: inner box bytes <= swizzle span", Provenance::CudaDriver},
    {kWide, [](const EncodeInput& in) -> S {
        const auto s = in.p().swizzle;
        return s != TensorSwizzle::S128B_ATOM_32B_FLIP_8B && s != TensorSwizzle::S128B_ATOM_64B
            ? "" : "swizzle " + cudaName(s) + " is not supported by im2col-wide";
    }, "cuda.h cuTensorMapEncodeIm2colWide: swizzle 64B, 128B or 128B_ATOM_32B (the H100 driver also takes NONE and 32B)", Provenance::CudaHeader},
    {kTiled | kIm2col, [](const EncodeInput& in) -> S {
        const auto t = in.p().dataType;
        const auto s = in.p().swizzle;
        const bool ok = t == TensorDataType::T16U6_ALIGN16B
            ? (s == TensorSwizzle::NONE || s == TensorSwizzle::S128B || s == TensorSwizzle::S128B_ATOM_32B || s == TensorSwizzle::S128B_ATOM_64B)
            : t == TensorDataType::T16U4_ALIGN16B ? (s == TensorSwizzle::NONE || s == TensorSwizzle::S128B || s == TensorSwizzle::S128B_ATOM_32B)
                                                  : true;
        return ok ? "" : "swizzle " + cudaName(s) + " is not supported for " + cudaName(t);
    }, "cuda.h cuTensorMapEncodeTiled: 16U6_ALIGN16B: NONE/128B/128B_ATOM_32B/128B_ATOM_64B; 16U4_ALIGN16B: NONE/128B/128B_ATOM_32B", Provenance::CudaHeader, ptxSwizzle},
    {kWide, [](const EncodeInput& in) -> S {
        const auto s = in.p().swizzle;
        return !paddedSubByte(in.p().dataType) || s == TensorSwizzle::S128B || s == TensorSwizzle::S128B_ATOM_32B
            ? "" : "swizzle " + cudaName(s) + " is not supported for " + cudaName(in.p().dataType) + " in im2col-wide (128B or 128B_ATOM_32B)";
    }, "cuda.h cuTensorMapEncodeIm2colWide: padded sub-byte types need 128B or 128B_ATOM_32B", Provenance::CudaHeader, ptxSwizzle},
    {kAll, [](const EncodeInput& in) -> S {
        return in.p().dataType != TensorDataType::T16U6_ALIGN16B || in.p().interleave == TensorInterleave::NONE
            ? "" : "interleave must be NONE for 16U6_ALIGN16B";
    }, "cuda.h cuTensorMapEncodeTiled: 16U6_ALIGN16B requires interleave NONE", Provenance::CudaHeader},
    // ---- OOB fill ---------------------------------------------------------------------------
    {kAll, [](const EncodeInput& in) -> S {
        const auto t = in.p().dataType;
        return in.p().oobFill != TensorOobFill::NAN_REQUEST_ZERO_FMA || !typeKnown(t) || (isFloatType(t) && !isSubByteType(t))
            ? "" : "oobFill NAN_REQUEST_ZERO_FMA needs a floating-point tensorDataType, not " + cudaName(t);
    }, "cuda.h cuTensorMapEncodeTiled: NaN OOB fill only for floating-point types", Provenance::CudaDriver, ptxOobNaN},
    // ---- im2col bounding box ----------------------------------------------------------------
    {kIm, [](const EncodeInput& in) -> S {
        if (in.rank() < 3 || in.rank() > 5) return "";
        // The descriptor packs the corners into 16-bit halves split per spatial dimension (16/8/5 bits),
        // so im2col-wide gets the same per-rank range although cuda.h says [-32768, 32767] (probed).
        const int32_t lim = in.rank() == 3 ? 32768 : in.rank() == 4 ? 128 : 16;
        const uint32_t spatial = in.m.mode == Mode::Im2colWide ? 1 : in.rank() - 2;
        for (uint32_t d = 0; d < spatial; ++d)
            for (const auto* arr : {&in.m.pixelBoxLowerCorner, &in.m.pixelBoxUpperCorner}) {
                const int32_t v = (*arr)[d];
                if (v < -lim || v > lim - 1)
                    return idx(arr == &in.m.pixelBoxLowerCorner ? "pixelBoxLowerCorner" : "pixelBoxUpperCorner", d) + " is " + i64(v) +
                           "; with tensorRank " + n(in.rank()) + " corners must be in [" + i64(-lim) + ", " + i64(lim - 1) + "]";
            }
        return "";
    }, "cuda.h cuTensorMapEncodeIm2col: corners in [-32768,32767] / [-128,127] / [-16,15] for rank 3 / 4 / 5 (im2col-wide too)", Provenance::CudaDriver},
    {kIm, [](const EncodeInput& in) -> S {
        // The driver computes each spatial extent in 32-bit arithmetic: int32(globalDim + upper) - lower
        // must be >= 1 (so globalDim = 2^32 counts as 0 and 2^31 + upper >= 0 wraps negative). For
        // im2col-wide only W has corners; H and D are checked with zero corners. Interleaved maps pair
        // corner d with dimension d instead of d+1 (the walk is shifted down by one, as in
        // docs/interleave.md) -- all probed on the H100.
        if (in.rank() < 3 || in.rank() > 5) return "";
        const bool wide = in.m.mode == Mode::Im2colWide;
        const uint32_t shift = in.p().interleave == TensorInterleave::NONE ? 1 : 0;
        for (uint32_t d = 0; d + 2 < in.rank(); ++d) {
            const bool corners = !wide || d == 0;
            const int32_t lo = corners ? in.m.pixelBoxLowerCorner[d] : 0;
            const int32_t up = corners ? in.m.pixelBoxUpperCorner[d] : 0;
            const uint32_t dim = d + shift;
            const int64_t size = int64_t(int32_t(uint32_t(in.p().globalDim[dim]) + uint32_t(up))) - lo;
            if (size < 1)
                return "the im2col bounding box is empty along tensor dimension " + n(dim) + ": int32(globalDim[" + n(dim) +
                       "] + pixelBoxUpperCorner[" + n(d) + "]) - pixelBoxLowerCorner[" + n(d) + "] = " + i64(size) + " must be at least 1";
        }
        return "";
    }, "cuda.h cuTensorMapEncodeIm2col: bounding box of non-zero area (int32(globalDim + upper) - lower >= 1 per spatial dim; probes)", Provenance::CudaDriver},
    };
    return kRules;
}
// clang-format on

uint8_t maskOf(Mode m) {
    return m == Mode::Tiled ? kTiled : m == Mode::Im2col ? kIm2col : kWide;
}

Result<TensorMap> runRules(TensorMap m, TmaArch arch) {
    m.elemBits = elementBits(m.p.dataType);
    const EncodeInput in{m, arch};
    std::vector<Diagnostic> out;
    for (const EncodeRule& r : rules()) {
        if (!(r.modes & maskOf(m.mode))) continue;
        S msg = r.check(in);
        if (msg.empty()) continue;
        Diagnostic d;
        d.code = DiagCode::InvalidValue;
        d.message = std::move(msg);
        d.ruleRef = r.ruleRef;
        d.provenance = r.provenance;
        if (const int k = r.ptxRestriction ? r.ptxRestriction(in) : 0) { // the PTX rule behind it, quoted
            d.message += " (" + detail::subByteRestrictionQuote(k) + ")";
            d.ruleRef += "; PTX ISA 9.2 §9.7.9.25.5.1 (seed 004), restriction " + n(uint64_t(k));
        }
        out.push_back(std::move(d));
    }
    if (!out.empty()) return out;
    return m;
}

} // namespace

Result<TensorMap> encodeTiled(const TensorMapTiledParams& p, TmaArch arch) {
    TensorMap m;
    m.p = p;
    return runRules(m, arch);
}

Result<TensorMap> encodeIm2col(const TensorMapIm2colParams& p, TmaArch arch) {
    TensorMap m;
    m.p = p.base;
    m.mode = Mode::Im2col;
    m.pixelBoxLowerCorner = p.pixelBoxLowerCorner;
    m.pixelBoxUpperCorner = p.pixelBoxUpperCorner;
    m.channelsPerPixel = p.channelsPerPixel;
    m.pixelsPerColumn = p.pixelsPerColumn;
    return runRules(m, arch);
}

Result<TensorMap> encodeIm2colWide(const TensorMapIm2colWideParams& p, TmaArch arch) {
    TensorMap m;
    m.p = p.base;
    m.mode = Mode::Im2colWide;
    m.pixelBoxLowerCorner[0] = p.pixelBoxLowerCornerWidth;
    m.pixelBoxUpperCorner[0] = p.pixelBoxUpperCornerWidth;
    m.channelsPerPixel = p.channelsPerPixel;
    m.pixelsPerColumn = p.pixelsPerColumn;
    m.wideMode = uint32_t(p.mode);
    return runRules(m, arch);
}

Result<TensorMap> replaceAddress(const TensorMap& map, uint64_t globalAddress, TmaArch arch) {
    // Probed on the H100: a null address is rejected here although encode accepts one.
    if (globalAddress == 0) {
        Diagnostic d;
        d.message =
            "globalAddress is null; cuTensorMapReplaceAddress rejects a null address (encode accepts one)";
        d.ruleRef = "H100 probe: cuTensorMapReplaceAddress(map, nullptr) returns CUDA_ERROR_INVALID_VALUE";
        d.provenance = Provenance::CudaDriver;
        return d;
    }
    // Measured (encode_0525..0529): 16-byte aligned addresses are accepted, even for an INTERLEAVE_32B
    // map whose encode required 32; an 8-byte aligned one is rejected.
    if (globalAddress % 16 != 0) {
        Diagnostic d;
        d.message = "globalAddress is " + n(globalAddress % 16) +
                    " bytes past a 16-byte boundary; it must be 16-byte aligned";
        d.ruleRef = "cuda.h cuTensorMapReplaceAddress: globalAddress follows the encode alignment (16 B; 32 "
                    "B not re-checked)";
        d.provenance = Provenance::CudaDriver;
        return d;
    }
    // unverified: padded sub-byte maps presumably keep their 32-byte rule (cuda.h "previous alignment").
    if (arch != TmaArch::Sm90 && paddedSubByte(map.p.dataType) && globalAddress % 32 != 0) {
        Diagnostic d;
        d.message = "globalAddress must be 32-byte aligned for " + cudaName(map.p.dataType);
        d.ruleRef =
            "cuda.h cuTensorMapReplaceAddress: globalAddress must follow previous alignment requirements";
        d.provenance = Provenance::Assumption;
        return d;
    }
    TensorMap m = map;
    m.p.globalAddress = globalAddress;
    return m;
}

} // namespace layoutscope
