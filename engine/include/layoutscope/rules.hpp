#pragma once
/// The catalogue of semantic rules the engine applies. Each byte move and each diagnostic names one,
/// and each rule names its reference and provenance, so the UI can answer "who put this byte here,
/// and how sure are we?". Add rules at the end of a group; never renumber.
#include "layoutscope/provenance.hpp"

#include <cstdint>

namespace layoutscope {

enum class RuleId : uint16_t {
    None = 0,
    // --- TMA tile mode (tma.md §3–§4, golden/tma README "Observed semantics") ---
    TmaBoxTraversal,      ///< dense row-major box, dim 0 fastest, ceil(box[i]/E[i]) entries for i >= 1
    TmaElementStride0Ignored, ///< elementStrides[0] ignored when interleave = NONE
    TmaSwizzledRowPitch,  ///< rows start at multiples of the swizzle span; tail untouched
    TmaSwizzle32B,        ///< A ^ (((A>>7)&1)<<4), absolute shared address
    TmaSwizzle64B,        ///< A ^ (((A>>7)&3)<<4)
    TmaSwizzle128B,       ///< A ^ (((A>>7)&7)<<4)
    TmaSwizzle128BAtom32B,      ///< A ^ (((A>>7)&3)<<5)  (sm_100, unverified)
    TmaSwizzle128BAtom32BFlip8B,///< atom-32B then ^ (((A>>7)&1)<<3) (sm_100, unverified)
    TmaSwizzle128BAtom64B,      ///< A ^ (((A>>7)&1)<<6)  (sm_100, unverified)
    TmaOobFillZero,       ///< out-of-bounds elements read as zero
    TmaOobFillNaN,        ///< OOB-NaN fill: 0x7FF7 in every 16-bit unit
    TmaTf32Round,         ///< TFLOAT32 loads: round to nearest even at bit 13
    TmaStoreUpperEdge,    ///< stores: dim-0 bound rounded up to a 16-byte granule; others skipped
    TmaTxBytes,           ///< complete_tx = dense box bytes (fill included)
    TmaInterleave,        ///< interleaved layouts (INTERLEAVE_16B / 32B)
    TmaFaultInnerCoordAlign,  ///< coords[0]*elemBytes % 16 != 0 -> cudaErrorIllegalInstruction
    TmaFaultSmemAlign,        ///< shared address not 128-B aligned -> cudaErrorMisalignedAddress
    TmaFaultStoreNegative,    ///< store with a negative coordinate -> cudaErrorIllegalInstruction
    TmaMulticast,             ///< multicast: same offset in every CTA of ctaMask
    TmaFaultMulticastMask,    ///< mask bit beyond the cluster -> cudaErrorLaunchFailure
    // --- tensor map encode (tma.md §2) ---
    EncodeRule,           ///< a cuTensorMapEncode* parameter rule (message says which)
    // --- scenario / PTX front end ---
    ScenarioSyntax,
    PtxSyntax,
    kCount
};

struct RuleInfo {
    RuleId id;
    const char* name;        ///< short name shown in the inspector
    const char* description; ///< one sentence, plain words
    const char* reference;   ///< PTX ISA section / cuda.h / tma.md section / golden case
    Provenance provenance;
};

/// The catalogue entry of a rule (never fails for a valid id).
[[nodiscard]] const RuleInfo& ruleInfo(RuleId id);

} // namespace layoutscope
