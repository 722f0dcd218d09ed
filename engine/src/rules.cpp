#include "layoutscope/rules.hpp"

#include <array>
#include <cstddef>

namespace layoutscope {
namespace {

using P = Provenance;
constexpr const char* kGoldenTma = "golden/tma README, Observed semantics";

constexpr std::array<RuleInfo, static_cast<std::size_t>(RuleId::kCount)> kRules{{
    {RuleId::None, "none", "", "", P::Assumption},
    {RuleId::TmaBoxTraversal, "box traversal",
     "The box is dense and row-major in shared memory, dimension 0 fastest; dimension i>=1 moves "
     "ceil(boxDim[i]/elementStrides[i]) entries at coord[i] + j*elementStrides[i].",
     "PTX ISA 9.2 §5.5.3; tma.md §3; golden/tma rule 1", P::HardwareSm90},
    {RuleId::TmaElementStride0Ignored, "elementStrides[0] ignored",
     "With interleave NONE, dimension 0 always yields boxDim[0] contiguous elements.",
     "cuda.h cuTensorMapEncodeTiled; golden/tma rule 1", P::HardwareSm90},
    {RuleId::TmaSwizzledRowPitch, "swizzled row pitch",
     "With a swizzle, each dimension-0 row starts at a multiple of the swizzle span; bytes between "
     "rows are left untouched.",
     "tma.md §4.1; golden/tma rule 2", P::HardwareSm90},
    {RuleId::TmaSwizzle32B, "SWIZZLE_32B", "phys = A ^ (((A>>7)&1)<<4) on the absolute shared address: Sw<1,4,3>",
     "PTX ISA 9.2 §5.5.7; golden/tma rule 3", P::HardwareSm90},
    {RuleId::TmaSwizzle64B, "SWIZZLE_64B", "phys = A ^ (((A>>7)&3)<<4) on the absolute shared address: Sw<2,4,3>",
     "PTX ISA 9.2 §5.5.7; golden/tma rule 3", P::HardwareSm90},
    {RuleId::TmaSwizzle128B, "SWIZZLE_128B", "phys = A ^ (((A>>7)&7)<<4) on the absolute shared address: Sw<3,4,3>",
     "PTX ISA 9.2 §5.5.7; golden/tma rule 3", P::HardwareSm90},
    {RuleId::TmaSwizzle128BAtom32B, "SWIZZLE_128B_ATOM_32B",
     "unverified: phys = A ^ (((A>>7)&3)<<5): Sw<2,5,2> (sm_100 only, not measured)",
     "PTX ISA 9.2 §5.5.7 Table; tma.md §4.2; open-questions.md", P::Assumption},
    {RuleId::TmaSwizzle128BAtom32BFlip8B, "SWIZZLE_128B_ATOM_32B_FLIP_8B",
     "unverified: as ATOM_32B, then the 8-byte halves of every 16 B swap on odd 128-B lines",
     "PTX ISA 9.2 §5.5.7 prose; tma.md §4.2; open-questions.md", P::Assumption},
    {RuleId::TmaSwizzle128BAtom64B, "SWIZZLE_128B_ATOM_64B",
     "unverified: phys = A ^ (((A>>7)&1)<<6): Sw<1,6,1> (sm_100 only, not measured)",
     "PTX ISA 9.2 §5.5.7 Table; tma.md §4.2; open-questions.md", P::Assumption},
    {RuleId::TmaOobFillZero, "OOB zero fill", "An element with any coordinate outside [0, globalDim[i]) reads as zero.",
     "PTX ISA 9.2 §5.5.3.3; golden/tma rule 4", P::HardwareSm90},
    {RuleId::TmaOobFillNaN, "OOB NaN fill",
     "With FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA every 16-bit unit of an out-of-bounds element is 0x7FF7.",
     "PTX ISA 9.2 §5.5.3.3; golden/tma rule 4", P::HardwareSm90},
    {RuleId::TmaTf32Round, "TF32 rounding",
     "TFLOAT32 loads round each FP32 pattern to nearest even at bit 13 (low 13 bits cleared); no flush.",
     "tma.md §3.2; golden/tma tile_load_0249", P::HardwareSm90},
    {RuleId::TmaStoreUpperEdge, "store upper edge",
     "Stores skip out-of-bounds elements, except in dimension 0 where the bound is rounded up to a "
     "whole 16-byte granule.",
     "golden/tma rule 5 (store_0060, store_0061)", P::HardwareSm90},
    {RuleId::TmaTxBytes, "transaction bytes",
     "complete_tx credits the dense box bytes, fill included, not the padded footprint.",
     "tma.md §6; golden/tma rule 1", P::HardwareSm90},
    {RuleId::TmaInterleave, "interleaved layout", "INTERLEAVE_16B / 32B layout rule (see docs/interleave.md).",
     "tma.md §5; golden/tma interleaved cases", P::HardwareSm90},
    {RuleId::TmaFaultInnerCoordAlign, "inner coordinate alignment",
     "coords[0]*elementBytes must be a multiple of 16, else the copy raises cudaErrorIllegalInstruction.",
     "PTX ISA 9.2 §5.5.3.1; golden/tma Surprises", P::HardwareSm90},
    {RuleId::TmaFaultSmemAlign, "shared address alignment",
     "The shared-memory address must be 128-byte aligned, else cudaErrorMisalignedAddress.",
     "CUDA C++ PG alignment table; golden/tma Surprises (H_dst_align_sub128)", P::HardwareSm90},
    {RuleId::TmaFaultStoreNegative, "store start coordinates",
     "A store with any negative start coordinate raises cudaErrorIllegalInstruction.",
     "PTX ISA 9.2 §9.7.9.25.5.1; golden/tma store_0075..0081", P::HardwareSm90},
    {RuleId::TmaMulticast, "multicast",
     "Every CTA whose ctaMask bit is set receives the box at the same CTA-relative offset and its "
     "mbarrier at the same offset is credited.",
     "PTX ISA 9.2 §9.7.9.25.5.2; golden/tma rule 7", P::HardwareSm90},
    {RuleId::TmaFaultMulticastMask, "multicast mask",
     "A ctaMask bit at or beyond the cluster size raises cudaErrorLaunchFailure.",
     "golden/tma Surprises", P::HardwareSm90},
    {RuleId::EncodeRule, "tensor map encode", "A cuTensorMapEncode* parameter rule.", "cuda.h; tma.md §2",
     P::CudaDriver},
    {RuleId::ScenarioSyntax, "scenario syntax", "Scenario file grammar.", "README: scenario format", P::Assumption},
    {RuleId::PtxSyntax, "PTX syntax", "PTX instruction grammar.", "PTX ISA 9.2", P::PtxText},
}};

} // namespace

const RuleInfo& ruleInfo(RuleId id) {
    const auto i = static_cast<std::size_t>(id);
    return i < kRules.size() ? kRules[i] : kRules[0];
}

} // namespace layoutscope
