// Shared-memory swizzle functions of the TMA (tma.md §4.2, PTX ISA 9.2 §5.5.7). All act on the
// ABSOLUTE shared::cta byte address A, not the offset from dstMem (golden/tma rule 3, H_dst_align).
//
//   SWIZZLE_128B = Swizzle<3,4,3>:   A bits [4,7) ^= A bits [7,10)
//     address  ...| 9 8 7 | 6 5 4 | 3 2 1 0
//                   \_____ XOR ___/^
//   SWIZZLE_64B  = Swizzle<2,4,3>:   A bits [4,6) ^= A bits [7,9)
//   SWIZZLE_32B  = Swizzle<1,4,3>:   A bit 4      ^= A bit 7
//   128B_ATOM_32B         = Swizzle<2,5,2>: A bits [5,7) ^= A bits [7,9)      (unverified, sm_100)
//   128B_ATOM_32B_FLIP_8B = ATOM_32B, then A bit 3 ^= A bit 7                 (unverified, sm_100)
//   128B_ATOM_64B         = Swizzle<1,6,1>: A bit 6 ^= A bit 7                 (unverified, sm_100)
//   PTX_96B (no cuda.h value) = Swizzle<1,4,3> on rows 96 B apart              (unverified, sm_103)
#include "tma/plan.hpp"

namespace layoutscope {

uint32_t swizzleAddress(TensorSwizzle s, uint32_t a) {
    switch (s) {
    case TensorSwizzle::NONE:
        return a;
    case TensorSwizzle::S32B:
        return a ^ (((a >> 7) & 1u) << 4); // HardwareSm90
    case TensorSwizzle::S64B:
        return a ^ (((a >> 7) & 3u) << 4); // HardwareSm90
    case TensorSwizzle::S128B:
        return a ^ (((a >> 7) & 7u) << 4); // HardwareSm90
    // unverified: the three sm_100 atom variants follow the PTX 9.2 §5.5.7 tables (tma.md §4.2);
    // encode rejects them on sm_90, so no hardware record checks them (Provenance::Assumption).
    case TensorSwizzle::S128B_ATOM_32B:
        return a ^ (((a >> 7) & 3u) << 5);
    case TensorSwizzle::S128B_ATOM_32B_FLIP_8B: {
        // unverified: which 128-byte lines flip their 8-byte halves (odd lines assumed).
        const uint32_t atom = a ^ (((a >> 7) & 3u) << 5);
        return atom ^ (((a >> 7) & 1u) << 3);
    }
    case TensorSwizzle::S128B_ATOM_64B:
        return a ^ (((a >> 7) & 1u) << 6);
    // unverified (open question 1): PTX 96B table, 128-byte lines 0..7 then 1 0 3 2 5 4 7 6 (tma.md §4.2).
    case TensorSwizzle::PTX_96B:
        return a ^ (((a >> 7) & 1u) << 4);
    }
    return a;
}

namespace detail {

RuleId swizzleRule(TensorSwizzle s) {
    switch (s) {
    case TensorSwizzle::NONE:
        return RuleId::TmaBoxTraversal;
    case TensorSwizzle::S32B:
        return RuleId::TmaSwizzle32B;
    case TensorSwizzle::S64B:
        return RuleId::TmaSwizzle64B;
    case TensorSwizzle::S128B:
        return RuleId::TmaSwizzle128B;
    case TensorSwizzle::S128B_ATOM_32B:
        return RuleId::TmaSwizzle128BAtom32B;
    case TensorSwizzle::S128B_ATOM_32B_FLIP_8B:
        return RuleId::TmaSwizzle128BAtom32BFlip8B;
    case TensorSwizzle::S128B_ATOM_64B:
        return RuleId::TmaSwizzle128BAtom64B;
    case TensorSwizzle::PTX_96B:
        return RuleId::TmaSwizzle96B;
    }
    return RuleId::TmaBoxTraversal;
}

uint32_t roundToTf32(uint32_t bits) {
    // Measured on the H100 (docs/tf32.md, tests/data/tf32_round_h100.txt): every NaN, whatever its
    // sign and payload, becomes the canonical 0x7FFFE000; Inf and finite values round to nearest
    // even at bit 13, a carry out of the largest finite value giving Inf.
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0) return 0x7FFFE000u;
    const uint32_t lsb = (bits >> 13) & 1u; // round half to even at bit 13
    return (bits + 0x0FFFu + lsb) & ~0x1FFFu;
}

} // namespace detail

RuleId swizzleModeRule(TensorSwizzle s) {
    return detail::swizzleRule(s);
}

} // namespace layoutscope
