#pragma once
/// Layout inference (issue 13 item 5; docs/observed.md "infer"): given a shared-memory tile a real kernel
/// got and the tensor it came from (its global dims, strides and `pattern=index` fill, so that every
/// element names itself), find the TMA tile-load parameters that reproduce the tile byte for byte — element
/// type, box, swizzle, load coordinates and the buffer's address modulo 1024 — by running the engine's own
/// executor on each candidate. Or say that none does, and which candidate comes closest.
#include "layoutscope/core/result.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace layoutscope {

struct InferCandidate {
    TensorMap map;                                ///< encoded (driver rules of the target)
    std::array<int32_t, kMaxTensorRank> coords{}; ///< the load's coordinates
    uint32_t smemAddr = 0;                        ///< the buffer's shared::cta address tried
    uint64_t differing = 0;                       ///< observed bytes this candidate gets wrong
};

struct InferResult {
    std::vector<InferCandidate> exact; ///< every candidate that reproduces the tile, the tensor's own element
                                       ///< type first (the buffer's own address is searched first, the other
                                       ///< 128-B phases only when it matches nothing)
    InferCandidate closest;            ///< the fewest differing bytes, when none is exact
    uint64_t tried = 0;                ///< candidates executed
};

/// Searched: element sizes 1, 2, 4, 8 B (the tensor's bytes re-read as that type: UINT8, UINT16, UINT32,
/// UINT64 unless the size is the tensor's own), swizzles NONE / 32B / 64B / 128B (and the 128B_ATOM_* modes
/// for sm_100 targets), box[0] with 16-B multiples of row bytes up to 256 elements, the other box dims from
/// the tile's size (rank 3: every split of the rows), the origin from the smallest element index in the
/// tile, and the buffer address modulo 1024 in 128-B steps when the given one matches nothing.
/// Not searched (said in the result's report): interleave, elementStrides other than 1, OOB origins.
/// Errors: the tensor's fill is not pattern=index, the tile is empty or larger than 228 KiB.
[[nodiscard]] Result<InferResult> inferTileLoad(const ScenarioTensorMap& tensor,
                                                std::span<const uint8_t> observed, uint32_t bufferAddr,
                                                TmaArch arch);

} // namespace layoutscope
