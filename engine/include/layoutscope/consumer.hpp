#pragma once
/// The consumer model (issue 12): which shared-memory bytes each element of a consumer's operand reads,
/// and the check of those reads against the producer that wrote the bytes (a TMA tile load).
///
/// A layout bug is a disagreement between a producer (TMA writes a box with a swizzle) and a consumer
/// (tcgen05.cp / an MMA reads through a shared-memory descriptor that assumes a layout). The consumer is
/// described element by element as OperandRead records; the check looks up, for every read, the
/// producer move that last wrote those bytes and compares the global element it holds with the one the
/// consumer should see.
#include "layoutscope/result.hpp"
#include "layoutscope/smem_descriptor.hpp"
#include "layoutscope/tcgen05.hpp"
#include "layoutscope/trace.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope {

/// One read of a K-major operand: row `m` (M or N index), bytes [kByte, kByte + length) along K, found
/// at shared::cta address `addr` (after the swizzle).
struct OperandRead {
    uint32_t m = 0;
    uint32_t kByte = 0;
    uint32_t length = 0;
    uint32_t addr = 0;
};

/// tcgen05.cp: every source row's 16-byte chunks through descriptor `d` (cpSourceAddress; the K-major
/// canonical walk, open question 3).
[[nodiscard]] std::vector<OperandRead> tcgen05CpReads(CpShape shape, const SmemDescriptor& d);

/// What the producer left at one shared-memory byte: the global element it holds (coordinates, dim 0
/// first) and how it got there. nullopt: nothing the check understands wrote it.
struct ProducedByte {
    std::array<int64_t, 2> coord{}; ///< (dim 0, dim 1) of the element
    uint32_t elemBytes = 1;
    uint32_t swizzle = 0; ///< the producer's CUtensorMapSwizzle
};
using ProducerLookup = std::function<std::optional<ProducedByte>(uint32_t addr)>;

/// One disagreement: consumer element (m, k) should hold global `expected` but reads `actual`
/// (nullopt: bytes no producer wrote).
struct ReadMismatch {
    uint32_t m = 0, k = 0;
    std::array<int64_t, 2> expected{};
    std::optional<std::array<int64_t, 2>> actual;
};

struct ConsumerCheck {
    size_t reads = 0;                ///< reads compared
    size_t mismatched = 0;           ///< reads that see another element
    std::vector<ReadMismatch> first; ///< the first few, in operand order
};

/// The default inference: operand row m is dimension 1 and K is dimension 0 of the tensor the producer
/// wrote, starting at `origin` (the element the consumer's (0, 0) should hold):
/// expected(m, kByte) = (origin[0] + kByte / elemBytes, origin[1] + m).
[[nodiscard]] ConsumerCheck checkReads(const std::vector<OperandRead>& reads, const ProducerLookup& producer,
                                       std::array<int64_t, 2> origin, uint32_t elemBytes, size_t keep = 4);

} // namespace layoutscope
