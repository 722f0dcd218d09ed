// The 96B swizzle: PTX 8.8 `tensormap.replace .swizzle_mode` 4 (tma.md §2.1, §4.2, §4.3, §12 item 2;
// seed 004 "restrictions on the 96B swizzle mode"). CUDA 13.0's CUtensorMapSwizzle has no 96B value, so
// the encoder (tensor_map.cpp) rejects TensorSwizzle::PTX_96B like any unknown enumerator and stays
// exactly the 13.0 driver; a map gets the mode only at the PTX level, as a kernel would with
// tensormap.replace after cuTensorMapEncode* (scenarios: `swizzle=96B`, docs/tma-blackwell.md §4).
//
//   targets   sm_103a / sm_103f (open-questions.md 1 names sm_103 as the hardware for the 96B mode)
//   address   A ^ (((A>>7)&1)<<4) on the absolute shared address (swizzle.cpp)       unverified (oq 1)
//   row pitch 96 B (swizzleSpan; "96 or 128 unknown" in the reference)               unverified (oq 1)
#include "tma/plan.hpp"
#include "tma/tensor_map_detail.hpp"

#include <string>

namespace layoutscope::detail {
namespace {

// Seed 004, "Following are the restrictions on the 96B swizzle mode" (index = number).
constexpr const char* k96BRestrictions[6] = {
    "",
    "The .swizzle_atomicity must be 16B.",
    "The .interleave_layout must not be set.",
    "Box-Size[0] must be less than or equal to 96B.",
    "The type must not be among following: .b4x16_p64, .b6x16_p32 and .b6p2x16.",
    "The .load_mode must not be set to .im2col::w::128.",
};

Diagnostic restriction96(const std::string& what, int n) {
    return Diagnostic{Severity::Error,
                      DiagCode::InvalidValue,
                      {},
                      what + " (PTX 96B swizzle restriction " + std::to_string(n) + ": \"" +
                          k96BRestrictions[n] + "\")",
                      "PTX ISA 9.2 §9.7.9.25.5.1 (seed 004), 96B swizzle restriction " + std::to_string(n) +
                          "; tma.md §4.3, §12 item 2",
                      Provenance::PtxText};
}

} // namespace

Diagnostic swizzle96BTargetFault(const std::string& target) {
    return Diagnostic{
        Severity::Error,
        DiagCode::InvalidValue,
        {},
        "swizzle=96B is the PTX-level .swizzle_mode 4, not a cuda.h CUtensorMapSwizzle value (CUDA "
        "13.0 has none); it exists only on sm_103a and sm_103f with PTX 8.8 or later, not on " +
            target,
        "tma.md §2.1 (.swizzle_mode 4 = 96B, PTX 8.8+); open-questions.md 1 (96B: sm_103)",
        Provenance::Assumption};
}

std::optional<Diagnostic> swizzle96BFaults(TensorDataType type, TensorInterleave interleave,
                                           uint64_t innerCount, bool w128) {
    // Restriction 1 holds by construction: 96B has no atomicity variant here (16B only, tma.md §2.1).
    if (interleave != TensorInterleave::NONE)
        return restriction96("swizzle=96B with " + cudaName(interleave), 2);
    if (paddedSubByte(type))
        return restriction96(
            "swizzle=96B with " + cudaName(type) +
                (type == TensorDataType::T16U4_ALIGN16B ? " (.b4x16_p64)" : " (.b6x16_p32 / .b6p2x16)"),
            4);
    if (const uint64_t bytes = innerBytes(type, innerCount); bytes > 96)
        return restriction96("the inner box spans " + std::to_string(bytes) + " bytes with swizzle=96B", 3);
    if (w128) return restriction96("swizzle=96B on an .im2col::w::128 (mode W128) map", 5);
    return std::nullopt;
}

std::optional<Diagnostic> swizzle96BFaults(const TensorMap& map, TmaArch arch) {
    if (map.p.swizzle != TensorSwizzle::PTX_96B) return std::nullopt;
    if (arch != TmaArch::Sm103) return swizzle96BTargetFault("this target (the copy's arch is not sm_103)");
    const bool tiled = map.mode == TensorMap::Mode::Tiled;
    const bool w128 = map.mode == TensorMap::Mode::Im2colWide && map.wideMode == 1; // mode W128 <=> ::w::128
    return swizzle96BFaults(map.p.dataType, map.p.interleave, tiled ? map.p.boxDim[0] : map.channelsPerPixel,
                            w128);
}

} // namespace layoutscope::detail
