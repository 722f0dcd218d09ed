#pragma once
/// The consumer model (issue 12): which shared-memory bytes each element of a consumer's operand reads,
/// and the check of those reads against the producer that wrote the bytes (a TMA tile load).
///
/// A layout bug is a disagreement between a producer (TMA writes a box with a swizzle) and a consumer
/// (tcgen05.cp / an MMA reads through a shared-memory descriptor that assumes a layout). The consumer is
/// described element by element as OperandRead records; the check looks up, for every read, the
/// producer move that last wrote those bytes and compares the global element it holds with the one the
/// consumer should see.
#include "layoutscope/core/result.hpp"
#include "layoutscope/core/trace.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/tcgen05.hpp"

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

/// ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16 (PTX ISA 9.2 §9.7.14.5.15): threads 8i..8i+7 give
/// the row addresses of matrix i (i < num); register i of every thread receives two b16 elements of
/// matrix i. Measured on H100: tests/data/ldmatrix/h100_records.jsonl (scripts/probes/ldmatrix).
struct LdmatrixForm {
    uint32_t num = 1; ///< .x1, .x2, .x4
    bool trans = false;
};
/// Shared byte address of half `h` (0: bits [0,16), 1: bits [16,32)) of register `r` (< num) of thread
/// `t`, given every thread's row address:
///   no .trans: row t/4 of matrix r, elements 2*(t%4) + h   -> rowAddr[8r + t/4] + 4*(t%4) + 2h
///   .trans:    column t/4 of matrix r, rows 2*(t%4) + h     -> rowAddr[8r + 2*(t%4) + h] + 2*(t/4)
[[nodiscard]] uint32_t ldmatrixSource(const LdmatrixForm& f, const std::array<uint32_t, 32>& rowAddr,
                                      uint32_t t, uint32_t r, uint32_t h);
/// Every register half of a warp's ldmatrix as an OperandRead of 2 bytes: m = the matrix row it belongs
/// to (8r + row), kByte = 2 * column (the consumer's own (row, column) of that matrix element).
[[nodiscard]] std::vector<OperandRead> ldmatrixReads(const LdmatrixForm& f,
                                                     const std::array<uint32_t, 32>& rowAddr);

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

/// One read compared with the element it should hold (checkReads' rule below, for a single read).
struct ReadComparison {
    std::array<int64_t, 2> expected{};
    std::optional<std::array<int64_t, 2>> actual; ///< nullopt: bytes no producer the check knows wrote
    bool match = false;
};
[[nodiscard]] ReadComparison compareRead(const OperandRead& r, const ProducerLookup& producer,
                                         std::array<int64_t, 2> origin, uint32_t elemBytes, bool mnMajor);

/// The default inference, starting at `origin` (the element the consumer's (0, 0) should hold):
/// K-major: operand row m is dimension 1 and K is dimension 0 of the tensor the producer wrote,
///   expected(m, kByte) = (origin[0] + kByte / elemBytes, origin[1] + m);
/// MN-major (`mnMajor`): m along dimension 0, K along dimension 1,
///   expected(m, kByte) = (origin[0] + m, origin[1] + kByte / elemBytes).
[[nodiscard]] ConsumerCheck checkReads(const std::vector<OperandRead>& reads, const ProducerLookup& producer,
                                       std::array<int64_t, 2> origin, uint32_t elemBytes, size_t keep = 4,
                                       bool mnMajor = false);

/// A wgmma / UMMA operand read through a shared-memory descriptor: element (mn, k) of an operand with
/// `rows` (M or N) x `k` elements of `elemBits` bits, K- or MN-major, at elementAddress (one read each).
[[nodiscard]] std::vector<OperandRead> descriptorOperandReads(const SmemDescriptor& d, MatrixMajor major,
                                                              uint32_t elemBits, uint32_t rows, uint32_t k);

} // namespace layoutscope
